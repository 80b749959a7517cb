/* bench.c — the bench signature and search statistics. */
#include "tools/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "evaluator.h"
#include "movegen.h"
#include "options.h"
#include "timer.h"
#include "tt.h"

enum { DEFAULT_BENCH_DEPTH = 12, EVAL_SPEED_MS = 300 };

static const char *BENCH_POSITIONS[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/ppbp1ppp/2n1pn2/2p5/2P5/P1N1PN2/1PQPBPPP/R1B2RK1 w - - 5 9",
    "rnbq1rk1/ppp3pp/3pp3/5p2/2PPn3/2B2NP1/PP2PP1P/2RQKB1R w K - 0 9",
    "rnb1k2r/p1p2pp1/1p1ppq1p/8/2PPP3/2P2N2/P4PPP/R2QKB1R w KQkq - 0 9",
    "rnbq1rk1/pp2bppp/2p2n2/8/2BP4/2N2N2/PP3PPP/R1BQK2R w KQ - 3 9",
    "r1bqkb1r/1p1n1pp1/p2p1n1p/1B2p3/4P3/1P1Q1N2/P1P2PPP/RNB2RK1 w kq - 0 9",
    "r2qkb1r/pb1n1ppp/1p1ppn2/8/2PNP3/2N3P1/PP2QP1P/R1B1KB1R w KQkq - 1 9",
    "r1bq1rk1/1pp1npbp/p1np2p1/4p3/1PP5/2N2NP1/P2PPPBP/1RBQ1RK1 w - - 0 9",
    "r1bqnrk1/pp2ppbp/2np2p1/2p5/4P3/P1P2N2/1P1P1PPP/RNBQRBK1 w - - 1 9",
    "r1b1kb1r/1pq2ppp/p1nppn2/8/3NP3/2NB4/PPP1QPPP/R1B2RK1 w kq - 2 9",
    "r3kb1r/pp3ppp/2n2p2/q2p4/2PP2b1/2N2N2/PP3PPP/R2QKB1R w KQkq - 0 9",
    "rnb1k2r/pp3ppp/3p1n2/q2Pp3/4P3/5P2/P2P2PP/R1BQKBNR w KQkq - 0 9",
    "rnb1k2r/pp2ppbp/1q1p1np1/2pP4/4P3/5P2/PPP1N1PP/RNBQKB1R w KQkq - 2 9",
    "r1b1k2r/pp1pqppp/2p2n2/4p3/B2bP3/3P4/PPPN1PPP/R1BQ1RK1 w kq - 2 9",
    "r1bqkb1r/pp1n1ppp/2n1p3/2ppP3/3P4/2P1BP2/PP4PP/RN1QKBNR w KQkq - 1 9",
    "rn1q1rk1/pb1pbppp/4pn2/2p5/2P5/2N2NP1/PP2PPBP/R1BQ1RK1 w - - 3 9",
    "rn1qk2r/pb3pbp/1p1p1np1/2p1p3/2P1P3/2N2NP1/PP1P1PBP/R1BQR1K1 w kq - 0 9",
    "r1b1k2r/1pqp1ppp/p1nbpn2/8/2PN4/1P2P3/P3BPPP/RNBQ1RK1 w kq - 1 9",
    "r2qkb1r/pp3ppp/2n1bn2/2p5/2pP4/2N2N2/PP2BPPP/R1BQ1RK1 w kq - 0 9",
    "r3kb1r/pp1bpp1p/2np1p2/q7/3NP3/2N5/PPP1BPPP/R2QK2R w KQkq - 0 9",
    "r2qk2r/1pp2pp1/p1npbn1p/2b1p3/4P3/2NPBNP1/PPP2PBP/R2Q1RK1 w kq - 2 9",
    "rnbq1rk1/ppp1p1bp/3p2p1/5p2/1P1P4/5NP1/PBPnPPBP/R2Q1RK1 w - - 0 9",
    "r1bqk2r/p1p2pbp/2pp1np1/8/4P3/3B4/PPP2PPP/RNB1QRK1 w kq - 2 9",
    "r1b2rk1/pp2bppp/2n1pn2/q5B1/2BP4/2N2N2/PP2QPPP/2R2RK1 b - - 0 1",
    "3q1rk1/4bp1p/1n2P2Q/3p1p2/6r1/Pp2R2N/1B4PP/7K w - - 0 1",
    "6k1/pp5p/2p3q1/6BP/2nPr1Q1/8/PP3R1K/8 w - - 0 1",
    "rb3qk1/pQ3ppp/4p3/3P4/8/1P3N2/1P3PPP/3R2K1 w - - 0 1",
    "2k2r2/2p5/1pq5/p1p1n3/P1P2n1B/1R4Pp/2QR4/6K1 b - - 0 1",
    "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1",
    "4N2k/5rpp/1Q6/p3q3/8/P5P1/1P3P1P/5K2 w - - 0 1",
    "1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w - - 0 1",
    "6k1/p4p1p/1p3np1/2q5/4p3/4P1N1/PP3PPP/3Q2K1 w - - 0 1",
    "3r4/1p2k2p/p1b1p1p1/4Q1Pn/2B3KP/4pP2/PP2R1N1/6q1 b - - 0 1",
    "b2b1r1k/3R1ppp/4qP2/4p1PQ/4P3/5B2/4N1K1/8 w - - 0 1",
    "r1b1qrk1/1p3ppp/p1p5/3Nb3/5N2/P7/1P4PQ/K1R1R3 w - - 0 1",
    "3r2k1/1p1b1pp1/pq5p/8/3NR3/2PQ3P/PP3PP1/6K1 b - - 0 1",
    "r1b1rnk1/1p4pp/p1p2p2/3pN2n/3P1PPq/2NBPR1P/PPQ5/2R3K1 w - - 0 1",
    "6k1/1b1nqpbp/pp4p1/5P2/1PN5/4Q3/P5PP/1B2B1K1 b - - 0 1",
    "3r1k2/1p6/p4P2/2pP2Qb/8/1P1KB3/P6r/8 b - - 0 1",
    "8/8/k7/p7/P7/K7/8/8 w - - 0 1",
    "3k4/3pp3/8/8/8/8/3PP3/3K4 w - - 0 1",
    "8/8/4k3/3Nn3/3nN3/4K3/8/8 w - - 0 1",
    "8/k7/8/8/8/8/1p6/4K3 b - - 0 1",
    "k7/8/3p4/8/3P4/8/8/7K w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "2r3k1/5pp1/p3p2p/1p6/3R4/1P3P2/P4KPP/8 w - - 0 1",
    "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 0 1",
};

enum { BENCH_COUNT = sizeof BENCH_POSITIONS / sizeof *BENCH_POSITIONS };

typedef struct {
    uint64_t nodes_at_depth[MAX_PLY];
    int last_depth;
} BenchProgress;

static void record_info(const SearchInfo *info, void *context)
{
    BenchProgress *p = context;
    if (info->bound == BOUND_EXACT && info->depth < MAX_PLY && !info->no_iteration) {
        p->nodes_at_depth[info->depth] = info->nodes;
        p->last_depth = info->depth;
    }
}

static void ignore_bestmove(Move best, Move ponder, void *context)
{
    (void)best, (void)ponder, (void)context;
}

/* Static evaluations a second, made as the search makes them: every legal
 * move of every bench position is played and the position after it
 * evaluated through the evaluator (the network's accumulator updated from
 * its parent's, the hand-written evaluation with its pawn cache), round
 * after round for EVAL_SPEED_MS. */
static double evaluations_per_second(void)
{
    EvalState *e = malloc(sizeof *e);
    Board *b = malloc(sizeof *b);
    if (!e || !b) {
        free(e), free(b);
        return 0;
    }
    evaluator_clear(e);
    uint64_t count = 0;
    volatile int sink = 0; /* keeps the evaluations from being optimised away */
    int64_t start = time_now_ms(), elapsed;
    do {
        for (int i = 0; i < BENCH_COUNT; i++) {
            char error[128];
            if (!board_set_fen(b, BENCH_POSITIONS[i], error, sizeof error))
                continue;
            evaluator_start(e, b);
            MoveList list;
            generate_legal(b, &list);
            for (int k = 0; k < list.count; k++) {
                evaluator_push(e, b, list.moves[k]);
                board_make_move(b, list.moves[k]);
                sink += evaluator_evaluate(e, b);
                board_unmake_move(b);
                evaluator_pop(e);
                count++;
            }
        }
        elapsed = time_now_ms() - start;
    } while (elapsed < EVAL_SPEED_MS);
    (void)sink;
    free(e), free(b);
    return (double)count * 1000.0 / (double)(elapsed > 0 ? elapsed : 1);
}

int bench_command(int argc, char **argv)
{
    int depth = argc > 0 ? atoi(argv[0]) : DEFAULT_BENCH_DEPTH;
    if (depth < 1 || depth >= MAX_PLY) {
        fprintf(stderr, "error: bench depth must be from 1 to %d\n", MAX_PLY - 1);
        return 2;
    }
    /* An evaluation other than the default: its own signature and speed. */
    if (argc > 1) {
        char error[256];
        if (!option_set("Evaluation", argv[1], error, sizeof error)) {
            fprintf(stderr, "error: %s\n", error);
            return 2;
        }
    }
    uint64_t total = 0, cutoffs = 0, first_cutoffs = 0, qnodes = 0;
    double log_ebf_sum = 0;
    int ebf_samples = 0;
    /* Only the searches are timed: clearing the table for each position
     * (about a tenth of the wall time at Hash 16) is not search speed. */
    int64_t searching_us = 0;
    for (int i = 0; i < BENCH_COUNT; i++) {
        char error[128];
        engine_new_game();
        if (!engine_set_position(BENCH_POSITIONS[i], NULL, 0, error, sizeof error)) {
            fprintf(stderr, "bench position %d: %s\n", i + 1, error);
            return 1;
        }
        BenchProgress progress = { .last_depth = 0 };
        SearchLimits limits;
        timeman_init_limits(&limits);
        limits.depth = depth;
        int64_t search_start = time_now_us();
        engine_go(&limits, (SearchReport){ record_info, ignore_bestmove, &progress });
        engine_wait();
        searching_us += time_now_us() - search_start;
        SearchStats stats = engine_last_stats();
        uint64_t nodes = engine_last_nodes();
        total += nodes;
        cutoffs += stats.cutoffs;
        first_cutoffs += stats.first_move_cutoffs;
        qnodes += stats.qnodes;
        /* Effective branching factor from the last iterations. */
        int d = progress.last_depth;
        if (d >= 6 && progress.nodes_at_depth[d - 1] > 0 && progress.nodes_at_depth[d] > progress.nodes_at_depth[d - 1]) {
            log_ebf_sum += log((double)progress.nodes_at_depth[d] / (double)progress.nodes_at_depth[d - 1]);
            ebf_samples++;
        }
        printf("position %2d/%d: %llu nodes\n", i + 1, BENCH_COUNT, (unsigned long long)nodes);
    }
    int64_t elapsed = searching_us / 1000;
    printf("first-move cutoffs: %.1f %% of %llu cutoffs (outside quiescence)\n",
           cutoffs ? 100.0 * (double)first_cutoffs / (double)cutoffs : 0.0, (unsigned long long)cutoffs);
    printf("effective branching factor: %.2f\n", ebf_samples ? exp(log_ebf_sum / ebf_samples) : 0.0);
    printf("quiescence nodes: %.1f %% of all nodes\n", total ? 100.0 * (double)qnodes / (double)total : 0.0);
    printf("time: %lld ms (searching)\n", (long long)elapsed);
    printf("evaluations: %.2f M/s (%s; every legal move of the bench positions, made and evaluated)\n",
           evaluations_per_second() / 1e6, evaluator_kind() == EVALUATION_NNUE ? "NNUE" : "Classical");
    printf("%llu nodes %llu nps\n", (unsigned long long)total,
           (unsigned long long)(total * 1000000 / (uint64_t)(searching_us > 0 ? searching_us : 1)));
    return 0;
}
