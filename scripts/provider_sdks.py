#!/usr/bin/env python3
"""SDK conformance suite: every schema a dialect accepts, through the providers' own client code.

Run it with `scripts/provider_sdks.sh` (which makes the virtual environment from
`scripts/requirements-sdk.txt` and builds the CLI), or, inside that environment:

    python scripts/provider_sdks.py [--bin target/debug/toolschema] [--dialect D,D...]
        [--source zoo,rejections,mcp,pydantic,bfcl,hostile] [--mode reversible,exact]
        [--json results.json] [--list N] [--jobs N] [--reject-any]

Modes: every source runs in reversible mode (the default: what a dialect cannot say is encoded,
and restore undoes it) and in exact mode (`--exact`: refused instead); `--mode` takes one.

Inputs:
- `zoo`: the zoo goldens, `fixtures/dialects/<dialect>/*.json` (`fixtures/golden/*.json` for
  `json-schema`). Each holds the dialect's output (`schema`) or its refusal (`errors`) in
  reversible mode; in exact mode, each type's `json-schema` golden goes through the CLI as the
  corpus does.
- `rejections`: the tool schemas users posted after a provider or an MCP client refused them
  (`fixtures/provider_rejections/schemas.json`), run through the CLI as the corpus is.
- `mcp`, `pydantic`, `bfcl`, `hostile`: the shared corpus (`../shared/corpus`, or
  `$TOOLSCHEMA_CORPUS`), run through `toolschema canon --dialect D --allow-any --jsonl`, one call
  per dialect over all the corpus tools at once. A tool the dialect refuses is counted as refused,
  not checked (so is a line the CLI refuses to read, nesting past serde_json's limit, with its
  message); a tool the CLI gives no answer for, or whose answer Python cannot read, is
  unreadable, and that is a failure.

Checks of each accepted schema, by dialect:
- `openai-strict`: openai-agents `ensure_strict_json_schema(copy)` (its `FunctionTool` path)
  must not raise and must return the schema unchanged, except for `required: []` added to an
  object without `required` (reported as information). And openai-agents' MCP-tool conversion
  (as under `openai-agents-mcp`, below): it refuses the `$defs` openai-strict keeps for a
  recursive schema, which is documented (serve such a tool with `openai-agents-mcp`) and reported
  as information; the number of such tools in a full run is asserted per mode
  (`OPENAI_STRICT_MCP_RAISES`, a failure when it differs); any other finding is a failure.
- `openai-agents-mcp`: the same, and the conversion openai-agents applies to an MCP server's
  tools (`agents.mcp.util` with `convert_schemas_to_strict`: `properties` added when absent, then
  `_reject_open_objects=True`) must not raise and must change nothing but `required: []`: the SDK
  serves a tool whose conversion raises as non-strict, silently, so a raise is a failure.
- `anthropic-strict`: anthropic `transform_schema(copy)` must not raise. What it changes (the
  keywords it moves into descriptions, ...) is information: no client path raises on it.
- `gemini`, `gemini-ordered`: google-genai `FunctionDeclaration.model_validate({"name",
  "parameters": schema})` (the path a dict tool takes) must not raise nor warn (a warning such as
  "float is not a valid Type" is a failure). Failures too: fields the SDK's `Schema` has but the
  Gemini Developer API rejects (`additionalProperties`, `ref`, `defs`), schemas with neither
  `type` nor `anyOf` (the API answers 400 "type must be specified"), and a root that is not an
  object (`null` reads as a function without parameters).
- `gemini-json-schema`: google-genai `FunctionDeclaration.model_validate({"name",
  "parameters_json_schema": schema})` and `GenerateContentConfig.model_validate(
  {"response_mime_type": "application/json", "response_json_schema": schema})` must not raise nor
  warn, and the request bodies the SDK writes (`parametersJsonSchema` of the declaration dumped as
  the client sends it, `responseJsonSchema` from `models._GenerateContentConfig_to_mldev`) must
  hold the schema unchanged (the SDK passes both fields through: `Optional[Any]`,
  `t_json_schema` the identity). Failures too: a root that is not an object (the field "must
  describe an object where the properties are the parameters").
- `mcp`, `mcp-self-contained`: `mcp.types.Tool(name=..., inputSchema=schema)` and a `tools/list`
  result parsed by `mcp_types.methods.parse_server_result` for protocol 2025-11-25 and 2026-07-28
  (what a client does with a server's answer) must not raise; and the two checks VS Code's Copilot
  Chat runs on an MCP tool before it offers it (`normalizeToolSchema` in
  `src/extension/tools/common/toolSchemaNormalizer.ts` of `microsoft/vscode-copilot-chat`, which
  throws and drops the tool): the schema valid against the draft-07 metaschema, and no node it
  walks with `type: "array"` and a falsy `items`.
- every JSON-Schema dialect (`json-schema`, `strict-subset`, `inline-refs`, `openai-strict`,
  `openai-agents-mcp`, `anthropic-strict`, `gemini-json-schema`, `mcp`, `mcp-self-contained`): jsonschema `Draft202012Validator.check_schema`
  (every metaschema error is listed, not only the first), then every `$ref` at a schema position
  resolved with jsonschema's `referencing` (no network: a reference outside the document fails).
- `json-schema`, `strict-subset`, `inline-refs`, `gemini-json-schema`, `mcp`, `mcp-self-contained`
  (the outputs an MCP host or a 2020-12 validator reads as they are): Ajv2020 must compile them in
  its strict mode (`scripts/ajv_check.mjs`, in Node, the modules from `scripts/package-lock.json`
  that `scripts/sdk_node.sh` installs in `$SDK_NODE`): an unknown keyword or format refuses the
  schema, as in a TypeScript host that validates with `new Ajv2020()`. Formats are annotations
  (`validateFormats: false`). Two documented limits are counted per mode and asserted in a full
  run: the OpenAPI `discriminator` these dialects keep, which strict mode refuses
  (`AJV_DISCRIMINATORS`), and Ajv overflowing Node's stack on a chain of thousands of `$ref`s
  (`AJV_STACK_OVERFLOWS`).

Before any of that, a self-test runs each check on a schema its SDK takes and one it does not, and
stops the run (exit 2) if a check cannot tell them apart. Distinct schemas are checked once per SDK,
in `--jobs` forked processes (default 2).

Output: a table (dialect x mode x SDK: checked, passed, failed, refused by us, unreadable, info), the
failures by source, then every failure grouped by kind (at most `--list` tools a kind), then the
information notes. Exit 1 on any failure, 2 on a setup error. `--json FILE` writes every result.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NoReturn

REPO = Path(__file__).resolve().parent.parent

DIALECTS = [
    "json-schema",
    "strict-subset",
    "inline-refs",
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini",
    "gemini-ordered",
    "gemini-json-schema",
    "mcp",
    "mcp-self-contained",
]
SOURCES = ["zoo", "rejections", "mcp", "pydantic", "bfcl", "hostile"]
# Reversible mode (the default: what a dialect cannot say is encoded and restore undoes it) and
# exact mode (`--exact`: such a schema is refused instead).
MODES = ["reversible", "exact"]
# Sources run through the CLI; of them, the ones read from the shared corpus.
CLI_SOURCES = SOURCES[1:]
CORPUS_SOURCES = SOURCES[2:]

# Ajv2020 in strict mode (scripts/ajv_check.mjs, in Node: checked in one batch, not per schema
# in Python): what a TypeScript MCP host that validates with Ajv compiles.
AJV = "ajv2020-strict"

# Which SDKs check which dialect's output, in table order.
SDKS_BY_DIALECT = {
    "json-schema": ["jsonschema", AJV],
    "strict-subset": ["jsonschema", AJV],
    "inline-refs": ["jsonschema", AJV],
    "openai-strict": ["openai-agents", "openai-agents-mcp-recursive", "jsonschema"],
    "openai-agents-mcp": ["openai-agents", "openai-agents-mcp", "jsonschema"],
    "anthropic-strict": ["anthropic", "jsonschema"],
    "gemini": ["google-genai"],
    "gemini-ordered": ["google-genai"],
    "gemini-json-schema": ["google-genai-json", "jsonschema", AJV],
    "mcp": ["mcp", "vscode", "jsonschema", AJV],
    "mcp-self-contained": ["mcp", "vscode", "jsonschema", AJV],
}

# openai-strict keeps `$defs` where a schema is recursive or a definition is past its inlining
# budget (four times the size), and openai-agents' MCP-tool conversion refuses every reference
# (docs/dialects.md: such a tool is served with `openai-agents-mcp`, which inlines or refuses it
# at start-up). The tools of a full run (every source, `--allow-any`) whose openai-strict output
# the conversion refuses that way: a documented number per mode, asserted (reversible: 10
# recursive, 1 past the budget, the hostile wide fan-out; exact: 4, all recursive, as exact mode
# refuses the rest); any other raise is a failure.
OPENAI_STRICT_MCP_RAISES = {"reversible": 11, "exact": 4}
MCP_RECURSIVE_KIND = (
    "MCP-tool conversion refuses the $defs openai-strict keeps (recursion, or past its inlining budget; "
    "documented: use openai-agents-mcp)"
)

# Ajv compiles a schema by recursion through its references: the corpus's hostile chain of 5,000
# `$ref`s (hostile/deep_ref_chain_5000, within every budget of ours) overflows Node's stack, in
# any mode of Ajv, strict or not. A limit of the validator, not a keyword it refuses: the outputs
# of a full run that do so, counted per mode (json-schema, strict-subset, gemini-json-schema and
# mcp keep the chain; inline-refs and mcp-self-contained refuse it), asserted; any other refusal
# is a failure.
AJV_STACK_OVERFLOWS = {"reversible": 4, "exact": 4}

# The JSON Schema dialects keep OpenAPI's `discriminator` (docs/dialects.md: pydantic refuses a
# union member without its tag even where the schema gives the tag a default, so leaving it out
# would loosen the schema for the server's reader); Ajv2020 in strict mode refuses it as an
# unknown keyword. The outputs of a full run that hold one, counted per mode, asserted; any other
# unknown keyword is a failure.
AJV_DISCRIMINATORS = {"reversible": 10, "exact": 10}
AJV_DISCRIMINATOR_KIND = "Ajv2020 strict refuses the `discriminator` the JSON Schema dialects keep (documented)"
AJV_STACK_KIND = "Ajv2020 overflows Node's call stack compiling it (a chain of thousands of `$ref`s; any Ajv mode)"


@dataclass(frozen=True)
class Limit:
    """A documented limit of client code: outputs whose check notes `kind` under `sdk`."""

    title: str
    dialects: tuple[str, ...]
    sdk: str
    kind: str
    full_run: dict[str, int]
    documented: str


DOCUMENTED_LIMITS = [
    Limit(
        "openai-strict outputs the MCP-tool conversion refuses as recursive",
        ("openai-strict",),
        "openai-agents-mcp-recursive",
        MCP_RECURSIVE_KIND,
        OPENAI_STRICT_MCP_RAISES,
        "OPENAI_STRICT_MCP_RAISES, docs/dialects.md",
    ),
    Limit(
        "outputs whose kept `discriminator` Ajv2020 strict refuses",
        ("json-schema", "strict-subset", "inline-refs", "gemini-json-schema", "mcp", "mcp-self-contained"),
        "ajv2020-strict",
        AJV_DISCRIMINATOR_KIND,
        AJV_DISCRIMINATORS,
        "AJV_DISCRIMINATORS, docs/dialects.md",
    ),
    Limit(
        "outputs Ajv2020 cannot compile for Node's call stack",
        ("json-schema", "strict-subset", "inline-refs", "gemini-json-schema", "mcp", "mcp-self-contained"),
        "ajv2020-strict",
        AJV_STACK_KIND,
        AJV_STACK_OVERFLOWS,
        "AJV_STACK_OVERFLOWS, docs/testing.md",
    ),
]

# Protocol versions a client parses a `tools/list` result for, each with the result's other
# required fields (2026-07-28 adds cache hints and `resultType`).
MCP_PROTOCOLS = {
    "2025-11-25": {},
    "2026-07-28": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"},
}


# ---------------------------------------------------------------------------------------------
# Results


@dataclass
class Note:
    """A failure or an information note: `kind` groups notes in the report."""

    kind: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}


@dataclass
class Check:
    failures: list[Note] = field(default_factory=list)
    info: list[Note] = field(default_factory=list)

    def fail(self, kind: str, message: str) -> None:
        self.failures.append(Note(kind, message))

    def note(self, kind: str, message: str) -> None:
        self.info.append(Note(kind, message))


@dataclass
class Tool:
    """One input: a zoo type or a corpus tool."""

    source: str
    label: str  # how the report names it: `zoo/maps`, `mcp/server-github/create_issue`, ...
    name: str  # the tool name given to SDKs that want one


@dataclass
class Result:
    tool: Tool
    dialect: str
    mode: str  # reversible | exact
    status: str  # accepted | refused | unreadable
    schema: Any = None
    message: str = ""  # why refused or unreadable
    checks: dict[str, Check] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.tool.source,
            "tool": self.tool.label,
            "name": self.tool.name,
            "dialect": self.dialect,
            "mode": self.mode,
            "status": self.status,
        }
        if self.status == "accepted":
            out["schema_sha256"] = hashlib.sha256(compact(self.schema).encode()).hexdigest()
            out["checks"] = {
                sdk: {
                    "passed": not c.failures,
                    "failures": [n.to_json() for n in c.failures],
                    "info": [n.to_json() for n in c.info],
                }
                for sdk, c in self.checks.items()
            }
        else:
            out["message"] = self.message
        return out


def die(message: str) -> NoReturn:
    """A setup error (bad arguments, a CLI that crashed): exit 2, as the CLI does for bad usage."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else compact(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return short(line, limit)


def generalize(text: str) -> str:
    """A message with its specifics (quoted names, values) blanked, to group failures by kind."""
    text = re.sub(r"`[^`]*`", "`…`", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"\{.*\}", "{…}", text)
    text = re.sub(r"\[.*\]", "[…]", text)
    text = re.sub(r"\d+", "N", text)
    return short(text, 100)


def pointer(parts: Iterator[Any] | list[Any] | tuple[Any, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def same(a: Any, b: Any) -> bool:
    """JSON equality that keeps `true` and `1` apart (Python's `==` does not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return a == b


def json_diff(a: Any, b: Any, at: str = "") -> Iterator[tuple[str, str, Any, Any]]:
    """`(pointer, op, before, after)` for every difference: op is add, remove or change."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            p = f"{at}/{pointer([k])[1:]}"
            if k not in a:
                yield p, "add", None, b[k]
            elif k not in b:
                yield p, "remove", a[k], None
            elif k == "required" and same_set(a[k], b[k]):
                # `required` is a set: openai-agents rewrites it as `list(properties)`, which
                # reorders it where `properties` keep their declared order. Same names, no change.
                continue
            else:
                yield from json_diff(a[k], b[k], p)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from json_diff(x, y, f"{at}/{i}")
    elif not same(a, b):
        yield at, "change", a, b


def same_set(a: Any, b: Any) -> bool:
    """Two lists of strings with the same members, in any order."""
    if not (isinstance(a, list) and isinstance(b, list)):
        return False
    if not all(isinstance(x, str) for x in a + b):
        return False
    return sorted(a) == sorted(b)


def last_key(p: str) -> str:
    key = p.rsplit("/", 1)[-1]
    return key.replace("~1", "/").replace("~0", "~")


VERB = {"add": "adds", "remove": "removes", "change": "changes"}


def describe_changes(changes: list[tuple[str, str, Any, Any]], limit: int = 4) -> str:
    parts = []
    for p, op, before, after in changes[:limit]:
        if op == "add":
            parts.append(f"{p or '/'}: added {short(after, 60)}")
        elif op == "remove":
            parts.append(f"{p or '/'}: removed {short(before, 60)}")
        else:
            parts.append(f"{p or '/'}: {short(before, 40)} -> {short(after, 40)}")
    if len(changes) > limit:
        parts.append(f"... {len(changes) - limit} more")
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------------
# The SDK checks


class Sdks:
    """The SDKs, imported once; each method checks one schema."""

    def __init__(self) -> None:
        import jsonschema
        import mcp.types
        import mcp_types.methods
        import pydantic
        import referencing
        import referencing.exceptions
        import referencing.jsonschema
        from agents import strict_schema
        from anthropic.lib._parse import _transform as anthropic_transform
        from google.genai import models as genai_models
        from google.genai import types as genai_types

        self.strict_schema = strict_schema
        self.genai_types = genai_types
        self.genai_models = genai_models
        self.jsonschema = jsonschema
        self.mcp_types = mcp.types
        self.mcp_methods = mcp_types.methods
        self.ValidationError = pydantic.ValidationError
        self.referencing = referencing
        self.referencing_jsonschema = referencing.jsonschema
        self._ajv: subprocess.Popen[str] | None = None

        # `transform_schema` calls itself through its module's global name: wrapping that name
        # records every (input node, output node) pair of one call, so the report can say which
        # keywords it moved where.
        self.anthropic_calls: list[tuple[Any, Any]] = []
        original = anthropic_transform.transform_schema

        def recording(schema: Any) -> Any:
            out = original(schema)
            self.anthropic_calls.append((schema, out))
            return out

        anthropic_transform.transform_schema = recording
        self.transform_schema = recording

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        names = ["openai-agents", "anthropic", "google-genai", "mcp", "jsonschema", "pydantic"]
        return {n: version(n) for n in names}

    def check(self, sdk: str, schema: Any, name: str) -> Check:
        c = Check()
        try:
            {
                "openai-agents": self.openai,
                "openai-agents-mcp": self.openai_mcp,
                "openai-agents-mcp-recursive": self.openai_mcp_recursive,
                "anthropic": self.anthropic_check,
                "google-genai": self.gemini,
                "google-genai-json": self.gemini_json,
                "mcp": self.mcp,
                "vscode": self.vscode,
                "jsonschema": self.json_schema,
                AJV: self.ajv,
            }[sdk](c, schema, name)
        except RecursionError:
            c.fail("raises RecursionError", "the SDK exceeded Python's recursion limit")
        return c

    # -- openai-agents ------------------------------------------------------------------------

    def openai(self, c: Check, schema: Any, name: str) -> None:
        ensure = self.strict_schema.ensure_strict_json_schema
        if not isinstance(schema, dict):
            c.fail("not an object", f"the schema is {short(schema)}, ensure_strict_json_schema takes a dict")
            return
        try:
            out = ensure(copy.deepcopy(schema))
        except Exception as e:  # noqa: BLE001 (any exception is the finding)
            c.fail(f"raises {type(e).__name__}: {generalize(first_line(str(e)))}", first_line(str(e), 400))
            return
        changes = list(json_diff(schema, out))
        added_required = [ch for ch in changes if ch[1] == "add" and last_key(ch[0]) == "required" and ch[3] == []]
        others = [ch for ch in changes if ch not in added_required]
        if added_required:
            where = ", ".join((p.rsplit("/", 1)[0] or "/") for p, *_ in added_required[:5])
            c.note("ensure_strict_json_schema adds `required: []`", f"at {where}")
        if others:
            kinds = sorted({f"{VERB[op]} `{last_key(p)}`" for p, op, *_ in others})
            c.fail("ensure_strict_json_schema changes the schema: " + ", ".join(kinds), describe_changes(others))

    def openai_mcp(self, c: Check, schema: Any, name: str) -> None:
        """The conversion openai-agents applies to an MCP server's tools (agents/mcp/util.py,
        `convert_schemas_to_strict=True`): `properties` added when absent, then the strict
        conversion refusing open objects unless the schema is `{}`. When it raises, the SDK logs
        at info level and serves the tool non-strict: the user silently loses strict mode, so a
        raise is a failure, and so is any change but `required: []`."""
        ensure = self.strict_schema.ensure_strict_json_schema
        if not isinstance(schema, dict):
            c.fail("not an object", f"the schema is {short(schema)}, the MCP-tool conversion takes a dict")
            return
        mcp_copy = copy.deepcopy(schema)
        empty = mcp_copy == {}
        mcp_copy.setdefault("properties", {})
        try:
            converted = ensure(copy.deepcopy(mcp_copy), _reject_open_objects=not empty)
        except Exception as e:  # noqa: BLE001 (any exception is the finding)
            c.fail(
                f"MCP-tool conversion (_reject_open_objects) raises {type(e).__name__}: "
                + generalize(first_line(str(e))),
                first_line(str(e), 400),
            )
            return
        changes = [
            ch
            for ch in json_diff(mcp_copy, converted)
            if not (ch[1] == "add" and last_key(ch[0]) == "required" and ch[3] == [])
        ]
        if changes:
            kinds = sorted({f"{VERB[op]} `{last_key(p)}`" for p, op, *_ in changes})
            c.fail("MCP-tool conversion changes the schema: " + ", ".join(kinds), describe_changes(changes))

    def openai_mcp_recursive(self, c: Check, schema: Any, name: str) -> None:
        """openai-strict's output through the MCP-tool conversion: a raise on a schema that keeps
        references (recursion, or definitions past the inlining budget) is the documented limit
        (information, counted against `OPENAI_STRICT_MCP_RAISES`); anything else the conversion
        finds is a failure, as under `openai-agents-mcp`."""
        mcp = Check()
        self.openai_mcp(mcp, schema, name)
        keeps_refs = is_recursive(schema) or any(k == "$ref" for _, k, _ in schema_refs(schema, ""))
        if mcp.failures and keeps_refs and all(" raises " in n.kind for n in mcp.failures):
            c.note(MCP_RECURSIVE_KIND, mcp.failures[0].message)
        else:
            c.failures.extend(mcp.failures)

    # -- anthropic -----------------------------------------------------------------------------

    def anthropic_check(self, c: Check, schema: Any, name: str) -> None:
        if not isinstance(schema, dict):
            c.fail("not an object", f"the schema is {short(schema)}, transform_schema takes a dict")
            return
        given = copy.deepcopy(schema)
        where: dict[int, str] = {}

        def index(node: Any, at: str) -> None:
            if isinstance(node, dict):
                where[id(node)] = at
                for k, v in node.items():
                    index(v, f"{at}/{pointer([k])[1:]}")
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    index(v, f"{at}/{i}")

        index(given, "")
        self.anthropic_calls.clear()
        try:
            out = self.transform_schema(given)
        except Exception as e:  # noqa: BLE001
            message = first_line(str(e), 400) or repr(e)
            c.fail(f"raises {type(e).__name__}: {generalize(message)}", message)
            return
        if same(out, schema):
            return
        explained = False
        for node, result in self.anthropic_calls:
            if not isinstance(node, dict) or not isinstance(result, dict):
                continue
            at = where.get(id(node), "?") or "/"
            if "$ref" in node:
                for k in sorted(set(node) - {"$ref", "$defs"}):
                    c.note(f"transform_schema drops `{k}` beside `$ref`", at)
                    explained = True
                continue
            literal = "enum" in result or "const" in result
            for k in sorted(set(node) - set(result)):
                if k == "oneOf" and "anyOf" in result:
                    c.note("transform_schema renames `oneOf` to `anyOf`", at)
                elif k == "type" and literal:
                    c.note("transform_schema drops `type` beside `enum`/`const`", at)
                else:
                    c.note(f"transform_schema moves `{k}` into the description", f"{at}: {k}={short(node[k], 60)}")
                explained = True
            for k in sorted(set(result) - set(node)):
                if k == "description" or (k == "anyOf" and "oneOf" in node):
                    continue
                c.note(f"transform_schema adds `{k}`", f"{at}: {short(result[k], 60)}")
                explained = True
            for k in sorted(set(result) & set(node)):
                if k in ("additionalProperties", "minItems") and not same(node[k], result[k]):
                    c.note(f"transform_schema changes `{k}`", f"{at}: {short(node[k], 40)} -> {short(result[k], 40)}")
                    explained = True
        if not explained:
            changes = list(json_diff(schema, out))
            c.note("transform_schema changes the schema", describe_changes(changes))

    # -- google-genai, JSON Schema fields ------------------------------------------------------

    def gemini_json(self, c: Check, schema: Any, name: str) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                decl = self.genai_types.FunctionDeclaration.model_validate(
                    {"name": name, "parameters_json_schema": copy.deepcopy(schema)}
                )
                sent = decl.model_dump(mode="json", by_alias=True, exclude_none=True).get("parametersJsonSchema")
                if sent != schema:
                    c.fail("FunctionDeclaration changes parametersJsonSchema", describe_changes(list(json_diff(schema, sent))))
                config = self.genai_types.GenerateContentConfig.model_validate(
                    {"response_mime_type": "application/json", "response_json_schema": copy.deepcopy(schema)}
                )
                body = self.genai_models._GenerateContentConfig_to_mldev(None, config.model_dump(exclude_none=True), {})
                if body.get("responseJsonSchema") != schema:
                    changes = list(json_diff(schema, body.get("responseJsonSchema")))
                    c.fail("GenerateContentConfig changes responseJsonSchema", describe_changes(changes))
            except self.ValidationError as e:
                for err in e.errors():
                    loc = [str(p) for p in err.get("loc", ())]
                    c.fail(f"{err['type']} at `{'/'.join(loc)}`", err["msg"])
            except Exception as e:  # noqa: BLE001
                c.fail(f"raises {type(e).__name__}: {generalize(first_line(str(e)))}", first_line(str(e), 400))
        for w in caught:
            text = str(w.message)
            c.fail(f"warning: {short(text, 80)}", f"{w.category.__name__}: {text}")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            c.fail(
                "the root is not an object: parametersJsonSchema must describe an object",
                f"the root is {short(schema, 60)}",
            )

    # -- google-genai --------------------------------------------------------------------------

    GEMINI_API_REJECTS: ClassVar[dict[str, str]] = {
        "additional_properties": "additionalProperties",
        "ref": "$ref",
        "defs": "$defs",
    }

    def gemini(self, c: Check, schema: Any, name: str) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                decl = self.genai_types.FunctionDeclaration.model_validate(
                    {"name": name, "parameters": copy.deepcopy(schema)}
                )
            except self.ValidationError as e:
                decl = None
                for err in e.errors():
                    loc = list(err.get("loc", ()))
                    if loc and loc[0] == "parameters":
                        loc = loc[1:]
                    value = err.get("input")
                    shown = f" ({short(value, 40)})" if not isinstance(value, (dict, list)) else ""
                    key = next((str(p) for p in reversed(loc) if not isinstance(p, int)), "")
                    c.fail(
                        f"FunctionDeclaration: {err['type']} at `{key}`{shown}",
                        f"{pointer(loc) or '/'}: {err['msg']}",
                    )
            except Exception as e:  # noqa: BLE001
                decl = None
                c.fail(f"raises {type(e).__name__}: {generalize(first_line(str(e)))}", first_line(str(e), 400))
        for w in caught:
            text = str(w.message)
            c.fail(f"warning: {short(text, 80)}", f"{w.category.__name__}: {text}")
        if c.failures:
            return
        if decl is not None and (decl.parameters is None or decl.parameters.type != self.genai_types.Type.OBJECT):
            kind = decl.parameters and decl.parameters.type
            given = "no parameters" if decl.parameters is None else f"`type: {kind.value}`" if kind else "no `type`"
            c.fail(
                "the root is not an object: function `parameters` the API does not take",
                f"the SDK reads {given}",
            )
        if decl is not None and decl.parameters is not None:
            dumped = decl.parameters.model_dump(exclude_none=True)
            for at, k in self._gemini_fields(dumped, ""):
                if k == "untyped":
                    c.fail("a schema with neither `type` nor `anyOf` (the Gemini API answers 400)", at)
                else:
                    c.fail(f"uses `{self.GEMINI_API_REJECTS[k]}`, which the Gemini Developer API rejects", at)

    def _gemini_fields(self, node: Any, at: str) -> Iterator[tuple[str, str]]:
        """`(pointer, field)` for every API-rejected field of a dumped `Schema` (snake_case keys),
        and `(pointer, "untyped")` for every schema without `type` or `anyOf`."""
        if not isinstance(node, dict):
            return
        for k in node:
            if k in self.GEMINI_API_REJECTS:
                yield at or "/", k
        if "type" not in node and "any_of" not in node:
            yield at or "/", "untyped"
        for k, alias in (("properties", "properties"), ("defs", "$defs")):
            for name, sub in (node.get(k) or {}).items():
                yield from self._gemini_fields(sub, f"{at}/{alias}/{pointer([name])[1:]}")
        for i, sub in enumerate(node.get("any_of") or []):
            yield from self._gemini_fields(sub, f"{at}/anyOf/{i}")
        yield from self._gemini_fields(node.get("items"), f"{at}/items")
        yield from self._gemini_fields(node.get("additional_properties"), f"{at}/additionalProperties")

    # -- mcp -------------------------------------------------------------------------------------

    def mcp(self, c: Check, schema: Any, name: str) -> None:
        attempts: list[tuple[str, Callable[[], Any]]] = [
            ("Tool", lambda: self.mcp_types.Tool(name=name, inputSchema=copy.deepcopy(schema)))
        ]
        for version, fields in MCP_PROTOCOLS.items():
            doc = {**fields, "tools": [{"name": name, "inputSchema": copy.deepcopy(schema)}]}
            attempts.append(
                (
                    f"tools/list {version}",
                    lambda d=doc, v=version: self.mcp_methods.parse_server_result("tools/list", v, d),
                )
            )
        for what, attempt in attempts:
            try:
                attempt()
            except self.ValidationError as e:
                for err in e.errors():
                    loc = list(err.get("loc", ()))
                    if loc[:3] == ["tools", 0, "inputSchema"]:
                        loc = loc[3:]
                    value = err.get("input")
                    shown = f" ({short(value, 40)})" if not isinstance(value, (dict, list)) else ""
                    key = next((str(p) for p in reversed(loc) if not isinstance(p, int)), "inputSchema")
                    c.fail(f"{what}: {err['type']} at `{key}`{shown}", f"{pointer(loc) or '/'}: {err['msg']}")
            except Exception as e:  # noqa: BLE001
                c.fail(f"{what}: raises {type(e).__name__}: {generalize(first_line(str(e)))}", first_line(str(e), 400))

    def vscode(self, c: Check, schema: Any, name: str) -> None:
        """VS Code's two throwing rules for a tool's parameters: Ajv with the draft-07 metaschema
        (formats not checked: VS Code registers only `uri` and `regex`), then `forEachSchemaNode`
        over the keywords it walks, refusing `type: "array"` without a truthy `items`."""
        validator = self.jsonschema.Draft7Validator
        for e in validator(validator.META_SCHEMA).iter_errors(schema):
            key = next((str(p) for p in reversed(e.absolute_path) if not isinstance(p, int)), "")
            c.fail(f"draft-07 metaschema: `{key or '/'}` fails `{e.validator}`", f"{pointer(e.absolute_path) or '/'}: {short(e.message, 300)}")

        def walk(node: Any, at: str) -> None:
            if not isinstance(node, dict):
                return
            # JavaScript's falsy values: `{}` and `[]` are truthy there.
            items = node.get("items")
            if node.get("type") == "array" and (items is None or items is False or items in (0, "")):
                c.fail("array type must have items", f"{at or '/'}: `items` is {short(node.get('items'), 40)}")
            for k in ("properties", "dependencies", "patternProperties"):
                for key, sub in (node.get(k) or {}).items() if isinstance(node.get(k), dict) else ():
                    walk(sub, f"{at}/{k}/{pointer([key])[1:]}")
            if isinstance(node.get("items"), list):
                for i, sub in enumerate(node["items"]):
                    walk(sub, f"{at}/items/{i}")
            for k in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
                walk(node.get(k), f"{at}/{k}")
            for k in ("anyOf", "allOf", "oneOf"):
                for i, sub in enumerate(node.get(k) or []):
                    walk(sub, f"{at}/{k}/{i}")

        walk(schema, "")

    # -- Ajv2020 ---------------------------------------------------------------------------------

    def ajv(self, c: Check, schema: Any, name: str) -> None:
        """One schema through scripts/ajv_check.mjs, in a Node process kept for the next (the
        suite's main run sends every schema in one batch instead: `start_ajv`)."""
        if self._ajv is None:
            self._ajv = subprocess.Popen(
                ["node", str(REPO / "scripts" / "ajv_check.mjs")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "SDK_NODE": node_dir()},
            )
        assert self._ajv.stdin is not None and self._ajv.stdout is not None
        self._ajv.stdin.write(compact(schema) + "\n")
        self._ajv.stdin.flush()
        line = self._ajv.stdout.readline()
        if not line:
            die(f"scripts/ajv_check.mjs ended (exit {self._ajv.wait()}) without an answer")
        ajv_verdict(c, json.loads(line))

    # -- jsonschema ------------------------------------------------------------------------------

    def json_schema(self, c: Check, schema: Any, name: str) -> None:
        validator = self.jsonschema.Draft202012Validator
        errors = list(validator(validator.META_SCHEMA, format_checker=validator.FORMAT_CHECKER).iter_errors(schema))
        # One failure per offending place, the most relevant error for it (jsonschema's own pick).
        by_place: dict[str, list[Any]] = collections.defaultdict(list)
        for e in errors:
            by_place[pointer(e.absolute_path)].append(e)
        for at, errs in sorted(by_place.items()):
            best = self.jsonschema.exceptions.best_match(errs)
            key = next((str(p) for p in reversed(best.absolute_path) if not isinstance(p, int)), "")
            instance = best.instance
            shown = f" {short(instance, 40)}" if not isinstance(instance, (dict, list)) else ""
            kind = f"check_schema: `{key or '/'}`{shown} fails `{best.validator}`"
            c.fail(kind, f"{at or '/'}: {short(best.message, 300)}")
        if errors:
            return
        # A valid schema whose `$ref` points at nothing loads, then fails the first validation that
        # reaches the reference: resolve each one as jsonschema would (no network: a reference
        # outside the document is unresolvable). Skipped under a nested `$id`, which moves the base.
        refs = list(schema_refs(schema, ""))
        if not refs or any(at and k == "$id" for at, k, _ in refs):
            return
        resolver = self.referencing.Registry().resolver_with_root(
            self.referencing_jsonschema.DRAFT202012.create_resource(schema)
        )
        for at, k, ref in refs:
            if k != "$ref":
                continue
            try:
                resolver.lookup(ref)
            except self.referencing.exceptions.Unresolvable as e:
                c.fail(f"`$ref` does not resolve ({type(e).__name__})", f"{at or '/'}: `{short(ref, 100)}`")


SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
SCHEMA_ONE = (
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contentSchema",
)
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


def schema_refs(node: Any, at: str) -> Iterator[tuple[str, str, Any]]:
    """`(pointer, "$ref" or "$id", value)` at every schema position (not inside `const`, `enum`,
    `default`, `examples` or property names)."""
    if not isinstance(node, dict):
        return
    for k in ("$ref", "$id"):
        if isinstance(node.get(k), str):
            yield at, k, node[k]
    for k in SCHEMA_MAPS:
        if isinstance(node.get(k), dict):
            for name, sub in node[k].items():
                yield from schema_refs(sub, f"{at}/{k}/{pointer([name])[1:]}")
    for k in SCHEMA_ONE:
        yield from schema_refs(node.get(k), f"{at}/{k}")
    for k in SCHEMA_LISTS:
        if isinstance(node.get(k), list):
            for i, sub in enumerate(node[k]):
                yield from schema_refs(sub, f"{at}/{k}/{i}")


def is_recursive(schema: Any) -> bool:
    """Whether a `$ref` of `schema` leads back to the root (`#`) or around a cycle of `$defs`."""

    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str):
                    yield v
                elif k not in ("enum", "const", "default", "examples"):
                    yield from refs(v)
        elif isinstance(node, list):
            for v in node:
                yield from refs(v)

    def target(ref: str) -> str | None:
        if not ref.startswith("#/$defs/"):
            return None
        return urllib.parse.unquote(ref[len("#/$defs/") :]).replace("~1", "/").replace("~0", "~")

    if not isinstance(schema, dict):
        return False
    if any(r == "#" for r in refs(schema)):
        return True
    defs = schema.get("$defs") if isinstance(schema.get("$defs"), dict) else {}
    edges = {n: {t for t in map(target, refs(d)) if t in defs} for n, d in defs.items()}
    done: set[str] = set()

    def cycle(n: str, path: set[str]) -> bool:
        if n in path:
            return True
        if n in done:
            return False
        path.add(n)
        found = any(cycle(m, path) for m in edges[n])
        path.discard(n)
        done.add(n)
        return found

    return any(cycle(n, set()) for n in defs)


# Each check must pass a schema its SDK takes and fail one it does not: a check that cannot fail
# (an SDK upgrade that stops warning, a renamed function) stops the run instead of passing it.
SELF_TEST: dict[str, tuple[Any, Any]] = {
    "openai-agents": (
        {"additionalProperties": False, "properties": {"a": {"type": "string"}}, "required": ["a"], "type": "object"},
        {"additionalProperties": False, "properties": {"a": {"type": "object"}}, "required": ["a"], "type": "object"},
    ),
    "openai-agents-mcp": (
        {"additionalProperties": False, "properties": {"a": {"type": "string"}}, "required": ["a"], "type": "object"},
        {
            "$defs": {"A": {"type": "string"}},
            "additionalProperties": False,
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "required": ["a"],
            "type": "object",
        },
    ),
    "anthropic": (
        {"additionalProperties": False, "properties": {"a": {"type": "string"}}, "type": "object"},
        {"properties": {"a": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}, "type": "object"},
    ),
    "google-genai": (
        {"properties": {"a": {"nullable": True, "type": "number"}}, "type": "object"},
        {"properties": {"a": {"type": "float"}}, "type": "object"},
    ),
    "google-genai-json": (
        {"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "type": "object"},
        {"type": "array", "items": {"type": "string"}},
    ),
    "mcp": (
        {"properties": {"a": {"type": "string"}}, "type": "object"},
        {"type": "string"},
    ),
    "vscode": (
        {"properties": {"a": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"not": {}}}}, "type": "object"},
        {"properties": {"a": {"type": "array", "prefixItems": [{"type": "string"}], "items": False}}, "type": "object"},
    ),
    "jsonschema": (
        {"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "type": "object"},
        {"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/B"}}, "type": "object"},
    ),
    AJV: (
        {"properties": {"a": {"format": "int32", "type": ["integer", "null"]}}, "type": "object"},
        {"properties": {"a": {"type": "string"}}, "type": "object", "x-vendor": 1},
    ),
}


def self_test(sdks: Sdks) -> list[str]:
    problems = []
    for sdk, (good, bad) in SELF_TEST.items():
        if sdk == AJV:
            passed, refused = ajv_checks([good, bad])
            if passed.failures:
                problems.append(f"{sdk} fails a schema it takes: {passed.failures[0].message}")
            if not refused.failures:
                problems.append(f"{sdk} passes a schema it does not take: {compact(bad)}")
            continue
        passed = sdks.check(sdk, good, "self_test")
        if passed.failures:
            problems.append(f"{sdk} fails a schema it takes: {passed.failures[0].kind}")
        if not sdks.check(sdk, bad, "self_test").failures:
            problems.append(f"{sdk} passes a schema it does not take: {compact(bad)}")
    return problems


def ajv_checks(schemas: list[Any]) -> list[Check]:
    """Ajv2020 strict (scripts/ajv_check.mjs) on every schema, in one Node process: a schema it
    refuses to compile is a failure, by Ajv's message."""
    return start_ajv(schemas)()


def start_ajv(schemas: list[Any]) -> Callable[[], list[Check]]:
    """Starts `ajv_checks` in a Node process of its own and returns the function that waits for
    its answers. Files, not pipes, in and out: the checks' forked workers would inherit a pipe's
    end and hold it open."""
    modules = node_dir()
    given = tempfile.TemporaryFile("w+", encoding="utf-8")
    given.writelines(compact(s) + "\n" for s in schemas)
    given.seek(0)
    answered = tempfile.TemporaryFile("w+", encoding="utf-8")
    errors = tempfile.TemporaryFile("w+", encoding="utf-8")
    proc = subprocess.Popen(
        ["node", str(REPO / "scripts" / "ajv_check.mjs")],
        stdin=given,
        stdout=answered,
        stderr=errors,
        env={**os.environ, "SDK_NODE": modules},
    )

    def wait() -> list[Check]:
        code = proc.wait()
        answered.seek(0)
        errors.seek(0)
        answers = [json.loads(line) for line in answered.read().splitlines() if line.strip()]
        if code != 0 or len(answers) != len(schemas):
            die(f"scripts/ajv_check.mjs exited with {code}, {len(answers)} answers for {len(schemas)}:\n{errors.read()}")
        for f in (given, answered, errors):
            f.close()
        checks = []
        for answer in answers:
            c = Check()
            ajv_verdict(c, answer)
            checks.append(c)
        return checks

    return wait


def ajv_verdict(c: Check, answer: dict[str, Any]) -> None:
    """What an answer of scripts/ajv_check.mjs says, on `c`."""
    if not answer["ok"] and answer["error"] == "Maximum call stack size exceeded":
        c.note(AJV_STACK_KIND, answer["error"])
    elif not answer["ok"] and answer["error"] == 'strict mode: unknown keyword: "discriminator"':
        c.note(AJV_DISCRIMINATOR_KIND, answer["error"])
    elif not answer["ok"]:
        message = answer["error"]
        kind = generalize(re.sub(r'"[^"]*"', "`…`", message))
        c.fail(f"Ajv2020 strict refuses it: {kind}", short(message, 300))


def node_dir() -> str:
    """Where scripts/sdk_node.sh installed the Node modules (`$SDK_NODE`); stops the run if Ajv
    is not there."""
    found = os.environ.get("SDK_NODE") or str(REPO / "target" / "sdk-node")
    if not (Path(found) / "node_modules" / "ajv").is_dir():
        die(f"no Ajv in {found}/node_modules: run scripts/sdk_node.sh (scripts/provider_sdks.sh does), or set SDK_NODE")
    return found


# ---------------------------------------------------------------------------------------------
# Inputs


def corpus_dir(given: str | None) -> Path | None:
    path = Path(given or os.environ.get("TOOLSCHEMA_CORPUS") or REPO / ".." / "shared" / "corpus")
    return path if (path / "mcp").is_dir() else None


def zoo_results(dialect: str) -> list[Result]:
    """The zoo goldens of `dialect` (reversible mode: the goldens are written in it)."""
    folder = REPO / "fixtures" / ("golden" if dialect == "json-schema" else f"dialects/{dialect}")
    results = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text())
        tool = Tool("zoo", f"zoo/{path.stem}", path.stem)
        if "schema" in doc:
            results.append(Result(tool, dialect, "reversible", "accepted", schema=doc["schema"]))
        else:
            messages = [e.get("message", "") for e in doc.get("errors", [])]
            results.append(Result(tool, dialect, "reversible", "refused", message=first_line(messages[0] if messages else "")))
    return results


def zoo_tools() -> list[tuple[Tool, str]]:
    """The zoo types as the CLI reads them, for exact mode (no golden holds a dialect's exact
    output): each type's json-schema golden, which the pipeline leaves as it is."""
    tools = []
    for path in sorted((REPO / "fixtures" / "golden").glob("*.json")):
        doc = json.loads(path.read_text())
        tools.append((Tool("zoo", f"zoo/{path.stem}", path.stem), compact(doc["schema"])))
    return tools


def corpus_tools(corpus: Path | None, sources: list[str]) -> list[tuple[Tool, str]]:
    """Every tool of the sources the CLI runs, with its schema as JSON text (a corpus file read as
    is, so that input the CLI cannot read stays input the CLI cannot read)."""
    tools: list[tuple[Tool, str]] = []

    def one_line(text: str) -> str:
        # JSON strings hold no raw line breaks, so outside them a line break is whitespace.
        return text.replace("\r", " ").replace("\n", " ")

    if "rejections" in sources:
        for entry in json.loads((REPO / "fixtures" / "provider_rejections" / "schemas.json").read_text()):
            tools.append((Tool("rejections", f"rejections/{entry['name']}", entry["name"]), json.dumps(entry["schema"])))
    if corpus is None:
        return tools

    if "mcp" in sources:
        for path in sorted(corpus.glob("mcp/*/*.json")):
            rel = path.relative_to(corpus).with_suffix("")
            tools.append((Tool("mcp", str(rel), path.stem), one_line(path.read_text())))
    if "pydantic" in sources:
        for path in sorted(corpus.glob("pydantic/*.json")):
            tools.append((Tool("pydantic", f"pydantic/{path.stem}", path.stem), one_line(path.read_text())))
    if "bfcl" in sources:
        with open(corpus / "bfcl" / "functions.jsonl", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    entry = json.loads(line)
                    label = f"bfcl/{entry['id']} ({entry['name']})"
                    tools.append((Tool("bfcl", label, entry["name"]), json.dumps(entry["schema"])))
    if "hostile" in sources:
        for path in sorted(corpus.glob("hostile/*.json")):
            tools.append((Tool("hostile", f"hostile/{path.stem}", path.stem), one_line(path.read_text())))
    return tools


def run_cli(
    binary: str, dialect: str, mode: str, jsonl: Path, tools: list[tuple[Tool, str]], reject_any: bool
) -> list[Result]:
    """`canon --jsonl` over every corpus tool (with `--exact` in exact mode); each line is named by
    its index (`k00042`), so that a refusal on stderr (`toolschema: FILE#k00042: message`) names
    exactly one tool."""
    cmd = [binary, "canon", "--dialect", dialect, "--jsonl", str(jsonl)]
    if not reject_any:
        cmd.insert(4, "--allow-any")
    if mode == "exact":
        cmd.insert(4, "--exact")
    proc = subprocess.run(cmd, capture_output=True, check=False)
    # Split on "\n" alone: str.splitlines() also splits on U+2028 and others, which canonical JSON
    # leaves unescaped inside strings.
    stdout = proc.stdout.decode("utf-8", errors="replace").split("\n")
    stderr = proc.stderr.decode("utf-8", errors="replace").split("\n")
    if proc.returncode not in (0, 1, 2):
        die(f"`{' '.join(cmd)}` exited with {proc.returncode}:\n{chr(10).join(stderr[-20:])}")
    refused: dict[int, list[str]] = {}
    current: list[str] | None = None
    mine = re.compile(r"^toolschema: " + re.escape(str(jsonl)) + r"#k(\d+): (.*)$")
    whole = re.compile(r"^toolschema: " + re.escape(str(jsonl)) + r": (?:invalid JSON at )?line (\d+)[,:] ?(.*)$")
    for line in stderr:
        if m := mine.match(line):
            current = refused.setdefault(int(m.group(1)), [])
            current.append(m.group(2))
        elif m := whole.match(line):
            # The CLI refuses the line itself (nesting past serde_json's limit), with a message: a
            # refusal, not a tool lost.
            refused.setdefault(int(m.group(1)) - 1, []).append(f"the input line: {m.group(2)}")
            current = None
        elif current is not None and not line.startswith("toolschema: "):
            current.append(line.strip())  # a message of several lines (a list of errors)
        elif line.strip():
            die(f"`{' '.join(cmd)}` printed an unexpected line: {line}")
    outputs: dict[int, Any] = {}
    for line in stdout:
        m = re.match(r'^\{"name":"k(\d+)"', line)
        if not m or int(m.group(1)) in refused:
            continue
        try:
            outputs[int(m.group(1))] = json.loads(line)["schema"]
        except (ValueError, RecursionError) as e:
            outputs[int(m.group(1))] = e
    results = []
    for i, (tool, _) in enumerate(tools):
        if i in refused:
            text = " ".join(refused[i])
            results.append(Result(tool, dialect, mode, "refused", message=short(text, 300)))
        elif i in outputs and not isinstance(outputs[i], Exception):
            results.append(Result(tool, dialect, mode, "accepted", schema=outputs[i]))
        elif i in outputs:
            message = f"Python cannot read the output: {outputs[i]}"
            results.append(Result(tool, dialect, mode, "unreadable", message=message))
        else:
            results.append(Result(tool, dialect, mode, "unreadable", message="no output and no error"))
    return results


# ---------------------------------------------------------------------------------------------
# The report


def table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def report(
    results: list[Result],
    dialects: list[str],
    modes: list[str],
    sources: list[str],
    limit: int,
    full_run: bool = False,
) -> tuple[str, int]:
    out: list[str] = []
    rows = [["dialect", "mode", "sdk", "checked", "passed", "failed", "refused by us", "unreadable", "info"]]
    by_source = [["dialect", "mode", "sdk", *sources]]
    Key = tuple[str, str, str, str]
    failures: dict[Key, list[tuple[Result, Note]]] = collections.defaultdict(list)
    infos: dict[Key, list[tuple[Result, Note]]] = collections.defaultdict(list)
    total_failed = 0
    unreadable_tools: list[Result] = []
    checks_by_mode: collections.Counter[str] = collections.Counter()
    for d in dialects:
        for mode in modes:
            mine = [r for r in results if r.dialect == d and r.mode == mode]
            refused = sum(r.status == "refused" for r in mine)
            unreadable = sum(r.status == "unreadable" for r in mine)
            unreadable_tools.extend(r for r in mine if r.status == "unreadable")
            accepted = [r for r in mine if r.status == "accepted"]
            for sdk in SDKS_BY_DIALECT[d]:
                failed = [r for r in accepted if r.checks[sdk].failures]
                with_info = [r for r in accepted if r.checks[sdk].info]
                total_failed += len(failed)
                checks_by_mode[mode] += len(accepted)
                rows.append(
                    [
                        d,
                        mode,
                        sdk,
                        str(len(accepted)),
                        str(len(accepted) - len(failed)),
                        str(len(failed)),
                        str(refused),
                        str(unreadable),
                        str(len(with_info)),
                    ]
                )
                counts = collections.Counter(r.tool.source for r in failed)
                by_source.append([d, mode, sdk, *(str(counts.get(s, 0)) for s in sources)])
                for r in accepted:
                    for n in r.checks[sdk].failures:
                        failures[(d, mode, sdk, n.kind)].append((r, n))
                    for n in r.checks[sdk].info:
                        infos[(d, mode, sdk, n.kind)].append((r, n))
    out.append("SDK conformance: accepted outputs of each dialect and mode through the providers' client code\n")
    out.append(table(rows, set(range(3, 9))))
    out.append("\nfailed, by source:\n")
    out.append(table(by_source, set(range(3, 3 + len(sources)))))

    def listing(title: str, groups: dict[Key, list[tuple[Result, Note]]]) -> None:
        if not groups:
            return
        out.append(f"\n{title}\n")

        def order(kv: tuple[Key, list[tuple[Result, Note]]]) -> tuple[int, int, str, int, str]:
            (d, mode, sdk, kind), items = kv
            return DIALECTS.index(d), MODES.index(mode), sdk, -len({id(r) for r, _ in items}), kind

        ordered = sorted(groups.items(), key=order)
        for (d, mode, sdk, kind), items in ordered:
            tools = {id(r) for r, _ in items}
            sources_seen = collections.Counter(r.tool.source for r in {id(r): r for r, _ in items}.values())
            spread = ", ".join(f"{s} {n}" for s, n in sorted(sources_seen.items()))
            out.append(f"[{d} {mode} / {sdk}] {kind}: {len(tools)} tool(s) ({spread}), {len(items)} place(s)")
            shown: set[int] = set()
            for r, n in items:
                if id(r) in shown:
                    continue
                if len(shown) == limit:
                    out.append(f"    ... and {len(tools) - limit} more tool(s)")
                    break
                shown.add(id(r))
                out.append(f"    {r.tool.label}: {n.message}")

    listing("Failures, by kind:", failures)
    if unreadable_tools:
        # A tool the CLI drops without an answer, or whose answer Python cannot read, is a failure:
        # the user's tool would be lost.
        out.append(f"\nUnreadable (failures): {len(unreadable_tools)} tool(s)\n")
        for r in unreadable_tools[:limit]:
            out.append(f"    [{r.dialect} {r.mode}] {r.tool.label}: {r.message}")
        if len(unreadable_tools) > limit:
            out.append(f"    ... and {len(unreadable_tools) - limit} more tool(s)")
    listing("Information (not failures), by kind:", infos)
    # The documented limits of client code (information), counted; a full run asserts each count.
    out.append("")
    for limit_ in DOCUMENTED_LIMITS:
        if not any(d in dialects for d in limit_.dialects):
            continue
        for mode in modes:
            found = [
                r
                for r in results
                if r.dialect in limit_.dialects
                and r.mode == mode
                and r.status == "accepted"
                and any(n.kind == limit_.kind for n in r.checks[limit_.sdk].info)
            ]
            out.append(f"{limit_.title} ({mode}): {len(found)}")
            expected = limit_.full_run.get(mode) if full_run else None
            if expected is not None and len(found) != expected:
                out.append(
                    f"FAILURE: a full run documents {expected} in {mode} mode ({limit_.documented}); "
                    "review the tools above and update both"
                )
                total_failed += 1
    out.append("")
    checks = sum(checks_by_mode.values())
    per_mode = ", ".join(f"{checks_by_mode[m]} {m}" for m in modes)
    out.append(f"{checks} check(s) ({per_mode}), {total_failed} failed, {len(unreadable_tools)} tool(s) unreadable")
    return "\n".join(out), total_failed + len(unreadable_tools)


# ---------------------------------------------------------------------------------------------


# The SDKs and the jobs, for worker processes forked after the imports (they inherit both).
_WORKER: tuple[Sdks, list[tuple[str, Any, str]]] | None = None


def _run_job(i: int) -> tuple[int, Check, float]:
    assert _WORKER is not None
    sdks, jobs = _WORKER
    sdk, schema, name = jobs[i]
    t = time.process_time()
    check = sdks.check(sdk, schema, name)
    return i, check, time.process_time() - t


def run_checks(
    sdks: Sdks, jobs: list[tuple[str, Any, str]], processes: int
) -> tuple[list[Check], collections.Counter[str]]:
    """Every job's check, in `processes` forked workers (in this process where fork is missing)."""
    global _WORKER
    _WORKER = (sdks, jobs)
    checks: list[Check | None] = [None] * len(jobs)
    spent: collections.Counter[str] = collections.Counter()
    import multiprocessing

    if processes > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            done = pool.imap_unordered(_run_job, range(len(jobs)), chunksize=16)
            for i, check, seconds in done:
                checks[i] = check
                spent[jobs[i][0]] += seconds
    else:
        for i in range(len(jobs)):
            _, checks[i], seconds = _run_job(i)
            spent[jobs[i][0]] += seconds
    return [c for c in checks if c is not None], spent


def parse_list(text: str | None, known: list[str], what: str) -> list[str]:
    if not text:
        return list(known)
    items = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in items if s not in known]
    if unknown:
        die(f"unknown {what} {', '.join(unknown)}; the {what}s are {', '.join(known)}")
    return [k for k in known if k in items]


def build_cli() -> str:
    cmd = [
        "cargo",
        "build",
        "--quiet",
        "--features",
        "cli",
        "--bin",
        "toolschema",
        "--message-format=json-render-diagnostics",
    ]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        die(f"`{' '.join(cmd)}` failed:\n{proc.stderr}")
    for line in proc.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["target"]["name"] == "toolschema":
            return msg["executable"]
    die("cargo built no `toolschema` executable")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", help="the toolschema CLI (default: build it with cargo)")
    ap.add_argument("--corpus", help="the shared corpus (default: $TOOLSCHEMA_CORPUS or ../shared/corpus)")
    ap.add_argument("--dialect", help=f"comma-separated dialects (default: all: {','.join(DIALECTS)})")
    ap.add_argument("--source", help=f"comma-separated sources (default: all: {','.join(SOURCES)})")
    ap.add_argument("--mode", help=f"comma-separated modes (default: both: {','.join(MODES)})")
    ap.add_argument("--json", metavar="FILE", help="write every result to FILE")
    ap.add_argument("--list", type=int, default=10, metavar="N", help="tools listed per failure kind (default 10)")
    ap.add_argument("--jobs", type=int, default=2, metavar="N", help="worker processes for the checks (default 2)")
    ap.add_argument("--reject-any", action="store_true", help="run the corpus without --allow-any")
    args = ap.parse_args()
    dialects = parse_list(args.dialect, DIALECTS, "dialect")
    sources = parse_list(args.source, SOURCES, "source")
    modes = parse_list(args.mode, MODES, "mode")
    started = time.monotonic()

    corpus_wanted = [s for s in sources if s in CORPUS_SOURCES]
    corpus = corpus_dir(args.corpus) if corpus_wanted else None
    if corpus_wanted and corpus is None and os.environ.get("TOOLSCHEMA_REQUIRE_CORPUS") == "1":
        die("the shared corpus is required (TOOLSCHEMA_REQUIRE_CORPUS=1) and is not at ../shared/corpus; set TOOLSCHEMA_CORPUS")
    if corpus_wanted and corpus is None:
        print("notice: no corpus at ../shared/corpus (set TOOLSCHEMA_CORPUS); checking the zoo and the rejected public tools only", file=sys.stderr)
        sources = [s for s in sources if s not in CORPUS_SOURCES]
        corpus_wanted = []

    phases: list[str] = []

    def phase(what: str, since: float) -> float:
        now = time.monotonic()
        phases.append(f"{what} {now - since:.1f} s")
        return now

    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="provider-sdks-") as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = []
        cli_wanted = [s for s in sources if s in CLI_SOURCES]
        for mode in modes:
            # The zoo's reversible outputs are its goldens; its exact outputs come from the CLI.
            tools = zoo_tools() if mode == "exact" and "zoo" in sources else []
            tools += corpus_tools(corpus, cli_wanted) if cli_wanted else []
            if not tools:
                continue
            binary = args.bin = args.bin or build_cli()
            jsonl = Path(tmp) / f"{mode}.jsonl"
            with open(jsonl, "w", encoding="utf-8") as f:
                f.writelines(f'{{"name":"k{i:05d}","schema":{text}}}\n' for i, (_, text) in enumerate(tools))
            futures += [pool.submit(run_cli, binary, d, mode, jsonl, tools, args.reject_any) for d in dialects]
        t = time.monotonic()
        sdks = Sdks()  # imports overlap the CLI runs
        problems = self_test(sdks)
        if problems:
            print("error: the suite's self-test failed:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 2
        t = phase("SDK imports", t)
        if "zoo" in sources and "reversible" in modes:
            for d in dialects:
                results.extend(zoo_results(d))
        for fut in futures:
            results.extend(fut.result())
        t = phase("CLI (after the imports)", t)

    # Dialects often give the same output for a tool: check each distinct schema once per SDK (no
    # check reads the tool name, which only fills the SDKs' required `name` fields).
    index: dict[tuple[str, str], int] = {}
    jobs: list[tuple[str, Any, str]] = []
    wanted: list[tuple[Result, str, int]] = []
    for r in results:
        if r.status == "accepted":
            text = compact(r.schema)
            for sdk in SDKS_BY_DIALECT[r.dialect]:
                if (sdk, text) not in index:
                    index[(sdk, text)] = len(jobs)
                    jobs.append((sdk, r.schema, r.tool.name))
                wanted.append((r, sdk, index[(sdk, text)]))
    python_jobs = [i for i, job in enumerate(jobs) if job[0] != AJV]
    node_jobs = [i for i, job in enumerate(jobs) if job[0] == AJV]
    # Ajv's one Node process runs beside the Python workers.
    t_node = time.monotonic()
    node_answers = start_ajv([jobs[i][1] for i in node_jobs]) if node_jobs else None
    python_checks, spent = run_checks(sdks, [jobs[i] for i in python_jobs], args.jobs)
    checks: dict[int, Check] = dict(zip(python_jobs, python_checks))
    if node_answers is not None:
        checks.update(zip(node_jobs, node_answers()))
        spent[f"{AJV} (wall, beside the others)"] += time.monotonic() - t_node
    for r, sdk, i in wanted:
        r.checks[sdk] = checks[i]
    t = phase(
        f"checks ({len(jobs)} distinct, {args.jobs} process(es); CPU time "
        + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(spent.items()))
        + ")",
        t,
    )

    # The documented count holds for a full run: every source, free-form schemas allowed.
    full = set(sources) == set(SOURCES) and not args.reject_any
    text, failed = report(results, dialects, modes, sources, args.list, full)
    print(text)
    elapsed = time.monotonic() - started
    versions = sdks.versions()
    print(f"SDKs: {', '.join(f'{k} {v}' for k, v in versions.items())}")
    print(f"time: {elapsed:.1f} s ({'; '.join(phases)})")
    if args.json:
        doc = {
            "sdks": versions,
            "dialects": dialects,
            "sources": sources,
            "modes": modes,
            "allow_any": not args.reject_any,
            "results": [r.to_json() for r in results],
        }
        Path(args.json).write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
