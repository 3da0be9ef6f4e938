"""``schema_hash`` and ``canonical_json`` agree with an independent RFC 8785 implementation (PyPI
``rfc8785``) and ``hashlib``, on hand-picked values and on every schema of the corpus."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
import rfc8785

import toolschema
from conftest import bfcl_cases, file_cases


def reference_hash(value: Any) -> str:
    return "sha256:" + hashlib.sha256(rfc8785.dumps(value)).hexdigest()


VALUES = [
    {},
    [],
    None,
    True,
    0,
    -0.0,
    1.0,
    1e20,
    1e21,
    5e-324,
    -1035849256835417.25,
    0.1 + 0.2,
    2**53 - 1,
    -(2**53 - 1),
    "",
    "é\u2028\u0000\x7f\U0001f600",
    {"b": 1, "a": [1, 2.5, "x"], "\u20ac": None, "\U0001f600": 0, "\ufb33": 1},
    {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}, "required": ["a"]},
    (1, "tuple", None),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_canonical_json_and_hash_match_rfc8785(value: Any) -> None:
    assert toolschema.canonical_json(value).encode("utf-8") == rfc8785.dumps(value)
    assert toolschema.schema_hash(value) == reference_hash(value)


def test_key_order_does_not_change_the_hash_and_a_change_of_shape_does() -> None:
    a = {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}}
    b = {"properties": {"y": {"type": "string"}, "x": {"type": "integer"}}, "type": "object"}
    assert toolschema.schema_hash(a) == toolschema.schema_hash(b)
    c = {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "string"}}}
    assert toolschema.schema_hash(a) != toolschema.schema_hash(c)


def test_a_tool_schema_hash_covers_the_dialect_and_matches_rfc8785() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    for dialect in ("json-schema", "strict-subset", "mcp"):
        built = toolschema.normalize(schema, dialect=dialect)
        assert built.hash == reference_hash({"dialect": dialect, "schema": built.schema})
        assert built.canonical_json.encode("utf-8") == rfc8785.dumps(built.schema)
    assert toolschema.normalize(schema).hash != toolschema.normalize(schema, dialect="mcp").hash


def test_every_corpus_schema_hashes_as_rfc8785_does(corpus: Path) -> None:
    compared = outside = 0
    for case in list(file_cases(corpus, "mcp")) + list(file_cases(corpus, "pydantic")) + list(bfcl_cases(corpus)):
        try:
            expected = rfc8785.dumps(case.schema)
        except rfc8785.IntegerDomainError:
            # rfc8785 refuses integers past 2**53 (I-JSON); toolschema keeps their digits.
            outside += 1
            continue
        assert toolschema.canonical_json(case.schema).encode("utf-8") == expected, case.id
        assert toolschema.schema_hash(case.schema) == "sha256:" + hashlib.sha256(expected).hexdigest(), case.id
        compared += 1
    print(f"hashes: {compared} corpus schemas agree with rfc8785, {outside} hold integers past 2**53")
    assert compared >= 800
