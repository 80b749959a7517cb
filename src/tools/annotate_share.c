/* annotate_share.c — one game's positions shared among workers (see annotate_share.h). */
#include "tools/annotate_share.h"

#include <stdatomic.h>
#include <stddef.h>

#include "platform.h"
#include "tools/workers.h"

enum { ROOMS = 2 };
/* How often a waiting worker looks again: a position takes a second or so,
 * so a millisecond's wait costs nothing worth having. */
enum { WAIT_POLL_MS = 1 };

typedef struct {
    _Atomic int game; /* whose verdict this is: a game number, 0 for none yet */
    PositionVerdict verdict;
} Slot;

struct AnnotateShare {
    size_t bytes;
    int max_positions;
    _Atomic int given_up[ROOMS];        /* the number of a game given up */
    _Atomic int ended[WORKERS_MAX];     /* each worker's last game ended */
    Slot slots[];                /* [room][look][position] */
};

AnnotateShare *annotate_share_new(int max_positions)
{
    size_t slots = (size_t)ROOMS * LOOK_NB * (size_t)max_positions;
    size_t bytes = sizeof(AnnotateShare) + slots * sizeof(Slot);
    AnnotateShare *share = platform_map_shared(bytes); /* zeroed: no slot holds a game */
    if (share) {
        share->bytes = bytes;
        share->max_positions = max_positions;
    }
    return share;
}

void annotate_share_free(AnnotateShare *share)
{
    if (share)
        platform_unmap_shared(share, share->bytes);
}

static bool given_up(const PositionSplit *split)
{
    return atomic_load_explicit(&split->share->given_up[split->game % ROOMS], memory_order_acquire) == split->game;
}

/* Waits until `done` holds; false when the worker is to stop or the game
 * was given up. */
static bool wait_until(const PositionSplit *split, bool (*done)(const PositionSplit *, const void *),
                       const void *what)
{
    while (!done(split, what)) {
        if (given_up(split) || workers_should_stop())
            return false;
        platform_sleep_ms(WAIT_POLL_MS);
    }
    return true;
}

static bool room_is_free(const PositionSplit *split, const void *unused)
{
    (void)unused;
    for (int w = 0; w < split->workers; w++)
        if (atomic_load_explicit(&split->share->ended[w], memory_order_acquire) < split->game - ROOMS)
            return false;
    return true;
}

bool split_begin_game(PositionSplit *split)
{
    split->game++;
    return !split->share || wait_until(split, room_is_free, NULL);
}

void split_end_game(const PositionSplit *split)
{
    if (split->share)
        atomic_store_explicit(&split->share->ended[split->worker], split->game, memory_order_release);
}

static Slot *slot_of(const PositionSplit *split, Look look, int k)
{
    AnnotateShare *share = split->share;
    size_t room = (size_t)(split->game % ROOMS);
    return &share->slots[(room * LOOK_NB + (size_t)look) * (size_t)share->max_positions + (size_t)k];
}

bool split_takes(const PositionSplit *split, int turn)
{
    return !split || !split->share || turn % split->workers == split->worker;
}

void split_publish(const PositionSplit *split, Look look, int k, const PositionVerdict *verdict)
{
    if (!split || !split->share)
        return;
    Slot *slot = slot_of(split, look, k);
    slot->verdict = *verdict;
    atomic_store_explicit(&slot->game, split->game, memory_order_release);
}

static bool is_published(const PositionSplit *split, const void *slot)
{
    return atomic_load_explicit(&((const Slot *)slot)->game, memory_order_acquire) == split->game;
}

bool split_gather(const PositionSplit *split, Look look, const int *positions, int count, PositionVerdict *p)
{
    if (!split || !split->share)
        return true;
    for (int turn = 0; turn < count; turn++) {
        if (split_takes(split, turn))
            continue;
        const Slot *slot = slot_of(split, look, positions[turn]);
        if (!wait_until(split, is_published, slot))
            return false;
        p[positions[turn]] = slot->verdict;
    }
    return true;
}

void split_give_up(const PositionSplit *split)
{
    if (split && split->share)
        atomic_store_explicit(&split->share->given_up[split->game % ROOMS], split->game, memory_order_release);
}
