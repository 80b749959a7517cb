/* book.c — Polyglot books: loading with checks, probing, building, writing. */
#include "games/book.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "games/pgn.h"
#include "games/polyglot.h"
#include "movegen.h"

enum { ENTRY_SIZE = 16 };

/* The built-in bytes are checked like a file's (a test keeps them whole):
 * should they ever fail, the engine plays without a book. */
void book_use_default(Book *book)
{
    size_t size;
    const unsigned char *bytes = book_default_bytes(&size);
    char error[200];
    if (!book_load_bytes(book, bytes, size, error, sizeof error))
        *book = (Book){ 0 };
}

void book_free(Book *book)
{
    if (book->owned)
        free(book->entries);
    *book = (Book){ 0 };
}

/* ---- reading and writing files --------------------------------------------- */

static uint64_t read_big_endian(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | p[i];
    return v;
}

static void write_big_endian(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)(v & 0xFF);
}

/* A move code names real squares, a promotion piece of 0..4 and no unused
 * bit; code 0 (a1a1) is allowed: Polyglot says to ignore it. */
static bool code_is_sane(uint16_t code)
{
    if (code == 0)
        return true;
    int promotion = (code >> 12) & 7;
    return !(code & 0x8000) && promotion <= 4 && (code & 63) != ((code >> 6) & 63);
}

bool book_load_bytes(Book *book, const unsigned char *data, size_t size, char *error, size_t error_size)
{
    if (size == 0) {
        snprintf(error, error_size, "the file is empty");
        return false;
    }
    if (size % ENTRY_SIZE != 0) {
        snprintf(error, error_size, "its size, %zu bytes, is not a whole number of 16-byte entries "
                 "(truncated, or not a Polyglot book)", size);
        return false;
    }
    size_t count = size / ENTRY_SIZE;
    BookEntry *entries = malloc(count * sizeof *entries);
    if (!entries) {
        snprintf(error, error_size, "out of memory for %zu entries", count);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = data + i * ENTRY_SIZE;
        BookEntry *e = &entries[i];
        e->key = read_big_endian(p, 8);
        e->move = (uint16_t)read_big_endian(p + 8, 2);
        e->weight = (uint16_t)read_big_endian(p + 10, 2);
        e->learn = (uint32_t)read_big_endian(p + 12, 4);
        const char *fault = NULL;
        if (i > 0 && e->key < entries[i - 1].key)
            fault = "is out of order (keys must ascend)";
        else if (!code_is_sane(e->move))
            fault = "holds an impossible move code";
        if (fault) {
            snprintf(error, error_size, "entry %zu of %zu %s: not a Polyglot book, or a damaged one", i + 1, count, fault);
            free(entries);
            return false;
        }
    }
    book->entries = entries;
    book->count = count;
    book->owned = true;
    return true;
}

bool book_load_file(Book *book, const char *path, char *error, size_t error_size)
{
    char why[160];
    FILE *in = fopen(path, "rb");
    struct stat st;
    if (!in || fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "book '%.200s': %s", path, in ? "not a regular file" : strerror(errno));
        if (in)
            fclose(in);
        return false;
    }
    size_t size = (size_t)st.st_size;
    unsigned char *data = malloc(size ? size : 1);
    bool ok = data && fread(data, 1, size, in) == size;
    fclose(in);
    if (!ok) {
        snprintf(error, error_size, "book '%.200s': %s", path, data ? "cannot read it" : "out of memory");
        free(data);
        return false;
    }
    ok = book_load_bytes(book, data, size, why, sizeof why);
    free(data);
    if (!ok)
        snprintf(error, error_size, "book '%.200s' refused: %s", path, why);
    return ok;
}

bool book_write_file(const Book *book, const char *path, char *error, size_t error_size)
{
    FILE *out = fopen(path, "wb");
    if (!out) {
        snprintf(error, error_size, "cannot write '%.200s': %s", path, strerror(errno));
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < book->count && ok; i++) {
        unsigned char p[ENTRY_SIZE];
        const BookEntry *e = &book->entries[i];
        write_big_endian(p, e->key, 8);
        write_big_endian(p + 8, e->move, 2);
        write_big_endian(p + 10, e->weight, 2);
        write_big_endian(p + 12, e->learn, 4);
        ok = fwrite(p, 1, sizeof p, out) == sizeof p;
    }
    ok = fclose(out) == 0 && ok;
    if (!ok)
        snprintf(error, error_size, "cannot write '%.200s'", path);
    return ok;
}

/* ---- probing --------------------------------------------------------------- */

size_t book_find(const Book *book, Key key, size_t *first)
{
    size_t lo = 0, hi = book->count; /* the first entry with a key >= key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (book->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    size_t end = lo;
    while (end < book->count && book->entries[end].key == key)
        end++;
    return end - lo;
}

size_t book_positions(const Book *book)
{
    size_t n = 0;
    for (size_t i = 0; i < book->count; i++)
        n += i == 0 || book->entries[i].key != book->entries[i - 1].key;
    return n;
}

int book_probe(const Book *book, const Board *b, BookMove *out, int max, int *rejected)
{
    return book_probe_key(book, polyglot_key(b), b, out, max, rejected);
}

int book_probe_key(const Book *book, Key key, const Board *b, BookMove *out, int max, int *rejected)
{
    size_t first = 0, count = book ? book_find(book, key, &first) : 0;
    int n = 0, bad = 0;
    for (size_t i = 0; i < count; i++) {
        const BookEntry *e = &book->entries[first + i];
        Move m = polyglot_decode_move(b, e->move);
        if (m == MOVE_NONE) {
            bad += e->move != 0;
            continue;
        }
        bool seen = false; /* the same move written twice (e1h1 and e1g1) */
        for (int k = 0; k < n && !seen; k++)
            seen = out[k].move == m;
        if (!seen && n < max)
            out[n++] = (BookMove){ m, e->move, e->weight };
    }
    if (rejected)
        *rejected = bad;
    return n;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ULL;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

Move book_choose(const BookMove *moves, int count, bool best, uint64_t *rng)
{
    uint64_t total = 0;
    int heaviest = -1;
    for (int i = 0; i < count; i++) {
        total += moves[i].weight;
        if (moves[i].weight > 0 && (heaviest < 0 || moves[i].weight > moves[heaviest].weight))
            heaviest = i;
    }
    if (total == 0)
        return MOVE_NONE;
    if (best)
        return moves[heaviest].move;
    uint64_t pick = next_random(rng) % total;
    for (int i = 0; i < count; i++) {
        if (pick < moves[i].weight)
            return moves[i].move;
        pick -= moves[i].weight;
    }
    return moves[heaviest].move;
}

/* ---- building -------------------------------------------------------------- */

typedef struct {
    Key key;
    uint16_t code;
    uint32_t games, wins, draws, losses, unknown;
} Tally;

typedef struct {
    Tally *tallies;
    size_t count, capacity; /* tallies */
    int32_t *slots;         /* open addressing: index into tallies, -1 empty */
    size_t slot_mask;
} TallyTable;

static size_t slot_of(Key key, uint16_t code) { return (size_t)((key ^ (code * 0x9E3779B97F4A7C15ULL)) >> 7); }

static bool table_grow(TallyTable *t)
{
    size_t capacity = t->capacity ? t->capacity * 2 : 1 << 14;
    Tally *tallies = realloc(t->tallies, capacity * sizeof *tallies);
    int32_t *slots = malloc(capacity * 2 * sizeof *slots);
    if (!tallies || !slots || capacity * 2 > INT32_MAX) {
        if (tallies)
            t->tallies = tallies;
        free(slots);
        return false;
    }
    t->tallies = tallies;
    t->capacity = capacity;
    free(t->slots);
    t->slots = slots;
    t->slot_mask = capacity * 2 - 1;
    memset(slots, 0xFF, capacity * 2 * sizeof *slots);
    for (size_t i = 0; i < t->count; i++) {
        size_t s = slot_of(tallies[i].key, tallies[i].code) & t->slot_mask;
        while (slots[s] >= 0)
            s = (s + 1) & t->slot_mask;
        slots[s] = (int32_t)i;
    }
    return true;
}

static Tally *table_find(TallyTable *t, Key key, uint16_t code)
{
    if (t->count == t->capacity && !table_grow(t))
        return NULL;
    size_t s = slot_of(key, code) & t->slot_mask;
    for (; t->slots[s] >= 0; s = (s + 1) & t->slot_mask) {
        Tally *x = &t->tallies[t->slots[s]];
        if (x->key == key && x->code == code)
            return x;
    }
    t->slots[s] = (int32_t)t->count;
    Tally *x = &t->tallies[t->count++];
    *x = (Tally){ .key = key, .code = code };
    return x;
}

void book_build_defaults(BookBuildOptions *options)
{
    *options = (BookBuildOptions){ .max_ply = 20, .min_games = 3, .results = BOOK_WIN | BOOK_DRAW };
}

/* The result of a game for the side to move: one of BOOK_WIN ... BOOK_UNKNOWN. */
static unsigned outcome_for(const char *result, Color side)
{
    if (strcmp(result, "1-0") == 0)
        return side == WHITE ? BOOK_WIN : BOOK_LOSS;
    if (strcmp(result, "0-1") == 0)
        return side == BLACK ? BOOK_WIN : BOOK_LOSS;
    return strcmp(result, "1/2-1/2") == 0 ? BOOK_DRAW : BOOK_UNKNOWN;
}

static void add_game(TallyTable *t, const PgnGame *g, Board *b, const BookBuildOptions *o, BookBuildStats *stats,
                     bool *ok)
{
    char why[128];
    if (!board_set_fen(b, g->fen, why, sizeof why))
        return;
    Key key;
    if (!polyglot_key_of_fen(g->fen, &key, why, sizeof why))
        return;
    bool counted = false;
    for (int ply = 0; ply < g->move_count && ply < o->max_ply; ply++) {
        Move m = g->moves[ply];
        unsigned outcome = outcome_for(g->result, b->side);
        stats->positions++;
        if (outcome & o->results) {
            Tally *x = table_find(t, key, polyglot_encode_move(b, m));
            if (!x) {
                *ok = false;
                return;
            }
            x->games++;
            x->wins += outcome == BOOK_WIN;
            x->draws += outcome == BOOK_DRAW;
            x->losses += outcome == BOOK_LOSS;
            x->unknown += outcome == BOOK_UNKNOWN;
            counted = true;
        }
        board_make_move(b, m);
        key = polyglot_key(b);
    }
    stats->used_games += counted;
}

/* An entry being made: its full weight before scaling to 16 bits, and the
 * order in which its (position, move) was first met. */
typedef struct {
    Key key;
    uint16_t code;
    uint64_t weight;
    size_t first_seen;
} Candidate;

/* By key; within a key the heaviest first, then in the order first met
 * (as Polyglot's own book maker orders them). */
static int candidate_order(const void *a, const void *b)
{
    const Candidate *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return x->first_seen < y->first_seen ? -1 : x->first_seen > y->first_seen;
}

/* Weights by the Polyglot rule (a game of unknown result counts as a draw,
 * as Polyglot counts it); the moves of a position whose weights would
 * overflow 16 bits are scaled down together. */
static bool make_entries(const TallyTable *t, const BookBuildOptions *o, Book *book)
{
    Candidate *c = malloc((t->count ? t->count : 1) * sizeof *c);
    BookEntry *out = malloc((t->count ? t->count : 1) * sizeof *out);
    if (!c || !out) {
        free(c);
        free(out);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++) {
        const Tally *x = &t->tallies[i];
        uint64_t weight = o->weight_games ? x->games : 2ULL * x->wins + x->draws + x->unknown;
        if (x->games >= (uint32_t)o->min_games && weight > 0)
            c[n++] = (Candidate){ x->key, x->code, weight, i };
    }
    qsort(c, n, sizeof *c, candidate_order);
    for (size_t i = 0; i < n;) {
        size_t end = i;
        uint64_t heaviest = c[i].weight; /* the first of its key */
        while (end < n && c[end].key == c[i].key)
            end++;
        for (size_t k = i; k < end; k++) {
            uint64_t w = c[k].weight;
            if (heaviest > 65535)
                w = w * 65535 / heaviest > 0 ? w * 65535 / heaviest : 1;
            out[k] = (BookEntry){ c[k].key, c[k].code, (uint16_t)w, 0 };
        }
        i = end;
    }
    free(c);
    *book = (Book){ out, n, true };
    return true;
}

static void report_progress(FILE *f, const PgnReader *r, long games, bool done)
{
    if (!f)
        return;
    long long size = pgn_file_size(r);
    int percent = size > 0 ? (int)(pgn_bytes_read(r) * 100 / size) : 0;
    if (isatty(fileno(f)))
        fprintf(f, "\r  %ld games read (%d%%)%s", games, percent, done ? "\n" : "");
    else if (!done)
        fprintf(f, "  %ld games read (%d%%)\n", games, percent);
    fflush(f);
}

bool book_build(const char *pgn_path, const BookBuildOptions *o, Book *book, BookBuildStats *stats,
                char *error, size_t error_size)
{
    *stats = (BookBuildStats){ 0 };
    *book = (Book){ 0 };
    PgnReader *r = pgn_open(pgn_path, error, error_size);
    if (!r)
        return false;
    pgn_set_move_limit(r, o->max_ply);
    TallyTable table = { 0 };
    Board *b = malloc(sizeof *b);
    bool ok = b != NULL;
    const PgnGame *g;
    PgnError bad;
    PgnStatus status;
    while (ok && (status = pgn_next(r, &g, &bad)) != PGN_END) {
        stats->games++;
        if (status == PGN_BAD_GAME) {
            stats->bad_games++;
            if (o->progress)
                fprintf(o->progress, "%s%s: game %d, line %d: %s (game skipped)\n",
                        isatty(fileno(o->progress)) ? "\r" : "", pgn_path, bad.game, bad.line, bad.message);
            continue;
        }
        stats->truncated_games += g->truncated;
        add_game(&table, g, b, o, stats, &ok);
        if (stats->games % 2000 == 0)
            report_progress(o->progress, r, stats->games, false);
    }
    report_progress(o->progress, r, stats->games, true);
    pgn_close(r);
    free(b);
    stats->candidates = (long)table.count;
    if (!ok || !make_entries(&table, o, book)) {
        snprintf(error, error_size, "out of memory");
        ok = false;
    } else {
        stats->entries = (long)book->count;
        stats->distinct_positions = (long)book_positions(book);
    }
    free(table.tallies);
    free(table.slots);
    return ok;
}
