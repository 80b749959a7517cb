/* web.c — the `bachess web` sub-command (see web.h). */
#include "web/web.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syzygy/syzygy.h"
#include "web/web_events.h"
#include "web/web_review.h"
#include "web/web_server.h"
#include "web/web_session.h"

extern char **environ;

static volatile sig_atomic_t stop_requested;

static void request_stop(int signal) { (void)signal, stop_requested = 1; }

static void usage(void)
{
    fprintf(stderr, "usage: bachess web [--port N] [--bind ADDRESS] [--open] [--threads N] [--hash MB]\n"
                    "                   [--syzygy DIRS] [--review-nodes N] [--review-seconds S]\n"
                    "  --port N          the port (default %d)\n"
                    "  --bind ADDRESS    the IPv4 address to listen on (default 127.0.0.1, this machine\n"
                    "                    only; to reach it from elsewhere, prefer an SSH tunnel)\n"
                    "  --open            open the page in the desktop's browser (xdg-open)\n"
                    "  --threads N, --hash MB, --syzygy DIRS\n"
                    "                    the engine's Threads, Hash and SyzygyPath (the page cannot set them);\n"
                    "                    a review's workers are the engine's threads\n"
                    "  --review-nodes N  nodes a position for the page's \"Review game\" (default %d)\n"
                    "  --review-seconds S  a review taking longer is stopped (default: %d s and each\n"
                    "                    position's nodes at %d a second: a bound on a review that hangs)\n",
            WEB_DEFAULT_PORT, REVIEW_NODES, REVIEW_SECONDS_START, REVIEW_NODES_PER_SECOND_MIN);
}

/* The browser, started as a program with the address as its one argument. */
static void open_browser(const char *url)
{
    char *const args[] = { "xdg-open", (char *)url, NULL };
    pid_t pid;
    if (posix_spawnp(&pid, "xdg-open", NULL, NULL, args, environ) != 0)
        fprintf(stderr, "bachess web: could not start xdg-open; open %s yourself\n", url);
}

/* A whole number in [min, max]. */
static bool parse_number(const char *text, long min, long max, long *value)
{
    char *end;
    errno = 0;
    *value = strtol(text, &end, 10);
    return end != text && *end == '\0' && errno == 0 && *value >= min && *value <= max;
}

int web_command(int argc, char **argv)
{
    long port = WEB_DEFAULT_PORT, review_nodes = REVIEW_NODES, review_seconds = 0;
    const char *address = "127.0.0.1";
    bool open_page = false;
    /* Engine options from the command line, set once the engine is up. */
    static const char *const FLAG_OPTIONS[][2] = { { "--threads", "Threads" }, { "--hash", "Hash" },
                                                   { "--syzygy", "SyzygyPath" } };
    const char *option_values[3] = { NULL, NULL, NULL };
    for (int i = 0; i < argc; i++) {
        bool taken = false;
        for (int k = 0; k < 3 && i + 1 < argc; k++)
            if (strcmp(argv[i], FLAG_OPTIONS[k][0]) == 0) {
                option_values[k] = argv[++i];
                taken = true;
                break;
            }
        if (taken)
            continue;
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc && parse_number(argv[i + 1], 1, 65535, &port))
            i++;
        else if (strcmp(argv[i], "--review-nodes") == 0 && i + 1 < argc
                 && parse_number(argv[i + 1], 1, REVIEW_NODES_MAX, &review_nodes))
            i++;
        else if (strcmp(argv[i], "--review-seconds") == 0 && i + 1 < argc
                 && parse_number(argv[i + 1], 1, REVIEW_SECONDS_MAX, &review_seconds))
            i++;
        else if (strcmp(argv[i], "--bind") == 0 && i + 1 < argc)
            address = argv[++i];
        else if (strcmp(argv[i], "--open") == 0)
            open_page = true;
        else {
            usage();
            return 2;
        }
    }
    char error[256], url[96];
    web_session_start();
    for (int k = 0; k < 3; k++)
        if (option_values[k] && !web_session_set_option(FLAG_OPTIONS[k][1], option_values[k])) {
            web_session_stop();
            return 2;
        }
    long threads = 1, given; /* a value the engine took is a number it allows */
    if (option_values[0] && parse_number(option_values[0], 1, LONG_MAX, &given))
        threads = given;
    const char *tablebases = option_values[2] && syzygy_largest() > 0 ? option_values[2] : NULL;
    web_review_configure(review_nodes, review_seconds, threads, tablebases);
    if (!web_server_start(address, (uint16_t)port, error, sizeof error)) {
        web_session_stop();
        fprintf(stderr, "bachess web: %s\n", error);
        return 1;
    }
    snprintf(url, sizeof url, "http://%s:%ld/", strcmp(address, "0.0.0.0") ? address : "127.0.0.1", port);
    printf("bachess web: serving %s (Ctrl-C to stop)\n", url);
    fflush(stdout);
    if (open_page)
        open_browser(url);
    signal(SIGINT, request_stop);
    signal(SIGTERM, request_stop);
    while (!stop_requested)
        usleep(100 * 1000);
    web_server_stop();
    web_session_stop();
    web_events_free();
    printf("bachess web: stopped\n");
    return 0;
}
