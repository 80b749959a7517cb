/* inbox.c — the front end's event queue and the stdin reader thread. */
#include "protocol/inbox.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "timer.h"
#include "tokens.h"

typedef struct Node {
    InboxEvent event;
    struct Node *next;
} Node;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    Node *head, *tail;
} inbox = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL };

/* Appends an event; false only when memory runs out. */
static bool post(InboxEvent event)
{
    Node *node = malloc(sizeof *node);
    if (!node)
        return false;
    *node = (Node){ event, NULL };
    pthread_mutex_lock(&inbox.lock);
    if (inbox.tail)
        inbox.tail->next = node;
    else
        inbox.head = node;
    inbox.tail = node;
    pthread_cond_signal(&inbox.ready);
    pthread_mutex_unlock(&inbox.lock);
    return true;
}

static void *reader_main(void *arg)
{
    FILE *in = arg;
    char *line;
    while ((line = read_line(in)) != NULL) {
        char *copy = strdup(line);
        /* A line that cannot be stored is dropped; the GUI's next ping
         * will show that the engine is still alive. */
        if (copy && !post((InboxEvent){ .kind = INBOX_LINE, .line = copy, .read_ms = time_now_ms() }))
            free(copy);
    }
    /* The end of input must get through, or the front end waits forever. */
    while (!post((InboxEvent){ .kind = INBOX_EOF }))
        ;
    return NULL;
}

bool inbox_start_reader(FILE *in)
{
    pthread_t thread;
    if (pthread_create(&thread, NULL, reader_main, in) != 0)
        return false;
    pthread_detach(thread);
    return true;
}

void inbox_post_bestmove(unsigned tag, Move best, Move ponder)
{
    /* Called on the search thread: a lost best move would hang the game. */
    while (!post((InboxEvent){ .kind = INBOX_BESTMOVE, .tag = tag, .best = best, .ponder = ponder }))
        ;
}

bool inbox_take(InboxEvent *event, bool wait)
{
    pthread_mutex_lock(&inbox.lock);
    while (wait && !inbox.head)
        pthread_cond_wait(&inbox.ready, &inbox.lock);
    Node *node = inbox.head;
    if (node) {
        inbox.head = node->next;
        if (!inbox.head)
            inbox.tail = NULL;
    }
    pthread_mutex_unlock(&inbox.lock);
    if (!node)
        return false;
    *event = node->event;
    free(node);
    return true;
}

void inbox_event_free(InboxEvent *event)
{
    free(event->line);
    event->line = NULL;
}
