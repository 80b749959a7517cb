/* strength.c — UCI_LimitStrength (see strength.h). */
#include "strength.h"

#include <math.h>

#include "score.h"
#include "splitmix.h"
#include "timer.h"

/* The level of each calibrated UCI_Elo, in between by straight lines.
 * Level L searches 64 * 2^((L - 800) / 120) nodes and misjudges its moves
 * by an error that shrinks to nothing at level 2800 (the scale bachess
 * had before it was measured). The table is fitted to games against
 * Stockfish at the same UCI_Elo (docs/results/strength-limit.md). */
static const struct {
    int elo, level;
} calibration[] = {
    { STRENGTH_ELO_MIN, 800 }, /* below 1500: not measured, the old scale kept */
    { 1500, 1600 }, /* level 1500 scored 41 % in 200 games: -63 Elo, at 0.6 Elo a level */
    { 2000, 2220 },
    /* From 2500 up: the exact engine. Stockfish at 2500, at the control
     * measured (10+0.1), already scores 50 % against bachess at full
     * strength on one thread; above it bachess has nothing left to add. */
    { 2500, 2800 },
    { STRENGTH_ELO_MAX, 2800 },
};
enum { CALIBRATION_POINTS = sizeof calibration / sizeof *calibration };
enum { LEVEL_MIN = 800, LEVEL_EXACT = 2800, LEVEL_FEWER_LINES = 2400 };

static double level_of(int elo)
{
    if (elo <= calibration[0].elo)
        return calibration[0].level;
    for (int i = 1; i < CALIBRATION_POINTS; i++) {
        if (elo <= calibration[i].elo) {
            double t = (double)(elo - calibration[i - 1].elo) / (calibration[i].elo - calibration[i - 1].elo);
            return calibration[i - 1].level + t * (calibration[i].level - calibration[i - 1].level);
        }
    }
    return calibration[CALIBRATION_POINTS - 1].level;
}

uint64_t strength_node_limit(int elo)
{
    return (uint64_t)(64.0 * pow(2.0, (level_of(elo) - LEVEL_MIN) / 120.0));
}

/* Extra lines cost the search depth, and they are only worth it while the
 * misjudgement is large enough to choose among them: from LEVEL_FEWER_LINES
 * up, where it falls below about 30 cp, the lines drop one by one to a
 * single line at LEVEL_EXACT. Without this the top of the scale stayed
 * weaker than its Elo (docs/results/strength-limit.md). */
int strength_candidates(int elo)
{
    double level = level_of(elo);
    if (level <= LEVEL_FEWER_LINES)
        return STRENGTH_CANDIDATES_MAX;
    double dropped = (STRENGTH_CANDIDATES_MAX - 1) * (level - LEVEL_FEWER_LINES) / (LEVEL_EXACT - LEVEL_FEWER_LINES);
    int lines = STRENGTH_CANDIDATES_MAX - (int)(dropped + 0.5);
    return lines < 1 ? 1 : lines;
}

/* A misjudgement in centipawns: a sum of four uniform draws (close to a
 * normal one, without its rare huge values), scaled down as the level
 * rises, to nothing from LEVEL_EXACT up. Not seeded per game: people do
 * not play the same game twice either. */
static int misjudgement(double level)
{
    if (level >= LEVEL_EXACT)
        return 0;
    static uint64_t state;
    if (!state)
        state = (uint64_t)time_now_ms();
    int sum = 0;
    for (int i = 0; i < 4; i++)
        sum += (int)(splitmix64(&state) % 201) - 100;
    return (int)(sum * (LEVEL_EXACT - level) / 8 / 200);
}

Move strength_choose_move(const RootLine *lines, int count, int elo, Move best)
{
    double level = level_of(elo);
    int best_value = -SCORE_INFINITE;
    for (int i = 0; i < count; i++) {
        if (lines[i].pv_length == 0)
            continue;
        int value = lines[i].score + misjudgement(level);
        if (value > best_value) {
            best_value = value;
            best = lines[i].pv[0];
        }
    }
    return best;
}
