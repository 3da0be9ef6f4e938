#!/usr/bin/env python3
"""``declared_type`` from Python against the reference, in one process.

Usage:
    python python/bench/bench_declared_type.py [--rounds 31] [--calls 20] [--reference DIR]

Two figures, each the reference's time over ours (above 1: ours is faster):

* Per call, on every property of every real corpus schema (pydantic, MCP, BFCL; the set
  ``bench_self_contained.py`` reads): each property's ``declared_type(prop, schema)`` is called
  ``--calls`` times in a row under each function, alternately, ``--rounds`` times; a property's
  figure is the fastest run of each. Printed: the ratio over all properties, for those that hold
  a ``$ref`` (which the reference and the old conversion paid the most for), the slowest
  property's ratio and how many properties fall under 1.
* A normaliser's loop over every property of a 200-property tool (pydantic's shapes: strings,
  optional integers, nested models by ``$ref``, lists of them, enums; 40 definitions), as
  ``for prop in schema["properties"].values(): declared_type(prop, schema)``, and
  ``declared_types(schema)`` for the whole tool; the fastest of ``3 * --rounds`` loops of each,
  the three taking turns round by round.

The reference is ``threetears.tool_schema.declared_type`` (PyPI ``3tears-tool-schema`` 0.79.0,
pure Python): ``--reference`` (or ``$THREETEARS_PATH``) names a directory holding its unpacked
wheel. The corpus is ``../shared/corpus`` beside the repository, or ``$TOOLSCHEMA_CORPUS``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[2]


def corpus_properties(corpus: Path) -> list[tuple[Any, Any]]:
    schemas: list[Any] = []
    for folder in ("pydantic", "mcp"):
        schemas += [json.loads(p.read_text("utf-8")) for p in sorted((corpus / folder).rglob("*.json"))]
    for line in (corpus / "bfcl" / "functions.jsonl").open(encoding="utf-8"):
        schemas.append(json.loads(line)["schema"])
    pairs = []
    for schema in schemas:
        props = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(props, dict):
            pairs += [(prop, schema) for prop in props.values()]
    return pairs


def wide_tool(width: int = 200, definitions: int = 40) -> dict[str, Any]:
    """A pydantic-shaped tool schema with ``width`` properties."""
    defs = {
        f"Model{d}": {
            "type": "object",
            "title": f"Model{d}",
            "properties": {f"f{i}": {"type": "string", "title": f"F{i}"} for i in range(8)},
            "required": ["f0"],
        }
        for d in range(definitions)
    }
    props: dict[str, Any] = {}
    for i in range(width):
        kind = i % 5
        if kind == 0:
            props[f"p{i}"] = {"type": "string", "title": f"P{i}", "description": "A text."}
        elif kind == 1:
            props[f"p{i}"] = {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": f"P{i}"}
        elif kind == 2:
            props[f"p{i}"] = {"$ref": f"#/$defs/Model{i % definitions}"}
        elif kind == 3:
            props[f"p{i}"] = {"type": "array", "items": {"$ref": f"#/$defs/Model{i % definitions}"}, "title": f"P{i}"}
        else:
            props[f"p{i}"] = {
                "anyOf": [{"$ref": f"#/$defs/Model{i % definitions}"}, {"type": "null"}],
                "default": None,
            }
    return {"$defs": defs, "type": "object", "title": "Wide", "properties": props, "required": ["p0"]}


def fastest(fn: Callable[[], Any], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--reference", default=os.environ.get("THREETEARS_PATH"))
    a = ap.parse_args()
    if a.reference:
        sys.path.insert(0, a.reference)
    from threetears.tool_schema import declared_type as reference

    import toolschema

    ours = toolschema.declared_type
    corpus = Path(os.environ.get("TOOLSCHEMA_CORPUS") or REPO.parent / "shared" / "corpus")
    pairs = corpus_properties(corpus)
    calls = range(a.calls)
    best = {"reference": [float("inf")] * len(pairs), "toolschema": [float("inf")] * len(pairs)}
    contenders = {"reference": reference, "toolschema": ours}
    gc.collect()
    for r in range(a.rounds):
        for i, (prop, schema) in enumerate(pairs):
            order = ("reference", "toolschema") if (r + i) % 2 == 0 else ("toolschema", "reference")
            for label in order:
                fn = contenders[label]
                start = time.perf_counter()
                for _ in calls:
                    fn(prop, schema)
                spent = time.perf_counter() - start
                if spent < best[label][i]:
                    best[label][i] = spent

    def ratio(indices: list[int]) -> float:
        return sum(best["reference"][i] for i in indices) / sum(best["toolschema"][i] for i in indices)

    every = list(range(len(pairs)))
    with_ref = [i for i, (prop, _) in enumerate(pairs) if "$ref" in json.dumps(prop)]
    per = sorted((best["reference"][i] / best["toolschema"][i], i) for i in every)
    slower = sum(1 for q, _ in per if q < 1.0)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"toolschema {toolschema.__version__}; {a.rounds} rounds of {a.calls} calls per property.")
    print()
    print("| per call | properties | reference µs | toolschema µs | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, idx in (("every corpus property", every), ("holding a `$ref`", with_ref)):
        ref_us = sum(best["reference"][i] for i in idx) / len(idx) / a.calls * 1e6
        our_us = sum(best["toolschema"][i] for i in idx) / len(idx) / a.calls * 1e6
        print(f"| {label} | {len(idx)} | {ref_us:.2f} | {our_us:.2f} | {ratio(idx):.2f}x |")
    worst_q, worst_i = per[0]
    print()
    print(f"slowest property: {worst_q:.2f}x ({json.dumps(pairs[worst_i][0])[:100]}); "
          f"{slower} of {len(pairs)} properties under 1.00x")

    tool = wide_tool()
    props = list(tool["properties"].values())

    def loop(fn: Callable[[Any, Any], Any]) -> Callable[[], None]:
        def run() -> None:
            for prop in props:
                fn(prop, tool)

        return run

    # The three take turns, round by round, as the per-call figures do: a burst of load on a
    # shared machine then slows a round of each, not every round of one (run one after the
    # other, a few milliseconds each, one contender's rounds could all fall in it).
    runs = [loop(reference), loop(ours), lambda: toolschema.declared_types(tool)]
    ref_loop, our_loop, our_whole = (float("inf"),) * 3
    for r in range(max(a.rounds, 5) * 3):
        bests = [ref_loop, our_loop, our_whole]
        for k in range(3):
            j = (r + k) % 3
            bests[j] = min(bests[j], fastest(runs[j], 1))
        ref_loop, our_loop, our_whole = bests
    assert toolschema.declared_types(tool) == {n: reference(p, tool) for n, p in tool["properties"].items()}
    print()
    print("| 200-property tool | µs per tool | ratio to the reference |")
    print("| --- | ---: | ---: |")
    print(f"| reference, a loop of `declared_type` | {ref_loop * 1e6:.1f} | 1.00x |")
    print(f"| toolschema, a loop of `declared_type` | {our_loop * 1e6:.1f} | {ref_loop / our_loop:.2f}x |")
    print(f"| toolschema, `declared_types` | {our_whole * 1e6:.1f} | {ref_loop / our_whole:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
