#!/bin/sh
# trainer-bench.sh — the NNUE trainers' speed on the self-play store's first
# records: one epoch of s6's settings (256 hidden, --mirror) on the same
# positions, printed as positions a second (wall clock) and a CPU-second.
#
#   scripts/nnue/trainer-bench.sh [ENGINE] [TRAINER]          (make trainer-bench)
#
# TRAINER_BENCH_POSITIONS (default 2500000) records of the manifest's first
# chunks, TRAINER_THREADS (default 2) threads for bachess-train; with
# TRAINER_BENCH_TORCH=1 scripts/nnue/train.py (PyTorch, the input gradient
# in C, as s6 was trained; TORCH_THREADS threads, default 1 as for s6) runs
# on the same records too.
# On a machine shared with other jobs, the CPU-second figure is the one to
# compare: the wall clock's counts the other jobs' time as well.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
engine=${1:-$root/bachess}
trainer=${2:-$root/bachess-train}
positions=${TRAINER_BENCH_POSITIONS:-2500000}
threads=${TRAINER_THREADS:-2}
store=${BACHESS_STORE:-$root/data/selfplay}
work=$(mktemp -d "${TMPDIR:-/tmp}/bachess-trainer-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Enough chunks for the positions (a chunk holds 20,000 to 130,000).
chunks=$(/usr/bin/python3 - "$store" "$positions" <<'PY'
import json, os, sys
store, want, total = sys.argv[1], int(sys.argv[2]), 0
for line in open(os.path.join(store, "manifest.jsonl")):
    entry = json.loads(line)
    print(os.path.join(store, entry["file"]))
    total += entry["positions"]
    if total >= want:
        break
PY
)
# shellcheck disable=SC2086
records=$(/usr/bin/python3 "$root/scripts/selfplay/store.py" --engine "$engine" records $chunks)
settings="--hidden 256 --epochs 1 --lr 0.01 --lambda 0.25 --k 175 --seed 1 --mirror --positions $positions"

cpu_rate() {  # positions a CPU-second of the command's user and system time
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
    trained=$(sed -n 's/.* \([0-9]*\) for training.*/\1/p' "$work/out")
    awk -v n="$trained" '{ printf "%.0f", n / ($1 + $2) }' "$work/time"
}

# shellcheck disable=SC2086
c_cpu=$(cpu_rate "$trainer" $records --out "$work/c.nnue" $settings --threads "$threads")
c_wall=$(sed -n 's/^epoch 1: .*, \([0-9]*\) positions\/s.*/\1/p' "$work/out")
echo "trainer-bench: bachess-train, $threads thread(s): $c_wall positions/s (wall), $c_cpu a CPU-second of the whole run"
if [ "${TRAINER_BENCH_TORCH:-0}" = 1 ]; then
    # shellcheck disable=SC2086
    t_cpu=$(cpu_rate /usr/bin/python3 "$root/scripts/nnue/train.py" $records --out "$work/t.nnue" $settings \
        --threads "${TORCH_THREADS:-1}" --c-gradient)
    t_wall=$(sed -n 's/^epoch 1: .*, \([0-9]*\) positions\/s$/\1/p' "$work/out")
    echo "trainer-bench: train.py (PyTorch), ${TORCH_THREADS:-1} thread(s): $t_wall positions/s (wall), $t_cpu a CPU-second of the whole run"
fi
