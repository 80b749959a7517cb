#pragma once
/*
 * viriformat.h — a whole self-play game as the self-play store keeps it
 * (docs/datagen.md, "The self-play store"): the format of the bullet
 * trainer's ecosystem, so that other tools can read bachess's data too.
 *
 * A game is the start board (32 bytes, "marlinformat"), then one 4-byte
 * pair per ply — the move played (uint16) and the search's score before it
 * (int16, centipawns, White's point of view) — then four zero bytes. All
 * integers are little-endian.
 *
 * The start board:
 *   bytes  0..7   occupancy bitboard (bit 0 = a1)
 *   bytes  8..23  4 bits per occupied square in occupancy order, low nibble
 *                 first: the piece type (0 pawn .. 5 king, 6 a rook that may
 *                 still castle) plus 8 for a black piece
 *   byte  24      the en-passant target square, or 64; plus 128 when Black
 *                 is to move
 *   byte  25      halfmove clock (plies since a capture or a pawn move)
 *   bytes 26..27  fullmove number
 *   bytes 28..29  a score of the start board (unused by bachess: zero)
 *   byte  30      the game's result: 0 Black won, 1 draw, 2 White won
 *   byte  31      zero
 *
 * A move: from square (bits 0..5), to square (6..11), promotion piece
 * (12..13: knight, bishop, rook, queen) and kind (14..15: 0 normal, 1 en
 * passant, 2 castling, 3 promotion). Castling is written as the king taking
 * its own rook ("e1h1"), which also serves Chess960.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum { VIRI_BOARD_SIZE = 32, VIRI_PLY_SIZE = 4 };

typedef struct {
    uint8_t bytes[VIRI_BOARD_SIZE];
} ViriBoard;

/* One ply of a stored game. */
typedef struct {
    uint16_t move;
    int16_t white_score;
} ViriPly;

/* `result` from White's point of view: 0 loss, 1 draw, 2 win. */
void viri_board_write(ViriBoard *out, const Board *b, int result);
/* The board and the result of a stored start board; false (and `error`
 * says why) when the bytes are no position. */
bool viri_board_read(const ViriBoard *in, Board *b, int *result, char *error, size_t error_size);

/* The stored form of the legal move m of board b, and back: MOVE_NONE when
 * the stored move is no legal move of b. */
uint16_t viri_move_encode(const Board *b, Move m);
Move viri_move_decode(const Board *b, uint16_t stored);

/* A score clamped into the stored int16. */
int16_t viri_score(int score);

/* The 4 bytes of a ply, little-endian; the terminator is viri_ply_bytes of {0, 0}. */
void viri_ply_bytes(ViriPly ply, uint8_t out[VIRI_PLY_SIZE]);
ViriPly viri_ply_from_bytes(const uint8_t in[VIRI_PLY_SIZE]);
