/* fuzz_cecp.c — XBoard (CECP) command sequences through xboard_command().
 *
 * Each input is a script of lines sent one by one after a reset (leave
 * analysis, `new`, `easy`, the default clock and options). So that the
 * engine's own moves happen and are handled within a script, its thinking
 * is bounded with `sd 1` (sent after the reset and after every `new` of
 * the script, which clears the depth limit); after a line that may set it
 * thinking, the harness gives the search a moment to end and hands its
 * best move to the front end with an empty line. Pondering and analysis
 * just run on while the script goes on, and the end of the script stops
 * everything. Option values that would open files or take much memory or
 * many threads are rewritten (fuzz_safe_option_value). */
#define _GNU_SOURCE /* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "fuzz_common.h"
#include "options.h"
#include "protocol/xboard.h"
#include "tokens.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How long a search that may end soon is given: SETTLE_POLLS × SETTLE_US. */
enum { SETTLE_POLLS = 100, SETTLE_US = 20, ASSIGNMENT_SIZE = 512 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_protocol_init();
    return 0;
}

static bool send(const char *text)
{
    return fuzz_send_line(xboard_command, text);
}

/* Gives a search that may be about to end its moment, then lets the front
 * end handle its best move (an empty line only empties the inbox). */
static void settle(void)
{
    for (int i = 0; i < SETTLE_POLLS && engine_is_searching(); i++)
        usleep(SETTLE_US);
    send("");
}

/* Commands after which the engine may be thinking on its own time with a
 * move to come: go, usermove, ?, and a bare move (any unknown word). */
static bool may_start_thinking(const char *word)
{
    static const char *OTHERS[] = {
        "protover", "new", "variant", "force", "playother", "white", "black", "ping", "draw", "result",
        "setboard", "undo", "remove", "hard", "easy", "post", "nopost", "analyze", "exit", ".", "hint",
        "bk", "memory", "cores", "option", "level", "st", "sd", "nps", "time", "otim", "xboard",
        "accepted", "rejected", "random", "computer", "name", "rating", "ics", "egtpath", "quit",
    };
    for (size_t i = 0; i < sizeof OTHERS / sizeof *OTHERS; i++)
        if (strcmp(word, OTHERS[i]) == 0)
            return false;
    return true;
}

/* `option NAME=VALUE`, `memory N` and `cores N` with safe values, read
 * the way xboard.c and options.c read them; NULL when the line may go as
 * it is. */
static char *safe_line(const char *line)
{
    char *copy = strdup(line);
    FUZZ_CHECK(copy != NULL);
    Tokens t;
    FUZZ_CHECK(tokens_split(copy, &t));
    char *result = NULL;
    const char *command = t.count > 0 ? t.words[0] : "";
    if (t.count >= 2 && (strcmp(command, "memory") == 0 || strcmp(command, "cores") == 0)) {
        int most = strcmp(command, "memory") == 0 ? FUZZ_MAX_HASH_MB : FUZZ_MAX_THREADS;
        char *end;
        errno = 0;
        long long n = strtoll(t.words[1], &end, 10);
        if (!*end && !errno && n > most && asprintf(&result, "%s %d", command, most) < 0)
            result = NULL;
    } else if (t.count >= 2 && strcmp(command, "option") == 0) {
        char assignment[ASSIGNMENT_SIZE], name[256];
        tokens_join(&t, 1, assignment, sizeof assignment);
        const char *equals = strchr(assignment, '=');
        size_t len = equals ? (size_t)(equals - assignment) : strlen(assignment);
        while (len > 0 && isspace((unsigned char)assignment[len - 1]))
            len--;
        if (len < sizeof name) {
            memcpy(name, assignment, len);
            name[len] = '\0';
            const char *value = equals ? equals + 1 : "";
            while (isspace((unsigned char)*value))
                value++;
            const char *safe = fuzz_safe_option_value(name, value);
            if (safe && asprintf(&result, "option %s=%s", name, safe) < 0)
                result = NULL;
        }
    }
    tokens_free(&t);
    free(copy);
    return result;
}

static bool run_line(char *line, void *context)
{
    (void)context;
    char *safe = safe_line(line);
    char first[16];
    const char *word = line + strspn(line, " \t\r\n");
    snprintf(first, sizeof first, "%.*s", (int)strcspn(word, " \t\r\n"), word);
    bool more = xboard_command(safe ? safe : line);
    free(safe);
    fuzz_check_options_safe();
    if (more && strcmp(first, "new") == 0)
        send("sd 1");
    if (more && *first && may_start_thinking(first))
        settle();
    return more;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_guard_files(true);
    send("exit");
    send("new");
    send("easy");
    send("post");
    send("level 40 5 0");
    send("sd 1");
    fuzz_options_reset();
    unlink(fuzz_sandbox_path("games.pgn"));

    fuzz_for_each_line(data, size, run_line, NULL);

    settle();
    send("exit");
    send("new");
    FUZZ_CHECK(!engine_is_searching());
    fuzz_check_board(engine_board());
    fuzz_guard_files(false);
    return 0;
}
