/* evaluator.c — the search's evaluation door (see evaluator.h). */
#include "evaluator.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "score.h"

static EvaluationKind selected = EVALUATION_CLASSICAL;
static const Network *network;
/* Counts the selections, so that each thread's refresh cache can tell that
 * the network changed since it was filled: the engine loads another file
 * into the same Network. Written only between searches, as `network` is. */
static unsigned selection;

bool evaluator_select(EvaluationKind kind, const Network *net)
{
    if (kind == EVALUATION_NNUE && (!net || net->hidden == 0))
        return false;
    selected = kind;
    network = net;
    selection++;
    return true;
}

EvaluationKind evaluator_kind(void) { return selected; }
const Network *evaluator_network(void) { return network; }

/* Empties the refresh cache, and records for which network it fills again. */
static void forget_refreshes(EvalState *e)
{
    accumulator_cache_clear(&e->refresh_cache);
    e->refresh_cache_selection = selection;
}

void evaluator_clear(EvalState *e)
{
    pawn_table_clear(&e->pawns);
    forget_refreshes(e);
    e->depth = 0;
}

void evaluator_start(EvalState *e, const Board *root)
{
    e->depth = 0;
    if (e->refresh_cache_selection != selection) /* the cache holds another network's sums */
        forget_refreshes(e);
    if (selected == EVALUATION_NNUE)
        accumulator_refresh(&e->accumulators[0], network, root);
}

void evaluator_push(EvalState *e, const Board *b, Move m)
{
    e->depth++;
    if (selected != EVALUATION_NNUE)
        return;
    Accumulator *a = &e->accumulators[e->depth];
    a->computed[WHITE] = a->computed[BLACK] = false;
    a->change_count = board_move_changes(b, m, a->changes);
}

void evaluator_push_null(EvalState *e)
{
    e->depth++;
    Accumulator *a = &e->accumulators[e->depth];
    a->computed[WHITE] = a->computed[BLACK] = false;
    a->change_count = 0;
}

/* Brings one perspective of the current ply's accumulator (of board b) up
 * to date: from the nearest computed one below it, or afresh when a move
 * on the way changed this perspective's view (its king across a mirroring
 * net's d/e line, or into another king bucket) — afresh from the last
 * accumulator it had in its new view (accumulator_cache.h). */
static void bring_up_to_date(EvalState *e, const Board *b, Color perspective)
{
    int ply = e->depth;
    while (!e->accumulators[ply].computed[perspective]
           && accumulator_can_update(&e->accumulators[ply], network, perspective))
        ply--; /* the root's is computed by evaluator_start */
    if (!e->accumulators[ply].computed[perspective]) {
        accumulator_cache_refresh(&e->refresh_cache, &e->accumulators[e->depth], network, b, perspective);
        return;
    }
    for (ply++; ply <= e->depth; ply++)
        accumulator_update_perspective(&e->accumulators[ply], &e->accumulators[ply - 1], network, perspective);
}

static const Accumulator *current_accumulator(EvalState *e, const Board *b)
{
    bring_up_to_date(e, b, WHITE);
    bring_up_to_date(e, b, BLACK);
    return &e->accumulators[e->depth];
}

#ifndef NDEBUG
/* Debug builds check every incremental accumulator against a fresh one,
 * refreshed by the build's own code: the incremental steps (the vector
 * kernels' move shapes, the refresh cache) are what this checks. The
 * vector code against the portable reference is tests/test_nnue.c's work
 * (every move of the perft suite, six nets); a portable refresh here, one
 * int16 at a time under the sanitizers' checks, took 69 % of a datagen
 * run's time on the sanitizer build (perf). */
static bool equals_refresh(const Accumulator *a, const Board *b)
{
    static _Thread_local Accumulator fresh;
    accumulator_refresh(&fresh, network, b);
    size_t bytes = sizeof(int16_t) * (size_t)network->hidden;
    return memcmp(fresh.values[WHITE], a->values[WHITE], bytes) == 0
        && memcmp(fresh.values[BLACK], a->values[BLACK], bytes) == 0;
}
#endif

/* The output bucket the network reads for b: chosen by b's piece count. */
int evaluator_output_bucket(const Network *net, const Board *b)
{
    return nnue_output_bucket(net, popcount(board_occupied(b)));
}

/* The network's evaluation of b from its accumulator, through the output
 * bucket of b's piece count. Held below the decisive scores, as every
 * evaluation is (score.h): a damaged or made-up network file can evaluate
 * far beyond any real position, and the search must not read that as a
 * tablebase win or a mate. */
static int network_output(const Accumulator *a, const Network *net, const Board *b)
{
    enum { LIMIT = TB_WIN_IN_MAX - 1 };
    int value = accumulator_output(a, net, b->side, evaluator_output_bucket(net, b));
    return value > LIMIT ? LIMIT : value < -LIMIT ? -LIMIT : value;
}

void evaluator_update(EvalState *e, const Board *b)
{
    if (selected == EVALUATION_NNUE)
        current_accumulator(e, b);
}

int evaluator_evaluate(EvalState *e, const Board *b)
{
    if (selected != EVALUATION_NNUE)
        return evaluate(b, &e->pawns);
    const Accumulator *a = current_accumulator(e, b);
    assert(equals_refresh(a, b));
    return network_output(a, network, b);
}

int evaluator_classical(const Board *b)
{
    PawnTable *pawns = pawn_table_create();
    int value = pawns ? evaluate(b, pawns) : 0;
    free(pawns);
    return value;
}

int evaluator_nnue(const Network *net, const Board *b)
{
    if (!net || net->hidden == 0)
        return 0;
    static _Thread_local Accumulator a;
    accumulator_refresh(&a, net, b);
    return network_output(&a, net, b);
}
