#pragma once
/*
 * engine.h — the one door into thinking, the same for every front end.
 *
 * The engine owns the game (a Board with its history), the search threads
 * and the transposition table. A front end sets the position, calls
 * engine_go() with a SearchLimits and a SearchReport (callbacks for each
 * iteration's info and for the best move) and goes back to reading input:
 * the search runs on its own threads. engine_stop(), engine_ponderhit()
 * and engine_wait() may be called at any time. Exactly one best move is
 * reported per engine_go(); after `go ponder` or `go infinite` it waits,
 * without spinning, for stop or ponderhit.
 */
#include <stddef.h>

#include "search.h"

enum { MAX_THREADS = 256, MAX_HASH_MB = 1 << 20 };

void engine_init(void);
void engine_quit(void);

/* Replaces the game: `fen` (NULL for the start position) and then `moves`
 * in coordinate notation. Nothing changes if any part is invalid. */
bool engine_set_position(const char *fen, char *const *moves, int move_count, char *error, size_t error_size);
/* Plays one more legal move on the game board (front ends that track the
 * game move by move, like XBoard). */
void engine_play_move(Move m);
/* Takes back the last move of the game; false if there is none to take
 * back (the start of the game, or history trimmed in a very long game). */
bool engine_undo_move(void);
const Board *engine_board(void);
/* Chess960 mode: positions set afterwards may have any castling layout and
 * write castling king-takes-rook; the current game is marked at once. The
 * opening book is never used in a Chess960 game. */
void engine_set_chess960(bool on);

void engine_new_game(void);
bool engine_set_threads(int count);
bool engine_set_hash(size_t megabytes);
int engine_thread_count(void);

void engine_go(const SearchLimits *limits, SearchReport report);
void engine_stop(void);
/* The same stop from a signal handler: only the search's lock-free stop
 * flag is set (async-signal-safe), so nobody waiting is woken; the search
 * threads see the flag within a few thousand nodes and end as after
 * engine_stop(). A go that starts later clears the flag again. */
void engine_stop_from_signal(void);
void engine_ponderhit(void);
/* A ponder hit where the GUI tells the clock with the move (CECP sends time
 * and otim before it): the time budget is made again from `limits`, which
 * hold the clock as it is now, instead of the clock the pondering started
 * with; the search goes on with all it has found. */
void engine_ponderhit_with_clock(const SearchLimits *limits);
void engine_wait(void);
bool engine_is_searching(void);

/* Statistics of the last search, for bench. */
SearchStats engine_last_stats(void);
uint64_t engine_last_nodes(void);

/* The last search's account of its turn, for the protocol trace: the CPU
 * time of the process since the clock began to run, and the hard limit the
 * search set itself. A GUI's clock also counts the time a loaded machine
 * ran other programs; these two tell that apart from time the engine took
 * (scripts/own-clock.sh). on_clock is false for a search without a clock,
 * a ponder search never hit, and a book move. Valid in on_bestmove. */
typedef struct {
    bool on_clock;
    int64_t cpu_ms, hard_limit_ms;
} TurnAccount;
TurnAccount engine_turn_account(void);
