#pragma once
/*
 * annotate.h — `bachess annotate GAMES.pgn`: every game of a PGN file
 * analysed by the engine and written back as PGN with an evaluation on
 * every move, lichess's inaccuracy / mistake / blunder marks, the engine's
 * better line after mistakes and blunders, and each player's accuracy and
 * average centipawn loss as tags (docs/annotate.md). Standard chess and
 * Chess960 ([Variant "Chess960"] with a FEN tag) are read; a game of
 * another variant is unreadable.
 *
 * The games are shared out among worker processes (--threads), game n to
 * worker (n - 1) mod N, each worker with its own one-thread engine whose
 * table is cleared at the start of every game: with --nodes or --depth the
 * output is the same for any number of workers. The parent counts the
 * games first (reporting, with its number and line, each game the PGN
 * reader cannot read, which is passed over), then writes the annotated
 * games in the order of the file as they come, with a progress line on
 * stderr and a table of the players' accuracy at the end. SIGINT (Ctrl-C)
 * or SIGTERM stops the workers' searches; every game written is whole, and
 * every game finished before the first unfinished one is written.
 */
#include <stdio.h>

/* argv holds what follows `annotate`; returns the process exit status
 * (0; 1 when a game could not be annotated or written; 2 for bad
 * arguments; 130 when interrupted). */
int annotate_command(int argc, char **argv);

/* The --help text. */
void annotate_usage(FILE *out);
