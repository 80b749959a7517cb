#pragma once
/*
 * annotate_search.h — every position of a game searched for `bachess
 * annotate` (docs/annotate.md, "How a game is analysed").
 *
 * Every position of the game's main line is searched once, the start and
 * the final position included, from the last to the first with one hash
 * table for the game (annotate_search.c says why): a position's score is its search's score,
 * and the line that search found is the better line for the move played
 * there. A position with one legal move takes the score of the next (the
 * move is forced); a position without one is mate or stalemate, scored by
 * the rules.
 */
#include <stdbool.h>

#include "games/pgn.h"
#include "timeman.h"
#include "types.h"

enum { ANNOTATE_LINE_PLIES = 8 };

/* A position of the game as the engine sees it. */
typedef struct {
    int score;                       /* White's side */
    Move best;                       /* MOVE_NONE: no legal move */
    Move line[ANNOTATE_LINE_PLIES];  /* the search's line from here */
    int line_length;
    bool forced;                     /* exactly one legal move */
    bool mated;
} PositionVerdict;

/* Called after each position searched (progress). */
typedef struct {
    void (*searched)(void *context);
    void *context;
} AnnotateHooks;

/* Fills p[0 .. g->move_count] with the engine (set up by the caller: one
 * thread, no book). False when stopped (workers_should_stop,
 * tools/workers.h) or when the game's position cannot be set. */
bool annotate_search_game(const PgnGame *g, const SearchLimits *limits, const AnnotateHooks *hooks,
                          PositionVerdict *p);
