#pragma once
/*
 * model.h — the float perspective network 768 -> N x 2 -> 1 the trainer
 * fits, the one scripts/nnue/model.py defines: each side's hidden layer is
 * the input bias plus the input weights of its active features (with K king
 * buckets, K blocks of 768 rows, records_decode() placing each perspective's
 * features in its own king's block), the output
 * one neuron over both layers (the side to move's first) through SCReLU
 * (clamp to [0, 1], squared) or CReLU (clamp), in units of SCALE
 * centipawns. With B output buckets there are B such neurons, and a
 * position is read through the one of its piece count (output_bucket(), the
 * engine's nnue_output_bucket()); only that neuron's weights get a gradient.
 *
 * The loss of a position is (sigmoid(output * SCALE / K) - target)^2 with
 * target = lambda * result + (1 - lambda) * sigmoid(score / K), both from
 * the side to move's view; a batch's loss is the mean. model_backward()
 * adds one position's gradient of that mean to a Gradient, touching only the
 * input weight rows of the position's own features (the sparse first
 * layer), in loops of whole rows that the compiler vectorises.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "records.h"

enum { SCALE = 400, MAX_HIDDEN = 512, HIDDEN_STEP = 16, MAX_OUTPUT_BUCKETS = 16 };

/* The weights of the network, or (the same shape) their gradient. */
typedef struct {
    int hidden, buckets;   /* buckets: output buckets, 1 to MAX_OUTPUT_BUCKETS */
    int input_blocks;      /* blocks of INPUTS input weights: the king buckets' (and a factoriser's) */
    bool screlu;
    float *input_weights; /* [K * INPUTS][hidden], feature by feature */
    float *input_bias;    /* [hidden] */
    float *output_weights; /* [buckets][2 * hidden], each bucket's side to move's half first */
    float *output_bias;    /* [buckets] */
    float *storage;        /* one block holding them all */
    size_t size;           /* floats in the block */
} Weights;

/* What the loss is made of (train.py's --lambda and --k). */
typedef struct {
    float lambda, k;
} LossShape;

bool weights_alloc(Weights *w, int hidden, int buckets, int input_blocks, bool screlu);
void weights_free(Weights *w);
/* The rows of input weights: INPUTS for each block. */
static inline size_t weights_input_rows(const Weights *w) { return (size_t)w->input_blocks * INPUTS; }

/* train.py's start: input weights normal(0, 0.1), output weights
 * uniform(-0.1, 0.1) (bucket after bucket: one bucket draws what it always
 * did), biases zero. */
void weights_randomise(Weights *w, uint64_t seed);

/* The output bucket of a board of `pieces` pieces, kings included, held to
 * 2..32: (pieces - 2) * buckets / 31, as src/nnue/network.h. */
static inline int output_bucket(int pieces, int buckets)
{
    int held = pieces < 2 ? 2 : pieces > 32 ? 32 : pieces;
    return (held - 2) * buckets / 31;
}

/* The network's output for a position, in units of SCALE centipawns. */
float model_output(const Weights *w, const Position *p);

/* The position's squared error; adds its gradient, scaled by 1 / batch (the
 * mean's share), to `grad`. */
float model_backward(const Weights *w, const Position *p, LossShape loss, float batch, Weights *grad);

/* The position's squared error alone. */
float model_error(const Weights *w, const Position *p, LossShape loss);
