#pragma once
/*
 * accumulator.h — the NNUE hidden layer of one position, both perspectives,
 * and the output computed from it.
 *
 * A search keeps a stack of accumulators, one per ply. Making a move only
 * records what it changes (up to four piece changes); the accumulator is
 * brought up to date when an evaluation needs it, from the nearest one
 * below it on the stack that is, by adding and subtracting input weights.
 * Each perspective is kept on its own, with the view it was computed in
 * (NnueView, network.h): a king move that changes a perspective's view —
 * across the d/e line of a net that mirrors by the king, or into another
 * king bucket — changes every one of its features, and only that
 * perspective is computed afresh (in the search, from the last accumulator
 * it had in its new view: accumulator_cache.h).
 * With AVX2 the sums run 16 values at a time; the portable code gives the
 * same results bit for bit (both wrap int16 the same way, and the output's
 * products fit int16 by the limits network.c checks).
 */

#include "board.h"
#include "nnue/network.h"

typedef struct {
    int16_t values[COLOR_NB][NNUE_MAX_HIDDEN];
    bool computed[COLOR_NB];              /* a perspective's values are up to date */
    NnueView view[COLOR_NB];              /* ... and seen so (nnue_view()) */
    int change_count;                     /* what the move into this ply changed */
    PieceChange changes[MAX_PIECE_CHANGES];
} Accumulator;

/* Input weights of features, N values each, to add to a perspective's
 * values or to take from them: the pieces that one board has and another
 * lacks, at most one on each square (accumulator_cache.h). */
typedef struct {
    const int16_t *weights[SQUARE_NB];
    int count;
} FeatureList;

/* Computes both perspectives from scratch. */
void accumulator_refresh(Accumulator *a, const Network *net, const Board *b);
/* Computes one perspective from scratch. */
void accumulator_refresh_perspective(Accumulator *a, const Network *net, const Board *b, Color perspective);
/* Do to's recorded changes leave the view of `perspective` as it was in
 * the ply below? Not when they take its king across the d/e line of a net
 * that mirrors by the king, or into another king bucket. */
bool accumulator_keeps_view(const Accumulator *to, const Network *net, Color perspective);
/* Can `to`'s perspective be had from the ply below by to's recorded
 * changes? Exactly when they keep its view. Inline, so that a net whose
 * view never changes (versions 1 and 2) answers without a call. */
static inline bool accumulator_can_update(const Accumulator *to, const Network *net, Color perspective)
{
    return !nnue_view_follows_king(net) || accumulator_keeps_view(to, net, perspective);
}
/* `to` = `from` with to's recorded changes applied, for one perspective
 * (accumulator_can_update() must allow it). */
void accumulator_update_perspective(Accumulator *to, const Accumulator *from, const Network *net, Color perspective);
/* values_to = values_from + the `added` weights - the `removed` ones,
 * over n values (a multiple of NNUE_HIDDEN_STEP); the two arrays may not
 * overlap. */
void accumulator_apply_features(int16_t *values_to, const int16_t *values_from, const FeatureList *added,
                                const FeatureList *removed, int n);
/* The evaluation in centipawns for the side to move `us`, through output
 * bucket `bucket` (nnue_output_bucket() of the board's piece count). */
int accumulator_output(const Accumulator *a, const Network *net, Color us, int bucket);

/* The same with the portable code only, for the test that both agree. */
void accumulator_refresh_portable(Accumulator *a, const Network *net, const Board *b);
void accumulator_update_perspective_portable(Accumulator *to, const Accumulator *from, const Network *net,
                                             Color perspective);
void accumulator_apply_features_portable(int16_t *values_to, const int16_t *values_from, const FeatureList *added,
                                         const FeatureList *removed, int n);
int accumulator_output_portable(const Accumulator *a, const Network *net, Color us, int bucket);
/* The vector code this build uses for the above: "AVX2", "NEON" or "none". */
const char *accumulator_vector_code(void);
