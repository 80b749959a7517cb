#!/usr/bin/python3
"""trainer_test.py — the NNUE trainer in C (bachess-train, trainer/) against
the PyTorch model it replaces (scripts/nnue/model.py), on a tiny data set
that `bachess datagen` makes:

  1. on one batch from the same weights, its outputs, mean loss and every
     weight's gradient are torch's, within float32 rounding (bounds below),
     with SCReLU, with CReLU, with 8 output buckets, and with 4 king buckets
     (home4) and 8 output buckets, with and without a factoriser;
  2. with no epoch and no bias correction it writes the file model.py's
     quantise() and write_net() make of the same weights, byte for byte,
     with one output bucket (version 1), with 8 (version 2), and with king
     buckets (version 4, the layout's map in it; each preset's map is
     king_buckets.py's; a factoriser's shared block added into each
     bucket's); a net trained with a factoriser scores the held-out records
     from its file as it did in float; with bias
     correction and 8 buckets, each bucket's output bias is
     model.correct_output_bias()'s over the records the trainer holds out;
  3. it learns (the training loss falls to less than half), and its log
     has the held-out loss of every epoch and the positions a second;
  4. the engine evaluates the nets it wrote (one output bucket, 8 trained
     with a schedule of lambda, 4 king buckets, 4 with a factoriser)
     exactly as Python's
     integer code does, within the bound of nnue_train_test.py of the
     trainer's own float evaluation of the file's weights (--evaluate);
  5. the same arguments give the same bytes with one thread and with two,
     and another seed other bytes; --init with no epoch writes its net back,
     and from a one-bucket net into 8 output buckets, or into 4 king buckets,
     writes model.load_quantised()'s;
  6. --final-lambda: the mean loss of a batch at an epoch (--check-epoch) is
     the one computed here by hand from the records and the outputs with
     that epoch's lambda, the log prints every epoch's lambda, and a
     --final-lambda equal to --lambda gives the bytes of no schedule;
  7. bad input (a missing or truncated records file, a record no datagen
     writes, a net it cannot start from, bad arguments, a king bucket layout
     that is not one) is refused with a
     message and a nonzero exit status, and no net is written.

    BACHESS=./bachess BACHESS_TRAIN=./bachess-train /usr/bin/python3 -m pytest tests/trainer_test.py
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

from checklist import check

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "nnue"))
sys.path.insert(0, HERE)
import data  # noqa: E402
import king_buckets  # noqa: E402
import model  # noqa: E402
import train  # noqa: E402
from nnue_train_test import INTEGER_TOLERANCE_CP, engine_eval, learned  # noqa: E402

# Float32 sums in another order than torch's: on 512 positions of a 32-wide
# net the outputs agreed within 6e-8 (units of SCALE cp), the mean loss
# within 1.3e-7 relative, each gradient within 4e-7 of its array's largest;
# the bounds leave a factor of eight or more.
OUTPUT_TOLERANCE = 1e-6      # units of SCALE centipawns (0.0004 cp)
GRADIENT_TOLERANCE = 1e-5    # of the largest gradient of the same array
LOSS_TOLERANCE = 1e-6        # relative
HIDDEN, BATCH = 32, 512


def run(trainer, args):
    return subprocess.run([trainer] + args, capture_output=True, text=True)


def read_dump(dump_path):
    """(hidden, buckets, king buckets, weights, outputs, loss, gradients) of a --gradient-check file."""
    raw = open(dump_path, "rb").read()
    hidden, count, buckets, kings = (int(v) for v in np.frombuffer(raw[:16], "<i4"))
    size = kings * model.INPUTS * hidden + hidden + 2 * hidden * buckets + buckets
    values = np.frombuffer(raw[16:], "<f4")
    weights, outputs = values[:size], values[size:size + count]
    return hidden, buckets, kings, weights, outputs, float(values[size + count]), values[size + count + 1:]


def torch_net(dump_path, screlu):
    """(torch net holding the C trainer's weights, its outputs, loss, gradients, buckets) of a --gradient-check file."""
    hidden, buckets, kings, weights, outputs, loss, grads = read_dump(dump_path)
    net = model.PerspectiveNet(hidden, screlu=screlu, buckets=buckets, king_buckets=kings)
    w1, b1, w2, b2 = (torch.from_numpy(a.copy()) for a in split(weights, hidden, buckets, kings))
    with torch.no_grad():
        net.ft.weight.copy_(w1.reshape(-1, hidden))
        net.ft_bias.copy_(b1)
        net.out.weight.copy_(w2.reshape(buckets, -1))
        net.out.bias.copy_(b2)
    return net, outputs, loss, grads, len(outputs), buckets


def split(vector, hidden, buckets=1, kings=1):
    """A flat weights-shaped array as (input weights, input bias, output weights, output bias)."""
    n, out = kings * model.INPUTS * hidden, 2 * hidden * buckets
    return vector[:n], vector[n:n + hidden], vector[n + hidden:n + hidden + out], vector[n + hidden + out:]


def king_args(layout, factoriser=False):
    return (["--king-buckets", layout] if layout else []) + (["--factoriser"] if factoriser else [])


def king_map_of(layout):
    return king_buckets.parse(layout) if layout else None


def check_gradient(trainer, data_path, work, crelu, buckets=1, kings=None, factoriser=False):
    dump = os.path.join(work, "gradient.bin")
    args = [data_path, "--gradient-check", dump, "--hidden", str(HIDDEN), "--batch", str(BATCH), "--seed", "3",
            "--lambda", "0.25", "--k", "175", "--output-buckets", str(buckets)] + (["--crelu"] if crelu else [])
    r = run(trainer, args + king_args(kings, factoriser))
    name = (("CReLU" if crelu else "SCReLU") + (f", {buckets} output buckets" if buckets > 1 else "")
            + (f", king buckets {kings}" if kings else "") + (" with a factoriser" if factoriser else ""))
    check(r.returncode == 0, f"--gradient-check ({name}) runs", detail=r.stderr)
    net, outputs, loss, grads, count, dumped_buckets = torch_net(dump, screlu=not crelu)
    batch = train.batch_tensors(data.RecordFiles([data_path]).take(np.arange(count)), buckets=buckets,
                                king_map=king_map_of(kings), factoriser=factoriser)
    used = np.unique(batch[6].numpy())
    check(dumped_buckets == buckets and (buckets == 1 or len(used) >= 3),
          f"{name}: the batch's positions fall in output buckets {used.tolist()}")
    if kings:
        blocks = np.unique(np.concatenate([batch[0].numpy(), batch[2].numpy()]) // model.INPUTS)
        check(net.king_buckets == king_buckets.count(king_map_of(kings)) + factoriser and len(blocks) >= 3 + factoriser,
              f"{name}: the batch's perspectives read king buckets {blocks.tolist()}")
    torch_out = net(*batch[:4], batch[6]).detach().numpy()
    torch_loss = train.loss_of(net, batch, 175.0, 0.25)
    torch_loss.backward()
    torch_grads = [net.ft.weight.grad.numpy().ravel(), net.ft_bias.grad.numpy(), net.out.weight.grad.numpy().ravel(),
                   net.out.bias.grad.numpy()]
    out_err = float(np.abs(outputs - torch_out).max())
    loss_err = abs(loss - torch_loss.item()) / torch_loss.item()
    grad_errs = [float(np.abs(c - t).max() / max(np.abs(t).max(), 1e-30))
                 for c, t in zip(split(grads, HIDDEN, buckets, net.king_buckets), torch_grads)]
    check(out_err <= OUTPUT_TOLERANCE and loss_err <= LOSS_TOLERANCE,
          f"{name}, {count} positions: outputs within {out_err:.2e} of torch's (bound {OUTPUT_TOLERANCE}), "
          f"mean loss {loss:.6f} within {loss_err:.1e} relative (bound {LOSS_TOLERANCE})")
    check(max(grad_errs) <= GRADIENT_TOLERANCE and min(np.abs(t).max() for t in torch_grads) > 0,
          f"{name}: gradients within {', '.join(f'{e:.1e}' for e in grad_errs)} of the largest (input weights, input "
          f"bias, output weights, output bias; bound {GRADIENT_TOLERANCE})")
    return net


def folded(net, buckets, kings):
    """A factoriser's net as its file holds it: each king bucket's input
    weights with the shared block's (the last) added."""
    count = king_buckets.count(king_map_of(kings))
    plain = model.PerspectiveNet(HIDDEN, buckets=buckets, king_buckets=count)
    with torch.no_grad():
        w1 = net.ft.weight.reshape(count + 1, model.INPUTS, HIDDEN)
        plain.ft.weight.copy_((w1[:count] + w1[count:]).reshape(-1, HIDDEN))
        plain.ft_bias.copy_(net.ft_bias)
        plain.out.weight.copy_(net.out.weight)
        plain.out.bias.copy_(net.out.bias)
    return plain


def check_quantisation(trainer, data_path, net, work, buckets=1, kings=None, factoriser=False):
    """No epoch, no bias correction: the file of the starting weights is model.py's."""
    c_path, py_path = os.path.join(work, "start.nnue"), os.path.join(work, "start-py.nnue")
    r = run(trainer, [data_path, "--out", c_path, "--hidden", str(HIDDEN), "--epochs", "0", "--seed", "3",
                      "--no-bias-correction", "--output-buckets", str(buckets)] + king_args(kings, factoriser))
    model.write_net(py_path, model.quantise(folded(net, buckets, kings) if factoriser else net,
                                            king_map=king_map_of(kings)))
    c_bytes = open(c_path, "rb").read() if r.returncode == 0 else b""
    same = (c_bytes == open(py_path, "rb").read() and model.read_net(c_path)["w2"].shape[0] == buckets
            and model.read_net(c_path)["king_map"] == king_map_of(kings))
    check(same, f"the C trainer's file of its starting weights ({buckets} output bucket(s), "
          f"king buckets {kings or 'none'}{' folded from a factoriser' if factoriser else ''}, version "
          f"{c_bytes[8] if c_bytes else '?'}) is model.py's quantise() and write_net(), byte for byte",
          detail=r.stderr)


def check_presets(trainer, data_path, work):
    """Each preset of --king-buckets writes king_buckets.py's map of that name."""
    wrong = []
    for name, layout in king_buckets.PRESETS.items():
        path = os.path.join(work, f"{name}.nnue")
        r = run(trainer, [data_path, "--out", path, "--hidden", str(HIDDEN), "--epochs", "0", "--king-buckets", name])
        written = model.read_net(path)["king_map"] if r.returncode == 0 else r.stderr.strip()
        if written != layout:
            wrong.append((name, written))
    check(not wrong, f"--king-buckets {', '.join(king_buckets.PRESETS)}: each file holds king_buckets.py's map"
          + (f"; wrong {wrong[0]}" if wrong else ""))


def check_engine(engine, trainer, data_path, net_path):
    q = model.read_net(net_path)
    king_map = q["king_map"]
    records = data.open_records([data_path])[0]
    pick = np.linspace(0, len(records) - 1, 60).astype(int)
    pieces, stm, _, _ = data.decode(np.asarray(records[pick]))
    r = run(trainer, [data_path, "--evaluate", net_path])
    floats = {int(i): float(v) for i, v in re.findall(r"^(\d+) (-?[0-9.]+)$", r.stdout, re.M)}
    mismatches, gaps, blocks = [], [], set()
    for i, index in enumerate(pick):
        fen = data.pieces_to_fen(pieces[i], stm[i])
        us, _ = data.features(pieces[i][None, :], np.array([stm[i]]), king_map=king_map)
        them, _ = data.features(pieces[i][None, :], np.array([1 - stm[i]]), king_map=king_map)
        blocks |= set((np.concatenate([us, them]) // model.INPUTS).tolist())
        python = model.quantised_eval(q, us, them)
        engine_value = engine_eval(engine, net_path, fen)
        if engine_value != python:
            mismatches.append((fen, engine_value, python))
        gaps.append(abs(python - floats.get(int(index), float("inf"))))
    check(not mismatches and len(blocks) >= min(3, model.king_bucket_count(q)),
          f"the engine evaluates the C trainer's net ({model.king_bucket_count(q)} king bucket(s), "
          f"{len(blocks)} read) as Python's integer code on {len(pick)} positions"
          + (f"; first mismatch {mismatches[0]}" if mismatches else ""))
    check(len(floats) == len(records) and max(gaps) < INTEGER_TOLERANCE_CP,
          f"integer evaluation vs the trainer's float evaluation of the file's weights: worst {max(gaps):.3f} cp "
          f"(bound {INTEGER_TOLERANCE_CP:.3f}) over {len(pick)} positions")


def check_init_buckets(trainer, data_path, net_path, work, buckets=8, kings=None):
    """--init from a one-bucket net into 8 output buckets, or into king
    buckets, no epoch: every bucket the old output neuron, or every king
    bucket's block the old input weights; the file model.load_quantised()
    and quantise() make."""
    c_path, py_path = os.path.join(work, "widened.nnue"), os.path.join(work, "widened-py.nnue")
    r = run(trainer, [data_path, "--out", c_path, "--hidden", str(HIDDEN), "--epochs", "0", "--init", net_path,
                      "--output-buckets", str(buckets)] + king_args(kings))
    king_map = king_map_of(kings)
    wide = model.PerspectiveNet(HIDDEN, buckets=buckets, king_buckets=king_buckets.count(king_map))
    model.load_quantised(wide, model.read_net(net_path))
    model.write_net(py_path, model.quantise(wide, king_map=king_map))
    same = r.returncode == 0 and open(c_path, "rb").read() == open(py_path, "rb").read()
    check(same, f"--init from a one-bucket net into --output-buckets {buckets}, king buckets {kings or 'none'}, with "
          "no epoch writes model.load_quantised()'s net, byte for byte", detail=r.stderr)


def splitmix64(state):
    """(new state, value): src/splitmix.h."""
    state = (state + 0x9E3779B97F4A7C15) % 2**64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return state, z ^ (z >> 31)


def c_held_out(count, seed):
    """The records the C trainer holds out (trainer.c's hold_out(), written
    again here): runs of count / 200 records (1 to 4096), one in fifty of
    them (at least one) drawn by a partial shuffle of splitmix64 numbers."""
    run = max(1, min(4096, count // 200))
    runs = -(-count // run)
    order, state = list(range(runs)), seed
    for r in range(max(1, runs // 50)):
        state, value = splitmix64(state)
        pick = r + (value * (runs - r) >> 64)
        order[r], order[pick] = order[pick], order[r]
    held = set(order[:max(1, runs // 50)])
    return np.array([i for i in range(count) if i // run in held])


def check_bias_correction(trainer, data_path, net8, work):
    """No epoch, bias corrected, 8 buckets: the random start's file is
    model.correct_output_bias()'s over the same held-out records, each
    bucket's bias by its own positions (a bucket without one unchanged).
    C sums the outputs in another order than torch, so a bias whose
    unrounded value lies within 0.02 of a half may round the other way."""
    c_path = os.path.join(work, "corrected.nnue")
    r = run(trainer, [data_path, "--out", c_path, "--hidden", str(HIDDEN), "--epochs", "0", "--seed", "3",
                      "--output-buckets", "8"])
    records = data.RecordFiles([data_path])
    held = c_held_out(len(records), 3)
    valid = train.batch_tensors(records.take(held), buckets=8)
    q = model.quantise(net8)
    plain = list(q["b2"])
    rounded = model.PerspectiveNet(HIDDEN, buckets=8)
    model.load_quantised(rounded, q)
    with torch.no_grad():
        error = (net8(*valid[:4], valid[6]) - rounded(*valid[:4], valid[6])).numpy()
    model.correct_output_bias(net8, q, valid)
    c = model.read_net(c_path) if r.returncode == 0 else None
    used = sorted(set(valid[6].numpy().tolist()))
    wrong = []
    for k in range(8):
        unrounded = float(error[valid[6].numpy() == k].mean()) * model.QA * model.QB if k in used else 0.0
        near_half = abs(abs(unrounded - np.floor(unrounded)) - 0.5) < 0.02
        if c is None or not (c["b2"][k] == q["b2"][k] or (near_half and abs(c["b2"][k] - q["b2"][k]) == 1)):
            wrong.append((k, c["b2"][k] if c else None, q["b2"][k]))
    same_rest = c is not None and all(np.array_equal(c[a], q[a]) for a in ("w1", "b1", "w2"))
    moved = [k for k in range(8) if q["b2"][k] != plain[k]]
    check(same_rest and not wrong and len(used) >= 2 and set(moved) <= set(used),
          f"8 buckets, bias corrected over {len(held)} held-out positions in buckets {used}: each bucket's bias is "
          f"model.correct_output_bias()'s (moved: buckets {moved})" + (f"; wrong {wrong}" if wrong else ""),
          detail=r.stderr)


def check_trained_factoriser(trainer, data_path, net_path, log):
    """A net trained with a factoriser: the file's own weights (each bucket
    with the shared block added), evaluated in float by --evaluate, score the
    held-out records as the trained float net did at its last epoch, within
    a tenth of the loss. Rounding the weights moves it by 0.6 % to 1.4 % on
    these 68 records (measured on this data with the plain, the king bucket
    and the factorised net); a file written without the shared block scored
    0.112 against 0.041."""
    last = re.findall(r"^epoch \d+: training loss [0-9.]+, held-out loss ([0-9.]+)", log, re.M)
    r = run(trainer, [data_path, "--evaluate", net_path])
    outputs = np.array([float(v) for v in re.findall(r"^\d+ (-?[0-9.]+)$", r.stdout, re.M)])
    records = np.asarray(data.open_records([data_path])[0])
    held = c_held_out(len(records), 3)
    _, stm, score, result = data.decode(records[held])
    score_stm = np.where(stm == 0, score, -score).astype(np.float64)
    result_stm = np.where(stm == 0, result, 1.0 - result).astype(np.float64)
    target = 0.25 * result_stm + 0.75 / (1 + np.exp(-score_stm / 175))
    loss = float(np.mean((1 / (1 + np.exp(-outputs[held] / 175)) - target) ** 2)) if len(outputs) == len(records) else 1
    trained = float(last[-1]) if last else 0
    check(trained > 0 and abs(loss - trained) < 0.1 * trained,
          f"with a factoriser the file scores the {len(held)} held-out records at {loss:.6f}, the trained net at "
          f"{trained:.6f}", detail=r.stderr)


def epoch_lambda(first, last, epochs, epoch):
    """The lambda of an epoch (1-based) by hand: a straight line from first to last."""
    return first + (last - first) * (epoch - 1) / (epochs - 1)


def check_lambda_schedule(trainer, data_path, work):
    """--final-lambda: the loss of a batch at the lambda of epoch 3 of 5, from
    0.25 to 0.75 (0.5), is the one computed here by hand from the records'
    scores and results and the trainer's outputs; so is epoch 1's (0.25)."""
    dump = os.path.join(work, "lambda.bin")
    records = np.asarray(data.open_records([data_path])[0][:BATCH])
    _, stm, score, result = data.decode(records)
    score_stm = np.where(stm == 0, score, -score).astype(np.float64)
    result_stm = np.where(stm == 0, result, 1.0 - result).astype(np.float64)
    errors, losses = [], {}
    for epoch in (1, 3, 5):
        r = run(trainer, [data_path, "--gradient-check", dump, "--hidden", str(HIDDEN), "--batch", str(BATCH),
                          "--seed", "3", "--k", "175", "--epochs", "5", "--lambda", "0.25", "--final-lambda", "0.75",
                          "--check-epoch", str(epoch)])
        if r.returncode != 0:
            errors.append(r.stderr.strip())
            continue
        _, _, _, _, outputs, loss, _ = read_dump(dump)
        lam = epoch_lambda(0.25, 0.75, 5, epoch)
        target = lam * result_stm + (1 - lam) / (1 + np.exp(-score_stm / 175))
        predicted = 1 / (1 + np.exp(-outputs.astype(np.float64) * model.SCALE / 175))
        by_hand = float(np.mean((predicted - target) ** 2))
        losses[epoch] = (loss, by_hand)
        if abs(loss - by_hand) > LOSS_TOLERANCE * by_hand:
            errors.append(f"epoch {epoch}: trainer {loss:.7f}, by hand {by_hand:.7f}")
    distinct = len(losses) == 3 and len({round(v[1], 9) for v in losses.values()}) == 3
    check(not errors and distinct, "--lambda 0.25 --final-lambda 0.75 over 5 epochs: the batch's loss at epochs 1, 3 "
          "and 5 (lambda 0.25, 0.5, 0.75) is the hand computation's: "
          + ", ".join(f"{c:.6f}/{h:.6f}" for c, h in losses.values()), detail="; ".join(errors))


def check_refusals(trainer, data_path, net_path, net8_path, kings_path, work):
    truncated, bad_record, out = (os.path.join(work, n) for n in ("truncated.bin", "bad.bin", "refused.nnue"))
    raw = open(data_path, "rb").read()
    with open(truncated, "wb") as f:
        f.write(raw[:32 * 100 + 7])
    broken = bytearray(raw[:32 * 100])
    broken[32 * 50 + 8] |= 0x0F  # the first piece of record 50: code 15
    with open(bad_record, "wb") as f:
        f.write(bytes(broken))
    cases = [
        ([os.path.join(work, "missing.bin"), "--out", out], 1, "No such file"),
        ([truncated, "--out", out], 1, "not whole 32-byte records"),
        ([bad_record, "--out", out], 1, "record 50: a piece code"),
        ([data_path, "--out", out, "--hidden", "30"], 2, "multiple of 16"),
        ([data_path, "--out", out, "--threads", "0"], 2, "--threads 0"),
        ([data_path, "--out", out, "--lr", "fast"], 2, "--lr fast"),
        ([data_path, "--out", out, "--king-buckets", "home5"], 2, "--king-buckets home5: wants home4, home8 or 64"),
        ([data_path, "--out", out, "--king-buckets", ",".join(["0"] * 63)], 2, "--king-buckets 0,0"),
        ([data_path, "--out", out, "--king-buckets", ",".join(["0"] * 63 + ["2"])], 2,
         "a bucket below 3 is on no square"),
        ([data_path, "--out", out, "--king-buckets", ",".join(["0"] * 63 + ["32"])], 2, "from 0 to 31"),
        ([data_path, "--out", out, "--king-mirroring"], 2, "unknown option --king-mirroring"),
        ([data_path, "--out", out, "--factoriser"], 2, "--factoriser is for a net with --king-buckets"),
        ([data_path, "--out", out, "--epochs"], 2, "--epochs (missing)"),
        ([data_path], 2, "--out NET.nnue is required"),
        ([data_path, "--out", out, "--hidden", "64", "--init", net_path], 1, "width or activation differs"),
        ([data_path, "--out", out, "--init", truncated], 1, "not a network this trainer reads"),
        ([data_path, "--out", out, "--output-buckets", "0"], 2, "--output-buckets 0: wants an integer from 1 to 16"),
        ([data_path, "--out", out, "--output-buckets", "17"], 2, "--output-buckets 17"),
        ([data_path, "--out", out, "--final-lambda", "1.5"], 2, "--final-lambda 1.5: wants a number from 0 up to 1"),
        ([data_path, "--out", out, "--final-lambda", "-0.1"], 2, "--final-lambda -0.1"),
        ([data_path, "--out", out, "--final-lambda", "half"], 2, "--final-lambda half"),
        ([data_path, "--out", out, "--check-epoch", "2"], 2, "--check-epoch is for --gradient-check only"),
        ([data_path, "--gradient-check", out, "--epochs", "4", "--check-epoch", "5"], 2,
         "--check-epoch 5: after the last of --epochs 4"),
        ([data_path, "--out", out, "--hidden", str(HIDDEN), "--init", net8_path], 1,
         "8 output buckets, not 1 or --output-buckets"),
        ([data_path, "--out", out, "--hidden", str(HIDDEN), "--init", net8_path, "--output-buckets", "4"], 1,
         "8 output buckets, not 1 or --output-buckets"),
        ([data_path, "--out", out, "--hidden", str(HIDDEN), "--init", kings_path, "--king-buckets", "home8"], 1,
         "4 king buckets, not 1 or the layout of --king-buckets"),
        ([data_path, "--out", out, "--hidden", str(HIDDEN), "--init", kings_path], 1,
         "4 king buckets, not 1 or the layout of --king-buckets"),
    ]
    wrong = []
    for args, status, message in cases:
        r = run(trainer, args)
        if r.returncode != status or message not in r.stderr or os.path.exists(out):
            wrong.append((args[1:], r.returncode, r.stderr.strip()[:160]))
    check(not wrong, f"{len(cases)} kinds of bad input refused with a message and status 1 or 2, no net written"
          + (f"; first wrong {wrong[0]}" if wrong else ""))


def test_trainer():
    engine = os.environ.get("BACHESS", "./bachess")
    trainer = os.environ.get("BACHESS_TRAIN", "./bachess-train")
    work = tempfile.mkdtemp(prefix="bachess-trainer-")
    data_path = os.path.join(work, "data.bin")
    subprocess.run([engine, "datagen", "--out", os.path.join(work, "games.vf"), "--records", data_path,
                    "--games", "40", "--nodes", "600", "--seed", "5", "--threads", "2"],
                   check=True, stderr=subprocess.DEVNULL)
    count = os.path.getsize(data_path) // data.RECORD
    check(count >= 2000, f"datagen wrote {count} positions")

    net = check_gradient(trainer, data_path, work, crelu=False)
    check_gradient(trainer, data_path, work, crelu=True)
    check_quantisation(trainer, data_path, net, work)
    net8 = check_gradient(trainer, data_path, work, crelu=False, buckets=8)
    check_quantisation(trainer, data_path, net8, work, buckets=8)
    check_bias_correction(trainer, data_path, net8, work)
    net_kings = check_gradient(trainer, data_path, work, crelu=False, buckets=8, kings="home4")
    check_quantisation(trainer, data_path, net_kings, work, buckets=8, kings="home4")
    check_presets(trainer, data_path, work)
    net_factorised = check_gradient(trainer, data_path, work, crelu=False, buckets=8, kings="home4", factoriser=True)
    check_quantisation(trainer, data_path, net_factorised, work, buckets=8, kings="home4", factoriser=True)
    check_lambda_schedule(trainer, data_path, work)

    net_path = os.path.join(work, "net.nnue")

    def train_args(seed):
        return [data_path, "--hidden", str(HIDDEN), "--epochs", "6", "--batch", "256", "--lr", "0.01",
                "--seed", str(seed), "--mirror", "--lambda", "0.25", "--k", "175"]

    r = run(trainer, train_args(3) + ["--out", net_path, "--threads", "2"])
    log = open(net_path + ".log").read() if r.returncode == 0 else r.stderr
    fell, how = learned(log)
    epochs = re.findall(r"^epoch (\d+): training loss [0-9.]+, held-out loss [0-9.]+, \d+ positions/s", log, re.M)
    check(fell and epochs == [str(e) for e in range(1, 7)] and "held-out loss" in log.split("\n")[3],
          f"the C trainer learns: {how}; every epoch's log line has its held-out loss and positions a second")

    check_engine(engine, trainer, data_path, net_path)

    again, other, back = (os.path.join(work, n) for n in ("again.nnue", "other.nnue", "back.nnue"))
    run(trainer, train_args(3) + ["--out", again, "--threads", "1"])
    run(trainer, train_args(4) + ["--out", other, "--threads", "2"])
    same = open(again, "rb").read() == open(net_path, "rb").read()
    differs = os.path.exists(other) and open(other, "rb").read() != open(net_path, "rb").read()
    check(same and differs, "the same arguments give the same bytes with 1 and 2 threads; seed 4 other bytes")
    r = run(trainer, [data_path, "--out", back, "--hidden", str(HIDDEN), "--epochs", "0", "--init", net_path])
    check(r.returncode == 0 and open(back, "rb").read() == open(net_path, "rb").read(),
          "--init with no epoch writes the net it started from, byte for byte", detail=r.stderr)

    check_init_buckets(trainer, data_path, net_path, work)
    check_init_buckets(trainer, data_path, net_path, work, buckets=1, kings="home4")

    # 8 output buckets, lambda from 0.25 to 0.5 over the 6 epochs
    net8_path, flat = os.path.join(work, "net8.nnue"), os.path.join(work, "flat.nnue")
    r = run(trainer, train_args(3) + ["--out", net8_path, "--threads", "2", "--output-buckets", "8",
                                      "--final-lambda", "0.5"])
    log = open(net8_path + ".log").read() if r.returncode == 0 else r.stderr
    fell, how = learned(log)
    printed = [float(v) for v in re.findall(r"^epoch \d+: training loss .*, lambda ([0-9.]+)$", log, re.M)]
    wanted = [epoch_lambda(0.25, 0.5, 6, e) for e in range(1, 7)]
    check(fell and len(printed) == 6 and max(abs(p - w) for p, w in zip(printed, wanted)) < 1e-6
          and "8 output buckets by piece count" in log and "lambda 0.25 moving to 0.5" in log,
          f"8 output buckets, --final-lambda 0.5: it learns ({how}); the log gives every epoch's lambda, "
          f"{', '.join(f'{p:g}' for p in printed)}")
    check_engine(engine, trainer, data_path, net8_path)
    r = run(trainer, train_args(3) + ["--out", flat, "--threads", "2", "--final-lambda", "0.25"])
    log = open(flat + ".log").read() if r.returncode == 0 else r.stderr
    check(r.returncode == 0 and open(flat, "rb").read() == open(net_path, "rb").read()
          and not re.search(r", lambda [0-9.]+$", log, re.M),
          "--final-lambda equal to --lambda gives the bytes of no schedule, and no lambda in the epochs' lines")

    # 4 king buckets: the engine reads the version-4 file as Python does
    kings_path = os.path.join(work, "kings.nnue")
    r = run(trainer, train_args(3) + ["--out", kings_path, "--threads", "2", "--king-buckets", "home4"])
    log = open(kings_path + ".log").read() if r.returncode == 0 else r.stderr
    fell, how = learned(log)
    check(fell and "4 king buckets" in log and "net: 3072 -> 32 x 2" in log and open(kings_path, "rb").read()[8] == 4,
          f"4 king buckets (home4): it learns ({how}), writes a version-4 file, and its log says so")
    check_engine(engine, trainer, data_path, kings_path)
    factorised_path = os.path.join(work, "factorised.nnue")
    r = run(trainer, train_args(3) + ["--out", factorised_path, "--threads", "2", "--king-buckets", "home4",
                                      "--factoriser"])
    log = open(factorised_path + ".log").read() if r.returncode == 0 else r.stderr
    fell, how = learned(log)
    check(fell and "4 king buckets with a factoriser" in log and "net: 3840 -> 32 x 2" in log
          and open(factorised_path, "rb").read()[8] == 4,
          f"4 king buckets with a factoriser: it learns ({how}), keeps 5 blocks and writes a version-4 file of 4")
    check_trained_factoriser(trainer, data_path, factorised_path, log)
    check_engine(engine, trainer, data_path, factorised_path)

    check_refusals(trainer, data_path, net_path, net8_path, kings_path, work)
