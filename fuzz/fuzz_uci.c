/* fuzz_uci.c — UCI command sequences through the real dispatcher, uci_command().
 *
 * Each input is a script of lines, sent one by one as a GUI would, after a
 * reset to a fresh game with default options. Searches run on the engine's
 * threads as usual, concurrently with the commands that follow: a command
 * that changes state stops them first, and the end of the input stops and
 * waits for whatever still runs, so a search lasts no longer than the
 * script. The only rewriting: option values that would open files or take
 * much memory or many threads (fuzz_safe_option_value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "fuzz_common.h"
#include "options.h"
#include "protocol/uci.h"
#include "tokens.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_protocol_init();
    return 0;
}

static bool send(const char *text)
{
    return fuzz_send_line(uci_command, text);
}

/* `setoption name N… [value V…]` with a value replaced, read the way
 * uci.c reads it; NULL when the line may go as it is. */
static char *safe_setoption(const char *line)
{
    char *copy = strdup(line);
    FUZZ_CHECK(copy != NULL);
    Tokens t;
    FUZZ_CHECK(tokens_split(copy, &t));
    char *result = NULL;
    int name_at = t.count > 0 && strcmp(t.words[0], "setoption") == 0 ? tokens_find(&t, "name", 1) : -1;
    if (name_at >= 0) {
        int value_at = tokens_find(&t, "value", name_at + 1);
        char name[256] = "", value[256] = "";
        int name_end = value_at < 0 ? t.count : value_at;
        for (int i = name_at + 1; i < name_end; i++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i > name_at + 1 ? " " : "", t.words[i]);
        for (int i = value_at < 0 ? t.count : value_at + 1; i < t.count; i++)
            snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s", i > value_at + 1 ? " " : "", t.words[i]);
        const char *safe = fuzz_safe_option_value(name, value);
        if (safe) {
            size_t size = strlen(name) + strlen(safe) + 32;
            result = malloc(size);
            FUZZ_CHECK(result != NULL);
            snprintf(result, size, "setoption name %s value %s", name, safe);
        }
    }
    tokens_free(&t);
    free(copy);
    return result;
}

static bool run_line(char *line, void *context)
{
    (void)context;
    char *safe = safe_setoption(line);
    bool more = uci_command(safe ? safe : line);
    free(safe);
    fuzz_check_options_safe();
    return more;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_guard_files(true);
    send("stop");
    send("ucinewgame");
    fuzz_options_reset();
    unlink(fuzz_sandbox_path("games.pgn"));
    send("position startpos");

    fuzz_for_each_line(data, size, run_line, NULL);

    engine_stop();
    engine_wait();
    FUZZ_CHECK(!engine_is_searching());
    fuzz_check_board(engine_board());
    fuzz_guard_files(false);
    return 0;
}
