#!/usr/bin/env python3
"""web_server_test.py — the server of `bachess web` (issue 16) under bad and
heavy use, with any build (run once optimised, once with ASan/UBSan):

  0. engine options from the command line (--threads, --hash, --syzygy):
     a bad value stops it with exit 2, the tables given are probed;
  1. the page and its assets are served; any other path is 404, path
     traversal in plain and percent-encoded forms included;
  2. a foreign Origin or Host is refused (403), for commands and events;
  0b. it listens on 127.0.0.1 only by default (/proc/net/tcp); with
     --bind 0.0.0.0 on every address, and then a Host naming an address of
     this machine's interfaces is served, a DNS name or another address not;
  3. commands outside the page's subset (quit, options naming files,
     control characters, `go perft`, which could not be stopped) are
     refused (400), oversized bodies too (413); after `go perft 8` the
     engine still answers `isready` at once;
  3b. the rate limit is per client: one that floods gets 429s while
     another's `isready` is still answered;
  4. 200 concurrent event streams are served at once, and connections
     beyond the limit are not served (they wait in the backlog);
  5. 10,000 messages from 8 senders, a third of them garbage, paced over
     30 s while the 200 streams listen: then a fresh page still gets
     `readyok` to `isready`, and the resident memory stays under
     RSS_BOUND_MB (under AddressSanitizer, run with a small quarantine:
     ASAN_OPTIONS=quarantine_size_mb=8, whose shadow memory is extra);
  6. a connection idle for 30 s is closed;
  7. SIGTERM stops it cleanly (exit 0; the sanitizers report nothing).

    python3 tests/web_server_test.py ./bachess
"""
import http.client
import os
import random
import re
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time

RSS_BOUND_MB = 160
STREAMS = 200
MESSAGES = 10000
FLOOD_SECONDS = 30
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def request(port, method, path, body=b"", headers=None, timeout=10, address="127.0.0.1"):
    """A raw HTTP/1.1 request (no client-side path normalisation); (status, body)."""
    head = {"Host": f"127.0.0.1:{port}", "Connection": "close", "Content-Length": str(len(body))}
    head.update(headers or {})
    data = f"{method} {path} HTTP/1.1\r\n".encode() + b"".join(
        f"{k}: {v}\r\n".encode() for k, v in head.items()) + b"\r\n" + body
    with socket.create_connection((address, port), timeout=timeout) as s:
        s.sendall(data)
        reply = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
    m = re.match(rb"HTTP/1\.[01] (\d+)", reply)
    return (int(m.group(1)) if m else 0), reply.split(b"\r\n\r\n", 1)[-1]


class EventStream:
    """An open /events connection. All streams are read by one thread (READER): a thread per
    stream would have 200 Python threads fight for the interpreter lock during the flood,
    and the test client, not the server, would set the pace."""

    def __init__(self, port, origin=None):
        self.lines, self.partial = [], b""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        extra = f"Origin: {origin}\r\n" if origin else ""
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n".encode())
        self.sock.setblocking(False)
        READER.add(self)

    def receive(self):
        """Called by READER when the socket is readable; False once the stream has ended."""
        try:
            chunk = self.sock.recv(65536)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        *complete, self.partial = (self.partial + chunk).split(b"\n")
        self.lines += [line.decode(errors="replace").rstrip("\r") for line in complete]
        return True

    def wait_for(self, text, seconds):
        end = time.time() + seconds
        while time.time() < end:
            if any(text in line for line in self.lines):
                return True
            time.sleep(0.05)
        return False

    def close(self):
        READER.remove(self)
        self.sock.close()


class StreamReader:
    """One thread that reads every open EventStream (epoll)."""

    def __init__(self):
        self.selector, self.lock = selectors.DefaultSelector(), threading.Lock()
        threading.Thread(target=self.run, daemon=True).start()

    def add(self, stream):
        with self.lock:
            self.selector.register(stream.sock, selectors.EVENT_READ, stream)

    def remove(self, stream):
        with self.lock:
            try:
                self.selector.unregister(stream.sock)
            except (KeyError, ValueError):
                pass

    def run(self):
        while True:
            for key, _ in self.selector.select(0.05):
                with self.lock:
                    if key.fileobj.fileno() < 0 or self.selector.get_map().get(key.fileobj) is not key:
                        continue
                    if not key.data.receive():
                        self.selector.unregister(key.fileobj)


READER = StreamReader()


def listening_addresses(port):
    """The local IPv4 addresses (hex, as in /proc/net/tcp) of the sockets listening on `port`."""
    found = []
    with open("/proc/net/tcp") as f:
        for row in f.read().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, hexport = local.split(":")
            if state == "0A" and int(hexport, 16) == port:
                found.append(address)
    return found


def local_addresses():
    """This machine's IPv4 addresses other than 127.0.0.0/8 (/proc/net/fib_trie)."""
    found, last = set(), None
    with open("/proc/net/fib_trie") as f:
        for row in f:
            m = re.match(r"\s*\|-- (\d+\.\d+\.\d+\.\d+)", row)
            if m:
                last = m.group(1)
            elif "/32 host LOCAL" in row and last and not last.startswith("127."):
                found.add(last)
    return sorted(found)


def rate_limit_per_client(port):
    """One client floods; another's isready is still answered."""
    calm = EventStream(port)
    time.sleep(0.5)
    statuses, refused, stop = {}, threading.Event(), threading.Event()

    def flooder():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        end = time.time() + 6
        while time.time() < end and not stop.is_set():
            conn.request("POST", "/command", b"position startpos", {"X-Bachess-Session": "flooder"})
            r = conn.getresponse()
            r.read()
            statuses[r.status] = statuses.get(r.status, 0) + 1
            if r.status == 429:
                refused.set()
        conn.close()

    thread = threading.Thread(target=flooder)
    start = time.time()
    thread.start()
    refused.wait(5)
    status, _ = request(port, "POST", "/command", b"isready", {"X-Bachess-Session": "calm"})
    asked = time.time()
    answered = calm.wait_for("data: readyok", 2)
    waited = time.time() - asked
    time.sleep(0.5)  # the flood goes on a little after the answer
    stop.set()
    thread.join()
    seconds = time.time() - start
    calm.close()
    check(refused.is_set() and statuses.get(200, 0) <= 100 * (int(seconds) + 2),
          f"a client flooding for {seconds:.1f} s is refused beyond 100 commands a second: {statuses}")
    check(status == 200 and answered, f"meanwhile another client's isready is accepted ({status}) and answered "
          f"({'readyok' if answered else 'nothing'} after {waited:.2f} s)")


def bind_checks(engine):
    """Loopback by default; --bind 0.0.0.0 everywhere, with the Host names that it accepts."""
    port = free_port()
    server = subprocess.Popen([engine, "web", "--port", str(port)], stdout=subprocess.PIPE, text=True)
    server.stdout.readline()
    check(listening_addresses(port) == ["0100007F"], f"by default it listens on 127.0.0.1 only "
          f"(/proc/net/tcp: {listening_addresses(port)})")
    others = local_addresses()
    if others:
        status, _ = request(port, "GET", "/", headers={"Host": f"{others[0]}:{port}"})
        check(status == 403, f"bound to loopback, a Host naming {others[0]} is refused: {status}")
    server.terminate()
    server.wait(timeout=30)
    server.stdout.close()

    port = free_port()
    server = subprocess.Popen([engine, "web", "--port", str(port), "--bind", "0.0.0.0"], stdout=subprocess.PIPE,
                              text=True)
    server.stdout.readline()
    check(listening_addresses(port) == ["00000000"], f"--bind 0.0.0.0 listens on every address "
          f"(/proc/net/tcp: {listening_addresses(port)})")
    for host, expected in [(f"127.0.0.1:{port}", 200), (f"localhost:{port}", 200), (f"0.0.0.0:{port}", 200),
                           (f"rebound.example:{port}", 403), (f"203.0.113.77:{port}", 403),
                           (f"127.0.0.1:{port + 1}", 403)] + [(f"{a}:{port}", 200) for a in others]:
        status, _ = request(port, "GET", "/", headers={"Host": host})
        check(status == expected, f"--bind 0.0.0.0, Host {host}: {status} (expected {expected})")
    if others:
        status, _ = request(port, "POST", "/command", b"isready", {"Host": f"{others[0]}:{port}",
                                                                    "Origin": f"http://{others[0]}:{port}"},
                            address=others[0])
        check(status == 200, f"--bind 0.0.0.0, a page at http://{others[0]}:{port}/ may send commands: {status}")
    else:
        print("skip  no address but loopback: the Host of an interface address is not tried")
    server.terminate()
    server.wait(timeout=30)
    server.stdout.close()


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


GARBAGE = [b"quit", b"setoption name SyzygyPath value /", b"setoption name EvalFile value /etc/passwd",
           b"setoption name PGNLog value /tmp/x", b"\x00\x01\x02", b"go\x1b[2J", b"", b"uci", b"xboard",
           b"position fen not/a/fen w - - 0 1", b"position startpos moves e2e5 zz", b"go depth -7",
           b"setoption name Hash value 99999999999", "ü".encode() * 50, b"stop stop stop"]
VALID = [b"isready", b"position startpos moves e2e4", b"go depth 2", b"stop", b"ucinewgame",
         b"setoption name MultiPV value 2", b"setoption name MultiPV value 1"]


def flood(port, count, seed, refused, seconds):
    """`count` messages from one sender (a session of its own), paced evenly over `seconds`."""
    rng = random.Random(seed)
    start = time.time()
    for i in range(count):
        time.sleep(max(0.0, start + i * seconds / count - time.time()))
        if rng.random() < 1 / 3:
            body = rng.choice(GARBAGE) if rng.random() < 0.8 else bytes(rng.randrange(256) for _ in range(5000))
        else:
            body = rng.choice(VALID)
        try:
            status, _ = request(port, "POST", "/command", body, {"X-Bachess-Session": f"sender{seed}"})
            refused[status] = refused.get(status, 0) + 1
        except OSError:
            refused["error"] = refused.get("error", 0) + 1


def main(engine):
    port = free_port()
    bad = subprocess.run([engine, "web", "--port", str(port), "--threads", "0"], capture_output=True, text=True,
                         timeout=30)
    check(bad.returncode == 2 and "Threads" in bad.stderr, f"--threads 0 refused: exit {bad.returncode}, "
          f"{bad.stderr.strip()[:80]!r}")
    tables = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syzygy")
    bind_checks(engine)
    server = subprocess.Popen([engine, "web", "--port", str(port), "--hash", "32", "--threads", "2", "--syzygy", tables],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = server.stdout.readline()
    check(f"http://127.0.0.1:{port}/" in first, f"prints its address: {first.strip()!r}")

    # 1. Assets and paths.
    for path in ("/", "/assets/app.js", "/assets/app.css", "/assets/pieces/standard.svg"):
        status, body = request(port, "GET", path)
        check(status == 200 and len(body) > 100, f"GET {path}: {status}, {len(body)} bytes")
    for path in ("/../etc/passwd", "/assets/../../etc/passwd", "/%2e%2e/etc/passwd", "/assets/%2E%2E/%2e%2e/etc/passwd",
                 "/..%2fetc%2fpasswd", "/assets/..%5c..%5cetc/passwd", "/index.html/../../etc/passwd", "/nothing",
                 "/assets/", "//etc/passwd"):
        status, body = request(port, "GET", path)
        check(status == 404 and b"root:" not in body, f"GET {path}: {status}")

    # 2. Foreign Origin and Host.
    status, _ = request(port, "POST", "/command", b"isready", {"Origin": "http://evil.example"})
    check(status == 403, f"POST /command from a foreign Origin: {status}")
    status, _ = request(port, "GET", "/events", headers={"Origin": "http://evil.example"}, timeout=5)
    check(status == 403, f"GET /events from a foreign Origin: {status}")
    status, _ = request(port, "GET", "/", headers={"Host": f"rebound.example:{port}"})
    check(status == 403, f"a foreign Host (DNS rebinding): {status}")
    status, _ = request(port, "POST", "/command", b"isready", {"Origin": f"http://127.0.0.1:{port}"})
    check(status == 200, f"POST /command from its own Origin: {status}")

    # 3. Commands outside the subset, oversized bodies.
    for body in (b"quit", b"setoption name SyzygyPath value /tmp", b"setoption name EvalFile value /etc/passwd",
                 b"go\x07", b""):
        status, _ = request(port, "POST", "/command", body)
        check(status == 400, f"refused {body[:40]!r}: {status}")
    stream = EventStream(port)
    time.sleep(0.5)
    for body in (b"go perft 8", b"go  perft 8", b"go depth 1 perft 8"):
        status, _ = request(port, "POST", "/command", body)
        check(status == 400, f"refused {body!r} (it could not be stopped): {status}")
    asked = time.time()
    request(port, "POST", "/command", b"isready")
    answered = stream.wait_for("data: readyok", 2)
    check(answered and not any("Nodes searched" in line for line in stream.lines),
          f"after go perft 8 the engine answers isready at once ({time.time() - asked:.2f} s), no perft ran")
    stream.close()
    rate_limit_per_client(port)
    status, _ = request(port, "POST", "/command", b"go " + b"x" * 10000)
    check(status == 413, f"a 10 kB command: {status}")
    status, _ = request(port, "POST", "/pgn", b"moves e2e4 e7e5 e1e3")
    check(status == 400, f"a PGN request with an illegal move: {status}")

    # 4. Concurrent streams and the connection limit.
    streams = [EventStream(port) for _ in range(STREAMS)]
    time.sleep(1)
    request(port, "POST", "/command", b"isready")
    got = sum(s.wait_for("data: readyok", 10) for s in streams)
    check(got == STREAMS, f"{STREAMS} concurrent event streams each got readyok ({got})")
    extra = [EventStream(port) for _ in range(100)]
    time.sleep(1.5)
    served = sum(1 for s in extra if any(line.startswith("HTTP/1.1 200") for line in s.lines))
    check(served <= 256 - STREAMS, f"beyond the limit of 256 connections none is served ({served} of 100 served, "
          f"{256 - STREAMS} places were free)")
    for s in extra:
        s.close()
    # The server sees a stream closed when it next writes to it (an event, or a comment after 5 s):
    # until then the places stay taken, and the idle connection below would wait in the backlog,
    # its 30 s starting late.
    time.sleep(6)
    rss_before = rss_mb(server.pid)

    # 5. The flood; meanwhile a connection that sends half a request and then nothing.
    idle = socket.create_connection(("127.0.0.1", port))
    idle.sendall(b"GET / HTTP/1.1\r\n")
    idle_since = time.time()
    start, counts, threads = time.time(), [{} for _ in range(8)], []
    for k in range(8):
        threads.append(threading.Thread(target=flood, args=(port, MESSAGES // 8, k, counts[k], FLOOD_SECONDS)))
        threads[-1].start()
    for t in threads:
        t.join()
    seconds = time.time() - start
    total = {}
    for c in counts:
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    check(seconds <= FLOOD_SECONDS + 15 and sum(total.values()) == MESSAGES,
          f"{MESSAGES} messages paced over {FLOOD_SECONDS} s, all answered after {seconds:.1f} s: {total}")
    for s in streams:
        s.close()
    idle.settimeout(max(1.0, idle_since + 40 - time.time()))
    try:
        closed = idle.recv(1) == b""
    except socket.timeout:
        closed = False
    except OSError:
        closed = True
    check(closed, f"an idle connection is closed ({time.time() - idle_since:.0f} s after its last byte; limit 30 s)")
    idle.close()
    time.sleep(1)
    fresh = EventStream(port)
    time.sleep(0.5)
    request(port, "POST", "/command", b"stop")
    request(port, "POST", "/command", b"isready")
    check(fresh.wait_for("data: readyok", 10), "after the flood a fresh page gets readyok")
    request(port, "POST", "/command", b"position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    request(port, "POST", "/command", b"go depth 6")
    fresh.wait_for("data: bestmove", 20)
    hits = [int(m.group(1)) for line in fresh.lines for m in [re.search(r" tbhits (\d+)", line)] if m]
    check(hits and max(hits) > 0, f"the engine of --syzygy probes the tables (tbhits {max(hits) if hits else None})")
    status, _ = request(port, "GET", "/")
    check(status == 200, "and the page is still served")
    rss_after = rss_mb(server.pid)
    check(rss_after <= RSS_BOUND_MB, f"resident memory {rss_before:.0f} MB before the flood, {rss_after:.0f} MB after "
          f"(bound {RSS_BOUND_MB} MB)")
    fresh.close()

    # 6. A clean stop.
    server.send_signal(signal.SIGTERM)
    try:
        out, err = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        out, err = server.communicate()
    sanitizer = [line for line in err.splitlines() if "Sanitizer" in line or "runtime error" in line]
    check(server.returncode == 0 and "stopped" in out and not sanitizer,
          f"SIGTERM: exit {server.returncode}, sanitizer reports: {sanitizer[:3]}")
    print(f"{'all passed' if not failures else str(len(failures)) + ' failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./bachess")))
