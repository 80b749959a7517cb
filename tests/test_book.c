/* test_book.c — Polyglot keys and move codes, book files (valid and
 * damaged), building, the built-in book, and the engine's use of it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "engine_options.h"
#include "engine_book.h"
#include "games/book.h"
#include "games/pgn.h"
#include "games/polyglot.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "support.h"

static void setup(void)
{
    board_init();
    engine_init();
    engine_register_options();
    engine_book_seed(20240601);
}

static void teardown(void) { engine_quit(); }

TestSuite(book, .init = setup, .fini = teardown, .timeout = 240);

/* ---- keys ------------------------------------------------------------------ */

/* The test positions published with the Polyglot book format. */
static const struct {
    const char *moves, *fen;
    Key key;
} SPEC[] = {
    { "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL },
    { "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL },
    { "e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL },
    { "e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL },
    { "e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ULL },
    { "e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1ULL },
    { "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9ULL },
    { "a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637ULL },
    { "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL },
};

Test(book, keys_of_the_published_test_positions)
{
    for (size_t i = 0; i < sizeof SPEC / sizeof *SPEC; i++) {
        Key key;
        char error[128];
        cr_assert(polyglot_key_of_fen(SPEC[i].fen, &key, error, sizeof error), "%s", error);
        cr_expect_eq(key, SPEC[i].key, "FEN %s: %016llx", SPEC[i].fen, (unsigned long long)key);
        Board *b = board_from_fen(START_FEN);
        if (*SPEC[i].moves)
            board_play(b, SPEC[i].moves);
        cr_expect_eq(polyglot_key(b), SPEC[i].key, "after %s: %016llx", SPEC[i].moves, (unsigned long long)polyglot_key(b));
        free(b);
    }
}

/* Polyglot counts an e.p. file whenever an enemy pawn stands beside the
 * pushed pawn, even when that capture is illegal (here the pawn is pinned). */
Test(book, en_passant_key_follows_the_polyglot_rule)
{
    Board *b = board_from_fen("4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    board_play(b, "d7d5");
    cr_assert_eq(board_state(b)->ep_square, NO_SQUARE); /* no legal capture */
    Key with, without;
    char error[128];
    cr_assert(polyglot_key_of_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2", &with, error, sizeof error), "%s", error);
    cr_assert(polyglot_key_of_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - - 0 2", &without, error, sizeof error), "%s", error);
    cr_assert_eq(polyglot_key(b), with);
    cr_assert_eq(with ^ without, polyglot_random[772 + 3]);
    /* And no e.p. part when no pawn stands beside the pushed one. */
    Board *c = board_from_fen(START_FEN);
    board_play(c, "e2e4 d7d5 g1f3 d5d4 c2c4");
    Key fen_key;
    cr_assert(polyglot_key_of_fen("rnbqkbnr/ppp1pppp/8/8/2PpP3/5N2/PP1P1PPP/RNBQKB1R b KQkq c3 0 3", &fen_key, error, sizeof error));
    cr_assert_eq(polyglot_key(c), fen_key);
    board_play(c, "g8f6 b2b4");
    Key no_ep;
    cr_assert(polyglot_key_of_fen("rnbqkb1r/ppp1pppp/5n2/8/1PPpP3/5N2/P2P1PPP/RNBQKB1R b KQkq - 0 4", &no_ep, error, sizeof error));
    cr_assert_eq(polyglot_key(c), no_ep);
    free(b);
    free(c);
}

/* Found by fuzz/fuzz_fen: board_set_fen also splits a FEN at CR and LF, and
 * the key's own look at the e.p. field did not, so it took another field
 * for the square (an index out of bounds) or missed the e.p. part. */
Test(book, key_of_a_fen_split_by_line_breaks)
{
    char error[128];
    Key plain, split, ep, ep_split;
    cr_assert(polyglot_key_of_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &plain, error, sizeof error), "%s", error);
    cr_assert(polyglot_key_of_fen("4k3/8/8/8/8/8/8/4K3 w\n- - 0 1", &split, error, sizeof error), "%s", error);
    cr_assert_eq(split, plain);
    cr_assert(polyglot_key_of_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2", &ep, error, sizeof error), "%s", error);
    cr_assert(polyglot_key_of_fen("4r1k1/8/8/3pP3/8/8/8/4K3\r\nw\r\n-\r\nd6\r\n0 2", &ep_split, error, sizeof error), "%s", error);
    cr_assert_eq(ep_split, ep);
}

Test(book, move_codes)
{
    Board *b = board_from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    Move oo = move_parse(b, "O-O"), ooo = move_parse(b, "O-O-O"), promo = move_parse(b, "b8=N");
    cr_assert_neq(promo, MOVE_NONE);
    cr_assert_eq(polyglot_encode_move(b, oo), 0x107);  /* e1h1 */
    cr_assert_eq(polyglot_encode_move(b, ooo), 0x100); /* e1a1 */
    cr_assert_eq(polyglot_encode_move(b, promo), 0x1C79);
    cr_assert_eq(polyglot_decode_move(b, 0x107), oo);
    cr_assert_eq(polyglot_decode_move(b, 0x106), oo); /* e1g1 is taken too */
    cr_assert_eq(polyglot_decode_move(b, 0x100), ooo);
    cr_assert_eq(polyglot_decode_move(b, 0x1C79), promo);
    cr_assert_eq(polyglot_decode_move(b, 0x0C79), MOVE_NONE); /* a promotion without a piece */
    cr_assert_eq(polyglot_decode_move(b, 0), MOVE_NONE);
    char text[8];
    polyglot_move_text(0x4C79, text);
    cr_assert_str_eq(text, "b7b8q");
    board_play(b, "b7b8n");
    cr_assert_eq(polyglot_encode_move(b, move_parse(b, "O-O")), 0xF3F); /* e8h8 */
    cr_assert_eq(polyglot_decode_move(b, 0x107), MOVE_NONE);           /* White's castling: not Black's move */
    free(b);
}

/* ---- book files ------------------------------------------------------------ */

static void put_entry(unsigned char *p, Key key, uint16_t move, uint16_t weight)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(key >> (56 - 8 * i));
    p[8] = (unsigned char)(move >> 8), p[9] = (unsigned char)move;
    p[10] = (unsigned char)(weight >> 8), p[11] = (unsigned char)weight;
    memset(p + 12, 0, 4);
}

static char *temp_file(const void *data, size_t size)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/bachess-book-test-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, data, size), (ssize_t)size);
    close(fd);
    return path;
}

Test(book, damaged_books_are_refused)
{
    unsigned char data[64];
    put_entry(data, 0x463b96181691fc9cULL, 0x031c, 10);
    put_entry(data + 16, 0x463b96181691fc9cULL, 0x02db, 5);
    put_entry(data + 32, 0x823c9b50fd114196ULL, 0x0ca2, 7);
    put_entry(data + 48, 0x0000000000000001ULL, 0x0ca2, 7); /* out of order */
    Book book;
    char error[256];
    cr_assert(book_load_bytes(&book, data, 48, error, sizeof error), "%s", error);
    cr_assert_eq(book.count, 3u);
    book_free(&book);
    cr_assert_not(book_load_bytes(&book, data, 0, error, sizeof error));
    cr_assert(strstr(error, "empty"), "%s", error);
    cr_assert_not(book_load_bytes(&book, data, 40, error, sizeof error)); /* truncated */
    cr_assert(strstr(error, "16-byte"), "%s", error);
    cr_assert_not(book_load_bytes(&book, data, 64, error, sizeof error));
    cr_assert(strstr(error, "entry 4 of 4") && strstr(error, "order"), "%s", error);
    put_entry(data + 32, 0x823c9b50fd114196ULL, 0x7ca2, 7); /* promotion code 7 */
    cr_assert_not(book_load_bytes(&book, data, 48, error, sizeof error));
    cr_assert(strstr(error, "entry 3") && strstr(error, "move"), "%s", error);

    /* Files: missing, a directory, random garbage, a text file. */
    cr_assert_not(book_load_file(&book, "/nonexistent/book.bin", error, sizeof error));
    cr_assert(strstr(error, "/nonexistent/book.bin"), "%s", error);
    cr_assert_not(book_load_file(&book, "/tmp", error, sizeof error));
    unsigned char garbage[1600];
    TestRng rng = { 7 };
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (unsigned char)rng_next(&rng);
    char *path = temp_file(garbage, sizeof garbage);
    cr_assert_not(book_load_file(&book, path, error, sizeof error));
    cr_assert(strstr(error, "refused") && strstr(error, "not a Polyglot book"), "%s", error);
    unlink(path);
    path = temp_file("this is not a book\n", 19);
    cr_assert_not(book_load_file(&book, path, error, sizeof error));
    unlink(path);
}

Test(book, write_and_read_back)
{
    Book built;
    BookBuildStats stats;
    BookBuildOptions o;
    book_build_defaults(&o);
    const char *pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n\n"
                      "[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n[Result \"*\"]\n\n1. d4 d5 *\n";
    char *games = temp_file(pgn, strlen(pgn));
    char games_path[64];
    snprintf(games_path, sizeof games_path, "%s", games);
    char error[256];
    o.min_games = 1;
    cr_assert(book_build(games_path, &o, &built, &stats, error, sizeof error), "%s", error);
    char bin_path[sizeof games_path + 8];
    snprintf(bin_path, sizeof bin_path, "%s.bin", games_path);
    cr_assert(book_write_file(&built, bin_path, error, sizeof error), "%s", error);
    Book read;
    cr_assert(book_load_file(&read, bin_path, error, sizeof error), "%s", error);
    cr_assert_eq(read.count, built.count);
    cr_assert_eq(memcmp(read.entries, built.entries, built.count * sizeof *built.entries), 0);
    book_free(&read);
    book_free(&built);
    unlink(bin_path);
    unlink(games_path);
}

/* The weight of `move` in the position after `moves` (0: not in the book). */
static int weight_of(const Book *book, const char *moves, const char *move)
{
    Board *b = board_from_fen(START_FEN);
    if (*moves)
        board_play(b, moves);
    BookMove found[MAX_MOVES];
    int n = book_probe(book, b, found, MAX_MOVES, NULL);
    Move m = move_parse(b, move);
    int weight = 0;
    for (int i = 0; i < n; i++)
        if (found[i].move == m)
            weight = found[i].weight;
    free(b);
    return weight;
}

Test(book, building_counts_results_and_filters)
{
    const char *pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n\n"
                      "[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n[Result \"*\"]\n\n1. d4 d5 *\n\n"
                      "[Event \"bad\"]\n\n1. e4 Ke7 *\n";
    char path[64];
    snprintf(path, sizeof path, "%s", temp_file(pgn, strlen(pgn)));
    BookBuildOptions o;
    book_build_defaults(&o);
    o.max_ply = 2;
    o.min_games = 1;
    o.results = BOOK_ALL_RESULTS;
    Book book;
    BookBuildStats s;
    char error[256];

    /* Polyglot's rule: 2 x wins + draws, a game without result as a draw. */
    cr_assert(book_build(path, &o, &book, &s, error, sizeof error), "%s", error);
    cr_assert_eq(s.games, 5);
    cr_assert_eq(s.bad_games, 1);
    cr_assert_eq(weight_of(&book, "", "e4"), 3);
    cr_assert_eq(weight_of(&book, "", "d4"), 1);
    cr_assert_eq(weight_of(&book, "e4", "e5"), 1);
    cr_assert_eq(weight_of(&book, "e4", "c5"), 2);
    cr_assert_eq(weight_of(&book, "e4 e5", "Nf3"), 0); /* beyond max_ply */
    book_free(&book);

    /* A winners' book: only the winners' and the drawn games' moves. */
    o.results = BOOK_WIN | BOOK_DRAW;
    cr_assert(book_build(path, &o, &book, &s, error, sizeof error), "%s", error);
    cr_assert_eq(weight_of(&book, "", "e4"), 3);
    cr_assert_eq(weight_of(&book, "", "d4"), 0);
    cr_assert_eq(weight_of(&book, "e4", "e5"), 1);
    book_free(&book);

    /* A minimum number of games, and weights by games. */
    o.results = BOOK_ALL_RESULTS;
    o.min_games = 2;
    o.weight_games = true;
    cr_assert(book_build(path, &o, &book, &s, error, sizeof error), "%s", error);
    cr_assert_eq(weight_of(&book, "", "e4"), 3);
    cr_assert_eq(weight_of(&book, "", "d4"), 0);
    cr_assert_eq(weight_of(&book, "e4", "e5"), 2);
    cr_assert_eq(weight_of(&book, "e4", "c5"), 0);
    cr_assert_eq(book.count, 2u);
    book_free(&book);
    unlink(path);
}

/* The built-in book is what `bachess book build data/master_games.pgn
 * --max-ply 20 --min-games 3` makes: rebuilt here, it must be identical. */
Test(book, default_book_is_built_from_the_master_games)
{
    const char *dir = getenv("BACHESS_DATA");
    char path[1024], error[256];
    snprintf(path, sizeof path, "%s/master_games.pgn", dir && *dir ? dir : "data");
    BookBuildOptions o;
    book_build_defaults(&o);
    cr_assert_eq(o.max_ply, 20);
    cr_assert_eq(o.min_games, 3);
    Book book;
    BookBuildStats s;
    cr_assert(book_build(path, &o, &book, &s, error, sizeof error), "%s", error);
    printf("master_games.pgn: %ld games (%ld unreadable), %ld positions looked at, book: %ld entries for %ld positions\n",
           s.games, s.bad_games, s.positions, s.entries, s.distinct_positions);
    cr_assert_eq(s.games, 12902);
    cr_assert_eq(s.bad_games, 0);
    Book builtin;
    book_use_default(&builtin);
    cr_assert_eq(book.count, builtin.count, "rebuild embed/book.bin (docs/book.md)");
    for (size_t i = 0; i < book.count; i++) {
        const BookEntry *x = &book.entries[i], *y = &builtin.entries[i];
        cr_assert(x->key == y->key && x->move == y->move && x->weight == y->weight,
                  "entry %zu differs: rebuild embed/book.bin", i);
    }
    book_free(&book);

    /* The start position: the two main moves lead. */
    Board *b = board_from_fen(START_FEN);
    BookMove moves[MAX_MOVES];
    int n = book_probe(&builtin, b, moves, MAX_MOVES, NULL);
    cr_assert_geq(n, 4);
    cr_assert_eq(moves[0].move, move_parse(b, "e4"));
    cr_assert_eq(moves[1].move, move_parse(b, "d4"));
    free(b);
    book_free(&builtin);
}

/* ---- a deliberately bad tiny book: collisions never give illegal moves ----- */

enum { TINY_POSITIONS = 120 };

/* Random positions of the opening, and a book that holds for each position's
 * key the moves of a different position (as a key collision would), plus
 * move codes that are never legal there. */
static char tiny_fens[TINY_POSITIONS][128];

static Book tiny_book(unsigned char **bytes, size_t *size)
{
    TestRng rng = { 99 };
    Board *positions = malloc(sizeof(Board) * 2);
    Key keys[TINY_POSITIONS];
    Board *b = &positions[0];
    for (int i = 0; i < TINY_POSITIONS; i++) {
        board_load(b, START_FEN);
        int plies = 1 + rng_below(&rng, 16);
        for (int p = 0; p < plies; p++) {
            MoveList list;
            generate_legal(b, &list);
            if (!list.count)
                break;
            board_make_move(b, list.moves[rng_below(&rng, list.count)]);
        }
        keys[i] = polyglot_key(b);
        board_get_fen(b, tiny_fens[i], sizeof tiny_fens[i]);
    }
    size_t capacity = TINY_POSITIONS * 64, n = 0;
    BookEntry *entries = malloc(capacity * sizeof *entries);
    for (int i = 0; i < TINY_POSITIONS; i++) {
        Board *other = &positions[1];
        board_load(other, tiny_fens[(i + 1) % TINY_POSITIONS]);
        MoveList list;
        generate_legal(other, &list);
        for (int k = 0; k < list.count && n < capacity - 8; k++)
            entries[n++] = (BookEntry){ keys[i], polyglot_encode_move(other, list.moves[k]), (uint16_t)(1 + k), 0 };
        static const uint16_t NEVER[] = { 0x107, 0x100, 0xF3F, 0xF00, 0x4C38, 0x031c | 0x4000 };
        for (size_t k = 0; k < sizeof NEVER / sizeof *NEVER; k++)
            entries[n++] = (BookEntry){ keys[i], NEVER[k], 50, 0 };
    }
    /* Sort by key for the file. */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && entries[j - 1].key > entries[j].key; j--) {
            BookEntry t = entries[j];
            entries[j] = entries[j - 1];
            entries[j - 1] = t;
        }
    *size = n * 16;
    *bytes = malloc(*size);
    for (size_t i = 0; i < n; i++)
        put_entry(*bytes + 16 * i, entries[i].key, entries[i].move, entries[i].weight);
    free(entries);
    free(positions);
    Book book;
    char error[256];
    cr_assert(book_load_bytes(&book, *bytes, *size, error, sizeof error), "%s", error);
    return book;
}

static void on_best(Move m, Move p, void *c)
{
    (void)p;
    *(Move *)c = m;
}

Test(book, tiny_colliding_book_never_gives_an_illegal_move)
{
    unsigned char *bytes;
    size_t size;
    Book book = tiny_book(&bytes, &size);
    uint64_t rng = 12345;
    long played = 0;
    for (int i = 0; i < TINY_POSITIONS; i++) {
        Board *b = board_from_fen(tiny_fens[i]);
        BookMove moves[MAX_MOVES];
        int rejected;
        int n = book_probe(&book, b, moves, MAX_MOVES, &rejected);
        cr_assert_geq(rejected, 1); /* the never-legal codes at least */
        for (int k = 0; k < n; k++)
            cr_assert(move_is_legal(b, moves[k].move));
        for (int trial = 0; trial < 40; trial++) {
            Move m = book_choose(moves, n, trial == 0, &rng);
            if (m != MOVE_NONE) {
                cr_assert(move_is_legal(b, m), "%s: illegal book move", tiny_fens[i]);
                played++;
            }
        }
        free(b);
    }
    cr_assert_gt(played, 0); /* some collided moves happen to be legal: they may be played */

    /* The engine with this book: every answer is a legal move. */
    char *path = temp_file(bytes, size);
    char error[256];
    cr_assert(option_set("BookFile", path, error, sizeof error), "%s", error);
    for (int i = 0; i < TINY_POSITIONS; i += 12) {
        cr_assert(engine_set_position(tiny_fens[i], NULL, 0, error, sizeof error), "%s", error);
        SearchLimits limits;
        timeman_init_limits(&limits);
        limits.move_time = 20;
        Move best = MOVE_NONE;
        engine_go(&limits, (SearchReport){ NULL, on_best, &best });
        engine_wait();
        cr_assert(move_is_legal(engine_board(), best), "%s: the engine played an illegal move", tiny_fens[i]);
    }
    unlink(path);
    free(bytes);
    book_free(&book);
}

/* ---- the engine's book ----------------------------------------------------- */

typedef struct {
    Move best;
    int depth;
    uint64_t nodes;
    int infos;
} Answer;

static void on_answer_info(const SearchInfo *info, void *context)
{
    Answer *a = context;
    a->depth = info->depth;
    a->nodes = info->nodes;
    __atomic_fetch_add(&a->infos, 1, __ATOMIC_RELEASE); /* go() waits for it */
}

static void on_answer_best(Move m, Move p, void *context)
{
    (void)p;
    ((Answer *)context)->best = m;
}

static Answer go(const char *moves, SearchLimits *limits, bool stop_at_once)
{
    char buffer[256], *list[32], error[128];
    int count = 0;
    snprintf(buffer, sizeof buffer, "%s", moves);
    for (char *save = NULL, *w = strtok_r(buffer, " ", &save); w && count < 32; w = strtok_r(NULL, " ", &save))
        list[count++] = w;
    cr_assert(engine_set_position(NULL, list, count, error, sizeof error), "%s", error);
    Answer a = { MOVE_NONE, -1, 0, 0 };
    engine_go(limits, (SearchReport){ on_answer_info, on_answer_best, &a });
    if (stop_at_once) {
        /* Stop once the engine has said something: a book move's line
         * (depth 0) or a finished iteration (depth 1 or more). A stop at a
         * fixed time could cut the first iteration, which shows no depth. */
        while (__atomic_load_n(&a.infos, __ATOMIC_ACQUIRE) == 0)
            usleep(1000);
        engine_stop();
    }
    engine_wait();
    return a;
}

static SearchLimits clock_limits(void)
{
    SearchLimits l;
    timeman_init_limits(&l);
    l.time[WHITE] = l.time[BLACK] = 60000;
    return l;
}

Test(book, engine_plays_varied_book_moves_under_a_clock)
{
    SearchLimits l = clock_limits();
    Move seen[8] = { 0 };
    int kinds = 0;
    for (int i = 0; i < 40; i++) {
        Answer a = go("", &l, false);
        cr_assert_eq(a.depth, 0, "a book move is answered without a search");
        cr_assert_eq(a.infos, 1);
        cr_assert(move_is_legal(engine_board(), a.best));
        bool known = false;
        for (int k = 0; k < kinds; k++)
            known |= seen[k] == a.best;
        if (!known && kinds < 8)
            seen[kinds++] = a.best;
    }
    cr_assert_geq(kinds, 3, "first moves should vary");
    /* Deeper in a line too, and a move time counts as a clock. */
    SearchLimits mt;
    timeman_init_limits(&mt);
    mt.move_time = 1000;
    Answer a = go("e2e4 c7c5 g1f3", &mt, false);
    cr_assert_eq(a.depth, 0);
    cr_assert(move_is_legal(engine_board(), a.best));
}

Test(book, best_move_option)
{
    char error[128];
    cr_assert(option_set("BookBestMove", "true", error, sizeof error));
    SearchLimits l = clock_limits();
    Board *b = board_from_fen(START_FEN);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(go("", &l, false).best, move_parse(b, "e4"));
    free(b);
}

Test(book, no_book_when_analysing_or_switched_off)
{
    char error[256];
    SearchLimits depth;
    timeman_init_limits(&depth);
    depth.depth = 2;
    cr_assert_geq(go("", &depth, false).depth, 1, "go depth searches");
    SearchLimits infinite;
    timeman_init_limits(&infinite);
    infinite.infinite = true;
    cr_assert_geq(go("", &infinite, true).depth, 1, "go infinite searches");
    SearchLimits ponder = clock_limits();
    ponder.ponder = true;
    cr_assert_geq(go("", &ponder, true).depth, 1, "go ponder searches");

    SearchLimits l = clock_limits();
    l.move_time = 30;
    cr_assert(option_set("UCI_AnalyseMode", "true", error, sizeof error));
    cr_assert_geq(go("", &l, false).depth, 1);
    cr_assert(option_set("UCI_AnalyseMode", "false", error, sizeof error));
    cr_assert(option_set("OwnBook", "false", error, sizeof error));
    cr_assert_geq(go("", &l, false).depth, 1);
    cr_assert(option_set("OwnBook", "true", error, sizeof error));
    cr_assert(option_set("BookDepth", "2", error, sizeof error));
    cr_assert_eq(go("e2e4", &l, false).depth, 0);
    cr_assert_geq(go("e2e4 e7e5", &l, false).depth, 1);
}

Test(book, a_bad_book_file_is_refused_and_the_engine_plays_on)
{
    char error[256];
    char *path = temp_file("garbage, not a book at all", 26);
    cr_assert_not(option_set("BookFile", path, error, sizeof error));
    cr_assert(strstr(error, "refused"), "%s", error);
    cr_assert_null(engine_book());
    SearchLimits l = clock_limits();
    l.move_time = 30;
    Answer a = go("", &l, false);
    cr_assert_geq(a.depth, 1, "no book: a search");
    cr_assert(move_is_legal(engine_board(), a.best));
    cr_assert(option_set("BookFile", "<empty>", error, sizeof error), "%s", error);
    cr_assert_not_null(engine_book());
    cr_assert_eq(go("", &l, false).depth, 0, "the built-in book again");
    unlink(path);
}
