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
/* Magics found once by the search below (seeded, so reproducible) and kept
 * here: start-up then only checks them instead of searching, which took a
 * quarter of a second. A number that fails the check is searched again. */
static const Bitboard KNOWN_ROOK_MAGICS[SQUARE_NB] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0050500500080100ULL, 0x0000020080040080ULL, 0x0c10010400420810ULL, 0x1040008200005104ULL,
    0x01808240088004a0ULL, 0x0882804004802000ULL, 0x0880402001001100ULL, 0x2000210409001000ULL,
    0x2000480131001500ULL, 0x0000800400800200ULL, 0x000002380c001003ULL, 0x4600084882000431ULL,
    0x0080002000504000ULL, 0x0300500020004002ULL, 0x0040408200220011ULL, 0x0010040008004040ULL,
    0x0000080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
static const Bitboard KNOWN_BISHOP_MAGICS[SQUARE_NB] = {
    0x20c0090901061081ULL, 0x0024040094030104ULL, 0x8210810200290200ULL, 0x0011040484620000ULL,
    0x0081104002221000ULL, 0x0009012011001350ULL, 0x0081010802400380ULL, 0x0000420210010408ULL,
    0x0008105002280050ULL, 0x0001028484040044ULL, 0x2a00880810408804ULL, 0x7020022282000100ULL,
    0x0084040420100a50ULL, 0x000401010840e000ULL, 0x2020020210420888ULL, 0x0008084202012010ULL,
    0x2010400810018800ULL, 0x0445122008020840ULL, 0x0804100808002008ULL, 0x0008002104110100ULL,
    0x0061005820080800ULL, 0x2001000200820100ULL, 0x480c210084010800ULL, 0x3004442500480420ULL,
    0x1010102240048100ULL, 0x00182009084220a3ULL, 0x8803090a10004205ULL, 0x0208080040202020ULL,
    0x000c044084010040ULL, 0x00a1010002004106ULL, 0x6008210020640202ULL, 0x1600902112860801ULL,
    0x00042008c1220200ULL, 0x010c042002440140ULL, 0x5022080200040820ULL, 0x0402004042940100ULL,
    0x0860108400008020ULL, 0x000c080022021000ULL, 0x0264080652822100ULL, 0x4005031221010401ULL,
    0x0004502410008400ULL, 0x000500b010a20400ULL, 0x0415094050080800ULL, 0x080000201800a104ULL,
    0x4022a80304000110ULL, 0x4012140802028020ULL, 0x40200104010100a0ULL, 0x12810806008b0c41ULL,
    0x0020441008080000ULL, 0x2002120084045420ULL, 0x0704020062080002ULL, 0x0000001084040001ULL,
    0x0322200891240200ULL, 0xf040200210024800ULL, 0x0140824832008042ULL, 0x000210020a004602ULL,
    0x0083042805141020ULL, 0x002c12009a011000ULL, 0x0041a00044140400ULL, 0x00004004020a0202ULL,
    0x0000140010020210ULL, 0x2864160811012200ULL, 0x2060080841082a17ULL, 0xa010041108003100ULL,
};

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
static void init_magic(Magic *m, Square s, const int steps[4][2], Bitboard *table, uint64_t *seed, Bitboard known)
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
    (void)known;
    for (int i = 0; i < size; i++)
        table[_pext_u64(occupancy[i], m->mask)] = reference[i];
#else
    static int attempt = 0;
    for (bool found = false; !found; known = 0) {
        if (known)
            m->magic = known;
        else
            do
                m->magic = next_random(seed) & next_random(seed) & next_random(seed);
            while (popcount((m->mask * m->magic) >> 56) < 6);
        attempt++;
        found = true;
        for (int i = 0; i < size && found; i++) {
            uint64_t idx = magic_index(m, occupancy[i]);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = reference[i];
            } else if (table[idx] != reference[i])
                found = false;
        }
    }
#endif
}

#ifdef USE_PEXT
#define KNOWN_MAGIC(piece, s) 0
#else
#define KNOWN_MAGIC(piece, s) KNOWN_##piece##_MAGICS[s]
#endif

void attacks_init(void)
{
    init_leapers();
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Bitboard *rook_slice = rook_table, *bishop_slice = bishop_table;
    for (Square s = A1; s < SQUARE_NB; s++) {
        init_magic(&rook_magics[s], s, ROOK_STEPS, rook_slice, &seed, KNOWN_MAGIC(ROOK, s));
        rook_slice += 1u << (64 - rook_magics[s].shift);
        init_magic(&bishop_magics[s], s, BISHOP_STEPS, bishop_slice, &seed, KNOWN_MAGIC(BISHOP, s));
        bishop_slice += 1u << (64 - bishop_magics[s].shift);
    }
}
