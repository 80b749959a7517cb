#!/usr/bin/python3
"""train.py — trains the bachess NNUE network on `bachess datagen` data.

    /usr/bin/python3 scripts/nnue/train.py DATA [MORE ...] --out NET.nnue
        [--hidden 32] [--epochs 10] [--batch 16384] [--lr 0.001] [--lambda 0.5]
        [--k 400] [--positions N] [--seed 1] [--crelu] [--threads N] [--init NET.nnue]
        [--mirror] [--no-bias-correction] [--output-buckets B] [--king-mirroring]
        [--king-buckets LAYOUT] [--final-lr LR] [--c-gradient]

DATA is the self-play store (data/selfplay: every chunk of its manifest, or
with --store-nodes N those searched at N nodes a move), a chunk of it
(.vf.xz), or a file of 32-byte records. The store's games become records
through `bachess records` (--engine, the checkout's binary by default), which
keeps the quiet positions; they are cached (scripts/selfplay/store.py).

Reads the 32-byte records straight from memory-mapped files, in a shuffled
order (a fresh permutation every epoch), and fits a perspective network
768 -> hidden x 2 -> 1 (SCReLU, or CReLU) to a blend of the search score and
the game result: target = lambda * result + (1 - lambda) * sigmoid(score / K),
both from the side to move's point of view, with the prediction
sigmoid(output * 400 / K). Prints the loss per epoch (training and a held-out
2 % of whole games), the positions per second, then quantises (QA 255, QB 64) and writes the
network file of docs/nnue.md (the output bias moved by the mean rounding
error over the held-out positions, unless --no-bias-correction). Everything it printed, with the command line,
goes into NET.nnue.log: the net's provenance.

--mirror mirrors each training position left to right (a-file <-> h-file)
with probability 1/2 each time it is drawn, so that the network sees both
images of a position: the records keep no castling rights, and without them
the mirror image has the same score and result. The held-out set is never
mirrored, so its loss stays comparable with a run without --mirror.

The learning rate is --lr, and 0.3 times it in the last quarter of the
epochs; with --final-lr it falls instead by the same factor every epoch,
from --lr in the first to --final-lr in the last (a geometric decay, which
lets the weights settle at a small step after the large early ones).

--init starts from a network file's weights instead of random ones (its
width and activation must match): a network can go on learning from new
data in a later session, when the data it was trained on is gone.

--output-buckets B (1 to 16, default 1) gives the output layer B neurons, one
for each band of piece counts (the engine's nnue_output_bucket()), written
as a version-2 file. With --init from a one-bucket network every bucket
starts as its output neuron, so the net starts as the one it came from.

--king-mirroring makes a net that mirrors by the king (a version-3 file):
each perspective whose own king stands on the e- to h-files sees the board
mirrored left to right, so that every input weight learns from the
positions of both wings. --init may start it from a net that does not
mirror: its input weights are then read mirrored, so that the new net
evaluates a board with both kings on the e- to h-files (most boards) exactly
as the old one did (model.mirrored_inputs()).

--king-buckets LAYOUT gives the net a set of 768 input weights for each king
bucket (a version-4 file): each perspective reads the set of the bucket its
own king's square falls in, as it sees the board. LAYOUT is a preset (home4,
home8: king_buckets.py) or 64 comma-separated bucket numbers, a1 to h1 first,
then rank 2, up to h8; with --king-mirroring only files a-d are read, and
every bucket must be on one of them. --init may start it from a net without
king buckets: its input weights are copied into every bucket, so that the new
net starts out evaluating exactly as the old one; from a net with king
buckets, the layout must be the same.
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import king_buckets  # noqa: E402
import model  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "selfplay"))
import store  # noqa: E402


def record_files(paths, engine, nodes=0):
    """The records files behind the DATA arguments: a store directory gives
    its manifest's chunks (those of `nodes` nodes a move, unless 0), a chunk
    its records, a records file itself."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            entries = [e for e in store.read_manifest(path) if not nodes or e["nodes"] == nodes]
            files += [store.records_of(os.path.join(path, e["file"]), engine) for e in entries]
        elif path.endswith(".vf.xz"):
            files.append(store.records_of(path, engine))
        else:
            files.append(path)
    return files


def batch_tensors(records, mirror=None, buckets=1, king_mirroring=False, king_map=None, factoriser=False):
    """The network's inputs, the targets' score and result (side to move's
    view), and each board's output bucket."""
    pieces, stm, score, result = data.decode(records)
    if mirror is not None:
        pieces = data.mirror_files(pieces, mirror)
    bucket = model.output_bucket((pieces >= 0).sum(axis=1), buckets).astype(np.int64)
    us_index, us_offsets = data.features(pieces, stm, king_mirroring, king_map, factoriser)
    them_index, them_offsets = data.features(pieces, 1 - stm, king_mirroring, king_map, factoriser)
    sign = np.where(stm == 0, 1.0, -1.0).astype(np.float32)
    score_stm = score * sign
    result_stm = np.where(stm == 0, result, 1.0 - result).astype(np.float32)
    t = torch.from_numpy
    return (t(us_index), t(us_offsets), t(them_index), t(them_offsets), t(score_stm), t(result_stm), t(bucket))


def hold_out_games(count, rng, share=50, run=4096):
    """(held-out indices, training indices): one in `share` runs of `run`
    consecutive records (a few dozen games; fewer records for a tiny data
    set) is held out whole. A game's positions follow one another in a file
    and differ by a move or two, so a held-out set of single positions drawn
    at random would sit between training neighbours of the same game and
    reward a network for remembering games rather than judging positions."""
    run = max(1, min(run, count // (4 * share)))
    runs = -(-count // run)
    held = np.zeros(count, dtype=bool)
    for r in rng.permutation(runs)[: max(1, runs // share)]:
        held[r * run:(r + 1) * run] = True
    return np.nonzero(held)[0], np.nonzero(~held)[0]


def loss_of(net, batch, k, lam):
    us_i, us_o, them_i, them_o, score, result, bucket = batch
    predicted = torch.sigmoid(net(us_i, us_o, them_i, them_o, bucket) * model.SCALE / k)
    target = lam * result + (1.0 - lam) * torch.sigmoid(score / k)
    return torch.mean((predicted - target) ** 2)


def loaded_blas():
    """The BLAS library torch has loaded, read from the process's memory map.

    Debian's torch is built against the generic BLAS interface (BLAS_INFO=generic),
    and which library serves it is the system's choice: libopenblas0 installs
    OpenBLAS as the provider, several times faster than the reference BLAS."""
    torch.ones(8, 8) @ torch.ones(8, 8)  # make sure the library is in use
    try:
        maps = open("/proc/self/maps").read().split("\n")
    except OSError:
        return "unknown (no /proc/self/maps)"
    # The folder matters: OpenBLAS's libblas.so.3 lives in .../openblas-pthread/.
    names = sorted({"/".join(line.split()[-1].split("/")[-2:]) for line in maps if "blas" in line.lower()})
    return ", ".join(names) or "none loaded"


def learning_rate(args, epoch):
    """The learning rate of an epoch (1-based): see the module's text."""
    if args.final_lr <= 0:
        return args.lr * (0.3 if epoch > 0.75 * args.epochs else 1.0)
    if args.epochs == 1:
        return args.lr
    return args.lr * (args.final_lr / args.lr) ** ((epoch - 1) / (args.epochs - 1))


def keep_freed_memory():
    """Has glibc keep the batches' freed blocks for the next batch. A batch's
    tensors are 8 to 32 MB; glibc maps each block above its threshold fresh
    from the kernel and unmaps it when it is freed, so every step faults its
    tensors' pages in again. Where the C library has no mallopt (not glibc),
    nothing changes. The arithmetic is the same either way, and so are a
    net's bytes."""
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc = ctypes.CDLL(None)
    if hasattr(libc, "mallopt"):
        libc.mallopt(m_mmap_threshold, 32 * 1024 * 1024)  # the largest glibc takes
        libc.mallopt(m_trim_threshold, 1024 * 1024 * 1024)


def main(argv):
    keep_freed_memory()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+")
    ap.add_argument("--engine", default=os.path.join(store.ROOT, "bachess"),
                    help="the binary whose `records` turns stored games into records")
    ap.add_argument("--store-nodes", type=int, default=0, help="only the store's chunks of this node limit")
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--final-lr", type=float, default=0.0,
                    help="decay the learning rate geometrically to this in the last epoch")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5)
    ap.add_argument("--k", type=float, default=400.0)
    ap.add_argument("--positions", type=int, default=0, help="use at most this many (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--crelu", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--init", help="start from this network file's weights")
    ap.add_argument("--mirror", action="store_true", help="mirror half the training positions left to right")
    ap.add_argument("--output-buckets", type=int, default=1, help="output neurons by piece count (1 to 16)")
    ap.add_argument("--king-mirroring", action="store_true",
                    help="each side sees the board mirrored left to right when its king is on the e- to h-files")
    ap.add_argument("--king-buckets", metavar="LAYOUT",
                    help=f"input weights by the own king's square: {', '.join(king_buckets.PRESETS)} or 64 numbers")
    ap.add_argument("--c-gradient", action="store_true",
                    help="sum the input weights' gradient in C (feature_grad.c): faster, other bytes than torch's")
    ap.add_argument("--no-bias-correction", action="store_true",
                    help="export the rounded weights as they are (nets before 2026-11-26 were made so)")
    args = ap.parse_args(argv)
    if args.hidden % 16 or not 16 <= args.hidden <= 512:
        ap.error("--hidden must be a multiple of 16 from 16 to 512")
    if not 1 <= args.output_buckets <= model.MAX_BUCKETS:
        ap.error(f"--output-buckets must be from 1 to {model.MAX_BUCKETS}")
    king_map = None
    if args.king_buckets:
        try:
            king_map = king_buckets.parse(args.king_buckets, args.king_mirroring)
        except ValueError as e:
            ap.error(str(e))
    king_count = king_buckets.count(king_map)

    log_lines = ["command: " + " ".join([os.path.basename(sys.argv[0])] + argv)]

    def say(text):
        print(text, flush=True)
        log_lines.append(text)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    records = data.RecordFiles(record_files(args.data, args.engine, args.store_nodes), limit=args.positions)
    valid_idx, train_idx = hold_out_games(len(records), rng)
    say(f"data: {len(records)} positions from {', '.join(args.data)}; {len(train_idx)} for training, "
        f"{len(valid_idx)} held out in whole runs of records")
    say(f"net: 768 -> {args.hidden} x 2 -> 1, {'CReLU' if args.crelu else 'SCReLU'}"
        + (f", {args.output_buckets} output buckets by piece count" if args.output_buckets > 1 else "")
        + (", mirrored by each king's wing" if args.king_mirroring else "")
        + (f", {king_count} king buckets ({args.king_buckets})" if king_map else "")
        + f"; K {args.k}, lambda {args.lam}, "
        f"lr {args.lr}" + (f" falling to {args.final_lr}" if args.final_lr > 0 else "")
        + f", batch {args.batch}, seed {args.seed}, torch {torch.__version__}, {args.threads} thread(s)"
        + (", mirrored left to right at random" if args.mirror else "")
        + (", the input gradient summed in C" if args.c_gradient else ""))
    say(f"blas: {loaded_blas()}")
    # A generator of its own, so that --mirror leaves the shuffling as it was.
    mirror_rng = np.random.default_rng(args.seed + 1) if args.mirror else None

    net = model.PerspectiveNet(args.hidden, screlu=not args.crelu, buckets=args.output_buckets,
                               king_buckets=king_count, c_gradient=args.c_gradient)
    if args.init:
        start = model.read_net(args.init)
        if start["b1"].shape[0] != args.hidden or start["screlu"] == args.crelu:
            ap.error(f"--init {args.init}: its width or activation differs from --hidden/--crelu")
        if len(start["b2"]) not in (1, args.output_buckets):
            ap.error(f"--init {args.init}: {len(start['b2'])} output buckets, not 1 or --output-buckets")
        if args.king_mirroring and not start["king_mirroring"]:
            start = model.mirrored_inputs(start)
            say(f"init: the weights of {args.init}, its input weights mirrored left to right")
        elif start["king_mirroring"] != args.king_mirroring:
            ap.error(f"--init {args.init}: a net that mirrors by the king, and no --king-mirroring")
        else:
            say(f"init: the weights of {args.init}")
        if start["king_map"] is not None and start["king_map"] != king_map:
            ap.error(f"--init {args.init}: its king bucket layout differs from --king-buckets")
        if king_map and start["king_map"] is None:
            say(f"init: its 768 input weights copied into each of the {king_count} king buckets")
        model.load_quantised(net, start)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    valid = batch_tensors(records.take(valid_idx), buckets=args.output_buckets, king_mirroring=args.king_mirroring,
                          king_map=king_map)
    with torch.no_grad():
        say(f"epoch 0: held-out loss {loss_of(net, valid, args.k, args.lam).item():.6f}")
    for epoch in range(1, args.epochs + 1):
        start, seen, total = time.time(), 0, 0.0
        shuffled = rng.permutation(train_idx)  # shuffled every epoch: never game order
        for lr_step in optimiser.param_groups:
            lr_step["lr"] = learning_rate(args, epoch)
        for at in range(0, len(shuffled), args.batch):
            idx = np.sort(shuffled[at:at + args.batch])
            mirror = mirror_rng.random(len(idx)) < 0.5 if mirror_rng else None
            batch = batch_tensors(records.take(idx), mirror, args.output_buckets, args.king_mirroring, king_map)
            optimiser.zero_grad()
            loss = loss_of(net, batch, args.k, args.lam)
            loss.backward()
            optimiser.step()
            net.clip()
            seen += len(idx)
            total += loss.item() * len(idx)
        with torch.no_grad():
            held_loss = loss_of(net, valid, args.k, args.lam).item()
        rate = seen / max(time.time() - start, 1e-9)
        say(f"epoch {epoch}: training loss {total / max(seen, 1):.6f}, held-out loss {held_loss:.6f}, "
            f"{rate:.0f} positions/s")
    q = model.quantise(net, args.king_mirroring, king_map)
    if not args.no_bias_correction:
        shift = model.correct_output_bias(net, q, valid)
        say(f"output bias corrected by {shift:+.2f} cp, the mean rounding error over the held-out positions")
    model.write_net(args.out, q)
    torch.save(net.state_dict(), args.out + ".pt")
    say(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) and {args.out}.pt")
    with open(args.out + ".log", "w") as f:
        f.write("\n".join(log_lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
