"""data.py — reading `bachess datagen` files (docs/datagen.md) straight from
disk: a memory map of 32-byte records, decoded a batch at a time with numpy
into the network's active features for both perspectives."""
import numpy as np

RECORD = 32
PIECE_LETTERS = "PNBRQKpnbrqk"


def open_records(paths):
    """One memory map per file, as (N, 32) uint8 arrays."""
    maps = []
    for path in paths:
        m = np.memmap(path, dtype=np.uint8, mode="r")
        n = len(m) // RECORD
        if n:
            maps.append(m[: n * RECORD].reshape(n, RECORD))
    return maps


class RecordFiles:
    """The records of several files as one sequence, without copying them into
    memory: each file stays a memory map, and a batch gathers its rows from
    the files they are in (in the order asked for)."""

    def __init__(self, paths, limit=0):
        self.maps = open_records(paths)
        sizes = np.array([len(m) for m in self.maps], dtype=np.int64)
        total = int(sizes.sum())
        self.length = min(total, limit) if limit else total
        self.starts = np.concatenate(([0], np.cumsum(sizes)))  # first global index of each file

    def __len__(self):
        return self.length

    def take(self, indices):
        """The records at these global indices, as one (B, 32) array."""
        indices = np.asarray(indices, dtype=np.int64)
        out = np.empty((len(indices), RECORD), dtype=np.uint8)
        which = np.searchsorted(self.starts, indices, side="right") - 1
        for f in np.unique(which):
            rows = which == f
            out[rows] = self.maps[f][indices[rows] - self.starts[f]]
        return out


def decode(records):
    """Boards of a batch: (pieces[B, 64] with -1 for empty, side to move[B],
    White-POV score[B], White-POV result in 0/0.5/1 [B])."""
    b = len(records)
    occupancy = records[:, 0:8].copy().view("<u8").reshape(b)
    bits = ((occupancy[:, None] >> np.arange(64, dtype=np.uint64)) & 1).astype(bool)
    nibbles = np.empty((b, 32), dtype=np.int8)
    packed = records[:, 8:24]
    nibbles[:, 0::2] = packed & 15
    nibbles[:, 1::2] = packed >> 4
    order = np.cumsum(bits, axis=1) - 1  # index of each occupied square among the occupied
    pieces = np.where(bits, np.take_along_axis(nibbles, np.clip(order, 0, 31), axis=1), -1).astype(np.int16)
    score = records[:, 24:26].copy().view("<i2").reshape(b).astype(np.float32)
    result = records[:, 26].astype(np.float32) / 2.0
    stm = records[:, 27].astype(np.int64)
    return pieces, stm, score, result


# Square index of each square's mirror image across the d/e file line (a1 <-> h1).
FILE_MIRROR = np.arange(64) ^ 7


def mirror_files(pieces, mask):
    """The boards of `mask` mirrored left to right (a-file <-> h-file), the
    others as they are. Without castling rights, which the records do not
    keep, chess is symmetric under this mirror: the mirrored board has the same
    score and result, so it is a second, different training example."""
    return np.where(mask[:, None], pieces[:, FILE_MIRROR], pieces)


KING = 5  # piece code of the white king; the black king is KING + 6


def kings_wing_mirrored(pieces, perspective):
    """Per board: does `perspective` (0/1 per board) see it mirrored left to
    right under a net that mirrors by the king? When its own king is on the
    e- to h-files (the engine's nnue_mirrored())."""
    own_king = pieces == (KING + 6 * perspective)[:, None]
    return np.argmax(own_king, axis=1) % 8 >= 4


def own_king_squares(pieces, perspective, king_mirroring=False):
    """Per board: the square of `perspective`'s own king as that side sees it
    (mirrored vertically for Black, and to the a- to d-files when the net
    mirrors by the king), the square its king bucket is read at."""
    own_king = pieces == (KING + 6 * perspective)[:, None]
    square = np.argmax(own_king, axis=1)
    square = np.where(perspective == 0, square, square ^ 56)
    if king_mirroring:
        square = np.where(square % 8 >= 4, square ^ 7, square)
    return square


def features(pieces, perspective, king_mirroring=False, king_map=None, factoriser=False):
    """Active feature indices from `perspective` (array of 0/1 per board):
    bucket * 768 + ours * 384 + type * 64 + square (mirrored for Black, and
    left to right when the net mirrors by the king and the perspective's king
    is on the e- to h-files), where bucket is the king bucket `king_map` (64
    entries, king_buckets.py) gives the perspective's own king's square, 0
    without a map. With `factoriser` (bachess-train's --factoriser) each
    piece also gives K * 768 + its feature, its row in a block shared by the
    K buckets. Returns a flat index array and the offsets of each board's
    features (for EmbeddingBag)."""
    board, square = np.nonzero(pieces >= 0)
    p = pieces[board, square].astype(np.int64)
    colour, kind = p // 6, p % 6
    persp = perspective[board]
    ours = (colour != persp).astype(np.int64)
    sq = np.where(persp == 0, square, square ^ 56)
    if king_mirroring:
        sq = np.where(kings_wing_mirrored(pieces, perspective)[board], sq ^ 7, sq)
    index = ours * 384 + kind * 64 + sq
    if king_map is not None:
        bucket = np.asarray(king_map, dtype=np.int64)[own_king_squares(pieces, perspective, king_mirroring)]
        shared = (max(king_map) + 1) * 768 + index
        index = index + bucket[board] * 768
        if factoriser:  # each board's features stay together: its own, then its shared ones
            order = np.argsort(np.concatenate([board, board]), kind="stable")
            index, board = np.concatenate([index, shared])[order], np.concatenate([board, board])[order]
    counts = np.bincount(board, minlength=len(pieces))
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return index, offsets


def fen_to_pieces(fen):
    """pieces[64] and side to move of a FEN (for reference evaluations)."""
    placement, side = fen.split()[:2]
    pieces = np.full(64, -1, dtype=np.int16)
    rank, file = 7, 0
    for c in placement:
        if c == "/":
            rank, file = rank - 1, 0
        elif c.isdigit():
            file += int(c)
        else:
            pieces[rank * 8 + file] = PIECE_LETTERS.index(c)
            file += 1
    return pieces, 0 if side == "w" else 1


def pieces_to_fen(pieces, stm):
    """The FEN of pieces[64] and the side to move (no castling, no e.p. square:
    a record keeps neither), with move counters 0 and 1."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for piece in pieces[rank * 8:rank * 8 + 8]:
            if piece < 0:
                empty += 1
                continue
            row += (str(empty) if empty else "") + PIECE_LETTERS[piece]
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if stm == 0 else " b") + " - - 0 1"
