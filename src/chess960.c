/* chess960.c — the Chess960 start positions (see chess960.h). */
#include "chess960.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>

/* Puts `piece` on the n-th still empty square of the back rank. */
static void place_on_empty(char rank[8], int n, char piece)
{
    for (int f = 0; f < 8; f++)
        if (rank[f] == 0 && n-- == 0) {
            rank[f] = piece;
            return;
        }
}

bool chess960_start_fen(int number, char *out, size_t out_size)
{
    /* The two knights on the remaining five squares, by Scharnagl's table. */
    static const int KNIGHTS[10][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 },
                                        { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };
    if (number < 0 || number >= CHESS960_POSITIONS)
        return false;
    char rank[8] = { 0 };
    int n = number;
    rank[2 * (n % 4) + 1] = 'B'; /* light-squared bishop: b, d, f or h */
    n /= 4;
    rank[2 * (n % 4)] = 'B';     /* dark-squared bishop: a, c, e or g */
    n /= 4;
    place_on_empty(rank, n % 6, 'Q');
    n /= 6;
    /* The second knight first: placing the first would shift its index. */
    place_on_empty(rank, KNIGHTS[n][1], 'N');
    place_on_empty(rank, KNIGHTS[n][0], 'N');
    /* Rook, king, rook on the three squares left: the king between. */
    place_on_empty(rank, 0, 'R');
    place_on_empty(rank, 0, 'K');
    place_on_empty(rank, 0, 'R');
    char black[9], white[9];
    for (int f = 0; f < 8; f++) {
        white[f] = rank[f];
        black[f] = (char)tolower((unsigned char)rank[f]);
    }
    white[8] = black[8] = '\0';
    snprintf(out, out_size, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", black, white);
    return true;
}
