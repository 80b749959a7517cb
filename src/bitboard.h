#pragma once
/*
 * bitboard.h — sets of squares as 64-bit words, and the geometry tables
 * that depend only on the empty board: ranks, files, the segment between
 * two squares and the full line through them, distances and the rings of
 * squares at each distance.
 *
 * The tables are filled once by bitboard_init(); nothing here changes
 * afterwards, so any thread may read them.
 */
#include "types.h"

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB (FILE_A_BB << 7)
#define RANK_1_BB 0xFFULL
#define RANK_8_BB (RANK_1_BB << 56)
#define DARK_SQUARES_BB 0xAA55AA55AA55AA55ULL

extern Bitboard between_bb[SQUARE_NB][SQUARE_NB]; /* squares strictly between, if aligned */
extern Bitboard line_bb[SQUARE_NB][SQUARE_NB];    /* whole line through both, if aligned */
extern int square_distance[SQUARE_NB][SQUARE_NB]; /* king steps */
extern Bitboard distance_ring_bb[SQUARE_NB][8];    /* the squares exactly d king steps away */

void bitboard_init(void);

static inline Bitboard square_bb(Square s) { return 1ULL << s; }
static inline Bitboard file_bb(int file) { return FILE_A_BB << file; }
static inline Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }
static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
static inline Square lsb(Bitboard b) { return (Square)__builtin_ctzll(b); }
static inline Square msb(Bitboard b) { return (Square)(63 ^ __builtin_clzll(b)); }
static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

/* Removes and returns the lowest square of *b. */
static inline Square pop_lsb(Bitboard *b)
{
    Square s = lsb(*b);
    *b &= *b - 1;
    return s;
}

static inline Bitboard shift_north(Bitboard b) { return b << 8; }
static inline Bitboard shift_south(Bitboard b) { return b >> 8; }
static inline Bitboard shift_east(Bitboard b) { return (b & ~FILE_H_BB) << 1; }
static inline Bitboard shift_west(Bitboard b) { return (b & ~FILE_A_BB) >> 1; }

/* One step "forward" for colour c. */
static inline Bitboard shift_forward(Color c, Bitboard b)
{
    return c == WHITE ? shift_north(b) : shift_south(b);
}

/* Squares attacked by all pawns of colour c in b. */
static inline Bitboard pawn_attacks_bb(Color c, Bitboard b)
{
    Bitboard f = shift_forward(c, b);
    return shift_east(f) | shift_west(f);
}

static inline bool aligned(Square a, Square b, Square c) { return (line_bb[a][b] & square_bb(c)) != 0; }
