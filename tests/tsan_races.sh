#!/bin/sh
# Drives a ThreadSanitizer build of bachess through the races a GUI can
# cause: several search threads, isready while searching, stop, ponder and
# ponderhit, a new position right after stop, go/stop back to back, a new
# go and setoption during a search, quit during a search. Fails on any
# ThreadSanitizer report (other than the documented lock-free transposition
# table), a wrong number of bestmoves or readyoks (every isready answered,
# those sent during a search too), or no tablebase hit reported.
#
# Timing cannot change the verdict:
#  - bestmoves: the engine's contract is one bestmove per go, whatever comes
#    next (stop, a new go, position, setoption or quit during a search ends
#    the search with its bestmove; src/protocol/uci.c), so 8 gos give 8
#    bestmoves whether a command arrives during a search or after it; the
#    commands are read in order, so the 4 isready are all answered before quit.
#  - the commands that must meet a search in flight are sent once the output
#    shows it searching (an info line after the last bestmove), not after a
#    fixed sleep: under load the engine reads its input seconds late (seen:
#    SyzygyPath loading for over 3 s under stress-ng --cpu 2, and the search
#    after it stopped by the next position 8 ms after its go).
#  - tbhits: the input waits for an info line with tbhits (the root probe of a
#    4-piece position in the tables) before quit; before, quit came after a
#    fixed second and the hits were reported in one info line, 14 ms before it.
# The sleeps left only let a search run for a while (threads busy) before the
# next command; no check depends on their length.
#
# WAIT_LIMIT: liveness bound of each wait for the engine's output; TOTAL_LIMIT:
# of the whole run (the engine is killed, the waits give up). Measured under
# stress-ng --cpu 2 with other suites running (2 cores, load average up to
# 23, 12 runs): the longest wait was 14.4 s (bestmove 7: 4 threads started,
# the tables loaded, then 1.5 s of search) and the longest run 19.7 s. The
# bounds, 180 s and 600 s, are over twelve and thirty times those.
set -u
engine=${1:?usage: tsan_races.sh TSAN_BINARY}
dir=$(dirname "$0")
out=$(mktemp) err=$(mktemp) waits=$(mktemp)
trap 'rm -f "$out" "$err" "$waits"' EXIT
WAIT_LIMIT=180
TOTAL_LIMIT=600

now_ms() { date +%s%3N; }
run_start=$(now_ms)

# wait_for WHAT AWK-CONDITION: polls the engine's output until the awk
# program (over the whole output so far; `bm` counts the bestmoves before
# the current line) ends with found=1, or WAIT_LIMIT seconds pass (or the
# run's TOTAL_LIMIT); logs how long it waited.
wait_for() {
    what=$1
    start=$(now_ms)
    while :; do
        if awk "BEGIN { found = 0; bm = 0 } { $2 } /^bestmove/ { bm++ } END { exit !found }" "$out"; then
            echo "$(($(now_ms) - start)) $what" >>"$waits"
            return 0
        fi
        if [ $(($(now_ms) - start)) -ge $((WAIT_LIMIT * 1000)) ] || [ $(($(now_ms) - run_start)) -ge $((TOTAL_LIMIT * 1000)) ]; then
            echo "$(($(now_ms) - start)) $what (gave up)" >>"$waits"
            return 1
        fi
        sleep 0.05
    done
}
# searching N: the N-th search is under way (an info line after bestmove N-1).
searching() { wait_for "search $1 under way" "if (bm == $1 - 1 && /^info depth/) found = 1"; }
# answered N: N bestmoves are out.
answered() { wait_for "bestmove $1" "if (/^bestmove/ && bm + 1 >= $1) found = 1"; }

{
    printf 'uci\nsetoption name Threads value 4\nsetoption name OwnBook value false\nisready\n'
    wait_for readyok 'if (/^readyok/) found = 1'
    printf 'position startpos\ngo infinite\n' # go 1
    searching 1; sleep 1
    printf 'isready\nstop\nposition startpos moves e2e4\ngo ponder wtime 2000 btime 2000\n' # go 2
    searching 2; sleep 0.5
    printf 'isready\nponderhit\n'
    answered 2 # the search after ponderhit ends on its own clock
    printf 'position startpos moves e2e4 e7e5\ngo movetime 300\nstop\n' # go 3, stopped at once
    printf 'go depth 30\nisready\n' # go 4
    searching 4; sleep 0.5
    # setoption during a search ends it (bestmove 4) before it takes effect
    printf 'setoption name Threads value 2\nstop\nucinewgame\nposition startpos\ngo wtime 500 btime 500\n' # go 5
    answered 5 # ends on its own clock
    printf 'go infinite\n' # go 6
    searching 6; sleep 0.5
    # Syzygy: four threads probing the shared tables (WDL in the search,
    # DTZ at the root) in a position that captures into them.
    printf 'stop\nsetoption name Threads value 4\nsetoption name SyzygyPath value %s\n' "$dir/../data/syzygy"
    printf 'position fen 8/8/4k3/8/2r5/8/2R5/K2N4 w - - 0 1\ngo movetime 1500\n' # go 7
    answered 7 # ends on its own clock
    printf 'position fen 8/8/8/4k3/8/8/1p6/KR6 w - - 0 1\ngo movetime 500\n' # go 8, 4 pieces: a root probe
    wait_for "tbhits reported" 'if (/ tbhits [1-9]/) found = 1'
    printf 'quit\n' # most likely during search 8
} | TSAN_OPTIONS="suppressions=$dir/tsan.supp halt_on_error=0" timeout "$TOTAL_LIMIT" "$engine" >"$out" 2>"$err"
status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$err")
bestmoves=$(grep -c "^bestmove" "$out")
tbhits=$(grep -c " tbhits [1-9]" "$out")
readyoks=$(grep -c "^readyok" "$out")
longest=$(sort -n "$waits" | tail -n 1)
echo "tsan: exit $status, $reports ThreadSanitizer reports, $bestmoves bestmoves (8 expected), $readyoks readyok (4 expected), $tbhits info lines with tbhits; longest wait for the engine: ${longest:-none} ms"
grep "gave up" "$waits" | sed 's/^/tsan: no answer in time: /'
grep -A12 "WARNING: ThreadSanitizer" "$err" | head -60
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ] && [ "$bestmoves" -eq 8 ] && [ "$readyoks" -eq 4 ] && [ "$tbhits" -gt 0 ]
