#pragma once
/*
 * polyglot.h — the position keys and move codes of the Polyglot opening
 * book format, the common exchange format for books.
 *
 * A Polyglot key is a Zobrist hash over 781 published random numbers (a
 * format constant, like a CRC table): one per piece kind and square, four
 * for the castling rights, eight for the en passant file and one for White
 * to move. It is not the engine's own Zobrist key. Two rules differ from
 * the engine's board: the castling part counts the rights as in FEN, and
 * the en passant part is present whenever the pawn that just made a double
 * step has an enemy pawn beside it — whether or not that capture is legal
 * (the board keeps an e.p. square only when a legal capture exists).
 *
 * A Polyglot move is 15 bits: to file, to row, from file, from row (three
 * bits each) and a promotion piece (0 none, 1 N, 2 B, 3 R, 4 Q). Castling
 * is written as the king taking its own rook: e1h1, e1a1, e8h8, e8a8.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum { POLYGLOT_RANDOM_COUNT = 781 };

extern const Key polyglot_random[POLYGLOT_RANDOM_COUNT];

/* The key of the position on the board. The en passant part is taken from
 * the last move played on the board (a double pawn step) or, at the root,
 * from the board's own e.p. square. */
Key polyglot_key(const Board *b);

/* The key of a FEN; here the e.p. field of the FEN decides, by the
 * Polyglot rule (an enemy pawn beside the pushed pawn), even where no
 * capture is legal. False, with `error`, for a bad FEN. */
bool polyglot_key_of_fen(const char *fen, Key *key, char *error, size_t error_size);

/* A legal move of the board in Polyglot's code. */
uint16_t polyglot_encode_move(const Board *b, Move m);

/* The legal move of the board that a Polyglot code stands for, or
 * MOVE_NONE when no legal move matches (a wrong entry, a key collision).
 * Castling is accepted as king-takes-rook (e1h1) and also as e1g1. */
Move polyglot_decode_move(const Board *b, uint16_t code);

/* A Polyglot code as text, e.g. "e2e4", "e7e8q", "e1h1" (no board needed). */
void polyglot_move_text(uint16_t code, char *out);
