#!/usr/bin/env bash
# The library's public API as `cargo doc` shows it: every documented item, one line each
# (`kind path`), read from rustdoc's list of all items (target/doc/toolschema/all.html; run
# `cargo doc --no-deps --all-features` first). Items hidden from the documentation (the internals
# the CLI, the Python package and the tests reach by path) are not in it.
#
#   scripts/public_api.sh           # prints the list
#   scripts/public_api.sh --check   # exit 1 unless ARCHITECTURE.md's "Public API" list is it
set -euo pipefail
cd "$(dirname "$0")/.."
all=target/doc/toolschema/all.html
[ -f "$all" ] || { echo "$all: run cargo doc --no-deps --all-features first" >&2; exit 2; }
list=$(python3 - "$all" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
kinds = {"structs": "struct", "enums": "enum", "traits": "trait", "functions": "fn",
         "statics": "static", "constants": "const", "macros": "macro", "types": "type",
         "unions": "union", "attributes": "attr", "derives": "derive", "trait-aliases": "trait-alias"}
lines = []
for sid, body in re.findall(r'<h3 id="([a-z-]+)">.*?</h3><ul class="all-items">(.*?)</ul>', html, re.S):
    for path in re.findall(r'<a href="[^"]+">([^<]+)</a>', body):
        lines.append(f"{kinds.get(sid, sid)} toolschema::{path}")
print("\n".join(sorted(lines, key=lambda l: (l.split()[1], l))))
PY
)
if [ "${1:-}" = --check ]; then
    documented=$(sed -n '/^<!-- public-api:begin -->$/,/^<!-- public-api:end -->$/p' ARCHITECTURE.md | grep -v '^<!--\|^```')
    if [ "$documented" != "$list" ]; then
        echo "ARCHITECTURE.md's public API list differs from cargo doc's (< documented, > cargo doc):" >&2
        diff <(printf '%s\n' "$documented") <(printf '%s\n' "$list") >&2 || true
        echo "rewrite it with: scripts/public_api.sh" >&2
        exit 1
    fi
    echo "public API: $(printf '%s\n' "$list" | wc -l) items, as ARCHITECTURE.md lists them"
else
    printf '%s\n' "$list"
fi
