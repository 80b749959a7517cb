#!/usr/bin/env python3
"""scripts/soak-check.py — every game of a soak run checked (scripts/soak.sh).

    scripts/soak-check.py [--games N] [--output FILE]... PGN

Reads the PGN a runner wrote (fastchess, cutechess-cli or XBoard) and the
runner's own output (--output, any number of files: fastchess's log, the
output of scripts/match.sh or scripts/xboard-match.sh), and finds the games
that ended in what a soak must never see:

    crash      an engine crashed, disconnected, exited or was terminated
    illegal    an illegal move (or an illegal position)
    time       a loss on time or a forfeit
    stall      an engine's connection stalled
    claim      a false claim of a result
    unfinished a game without a result ("*"), or a runner's "unterminated"

A game's ending is read from its Termination tag and from the comment just
before its result (the movetext's other comments are the engines' scores and
times, which say nothing of how a game ended). In the runner's output, a
"Finished game N" line (fastchess, cutechess-cli) is judged the same way, and
any other line naming such trouble, or a FAIL verdict of the match scripts,
is a failure of its own. Every engine of the soak is a bachess, so the
trouble of either side counts.

Prints one line of counts; on any failure, the first bad game by its place
in the PGN (game 1 is the file's first) with its round, players, result and
why, then every other problem, and exits 1. With --games N, fewer than N
games in the PGN is a failure too. Exit status 2: a file cannot be read.
"""
import argparse
import re
import sys

KINDS = ("crash", "illegal", "time", "stall", "claim", "unfinished")

# The words each kind is known by (fastchess's and XBoard's), in the order
# they are tried: "connection stalls" is a stall, not a crash, though
# fastchess's Termination says "abandoned" for both; XBoard's "False
# illegal-move claim" is a false claim; "unterminated" is an unfinished
# game, not a terminated engine.
PATTERNS = (
    ("unfinished", re.compile(r"unterminated|interrupted|unfinished")),
    ("stall", re.compile(r"stall")),
    ("claim", re.compile(r"false (\S+ )?claim|false (win|draw)|invalid claim|incorrect claim|claim\w* (refused|rejected)")),
    ("illegal", re.compile(r"illegal|invalid move")),
    ("time", re.compile(r"on time|time forfeit|timeout|time out|forfeit|flags? fell")),
    ("crash", re.compile(r"disconnect|abandon|crash|exited|lost contact|terminat|died|xboard exit|segmentation")),
)

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
# The comment standing right before the result token that ends a game.
LAST_COMMENT = re.compile(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$")
FINISHED = re.compile(r"^\s*Finished game (\d+) \(([^)]*)\): (\S+) \{(.*)\}")
# The runners' and the match scripts' lines that name trouble in no game.
PATH = re.compile(r"\S*/\S*")
TROUBLE = re.compile(r"\b(disconnect(s|ed)?|stall(s|ed)?|crash(es|ed)?|illegal|loses on time|time forfeits?|"
                     r"terminating process|exited unexpectedly|failed to start|segmentation fault)\b", re.IGNORECASE)
VERDICT = re.compile(r"^(xboard-match: )?FAIL\b")
# Lines that name trouble only to say there was none: a count of zero
# ("Crashed: 0", match.sh's "illegal moves:  0  (...)") and the match
# scripts' verdict "ok (... no illegal move ...)".
ZERO_COUNT = re.compile(r"^\s*[A-Za-z][A-Za-z ]*:\s*0\b")
OK_VERDICT = re.compile(r"^(xboard-match: )?ok\b")


def classify(text):
    """The kind of trouble a game's ending names, or None for a clean end."""
    text = text.lower()
    for kind, pattern in PATTERNS:
        if pattern.search(text):
            return kind
    return None


def games(lines):
    """The games of a PGN: each a dict of its tags, plus its movetext."""
    current, movetext = None, []
    for line in lines:
        tag = TAG.match(line)
        if tag and (current is None or movetext):
            if current is not None:
                current["movetext"] = " ".join(movetext)
                yield current
            current, movetext = {}, []
        if tag:
            current[tag.group(1)] = tag.group(2)
        elif line.strip() and current is not None:
            movetext.append(line.strip())
    if current is not None:
        current["movetext"] = " ".join(movetext)
        yield current


def game_problem(game):
    """(kind, why) for a bad game, None for a clean one."""
    result = game.get("Result", "")
    comment = LAST_COMMENT.search(game["movetext"])
    ending = " ".join(filter(None, [game.get("Termination", ""), comment.group(1) if comment else ""]))
    kind = classify(ending)
    if kind:
        return kind, ending
    if result not in RESULTS[:3]:
        return "unfinished", f"result {result or 'missing'}"
    tokens = game["movetext"].split()
    if not tokens or tokens[-1] != result:
        return "unfinished", f"the movetext does not end in the result {result}"
    return None


def describe(path, number, game):
    return (f"{path} game {number} (round {game.get('Round', '?')}, {game.get('White', '?')} - "
            f"{game.get('Black', '?')}, {game.get('Result', '?')})")


def output_problems(path, lines):
    """(kind, where, why) for each line of a runner's output that names trouble."""
    for number, line in enumerate(lines, 1):
        line = re.sub(r"\x1b\[[0-9;]*m", "", line).rstrip()
        finished = FINISHED.match(line)
        if finished:
            kind = classify(finished.group(4))
            if kind:
                yield kind, f"{path} line {number}, runner's game {finished.group(1)} ({finished.group(2)})", \
                    finished.group(4)
            continue
        if ZERO_COUNT.match(line) or OK_VERDICT.match(line):
            continue
        words = PATH.sub(" ", line)  # a path such as /tmp/crash-test/games.pgn names no trouble
        if VERDICT.match(line) or TROUBLE.search(words):
            yield classify(line) or "runner", f"{path} line {number}", line.strip()


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError as error:
        print(f"soak-check: cannot read {path}: {error.strerror}", file=sys.stderr)
        sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--games", type=int, help="the games the PGN must hold")
    parser.add_argument("--output", action="append", default=[], help="a runner's output (repeatable)")
    args = parser.parse_args()

    # The kinds are counted from the PGN; "runner" counts the lines of the
    # runners' output that name trouble (a game's trouble is often in both).
    counts = dict.fromkeys(KINDS + ("runner",), 0)
    problems = []
    played = list(games(read_lines(args.pgn)))
    for number, game in enumerate(played, 1):
        problem = game_problem(game)
        if problem:
            counts[problem[0]] += 1
            problems.append(f"{describe(args.pgn, number, game)}: {problem[0]}: {problem[1]}")
    if args.games is not None and len(played) < args.games:
        counts["unfinished"] += args.games - len(played)
        problems.append(f"{args.pgn}: {len(played)} games, not {args.games}")
    seen = set()  # the same line in two outputs (match.sh's and the runner's log) is one problem
    for output in args.output:
        for kind, where, why in output_problems(output, read_lines(output)):
            if why not in seen:
                seen.add(why)
                problems.append(f"{where}: {kind}: {why}")
                counts["runner"] += 1

    print(f"soak-check: {args.pgn}: {len(played)} games; " +
          ", ".join(f"{kind} {counts[kind]}" for kind in KINDS + ("runner",)))
    if not problems:
        print("soak-check: ok")
        return 0
    print(f"soak-check: FAIL: first bad game: {problems[0]}")
    for problem in problems[1:]:
        print(f"soak-check:   also: {problem}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
