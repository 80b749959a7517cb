#pragma once
/*
 * accuracy.h — how much a move threw away, in lichess's terms, for
 * `bachess annotate` (docs/annotate.md).
 *
 * Scores here are from White's side, in centipawns on the model's scale
 * (what Stockfish's would be), or MATE less the plies to mate as in
 * score.h. An engine score goes through model_centipawns() first: lichess
 * fitted its model to Stockfish's centipawns, and bachess's grow faster
 * once one side is ahead (judge_move alone takes engine scores and maps
 * them itself). Three measures come from them:
 *
 * - Winning chances, in [-1, 1]: 2 / (1 + exp(-0.00368208 * cp)) - 1, the
 *   logistic fit lichess made to its games (scalachess eval.scala). Win%
 *   is the same on [0, 100]: 50 + 50 * chances, with the score first held
 *   within ±1000 cp (a mate counts as ±1000).
 * - A mark per move (lila's Advice.scala): a drop of the mover's winning
 *   chances of 0.1, 0.2 or 0.3 on the [-1, 1] scale — the "10 %,
 *   20 %, 30 %"; 5, 10 and 15 points of win% — is an inaccuracy, a
 *   mistake or a blunder. Mates are judged apart: walking into a forced
 *   mate, or letting one go, is a blunder unless the position was already
 *   beyond 7 or 10 of Stockfish's pawns (read on the engine's own score,
 *   which runs ahead of Stockfish's there: accuracy.c).
 * - Accuracy (lila's AccuracyPercent.scala): per move 103.1668 *
 *   exp(-0.04354 * win% lost) - 3.1669, plus 1 for the analysis's own
 *   uncertainty, within [0, 100]; per game the mean of a volatility-weighted
 *   mean (each move weighted by the spread of win% around it) and a
 *   harmonic mean of the moves' accuracies. And the average centipawn loss
 *   (lila's AccuracyCP.scala), with scores held within ±1000 cp.
 */
#include <stdbool.h>
#include <stddef.h>

#include "types.h"

enum { ACCURACY_CP_CEILING = 1000 };

/* An engine score on the model's scale: the centipawns mapped by a curve
 * measured against Stockfish (accuracy.c), odd, increasing, 0 at 0; a mate
 * score as it is. */
int model_centipawns(int score);

/* Winning chances of a score, in [-1, 1]; the score is not held first
 * (the marks use it so, as lila does). */
double winning_chances(int score);
/* Win% of a score, in [0, 100], the score held within ±ACCURACY_CP_CEILING. */
double win_percent(int score);
/* The accuracy of one move, from the mover's win% before and after it. */
double move_accuracy(double win_before, double win_after);

/* The mover's loss of winning chances from a position scored `before` to
 * one scored `after` (negative: a gain); what the marks of scores that are
 * not mates are read from. */
double chances_lost(int before, int after, Color mover);

typedef enum { MARK_NONE, MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER, MARK_NB } MoveMark;

typedef struct {
    MoveMark mark;
    bool mate_missed;   /* the mover had a forced mate before the move, none after */
    bool mate_allowed;  /* the mover is mated by force after the move, was not before */
} Judgement;

/* The mark of a move by `mover` from a position scored `before` to one
 * scored `after`, engine scores: the drop of winning chances is read on the
 * model's scale (model_centipawns), the mate rule's 7 and 10 pawns on the
 * engine's own score, at Stockfish's scale. */
Judgement judge_move(int before, int after, Color mover);
/* The move's Numeric Annotation Glyph: 6 (?!), 2 (?), 4 (??); 0 for none. */
int mark_nag(MoveMark mark);
/* "Inaccuracy", "Mistake", "Blunder"; "" for none. */
const char *mark_name(MoveMark mark);

/* Centipawns the mover lost, scores held within ±ACCURACY_CP_CEILING. */
int centipawn_loss(int before, int after, Color mover);

/* Mate distance in moves from White's side (positive: White mates), or 0
 * when the score is not a mate. */
int mate_in_moves(int score);
/* A score as lichess's [%eval] reads it: pawns with two decimals ("0.17",
 * "-1.30") or a mate in moves ("#3", "#-2"). */
void format_pgn_eval(int score, char *out, size_t size);

/* Game accuracy of each side from the scores of the positions of a game:
 * scores[0] before the first move, scores[k] after move k, `moves` moves,
 * the first by `first_mover`. A side that made no move gets -1. */
void game_accuracy(const int *scores, int moves, Color first_mover, double accuracy[COLOR_NB]);
/* Average centipawn loss of each side over the same scores, rounded; -1
 * for a side that made no move. */
void average_centipawn_loss(const int *scores, int moves, Color first_mover, int acpl[COLOR_NB]);
