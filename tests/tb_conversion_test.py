#!/usr/bin/env python3
"""tb_conversion_test.py — a small conversion check for `make test` (the
full one, 50 positions a set through cutechess-cli, is
scripts/tb_conversion.py): bachess with SyzygyPath=data/syzygy plays out
two won KBNvK positions (DTZ 52 and 60 plies) and one drawn KRvKR position
against Stockfish without tables, and must win the KBNvK games under the
fifty-move rule and hold the draw.

The games are refereed here with Stockfish as the rules oracle (`go perft 1`
for the legal moves, `d` for the FEN and the checkers): checkmate,
stalemate, the fifty-move rule, threefold repetition and bare kings end a
game; a move that is not legal loses it.

    BACHESS=./bachess python3 -m pytest tests/tb_conversion_test.py
"""
import os
import re
import time

import pytest

from enginedriver import Engine

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.abspath(os.path.join(HERE, "..", "data", "syzygy"))
STOCKFISH = "/usr/games/stockfish"
BACHESS_MS, STOCKFISH_MS = 100, 50
GAMES = [  # (FEN, bachess plays, the result bachess must reach)
    ("8/5K2/8/8/6N1/8/B2k4/8 w - - 0 1", "w", "1-0"),
    ("8/2B5/8/8/4k3/8/8/6NK w - - 0 1", "w", "1-0"),
    ("8/2r5/8/7R/3k1K2/8/8/8 w - - 0 1", "b", "1/2-1/2"),
]


class Uci(Engine):
    def __init__(self, path, options=()):
        super().__init__(path, timeout=30, quit_timeout=10)
        self.send("uci")
        self.until("^uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.notes = self.until("^readyok")

    def best(self, fen, moves, ms):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {ms}")
        return self.until("^bestmove")[-1].split()[1]


def state(referee, fen, moves):
    """(FEN, legal moves, in check) after `moves`, by Stockfish."""
    position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    referee.send(position)
    referee.send("d")
    lines = referee.until("^Checkers:")
    now = next(l[5:] for l in lines if l.startswith("Fen: "))
    checkers = lines[-1].split(":", 1)[1].strip()
    referee.send("go perft 1")
    lines = referee.until("^Nodes searched")
    legal = {l.split(":")[0] for l in lines if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?: \d+$", l)}
    return now, legal, bool(checkers)


def play(bachess, stockfish, referee, fen, bachess_side):
    moves, seen = [], {}
    while True:
        now, legal, check = state(referee, fen, moves)
        side = now.split()[1]
        if not legal:
            return ("0-1" if side == "w" else "1-0") if check else "1/2-1/2", "checkmate" if check else "stalemate", moves
        if int(now.split()[4]) >= 100:
            return "1/2-1/2", "fifty-move rule", moves
        key = " ".join(now.split()[:4])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3:
            return "1/2-1/2", "threefold repetition", moves
        if re.sub(r"[Kk1-8/]", "", now.split()[0]) == "":
            return "1/2-1/2", "bare kings", moves
        ours = side == bachess_side
        move = bachess.best(fen, moves, BACHESS_MS) if ours else stockfish.best(fen, moves, STOCKFISH_MS)
        if move not in legal:
            loser = "bachess" if ours else "stockfish"
            return ("0-1" if side == "w" else "1-0"), f"illegal move {move} by {loser}", moves
        moves.append(move)


@pytest.fixture(scope="module")
def players():
    """bachess with the tables, stockfish without, and a stockfish referee."""
    bachess = Uci(os.environ.get("BACHESS", "./bachess"), [("OwnBook", "false"), ("SyzygyPath", TABLES)])
    stockfish = Uci(STOCKFISH, [("Threads", "1"), ("Hash", "16")])
    referee = Uci(STOCKFISH)
    yield bachess, stockfish, referee
    for e in (bachess, stockfish, referee):
        e.quit()


def test_tables_loaded(players):
    notes = players[0].notes
    assert [n for n in notes if "up to 4 pieces" in n], f"bachess did not load the tables: {notes}"


@pytest.mark.parametrize("fen, side, wanted", GAMES, ids=[fen for fen, _, _ in GAMES])
def test_game(players, fen, side, wanted):
    bachess, stockfish, referee = players
    t0 = time.monotonic()
    bachess.send("ucinewgame")
    stockfish.send("ucinewgame")
    result, why, moves = play(bachess, stockfish, referee, fen, side)
    print(f"{fen}: bachess ({'White' if side == 'w' else 'Black'}) {result} by {why} after {len(moves)} plies, "
          f"want {wanted} ({time.monotonic() - t0:.1f} s)")
    assert result == wanted, f"{result} by {why}, want {wanted}; moves: {' '.join(moves)}"
