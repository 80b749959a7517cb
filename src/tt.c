/* tt.c — the shared transposition table (see tt.h for the layout). */
#include "tt.h"

#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "platform.h"
#include "score.h"

static TTBucket *table;
static size_t bucket_count;
static size_t table_mb;
static uint8_t generation; /* advances by 4: the low 2 bits hold the bound */

/* Depths from -2 (an evaluation only) upwards are stored shifted, so that a
 * stored 0 still means "empty". */
enum { DEPTH_OFFSET = 3 };

/* Every probe lands on a random bucket, so with 4 KiB pages nearly every
 * probe also misses the TLB. A table aligned to 2 MiB and marked for huge
 * pages needs 512 times fewer page-table entries. */
static TTBucket *allocate_table(size_t bytes)
{
    enum { HUGE_PAGE = 2 * 1024 * 1024 };
    return platform_alloc_aligned(bytes >= HUGE_PAGE ? HUGE_PAGE : 64, bytes);
}

bool tt_resize(size_t megabytes)
{
    size_t count = megabytes * 1024 * 1024 / sizeof(TTBucket);
    if (count == 0)
        count = 1;
    TTBucket *fresh = NULL;
    /* More than three quarters of the machine's memory would only be had
     * by swapping or being killed: refuse it, keeping the old table. */
    size_t memory_mb = platform_memory_mb();
    if (memory_mb > 0 && megabytes > memory_mb * 3 / 4)
        return false;
    if (megabytes > SIZE_MAX / (1024 * 1024) || !(fresh = allocate_table(count * sizeof(TTBucket))))
        return false;
    platform_free_aligned(table);
#ifdef __GLIBC__
    /* A freed table glibc took from the heap (below its adaptive mmap
     * threshold, up to 32 MB) would otherwise stay resident: give it back. */
    malloc_trim(0);
#endif
    table = fresh;
    bucket_count = count;
    table_mb = megabytes;
    tt_clear();
    return true;
}

void tt_clear(void)
{
    if (table)
        memset(table, 0, bucket_count * sizeof(TTBucket));
    generation = 0;
}

void tt_free(void)
{
    platform_free_aligned(table);
    table = NULL;
    bucket_count = 0;
}

size_t tt_size_mb(void) { return table_mb; }

void tt_new_search(void) { generation += 4; }

static inline TTBucket *bucket_of(Key key)
{
    return &table[(size_t)(((unsigned __int128)key * bucket_count) >> 64)];
}

void tt_prefetch(Key key) { __builtin_prefetch(bucket_of(key)); }

int score_to_tt(int score, int ply)
{
    return score >= TB_WIN_IN_MAX ? score + ply : score <= -TB_WIN_IN_MAX ? score - ply : score;
}

int score_from_tt(int score, int ply)
{
    return score >= TB_WIN_IN_MAX ? score - ply : score <= -TB_WIN_IN_MAX ? score + ply : score;
}

/* Inlined where it is called (the search's every node), link-time. */
__attribute__((always_inline)) inline bool tt_probe(Key key, int ply, TTProbe *out)
{
    TTBucket *bucket = bucket_of(key);
    uint16_t key16 = (uint16_t)key; /* low bits: the bucket index uses the high ones */
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTEntry *e = &bucket->entries[i];
        if (e->key16 != key16 || e->depth == 0)
            continue;
        e->gen_bound = (uint8_t)(generation | (e->gen_bound & 3)); /* refresh its age */
        out->hit = true;
        out->move = e->move;
        out->score = score_from_tt(e->score, ply);
        out->eval = e->eval;
        out->depth = e->depth - DEPTH_OFFSET;
        out->bound = e->gen_bound & 3;
        return true;
    }
    out->hit = false;
    out->move = MOVE_NONE;
    out->bound = BOUND_NONE;
    out->depth = -1;
    return false;
}

/* How much an entry is worth keeping: depth, minus its age in searches. */
static int entry_worth(const TTEntry *e)
{
    int age = ((generation - e->gen_bound) & 0xFC) >> 2;
    return e->depth - 2 * age;
}

/* Inlined where it is called, as tt_probe(). */
__attribute__((always_inline)) inline void tt_store(Key key, int ply, Move move, int score, int eval, int depth, int bound)
{
    TTBucket *bucket = bucket_of(key);
    uint16_t key16 = (uint16_t)key; /* low bits: the bucket index uses the high ones */
    TTEntry *victim = &bucket->entries[0];
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTEntry *e = &bucket->entries[i];
        if (e->key16 == key16 || e->depth == 0) {
            victim = e;
            break;
        }
        if (entry_worth(e) < entry_worth(victim))
            victim = e;
    }
    /* Keep the move of a same-position entry if this search found none. */
    if (move != MOVE_NONE || victim->key16 != key16)
        victim->move = move;
    if (victim->key16 == key16 && bound != BOUND_EXACT && depth + 4 < victim->depth - DEPTH_OFFSET
        && (victim->gen_bound & 0xFC) == generation)
        return;
    if (depth < 1 - DEPTH_OFFSET)
        depth = 1 - DEPTH_OFFSET;
    victim->key16 = key16;
    victim->score = (int16_t)score_to_tt(score, ply);
    victim->eval = (int16_t)eval;
    victim->depth = (uint8_t)(depth + DEPTH_OFFSET < 255 ? depth + DEPTH_OFFSET : 255);
    victim->gen_bound = (uint8_t)(generation | bound);
}

int tt_hashfull(void)
{
    int used = 0, sample = bucket_count < 1000 ? (int)bucket_count : 1000;
    for (int i = 0; i < sample; i++)
        for (int j = 0; j < TT_BUCKET_SIZE; j++) {
            const TTEntry *e = &table[i].entries[j];
            used += e->depth != 0 && (e->gen_bound & 0xFC) == generation;
        }
    return sample ? used * 1000 / (sample * TT_BUCKET_SIZE) : 0;
}
