/* test_annotate_share.c — a game's positions shared among annotate's workers
 * (tools/annotate_share.h), each worker's view taken in turn in one process:
 * which turns a worker takes, the verdicts it gathers from the others, a
 * game given up, and the room of a game two ahead. */
#include <criterion/criterion.h>

#include "tools/annotate_share.h"

enum { POSITIONS = 7, WORKERS = 3 };

static AnnotateShare *share;

static void make_share(void) { share = annotate_share_new(POSITIONS); }
static void free_share(void) { annotate_share_free(share); }

TestSuite(annotate_share, .init = make_share, .fini = free_share, .timeout = 30);

static PositionVerdict verdict_scored(int score) { return (PositionVerdict){ .score = score }; }

Test(annotate_share, each_turn_is_taken_by_exactly_one_worker)
{
    for (int turn = 0; turn < 20; turn++) {
        int takers = 0;
        for (int w = 0; w < WORKERS; w++)
            takers += split_takes(&(PositionSplit){ share, w, WORKERS, 1 }, turn);
        cr_expect_eq(takers, 1, "turn %d is taken by %d workers", turn, takers);
    }
    cr_expect(split_takes(NULL, 5), "a worker alone takes every turn");
}

/* Each worker publishes its turns of a game's positions (searched the last
 * first), then every worker gathers the whole game. */
Test(annotate_share, every_worker_gathers_the_whole_game)
{
    int turns[POSITIONS];
    for (int t = 0; t < POSITIONS; t++)
        turns[t] = POSITIONS - 1 - t;
    PositionSplit split[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        split[w] = (PositionSplit){ share, w, WORKERS, 0 };
        cr_assert(split_begin_game(&split[w]));
        cr_assert_eq(split[w].game, 1);
    }
    for (int w = 0; w < WORKERS; w++)
        for (int t = 0; t < POSITIONS; t++)
            if (split_takes(&split[w], t)) {
                PositionVerdict v = verdict_scored(100 * turns[t] + 1);
                split_publish(&split[w], LOOK_FIRST, turns[t], &v);
            }
    for (int w = 0; w < WORKERS; w++) {
        PositionVerdict p[POSITIONS] = { 0 };
        for (int t = 0; t < POSITIONS; t++)
            if (split_takes(&split[w], t))
                p[turns[t]] = verdict_scored(100 * turns[t] + 1); /* its own, searched */
        cr_assert(split_gather(&split[w], LOOK_FIRST, turns, POSITIONS, p), "worker %d gathers", w);
        for (int k = 0; k < POSITIONS; k++)
            cr_expect_eq(p[k].score, 100 * k + 1, "worker %d, position %d: %d", w, k, p[k].score);
    }
}

/* A worker that gives a game up: the others stop waiting for its verdicts. */
Test(annotate_share, a_game_given_up_is_gathered_by_nobody)
{
    PositionSplit first = { share, 0, 2, 0 }, second = { share, 1, 2, 0 };
    cr_assert(split_begin_game(&first) && split_begin_game(&second));
    int turns[2] = { 1, 0 };
    PositionVerdict v = verdict_scored(5), p[2];
    split_publish(&first, LOOK_FIRST, 1, &v); /* turn 0 is worker 0's; turn 1 (position 0) is worker 1's */
    split_give_up(&second);
    cr_expect_not(split_gather(&first, LOOK_FIRST, turns, 2, p), "a game given up is not waited for");
}

/* Two games use two rooms; a worker begins the third, in the first one's
 * room, only once every worker has ended the first. */
Test(annotate_share, the_room_of_a_game_two_ahead_waits_for_everybody)
{
    PositionSplit fast = { share, 0, 2, 0 }, slow = { share, 1, 2, 0 };
    cr_assert(split_begin_game(&fast) && split_begin_game(&slow)); /* game 1 */
    split_end_game(&fast);
    cr_assert(split_begin_game(&fast)); /* game 2: its own room */
    split_end_game(&fast);
    split_end_game(&slow); /* game 1 ended by everybody */
    cr_assert(split_begin_game(&fast), "game 3 begins once every worker has ended game 1");
    cr_expect_eq(fast.game, 3);
}
