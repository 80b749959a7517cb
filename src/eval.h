#pragma once
/*
 * eval.h — the static evaluation: how good a position looks without search,
 * in centipawns from the side to move's point of view.
 *
 * Every term yields a middlegame and an endgame value (see evalweights.h);
 * the two are blended by the game phase, counted from the pieces left on
 * the board (knight and bishop 1, rook 2, queen 4: 24 at the start, 0 with
 * bare kings and pawns). The blend is then scaled down where the side ahead
 * can hardly win: no pawns and at most a minor piece more, a lone minor,
 * two knights, bishops of opposite colours. The terms, in the order they
 * are evaluated: material and bishop pair; development; for each piece its
 * square, mobility, and its own features (knights on the rim and outposts,
 * bad bishops, rooks on open files and the seventh); pawn structure (from
 * the pawn hash table); passed pawns with the pieces around them; king
 * safety (shelter, pawn storms, attacks on the king zone, safe checks,
 * tropism); threats on pieces; the king's activity in the endgame; tempo.
 *
 * evaluate() only reads the board and writes to the caller's pawn table, so
 * any number of search threads may call it at once, each with its own
 * PawnTable. Results stay within +-EVAL_MAX, below any win or mate score a
 * search uses.
 */
#include <stdio.h>

#include "board.h"
#include "evalweights.h"
#include "pawns.h"

enum {
    PHASE_MAX = 24,    /* the phase of the starting material */
    SCALE_NORMAL = 64, /* scale factor of a position that can be won normally */
    EVAL_MAX = 9000,
};

int evaluate(const Board *b, PawnTable *pawns);

/* The same value as evaluate(), computed without the pawn table, with every
 * term recorded in `trace` (which it clears first): for tests and tuning. */
int evaluate_traced(const Board *b, EvalTrace *trace);

/* Prints the terms per side, the phase, the scale and the result. */
void evaluate_trace(const Board *b, FILE *out);

