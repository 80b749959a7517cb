/* xboard_clock.c — CECP time controls: parsing and conversion to limits. */
#include "protocol/xboard_clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tokens.h"

enum {
    DEFAULT_MPS = 40, DEFAULT_BASE_MS = 5 * 60 * 1000,
    MAX_MPS = 100000, MAX_DEPTH_ASKED = 100000,
};
/* Bounds that keep every product below int64 overflow: a year of clock,
 * a day of increment, a trillion nodes per second. */
static const double MAX_BASE_MINUTES = 365.0 * 24 * 60, MAX_INC_SECONDS = 24 * 3600.0, MAX_ST_SECONDS = 365.0 * 24 * 3600;
static const int64_t MAX_NPS = 1000000000000LL, MAX_CLOCK_CS = 365LL * 24 * 3600 * 100;

void xboard_clock_init(XboardClock *c)
{
    *c = (XboardClock){ .mps = DEFAULT_MPS, .base_ms = DEFAULT_BASE_MS };
    c->own_ms = c->opp_ms = c->base_ms;
}

void xboard_clock_new_game(XboardClock *c)
{
    c->sd = 0;
    c->nps = 0;
    c->own_ms = c->opp_ms = c->base_ms > 0 ? c->base_ms : c->inc_ms;
}

static bool refuse(char *why, size_t size, const char *reason)
{
    snprintf(why, size, "%s", reason);
    return false;
}

/* A whole number, the whole word. */
/* A finite decimal number at the start of `text`; *end after it. */
static bool parse_real(const char *text, double *value, const char **end)
{
    if (!text)
        return false;
    char *stop;
    errno = 0;
    double v = strtod(text, &stop);
    if (stop == text || errno || !isfinite(v))
        return false;
    *value = v;
    *end = stop;
    return true;
}

/* BASE is MIN or MIN:SEC. Anything after it is a future extension
 * (e.g. "25+5" forms) and is ignored, as the protocol asks. */
static bool parse_base(const char *text, int64_t *ms)
{
    double minutes, seconds = 0;
    const char *end;
    if (!parse_real(text, &minutes, &end) || minutes < 0 || minutes > MAX_BASE_MINUTES)
        return false;
    if (*end == ':') {
        const char *after;
        if (!parse_real(end + 1, &seconds, &after) || seconds < 0 || seconds > MAX_INC_SECONDS)
            return false;
    }
    *ms = (int64_t)llround(minutes * 60000.0 + seconds * 1000.0);
    return true;
}

bool xboard_clock_level(XboardClock *c, const char *mps_text, const char *base_text, const char *inc_text, char *why, size_t n)
{
    int64_t mps, base_ms;
    double inc;
    const char *end;
    if (!mps_text || !base_text || !inc_text)
        return refuse(why, n, "level needs MPS BASE INC");
    if (!parse_int64(mps_text, &mps) || mps < 0 || mps > MAX_MPS)
        return refuse(why, n, "moves per period out of range");
    if (!parse_base(base_text, &base_ms))
        return refuse(why, n, "base must be minutes or min:sec, not negative");
    if (!parse_real(inc_text, &inc, &end) || inc < 0 || inc > MAX_INC_SECONDS)
        return refuse(why, n, "increment must be seconds, not negative");
    int64_t inc_ms = (int64_t)llround(inc * 1000.0);
    if (base_ms == 0 && inc_ms == 0)
        return refuse(why, n, "no thinking allowed by this control");
    c->mps = (int)mps;
    c->base_ms = base_ms;
    c->inc_ms = inc_ms;
    c->st_ms = 0;
    /* A level mid-game starts a fresh period; `time` will correct it. */
    c->own_ms = c->opp_ms = base_ms > 0 ? base_ms : inc_ms;
    return true;
}

bool xboard_clock_st(XboardClock *c, const char *text, char *why, size_t n)
{
    double seconds;
    const char *end;
    if (!parse_real(text, &seconds, &end) || *end || seconds <= 0 || seconds > MAX_ST_SECONDS)
        return refuse(why, n, "st needs a positive number of seconds");
    c->st_ms = (int64_t)llround(seconds * 1000.0);
    if (c->st_ms < 1)
        c->st_ms = 1;
    return true;
}

bool xboard_clock_sd(XboardClock *c, const char *text, char *why, size_t n)
{
    int64_t depth;
    if (!parse_int64(text, &depth) || depth < 1 || depth > MAX_DEPTH_ASKED)
        return refuse(why, n, "sd needs a positive number of plies");
    c->sd = depth > MAX_PLY - 1 ? MAX_PLY - 1 : (int)depth;
    return true;
}

bool xboard_clock_nps(XboardClock *c, const char *text, char *why, size_t n)
{
    int64_t rate;
    if (!parse_int64(text, &rate) || rate < 0 || rate > MAX_NPS)
        return refuse(why, n, "nps needs a rate of 0 or more");
    c->nps = rate;
    return true;
}

bool xboard_clock_time(XboardClock *c, bool own, const char *text, char *why, size_t n)
{
    int64_t cs;
    if (!parse_int64(text, &cs))
        return refuse(why, n, "needs a whole number of centiseconds");
    int64_t *clock = own ? &c->own_ms : &c->opp_ms;
    if (cs < 0) {
        *clock = 0;
        return refuse(why, n, "negative clock taken as zero");
    }
    *clock = (cs > MAX_CLOCK_CS ? MAX_CLOCK_CS : cs) * 10;
    return true;
}

int xboard_clock_moves_to_go(const XboardClock *c, const Board *b)
{
    if (c->mps <= 0)
        return 0;
    int move_number = board_fullmove(b);
    return c->mps - (move_number - 1) % c->mps;
}

/* The node budget standing in for the time budget in nps mode: the soft
 * time the time manager would allow, converted at the given rate. */
static uint64_t nps_node_budget(const XboardClock *c, const SearchLimits *timed, const Board *b)
{
    int64_t ms = c->st_ms;
    if (!ms) {
        TimeBudget budget;
        timeman_init(&budget, timed, b->side, 0);
        ms = budget.soft > 0 ? budget.soft : 1;
    }
    /* ms * nps / 1000 without overflow: both are bounded well below 2^63. */
    double nodes = (double)ms * (double)c->nps / 1000.0;
    return nodes < 1 ? 1 : nodes > 1e18 ? (uint64_t)1e18 : (uint64_t)nodes;
}

void xboard_clock_limits(const XboardClock *c, const Board *b, SearchLimits *limits)
{
    timeman_init_limits(limits);
    Color us = b->side;
    limits->depth = c->sd;
    if (c->st_ms) {
        limits->move_time = c->st_ms;
    } else {
        limits->time[us] = c->own_ms > 0 ? c->own_ms : 0;
        limits->time[color_flip(us)] = c->opp_ms > 0 ? c->opp_ms : 0;
        limits->inc[WHITE] = limits->inc[BLACK] = c->inc_ms;
        limits->moves_to_go = xboard_clock_moves_to_go(c, b);
    }
    if (c->nps > 0) {
        uint64_t nodes = nps_node_budget(c, limits, b);
        int depth = limits->depth;
        timeman_init_limits(limits);
        limits->depth = depth;
        limits->nodes = nodes;
    }
}

void xboard_clock_spent(XboardClock *c, const Board *b, int64_t spent_ms)
{
    if (c->st_ms)
        return;
    c->own_ms += c->inc_ms - spent_ms;
    if (c->mps > 0 && xboard_clock_moves_to_go(c, b) == 1)
        c->own_ms += c->base_ms;
}

int64_t xboard_clock_shown_cs(int64_t nps, uint64_t nodes, int64_t elapsed_ms)
{
    if (nps > 0)
        return (int64_t)((double)nodes * 100.0 / (double)nps);
    return elapsed_ms > 0 ? elapsed_ms / 10 : 0;
}
