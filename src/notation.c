/* notation.c — coordinate and SAN move text, in and out. */
#include "notation.h"

#include <ctype.h>
#include <string.h>

#include "movegen.h"

static const char PROMOTION_LETTERS[] = "nbrq"; /* KNIGHT..QUEEN */
static const char SAN_PIECES[] = "PNBRQK";

void square_to_text(Square s, char *out)
{
    out[0] = (char)('a' + square_file(s));
    out[1] = (char)('1' + square_rank(s));
    out[2] = '\0';
}

void move_to_coordinate(Move m, char *out)
{
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(out, "0000");
        return;
    }
    square_to_text(move_from(m), out);
    square_to_text(move_to(m), out + 2);
    if (move_kind(m) == MOVE_PROMOTION) {
        out[4] = PROMOTION_LETTERS[move_promotion(m) - KNIGHT];
        out[5] = '\0';
    }
}

void move_to_uci(const Board *b, Move m, char *out)
{
    move_to_coordinate(m, out);
    if (b->castle.chess960 && move_kind(m) == MOVE_CASTLING)
        square_to_text(board_castling_move(b, m).rook_from, out + 2);
}

/* The form of a castling move that the game does not write: the king's
 * step in Chess960, king-takes-rook in normal chess. */
static void other_castling_text(const Board *b, Move m, char *out)
{
    square_to_text(move_from(m), out);
    square_to_text(b->castle.chess960 ? move_to(m) : board_castling_move(b, m).rook_from, out + 2);
}

Move move_from_coordinate(const Board *b, const char *text)
{
    size_t len = strlen(text);
    if (len < 4 || len > 5)
        return MOVE_NONE;
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        char candidate[MOVE_TEXT_SIZE];
        move_to_uci(b, list.moves[i], candidate);
        /* Promotion letters are accepted in either case (e7e8Q). */
        if (strlen(candidate) == len && strncmp(candidate, text, 4) == 0
            && (len == 4 || tolower((unsigned char)text[4]) == candidate[4]))
            return list.moves[i];
    }
    for (int i = 0; i < list.count && len == 4; i++) {
        char candidate[MOVE_TEXT_SIZE];
        if (move_kind(list.moves[i]) != MOVE_CASTLING)
            continue;
        other_castling_text(b, list.moves[i], candidate);
        if (strcmp(candidate, text) == 0)
            return list.moves[i];
    }
    return MOVE_NONE;
}

/* The check suffix of a move: '+', '#' or nothing. */
static const char *check_suffix(Board *b, Move m)
{
    board_make_move(b, m);
    const char *suffix = "";
    if (board_in_check(b)) {
        Move replies[MAX_MOVES];
        suffix = generate_moves(b, GEN_ALL, replies) ? "+" : "#";
    }
    board_unmake_move(b);
    return suffix;
}

void move_to_san(Board *b, Move m, char *out)
{
    Square from = move_from(m), to = move_to(m);
    PieceType type = piece_type(board_piece_on(b, from));
    char *p = out;

    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(p, square_file(to) == 6 ? "O-O" : "O-O-O");
        strcat(p, check_suffix(b, m));
        return;
    }
    if (type == PAWN) {
        if (board_is_capture(b, m))
            *p++ = (char)('a' + square_file(from));
    } else {
        *p++ = SAN_PIECES[type];
        /* Disambiguate by file if that suffices, else by rank, else both. */
        MoveList list;
        generate_legal(b, &list);
        bool clash = false, same_file = false, same_rank = false;
        for (int i = 0; i < list.count; i++) {
            Move other = list.moves[i];
            Square of = move_from(other);
            if (other == m || move_to(other) != to || piece_type(board_piece_on(b, of)) != type)
                continue;
            clash = true;
            same_file |= square_file(of) == square_file(from);
            same_rank |= square_rank(of) == square_rank(from);
        }
        if (clash && (!same_file || same_rank))
            *p++ = (char)('a' + square_file(from));
        if (clash && same_file)
            *p++ = (char)('1' + square_rank(from));
    }
    if (board_is_capture(b, m))
        *p++ = 'x';
    square_to_text(to, p);
    p += 2;
    if (move_kind(m) == MOVE_PROMOTION) {
        *p++ = '=';
        *p++ = SAN_PIECES[move_promotion(m)];
    }
    *p = '\0';
    strcat(out, check_suffix(b, m));
}

/* What a SAN text asks for; -1 means "not given". */
typedef struct {
    int piece;     /* PieceType */
    int from_file, from_rank;
    int to;        /* Square */
    int promotion; /* PieceType */
    int castle;    /* 0 none, 1 short, 2 long */
} SanRequest;

/* Removes the decorations a SAN move may carry: check marks, annotation
 * glyphs, "e.p.", '=', 'x', ':' and '-' between squares. */
static void strip_san(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < size; c++) {
        if (strncmp(c, "e.p.", 4) == 0 || strncmp(c, "ep", 2) == 0) {
            c += (c[1] == '.') ? 3 : 1;
            continue;
        }
        if (strchr("+#!?=x:-", *c) && !(*c == '-' && (c[1] == 'O' || c[1] == 'o' || c[1] == '0')))
            continue;
        out[n++] = *c;
    }
    out[n] = '\0';
}

static bool parse_castle(const char *text, SanRequest *r)
{
    char clean[MOVE_TEXT_SIZE];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof clean; c++)
        if (*c != '-' && *c != '+' && *c != '#' && *c != '!' && *c != '?')
            clean[n++] = (char)toupper((unsigned char)(*c == '0' ? 'O' : *c));
    clean[n] = '\0';
    if (strcmp(clean, "OO") == 0)
        r->castle = 1;
    else if (strcmp(clean, "OOO") == 0)
        r->castle = 2;
    return r->castle != 0;
}

static bool parse_san_request(const char *text, SanRequest *r)
{
    *r = (SanRequest){ -1, -1, -1, -1, -1, 0 };
    if (parse_castle(text, r))
        return true;
    char s[MOVE_TEXT_SIZE];
    if (strlen(text) >= sizeof s)
        return false;
    strip_san(text, s, sizeof s);
    size_t len = strlen(s);
    if (len < 2)
        return false;

    const char *piece = strchr("NBRQK", s[0]);
    size_t i = 0;
    if (s[0] && piece) {
        r->piece = (int)(piece - "NBRQK") + KNIGHT;
        i = 1;
    } else if (s[0] == 'P') {
        i = 1;
    }
    /* A trailing promotion letter (e8Q, e8=Q, e8q after a pawn move). */
    if (len >= 3 && strchr("NBRQnbrq", s[len - 1]) && isdigit((unsigned char)s[len - 2])) {
        r->promotion = (int)(strchr(PROMOTION_LETTERS, tolower((unsigned char)s[len - 1])) - PROMOTION_LETTERS) + KNIGHT;
        len--;
    }
    if (len < i + 2)
        return false;
    char file = s[len - 2], rank = s[len - 1];
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8')
        return false;
    r->to = make_square(file - 'a', rank - '1');
    for (; i < len - 2; i++) { /* disambiguation: a file, a rank or both */
        if (s[i] >= 'a' && s[i] <= 'h')
            r->from_file = s[i] - 'a';
        else if (s[i] >= '1' && s[i] <= '8')
            r->from_rank = s[i] - '1';
        else
            return false;
    }
    if (r->piece < 0)
        r->piece = PAWN;
    return true;
}

static bool san_matches(const Board *b, const SanRequest *r, Move m)
{
    if (r->castle)
        return move_kind(m) == MOVE_CASTLING && (square_file(move_to(m)) == 6) == (r->castle == 1);
    Square from = move_from(m);
    if (move_kind(m) == MOVE_CASTLING || (int)move_to(m) != r->to
        || (int)piece_type(board_piece_on(b, from)) != r->piece)
        return false;
    if ((r->from_file >= 0 && square_file(from) != r->from_file)
        || (r->from_rank >= 0 && square_rank(from) != r->from_rank))
        return false;
    if (move_kind(m) == MOVE_PROMOTION)
        return (int)move_promotion(m) == r->promotion;
    return r->promotion < 0;
}

Move move_from_san(const Board *b, const char *text)
{
    SanRequest r;
    if (!parse_san_request(text, &r))
        return MOVE_NONE;
    MoveList list;
    generate_legal(b, &list);
    Move found = MOVE_NONE;
    for (int i = 0; i < list.count; i++)
        if (san_matches(b, &r, list.moves[i])) {
            if (found != MOVE_NONE)
                return MOVE_NONE; /* ambiguous */
            found = list.moves[i];
        }
    return found;
}

Move move_parse(const Board *b, const char *text)
{
    Move m = move_from_coordinate(b, text);
    return m != MOVE_NONE ? m : move_from_san(b, text);
}
