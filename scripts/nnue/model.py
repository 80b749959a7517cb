"""model.py — the perspective network (K x 768) -> N x 2 -> 1 in PyTorch, with
1 to 16 output buckets by piece count and 1 to 32 king buckets, its
quantisation and the bachess network file (docs/nnue.md): version 1 for one
bucket, version 2 for more, version 3 for a net that mirrors by the king,
version 4 for a net with a king bucket layout (the inputs' side:
data.features(), king_buckets.py)."""
import struct

import numpy as np
import torch

import feature_grad
import king_buckets

INPUTS = 768
QA, QB, SCALE = 255, 64, 400
MAX_OUTPUT = 127 / QB   # output weights must quantise into -127..127
MAX_INPUT = 32000 / QA  # input weights and biases must fit int16 after x QA
MAX_BUCKETS = 16


def output_bucket(piece_count, buckets):
    """The engine's nnue_output_bucket(): (pieces - 2) * B / 31, pieces held to 2..32."""
    return (np.clip(piece_count, 2, 32) - 2) * buckets // 31


class PerspectiveNet(torch.nn.Module):
    def __init__(self, hidden, screlu=True, buckets=1, king_buckets=1, c_gradient=False):
        super().__init__()
        self.hidden, self.screlu, self.buckets, self.king_buckets = hidden, screlu, buckets, king_buckets
        self.c_gradient = c_gradient  # the input weights' gradient summed by feature_grad.c
        # A sparse first layer: the ~30 active features of a board are summed,
        # from the block of 768 of each perspective's king bucket.
        self.ft = torch.nn.EmbeddingBag(king_buckets * INPUTS, hidden, mode="sum")
        self.ft_bias = torch.nn.Parameter(torch.zeros(hidden))
        self.out = torch.nn.Linear(2 * hidden, buckets)  # one output neuron a bucket
        with torch.no_grad():
            self.ft.weight.normal_(0, 0.1)
            self.out.weight.uniform_(-0.1, 0.1)
            self.out.bias.zero_()

    def activation(self, x):
        x = torch.clamp(x, 0.0, 1.0)
        return x * x if self.screlu else x

    def feature_sum(self, index, offsets):
        """Each board's active features' input weights, summed."""
        if self.c_gradient:
            return feature_grad.FeatureSum.apply(self.ft.weight, index, offsets)
        return self.ft(index, offsets)

    def forward(self, us_index, us_offsets, them_index, them_offsets, bucket=None):
        """Evaluation in units of SCALE centipawns, for the side to move, each
        board through its output bucket (a tensor; None: bucket 0)."""
        us = self.feature_sum(us_index, us_offsets) + self.ft_bias
        them = self.feature_sum(them_index, them_offsets) + self.ft_bias
        outputs = self.out(torch.cat([self.activation(us), self.activation(them)], dim=1))
        if bucket is None:
            return outputs[:, 0]
        return outputs.gather(1, bucket.view(-1, 1)).squeeze(1)

    def clip(self):
        with torch.no_grad():
            self.out.weight.clamp_(-MAX_OUTPUT, MAX_OUTPUT)
            self.ft.weight.clamp_(-MAX_INPUT, MAX_INPUT)
            self.ft_bias.clamp_(-MAX_INPUT, MAX_INPUT)


def quantise(net, king_mirroring=False, king_map=None):
    """Integer arrays as the engine uses them (the inputs' side, data.features(),
    mirrored by the king or not, with a king bucket layout or none)."""
    w1 = np.round(net.ft.weight.detach().numpy() * QA).astype(np.int16)       # [K * 768][N]
    b1 = np.round(net.ft_bias.detach().numpy() * QA).astype(np.int16)         # [N]
    w2 = np.clip(np.round(net.out.weight.detach().numpy() * QB), -127, 127).astype(np.int16)  # [B][2N]
    b2 = [int(np.round(float(b) * QA * QB)) for b in net.out.bias.detach()]       # [B]
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "screlu": net.screlu, "king_mirroring": king_mirroring,
            "king_map": None if king_map is None else list(king_map)}


def king_bucket_count(q):
    """K of a quantised net: its input weights' rows in blocks of 768."""
    return q["w1"].shape[0] // INPUTS


def correct_output_bias(net, q, positions):
    """Moves the quantised output bias by the mean difference between the float
    network and its rounded weights over `positions` (the first four tensors of
    a batch). Rounding the weights is not noise that averages out: for every
    position the same rounded biases and output weights meet activations of
    much the same size, so the rounded network is off by a few centipawns in
    one direction (measured: +4.8 cp and -2.6 cp on average for two nets). The
    bias takes that back, each bucket's by its own positions (`positions[6]`
    holds their buckets; a bucket without one keeps its bias). Returns the
    mean shift in centipawns."""
    rounded = PerspectiveNet(q["b1"].shape[0], screlu=q["screlu"], buckets=len(q["b2"]),
                             king_buckets=king_bucket_count(q))
    load_quantised(rounded, q)
    bucket = positions[6]
    with torch.no_grad():
        error = net(*positions[:4], bucket) - rounded(*positions[:4], bucket)
    for k in range(len(q["b2"])):
        mine = error[bucket == k]
        if len(mine):
            q["b2"][k] += int(round(float(mine.mean()) * QA * QB))
    return float(error.mean()) * SCALE


def load_quantised(net, q):
    """Sets a float network to a network file's weights (a warm start): the
    integers divided by their scales, so that quantising again gives them back.
    A network of one bucket fills every bucket of a wider `net` (each starts
    as the plain net and learns from its own positions); so does a network of
    one king bucket every king bucket (each block of 768 input weights a copy
    of its 768), so that whatever bucket a king stands in, the new net
    evaluates as the old one."""
    buckets, king_count = len(q["b2"]), king_bucket_count(q)
    if buckets not in (1, net.buckets):
        raise ValueError(f"{buckets} output buckets in the file, {net.buckets} in the network")
    if king_count not in (1, net.king_buckets):
        raise ValueError(f"{king_count} king buckets in the file, {net.king_buckets} in the network")
    with torch.no_grad():
        w1 = np.tile(q["w1"], (net.king_buckets // king_count, 1))
        net.ft.weight.copy_(torch.from_numpy(w1.astype(np.float32) / QA))
        net.ft_bias.copy_(torch.from_numpy(q["b1"].astype(np.float32) / QA))
        w2 = q["w2"].astype(np.float32).reshape(buckets, -1) / QB
        net.out.weight.copy_(torch.from_numpy(np.repeat(w2, net.buckets // buckets, axis=0)))
        # Divided in double precision, then stored: the float the one-bucket
        # code gave (a warm start must begin where the earlier nets' did).
        b2 = (np.array(q["b2"], dtype=np.float64) / (QA * QB)).astype(np.float32)
        net.out.bias.copy_(torch.from_numpy(np.repeat(b2, net.buckets // buckets)))




def mirrored_inputs(q):
    """A plain net's weights made a start for a net that mirrors by the king:
    its input weights read with the files mirrored. The mirroring net sees a
    king on the e- to h-files as on the a- to d-files, so with these weights
    it evaluates every board whose kings are on the e- to h-files (the king
    starts on e1 and mostly castles short) exactly as the plain net does, and
    only the others, on the wing where the plain net learnt least, as the
    plain net evaluates their mirror images. Each input feature's mirror image
    is the same piece on square ^ 7, in the same king bucket (features are
    bucket * 768 + ours * 384 + type * 64 + square)."""
    file_mirror = np.arange(q["w1"].shape[0]) ^ 7
    return dict(q, w1=q["w1"][file_mirror], king_mirroring=True)


def fnv1a(data):
    """The file's checksum: 32-bit FNV-1a over the payload."""
    h = 2166136261
    for byte in bytes(data):
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def trunc_div(a, b):
    """Integer division rounding toward zero, as C does."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def file_version(q):
    """4 for a net with a king bucket layout, else 3 for a net that mirrors by
    the king, else 2 for output buckets, else 1 (the files of the nets before
    any of them)."""
    if q.get("king_map") is not None:
        return 4
    return 3 if q["king_mirroring"] else 2 if len(q["b2"]) > 1 else 1


HEADER_SIZES = {1: 40, 2: 44, 3: 48, 4: 52}


def write_net(path, q):
    n, buckets, version = q["b1"].shape[0], len(q["b2"]), file_version(q)
    # Version 4's map opens the payload, so that the checksum covers it.
    payload = (bytes(q["king_map"] if version >= 4 else [])
               + q["w1"].astype("<i2").tobytes() + q["b1"].astype("<i2").tobytes()
               + q["w2"].astype("<i2").tobytes() + struct.pack(f"<{buckets}i", *q["b2"]))
    fields = [version, INPUTS, n, 1 if q["screlu"] else 0, QA, QB, SCALE, fnv1a(payload)]
    if version >= 2:
        fields.append(buckets)
    if version >= 3:
        fields.append(1 if q["king_mirroring"] else 0)
    if version >= 4:
        fields.append(king_bucket_count(q))
    with open(path, "wb") as f:
        f.write(b"BACHNNUE" + struct.pack(f"<{len(fields)}I", *fields) + payload)


def read_net(path):
    data = open(path, "rb").read()
    if data[:8] != b"BACHNNUE":
        raise ValueError("not a bachess network")
    version, inputs, n, act, qa, qb, scale, checksum = struct.unpack("<8I", data[8:40])
    if version not in HEADER_SIZES:
        raise ValueError(f"version {version}, not 1 to 4")
    buckets = struct.unpack("<I", data[40:44])[0] if version >= 2 else 1
    king_mirroring = struct.unpack("<I", data[44:48])[0] if version >= 3 else 0
    king_count = struct.unpack("<I", data[48:52])[0] if version >= 4 else 1
    payload = data[HEADER_SIZES[version]:]
    if ((inputs, qa, qb, scale) != (INPUTS, QA, QB, SCALE) or fnv1a(payload) != checksum
            or not 1 <= buckets <= MAX_BUCKETS or king_mirroring not in (0, 1)
            or not 1 <= king_count <= king_buckets.MAX_BUCKETS):
        raise ValueError("header or checksum does not match")
    king_map = list(payload[:64]) if version >= 4 else None
    if king_map is not None:
        king_buckets.check(king_map, king_mirroring == 1)
        if king_buckets.count(king_map) != king_count:
            raise ValueError(f"{king_count} king buckets, the map uses {king_buckets.count(king_map)}")
        payload = payload[64:]
    rows = king_count * INPUTS
    w1 = np.frombuffer(payload, "<i2", rows * n).reshape(rows, n)
    b1 = np.frombuffer(payload, "<i2", n, rows * n * 2)
    w2 = np.frombuffer(payload, "<i2", buckets * 2 * n, (rows * n + n) * 2).reshape(buckets, 2 * n)
    b2 = list(struct.unpack(f"<{buckets}i", payload[-4 * buckets:]))
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "screlu": act == 1, "king_mirroring": king_mirroring == 1,
            "king_map": king_map}


def quantised_eval(q, us_features, them_features):
    """The engine's integer evaluation (centipawns, side to move), for one board
    (its output bucket from its piece count: the features of one side; its
    king buckets are in the features' indices)."""
    n = q["b1"].shape[0]
    bucket = int(output_bucket(len(us_features), len(q["b2"])))
    w2, b2 = q["w2"].reshape(len(q["b2"]), 2 * n)[bucket], q["b2"][bucket]
    acc = [q["b1"].astype(np.int64) + q["w1"][f].astype(np.int64).sum(axis=0) for f in (us_features, them_features)]
    total = 0
    for k, a in enumerate(acc):
        a = ((a + 32768) % 65536) - 32768          # int16 wrap, as the engine
        x = np.clip(a, 0, QA)
        w = w2[k * n:(k + 1) * n].astype(np.int64)
        total += int((x * w * x).sum() if q["screlu"] else (x * w).sum())
    total = ((total + 2**31) % 2**32) - 2**31      # int32 wrap, as the engine
    if q["screlu"]:
        total = trunc_div(total, QA)
    return trunc_div((total + b2) * SCALE, QA * QB)
