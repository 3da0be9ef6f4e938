"""``schema_for`` on the shapes an agent kit's tools take: pydantic models, dataclasses,
TypedDicts, bare types and callables, docstrings, exclusion, dialects, the hash, and every
failure it reports."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from typing import Any, Callable, List, Optional

import pytest
import rfc8785
from pydantic import BaseModel, Field
from typing_extensions import Annotated, TypedDict

import toolschema
from seed_models import Itinerary, Waypoint
from toolschema import CapabilityError, SchemaGenerationError, schema_for


class Node(BaseModel):
    value: int
    children: List["Node"] = []


def test_a_model_docstring_args_land_on_the_fields_and_the_summary_describes_the_type() -> None:
    s = schema_for(Waypoint).schema
    assert s == {
        "type": "object",
        "description": "A stop on the way.",
        "properties": {
            "city": {"type": "string", "description": "Where the traveller stops."},
            "nights": {"type": "integer", "default": 1, "description": "How long they stay, in nights."},
        },
        "required": ["city"],
    }
    assert schema_for(Waypoint).doc_warnings == []


def test_a_field_description_wins_and_nested_models_stay_as_defs() -> None:
    s = schema_for(Itinerary).schema
    assert s["properties"]["name"]["description"] == "The trip's own name."
    assert s["properties"]["stops"]["description"] == "The stops, in order."
    assert s["properties"]["stops"]["items"] == {"$ref": "#/$defs/Waypoint"}
    assert s["$defs"]["Waypoint"]["properties"]["city"]["description"] == "Where the traveller stops."
    assert "title" not in s and "title" not in s["$defs"]["Waypoint"]


def test_an_entry_naming_no_field_costs_a_warning_and_nothing_else() -> None:
    class Renamed(BaseModel):
        """Renamed.

        Args:
            town: The old name of the field.
            city: Where.
        """

        city: str

    built = schema_for(Renamed)
    assert built.schema["properties"]["city"]["description"] == "Where."
    [warning] = built.doc_warnings
    assert (warning.kind, warning.name, warning.pointer) == ("unknown-entry", "town", "")
    assert "town" in str(warning)


def test_no_docstring_means_no_description() -> None:
    class Bare(BaseModel):
        x: int

    assert schema_for(Bare).schema == {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}


def test_a_dataclass_and_a_typeddict_are_described() -> None:
    @dataclasses.dataclass
    class Stop:
        """A stop.

        Args:
            city: Where.
        """

        city: str
        nights: int = 1

    class Point(TypedDict):
        x: float
        y: float

    assert schema_for(Stop).schema == {
        "type": "object",
        "description": "A stop.",
        "properties": {"city": {"type": "string", "description": "Where."}, "nights": {"type": "integer", "default": 1}},
        "required": ["city"],
    }
    assert schema_for(Point).schema["required"] == ["x", "y"]


@pytest.mark.parametrize(
    ("tp", "expected"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (List[str], {"type": "array", "items": {"type": "string"}}),
        (Optional[str], {"anyOf": [{"type": "string"}, {"type": "null"}]}),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
    ],
    ids=repr,
)
def test_a_bare_type_is_its_schema_without_the_builtin_docstring(tp: Any, expected: Any) -> None:
    assert schema_for(tp).schema == expected


def lookup(word: str, limit: Optional[int] = None, ctx: Any = None) -> List[str]:
    """Look a word up.

    Args:
        word: The word, as written.
        limit: At most this many senses.
        ctx: The request context (injected).
    """
    return []


def test_a_callable_is_its_parameters_with_the_docstring_merged() -> None:
    built = schema_for(lookup, exclude=("ctx",))
    assert built.schema == {
        "type": "object",
        "description": "Look a word up.",
        "additionalProperties": False,
        "properties": {
            "word": {"type": "string", "description": "The word, as written."},
            "limit": {
                "anyOf": [{"type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "At most this many senses.",
            },
        },
        "required": ["word"],
    }
    assert built.excluded == ["ctx"]
    assert built.doc_warnings == []  # the excluded parameter's entry is not a stray one


def test_an_unknown_exclude_name_is_refused() -> None:
    with pytest.raises(SchemaGenerationError) as info:
        schema_for(lookup, exclude=("context",))
    assert info.value.kind == "unknown-exclude" and "`context`" in str(info.value)
    assert info.value.tool == "lookup"


def test_methods_partials_and_callable_objects_are_described_by_their_parameters() -> None:
    class Tools:
        def search(self, query: str, k: int = 3) -> None:
            """Search."""

    class Ping:
        """Ping a host.

        Args:
            host: The host.
        """

        def __call__(self, host: str) -> None: ...

    def scaled(x: float, factor: float) -> float:
        return x * factor

    assert set(schema_for(Tools().search).schema["properties"]) == {"query", "k"}
    assert schema_for(Ping()).schema["properties"] == {"host": {"type": "string", "description": "The host."}}
    assert schema_for(functools.partial(scaled, factor=2.0)).schema["required"] == ["x"]
    assert toolschema.annotations_of(Ping())["host"] is str


def test_annotated_field_descriptions_are_kept() -> None:
    def f(q: Annotated[str, Field(description="The query.", min_length=1)]) -> None: ...

    assert schema_for(f).schema["properties"]["q"] == {"type": "string", "description": "The query.", "minLength": 1}


def test_the_seed_failure_table() -> None:
    def unannotated(x, y: int) -> None: ...  # type: ignore[no-untyped-def]

    def star_args(*args: int) -> None: ...

    def star_kwargs(a: int, **kwargs: int) -> None: ...

    def any_required(x: Any) -> None: ...

    def underscore(_x: int) -> None: ...

    class Deep(BaseModel):
        cb: Callable[[int], int]

    cases = [
        (unannotated, "unannotated", "`x`"),
        (star_args, "variadic", "`*args`"),
        (star_kwargs, "variadic", "`**kwargs`"),
        (any_required, "untyped-any", "/properties/x"),
        (underscore, "private-name", "`_x`"),
        (Deep, "pydantic", "Callable"),
    ]
    for obj, kind, mention in cases:
        with pytest.raises(SchemaGenerationError) as info:
            schema_for(obj)
        assert isinstance(info.value, ValueError)
        assert info.value.kind == kind, (obj, str(info.value))
        assert mention in str(info.value), str(info.value)
        assert info.value.tool and info.value.tool.endswith(obj.__name__)


def test_max_bytes_refuses_the_whole_schema_naming_both_sizes() -> None:
    size = len(schema_for(Itinerary).canonical_json.encode("utf-8"))
    assert schema_for(Itinerary, max_bytes=size).schema
    with pytest.raises(SchemaGenerationError) as info:
        schema_for(Itinerary, max_bytes=size - 1)
    assert info.value.kind == "too-large"
    assert str(size) in str(info.value) and str(size - 1) in str(info.value)


def test_dialects() -> None:
    strict = schema_for(Itinerary, dialect="strict-subset").schema
    assert strict["additionalProperties"] is False
    assert strict["$defs"]["Waypoint"]["additionalProperties"] is False
    assert strict["required"] == ["name", "stops"]  # closes objects and does nothing else
    inline = schema_for(Itinerary, dialect="inline-refs").schema
    assert "$defs" not in inline and inline["properties"]["stops"]["items"]["type"] == "object"

    recursive = schema_for(Node).schema
    assert recursive["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    with pytest.raises(CapabilityError) as info:
        schema_for(Node, dialect="inline-refs")
    assert info.value.dialect == "inline-refs" and info.value.keyword == "$ref"
    assert info.value.errors and info.value.errors[0]["dialect"] == "inline-refs"

    class Tags(BaseModel):
        tags: dict[str, int]

    # OpenAI strict mode has no maps: by default the map is written as entries (restore rebuilds
    # it, see test_restore.py); exact mode refuses it instead, naming the field.
    entries = schema_for(Tags, dialect="openai-strict")
    assert entries.schema["properties"]["tags"]["type"] == "array"
    assert [(a.pointer, a.kind) for a in entries.adaptations] == [("/properties/tags", "map-as-entries")]
    with pytest.raises(CapabilityError) as info:
        schema_for(Tags, dialect="openai-strict", exact=True)
    assert info.value.pointer == "/properties/tags" and info.value.tool == "Tags"
    assert info.value.dialect == "openai-strict" and info.value.keyword == "additionalProperties"

    with pytest.raises(toolschema.ToolSchemaError) as unknown:
        schema_for(Waypoint, dialect="no-such")
    assert unknown.value.kind == "unknown-dialect" and "openai-strict" in str(unknown.value)
    assert set(toolschema.DIALECTS) >= {"json-schema", "strict-subset", "inline-refs", "openai-strict", "mcp"}


def test_the_hash_is_stable_covers_the_dialect_and_matches_rfc8785() -> None:
    a, b = schema_for(Waypoint), schema_for(Waypoint)
    assert a.hash == b.hash and a == b and hash(a) == hash(b)
    assert a.hash.startswith("sha256:") and len(a.hash) == len("sha256:") + 64
    digest = hashlib.sha256(rfc8785.dumps({"dialect": "json-schema", "schema": a.schema})).hexdigest()
    assert a.hash == "sha256:" + digest
    assert a.canonical_json.encode("utf-8") == rfc8785.dumps(a.schema)
    assert schema_for(Waypoint, dialect="strict-subset").hash != a.hash

    class Waypoint2(BaseModel):
        """A stop on the way.

        Args:
            city: Where the traveller stops.
            nights: How long they stay, in nights.
        """

        city: str
        nights: int = 2  # a changed default is a changed shape

    assert schema_for(Waypoint2).hash != a.hash


def test_normalize_takes_schemas_from_anywhere() -> None:
    mcp = {"type": "object", "title": "T", "properties": {"x": {"title": "X"}}}
    with pytest.raises(SchemaGenerationError):
        toolschema.normalize({"type": "object", "properties": {"x": {}}, "required": ["x"]})
    assert toolschema.normalize(mcp, allow_any=True).schema == {"type": "object", "properties": {"x": {}}}
    with pytest.raises(TypeError):
        toolschema.normalize(mcp, exclude="x")


# --- Docstring styles: Google, numpy and reST (Sphinx) read alike ------------------------------


def double_google(x: int, y: int = 0) -> int:
    """Double x.

    Args:
        x: The number.
        y: Added after,
            on two lines.
        z: No such parameter.

    Returns:
        Twice x.

    Raises:
        ValueError: Never.
    """
    return 2 * x + y


def double_numpy(x: int, y: int = 0) -> int:
    """Double x.

    Parameters
    ----------
    x : int
        The number.
    y : int, optional
        Added after,
        on two lines.
    z : str
        No such parameter.

    Returns
    -------
    int
        Twice x.

    Raises
    ------
    ValueError
        Never.
    """
    return 2 * x + y


def double_rest(x: int, y: int = 0) -> int:
    """Double x.

    :param x: The number.
    :type x: int
    :param int y: Added after,
        on two lines.
    :param z: No such parameter.
    :returns: Twice x.
    :rtype: int
    :raises ValueError: Never.
    """
    return 2 * x + y


def test_numpy_and_rest_docstrings_give_the_schema_of_their_google_twin() -> None:
    google = schema_for(double_google)
    assert google.schema["description"] == "Double x."
    assert google.schema["properties"]["x"]["description"] == "The number."
    assert google.schema["properties"]["y"]["description"] == "Added after, on two lines."
    for twin in (double_numpy, double_rest):
        built = schema_for(twin)
        assert built.schema == google.schema, twin.__name__
        assert built.hash == google.hash, twin.__name__
        warnings = [(w.kind, w.name, w.pointer) for w in built.doc_warnings]
        assert warnings == [("unknown-entry", "z", "")], twin.__name__


def test_a_rest_docstring_keeps_returns_out_of_the_description() -> None:
    def f(x: int) -> int:
        """Double x.

        :param x: The number.
        :returns: Twice x."""
        return 2 * x

    built = schema_for(f)
    assert built.schema["description"] == "Double x."
    assert built.schema["properties"]["x"] == {"type": "integer", "description": "The number."}
    assert built.doc_warnings == []


def test_a_model_s_numpy_attributes_land_on_its_fields() -> None:
    class Place(BaseModel):
        """A place to stay.

        Attributes
        ----------
        city : str
            Where.
        nights : int
            How long.

        Examples
        --------
        >>> Place(city="Oslo", nights=2)
        """

        city: str
        nights: int

    built = schema_for(Place)
    assert built.schema["description"] == "A place to stay."
    assert built.schema["properties"]["city"]["description"] == "Where."
    assert built.schema["properties"]["nights"]["description"] == "How long."
    assert built.doc_warnings == []
