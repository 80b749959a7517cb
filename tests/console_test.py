#!/usr/bin/env python3
"""console_test.py — console play, driven as a person would: in a pseudo-terminal.

    BACHESS=./bachess python3 -m pytest tests/console_test.py

Each scenario starts the binary on a fresh pty (or a pipe, where that is the
point), types lines and reads what comes back up to the next prompt. What is
checked: the board in Unicode and in ASCII, moves in SAN and coordinates, an
illegal move answered with the list of legal moves, undo, the game-end
announcement, the PGN file written with the right result (and accepted by
Debian's pgn-extract), engine against engine, bad input of every kind, and a
clean exit at end of input. Only Python's standard library is used.
"""
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

PROMPT = re.compile(rb"(White|Black)> $")
# Every wait below is for an event (the prompt, a pattern, the end of the
# process) and TIMEOUT only bounds it, for liveness: no check depends on how
# fast the machine is. The prompt is printed once a command has finished
# (src/protocol/console.c), so reading up to it cannot race the program.
# Measured under stress-ng --cpu 2 with other suites running (load average
# 13 to 23; 5 runs of each build): the longest single wait was 1.0 s (the
# sanitizer build loading the tables after `set SyzygyPath`), so TIMEOUT =
# 30 s is thirty times that. The whole-process runs (subprocess.run, a pipe)
# are bounded by RUN_TIMEOUT: the longest took 0.27 s (the sanitizer build);
# 120 s, the old bound of the longest of them, is kept.
TIMEOUT = float(os.environ.get("CONSOLE_TEST_TIMEOUT", "30"))
RUN_TIMEOUT = 120
# The longest wait of the scenario under way (seconds, what): printed with its
# PASS line, to keep the measurement above current.
longest = [0.0, ""]


def note_wait(seconds, what):
    if seconds > longest[0]:
        longest[0], longest[1] = seconds, what


def run_(args, **kwargs):
    """subprocess.run, bounded by RUN_TIMEOUT, its duration noted."""
    start = time.monotonic()
    try:
        return subprocess.run(args, timeout=RUN_TIMEOUT, **kwargs)
    finally:
        note_wait(time.monotonic() - start, "run %s" % " ".join(os.path.basename(str(a)) for a in args[:2]))


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Console:
    """bachess on a pseudo-terminal: send lines, read up to the prompt."""

    def __init__(self, exe, cwd, lang="C.UTF-8"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
        env["LANG"] = lang
        env["TERM"] = "xterm"
        master, slave = pty.openpty()
        self.proc = subprocess.Popen([exe], stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.fd = master
        self.buffer = b""
        self.transcript = b""
        self.last_sent = "(start)"

    def _read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the other side is closed
            data = b""
        self.buffer += data
        self.transcript += data
        return data

    def expect(self, pattern, timeout=TIMEOUT):
        """Reads until `pattern` (bytes regex) matches; returns the text up to
        and including the match, and keeps the rest."""
        regex = re.compile(pattern, re.M) if isinstance(pattern, bytes) else pattern
        start = time.monotonic()
        deadline = start + timeout
        while True:
            m = regex.search(self.buffer)
            if m:
                text, self.buffer = self.buffer[:m.end()], self.buffer[m.end():]
                note_wait(time.monotonic() - start, "%s after %r" % (regex.pattern[:30], self.last_sent))
                return text.decode("utf-8", "replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out waiting for %r; last output:\n%s"
                              % (pattern, self.buffer[-1500:].decode("utf-8", "replace")))
            if self._read(left) == b"":
                raise Failure("the program ended while waiting for %r; last output:\n%s"
                              % (pattern, self.buffer[-1500:].decode("utf-8", "replace")))

    def send(self, line):
        self.last_sent = line
        os.write(self.fd, line.encode() + b"\n")

    def command(self, line, timeout=TIMEOUT):
        """Types a line and returns everything printed before the next prompt."""
        self.send(line)
        return self.expect(PROMPT, timeout)

    def eof(self, timeout=TIMEOUT):
        """Ctrl-D at the start of a line: end of input. Returns the exit code."""
        os.write(self.fd, b"\x04")
        start = time.monotonic()
        deadline = start + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        check(self.proc.poll() is not None, "still running %.0f s after end of input" % timeout)
        note_wait(time.monotonic() - start, "exit after end of input")
        while self._read(0.05):
            pass
        return self.proc.returncode

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.fd)


def board_rows(text):
    """The eight rank lines of the last board in `text`, top to bottom."""
    rows = re.findall(r"^  ([1-8]) ((?: \S){8})\s*$", text, re.M)
    check(len(rows) >= 8, "no board in:\n%s" % text)
    return rows[-8:]


def pgn_games(path):
    check(os.path.exists(path), "no PGN file %s" % path)
    text = open(path, encoding="utf-8").read()
    games = [g for g in re.split(r"\n(?=\[Event )", text) if g.strip()]
    return text, games


def pgn_extract_accepts(path, count):
    """pgn-extract replays every game and finds nothing to complain about."""
    tool = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
    check(os.path.exists(tool), "pgn-extract is not installed (scripts/install-test-deps.sh)")
    work = os.path.dirname(path)
    log, out = os.path.join(work, "pgn-extract.log"), os.path.join(work, "pgn-extract.pgn")
    run_([tool, "-s", "--nobadresults", "-l" + log, "-o" + out, path], check=True)
    complaints = open(log).read()
    check(complaints.strip() == "", "pgn-extract complained about %s:\n%s" % (path, complaints))
    kept = open(out).read().count("[Event ")
    check(kept == count, "pgn-extract kept %d of %d games" % (kept, count))


# ---- scenarios -------------------------------------------------------------

def t_short_game_illegal_move_undo(exe, work):
    """Unicode board; SAN and coordinate moves against the engine; an illegal
    move answered with the legal ones; undo of a full move; EOF."""
    c = Console(exe, work)
    try:
        c.expect(rb"^bachess: type a move")
        out = c.command("")
        check("\u265c" in out and "\u2656" in out and "\u00b7" in out, "no Unicode board:\n%s" % out)
        check("White to move" in out, "side to move not shown:\n%s" % out)
        rows = board_rows(out)
        check(rows[0][0] == "8" and rows[7][0] == "1", "White should be at the bottom: %r" % rows)
        out = c.command("depth 2")
        check("2 plies" in out, out)

        out = c.command("e4")  # SAN
        check(re.search(r"^1\. e4\s*$", out, re.M), "the move is not confirmed in SAN:\n%s" % out)
        m = re.search(r"^bachess plays 1\.\.\. (\S+)", out, re.M)
        check(m, "the engine did not answer:\n%s" % out)
        reply1 = m.group(1)
        check("Last move: 1... " + reply1 in out, "last move not shown:\n%s" % out)
        check("\u2659" in out, out)

        out = c.command("g1f3")  # coordinates
        check(re.search(r"^2\. Nf3\s*$", out, re.M), "coordinate move not taken:\n%s" % out)
        m = re.search(r"^bachess plays 2\.\.\. (\S+)", out, re.M)
        check(m, "no second engine move:\n%s" % out)
        reply2 = m.group(1)

        out = c.command("e2e5")  # the e-pawn is gone from e2
        check("Illegal move: e2e5" in out, "illegal move not refused:\n%s" % out)
        m = re.search(r"Legal moves \((\d+)\):((?:.|\n)*?)\(Type 'help'", out)
        check(m, "no list of legal moves:\n%s" % out)
        listed = [x.rstrip("+#") for x in m.group(2).split()]
        check(len(listed) == int(m.group(1)) and len(listed) > 20, "list and count disagree:\n%s" % out)
        for move in ("Bc4", "Nc3", "d4", "Rg1", "Bb5", "Qe2"):
            check(move in listed, "%s missing from %r" % (move, listed))
        check(not any(x in listed for x in ("Nf3", "e2e5", "O-O")), "illegal moves listed: %r" % listed)

        out = c.command("hello world")
        check("Illegal move: hello world" in out and "Legal moves" in out, out)

        out = c.command("undo")
        check("Took back 2... %s, 2. Nf3" % reply2 in out, "undo did not take back a full move:\n%s" % out)
        check("Last move: 1... " + reply1 in out and "White to move (you)" in out, out)
        rows = board_rows(out)
        check(rows[7][1].split()[6] in ("\u2658", "N"), "the knight is not back on g1: %r" % (rows[7],))

        out = c.command("flip")
        rows = board_rows(out)
        check(rows[0][0] == "1" and rows[7][0] == "8", "flip did not turn the board: %r" % rows)
        check("h g f e d c b a" in out, out)

        out = c.command("hint")
        check(re.search(r"^Hint: \S+", out, re.M), out)
        out = c.command("help")
        check("Commands:" in out and "undo" in out and "auto" in out, out)
        out = c.command("moves")
        check("Legal moves" in out, out)

        rc = c.eof()
        check(rc == 0, "exit code %d at end of input" % rc)
        tail = c.transcript.decode("utf-8", "replace")
        check("Unfinished game saved to games.pgn" in tail, "the unfinished game was not saved:\n%s" % tail[-500:])
        text, games = pgn_games(os.path.join(work, "games.pgn"))
        check(len(games) == 1 and '[Result "*"]' in games[0], text)
        check(re.search(r"1\. e4 %s \*" % re.escape(reply1), games[0]), "moves not in the PGN:\n%s" % text)
    finally:
        c.close()


def t_finished_games_in_pgn(exe, work):
    """Fool's mate, human against human; a mate in one against the engine
    from a FEN; engine against engine; each game announced and saved."""
    c = Console(exe, work)
    try:
        c.expect(rb"^bachess: type a move")
        c.command("depth 2")
        out = c.command("human")
        check("Human against human" in out, out)
        for move in ("f3", "e7e5", "g4"):
            out = c.command(move)
            check("bachess plays" not in out, "the engine moved in human mode:\n%s" % out)
        out = c.command("Qh4")
        check("2... Qh4#" in out, out)
        check("Checkmate \u2014 Black wins (0-1)" in out, "mate not announced:\n%s" % out)
        check("Game saved to games.pgn" in out, out)
        out = c.command("e4")
        check("The game is over" in out, "a move after the end was taken:\n%s" % out)

        out = c.command("new")
        check("White to move (you)" in out, out)
        out = c.command("fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        check("White to move (you)" in out, out)
        out = c.command("fen this is no position")
        check("Bad FEN" in out, out)
        out = c.command("Ra8")
        check("1. Ra8#" in out and "Checkmate \u2014 White wins (1-0)" in out, out)
        check("bachess plays" not in out, out)

        out = c.command("fen 6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1")
        out = c.command("auto")
        check(re.search(r"^bachess plays 1\. Rb8#", out, re.M), "engine against engine:\n%s" % out)
        check("Checkmate \u2014 White wins (1-0)" in out and "Game saved" in out, out)

        out = c.command("new")
        out = c.command("auto 3")
        plays = re.findall(r"^bachess plays (\S+ \S+)", out, re.M)
        check(len(plays) == 3, "auto 3 played %r" % plays)
        check("You play Black" in out and "Black to move (you)" in out, out)
        out = c.command("resign")
        check("Black resigns \u2014 White wins (1-0)" in out, out)

        out = c.command("stalemate?")
        check("The game is over" in out, out)
        out = c.command("fen 7k/8/6Q1/8/8/8/8/6K1 w - - 0 1")
        out = c.command("Kf2")
        check("Draw by stalemate (1/2-1/2)" in out, out)
        out = c.command("save extra.pgn")
        check("Game appended to extra.pgn" in out, out)
        rc = c.eof()
        check(rc == 0, "exit code %d" % rc)
    finally:
        c.close()

    text, games = pgn_games(os.path.join(work, "games.pgn"))
    check(len(games) == 5, "%d games in games.pgn:\n%s" % (len(games), text))
    fool, mate, auto, resign, stale = games
    check('[Result "0-1"]' in fool and "1. f3 e5 2. g4 Qh4# {Black mates} 0-1" in fool, fool)
    check('[White "Human"]' in fool and '[Black "Human"]' in fool, fool)
    check('[SetUp "1"]' in mate and '[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]' in mate, mate)
    check("1. Ra8# {White mates} 1-0" in mate and '[Black "bachess"]' in mate, mate)
    check('[White "bachess"]' in auto and '[Black "bachess"]' in auto and "1. Rb8#" in auto, auto)
    check('[White "bachess"]' in resign and '[Black "Human and bachess"]' in resign, resign)
    check("{Black resigns} 1-0" in resign and '[PlyCount "3"]' in resign, resign)
    check("1. Kf2 {Draw by stalemate} 1/2-1/2" in stale, stale)
    for g in games:
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            check(re.search(r'^\[%s "[^"]*"\]$' % tag, g, re.M), "no %s tag:\n%s" % (tag, g))
    pgn_extract_accepts(os.path.join(work, "games.pgn"), 5)
    _, extra = pgn_games(os.path.join(work, "extra.pgn"))
    check(len(extra) == 1 and "{Draw by stalemate} 1/2-1/2" in extra[0], extra)


def t_ascii_board_and_pgn_options(exe, work):
    """No UTF-8 locale: an ASCII board. nopgn writes nothing."""
    c = Console(exe, work, lang="C")
    try:
        c.expect(rb"^bachess: type a move")
        out = c.command("board")
        check("r n b q k b n r" in out and "R N B Q K B N R" in out, "no ASCII board:\n%s" % out)
        check("\u265c" not in out, out)
        out = c.command("nopgn")
        check("not saved" in out, out)
        c.command("human")
        for move in ("f4", "e5", "g4"):
            c.command(move)
        out = c.command("Qh4#")
        check("Checkmate - Black wins (0-1)" in out and "saved" not in out, out)
        out = c.command("level 0")
        check("level needs" in out, out)
        out = c.command("level 0.3")
        check("0.30 s per move" in out, out)
        out = c.command("depth x")
        check("depth needs" in out, out)
        out = c.command("set Threads=2")
        check("Threads set to 2" in out, out)
        out = c.command("set Nonsense=1")
        check("no such option" in out, out)
        rc = c.eof()
        check(rc == 0, "exit code %d" % rc)
    finally:
        c.close()
    check(not os.path.exists(os.path.join(work, "games.pgn")), "nopgn still wrote games.pgn")


def t_bad_input_never_crashes(exe, work):
    """A pipe, not a terminal: no prompt, no banner; a very long line,
    binary garbage, odd commands, then end of input: exit 0."""
    junk = (b"depth 1\n" + b"x" * 300000 + b"\n" + bytes(range(1, 256)) + b"\n" + b"\xff\xfe\x00\x01e4\n"
            + b"fen\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\nlevel\nlevel nan\nlevel 1e300\ndepth -1\n"
            + b"depth 1000\nauto -5\nauto 2x\nsave\npgn\nset\nset =\nset Hash=0\nundo\nundo\n"
            + b"fen " + b"k" * 5000 + b"\n" + b"e4 e5 Nf3\n" + b"\t  \r\n" + b"e4\n" + b"undo\n" * 5)
    run = run_([exe], input=junk, cwd=work, capture_output=True)
    out = run.stdout.decode("utf-8", "replace")
    check(run.returncode == 0, "exit code %d; stderr:\n%s" % (run.returncode, run.stderr[-2000:]))
    check(not out.startswith("bachess:"), "a banner on a pipe:\n%s" % out[:200])
    check("> " not in out.replace("Illegal move: ", ""), "a prompt on a pipe")
    check(out.count("Illegal move:") >= 3, out[:3000])
    check("Illegal move: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." in out, "long input not cut short")
    check("Bad FEN" in out and "Nothing to take back" in out, out[-3000:])
    check("\u265c" not in out, "Unicode on a pipe")

    run = run_([exe], input=b"", cwd=work, capture_output=True)
    check(run.returncode == 0 and run.stdout == b"", "empty input: rc %d, %r" % (run.returncode, run.stdout))


def t_protocol_first_line_still_uci(exe, work):
    run = run_([exe], input=b"uci\nisready\nquit\n", cwd=work, capture_output=True)
    out = run.stdout.decode()
    check("uciok" in out and "readyok" in out, out)
    check("option name PGNLog type string default <empty>" in out, "no PGNLog option:\n%s" % out)
    check("option name ConnTrace type string default <empty>" in out, "no ConnTrace option:\n%s" % out)
    trace = os.path.join(work, "trace.txt")
    run = run_([exe], input=("uci\nsetoption name ConnTrace value %s\nisready\nquit\n" % trace).encode(),
               cwd=work, capture_output=True)
    check(os.path.exists(trace), "ConnTrace wrote no file")
    text = open(trace).read()
    check(re.search(r"^\d+ < isready$", text, re.M) and re.search(r"^\d+ > readyok$", text, re.M),
          "the trace lacks a direction:\n%s" % text)


def t_chess960(exe, work):
    """new960 N, castling by SAN, the PGN's Variant tag; a bad number."""
    script = ("new960 518\nboard\nnew960 0\nfen bbqnn1kr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Hh - 0 1\n"
              "human\nO-O\nmoves\nnew960 960\nnew960 x\nfen 4k3/8/8/8/8/8/8/4K2R w Q - 0 1\nsave c960.pgn\n")
    run = run_([exe], input=script.encode(), cwd=work, capture_output=True)
    out = run.stdout.decode("utf-8", "replace")
    check(run.returncode == 0, "exit code %d" % run.returncode)
    check("Chess960 start position 518" in out and "Chess960 start position 0" in out, out[:400])
    check("1. O-O" in out, "O-O was not played:\n%s" % out[-1500:])
    check(re.search(r"B B Q N N R K \.", out), "after O-O with the king on g1 the rook is not on f1:\n%s" % out[-1500:])
    check(out.count("new960 takes a start position number from 0 to 959") == 2, "bad numbers not refused")
    check("Bad FEN" in out and "castling" in out, "castling rights without a rook were not refused")
    pgn = open(os.path.join(work, "c960.pgn")).read()
    check('[Variant "chess960"]' in pgn and '[FEN "bbqnn1kr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Kk - 0 1"]' in pgn
          and "1. O-O" in pgn, "the saved Chess960 game:\n%s" % pgn)


def scharnagl_back_rank(n):
    """White's back rank of Chess960 start position n (Scharnagl's numbering), written here
    independently of the engine: bishops, queen, knights, then rook-king-rook in the gaps."""
    rank = [None] * 8
    n, light = divmod(n, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    rank[[i for i in range(8) if rank[i] is None][queen]] = "Q"
    knights = ["NN---", "N-N--", "N--N-", "N---N", "-NN--", "-N-N-", "-N--N", "--NN-", "--N-N", "---NN"][n]
    for i, c in zip([i for i in range(8) if rank[i] is None], knights):
        if c == "N":
            rank[i] = "N"
    for i, c in zip([i for i in range(8) if rank[i] is None], "RKR"):
        rank[i] = c
    return "".join(rank)


def t_chess960_random(exe, work):
    """new960 without a number: a random start that is a valid Chess960 position
    (the one its number names), with every pawn move and some piece move legal,
    and a game that goes on (the saved PGN has the Variant and FEN tags)."""
    check(scharnagl_back_rank(518) == "RNBQKBNR" and scharnagl_back_rank(0) == "BBQNNRKR", "the numbering helper")
    script = "new960\nboard\nmoves\ndepth 2\nb4\nauto 6\nsave r960.pgn\n"
    run = run_([exe], input=script.encode(), cwd=work, capture_output=True)
    out = run.stdout.decode("utf-8", "replace")
    check(run.returncode == 0, "exit code %d" % run.returncode)
    m = re.search(r"^Chess960 start position (\d+)$", out, re.M)
    check(m, "new960 named no start position:\n%s" % out[:600])
    number = int(m.group(1))
    check(0 <= number <= 959, "start position %d out of 0..959" % number)
    rows = dict(re.findall(r"^  ([1-8])  ((?:\S ){7}\S)\s*$", out[m.end():], re.M)[:8])
    check(sorted(rows) == list("12345678"), "no board after new960:\n%s" % out[:900])
    white, black = rows["1"].replace(" ", ""), rows["8"].replace(" ", "")
    check(white == scharnagl_back_rank(number), "position %d shown as %s, not %s" % (number, white, scharnagl_back_rank(number)))
    check(black == white.lower(), "Black's back rank %s does not mirror White's %s" % (black, white))
    check(rows["2"] == "P P P P P P P P" and rows["7"] == "p p p p p p p p"
          and all(rows[r] == ". . . . . . . ." for r in "3456"), "pawns or the middle are wrong: %r" % rows)
    bishops = [i for i, p in enumerate(white) if p == "B"]
    check(len(bishops) == 2 and (bishops[0] + bishops[1]) % 2 == 1, "bishops on one colour: %s" % white)
    check(white.index("R") < white.index("K") < white.rindex("R"), "the king is not between the rooks: %s" % white)
    legal = re.search(r"Legal moves \((\d+)\):(.*(?:\n    .*)*)", out)
    check(legal, "no legal moves listed:\n%s" % out[-1500:])
    listed = legal.group(2).split()
    pawn_moves = {f + r for f in "abcdefgh" for r in "34"}
    check(len(listed) == int(legal.group(1)) and pawn_moves <= set(listed) and len(listed) > 16,
          "legal moves at the start: %r" % listed)
    check(re.search(r"^1\. b4\s*$", out, re.M) and re.search(r"^bachess plays 1\.\.\. \S+", out, re.M),
          "b4 was not played or not answered:\n%s" % out[-1500:])
    pgn = open(os.path.join(work, "r960.pgn")).read()
    fen = "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (black, white)
    check('[Variant "chess960"]' in pgn and '[FEN "%s"]' % fen in pgn, "the saved game's tags:\n%s" % pgn)
    plies = re.search(r'^\[PlyCount "(\d+)"\]$', pgn, re.M)
    check(plies and int(plies.group(1)) == 8, "8 plies (b4, a reply, auto 6) expected:\n%s" % pgn)
    movetext = re.sub(r"\d+\.+", " ", pgn.split("\n\n", 1)[1]).split()
    check(movetext[:1] == ["b4"] and len(movetext) == 9 and movetext[-1] == "*", "the moves saved: %r" % movetext)


def t_syzygy_path(exe, work):
    """set SyzygyPath=DIR loads the tables (the engine converts KRvK with the
    tables' score); a missing path is reported and the engine plays on."""
    tables = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syzygy")
    c = Console(exe, work)
    try:
        c.expect(rb"^bachess: type a move")
        out = c.command("set SyzygyPath=" + tables)
        check(re.search(r"SyzygyPath set to .*: tablebases: up to 4 pieces .*\(35 WDL files\)", out), out)
        c.command("fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1")
        c.command("post")
        c.command("depth 8")
        out = c.command("go")
        m = re.search(r"bachess plays 1\. (\S+) .*eval \+(\d+\.\d+)", out)
        check(m and float(m.group(2)) > 200, "KRvK with tables: no tablebase score:\n%s" % out)
        check(m.group(1) in ("Rd1", "Rd1+"), "KRvK: %s is not the tables' best move Rd1" % m.group(1))
        out = c.command("set SyzygyPath=" + os.path.join(work, "missing"))
        check(re.search(r"SyzygyPath set to .*missing: no tablebases .*No such file or directory: playing without them", out), out)
        out = c.command("go")
        m = re.search(r"bachess plays 1\.\.\. (K[a-h][1-8])", out)
        check(m, "no move after a missing SyzygyPath:\n%s" % out)
        rc = c.eof()
        check(rc == 0, "exit code %d" % rc)
    finally:
        c.close()


SCENARIOS = [t_short_game_illegal_move_undo, t_finished_games_in_pgn, t_ascii_board_and_pgn_options,
             t_bad_input_never_crashes, t_protocol_first_line_still_uci, t_chess960, t_chess960_random,
             t_syzygy_path]


@pytest.fixture
def exe():
    return os.path.abspath(os.environ.get("BACHESS", "./bachess"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.__name__ for scenario in SCENARIOS])
def test_console(scenario, exe):
    work = tempfile.mkdtemp(prefix="bachess-console-")
    start = time.monotonic()
    longest[0], longest[1] = 0.0, ""
    try:
        scenario(exe, work)
    except BaseException:
        print("files kept in %s" % work)
        raise
    print("%s: %.1f s; longest wait %.2f s: %s" % (scenario.__name__, time.monotonic() - start, longest[0], longest[1]))
    shutil.rmtree(work, ignore_errors=True)
