/* perft.c — the perft counter. */
#include "perft.h"

#include "movegen.h"

uint64_t perft(Board *b, int depth)
{
    Move moves[MAX_MOVES];
    int count = generate_moves(b, GEN_ALL, moves);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)count : 1;
    uint64_t nodes = 0;
    for (int i = 0; i < count; i++) {
        board_make_move(b, moves[i]);
        nodes += perft(b, depth - 1);
        board_unmake_move(b);
    }
    return nodes;
}
