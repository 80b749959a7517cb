#!/bin/sh
# scripts/polyglot-match.sh — bachess as a UCI engine behind polyglot, in a
# real GUI: XBoard (headless, under xvfb-run) plays a short match of bachess
# against Fairy-Max (protocols.md §5 and §7.4, item 41).
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
#   - a game ends by a forfeit, a false claim, an illegal move, a loss on time
#     or an engine that exited (the PGN, or XBoard's debug log, says so);
#   - the engine answers an illegal-move or error line to XBoard, or an
#     `info string error` to polyglot;
#   - in polyglot's log, a `go` is not answered by exactly one `bestmove`
#     before the next `go` (or a bestmove comes with no go).
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
rm -f "$PGN" "$DEBUG" "$PGLOG"

PATH=$PATH:/usr/games
export PATH
for tool in xboard xvfb-run polyglot fairymax; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "polyglot-match: $tool is missing (scripts/install-test-deps.sh installs it)" >&2
        exit 2
    fi
done

# Enough for GAMES games of 10 s + 0.1 s per side even if they run long.
LIMIT=$((GAMES * 60 + 60))
echo "polyglot-match: $GAMES games, bachess (UCI, through polyglot) vs fairymax, 10+0.1; logs in $OUT"
start=$(date +%s)
cd "$OUT" || exit 2
timeout "$LIMIT" xvfb-run -a xboard \
    -fcp "./$ENGINE_FILE" -fd "$ENGINE_DIR" -fUCI \
    -adapterCommand "polyglot -noini -log true -lf \"$PGLOG\" -ec \"%fcp\" -ed \"%fd\"" \
    -scp fairymax \
    -mg "$GAMES" -tc 0:10 -inc 0.1 -matchPause 500 -autoCallFlag true \
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

[ "$status" = 0 ] || fail "xboard exit code $status (124 means it ran out of its $LIMIT s); see $OUT/xboard.out"

# ---- the PGN: every game finished, for a normal reason ------------------------
if [ -f "$PGN" ]; then
    results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$PGN")
    [ "$results" = "$GAMES" ] || fail "the PGN holds $results finished games, not $GAMES"
    grep -a -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\|\*\)' "$PGN" | sed 's/^/polyglot-match: game end: /'
    bad=$(grep -a -i -E 'forfeit|false (win|draw|illegal|claim)|illegal|on time|exited|disconnect|crash|lost contact' "$PGN")
    [ -z "$bad" ] || fail "the PGN shows a forfeit, false claim, illegal move, time loss or exit: $bad"
else
    fail "no PGN written"
fi

# ---- XBoard's debug log -----------------------------------------------------
if [ -f "$DEBUG" ]; then
    bad=$(grep -a -E '^[0-9]* <first *: *(Illegal move|Error|tellusererror)' "$DEBUG" | head -5)
    [ -z "$bad" ] || fail "bachess (through polyglot) sent to xboard: $bad"
    bad=$(grep -a -i -E 'exited unexpectedly|forfeit|false (win|draw|illegal)|wins on time|loses on time' "$DEBUG" | head -5)
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
