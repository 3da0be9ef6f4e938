#!/usr/bin/env bash
# Runs the law tests N times at CI's case counts, each run with a fresh seed, and counts the runs
# that failed. A failing run's log (with its seed: rerun with PROPTEST_RNG_SEED=<seed>) is kept in
# target/law-runs/; the failing case itself is kept by the tests (tests/*.proptest-regressions,
# tests/*.seed-regressions) and runs first from then on.
#
#   scripts/law_runs.sh [N]            # N runs (default 200), every law test
#   LAW_TESTS="laws restore_laws" scripts/law_runs.sh 50
#   PROPTEST_CASES=2000 scripts/law_runs.sh 1   # one long run
#
# Prints one line per run and, at the end, "N runs, F failed". Exit 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

n="${1:-200}"
read -r -a tests <<< "${LAW_TESTS:-laws restore_laws props diff_props dialects restore foreign_properties coerce soundness}"
args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done

mkdir -p target/law-runs
export TOOLSCHEMA_CORPUS="${TOOLSCHEMA_CORPUS:-$PWD/../shared/corpus}"
export TOOLSCHEMA_REQUIRE_CORPUS=1
cargo test -q --all-features --no-run "${args[@]}" 2>/dev/null || cargo test --all-features --no-run "${args[@]}" || exit 2

failed=0
for i in $(seq 1 "$n"); do
    log="target/law-runs/run-$i.log"
    start=$SECONDS
    if cargo test -q --all-features "${args[@]}" -- --nocapture > "$log" 2>&1; then
        echo "run $i: ok ($((SECONDS - start)) s)"
        rm -f "$log"
    else
        failed=$((failed + 1))
        seeds=$(grep -o 'PROPTEST_RNG_SEED=[0-9]*' "$log" | sort -u | tr '\n' ' ')
        echo "run $i: FAILED ($((SECONDS - start)) s): $log ${seeds}"
        grep -E '^---- |panicked at' "$log" | head -n 6 | sed 's/^/    /'
    fi
done
echo "$n runs, $failed failed"
[ "$failed" -eq 0 ]
