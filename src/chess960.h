#pragma once
/*
 * chess960.h — the 960 start positions of Chess960 (Fischer Random), by
 * Scharnagl's numbering: 0 to 959, where 518 is the classical start. The
 * rules themselves (castling with king and rooks on any files) live in the
 * board and the move generator; this is only where a game begins.
 */
#include <stdbool.h>
#include <stddef.h>

enum { CHESS960_POSITIONS = 960, CHESS960_CLASSICAL = 518 };

/* Writes start position `number` (0..959) as a FEN, castling rights KQkq
 * (X-FEN: each names the outermost rook on its side, which at the start is
 * the only one). Returns false for a number out of range. */
bool chess960_start_fen(int number, char *out, size_t out_size);
