#!/bin/sh
# Builds the libFuzzer targets (fuzz/) and runs each for a given time.
#
#   scripts/fuzz.sh TARGET|all SECONDS
#
# TARGET is one of: fen move pgn book uci cecp epd net games. Everything goes to
# $BUILD/fuzz (BUILD defaults to build): the binaries, the seed corpora made
# from data/ and fuzz/seeds/, the working corpora (corpus/TARGET, kept from
# run to run), the logs and any crash artifacts. Each target runs with
# -max_total_time=SECONDS -timeout=10 -rss_limit_mb=2048; the script prints
# its exec count and fails if any target reports a crash, a timeout, a leak,
# a sanitizer error or a failed check.
#
# Runs of different targets may share a BUILD once the build is up to date.
#
# Environment: FUZZ_JOBS=N runs N targets at a time (default 1);
# FUZZ_FRESH=1 starts from the seeds alone, in a scratch corpus (for the
# short run of `make test`, so that a grown corpus cannot stretch it).
set -eu

ALL="fen move pgn book uci cecp epd net games"
if [ $# -ne 2 ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS   (targets: $ALL)" >&2
    exit 2
fi
case " $ALL all " in
*" $1 "*) ;;
*) echo "fuzz.sh: unknown target '$1' (targets: $ALL)" >&2; exit 2 ;;
esac
[ "$1" = all ] && targets=$ALL || targets=$1
seconds=$2

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=$BUILD/fuzz
JOBS=${FUZZ_JOBS:-1}
mkdir -p "$OUT/logs" "$OUT/artifacts" "$OUT/tmp"

# ---- build ------------------------------------------------------------------
if ! make -f fuzz/build.mk BUILD="$BUILD" -j2 --no-print-directory >"$OUT/logs/build.log" 2>&1; then
    cat "$OUT/logs/build.log" >&2
    echo "fuzz.sh: build failed" >&2
    exit 1
fi
if grep -q "warning:" "$OUT/logs/build.log"; then
    grep "warning:" "$OUT/logs/build.log" >&2
fi

# ---- seed corpora -----------------------------------------------------------
# Made afresh for the targets of this run (small and quick): hand-written
# seeds from fuzz/seeds, the rest from data/ and the built-in book.
SEEDS=$OUT/seeds
for t in $targets; do
    rm -rf "${SEEDS:?}/$t"
    mkdir -p "$SEEDS/$t"
    if [ -d "fuzz/seeds/$t" ]; then
        cp fuzz/seeds/"$t"/* "$SEEDS/$t/"
    fi
done
python3 - "$SEEDS" $targets <<'EOF'
import re, struct, sys
seeds, wanted = sys.argv[1], set(sys.argv[2:])

def write(target, name, data):
    if target not in wanted:
        return
    if isinstance(data, str):
        data = data.encode("latin-1")
    with open(f"{seeds}/{target}/{name}", "wb") as f:
        f.write(data)

# FEN: every position of the perft suite, a sample of Marcel's suite.
fens = [line.split(";")[0].strip() for line in open("data/perft.epd") if line.strip()]
fens += [line.split(";")[0].strip() for i, line in enumerate(open("data/perft_marcel.epd")) if i % 100 == 0]
for i, fen in enumerate(fens):
    write("fen", f"data-{i:04d}", fen)

# PGN: master games in chunks of two; their main lines as SAN move words.
text = open("data/master_games.pgn", encoding="latin-1").read()
games = re.split(r"\n(?=\[Event )", text)
for i in range(0, 240, 2):
    write("pgn", f"data-{i // 2:03d}", "\n".join(games[i:i + 2]) + "\n")
for i, game in enumerate(games[:80]):
    movetext = game.split("\n\n", 1)[-1]
    movetext = re.sub(r"\{[^}]*\}|\([^)]*\)|\$\d+", " ", movetext)
    words = [w for w in movetext.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", w)]
    write("move", f"data-{i:03d}", b"\x00" + " ".join(words[:60]).encode("latin-1"))

# EPD: test-suite lines, one per seed.
for name in ("wac.epd", "bk.epd", "openings.epd"):
    for i, line in enumerate(open(f"data/{name}")):
        if i % 10 == 0 and line.strip():
            write("epd", f"{name[:-4]}-{i:04d}", line)

# Books: slices of the built-in book (embed/book.bin, a Polyglot
# file made from data/master_games.pgn), among them the start position's entries.
blob = open("embed/book.bin", "rb").read()
entries = [struct.unpack(">QHHI", blob[i:i + 16]) for i in range(0, len(blob), 16)]
def book(part):
    return b"".join(struct.pack(">QHHI", *e) for e in part)
start = next(i for i, e in enumerate(entries) if e[0] == 0x463B96181691FC9C)
write("book", "start", book(entries[start:start + 20]))
for i in range(0, len(entries), 240):
    write("book", f"slice-{i:05d}", book(entries[i:i + 12]))

# Networks: small ones of the file format (docs/nnue.md), version 1,
# version 2 with 8 output buckets and version 3 (mirroring by the king),
# random weights in range, checksum right.
import random
def network(version, hidden, buckets, seed, king_mirroring=0, king_map=None):
    rng = random.Random(seed)
    king_buckets = max(king_map) + 1 if king_map else 1
    weights = [rng.randint(-80, 80) for _ in range(king_buckets * 768 * hidden + hidden)]
    weights += [rng.randint(-127, 127) for _ in range(2 * hidden * buckets)]
    payload = bytes(king_map or []) + struct.pack(f"<{len(weights)}h", *weights)
    payload += struct.pack(f"<{buckets}i", *[rng.randint(-5000, 5000) for _ in range(buckets)])
    h = 2166136261
    for byte in payload:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    fields = [version, 768, hidden, 1, 255, 64, 400, h] + ([buckets] if version >= 2 else [])
    fields += [king_mirroring] if version >= 3 else []
    fields += [king_buckets] if version >= 4 else []
    return b"BACHNNUE" + struct.pack(f"<{len(fields)}I", *fields) + payload
write("net", "v1-h16", network(1, 16, 1, 1))
write("net", "v2-h16-b8", network(2, 16, 8, 2))
write("net", "v2-h32-b2", network(2, 32, 2, 3))
write("net", "v3-h16-b4-mirrored", network(3, 16, 4, 4, 1))
# King buckets (version 4): by rank, for a net that does not mirror; the
# trainer's home4 layout (left-right symmetric) for one that does.
write("net", "v4-h16-b2-k3", network(4, 16, 2, 5, 0, [0] * 8 + [1] * 8 + [2] * 48))
write("net", "v4-h16-b1-k4-mirrored", network(4, 16, 1, 6, 1, [0, 0, 0, 1, 1, 0, 0, 0] + [2] * 8 + [3] * 48))

# Stored games (docs/selfplay-store.md): the first games of each of the
# store's first chunks, and a short game written here (the start position,
# 1. e4 e5 2. Nf3, White won).
import json, lzma, os
start_board = bytes([0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0x16, 0x42, 0x25, 0x61, 0, 0, 0, 0,
                     0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, 64, 0, 1, 0, 0, 0, 2, 0])
plies = [(12 | 28 << 6, 20), (52 | 36 << 6, 15), (6 | 21 << 6, 30)]
write("games", "short", start_board + b"".join(struct.pack("<Hh", m, s) for m, s in plies) + bytes(4))
manifest = "data/selfplay/manifest.jsonl"
lines = open(manifest).read().split("\n") if os.path.exists(manifest) else []
for i, line in enumerate(l for l in lines if l.strip()):
    if i == 4:
        break
    raw = lzma.decompress(open("data/selfplay/" + json.loads(line)["file"], "rb").read())
    words, at, games = struct.unpack(f"<{len(raw) // 4}I", raw), 0, 0
    while at < len(words) and games < 2:
        at = words.index(0, at + 8) + 1
        games += 1
    write("games", f"chunk-{i}", raw[:4 * at])
EOF

# ---- runs -------------------------------------------------------------------
# Runs one target; writes "runs seconds status" to logs/TARGET.result.
run_target() {
    t=$1
    corpus=$OUT/corpus/$t
    if [ "${FUZZ_FRESH:-0}" = 1 ]; then
        corpus=$OUT/scratch/$t
        rm -rf "$corpus"
    fi
    mkdir -p "$corpus" "$OUT/tmp/$t"
    dict=""
    [ -f "fuzz/dict/$t.dict" ] && dict="-dict=fuzz/dict/$t.dict"
    log=$OUT/logs/$t.log
    start=$(date +%s)
    status=0
    BACHESS_FUZZ_TMP="$OUT/tmp/$t" "$OUT/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t-" $dict "$corpus" "$SEEDS/$t" >"$log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - start ))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
    if [ "$status" -ne 0 ] || grep -qE "^==[0-9]+==ERROR|ERROR: libFuzzer|runtime error:|SUMMARY: |fuzz check failed|^fuzz: " "$log"; then
        result=FAILED
    else
        result=ok
    fi
    echo "${runs:-0} $elapsed $result" >"$OUT/logs/$t.result"
}

failed=0
set -- $targets
while [ $# -gt 0 ]; do
    batch=""
    n=0
    while [ $# -gt 0 ] && [ "$n" -lt "$JOBS" ]; do
        run_target "$1" &
        batch="$batch $1"
        n=$((n + 1))
        shift
    done
    wait
    for t in $batch; do
        read -r runs elapsed result <"$OUT/logs/$t.result"
        printf 'fuzz %-5s %10s runs in %4s s  %s\n' "$t" "$runs" "$elapsed" "$result"
        if [ "$result" != ok ]; then
            failed=1
            grep -E -A30 "^==[0-9]+==ERROR|ERROR: libFuzzer|runtime error:|fuzz check failed|^fuzz: " "$OUT/logs/$t.log" | head -n 60 >&2 || true
            echo "  log: $OUT/logs/$t.log; artifacts: $OUT/artifacts/$t-*" >&2
        fi
    done
done
exit $failed
