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
from pydantic import BaseModel

import toolschema
from toolschema import (
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
from seed_models import Itinerary, Waypoint

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
    class Trip(BaseModel):  # the seed's Itinerary with its fields declared the other way round
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
