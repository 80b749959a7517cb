#!/bin/sh
# scripts/polyglot-match.sh — bachess as a UCI engine behind polyglot, in a
# real GUI: XBoard (headless, under xvfb-run) plays a short match of bachess
# against Fairy-Max.
#
#   scripts/polyglot-match.sh ENGINE [GAMES] [OUTDIR]
#
#   ENGINE  the bachess binary (e.g. ./bachess)
#   GAMES   number of games, colours alternating (default 2)
#   OUTDIR  where the PGN and the logs go (default: a new /tmp/bachess-polyglot-XXXXXX)
#
# Time control 10 s + 0.1 s a move; XBoard lets the engines ponder, so polyglot
# sends `go ponder`, `ponderhit` and the stop/position/go of a ponder miss.
# The run fails (exit 1) when
#   - XBoard fails or times out, or the PGN does not hold GAMES finished games;
#   - bachess loses a game by a forfeit, a false claim, an illegal move, a
#     loss on time or by exiting (the PGN says so), or XBoard's debug log says
#     the first engine (polyglot with bachess) exited or failed to start. A
#     loss on time by XBoard's wall clock is bachess's only if its own clock
#     agrees: its ConnTrace shows it had used all the time of its last `go`
#     (polyglot's and XBoard's delays under load are not bachess's);
#   - the engine answers an illegal-move or error line to XBoard, or an
#     `info string error` to polyglot;
#   - in polyglot's log, a `go` is not answered by exactly one `bestmove`
#     before the next `go` (or a bestmove comes with no go).
# A game Fairy-Max loses that way (its flag falls by XBoard's wall clock when
# the machine is loaded) is its defect, not bachess's: reported as information.
# Needs the Debian packages xboard xvfb xauth polyglot fairymax
# (scripts/install-test-deps.sh); the engines live in /usr/games.
set -u

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 ENGINE [GAMES] [OUTDIR]   (ENGINE must be an executable)" >&2
    exit 2
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
ENGINE_DIR=$(cd "$(dirname "$1")" && pwd)
ENGINE_FILE=$(basename "$1")
GAMES=${2:-2}
OUT=${3:-$(mktemp -d /tmp/bachess-polyglot-XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PGN=$OUT/games.pgn
DEBUG=$OUT/xboard.debug
PGLOG=$OUT/polyglot.log
TRACE=$OUT/trace-first.log
rm -f "$PGN" "$DEBUG" "$PGLOG" "$TRACE"

PATH=$PATH:/usr/games
export PATH
for tool in xboard xvfb-run polyglot fairymax; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "polyglot-match: $tool is missing (scripts/install-test-deps.sh installs it)" >&2
        exit 2
    fi
done

# LIMIT, the seconds XBoard may take (a liveness bound, not a speed check):
# XBoard adjudicates a draw after MAX_MOVES moves, so each side's clock holds
# at most 10 s + MAX_MOVES x 0.1 s = 25 s, and -autoCallFlag ends a game whose
# clock runs out; both clocks spent, plus OVERHEAD seconds a game for what no
# clock counts (engine and polyglot start-up, -matchPause, XBoard's work),
# plus START for xvfb. Measured: the time no clock counts was at most 5.5 s a
# game (XBoard's elapsed time minus the move times in the PGN; 9 runs of 2
# games of this script and xboard-match.sh under stress-ng --cpu 2 with other
# suites running, load average up to 23); OVERHEAD = 60 s is about eleven
# times that. START = 60 s: xvfb and XBoard start in under 2 s under stress.
# (The old bound, 60 s a game, had no room for the increments of a long game.)
MAX_MOVES=150 OVERHEAD=60 START=60
LIMIT=$((GAMES * (2 * (10 + MAX_MOVES / 10) + OVERHEAD) + START))
echo "polyglot-match: $GAMES games, bachess (UCI, through polyglot) vs fairymax, 10+0.1; logs in $OUT"
start=$(date +%s)
cd "$OUT" || exit 2
timeout "$LIMIT" xvfb-run -a xboard \
    -fcp "./$ENGINE_FILE" -fd "$ENGINE_DIR" -fUCI -firstInitString "new\nrandom\noption ConnTrace=$TRACE\n" \
    -adapterCommand "polyglot -noini -log true -lf \"$PGLOG\" -ec \"%fcp\" -ed \"%fd\"" \
    -scp fairymax \
    -mg "$GAMES" -tc 0:10 -inc 0.1 -matchPause 500 -autoCallFlag true -adjudicateDrawMoves "$MAX_MOVES" \
    -noGUI -xexit -soundProgram true -saveSettingsOnExit false \
    -debug -nameOfDebugFile "$DEBUG" -sgf "$PGN" >"$OUT/xboard.out" 2>&1
status=$?
elapsed=$(($(date +%s) - start))
grep -a "final score" "$OUT/xboard.out"
echo "polyglot-match: xboard exit code $status after ${elapsed} s"

failures=0
fail() {
    echo "polyglot-match: FAIL: $*"
    failures=$((failures + 1))
}

# pgn_abnormal_ends PGN: the games that ended abnormally, INFO or FAIL.
# shellcheck source=scripts/match-verdict.sh
. "$REPO/scripts/match-verdict.sh"
# shellcheck source=scripts/own-clock.sh
. "$REPO/scripts/own-clock.sh"


[ "$status" = 0 ] || fail "xboard exit code $status (124 means it ran out of its $LIMIT s); see $OUT/xboard.out"

# ---- the PGN: every game finished, for a normal reason ------------------------
if [ -f "$PGN" ]; then
    results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$PGN")
    [ "$results" = "$GAMES" ] || fail "the PGN holds $results finished games, not $GAMES"
    grep -a -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\|\*\)' "$PGN" | sed 's/^/polyglot-match: game end: /'
    clocks=$(pgn_clock_seconds "$PGN")
    echo "polyglot-match: time outside the clocks: $elapsed s elapsed, $clocks s of move times in the PGN"
    pgn_abnormal_ends "$PGN" >"$OUT/abnormal.txt"
    while IFS= read -r verdict; do
        case $verdict in
            FAIL*on\ time*) # XBoard's wall clock says bachess lost on time: its own clock judges
                round=${verdict#FAIL round } round=${round%%,*}
                set -- none
                # shellcheck disable=SC2046 # the verdict is split into its words on purpose
                [ -f "$TRACE" ] && set -- $(uci_own_clock "$TRACE" "$round")
                case $1 in
                    ok) echo "polyglot-match: info: XBoard's wall clock flagged bachess, but by its own clock (ConnTrace) it had used $2 ms of the $3 ms it had on its last turn: the time went outside the engine (polyglot, XBoard, load): ${verdict#FAIL }" ;;
                    stalled) echo "polyglot-match: info: XBoard's wall clock flagged bachess; by its own clock it had used $2 ms of the $3 ms it had on its last turn, but only $5 ms of CPU, under a hard limit of $6 ms: the machine was running other programs (load): ${verdict#FAIL }" ;;
                    over) fail "bachess lost on time, by its own clock too ($2 ms used of $3 ms on its last turn; CPU $5 ms, hard limit $6 ms): ${verdict#FAIL }" ;;
                    *) fail "bachess lost on time and its ConnTrace shows no last turn to judge it by: ${verdict#FAIL }" ;;
                esac ;;
            FAIL*) fail "the PGN shows a forfeit, false claim, illegal move, time loss or exit by bachess: ${verdict#FAIL }" ;;
            INFO*) echo "polyglot-match: info: fairymax lost a game by its own defect (not bachess's): ${verdict#INFO }" ;;
        esac
    done <"$OUT/abnormal.txt"
else
    fail "no PGN written"
fi

# ---- XBoard's debug log -----------------------------------------------------
if [ -f "$DEBUG" ]; then
    bad=$(grep -a -E '^[0-9]* <first *: *(Illegal move|Error|tellusererror)' "$DEBUG" | head -5)
    [ -z "$bad" ] || fail "bachess (through polyglot) sent to xboard: $bad"
    # (Game ends are judged from the PGN above, where each game names its players.)
    bad=$(grep -a -i -E 'first chess program .*exited unexpectedly|failed to start first ' "$DEBUG" | head -5)
    [ -z "$bad" ] || fail "xboard's debug log: $bad"
else
    fail "no xboard debug log written"
fi

# ---- polyglot's log: exactly one legal bestmove per go, and no errors --------
# (tests/conformance/polyglot_log_check.py; stockfish judges legality)
if [ -f "$PGLOG" ]; then
    report=$(python3 "$REPO/tests/conformance/polyglot_log_check.py" "$PGLOG" 2>&1)
    check_status=$?
    printf '%s\n' "$report" | sed 's/^/polyglot-match: /'
    [ "$check_status" = 0 ] || fail "go/bestmove pairing or legality in polyglot's log (above)"
    bad=$(grep -a -i -E 'illegal' "$PGLOG" | grep -a -v 'Engine->Adapter: info ' | head -5)
    [ -z "$bad" ] || fail "polyglot's log mentions an illegal move: $bad"
else
    fail "no polyglot log written"
fi

if [ "$failures" -gt 0 ]; then
    echo "polyglot-match: $failures check(s) failed; logs in $OUT"
    exit 1
fi
echo "polyglot-match: ok ($GAMES games in ${elapsed} s, no forfeit, no illegal move, no time loss, one bestmove per go)"
