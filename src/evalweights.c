/* evalweights.c — the starting values of the evaluation weights, their
 * names for a tuner, and the trace that records which weights were used.
 *
 * Where the numbers come from: material is the seed's table (Q 900, R 500,
 * B 325, N 300, P 100) in the middlegame, with the endgame shifted the way
 * experience says (pawns and rooks gain, knights lose). The piece-square
 * and mobility tables were generated from simple shapes and then adjusted
 * by hand: knights and queens like the centre (distance to the edge),
 * bishops the centre and the long diagonals, rooks the seventh rank, the
 * king its castled corners in the middlegame and the centre in the endgame;
 * mobility grows like the square root of the number of squares. Every other
 * weight is a plain engine-like guess. All of it is meant to be replaced by
 * tuning (E6).
 */
#include "evalweights.h"

#include <stdio.h>
#include <string.h>

EvalWeights eval_weights = {
    .material = { [PAWN] = S(100, 120), [KNIGHT] = S(300, 290), [BISHOP] = S(325, 320),
                  [ROOK] = S(500, 530), [QUEEN] = S(900, 940) },
    .psqt = {
        [PAWN] = {
            S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
            S( 21, 30), S( 25, 30), S( 25, 30), S( 25, 30), S( 25, 30), S( 25, 30), S( 25, 30), S( 21, 30),
            S( 10, 16), S( 14, 16), S( 14, 16), S( 24, 16), S( 24, 16), S( 14, 16), S( 14, 16), S( 10, 16),
            S(  4,  6), S(  8,  6), S( 13,  6), S( 22,  6), S( 22,  6), S( 13,  6), S(  8,  6), S(  4,  6),
            S(  0,  0), S(  4,  0), S(  9,  0), S( 16,  0), S( 16,  0), S(  9,  0), S(  4,  0), S(  0,  0),
            S( -4, -2), S(  0, -2), S(  2, -2), S(  0, -2), S(  0, -2), S(  2, -2), S(  0, -2), S( -4, -2),
            S( -4,  0), S(  0,  0), S( -2,  0), S(-10,  0), S(-10,  0), S( -2,  0), S(  0,  0), S( -4,  0),
            S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
        },
        [KNIGHT] = {
            S(-18,-15), S(-12,-10), S( -6, -5), S(  0,  0), S(  0,  0), S( -6, -5), S(-12,-10), S(-18,-15),
            S(-12,-10), S( -6, -5), S(  0,  0), S(  6,  5), S(  6,  5), S(  0,  0), S( -6, -5), S(-12,-10),
            S( -2, -5), S(  4,  0), S( 10,  5), S( 16, 10), S( 16, 10), S( 10,  5), S(  4,  0), S( -2, -5),
            S(  4,  0), S( 10,  5), S( 16, 10), S( 22, 15), S( 22, 15), S( 16, 10), S( 10,  5), S(  4,  0),
            S(  4,  0), S( 10,  5), S( 16, 10), S( 22, 15), S( 22, 15), S( 16, 10), S( 10,  5), S(  4,  0),
            S( -6, -5), S(  0,  0), S(  6,  5), S( 12, 10), S( 12, 10), S(  6,  5), S(  0,  0), S( -6, -5),
            S(-12,-10), S( -6, -5), S(  0,  0), S(  6,  5), S(  6,  5), S(  0,  0), S( -6, -5), S(-12,-10),
            S(-24,-15), S(-18,-10), S(-12, -5), S( -6,  0), S( -6,  0), S(-12, -5), S(-18,-10), S(-24,-15),
        },
        [BISHOP] = {
            S( -4, -9), S( -6, -6), S( -3, -3), S(  0,  0), S(  0,  0), S( -3, -3), S( -6, -6), S( -4, -9),
            S( -6, -6), S(  2, -3), S(  0,  0), S(  3,  3), S(  3,  3), S(  0,  0), S(  2, -3), S( -6, -6),
            S( -3, -3), S(  0,  0), S(  8,  3), S(  6,  6), S(  6,  6), S(  8,  3), S(  0,  0), S( -3, -3),
            S(  0,  0), S(  3,  3), S(  6,  6), S( 14,  9), S( 14,  9), S(  6,  6), S(  3,  3), S(  0,  0),
            S(  0,  0), S(  3,  3), S(  6,  6), S( 14,  9), S( 14,  9), S(  6,  6), S(  3,  3), S(  0,  0),
            S( -3, -3), S(  0,  0), S(  8,  3), S(  6,  6), S(  6,  6), S(  8,  3), S(  0,  0), S( -3, -3),
            S( -6, -6), S(  2, -3), S(  0,  0), S(  3,  3), S(  3,  3), S(  0,  0), S(  2, -3), S( -6, -6),
            S( -8, -9), S(-10, -6), S( -7, -3), S( -4,  0), S( -4,  0), S( -7, -3), S(-10, -6), S( -8, -9),
        },
        [ROOK] = {
            S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
            S( 10,  6), S( 10,  6), S( 10,  6), S( 10,  6), S( 10,  6), S( 10,  6), S( 10,  6), S( 10,  6),
            S( -4,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S( -4,  0),
            S( -4,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S( -4,  0),
            S( -4,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S( -4,  0),
            S( -4,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S( -4,  0),
            S( -4,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S( -4,  0),
            S(  0,  0), S(  0,  0), S(  0,  0), S(  5,  0), S(  5,  0), S(  0,  0), S(  0,  0), S(  0,  0),
        },
        [QUEEN] = {
            S(-10,-12), S( -8, -8), S( -6, -4), S( -4,  0), S( -4,  0), S( -6, -4), S( -8, -8), S(-10,-12),
            S( -8, -8), S( -6, -4), S( -4,  0), S( -2,  4), S( -2,  4), S( -4,  0), S( -6, -4), S( -8, -8),
            S( -6, -4), S( -4,  0), S( -2,  4), S(  0,  8), S(  0,  8), S( -2,  4), S( -4,  0), S( -6, -4),
            S(  0,  0), S(  2,  4), S(  4,  8), S(  6, 12), S(  6, 12), S(  4,  8), S(  2,  4), S(  0,  0),
            S(  0,  0), S(  2,  4), S(  4,  8), S(  6, 12), S(  6, 12), S(  4,  8), S(  2,  4), S(  0,  0),
            S( -2, -4), S(  0,  0), S(  2,  4), S(  4,  8), S(  4,  8), S(  2,  4), S(  0,  0), S( -2, -4),
            S( -4, -8), S( -2, -4), S(  0,  0), S(  2,  4), S(  2,  4), S(  0,  0), S( -2, -4), S( -4, -8),
            S( -6,-12), S( -4, -8), S( -2, -4), S(  0,  0), S(  0,  0), S( -2, -4), S( -4, -8), S( -6,-12),
        },
        [KING] = {
            S(-95,-24), S(-95,-16), S(-95, -8), S(-95,  0), S(-95,  0), S(-95, -8), S(-95,-16), S(-95,-24),
            S(-80,-16), S(-80, -8), S(-80,  0), S(-80,  8), S(-80,  8), S(-80,  0), S(-80, -8), S(-80,-16),
            S(-65, -8), S(-65,  0), S(-65,  8), S(-65, 16), S(-65, 16), S(-65,  8), S(-65,  0), S(-65, -8),
            S(-50,  0), S(-50,  8), S(-50, 16), S(-50, 24), S(-50, 24), S(-50, 16), S(-50,  8), S(-50,  0),
            S(-35,  0), S(-35,  8), S(-35, 16), S(-35, 24), S(-35, 24), S(-35, 16), S(-35,  8), S(-35,  0),
            S(-20, -8), S(-20,  0), S(-20,  8), S(-20, 16), S(-20, 16), S(-20,  8), S(-20,  0), S(-20, -8),
            S(  0,-16), S(  0, -8), S(-10,  0), S(-20,  8), S(-20,  8), S(-10,  0), S(  0, -8), S(  0,-16),
            S( 20,-30), S( 30,-22), S( 15,-14), S( -5, -6), S(  0, -6), S( -5,-14), S( 30,-22), S( 20,-30),
        },
    },

    .bishop_pair = S(30, 50),

    .minor_on_back_rank = S(-8, 0),
    .castling_right = S(6, 0),
    .king_lost_castling = S(-25, 0),
    .blocked_center_pawn = S(-15, 0),

    .knight_mobility = {
        S(-30, -40), S(-11, -19), S(-2, -10), S(4, -3), S(9, 2), S(13, 7), S(18, 12),
        S(21, 16), S(25, 20),
    },
    .bishop_mobility = {
        S(-25, -40), S(-7, -16), S(0, -7), S(6, 1), S(11, 7), S(15, 13), S(19, 18),
        S(23, 22), S(26, 27), S(29, 31), S(32, 35), S(35, 38), S(37, 42), S(40, 45),
    },
    .rook_mobility = {
        S(-20, -40), S(-7, -15), S(-1, -4), S(3, 4), S(7, 11), S(10, 17), S(13, 22),
        S(15, 27), S(18, 32), S(20, 36), S(22, 40), S(24, 44), S(26, 48), S(28, 52),
        S(30, 55),
    },
    .queen_mobility = {
        S(-15, -30), S(-6, -15), S(-3, -8), S(0, -3), S(2, 1), S(4, 4), S(6, 8),
        S(8, 11), S(9, 14), S(11, 16), S(12, 19), S(14, 21), S(15, 23), S(16, 26),
        S(17, 28), S(19, 30), S(20, 32), S(21, 33), S(22, 35), S(23, 37), S(24, 39),
        S(25, 41), S(26, 42), S(27, 44), S(27, 45), S(28, 47), S(29, 49), S(30, 50),
    },

    .knight_on_rim = S(-8, -8),
    .knight_outpost = S(20, 10),
    .bishop_outpost = S(12, 6),
    .bad_bishop_pawn = S(-2, -4),
    .bad_bishop_blocked = S(-4, -6),
    .rook_open_file = S(25, 10),
    .rook_semi_open_file = S(12, 6),
    .rook_on_seventh = S(10, 25),

    .pawn_doubled = S(-8, -20),
    .pawn_isolated = S(-10, -12),
    .pawn_backward = S(-8, -8),
    .pawn_connected = { 0, S(3, 0), S(5, 3), S(8, 5), S(12, 10), S(25, 25), S(40, 50), 0 },
    .pawn_ram = { 0, S(-12, -4), S(-8, -2), S(-2, 0), 0, 0, 0, 0 },
    .passed_pawn = { 0, S(0, 10), S(0, 15), S(8, 25), S(20, 45), S(45, 80), S(80, 130), 0 },

    .passer_free = { 0, 0, S(0, 3), S(2, 8), S(5, 15), S(10, 30), S(20, 50), 0 },
    .passer_own_king_distance = S(0, -3),
    .passer_enemy_king_distance = S(0, 6),
    .passer_unstoppable = S(0, 250),
    .rook_behind_passer = S(8, 20),
    .rook_behind_enemy_passer = S(5, 15),

    .king_shelter = {
        { S(-35, 0), 0, S(-8, 0), S(-24, 0), S(-30, 0), S(-33, 0), S(-35, 0), 0 },
        { S(-50, 0), 0, S(-12, 0), S(-35, 0), S(-42, 0), S(-46, 0), S(-50, 0), 0 },
    },
    .king_storm = {
        { 0, S(-10, 0), S(-30, 0), S(-15, 0), S(-5, 0), 0, 0, 0 },
        { 0, 0, S(-10, 0), S(-5, 0), 0, 0, 0, 0 },
    },
    .king_tropism = { [KNIGHT] = S(2, 0), [BISHOP] = S(1, 0), [ROOK] = S(2, 0), [QUEEN] = S(3, 1) },
    .king_attacker = { [KNIGHT] = S(16, 2), [BISHOP] = S(16, 2), [ROOK] = S(24, 4), [QUEEN] = S(40, 6) },
    .king_zone_attack = S(6, 1),
    .king_safe_check = { [KNIGHT] = S(40, 4), [BISHOP] = S(25, 4), [ROOK] = S(45, 6), [QUEEN] = S(35, 6) },
    .king_weak_square = S(10, 1),
    .king_no_queen = S(-60, -6),

    .threat_by_pawn = S(40, 30),
    .threat_by_minor = { [PAWN] = S(5, 15), [KNIGHT] = S(20, 20), [BISHOP] = S(20, 20),
                         [ROOK] = S(35, 25), [QUEEN] = S(35, 25) },
    .threat_by_rook = { [PAWN] = S(5, 15), [KNIGHT] = S(15, 15), [BISHOP] = S(15, 15),
                        [ROOK] = S(10, 10), [QUEEN] = S(40, 20) },

    .king_pawn_distance = S(0, -4),

    .tempo = S(15, 8),
};

/* ---- Names ----------------------------------------------------------- */

#define FIELD_SIZE(field) ((int)(sizeof(((EvalWeights *)0)->field) / sizeof(Score)))
#define FIELD_INDEX(field) ((int)(offsetof(EvalWeights, field) / sizeof(Score)))
#define WEIGHT(field, linear) { #field, FIELD_INDEX(field), FIELD_SIZE(field), 0, 0, linear }
#define TABLE(field, linear) { #field, FIELD_INDEX(field), FIELD_SIZE(field), 1, 0, linear }
#define TABLE2(field, linear) \
    { #field, FIELD_INDEX(field), FIELD_SIZE(field), 2, FIELD_SIZE(field[0]), linear }

/* In the order of the struct; a test checks that they tile it exactly. */
const WeightInfo weight_info[] = {
    TABLE(material, true),
    TABLE2(psqt, true),
    WEIGHT(bishop_pair, true),
    WEIGHT(minor_on_back_rank, true),
    WEIGHT(castling_right, true),
    WEIGHT(king_lost_castling, true),
    WEIGHT(blocked_center_pawn, true),
    TABLE(knight_mobility, true),
    TABLE(bishop_mobility, true),
    TABLE(rook_mobility, true),
    TABLE(queen_mobility, true),
    WEIGHT(knight_on_rim, true),
    WEIGHT(knight_outpost, true),
    WEIGHT(bishop_outpost, true),
    WEIGHT(bad_bishop_pawn, true),
    WEIGHT(bad_bishop_blocked, true),
    WEIGHT(rook_open_file, true),
    WEIGHT(rook_semi_open_file, true),
    WEIGHT(rook_on_seventh, true),
    WEIGHT(pawn_doubled, true),
    WEIGHT(pawn_isolated, true),
    WEIGHT(pawn_backward, true),
    TABLE(pawn_connected, true),
    TABLE(pawn_ram, true),
    TABLE(passed_pawn, true),
    TABLE(passer_free, true),
    WEIGHT(passer_own_king_distance, true),
    WEIGHT(passer_enemy_king_distance, true),
    WEIGHT(passer_unstoppable, true),
    WEIGHT(rook_behind_passer, true),
    WEIGHT(rook_behind_enemy_passer, true),
    TABLE2(king_shelter, true),
    TABLE2(king_storm, true),
    TABLE(king_tropism, true),
    TABLE(king_attacker, false),
    WEIGHT(king_zone_attack, false),
    TABLE(king_safe_check, false),
    WEIGHT(king_weak_square, false),
    WEIGHT(king_no_queen, false),
    WEIGHT(threat_by_pawn, true),
    TABLE(threat_by_minor, true),
    TABLE(threat_by_rook, true),
    WEIGHT(king_pawn_distance, true),
    WEIGHT(tempo, true),
};
const int weight_info_count = (int)(sizeof weight_info / sizeof weight_info[0]);

int weight_index(const char *name)
{
    for (int i = 0; i < weight_info_count; i++)
        if (strcmp(weight_info[i].name, name) == 0)
            return weight_info[i].index;
    return -1;
}

void weight_describe(int index, char *out, size_t size)
{
    for (int i = 0; i < weight_info_count; i++) {
        const WeightInfo *w = &weight_info[i];
        int k = index - w->index;
        if (k < 0 || k >= w->count)
            continue;
        if (w->dims == 0)
            snprintf(out, size, "%s", w->name);
        else if (w->dims == 1)
            snprintf(out, size, "%s[%d]", w->name, k);
        else
            snprintf(out, size, "%s[%d][%d]", w->name, k / w->row, k % w->row);
        return;
    }
    snprintf(out, size, "?");
}

/* ---- Trace ----------------------------------------------------------- */

const char *const eval_term_names[TERM_NB] = {
    [TERM_MATERIAL] = "material",       [TERM_PSQT] = "piece-square",
    [TERM_DEVELOPMENT] = "development", [TERM_MOBILITY] = "mobility",
    [TERM_PIECES] = "pieces",           [TERM_PAWNS] = "pawn structure",
    [TERM_PASSED] = "passed pawns",     [TERM_KING_SAFETY] = "king safety",
    [TERM_THREATS] = "threats",         [TERM_KING_ACTIVITY] = "king activity",
    [TERM_TEMPO] = "tempo",
};

void eval_trace_record(EvalTrace *t, EvalTerm term, Color c, const Score *weight, int count)
{
    t->term[term][c] += *weight * count;
    t->coeff[weight - weights_array()][c] += (int16_t)count;
}

void eval_trace_record_value(EvalTrace *t, EvalTerm term, Color c, Score value)
{
    t->term[term][c] += value;
    t->nonlinear[c] += value;
}
