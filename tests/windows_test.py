#!/usr/bin/env python3
"""tests/windows_test.py — the Windows build (bachess.exe, cross-built with
mingw-w64) under Debian's wine:

    BACHESS_EXE=bachess.exe BACHESS=./bachess WINDOWS_WORK=DIR python3 -m pytest tests/windows_test.py

  - the bench's node count equals the Linux build's;
  - UCI with CRLF line ends: uci, isready, position ... moves, go depth (the
    same best move as the Linux build: one thread, a fixed depth), go
    movetime, go infinite + stop, bad input, quit (exit status 0);
  - Windows paths: EvalFile and BookFile as C:\\..., SyzygyPath as a list
    separated by ';' whose folders have drive letters;
  - the hash table resized up and down, cleared and searched, then quit,
    with wine's heap warnings on: no block freed by the wrong function;
  - XBoard: protover 2 and a few moves;
  - the end of input and Ctrl-C end the engine; output lines end in LF
    alone; the CPU check's one-line refusal.

Wine's prefix goes to WINDOWS_WORK/wine (created by the first run). No figure of
speed is asserted; every wait is a bound on an engine that hangs, far above
what it takes (docs/results/building.md gives the measured times).
"""
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from checklist import check
from enginedriver import Engine

# The first run of wine in a new prefix sets the prefix up: 6 s measured on
# the 2-core test machine idle; the bound allows for a loaded one.
PREFIX_SETUP_S = 300
# A command answered by the engine at once (uciok, readyok) takes wine's
# start-up at most: 1.4 s measured.
ANSWER_S = 60
# A search bounded by depth or time: 8 plies take well under a second.
SEARCH_S = 120


def windows_path(unix_path):
    """The path as a Windows program under wine sees it: drive Z: is /."""
    return "Z:" + os.path.abspath(unix_path).replace("/", "\\")


class WineEngine(Engine):
    """bachess.exe under wine, sent lines ending in CR LF as on Windows."""

    def __init__(self, exe, env, timeout=ANSWER_S):
        super().__init__(exe, prefix=("wine",), env=env, eol="\r\n", timeout=timeout, quit_timeout=10)


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def bench_nodes(cmd, env):
    out = subprocess.run(cmd + ["bench"], capture_output=True, text=True, env=env, timeout=900).stdout
    match = re.match(r"(\d+) nodes", last_line(out))
    return int(match.group(1)) if match else None


def best_move_at_depth(engine, depth, moves):
    """The search's move, not the book's; the answer is waited for (the end
    of input would stop the search)."""
    engine.send("setoption name OwnBook value false")
    engine.send(f"position startpos moves {moves}")
    engine.send(f"go depth {depth}")
    return engine.until(r"^bestmove", SEARCH_S)[-1].split()[1]


def uci_scenarios(exe, linux, env, work):
    e = WineEngine(exe, env)
    e.send("uci")
    lines = e.until(r"^uciok")
    check(any(line.startswith("id name bachess") for line in lines), "uci: id name, then uciok (CRLF input)")
    e.send("isready")
    e.until(r"^readyok")
    check(True, "isready: readyok")

    moves = "e2e4 e7e5 g1f3"
    got = best_move_at_depth(e, 8, moves)
    native = Engine(linux, timeout=SEARCH_S, quit_timeout=10)
    native.send("uci")
    want = best_move_at_depth(native, 8, moves)
    native.quit()
    check(got == want, f"position ... moves, go depth 8: bestmove {got}, the Linux build's {want}")

    e.send("position startpos")
    e.send("go movetime 300")
    lines = e.until(r"^bestmove", SEARCH_S)
    check(re.match(r"^bestmove [a-h][1-8][a-h][1-8]", lines[-1]) is not None, "go movetime 300: a bestmove")

    e.send("go infinite")
    e.until(r"^info depth", SEARCH_S)
    e.send("stop")
    lines = e.until(r"^bestmove", SEARCH_S)
    check(re.match(r"^bestmove [a-h][1-8][a-h][1-8]", lines[-1]) is not None, "go infinite, stop: a bestmove")

    for bad in ["position fen nonsense", "position startpos moves e2e5", "go depth x", "setoption name Hash value -3",
                "\x00\x01garbage", "", "position"]:
        e.send(bad)
    e.send("isready")
    e.until(r"^readyok")
    check(e.proc.poll() is None, "bad input: still answering isready")

    # Windows paths: drive letters, backslashes; ';' between Syzygy folders.
    drive_c = os.path.join(env["WINEPREFIX"], "drive_c")
    os.makedirs(os.path.join(drive_c, "nets"), exist_ok=True)
    shutil.copy("nets/default.nnue", os.path.join(drive_c, "nets", "x.nnue"))
    os.makedirs(os.path.join(drive_c, "books"), exist_ok=True)
    book = os.path.join(drive_c, "books", "small.bin")
    subprocess.run([linux, "book", "build", "data/annotate/blunder-games.pgn", "-o", book, "--min-games", "1",
                    "--quiet"], check=True, capture_output=True, timeout=120)
    for option, value in [("EvalFile", r"C:\nets\x.nnue"), ("BookFile", r"C:\books\small.bin")]:
        e.send(f"setoption name {option} value {value}")
        e.send("isready")
        lines = e.until(r"^readyok")
        errors = [line for line in lines if "error" in line]
        check(not errors, f"{option} {value}: accepted {errors}")
    e.send(r"setoption name EvalFile value C:\nets\missing.nnue")
    e.send("isready")
    lines = e.until(r"^readyok")
    check(any("missing.nnue" in line for line in lines), "EvalFile C:\\nets\\missing.nnue: refused, named")
    e.send("setoption name BookFile value <empty>")
    tables = windows_path("data/syzygy")
    e.send(f"setoption name SyzygyPath value C:\\no-such-folder;{tables}")
    e.send("isready")
    lines = e.until(r"^readyok", SEARCH_S)
    check(any(re.search(r"tablebases: up to \d pieces", line) for line in lines),
          f"SyzygyPath C:\\no-such-folder;{tables}: tables found")
    e.send("position fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1")
    e.send("go depth 4")
    lines = e.until(r"^bestmove", SEARCH_S)
    check(any(" tbhits " in line and not re.search(r" tbhits 0\b", line) for line in lines),
          "a tablebase position: tbhits counted")

    e.send("quit")
    try:
        status = e.proc.wait(timeout=ANSWER_S)
    except subprocess.TimeoutExpired:
        e.proc.kill()
        status = None
    check(status == 0, f"quit: exit status {status}")


# Hash sizes in MiB, up and down: from 2 MiB on the table is aligned to 2 MiB
# (huge pages), below that to 64 bytes, so both kinds of block are freed.
HASH_SIZES_MB = [1, 64, 2, 128, 16]
# What wine writes to standard error when a program misuses its heap or
# crashes: warn:heap names a block freed by the wrong function (free() on
# _aligned_malloc's memory), which otherwise passes silently.
WINE_TROUBLE = re.compile(r":heap:|err:|Unhandled|page fault")


def hash_resizing(exe, env):
    """Every resize frees the old table and quit frees the last: each must
    be freed by the function matching its allocation (_aligned_free)."""
    heap_checked = dict(env, WINEDEBUG="-all,err+heap,warn+heap,err+seh")
    e = WineEngine(exe, heap_checked)
    e.send("uci")
    e.until(r"^uciok")
    answered = []
    for mb in HASH_SIZES_MB:
        e.send(f"setoption name Hash value {mb}")
        e.send("position startpos moves e2e4")
        e.send("go depth 6")
        lines = e.until(r"^bestmove", SEARCH_S)
        e.send("setoption name Clear Hash")
        e.send("isready")
        e.until(r"^readyok")
        if re.match(r"^bestmove [a-h][1-8][a-h][1-8]", lines[-1]):
            answered.append(mb)
    check(answered == HASH_SIZES_MB, f"Hash {HASH_SIZES_MB} MiB in turn, Clear Hash: a bestmove at {answered}")
    e.send("quit")
    try:
        status = e.proc.wait(timeout=ANSWER_S)
    except subprocess.TimeoutExpired:
        status = None
    e.kill()  # ends it if it still runs, and reads its stderr to the end
    trouble = [text for _, way, text in e.log if way == "!" and WINE_TROUBLE.search(text)]
    check(status == 0 and not trouble, f"resized, cleared, quit: exit status {status}, wine's heap warnings {trouble}")


def xboard_scenario(exe, env):
    e = WineEngine(exe, env)
    e.send("xboard")
    e.send("protover 2")
    lines = e.until(r"^feature .*done=1")
    check(any("myname=" in line for line in lines), "xboard, protover 2: features, done=1")
    e.send("new")
    e.send("st 1")
    e.send("sd 6")
    for move in ["e2e4", "d2d4"]:
        e.send(f"usermove {move}")
        lines = e.until(r"^move ", SEARCH_S)
        check(re.match(r"^move [a-h][1-8][a-h][1-8]", lines[-1]) is not None, f"usermove {move}: {lines[-1]}")
    e.send("quit")
    check(e.proc.wait(timeout=ANSWER_S) == 0, "xboard quit: exit status 0")


def end_of_input(exe, env):
    p = subprocess.run(["wine", exe], input=b"uci\r\nisready\r\n", capture_output=True, env=env, timeout=ANSWER_S)
    check(b"readyok" in p.stdout and p.returncode == 0, f"end of input: the engine ends, status {p.returncode}")
    check(b"\r" not in p.stdout, "output lines end in LF alone (a runner on Linux reads them as moves)")


def ctrl_c(exe, env):
    """Wine hands a SIGINT to a console program as Windows's Ctrl-C event."""
    e = WineEngine(exe, env)
    e.send("uci")
    e.until(r"^uciok")
    e.send("go infinite")
    e.until(r"^info depth", SEARCH_S)
    e.proc.send_signal(signal.SIGINT)
    try:
        status = e.proc.wait(timeout=ANSWER_S)
    except subprocess.TimeoutExpired:
        e.proc.kill()
        status = None
    check(status is not None, f"Ctrl-C during go infinite: the engine ends (status {status})")


def cpu_refusal(exe, env):
    refused = dict(env, BACHESS_CPU_PRETEND_MISSING="avx2,popcnt,sse4.2")
    p = subprocess.run(["wine", exe, "bench"], capture_output=True, text=True, env=refused, timeout=ANSWER_S)
    lines = [line for line in (p.stdout + p.stderr).splitlines() if line.strip()]
    check(p.returncode == 1 and len(lines) == 1 and "CPU" in lines[0],
          f"a CPU without what the build needs: one line, status 1: status {p.returncode}, "
          f"stdout {p.stdout!r}, stderr {p.stderr!r}")


@pytest.fixture(scope="module")
def wine():
    """(bachess.exe, the Linux build, wine's environment, the work folder),
    the wine prefix made or brought up to date."""
    exe, linux, work = (os.path.abspath(os.environ[name]) for name in ("BACHESS_EXE", "BACHESS", "WINDOWS_WORK"))
    env = dict(os.environ, WINEPREFIX=os.path.join(work, "wine"), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    start = time.monotonic()
    subprocess.run(["wineboot", "--init"], env=env, capture_output=True, timeout=PREFIX_SETUP_S)
    subprocess.run(["wineserver", "--wait"], env=env, capture_output=True, timeout=PREFIX_SETUP_S)
    print(f"wine prefix ready in {time.monotonic() - start:.1f} s ({env['WINEPREFIX']})", flush=True)
    return exe, linux, env, work


def test_bench_as_linux(wine):
    exe, linux, env, _ = wine
    nodes, want = bench_nodes(["wine", exe], env), bench_nodes([linux], os.environ)
    check(nodes is not None and nodes == want, f"bench: {nodes} nodes, the Linux build's {want}")


def test_uci(wine):
    exe, linux, env, work = wine
    uci_scenarios(exe, linux, env, work)


def test_hash_resizing(wine):
    hash_resizing(wine[0], wine[2])


def test_xboard(wine):
    xboard_scenario(wine[0], wine[2])


def test_end_of_input(wine):
    end_of_input(wine[0], wine[2])


def test_ctrl_c(wine):
    ctrl_c(wine[0], wine[2])


def test_cpu_refusal(wine):
    cpu_refusal(wine[0], wine[2])
