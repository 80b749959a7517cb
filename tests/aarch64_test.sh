#!/bin/sh
# tests/aarch64_test.sh BACHESS_AARCH64 CROSS_TESTS LINUX_BACHESS WORK_DIR — the
# aarch64 build under Debian's qemu-user (the build for ARM boards and Android):
#   - it is a static binary and starts under qemu-aarch64 as one (no sysroot);
#   - the bench's node count equals the Linux x86-64 build's;
#   - the evaluator's tests (tests/test_nnue.c and
#     tests/test_nnue_king_buckets.c: NEON against the portable code) and
#     the perft tests (tests/test_perft.c, light depths: every position of
#     data/perft.epd at every depth up to 4, Marcel's suite up to 3) pass,
#     run by tests/cross/runner.c;
#   - `perft` through the command line (Kiwipete, depth 4).
# (The perft suite through the command line, one qemu process a position,
# is not run here: test_perft.c above checks the same 267 positions at every
# depth up to 4 in one process, and the command's own code is the native
# build's, checked by `make perft-counts`. Its full depths take 2 min
# natively and about ten times that under qemu:
# `scripts/perft-suite.sh WRAPPER data/perft.epd` with a wrapper script that
# runs the engine under qemu-aarch64 does it.)
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

kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# shellcheck disable=SC2086 # the FEN goes to the engine as separate words
got=$(qemu-aarch64 "$engine" perft 4 $kiwipete 2>&1 | sed -n 's/^nodes \([0-9]*\) .*/\1/p')
[ "$got" = 4085603 ]
check $? "perft 4 of Kiwipete through the command line: ${got:-no count} nodes (4085603 published)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
