#pragma once
/*
 * datagen.h — `bachess datagen`: self-play games that make training data
 * for the NNUE evaluation (docs/datagen.md).
 *
 * Each game starts from the start position or an opening of a file (EPD
 * or FEN lines, or the final positions of the games of a PGN file), plus a
 * few random legal plies; an opening whose score after a short search is
 * absurd is drawn again. Every move is a search with a soft node limit (no
 * iteration starts past it, so the move comes from a whole iteration) and a
 * hard one ten times higher, one thread, the table and histories cleared at
 * the start of the game. Games end by the rules or by adjudication (a score
 * beyond a bound for several plies wins; a score near zero late in the game
 * draws). Quiet positions — not in check, best move neither capture nor
 * promotion, no mate score — are written with their score and the game's
 * result as 32-byte records (tools/packed_position.h), appended to the
 * output file a whole game at a time.
 *
 * Game g is played with a random generator seeded from (seed, g) alone, so
 * a run is the same for a given seed whatever the number of workers: the
 * workers are processes (each with its own engine and table), and the
 * parent writes their games in game order. SIGINT or SIGTERM to the parent
 * is passed on to the workers, and a worker whose parent dies stops too:
 * each stops the search under way at once and abandons its game, and the parent
 * exits normally once every finished game before the first missing one is
 * written.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

/* argv holds what follows `datagen`; returns the process exit status. */
int datagen_command(int argc, char **argv);

/* OpenBench's opening generator (its Client/genfens.py runs
 * `bachess "genfens N seed S book None|FILE [extra]" quit`): argv holds the
 * words from `genfens` on. Prints N openings, one `info string genfens FEN`
 * line each: a position of FILE (EPD or PGN) or the start position, then
 * random plies, redrawn as datagen's openings are (game over, or a score
 * beyond 1000 cp after a 5,000-node search). The same seed gives the same
 * openings. Returns the process exit status. */
int datagen_genfens(int argc, char **argv);

/* Where a run's nodes went, summed over its games; the run's last line
 * on stderr (datagen_cost_line) says it (docs/datagen.md, "Where the nodes go"). */
typedef struct {
    int64_t opening_nodes;   /* the openings' score checks, redraws included */
    int64_t kept_nodes;      /* the searches of positions written */
    int64_t passed_nodes;    /* the searches of positions the filter passed over */
    int64_t past_soft_nodes; /* of the two above: nodes past the soft limit, in the last iteration */
    int64_t openings;        /* opening searches, one a draw */
    int64_t kept, passed;    /* positions written and passed over */
} DatagenCost;

void datagen_cost_add(DatagenCost *sum, const DatagenCost *part);
void datagen_cost_line(const DatagenCost *c, char *out, size_t size);

/* ---- the parts below are separate for the tests ---- */

/* The flags the parser takes, NULL-terminated, and the --help text. */
extern const char *const DATAGEN_FLAGS[];
void datagen_usage(FILE *out);

/* Is this position, searched to `best` with `score` (side to move's view),
 * training data? Not in check, the move neither a capture nor a promotion,
 * the score no mate score. */
bool datagen_keeps_position(const Board *b, Move best, int score);

/* Adjudication on the search scores of a game, ply after ply: a win when
 * the score (White's view) is at least win_cp for the same side for
 * win_plies plies in a row; a draw when it has stayed within ±draw_cp for
 * draw_plies plies and the game is at ply draw_after_ply or later. */
typedef struct {
    int win_cp, win_plies;
    int draw_cp, draw_plies, draw_after_ply;
} AdjudicationRules;

typedef struct {
    int win_run, draw_run, last_sign;
} Adjudicator; /* start it zeroed for every game */

/* The result from White's point of view (0 loss, 1 draw, 2 win), or -1 while
 * the game goes on. */
int datagen_adjudicate(Adjudicator *a, const AdjudicationRules *rules, int white_score, int ply);
