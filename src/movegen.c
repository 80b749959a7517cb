/* movegen.c — fully legal move generation and the game-end rules. */
#include "movegen.h"

/* What the generator works out once per position. */
typedef struct {
    Color us, them;
    Square king;
    Bitboard occupied, own, enemy;
    Bitboard check_mask; /* squares a non-king move must go to (all if not in check) */
    Bitboard pinned;     /* own pieces pinned to the king */
    Bitboard targets;    /* squares allowed by the kind of generation */
} GenContext;

/* Pieces of colour `owner` standing alone between `king` and a slider of
 * colour `slider_color` that aims at it: pinned pieces when the sliders
 * are the king's enemies, would-be discoverers when they are its friends'. */
static Bitboard lone_blockers(const Board *b, Square king, Color slider_color, Color owner)
{
    Bitboard occupied = board_occupied(b);
    Bitboard snipers =
        (rook_attacks(king, 0) & (b->by_type[ROOK] | b->by_type[QUEEN]) & b->by_color[slider_color])
        | (bishop_attacks(king, 0) & (b->by_type[BISHOP] | b->by_type[QUEEN]) & b->by_color[slider_color]);
    Bitboard found = 0;
    while (snipers) {
        Bitboard blockers = between_bb[king][pop_lsb(&snipers)] & occupied;
        if (blockers && !more_than_one(blockers))
            found |= blockers & b->by_color[owner];
    }
    return found;
}

/* Own pieces pinned to the king. */
static Bitboard find_pinned(const Board *b, Color us, Square king)
{
    return lone_blockers(b, king, color_flip(us), us);
}

/* Is s attacked by `them` with the given occupancy? The king's moves are
 * tested with the king lifted off the board, so it cannot step back along
 * the line of a checking slider. Testing the few king targets one by one
 * is cheaper than building the whole enemy attack map. */
static bool attacked_by(const Board *b, Square s, Color them, Bitboard occupied)
{
    return (board_attackers_to(b, s, occupied) & b->by_color[them]) != 0;
}

/* A pinned piece may only move along its pin ray. */
static inline Bitboard pin_filter(const GenContext *g, Square from)
{
    return (g->pinned & square_bb(from)) ? line_bb[g->king][from] : ~0ULL;
}

static Move *add_promotions(Move *out, Square from, Square to, GenType type)
{
    /* All four promotions count as noisy: quiescence picks what it wants. */
    if (type & GEN_NOISY)
        for (PieceType t = QUEEN; t >= KNIGHT; t--)
            *out++ = make_special(from, to, MOVE_PROMOTION, t);
    return out;
}

/* Adds pawn moves whose destinations are `dests`, each reached from `to - delta`.
 * Inlined at each of its four uses (always_inline: gcc would call it), where
 * `delta` is known and most sets are empty. */
static inline __attribute__((always_inline)) Move *add_pawn_moves(const GenContext *g, Move *out, Bitboard dests, int delta, GenType type)
{
    Bitboard last_rank = rank_bb(rank_relative(g->us, 7));
    while (dests) {
        Square to = pop_lsb(&dests), from = (Square)(to - delta);
        if ((g->pinned & square_bb(from)) && !(line_bb[g->king][from] & square_bb(to)))
            continue;
        if (square_bb(to) & last_rank)
            out = add_promotions(out, from, to, type);
        else
            *out++ = make_move(from, to);
    }
    return out;
}

static Move *generate_en_passant(const Board *b, const GenContext *g, Move *out)
{
    Square ep = (Square)board_state(b)->ep_square;
    if (ep == NO_SQUARE)
        return out;
    /* The same test that decided whether the position keeps its e.p. square. */
    for (Bitboard capturers = pawn_attacks[g->them][ep] & board_pieces(b, g->us, PAWN); capturers;) {
        Square from = pop_lsb(&capturers);
        if (board_en_passant_is_legal(b, from, ep))
            *out++ = make_special(from, ep, MOVE_EN_PASSANT, KNIGHT);
    }
    return out;
}

static Move *generate_pawn_moves(const Board *b, const GenContext *g, Move *out, GenType type)
{
    Color us = g->us;
    Bitboard pawns = board_pieces(b, us, PAWN);
    Bitboard empty = ~g->occupied;
    Bitboard last_rank = rank_bb(rank_relative(us, 7));
    Bitboard third_rank = rank_bb(rank_relative(us, 2));
    int up = pawn_push(us);

    Bitboard single = shift_forward(us, pawns) & empty;
    Bitboard double_ = shift_forward(us, single & third_rank) & empty;
    Bitboard push_mask = g->check_mask;
    if (!(type & GEN_QUIET))
        push_mask &= last_rank; /* noisy pushes are promotions only */
    if (!(type & GEN_NOISY))
        push_mask &= ~last_rank;
    out = add_pawn_moves(g, out, single & push_mask, up, type);
    if (type & GEN_QUIET)
        out = add_pawn_moves(g, out, double_ & g->check_mask, 2 * up, type);

    if (type & GEN_NOISY) {
        Bitboard capture_mask = g->enemy & g->check_mask;
        Bitboard forward = shift_forward(us, pawns);
        out = add_pawn_moves(g, out, shift_east(forward) & capture_mask, up + 1, type);
        out = add_pawn_moves(g, out, shift_west(forward) & capture_mask, up - 1, type);
        out = generate_en_passant(b, g, out);
    }
    return out;
}

/* Inlined once per piece type (always_inline: gcc keeps a shared copy
 * otherwise), so that each loop knows its attack function instead of
 * switching on the type for every piece. `targets` already holds the
 * check mask. */
static inline __attribute__((always_inline)) Move *generate_piece_moves(const Board *b, const GenContext *g, Move *out,
                                                                        PieceType t, Bitboard targets)
{
    Bitboard pieces = board_pieces(b, g->us, t);
    if (t == KNIGHT)
        pieces &= ~g->pinned; /* a pinned knight can never move */
    while (pieces) {
        Square from = pop_lsb(&pieces);
        Bitboard dests = piece_attacks(t, from, g->occupied) & targets;
        if (t != KNIGHT)
            dests &= pin_filter(g, from);
        while (dests)
            *out++ = make_move(from, pop_lsb(&dests));
    }
    return out;
}

/* Castling: the right kept, every square king and rook cross or land on
 * empty (bar their own), and the king neither in check nor crossing or
 * landing on an attacked square. Attacks are seen without king and rook:
 * in Chess960 the castling rook may be what shields the king's new square. */
static Move *generate_castling(const Board *b, const GenContext *g, Move *out)
{
    int rights = board_state(b)->castling;
    for (int kingside = 1; kingside >= 0; kingside--) {
        int right = castling_right_index(g->us, kingside);
        if (!(rights & (1 << right)) || (b->castle.must_be_empty[right] & g->occupied))
            continue;
        Bitboard occupied = g->occupied ^ square_bb(g->king) ^ square_bb(b->castle.rook[right]);
        bool safe = true;
        for (Bitboard path = b->castle.king_path[right]; path && safe;)
            safe = !attacked_by(b, pop_lsb(&path), g->them, occupied);
        if (safe)
            *out++ = make_special(g->king, square_relative(g->us, kingside ? G1 : C1), MOVE_CASTLING, KNIGHT);
    }
    return out;
}

int generate_moves(const Board *b, GenType type, Move *out)
{
    return generate_moves_pinned(b, type, out, pinned_pieces(b));
}

Bitboard pinned_pieces(const Board *b)
{
    return find_pinned(b, b->side, board_king(b, b->side));
}

int generate_moves_pinned(const Board *b, GenType type, Move *out, Bitboard pinned)
{
    Move *start = out;
    GenContext g;
    g.us = b->side;
    g.them = color_flip(g.us);
    g.king = board_king(b, g.us);
    g.occupied = board_occupied(b);
    g.own = b->by_color[g.us];
    g.enemy = b->by_color[g.them];
    g.targets = (type & GEN_NOISY ? g.enemy : 0) | (type & GEN_QUIET ? ~g.occupied : 0);

    Bitboard without_king = g.occupied ^ square_bb(g.king);
    for (Bitboard k = king_attacks[g.king] & g.targets; k;) {
        Square to = pop_lsb(&k);
        if (!attacked_by(b, to, g.them, without_king))
            *out++ = make_move(g.king, to);
    }

    Bitboard checkers = board_checkers(b);
    if (more_than_one(checkers))
        return (int)(out - start); /* double check: only the king moves */
    g.check_mask = checkers ? between_bb[g.king][lsb(checkers)] | checkers : ~0ULL;
    g.pinned = pinned;

    out = generate_pawn_moves(b, &g, out, type);
    Bitboard piece_targets = g.targets & g.check_mask;
    out = generate_piece_moves(b, &g, out, KNIGHT, piece_targets);
    out = generate_piece_moves(b, &g, out, BISHOP, piece_targets);
    out = generate_piece_moves(b, &g, out, ROOK, piece_targets);
    out = generate_piece_moves(b, &g, out, QUEEN, piece_targets);
    if ((type & GEN_QUIET) && !checkers)
        out = generate_castling(b, &g, out);
    return (int)(out - start);
}

/* Out of check, every move of an unpinned knight, bishop, rook or queen
 * is legal, so their targets are a lower bound on the legal moves. Most
 * positions prove "more than `cap`" from this alone, at the cost of a few
 * attack lookups instead of a full generation. */
int legal_move_count_capped(const Board *b, int cap)
{
    if (!board_in_check(b)) {
        Color us = b->side;
        Bitboard unpinned = b->by_color[us] & ~find_pinned(b, us, board_king(b, us));
        Bitboard occupied = board_occupied(b);
        int found = 0;
        for (PieceType t = KNIGHT; t <= QUEEN; t++)
            for (Bitboard pieces = b->by_type[t] & unpinned; pieces;) {
                found += popcount(piece_attacks(t, pop_lsb(&pieces), occupied) & ~b->by_color[us]);
                if (found > cap)
                    return found;
            }
    }
    Move moves[MAX_MOVES];
    return generate_moves(b, GEN_ALL, moves);
}

/* Slow but sure: is m in the generated list? Used for the rare kinds. */
static bool in_legal_list(const Board *b, Move m)
{
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

/* Can the piece on `from` reach `to` by the way it moves (ignoring pins)? */
static bool reaches(const Board *b, Square from, Square to)
{
    Piece p = board_piece_on(b, from);
    Color us = b->side;
    Bitboard occupied = board_occupied(b);
    if (piece_type(p) != PAWN)
        return (piece_attacks(piece_type(p), from, occupied) & square_bb(to)) != 0;
    if (square_rank(to) == rank_relative(us, 7))
        return false; /* a pawn reaching the last rank must promote */
    if (pawn_attacks[us][from] & b->by_color[color_flip(us)] & square_bb(to))
        return true;
    int up = pawn_push(us);
    if ((int)to == (int)from + up)
        return board_piece_on(b, to) == NO_PIECE;
    return (int)to == (int)from + 2 * up && square_rank(from) == rank_relative(us, 1)
        && board_piece_on(b, (Square)(from + up)) == NO_PIECE && board_piece_on(b, to) == NO_PIECE;
}

/* Is m legal here? Moves from tables (hash, killers) are checked this way
 * before they are searched: a quick geometric test, then whether our king
 * would be attacked once the move is played on the occupancy. */
bool move_is_legal(const Board *b, Move m)
{
    if (m == MOVE_NONE || m == MOVE_NULL)
        return false;
    if (move_kind(m) != MOVE_NORMAL)
        return in_legal_list(b, m);
    if (m >> 12)
        return false; /* a normal move carries no promotion bits */
    Square from = move_from(m), to = move_to(m);
    Color us = b->side, them = color_flip(us);
    Piece p = board_piece_on(b, from);
    if (p == NO_PIECE || piece_color(p) != us || (b->by_color[us] & square_bb(to)) || !reaches(b, from, to))
        return false;
    if (board_piece_on(b, to) != NO_PIECE && piece_type(board_piece_on(b, to)) == KING)
        return false;

    Bitboard occupied = (board_occupied(b) ^ square_bb(from)) | square_bb(to);
    Bitboard enemy = b->by_color[them] & ~square_bb(to);
    if (piece_type(p) == KING)
        return !(board_attackers_to(b, to, occupied) & enemy);
    Square king = board_king(b, us);
    Bitboard sliders_d = (b->by_type[BISHOP] | b->by_type[QUEEN]) & enemy;
    Bitboard sliders_s = (b->by_type[ROOK] | b->by_type[QUEEN]) & enemy;
    Bitboard leaper_checkers = board_checkers(b) & ~square_bb(to) & ~sliders_d & ~sliders_s;
    return !leaper_checkers
        && !(bishop_attacks(king, occupied) & sliders_d)
        && !(rook_attacks(king, occupied) & sliders_s);
}

/* Does m give check? Played on the occupancy: the moved piece's own
 * attack (as what it becomes) and any slider it uncovers, which also
 * covers the rook of a castling move and the pawn removed en passant. */
bool move_gives_check(const Board *b, Move m)
{
    Color us = b->side;
    Square from = move_from(m), to = move_to(m), king = board_king(b, color_flip(us));
    PieceType type = move_kind(m) == MOVE_PROMOTION ? move_promotion(m) : piece_type(board_piece_on(b, from));
    Bitboard occupied = (board_occupied(b) ^ square_bb(from)) | square_bb(to);
    Bitboard diagonal = (b->by_type[BISHOP] | b->by_type[QUEEN]) & b->by_color[us] & ~square_bb(from);
    Bitboard straight = (b->by_type[ROOK] | b->by_type[QUEEN]) & b->by_color[us] & ~square_bb(from);
    Square attacker = to;
    if (move_kind(m) == MOVE_EN_PASSANT)
        occupied ^= square_bb((Square)(to - pawn_push(us)));
    if (move_kind(m) == MOVE_CASTLING) {
        CastlingMove c = board_castling_move(b, m);
        occupied = (board_occupied(b) & ~square_bb(c.king_from) & ~square_bb(c.rook_from))
                 | square_bb(c.king_to) | square_bb(c.rook_to);
        straight = (straight & ~square_bb(c.rook_from)) | square_bb(c.rook_to);
        type = ROOK;
        attacker = c.rook_to;
    }
    Bitboard direct = type == PAWN ? pawn_attacks[us][attacker] : piece_attacks(type, attacker, occupied);
    if (type != KING && (direct & square_bb(king)))
        return true;
    return (bishop_attacks(king, occupied) & diagonal) || (rook_attacks(king, occupied) & straight);
}

void check_info_init(const Board *b, CheckInfo *ci)
{
    Color us = b->side, them = color_flip(us);
    Square king = board_king(b, them);
    Bitboard occupied = board_occupied(b);
    ci->enemy_king = king;
    ci->check_squares[PAWN] = pawn_attacks[them][king];
    ci->check_squares[KNIGHT] = knight_attacks[king];
    ci->check_squares[BISHOP] = bishop_attacks(king, occupied);
    ci->check_squares[ROOK] = rook_attacks(king, occupied);
    ci->check_squares[QUEEN] = ci->check_squares[BISHOP] | ci->check_squares[ROOK];
    ci->check_squares[KING] = 0;
    ci->discoverers = lone_blockers(b, king, us, us);
}

GameStatus game_status(const Board *b)
{
    Move moves[MAX_MOVES];
    if (generate_moves(b, GEN_ALL, moves) == 0)
        return board_in_check(b) ? GAME_CHECKMATE : GAME_STALEMATE;
    if (board_is_fifty_move_draw(b))
        return GAME_FIFTY_MOVES;
    if (board_repetitions(b) >= 2)
        return GAME_THREEFOLD;
    if (board_insufficient_material(b))
        return GAME_INSUFFICIENT_MATERIAL;
    return GAME_ONGOING;
}

const char *game_status_text(GameStatus status)
{
    switch (status) {
    case GAME_CHECKMATE: return "checkmate";
    case GAME_STALEMATE: return "stalemate";
    case GAME_FIFTY_MOVES: return "fifty-move rule";
    case GAME_THREEFOLD: return "threefold repetition";
    case GAME_INSUFFICIENT_MATERIAL: return "insufficient material";
    default: return "game in progress";
    }
}
