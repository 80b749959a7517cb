#!/usr/bin/python3
"""wdl-fit.py — fits bachess's win/draw/loss model on its own self-play games
(docs/wdl.md), the way Stockfish fits its model on its test games.

    wdl-fit.py [--net SHA12] [--hold-out-every K] [--max-records N] [--engine ./bachess]

The positions are the training records of the self-play store (scripts/selfplay/
store.py records; 32 bytes each, docs/datagen.md "Record format"). The model,
with x the score in centipawns from the side to move's view and m the material
on the board (pawn 1, knight and bishop 3, rook 5, queen 9; clamped to 17..78):

    P(win)  = 1 / (1 + exp((a(m) - x) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + x) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

a and b are cubic polynomials in m / 58, fitted together by maximum likelihood
(Fisher scoring on the eight coefficients). The store's chunks of one net are
split whole: every K-th chunk is held out, the rest are fitted (at most N records,
drawn evenly). The script prints the coefficients as C source lines for
src/wdl.c, the held-out likelihood of the new model and of the one now in
src/wdl.c, and the calibration table on the held-out chunks (markdown, for
docs/results/wdl.md).
"""
import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
STORE = os.path.join(ROOT, "data", "selfplay")
RECORD = np.dtype([("occupancy", "<u8"), ("pieces", "u1", 16), ("score", "<i2"), ("result", "u1"),
                   ("stm", "u1"), ("ply", "<u2"), ("pad", "<u2")])
PIECE_MATERIAL = np.array([1, 3, 3, 5, 9, 0] * 2 + [0] * 4, dtype=np.int32)
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_SCALE = 17, 78, 58.0
SCORE_LIMIT = 2000  # records beyond ±20 pawns tell nothing about the curve's shape


def material_of(records):
    """The material of each record, counted from its 4-bit piece codes."""
    bits = np.unpackbits(np.ascontiguousarray(records["occupancy"]).view(np.uint8).reshape(-1, 8), axis=1)
    count = bits.sum(axis=1)
    nibbles = np.empty((len(records), 32), dtype=np.uint8)
    nibbles[:, 0::2] = records["pieces"] & 15
    nibbles[:, 1::2] = records["pieces"] >> 4
    present = np.arange(32)[None, :] < count[:, None]
    return (PIECE_MATERIAL[nibbles] * present).sum(axis=1)


def samples_of(records):
    """(score, result, material) from the side to move's view; result 0 loss,
    1 draw, 2 win."""
    black = records["stm"] == 1
    score = np.where(black, -records["score"].astype(np.int32), records["score"].astype(np.int32))
    result = np.where(black, 2 - records["result"].astype(np.int32), records["result"].astype(np.int32))
    material = np.clip(material_of(records), MATERIAL_MIN, MATERIAL_MAX)
    keep = np.abs(score) <= SCORE_LIMIT
    return score[keep], result[keep], material[keep]


def aggregate(score, result, material):
    """Counts of losses, draws and wins for each (score, material) pair seen:
    the likelihood needs nothing more, and it is far smaller."""
    key = (material.astype(np.int64) - MATERIAL_MIN) * (2 * SCORE_LIMIT + 1) + score + SCORE_LIMIT
    keys, inverse = np.unique(key, return_inverse=True)
    counts = np.zeros((len(keys), 3))
    np.add.at(counts, (inverse, result), 1)
    x = (keys % (2 * SCORE_LIMIT + 1) - SCORE_LIMIT).astype(float)
    m = (keys // (2 * SCORE_LIMIT + 1) + MATERIAL_MIN).astype(float)
    return x, m, counts


def poly(coeffs, m):
    """coeffs[0] * t^3 + coeffs[1] * t^2 + coeffs[2] * t + coeffs[3], t = m / 58."""
    t = m / MATERIAL_SCALE
    return ((coeffs[0] * t + coeffs[1]) * t + coeffs[2]) * t + coeffs[3]


def probabilities(params, x, m):
    """P(loss), P(draw), P(win) of the model with params = a's then b's coefficients."""
    a, b = poly(params[:4], m), poly(params[4:], m)
    win = 1 / (1 + np.exp((a - x) / b))
    loss = 1 / (1 + np.exp((a + x) / b))
    return loss, 1 - win - loss, win


def neg_log_likelihood(params, x, m, counts):
    """The data's negative log-likelihood a position (infinite where the model
    gives a seen result no chance)."""
    p = np.stack(probabilities(params, x, m), axis=1)
    if np.any(poly(params[4:], m) <= 0) or np.any(p <= 0):
        return np.inf
    return -(counts * np.log(p)).sum() / counts.sum()


def derivatives(params, x, m):
    """The chances (loss, draw, win) and their derivatives in the eight
    coefficients, one row a (score, material) pair."""
    a, b = poly(params[:4], m), poly(params[4:], m)
    loss, draw, win = probabilities(params, x, m)
    t = m / MATERIAL_SCALE
    powers = np.stack([t ** 3, t ** 2, t, np.ones_like(t)], axis=1)
    u, v = (x - a) / b, (-x - a) / b
    dwin = np.concatenate([(-win * (1 - win) / b)[:, None] * powers, (-win * (1 - win) * u / b)[:, None] * powers], 1)
    dloss = np.concatenate([(-loss * (1 - loss) / b)[:, None] * powers,
                            (-loss * (1 - loss) * v / b)[:, None] * powers], 1)
    return (loss, draw, win), (dloss, -dwin - dloss, dwin)


def gradient_and_information(params, x, m, counts):
    """The negative log-likelihood's gradient and the Fisher information
    (the expected Hessian: positive definite, so every step goes downhill)."""
    chances, slopes = derivatives(params, x, m)
    n = counts.sum(axis=1)
    g, info = np.zeros(8), np.zeros((8, 8))
    for k in range(3):
        p = np.maximum(chances[k], 1e-300)
        g -= slopes[k].T @ (counts[:, k] / p)
        info += slopes[k].T @ (slopes[k] * (n / p)[:, None])
    total = counts.sum()
    return g / total, info / total


def fit(x, m, counts, start=(0, 0, 0, 150, 0, 0, 0, 70), iterations=200):
    """The coefficients of largest likelihood: Fisher-scoring steps, each
    halved until the likelihood improves; stops when it no longer does."""
    params = np.array(start, dtype=float)
    best = neg_log_likelihood(params, x, m, counts)
    for _ in range(iterations):
        g, info = gradient_and_information(params, x, m, counts)
        step = np.linalg.solve(info + 1e-9 * np.trace(info) * np.eye(8), -g)
        for _ in range(40):
            trial = neg_log_likelihood(params + step, x, m, counts)
            if trial < best:
                break
            step /= 2
        else:
            break
        improvement = best - trial
        params, best = params + step, trial
        if improvement < 1e-14:
            break
    return params


def store_chunks(net, store=STORE):
    """The store's chunks made with the net whose sha256 begins with net, in
    the manifest's order."""
    with open(os.path.join(store, "manifest.jsonl")) as f:
        entries = [json.loads(line) for line in f if line.strip()]
    return [os.path.join(store, e["file"]) for e in entries if f"sha256 {net}" in e["net"]]


def records_files(chunks, engine):
    """The training-record files of the chunks (made and cached by store.py)."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "selfplay", "store.py"), "--engine", engine,
                          "records", *chunks], check=True, capture_output=True, text=True).stdout
    return out.split()


def load(files, limit=None):
    """The records of the files; with a limit, that many drawn evenly."""
    records = np.concatenate([np.fromfile(f, dtype=RECORD) for f in files])
    if limit and len(records) > limit:
        records = records[np.linspace(0, len(records) - 1, limit).astype(np.int64)]
    return records


def c_source(params, command):
    """The coefficients as the lines of src/wdl.c."""
    fmt = ", ".join("%.6f" for _ in range(4))
    return "\n".join([f"/* Made by: {command} */",
                      "static const double wdl_a[4] = { " + fmt % tuple(params[:4]) + " };",
                      "static const double wdl_b[4] = { " + fmt % tuple(params[4:]) + " };"])


SCORE_BANDS = [-2000, -400, -250, -150, -100, -50, -20, 20, 50, 100, 150, 250, 400, 2001]
MATERIAL_BANDS = [(17, 30), (31, 50), (51, 78)]


def source_params(text):
    """The eight coefficients of the lines c_source() writes, read back from
    src/wdl.c's text (None when they are not there)."""
    found = {}
    for name in ("wdl_a", "wdl_b"):
        m = re.search(r"static const double " + name + r"\[4\] = \{([^}]*)\};", text)
        if not m:
            return None
        found[name] = [float(v) for v in m.group(1).split(",")]
    return np.array(found["wdl_a"] + found["wdl_b"])


def calibration_rows(params, score, result, material):
    """One row a score band (and material band): positions, predicted and
    observed win/draw/loss in per cent, and the expected-score gap."""
    rows = []
    loss, draw, win = probabilities(params, score.astype(float), material.astype(float))
    for low_m, high_m in [(MATERIAL_MIN, MATERIAL_MAX)] + MATERIAL_BANDS:
        for low, high in zip(SCORE_BANDS, SCORE_BANDS[1:]):
            sel = (score >= low) & (score < high) & (material >= low_m) & (material <= high_m)
            n = int(sel.sum())
            if n == 0:
                continue
            obs = [np.mean(result[sel] == r) * 100 for r in (2, 1, 0)]
            pred = [win[sel].mean() * 100, draw[sel].mean() * 100, loss[sel].mean() * 100]
            rows.append((f"{low_m}–{high_m}", f"{low}…{high - 1}", n, pred, obs,
                         (pred[0] - pred[2] - obs[0] + obs[2]) / 2))
    return rows


def calibration_table(rows):
    """The rows as a markdown table."""
    lines = ["| material | score (cp) | positions | predicted W / D / L % | observed W / D / L % | "
             "expected score, predicted − observed (points) |", "| --- | --- | ---: | --- | --- | ---: |"]
    for mat, band, n, pred, obs, gap in rows:
        lines.append(f"| {mat} | {band} | {n} | {pred[0]:.1f} / {pred[1]:.1f} / {pred[2]:.1f} | "
                     f"{obs[0]:.1f} / {obs[1]:.1f} / {obs[2]:.1f} | {gap:+.1f} |")
    return "\n".join(lines)


def built_in_net():
    """The first 12 hex digits of nets/default.nnue's sha256."""
    import hashlib
    with open(os.path.join(ROOT, "nets", "default.nnue"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", default=None, help="the chunks of this net (sha256 prefix; default the built-in net)")
    ap.add_argument("--hold-out-every", type=int, default=4, help="every K-th chunk held out (default 4)")
    ap.add_argument("--max-records", type=int, default=4_000_000)
    ap.add_argument("--engine", default=os.path.join(ROOT, "bachess"))
    args = ap.parse_args(argv)
    net = args.net or built_in_net()
    chunks = store_chunks(net)
    held = chunks[args.hold_out_every - 1::args.hold_out_every]
    fitted = [c for c in chunks if c not in held]
    if not fitted or not held:
        print(f"wdl-fit: {len(chunks)} chunks of net {net}: too few to fit and hold out", file=sys.stderr)
        return 1
    train = load(records_files(fitted, args.engine), args.max_records)
    score, result, material = samples_of(train)
    params = fit(*aggregate(score, result, material))
    command = "scripts/wdl-fit.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"net {net}: {len(fitted)} chunks fitted ({len(score)} positions), {len(held)} held out:")
    print("  " + ", ".join(os.path.basename(c) for c in held))
    print(c_source(params, command.strip()))
    test = samples_of(load(records_files(held, args.engine)))
    print(f"held-out positions: {len(test[0])}, mean log-likelihood "
          f"{-neg_log_likelihood(params, *aggregate(*test)):.4f}")
    # The model now in the source, on the same positions: whether the new
    # net's games need the new coefficients at all.
    with open(os.path.join(ROOT, "src", "wdl.c")) as f:
        current = source_params(f.read())
    if current is not None:
        print(f"the model now in src/wdl.c on them: mean log-likelihood "
              f"{-neg_log_likelihood(current, *aggregate(*test)):.4f}")
    print(calibration_table(calibration_rows(params, *test)))
    return 0


if __name__ == "__main__":
    with np.errstate(over="ignore"):  # exp() of far-off scores: a chance of 0 or 1, as meant
        sys.exit(main())
