#!/usr/bin/env python3
"""annotate-fit.py — bachess's centipawns against the judge's, and the mapping between them.

    annotate-fit.py GAMES.pgn [--bachess BIN] [--nodes N] [--games N] [--fit-games N]
                    [--jobs J] [--cache FILE] [--judge-cache FILE] [--judge-nodes N]
                    [--knee SLOPE KNEE]... [--pairs FILE]

bachess (over UCI, as `bachess annotate` sets it: no book, one thread, Move
Overhead 0, `ucinewgame` at the start of each game) searches every position of
the first --games games to --nodes nodes; its scores and best moves are cached
(default build/annotate-bachess-cache.jsonl). A position with one legal move
takes the score of the next one, as in annotate_game.c.

The judge's scores are read from the cache of scripts/annotate-judge.py (games
it has not searched whole are left out). On the positions of the first
--fit-games games where neither side sees a mate, two mappings of bachess's
centipawns are fitted by least squares between lichess's winning chances of the
mapped bachess cp and those of the judge's cp: a single scale s * cp, and
slope * knee * asinh(cp / knee) (the form of src/tools/accuracy.c). Then, for
the fit games and the later ones apart, the ?? that bachess's mark rule gives
with the scores unmapped, through each fitted mapping and each --knee, against
the judge's: counts, precision and recall. docs/annotate.md, "Benchmarks".
"""
import argparse
import importlib.util
import json
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from enginedriver import UciEngine

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("annotate_judge", os.path.join(HERE, "annotate-judge.py"))
judge_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(judge_rules)

MATE, BLUNDER, is_mate = judge_rules.MATE, judge_rules.BLUNDER, judge_rules.is_mate
winning_chances, judge_move = judge_rules.winning_chances, judge_rules.judge_move


class Bachess(UciEngine):
    """One bachess over UCI, set up as `bachess annotate` sets its engine."""

    def __init__(self, path):
        super().__init__(path, ("OwnBook value false", "Threads value 1", "Move Overhead value 0"))

    def legal_moves(self, position):
        lines = self.command("position " + position + "\ngo perft 1\nisready", until="readyok")
        return sum(1 for words in lines if len(words) == 2 and words[0].endswith(":"))

    def search(self, position, nodes):
        """(score from the side to move, best move or None): the last exact score, as annotate keeps."""
        score, lines = None, self.command("position " + position + "\ngo nodes %d" % nodes, until="bestmove")
        for words in lines[:-1]:
            if "score" in words and "pv" in words and "lowerbound" not in words and "upperbound" not in words:
                kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                score = value if kind == "cp" else MATE - (2 * value - 1) if value > 0 else -(MATE - 2 * -value)
        if score is None:  # no legal move: "score mate 0" or "cp 0" without a line
            for words in lines[:-1]:
                if "score" in words:
                    kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                    score = value if kind == "cp" else -MATE
        best = lines[-1][1] if len(lines[-1]) > 1 and lines[-1][1] not in ("0000", "(none)") else None
        return score, best


def positions_of(fen, moves):
    start = "fen " + fen if fen else "startpos"
    return [start + (" moves " + " ".join(moves[:ply]) if ply else "") for ply in range(len(moves) + 1)]


def white_first(fen):
    return not fen or fen.split()[1] == "w"


class BachessCache:
    """bachess's verdicts per position and node count; a game is searched whole
    from `ucinewgame`, so that its table holds what annotate's would."""

    def __init__(self, path, binary, nodes):
        self.path, self.binary, self.nodes, self.entries = path, binary, nodes, {}
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    e = json.loads(line)
                    self.entries[(e["position"], e["nodes"])] = (e["score"], e["best"], e["legal"])
        self.file = open(path, "a")

    def game(self, fen, moves):
        positions = positions_of(fen, moves)
        if any((p, self.nodes) not in self.entries for p in positions):
            engine = Bachess(self.binary)
            engine.send("ucinewgame")
            found = []
            for p in positions:
                legal = engine.legal_moves(p)
                score, best = engine.search(p, self.nodes)
                found.append((p, (score, best, legal)))
            engine.close()
            for p, verdict in found:  # written when the game is whole
                self.entries[(p, self.nodes)] = verdict
                self.file.write(json.dumps({"position": p, "nodes": self.nodes, "score": verdict[0],
                                            "best": verdict[1], "legal": verdict[2]}) + "\n")
            self.file.flush()
        verdicts = []
        for ply, p in enumerate(positions):
            score, best, legal = self.entries[(p, self.nodes)]
            white_to_move = (ply % 2 == 0) == white_first(fen)
            verdicts.append([score if white_to_move else -score, best, legal])
        for k in range(len(verdicts) - 2, -1, -1):  # a forced move keeps the score (annotate_game.c)
            if verdicts[k][2] == 1:
                nxt = verdicts[k + 1][0]
                verdicts[k][0] = nxt if not is_mate(nxt) else nxt - 1 if nxt > 0 else nxt + 1
        return verdicts


def judge_verdicts(path, nodes, fen, moves):
    """The judge's (score from White's side, best) per position, or None if not all are cached."""
    out = []
    for ply, p in enumerate(positions_of(fen, moves)):
        entry = JUDGE_CACHE.get((p, nodes))
        if entry is None:
            return None
        white_to_move = (ply % 2 == 0) == white_first(fen)
        out.append((entry[0] if white_to_move else -entry[0], entry[1]))
    return out


JUDGE_CACHE = {}


def load_judge_cache(path):
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            JUDGE_CACHE[(e["position"], e["nodes"])] = (e["score"], e["best"])


def mapped(score, mapping):
    """A score through a mapping (a function of centipawns); mates as they are."""
    return score if is_mate(score) else round(mapping(score))


def knee_mapping(slope, knee):
    """slope * knee * asinh(cp / knee): slope * cp near 0, growing with the
    logarithm of cp beyond the knee (the form of src/tools/accuracy.c)."""
    return lambda cp: slope * knee * math.asinh(cp / knee)


def linear_mapping(slope):
    return lambda cp: slope * cp


def squared_error(pairs, mapping):
    """Mean squared difference of winning chances, bachess's cp mapped, the judge's not."""
    return sum((winning_chances(mapping(b)) - winning_chances(j)) ** 2 for b, j in pairs) / len(pairs)


def golden_section(cost, low, high, tolerance):
    ratio = (math.sqrt(5) - 1) / 2
    while high - low > tolerance:
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        low, high = (low, b) if cost(a) < cost(b) else (a, high)
    return (low + high) / 2


def fit_linear(pairs):
    return golden_section(lambda s: squared_error(pairs, linear_mapping(s)), 0.2, 2.0, 1e-5)


def fit_knee(pairs):
    """(slope, knee): for each knee on a grid the best slope, then the best knee refined."""
    def best_slope(knee):
        return golden_section(lambda s: squared_error(pairs, knee_mapping(s, knee)), 0.5, 2.0, 1e-4)

    def cost_of_knee(knee):
        return squared_error(pairs, knee_mapping(best_slope(knee), knee))
    knee = min(range(100, 3001, 50), key=cost_of_knee)
    knee = golden_section(cost_of_knee, max(50, knee - 50), knee + 50, 1.0)
    return best_slope(knee), knee


def blunders(games, mapping):
    """(judge's, bachess's) sets of (game, ply) marked ??, bachess's scores mapped."""
    judged, marked = set(), set()
    for number, fen, moves, ours, theirs in games:
        for ply, move in enumerate(moves, 1):
            sign = 1 if (ply % 2 == 1) == white_first(fen) else -1
            (before, best), (after, _) = theirs[ply - 1], theirs[ply]
            if move != best and judge_move(before, after, sign) == BLUNDER:
                judged.add((number, ply))
            before, after, best = mapped(ours[ply - 1][0], mapping), mapped(ours[ply][0], mapping), ours[ply - 1][1]
            if best is not None and move != best and judge_move(before, after, sign) == BLUNDER:
                marked.add((number, ply))
    return judged, marked


def report(label, games, mapping):
    judged, marked = blunders(games, mapping)
    agreed = len(judged & marked)
    print("  %-40s games %3d: judge %3d, bachess %3d, agreed %3d; precision %s, recall %s" % (
        label, len(games), len(judged), len(marked), agreed, judge_rules.percent(agreed, len(marked)),
        judge_rules.percent(agreed, len(judged))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--bachess", default="./bachess")
    parser.add_argument("--nodes", type=int, default=200000)
    parser.add_argument("--games", type=int, default=15, help="the first N games")
    parser.add_argument("--fit-games", type=int, default=15, help="the mappings are fitted on the first N games")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default="build/annotate-bachess-cache.jsonl")
    parser.add_argument("--judge-cache", default="build/annotate-judge-cache.jsonl")
    parser.add_argument("--judge-nodes", type=int, default=1000000)
    parser.add_argument("--knee", type=float, nargs=2, action="append", default=[], metavar=("SLOPE", "KNEE"),
                        help="also try slope * knee * asinh(cp / knee)")
    parser.add_argument("--pairs", help="write the fit's (bachess cp, judge cp) pairs here")
    a = parser.parse_args()

    load_judge_cache(a.judge_cache)
    games = judge_rules.uci_games(a.pgn)[:a.games]
    cache = BachessCache(a.cache, a.bachess, a.nodes)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        ours = list(pool.map(lambda g: cache.game(*g), games))
    both = []
    for number, ((fen, moves), verdicts) in enumerate(zip(games, ours), 1):
        theirs = judge_verdicts(a.judge_cache, a.judge_nodes, fen, moves)
        if theirs is not None:
            both.append((number, fen, moves, verdicts, theirs))
    fit = [g for g in both if g[0] <= a.fit_games]
    held = [g for g in both if g[0] > a.fit_games]
    pairs = [(o[0], t[0]) for _, _, _, ours_g, theirs_g in fit for o, t in zip(ours_g, theirs_g)
             if not is_mate(o[0]) and not is_mate(t[0])]
    if a.pairs:
        with open(a.pairs, "w") as f:
            for b, j in pairs:
                f.write("%d %d\n" % (b, j))
    linear = fit_linear(pairs)
    slope, knee = fit_knee(pairs)
    mappings = [("unmapped", lambda cp: cp), ("linear %.4f" % linear, linear_mapping(linear)),
                ("%.4f * %.0f * asinh(cp / %.0f)" % (slope, knee, knee), knee_mapping(slope, knee))]
    mappings += [("%.4f * %.0f * asinh(cp / %.0f)" % (s, k, k), knee_mapping(s, k)) for s, k in a.knee]
    print("bachess at %d nodes a position; judge at %d nodes" % (a.nodes, a.judge_nodes))
    print("fit on games 1-%d: %d positions without a mate; mean squared error of winning chances:"
          % (a.fit_games, len(pairs)))
    for label, mapping in mappings:
        print("  %-40s %.5f" % (label, squared_error(pairs, mapping)))
    print("held out: games %s" % (", ".join(str(g[0]) for g in held) or "none judged yet"))
    for label, mapping in mappings:
        report(label + ", fit", fit, mapping)
        if held:
            report(label + ", held out", held, mapping)


if __name__ == "__main__":
    main()
