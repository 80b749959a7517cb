#pragma once
/*
 * adam.h — torch.optim.Adam as train.py uses it (betas 0.9 and 0.999,
 * eps 1e-8, no weight decay), dense: every weight moves every step, as
 * torch's moves the input weights of features a batch did not see, followed
 * by model.py's clip (PerspectiveNet.clip()) that keeps the weights
 * quantisable. The gradient arrives as per-shard partial sums, added in
 * shard order, so that the step is the same whatever thread summed a shard.
 */
#include <stddef.h>

#include "model.h"

typedef struct {
    float *first, *second; /* the moments, the Weights' layout */
    long step;
} Adam;

bool adam_alloc(Adam *a, const Weights *w);
void adam_free(Adam *a);

/* One step's constants, from the learning rate and the step count. */
typedef struct {
    float step_size, correction2_sqrt;
} AdamStep;

AdamStep adam_begin_step(Adam *a, double lr);

/* Moves weights [begin, end) of the block: the gradient is the sum of the
 * shards' gradients, which it sets to zero for the next batch. */
void adam_update(const Adam *a, AdamStep step, Weights *w, Weights *shards, int shard_count, size_t begin, size_t end);
