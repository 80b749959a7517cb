#pragma once
/*
 * see.h — static exchange evaluation: does the sequence of captures on a
 * move's target square, each side always recapturing with its least
 * valuable piece and free to stop, leave the mover at least `threshold`
 * centipawns up? X-ray attackers behind moved pieces join in.
 */
#include "board.h"

extern const int SEE_VALUES[PIECE_TYPE_NB];

bool see_ge(const Board *b, Move m, int threshold);
