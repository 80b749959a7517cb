/*
 * wdl.c — the win/draw/loss model (docs/wdl.md): with x the score and m the
 * material, P(win) = 1 / (1 + exp((a(m) - x) / b(m))), P(loss) the same for
 * -x, the rest drawn; a and b cubic polynomials in m / 58, fitted by maximum
 * likelihood on the self-play store's games of the built-in net.
 */
#include "wdl.h"

#include <math.h>

#include "bitboard.h"
#include "score.h"

/* Made by: scripts/wdl-fit.py (its defaults: the store's 5 chunks of the
 * built-in net 8afb0184c68a, every 4th held out; 522691 positions fitted).
 * A new net scores on another scale: fit again and paste its lines here. */
static const double wdl_a[4] = { -579.520999, 1670.403535, -1625.137948, 659.620769 };
static const double wdl_b[4] = { -230.207236, 562.899157, -386.075897, 173.280966 };

enum { MATERIAL_MIN = 17, MATERIAL_MAX = 78 };
#define MATERIAL_SCALE 58.0

int wdl_material(const Board *b)
{
    static const int value[PIECE_TYPE_NB] = { 1, 3, 3, 5, 9, 0 };
    int material = 0;
    for (PieceType t = PAWN; t < KING; t++)
        material += value[t] * popcount(b->by_type[t]);
    return material;
}

/* The polynomial's value at the material, clamped to the range fitted. */
static double polynomial(const double c[4], int material)
{
    int m = material < MATERIAL_MIN ? MATERIAL_MIN : material > MATERIAL_MAX ? MATERIAL_MAX : material;
    double t = m / MATERIAL_SCALE;
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
}

double wdl_win_midpoint(int material) { return polynomial(wdl_a, material); }

void wdl_from_score(int score, int material, int *win, int *draw, int *loss)
{
    double a = polynomial(wdl_a, material), b = polynomial(wdl_b, material);
    /* Truncated, not rounded: the two never add up to more than 1000. */
    *win = (int)(1000.0 / (1.0 + exp((a - score) / b)));
    *loss = (int)(1000.0 / (1.0 + exp((a + score) / b)));
    *draw = 1000 - *win - *loss;
}

int wdl_normalize(int score, int material)
{
    if (is_decisive_score(score))
        return score;
    /* Held below the tablebase band, which is shown unscaled: a large
     * evaluation scaled up never reads as a tablebase win. */
    long shown = lround(score * 100.0 / wdl_win_midpoint(material)), limit = TB_WIN_IN_MAX - 1;
    return (int)(shown > limit ? limit : shown < -limit ? -limit : shown);
}
