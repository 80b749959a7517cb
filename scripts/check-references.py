#!/usr/bin/env python3
"""check-references.py — every reference in bachess's comments and documents
resolves: a file of the repository, or a public source named by its title.

    scripts/check-references.py [ROOT]     (default: the repository of this script)

Reads the comments of src/, scripts/, tests/ and the Makefile, and the whole
text of docs/*.md, and fails (exit 1, one line per finding) on
  - a section sign: it cites a section of some document, which here is
    either not in the tree or better named by its heading;
  - "issue N" and "requirement X9": tracker and requirement numbers, which
    mean nothing to a reader of the tree;
  - an absolute path of a work machine (/root/..., /home/..., /work/...);
  - "the seed's" and "(seed: ...)": the study the project began from, which
    is not in the tree;
  - a file name (name.md, .txt, .c, .h, .py, .sh, .mjs) that no file of the
    tree has, or a path (src/..., docs/..., ...) that does not exist.
Names of other projects' files are allowed in EXTERNAL below, with the
project they belong to.
"""
import argparse
import os
import re
import subprocess
import sys

# Files of other projects that comments name, with their project.
EXTERNAL = {
    "Client/genfens.py": "OpenBench",
    "Client/bench.py": "OpenBench",
    "microhttpd.h": "libmicrohttpd (Debian's libmicrohttpd-dev)",
}

# Other projects' code carried in the tree as it is (with its own licence
# and notes): its comments are upstream's, not bachess's to mend.
VENDORED = ("src/syzygy/fathom/",)

# Generated data, not prose: nothing to check in them. This script names
# every pattern it looks for, so it is left out too (its test is not: the
# patterns there are in strings, not comments).
NOT_PROSE = {"src/nnue/default_net.c", "src/web/web_assets.c", "src/games/book_default.c",
             "scripts/check-references.py"}

NAME = re.compile(r"(?<![\w$/.{-])((?:[\w.-]+/)*[\w-]+\.(?:md|txt|c|h|py|sh|mjs))\b")
RULES = [
    (re.compile("\u00a7"), "a section sign: name the document by its title and the section by its heading"),
    (re.compile(r"\bissues? #?\d+", re.I), "an issue number: say what the issue was about"),
    (re.compile(r"\brequirements? [A-Z]+\d", re.I), "a requirement number: say what is required"),
    (re.compile(r"(?<![\w.])/(?:root|home|work)/\S*"), "a path of a work machine"),
    (re.compile(r"\bthe seed's\b|\(seeds?[:)]", re.I), "the seed, a document not in the tree: say what it says"),
]


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
        files = out.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
    if not files:  # not a git checkout (e.g. a copy): walk the directory
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x not in (".git", "node_modules") and
                       not (d == root and x == "build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(f for f in files if os.path.exists(os.path.join(root, f)))


def c_comments(text):
    """The comments of C source, each with the line it starts on."""
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", text, re.S):
        if m.group().startswith("/"):
            yield text.count("\n", 0, m.start()) + 1, m.group()


def hash_comments(text, python):
    """'#' comments of shell, Makefile and Python, and Python's docstrings."""
    if python:
        for m in re.finditer(r'("""|\'\'\')(.*?)\1', text, re.S):
            yield text.count("\n", 0, m.start()) + 1, m.group(2)
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped.startswith("#") and not stripped.startswith(("#!", "#include")):
            yield n, stripped
        elif " # " in line and "'" not in line.split(" # ")[1] and '"' not in line.split(" # ")[1]:
            yield n, line.split(" # ", 1)[1]


def markdown_text(text):
    """Markdown outside fenced code (a code block shows commands and their output files)."""
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield n, line


def prose_of(path, text):
    if path.endswith((".c", ".h")):
        return c_comments(text)
    if path.endswith(".md"):
        return markdown_text(text)
    return hash_comments(text, path.endswith(".py"))


def files_to_check(files):
    for f in files:
        if f in NOT_PROSE or f.startswith(VENDORED):
            continue
        if f == "Makefile" or (f.startswith("docs/") and f.endswith(".md")):
            yield f
        elif f.startswith(("src/", "scripts/", "tests/")) and f.endswith((".c", ".h", ".py", ".sh", ".mjs")):
            yield f
        elif f.startswith(("scripts/", "tests/")) and "." not in os.path.basename(f):
            yield f


def name_resolves(name, root, paths, basenames, here):
    if name in EXTERNAL:
        return True
    if "/" not in name:
        return name in basenames
    # from the top (src/eval.c), from the citing file's folder (../src/eval.c)
    # or from some folder of the tree (nnue/network.h, tools/eval_cmd.c)
    return os.path.exists(os.path.normpath(os.path.join(root, name))) or \
        os.path.exists(os.path.normpath(os.path.join(root, os.path.dirname(here), name))) or \
        any(p.endswith("/" + name) for p in paths)


def check(root):
    files = tracked_files(root)
    paths = set(files)
    basenames = {os.path.basename(f) for f in files}
    findings = []
    for f in files_to_check(files):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for line_no, prose in prose_of(f, text):
            for offset, line in enumerate(prose.split("\n")):
                where = "%s:%d" % (f, line_no + offset)
                for pattern, why in RULES:
                    m = pattern.search(line)
                    if m:
                        findings.append("%s: '%s' — %s" % (where, m.group(), why))
                for name in sorted({m.group(1) for m in NAME.finditer(line)}):
                    if not name_resolves(name, root, paths, basenames, f):
                        findings.append("%s: '%s' — no such file in the tree" % (where, name))
    return findings


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository to check (default: this script's)")
    root = parser.parse_args().root
    if not os.path.isdir(root):
        parser.error("%s is not a directory" % root)
    findings = check(os.path.abspath(root))
    for line in findings:
        print("reference error: " + line)
    if findings:
        print("%d reference(s) do not resolve" % len(findings))
        return 1
    print("every reference resolves: files of the tree, public sources by title")
    return 0


if __name__ == "__main__":
    sys.exit(main())
