#pragma once
/*
 * records.h — the 32-byte training records of `bachess datagen` and of the
 * self-play store's cache (docs/datagen.md, "Record format"), read whole
 * into memory and checked, and decoded one at a time into the network's
 * active features for both perspectives.
 *
 * A feature is ours * 384 + type * 64 + square from one side's point of
 * view: "ours" is 1 for the other side's pieces, as in scripts/nnue/data.py,
 * and the square is mirrored vertically for Black. With `mirror` the board
 * is read mirrored left to right (a-file <-> h-file) first. With king
 * buckets a perspective's features are moved into the block of 768 of its
 * own king's bucket: bucket * 768 + the feature; with a factoriser each
 * piece also gives K * 768 + the feature, its row in the shared block.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "king_buckets.h"

enum { RECORD_SIZE = 32, MAX_FEATURES = 32, INPUTS = 768 };

typedef struct {
    unsigned char *bytes; /* count records of RECORD_SIZE bytes */
    size_t count;
    size_t capacity;      /* records the block has room for */
} RecordSet;

/* One decoded position: the side to move's features first. */
typedef struct {
    uint16_t features[2][2 * MAX_FEATURES];
    int count;          /* its pieces */
    int feature_count;  /* active features a perspective: a piece's one, and with a factoriser its shared one */
    float score_stm;    /* search score, centipawns, the side to move's view */
    float result_stm;   /* 0, 0.5 or 1, the side to move's view */
} Position;

/* Reads the files in order (at most `limit` records in all, 0: all of them)
 * and checks every record. False with a message naming the file (and the
 * record) when a file is missing, is not whole records, or holds a record
 * no datagen writes. */
bool records_load(RecordSet *set, char **paths, int path_count, size_t limit, char *error, size_t error_size);
void records_free(RecordSet *set);

/* The position of record `index`, mirrored left to right when asked, each
 * perspective's features in its king bucket's block. */
void records_decode(const RecordSet *set, size_t index, bool mirror, const KingBuckets *kings, Position *out);
