#pragma once
/*
 * history.h — what the search has learned about quiet moves, for ordering:
 * two killer moves per ply (quiet moves that refuted a sibling), a counter
 * move per previous move (the reply that refuted it last time), a butterfly
 * history per side and from-to pair (64 x 64 per side), and a
 * continuation history (how good a quiet move was after a given previous
 * move), and a correction history (how far the static evaluation has been
 * off from what the search found, per side and pawn structure). Histories are updated with "gravity": a bonus shrinks as the
 * entry approaches its limit, so old knowledge fades and nothing overflows.
 */
#include "types.h"

enum { HISTORY_MAX = 16384 };

/* Correction history: entries per side (a power of two, indexed by the pawn
 * key), the fraction of a centipawn an entry counts in, the largest
 * correction (in centipawns), and the weight a new search result gets
 * (out of CORRECTION_WEIGHT_SCALE, growing with its depth up to a cap). */
enum {
    CORRECTION_SIZE = 16384,
    CORRECTION_GRAIN = 256,
    CORRECTION_MAX_CP = 64,
    CORRECTION_WEIGHT_SCALE = 256,
    CORRECTION_MAX_DEPTH_WEIGHT = 16,
};

typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];

/* Quiet moves are ordered by the continuation tables after the moves one,
 * two and four plies back: the opponent's last move, our own last move and
 * our own move before that. The pruning and reduction thresholds read only
 * the first two, which they were tuned with. */
enum { CONTINUATION_ORDERING = 3, CONTINUATION_PRUNING = 2 };

typedef struct {
    int16_t butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB];
    Move counter[PIECE_NB][SQUARE_NB];
    PieceToHistory continuation[PIECE_NB][SQUARE_NB]; /* [previous piece][previous to][piece][to] */
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    int16_t correction[COLOR_NB][CORRECTION_SIZE]; /* [side][pawn key % size], in 1/CORRECTION_GRAIN cp */
} History;

static inline void history_apply(int16_t *entry, int bonus)
{
    *entry += (int16_t)(bonus - *entry * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

/* The bonus for a move that caused a cut-off grows with the square of the
 * depth it was searched to (a deep cut-off says more), up to a cap. */
enum { HISTORY_BONUS_PER_DEPTH_SQUARED = 16, HISTORY_BONUS_PER_DEPTH = 32, HISTORY_BONUS_MAX = 1600 };

static inline int history_bonus(int depth)
{
    int bonus = depth * depth * HISTORY_BONUS_PER_DEPTH_SQUARED + depth * HISTORY_BONUS_PER_DEPTH;
    return bonus > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : bonus;
}

static inline int16_t *correction_entry(History *h, Color side, Key pawn_key)
{
    return &h->correction[side][pawn_key & (CORRECTION_SIZE - 1)];
}

/* The static evaluation moved by what searches from the same pawn
 * structure have found it to be worth. */
static inline int correct_eval(const History *h, Color side, Key pawn_key, int raw_eval)
{
    return raw_eval + h->correction[side][pawn_key & (CORRECTION_SIZE - 1)] / CORRECTION_GRAIN;
}

/* Moves the entry towards the error the search found (search score minus
 * static evaluation), more so the deeper the search. */
static inline void update_correction(History *h, Color side, Key pawn_key, int depth, int error)
{
    int16_t *entry = correction_entry(h, side, pawn_key);
    int weight = depth + 1 < CORRECTION_MAX_DEPTH_WEIGHT ? depth + 1 : CORRECTION_MAX_DEPTH_WEIGHT;
    int limit = CORRECTION_MAX_CP * CORRECTION_GRAIN;
    int target = error * CORRECTION_GRAIN;
    target = target > limit ? limit : target < -limit ? -limit : target;
    int value = (*entry * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE;
    *entry = (int16_t)value;
}
