#!/usr/bin/env python3
"""package_protocols.py ENGINE — the installed engine (the Debian package's
/usr/games/bachess) answers both protocols and completes a short search in
each: UCI `uci` -> `uciok`, `go depth 5` -> `bestmove`; XBoard `xboard`,
`protover 2` -> `feature ... done=1`, `sd 5` + `go` on a
middlegame -> thinking at depth 5 and `move`. Prints what
it saw; exit 1 on a missing answer (the engine's traffic is dumped).

Every wait is WAIT seconds. Measured worst case over 300 runs of this check
with `stress-ng --cpu 2` on both cores of the 2-core test machine (load
average up to 22 with other work): 0.45 s for uciok, 0.15 s to depth 5,
0.48 s for the features, 0.11 s to XBoard depth 5. 60 s leaves a hundred
times that, for a slower or busier machine: the test is no speed measure.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance"))
from harness import Engine, HarnessError  # noqa: E402

WAIT = 60.0


def finish(eng):
    """Quits the engine and waits for the harness's reader thread to see the
    end of its output before eng.kill() closes the pipes. (Closing them while
    the thread is between fileno() and read() lets it read from whatever
    pipe gets the number next: the next engine's, whose lines then vanish.
    Seen once in about 100 runs under load.)"""
    rc = eng.quit("quit", WAIT)
    if rc != 0:
        raise HarnessError(f"exit code {rc} after quit")
    eng._reader.join(WAIT)


def timed(eng, pattern, what):
    start = time.monotonic()
    match = eng.expect(pattern, WAIT)
    print(f"package-protocols: {what}: {match.group(0)!r} after {time.monotonic() - start:.2f} s")
    return match


def converse(path, conversation):
    """Starts the engine, runs `conversation` with it and quits it; the
    engine's traffic is printed when an answer is missing."""
    eng = Engine(path)
    try:
        conversation(eng)
        finish(eng)
    except HarnessError:
        print(eng.lines_text())
        raise
    finally:
        eng.kill()


def uci(eng):
    eng.send("uci")
    timed(eng, r"^uciok$", "uci")
    eng.send("isready")
    timed(eng, r"^readyok$", "isready")
    eng.send("position startpos moves e2e4 e7e5")
    eng.send("go depth 5")
    timed(eng, r"^info depth 5 .* pv ", "go depth 5: depth 5 reached")
    timed(eng, r"^bestmove [a-h][1-8][a-h][1-8][qrbn]?( ponder \S+)?$", "go depth 5")


def xboard(eng):
    eng.send("xboard")
    eng.send("protover 2")
    timed(eng, r"^feature .*\bdone=1\b", "protover 2")
    # A middlegame out of the book, so that the move comes from a search.
    eng.send("new")
    eng.send("force")
    eng.send("setboard r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2Q1RK1 w - - 3 10")
    eng.send("sd 5")
    eng.send("post")
    eng.send("go")
    timed(eng, r"^ *5 +-?\d+ +\d+ +\d+ ", "sd 5, go: thinking at depth 5")
    timed(eng, r"^move [a-h][1-8][a-h][1-8][qrbn]?$", "sd 5, go")
    eng.send("ping 7")
    timed(eng, r"^pong 7$", "ping 7")


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    try:
        converse(argv[1], uci)
        converse(argv[1], xboard)
    except HarnessError as e:
        print(f"package-protocols: FAIL: {e}")
        return 1
    print("package-protocols: ok (UCI and XBoard answered, a depth-5 search in each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
