#pragma once
/*
 * epd.h — the `epd` sub-command: runs a test suite of EPD positions with
 * best-move (`bm`) and avoid-move (`am`) operations at a fixed time per
 * position and reports how many were solved.
 */
#include <stdbool.h>
#include <stddef.h>

#include "board.h"

/* One line of a suite: the position and its bm, am and id operations. */
typedef struct {
    char fen[256];
    char id[64];
    Move best[8], avoid[8];
    int best_count, avoid_count;
} EpdLine;

/* Parses an EPD line into `board` (its first four fields) and `out` (the
 * SAN moves of bm and am that are legal there, and the id). False when the
 * line has fewer than four fields (`error` empty: not a position line) or
 * its position is refused (`error` says why). Exposed for fuzzing. */
bool epd_parse_line(const char *line, Board *board, EpdLine *out, char *error, size_t error_size);

int epd_command(int argc, char **argv);
