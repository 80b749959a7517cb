#pragma once
/* timer.h — a monotonic clock, the one time source of the engine: in
 * milliseconds for the search, in microseconds for measuring short spans;
 * and the process's CPU time, which tells a turn the engine spent
 * computing from one the machine spent running something else. */
#include <stdint.h>
#include <time.h>

static inline int64_t time_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t time_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The CPU time of every thread of the process, in ms (winpthreads gives it
 * on Windows too). */
static inline int64_t process_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
