"""harness.py — what the protocol conformance scenarios (cecp_test.py,
uci_test.py) and the memory and package tests share beyond the engine
driver itself (scripts/enginedriver.py: Engine, Stockfish, HarnessError,
re-exported here):

    with session(path) as eng:       an engine whose log is attached to any
                                     failure, always killed at the end
    nets = eval_files(directory)     NNUE files for the EvalFile option,
                                     made from nets/default.nnue (see there)
    times = TimeBounds()             bounds on the engine's own time:
    times.check(eng, ms, limit, what)  HarnessError unless met
    check(condition, message)        a scenario's assertion: HarnessError
    measures = Measurements()        the worst time of each kind, and the
    measures.add(kind, value)        scenario that saw it (.print())
    engine_path()                    $BACHESS, then ./bachess

Standard library only.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from enginedriver import Engine, HarnessError, Stockfish, UciEngine  # noqa: E402,F401
from freezewatch import FreezeWatch  # noqa: E402

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DEFAULT_NET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nets", "default.nnue")
# A middlegame for the fixed searches of the EvalFile scenarios.
EVAL_FEN = "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2Q1RK1 w - - 3 10"


def eval_files(directory):
    """Writes network files for the EvalFile option into `directory`, made
    from nets/default.nnue (src/nnue/network.h: "BACHNNUE", eight
    little-endian u32 header fields -- version, inputs, hidden, activation,
    qa, qb, scale, FNV-1a checksum of the payload -- and from version 2 on
    one more field a version, then the weights, the output biases last, one
    an output bucket; the bucket count is the field after the checksum).
    Returns {kind: (path, the words the engine's refusal must contain)}:
    missing, truncated, corrupt (a weight byte flipped: checksum mismatch),
    architecture (769 inputs) -- each refused -- and two it must accept:
    valid (a byte-for-byte copy) and shifted (the output bias moved, the
    checksum made right again: a usable net that evaluates differently)."""
    with open(DEFAULT_NET, "rb") as f:
        net = f.read()
    version = struct.unpack_from("<I", net, 8)[0]
    header = 40 + 4 * (version - 1)  # each version adds one u32 field
    inputs = struct.unpack_from("<I", net, 12)[0]
    buckets = struct.unpack_from("<I", net, 40)[0] if version >= 2 else 1

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
    for bias_at in range(len(net) - 4 * buckets, len(net), 4):  # every bucket's, so any position moves
        struct.pack_into("<i", shifted, bias_at, struct.unpack_from("<i", net, bias_at)[0] + 8160)
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
    return os.environ.get("BACHESS", "./bachess")


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


def check(condition, message):
    """A scenario's assertion: HarnessError(message) unless `condition`."""
    if not condition:
        raise HarnessError(message)


class Measurements:
    """The worst value of each kind of time a run measured, and the scenario
    that saw it: the figures behind a bound's comment (UCI_MEASURE=1,
    CECP_MEASURE=1 print them at the end of a run)."""

    def __init__(self):
        self.worst = {}        # kind -> (worst value, scenario)
        self.scenario = ""     # the scenario running, set by the suite

    def add(self, kind, value):
        if kind not in self.worst or value > self.worst[kind][0]:
            self.worst[kind] = (value, self.scenario)

    def print(self):
        for kind, (value, where) in sorted(self.worst.items()):
            print("measured  %-44s %9.3f  (scenario %s)" % (kind, value, where))


class TimeBounds:
    """Bounds on the engine's time, measured on its own clock (ConnTrace),
    held on the time the machine ran. A virtual machine's CPU can stand
    still while the engine's clock runs on: on the shared 2-core machine,
    with both cores busy, single CPUs stopped for 100 to 549 ms at a time
    (scripts/freezewatch.py). Those ms are not the engine's."""

    def __init__(self):
        self.watch = FreezeWatch()

    def check(self, eng, ms, limit, message, below=False):
        """HarnessError unless `ms`, timed over eng.span (the engine's last
        latency() or pickup()), is at most `limit` (under it with `below`)
        once the ms of the span in which a CPU stood still are taken out.
        Within the bound, the watchers are not asked."""
        def meets(time_ms):
            return time_ms < limit if below else time_ms <= limit

        if meets(ms):
            return
        frozen = self.watch.frozen_ms(*eng.span)
        ok = meets(ms - frozen)
        print("    %s: %.0f ms over the bound of %.0f ms; a CPU stood still %.0f ms of the time: %s"
              % (message, ms - limit, limit, frozen, "not the engine's" if ok else "the engine's"), flush=True)
        if not ok:
            raise HarnessError("%s (a CPU of the machine stood still %.0f ms of it)" % (message, frozen))

    def close(self):
        self.watch.close()
