#!/bin/bash
# The man page (scripts/gen_man.sh) and bash completion (tools/shell) are
# made from the tool's --help texts: check they cover every command and work.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight

sh "$SRC/scripts/gen_man.sh" "$TOOL" 1.2.3 "$TMP/morphkit.1" || { echo "FAIL: gen_man.sh"; fails=$((fails + 1)); }
man=$(cat "$TMP/morphkit.1")
has "$man" '.TH MORPHKIT 1 "" "morphkit 1.2.3"'
for cmd in $("$TOOL" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}'); do
    has "$man" ".SS $cmd"
    has "$man" "usage: morphkit $cmd"
done
has "$man" "\\-\\-strict"            # option lines start with '-' : escaped
if command -v groff >/dev/null; then
    warnings=$(groff -man -ww -z "$TMP/morphkit.1" 2>&1)
    [ -z "$warnings" ] || { echo "FAIL: groff warns: $warnings"; fails=$((fails + 1)); }
fi

# completion: simulate bash's COMP_WORDS and read COMPREPLY
. "$SRC/tools/shell/morphkit.bash"
complete_words() { # complete_words WORD...: the last word is being completed
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    COMP_WORDS[0]=$TOOL
    _morphkit
    printf '%s\n' "${COMPREPLY[@]}"
}
has "$(complete_words morphkit val)" "validate"
has "$(complete_words morphkit "")" "preview"
has "$(complete_words morphkit help sa)" "sample"
has "$(complete_words morphkit preview --an)" "--anim"
has "$(complete_words morphkit validate --st)" "--strict"
has "$(complete_words morphkit view --wa)" "--watch"
has "$(complete_words morphkit sample --interpolation sm)" "smooth"
anims=$(complete_words morphkit preview "$K" --anim "")
has "$anims" "Attack"
has "$anims" "Walk"
[ "$(complete_words morphkit preview "$K" --anim W)" = "Walk" ] || { echo "FAIL: --anim W completes to $(complete_words morphkit preview "$K" --anim W)"; fails=$((fails + 1)); }
finish
