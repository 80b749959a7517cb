/* test_timeman.c — the clock turned into limits: never lose on time, even
 * when every move runs to its hard limit and the machine stalls now and
 * then; and the reserve for stalls costs nothing on a long clock. */
#include <criterion/criterion.h>

#include "timeman.h"
#include "timer.h"

static TimeBudget budget_for(int64_t time, int64_t inc, int moves_to_go, int overhead)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.time[WHITE] = time;
    limits.inc[WHITE] = inc;
    limits.moves_to_go = moves_to_go;
    TimeBudget budget;
    timeman_init(&budget, &limits, WHITE, overhead);
    return budget;
}

/* Plays `moves` moves of a sudden-death game with increment in which
 * every move takes its whole hard limit and every `stall_every`-th move
 * loses `stall_ms` more to the machine. Returns the lowest the clock fell
 * (after a move's time, before its increment): below zero is a flag. */
static int64_t lowest_clock(int64_t base, int64_t inc, int overhead, int moves, int stall_every, int64_t stall_ms)
{
    int64_t clock = base, lowest = base;
    for (int move = 1; move <= moves; move++) {
        TimeBudget b = budget_for(clock, inc, 0, overhead);
        cr_assert_geq(b.hard, 1);
        cr_assert_leq(b.soft, b.hard);
        clock -= b.hard + (move % stall_every == 0 ? stall_ms : 0);
        if (clock < lowest)
            lowest = clock;
        clock += inc;
    }
    return lowest;
}

Test(timeman, worst_case_game_at_1s_plus_10ms_keeps_the_clock)
{
    /* Move Overhead 30 (the default), a 100 ms stall every 20th move (on
     * average less than the increment, or no limit could help): the clock
     * must not fall below zero in 200 moves. Without the reserve it sank
     * to 50 ms and the first stall flagged. */
    int64_t lowest = lowest_clock(1000, 10, 30, 200, 20, 100);
    cr_assert_gt(lowest, 0, "the clock fell to %lld ms", (long long)lowest);
}

Test(timeman, worst_case_game_without_increment_keeps_the_clock)
{
    /* Sudden death, every move to its hard limit, no stalls: the clock
     * shrinks to the reserve in about 20 moves and then lasts a ms a move,
     * at least 150 moves in all (without the reserve, about 50). */
    int64_t lowest = lowest_clock(10000, 0, 30, 150, 1000, 0);
    cr_assert_gt(lowest, 0, "the clock fell to %lld ms", (long long)lowest);
}

Test(timeman, repeating_control_keeps_the_clock_to_the_last_move)
{
    /* 40 moves in 60 s, every move twice its optimum (the soft limit
     * scaled up for an unstable best move) and a 100 ms stall on every
     * fifth: the period's clock lasts all 40 moves. */
    int64_t clock = 60000;
    for (int to_go = 40; to_go >= 1; to_go--) {
        TimeBudget b = budget_for(clock, 0, to_go, 30);
        int64_t used = 2 * b.soft < b.hard ? 2 * b.soft : b.hard;
        clock -= used + (to_go % 5 == 0 ? 100 : 0);
        cr_assert_gt(clock, 0, "flagged with %d moves to go", to_go);
    }
}

Test(timeman, reserve_changes_nothing_on_a_long_clock)
{
    /* The reserve for stalls only bites when the clock is short. */
    for (int64_t time = 2000; time <= 600000; time += 1000) {
        TimeBudget with = budget_for(time, 100, 0, 30), without = budget_for(time, 100, 0, 0);
        cr_assert_eq(with.soft, without.soft, "soft differs at %lld ms", (long long)time);
        cr_assert_eq(with.hard, without.hard, "hard differs at %lld ms", (long long)time);
    }
}

static TimeBudget move_time_budget(int64_t move_time, int overhead)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.move_time = move_time;
    TimeBudget budget;
    timeman_init(&budget, &limits, WHITE, overhead);
    return budget;
}

Test(timeman, fixed_move_time_is_kept_exactly)
{
    TimeBudget b = move_time_budget(1000, 30);
    cr_assert_eq(b.hard, 970);
    cr_assert_lt(b.soft, 0);
}

/* Without a soft limit (a move time, a depth) there is no optimum to show
 * (`debug on`) and nothing ends the deepening between iterations. */
Test(timeman, no_soft_limit_has_no_optimum)
{
    TimeBudget b = move_time_budget(1000, 30);
    SearchProgress unsettled = { .stable_iterations = 0, .best_move_share = 0.1, .lines = 1, .score_drop = 80 };
    cr_assert_eq(timeman_scaled_soft(&b, &unsettled), -1);
    cr_assert_not(timeman_soft_stop(&b, 1000000, &unsettled));
}

/* Four multi-PV lines that share the nodes evenly are as settled as one
 * line that took them all: the soft limit is the same, not 1.6 times it. */
Test(timeman, even_multipv_lines_do_not_stretch_the_soft_limit)
{
    TimeBudget b = budget_for(10000, 100, 0, 30);
    SearchProgress one = { .stable_iterations = 2, .best_move_share = 1.0, .lines = 1 };
    SearchProgress four = { .stable_iterations = 2, .best_move_share = 0.25, .lines = 4 };
    SearchProgress unsettled = { .stable_iterations = 2, .best_move_share = 0.25, .lines = 1 };
    cr_assert_eq(timeman_scaled_soft(&b, &four), timeman_scaled_soft(&b, &one));
    cr_assert_gt(timeman_scaled_soft(&b, &unsettled), timeman_scaled_soft(&b, &one));
}

/* The budget runs from when the GUI's clock started (the command read),
 * not from when the search could start after the last one was joined. */
Test(timeman, budget_runs_from_when_the_clock_started)
{
    SearchLimits limits;
    timeman_init_limits(&limits);
    limits.time[WHITE] = 10000;
    limits.inc[WHITE] = 100;
    limits.clock_started = time_now_ms() - 40;
    TimeBudget late, now = budget_for(10000, 100, 0, 30);
    timeman_init(&late, &limits, WHITE, 30);
    cr_assert_eq(late.start, limits.clock_started);
    cr_assert_eq(late.hard, now.hard);
    cr_assert_geq(now.start, late.start + 40);
}
