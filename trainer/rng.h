#pragma once
/*
 * rng.h — the trainer's seeded random numbers: splitmix64 (src/splitmix.h)
 * for the sequences (initial weights, the held-out runs, each epoch's
 * shuffle), and a stateless hash of (seed, epoch, draw) for --mirror's coin,
 * so that a position's coin does not depend on which thread draws it.
 */
#include <math.h>
#include <stdint.h>

#include "splitmix.h"

/* A number in [0, n), by the high half of a 64 x 64-bit product: no division,
 * and a bias below n / 2^64, far under anything a trainer could see. */
static inline uint64_t rng_below(uint64_t *state, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)splitmix64(state) * n) >> 64);
}

/* A float in [0, 1) from the top 24 bits. */
static inline float rng_unit(uint64_t *state)
{
    return (float)(splitmix64(state) >> 40) * (1.0f / 16777216.0f);
}

/* A normal deviate (Box-Muller, the cosine half; 1 - u keeps log finite). */
static inline float rng_normal(uint64_t *state, float mean, float deviation)
{
    double u = 1.0 - (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
    double v = (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
    return mean + deviation * (float)(sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v));
}

/* One coin of a counter: the same answer for the same (seed, epoch, draw). */
static inline int rng_coin(uint64_t seed, uint64_t epoch, uint64_t draw)
{
    uint64_t state = seed * 0xD1B54A32D192ED03ULL ^ epoch << 40 ^ draw;
    return (int)(splitmix64(&state) >> 63);
}
