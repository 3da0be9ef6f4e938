#!/usr/bin/env python3
"""The self-hosted decoding engines as oracles of their dialects.

Run it with `scripts/engines.sh` (which makes the virtual environment from
`scripts/requirements-engines.txt` and builds the CLI), or, inside that environment:

    python scripts/engines.py [--bin target/debug/toolschema] [--engine llguidance,outlines]
        [--source zoo,rejections,mcp,pydantic,bfcl,hostile] [--samples N] [--seed N] [--list N]

For each engine, every schema its dialect accepts (the zoo goldens, `fixtures/dialects/<dialect>/`,
and the tools of `fixtures/provider_rejections/schemas.json` and the shared corpus, through
`toolschema canon --dialect <dialect> --allow-any --jsonl`, as `scripts/provider_sdks.py` reads
them) is checked twice:

- compiled: the engine must compile it with no error and no warning. llguidance:
  `LLMatcher.validate_grammar_with_warnings(LLMatcher.grammar_from_json_schema(schema))` with its
  default options (no `lenient`, no `coerce_one_of`: what it cannot enforce is an error there).
  outlines-core: `build_regex_from_schema(schema)` and its automaton, `Index(regex, vocabulary)`,
  both without an error (outlines-core warns of nothing: what it ignores only the samples show);
- sampled: `--samples` strings drawn from the engine's own grammar, without a model, by a random
  walk of its token mask over a byte-level vocabulary (each step picks one of the bytes the
  matcher allows, or that the `Index` allows from its state, weighted towards closing the value
  once it is long; a walk that has not ended within a step bound is dropped and counted). Each
  sample must parse as JSON and be valid
  against the dialect's output (jsonschema, draft 2020-12: what the grammar says it is); then
  `toolschema restore` must give a value the original accepts (the tool's `json-schema` output,
  jsonschema again), or refuse it with a fault (counted: the engine let through what restore
  checks, `uniqueItems` for one).

Exit 1 on any compile error or warning, a sample that is not JSON or breaks the output, or a
restored value the original refuses; 2 on a setup error. The last lines are the counts per engine
and source.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provider_sdks as sdks  # noqa: E402  (the corpus readers and the CLI driver)

REPO = sdks.REPO
ENGINES = {"llguidance": "llguidance", "outlines": "outlines"}  # engine -> dialect
SOURCES = sdks.SOURCES
# The hostile corpus holds a chain of 5,000 `$ref`s that overflows llguidance's stack (the process
# dies) and schemas past its size budget: not run unless asked for.
DEFAULT_SOURCES = ["zoo", "rejections", "mcp", "pydantic"]


class ByteVocabulary:
    """A tokenizer whose tokens are the 256 bytes, and an end-of-sequence token."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
    special_token_ids = [256]

    def __call__(self, text: bytes) -> list[int]:
        return list(text)


# Bytes that close or finish a value, preferred once a sample is long.
CLOSING = set(b'"}]0,')
WHITESPACE = set(b" \t\r\n")


class Llguidance:
    name = "llguidance"

    def __init__(self) -> None:
        import llguidance

        self.llg = llguidance
        self.tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(ByteVocabulary()))

    def version(self) -> str:
        return f"llguidance {self.llg.__version__}"

    def compile(self, schema: Any) -> list[str]:
        """Every error and warning the engine reports for `schema`."""
        m = self.llg.LLMatcher
        try:
            grammar = m.grammar_from_json_schema(json.dumps(schema))
        except Exception as e:  # noqa: BLE001 (any refusal is a finding)
            return [f"grammar_from_json_schema raised: {e}"]
        is_error, messages = m.validate_grammar_with_warnings(grammar, self.tokenizer)
        return [("error: " if is_error else "warning: ") + sdks.first_line(x) for x in messages]

    def sample(self, schema: Any, rng: random.Random, max_steps: int) -> bytes | None:
        """One string from the grammar by a random walk of its mask; `None` if the walk did not
        end within `max_steps` bytes."""
        m = self.llg.LLMatcher
        grammar = m.grammar_from_json_schema(json.dumps(schema))
        matcher = m(self.tokenizer, grammar, log_level=0)
        out = bytearray()
        for step in range(max_steps):
            if matcher.is_error():
                raise RuntimeError(matcher.get_error())
            mask = matcher.compute_bitmask()
            allowed = [t for t in range(257) if mask[t // 8] >> (t % 8) & 1]
            if not allowed:
                raise RuntimeError(f"no token allowed after {bytes(out)!r}")
            if 256 in allowed and (len(allowed) == 1 or rng.random() < 0.5 + step / max_steps):
                return bytes(out)
            choices = [t for t in allowed if t != 256]
            weights = [weight(t, step, max_steps) for t in choices]
            token = rng.choices(choices, weights)[0]
            if not matcher.consume_token(token):
                raise RuntimeError(f"the matcher refused a byte its mask allowed: {matcher.get_error()}")
            out.append(token)
        return None


class OutlinesCore:
    """outlines-core: the schema's regular expression, its automaton over the byte vocabulary, and
    random walks of that automaton."""

    name = "outlines"

    def __init__(self) -> None:
        import importlib.metadata

        import outlines_core
        from outlines_core.json_schema import build_regex_from_schema

        self.oc = outlines_core
        self.build = build_regex_from_schema
        self.release = importlib.metadata.version("outlines_core")
        self.vocabulary = outlines_core.Vocabulary(256, {bytes([i]): [i] for i in range(256)})
        self.indexes: dict[str, Any] = {}

    def version(self) -> str:
        return f"outlines-core {self.release}"

    def index(self, schema: Any) -> Any:
        key = json.dumps(schema, sort_keys=True)
        if key not in self.indexes:
            self.indexes[key] = self.oc.Index(self.build(json.dumps(schema)), self.vocabulary)
        return self.indexes[key]

    def compile(self, schema: Any) -> list[str]:
        """The error outlines-core raises for `schema`, if any (it has no warnings)."""
        try:
            index = self.index(schema)
        except Exception as e:  # noqa: BLE001 (any refusal is a finding)
            return [f"error: {sdks.first_line(str(e))}"]
        if not index.get_allowed_tokens(index.get_initial_state()):
            return ["error: the automaton admits no text"]
        return []

    def sample(self, schema: Any, rng: random.Random, max_steps: int) -> bytes | None:
        """One string from the automaton by a random walk; `None` if it did not end within
        `max_steps` bytes."""
        index = self.index(schema)
        state = index.get_initial_state()
        out = bytearray()
        for step in range(max_steps):
            allowed = index.get_allowed_tokens(state) or []
            final = index.is_final_state(state)
            may_end = final and (256 in allowed or not allowed)
            if may_end and (len(allowed) <= 1 or rng.random() < 0.5 + step / max_steps):
                return bytes(out)
            choices = [t for t in allowed if t != 256]
            if not choices:
                raise RuntimeError(f"no token allowed after {bytes(out)!r}")
            token = rng.choices(choices, [weight(t, step, max_steps) for t in choices])[0]
            state = index.get_next_state(state, token)
            if state is None:
                raise RuntimeError(f"the index has no transition for a byte it allowed after {bytes(out)!r}")
            out.append(token)
        return None


def weight(token: int, step: int, max_steps: int) -> float:
    """How likely a walk takes `token`: little whitespace; towards closing the value as it grows."""
    if token in WHITESPACE:
        return 0.02
    if token in CLOSING:
        return 1.0 + 200.0 * step / max_steps
    return 1.0


def restore(binary: str, dialect: str, schema_path: Path, args: bytes) -> tuple[bool, Any]:
    """`toolschema restore`: (True, value) or (False, the faults)."""
    proc = subprocess.run(
        [binary, "restore", "--dialect", dialect, "--allow-any", "--schema", str(schema_path), "-"],
        input=args,
        capture_output=True,
        check=False,
    )
    if proc.returncode == 0:
        return True, json.loads(proc.stdout)
    stderr = proc.stderr.decode("utf-8", "replace").strip()
    # A number past the f64 range (`1e400`: JSON's grammar and the engines allow it) is refused
    # by serde_json before restore: a refusal too, counted apart.
    if proc.returncode == 1 or proc.returncode == 2 and "number out of range" in stderr:
        return False, stderr
    raise RuntimeError(f"restore exited with {proc.returncode}: {proc.stderr.decode('utf-8', 'replace')}")


def validator(schema: Any) -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema)


def first_error(v: Any, value: Any) -> str | None:
    for e in v.iter_errors(value):
        return f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {sdks.short(e.message, 160)}"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(REPO / "target" / "debug" / "toolschema"))
    ap.add_argument("--engine", default=",".join(ENGINES))
    ap.add_argument("--source", default=",".join(DEFAULT_SOURCES))
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--samples", type=int, default=2, help="samples per accepted schema (default 2)")
    ap.add_argument("--max-steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", type=int, default=10, help="failures listed per kind")
    a = ap.parse_args()
    engines = sdks.parse_list(a.engine, list(ENGINES), "engine")
    sources = sdks.parse_list(a.source, SOURCES, "source")
    corpus = sdks.corpus_dir(a.corpus)
    if corpus is None and any(s in sdks.CORPUS_SOURCES for s in sources):
        print("engines: no corpus (set TOOLSCHEMA_CORPUS); checking the zoo and the rejections only", file=sys.stderr)
    failures: dict[str, list[str]] = collections.defaultdict(list)
    counts: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    rng = random.Random(a.seed)
    tools = (sdks.zoo_tools() if "zoo" in sources else []) + sdks.corpus_tools(corpus, sources)
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "tools.jsonl"
        with open(jsonl, "w", encoding="utf-8") as f:
            for i, (_, text) in enumerate(tools):
                f.write(f'{{"name":"k{i:05}","schema":{text}}}\n')
        inputs = {tool.label: text for tool, text in tools}
        originals = {r.tool.label: r for r in sdks.run_cli(a.bin, "json-schema", "reversible", jsonl, tools, False)}
        for name in engines:
            engine = Llguidance() if name == "llguidance" else OutlinesCore()
            dialect = ENGINES[name]
            print(f"engines: {engine.version()}, dialect {dialect}", file=sys.stderr)
            # The zoo goldens (the Rust types' outputs) are compiled; the zoo's json-schema goldens
            # go through the CLI as the corpus does, and are sampled with it.
            for r in sdks.zoo_results(dialect) if "zoo" in sources else []:
                c = counts[(name, "zoo golden")]
                c[r.status] += 1
                if r.status == "accepted" and (found := engine.compile(r.schema)):
                    c["compile findings"] += 1
                    failures["the engine reports an error or warning"].append(f"{r.tool.label}: {'; '.join(found)}")
            for r in sdks.run_cli(a.bin, dialect, "reversible", jsonl, tools, False):
                c = counts[(name, r.tool.source)]
                c[r.status] += 1
                if r.status == "unreadable":
                    failures["unreadable output"].append(f"{r.tool.label}: {r.message}")
                if r.status != "accepted":
                    continue
                found = engine.compile(r.schema)
                if found:
                    c["compile findings"] += 1
                    failures["the engine reports an error or warning"].append(f"{r.tool.label}: {'; '.join(found)}")
                    continue
                original = originals.get(r.tool.label)
                if original is None or original.status != "accepted":
                    failures["no json-schema output for an accepted tool"].append(r.tool.label)
                    continue
                schema_path = Path(tmp) / "schema.json"
                schema_path.write_text(inputs[r.tool.label])
                out_v, orig_v = validator(r.schema), validator(original.schema)
                for _ in range(a.samples):
                    try:
                        text = engine.sample(r.schema, rng, a.max_steps)
                    except RuntimeError as e:
                        failures["the engine's walk failed"].append(f"{r.tool.label}: {e}")
                        break
                    if text is None:
                        c["walks past the step bound"] += 1
                        continue
                    c["samples"] += 1
                    try:
                        value = json.loads(text)
                    except ValueError as e:
                        failures["a sample is not JSON"].append(
                            f"{r.tool.label}: {e}: {sdks.short(text.decode('utf-8', 'replace'))}"
                        )
                        continue
                    if (err := first_error(out_v, value)) is not None:
                        failures["a sample breaks the dialect's output"].append(
                            f"{r.tool.label}: {err}: {sdks.short(value)}"
                        )
                        continue
                    ok, restored = restore(a.bin, dialect, schema_path, text)
                    if not ok:
                        c["numbers past f64" if "number out of range" in restored else "faults"] += 1
                        continue
                    if (err := first_error(orig_v, restored)) is not None:
                        failures["a restored sample breaks the original"].append(
                            f"{r.tool.label}: {err}: {sdks.short(restored)}"
                        )
                        continue
                    c["restored"] += 1
    for kind, items in sorted(failures.items()):
        print(f"\n{kind}: {len(items)}")
        for item in items[: a.list]:
            print(f"  {item}")
    print()
    for (name, source), c in sorted(counts.items()):
        print(f"{name:12} {source:11} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
