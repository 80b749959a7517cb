#!/bin/sh
# tests/check_deps_test.sh — scripts/check-deps.sh passes the tree, and
# fails on an include circle planted in a copy of it: engine_book.c made to
# include engine.h while engine.c includes engine_book.h. Both are in the
# engine layer, so no layer rule is broken: only the circle check can see it.
cd "$(dirname "$0")/.." || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
failures=0

mkdir -p "$work/scripts"
cp -r src "$work/src"
cp scripts/check-deps.sh "$work/scripts/"

if "$work/scripts/check-deps.sh" >"$work/clean.log" 2>&1; then
    echo "ok: the tree passes"
else
    echo "FAIL: the unchanged tree is refused:"; cat "$work/clean.log"
    failures=$((failures + 1))
fi

grep -q '#include "engine_book.h"' "$work/src/engine.c" || { echo "FAIL: engine.c no longer includes engine_book.h; plant another circle"; exit 1; }
echo '#include "engine.h"' >>"$work/src/engine_book.c"
if "$work/scripts/check-deps.sh" >"$work/circle.log" 2>&1; then
    echo "FAIL: a planted circle engine <-> engine_book passes:"; cat "$work/circle.log"
    failures=$((failures + 1))
elif grep -q 'include circle through.*engine engine_book' "$work/circle.log"; then
    echo "ok: a planted circle fails: $(grep 'circle' "$work/circle.log")"
else
    echo "FAIL: the planted circle failed without naming it:"; cat "$work/circle.log"
    failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] && echo "check-deps: both cases passed" || exit 1
