#pragma once
/*
 * history.h — what the search has learned about quiet moves, for ordering:
 * two killer moves per ply (quiet moves that refuted a sibling), a counter
 * move per previous move (the reply that refuted it last time), a butterfly
 * history per side and from-to pair (seed §7.4: 64 x 64 per side), and a
 * continuation history (how good a quiet move was after a given previous
 * move). Histories are updated with "gravity": a bonus shrinks as the
 * entry approaches its limit, so old knowledge fades and nothing overflows.
 */
#include "types.h"

enum { HISTORY_MAX = 16384 };

typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];

typedef struct {
    int16_t butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB];
    Move counter[PIECE_NB][SQUARE_NB];
    PieceToHistory continuation[PIECE_NB][SQUARE_NB]; /* [previous piece][previous to][piece][to] */
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
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
