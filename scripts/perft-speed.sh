#!/usr/bin/env bash
# perft-speed.sh [--counts] BACHESS — perft of bachess side by side with Stockfish.
#
# For each position (start position to depth 6, Kiwipete to depth 5) runs
# `BACHESS perft D FEN` and Stockfish's `go perft D`, RUNS times each in
# turn, and keeps the best (shortest) time of each. Prints both node counts,
# both nodes-per-second figures and the ratio bachess / Stockfish.
#
# The speed is information, never a verdict: the ratio depends on the machine
# and on what else runs on it (make bench-perft, also make perft-speed).
# The script exits non-zero only when the node counts disagree (with
# Stockfish's, or between two runs of bachess) or a program fails.
#
# --counts: the node counts alone (make perft-counts, part of make test): one
# run of each program per position, nothing timed, no speed printed.
#
# Timing: a monotonic clock (clock_gettime(CLOCK_MONOTONIC), read by a tiny C
# helper built on the fly) around the whole bachess process, start-up
# included; for Stockfish, from sending `go perft` (after `readyok`, so its
# start-up and network loading are excluded) to reading `Nodes searched:`.
# Both choices favour Stockfish.
#
# Environment: STOCKFISH (default /usr/games/stockfish, else stockfish on
# PATH), RUNS (default 3; 1 with --counts), CC (default cc). Needs no
# terminal and no stdin.
set -euo pipefail

COUNTS_ONLY=0
if [ "${1:-}" = --counts ]; then
    COUNTS_ONLY=1
    shift
fi
if [ $# -ne 1 ]; then
    echo "usage: $0 [--counts] BACHESS-BINARY" >&2
    exit 2
fi
BACHESS=$1
RUNS=${RUNS:-3}
[ "$COUNTS_ONLY" = 0 ] || RUNS=1
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[ -x "$STOCKFISH" ] || STOCKFISH=$(command -v stockfish || true)
if [ ! -x "$BACHESS" ]; then
    echo "error: $BACHESS is not an executable" >&2
    exit 2
fi
if [ -z "$STOCKFISH" ] || [ ! -x "$STOCKFISH" ]; then
    echo "error: stockfish not found (install the Debian package stockfish, or set STOCKFISH)" >&2
    exit 2
fi

NAMES=(startpos kiwipete)
DEPTHS=(6 5)
FENS=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")

WORK=$(mktemp -d)
SF_PID=""
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    # ${SF_PID:-}: bash unsets a coprocess's NAME_PID as soon as it has exited.
    if [ -n "${SF_PID:-}" ] && kill -0 "$SF_PID" 2>/dev/null; then
        kill "$SF_PID" 2>/dev/null || true
        wait "$SF_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The monotonic clock, in nanoseconds.
cat >"$WORK/now.c" <<'EOF'
#include <stdio.h>
#include <time.h>
int main(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
    return 0;
}
EOF
"${CC:-cc}" -O2 -o "$WORK/now" "$WORK/now.c"
now() { "$WORK/now"; }

# ---- Stockfish as a coprocess ---------------------------------------------
coproc SF { exec "$STOCKFISH" 2>&1; } # sets SF (fds) and SF_PID
SF_IN=${SF[1]}
SF_OUT=${SF[0]}

sf_send() { printf '%s\n' "$*" >&"$SF_IN"; }

# Reads Stockfish's output until a line starts with $1; sets LINE to it.
# The 600 s is a liveness bound only: Stockfish's slowest answer here, perft 5
# of Kiwipete, took at most 5.9 s (4 runs on 2 cores under stress-ng --cpu 2
# beside a ThreadSanitizer test), about 100 times less.
sf_expect() {
    local want=$1
    while IFS= read -r -t 600 LINE <&"$SF_OUT"; do
        LINE=${LINE%$'\r'}
        case $LINE in "$want"*) return 0 ;; esac
    done
    echo "error: no '$want' from stockfish (it exited or timed out)" >&2
    exit 1
}

sf_send uci
sf_expect uciok
sf_send isready
sf_expect readyok

# Runs one Stockfish perft; prints "NODES NANOSECONDS".
sf_perft() {
    local depth=$1 fen=$2
    sf_send "position fen $fen"
    sf_send isready
    sf_expect readyok
    local t0 t1
    t0=$(now)
    sf_send "go perft $depth"
    sf_expect "Nodes searched:"
    t1=$(now)
    echo "${LINE#Nodes searched: } $((t1 - t0))"
}

# Runs one bachess perft; prints "NODES NANOSECONDS".
bachess_perft() {
    local depth=$1 fen=$2 t0 t1 out
    t0=$(now)
    # shellcheck disable=SC2086 # the FEN is passed as separate words, as the CLI takes it
    out=$("$BACHESS" perft "$depth" $fen </dev/null)
    t1=$(now)
    local nodes
    nodes=$(printf '%s\n' "$out" | awk '$1 == "nodes" { print $2; exit }')
    if [ -z "$nodes" ]; then
        echo "error: no node count in the output of $BACHESS perft $depth $fen:" >&2
        printf '%s\n' "$out" >&2
        exit 1
    fi
    echo "$nodes $((t1 - t0))"
}

# ---- the comparison ------------------------------------------------------------
status=0
if [ "$COUNTS_ONLY" = 1 ]; then
    printf '%-9s %5s %11s %11s\n' position depth "nodes bach" "nodes sf"
else
    printf '%-9s %5s %11s %11s %9s %9s %12s %12s %6s\n' position depth "nodes bach" "nodes sf" "time bach" \
        "time sf" "nps bachess" "nps sf" ratio
fi
for i in "${!NAMES[@]}"; do
    name=${NAMES[$i]} depth=${DEPTHS[$i]} fen=${FENS[$i]}
    best_b="" best_s="" nodes_b="" nodes_s=""
    for ((run = 1; run <= RUNS; run++)); do
        result=$(bachess_perft "$depth" "$fen")
        read -r n t <<<"$result"
        if [ -n "$nodes_b" ] && [ "$n" != "$nodes_b" ]; then
            echo "FAIL: bachess counted $nodes_b nodes, then $n, on $name" >&2
            status=1
        fi
        nodes_b=$n
        if [ -z "$best_b" ] || [ "$t" -lt "$best_b" ]; then best_b=$t; fi

        result=$(sf_perft "$depth" "$fen")
        read -r n t <<<"$result"
        nodes_s=$n
        if [ -z "$best_s" ] || [ "$t" -lt "$best_s" ]; then best_s=$t; fi
    done
    if [ "$COUNTS_ONLY" = 1 ]; then
        printf '%-9s %5s %11s %11s\n' "$name" "$depth" "$nodes_b" "$nodes_s"
    else
        read -r time_b time_s nps_b nps_s ratio < <(awk -v nb="$nodes_b" -v ns="$nodes_s" \
            -v tb="$best_b" -v ts="$best_s" 'BEGIN {
                npsb = nb / (tb / 1e9); npss = ns / (ts / 1e9)
                printf "%.3fs %.3fs %.0f %.0f %.2f\n", tb / 1e9, ts / 1e9, npsb, npss, npsb / npss }')
        printf '%-9s %5s %11s %11s %9s %9s %12s %12s %6s\n' "$name" "$depth" "$nodes_b" "$nodes_s" "$time_b" \
            "$time_s" "$nps_b" "$nps_s" "$ratio"
    fi
    if [ "$nodes_b" != "$nodes_s" ]; then
        echo "FAIL: $name depth $depth: bachess counts $nodes_b nodes, stockfish $nodes_s" >&2
        status=1
    fi
done

# Stockfish may be gone (and bash have unset SF_PID) by the time we wait for it.
stockfish_pid=${SF_PID:-}
sf_send quit
[ -z "$stockfish_pid" ] || wait "$stockfish_pid" 2>/dev/null || true
SF_PID=""
if [ $status -eq 0 ] && [ "$COUNTS_ONLY" = 1 ]; then
    echo "perft counts: bachess and stockfish agree on every node count"
elif [ $status -eq 0 ]; then
    echo "perft speed: node counts agree; the ratio (bachess / stockfish nps, best of $RUNS) is information only"
fi
exit $status
