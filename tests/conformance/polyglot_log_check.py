#!/usr/bin/env python3
"""polyglot_log_check.py — checks the UCI side of a polyglot log.

    python3 tests/conformance/polyglot_log_check.py POLYGLOT_LOG

Polyglot (`-log true -lf FILE`) logs every line it sends to the engine
(`Adapter->Engine: ...`) and every line it reads (`Engine->Adapter: ...`).
This checks, in the order of the log:

  - every `go` is answered by exactly one `bestmove`, the gos in turn;
  - a `go` may follow a `go` still unanswered only when a `stop` was sent
    in between: polyglot sends stop, position and go at once on a ponder
    miss, and logs the stopped search's bestmove only after the new go;
  - no bestmove comes without a go, and the last go is answered;
  - every bestmove is legal in the position of its go, and its ponder move
    legal after it (Debian's stockfish, `go perft 1`, is the judge);
  - the engine never answers `info string error`.

Prints a summary; exit code 0 when everything holds, 1 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems = []
    pending = []          # unanswered gos: (line number, position, stop sent since)
    position = None
    checked = 0
    oracle = harness.Stockfish()
    counts = {"go": 0, "bestmove": 0, "ponderhit": 0, "stop": 0}
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
            for number, line in enumerate(log, 1):
                m = re.search(r"(Adapter->Engine|Engine->Adapter): (.*)$", line.rstrip("\r\n"))
                if not m:
                    continue
                direction, text = m.groups()
                word = text.split()[0] if text.split() else ""
                if direction == "Adapter->Engine":
                    if word == "position":
                        position = text
                    elif word == "go":
                        counts["go"] += 1
                        if pending and not pending[-1][2]:
                            problems.append("line %d: go while the go of line %d is unanswered (no stop between)"
                                            % (number, pending[-1][0]))
                        pending.append([number, position, False])
                    elif word == "stop":
                        counts["stop"] += 1
                        if pending:
                            pending[-1][2] = True
                    elif word == "ponderhit":
                        counts["ponderhit"] += 1
                    continue
                if text.startswith("info string error"):
                    problems.append("line %d: the engine says %r" % (number, text))
                if word != "bestmove":
                    continue
                counts["bestmove"] += 1
                if not pending:
                    problems.append("line %d: bestmove with no go" % number)
                    continue
                go_line, go_position, _ = pending.pop(0)
                parts = text.split()
                best = parts[1] if len(parts) > 1 else ""
                ponder = parts[3] if len(parts) > 3 and parts[2] == "ponder" else None
                if not go_position:
                    problems.append("line %d: no position before the go of line %d" % (number, go_line))
                    continue
                pm = re.match(r"position (startpos|fen (.*?))(?: moves (.*))?$", go_position)
                fen = pm.group(2) if pm.group(1) != "startpos" else None
                moves = pm.group(3).split() if pm.group(3) else []
                legal = oracle.legal_moves(fen, moves)
                checked += 1
                if best not in legal:
                    problems.append("line %d: bestmove %s is illegal after %r (go of line %d)"
                                    % (number, best, go_position[-120:], go_line))
                elif ponder is not None and ponder not in oracle.legal_moves(fen, moves + [best]):
                    problems.append("line %d: ponder move %s is illegal after %s" % (number, ponder, best))
        for go_line, _, _ in pending:
            problems.append("line %d: this go got no bestmove" % go_line)
    finally:
        oracle.close()
    print("polyglot log: %(go)d go, %(bestmove)d bestmove, %(ponderhit)d ponderhit, %(stop)d stop;" % counts,
          "%d bestmoves checked legal by stockfish" % checked)
    for p in problems[:20]:
        print("  " + p)
    if counts["go"] == 0:
        problems.append("no go at all")
        print("  no go at all")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
