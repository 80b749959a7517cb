#pragma once
/*
 * inbox.h — one queue in which a front end waits for everything that can
 * happen to it: input lines, read from stdin on a thread of their own, the
 * end of input, and best moves reported by the search thread.
 *
 * With all of them in one queue the front end handles them one at a time,
 * in the order they happened, on its own thread. That keeps the protocol
 * code free of locks and races (a `force` that arrives before the best
 * move is handled before it), and lets the front end act when a search
 * ends — play the move, claim a result, start pondering — without waiting
 * for the next input line.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "types.h"

typedef enum { INBOX_LINE, INBOX_EOF, INBOX_BESTMOVE } InboxKind;

typedef struct {
    InboxKind kind;
    char *line;         /* INBOX_LINE: the line, owned by the event */
    int64_t read_ms;    /* INBOX_LINE: when it was read (time_now_ms) */
    unsigned tag;       /* INBOX_BESTMOVE: which search it came from */
    Move best, ponder;  /* INBOX_BESTMOVE */
} InboxEvent;

/* Starts the thread that reads `in` line by line into the queue; at the
 * end of input it posts INBOX_EOF and ends. */
bool inbox_start_reader(FILE *in);
/* Posts a best move; safe from any thread. */
void inbox_post_bestmove(unsigned tag, Move best, Move ponder);
/* Takes the oldest event. With `wait`, blocks until there is one;
 * without, returns false at once when the queue is empty. */
bool inbox_take(InboxEvent *event, bool wait);
void inbox_event_free(InboxEvent *event);
