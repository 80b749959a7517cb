#!/usr/bin/env python3
"""tb_conversion.py — does bachess convert won tablebase endings and hold the
drawn ones, in games? (the before/after figure of the Syzygy work)

    scripts/tb_conversion.py [--engine ./bachess] [--positions 50] [--tc st=0.1]
                             [--runner PATH-TO-cutechess-cli] [--out DIR] [--sets KQvK,...]
                             [--tables both|with|without] [--seed 18]

For each material set, random legal positions are drawn (fixed seed) and
classified by `bachess tb probe -` with the repository's tables:
  won sets   KQvK, KRvK, KBNvK, KRvKP, KPvK: White (the stronger side) to
             move and winning under the fifty-move rule (no cursed wins);
             bachess plays White;
  drawn sets KRvKR, KPvK: White to move and a draw; bachess plays Black,
             the side that must hold.
Each position is one game against Stockfish (Debian's 15.1, no tables), with
cutechess-cli (built outside the repository), once with SyzygyPath set to
data/syzygy and once without. The runner applies the fifty-move rule and
adjudicates nothing. Prints per set: games, bachess's W-L-D with and without
tables, and how many of the won positions were won / drawn positions held.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.abspath(os.path.join(HERE, "..", "data", "syzygy"))
WON_SETS = ["KQvK", "KRvK", "KBNvK", "KRvKP", "KPvK"]
DRAWN_SETS = ["KRvKR", "KPvK"]


def placement(board):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            piece = board.get(rank * 8 + f)
            if piece:
                row += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def random_fen(rng, material):
    """White has the pieces before 'v', Black those after; White to move."""
    white, black = material.split("v")
    board = {}
    for side, pieces in ((str.upper, white), (str.lower, black)):
        for p in pieces:
            while True:
                sq = rng.randrange(64)
                if sq in board or (p == "P" and not 8 <= sq < 56):
                    continue
                board[sq] = side(p)
                break
    return placement(board) + " w - - 0 1"


def classify(engine, fens):
    r = subprocess.run([engine, "tb", "probe", "--path", TABLES, "-"], input="\n".join(fens) + "\n",
                       capture_output=True, text=True, check=True)
    out = []
    for block in r.stdout.split("\n\n")[:len(fens)]:
        m = re.search(r"^WDL (.+)$", block, re.M)
        out.append(m.group(1) if m and "checkmate" not in block and "stalemate" not in block else None)
    return out


def draw_positions(engine, material, want, count, rng):
    chosen = []
    while len(chosen) < count:
        fens = [random_fen(rng, material) for _ in range(400)]
        for fen, wdl in zip(fens, classify(engine, fens)):
            if wdl == want and fen not in chosen and len(chosen) < count:
                chosen.append(fen)
    return chosen


def play(runner, engine, fens, bachess_white, tables, tc, pgn):
    with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as fh:
        fh.write("".join(f.rsplit(" ", 2)[0] + "\n" for f in fens))
        epd = fh.name
    bachess = ["-engine", "name=bachess", "cmd=" + os.path.abspath(engine), "proto=uci", "option.OwnBook=false"]
    if tables:
        bachess.append("option.SyzygyPath=" + TABLES)
    stockfish = ["-engine", "name=stockfish", "cmd=/usr/games/stockfish", "proto=uci"]
    if os.path.exists(pgn):
        os.unlink(pgn)  # cutechess-cli appends
    first, second = (bachess, stockfish) if bachess_white else (stockfish, bachess)
    cmd = [runner] + first + second + ["-each"] + tc.split() + [ "-openings", "file=" + epd, "format=epd", "order=sequential",
                                       "-rounds", str(len(fens)), "-games", "1", "-noswap", "-pgnout", pgn,
                                       "-concurrency", "1", "-recover"]
    log = subprocess.run(cmd, capture_output=True, text=True).stdout
    os.unlink(epd)
    results = re.findall(r"Finished game \d+ \((\w+) vs (\w+)\): (\S+) \{([^}]*)\}", log)
    wins = losses = draws = 0
    reasons = {}
    for white, _black, result, why in results:
        ours = {"1-0": 1, "0-1": -1}.get(result, 0) * (1 if white == "bachess" else -1)
        wins, losses, draws = wins + (ours == 1), losses + (ours == -1), draws + (ours == 0)
        if ours != (1 if bachess_white else 0):
            reasons[why] = reasons.get(why, 0) + 1
    return wins, losses, draws, reasons


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="./bachess")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--tc", default="st=0.1 timemargin=200")
    ap.add_argument("--runner", default=os.environ.get("CUTECHESS", shutil.which("cutechess-cli") or "cutechess-cli"))
    ap.add_argument("--out", default=tempfile.gettempdir())
    ap.add_argument("--sets", default=",".join(WON_SETS + ["draw:" + s for s in DRAWN_SETS]))
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--tables", choices=["both", "with", "without"], default="both",
                    help="play the positions with tables, without, or both (the same positions either way)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"engine {args.engine}; opponent Stockfish 15.1 without tables; {args.tc} a move; "
          f"cutechess-cli, concurrency 1; seed {args.seed}", flush=True)
    for item in args.sets.split(","):
        drawn = item.startswith("draw:")
        material = item[5:] if drawn else item
        fens = draw_positions(args.engine, material, "draw" if drawn else "win", args.positions, rng)
        for tables in {"both": (True, False), "with": (True,), "without": (False,)}[args.tables]:
            tag = f"{'drawn' if drawn else 'won'}-{material}-{'tb' if tables else 'notb'}"
            pgn = os.path.join(args.out, f"tbconv-{tag}.pgn")
            w, l, d, reasons = play(args.runner, args.engine, fens, not drawn, tables, args.tc, pgn)
            goal = f"held {w + d}/{w + l + d}" if drawn else f"won {w}/{w + l + d}"
            print(f"{material:6} {'drawn' if drawn else 'won  '} {'with tables   ' if tables else 'without tables'} "
                  f"W-L-D {w}-{l}-{d}: {goal}" + (f"  (others: {reasons})" if reasons else "") + f"  [{pgn}]",
                  flush=True)


if __name__ == "__main__":
    sys.exit(main())
