#!/usr/bin/env python3
"""pgn_score_test.py — scripts/pgn-score.py, the standing of a match read from
its PGNs (make script-tests).

Checks, on small PGNs written here:
  - wins, losses and draws are the named engine's, whichever colour it had;
  - games of another pairing in the same file, and games without a result,
    are not counted;
  - a name that plays no game is an error (exit 1), not a score;
  - two PGNs read as one match give the sum of their games;
  - score, Elo and the SPRT's log-likelihood ratio are the trinomial figures
    worked out by hand below.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "pgn-score.py")


def game(white, black, result):
    return f'[Event "t"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n\n'


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def expected_line(wins, losses, draws, elo0=0.0, elo1=10.0):
    """The trinomial figures, computed independently of the script's code."""
    n = wins + losses + draws
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + losses * score ** 2 + draws * (0.5 - score) ** 2) / n
    elo = -400 * math.log10(1 / score - 1)
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    llr = n * (s1 - s0) * (2 * score - s0 - s1) / (2 * var)
    return n, score, elo, llr


def parse(output):
    m = re.match(r"(\d+) games \+(\d+) -(\d+) =(\d+)\s+([\d.]+) %\s+([+-][\d.]+) \+- [\d.]+ Elo\s+LLR (-?[\d.]+)", output)
    return m and (int(m[1]), int(m[2]), int(m[3]), int(m[4]), float(m[5]), float(m[6]), float(m[7]))


def test_pgn_score():
    with tempfile.TemporaryDirectory() as tmp:
        first = os.path.join(tmp, "first.pgn")
        second = os.path.join(tmp, "second.pgn")
        with open(first, "w") as f:
            # bachess: White wins, Black wins, White loses, a draw; then
            # another pairing's game and an unfinished one, not counted.
            f.write(game("bachess", "ref", "1-0") + game("ref", "bachess", "0-1") + game("bachess", "ref", "0-1")
                    + game("ref", "bachess", "1/2-1/2") + game("other", "ref", "1-0") + game("bachess", "ref", "*"))
        with open(second, "w") as f:
            f.write(game("ref", "bachess", "1-0") + game("bachess", "ref", "1/2-1/2") + game("bachess", "ref", "1-0"))

        one = run(first)
        got = parse(one.stdout)
        check(one.returncode == 0 and got is not None, f"one PGN: exit {one.returncode}, '{one.stdout.strip()}'")
        if got:
            check(got[:4] == (4, 2, 1, 1), f"one PGN: W-L-D {got[1:4]} of {got[0]} games, expected 2-1-1 of 4")

        both = run(first, second, "--sprt", "0,10")
        got = parse(both.stdout)
        check(both.returncode == 0 and got is not None, f"two PGNs: exit {both.returncode}, '{both.stdout.strip()}'")
        if got:
            check(got[:4] == (7, 3, 2, 2), f"two PGNs: W-L-D {got[1:4]} of {got[0]} games, expected 3-2-2 of 7")
            n, score, elo, llr = expected_line(3, 2, 2)
            check(abs(got[4] - 100 * score) < 0.05, f"score {got[4]} %, expected {100 * score:.1f}")
            check(abs(got[5] - elo) < 0.05, f"Elo {got[5]}, expected {elo:.1f}")
            check(abs(got[6] - llr) < 0.005, f"LLR {got[6]}, expected {llr:.2f}")

        ref = parse(run(first, "--engine", "ref").stdout)
        # ref's own games: the four against bachess and the one against "other".
        check(ref is not None and ref[:4] == (5, 1, 3, 1), f"the other side: {ref}, expected 1-3-1 of 5")

        missing = run(first, "--engine", "nobody")
        check(missing.returncode == 1 and "no finished game of nobody" in missing.stderr,
              f"an engine in no game: exit {missing.returncode}, stdout '{missing.stdout.strip()}'")
