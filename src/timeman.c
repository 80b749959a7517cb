/* timeman.c — turning a clock into soft and hard thinking limits. */
#include "timeman.h"

#include <string.h>

#include "timer.h"

void timeman_init_limits(SearchLimits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
}

/* Without moves to go, the clock is shared as if MOVES_HORIZON moves were
 * left, with the increment of INC_MOVES of them counted in. */
enum { MOVES_HORIZON = 50, INC_MOVES = 25 };
/* The optimum and the most one move may take, in tenths of an even share
 * of the time: 2 and 10 shares without moves to go; with moves to go,
 * 1.8 shares of time / (moves to go + 5) and 10 of time / (moves + 10). */
enum { SOFT_TENTHS = 20, HARD_TENTHS = 100, MTG_SOFT_TENTHS = 18, MTG_SOFT_EXTRA = 5, MTG_HARD_EXTRA = 10 };
/* Never more than this share of what is left (tenths; more for the last
 * move of a period): a loaded machine can stall the engine for a while. */
enum { HARD_CAP_TENTHS = 5, LAST_MOVE_HARD_CAP_TENTHS = 8 };
/* A reserve of this many move overheads stays on the clock: the hard limit
 * is a share of what lies above it. On a fast increment control the soft
 * limit spends more than the increment, so the clock sinks until the hard
 * limit holds it; without the reserve it sank to a few tens of ms, and one
 * stall of a loaded machine (90 ms were seen, two matches and tests on two
 * cores) lost on time. With it the engine moves at once near the reserve
 * and lives on the increment. */
enum { RESERVE_OVERHEADS = 5 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t timeman_clock_start(const SearchLimits *limits)
{
    return limits->clock_started > 0 ? limits->clock_started : time_now_ms();
}

void timeman_init(TimeBudget *budget, const SearchLimits *limits, Color us, int move_overhead)
{
    /* The GUI's clock runs from when it sent the command: the time spent
     * before the search starts (a ponder search stopped and joined, the
     * root probed in the tablebases) is the engine's too. */
    budget->start = timeman_clock_start(limits);
    budget->soft = budget->hard = -1;
    if (limits->move_time > 0) {
        /* "Search exactly this long": no soft limit to stop early. */
        budget->hard = max64(1, limits->move_time - move_overhead);
        return;
    }
    if (limits->time[us] < 0)
        return; /* depth, nodes, mate or infinite: no clock */

    int64_t time = limits->time[us], inc = limits->inc[us];
    int64_t available = max64(1, time - (int64_t)RESERVE_OVERHEADS * move_overhead);
    int mtg = limits->moves_to_go;
    int64_t soft, hard;
    if (mtg > 0 && mtg < MOVES_HORIZON) {
        soft = MTG_SOFT_TENTHS * time / (10 * (mtg + MTG_SOFT_EXTRA)) + inc;
        hard = HARD_TENTHS * time / (10 * (mtg + MTG_HARD_EXTRA)) + inc;
    } else {
        int64_t share = (time + INC_MOVES * inc) / MOVES_HORIZON;
        soft = SOFT_TENTHS * share / 10;
        hard = HARD_TENTHS * share / 10;
    }
    int cap = mtg == 1 ? LAST_MOVE_HARD_CAP_TENTHS : HARD_CAP_TENTHS;
    budget->hard = max64(1, min64(hard, available * cap / 10));
    budget->soft = max64(1, min64(soft, budget->hard));
}

/* Scale factors of the soft limit, in percent. By how many iterations the
 * best move has stayed the same (0: changed in the last one, up to 4+). */
static const int STABILITY_PERCENT[] = { 250, 120, 90, 80, 75 };
enum {
    STABILITY_STEPS = sizeof STABILITY_PERCENT / sizeof *STABILITY_PERCENT,
    /* The best move's share of the nodes: 0.5x when it took them all, up
     * to 2x when it took none (the other moves are hard to refute). */
    NODES_PERCENT_AT_NONE = 200, NODES_PERCENT_AT_ALL = 50,
    /* A falling score: 1 % more per centipawn lost, at most 50 %; a rising
     * one: 0.5 % less per centipawn, at most 10 %. */
    SCORE_DROP_PERCENT_MAX = 50, SCORE_GAIN_PERCENT_MAX = 10,
};

/* The best move's share of the nodes as if one line were searched: with
 * N lines each gets about 1/N of the nodes by design, which is no sign that
 * the best move is hard to settle. (Unscaled, a 4-line search took the
 * 1.6x of an unsettled one at every move: UCI_LimitStrength, which searches
 * 4 lines, spent 1 s a move at 10+0.1 and then lived on the increment.) */
static double one_line_share(const SearchProgress *p)
{
    double share = p->best_move_share * (p->lines > 1 ? p->lines : 1);
    return share < 0 ? 0 : share > 1 ? 1 : share;
}

int64_t timeman_scaled_soft(const TimeBudget *budget, const SearchProgress *p)
{
    if (budget->soft < 0)
        return -1;
    int stable = p->stable_iterations < STABILITY_STEPS ? p->stable_iterations : STABILITY_STEPS - 1;
    double share = one_line_share(p);
    double stability = STABILITY_PERCENT[stable] / 100.0;
    double nodes = (NODES_PERCENT_AT_NONE - (NODES_PERCENT_AT_NONE - NODES_PERCENT_AT_ALL) * share) / 100.0;
    int drop = p->score_drop;
    double score = drop >= 0 ? 1.0 + (drop < SCORE_DROP_PERCENT_MAX ? drop : SCORE_DROP_PERCENT_MAX) / 100.0
                             : 1.0 - (-drop / 2 < SCORE_GAIN_PERCENT_MAX ? -drop / 2 : SCORE_GAIN_PERCENT_MAX) / 100.0;
    int64_t scaled = (int64_t)((double)budget->soft * stability * nodes * score);
    return budget->hard >= 0 && scaled > budget->hard ? budget->hard : scaled;
}

bool timeman_soft_stop(const TimeBudget *budget, int64_t elapsed, const SearchProgress *progress)
{
    int64_t optimum = timeman_scaled_soft(budget, progress);
    return optimum >= 0 && elapsed >= optimum;
}
