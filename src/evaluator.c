/* evaluator.c — the search's evaluation door (see evaluator.h). */
#include "evaluator.h"

#include "eval.h"

void evaluator_clear(EvalState *e)
{
    pawn_table_clear(&e->pawns);
    e->depth = 0;
}

void evaluator_start(EvalState *e, const Board *root)
{
    (void)root;
    e->depth = 0;
}

int evaluator_evaluate(EvalState *e, const Board *b) { return evaluate(b, &e->pawns); }
