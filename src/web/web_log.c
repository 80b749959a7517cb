/* web_log.c — libmicrohttpd's messages, rate-limited (see web_log.h). */
#include "web/web_log.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "timer.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t second_start_ms;
static int lines_this_second;
static long lines_dropped;

void web_log_library(void *context, const char *format, va_list args)
{
    (void)context;
    pthread_mutex_lock(&log_lock);
    int64_t now = time_now_ms();
    if (now - second_start_ms >= 1000) {
        second_start_ms = now;
        lines_this_second = 0;
    }
    if (lines_this_second < WEB_LOG_LINES_PER_SECOND) {
        lines_this_second++;
        if (lines_dropped > 0)
            fprintf(stderr, "bachess web: %ld messages of the HTTP library not shown (over %d a second)\n",
                    lines_dropped, WEB_LOG_LINES_PER_SECOND);
        lines_dropped = 0;
        vfprintf(stderr, format, args);
    } else {
        lines_dropped++;
    }
    pthread_mutex_unlock(&log_lock);
}
