/* fuzz_common.c — checks, line splitting and the file sandbox of the fuzz targets. */
#include "fuzz_common.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "engine_options.h"
#include "games/book.h"
#include "games/polyglot.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "protocol/frontend_options.h"
#include "tokens.h"

void fuzz_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, file, line);
    abort();
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

void fuzz_for_each_line(const uint8_t *data, size_t size, bool (*run)(char *line, void *context), void *context)
{
    size_t start = 0;
    while (start < size) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) : size;
        size_t len = end - start;
        while (len > 0 && data[start + len - 1] == '\r')
            len--;
        char *line = fuzz_text(data + start, len);
        bool more = run(line, context);
        free(line);
        if (!more)
            return;
        start = end + 1;
    }
}

void fuzz_quiet_stdout(void)
{
    if (getenv("BACHESS_FUZZ_VERBOSE"))
        return;
    fflush(stdout);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
}

/* ---- the file sandbox ------------------------------------------------------- */

enum { SANDBOX_NAMES = 8 };
static char sandbox_dir[256];
static char *sandbox_paths[SANDBOX_NAMES];
static atomic_bool guard_on;

static void sandbox_cleanup(void)
{
    for (int i = 0; i < SANDBOX_NAMES && sandbox_paths[i]; i++)
        unlink(sandbox_paths[i]);
    rmdir(sandbox_dir);
}

const char *fuzz_sandbox(void)
{
    if (*sandbox_dir)
        return sandbox_dir;
    const char *given = getenv("BACHESS_FUZZ_TMP");
    if (given && *given) {
        snprintf(sandbox_dir, sizeof sandbox_dir, "%s", given);
        if (mkdir(sandbox_dir, 0700) != 0) {
            struct stat st;
            FUZZ_CHECK(stat(sandbox_dir, &st) == 0 && S_ISDIR(st.st_mode));
        }
    } else {
        snprintf(sandbox_dir, sizeof sandbox_dir, "/tmp/bachess-fuzz-XXXXXX");
        FUZZ_CHECK(mkdtemp(sandbox_dir) != NULL);
        atexit(sandbox_cleanup);
    }
    return sandbox_dir;
}

const char *fuzz_sandbox_path(const char *name)
{
    const char *dir = fuzz_sandbox();
    size_t len = strlen(dir) + strlen(name) + 2;
    int i = 0;
    for (; i < SANDBOX_NAMES && sandbox_paths[i]; i++)
        if (strcmp(sandbox_paths[i] + strlen(dir) + 1, name) == 0)
            return sandbox_paths[i];
    FUZZ_CHECK(i < SANDBOX_NAMES);
    sandbox_paths[i] = malloc(len);
    FUZZ_CHECK(sandbox_paths[i] != NULL);
    snprintf(sandbox_paths[i], len, "%s/%s", dir, name);
    return sandbox_paths[i];
}

void fuzz_guard_files(bool on) { atomic_store(&guard_on, on); }

static bool path_allowed(const char *path)
{
    if (strcmp(path, "/dev/null") == 0)
        return true;
    for (int i = 0; i < SANDBOX_NAMES && sandbox_paths[i]; i++)
        if (strcmp(path, sandbox_paths[i]) == 0)
            return true;
    return false;
}

/* Every fopen() of the program is linked to this one (-Wl,--wrap=fopen). */
FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (atomic_load(&guard_on) && !path_allowed(path)) {
        fprintf(stderr, "fuzz: the engine tried to open '%s' (mode %s) outside the sandbox\n", path, mode);
        abort();
    }
    return __real_fopen(path, mode);
}

void fuzz_write_sandbox_books(void)
{
    Book full, part;
    book_use_default(&full);
    part = (Book){ full.entries, full.count < 96 ? full.count : 96, false };
    char error[256];
    FUZZ_CHECK(book_write_file(&part, fuzz_sandbox_path("book.bin"), error, sizeof error));
    book_free(&full); /* the built-in book is read into memory of its own */
    FILE *bad = fopen(fuzz_sandbox_path("damaged.bin"), "wb");
    FUZZ_CHECK(bad != NULL);
    fputs("not a Polyglot book", bad);
    fclose(bad);
}

bool fuzz_number_above(const char *text, long long limit)
{
    int64_t v;
    return parse_int64(text, &v) && v > limit; /* as option_set reads it */
}

const char *fuzz_safe_option_value(const char *name, const char *value)
{
    static char number[32];
    bool empty = !*value || strcmp(value, "<empty>") == 0;
    if (strcasecmp(name, "Hash") == 0 && fuzz_number_above(value, FUZZ_MAX_HASH_MB))
        return snprintf(number, sizeof number, "%d", FUZZ_MAX_HASH_MB), number;
    if (strcasecmp(name, "Threads") == 0 && fuzz_number_above(value, FUZZ_MAX_THREADS))
        return snprintf(number, sizeof number, "%d", FUZZ_MAX_THREADS), number;
    if (strcasecmp(name, "PGNLog") == 0 && !empty)
        return fuzz_sandbox_path("games.pgn");
    if (strcasecmp(name, "ConnTrace") == 0 && !empty)
        return "/dev/null";
    if (strcasecmp(name, "BookFile") == 0 && !empty) /* a good book or a damaged one */
        return fuzz_sandbox_path(strlen(value) % 2 ? "book.bin" : "damaged.bin");
    return NULL;
}

void fuzz_check_options_safe(void)
{
    static const char *FILES[] = { "PGNLog", "ConnTrace", "BookFile" };
    if (option_find("Hash")->value > FUZZ_MAX_HASH_MB || option_find("Threads")->value > FUZZ_MAX_THREADS)
        fuzz_fail("Hash or Threads escaped the harness limits", __FILE__, __LINE__);
    for (int i = 0; i < 3; i++) {
        const char *path = option_text_value(option_find(FILES[i])->text);
        if (*path && !path_allowed(path))
            fuzz_fail("a file option escaped the sandbox", __FILE__, __LINE__);
    }
}

void fuzz_options_reset(void)
{
    for (int i = 0; i < options_count(); i++) {
        Option *o = option_at(i);
        char value[64], error[256];
        const char *wanted = NULL;
        if ((o->type == OPTION_SPIN || o->type == OPTION_CHECK) && o->value != o->default_value) {
            snprintf(value, sizeof value, "%lld", (long long)o->default_value);
            wanted = value;
        } else if ((o->type == OPTION_STRING || o->type == OPTION_COMBO) && strcmp(o->text, o->default_text) != 0)
            wanted = o->default_text;
        if (strcmp(o->name, "Hash") == 0) {
            snprintf(value, sizeof value, "%d", FUZZ_HASH_MB);
            wanted = o->value != FUZZ_HASH_MB ? value : NULL;
        }
        if (wanted && !option_set(o->name, wanted, error, sizeof error)) {
            fprintf(stderr, "fuzz: cannot reset option %s: %s\n", o->name, error);
            abort();
        }
    }
}

void fuzz_protocol_init(void)
{
    board_init();
    engine_init();
    engine_register_options();
    frontend_register_options();
    fuzz_quiet_stdout();
    fuzz_write_sandbox_books();
    (void)fuzz_sandbox_path("games.pgn");
    fuzz_options_reset();
}

bool fuzz_send_line(bool (*dispatch)(char *line), const char *text)
{
    char *line = strdup(text);
    FUZZ_CHECK(line != NULL);
    bool more = dispatch(line);
    free(line);
    return more;
}

/* ---- positions ------------------------------------------------------------- */

const char *const FUZZ_FENS[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",   /* castling, pins */
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                             /* e.p. pins */
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                               /* promotions */
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",         /* e.p. capture */
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",                                  /* castling both ways */
    "4k3/8/8/2N1N3/8/2N1N3/8/4K3 w - - 0 1",                                 /* ambiguous knights */
    "7k/8/8/8/Q1Q5/8/Q1Q5/K7 w - - 0 1",                                     /* full disambiguation */
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",    /* checkmate */
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                        /* stalemate */
    "4k3/8/8/8/8/8/4p3/4K3 w - - 99 80",                                     /* fifty-move edge */
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",           /* a useless e.p. square */
};
const int FUZZ_FEN_COUNT = sizeof FUZZ_FENS / sizeof *FUZZ_FENS;

void fuzz_check_board(const Board *b)
{
    Bitboard occupied = 0, typed = 0;
    int pieces = 0;
    for (int s = 0; s < SQUARE_NB; s++) {
        Piece p = board_piece_on(b, (Square)s);
        Bitboard bit = 1ULL << s;
        if (p == NO_PIECE) {
            FUZZ_CHECK(!(board_occupied(b) & bit));
            continue;
        }
        FUZZ_CHECK(p < PIECE_NB);
        FUZZ_CHECK(b->by_type[piece_type(p)] & b->by_color[piece_color(p)] & bit);
        occupied |= bit;
    }
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        typed |= b->by_type[t];
        pieces += popcount(b->by_type[t]);
    }
    FUZZ_CHECK(occupied == board_occupied(b) && typed == occupied && pieces == popcount(occupied));
    FUZZ_CHECK(!(b->by_color[WHITE] & b->by_color[BLACK]));
    FUZZ_CHECK(popcount(board_pieces(b, WHITE, KING)) == 1 && popcount(board_pieces(b, BLACK, KING)) == 1);
    FUZZ_CHECK(b->side == WHITE || b->side == BLACK);
    FUZZ_CHECK(b->state_index >= 0 && b->state_index < MAX_HISTORY);
    FUZZ_CHECK(board_key(b) == board_compute_key(b));
    FUZZ_CHECK(board_pawn_key(b) == board_compute_pawn_key(b));
    Color them = color_flip(b->side);
    FUZZ_CHECK(board_checkers(b) == (board_attackers_to(b, board_king(b, b->side), board_occupied(b)) & b->by_color[them]));
    FUZZ_CHECK(!board_square_attacked(b, board_king(b, them), b->side));
    const BoardState *st = board_state(b);
    FUZZ_CHECK(st->castling <= ALL_CASTLING);
    FUZZ_CHECK(st->ep_square == NO_SQUARE || square_rank((Square)st->ep_square) == rank_relative(b->side, 5));
}

bool fuzz_move_is_legal(const Board *b, Move m)
{
    MoveList list;
    generate_legal(b, &list);
    bool listed = false;
    for (int i = 0; i < list.count && !listed; i++)
        listed = list.moves[i] == m;
    FUZZ_CHECK(listed == move_is_legal(b, m));
    return listed;
}

static size_t position_bytes(const Board *b)
{
    return offsetof(Board, states) + sizeof(BoardState) * (size_t)(b->state_index + 1);
}

bool fuzz_same_position(const Board *a, const Board *b)
{
    return a->state_index == b->state_index && memcmp(a, b, position_bytes(a)) == 0;
}

void fuzz_check_moves(Board *b)
{
    static Board before;
    memcpy(&before, b, position_bytes(b));
    MoveList list;
    generate_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        char text[MOVE_TEXT_SIZE];
        FUZZ_CHECK(move_is_legal(b, m));
        move_to_coordinate(m, text);
        FUZZ_CHECK(move_from_coordinate(b, text) == m);
        move_to_san(b, m, text);
        FUZZ_CHECK(fuzz_same_position(b, &before));
        FUZZ_CHECK(move_from_san(b, text) == m);
        FUZZ_CHECK(move_parse(b, text) == m);
        FUZZ_CHECK(polyglot_decode_move(b, polyglot_encode_move(b, m)) == m);
        if (b->state_index + 1 < MAX_HISTORY) {
            board_make_move(b, m);
            fuzz_check_board(b);
            board_unmake_move(b);
            FUZZ_CHECK(fuzz_same_position(b, &before));
        }
    }
}
