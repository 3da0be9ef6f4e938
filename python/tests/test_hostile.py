"""The corpus's hostile cases through the package: each returns or raises a ``ToolSchemaError``
within a second of CPU time, never crashes, and gives the answer the library's own tests record
(``fixtures/foreign/hostile.json``) or the reference's where no difference is listed.

The bound is on the calling thread's CPU time (``time.thread_time``; the work runs on this thread
with the GIL released), so other processes on a loaded machine do not make it flaky; the reference
runs past 20 s on ``dag_doubling_40``.
"""

from __future__ import annotations

import time
from pathlib import Path

import toolschema
from conftest import file_cases, on_big_stack, rust_table
from test_foreign_corpus import answer, check

BOUND_SECONDS = 1.0


def timed(fn):
    start = time.thread_time()
    result = fn()
    return result, time.thread_time() - start


def test_every_hostile_case_answers_within_a_second_with_a_result_or_a_typed_error(corpus: Path) -> None:
    every = list(file_cases(corpus, "hostile"))
    listed = (corpus / "hostile" / "CASES.tsv").read_text(encoding="utf-8").splitlines()
    assert len(every) == len(listed) - 1, "one case per line of CASES.tsv"
    for case in every:
        if case.schema is None:
            print(f"notice: {case.id}: this Python's json cannot load it; skipped")
    cases = [c for c in every if c.schema is not None]
    slow, errors = [], 0
    for case in cases:
        # On a large stack only so that freeing a deep input afterwards (Python's own recursion)
        # cannot fail; the package itself never needs it. The time is that thread's CPU time.
        got, spent = on_big_stack(lambda case=case: timed(lambda: answer(case)))
        errors += "error" in got
        if spent > BOUND_SECONDS:
            slow.append(f"{case.id}: {spent:.2f} s")
    assert not slow, slow
    count, failures = check(cases, rust_table("hostile.json"))
    print(f"hostile: {count} cases, {count - errors} results, {errors} typed errors")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)


def test_a_value_nested_100000_deep_is_refused_at_the_nesting_limit_without_recursion() -> None:
    deep: object = {"type": "string"}
    for _ in range(100_000):
        deep = {"type": "object", "properties": {"x": deep}}
    start = time.thread_time()
    try:
        toolschema.self_contained_input_schema(deep, tool_name="deep")
    except toolschema.ConversionError as exc:
        assert exc.kind == "too-deep" and exc.tool == "deep"
        assert exc.pointer.count("/") == toolschema.MAX_NESTING
    else:
        raise AssertionError("a value 200,000 levels deep was accepted")
    assert time.thread_time() - start < BOUND_SECONDS
    # Python frees `deep` recursively; give it room.
    on_big_stack(lambda: deep.clear())


def test_a_dict_that_contains_itself_is_refused() -> None:
    d: dict[str, object] = {"type": "object"}
    d["properties"] = {"me": d}
    try:
        toolschema.self_contained_input_schema(d, tool_name="loop")
    except toolschema.ConversionError as exc:
        assert exc.kind == "too-deep"
        assert exc.pointer.startswith("/properties/me/properties/me/")
    else:
        raise AssertionError("a cyclic dict was accepted")
