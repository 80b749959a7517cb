"""checklist.py — checks that let a test go on after one fails.

A test of many independent facts (a whole game's output, a server's answers)
states each with check() and goes on, so that one run shows every fact that
is wrong, not only the first; tests/conftest.py fails the pytest test that
made a failed check, with every failed check's message:

    from checklist import check
    check(answer == expected, "what the check shows", detail=output)

Each check is printed as it is made, "ok    what" or "FAIL  what" with the
failure's detail below it (pytest shows it for a failed test). Checks may
come from several threads (the web server test's clients).
"""

import threading

_lock = threading.Lock()
_failed = []


def check(ok, what, detail=""):
    """Records and prints one check; returns whether it passed."""
    ok = bool(ok)
    with _lock:
        if not ok:
            _failed.append(what + (f"\n{detail}" if detail else ""))
        print(("ok    " if ok else "FAIL  ") + what + (f"\n{detail}" if detail and not ok else ""), flush=True)
    return ok


def take_failures():
    """The failed checks since the last call, forgotten here."""
    with _lock:
        failed = list(_failed)
        del _failed[:]
        return failed
