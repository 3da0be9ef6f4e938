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


@pytest.mark.parametrize("value", [{"big": 2**64}, {"big": -(2**63) - 1}, {"huge": [10**40]}, {"vast": 10**400}])
def test_an_int_past_64_bits_in_a_models_arguments_comes_back_exactly(value: Any) -> None:
    # Read as the library's big-integer token, never through a float: the same int comes back.
    schema = toolschema.normalize({"type": "object"}, allow_any=True)
    restored = schema.restore(value)
    assert restored == value and type(next(iter(restored.values()))) is type(next(iter(value.values())))


def test_an_int_with_more_digits_than_python_writes_is_refused_with_its_pointer() -> None:
    schema = toolschema.normalize({"type": "object"}, allow_any=True)
    with pytest.raises(toolschema.ConversionError) as info:
        schema.restore({"vast": [10**5000]})
    assert (info.value.kind, info.value.pointer) == ("integer-out-of-range", "/vast/0"), str(info.value)


def test_a_str_spelling_a_big_integer_token_is_refused_in_arguments_and_kept_in_schemas() -> None:
    token = "\ufdd1" + str(2**70)
    schema = toolschema.normalize({"type": "object"}, allow_any=True)
    with pytest.raises(toolschema.ConversionError) as info:
        schema.restore({"s": token})
    assert (info.value.kind, info.value.pointer) == ("unsupported-type", "/s")
    marked = {"type": "object", "properties": {"s": {"type": "string", "description": token}}}
    assert toolschema.normalize(marked).schema == marked
    assert toolschema.self_contained_input_schema(marked, tool_name="t")["properties"]["s"]["description"] == token


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
