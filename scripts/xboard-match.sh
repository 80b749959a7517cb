#!/usr/bin/env bash
# scripts/xboard-match.sh — bachess speaking CECP (XBoard protocol v2) to a
# real XBoard: a short match against Fairy-Max, then an analysis-mode smoke
# test. XBoard runs headless
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
#   - bachess loses a game by a forfeit, a false claim, an illegal move, a
#     loss on time or by exiting (the PGN says so), or XBoard's debug log says
#     bachess exited or failed to start. A loss on time by XBoard's wall clock
#     is bachess's only if its own clock agrees: its ConnTrace shows it had
#     used all the time XBoard gave it for its last move (seen under load:
#     XBoard flagged bachess, which had moved 4 ms after reading `time 1`;
#     the rest of XBoard's 10 ms went in the pipe and in XBoard), and the
#     time went in the engine: its hard limit or its process's CPU time
#     reached what it had (scripts/own-clock.sh);
#   - bachess sends XBoard an `Illegal move`, `tellusererror` or `Error` line
#     (`Error (unknown command)` excepted: XBoard probes with commands);
#   - bachess never moved.
# A game the opponent loses that way (Fairy-Max's flag falls by XBoard's wall
# clock when the machine is loaded) is the opponent's defect, not bachess's:
# it is reported as information. When the opponent is bachess too, every
# such game fails. (Illegal moves need no replay: XBoard tests every move it
# relays and forfeits the engine that made it, which the PGN then says.)
# The analysis smoke test loads a position, waits for bachess's first thinking
# line, watches XBoard analyse for ANALYSIS_WATCH more seconds and requires no
# `move` line from bachess in all that time.
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
#   XB_FIRST_WRAPPER=CMD      start ENGINE through CMD, e.g. wine for the Windows
#                             build: XBoard is given -fcp "wine ./bachess.exe"
#                             (it splits the command at spaces) and -fd its folder;
#                             WINEPREFIX (default ~/.wine) and WINEDEBUG pass through
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
# How XBoard starts bachess: from its directory, or by name from PATH; through
# XB_FIRST_WRAPPER when it is given.
WRAPPER=${XB_FIRST_WRAPPER:-}
case $1 in
    */*) FIRST=(-fcp "${WRAPPER:+$WRAPPER }./$(basename "$1")" -fd "$(cd "$(dirname "$1")" && pwd)") ;;
    *) FIRST=(-fcp "${WRAPPER:+$WRAPPER }$1") ;;
esac
WINE=false
case ${WRAPPER%% *} in wine | */wine | wine64 | */wine64) WINE=true ;; esac
GAMES=${2:-2}
OUT=${3:-$(mktemp -d /tmp/bachess-xboard-XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PGN=$OUT/games.pgn
DEBUG=$OUT/xboard.debug
ADEBUG=$OUT/analysis.debug
rm -f "$PGN" "$DEBUG" "$ADEBUG" "$OUT"/trace-*.log

# The engines are in /usr/games, not on root's PATH; without them xboard
# hangs on an error dialog (hence `timeout` around every run as well).
PATH=$PATH:/usr/games
export PATH
for tool in xboard xvfb-run fairymax timeout ${WRAPPER:+"${WRAPPER%% *}"}; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "xboard-match: $tool is missing (scripts/install-test-deps.sh installs it)" >&2
        exit 2
    fi
done
# Wine keeps its prefix in $HOME/.wine unless WINEPREFIX says where: the
# user's then, not a new one in the private HOME below (made anew every run,
# slowly, with dialogs that nobody answers under xvfb).
if $WINE; then
    WINEPREFIX=${WINEPREFIX:-$HOME/.wine}
    export WINEPREFIX
fi
# A private HOME: no settings file of the user's (or from an earlier run)
# changes what XBoard does.
HOME=$OUT
export HOME

failures=0
fail() {
    echo "xboard-match: FAIL: $*"
    failures=$((failures + 1))
}

# XBoard's names for the engines judged as bachess in its debug log: the first,
# and the second too when XB_OPPONENT is given (as engine_errors below).
BACHESS_SIDES=first
[ -z "${XB_OPPONENT:-}" ] || BACHESS_SIDES='first|second'

# Lines bachess sent that no correct engine sends in a game it plays.
# (Both engines are checked when the opponent is bachess too.)
engine_errors() {
    local who=first
    [ -z "${XB_OPPONENT:-}" ] || who='(first|second)'
    grep -a -E "^[0-9]* <$who *: *(Illegal move|tellusererror|Error)" "$1" \
        | grep -a -v 'Error (unknown command)' | head -5
}

# pgn_abnormal_ends PGN: the games that ended abnormally, INFO or FAIL.
# shellcheck source=scripts/match-verdict.sh
. "$(dirname "$0")/match-verdict.sh"
# shellcheck source=scripts/own-clock.sh
. "$(dirname "$0")/own-clock.sh"

# pgn_loser PGN ROUND: the name the PGN gives the player that lost game ROUND
# (nothing for a draw).
pgn_loser() {
    awk -v round="$2" '
        function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\]\r?$/, "", line); return line }
        /^\[Round / { r = tag($0) }
        /^\[White / { w = tag($0) }
        /^\[Black / { b = tag($0) }
        /^\[Result / && r == round { x = tag($0); if (x == "1-0") print b; else if (x == "0-1") print w; exit }' "$1"
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
# Each bachess keeps a ConnTrace (its own clock's account of every line), read
# when a game is lost on time: see scripts/own-clock.sh.
# Under wine the first is told its trace's path as Z:/... : a Windows program
# reads /tmp/x as \tmp\x on its current drive, the drive of its working
# folder, which is Z: (wine's drive for /) only while that folder is under no
# other drive's (such as the prefix's drive_c); Z: names / in every prefix
# wine makes. Forward slashes, which Windows takes as well: XBoard reads
# backslashes in the init string as escapes (\n, and \t in Z:\tmp too).
FIRST_TRACE=$OUT/trace-first.log SECOND_TRACE=$OUT/trace-second.log
FIRST_TRACE_ARG=$FIRST_TRACE
if $WINE; then FIRST_TRACE_ARG=Z:$FIRST_TRACE; fi
TRACES=("$FIRST_TRACE") FIRST_OPTIONS=(-firstInitString "new\nrandom\noption ConnTrace=$FIRST_TRACE_ARG\n") SECOND_OPTIONS=()
FIRST_PGN="" SECOND_PGN=""
if [ -n "${XB_OPPONENT:-}" ] && [ "${XB_OPPONENT_UCI:-false}" != true ]; then
    TRACES+=("$SECOND_TRACE") SECOND_OPTIONS=(-secondInitString "new\nrandom\noption ConnTrace=$SECOND_TRACE\n")
    # Two bachess: a name of its own for each in the PGN (both start with
    # "bachess", as scripts/match-verdict.sh wants), so that a game lost on
    # time is judged by the trace of the engine the PGN says lost it. The
    # traces' times do not compare across builds: under wine the clock is
    # CLOCK_MONOTONIC_RAW's, which was 100 ms behind Linux's CLOCK_MONOTONIC
    # after 3 hours of uptime, as much as a move takes at 5+0.05.
    FIRST_PGN="bachess first (${WRAPPER:+$WRAPPER }$(basename "$1"))" SECOND_PGN="bachess second ($SECOND_NAME)"
    FIRST_OPTIONS+=(-fn "$FIRST_PGN") SECOND_OPTIONS+=(-sn "$SECOND_PGN")
fi
[ "${XB_OPPONENT_UCI:-false}" = true ] &&
    SECOND=(-scp "$(cd "$(dirname "$XB_OPPONENT")" && pwd)/$(basename "$XB_OPPONENT")" -sUCI -egtFormats "")
# LIMIT, the seconds XBoard may take (a liveness bound, not a speed check):
# XBoard adjudicates a draw after MAX_MOVES moves, so each side's clock holds
# at most its base time plus MAX_MOVES increments (or MAX_MOVES / N sessions of
# a repeating control), and -autoCallFlag ends a game whose clock runs out;
# both clocks spent, plus OVERHEAD seconds a game for what no clock counts
# (engine start-up, -matchPause, XBoard's own work), plus START for xvfb.
# Measured: the time no clock counts was at most 5.5 s a game (XBoard's
# elapsed time minus the move times in the PGN, "time outside the clocks"
# below; 9 runs of 2 games under stress-ng --cpu 2 with other suites running,
# load average up to 23); OVERHEAD = 60 s is about eleven times that. START =
# 60 s: xvfb and XBoard start in under 2 s under stress.
# (The old bound, 40 s a game on top of the base times, had no room for the
# increments of a long game.)
MAX_MOVES=150 OVERHEAD=60 START=60
MINUTES=${TC%%:*} SECONDS_PART=0 CONTROL=(-tc "$TC" -inc "$INC") CONTROL_TEXT="$TC+$INC"
case $TC in *:*) SECONDS_PART=${TC#*:} ;; esac
BASE_SECONDS=$((10#$MINUTES * 60 + 10#$SECONDS_PART))
SIDE_MAX=$(awk -v b="$BASE_SECONDS" -v i="$INC" -v m="$MAX_MOVES" 'BEGIN { printf "%d", b + i * m + 1 }')
if [ -n "${XB_MPS:-}" ]; then
    CONTROL=(-tc "$TC" -mps "$XB_MPS" -inc -1) CONTROL_TEXT="$XB_MPS moves in $TC"
    SIDE_MAX=$((BASE_SECONDS * ((MAX_MOVES + XB_MPS - 1) / XB_MPS + 1)))
fi
LIMIT=$((GAMES * (2 * SIDE_MAX + OVERHEAD) + START))
echo "xboard-match: $GAMES games, bachess (CECP${WRAPPER:+, through $WRAPPER}) vs $SECOND_NAME, $CONTROL_TEXT, pondering $PONDER; logs in $OUT"
start=$(date +%s)
cd "$OUT" || exit 2
timeout "$LIMIT" xvfb-run -a xboard \
    "${FIRST[@]}" "${FIRST_OPTIONS[@]}" "${SECOND[@]}" "${SECOND_OPTIONS[@]}" \
    ${XB_VARIANT:+-variant "$XB_VARIANT"} \
    -mg "$GAMES" "${CONTROL[@]}" -pgnExtendedInfo true -matchPause 500 -autoCallFlag true -ponderNextMove "$PONDER" \
    -adjudicateDrawMoves "$MAX_MOVES" \
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
    clocks=$(pgn_clock_seconds "$PGN")
    echo "xboard-match: time outside the clocks: $((elapsed)) s elapsed, $clocks s of move times in the PGN"
    while IFS= read -r verdict; do
        case $verdict in
            FAIL*on\ time*) # XBoard's wall clock says bachess lost on time: its own clock judges
                round=${verdict#FAIL round } round=${round%%,*} best=""
                # The trace of the bachess the PGN names as the loser; without
                # names, the bachess whose last turn began last.
                judged=("${TRACES[@]}") loser=$(pgn_loser "$PGN" "$round")
                if [ -n "$FIRST_PGN" ] && [ "$loser" = "$FIRST_PGN" ]; then judged=("$FIRST_TRACE"); fi
                if [ -n "$SECOND_PGN" ] && [ "$loser" = "$SECOND_PGN" ]; then judged=("$SECOND_TRACE"); fi
                for trace in "${judged[@]}"; do
                    [ -f "$trace" ] || continue
                    read -r what used had turn cpu limit < <(cecp_own_clock "$trace" "$round")
                    [ "$what" = none ] && continue
                    if [ -z "$best" ] || [ "$turn" -gt "$best_turn" ]; then best="$what $used $had $cpu $limit" best_turn=$turn; fi
                done
                read -r what used had cpu limit <<<"${best:-none}"
                case $what in
                    ok) echo "xboard-match: info: XBoard's wall clock flagged bachess, but by its own clock (ConnTrace) it had used $used ms of the $had ms it had on its last turn: the time went outside the engine (load): ${verdict#FAIL }" ;;
                    stalled) echo "xboard-match: info: XBoard's wall clock flagged bachess; by its own clock it had used $used ms of the $had ms it had on its last turn, but only $cpu ms of CPU, under a hard limit of $limit ms: the machine was running other programs (load): ${verdict#FAIL }" ;;
                    over) fail "bachess lost on time, by its own clock too ($used ms used of $had ms on its last turn; CPU $cpu ms, hard limit $limit ms): ${verdict#FAIL }" ;;
                    *) fail "bachess lost on time and its ConnTrace shows no last turn to judge it by: ${verdict#FAIL }" ;;
                esac ;;
            FAIL*) fail "the PGN shows a forfeit, false claim, illegal move, time loss or exit by bachess: ${verdict#FAIL }" ;;
            INFO*) echo "xboard-match: info: the opponent lost a game by its own defect (not bachess's): ${verdict#INFO }" ;;
        esac
    done < <(pgn_abnormal_ends "$PGN")
else
    fail "no PGN written"
fi

if [ -f "$DEBUG" ]; then
    bad=$(engine_errors "$DEBUG")
    [ -z "$bad" ] || fail "bachess sent to xboard: $bad"
    # (Game ends are judged from the PGN above, where each game names its players.)
    bad=$(grep -a -i -E "(${BACHESS_SIDES}) chess program .*exited unexpectedly|failed to start (${BACHESS_SIDES}) " "$DEBUG" | head -5)
    [ -z "$bad" ] || fail "xboard's debug log: $bad"
    # The first engine's start-up as XBoard saw it (wine's, through wine):
    # from XBoard's first line to it to the engine's first line.
    answered=$(awk '/^[0-9]+ >first *:/ && s == "" { s = $1 } /^[0-9]+ <first *:/ && s != "" { print $1 - s; exit }' "$DEBUG")
    echo "xboard-match: the first engine's first line came ${answered:-never} ms after XBoard's first"
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
# XBoard never ends analysis by itself: it runs in the background, is watched
# through its debug log, and is stopped (TERM to `timeout`, which passes it on
# to XBoard, xvfb and the engine); bachess must then see the end of its input
# and go. The checks do not depend on how fast the machine is:
#   - the wait for bachess's first thinking line is an event with a liveness
#     bound, ANALYSIS_LIMIT. Measured from the start of xvfb-run: at most 4.9 s
#     under stress-ng --cpu 2 with other suites running (load average up to
#     23; 6 runs), about 1.5 s on a quiet machine; the old fixed 8 s for
#     everything (start-up included) could run out under load. 60 s is over
#     twelve times the worst seen.
#   - after it, XBoard analyses for ANALYSIS_WATCH seconds, a window in which
#     bachess must not send a move (no bound on the engine's speed: a slow
#     engine just sends fewer thinking lines).
ANALYSIS_LIMIT=60 ANALYSIS_WATCH=6
thinking_lines() {
    if [ -f "$ADEBUG" ]; then grep -a -c -E '^[0-9]* <first *: *[0-9]+ +-?[0-9]+ +[0-9]+ +[0-9]+' "$ADEBUG"; else echo 0; fi
}
echo "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" >"$OUT/pos.fen"
astart=$(date +%s%3N)
timeout $((ANALYSIS_LIMIT + ANALYSIS_WATCH + 30)) xvfb-run -a xboard "${FIRST[@]}" \
    -lpf "$OUT/pos.fen" -mode Analysis \
    -noGUI -xexit -soundProgram true -saveSettingsOnExit false \
    -debug -nameOfDebugFile "$ADEBUG" >"$OUT/analysis.out" 2>&1 &
apid=$!
first_thinking=""
while kill -0 "$apid" 2>/dev/null && [ $(($(date +%s%3N) - astart)) -lt $((ANALYSIS_LIMIT * 1000)) ]; do
    if [ "$(thinking_lines)" -gt 0 ]; then
        first_thinking=$(($(date +%s%3N) - astart))
        break
    fi
    sleep 0.1
done
if [ -n "$first_thinking" ]; then
    echo "xboard-match: analysis: first thinking line after $first_thinking ms; watching $ANALYSIS_WATCH s more"
    sleep "$ANALYSIS_WATCH"
fi
kill -TERM "$apid" 2>/dev/null
wait "$apid"
status=$?
# 143: stopped here (TERM); 124: ANALYSIS_LIMIT + ANALYSIS_WATCH + 30 s ran out.
[ "$status" = 143 ] || [ "$status" = 124 ] || [ "$status" = 0 ] || fail "analysis run: xboard exit code $status; see $OUT/analysis.out"
if [ -f "$ADEBUG" ]; then
    grep -a -q -E '^[0-9]* >first *: *analyze' "$ADEBUG" || fail "xboard never sent analyze"
    thinking=$(thinking_lines)
    echo "xboard-match: analysis: $thinking thinking lines from bachess"
    [ "$thinking" -gt 0 ] || fail "no thinking lines from bachess in analysis mode within $ANALYSIS_LIMIT s"
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
