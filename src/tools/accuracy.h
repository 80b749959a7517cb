#pragma once
/*
 * accuracy.h — how much a move threw away, for `bachess annotate`
 * (docs/annotate.md): lichess's model and rules, read on bachess's
 * normalised score.
 *
 * A position is its search's score (centipawns from White's side, or MATE
 * less the plies to mate as in score.h) and its material (wdl_material).
 * Its score is first normalised by bachess's win/draw/loss model
 * (wdl_normalize, wdl.h): 100 is an even chance to win at any material, as
 * on Stockfish's normalised centipawns, the scale lichess fitted its curve
 * to. Three measures come from it:
 *
 * - Winning chances, in [-1, 1]: 2 / (1 + exp(-0.00368208 * cp)) - 1 of
 *   the normalised score, lichess's curve (scalachess eval.scala). Win% is
 *   the same on [0, 100]: 50 + 50 * chances, with the score first held
 *   within ±1000 cp (a mate counts as ±1000).
 * - A mark per move (lila's Advice.scala): a drop of the mover's winning
 *   chances of 0.1, 0.2 or 0.3 (mark_threshold()) is an inaccuracy, a
 *   mistake or a blunder. Mates are judged apart, as lichess does: walking
 *   into a forced mate, or letting one go, is a blunder unless the position
 *   was already beyond 7 or 10 pawns of the normalised score.
 * - Accuracy (lila's AccuracyPercent.scala): per move 103.1668 *
 *   exp(-0.04354 * win% lost) - 3.1669, plus 1 for the analysis's own
 *   uncertainty, within [0, 100]; per game the mean of a volatility-weighted
 *   mean (each move weighted by the spread of win% around it) and a
 *   harmonic mean of the moves' accuracies. And the average centipawn loss
 *   (lila's AccuracyCP.scala) of the normalised scores, held within ±1000.
 */
#include <stdbool.h>
#include <stddef.h>

#include "types.h"

enum { ACCURACY_CP_CEILING = 1000 };

/* A position of the game as the review weighs it. */
typedef struct {
    int score;    /* the search's, White's side: centipawns or a mate */
    int material; /* wdl_material of the position */
} ReviewScore;

/* White's winning chances of a position, in [-1, 1]: lichess's curve of
 * its normalised score, not held (the marks use it so, as lila does). */
double winning_chances(ReviewScore s);
/* White's win% of a position, in [0, 100], the normalised score held
 * within ±ACCURACY_CP_CEILING. */
double win_percent(ReviewScore s);
/* The accuracy of one move, from the mover's win% before and after it. */
double move_accuracy(double win_before, double win_after);

/* The mover's loss of winning chances from the position `before` to the
 * position `after` (negative: a gain); what the marks of scores that are
 * not mates are read from. */
double chances_lost(ReviewScore before, ReviewScore after, Color mover);

typedef enum { MARK_NONE, MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER, MARK_NB } MoveMark;

typedef struct {
    MoveMark mark;
    bool mate_missed;   /* the mover had a forced mate before the move, none after */
    bool mate_allowed;  /* the mover is mated by force after the move, was not before */
} Judgement;

/* The least drop of the mover's winning chances that earns `mark` (a
 * mark other than MARK_NONE) when neither score is a mate. */
double mark_threshold(MoveMark mark);
/* The mark of a move by `mover` from the position `before` to `after`. */
Judgement judge_move(ReviewScore before, ReviewScore after, Color mover);
/* The move's Numeric Annotation Glyph: 6 (?!), 2 (?), 4 (??); 0 for none. */
int mark_nag(MoveMark mark);
/* "Inaccuracy", "Mistake", "Blunder"; "" for none. */
const char *mark_name(MoveMark mark);

/* A position's score normalised (wdl_normalize): 100 is an even chance to
 * win, at any material; a mate as it is. What the ACPL counts. */
int review_centipawns(ReviewScore s);
/* Centipawns the mover lost, scores held within ±ACCURACY_CP_CEILING. */
int centipawn_loss(int before, int after, Color mover);

/* Mate distance in moves from White's side (positive: White mates), or 0
 * when the score is not a mate. */
int mate_in_moves(int score);
/* A score as lichess's [%eval] reads it: pawns with two decimals ("0.17",
 * "-1.30") or a mate in moves ("#3", "#-2"). */
void format_pgn_eval(int score, char *out, size_t size);

/* Game accuracy of each side from White's win% of the positions of a game:
 * wins[0] before the first move, wins[k] after move k, `moves` moves, the
 * first by `first_mover`. A side that made no move gets -1. */
void game_accuracy(const double *wins, int moves, Color first_mover, double accuracy[COLOR_NB]);
/* Average centipawn loss of each side over the positions' centipawns
 * (review_centipawns), rounded; -1 for a side that made no move. */
void average_centipawn_loss(const int *scores, int moves, Color first_mover, int acpl[COLOR_NB]);
