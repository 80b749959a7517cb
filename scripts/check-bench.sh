#!/bin/sh
# Checks that the search is reproducible: `bachess bench` must print the
# node count stated as "Bench: N" in the newest commit message that states
# one, anywhere in the message (every commit that changes search behaviour
# states its new bench).
# Without such a commit (or outside git), it runs bench twice and compares.
set -eu
engine=${1:-./bachess}
nodes=$("$engine" bench | tail -n 1 | awk '{print $1}')
echo "bench: $nodes nodes"
stated=$(git log -n 200 --format=%B 2>/dev/null | grep -o 'Bench: *[0-9][0-9]*' | head -n 1 | grep -o '[0-9][0-9]*' || true)
if [ -n "$stated" ]; then
    if [ "$nodes" != "$stated" ]; then
        echo "bench MISMATCH: printed $nodes, last commit states Bench: $stated"
        exit 1
    fi
    echo "bench matches the last stated Bench: $stated"
else
    again=$("$engine" bench | tail -n 1 | awk '{print $1}')
    [ "$nodes" = "$again" ] || { echo "bench not reproducible: $nodes then $again"; exit 1; }
    echo "bench reproducible (no Bench: line in history yet)"
fi
