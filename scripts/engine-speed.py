#!/usr/bin/env python3
"""scripts/engine-speed.py — two UCI engines on the same positions: nodes a
second, and the time each spends on a move at the same clock.

    scripts/engine-speed.py ENGINE_A ENGINE_B [--positions FILE] [--count N] [--movetime MS]
                            [--clock BASE_MS+INC_MS] [--rounds R]

Gives each engine every position (the first N of an EPD/FEN file, by default
data/openings.epd), one thread, Hash 16, a fresh game each (`ucinewgame`),
the two engines taking turns position by position so that a change in the
machine's load falls on both alike; R rounds.

- nps: a search of MS milliseconds (`go movetime`); the last `info ... nodes N
  ... time T` line of each search gives its speed. Prints each engine's total
  nodes over total time and the ratio A/B, with the spread of the
  per-position ratios.
- time use (with --clock): a search with both clocks at BASE_MS and the
  increment INC_MS (`go wtime ... winc ...`), as at the first move out of
  book of a game at that control; the wall time from `go` to `bestmove` is
  the time spent. Prints each engine's median and mean, and A's over B's.

Run it on an idle machine: the figures are only as steady as the machine.
"""
import argparse
import re
import statistics
import sys
import time

from enginedriver import Engine as Driver

INFO = re.compile(r"\bnodes (\d+)\b.*?\btime (\d+)\b|\btime (\d+)\b.*?\bnodes (\d+)\b")


class Engine:
    """One engine of the comparison: one thread, Hash 16. Its replies are
    awaited for at most ANSWER_SECONDS beyond the search asked for."""
    ANSWER_SECONDS = 60

    def __init__(self, command):
        self.name = command
        self.pipe = Driver(command, name=command, timeout=self.ANSWER_SECONDS, quit_timeout=10)
        self.pipe.send("uci")
        self.pipe.until(r"^uciok")
        self.pipe.send("setoption name Threads value 1")
        self.pipe.send("setoption name Hash value 16")

    def start(self, fen):
        """A fresh game at `fen`, the engine ready."""
        self.pipe.send("ucinewgame")
        self.pipe.send(f"position fen {fen}")
        self.pipe.send("isready")
        self.pipe.until(r"^readyok")

    def search(self, fen, movetime):
        """(nodes, milliseconds) of one search of `fen`."""
        self.start(fen)
        self.pipe.send(f"go movetime {movetime}")
        nodes = ms = 0
        for line in self.pipe.until(r"^bestmove", self.ANSWER_SECONDS + movetime / 1000):
            m = INFO.search(line) if line.startswith("info") else None
            if m:
                nodes = int(m.group(1) or m.group(4))
                ms = int(m.group(2) or m.group(3))
        return nodes, ms

    def think(self, fen, base, inc):
        """Seconds from `go` to `bestmove` at a clock of base+inc milliseconds."""
        self.start(fen)
        start = time.monotonic()
        self.pipe.send(f"go wtime {base} btime {base} winc {inc} binc {inc}")
        self.pipe.until(r"^bestmove", self.ANSWER_SECONDS + base / 1000)
        return time.monotonic() - start

    def quit(self):
        self.pipe.quit()


def load_fens(path, count):
    fens = []
    for line in open(path):
        fields = line.split()
        if len(fields) >= 4 and not line.startswith("#"):
            fens.append(" ".join(fields[:4]) + " 0 1")
        if len(fens) == count:
            break
    return fens


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--positions", default="data/openings.epd")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--clock", help="BASE_MS+INC_MS: also measure the time spent a move")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    fens = load_fens(args.positions, args.count)
    engines = [Engine(args.a), Engine(args.b)]
    totals = [[0, 0], [0, 0]]
    ratios = []
    for _ in range(args.rounds):
        for fen in fens:
            speed = []
            for i, e in enumerate(engines):
                nodes, ms = e.search(fen, args.movetime)
                totals[i][0] += nodes
                totals[i][1] += ms
                speed.append(nodes / max(ms, 1))
            ratios.append(speed[0] / speed[1])
    spent = [[], []]
    if args.clock:
        base, inc = (int(x) for x in args.clock.split("+"))
        for _ in range(args.rounds):
            for fen in fens:
                for i, e in enumerate(engines):
                    spent[i].append(e.think(fen, base, inc))
    for e in engines:
        e.quit()
    nps = [1000.0 * n / max(ms, 1) for n, ms in totals]
    for e, v in zip(engines, nps):
        print(f"{e.name}: {v:,.0f} nps")
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"ratio A/B: {nps[0] / nps[1]:.3f} (per position: median {statistics.median(ratios):.3f}, "
          f"quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}, {len(ratios)} searches of {args.movetime} ms each)")
    if args.clock:
        for e, s in zip(engines, spent):
            print(f"{e.name}: at {args.clock} ms, median {statistics.median(s):.3f} s, mean {statistics.mean(s):.3f} s "
                  f"a move")
        print(f"time use A/B: median {statistics.median(spent[0]) / statistics.median(spent[1]):.2f}, "
              f"mean {statistics.mean(spent[0]) / statistics.mean(spent[1]):.2f} ({len(spent[0])} moves each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
