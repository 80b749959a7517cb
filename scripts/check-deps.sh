#!/bin/sh
# scripts/check-deps.sh — the dependencies between bachess's parts point one
# way (docs/source-map.md). Fails, naming the file and the include, when a
# lower layer includes a header of a higher one:
#   rules   types splitmix bitboard attacks zobrist board movegen notation perft tokens timer score chess960 wdl
#   search  eval evalweights pawns evaluator see history movepick tt timeman search search_params strength (+ nnue/, syzygy/)
#   engine  engine engine_settings engine_book engine_options   options (a table that knows no owner)
#   games/  Polyglot books, PGN, game logs: the rules only
#   protocol/, tools/, web/   front ends and sub-commands, on top of everything
# and fails, naming the files, on any include circle between parts (a part:
# a .c file and its .h, e.g. engine.c + engine.h), within a layer too.
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

RULES="src/types.h src/splitmix.h src/bitboard.[ch] src/attacks.[ch] src/zobrist.[ch] src/board.[ch] src/movegen.[ch] src/notation.[ch] src/perft.[ch] src/tokens.[ch] src/timer.h src/score.h src/chess960.[ch] src/wdl.[ch]"
SEARCH="src/eval.[ch] src/evalweights.[ch] src/pawns.[ch] src/evaluator.[ch] src/search_params.[ch] src/see.[ch] src/history.h src/movepick.[ch] src/tt.[ch] src/timeman.[ch] src/search.[ch] src/strength.[ch] src/nnue/*.[ch] src/syzygy/*.[ch]"
HIGHER_THAN_SEARCH='^(engine|engine_settings|engine_options|engine_book|options)\.h$|^(games|protocol|tools|web)/'
SEARCH_HEADERS='^(eval|evalweights|pawns|evaluator|see|history|movepick|tt|timeman|search|search_params|strength)\.h$|^(nnue|syzygy)/'

# The two rules of the house issue, by name.
forbid '^(engine|engine_settings|engine_options|engine_book)\.h$' "the option table knows no owner" src/options.[ch]
forbid '^(engine|engine_options|engine_book|options)\.h$' "a book is a pure Polyglot library" src/games/book.[ch]
# The layers.
# shellcheck disable=SC2086
forbid "$SEARCH_HEADERS|$HIGHER_THAN_SEARCH" "rules know nothing above them" $RULES
# shellcheck disable=SC2086
forbid "$HIGHER_THAN_SEARCH" "search and evaluation report through callbacks, they read no options" $SEARCH
forbid "$SEARCH_HEADERS|^(engine|engine_settings|engine_options|engine_book|options)\.h$|^(protocol|tools|web)/" "games/ uses the rules only" src/games/*.[ch]
forbid '^(protocol|tools|web)/' "the engine core includes no front end or tool" src/options.[ch] src/engine.[ch] src/engine_settings.h src/engine_options.[ch] src/engine_book.[ch]
forbid '^engine_options\.h$' "the options drive the engine, not the other way round" src/engine.[ch] src/engine_book.[ch] src/engine_settings.h
forbid '^tools/' "a front end does not depend on a tool" src/protocol/*.[ch] src/web/*.[ch]

# No circles: every part's includes as "part included-part" pairs (a part
# is a path under src/ without its extension), sorted by tsort, which
# names the parts of a loop when there is one.
edges() {
    for f in $(find src -name '*.[ch]' | sort); do
        part=${f#src/}
        part=${part%.*}
        includes "$f" | sed 's/\.h$//' | while read -r used; do
            [ "$used" = "$part" ] || echo "$part $used"
        done
    done
}
loops=$(edges | tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-][^:]*\)$/\1/p' | sort -u)
if [ -n "$loops" ]; then
    echo "dependency error: an include circle through $(echo $loops | tr '\n' ' ')— a part must not depend on itself"
    status=1
fi

[ $status = 0 ] && echo "dependencies point one way: rules <- search <- engine <- protocol/tools (games/ on the rules); no include circles"
exit $status
