#pragma once
/*
 * tt.h — the transposition table: what earlier searches learned about a
 * position, shared by all search threads and kept across the moves of a
 * game (clearing it every move would throw that work away).
 *
 * The table is an array of 32-byte buckets of three entries. A position's
 * bucket comes from the high bits of its key (a multiply, so any table size
 * works); inside, an entry is recognised by the 16 lowest key bits. A wrong hit
 * is therefore possible but rare, and harmless: a move from the table is
 * always checked for legality before it is played or searched.
 *
 * Replacement: an entry for the same position is overwritten unless it is
 * deeper and the new data is not exact; otherwise the entry with the least
 * value — shallowest, with older searches counting as shallower — goes.
 * Mate scores are stored relative to the node (distance from this node to
 * the mate) and converted back with the node's ply when read.
 */
#include <stddef.h>

#include "types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    uint16_t key16;
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth;     /* stored with an offset, so 0 means "empty" */
    uint8_t gen_bound; /* generation in the high 6 bits, bound in the low 2 */
} TTEntry;

enum { TT_BUCKET_SIZE = 3 };

typedef struct {
    TTEntry entries[TT_BUCKET_SIZE];
    uint16_t padding;
} TTBucket;

typedef struct {
    bool hit;
    Move move;
    int score; /* already adjusted to the probing node's ply */
    int eval;
    int depth;
    int bound;
} TTProbe;

/* Sets the size in MiB; returns false (and keeps the old table) if the
 * memory cannot be had. */
bool tt_resize(size_t megabytes);
void tt_clear(void);
void tt_free(void);
void tt_new_search(void);
void tt_prefetch(Key key);
bool tt_probe(Key key, int ply, TTProbe *out);
void tt_store(Key key, int ply, Move move, int score, int eval, int depth, int bound);
int tt_hashfull(void); /* per mille of entries used by the current search */
size_t tt_size_mb(void);

int score_to_tt(int score, int ply);
int score_from_tt(int score, int ply);
