#!/usr/bin/env python3
"""loss_onset_test.py — scripts/loss-onset.py, who saw a decided game coming
first (make script-tests).

Checks, on small PGNs written here with plies counted by hand:
  - each side's first ply past the threshold, from its own (mover's) score,
    with a mate score past any threshold and a game set up from a FEN with
    Black to move counted from the FEN's ply;
  - --held takes the ply from which a score stayed past the threshold, so a
    passing swing does not count;
  - a side that never reaches the threshold is counted apart, not as a lead,
    and a game where neither does is one game;
  - draws and another pairing's games are left out; a name with no decisive
    game is an error (exit 1).
"""
import os
import re
import subprocess
import sys
import tempfile

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "loss-onset.py")

# bachess (White) loses. Plies: 0 e4 +0.10, 1 e5 +0.20, 2 Nf3 -0.50,
# 3 Nc6 +1.30 (Black's first and held), 4 Bc4 -1.10 (White's first),
# 5 Nf6 +1.50, 6 Ng5 -0.80 (White swings back), 7 d5 +M2,
# 8 exd5 -M1 (White's held), 9 Qxd5 +M1.
LOSS_SEEN_LATE = """[Event "t"]
[White "bachess"]
[Black "ref"]
[Result "0-1"]

1. e4 {+0.10/10 0.1s} e5 {+0.20/10 0.1s} 2. Nf3 {-0.50/10 0.1s} Nc6 {+1.30/10 0.1s}
3. Bc4 {-1.10/10 0.1s} Nf6 {+1.50/10 0.1s} 4. Ng5 {-0.80/10 0.1s} d5 {+M2/10 0.1s}
5. exd5 {-M1/10 0.1s} Qxd5 {+M1/10 0.1s} 0-1
"""

# bachess (Black) loses on time without ever scoring -1.00; White's first at ply 2.
LOSS_NEVER_SEEN = """[Event "t"]
[White "ref"]
[Black "bachess"]
[Result "1-0"]

1. d4 {+0.30/10 0.1s} d5 {-0.20/10 0.1s} 2. c4 {+1.10/10 0.1s} e6 {-0.60/10 0.1s} 1-0
"""

# bachess (Black) wins from a FEN with Black to move at move 20: ply 39.
# 39 Qd5 +1.50 (Black's first), 40 Ke2 -0.30, 41 Qe4+ +3.00, 42 Kf1 -1.20 (White's first).
WIN_FROM_FEN = """[Event "t"]
[White "ref"]
[Black "bachess"]
[Result "0-1"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/3q1PPP/6K1 b - - 0 20"]

20... Qd5 {+1.50/10 0.1s} 21. Ke2 {-0.30/10 0.1s} Qe4+ {+3.00/10 0.1s} 22. Kf1 {-1.20/10 0.1s} 0-1
"""

# bachess (White) loses a level game: neither side ever reaches 1.00. One
# game, counted once, never as a lead.
LOSS_LEVEL = """[Event "t"]
[White "bachess"]
[Black "ref"]
[Result "0-1"]

1. e4 {+0.10/10 0.1s} e5 {-0.20/10 0.1s} 2. Nf3 {+0.30/10 0.1s} Nc6 {+0.40/10 0.1s} 0-1
"""

DRAW_AND_OTHERS = """[Event "t"]
[White "bachess"]
[Black "ref"]
[Result "1/2-1/2"]

1. e4 {+3.00/10 0.1s} e5 {-3.00/10 0.1s} 1/2-1/2

[Event "t"]
[White "other"]
[Black "ref"]
[Result "1-0"]

1. e4 {+3.00/10 0.1s} e5 {-3.00/10 0.1s} 1-0
"""


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def game_lines(output):
    return re.findall(r"^\s*\d+ (win|loss)\s+vs (\S+): winner at \+1\.00 from ply (\w+), loser at -1\.00 from ply (\w+)$",
                      output, re.M)


def test_loss_onset():
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "match.pgn")
        with open(pgn, "w") as f:
            f.write("\n".join([LOSS_SEEN_LATE, DRAW_AND_OTHERS, LOSS_NEVER_SEEN, WIN_FROM_FEN, LOSS_LEVEL]))

        first = run(pgn)
        check(first.returncode == 0, f"first crossing: exit {first.returncode}", detail=first.stderr)
        check(game_lines(first.stdout) == [("loss", "ref", "3", "4"), ("loss", "ref", "2", "never"),
                                           ("win", "ref", "39", "42"), ("loss", "ref", "never", "never")],
              "first crossing: each decisive game's plies, draws and other pairings left out", detail=first.stdout)
        check("bachess's losses: 3 games; winner saw it first in 0, loser first in 0, both on the same move pair in 1"
              in first.stdout, "first crossing: the loss seen one ply apart is the same move pair", detail=first.stdout)
        check("the winner never reached the threshold in 1, the loser in 2" in first.stdout,
              "first crossing: the loss never seen and the level loss are counted apart, each game once",
              detail=first.stdout)
        check("bachess's wins: 1 games; winner saw it first in 1" in first.stdout
              and "median +3 plies" in first.stdout, "first crossing: the win seen 3 plies ahead", detail=first.stdout)

        held = run(pgn, "--held")
        check(game_lines(held.stdout)[0] == ("loss", "ref", "3", "8"),
              "held: the swing back at ply 6 moves the loser's ply to 8", detail=held.stdout)
        check("bachess's losses: 3 games; winner saw it first in 1" in held.stdout and "median +5 plies" in held.stdout,
              "held: the winner 5 plies ahead", detail=held.stdout)

        ref = run(pgn, "--engine", "ref")
        check(ref.returncode == 0 and "ref's losses: 2 games" in ref.stdout and "ref's wins: 3 games" in ref.stdout,
              "the other side: its own wins and losses, the game against another engine counted",
              detail=ref.stdout + ref.stderr)

        nobody = run(pgn, "--engine", "nobody")
        check(nobody.returncode == 1 and "no decisive game of 'nobody'" in nobody.stderr,
              f"an engine in no game: exit {nobody.returncode}", detail=nobody.stderr)
