/* test_wdl.c — the win/draw/loss model (src/wdl.c): per mille that add up
 * to 1000, a win chance that grows with the score, an even chance at a(m),
 * the two sides' chances mirrored, and the normalised score's scale. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "score.h"
#include "support.h"
#include "wdl.h"

TestSuite(wdl, .init = board_init);

enum { SCORE_RANGE = 3000 };

Test(wdl, chances_add_up_to_1000_and_none_is_negative)
{
    for (int material = 0; material <= 90; material++)
        for (int score = -SCORE_RANGE; score <= SCORE_RANGE; score += 7) {
            int w, d, l;
            wdl_from_score(score, material, &w, &d, &l);
            cr_assert_eq(w + d + l, 1000, "score %d material %d: %d %d %d", score, material, w, d, l);
            cr_assert(w >= 0 && d >= 0 && l >= 0, "score %d material %d: %d %d %d", score, material, w, d, l);
        }
}

Test(wdl, the_win_chance_grows_and_the_loss_chance_falls_with_the_score)
{
    for (int material = 17; material <= 78; material++) {
        int last_w = -1, last_l = 1001;
        for (int score = -SCORE_RANGE; score <= SCORE_RANGE; score++) {
            int w, d, l;
            wdl_from_score(score, material, &w, &d, &l);
            cr_assert_geq(w, last_w, "material %d: the win chance falls at score %d", material, score);
            cr_assert_leq(l, last_l, "material %d: the loss chance grows at score %d", material, score);
            last_w = w, last_l = l;
        }
        int w, d, l;
        wdl_from_score(SCORE_RANGE, material, &w, &d, &l);
        cr_assert_geq(w, 990, "material %d: +30 pawns wins only %d per mille", material, w);
    }
}

Test(wdl, the_win_chance_is_even_at_the_midpoint)
{
    for (int material = 17; material <= 78; material++) {
        double a = wdl_win_midpoint(material);
        cr_assert(a > 50 && a < 400, "material %d: a(m) = %f is no plausible pawn", material, a);
        int below, above, d, l;
        wdl_from_score((int)floor(a), material, &below, &d, &l);
        wdl_from_score((int)ceil(a), material, &above, &d, &l);
        cr_assert(below <= 500 && above >= 499, "material %d: a(m) = %f gives %d..%d per mille", material, a, below,
                  above);
        int shown_below = wdl_normalize((int)floor(a), material), shown_above = wdl_normalize((int)ceil(a), material);
        cr_assert(shown_below <= 100 && shown_above >= 100, "material %d: a(m) = %f shows as %d..%d, not 100", material,
                  a, shown_below, shown_above);
    }
}

Test(wdl, the_two_sides_are_mirrored)
{
    for (int material = 17; material <= 78; material += 3)
        for (int score = -SCORE_RANGE; score <= SCORE_RANGE; score += 11) {
            int w, d, l, w2, d2, l2;
            wdl_from_score(score, material, &w, &d, &l);
            wdl_from_score(-score, material, &w2, &d2, &l2);
            cr_assert(w == l2 && d == d2 && l == w2, "score ±%d material %d: %d %d %d against %d %d %d", score,
                      material, w, d, l, w2, d2, l2);
            cr_assert_eq(wdl_normalize(-score, material), -wdl_normalize(score, material));
        }
}

Test(wdl, material_is_counted_from_the_board)
{
    Board *start = board_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    cr_assert_eq(wdl_material(start), 78);
    free(start);
    Board *ending = board_from_fen("8/5k2/8/3r4/8/2N5/3P4/4K3 w - - 0 1");
    cr_assert_eq(wdl_material(ending), 3 + 1 + 5);
    free(ending);
}

Test(wdl, the_normalised_score_is_zero_at_zero_and_keeps_its_order)
{
    for (int material = 17; material <= 78; material++) {
        cr_assert_eq(wdl_normalize(0, material), 0);
        for (int score = -SCORE_RANGE; score < SCORE_RANGE; score++)
            cr_assert_leq(wdl_normalize(score, material), wdl_normalize(score + 1, material));
        cr_assert_lt(wdl_normalize(TB_WIN_IN_MAX - 1, material), TB_WIN_IN_MAX, "material %d", material);
        cr_assert_gt(wdl_normalize(-TB_WIN_IN_MAX + 1, material), -TB_WIN_IN_MAX, "material %d", material);
    }
}
