/* fuzz_net.c — NNUE network files (EvalFile) through the loader and, when
 * one is accepted, through the evaluation.
 *
 * The input is loaded as it is: a refused file must say why and leave the
 * network untouched. Random changes almost never keep the FNV-1a checksum
 * right, so the input is then loaded a second time with its checksum made
 * right: then every header field and weight the fuzzer makes up reaches
 * the checks behind it. An accepted network must have a shape the engine
 * supports, and on the test boards the vector and the portable code must
 * agree (refresh, output of every bucket, and an update after a move), and
 * the evaluation must stay below the decisive scores; its king bucket map
 * must give a bucket of the net for every king square, and use them all. */
#include <stdlib.h>
#include <string.h>

#include "evaluator.h"
#include "fuzz_common.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "nnue/network.h"
#include "score.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Board *boards;
static Accumulator *accumulators; /* [0] vector, [1] portable, [2] after a move */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    board_init();
    boards = calloc((size_t)FUZZ_FEN_COUNT, sizeof *boards);
    accumulators = calloc(3, sizeof *accumulators);
    FUZZ_CHECK(boards && accumulators);
    for (int i = 0; i < FUZZ_FEN_COUNT; i++) {
        char error[256];
        FUZZ_CHECK(board_set_fen(&boards[i], FUZZ_FENS[i], error, sizeof error));
    }
    return 0;
}

static bool same_values(const Accumulator *a, const Accumulator *b, int hidden)
{
    size_t bytes = sizeof(int16_t) * (size_t)hidden;
    return memcmp(a->values[WHITE], b->values[WHITE], bytes) == 0 && memcmp(a->values[BLACK], b->values[BLACK], bytes) == 0;
}

/* One board: refresh and output, vector against portable, then the first
 * legal move's update against a refresh of the position after it. */
static void check_board(const Network *net, Board *b)
{
    Accumulator *vector = &accumulators[0], *portable = &accumulators[1], *child = &accumulators[2];
    accumulator_refresh(vector, net, b);
    accumulator_refresh_portable(portable, net, b);
    FUZZ_CHECK(same_values(vector, portable, net->hidden));
    for (int bucket = 0; bucket < net->output_buckets; bucket++)
        FUZZ_CHECK(accumulator_output(vector, net, b->side, bucket) == accumulator_output_portable(portable, net, b->side, bucket));
    int value = evaluator_nnue(net, b);
    FUZZ_CHECK(value > -TB_WIN_IN_MAX && value < TB_WIN_IN_MAX);

    MoveList moves;
    generate_legal(b, &moves);
    if (moves.count == 0)
        return;
    child->change_count = board_move_changes(b, moves.moves[0], child->changes);
    board_make_move(b, moves.moves[0]);
    for (Color c = WHITE; c <= BLACK; c++)
        if (accumulator_can_update(child, net, c))
            accumulator_update_perspective(child, vector, net, c);
        else
            accumulator_refresh_perspective(child, net, b, c);
    accumulator_refresh_portable(portable, net, b);
    FUZZ_CHECK(same_values(child, portable, net->hidden));
    board_unmake_move(b);
}

/* Every king square of either side gives a bucket of the net, and every
 * bucket is some square's (on files a-d for a mirroring net). */
static void check_king_buckets(const Network *net)
{
    FUZZ_CHECK(net->king_buckets >= 1 && net->king_buckets <= NNUE_MAX_KING_BUCKETS);
    bool met[NNUE_MAX_KING_BUCKETS] = { false };
    for (Color c = WHITE; c <= BLACK; c++)
        for (int s = 0; s < 64; s++) {
            NnueView view = nnue_view(net, c, (Square)s);
            FUZZ_CHECK(view.king_bucket < net->king_buckets);
            FUZZ_CHECK(view.mirrored == (net->king_mirroring && s % 8 >= 4));
            met[view.king_bucket] = true;
        }
    for (int k = 0; k < net->king_buckets; k++)
        FUZZ_CHECK(met[k]);
}

static void check_network(const Network *net)
{
    FUZZ_CHECK(net->hidden >= NNUE_HIDDEN_STEP && net->hidden <= NNUE_MAX_HIDDEN && net->hidden % NNUE_HIDDEN_STEP == 0);
    FUZZ_CHECK(net->output_buckets >= 1 && net->output_buckets <= NNUE_MAX_OUTPUT_BUCKETS);
    check_king_buckets(net);
    for (int pieces = 0; pieces <= 40; pieces++) {
        int bucket = nnue_output_bucket(net, pieces);
        FUZZ_CHECK(bucket >= 0 && bucket < net->output_buckets);
    }
    for (int i = 0; i < FUZZ_FEN_COUNT; i++)
        check_board(net, &boards[i]);
}

static void load_and_check(const uint8_t *data, size_t size)
{
    Network net = { 0 };
    char error[256] = "";
    if (network_load_bytes(&net, data, size, error, sizeof error)) {
        check_network(&net);
        network_free(&net);
    } else {
        FUZZ_CHECK(error[0] != '\0' && net.hidden == 0 && net.storage == NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_and_check(data, size);
    /* The checksum made right: at 36, over what follows the header (40
     * bytes in version 1, 44 in version 2, 48 in version 3, 52 from
     * version 4 on, whose king bucket map the checksum covers). */
    if (size < NNUE_HEADER_SIZE_V1)
        return 0;
    uint8_t *fixed = malloc(size);
    FUZZ_CHECK(fixed != NULL);
    memcpy(fixed, data, size);
    uint32_t version = (uint32_t)fixed[8] | (uint32_t)fixed[9] << 8 | (uint32_t)fixed[10] << 16 | (uint32_t)fixed[11] << 24;
    size_t header = version >= 4   ? NNUE_HEADER_SIZE
                  : version == 3 ? NNUE_HEADER_SIZE_V3
                  : version == 2 ? NNUE_HEADER_SIZE_V2
                                 : NNUE_HEADER_SIZE_V1;
    if (size >= header) {
        uint32_t sum = network_checksum(fixed + header, size - header);
        for (int i = 0; i < 4; i++)
            fixed[36 + i] = (uint8_t)(sum >> (8 * i));
        load_and_check(fixed, size);
    }
    free(fixed);
    return 0;
}
