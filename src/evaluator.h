#pragma once
/*
 * evaluator.h — the one door through which the search asks what a position
 * is worth.
 *
 * Each search thread owns an EvalState. The search calls evaluator_push()
 * just before it makes a move (or passes, with evaluator_push_null()) and
 * evaluator_pop() just after it takes it back, always in pairs, so that an
 * evaluation kept up to date move by move (an NNUE accumulator) can follow
 * the search without knowing anything about it; and it calls
 * evaluator_evaluate() wherever it needs a static evaluation. A backend that
 * works from the board alone, like the hand-written evaluation of the seeds
 * (eval.h, with its pawn cache here), ignores the hooks.
 *
 * The transposition table keeps static evaluations: whoever switches the
 * backend must clear the table too.
 */
#include "board.h"
#include "pawns.h"

typedef struct {
    PawnTable pawns; /* the hand-written evaluation's pawn-structure cache */
    int depth;       /* pushes not yet popped: the moves made since the root */
} EvalState;

/* Forgets everything cached (a new game, or another evaluation). */
void evaluator_clear(EvalState *e);
/* The search is about to search from `root`: its moves follow from here. */
void evaluator_start(EvalState *e, const Board *root);

/* `b` is about to play `m`; and the matching take-back. */
static inline void evaluator_push(EvalState *e, const Board *b, Move m)
{
    (void)b, (void)m;
    e->depth++;
}
static inline void evaluator_push_null(EvalState *e) { e->depth++; }
static inline void evaluator_pop(EvalState *e) { e->depth--; }

/* The static evaluation of `b`, the position reached by the pushes so far,
 * in centipawns from the side to move's point of view. */
int evaluator_evaluate(EvalState *e, const Board *b);
