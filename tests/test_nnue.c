/* test_nnue.c — the NNUE network: loading and refusing files, the
 * incremental accumulator against a full refresh after every move of the
 * perft suite, the vectorised code against the portable code, the output
 * buckets (version 2: chosen by the piece count; version 1 is one), and the
 * Evaluation/EvalFile options. The network here has random weights: these
 * are tests of the machinery, not of the net's chess. King buckets
 * (version 4) have their own file, test_nnue_king_buckets.c. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "engine_options.h"
#include "evaluator.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "nnue/default_net.h"
#include "nnue/network.h"
#include "nnue_support.h"
#include "options.h"
#include "score.h"
#include "support.h"
#include "timer.h"

static void setup(void) { board_init(); }
TestSuite(nnue, .init = setup, .timeout = 120);

static unsigned char *random_net_bytes(int hidden, int activation, uint64_t seed, size_t *size)
{
    return test_net_file(&(TestNetSpec){ .hidden = hidden, .activation = activation, .seed = seed }, size);
}

/* A random network of version 1 (`buckets` 0), 2 or 3 (mirroring). */
static Network load_random_net(int activation, int buckets, bool king_mirroring)
{
    return test_net_load(&(TestNetSpec){ .hidden = TEST_HIDDEN, .activation = activation, .output_buckets = buckets,
                                         .king_mirroring = king_mirroring, .seed = 42 });
}

static Network load_random_with_buckets(int activation, int buckets)
{
    return load_random_net(activation, buckets, false);
}

static Network load_random(int activation) { return load_random_with_buckets(activation, 0); }

static char *write_temp(const unsigned char *bytes, size_t size)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/bachess-net-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, bytes, size), (ssize_t)size);
    close(fd);
    return path;
}

/* ---- files ------------------------------------------------------------------ */

Test(nnue, a_good_file_loads_with_its_architecture)
{
    Network net = load_random(ACTIVATION_SCRELU);
    cr_assert_eq(net.hidden, TEST_HIDDEN);
    cr_assert_eq(net.activation, ACTIVATION_SCRELU);
    cr_assert_eq(net.qa, 255);
    cr_assert_eq(net.output_buckets, 1);
    cr_assert_eq(net.output_bias[0], test_output_bias(0));
    network_free(&net);
    net = load_random_with_buckets(ACTIVATION_CRELU, 8);
    cr_assert_eq(net.hidden, TEST_HIDDEN);
    cr_assert_eq(net.activation, ACTIVATION_CRELU);
    cr_assert_eq(net.output_buckets, 8);
    for (int k = 0; k < 8; k++)
        cr_assert_eq(net.output_bias[k], test_output_bias(k));
    network_free(&net);
}

/* Two networks evaluate every position of the perft suite alike. */
static void assert_same_evaluations(const Network *a, const Network *b)
{
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int i = 0; i < count; i++) {
        Board *board = board_from_fen(suite[i].fen);
        cr_assert_eq(evaluator_nnue(a, board), evaluator_nnue(b, board), "%s", suite[i].fen);
        free(board);
    }
    free(suite);
}

/* Version 1 is version 2 with one bucket: the same weights evaluate the same. */
Test(nnue, a_version_1_file_evaluates_as_a_one_bucket_version_2_file)
{
    Network v1 = load_random(ACTIVATION_SCRELU), v2 = load_random_with_buckets(ACTIVATION_SCRELU, 1);
    assert_same_evaluations(&v1, &v2);
    network_free(&v1);
    network_free(&v2);
}

/* Version 2 is version 3 without mirroring. */
Test(nnue, a_version_2_file_evaluates_as_a_version_3_file_without_mirroring)
{
    size_t size;
    unsigned char *bytes = test_net_file(
        &(TestNetSpec){ .hidden = TEST_HIDDEN, .activation = ACTIVATION_SCRELU, .output_buckets = 4, .seed = 42 }, &size);
    bytes[8] = 3; /* the same net as version 3, its mirroring flag 0 */
    unsigned char *v3 = calloc(1, size + 4);
    cr_assert_not_null(v3);
    memcpy(v3, bytes, NNUE_HEADER_SIZE_V2);
    memcpy(v3 + NNUE_HEADER_SIZE_V3, bytes + NNUE_HEADER_SIZE_V2, size - NNUE_HEADER_SIZE_V2);
    Network two = load_random_with_buckets(ACTIVATION_SCRELU, 4), three = { 0 };
    char error[256];
    cr_assert(network_load_bytes(&three, v3, size + 4, error, sizeof error), "%s", error);
    cr_assert_not(three.king_mirroring);
    assert_same_evaluations(&two, &three);
    free(bytes);
    free(v3);
    network_free(&two);
    network_free(&three);
}

/* The FEN of b's mirror image left to right (a-file <-> h-file), without
 * castling rights: the pieces are all a network reads. */
static void mirrored_fen(const char *fen, char *out, size_t size)
{
    char placement[100], side[4], castling[8], ep[4];
    cr_assert_eq(sscanf(fen, "%99s %3s %7s %3s", placement, side, castling, ep), 4, "%s", fen);
    char mirrored[100] = "";
    for (char *rank = strtok(placement, "/"); rank; rank = strtok(NULL, "/")) {
        size_t n = strlen(rank), at = strlen(mirrored);
        for (size_t i = 0; i < n; i++)
            mirrored[at + i] = rank[n - 1 - i];
        mirrored[at + n] = '\0';
        strcat(mirrored, "/");
    }
    mirrored[strlen(mirrored) - 1] = '\0';
    if (ep[0] != '-')
        ep[0] = (char)('h' - (ep[0] - 'a'));
    snprintf(out, size, "%s %s - %s", mirrored, side, ep);
}

/* A mirroring net gives each perspective what the same weights without
 * mirroring give it on the board as its own king's wing has it: the board
 * itself with the king on the a- to d-files, its mirror image with the king
 * on the e- to h-files. */
Test(nnue, a_mirroring_net_sees_the_board_from_its_kings_wing)
{
    Network mirroring = load_random_net(ACTIVATION_SCRELU, 0, true), plain = load_random(ACTIVATION_SCRELU);
    cr_assert(mirroring.king_mirroring);
    Accumulator *a = calloc(3, sizeof *a); /* mirroring net, plain net on the board, on its mirror image */
    size_t bytes = sizeof(int16_t) * TEST_HIDDEN;
    int count, mirrored_sides = 0;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int i = 0; i < count; i++) {
        char fen[128];
        mirrored_fen(suite[i].fen, fen, sizeof fen);
        Board *b = board_from_fen(suite[i].fen), *image = board_from_fen(fen);
        cr_assert_not_null(image, "%s", fen);
        accumulator_refresh(&a[0], &mirroring, b);
        accumulator_refresh(&a[1], &plain, b);
        accumulator_refresh(&a[2], &plain, image);
        for (Color c = WHITE; c <= BLACK; c++) {
            bool kings_wing_is_mirrored = square_file(board_king(b, c)) >= 4;
            cr_assert_eq(a[0].view[c].mirrored, kings_wing_is_mirrored, "%s", suite[i].fen);
            cr_assert_not(a[1].view[c].mirrored);
            mirrored_sides += kings_wing_is_mirrored;
            cr_assert(memcmp(a[0].values[c], a[kings_wing_is_mirrored ? 2 : 1].values[c], bytes) == 0,
                      "perspective %d of %s", c, suite[i].fen);
        }
        free(b);
        free(image);
    }
    cr_assert(mirrored_sides > count / 4 && mirrored_sides < 2 * count - count / 4, "%d of %d perspectives mirrored",
              mirrored_sides, 2 * count);
    free(suite);
    free(a);
    network_free(&mirroring);
    network_free(&plain);
}

/* Eight buckets share out the piece counts of a game, 2 to 32, in order and
 * all of them used; a set-up board beyond 32 pieces reads the last one. The
 * evaluation reads its board's bucket: each bucket has its own output bias
 * here, so a wrong bucket would show. */
Test(nnue, the_output_bucket_follows_the_piece_count)
{
    Network net = load_random_with_buckets(ACTIVATION_SCRELU, 8);
    cr_assert_eq(nnue_output_bucket(&net, 2), 0);
    cr_assert_eq(nnue_output_bucket(&net, 32), 7);
    cr_assert_eq(nnue_output_bucket(&net, 40), 7);
    cr_assert_eq(nnue_output_bucket(&net, 0), 0);
    bool used[8] = { false };
    for (int pieces = 3; pieces <= 32; pieces++) {
        int bucket = nnue_output_bucket(&net, pieces);
        cr_assert(bucket == nnue_output_bucket(&net, pieces - 1) || bucket == nnue_output_bucket(&net, pieces - 1) + 1,
                  "%d pieces: bucket %d", pieces, bucket);
        used[bucket] = true;
    }
    for (int k = 0; k < 8; k++)
        cr_assert(used[k], "bucket %d is never used", k);

    Accumulator *a = calloc(1, sizeof *a);
    int count, differs = 0;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int i = 0; i < count; i++) {
        Board *b = board_from_fen(suite[i].fen);
        accumulator_refresh_portable(a, &net, b);
        int bucket = evaluator_output_bucket(&net, b), value = evaluator_nnue(&net, b);
        cr_assert_eq(value, accumulator_output_portable(a, &net, b->side, bucket), "%s", suite[i].fen);
        differs += value != accumulator_output_portable(a, &net, b->side, (bucket + 1) % 8);
        free(b);
    }
    cr_assert_gt(differs, count / 2, "the buckets hardly differ: the test would not see a wrong one");
    free(suite);
    free(a);
    network_free(&net);
}

Test(nnue, damaged_files_are_refused_with_a_reason)
{
    size_t size;
    unsigned char *good = random_net_bytes(TEST_HIDDEN, ACTIVATION_SCRELU, 7, &size); /* version 1 */
    unsigned char *bad = malloc(size);
    struct {
        const char *what, *expect;
        void (*damage)(unsigned char *, size_t *);
    } cases[] = {
        { "truncated", "truncated", NULL },
        { "magic", "header", NULL },
        { "version", "version", NULL },
        { "hidden", "hidden", NULL },
        { "flipped byte", "checksum", NULL },
        { "output weight", "output weight", NULL },
        { "no bucket", "output buckets", NULL },
        { "17 buckets", "output buckets", NULL },
        { "version-2 header cut", "header is truncated", NULL },
        { "mirroring flag 2", "king mirroring", NULL },
        { "version-3 header cut", "header is truncated", NULL },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        memcpy(bad, good, size);
        size_t n = size;
        switch (k) {
        case 0: n -= 100; break;
        case 1: bad[0] = 'X'; break;
        case 2: bad[8] = NNUE_VERSION + 1; break;
        case 3: bad[16] = 48 + 1; break; /* not a multiple of 16 */
        case 4: bad[NNUE_HEADER_SIZE_V1 + 1000] ^= 0x10; break;
        case 5: { /* an out-of-range output weight, with the checksum made right again */
            size_t at = NNUE_HEADER_SIZE_V1 + 2 * ((size_t)NNUE_INPUTS * TEST_HIDDEN + TEST_HIDDEN);
            bad[at] = 0x00, bad[at + 1] = 0x01; /* 256 */
            uint32_t sum = network_checksum(bad + NNUE_HEADER_SIZE_V1, n - NNUE_HEADER_SIZE_V1);
            memcpy(bad + 36, &sum, 4);
            break;
        }
        case 6: /* version 2 with 0 or 17 buckets where the version-1 payload starts */
        case 7: {
            uint32_t version = 2, buckets = k == 6 ? 0 : 17;
            memcpy(bad + 8, &version, 4);
            memcpy(bad + NNUE_HEADER_SIZE_V1, &buckets, 4);
            break;
        }
        case 8: {
            uint32_t version = 2;
            memcpy(bad + 8, &version, 4);
            n = NNUE_HEADER_SIZE_V1 + 2;
            break;
        }
        case 9: /* version 3, one bucket, and a flag that is neither 0 nor 1 */
        case 10: {
            uint32_t version = 3, buckets = 1, flag = 2;
            memcpy(bad + 8, &version, 4);
            memcpy(bad + NNUE_HEADER_SIZE_V1, &buckets, 4);
            memcpy(bad + NNUE_HEADER_SIZE_V2, &flag, 4);
            if (k == 10)
                n = NNUE_HEADER_SIZE_V2 + 2;
            break;
        }
        }
        Network net = { 0 };
        char error[256] = "";
        cr_expect_not(network_load_bytes(&net, bad, n, error, sizeof error), "%s accepted", cases[k].what);
        cr_expect(strstr(error, cases[k].expect), "%s: message '%s' does not say '%s'", cases[k].what, error,
                  cases[k].expect);
        cr_expect_eq(net.hidden, 0, "%s: the network was changed", cases[k].what);
    }
    free(bad);
    free(good);
}

/* A network file may hold any weights in range: one that evaluates far
 * beyond every real position is held below the decisive scores, whichever
 * side it favours. */
Test(nnue, an_evaluation_stays_below_the_decisive_scores)
{
    Network net = load_random(ACTIVATION_SCRELU);
    net.scale = 4096;
    Board *b = board_from_fen(START_FEN);
    for (int sign = -1; sign <= 1; sign += 2) {
        net.output_bias[0] = sign > 0 ? INT32_MAX : INT32_MIN;
        int value = evaluator_nnue(&net, b);
        cr_assert(value * sign > 0 && value * sign < TB_WIN_IN_MAX, "bias %d: evaluation %d", net.output_bias[0], value);
    }
    free(b);
    network_free(&net);
}

/* ---- incremental = refresh, vector = portable ---------------------------------- */

typedef struct {
    Network *net;
    Accumulator parent, child, portable_child, fresh;
    int checked, refreshed; /* moves, and perspectives computed afresh (the view changed) */
} IncrementalCheck;

/* The child's accumulator as the evaluator has it: updated, or computed
 * afresh where the move changed a perspective's view (its king across the
 * line of a mirroring net, or into another king bucket); the same with
 * the portable update in portable_child. */
static void bring_child_up_to_date(IncrementalCheck *c, const Board *after)
{
    for (Color side = WHITE; side <= BLACK; side++)
        if (accumulator_can_update(&c->child, c->net, side)) {
            accumulator_update_perspective(&c->child, &c->parent, c->net, side);
            accumulator_update_perspective_portable(&c->portable_child, &c->parent, c->net, side);
        } else {
            accumulator_refresh_perspective(&c->child, c->net, after, side);
            c->refreshed++;
        }
}

static bool same_values(const Accumulator *a, const Accumulator *b, int hidden)
{
    size_t bytes = sizeof(int16_t) * (size_t)hidden;
    return memcmp(a->values[WHITE], b->values[WHITE], bytes) == 0 && memcmp(a->values[BLACK], b->values[BLACK], bytes) == 0;
}

static void check_one_move(Board *b, Move m, const char *fen, void *context)
{
    IncrementalCheck *c = context;
    accumulator_refresh(&c->parent, c->net, b);
    c->child.change_count = board_move_changes(b, m, c->child.changes);
    c->portable_child.change_count = c->child.change_count;
    memcpy(c->portable_child.changes, c->child.changes, sizeof c->child.changes);
    board_make_move(b, m);
    bring_child_up_to_date(c, b);
    accumulator_refresh_portable(&c->fresh, c->net, b);
    cr_assert(same_values(&c->child, &c->fresh, c->net->hidden),
              "incremental accumulator differs from a refresh after a move in %s", fen);
    for (Color side = WHITE; side <= BLACK; side++)
        if (accumulator_can_update(&c->child, c->net, side)) {
            size_t bytes = sizeof(int16_t) * (size_t)c->net->hidden;
            cr_assert(memcmp(c->portable_child.values[side], c->fresh.values[side], bytes) == 0,
                      "portable update differs from a refresh after a move in %s", fen);
        }
    int bucket = evaluator_output_bucket(c->net, b);
    cr_assert_eq(accumulator_output(&c->child, c->net, b->side, bucket),
                 accumulator_output_portable(&c->fresh, c->net, b->side, bucket), "vector and portable outputs differ in %s",
                 fen);
    board_unmake_move(b);
    c->checked++;
}

/* The nets of the incremental test: CReLU and SCReLU with one bucket
 * (version 1), SCReLU with eight, mirroring by the king (version 3), and
 * king buckets (version 4) with and without mirroring. */
static Network incremental_test_net(int run)
{
    TestNetSpec spec = { .hidden = TEST_HIDDEN, .activation = run == 0 ? ACTIVATION_CRELU : ACTIVATION_SCRELU,
                         .output_buckets = run == 2 ? 8 : 0, .king_mirroring = run == 3 || run == 4, .seed = 42 };
    if (run == 4)
        spec.king_buckets = 4, spec.king_map = TEST_KING_MAP_HOME4, spec.output_buckets = 2;
    if (run == 5)
        spec.king_buckets = 7, spec.king_map = TEST_KING_MAP_SIDES7, spec.output_buckets = 2;
    return test_net_load(&spec);
}

Test(nnue, incremental_update_equals_refresh_after_every_move_of_the_perft_suite)
{
    for (int run = 0; run < 6; run++) {
        Network net = incremental_test_net(run);
        IncrementalCheck *c = calloc(1, sizeof *c);
        c->net = &net;
        int moves = for_each_suite_move("perft.epd", check_one_move, c);
        cr_log_info("run %d: %d moves checked, %d perspectives computed afresh", run, moves, c->refreshed);
        cr_assert_gt(moves, 3000); /* 267 positions */
        cr_assert_eq(c->checked, moves);
        if (run >= 3) /* king moves across the d/e line or a bucket's edge, castling among them */
            cr_assert_gt(c->refreshed, 50);
        else
            cr_assert_eq(c->refreshed, 0);
        free(c);
        network_free(&net);
    }
}

Test(nnue, vector_and_portable_code_agree)
{
    cr_log_info("vector code: %s", accumulator_vector_code());
    Network net = load_random_with_buckets(ACTIVATION_SCRELU, 8);
    Accumulator *a = calloc(2, sizeof *a);
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int i = 0; i < count; i++) {
        Board *b = board_from_fen(suite[i].fen);
        accumulator_refresh(&a[0], &net, b);
        accumulator_refresh_portable(&a[1], &net, b);
        cr_assert(memcmp(a[0].values, a[1].values, sizeof a[0].values) == 0, "refresh differs in %s", suite[i].fen);
        for (Color us = WHITE; us <= BLACK; us++)
            for (int bucket = 0; bucket < net.output_buckets; bucket++)
                cr_assert_eq(accumulator_output(&a[0], &net, us, bucket), accumulator_output_portable(&a[1], &net, us, bucket));
        free(b);
    }
    free(suite);
    free(a);
    network_free(&net);
}

/* The output by the file format's formula, in plain 64-bit arithmetic
 * (the dot products wrap in 32 bits, as the engine's do). */
static int formula_output(const Accumulator *a, const Network *net, Color us, int bucket)
{
    const int16_t *w = net->output_weights + (size_t)bucket * 2 * (size_t)net->hidden;
    uint32_t sum = 0;
    for (int half = 0; half < 2; half++) {
        const int16_t *v = a->values[half == 0 ? us : color_flip(us)];
        for (int i = 0; i < net->hidden; i++) {
            int64_t x = v[i] < 0 ? 0 : v[i] > net->qa ? net->qa : v[i];
            sum += (uint32_t)(x * w[half * net->hidden + i] * (net->activation == ACTIVATION_SCRELU ? x : 1));
        }
    }
    int64_t total = (int32_t)sum;
    if (net->activation == ACTIVATION_SCRELU)
        total /= net->qa;
    int64_t value = (total + net->output_bias[bucket]) * net->scale / ((int64_t)net->qa * net->qb);
    return value > INT_MAX ? INT_MAX : value < -INT_MAX ? -INT_MAX : (int)value;
}

/* The trainer's quantisation (QA 255, QB 64) is computed with divisions by
 * constants, any other with divisions by the file's values: both give the
 * formula's value, truncated alike. */
Test(nnue, the_output_is_the_formulas_for_every_quantisation)
{
    static const int quantisations[][2] = { { 255, 64 }, { 200, 50 }, { 127, 33 } };
    Accumulator *a = calloc(1, sizeof *a);
    int count, checked = 0;
    EpdEntry *suite = epd_load("perft.epd", &count);
    for (int activation = ACTIVATION_CRELU; activation <= ACTIVATION_SCRELU; activation++) {
        Network net = load_random_with_buckets(activation, 2);
        for (size_t k = 0; k < sizeof quantisations / sizeof *quantisations; k++) {
            net.qa = quantisations[k][0];
            net.qb = quantisations[k][1];
            for (int i = 0; i < count; i++) {
                Board *b = board_from_fen(suite[i].fen);
                accumulator_refresh(a, &net, b);
                for (int bucket = 0; bucket < 2; bucket++) {
                    int want = formula_output(a, &net, b->side, bucket);
                    cr_assert_eq(accumulator_output(a, &net, b->side, bucket), want, "QA %d QB %d: %s", net.qa, net.qb,
                                 suite[i].fen);
                    cr_assert_eq(accumulator_output_portable(a, &net, b->side, bucket), want);
                    checked++;
                }
                free(b);
            }
        }
        network_free(&net);
    }
    cr_assert_eq(checked, 2 * 3 * count * 2);
    free(suite);
    free(a);
}

/* Random playouts through the evaluator's own push/pop hooks, null moves
 * included (nnue_support.h). Returns how many moves took a king across
 * the d/e line: a mirroring net without king buckets sees the board
 * otherwise only then. */
static int follow_random_playouts(const Network *net)
{
    TestPlayouts playouts = { .fen = START_FEN, .seed = 99, .games = 20, .plies = 60, .null_moves = true };
    EvalState *e = calloc(1, sizeof *e);
    int crossings = test_follow_playouts(e, net, &playouts);
    free(e);
    return crossings;
}

Test(nnue, the_evaluator_follows_moves_and_null_moves)
{
    Network net = load_random_with_buckets(ACTIVATION_SCRELU, 8);
    follow_random_playouts(&net);
    network_free(&net);
}

Test(nnue, the_evaluator_follows_kings_across_a_mirroring_nets_line)
{
    Network net = load_random_net(ACTIVATION_SCRELU, 4, true);
    int crossings = follow_random_playouts(&net);
    cr_log_info("%d king moves across the d/e line", crossings);
    cr_assert_gt(crossings, 20);
    network_free(&net);
}



/* ---- the options ---------------------------------------------------------------- */

Test(nnue, options_load_a_net_keep_it_on_a_bad_file_and_search_with_it)
{
    engine_init();
    engine_register_options();
    char error[256];
    /* The built-in network, with no file. */
    size_t builtin_size;
    Network builtin = { 0 };
    const unsigned char *builtin_bytes = default_net_bytes(&builtin_size);
    cr_assert(network_load_bytes(&builtin, builtin_bytes, builtin_size, error, sizeof error),
              "the built-in network: %s", error);
    cr_assert(option_set("Evaluation", "NNUE", error, sizeof error), "NNUE on the built-in network: %s", error);
    cr_assert_eq(evaluator_network()->hidden, builtin.hidden);
    size_t size;
    unsigned char *bytes = random_net_bytes(TEST_HIDDEN, ACTIVATION_SCRELU, 5, &size);
    char *path = write_temp(bytes, size);
    cr_assert(option_set("EvalFile", path, error, sizeof error), "%s", error);
    cr_assert(option_set("Evaluation", "NNUE", error, sizeof error), "%s", error);
    cr_assert_eq(evaluator_kind(), EVALUATION_NNUE);
    const Network *loaded = evaluator_network();
    cr_assert_eq(loaded->hidden, TEST_HIDDEN);

    /* A truncated file is refused; the loaded network stays. */
    FILE *f = fopen(path, "wb");
    fwrite(bytes, 1, size / 2, f);
    fclose(f);
    cr_assert_not(option_set("EvalFile", path, error, sizeof error));
    cr_assert(strstr(error, "truncated"), "%s", error);
    cr_assert_eq(evaluator_network()->hidden, TEST_HIDDEN);
    cr_assert_eq(evaluator_kind(), EVALUATION_NNUE);

    /* A search on it gives a legal move (debug builds also assert that every
     * incremental accumulator equals a refresh). */
    cr_assert(engine_set_position(NULL, NULL, 0, error, sizeof error));
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.depth = 6;
    engine_go(&limits, (SearchReport){ 0 });
    engine_wait();
    cr_assert_gt(engine_last_nodes(), 100);
    /* An empty EvalFile goes back to the built-in network. */
    cr_assert(option_set("EvalFile", "", error, sizeof error), "%s", error);
    cr_assert_eq(evaluator_network()->hidden, builtin.hidden);
    network_free(&builtin);
    cr_assert(option_set("Evaluation", "Classical", error, sizeof error), "%s", error);
    unlink(path);
    free(bytes);
    engine_quit();
}

/* ---- speed ------------------------------------------------------------------ */

/* The built-in network over the WAC positions, measured like the classical
 * evaluation's speed test: a full evaluation from scratch (refresh and
 * output), and the output alone, which is what an evaluation costs in search
 * once the incremental update has run. The two paths must agree with the
 * portable code on every position, so the loop measures real work. */
Test(nnue, speed_of_the_built_in_network)
{
    size_t size;
    const unsigned char *bytes = default_net_bytes(&size);
    Network net = { 0 };
    char error[256];
    cr_assert(network_load_bytes(&net, bytes, size, error, sizeof error), "%s", error);
    int count;
    char(*fens)[FEN_SIZE] = load_fens("wac.epd", &count);
    Board *boards = calloc((size_t)count, sizeof *boards);
    Accumulator *acc = calloc((size_t)count + 1, sizeof *acc);
    for (int i = 0; i < count; i++) {
        board_load(&boards[i], fens[i]);
        accumulator_refresh(&acc[i], &net, &boards[i]);
        accumulator_refresh_portable(&acc[count], &net, &boards[i]);
        Color us = boards[i].side;
        int bucket = evaluator_output_bucket(&net, &boards[i]);
        cr_assert_eq(accumulator_output(&acc[i], &net, us, bucket), accumulator_output_portable(&acc[count], &net, us, bucket),
                     "%s", fens[i]);
    }
    int rounds = test_light() ? 20 : 500;
    volatile int sink = 0;
    int64_t start = time_now_ms();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < count; i++) {
            accumulator_refresh(&acc[count], &net, &boards[i]);
            sink += accumulator_output(&acc[count], &net, boards[i].side, evaluator_output_bucket(&net, &boards[i]));
        }
    int64_t full_ms = time_now_ms() - start;
    int output_rounds = 50 * rounds; /* far cheaper: more rounds for a measurable time */
    start = time_now_ms();
    for (int r = 0; r < output_rounds; r++)
        for (int i = 0; i < count; i++)
            sink += accumulator_output(&acc[i], &net, boards[i].side, evaluator_output_bucket(&net, &boards[i]));
    int64_t output_ms = time_now_ms() - start;
    double evals = (double)rounds * count, outputs = (double)output_rounds * count;
    fprintf(stderr, "nnue speed (%d hidden, vector code %s): %.2f M evals/s from scratch, %.2f M outputs/s over %d WAC positions\n",
            net.hidden, accumulator_vector_code(), evals / (double)(full_ms > 0 ? full_ms : 1) / 1e3,
            outputs / (double)(output_ms > 0 ? output_ms : 1) / 1e3, count);
    (void)sink;
    free(acc);
    free(boards);
    free(fens);
    network_free(&net);
}
