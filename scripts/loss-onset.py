#!/usr/bin/env python3
"""scripts/loss-onset.py — who saw a decided game coming first, from match PGNs.

    scripts/loss-onset.py GAMES.pgn [MORE.pgn ...] [--engine NAME] [--threshold PAWNS] [--held]

For each decisive game of the engine NAME (default "bachess"), reads the
engines' own scores from the move comments that fastchess and cutechess-cli
write ({+0.31/15 0.442s}, {-M3/12 0.1s}; each from the mover's side) and
finds the first ply at which the winner's score reached +THRESHOLD (default
1.00) and the first at which the loser's reached -THRESHOLD. Their distance
in plies says whose judgement was ahead: in a loss, a large lead of the
winner means bachess did not see the loss coming; in a win, the same of
bachess means it saw further.

Prints a line per game, then for losses and wins apart: how many games each
side saw first (or both on the same move pair), the median and mean lead in
plies of the side that saw first counted as positive for the winner, and
the games where a side never reached the threshold (a loss by adjudication,
time or a blunder in a level position).
"""
import argparse
import re
import statistics
import sys

from match_pgn import commented_moves, games

SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")


def pawns(comment):
    """The score of a move comment in pawns from the mover's side; a mate is
    worth more than any threshold. None when the comment has no score."""
    m = SCORE.match(comment)
    if not m:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    return sign * (1000.0 if m.group(2) else float(m.group(3)))


def scored_plies(tags, body):
    """(game ply, side to move 'w'/'b', score) of each commented move."""
    for ply, comment in commented_moves(tags, body):
        score = pawns(comment)
        if score is not None:
            yield ply, "w" if ply % 2 == 0 else "b", score


def first_ply(plies, side, predicate, held):
    """The first ply of `side` whose score meets `predicate`; with `held`, the
    first from which every later score of that side meets it as well, so
    that a passing swing in a game decided later does not count."""
    own = [(ply, predicate(score)) for ply, mover, score in plies if mover == side]
    if held:
        start = None
        for ply, met in own:
            start = (ply if start is None else start) if met else None
        return start
    return next((ply for ply, met in own if met), None)


def onset(tags, body, threshold, held=False):
    """(winner's first ply at +threshold, loser's first ply at -threshold)."""
    winner = "w" if tags["Result"] == "1-0" else "b"
    loser = "b" if winner == "w" else "w"
    plies = list(scored_plies(tags, body))
    return (first_ply(plies, winner, lambda s: s >= threshold, held),
            first_ply(plies, loser, lambda s: s <= -threshold, held))


def summary(label, n, leads, never_winner, never_loser):
    """n games, of which `leads` are the loser's ply minus the winner's where both sides got there:
    positive when the winner saw it first. One ply apart means the same move pair, seen at once."""
    if n == 0:
        return f"{label}: none"
    winner_first = sum(1 for d in leads if d > 1)
    loser_first = sum(1 for d in leads if d < -1)
    same = len(leads) - winner_first - loser_first
    lines = [f"{label}: {n} games; winner saw it first in {winner_first}, loser first in {loser_first}, "
             f"both on the same move pair in {same}"]
    if leads:
        lines.append(f"  winner's lead: median {statistics.median(leads):+.0f} plies, "
                     f"mean {statistics.mean(leads):+.1f} (loser's first ply minus winner's)")
    if never_winner or never_loser:
        lines.append(f"  the winner never reached the threshold in {never_winner}, the loser in {never_loser}")
    return "\n".join(lines)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="GAMES.pgn")
    parser.add_argument("--engine", default="bachess", help="the engine whose games are read")
    parser.add_argument("--threshold", type=float, default=1.0, metavar="PAWNS")
    parser.add_argument("--held", action="store_true", help="count from where each score stayed past the line")
    return parser.parse_args(argv)


def main(argv):
    a = parse_arguments(argv)
    engine, threshold, held, files = a.engine, a.threshold, a.held, a.files
    tally = {"losses": (0, [], 0, 0), "wins": (0, [], 0, 0)}
    number = 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for tags, body in games(text):
            if tags.get("Result") not in ("1-0", "0-1") or engine not in (tags.get("White"), tags.get("Black")):
                continue
            number += 1
            won = (tags["Result"] == "1-0") == (tags["White"] == engine)
            kind = "wins" if won else "losses"
            winner_ply, loser_ply = onset(tags, body, threshold, held)
            played, leads, never_w, never_l = tally[kind]
            if winner_ply is not None and loser_ply is not None:
                leads.append(loser_ply - winner_ply)
            tally[kind] = (played + 1, leads, never_w + (winner_ply is None), never_l + (loser_ply is None))
            opponent = tags["Black"] if tags["White"] == engine else tags["White"]
            print(f"{number:3d} {'win' if won else 'loss':4s} vs {opponent}: winner at +{threshold:.2f} from ply "
                  f"{winner_ply if winner_ply is not None else 'never'}, loser at -{threshold:.2f} from ply "
                  f"{loser_ply if loser_ply is not None else 'never'}")
    if number == 0:
        sys.exit(f"loss-onset: no decisive game of {engine!r}")
    print()
    print(summary(f"{engine}'s losses", *tally["losses"]))
    print(summary(f"{engine}'s wins", *tally["wins"]))


if __name__ == "__main__":
    main(sys.argv[1:])
