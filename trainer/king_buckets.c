/* king_buckets.c — king bucket layouts (see king_buckets.h). */
#include "king_buckets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The presets of scripts/nnue/king_buckets.py, which says why they are cut
 * so: fine buckets where the king stands at home, one or two for the rest
 * of the board, where it mostly stands in an ending. */
typedef struct {
    const char *name;
    uint8_t rank_buckets[8][8]; /* rank 1 first, files a to h */
} Preset;

/* A rank wholly in one bucket. */
#define RANK_IN(b) { b, b, b, b, b, b, b, b }

static const Preset PRESETS[] = {
    /* 0: castled or on the wings of the back rank; 1: d1/e1, at home;
     * 2: rank 2; 3: everywhere else */
    { "home4", { { 0, 0, 0, 1, 1, 0, 0, 0 }, RANK_IN(2), RANK_IN(3), RANK_IN(3), RANK_IN(3), RANK_IN(3), RANK_IN(3),
                 RANK_IN(3) } },
    /* the back rank in three (corner pair, c/f, d/e), rank 2 in two (wings,
     * centre), rank 3, ranks 4-5, ranks 6-8 */
    { "home8", { { 0, 0, 1, 2, 2, 1, 0, 0 }, { 3, 3, 3, 4, 4, 3, 3, 3 }, RANK_IN(5), RANK_IN(6), RANK_IN(6),
                 RANK_IN(7), RANK_IN(7), RANK_IN(7) } },
};

KingBuckets king_buckets_none(void) { return (KingBuckets){ .count = 1 }; }

bool king_buckets_check(const uint8_t map[64], int count)
{
    if (count < 1 || count > MAX_KING_BUCKETS)
        return false;
    bool used[MAX_KING_BUCKETS] = { false };
    for (int square = 0; square < 64; square++) {
        if (map[square] >= count)
            return false;
        used[map[square]] = true;
    }
    for (int b = 0; b < count; b++)
        if (!used[b])
            return false;
    return true;
}

static bool from_preset(const char *text, KingBuckets *out)
{
    for (size_t p = 0; p < sizeof PRESETS / sizeof PRESETS[0]; p++) {
        if (strcmp(text, PRESETS[p].name) != 0)
            continue;
        memcpy(out->bucket, PRESETS[p].rank_buckets, 64);
        return true;
    }
    return false;
}

/* 64 numbers from 0 to MAX_KING_BUCKETS - 1, separated by commas. */
static bool from_numbers(const char *text, KingBuckets *out)
{
    const char *at = text;
    for (int square = 0; square < 64; square++) {
        char *end;
        errno = 0;
        long value = strtol(at, &end, 10);
        if (end == at || errno || value < 0 || value >= MAX_KING_BUCKETS || *end != (square < 63 ? ',' : '\0'))
            return false;
        out->bucket[square] = (uint8_t)value;
        at = end + 1;
    }
    return true;
}

bool king_buckets_parse(const char *text, KingBuckets *out, char *error, size_t esize)
{
    *out = king_buckets_none();
    if (!text || !(from_preset(text, out) || from_numbers(text, out))) {
        snprintf(error, esize, "--king-buckets %s: wants home4, home8 or 64 comma-separated numbers from 0 to %d",
                 text ? text : "(missing)", MAX_KING_BUCKETS - 1);
        return false;
    }
    int highest = 0;
    for (int square = 0; square < 64; square++)
        highest = out->bucket[square] > highest ? out->bucket[square] : highest;
    out->count = highest + 1;
    if (!king_buckets_check(out->bucket, out->count)) {
        snprintf(error, esize, "--king-buckets %s: a bucket below %d is on no square", text, out->count);
        return false;
    }
    return true;
}
