#!/usr/bin/env python3
"""annotate-judge.py — bachess annotate's blunders against Stockfish's, and its speed.

    annotate-judge.py GAMES.pgn (--bachess BIN [--annotate-args "ARGS"] | --annotated FILE
                                 | --judge-only | --against-itself NODES)
                      [--judge-nodes N] [--cache FILE] [--stockfish PATH] [--show N]
                      [--held-out-from N]

With --bachess, runs `BIN annotate GAMES.pgn ARGS` first and reports its speed:
moves, positions, wall-clock seconds, CPU seconds, and (for --movetime MS with
--threads T) the ideal moves * MS / T. With --annotated, reads an output of
`bachess annotate` made before. Then the judge: Stockfish (full strength, Hash 64,
Threads 1) searches every position of every game's main line to --judge-nodes
nodes, and its scores are put through the mark rule of src/tools/accuracy.c.
The judge's blunders (??) and bachess's ($4) are compared by (game, ply):
precision, recall, and every disagreement with both sides' evaluations. Then
every class (?!, ? and ??) with one class of tolerance: of each side's errors
(? and ??), the share the other marks at most one class lower, the games from
--held-out-from N on given apart (docs/annotate.md, "The judged set"), and
every error one side gives that the other marks more than one class lower.

The judge's searches are cached (a JSON line per position, keyed by position and
node count; default build/annotate-judge-cache.jsonl), so a second run, or a run
cut short, redoes none of them. Verdicts kept in the repository (--kept, default
data/annotate/judge-verdicts.jsonl: the first 43 games at 1,000,000 nodes) are
read first; --judge-only --write-kept FILE writes them. docs/annotate.md,
"Benchmarks", says how; docs/results/annotate.md has the figures.
"""
import argparse
import json
import math
import os
import re
import resource
import shlex
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from enginedriver import MATE, Stockfish

PGN_EXTRACT = "/usr/games/pgn-extract"

# The mark rule of src/tools/accuracy.c (lila's Advice.scala): drops of the
# mover's winning chances on [-1, 1]; mates judged by how lost or won the
# position was anyway (beyond 10 pawns an inaccuracy, beyond 7 a mistake).
WIN_MODEL_SLOPE = 0.00368208
BLUNDER, MISTAKE, INACCURACY, NO_MARK = 3, 2, 1, 0
MARK_DROPS = ((BLUNDER, 0.3), (MISTAKE, 0.2), (INACCURACY, 0.1))
MATE_JUDGE_HOPELESS_CP, MATE_JUDGE_BAD_CP = 999, 700

# Scores as the engine keeps them: centipawns, or ±(MATE - plies to mate)
# (MATE: scripts/enginedriver.py).
MATE_BOUND = MATE - 1000


def is_mate(score):
    return abs(score) >= MATE_BOUND


def winning_chances(score):
    return 2.0 / (1.0 + math.exp(-WIN_MODEL_SLOPE * score)) - 1.0


LICHESS_MATE_LINES = (MATE_JUDGE_HOPELESS_CP, MATE_JUDGE_BAD_CP)


def mark_of_mate(cp, lines=LICHESS_MATE_LINES):
    hopeless, bad = lines
    return INACCURACY if cp > hopeless else MISTAKE if cp > bad else BLUNDER


def judge_move(before, after, sign, lines=LICHESS_MATE_LINES):
    """The mark of a move from a position scored `before` to one scored `after`
    (White's side); sign is +1 when White moved, -1 when Black did. The mate
    rule's lines are lichess's unless `lines` (hopeless, bad) says else."""
    if not is_mate(before) and not is_mate(after):
        drop = sign * (winning_chances(before) - winning_chances(after))
        return next((mark for mark, least in MARK_DROPS if drop >= least), NO_MARK)
    ours_before, ours_after = sign * before, sign * after
    mate_missed = is_mate(before) and ours_before > 0 and not (is_mate(after) and ours_after > 0)
    mate_allowed = is_mate(after) and ours_after < 0 and not (is_mate(before) and ours_before < 0)
    if mate_missed:  # a mate against us after it counts as 0 cp, as in lila
        return mark_of_mate(0 if is_mate(after) else ours_after, lines)
    if mate_allowed:
        return mark_of_mate(-ours_before, lines)
    return NO_MARK


def mover_sign(fen, ply):
    """+1 when White made the game's move `ply` (1-based) from `fen`, else -1."""
    white_first = not fen or fen.split()[1] == "w"
    return 1 if (ply % 2 == 1) == white_first else -1


def format_eval(score):
    """A score as [%eval] writes it: pawns, or #N / #-N in moves."""
    if score is None:
        return "-"
    if is_mate(score):
        moves = (MATE - abs(score) + 1) // 2
        return "#%d" % (moves if score > 0 else -moves)
    return "%.2f" % (score / 100.0)


# ---- reading PGN ------------------------------------------------------------

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def split_games(text):
    """Each game as (tags, movetext), in the order of the file."""
    games, tags, movetext = [], {}, []
    for line in text.splitlines():
        match = TAG.match(line)
        if match and movetext:
            games.append((tags, "\n".join(movetext)))
            tags, movetext = {}, []
        if match:
            tags[match.group(1)] = match.group(2)
        elif line.strip():
            movetext.append(line)
    if tags or movetext:
        games.append((tags, "\n".join(movetext)))
    return games


MOVETEXT_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\(|\)|\$\d+|\d+\.+|[^\s{}()$;]+")
EVAL = re.compile(r"\[%eval\s+(#?-?[\d.]+)\]")
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def parse_eval(text):
    if text.startswith("#"):
        moves = int(text[1:])
        return MATE - (2 * moves - 1) if moves > 0 else -(MATE - 2 * -moves)
    return round(float(text) * 100)


def read_main_line(movetext):
    """The moves of the main line as dicts: san, nags, eval (from its comment)."""
    moves, depth = [], 0
    for token in MOVETEXT_TOKEN.findall(movetext):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth > 0 or token.startswith(";") or re.fullmatch(r"\d+\.+", token) or token in RESULTS:
            continue
        elif token.startswith("{"):
            match = EVAL.search(token)
            if moves and match:
                moves[-1]["eval"] = parse_eval(match.group(1))
        elif token.startswith("$"):
            if moves:
                moves[-1]["nags"].add(int(token[1:]))
        else:
            san = token.rstrip("!?")
            nags = {SUFFIX_NAGS[token[len(san):]]} if token[len(san):] in SUFFIX_NAGS else set()
            moves.append({"san": san, "nags": nags, "eval": None})
    return moves


def uci_games(path):
    """Each game of the file as (start FEN or None, [UCI moves]), by pgn-extract
    (which writes promotions as e7e8Q: UCI's are lower case)."""
    out = subprocess.run([PGN_EXTRACT, "-Wuci", "--nocomments", "--nonags", "--novars", "-s", path],
                         check=True, capture_output=True, text=True).stdout
    return [(tags.get("FEN"), [t.lower() for t in movetext.split() if t not in RESULTS])
            for tags, movetext in split_games(out)]


# ---- the judge: Stockfish ---------------------------------------------------


def uci_start(fen):
    """A game's start as UCI's position command names it."""
    return "fen " + fen if fen else "startpos"


def uci_position(start, moves, ply):
    """The UCI position after the first `ply` moves from `start` ("fen …" or "startpos")."""
    return start + (" moves " + " ".join(moves[:ply]) if ply else "")


class Judge:
    """Stockfish's scores (White's side) and best moves, cached by position.
    fill() searches games in parallel, one Stockfish per job; game() reads."""

    def __init__(self, stockfish_path, nodes, cache_path, kept_path=None):
        self.stockfish_path, self.nodes, self.cache_path = stockfish_path, nodes, cache_path
        self.cache, self.searched, self.lock = {}, 0, threading.Lock()
        self.local, self.engines = threading.local(), []
        if kept_path and os.path.exists(kept_path):
            self.read_kept(kept_path)
        if os.path.exists(cache_path):
            with open(cache_path) as f:
                for line in f:
                    entry = json.loads(line)
                    self.cache[(entry["position"], entry["nodes"])] = (entry["score"], entry["best"])
        os.makedirs(os.path.dirname(os.path.abspath(cache_path)), exist_ok=True)
        self.cache_file = open(cache_path, "a")

    # The kept verdicts: the cache of whole games in a file small enough to
    # commit (a line a game: its start, moves, and Stockfish's score and best
    # move for each position), so that a new machine need not spend the hour
    # of Stockfish the benchmark's first 43 games cost.
    def read_kept(self, path):
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                for ply, (score, best) in enumerate(zip(game["scores"], game["best"])):
                    self.cache[(uci_position(game["start"], game["moves"], ply), game["nodes"])] = (score, best)

    def write_kept(self, games, path):
        """The cached verdicts of the games, all of whose positions must be cached."""
        with open(path, "w") as f:
            for fen, moves in games:
                start = uci_start(fen)
                verdicts = [self.cache[(uci_position(start, moves, ply), self.nodes)] for ply in range(len(moves) + 1)]
                f.write(json.dumps({"start": start, "moves": moves, "nodes": self.nodes,
                                    "scores": [score for score, _ in verdicts],
                                    "best": [best for _, best in verdicts]}, separators=(",", ":")) + "\n")

    def fill(self, games, jobs):
        """Searches every position of the games not in the cache yet."""
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for _ in pool.map(lambda game: self.game(*game), games):
                pass

    def game(self, fen, moves):
        """[(score, best)] for the positions 0 .. len(moves) of a game."""
        start = uci_start(fen)
        white_first = not fen or fen.split()[1] == "w"
        new_game = True
        verdicts = []
        for ply in range(len(moves) + 1):
            position = uci_position(start, moves, ply)
            key = (position, self.nodes)
            with self.lock:
                cached = self.cache.get(key)
            if cached is None:
                cached = self.search(position, new_game)
                new_game = False
            score, best = cached
            white_to_move = (ply % 2 == 0) == white_first
            verdicts.append((score if white_to_move else -score, best))
        return verdicts

    def search(self, position, new_game):
        stockfish = getattr(self.local, "stockfish", None)
        if not stockfish:
            stockfish = self.local.stockfish = Stockfish(self.stockfish_path, options=Stockfish.JUDGE_OPTIONS,
                                                             timeout=None)
            with self.lock:
                self.engines.append(stockfish)
        elif new_game:
            stockfish.new_game()
        score, best = stockfish.search(position, self.nodes)
        entry = {"position": position, "nodes": self.nodes, "score": score, "best": best}
        with self.lock:
            self.cache[(position, self.nodes)] = (score, best)
            self.cache_file.write(json.dumps(entry) + "\n")
            self.cache_file.flush()
            self.searched += 1
        return score, best

    def close(self):
        for stockfish in self.engines:
            stockfish.close()
        self.cache_file.close()


# ---- the benchmark ----------------------------------------------------------


def run_bachess(binary, games_path, args, out_path):
    """Runs bachess annotate and prints its speed; returns the output's path."""
    command = [binary, "annotate", games_path, "--out", out_path] + shlex.split(args)
    print("speed: " + " ".join(shlex.quote(word) for word in command), flush=True)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    status = subprocess.run(command, stderr=subprocess.DEVNULL).returncode
    seconds = time.monotonic() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status != 0:
        sys.exit("annotate-judge: bachess annotate exited with %d" % status)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    games = uci_games(games_path)
    moves = sum(len(m) for _, m in games)
    print("  games %d, moves %d, positions searched %d" % (len(games), moves, moves + len(games)))
    print("  wall clock %.1f s, CPU %.1f s" % (seconds, cpu))
    words = shlex.split(args)
    if "--movetime" in words:
        movetime = int(words[words.index("--movetime") + 1])
        threads = int(words[words.index("--threads") + 1]) if "--threads" in words else 1
        ideal = moves * movetime / 1000.0 / threads
        print("  ideal (moves x %d ms) / %d = %.1f s; measured / ideal = %.2f"
              % (movetime, threads, ideal, seconds / ideal))
    return out_path


def read_both(games_path, annotated_path):
    """[(start FEN, UCI moves, annotated moves)] of the games, checked to match."""
    games = uci_games(games_path)
    with open(annotated_path) as f:
        annotated = [read_main_line(movetext) for _, movetext in split_games(f.read())]
    if len(annotated) != len(games):
        sys.exit("annotate-judge: %d games in %s, %d annotated in %s"
                 % (len(games), games_path, len(annotated), annotated_path))
    for number, ((_, moves), marks) in enumerate(zip(games, annotated), 1):
        if len(marks) != len(moves):
            sys.exit("annotate-judge: game %d has %d moves, %d annotated" % (number, len(moves), len(marks)))
    return [(fen, moves, marks) for (fen, moves), marks in zip(games, annotated)]


def marks_of(verdicts, fen, moves):
    """{ply: mark} of every move (1-based plies) that verdicts [(score, best)]
    of a game's positions mark ?!, ? or ??; the verdicts' own best move is
    never marked, as in bachess (annotate_game.c)."""
    marks = {}
    for ply, move in enumerate(moves, 1):
        (before, best), (after, _) = verdicts[ply - 1], verdicts[ply]
        sign = mover_sign(fen, ply)
        mark = judge_move(before, after, sign) if move != best and before is not None and after is not None else 0
        if mark:
            marks[ply] = mark
    return marks


NAG_MARKS = {6: INACCURACY, 2: MISTAKE, 4: BLUNDER}
MARK_NAGS = {mark: nag for nag, mark in NAG_MARKS.items()}

# bachess's mate rule reads lichess's lines (MATE_JUDGE_*_CP above) on its own
# score at this multiple of them (src/tools/accuracy.c: 1588 and 1113).
BACHESS_MATE_SCALE = 1.59


def mate_lines(scale):
    """The mate rule's lines (hopeless, bad) at `scale` times lichess's."""
    return tuple(round(scale * line) for line in LICHESS_MATE_LINES)


def replay_mate_rule(games, scale):
    """Re-marks, in place, each annotated move that bachess's mate rule
    marked, as if the rule's lines were `scale` times lichess's. Such a mark
    depends on the move's two scores alone, and such a move is never looked
    at again, so the [%eval]s before and after it give it exactly. A move the
    rule would mark but bachess left bare was its own best move, and stays
    bare; the first move of a game has no score before it, and stays as it
    is. Returns (moves re-marked, marks changed, moves whose mark the rule at
    bachess's own lines does not give: each a sign the output is not what
    this replay assumes)."""
    as_marked, replayed = mate_lines(BACHESS_MATE_SCALE), mate_lines(scale)
    touched = changed = inconsistent = 0
    for fen, _, marks in games:
        for ply in range(2, len(marks) + 1):
            before, after = marks[ply - 2]["eval"], marks[ply - 1]["eval"]
            if before is None or after is None or not (is_mate(before) or is_mate(after)):
                continue
            sign = mover_sign(fen, ply)
            nags = marks[ply - 1]["nags"]
            recorded = max((NAG_MARKS[n] for n in nags if n in NAG_MARKS), default=NO_MARK)
            expected = judge_move(before, after, sign, as_marked)
            if recorded == NO_MARK and expected != NO_MARK:
                continue  # bachess's own best move
            if recorded != expected:
                inconsistent += 1
                continue
            touched += 1
            mark = judge_move(before, after, sign, replayed)
            changed += mark != recorded
            nags.difference_update(NAG_MARKS)
            if mark != NO_MARK:
                nags.add(MARK_NAGS[mark])
    return touched, changed, inconsistent


def bachess_marks(annotated_moves):
    """{ply: mark} of an annotated game's NAGs."""
    return {ply: max(NAG_MARKS[n] for n in move["nags"] if n in NAG_MARKS)
            for ply, move in enumerate(annotated_moves, 1) if move["nags"] & NAG_MARKS.keys()}


def agreement(judged, marked):
    """The issue's measure, with one class of tolerance: of the errors (? and
    ??) each side gives, the share that the other side marks at most one class
    lower (a ?? against a ?, a ? against a ?!). `judged` and `marked` map
    (game, ply) to a mark. Returns (precision, recall) as (agreed, of) pairs."""
    def held(errors_of, other):
        errors = [key for key, mark in errors_of.items() if mark >= MISTAKE]
        return sum(1 for key in errors if other.get(key, NO_MARK) >= errors_of[key] - 1), len(errors)
    return held(marked, judged), held(judged, marked)


def print_class_figures(label, judged, marked, annotator="bachess"):
    (p_agreed, p_of), (r_agreed, r_of) = agreement(judged, marked)
    counts = lambda marks: "/".join(str(sum(1 for m in marks.values() if m == c))
                                    for c in (INACCURACY, MISTAKE, BLUNDER))
    print("  %s: ?!/?/?? judge %s, %s %s; precision %s, recall %s; ?? ratio %s" % (
        label, counts(judged), annotator, counts(marked), percent(p_agreed, p_of), percent(r_agreed, r_of),
        "%.2f" % (sum(m == BLUNDER for m in marked.values()) / max(1, sum(m == BLUNDER for m in judged.values())))))


MARK_TEXT = {NO_MARK: "-", INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}


def errors_not_held(number, marks, verdicts, judged, marked):
    """The moves of a game that one side calls an error (? or ??) and the
    other marks more than one class lower, with both sides' evaluations:
    (game, ply, move, the judge's mark, before, after, its best, bachess's
    mark, before, after)."""
    rows = []
    for ply in sorted(set(judged) | set(marked)):
        by_judge, by_bachess = judged.get(ply, NO_MARK), marked.get(ply, NO_MARK)
        if by_bachess < by_judge - 1 or by_judge < by_bachess - 1:
            (before, best), (after, _) = verdicts[ply - 1], verdicts[ply]
            rows.append((number, ply, marks[ply - 1]["san"], by_judge, before, after, best, by_bachess,
                         marks[ply - 2]["eval"] if ply > 1 else None, marks[ply - 1]["eval"]))
    return rows


def compare_classes(games, judge, held_out_from, show):
    """Errors with one class of tolerance, the fitting games and the held-out
    ones (game numbers from held_out_from on) apart, and every error not held."""
    parts = {"fit": ({}, {}), "held out": ({}, {})}
    rows = []
    for number, (fen, moves, marks) in enumerate(games, 1):
        judged, marked = parts["held out" if held_out_from and number >= held_out_from else "fit"]
        verdicts = judge.game(fen, moves)
        judged_here, marked_here = marks_of(verdicts, fen, moves), bachess_marks(marks)
        judged.update(((number, ply), m) for ply, m in judged_here.items())
        marked.update(((number, ply), m) for ply, m in marked_here.items())
        rows += errors_not_held(number, marks, verdicts, judged_here, marked_here)
    print("errors (? and ??), one class of tolerance; held out: games %s"
          % ("%d on" % held_out_from if held_out_from else "none"))
    for label, (judged, marked) in parts.items():
        if label == "fit" or held_out_from:
            print_class_figures("games 1-%d" % (held_out_from - 1) if held_out_from and label == "fit"
                                else "all games" if label == "fit" else label, judged, marked)
    print("errors not held (%d): game ply move | judge: mark before -> after (its best) | bachess: mark before -> after"
          % len(rows))
    for number, ply, san, by_judge, before, after, best, by_bachess, b_before, b_after in rows[:show]:
        print("  %3d %3d %-7s | %-2s %7s -> %-7s (%s) | %-2s %7s -> %-7s" % (
            number, ply, san, MARK_TEXT[by_judge], format_eval(before), format_eval(after), best or "-",
            MARK_TEXT[by_bachess], format_eval(b_before), format_eval(b_after)))
    if len(rows) > show:
        print("  … %d more (--show)" % (len(rows) - show))


def blunders_of(verdicts, fen, moves):
    """The plies (1-based) that verdicts [(score, best)] of a game's positions
    mark ??; a move that is the verdicts' own best move is never marked, as in
    bachess (annotate_game.c)."""
    plies = set()
    for ply, move in enumerate(moves, 1):
        (before, best), (after, _) = verdicts[ply - 1], verdicts[ply]
        sign = mover_sign(fen, ply)
        if move != best and judge_move(before, after, sign) == BLUNDER:
            plies.add(ply)
    return plies


def judge_against_itself(games_path, judge, other, judge_games, jobs):
    """The ceiling: Stockfish at other.nodes in bachess's place, its ?? against
    the judge's. No annotator can expect to agree with the judge much better
    than a second Stockfish does."""
    games = uci_games(games_path)[:judge_games or None]
    judge.fill(games, jobs)
    other.fill(games, jobs)
    judged = marked = agreed = 0
    every_judged, every_marked = {}, {}
    for number, (fen, moves) in enumerate(games, 1):
        judge_verdicts, other_verdicts = judge.game(fen, moves), other.game(fen, moves)
        by_judge = blunders_of(judge_verdicts, fen, moves)
        by_other = blunders_of(other_verdicts, fen, moves)
        judged, marked, agreed = judged + len(by_judge), marked + len(by_other), agreed + len(by_judge & by_other)
        every_judged.update(((number, ply), m) for ply, m in marks_of(judge_verdicts, fen, moves).items())
        every_marked.update(((number, ply), m) for ply, m in marks_of(other_verdicts, fen, moves).items())
    print("the judge against itself: Stockfish at %d nodes judged by Stockfish at %d, %d games"
          % (other.nodes, judge.nodes, len(games)))
    print("  judge's blunders %d, the other's %d, agreed %d" % (judged, marked, agreed))
    print("  precision %s, recall %s" % (percent(agreed, marked), percent(agreed, judged)))
    print("errors (? and ??), one class of tolerance:")
    print_class_figures("all games", every_judged, every_marked, "the other")


def compare(games_path, annotated_path, judge, show, judge_games, jobs, held_out_from=0, mate_scale=None):
    games = read_both(games_path, annotated_path)[:judge_games or None]
    if mate_scale is not None:
        touched, changed, inconsistent = replay_mate_rule(games, mate_scale)
        print("mate rule replayed at %.2f times lichess's lines: %d moves, %d marks changed, %d left as they were"
              " (their mark is not the rule's at %.2f)" % (mate_scale, touched, changed, inconsistent,
                                                            BACHESS_MATE_SCALE))
    judge.fill([(fen, moves) for fen, moves, _ in games], jobs)
    judged, marked, disagreements, positions = set(), set(), [], 0
    for number, (fen, moves, marks) in enumerate(games, 1):
        verdicts = judge.game(fen, moves)
        positions += len(verdicts)
        by_judge_here = blunders_of(verdicts, fen, moves)
        by_bachess_here = {ply for ply in range(1, len(moves) + 1) if 4 in marks[ply - 1]["nags"]}
        judged.update((number, ply) for ply in by_judge_here)
        marked.update((number, ply) for ply in by_bachess_here)
        for ply in sorted(by_judge_here ^ by_bachess_here):
            (before, best), (after, _) = verdicts[ply - 1], verdicts[ply]
            by_judge = ply in by_judge_here
            bachess_before = marks[ply - 2]["eval"] if ply > 1 else None
            disagreements.append((number, ply, marks[ply - 1]["san"], by_judge, before, after, best,
                                  bachess_before, marks[ply - 1]["eval"]))
    agreed = len(judged & marked)
    print("blunders (??): judge Stockfish at %d nodes a position; %d searched now, the rest from %s"
          % (judge.nodes, judge.searched, judge.cache_path))
    print("  games %d, positions %d" % (len(games), positions))
    print("  judge's blunders %d, bachess's blunders %d, agreed %d" % (len(judged), len(marked), agreed))
    print("  precision %s, recall %s" % (percent(agreed, len(marked)), percent(agreed, len(judged))))
    print_disagreements(disagreements, show)
    compare_classes(games, judge, held_out_from, show)


def print_disagreements(disagreements, show):
    print("disagreements (%d): game ply move | judge: before -> after (its best) | bachess: before -> after"
          % len(disagreements))
    for number, ply, san, by_judge, before, after, best, bachess_before, bachess_after in disagreements[:show]:
        print("  %3d %3d %-7s %s | %7s -> %-7s (%s) | %7s -> %-7s" % (
            number, ply, san, "judge only  " if by_judge else "bachess only", format_eval(before),
            format_eval(after), best or "-", format_eval(bachess_before), format_eval(bachess_after)))
    if len(disagreements) > show:
        print("  … %d more (--show)" % (len(disagreements) - show))


def percent(part, whole):
    return "%.1f %% (%d/%d)" % (100.0 * part / whole, part, whole) if whole else "- (0/0)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--bachess", help="run BIN annotate on the games, timed")
    source.add_argument("--annotated", help="an output of bachess annotate on the games")
    source.add_argument("--judge-only", action="store_true", help="fill the judge's cache, compare nothing")
    source.add_argument("--against-itself", type=int, metavar="NODES",
                        help="Stockfish at NODES in bachess's place: the agreement any annotator can hope for")
    parser.add_argument("--annotate-args", default="--movetime 100 --threads 2")
    parser.add_argument("--out", default="build/annotate-bench.pgn", help="where --bachess writes its output")
    parser.add_argument("--judge-nodes", type=int, default=1000000)
    parser.add_argument("--cache", default="build/annotate-judge-cache.jsonl")
    parser.add_argument("--kept", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                                                       "data", "annotate", "judge-verdicts.jsonl"),
                        help="verdicts kept in the repository, read before the cache")
    parser.add_argument("--write-kept", metavar="FILE",
                        help="with --judge-only: write the judged games' verdicts to FILE in --kept's form")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--show", type=int, default=100, help="disagreements listed at most")
    parser.add_argument("--judge-games", type=int, default=0, help="judge the first N games only (0: all)")
    parser.add_argument("--jobs", type=int, default=1, help="Stockfish processes judging at once")
    parser.add_argument("--held-out-from", type=int, default=0, metavar="N",
                        help="games N on are held out: their figures are given apart")
    parser.add_argument("--mate-scale", type=float, metavar="S",
                        help="with --annotated: bachess's mate-rule marks replayed from the [%%eval]s with the"
                             " rule's lines at S times lichess's (bachess reads them at {:.2f})".format(BACHESS_MATE_SCALE))
    a = parser.parse_args()
    if a.judge_only:
        judge = Judge(a.stockfish, a.judge_nodes, a.cache, a.kept)
        games = uci_games(a.games)[:a.judge_games or None]
        try:
            judge.fill(games, a.jobs)
        finally:
            judge.close()
        print("judge: %d positions searched, cache %s" % (judge.searched, a.cache))
        if a.write_kept:
            judge.write_kept(games, a.write_kept)
            print("judge: the verdicts of %d games kept in %s" % (len(games), a.write_kept))
        return
    if a.against_itself:
        judge = Judge(a.stockfish, a.judge_nodes, a.cache, a.kept)
        other = Judge(a.stockfish, a.against_itself, a.cache)
        try:
            judge_against_itself(a.games, judge, other, a.judge_games, a.jobs)
        finally:
            judge.close()
            other.close()
        return
    if a.bachess:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        annotated = run_bachess(a.bachess, a.games, a.annotate_args, a.out)
    else:
        annotated = a.annotated
    judge = Judge(a.stockfish, a.judge_nodes, a.cache, a.kept)
    try:
        compare(a.games, annotated, judge, a.show, a.judge_games, a.jobs, a.held_out_from, a.mate_scale)
    finally:
        judge.close()


if __name__ == "__main__":
    main()
