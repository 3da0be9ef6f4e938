#!/usr/bin/env bash
# Refuses a golden change that no commit message explains.
#
# Goldens are rewritten by `BLESS=1` (fixtures/golden, fixtures/dialects, fixtures/cli's corpus
# tables, fixtures/foreign's tables of differences). Every commit that changes one must say why in
# its message, on a line that names them: "Goldens: <why>" (any line mentioning "golden" or
# "fixture" counts). Checked: the non-merge commits since this script was added (a merge is
# judged by the commits it brings in). Commits whose parent is not in the clone (a shallow clone's
# boundary) are skipped, so a fresh or shallow clone never fails for history it does not have.
#
# Usage: .ci/golden_changes.sh [<revision range>]   (default: since this script's first commit)
set -euo pipefail
cd "$(dirname "$0")/.."

GOLDENS='^fixtures/(golden|dialects|foreign)/|^fixtures/cli/check_corpus_'

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

checked=0
bad=()
for c in $(git rev-list --no-merges "$range"); do
    # A shallow clone's boundary commit has no parent here: its diff would be the whole tree.
    git cat-file -e "$c^" 2>/dev/null || continue
    changed=$(git diff-tree --no-commit-id --name-only -r "$c^" "$c" | grep -E "$GOLDENS" || true)
    [ -n "$changed" ] || continue
    checked=$((checked + 1))
    if ! git log -1 --format=%B "$c" | grep -qiE 'golden|fixture'; then
        n=$(printf '%s\n' "$changed" | wc -l)
        bad+=("$(git log -1 --format='%h %s' "$c") ($n golden file(s), e.g. $(printf '%s\n' "$changed" | head -n 1))")
    fi
done

if [ ${#bad[@]} -gt 0 ]; then
    echo "golden changes without a reason: each commit below changes goldens and its message never says why"
    echo "(add a line such as 'Goldens: <what changed and why>'; amend or reword the commit):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "golden changes: $checked commit(s) change goldens, each says why"
