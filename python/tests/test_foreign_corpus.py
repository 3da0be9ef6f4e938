"""The shared corpus through the package, against the Python reference's answers.

Mirrors ``tests/json_only/foreign_corpus.rs``: every real schema (MCP, pydantic, BFCL) must give
the reference's output (``../shared/corpus/expected``), or a ``ValueError`` where the reference raised
one, unless the case is one of the library's deliberate differences, recorded with our own answer
in ``fixtures/foreign/differences.json`` (the corpus README numbers them); then it must give that
answer. ``tests/differences.json`` here lists the cases where the package answers differently
from the library itself (none today: a value JSON cannot carry under ``default``, ``examples``,
``enum`` or ``const`` is kept as the reference keeps it).

One difference is a rule rather than a list of cases, as in the Rust test: the reference passes
BFCL's Python type spellings through (``"type": "float"``), and the library writes the JSON name
each stands for at every schema position (difference 11). An output equal to the reference's with
exactly that rewrite (``json_type_names``) matches it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolschema
from conftest import (
    JSON_TYPES,
    Case,
    bfcl_cases,
    file_cases,
    pointer_get,
    python_table,
    rust_table,
    same_json,
)

# BFCL's Python spellings and the JSON type each stands for (difference 11).
PYTHON_SPELLINGS = {"dict": "object", "float": "number", "tuple": "array"}

# Where subschemas are: keywords holding one, a map of them, or a list of them.
_ONE = ("additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames",
        "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


def json_type_names(schema: Any) -> Any:
    """The reference's output as difference 11 reads it: at every schema position, each Python
    spelling in ``type`` (alone or in a list) written as its JSON type, a list keeping the first of
    each name. Stated apart from the code under test; values (``enum``, ``default``) are left as
    they are."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = PYTHON_SPELLINGS.get(kind, kind)
    elif isinstance(kind, list):
        names: list[Any] = []
        for name in kind:
            name = PYTHON_SPELLINGS.get(name, name) if isinstance(name, str) else name
            if name not in names:
                names.append(name)
        out["type"] = names
    for key in _ONE:
        if isinstance(out.get(key), dict):
            out[key] = json_type_names(out[key])
    for key in _MAP:
        if isinstance(out.get(key), dict):
            out[key] = {k: json_type_names(v) for k, v in out[key].items()}
    for key in _LIST:
        if isinstance(out.get(key), list):
            out[key] = [json_type_names(v) for v in out[key]]
    return out


def answer(case: Case) -> dict[str, Any]:
    """Our answer in the shape the Rust tables store: ``{"output": ...}`` or ``{"error": {...}}``."""
    try:
        out = toolschema.self_contained_input_schema(case.schema, tool_name=case.tool)
    except toolschema.ToolSchemaError as exc:
        assert isinstance(exc, ValueError)
        assert exc.tool == case.tool, f"{case.id}: the error names the tool: {exc}"
        assert f"`{case.tool}`" in str(exc), f"{case.id}: {exc}"
        return {"error": {"kind": exc.kind, "pointer": exc.pointer, "class": type(exc).__name__}}
    return {"output": out}


def expected_answer(case: Case, rust: dict[str, Any], python: dict[str, Any]) -> tuple[str, Any]:
    """What this case must give: ("output", v), ("error", {...}) or ("any-error", None)."""
    if case.id in python:
        entry = python[case.id]
        return ("error", entry["error"]) if "error" in entry else ("output", entry["output"])
    if case.id in rust:
        entry = rust[case.id]
        return ("error", entry["error"]) if "error" in entry else ("output", entry["output"])
    kind, value = case.reference
    if kind == "output":
        return "output", value
    if kind == "error":
        return "any-error", None
    raise AssertionError(f"{case.id}: the reference broke ({value}) and no difference is recorded")


def mismatch(case: Case, got: dict[str, Any], want: tuple[str, Any]) -> str | None:
    kind, value = want
    if kind == "output":
        if "output" in got and (same_json(got["output"], value) or same_json(got["output"], json_type_names(value))):
            return None
    elif kind == "any-error":
        if "error" in got and got["error"]["class"] == "ForeignSchemaError":
            return None
    else:
        if "error" in got and all(got["error"].get(k) == v for k, v in value.items()):
            return None
    shown = {k: (str(v)[:300] if k == "output" else v) for k, v in got.items()}
    return f"{case.id}: ours {shown}, expected {kind} {str(value)[:300]}"


def check(cases: list[Case], rust: dict[str, Any]) -> tuple[int, list[str]]:
    python = python_table()
    failures = []
    for case in cases:
        problem = mismatch(case, answer(case), expected_answer(case, rust, python))
        if problem:
            failures.append(problem)
    return len(cases), failures


def test_real_schemas_match_the_reference_except_for_the_listed_differences(corpus: Path) -> None:
    cases = list(file_cases(corpus, "mcp")) + list(file_cases(corpus, "pydantic")) + list(bfcl_cases(corpus))
    assert len(cases) >= 800, f"the corpus has {len(cases)} real cases"
    rust = rust_table("differences.json")
    count, failures = check(cases, rust)
    listed = sum(1 for c in cases if c.id in rust)
    print(f"real schemas: {count - listed} match the reference, {listed} deliberately differ")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)


def test_every_rust_difference_entry_names_a_corpus_case(corpus: Path) -> None:
    # A table entry for a case the corpus no longer has would check nothing.
    ids = {c.id for c in file_cases(corpus, "mcp")} | {c.id for c in file_cases(corpus, "pydantic")}
    ids |= {c.id for c in bfcl_cases(corpus)}
    stale = [i for i in rust_table("differences.json") if i not in ids]
    assert not stale, stale


def test_python_differences_are_reviewed() -> None:
    for case_id, entry in python_table().items():
        assert entry.get("note"), f"{case_id}: say why the package differs from the library"
        assert ("error" in entry) != ("output" in entry), case_id


# ---- declared_type -----------------------------------------------------------------------------


def expected_declared(reference: Any) -> str | None:
    """The reference's answer (the ``type`` string as written) as the library gives it: a Python
    spelling as its JSON type (difference 11), a name that is no JSON type as ``None``."""
    if isinstance(reference, str) and reference in PYTHON_SPELLINGS:
        return PYTHON_SPELLINGS[reference]
    return reference if reference in JSON_TYPES else None


def test_declared_type_agrees_with_the_reference_on_corpus_properties(corpus: Path) -> None:
    import json

    schemas = {c.id: c.schema for folder in ("mcp", "pydantic") for c in file_cases(corpus, folder)}
    schemas.update({c.id: c.schema for c in bfcl_cases(corpus)})
    table = rust_table("declared_type_differences.json")
    failures, matched, listed = [], 0, 0
    path = corpus / "expected" / "declared_type" / "corpus_properties.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        root = schemas[row["file"]]
        case_id = row["file"] + row["pointer"]
        got = toolschema.declared_type(pointer_get(root, row["pointer"]), root)
        if case_id in table:
            want, listed = table[case_id]["answer"], listed + 1
        else:
            want, matched = expected_declared(row["answer"]), matched + 1
        if got != want:
            failures.append(f"{case_id}: ours {got!r}, expected {want!r} (reference {row['answer']!r})")
    print(f"declared_type on corpus properties: {matched} from the reference, {listed} listed")
    assert matched > 1000
    assert not failures, "\n".join(failures)


def test_declared_type_agrees_with_the_reference_on_edge_cases(corpus: Path) -> None:
    import json

    from conftest import on_big_stack

    table = rust_table("declared_type_differences.json")
    expected = {}
    for line in (corpus / "expected" / "declared_type" / "edge_cases.jsonl").open(encoding="utf-8"):
        row = on_big_stack(lambda line=line: json.loads(line))
        expected[row["id"]] = row
    failures, count = [], 0
    for line in (corpus / "declared_type" / "edge_cases.jsonl").open(encoding="utf-8"):
        try:
            case = on_big_stack(lambda line=line: json.loads(line))
        except RecursionError:
            print("notice: this Python's json cannot read an edge case this deep; skipped")
            continue
        count += 1
        reference = expected[case["id"]]
        got = toolschema.declared_type(case["prop"], case["schema"])
        if case["id"] in table:
            want = table[case["id"]]["answer"]
        elif "crash" in reference:
            pytest.fail(f"{case['id']}: the reference crashed and no difference is recorded")
        else:
            want = expected_declared(reference["answer"])
        if got != want:
            failures.append(f"{case['id']} ({case.get('note')}): ours {got!r}, expected {want!r}")
    assert count >= 50
    assert not failures, "\n".join(failures)


def test_declared_type_reads_only_its_path_and_never_raises() -> None:
    import math

    # What is not JSON off the path does not matter, as for the reference (which reads the
    # objects where they are): a non-JSON float beside the definitions, a non-str key in a default.
    root = {"$defs": {"A": {"type": "integer"}}, "bad": math.nan}
    assert toolschema.declared_type({"$ref": "#/$defs/A"}, root) == "integer"
    assert toolschema.declared_type({"type": "string", "default": {1: 2}}, {}) == "string"
    assert toolschema.declared_type({"type": "number", "default": math.inf}, {}) == "number"
    assert toolschema.declared_type({"type": "string"}, root) == "string"
    assert toolschema.declared_type({"$ref": "#/$defs/A"}, "not a schema") is None
    assert toolschema.declared_type({"anyOf": [{"type": "null"}, 5]}, {}) is None
    assert toolschema.declared_type("not a schema", None) is None
    assert toolschema.declared_type({"$ref": "#/$defs/A"}, {"$defs": {"A": {"type": "integer"}}}) == "integer"
