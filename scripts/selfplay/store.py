#!/usr/bin/python3
"""store.py — the self-play store in data/selfplay (docs/datagen.md, "The
self-play store"): whole games of `bachess datagen` in viriformat, compressed
with xz into immutable chunks, listed in manifest.jsonl (one JSON line a
chunk, appended, never rewritten).

    store.py generate --nodes N --games G [--slot K] [--engine ./bachess]
        runs datagen again and again, G games a run, and seals each run into
        a chunk (stop it with SIGTERM or Ctrl-C: the games finished so far
        are sealed too)
    store.py add GAMES.vf --seed S --nodes N --command CMD --cpu-seconds X
        seals one file of games into a chunk
    store.py verify [--engine ./bachess]
        every chunk against the manifest: its sha256, games and positions;
        with --engine, every game replayed move by move by `bachess records`
    store.py records [CHUNK ...] [--engine ./bachess]
        the training records of chunks (all of the manifest by default), each
        made once by `bachess records` and cached by the chunk's sha256; prints
        the records files' paths, one a line

A position of the store is a ply of a game: the move played and the search's
score before it. The trainer's filter (no check, no capture or promotion, no
mate score) is applied when the records are made, not when games are stored.
"""
import argparse
import hashlib
import json
import lzma
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STORE = os.path.join(ROOT, "data", "selfplay")
MANIFEST = "manifest.jsonl"
BOARD_BYTES, PLY_BYTES = 32, 4
XZ_PRESET = 9 | lzma.PRESET_EXTREME


def manifest_path(store):
    return os.path.join(store, MANIFEST)


def read_manifest(store=STORE):
    """The manifest's entries, in the order they were added."""
    path = manifest_path(store)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def count_games(raw):
    """(games, positions) of viriformat bytes; raises ValueError where a game
    is cut off. A game is a 32-byte board, 4-byte plies and four zero bytes,
    so the whole file is a sequence of 32-bit words."""
    if len(raw) % PLY_BYTES:
        raise ValueError(f"{len(raw)} bytes: not whole 4-byte words")
    words = np.frombuffer(raw, dtype="<u4")
    games = positions = 0
    at, per_board = 0, BOARD_BYTES // PLY_BYTES
    while at < len(words):
        start = at + per_board
        if start > len(words):
            raise ValueError(f"game {games + 1}: the start board is cut off")
        ends = np.flatnonzero(words[start:] == 0)
        if len(ends) == 0:
            raise ValueError(f"game {games + 1}: no terminator")
        positions += int(ends[0])
        games += 1
        at = start + int(ends[0]) + 1
    return games, positions


def compress(raw):
    return lzma.compress(raw, format=lzma.FORMAT_XZ, preset=XZ_PRESET)


def git_commit():
    """The checkout's commit, with "-dirty" when the engine's sources differ from it."""
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "src", "nets", "embed", "Makefile"],
                           capture_output=True, text=True).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def engine_net(engine):
    """The built-in net's name and the first digits of its sha256, as `--version` says."""
    out = subprocess.run([engine, "--version"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("net: "):
            return line[len("net: "):].strip()
    return "unknown"


def add_chunk(raw_path, meta, store=STORE):
    """Seals the games of raw_path into a new chunk and appends its manifest
    line; returns the entry, or None when the file holds no game."""
    with open(raw_path, "rb") as f:
        raw = f.read()
    games, positions = count_games(raw)
    if games == 0:
        return None
    if any(e["seed"] == meta["seed"] and e["nodes"] == meta["nodes"] and e["commit"] == meta["commit"]
           for e in read_manifest(store)):
        raise ValueError(f"seed {meta['seed']} at {meta['nodes']} nodes is already in the store")
    name = f"{time.strftime('%Y%m%d', time.gmtime())}-{meta['commit']}-n{meta['nodes']}-s{meta['seed']}.vf.xz"
    os.makedirs(os.path.join(store, "chunks"), exist_ok=True)
    path = os.path.join(store, "chunks", name)
    if os.path.exists(path):
        raise ValueError(f"{path} exists: chunks are never rewritten")
    packed = compress(raw)
    with open(path + ".part", "wb") as f:
        f.write(packed)
    os.replace(path + ".part", path)
    entry = {"file": "chunks/" + name, "sha256": sha256_of(path), "bytes": len(packed), "games": games,
             "positions": positions, **meta}
    with open(manifest_path(store), "a") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")
    return entry


# ---- generate ----------------------------------------------------------------------


def child_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(engine, nodes, games, seed, work):
    """One datagen run of `games` games into a file of `work`; returns its
    path, the command and the CPU seconds it took."""
    raw = os.path.join(work, f"s{seed}.vf")
    command = [engine, "datagen", "--out", raw, "--games", str(games), "--nodes", str(nodes), "--seed", str(seed),
               "--threads", "1"]
    before = child_cpu_seconds()
    proc = subprocess.Popen(command)
    try:
        proc.wait()
    except KeyboardInterrupt:
        proc.wait()  # datagen stops on the same SIGINT and writes its finished games
        raise
    shown = ["bachess"] + command[1:2] + ["--out", "GAMES.vf"] + command[4:]
    return raw, " ".join(shown), round(child_cpu_seconds() - before, 1)


def generate(args):
    commit = git_commit()
    work = tempfile.mkdtemp(prefix="bachess-selfplay-")
    # A copy of its own, so that a rebuild of the checkout's binary cannot
    # change the engine behind the commit written in the manifest.
    engine = os.path.join(work, "bachess")
    shutil.copy2(os.path.abspath(args.engine), engine)
    net = engine_net(engine)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    while not stop:
        # A seed of its own for every run: the time in seconds and the slot.
        seed = (int(time.time()) % 100_000_000) * 10 + args.slot
        try:
            raw, command, cpu = run_once(engine, args.nodes, args.games, seed, work)
        except KeyboardInterrupt:
            stop.append(True)
            raw = os.path.join(work, f"s{seed}.vf")
            command, cpu = "interrupted", 0.0
        meta = {"seed": seed, "nodes": args.nodes, "commit": commit, "net": net, "command": command,
                "cpu_seconds": cpu}
        entry = add_chunk(raw, meta, args.store) if os.path.exists(raw) else None
        if entry:
            print(f"store: {entry['file']}: {entry['games']} games, {entry['positions']} positions, "
                  f"{entry['bytes'] / entry['positions']:.2f} bytes a position", flush=True)
        if os.path.exists(raw):
            os.remove(raw)


# ---- verify and records --------------------------------------------------------------


def replay(engine, raw):
    """`bachess records` over raw games: (games, plies) it replayed, or an error."""
    with tempfile.NamedTemporaryFile(suffix=".vf") as games, tempfile.NamedTemporaryFile() as out:
        games.write(raw)
        games.flush()
        r = subprocess.run([engine, "records", games.name, out.name], capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(r.stderr.strip())
    words = r.stdout.split()  # records: G games, P plies, R records
    return int(words[1]), int(words[3])


def verify(store=STORE, engine=None):
    """Problems found, as text lines (none: the store is sound)."""
    problems, seen = [], set()
    entries = read_manifest(store)
    for e in entries:
        path = os.path.join(store, e["file"])
        if not os.path.exists(path):
            problems.append(f"{e['file']}: missing")
            continue
        seen.add(os.path.normpath(path))
        if sha256_of(path) != e["sha256"]:
            problems.append(f"{e['file']}: sha256 differs from the manifest")
            continue
        try:
            raw = lzma.decompress(open(path, "rb").read())
            counts = count_games(raw)
            if engine:
                counts = replay(engine, raw)
        except (ValueError, lzma.LZMAError) as error:
            problems.append(f"{e['file']}: {error}")
            continue
        if counts != (e["games"], e["positions"]):
            problems.append(f"{e['file']}: {counts[0]} games, {counts[1]} positions; the manifest says "
                            f"{e['games']}, {e['positions']}")
    chunks = os.path.join(store, "chunks")
    for name in sorted(os.listdir(chunks)) if os.path.isdir(chunks) else []:
        if os.path.normpath(os.path.join(chunks, name)) not in seen:
            problems.append(f"chunks/{name}: not in the manifest")
    keys = [(e["seed"], e["nodes"], e["commit"]) for e in entries]
    if len(set(keys)) != len(keys):
        problems.append("two chunks of the same seed, nodes and commit: the same games twice")
    return problems


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bachess", "records")


def records_of(chunk_path, engine, cache=None):
    """The path of the chunk's training records, made once by this engine
    binary and then cached under the chunk's and the binary's sha256: a
    chunk never changes, and another binary may filter other positions."""
    cache = cache or cache_dir()
    os.makedirs(cache, exist_ok=True)
    key = hashlib.sha256((sha256_of(chunk_path) + sha256_of(engine)).encode()).hexdigest()
    out = os.path.join(cache, key[:32] + ".bin")
    if not os.path.exists(out):
        raw = lzma.decompress(open(chunk_path, "rb").read())
        part = out + f".part{os.getpid()}"
        with tempfile.NamedTemporaryFile(suffix=".vf") as games:
            games.write(raw)
            games.flush()
            subprocess.run([engine, "records", games.name, part], check=True, stdout=subprocess.DEVNULL)
        os.replace(part, out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default=STORE)
    ap.add_argument("--engine", default=os.path.join(ROOT, "bachess"))
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--nodes", type=int, required=True)
    g.add_argument("--games", type=int, required=True)
    g.add_argument("--slot", type=int, default=0, choices=range(10))
    a = sub.add_parser("add")
    a.add_argument("games")
    a.add_argument("--seed", type=int, required=True)
    a.add_argument("--nodes", type=int, required=True)
    a.add_argument("--command", required=True)
    a.add_argument("--cpu-seconds", type=float, required=True)
    v = sub.add_parser("verify")
    v.add_argument("--replay", action="store_true", help="replay every game with the engine")
    r = sub.add_parser("records")
    r.add_argument("chunks", nargs="*")
    args = ap.parse_args(argv)
    if args.what == "generate":
        generate(args)
    elif args.what == "add":
        meta = {"seed": args.seed, "nodes": args.nodes, "commit": git_commit(), "net": engine_net(args.engine),
                "command": args.command, "cpu_seconds": args.cpu_seconds}
        print(add_chunk(args.games, meta, args.store))
    elif args.what == "verify":
        problems = verify(args.store, args.engine if args.replay else None)
        entries = read_manifest(args.store)
        print(f"store: {len(entries)} chunks, {sum(e['games'] for e in entries)} games, "
              f"{sum(e['positions'] for e in entries)} positions, {sum(e['bytes'] for e in entries)} bytes")
        for p in problems:
            print("store: " + p)
        return 1 if problems else 0
    elif args.what == "records":
        chunks = args.chunks or [os.path.join(args.store, e["file"]) for e in read_manifest(args.store)]
        for c in chunks:
            print(records_of(c, args.engine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
