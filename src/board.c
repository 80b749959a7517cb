/* board.c — piece placement, make/unmake, FEN and the draw rules. */
#include "board.h"

#include <assert.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

static const char PIECE_LETTERS[] = "PNBRQKpnbrqk";

void board_init(void)
{
    bitboard_init();
    attacks_init();
    zobrist_init();
}

static void put_piece(Board *b, Piece p, Square s)
{
    b->squares[s] = (uint8_t)p;
    b->by_type[piece_type(p)] |= square_bb(s);
    b->by_color[piece_color(p)] |= square_bb(s);
}

static void remove_piece(Board *b, Square s)
{
    Piece p = board_piece_on(b, s);
    b->by_type[piece_type(p)] ^= square_bb(s);
    b->by_color[piece_color(p)] ^= square_bb(s);
    b->squares[s] = NO_PIECE;
}

static void move_piece(Board *b, Square from, Square to)
{
    Piece p = board_piece_on(b, from);
    Bitboard both = square_bb(from) | square_bb(to);
    b->by_type[piece_type(p)] ^= both;
    b->by_color[piece_color(p)] ^= both;
    b->squares[from] = NO_PIECE;
    b->squares[to] = (uint8_t)p;
}

bool board_square_attacked(const Board *b, Square s, Color by)
{
    return (board_attackers_to(b, s, board_occupied(b)) & b->by_color[by]) != 0;
}

static Bitboard compute_checkers(const Board *b)
{
    Color us = b->side;
    return board_attackers_to(b, board_king(b, us), board_occupied(b)) & b->by_color[color_flip(us)];
}

/* Decided by playing the capture on the occupancy: this also catches the
 * pawn pair pinned along the king's rank. */
bool board_en_passant_is_legal(const Board *b, Square from, Square ep)
{
    Color us = b->side, them = color_flip(us);
    Square captured = (Square)(ep - pawn_push(us));
    Square king = board_king(b, us);
    Bitboard occupied = (board_occupied(b) ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
    Bitboard rooks = (b->by_type[ROOK] | b->by_type[QUEEN]) & b->by_color[them];
    Bitboard bishops = (b->by_type[BISHOP] | b->by_type[QUEEN]) & b->by_color[them];
    Bitboard leaper_checkers = board_checkers(b) & ~square_bb(captured) & ~rooks & ~bishops;
    return !leaper_checkers
        && !(rook_attacks(king, occupied) & rooks)
        && !(bishop_attacks(king, occupied) & bishops);
}

/* The e.p. square to record after a double push to `ep` by the side that just
 * moved: kept only when the side now to move has a legal capture there. */
static Square useful_en_passant(const Board *b, Square ep)
{
    Bitboard capturers = pawn_attacks[color_flip(b->side)][ep] & board_pieces(b, b->side, PAWN);
    while (capturers)
        if (board_en_passant_is_legal(b, pop_lsb(&capturers), ep))
            return ep;
    return NO_SQUARE;
}

Key board_compute_key(const Board *b)
{
    const BoardState *st = board_state(b);
    Key key = zobrist_castling[st->castling];
    for (Bitboard occ = board_occupied(b); occ;) {
        Square s = pop_lsb(&occ);
        key ^= zobrist_piece[board_piece_on(b, s)][s];
    }
    if (st->ep_square != NO_SQUARE)
        key ^= zobrist_en_passant[square_file((Square)st->ep_square)];
    if (b->side == BLACK)
        key ^= zobrist_side;
    return key;
}

Key board_compute_pawn_key(const Board *b)
{
    Key key = 0;
    for (Bitboard pawns = b->by_type[PAWN]; pawns;) {
        Square s = pop_lsb(&pawns);
        key ^= zobrist_piece[board_piece_on(b, s)][s];
    }
    return key;
}

CastlingMove board_castling_move(const Board *b, Move m)
{
    Square king_to = move_to(m);
    bool kingside = square_file(king_to) == 6;
    Color c = square_rank(king_to) == 0 ? WHITE : BLACK;
    int right = castling_right_index(c, kingside);
    return (CastlingMove){ .king_from = move_from(m), .king_to = king_to, .rook_from = b->castle.rook[right],
                           .rook_to = make_square(kingside ? 5 : 3, square_rank(king_to)), .right = right };
}

int board_move_changes(const Board *b, Move m, PieceChange changes[MAX_PIECE_CHANGES])
{
    Color us = b->side;
    Square from = move_from(m), to = move_to(m);
    Piece piece = board_piece_on(b, from);
    int n = 0;
    if (move_kind(m) == MOVE_CASTLING) {
        CastlingMove c = board_castling_move(b, m);
        Piece rook = make_piece(us, ROOK);
        changes[n++] = (PieceChange){ piece, c.king_from, false };
        changes[n++] = (PieceChange){ rook, c.rook_from, false };
        changes[n++] = (PieceChange){ piece, c.king_to, true };
        changes[n++] = (PieceChange){ rook, c.rook_to, true };
        return n;
    }
    Square captured_on = move_kind(m) == MOVE_EN_PASSANT ? (Square)(to - pawn_push(us)) : to;
    Piece captured = board_piece_on(b, captured_on);
    if (captured != NO_PIECE)
        changes[n++] = (PieceChange){ captured, captured_on, false };
    changes[n++] = (PieceChange){ piece, from, false };
    Piece arriving = move_kind(m) == MOVE_PROMOTION ? make_piece(us, move_promotion(m)) : piece;
    changes[n++] = (PieceChange){ arriving, to, true };
    return n;
}

Key board_key_after(const Board *b, Move m)
{
    const BoardState *st = board_state(b);
    Square from = move_from(m), to = move_to(m);
    Piece piece = board_piece_on(b, from), captured = board_piece_on(b, to);
    Key key = st->key ^ zobrist_side ^ zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
    if (captured != NO_PIECE)
        key ^= zobrist_piece[captured][to];
    if (st->ep_square != NO_SQUARE)
        key ^= zobrist_en_passant[square_file((Square)st->ep_square)];
    return key;
}

/* Moves king and rook for castling (forward) or back. Both leave their
 * squares before either lands: in Chess960 one may land where the other
 * stood, or not move at all. Returns the change to the position key. */
static Key castle(Board *b, CastlingMove c, bool forward)
{
    Square king_off = forward ? c.king_from : c.king_to, king_on = forward ? c.king_to : c.king_from;
    Square rook_off = forward ? c.rook_from : c.rook_to, rook_on = forward ? c.rook_to : c.rook_from;
    Piece king = board_piece_on(b, king_off), rook = board_piece_on(b, rook_off);
    remove_piece(b, king_off);
    remove_piece(b, rook_off);
    put_piece(b, king, king_on);
    put_piece(b, rook, rook_on);
    return zobrist_piece[king][king_off] ^ zobrist_piece[king][king_on]
         ^ zobrist_piece[rook][rook_off] ^ zobrist_piece[rook][rook_on];
}

void board_make_move(Board *b, Move m)
{
    const BoardState *prev = board_state(b);
    BoardState *st = &b->states[++b->state_index];
    Color us = b->side, them = color_flip(us);
    Square from = move_from(m), to = move_to(m);
    Piece piece = board_piece_on(b, from);
    Key key = prev->key ^ zobrist_side;
    Key pawn_key = prev->pawn_key;

    st->move = m;
    st->rule50 = prev->rule50 + 1;
    st->plies_from_null = prev->plies_from_null + 1;
    st->ep_square = NO_SQUARE;
    if (prev->ep_square != NO_SQUARE)
        key ^= zobrist_en_passant[square_file((Square)prev->ep_square)];

    Square captured_on = move_kind(m) == MOVE_EN_PASSANT ? (Square)(to - pawn_push(us)) : to;
    Piece captured = move_kind(m) == MOVE_CASTLING ? NO_PIECE : board_piece_on(b, captured_on);
    st->captured = (uint8_t)captured;
    if (captured != NO_PIECE) {
        remove_piece(b, captured_on);
        key ^= zobrist_piece[captured][captured_on];
        if (piece_type(captured) == PAWN)
            pawn_key ^= zobrist_piece[captured][captured_on];
        st->rule50 = 0;
    }

    if (move_kind(m) == MOVE_CASTLING)
        key ^= castle(b, board_castling_move(b, m), true);
    else {
        move_piece(b, from, to);
        key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
    }

    if (piece_type(piece) == PAWN) {
        st->rule50 = 0;
        pawn_key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
        if (move_kind(m) == MOVE_PROMOTION) {
            Piece promoted = make_piece(us, move_promotion(m));
            remove_piece(b, to);
            put_piece(b, promoted, to);
            key ^= zobrist_piece[piece][to] ^ zobrist_piece[promoted][to];
            pawn_key ^= zobrist_piece[piece][to];
        }
    }

    st->castling = prev->castling & b->castle.keep[from] & b->castle.keep[to];
    key ^= zobrist_castling[prev->castling ^ st->castling];

    b->side = them;
    b->game_ply++;
    st->checkers = compute_checkers(b); /* before the e.p. test, which needs it */
    if (piece_type(piece) == PAWN && (to ^ from) == 16) {
        st->ep_square = (uint8_t)useful_en_passant(b, (Square)((from + to) / 2));
        if (st->ep_square != NO_SQUARE)
            key ^= zobrist_en_passant[square_file(to)];
    }
    st->key = key;
    st->pawn_key = pawn_key;
    assert(board_is_consistent(b));
}

void board_unmake_move(Board *b)
{
    const BoardState *st = board_state(b);
    Move m = st->move;
    Square from = move_from(m), to = move_to(m);
    Color us = color_flip(b->side);

    if (move_kind(m) == MOVE_PROMOTION) {
        remove_piece(b, to);
        put_piece(b, make_piece(us, PAWN), to);
    }
    if (move_kind(m) == MOVE_CASTLING)
        castle(b, board_castling_move(b, m), false);
    else
        move_piece(b, to, from);
    if (st->captured != NO_PIECE) {
        Square captured_on = move_kind(m) == MOVE_EN_PASSANT ? (Square)(to - pawn_push(us)) : to;
        put_piece(b, (Piece)st->captured, captured_on);
    }
    b->side = us;
    b->game_ply--;
    b->state_index--;
    assert(board_is_consistent(b));
}

/* A null move passes the turn; the search uses it to test whether the
 * position is so good that even doing nothing keeps it above beta. */
void board_make_null(Board *b)
{
    const BoardState *prev = board_state(b);
    BoardState *st = &b->states[++b->state_index];
    *st = *prev;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    st->rule50 = prev->rule50 + 1;
    st->plies_from_null = 0;
    st->key ^= zobrist_side;
    if (prev->ep_square != NO_SQUARE) {
        st->key ^= zobrist_en_passant[square_file((Square)prev->ep_square)];
        st->ep_square = NO_SQUARE;
    }
    b->side = color_flip(b->side);
    b->game_ply++;
    st->checkers = 0; /* never made while in check */
    assert(board_is_consistent(b));
}

void board_unmake_null(Board *b)
{
    b->side = color_flip(b->side);
    b->game_ply--;
    b->state_index--;
}

void board_trim_history(Board *b)
{
    if (b->state_index < MAX_HISTORY - MAX_PLY - 8)
        return;
    int drop = b->state_index - HISTORY_KEEP;
    memmove(b->states, b->states + drop, sizeof(BoardState) * (size_t)(HISTORY_KEEP + 1));
    b->state_index = HISTORY_KEEP;
}

/* ---- Draw rules ---------------------------------------------------------- */

/* How many plies back the current position could have occurred before:
 * not past the last irreversible move, the last null move or the oldest
 * record kept. */
static int repetition_reach(const Board *b)
{
    const BoardState *st = board_state(b);
    int reach = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    return reach < b->state_index ? reach : b->state_index;
}

/* Counts earlier occurrences of the current position (same side to move,
 * so every second ply, from four plies back). */
int board_repetitions(const Board *b)
{
    int reach = repetition_reach(b), count = 0;
    for (int back = 4; back <= reach; back += 2)
        count += b->states[b->state_index - back].key == board_key(b);
    return count;
}

/* A draw for the search: one repetition inside the search tree (the side
 * that can avoid it would), or a third occurrence counting the game history. */
bool board_is_repetition_draw(const Board *b, int ply_from_root)
{
    int reach = repetition_reach(b), count = 0;
    for (int back = 4; back <= reach; back += 2)
        if (b->states[b->state_index - back].key == board_key(b) && (back < ply_from_root || ++count == 2))
            return true;
    return false;
}

bool board_is_fifty_move_draw(const Board *b)
{
    return board_state(b)->rule50 >= 100;
}

/* Positions where no sequence of legal moves can give mate: bare kings, a
 * single minor piece, or only bishops that all stand on one colour. */
bool board_insufficient_material(const Board *b)
{
    if (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN])
        return false;
    Bitboard minors = b->by_type[KNIGHT] | b->by_type[BISHOP];
    if (popcount(minors) <= 1)
        return true;
    if (b->by_type[KNIGHT])
        return false;
    Bitboard bishops = b->by_type[BISHOP];
    return !(bishops & DARK_SQUARES_BB) || !(bishops & ~DARK_SQUARES_BB);
}

/* ---- FEN ----------------------------------------------------------------- */

static bool fen_error(char *error, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
    return false;
}

static bool parse_placement(Board *b, const char *text, char *error, size_t esize)
{
    int rank = 7, file = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '/') {
            if (file != 8)
                return fen_error(error, esize, "rank %d has %d squares, not 8", rank + 1, file);
            if (--rank < 0)
                return fen_error(error, esize, "more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return fen_error(error, esize, "rank %d has more than 8 squares", rank + 1);
        } else {
            const char *letter = strchr(PIECE_LETTERS, *c);
            if (!letter)
                return fen_error(error, esize, "bad piece letter '%c'", *c);
            if (file > 7)
                return fen_error(error, esize, "rank %d has more than 8 squares", rank + 1);
            put_piece(b, (Piece)(letter - PIECE_LETTERS), make_square(file++, rank));
        }
    }
    if (rank != 0)
        return fen_error(error, esize, "only %d ranks, not 8", 8 - rank);
    if (file != 8)
        return fen_error(error, esize, "rank 1 has %d squares, not 8", file);
    return true;
}

static bool check_material(const Board *b, char *error, size_t esize)
{
    static const char *NAMES[] = { "White", "Black" };
    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = popcount(board_pieces(b, c, KING));
        if (kings != 1)
            return fen_error(error, esize, "%s has %d kings, not 1", NAMES[c], kings);
        if (popcount(board_pieces(b, c, PAWN)) > 8)
            return fen_error(error, esize, "%s has more than 8 pawns", NAMES[c]);
        if (popcount(b->by_color[c]) > 16)
            return fen_error(error, esize, "%s has more than 16 pieces", NAMES[c]);
    }
    if (b->by_type[PAWN] & (RANK_1_BB | RANK_8_BB))
        return fen_error(error, esize, "a pawn stands on the first or last rank");
    return true;
}

/* Records one castling right: its rook and the squares it needs. */
static void add_castling_right(Board *b, Color c, Square king, Square rook)
{
    bool kingside = square_file(rook) > square_file(king);
    int right = castling_right_index(c, kingside);
    Square king_to = square_relative(c, kingside ? G1 : C1), rook_to = square_relative(c, kingside ? F1 : D1);
    CastlingLayout *l = &b->castle;
    l->rook[right] = rook;
    l->king_path[right] = between_bb[king][king_to] | square_bb(king_to);
    l->must_be_empty[right] = (between_bb[king][king_to] | square_bb(king_to) | between_bb[rook][rook_to] | square_bb(rook_to))
                            & ~(square_bb(king) | square_bb(rook));
    l->keep[king] &= (uint8_t)~(3 << (2 * c));
    l->keep[rook] &= (uint8_t)~(1 << right);
    b->states[0].castling |= (uint8_t)(1 << right);
}

/* The rook a castling letter names: K/Q the outermost rook on that side of
 * the king (X-FEN), A-H the rook on that file (Shredder-FEN); NO_SQUARE if
 * there is none. */
static Square castling_rook(const Board *b, Color c, Square king, char letter)
{
    Bitboard rooks = board_pieces(b, c, ROOK) & (c == WHITE ? RANK_1_BB : RANK_8_BB);
    int king_file = square_file(king), rank = square_rank(king);
    char upper = (char)toupper((unsigned char)letter);
    if (upper == 'K' || upper == 'Q') {
        int step = upper == 'K' ? -1 : 1;
        for (int f = upper == 'K' ? 7 : 0; f != king_file; f += step)
            if (rooks & square_bb(make_square(f, rank)))
                return make_square(f, rank);
        return NO_SQUARE;
    }
    Square s = make_square(upper - 'A', rank);
    return (rooks & square_bb(s)) && upper - 'A' != king_file ? s : NO_SQUARE;
}

static bool parse_castling(Board *b, const char *text, char *error, size_t esize)
{
    CastlingLayout *l = &b->castle;
    memset(l->keep, ALL_CASTLING, sizeof l->keep);
    b->states[0].castling = 0;
    if (strcmp(text, "-") == 0)
        return true;
    for (const char *c = text; *c; c++) {
        char upper = (char)toupper((unsigned char)*c);
        if (!strchr("KQABCDEFGH", upper))
            return fen_error(error, esize, "bad castling letter '%c'", *c);
        if (upper != 'K' && upper != 'Q' && !l->chess960)
            return fen_error(error, esize, "castling letter '%c' names a rook file, which only Chess960 FENs do"
                             " (UCI_Chess960 or variant fischerandom)", *c);
        Color color = isupper((unsigned char)*c) ? WHITE : BLACK;
        Square king = board_king(b, color);
        if (square_rank(king) != rank_relative(color, 0))
            return fen_error(error, esize, "castling right '%c' with the king off its first rank", *c);
        Square rook = castling_rook(b, color, king, *c);
        if (rook == NO_SQUARE)
            return fen_error(error, esize, "castling right '%c' without a rook on %s", *c,
                             upper == 'K' ? "the king's right" : upper == 'Q' ? "the king's left" : "that file");
        bool kingside = square_file(rook) > square_file(king);
        if ((upper == 'K' && !kingside) || (upper == 'Q' && kingside))
            return fen_error(error, esize, "castling right '%c' with the rook on the other side of the king", *c);
        int right = castling_right_index(color, kingside);
        if (b->states[0].castling & (1 << right)) {
            if (l->rook[right] == rook)
                return fen_error(error, esize, "castling right '%c' given twice for one side", *c);
            return fen_error(error, esize, "castling rights on the rooks %c%c and %c%c, both on the king's %s:"
                             " the king must stand between its castling rooks",
                             'a' + square_file(l->rook[right]), '1' + square_rank(l->rook[right]),
                             'a' + square_file(rook), '1' + square_rank(rook), kingside ? "right" : "left");
        }
        if (!l->chess960 && (square_file(king) != 4 || square_file(rook) != (kingside ? 7 : 0)))
            return fen_error(error, esize, "castling right '%c' without king and rook on their squares"
                             " (a Chess960 position needs UCI_Chess960 or variant fischerandom)", *c);
        add_castling_right(b, color, king, rook);
    }
    return true;
}

/* An e.p. square must be behind a pawn that could just have made a double
 * step; if it is possible but no capture is legal, it is dropped. */
static bool parse_en_passant(Board *b, const char *text, char *error, size_t esize)
{
    BoardState *st = &b->states[0];
    st->ep_square = NO_SQUARE;
    if (strcmp(text, "-") == 0)
        return true;
    if (strlen(text) != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return fen_error(error, esize, "bad en passant square '%s'", text);
    Square ep = make_square(text[0] - 'a', text[1] - '1');
    Color us = b->side, them = color_flip(us);
    Square pushed = (Square)(ep - pawn_push(us)), origin = (Square)(ep + pawn_push(us));
    if (square_rank(ep) != rank_relative(us, 5)
        || board_piece_on(b, pushed) != make_piece(them, PAWN)
        || board_piece_on(b, ep) != NO_PIECE || board_piece_on(b, origin) != NO_PIECE)
        return fen_error(error, esize, "en passant square %s is impossible here", text);
    st->ep_square = (uint8_t)useful_en_passant(b, ep);
    return true;
}

static bool parse_counter(const char *text, long min, long max, long *value)
{
    char *end;
    if (!isdigit((unsigned char)text[0]))
        return false;
    *value = strtol(text, &end, 10);
    return *end == '\0' && *value >= min && *value <= max;
}

/* Fills a cleared board from the split FEN fields, checking each. */
static bool parse_fields(Board *b, char **fields, int count, bool chess960, char *error, size_t esize)
{
    b->castle.chess960 = chess960;
    if (!parse_placement(b, fields[0], error, esize) || !check_material(b, error, esize))
        return false;

    if (strcmp(fields[1], "w") != 0 && strcmp(fields[1], "b") != 0)
        return fen_error(error, esize, "side to move '%s' is not 'w' or 'b'", fields[1]);
    b->side = fields[1][0] == 'w' ? WHITE : BLACK;
    if (board_square_attacked(b, board_king(b, color_flip(b->side)), b->side))
        return fen_error(error, esize, "the side not to move is in check");

    BoardState *st = &b->states[0];
    st->checkers = compute_checkers(b);
    if (!parse_castling(b, fields[2], error, esize) || !parse_en_passant(b, fields[3], error, esize))
        return false;

    long rule50 = 0, fullmove = 1;
    if (count > 4 && !parse_counter(fields[4], 0, 150, &rule50))
        return fen_error(error, esize, "halfmove clock '%s' is not a number from 0 to 150", fields[4]);
    if (count > 5 && !parse_counter(fields[5], 1, 9999, &fullmove))
        return fen_error(error, esize, "move number '%s' is not a number from 1 to 9999", fields[5]);
    st->rule50 = (uint16_t)rule50;
    st->plies_from_null = 0;
    st->captured = NO_PIECE;
    st->move = MOVE_NONE;
    b->game_ply = 2 * ((int)fullmove - 1) + (b->side == BLACK);
    st->key = board_compute_key(b);
    st->pawn_key = board_compute_pawn_key(b);
    return true;
}

bool board_set_fen(Board *out, const char *fen, char *error, size_t esize)
{
    return board_set_fen_960(out, fen, false, error, esize);
}

bool board_set_fen_960(Board *out, const char *fen, bool chess960, char *error, size_t esize)
{
    char copy[256];
    if (strlen(fen) >= sizeof copy)
        return fen_error(error, esize, "FEN too long");
    strcpy(copy, fen);
    char *fields[6], *save = NULL;
    int count = 0;
    for (char *tok = strtok_r(copy, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (count == 6)
            return fen_error(error, esize, "more than 6 fields");
        fields[count++] = tok;
    }
    if (count < 4)
        return fen_error(error, esize, "%d fields; a FEN needs 4 to 6", count);

    /* Parse into a scratch board so that a bad FEN changes nothing. Only the
     * first state record matters, so the copy back is short. */
    Board *scratch = calloc(1, sizeof *scratch);
    if (!scratch)
        return fen_error(error, esize, "out of memory");
    memset(scratch->squares, NO_PIECE, sizeof scratch->squares);
    bool ok = parse_fields(scratch, fields, count, chess960, error, esize);
    if (ok)
        memcpy(out, scratch, offsetof(Board, states) + sizeof(BoardState));
    free(scratch);
    return ok;
}

/* X-FEN: K/Q/k/q for the outermost rook on its side (always so in normal
 * chess), the rook's file for an inner one (Chess960 only). */
static char castling_letter(const Board *b, int right)
{
    Color c = right >= 2 ? BLACK : WHITE;
    bool kingside = right % 2 == 0;
    Square rook = b->castle.rook[right];
    char letter = kingside ? 'K' : 'Q';
    if (castling_rook(b, c, board_king(b, c), letter) != rook)
        letter = (char)('A' + square_file(rook));
    return c == WHITE ? letter : (char)tolower((unsigned char)letter);
}

void board_get_fen(const Board *b, char *out, size_t size)
{
    char text[128];
    int n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = board_piece_on(b, make_square(file, rank));
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                text[n++] = (char)('0' + empty);
            empty = 0;
            text[n++] = PIECE_LETTERS[p];
        }
        if (empty)
            text[n++] = (char)('0' + empty);
        if (rank)
            text[n++] = '/';
    }
    text[n++] = ' ';
    text[n++] = b->side == WHITE ? 'w' : 'b';
    text[n++] = ' ';
    const BoardState *st = board_state(b);
    if (!st->castling)
        text[n++] = '-';
    for (int i = 0; i < 4; i++)
        if (st->castling & (1 << i))
            text[n++] = castling_letter(b, i);
    text[n++] = ' ';
    if (st->ep_square == NO_SQUARE)
        text[n++] = '-';
    else {
        text[n++] = (char)('a' + square_file((Square)st->ep_square));
        text[n++] = (char)('1' + square_rank((Square)st->ep_square));
    }
    snprintf(text + n, sizeof text - (size_t)n, " %d %d", st->rule50, board_fullmove(b));
    snprintf(out, size, "%s", text);
}

/* ---- consistency (debug builds assert it after every change) ------------- */

/* Do the board's redundant parts agree: the mailbox with the bitboards, the
 * incremental keys with keys computed afresh, the checkers with the attacks
 * on the king, and is there one king a side? */
bool board_is_consistent(const Board *b)
{
    Bitboard by_type[PIECE_TYPE_NB] = { 0 }, by_color[COLOR_NB] = { 0 };
    for (Square s = A1; s < SQUARE_NB; s++) {
        Piece p = board_piece_on(b, s);
        if (p == NO_PIECE)
            continue;
        if (p >= PIECE_NB)
            return false;
        by_type[piece_type(p)] |= square_bb(s);
        by_color[piece_color(p)] |= square_bb(s);
    }
    if (memcmp(by_type, b->by_type, sizeof by_type) != 0 || memcmp(by_color, b->by_color, sizeof by_color) != 0)
        return false;
    if (popcount(board_pieces(b, WHITE, KING)) != 1 || popcount(board_pieces(b, BLACK, KING)) != 1)
        return false;
    if (board_key(b) != board_compute_key(b) || board_pawn_key(b) != board_compute_pawn_key(b))
        return false;
    return board_checkers(b) == compute_checkers(b);
}
