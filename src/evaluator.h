#pragma once
/*
 * evaluator.h — the one door through which the search asks what a position
 * is worth.
 *
 * Two evaluations stand behind it: the hand-written one of the seeds
 * (eval.h, with its pawn cache here) and an NNUE network (nnue/), chosen by
 * evaluator_select(). Each search thread owns an EvalState. The search calls
 * evaluator_push() just before it makes a move (or passes, with
 * evaluator_push_null()) and evaluator_pop() just after it takes it back,
 * always in pairs, and evaluator_evaluate() wherever it needs a static
 * evaluation. The network's accumulators follow the moves through those
 * hooks; the hand-written evaluation works from the board alone and ignores
 * them. A king move that changes what a perspective sees is computed from
 * the last accumulator the thread had in that view (its refresh cache,
 * nnue/accumulator_cache.h), which the state forgets when another network
 * is selected.
 *
 * The transposition table keeps static evaluations: whoever switches the
 * evaluation must clear the table too (the engine's Evaluation option does).
 */
#include "board.h"
#include "nnue/accumulator.h"
#include "nnue/accumulator_cache.h"
#include "pawns.h"

typedef enum { EVALUATION_CLASSICAL, EVALUATION_NNUE } EvaluationKind;

typedef struct {
    PawnTable pawns;                        /* the hand-written evaluation's pawn-structure cache */
    int depth;                              /* pushes not yet popped: the moves made since the root */
    Accumulator accumulators[MAX_PLY + 8];  /* the network's, one per ply from the root */
    AccumulatorCache refresh_cache;         /* where a king move's refresh starts from ... */
    unsigned refresh_cache_selection;       /* ... with the network of this evaluator_select() */
} EvalState;

/* Which evaluation the search uses, and the network (kept by the caller,
 * who must not free it while a search runs). NNUE without a network is
 * refused. Not to be called during a search. */
bool evaluator_select(EvaluationKind kind, const Network *net);
EvaluationKind evaluator_kind(void);
const Network *evaluator_network(void);

/* Forgets everything cached (a new game, or another evaluation). */
void evaluator_clear(EvalState *e);
/* The search is about to search from `root`: its moves follow from here.
 * What the state cached of a network selected before is forgotten here. */
void evaluator_start(EvalState *e, const Board *root);

/* `b` is about to play `m` (or to pass); and the matching take-back. */
void evaluator_push(EvalState *e, const Board *b, Move m);
void evaluator_push_null(EvalState *e);
static inline void evaluator_pop(EvalState *e) { e->depth--; }

/* The static evaluation of `b`, the position reached by the pushes so far,
 * in centipawns from the side to move's point of view. */
int evaluator_evaluate(EvalState *e, const Board *b);
/* Brings the network's accumulator of `b` up to date now, as
 * evaluator_evaluate() would (nothing for the hand-written evaluation). */
void evaluator_update(EvalState *e, const Board *b);

/* The output bucket the network reads for board b (its piece count). */
int evaluator_output_bucket(const Network *net, const Board *b);

/* Both evaluations of a position, from scratch (for `bachess eval`); NNUE
 * is 0 without a network. */
int evaluator_classical(const Board *b);
int evaluator_nnue(const Network *net, const Board *b);
