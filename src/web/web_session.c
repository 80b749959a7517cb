/* web_session.c — the page's commands, checked, into the UCI front end (see web_session.h). */
#include "web/web_session.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/gamelog.h"
#include "protocol/output.h"
#include "protocol/uci.h"
#include "tokens.h"
#include "web/web_events.h"

/* One command at a time: the UCI front end is not re-entrant. */
static pthread_mutex_t command_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const COMMANDS[] = { "position", "go", "stop", "isready", "ucinewgame", "ponderhit" };
/* The options a player sets at the board; none of them names a file. */
static const char *const OPTIONS[] = { "MultiPV", "UCI_LimitStrength", "UCI_Elo", "UCI_Chess960",
                                       "UCI_ShowWDL", "UCI_AnalyseMode", "Evaluation", "Ponder" };

#define COUNT(a) (sizeof(a) / sizeof *(a))

static bool printable(const char *s)
{
    for (; *s; s++)
        if (*s < ' ' || *s > '~')
            return false;
    return true;
}

/* Printable ASCII and line ends: a PGN request. */
static bool printable_lines(const char *s)
{
    for (; *s; s++)
        if ((*s < ' ' || *s > '~') && *s != '\n' && *s != '\r')
            return false;
    return true;
}

static bool starts_with_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ');
}

static bool allowed_setoption(const char *line)
{
    const char *prefix = "setoption name ";
    if (strncmp(line, prefix, strlen(prefix)) != 0)
        return false;
    const char *name = line + strlen(prefix);
    for (size_t i = 0; i < COUNT(OPTIONS); i++)
        if (starts_with_word(name, OPTIONS[i]))
            return true;
    return false;
}

/* `go perft N` runs in the front end's own thread, under command_lock, and
 * cannot be stopped: `go perft 8` would hold every page and the shutdown for
 * minutes. A page has no use for it. */
static bool is_go_perft(const char *line)
{
    char *copy = strdup(line);
    Tokens t = { 0 };
    bool perft = copy && tokens_split(copy, &t) && t.count > 0 && strcmp(t.words[0], "go") == 0
        && tokens_find(&t, "perft", 1) >= 0;
    tokens_free(&t);
    free(copy);
    return perft;
}

static bool allowed(const char *line)
{
    if (is_go_perft(line))
        return false;
    for (size_t i = 0; i < COUNT(COMMANDS); i++)
        if (starts_with_word(line, COMMANDS[i]))
            return true;
    return allowed_setoption(line);
}

/* Runs a line through the UCI front end, which may write into it. */
static void run_uci(const char *line)
{
    char copy[WEB_COMMAND_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    pthread_mutex_lock(&command_lock);
    uci_command(copy);
    pthread_mutex_unlock(&command_lock);
}

void web_session_start(void)
{
    out_set_sink(web_events_publish);
    run_uci("uci");
}

void web_session_stop(void)
{
    run_uci("stop");
    run_uci("isready"); /* waits for nothing, but orders the last lines */
    out_set_sink(NULL);
}

bool web_session_set_option(const char *name, const char *value)
{
    char line[WEB_COMMAND_MAX];
    snprintf(line, sizeof line, "setoption name %s value %s", name, value);
    uint64_t first = web_events_next();
    run_uci(line);
    /* The UCI front end answers a refused value with an error line. */
    char reply[WEB_EVENT_LINE_MAX];
    while (web_events_wait(&first, reply, sizeof reply, 0))
        if (strstr(reply, "error")) {
            fprintf(stderr, "bachess web: %s\n", reply);
            return false;
        }
    return true;
}

bool web_session_command(const char *line, char *error, size_t error_size)
{
    size_t length = strnlen(line, WEB_COMMAND_MAX);
    if (length == 0 || length >= WEB_COMMAND_MAX) {
        snprintf(error, error_size, "a command is 1 to %d characters", WEB_COMMAND_MAX - 1);
        return false;
    }
    if (!printable(line)) {
        snprintf(error, error_size, "a command is one line of printable ASCII");
        return false;
    }
    if (!allowed(line)) {
        snprintf(error, error_size, "not a command a page may send: '%.40s'", line);
        return false;
    }
    run_uci(line);
    return true;
}

static bool set_result(GameLog *log, const char *text)
{
    static const GameResult RESULTS[] = { RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW };
    for (size_t i = 0; i < COUNT(RESULTS); i++)
        if (strcmp(text, gamelog_result_text(RESULTS[i])) == 0) {
            gamelog_finish(log, RESULTS[i], NULL);
            return true;
        }
    return strcmp(text, "*") == 0;
}

/* Applies one "key value" line of a PGN request; a result is kept in
 * `result` for the end, since adding a move clears one. */
static bool pgn_request_line(GameLog *log, char *line, const char **result, char *error, size_t error_size)
{
    line[strcspn(line, "\r")] = '\0';
    char *value = strchr(line, ' ');
    value = value ? value + 1 : line + strlen(line);
    if (strncmp(line, "white ", 6) == 0 || strncmp(line, "black ", 6) == 0)
        return gamelog_set_tag(log, line[0] == 'w' ? "White" : "Black", value);
    if (strncmp(line, "result ", 7) == 0) {
        *result = value;
        return true;
    }
    if (strncmp(line, "moves", 5) == 0) {
        for (char *save, *m = strtok_r(value, " ", &save); m; m = strtok_r(NULL, " ", &save))
            if (!gamelog_add_text(log, m)) {
                snprintf(error, error_size, "illegal move '%.12s' after %d plies", m, gamelog_ply_count(log));
                return false;
            }
        gamelog_finish_by_rules(log);
        return true;
    }
    snprintf(error, error_size, "unknown line '%.20s'", line);
    return false;
}

char *web_session_pgn(const char *request, WebGameFacts *facts, char *error, size_t error_size)
{
    if (!printable_lines(request)) {
        snprintf(error, error_size, "a PGN request is lines of printable ASCII");
        return NULL;
    }
    char *text = strdup(request), *save = NULL;
    GameLog log = { 0 };
    char *line = text ? strtok_r(text, "\n", &save) : NULL;
    const char *fen = NULL;
    bool chess960 = false;
    while (line && (strncmp(line, "fen ", 4) == 0 || strcmp(line, "chess960") == 0)) {
        if (line[0] == 'f')
            fen = line + 4;
        else
            chess960 = true;
        line = strtok_r(NULL, "\n", &save);
    }
    bool ok = text && gamelog_start_960(&log, fen, chess960, error, error_size);
    gamelog_set_tag(&log, "Event", "bachess web");
    const char *result = "*";
    for (; ok && line; line = strtok_r(NULL, "\n", &save))
        ok = pgn_request_line(&log, line, &result, error, error_size);
    if (ok && !gamelog_is_finished(&log) && !set_result(&log, result)) {
        snprintf(error, error_size, "unknown result '%.20s'", result);
        ok = false;
    }
    char *pgn = ok ? gamelog_pgn(&log) : NULL;
    if (facts)
        *facts = (WebGameFacts){ .plies = gamelog_ply_count(&log) };
    gamelog_free(&log);
    free(text);
    return pgn;
}
