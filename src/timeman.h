#pragma once
/*
 * timeman.h — how long to think. From the clock, increment and moves to go
 * (or a fixed move time) it derives two limits: an optimum ("soft") one,
 * checked between iterations of the deepening loop, and a hard one, checked
 * while searching (never lose on time). The optimum is a share of the clock
 * (1/25 of what is left plus the increment, in sudden death);
 * after each iteration it is scaled by how the search is going: shorter
 * when the best move has stayed the same for several iterations and holds
 * most of the nodes, longer when it keeps changing, when the other moves
 * take a large share of the nodes, or when the score is falling.
 */
#include <stdint.h>

#include "types.h"

typedef struct {
    int64_t time[COLOR_NB], inc[COLOR_NB]; /* milliseconds; time < 0 means "no clock" */
    int moves_to_go;
    int64_t move_time;
    int64_t clock_started; /* time_now_ms() when the GUI's clock began to run for
                              this move, if known (0: when the search starts) */
    int depth;
    uint64_t nodes;      /* hard: the search stops at this count, mid-iteration */
    uint64_t soft_nodes; /* soft: no new iteration starts once this many are searched */
    int mate;          /* mate in N moves: stop when found */
    bool infinite, ponder;
    Move search_moves[MAX_MOVES];
    int search_move_count;
} SearchLimits;

typedef struct {
    int64_t start;
    int64_t soft, hard; /* milliseconds after start; <0: unlimited */
} TimeBudget;

/* How the search stands after an iteration, for the soft limit. */
typedef struct {
    int stable_iterations;   /* iterations in a row that kept the best move (0: it just changed) */
    double best_move_share;  /* the best move's share of the root's nodes, 0..1 */
    int lines;               /* multi-PV lines searched (0 or 1: one) */
    int score_drop;          /* centipawns lost against the previous iterations (negative: gained) */
} SearchProgress;

void timeman_init_limits(SearchLimits *limits);
/* When the clock for this move began to run: the GUI's time if the protocol
 * knows it, else now. */
int64_t timeman_clock_start(const SearchLimits *limits);
void timeman_init(TimeBudget *budget, const SearchLimits *limits, Color us, int move_overhead);
/* The soft limit as scaled for this state of the search, in milliseconds
 * (-1: the budget has none). */
int64_t timeman_scaled_soft(const TimeBudget *budget, const SearchProgress *progress);
/* Should the deepening loop stop after an iteration, `elapsed` ms in? */
bool timeman_soft_stop(const TimeBudget *budget, int64_t elapsed, const SearchProgress *progress);
