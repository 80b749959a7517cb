"""checklist.py — the tally of a standalone test script.

Every check is printed as it is made, "ok    what" or "FAIL  what" with the
failure's detail below it, so a log shows how far a run got; the script ends
with one line of totals, and its exit status says whether any check failed:

    from checklist import check, finish
    check(answer == expected, "what the check shows", detail=output)
    ...
    sys.exit(finish("name-test"))

Checks may come from several threads (the web server test's clients).
"""

import threading

_lock = threading.Lock()
_passed = []
_failed = []


def check(ok, what, detail=""):
    """Records and prints one check; returns whether it passed."""
    ok = bool(ok)
    with _lock:
        (_passed if ok else _failed).append(what)
        print(("ok    " if ok else "FAIL  ") + what + (f"\n{detail}" if detail and not ok else ""), flush=True)
    return ok


def finish(name):
    """Prints the totals; returns the exit status, 1 if any check failed."""
    with _lock:
        print(f"{name}: {len(_passed)} passed, {len(_failed)} failed", flush=True)
        return 1 if _failed else 0
