#pragma once
/*
 * vec.h — 16 floats as one value (GCC's and Clang's vector extension): one
 * AVX-512 register, two AVX2 ones, four SSE2 or NEON ones, whatever the
 * target has, so the trainer's inner loops are vector code on any build
 * without intrinsics. Loads and stores go through memcpy: the rows need no
 * alignment, and the compiler makes each a single unaligned move.
 */
#include <string.h>

enum { VEC_WIDTH = 16 };

typedef float Vec __attribute__((vector_size(VEC_WIDTH * sizeof(float))));

static inline Vec vec_load(const float *p)
{
    Vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void vec_store(float *p, Vec v) { memcpy(p, &v, sizeof v); }
