#!/usr/bin/env python3
"""marks-per-player.py ANNOTATED.pgn — how often each player erred, from the
output of `bachess annotate`: games, moves, ?! ? ?? per 100 moves and the
mean Accuracy tag, one line a player. docs/strength-limit.md uses it to compare
the weakened bachess with Stockfish at the same UCI_Elo."""
import argparse
import re
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# A move of the main line (SAN, then an optional suffix) or a NAG; comments
# and variations are taken out before.
TOKEN = re.compile(r"\$\d+|[KQRBNO][^\s]*|[a-h][^\s]*")
NAG_MARKS = {"$6": 0, "$2": 1, "$4": 2}


def main_line(movetext):
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    while "(" in text:
        text = re.sub(r"\([^()]*\)", " ", text)
    return re.sub(r"\d+\.+", " ", text)


def games(path):
    tags, moves = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        match = TAG.match(line)
        if match and moves:
            yield tags, " ".join(moves)
            tags, moves = {}, []
        if match:
            tags[match.group(1)] = match.group(2)
        elif line.strip():
            moves.append(line.strip())
    if moves:
        yield tags, " ".join(moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("annotated", metavar="ANNOTATED.pgn", help="the output of bachess annotate")
    path = parser.parse_args().annotated
    stats = defaultdict(lambda: {"games": 0, "moves": 0, "marks": [0, 0, 0], "accuracy": []})
    for tags, movetext in games(path):
        players = (tags.get("White", "?"), tags.get("Black", "?"))
        white_first = " b " not in tags.get("FEN", " w ")
        for colour, name in (("White", players[0]), ("Black", players[1])):
            stats[name]["games"] += 1
            if colour + "Accuracy" in tags:
                stats[name]["accuracy"].append(float(tags[colour + "Accuracy"]))
        first = 0 if white_first else 1

        def mover(index):
            return players[(index + first) % 2]

        moves = 0
        for token in TOKEN.findall(main_line(movetext)):
            if not token.startswith("$"):
                stats[mover(moves)]["moves"] += 1
                moves += 1
            elif token in NAG_MARKS and moves > 0:   # a NAG belongs to the move before it
                stats[mover(moves - 1)]["marks"][NAG_MARKS[token]] += 1
    print("%-20s %5s %6s %7s %7s %7s %9s" % ("player", "games", "moves", "?!/100", "?/100", "??/100", "accuracy"))
    for name, s in sorted(stats.items()):
        per100 = [100.0 * m / s["moves"] if s["moves"] else 0 for m in s["marks"]]
        accuracy = sum(s["accuracy"]) / len(s["accuracy"]) if s["accuracy"] else float("nan")
        print("%-20s %5d %6d %7.1f %7.1f %7.1f %9.1f" % (name, s["games"], s["moves"], *per100, accuracy))


if __name__ == "__main__":
    main()
