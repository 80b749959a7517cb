#pragma once
/*
 * options.h — bachess-train's command line: train.py's options for the
 * plain net (one output bucket, no king mirroring or buckets), and two
 * checks the tests use (--gradient-check, --evaluate).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char **records;     /* the record files, in order */
    int record_count;
    const char *out, *init, *gradient_check, *evaluate;
    int hidden, epochs, batch, threads;
    double lr, final_lr, lambda, k;
    size_t positions;   /* at most this many records (0: all) */
    uint64_t seed;
    bool crelu, mirror, no_bias_correction;
} Options;

/* Parses argv; false with a message in `error` for anything it does not take. */
bool options_parse(Options *o, int argc, char **argv, char *error, size_t error_size);
