#!/usr/bin/env python3
"""pgn-score.py — a match's standing, read from its PGN while it is still being played.

    scripts/pgn-score.py MATCH.pgn [MORE.pgn ...] [--engine NAME] [--sprt ELO0,ELO1]

fastchess writes each finished game to the PGN but prints no running score,
and a run stopped by hand prints no summary. This reads the games finished
so far and prints, for the engine NAME (default "bachess"): games, W-L-D,
score, Elo with its 95 % margin, and the log-likelihood ratio of an SPRT
between ELO0 and ELO1 (default 0,10), with the usual bounds of alpha = beta
= 0.05 (±2.94). Several PGNs of the same pairing are read as one match: an
SPRT stopped undecided goes on with a second run (other openings), and the
test reads both.

The statistics are trinomial (each game on its own). fastchess's own
figures are pentanomial (game pairs), so its LLR and margin differ a little;
this is for watching a run and for runs cut short, not a second verdict.
"""
import argparse
import math
import re
import sys

LLR_BOUND = math.log((1 - 0.05) / 0.05)  # 2.94 for alpha = beta = 0.05


def results(pgn_text, engine):
    """(wins, losses, draws) of `engine` over its games with a result."""
    wins = losses = draws = 0
    for game in pgn_text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]*)"', game)
        black = re.search(r'\[Black "([^"]*)"', game)
        result = re.search(r'\[Result "([^"]*)"', game)
        if not white or not black or not result or result.group(1) not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if engine not in (white.group(1), black.group(1)):
            continue  # another pairing's game, or a name mistyped: not a loss of `engine`
        if result.group(1) == "1/2-1/2":
            draws += 1
        elif (result.group(1) == "1-0") == (white.group(1) == engine):
            wins += 1
        else:
            losses += 1
    return wins, losses, draws


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score):
    return -400 * math.log10(1 / score - 1)


def standing(wins, losses, draws, elo0, elo1):
    games = wins + losses + draws
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + losses * score ** 2 + draws * (0.5 - score) ** 2) / games
    line = f"{games} games +{wins} -{losses} ={draws}  {100 * score:.1f} %"
    if variance == 0 or score in (0, 1):
        return line + "  (no Elo: every game the same)"
    error = math.sqrt(variance / games)
    low, high = max(score - 1.96 * error, 1e-9), min(score + 1.96 * error, 1 - 1e-9)
    margin = (elo_of(high) - elo_of(low)) / 2
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = games * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)
    return line + f"  {elo_of(score):+.1f} +- {margin:.1f} Elo  LLR {llr:.2f} (bounds +-{LLR_BOUND:.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="bachess", help="the player whose score is shown (its PGN name)")
    parser.add_argument("--sprt", default="0,10", help="ELO0,ELO1 of the SPRT (default 0,10)")
    args = parser.parse_args()
    elo0, elo1 = (float(x) for x in args.sprt.split(","))
    text = ""
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as f:
            text += f.read()
    wins, losses, draws = results(text, args.engine)
    if wins + losses + draws == 0:
        sys.exit(f"{' '.join(args.pgn)}: no finished game of {args.engine}")
    print(standing(wins, losses, draws, elo0, elo1))


if __name__ == "__main__":
    main()
