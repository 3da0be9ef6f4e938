#!/usr/bin/env python3
"""What restoring a model's arguments costs from Python, against pydantic's own validation.

Usage:
    python python/bench/bench_restore.py [--rounds 31] [--calls 2000]

For the ``Booking`` model of ``tests/test_restore.py`` (optional fields, defaults, a map, a
free-form object, ``Any``, nested models, bounds) and a model's arguments for every field, under
each provider dialect, times per call, in one process:

- ``validate``: ``Booking.model_validate(plain)``, what the code does without a provider dialect
  (the floor);
- ``restore + validate``: ``Booking.model_validate(schema.restore(sent))``, ``sent`` being the
  arguments in the provider's terms (conversions to and from Rust included);
- ``one-call restore``: ``toolschema.restore(original_schema, sent, dialect=...)``, which also runs
  the pipeline on the original schema on every call (what a gateway without a cache pays);
- ``conversions``: ``restore`` under ``json-schema`` of the plain arguments (a plan that only turns
  integral floats into integers): about what the conversions to and from Rust cost.

Each round times ``--calls`` calls of each, one right after the other; a figure is the fastest
round, so that other processes on a loaded machine disturb it least.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import toolschema  # noqa: E402
from test_restore import CASES, Booking  # noqa: E402

PROVIDERS = ("openai-strict", "anthropic-strict", "gemini")


def per_call(fn: Callable[[], Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()

    [(_, _, plain, sent)] = [c for c in CASES if c[0] == "booking, every field"]
    original = Booking.model_json_schema()
    plain_schema = toolschema.schema_for(Booking)
    print(f"CPython {platform.python_version()}, toolschema {toolschema.__version__}, {args.rounds} rounds of {args.calls} calls")
    for dialect in PROVIDERS:
        schema = toolschema.schema_for(Booking, dialect=dialect)
        arguments = sent[dialect]
        assert Booking.model_validate(schema.restore(arguments)) == Booking.model_validate(plain)
        timed = {
            "validate": lambda: Booking.model_validate(plain),
            "restore + validate": lambda schema=schema, arguments=arguments: Booking.model_validate(
                schema.restore(arguments)
            ),
            "restore alone": lambda schema=schema, arguments=arguments: schema.restore(arguments),
            "conversions": lambda: plain_schema.restore(plain),
            "one-call restore": lambda arguments=arguments, dialect=dialect: toolschema.restore(
                original, arguments, dialect=dialect
            ),
        }
        best = {name: float("inf") for name in timed}
        for _ in range(args.rounds):
            for name, fn in timed.items():
                best[name] = min(best[name], per_call(fn, args.calls if name != "one-call restore" else args.calls // 10))
        floor = best["validate"]
        shown = ", ".join(f"{name} {best[name] * 1e6:.2f} µs ({best[name] / floor:.2f}x)" for name in timed)
        print(f"{dialect}: {shown}")


if __name__ == "__main__":
    main()
