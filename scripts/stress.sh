#!/usr/bin/env bash
# scripts/stress.sh — the reliability match: many very fast games
# over both protocols, counting everything that must never happen.
#
#   scripts/stress.sh ENGINE [GAMES_PER_PART] [TC] [OUTDIR]
#
#   ENGINE          the bachess binary
#   GAMES_PER_PART  games in each of the four parts (default 250, so 1,000 in all)
#   TC              time control as base+increment in seconds (default 1+0.01)
#   OUTDIR          PGNs and logs (default: a new /tmp/bachess-stress-XXXXXX)
#   STRESS_REPORT_ONLY=1 in the environment: only count the games in OUTDIR
#
# The four parts, two at a time (the machine has two cores, a game keeps
# about one busy):
#   uci-fairymax   bachess over UCI vs Fairy-Max, in cutechess-cli (match.sh)
#   uci-bachess    bachess over UCI vs a second bachess process, in cutechess-cli
#   cecp-fairymax  bachess over CECP vs Fairy-Max, in XBoard headless (xboard-match.sh)
#   cecp-bachess   bachess over CECP vs a second bachess process, in XBoard headless
#
# Counted from the PGNs and the runners' logs, for bachess and for the
# opponent separately: crashes and disconnects, illegal moves, losses on
# time, false result claims. Exit status 0 only when bachess has none of
# them in any game and every game was played; the opponent's troubles are
# reported but are not bachess's failure.
#
# Needs cutechess-cli (built outside this repository, see match.sh) and the
# Debian packages xboard xvfb xauth fairymax.
set -u

[ $# -ge 1 ] && [ -x "$1" ] || { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 2; }
ENGINE=$(realpath "$1")
GAMES=${2:-250}
TC=${3:-1+0.01}
OUT=${4:-$(mktemp -d /tmp/bachess-stress-XXXXXX)}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
[[ $TC =~ ^([0-9]+)\+([0-9.]+)$ ]] || { echo "stress: TC must be base+increment in seconds, e.g. 1+0.01" >&2; exit 2; }
BASE=${BASH_REMATCH[1]} INC=${BASH_REMATCH[2]}

# The CECP opponent copy lives in its own directory, so that XBoard starts
# two separate processes from two paths.
mkdir -p "$OUT/second" && cp "$ENGINE" "$OUT/second/bachess"

uci_part() { # name opponent
    "$HERE/match.sh" --pgn "$OUT/$1.pgn" "$ENGINE" "$2" "$GAMES" "$TC" 1 >"$OUT/$1.out" 2>&1
}
cecp_part() { # name [opponent path]
    XB_TC="0:$(printf '%02d' "$BASE")" XB_INC=$INC XB_PONDER=false XB_ANALYSIS=0 XB_OPPONENT=${2:-} \
        "$HERE/xboard-match.sh" "$ENGINE" "$GAMES" "$OUT/$1" >"$OUT/$1.out" 2>&1
    cp "$OUT/$1/games.pgn" "$OUT/$1.pgn" 2>/dev/null
}

# STRESS_REPORT_ONLY=1: count the games already in OUTDIR, play nothing.
if [ "${STRESS_REPORT_ONLY:-0}" != 1 ]; then
    echo "stress: 4 x $GAMES games at $TC; output in $OUT"
    start=$(date +%s)
    ( uci_part uci-fairymax fairymax; uci_part uci-bachess "bachess:$OUT/second/bachess" ) &
    ( cecp_part cecp-fairymax; cecp_part cecp-bachess "$OUT/second/bachess" ) &
    wait
    echo "stress: played in $(($(date +%s) - start)) s"
fi

# Per PGN: games, and each kind of trouble split by who caused it. The
# culprit is the side that lost the game (bachess, to be safe, in a drawn
# game that did not end on time);
# in a bachess-vs-bachess part both sides are bachess.
# A drawn game can also end on time (the flag fell, but the other side
# could not mate): the side that flagged is then the one to move after the
# last move, found from the start position's side and the number of plies.
count() { # pgn
    awk '
    function flagged(   text, plies, i, n, tok, white_moved_last) {
        text = moves
        gsub(/\{[^}]*\}/, " ", text)
        n = split(text, tok, /[ \t]+/)
        plies = 0
        for (i = 1; i <= n; i++)
            if (tok[i] != "" && tok[i] !~ /^[0-9]+\.+$/ && tok[i] !~ /^(1-0|0-1|1\/2-1\/2|\*)$/) plies++
        white_moved_last = (start == "w") ? plies % 2 == 1 : plies % 2 == 0
        return white_moved_last ? black : white
    }
    function flush(   loser, who, text) {
        if (res == "") return
        games++
        text = tolower(term " " comment)
        loser = res == "1-0" ? black : res == "0-1" ? white : ""
        if (loser == "" && text ~ /timeout|on time|time forfeit/) loser = flagged()
        who = (loser == "" || loser ~ /^bachess/) ? "b" : "o"
        if (text ~ /illegal move|makes an illegal|illegal position/) ill[who]++
        else if (text ~ /on time|time forfeit|timeout|time out|flag/) tim[who]++
        else if (text ~ /disconnect|abandon|stall|exited|crash|lost contact|terminat|unterminated/) cra[who]++
        else if (text ~ /false|invalid claim|illegal claim|incorrect claim|claim.*(refused|rejected)/) cla[who]++
        res = white = black = term = comment = moves = ""; start = "w"
    }
    BEGIN             { start = "w" }
    /^\[Event /       { flush() }
    /^\[White "/      { white = $0; sub(/^\[White "/, "", white); sub(/"\].*/, "", white) }
    /^\[Black "/      { black = $0; sub(/^\[Black "/, "", black); sub(/"\].*/, "", black) }
    /^\[Result "/     { res = $0; sub(/^\[Result "/, "", res); sub(/"\].*/, "", res) }
    /^\[Termination "/{ term = $0 }
    /^\[FEN "/        { split($0, f, " "); start = f[3] }
    !/^\[/            { moves = moves " " $0 }
    /\{[^}]*\} *(1-0|0-1|1\/2-1\/2|\*) *$/ { comment = $0 }
    END {
        flush()
        printf "%d %d %d %d %d %d %d %d %d\n", games + 0, cra["b"] + 0, ill["b"] + 0, tim["b"] + 0, cla["b"] + 0,
            cra["o"] + 0, ill["o"] + 0, tim["o"] + 0, cla["o"] + 0
    }' "$1"
}

printf '\n%-14s %6s | %-31s | %s\n' part games "bachess: crash illegal time claim" "opponent: crash illegal time claim"
total=0 bad=0 missing=0
for part in uci-fairymax uci-bachess cecp-fairymax cecp-bachess; do
    pgn=$OUT/$part.pgn
    if [ -s "$pgn" ]; then read -r n c i t f oc oi ot of <<<"$(count "$pgn")"; else n=0 c=0 i=0 t=0 f=0 oc=0 oi=0 ot=0 of=0; fi
    printf '%-14s %6d | %9d %7d %4d %5d | %10d %7d %4d %5d\n' "$part" "$n" "$c" "$i" "$t" "$f" "$oc" "$oi" "$ot" "$of"
    total=$((total + n)) bad=$((bad + c + i + t + f))
    [ "$n" -ge "$GAMES" ] || { missing=$((missing + GAMES - n)); echo "  $part: only $n of $GAMES games; see $OUT/$part.out"; }
    # The runner's own judgement (it also reads the engines' logs); it
    # fails on the opponent's troubles as well, so it is shown, not counted.
    grep -E '^(OK|FAIL)|xboard-match: (ok|FAIL)' "$OUT/$part.out" | sed "s/^/  $part: /"
done
echo "stress: $total games; bachess problems: $bad; games missing: $missing"
[ "$bad" = 0 ] && [ "$missing" = 0 ]
