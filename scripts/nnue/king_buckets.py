"""king_buckets.py — king bucket layouts (docs/nnue.md): which set of input
weights a perspective reads, by the square of its own king as it sees it
(rank 1 its own back rank; files a-d only, for a net that mirrors by the
king). A layout is 64 bucket numbers, a1, b1, ... h1, then rank 2, up to h8.

The presets give the king's home squares finer buckets than the rest of the
board: where the king stands at home says how the pieces around it matter
(a castled king's shelter, an uncastled one in the centre), while a king that
has left its back ranks is mostly in an ending, where one or two buckets for
the whole board are enough and keep each bucket's share of the data large.
Both are symmetric left to right, so that a net that mirrors by the king uses
every bucket (a king on g1 reads b1's, which is the same bucket).
"""

PRESETS = {
    # 0: castled or on the wings of the back rank; 1: d1/e1, at home;
    # 2: rank 2 (a castled king that stepped up, or an early walk);
    # 3: everywhere else.
    "home4": [0, 0, 0, 1, 1, 0, 0, 0]
             + [2] * 8
             + [3] * 48,
    # The back rank in three (corner pair, c1/f1, d1/e1), rank 2 in two
    # (wings, centre), rank 3, ranks 4-5, ranks 6-8.
    "home8": [0, 0, 1, 2, 2, 1, 0, 0]
             + [3, 3, 3, 4, 4, 3, 3, 3]
             + [5] * 8
             + [6] * 16
             + [7] * 24,
}

MAX_BUCKETS = 32


def check(layout, king_mirroring=False):
    """Raises ValueError unless `layout` is a usable map, as the engine checks
    it: 64 entries from 0 to K-1 (K at most 32), each bucket on some square
    the net reads (files a-d when it mirrors by the king)."""
    if len(layout) != 64:
        raise ValueError(f"a king bucket layout has 64 entries, not {len(layout)}")
    if min(layout) < 0 or max(layout) >= MAX_BUCKETS:
        raise ValueError(f"king buckets are numbered 0 to {MAX_BUCKETS - 1}")
    read = {b for square, b in enumerate(layout) if not king_mirroring or square % 8 < 4}
    missing = sorted(set(range(max(layout) + 1)) - read)
    if missing:
        raise ValueError(f"king bucket {missing[0]} is on no square the net reads"
                         + (" (files a-d, as it mirrors by the king)" if king_mirroring else ""))


def parse(text, king_mirroring=False):
    """The layout of --king-buckets: a preset's name or 64 comma-separated
    numbers, rank 1 first. Raises ValueError for anything else."""
    if text in PRESETS:
        layout = list(PRESETS[text])
    else:
        try:
            layout = [int(word) for word in text.split(",")]
        except ValueError:
            raise ValueError(f"--king-buckets {text!r}: not a preset ({', '.join(PRESETS)}) "
                             "nor 64 comma-separated numbers") from None
    check(layout, king_mirroring)
    return layout


def count(layout):
    """K, the number of buckets of a layout (1 for none)."""
    return max(layout) + 1 if layout else 1
