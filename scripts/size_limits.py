#!/usr/bin/env python3
"""The size limits of the library's sources: no file in src/ over 600 lines, no function over 120.

A file counts every line `wc -l` counts: code, comments, blank lines and any unit-test module it
holds (unit tests too long for their file go to a sibling `tests.rs`, itself held to the limit).
A function counts from its `fn` line to its closing brace, both included, so its signature, body
and the comments in it; the doc comments and attributes above it do not count. Nested functions
and closures count inside the function that holds them, and a nested `fn` is measured on its own
too. Trait methods without a body are not functions here.

The sources are formatted by rustfmt (CI checks it), which is what makes a line-based reading
exact: a body opens at the end of the signature's last line and closes on a line holding only `}`
at the indentation of its `fn` line.

    scripts/size_limits.py            # the violations, exit 1 if any
    scripts/size_limits.py --report   # also the longest files and functions
"""
import os
import re
import sys

FILE_LIMIT = 600
FN_LIMIT = 120
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
FN = re.compile(
    r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"(?:extern\s+\"[^\"]*\"\s+)?fn\s+(\w+)"
)


def functions(path, lines):
    """(name, first line, length) of every function with a body."""
    out = []
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        indent, name = m.group(1), m.group(2)
        # The signature ends at the first line ending in `{` (a body), `;` (none) or `}` (a body on
        # one line).
        j = i
        while j < len(lines):
            end = lines[j].rstrip()
            if end.endswith("{") or end.endswith(";") or end.endswith("}"):
                break
            j += 1
        if j == len(lines) or lines[j].rstrip().endswith(";"):
            continue
        if lines[j].rstrip().endswith("}"):
            out.append((name, i + 1, j - i + 1))
            continue
        close = indent + "}"
        k = j + 1
        while k < len(lines) and lines[k].rstrip() != close:
            k += 1
        if k == len(lines):
            sys.exit(f"{path}:{i + 1}: fn {name}: no closing brace at its indentation (run cargo fmt)")
        out.append((name, i + 1, k - i + 1))
    return out


def main():
    report = "--report" in sys.argv[1:]
    files, fns = [], []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames.sort()
        for f in sorted(filenames):
            if not f.endswith(".rs"):
                continue
            path = os.path.normpath(os.path.join(dirpath, f))
            rel = os.path.relpath(path, os.path.join(ROOT, ".."))
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            files.append((len(lines), rel))
            fns.extend((n, rel, line, name) for name, line, n in functions(rel, lines))
    files.sort(reverse=True)
    fns.sort(reverse=True)
    bad_files = [f for f in files if f[0] > FILE_LIMIT]
    bad_fns = [f for f in fns if f[0] > FN_LIMIT]
    for n, rel in bad_files:
        print(f"{rel}: {n} lines (limit {FILE_LIMIT}): split it by concern, or move its unit tests to a sibling tests.rs")
    for n, rel, line, name in bad_fns:
        print(f"{rel}:{line}: fn {name}: {n} lines (limit {FN_LIMIT}): split it by concern")
    if report:
        print(f"longest files: " + ", ".join(f"{rel} {n}" for n, rel in files[:5]))
        print(f"longest functions: " + ", ".join(f"{rel}:{line} {name} {n}" for n, rel, line, name in fns[:5]))
    print(f"size limits: {len(files)} files, {len(fns)} functions; "
          f"{len(bad_files)} files over {FILE_LIMIT} lines, {len(bad_fns)} functions over {FN_LIMIT}")
    return 1 if bad_files or bad_fns else 0


if __name__ == "__main__":
    sys.exit(main())
