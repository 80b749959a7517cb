/* bitboard.c — fills the empty-board geometry tables declared in bitboard.h. */
#include "bitboard.h"

#include <stdlib.h>

Bitboard between_bb[SQUARE_NB][SQUARE_NB];
Bitboard line_bb[SQUARE_NB][SQUARE_NB];
int square_distance[SQUARE_NB][SQUARE_NB];
Bitboard distance_ring_bb[SQUARE_NB][8];

static int sign(int x) { return (x > 0) - (x < 0); }

/* Walks from a towards b in the direction they share, if any: fills the
 * segment strictly between them and the whole board-wide line. */
static void fill_line(Square a, Square b)
{
    int df = square_file(b) - square_file(a), dr = square_rank(b) - square_rank(a);
    if (a == b || (df != 0 && dr != 0 && abs(df) != abs(dr)))
        return;
    int sf = sign(df), sr = sign(dr);

    for (int f = square_file(a) + sf, r = square_rank(a) + sr;
         f != square_file(b) || r != square_rank(b); f += sf, r += sr)
        between_bb[a][b] |= square_bb(make_square(f, r));

    Bitboard line = square_bb(a);
    for (int dir = -1; dir <= 1; dir += 2)
        for (int f = square_file(a) + dir * sf, r = square_rank(a) + dir * sr;
             f >= 0 && f < 8 && r >= 0 && r < 8; f += dir * sf, r += dir * sr)
            line |= square_bb(make_square(f, r));
    line_bb[a][b] = line;
}

void bitboard_init(void)
{
    for (Square a = A1; a < SQUARE_NB; a++)
        for (Square b = A1; b < SQUARE_NB; b++) {
            int df = abs(square_file(a) - square_file(b));
            int dr = abs(square_rank(a) - square_rank(b));
            square_distance[a][b] = df > dr ? df : dr;
            distance_ring_bb[a][square_distance[a][b]] |= square_bb(b);
            fill_line(a, b);
        }
}
