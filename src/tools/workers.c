/* workers.c — forked workers with pipes and stop signals (see workers.h);
 * none on Windows. */
#include "tools/workers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "engine.h"

#ifdef _WIN32
/* Windows has no fork(): a batch tool starts no workers there (`annotate`
 * and `datagen` are Linux-only); genfens, which starts none, runs. */
bool workers_should_stop(void) { return false; }
bool workers_interrupted(void) { return false; }

bool workers_start(int count, WorkerBody body, void *context, int *fds)
{
    (void)count, (void)body, (void)context, (void)fds;
    fprintf(stderr, "worker processes need fork(), which Windows lacks: this tool is Linux-only\n");
    return false;
}

void workers_stop(void) {}
bool workers_failed(void) { return false; }
bool workers_wait(void) { return true; }

#else
static volatile sig_atomic_t stop_requested;
static pid_t parent_pid;
static pid_t worker_pids[WORKERS_MAX];
static volatile sig_atomic_t worker_count; /* of worker_pids, as they are started */
/* A worker waited for already (workers_failed), with how it ended. */
static volatile sig_atomic_t worker_ended[WORKERS_MAX];
static int worker_status[WORKERS_MAX];
static struct sigaction saved_int, saved_term; /* the handlers before the workers, put back after */

static void forward_stop(void)
{
    for (int w = 0; w < worker_count; w++)
        if (!worker_ended[w]) /* its pid may be another process's by now */
            kill(worker_pids[w], SIGTERM);
}

static void request_stop(int signal_number)
{
    (void)signal_number;
    int saved_errno = errno;
    stop_requested = 1;
    if (getpid() == parent_pid) /* a worker inherits the handler, not the role */
        forward_stop();
    else /* the search under way may be long: it ends now */
        engine_stop_from_signal();
    errno = saved_errno;
}

static void catch_stop_signals(void)
{
    struct sigaction action = { .sa_handler = request_stop, .sa_flags = SA_RESTART };
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &saved_int);
    sigaction(SIGTERM, &action, &saved_term);
}

/* In a worker, once forked: a SIGTERM when the parent dies, and no death by
 * SIGPIPE when the parent has stopped reading (the write fails instead, and
 * the worker exits normally). */
static void watch_parent(void)
{
    signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
}

bool workers_should_stop(void)
{
    /* getppid() also covers a parent that died before prctl took effect,
     * and systems without prctl. A process that started no workers (genfens)
     * is no worker: only a signal stops it. */
    bool in_a_worker = parent_pid != 0 && getpid() != parent_pid;
    return stop_requested || (in_a_worker && getppid() != parent_pid);
}

bool workers_interrupted(void)
{
    return stop_requested;
}

static void run_worker(int w, int write_fd, const int *fds, WorkerBody body, void *context)
{
    watch_parent();
    for (int k = 0; k < w; k++) /* the read ends of the workers before, inherited */
        close(fds[k]);
    body(w, write_fd, context);
    close(write_fd);
    _exit(0);
}

/* On a failed start, the pipes opened so far: the one of the worker that
 * could not be forked (ends of -1 if pipe() failed) and the read ends of
 * the `started` workers before it. The caller closes none of them then. */
static void close_pipes(const int failed_pipe[2], const int *fds, int started)
{
    for (int end = 0; end < 2; end++)
        if (failed_pipe[end] >= 0)
            close(failed_pipe[end]);
    for (int w = 0; w < started; w++)
        close(fds[w]);
}

bool workers_start(int count, WorkerBody body, void *context, int *fds)
{
    stop_requested = 0;
    worker_count = 0;
    parent_pid = getpid();
    catch_stop_signals();
    for (int w = 0; w < count; w++) {
        int pipe_fds[2] = { -1, -1 };
        pid_t pid = -1;
        if (pipe(pipe_fds) == 0)
            pid = fork();
        if (pid < 0) {
            fprintf(stderr, "cannot start worker %d: %s\n", w, strerror(errno));
            close_pipes(pipe_fds, fds, w);
            forward_stop();
            return false;
        }
        if (pid == 0) {
            close(pipe_fds[0]);
            run_worker(w, pipe_fds[1], fds, body, context);
        }
        worker_pids[w] = pid;
        worker_ended[w] = 0;
        worker_count = w + 1;
        close(pipe_fds[1]);
        fds[w] = pipe_fds[0];
    }
    if (stop_requested) /* it came while a worker was being started */
        forward_stop();
    return true;
}

void workers_stop(void)
{
    forward_stop();
}

static bool ended_well(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

bool workers_failed(void)
{
    bool failed = false;
    for (int w = 0; w < worker_count; w++) {
        if (worker_ended[w] || waitpid(worker_pids[w], &worker_status[w], WNOHANG) != worker_pids[w])
            continue;
        worker_ended[w] = 1;
        failed |= !ended_well(worker_status[w]);
    }
    return failed;
}

bool workers_wait(void)
{
    bool ok = true;
    for (int w = 0; w < worker_count; w++) {
        if (!worker_ended[w] && waitpid(worker_pids[w], &worker_status[w], 0) == worker_pids[w])
            worker_ended[w] = 1;
        if (worker_ended[w] && !ended_well(worker_status[w]))
            ok = false;
    }
    worker_count = 0; /* their pids may be reused now: no more forwarding */
    sigaction(SIGINT, &saved_int, NULL);
    sigaction(SIGTERM, &saved_term, NULL);
    return ok;
}

#endif

bool workers_search(const SearchLimits *limits, SearchReport report)
{
    engine_go(limits, report);
    /* A stop signal sets the engine's stop flag too, but engine_go clears it:
     * a stop that came before the search started (or a parent gone without a
     * signal) is known only to workers_should_stop, asked once the search
     * is under way, when a signal from now on reaches it. */
    if (workers_should_stop())
        engine_stop();
    engine_wait();
    return !workers_should_stop();
}

static bool transfer_all(int fd, void *data, size_t size, bool writing)
{
    char *p = data;
    while (size > 0) {
        ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n, size -= (size_t)n;
    }
    return true;
}

bool pipe_write_all(int fd, const void *data, size_t size) { return transfer_all(fd, (void *)data, size, true); }
bool pipe_read_all(int fd, void *data, size_t size) { return transfer_all(fd, data, size, false); }
