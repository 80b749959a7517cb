#pragma once
/*
 * tune.h — Texel tuning of the evaluation weights from labelled positions.
 *
 * The idea (Peter Österlund's "Texel" method): a good evaluation predicts
 * the result of the game a position came from. With sigmoid(K x eval)
 * read as White's expected score, the weights are chosen to minimise the
 * mean squared error against the real results (1, 0.5, 0) over a large set
 * of quiet positions from real games.
 *
 * The evaluation is linear in almost every weight (evalweights.h): before
 * blending and scaling, it is the sum of count x weight plus the king-danger
 * penalty, which is not linear. So each position is traced once, and kept
 * as a short sparse list of (weight, White's count minus Black's) with its
 * phase, scale and the king-danger penalty at the starting weights, held
 * fixed. Evaluating a position for any linear weights is then a dot product,
 * and the gradient of the error is exact and cheap; the whole data set is
 * optimised at once (full batch) with Adam.
 *
 * The steps, as sub-commands (tune_cmd.c):
 *   bachess tune extract GAMES.pgn OUT [--every N] [--skip N]
 *       quiet positions of the decided and drawn games, labelled (tune_extract.c)
 *   bachess tune run POSITIONS [--epochs N] [--lr X] [--k X] [--out FILE] ...
 *       fit K, tune, write the weights as the initializer of evalweights.c
 *
 * A tuning parameter is one half (mg or eg) of one Score of weights_array().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "evalweights.h"

/* One term of a position: a weight and how many more times White used it
 * than Black. */
typedef struct {
    uint16_t index;
    int16_t count;
} TuneTerm;

/* One labelled position in sparse form. */
typedef struct {
    uint32_t first;     /* its terms are terms[first .. first + count - 1] */
    uint16_t count;
    uint8_t phase;      /* 0 .. PHASE_MAX */
    uint8_t scale;      /* 0 .. SCALE_NORMAL, as evaluated at the starting weights */
    int16_t fixed_mg;   /* the non-linear part (king danger), White minus Black */
    int16_t fixed_eg;
    float result;       /* White's score in the game: 1, 0.5 or 0 */
} TunePosition;

typedef struct {
    TunePosition *positions;
    int count, capacity;
    TuneTerm *terms;
    size_t term_count, term_capacity;
} TuneData;

/* The parameters being tuned, as reals: [weight][0] mg, [weight][1] eg. */
typedef struct {
    double v[WEIGHT_COUNT][2];
} TuneParams;

/* Adam's settings and what it leaves alone. */
typedef struct {
    int epochs;
    double rate;        /* step size in centipawns */
    /* L2 penalty per squared centipawn of distance from `anchor`: keeps
     * weights the data hardly sees (a king on a8 in the endgame) where they
     * were instead of letting them wander. */
    double regularisation;
    const TuneParams *anchor;
    const TuneData *validation; /* held-out positions to report on, or NULL */
    int report_every;   /* epochs between progress lines; 0 for none */
    FILE *progress;     /* NULL for silence */
    bool frozen[WEIGHT_COUNT][2];
} TuneOptions;

/* ---- The data set (tune.c) --------------------------------------------- */

void tune_data_init(TuneData *d);
void tune_data_free(TuneData *d);

/* Traces b at the current eval_weights and appends it with its result
 * (White's score). False only when out of memory. */
bool tune_data_add(TuneData *d, const Board *b, double result);

/* ---- The model ----------------------------------------------------------- */

void tune_params_from_weights(TuneParams *p);
/* Rounds the parameters to whole centipawns into eval_weights. */
void tune_params_to_weights(const TuneParams *p);

/* The evaluation of position i from White's side as a real number. */
double tune_model_eval(const TuneData *d, int i, const TuneParams *p);

/* The same with the integer arithmetic of evaluate() at the current
 * eval_weights: equal to evaluate_traced()'s White score when the trace is
 * complete. */
int tune_model_eval_exact(const TuneData *d, int i);

/* Mean squared error of sigmoid(k x eval) against the results. */
double tune_error(const TuneData *d, const TuneParams *p, double k);

/* The same, and its gradient with respect to every parameter in `grad`. */
double tune_gradient(const TuneData *d, const TuneParams *p, double k, TuneParams *grad);

/* The k that minimises tune_error() for these parameters. */
double tune_find_k(const TuneData *d, const TuneParams *p);

/* The defaults: 0 epochs, rate 1, no regularisation, no reports; frozen
 * are the non-linear weights and the middlegame pawn, which anchors the
 * scale in centipawns. */
void tune_options_default(TuneOptions *o);

/* Each piece-square table and its material value say the same thing twice:
 * every piece has one square, so a constant added to the table and taken
 * from the material value changes no evaluation. This moves each table's
 * mean (over the squares the piece can stand on) into the material value,
 * so that the material values mean what they say; a table whose material
 * value is `frozen` (may be NULL) keeps its mean instead. The middlegame
 * pawn is the anchor of the scale: its table's mean is simply removed,
 * which makes the average pawn worth exactly its material value. */
void tune_center_tables(TuneParams *p, const bool (*frozen)[2]);

/* Runs Adam from p for o->epochs; returns the final error. */
double tune_optimise(const TuneData *d, TuneParams *p, double k, const TuneOptions *o);

/* ---- Extraction (tune_extract.c) ---------------------------------------- */

/* Quiet enough to be judged by the static evaluation: not in check, with
 * moves to play, no promotion and no capture that wins material by SEE. */
bool tune_position_is_quiet(const Board *b);

typedef struct {
    int every;   /* keep every Nth quiet candidate of a game (1: all) */
    int skip;    /* plies from the start of each game never kept (the opening) */
} TuneExtractOptions;

typedef struct {
    long games, bad_games, used_games, positions, noisy;
} TuneExtractStats;

/* Writes "FEN [result]" lines for the games of a PGN file. False with
 * `error` set if a file cannot be opened. */
bool tune_extract(const char *pgn_path, FILE *out, const TuneExtractOptions *o, TuneExtractStats *s,
                  char *error, size_t error_size);

/* Parses one "FEN [result]" line into b and *result. */
bool tune_parse_line(const char *line, Board *b, double *result);

/* ---- Output (tune_write.c) ---------------------------------------------- */

/* Writes eval_weights as the C initializer `EvalWeights eval_weights = {...};`
 * in the layout of evalweights.c, every Score in struct order. */
void tune_write_weights(FILE *out);

/* The `tune` sub-command (tune_cmd.c). */
int tune_command(int argc, char **argv);
