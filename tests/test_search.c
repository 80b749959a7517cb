/* test_search.c — the search: its algorithms agree, its tables are sound,
 * its results are reproducible, and it finds what it must find. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "engine_options.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "score.h"
#include "see.h"
#include "support.h"
#include "tt.h"

static void setup(void)
{
    board_init();
    engine_init();
    engine_register_options();
}

static void teardown(void) { engine_quit(); }

TestSuite(search, .init = setup, .fini = teardown, .timeout = 300);

typedef struct {
    int score;
    int depth;
    Move best;
    uint64_t nodes;
} Outcome;

static void keep_info(const SearchInfo *info, void *context)
{
    Outcome *o = context;
    if (info->bound == BOUND_EXACT) {
        o->score = info->score;
        o->depth = info->depth;
        o->nodes = info->nodes;
    }
}

static void keep_best(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((Outcome *)context)->best = best;
}

static Outcome run_search(const char *fen, const char *moves, SearchLimits *limits)
{
    char error[128], *move_list[8];
    int count = 0;
    char buffer[128];
    snprintf(buffer, sizeof buffer, "%s", moves ? moves : "");
    for (char *save = NULL, *w = strtok_r(buffer, " ", &save); w && count < 8; w = strtok_r(NULL, " ", &save))
        move_list[count++] = w;
    cr_assert(engine_set_position(fen, move_list, count, error, sizeof error), "%s", error);
    Outcome o = { .score = SCORE_NONE, .best = MOVE_NONE };
    engine_go(limits, (SearchReport){ keep_info, keep_best, &o });
    engine_wait();
    return o;
}

/* A fresh search to `depth`, of all root moves or only `move` (searchmoves). */
static Outcome search_root_moves(const char *fen, int depth, Move move)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.depth = depth;
    if (move != MOVE_NONE) {
        limits.search_moves[0] = move;
        limits.search_move_count = 1;
    }
    engine_new_game();
    return run_search(fen, NULL, &limits);
}

static Outcome search_depth(const char *fen, int depth) { return search_root_moves(fen, depth, MOVE_NONE); }

/* PVS's value of one root move (searchmoves), pruning off as in S1. */
static int value_of_root_move(const char *fen, int depth, Move move)
{
    char error[128];
    search_options_no_pruning(&search_options);
    cr_assert(option_set("SearchAlgorithm", "PVS", error, sizeof error), "%s", error);
    int score = search_root_moves(fen, depth, move).score;
    search_options_default(&search_options);
    return score;
}

/* S1: with every window-dependent pruning off, NegaScout, plain alpha-beta
 * and MTD(f) search the same tree and must agree on its value. Where two
 * root moves share that value, either is a right answer: a move other than
 * PVS's must reach PVS's value when PVS searches it alone. */
Test(search, algorithms_agree_without_pruning)
{
    static const char *FENS[] = {
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", /* WAC.001 */
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",               /* WAC.004 */
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",  /* WAC.003 */
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 0 1",
    };
    int depth = test_light() ? 3 : 5;
    static const char *ALGORITHMS[] = { "PVS", "AlphaBeta", "MTDf" };
    for (size_t i = 0; i < sizeof FENS / sizeof *FENS; i++) {
        Outcome results[3];
        for (int a = 0; a < 3; a++) {
            search_options_no_pruning(&search_options);
            char error[128];
            cr_assert(option_set("SearchAlgorithm", ALGORITHMS[a], error, sizeof error), "%s", error);
            results[a] = search_depth(FENS[i], depth);
        }
        search_options_default(&search_options);
        for (int a = 1; a < 3; a++) {
            cr_expect_eq(results[a].score, results[0].score, "%s: %s scores %d, PVS %d", FENS[i],
                         ALGORITHMS[a], results[a].score, results[0].score);
            if (results[a].best != results[0].best) {
                int value = value_of_root_move(FENS[i], depth, results[a].best);
                cr_expect_eq(value, results[0].score, "%s: %s chooses a move that PVS values %d, not the best %d",
                             FENS[i], ALGORITHMS[a], value, results[0].score);
            }
        }
    }
}

Test(search, finds_mate_in_two_and_reports_it)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.depth = 6;
    /* Back-rank mate in two: 1.Rd8+ Rxd8 2.Rxd8#. */
    Outcome m = run_search("r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", NULL, &limits);
    cr_assert_eq(m.score, mate_in(3), "score %d, expected mate in 2 (%d)", m.score, mate_in(3));
    char text[MOVE_TEXT_SIZE];
    move_to_coordinate(m.best, text);
    cr_assert_str_eq(text, "d2d8");
}

Test(search, mated_side_scores_mate_against)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.depth = 4;
    /* Black's only move Kg8 is answered by Ra8#. */
    Outcome o = run_search("7k/8/6K1/8/8/8/8/R7 b - - 0 1", NULL, &limits);
    cr_assert_eq(o.score, mated_in(2), "score %d", o.score);
}

/* A mate in two that the full-width search proves at depth 4 stays a mate
 * in two when the pruned search goes deeper. Reverse futility once cut
 * nodes whose beta was a mated score (a good evaluation looked like an
 * escape from the mate): with one network, 1.Kb6 Kb8 2.Rh8# was reported
 * as mate in 3 at every depth from 4 to 12. Each evaluator prunes other
 * nodes, so both are tried. */
Test(search, pruning_keeps_the_shortest_mate)
{
    static const char *FENS[] = {
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",            /* 1.Kb6 Kb8 2.Rh8# */
        "7r/8/8/8/8/2k5/8/K7 b - - 0 1",            /* the same for Black: 1...Kb3 2.Kb1 Rh1# */
        "r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", /* 1.Rd8+ Rxd8 2.Rxd8# */
        "6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1",          /* 1.Qb8# */
    };
    static const struct { const char *option, *value; } EVALUATORS[] = {
        { "Evaluation", "Classical" }, { "Evaluation", "NNUE" },
    };
    int depth = test_light() ? 8 : 12;
    char error[128];
    for (size_t e = 0; e < sizeof EVALUATORS / sizeof *EVALUATORS; e++) {
        cr_assert(option_set(EVALUATORS[e].option, EVALUATORS[e].value, error, sizeof error), "%s", error);
        for (size_t i = 0; i < sizeof FENS / sizeof *FENS; i++) {
            search_options_no_pruning(&search_options);
            int full_width = search_depth(FENS[i], 4).score;
            search_options_default(&search_options);
            int pruned = search_depth(FENS[i], depth).score;
            cr_assert(full_width >= MATE_IN_MAX, "%s: no mate at depth 4 (%d)", FENS[i], full_width);
            cr_assert_eq(pruned, full_width, "%s, %s=%s: %d at depth %d, %d (mate in %d) full width at depth 4",
                         FENS[i], EVALUATORS[e].option, EVALUATORS[e].value, pruned, depth, full_width,
                         (mate_in(0) - full_width + 1) / 2);
        }
    }
}

Test(search, stalemate_and_draws_score_zero)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.depth = 6;
    Outcome o = run_search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL, &limits); /* stalemate */
    cr_assert_eq(o.best, MOVE_NONE);
    o = run_search("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", NULL, &limits); /* KNK */
    cr_assert_eq(o.score, 0);
}

Test(search, same_node_limit_gives_same_result)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.nodes = 200000;
    engine_new_game();
    Outcome a = run_search(START_FEN, "e2e4 c7c5", &limits);
    engine_new_game();
    Outcome b = run_search(START_FEN, "e2e4 c7c5", &limits);
    cr_assert_eq(a.best, b.best);
    cr_assert_eq(a.nodes, b.nodes);
    cr_assert_eq(a.score, b.score);
    cr_assert(a.nodes <= 200000 + 1);
}

/* The last info of a search and how many failed windows were shown. */
typedef struct {
    SearchInfo last;
    int bounds_shown;
    Move best;
} FinalReport;

static void keep_last_info(const SearchInfo *info, void *context)
{
    FinalReport *r = context;
    r->last = *info;
    r->bounds_shown += info->bound != BOUND_EXACT;
}

static void keep_final_best(Move best, Move ponder, void *context)
{
    (void)ponder;
    ((FinalReport *)context)->best = best;
}

static FinalReport node_limited_search(const char *fen, int report_bounds_after_ms)
{
    char error[128];
    cr_assert(engine_set_position(fen, NULL, 0, error, sizeof error), "%s", error);
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.nodes = 150000;
    search_options.report_bounds_after_ms = report_bounds_after_ms;
    engine_new_game();
    FinalReport r = { .bounds_shown = 0, .best = MOVE_NONE };
    engine_go(&limits, (SearchReport){ keep_last_info, keep_final_best, &r });
    engine_wait();
    search_options_default(&search_options);
    return r;
}

/* Positions whose search fails an aspiration window within the node limit:
 * which do depends on the evaluation (the built-in net), so the test takes
 * the first that does. */
static const char *const window_failing_fens[] = {
    "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", /* 1. e4 c5 2. Nf3 d6 */
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
};

/* UCI 33h once failed on the sanitizer build: the same `go nodes` gave the
 * same nodes, move and score, but a final PV of one move instead of eleven.
 * Past 2 s, a failed aspiration window was stored as the line as well as
 * shown, so a slow build's search and final report differed from a fast
 * one's. Showing every failed window (as a slow build would) must change
 * nothing of the final report. */
Test(search, final_line_of_a_node_limit_does_not_depend_on_the_clock)
{
    const char *fen = NULL;
    FinalReport shown = { .bounds_shown = 0 };
    for (size_t i = 0; i < sizeof window_failing_fens / sizeof *window_failing_fens && shown.bounds_shown == 0; i++) {
        fen = window_failing_fens[i];
        shown = node_limited_search(fen, 0);
    }
    cr_assert_gt(shown.bounds_shown, 0, "no window failed in any position: the search does not test what it should");
    cr_log_info("%d failed windows shown in %s", shown.bounds_shown, fen);
    FinalReport quiet = node_limited_search(fen, 1 << 30);
    cr_assert_eq(quiet.bounds_shown, 0);
    cr_assert_eq(quiet.best, shown.best);
    cr_assert_eq(quiet.last.bound, BOUND_EXACT);
    cr_assert_eq(shown.last.bound, BOUND_EXACT);
    cr_assert_eq(quiet.last.nodes, shown.last.nodes);
    cr_assert_eq(quiet.last.score, shown.last.score);
    cr_assert_eq(quiet.last.depth, shown.last.depth);
    cr_assert_eq(quiet.last.pv_length, shown.last.pv_length);
    cr_assert_arr_eq(quiet.last.pv, shown.last.pv, sizeof(Move) * (size_t)quiet.last.pv_length);
}

/* `go nodes` counts every thread's nodes: two threads together stay within
 * the limit (each adds the counts up every 64 of its nodes), where the main
 * thread alone watching its own count let the pair search about twice it. */
Test(search, node_limit_counts_all_threads)
{
    cr_assert(engine_set_threads(2));
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.nodes = 50000;
    engine_new_game();
    Outcome o = run_search(START_FEN, "e2e4 c7c5", &limits);
    cr_assert(engine_set_threads(1));
    cr_assert_neq(o.best, MOVE_NONE);
    cr_assert(o.nodes >= 50000 && o.nodes <= 50000 + 2 * 64, "two threads searched %llu nodes for a limit of 50000",
              (unsigned long long)o.nodes);
}

Test(search, single_legal_move_is_played_at_once)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.time[WHITE] = limits.time[BLACK] = 60000;
    Outcome o = run_search("k7/8/8/8/8/8/1q6/K7 w - - 0 1", NULL, &limits);
    char text[MOVE_TEXT_SIZE];
    move_to_coordinate(o.best, text);
    cr_assert_str_eq(text, "a1b2");
    cr_assert_leq(o.depth, 1);
}

/* Moves from tables are checked by move_is_legal: it must agree exactly
 * with the generator for every possible 16-bit move. */
Test(search, move_is_legal_agrees_with_generator)
{
    int count;
    EpdEntry *suite = epd_load("perft.epd", &count);
    int step = test_light() ? 9 : 1;
    for (int i = 0; i < count; i += step) {
        Board *b = board_from_fen(suite[i].fen);
        MoveList list;
        generate_legal(b, &list);
        bool legal[1 << 16] = { false };
        for (int k = 0; k < list.count; k++)
            legal[list.moves[k]] = true;
        for (int m = 0; m < (1 << 16); m++)
            cr_assert_eq(move_is_legal(b, (Move)m), legal[m], "%s: move %04x", suite[i].fen, m);
        free(b);
    }
    free(suite);
}

static bool see_of(const char *fen, const char *san, int threshold)
{
    Board *b = board_from_fen(fen);
    Move m = move_parse(b, san);
    cr_assert_neq(m, MOVE_NONE, "%s not legal in %s", san, fen);
    bool result = see_ge(b, m, threshold);
    free(b);
    return result;
}

Test(search, static_exchange_evaluation)
{
    /* A free pawn. */
    cr_expect(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5", 100));
    cr_expect(!see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5", 101));
    /* Knight takes a pawn defended by a pawn: loses 320 - 100. */
    cr_expect(see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "Nxe5", -220));
    cr_expect(!see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "Nxe5", -219));
    /* X-ray: the rook behind the queen recaptures. */
    cr_expect(see_of("4k3/4r3/8/4p3/8/8/4Q3/4R1K1 w - - 0 1", "Qxe5", 0) == false);
    cr_expect(see_of("3rr1k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "Rxd5", 100));
    cr_expect(!see_of("3r2k1/3r4/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "Rxd5", 0));
    /* A king may not recapture into a defended square. */
    cr_expect(see_of("8/8/8/4k3/3p4/4P3/8/3QK3 w - - 0 1", "exd4+", 100));
}

Test(search, transposition_table_round_trip_and_mate_adjustment)
{
    cr_assert(tt_resize(1));
    Key key = 0x123456789abcdef0ULL;
    tt_store(key, 3, make_move(E2, E4), mate_in(7), 12, 9, BOUND_EXACT);
    TTProbe probe;
    cr_assert(tt_probe(key, 5, &probe));
    cr_expect_eq(probe.move, make_move(E2, E4));
    cr_expect_eq(probe.depth, 9);
    cr_expect_eq(probe.bound, BOUND_EXACT);
    cr_expect_eq(probe.eval, 12);
    /* Stored at ply 3 as "mate 4 plies from here"; read at ply 5 that is mate at ply 9. */
    cr_expect_eq(probe.score, mate_in(9));
    cr_expect(!tt_probe(key ^ 1ULL << 63, 0, &probe));
    tt_clear();
    cr_expect(!tt_probe(key, 0, &probe));
    cr_expect_eq(tt_hashfull(), 0);
}

/* Pruning decisions use move_gives_check (or its quick form) before the
 * move is played: it must match what playing the move shows, for every
 * move of the suite. */
static void check_gives_check(Board *b, Move m, const char *fen, void *context)
{
    (void)context;
    bool predicted = move_gives_check(b, m);
    CheckInfo ci;
    check_info_init(b, &ci);
    bool quick = move_gives_check_quick(b, &ci, m);
    board_make_move(b, m);
    cr_assert_eq(predicted, board_in_check(b), "%s: move %04x", fen, m);
    cr_assert_eq(quick, board_in_check(b), "quick: %s: move %04x", fen, m);
    board_unmake_move(b);
}

Test(search, gives_check_matches_playing_the_move)
{
    cr_assert_gt(for_each_suite_move("perft.epd", check_gives_check, NULL), 1000);
}
