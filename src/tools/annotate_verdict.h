#pragma once
/*
 * annotate_verdict.h — what a search of one position of a game tells
 * `bachess annotate` (tools/annotate_search.h searches them,
 * tools/annotate_share.h shares them among the workers).
 */
#include <stdbool.h>

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
