#!/usr/bin/env python3
"""syzygy_test.py — the Syzygy tablebases (data/syzygy, every 3- and
4-piece table) as bachess reads them through Fathom:

  1. WDL and DTZ from `bachess tb probe` equal Debian's `fathom` CLI (an
     independent program on the same library) on 1,000+ random legal
     positions with 3 and 4 pieces, both sides to move, with en-passant
     positions and halfmove clocks that turn wins into cursed wins and
     losses into blessed losses;
  2. `tb probe`'s best moves and each move's result against the fathom CLI
     (200 positions), and --no50 on a cursed win;
  3. what SyzygyProbeLimit (0; 3), SyzygyProbeDepth (1 against 100) and
     Syzygy50MoveRule (a cursed win) do to tbhits and the score;
  4. the options and commands in both protocols: tbhits in the search
     output, a won root converted with the tables' score, a mate still found
     as a mate, bad paths (missing, not a table, truncated table, an
     unreadable directory, as nobody through setpriv when run as root)
     reported while the engine plays on, the tables split over two
     directories (A:B), SyzygyPath during a search.

    BACHESS=./bachess SYZYGY_POSITIONS=1000 python3 -m pytest tests/syzygy_test.py
"""
import os
import random
import re
import shutil
import subprocess
import tempfile

import pytest

from checklist import check
from enginedriver import Engine, Stockfish

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "..", "data", "syzygy")
FATHOM = "/usr/games/fathom"
PIECES = "QRBNP"


def random_fen(rng):
    """A random placement of two kings and 1-2 other pieces (not yet checked
    for legality: bachess refuses what is illegal)."""
    board = {}
    squares = rng.sample(range(64), 4)
    wk, bk = squares[0], squares[1]
    if abs(wk % 8 - bk % 8) <= 1 and abs(wk // 8 - bk // 8) <= 1:
        return None
    board[wk], board[bk] = "K", "k"
    for sq in squares[2:2 + rng.choice((1, 2))]:
        p = rng.choice(PIECES)
        if p == "P" and sq // 8 in (0, 7):
            return None
        board[sq] = p if rng.random() < 0.6 else p.lower()
    return placement(board) + (" w" if rng.random() < 0.5 else " b") + " - - %d 60" % rng.choice((0, 0, 0, 30, 60, 85, 95))


def en_passant_fen(rng):
    """A pawn that has just moved two squares beside an enemy pawn."""
    white_moved = rng.random() < 0.5
    f = rng.randrange(8)
    g = f + rng.choice((-1, 1))
    if not 0 <= g < 8:
        return None
    rank = 3 if white_moved else 4          # where the moved pawn stands (0-based)
    board = {rank * 8 + f: "P" if white_moved else "p", rank * 8 + g: "p" if white_moved else "P"}
    free = [s for s in range(64) if s not in board and not (2 <= s // 8 <= 5 and abs(s % 8 - f) <= 0)]
    wk, bk = rng.sample(free, 2)
    if abs(wk % 8 - bk % 8) <= 1 and abs(wk // 8 - bk // 8) <= 1:
        return None
    board[wk], board[bk] = "K", "k"
    ep = "abcdefgh"[f] + ("3" if white_moved else "6")
    return placement(board) + (" b " if white_moved else " w ") + "- " + ep + " 0 40"


def placement(board):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = board.get(rank * 8 + file)
            if not p:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def parse_probe(text):
    """(wdl, |dtz|) from one answer of `bachess tb probe`, None for a refused FEN."""
    if text.startswith("error:"):
        return None  # an illegal position, refused
    wdl = re.search(r"^WDL (.+)$", text, re.M)
    dtz = re.search(r"^DTZ (-?\d+)$", text, re.M)
    return (wdl.group(1), abs(int(dtz.group(1))) if dtz else None) if wdl else ("none", None)


def bachess_probe_many(engine, fens):
    """All FENs through one `bachess tb probe -`: one answer block each."""
    r = subprocess.run([engine, "tb", "probe", "--path", TABLES, "-"], input="\n".join(fens) + "\n",
                       capture_output=True, text=True, timeout=300)
    blocks = r.stdout.split("\n\n")[:len(fens)]
    check(r.returncode == 0 and len(blocks) == len(fens), f"tb probe - answers {len(blocks)} of {len(fens)} FENs")
    return [parse_probe(b) for b in blocks]


def fathom_probe(fen):
    out = subprocess.run([FATHOM, "--path=" + TABLES, fen], capture_output=True, text=True).stdout
    wdl = re.search(r'\[WDL "(\w+)"\]', out)
    dtz = re.search(r'\[DTZ "(-?\d+)"\]', out)
    names = {"Win": "win", "Loss": "loss", "Draw": "draw", "CursedWin": "cursed win", "BlessedLoss": "blessed loss"}
    return (names.get(wdl.group(1), wdl.group(1)), abs(int(dtz.group(1))) if dtz else None) if wdl else ("none", None)


def oracle(engine, wanted):
    rng = random.Random(20261124)
    candidates = []
    while len(candidates) < 2 * wanted:
        fen = en_passant_fen(rng) if len(candidates) % 10 == 0 else random_fen(rng)
        if fen:
            candidates.append(fen)
    single = subprocess.run([engine, "tb", "probe", "--path", TABLES] + candidates[0].split(),
                            capture_output=True, text=True)
    answers = bachess_probe_many(engine, candidates)
    check(parse_probe(single.stdout) == answers[0], "one FEN on the command line answers as in a stream")
    compared, ep, mates, kinds, mismatches = 0, 0, 0, {}, []
    for fen, ours in zip(candidates, answers):
        if compared == wanted:
            break
        if ours is None or ours[0] == "none":
            continue  # illegal
        if ours == ("loss", 0):
            mates += 1
            continue  # checkmate: Debian's fathom CLI calls it "Win" for the mated side
        theirs = fathom_probe(fen)
        compared += 1
        ep += fen.split()[3] != "-"
        kinds[ours[0]] = kinds.get(ours[0], 0) + 1
        if ours != theirs:
            mismatches.append((fen, ours, theirs))
    check(compared == wanted, f"{compared} of {wanted} positions compared ({mates} checkmates left out)")
    mate = parse_probe(subprocess.run([engine, "tb", "probe", "--path", TABLES, "7k/6Q1/6K1/8/8/8/8/8", "b", "-", "-"],
                                      capture_output=True, text=True).stdout)
    check(mate == ("loss", 0), f"a checkmated side to move: {mate}")
    check(not mismatches, f"WDL and DTZ equal fathom's on {compared} positions "
          f"({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}; {ep} with an e.p. square)"
          + (f"; {len(mismatches)} differ, e.g. {mismatches[0]}" if mismatches else ""))
    check(kinds.get("cursed win", 0) > 0 and kinds.get("blessed loss", 0) > 0, "cursed wins and blessed losses included")


ORACLE = []


def legal_moves(fen):
    """The legal moves of `fen` by Stockfish's `go perft 1`."""
    if not ORACLE:
        ORACLE.append(Stockfish())
    return ORACLE[0].legal_moves(fen)


class Uci(Engine):
    def __init__(self, engine, prefix=()):
        super().__init__(engine, prefix=prefix, timeout=20, quit_timeout=10)
        self.send("uci")
        self.until("uciok")

    def until(self, pattern, timeout=None):
        """Engine's lines, stripped of their blanks."""
        return [line.strip() for line in super().until(pattern, timeout)]


def search(e, setup, fen, depth):
    """(tbhits, last score, bestmove) of a fresh search after `setup` lines."""
    e.send("ucinewgame")
    for line in setup:
        e.send(line)
    e.send(f"position fen {fen}")
    e.send(f"go depth {depth}")
    lines = e.until("^bestmove")
    infos = [l for l in lines if " pv " in l]
    hits = max([int(m.group(1)) for l in lines for m in [re.search(r"tbhits (\d+)", l)] if m] or [0])
    score = re.search(r"score (cp|mate) (-?\d+)", infos[-1])
    return hits, (score.group(1), int(score.group(2))), lines[-1].split()[1]


def options(engine):
    """What SyzygyProbeLimit, SyzygyProbeDepth and Syzygy50MoveRule do."""
    e = Uci(engine)
    e.send(f"setoption name SyzygyPath value {TABLES}")
    e.send("isready")
    e.until("readyok")
    five = "8/8/4k3/8/2r5/8/2R5/K2N4 w - - 0 1"        # Rxc4 leads to KRNvK
    blocked = "8/8/4k3/4p3/4P3/4K3/8/8 w - - 0 1"       # 4 pieces, no capture or pawn move soon
    krk = "8/8/8/8/8/2k5/8/KR6 w - - 0 1"
    hits, score, _ = search(e, ["setoption name SyzygyProbeLimit value 0"], five, 8)
    hits2, _, _ = search(e, [], krk, 8)
    check(hits == 0 and hits2 == 0 and score[1] < 20000, f"SyzygyProbeLimit 0: tbhits {hits} and {hits2}, score {score}")
    hits4, _, _ = search(e, ["setoption name SyzygyProbeLimit value 4"], blocked, 4)
    hits, _, _ = search(e, ["setoption name SyzygyProbeLimit value 3"], blocked, 4)
    hits3, score, _ = search(e, [], krk, 8)
    check(hits4 > 0 and hits == 0 and hits3 > 0 and score == ("cp", 31614),
          f"SyzygyProbeLimit 3: 4 pieces tbhits {hits} (limit 4: {hits4}), 3 pieces tbhits {hits3}, score {score}")
    hits1, score1, _ = search(e, ["setoption name SyzygyProbeLimit value 7", "setoption name SyzygyProbeDepth value 1"], five, 6)
    hits, score, _ = search(e, ["setoption name SyzygyProbeDepth value 100"], five, 6)
    check(hits1 > 0 and score1[1] > 20000 and hits == 0 and score[1] < 20000,
          f"SyzygyProbeDepth 1: tbhits {hits1}, score {score1}; 100: tbhits {hits}, score {score} (no 4-piece probes)")
    cursed = "8/8/8/8/8/2k5/8/KR6 w - - 90 1"        # DTZ 27 with 90 half-moves gone
    _, score50, best50 = search(e, ["setoption name SyzygyProbeDepth value 1"], cursed, 8)
    _, score, best = search(e, ["setoption name Syzygy50MoveRule value false"], cursed, 8)
    check(score50 == ("cp", 0) and score == ("cp", 31614) and best50 == best == "b1d1",
          f"Syzygy50MoveRule: a cursed win scores {score50} with the rule, {score} without ({best50}, {best})")
    e.quit()


def probe_text(engine, fen, *flags, path=TABLES):
    return subprocess.run([engine, "tb", "probe", "--path", path, *flags, fen], capture_output=True, text=True,
                          timeout=30).stdout


def best_moves_and_no50(engine, count):
    """The best moves and every move's result from `tb probe` against the
    fathom CLI (its winning, drawing and losing moves, and the first move of
    its line); --no50."""
    rng = random.Random(1811)
    fens = []
    while len(fens) < 2 * count:
        f = random_fen(rng)
        if f:
            fens.append(" ".join(f.split()[:4]) + " 0 1")
    r = subprocess.run([engine, "tb", "probe", "--path", TABLES, "-"], input="\n".join(fens) + "\n",
                       capture_output=True, text=True, timeout=300)
    compared, several, wrong = 0, 0, []
    for fen, block in zip(fens, r.stdout.split("\n\n")):
        if compared == count:
            break
        if not block.startswith("WDL") or "best:" not in block:
            continue
        best = {m.rstrip("+#") for m in re.search(r"^best:(.*)$", block, re.M).group(1).split()}
        moves = {m.rstrip("+#"): v for m, v in
                 re.findall(r" (\S+?)=(win|draw|loss|cursed win|blessed loss)(?= |$)", re.search(r"^moves:(.*)$", block, re.M).group(1))}
        out = subprocess.run([FATHOM, "--path=" + TABLES, fen], capture_output=True, text=True).stdout
        theirs = {k: set(re.search(r'\[%sMoves "([^"]*)"\]' % k, out).group(1).replace(",", " ").split())
                  for k in ("Winning", "Drawing", "Losing")}
        line = re.search(r"^1\.(?:\.\.)? ?(\S+)", out, re.M)
        first = line.group(1).rstrip("+#") if line else None
        kind = {"win": "Winning", "loss": "Losing"}
        ours = {k: {m for m, v in moves.items() if kind.get(v, "Drawing") == k} for k in theirs}
        compared += 1
        several += 1 < len(best) < len(moves)
        if ours != theirs or first not in best or not best <= next(s for s in theirs.values() if first in s):
            wrong.append((fen, sorted(best), first))
    check(compared == count and not wrong,
          f"tb probe's best moves hold fathom's first move, within its result, and every move's result is fathom's, "
          f"on {compared} positions ({several} with some but not all moves best)" + (f"; differ: {wrong[:2]}" if wrong else ""))
    cursed = "8/8/8/8/8/2k5/8/KR6 w - - 90 1"
    with50, without = probe_text(engine, cursed), probe_text(engine, cursed, "--no50")
    moves50 = re.search(r"^moves:(.*)$", with50, re.M).group(1)
    moves = re.search(r"^moves:(.*)$", without, re.M).group(1)
    check("Rd1=cursed win" in moves50 and "cursed" not in moves and "Rd1=win" in moves and "Rb3+=draw" in moves
          and re.search(r"^best: Rd1$", without, re.M),
          f"tb probe --no50 on a cursed win: the moves win ({moves.strip()[:60]}...; with the rule: {moves50.strip()[:50]}...)")
    wdl50, wdl = (re.search(r"^WDL (.*)$", text, re.M).group(1) for text in (with50, without))
    check(wdl50 == "cursed win" and wdl == "win",
          f"tb probe on a cursed win says WDL {wdl50!r} with the rule, {wdl!r} with --no50")


def several_directories(engine, work):
    """SyzygyPath A:B with the tables split over two directories: a 4-piece
    position from each is found (and A alone lacks B's)."""
    a, b = os.path.join(work, "split-a"), os.path.join(work, "split-b")
    os.makedirs(a)
    os.makedirs(b)
    names = sorted({n.split(".")[0] for n in os.listdir(TABLES)})
    for i, name in enumerate(names):
        for ext in (".rtbw", ".rtbz"):
            if os.path.exists(os.path.join(TABLES, name + ext)):
                to_a = name == "KQvKR" or (name != "KRvKP" and i % 2 == 0)
                shutil.copy(os.path.join(TABLES, name + ext), a if to_a else b)
    in_a = "8/8/8/3rk3/8/8/8/KQ6 w - - 0 1"              # KQvKR
    in_b = "8/8/8/4k3/8/4p3/8/K6R w - - 0 1"             # KRvKP
    where = {f: "a" if os.path.exists(os.path.join(a, m + ".rtbw")) else "b" for f, m in ((in_a, "KQvKR"), (in_b, "KRvKP"))}
    check(where == {in_a: "a", in_b: "b"}, f"the split put KQvKR in {where[in_a]}, KRvKP in {where[in_b]}")
    both = f"{a}:{b}"
    for fen in (in_a, in_b):
        full = parse_probe(probe_text(engine, fen))
        split = parse_probe(probe_text(engine, fen, path=both))
        check(full[0] in ("win", "draw", "loss") and split == full, f"tb probe --path A:B finds {fen}: {split} (all tables: {full})")
    check(parse_probe(probe_text(engine, in_b, path=a)) == ("none", None), "... and directory A alone does not have KRvKP")
    e = Uci(engine)
    e.send(f"setoption name SyzygyPath value {both}")
    e.send("isready")
    note = [l for l in e.until("readyok") if l.startswith("info string")]
    check(note and "up to 4 pieces" in note[0] and "(35 WDL files)" in note[0], f"SyzygyPath A:B: {note[0] if note else '-'}")
    for fen in (in_a, in_b):
        hits, score, best = search(e, [], fen, 6)
        check(hits > 0 and score == ("cp", 31614) and best in legal_moves(fen), f"SyzygyPath A:B, {fen}: tbhits {hits}, {score}, {best}")
    e.quit()


def unreadable(engine, work):
    """A table directory without read permission. Root reads any directory,
    so as root the engine runs as nobody (setpriv), from a copy of the binary
    in a directory everyone may enter (a fresh clone under /root would not
    be); without setpriv it runs as root, where the tables must load."""
    locked = os.path.join(work, "locked")
    shutil.copytree(TABLES, locked)
    os.chmod(locked, 0)
    prefix, how, expect = [], "as uid %d (not root)" % os.geteuid(), r"Permission denied: playing without them"
    setpriv = shutil.which("setpriv")
    if os.geteuid() == 0 and setpriv:
        os.chmod(work, 0o755)
        copy = os.path.join(work, "bin")
        os.makedirs(copy)
        os.chmod(copy, 0o755)
        engine = shutil.copy(engine, os.path.join(copy, "bachess"))
        os.chmod(engine, 0o755)
        prefix, how = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"], "as nobody (setpriv, uid 65534)"
        p = subprocess.run(prefix + ["/bin/sh", "-c", 'test -x "$1" && ! test -r "$2"', "-", engine, locked])
        check(p.returncode == 0, f"nobody can run {engine} and cannot read {locked}")
    elif os.geteuid() == 0:
        how, expect = "as root (no setpriv: the directory is readable to root)", r"tablebases: up to 4 pieces"
    print(f"      the unreadable directory, run {how}", flush=True)
    e = Uci(engine, prefix)
    e.send(f"setoption name SyzygyPath value {locked}")
    e.send("isready")
    note = [l for l in e.until("readyok") if l.startswith("info string")]
    check(note and re.search(expect, note[0]) is not None and "error" not in note[0],
          f"SyzygyPath unreadable dir, {how}: {note[0] if note else 'no info string'}")
    fen = "8/8/8/8/8/2k5/8/KR6 w - - 0 1"
    e.send(f"position fen {fen}")
    e.send("go depth 6")
    lines = e.until("^bestmove")
    best = lines[-1].split()[1]
    check(best in legal_moves(fen), f"... and plays on: {lines[-1]} legal in {fen}")
    if "Permission" in expect:
        check(all("tbhits 0" in l for l in lines if " tbhits " in l), "... without tables (tbhits 0)")
    e.quit()
    os.chmod(locked, 0o755)


def protocols(engine):
    work = tempfile.mkdtemp(prefix="bachess-tb-")
    notatable = os.path.join(work, "fake")
    os.makedirs(notatable)
    with open(os.path.join(notatable, "KQvK.rtbw"), "wb") as f:
        f.write(b"this is not a tablebase" * 10)
    truncated = os.path.join(work, "truncated")
    os.makedirs(truncated)
    data = open(os.path.join(TABLES, "KPvK.rtbw"), "rb").read()
    with open(os.path.join(truncated, "KPvK.rtbw"), "wb") as f:
        f.write(data[: len(data) // 3])
    unreadable(engine, work)
    several_directories(engine, work)

    e = Uci(engine)
    for path, expect in ((os.path.join(work, "missing"), "No such file"), (notatable, "not used: a damaged table"),
                         (truncated, "not used: a damaged table")):
        e.send(f"setoption name SyzygyPath value {path}")
        e.send("isready")
        lines = e.until("readyok")
        note = [l for l in lines if l.startswith("info string")]
        check(note and re.search(expect, note[0]) is not None and "error" not in note[0],
              f"SyzygyPath {os.path.basename(path)}: {note[0] if note else 'no info string'}")
        e.send("position fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1")
        e.send("go depth 6")
        best = e.until("^bestmove")[-1]
        check(re.match(r"bestmove [a-h][1-8]", best) is not None, f"... and plays on: {best}")
    e.send(f"setoption name SyzygyPath value {TABLES}")
    e.send("isready")
    note = [l for l in e.until("readyok") if l.startswith("info string")]
    check(note and "up to 4 pieces" in note[0], f"SyzygyPath data/syzygy: {note[0] if note else '-'}")

    # A won root: only winning moves, the tables' score.
    e.send("position fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1")
    e.send("go depth 10")
    lines = e.until("^bestmove")
    info = [l for l in lines if " pv " in l][-1]
    check(" score cp 31614" in info, f"KRvK root reports the tables' win: {info[:80]}")
    # tbhits in the search: a position that reaches 4 pieces by a capture.
    e.send("ucinewgame")
    e.send("position fen 8/8/4k3/3r4/8/3R4/4K3/8 w - - 0 1")
    e.send("go depth 10")
    lines = e.until("^bestmove")
    hits = max(int(m.group(1)) for l in lines for m in [re.search(r"tbhits (\d+)", l)] if m)
    check(hits > 0, f"tbhits in info after captures into the tables: {hits}")
    # A mate inside the tables is still reported as a mate.
    e.send("ucinewgame")
    e.send("position fen 6k1/8/5K2/8/8/8/8/7Q w - - 0 1")
    e.send("go depth 12")
    info = [l for l in e.until("^bestmove") if " pv " in l][-1]
    check(" score mate " in info, f"a mate inside the tables: {info[:70]}")
    # SyzygyPath during a search: the search goes on; the path is loaded
    # once it has ended.
    e.send("position fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1")
    e.send("go infinite")
    e.until("^info depth")           # the search under way
    e.send(f"setoption name SyzygyPath value {TABLES}")
    e.send("isready")
    lines = e.until("readyok")
    check(not any(l.startswith("bestmove") for l in lines) and any("set when the search has ended" in l for l in lines),
          "SyzygyPath during go infinite: the search goes on, with a note")
    e.send("stop")
    e.until("^bestmove")
    e.send("isready")
    check(any("up to 4 pieces" in l for l in e.until("readyok")), "... and the tables are loaded after stop")
    e.quit()

    # CECP: the feature and egtpath.
    p = subprocess.run([engine], input=f"xboard\nprotover 2\negtpath syzygy {TABLES}\negtpath gaviota /x\nping 1\nquit\n",
                       capture_output=True, text=True, timeout=20).stdout
    check('egt="syzygy"' in p, "CECP announces feature egt=\"syzygy\"")
    check("# tablebases: up to 4 pieces" in p, "egtpath syzygy DIR loads the tables")
    check("Error (only syzygy tablebases are supported)" in p, "egtpath of another kind is refused")
    # The eval and epd commands with tables.
    p = subprocess.run([engine, "eval", "--tb", TABLES, "8/8/8/4k3/8/8/8/KR6", "w", "-", "-"],
                       capture_output=True, text=True, timeout=20)
    check(p.returncode == 0 and "WDL win" in p.stdout and "Classical:" in p.stdout, "eval --tb gives the tables' verdict")
    epd = os.path.join(work, "krk.epd")
    with open(epd, "w") as fh:
        fh.write('8/8/8/8/8/2k5/8/KR6 w - - am Rb3+ Rb4; id "krk";\n')
    p = subprocess.run([engine, "epd", epd, "200", "1", "SyzygyPath=" + TABLES], capture_output=True, text=True, timeout=30)
    check("note: tablebases: up to 4 pieces" in p.stderr and "solved 1/1" in p.stdout,
          f"epd with SyzygyPath=: {p.stderr.strip()[:80]} / {p.stdout.strip()[-20:]}")
    shutil.rmtree(work)


@pytest.fixture(scope="module")
def engine():
    yield os.environ.get("BACHESS", "./bachess")
    for oracle in ORACLE:
        oracle.close()


WANTED = int(os.environ.get("SYZYGY_POSITIONS", "1000"))


def test_probes_equal_fathom(engine):
    oracle(engine, WANTED)


def test_best_moves_and_no50(engine):
    best_moves_and_no50(engine, min(WANTED, 200))


def test_options(engine):
    options(engine)


def test_protocols(engine):
    protocols(engine)
