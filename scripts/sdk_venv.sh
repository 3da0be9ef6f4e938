#!/usr/bin/env bash
# Makes (or reuses) the virtual environment with the pinned provider SDKs and test tools of
# scripts/requirements-sdk.txt, and prints its path. Shared by scripts/provider_sdks.sh and
# scripts/mcp_proxy_tests.sh: the environment is reused while the file and the Python version are
# unchanged. Needs python3 (3.10 or later) with venv, and the PyPI registry when it (re)installs.
# Environment: SDK_VENV (default target/sdk-venv), PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=${SDK_VENV:-target/sdk-venv}
requirements=scripts/requirements-sdk.txt
stamp="$venv/.requirements.sha256"

want=$({ cat "$requirements"; "$python" --version 2>&1; } | sha256sum | cut -d' ' -f1)
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "sdk_venv: installing $requirements into $venv" >&2
    if [[ -e "$venv" && ! -f "$venv/pyvenv.cfg" ]]; then
        echo "sdk_venv: $venv exists and is not a virtual environment; set SDK_VENV" >&2
        exit 2
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements" >&2
    echo "$want" >"$stamp"
fi
echo "$venv"
