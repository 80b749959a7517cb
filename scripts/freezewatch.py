#!/usr/bin/env python3
"""freezewatch.py — how long the machine's CPUs stood still, for tests that
hold the engine to a time limit on its own clock.

A virtual machine's CPU can stop for a while without its kernel knowing:
the host runs something else on it, or throttles the machine for using
more than its CPU quota. The engine's clock runs on meanwhile, so a search
that was frozen 100 ms writes its bestmove 100 ms late, with no defect of
its own. Seen on a 2-core machine with both cores busy: single CPUs
stopped for 100, 200 and 300 ms, each stop ending on the same 100 ms grid
(the host's scheduling period); with one core busy, none in 30 s.

A watcher is one process per CPU, pinned to it, that sleeps 5 ms at a time
and reports every wake-up more than GAP_MS after the one before, longer
than the machine's own scheduling keeps it waiting: while it did not run,
the CPU stood still, and any process on it waited as long. Both it and the
engine's ConnTrace read CLOCK_MONOTONIC (time.monotonic()), so their times
compare directly.

    watch = FreezeWatch()            # starts the watchers
    watch.frozen_ms(t_in, t_out)     # ms of [t_in, t_out] (monotonic ms)
                                     # in which some CPU stood still
    watch.close()

The engine may run on any CPU and move between them, so frozen_ms() counts
a moment in which any CPU stood still; a test takes those ms out of a time
that is over its bound (TimeBounds in tests/conformance/harness.py).

Run as `freezewatch.py --cpu N` it is one watcher (what FreezeWatch starts).
Standard library only.
"""
import argparse
import os
import subprocess
import sys
import threading
import time

# A wake-up this much later than the last one is a stop. The machine's own
# scheduling kept a 1 ms sleeper waiting at most 48 ms (two games, two
# niced self-play workers and the watchers on two CPUs); the host's stops
# are 100 ms and more.
GAP_MS = 50.0
HEARTBEAT_MS = 20.0   # a watcher reports that it runs at least this often
# A stop is measured from the last wake-up before it to the first after it,
# so up to this much of a reported stop may be time the watcher slept; 5 ms
# against stops of 100 ms, at about 1 % of a CPU a watcher.
SLEEP_S = 0.005
# Liveness limit of frozen_ms()'s wait for every watcher to have run past
# the interval's end: a stop is only reported when the watcher runs again.
# The longest stop seen was 549 ms.
CATCH_UP_S = 10.0


def watch_cpu(cpu, out=sys.stdout):
    """The watcher's loop (never returns): "G start end" for each stop,
    "A now" as a heartbeat, both monotonic ms."""
    os.sched_setaffinity(0, {cpu})
    last = beat = time.monotonic() * 1000.0
    out.write("A %.3f\n" % last)
    out.flush()
    while True:
        time.sleep(SLEEP_S)
        now = time.monotonic() * 1000.0
        if now - last > GAP_MS:
            out.write("G %.3f %.3f\n" % (last, now))
        if now - beat >= HEARTBEAT_MS or now - last > GAP_MS:
            out.write("A %.3f\n" % now)
            out.flush()
            beat = now
        last = now


def union_within(intervals, start, end):
    """The length of the union of `intervals` ((a, b) pairs) inside [start, end]."""
    clipped = sorted((max(a, start), min(b, end)) for a, b in intervals if b > start and a < end)
    total, reach = 0.0, start
    for a, b in clipped:
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total


class FreezeWatch:
    """A watcher on each CPU this process may run on, started and running
    once the constructor returns; close() ends them."""

    def __init__(self):
        self._cond = threading.Condition()
        self._gaps = []
        self._alive = {}
        self._procs = []
        self._readers = []
        for cpu in sorted(os.sched_getaffinity(0)):
            proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--cpu", str(cpu)],
                                    stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
            reader = threading.Thread(target=self._read, args=(cpu, proc.stdout), daemon=True)
            self._alive[cpu] = -1.0           # until its first report
            self._procs.append(proc)
            self._readers.append(reader)
            reader.start()
        self._wait_alive(0.0, "start")

    def _wait_alive(self, since, what):
        """Until every watcher has reported that it ran at or after `since`
        (monotonic ms); RuntimeError if one does not within CATCH_UP_S."""
        deadline = time.monotonic() + CATCH_UP_S
        with self._cond:
            while min(self._alive.values()) < since:
                left = deadline - time.monotonic()
                if left <= 0 or any(p.poll() is not None for p in self._procs):
                    raise RuntimeError("freezewatch: a watcher did not %s within %.0f s" % (what, CATCH_UP_S))
                self._cond.wait(min(left, 0.1))

    def _read(self, cpu, stream):
        for line in stream:
            kind, *values = line.split()
            with self._cond:
                if kind == "G":
                    self._gaps.append((float(values[0]), float(values[1])))
                elif kind == "A":
                    self._alive[cpu] = float(values[0])
                self._cond.notify_all()
        stream.close()

    def frozen_ms(self, start, end):
        """ms of [start, end] (monotonic ms) in which some CPU stood still.
        Waits until every watcher has run past `end`, so that a stop still
        going on at `end` is counted; RuntimeError if one does not within
        CATCH_UP_S."""
        self._wait_alive(end, "run past %.0f ms" % end)
        with self._cond:
            return union_within(self._gaps, start, end)

    def pids(self):
        """The watchers' process ids, one a CPU."""
        return [proc.pid for proc in self._procs]

    def close(self):
        for proc in self._procs:
            proc.kill()
            proc.wait()
        for reader in self._readers:
            reader.join()


def main():
    parser = argparse.ArgumentParser(description="One watcher: reports when CPU N stood still (the tests "
                                                 "start one a CPU through the FreezeWatch class).")
    parser.add_argument("--cpu", type=int, required=True, help="the CPU to watch")
    args = parser.parse_args()
    try:
        watch_cpu(args.cpu)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
