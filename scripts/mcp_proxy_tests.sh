#!/usr/bin/env bash
# The `toolschema mcp-proxy` tests (tests/mcp_proxy/): the official MCP Python SDK's client and
# server on either side of the proxy, the shared corpus served as it is, and the provider SDK
# checks of scripts/provider_sdks.py on every schema the proxy lists.
#
#   scripts/mcp_proxy_tests.sh [PYTEST ARGS...]
#
# Runs in the virtual environment of the SDK conformance suite (scripts/sdk_venv.sh makes it from
# scripts/requirements-sdk.txt, pytest pinned there too); builds the CLI; runs pytest. PyPI is
# needed only to make the environment; the tests touch no network. Environment: SDK_VENV (default
# target/sdk-venv), PYTHON (default python3), TOOLSCHEMA_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$(scripts/sdk_venv.sh)

echo "mcp_proxy_tests: building the CLI" >&2
cargo build --quiet --features cli --bin toolschema
# The pytest script (not `python -m pytest`), from the repository root: `tests/mcp_proxy` finds its
# helpers beside it, and `scripts/` and `fixtures/mcp/` by path.
TOOLSCHEMA_BIN="$PWD/${CARGO_TARGET_DIR:-target}/debug/toolschema" \
    exec "$venv/bin/pytest" -q -p no:cacheprovider tests/mcp_proxy "$@"
