"""pytest's set-up for the Python suites of tests/ and tests/conformance/
(the files pytest.ini names), run by the test targets (tests/tests.mk)
with Debian's python3-pytest.

The suites take what they test from the environment, as a make target
passes it: BACHESS (the engine), BACHESS_SANITIZE and BACHESS_DEBUG (its
sanitizer and valgrind builds), BACHESS_TRAIN (the NNUE trainer in C),
DATA (the data folder); scripts/ is on the import path for the engine driver (scripts/enginedriver.py) and the scripts
under test.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
sys.path.insert(0, HERE)

import checklist  # noqa: E402


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """A test fails when any check() it made failed (tests/checklist.py)."""
    checklist.take_failures()
    outcome = yield
    failed = checklist.take_failures()
    if failed and outcome.excinfo is None:
        pytest.fail("%d check(s) failed:\n%s" % (len(failed), "\n".join("  " + f for f in failed)), pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """The engines' last lines (an exception's engine_dump, set by the
    conformance scenarios) go with the failure's report."""
    outcome = yield
    dump = getattr(call.excinfo.value, "engine_dump", None) if call.excinfo else None
    if dump:
        outcome.get_result().sections.append(("engine log", dump))


def pytest_report_header(config):
    return "engine: %s" % os.environ.get("BACHESS", "./bachess")
