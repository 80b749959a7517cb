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

/* By pointer, not by value: a 64-byte vector passed by value has another
 * ABI with AVX-512 than without, which GCC warns of (-Wpsabi). */
static inline void vec_load(Vec *v, const float *p) { memcpy(v, p, sizeof *v); }
static inline void vec_store(float *p, const Vec *v) { memcpy(p, v, sizeof *v); }
static inline void vec_add(Vec *sum, const float *p)
{
    Vec v;
    vec_load(&v, p);
    *sum += v;
}
