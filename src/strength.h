#pragma once
/*
 * strength.h — UCI_LimitStrength: a weaker player for people, at a
 * UCI_Elo that is measured, not guessed (docs/strength-limit.md).
 *
 * The weakened engine searches a few candidate moves (multi-PV) within a
 * node budget (fewer as the level rises: one at the top), misjudges each by a random error, and plays the one that
 * looks best to it: it loses by not seeing deep enough and by preferring a
 * slightly worse plan, the way people do, not by random moves. One inner
 * knob, the level, sets both the budget and the error. The Elo a user asks
 * for is turned into a level by a table fitted from games against
 * Stockfish 15.1 at the same UCI_Elo (scripts/elo-calibration.sh).
 */
#include <stdint.h>

#include "search.h"

enum { STRENGTH_ELO_MIN = 800, STRENGTH_ELO_MAX = 2850, STRENGTH_CANDIDATES_MAX = 4 };

/* How many candidate lines the weakened engine at `elo` searches: all
 * STRENGTH_CANDIDATES_MAX low on the scale, down to one at the top. */
int strength_candidates(int elo);

/* The most nodes the weakened engine searches a move at `elo`. */
uint64_t strength_node_limit(int elo);

/* The move the weakened engine at `elo` plays from the `count` lines of
 * its multi-PV search; `best` when no line has a move. */
Move strength_choose_move(const RootLine *lines, int count, int elo, Move best);
