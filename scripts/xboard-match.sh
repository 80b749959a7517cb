#!/usr/bin/env bash
# scripts/xboard-match.sh — bachess speaking CECP (XBoard protocol v2) to a
# real XBoard: a short match against Fairy-Max, then an analysis-mode smoke
# test (protocols.md §5 and §7.4, items 40 and 42). XBoard runs headless
# under xvfb-run.
#
#   scripts/xboard-match.sh ENGINE [GAMES] [OUTDIR]
#
#   ENGINE  the bachess binary (e.g. ./bachess), or a command name without a
#           slash, found on PATH (and /usr/games) and given to XBoard as it is
#           (`-fcp bachess`: the installed engine, as a user starts it)
#   GAMES   number of games, colours alternating (default 2)
#   OUTDIR  where the PGN and the logs go (default: a new /tmp/bachess-xboard-XXXXXX)
#
# The match is 10 s + 0.1 s a move with pondering on (xboard sends `hard`).
# It fails (exit 1) when
#   - XBoard fails or times out, or the PGN does not hold GAMES finished games;
#   - a game ends by a forfeit, a false claim, an illegal move, a loss on
#     time or an engine that exited (the PGN or XBoard's debug log says so);
#   - bachess sends XBoard an `Illegal move`, `tellusererror` or `Error` line
#     (`Error (unknown command)` excepted: XBoard probes with commands);
#   - bachess never moved.
# (Illegal moves need no replay: XBoard tests every move it relays and
# forfeits the engine that made it, which the PGN then says.)
# The analysis smoke test loads a position, lets XBoard analyse for 8 s and
# requires thinking lines from bachess and no `move` line.
# Environment (used by scripts/stress.sh):
#   XB_TC=MIN:SEC XB_INC=SEC   time control (default 0:10 and 0.1)
#   XB_MPS=N                  a repeating control instead: N moves in XB_TC
#                             (XBoard sends `level N MIN:SEC 0`; XB_INC ignored)
#   XB_OPPONENT_UCI=true      XB_OPPONENT speaks UCI (XBoard runs it through polyglot)
#   XB_OPPONENT=PATH          a second engine (e.g. bachess itself, CECP)
#                             instead of fairymax
#   XB_PONDER=false           no pondering (default true)
#   XB_ANALYSIS=0             skip the analysis-mode smoke test
#   XB_VARIANT=fischerandom   play Chess960 (XBoard picks the start positions;
#                             Debian's fairymax does not play it: give XB_OPPONENT;
#                             the PGN must say [Variant "fischerandom"])
# Needs the Debian packages xboard xvfb xauth fairymax
# (scripts/install-test-deps.sh); the engines live in /usr/games.
set -u

case ${1:-} in
    */*) [ -x "$1" ] ;;
    ?*) PATH=$PATH:/usr/games command -v "$1" >/dev/null ;;
    *) false ;;
esac || {
    echo "usage: $0 ENGINE [GAMES] [OUTDIR]   (ENGINE must be an executable, or a command on PATH)" >&2
    exit 2
}
# How XBoard starts bachess: from its directory, or by name from PATH.
case $1 in
    */*) FIRST=(-fcp "./$(basename "$1")" -fd "$(cd "$(dirname "$1")" && pwd)") ;;
    *) FIRST=(-fcp "$1") ;;
esac
GAMES=${2:-2}
OUT=${3:-$(mktemp -d /tmp/bachess-xboard-XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PGN=$OUT/games.pgn
DEBUG=$OUT/xboard.debug
ADEBUG=$OUT/analysis.debug
rm -f "$PGN" "$DEBUG" "$ADEBUG"

# The engines are in /usr/games, not on root's PATH; without them xboard
# hangs on an error dialog (hence `timeout` around every run as well).
PATH=$PATH:/usr/games
export PATH
for tool in xboard xvfb-run fairymax timeout; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "xboard-match: $tool is missing (scripts/install-test-deps.sh installs it)" >&2
        exit 2
    fi
done
# A private HOME: no settings file of the user's (or from an earlier run)
# changes what XBoard does.
HOME=$OUT
export HOME

failures=0
fail() {
    echo "xboard-match: FAIL: $*"
    failures=$((failures + 1))
}

# Lines bachess sent that no correct engine sends in a game it plays.
# (Both engines are checked when the opponent is bachess too.)
engine_errors() {
    local who=first
    [ -z "${XB_OPPONENT:-}" ] || who='(first|second)'
    grep -a -E "^[0-9]* <$who *: *(Illegal move|tellusererror|Error)" "$1" \
        | grep -a -v 'Error (unknown command)' | head -5
}

# ---- the match -----------------------------------------------------------------
TC=${XB_TC:-0:10} INC=${XB_INC:-0.1} PONDER=${XB_PONDER:-true}
# The opponent: fairymax from PATH, or an engine given by its path.
if [ -n "${XB_OPPONENT:-}" ]; then
    [ -x "$XB_OPPONENT" ] || { echo "xboard-match: XB_OPPONENT $XB_OPPONENT is not executable" >&2; exit 2; }
    SECOND=(-scp "./$(basename "$XB_OPPONENT")" -sd "$(cd "$(dirname "$XB_OPPONENT")" && pwd)")
    SECOND_NAME=$(basename "$XB_OPPONENT")
else
    SECOND=(-scp fairymax) SECOND_NAME=fairymax
fi
# A UCI opponent goes through polyglot, which wants the engine's full path (run from -sd
# it does not find "./name"); -sUCI is a flag that takes no value. No egtpath: polyglot
# passes XBoard's default one on as SyzygyPath, and Debian's Ethereal 12 then exits
# (undefined symbol tb_init_impl).
[ "${XB_OPPONENT_UCI:-false}" = true ] &&
    SECOND=(-scp "$(cd "$(dirname "$XB_OPPONENT")" && pwd)/$(basename "$XB_OPPONENT")" -sUCI -egtFormats "")
# Seconds a game may take at most: both clocks spent (three sessions of a repeating
# control), plus start-up.
MINUTES=${TC%%:*} SECONDS_PART=0 SESSIONS=1 CONTROL=(-tc "$TC" -inc "$INC") CONTROL_TEXT="$TC+$INC"
case $TC in *:*) SECONDS_PART=${TC#*:} ;; esac
if [ -n "${XB_MPS:-}" ]; then
    SESSIONS=3 CONTROL=(-tc "$TC" -mps "$XB_MPS" -inc -1) CONTROL_TEXT="$XB_MPS moves in $TC"
fi
LIMIT=$((GAMES * (2 * SESSIONS * (10#$MINUTES * 60 + 10#$SECONDS_PART) + 40) + 60))
echo "xboard-match: $GAMES games, bachess (CECP) vs $SECOND_NAME, $CONTROL_TEXT, pondering $PONDER; logs in $OUT"
start=$(date +%s)
cd "$OUT" || exit 2
timeout "$LIMIT" xvfb-run -a xboard \
    "${FIRST[@]}" "${SECOND[@]}" \
    ${XB_VARIANT:+-variant "$XB_VARIANT"} \
    -mg "$GAMES" "${CONTROL[@]}" -pgnExtendedInfo true -matchPause 500 -autoCallFlag true -ponderNextMove "$PONDER" \
    -noGUI -xexit -soundProgram true -saveSettingsOnExit false \
    -debug -nameOfDebugFile "$DEBUG" -sgf "$PGN" >"$OUT/xboard.out" 2>&1
status=$?
elapsed=$(($(date +%s) - start))
grep -a "final score" "$OUT/xboard.out"
echo "xboard-match: xboard exit code $status after ${elapsed} s"
[ "$status" = 0 ] || fail "xboard exit code $status (124: timed out after $LIMIT s); see $OUT/xboard.out"

if [ -f "$PGN" ]; then
    results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$PGN")
    [ "$results" = "$GAMES" ] || fail "the PGN holds $results finished games, not $GAMES"
    grep -a -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\|\*\)' "$PGN" | sed 's/^/xboard-match: game end: /'
    if [ -n "${XB_VARIANT:-}" ]; then
        variants=$(grep -c "^\[Variant \"$XB_VARIANT\"\]" "$PGN")
        [ "$variants" = "$GAMES" ] || fail "$variants of $GAMES games say [Variant \"$XB_VARIANT\"]"
        grep -a '^\[FEN ' "$PGN" | sed 's/^/xboard-match: start: /'
        castles=$(grep -a -c -E '^[0-9]* <first *: *move O-O' "$DEBUG" || true)
        echo "xboard-match: bachess castled $castles times"
    fi
    bad=$(grep -a -i -E 'forfeit|false (win|draw|illegal|claim)|illegal|invalid move|on time|exited|disconnect|crash|lost contact' "$PGN")
    [ -z "$bad" ] || fail "the PGN shows a forfeit, false claim, illegal move, time loss or exit: $bad"
else
    fail "no PGN written"
fi

if [ -f "$DEBUG" ]; then
    bad=$(engine_errors "$DEBUG")
    [ -z "$bad" ] || fail "bachess sent to xboard: $bad"
    bad=$(grep -a -i -E 'exited unexpectedly|forfeit|false (win|draw|illegal)|wins on time|loses on time|failed to start' "$DEBUG" | head -5)
    [ -z "$bad" ] || fail "xboard's debug log: $bad"
    moves=$(grep -a -c -E '^[0-9]* <first *: *move ' "$DEBUG")
    pongs=$(grep -a -c -E '^[0-9]* <first *: *pong ' "$DEBUG")
    echo "xboard-match: bachess sent $moves moves and $pongs pongs"
    [ "$moves" -gt 0 ] || fail "bachess never moved"
else
    fail "no xboard debug log written"
fi

# ---- analysis mode ---------------------------------------------------------------
if [ "${XB_ANALYSIS:-1}" = 0 ]; then
    [ "$failures" -gt 0 ] && { echo "xboard-match: $failures check(s) failed; logs in $OUT"; exit 1; }
    echo "xboard-match: ok ($GAMES games in ${elapsed} s: no forfeit, false claim, illegal move, time loss or exit)"
    exit 0
fi
# XBoard never ends analysis by itself: `timeout` ends it (exit 124 is the
# expected outcome), and bachess must then see the end of its input and go.
echo "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" >"$OUT/pos.fen"
timeout 8 xvfb-run -a xboard "${FIRST[@]}" -lpf "$OUT/pos.fen" -mode Analysis \
    -noGUI -xexit -soundProgram true -saveSettingsOnExit false \
    -debug -nameOfDebugFile "$ADEBUG" >"$OUT/analysis.out" 2>&1
status=$?
[ "$status" = 124 ] || [ "$status" = 0 ] || fail "analysis run: xboard exit code $status; see $OUT/analysis.out"
if [ -f "$ADEBUG" ]; then
    grep -a -q -E '^[0-9]* >first *: *analyze' "$ADEBUG" || fail "xboard never sent analyze"
    thinking=$(grep -a -c -E '^[0-9]* <first *: *[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+' "$ADEBUG")
    echo "xboard-match: analysis: $thinking thinking lines from bachess"
    [ "$thinking" -gt 0 ] || fail "no thinking lines from bachess in analysis mode"
    bad=$(grep -a -E '^[0-9]* <first *: *move ' "$ADEBUG" | head -3)
    [ -z "$bad" ] || fail "bachess sent a move in analysis mode: $bad"
    bad=$(engine_errors "$ADEBUG")
    [ -z "$bad" ] || fail "bachess sent in analysis mode: $bad"
else
    fail "no debug log from the analysis run"
fi
if [ "$failures" -gt 0 ]; then
    echo "xboard-match: $failures check(s) failed; logs in $OUT"
    exit 1
fi
echo "xboard-match: ok ($GAMES games in ${elapsed} s: no forfeit, false claim, illegal move, time loss or exit; analysis clean)"
