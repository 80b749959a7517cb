#pragma once
/*
 * annotate_share.h — one game's positions shared out among the worker
 * processes of `bachess annotate` (docs/annotate.md, "Workers").
 *
 * Every position of a game is searched on its own, from an empty table
 * (annotate_search.h), so who searches it does not change its verdict, and
 * the workers can split one game between them: each reads every game, and
 * worker w searches the positions of each look whose turn t (the order in
 * which one worker alone would search them) has t % workers == w. It
 * publishes their verdicts in memory shared by all the workers, then waits
 * for everybody else's, so that each has the whole game: the second look's
 * choice, made from them, is the same in every worker.
 *
 * Each game the workers take is numbered (the first is 1), the same in
 * every worker, since each reads the same file. Two games' room alternate,
 * so that a worker can publish its verdicts of the next game while another
 * still reads this one's; none begins a game before every worker has ended
 * the one before the last, which had the same room.
 *
 * A worker that cannot search its part of a game (its position cannot be
 * set, or it is stopped) gives the game up, and the others stop waiting.
 * A worker that dies cannot say so: the parent stops them all then
 * (workers_failed, tools/workers.h).
 */
#include <stdbool.h>

#include "tools/annotate_verdict.h"

typedef enum { LOOK_FIRST, LOOK_SECOND, LOOK_NB } Look;

typedef struct AnnotateShare AnnotateShare;

/* Made before the workers are forked, with room for games of up to
 * `max_positions` positions; NULL when out of memory. */
AnnotateShare *annotate_share_new(int max_positions);
void annotate_share_free(AnnotateShare *share);

/* One worker's part. share NULL: a worker alone, which searches every
 * position and waits for nobody. */
typedef struct PositionSplit PositionSplit;
struct PositionSplit {
    AnnotateShare *share;
    int worker, workers;
    int game; /* the number of the game under way */
};

/* The next game, once every worker has ended the game two before it; false
 * when the worker is to stop instead. */
bool split_begin_game(PositionSplit *split);
/* This worker is done with the game under way, the game's room with it. */
void split_end_game(const PositionSplit *split);

/* Whether this worker searches the position of turn `turn`. */
bool split_takes(const PositionSplit *split, int turn);

/* The verdict of position `k` of the game under way, on look `look`, for
 * the other workers to read. */
void split_publish(const PositionSplit *split, Look look, int k, const PositionVerdict *verdict);

/* Waits for the other workers' verdicts of the `count` positions listed
 * (in turn order) and copies them into p[]; false when the game was given
 * up or the worker is to stop. */
bool split_gather(const PositionSplit *split, Look look, const int *positions, int count, PositionVerdict *p);

/* This worker cannot finish its part of the game under way. */
void split_give_up(const PositionSplit *split);
