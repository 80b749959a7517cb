#pragma once
/*
 * annotate_search.h — every position of a game searched for `bachess
 * annotate` (docs/annotate.md, "How a game is analysed").
 *
 * Every position of the game's main line is searched once, the start and
 * the final position included, each from an empty hash table
 * (annotate_search.c says why): a position's score is its search's score,
 * and the line that search found is the better line for the move played
 * there. A position with one legal move takes the score of the next (the
 * move is forced); a position without one is mate or stalemate, scored by
 * the rules.
 *
 * Then the second look: a move whose loss of winning chances on that first
 * look lies near the lines of the marks, in [SECOND_LOOK_LOW, SECOND_LOOK_HIGH),
 * has the positions before and after it searched again with a bigger
 * budget (annotate_second_look_limits), and their scores and lines are the
 * second search's. One search's score is a few hundredths of winning
 * chances off either way, and near the line that decides the mark
 * (docs/annotate.md, "The second look"). So is a far fall of the engine's
 * score where the game is already decided, often a mate not yet seen.
 */
#include <stdbool.h>

#include "games/pgn.h"
#include "timeman.h"
#include "tools/annotate_verdict.h"
#include "types.h"

/* The second look's band of the mover's loss of winning chances (on the
 * model's scale, tools/accuracy.h), around the lines of the inaccuracy, the
 * mistake and the blunder (0.1, 0.2, 0.3), and its budget:
 * SECOND_LOOK_NODES_FACTOR times the nodes, or SECOND_LOOK_EXTRA_DEPTH more
 * plies. From 0.05 rather than 0.15, it found 5 more of the judge's errors
 * on a seventh judged set (docs/results/annotate.md, "A second look from
 * 0.05"). */
#define SECOND_LOOK_LOW 0.05
#define SECOND_LOOK_HIGH 0.5
enum { SECOND_LOOK_NODES_FACTOR = 5, SECOND_LOOK_EXTRA_DEPTH = 2 };
/* Also looked at again: a fall of the mover's engine score of at least
 * SECOND_LOOK_DECIDED_FALL_CP where either position is at least
 * SECOND_LOOK_DECIDED_CP from equality (a mate the first look missed). */
enum { SECOND_LOOK_DECIDED_CP = 700, SECOND_LOOK_DECIDED_FALL_CP = 300 };

/* Called after each position searched (progress), and after each position
 * searched again on the second look (may be NULL). */
typedef struct {
    void (*searched)(void *context);
    void *context;
    void (*looked_again)(void *context, int position);
} AnnotateHooks;

/* The limits of the second look after a first look with `first`: false
 * when there is none, for a time limit (--movetime is the time a position
 * gets, and a user who sets it expects the run to take that long). */
bool annotate_second_look_limits(const SearchLimits *first, SearchLimits *second);

/* Whether a move from a position scored `before` to one scored `after`
 * (engine scores, White's side) by `mover` is looked at again. */
bool annotate_needs_second_look(int before, int after, Color mover);

/* Who makes the game's first move, by its starting position. */
Color annotate_first_mover(const PgnGame *g);

/* A worker's part of each game (tools/annotate_share.h); NULL: all of it. */
typedef struct PositionSplit PositionSplit;

/* Fills p[0 .. g->move_count] with the engine (set up by the caller: one
 * thread, no book); `second` is the second look's limits, NULL for none,
 * and it looks again only at the moves of the sides `judged` (--side).
 * This process searches the positions `split` gives it, and has the
 * others' verdicts from the workers that search them. False when stopped
 * (workers_should_stop, tools/workers.h), when the game's position cannot
 * be set, or when another worker gave the game up. */
bool annotate_search_game(const PgnGame *g, const SearchLimits *limits, const SearchLimits *second,
                          const bool judged[COLOR_NB], const AnnotateHooks *hooks, const PositionSplit *split,
                          PositionVerdict *p);
