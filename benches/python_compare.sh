#!/usr/bin/env bash
# Cross-language comparison: self_contained_input_schema (Rust, this crate) against the Python
# reference (PyPI 3tears-tool-schema) and peers, per schema over the same public corpus, in one run
# so both see the same machine load. Target: at least 10x faster per schema than the reference.
#
# Usage: benches/python_compare.sh
#   PYTHON        a Python with the oracle tools installed (see ../shared/tools/oracle/setup.sh);
#                 default: python3
#   ORACLE_DIR    where bench_python.py is; default: ../shared/tools/oracle beside the repository
#   TOOLSCHEMA_CORPUS  the corpus, as for the Rust benches; default: ../shared/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
ORACLE_DIR="${ORACLE_DIR:-../shared/tools/oracle}"
CORPUS="${TOOLSCHEMA_CORPUS:-../shared/corpus}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "== Rust: cargo bench --bench compare -- self_contained" >&2
cargo bench --quiet --bench compare -- self_contained >"$out/rust.md" 2>"$out/rust.err"
rust_us="$(sed -n 's/^self_contained_input_schema_us_per_schema=//p' "$out/rust.md")"
[ -n "$rust_us" ] || { cat "$out/rust.err" >&2; echo "no Rust figure (is the corpus there?)" >&2; exit 1; }
owned_us="$(sed -n 's/^self_contained_input_schema_owned_us_per_schema=//p' "$out/rust.md")"
clone_us="$(sed -n 's/^value_clone_us_per_schema=//p' "$out/rust.md")"
read_clone_us="$(sed -n 's/^read_and_clone_us_per_schema=//p' "$out/rust.md")"

echo "== Python: $ORACLE_DIR/bench_python.py" >&2
CORPUS="$CORPUS" "$PYTHON" "$ORACLE_DIR/bench_python.py" --repeat 5 --markdown "$out/python.md" >/dev/null

echo "Rust self_contained_input_schema: $rust_us µs per schema (best batch; Python reports its best run)."
[ -z "$owned_us" ] || echo "Rust self_contained_input_schema_owned: $owned_us µs per schema (best pass, input copies untimed)."
[ -z "$clone_us" ] || echo "Rust Value::clone of the same inputs, and its drop: $clone_us µs per schema (best batch): the least a function returning an owned copy of a borrowed value spends."
[ -z "$read_clone_us" ] || echo "Rust one read of every entry, then Value::clone: $read_clone_us µs per schema (best batch): the least a function that checks what it copies spends."
echo
echo "| Python operation | µs / schema | Rust is faster by | owned: faster by | a deep clone: faster by |"
echo "| --- | ---: | ---: | ---: | ---: |"
# Rows of bench_python.py's first table: | operation | total ms | µs / schema | MB/s | errors |
awk -F'|' -v rust="$rust_us" -v owned="$owned_us" -v clone="$clone_us" '
  function by(us, d) { return d == "" ? "–" : sprintf("%.1fx", us / d) }
  /^\| operation/ { table++; next }
  table == 1 && /^\| [^-]/ {
    op = $2; us = $4; gsub(/^ +| +$/, "", op); gsub(/[ ,]/, "", us);
    if (us == "–" || us == "") next;
    printf "| %s | %s | %s | %s | %s |\n", op, us, by(us, rust), by(us, owned), by(us, clone)
  }
  table == 1 && /^$/ { table++ }
' "$out/python.md"
echo
head -2 "$out/python.md"
