/* output.c — locked, flushed line output and the protocol trace. */
#include "protocol/output.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "engine.h"
#include "timer.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *trace;
static void (*line_sink)(const char *line);

void out_set_sink(void (*sink)(const char *line))
{
    pthread_mutex_lock(&lock);
    line_sink = sink;
    pthread_mutex_unlock(&lock);
}

/* The line on standard output, or handed whole to the sink. */
static void emit(const char *format, va_list args)
{
    if (!line_sink) {
        vprintf(format, args);
        putchar('\n');
        fflush(stdout);
        return;
    }
    char line[4096];
    vsnprintf(line, sizeof line, format, args);
    line_sink(line);
}

void out_line(const char *format, ...)
{
    va_list args;
    pthread_mutex_lock(&lock);
    va_start(args, format);
    emit(format, args);
    va_end(args);
    if (trace) {
        fprintf(trace, "%lld > ", (long long)time_now_ms());
        va_start(args, format);
        vfprintf(trace, format, args);
        va_end(args);
        fputc('\n', trace);
        fflush(trace);
    }
    pthread_mutex_unlock(&lock);
}

void out_text_line(const char *line) { out_line("%s", line); }

bool out_trace_open(const char *path)
{
    pthread_mutex_lock(&lock);
    if (trace)
        fclose(trace);
    trace = fopen(path, "a");
    pthread_mutex_unlock(&lock);
    return trace != NULL;
}

void out_trace_close(void)
{
    pthread_mutex_lock(&lock);
    if (trace)
        fclose(trace);
    trace = NULL;
    pthread_mutex_unlock(&lock);
}

void out_trace_input(const char *line)
{
    pthread_mutex_lock(&lock);
    if (trace) {
        fprintf(trace, "%lld < %.2000s\n", (long long)time_now_ms(), line);
        fflush(trace);
    }
    pthread_mutex_unlock(&lock);
}

void out_trace_note(const char *format, ...)
{
    pthread_mutex_lock(&lock);
    if (trace) {
        va_list args;
        va_start(args, format);
        fprintf(trace, "%lld # ", (long long)time_now_ms());
        vfprintf(trace, format, args);
        va_end(args);
        fputc('\n', trace);
        fflush(trace);
    }
    pthread_mutex_unlock(&lock);
}

void out_trace_turn(void)
{
    TurnAccount turn = engine_turn_account();
    if (turn.on_clock)
        out_trace_note("turn: cpu %lld ms, hard limit %lld ms", (long long)turn.cpu_ms, (long long)turn.hard_limit_ms);
}
