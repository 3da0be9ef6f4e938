#!/usr/bin/env bash
# The self-hosted decoding engines as oracles of their dialects (scripts/engines.py): a virtual
# environment with the pinned engine wheels of scripts/requirements-engines.txt (target/engine-venv,
# reused while the file is unchanged), the CLI built once, then the check with the arguments given.
# Environment: ENGINE_VENV (default target/engine-venv), PYTHON (default python3), TOOLSCHEMA_CORPUS.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
venv=${ENGINE_VENV:-target/engine-venv}
requirements=scripts/requirements-engines.txt
stamp="$venv/.requirements.sha256"
want=$({ cat "$requirements"; "$python" --version 2>&1; } | sha256sum | cut -d' ' -f1)
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements" >&2
    echo "$want" >"$stamp"
fi
cargo build --quiet --features cli --bin toolschema
exec "$venv/bin/python" scripts/engines.py --bin "${CARGO_TARGET_DIR:-target}/debug/toolschema" "$@"
