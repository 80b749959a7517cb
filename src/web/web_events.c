/* web_events.c — the engine's lines for every listening page (see web_events.h). */
#include "web/web_events.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t published = PTHREAD_COND_INITIALIZER;
static char *ring[WEB_EVENT_RING];
static uint64_t next_number; /* the number of the next line to publish */
static bool closed;

void web_events_publish(const char *line)
{
    char *copy = strndup(line, WEB_EVENT_LINE_MAX - 1);
    pthread_mutex_lock(&lock);
    char **slot = &ring[next_number % WEB_EVENT_RING];
    free(*slot);
    *slot = copy; /* NULL if out of memory: listeners skip it */
    next_number++;
    pthread_cond_broadcast(&published);
    pthread_mutex_unlock(&lock);
}

uint64_t web_events_next(void)
{
    pthread_mutex_lock(&lock);
    uint64_t n = next_number;
    pthread_mutex_unlock(&lock);
    return n;
}

static struct timespec deadline_after(int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

bool web_events_wait(uint64_t *next, char *out, size_t size, int timeout_ms)
{
    struct timespec deadline = deadline_after(timeout_ms);
    bool got = false;
    pthread_mutex_lock(&lock);
    for (;;) {
        if (closed)
            break;
        if (*next + WEB_EVENT_RING < next_number)
            *next = next_number - WEB_EVENT_RING; /* fallen behind: the oldest kept */
        if (*next < next_number) {
            const char *line = ring[*next % WEB_EVENT_RING];
            (*next)++;
            if (!line)
                continue;
            strncpy(out, line, size - 1);
            out[size - 1] = '\0';
            got = true;
            break;
        }
        if (pthread_cond_timedwait(&published, &lock, &deadline) == ETIMEDOUT)
            break;
    }
    pthread_mutex_unlock(&lock);
    return got;
}

void web_events_close(void)
{
    pthread_mutex_lock(&lock);
    closed = true;
    pthread_cond_broadcast(&published);
    pthread_mutex_unlock(&lock);
}

bool web_events_closed(void)
{
    pthread_mutex_lock(&lock);
    bool c = closed;
    pthread_mutex_unlock(&lock);
    return c;
}

void web_events_free(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < WEB_EVENT_RING; i++) {
        free(ring[i]);
        ring[i] = NULL;
    }
    pthread_mutex_unlock(&lock);
}
