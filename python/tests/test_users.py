"""The package as its users meet it: their values, their field order, their docstrings, their own
dialects, errors in their words, their loops, and installing it."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest
import rfc8785
from pydantic import BaseModel, Field

import toolschema
from seed_models import Itinerary, Waypoint
from toolschema import (
    ArgumentsError,
    CapabilityError,
    ConversionError,
    ForeignSchemaError,
    SchemaGenerationError,
    declared_type,
    declared_types,
    normalize,
    schema_for,
    self_contained_input_schema,
)

PYTHON_DIR = Path(__file__).resolve().parents[1]


# --- Declaration order ------------------------------------------------------------------------


class Answer(BaseModel):
    reasoning: str
    answer: str
    confidence: Optional[float] = None


def property_maps(node: Any) -> Iterator[Dict[str, Any]]:
    """Every ``properties`` map in a schema (any depth), by a plain walk of the dicts."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                yield value
            yield from property_maps(value)
    elif isinstance(node, list):
        for item in node:
            yield from property_maps(item)


def assert_declared_order(schema: Any, declared: Dict[str, List[str]]) -> int:
    """Each ``properties`` map whose names are a model's lists them in the model's order; returns
    how many maps were checked."""
    checked = 0
    for props in property_maps(schema):
        names = list(props)
        for order in declared.values():
            if set(names) == set(order):
                assert names == order, (names, order)
                checked += 1
    return checked


@pytest.mark.parametrize("dialect", toolschema.DIALECTS)
def test_every_dialect_keeps_the_declared_property_order(dialect: str) -> None:
    built = schema_for(Answer, dialect=dialect)
    assert assert_declared_order(built.schema, {"Answer": ["reasoning", "answer", "confidence"]}) >= 1
    # Only `properties` keep an order of their own: every other map is sorted.
    def other_keys_sorted(node: Any, in_properties: bool = False) -> None:
        if isinstance(node, dict):
            if not in_properties:
                assert list(node) == sorted(node), list(node)
            for key, value in node.items():
                other_keys_sorted(value, key == "properties" and not in_properties)
        elif isinstance(node, list):
            for item in node:
                other_keys_sorted(item)

    other_keys_sorted(built.schema)
    # The canonical JSON sorts every key (RFC 8785), so the hash is the sorted schema's.
    assert built.canonical_json.encode("utf-8") == rfc8785.dumps(built.schema)
    envelope: Dict[str, Any] = {"dialect": dialect, "schema": built.schema}
    assert built.hash == "sha256:" + hashlib.sha256(rfc8785.dumps(envelope)).hexdigest()


@pytest.mark.parametrize("dialect", toolschema.DIALECTS)
def test_the_seed_models_keep_their_declared_order_in_every_dialect(dialect: str) -> None:
    class Trip(BaseModel):  # seed_models' Itinerary with its fields declared the other way round
        stops: List[Waypoint]
        name: str

    waypoint = ["city", "nights"]
    for model, order in ((Itinerary, ["name", "stops"]), (Trip, ["stops", "name"]), (Waypoint, waypoint)):
        built = schema_for(model, dialect=dialect)
        # The model's own map, and the nested Waypoint's wherever the dialect puts it.
        checked = assert_declared_order(built.schema, {"model": order, "Waypoint": waypoint})
        assert checked >= (1 if model is Waypoint else 2), (model, dialect, built.schema)


def test_gemini_ordered_lists_the_declared_order() -> None:
    built = schema_for(Answer, dialect="gemini-ordered").schema
    assert built["propertyOrdering"] == ["reasoning", "answer", "confidence"]


def test_dataclasses_callables_and_foreign_schemas_keep_their_order() -> None:
    @dataclasses.dataclass
    class Point:
        y: int
        x: int

    def move(target: str, by: int, after: Optional[str] = None) -> None: ...

    assert list(schema_for(Point).schema["properties"]) == ["y", "x"]
    assert list(schema_for(move).schema["properties"]) == ["target", "by", "after"]
    foreign = {"type": "object", "title": "T", "properties": {"zeta": {"type": "string"}, "alpha": {"type": "integer"}}}
    assert list(normalize(foreign).schema["properties"]) == ["zeta", "alpha"]
    flat = self_contained_input_schema(
        {"$defs": {"In": {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}},
         "type": "object", "properties": {"z": {"$ref": "#/$defs/In"}, "m": {"type": "string"}}},
        tool_name="t",
    )
    assert list(flat["properties"]) == ["z", "m"]
    assert list(flat["properties"]["z"]["properties"]) == ["b", "a"]
    assert list(flat) == sorted(flat)  # every other key sorted
    # The order is shown, not hashed: two orders of one shape have one hash.
    reordered = {**foreign, "properties": dict(reversed(list(foreign["properties"].items())))}
    assert normalize(foreign).hash == normalize(reordered).hash


# --- declared_type where the objects are ------------------------------------------------------


def test_declared_type_reads_the_objects_where_they_are() -> None:
    # Nothing off the property's path is read: a set (not JSON) in the root does not matter.
    root = {"$defs": {"Shot": {"type": "object"}}, "junk": {1, 2, 3}, "properties": {}}
    assert declared_type({"$ref": "#/$defs/Shot"}, root) == "object"
    assert declared_type({"anyOf": [{"$ref": "#/$defs/Shot"}, {"type": "null"}]}, root) == "object"
    assert declared_type({"type": ["array", "null"]}, root) == "array"
    assert declared_type({"anyOf": [{"type": "string"}, {"type": "integer"}]}, root) is None
    cycle = {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}
    assert declared_type({"$ref": "#/$defs/A"}, cycle) is None
    # Draft-07 reads a `$ref` alone, as the library does.
    legacy = {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"N": {"type": "integer"}}}
    assert declared_type({"$ref": "#/definitions/N", "type": "string"}, legacy) == "integer"


def test_declared_types_answers_for_every_property_in_order(corpus: Path) -> None:
    schemas = [json.loads(p.read_text("utf-8")) for p in sorted((corpus / "pydantic").rglob("*.json"))]
    assert schemas
    for schema in schemas:
        props = schema.get("properties") or {}
        answers = declared_types(schema)
        assert list(answers) == list(props)
        assert answers == {name: declared_type(prop, schema) for name, prop in props.items()}
    assert declared_types({"type": "object"}) == {}
    assert declared_types("not a schema") == {}


# --- Docstrings written for the tool ----------------------------------------------------------


def convert(amount: float, target: str, rounding: int = 2) -> float:
    """Convert an amount of euros into another currency.

    Args:
        amount: How many euros.
        target: The currency code to convert into.
        rounding: Decimal places to keep.

    Returns:
        The converted amount.

    Raises:
        KeyError: an unknown currency.

    Example:
        >>> convert(1.0, "USD")
    """
    return amount


def test_a_partial_is_described_by_the_function_it_wraps_without_its_bound_parameters() -> None:
    built = schema_for(functools.partial(convert, target="EUR"))
    assert built.schema["description"] == "Convert an amount of euros into another currency."
    assert built.schema["properties"] == {
        "amount": {"type": "number", "description": "How many euros."},
        "rounding": {"type": "integer", "default": 2, "description": "Decimal places to keep."},
    }
    assert built.excluded == ["target"] and built.doc_warnings == []
    assert "functools" not in built.canonical_json and "partial" not in built.canonical_json


def test_the_description_is_the_prose_before_the_first_section() -> None:
    described = schema_for(convert).schema["description"]
    assert described == "Convert an amount of euros into another currency."
    for section in ("Returns", "Raises", "Example", "converted amount", "KeyError"):
        assert section not in described

    class Report(BaseModel):
        """A report.

        Attributes:
            title: Its title.

        Note:
            Kept in the archive.
        """

        title: str

    report = schema_for(Report).schema
    assert report["description"] == "A report."
    assert report["properties"]["title"]["description"] == "Its title."


def test_a_callable_object_is_described_by_its_call_when_its_class_has_no_docstring() -> None:
    class Search:
        def __call__(self, query: str, k: int = 3) -> List[str]:
            """Search the index.

            Args:
                query: What to look for.
                k: How many hits.

            Returns:
                The hits.
            """
            return []

    class Ranked:
        """Rank documents by relevance."""

        def __call__(self, query: str) -> List[str]:
            """Not this one.

            Args:
                query: The query to rank for.
            """
            return []

    search = schema_for(Search()).schema
    assert search["description"] == "Search the index."
    assert search["properties"]["query"]["description"] == "What to look for."
    assert search["properties"]["k"]["description"] == "How many hits."
    ranked = schema_for(Ranked()).schema
    assert ranked["description"] == "Rank documents by relevance."
    assert ranked["properties"]["query"]["description"] == "The query to rank for."


# --- A dialect of one's own (the SchemaDialect protocol) --------------------------------------


@dataclasses.dataclass(frozen=True)
class NoUnions:
    name: str = "no-unions"
    forbidden: frozenset = frozenset({"anyOf"})

    def adapt(self, schema: Dict[str, Any]) -> Dict[str, Any]:
        return schema


@dataclasses.dataclass(frozen=True)
class Closed:
    """Closes the root object, and forbids `$ref` in what it returns."""

    name: str = "closed"
    forbidden: frozenset = frozenset({"$ref", "oneOf"})

    def adapt(self, schema: Dict[str, Any]) -> Dict[str, Any]:
        return {**schema, "additionalProperties": False}


def test_any_object_with_name_forbidden_and_adapt_is_a_dialect() -> None:
    assert isinstance(NoUnions(), toolschema.SchemaDialect)
    with pytest.raises(CapabilityError) as info:
        schema_for(Answer, dialect=NoUnions())
    assert info.value.dialect == "no-unions" and info.value.keyword == "anyOf"
    assert info.value.pointer == "/properties/confidence"
    assert "no-unions" in str(info.value) and "anyOf" in str(info.value)

    built = schema_for(Waypoint, dialect=Closed())
    assert built.dialect == "closed"
    assert built.schema["additionalProperties"] is False
    assert list(built.schema["properties"]) == ["city", "nights"]
    assert built.canonical_json.encode("utf-8") == rfc8785.dumps(built.schema)
    envelope = {"dialect": "closed", "schema": built.schema}
    assert built.hash == "sha256:" + hashlib.sha256(rfc8785.dumps(envelope)).hexdigest()
    assert built.restore({"city": "Oslo", "nights": 2.0}) == {"city": "Oslo", "nights": 2}
    # Forbidden keywords are checked after adapt: `$ref` in the nested model is found.
    with pytest.raises(CapabilityError) as nested:
        schema_for(Itinerary, dialect=Closed())
    assert nested.value.keyword == "$ref" and nested.value.pointer == "/properties/stops/items"
    # The module-level restore takes one too.
    assert toolschema.restore(Waypoint.model_json_schema(), {"city": "x"}, dialect=Closed()) == {"city": "x"}


def test_the_built_ins_are_unchanged_and_a_non_dialect_is_refused() -> None:
    assert schema_for(Waypoint, dialect="strict-subset").schema["additionalProperties"] is False
    assert schema_for(Waypoint, dialect="strict-subset").dialect == "strict-subset"
    with pytest.raises(TypeError, match="`adapt`"):
        schema_for(Waypoint, dialect=object())
    with pytest.raises(ValueError, match="built-in"):
        schema_for(Waypoint, dialect=NoUnions(name="openai-strict"))

    @dataclasses.dataclass(frozen=True)
    class Loose:
        name: str = "loose"
        forbidden: frozenset = frozenset()

        def adapt(self, schema: Dict[str, Any]) -> Any:
            return {"type": "object", "default": {1, 2}}

    with pytest.raises(ConversionError):
        schema_for(Waypoint, dialect=Loose())


# --- Errors in a Python user's words ----------------------------------------------------------


class Connection:
    """Something pydantic cannot describe (an injected value)."""


def test_an_untyped_required_parameter_is_worded_for_python() -> None:
    def run(x: Any) -> None: ...

    with pytest.raises(SchemaGenerationError) as info:
        schema_for(run)
    message = str(info.value)
    assert "`Any`" in message and "Optional[" in message and "dict[str, X]" in message
    assert "HashMap" not in message and "Option<" not in message
    assert info.value.field == "run.x" and info.value.pointer == "/properties/x"
    assert "(field `run.x`)" in message


def test_an_exclude_typo_is_reported_as_a_typo_with_the_names_that_exist() -> None:
    def handle(ctx: Connection, word: str) -> None: ...

    with pytest.raises(SchemaGenerationError) as info:
        schema_for(handle, exclude=("ctxt",))
    assert info.value.kind == "unknown-exclude"
    message = str(info.value)
    assert "`ctxt`" in message and "`ctx`, `word`" in message and "did you mean `ctx`" in message
    assert schema_for(handle, exclude=("ctx",)).schema["properties"] == {"word": {"type": "string"}}


def test_a_parameter_pydantic_cannot_render_is_named() -> None:
    def handle(word: str, conn: Connection) -> None: ...

    with pytest.raises(SchemaGenerationError) as info:
        schema_for(handle)
    assert info.value.field == "conn" and info.value.pointer == "/properties/conn"
    assert "parameter `conn`" in str(info.value) and info.value.kind == "pydantic"
    for kind, fn in (("unannotated", lambda x: None),):
        with pytest.raises(SchemaGenerationError) as other:
            schema_for(fn)
        assert other.value.kind == kind and other.value.field == "x"


def test_a_long_pointer_is_shortened_in_the_message_and_kept_whole_in_the_attribute() -> None:
    looped: Dict[str, Any] = {}
    looped["a"] = looped
    with pytest.raises(ConversionError) as info:
        self_contained_input_schema(looped, tool_name="t")
    assert len(str(info.value)) < 1_000
    assert info.value.pointer is not None and len(info.value.pointer) > 10_000
    assert " ... " in str(info.value)


def test_options_are_named_only_where_the_function_takes_them() -> None:
    deep: Dict[str, Any] = {"type": "string"}
    for _ in range(129):
        deep = {"type": "array", "items": deep}
    schema = {"type": "object", "properties": {"x": deep}}
    with pytest.raises(ForeignSchemaError) as foreign:
        self_contained_input_schema(schema, tool_name="t")
    with pytest.raises(SchemaGenerationError) as pipeline:
        normalize(schema)
    for err in (foreign.value, pipeline.value):
        assert "max_depth" not in str(err) and "too-deep" == err.kind, str(err)

    # A large schema without definitions: nothing about definitions, nor a `max_bytes` it lacks.
    big = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 1000} for i in range(6000)}}
    with pytest.raises(ForeignSchemaError) as large:
        self_contained_input_schema(big, tool_name="big")
    assert large.value.kind == "too-large"
    assert "max_bytes" not in str(large.value) and "definitions" not in str(large.value)


def test_bad_option_values_are_value_errors() -> None:
    for bad in (-1, True, 1.5, "10"):
        with pytest.raises(ValueError, match="max_bytes"):
            normalize({"type": "object"}, max_bytes=bad)  # type: ignore[arg-type]
    assert normalize({"type": "object"}, max_bytes=10**30).schema == {"type": "object"}


# --- Python values in, the same Python values out ---------------------------------------------


def test_big_ints_and_non_json_floats_pass_through_as_the_reference_keeps_them() -> None:
    import math

    class Limits(BaseModel):
        n: int = 10**20
        limit: float = math.inf
        low: float = -math.inf
        z: float = math.nan

    schema = Limits.model_json_schema()
    schema["properties"]["n"]["examples"] = [2**70, -(2**80)]
    schema["properties"]["n"]["enum"] = [1, 10**20]
    flat = self_contained_input_schema(schema, tool_name="limits")
    props = flat["properties"]
    assert props["n"]["default"] == 10**20 and type(props["n"]["default"]) is int
    assert props["n"]["examples"] == [2**70, -(2**80)] and props["n"]["enum"] == [1, 10**20]
    assert props["limit"]["default"] == math.inf and props["low"]["default"] == -math.inf
    assert math.isnan(props["z"]["default"])
    assert declared_type(schema["properties"]["limit"], schema) == "number"
    assert declared_types(schema) == {"n": "integer", "limit": "number", "low": "number", "z": "number"}

    built = schema_for(Limits)
    assert built.schema["properties"]["n"]["default"] == 10**20
    assert built.schema["properties"]["limit"]["default"] == math.inf
    # A schema holding a non-JSON float has no canonical JSON, hence no hash: the error names it.
    with pytest.raises(ConversionError) as info:
        _ = built.canonical_json
    assert info.value.pointer == "/properties/limit/default" and info.value.kind == "not-finite"
    with pytest.raises(ConversionError):
        _ = built.hash

    class Big(BaseModel):
        n: int = 10**20

    big = schema_for(Big)
    assert '"default":100000000000000000000' in big.canonical_json
    envelope = '{"dialect":"json-schema","schema":' + big.canonical_json + "}"
    assert big.hash == "sha256:" + hashlib.sha256(envelope.encode("utf-8")).hexdigest()
    # A string that starts with the placeholder's character is still itself.
    marked = {"type": "object", "properties": {"s": {"type": "string", "default": "\ufdd00\ufdd0"}}}
    assert self_contained_input_schema(marked, tool_name="t")["properties"]["s"]["default"] == "\ufdd00\ufdd0"
    assert normalize(marked).schema == marked
    # Outside the data keywords a float JSON cannot carry is still refused, naming the pointer.
    with pytest.raises(ConversionError) as bound:
        normalize({"type": "number", "maximum": math.inf})
    assert bound.value.pointer == "/maximum"


class BigBounds(BaseModel):
    big: int = Field(le=2**70, ge=-(2**70), multiple_of=2**65)
    n: int = Field(default=3, lt=2**64)


#: What the reference (``threetears.tool_schema.self_contained_input_schema``) returns for
#: ``BigBounds.model_json_schema()``: every bound as the exact ``int``.
BIG_BOUNDS_REFERENCE = {
    "properties": {
        "big": {"maximum": 2**70, "minimum": -(2**70), "multipleOf": 2**65, "type": "integer"},
        "n": {"default": 3, "exclusiveMaximum": 2**64, "type": "integer"},
    },
    "required": ["big"],
    "type": "object",
}


def test_big_int_bounds_are_kept_exactly_as_the_reference_keeps_them() -> None:
    flat = self_contained_input_schema(BigBounds.model_json_schema(), tool_name="big")
    assert flat == BIG_BOUNDS_REFERENCE
    assert all(type(v) is int for v in flat["properties"]["big"].values() if v != "integer")
    built = schema_for(BigBounds)
    assert built.schema == BIG_BOUNDS_REFERENCE
    text = built.canonical_json
    assert '"maximum":1180591620717411303424,"minimum":-1180591620717411303424' in text
    assert '"multipleOf":36893488147419103232' in text and '"exclusiveMaximum":18446744073709551616' in text
    assert text == toolschema.canonical_json(BIG_BOUNDS_REFERENCE)
    envelope = '{"dialect":"json-schema","schema":' + text + "}"
    assert built.hash == "sha256:" + hashlib.sha256(envelope.encode("utf-8")).hexdigest()
    assert built.hash != schema_for(BigBounds, dialect="mcp").hash


#: The dialects that tell the provider the schema as it is (a bound's exact digits included).
AS_IT_IS = {"json-schema", "strict-subset", "inline-refs", "mcp", "mcp-self-contained"}


@pytest.mark.parametrize("dialect", toolschema.DIALECTS)
def test_restore_compares_a_big_int_with_a_big_bound_exactly(dialect: str) -> None:
    built = schema_for(BigBounds, dialect=dialect)
    big = built.schema["properties"]["big"]
    moved = {a.keyword for a in built.adaptations if a.kind == "moved-check"}
    if dialect in AS_IT_IS:
        # Told the exact digits, as the reference writes them.
        expected = BIG_BOUNDS_REFERENCE["properties"]["big"]
        assert {k: big.get(k) for k in expected} == expected, big
        assert not moved
    else:
        # No provider documents reading such a bound exactly (Gemini's `Schema` holds a double,
        # which rounds it): moved into the description, and checked by restore.
        assert not {"maximum", "minimum", "multipleOf"} & big.keys(), big
        assert {"maximum", "minimum", "multipleOf", "exclusiveMaximum"} <= moved, moved
        description = big["description"]
        assert "at most 1180591620717411303424" in description and "a multiple of 36893488147419103232" in description
        assert "at least -1180591620717411303424" in description
    for good in (2**70, -(2**70), 2**65, 0, 2**70 - 2**65):
        restored = built.restore({"big": good})
        assert restored == {"big": good} and type(restored["big"]) is int
    # From a model's JSON text too: `json.loads` gives the exact int.
    assert built.restore(json.loads('{"big": 1180591620717411303424}')) == {"big": 2**70}
    for bad, keyword in (
        (2**70 + 1, "maximum"),
        (2**70 + 2**65, "maximum"),
        (-(2**70) - 2**65, "minimum"),
        (2**65 + 1, "multipleOf"),
        (3, "multipleOf"),
    ):
        with pytest.raises(ArgumentsError) as info:
            built.restore({"big": bad})
        assert {f[0] for f in info.value.faults} == {"/big"}, str(info.value)
        assert str(bad) in str(info.value)
        wording = {"maximum": "must be at most", "minimum": "must be at least", "multipleOf": "must be a multiple"}
        assert any(f[1].startswith(wording[keyword]) for f in info.value.faults), str(info.value)
    with pytest.raises(ArgumentsError) as info:
        built.restore(json.loads('{"big": 1180591620717411303425}'))
    assert "\n- `/big`: must be at most 1180591620717411303424, got 1180591620717411303425\n" in str(info.value)
    with pytest.raises(ArgumentsError):
        built.restore({"big": 0, "n": 2**64})
    assert built.restore({"big": 0, "n": 2**64 - 1}) == {"big": 0, "n": 2**64 - 1}


@pytest.mark.parametrize("dialect", toolschema.DIALECTS)
def test_a_big_bound_of_a_foreign_schema_is_checked_exactly_on_restore(dialect: str) -> None:
    # The done-when of big bounds: the reference's schema from both entry points, and restore
    # refusing `2**70 + 1` for `le=2**70`, from the one-call `restore` too, under every dialect.
    raw = BigBounds.model_json_schema()
    assert self_contained_input_schema(raw, tool_name="big") == BIG_BOUNDS_REFERENCE
    assert schema_for(BigBounds).schema == BIG_BOUNDS_REFERENCE
    schema = toolschema.normalize(self_contained_input_schema(raw, tool_name="big"), dialect=dialect)
    assert schema.restore({"big": 2**70}) == {"big": 2**70}
    for built in (schema, schema_for(BigBounds, dialect=dialect)):
        with pytest.raises(ArgumentsError) as info:
            built.restore({"big": 2**70 + 1})
        assert info.value.faults[0] == ("/big", "must be at most 1180591620717411303424, got 1180591620717411303425")
    with pytest.raises(ArgumentsError):
        toolschema.restore(raw, {"big": 2**70 + 1}, dialect=dialect)
    assert toolschema.restore(raw, {"big": -(2**70)}, dialect=dialect) == {"big": -(2**70)}


def test_canonical_json_and_schema_hash_write_big_ints_exactly_and_refuse_non_json_floats() -> None:
    import math

    value = {"b": 10**30 + 1, "a": [-(2**64), "\ufdd01\ufdd0"], "\ufdd00\ufdd0": 1}
    text = toolschema.canonical_json(value)
    assert text == '{"a":[-18446744073709551616,"\ufdd01\ufdd0"],"b":1000000000000000000000000000001,"\ufdd00\ufdd0":1}'
    assert toolschema.schema_hash(value) == "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    for bad, pointer in (({"x": [1, math.inf]}, "/x/1"), (math.nan, "")):
        with pytest.raises(ConversionError) as info:
            toolschema.canonical_json(bad)
        assert isinstance(info.value, ValueError) and info.value.pointer == pointer
        with pytest.raises(ConversionError):
            toolschema.schema_hash(bad)


# --- Installing -------------------------------------------------------------------------------


def test_the_pydantic_extra_and_the_offline_build_are_offered() -> None:
    pyproject = (PYTHON_DIR / "pyproject.toml").read_text("utf-8")
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        pytest.skip("tomllib is Python 3.11 or later")
    project = tomllib.loads(pyproject)
    extras = project["project"]["optional-dependencies"]
    assert [r for r in extras["pydantic"] if r.startswith("pydantic")], extras
    assert project["project"]["dependencies"] == []  # nothing but what an extra asks for
    readme = (PYTHON_DIR / "README.md").read_text("utf-8")
    for words in ('pip install "./python[pydantic]"', "--no-build-isolation", "MATURIN_NO_INSTALL_RUST=1"):
        assert words in readme, words
    # What CI runs over the stubs and the Python code, pinned like the rest.
    pins = (PYTHON_DIR / "requirements-ci.txt").read_text("utf-8").split()
    assert any(p.startswith("mypy==") for p in pins) and any(p.startswith("ruff==") for p in pins)


def test_a_big_int_in_json_text_a_dialect_had_the_model_send_comes_back_exactly() -> None:
    schema = {"type": "object", "properties": {"x": {}}, "required": ["x"]}
    built = normalize(schema, dialect="openai-strict", allow_any=True)
    assert [a.kind for a in built.adaptations] == ["json-text"]
    restored = built.restore({"x": '{"n": 1180591620717411303425, "f": 1.5}'})
    assert restored == {"x": {"n": 2**70 + 1, "f": 1.5}} and type(restored["x"]["n"]) is int
    assert built.restore({"x": "-1180591620717411303425"}) == {"x": -(2**70) - 1}
    sent = built.encode({"x": {"n": 2**70 + 1}})
    assert sent == {"x": '{"n":1180591620717411303425}'}
    assert built.restore(sent) == {"x": {"n": 2**70 + 1}}
    with pytest.raises(ArgumentsError) as info:
        built.restore({"x": '["\\ufdd11"]'})
    assert "U+FDD1" in str(info.value)
