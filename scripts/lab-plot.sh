#!/bin/sh
# lab-plot.sh — measures the game-tree lab and draws leaves against depth.
#
#   scripts/lab-plot.sh [BACHESS [OUTDIR [LAB OPTIONS...]]]
#
# Runs `BACHESS lab` once (default ./bachess, built with `make` if missing)
# and writes, in OUTDIR (default docs/results):
#   lab.md         the Markdown tables that `bachess lab` prints replace the
#                  part between the lines "<!-- lab-table begin" and
#                  "<!-- lab-table end"; without them the tables go to $OUTDIR/lab-table.md
#   lab-data.txt   one line per measurement: order b t algo km b^t leaves ...
#   lab.svg        one panel per ordering and branching: leaf evaluations of
#                  each algorithm against depth (log scale), with the
#                  Knuth–Moore minimum dashed
# Needs gnuplot (Debian: gnuplot-nox). Options after OUTDIR go to `bachess lab`.
set -e
bin=${1:-./bachess}
out=${2:-docs/results}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
if [ "$bin" = ./bachess ] && [ ! -x ./bachess ]; then
    make bachess
fi
command -v gnuplot >/dev/null || { echo "lab-plot: gnuplot is missing (apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" lab --data-out "$out/lab-data.txt" "$@" >"$tmp/table.md"

if [ -f "$out/lab.md" ] && grep -q '^<!-- lab-table begin' "$out/lab.md"; then
    awk -v table="$tmp/table.md" '
        /^<!-- lab-table begin/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
        /^<!-- lab-table end/ { skip = 0 }
        !skip { print }
    ' "$out/lab.md" >"$tmp/lab.md"
    cp "$tmp/lab.md" "$out/lab.md"
    tables="$out/lab.md"
else
    cp "$tmp/table.md" "$out/lab-table.md"
    tables="$out/lab-table.md"
fi

# One file per series, "t leaves" per line, so that each line in the plot is
# one contiguous data set: ORDER-B-ALGO.dat, and B-km.dat for the minimum.
awk -v dir="$tmp" '
    /^#/ { next }
    { print $3, $7 > (dir "/" $1 "-" $2 "-" $4 ".dat")
      if (!(($2, $3) in km)) { km[$2, $3] = $5; print $3, $5 > (dir "/" $2 "-km.dat") } }
' "$out/lab-data.txt"
for o in perfect random worst; do
    for b in 2 5 10 20 35; do
        for a in minimax alphabeta negascout pvs mtdf; do
            touch "$tmp/$o-$b-$a.dat"
        done
        touch "$tmp/$b-km.dat"
    done
done

gnuplot <<EOF
set terminal ${LAB_PLOT_TERMINAL:-svg} size 1800,1050 font "sans,12" background "white"
set output "$out/${LAB_PLOT_FILE:-lab.svg}"
set datafile separator " "
set logscale y
set format y "10^{%L}"
set xrange [1.8:8.2]
set xtics 2,1,8
set grid ytics
set key top left font "sans,11"
set style line 1 lc rgb "#999999" lw 2 pt 6
set style line 2 lc rgb "#1f77b4" lw 2 pt 7
set style line 3 lc rgb "#d62728" lw 2 pt 5
set style line 4 lc rgb "#ff7f0e" lw 2 pt 9 dt 4
set style line 5 lc rgb "#2ca02c" lw 2 pt 11
set style line 6 lc rgb "black" lw 1.5 dt 2
set multiplot layout 3,5 title "Leaf evaluations against depth t (log scale); dashed: the Knuth–Moore minimum b^⌊t/2⌋ + b^⌈t/2⌉ − 1" noenhanced font "sans,15"
algos = "minimax alphabeta negascout pvs mtdf"
do for [o in "perfect random worst"] {
    do for [b in "2 5 10 20 35"] {
        set title sprintf("%s ordering, b = %s", o, b)
        if (o eq "perfect" && b eq "2") { set key } else { unset key }
        plot for [i=1:5] sprintf("$tmp/%s-%s-%s.dat", o, b, word(algos, i)) using 1:2 with linespoints ls i title word(algos, i), \
             sprintf("$tmp/%s-km.dat", b) using 1:2 with lines ls 6 title "K–M minimum"
    }
}
unset multiplot
EOF
echo "lab-plot: wrote $tables, $out/lab-data.txt and $out/${LAB_PLOT_FILE:-lab.svg}"
