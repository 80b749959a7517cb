/* attacks.c — builds the leaper tables and the slider magic tables. */
#include "attacks.h"

Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Magic rook_magics[SQUARE_NB];

enum { ROOK_TABLE_SIZE = 102400, BISHOP_TABLE_SIZE = 5248 };
static Bitboard rook_table[ROOK_TABLE_SIZE];
static Bitboard bishop_table[BISHOP_TABLE_SIZE];

static const int ROOK_STEPS[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int BISHOP_STEPS[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

/* Attacks of a slider found the slow way: walk each ray until a blocker. */
static Bitboard slide(const int steps[4][2], Square s, Bitboard occupied)
{
    Bitboard result = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(s) + steps[d][0], r = square_rank(s) + steps[d][1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += steps[d][0], r += steps[d][1]) {
            result |= square_bb(make_square(f, r));
            if (occupied & square_bb(make_square(f, r)))
                break;
        }
    }
    return result;
}

/* Leaper attacks: the squares at the given offsets that stay on the board. */
static Bitboard leap(Square s, const int offsets[][2], int count)
{
    Bitboard result = 0;
    for (int i = 0; i < count; i++) {
        int f = square_file(s) + offsets[i][0], r = square_rank(s) + offsets[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            result |= square_bb(make_square(f, r));
    }
    return result;
}

static void init_leapers(void)
{
    static const int knight[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                      { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    static const int king[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                    { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
    static const int white_pawn[2][2] = { { -1, 1 }, { 1, 1 } };
    static const int black_pawn[2][2] = { { -1, -1 }, { 1, -1 } };
    for (Square s = A1; s < SQUARE_NB; s++) {
        knight_attacks[s] = leap(s, knight, 8);
        king_attacks[s] = leap(s, king, 8);
        pawn_attacks[WHITE][s] = leap(s, white_pawn, 2);
        pawn_attacks[BLACK][s] = leap(s, black_pawn, 2);
    }
}

#ifndef USE_PEXT
/* xorshift64*: a small seeded generator, so the magics are the same every run. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}
#endif

/* Fills one square's slice of the table. Without PEXT it searches for a
 * magic that maps every blocker subset to a slot without a destructive
 * collision; sparse random numbers (AND of three) are found quickly. */
static void init_magic(Magic *m, Square s, const int steps[4][2], Bitboard *table, uint64_t *seed)
{
    Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(square_rank(s)))
                   | ((FILE_A_BB | FILE_H_BB) & ~file_bb(square_file(s)));
    m->mask = slide(steps, s, 0) & ~edges;
    m->shift = 64 - (unsigned)popcount(m->mask);
    m->attacks = table;

    static Bitboard occupancy[4096], reference[4096];
    static int epoch[4096];
    int size = 0;
    Bitboard subset = 0;
    do { /* Carry-Rippler: every subset of the mask */
        occupancy[size] = subset;
        reference[size++] = slide(steps, s, subset);
        subset = (subset - m->mask) & m->mask;
    } while (subset);

#ifdef USE_PEXT
    (void)seed;
    (void)epoch;
    for (int i = 0; i < size; i++)
        table[_pext_u64(occupancy[i], m->mask)] = reference[i];
#else
    static int attempt = 0;
    for (bool found = false; !found;) {
        do
            m->magic = next_random(seed) & next_random(seed) & next_random(seed);
        while (popcount((m->mask * m->magic) >> 56) < 6);
        attempt++;
        found = true;
        for (int i = 0; i < size && found; i++) {
            unsigned idx = magic_index(m, occupancy[i]);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = reference[i];
            } else if (table[idx] != reference[i])
                found = false;
        }
    }
#endif
}

void attacks_init(void)
{
    init_leapers();
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Bitboard *rook_slice = rook_table, *bishop_slice = bishop_table;
    for (Square s = A1; s < SQUARE_NB; s++) {
        init_magic(&rook_magics[s], s, ROOK_STEPS, rook_slice, &seed);
        rook_slice += 1u << (64 - rook_magics[s].shift);
        init_magic(&bishop_magics[s], s, BISHOP_STEPS, bishop_slice, &seed);
        bishop_slice += 1u << (64 - bishop_magics[s].shift);
    }
}
