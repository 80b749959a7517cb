/* eval_cmd.c — the `bachess eval` sub-command (see eval_cmd.h). */
#include "tools/eval_cmd.h"

#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "evaluator.h"
#include "nnue/default_net.h"
#include "nnue/network.h"
#include "syzygy/syzygy.h"
#include "tools/eval_speed.h"
#include "tools/tb_cmd.h"

/* The tables' verdict next to the evaluations: what a search would use. */
static bool print_tablebases(const char *path, const char *fen)
{
    char message[512];
    if (syzygy_init(path, message, sizeof message) == 0) {
        fprintf(stderr, "error: %s\n", message);
        return false;
    }
    printf("Syzygy (%s):\n", path);
    tb_describe_position(fen, true);
    return true;
}

int eval_command(int argc, char **argv)
{
    if (argc > 0 && strcmp(argv[0], "--speed") == 0)
        return eval_speed_command(argc - 1, argv + 1);
    const char *net_path = NULL, *tb_path = NULL;
    char fen[512] = "";
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--net") == 0 && i + 1 < argc) {
            net_path = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--tb") == 0 && i + 1 < argc) {
            tb_path = argv[++i];
            continue;
        }
        if (*fen)
            strncat(fen, " ", sizeof fen - strlen(fen) - 1);
        strncat(fen, argv[i], sizeof fen - strlen(fen) - 1);
    }
    static Board board;
    char error[256];
    if (!board_set_fen(&board, *fen ? fen : START_FEN, error, sizeof error)) {
        fprintf(stderr, "error: bad FEN: %s\n", error);
        return 2;
    }
    evaluate_trace(&board, stdout);
    printf("Classical: %d cp (side to move)\n", evaluator_classical(&board));
    if (tb_path && !print_tablebases(tb_path, *fen ? fen : START_FEN))
        return 2;
    Network net = { 0 };
    bool loaded;
    if (net_path) {
        loaded = network_load_file(&net, net_path, error, sizeof error);
    } else {
        size_t size;
        const unsigned char *bytes = default_net_bytes(&size);
        loaded = network_load_bytes(&net, bytes, size, error, sizeof error);
    }
    if (!loaded) {
        fprintf(stderr, "error: %s\n", error);
        return 2;
    }
    char buckets[64] = "";
    if (net.output_buckets > 1)
        snprintf(buckets, sizeof buckets, ", output bucket %d of %d",
                 evaluator_output_bucket(&net, &board) + 1, net.output_buckets);
    char king_buckets[64] = "";
    if (net.king_buckets > 1)
        snprintf(king_buckets, sizeof king_buckets, ", king bucket %d of %d (White), %d (Black)",
                 nnue_view(&net, WHITE, board_king(&board, WHITE)).king_bucket + 1, net.king_buckets,
                 nnue_view(&net, BLACK, board_king(&board, BLACK)).king_bucket + 1);
    printf("NNUE: %d cp (side to move; %s, 768 -> %d x 2 -> 1, %s%s%s%s)\n", evaluator_nnue(&net, &board),
           net_path ? net_path : "built-in network", net.hidden,
           net.activation == ACTIVATION_SCRELU ? "SCReLU" : "CReLU", buckets,
           net.king_mirroring ? ", mirrored by each king's wing" : "", king_buckets);
    network_free(&net);
    return 0;
}
