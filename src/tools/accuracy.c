/* accuracy.c — lichess's win-probability model, marks and accuracy (see accuracy.h). */
#include "tools/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "score.h"

/* lichess's fit of winning chances to centipawns (scalachess eval.scala). */
static const double WIN_MODEL_SLOPE = 0.00368208;

/* bachess's centipawns on the model's scale: slope * knee * asinh(cp / knee).
 * lichess fitted its model to Stockfish's centipawns, which Stockfish scales
 * to a fixed win rate. bachess's agree with them near equality but grow
 * faster once one side is ahead (measured: where bachess says 8.5 pawns on
 * average Stockfish says 6.3, for 12.3 it says 7.9), so an engine score goes
 * through this curve: about linear within the knee, logarithmic beyond.
 * Fitted by scripts/annotate-fit.py on the 793 positions without a mate of
 * games 1-15 of data/annotate/blunder-games.pgn, bachess at 200,000 nodes
 * against Stockfish 15.1 at 1,000,000: least squares between the winning
 * chances of the mapped bachess score and of Stockfish's
 * (docs/results/annotate.md, "The mapping"). */
static const double MODEL_SCALE_SLOPE = 1.1527, MODEL_SCALE_KNEE_CP = 358.0;

/* Drops of winning chances on the [-1, 1] scale (lila Advice.scala), worst first. */
static const double MARK_DROPS[MARK_NB] = { [MARK_BLUNDER] = 0.3, [MARK_MISTAKE] = 0.2, [MARK_INACCURACY] = 0.1 };

/* Mates are judged by how lost (or won) the position was anyway: beyond
 * 10 pawns a mate changes little, beyond 7 it is a mistake (lila MateAdvice).
 * Those are Stockfish's pawns, and bachess's own score of a decided position
 * runs ahead of Stockfish's: where Stockfish says 5 to 10 pawns and neither
 * sees a mate, bachess says 1.59 times as much (the median of 128 positions
 * of rounds 1-6 of the judged set). So the lines are read on the engine's
 * score at 1.59 times lichess's: 15.88 and 11.13 pawns. Read at lichess's own
 * 10 and 7, a move into mate from -11.98 pawns (Stockfish: -5.62, a blunder)
 * would be an inaccuracy; read on the mapped score, which flattens out, the
 * 10-pawn line lay at an engine score of 20, and a move into mate from -17.56
 * (Stockfish saw the mate already) was a mistake
 * (docs/results/annotate.md, "A second look at far falls, and the mate rule
 * on Stockfish's scale"). */
enum { MATE_JUDGE_HOPELESS_CP = 1588, MATE_JUDGE_BAD_CP = 1113 };

/* Accuracy of a move by the win% it lost: lila's exponential fit, plus one
 * point for the uncertainty of the analysis. */
static const double ACCURACY_SCALE = 103.1668100711649, ACCURACY_DECAY = 0.04354415386753951;
static const double ACCURACY_OFFSET = -3.166924740191411, ACCURACY_UNCERTAINTY_BONUS = 1.0;

/* The game accuracy weighs each move by the standard deviation of win% over
 * a window of positions around it (a tenth of the game, 2 to 8 positions),
 * held within these bounds, so calm stretches count less than sharp ones. */
enum { WINDOW_MIN = 2, WINDOW_MAX = 8, WINDOW_PER_MOVES = 10 };
static const double WEIGHT_MIN = 0.5, WEIGHT_MAX = 12.0;

static double clamp_double(double x, double low, double high) { return x < low ? low : x > high ? high : x; }

static int held_score(int score)
{
    int ceiling = ACCURACY_CP_CEILING;
    return score > ceiling ? ceiling : score < -ceiling ? -ceiling : score;
}

int model_centipawns(int score)
{
    if (is_mate_score(score))
        return score;
    return (int)lround(MODEL_SCALE_SLOPE * MODEL_SCALE_KNEE_CP * asinh(score / MODEL_SCALE_KNEE_CP));
}

double winning_chances(int score)
{
    return clamp_double(2.0 / (1.0 + exp(-WIN_MODEL_SLOPE * score)) - 1.0, -1.0, 1.0);
}

double win_percent(int score)
{
    return 50.0 + 50.0 * winning_chances(held_score(score));
}

double move_accuracy(double win_before, double win_after)
{
    if (win_after >= win_before)
        return 100.0;
    double raw = ACCURACY_SCALE * exp(-ACCURACY_DECAY * (win_before - win_after)) + ACCURACY_OFFSET;
    return clamp_double(raw + ACCURACY_UNCERTAINTY_BONUS, 0.0, 100.0);
}

static MoveMark mark_of_drop(double drop)
{
    for (MoveMark m = MARK_BLUNDER; m > MARK_NONE; m--)
        if (drop >= MARK_DROPS[m])
            return m;
    return MARK_NONE;
}

/* A mate let go or walked into: the worse the position already was for the
 * side that suffers it, the milder the mark. `cp` is the mover's score on
 * the side of the move that has no mate. */
static MoveMark mark_of_mate(int cp)
{
    return cp > MATE_JUDGE_HOPELESS_CP ? MARK_INACCURACY : cp > MATE_JUDGE_BAD_CP ? MARK_MISTAKE : MARK_BLUNDER;
}

double chances_lost(int before, int after, Color mover)
{
    return (winning_chances(before) - winning_chances(after)) * (mover == WHITE ? 1 : -1);
}

Judgement judge_move(int before, int after, Color mover)
{
    Judgement j = { MARK_NONE, false, false };
    bool mate_before = is_mate_score(before), mate_after = is_mate_score(after);
    int sign = mover == WHITE ? 1 : -1;
    if (!mate_before && !mate_after) {
        j.mark = mark_of_drop(chances_lost(model_centipawns(before), model_centipawns(after), mover));
        return j;
    }
    int ours_before = sign * before, ours_after = sign * after;
    j.mate_missed = mate_before && ours_before > 0 && !(mate_after && ours_after > 0);
    j.mate_allowed = mate_after && ours_after < 0 && !(mate_before && ours_before < 0);
    if (j.mate_missed) /* a mate against us after it counts as 0 cp, as in lila */
        j.mark = mark_of_mate(mate_after ? 0 : ours_after);
    else if (j.mate_allowed)
        j.mark = mark_of_mate(-ours_before);
    return j;
}

int mark_nag(MoveMark mark)
{
    static const int NAGS[MARK_NB] = { 0, 6, 2, 4 };
    return NAGS[mark];
}

const char *mark_name(MoveMark mark)
{
    static const char *const NAMES[MARK_NB] = { "", "Inaccuracy", "Mistake", "Blunder" };
    return NAMES[mark];
}

int centipawn_loss(int before, int after, Color mover)
{
    int loss = (held_score(before) - held_score(after)) * (mover == WHITE ? 1 : -1);
    return loss > 0 ? loss : 0;
}

int mate_in_moves(int score)
{
    if (!is_mate_score(score))
        return 0;
    int moves = (MATE - abs(score) + 1) / 2;
    return score > 0 ? moves : -moves;
}

void format_pgn_eval(int score, char *out, size_t size)
{
    if (is_mate_score(score))
        snprintf(out, size, "#%d", mate_in_moves(score));
    else
        snprintf(out, size, "%s%d.%02d", score < 0 ? "-" : "", abs(score) / 100, abs(score) % 100);
}

static Color mover_of(int move_index, Color first_mover)
{
    return move_index % 2 == 0 ? first_mover : color_flip(first_mover);
}

/* Population standard deviation of win% over scores[start .. start + size - 1]. */
static double win_percent_deviation(const int *scores, int start, int size)
{
    double sum = 0, squares = 0;
    for (int i = start; i < start + size; i++)
        sum += win_percent(scores[i]);
    double mean = sum / size;
    for (int i = start; i < start + size; i++)
        squares += (win_percent(scores[i]) - mean) * (win_percent(scores[i]) - mean);
    return sqrt(squares / size);
}

/* The weight of move i: the spread of win% in its window. The first moves
 * share the game's first window; after them the window slides along. */
static double volatility_weight(const int *scores, int moves, int i)
{
    int window = moves / WINDOW_PER_MOVES;
    window = window < WINDOW_MIN ? WINDOW_MIN : window > WINDOW_MAX ? WINDOW_MAX : window;
    int start = i < window - 2 ? 0 : i - (window - 2);
    return clamp_double(win_percent_deviation(scores, start, window), WEIGHT_MIN, WEIGHT_MAX);
}

void game_accuracy(const int *scores, int moves, Color first_mover, double accuracy[COLOR_NB])
{
    double weighted[COLOR_NB] = { 0 }, weights[COLOR_NB] = { 0 }, reciprocals[COLOR_NB] = { 0 };
    int counts[COLOR_NB] = { 0 };
    for (int i = 0; i < moves; i++) {
        Color mover = mover_of(i, first_mover);
        double before = win_percent(scores[i]), after = win_percent(scores[i + 1]);
        if (mover == BLACK)
            before = 100.0 - before, after = 100.0 - after;
        double move = move_accuracy(before, after), weight = volatility_weight(scores, moves, i);
        weighted[mover] += move * weight;
        weights[mover] += weight;
        reciprocals[mover] += 1.0 / (move > 1.0 ? move : 1.0); /* lila's harmonic mean holds values at 1 or more */
        counts[mover]++;
    }
    for (Color c = WHITE; c < COLOR_NB; c++)
        accuracy[c] = counts[c] ? (weighted[c] / weights[c] + counts[c] / reciprocals[c]) / 2.0 : -1.0;
}

void average_centipawn_loss(const int *scores, int moves, Color first_mover, int acpl[COLOR_NB])
{
    long total[COLOR_NB] = { 0 };
    int counts[COLOR_NB] = { 0 };
    for (int i = 0; i < moves; i++) {
        Color mover = mover_of(i, first_mover);
        total[mover] += centipawn_loss(scores[i], scores[i + 1], mover);
        counts[mover]++;
    }
    for (Color c = WHITE; c < COLOR_NB; c++)
        acpl[c] = counts[c] ? (int)floor((double)total[c] / counts[c] + 0.5) : -1;
}
