#!/usr/bin/env bash
# Runs the law tests N times at CI's case counts, each run with a fresh seed, and counts the runs
# that failed. A failing run's log (with its seed: rerun with PROPTEST_RNG_SEED=<seed>) is kept in
# target/law-runs/; the failing case itself is kept by the tests (tests/*/*.proptest-regressions,
# tests/*/*.seed-regressions) and runs first from then on.
#
#   scripts/law_runs.sh [N]            # N runs (default 200), every law test
#   LAW_TESTS="laws restore_laws" scripts/law_runs.sh 50
#   PROPTEST_CASES=2000 scripts/law_runs.sh 1   # one long run
#   LAW_PROFILE=release scripts/law_runs.sh     # the same case counts, built optimised (faster runs)
#   LAW_RUN_TIMEOUT=120 scripts/law_runs.sh     # seconds a test binary may take in one run (600)
#
# Prints one line per run and, at the end, "N runs, F failed". Exit 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

n="${1:-200}"
# The law tests are modules of the test binaries (tests/json_only/, tests/with_schemars/,
# tests/dialects/); a
# name here is a module, and its tests are the ones whose path starts with `<module>::`.
read -r -a modules <<< "${LAW_TESTS:-laws restore_laws decode_laws props diff_props dialects restore foreign_properties coerce soundness}"

mkdir -p target/law-runs
export TOOLSCHEMA_CORPUS="${TOOLSCHEMA_CORPUS:-$PWD/../shared/corpus}"
export TOOLSCHEMA_REQUIRE_CORPUS=1
# Built once; the test executables then run directly (as cargo runs them, from the package root),
# so the runs hold no lock on the build directory.
profile=()
[ "${LAW_PROFILE:-dev}" = release ] && profile=(--release)
mapfile -t built < <(cargo test "${profile[@]}" --all-features --no-run --message-format=json --test json_only --test with_schemars --test dialects |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "test" in m["target"]["kind"]:
        print(m["executable"])')
[ "${#built[@]}" -eq 3 ] || { echo "built ${#built[@]} of 3 test executables" >&2; exit 2; }

# Each binary with the exact names of its tests in the chosen modules (a file per binary).
bins=()
for bin in "${built[@]}"; do
    list="target/law-runs/$(basename "$bin").tests"
    "$bin" --list --format terse 2>/dev/null | sed -n 's/: test$//p' |
        awk -v mods="${modules[*]}" 'BEGIN { n = split(mods, m, " ") }
            { for (i = 1; i <= n; i++) if (index($0, m[i] "::") == 1) { print; next } }' > "$list"
    [ -s "$list" ] && bins+=("$bin")
done
for m in "${modules[@]}"; do
    cat target/law-runs/*.tests | grep -q "^$m::" || { echo "no test module named $m" >&2; exit 2; }
done

failed=0
for i in $(seq 1 "$n"); do
    log="target/law-runs/run-$i.log"
    start=$SECONDS
    ok=1
    : > "$log"
    for bin in "${bins[@]}"; do
        mapfile -t names < "target/law-runs/$(basename "$bin").tests"
        # A run that hangs is a failure too: each binary gets LAW_RUN_TIMEOUT seconds (default 600,
        # some 50 times a normal run's).
        timeout --kill-after=10 "${LAW_RUN_TIMEOUT:-600}" "$bin" --exact --nocapture "${names[@]}" >> "$log" 2>&1 || {
            [ $? -ge 124 ] && echo "timed out after ${LAW_RUN_TIMEOUT:-600} s: $(basename "$bin")" >> "$log"
            ok=0
        }
    done
    if [ "$ok" -eq 1 ]; then
        echo "run $i: ok ($((SECONDS - start)) s)"
        rm -f "$log"
    else
        failed=$((failed + 1))
        echo "run $i: FAILED ($((SECONDS - start)) s): $log"
        # Each failing test, and the first line of each failure (the log has the seeds).
        grep -a -E '^test .* \.\.\. FAILED$|^timed out after' "$log" | sed 's/^/    /'
        grep -a -A1 -E "panicked at (tests|src)/" "$log" | grep -a -v -E 'panicked at|^--$' | cut -c1-200 |
            head -n 6 | sed 's/^/      /'
    fi
done
echo "$n runs, $failed failed"
[ "$failed" -eq 0 ]
