#!/usr/bin/env bash
# scripts/elo-calibration.sh — how well UCI_Elo means what it says: bachess
# limited to UCI_Elo X plays Stockfish 15.1 limited to the same X, for each X
# given, and the table says X, games, W-L-D, score and the Elo difference
# (positive: bachess at X plays stronger than Stockfish at X). The fit of
# the scale in src/strength.c comes from these tables (docs/strength-limit.md).
#
#   scripts/elo-calibration.sh [--games N] [--tc TC] [--concurrency C] [--out DIR] [--engine BIN] ELO...
#
# Defaults: 100 games a setting, 10+0.1, concurrency 2 (the machine's two
# cores: stop any background job first), games and logs in build/elo-calibration,
# the engine ./bachess.
# Stockfish calibrated its own UCI_Elo against CCRL at a longer control;
# bachess's time use at these settings is tiny (it is limited by nodes), so
# the control mostly decides how deep Stockfish looks.
set -u
cd "$(dirname "$0")/.."

games=100 tc=10+0.1 conc=2 out=build/elo-calibration engine=./bachess
while [ $# -gt 0 ]; do
	case "$1" in
	--games) games=${2:?}; shift 2 ;;
	--tc) tc=${2:?}; shift 2 ;;
	--concurrency) conc=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--engine) engine=${2:?}; shift 2 ;;
	-*) echo "elo-calibration: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 2; }
mkdir -p "$out"

# Elo difference and its 95 % margin from W, L, D (normal approximation of
# the mean score; the margin is the score's ±1.96 standard errors in Elo).
elo_line() {
	awk -v w="$1" -v l="$2" -v d="$3" '
	function elo(s) { return -400 * log(1 / s - 1) / log(10) }
	BEGIN {
		n = w + l + d; s = (w + d / 2) / n
		var = (w * (1 - s) ^ 2 + l * s ^ 2 + d * (0.5 - s) ^ 2) / n
		se = sqrt(var / n); lo = s - 1.96 * se; hi = s + 1.96 * se
		if (s <= 0 || s >= 1) { printf "%5.1f %%  beyond the scale", 100 * s; exit }
		low = -999; high = 999
		if (lo > 0) low = elo(lo)
		if (hi < 1) high = elo(hi)
		printf "%5.1f %%  %+5.0f  [%+.0f, %+.0f]", 100 * s, elo(s), low, high
	}'
}

table="$out/table.txt"
printf '%-6s %6s %-12s %s\n' UCI_Elo games W-L-D "score   Elo   [95 %]" >"$table"
status=0
for elo in "$@"; do
	log="$out/match-$elo.txt"
	scripts/match.sh --runner fastchess --option Hash=16 --test-option UCI_LimitStrength=true \
		--test-option UCI_Elo="$elo" --pgn "$out/games-$elo.pgn" "$engine" "stockfish:$elo" "$games" "$tc" "$conc" \
		>"$log" 2>&1 || status=1
	read -r w l d < <(sed -n 's/^result: .*(\([0-9]*\)-\([0-9]*\)-\([0-9]*\)).*/\1 \2 \3/p' "$log")
	if [ -z "${w:-}" ]; then
		echo "elo-calibration: no result at $elo, see $log" >&2
		status=1
		continue
	fi
	printf '%-6s %6s %-12s %s\n' "$elo" $((w + l + d)) "$w-$l-$d" "$(elo_line "$w" "$l" "$d")" | tee -a "$table"
	grep -q '^OK$' "$log" || echo "  (the match had problems: see $log)"
done
echo
cat "$table"
exit $status
