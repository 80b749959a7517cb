#!/usr/bin/python3
"""nnue_train_test.py — the NNUE pipeline end to end on a tiny data set:
`bachess datagen` makes a few thousand positions, scripts/nnue/train.py
trains a small network on them, and then

  1. the training loss falls to less than half (the held-out loss is shown);
  2. the file written reads back to the same integer weights;
  3. the integer evaluation is the float network of the file's weights, but
     for its integer divisions (under 1.035 cp); its distance from the trained
     float network (the weights' rounding) is shown;
  4. the engine (`bachess eval --net`) gives exactly the Python integer value;
  5. a warm start (--init) from the file, with no epoch, writes the same file
     back, and with one epoch starts from the network's loss, not a random one's;
  6. the held-out set is whole runs of consecutive records (whole games), and
     held-out and training positions together are every position once;
  7. --mirror's left-right image of a board is the board of the FEN whose
     ranks are read backwards, and a run with --mirror learns too;
  8. --output-buckets 4 learns and writes a version-2 file that the engine
     evaluates exactly as Python does, in at least three buckets; a
     one-bucket net widened to 4 buckets (--init, no epoch) evaluates the
     same as the net it came from;
  9. --king-mirroring learns and writes a version-3 file that the engine
     evaluates exactly as Python does, with the kings on either wing; started
     from a net that does not mirror (--init, no epoch), it evaluates a board
     with both kings on the e- to h-files as the old net does, and one with
     both on the a- to d-files as the old net evaluates its mirror image;
 10. the learning rate keeps its old steps without --final-lr, and with it
     falls by one factor an epoch from --lr to --final-lr; such a run learns;
 11. --king-buckets reads its presets and 64-number layouts and refuses bad
     ones; it learns and writes a version-4 file that the engine evaluates
     exactly as Python does, with kings in at least three buckets, with and
     without mirroring; started from a net without king buckets (--init, no
     epoch), it evaluates every position as the old net does; a bucketed net
     started from itself writes itself back, byte for byte, and one of
     another layout is refused.
 12. --c-gradient's input gradient (scripts/nnue/feature_grad.c) is torch's to float
     rounding, with and without king buckets; it learns, gives the same
     bytes twice, and refuses a feature beyond the input weights.

    BACHESS=./bachess /usr/bin/python3 -m pytest tests/nnue_train_test.py
"""
import contextlib
import io
import os
import re
import subprocess
import sys

import numpy as np
import torch

from checklist import check

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "nnue"))
import data  # noqa: E402
import evaluate  # noqa: E402
import feature_grad  # noqa: E402
import king_buckets  # noqa: E402
import model  # noqa: E402
import train  # noqa: E402

# The integer evaluation against the float network holding the same (rounded)
# weights, in centipawns: they part only in two integer divisions toward zero,
# by QA after the activations (less than 1 of QA * QB output units, SCALE / (QA
# * QB) cp) and by QA * QB at the end (less than 1 cp). Float32 adds the rest:
# at most 0.0003 cp against float64 on the 256-wide default net over 300
# positions (whose integer value came within 1.019 cp of float64's).
INTEGER_TOLERANCE_CP = 1 + model.SCALE / (model.QA * model.QB) + 0.01
# A warm start's first held-out loss against the loss its net ended with:
# only the quantisation of the weights lies between them (0.1-0.6 % seen).
WARM_START_TOLERANCE = 0.02


def losses(log):
    """A trainer's log: its held-out losses (epoch 0 on) and training losses (epoch 1 on)."""
    return ([float(x) for x in re.findall(r"held-out loss ([0-9.]+)", log)],
            [float(x) for x in re.findall(r"training loss ([0-9.]+)", log)])


def learned(log):
    """Whether a run learned its data, and how its training loss went. The
    training loss, not the held-out one: a few thousand positions hold out
    one or two games, on which a small net that learns the rest by heart
    may do worse than a random one (seen with the same code on the data of
    other seeds and nets)."""
    _, trained = losses(log)
    fell = len(trained) >= 2 and trained[-1] < 0.5 * trained[0]
    return fell, f"training loss {trained[0]:.5f} -> {trained[-1]:.5f}" if trained else "no training loss"


def mirrored_fen(fen):
    """The FEN of the board mirrored left to right: each rank read backwards."""
    placement, rest = fen.split(" ", 1)
    return "/".join(rank[::-1] for rank in placement.split("/")) + " " + rest


def engine_eval(engine, net_path, fen):
    out = subprocess.run([engine, "eval", "--net", net_path] + fen.split(), capture_output=True, text=True).stdout
    m = re.search(r"^NNUE: (-?\d+) cp", out, re.M)
    return int(m.group(1)) if m else None


def kings_wings(pieces):
    """(White's king on the e- to h-files, Black's) of one board."""
    return tuple(bool(data.kings_wing_mirrored(pieces[None, :], np.array([c]))[0]) for c in (0, 1))


def check_king_mirroring(engine, data_path, plain_path, pieces, stm, work):
    mirroring_path, started_path = os.path.join(work, "mirroring.nnue"), os.path.join(work, "started.nnue")
    train.main([data_path, "--out", mirroring_path, "--hidden", "32", "--epochs", "6", "--batch", "256",
                "--lr", "0.01", "--seed", "3", "--king-mirroring"])
    log = open(mirroring_path + ".log").read()
    fell, how = learned(log)
    version = int.from_bytes(open(mirroring_path, "rb").read()[8:12], "little")
    check("mirrored by each king's wing" in log and version == 3 and model.read_net(mirroring_path)["king_mirroring"]
          and fell, f"--king-mirroring: a version-{version} file; {how}")
    # Boards with the kings on every combination of wings: the recorded ones
    # and their mirror images.
    fens = [data.pieces_to_fen(pieces[i], stm[i]) for i in range(len(pieces))]
    fens += [mirrored_fen(fen) for fen in fens]
    wings = {kings_wings(data.fen_to_pieces(fen)[0]) for fen in fens}
    mismatches = [(fen, got, want) for fen in fens
                  for got, want in [(engine_eval(engine, mirroring_path, fen), evaluate.evaluations(mirroring_path, fen)[0])]
                  if got != want]
    check(not mismatches and len(wings) == 4,
          f"engine equals Python's integer evaluation of the mirroring net on {len(fens)} positions, kings' wings "
          f"{sorted(wings)}" + (f"; first mismatch {mismatches[0]}" if mismatches else ""))
    train.main([data_path, "--out", started_path, "--hidden", "32", "--epochs", "0", "--seed", "3",
                "--king-mirroring", "--init", plain_path])
    wrong, compared = [], 0
    for fen in fens:
        white_mirrored, black_mirrored = kings_wings(data.fen_to_pieces(fen)[0])
        if white_mirrored != black_mirrored:
            continue
        compared += 1
        want = engine_eval(engine, plain_path, fen if white_mirrored else mirrored_fen(fen))
        if engine_eval(engine, started_path, fen) != want:
            wrong.append(fen)
    check(not wrong and compared > len(fens) // 2,
          f"--init of a plain net into a mirroring one, no epoch: on {compared} boards with both kings on one wing the "
          "engine evaluates as the plain net does (e- to h-files) or its mirror image (a- to d-files)"
          + (f"; first wrong {wrong[0]}" if wrong else ""))


def check_king_bucket_layouts():
    home4, home8 = king_buckets.parse("home4"), king_buckets.parse("home8")
    by_rank = ",".join(str(min(square // 8, 3)) for square in range(64))
    check(king_buckets.count(home4) == 4 and king_buckets.count(home8) == 8 and home4[4] == 1 and home4[6] == 0
          and king_buckets.parse(by_rank) == [min(square // 8, 3) for square in range(64)]
          and king_buckets.parse("home8", king_mirroring=True) == home8,
          "--king-buckets: the presets home4 and home8, and 64 numbers rank 1 first")
    bad = {"63 numbers": ",".join(["0"] * 63), "bucket 1 unused": ",".join(["0"] * 63 + ["2"]),
           "a word": "home5", "a negative bucket": ",".join(["-1"] + ["0"] * 63),
           "33 buckets": ",".join(str(min(square, 32)) for square in range(64))}
    accepted = []
    for what, text in bad.items():
        try:
            king_buckets.parse(text)
            accepted.append(what)
        except ValueError:
            pass
    wings = ",".join(str(square % 8 // 4) for square in range(64))  # bucket 1 on files e-h only
    try:
        king_buckets.parse(wings, king_mirroring=True)
        accepted.append("a bucket on files e-h only, mirroring")
    except ValueError as e:
        if "files a-d" not in str(e):
            accepted.append(f"wrong message {e}")
    king_buckets.parse(wings)  # without mirroring both buckets are read
    check(not accepted, f"--king-buckets refuses bad layouts ({', '.join(bad)}, a mirroring net's bucket on files e-h)"
          + (f"; accepted {accepted}" if accepted else ""))


def buckets_met(fens, q):
    """The king buckets the perspectives of these boards read."""
    met = set()
    for fen in fens:
        pieces = data.fen_to_pieces(fen)[0][None, :]
        for side in (0, 1):
            square = data.own_king_squares(pieces, np.array([side]), q["king_mirroring"])[0]
            met.add(q["king_map"][square])
    return met


def check_king_buckets(engine, data_path, plain_path, pieces, stm, work):
    check_king_bucket_layouts()
    fens = [data.pieces_to_fen(pieces[i], stm[i]) for i in range(len(pieces))]
    fens += [mirrored_fen(fen) for fen in fens]
    for layout, mirroring in (("home4", False), ("home8", True)):
        path = os.path.join(work, f"kings-{layout}.nnue")
        train.main([data_path, "--out", path, "--hidden", "32", "--epochs", "6", "--batch", "256", "--lr", "0.01",
                    "--seed", "3", "--king-buckets", layout] + (["--king-mirroring"] if mirroring else []))
        log = open(path + ".log").read()
        fell, how = learned(log)
        q = model.read_net(path)
        version = int.from_bytes(open(path, "rb").read()[8:12], "little")
        check(f"king buckets ({layout})" in log and version == 4 and q["king_map"] == king_buckets.parse(layout)
              and q["king_mirroring"] == mirroring and fell,
              f"--king-buckets {layout}{' --king-mirroring' if mirroring else ''}: a version-{version} file with its "
              f"layout; {how}")
        mismatches = [(fen, got, want) for fen in fens
                      for got, want in [(engine_eval(engine, path, fen), evaluate.evaluations(path, fen)[0])]
                      if got != want]
        met = buckets_met(fens, q)
        check(not mismatches and len(met) >= 3,
              f"engine equals Python's integer evaluation of the {layout} net on {len(fens)} positions, king buckets "
              f"{sorted(met)} met" + (f"; first mismatch {mismatches[0]}" if mismatches else ""))
    # A warm start from a net without king buckets: every bucket its weights.
    started_path, again_path = os.path.join(work, "kings-started.nnue"), os.path.join(work, "kings-again.nnue")
    train.main([data_path, "--out", started_path, "--hidden", "32", "--epochs", "0", "--seed", "3",
                "--king-buckets", "home8", "--init", plain_path])
    wrong = [fen for fen in fens if engine_eval(engine, started_path, fen) != engine_eval(engine, plain_path, fen)]
    met = buckets_met(fens, model.read_net(started_path))
    check(not wrong and len(met) >= 3 and "copied into each of the 8 king buckets" in open(started_path + ".log").read(),
          f"--init of a net without king buckets into home8, no epoch: the engine evaluates {len(fens)} positions "
          f"(king buckets {sorted(met)}) as the old net does" + (f"; first wrong {wrong[0]}" if wrong else ""))
    train.main([data_path, "--out", again_path, "--hidden", "32", "--epochs", "0", "--seed", "3",
                "--king-buckets", "home8", "--init", started_path])
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            train.main([data_path, "--out", os.path.join(work, "kings-other.nnue"), "--hidden", "32", "--epochs", "0",
                        "--king-buckets", "home4", "--init", started_path])
        refused = False
    except SystemExit:
        refused = "king bucket layout differs" in said.getvalue()
    check(open(again_path, "rb").read() == open(started_path, "rb").read() and refused,
          "--init of a bucketed net with its layout writes it back byte for byte; with another layout it is refused")


def check_learning_rate(data_path, work):
    step = train.argparse.Namespace(lr=0.01, final_lr=0.0, epochs=8)
    steps = [train.learning_rate(step, e) for e in range(1, 9)]
    check(steps == [0.01] * 6 + [0.01 * 0.3] * 2, f"without --final-lr: 0.3 x the rate in the last quarter {steps}")
    decay = train.argparse.Namespace(lr=0.01, final_lr=0.0001, epochs=5)
    rates = [train.learning_rate(decay, e) for e in range(1, 6)]
    ratios = [b / a for a, b in zip(rates, rates[1:])]
    check(abs(rates[0] - 0.01) < 1e-12 and abs(rates[-1] - 0.0001) < 1e-12
          and max(ratios) - min(ratios) < 1e-9 and abs(ratios[0] - 0.1 ** 0.5) < 1e-9,
          f"--final-lr: from --lr to --final-lr by one factor an epoch {rates}")
    decay_path = os.path.join(work, "decay.nnue")
    train.main([data_path, "--out", decay_path, "--hidden", "32", "--epochs", "4", "--batch", "256",
                "--lr", "0.01", "--final-lr", "0.001", "--seed", "3"])
    log = open(decay_path + ".log").read()
    held, _ = losses(log)
    fell, how = learned(log)
    check("lr 0.01 falling to 0.001" in log and len(held) == 5 and fell,
          f"a run with --final-lr learns and says so in its log: {how}")


def check_c_gradient(data_path, work):
    """--c-gradient: scripts/nnue/feature_grad.c's gradient of the input weights is torch's
    to float rounding (plain, and with king buckets); a training with it
    learns and writes the same bytes twice; a feature beyond the weights is
    refused before the C loop could write out of bounds."""
    records = np.asarray(data.open_records([data_path])[0][:512])
    for layout in (None, "home4"):
        king_map = king_buckets.parse(layout) if layout else None
        batch = train.batch_tensors(records, king_map=king_map)
        grads = []
        for c_gradient in (False, True):
            torch.manual_seed(4)
            net = model.PerspectiveNet(64, king_buckets=king_buckets.count(king_map), c_gradient=c_gradient)
            train.loss_of(net, batch, 175.0, 0.25).backward()
            grads.append(net.ft.weight.grad)
        scale, gap = float(grads[0].abs().max()), float((grads[0] - grads[1]).abs().max())
        check(scale > 0 and gap <= 1e-5 * scale,
              f"the C loop's input gradient is torch's ({layout or 'no king buckets'}): largest difference "
              f"{gap:.2e} of {scale:.2e}")
    nets = [os.path.join(work, f"c-gradient-{run}.nnue") for run in (1, 2)]
    for path in nets:
        train.main([data_path, "--out", path, "--hidden", "32", "--epochs", "4", "--batch", "256", "--lr", "0.01",
                    "--final-lr", "0.001", "--seed", "3", "--c-gradient"])
    log = open(nets[0] + ".log").read()
    fell, how = learned(log)
    check("the input gradient summed in C" in log and fell
          and open(nets[0], "rb").read() == open(nets[1], "rb").read(),
          f"--c-gradient learns ({how}) and gives the same bytes twice")
    try:
        feature_grad.FeatureSum.apply(torch.zeros(768, 16), torch.tensor([3, 768]), torch.tensor([0]))
        refused = False
    except ValueError:
        refused = True
    check(refused, "a feature beyond the input weights' rows is refused")


def test_datagen_train_export_evaluate(tmp_path):
    """The whole pipeline on one small data set, each step on the one before."""
    engine = os.path.abspath(os.environ.get("BACHESS", "./bachess"))
    work = str(tmp_path)
    data_path, net_path = os.path.join(work, "data.bin"), os.path.join(work, "net.nnue")
    subprocess.run([engine, "datagen", "--out", os.path.join(work, "games.vf"), "--records", data_path,
                    "--games", "40", "--nodes", "600", "--seed", "5", "--threads", "2"],
                   check=True, stderr=subprocess.DEVNULL)
    count = os.path.getsize(data_path) // data.RECORD
    check(count >= 2000, f"datagen wrote {count} positions")

    # Several files read as one, without a copy: the same rows as the files joined.
    whole = data.open_records([data_path])[0]
    first, second = os.path.join(work, "first.bin"), os.path.join(work, "second.bin")
    cut = count // 3
    with open(first, "wb") as f:
        f.write(whole[:cut].tobytes())
    with open(second, "wb") as f:
        f.write(whole[cut:].tobytes())
    ask = np.random.default_rng(7).integers(0, count, 500)
    joined = data.RecordFiles([first, second])
    check(len(joined) == count and np.array_equal(joined.take(ask), whole[ask])
          and len(data.RecordFiles([first, second], limit=cut + 5)) == cut + 5,
          f"two files read as one give the rows of the whole file ({len(ask)} random rows, both sides of the cut)")

    train.main([data_path, "--out", net_path, "--hidden", "32", "--epochs", "6", "--batch", "256",
                "--lr", "0.01", "--seed", "3"])
    log = open(net_path + ".log").read()
    held, trained = losses(log)
    fell, how = learned(log)
    check(len(held) == 7 and len(trained) == 6 and fell,
          f"a held-out loss for epochs 0-6, and the training loss falls: {how} (held out {held[0]:.5f} -> {held[-1]:.5f})")

    blas = re.search(r"^blas: (.*)$", log, re.M)
    check(blas is not None and "openblas" in blas.group(1).lower(),
          f"the trainer runs on OpenBLAS (libopenblas0): {blas.group(1) if blas else 'no blas line'}")

    # Export and reload agree.
    net = model.PerspectiveNet(32)
    net.load_state_dict(torch.load(net_path + ".pt"))
    q, back = model.quantise(net), model.read_net(net_path)
    shift = float(re.search(r"output bias corrected by ([-+0-9.]+) cp", log).group(1))
    expected_b2 = q["b2"][0] + round(shift / model.SCALE * model.QA * model.QB)
    same = (all(np.array_equal(q[k], back[k]) for k in ("w1", "b1", "w2")) and len(back["b2"]) == 1
            and abs(back["b2"][0] - expected_b2) <= 1)
    check(same, f"the network file reads back to the exported integer weights (output bias moved by {shift:+.2f} cp, "
          f"the rounding's mean error)")

    # The integer arithmetic against float arithmetic on the same weights, and
    # the engine against Python, on recorded positions. What rounding the
    # weights costs is shown, and judged by the warm start's loss below.
    records = data.open_records([data_path])[0]
    pick = np.linspace(0, count - 1, 60).astype(int)
    pieces, stm, _, _ = data.decode(np.asarray(records[pick]))
    arithmetic, rounding, mismatches = [], [], []
    for i in range(len(pick)):
        fen = data.pieces_to_fen(pieces[i], stm[i])
        quantised, floating = evaluate.evaluations(net_path, fen)
        arithmetic.append(abs(quantised - evaluate.file_weights_eval(back, fen)))
        rounding.append(abs(quantised - floating))
        out = subprocess.run([engine, "eval", "--net", net_path] + fen.split(), capture_output=True, text=True).stdout
        m = re.search(r"^NNUE: (-?\d+) cp", out, re.M)
        if not m or int(m.group(1)) != quantised:
            mismatches.append((fen, m.group(1) if m else None, quantised))
    check(max(arithmetic) < INTEGER_TOLERANCE_CP,
          f"integer evaluation vs the float network of the file's weights: worst {max(arithmetic):.3f} cp "
          f"(bound {INTEGER_TOLERANCE_CP:.3f}) over {len(pick)} positions; against the trained float network "
          f"mean {np.mean(rounding):.2f} cp, worst {max(rounding):.2f} cp (the weights' rounding)")
    check(not mismatches, f"engine equals Python's integer evaluation on {len(pick)} positions"
          + (f"; first mismatch {mismatches[0]}" if mismatches else ""))

    # Without --net, `bachess eval` uses the network built into the binary.
    built_in = os.path.join(HERE, "..", "nets", "default.nnue")
    wrong = []
    for i in range(10):
        fen = data.pieces_to_fen(pieces[i], stm[i])
        out = subprocess.run([engine, "eval"] + fen.split(), capture_output=True, text=True).stdout
        m = re.search(r"^NNUE: (-?\d+) cp \(side to move; built-in network", out, re.M)
        if not m or int(m.group(1)) != evaluate.evaluations(built_in, fen)[0]:
            wrong.append(fen)
    check(not wrong, "`bachess eval` without --net gives the built-in network's value (nets/default.nnue)"
          + (f"; first mismatch {wrong[0]}" if wrong else ""))

    # A warm start: the same weights back with no training, the trained loss to begin with.
    copy_path, more_path = os.path.join(work, "copy.nnue"), os.path.join(work, "more.nnue")
    train.main([data_path, "--out", copy_path, "--hidden", "32", "--epochs", "0", "--seed", "3", "--init", net_path])
    check(open(copy_path, "rb").read() == open(net_path, "rb").read(),
          "--init with no epoch writes the network it started from, byte for byte")
    train.main([data_path, "--out", more_path, "--hidden", "32", "--epochs", "1", "--batch", "256",
                "--lr", "0.001", "--seed", "3", "--init", net_path])
    start_loss = float(re.search(r"epoch 0: held-out loss ([0-9.]+)", open(more_path + ".log").read()).group(1))
    check(abs(start_loss - held[-1]) <= WARM_START_TOLERANCE * held[-1],
          f"--init starts from the trained loss: {start_loss:.5f} (trained {held[-1]:.5f}, random {held[0]:.5f})")

    # Held out in runs: 1,000,000 records make 245 runs of 4096 (the last one short), 4 held out whole.
    held_idx, train_idx = train.hold_out_games(1_000_000, np.random.default_rng(7))
    runs = np.unique(held_idx // 4096)
    whole_runs = sum(min(4096, 1_000_000 - r * 4096) for r in runs)
    together = np.sort(np.concatenate([held_idx, train_idx]))
    check(np.array_equal(together, np.arange(1_000_000)) and len(runs) == 4 and len(held_idx) == whole_runs,
          f"held out: {len(held_idx)} of 1,000,000 records, whole runs {list(runs)} of 4096; the rest for training")

    # --mirror: the mirrored boards are those of the mirrored FENs; unmasked boards stay.
    mask = np.arange(len(pieces)) % 2 == 0
    flipped = data.mirror_files(pieces, mask)
    wrong = [i for i in range(len(pieces))
             if not np.array_equal(flipped[i], data.fen_to_pieces(mirrored_fen(data.pieces_to_fen(pieces[i], stm[i])))[0]
                                   if mask[i] else pieces[i])]
    check(not wrong and not np.array_equal(flipped, pieces),
          f"--mirror flips exactly the chosen {mask.sum()} of {len(pieces)} boards left to right"
          + (f"; first wrong board {data.pieces_to_fen(pieces[wrong[0]], stm[wrong[0]])}" if wrong else ""))
    mirror_path = os.path.join(work, "mirror.nnue")
    train.main([data_path, "--out", mirror_path, "--hidden", "32", "--epochs", "6", "--batch", "256",
                "--lr", "0.01", "--seed", "3", "--mirror"])
    log = open(mirror_path + ".log").read()
    fell, how = learned(log)
    check("mirrored left to right" in log and fell, f"training with --mirror learns: {how}")

    # Output buckets: a version-2 file that learns, that the engine evaluates as
    # Python does, and that a one-bucket net fills exactly.
    buckets_path, widened_path = os.path.join(work, "buckets.nnue"), os.path.join(work, "widened.nnue")
    train.main([data_path, "--out", buckets_path, "--hidden", "32", "--epochs", "6", "--batch", "256",
                "--lr", "0.01", "--seed", "3", "--output-buckets", "4"])
    log = open(buckets_path + ".log").read()
    fell, how = learned(log)
    version = int.from_bytes(open(buckets_path, "rb").read()[8:12], "little")
    check("4 output buckets" in log and version == 2 and len(model.read_net(buckets_path)["b2"]) == 4
          and fell, f"--output-buckets 4: a version-{version} file; {how}")
    train.main([data_path, "--out", widened_path, "--hidden", "32", "--epochs", "0", "--seed", "3",
                "--output-buckets", "4", "--init", net_path])
    used, mismatches, widened_wrong = set(), [], []
    for i in range(len(pick)):
        fen = data.pieces_to_fen(pieces[i], stm[i])
        used.add(int(model.output_bucket((pieces[i] >= 0).sum(), 4)))
        for path, want in ((buckets_path, evaluate.evaluations(buckets_path, fen)[0]),
                           (widened_path, evaluate.evaluations(net_path, fen)[0])):
            out = subprocess.run([engine, "eval", "--net", path] + fen.split(), capture_output=True, text=True).stdout
            m = re.search(r"^NNUE: (-?\d+) cp", out, re.M)
            if not m or int(m.group(1)) != want:
                (mismatches if path == buckets_path else widened_wrong).append((fen, m.group(1) if m else None, want))
    check(not mismatches and len(used) >= 3,
          f"engine equals Python's integer evaluation of the 4-bucket net on {len(pick)} positions in buckets "
          f"{sorted(used)}" + (f"; first mismatch {mismatches[0]}" if mismatches else ""))
    check(not widened_wrong, "--init of a one-bucket net into 4 buckets, no epoch: the engine evaluates every "
          "position as with the one-bucket net" + (f"; first mismatch {widened_wrong[0]}" if widened_wrong else ""))
    check_king_mirroring(engine, data_path, net_path, pieces, stm, work)
    check_king_buckets(engine, data_path, net_path, pieces, stm, work)
    check_learning_rate(data_path, work)
    check_c_gradient(data_path, work)
