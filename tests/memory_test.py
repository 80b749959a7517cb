#!/usr/bin/env python3
"""memory_test.py — the engine's memory: the Hash option as resident memory,
and no leaks across whole games.

    BACHESS=./bachess BACHESS_SANITIZE=build/bachess-sanitize BACHESS_DEBUG=build/bachess-debug \
        python3 -m pytest tests/memory_test.py

BACHESS is the optimised build, BACHESS_SANITIZE the ASan + UBSan build and
BACHESS_VALGRIND a build valgrind can run (no AVX-512: the debug build).
pytest -k WORD runs only the scenarios whose name holds the word.

What is checked, and why:

* Hash is honoured exactly, as the operating system sees it. The table is
  allocated and cleared (every page touched) by `setoption name Hash`, so
  VmRSS (/proc/PID/status) after `isready` must exceed the RSS at Hash 1 by
  (N - 1) MiB, within RSS_TOLERANCE_MIB, going up (1 -> 512) and coming
  back down (memory must be returned, not kept by the allocator). A size
  refused as more than 3/4 of RAM must give an `info string` error, keep
  the old table (RSS unchanged) and leave an engine that still plays.
* No leaks across a game: the engine plays itself a whole game over UCI
  (`ucinewgame`, `position startpos moves ...`, `go nodes`, Hash and
  Threads changes, a `stop` during `go infinite`, `quit`) and over CECP
  (`new`, `go` for each side until the engine claims the result, `memory`
  changes, analysis left with `exit`, `quit`), once under valgrind memcheck
  (definitely, indirectly or possibly lost blocks and memory errors fail;
  "still reachable" globals such as the line buffer do not) and once under
  LeakSanitizer (exit code 0, no sanitizer report on stderr).

Prints PASS/FAIL per scenario, the RSS table and valgrind's leak summary;
the exit code is non-zero if anything failed. Only Python's standard library
is used (and the conformance harness next door).
"""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance"))
import harness  # noqa: E402
import pytest  # noqa: E402
from harness import HarnessError as Failure  # noqa: E402

MIB = 1024 * 1024
RSS_TOLERANCE_MIB = 2.0
REFUSED_HASH_MIB = 1 << 20          # the option's maximum: more than 3/4 of this machine's RAM
UCI_PLY_CAP = 160
CECP_PLY_CAP = 160
VALGRIND = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect,possible",
            "--errors-for-leak-kinds=definite,indirect,possible", "--error-exitcode=99",
            "--suppressions=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "valgrind.supp")]
SANITIZER_REPORT = re.compile(r"LeakSanitizer|ERROR:|runtime error")
CLAIM = re.compile(r"^(1-0|0-1|1/2-1/2) \{")
MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")


def check(condition, message):
    if not condition:
        raise Failure(message)


class Engine(harness.Engine):
    """harness.Engine plus the process's resident memory and, once it has
    ended, everything it wrote on stderr."""

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise Failure("no VmRSS in /proc/%d/status" % self.proc.pid)

    def stderr_text(self, timeout=10.0):
        """stderr, complete: call after the process has ended."""
        self._err_reader.join(timeout)
        with self._cond:
            return "\n".join(text for _, way, text in self.log if way == "!")

    def sync(self, timeout):
        self.send("isready")
        self.expect(r"^readyok$", timeout)


class session(harness.session):
    """harness.session for this Engine: the log goes with any failure."""

    def __enter__(self):
        self.eng = Engine(self.path, self.args)
        return self.eng


def mem_available_mib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    return 0


# ---- Hash as resident memory ------------------------------------------------

def set_hash(eng, mib):
    """Sets Hash and returns (the RSS in KiB once the engine is ready, the
    lines it sent meanwhile)."""
    mark = eng.mark()
    eng.send("setoption name Hash value %d" % mib)
    eng.sync(30)
    return eng.rss_kib(), eng.since(mark)


def hash_sizes():
    """1 (the base), up to 512 if there is room, down to 1 and up again; the
    refused size comes last, so that there is a table of some size to keep."""
    up = [1, 16, 64, 256] + ([512] if mem_available_mib() > 4096 else [])
    return up + [256, 16, 1, 64]


def t_hash_rss(exe):
    """RSS(N) - RSS(1) is (N - 1) MiB for each size set, raising and lowering;
    an allocation refused keeps the old table; the engine still plays."""
    rows, bad = [], []
    with session(exe) as eng:
        eng.send("uci")
        eng.expect(r"^uciok$", 10)
        base = None
        for mib in hash_sizes():
            rss, said = set_hash(eng, mib)
            check(not any(line.startswith("info string") for line in said),
                  "Hash %d: the engine complained: %r" % (mib, said))
            base = base if base is not None else rss
            delta = (rss - base) / 1024
            rows.append((str(mib), rss / 1024, delta, mib - 1))
            if abs(delta - (mib - 1)) > RSS_TOLERANCE_MIB:
                bad.append("Hash %d: RSS grew by %.2f MiB over Hash 1, expected %d +- %.0f"
                           % (mib, delta, mib - 1, RSS_TOLERANCE_MIB))
        last = hash_sizes()[-1]
        before = eng.rss_kib()
        rss, said = set_hash(eng, REFUSED_HASH_MIB)
        rows.append(("%d (refused)" % REFUSED_HASH_MIB, rss / 1024, (rss - base) / 1024, last - 1))
        print_rss_table(rows)
        check(any(re.match(r"info string error: .*%d" % REFUSED_HASH_MIB, line) for line in said),
              "no info string error for Hash %d: %r" % (REFUSED_HASH_MIB, said))
        check(abs(rss - before) / 1024 <= RSS_TOLERANCE_MIB,
              "the refused Hash changed RSS from %.1f to %.1f MiB" % (before / 1024, rss / 1024))
        check(not bad, "; ".join(bad))
        eng.send("position startpos")
        eng.send("go depth 6")
        m = eng.expect(r"^bestmove (\S+)", 60)
        check(MOVE.match(m.group(1)), "no move after the refused Hash: %r" % m.group(0))
        check(eng.quit("quit", 5) == 0, "exit code not 0")


def print_rss_table(rows):
    print("    %-18s %10s %12s %10s" % ("Hash MiB", "RSS MiB", "RSS-RSS(1)", "expected"))
    for name, rss, delta, expected in rows:
        print("    %-18s %10.2f %12.2f %10d" % (name, rss, delta, expected))


# ---- games under valgrind and LeakSanitizer ---------------------------------

def uci_game(eng, nodes, hash_mib, slow, work):
    """The engine plays itself over UCI until it has no move or UCI_PLY_CAP
    plies; on the way Hash and Threads change; then a `go infinite` is
    stopped. Returns (plies, how the game ended)."""
    timeout = 60 if slow else 20
    eng.send("uci")
    eng.expect(r"^uciok$", timeout)
    eng.send("setoption name Hash value %d" % hash_mib)
    eng.send("setoption name PGNLog value %s" % os.path.join(work, "uci.pgn"))
    eng.send("ucinewgame")
    eng.sync(timeout)
    moves = []
    while len(moves) < UCI_PLY_CAP:
        ply = len(moves)
        if ply == 40:
            eng.send("setoption name Hash value %d" % (hash_mib * 2))
        elif ply == 60:
            eng.send("setoption name Threads value 2")
        elif ply == 70:
            eng.send("setoption name Threads value 1")
        elif ply == 80:
            eng.send("setoption name Hash value 1")
            eng.send("setoption name Clear Hash")
        eng.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        eng.send("go nodes %d" % nodes)
        best = eng.expect(r"^bestmove (\S+)", timeout).group(1)
        if best in ("0000", "(none)"):
            break
        check(MOVE.match(best), "bestmove %r at ply %d" % (best, ply))
        moves.append(best)
    eng.send("ucinewgame")
    eng.send("setoption name Hash value %d" % hash_mib)
    eng.send("position startpos moves " + " ".join(moves[:6]) if moves else "position startpos")
    eng.send("go infinite")
    eng.expect(r"^info depth", timeout)
    time.sleep(0.2)
    eng.send("stop")
    eng.expect(r"^bestmove \S+", timeout)
    eng.sync(timeout)
    return len(moves), "no legal move" if len(moves) < UCI_PLY_CAP else "ply cap"


def cecp_game(eng, nodes, hash_mib, slow, work):
    """The engine plays itself over CECP (`go` for each side in turn) until
    it claims the result or CECP_PLY_CAP plies; `memory` changes on the way,
    a second `new`, and analysis left with `exit`. Returns (plies, claim)."""
    timeout = 60 if slow else 20
    eng.send("xboard")
    eng.send("protover 2")
    eng.expect(r"^feature .*done=1", timeout)
    eng.send("option PGNLog=%s" % os.path.join(work, "cecp.pgn"))
    eng.send("memory %d" % hash_mib)
    eng.send("new")
    eng.send("easy")
    eng.send("post")
    eng.send("st 1")
    eng.send("nps %d" % nodes)       # st 1 at nps N: N nodes a move
    plies, claim, serial = 0, None, 0
    while plies < CECP_PLY_CAP and claim is None:
        if plies == 40:
            eng.send("memory %d" % (hash_mib * 2))
        elif plies == 80:
            eng.send("memory 1")
        mark = eng.mark()            # before go: a claim right after the move is seen too
        eng.send("go")
        m = eng.expect(r"^(move \S+|(1-0|0-1|1/2-1/2) \{.*)$", timeout)
        if m.group(0).startswith("move"):
            plies += 1
        serial += 1
        eng.send("ping %d" % serial)
        eng.expect(r"^pong %d$" % serial, timeout)
        for line in eng.since(mark):
            if CLAIM.match(line):
                claim = line
    eng.send("force")
    eng.send("new")
    eng.send("memory %d" % hash_mib)
    eng.send("post")
    eng.send("analyze")
    eng.expect(r"^\s*\d+\s+-?\d+\s+\d+\s+\d+", timeout)   # a line of thinking output
    eng.send("exit")
    eng.send("ping 999999")
    eng.expect(r"^pong 999999$", timeout)
    return plies, claim or "ply cap"


def valgrind_summary(text):
    """The lines of valgrind's heap, leak and error summaries."""
    keep = re.compile(r"in use at exit|definitely lost|indirectly lost|possibly lost|still reachable"
                      r"|suppressed:|All heap blocks were freed|ERROR SUMMARY")
    return [re.sub(r"^==\d+==\s*", "", line) for line in text.splitlines() if keep.search(line)]


def run_game(exe, game, tool):
    """Plays `game` on `exe` under `tool` ("valgrind" or "lsan") and checks
    the verdict of the tool at the end."""
    slow = tool == "valgrind"
    check(not slow or shutil.which("valgrind"), "valgrind is not installed (scripts/install-test-deps.sh)")
    nodes, hash_mib = (1500, 4) if slow else (3000, 16)
    work = tempfile.mkdtemp(prefix="bachess-memory-")
    start = time.monotonic()
    path, args = (VALGRIND[0], VALGRIND[1:] + [exe]) if slow else (exe, ())
    with session(path, args) as eng:
        result = game(eng, nodes, hash_mib, slow, work)
        rc = eng.quit("quit", 90 if slow else 20)
        err = eng.stderr_text()
        if slow:
            summary = valgrind_summary(err)
            for line in summary:
                print("    " + line)
            check(any("ERROR SUMMARY: 0 errors" in line for line in summary),
                  "valgrind found errors:\n" + err[-6000:])
            check(rc == 0, "exit code %d under valgrind (99: leaks or errors):\n%s" % (rc, err[-6000:]))
        else:
            report = SANITIZER_REPORT.search(err)
            check(not report, "sanitizer report on stderr:\n" + err[-6000:])
            check(rc == 0, "exit code %d under the sanitizer build:\n%s" % (rc, err[-6000:]))
    pgn = os.path.join(work, "uci.pgn" if game is uci_game else "cecp.pgn")
    check(os.path.exists(pgn) and "[Event " in open(pgn).read(), "no game in the PGN log %s" % pgn)
    shutil.rmtree(work, ignore_errors=True)
    print("    %s: %d plies (%s), %.1f s" % (game.__name__, result[0], result[1], time.monotonic() - start))


SCENARIOS = [
    ("hash_rss", lambda exes: t_hash_rss(exes[0])),
    ("lsan_uci_game", lambda exes: run_game(exes[1], uci_game, "lsan")),
    ("lsan_cecp_game", lambda exes: run_game(exes[1], cecp_game, "lsan")),
    ("valgrind_uci_game", lambda exes: run_game(exes[2], uci_game, "valgrind")),
    ("valgrind_cecp_game", lambda exes: run_game(exes[2], cecp_game, "valgrind")),
]


@pytest.fixture(scope="module")
def exes():
    """The optimised build, the sanitizer build, the valgrind (debug) build."""
    os.environ["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=1").lstrip(":")
    return [os.path.abspath(os.environ[name]) for name in ("BACHESS", "BACHESS_SANITIZE", "BACHESS_DEBUG")]


@pytest.mark.parametrize("name, scenario", SCENARIOS, ids=[name for name, _ in SCENARIOS])
def test_memory(name, scenario, exes):
    scenario(exes)
