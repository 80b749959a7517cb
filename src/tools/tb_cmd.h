#pragma once
#include <stdbool.h>
/*
 * tb_cmd.h — `bachess tb probe [--path DIRS] [--no50] FEN`: what the Syzygy
 * tablebases say of a position — WDL and DTZ for the side to move, and
 * every legal move with its result, the moves that keep the best result
 * first.
 */

/* argv holds what follows `tb`; returns the process exit status. */
int tb_command(int argc, char **argv);

/* Prints WDL, DTZ and the ranked moves of one position from the tables
   already opened (syzygy_init); returns 0 when it was probed, 1 when it is
   outside the tables, 2 for a bad FEN. Also used by `bachess eval --tb`. */
int tb_describe_position(const char *fen, bool fifty);
