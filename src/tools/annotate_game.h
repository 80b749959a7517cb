#pragma once
/*
 * annotate_game.h — one game of `bachess annotate` (docs/annotate.md).
 *
 * The game's positions are searched (tools/annotate_search.h). A move is
 * judged by the score before it against the score after it
 * (tools/accuracy.h), never when it is the engine's own choice.
 *
 * The game is then written as PGN: the tags read (Seven Tag Roster first),
 * then Annotator and, per player annotated, Accuracy and ACPL tags; every
 * move with a `{[%eval …]}` comment (none after a mate on the board); a
 * marked move with its NAG, what it threw away where the engine can tell
 * (a mate, or a piece the reply takes for good) and the engine's move; a
 * mistake or blunder with the engine's line as a variation. Comments,
 * NAGs and variations of the input are not carried over.
 *
 * A Chess960 game (PgnGame.chess960) is searched with the engine in
 * Chess960 mode and written with its Variant tag and a FEN tag always;
 * its castling moves, as every game's, are O-O and O-O-O.
 */
#include <stdbool.h>
#include <stdio.h>

#include "games/pgn.h"
#include "timeman.h"
#include "tools/accuracy.h"
#include "tools/annotate_search.h"

typedef struct {
    SearchLimits limits;      /* the search of each position */
    SearchLimits second_look; /* of a position looked at again (annotate_search.h) */
    bool looks_twice;         /* false: no second look */
    bool sides[COLOR_NB];     /* whose moves get marks, lines and the tags */
    const char *annotator;    /* the Annotator tag */
} AnnotateSettings;

/* What the stderr table shows of a game. */
typedef struct {
    double accuracy[COLOR_NB]; /* -1: not annotated, or no move */
    int acpl[COLOR_NB];        /* -1: the same */
    int marks[COLOR_NB][MARK_NB];
    int plies;
} GameReport;

/* Searches the positions of `g` that `split` gives this process (NULL:
 * all) with the engine (set up by the caller: one thread, no book), has the
 * others from the other workers (tools/annotate_share.h), and writes the
 * annotated game to `out`. False, with nothing written, when stopped
 * (workers_should_stop, tools/workers.h), given up or out of memory. */
bool annotate_game(const PgnGame *g, const AnnotateSettings *settings, const AnnotateHooks *hooks,
                   const PositionSplit *split, FILE *out, GameReport *report);
