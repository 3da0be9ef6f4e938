#!/usr/bin/env bash
# The `toolschema mcp-proxy` tests (tests/mcp_proxy/): the official MCP Python SDK's client and
# server on either side of the proxy, the shared corpus served as it is, and the provider SDK
# checks of scripts/provider_sdks.py on every schema the proxy lists.
#
#   scripts/mcp_proxy_tests.sh [PYTEST ARGS...]
#
# Uses the virtual environment of the SDK conformance suite (scripts/requirements-sdk.txt, pinned,
# pytest included), made here the way scripts/provider_sdks.sh makes it when it is missing or
# stale; builds the CLI; runs pytest. PyPI is needed only to make the environment; the tests touch
# no network. Environment: SDK_VENV (default target/sdk-venv), PYTHON (default python3),
# TOOLSCHEMA_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=${SDK_VENV:-target/sdk-venv}
requirements=scripts/requirements-sdk.txt
stamp="$venv/.requirements.sha256"

# The same stamp as scripts/provider_sdks.sh, so that either script reuses the other's environment.
want=$({ cat "$requirements"; "$python" --version 2>&1; } | sha256sum | cut -d' ' -f1)
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "mcp_proxy_tests: installing $requirements into $venv" >&2
    if [[ -e "$venv" && ! -f "$venv/pyvenv.cfg" ]]; then
        echo "mcp_proxy_tests: $venv exists and is not a virtual environment; set SDK_VENV" >&2
        exit 2
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements"
    echo "$want" >"$stamp"
fi

echo "mcp_proxy_tests: building the CLI" >&2
cargo build --quiet --features cli --bin toolschema
# The pytest script (not `python -m pytest`), from the repository root: `tests/mcp_proxy` finds its
# helpers beside it, and `scripts/` and `fixtures/mcp/` by path.
TOOLSCHEMA_BIN="$PWD/${CARGO_TARGET_DIR:-target}/debug/toolschema" \
    exec "$venv/bin/pytest" -q -p no:cacheprovider tests/mcp_proxy "$@"
