#pragma once
/*
 * timeman.h — how long to think. From the clock, increment and moves to go
 * (or a fixed move time) it derives two limits: a soft one, checked
 * between iterations of the deepening loop (don't start what cannot be
 * finished), and a hard one, checked while searching (never lose on time).
 * The soft limit stretches when the best move keeps changing and shrinks
 * when it is stable.
 */
#include <stdint.h>

#include "types.h"

typedef struct {
    int64_t time[COLOR_NB], inc[COLOR_NB]; /* milliseconds; time < 0 means "no clock" */
    int moves_to_go;
    int64_t move_time;
    int depth;
    uint64_t nodes;
    int mate;          /* mate in N moves: stop when found */
    bool infinite, ponder;
    Move search_moves[MAX_MOVES];
    int search_move_count;
} SearchLimits;

typedef struct {
    int64_t start;
    int64_t soft, hard; /* milliseconds after start; <0: unlimited */
} TimeBudget;

void timeman_init_limits(SearchLimits *limits);
void timeman_init(TimeBudget *budget, const SearchLimits *limits, Color us, int game_ply, int move_overhead);
/* Should the deepening loop stop after an iteration? `instability` counts
 * recent best-move changes; `elapsed` is the time used so far. */
bool timeman_soft_stop(const TimeBudget *budget, int64_t elapsed, int instability, int score_drop);
