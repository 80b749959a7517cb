/* fuzz_book.c — Polyglot book bytes through the loader, its checks and probes.
 *
 * First the input itself is loaded: a refused book must say why, an
 * accepted one must be sorted, findable by each of its keys and give only
 * legal moves on the test boards. Random bytes almost never hold the key
 * of a real position, so the input is then loaded a second time with the
 * key of every 16-byte entry replaced by the Polyglot key of one of the
 * test boards (chosen by the entry's first byte): then every move code
 * the fuzzer makes up is decoded against a real position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "games/book.h"
#include "games/polyglot.h"
#include "movegen.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { ENTRY = 16, MAX_BOOK_MOVES = 64 };

static Board *boards;
static Key *keys;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    boards = calloc((size_t)FUZZ_FEN_COUNT, sizeof *boards);
    keys = calloc((size_t)FUZZ_FEN_COUNT, sizeof *keys);
    FUZZ_CHECK(boards && keys);
    for (int i = 0; i < FUZZ_FEN_COUNT; i++) {
        char error[256];
        FUZZ_CHECK(board_set_fen(&boards[i], FUZZ_FENS[i], error, sizeof error));
        keys[i] = polyglot_key(&boards[i]);
    }
    return 0;
}

/* Probes one board: every move returned is legal and comes from an entry
 * of its key; entries that are no legal move are counted as rejected. */
static void probe(const Book *book, const Board *b, uint64_t *rng)
{
    BookMove moves[MAX_BOOK_MOVES];
    int rejected = -1;
    int n = book_probe(book, b, moves, MAX_BOOK_MOVES, &rejected);
    size_t first = 0, count = book_find(book, polyglot_key(b), &first);
    FUZZ_CHECK(n >= 0 && n <= MAX_BOOK_MOVES && (size_t)n <= count);
    FUZZ_CHECK(rejected >= 0 && (size_t)rejected <= count);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(fuzz_move_is_legal(b, moves[i].move));
        FUZZ_CHECK(polyglot_decode_move(b, moves[i].code) == moves[i].move);
        for (int k = 0; k < i; k++)
            FUZZ_CHECK(moves[k].move != moves[i].move);
    }
    Move best = book_choose(moves, n, true, rng), any = book_choose(moves, n, false, rng);
    bool weighted = false;
    for (int i = 0; i < n; i++)
        weighted |= moves[i].weight > 0;
    FUZZ_CHECK((best != MOVE_NONE) == weighted && (any != MOVE_NONE) == weighted);
    if (weighted)
        FUZZ_CHECK(fuzz_move_is_legal(b, best) && fuzz_move_is_legal(b, any));
}

static void check_book(const Book *book)
{
    FUZZ_CHECK(book->count > 0 && book->entries != NULL);
    size_t positions = book_positions(book);
    FUZZ_CHECK(positions >= 1 && positions <= book->count);
    for (size_t i = 0; i < book->count; i++) {
        if (i > 0)
            FUZZ_CHECK(book->entries[i - 1].key <= book->entries[i].key);
        size_t first = 0, count = book_find(book, book->entries[i].key, &first);
        FUZZ_CHECK(count >= 1 && first <= i && i < first + count);
        FUZZ_CHECK(first == 0 || book->entries[first - 1].key != book->entries[i].key);
    }
    uint64_t rng = 1;
    for (int i = 0; i < FUZZ_FEN_COUNT; i++)
        probe(book, &boards[i], &rng);
}

static void load(const uint8_t *data, size_t size)
{
    Book book = { 0 };
    char error[256] = "";
    if (book_load_bytes(&book, data, size, error, sizeof error)) {
        FUZZ_CHECK(book.count == size / ENTRY && book.owned);
        check_book(&book);
        book_free(&book);
        FUZZ_CHECK(book.entries == NULL && book.count == 0);
    } else
        FUZZ_CHECK(*error != '\0' && book.entries == NULL);
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = 0, y = 0;
    for (int i = 0; i < 8; i++) {
        x = x << 8 | ((const uint8_t *)a)[i];
        y = y << 8 | ((const uint8_t *)b)[i];
    }
    return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load(data, size);

    size_t count = size / ENTRY;
    if (count == 0)
        return 0;
    uint8_t *keyed = malloc(count * ENTRY);
    FUZZ_CHECK(keyed != NULL);
    memcpy(keyed, data, count * ENTRY);
    for (size_t i = 0; i < count; i++) {
        uint8_t *e = keyed + i * ENTRY;
        Key key = keys[e[0] % FUZZ_FEN_COUNT];
        for (int k = 7; k >= 0; k--, key >>= 8)
            e[k] = (uint8_t)(key & 0xFF);
    }
    qsort(keyed, count, ENTRY, by_key);
    load(keyed, count * ENTRY);
    free(keyed);
    return 0;
}
