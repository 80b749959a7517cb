# shellcheck shell=sh
# scripts/own-clock.sh — sourced by scripts/xboard-match.sh (CECP) and
# scripts/polyglot-match.sh (UCI): bachess's own account of a turn, read from
# its ConnTrace, for a game that XBoard's wall clock says it lost on time.
#
# The trace has a line for every line bachess reads ("<ms> < line"), every
# line it writes ("<ms> > line", after the write), and as each search on the
# clock ends (with a move or stopped without one), its account of the turn:
# "<ms> # turn: cpu C ms, hard limit H ms" (the CPU time of its process since
# the clock began to run, and the hard limit it set itself), written by the
# search thread as it ends: in CECP it may come just before the move, which
# the input thread writes.
#
# Both functions print one line, "VERDICT USED GIVEN START CPU LIMIT":
#   ok       it had used USED ms of its own clock, less than the GIVEN ms it
#            was told it had, when it moved (or, had it not moved, when the
#            game ended): the time went outside the engine (pipe, GUI);
#   stalled  it had used all of it by the wall clock, but its process had had
#            less than GIVEN ms of CPU in the turn and its hard limit was below
#            GIVEN: the machine was running other programs (seen under load:
#            263 ms without a line from a search that had reached depth 13 in
#            9 ms under a 40 ms limit, its process never scheduled);
#   over     it had used all of it otherwise: bachess's defect (CPU and LIMIT
#            are -1 when the trace holds no account of the turn);
#   none     the game has no turn of bachess's in the trace.
# START is the engine's time when the turn began (to find the latest of two
# traces). The turn starts when bachess reads the command that starts its
# clock: time spent before, in the GUI, polyglot or the pipe, is not on it.
# An engine that sleeps or waits on a lock for its time would pass as
# stalled; other tests bound its reaction times (docs/testing.md).

# The verdict from the turn's figures, shared by both readers.
OWN_CLOCK_VERDICT='
function verdict(used, had, cpu, limit) {
    if (used < had) return "ok"
    return cpu >= 0 && cpu < had && limit >= 0 && limit < had ? "stalled" : "over"
}'

# cecp_own_clock TRACE ROUND: the last turn of game ROUND (the ROUND-th
# `result` bachess read). GIVEN is XBoard's last `time` before the turn;
# the turn starts at `usermove` (out of force mode) or `go`. Its account may
# follow the result (a search the result stopped), so the report waits for
# it, for the next game or for the end of the trace. The Windows build
# writes its trace in text mode, lines ending in CR LF: the CR goes before
# the fields are read (else "go\r" is no `go`).
cecp_own_clock() {
    awk -v round="$2" "$OWN_CLOCK_VERDICT"'
        { sub(/\r$/, "") }
        function report() {
            if (!turns) print "none"
            else print verdict(used, had, cpu, limit), used, had, start, cpu, limit
            done = 1; exit
        }
        function begin_turn() { start = $1; had = given; on_move = 1; closed = 0; cpu = limit = -1; turns++ }
        $2 == "<" && $3 == "time" { given = $4 * 10 }
        $2 == "<" && $3 == "new" && ending { report() }
        $2 == "<" && ($3 == "new" || $3 == "force") { force = ($3 == "force"); on_move = 0 }
        $2 == "<" && ($3 == "go" || ($3 == "usermove" && !force)) { if (ending) report(); force = 0; begin_turn() }
        $2 == ">" && $3 == "move" && on_move { used = $1 - start; on_move = 0; closed = 1 }
        $2 == "#" && $3 == "turn:" && (on_move || closed || ending) { cpu = $5; limit = $9; if (ending) report() }
        $2 == "<" && $3 == "result" && ++games == round {
            if (on_move) { used = $1 - start; on_move = 0 }
            ending = 1
        }
        END { if (!done && ending) report(); if (!done) print "none" }' "$1"
}

# uci_own_clock TRACE ROUND: the last turn of game ROUND (a game ends at the
# next `ucinewgame`, or at the end of the trace). GIVEN is the wtime or btime
# of bachess's side in its last `go`; the turn starts at `go` (not ponder) or
# `ponderhit` and ends at `bestmove` or at `stop`.
uci_own_clock() {
    awk -v round="$2" "$OWN_CLOCK_VERDICT"'
        function report() {
            if (on_move) { used = $1 - start; had = turn_given }
            if (!on_move && !moved) print "none"
            else print verdict(used, had, cpu, limit), used, had, start, cpu, limit
            done = 1; exit
        }
        function begin_turn() { start = $1; on_move = 1; closed = 0; cpu = limit = -1 }
        $2 == "<" && $3 == "ucinewgame" { if (gos && ++games == round) report(); gos = moved = on_move = 0 }
        $2 == "<" && $3 == "position" {
            white = 1
            if ($4 == "fen") white = ($6 == "w")
            n = 0; for (i = 4; i <= NF; i++) if ($i == "moves") { n = NF - i; break }
            if (n % 2) white = !white
        }
        $2 == "<" && $3 == "go" {
            gos++; ponder = 0
            for (i = 4; i < NF; i++) { if ($i == "wtime") wt = $(i + 1); if ($i == "btime") bt = $(i + 1) }
            for (i = 4; i <= NF; i++) if ($i == "ponder") ponder = 1
            turn_given = white ? wt : bt
            if (ponder) pondering = 1; else begin_turn()
        }
        $2 == "<" && $3 == "ponderhit" && pondering { pondering = 0; begin_turn() }
        ($2 == "<" && $3 == "stop") || ($2 == ">" && $3 == "bestmove") {
            if (on_move) { used = $1 - start; had = turn_given; on_move = 0; moved = 1; closed = 1 }
            pondering = 0
        }
        $2 == "#" && $3 == "turn:" && (on_move || closed) { cpu = $5; limit = $9 }
        END { if (!done && gos && ++games == round) report(); if (!done) print "none" }' "$1"
}
