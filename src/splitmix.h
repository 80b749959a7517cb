#pragma once
/*
 * splitmix.h — splitmix64, the small generator behind the Zobrist keys and
 * datagen's seeded choices: well-mixed 64-bit outputs from a counter, the
 * same sequence for the same seed on every machine.
 */
#include <stdint.h>

/* The finaliser alone: a cheap hash whose output bits all depend on every
 * input bit (the game-tree lab hashes node numbers with it). */
static inline uint64_t splitmix64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t splitmix64(uint64_t *state)
{
    return splitmix64_mix(*state += 0x9E3779B97F4A7C15ULL);
}
