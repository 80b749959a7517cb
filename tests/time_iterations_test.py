#!/usr/bin/env python3
"""time_iterations_test.py — scripts/time-iterations.py, the rules of when to
begin an iteration replayed on logged searches (make script-tests).

Checks, on searches written here:
  - the UCI lines of a search give its finished iterations: a multipv-1 line
    with its `info string optimum`; bound lines and other multipv lines are
    not iterations;
  - "no iteration begun past F x the optimum" ends on the first iteration
    whose time reaches F x its optimum, or on the last one logged;
  - the predicting rule also ends on an iteration whose successor, at
    `growth` times its length, would end past margin x the optimum;
  - the growth of iterations is measured only over iterations long enough;
  - --replay reports on a file --save wrote, with the figures worked out by
    hand below.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "time-iterations.py")
spec = importlib.util.spec_from_file_location("time_iterations", SCRIPT)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)


LINES = [
    "info depth 1 seldepth 1 multipv 1 score cp 20 nodes 30 nps 30000 hashfull 0 tbhits 0 time 1 pv e2e4",
    "info string optimum 300",
    "info depth 2 seldepth 3 multipv 1 score cp 90 lowerbound nodes 90 nps 90000 hashfull 0 tbhits 0 time 5",
    "info depth 2 seldepth 3 multipv 1 score cp 25 nodes 120 nps 60000 hashfull 0 tbhits 0 time 8 pv e2e4 e7e5",
    "info depth 2 seldepth 3 multipv 2 score cp 10 nodes 120 nps 60000 hashfull 0 tbhits 0 time 8 pv d2d4 d7d5",
    "info string optimum 280",
    "info depth 3 seldepth 5 multipv 1 score cp 22 nodes 900 nps 90000 hashfull 0 tbhits 0 time 10 pv e2e4 e7e5 g1f3",
    "bestmove e2e4",
]


def test_iterations_of_the_lines():
    check(module.iterations(LINES) == [(1, 1, 300), (2, 8, 280)],
          f"iterations of the lines: {module.iterations(LINES)}, not [(1, 1, 300), (2, 8, 280)]")


# (depth, ms from the clock's start, optimum in ms) of each iteration.
SEARCH = [(10, 40, 200), (11, 90, 200), (12, 150, 210), (13, 260, 220)]


def test_stop_uniform():
    check(module.stop_uniform(SEARCH, 1.0) == (13, 260, 220), "today's rule does not end on the first iteration past it")
    check(module.stop_uniform(SEARCH, 0.5) == (12, 150, 210), "0.5 x: not the first iteration past 105 ms")
    check(module.stop_uniform(SEARCH, 0.1) == (10, 40, 200), "0.1 x: not the first iteration")
    check(module.stop_uniform(SEARCH[:2], 1.0) == (11, 90, 200), "a search that never reached its optimum ends on its last")


def test_stop_predicted():
    # At 2 x the last iteration's length: after depth 10 (40 ms), 40 + 80 = 120 <= 200;
    # after depth 11 (50 ms), 90 + 100 = 190 <= 200; after 12 (60 ms), 150 + 120 = 270 > 210.
    check(module.stop_predicted(SEARCH, 2.0, 1.0) == (12, 150, 210), "the prediction did not stop before depth 13")
    check(module.stop_predicted(SEARCH, 2.0, 1.5) == (13, 260, 220), "margin 1.5: 270 <= 315 should go on to depth 13")
    check(module.stop_predicted(SEARCH, 4.0, 1.0) == (11, 90, 200), "growth 4: 40 + 160 = 200 is not past 200, 90 + 200 is")



def test_iteration_growth():
    # Lengths 40, 50, 60, 110 ms: ratios 1.25, 1.2, 110/60; a 10 ms iteration is too short to divide by.
    growth = module.iteration_growth([SEARCH, [(5, 10, 100), (6, 30, 100)]])
    check([round(g, 3) for g in growth] == [1.25, 1.2, 1.833], f"growth {growth}")



def test_replay_of_saved_searches():
    with tempfile.TemporaryDirectory(prefix="bachess-time-iterations-") as work:
        saved = os.path.join(work, "searches.json")
        with open(saved, "w") as f:
            json.dump({"title": "two searches", "searches": [SEARCH, SEARCH[:3]]}, f)
        run = subprocess.run([sys.executable, SCRIPT, "--replay", saved], capture_output=True, text=True)
        check(run.returncode == 0, f"--replay failed: {run.stderr}")
        out = run.stdout
        check("moves that stopped on the optimum: 2" in out, f"the count of searches: {out}")
        # Today's rule ends the two searches at 260 and 150 ms, depths 13 and 12.
        today = [l for l in out.splitlines() if "(bachess)" in l]
        check(today and today[0].split()[-3:] == ["205", "205", "12.50"], f"today's rule: {today}")
