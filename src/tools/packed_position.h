#pragma once
/*
 * packed_position.h — the 32-byte record of one training position written
 * by `bachess datagen` and read by the NNUE trainer (docs/datagen.md).
 *
 *   bytes  0..7   occupancy bitboard, little-endian (bit 0 = a1)
 *   bytes  8..23  4 bits per occupied square, in occupancy order from a1
 *                 upwards, low nibble first: the Piece code (0..5 white
 *                 pawn..king, 6..11 black pawn..king)
 *   bytes 24..25  score, int16, centipawns from White's point of view
 *   byte  26      result from White's point of view: 0 loss, 1 draw, 2 win
 *   byte  27      side to move: 0 White, 1 Black
 *   bytes 28..29  game ply of the position, uint16
 *   bytes 30..31  zero (reserved)
 */
#include <stdint.h>

#include "board.h"

enum { PACKED_POSITION_SIZE = 32 };

typedef struct {
    uint8_t bytes[PACKED_POSITION_SIZE];
} PackedPosition;

typedef struct {
    Bitboard occupied;
    Piece pieces[32];  /* in occupancy order */
    int piece_count;
    int score;         /* White's point of view */
    int result;        /* 0, 1, 2: White lost, drew, won */
    Color side;
    int ply;
} UnpackedPosition;

/* `score` and `result` from White's point of view. */
void packed_position_write(PackedPosition *out, const Board *b, int score, int result);
void packed_position_read(const PackedPosition *in, UnpackedPosition *out);
