#!/usr/bin/env bash
# scripts/soak.sh — the long soak: thousands of games on every platform,
# every one of them checked, nothing lost.
#
#   scripts/soak.sh ENGINE RESULTS_DIR
#
#   ENGINE       the bachess binary (the Linux build)
#   RESULTS_DIR  where each part leaves its PGN, its runner's output and the
#                checker's verdict; soak.md there is the table of the run
#
# The parts, one after another (SOAK_PARTS="uci xboard wine arm" chooses):
#   uci     SOAK_GAMES (1000) games at SOAK_TC (1+0.01) in fastchess,
#           concurrency 2: bachess with Threads 2 against bachess with
#           Threads 1 (every game mixes both); each engine's Hash changes
#           before every game (scripts/soak-engine.sh, sizes SOAK_HASH_SIZES)
#   xboard  SOAK_XBOARD_GAMES (200) games at SOAK_XBOARD_TC (1+0.01) under a
#           real XBoard, headless (scripts/xboard-match.sh), bachess against
#           a second bachess process, both speaking CECP, no pondering
#   wine    SOAK_WINE_GAMES (100) games at SOAK_WINE_TC (2+0.02) in
#           fastchess, one at a time: bachess.exe under wine, its Hash
#           changing before every game, against the Linux build
#   arm     `bench` of the ARM64 build under qemu-aarch64, which must give
#           the Linux build's node count, then SOAK_ARM_GAMES (20) games at
#           SOAK_ARM_NODES (10000) nodes a move in fastchess against the
#           Linux build (SOAK_ARM_TC, 60+0.6, only as a safety clock)
#
# Every game is checked by scripts/soak-check.py, from its PGN and the
# runner's output: no crash or disconnect, no illegal move, no loss on time
# or forfeit, no stall, no false claim, no unfinished game, and every game
# played. Exit status 0 when every part is clean; 1 otherwise, after the
# first bad game of each failing part is named (its PGN, its place in the
# file, and why); 2 for a usage error or a missing tool.
#
# Environment:
#   FASTCHESS    fastchess (default: fastchess on the PATH); it is built by
#                hand outside this repository (scripts/match.sh's header)
#   WINDOWS_EXE  bachess.exe (default build/cross/windows/bachess.exe)
#   AARCH64_EXE  bachess-aarch64 (default build/cross/aarch64/bachess-aarch64)
#   WINEPREFIX   wine's prefix (default RESULTS_DIR/wine, made on first use)
#   SOAK_GAMES, SOAK_XBOARD_GAMES, SOAK_WINE_GAMES, SOAK_ARM_GAMES, SOAK_ARM_NODES,
#   SOAK_TC, SOAK_XBOARD_TC, SOAK_WINE_TC, SOAK_ARM_TC, SOAK_HASH_SIZES (16,1,64,256),
#   SOAK_WINE_CONCURRENCY (1), SOAK_PARTS   as above
# `make soak` builds the three binaries with the Makefile's own targets
# first (docs/testing.md, "The soak").
set -u

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 2; }
[ $# = 2 ] && [ -x "$1" ] || usage
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
ENGINE=$(realpath "$1")
mkdir -p "$2" && OUT=$(cd "$2" && pwd) || exit 2

PARTS=${SOAK_PARTS:-uci xboard wine arm}
UCI_GAMES=${SOAK_GAMES:-1000} UCI_TC=${SOAK_TC:-1+0.01}
XBOARD_GAMES=${SOAK_XBOARD_GAMES:-200} XBOARD_TC=${SOAK_XBOARD_TC:-1+0.01}
WINE_GAMES=${SOAK_WINE_GAMES:-100} WINE_TC=${SOAK_WINE_TC:-2+0.02} WINE_CONCURRENCY=${SOAK_WINE_CONCURRENCY:-1}
ARM_GAMES=${SOAK_ARM_GAMES:-20} ARM_NODES=${SOAK_ARM_NODES:-10000} ARM_TC=${SOAK_ARM_TC:-60+0.6}
HASH_SIZES=${SOAK_HASH_SIZES:-16,1,64,256}
WINDOWS_EXE=$(realpath -m "${WINDOWS_EXE:-$TOP/build/cross/windows/bachess.exe}")
AARCH64_EXE=$(realpath -m "${AARCH64_EXE:-$TOP/build/cross/aarch64/bachess-aarch64}")
FASTCHESS=${FASTCHESS:-$(command -v fastchess || echo fastchess)}
export FASTCHESS

die() { echo "soak: $*" >&2; exit 2; }
for part in $PARTS; do
    case $part in uci | xboard | wine | arm) ;; *) die "unknown part '$part' (uci xboard wine arm)" ;; esac
done
for n in "$UCI_GAMES" "$XBOARD_GAMES" "$WINE_GAMES" "$ARM_GAMES" "$ARM_NODES"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "game and node counts must be positive numbers, not '$n'"
done
[[ $HASH_SIZES =~ ^[0-9]+(,[0-9]+)*$ ]] || die "SOAK_HASH_SIZES: sizes in MB separated by commas"
needs() { # PART TOOL...
    local part=$1 tool
    shift
    [[ " $PARTS " == *" $part "* ]] || return 0
    for tool in "$@"; do
        [ -x "$tool" ] || command -v "$tool" >/dev/null 2>&1 || die "$part: $tool is missing"
    done
}
needs uci "$FASTCHESS"
needs xboard xvfb-run /usr/games/xboard
needs wine "$FASTCHESS" wine "$WINDOWS_EXE"
needs arm "$FASTCHESS" qemu-aarch64 "$AARCH64_EXE"

# The Hash sizes the other engine of a match goes through: the same sizes
# from the second on, so that the two tables differ in most games.
rotated_sizes() { local first=${HASH_SIZES%%,*}; [ "$first" = "$HASH_SIZES" ] && echo "$first" || echo "${HASH_SIZES#*,},$first"; }
# An even count, as fastchess plays every opening with both colours.
even() { echo $((($1 + 1) / 2 * 2)); }

SUMMARY=$OUT/soak.md
failed=0
{
    echo "| part | games | crash | illegal | time | stall | claim | unfinished | runner | seconds | load | verdict |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$SUMMARY"

# The machine's load average over the last minute: a part's time losses
# read differently on a machine busy with other work.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -; }

# check PART START PGN GAMES OUTPUT...: the checker's verdict on a part
# begun at START (seconds), kept in PART.check and as a row of soak.md with
# its wall time and the load average when it began and ended.
check() {
    local part=$1 seconds=$(($(date +%s) - $2)) pgn=$3 games=$4 verdict counts
    shift 4
    local outputs=()
    for f in "$@"; do [ -f "$f" ] && outputs+=(--output "$f"); done
    if [ -f "$pgn" ]; then
        python3 "$HERE/soak-check.py" --games "$games" "${outputs[@]}" "$pgn" >"$OUT/$part.check" 2>&1
    else
        echo "soak-check: FAIL: first bad game: $pgn: no PGN written" >"$OUT/$part.check"
    fi
    if grep -q '^soak-check: ok' "$OUT/$part.check"; then verdict=ok; else verdict=FAIL failed=1; fi
    counts=$(sed -n 's/^soak-check: .*: \([0-9]*\) games; crash \([0-9]*\), illegal \([0-9]*\), time \([0-9]*\), stall \([0-9]*\), claim \([0-9]*\), unfinished \([0-9]*\), runner \([0-9]*\)$/\1 | \2 | \3 | \4 | \5 | \6 | \7 | \8/p' "$OUT/$part.check")
    echo "| $part | ${counts:-0 | - | - | - | - | - | - | -} | $seconds | $start_load–$(load) | $verdict |" >>"$SUMMARY"
    sed "s/^/soak: $part: /" "$OUT/$part.check"
}

run_uci() {
    local games start start_load
    games=$(even "$UCI_GAMES")
    echo "soak: uci: $games games at $UCI_TC, Threads 2 vs Threads 1, Hash $HASH_SIZES between games"
    start=$(date +%s) start_load=$(load)
    "$HERE/match.sh" --runner fastchess --pgn "$OUT/uci.pgn" --test-option Threads=2 \
        "$HERE/soak-engine.sh $HASH_SIZES $ENGINE" "bachess:$HERE/soak-engine.sh $(rotated_sizes) $ENGINE" \
        "$games" "$UCI_TC" 2 >"$OUT/uci.out" 2>&1
    check uci "$start" "$OUT/uci.pgn" "$games" "$OUT/uci.out" "$OUT/uci.pgn.log"
}

run_xboard() {
    local start start_load base inc
    [[ $XBOARD_TC =~ ^([0-9]+)\+([0-9.]+)$ ]] || die "SOAK_XBOARD_TC must be base+increment in seconds"
    base=${BASH_REMATCH[1]} inc=${BASH_REMATCH[2]}
    echo "soak: xboard: $XBOARD_GAMES games at $XBOARD_TC under XBoard, bachess vs bachess (CECP)"
    # The opponent from a directory of its own: XBoard starts two processes from two paths.
    mkdir -p "$OUT/xboard-second" && cp "$ENGINE" "$OUT/xboard-second/bachess"
    start=$(date +%s) start_load=$(load)
    XB_TC="$((base / 60)):$(printf '%02d' $((base % 60)))" XB_INC=$inc XB_PONDER=false XB_ANALYSIS=0 \
        XB_OPPONENT="$OUT/xboard-second/bachess" \
        "$HERE/xboard-match.sh" "$ENGINE" "$XBOARD_GAMES" "$OUT/xboard" >"$OUT/xboard.out" 2>&1
    cp "$OUT/xboard/games.pgn" "$OUT/xboard.pgn" 2>/dev/null || rm -f "$OUT/xboard.pgn"
    check xboard "$start" "$OUT/xboard.pgn" "$XBOARD_GAMES" "$OUT/xboard.out"
}

run_wine() {
    local games start start_load
    games=$(even "$WINE_GAMES")
    export WINEPREFIX=${WINEPREFIX:-$OUT/wine} WINEDEBUG=-all
    echo "soak: wine: $games games at $WINE_TC, $(basename "$WINDOWS_EXE") under wine vs the Linux build"
    # The prefix made or brought up to date first, without Mono and Gecko,
    # whose installers would wait for an answer (as make windows-xboard-match).
    WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init >"$OUT/wine-boot.out" 2>&1 && wineserver --wait
    start=$(date +%s) start_load=$(load)
    "$HERE/match.sh" --runner fastchess --pgn "$OUT/wine.pgn" --name bachess.exe \
        "$HERE/soak-engine.sh $HASH_SIZES wine $WINDOWS_EXE" "bachess:$ENGINE" \
        "$games" "$WINE_TC" "$WINE_CONCURRENCY" >"$OUT/wine.out" 2>&1
    check wine "$start" "$OUT/wine.pgn" "$games" "$OUT/wine.out" "$OUT/wine.pgn.log"
}

bench_nodes() { "$@" bench 2>&1 | tail -n 1 | sed -n 's/^\([0-9]*\) nodes.*/\1/p'; }

run_arm() {
    local games start start_load want got
    games=$(even "$ARM_GAMES")
    echo "soak: arm: bench under qemu-aarch64, then $games games at $ARM_NODES nodes a move"
    start=$(date +%s) start_load=$(load)
    want=$(bench_nodes "$ENGINE") got=$(bench_nodes qemu-aarch64 "$AARCH64_EXE")
    echo "bench: $(basename "$AARCH64_EXE") under qemu-aarch64 ${got:-none}, the Linux build ${want:-none}" \
        | tee "$OUT/arm-bench.log" | sed 's/^/soak: arm: /'
    if [ -z "$got" ] || [ "$got" != "$want" ]; then
        echo "| arm bench | ${got:-none} nodes, not ${want:-none} | | | | | | | | $(($(date +%s) - start)) | $start_load–$(load) | FAIL |" >>"$SUMMARY"
        echo "soak: arm: FAIL: bench under qemu-aarch64 gave ${got:-no count}, the Linux build $want"
        failed=1
    else
        echo "| arm bench | $got nodes, the Linux build's | | | | | | | | $(($(date +%s) - start)) | $start_load–$(load) | ok |" >>"$SUMMARY"
    fi
    start=$(date +%s) start_load=$(load)
    "$HERE/match.sh" --runner fastchess --pgn "$OUT/arm.pgn" --name bachess-aarch64 --nodes "$ARM_NODES" \
        "qemu-aarch64 $AARCH64_EXE" "bachess:$ENGINE" "$games" "$ARM_TC" 2 >"$OUT/arm.out" 2>&1
    check arm "$start" "$OUT/arm.pgn" "$games" "$OUT/arm.out" "$OUT/arm.pgn.log"
}

echo "soak: $("$ENGINE" --version 2>/dev/null | head -n 1); results in $OUT"
soak_start=$(date +%s)
for part in $PARTS; do "run_$part"; done
echo
cat "$SUMMARY"
echo
if [ "$failed" != 0 ]; then
    echo "soak: FAIL after $(($(date +%s) - soak_start)) s: the first bad game of each failing part:"
    grep -h '^soak-check: FAIL' "$OUT"/*.check | sed 's/^soak-check: FAIL: /soak:   /'
    exit 1
fi
echo "soak: ok after $(($(date +%s) - soak_start)) s: every game clean"
