#!/bin/sh
# usage: symbols.sh [--partial] NM HEADER_DIR LIBRARY...
# Every exported (global, defined) symbol of each library must be a function
# declared MK_API in the public headers, and named mk_*; every MK_API
# declaration must be exported by exactly one library (its shared and its
# static build alike). The headers are read at each run, so new public
# functions need no list here. --partial (a build without every layer):
# declarations of the missing layers are not looked for.
set -eu
partial=0
if [ "$1" = --partial ]; then partial=1; shift; fi
nm=$1; headers=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0

# Public declarations: the word before the first '(' of each MK_API
# declaration (a function), or before ';', '[' or '=' (a variable); a
# declaration may span lines.
cat "$headers"/*.h | awk '
/^[[:space:]]*MK_API[[:space:]]/ {
    buf = $0
    while (buf !~ /[(;]/ && (getline line) > 0)
        buf = buf " " line
    sub(/[(;=\[].*/, "", buf)
    n = split(buf, w, /[^A-Za-z0-9_]+/)
    for (i = n; i > 0; i--)
        if (w[i] != "") { print w[i]; break }
}' | sort -u >"$tmp/declared"
[ -s "$tmp/declared" ] || { echo "symbols: no MK_API declaration found in $headers"; exit 1; }

: >"$tmp/all"
for lib in "$@"; do
    # Global defined symbols: uppercase type letters (weak ones included).
    "$nm" -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /^[A-Z]$/ && $2 != "U" { print $3 }' |
        grep -vE '^(_init|_fini|_edata|_end|__bss_start)$' | sort -u >"$tmp/exported"
    bad=$(grep -vxF -f "$tmp/declared" "$tmp/exported" || true)
    if [ -n "$bad" ]; then
        echo "symbols: $lib exports names that are not MK_API declarations:"
        echo "$bad" | sed 's/^/  /'
        status=1
    fi
    notmk=$(grep -v '^mk_' "$tmp/exported" || true)
    if [ -n "$notmk" ]; then
        echo "symbols: $lib exports names without the mk_ prefix:"
        echo "$notmk" | sed 's/^/  /'
        status=1
    fi
    case $lib in
        *.a) cat "$tmp/exported" >>"$tmp/all" ;;
        *) sort "$tmp/exported" >"$tmp/shared_$(basename "$lib" | sed 's/\.so.*//')" ;;
    esac
    case $lib in *.a)
        shared="$tmp/shared_$(basename "$lib" .a)"
        cp "$tmp/exported" "$tmp/static_$(basename "$lib" .a)" ;;
    esac
    echo "symbols: $lib exports $(wc -l <"$tmp/exported") names"
done

# The shared and static build of each library export the same names.
for s in "$tmp"/static_*; do
    name=${s##*/static_}
    if [ -f "$tmp/shared_$name" ] && ! cmp -s "$s" "$tmp/shared_$name"; then
        echo "symbols: $name: static and shared libraries export different names:"
        diff "$s" "$tmp/shared_$name" | sed 's/^/  /'
        status=1
    fi
done

# Each declaration is exported by one library exactly (counted over the
# static libraries; the shared ones match them, checked above).
dup=$(sort "$tmp/all" | uniq -d)
if [ -n "$dup" ]; then
    echo "symbols: defined by more than one library:"
    echo "$dup" | sed 's/^/  /'
    status=1
fi
missing=$(sort -u "$tmp/all" | comm -23 "$tmp/declared" - )
if [ -n "$missing" ] && [ $partial -eq 0 ]; then
    echo "symbols: declared MK_API but exported by no library:"
    echo "$missing" | sed 's/^/  /'
    status=1
fi
if [ $status -eq 0 ] && [ $partial -eq 0 ]; then
    echo "symbols: $(wc -l <"$tmp/declared") public functions, all exported, nothing else"
fi
exit $status
