#pragma once
/*
 * evalweights.h — every number the evaluation multiplies by, in one place,
 * and the record of which of them an evaluation used.
 *
 * A weight is a Score: a middlegame and an endgame value packed into one
 * int (S(mg, eg)), so a term is added once and the two halves are blended
 * by game phase only at the end. All weights live in the one struct
 * EvalWeights, named by field; because it holds nothing but Scores, it is
 * also a flat array of WEIGHT_COUNT Scores, and weight_info[] names each
 * field's slice of that array. A tuner can therefore iterate over every
 * weight by index and print it by name, and the evaluation reads it by name.
 * Piece-square tables are weights like any other.
 *
 * The evaluation adds terms through eval_add(). Normally that is a plain
 * add; when a trace is attached it also books the term under its category
 * (for `bachess eval`) and counts how often each weight was used for each
 * side. For the linear weights those counts are the coefficients a
 * gradient (Texel) tuner needs: the evaluation before blending and scaling
 * is the sum of count x weight. The king-danger weights feed a quadratic
 * and are marked as not linear.
 *
 * Pawn hash tables cache values computed with the weights of the moment:
 * whoever changes a weight clears every PawnTable (or evaluates with
 * evaluate_traced(), which bypasses them).
 */
#include <stdbool.h>
#include <stddef.h>

#include "types.h"

typedef int32_t Score;

/* The endgame half sits in the high 16 bits; plain integer arithmetic keeps
 * both halves exact as long as each stays within +-32767. */
#define S(mg, eg) ((Score)((eg) * 65536 + (mg)))

static inline int score_mg(Score s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int score_eg(Score s) { return (int16_t)(uint16_t)(((uint32_t)s + 0x8000u) >> 16); }

/* The entry of a piece-square table for a piece of colour c on s: the
 * tables are diagrams from White's side (a8 first), and Black's pieces read
 * them mirrored, so both sides use one table. */
static inline int psqt_index(Color c, Square s) { return s ^ (c == WHITE ? 56 : 0); }

/* Sizes of the mobility tables: one entry per possible count of squares. */
enum { MOBILITY_KNIGHT = 9, MOBILITY_BISHOP = 14, MOBILITY_ROOK = 15, MOBILITY_QUEEN = 28 };

typedef struct {
    /* Material (E1) and piece-square tables. The tables are written as a
     * diagram from White's side: entry 0 is a8, entry 63 is h1. */
    Score material[PIECE_TYPE_NB]; /* the king's entry stays 0 */
    Score psqt[PIECE_TYPE_NB][SQUARE_NB];
    Score bishop_pair;

    /* Development (E2). */
    Score minor_on_back_rank;  /* per knight or bishop still on its first rank */
    Score castling_right;      /* per right still held */
    Score king_lost_castling;  /* no rights left and the king still in the centre */
    Score blocked_center_pawn; /* d- or e-pawn on its start square with its path blocked */

    /* Mobility (E3): indexed by the number of safe squares a piece reaches. */
    Score knight_mobility[MOBILITY_KNIGHT];
    Score bishop_mobility[MOBILITY_BISHOP];
    Score rook_mobility[MOBILITY_ROOK];
    Score queen_mobility[MOBILITY_QUEEN];

    /* Pieces (E2). */
    Score knight_on_rim;
    Score knight_outpost;      /* pawn-supported, and no enemy pawn can ever chase it */
    Score bishop_outpost;
    Score bad_bishop_pawn;     /* per own pawn on the bishop's colour */
    Score bad_bishop_blocked;  /* per own blocked pawn on the bishop's colour */
    Score rook_open_file;
    Score rook_semi_open_file;
    Score rook_on_seventh;     /* if it cuts off the king or attacks pawns there */

    /* Pawn structure (E4), by the pawn's relative rank where indexed. */
    Score pawn_doubled;        /* per pawn with a friendly pawn in front of it */
    Score pawn_isolated;
    Score pawn_backward;
    Score pawn_connected[8];   /* defended by a pawn or with a neighbour beside it */
    Score pawn_ram[8];         /* blocked head-on by an enemy pawn */
    Score passed_pawn[8];

    /* Passed pawns with the pieces around them (E4). */
    Score passer_free[8];              /* the stop square is empty and not attacked */
    Score passer_own_king_distance;    /* x distance to the stop square x (rank - 2) */
    Score passer_enemy_king_distance;
    Score passer_unstoppable;          /* outside the enemy king's square, no enemy pieces */
    Score rook_behind_passer;
    Score rook_behind_enemy_passer;

    /* King safety (E5). Shelter: [pawn on the king's own file][relative rank
     * of the nearest own pawn in front, 0 = none]. Storm: [blocked by one of
     * our pawns][relative rank, from our side, of the nearest enemy pawn]. */
    Score king_shelter[2][8];
    Score king_storm[2][8];
    Score king_tropism[PIECE_TYPE_NB]; /* per step a piece stands closer than 7 */
    /* Danger units (not linear): summed, then squared for the middlegame. */
    Score king_attacker[PIECE_TYPE_NB]; /* per piece attacking the king zone */
    Score king_zone_attack;              /* per attack on a zone square */
    Score king_safe_check[PIECE_TYPE_NB];
    Score king_weak_square;              /* zone square defended by the king at most */
    Score king_no_queen;                 /* the attacker has no queen */

    /* Threats (E3). Indexed by the type of the piece attacked. */
    Score threat_by_pawn;
    Score threat_by_minor[PIECE_TYPE_NB];
    Score threat_by_rook[PIECE_TYPE_NB];

    /* King activity in the endgame (E5). */
    Score king_pawn_distance;  /* x distance to the nearest pawn */

    Score tempo;
} EvalWeights;

enum { WEIGHT_COUNT = (int)(sizeof(EvalWeights) / sizeof(Score)) };

extern EvalWeights eval_weights;

/* The whole struct seen as one array, for a tuner. */
static inline Score *weights_array(void) { return (Score *)&eval_weights; }

typedef struct {
    const char *name;
    int index;   /* of its first Score in weights_array() */
    int count;   /* Scores in the field (1 for a plain weight) */
    int dims;    /* 0 for a single weight, 1 or 2 for a table */
    int row;     /* Scores per row of a two-dimensional table */
    bool linear; /* the evaluation is linear in it (see the top of this file) */
} WeightInfo;

extern const WeightInfo weight_info[];
extern const int weight_info_count;

/* Index of a field's first Score, or -1 if no field has that name. */
int weight_index(const char *name);
/* Writes a weight's name, e.g. "bishop_pair" or "psqt[3][12]", for an index. */
void weight_describe(int index, char *out, size_t size);

/* ---- Recording terms -------------------------------------------------- */

typedef enum {
    TERM_MATERIAL, TERM_PSQT, TERM_DEVELOPMENT, TERM_MOBILITY, TERM_PIECES,
    TERM_PAWNS, TERM_PASSED, TERM_KING_SAFETY, TERM_THREATS, TERM_KING_ACTIVITY,
    TERM_TEMPO, TERM_NB
} EvalTerm;

extern const char *const eval_term_names[TERM_NB];

typedef struct {
    Score term[TERM_NB][COLOR_NB];       /* what each category gave each side */
    int16_t coeff[WEIGHT_COUNT][COLOR_NB]; /* uses of each linear weight per side */
    Score king_danger[COLOR_NB];         /* danger units built against each king */
    Score nonlinear[COLOR_NB];           /* what no single weight accounts for */
    int phase;                           /* 0 (bare kings) .. PHASE_MAX */
    int scale;                           /* 0 .. SCALE_NORMAL */
    int mg, eg;                          /* White's blended inputs */
    int white_score;                     /* the result from White's side */
} EvalTrace;

/* A running total per side, plus the trace being filled, if any. */
typedef struct {
    Score score[COLOR_NB];
    EvalTrace *trace;
} EvalSum;

void eval_trace_record(EvalTrace *t, EvalTerm term, Color c, const Score *weight, int count);
void eval_trace_record_value(EvalTrace *t, EvalTerm term, Color c, Score value);

/* Always inlined, also where a profile-guided build would not: a call
 * makes the running total live in memory and tests for a trace at run
 * time, where the search's evaluation (trace NULL) needs one add. */
#define EVAL_INLINE static inline __attribute__((always_inline))

/* Adds count x weight to side c. `weight` must point into eval_weights. */
EVAL_INLINE void eval_add(EvalSum *sum, EvalTerm term, Color c, const Score *weight, int count)
{
    sum->score[c] += *weight * count;
    if (sum->trace)
        eval_trace_record(sum->trace, term, c, weight, count);
}

/* Adds a value that is not count x one weight (the king-danger penalty). */
EVAL_INLINE void eval_add_value(EvalSum *sum, EvalTerm term, Color c, Score value)
{
    sum->score[c] += value;
    if (sum->trace)
        eval_trace_record_value(sum->trace, term, c, value);
}
