#pragma once
/*
 * netfile.h — the float network quantised into the engine's network file
 * (src/nnue/network.h; version 1 for one output bucket, version 2 for more,
 * version 4 with king buckets; no king mirroring), and read back, as scripts/nnue/model.py
 * does: input weights and bias x QA, output weights x QB (held to
 * -127..127), output biases x QA x QB, each rounded to the nearest integer,
 * ties to even (numpy's round).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "king_buckets.h"
#include "model.h"

enum { QA = 255, QB = 64 };

typedef struct {
    int hidden, buckets;
    KingBuckets kings;      /* kings.count blocks of input weights */
    bool screlu;
    int16_t *input_weights; /* [kings.count * INPUTS][hidden] */
    int16_t *input_bias;    /* [hidden] */
    int16_t *output_weights; /* [buckets][2 * hidden] */
    int32_t output_bias[MAX_OUTPUT_BUCKETS];
} QuantisedNet;

/* w's weights, its input blocks read by the layout `kings` (with a
 * factoriser, each bucket's rows with the shared block's added). */
bool netfile_quantise(const Weights *w, const KingBuckets *kings, QuantisedNet *q);
void netfile_free(QuantisedNet *q);
/* The float network of `buckets` output buckets and the king bucket layout
 * `kings` whose weights quantise to q exactly (a warm start, or the float
 * network of the file's own weights); w is allocated. q has as many buckets
 * of each kind, or one, which then fills every bucket
 * (model.load_quantised(): the new net starts evaluating as the old one);
 * a factoriser's shared block starts at zero. */
bool netfile_dequantise(const QuantisedNet *q, int buckets, const KingBuckets *kings, Weights *w);

bool netfile_write(const QuantisedNet *q, const char *path, char *error, size_t error_size);
/* Reads a network file of 1 to MAX_OUTPUT_BUCKETS output buckets and 1 to
 * MAX_KING_BUCKETS king buckets, without king mirroring; false with a
 * message for anything else. */
bool netfile_read(QuantisedNet *q, const char *path, char *error, size_t error_size);
