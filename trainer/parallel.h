#pragma once
/*
 * parallel.h — a task run by several threads at once: task(context, i, n)
 * on threads i = 0 .. n-1 (the caller's own thread is 0), returning when
 * all are done. Which work a thread does is decided by i alone, never by
 * which thread comes first, so the results do not depend on scheduling.
 */
#include <stdbool.h>

typedef void (*ParallelTask)(void *context, int index, int count);

/* False when some threads could not be started: their indices ran on the
 * caller's thread instead, so the work is done all the same. */
bool parallel_run(ParallelTask task, void *context, int threads);
