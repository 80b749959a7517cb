#!/bin/sh
# tests/aarch64_test.sh BACHESS_AARCH64 CROSS_TESTS LINUX_BACHESS WORK_DIR — the
# aarch64 build under Debian's qemu-user (the build for ARM boards and Android):
#   - it is a static binary and starts under qemu-aarch64 as one (no sysroot);
#   - the bench's node count equals the Linux x86-64 build's;
#   - the evaluator's tests (tests/test_nnue.c and
#     tests/test_nnue_king_buckets.c: NEON against the portable code) and
#     the perft tests (tests/test_perft.c, light depths) pass, run by
#     tests/cross/runner.c;
#   - the perft suite (data/perft.epd, 267 positions) to depth 4 through the
#     command line. Its full depths take 2 min natively and about ten times
#     that under qemu: `scripts/perft-suite.sh` with the wrapper below does it.
set -u
engine=$(realpath "${1:?usage: $0 BACHESS_AARCH64 CROSS_TESTS LINUX_BACHESS WORK_DIR}")
tests=$(realpath "${2:?}")
linux=$(realpath "${3:?}")
work=${4:?}
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$work"
passed=0 failed=0
check() { # OK WHAT
    if [ "$1" = 0 ]; then echo "ok   $2"; passed=$((passed + 1)); else echo "FAIL $2"; failed=$((failed + 1)); fi
}
nodes() { "$@" bench 2>&1 | tail -n 1 | sed -n 's/^\([0-9]*\) nodes.*/\1/p'; }

file "$engine" | grep -q 'ARM aarch64.*statically linked'
check $? "$(basename "$engine"): an aarch64 executable, statically linked"

want=$(nodes "$linux") got=$(nodes qemu-aarch64 "$engine")
[ -n "$got" ] && [ "$got" = "$want" ]
check $? "qemu-aarch64 $(basename "$engine") bench: $got nodes, the x86-64 build's $want"

BACHESS_DATA=data BACHESS_TEST_LIGHT=1 qemu-aarch64 "$tests" >"$work/cross-tests.log" 2>&1
check $? "tests/test_nnue.c, test_nnue_king_buckets.c and test_perft.c under qemu: $(tail -n 1 "$work/cross-tests.log")"
grep -q '^vector code: NEON' "$work/cross-tests.log"
check $? "the evaluator's tests ran the NEON code"

# perft-suite.sh runs an executable file: a script that runs the engine
# under qemu (named apart from the engine, which may be in WORK_DIR too).
printf '#!/bin/sh\nexec qemu-aarch64 %s "$@"\n' "$engine" >"$work/under-qemu"
chmod +x "$work/under-qemu"
scripts/perft-suite.sh "$work/under-qemu" data/perft.epd 4 >"$work/perft.log" 2>&1
check $? "the perft suite to depth 4: $(tail -n 1 "$work/perft.log")"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
