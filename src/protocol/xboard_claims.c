/* xboard_claims.c — true result claims, by the laws and by XBoard. */
#include "protocol/xboard_claims.h"

#include <string.h>

#include "movegen.h"

bool claim_repetition(const Board *b)
{
    const BoardState *now = board_state(b);
    int reach = now->rule50 < now->plies_from_null ? now->rule50 : now->plies_from_null;
    if (reach > b->state_index)
        reach = b->state_index;
    int count = 0;
    for (int back = 4; back <= reach; back += 2) {
        const BoardState *then = &b->states[b->state_index - back];
        int step = (int)move_to(then->move) - (int)move_from(then->move);
        /* A pawn's double step: the only quiet move that resets the
         * fifty-move count and moves a piece two ranks. */
        bool double_step = then->rule50 == 0 && then->captured == NO_PIECE && (step == 16 || step == -16);
        count += then->key == now->key && !double_step;
    }
    return count >= 2;
}

bool claim_dead_material(const Board *b)
{
    if (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN])
        return false;
    Bitboard minors = b->by_type[KNIGHT] | b->by_type[BISHOP], bishops = b->by_type[BISHOP];
    if (popcount(minors) <= 1)
        return true;
    bool one_each = popcount(minors) == 2 && popcount(bishops) == 2 && popcount(b->by_color[WHITE] & bishops) == 1;
    return one_each && (!(bishops & DARK_SQUARES_BB) || !(bishops & ~DARK_SQUARES_BB));
}

const char *claim_game_end(const Board *b)
{
    switch (game_status(b)) {
    case GAME_ONGOING: return NULL;
    case GAME_CHECKMATE: return b->side == WHITE ? "0-1 {Black mates}" : "1-0 {White mates}";
    case GAME_STALEMATE: return "1/2-1/2 {Stalemate}";
    case GAME_FIFTY_MOVES: return "1/2-1/2 {Draw by fifty move rule}";
    default: break;
    }
    /* The laws say threefold or dead position: claim only what XBoard sees. */
    if (claim_repetition(b))
        return "1/2-1/2 {Draw by repetition}";
    if (claim_dead_material(b))
        return "1/2-1/2 {Insufficient material}";
    return NULL;
}

bool claim_is_offerable_draw(const char *claim)
{
    return claim && strncmp(claim, "1/2-1/2", 7) == 0 && strcmp(claim, "1/2-1/2 {Stalemate}") != 0;
}
