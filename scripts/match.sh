#!/usr/bin/env bash
# scripts/match.sh — play a match of a bachess binary against a reference engine
# (or against another bachess binary) and judge the result.
#
#   scripts/match.sh [options] ENGINE_CMD OPPONENT GAMES TC [CONCURRENCY]
#
#   ENGINE_CMD   the bachess binary under test, optionally with arguments
#                ("./bachess" or "./bachess --some-flag"); it must speak UCI
#                (or XBoard with --proto xboard).
#   OPPONENT     one of (Debian package in brackets; the table near the end of
#                the option parsing gives the exact command and options)
#                  stockfish      UCI     [stockfish]  Stockfish 15.1, ~3500
#                  stockfish:ELO  UCI     Stockfish limited to ELO (UCI_LimitStrength,
#                                         UCI_Elo 1350..2850)
#                  ethereal       UCI     [ethereal-chess] Ethereal 12
#                  toga2          UCI     [toga2]      Toga II 3.0
#                  glaurung       UCI     [glaurung]   Glaurung 2.2
#                  gnuchess       UCI     [gnuchess]   GNU Chess 6.2.7 (gnuchess --uci)
#                  phalanx        XBoard  [phalanx]    Phalanx XXV
#                  sjeng          XBoard  [sjeng]      Sjeng 11.2
#                  hoichess       XBoard  [hoichess]   HoiChess 0.22
#                  fairymax       XBoard  [fairymax]   Fairy-Max 5.0b (weakest)
#                  bachess:/path/to/other/binary     another bachess build (UCI),
#                                 e.g. the previous version, for SPRT
#                  uci:/path/to/engine   any other UCI engine, Hash=16 Threads=1:
#                                 e.g. Ethereal 12 built natively (`make pext`)
#   GAMES        number of games (rounded up to an even number: every opening
#                is played twice, once with each colour); in SPRT mode, the
#                most games to play before stopping undecided.
#   TC           time control in the runner's format, e.g. 5+0.05, 10+0.1, 40/60+0.
#   CONCURRENCY  games played at once (default 1; the machine has 2 cores).
#
# Options:
#   --pgn FILE          write the games to FILE (overwritten); the default is a new
#                       file /tmp/bachess-match-XXXXXX.pgn. The runner's log is
#                       written next to it as FILE.log.
#   --sprt SPEC         stop early by SPRT. SPEC is the runner's syntax,
#                       "elo0=0 elo1=5 alpha=0.05 beta=0.05", or the short form
#                       "ELO0,ELO1" (alpha = beta = 0.05).
#   --runner NAME       cutechess (default; UCI and XBoard) or fastchess (UCI only).
#   --proto P           protocol of ENGINE_CMD: uci (default) or xboard.
#   --name NAME         name of the engine under test in the PGN (default bachess).
#   --option NAME=VAL   UCI option for the engine under test (and for a bachess:
#                       opponent); repeatable, e.g. --option Hash=16.
#   --test-option NAME=VAL
#                       UCI option for the engine under test only (repeatable), e.g.
#                       --test-option Evaluation=NNUE against the same binary's
#                       classical evaluation.
#   --margin MS         let bachess (both, in bachess-vs-bachess) overstep its
#                       clock by MS milliseconds before it loses on time (default
#                       0: any overstep loses). Reference engines always get
#                       $OPP_MARGIN ms (default 100).
#   --adjudicate        end clearly decided games early: resign when both engines
#                       agree on >= 10 pawns for 3 moves, draw after move 40 when
#                       both report |score| <= 0.10 for 8 moves. Off by default
#                       (scores of a young engine may not be trustworthy).
#   --openings FILE     EPD openings (default data/openings.epd of this repo).
#   --srand N           seed of the random opening order (default: from the clock;
#                       printed, so that a match can be replayed).
#   --nodes N           each engine searches N nodes a move (the runner sends
#                       `go nodes N`), TC staying a safety clock: for comparing
#                       networks, where only the evaluation differs, by games
#                       that do not depend on the machine's load.
#
# Prints the score (W-L-D from the point of view of the engine under test, the
# score in %, and the runner's Elo line, plus the SPRT line in SPRT mode), then
# the number of illegal moves, time forfeits, disconnects/crashes, stalled
# connections and killed ("terminated") engine processes, each split by side.
# Exit status: 0 when all of those are zero, the runner succeeded and (without
# SPRT) every game was played; 1 otherwise; 2 for a usage error or a missing
# runner or engine.
#
# THE RUNNER AND THE REFERENCE ENGINES ARE NOT PART OF THIS PROJECT. This script
# neither builds nor installs anything. It expects:
#   - cutechess-cli at $CUTECHESS (default: cutechess-cli on the PATH), or
#     fastchess at $FASTCHESS (default: fastchess on the PATH) with --runner
#     fastchess: both are built by hand outside this repository from their
#     own upstream sources;
#   - the opponents from Debian packages (binaries in /usr/games):
#       apt-get install stockfish fairymax phalanx sjeng hoichess gnuchess \
#                       glaurung toga2 ethereal-chess
#
# Examples:
#   scripts/match.sh ./bachess fairymax 20 5+0.05
#   scripts/match.sh --pgn /tmp/vs-sf.pgn ./bachess stockfish:1500 40 10+0.1 2
#   scripts/match.sh --sprt 0,5 ./bachess bachess:/tmp/bachess-old 2000 5+0.05 2
set -u

usage() {
	sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "match.sh: $*" >&2; exit 2; }

REPO=$(cd "$(dirname "$0")/.." && pwd)
CUTECHESS=${CUTECHESS:-$(command -v cutechess-cli || echo cutechess-cli)}
FASTCHESS=${FASTCHESS:-$(command -v fastchess || echo fastchess)}

PGN="" SPRT="" RUNNER=cutechess PROTO=uci NAME=bachess MARGIN=0 ADJ=0
OPENINGS="$REPO/data/openings.epd" SRAND="" NODES="" TEST_OPTS=() TEST_ONLY_OPTS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--pgn) PGN=${2:?}; shift 2 ;;
	--sprt) SPRT=${2:?}; shift 2 ;;
	--runner) RUNNER=${2:?}; shift 2 ;;
	--proto) PROTO=${2:?}; shift 2 ;;
	--name) NAME=${2:?}; shift 2 ;;
	--option) TEST_OPTS+=("${2:?}"); shift 2 ;;
	--test-option) TEST_ONLY_OPTS+=("${2:?}"); shift 2 ;;
	--margin) MARGIN=${2:?}; shift 2 ;;
	--adjudicate) ADJ=1; shift ;;
	--openings) OPENINGS=${2:?}; shift 2 ;;
	--srand) SRAND=${2:?}; shift 2 ;;
	--nodes) NODES=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 4 ] && [ $# -le 5 ] || usage
ENGINE_CMD=$1 OPPONENT=$2 GAMES=$3 TC=$4 CONC=${5:-1}

[[ $GAMES =~ ^[1-9][0-9]*$ ]] || die "GAMES must be a positive number"
[[ $CONC =~ ^[1-9][0-9]*$ ]] || die "CONCURRENCY must be a positive number"
[[ $MARGIN =~ ^[0-9]+$ ]] || die "--margin wants milliseconds"
[ -z "$NODES" ] || [[ $NODES =~ ^[1-9][0-9]*$ ]] || die "--nodes wants a positive number"
EACH_LIMIT=("tc=$TC")
[ -z "$NODES" ] || EACH_LIMIT+=("nodes=$NODES")
[[ $TC =~ ^([0-9]+/)?[0-9.:]+(\+[0-9.]+)?$ ]] || die "bad time control '$TC' (e.g. 5+0.05)"
case $PROTO in uci|xboard) ;; *) die "--proto is uci or xboard" ;; esac
[ -r "$OPENINGS" ] || die "no openings file $OPENINGS"
OPENINGS=$(realpath "$OPENINGS")
ROUNDS=$(( (GAMES + 1) / 2 ))
GAMES=$(( ROUNDS * 2 ))
[ -n "$SRAND" ] || SRAND=$(( $(date +%s) % 1000000007 ))
if [ -n "$SPRT" ] && [[ $SPRT =~ ^(-?[0-9.]+),(-?[0-9.]+)$ ]]; then
	SPRT="elo0=${BASH_REMATCH[1]} elo1=${BASH_REMATCH[2]} alpha=0.05 beta=0.05"
fi
read -r -a SPRT_ARGS <<<"$SPRT"

# A command line "prog args..." -> absolute program path + argument list.
resolve_cmd() { # $1 = command line; sets RES_PROG and RES_ARGS
	local -a words
	read -r -a words <<<"$1"
	[ ${#words[@]} -gt 0 ] || die "empty engine command"
	local p=${words[0]}
	if [[ $p == */* ]]; then
		[ -x "$p" ] || die "engine $p is not an executable file"
		RES_PROG=$(realpath "$p")
	else
		RES_PROG=$(command -v "$p") || die "engine $p not found in PATH"
	fi
	RES_ARGS=("${words[@]:1}")
}

# ---- the engine under test -------------------------------------------------
resolve_cmd "$ENGINE_CMD"
A_NAME=$NAME A_PROTO=$PROTO A_CMD=$RES_PROG A_ARGS=("${RES_ARGS[@]}")
A_OPTS=("${TEST_OPTS[@]}" "${TEST_ONLY_OPTS[@]}") A_INIT=""

# ---- the opponents ---------------------------------------------------------
# name         protocol  command + arguments                      options / init
# stockfish    uci       /usr/games/stockfish                     Hash=16 Threads=1
# ethereal     uci       /usr/games/ethereal-chess                Hash=16 Threads=1
# toga2        uci       /usr/games/toga2                         Hash=16 OwnBook=false
# glaurung     uci       /usr/games/glaurung                      Hash=16 Threads=1 OwnBook=false
# gnuchess     uci       /usr/games/gnuchess --uci                Hash=16 OwnBook=false
# fairymax     xboard    /usr/games/fairymax                      (no setboard: gets "edit")
# phalanx      xboard    /usr/games/phalanx -b- -l-               (no book, no learning)
# sjeng        xboard    /usr/games/sjeng                         (no book file in Debian)
# hoichess     xboard    /usr/games/hoichess -x --norc --initcmd "hash size 16M"  (no book)
# gnuchess is played over UCI: its XBoard mode (gnuchess -x) answers late through a
# pipe, so cutechess misses its features, falls back to "edit" (which it lacks) and
# then sees a stalled connection.
B_ARGS=() B_OPTS=() B_INIT=""
case $OPPONENT in
stockfish) B_PROTO=uci B_CMD=/usr/games/stockfish B_OPTS=(Hash=16 Threads=1) ;;
stockfish:*)
	elo=${OPPONENT#stockfish:}
	[[ $elo =~ ^[0-9]+$ ]] && [ "$elo" -ge 1350 ] && [ "$elo" -le 2850 ] ||
		die "stockfish:ELO wants ELO in 1350..2850"
	B_PROTO=uci B_CMD=/usr/games/stockfish
	B_OPTS=(Hash=16 Threads=1 UCI_LimitStrength=true "UCI_Elo=$elo") ;;
ethereal) B_PROTO=uci B_CMD=/usr/games/ethereal-chess B_OPTS=(Hash=16 Threads=1) ;;
toga2) B_PROTO=uci B_CMD=/usr/games/toga2 B_OPTS=(Hash=16 OwnBook=false) ;;
glaurung) B_PROTO=uci B_CMD=/usr/games/glaurung B_OPTS=(Hash=16 Threads=1 OwnBook=false) ;;
gnuchess) B_PROTO=uci B_CMD=/usr/games/gnuchess B_ARGS=(--uci) B_OPTS=(Hash=16 OwnBook=false) ;;
fairymax) B_PROTO=xboard B_CMD=/usr/games/fairymax ;;
phalanx) B_PROTO=xboard B_CMD=/usr/games/phalanx B_ARGS=(-b- -l-) ;;
sjeng) B_PROTO=xboard B_CMD=/usr/games/sjeng ;;
hoichess) B_PROTO=xboard B_CMD=/usr/games/hoichess B_ARGS=(-x --norc --initcmd "hash size 16M") ;;
uci:*)
	resolve_cmd "${OPPONENT#uci:}"
	B_PROTO=uci B_CMD=$RES_PROG B_ARGS=("${RES_ARGS[@]}") B_OPTS=(Hash=16 Threads=1) ;;
bachess:*)
	resolve_cmd "${OPPONENT#bachess:}"
	B_PROTO=uci B_CMD=$RES_PROG B_ARGS=("${RES_ARGS[@]}") B_OPTS=("${TEST_OPTS[@]}") ;;
*) die "unknown opponent '$OPPONENT': stockfish stockfish:ELO ethereal toga2 glaurung gnuchess fairymax phalanx sjeng hoichess bachess:/path uci:/path" ;;
esac
[ -x "$B_CMD" ] || die "opponent $B_CMD is not installed (Debian package? see the header)"
case $OPPONENT in
bachess:*) B_NAME="$NAME-ref" ;;
uci:*) B_NAME=$(basename "$B_CMD") ;;
stockfish:*) B_NAME="stockfish-${OPPONENT#stockfish:}" ;;
*) B_NAME=$OPPONENT ;;
esac
[ "$A_NAME" != "$B_NAME" ] || B_NAME="$B_NAME-2"
# Clock tolerance: bachess gets --margin (strict by default: an overstep is a
# bug in its time management); the reference engines get OPP_MARGIN ms, since
# on a loaded 2-core machine they overstep by a few ms now and then (Stockfish
# did, by 5 ms) and that is not what is being judged.
case $OPPONENT in
bachess:*) B_MARGIN=$MARGIN ;;
*) B_MARGIN=${OPP_MARGIN:-100} ;;
esac
[[ $B_MARGIN =~ ^[0-9]+$ ]] || die "OPP_MARGIN wants milliseconds"

case $RUNNER in
cutechess)
	[ -x "$CUTECHESS" ] || die "cutechess-cli not found at $CUTECHESS (set \$CUTECHESS; it is built outside this repo)" ;;
fastchess)
	[ -x "$FASTCHESS" ] || die "fastchess not found at $FASTCHESS (set \$FASTCHESS; it is built outside this repo)"
	[ "$A_PROTO" = uci ] && [ "$B_PROTO" = uci ] || die "fastchess speaks UCI only: use --runner cutechess against $OPPONENT" ;;
*) die "--runner is cutechess or fastchess" ;;
esac

# ---- output files ----------------------------------------------------------
if [ -z "$PGN" ]; then
	PGN=$(mktemp /tmp/bachess-match-XXXXXX.pgn) || die "mktemp failed"
fi
: >"$PGN" || die "cannot write $PGN"
PGN=$(realpath "$PGN")
LOG="$PGN.log"
: >"$LOG"
# cutechess drops an engine's standard error unless told where to put it: keep
# bachess's (assertion messages, sanitizer reports) next to the PGN.
ERR_A="" ERR_B=""
if [ "$RUNNER" = cutechess ]; then
	ERR_A="$PGN.$A_NAME.stderr"; : >"$ERR_A"
	case $OPPONENT in bachess:*) ERR_B="$PGN.$B_NAME.stderr"; : >"$ERR_B" ;; esac
fi
# The runner and the engines run in a scratch directory: fastchess writes a
# config.json into its working directory, some engines write logs or learn files.
WORK=$(mktemp -d /tmp/bachess-match-run-XXXXXX) || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT

# ---- the runner's command line ---------------------------------------------
CMD=()
engine_args() { # runner name proto cmd margin init stderr-file "args..." -- options...
	local runner=$1 name=$2 proto=$3 cmd=$4 margin=$5 init=$6 errfile=$7; shift 7
	local -a args=() opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	opts=("$@")
	CMD+=(-engine "name=$name" "cmd=$cmd" "proto=$proto" "dir=$WORK" "timemargin=$margin")
	if [ "$runner" = cutechess ]; then
		local a
		for a in "${args[@]}"; do CMD+=("arg=$a"); done
		[ -z "$init" ] || CMD+=("initstr=$init")
		[ -z "$errfile" ] || CMD+=("stderr=$errfile")
	elif [ ${#args[@]} -gt 0 ]; then
		CMD+=("args=${args[*]}")
	fi
	local o
	for o in "${opts[@]}"; do CMD+=("option.$o"); done
}

case $RUNNER in
cutechess)
	CMD=("$CUTECHESS")
	engine_args cutechess "$A_NAME" "$A_PROTO" "$A_CMD" "$MARGIN" "$A_INIT" "$ERR_A" "${A_ARGS[@]}" -- "${A_OPTS[@]}"
	engine_args cutechess "$B_NAME" "$B_PROTO" "$B_CMD" "$B_MARGIN" "$B_INIT" "$ERR_B" "${B_ARGS[@]}" -- "${B_OPTS[@]}"
	CMD+=(-each "${EACH_LIMIT[@]}"
		-openings "file=$OPENINGS" format=epd order=random policy=default
		-repeat -games 2 -rounds "$ROUNDS" -srand "$SRAND"
		-concurrency "$CONC" -recover -ratinginterval 0 -pgnout "$PGN")
	[ -z "$SPRT" ] || CMD+=(-sprt "${SPRT_ARGS[@]}")
	[ $ADJ = 0 ] || CMD+=(-resign movecount=3 score=1000 twosided=true
		-draw movenumber=40 movecount=8 score=10)
	;;
fastchess)
	CMD=("$FASTCHESS")
	engine_args fastchess "$A_NAME" uci "$A_CMD" "$MARGIN" "" "" "${A_ARGS[@]}" -- "${A_OPTS[@]}"
	engine_args fastchess "$B_NAME" uci "$B_CMD" "$B_MARGIN" "" "" "${B_ARGS[@]}" -- "${B_OPTS[@]}"
	CMD+=(-each "${EACH_LIMIT[@]}"
		-openings "file=$OPENINGS" format=epd order=random
		-repeat -rounds "$ROUNDS" -srand "$SRAND"
		-concurrency "$CONC" -recover -autosaveinterval 0 -ratinginterval 0
		-pgnout "file=$PGN" append=false)
	[ -z "$SPRT" ] || CMD+=(-sprt "${SPRT_ARGS[@]}")
	[ $ADJ = 0 ] || CMD+=(-resign movecount=3 score=1000 twosided=true
		-draw movenumber=40 movecount=8 score=10)
	;;
*) die "--runner is cutechess or fastchess" ;;
esac

echo "match: $A_NAME ($A_CMD${A_ARGS[*]:+ ${A_ARGS[*]}}, $A_PROTO) vs $B_NAME ($B_CMD${B_ARGS[*]:+ ${B_ARGS[*]}}, $B_PROTO)"
echo "       $GAMES games at $TC${NODES:+ and $NODES nodes a move}, concurrency $CONC, runner $RUNNER, openings $(basename "$OPENINGS") (srand $SRAND)${SPRT:+, SPRT $SPRT}"
echo "       time margin: $A_NAME ${MARGIN} ms, $B_NAME ${B_MARGIN} ms"
echo "       pgn $PGN"
echo "       log $LOG"

# ---- play --------------------------------------------------------------------
START=$(date +%s.%N)
# Progress: one line per finished game, plus the runner's warnings (less the
# known noise: fairymax's missing setboard, and fastchess's PV warnings about a
# Stockfish limited by UCI_Elo, whose chosen move is often not its PV's first).
(cd "$WORK" && "${CMD[@]}") 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g' | tee "$LOG" |
	grep --line-buffered -iE '^Finished game|warn|illegal|forfeit|loses on time|disconnect|stall|terminat|crash|error' |
	grep --line-buffered -vE 'does not support the setboard command|^ +"|^ *Crashed: 0$' |
	grep --line-buffered -vE "does not match beginning of last PV - move [^ ]+ from $B_NAME\$" |
	sed -u 's/^/  /'
RC=${PIPESTATUS[0]}
END=$(date +%s.%N)

# ---- judge -------------------------------------------------------------------
# Per game, from the PGN: result, and the termination the runner recorded
# (cutechess and fastchess use the same Termination values).
SUMMARY=$(awk -v A="$A_NAME" '
	function flush() {
		if (res == "") return
		n++
		if (res == "1/2-1/2") d++
		else if ((res == "1-0" && w == A) || (res == "0-1" && b == A)) win++
		else if (res == "1-0" || res == "0-1") loss++
		if (res == "1-0") loser = b; else if (res == "0-1") loser = w; else loser = ""
		side = (loser == A) ? "a" : (loser == "" ? "?" : "b")
		if (term == "illegal move") ill[side]++
		else if (term == "time forfeit") tf[side]++
		else if (term == "abandoned") ab[side]++
		else if (term == "stalled connection") st[side]++
		else if (term == "unterminated") un++
		res = ""; w = ""; b = ""; term = ""
	}
	/^\[Event / { flush() }
	/^\[White "/ { w = $0; sub(/^\[White "/, "", w); sub(/"\]\r?$/, "", w) }
	/^\[Black "/ { b = $0; sub(/^\[Black "/, "", b); sub(/"\]\r?$/, "", b) }
	/^\[Result "/ { res = $0; sub(/^\[Result "/, "", res); sub(/"\]\r?$/, "", res) }
	/^\[Termination "/ { term = $0; sub(/^\[Termination "/, "", term); sub(/"\]\r?$/, "", term) }
	END {
		flush()
		printf "%d %d %d %d", n+0, win+0, loss+0, d+0
		printf " %d %d %d", ill["a"]+0, ill["b"]+0, ill["?"]+0
		printf " %d %d %d", tf["a"]+0, tf["b"]+0, tf["?"]+0
		printf " %d %d %d", ab["a"]+0, ab["b"]+0, ab["?"]+0
		printf " %d %d %d", st["a"]+0, st["b"]+0, st["?"]+0
		printf " %d\n", un+0
	}' "$PGN")
read -r N W L D ILL_A ILL_B ILL_X TF_A TF_B TF_X AB_A AB_B AB_X ST_A ST_B ST_X UNTERM <<<"$SUMMARY"
# Games decided by a rejected claim (an engine claimed a result the runner
# refused, or an XBoard engine said the move it was sent is illegal).
CLAIMS=$(grep -E '^Finished game' "$LOG" | grep -ciE 'claim')

# Killed engine processes, per engine, from the runner's log.
TERM_A=$(grep -cE "^Terminating process of engine $A_NAME\(" "$LOG")
TERM_B=$(grep -cE "^Terminating process of engine $B_NAME\(" "$LOG")
# Any other line of the log naming such trouble (e.g. a game the runner
# dropped from the PGN, or an engine that failed to start).
OTHER=$(grep -iE 'illegal|forfeit|loses on time|disconnect|stall|terminat|crash|could not|failed|error' "$LOG" |
	grep -vE '^(Finished game|Terminating process of engine|Player:|   ")' |
	grep -vE '^ *(Timeouts|Crashed): 0$' | grep -vcE '^\s*$')

ELAPSED=$(awk -v s="$START" -v e="$END" 'BEGIN { printf "%.1f", e - s }')
PER_GAME=$(awk -v t="$ELAPSED" -v n="$N" -v c="$CONC" 'BEGIN { if (n) printf "%.1f", t * c / n; else print "-" }')
PCT=$(awk -v w="$W" -v d="$D" -v n="$N" 'BEGIN { if (n) printf "%.1f", 100 * (w + d / 2) / n; else print "-" }')

echo
echo "result: $A_NAME vs $B_NAME: +$W -$L =$D ($W-$L-$D) in $N games, score $PCT %"
if [ "$RUNNER" = cutechess ]; then
	grep -E '^Elo difference:' "$LOG" | tail -n 1 | sed 's/^/  /'
	[ -z "$SPRT" ] || grep -E '^SPRT:' "$LOG" | tail -n 1 | sed 's/^/  /'
else
	grep -E '^(Elo|LOS|Games|Ptnml):' "$LOG" | tail -n 4 | sed 's/^/  /'
	[ -z "$SPRT" ] || grep -E '^(LLR|SPRT)|H[01] (was )?accepted' "$LOG" | tail -n 2 | sed 's/^/  /'
fi
echo "time: ${ELAPSED}s in all, ${PER_GAME}s per game (one game at a time)"
printf "illegal moves:      %d  (%s %d, %s %d, draw %d)\n" $((ILL_A + ILL_B + ILL_X)) "$A_NAME" "$ILL_A" "$B_NAME" "$ILL_B" "$ILL_X"
printf "time forfeits:      %d  (%s %d, %s %d, draw %d)\n" $((TF_A + TF_B + TF_X)) "$A_NAME" "$TF_A" "$B_NAME" "$TF_B" "$TF_X"
printf "disconnects:        %d  (%s %d, %s %d, draw %d)\n" $((AB_A + AB_B + AB_X)) "$A_NAME" "$AB_A" "$B_NAME" "$AB_B" "$AB_X"
printf "stalled:            %d  (%s %d, %s %d, draw %d)\n" $((ST_A + ST_B + ST_X)) "$A_NAME" "$ST_A" "$B_NAME" "$ST_B" "$ST_X"
printf "terminated engines: %d  (%s %d, %s %d)\n" $((TERM_A + TERM_B)) "$A_NAME" "$TERM_A" "$B_NAME" "$TERM_B"
printf "rejected claims:    %d\n" "$CLAIMS"
printf "unfinished games:   %d\n" "$UNTERM"
printf "other log warnings: %d\n" "$OTHER"
for f in "$ERR_A" "$ERR_B"; do
	if [ -z "$f" ]; then
		continue
	elif [ -s "$f" ]; then
		echo "engine stderr: $(wc -l <"$f") line(s) in $f (not counted as a problem)"
	else
		rm -f "$f"
	fi
done

STATUS=0
BAD=$((ILL_A + ILL_B + ILL_X + TF_A + TF_B + TF_X + AB_A + AB_B + AB_X + ST_A + ST_B + ST_X + TERM_A + TERM_B + CLAIMS + UNTERM + OTHER))
if [ "$BAD" -ne 0 ]; then
	echo "FAIL: $BAD problem(s); see $LOG and $PGN"
	STATUS=1
fi
if [ "$RC" -ne 0 ]; then
	echo "FAIL: $RUNNER exited with status $RC"
	STATUS=1
fi
if [ -z "$SPRT" ] && [ "$N" -ne "$GAMES" ]; then
	echo "FAIL: $N of $GAMES games in the PGN"
	STATUS=1
fi
[ $STATUS -ne 0 ] || echo "OK"
exit $STATUS
