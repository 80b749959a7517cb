#!/usr/bin/env python3
"""scripts/time-iterations.py — where a move's time goes, iteration by iteration.

    scripts/time-iterations.py [--engine ./bachess] [--openings data/openings.epd]
                               [--games 6] [--plies 50] [--tc 10+0.1]

Plays the engine against itself from the first GAMES openings, PLIES plies
each, on a clock of TC (seconds + increment, each side's clock kept by this
script), with `debug on`. After each finished iteration bachess then prints
`info string optimum MS`: how long the time manager will let the search
deepen, as scaled after that iteration. From the iterations' times and
optimums it prints:

- the time a move took, and by how much the last iteration overran the
  optimum (the search checks it only between iterations);
- when that last iteration was begun, as a share of the optimum then;
- the same moves cut short by other rules, applied to the iterations logged:
  "begin no iteration past F x the optimum" (the optimum scaled down), and
  "begin none that would end past M x the optimum, if it takes G times as long
  as the one before" (a prediction). For each rule: the time a move would
  take and the depth it would reach. A rule that reaches the same depth in
  less time than another is the better one; the time it saves goes to later
  moves.

The games are the engine's own, so the figures depend on the machine's
speed; compare rules within one run. `--save FILE` keeps the iterations
logged, `--replay FILE` reports on them again without playing.
"""
import argparse
import json
import statistics
import time

from enginedriver import Engine

UNIFORM = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PREDICTED = ((1.5, 1.0), (2.0, 1.0), (2.0, 1.25), (2.0, 1.5))


def iterations(lines):
    """(depth, time in ms, optimum in ms) of each finished iteration of a search:
    an `info depth` line followed by its `info string optimum`."""
    found, last = [], None
    for line in lines:
        words = line.split()
        if words[:2] == ["info", "depth"] and "time" in words and "multipv" in words:
            if words[words.index("multipv") + 1] == "1":
                last = (int(words[2]), int(words[words.index("time") + 1]))
        elif words[:3] == ["info", "string", "optimum"] and last:
            found.append((last[0], last[1], int(words[3])))
            last = None
    return found


def play(engine, fen, plies, base_ms, inc_ms):
    """The iterations of every move of one game that stopped on its optimum."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.until("^readyok")
    clock, moves, searches = [base_ms, base_ms], [], []
    for ply in range(plies):
        side = ply % 2
        engine.send(f"position fen {fen} moves {' '.join(moves)}".rstrip())
        started = time.monotonic()
        engine.send(f"go wtime {clock[0]} btime {clock[1]} winc {inc_ms} binc {inc_ms}")
        lines = engine.until("^bestmove")
        clock[side] += inc_ms - int((time.monotonic() - started) * 1000)
        found = iterations(lines)
        if found and found[-1][1] >= found[-1][2]:
            searches.append(found)
        move = lines[-1].split()[1]
        if move in ("(none)", "0000"):
            break
        moves.append(move)
    return searches


def stop_uniform(found, factor):
    """The iteration a search ends on when none is begun past factor x the optimum."""
    for it in found:
        if it[1] >= factor * it[2]:
            return it
    return found[-1]


def stop_predicted(found, growth, margin):
    """The iteration a search ends on when none is begun that would end past
    margin x the optimum, if it took `growth` times the one before."""
    previous_end = 0
    for it in found:
        if it[1] >= it[2] or it[1] + growth * (it[1] - previous_end) > margin * it[2]:
            return it
        previous_end = it[1]
    return found[-1]


MEASURABLE_MS = 20  # shorter iterations are timed too coarsely (1 ms) to divide by


def iteration_growth(searches):
    """How much longer each iteration took than the one before it."""
    ratios = []
    for found in searches:
        ends = [0] + [it[1] for it in found]
        lengths = [b - a for a, b in zip(ends, ends[1:])]
        ratios += [b / a for a, b in zip(lengths, lengths[1:]) if a >= MEASURABLE_MS]
    return ratios


def summary(name, ends):
    times = [it[1] for it in ends]
    return (f"{name:<52} {statistics.median(times):>8.0f} {statistics.mean(times):>8.0f} "
            f"{statistics.mean(it[0] for it in ends):>8.2f}")


def report(searches):
    last = [found[-1] for found in searches]
    overrun = [it[1] / it[2] for it in last if it[2] > 0]
    begun = [found[-2][1] / found[-2][2] for found in searches if len(found) > 1 and found[-2][2] > 0]
    print(f"moves that stopped on the optimum: {len(searches)}")
    print(f"time / optimum at the end: median {statistics.median(overrun):.2f}, mean {statistics.mean(overrun):.2f}")
    q = statistics.quantiles(begun, n=4)
    print(f"last iteration begun at this share of the optimum: median {q[1]:.2f} (quartiles {q[0]:.2f}-{q[2]:.2f})")
    g = statistics.quantiles(iteration_growth(searches), n=4)
    print(f"an iteration's time / the one's before (that took {MEASURABLE_MS} ms or more): "
          f"median {g[1]:.2f} (quartiles {g[0]:.2f}-{g[2]:.2f})")
    print()
    print(f"{'rule':<52} {'median':>8} {'mean':>8} {'depth':>8}")
    for factor in UNIFORM:
        name = f"no iteration begun past {factor:.1f} x optimum" + (" (bachess)" if factor == 1.0 else "")
        print(summary(name, [stop_uniform(f, factor) for f in searches]))
    for growth, margin in PREDICTED:
        print(summary(f"none that would end past {margin:.2f} x (next = {growth:.1f} x last)",
                      [stop_predicted(f, growth, margin) for f in searches]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="./bachess")
    parser.add_argument("--openings", default="data/openings.epd")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=50)
    parser.add_argument("--tc", default="10+0.1", help="seconds+increment")
    parser.add_argument("--save", help="also write the iterations logged to this file (JSON)")
    parser.add_argument("--replay", help="report on the iterations of a file --save wrote, playing nothing")
    args = parser.parse_args()
    if args.replay:
        with open(args.replay) as f:
            saved = json.load(f)
        print(saved["title"])
        report(saved["searches"])
        return
    base, _, inc = args.tc.partition("+")
    fens = [line.strip() for line in open(args.openings) if line.strip()][:args.games]
    # No search outlasts the whole clock; the margin is for starting up.
    engine = Engine(args.engine, timeout=float(base) + float(inc or 0) * args.plies + 30, quit_timeout=10)
    for line in ("uci", "setoption name OwnBook value false", "setoption name Hash value 16", "debug on"):
        engine.send(line)
    searches = []
    for fen in fens:
        searches += play(engine, fen, args.plies, int(float(base) * 1000), int(float(inc or 0) * 1000))
    engine.quit()
    title = f"{args.engine}, {len(fens)} games of {args.plies} plies at {args.tc}, times in ms"
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"title": title, "searches": searches}, f)
    print(title)
    report(searches)


if __name__ == "__main__":
    main()
