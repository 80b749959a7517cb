#pragma once
/*
 * netfile.h — the float network quantised into the engine's network file
 * (src/nnue/network.h; version 1: one output bucket, no king mirroring or
 * buckets), and read back, as scripts/nnue/model.py does: input weights and
 * bias x QA, output weights x QB (held to -127..127), output bias x QA x QB,
 * each rounded to the nearest integer, ties to even (numpy's round).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum { QA = 255, QB = 64 };

typedef struct {
    int hidden;
    bool screlu;
    int16_t *input_weights; /* [INPUTS][hidden] */
    int16_t *input_bias;    /* [hidden] */
    int16_t *output_weights; /* [2 * hidden] */
    int32_t output_bias;
} QuantisedNet;

bool netfile_quantise(const Weights *w, QuantisedNet *q);
void netfile_free(QuantisedNet *q);
/* The float network whose weights quantise to q exactly (a warm start, or
 * the float network of the file's own weights); w is allocated. */
bool netfile_dequantise(const QuantisedNet *q, Weights *w);

bool netfile_write(const QuantisedNet *q, const char *path, char *error, size_t error_size);
/* Reads a network file of one output bucket, without king mirroring or
 * king buckets; false with a message for anything else. */
bool netfile_read(QuantisedNet *q, const char *path, char *error, size_t error_size);
