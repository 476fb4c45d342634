# Helpers for the CLI tests: run the tool, check exit codes and output.
# Sourced by each tests/cli/*.sh with TOOL, SRC and TMP set.
fails=0
# expect CODE CMD...: runs the tool with CMD, keeps stdout/stderr in $out/$err
expect() {
    local want=$1; shift
    out=$("$TOOL" "$@" 2>"$TMP/stderr"); code=$?
    err=$(cat "$TMP/stderr")
    if [ "$code" != "$want" ]; then
        echo "FAIL: morphkit $* exited $code, expected $want"; echo "$out" | head -20; echo "$err" | head -5
        fails=$((fails + 1))
    fi
}
has() { # has TEXT NEEDLE
    if ! printf '%s' "$1" | grep -qF -- "$2"; then
        echo "FAIL: output does not contain '$2':"; printf '%s\n' "$1" | head -20
        fails=$((fails + 1))
    fi
}
finish() {
    if [ "$fails" -ne 0 ]; then echo "$fails checks failed"; exit 1; fi
    echo "all checks passed"
}
