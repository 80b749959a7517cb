/* eval_speed.c — the evaluation benchmark (see eval_speed.h). */
#include "tools/eval_speed.h"

#include <stdio.h>
#include <stdlib.h>

#include "eval.h"
#include "evaluator.h"
#include "nnue/default_net.h"
#include "nnue/network.h"
#include "pawns.h"
#include "timer.h"
#include "tools/epd.h"

enum { DEFAULT_ROUNDS = 2000, MAX_POSITIONS = 4096 };

/* The positions of `path`, or NULL with a message; *count set. */
static Board *load_positions(const char *path, int *count)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "eval --speed: cannot open %s\n", path);
        return NULL;
    }
    Board *boards = calloc(MAX_POSITIONS, sizeof *boards);
    static EpdLine parsed;
    char line[1024], error[256];
    *count = 0;
    while (boards && *count < MAX_POSITIONS && fgets(line, sizeof line, in))
        if (epd_parse_line(line, &boards[*count], &parsed, error, sizeof error))
            (*count)++;
    fclose(in);
    if (boards && *count == 0) {
        fprintf(stderr, "eval --speed: no position in %s\n", path);
        free(boards);
        return NULL;
    }
    if (!boards)
        fprintf(stderr, "eval --speed: out of memory\n");
    return boards;
}

/* Each benchmark evaluates the n boards `rounds` times; returns microseconds.
 * The sum goes to a volatile so that no evaluation is optimised away. */
static volatile int sink;

static int64_t time_classical(const Board *boards, int n, int rounds, PawnTable *pawns)
{
    int64_t start = time_now_us();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            sink += evaluate(&boards[i], pawns);
    return time_now_us() - start;
}

static int64_t time_pawn_structure(const Board *boards, int n, int rounds)
{
    PawnEntry entry;
    int64_t start = time_now_us();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++) {
            pawns_evaluate(&boards[i], &entry, NULL);
            sink += entry.score;
        }
    return time_now_us() - start;
}

static int64_t time_nnue_from_scratch(const Board *boards, int n, int rounds, const Network *net)
{
    int64_t start = time_now_us();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            sink += evaluator_nnue(net, &boards[i]);
    return time_now_us() - start;
}

static void report(const char *what, double evals, int64_t us)
{
    printf("%-34s %7.2f M evals/s\n", what, evals / (double)(us > 0 ? us : 1));
}

int eval_speed_command(int argc, char **argv)
{
    if (argc < 1 || argc > 2) {
        fprintf(stderr, "usage: bachess eval --speed EPD [ROUNDS]\n");
        return 2;
    }
    int rounds = argc == 2 ? atoi(argv[1]) : DEFAULT_ROUNDS;
    if (rounds < 1) {
        fprintf(stderr, "eval --speed: ROUNDS must be a positive number, not '%s'\n", argv[1]);
        return 2;
    }
    int n;
    Board *boards = load_positions(argv[0], &n);
    PawnTable *pawns = pawn_table_create();
    Network net = { 0 };
    size_t size;
    const unsigned char *bytes = default_net_bytes(&size);
    char error[256];
    bool ready = boards && pawns && network_load_bytes(&net, bytes, size, error, sizeof error);
    if (boards && pawns && !ready)
        fprintf(stderr, "eval --speed: %s\n", error);
    if (ready) {
        double evals = (double)rounds * n;
        report("classical (pawn table warm)", evals, time_classical(boards, n, rounds, pawns));
        report("pawn structure alone", evals, time_pawn_structure(boards, n, rounds));
        report("NNUE from scratch (built-in net)", evals, time_nnue_from_scratch(boards, n, rounds, &net));
        printf("%d positions of %s, %d rounds\n", n, argv[0], rounds);
    }
    network_free(&net);
    pawn_table_destroy(pawns);
    free(boards);
    return ready ? 0 : 1;
}
