"""``self_contained_input_schema`` on a schema without references, copied as Python objects.

The package answers a schema with no ``$ref``, ``$defs`` or union by copying the Python
objects themselves, and converts any other schema for the library (``python/src/plain.rs``). Both
must give the same answer, key order and number types included, or the same error. The converting
path is reached here by handing the schema over as a ``MappingProxyType``, which the copy does not
read (it reads a ``dict`` exactly) and the conversion reads as the dict it wraps.
"""

from __future__ import annotations

import collections
import copy
import enum
import math
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import toolschema
from conftest import bfcl_cases, file_cases


def exactly(a: Any, b: Any) -> bool:
    """Equal with the same types at every place and dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(exactly(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(exactly(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def outcome(schema: Any) -> tuple[str, Any]:
    try:
        return "output", toolschema.self_contained_input_schema(schema, tool_name="t")
    except (toolschema.ToolSchemaError, toolschema.ConversionError) as exc:
        return "error", (type(exc).__name__, exc.kind, exc.pointer, str(exc))


def converted(schema: Any) -> tuple[str, Any]:
    return outcome(MappingProxyType(schema) if isinstance(schema, dict) else schema)


def assert_same_answer(schema: Any) -> tuple[str, Any]:
    before = copy.deepcopy(schema)
    got, want = outcome(schema), converted(schema)
    assert got[0] == want[0], f"{got} != {want}"
    if got[0] == "output":
        assert exactly(got[1], want[1]), f"{got[1]!r} != {want[1]!r}"
    else:
        assert got[1] == want[1]
    assert exactly(schema, before), "the input is not mutated"
    return got


def strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def shares_text(out: Any, schema: Any) -> bool:
    """Whether ``out`` holds one of the input's very ``str`` objects (longer than any keyword,
    so not one interned by Python or by the package)."""
    mine = {id(s) for s in strings(schema) if len(s) > 24}
    return any(id(s) in mine for s in strings(out))


def test_the_corpus_gives_the_converting_paths_answer(corpus: Path) -> None:
    cases = list(file_cases(corpus, "mcp")) + list(file_cases(corpus, "pydantic")) + list(bfcl_cases(corpus))
    copied = 0
    for case in cases:
        got = assert_same_answer(case.schema)
        if got[0] == "output" and shares_text(got[1], case.schema):
            copied += 1
    # The copy answered most of them (every schema without references and unions that
    # holds a text longer than a keyword): the comparison above is between two paths.
    assert copied >= len(cases) * 8 // 10, f"{copied} of {len(cases)}"


def test_a_schema_without_references_shares_its_scalars_and_no_container() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "description": "A tool.",
        "properties": {
            "q": {"type": "string", "description": "What to look for, in the user's own words."},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["alpha", "beta"]}},
        },
        "required": ["q"],
    }
    out = toolschema.self_contained_input_schema(schema, tool_name="t")
    assert out == {
        "type": "object",
        "properties": {
            "q": {"type": "string", "description": "What to look for, in the user's own words."},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["alpha", "beta"]}},
        },
        "required": ["q"],
    }
    q = schema["properties"]["q"]["description"]
    assert out["properties"]["q"]["description"] is q
    out["properties"]["tags"]["items"]["enum"].append("gamma")
    out["required"].append("tags")
    out["properties"]["q"]["type"] = "integer"
    assert schema["properties"]["tags"]["items"]["enum"] == ["alpha", "beta"]
    assert schema["required"] == ["q"]
    assert schema["properties"]["q"]["type"] == "string"


class Colour(str, enum.Enum):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


def nest(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def items_chain(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        node = {"type": "array", "items": node}
    return {"type": "object", "properties": {"x": node}}


def prop(**schema: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": schema}}


EDGES: list[Any] = [
    {},
    {"type": "dict", "properties": {"a": {"type": "float"}, "b": {"type": "tuple", "items": {"type": "dict"}}}},
    {"type": "string"},
    {"type": "float"},
    {"type": ["object", "null"]},
    {"type": 5},
    {"type": "object", "properties": None},
    {"type": "object", "properties": []},
    {"type": "object", "properties": "x"},
    {"properties": {"b": {"type": "string"}, "a": {"type": "integer"}}, "required": ["b"]},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": []},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["a"]},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": []},
    {"$schema": 7, "type": "object"},
    {"type": "object", "required": None},
    {"type": "object", "required": [1]},
    {"type": "object", "required": ("a",)},
    {"type": "object", "title": "T"},
    {"title": "T", "type": "object", "properties": {"title": {"title": "Title", "type": "string", "default": {"title": 1}}}},
    prop(type="string", title=5),
    prop(type="string", title=None),
    prop(type="string", title=["a"]),
    prop(type="string", title={"a": 1}),
    prop(type="string", title="lone \ud800"),
    prop(type="string", title=2**70),
    prop(type="string", title="\ufdd0" + "0" + "\ufdd0"),
    {"type": "object", "title": ["T"]},
    {"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "string"}}},
    {"type": "object", "properties": {"x": {"$ref": "#/nowhere"}}},
    prop(anyOf=[{"type": "string"}, {"type": "null"}]),
    prop(oneOf=[{"type": "string"}, {"type": "integer"}]),
    prop(type=["string", "null"]),
    prop(type="str"),
    prop(type="string", description="lone \ud800 surrogate"),
    {"type": "object", "properties": {"\udc00": {"type": "string"}}},
    {"type": "object", "description": "a root description \ud800 that is dropped"},
    {"type": "object", "description": float("nan")},
    prop(type="string", description="\ufdd0" + "0" + "\ufdd0"),
    prop(type="string", description="\ufdd1" + "123"),
    prop(type="string", enum=["\ufdd1" + "123", "b"]),
    prop(type="integer", maximum=2**70, minimum=-(2**70), multipleOf=2**65),
    prop(type="integer", maximum=2**64 - 1, minimum=-(2**63)),
    prop(type="integer", maximum=2**64, minimum=-(2**63) - 1),
    prop(type="integer", default=2**80, enum=[2**80, 1]),
    prop(type="number", default=math.inf, examples=[math.nan]),
    prop(type="number", maximum=math.inf),
    prop(type="number", minimum=-0.0, maximum=1e308, multipleOf=0.1),
    prop(type="string", enum=("a", "b")),
    prop(type="string", default=Colour.RED),
    prop(type="integer", default=Size.BIG),
    prop(type="string", default={1: "a"}),
    prop(type="string", default={"b": 1, "a": {"d": 2, "c": 3}, "properties": {"z": 1, "y": 2}}),
    prop(type="array", default=nest(31, 1)),
    prop(type="array", default=nest(32, 1)),
    prop(type="array", default=nest(33, 1)),
    prop(type="array", default=nest(200, 1)),
    prop(type="string", default=b"bytes"),
    prop(type="string", default={1, 2}),
    items_chain(126),
    items_chain(127),
    items_chain(128),
    items_chain(129),
    {"type": "object", "properties": {"x": collections.OrderedDict(type="string")}},
    {"type": "object", "properties": collections.OrderedDict(x={"type": "string"})},
    {
        "type": "object",
        "patternProperties": {"properties": {"type": "string", "description": "d", "b": 1, "a": 2}, "^z": True},
        "properties": {"z": {"not": True}, "a": {"type": "object", "properties": {"y": {}, "b": {}}}},
    },
    {
        "properties": {"properties": {"type": "object", "properties": {"b": {}, "a": {}}, "additionalProperties": False}},
        "type": "object",
    },
    {
        "type": "object",
        "properties": {
            "t": {"type": "array", "items": [{"type": "string"}, {"type": "float"}, True], "additionalItems": False},
            "d": {"type": "object", "dependencies": {"a": ["b"], "c": {"type": "object"}}},
            "w": {"allOf": {"type": "string"}, "not": [], "if": 3},
            "n": {"type": "null", "const": None, "examples": [True, False, 0, 1.5, "s", [], {}]},
        },
    },
    {"type": "object", "properties": {"a": {"description": "x" * (1 << 20)}}},
    {"type": "object", "properties": {f"p{i}": {"description": "y" * (1 << 16)} for i in range(70)}},
    True,
    [],
]


@pytest.mark.parametrize("schema", EDGES, ids=range(len(EDGES)))
def test_an_edge_case_gives_the_converting_paths_answer(schema: Any) -> None:
    assert_same_answer(schema)
