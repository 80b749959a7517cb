#!/usr/bin/env python3
"""scripts/time-usage.py — how each engine spent its clock, from match PGNs.

    scripts/time-usage.py GAMES.pgn [MORE.pgn ...] [--from PLY] [--to PLY]

Reads the move comments that cutechess-cli and fastchess write ({score/depth
time}, e.g. {+0.31/15 0.442s}) and prints, per engine: the median and mean
thinking time per move over game plies FROM..TO (default 10..60, where
games are decided), the median over the later plies, the share of the
clock (base + increments) used per game, and the games lost on time.
"""
import argparse
import re
import statistics
import sys
from collections import defaultdict

from match_pgn import commented_moves, games

TIME = re.compile(r"(-?\d+(?:\.\d+)?)(ms|s)?\s*$")


def thinking_times(tags, body):
    """(game ply, seconds) of each commented move."""
    for ply, comment in commented_moves(tags, body):
        t = TIME.search(comment.split("/")[-1]) if "/" in comment else TIME.search(comment)
        if t:
            yield ply, float(t.group(1)) / (1000.0 if t.group(2) == "ms" else 1.0)


def clock(tags):
    """(base seconds, increment) of a "B+I" time control, else None."""
    m = re.fullmatch(r"(?:\d+/)?(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", tags.get("TimeControl", ""))
    return (float(m.group(1)), float(m.group(2))) if m else None


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="GAMES.pgn")
    parser.add_argument("--from", dest="first", type=int, default=10, metavar="PLY")
    parser.add_argument("--to", dest="last", type=int, default=60, metavar="PLY")
    return parser.parse_args(argv)


def main(argv):
    a = parse_arguments(argv)
    lo, hi, files = a.first, a.last, a.files
    middle, late, used, losses, count = defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(int), defaultdict(int)
    for path in files:
        for tags, body in games(open(path, encoding="utf-8", errors="replace").read()):
            names = {0: tags.get("White", "?"), 1: tags.get("Black", "?")}
            spent = defaultdict(float)
            moves = defaultdict(int)
            for ply, seconds in thinking_times(tags, body):
                name = names[ply % 2]
                if lo <= ply <= hi:
                    middle[name].append(seconds)
                elif ply > hi:
                    late[name].append(seconds)
                spent[name] += seconds
                moves[name] += 1
            tc = clock(tags)
            for side, name in names.items():
                count[name] += 1
                if tc and moves[name]:
                    used[name].append(spent[name] / (tc[0] + tc[1] * moves[name]))
            term = tags.get("Termination", "")
            if "time" in term.lower():
                loser = names[0] if tags.get("Result") == "0-1" else names[1] if tags.get("Result") == "1-0" else None
                if loser:
                    losses[loser] += 1
    print("%-12s %6s %14s %12s %14s %11s %9s" % ("engine", "games", "median %d-%d" % (lo, hi), "mean", "median >%d" % hi,
                                                  "clock used", "time loss"))
    for name in sorted(count):
        m, l = middle[name], late[name]
        print("%-12s %6d %13.3fs %11.3fs %13s %10s %9d" % (
            name, count[name], statistics.median(m) if m else 0, statistics.mean(m) if m else 0,
            "%.3fs" % statistics.median(l) if l else "-",
            "%.0f %%" % (100 * statistics.mean(used[name])) if used[name] else "-", losses[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
