#!/usr/bin/env python3
"""check_references_test.py — scripts/check-references.py passes a small
tree whose references all resolve, and fails on each kind of dangling
reference planted in a copy of it (a check that cannot fail is no check).

    python3 -m pytest tests/check_references_test.py
"""
import os
import shutil
import subprocess
import sys

import pytest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "scripts", "check-references.py")

# A tree in which every reference resolves: files named bare, by path, and
# by a path relative to their folder; a public source by its title.
CLEAN = {
    "Makefile": "# The unit tests (tests/test_a.c), then the docs' check.\nall:\n\ttrue\n",
    "src/a.c": "/* a.c — see a.h and docs/a.md; NegaScout after Reinefeld's paper. */\n"
               "#include <stdio.h>\n#include \"a.h\"\n"
               "static const char *s = \"not a comment: gone.txt\";\n",
    "src/a.h": "#pragma once\n/* a.h — the declarations of a.c (tools/b.h has the rest). */\n",
    "src/tools/b.h": "#pragma once\n// b.h — a helper of a.c\n",
    "scripts/run.sh": "#!/bin/sh\n# run.sh — runs tests/test_a.c's binary; output goes to $OUT/log.txt\n",
    "tests/test_a.c": "/* test_a.c — checks a.c (the PGN standard, section 8.2). */\n",
    "tests/t.py": "\"\"\"t.py — drives scripts/run.sh.\"\"\"\nx = 1  # see a.c\n",
    "docs/a.md": "# A\n\nHow [a.c](../src/a.c) works; `src/tools/b.h`.\n\n```sh\nbachess > out.txt\n```\n",
}

# Each plant: (file, text appended, what the check must name).
PLANTS = [
    ("src/a.c", "/* the order of the terms (seed \u00a79.3) */\n", "\u00a7"),
    ("Makefile", "# The reliability match (issue 7).\n", "issue 7"),
    ("tests/t.py", "# the bound of requirement E4\n", "requirement E4"),
    ("src/a.h", "/* as negascout.txt writes it */\n", "negascout.txt"),
    ("scripts/run.sh", "# the table in docs/missing.md\n", "docs/missing.md"),
    ("docs/a.md", "\nThe data lay in `/root/nnue-data`.\n", "/root/nnue-data"),
    ("src/tools/b.h", "/* the seed's rule */\n", "the seed's"),
    ("tests/test_a.c", "/* see src/gone.c */\n", "src/gone.c"),
]


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run_check(root):
    return subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("check-references") / "clean")
    write_tree(root, CLEAN)
    return root


def test_clean_tree_passes(clean):
    r = run_check(clean)
    assert r.returncode == 0, "the clean tree was refused:\n" + r.stdout


@pytest.mark.parametrize("path, text, named", PLANTS, ids=[named for _, _, named in PLANTS])
def test_planted_defect_fails(clean, tmp_path, path, text, named):
    tree = str(tmp_path / "tree")
    shutil.copytree(clean, tree)
    with open(os.path.join(tree, path), "a") as f:
        f.write(text)
    r = run_check(tree)
    assert r.returncode == 1 and path in r.stdout and named in r.stdout, \
        "'%s' planted in %s: exit %d\n%s" % (named, path, r.returncode, r.stdout)
