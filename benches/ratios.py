#!/usr/bin/env python3
"""Prints criterion's results as a table of ratios against each group's baseline.

Usage: python3 benches/ratios.py [TARGET_DIR]   (default: target)

Reads <TARGET_DIR>/criterion/<group>/<bench>/new/estimates.json (the last run of each bench) and
prints, per group, the median time of each bench and its ratio to the group's baseline: the bench
whose name starts with "serde_json" or "schemars" (the first one found, in that order).
"""

import json
import os
import sys

BASELINES = ("serde_json_to_vec", "serde_json_from_slice", "schemars")


def fmt(ns: float) -> str:
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main() -> int:
    root = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "target", "criterion")
    groups: dict[str, dict[str, float]] = {}
    for dirpath, _, files in os.walk(root):
        if "benchmark.json" in files and os.path.basename(dirpath) == "new":
            meta = json.load(open(os.path.join(dirpath, "benchmark.json")))
            est = json.load(open(os.path.join(dirpath, "estimates.json")))
            name = meta.get("value_str") or meta.get("function_id") or ""
            groups.setdefault(meta["group_id"], {})[name] = est["median"]["point_estimate"]
    print("| group | bench | median | ratio to baseline |")
    print("| --- | --- | ---: | ---: |")
    for group in sorted(groups):
        benches = groups[group]
        base = next((benches[b] for p in BASELINES for b in sorted(benches) if b.startswith(p)), None)
        for name, ns in sorted(benches.items(), key=lambda kv: kv[1]):
            ratio = f"{ns / base:.2f}x" if base else "–"
            print(f"| {group} | {name} | {fmt(ns)} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
