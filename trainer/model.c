/* model.c — the float network's forward and backward passes (see model.h). */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "vec.h"

enum {
    LANES = 16, /* partial sums of the output: a fixed order for any vector width */
    MAX_WIDTH = 8, /* vectors of sums in registers at once */
};

bool weights_alloc(Weights *w, int hidden, int buckets, int input_blocks, bool screlu)
{
    size_t n = (size_t)hidden, b = (size_t)buckets, rows = (size_t)input_blocks * INPUTS;
    size_t size = rows * n + n + 2 * n * b + b;
    float *block = aligned_alloc(64, (size * sizeof(float) + 63) / 64 * 64);
    if (!block)
        return false;
    memset(block, 0, size * sizeof(float));
    *w = (Weights){ .hidden = hidden, .buckets = buckets, .input_blocks = input_blocks, .screlu = screlu,
                    .input_weights = block, .input_bias = block + rows * n, .output_weights = block + rows * n + n,
                    .output_bias = block + rows * n + n + 2 * n * b, .storage = block, .size = size };
    return true;
}

void weights_free(Weights *w)
{
    free(w->storage);
    *w = (Weights){ 0 };
}

void weights_randomise(Weights *w, uint64_t seed)
{
    uint64_t state = seed;
    size_t n = (size_t)w->hidden;
    for (size_t i = 0; i < weights_input_rows(w) * n; i++)
        w->input_weights[i] = rng_normal(&state, 0.0f, 0.1f);
    for (size_t i = 0; i < 2 * n * (size_t)w->buckets; i++)
        w->output_weights[i] = rng_unit(&state) * 0.2f - 0.1f;
    memset(w->input_bias, 0, n * sizeof(float));
    memset(w->output_bias, 0, (size_t)w->buckets * sizeof(float));
}

/* Hidden values [h, h + width * VEC_WIDTH) of one side's layer: `width`
 * independent sums kept in registers while the rows are read, so that the
 * adds of one sum need not wait for each other. */
static inline void accumulate_block(const Weights *w, const uint16_t *features, int count, size_t h, int width,
                                    float *acc)
{
    size_t n = (size_t)w->hidden;
    Vec sum[MAX_WIDTH];
    for (int v = 0; v < width; v++)
        vec_load(&sum[v], w->input_bias + h + (size_t)v * VEC_WIDTH);
    for (int f = 0; f < count; f++) {
        const float *row = w->input_weights + features[f] * n + h;
        for (int v = 0; v < width; v++)
            vec_add(&sum[v], row + v * VEC_WIDTH);
    }
    for (int v = 0; v < width; v++)
        vec_store(acc + h + (size_t)v * VEC_WIDTH, &sum[v]);
}

/* One side's hidden layer before the activation: bias plus its features' rows. */
static void accumulate(const Weights *w, const uint16_t *features, int count, float *acc)
{
    size_t n = (size_t)w->hidden, h = 0;
    for (; h + MAX_WIDTH * VEC_WIDTH <= n; h += MAX_WIDTH * VEC_WIDTH)
        accumulate_block(w, features, count, h, MAX_WIDTH, acc);
    for (; h < n; h += VEC_WIDTH)
        accumulate_block(w, features, count, h, 1, acc);
}

/* Clamped to [0, 1] by comparisons the compiler turns into vector min/max
 * (fminf is a library call unless NaNs may be ignored). */
static inline float clamp01(float x)
{
    x = x > 0.0f ? x : 0.0f;
    return x < 1.0f ? x : 1.0f;
}

static float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* The output bucket's weights, both sides' halves. */
static const float *bucket_weights(const Weights *w, int bucket)
{
    return w->output_weights + (size_t)bucket * 2 * (size_t)w->hidden;
}

/* The output from both sides' layers through `bucket`, summed in LANES
 * partial sums taken in a fixed order, so that the vectorised loop gives the
 * plain loop's bytes. */
static float output_of(const Weights *w, const float *restrict acc /* [2][hidden] */, int bucket)
{
    int n = w->hidden;
    float part[LANES] = { 0 };
    for (int side = 0; side < 2; side++) {
        const float *restrict z = acc + side * n, *restrict out = bucket_weights(w, bucket) + side * n;
        if (w->screlu)
            for (int h = 0; h < n; h += LANES)
                for (int l = 0; l < LANES; l++)
                    part[l] += clamp01(z[h + l]) * clamp01(z[h + l]) * out[h + l];
        else
            for (int h = 0; h < n; h += LANES)
                for (int l = 0; l < LANES; l++)
                    part[l] += clamp01(z[h + l]) * out[h + l];
    }
    float sum = w->output_bias[bucket];
    for (int l = 0; l < LANES; l++)
        sum += part[l];
    return sum;
}

static float target_of(const Position *p, LossShape loss)
{
    return loss.lambda * p->result_stm + (1.0f - loss.lambda) * sigmoid(p->score_stm / loss.k);
}

float model_output(const Weights *w, const Position *p)
{
    float acc[2 * MAX_HIDDEN] __attribute__((aligned(64)));
    accumulate(w, p->features[0], p->feature_count, acc);
    accumulate(w, p->features[1], p->feature_count, acc + w->hidden);
    return output_of(w, acc, output_bucket(p->count, w->buckets));
}

float model_error(const Weights *w, const Position *p, LossShape loss)
{
    float e = sigmoid(model_output(w, p) * SCALE / loss.k) - target_of(p, loss);
    return e * e;
}

/* One side's share of the backward pass: the output bucket's weights'
 * gradient, and the hidden layer's (before the activation) into `dz`.
 * torch's clamp passes the gradient at both ends of [0, 1], so the tests are
 * inclusive. */
static void side_backward(const Weights *w, const float *restrict z, int side, int bucket, float g, Weights *grad,
                          float *restrict dz)
{
    int n = w->hidden;
    size_t at = (size_t)bucket * 2 * (size_t)n + (size_t)side * (size_t)n;
    const float *restrict out = w->output_weights + at;
    float *restrict out_grad = grad->output_weights + at;
    if (w->screlu)
        for (int h = 0; h < n; h++) {
            float x = clamp01(z[h]);
            out_grad[h] += g * (x * x);
            dz[h] = z[h] >= 0.0f && z[h] <= 1.0f ? g * out[h] * (2.0f * z[h]) : 0.0f;
        }
    else
        for (int h = 0; h < n; h++) {
            out_grad[h] += g * clamp01(z[h]);
            dz[h] = z[h] >= 0.0f && z[h] <= 1.0f ? g * out[h] : 0.0f;
        }
}

/* The sparse first layer's gradient: `dz` added to each feature's row. */
static void rows_backward(const uint16_t *features, int count, const float *dz, int n, float *weights_grad)
{
    for (int f = 0; f < count; f++) {
        float *row = weights_grad + (size_t)features[f] * (size_t)n;
        for (int h = 0; h < n; h += VEC_WIDTH) {
            Vec v;
            vec_load(&v, row + h);
            vec_add(&v, dz + h);
            vec_store(row + h, &v);
        }
    }
}

float model_backward(const Weights *w, const Position *p, LossShape loss, float batch, Weights *grad)
{
    int n = w->hidden;
    float acc[2 * MAX_HIDDEN] __attribute__((aligned(64)));
    float dz[2 * MAX_HIDDEN] __attribute__((aligned(64)));
    accumulate(w, p->features[0], p->feature_count, acc);
    accumulate(w, p->features[1], p->feature_count, acc + n);
    int bucket = output_bucket(p->count, w->buckets);
    float predicted = sigmoid(output_of(w, acc, bucket) * SCALE / loss.k);
    float e = predicted - target_of(p, loss);
    /* d(mean of e^2)/d(output): 2e / batch through the sigmoid and the scale. */
    float g = 2.0f * e / batch * predicted * (1.0f - predicted) * SCALE / loss.k;
    grad->output_bias[bucket] += g;
    side_backward(w, acc, 0, bucket, g, grad, dz);
    side_backward(w, acc + n, 1, bucket, g, grad, dz + n);
    for (int h = 0; h < n; h++)
        grad->input_bias[h] += dz[h] + dz[n + h];
    rows_backward(p->features[0], p->feature_count, dz, n, grad->input_weights);
    rows_backward(p->features[1], p->feature_count, dz + n, n, grad->input_weights);
    return e * e;
}
