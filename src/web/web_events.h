#pragma once
/*
 * web_events.h — the engine's output lines, fanned out to every page that
 * listens (Server-Sent Events). The engine writes each line once into a
 * ring of the last WEB_EVENT_RING lines, numbered; each listener keeps the
 * number of the next line it wants and waits for it. A listener that falls
 * more than a ring behind skips ahead: memory stays bounded whatever the
 * pages do.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WEB_EVENT_RING = 1024, WEB_EVENT_LINE_MAX = 4096 };

void web_events_publish(const char *line);
/* The number the next published line will get: where a new listener starts. */
uint64_t web_events_next(void);
/* Copies line `*next` (or the oldest still kept, if it is gone) into `out`
 * and advances `*next`; waits up to `timeout_ms` for it. False on timeout
 * or after web_events_close(). */
bool web_events_wait(uint64_t *next, char *out, size_t size, int timeout_ms);
/* Wakes every listener for good (server shutdown). */
void web_events_close(void);
bool web_events_closed(void);
/* Frees the kept lines; after every listener has gone. */
void web_events_free(void);
