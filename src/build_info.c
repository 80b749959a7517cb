/* build_info.c — see build_info.h. The feature list comes from the macros the
 * compiler predefines for the -march it was given, so it says what the
 * compiled code may contain, whatever ARCH was called. This file holds data
 * only: it is compiled with the build's -march, but runs no code that could
 * use an instruction the CPU lacks before cpu_check.c has looked. */
#include <stddef.h>

#include "build_info.h"

#ifndef BACHESS_VERSION
#define BACHESS_VERSION "unknown"
#endif
#ifndef BACHESS_ARCH
#define BACHESS_ARCH "unknown"
#endif

const char *build_version(void) { return BACHESS_VERSION; }
const char *build_arch(void) { return BACHESS_ARCH; }

#define STRING(x) #x
#define NUMBER(x) STRING(x)

const char *build_compiler(void)
{
#if defined(__clang__)
    return "clang " NUMBER(__clang_major__) "." NUMBER(__clang_minor__) "." NUMBER(__clang_patchlevel__);
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

const char *const build_cpu_features[] = {
#ifdef __SSE3__
    "sse3",
#endif
#ifdef __SSSE3__
    "ssse3",
#endif
#ifdef __SSE4_1__
    "sse4.1",
#endif
#ifdef __SSE4_2__
    "sse4.2",
#endif
#ifdef __POPCNT__
    "popcnt",
#endif
#ifdef __AVX__
    "avx",
#endif
#ifdef __AVX2__
    "avx2",
#endif
#ifdef __FMA__
    "fma",
#endif
#ifdef __BMI__
    "bmi",
#endif
#ifdef __BMI2__
    "bmi2",
#endif
#ifdef __AVX512F__
    "avx512f",
#endif
#ifdef __AVX512CD__
    "avx512cd",
#endif
#ifdef __AVX512BW__
    "avx512bw",
#endif
#ifdef __AVX512DQ__
    "avx512dq",
#endif
#ifdef __AVX512VL__
    "avx512vl",
#endif
#ifdef __AVX512VNNI__
    "avx512vnni",
#endif
#ifdef __AVX512VBMI__
    "avx512vbmi",
#endif
#ifdef __AVX512VBMI2__
    "avx512vbmi2",
#endif
#ifdef __AVX512IFMA__
    "avx512ifma",
#endif
#ifdef __AVX512BITALG__
    "avx512bitalg",
#endif
#ifdef __AVX512VPOPCNTDQ__
    "avx512vpopcntdq",
#endif
#ifdef __AVX512BF16__
    "avx512bf16",
#endif
    NULL,
};
