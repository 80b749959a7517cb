#!/bin/sh
# scripts/check-deps.sh — the dependencies between bachess's parts point one
# way (docs/source-map.md). Fails, naming the file and the include, when a
# lower layer includes a header of a higher one:
#   rules   types splitmix bitboard attacks zobrist board movegen notation perft tokens timer score chess960
#   search  eval evalweights pawns evaluator see history movepick tt timeman search search_params (+ nnue/, syzygy/)
#   engine  engine engine_options engine_book       options (a table that knows no owner)
#   games/  Polyglot books, PGN, game logs: the rules only
#   protocol/, tools/, web/   front ends and sub-commands, on top of everything
cd "$(dirname "$0")/.." || exit 2
status=0

includes() { sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"; }

# forbid FILE... -- PATTERN WHY: no file in the list includes a header matching PATTERN.
forbid() {
    pattern=$1 why=$2
    shift 2
    for f in "$@"; do
        [ -f "$f" ] || continue
        bad=$(includes "$f" | grep -E "$pattern" || true)
        if [ -n "$bad" ]; then
            echo "dependency error: $f includes $(echo $bad | tr '\n' ' ')— $why"
            status=1
        fi
    done
}

RULES="src/types.h src/splitmix.h src/bitboard.[ch] src/attacks.[ch] src/zobrist.[ch] src/board.[ch] src/movegen.[ch] src/notation.[ch] src/perft.[ch] src/tokens.[ch] src/timer.h src/score.h src/chess960.[ch]"
SEARCH="src/eval.[ch] src/evalweights.[ch] src/pawns.[ch] src/evaluator.[ch] src/search_params.[ch] src/see.[ch] src/history.h src/movepick.[ch] src/tt.[ch] src/timeman.[ch] src/search.[ch] src/nnue/*.[ch] src/syzygy/*.[ch]"
HIGHER_THAN_SEARCH='^(engine|engine_options|engine_book|options)\.h$|^(games|protocol|tools|web)/'
SEARCH_HEADERS='^(eval|evalweights|pawns|evaluator|see|history|movepick|tt|timeman|search|search_params)\.h$|^(nnue|syzygy)/'

# The two rules of the house issue, by name.
forbid '^engine\.h$' "the option table knows no owner" src/options.[ch]
forbid '^(engine|engine_options|engine_book|options)\.h$' "a book is a pure Polyglot library" src/games/book.[ch]
# The layers.
# shellcheck disable=SC2086
forbid "$SEARCH_HEADERS|$HIGHER_THAN_SEARCH" "rules know nothing above them" $RULES
# shellcheck disable=SC2086
forbid "$HIGHER_THAN_SEARCH" "search and evaluation report through callbacks, they read no options" $SEARCH
forbid "$SEARCH_HEADERS|^(engine|engine_options|engine_book|options)\.h$|^(protocol|tools|web)/" "games/ uses the rules only" src/games/*.[ch]
forbid '^(protocol|tools|web)/' "the engine core includes no front end or tool" src/options.[ch] src/engine.[ch] src/engine_options.[ch] src/engine_book.[ch]
forbid '^tools/' "a front end does not depend on a tool" src/protocol/*.[ch] src/web/*.[ch]

[ $status = 0 ] && echo "dependencies point one way: rules <- search <- engine <- protocol/tools (games/ on the rules)"
exit $status
