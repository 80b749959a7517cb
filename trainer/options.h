#pragma once
/*
 * options.h — bachess-train's command line: train.py's options for the
 * net with output buckets and king buckets (no king mirroring), a schedule
 * of lambda (--final-lambda), and the checks the tests use
 * (--gradient-check with --check-epoch, --evaluate).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "king_buckets.h"

typedef struct {
    char **records;     /* the record files, in order */
    int record_count;
    const char *out, *init, *gradient_check, *evaluate;
    int hidden, epochs, batch, threads, output_buckets;
    int check_epoch;    /* the epoch whose lambda --gradient-check uses */
    double lr, final_lr, lambda, k;
    double final_lambda; /* the last epoch's lambda; NO_FINAL_LAMBDA: --lambda throughout */
    size_t positions;   /* at most this many records (0: all) */
    uint64_t seed;
    KingBuckets kings;  /* --king-buckets */
    bool crelu, mirror, no_bias_correction, factoriser;
} Options;

enum { NO_FINAL_LAMBDA = -1 };

/* Parses argv; false with a message in `error` for anything it does not take. */
bool options_parse(Options *o, int argc, char **argv, char *error, size_t error_size);
