#pragma once
/*
 * search.h — the alpha-beta family that chooses a move.
 *
 * The main algorithm is NegaScout / principal variation search (Reinefeld,
 * "An Improvement to the Scout Tree Search Algorithm", 1983): the first move of a node is searched with the full
 * window, the others with a null window around alpha and searched again
 * only when they surprise. Plain alpha-beta and MTD(f) (a sequence of
 * null-window searches converging on the value: Plaat et al., "Best-First
 * Fixed-Depth Minimax Algorithms", 1996) share the same
 * node function and can be selected for comparison.
 *
 * Around it: iterative deepening with aspiration windows, the
 * transposition table, quiescence search, null move, check and singular
 * extensions, selective deepening (nodes with few legal moves
 * cost no depth while a budget lasts), late move reductions and the
 * forward pruning of today's engines. Every one of these can be switched
 * off through SearchOptions, so its worth can be measured in games.
 *
 * The search prints nothing; it reports through the callbacks in
 * SearchReport, which the engine façade forwards to the front ends.
 */
#include <stdatomic.h>

#include "board.h"
#include "evaluator.h"
#include "history.h"
#include "timeman.h"

typedef enum { ALGO_PVS, ALGO_ALPHABETA, ALGO_MTDF } SearchAlgorithm;

typedef struct {
    SearchAlgorithm algorithm;
    bool null_move, check_extension, singular_extension, lmr, futility, reverse_futility;
    bool late_move_pruning, see_pruning, mate_distance_pruning, aspiration, iir, qsearch_see;
    bool tt_values, history_pruning, correction_history;
    /* Seed selective deepening: a node with at most `few_moves` legal moves
     * costs no depth while `few_budget` such plies remain on the path, a
     * node with one legal move while `single_budget` remain. */
    bool selective_deepening;
    int few_moves, few_budget, single_budget;
    /* A failed aspiration window is shown to the GUI only once a search has
     * run this long: before that the lines come too fast to read. Showing
     * one never changes the search. */
    int report_bounds_after_ms;
} SearchOptions;

extern SearchOptions search_options;
void search_options_default(SearchOptions *o);
void search_options_no_pruning(SearchOptions *o); /* for algorithm comparisons */

typedef struct {
    int depth, seldepth, multipv;
    int score;
    int bound; /* BOUND_EXACT, or BOUND_LOWER / BOUND_UPPER for aspiration fails */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
    uint64_t tbhits;
    /* After a finished iteration of a timed search: the soft limit as the
     * time manager scaled it then, in ms from the clock's start; the search
     * deepens while `time_ms` is below it. -1 when there is none. */
    int64_t optimum_ms;
    Move pv[MAX_PLY];
    int pv_length;
    /* The move to play of a search stopped before its first iteration was
     * complete: the counts are real, but there is no depth or score to
     * show (depth, seldepth and score are 0, and mean nothing). */
    bool no_iteration;
} SearchInfo;

typedef struct {
    void (*on_info)(const SearchInfo *info, void *context);
    void (*on_bestmove)(Move best, Move ponder, void *context);
    void *context;
} SearchReport;

typedef struct {
    Move killers[2];
    Move move;          /* the move played at this ply */
    Piece moved_piece;
    Move excluded;      /* singular-extension verification skips this move */
    int static_eval;
    int few_budget, single_budget;
    PieceToHistory *continuation; /* continuation history after this ply's move */
} SearchStack;

typedef struct {
    uint64_t cutoffs, first_move_cutoffs, qnodes;
} SearchStats;

enum { STACK_OFFSET = 4, MAX_MULTIPV = 64 };
/* The search stack: STACK_OFFSET entries before the root (the histories
 * look back that far) and a few beyond MAX_PLY for the deepest node's
 * children. */
enum { STACK_SLACK_AFTER = 4, STACK_SIZE = STACK_OFFSET + MAX_PLY + STACK_SLACK_AFTER };

/* One line of a multi-PV search: the best line among the root moves not
 * already shown in an earlier line. */
typedef struct {
    Move pv[MAX_PLY];
    int pv_length, score, seldepth;
} RootLine;

typedef struct Thread {
    int id;
    Board board;
    History history;
    EvalState eval;
    SearchStack stack[STACK_SIZE];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    _Atomic uint64_t nodes;
    _Atomic uint64_t tbhits;     /* tablebase probes that answered */
    int seldepth, root_depth, completed_depth;
    Move best_move, ponder_move; /* of the first line */
    int best_score;
    int pv_index;                /* which multi-PV line is being searched */
    RootLine lines[MAX_MULTIPV];
    int64_t optimum_ms;          /* the scaled soft limit of the last iteration, shown in its report */
    uint64_t root_move_nodes[SQUARE_NB][SQUARE_NB]; /* nodes spent below each root move, this search */
    SearchStats stats;
    struct SearchShared *shared;
} Thread;

/* What all threads of one search share. */
typedef struct SearchShared {
    SearchLimits limits;
    TimeBudget budget;
    SearchReport report;
    atomic_bool stop;
    atomic_bool pondering; /* while true, only `stop` or ponderhit ends the search */
    /* When our clock started: the start of `go`, or the ponderhit, since
     * time spent pondering is the opponent's. Limits are measured from it. */
    _Atomic int64_t clock_start;
    Move root_moves[MAX_MOVES];
    int root_move_count;
    int multipv;           /* lines to search and show, at least 1 */
    /* Tablebases: probes in the search from this many pieces down (0: none)
     * and this depth up; wins the fifty-move rule spoils count as draws. */
    int tb_probe_limit, tb_probe_depth;
    bool tb_fifty_move_rule;
    int tb_root_score;     /* the root's tablebase score, or SCORE_NONE */
    uint64_t tb_root_hits; /* probes that ranked the root moves, counted in tbhits */
    Thread **threads;
    int thread_count;
} SearchShared;

void search_init(void);
/* Clears a thread's learned tables (histories, pawn cache). */
void search_clear_thread(Thread *t);
/* Runs iterative deepening on thread t until a limit or `stop`. */
void search_iterate(Thread *t);
uint64_t search_total_nodes(const SearchShared *shared);
uint64_t search_total_tbhits(const SearchShared *shared);
