#pragma once
/*
 * perft_cmd.h — `bachess perft|divide DEPTH [FEN]`: the perft count of a
 * position (perft.h), in total or per root move, with the time it took.
 */
#include <stdbool.h>

/* argv holds what follows `perft` or `divide`: DEPTH [FEN...]; returns the
 * process exit status. */
int perft_command(int argc, char **argv, bool divide);
