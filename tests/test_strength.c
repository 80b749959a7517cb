/* test_strength.c — UCI_LimitStrength's scale: more Elo is never less
 * search, the top of the scale plays the engine's own best line, and the
 * weakened choice is always one of the candidates searched. */
#include <criterion/criterion.h>

#include "strength.h"

static RootLine line_of(Move first, int score)
{
    RootLine line = { .pv_length = 1, .score = score };
    line.pv[0] = first;
    return line;
}

Test(strength, more_elo_never_searches_fewer_nodes)
{
    uint64_t previous = 0;
    for (int elo = STRENGTH_ELO_MIN; elo <= STRENGTH_ELO_MAX; elo += 10) {
        uint64_t nodes = strength_node_limit(elo);
        cr_assert_geq(nodes, previous, "UCI_Elo %d searches %lu nodes, %d searched %lu", elo,
                      (unsigned long)nodes, elo - 10, (unsigned long)previous);
        previous = nodes;
    }
    cr_assert_gt(strength_node_limit(STRENGTH_ELO_MAX), 100 * strength_node_limit(STRENGTH_ELO_MIN));
}

Test(strength, the_top_of_the_scale_plays_the_best_line)
{
    RootLine lines[STRENGTH_CANDIDATES_MAX] = { line_of(1, 30), line_of(2, 29), line_of(3, 28), line_of(4, -200) };
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(strength_choose_move(lines, STRENGTH_CANDIDATES_MAX, STRENGTH_ELO_MAX, 0), 1);
}

Test(strength, the_bottom_of_the_scale_plays_a_candidate_and_not_always_the_best)
{
    RootLine lines[STRENGTH_CANDIDATES_MAX] = { line_of(1, 30), line_of(2, 20), line_of(3, 10), line_of(4, 0) };
    int chosen[STRENGTH_CANDIDATES_MAX + 1] = { 0 };
    for (int i = 0; i < 1000; i++) {
        Move m = strength_choose_move(lines, STRENGTH_CANDIDATES_MAX, STRENGTH_ELO_MIN, 0);
        cr_assert(m >= 1 && m <= STRENGTH_CANDIDATES_MAX, "move %d is no candidate", m);
        chosen[m]++;
    }
    cr_assert_gt(chosen[1], chosen[4], "the best line is not preferred: %d against %d", chosen[1], chosen[4]);
    cr_assert_lt(chosen[1], 1000, "a 10 cp gap never misjudged at the bottom of the scale");
}

Test(strength, a_line_without_a_move_is_passed_over)
{
    RootLine lines[2] = { { .pv_length = 0, .score = 500 }, line_of(7, -50) };
    cr_assert_eq(strength_choose_move(lines, 2, STRENGTH_ELO_MIN, 9), 7);
    cr_assert_eq(strength_choose_move(lines, 1, STRENGTH_ELO_MIN, 9), 9);
}

Test(strength, more_elo_never_searches_more_candidate_lines)
{
    int previous = STRENGTH_CANDIDATES_MAX;
    for (int elo = STRENGTH_ELO_MIN; elo <= STRENGTH_ELO_MAX; elo += 10) {
        int lines = strength_candidates(elo);
        cr_assert(lines >= 1 && lines <= previous, "UCI_Elo %d searches %d lines, %d searched %d", elo, lines,
                  elo - 10, previous);
        previous = lines;
    }
    cr_assert_eq(strength_candidates(STRENGTH_ELO_MIN), STRENGTH_CANDIDATES_MAX);
    cr_assert_eq(strength_candidates(STRENGTH_ELO_MAX), 1, "the top of the scale is the engine's own single line");
}
