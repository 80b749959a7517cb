#!/bin/sh
# tests/make_deps_test.sh BUILD_DIR — the Makefile rebuilds what it must and
# nothing more (header dependencies and stamps), on the debug configuration (quickest to compile):
#   - after a full build, a second `make` compiles nothing;
#   - with src/board.h taken as changed (make -W, which touches no file), make
#     compiles exactly the sources that include it, directly or not, as the
#     compiler's own -MM lists them, and each without a warning;
#   - another VERSION rebuilds build_info.o, and only it;
#   - no target has two rules in the Makefile and the files it includes
#     (a second `debug: bachess-debug` once stood far below the first).
# The build goes to BUILD_DIR/make-deps.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: $0 BUILD_DIR}/make-deps
MAKE=${MAKE:-make}
cd "$top" || exit 2
fail=0

# The targets of the explicit rules: lines from column 0 of the form
# "TARGETS: ..." (not :=, ::, nor a target's own variable "T: VAR = ..."),
# the special targets (.PHONY, ...) aside; printed once per rule.
rule_targets() {
    awk '
      /^[^ \t#][^=#]*:([^=:]|$)/ {
          split($0, parts, ":")
          rest = substr($0, length(parts[1]) + 2)
          if (rest ~ /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*[:+?]?=/) next
          n = split(parts[1], targets, /[ \t]+/)
          for (i = 1; i <= n; i++)
              if (targets[i] != "" && targets[i] !~ /^\./) print targets[i]
      }' "$@"
}
makefiles=$(echo Makefile $(sed -n 's/^-\{0,1\}include[ \t]\{1,\}\([^$]*\)$/\1/p' Makefile))
twice=$(rule_targets $makefiles | sort | uniq -d | tr '\n' ' ')
if [ -n "$twice" ]; then
    echo "make-deps: FAIL: targets with two rules in $makefiles: $twice"
    fail=1
fi

compiled() { sed -n 's/.* -c \([^ ]*\.c\) -o .*/\1/p' "$1" | sort; }
run() { $MAKE --no-print-directory -j2 BUILD="$build" "$@" "$build/bachess-debug" 2>&1; }

run >"$build.log" || { cat "$build.log"; echo "make-deps: the debug build failed"; exit 1; }
run >"$build.log"
if [ -n "$(compiled "$build.log")" ]; then
    echo "make-deps: FAIL: a second make compiled again: $(compiled "$build.log" | tr '\n' ' ')"
    fail=1
fi

run -W src/board.h >"$build.log"
# The sources of the build: one object each under $build/debug/src.
for o in $(find "$build/debug/src" -name '*.o'); do
    s=${o#"$build/debug/"}
    s=${s%.o}.c
    gcc -std=gnu11 -Isrc -MM "$s" | tr ' \\' '\n\n' | grep -qx 'src/board.h' && echo "$s"
done | sort >"$build.expected"
compiled "$build.log" >"$build.got"
if ! cmp -s "$build.expected" "$build.got"; then
    echo "make-deps: FAIL: with src/board.h changed, compiled (<) versus including it (>):"
    diff "$build.got" "$build.expected"
    fail=1
elif grep -q 'warning' "$build.log"; then
    echo "make-deps: FAIL: warnings:"; grep 'warning' "$build.log"; fail=1
else
    echo "make-deps: src/board.h: the $(wc -l <"$build.got") sources that include it recompiled, no other, no warning"
fi

run VERSION=make-deps-test >"$build.log"
if [ "$(compiled "$build.log")" != "src/build_info.c" ]; then
    echo "make-deps: FAIL: another VERSION compiled: $(compiled "$build.log" | tr '\n' ' ')"
    fail=1
else
    echo "make-deps: another VERSION recompiled src/build_info.c alone"
fi
run >/dev/null
[ $fail = 0 ] && echo "make-deps: ok"
exit $fail
