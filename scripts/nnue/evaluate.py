#!/usr/bin/python3
"""evaluate.py — a network's evaluation of positions, computed in Python:
the integer value the engine must print (`bachess eval --net NET FEN`) and
the float value of the trained model it came from (NET.pt, if present).

    /usr/bin/python3 scripts/nnue/evaluate.py NET.nnue FEN [FEN ...]
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import model  # noqa: E402


def evaluations(net_path, fen):
    """(quantised centipawns, float centipawns or None) for the side to move."""
    q = model.read_net(net_path)
    pieces, stm = data.fen_to_pieces(fen)
    us, _ = data.features(pieces[None, :], np.array([stm]), q["king_mirroring"], q["king_map"])
    them, _ = data.features(pieces[None, :], np.array([1 - stm]), q["king_mirroring"], q["king_map"])
    quantised = model.quantised_eval(q, us, them)
    floating = None
    if os.path.exists(net_path + ".pt"):
        buckets = len(q["b2"])
        net = model.PerspectiveNet(q["b1"].shape[0], screlu=q["screlu"], buckets=buckets,
                                   king_buckets=model.king_bucket_count(q))
        net.load_state_dict(torch.load(net_path + ".pt"))
        t = torch.from_numpy
        bucket = np.array([model.output_bucket(len(us), buckets)], dtype=np.int64)
        with torch.no_grad():
            out = net(t(us), t(np.array([0])), t(them), t(np.array([0])), t(bucket))
        floating = float(out[0]) * model.SCALE
    return quantised, floating


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    for fen in argv[1:]:
        quantised, floating = evaluations(argv[0], fen)
        print(f"{quantised} {'%.2f' % floating if floating is not None else '-'} {fen}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
