/* test_nnue_king_buckets.c — king input buckets (network file version 4):
 * the file's map is read and checked, each perspective reads the input
 * weights of its own king's bucket, one bucket is version 3, and the
 * accumulators follow kings across buckets and the mirroring line, move by
 * move (vector and portable code) and through the evaluator's push/pop;
 * a refresh through the cache of each view's last accumulator equals one
 * from scratch, and the evaluator forgets that cache with its network.
 * The networks have random weights (nnue_support.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evaluator.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "nnue/accumulator_cache.h"
#include "nnue/network.h"
#include "notation.h"
#include "nnue_support.h"
#include "support.h"

static void setup(void) { board_init(); }
TestSuite(nnue_king_buckets, .init = setup, .timeout = 120);

static TestNetSpec bucketed(const uint8_t *map, int king_buckets, bool king_mirroring)
{
    return (TestNetSpec){ .hidden = TEST_HIDDEN, .activation = ACTIVATION_SCRELU, .output_buckets = 2,
                          .king_mirroring = king_mirroring, .king_buckets = king_buckets, .king_map = map, .seed = 42 };
}

/* The nets these tests run on: HOME4 with mirroring, SIDES7 without; with
 * another seed, the same net with other weights (whose sums a cache must
 * not take for the first one's). */
static Network load_bucketed_seeded(int which, uint64_t seed)
{
    TestNetSpec spec = which == 0 ? bucketed(TEST_KING_MAP_HOME4, 4, true) : bucketed(TEST_KING_MAP_SIDES7, 7, false);
    spec.seed = seed;
    return test_net_load(&spec);
}

static Network load_bucketed(int which) { return load_bucketed_seeded(which, 42); }

/* ---- the file -------------------------------------------------------------- */

Test(nnue_king_buckets, a_version_4_file_loads_with_its_map)
{
    Network net = load_bucketed(1);
    cr_assert_eq(net.king_buckets, 7);
    cr_assert_not(net.king_mirroring);
    cr_assert_eq(net.output_buckets, 2);
    cr_assert(memcmp(net.king_bucket_map, TEST_KING_MAP_SIDES7, 64) == 0);
    /* The kings at home: e1 and e8 are both e1 to their own side. */
    cr_assert_eq(nnue_view(&net, WHITE, E1).king_bucket, 1);
    cr_assert_eq(nnue_view(&net, BLACK, E8).king_bucket, 1);
    cr_assert_eq(nnue_view(&net, BLACK, D7).king_bucket, 2);
    cr_assert_eq(nnue_view(&net, WHITE, D7).king_bucket, 6);
    network_free(&net);

    net = load_bucketed(0);
    cr_assert_eq(net.king_buckets, 4);
    cr_assert(net.king_mirroring);
    NnueView g1 = nnue_view(&net, WHITE, G1), e1 = nnue_view(&net, WHITE, E1), d1 = nnue_view(&net, WHITE, D1);
    cr_assert(g1.mirrored && g1.king_bucket == 0);
    cr_assert(e1.mirrored && e1.king_bucket == 1);
    cr_assert(!d1.mirrored && d1.king_bucket == 1);
    cr_assert_not(nnue_same_view(e1, d1), "a king across the mirroring line changes the view");
    network_free(&net);
}

/* A map whose every bucket is used, and the same file with one change:
 * each change must be refused with a message that says what is wrong. */
Test(nnue_king_buckets, bad_maps_and_bucket_counts_are_refused_with_a_reason)
{
    TestNetSpec spec = bucketed(TEST_KING_MAP_SIDES7, 7, false);
    size_t size;
    unsigned char *good = test_net_file(&spec, &size), *bad = malloc(size + 64);
    cr_assert_not_null(bad);
    const size_t map = NNUE_HEADER_SIZE, count = NNUE_HEADER_SIZE_V3;
    struct {
        const char *what, *expect;
    } cases[] = {
        { "an entry of 7 with 7 buckets", "square 5 has bucket 7" },
        { "an entry of 255", "square 63 has bucket 255" },
        { "bucket 6 on no square", "bucket 6 is on no square" },
        { "0 king buckets", "0 king buckets" },
        { "33 king buckets", "33 king buckets" },
        { "8 buckets in the header, 7 in the weights", "bytes of weights" },
        { "the map one byte short", "bytes of weights" },
        { "a map entry changed, the checksum not", "checksum" },
        { "the version-4 header cut", "header is truncated" },
        { "a mirroring net's bucket on files e-h only", "bucket 1 is on no square the net reads (files a-d" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        memcpy(bad, good, size);
        size_t n = size;
        bool fix_checksum = true;
        switch (k) {
        case 0: bad[map + 5] = 7; break;
        case 1: bad[map + 63] = 255; break;
        case 2: memset(bad + map + 32, 5, 32); break; /* ranks 5-8: bucket 6 nowhere */
        case 3: bad[count] = 0; break;
        case 4: bad[count] = 33; break;
        case 5: bad[count] = 8; break;
        case 6: memmove(bad + map, bad + map + 1, --n - map); break;
        case 7: bad[map + 40] = 5, fix_checksum = false; break;
        case 8: n = NNUE_HEADER_SIZE - 2; break;
        case 9: /* SIDES7 read by a mirroring net: bucket 1 (e1-h1) is never read */
            bad[NNUE_HEADER_SIZE_V2] = 1;
            break;
        }
        if (fix_checksum && n > NNUE_HEADER_SIZE)
            test_net_fix_checksum(bad, n);
        Network net = { 0 };
        char error[256] = "";
        cr_expect_not(network_load_bytes(&net, bad, n, error, sizeof error), "%s accepted", cases[k].what);
        cr_expect(strstr(error, cases[k].expect), "%s: message '%s' does not say '%s'", cases[k].what, error,
                  cases[k].expect);
        cr_expect_eq(net.hidden, 0, "%s: the network was changed", cases[k].what);
    }
    /* The good file loads, and so does 32 buckets, the most. */
    Network net = { 0 };
    char error[256];
    cr_assert(network_load_bytes(&net, good, size, error, sizeof error), "%s", error);
    network_free(&net);
    uint8_t widest[64];
    for (int s = 0; s < 64; s++)
        widest[s] = (uint8_t)(s % 32);
    net = test_net_load(&(TestNetSpec){ .hidden = 16, .activation = ACTIVATION_CRELU, .output_buckets = 1,
                                        .king_buckets = 32, .king_map = widest, .seed = 3 });
    cr_assert_eq(net.king_buckets, 32);
    network_free(&net);
    free(bad);
    free(good);
}

/* ---- what a perspective reads ------------------------------------------------ */

/* Version 3 is version 4 with one king bucket: the same weights give the
 * same accumulators and evaluations, with mirroring and without. */
Test(nnue_king_buckets, one_king_bucket_evaluates_as_version_3)
{
    static const uint8_t one[64] = { 0 };
    Accumulator *a = calloc(2, sizeof *a);
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int mirroring = 0; mirroring <= 1; mirroring++) {
        TestNetSpec v4 = bucketed(one, 1, mirroring), v3 = bucketed(NULL, 0, mirroring);
        Network four = test_net_load(&v4), three = test_net_load(&v3);
        cr_assert_eq(four.king_buckets, 1);
        cr_assert_eq(three.king_buckets, 1);
        for (int i = 0; i < count; i++) {
            Board *b = board_from_fen(suite[i].fen);
            accumulator_refresh(&a[0], &four, b);
            accumulator_refresh(&a[1], &three, b);
            cr_assert(memcmp(a[0].values, a[1].values, sizeof a[0].values) == 0, "%s", suite[i].fen);
            cr_assert_eq(evaluator_nnue(&four, b), evaluator_nnue(&three, b), "%s", suite[i].fen);
            free(b);
        }
        network_free(&four);
        network_free(&three);
    }
    free(suite);
    free(a);
}

/* Each perspective's accumulator is what a one-bucket net made of its own
 * king's bucket's weights gives that perspective: the map is read at the
 * right square (Black's flipped, a mirroring net's mirrored) and the
 * weights at the right block. Every bucket is met in the perft suite. */
Test(nnue_king_buckets, each_perspective_reads_its_own_kings_bucket)
{
    Accumulator *a = calloc(2, sizeof *a);
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int which = 0; which < 2; which++) {
        Network net = load_bucketed(which);
        bool met[NNUE_MAX_KING_BUCKETS] = { false };
        for (int i = 0; i < count; i++) {
            Board *b = board_from_fen(suite[i].fen);
            accumulator_refresh(&a[0], &net, b);
            for (Color c = WHITE; c <= BLACK; c++) {
                NnueView want = test_expected_view(&net, c, board_king(b, c));
                cr_assert(nnue_same_view(a[0].view[c], want), "perspective %d of %s", c, suite[i].fen);
                Network one = net;
                one.king_buckets = 1;
                memset(one.king_bucket_map, 0, sizeof one.king_bucket_map);
                one.input_weights = net.input_weights + (size_t)want.king_bucket * NNUE_INPUTS * (size_t)net.hidden;
                accumulator_refresh_portable(&a[1], &one, b);
                cr_assert(memcmp(a[0].values[c], a[1].values[c], sizeof(int16_t) * (size_t)net.hidden) == 0,
                          "perspective %d of %s: not bucket %d's weights", c, suite[i].fen, want.king_bucket);
                met[want.king_bucket] = true;
            }
            free(b);
        }
        for (int k = 0; k < net.king_buckets; k++)
            cr_assert(met[k], "net %d: no perspective of the suite in king bucket %d", which, k);
        network_free(&net);
    }
    free(suite);
    free(a);
}

/* ---- move by move ----------------------------------------------------------- */

/* Two accumulator chains along a line of moves, each ply from the one
 * below: the vector code's and the portable code's. */
typedef struct {
    Network *net;
    Accumulator vector[2], portable[2], fresh;
    int view_changes, plies;
} KingWalk;

static bool same_perspective(const Accumulator *a, const Accumulator *b, Color c, int hidden)
{
    return nnue_same_view(a->view[c], b->view[c])
        && memcmp(a->values[c], b->values[c], sizeof(int16_t) * (size_t)hidden) == 0;
}

/* One ply: the move's changes recorded, the move made, each perspective
 * updated where its view stays and computed afresh where it changes. */
static void walk_one_move(KingWalk *w, Board *b, Move m, const char *text)
{
    Accumulator *vector = &w->vector[1], *portable = &w->portable[1];
    NnueView before[COLOR_NB];
    for (Color c = WHITE; c <= BLACK; c++)
        before[c] = test_expected_view(w->net, c, board_king(b, c));
    vector->change_count = board_move_changes(b, m, vector->changes);
    portable->change_count = vector->change_count;
    memcpy(portable->changes, vector->changes, sizeof vector->changes);
    board_make_move(b, m);
    accumulator_refresh_portable(&w->fresh, w->net, b);
    for (Color c = WHITE; c <= BLACK; c++) {
        bool view_stays = nnue_same_view(before[c], test_expected_view(w->net, c, board_king(b, c)));
        cr_assert_eq(accumulator_can_update(vector, w->net, c), view_stays, "%s: perspective %d", text, c);
        w->view_changes += !view_stays;
        if (view_stays) {
            accumulator_update_perspective(vector, &w->vector[0], w->net, c);
            accumulator_update_perspective_portable(portable, &w->portable[0], w->net, c);
        } else {
            accumulator_refresh_perspective(vector, w->net, b, c);
            portable->view[c] = w->fresh.view[c];
            memcpy(portable->values[c], w->fresh.values[c], sizeof portable->values[c]);
        }
        cr_assert(same_perspective(vector, &w->fresh, c, w->net->hidden), "%s: vector, perspective %d", text, c);
        cr_assert(same_perspective(portable, &w->fresh, c, w->net->hidden), "%s: portable, perspective %d", text, c);
    }
    w->vector[0] = *vector;
    w->portable[0] = *portable;
    w->plies++;
}

static void walk(KingWalk *w, const char *fen, const char *moves)
{
    Board *b = board_from_fen(fen);
    accumulator_refresh(&w->vector[0], w->net, b);
    accumulator_refresh_portable(&w->portable[0], w->net, b);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", moves);
    char *save = NULL;
    for (char *text = strtok_r(copy, " ", &save); text; text = strtok_r(NULL, " ", &save)) {
        Move m = move_parse(b, text);
        cr_assert_neq(m, MOVE_NONE, "%s is not legal", text);
        walk_one_move(w, b, m, text);
    }
    free(b);
}

/* Kings castle to either wing and walk across the board, back ranks,
 * the d/e line and the middle, among knight moves and captures. */
Test(nnue_king_buckets, kings_walking_across_buckets_update_as_a_refresh)
{
    static const struct {
        const char *fen, *moves;
    } walks[] = {
        { "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1",
          "e1c1 e8g8 c1b1 g8h8 b1c2 h8g8 c2d3 g8h8 d3e3 h8g8 e3f4 g8h8 f4g5" },
        { "1n2k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1",
          "e1d1 e8d8 d1c2 d8c7 c2c3 c7c6 c3d3 c6d6 d3e3 d6e6 e3f2 e6f7 f2g1 f7g8 g1h1 g8h8 "
          "b1c3 b8c6 h1g2 h8g7 c3d5 c6d4 d5b6 a7b6 g2h3 g7h6" },
    };
    for (int which = 0; which < 2; which++) {
        Network net = load_bucketed(which);
        KingWalk *w = calloc(1, sizeof *w);
        w->net = &net;
        for (size_t k = 0; k < sizeof walks / sizeof *walks; k++)
            walk(w, walks[k].fen, walks[k].moves);
        cr_log_info("net %d: %d plies, %d views changed", which, w->plies, w->view_changes);
        cr_assert_eq(w->plies, 39);
        cr_assert_gt(w->view_changes, 10);
        free(w);
        network_free(&net);
    }
}

/* Random playouts from a position where the kings roam (nnue_support.h),
 * through the caller's evaluator state. Returns how many times a move
 * changed a perspective's view. */
static int follow_roaming_kings(EvalState *e, const Network *net, const char *fen, uint64_t seed)
{
    TestPlayouts playouts = { .fen = fen, .seed = seed, .games = 10, .plies = 50, .null_moves = false };
    return test_follow_playouts(e, net, &playouts);
}

static const char *ROAMING_KINGS[] = {
    "8/2k5/3p4/8/8/4P3/2K5/8 w - - 0 1",
    "r3k2r/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K2R w KQkq - 0 1",
};

Test(nnue_king_buckets, the_evaluator_follows_kings_through_their_buckets)
{
    for (int which = 0; which < 2; which++) {
        Network net = load_bucketed(which);
        EvalState *e = calloc(1, sizeof *e);
        int changes = 0;
        for (int i = 0; i < 2; i++)
            changes += follow_roaming_kings(e, &net, ROAMING_KINGS[i], 7 + (uint64_t)i);
        cr_log_info("net %d: %d views changed", which, changes);
        cr_assert_gt(changes, 50);
        free(e);
        network_free(&net);
    }
}

/* ---- the refresh cache ------------------------------------------------------ */

/* One cache filled by the vector code and one by the portable code, each
 * asked for both perspectives of every position of a line of play. */
typedef struct {
    const Network *net;
    AccumulatorCache vector_cache, portable_cache;
    Accumulator vector, portable, fresh;
    bool met[COLOR_NB][NNUE_MIRROR_SIDES][NNUE_MAX_KING_BUCKETS]; /* the views refreshed */
    int refreshes;
} CacheCheck;

/* The entry of the view refreshed holds the refreshed values and b's
 * pieces: the next refresh in that view starts from this board. */
static bool entry_stands_for(const AccumulatorCache *cache, const Accumulator *a, Color c, const Board *b, int hidden)
{
    const AccumulatorCacheEntry *entry = &cache->entries[c][a->view[c].mirrored][a->view[c].king_bucket];
    return memcmp(entry->values, a->values[c], sizeof(int16_t) * (size_t)hidden) == 0
        && memcmp(entry->by_type, b->by_type, sizeof entry->by_type) == 0
        && memcmp(entry->by_color, b->by_color, sizeof entry->by_color) == 0;
}

/* Both perspectives of b through each cache, against a refresh from scratch. */
static void check_cached_refresh(CacheCheck *check, const Board *b, const char *where)
{
    int hidden = check->net->hidden;
    accumulator_refresh_portable(&check->fresh, check->net, b);
    for (Color c = WHITE; c <= BLACK; c++) {
        accumulator_cache_refresh(&check->vector_cache, &check->vector, check->net, b, c);
        accumulator_cache_refresh_portable(&check->portable_cache, &check->portable, check->net, b, c);
        cr_assert(same_perspective(&check->vector, &check->fresh, c, hidden), "%s: vector code, perspective %d",
                  where, c);
        cr_assert(same_perspective(&check->portable, &check->fresh, c, hidden), "%s: portable code, perspective %d",
                  where, c);
        cr_assert(entry_stands_for(&check->vector_cache, &check->vector, c, b, hidden),
                  "%s: vector code's entry, perspective %d", where, c);
        cr_assert(entry_stands_for(&check->portable_cache, &check->portable, c, b, hidden),
                  "%s: portable code's entry, perspective %d", where, c);
        check->met[c][check->fresh.view[c].mirrored][check->fresh.view[c].king_bucket] = true;
        check->refreshes++;
    }
}

/* Random games of up to 300 plies from `fen`, every position checked:
 * the cache's entries meet boards that differ from theirs by a move, and
 * by many moves when a king comes back to a view it left long before
 * (captures, promotions, castling and pieces of every kind in between). */
static void random_games_through_the_cache(CacheCheck *check, const char *fen, TestRng *rng, int games)
{
    Board *b = board_from_fen(fen);
    char where[160];
    for (int game = 0; game < games; game++) {
        board_load(b, fen);
        check_cached_refresh(check, b, fen);
        for (int ply = 0; ply < 300; ply++) {
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            board_make_move(b, list.moves[rng_below(rng, list.count)]);
            snprintf(where, sizeof where, "%s: game %d ply %d", fen, game, ply);
            check_cached_refresh(check, b, where);
        }
    }
    free(b);
}

static int views_met(const CacheCheck *check)
{
    int met = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int mirrored = 0; mirrored < NNUE_MIRROR_SIDES; mirrored++)
            for (int k = 0; k < NNUE_MAX_KING_BUCKETS; k++)
                met += check->met[c][mirrored][k];
    return met;
}

/* Each net in turn through the same two caches, cleared between the nets
 * as the evaluator clears them: each net's second seed gives it the same
 * shape and other weights, so that a cache that kept the first seed's sums
 * would give wrong values at once. The last net is as wide as a cache
 * entry (NNUE_MAX_HIDDEN). */
Test(nnue_king_buckets, a_refresh_through_the_cache_equals_one_from_scratch)
{
    static const char *fens[] = {
        START_FEN,
        "r3k2r/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K2R w KQkq - 0 1",
        "8/2k5/3p4/8/8/4P3/2K5/8 w - - 0 1",
        "r3k2r/1P3ppp/8/3q4/3Q4/8/1p3PPP/R3K2R w KQkq - 0 1",
    };
    TestNetSpec specs[] = {
        bucketed(TEST_KING_MAP_HOME4, 4, true), bucketed(TEST_KING_MAP_HOME4, 4, true),
        bucketed(TEST_KING_MAP_SIDES7, 7, false), bucketed(TEST_KING_MAP_SIDES7, 7, false),
        bucketed(TEST_KING_MAP_HOME4, 4, true),
    };
    specs[1].seed = specs[3].seed = 43;
    specs[4].hidden = NNUE_MAX_HIDDEN;
    CacheCheck *check = calloc(1, sizeof *check);
    TestRng rng = { 2024 };
    for (size_t n = 0; n < sizeof specs / sizeof *specs; n++) {
        Network net = test_net_load(&specs[n]);
        accumulator_cache_clear(&check->vector_cache);
        accumulator_cache_clear(&check->portable_cache);
        check->net = &net;
        memset(check->met, 0, sizeof check->met);
        check->refreshes = 0;
        for (size_t i = 0; i < sizeof fens / sizeof *fens; i++)
            random_games_through_the_cache(check, fens[i], &rng, 4);
        cr_log_info("net %zu: %d refreshes, %d views", n, check->refreshes, views_met(check));
        /* Every view either side can take: 8 with HOME4 and mirroring, 7 with SIDES7. */
        cr_assert_eq(views_met(check), 2 * (net.king_mirroring ? 8 : 7), "net %zu", n);
        network_free(&net);
    }
    free(check);
}

/* A refresh starts from its view's entry and adds only what changed: an
 * entry whose values were all raised by one gives, after a move that
 * keeps the view, a fresh refresh raised by one, by the vector code and by
 * the portable code. One computed from scratch would not carry the mark. */
Test(nnue_king_buckets, a_refresh_starts_from_its_views_entry)
{
    Network net = load_bucketed(0);
    AccumulatorCache *cache = calloc(1, sizeof *cache);
    Accumulator *a = calloc(2, sizeof *a);
    for (int portable = 0; portable <= 1; portable++) {
        void (*refresh)(AccumulatorCache *, Accumulator *, const Network *, const Board *, Color) =
            portable ? accumulator_cache_refresh_portable : accumulator_cache_refresh;
        Board *b = board_from_fen("r3k2r/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K2R w KQkq - 0 1");
        accumulator_cache_clear(cache);
        for (Color c = WHITE; c <= BLACK; c++) {
            refresh(cache, &a[0], &net, b, c);
            AccumulatorCacheEntry *entry = &cache->entries[c][a[0].view[c].mirrored][a[0].view[c].king_bucket];
            for (int i = 0; i < net.hidden; i++)
                entry->values[i] = (int16_t)(entry->values[i] + 1);
        }
        board_play(b, "c3d5 c6d4");
        accumulator_refresh_portable(&a[1], &net, b);
        for (Color c = WHITE; c <= BLACK; c++) {
            refresh(cache, &a[0], &net, b, c);
            for (int i = 0; i < net.hidden; i++)
                cr_assert_eq(a[0].values[c][i], (int16_t)(a[1].values[c][i] + 1), "%s code, perspective %d, value %d",
                             portable ? "portable" : "vector", c, i);
        }
        free(b);
    }
    free(a);
    free(cache);
    network_free(&net);
}

static bool cache_is_empty(const AccumulatorCache *cache)
{
    const bool *filled = &cache->filled[0][0][0];
    for (size_t i = 0; i < sizeof cache->filled / sizeof *filled; i++)
        if (filled[i])
            return false;
    return true;
}

/* The engine loads another file into the same Network and selects it
 * again: each thread's evaluator must then forget the sums its refresh
 * cache holds for the old weights, with a new game in between or not. A
 * new game empties the cache too, and so does the first clear of a state
 * whose memory held anything (malloc). */
Test(nnue_king_buckets, the_evaluator_forgets_its_refreshes_when_the_network_changes)
{
    EvalState *e = malloc(sizeof *e);
    cr_assert_not_null(e);
    memset(e, 0xa5, sizeof *e);
    evaluator_clear(e);
    cr_assert(cache_is_empty(&e->refresh_cache));
    Network net = load_bucketed(0);
    int changes = 0;
    for (int round = 0; round < 4; round++) {
        if (round > 0) {
            network_free(&net);
            net = load_bucketed_seeded(0, 42 + (uint64_t)round); /* the same Network, other weights */
        }
        if (round == 2) { /* a new game */
            cr_assert_not(cache_is_empty(&e->refresh_cache));
            evaluator_clear(e);
            cr_assert(cache_is_empty(&e->refresh_cache), "a new game keeps the refresh cache");
        }
        changes += follow_roaming_kings(e, &net, ROAMING_KINGS[round % 2], 11);
    }
    cr_log_info("%d views changed", changes);
    cr_assert_gt(changes, 100);
    network_free(&net);
    free(e);
}
