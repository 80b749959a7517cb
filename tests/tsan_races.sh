#!/bin/sh
# Drives a ThreadSanitizer build of bachess through the races a GUI can
# cause: several search threads, isready while searching, stop, ponder and
# ponderhit, a new position right after stop, go/stop back to back, quit
# during a search. Fails on any ThreadSanitizer report (other than the
# documented lock-free transposition table) or a wrong number of bestmoves.
set -u
engine=${1:?usage: tsan_races.sh TSAN_BINARY}
dir=$(dirname "$0")
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
{
    printf 'uci\nsetoption name Threads value 4\nsetoption name OwnBook value false\nisready\n'
    printf 'position startpos\ngo infinite\n'; sleep 2
    printf 'isready\nstop\nposition startpos moves e2e4\ngo ponder wtime 2000 btime 2000\n'; sleep 1
    printf 'isready\nponderhit\n'; sleep 2
    printf 'position startpos moves e2e4 e7e5\ngo movetime 300\nstop\n'; sleep 1
    printf 'go depth 30\nisready\n'; sleep 1
    printf 'setoption name Threads value 2\nstop\nucinewgame\nposition startpos\ngo wtime 500 btime 500\n'; sleep 2
    printf 'go infinite\n'; sleep 1
    # Syzygy: four threads probing the shared tables (WDL in the search,
    # DTZ at the root) in a position that captures into them.
    printf 'stop\nsetoption name Threads value 4\nsetoption name SyzygyPath value %s\n' "$dir/../data/syzygy"
    printf 'position fen 8/8/4k3/8/2r5/8/2R5/K2N4 w - - 0 1\ngo movetime 1500\n'; sleep 3
    printf 'position fen 8/8/8/4k3/8/8/1p6/KR6 w - - 0 1\ngo movetime 500\n'; sleep 1
    printf 'quit\n'
} | TSAN_OPTIONS="suppressions=$dir/tsan.supp halt_on_error=0" timeout 120 "$engine" >"$out" 2>"$err"
status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$err")
bestmoves=$(grep -c "^bestmove" "$out")
tbhits=$(grep -c " tbhits [1-9]" "$out")
echo "tsan: exit $status, $reports ThreadSanitizer reports, $bestmoves bestmoves (8 expected), $tbhits info lines with tbhits"
grep -A12 "WARNING: ThreadSanitizer" "$err" | head -60
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ] && [ "$bestmoves" -eq 8 ] && [ "$tbhits" -gt 0 ]
