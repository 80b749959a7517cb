#pragma once
/*
 * web_log.h — libmicrohttpd's own messages (a connection refused, a stream
 * the browser closed) to stderr, at most WEB_LOG_LINES_PER_SECOND a second.
 * A client that floods the server with connections makes the library write
 * one line for each; unlimited, those lines would fill the log, and a
 * stderr that nobody reads would fill its pipe and stall the accepting
 * thread. Lines over the limit are counted and their number is reported
 * with the next line shown.
 */
#include <stdarg.h>

enum { WEB_LOG_LINES_PER_SECOND = 10 };

/* An MHD_OPTION_EXTERNAL_LOGGER: `context` is unused. */
void web_log_library(void *context, const char *format, va_list args);
