/* frontend_options.c — the front ends' options and what changing each does. */
#include "protocol/frontend_options.h"

#include <stdio.h>

#include "protocol/output.h"

FrontEndSettings frontend_settings;

/* ConnTrace: a path opens the protocol trace (both directions, with
 * timestamps); an empty value closes it. */
static bool set_trace(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value;
    const char *path = option_text_value(text);
    if (!*path) {
        out_trace_close();
        return true;
    }
    if (!out_trace_open(path)) {
        snprintf(error, esize, "cannot open the trace file '%.200s'", path);
        return false;
    }
    return true;
}

void frontend_register_options(void)
{
    static bool registered;
    if (registered)
        return;
    registered = true;
    FrontEndSettings *f = &frontend_settings;
    /* XBoard has hard/easy for pondering, and shows no WDL; UCI GUIs resign themselves. */
    option_register((Option){ OPTION_CHECK_SPEC("Ponder", 0, "the GUI may let the engine think on the opponent's time"),
                              .offered = OFFER_UCI, .changed = option_store_bool, .target = &f->ponder });
    option_register((Option){ OPTION_CHECK_SPEC("UCI_ShowWDL", 0, "show win/draw/loss chances (per mille) with the score"),
                              .offered = OFFER_UCI, .changed = option_store_bool, .target = &f->show_wdl });
    option_register((Option){ OPTION_SPIN_SPEC("ResignScore", 0, 0, 10000,
                                               "XBoard: resign when the score stays below minus this many centipawns for 3 moves (0: never)"),
                              .offered = OFFER_CECP, .changed = option_store_int, .target = &f->resign_score });
    option_register((Option){ OPTION_STRING_SPEC("PGNLog", "", "append every game played to this PGN file (empty: off)"),
                              .changed = option_store_text, .target = f->pgn_log });
    option_register((Option){ OPTION_STRING_SPEC("ConnTrace", "", "log the protocol traffic to this file, for debugging (empty: off)"),
                              .changed = set_trace });
}
