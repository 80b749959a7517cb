"""enginedriver.py — a chess engine process driven through its pipes, line
by line: the one driver of the tests (tests/, tests/conformance/) and of the
scripts that drive an engine themselves (scripts/annotate-judge.py,
scripts/annotate-fit.py, scripts/time-iterations.py, scripts/engine-speed.py).

Standard library only. Scripts import it from their own folder; tests from
scripts/ (tests/conftest.py puts it on the path).

    eng = Engine(path, args=(), prefix=("wine",), eol="\r\n", env=..., timeout=20)
                                     start the engine (stdin/stdout/stderr
                                     pipes, each read by a thread of its own)
    eng.send("xboard")               send one line (eol added)
    eng.send_raw(b"...")             send raw bytes (CRLF tests, huge lines)
    m = eng.expect(r"^pong 1$", 2)   wait up to 2 s for a line matching the
                                     regex; returns the re.Match; raises
                                     HarnessError on timeout or engine exit
                                     (timeout None: until the engine ends)
    lines = eng.until(r"^bestmove")  the lines up to and with the first match
                                     (within `timeout` s when not told)
    eng.expect_none(r"^move", 0.5)   no matching line for 0.5 s (raises); with
                                     sync=("ping 5", r"^pong 5$") none up to
                                     that reply either (ordering, not timing)
    lines = eng.collect(1.0)         every line that arrives in 1 s
    eng.mark() / eng.since(mark)     every line received since a mark
    eng.lines_text()                 every line received so far
    eng.alive()                      is the process still running
    rc = eng.quit("quit", 1.0)       send the line, return the exit code
                                     (raises if not gone within the deadline;
                                     `quit_timeout` when not told)
    rc = eng.close_stdin(1.0)        close stdin, return the exit code
    eng.kill()                       cleanup (always safe): waits for the
                                     readers, which close their own pipes
    eng.min_wait = 10.0              expect() waits at least this long

The engine's own clock (ConnTrace, src/protocol/output.c), for bounds on its
time management that the driver's scheduling must not move:
    eng.start_trace("setoption name ConnTrace value {}")   (XBoard: "option ConnTrace={}")
    i = eng.trace_mark()             index into the trace, before a command
    ms, j = eng.latency(i, r"^go", r"^bestmove")   engine ms, command read -> reply written
    eng.trace_find(i, "<", r"^stop$")              (index, engine ms, text)
    eng.pickup(i, r"^isready$")      ms the line waited in the pipe unread
    eng.span                         (from, to) engine ms of the last two: what
                                     scripts/freezewatch.py is asked about

    uci = UciEngine(path, ("Hash value 64",))   an engine over UCI, options set
    uci.command("go nodes 1000", until="bestmove")   the lines, split in words
    sf = Stockfish()                 /usr/games/stockfish ($STOCKFISH)
    sf.legal_moves(fen, moves=())    set of coordinate moves (perft 1): the
                                     legality oracle
    sf.fen(fen, moves=())            the FEN after the moves (`d`)
    sf.search(position, nodes)       (score, best move): the judge
    sf.close()

Every line both ways is kept in eng.log (time, direction, text) and dumped
on failure.
"""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

# Mate on the centipawn scale, as the engine keeps scores: ±(MATE - plies to mate)
# (scripts/annotate-judge.py reads its marks on this scale).
MATE = 100000


class HarnessError(AssertionError):
    pass


# Which engine's reader owns each pipe descriptor now: a reader
# closes its own stream at end of input and nobody else closes it, so a
# descriptor number can only come back in a new pipe once its reader has
# ended. A new engine whose pipe has a number still held here means one was
# closed under a live reader, which could then read (steal) the new
# engine's output: HarnessError at once instead of a missing line later.
_FD_OWNERS = {}
_FD_LOCK = threading.Lock()

# Liveness limit of kill(): a killed engine's readers end at end of input,
# at once unless another process (a child) still holds the pipe.
READER_JOIN_S = 10.0

# The engine's own clock: ConnTrace lines carry CLOCK_MONOTONIC in ms
# (src/timer.h), the clock of time.monotonic(), so the two compare directly.
TRACE_LINE = re.compile(r"^(-?\d+) ([<>]) (.*)$")


class Engine:
    def __init__(self, path=None, args=(), name="engine", prefix=(), env=None, eol="\n", timeout=2.0,
                 quit_timeout=1.0):
        """`prefix`: what runs the engine (("wine",)); `eol`: what ends each
        line sent; `timeout`: how long until() waits when not told;
        `quit_timeout`: how long quit() waits when not told. The path, when
        not given: $BACHESS, then ./bachess."""
        self.path = path or os.environ.get("BACHESS", "./bachess")
        self.name = name
        self.eol = eol
        self.timeout = timeout
        self.quit_timeout = quit_timeout
        self.t0 = time.monotonic()
        self.log = []
        self.lines = []          # every line received, in order: (time, text)
        self._read = 0           # index of the next line expect() looks at
        self._cond = threading.Condition()
        self._eof = False
        self.trace_path = None   # ConnTrace file, once start_trace() has set one
        self.min_wait = 0.0      # expect() waits at least this long (a liveness floor)
        self.written = None      # now() when the last send_raw's write had returned
        self.trace = []          # its entries so far: (engine ms, "<" or ">", text)
        self.span = None         # (from, to) engine ms of the last latency() or pickup()
        self._trace_pos = 0
        self.proc = subprocess.Popen([*prefix, self.path, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     bufsize=0, env=env)
        with _FD_LOCK:
            mine = [self.proc.stdin.fileno(), self.proc.stdout.fileno(), self.proc.stderr.fileno()]
            taken = {fd: _FD_OWNERS[fd] for fd in mine if fd in _FD_OWNERS}
            for fd in mine:
                _FD_OWNERS[fd] = self
        if taken:
            self.proc.kill()
            raise HarnessError("harness defect: descriptors %r of the new engine's pipes are still held by the "
                               "reader of %r: a pipe was closed under a live reader" % (sorted(taken), taken))
        self._reader = threading.Thread(target=self._read_loop, args=(self.proc.stdout,), daemon=True)
        self._reader.start()
        self._err_reader = threading.Thread(target=self._stderr_loop, args=(self.proc.stderr,), daemon=True)
        self._err_reader.start()

    @staticmethod
    def _release(stream):
        """Closes a pipe and gives its descriptor number back; only the
        thread that reads (or writes) the stream calls this."""
        try:
            fd = stream.fileno()
        except (OSError, ValueError):
            return
        with _FD_LOCK:
            _FD_OWNERS.pop(fd, None)
            try:
                stream.close()
            except OSError:
                pass

    # ---- background readers ------------------------------------------
    def _read_loop(self, stream):
        """Reads `stream` (the engine's stdout) to its end, then closes it.
        It reads through the stream object, never a cached descriptor
        number, and no other thread closes the stream."""
        buf = b""
        while True:
            try:
                chunk = stream.read(65536)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                text = raw.decode("utf-8", "replace")
                now = time.monotonic() - self.t0
                with self._cond:
                    self.lines.append((now, text))
                    self.log.append((now, "<", text))
                    self._cond.notify_all()
        self._release(stream)
        with self._cond:
            if buf:
                now = time.monotonic() - self.t0
                self.lines.append((now, buf.decode("utf-8", "replace")))
                self.log.append((now, "<", "(no newline) " + buf.decode("utf-8", "replace")))
            self._eof = True
            self._cond.notify_all()

    def _stderr_loop(self, stream):
        try:
            for raw in iter(stream.readline, b""):
                with self._cond:
                    self.log.append((time.monotonic() - self.t0, "!", raw.decode("utf-8", "replace").rstrip()))
        except (OSError, ValueError):
            pass
        self._release(stream)

    # ---- the engine's own clock (ConnTrace) ----------------------------
    def start_trace(self, command):
        """Turns the engine's protocol trace on: `command` with {} for the
        path, e.g. "setoption name ConnTrace value {}" (UCI) or
        "option ConnTrace={}" (XBoard). Every line the engine reads is
        then logged "<ms> < line" when it is handled, every line it writes
        "<ms> > line" just after it was written (src/protocol/output.c)."""
        fd, self.trace_path = tempfile.mkstemp(prefix="bachess-conntrace-", suffix=".log")
        os.close(fd)
        self.send(command.format(self.trace_path))

    def trace_entries(self):
        """The trace entries so far (re-read from the file)."""
        if self.trace_path is None:
            raise HarnessError("no ConnTrace set (start_trace)")
        try:
            with open(self.trace_path, "rb") as f:
                f.seek(self._trace_pos)
                data = f.read()
        except OSError as e:
            raise HarnessError("cannot read the ConnTrace file: %s" % e)
        end = data.rfind(b"\n") + 1          # complete lines only
        self._trace_pos += end
        for raw in data[:end].split(b"\n")[:-1]:
            m = TRACE_LINE.match(raw.decode("utf-8", "replace"))
            if m:
                self.trace.append((int(m.group(1)), m.group(2), m.group(3)))
        return self.trace

    def trace_mark(self):
        """An index into the trace: the trace_find()s after it see only the
        entries from there on."""
        return len(self.trace_entries())

    def trace_find(self, start, direction, pattern, timeout=10.0):
        """The first trace entry from index `start` on in `direction` ("<"
        read, ">" written) whose text matches `pattern`: (index, ms, text).
        The engine writes its trace line just after the line itself, so the
        harness may have the line before the entry: this waits for it (a
        liveness limit, `timeout` s)."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            entries = self.trace_entries()
            for i in range(start, len(entries)):
                ms, way, text = entries[i]
                if way == direction and rx.search(text):
                    return i, ms, text
            if time.monotonic() > deadline:
                raise HarnessError("no %r entry matching /%s/ in the ConnTrace after index %d within %s s"
                                   % (direction, pattern, start, timeout))
            time.sleep(0.005)

    def latency(self, start, command, reply, timeout=10.0):
        """Engine ms from reading the first line matching `command` (from
        trace index `start` on) to writing the first line after it that
        matches `reply`: its own latency, free of the harness's
        scheduling. Returns (ms, index of the reply's entry)."""
        i, t_in, _ = self.trace_find(start, "<", command, timeout)
        j, t_out, _ = self.trace_find(i + 1, ">", reply, timeout)
        self.span = (t_in, t_out)
        return t_out - t_in, j

    def pickup(self, start, command, timeout=10.0):
        """ms from the harness's last write having returned (self.written)
        to the engine handling the first line matching `command` from trace
        index `start` on: how long the line waited unread, which only the
        engine's input handling (and its threads' scheduling) decides."""
        _, ms, _ = self.trace_find(start, "<", command, timeout)
        self.span = (self.engine_ms(self.written), ms)
        return ms - self.engine_ms(self.written)

    def engine_ms(self, harness_time):
        """A harness time (seconds since start, as now() and the line
        arrival times) on the engine's ms clock."""
        return (self.t0 + harness_time) * 1000.0

    # ---- sending -------------------------------------------------------
    def now(self):
        return time.monotonic() - self.t0

    def send(self, line):
        self.send_raw((line + self.eol).encode())
        with self._cond:
            self.log.append((self.now(), ">", line if len(line) < 200 else line[:200] + "..."))

    def send_raw(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as e:
            raise HarnessError(f"cannot write to engine: {e}")
        self.written = self.now()   # the write has returned: the line is in the pipe

    # ---- receiving -----------------------------------------------------
    def mark(self):
        with self._cond:
            return len(self.lines)

    def since(self, mark):
        with self._cond:
            return [text for _, text in self.lines[mark:]]

    def lines_text(self):
        """Every line received so far."""
        with self._cond:
            return [text for _, text in self.lines]

    def since_timed(self, mark):
        with self._cond:
            return list(self.lines[mark:])

    def skip_to_end(self):
        """expect() will only look at lines that arrive from now on."""
        with self._cond:
            self._read = len(self.lines)

    def expect(self, pattern, timeout=2.0, skip=True):
        """Waits for a line matching `pattern` (from the last expect on).
        Lines before it are passed over (skip=True) or fail (skip=False)."""
        rx = re.compile(pattern)
        timeout = None if timeout is None else max(timeout, self.min_wait)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                while self._read < len(self.lines):
                    text = self.lines[self._read][1]
                    self._read += 1
                    m = rx.search(text)
                    if m:
                        return m
                    if not skip:
                        raise HarnessError(f"expected /{pattern}/, got {text!r}")
                if self._eof:
                    raise HarnessError(f"engine closed its output while waiting for /{pattern}/")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise HarnessError(f"no line matching /{pattern}/ within {timeout} s")
                self._cond.wait(left)

    def until(self, pattern, timeout=None):
        """The lines (from the last expect or until on, each without a
        trailing CR) up to and with the first one matching `pattern`, within
        `timeout` s (self.timeout when not told)."""
        timeout = self.timeout if timeout is None else timeout
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        got = []
        with self._cond:
            while True:
                while self._read < len(self.lines):
                    got.append(self.lines[self._read][1].rstrip("\r"))
                    self._read += 1
                    if rx.search(got[-1]):
                        return got
                if self._eof:
                    raise HarnessError(f"the engine's output ended before /{pattern}/; last lines {got[-5:]}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise HarnessError(f"no /{pattern}/ within {timeout} s; last lines {got[-5:]}")
                self._cond.wait(left)

    def expect_time(self, pattern, timeout=2.0):
        """Like expect(), but returns (match, arrival time)."""
        m = self.expect(pattern, timeout)
        with self._cond:
            return m, self.lines[self._read - 1][0]

    def expect_none(self, pattern, duration, sync=None):
        """Fails if a line matching `pattern` arrives within `duration`;
        with `sync` = (command, reply pattern), e.g. ("ping 5", "^pong 5$"),
        it then sends the command and waits for its reply (a liveness
        wait), and no line before the reply may match either: as the engine
        handles its input in order, that tests what the commands before
        did, however slow the machine; the window adds what comes later."""
        rx = re.compile(pattern)
        start = self.mark()
        time.sleep(duration)
        if sync:
            self.send(sync[0])
            self.expect(sync[1], 10.0)
            with self._cond:            # up to the reply, without it
                got = [text for _, text in self.lines[start:self._read - 1]]
        else:
            got = self.since(start)
        for text in got:
            if rx.search(text):
                raise HarnessError(f"unexpected line {text!r}")
        with self._cond:
            self._read = max(self._read, start)

    def collect(self, duration):
        start = self.mark()
        time.sleep(duration)
        return self.since(start)

    # ---- life and death ----------------------------------------------
    def alive(self):
        return self.proc.poll() is None

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise HarnessError(f"engine still running {timeout} s after being told to quit")

    def quit(self, line="quit", timeout=None):
        self.send(line)
        return self.wait_exit(self.quit_timeout if timeout is None else timeout)

    def close_stdin(self, timeout=1.0):
        self._release(self.proc.stdin)
        return self.wait_exit(timeout)

    def kill(self):
        """Ends the engine (if it still runs) and waits for its readers to
        end at end of input: they close their own pipes, so a pipe is never
        closed under a thread that may still read it (its number would come
        back in the next engine's pipes and the old reader would steal the
        new engine's lines: the 'no uciok within 10 s' once seen)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for reader in (self._reader, self._err_reader):
            reader.join(READER_JOIN_S)
        stuck = [r.name for r in (self._reader, self._err_reader) if r.is_alive()]
        if stuck:
            # Left open (never closed under a reader); the reader closes it when it ends.
            print("harness: %s: readers %s still running %s s after the engine ended (a child holds its pipes?)"
                  % (self.name, stuck, READER_JOIN_S), file=sys.stderr, flush=True)
        try:
            self._release(self.proc.stdin)
        except OSError:
            pass
        if self.trace_path:
            try:
                os.unlink(self.trace_path)
            except OSError:
                pass

    def dump(self, limit=80):
        with self._cond:
            entries = self.log[-limit:]
        return "\n".join(f"    {t:8.3f} {d} {s[:300]}" for t, d, s in entries)


def mate_score(value):
    """A UCI `score mate N` in centipawns: mate 0, the side to move is
    mated; mate -N, it is mated in N."""
    return MATE - (2 * value - 1) if value > 0 else -(MATE - 2 * -value)


class UciEngine:
    """An engine over UCI with `options` set ("Hash value 64", ...), its
    replies awaited without a deadline: a search ends when it ends, and an
    engine that ends fails the wait at once."""

    def __init__(self, path, options=(), name=None, timeout=None):
        self.eng = Engine(path, name=name or os.path.basename(path))
        self.timeout = timeout
        self.command("uci", until="uciok")
        for option in options:
            self.command("setoption name " + option)
        if options:
            self.command("isready", until="readyok")

    def command(self, text, until=None, timeout=()):
        """Sends `text` (lines); with `until`, the lines up to the one
        starting with that word, each split in words, within `timeout` s
        (None: until the engine ends; not told: self.timeout)."""
        self.eng.skip_to_end()
        for line in text.split("\n"):
            self.eng.send(line)
        if not until:
            return []
        timeout = self.timeout if timeout == () else timeout
        rx = r"^%s\b" % re.escape(until)
        lines = self.eng.until(rx, timeout) if timeout is not None else self._until_end(rx)
        return [line.split() for line in lines]

    def _until_end(self, pattern):
        """until() without a deadline: the lines up to a match, or the
        engine's end (an error)."""
        first = self.eng._read
        self.eng.expect(pattern, None)
        with self.eng._cond:
            return [text.rstrip("\r") for _, text in self.eng.lines[first:self.eng._read]]

    def new_game(self):
        self.command("ucinewgame")
        self.command("isready", until="readyok")

    def close(self):
        try:
            self.eng.quit("quit", 10)
        except HarnessError:
            pass
        self.eng.kill()


class Stockfish(UciEngine):
    """Debian's stockfish: the legality oracle (`go perft 1` lists every
    legal move as `e2e4: 1`), the FEN after some moves (`d`) and the judge's
    searches."""

    PATH = "/usr/games/stockfish"
    # The judge's settings (scripts/annotate-judge.py).
    JUDGE_OPTIONS = ("Hash value 64", "Threads value 1", "UCI_LimitStrength value false")

    def __init__(self, path=None, chess960=False, options=(), timeout=5):
        """With `chess960`, stockfish's UCI_Chess960: castling is listed
        king-takes-rook (e1h1), the only form it then accepts. `timeout`:
        the wait for an answer (None: until stockfish ends, as the judge
        waits)."""
        super().__init__(path or os.environ.get("STOCKFISH", self.PATH), options, name="stockfish", timeout=timeout)
        if chess960:
            self.command("setoption name UCI_Chess960 value true")

    @staticmethod
    def position(fen=None, moves=()):
        pos = "position " + ("startpos" if fen in (None, "startpos") else "fen " + fen)
        return pos + (" moves " + " ".join(moves) if moves else "")

    def legal_moves(self, fen=None, moves=()):
        lines = self.command(self.position(fen, moves) + "\ngo perft 1", until="Nodes")
        return {words[0][:-1] for words in lines if len(words) == 2 and re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?:$",
                                                                                  words[0])}

    def fen(self, fen=None, moves=()):
        self.command(self.position(fen, moves) + "\nd")
        return self.eng.expect(r"^Fen: (.*)$", 5).group(1)

    def search(self, position, nodes):
        """(score from the side to move, best move or None) of a position
        ("startpos ..." or "fen ..."), searched to `nodes`: the last score
        that is not a bound."""
        score = None
        lines = self.command("position " + position + "\ngo nodes %d" % nodes, until="bestmove", timeout=None)
        for words in lines[:-1]:
            if "score" in words and "lowerbound" not in words and "upperbound" not in words:
                kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                score = value if kind == "cp" else mate_score(value)
        bestmove = lines[-1]
        best = bestmove[1] if len(bestmove) > 1 and bestmove[1] != "(none)" else None
        return score, best
