"""match_pgn.py — the games of a match's PGN and the engines' comments on
their moves, as fastchess and cutechess-cli write them ({+0.31/15 0.442s}:
the mover's score / depth, then the time spent). Read by scripts/time-usage.py
and scripts/loss-onset.py.
"""
import re


def games(text):
    """(tags, movetext) of each game."""
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        head, _, body = block.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', head, re.M))
        yield tags, body


def start_ply(tags):
    """The game ply of the first move: 0 from the start position, else the FEN's."""
    fen = tags.get("FEN")
    if not fen:
        return 0
    fields = fen.split()
    return (int(fields[5]) - 1) * 2 + (fields[1] == "b")


def commented_moves(tags, body):
    """(game ply, comment) of each move with a comment, in order."""
    ply = start_ply(tags)
    for m in re.finditer(r"([^\s{}]+)\s*\{([^}]*)\}", body):
        if re.fullmatch(r"\d+\.(\.\.)?", m.group(1)):
            continue
        yield ply, m.group(2)
        ply += 1
