#!/usr/bin/env bash
# Refuses a golden change that no commit message explains.
#
# Goldens are what `BLESS=1` rewrites: fixtures/golden, fixtures/dialects, fixtures/foreign's
# tables, fixtures/cli's tables (check_corpus_*, tokens_*, check_order.txt) and
# fixtures/provider_rejections/verdicts.json. The rule covers every file under fixtures/, so a new
# blessed file is covered the day it is added: a commit that changes one must carry a line
# starting with `Goldens:` followed by what changed and why (`Goldens: <what changed and why>`).
# Merely mentioning goldens ("goldens unchanged") does not count.
#
# The rule holds for the commits after BOUNDARY (eba6861, the main branch when the rule took this
# form). The commits up to it were written under the earlier rule, which is what they are checked
# against: a change to fixtures/golden, fixtures/dialects, fixtures/foreign or
# fixtures/cli/check_corpus_* with "golden" or "fixture" anywhere in the message. Where the
# boundary is not in the clone (a shallow clone past it), every commit is judged by the rule.
#
# Checked: the non-merge commits since this script was added (a merge is judged by the commits
# it brings in). Commits whose parent is not in the clone (a shallow clone's boundary) are
# skipped, so a fresh or shallow clone never fails for history it does not have.
#
# Usage: .ci/golden_changes.sh [<revision range>]   (default: since this script's first commit)
#        .ci/golden_changes.sh --self-test          (the rule on a scratch repository)
set -euo pipefail
cd "$(dirname "$0")/.."

BOUNDARY="${GOLDENS_BOUNDARY:-eba6861051bc61dc99de6252a293875c1ba3018f}"
GOLDENS='^fixtures/'
EARLIER_GOLDENS='^fixtures/(golden|dialects|foreign)/|^fixtures/cli/check_corpus_'

if [ "${1:-}" = --self-test ]; then
    script="$PWD/.ci/golden_changes.sh"
    repo="$(mktemp -d)"
    trap 'rm -rf "$repo"' EXIT
    cd "$repo"
    git init -q .
    git config user.email test@example.com
    git config user.name test
    mkdir -p .ci fixtures/golden fixtures/cli fixtures/provider_rejections
    cp "$script" .ci/golden_changes.sh
    git add .ci && git commit -q -m "the check"
    echo 1 > fixtures/golden/a.json && git add fixtures && git commit -q -m "a golden changed"
    boundary=$(git rev-parse HEAD)
    expect() { # <want exit status> <what>
        local got=0
        GOLDENS_BOUNDARY="$boundary" .ci/golden_changes.sh > out.log 2>&1 || got=$?
        if [ "$got" != "$1" ]; then
            echo "golden changes self-test: $2: exit $got, want $1"
            cat out.log
            exit 1
        fi
    }
    expect 0 "a change before the boundary under the earlier rule"
    echo 1 > fixtures/cli/tokens_tools.txt && git add fixtures && git commit -q -m "tokens; goldens unchanged"
    expect 1 "a fixtures/cli change whose message only mentions goldens"
    git commit -q --amend -m "tokens" -m "Goldens: tokens_tools.txt counts the new tool"
    expect 0 "the same change with a Goldens: line"
    echo 1 > fixtures/provider_rejections/verdicts.json && git add fixtures
    git commit -q -m "verdicts" -m "Goldens:"
    expect 1 "a verdicts.json change with an empty Goldens: line"
    git commit -q --amend -m "verdicts" -m "Goldens: openai-strict accepts the tool"
    expect 0 "the same change with a reason"
    echo "golden changes self-test: passed"
    exit 0
fi

if [ $# -ge 1 ]; then
    range="$1"
else
    base=$(git log --format=%H --diff-filter=A -- .ci/golden_changes.sh | tail -n 1)
    if [ -z "$base" ]; then
        echo "golden changes: this script is not committed yet; nothing to check"
        exit 0
    fi
    range="$base..HEAD"
fi
have_boundary=false
git cat-file -e "$BOUNDARY^{commit}" 2>/dev/null && have_boundary=true

checked=0
bad=()
for c in $(git rev-list --no-merges "$range"); do
    # A shallow clone's boundary commit has no parent here: its diff would be the whole tree.
    git cat-file -e "$c^" 2>/dev/null || continue
    if $have_boundary && git merge-base --is-ancestor "$c" "$BOUNDARY"; then
        pattern="$EARLIER_GOLDENS"
        reason=(-qiE 'golden|fixture')
    else
        pattern="$GOLDENS"
        reason=(-qE '^Goldens:[[:space:]]*[^[:space:]]')
    fi
    changed=$(git diff-tree --no-commit-id --name-only -r "$c^" "$c" | grep -E "$pattern" || true)
    [ -n "$changed" ] || continue
    checked=$((checked + 1))
    if ! git log -1 --format=%B "$c" | grep "${reason[@]}"; then
        n=$(printf '%s\n' "$changed" | wc -l)
        bad+=("$(git log -1 --format='%h %s' "$c") ($n golden file(s), e.g. $(printf '%s\n' "$changed" | head -n 1))")
    fi
done

if [ ${#bad[@]} -gt 0 ]; then
    echo "golden changes without a reason: each commit below changes files under fixtures/ and its"
    echo "message has no line 'Goldens: <what changed and why>'; amend or reword the commit:"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "golden changes: $checked commit(s) change goldens, each says why"
