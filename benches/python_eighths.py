"""The Python reference over the corpus taken an eighth at a time, for benches/python_compare.sh.

Mirrors the `an eighth at a time` row of `cargo bench --bench compare`: every eighth schema (each
part keeps the corpus's mix of sources), each part timed with bench_python.py's own loader and
timer (`time_op`: best of --repeat passes, a garbage collection before each), the eight parts'
best passes added up. Prints machine-readable lines (`name_us_per_schema=<µs>`), for the whole
corpus too, timed the same way in the same process, so that the two can be compared.

The two operations are written here rather than taken from bench_python.py's `ops()`, which
imports every peer's package: the objects those imports leave make each of Python's automatic
garbage collections longer, which adds about a tenth to a whole pass and more to a short one.
This process imports only the reference.

Usage: python_eighths.py ORACLE_DIR [--repeat 5]   (CORPUS in the environment, as for bench_python.py)
"""

import argparse
import copy
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("oracle_dir")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    sys.path.insert(0, a.oracle_dir)
    import bench_python
    from threetears.tool_schema import self_contained_input_schema

    items = bench_python.load_corpus()
    ops = {
        "reference": lambda name, s: self_contained_input_schema(s, tool_name=name),
        "deepcopy": lambda name, s: copy.deepcopy(s),
    }
    for label, fn in ops.items():
        best = lambda part: bench_python.time_op(fn, part, a.repeat)[0]  # noqa: E731
        whole = best(items)
        eighths = sum(best(items[k::8]) for k in range(8))
        print(f"{label}_whole_us_per_schema={whole * 1e6 / len(items):.3f}")
        print(f"{label}_eighths_us_per_schema={eighths * 1e6 / len(items):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
