#!/bin/bash
# The README and docs/ document the project from inside it: every relative
# link must name a file of the repository, and none may leave it.
set -u
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
fails=0
for md in "$src"/README.md "$src"/docs/*.md; do
    dir=$(dirname "$md")
    # [text](target) links, minus web links and in-page anchors
    while IFS= read -r target; do
        target=${target%%#*}
        [ -z "$target" ] && continue
        case $target in http://* | https://* | mailto:*) continue ;; esac
        full=$(realpath -m "$dir/$target")
        case $full in
        "$src"/*) ;;
        *) echo "FAIL: $md links outside the repository: $target"; fails=$((fails + 1)); continue ;;
        esac
        [ -e "$full" ] || { echo "FAIL: $md links to a missing file: $target"; fails=$((fails + 1)); }
    done < <(grep -o '\](\([^)]*\))' "$md" | sed 's/^](\(.*\))$/\1/')
done
# No document may send a user to the team's design notes.
if grep -n 'DESIGN\.md\|\.\./shared' "$src"/README.md "$src"/docs/*.md "$src"/include/morphkit/*.h; then
    echo "FAIL: a document points outside the project"; fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] && echo "all links ok" || exit 1
