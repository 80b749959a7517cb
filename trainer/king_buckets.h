#pragma once
/*
 * king_buckets.h — the king bucket layout of a net (docs/nnue.md, "King
 * buckets"), as scripts/nnue/king_buckets.py defines it: 64 bucket numbers,
 * a1, b1 … h1, a2 … h8, read at the square of a perspective's own king as
 * that perspective sees it (rank 1 its own back rank). Each perspective then
 * reads the block of 768 input weights of its bucket. The trainer writes
 * nets that do not mirror by the king, so every square of the map is read.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MAX_KING_BUCKETS = 32 };

typedef struct {
    int count;          /* K: 1 for a net without king buckets */
    uint8_t bucket[64]; /* all 0 when count is 1 */
} KingBuckets;

/* The layout of one bucket: every square reads the same 768 weights. */
KingBuckets king_buckets_none(void);

/* --king-buckets: a preset's name (home4, home8, as king_buckets.py) or 64
 * comma-separated numbers, rank 1 first. False with a message for anything
 * else, or for a map that leaves a bucket on no square. */
bool king_buckets_parse(const char *text, KingBuckets *out, char *error, size_t error_size);

/* Checks a map read from a network file against its bucket count K: every
 * entry below K, every bucket on some square. */
bool king_buckets_check(const uint8_t map[64], int count);
