/* pgn.c — a streaming PGN reader and an export-format writer. */
#include "games/pgn.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "games/pgn_text.h"
#include "movegen.h"
#include "notation.h"
#include "platform.h"

enum { BUFFER_SIZE = 1 << 16 };

typedef enum {
    TOK_EOF, TOK_LBRACKET, TOK_RBRACKET, TOK_LPAREN, TOK_RPAREN, TOK_PERIOD, TOK_STAR,
    TOK_STRING, TOK_SYMBOL, TOK_NAG, TOK_COMMENT,
    TOK_BAD_COMMENT, TOK_BAD_STRING, TOK_OTHER
} TokenKind;

struct PgnReader {
    FILE *in;
    unsigned char buffer[BUFFER_SIZE];
    size_t length, pos;
    long long bytes, size;
    int line;
    bool line_start;       /* the next character is the first of its line */
    int move_limit;
    bool chess960_allowed; /* pgn_allow_chess960 */
    int games;             /* games started so far */

    TokenKind token;       /* the current token */
    char *text;            /* its text (strings unescaped, symbols as they are) */
    size_t text_length, text_capacity;
    int token_line;
    bool pushed_back;      /* the current token is to be read again */

    PgnGame game;
    int tag_capacity, move_capacity;
    Board *board;
};

/* ---- characters ------------------------------------------------------------ */

/* Makes sure at least `want` bytes are buffered unless the file ends first. */
static void fill(PgnReader *r, size_t want)
{
    if (r->length - r->pos >= want || !r->in)
        return;
    memmove(r->buffer, r->buffer + r->pos, r->length - r->pos);
    r->length -= r->pos;
    r->pos = 0;
    while (r->length < want) {
        size_t got = fread(r->buffer + r->length, 1, BUFFER_SIZE - r->length, r->in);
        if (got == 0)
            break;
        r->length += got;
    }
}

static int peek_at(PgnReader *r, size_t ahead)
{
    fill(r, ahead + 1);
    return r->pos + ahead < r->length ? r->buffer[r->pos + ahead] : EOF;
}

static int peek_char(PgnReader *r) { return peek_at(r, 0); }

static int next_char(PgnReader *r)
{
    int c = peek_char(r);
    if (c == EOF)
        return EOF;
    r->pos++;
    r->bytes++;
    r->line_start = c == '\n';
    if (c == '\n')
        r->line++;
    return c;
}

static void skip_line(PgnReader *r)
{
    int c;
    while ((c = next_char(r)) != EOF && c != '\n')
        ;
}

/* ---- tokens ---------------------------------------------------------------- */

static void text_add(PgnReader *r, int c)
{
    if (r->text_length + 2 > r->text_capacity) {
        size_t capacity = r->text_capacity ? r->text_capacity * 2 : 256;
        char *grown = realloc(r->text, capacity);
        if (!grown)
            return; /* out of memory: the token is cut short */
        r->text = grown;
        r->text_capacity = capacity;
    }
    r->text[r->text_length++] = (char)c;
    r->text[r->text_length] = '\0';
}

static void text_clear(PgnReader *r)
{
    r->text_length = 0;
    if (r->text)
        r->text[0] = '\0';
}

static bool is_symbol_char(int c)
{
    return isalnum(c) || c >= 0x80 || (c && strchr("_+#=:-/!?", c));
}

/* A brace comment, after its '{'. A comment still open when a blank line is
 * followed by what looks like a tag pair ("[Name") was never closed: it
 * ends there, so that the next game can still be read. */
static TokenKind read_brace_comment(PgnReader *r)
{
    bool line_blank = false, previous_blank = false;
    for (;;) {
        if (r->line_start && previous_blank && peek_char(r) == '[' && isalpha(peek_at(r, 1)))
            return TOK_BAD_COMMENT;
        int c = next_char(r);
        if (c == EOF)
            return TOK_BAD_COMMENT;
        if (c == '}')
            return TOK_COMMENT;
        if (c == '\n') {
            previous_blank = line_blank;
            line_blank = true;
        } else if (!isspace(c)) {
            line_blank = false;
        }
    }
}

static TokenKind read_string(PgnReader *r)
{
    for (;;) {
        int c = next_char(r);
        if (c == EOF || c == '\n')
            return TOK_BAD_STRING;
        if (c == '"')
            return TOK_STRING;
        if (c == '\\') {
            int escaped = peek_char(r);
            if (escaped == '"' || escaped == '\\')
                c = next_char(r);
        }
        if (c != '\r')
            text_add(r, c);
    }
}

static TokenKind read_token(PgnReader *r)
{
    text_clear(r);
    for (;;) {
        int c = peek_char(r);
        if (c == EOF) {
            r->token_line = r->line;
            return TOK_EOF;
        }
        if (r->line_start && c == '%') { /* escape line: ignored */
            skip_line(r);
            continue;
        }
        if (isspace(c)) {
            next_char(r);
            continue;
        }
        break;
    }
    r->token_line = r->line;
    int c = next_char(r);
    switch (c) {
    case '[': return TOK_LBRACKET;
    case ']': return TOK_RBRACKET;
    case '(': return TOK_LPAREN;
    case ')': return TOK_RPAREN;
    case '.': return TOK_PERIOD;
    case '*': return TOK_STAR;
    case '{': return read_brace_comment(r);
    case ';': skip_line(r); return TOK_COMMENT;
    case '"': return read_string(r);
    case '$':
        while (isdigit(peek_char(r)))
            text_add(r, next_char(r));
        return r->text_length ? TOK_NAG : TOK_OTHER;
    default:
        break;
    }
    if (!is_symbol_char(c)) {
        text_add(r, c);
        return TOK_OTHER;
    }
    text_add(r, c);
    bool digits_only = isdigit(c);
    for (;;) {
        int next = peek_char(r);
        /* '.' belongs to a symbol only in "e.p." (a move number's dots do not) */
        bool dot = next == '.' && !digits_only && (r->text[r->text_length - 1] == 'e' || r->text[r->text_length - 1] == 'p');
        if (!is_symbol_char(next) && !dot)
            break;
        digits_only &= isdigit(next) != 0;
        text_add(r, next_char(r));
    }
    return TOK_SYMBOL;
}

static TokenKind next_token(PgnReader *r)
{
    if (r->pushed_back)
        r->pushed_back = false;
    else
        r->token = read_token(r);
    return r->token;
}

static void push_back(PgnReader *r) { r->pushed_back = true; }

/* ---- opening and closing --------------------------------------------------- */

static PgnReader *reader_new(FILE *in)
{
    PgnReader *r = calloc(1, sizeof *r);
    Board *b = malloc(sizeof *b);
    if (!r || !b) {
        free(r);
        free(b);
        return NULL;
    }
    r->in = in;
    r->board = b;
    r->line = 1;
    r->line_start = true;
    /* A UTF-8 byte order mark is not part of the text. */
    if (peek_at(r, 0) == 0xEF && peek_at(r, 1) == 0xBB && peek_at(r, 2) == 0xBF)
        r->pos += 3, r->bytes += 3;
    return r;
}

PgnReader *pgn_open(const char *path, char *error, size_t error_size)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(error, error_size, "cannot open '%s'", path);
        return NULL;
    }
    struct stat st;
    PgnReader *r = reader_new(in);
    if (!r) {
        fclose(in);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode))
        r->size = (long long)st.st_size;
    return r;
}

PgnReader *pgn_open_text(const char *text, size_t size)
{
    /* The text goes through a temporary file so that one code path reads. */
    FILE *in = tmpfile();
    if (!in)
        return NULL;
    if (size && fwrite(text, 1, size, in) != size) {
        fclose(in);
        return NULL;
    }
    rewind(in);
    PgnReader *r = reader_new(in);
    if (!r) {
        fclose(in);
        return NULL;
    }
    r->size = (long long)size;
    return r;
}

static void clear_game(PgnGame *g)
{
    for (int i = 0; i < g->tag_count; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    g->tag_count = 0;
    g->move_count = 0;
}

void pgn_close(PgnReader *r)
{
    if (!r)
        return;
    clear_game(&r->game);
    free(r->game.tags);
    free(r->game.moves);
    free(r->text);
    free(r->board);
    if (r->in)
        fclose(r->in);
    free(r);
}

void pgn_set_move_limit(PgnReader *r, int plies) { r->move_limit = plies > 0 ? plies : 0; }
void pgn_allow_chess960(PgnReader *r, bool allowed) { r->chess960_allowed = allowed; }
long long pgn_bytes_read(const PgnReader *r) { return r->bytes; }
long long pgn_file_size(const PgnReader *r) { return r->size; }

const char *pgn_tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->tag_count; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

/* ---- games ----------------------------------------------------------------- */

static bool add_tag(PgnReader *r, const char *name, const char *value)
{
    PgnGame *g = &r->game;
    if (g->tag_count == r->tag_capacity) {
        int capacity = r->tag_capacity ? r->tag_capacity * 2 : 16;
        PgnTag *grown = realloc(g->tags, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        g->tags = grown;
        r->tag_capacity = capacity;
    }
    char *n = strdup(name), *v = strdup(value);
    if (!n || !v) {
        free(n);
        free(v);
        return false;
    }
    g->tags[g->tag_count++] = (PgnTag){ n, v };
    return true;
}

static bool add_move(PgnReader *r, Move m)
{
    PgnGame *g = &r->game;
    if (g->move_count == r->move_capacity) {
        int capacity = r->move_capacity ? r->move_capacity * 2 : 256;
        Move *grown = realloc(g->moves, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        g->moves = grown;
        r->move_capacity = capacity;
    }
    g->moves[g->move_count++] = m;
    return true;
}

static PgnStatus fail(PgnReader *r, PgnError *error, int line, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static PgnStatus fail(PgnReader *r, PgnError *error, int line, const char *format, ...)
{
    error->game = r->game.number;
    error->line = line;
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    return PGN_BAD_GAME;
}

static bool is_result(const char *s)
{
    return strcmp(s, "1-0") == 0 || strcmp(s, "0-1") == 0 || strcmp(s, "1/2-1/2") == 0
        || strcmp(s, "1/2") == 0 || strcmp(s, "\xC2\xBD-\xC2\xBD") == 0 || strcmp(s, "\xBD-\xBD") == 0;
}

static const char *normal_result(const char *s)
{
    if (strcmp(s, "1-0") == 0 || strcmp(s, "0-1") == 0)
        return s;
    return strcmp(s, "*") == 0 ? "*" : "1/2-1/2";
}

/* Symbols that carry no move: move numbers, "!?", "+-", "=", "e.p.". */
static bool is_decoration(const char *s)
{
    bool digits = true, alnum = false;
    for (const char *c = s; *c; c++) {
        digits &= isdigit((unsigned char)*c) != 0;
        alnum |= isalnum((unsigned char)*c) != 0;
    }
    return digits || !alnum || strcmp(s, "e.p.") == 0 || strcmp(s, "ep") == 0;
}

/* After a fault: reads over the rest of the game — to its end marker, or to
 * the next tag section once movetext has been seen, or to the end. */
static void skip_game(PgnReader *r, bool seen_movetext)
{
    for (;;) {
        TokenKind t = next_token(r);
        if (t == TOK_EOF || t == TOK_STAR || (t == TOK_SYMBOL && is_result(r->text)))
            return;
        if (t == TOK_LBRACKET && seen_movetext) {
            push_back(r);
            return;
        }
        if (t != TOK_LBRACKET && t != TOK_RBRACKET && t != TOK_STRING && t != TOK_COMMENT && t != TOK_BAD_COMMENT)
            seen_movetext = true;
    }
}

static PgnStatus bad_game(PgnReader *r, bool seen_movetext)
{
    skip_game(r, seen_movetext);
    return PGN_BAD_GAME;
}

/* One tag pair, after its '['. */
static bool read_tag(PgnReader *r, PgnError *error)
{
    if (next_token(r) != TOK_SYMBOL) {
        fail(r, error, r->token_line, "a tag needs a name after '['");
        return false;
    }
    char name[64];
    snprintf(name, sizeof name, "%s", r->text);
    TokenKind t = next_token(r);
    if (t != TOK_STRING) {
        fail(r, error, r->token_line, t == TOK_BAD_STRING ? "tag %s: string not closed on its line"
                                                           : "tag %s: the value must be a quoted string", name);
        return false;
    }
    if (!add_tag(r, name, r->text)) {
        fail(r, error, r->token_line, "out of memory");
        return false;
    }
    if (next_token(r) != TOK_RBRACKET) {
        fail(r, error, r->token_line, "tag %s: ']' missing", name);
        return false;
    }
    return true;
}

/* A Variant tag's value in lower case without spaces, hyphens and underscores, as files
 * spell one variant many ways ("Chess960", "chess 960", "Fischer-Random"). */
static void variant_key(const char *variant, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = variant; *c && n + 1 < size; c++)
        if (*c != ' ' && *c != '-' && *c != '_')
            out[n++] = (char)tolower((unsigned char)*c);
    out[n] = '\0';
}

/* The game's rules from its Variant tag: false for a variant not read. */
static bool read_variant(PgnReader *r, PgnError *error)
{
    PgnGame *g = &r->game;
    const char *variant = pgn_tag(g, "Variant");
    if (!variant)
        return true;
    char key[32];
    variant_key(variant, key, sizeof key);
    /* "fischerandom" is XBoard's name, which some databases write. */
    g->chess960 = strcmp(key, "chess960") == 0 || strcmp(key, "fischerandom") == 0
               || strcmp(key, "fischerrandom") == 0;
    if (g->chess960 && r->chess960_allowed)
        return true;
    if (g->chess960) {
        fail(r, error, g->line, "a Chess960 game (this tool reads standard chess only)");
        return false;
    }
    if (strcmp(key, "standard") != 0 && strcmp(key, "chess") != 0 && strcmp(key, "normal") != 0) {
        fail(r, error, g->line, "variant '%.40s' is not %s", variant,
             r->chess960_allowed ? "standard chess or Chess960" : "standard chess");
        return false;
    }
    return true;
}

/* Sets the board to the game's start: the FEN tag if there is one. A
 * Chess960 game without one starts from the classical position, which is
 * Chess960's number 518. */
static bool set_start(PgnReader *r, PgnError *error)
{
    PgnGame *g = &r->game;
    if (!read_variant(r, error))
        return false;
    const char *fen = pgn_tag(g, "FEN");
    g->has_fen = fen != NULL;
    snprintf(g->fen, sizeof g->fen, "%s", fen ? fen : START_FEN);
    char why[128];
    if (!board_set_fen_960(r->board, g->fen, g->chess960, why, sizeof why)) {
        fail(r, error, g->line, "FEN tag: %s", why);
        return false;
    }
    return true;
}

static void describe_move(const Board *b, const char *san, char *out, size_t size)
{
    snprintf(out, size, "%d%s %.24s", board_fullmove(b), b->side == WHITE ? "." : "...", san);
}

/* The game's end while a variation is still open: an error at the line
 * that opened it. */
static PgnStatus variation_not_closed(PgnReader *r, PgnError *error, int variation_line)
{
    return fail(r, error, variation_line, "variation opened here is not closed");
}

/* A game cut off without an end marker, by the end of the file or the
 * next game's tags: kept as far as it goes, with its Result tag's result. */
static PgnStatus truncated_game(PgnGame *g)
{
    g->truncated = true;
    const char *tag = pgn_tag(g, "Result");
    bool known = tag && (is_result(tag) || strcmp(tag, "*") == 0);
    snprintf(g->result, sizeof g->result, "%s", known ? normal_result(tag) : "*");
    return PGN_GAME;
}

/* A move of the main line, in SAN or in coordinates: played and kept. */
static bool play_main_line_move(PgnReader *r, PgnError *error, int line)
{
    Board *b = r->board;
    char what[48];
    describe_move(b, r->text, what, sizeof what);
    if (strcmp(r->text, "--") == 0 || strcmp(r->text, "Z0") == 0) {
        fail(r, error, line, "%s: null moves are not supported", what);
        return false;
    }
    Move m = move_from_san(b, r->text);
    if (m == MOVE_NONE)
        m = move_from_coordinate(b, r->text);
    if (m == MOVE_NONE) {
        fail(r, error, line, "%s is not a legal move", what);
        return false;
    }
    if (!add_move(r, m)) {
        fail(r, error, line, "out of memory");
        return false;
    }
    board_make_move(b, m);
    board_trim_history(b);
    r->game.plies++;
    return true;
}

/* The movetext, up to and including its end marker. Variations, NAGs and
 * comments are counted and passed over; the main line is played. */
static PgnStatus read_movetext(PgnReader *r, PgnError *error)
{
    PgnGame *g = &r->game;
    int depth = 0, variation_line = 0;
    for (;;) {
        TokenKind t = next_token(r);
        int line = r->token_line;
        switch (t) {
        case TOK_LBRACKET:
        case TOK_EOF:
            if (t == TOK_LBRACKET)
                push_back(r); /* the next game's tags */
            return depth > 0 ? variation_not_closed(r, error, variation_line) : truncated_game(g);
        case TOK_STAR:
            if (depth > 0)
                return variation_not_closed(r, error, variation_line);
            strcpy(g->result, "*");
            return PGN_GAME;
        case TOK_LPAREN:
            if (depth++ == 0)
                variation_line = line;
            g->variations++;
            break;
        case TOK_RPAREN:
            if (depth == 0) {
                fail(r, error, line, "')' without a variation to close");
                return bad_game(r, true);
            }
            depth--;
            break;
        case TOK_PERIOD:
            break;
        case TOK_NAG:
            g->nags++;
            break;
        case TOK_COMMENT:
            g->comments++;
            break;
        case TOK_BAD_COMMENT:
            fail(r, error, line, "comment opened here is not closed");
            return bad_game(r, true);
        case TOK_SYMBOL:
            if (is_result(r->text)) {
                if (depth > 0)
                    return variation_not_closed(r, error, variation_line);
                strcpy(g->result, normal_result(r->text));
                return PGN_GAME;
            }
            if (depth > 0 || is_decoration(r->text))
                break;
            if (r->move_limit && g->plies >= r->move_limit)
                g->plies++; /* counted, not played */
            else if (!play_main_line_move(r, error, line))
                return bad_game(r, true);
            break;
        case TOK_STRING:
        case TOK_BAD_STRING:
        case TOK_RBRACKET:
        case TOK_OTHER:
            fail(r, error, line, "unexpected %s in the moves",
                 t == TOK_RBRACKET ? "']'" : t == TOK_OTHER ? "character" : "string");
            return bad_game(r, true);
        }
    }
}

PgnStatus pgn_next(PgnReader *r, const PgnGame **game, PgnError *error)
{
    PgnGame *g = &r->game;
    clear_game(g);
    *g = (PgnGame){ .tags = g->tags, .moves = g->moves };
    *game = g;

    TokenKind t;
    while ((t = next_token(r)) == TOK_COMMENT)
        ; /* comments between games */
    if (t == TOK_EOF)
        return PGN_END;
    g->number = ++r->games;
    g->line = r->token_line;

    /* The tag section. */
    while (t == TOK_LBRACKET || t == TOK_COMMENT) {
        if (t == TOK_LBRACKET && !read_tag(r, error))
            return bad_game(r, false);
        t = next_token(r);
    }
    push_back(r);
    if (!set_start(r, error))
        return bad_game(r, false);
    return read_movetext(r, error);
}

/* ---- writing --------------------------------------------------------------- */

bool pgn_write_game(FILE *out, const PgnTag *tags, int tag_count, const char *fen,
                    const Move *moves, int move_count, const char *result)
{
    result = result && is_result(result) ? normal_result(result) : "*";
    Board *b = malloc(sizeof *b);
    if (!b)
        return false;
    char error[128];
    bool standard = !fen || strcmp(fen, START_FEN) == 0;
    if (!board_set_fen(b, standard ? START_FEN : fen, error, sizeof error)) {
        free(b);
        return false;
    }
    char start[128];
    board_get_fen(b, start, sizeof start);

    /* The movetext first, so that nothing is written for an illegal move. */
    char *movetext = NULL;
    size_t size = 0;
    PgnLine line = { platform_memstream(&movetext, &size), 0 };
    bool legal = line.out != NULL;
    for (int i = 0; legal && i < move_count; i++) {
        legal = move_is_legal(b, moves[i]);
        if (!legal)
            break;
        char san[MOVE_TEXT_SIZE];
        move_to_san(b, moves[i], san);
        pgn_write_move(&line, b->game_ply, i == 0, san);
        board_make_move(b, moves[i]);
        board_trim_history(b);
    }
    free(b);
    if (line.out) {
        pgn_write_word(&line, result);
        legal = platform_memstream_close(line.out) == 0 && legal;
    }
    if (!legal) {
        free(movetext);
        return false;
    }

    for (int k = 0; k < PGN_ROSTER_SIZE; k++) {
        const char *value = PGN_ROSTER_UNKNOWN[k];
        for (int i = 0; i < tag_count; i++)
            if (strcmp(tags[i].name, PGN_ROSTER[k]) == 0 && tags[i].value[0])
                value = tags[i].value;
        pgn_write_tag(out, PGN_ROSTER[k], k == PGN_ROSTER_RESULT ? result : value);
    }
    if (!standard) {
        pgn_write_tag(out, "SetUp", "1");
        pgn_write_tag(out, "FEN", start);
    }
    for (int i = 0; i < tag_count; i++) {
        bool skip = strcmp(tags[i].name, "SetUp") == 0 || strcmp(tags[i].name, "FEN") == 0;
        for (int k = 0; k < PGN_ROSTER_SIZE && !skip; k++)
            skip = strcmp(tags[i].name, PGN_ROSTER[k]) == 0;
        if (!skip)
            pgn_write_tag(out, tags[i].name, tags[i].value);
    }
    fprintf(out, "\n%s\n\n", movetext);
    free(movetext);
    return true;
}
