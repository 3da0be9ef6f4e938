#!/usr/bin/env bash
# Makes (or reuses) the Node modules of scripts/package.json, exactly as scripts/package-lock.json
# pins them (`npm ci`), and prints the directory that holds their `node_modules`. Shared by
# scripts/provider_sdks.sh (Ajv2020) and scripts/mcp_proxy_tests.sh (the MCP TypeScript SDK
# client): reused while the two files and the Node version are unchanged. Needs node (20 or later)
# and npm, and the npm registry when it (re)installs. Environment: SDK_NODE (default
# target/sdk-node).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${SDK_NODE:-target/sdk-node}
stamp="$dir/.lock.sha256"

want=$({ cat scripts/package.json scripts/package-lock.json; node --version; } | sha256sum | cut -d' ' -f1)
if [[ ! -d "$dir/node_modules" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "sdk_node: npm ci of scripts/package-lock.json into $dir" >&2
    rm -rf "$dir"
    mkdir -p "$dir"
    cp scripts/package.json scripts/package-lock.json "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
    echo "$want" >"$stamp"
fi
echo "$dir"
