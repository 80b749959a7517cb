#!/usr/bin/env python3
"""script_help_test.py — every command of scripts/ answers --help, and a
missing argument is a usage error, not a traceback (make script-tests).

A command is a script with a `__main__` block. For each one, `--help` must
exit 0 with a usage line on standard output, and an unknown option must
be a usage error (exit 2), not a traceback or a run. Found broken this way: a help text that
argparse could not format, and scripts that read a file named "--help".
"""
import glob
import os
import subprocess
import sys

import pytest

from checklist import check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The slowest --help is the one that imports PyTorch: 3.9 s measured with a
# load average of 6 on two cores (four searches running). Over twenty times that.
TIMEOUT_S = 90


def commands():
    paths = sorted(glob.glob(os.path.join(TOP, "scripts", "*.py")) + glob.glob(os.path.join(TOP, "scripts", "*", "*.py")))
    found = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            if 'if __name__ == "__main__":' in f.read():
                found.append(os.path.relpath(path, TOP))
    return found


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(TOP, script), *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT_S, cwd=TOP)


def test_commands_are_found():
    check(len(commands()) >= 15, f"the commands of scripts/: {commands()}")


@pytest.mark.parametrize("script", commands())
def test_help(script):
    answer = run(script, "--help")
    check(answer.returncode == 0 and answer.stdout.startswith("usage:"), f"{script} --help",
          detail=answer.stdout[:400] + answer.stderr[-800:])


@pytest.mark.parametrize("script", commands())
def test_unknown_option_is_a_usage_error(script):
    answer = run(script, "--no-such-option")
    check(answer.returncode == 2 and "usage:" in answer.stderr and "Traceback" not in answer.stderr,
          f"{script} --no-such-option", detail=answer.stderr[-800:])
