"""engine_pipe.py — an engine process spoken to line by line through its
pipes, for the tests and scripts that drive an engine themselves
(tests/syzygy_test.py, tests/tb_conversion_test.py, scripts/time-iterations.py,
scripts/engine-speed.py)."""
import os
import re
import select
import subprocess
import time


class EnginePipe:
    """The engine's standard input and output; its standard error is dropped.
    `timeout` is how many seconds until() waits when not told."""

    def __init__(self, cmd, timeout):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  bufsize=0)
        self.buf = b""
        self.timeout = timeout

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()

    def until(self, pattern, timeout=None):
        """The lines up to the first matching `pattern`. The deadline holds
        while the engine is silent too: select() waits for output at most
        until it (a blocking readline() would wait for ever)."""
        timeout = self.timeout if timeout is None else timeout
        lines, end = [], time.monotonic() + timeout
        fd = self.p.stdout.fileno()
        while True:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                lines.append(line)
                if re.search(pattern, line):
                    return lines
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no /{pattern}/ within {timeout} s; last lines {lines[-5:]}")
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise AssertionError(f"the engine's output ended before /{pattern}/; last lines {lines[-5:]}")
                self.buf += chunk

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)
