#!/usr/bin/env bash
# scripts/soak-engine.sh SIZES COMMAND [ARGS...] — a UCI engine whose Hash
# changes between games, for scripts/soak.sh.
#
#   SIZES    Hash sizes in MB, separated by commas, e.g. 16,1,64
#   COMMAND  the engine, e.g. ./bachess, or wine ./bachess.exe
#
# A runner such as fastchess sets an engine's options once, when it starts
# it, and keeps the process from game to game; a GUI whose user changes the
# table's size between games resizes it in the running engine. This wrapper
# does what that GUI does: before each `ucinewgame` it sends
# `setoption name Hash value SIZE`, the next size of SIZES in turn, so that
# the engine frees its table and allocates another in the middle of a
# match. Every other line passes through as it is.
#
# The engine replaces this script (exec): the runner's process is the
# engine's, its output goes straight to the runner, and a crash or an exit
# of the engine is seen as such. Only its input comes through the filter,
# which ends when the runner closes the engine's input.
set -u
[ $# -ge 2 ] && [[ $1 =~ ^[0-9]+(,[0-9]+)*$ ]] || {
    echo "usage: $0 SIZES COMMAND [ARGS...]   (SIZES: Hash sizes in MB, e.g. 16,1,64)" >&2
    exit 2
}
IFS=, read -r -a sizes <<<"$1"
shift
# bash's read takes a pipe a byte at a time, so each line goes on the moment
# it arrives (awk, which reads a pipe by the block, would hold it back).
forward() {
    local line next=0
    while IFS= read -r line; do
        if [[ $line =~ ^[[:space:]]*ucinewgame[[:space:]]*$ ]]; then
            printf 'setoption name Hash value %s\n' "${sizes[next % ${#sizes[@]}]}"
            next=$((next + 1))
        fi
        printf '%s\n' "$line"
    done
}
exec "$@" < <(forward)
