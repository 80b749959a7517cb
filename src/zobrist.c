/* zobrist.c — fills the Zobrist keys from a fixed-seed generator. */
#include "zobrist.h"

Key zobrist_piece[PIECE_NB][SQUARE_NB];
Key zobrist_castling[CASTLING_NB];
Key zobrist_en_passant[8];
Key zobrist_side;

/* splitmix64: well-mixed 64-bit outputs from a counter. */
static Key next_key(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zobrist_init(void)
{
    uint64_t state = 20261122;
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < SQUARE_NB; s++)
            zobrist_piece[p][s] = next_key(&state);
    /* Each right gets its own key; a set of rights is the XOR of its members,
     * so losing one right is one XOR whichever others remain. */
    Key single[4];
    for (int i = 0; i < 4; i++)
        single[i] = next_key(&state);
    for (int rights = 0; rights < CASTLING_NB; rights++) {
        zobrist_castling[rights] = 0;
        for (int i = 0; i < 4; i++)
            if (rights & (1 << i))
                zobrist_castling[rights] ^= single[i];
    }
    for (int f = 0; f < 8; f++)
        zobrist_en_passant[f] = next_key(&state);
    zobrist_side = next_key(&state);
}
