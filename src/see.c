/* see.c — static exchange evaluation by the swap algorithm. */
#include "see.h"

const int SEE_VALUES[PIECE_TYPE_NB] = { 100, 320, 330, 500, 950, 0 };

/* Lifts the least valuable of `attackers` (of one colour) off `occupied`,
 * returning its type, or KING if only the king is left. */
static PieceType pop_least_valuable(const Board *b, Bitboard attackers, Bitboard *occupied)
{
    for (PieceType t = PAWN; t <= QUEEN; t++) {
        Bitboard set = attackers & b->by_type[t];
        if (set) {
            *occupied ^= set & -set;
            return t;
        }
    }
    return KING;
}

bool see_ge(const Board *b, Move m, int threshold)
{
    if (move_kind(m) != MOVE_NORMAL)
        return threshold <= 0; /* castling, e.p. and promotions: treat as even */
    Square from = move_from(m), to = move_to(m);
    Piece captured = board_piece_on(b, to);
    int balance = (captured == NO_PIECE ? 0 : SEE_VALUES[piece_type(captured)]) - threshold;
    if (balance < 0)
        return false; /* even keeping the capture falls short */
    balance -= SEE_VALUES[piece_type(board_piece_on(b, from))];
    if (balance >= 0)
        return true; /* even losing the mover is enough */

    Bitboard occupied = board_occupied(b) ^ square_bb(from) ^ square_bb(to);
    Bitboard attackers = board_attackers_to(b, to, occupied) & occupied;
    Bitboard diagonal = b->by_type[BISHOP] | b->by_type[QUEEN];
    Bitboard straight = b->by_type[ROOK] | b->by_type[QUEEN];
    Color side = color_flip(piece_color(board_piece_on(b, from)));

    /* `balance` is from the point of view of the side that just captured;
     * each step flips it. The side to move wins the exchange if it still
     * has an attacker after the other side runs out. */
    for (;;) {
        Bitboard ours = attackers & b->by_color[side];
        if (!ours)
            break;
        PieceType t = pop_least_valuable(b, ours, &occupied);
        if (t == PAWN || t == BISHOP || t == QUEEN)
            attackers |= bishop_attacks(to, occupied) & diagonal;
        if (t == ROOK || t == QUEEN)
            attackers |= rook_attacks(to, occupied) & straight;
        attackers &= occupied;
        side = color_flip(side);
        balance = -balance - 1 - SEE_VALUES[t];
        if (balance >= 0) {
            /* A king may only take if the square is no longer defended. */
            if (t == KING && (attackers & b->by_color[side]))
                side = color_flip(side);
            break;
        }
    }
    return side != piece_color(board_piece_on(b, from));
}
