/* test_support.c — the helpers declared in support.h (no tests of its own). */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "perft.h"

bool test_light(void)
{
    const char *light = getenv("BACHESS_TEST_LIGHT");
    return light && *light && strcmp(light, "0") != 0;
}

/* Parses one `FEN ;D1 n ;D2 n ... [;id "NAME"]` line; false if it is malformed. */
static bool parse_epd_line(char *line, EpdEntry *e)
{
    char *semi = strchr(line, ';');
    if (!semi)
        return false;
    size_t len = (size_t)(semi - line);
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= sizeof e->fen)
        return false;
    memcpy(e->fen, line, len);
    e->fen[len] = '\0';
    e->max_depth = 0;
    memset(e->nodes, 0, sizeof e->nodes);
    unsigned listed = 0;
    e->id[0] = '\0';
    for (char *field = semi; field; field = strchr(field + 1, ';')) {
        int depth;
        unsigned long long nodes;
        if (sscanf(field, ";id \"%31[^\"]\"", e->id) == 1)
            continue;
        if (sscanf(field, ";D%d %llu", &depth, &nodes) != 2 || depth < 1 || depth > EPD_MAX_DEPTH)
            return false;
        e->nodes[depth] = nodes;
        listed |= 1u << depth;
        if (depth > e->max_depth)
            e->max_depth = depth;
    }
    /* every depth from 1 to the deepest must be listed (a count may be 0: mate) */
    return e->max_depth > 0 && listed == ((2u << e->max_depth) - 2);
}

EpdEntry *epd_load(const char *name, int *count)
{
    const char *dir = getenv("BACHESS_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "data", name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s (set BACHESS_DATA to the data directory)", path);

    int capacity = 512, n = 0;
    EpdEntry *entries = malloc(sizeof *entries * (size_t)capacity);
    cr_assert_not_null(entries);
    char line[4096];
    int line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        if (n == capacity) {
            capacity *= 2;
            entries = realloc(entries, sizeof *entries * (size_t)capacity);
            cr_assert_not_null(entries);
        }
        cr_assert(parse_epd_line(line, &entries[n]), "%s:%d: malformed EPD line: %s", path, line_no, line);
        entries[n].line = line_no;
        n++;
    }
    fclose(f);
    cr_assert_gt(n, 0, "%s holds no positions", path);
    *count = n;
    return entries;
}

void board_load(Board *b, const char *fen)
{
    char error[256] = "";
    cr_assert(board_set_fen(b, fen, error, sizeof error), "FEN rejected: %s (%s)", fen, error);
}

void board_load_960(Board *b, const char *fen)
{
    char error[256] = "";
    cr_assert(board_set_fen_960(b, fen, true, error, sizeof error), "Chess960 FEN rejected: %s (%s)", fen, error);
}

Board *board_from_fen(const char *fen)
{
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    board_load(b, fen);
    return b;
}

void board_play(Board *b, const char *moves)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", moves);
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        Move m = move_parse(b, tok);
        char fen[128];
        board_get_fen(b, fen, sizeof fen);
        cr_assert_neq(m, MOVE_NONE, "move %s is not legal in %s", tok, fen);
        board_make_move(b, m);
    }
}

uint64_t rng_next(TestRng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Criterion 2.4.1's runner process now and then leaks a 48-byte block when
 * suites set a `.timeout` and tests run with --jobs; under the sanitizer
 * build LeakSanitizer would then fail the whole run although every test
 * passed. The runner only schedules tests and collects their reports: each
 * test body runs in a worker process of its own, started afresh, where leak
 * checking stays on. So leak checking is switched off for the runner's own
 * allocations, before it starts the tests. (__lsan_disable is weak: outside
 * the sanitizer build it is absent and nothing is done.) */
extern void __lsan_disable(void) __attribute__((weak));

ReportHook(PRE_ALL)(struct criterion_test_set *tests)
{
    (void)tests;
    if (__lsan_disable)
        __lsan_disable();
}

int for_each_suite_move(const char *file, SuiteMoveCheck check, void *context)
{
    int count, visited = 0;
    EpdEntry *suite = epd_load(file, &count);
    for (int i = 0; i < count; i++) {
        Board *b = board_from_fen(suite[i].fen);
        MoveList list;
        generate_legal(b, &list);
        for (int k = 0; k < list.count; k++, visited++)
            check(b, list.moves[k], suite[i].fen, context);
        free(b);
    }
    free(suite);
    return visited;
}
enum { MAX_REPORTED = 25 }; /* mismatches listed per chunk; the rest are counted */

void perft_suite_chunk(const char *file, int depth_cap, int chunk, int chunks, bool chess960)
{
    int count;
    EpdEntry *entries = epd_load(file, &count);
    Board *b = calloc(1, sizeof *b);
    cr_assert_not_null(b);
    int failures = 0, checked = 0;
    for (int i = chunk; i < count; i += chunks) {
        const EpdEntry *e = &entries[i];
        if (chess960)
            board_load_960(b, e->fen);
        else
            board_load(b, e->fen);
        int top = e->max_depth < depth_cap ? e->max_depth : depth_cap;
        for (int d = 1; d <= top; d++) {
            uint64_t got = perft(b, d);
            checked++;
            if (got != e->nodes[d]) {
                if (++failures <= MAX_REPORTED)
                    cr_log_error("%s:%d: perft %d of \"%s\": expected %llu, got %llu", file, e->line, d, e->fen,
                             (unsigned long long)e->nodes[d], (unsigned long long)got);
                break; /* deeper counts of this position would be wrong too */
            }
        }
        /* perft must leave the board as it found it */
        cr_assert_eq(b->state_index, 0, "%s:%d: perft left state_index %d", file, e->line, b->state_index);
    }
    free(b);
    free(entries);
    cr_assert_gt(checked, 0, "chunk %d of %s checked nothing", chunk, file);
    cr_assert_eq(failures, 0, "%d perft mismatches in chunk %d of %s (see the log above)", failures, chunk, file);
}

/* The FENs of an EPD or perft file (see support.h). */
char (*load_fens(const char *name, int *count))[FEN_SIZE]
{
    const char *dir = getenv("BACHESS_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "data", name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s (set BACHESS_DATA to the data directory)", path);
    int capacity = 1024, n = 0;
    char(*fens)[FEN_SIZE] = malloc(sizeof *fens * (size_t)capacity);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char placement[91], side[2], castling[5], ep[3]; /* the longest each field can be */
        if (sscanf(line, "%90s %1s %4s %2s", placement, side, castling, ep) != 4)
            continue;
        if (n == capacity)
            fens = realloc(fens, sizeof *fens * (size_t)(capacity *= 2));
        snprintf(fens[n++], FEN_SIZE, "%s %s %s %s", placement, side, castling, ep);
    }
    fclose(f);
    cr_assert_gt(n, 0, "%s holds no positions", path);
    *count = n;
    return fens;
}
