#!/bin/sh
# make-net.sh — trains the built-in network again from the self-play store, by
# its recipe, and checks that the result is nets/default.nnue byte for byte.
#
#   scripts/nnue/make-net.sh [RECIPE] [OUT] [EXPECTED]      (make net)
#
# RECIPE (default nets/default.recipe) is a shell fragment that sets:
#   CHUNKS  the store's chunks the net is trained on, in order (paths relative
#           to the store, data/selfplay or $BACHESS_STORE, as the manifest names them)
#   INIT    a net to start from, as git's REVISION:PATH, or empty for a net
#           trained from scratch
#   ARGS    the rest of the trainer's arguments (--hidden, --epochs, --seed, ...)
#   TRAINER c for the trainer in C (bachess-train, `make trainer`), torch or
#           unset for scripts/nnue/train.py
# EXPECTED "none" compares with nothing (a net that is not built in yet).
# The chunks are checked against the manifest first (scripts/selfplay/store.py
# verify). A net's bytes depend on the order of the chunks. With train.py
# they depend on the thread count and the torch build too: a recipe gives
# --threads, and the bytes are those of Debian's python3-torch. With
# bachess-train they depend on neither (docs/nnue.md).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
recipe=${1:-$root/nets/default.recipe}
out=${2:-$root/build/make-net}  # not build/net: the Makefile's stamp of the net built in
expected=${3:-$root/nets/default.nnue}
store=${BACHESS_STORE:-$root/data/selfplay}

if [ ! -f "$recipe" ]; then
    echo "make-net: no recipe $recipe: nets/default.nnue was not trained from the self-play store" >&2
    echo "make-net: (nets/default.nnue.log says what it was trained on)" >&2
    exit 1
fi
CHUNKS="" INIT="" ARGS="" TRAINER=""
# shellcheck disable=SC1090
. "$recipe"
[ -n "$CHUNKS" ] || { echo "make-net: $recipe names no CHUNKS" >&2; exit 1; }

/usr/bin/python3 "$root/scripts/selfplay/store.py" --store "$store" verify >/dev/null || {
    echo "make-net: the store does not match its manifest (scripts/selfplay/store.py verify)" >&2
    exit 1
}
mkdir -p "$out"
files=""
for chunk in $CHUNKS; do
    files="$files $store/$chunk"
done
init=""
if [ -n "$INIT" ]; then
    git -C "$root" show "$INIT" >"$out/init.nnue"
    init="--init $out/init.nnue"
fi
case "${TRAINER:-torch}" in
c)
    # The chunks' records, made by this engine and cached (store.py records).
    # shellcheck disable=SC2086
    records=$(/usr/bin/python3 "$root/scripts/selfplay/store.py" --engine "$root/bachess" records $files)
    # shellcheck disable=SC2086
    "$root/bachess-train" $records --out "$out/default.nnue" $init $ARGS
    ;;
torch)
    # shellcheck disable=SC2086
    /usr/bin/python3 "$root/scripts/nnue/train.py" $files --engine "$root/bachess" --out "$out/default.nnue" \
        $init $ARGS
    ;;
*)
    echo "make-net: TRAINER=$TRAINER in $recipe: c or torch" >&2
    exit 1
    ;;
esac

if [ "$expected" = none ]; then
    echo "make-net: $out/default.nnue, sha256 $(sha256sum "$out/default.nnue" | cut -c1-12), compared with nothing"
    exit 0
fi
if cmp -s "$out/default.nnue" "$expected"; then
    echo "make-net: $out/default.nnue is $expected, byte for byte"
else
    echo "make-net: $out/default.nnue differs from $expected" >&2
    exit 1
fi
