#pragma once
/*
 * xboard_clock.h — XBoard's time controls, kept in milliseconds and turned
 * into SearchLimits.
 *
 * CECP speaks in mixed units: `level MPS BASE INC` (BASE in minutes or
 * MIN:SEC, INC in seconds and possibly fractional), `st` seconds per move,
 * `sd` plies, `nps` nodes per second (time is then counted in nodes, not
 * on the wall clock), and `time`/`otim` in centiseconds. An XboardClock holds
 * the current control, the depth and node-rate limits, and both clocks as
 * the engine knows them: set by `time`/`otim` when the GUI sends them,
 * otherwise kept by the engine itself from its own thinking time.
 *
 * The parsers never print: they return false with a short reason, and the
 * front end turns that into an `Error (reason): command` line. A refused
 * command leaves the clock as it was.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "timeman.h"

typedef struct {
    int mps;                  /* moves per period; 0: the whole game */
    int64_t base_ms, inc_ms;  /* time per period, increment per move */
    int64_t st_ms;            /* fixed time per move (`st`); 0: use the level */
    int sd;                   /* depth limit in plies; 0: none */
    int64_t nps;              /* nodes per second standing in for time; 0: off */
    int64_t own_ms, opp_ms;   /* the engine's clock and its opponent's */
} XboardClock;

/* The state before any command: xboard's own default control (40 moves
 * in 5 minutes), no depth limit, no node rate, full clocks. */
void xboard_clock_init(XboardClock *c);
/* What `new` asks for: the control stays (xboard sends it again anyway),
 * both clocks start a fresh game, and `sd` and `nps` are forgotten. */
void xboard_clock_new_game(XboardClock *c);

bool xboard_clock_level(XboardClock *c, const char *mps, const char *base, const char *inc, char *why, size_t why_size);
bool xboard_clock_st(XboardClock *c, const char *seconds, char *why, size_t why_size);
bool xboard_clock_sd(XboardClock *c, const char *plies, char *why, size_t why_size);
bool xboard_clock_nps(XboardClock *c, const char *rate, char *why, size_t why_size);
/* `time` (own = true) or `otim`. A negative value is refused, but the
 * clock is still set to zero: the GUI says the time is gone. */
bool xboard_clock_time(XboardClock *c, bool own, const char *centiseconds, char *why, size_t why_size);

/* Moves left in the current period for the side to move of `b` (0 when
 * the control has no periods). */
int xboard_clock_moves_to_go(const XboardClock *c, const Board *b);

/* Limits for the engine to move in `b` (its side to move). A ponder
 * search takes the same ones: they apply from the ponder hit on. */
void xboard_clock_limits(const XboardClock *c, const Board *b, SearchLimits *limits);

/* After the engine's own move in `b` (before it is played): its clock
 * loses `spent_ms`, gains the increment, and a new period's time when
 * this move completes one. */
void xboard_clock_spent(XboardClock *c, const Board *b, int64_t spent_ms);

/* Thinking time as the GUI must see it: wall time, or nodes/nps in nps
 * mode. In centiseconds. */
int64_t xboard_clock_shown_cs(int64_t nps, uint64_t nodes, int64_t elapsed_ms);
