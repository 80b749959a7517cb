#pragma once
/*
 * build_info.h — what this binary is: its version (the first entry of
 * debian/changelog, which the Makefile reads: the one place it is kept), the
 * ARCH it was built for (`make ARCH=x86-64 | x86-64-v2 | x86-64-v3 | native`),
 * the compiler, and the x86 features that ARCH let the compiler use, which
 * cpu_check.c requires of the CPU at start-up.
 */

const char *build_version(void);
/* x86-64, x86-64-v2, x86-64-v3 or native. */
const char *build_arch(void);
/* "gcc 12.2.0", "clang 14.0.6", ... */
const char *build_compiler(void);
/* The features the compiler was allowed to use, as __builtin_cpu_supports
 * names them ("popcnt", "avx2", ...); NULL-terminated, empty for plain x86-64. */
extern const char *const build_cpu_features[];
