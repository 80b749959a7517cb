/* engine_options.c — the engine's options and what changing each one does. */
#include "engine_options.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "engine_book.h"
#include "engine_settings.h"
#include "evaluator.h"
#include "nnue/default_net.h"
#include "nnue/network.h"
#include "options.h"
#include "search.h"
#include "strength.h"
#include "syzygy/syzygy.h"
#include "search_params.h"
#include "tt.h"

static bool set_hash(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)text;
    if ((size_t)value == tt_size_mb())
        return true;
    if (!engine_set_hash((size_t)value)) {
        snprintf(error, esize, "cannot allocate %lld MB for the hash table; keeping %zu MB", (long long)value, tt_size_mb());
        return false;
    }
    return true;
}

static bool set_threads(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)text;
    if (value == engine_thread_count())
        return true;
    if (!engine_set_threads((int)value)) {
        snprintf(error, esize, "cannot start %lld threads", (long long)value);
        return false;
    }
    return true;
}

static bool clear_hash(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value, (void)text, (void)error, (void)esize;
    engine_new_game();
    return true;
}

/* The search reads its switches while it runs: change them between searches. */
static bool set_search_flag(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    engine_wait();
    return option_store_bool(o, value, text, error, esize);
}

static bool set_search_number(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    engine_wait();
    return option_store_int(o, value, text, error, esize);
}

static bool set_algorithm(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value, (void)error, (void)esize;
    engine_wait();
    search_options.algorithm = strcasecmp(text, "AlphaBeta") == 0 ? ALGO_ALPHABETA
                             : strcasecmp(text, "MTDf") == 0    ? ALGO_MTDF
                                                                : ALGO_PVS;
    return true;
}

/* BookFile: "" is the built-in book; a file that cannot be used is refused
 * and the engine plays on without a book. */
static bool set_book_file(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value;
    engine_wait();
    return engine_book_select(option_text_value(text), error, esize);
}

/* ---- the evaluation ---------------------------------------------------------
 * The network the engine evaluates with when Evaluation is NNUE: the one
 * built into the binary, or one loaded from EvalFile. Both options change
 * the evaluation, so the table, which keeps static evaluations, is cleared. */

static Network network;
static bool want_nnue;

static bool apply_evaluation(char *error, size_t esize)
{
    if (want_nnue && network.hidden == 0) {
        snprintf(error, esize, "no network loaded: set EvalFile to a network file first");
        return false;
    }
    evaluator_select(want_nnue ? EVALUATION_NNUE : EVALUATION_CLASSICAL, &network);
    engine_new_game();
    return true;
}

static bool set_evaluation(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value;
    engine_wait();
    bool previous = want_nnue;
    want_nnue = strcasecmp(text, "NNUE") == 0;
    if (!apply_evaluation(error, esize)) {
        want_nnue = previous;
        return false;
    }
    return true;
}

static bool load_builtin_network(Network *net, char *error, size_t esize)
{
    size_t size;
    const unsigned char *bytes = default_net_bytes(&size);
    return network_load_bytes(net, bytes, size, error, esize);
}

/* EvalFile: a network that cannot be used is refused with the reason, and
 * the engine keeps the network it had. Empty: the built-in network. */
static bool set_eval_file(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    (void)o, (void)value;
    const char *path = option_text_value(text);
    Network fresh = { 0 };
    if (*path ? !network_load_file(&fresh, path, error, esize) : !load_builtin_network(&fresh, error, esize))
        return false;
    engine_wait();
    network_free(&network);
    network = fresh;
    return apply_evaluation(error, esize);
}

/* ---- tablebases ----------------------------------------------------------------
 * SyzygyPath waits for a running search, then loads the tables; what it
 * found, or why it found nothing, is a note for the GUI (the engine plays on
 * without tables), never a refusal. */
static bool set_syzygy_path(const Option *o, int64_t value, const char *text, char *note, size_t nsize)
{
    (void)o, (void)value;
    engine_wait();
    const char *paths = option_text_value(text);
    if (syzygy_init(paths, note, nsize) == 0 && *paths) {
        size_t length = strlen(note);
        snprintf(note + length, nsize - length, ": playing without them");
    }
    return true;
}

static void register_tablebase_options(void)
{
    EngineSettings *e = &engine_settings;
    option_register((Option){ OPTION_STRING_SPEC("SyzygyPath", "", "Syzygy tablebase directories, separated by ':' (empty: none)"),
                              .changed = set_syzygy_path });
    option_register((Option){ OPTION_SPIN_SPEC("SyzygyProbeDepth", 1, 1, 100, "probe the tables in the search from this depth on"),
                              .changed = option_store_int, .target = &e->syzygy_probe_depth });
    option_register((Option){ OPTION_CHECK_SPEC("Syzygy50MoveRule", 1, "wins and losses that the fifty-move rule spoils count as draws"),
                              .changed = option_store_bool, .target = &e->syzygy_fifty_move_rule });
    option_register((Option){ OPTION_SPIN_SPEC("SyzygyProbeLimit", 7, 0, 7, "probe positions with at most this many pieces (0: never)"),
                              .changed = option_store_int, .target = &e->syzygy_probe_limit });
}

static void register_evaluation_options(void)
{
    char error[256];
    if (!load_builtin_network(&network, error, sizeof error))
        fprintf(stderr, "bachess: the built-in network is unusable: %s\n", error);
    option_register((Option){ OPTION_COMBO_SPEC("Evaluation", "NNUE", "Classical NNUE",
                                                "the hand-written evaluation of the seeds, or the NNUE network (built in, or EvalFile)"),
                              .changed = set_evaluation });
    option_register((Option){ OPTION_STRING_SPEC("EvalFile", "", "NNUE network file (bachess format, see docs/nnue.md; empty: the built-in network)"),
                              .changed = set_eval_file });
}

static void register_search_switches(void)
{
    SearchOptions *s = &search_options;
    const struct {
        const char *name;
        bool *flag;
        bool on;
        const char *help;
    } switches[] = {
        { "NullMove", &s->null_move, true, "null-move pruning" },
        { "LateMoveReductions", &s->lmr, true, "late move reductions" },
        { "Futility", &s->futility, true, "futility and delta pruning" },
        { "ReverseFutility", &s->reverse_futility, true, "reverse futility pruning" },
        { "LateMovePruning", &s->late_move_pruning, true, "late move pruning" },
        { "SEEPruning", &s->see_pruning, true, "pruning of losing moves by static exchange" },
        { "HistoryPruning", &s->history_pruning, true, "pruning of quiet moves that kept failing after the same previous moves" },
        { "CorrectionHistory", &s->correction_history, true, "static evaluation corrected by what searches found for the same pawns" },
        { "SingularExtension", &s->singular_extension, true, "singular extension" },
        { "CheckExtension", &s->check_extension, false, "check extension (off: it lost 34 Elo in self-play)" },
        { "IIR", &s->iir, true, "internal iterative reduction" },
        { "Aspiration", &s->aspiration, true, "aspiration windows" },
        { "MateDistancePruning", &s->mate_distance_pruning, true, "cut nodes that cannot beat a mate already found" },
        { "SelectiveDeepening", &s->selective_deepening, true, "seed selective deepening: few-move nodes cost no depth" },
    };
    option_register((Option){ OPTION_COMBO_SPEC("SearchAlgorithm", "PVS", "PVS AlphaBeta MTDf", "NegaScout/PVS, plain alpha-beta or MTD(f)"),
                              .changed = set_algorithm });
    for (size_t i = 0; i < sizeof switches / sizeof *switches; i++)
        option_register((Option){ OPTION_CHECK_SPEC(switches[i].name, switches[i].on, switches[i].help),
                                  .changed = set_search_flag, .target = switches[i].flag });
    option_register((Option){ OPTION_SPIN_SPEC("SelectiveMoves", 3, 1, 10, "a node with at most this many legal moves costs no depth"),
                              .changed = set_search_number, .target = &s->few_moves });
    option_register((Option){ OPTION_SPIN_SPEC("SelectiveBudget", 4, 0, 20, "how many such few-move plies per path"),
                              .changed = set_search_number, .target = &s->few_budget });
    option_register((Option){ OPTION_SPIN_SPEC("SingleReplyBudget", 10, 0, 40, "how many single-reply plies per path"),
                              .changed = set_search_number, .target = &s->single_budget });
}

#ifdef SEARCH_TUNING
/* A tuning build offers every search parameter as an option of its name;
 * the LMR table is rebuilt from its parameters after each change. */
static bool set_search_param(const Option *o, int64_t value, const char *text, char *error, size_t esize)
{
    engine_wait();
    option_store_int(o, value, text, error, esize);
    search_init();
    return true;
}

static void register_search_params(void)
{
#define SEARCH_PARAM_OPTION(name, value, min, max, step)                                                             \
    option_register((Option){ OPTION_SPIN_SPEC(#name, value, min, max, "search parameter (tuning build)"),             \
                              .offered = OFFER_UCI, .changed = set_search_param, .target = &name });
    SEARCH_PARAMS(SEARCH_PARAM_OPTION)
#undef SEARCH_PARAM_OPTION
}
#else
static void register_search_params(void) {}
#endif

static void register_book_options(void)
{
    EngineSettings *e = &engine_settings;
    option_register((Option){ OPTION_CHECK_SPEC("OwnBook", 1, "play moves from the opening book (under a clock; not when analysing)"),
                              .changed = option_store_bool, .target = &e->own_book });
    option_register((Option){ OPTION_STRING_SPEC("BookFile", "", "Polyglot .bin book to use (empty: the built-in book)"),
                              .changed = set_book_file });
    option_register((Option){ OPTION_SPIN_SPEC("BookDepth", 40, 0, 1000, "use the book for the first this many plies of the game"),
                              .changed = option_store_int, .target = &e->book_depth });
    option_register((Option){ OPTION_CHECK_SPEC("BookBestMove", 0, "always play the book's heaviest move instead of a weighted random one"),
                              .changed = option_store_bool, .target = &e->book_best_move });
}

static bool set_chess960(const Option *o, int64_t value, const char *text, char *error, size_t error_size)
{
    (void)o, (void)text, (void)error, (void)error_size;
    engine_set_chess960(value != 0);
    return true;
}

void engine_register_options(void)
{
    static bool registered;
    if (registered)
        return;
    registered = true;
    EngineSettings *e = &engine_settings;
    /* XBoard sets these with commands of its own (memory, cores, analyze). */
    option_register((Option){ OPTION_SPIN_SPEC("Hash", 16, 1, MAX_HASH_MB, "transposition table size in MB"),
                              .offered = OFFER_UCI, .changed = set_hash });
    option_register((Option){ OPTION_SPIN_SPEC("Threads", 1, 1, MAX_THREADS, "search threads"),
                              .offered = OFFER_UCI, .changed = set_threads });
    option_register((Option){ OPTION_BUTTON_SPEC("Clear Hash", "forget everything learned (table and histories)"),
                              .changed = clear_hash });
    option_register((Option){ OPTION_SPIN_SPEC("MultiPV", 1, 1, MAX_MULTIPV, "show this many best lines"),
                              .changed = option_store_int, .target = &e->multipv });
    option_register((Option){ OPTION_CHECK_SPEC("UCI_LimitStrength", 0, "play weaker, at about UCI_Elo"),
                              .changed = option_store_bool, .target = &e->limit_strength });
    option_register((Option){ OPTION_SPIN_SPEC("UCI_Elo", 1500, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, "the strength to play at when limited (docs/strength-limit.md)"),
                              .changed = option_store_int, .target = &e->elo });
    option_register((Option){ OPTION_CHECK_SPEC("UCI_AnalyseMode", 0, "the GUI is analysing (no effect on the search)"),
                              .offered = OFFER_UCI, .changed = option_store_bool, .target = &e->analyse_mode });
    option_register((Option){ OPTION_CHECK_SPEC("UCI_Chess960", 0, "Chess960: any start position, castling written king-takes-rook (e1h1)"),
                              .offered = OFFER_UCI, .changed = set_chess960 });
    option_register((Option){ OPTION_SPIN_SPEC("Move Overhead", 30, 0, 5000, "milliseconds kept in reserve per move for GUI and network lag"),
                              .changed = option_store_int, .target = &e->move_overhead_ms });
    register_search_switches();
    register_book_options();
    register_evaluation_options();
    register_tablebase_options();
    register_search_params();
}
