#pragma once
/*
 * trainer.h — the training loop of scripts/nnue/train.py in C: a held-out
 * 2 % of the records in whole runs of consecutive records (whole games),
 * every epoch the rest shuffled afresh and taken in batches, each batch's
 * mean loss stepped down by Adam, the learning rate of train.py's schedule.
 *
 * A batch is cut into SHARDS fixed slices; each slice's gradient is summed
 * in a buffer of its own, and the buffers are added in slice order. The
 * threads only decide who sums which slice, so the weights, and the net's
 * bytes, are the same for any --threads (1 to SHARDS).
 */
#include <stddef.h>
#include <stdint.h>

#include "adam.h"
#include "model.h"
#include "records.h"

enum { SHARDS = 8 };

typedef struct {
    const RecordSet *records;
    Weights weights;
    Weights shards[SHARDS]; /* each slice's gradient */
    Adam adam;
    LossShape loss;
    uint32_t *held_out, *training; /* record indices */
    size_t held_out_count, training_count;
    uint64_t seed, shuffle_state;
    int threads;
    bool mirror;
    KingBuckets kings; /* the input blocks each perspective reads */
} Trainer;

/* The shape of the net to train. */
typedef struct {
    int hidden, buckets;
    KingBuckets kings;
    bool screlu;
} NetShape;

/* Splits the records, and starts from `start` (NULL: random weights; else
 * of the same shape). */
bool trainer_init(Trainer *t, const RecordSet *records, const NetShape *shape, const Weights *start, LossShape loss,
                  uint64_t seed, int threads, bool mirror);
void trainer_free(Trainer *t);

/* One epoch at learning rate lr, with t->loss as it is: returns the mean
 * training loss. */
double trainer_epoch(Trainer *t, int epoch, double lr, int batch);

/* The mean loss of `weights` over `count` records, unmirrored. */
double trainer_loss(const Trainer *t, const Weights *weights, const uint32_t *indices, size_t count);

/* The mean of (a's output - b's output) over the records (units of SCALE
 * cp); and over the records of each of a's output buckets into
 * bucket_mean[bucket] (0 for a bucket without one), how many into
 * bucket_count[bucket]. */
double trainer_mean_difference(const Trainer *t, const Weights *a, const Weights *b, const uint32_t *indices,
                               size_t count, double *bucket_mean, size_t *bucket_count);

/* One batch's gradient (no step): the records' mean loss gradient into
 * t->shards[0] (the other shards added in and cleared), for the tests. */
double trainer_batch_gradient(Trainer *t, const uint32_t *indices, size_t count);
