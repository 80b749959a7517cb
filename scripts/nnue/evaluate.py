#!/usr/bin/python3
"""evaluate.py — a network's evaluation of positions, computed in Python:
the integer value the engine must print (`bachess eval --net NET FEN`) and
the float value of the trained model it came from (NET.pt, if present).

    /usr/bin/python3 scripts/nnue/evaluate.py NET.nnue FEN [FEN ...]
"""
import argparse
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
    quantised = model.quantised_eval(q, *board_features(q, fen))
    floating = None
    if os.path.exists(net_path + ".pt"):
        net = float_net(q)
        net.load_state_dict(torch.load(net_path + ".pt"))
        floating = float_eval(net, q, fen)
    return quantised, floating


def file_weights_eval(q, fen):
    """The float network holding the file's own (rounded) weights, in
    centipawns: what the integer evaluation computes, but for the integer
    divisions."""
    net = float_net(q)
    model.load_quantised(net, q)
    return float_eval(net, q, fen)


def board_features(q, fen):
    """The input features of both perspectives, side to move first."""
    pieces, stm = data.fen_to_pieces(fen)
    us, _ = data.features(pieces[None, :], np.array([stm]), q["king_mirroring"], q["king_map"])
    them, _ = data.features(pieces[None, :], np.array([1 - stm]), q["king_mirroring"], q["king_map"])
    return us, them


def float_net(q):
    """A float network of the file's shape (its weights not yet set)."""
    return model.PerspectiveNet(q["b1"].shape[0], screlu=q["screlu"], buckets=len(q["b2"]),
                                king_buckets=model.king_bucket_count(q))


def float_eval(net, q, fen):
    """A float network's evaluation of one board, in centipawns."""
    us, them = board_features(q, fen)
    t = torch.from_numpy
    bucket = np.array([model.output_bucket(len(us), len(q["b2"]))], dtype=np.int64)
    with torch.no_grad():
        out = net(t(us), t(np.array([0])), t(them), t(np.array([0])), t(bucket))
    return float(out[0]) * model.SCALE


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("net", metavar="NET.nnue")
    parser.add_argument("fens", nargs="+", metavar="FEN")
    a = parser.parse_args(argv)
    for fen in a.fens:
        quantised, floating = evaluations(a.net, fen)
        print(f"{quantised} {'%.2f' % floating if floating is not None else '-'} {fen}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
