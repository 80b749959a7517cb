"""harness.py — drives a chess engine binary through pipes, for the
protocol conformance scenarios (cecp_test.py, uci_test.py).

Standard library only. The shared API:

    eng = Engine(path)               start the engine (stdin/stdout pipes)
    eng.send("xboard")               send one line ("\n" added)
    eng.send_raw(b"...")             send raw bytes (CRLF tests, huge lines)
    m = eng.expect(r"^pong 1$", 2)   wait up to 2 s for a line matching the
                                     regex; returns the re.Match; raises
                                     HarnessError on timeout or engine exit
    eng.expect_none(r"^move", 0.5)   no matching line for 0.5 s (raises); with
                                     sync=("ping 5", r"^pong 5$") none up to
                                     that reply either (ordering, not timing)
    lines = eng.collect(1.0)         every line that arrives in 1 s
    eng.mark() / eng.since(mark)     every line received since a mark
    eng.lines_text()                 every line received so far
    eng.alive()                      is the process still running
    rc = eng.quit("quit", 1.0)       send the line, return the exit code
                                     (raises if not gone within the deadline)
    rc = eng.close_stdin(1.0)        close stdin, return the exit code
    eng.kill()                       cleanup (always safe): waits for the
                                     readers, which close their own pipes
    eng.min_wait = 10.0              expect() waits at least this long

The engine's own clock (ConnTrace, src/protocol/output.c), for bounds on its
time management that the harness's scheduling must not move:
    eng.start_trace("setoption name ConnTrace value {}")   (XBoard: "option ConnTrace={}")
    i = eng.trace_mark()             index into the trace, before a command
    ms, j = eng.latency(i, r"^go", r"^bestmove")   engine ms, command read -> reply written
    eng.trace_find(i, "<", r"^stop$")              (index, engine ms, text)
    eng.pickup(i, r"^isready$")      ms the line waited in the pipe unread

    sf = Stockfish()                 /usr/games/stockfish as legality oracle
    sf.legal_moves(fen, moves=())    set of coordinate moves (perft 1)
    sf.close()

    run_scenarios(list_of_(name, fn)) runs each fn(), prints one line per
                                     scenario and "N passed, N failed";
                                     returns the process exit status.

    nets = eval_files(directory)     NNUE files for the EvalFile option,
                                     made from nets/default.nnue (see there)

Every line both ways is kept in eng.log (time, direction, text) and dumped
on failure.  The engine path comes from the first command-line argument,
then $BACHESS, then ./bachess (engine_path()).
"""
import os
import queue
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DEFAULT_NET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nets", "default.nnue")
# A middlegame for the fixed searches of the EvalFile scenarios.
EVAL_FEN = "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2Q1RK1 w - - 3 10"


class HarnessError(AssertionError):
    pass


def eval_files(directory):
    """Writes network files for the EvalFile option into `directory`, made
    from nets/default.nnue (docs/nnue.md: "BACHNNUE", eight little-endian
    u32 header fields -- version, inputs, hidden, activation, qa, qb, scale,
    FNV-1a checksum of the weights -- then the weights, the output bias last).
    Returns {kind: (path, the words the engine's refusal must contain)}:
    missing, truncated, corrupt (a weight byte flipped: checksum mismatch),
    architecture (769 inputs) -- each refused -- and two it must accept:
    valid (a byte-for-byte copy) and shifted (the output bias moved, the
    checksum made right again: a usable net that evaluates differently)."""
    with open(DEFAULT_NET, "rb") as f:
        net = f.read()
    header = 40
    inputs = struct.unpack_from("<I", net, 12)[0]

    def checksum(data):
        h = 2166136261
        for byte in data[header:]:
            h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
        return h

    if net[:8] != b"BACHNNUE" or struct.unpack_from("<I", net, 36)[0] != checksum(net):
        raise HarnessError("nets/default.nnue is not a BACHNNUE file with a good checksum: the format changed?")
    corrupt = bytearray(net)
    corrupt[header + 1000] ^= 0x55
    architecture = bytearray(net)
    struct.pack_into("<I", architecture, 12, inputs + 1)
    shifted = bytearray(net)
    struct.pack_into("<i", shifted, len(net) - 4, struct.unpack_from("<i", net, len(net) - 4)[0] + 8160)
    struct.pack_into("<I", shifted, 36, checksum(shifted))
    unusable = "not a usable network: "
    files = {"truncated": (net[:len(net) // 2], [unusable, "bytes of weights, the header asks for", "truncated"]),
             "corrupt": (bytes(corrupt), [unusable, "checksum mismatch"]),
             "architecture": (bytes(architecture),
                              [unusable, "%d inputs, the architecture has %d" % (inputs + 1, inputs)]),
             "valid": (net, None),
             "shifted": (bytes(shifted), None)}
    nets = {"missing": (os.path.join(directory, "missing.nnue"), ["cannot open", "No such file or directory"])}
    for kind, (data, words) in files.items():
        path = os.path.join(directory, kind + ".nnue")
        with open(path, "wb") as f:
            f.write(data)
        nets[kind] = (path, words)
    return nets


def engine_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    return os.environ.get("BACHESS", "./bachess")


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
    def __init__(self, path=None, args=(), name="engine"):
        self.path = path or engine_path()
        self.name = name
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
        self._trace_pos = 0
        self.proc = subprocess.Popen([self.path, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     bufsize=0)
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
        return t_out - t_in, j

    def pickup(self, start, command, timeout=10.0):
        """ms from the harness's last write having returned (self.written)
        to the engine handling the first line matching `command` from trace
        index `start` on: how long the line waited unread, which only the
        engine's input handling (and its threads' scheduling) decides."""
        _, ms, _ = self.trace_find(start, "<", command, timeout)
        return ms - self.engine_ms(self.written)

    def engine_ms(self, harness_time):
        """A harness time (seconds since start, as now() and the line
        arrival times) on the engine's ms clock."""
        return (self.t0 + harness_time) * 1000.0

    # ---- sending -------------------------------------------------------
    def now(self):
        return time.monotonic() - self.t0

    def send(self, line):
        self.send_raw((line + "\n").encode())
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
        timeout = max(timeout, self.min_wait)
        deadline = time.monotonic() + timeout
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
                left = deadline - time.monotonic()
                if left <= 0:
                    raise HarnessError(f"no line matching /{pattern}/ within {timeout} s")
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

    def quit(self, line="quit", timeout=1.0):
        self.send(line)
        return self.wait_exit(timeout)

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


class Stockfish:
    """Debian's stockfish as the legality oracle: `go perft 1` lists every
    legal move as `e2e4: 1`."""

    PATH = "/usr/games/stockfish"

    def __init__(self, path=None, chess960=False):
        """With `chess960`, stockfish's UCI_Chess960: castling is listed
        king-takes-rook (e1h1), the only form it then accepts."""
        self.eng = Engine(path or os.environ.get("STOCKFISH", self.PATH), name="stockfish")
        self.eng.send("uci")
        self.eng.expect(r"^uciok", 5)
        if chess960:
            self.eng.send("setoption name UCI_Chess960 value true")

    def legal_moves(self, fen=None, moves=()):
        pos = "position " + ("startpos" if fen is None else "fen " + fen)
        if moves:
            pos += " moves " + " ".join(moves)
        self.eng.skip_to_end()
        self.eng.send(pos)
        self.eng.send("go perft 1")
        result = set()
        while True:
            text = self.eng.expect(r"^([a-h][1-8][a-h][1-8][qrbn]?: \d+|Nodes searched)", 5).group(0)
            if text.startswith("Nodes searched"):
                return result
            result.add(text.split(":")[0])

    def close(self):
        try:
            self.eng.quit("quit", 2)
        except HarnessError:
            pass
        self.eng.kill()


def run_scenarios(scenarios, title="scenarios"):
    """Runs (name, fn) pairs; fn raises on failure. Prints one line per
    scenario and a summary; returns 0 if all passed, else 1."""
    passed = failed = 0
    t_all = time.monotonic()
    for name, fn in scenarios:
        t = time.monotonic()
        try:
            fn()
            passed += 1
            print(f"PASS  {name}  ({time.monotonic() - t:.2f} s)", flush=True)
        except Exception as e:  # noqa: BLE001 — report every kind of failure
            failed += 1
            print(f"FAIL  {name}  ({time.monotonic() - t:.2f} s): {e}", flush=True)
            dumps = getattr(e, "engine_dump", None)
            if dumps:
                print(dumps, flush=True)
            elif not isinstance(e, HarnessError):
                traceback.print_exc()
    print(f"{title}: {passed} passed, {failed} failed ({time.monotonic() - t_all:.1f} s)", flush=True)
    return 0 if failed == 0 else 1


class session:
    """`with session(path) as eng:` starts an engine, attaches its log to any
    failure, and always kills it at the end."""

    def __init__(self, path=None, args=()):
        self.path, self.args = path, args

    def __enter__(self):
        self.eng = Engine(self.path, self.args)
        return self.eng

    def __exit__(self, kind, value, tb):
        if value is not None and isinstance(value, Exception):
            value.engine_dump = self.eng.dump()
        self.eng.kill()
        return False
