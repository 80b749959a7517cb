#pragma once
/*
 * workers.h — worker processes for a batch tool (`bachess annotate`,
 * `bachess datagen`).
 *
 * The engine is one per process, so parallel work is done by forked
 * workers, each with its own engine and table, each sending its results to
 * the parent through a pipe of its own; the parent reads them in the order
 * it wants and writes them out.
 *
 * Stopping: a supervisor stops a run by signalling the parent alone, so
 * SIGINT or SIGTERM to the parent is passed on to the workers (a terminal's
 * Ctrl-C reaches them all anyway); in a worker it stops the search under
 * way at once, through the engine's signal-safe stop. A worker whose parent
 * dies stops too (killed outright, the parent cannot pass anything on). A
 * stopped worker abandons the piece of work under way and closes its pipe,
 * so the parent, which writes only whole results, sees the end of the pipe
 * and finishes.
 */
#include <stdbool.h>
#include <stddef.h>

#include "engine.h"

enum { WORKERS_MAX = 64 };

/* The body of worker `worker`: writes its results to `fd` (closed by it or
 * at its exit); workers_should_stop() tells when to give up. */
typedef void (*WorkerBody)(int worker, int fd, void *context);

/* Starts `count` workers; the read end of worker w's pipe goes to fds[w].
 * Flush every stdio stream before: a worker leaves by _exit. False with a
 * message when a worker cannot be started: those started are stopped (wait
 * for them with workers_wait) and every pipe is closed. */
bool workers_start(int count, WorkerBody body, void *context, int *fds);
/* Stops every worker (SIGTERM), e.g. when the parent gives up early. */
void workers_stop(void);
/* Whether a worker died (ended other than by exiting with status 0) since
 * the last call: the parent's check while it waits for work that worker
 * may have shared with others. */
bool workers_failed(void);
/* Waits for every worker; false if one did not exit normally with status 0.
 * The caller closes the fds first, so that no worker blocks on a full pipe. */
bool workers_wait(void);

/* A stop was asked by signal, or, in a worker, the parent is gone. */
bool workers_should_stop(void);
/* A SIGINT or SIGTERM has come (in the parent: the run was interrupted). */
bool workers_interrupted(void);

/* One search of the engine's position, to `limits`, reported to `report`,
 * waited for; a stop (workers_should_stop) ends it at once, whenever it came.
 * False when stopped: the search may have been cut short. */
bool workers_search(const SearchLimits *limits, SearchReport report);

/* All `size` bytes through a pipe, however the kernel splits them; false
 * at the end of the pipe or on an error. */
bool pipe_write_all(int fd, const void *data, size_t size);
bool pipe_read_all(int fd, void *data, size_t size);
