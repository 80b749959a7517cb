#pragma once
/*
 * xboard_claims.h — the results an XBoard engine may claim, as XBoard
 * itself will judge them.
 *
 * XBoard checks every result an engine claims (-testClaims, on by
 * default) and forfeits the engine for a false one. Its rules differ from
 * the laws of chess in two corners: it counts as insufficient material
 * only bare kings, a single minor piece and one bishop each on squares of
 * one colour; and it keeps an en passant square after every double pawn
 * step next to an enemy pawn, legal capture or not, so the position right
 * after such a step may not count as an earlier occurrence. The claims
 * here are true by the laws and by XBoard's rules alike: where the two
 * disagree, nothing is claimed (XBoard will end such a game itself).
 */
#include <stdbool.h>

#include "board.h"

/* The third occurrence of the position, counted as XBoard counts. */
bool claim_repetition(const Board *b);
/* Material that XBoard agrees can never mate. */
bool claim_dead_material(const Board *b);
/* The result line for a game the rules have ended ("1-0 {White mates}",
 * "1/2-1/2 {Stalemate}", ...), or NULL while it goes on or when the end
 * is not one XBoard would accept as claimed. */
const char *claim_game_end(const Board *b);
/* Is `claim` (from claim_game_end) a draw that could have been offered
 * before the move, i.e. not stalemate? */
bool claim_is_offerable_draw(const char *claim);
