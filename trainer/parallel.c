/* parallel.c — running a task on several threads (see parallel.h). */
#include "parallel.h"

#include <pthread.h>

enum { MAX_THREADS = 64 };

typedef struct {
    ParallelTask task;
    void *context;
    int index, count;
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    w->task(w->context, w->index, w->count);
    return NULL;
}

bool parallel_run(ParallelTask task, void *context, int threads)
{
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    Worker workers[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started = 1;
    for (int i = 1; i < threads; i++) {
        workers[i] = (Worker){ task, context, i, threads };
        if (pthread_create(&ids[i], NULL, worker_main, &workers[i]) != 0)
            break;
        started++;
    }
    /* Indices whose thread could not start run here: the work of an index
     * is the same on any thread. */
    for (int i = 0; i < threads; i++)
        if (i == 0 || i >= started)
            task(context, i, threads);
    for (int i = 1; i < started; i++)
        pthread_join(ids[i], NULL);
    return started == threads;
}
