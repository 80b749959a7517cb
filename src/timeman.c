/* timeman.c — turning a clock into soft and hard thinking limits. */
#include "timeman.h"

#include <string.h>

#include "timer.h"

void timeman_init_limits(SearchLimits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
}

/* Without moves to go, a game is assumed to last MOVES_LEFT_AT_START more
 * moves at the start, one fewer every PLIES_PER_MOVE_LESS plies, down to
 * MOVES_LEFT_AT_LEAST. */
enum { MOVES_LEFT_AT_START = 50, PLIES_PER_MOVE_LESS = 4, MOVES_LEFT_AT_LEAST = 30 };
/* Tenths of the time left: the soft limit's cap, and the hard limit's
 * cap (larger for the last move before the time control). */
enum { SOFT_CAP_TENTHS = 4, HARD_CAP_TENTHS = 5, LAST_MOVE_HARD_CAP_TENTHS = 8 };
/* The hard limit is at most this many times the ideal time of a move. */
enum { HARD_PER_IDEAL = 5 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

void timeman_init(TimeBudget *budget, const SearchLimits *limits, Color us, int game_ply, int move_overhead)
{
    budget->start = time_now_ms();
    budget->soft = budget->hard = -1;
    if (limits->move_time > 0) {
        /* "Search exactly this long": no soft limit to stop early. */
        budget->hard = max64(1, limits->move_time - move_overhead);
        return;
    }
    if (limits->time[us] < 0)
        return; /* depth, nodes, mate or infinite: no clock */

    int64_t time = limits->time[us], inc = limits->inc[us];
    int64_t available = max64(1, time - move_overhead);
    /* Without moves to go, assume the game lasts a while longer, a little
     * less the longer it has already gone. */
    int horizon = limits->moves_to_go > 0
        ? limits->moves_to_go
        : MOVES_LEFT_AT_START - min64(game_ply / PLIES_PER_MOVE_LESS, MOVES_LEFT_AT_START - MOVES_LEFT_AT_LEAST);
    if (horizon > MOVES_LEFT_AT_START)
        horizon = MOVES_LEFT_AT_START;
    int64_t ideal = available / horizon + inc * 3 / 4;
    budget->soft = min64(ideal, available * SOFT_CAP_TENTHS / 10);
    /* Never more than half of what is left (most of it only for the last
     * move of a period): a loaded machine can stall the engine for a while. */
    int hard_cap = limits->moves_to_go == 1 ? LAST_MOVE_HARD_CAP_TENTHS : HARD_CAP_TENTHS;
    budget->hard = min64(ideal * HARD_PER_IDEAL, available * hard_cap / 10);
    budget->soft = max64(1, min64(budget->soft, budget->hard));
    budget->hard = max64(1, budget->hard);
}

bool timeman_soft_stop(const TimeBudget *budget, int64_t elapsed, int instability, int score_drop)
{
    if (budget->soft < 0)
        return false;
    /* 0.7x for a settled best move, up to 1.8x while it keeps changing or
     * the score is falling. */
    int64_t scale = 70 + 15 * (instability > 6 ? 6 : instability) + (score_drop > 0 ? (score_drop > 50 ? 30 : score_drop * 3 / 5) : 0);
    int64_t target = budget->soft * scale / 100;
    if (budget->hard >= 0 && target > budget->hard)
        target = budget->hard;
    /* The next iteration takes longer than all before it: don't start one
     * that would overrun. */
    return elapsed >= target * 6 / 10;
}
