#pragma once
/*
 * xboard_pgn.h — the record of the game an XBoard engine plays, appended
 * to the file named by the PGNLog option when the game ends.
 *
 * The front end reports what happens to the game: a new start position
 * (`new`, `setboard`), every move made for real (the GUI's, the engine's,
 * a pondered move once the opponent has played it), moves taken back, the
 * opponent's name, and the end (`result`, or the end of the session). Only
 * games in which the engine made a move are written: analysis and games
 * merely set up in force mode are not. Nothing is written while PGNLog is
 * empty; a file that cannot be written is reported as a `#` debug line.
 */
#include <stdbool.h>

#include "types.h"

void xboard_pgn_start(const char *fen);                 /* NULL: the start position */
void xboard_pgn_move(Move m, bool by_engine);
void xboard_pgn_undo(void);
void xboard_pgn_opponent(const char *name);
/* Ends the game: `result` as CECP writes it ("1-0", "0-1", "1/2-1/2",
 * "*" or NULL when unknown), `reason` the comment or NULL; the engine
 * played `engine_color`. Writes the game if it is one to keep. */
void xboard_pgn_finish(const char *result, const char *reason, Color engine_color);
/* Releases the record at the end of the session. */
void xboard_pgn_free(void);
