/* web_review.c — a game reviewed by `bachess annotate` in a child process (see web_review.h). */
#define _GNU_SOURCE /* memfd_create, pipe2 */
#include "web/web_review.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timer.h"

extern char **environ;

static pthread_mutex_t one_review = PTHREAD_MUTEX_INITIALIZER;
/* The child under way (0: none) and whether the server is stopping: both
 * under child_lock, so that a child is either seen by web_review_cancel or
 * never started. */
static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t child;
static bool cancelled;
static long nodes_per_position = REVIEW_NODES;
static long time_limit_seconds; /* 0: from the game's length */
static long workers = 1;
static const char *tablebase_paths; /* NULL: none */

void web_review_configure(long nodes, long seconds, long worker_count, const char *tablebases)
{
    nodes_per_position = nodes;
    time_limit_seconds = seconds;
    workers = worker_count < REVIEW_WORKERS_MAX ? worker_count : REVIEW_WORKERS_MAX;
    tablebase_paths = tablebases;
}

/* When a review of `plies` moves started now must end. */
static int64_t deadline_ms(int plies)
{
    int64_t positions = plies + 1;
    if (time_limit_seconds > 0)
        return time_now_ms() + 1000 * (int64_t)time_limit_seconds;
    int64_t nodes = positions * nodes_per_position * REVIEW_NODES_WORST_FACTOR;
    return time_now_ms() + 1000 * (int64_t)REVIEW_SECONDS_START + nodes * 1000 / REVIEW_NODES_PER_SECOND_MIN;
}

/* A memory file holding `text`, at its start; -1 on failure. */
static int memory_file(const char *text)
{
    int fd = memfd_create("bachess-review", MFD_CLOEXEC);
    size_t length = strlen(text), done = 0;
    bool ok = fd >= 0;
    while (ok && done < length) {
        ssize_t n = write(fd, text + done, length - done);
        ok = n > 0 || (n < 0 && errno == EINTR);
        done += n > 0 ? (size_t)n : 0;
    }
    ok = ok && lseek(fd, 0, SEEK_SET) == 0;
    if (!ok && fd >= 0)
        close(fd);
    return ok ? fd : -1;
}

/* `bachess annotate /dev/stdin --nodes REVIEW_NODES --threads W [--syzygy DIRS]`: this binary, `input`
 * as its standard input, `output` as its standard output, its progress and
 * table (stderr) dropped; in a process group of its own, with its workers,
 * so that one kill ends them all; signals as at a fresh start (the server's
 * thread that spawns it blocks some). Returns posix_spawn's error number. */
static int spawn_annotator(int input, int output, pid_t *pid)
{
    char nodes[24], threads[24];
    snprintf(nodes, sizeof nodes, "%ld", nodes_per_position);
    snprintf(threads, sizeof threads, "%ld", workers);
    char *args[] = { "bachess", "annotate", "/dev/stdin", "--nodes", nodes, "--threads", threads, NULL, NULL, NULL };
    if (tablebase_paths) {
        args[7] = "--syzygy";
        args[8] = (char *)tablebase_paths;
    }
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attributes;
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, input, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&files, output, STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    int result = posix_spawn(pid, "/proc/self/exe", &files, &attributes, args, environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&files);
    return result;
}

/* Starts the child unless the server is stopping; its error number, or 0. */
static int start_child(int input, int output, pid_t *pid)
{
    pthread_mutex_lock(&child_lock);
    int result = cancelled ? ECANCELED : spawn_annotator(input, output, pid);
    if (result == 0)
        child = *pid;
    pthread_mutex_unlock(&child_lock);
    return result;
}

/* Appends what `fd` has to `text` (grown as needed, up to the limit): the
 * bytes read, 0 at the end, -1 on error or beyond the limit. */
static ssize_t read_some(int fd, char **text, size_t *size, size_t *capacity)
{
    if (*size == *capacity) {
        if (*capacity >= REVIEW_OUTPUT_MAX)
            return -1;
        char *grown = realloc(*text, 2 * *capacity + 1);
        if (!grown)
            return -1;
        *text = grown;
        *capacity *= 2;
    }
    ssize_t n;
    do
        n = read(fd, *text + *size, *capacity - *size);
    while (n < 0 && errno == EINTR);
    if (n > 0)
        *size += (size_t)n;
    return n;
}

/* The child's output, read until its end; NULL, with the reason in `why`,
 * past `deadline_ms` or REVIEW_OUTPUT_MAX or on an error. */
static char *read_output(int fd, int64_t deadline_ms, const char **why)
{
    size_t size = 0, capacity = 64 * 1024;
    char *text = malloc(capacity + 1);
    for (*why = NULL; text && !*why;) {
        int64_t left = deadline_ms - time_now_ms();
        struct pollfd p = { .fd = fd, .events = POLLIN };
        /* In steps of at most a minute: poll's timeout is an int of milliseconds. */
        int ready = left > 0 ? poll(&p, 1, (int)(left < 60000 ? left : 60000)) : 0;
        if (left <= 0)
            *why = "the review took too long";
        else if (ready > 0) {
            ssize_t n = read_some(fd, &text, &size, &capacity);
            if (n == 0) {
                text[size] = '\0';
                return text;
            }
            if (n < 0)
                *why = "the review's output could not be read, or is too long";
        } else if (ready < 0 && errno != EINTR)
            *why = "the review's output could not be read";
    }
    *why = *why ? *why : "out of memory";
    free(text);
    return NULL;
}

/* Waits for the child to end: its status as waitpid gives it. */
static int reap(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&child_lock);
    child = 0;
    pthread_mutex_unlock(&child_lock);
    return status;
}

/* Whether the annotator ended well and wrote a game; else the reason. */
static bool finished_well(int status, const char *text, const char *why, char *error, size_t error_size)
{
    pthread_mutex_lock(&child_lock);
    bool stopping = cancelled;
    pthread_mutex_unlock(&child_lock);
    if (stopping)
        snprintf(error, error_size, "the server is stopping");
    else if (why)
        snprintf(error, error_size, "%s", why);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        snprintf(error, error_size, "the annotator failed (%s %d)", WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    else if (!strstr(text, "[Annotator "))
        snprintf(error, error_size, "the annotator wrote no game");
    else
        return true;
    return false;
}

static ReviewOutcome review(const char *pgn, int plies, char **annotated, char *error, size_t error_size)
{
    int64_t deadline = deadline_ms(plies);
    int input = memory_file(pgn), pipe_fds[2] = { -1, -1 };
    pid_t pid = 0;
    int failure;
    if (input < 0 || pipe2(pipe_fds, O_CLOEXEC) != 0)
        failure = errno ? errno : EIO;
    else
        failure = start_child(input, pipe_fds[1], &pid);
    if (input >= 0)
        close(input);
    if (pipe_fds[1] >= 0)
        close(pipe_fds[1]); /* the child's copy is the only writer: its end is the pipe's */
    if (failure) {
        if (pipe_fds[0] >= 0)
            close(pipe_fds[0]);
        snprintf(error, error_size, "cannot start the annotator: %s", strerror(failure));
        return REVIEW_FAILED;
    }
    const char *why;
    char *text = read_output(pipe_fds[0], deadline, &why);
    if (!text)
        kill(-pid, SIGKILL); /* pid > 0: started */
    close(pipe_fds[0]);
    int status = reap(pid);
    if (!finished_well(status, text, why, error, error_size)) {
        free(text);
        return REVIEW_FAILED;
    }
    *annotated = text;
    return REVIEW_OK;
}

ReviewOutcome web_review_run(const char *pgn, int plies, char **annotated, char *error, size_t error_size)
{
    *annotated = NULL;
    if (pthread_mutex_trylock(&one_review) != 0)
        return REVIEW_BUSY;
    ReviewOutcome outcome = review(pgn, plies, annotated, error, error_size);
    pthread_mutex_unlock(&one_review);
    return outcome;
}

void web_review_cancel(void)
{
    pthread_mutex_lock(&child_lock);
    cancelled = true;
    if (child > 0)
        kill(-child, SIGKILL);
    pthread_mutex_unlock(&child_lock);
}
