"""Python values to JSON and back: nothing changes silently. A value JSON cannot carry unchanged is
a ``ConversionError`` (a ``ValueError``) naming its JSON pointer and its ``kind``."""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections import OrderedDict
from types import MappingProxyType
from typing import Any

import pytest

import toolschema


@pytest.mark.parametrize(
    ("value", "kind", "pointer"),
    [
        ({"a": math.nan}, "not-finite", "/a"),
        ({"a": [1, math.inf]}, "not-finite", "/a/1"),
        ({"a": [-math.inf]}, "not-finite", "/a/0"),
        ({"p": {1: "a"}}, "key-not-string", "/p"),
        ({"p": {None: "a"}}, "key-not-string", "/p"),
        ({"p": {("t",): "a"}}, "key-not-string", "/p"),
        ({"a/b": {"~c": b"x"}}, "unsupported-type", "/a~1b/~0c"),
        ({"s": {"x", "y"}}, "unsupported-type", "/s"),
        ({"s": frozenset()}, "unsupported-type", "/s"),
        ({"d": datetime.date(2024, 1, 1)}, "unsupported-type", "/d"),
        ({"o": object()}, "unsupported-type", "/o"),
        ({"u": "\ud800"}, "unsupported-type", "/u"),
    ],
)
def test_a_value_json_cannot_carry_is_refused_with_its_pointer(value: Any, kind: str, pointer: str) -> None:
    for call in (toolschema.canonical_json, toolschema.schema_hash):
        with pytest.raises(toolschema.ConversionError) as info:
            call(value)
        assert isinstance(info.value, ValueError)
        assert (info.value.kind, info.value.pointer) == (kind, pointer), str(info.value)
        assert f"`{pointer}`" in str(info.value)


@pytest.mark.parametrize(
    ("value", "pointer"),
    [
        ({"big": 2**64}, "/big"),
        ({"big": -(2**63) - 1}, "/big"),
        ({"huge": [10**40]}, "/huge/0"),
        ({"vast": 10**400}, "/vast"),
    ],
)
def test_an_int_past_64_bits_in_a_models_arguments_is_refused_with_its_pointer(value: Any, pointer: str) -> None:
    # Arguments are read as the library reads JSON; `canonical_json` writes such an int exactly
    # (test_users.py), and a schema's `default` keeps it.
    schema = toolschema.normalize({"type": "object"}, allow_any=True)
    with pytest.raises(toolschema.ConversionError) as info:
        schema.restore(value)
    assert (info.value.kind, info.value.pointer) == ("integer-out-of-range", pointer), str(info.value)


def test_a_dataclass_instance_is_refused_as_json_dumps_refuses_it() -> None:
    @dataclasses.dataclass
    class P:
        x: int

    with pytest.raises(toolschema.ConversionError) as info:
        toolschema.canonical_json({"p": P(1)})
    assert (info.value.kind, info.value.pointer) == ("unsupported-type", "/p")


def test_the_self_contained_error_names_the_tool() -> None:
    with pytest.raises(toolschema.ConversionError) as info:
        toolschema.self_contained_input_schema({"type": "object", "maxProperties": math.nan}, tool_name="t")
    assert info.value.tool == "t" and info.value.pointer == "/maxProperties"
    assert str(info.value).startswith("tool `t`: ")


def test_what_json_can_carry_comes_through_unchanged() -> None:
    value = {
        "int": 2**64 - 1,
        "neg": -(2**63),
        "float": 0.1,
        "negzero": -0.0,
        "tiny": 5e-324,
        "bool": True,
        "none": None,
        "tuple": (1, "a"),
        "mapping": MappingProxyType({"k": OrderedDict(v=[])}),
        "str": "\U0001f600\u0000",
    }
    schema = {"type": "object", "properties": {}, "const": value}
    out = toolschema.self_contained_input_schema(schema, tool_name="t")["const"]
    assert out["int"] == 2**64 - 1 and type(out["int"]) is int
    assert out["float"] == 0.1 and type(out["float"]) is float
    assert math.copysign(1.0, out["negzero"]) == -1.0
    assert out["tiny"] == 5e-324
    assert out["bool"] is True and out["none"] is None
    assert out["tuple"] == [1, "a"]
    assert out["mapping"] == {"k": {"v": []}}
    assert out["str"] == "\U0001f600\u0000"


def test_a_value_deeper_than_the_shallow_limit_is_still_read() -> None:
    # 2,000 levels: past the 512 read on the caller's stack, within MAX_NESTING.
    value: Any = 0
    for _ in range(2_000):
        value = [value]
    assert toolschema.canonical_json(value) == "[" * 2_000 + "0" + "]" * 2_000


def test_arguments_are_not_mutated() -> None:
    schema = {
        "$defs": {"A": {"type": "object", "title": "A", "properties": {"x": {"type": "string"}}}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "o": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
        "type": "object",
        "title": "T",
    }
    before = repr(schema)
    toolschema.self_contained_input_schema(schema, tool_name="t")
    toolschema.normalize(schema)
    assert repr(schema) == before
