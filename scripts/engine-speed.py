#!/usr/bin/env python3
"""scripts/engine-speed.py — UCI engines on the same positions: nodes a
second, and the time each spends on a move at the same clock.

    scripts/engine-speed.py ENGINE ENGINE [ENGINE ...] [--positions FILE] [--count N] [--movetime MS]
                            [--clock BASE_MS+INC_MS] [--rounds R]

Each ENGINE is `[LABEL=]COMMAND[;NAME=VALUE...]`: the command, a label to
print in its place, and UCI options to set before the first search, e.g.
`classical=./bachess;Evaluation=Classical`.

Gives each engine every position (the first N of an EPD/FEN file, by default
data/openings.epd), one thread, Hash 16, a fresh game each (`ucinewgame`),
the engines taking turns position by position so that a change in the
machine's load falls on all alike; R rounds.

- nps: a search of MS milliseconds (`go movetime`); the last `info ... nodes N
  ... time T` line of each search gives its speed. Prints each engine's total
  nodes over total time and the median of its searches' speeds, then each
  engine's speed over the first's (with two engines, the ratio A/B with the
  spread of the per-position ratios).
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

    def __init__(self, spec):
        self.name, command, options = parse_spec(spec)
        self.pipe = Driver(command, name=self.name, timeout=self.ANSWER_SECONDS, quit_timeout=10)
        self.pipe.send("uci")
        self.pipe.until(r"^uciok")
        self.pipe.send("setoption name Threads value 1")
        self.pipe.send("setoption name Hash value 16")
        for name, value in options:
            self.pipe.send(f"setoption name {name} value {value}")

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


def parse_spec(spec):
    """(label, command, [(option, value)...]) of `[LABEL=]COMMAND[;NAME=VALUE...]`."""
    command, *settings = spec.split(";")
    label, _, rest = command.partition("=")
    if not rest:
        label, rest = command, command
    options = []
    for setting in settings:
        name, equals, value = setting.partition("=")
        if not equals or not name.strip():
            raise SystemExit(f"engine-speed.py: '{setting}' in '{spec}' is not NAME=VALUE")
        options.append((name.strip(), value.strip()))
    return label, rest, options


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
    ap.add_argument("engines", nargs="+", metavar="ENGINE", help="[LABEL=]COMMAND[;NAME=VALUE...]")
    ap.add_argument("--positions", default="data/openings.epd")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--clock", help="BASE_MS+INC_MS: also measure the time spent a move")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    if len(args.engines) < 2:
        ap.error("give at least two engines")
    if args.clock and len(args.engines) != 2:
        ap.error("--clock compares two engines")
    fens = load_fens(args.positions, args.count)
    engines = [Engine(spec) for spec in args.engines]
    totals = [[0, 0] for _ in engines]
    speeds = [[] for _ in engines]  # nodes a second of each search
    for _ in range(args.rounds):
        for fen in fens:
            for i, e in enumerate(engines):
                nodes, ms = e.search(fen, args.movetime)
                totals[i][0] += nodes
                totals[i][1] += ms
                speeds[i].append(1000.0 * nodes / max(ms, 1))
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
    medians = [statistics.median(s) for s in speeds]
    searches = f"{len(speeds[0])} searches of {args.movetime} ms each"
    for e, v, m in zip(engines, nps, medians):
        print(f"{e.name}: {v:,.0f} nps (median {m:,.0f}, {searches})")
    if len(engines) == 2:
        ratios = [a / b if b else 0.0 for a, b in zip(*speeds)]
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(f"ratio A/B: {nps[0] / nps[1]:.3f} (per position: median {statistics.median(ratios):.3f}, "
              f"quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}, {searches})")
    else:
        for e, m in zip(engines[1:], medians[1:]):
            print(f"median {e.name} / {engines[0].name}: {m / medians[0]:.3f}" if medians[0] else
                  f"median {e.name} / {engines[0].name}: -")
    if args.clock:
        for e, s in zip(engines, spent):
            print(f"{e.name}: at {args.clock} ms, median {statistics.median(s):.3f} s, mean {statistics.mean(s):.3f} s "
                  f"a move")
        print(f"time use A/B: median {statistics.median(spent[0]) / statistics.median(spent[1]):.2f}, "
              f"mean {statistics.mean(spent[0]) / statistics.mean(spent[1]):.2f} ({len(spent[0])} moves each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
