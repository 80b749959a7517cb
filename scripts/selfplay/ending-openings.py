#!/usr/bin/python3
"""ending-openings.py — openings for matches about endings with few pawns:
quiet positions of the self-play store where each side has a piece, at most
two pawns are left and they are all one side's, and the search found neither
side far ahead (docs/results/strength.md, "Search and evaluation changes").

    ending-openings.py --out FILE.epd [--chunks 30] [--upto K] [--per-material 12]
                       [--min-material 50] [--score-limit 400] [--seed 5]

The records of the store's newest --chunks chunks (in the manifest's order;
scripts/selfplay/store.py records, cached) are grouped by their material
(the pieces of both sides, kings aside: "BRpr" is rook and bishop against
rook and pawn); of every group with at least --min-material positions,
--per-material are drawn at random (--seed), and all of them are written in a
random order as EPD lines (placement, side to move, "- -"). --upto K reads
the store as it was with its first K chunks, so that the same arguments
give the same file however the store has grown since.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STORE = os.path.join(ROOT, "data", "selfplay")
sys.path.insert(0, os.path.join(ROOT, "scripts", "nnue"))
import data  # noqa: E402

WHITE_PAWN, BLACK_PAWN, WHITE_KING, BLACK_KING = 0, 6, 5, 11
UNITS = np.array([0, 3, 3, 5, 9, 0] * 2, dtype=np.int32)  # non-pawn material of each piece code
MAX_PIECES = 9  # kings included


def newest_chunks(count, upto):
    """The last `count` of the manifest's first `upto` chunks (0: all of them)."""
    with open(os.path.join(STORE, "manifest.jsonl")) as f:
        files = [json.loads(line)["file"] for line in f if line.strip()]
    files = files[:upto] if upto else files
    return [os.path.join(STORE, name) for name in files[-count:]]


def record_files(chunks):
    """The chunks' record files, made (or found in the cache) by store.py."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "selfplay", "store.py"), "records"] + chunks,
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def ending_material(board, score, score_limit):
    """Its material signature if the position is one of these endings, else None."""
    pieces = board[board >= 0]
    if len(pieces) > MAX_PIECES or abs(int(score)) > score_limit:
        return None
    white_pawns, black_pawns = int((pieces == WHITE_PAWN).sum()), int((pieces == BLACK_PAWN).sum())
    if white_pawns + black_pawns > 2 or (white_pawns and black_pawns):
        return None
    if not UNITS[pieces[pieces < 6]].sum() or not UNITS[pieces[pieces >= 6]].sum():
        return None
    return "".join(sorted(data.PIECE_LETTERS[p] for p in pieces if p not in (WHITE_KING, BLACK_KING)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="the EPD file to write")
    parser.add_argument("--chunks", type=int, default=30, help="the store's newest chunks to read (30)")
    parser.add_argument("--upto", type=int, default=0,
                        help="the store as it was with this many chunks: its newest are read (0: as it is)")
    parser.add_argument("--per-material", type=int, default=12, help="positions of each material (12)")
    parser.add_argument("--min-material", type=int, default=50,
                        help="leave out a material with fewer positions than this (50)")
    parser.add_argument("--score-limit", type=int, default=400, help="largest |search score| in cp (400)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    by_material = collections.defaultdict(list)
    for records in data.open_records(record_files(newest_chunks(args.chunks, args.upto))):
        boards, side, score, _ = data.decode(np.asarray(records))
        for board, stm, value in zip(boards, side, score):
            material = ending_material(board, value, args.score_limit)
            if material:
                by_material[material].append(" ".join(data.pieces_to_fen(board, stm).split()[:4]))  # EPD: no counters
    rng = random.Random(args.seed)
    chosen = []
    for material in sorted(by_material, key=lambda m: (-len(by_material[m]), m)):
        positions = by_material[material]
        if len(positions) >= args.min_material:
            rng.shuffle(positions)
            chosen += positions[:args.per_material]
    rng.shuffle(chosen)
    with open(args.out, "w") as f:
        f.write("".join(line + "\n" for line in chosen))
    print(f"ending-openings: {len(chosen)} positions of {sum(len(by_material[m]) >= args.min_material for m in by_material)} "
          f"materials from {args.chunks} chunks written to {args.out}")


if __name__ == "__main__":
    main()
