"""Shared helpers: where the corpus and the Rust tests' fixtures are, and how cases are read.

The corpus is ``../shared/corpus`` beside the repository (or ``$TOOLSCHEMA_CORPUS``); without it
the corpus tests are skipped with a notice, or fail when ``TOOLSCHEMA_REQUIRE_CORPUS=1`` (CI). The Rust tests' tables of deliberate differences
(``fixtures/foreign/*.json``) are read from the repository: a case listed there is expected to
give the recorded answer here too, since the package calls the same library.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "foreign"
HERE = Path(__file__).resolve().parent

# The seven names `declared_type` answers with; the reference also passes on names such as
# "String" or "long", which the library answers `None` for (difference 3), and BFCL's "dict",
# "float" and "tuple", which it reads as "object", "number" and "array" (difference 11).
JSON_TYPES = {"object", "array", "string", "number", "integer", "boolean", "null"}

_NOTICE_SHOWN = False


def corpus_dir() -> Optional[Path]:
    path = Path(os.environ.get("TOOLSCHEMA_CORPUS") or REPO.parent / "shared" / "corpus")
    return path if (path / "README.md").is_file() else None


@pytest.fixture(scope="session")
def corpus() -> Path:
    global _NOTICE_SHOWN
    path = corpus_dir()
    if path is None and os.environ.get("TOOLSCHEMA_REQUIRE_CORPUS") == "1":
        pytest.fail("the shared corpus is required (TOOLSCHEMA_REQUIRE_CORPUS=1): set TOOLSCHEMA_CORPUS")
    if path is None:
        if not _NOTICE_SHOWN:
            sys.stderr.write(
                "\nnotice: no foreign-schema corpus at ../shared/corpus or $TOOLSCHEMA_CORPUS; "
                "skipping the corpus tests\n"
            )
            _NOTICE_SHOWN = True
        pytest.skip("notice: no foreign-schema corpus (../shared/corpus or $TOOLSCHEMA_CORPUS)")
    return path


def on_big_stack(fn: Callable[[], Any]) -> Any:
    """Runs ``fn`` on a thread with a 256 MiB stack and a raised recursion limit (for loading and
    comparing JSON 5,000 levels deep with the standard library), returning or raising its result."""
    box: dict[str, Any] = {}

    def target() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 100_000))
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller
            box["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size(256 * 1024 * 1024)
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous)
    if "error" in box:
        raise box["error"]
    return box["value"]


def load_deep(path: Path) -> Any:
    """JSON of any depth (``None`` if this Python's ``json`` cannot read it: 3.12 and later cap C
    recursion whatever the recursion limit)."""
    text = path.read_text(encoding="utf-8")
    try:
        return on_big_stack(lambda: json.loads(text))
    except RecursionError:
        return None


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: unlike ``==``, ``True`` is not ``1`` and ``1.0`` is not ``1``."""
    dump = lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False)  # noqa: E731
    return bool(on_big_stack(lambda: dump(a) == dump(b)))


def pointer_get(doc: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


@dataclass
class Case:
    id: str
    tool: str
    schema: Any
    # ("output", value) | ("error", message) | ("broken", what)
    reference: tuple[str, Any]


def _reference(corpus: Path, rel: str) -> tuple[str, Any]:
    stem = rel[: -len(".json")]
    base = corpus / "expected" / "self_contained"
    for ext, kind in (("json", "output"), ("error", "error"), ("crash", "broken"), ("limit", "broken")):
        path = base / f"{stem}.{ext}"
        if path.is_file():
            if kind == "output":
                return kind, load_deep(path)
            return kind, path.read_text(encoding="utf-8", errors="replace").strip()
    raise AssertionError(f"no expected output for {rel}")


def file_cases(corpus: Path, folder: str) -> Iterator[Case]:
    paths = sorted(p for p in (corpus / folder).rglob("*.json"))
    for path in paths:
        rel = path.relative_to(corpus).as_posix()
        yield Case(rel, path.stem, load_deep(path), _reference(corpus, rel))


def bfcl_cases(corpus: Path) -> Iterator[Case]:
    expected = {}
    for line in (corpus / "expected" / "self_contained" / "bfcl" / "functions.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        expected[row["id"]] = row
    for line in (corpus / "bfcl" / "functions.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        e = expected[row["id"]]
        if "output" in e:
            reference: tuple[str, Any] = ("output", e["output"])
        elif "error" in e:
            reference = ("error", e["error"])
        else:
            reference = ("broken", json.dumps(e))
        yield Case(f"bfcl/functions.jsonl#{row['id']}", row["name"], row["schema"], reference)


def rust_table(name: str) -> dict[str, dict[str, Any]]:
    """One of the Rust tests' tables of deliberate differences (``fixtures/foreign/``)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def python_table() -> dict[str, dict[str, Any]]:
    """The differences of the Python package from the Rust library's answers (``differences.json``
    here), each with a note saying why."""
    return json.loads((HERE / "differences.json").read_text(encoding="utf-8"))
