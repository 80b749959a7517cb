#!/usr/bin/env python3
"""engine_speed_test.py — scripts/engine-speed.py against two stand-in UCI
engines whose searches report fixed figures (make script-tests).

Checks:
  - each engine's nodes a second are its nodes over its milliseconds, summed
    over the positions and rounds, and the ratio A/B is theirs;
  - the per-position ratios are counted (positions x rounds searches);
  - each engine's median speed is printed; with three engines, each one's
    median over the first's;
  - LABEL=COMMAND prints the label, and ;NAME=VALUE reaches the engine as
    a UCI option (a stand-in that multiplies its nodes by its Factor);
  - a setting that is not NAME=VALUE is refused with a message;
  - with --clock, every engine is timed on every position and the time-use
    lines are printed;
  - an engine that exits instead of answering `isready` ends the run with an
    error naming what it waited for, not a hang.
"""
import os
import re
import subprocess
import sys

import pytest

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "engine-speed.py")

# A stand-in engine: answers the handshake, and every `go` with one info line
# of NODES nodes (times the option Factor) in TIME ms and a bestmove. GONE
# engines exit at isready.
ENGINE = """#!/usr/bin/env python3
import sys
NODES, TIME, GONE = {nodes}, {time}, {gone}
for line in sys.stdin:
    word = line.split()[:1]
    if line.split()[:3] == ["setoption", "name", "Factor"]:
        NODES *= int(line.split()[4])
    elif word == ["uci"]:
        print("id name stand-in\\nuciok", flush=True)
    elif word == ["isready"]:
        if GONE:
            break
        print("readyok", flush=True)
    elif word == ["go"]:
        print(f"info depth 5 nodes {{NODES}} time {{TIME}} pv e2e4\\nbestmove e2e4", flush=True)
    elif word == ["quit"]:
        break
"""

POSITIONS = """rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
"""


def stand_in(directory, name, nodes, time_ms, quits_at_isready=False):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(ENGINE.format(nodes=nodes, time=time_ms, gone=quits_at_isready))
    os.chmod(path, 0o755)
    return path


# A run with the stand-ins takes about 1.5 s with both cores busy
# generating data; the bound only turns a hang into a failure.
def run(*args, timeout=60):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory):
    """(folder, the fast engine, the slow one, the positions file)."""
    tmp = str(tmp_path_factory.mktemp("engine-speed"))
    fens = os.path.join(tmp, "fens.epd")
    with open(fens, "w") as f:
        f.write(POSITIONS)
    return tmp, stand_in(tmp, "fast", 3000, 100), stand_in(tmp, "slow", 1000, 100), fens


def test_speeds_and_ratio(stand_ins):
    tmp, fast, slow, fens = stand_ins
    r = run(fast, slow, "--positions", fens, "--count", "3", "--movetime", "10", "--rounds", "2")
    out = r.stdout
    check(r.returncode == 0, "a run of two stand-ins ends with status 0", detail=r.stderr)
    check(re.search(r"fast: 30,000 nps \(median 30,000, 6 searches of 10 ms each\)", out),
          "A's speed is its nodes over its time: 30,000 nps, and its median", detail=out)
    check(re.search(r"slow: 10,000 nps", out), "B's speed: 10,000 nps", detail=out)
    check(re.search(r"ratio A/B: 3\.000 \(per position: median 3\.000, quartiles 3\.000-3\.000, 6 searches of 10 ms",
                    out), "the ratio 3.000, over 3 positions x 2 rounds = 6 searches", detail=out)
    check("time use" not in out, "no time-use lines without --clock", detail=out)


def test_clock(stand_ins):
    tmp, fast, slow, fens = stand_ins
    r = run(fast, slow, "--positions", fens, "--count", "2", "--movetime", "10", "--clock", "1000+10")
    out = r.stdout
    check(r.returncode == 0, "with --clock: status 0", detail=r.stderr)
    check(re.search(r"fast: at 1000\+10 ms, median \d+\.\d{3} s, mean \d+\.\d{3} s a move", out)
          and re.search(r"slow: at 1000\+10 ms, median", out), "with --clock: each engine's median and mean",
          detail=out)
    check(re.search(r"time use A/B: median [\d.]+, mean [\d.]+ \(2 moves each\)", out),
          "with --clock: A over B, 2 moves each", detail=out)



def test_three_engines_labels_and_options(stand_ins):
    tmp, fast, slow, fens = stand_ins
    r = run(fast, slow, f"double={slow};Factor=2", "--positions", fens, "--count", "3", "--movetime", "10")
    out = r.stdout
    check(r.returncode == 0, "three engines: status 0", detail=r.stderr)
    check(re.search(r"^double: 20,000 nps \(median 20,000, 3 searches", out, re.M),
          "the label is printed for the command, and Factor=2 reached the engine: 20,000 nps", detail=out)
    check(re.search(r"median \S*slow / \S*fast: 0\.333", out) and re.search(r"median double / \S*fast: 0\.667", out),
          "three engines: each median over the first's", detail=out)
    check("ratio A/B" not in out, "three engines: no A/B ratio line", detail=out)


def test_setting_without_value_refused(stand_ins):
    tmp, fast, slow, fens = stand_ins
    r = run(fast, f"{slow};Factor", "--positions", fens, "--count", "1")
    check(r.returncode != 0 and "is not NAME=VALUE" in r.stderr, "a setting without a value is refused by name",
          detail=f"status {r.returncode}\n{r.stderr[-500:]}")


def test_engine_gone_at_isready(stand_ins):
    tmp, fast, slow, fens = stand_ins
    gone = stand_in(tmp, "gone", 1000, 100, quits_at_isready=True)
    r = run(gone, slow, "--positions", fens, "--count", "1")
    check(r.returncode != 0 and "ended before /^readyok/" in r.stderr,
          "an engine that exits at isready: an error naming the readyok it waited for, no hang",
          detail=f"status {r.returncode}\n{r.stderr[-500:]}")
