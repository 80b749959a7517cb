#pragma once
/*
 * attacks.h — which squares a piece on a square attacks.
 *
 * Leapers (pawn, knight, king) use plain 64-entry tables. Sliders use
 * "fancy" magic bitboards: the blockers on a piece's rays are masked out of
 * the occupancy, multiplied by a magic number and shifted, giving an index
 * into a table of precomputed attack sets. The magics are found at start-up
 * by a seeded random search (a few milliseconds), so no table of numbers is
 * typed in. Where the CPU has BMI2, PEXT computes the same index directly.
 */
#include "bitboard.h"

#if defined(__BMI2__) && !defined(NO_PEXT)
#include <immintrin.h>
#define USE_PEXT 1
#endif

typedef struct {
    Bitboard mask;     /* relevant blockers: the rays without their last square */
    Bitboard magic;
    Bitboard *attacks; /* this square's slice of the shared table */
    unsigned shift;
} Magic;

extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard knight_attacks[SQUARE_NB];
extern Bitboard king_attacks[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
extern Magic rook_magics[SQUARE_NB];

void attacks_init(void);

/* Below 4096, but 64-bit: a narrower type would cost a zero-extension
 * before nearly every table lookup. */
static inline uint64_t magic_index(const Magic *m, Bitboard occupied)
{
#ifdef USE_PEXT
    return _pext_u64(occupied, m->mask);
#else
    return ((occupied & m->mask) * m->magic) >> m->shift;
#endif
}

static inline Bitboard bishop_attacks(Square s, Bitboard occupied)
{
    const Magic *m = &bishop_magics[s];
    return m->attacks[magic_index(m, occupied)];
}

static inline Bitboard rook_attacks(Square s, Bitboard occupied)
{
    const Magic *m = &rook_magics[s];
    return m->attacks[magic_index(m, occupied)];
}

static inline Bitboard queen_attacks(Square s, Bitboard occupied)
{
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

/* Attacks of a non-pawn piece type; pawns need a colour, see pawn_attacks. */
static inline Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied)
{
    switch (t) {
    case KNIGHT: return knight_attacks[s];
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks[s];
    default: return 0;
    }
}
