/* evalweights.c — the values of the evaluation weights, their names for
 * the tuner, and the trace that records which weights were used.
 *
 * Where the numbers come from: tuning (E6). `bachess tune` took the 658,074
 * quiet positions (not in check, no promotion or winning capture by SEE,
 * past the eighth ply) of the 12,891 finished games in master_games.pgn,
 * labelled with the game's result, and fitted every linear weight so that
 * sigmoid(K x eval) predicts the result: K = 0.005591 fitted at the earlier
 * hand-set weights, then 1500 epochs of Adam (step 1 cp, L2 penalty 1e-9
 * per squared cp of change) on the first 90% of the positions. Mean squared
 * error 0.13249 -> 0.12224 on those, 0.12527 -> 0.11986 on the last 10%
 * (later games, never trained on). The middlegame pawn is fixed at 100 and
 * the piece-square tables are centred (their mean is in the material
 * value), so the scale stays in centipawns. The king-danger weights, which
 * are not linear, keep their hand-set values. To tune again:
 *     bachess tune extract data/master_games.pgn /tmp/positions.txt
 *     bachess tune run /tmp/positions.txt --epochs 1500 --out /tmp/weights.c
 * and replace the initializer below with /tmp/weights.c.
 */
#include "evalweights.h"

#include <stdio.h>
#include <string.h>

EvalWeights eval_weights = {
    .material = { [PAWN] = S(100, 154), [KNIGHT] = S(250, 455), [BISHOP] = S(301, 520),
                  [ROOK] = S(356, 833), [QUEEN] = S(956, 1326), [KING] = S(0, 0) },
    .psqt = {
        [PAWN] = {
            S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
            S( -2, 32), S( -2, -3), S( 34, 57), S( 49, 52), S( 11, 33), S( 38, 30), S( 31, 28), S(-15,  6),
            S(-27, 20), S(  3,  9), S( 13, 10), S( 21,-10), S(122,  4), S( 34, 17), S( 60, 44), S(-42, 38),
            S(-35, 34), S(-24, 10), S(-26, 13), S( -1,-31), S( 54,-35), S( -8, -3), S(-13,  6), S(-23, 11),
            S(-47, 20), S(-36, 22), S( -9,-24), S( -2,-44), S( 12,-35), S(  9, -9), S( 21,-14), S( -7,-33),
            S(-51, 15), S(-34,-13), S(-49, -5), S(-19,-28), S( -4,-18), S( 14,-30), S( 18,-36), S(-20,-48),
            S(-37,  8), S(-25, -6), S(-19,  1), S( -3,-13), S(  0,  0), S( 19,-12), S( 38,-39), S(-22,-35),
            S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0), S(  0,  0),
        },
        [KNIGHT] = {
            S(-42,-21), S( -6,  0), S( 14, 13), S(  7,  4), S( -5, -6), S( -9, -1), S( -8,  6), S(-25,-17),
            S(  6, 14), S( 25,  6), S( 26, -3), S( 16, 23), S( 51, 32), S( 25, 12), S(-13, -3), S(-33,  9),
            S(  0, 10), S( 41,  9), S( 48,  9), S( 52, -8), S( 26, -2), S(  2,  6), S(  5, 15), S( 15,  0),
            S( 20,  7), S( -5, -1), S( 19, -6), S(  2, 22), S(-15, 27), S(  4, 48), S(  5, 29), S(-16,  4),
            S(-30,  5), S( 30, 13), S(  1, 24), S( -3,  9), S(  2, 25), S(  7,  8), S( 23,  9), S(  8, 10),
            S( -1,-37), S(-30,-24), S(-29,-36), S(  5, 23), S(-10,  5), S(  5,-41), S(  7,-27), S( 15,-11),
            S( 14,-19), S(-48, 31), S(-24,-43), S( -6,-21), S( -8,-31), S(  9,-20), S(-36, 20), S( 16, -2),
            S(-75,-37), S( 11,-20), S(-47, -9), S(-41, 44), S(  7,  1), S( -1,-38), S(  9,-17), S( -8,-36),
        },
        [BISHOP] = {
            S(-13,  6), S(-19,-28), S(  0, 26), S(-10,  0), S(-10, -5), S(-11, -4), S( -6,-14), S(-13,-21),
            S(-19, 14), S(-37, 14), S( -5,  6), S( 10,  1), S(  6, 25), S( 28,-15), S(-37, -3), S(-30,-11),
            S( -4,-24), S(-16, 40), S( 10,  2), S(-20, -3), S(  4, 13), S( 39,  9), S( 45, 30), S( -3, 20),
            S(-63, -9), S(-14,-15), S(  8,-14), S( 31, 52), S( 28,  9), S( 28, 19), S(  1,-12), S(-50,  5),
            S( 61,-11), S(-11,  1), S( 11, 18), S( 14, 19), S(  3,  5), S(  3,  2), S(-16, 22), S( 27, 23),
            S(  0, -4), S( 53, -6), S(-28, 11), S(  8, 19), S(  1,  8), S( -4, -1), S( 13,-10), S( -9,  5),
            S( 15,-27), S(  2,-30), S( 41, -9), S(-21,-18), S(-18,-14), S( 22,-31), S( 29,-23), S(-32,-23),
            S(-25,-34), S( 37, -1), S( -1,  4), S(-31,  2), S(-21, -5), S(  3, 13), S(  0,  5), S( 16,-25),
        },
        [ROOK] = {
            S(  1, 12), S( 30, 19), S( -7, 16), S( 45,  6), S( 28, 12), S( 10, 25), S( 17, 27), S( 12, 15),
            S(  6, 13), S(  3, 17), S(  5,  8), S(  4, 19), S( 26,-24), S(  1, 10), S( 27, 12), S( 32,-12),
            S( -1, 13), S( -1, 33), S( 31, 18), S(-10, 15), S( 47, -1), S(  7,  8), S( 44, 30), S(-16,  9),
            S( 12, 22), S( 11, 15), S(  5, -6), S(  2, 18), S(-11, -7), S(  8, 23), S( 44, 18), S( -6, -4),
            S(-17, 11), S(-34, 13), S(-82, 10), S(-25,  6), S(-20,-21), S(-16, 28), S( -1,  2), S(  0,  0),
            S(-37, -3), S(  9,-14), S(-24,-28), S(-13,-35), S( -2,-10), S(-11,-17), S( -1, -3), S(  8,-25),
            S(-15, -5), S(-13,  0), S(-33, -1), S(-33,-20), S(-11,-17), S( 10,-73), S( 16, -8), S(-27,-19),
            S(-17,-11), S(-16,-13), S( -7, -8), S( -3,-17), S(  5,-38), S(-11,-11), S( 27,-41), S(-12, -9),
        },
        [QUEEN] = {
            S( 10,  0), S( 26,  8), S(  5, -2), S(-10,-20), S(  0, -2), S( -8,  2), S(  9, 10), S( -7, -4),
            S(  3, 23), S(-18, -1), S( 17,  9), S(-14,  6), S(  4,-11), S(-35, -4), S( 15, -4), S(  9, 14),
            S(-22, -1), S(  5, -5), S(  6, 10), S( 10, 11), S( 13, -6), S( -4, 10), S( 13, -9), S( -6, 11),
            S(  3, 22), S(  1, 12), S(  9, 22), S( 21,-20), S(-18, 15), S( -5, -5), S( -7, -7), S( 12, -9),
            S(  2,  1), S(-19,  9), S(-23, -6), S(-25,  2), S(-15,  5), S(-12,  1), S( 13,-29), S( 20,-23),
            S( -8,  0), S( 18,-13), S( 17,-20), S(-16, -1), S(-10, 19), S( 13,-17), S( 27,-13), S( 26,-14),
            S(-34, 34), S(-15, 13), S( 23,-22), S(  9,-18), S( 11, -5), S(  3,-13), S(  4,-22), S( 32,-12),
            S( 15, 11), S(-24, 19), S( -9, 12), S(  0, 31), S( 15, 37), S(-19,-13), S(-43,-14), S(-16,-12),
        },
        [KING] = {
            S(-52,-23), S(-60,-28), S(-56,-15), S(-45, 37), S(-51,  1), S(-51, -9), S(-50,  2), S(-53,-30),
            S(-38,-24), S(-38,  8), S(-30, 11), S(-31, 25), S(-35, 13), S(-29, 33), S(-34,  6), S(-40,-22),
            S(-18, 35), S(-18, 47), S(-17, 55), S(-19, 22), S(-18, 37), S(-14, 50), S(-14, 42), S(-14, 26),
            S( -5, 13), S(-11, 25), S(-18, 38), S(-20, 35), S( -5, 27), S( -6, 41), S(  2, 29), S( -2, 27),
            S(  6, -1), S( 10,  6), S( -1, 16), S(  9, 23), S( 11, 32), S( 29, 16), S( 16, 20), S(-13,-18),
            S(  8,-32), S( 13, 18), S( 36, -2), S(  6, -4), S( 36, -8), S( 52,  3), S( -8,  1), S( 29,-18),
            S( 57,-48), S( 46,-36), S( 50,-10), S( 28,-29), S( 40,-34), S( 42, -9), S(107,-32), S( 57,-36),
            S( 42,-89), S( 76,-47), S( 65,-30), S( -8,-28), S(-10,-16), S(-12,-18), S( 43,-36), S( 28,-88),
        },
    },
    .bishop_pair = S(45, 105),
    .minor_on_back_rank = S(0, -11),
    .castling_right = S(2, 1),
    .king_lost_castling = S(-9, 0),
    .blocked_center_pawn = S(-36, 2),
    .knight_mobility = {
        S(-22, -74), S(-27, -89), S(-18, -15), S(-18, 10), S(-3, 34), S(10, 54), S(18, 67),
        S(26, 79), S(31, 69),
    },
    .bishop_mobility = {
        S(-13, -65), S(-20, -15), S(0, -11), S(0, 10), S(7, 20), S(14, 38), S(17, 36),
        S(19, 40), S(20, 55), S(10, 59), S(31, 58), S(29, 55), S(53, 52), S(52, 36),
    },
    .rook_mobility = {
        S(-47, -57), S(-22, -41), S(-11, -34), S(-16, 22), S(-16, 42), S(-10, 39), S(-12, 56),
        S(4, 57), S(2, 68), S(14, 64), S(14, 68), S(23, 67), S(35, 73), S(48, 72),
        S(54, 66),
    },
    .queen_mobility = {
        S(-15, -30), S(-19, -16), S(3, -24), S(5, -16), S(2, -36), S(-3, -10), S(3, -26),
        S(2, 7), S(0, 55), S(3, 39), S(6, 42), S(11, 38), S(14, 43), S(19, 58),
        S(26, 45), S(30, 50), S(21, 70), S(27, 75), S(35, 79), S(24, 70), S(39, 68),
        S(56, 57), S(28, 40), S(27, 39), S(34, 56), S(24, 40), S(30, 51), S(29, 48),
    },
    .knight_on_rim = S(-6, 5),
    .knight_outpost = S(5, 10),
    .bishop_outpost = S(23, 23),
    .bad_bishop_pawn = S(-14, 0),
    .bad_bishop_blocked = S(-8, -26),
    .rook_open_file = S(16, 24),
    .rook_semi_open_file = S(9, 16),
    .rook_on_seventh = S(-13, 27),
    .pawn_doubled = S(-25, -3),
    .pawn_isolated = S(-13, -23),
    .pawn_backward = S(-17, -27),
    .pawn_connected = { S(0, 0), S(-6, 10), S(4, 15), S(6, 12), S(22, 41), S(98, 50), S(50, 66), S(0, 0) },
    .pawn_ram = { S(0, 0), S(-1, -1), S(6, 18), S(-2, 0), S(-14, -20), S(-11, -3), S(0, 0), S(0, 0) },
    .passed_pawn = { S(0, 0), S(-16, 41), S(-29, 27), S(-29, 54), S(-3, 69), S(34, 122), S(90, 192), S(0, 0) },
    .passer_free = { S(0, 0), S(15, -1), S(27, 0), S(-12, 9), S(19, 32), S(2, 75), S(37, 103), S(0, 0) },
    .passer_own_king_distance = S(-2, -6),
    .passer_enemy_king_distance = S(2, 11),
    .passer_unstoppable = S(0, 235),
    .rook_behind_passer = S(-1, 43),
    .rook_behind_enemy_passer = S(19, 71),
    .king_shelter = {
        { S(-42, 11), S(-6, -7), S(-27, 0), S(-31, 4), S(-15, -11), S(-6, 3), S(-37, 0), S(0, 0) },
        { S(-49, -3), S(-6, -29), S(-14, -18), S(-32, 12), S(-33, 15), S(-40, 11), S(-61, 10), S(0, 0) },
    },
    .king_storm = {
        { S(-21, 22), S(18, 16), S(-6, -19), S(-52, 21), S(-12, 14), S(1, -3), S(-2, -7), S(0, 0) },
        { S(0, 0), S(0, 0), S(-2, -10), S(-30, -24), S(16, -18), S(15, 13), S(-1, -5), S(0, 0) },
    },
    .king_tropism = { [PAWN] = S(0, 0), [KNIGHT] = S(8, 4), [BISHOP] = S(5, 0),
                      [ROOK] = S(11, 0), [QUEEN] = S(-3, 56), [KING] = S(0, 0) },
    .king_attacker = { [PAWN] = S(0, 0), [KNIGHT] = S(16, 2), [BISHOP] = S(16, 2),
                       [ROOK] = S(24, 4), [QUEEN] = S(40, 6), [KING] = S(0, 0) },
    .king_zone_attack = S(6, 1),
    .king_safe_check = { [PAWN] = S(0, 0), [KNIGHT] = S(40, 4), [BISHOP] = S(25, 4),
                         [ROOK] = S(45, 6), [QUEEN] = S(35, 6), [KING] = S(0, 0) },
    .king_weak_square = S(10, 1),
    .king_no_queen = S(-60, -6),
    .threat_by_pawn = S(42, 61),
    .threat_by_minor = { [PAWN] = S(5, 49), [KNIGHT] = S(13, 12), [BISHOP] = S(4, 28),
                         [ROOK] = S(36, 43), [QUEEN] = S(29, 31), [KING] = S(0, 0) },
    .threat_by_rook = { [PAWN] = S(20, 45), [KNIGHT] = S(36, 32), [BISHOP] = S(37, 52),
                        [ROOK] = S(-19, 12), [QUEEN] = S(51, 45), [KING] = S(0, 0) },
    .king_pawn_distance = S(15, -27),
    .tempo = S(12, 9),
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
