#pragma once
/*
 * zobrist.h — random keys that hash a position (12 x 64 numbers
 * for the pieces plus side, castling and en passant keys). A position's key is the XOR of the
 * keys of its features, so a move updates it with a few XORs. The numbers
 * come from a fixed seed: the same position has the same key in every run.
 */
#include "types.h"

extern Key zobrist_piece[PIECE_NB][SQUARE_NB];
extern Key zobrist_castling[CASTLING_NB];
extern Key zobrist_en_passant[8]; /* by file */
extern Key zobrist_side;          /* XORed in when Black is to move */

void zobrist_init(void);
