#!/usr/bin/env python3
"""``self_contained_input_schema`` from Python against the reference, in one process.

Usage:
    python python/bench/bench_self_contained.py [--rounds 41] [--batches 16] [--reference DIR]

Times ``toolschema.self_contained_input_schema`` (conversions from and to Python objects
included) and the reference, ``threetears.tool_schema.self_contained_input_schema`` (PyPI
``3tears-tool-schema`` 0.79.0), over every real schema of the shared corpus (pydantic, MCP,
BFCL: the set ``../shared/tools/oracle/bench_python.py`` times), in the same process, in the style
of that script: every schema loaded into memory once, then timed with ``time.perf_counter``,
fastest of ``--rounds`` runs. To hold up on a shared, loaded machine the set is cut into
``--batches`` batches of consecutive schemas, each round times every batch under both
functions one right after the other (alternating which goes first), and a function's figure is the
sum over batches of its fastest time for each: the runs least disturbed by other processes, as
``benches/common/compare.rs`` does for the Rust ratios. A call that raises is timed all the same
and counted.

The reference declares Requires-Python >= 3.14 but is pure Python: ``--reference`` (or
``$THREETEARS_PATH``) names a directory holding its unpacked wheel (``threetears/``), as
``../shared/tools/oracle/setup.sh`` makes one; without either it must be importable.
The corpus is ``../shared/corpus`` beside the repository, or ``$TOOLSCHEMA_CORPUS``.
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


def load_corpus(corpus: Path) -> list[tuple[str, str, Any]]:
    items: list[tuple[str, str, Any]] = []
    for folder in ("pydantic", "mcp"):
        for path in sorted((corpus / folder).rglob("*.json")):
            items.append((path.relative_to(corpus).as_posix(), path.stem, json.loads(path.read_text("utf-8"))))
    for line in (corpus / "bfcl" / "functions.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        items.append((f"bfcl/{row['id']}", row["name"], row["schema"]))
    return items


def run(fn: Callable[..., Any], items: list[tuple[str, str, Any]]) -> tuple[float, int]:
    errors = 0
    start = time.perf_counter()
    for _, name, schema in items:
        try:
            fn(schema, tool_name=name)
        except Exception:
            errors += 1
    return time.perf_counter() - start, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--batches", type=int, default=16)
    ap.add_argument("--reference", default=os.environ.get("THREETEARS_PATH"))
    a = ap.parse_args()

    if a.reference:
        sys.path.insert(0, a.reference)
    from threetears.tool_schema import self_contained_input_schema as reference

    import toolschema

    corpus = Path(os.environ.get("TOOLSCHEMA_CORPUS") or REPO.parent / "shared" / "corpus")
    items = load_corpus(corpus)
    n = len(items)
    size = -(-n // a.batches)
    batches = [items[i : i + size] for i in range(0, n, size)]

    contenders = {"reference": reference, "toolschema": toolschema.self_contained_input_schema}
    fastest = {k: [float("inf")] * len(batches) for k in contenders}
    errors = {k: [0] * len(batches) for k in contenders}
    order = list(contenders)
    gc.collect()
    for r in range(a.rounds):
        for i, batch in enumerate(batches):
            for label in order if (r + i) % 2 == 0 else order[::-1]:
                spent, errors[label][i] = run(contenders[label], batch)
                fastest[label][i] = min(fastest[label][i], spent)

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{a.rounds} rounds of {len(batches)} batches, fastest per batch.")
    counts = {s: sum(1 for it in items if it[0].startswith(s + "/")) for s in ("pydantic", "mcp", "bfcl")}
    print(f"Corpus: {n} schemas ({', '.join(f'{s} {c}' for s, c in counts.items())}).")
    print()
    print("| function | µs / schema | errors |")
    print("| --- | ---: | ---: |")
    for label in contenders:
        print(f"| {label} | {sum(fastest[label]) / n * 1e6:,.2f} | {sum(errors[label])} |")
    ratio = sum(fastest["reference"]) / sum(fastest["toolschema"])
    per = []
    for s in ("pydantic", "mcp", "bfcl"):
        idx = [i for i, b in enumerate(batches) if any(it[0].startswith(s + "/") for it in b)]
        ref_t = sum(fastest["reference"][i] for i in idx)
        ours_t = sum(fastest["toolschema"][i] for i in idx)
        per.append(f"batches holding {s} {ref_t / ours_t:.1f}x")
    print()
    print(f"toolschema: {ratio:.2f}x the reference's speed per schema ({', '.join(per)}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
