#pragma once
/*
 * web_session.h — what a page may ask of the engine. The page speaks a
 * small subset of UCI (position, go but not `go perft`, which cannot be
 * stopped, stop, isready, ucinewgame, ponderhit, and setoption for the
 * options a player sets at the board); every line is
 * checked here before it reaches the UCI front end, one line at a time.
 * Options that name files or directories are not in the subset: nothing a
 * page sends reaches the file system or a shell.
 */
#include <stdbool.h>
#include <stddef.h>

enum { WEB_COMMAND_MAX = 2048 };

/* Starts the UCI front end with its output going to the listening pages. */
void web_session_start(void);
/* Stops any search and detaches the output. */
void web_session_stop(void);
/* Sets an engine option from the command line of `bachess web` (trusted:
 * any option, files included). False if the engine refused it. */
bool web_session_set_option(const char *name, const char *value);
/* Runs one command line from a page. False, with the reason in `error`,
 * when the line is not one a page may send. */
bool web_session_command(const char *line, char *error, size_t error_size);
/* What a PGN request held, beyond its text. */
typedef struct {
    int plies;
} WebGameFacts;

/* The PGN of a game described by `request` (lines "fen FEN", "chess960",
 * "white NAME", "black NAME", "result R", "moves M1 M2 ..."), written by the
 * same code as the engine's game log; its facts in `facts` if not NULL.
 * NULL, with the reason in `error`, on a bad request; the caller frees the
 * text. */
char *web_session_pgn(const char *request, WebGameFacts *facts, char *error, size_t error_size);
