/* adam.c — the optimiser step (see adam.h). */
#include "adam.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double BETA1 = 0.9, BETA2 = 0.999;
static const float EPSILON = 1e-8f;
/* model.py's MAX_INPUT and MAX_OUTPUT: int16 after x QA, int8 after x QB. */
static const float MAX_INPUT = 32000.0f / 255.0f, MAX_OUTPUT = 127.0f / 64.0f;

bool adam_alloc(Adam *a, const Weights *w)
{
    *a = (Adam){ .first = calloc(w->size, sizeof(float)), .second = calloc(w->size, sizeof(float)) };
    if (!a->first || !a->second) {
        adam_free(a);
        return false;
    }
    return true;
}

void adam_free(Adam *a)
{
    free(a->first);
    free(a->second);
    *a = (Adam){ 0 };
}

AdamStep adam_begin_step(Adam *a, double lr)
{
    a->step++;
    double correction1 = 1.0 - pow(BETA1, (double)a->step), correction2 = 1.0 - pow(BETA2, (double)a->step);
    return (AdamStep){ .step_size = (float)(lr / correction1), .correction2_sqrt = (float)sqrt(correction2) };
}

static float clamp(float x, float limit) { return fminf(fmaxf(x, -limit), limit); }

void adam_update(const Adam *a, AdamStep step, Weights *w, Weights *shards, int shard_count, size_t begin, size_t end)
{
    size_t output_start = (size_t)(w->output_weights - w->storage), bias_start = (size_t)(w->output_bias - w->storage);
    float *restrict param = w->storage, *restrict m = a->first, *restrict v = a->second;
    for (size_t j = begin; j < end; j++) {
        float g = 0.0f;
        for (int s = 0; s < shard_count; s++) {
            g += shards[s].storage[j];
            shards[s].storage[j] = 0.0f;
        }
        m[j] = m[j] * (float)BETA1 + g * (float)(1.0 - BETA1);
        v[j] = v[j] * (float)BETA2 + g * g * (float)(1.0 - BETA2);
        float denominator = sqrtf(v[j]) / step.correction2_sqrt + EPSILON;
        float moved = param[j] - step.step_size * m[j] / denominator;
        param[j] = j >= bias_start ? moved : clamp(moved, j >= output_start ? MAX_OUTPUT : MAX_INPUT);
    }
}
