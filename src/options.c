/* options.c — the engine option table and its checks. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "games/book.h"
#include "engine.h"
#include "protocol/output.h"
#include "tokens.h"
#include "tt.h"

static bool apply_hash(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)t;
    if (!engine_set_hash((size_t)v)) {
        snprintf(err, n, "cannot allocate %lld MB for the hash table; keeping %zu MB", (long long)v, tt_size_mb());
        return false;
    }
    return true;
}

static bool apply_threads(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)t;
    if (!engine_set_threads((int)v)) {
        snprintf(err, n, "cannot start %lld threads", (long long)v);
        return false;
    }
    return true;
}

static bool apply_clear_hash(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)v, (void)t, (void)err, (void)n;
    engine_new_game();
    return true;
}

static bool apply_nothing(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)v, (void)t, (void)err, (void)n;
    return true;
}

/* Search switches write straight into search_options (between searches). */
static bool apply_search(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)err, (void)n;
    SearchOptions *s = &search_options;
    struct { const char *name; bool *flag; } switches[] = {
        { "NullMove", &s->null_move }, { "LateMoveReductions", &s->lmr }, { "Futility", &s->futility },
        { "ReverseFutility", &s->reverse_futility }, { "LateMovePruning", &s->late_move_pruning },
        { "SEEPruning", &s->see_pruning }, { "SingularExtension", &s->singular_extension },
        { "CheckExtension", &s->check_extension }, { "SelectiveDeepening", &s->selective_deepening },
        { "IIR", &s->iir }, { "Aspiration", &s->aspiration },
        { "MateDistancePruning", &s->mate_distance_pruning }, { "HistoryPruning", &s->history_pruning },
    };
    engine_wait();
    for (size_t i = 0; i < sizeof switches / sizeof *switches; i++)
        if (strcmp(o->name, switches[i].name) == 0)
            *switches[i].flag = v != 0;
    if (strcmp(o->name, "SelectiveMoves") == 0)
        s->few_moves = (int)v;
    else if (strcmp(o->name, "SelectiveBudget") == 0)
        s->few_budget = (int)v;
    else if (strcmp(o->name, "SingleReplyBudget") == 0)
        s->single_budget = (int)v;
    else if (strcmp(o->name, "SearchAlgorithm") == 0)
        s->algorithm = strcasecmp(t, "AlphaBeta") == 0 ? ALGO_ALPHABETA : strcasecmp(t, "MTDf") == 0 ? ALGO_MTDF : ALGO_PVS;
    return true;
}

/* ConnTrace: a path opens the protocol trace (both directions, with
 * timestamps); an empty value closes it. */
static bool apply_trace(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)v;
    if (!*t || strcmp(t, "<empty>") == 0) {
        out_trace_close();
        return true;
    }
    if (!out_trace_open(t)) {
        snprintf(err, n, "cannot open the trace file '%.200s'", t);
        return false;
    }
    return true;
}

/* BookFile: "" is the built-in book; a file that cannot be used is refused
 * and the engine plays on without a book. */
static bool apply_book_file(const Option *o, int64_t v, const char *t, char *err, size_t n)
{
    (void)o, (void)v;
    engine_wait();
    return book_select(strcmp(t, "<empty>") == 0 ? "" : t, err, n);
}

#define SPIN(name, def, lo, hi, fn, help) { name, OPTION_SPIN, def, lo, hi, NULL, NULL, help, fn, 0, "" }
#define CHECK(name, def, fn, help) { name, OPTION_CHECK, def, 0, 1, NULL, NULL, help, fn, 0, "" }
#define BUTTON(name, fn, help) { name, OPTION_BUTTON, 0, 0, 0, NULL, NULL, help, fn, 0, "" }
#define COMBO(name, def, choices, fn, help) { name, OPTION_COMBO, 0, 0, 0, def, choices, help, fn, 0, "" }
#define STRING(name, def, fn, help) { name, OPTION_STRING, 0, 0, 0, def, NULL, help, fn, 0, "" }

static Option options[] = {
    SPIN("Hash", 16, 1, MAX_HASH_MB, apply_hash, "transposition table size in MB"),
    SPIN("Threads", 1, 1, MAX_THREADS, apply_threads, "search threads"),
    BUTTON("Clear Hash", apply_clear_hash, "forget everything learned (table and histories)"),
    CHECK("Ponder", 0, apply_nothing, "the GUI may let the engine think on the opponent's time"),
    SPIN("MultiPV", 1, 1, MAX_MULTIPV, apply_nothing, "show this many best lines"),
    CHECK("UCI_LimitStrength", 0, apply_nothing, "play weaker, at about UCI_Elo"),
    SPIN("UCI_Elo", 1500, 800, 2800, apply_nothing, "the strength to play at when limited (a rough scale)"),
    CHECK("UCI_ShowWDL", 0, apply_nothing, "show win/draw/loss chances (per mille) with the score"),
    CHECK("UCI_AnalyseMode", 0, apply_nothing, "the GUI is analysing (no effect on the search)"),
    SPIN("Move Overhead", 30, 0, 5000, apply_nothing, "milliseconds kept in reserve per move for GUI and network lag"),
    SPIN("ResignScore", 0, 0, 10000, apply_nothing, "XBoard: resign when the score stays below minus this many centipawns for 3 moves (0: never)"),
    COMBO("SearchAlgorithm", "PVS", "PVS AlphaBeta MTDf", apply_search, "NegaScout/PVS, plain alpha-beta or MTD(f)"),
    CHECK("NullMove", 1, apply_search, "null-move pruning"),
    CHECK("LateMoveReductions", 1, apply_search, "late move reductions"),
    CHECK("Futility", 1, apply_search, "futility and delta pruning"),
    CHECK("ReverseFutility", 1, apply_search, "reverse futility pruning"),
    CHECK("LateMovePruning", 1, apply_search, "late move pruning"),
    CHECK("SEEPruning", 1, apply_search, "pruning of losing moves by static exchange"),
    CHECK("HistoryPruning", 1, apply_search, "pruning of quiet moves that kept failing after the same previous moves"),
    CHECK("SingularExtension", 1, apply_search, "singular extension"),
    CHECK("CheckExtension", 0, apply_search, "check extension (off: it lost 34 Elo in self-play)"),
    CHECK("IIR", 1, apply_search, "internal iterative reduction"),
    CHECK("Aspiration", 1, apply_search, "aspiration windows"),
    CHECK("MateDistancePruning", 1, apply_search, "cut nodes that cannot beat a mate already found"),
    CHECK("SelectiveDeepening", 1, apply_search, "seed selective deepening: few-move nodes cost no depth"),
    SPIN("SelectiveMoves", 3, 1, 10, apply_search, "a node with at most this many legal moves costs no depth"),
    SPIN("SelectiveBudget", 4, 0, 20, apply_search, "how many such few-move plies per path"),
    SPIN("SingleReplyBudget", 10, 0, 40, apply_search, "how many single-reply plies per path"),
    CHECK("OwnBook", 1, apply_nothing, "play moves from the opening book (under a clock; not when analysing)"),
    STRING("BookFile", "", apply_book_file, "Polyglot .bin book to use (empty: the built-in book)"),
    SPIN("BookDepth", 40, 0, 1000, apply_nothing, "use the book for the first this many plies of the game"),
    CHECK("BookBestMove", 0, apply_nothing, "always play the book's heaviest move instead of a weighted random one"),
    STRING("PGNLog", "", apply_nothing, "append every game played to this PGN file (empty: off)"),
    STRING("ConnTrace", "", apply_trace, "log the protocol traffic to this file, for debugging (empty: off)"),
};

enum { OPTION_COUNT = sizeof options / sizeof *options };

void options_init(void)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        options[i].value = options[i].default_value;
        snprintf(options[i].text, sizeof options[i].text, "%s", options[i].default_text ? options[i].default_text : "");
    }
}

int options_count(void) { return OPTION_COUNT; }
Option *option_at(int index) { return index >= 0 && index < OPTION_COUNT ? &options[index] : NULL; }

Option *option_find(const char *name)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        if (strcasecmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

static bool parse_bool(const char *text, int64_t *value)
{
    if (strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0 || strcasecmp(text, "on") == 0)
        return (*value = 1), true;
    if (strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0 || strcasecmp(text, "off") == 0)
        return (*value = 0), true;
    return false;
}

static bool combo_has(const char *choices, const char *value)
{
    size_t len = strlen(value);
    for (const char *c = choices; *c;) {
        size_t word = strcspn(c, " ");
        if (word == len && strncasecmp(c, value, len) == 0)
            return true;
        c += word + (c[word] == ' ');
    }
    return false;
}

bool option_set(const char *name, const char *value, char *error, size_t esize)
{
    Option *o = option_find(name);
    if (!o) {
        snprintf(error, esize, "no such option '%.64s'", name);
        return false;
    }
    value = value ? value : "";
    int64_t v = 0;
    switch (o->type) {
    case OPTION_SPIN:
        if (!parse_int64(value, &v)) {
            snprintf(error, esize, "option %s needs a whole number, not '%.32s'", o->name, value);
            return false;
        }
        if (v < o->min || v > o->max) {
            snprintf(error, esize, "option %s must be from %lld to %lld, not %lld", o->name,
                     (long long)o->min, (long long)o->max, (long long)v);
            return false;
        }
        break;
    case OPTION_CHECK:
        if (!parse_bool(value, &v)) {
            snprintf(error, esize, "option %s needs true or false, not '%.32s'", o->name, value);
            return false;
        }
        break;
    case OPTION_COMBO:
        if (!combo_has(o->choices, value)) {
            snprintf(error, esize, "option %s must be one of: %s", o->name, o->choices);
            return false;
        }
        break;
    case OPTION_STRING:
        if (strlen(value) >= sizeof o->text) {
            snprintf(error, esize, "option %s: value too long", o->name);
            return false;
        }
        break;
    case OPTION_BUTTON:
        break;
    }
    if (!o->apply(o, v, value, error, esize))
        return false;
    o->value = v;
    if (o->type == OPTION_STRING || o->type == OPTION_COMBO)
        snprintf(o->text, sizeof o->text, "%s", value);
    return true;
}

/* Options that only one protocol has a use for. CECP has its own
 * commands for pondering (hard/easy), analysis, hash size (memory) and
 * threads (cores); UCI GUIs resign for the engine. An option is hidden
 * from one protocol when the other protocol's name starts its help. */
static bool option_shown(const Option *o, const char *other_protocol)
{
    static const char *CECP_HAS_COMMANDS[] = { "Hash", "Threads", "Ponder", "UCI_AnalyseMode", "UCI_ShowWDL" };
    if (strncmp(o->help, other_protocol, strlen(other_protocol)) == 0)
        return false;
    if (strcmp(other_protocol, "UCI:") == 0)
        for (size_t i = 0; i < sizeof CECP_HAS_COMMANDS / sizeof *CECP_HAS_COMMANDS; i++)
            if (strcmp(o->name, CECP_HAS_COMMANDS[i]) == 0)
                return false;
    return true;
}

void options_print_uci(FILE *out)
{
    static const char *TYPES[] = { "spin", "check", "button", "string", "combo" };
    for (int i = 0; i < OPTION_COUNT; i++) {
        const Option *o = &options[i];
        if (!option_shown(o, "XBoard:"))
            continue;
        fprintf(out, "option name %s type %s", o->name, TYPES[o->type]);
        if (o->type == OPTION_SPIN)
            fprintf(out, " default %lld min %lld max %lld", (long long)o->default_value, (long long)o->min, (long long)o->max);
        else if (o->type == OPTION_CHECK)
            fprintf(out, " default %s", o->default_value ? "true" : "false");
        else if (o->type == OPTION_STRING)
            fprintf(out, " default %s", *o->default_text ? o->default_text : "<empty>");
        else if (o->type == OPTION_COMBO) {
            fprintf(out, " default %s", o->default_text);
            for (const char *c = o->choices; *c;) {
                size_t word = strcspn(c, " ");
                fprintf(out, " var %.*s", (int)word, c);
                c += word + (c[word] == ' ');
            }
        }
        fputc('\n', out);
    }
}

int option_move_overhead(void) { return (int)option_find("Move Overhead")->value; }
int64_t option_int(const char *name) { return option_find(name)->value; }
const char *option_text(const char *name) { return option_find(name)->text; }

/* feature option="NAME -TYPE ..." for XBoard, showing current values. */
void options_print_xboard(FILE *out)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        const Option *o = &options[i];
        if (!option_shown(o, "UCI:"))
            continue;
        fprintf(out, "feature option=\"%s", o->name);
        switch (o->type) {
        case OPTION_SPIN:
            fprintf(out, " -spin %lld %lld %lld", (long long)o->value, (long long)o->min, (long long)o->max);
            break;
        case OPTION_CHECK:
            fprintf(out, " -check %d", o->value != 0);
            break;
        case OPTION_BUTTON:
            fputs(" -button", out);
            break;
        case OPTION_STRING:
            fprintf(out, " -string %s", o->text);
            break;
        case OPTION_COMBO:
            fputs(" -combo", out);
            for (const char *c = o->choices; *c;) {
                size_t word = strcspn(c, " ");
                bool current = strlen(o->text) == word && strncasecmp(c, o->text, word) == 0;
                fprintf(out, "%s %s%.*s", c == o->choices ? "" : " ///", current ? "*" : "", (int)word, c);
                c += word + (c[word] == ' ');
            }
            break;
        }
        fputs("\"\n", out);
    }
}

/* XBoard's `option NAME=VALUE` (buttons come as `option NAME`). */
bool option_set_xboard(const char *assignment, char *error, size_t esize)
{
    char name[256];
    const char *equals = strchr(assignment, '=');
    size_t len = equals ? (size_t)(equals - assignment) : strlen(assignment);
    while (len > 0 && isspace((unsigned char)assignment[len - 1]))
        len--;
    if (len >= sizeof name) {
        snprintf(error, esize, "option name too long");
        return false;
    }
    memcpy(name, assignment, len);
    name[len] = '\0';
    const char *value = equals ? equals + 1 : "";
    while (isspace((unsigned char)*value))
        value++;
    return option_set(name, value, error, esize);
}
