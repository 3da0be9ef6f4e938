#!/usr/bin/env bash
# SDK conformance suite: every schema a dialect accepts (the zoo goldens and the shared corpus)
# through the providers' own client code. See scripts/provider_sdks.py for what is checked.
#
#   scripts/provider_sdks.sh [--dialect D,D...] [--source zoo,mcp,pydantic,bfcl,hostile] [--json FILE]
#
# Makes a virtual environment with the pinned SDKs (scripts/requirements-sdk.txt; reused while the
# file and the Python version are unchanged), builds the CLI once, then runs the suite with the
# arguments given. Needs python3 (3.10 or later) with venv, cargo, and the PyPI registry the first
# time. Environment: SDK_VENV (default target/sdk-venv), PYTHON (default python3),
# TOOLSCHEMA_CORPUS (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=${SDK_VENV:-target/sdk-venv}
requirements=scripts/requirements-sdk.txt
stamp="$venv/.requirements.sha256"

want=$({ cat "$requirements"; "$python" --version 2>&1; } | sha256sum | cut -d' ' -f1)
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "provider_sdks: installing $requirements into $venv" >&2
    if [[ -e "$venv" && ! -f "$venv/pyvenv.cfg" ]]; then
        echo "provider_sdks: $venv exists and is not a virtual environment; set SDK_VENV" >&2
        exit 2
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements"
    echo "$want" >"$stamp"
fi

echo "provider_sdks: building the CLI" >&2
cargo build --quiet --features cli --bin toolschema
exec "$venv/bin/python" scripts/provider_sdks.py --bin "${CARGO_TARGET_DIR:-target}/debug/toolschema" "$@"
