#!/bin/sh
# reproduce-default-net.sh — trains the built-in network (nets/default.nnue) again from its data
# and checks that the result is the same file, byte for byte.
#
#   scripts/nnue/reproduce-default-net.sh DATA_DIR [OUT_DIR]
#
# DATA_DIR holds the four gen5 datagen files the net was trained on (gen5-seed10.bin ...
# gen5-seed13.bin; how to make them again: nets/default.nnue.log and docs/datagen.md). Training
# data is not source, so it is not in the repository. Each file is cut to the number of records
# the net saw (the runs were stopped by hand; a longer file holds the same games first).
# The network it starts from (a warm start) is n7, the built-in net of commit 81088a4.
#
# One core, about 5 minutes; needs Debian's python3-torch (make install-test-deps).
set -eu

data=${1:?usage: reproduce-default-net.sh DATA_DIR [OUT_DIR]}
out=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/../.." && pwd)

# file:records, in the order the trainer read them
runs="gen5-seed10:172478 gen5-seed11:179110 gen5-seed12:1395666 gen5-seed13:1404162"

mkdir -p "$out"
files=""
for run in $runs; do
    name=${run%%:*}
    records=${run##*:}
    have=$(($(stat -c %s "$data/$name.bin") / 32))
    if [ "$have" -lt "$records" ]; then
        echo "reproduce: $data/$name.bin has $have records, the net was trained on $records" >&2
        exit 1
    fi
    head -c $((records * 32)) "$data/$name.bin" >"$out/$name.bin"
    files="$files $out/$name.bin"
done

git -C "$root" show 81088a4:nets/default.nnue >"$out/n7.nnue"

# The trainer's output depends on the order of the files and on the thread count.
# shellcheck disable=SC2086
/usr/bin/python3 "$root/scripts/nnue/train.py" $files --out "$out/n8.nnue" --hidden 128 --epochs 8 \
    --lambda 0.25 --k 175 --seed 1 --mirror --init "$out/n7.nnue" --threads 1 --lr 0.001 \
    --no-bias-correction # the trainer of the time had none

if cmp -s "$out/n8.nnue" "$root/nets/default.nnue"; then
    echo "reproduce: $out/n8.nnue is nets/default.nnue, byte for byte"
else
    echo "reproduce: $out/n8.nnue differs from nets/default.nnue" >&2
    exit 1
fi
