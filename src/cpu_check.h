#pragma once
/*
 * cpu_check.h — a binary built for a newer CPU than the one it runs on would
 * die of an illegal instruction somewhere in a game. Instead, before main(),
 * it compares the features its build needs (build_info.h) with the CPU's and,
 * when one is missing, prints one line naming the build to make and exits 1:
 *
 *   bachess: this build (ARCH=x86-64-v3) needs the CPU feature avx2, which this
 *   CPU lacks; build bachess with `make ARCH=x86-64-v2` for it
 *
 * The environment variable BACHESS_CPU_PRETEND_MISSING (features separated by
 * commas) makes the check believe the CPU lacks those, for tests.
 * cpu_check.c is compiled for plain x86-64, whatever ARCH is.
 */
#include <stdbool.h>
#include <stddef.h>

/* Does the CPU have `feature` (a __builtin_cpu_supports name)? */
typedef bool (*CpuHasFn)(const char *feature);

/* The first of the NULL-terminated `needed` that `has` denies, or NULL. */
const char *cpu_first_missing(const char *const *needed, CpuHasFn has);
/* The best of x86-64-v3, x86-64-v2 and x86-64 that a CPU with `has` runs. */
const char *cpu_best_arch(CpuHasFn has);
/* Writes the refusal line (no newline) into buf and returns true when `has`
 * lacks one of `needed`; false, buf untouched, when the build can run. */
bool cpu_refusal(char *buf, size_t size, const char *arch, const char *const *needed, CpuHasFn has);
/* The real CPU, less what BACHESS_CPU_PRETEND_MISSING names. */
bool cpu_has(const char *feature);
