#pragma once
/*
 * syzygy.h — Syzygy endgame tablebases, read through Debian's Fathom
 * library (libfathom). All of bachess's use of Fathom is in syzygy.c: its
 * shared library exports generic names (encode, probe_table, ...), and
 * scripts/check-deps.sh checks that none collides with one of ours.
 *
 * WDL probes are thread-safe and serve the search; ranking the root moves
 * by DTZ is not (Fathom says so), so it is done under a lock, by the thread
 * that starts a search, before the search threads run.
 */
#include <stdbool.h>
#include <stddef.h>

#include "board.h"

/* Win/draw/loss for the side to move; the cursed win and blessed loss are
 * wins and losses that the fifty-move rule turns into draws. */
typedef enum { WDL_LOSS = -2, WDL_BLESSED_LOSS = -1, WDL_DRAW = 0, WDL_CURSED_WIN = 1, WDL_WIN = 2 } Wdl;

/* Loads the tables of `paths` (directories separated by ':'; "" unloads).
 * Returns the largest number of pieces covered (0: none), and says what was
 * found, or what is wrong with the path, in `message`. */
int syzygy_init(const char *paths, char *message, size_t message_size);
/* The largest number of pieces covered by the loaded tables (0: none). */
int syzygy_largest(void);

/* Can the position be probed at all: few enough pieces, no castling rights. */
bool syzygy_covers(const Board *b);
/* WDL of a position just after a capture or pawn move (halfmove clock 0);
 * false when the tables cannot answer. */
bool syzygy_probe_wdl(const Board *b, Wdl *wdl);

/* The root: the legal moves ranked by DTZ (WDL if a DTZ table is missing).
 * `keep` gets the moves that preserve the best result, best first; `wdl`
 * and `dtz` (plies to a zeroing move, the sign of the result; 0 if unknown)
 * describe the position. False when the position is not in the tables. */
typedef struct {
    Move keep[MAX_MOVES];
    int keep_count;
    Wdl wdl;
    int dtz;
    /* every legal move with its result for the side to move, for `tb probe` */
    Move moves[MAX_MOVES];
    Wdl move_wdl[MAX_MOVES];
    int move_count;
} SyzygyRoot;
bool syzygy_rank_root(const Board *b, bool fifty_move_rule, SyzygyRoot *out);
