#!/usr/bin/env bash
# SDK conformance suite: every schema a dialect accepts (the zoo goldens and the shared corpus)
# through the providers' own client code. See scripts/provider_sdks.py for what is checked.
#
#   scripts/provider_sdks.sh [--dialect D,D...] [--source zoo,rejections,mcp,pydantic,bfcl,hostile]
#       [--mode reversible,exact] [--json FILE]
#
# Makes a virtual environment with the pinned SDKs (scripts/requirements-sdk.txt; reused while the
# file and the Python version are unchanged), builds the CLI once, then runs the suite with the
# arguments given. Needs python3 (3.10 or later) with venv, cargo, and the PyPI registry the first
# time. Environment: SDK_VENV (default target/sdk-venv), PYTHON (default python3),
# TOOLSCHEMA_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$(scripts/sdk_venv.sh)
SDK_NODE=$(scripts/sdk_node.sh)
export SDK_NODE

echo "provider_sdks: building the CLI" >&2
cargo build --quiet --features cli --bin toolschema
exec "$venv/bin/python" scripts/provider_sdks.py --bin "${CARGO_TARGET_DIR:-target}/debug/toolschema" "$@"
