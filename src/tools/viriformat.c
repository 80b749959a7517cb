/* viriformat.c — a self-play game's stored form (see viriformat.h). */
#include "tools/viriformat.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"

enum {
    UNMOVED_ROOK = 6, BLACK_BIT = 8, NO_EP = 64, BLACK_TO_MOVE = 128,
    VIRI_EN_PASSANT = 1, VIRI_CASTLING = 2, VIRI_PROMOTION = 3
};

/* ---- the start board --------------------------------------------------------- */

/* Squares of the rooks that still carry a castling right. */
static Bitboard castling_rooks(const Board *b)
{
    Bitboard rooks = 0;
    for (int right = 0; right < 4; right++)
        if (board_state(b)->castling & (1 << right))
            rooks |= 1ULL << b->castle.rook[right];
    return rooks;
}

static uint8_t stored_piece(const Board *b, Square s, Bitboard castling)
{
    Piece p = board_piece_on(b, s);
    int type = castling & (1ULL << s) ? UNMOVED_ROOK : (int)piece_type(p);
    return (uint8_t)(type | (piece_color(p) == BLACK ? BLACK_BIT : 0));
}

void viri_board_write(ViriBoard *out, const Board *b, int result)
{
    memset(out->bytes, 0, sizeof out->bytes);
    Bitboard occupied = board_occupied(b), castling = castling_rooks(b);
    for (int i = 0; i < 8; i++)
        out->bytes[i] = (uint8_t)(occupied >> (8 * i));
    int n = 0;
    for (Bitboard rest = occupied; rest; n++) {
        uint8_t piece = stored_piece(b, pop_lsb(&rest), castling);
        out->bytes[8 + n / 2] |= (uint8_t)(n % 2 ? piece << 4 : piece);
    }
    const BoardState *st = board_state(b);
    out->bytes[24] = (uint8_t)((st->ep_square == NO_SQUARE ? NO_EP : st->ep_square) | (b->side == BLACK ? BLACK_TO_MOVE : 0));
    out->bytes[25] = (uint8_t)(st->rule50 > 255 ? 255 : st->rule50);
    int fullmove = board_fullmove(b);
    out->bytes[26] = (uint8_t)(fullmove & 0xff);
    out->bytes[27] = (uint8_t)(fullmove >> 8);
    out->bytes[30] = (uint8_t)result;
}

static char piece_letter(uint8_t stored)
{
    int type = stored & 7;
    char c = "pnbrqkr"[type];
    return stored & BLACK_BIT ? c : (char)(c - 'a' + 'A');
}

/* KQkq for the unmoved rooks on the corners of classical chess; false when
 * a rook stands elsewhere (Chess960). */
static bool classical_castling(Bitboard rooks, char *out)
{
    static const Square CORNER[4] = { H1, A1, H8, A8 };
    static const char LETTER[4] = "KQkq";
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (rooks & (1ULL << CORNER[i]))
            out[n++] = LETTER[i], rooks &= ~(1ULL << CORNER[i]);
    out[n] = '\0';
    return rooks == 0;
}

/* A rook that may castle stands on its own side's back rank, at most two
 * of each colour: anything else is no position (and would overflow the
 * castling field). */
static bool castling_rooks_fit(Bitboard rooks, const uint8_t on[SQUARE_NB])
{
    int count[COLOR_NB] = { 0, 0 };
    for (Bitboard rest = rooks; rest;) {
        Square s = pop_lsb(&rest);
        Color c = on[s] & BLACK_BIT ? BLACK : WHITE;
        if (square_rank(s) != (c == WHITE ? 0 : 7) || ++count[c] > 2)
            return false;
    }
    return true;
}

/* The stored board as FEN text, so that the board's own parser checks it. */
static bool board_fen(const ViriBoard *in, char *fen, size_t size, Bitboard *unmoved_rooks)
{
    uint8_t on[SQUARE_NB];
    memset(on, 0xff, sizeof on);
    Bitboard occupied = 0;
    for (int i = 0; i < 8; i++)
        occupied |= (Bitboard)in->bytes[i] << (8 * i);
    if (popcount(occupied) > 32)
        return false;
    *unmoved_rooks = 0;
    int n = 0;
    for (Bitboard rest = occupied; rest; n++) {
        Square s = pop_lsb(&rest);
        uint8_t pair = in->bytes[8 + n / 2];
        on[s] = (uint8_t)(n % 2 ? pair >> 4 : pair & 15);
        if ((on[s] & 7) > UNMOVED_ROOK)
            return false;
        if ((on[s] & 7) == UNMOVED_ROOK)
            *unmoved_rooks |= 1ULL << s;
    }
    if (!castling_rooks_fit(*unmoved_rooks, on))
        return false;
    size_t len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        for (int file = 0, empty = 0; file < 8; file++) {
            uint8_t p = on[make_square(file, rank)];
            if (p == 0xff)
                empty++;
            if (empty && (p != 0xff || file == 7))
                len += (size_t)snprintf(fen + len, size - len, "%d", empty), empty = 0;
            if (p != 0xff)
                len += (size_t)snprintf(fen + len, size - len, "%c", piece_letter(p));
        }
        if (rank)
            len += (size_t)snprintf(fen + len, size - len, "/");
    }
    return len < size;
}

/* The rights of the unmoved rooks as Shredder-FEN letters: a rook's file,
 * upper case for White. */
static void shredder_castling(Bitboard rooks, char *out)
{
    int n = 0;
    for (Bitboard rest = rooks; rest;) {
        Square s = pop_lsb(&rest);
        char file = (char)('a' + square_file(s));
        out[n++] = square_rank(s) == 0 ? (char)(file - 'a' + 'A') : file;
    }
    out[n] = '\0';
}

bool viri_board_read(const ViriBoard *in, Board *b, int *result, char *error, size_t error_size)
{
    char placement[100], castling[8], ep[3] = "-";
    Bitboard rooks;
    if (!board_fen(in, placement, sizeof placement, &rooks)) {
        snprintf(error, error_size, "not a board: more than 32 pieces, a piece code of 7 or a castling rook astray");
        return false;
    }
    int ep_square = in->bytes[24] & 127, fullmove = in->bytes[26] | in->bytes[27] << 8;
    *result = in->bytes[30];
    if (*result > 2 || fullmove == 0 || (ep_square != NO_EP && ep_square >= SQUARE_NB)) {
        snprintf(error, error_size, "not a board: result %d, fullmove %d, en passant %d", *result, fullmove, ep_square);
        return false;
    }
    if (ep_square != NO_EP)
        square_to_text((Square)ep_square, ep);
    /* Classical rights as KQkq; any other layout (or a king off its
     * classical square) as the rooks' files, read the Chess960 way. */
    bool chess960 = !classical_castling(rooks, castling);
    for (int attempt = 0; attempt < 2; attempt++, chess960 = true) {
        if (chess960)
            shredder_castling(rooks, castling);
        char fen[160];
        snprintf(fen, sizeof fen, "%s %c %s %s %d %d", placement, in->bytes[24] & BLACK_TO_MOVE ? 'b' : 'w',
                 castling[0] ? castling : "-", ep, in->bytes[25], fullmove);
        if (board_set_fen_960(b, fen, chess960, error, error_size))
            return true;
        if (chess960 || !rooks)
            return false;
    }
    return false;
}

/* ---- moves ------------------------------------------------------------------- */

uint16_t viri_move_encode(const Board *b, Move m)
{
    int to = move_to(m), kind = 0, promotion = 0;
    switch (move_kind(m)) {
    case MOVE_EN_PASSANT:
        kind = VIRI_EN_PASSANT;
        break;
    case MOVE_CASTLING:
        kind = VIRI_CASTLING;
        to = board_castling_move(b, m).rook_from;
        break;
    case MOVE_PROMOTION:
        kind = VIRI_PROMOTION;
        promotion = move_promotion(m) - KNIGHT;
        break;
    default:
        break;
    }
    return (uint16_t)(move_from(m) | to << 6 | promotion << 12 | kind << 14);
}

Move viri_move_decode(const Board *b, uint16_t stored)
{
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (viri_move_encode(b, list.moves[i]) == stored)
            return list.moves[i];
    return MOVE_NONE;
}

/* ---- plies ------------------------------------------------------------------- */

int16_t viri_score(int score)
{
    return (int16_t)(score > 32767 ? 32767 : score < -32767 ? -32767 : score);
}

void viri_ply_bytes(ViriPly ply, uint8_t out[VIRI_PLY_SIZE])
{
    uint16_t score = (uint16_t)ply.white_score;
    out[0] = (uint8_t)(ply.move & 0xff);
    out[1] = (uint8_t)(ply.move >> 8);
    out[2] = (uint8_t)(score & 0xff);
    out[3] = (uint8_t)(score >> 8);
}

ViriPly viri_ply_from_bytes(const uint8_t in[VIRI_PLY_SIZE])
{
    return (ViriPly){ (uint16_t)(in[0] | in[1] << 8), (int16_t)(uint16_t)(in[2] | in[3] << 8) };
}
