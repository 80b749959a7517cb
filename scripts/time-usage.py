#!/usr/bin/env python3
"""scripts/time-usage.py — how each engine spent its clock, from match PGNs.

    scripts/time-usage.py GAMES.pgn [MORE.pgn ...] [--from PLY] [--to PLY]

Reads the move comments that cutechess-cli and fastchess write ({score/depth
time}, e.g. {+0.31/15 0.442s}) and prints, per engine: the median and mean
thinking time per move over game plies FROM..TO (default 10..60, where
games are decided), the median over the later plies, the share of the
clock (base + increments) used per game, and the games lost on time.
"""
import re
import statistics
import sys
from collections import defaultdict

TIME = re.compile(r"(-?\d+(?:\.\d+)?)(ms|s)?\s*$")


def games(text):
    """(tags, movetext) of each game."""
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        head, _, body = block.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', head, re.M))
        yield tags, body


def start_ply(tags):
    fen = tags.get("FEN")
    if not fen:
        return 0
    fields = fen.split()
    return (int(fields[5]) - 1) * 2 + (fields[1] == "b")


def thinking_times(tags, body):
    """(game ply, seconds) of each commented move."""
    ply = start_ply(tags)
    for m in re.finditer(r"([^\s{}]+)\s*\{([^}]*)\}", body):
        san, comment = m.group(1), m.group(2)
        if re.fullmatch(r"\d+\.(\.\.)?", san):
            continue
        t = TIME.search(comment.split("/")[-1]) if "/" in comment else TIME.search(comment)
        if t:
            seconds = float(t.group(1)) / (1000.0 if t.group(2) == "ms" else 1.0)
            yield ply, seconds
        ply += 1


def clock(tags):
    """(base seconds, increment) of a "B+I" time control, else None."""
    m = re.fullmatch(r"(?:\d+/)?(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", tags.get("TimeControl", ""))
    return (float(m.group(1)), float(m.group(2))) if m else None


def main(argv):
    lo, hi, files = 10, 60, []
    args = iter(argv)
    for a in args:
        if a == "--from":
            lo = int(next(args))
        elif a == "--to":
            hi = int(next(args))
        else:
            files.append(a)
    if not files:
        print(__doc__)
        return 2
    middle, late, used, losses, count = defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(int), defaultdict(int)
    for path in files:
        for tags, body in games(open(path, encoding="utf-8", errors="replace").read()):
            first = start_ply(tags)
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
