/* test_nnue_king_buckets.c — king input buckets (network file version 4):
 * the file's map is read and checked, each perspective reads the input
 * weights of its own king's bucket, one bucket is version 3, and the
 * accumulators follow kings across buckets and the mirroring line, move by
 * move (vector and portable code) and through the evaluator's push/pop.
 * The networks have random weights (nnue_support.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evaluator.h"
#include "movegen.h"
#include "nnue/accumulator.h"
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

/* The nets these tests run on: HOME4 with mirroring, SIDES7 without. */
static Network load_bucketed(int which)
{
    TestNetSpec spec = which == 0 ? bucketed(TEST_KING_MAP_HOME4, 4, true) : bucketed(TEST_KING_MAP_SIDES7, 7, false);
    return test_net_load(&spec);
}

/* The view by the file format's words, written out here rather than taken
 * from nnue_view(): the king's square as its side sees it, rank 1 its own
 * back rank, mirrored to files a-d by a mirroring net; the map's entry. */
static NnueView expected_view(const Network *net, Color side, Square king)
{
    int rank = king / 8, file = king % 8;
    if (side == BLACK)
        rank = 7 - rank;
    bool mirrored = net->king_mirroring && file >= 4;
    if (mirrored)
        file = 7 - file;
    return (NnueView){ .mirrored = mirrored, .king_bucket = net->king_bucket_map[rank * 8 + file] };
}

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
                NnueView want = expected_view(&net, c, board_king(b, c));
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
        before[c] = expected_view(w->net, c, board_king(b, c));
    vector->change_count = board_move_changes(b, m, vector->changes);
    portable->change_count = vector->change_count;
    memcpy(portable->changes, vector->changes, sizeof vector->changes);
    board_make_move(b, m);
    accumulator_refresh_portable(&w->fresh, w->net, b);
    for (Color c = WHITE; c <= BLACK; c++) {
        bool view_stays = nnue_same_view(before[c], expected_view(w->net, c, board_king(b, c)));
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

/* Random playouts through the evaluator's push/pop hooks, from positions
 * where the kings roam, compared with an evaluation from scratch; not
 * every ply is evaluated, so an update may span several moves, some of
 * which change a view. Returns how many moves changed a view. */
static int follow_roaming_kings(Network *net, const char *fen, uint64_t seed)
{
    cr_assert(evaluator_select(EVALUATION_NNUE, net));
    int changes = 0;
    EvalState *e = calloc(1, sizeof *e);
    Board *b = board_from_fen(fen);
    TestRng rng = { seed };
    for (int game = 0; game < 10; game++) {
        board_load(b, fen);
        evaluator_start(e, b);
        int made = 0;
        for (; made < 50; made++) {
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            Move m = list.moves[rng_below(&rng, list.count)];
            NnueView white = expected_view(net, WHITE, board_king(b, WHITE));
            NnueView black = expected_view(net, BLACK, board_king(b, BLACK));
            evaluator_push(e, b, m);
            board_make_move(b, m);
            changes += !nnue_same_view(white, expected_view(net, WHITE, board_king(b, WHITE)))
                     + !nnue_same_view(black, expected_view(net, BLACK, board_king(b, BLACK)));
            if (rng_below(&rng, 3) == 0)
                cr_assert_eq(evaluator_evaluate(e, b), evaluator_nnue(net, b), "%s: game %d ply %d", fen, game, made);
        }
        for (; made > 0; made--) {
            board_unmake_move(b);
            evaluator_pop(e);
            cr_assert_eq(evaluator_evaluate(e, b), evaluator_nnue(net, b));
        }
    }
    evaluator_select(EVALUATION_CLASSICAL, NULL);
    free(b);
    free(e);
    return changes;
}

Test(nnue_king_buckets, the_evaluator_follows_kings_through_their_buckets)
{
    static const char *fens[] = {
        "8/2k5/3p4/8/8/4P3/2K5/8 w - - 0 1",
        "r3k2r/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K2R w KQkq - 0 1",
    };
    for (int which = 0; which < 2; which++) {
        Network net = load_bucketed(which);
        int changes = 0;
        for (int i = 0; i < 2; i++)
            changes += follow_roaming_kings(&net, fens[i], 7 + (uint64_t)i);
        cr_log_info("net %d: %d views changed", which, changes);
        cr_assert_gt(changes, 50);
        network_free(&net);
    }
}
