/*
 * wdl.h — the chances of a win, a draw and a loss from a score and the
 * material on the board, fitted on bachess's own self-play games
 * (scripts/wdl-fit.py, docs/wdl.md), and the score normalised so that
 * +1.00 means the same winning chance at every stage of the game.
 */
#ifndef BACHESS_WDL_H
#define BACHESS_WDL_H

#include "board.h"

/* The material on the board (pawn 1, knight and bishop 3, rook 5, queen 9). */
int wdl_material(const Board *b);

/* The score (centipawns, side to move's view) at which the side to move
 * wins half its games, with this material: the model's a(m). */
double wdl_win_midpoint(int material);

/* Win, draw and loss chances in per mille (summing to 1000), for a score
 * in centipawns from the side to move's view; not for mate scores. */
void wdl_from_score(int score, int material, int *win, int *draw, int *loss);

/* The score shown to users: 100 where the win chance is 50 %, held below
 * the tablebase band of score.h; a tablebase or mate score as it is, so
 * that every front end shows them alike. */
int wdl_normalize(int score, int material);

#endif
