#!/usr/bin/python3
"""selfplay_store_test.py ENGINE — the self-play store (data/selfplay,
scripts/selfplay/store.py, docs/datagen.md):

- every chunk of the repository's store matches its manifest line (sha256,
  games, positions), every game replays legally through `bachess records`,
  no chunk is missing from the manifest, and the store keeps within its
  budget of 3 bytes a position;
- the checks fail on a changed byte, a chunk the manifest does not list, a
  count that differs and a game cut off;
- datagen -> store -> trainer: the records the trainer reads from a chunk
  are exactly the 32-byte records datagen writes of the same games;
- a small net trained twice from a small chunk has the same bytes, and so does
  make-net.sh's recipe for the trainer in C (TRAINER="c").
"""
import json
import lzma
import os
import shutil
import subprocess
import sys

import pytest

from checklist import check

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "selfplay"))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "nnue"))
import store  # noqa: E402

BYTES_A_POSITION_BUDGET = 3.0


def datagen(engine, work, seed, games=8):
    """Games and records of one small run: (games path, records path)."""
    games_path, records_path = os.path.join(work, f"g{seed}.vf"), os.path.join(work, f"r{seed}.bin")
    subprocess.run([engine, "datagen", "--out", games_path, "--records", records_path, "--games", str(games),
                    "--nodes", "600", "--seed", str(seed), "--threads", "2"], check=True, stderr=subprocess.DEVNULL)
    return games_path, records_path


def meta(seed):
    return {"seed": seed, "nodes": 600, "commit": "test", "net": "test", "command": "test", "cpu_seconds": 0.0}


def the_repository_store(engine):
    entries = store.read_manifest()
    problems = store.verify(engine=engine)
    check(not problems, f"the repository's store: {len(entries)} chunks match the manifest and replay legally"
          + (": " + "; ".join(problems[:5]) if problems else ""))
    positions = sum(e["positions"] for e in entries)
    if positions:
        per_position = sum(e["bytes"] for e in entries) / positions
        check(per_position <= BYTES_A_POSITION_BUDGET,
              f"{per_position:.3f} bytes a position over {positions} positions (budget {BYTES_A_POSITION_BUDGET})")


def planted_defects(engine, work):
    games_path, _ = datagen(engine, work, 41)
    folder = os.path.join(work, "store")
    entry = store.add_chunk(games_path, meta(41), folder)
    check(store.verify(folder, engine) == [], "a fresh chunk verifies")
    chunk = os.path.join(folder, entry["file"])
    good = open(chunk, "rb").read()
    raw = lzma.decompress(good)

    with open(chunk, "wb") as f:
        f.write(good[:100] + bytes([good[100] ^ 1]) + good[101:])
    check(any("sha256" in p for p in store.verify(folder)), "a changed byte is found")

    # A chunk whose bytes match a manifest edited to them, but whose games are cut.
    cut = store.compress(raw[:-4])
    with open(chunk, "wb") as f:
        f.write(cut)
    lines = [dict(entry, sha256=store.sha256_of(chunk), bytes=len(cut))]
    with open(store.manifest_path(folder), "w") as f:
        f.write("".join(json.dumps(e) + "\n" for e in lines))
    check(any("terminator" in p for p in store.verify(folder)), "a game cut off is found")
    try:
        store.replay(engine, raw[:-4])
        check(False, "... and `bachess records` refuses it")
    except ValueError as error:
        check("cut off" in str(error), f"... and `bachess records` refuses it ({error})")

    with open(chunk, "wb") as f:
        f.write(good)
    with open(store.manifest_path(folder), "w") as f:
        f.write(json.dumps(dict(entry, positions=entry["positions"] + 1)) + "\n")
    check(any("positions" in p for p in store.verify(folder)), "a count that differs is found")

    with open(store.manifest_path(folder), "w") as f:
        f.write(json.dumps(entry) + "\n")
    shutil.copy(chunk, chunk.replace(".vf.xz", "-copy.vf.xz"))
    check(any("not in the manifest" in p for p in store.verify(folder)), "a chunk the manifest lacks is found")
    try:
        store.add_chunk(games_path, meta(41), folder)
        check(False, "the same seed twice is refused")
    except ValueError:
        check(True, "the same seed twice is refused")


def round_trip(engine, work):
    import train  # noqa: E402  (torch: only this part needs it)
    games_path, records_path = datagen(engine, work, 42, games=30)
    folder = os.path.join(work, "round-trip")
    entry = store.add_chunk(games_path, meta(42), folder)
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    files = train.record_files([folder], engine)
    expected = open(records_path, "rb").read()
    check(len(files) == 1 and open(files[0], "rb").read() == expected,
          f"the trainer's records of the chunk are datagen's own ({len(expected) // 32} records of "
          f"{entry['positions']} positions)")
    check(entry["positions"] > len(expected) // 32, "the store keeps the plies the filter passes over")
    nets = []
    for run in range(2):
        out = os.path.join(work, f"net{run}.nnue")
        train.main([folder, "--engine", engine, "--out", out, "--hidden", "16", "--epochs", "2", "--batch", "256",
                    "--seed", "3"])
        nets.append(open(out, "rb").read())
    check(nets[0] == nets[1], "a net trained twice from the same chunk has the same bytes")

    # make net: a recipe of the chunk rebuilds the net byte for byte; another seed does not.
    recipe = os.path.join(work, "recipe")
    make_net = os.path.join(HERE, "..", "scripts", "nnue", "make-net.sh")
    env = dict(os.environ, BACHESS_STORE=folder)
    for seed, expect_same in (("3", True), ("4", False)):
        with open(recipe, "w") as f:
            f.write(f'CHUNKS="{entry["file"]}"\nINIT=""\n'
                    f'ARGS="--hidden 16 --epochs 2 --batch 256 --seed {seed}"\n')
        r = subprocess.run(["sh", make_net, recipe, os.path.join(work, "made"), os.path.join(work, "net0.nnue")],
                           env=env, capture_output=True, text=True)
        check((r.returncode == 0) == expect_same,
              f"make-net.sh with seed {seed}: " + (r.stdout + r.stderr).strip().splitlines()[-1])

    # A recipe for the trainer in C (TRAINER="c"): the chunk's records through
    # the cache, the same bytes a second time.
    with open(recipe, "w") as f:
        f.write(f'CHUNKS="{entry["file"]}"\nINIT=""\nTRAINER="c"\n'
                f'ARGS="--hidden 16 --epochs 2 --batch 256 --seed 3 --mirror --threads 2"\n')
    first = os.path.join(work, "made-c0", "default.nnue")
    runs = [subprocess.run(["sh", make_net, recipe, os.path.join(work, f"made-c{run}"), expected], env=env,
                           capture_output=True, text=True) for run, expected in ((0, "none"), (1, first))]
    check(all(r.returncode == 0 for r in runs) and "byte for byte" in runs[1].stdout
          and "bachess-train (C)" in open(first + ".log").read(),
          "make-net.sh with TRAINER=c: " + (runs[1].stdout + runs[1].stderr).strip().splitlines()[-1])


@pytest.fixture
def engine():
    return os.path.abspath(os.environ.get("BACHESS", "./bachess"))


def test_the_repository_store(engine):
    the_repository_store(engine)


def test_planted_defects(engine, tmp_path):
    planted_defects(engine, str(tmp_path))


def test_round_trip(engine, tmp_path):
    round_trip(engine, str(tmp_path))
