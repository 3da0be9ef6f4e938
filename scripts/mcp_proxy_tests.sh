#!/usr/bin/env bash
# The `toolschema mcp-proxy` tests (tests/mcp_proxy/): the official MCP Python SDK's client and
# server on either side of the proxy, the shared corpus served as it is, and the provider SDK
# checks of scripts/provider_sdks.py on every schema the proxy lists (pytest); then the official
# MCP TypeScript SDK client in front of the proxy and a server that stamps its schemas draft-07
# (tests/mcp_proxy/ts_client.test.mjs, `node --test`).
#
#   scripts/mcp_proxy_tests.sh [PYTEST ARGS...]
#
# Runs in the virtual environment of the SDK conformance suite (scripts/sdk_venv.sh makes it from
# scripts/requirements-sdk.txt, pytest pinned there too) and with the Node modules of
# scripts/package-lock.json (scripts/sdk_node.sh, `npm ci`); builds the CLI; runs pytest, then
# node. PyPI and the npm registry are needed only to make the environments; the tests touch no
# network. Environment: SDK_VENV (default target/sdk-venv), SDK_NODE (default target/sdk-node),
# PYTHON (default python3), TOOLSCHEMA_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$(scripts/sdk_venv.sh)
SDK_NODE=$(scripts/sdk_node.sh)
export SDK_NODE

echo "mcp_proxy_tests: building the CLI" >&2
cargo build --quiet --features cli --bin toolschema
# The pytest script (not `python -m pytest`), from the repository root: `tests/mcp_proxy` finds its
# helpers beside it, and `scripts/` and `fixtures/mcp/` by path.
export TOOLSCHEMA_BIN="$PWD/${CARGO_TARGET_DIR:-target}/debug/toolschema"
"$venv/bin/pytest" -q -p no:cacheprovider tests/mcp_proxy "$@"
node --test tests/mcp_proxy/ts_client.test.mjs
