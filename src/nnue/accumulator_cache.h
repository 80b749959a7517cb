#pragma once
/*
 * accumulator_cache.h — computing a perspective afresh from the last
 * accumulator it had in the same view (a "Finny table").
 *
 * When a king move changes a perspective's view (into another king bucket,
 * or across a mirroring net's d/e line), every one of its features changes,
 * and from scratch its accumulator is the input bias plus one row of input
 * weights per piece on the board: some thirty rows in a middlegame. But a
 * king mostly steps back into a view it had a few moves before, on a board
 * that has changed in a few pieces since. So the cache keeps, for each
 * perspective and each view it can take, the values that perspective last
 * had in that view and the pieces they were computed for. A refresh starts
 * from there, adds the rows of the pieces that have come and takes away
 * those of the pieces that have gone, and stores the result back. The sums
 * wrap in int16, so their order does not matter: the values are bit for
 * bit those of a refresh from scratch.
 *
 * The values belong to one network: clear the cache when the network
 * changes. A zeroed cache is an empty one; an empty entry stands for the
 * input bias with no pieces. Each search thread keeps its own (EvalState);
 * at most 2 x 2 x 32 entries of 1 KB and eight bitboards each, 136 KB.
 */
#include "board.h"
#include "nnue/accumulator.h"

enum { NNUE_MIRROR_SIDES = 2 }; /* a view is mirrored or not */

typedef struct {
    int16_t values[NNUE_MAX_HIDDEN];                  /* a perspective's accumulator in this view ... */
    Bitboard by_type[PIECE_TYPE_NB], by_color[COLOR_NB]; /* ... over these pieces (as in Board) */
} AccumulatorCacheEntry;

typedef struct {
    /* by perspective, mirrored or not, king bucket */
    AccumulatorCacheEntry entries[COLOR_NB][NNUE_MIRROR_SIDES][NNUE_MAX_KING_BUCKETS];
    /* Which entries hold values; apart from them, so that clearing the
     * cache writes a few bytes, not every entry. */
    bool filled[COLOR_NB][NNUE_MIRROR_SIDES][NNUE_MAX_KING_BUCKETS];
} AccumulatorCache;

/* Empties every entry (another network, or a new game). */
void accumulator_cache_clear(AccumulatorCache *cache);
/* Computes one perspective of `a` for board b as
 * accumulator_refresh_perspective() does, from the cache's entry for its
 * view, and leaves the result in that entry. */
void accumulator_cache_refresh(AccumulatorCache *cache, Accumulator *a, const Network *net, const Board *b,
                               Color perspective);
/* The same with the portable code only, for the test that both agree. */
void accumulator_cache_refresh_portable(AccumulatorCache *cache, Accumulator *a, const Network *net, const Board *b,
                                        Color perspective);
