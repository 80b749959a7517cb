#!/usr/bin/env python3
"""freezewatch_test.py — scripts/freezewatch.py, which measures how long
the machine's CPUs stood still (make script-tests).

Checks:
  - the union of stops inside a time span, on intervals written here:
    overlapping and nested stops count once, parts outside the span not
    at all;
  - a real stop: a watcher held by SIGSTOP for 300 ms is reported as
    having stood still for the whole of that time, and nothing is counted
    beyond the span asked about.
"""
import os
import signal
import time

from checklist import check
from freezewatch import FreezeWatch, union_within

HELD_S = 0.3


def wait_stopped(pid):
    """Until the kernel shows `pid` stopped (state T): SIGSTOP takes effect
    when the process is next scheduled, not when kill() returns. A
    liveness limit of 10 s."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with open("/proc/%d/stat" % pid) as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "T":
                return
        time.sleep(0.001)
    raise AssertionError("watcher %d not stopped 10 s after SIGSTOP" % pid)


def test_union_within_a_span():
    check(union_within([], 0, 100) == 0, "no stops: 0 ms")
    check(union_within([(10, 20), (15, 30)], 0, 100) == 20, "overlapping stops count once")
    check(union_within([(10, 50), (20, 30)], 0, 100) == 40, "a stop inside another counts once")
    check(union_within([(-50, 10), (90, 200)], 0, 100) == 20, "only the parts inside the span count")
    check(union_within([(100, 200), (-10, 0)], 0, 100) == 0, "stops that only touch the span count 0")
    check(union_within([(60, 70), (10, 20)], 0, 100) == 20, "stops in any order")


def test_a_held_watcher_is_a_stop():
    watch = FreezeWatch()
    try:
        victim = watch.pids()[0]
        os.kill(victim, signal.SIGSTOP)
        wait_stopped(victim)
        held_from = time.monotonic() * 1000.0
        time.sleep(HELD_S)
        held_to = time.monotonic() * 1000.0
        os.kill(victim, signal.SIGCONT)
        frozen = watch.frozen_ms(held_from, held_to)
        span = held_to - held_from
        # The watcher stood still from before held_from to after held_to,
        # so all of the span is frozen; 0.01 ms for the three decimals the
        # watcher prints.
        check(abs(frozen - span) < 0.01, "a watcher held %.0f ms: %.1f ms stood still in that span"
              % (span, frozen))
        check(span >= HELD_S * 1000, "held at least %.0f ms (%.0f)" % (HELD_S * 1000, span))
    finally:
        watch.close()
