#pragma once
/*
 * king_buckets.h — the king bucket layout of a net (docs/nnue.md, "King
 * buckets"), as scripts/nnue/king_buckets.py defines it: 64 bucket numbers,
 * a1, b1 … h1, a2 … h8, read at the square of a perspective's own king as
 * that perspective sees it (rank 1 its own back rank). Each perspective then
 * reads the block of 768 input weights of its bucket. The trainer writes
 * nets that do not mirror by the king, so every square of the map is read.
 *
 * With a factoriser the trainer keeps one more block, shared by every
 * bucket: a piece's feature reads its bucket's row and the shared row, so
 * that what holds for every king position is learnt from every position,
 * and a bucket's own rows learn only how its kings differ. The file gets
 * each bucket's rows with the shared ones added (netfile_quantise()).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MAX_KING_BUCKETS = 32 };

typedef struct {
    int count;          /* K: 1 for a net without king buckets */
    uint8_t bucket[64]; /* all 0 when count is 1 */
    bool factoriser;    /* the trainer's shared block (never in a file) */
} KingBuckets;

/* The blocks of 768 input weights the trainer keeps: K, and the shared one. */
static inline int king_blocks(const KingBuckets *k) { return k->count + (k->factoriser ? 1 : 0); }

/* The layout of one bucket: every square reads the same 768 weights. */
KingBuckets king_buckets_none(void);

/* --king-buckets: a preset's name (home4, home8, as king_buckets.py) or 64
 * comma-separated numbers, rank 1 first. False with a message for anything
 * else, or for a map that leaves a bucket on no square. */
bool king_buckets_parse(const char *text, KingBuckets *out, char *error, size_t error_size);

/* Checks a map read from a network file against its bucket count K: every
 * entry below K, every bucket on some square. */
bool king_buckets_check(const uint8_t map[64], int count);
