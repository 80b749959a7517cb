#!/usr/bin/env python3
"""annotate_judge_test.py — scripts/annotate-judge.py's kept verdicts (make script-tests).

The blunder benchmark's judge is an hour of Stockfish a machine; its verdicts
for the first games are kept in data/annotate/judge-verdicts.jsonl. Checks:
  - verdicts written and read back give the judge the same scores and best
    moves, and it starts no Stockfish for them;
  - the kept verdicts belong to the benchmark's games, in order, a score and
    a best move (or none) for every position, and their blunders are the
    count docs/results/annotate.md reports;
  - a comparison of an annotated file against them runs without Stockfish:
    a file marking exactly the judge's blunders of a game scores 100 % / 100 %,
    one marking one of them less and one more scores (n-1)/n both ways;
  - the measure of every class with one class of tolerance (agreement) on a
    hand-made case, and marks read from NAGs and suffixes;
  - --against-itself with the kept verdicts on both sides agrees 100 % /
    100 %, on the blunders and by the issue's measure;
  - the errors not held: a move one side calls an error and the other marks
    more than one class lower is listed, with both sides' evaluations, and
    one marked a class lower is not;
  - --mate-scale's replay: a move into mate from 12 pawns down, a mistake
    at bachess's lines (1.59 times lichess's), is a blunder at 2.0 and an
    inaccuracy at 0.5; a mate move left bare (bachess's best) stays bare, a
    move without a mate keeps its mark;
  - annotate-games.py refuses --rounds outside its --games;
  - each judged set's kept verdicts (data/annotate/judged-set-verdicts.jsonl,
    fresh-set-verdicts.jsonl, third-set-verdicts.jsonl) cover its games and
    hold the ?!/?/?? counts data/SOURCES.md states.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "scripts", "annotate-judge.py")
KEPT = os.path.join(TOP, "data", "annotate", "judge-verdicts.jsonl")
GAMES = os.path.join(TOP, "data", "annotate", "blunder-games.pgn")
KEPT_GAMES, KEPT_JUDGE_BLUNDERS = 43, 192  # docs/results/annotate.md, "The blunder benchmark"
# The judged sets: games, kept verdicts, and their counts as data/SOURCES.md states them
# (games; ?!, ?, ??).
JUDGED_SETS = {
    "judged-set": (35, {1: 321, 2: 105, 3: 108}),
    "fresh-set": (30, {1: 332, 2: 122, 3: 126}),
    "third-set": (30, {1: 281, 2: 102, 3: 117}),
    "fourth-set": (30, {1: 277, 2: 86, 3: 105}),
    "fifth-set": (30, {1: 275, 2: 117, 3: 94}),
    "sixth-set": (30, {1: 245, 2: 92, 3: 75}),
    "seventh-set": (30, {1: 228, 2: 86, 3: 79}),
}
NO_STOCKFISH = "/nonexistent/stockfish"  # any search would fail loudly

spec = importlib.util.spec_from_file_location("annotate_judge", SCRIPT)
judge_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(judge_module)


def kept_games():
    with open(KEPT) as f:
        return [json.loads(line) for line in f]


def test_written_verdicts_read_back(scratch):
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    moves = ["e2e4", "e8d7", "e1d2"]
    start = judge_module.uci_start(fen)
    cache = os.path.join(scratch, "cache.jsonl")
    with open(cache, "w") as f:
        for ply, (score, best) in enumerate([(150, "e2e4"), (-140, "e8d7"), (160, "e1e2"), (-155, None)]):
            position = judge_module.uci_position(start, moves, ply)
            f.write(json.dumps({"position": position, "nodes": 1000, "score": score, "best": best}) + "\n")
    writer = judge_module.Judge(NO_STOCKFISH, 1000, cache, None)
    expected = writer.game(fen, moves)
    kept = os.path.join(scratch, "kept.jsonl")
    writer.write_kept([(fen, moves)], kept)
    writer.close()
    reader = judge_module.Judge(NO_STOCKFISH, 1000, os.path.join(scratch, "empty.jsonl"), kept)
    check(reader.game(fen, moves) == expected, "verdicts read back from the kept file differ from the cache's")
    check(reader.searched == 0 and not reader.engines, "reading kept verdicts started a search")
    check(expected == [(150, "e2e4"), (140, "e8d7"), (160, "e1e2"), (155, None)],
          f"the cache's verdicts from White's side: {expected}")
    reader.close()


def test_kept_verdicts_are_the_benchmarks(scratch):
    kept = kept_games()
    games = judge_module.uci_games(GAMES)
    check(len(kept) == KEPT_GAMES, f"{len(kept)} games kept, {KEPT_GAMES} expected")
    judge = judge_module.Judge(NO_STOCKFISH, 1000000, os.path.join(scratch, "none.jsonl"), KEPT)
    blunders = 0
    for number, (entry, (fen, moves)) in enumerate(zip(kept, games), 1):
        check(entry["start"] == judge_module.uci_start(fen) and entry["moves"] == moves, f"kept game {number} is not the benchmark's")
        check(len(entry["scores"]) == len(moves) + 1 == len(entry["best"]), f"kept game {number}: a position missing")
        check(all(isinstance(score, int) for score in entry["scores"]), f"kept game {number}: a position without a score")
        blunders += len(judge_module.blunders_of(judge.game(fen, moves), fen, moves))
    check(judge.searched == 0, "the kept verdicts did not cover their games")
    check(blunders == KEPT_JUDGE_BLUNDERS, f"the kept verdicts hold {blunders} blunders, {KEPT_JUDGE_BLUNDERS} expected")
    judge.close()


def annotated_game_one(marked_plies):
    """Game 1 of the benchmark in SAN, $4 after the given plies (1-based)."""
    out = subprocess.run([judge_module.PGN_EXTRACT, "--nocomments", "--nonags", "--novars", "-s", "-w", "10000",
                          "--selectonly", "1", GAMES], check=True, capture_output=True, text=True).stdout
    tags, movetext = judge_module.split_games(out)[0]
    words, ply = [], 0
    for word in movetext.split():
        words.append(word)
        if re.fullmatch(r"\d+\.+", word) or word in judge_module.RESULTS:
            continue
        ply += 1
        if ply in marked_plies:
            words.append("$4")
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return header + "\n" + " ".join(words) + "\n\n"


def compare_game_one(scratch, marked_plies):
    games = os.path.join(scratch, "game1.pgn")
    annotated = os.path.join(scratch, "annotated1.pgn")
    with open(games, "w") as f:
        f.write(annotated_game_one(set()))
    with open(annotated, "w") as f:
        f.write(annotated_game_one(marked_plies))
    return subprocess.run([sys.executable, SCRIPT, games, "--annotated", annotated, "--kept", KEPT,
                           "--cache", os.path.join(scratch, "compare-cache.jsonl"), "--stockfish", NO_STOCKFISH],
                          capture_output=True, text=True)


def test_comparison_from_kept_verdicts(scratch):
    first = kept_games()[0]
    judge = judge_module.Judge(NO_STOCKFISH, 1000000, os.path.join(scratch, "none.jsonl"), KEPT)
    fen = first["start"][len("fen "):]
    by_judge = sorted(judge_module.blunders_of(judge.game(fen, first["moves"]), fen, first["moves"]))
    judge.close()
    check(len(by_judge) >= 2, f"game 1 has {len(by_judge)} blunders by the judge; the test needs two")
    n = len(by_judge)
    same = compare_game_one(scratch, set(by_judge))
    check(same.returncode == 0 and f"precision 100.0 % ({n}/{n}), recall 100.0 % ({n}/{n})" in same.stdout,
          f"the judge's own blunders: {same.stdout}{same.stderr}")
    check("0 searched now" in same.stdout, f"the comparison searched: {same.stdout}")
    other_ply = next(ply for ply in range(1, 200) if ply not in by_judge)
    off = compare_game_one(scratch, set(by_judge[1:]) | {other_ply})
    check(f"precision {100.0 * (n - 1) / n:.1f} % ({n - 1}/{n}), recall {100.0 * (n - 1) / n:.1f} % ({n - 1}/{n})"
          in off.stdout, f"one blunder missed and one added: {off.stdout}{off.stderr}")


def test_agreement_tolerates_one_class():
    """The issue's measure: an error (? or ??) of one side agrees when the other marks it at most one
    class lower."""
    B, M, I = judge_module.BLUNDER, judge_module.MISTAKE, judge_module.INACCURACY
    judged = {(1, 1): B, (1, 2): M, (1, 3): I, (1, 5): B, (2, 1): M}
    marked = {(1, 1): M, (1, 2): B, (1, 4): M, (1, 5): I, (2, 1): I}
    # bachess's errors: (1,1) ? on a ?? yes, (1,2) ?? on a ? yes, (1,4) ? on nothing no -> 2/3;
    # the judge's: (1,1) ?? as ? yes, (1,2) ? as ?? yes, (1,5) ?? as ?! no, (2,1) ? as ?! yes -> 3/4
    got = judge_module.agreement(judged, marked)
    check(got == ((2, 3), (3, 4)), f"precision and recall with one class of tolerance: {got}")
    marks = judge_module.bachess_marks(judge_module.read_main_line("1. e4 $6 e5 2. Qh5 $4 Nc6 $2 3. Bc4?! Nf6??"))
    check(marks == {1: I, 3: B, 4: M, 5: I, 6: B}, f"marks read from NAGs and suffixes: {marks}")


def test_judge_against_itself_by_every_class(scratch, capsys):
    """The same verdicts in the annotator's place agree with the judge's on every mark."""
    judge = judge_module.Judge(NO_STOCKFISH, 1000000, os.path.join(scratch, "a.jsonl"), KEPT)
    other = judge_module.Judge(NO_STOCKFISH, 1000000, os.path.join(scratch, "b.jsonl"), KEPT)
    judge_module.judge_against_itself(GAMES, judge, other, 3, 1)
    judge.close()
    other.close()
    out = capsys.readouterr().out
    blunders = re.search(r"judge's blunders (\d+), the other's (\d+), agreed (\d+)", out)
    errors = re.search(r"all games: \?!/\?/\?\? judge (\S+), the other (\S+); precision 100\.0 % \((\d+)/(\d+)\), "
                       r"recall 100\.0 % \((\d+)/(\d+)\)", out)
    check(blunders is not None and len(set(blunders.groups())) == 1 and int(blunders.group(1)) > 0
          and errors is not None and errors.group(1) == errors.group(2) and int(errors.group(3)) > 0,
          f"the judge against its own verdicts: {out}")


def test_errors_not_held_are_listed():
    """Only an error (? or ??) that the other side marks more than one class lower is listed."""
    B, M, I, N = judge_module.BLUNDER, judge_module.MISTAKE, judge_module.INACCURACY, judge_module.NO_MARK
    marks = [{"san": san, "nags": set(), "eval": value}
             for san, value in (("e4", 20), ("e5", 300), ("Qh5", 290), ("Nc6", 90))]
    verdicts = [(15, "e2e4"), (25, "c7c5"), (280, "g1f3"), (270, "b8c6"), (100, None)]
    judged, marked = {1: B, 2: M, 3: I}, {1: I, 2: I, 4: M}
    rows = judge_module.errors_not_held(5, marks, verdicts, judged, marked)
    # ply 1: ?? against ?! is two classes; ply 2: ? against ?! is held; ply 3: ?! is no error;
    # ply 4: bachess's ? against nothing
    check(rows == [(5, 1, "e4", B, 15, 25, "e2e4", I, None, 20), (5, 4, "Nc6", N, 270, 100, "b8c6", M, 290, 90)],
          f"the errors not held: {rows}")


def test_mate_rule_replay():
    """The mate rule replayed from the [%eval]s at other lines; White moves first."""
    B, M, I = judge_module.BLUNDER, judge_module.MISTAKE, judge_module.INACCURACY
    # ply 2 (Black) walks into mate from -12 pawns of its own: a mistake at 1113/1588;
    # ply 3 (White) lets the mate go, left bare as bachess's best; ply 4 (Black) no mate, a ?? kept.
    movetext = ("1. e4 {[%eval 12.00]} 1... e5 $2 {[%eval #3]} 2. Nf3 {[%eval 11.00]} "
                "2... Nc6 $4 {[%eval 15.00]}")
    expected = {2.0: {2: B, 4: B}, 1.59: {2: M, 4: B}, 0.5: {2: I, 4: B}}
    for scale, marks in expected.items():
        games = [(None, [], judge_module.read_main_line(movetext))]
        touched, changed, inconsistent = judge_module.replay_mate_rule(games, scale)
        got = judge_module.bachess_marks(games[0][2])
        check(got == marks, f"mate rule at {scale} times lichess's lines: {got}, expected {marks}")
        check((touched, changed, inconsistent) == (1, int(scale != 1.59), 0),
              f"at {scale}: moves re-marked, changed, not the rule's: {(touched, changed, inconsistent)}")
    games = [(None, [], judge_module.read_main_line(movetext.replace("e5 $2", "e5 $6")))]
    counts = judge_module.replay_mate_rule(games, 2.0)
    check(judge_module.bachess_marks(games[0][2]).get(2) == I and counts == (0, 0, 1),
          f"a mark the rule at bachess's lines would not give is left as it was and counted: {counts}")


def test_rounds_must_lie_within_the_games(scratch):
    script = os.path.join(TOP, "scripts", "annotate-games.py")
    out = os.path.join(scratch, "none.pgn")
    for rounds in ("0-3", "5-7", "4-2"):
        run = subprocess.run([sys.executable, script, out, "--games", "6", "--rounds", rounds,
                              "--stockfish", NO_STOCKFISH], capture_output=True, text=True)
        check(run.returncode == 2 and "--rounds must lie within 1-6" in run.stderr,
              f"--rounds {rounds} of 6 games: {run.returncode} {run.stderr}")
        check(not os.path.exists(out), f"--rounds {rounds} of 6 games wrote {out}")


@pytest.mark.parametrize("name", sorted(JUDGED_SETS))
def test_judged_set_verdicts_cover_its_games(scratch, name):
    """A judged set's verdicts (400,000 nodes) are its games', every position, with the marks stated."""
    expected_games, expected_marks = JUDGED_SETS[name]
    kept = os.path.join(TOP, "data", "annotate", f"{name}-verdicts.jsonl")
    judge = judge_module.Judge(NO_STOCKFISH, 400000, os.path.join(scratch, "none-400k.jsonl"), kept)
    games = judge_module.uci_games(os.path.join(TOP, "data", "annotate", f"{name}.pgn"))
    marks = {1: 0, 2: 0, 3: 0}
    for fen, moves in games:
        for mark in judge_module.marks_of(judge.game(fen, moves), fen, moves).values():
            marks[mark] += 1
    check(len(games) == expected_games and judge.searched == 0, f"{name}: {len(games)} games, {judge.searched} positions not kept")
    check(marks == expected_marks, f"the judge's ?!/?/?? on {name}: {marks}")
    judge.close()


@pytest.fixture
def scratch(tmp_path):
    return str(tmp_path)
