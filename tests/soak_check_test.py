#!/usr/bin/env python3
"""soak_check_test.py — scripts/soak-check.py, the soak's judge of every
game (make script-tests, under pytest).

On small PGNs and runner outputs written here, in the forms fastchess and
XBoard write them:
  - a clean match passes (exit 0), a checkmate, a repetition and an
    adjudication being no trouble;
  - a loss on time, an illegal move, a crash (fastchess's "abandoned",
    XBoard's "exited"), a stall, a false claim and an unfinished game are
    each found, and the first bad game is named by its file, its place in
    the file and why (exit 1), whichever comes later in the file;
  - fewer games than asked is a failure;
  - the runner's output: a "Finished game" line with a loss on time fails,
    a count of zero ("Crashed: 0"), an "ok" verdict naming what did not
    happen and a path with "crash" in it do not.
"""
import os
import re
import subprocess
import sys
import tempfile

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "soak-check.py")

MOVES = "1. e4 {+0.30/10 0.10s} e5 {-0.25/9 0.09s} 2. Nf3 {+0.31/11 0.12s}"


def game(result, termination="normal", comment=None, white="bachess", black="bachess-ref", rnd="1"):
    """A game as fastchess writes it: a Termination tag, the reason as the
    comment before the result."""
    ending = f" {{{comment}}}" if comment else ""
    return (f'[Event "soak"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
            f'[Termination "{termination}"]\n\n{MOVES}{ending} {result}\n\n')


def xboard_game(result, comment):
    """A game as XBoard writes it: no Termination tag, the reason in the comment."""
    return (f'[Event "Computer chess game"]\n[Round "1"]\n[White "bachess first"]\n[Black "bachess second"]\n'
            f'[Result "{result}"]\n\n{MOVES}\n{{{comment}}} {result}\n\n')


CLEAN = [game("1-0", comment="White mates"), game("1/2-1/2", comment="Draw by 3-fold repetition"),
         game("0-1", "adjudication", "Black wins by adjudication")]
BAD = {
    "time": game("0-1", "time forfeit", "White loses on time (12ms overrun)"),
    "illegal": game("1-0", "illegal move", "Black makes an illegal move"),
    "crash": game("1-0", "abandoned", "Black disconnects"),
    "stall": game("0-1", "abandoned", "White's connection stalls"),
    "unfinished": game("*", "unterminated", "Game interrupted"),
}
XBOARD_BAD = {  # XBoard's own words
    "time": xboard_game("1-0", "White wins on time"),
    "illegal": xboard_game("0-1", "Xboard: Forfeit due to illegal move: Ke2xe8 (e1e8)"),
    "crash": xboard_game("1-0", "bachess second exited unexpectedly"),
    "claim": xboard_game("0-1", "False illegal-move claim"),
}


def run(directory, pgn_text, *args, outputs=()):
    pgn = os.path.join(directory, "games.pgn")
    with open(pgn, "w") as f:
        f.write(pgn_text)
    output_args = []
    for number, text in enumerate(outputs):
        path = os.path.join(directory, f"runner{number}.out")
        with open(path, "w") as f:
            f.write(text)
        output_args += ["--output", path]
    p = subprocess.run([sys.executable, SCRIPT, *args, *output_args, pgn], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def first_bad(output):
    match = re.search(r"first bad game: (.*)", output)
    return match.group(1) if match else ""


def test_soak_check():
    with tempfile.TemporaryDirectory() as d:
        status, out = run(d, "".join(CLEAN), "--games", "3")
        check(status == 0 and "soak-check: ok" in out and "3 games" in out, "a clean match passes", out)

        for bad in (BAD, XBOARD_BAD):
            for kind, text in bad.items():
                # The bad game third, after two clean ones, before a clean one.
                status, out = run(d, CLEAN[0] + CLEAN[1] + text + CLEAN[2])
                named = first_bad(out)
                check(status == 1 and re.search(r"games\.pgn game 3 \(.*\): " + kind + ": ", named),
                      f"{kind} ({'XBoard' if bad is XBOARD_BAD else 'fastchess'}): game 3 named: {named}", out)
                check(re.search(rf"\b{kind} 1\b", out), f"{kind}: counted once", out)

        status, out = run(d, CLEAN[0] + BAD["illegal"] + BAD["time"] + BAD["crash"])
        named = first_bad(out)
        check(status == 1 and "game 2 " in named and ": illegal: " in named and out.count("also:") == 2,
              f"three bad games: the first named, the others listed: {named}", out)

        status, out = run(d, "".join(CLEAN), "--games", "4")
        check(status == 1 and "3 games, not 4" in first_bad(out), "a game missing: named", out)

        runner_ok = ("Finished game 1 (bachess vs bachess-ref): 1-0 {White mates}\n  Crashed: 0\n"
                     "       pgn /tmp/crash-hunt/stalled-games.pgn\n"
                     "illegal moves:      0  (bachess 0, bachess-ref 0, draw 0)\n"
                     "xboard-match: ok (2 games in 9 s: no forfeit, false claim, illegal move, time loss or exit)\nOK\n")
        status, out = run(d, "".join(CLEAN), outputs=[runner_ok])
        check(status == 0, "the runner's output: counts of zero, ok verdicts and paths pass", out)

        runner_bad = runner_ok + "Finished game 7 (bachess-ref vs bachess): 0-1 {White loses on time (3ms overrun)}\n"
        status, out = run(d, "".join(CLEAN), outputs=[runner_bad, runner_bad])
        named = first_bad(out)
        check(status == 1 and "runner's game 7" in named and ": time: " in named and "also:" not in out,
              f"the runner's output: a loss on time named once, from two outputs: {named}", out)

        status, out = run(d, "".join(CLEAN), outputs=["xboard-match: FAIL: xboard exit code 124\n"])
        check(status == 1 and "exit code 124" in first_bad(out), "a FAIL verdict of a match script fails", out)

        missing = subprocess.run([sys.executable, SCRIPT, os.path.join(d, "none.pgn")], capture_output=True, text=True)
        check(missing.returncode == 2, "an unreadable PGN: exit 2", missing.stderr)
