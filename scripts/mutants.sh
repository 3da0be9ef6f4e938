#!/usr/bin/env bash
# Puts known bugs (mutants) into the code one at a time and runs the test binary that owns the
# code: each mutant must make a test fail. A mutant whose tests all pass survived, and the suite
# has a blind spot there.
#
#   scripts/mutants.sh            # every mutant
#   scripts/mutants.sh M3 M5      # the ones named
#   scripts/mutants.sh --list     # what each mutant is, and the tests that must kill it
#
# The mutants are applied to a copy of the committed tree (HEAD, `git archive`) in a temporary
# directory, one at a time, each reverted before the next; the working tree is never touched and
# the copy is removed at the end. It builds in `target/mutants/` (MUTANTS_TARGET_DIR to use
# another), never in `target/` itself: cargo names the copy's test binaries as the tree's, and a
# mutated binary left there would be taken as fresh by the next `cargo test` of the tree. The
# first run builds the dependencies there; later mutants rebuild only the crate and its tests. Every mutant's text must occur exactly once
# in its file; a mutant whose copy does not build is a failure of this list, not a kill.
# TOOLSCHEMA_CORPUS defaults to ../shared/corpus and must exist (the corpus tests would fail on
# every mutant without it); TOOLSCHEMA_REQUIRE_CORPUS=1 is set. A kill names the failing tests:
# read them, a test failing for another reason (a loaded machine, say) is no kill.
#
# Prints one line per mutant (killed, SURVIVED, or DID NOT BUILD) and exits 1 unless every
# mutant was killed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export TOOLSCHEMA_CORPUS="${TOOLSCHEMA_CORPUS:-$root/../shared/corpus}"
export TOOLSCHEMA_REQUIRE_CORPUS=1
if [ "${1:-}" != --list ] && [ ! -d "$TOOLSCHEMA_CORPUS/mcp" ]; then
    # Without it the corpus tests fail on every mutant, and each would look killed.
    echo "mutants: no corpus at $TOOLSCHEMA_CORPUS (set TOOLSCHEMA_CORPUS)" >&2
    exit 2
fi
export CARGO_TARGET_DIR="${MUTANTS_TARGET_DIR:-$root/target/mutants}"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
if [ "${1:-}" != --list ]; then
    git archive HEAD | tar -x -C "$copy"
fi
python3 - "$copy" "$@" <<'PY'
import subprocess, sys, time

copy, args = sys.argv[1], sys.argv[2:]

# (name, what it breaks, file, text, replacement, test commands: each a `cargo test` argument list)
MUTANTS = [
    ("M1", "restore keeps a null that stands for an absent property",
     "src/restore/mod.rs",
     "if rewrite::absent::stands_for_absent(p.null_is_absent, map.get(&p.name)) {",
     "if false && rewrite::absent::stands_for_absent(p.null_is_absent, map.get(&p.name)) {",
     [["--lib", "--", "restore::"], ["--test", "with_schemars", "--", "decode_laws::"]]),
    ("M2", "the canonical number writer drops the exponent's `+` (1e+21 written 1e21)",
     "src/canonical/number.rs",
     "out.extend_from_slice(buf.format_finite(f).as_bytes());",
     "out.extend_from_slice(buf.format_finite(f).replace(\"e+\", \"e\").as_bytes());",
     [["--lib", "--", "canonical::"]]),
    ("M3", "openai-strict leaves an object under array items open",
     "src/dialect/provider/object.rs",
     "            Style::NullType => {\n                out.insert(\"additionalProperties\".into(), Value::Bool(false));",
     "            Style::NullType if ptr.as_str().ends_with(\"/items\") => {}\n"
     "            Style::NullType => {\n                out.insert(\"additionalProperties\".into(), Value::Bool(false));",
     [["--test", "dialects", "--", "dialects::"]]),
    ("M4", "decode skips the moved checks of a scalar",
     "src/restore/de/mod.rs",
     "            _ => {\n                for c in &node.checks {",
     "            _ => {\n                for c in node.checks.iter().filter(|_| false) {",
     [["--test", "with_schemars", "--", "decode_laws::", "restore_laws::"]]),
    ("M5", "decode skips the presence rules (exactly one of, at least one of) of an object",
     "src/restore/de/mod.rs",
     "                for c in &node.checks {\n                    if !c.passes(v) {\n                        return Err(Stop::Fault);\n"
     "                    }\n                }\n                if dropping && preserves {",
     "                for c in &node.checks {\n                    if matches!(c, check::Check::Presence(_)) { continue; }\n"
     "                    if !c.passes(v) {\n                        return Err(Stop::Fault);\n"
     "                    }\n                }\n                if dropping && preserves {",
     [["--test", "with_schemars", "--", "restore::", "restore_laws::"]]),
    ("M6", "exact mode under anthropic-strict leaves a kept pattern unchecked on restore",
     "src/dialect/provider/typed.rs",
     "                        if self.p.check_kept_patterns\n",
     "                        if self.p.check_kept_patterns\n                            && !self.exact\n",
     [["--lib", "--", "anthropic_strict::"]]),
    ("M7", "restore reads \"exactly one of\" as \"at least one of\"",
     "src/restore/check.rs",
     "            holding.next().is_some() && holding.next().is_none()",
     "            holding.next().is_some()",
     [["--test", "with_schemars", "--", "restore::"]]),
    ("M8", "canonical keys sorted by UTF-8 bytes instead of UTF-16 code units",
     "src/canonical/mod.rs",
     "    if x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0) {",
     "    if false {",
     [["--lib", "--", "canonical::"]]),
    ("M9", "restore lets a string of the wrong shape through a format the code's reader enforces",
     "src/restore/check.rs",
     "(Check::Format(f), Value::String(s)) => f.accepts(s),",
     "(Check::Format(f), Value::String(s)) => true || f.accepts(s),",
     [["--test", "with_schemars", "--", "soundness::"]]),
    ("M10", "restore lets a repeated key of a map sent as entries through",
     "src/restore/rewrite/entries.rs",
     "                } else if into.contains_key(&key) {",
     "                } else if false && into.contains_key(&key) {",
     [["--lib", "--", "restore::"]]),
]

if args[:1] == ["--list"]:
    for name, what, path, _, _, commands in MUTANTS:
        tests = "; ".join("cargo test --all-features " + " ".join(c) for c in commands)
        print(f"{name}: {what} ({path})\n    killed by: {tests}")
    sys.exit(0)

chosen = [m for m in MUTANTS if not args or m[0] in args]
unknown = set(args) - {m[0] for m in MUTANTS}
if unknown:
    sys.exit(f"unknown mutants: {sorted(unknown)}")

results = []
for name, what, path, text, replacement, commands in chosen:
    file = f"{copy}/{path}"
    original = open(file).read()
    if original.count(text) != 1:
        print(f"{name}: DID NOT APPLY: its text occurs {original.count(text)} times in {path}", flush=True)
        results.append("broken")
        continue
    open(file, "w").write(original.replace(text, replacement))
    start = time.time()
    outcome = "survived"
    try:
        for command in commands:
            run = subprocess.run(["cargo", "test", "--all-features", *command], cwd=copy,
                                 capture_output=True, text=True)
            log = run.stdout + run.stderr
            if run.returncode == 0:
                continue
            if "test result: FAILED" in log or "panicked at" in log:
                failed = [l[len("test "):-len(" ... FAILED")] for l in log.splitlines()
                          if l.startswith("test ") and l.endswith(" ... FAILED")]
                outcome = "killed by " + (", ".join(failed) or " ".join(command))
            else:
                outcome = "broken"
                print(log[-3000:])
            break
    finally:
        open(file, "w").write(original)
    shown = {"survived": "SURVIVED", "broken": "DID NOT BUILD"}.get(outcome, outcome)
    print(f"{name}: {shown} ({what}; {time.time() - start:.0f} s)", flush=True)
    results.append("killed" if outcome.startswith("killed") else outcome)

print(f"{len(results)} mutants, {results.count('killed')} killed")
sys.exit(0 if results and all(r == "killed" for r in results) else 1)
PY
