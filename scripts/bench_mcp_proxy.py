#!/usr/bin/env python3
"""Relay overhead of `toolschema mcp-proxy`: a `tools/call` round trip through the proxy against
the same round trip straight to the server, with the fixture server (`fixtures/mcp/server.py`).

    scripts/bench_mcp_proxy.py [--bin target/release/toolschema] [--rounds 15] [--calls 100]

Run it in the SDK environment (`target/sdk-venv/bin/python`, see scripts/requirements-sdk.txt).
Two servers run side by side, one behind the proxy (`--dialect openai-strict --coerce`), and
two clients drive them in the same process, in alternating rounds of `--calls` calls each, so
that both see the same machine load:

- `sdk`: the MCP SDK's `ClientSession` (what a host uses), calling `book_stay`;
- `raw`: one JSON line written to the pipe and one read back, the least a client can do, so the
  proxy's share of the round trip is not hidden by the SDK's own time.

The proxy's call is the provider's shape (`null` for the absent fields, restored before the
server sees it); the direct call is the original shape. Per client: the median round trip of each
side over all calls, the ratio, the absolute overhead, and the target (at most 1.2x direct plus
100 µs). Without `--bin` it builds the release CLI.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parent.parent
SERVER = [sys.executable, str(REPO / "fixtures" / "mcp" / "server.py")]
DIRECT_ARGS = {"city": "Paris", "nights": 2}
PROXY_ARGS = {"city": "Paris", "nights": 2, "note": None, "breakfast": None}


def build() -> str:
    subprocess.run(["cargo", "build", "--release", "--quiet", "--features", "cli", "--bin", "toolschema"], cwd=REPO, check=True)
    return str(REPO / "target" / "release" / "toolschema")


def proxy_command(binary: str) -> list[str]:
    return [binary, "mcp-proxy", "--dialect", "openai-strict", "--coerce", "--", *SERVER]


async def sdk_rounds(binary: str, rounds: int, calls: int) -> tuple[list[float], list[float]]:
    direct, proxied = [], []
    d = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    p_cmd = proxy_command(binary)
    p = StdioServerParameters(command=p_cmd[0], args=p_cmd[1:])
    async with stdio_client(d) as (dr, dw), ClientSession(dr, dw) as ds:
        async with stdio_client(p) as (pr, pw), ClientSession(pr, pw) as ps:
            await ds.initialize()
            await ps.initialize()
            await ds.list_tools()
            await ps.list_tools()
            for session, args in ((ds, DIRECT_ARGS), (ps, PROXY_ARGS)):  # warm up
                for _ in range(20):
                    await session.call_tool("book_stay", args)
            for _ in range(rounds):
                for session, args, out in ((ds, DIRECT_ARGS, direct), (ps, PROXY_ARGS, proxied)):
                    for _ in range(calls):
                        t = time.perf_counter()
                        result = await session.call_tool("book_stay", args)
                        out.append(time.perf_counter() - t)
                        assert not result.is_error, result
    return direct, proxied


class Line:
    """One server (or proxy) driven a line at a time."""

    def __init__(self, cmd: list[str]) -> None:
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}
        self.request("initialize", init)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.request("tools/list", {})

    def send(self, message: Any) -> None:
        self.p.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        self.p.stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = json.loads(self.p.stdout.readline())
            if message.get("id") == self.next_id:
                return message

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(timeout=30)


def raw_rounds(binary: str, rounds: int, calls: int) -> tuple[list[float], list[float]]:
    direct, proxied = [], []
    d, p = Line(SERVER), Line(proxy_command(binary))
    try:
        for line, args in ((d, DIRECT_ARGS), (p, PROXY_ARGS)):
            for _ in range(20):
                line.request("tools/call", {"name": "book_stay", "arguments": args})
        for _ in range(rounds):
            for line, args, out in ((d, DIRECT_ARGS, direct), (p, PROXY_ARGS, proxied)):
                for _ in range(calls):
                    t = time.perf_counter()
                    answer = line.request("tools/call", {"name": "book_stay", "arguments": args})
                    out.append(time.perf_counter() - t)
                    assert not answer["result"].get("isError"), answer
    finally:
        d.close()
        p.close()
    return direct, proxied


def report(name: str, direct: list[float], proxied: list[float]) -> bool:
    a, b = statistics.median(direct) * 1e6, statistics.median(proxied) * 1e6
    bound = 1.2 * a + 100
    ok = b <= bound
    print(
        f"{name}: direct {a:.0f} µs, through the proxy {b:.0f} µs (median of {len(direct)} calls each): "
        f"{b / a:.2f}x, +{b - a:.0f} µs; target {bound:.0f} µs: {'met' if ok else 'MISSED'}"
    )
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", help="the toolschema CLI (default: build the release one)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=100)
    args = ap.parse_args()
    binary = args.bin or build()
    ok = report("raw", *raw_rounds(binary, args.rounds, args.calls))
    ok &= report("sdk", *anyio.run(sdk_rounds, binary, args.rounds, args.calls))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
