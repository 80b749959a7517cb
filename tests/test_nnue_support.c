/* test_nnue_support.c — random network files and playouts for the NNUE tests (see nnue_support.h). */
#include "nnue_support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "support.h"

const uint8_t TEST_KING_MAP_HOME4[64] = {
    0, 0, 0, 1, 1, 0, 0, 0, /* rank 1 */
    2, 2, 2, 2, 2, 2, 2, 2, /* rank 2 */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

const uint8_t TEST_KING_MAP_SIDES7[64] = {
    0, 0, 0, 0, 1, 1, 1, 1, /* rank 1 */
    2, 2, 2, 2, 3, 3, 3, 3, /* rank 2 */
    4, 4, 4, 4, 5, 5, 5, 5, /* ranks 3 and 4 */
    4, 4, 4, 4, 5, 5, 5, 5,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, /* ranks 5 to 8 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
};

int32_t test_output_bias(int bucket) { return 1234 + 1000 * bucket; }

static int file_version(const TestNetSpec *spec)
{
    return spec->king_buckets ? 4 : spec->king_mirroring ? 3 : spec->output_buckets ? 2 : 1;
}

static size_t header_size_of(int version)
{
    static const size_t sizes[] = { 0, NNUE_HEADER_SIZE_V1, NNUE_HEADER_SIZE_V2, NNUE_HEADER_SIZE_V3, NNUE_HEADER_SIZE };
    return version >= 1 && version <= 4 ? sizes[version] : NNUE_HEADER_SIZE;
}

size_t test_net_header_size(const unsigned char *file)
{
    return header_size_of(file[8]);
}

static void put_i16(unsigned char *p, int v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)((v >> 8) & 0xff);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Input weights first, then the input bias, then the output weights: one
 * draw each in that order, so that a file with more king buckets has the
 * same first bucket. The input bias comes after every king bucket. */
static void put_weights(unsigned char *p, const TestNetSpec *spec, int king_buckets, int output_buckets)
{
    TestRng inputs = { spec->seed }, rest = { spec->seed ^ 0x5bd1e995u };
    size_t input_count = (size_t)king_buckets * NNUE_INPUTS * (size_t)spec->hidden;
    size_t rest_count = (size_t)spec->hidden + 2 * (size_t)spec->hidden * (size_t)output_buckets;
    for (size_t i = 0; i < input_count; i++)
        put_i16(p + 2 * i, rng_below(&inputs, 161) - 80);
    p += 2 * input_count;
    for (size_t i = 0; i < rest_count; i++) {
        bool output = i >= (size_t)spec->hidden;
        put_i16(p + 2 * i, output ? rng_below(&rest, 255) - 127 : rng_below(&rest, 161) - 80);
    }
    p += 2 * rest_count;
    for (int k = 0; k < output_buckets; k++)
        put_u32(p + 4 * (size_t)k, (uint32_t)test_output_bias(k));
}

unsigned char *test_net_file(const TestNetSpec *spec, size_t *size)
{
    int version = file_version(spec);
    int king_buckets = spec->king_buckets ? spec->king_buckets : 1;
    int output_buckets = spec->output_buckets ? spec->output_buckets : 1;
    size_t header = header_size_of(version), map = version >= 4 ? NNUE_KING_MAP_SIZE : 0;
    size_t values = (size_t)king_buckets * NNUE_INPUTS * (size_t)spec->hidden + (size_t)spec->hidden
                  + 2 * (size_t)spec->hidden * (size_t)output_buckets;
    *size = header + map + 2 * values + 4 * (size_t)output_buckets;
    unsigned char *data = calloc(1, *size);
    cr_assert_not_null(data);
    if (map)
        memcpy(data + header, spec->king_map, map);
    put_weights(data + header + map, spec, king_buckets, output_buckets);
    uint32_t fields[] = { (uint32_t)version, NNUE_INPUTS, (uint32_t)spec->hidden, (uint32_t)spec->activation, 255, 64, 400,
                          0, (uint32_t)output_buckets, spec->king_mirroring, (uint32_t)king_buckets };
    memcpy(data, "BACHNNUE", 8);
    for (size_t i = 0; 8 + 4 * i < header; i++)
        put_u32(data + 8 + 4 * i, fields[i]);
    test_net_fix_checksum(data, *size);
    return data;
}

void test_net_fix_checksum(unsigned char *file, size_t size)
{
    size_t header = test_net_header_size(file);
    put_u32(file + 36, network_checksum(file + header, size - header));
}

Network test_net_load(const TestNetSpec *spec)
{
    size_t size;
    unsigned char *bytes = test_net_file(spec, &size);
    Network net = { 0 };
    char error[256];
    cr_assert(network_load_bytes(&net, bytes, size, error, sizeof error), "%s", error);
    free(bytes);
    return net;
}

NnueView test_expected_view(const Network *net, Color side, Square king)
{
    int rank = king / 8, file = king % 8;
    if (side == BLACK)
        rank = 7 - rank;
    bool mirrored = net->king_mirroring && file >= 4;
    if (mirrored)
        file = 7 - file;
    return (NnueView){ .mirrored = mirrored, .king_bucket = net->king_bucket_map[rank * 8 + file] };
}

/* How many of the two perspectives see the board otherwise after a move. */
static int views_changed(const Network *net, const NnueView before[COLOR_NB], const Board *after)
{
    int changed = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        changed += !nnue_same_view(before[c], test_expected_view(net, c, board_king(after, c)));
    return changed;
}

static void check_a_null_move(EvalState *e, const Network *net, Board *b)
{
    evaluator_push_null(e);
    board_make_null(b);
    cr_assert_eq(evaluator_evaluate(e, b), evaluator_nnue(net, b), "after a null move");
    board_unmake_null(b);
    evaluator_pop(e);
}

int test_follow_playouts(EvalState *e, const Network *net, const TestPlayouts *p)
{
    cr_assert(evaluator_select(EVALUATION_NNUE, net));
    int changes = 0;
    Board *b = board_from_fen(p->fen);
    TestRng rng = { p->seed };
    for (int game = 0; game < p->games; game++) {
        board_load(b, p->fen);
        evaluator_start(e, b);
        int made = 0;
        for (; made < p->plies; made++) {
            MoveList list;
            generate_legal(b, &list);
            if (list.count == 0)
                break;
            if (p->null_moves && !board_in_check(b) && rng_below(&rng, 8) == 0)
                check_a_null_move(e, net, b);
            Move m = list.moves[rng_below(&rng, list.count)];
            NnueView before[COLOR_NB] = { test_expected_view(net, WHITE, board_king(b, WHITE)),
                                          test_expected_view(net, BLACK, board_king(b, BLACK)) };
            evaluator_push(e, b, m);
            board_make_move(b, m);
            changes += views_changed(net, before, b);
            if (rng_below(&rng, 3) == 0) /* not every ply is evaluated: updates may span several */
                cr_assert_eq(evaluator_evaluate(e, b), evaluator_nnue(net, b), "%s: game %d ply %d", p->fen, game,
                             made);
        }
        for (; made > 0; made--) {
            board_unmake_move(b);
            evaluator_pop(e);
            cr_assert_eq(evaluator_evaluate(e, b), evaluator_nnue(net, b), "%s: game %d, taking back", p->fen, game);
        }
        cr_assert_eq(e->depth, 0);
    }
    evaluator_select(EVALUATION_CLASSICAL, NULL);
    free(b);
    return changes;
}
