#!/usr/bin/env python3
"""spsa.py — tunes bachess's search parameters (src/search_params.h) by SPSA
over fast self-play games, as fishtest does.

    make tuning            # builds ./bachess-tuning: every parameter a UCI option
    scripts/spsa.py --iterations 2000 [--pairs 1] [--concurrency 1] [--tc 2+0.02 | --nodes N]
                    [--params A,B,...] [--state spsa.json] [--fastchess PATH] [--seed N]
    scripts/spsa.py --openbench [--params A,B,...]   # the parameters as OpenBench's SPSA input

Each iteration draws a random sign (+1/-1) for every parameter, plays
`pairs` game pairs (one opening each, both colours; `concurrency` games at a time) between theta + c_k*delta and
theta - c_k*delta, and moves theta by a_k/c_k^2 * c_k * delta * result,
where result = (wins - losses) of the plus side. c_k = c_end * (N/k)^0.101
with c_end the parameter's step; a_k = r_end * c_end^2 * (A + N)^0.602 /
(A + k)^0.602 with A = N/10 and r_end = 0.002, fishtest's defaults (--r-end:
a run of a few hundred iterations, not fishtest's tens of thousands of games,
needs a larger one for theta to move at all). The
state (theta, iteration, games, W-L-D) is saved to the --state file after
every iteration, so a run can be stopped and resumed. The runner (fastchess)
is built outside the repository; see scripts/match.sh.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_params(header):
    """(name, value, min, max, step) from the SEARCH_PARAMS table."""
    text = open(header).read()
    return [(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), float(m.group(5)))
            for m in re.finditer(r"P\((\w+), (-?\d+), (-?\d+), (-?\d+), ([\d.]+)\)", text)]


def play_pair(args, plus, minus, seed):
    """Plays `pairs` game pairs; returns (wins, losses, draws) of `plus`."""
    def engine(name, values):
        return ["-engine", f"name={name}", f"cmd={args.engine}"] + [f"option.{k}={int(round(v))}" for k, v in values.items()]
    # A node limit makes the games independent of the machine's load (and faster).
    limit = ["tc=inf", f"nodes={args.nodes}"] if args.nodes else [f"tc={args.tc}"]
    cmd = ([args.fastchess] + engine("plus", plus) + engine("minus", minus)
           + ["-each", *limit, "option.OwnBook=false", "option.Hash=8",
              "-openings", f"file={args.openings}", "format=epd", "order=random", f"-srand", str(seed),
              "-rounds", str(args.pairs), "-games", "2", "-repeat", "-concurrency", str(args.concurrency)])
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", out)
    if not m:
        raise RuntimeError("no result from the runner:\n" + out[-2000:])
    _, w, l, d = map(int, m[-1])
    return w, l, d


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "bachess-tuning"))
    ap.add_argument("--fastchess", default=os.environ.get("FASTCHESS", shutil.which("fastchess") or "fastchess"))
    ap.add_argument("--openings", default=os.path.join(ROOT, "data", "openings.epd"))
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1, help="games played at a time")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, default=0, help="play every move to this many nodes instead of --tc")
    ap.add_argument("--params", default="", help="comma-separated names (default: all)")
    ap.add_argument("--state", default="spsa.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-end", type=float, default=0.002, help="learning rate at the end of the run")
    ap.add_argument("--openbench", action="store_true",
                    help="print the parameters (--params) as OpenBench's SPSA input, "
                         "`NAME, int, value, min, max, c_end, r_end` (c_end: the step; r_end: --r-end), and exit")
    args = ap.parse_args(argv)

    table = read_params(os.path.join(ROOT, "src", "search_params.h"))
    wanted = set(args.params.split(",")) if args.params else {p[0] for p in table}
    params = [p for p in table if p[0] in wanted]
    if args.openbench:
        for name, value, lo, hi, step in params:
            print(f"{name}, int, {value}, {lo}, {hi}, {step:g}, {args.r_end:g}")
        return 0
    state = {"iteration": 0, "theta": {p[0]: float(p[1]) for p in params}, "wld": [0, 0, 0]}
    if os.path.exists(args.state):
        state = json.load(open(args.state))
    n, alpha, gamma, r_end = args.iterations, 0.602, 0.101, args.r_end
    big_a = n / 10
    rng = random.Random(args.seed + state["iteration"])
    while state["iteration"] < n:
        k = state["iteration"] + 1
        delta, plus, minus, c_k = {}, {}, {}, {}
        for name, _, lo, hi, step in params:
            c_k[name] = step * (n / k) ** gamma
            delta[name] = rng.choice((-1, 1))
            theta = state["theta"][name]
            plus[name] = min(hi, max(lo, theta + c_k[name] * delta[name]))
            minus[name] = min(hi, max(lo, theta - c_k[name] * delta[name]))
        w, l, d = play_pair(args, plus, minus, args.seed * 100003 + k)
        result = w - l
        for name, _, lo, hi, step in params:
            a_k = r_end * step * step * (big_a + n) ** alpha / (big_a + k) ** alpha
            state["theta"][name] = min(hi, max(lo, state["theta"][name] + a_k / c_k[name] * delta[name] * result))
        state["iteration"] = k
        state["wld"] = [state["wld"][0] + w, state["wld"][1] + l, state["wld"][2] + d]
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1, sort_keys=True)
        os.replace(args.state + ".tmp", args.state)
        print(f"iteration {k}/{n}: {w}-{l}-{d}; " + " ".join(f"{p[0]}={state['theta'][p[0]]:.1f}" for p in params[:6])
              + (" ..." if len(params) > 6 else ""), flush=True)
    print(json.dumps(state["theta"], indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
