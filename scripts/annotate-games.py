#!/usr/bin/env python3
"""annotate-games.py — club-strength games for the annotate benchmark.

    annotate-games.py OUT.pgn [--games N] [--rounds FIRST-LAST] [--weak-elo E] [--strong-elo E]
                      [--tc 5+0.05] [--openings data/openings.epd] [--seed S] [--jobs J]
                      [--stockfish PATH] [--partial FILE]

Plays N games between two Stockfish processes limited to two UCI_Elo levels
(UCI_LimitStrength), at a clock of BASE+INC seconds, each from a position of
the openings file (chosen by --seed), the weaker side taking White in odd
games and Black in even ones. --rounds FIRST-LAST plays only those rounds
of the N, each from the opening the seed chose for it among N, so that a set
can be extended by later rounds with the openings a longer first run would
have given them. A third Stockfish referees: after each move it
counts the legal moves (`go perft 1`) and reads the position (`d`), so the
game ends at mate, stalemate, a threefold repetition, the fifty-move rule or
a flag fall; 400 plies is a draw. A clock is charged the CPU time its engine
used for the move (read from /proc), not the wall-clock time, so that the load
of a shared machine neither flags an engine nor changes the games much. The games are written with coordinate moves
and then put through pgn-extract to SAN, in the order they were started.
docs/annotate.md, "The judged set", says how the kept set was made.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from enginedriver import Engine as Driver

PGN_EXTRACT = "/usr/games/pgn-extract"
MAX_PLIES = 400


# A hang's bound, not a search's: a move takes at most the clock's time
# (5 s at the default --tc), the referee's answers a few milliseconds.
ANSWER_SECONDS = 120


class Uci:
    """A Stockfish process through the engine driver (scripts/enginedriver.py)."""

    def __init__(self, path, options):
        self.engine = Driver(path, name=os.path.basename(path), timeout=ANSWER_SECONDS, quit_timeout=10)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options.items():
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.engine.send(line)

    def wait_for(self, prefix):
        """The lines up to the first that starts with `prefix`, that one last."""
        return self.engine.until("^" + re.escape(prefix))

    def cpu_ms(self):
        """CPU time the engine has used: its clock is charged by it, not by the
        wall clock, so that the load of a shared machine does not flag it."""
        with open("/proc/%d/stat" % self.engine.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.engine.quit()
        self.engine.kill()


def referee_state(referee, fen, moves):
    """(legal move count, in check, position key for repetition, halfmove clock)."""
    referee.send("position fen %s moves %s" % (fen, " ".join(moves)))
    referee.send("go perft 1")
    count = int(next(l for l in referee.wait_for("Nodes searched") if l.startswith("Nodes searched")).split()[-1])
    referee.send("d")
    lines = referee.wait_for("Checkers")
    board_fen = next(l for l in lines if l.startswith("Fen: ")).split()[1:]
    checkers = lines[-1].split(":", 1)[1].strip()
    return count, bool(checkers), " ".join(board_fen[:4]), int(board_fen[4])


def play_game(number, fen, elos, tc, stockfish):
    """One game; returns (tags, coordinate moves, result, termination)."""
    base, increment = tc
    engines = [Uci(stockfish, {"UCI_LimitStrength": "true", "UCI_Elo": elo, "Hash": 16, "Threads": 1})
               for elo in elos]
    referee = Uci(stockfish, {"Threads": 1})
    for engine in engines:
        engine.send("ucinewgame")
    clocks = [base * 1000.0, base * 1000.0]
    moves, seen = [], {}
    side = 0 if fen.split()[1] == "w" else 1  # index into engines: 0 plays White
    result, termination = "1/2-1/2", "400 plies"
    while len(moves) < MAX_PLIES:
        count, check, key, halfmoves = referee_state(referee, fen, moves)
        seen[key] = seen.get(key, 0) + 1
        if count == 0:
            result = ("0-1" if side == 0 else "1-0") if check else "1/2-1/2"
            termination = "checkmate" if check else "stalemate"
            break
        if seen[key] >= 3 or halfmoves >= 100:
            termination = "repetition" if seen[key] >= 3 else "fifty moves"
            break
        engine = engines[side]
        engine.send("position fen %s moves %s" % (fen, " ".join(moves)))
        engine.send("go wtime %d btime %d winc %d binc %d" % (clocks[0], clocks[1], increment * 1000, increment * 1000))
        start = engine.cpu_ms()
        best = engine.wait_for("bestmove")[-1].split()[1]
        clocks[side] -= engine.cpu_ms() - start
        if clocks[side] < 0:
            result, termination = ("0-1" if side == 0 else "1-0"), "time forfeit"
            break
        clocks[side] += increment * 1000.0
        moves.append(best)
        side ^= 1
    for engine in engines + [referee]:
        engine.close()
    return number, fen, moves, result, termination


def write_coordinate_pgn(path, games, names, white_first, mode="w"):
    with open(path, mode) as out:
        for number, fen, moves, result, termination in games:
            weak_white = white_first(number)
            white, black = (names[0], names[1]) if weak_white else (names[1], names[0])
            tags = [("Event", "annotate judged set"), ("Site", "?"), ("Date", "????.??.??"), ("Round", str(number)),
                    ("White", white), ("Black", black), ("Result", result), ("SetUp", "1"), ("FEN", fen),
                    ("Termination", termination)]
            for name, value in tags:
                out.write('[%s "%s"]\n' % (name, value))
            out.write("\n%s %s\n\n" % (" ".join(moves), result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=36)
    parser.add_argument("--weak-elo", type=int, default=1350)
    parser.add_argument("--strong-elo", type=int, default=1700)
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--openings", default="data/openings.epd")
    parser.add_argument("--seed", type=int, default=63)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--rounds", metavar="FIRST-LAST",
                        help="play only these rounds of the --games (default: all of them)")
    parser.add_argument("--partial", help="each game also appended here (coordinate moves) as it ends")
    args = parser.parse_args()
    first, last = (int(x) for x in args.rounds.split("-")) if args.rounds else (1, args.games)
    if not 1 <= first <= last <= args.games:
        parser.error("--rounds must lie within 1-%d" % args.games)
    base, increment = (float(x) for x in args.tc.split("+"))
    with open(args.openings) as f:
        openings = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    chosen = random.Random(args.seed).sample(openings, args.games)
    names = ("Stockfish 15.1 UCI_Elo %d" % args.weak_elo, "Stockfish 15.1 UCI_Elo %d" % args.strong_elo)

    def weak_white(number):
        return number % 2 == 1

    def job(number):
        weak, strong = str(args.weak_elo), str(args.strong_elo)
        elos = (weak, strong) if weak_white(number) else (strong, weak)
        game = play_game(number, chosen[number - 1], elos, (base, increment), args.stockfish)
        print("game %d: %s, %d plies, %s" % (number, game[3], len(game[2]), game[4]), file=sys.stderr, flush=True)
        if args.partial:
            write_coordinate_pgn(args.partial, [game], names, weak_white, "a")
        return game

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        games = list(pool.map(job, range(first, last + 1)))
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.pgn")
        write_coordinate_pgn(raw, games, names, weak_white)
        subprocess.run([PGN_EXTRACT, "-s", "-Wsan", "--fixresulttags", "-o", args.out, raw], check=True)


if __name__ == "__main__":
    main()
