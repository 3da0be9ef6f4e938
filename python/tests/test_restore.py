"""Restore: a model's arguments, written in a provider's terms, mapped back to what the code reads.

The pydantic models of ``seed_models.py`` (``Waypoint``, ``Itinerary``) and one with
every shape a provider dialect rewrites (optional fields, defaults, a map, a free-form object,
nested models, ``Any``, bounds), under ``openai-strict``, ``anthropic-strict`` and ``gemini``. For
each: the provider schema; arguments a model would send under it (``null`` for a field left out
where every field is required, ``{"key", "value"}`` entries for a map, JSON text for ``Any``, a
bound the provider was only told in words), which the provider's schema accepts (checked with
``jsonschema``); restored; then validated by pydantic itself, equal to the model built from the
plain arguments, and accepted by the original schema. Bad arguments give every fault with its
pointer; the forward map (``encode``) round-trips.
"""

from __future__ import annotations

import copy
import datetime
import uuid
from typing import Any, Dict, List, Optional

import jsonschema
import pydantic
import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError, conint

import toolschema
from seed_models import Itinerary, Waypoint
from toolschema import ArgumentsError, CapabilityError, ConversionError, ToolSchemaError, schema_for

PROVIDERS = ("openai-strict", "anthropic-strict", "gemini")


# ---- the models --------------------------------------------------------------------------------


class Room(BaseModel):
    beds: conint(ge=1, le=4)  # type: ignore[valid-type]
    view: Optional[str] = None


class Booking(BaseModel):
    """A booking.

    Args:
        guest: Who stays.
        nights: How many nights.
        extras: Extra services and how many of each.
        meta: Free-form data from the channel.
        payload: Anything the channel sent along.
    """

    guest: str
    nights: conint(ge=0)  # type: ignore[valid-type]
    note: Optional[str] = None
    rooms: List[Room] = []
    extras: Dict[str, int] = {}
    meta: Dict[str, Any] = {}
    stop: Optional[Waypoint] = None
    payload: Any = None


# ---- the cases: plain arguments, and what a model sends for them under each provider -----------

FULL = {
    "guest": "Ada",
    "nights": 2,
    "note": "late check-in",
    "rooms": [{"beds": 2}, {"beds": 1, "view": "sea"}],
    "extras": {"breakfast": 2, "parking": 1},
    "meta": {"channel": "web", "campaign": None},
    "stop": {"city": "Oslo", "nights": 3},
    "payload": ["any", {"shape": 1.5}],
}
ENTRIES = [{"key": "breakfast", "value": 2}, {"key": "parking", "value": 1}]
# A model writes JSON text as it likes: spaces, key order.
META_TEXT = '{"campaign": null, "channel": "web"}'
PAYLOAD_TEXT = '["any", {"shape": 1.5}]'

CASES: list[tuple[str, type[BaseModel], dict[str, Any], dict[str, Any]]] = [
    (
        "waypoint, default left out",
        Waypoint,
        {"city": "Oslo"},
        {
            "openai-strict": {"city": "Oslo", "nights": None},
            "anthropic-strict": {"city": "Oslo"},
            "gemini": {"city": "Oslo"},
        },
    ),
    (
        "waypoint, a float for an integer",
        Waypoint,
        {"city": "Oslo", "nights": 2},
        {
            "openai-strict": {"city": "Oslo", "nights": 2.0},
            "anthropic-strict": {"city": "Oslo", "nights": 2.0},
            "gemini": {"city": "Oslo", "nights": 2.0},
        },
    ),
    (
        "itinerary, nested models with defaults",
        Itinerary,
        {"name": "North", "stops": [{"city": "Oslo"}, {"city": "Bergen", "nights": 2}]},
        {
            "openai-strict": {
                "name": "North",
                "stops": [{"city": "Oslo", "nights": None}, {"city": "Bergen", "nights": 2}],
            },
            "anthropic-strict": {"name": "North", "stops": [{"city": "Oslo"}, {"city": "Bergen", "nights": 2}]},
            "gemini": {"name": "North", "stops": [{"city": "Oslo"}, {"city": "Bergen", "nights": 2}]},
        },
    ),
    (
        "booking, only what is required",
        Booking,
        {"guest": "Ada", "nights": 0},
        {
            "openai-strict": {
                "guest": "Ada",
                "nights": 0,
                "note": None,
                "rooms": None,
                "extras": None,
                "meta": None,
                "stop": None,
                "payload": None,
            },
            "anthropic-strict": {"guest": "Ada", "nights": 0},
            "gemini": {"guest": "Ada", "nights": 0},
        },
    ),
    (
        "booking, every field",
        Booking,
        FULL,
        {
            "openai-strict": {
                "guest": "Ada",
                "nights": 2,
                "note": "late check-in",
                "rooms": [{"beds": 2, "view": None}, {"beds": 1, "view": "sea"}],
                "extras": ENTRIES,
                "meta": META_TEXT,
                "stop": {"city": "Oslo", "nights": 3},
                "payload": PAYLOAD_TEXT,
            },
            "anthropic-strict": {
                "guest": "Ada",
                "nights": 2,
                "note": "late check-in",
                "rooms": [{"beds": 2}, {"beds": 1, "view": "sea"}],
                "extras": ENTRIES,
                "meta": META_TEXT,
                "stop": {"city": "Oslo", "nights": 3},
                "payload": PAYLOAD_TEXT,
            },
            "gemini": {
                "guest": "Ada",
                "nights": 2,
                "note": "late check-in",
                "rooms": [{"beds": 2}, {"beds": 1, "view": "sea"}],
                "extras": ENTRIES,
                "meta": META_TEXT,
                "stop": {"city": "Oslo", "nights": 3},
                "payload": PAYLOAD_TEXT,
            },
        },
    ),
    (
        "booking, explicit nulls and empty containers",
        Booking,
        {"guest": "Ada", "nights": 1, "note": None, "rooms": [], "extras": {}, "meta": {}, "stop": None, "payload": None},
        {
            "openai-strict": {
                "guest": "Ada",
                "nights": 1,
                "note": None,
                "rooms": [],
                "extras": [],
                "meta": "{}",
                "stop": None,
                "payload": "null",
            },
            "anthropic-strict": {
                "guest": "Ada",
                "nights": 1,
                "note": None,
                "rooms": [],
                "extras": [],
                "meta": "{}",
                "stop": None,
                "payload": "null",
            },
            "gemini": {
                "guest": "Ada",
                "nights": 1,
                "note": None,
                "rooms": [],
                "extras": [],
                "meta": "{}",
                "stop": None,
                "payload": "null",
            },
        },
    ),
]

CASE_IDS = [case[0] for case in CASES]


# ---- helpers -----------------------------------------------------------------------------------


def as_json_schema(schema: Any) -> Any:
    """A provider schema as JSON Schema ``jsonschema`` reads: Gemini's OpenAPI-style
    ``nullable: true`` written as ``null`` among the types (every other keyword is JSON Schema's)."""
    if isinstance(schema, list):
        return [as_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: as_json_schema(v) for k, v in schema.items()}
    if out.pop("nullable", False):
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
    return out


def accepts(schema: Any, value: Any) -> list[str]:
    """Every error ``jsonschema`` (draft 2020-12) finds in ``value`` under ``schema``."""
    validator = jsonschema.Draft202012Validator(as_json_schema(schema))
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)]


def faults_of(fn: Any) -> ArgumentsError:
    with pytest.raises(ArgumentsError) as info:
        fn()
    return info.value


# ---- restore, case by case ---------------------------------------------------------------------


@pytest.mark.parametrize("dialect", PROVIDERS)
@pytest.mark.parametrize(("name", "model", "plain", "sent"), CASES, ids=CASE_IDS)
def test_a_models_arguments_in_the_providers_terms_restore_to_what_pydantic_validates(
    dialect: str, name: str, model: type[BaseModel], plain: dict[str, Any], sent: dict[str, Any]
) -> None:
    built = schema_for(model, dialect=dialect)
    arguments = sent[dialect]
    # What the model sends is what the provider's schema allows.
    assert not accepts(built.schema, arguments), accepts(built.schema, arguments)

    before = copy.deepcopy(arguments)
    restored = built.restore(arguments)
    assert arguments == before, "restore does not mutate its argument"

    # Pydantic reads the restored arguments as the plain ones, and the original schema accepts them.
    assert model.model_validate(restored) == model.model_validate(plain)
    assert not accepts(schema_for(model).schema, restored), accepts(schema_for(model).schema, restored)

    # The same plan from the original schema alone, in one call (what a gateway does).
    assert toolschema.restore(model.model_json_schema(), arguments, dialect=dialect) == restored


def test_what_restore_gives_exactly() -> None:
    openai = schema_for(Booking, dialect="openai-strict")
    # `null` for a field left out is dropped; pydantic then applies the default.
    assert openai.restore(CASES[3][3]["openai-strict"]) == {"guest": "Ada", "nights": 0}
    # Entries become a dict, JSON text is parsed, `null` inside an item is dropped where it stood
    # for absence; what was sent as a value stays a value.
    assert openai.restore(CASES[4][3]["openai-strict"]) == FULL
    # An integral float where an integer is declared becomes an int (pydantic's strict mode, and
    # serde, refuse 2.0).
    restored = schema_for(Waypoint, dialect="anthropic-strict").restore({"city": "Oslo", "nights": 2.0})
    assert restored == {"city": "Oslo", "nights": 2} and type(restored["nights"]) is int
    # A JSON text of `null` is the value null, a bare null the field left out.
    assert schema_for(Booking, dialect="gemini").restore({"guest": "A", "nights": 0, "payload": "null"}) == {
        "guest": "A",
        "nights": 0,
        "payload": None,
    }


# ---- the provider schemas and what each dialect rewrote ----------------------------------------


def test_the_provider_schemas_say_each_rewrite() -> None:
    openai = schema_for(Booking, dialect="openai-strict").schema
    assert openai["required"] == sorted(openai["properties"])  # every field required...
    assert openai["properties"]["rooms"]["type"] == ["array", "null"]  # ...with null for absent
    assert openai["properties"]["extras"]["items"]["properties"] == {"key": {"type": "string"}, "value": {"type": "integer"}}
    assert openai["properties"]["payload"]["type"] == ["string", "null"]
    assert "JSON text" in openai["properties"]["payload"]["description"]
    assert openai["properties"]["nights"] == {"description": "How many nights.", "minimum": 0, "type": "integer"}

    anthropic = schema_for(Booking, dialect="anthropic-strict").schema
    assert anthropic["required"] == ["guest", "nights"]
    # Anthropic enforces no bounds: the description states it, restore checks it.
    assert anthropic["properties"]["nights"] == {"description": "How many nights. Constraints: at least 0.", "type": "integer"}
    assert anthropic["$defs"]["Room"]["properties"]["beds"]["description"] == "Constraints: at least 1; at most 4."
    assert anthropic["properties"]["extras"]["type"] == "array"

    gemini = schema_for(Booking, dialect="gemini").schema
    assert gemini["properties"]["note"] == {"nullable": True, "type": "string"}
    assert gemini["properties"]["meta"]["type"] == "string"
    assert gemini["properties"]["nights"] == {"description": "How many nights.", "minimum": 0, "type": "integer"}


def test_adaptations_list_every_rewrite_with_its_pointer_keyword_and_kind() -> None:
    anthropic = schema_for(Booking, dialect="anthropic-strict")
    assert [(a.pointer, a.keyword, a.kind) for a in anthropic.adaptations] == [
        ("/$defs/Room/properties/beds", "maximum", "moved-check"),
        ("/$defs/Room/properties/beds", "minimum", "moved-check"),
        ("/properties/extras", "additionalProperties", "map-as-entries"),
        ("/properties/meta", "additionalProperties", "json-text"),
        ("/properties/nights", "minimum", "moved-check"),
        ("/properties/payload", "type", "json-text"),
    ]
    first = anthropic.adaptations[0]
    assert isinstance(anthropic.adaptations, tuple)
    assert str(first) == "`maximum` at `/$defs/Room/properties/beds`: moved-check" == first.message
    assert repr(first).startswith("Adaptation(pointer=")
    assert first == schema_for(Booking, dialect="anthropic-strict").adaptations[0]
    assert len({*anthropic.adaptations, *anthropic.adaptations}) == len(anthropic.adaptations)

    openai = {(a.pointer, a.kind) for a in schema_for(Booking, dialect="openai-strict").adaptations}
    assert ("/properties/rooms", "null-for-absent") in openai
    assert ("/$defs/Waypoint/properties/nights", "null-for-absent") in openai
    assert not any(kind == "moved-check" for _, kind in openai)
    gemini = {(a.pointer, a.kind) for a in schema_for(Booking, dialect="gemini").adaptations}
    assert gemini == {
        ("/properties/extras", "map-as-entries"),
        ("/properties/meta", "json-text"),
        ("/properties/payload", "json-text"),
    }
    assert schema_for(Booking).adaptations == ()  # json-schema rewrites nothing


Wide = pydantic.create_model(  # type: ignore[call-overload]
    "Wide", **{f"f{i:02}": (Optional[conint(ge=0)], None) for i in range(30)}  # type: ignore[valid-type]
)


def test_past_anthropics_optional_limit_the_last_declared_fields_are_folded_into_json_text() -> None:
    built = schema_for(Wide, dialect="anthropic-strict")
    folded = [a.pointer for a in built.adaptations if a.kind == "folded"]
    # 30 optional fields: 23 kept, 7 folded into one optional property, 24 in all.
    assert folded == [f"/properties/f{i:02}" for i in range(23, 30)]
    assert built.schema["properties"]["more_properties"]["type"] == "string"
    assert "f29" not in built.schema["properties"]
    sent = built.encode({"f00": 1, "f29": 2})
    assert sent == {"f00": 1, "more_properties": '{"f29":2}'}
    assert built.restore(sent) == {"f00": 1, "f29": 2}
    err = faults_of(lambda: built.restore({"more_properties": '{"f29": -2}'}))
    assert [pointer for pointer, _ in err.faults] == ["/f29"]
    assert "must be at least 0, got -2" in err.faults[0][1]
    # Exact mode refuses instead.
    with pytest.raises(CapabilityError):
        schema_for(Wide, dialect="anthropic-strict", exact=True)


def _has_key(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


class TreeNode(BaseModel):
    value: conint(ge=0)  # type: ignore[valid-type]
    children: List[TreeNode] = []


def test_a_recursive_model_is_unrolled_and_the_rest_sent_as_json_text_restore_checks() -> None:
    deep: dict[str, Any] = {"value": 4, "children": []}
    for level in range(3, -1, -1):
        deep = {"value": level, "children": [deep]}
    for depth in (0, 1, 3):
        built = schema_for(TreeNode, dialect="anthropic-strict", recursion_depth=depth)
        assert any(a.kind == "schema-text" for a in built.adaptations), depth
        assert not _has_key(built.schema, "$ref")  # the text's description may name one
        # Any depth can be sent, and comes back as it was.
        assert built.restore(built.encode(deep)) == deep
        # A fault past the cut points into the value, not into the text.
        bad = copy.deepcopy(deep)
        bad["children"][0]["children"][0]["children"][0]["value"] = -1
        err = faults_of(lambda: built.restore(built.encode(bad)))  # noqa: B023
        assert [pointer for pointer, _ in err.faults] == ["/children/0/children/0/children/0/value"], depth
    # More levels written out make a longer schema; exact mode refuses recursion.
    short = schema_for(TreeNode, dialect="anthropic-strict", recursion_depth=0).canonical_json
    long = schema_for(TreeNode, dialect="anthropic-strict", recursion_depth=3).canonical_json
    assert len(long) > len(short)
    with pytest.raises(CapabilityError):
        schema_for(TreeNode, dialect="anthropic-strict", exact=True)


# ---- faults ------------------------------------------------------------------------------------


def test_a_bound_anthropic_was_only_told_is_checked_and_every_failure_listed() -> None:
    built = schema_for(Booking, dialect="anthropic-strict")
    sent = {"guest": "Ada", "nights": -1, "rooms": [{"beds": 9}, {"beds": 0}, {"beds": 2}]}
    err = faults_of(lambda: built.restore(sent))
    assert err.faults == [
        ("/nights", "must be at least 0, got -1"),
        ("/rooms/0/beds", "must be at most 4, got 9"),
        ("/rooms/1/beds", "must be at least 1, got 0"),
    ]
    assert err.pointer == "/nights" and err.kind == "invalid-arguments" and err.tool is None
    assert str(err) == (
        "the arguments do not fit the tool's schema:\n"
        "- `/nights`: must be at least 0, got -1\n"
        "- `/rooms/0/beds`: must be at most 4, got 9\n"
        "- `/rooms/1/beds`: must be at least 1, got 0"
    )
    assert isinstance(err, ToolSchemaError) and isinstance(err, ValueError)
    # Pydantic agrees that these arguments are bad; restore found it without the model class.
    with pytest.raises(ValidationError):
        Booking.model_validate({"guest": "Ada", "nights": -1})
    # Under OpenAI and Gemini the provider enforces the bound itself: restore does not check it.
    assert schema_for(Booking, dialect="gemini").restore({"guest": "Ada", "nights": -1}) == {"guest": "Ada", "nights": -1}


@pytest.mark.parametrize("dialect", PROVIDERS)
def test_a_repeated_map_key_and_text_that_is_not_json_are_faults_with_pointers(dialect: str) -> None:
    built = schema_for(Booking, dialect=dialect)
    sent = {
        "guest": "Ada",
        "nights": 1,
        "extras": [{"key": "parking", "value": 1}, {"key": "parking", "value": 2}],
        "meta": '{"channel": web}',
        "payload": "not json at all",
    }
    if dialect == "openai-strict":
        sent.update(note=None, rooms=None, stop=None)
    assert not accepts(built.schema, sent)  # the provider would let all of it through
    err = faults_of(lambda: built.restore(sent))
    pointers = [pointer for pointer, _ in err.faults]
    assert pointers == ["/extras/1", "/meta", "/payload"]
    messages = dict(err.faults)
    assert messages["/extras/1"] == "repeats the key `parking`; each key may appear once"
    assert messages["/meta"].startswith("must be JSON text of an object, and it does not parse: ")
    assert messages["/payload"].startswith("must be JSON text of any JSON value, and it does not parse: ")
    assert err.pointer == "/extras/1"
    assert all(f"- `{p}`: {m}" in str(err) for p, m in err.faults)


def test_json_text_of_the_wrong_kind_is_a_fault() -> None:
    err = faults_of(lambda: schema_for(Booking, dialect="gemini").restore({"guest": "A", "nights": 0, "meta": "[1, 2]"}))
    assert err.faults == [("/meta", "must be JSON text of an object, got an array")]


def test_the_one_call_restore_names_the_tool_and_raises_as_the_method_does() -> None:
    schema = Booking.model_json_schema()
    err = faults_of(
        lambda: toolschema.restore(schema, {"guest": "A", "nights": -3}, dialect="anthropic-strict", name="book")
    )
    assert err.tool == "book" and err.faults == [("/nights", "must be at least 0, got -3")]
    assert str(err).startswith("the arguments do not fit the tool's schema:")  # no prefix: it is for the model
    with pytest.raises(ToolSchemaError) as unknown:
        toolschema.restore(schema, {}, dialect="no-such")
    assert unknown.value.kind == "unknown-dialect"
    with pytest.raises(TypeError):
        toolschema.restore(schema, {})  # type: ignore[call-arg]  # the dialect is not guessed
    with pytest.raises(CapabilityError):
        toolschema.restore(schema, {"guest": "A", "nights": 0}, dialect="anthropic-strict", exact=True)


# ---- formats: what pydantic enforces and the provider drops is checked on restore ------------


class Visit(BaseModel):
    day: datetime.date
    at: Optional[datetime.time] = None
    start: Optional[datetime.datetime] = None
    ref: Optional[uuid.UUID] = None


# Gemini's `Schema` proto keeps only the `date-time` format, and `json-schema` leaves every format
# an annotation: restore checks the others as pydantic reads them.
@pytest.mark.parametrize("dialect", ("gemini", "gemini-ordered", "json-schema"))
def test_a_format_the_provider_drops_is_checked_on_restore_as_pydantic_reads_it(dialect: str) -> None:
    built = schema_for(Visit, dialect=dialect)
    err = faults_of(lambda: built.restore({"day": ""}))
    assert err.faults == [("/day", 'must be a `date` (YYYY-MM-DD), got ""')]
    with pytest.raises(ValidationError):
        Visit.model_validate({"day": ""})
    if dialect.startswith("gemini"):
        assert built.schema["properties"]["day"]["description"] == "Constraints: a `date` (YYYY-MM-DD)."
    # Each value restore refuses, pydantic refuses too.
    for field, bad in (("day", "2023-02-29"), ("at", "noon"), ("ref", "not-a-uuid")):
        sent = {"day": "2024-01-02", field: bad}
        assert [p for p, _ in faults_of(lambda sent=sent: built.restore(sent)).faults] == [f"/{field}"], (field, bad)
        with pytest.raises(ValidationError):
            Visit.model_validate(sent)
    # Each value pydantic reads passes restore unchanged: a time without seconds or offset, a naive
    # date-time, a uuid in capitals.
    for field, good in (
        ("day", "2024-02-29"),
        ("at", "12:30"),
        ("at", "12:30:00+01:00"),
        ("start", "2024-01-02T03:04:05"),
        ("start", "2024-01-02T03:04:05Z"),
        ("ref", "123E4567-E89B-12D3-A456-426614174000"),
    ):
        sent = {"day": "2024-01-02", field: good}
        restored = built.restore(sent)
        assert {k: v for k, v in restored.items() if v is not None} == sent, (field, good)
        Visit.model_validate(restored)


def test_the_plan_comes_from_the_schema_alone() -> None:
    schema = Booking.model_json_schema()

    def reversed_keys(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reversed_keys(value[k]) for k in reversed(list(value))}
        if isinstance(value, list):
            return [reversed_keys(v) for v in value]
        return value

    sent = CASES[4][3]["openai-strict"]
    a = toolschema.restore(schema, sent, dialect="openai-strict")
    b = toolschema.restore(reversed_keys(schema), reversed_keys(sent), dialect="openai-strict")
    assert a == b == FULL
    built = toolschema.normalize(schema, dialect="openai-strict")
    again = toolschema.normalize(reversed_keys(schema), dialect="openai-strict")
    assert built.adaptations == again.adaptations and built.hash == again.hash


# ---- the forward map ---------------------------------------------------------------------------


def strip_nulls(value: Any) -> Any:
    """``value`` without the properties set to ``None`` (absent and null read alike here: every
    such field of these models defaults to ``None``)."""
    if isinstance(value, dict):
        return {k: strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [strip_nulls(v) for v in value]
    return value


@pytest.mark.parametrize("dialect", PROVIDERS)
@pytest.mark.parametrize(("name", "model", "plain", "sent"), CASES, ids=CASE_IDS)
def test_encode_is_restores_inverse(
    dialect: str, name: str, model: type[BaseModel], plain: dict[str, Any], sent: dict[str, Any]
) -> None:
    built = schema_for(model, dialect=dialect)

    def same_up_to_null_for_absent(a: Any, b: Any) -> None:
        if a != b:
            # Only where OpenAI requires every field may a null a field defaults to stand for the
            # field left out, and come back so.
            assert dialect == "openai-strict" and strip_nulls(a) == strip_nulls(b), (a, b)
        assert model.model_validate(a) == model.model_validate(b)

    shown = built.encode(plain)
    assert not accepts(built.schema, shown), accepts(built.schema, shown)
    same_up_to_null_for_absent(built.restore(shown), plain)
    # For a model's arguments as sent, encoding what they restore to gives arguments that restore
    # to the same.
    restored = built.restore(sent[dialect])
    same_up_to_null_for_absent(built.restore(built.encode(restored)), restored)


def test_encode_writes_the_providers_terms() -> None:
    openai = schema_for(Booking, dialect="openai-strict")
    assert openai.encode({"guest": "Ada", "nights": 0, "extras": {"wifi": 1}, "meta": {"a": [1]}}) == {
        "guest": "Ada",
        "nights": 0,
        "note": None,
        "rooms": None,
        "extras": [{"key": "wifi", "value": 1}],
        "meta": '{"a":[1]}',
        "stop": None,
        "payload": None,
    }
    wrapped = schema_for(List[Waypoint], dialect="openai-strict")
    assert [a.kind for a in wrapped.adaptations] == ["wrapped-root", "null-for-absent"]
    assert wrapped.encode([{"city": "Oslo"}]) == {"value": [{"city": "Oslo", "nights": None}]}
    restored = wrapped.restore({"value": [{"city": "Oslo", "nights": None}]})
    assert TypeAdapter(List[Waypoint]).validate_python(restored) == [Waypoint(city="Oslo")]


# ---- exact mode --------------------------------------------------------------------------------


def test_exact_mode_refuses_what_needs_a_restore_and_is_part_of_the_hash() -> None:
    with pytest.raises(CapabilityError) as info:
        schema_for(Booking, dialect="anthropic-strict", exact=True)
    found = {(e["pointer"], e["keyword"]) for e in info.value.errors}
    assert ("/properties/nights", "minimum") in found and ("/properties/extras", "additionalProperties") in found
    with pytest.raises(CapabilityError) as info:
        schema_for(Waypoint, dialect="openai-strict", exact=True)
    assert info.value.pointer == "/properties/nights" and info.value.keyword == "required"

    exact = schema_for(Waypoint, dialect="anthropic-strict", exact=True)
    reversible = schema_for(Waypoint, dialect="anthropic-strict")
    assert exact.exact and not reversible.exact
    assert exact.schema == reversible.schema and exact.hash != reversible.hash
    assert exact.adaptations == ()
    # Nothing to undo; integral floats still become integers.
    assert exact.restore({"city": "Oslo", "nights": 2.0}) == {"city": "Oslo", "nights": 2}
    assert toolschema.normalize(Waypoint.model_json_schema(), dialect="anthropic-strict", exact=True).exact


# ---- what is not JSON, and hostile arguments ---------------------------------------------------


def test_arguments_that_are_not_json_are_a_conversion_error_naming_the_value() -> None:
    built = schema_for(Booking, dialect="openai-strict")
    for sent, kind, pointer in [
        ({"guest": "A", "nights": float("nan")}, "not-finite", "/nights"),  # json.loads("NaN")
        ({"guest": "A", "nights": 10**5000}, "integer-out-of-range", "/nights"),
        ({"guest": "A", "nights": 0, "rooms": [{"beds": {1, 2}}]}, "unsupported-type", "/rooms/0/beds"),
    ]:
        for call in (built.restore, built.encode):
            with pytest.raises(ConversionError) as info:
                call(sent)
            assert (info.value.kind, info.value.pointer) == (kind, pointer)


def test_deep_arguments_are_refused_not_followed() -> None:
    built = schema_for(Booking)
    nested: Any = 1
    for _ in range(400):
        nested = [nested]
    assert built.restore({"guest": "A", "nights": 0, "payload": nested})["payload"] == nested
    for _ in range(200):
        nested = [nested]
    with pytest.raises(ConversionError) as info:
        built.restore({"guest": "A", "nights": 0, "payload": nested})
    assert info.value.kind == "too-deep" and info.value.pointer.startswith("/payload/0/0/")

    class Node(BaseModel):
        value: int
        children: List["Node"] = []

    args: dict[str, Any] = {"value": 0, "children": []}
    cur = args
    for _ in range(150):
        cur["children"].append({"value": 0, "children": []})
        cur = cur["children"][0]
    err = faults_of(lambda: schema_for(Node, dialect="openai-strict").restore(args))
    [(pointer, message)] = err.faults
    assert pointer.startswith("/children/0/children/0/") and message == "the arguments nest deeper than 128 levels"

    # JSON text nested past what serde_json parses (128 levels) is a fault, not a crash.
    deep_text = "[" * 1000 + "]" * 1000
    err = faults_of(lambda: schema_for(Booking, dialect="gemini").restore({"guest": "A", "nights": 0, "payload": deep_text}))
    assert err.faults[0][0] == "/payload" and "does not parse" in err.faults[0][1]


def test_one_schema_restores_from_many_threads_at_once() -> None:
    # restore runs with the GIL released; one ToolSchema is shared by every thread.
    from concurrent.futures import ThreadPoolExecutor

    built = schema_for(Booking, dialect="openai-strict")
    sent = CASES[4][3]["openai-strict"]
    bad = {**sent, "extras": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}

    def work(i: int) -> tuple[Any, Any]:
        if i % 2:
            return built.restore(sent), None
        try:
            built.restore(bad)
        except ArgumentsError as exc:
            return None, exc.faults
        return None, None

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(400)))
    assert all(r == (FULL, None) for r in results[1::2])
    assert all(r == (None, [("/extras/1", "repeats the key `a`; each key may appear once")]) for r in results[0::2])


# ---- options the Rust API has: renamed keys, validate, advice -----------------------------------


def test_renamed_keys_say_what_the_model_sends_and_restore_maps_them_back() -> None:
    schema = {
        "type": "object",
        "properties": {"unit price": {"type": "number"}, "ok_key": {"type": "string"}},
        "required": ["unit price", "ok_key"],
    }
    built = toolschema.normalize(schema, dialect="anthropic-strict")
    [key] = built.renamed_keys
    assert (key.pointer, key.original) == ("/properties/unit price", "unit price")
    assert key.sent in built.schema["properties"] and "unit price" not in built.schema["properties"]
    assert str(key) == f"`unit price` -> `{key.sent}` (at `/properties/unit price`)"
    assert key == built.renamed_keys[0] and hash(key) == hash(built.renamed_keys[0])
    assert {a.kind for a in built.adaptations} >= {"renamed-key"}
    assert built.restore({key.sent: 1.5, "ok_key": "x"}) == {"unit price": 1.5, "ok_key": "x"}
    assert built.encode({"unit price": 1.5, "ok_key": "x"}) == {key.sent: 1.5, "ok_key": "x"}
    assert toolschema.normalize(schema, dialect="openai-strict").renamed_keys == ()


def test_validate_checks_structured_content_against_an_output_schema() -> None:
    output_schema = {
        "type": "object",
        "properties": {
            "total": {"type": "integer", "minimum": 0, "maximum": 2**70},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "day": {"type": "string", "format": "date"},
        },
        "required": ["total"],
        "$defs": {"item": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}},
    }
    good = {"total": 2**70, "items": [{"sku": "a"}], "day": "2024-02-29"}
    assert toolschema.validate(output_schema, good) == []
    faults = toolschema.validate(output_schema, {"total": 2**70 + 1, "items": [{}], "day": "2023-02-29"})
    assert [f[0] for f in faults] == ["/total", "/items/0", "/day"], faults
    assert faults[0] == ("/total", "must be at most 1180591620717411303424, got 1180591620717411303425")
    assert toolschema.validate(output_schema, {"total": -1})[0] == ("/total", "must be at least 0, got -1")
    assert [f[0] for f in toolschema.validate(output_schema, {"total": "7"})] == ["/total"]
    assert toolschema.validate(True, {"anything": [1]}) == [] and toolschema.validate(False, 1)
    with pytest.raises(ConversionError):
        toolschema.validate(output_schema, {"total": float("nan")})


def test_advice_speaks_python_for_schema_for_and_json_schema_by_default() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "object", "additionalProperties": {"type": "integer"}}}}
    with pytest.raises(CapabilityError) as default:
        toolschema.normalize(schema, dialect="openai-strict", exact=True)
    with pytest.raises(CapabilityError) as python:
        toolschema.normalize(schema, dialect="openai-strict", exact=True, advice="python")
    assert str(default.value) != str(python.value)
    with pytest.raises(ValueError, match="advice"):
        toolschema.normalize(schema, advice="rust")


def test_coerce_and_restore_converts_strings_a_model_sent_without_strict_mode() -> None:
    built = schema_for(Booking, dialect="openai-strict")
    restored, coercions = built.coerce_and_restore({"guest": "A", "nights": "3", "note": None})
    assert restored == built.restore({"guest": "A", "nights": 3, "note": None})
    assert coercions == [("/nights", "string", "integer")]
    assert built.coerce_and_restore({"guest": "A", "nights": 3, "note": None})[1] == []
    with pytest.raises(ArgumentsError) as info:
        built.coerce_and_restore({"guest": "A", "nights": "three", "note": None})
    assert [f[0] for f in info.value.faults] == ["/nights"]
