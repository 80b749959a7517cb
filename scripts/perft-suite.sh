#!/usr/bin/env bash
# perft-suite.sh BINARY EPDFILE [full|DEPTH] — checks a move generator
# against an EPD perft file.
#
# Each line of EPDFILE is `FEN ;D1 n ;D2 n ... ;Dk n`. For every line the
# script runs `BINARY perft D FEN` once, at the deepest depth the line lists
# ("full", the default) or at min(DEPTH, deepest listed), and compares the
# node count the binary prints (`nodes N ...`) with the listed one. It prints
# one line per position, every failure with its FEN, depth, expected and
# actual count, then `N passed, N failed`. Exits 1 if any position failed,
# 2 on a usage error.
set -uo pipefail

usage() {
    echo "usage: $0 BINARY EPDFILE [full|DEPTH]" >&2
    exit 2
}
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
BINARY=$1
EPD=$2
LIMIT=${3:-full}
[ -x "$BINARY" ] || { echo "error: $BINARY is not an executable" >&2; exit 2; }
[ -r "$EPD" ] || { echo "error: cannot read $EPD" >&2; exit 2; }
case $LIMIT in
    full) MAX=0 ;;
    *[!0-9]* | "" | 0) usage ;;
    *) MAX=$LIMIT ;;
esac

now_ms() { date +%s%3N; }

# One record per position: line number, depth to run, expected count, FEN
# (or "bad" when the line has no usable ;Dn fields).
records=$(awk -v max="$MAX" '
    { sub(/\r$/, "") }
    /^[ \t]*$/ || /^#/ { next }
    {
        n = split($0, part, ";")
        fen = part[1]; sub(/^[ \t]+/, "", fen); sub(/[ \t]+$/, "", fen)
        deepest = 0; delete count
        for (i = 2; i <= n; i++) {
            if (split(part[i], f, " ") == 2 && f[1] ~ /^D[0-9]+$/ && f[2] ~ /^[0-9]+$/) {
                d = substr(f[1], 2) + 0
                count[d] = f[2]
                if (d > deepest) deepest = d
            }
        }
        depth = (max > 0 && max < deepest) ? max : deepest
        if (depth == 0 || !(depth in count)) { print NR "\tbad\t0\t" fen; next }
        print NR "\t" depth "\t" count[depth] "\t" fen
    }' "$EPD")

total=$(printf '%s\n' "$records" | grep -c . || true)
if [ "$total" -eq 0 ]; then
    echo "error: no positions in $EPD" >&2
    exit 2
fi

passed=0 failed=0 index=0
start=$(now_ms)
while IFS=$'\t' read -r line depth expected fen; do
    index=$((index + 1))
    tag=$(printf '[%*d/%d] %s:%d' "${#total}" "$index" "$total" "$EPD" "$line")
    if [ "$depth" = bad ]; then
        echo "$tag FAIL: no ;Dn node counts on this line"
        failed=$((failed + 1))
        continue
    fi
    t0=$(now_ms)
    # shellcheck disable=SC2086 # the FEN goes to the binary as separate words
    output=$("$BINARY" perft "$depth" $fen </dev/null 2>&1)
    code=$?
    t1=$(now_ms)
    got=$(printf '%s\n' "$output" | awk '$1 == "nodes" { print $2; exit }')
    if [ $code -eq 0 ] && [ "$got" = "$expected" ]; then
        passed=$((passed + 1))
        printf '%s ok   D%s %s (%d ms)\n' "$tag" "$depth" "$expected" $((t1 - t0))
    else
        failed=$((failed + 1))
        [ -n "$got" ] || got="no count (exit $code: $(printf '%s' "$output" | head -c 200 | tr '\n' ' '))"
        printf '%s FAIL perft %s of "%s": expected %s, got %s\n' "$tag" "$depth" "$fen" "$expected" "$got"
    fi
done <<<"$records"

elapsed=$(( $(now_ms) - start ))
echo "$passed passed, $failed failed ($(printf '%d.%03d' $((elapsed / 1000)) $((elapsed % 1000))) s)"
[ "$failed" -eq 0 ]
