/* zobrist.c — fills the Zobrist keys from a fixed-seed generator. */
#include "zobrist.h"
#include "splitmix.h"

Key zobrist_piece[PIECE_NB][SQUARE_NB];
Key zobrist_castling[CASTLING_NB];
Key zobrist_en_passant[8];
Key zobrist_side;


void zobrist_init(void)
{
    uint64_t state = 20261122;
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < SQUARE_NB; s++)
            zobrist_piece[p][s] = splitmix64(&state);
    /* Each right gets its own key; a set of rights is the XOR of its members,
     * so losing one right is one XOR whichever others remain. */
    Key single[4];
    for (int i = 0; i < 4; i++)
        single[i] = splitmix64(&state);
    for (int rights = 0; rights < CASTLING_NB; rights++) {
        zobrist_castling[rights] = 0;
        for (int i = 0; i < 4; i++)
            if (rights & (1 << i))
                zobrist_castling[rights] ^= single[i];
    }
    for (int f = 0; f < 8; f++)
        zobrist_en_passant[f] = splitmix64(&state);
    zobrist_side = splitmix64(&state);
}
