"""`toolschema mcp-proxy` with real parts: the official MCP Python SDK's client (`ClientSession`
over stdio) lists and calls tools through the proxy, in front of a server written with the same
SDK (`fixtures/mcp/server.py`); a bare JSON-RPC server (`fixtures/mcp/echo_server.py`) shows the
bytes the proxy forwards.

Run with the pinned SDKs (`scripts/mcp_proxy_tests.sh`, or `pytest tests/mcp_proxy` in the venv
of `scripts/requirements-sdk.txt`). `TOOLSCHEMA_BIN` names the CLI to test (default: built with
cargo). The corpus (`../shared/corpus` or `$TOOLSCHEMA_CORPUS`) gives the corpus tests their tools;
without it they are skipped with a notice. No test touches the network.

What is checked, under openai-strict, anthropic-strict and gemini:
- every schema the proxy lists passes the provider SDK check of `scripts/provider_sdks.py`;
- each fixture tool called with provider-shaped arguments (null for absent, entries for maps)
  receives exactly the original-shaped arguments, and so does the same call written loosely
  (JSON text, numbers and booleans in quotes) with `--coerce`; a call that cannot be restored is
  answered with `isError` and never reaches the server;
- every corpus tool the dialect accepts is listed, and called with a minimal and a full value of
  its original schema, checked by a real validator, receives exactly that value;
- bytes: everything but `tools/list` answers and `tools/call` requests passes unchanged, ids of
  any JSON type, batches, server-initiated requests, malformed JSON-RPC;
- a server that dies mid-call fails the call (no hang), either side closing closes the other, a
  10 MB `tools/list` comes through whole;
- the gateway a host leaves running (`test_gateway_*`): names each provider refuses listed as
  valid ones and called under the original, `outputSchema` references inlined with
  `structuredContent` unchanged, pinned tools that change left out until accepted, a server that
  ignores SIGTERM and its stdin's end ended when the SDK client closes; under the 2025-11-25
  handshake and 2026-07-28 (the SDK's `Client(mode=...)`), with `resultType: "input_required"`
  answers and the client's retry.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, ClientSession, MCPError, StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import provider_sdks  # noqa: E402  (the SDK checks, shared with the conformance suite)
from shapes import encode, instance, loosen, validator  # noqa: E402

SERVER = REPO / "fixtures" / "mcp" / "server.py"
ECHO = REPO / "fixtures" / "mcp" / "echo_server.py"
CORPUS = provider_sdks.corpus_dir(None)
DIALECTS = ["openai-strict", "anthropic-strict", "gemini"]
TIMEOUT = 120


@functools.cache
def binary() -> str:
    return os.environ.get("TOOLSCHEMA_BIN") or provider_sdks.build_cli()


@functools.cache
def sdks() -> provider_sdks.Sdks:
    return provider_sdks.Sdks()


def same(a: Any, b: Any) -> bool:
    return provider_sdks.same(a, b)


def check_sdks(dialect: str, schema: Any, name: str) -> None:
    for sdk in provider_sdks.SDKS_BY_DIALECT[dialect]:
        c = sdks().check(sdk, schema, name)
        assert not c.failures, f"{name} under {dialect}: {sdk}: {[f.kind + ': ' + f.message for f in c.failures]}"


def provider_accepts(dialect: str, schema: Any, sent: Any) -> bool:
    return validator(schema, openapi=dialect.startswith("gemini")).is_valid(sent)


def received(result: Any) -> Any:
    """The arguments the server's tool got, as they arrived (the result's last block)."""
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[-1].text)["raw"]


def run(main: Any) -> None:
    async def bounded() -> None:
        with anyio.fail_after(TIMEOUT):
            await main()

    anyio.run(bounded)


@contextlib.asynccontextmanager
async def proxied(
    dialect: str, *server_args: str, flags: tuple[str, ...] = ("--coerce",), errlog: Any = None
) -> AsyncIterator[ClientSession]:
    args = ["mcp-proxy", "--dialect", dialect, *flags, "--", sys.executable, str(SERVER), *server_args]
    params = StdioServerParameters(command=binary(), args=args, cwd=str(REPO))
    async with stdio_client(params, errlog=errlog or sys.stderr) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        yield session


# ---------------------------------------------------------------------------------------------
# The fixture server's own tools

# For each tool, arguments in the shape the server declared; each must arrive exactly so.
CASES: dict[str, list[dict[str, Any]]] = {
    "book_stay": [
        {"city": "Paris"},
        {"city": "Oslo", "nights": 3, "note": "late arrival", "breakfast": True},
    ],
    "tally": [{"counts": {"a": 1, "b": 2}}, {"counts": {}, "label": "empty"}],
    "plan_trip": [
        {"trip": {"traveller": "Ann", "stops": [{"city": "Rome"}, {"city": "Pisa", "nights": 2, "note": "sea"}]}},
        {"trip": {"traveller": "Bo", "stops": [], "budget": 120.5}, "priority": 1},
    ],
    "tag_items": [{"ids": [1, 2], "tags": ["a", "b"]}, {"ids": [], "tags": [], "weights": {"w": 0.5}}],
}


# Every tool of the fixture server, and the names a client may see them under.
FIXTURE_TOOLS = {*CASES, "crash", "repo.list", "rows", "confirm"}
FIXTURE_LISTED = FIXTURE_TOOLS | {"repo_list"}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_fixture_tools_are_listed_for_the_provider_and_calls_arrive_as_declared(dialect: str) -> None:
    async def main() -> None:
        with tempfile.TemporaryFile("w+") as log:
            async with proxied(dialect, errlog=log) as s:
                listed = {t.name: t.input_schema for t in (await s.list_tools()).tools}
                assert set(CASES) | {"crash"} <= set(listed)
                for name in CASES:
                    check_sdks(dialect, listed[name], name)
                # A map is a list of entries for every provider here.
                assert declared_array(listed["tally"]["properties"]["counts"])
                for name, originals in CASES.items():
                    for original in originals:
                        sent = encode(original, listed[name])
                        assert provider_accepts(dialect, listed[name], sent), (name, sent)
                        assert same(received(await s.call_tool(name, sent)), original), (name, sent)
                        loose = loosen(sent, listed[name])
                        assert same(received(await s.call_tool(name, loose)), original), (name, loose)
                # The server applies its own defaults to what the proxy left out.
                result = await s.call_tool("book_stay", encode({"city": "Paris"}, listed["book_stay"]))
                validated = json.loads(result.content[0].text)["validated"]
                assert validated == {"city": "Paris", "nights": 1, "note": None, "breakfast": False}
                # Arguments that cannot be restored are answered by the proxy.
                dup = {"counts": [{"key": "a", "value": 1}, {"key": "a", "value": 2}], "label": None}
                result = await s.call_tool("tally", dup)
                assert result.is_error
                assert len(result.content) == 1, "the server must not see the call"
                assert result.content[0].text == (
                    "the arguments do not fit the tool's schema:\n"
                    "- `/counts/1`: repeats the key `a`; each key may appear once"
                )
            log.seek(0)
            text = log.read()
        assert "tools/call `tag_items`: `/ids`: a string read as an array" in text, text
        assert "tools/call `book_stay`: `/nights`: a string read as an integer" in text, text

    run(main)


def declared_array(p: dict[str, Any]) -> bool:
    t = p.get("type")
    return t == "array" or (isinstance(t, list) and "array" in t) or t == "ARRAY"


def test_without_coerce_loose_arguments_reach_the_server_as_sent() -> None:
    async def main() -> None:
        async with proxied("anthropic-strict", flags=()) as s:
            await s.list_tools()
            result = await s.call_tool("tag_items", {"ids": "[1]", "tags": ["a"]})
            # The proxy guessed nothing (what the server then makes of the text is its own affair).
            assert received(result) == {"ids": "[1]", "tags": ["a"]}

    run(main)


# ---------------------------------------------------------------------------------------------
# The corpus, served as it is


def corpus_tools() -> dict[str, dict[str, Any]]:
    assert CORPUS is not None
    return {
        f"{p.parent.name}__{p.stem}": json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(CORPUS.glob("mcp/*/*.json"))
    }


def accepted_by(dialect: str, tools: dict[str, dict[str, Any]]) -> set[str]:
    """The corpus tools the dialect accepts after `self-contained`, by the CLI (what the proxy does)."""
    with tempfile.TemporaryDirectory() as tmp:
        lines = Path(tmp) / "tools.jsonl"
        lines.write_text("".join(json.dumps({"name": n, "schema": s}) + "\n" for n, s in tools.items()))
        contained = subprocess.run(
            [binary(), "self-contained", "--jsonl", str(lines)], capture_output=True, check=False
        )
        (Path(tmp) / "contained.jsonl").write_bytes(contained.stdout)
        canon = subprocess.run(
            [binary(), "canon", "--dialect", dialect, "--allow-any", "--jsonl", str(Path(tmp) / "contained.jsonl")],
            capture_output=True,
            check=False,
        )
    return {json.loads(line)["name"] for line in canon.stdout.decode().splitlines() if line.strip()}


def skip_without_corpus() -> None:
    """Skips a corpus test with a notice; fails it when the corpus is required (CI sets
    TOOLSCHEMA_REQUIRE_CORPUS=1)."""
    if os.environ.get("TOOLSCHEMA_REQUIRE_CORPUS") == "1":
        pytest.fail("the shared corpus is required (TOOLSCHEMA_REQUIRE_CORPUS=1): set TOOLSCHEMA_CORPUS")
    print("notice: no corpus at ../shared/corpus (set TOOLSCHEMA_CORPUS); skipping", file=sys.stderr)
    pytest.skip("no corpus")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_corpus_tool_the_dialect_accepts_is_listed_and_callable(dialect: str) -> None:
    if CORPUS is None:
        skip_without_corpus()
    tools = corpus_tools()
    accepted = accepted_by(dialect, tools)
    assert len(accepted) >= 195, f"{dialect} accepts {len(accepted)} of {len(tools)} corpus tools"

    async def main() -> None:
        async with proxied(dialect, "--corpus", str(CORPUS)) as s:
            listed = {t.name: t.input_schema for t in (await s.list_tools()).tools}
            assert set(listed) - FIXTURE_LISTED == accepted
            calls = 0
            for name in sorted(accepted):
                check_sdks(dialect, listed[name], name)
                original_schema = tools[name]
                for mode in ("min", "full"):
                    original = instance(original_schema, original_schema, mode)
                    errors = list(validator(original_schema, formats=True).iter_errors(original))
                    assert not errors, f"{name} ({mode}): the generator made {original}: {errors[0].message}"
                    sent = encode(original, listed[name])
                    assert provider_accepts(dialect, listed[name], sent), (name, mode, sent)
                    assert same(received(await s.call_tool(name, sent)), original), (name, mode, sent)
                    loose = loosen(sent, listed[name])
                    assert same(received(await s.call_tool(name, loose)), original), (name, mode, loose)
                    calls += 2
            print(f"{dialect}: {len(accepted)} corpus tools listed, {calls} calls", file=sys.stderr)

    run(main)


# ---------------------------------------------------------------------------------------------
# Failures


def leaves(e: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups."""
    if isinstance(e, BaseExceptionGroup):
        return [x for inner in e.exceptions for x in leaves(inner)]
    return [e]


def test_a_server_that_dies_mid_call_fails_the_call() -> None:
    async def main() -> None:
        with pytest.raises(BaseException) as err:
            async with proxied("openai-strict") as s:
                await s.list_tools()
                await s.call_tool("crash", {})
        errors = [e for e in leaves(err.value) if isinstance(e, MCPError)]
        assert errors, err.value
        assert "the MCP server exited (status 3) before answering" in str(errors[0])

    run(main)


class Raw:
    """The proxy driven line by line, without an SDK."""

    def __init__(self, *flags: str, server: Path = ECHO, server_args: tuple[str, ...] = ()) -> None:
        cmd = [binary(), "mcp-proxy", *flags, "--", sys.executable, str(server), *server_args]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out: queue.Queue[bytes | None] = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.err_reader = threading.Thread(target=lambda: self.err.extend(self.p.stderr), daemon=True)
        self.err_reader.start()

    def _read(self) -> None:
        for line in self.p.stdout:
            self.out.put(line)
        self.out.put(None)

    def send(self, line: bytes) -> None:
        self.p.stdin.write(line if line.endswith(b"\n") else line + b"\n")
        self.p.stdin.flush()

    def next(self) -> bytes | None:
        return self.out.get(timeout=30)

    def message(self) -> Any:
        line = self.next()
        assert line is not None, "the proxy closed its output"
        return json.loads(line)

    def echoed(self) -> str:
        """The line the echo server says it received."""
        m = self.message()
        assert m.get("method") == "echo", m
        return m["params"]["line"]

    def close(self) -> int:
        self.p.stdin.close()
        code = self.p.wait(timeout=30)
        self.err_reader.join(timeout=30)
        return code

    def stderr(self) -> str:
        return b"".join(self.err).decode(errors="replace")


PARSE_ERROR = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}


def compact(v: Any) -> bytes:
    return json.dumps(v, separators=(",", ":")).encode() + b"\n"


def test_everything_but_list_answers_and_calls_passes_byte_for_byte() -> None:
    raw = Raw("--dialect", "openai-strict")
    lines = [
        b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}',
        b'{ "method" : "notifications/initialized" ,"jsonrpc":"2.0" }',
        b'{"jsonrpc":"2.0","id":"p","method":"ping","params":{"_meta":{"x":"\\u00e9\\/"}}}',
        b'{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a b"}}',
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
    ]
    for line in lines:
        raw.send(line)
        assert raw.echoed().encode() == line
        message = json.loads(line)
        if "id" in message:
            answer = {"jsonrpc": "2.0", "id": message["id"], "result": {"method": message["method"]}}
            assert raw.next() == compact(answer)
    # Malformed JSON-RPC reaches the server as it is, and its parse error the client.
    for bad in [b"{oops", b'{"jsonrpc":"2.0","id":', b"\xff\xfe"]:
        raw.send(bad)
        raw.echoed()
        assert raw.next() == compact(PARSE_ERROR)
    assert raw.close() == 0


def test_list_answers_are_matched_by_ids_of_any_type() -> None:
    raw = Raw("--dialect", "openai-strict")
    for rid in ["x", 7, 1.5, None, {"a": [1]}, [2, "b"]]:
        raw.send(compact({"jsonrpc": "2.0", "id": rid, "method": "tools/list"}))
        raw.echoed()
        answer = raw.message()
        assert same(answer["id"], rid)
        counts = answer["result"]["tools"][0]["inputSchema"]["properties"]["counts"]
        assert counts["type"] == "array", f"id {rid!r}: not adapted: {counts}"
    # An answer to another request with an equal-looking id is not rewritten.
    raw.send(compact({"jsonrpc": "2.0", "id": "x", "method": "other"}))
    raw.echoed()
    assert raw.next() == compact({"jsonrpc": "2.0", "id": "x", "result": {"method": "other"}})
    assert raw.close() == 0


def test_batches_are_handled_element_by_element() -> None:
    raw = Raw("--dialect", "openai-strict")
    batch = compact(
        [
            {"jsonrpc": "2.0", "id": "b1", "method": "tools/list"},
            {"jsonrpc": "2.0", "id": "b2", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        ]
    )
    raw.send(batch)
    assert raw.echoed().encode() + b"\n" == batch
    answers = raw.message()
    assert [a["id"] for a in answers] == ["b1", "b2"]
    assert answers[0]["result"]["tools"][0]["inputSchema"]["properties"]["counts"]["type"] == "array"
    dup = {"counts": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}
    good = {"counts": [{"key": "a", "value": 1}]}
    raw.send(
        compact(
            [
                {"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {"name": "tally", "arguments": dup}},
                {"jsonrpc": "2.0", "id": "c2", "method": "tools/call", "params": {"name": "tally", "arguments": good}},
            ]
        )
    )
    forwarded = json.loads(raw.echoed())
    assert [m["id"] for m in forwarded] == ["c2"]
    assert forwarded[0]["params"]["arguments"] == {"counts": {"a": 1}}
    answers = raw.message()
    assert [a["id"] for a in answers] == ["c2", "c1"]
    assert answers[1]["result"]["isError"] is True
    assert raw.close() == 0


def test_a_call_that_cannot_be_restored_never_reaches_the_server() -> None:
    raw = Raw("--dialect", "gemini")
    raw.send(compact({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    raw.echoed()
    raw.message()
    dup = {"counts": [{"key": "a", "value": 1}, {"key": "a", "value": 1}]}
    call = {"name": "tally", "arguments": dup}
    raw.send(compact({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}))
    answer = raw.message()
    assert answer["id"] == 2 and answer["result"]["isError"] is True
    raw.send(b'{"jsonrpc":"2.0","id":3,"method":"ping"}')
    assert raw.echoed() == '{"jsonrpc":"2.0","id":3,"method":"ping"}', "the refused call reached the server"
    assert raw.close() == 0
    assert "tools/call `tally` answered by the proxy: the arguments do not fit" in raw.stderr()


def test_server_initiated_requests_and_their_answers_pass_unchanged() -> None:
    raw = Raw("--dialect", "anthropic-strict")
    raw.send(b'{"jsonrpc":"2.0","id":1,"method":"trigger"}')
    raw.echoed()
    assert raw.next() == b'{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}\n'
    assert raw.message()["id"] == 1
    reply = b'{"jsonrpc":"2.0","id":"srv-1","result":{"roots":[]}}'
    raw.send(reply)
    assert raw.echoed().encode() == reply
    assert raw.close() == 0


def test_the_server_exiting_answers_what_is_pending_and_ends_the_proxy() -> None:
    raw = Raw("--dialect", "openai-strict")
    raw.send(b'{"jsonrpc":"2.0","id":"e","method":"exit"}')
    raw.echoed()
    answer = raw.message()
    assert answer["id"] == "e"
    assert answer["error"]["code"] == -32000
    assert "exited (status 5)" in answer["error"]["message"]
    assert raw.next() is None
    assert raw.p.wait(timeout=30) == 5


def test_the_client_closing_ends_the_server() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pid_file = Path(tmp) / "pid"
        raw = Raw("--dialect", "openai-strict", server=SERVER, server_args=("--pid-file", str(pid_file)))
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        # Malformed JSON-RPC first: the SDK server answers or ignores it, and stays up.
        raw.send(b"{oops")
        raw.send(compact(INITIALIZE))
        while (m := raw.message()).get("id") != 0:
            pass
        assert "result" in m, m
        assert raw.close() == 0
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)



def test_a_10_mb_tools_list_comes_through_whole() -> None:
    # The SDK server, driven line by line: the SDK's own client spends seconds a megabyte parsing
    # a list this size, with or without the proxy.
    if CORPUS is None:
        skip_without_corpus()
    tools = corpus_tools()
    sys.path.insert(0, str(SERVER.parent))
    from server import bundled

    bundle = bundled(tools)
    size = len(json.dumps({"name": "bundle_0", "inputSchema": bundle}, separators=(",", ":")))
    bundles = 10_000_000 // size + 1
    server_args = ("--corpus", str(CORPUS), "--bundles", str(bundles))
    raw = Raw("--dialect", "openai-strict", server=SERVER, server_args=server_args)
    raw.send(compact(INITIALIZE))
    assert raw.message()["id"] == 0
    raw.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    started = time.monotonic()
    raw.send(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
    line = raw.next()
    took = time.monotonic() - started
    assert line is not None and len(line) > 10_000_000, len(line or b"")
    listed = {t["name"]: t["inputSchema"] for t in json.loads(line)["result"]["tools"]}
    assert len(listed) == len(tools) + bundles + len(FIXTURE_TOOLS)
    last = listed[f"bundle_{bundles - 1}"]
    assert set(last["properties"]) == set(tools)
    assert set(last["required"]) == set(tools), "every property required, null for absent"
    name = "github-mcp-server__update_issue_assignees"
    original = {name: instance(tools[name], tools[name], "full")}
    call = {"name": f"bundle_{bundles - 1}", "arguments": encode(original, last)}
    raw.send(compact({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}))
    answer = raw.message()
    assert same(json.loads(answer["result"]["content"][-1]["text"])["raw"], original)
    assert raw.close() == 0
    print(f"{bundles} tools of {size / 1e6:.2f} MB: {len(line) / 1e6:.1f} MB listed in {took:.1f} s", file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# The gateway a host leaves running: names, output schemas, pins, the end, both protocol eras

NAME_PATTERNS = {
    "openai-strict": r"[a-zA-Z0-9_-]{1,64}",
    "anthropic-strict": r"[a-zA-Z0-9_-]{1,128}",
    "gemini": r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}",
}
MODES = ["legacy", "2026-07-28"]  # the 2025-11-25 initialize handshake, and server/discover


@contextlib.asynccontextmanager
async def client(dialect: str, mode: str, *flags: str) -> AsyncIterator[Client]:
    """The SDK's high-level `Client` through the proxy, in a protocol era of its choosing."""
    args = ["mcp-proxy", "--dialect", dialect, *flags, "--", sys.executable, str(SERVER)]
    async with Client(StdioServerParameters(command=binary(), args=args, cwd=str(REPO)), mode=mode) as c:
        yield c


def called_as(result: Any) -> str:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[-1].text)["tool"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_gateway_lists_names_the_provider_takes_and_calls_the_server_under_its_own(dialect: str, mode: str) -> None:
    async def main() -> None:
        async with client(dialect, mode) as c:
            assert c.protocol_version == ("2025-11-25" if mode == "legacy" else mode)
            listed = {t.name: t.input_schema for t in (await c.list_tools()).tools}
            for name in listed:
                assert re.fullmatch(NAME_PATTERNS[dialect], name), f"{dialect} refuses `{name}`"
            mapped = "repo.list" if dialect == "gemini" else "repo_list"
            assert mapped in listed and len(listed) == len(FIXTURE_TOOLS), sorted(listed)
            original = {"owner": "ann", "counts": {"a": 1}}
            result = await c.call_tool(mapped, encode(original, listed[mapped]))
            assert called_as(result) == "repo.list"
            assert same(received(result), original)
            # 2026-07-28: `confirm` first answers `resultType: "input_required"`; the client
            # retries, and the retry is restored like any call (entries back to a map).
            if mode != "legacy":
                sent = encode({"counts": {"a": 1, "b": 2}}, listed["confirm"])
                assert sent["counts"] != {"a": 1, "b": 2}, "the provider's shape differs"
                result = await c.call_tool("confirm", sent)
                assert json.loads(result.content[0].text)["validated"]["retried"] is True
                assert received(result) == {"counts": {"a": 1, "b": 2}}
        if (dialect, mode) == ("openai-strict", "legacy"):
            async with client(dialect, mode, "--keep-names") as c:
                names = {t.name for t in (await c.list_tools()).tools}
                assert "repo.list" in names

    run(main)


def refs_in(schema: Any) -> list[str]:
    if isinstance(schema, dict):
        return [k for k in schema if k in ("$ref", "$defs", "definitions")] + [
            r for v in schema.values() for r in refs_in(v)
        ]
    if isinstance(schema, list):
        return [r for v in schema for r in refs_in(v)]
    return []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dialect", ["mcp-self-contained", "openai-strict"])
def test_gateway_inlines_output_schema_references_and_passes_structured_content(dialect: str, mode: str) -> None:
    async def main() -> None:
        async with client(dialect, mode) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            output = tools["rows"].output_schema
            assert output is not None and not refs_in(output), output
            result = await c.call_tool("rows", {"n": 3})
            want = {"result": [{"id": 0, "label": "row 0"}, {"id": 1, "label": None}, {"id": 2, "label": "row 2"}]}
            assert result.structured_content == want
            assert not list(validator(output).iter_errors(result.structured_content))
        if dialect == "mcp-self-contained":
            async with client("json-schema", mode) as c:
                tools = {t.name: t for t in (await c.list_tools()).tools}
                assert refs_in(tools["rows"].output_schema), "json-schema keeps the server's references"

    run(main)


def test_gateway_leaves_out_a_pinned_tool_that_changed_until_the_change_is_accepted() -> None:
    async def main() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            pins = Path(tmp) / "pins.json"
            flags = ("--pin", str(pins))
            async with proxied("openai-strict", flags=flags) as s:
                first = {t.name for t in (await s.list_tools()).tools}
            pinned = json.loads(pins.read_text())
            assert sorted(pinned["tools"]) == sorted(FIXTURE_TOOLS) and pinned["pending"] == {}
            assert pinned["tools"]["book_stay"]["hash"].startswith("sha256:")
            with tempfile.TemporaryFile("w+") as log:
                async with proxied("openai-strict", "--drift", flags=flags, errlog=log) as s:
                    listed = {t.name for t in (await s.list_tools()).tools}
                    assert listed == first - {"book_stay"}
                    result = await s.call_tool("book_stay", {"city": "Paris"})
                    assert result.is_error and len(result.content) == 1, "the server must not see the call"
                    assert "its listing changed since it was pinned" in result.content[0].text
                log.seek(0)
                text = log.read()
            assert "tool `book_stay` left out of tools/list: its listing differs from the one pinned" in text, text
            assert "- the description changed" in text, text
            accepted = subprocess.run(
                [binary(), "pin", "--accept", str(pins), "book_stay"], capture_output=True, text=True, check=False
            )
            assert accepted.returncode == 0, accepted.stderr
            async with proxied("openai-strict", "--drift", flags=flags) as s:
                assert "book_stay" in {t.name for t in (await s.list_tools()).tools}

    run(main)


def test_gateway_passes_a_listing_that_matches_its_pins_byte_for_byte() -> None:
    def listing(*flags: str) -> bytes:
        raw = Raw("--dialect", "openai-strict", *flags, server=SERVER)
        raw.send(compact(INITIALIZE))
        assert raw.message()["id"] == 0
        raw.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        raw.send(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
        line = raw.next()
        assert line is not None
        raw.close()
        return line

    with tempfile.TemporaryDirectory() as tmp:
        pins = str(Path(tmp) / "pins.json")
        plain = listing()
        assert listing("--pin", pins) == plain, "pinning the first time"
        assert listing("--pin", pins) == plain, "a listing that matches its pins"


def test_gateway_ends_a_server_that_ignores_sigterm_and_its_stdin_when_the_sdk_client_closes() -> None:
    async def main() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            pid_file = Path(tmp) / "pid"
            server_args = ("--linger", "--pid-file", str(pid_file))
            async with proxied("anthropic-strict", *server_args) as s:
                await s.list_tools()
                pid = int(pid_file.read_text())
            # The SDK's close: stdin ended, then SIGTERM to the proxy after 2 s. By the time it
            # returns, the proxy has exited, and it ends its server first.
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)

    run(main)
