"""User code that annotates every public attribute with the type it has at run time.

CI runs ``mypy --strict`` over this file against the installed package (its stubs, ``_native.pyi``),
and pytest runs it: each annotation below must be accepted by the stubs and must hold at run time,
so a stub looser or narrower than the runtime fails one of the two.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest
from pydantic import BaseModel, Field

import toolschema
from toolschema import (
    Adaptation,
    ArgumentsError,
    CapabilityError,
    DocWarning,
    RenamedKey,
    ToolSchema,
    normalize,
    schema_for,
    validate,
)


class Stay(BaseModel):
    """A stay.

    Args:
        city: Where.
        town: No such field.
    """

    city: str
    nights: Optional[int] = Field(default=None, ge=1, le=30)


def test_module_constants_have_their_runtime_types() -> None:
    dialects: tuple[str, ...] = toolschema.DIALECTS
    nesting: int = toolschema.MAX_NESTING
    version: str = toolschema.__version__
    assert isinstance(dialects, tuple) and all(isinstance(d, str) for d in dialects)
    assert isinstance(nesting, int) and isinstance(version, str)


def test_a_tool_schema_s_attributes_have_their_runtime_types() -> None:
    built: ToolSchema = schema_for(Stay, dialect="openai-strict")
    schema: dict[str, Any] = built.schema
    canonical: str = built.canonical_json
    digest: str = built.hash
    dialect: str = built.dialect
    excluded: list[str] = built.excluded
    warnings: list[DocWarning] = built.doc_warnings
    exact: bool = built.exact
    adaptations: tuple[Adaptation, ...] = built.adaptations
    assert isinstance(schema, dict) and isinstance(canonical, str) and digest.startswith("sha256:")
    assert dialect == "openai-strict" and isinstance(excluded, list) and exact is False
    assert isinstance(warnings, list) and len(warnings) == 1
    assert isinstance(adaptations, tuple) and adaptations

    warning = warnings[0]
    pointer: str = warning.pointer
    name: Optional[str] = warning.name
    line: Optional[str] = warning.line
    message: str = warning.message
    assert (pointer, name, warning.kind) == ("", "town", "unknown-entry")
    assert line is None or isinstance(line, str)
    assert isinstance(message, str)

    first = adaptations[0]
    at: str = first.pointer
    keyword: str = first.keyword
    kind: str = first.kind
    words: str = first.message
    assert all(isinstance(v, str) for v in (at, keyword, kind, words))

    restored: Any = built.restore({"city": "Oslo", "nights": None})
    assert restored == {"city": "Oslo"}


def test_an_arguments_error_s_faults_are_a_list_of_pairs() -> None:
    # Anthropic is not told the bounds: restore checks them.
    built = schema_for(Stay, dialect="anthropic-strict")
    with pytest.raises(ArgumentsError) as info:
        built.restore({"city": "Oslo", "nights": 0})
    faults: list[tuple[str, str]] = info.value.faults
    pointer: Optional[str] = info.value.pointer
    kind: Optional[str] = info.value.kind
    assert isinstance(faults, list) and len(faults) == 1
    assert all(isinstance(f, tuple) and len(f) == 2 for f in faults)
    assert pointer == faults[0][0] and kind == "invalid-arguments"
    faults.sort()  # a list's methods: the annotation is the runtime type, not a read-only view


def test_a_capability_error_s_fields_have_their_runtime_types() -> None:
    schema = {"type": "object", "properties": {"x": {"not": {"type": "string"}}}}
    with pytest.raises(CapabilityError) as info:
        normalize(schema, dialect="openai-strict")
    errors: tuple[dict[str, Optional[str]], ...] = info.value.errors
    dialect: Optional[str] = info.value.dialect
    keyword: Optional[str] = info.value.keyword
    assert isinstance(errors, tuple) and errors and all(isinstance(e, dict) for e in errors)
    assert dialect == "openai-strict" and keyword == "not"


def test_renamed_keys_and_validate_have_their_runtime_types() -> None:
    # Anthropic refuses property keys outside `^[a-zA-Z0-9_.-]{1,64}$`: sent under another name.
    schema = {"type": "object", "properties": {"unit price": {"type": "number"}}, "required": ["unit price"]}
    built = normalize(schema, dialect="anthropic-strict", advice="python")
    renamed: tuple[RenamedKey, ...] = built.renamed_keys
    assert isinstance(renamed, tuple) and len(renamed) == 1
    key = renamed[0]
    pointer: str = key.pointer
    original: str = key.original
    sent: str = key.sent
    message: str = key.message
    assert (pointer, original) == ("/properties/unit price", "unit price") and sent != original
    assert isinstance(message, str) and str(key) == message
    assert built.restore({sent: 2.5}) == {"unit price": 2.5}

    faults: list[tuple[str, str]] = validate(schema, {"unit price": "free"})
    assert isinstance(faults, list) and all(isinstance(f, tuple) and len(f) == 2 for f in faults)
    assert [f[0] for f in faults] == ["/unit price"]
    assert validate(schema, {"unit price": 1}) == []

    restored, coercions = built.coerce_and_restore({sent: "2.5"})
    done: list[tuple[str, str, str]] = coercions
    assert restored == {"unit price": 2.5} and done == [("/" + sent, "string", "number")]

