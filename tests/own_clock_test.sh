#!/usr/bin/env bash
# tests/own_clock_test.sh — scripts/own-clock.sh on made-up ConnTraces: which
# turn of which game it judges, and the verdict from the wall clock, the CPU
# time and the hard limit (ok, stalled, over, none).
set -u
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/own-clock.sh
. scripts/own-clock.sh

TMP=$(mktemp -d /tmp/bachess-own-clock-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
failures=0 checks=0

# expect NAME READER ROUND WANT: the first fields of READER's line on the
# trace in $TMP/NAME must be WANT.
expect() {
    local got
    got=$("$2" "$TMP/$1" "$3")
    checks=$((checks + 1))
    case "$got " in
        "$4 "*) ;;
        *) echo "own_clock_test: FAIL: $1 ($2, round $3): got \"$got\", want \"$4 ...\""; failures=$((failures + 1)) ;;
    esac
}

# ---- CECP ------------------------------------------------------------------
# A move well inside the clock.
cat >"$TMP/cecp-ok" <<'EOF'
1000 < time 30
1000 < otim 30
1000 < usermove e2e4
1100 > move e7e5
1100 # turn: cpu 99 ms, hard limit 120 ms
1200 < result 1-0 {White wins on time}
EOF
expect cecp-ok cecp_own_clock 1 "ok 100 300 1000 99 120"

# The search stopped by the result, its account after it: never scheduled.
cat >"$TMP/cecp-stalled" <<'EOF'
1000 < time 23
1000 < otim 28
1000 < usermove c5c6
1009 > 13 -380 0 8215 23 912777 0	h6h7 b6b7
1272 < result 1-0 {White wins on time}
1273 < force
1273 # turn: cpu 9 ms, hard limit 40 ms
1274 < ping 14
EOF
expect cecp-stalled cecp_own_clock 1 "stalled 272 230 1000 9 40"

# The same turn with the CPU time spent: the engine's own defect.
sed 's/cpu 9 ms/cpu 260 ms/' "$TMP/cecp-stalled" >"$TMP/cecp-busy"
expect cecp-busy cecp_own_clock 1 "over 272 230 1000 260 40"

# The account written before the move (CECP: the search thread ends, then
# the input thread plays its move), the move late.
cat >"$TMP/cecp-account-first" <<'EOF'
1000 < time 20
1000 < usermove e2e4
1250 # turn: cpu 15 ms, hard limit 25 ms
1251 > move e7e5
1260 < result 1-0 {White wins on time}
EOF
expect cecp-account-first cecp_own_clock 1 "stalled 251 200 1000 15 25"

# A hard limit above the time it had: planned to lose, whatever the CPU.
sed 's/hard limit 40 ms/hard limit 400 ms/' "$TMP/cecp-stalled" >"$TMP/cecp-limit"
expect cecp-limit cecp_own_clock 1 "over 272 230 1000 9 400"

# No account of the last turn (an older build): over. The account of the
# turn before is not taken for it.
cat >"$TMP/cecp-unaccounted" <<'EOF'
1000 < time 100
1000 < usermove e2e4
1010 > move e7e5
1010 # turn: cpu 9 ms, hard limit 40 ms
1100 < time 5
1100 < usermove g1f3
1160 > move b8c6
1200 < result 1-0 {White wins on time}
1201 < new
EOF
expect cecp-unaccounted cecp_own_clock 1 "over 60 50 1100 -1 -1"

# Two games: round 2 is the turn after the first result; CR LF lines (the
# Windows build's text-mode trace).
printf '%s\r\n' "1000 < time 500" "1000 < usermove e2e4" "1400 > move e7e5" "1400 # turn: cpu 390 ms, hard limit 450 ms" \
    "1500 < result 1/2-1/2 {Draw}" "1501 < new" "1502 < time 6" "1502 < go" "1570 > move d2d4" \
    "1570 # turn: cpu 3 ms, hard limit 1 ms" "1600 < result 0-1 {White wins on time}" >"$TMP/cecp-two"
expect cecp-two cecp_own_clock 1 "ok 400 5000 1000 390 450"
expect cecp-two cecp_own_clock 2 "stalled 68 60 1502 3 1"
expect cecp-two cecp_own_clock 3 "none"

# A game in which bachess never was on move.
printf '%s\n' "1000 < new" "1000 < force" "1001 < usermove e2e4" "1100 < result 1-0 {Black resigns}" >"$TMP/cecp-none"
expect cecp-none cecp_own_clock 1 "none"

# ---- UCI -------------------------------------------------------------------
# White to move after 2 plies: its wtime counts; never scheduled.
cat >"$TMP/uci-stalled" <<'EOF'
1000 < ucinewgame
1000 < position startpos moves e2e4 e7e5
1000 < go wtime 230 btime 900 winc 50 binc 50
1300 > bestmove g1f3 ponder b8c6
1300 # turn: cpu 12 ms, hard limit 40 ms
EOF
expect uci-stalled uci_own_clock 1 "stalled 300 230 1000 12 40"
sed 's/cpu 12 ms/cpu 290 ms/' "$TMP/uci-stalled" >"$TMP/uci-busy"
expect uci-busy uci_own_clock 1 "over 300 230 1000 290 40"

# A ponder hit: the turn starts at ponderhit; the ponder search stopped
# without one left no account, and `stop` ends the turn.
cat >"$TMP/uci-ponder" <<'EOF'
1000 < ucinewgame
1000 < position startpos moves e2e4
1000 < go ponder wtime 900 btime 300 winc 50 binc 50
1500 < ponderhit
1900 < stop
1901 > bestmove e7e5
1901 # turn: cpu 880 ms, hard limit 150 ms
1950 < ucinewgame
EOF
expect uci-ponder uci_own_clock 1 "over 400 300 1500 880 150"
expect uci-ponder uci_own_clock 2 "none"

echo "own_clock_test: $((checks - failures)) of $checks checks passed"
[ "$failures" = 0 ]
