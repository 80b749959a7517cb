#pragma once
/*
 * xboard.h — the XBoard / WinBoard front end (Chess Engine Communication
 * Protocol, version 2). It turns the GUI's commands into calls on the
 * engine façade and the engine's reports into CECP lines; it never thinks
 * itself.
 *
 * CECP is stateful where UCI is not: the engine keeps the game, knows
 * which side it plays, moves by itself when the opponent's move arrives,
 * ponders on the move it expects, claims results and keeps its own clock.
 * That state lives here. Input is read on a thread of its own into the
 * inbox (inbox.h), where best moves from the search also arrive, so all of
 * it is handled on one thread, in order: a `force`, `new`, `result` or
 * `quit` that comes before a best move cancels it (a generation counter
 * tags each search), and a `ping` that comes while the engine thinks on its
 * own time is answered after its move.
 */
#include <stdbool.h>

/* Runs the CECP dialogue on stdin/stdout; `first_line` is the line that
 * selected the protocol (normally "xboard"). Returns at `quit` or at the
 * end of input, with the process exit status. */
int xboard_loop(const char *first_line);

/* Handles one line (modified in place); returns false on `quit`. Best
 * moves already waiting in the inbox are handled first. Exposed for tests
 * and fuzzing. */
bool xboard_command(char *line);
