/* cpu_check.c — see cpu_check.h. Compiled with -march=x86-64 and without LTO
 * (Makefile), so that nothing here uses an instruction it is about to check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "cpu_check.h"

const char *cpu_first_missing(const char *const *needed, CpuHasFn has)
{
    for (; *needed; needed++)
        if (!has(*needed))
            return *needed;
    return NULL;
}

const char *cpu_best_arch(CpuHasFn has)
{
    static const char *const v2[] = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", NULL};
    static const char *const v3[] = {"avx", "avx2", "fma", "bmi", "bmi2", NULL};
    if (cpu_first_missing(v2, has))
        return "x86-64";
    return cpu_first_missing(v3, has) ? "x86-64-v2" : "x86-64-v3";
}

bool cpu_refusal(char *buf, size_t size, const char *arch, const char *const *needed, CpuHasFn has)
{
    const char *missing = cpu_first_missing(needed, has);
    if (!missing)
        return false;
    snprintf(buf, size,
             "bachess: this build (ARCH=%s) needs the CPU feature %s, which this CPU lacks; "
             "build bachess with `make ARCH=%s` for it",
             arch, missing, cpu_best_arch(has));
    return true;
}

/* Is `feature` one of the comma-separated names in `list`? */
static bool listed(const char *list, const char *feature)
{
    size_t len = strlen(feature);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && strncmp(p, feature, len) == 0)
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

bool cpu_has(const char *feature)
{
    const char *pretend = getenv("BACHESS_CPU_PRETEND_MISSING");
    if (pretend && listed(pretend, feature))
        return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    /* __builtin_cpu_supports takes only a string literal. */
#define FEATURE(name)                                                                                                 \
    if (strcmp(feature, name) == 0)                                                                                   \
        return __builtin_cpu_supports(name);
    FEATURE("sse3") FEATURE("ssse3") FEATURE("sse4.1") FEATURE("sse4.2") FEATURE("popcnt")
    FEATURE("avx") FEATURE("avx2") FEATURE("fma") FEATURE("bmi") FEATURE("bmi2")
    FEATURE("avx512f") FEATURE("avx512cd") FEATURE("avx512bw") FEATURE("avx512dq") FEATURE("avx512vl")
    FEATURE("avx512vnni") FEATURE("avx512vbmi") FEATURE("avx512vbmi2") FEATURE("avx512ifma")
    FEATURE("avx512bitalg") FEATURE("avx512vpopcntdq") FEATURE("avx512bf16")
#undef FEATURE
#endif
    return true; /* a name this file does not know: no way to check it */
}

/* Before main() and before any code built for the ARCH has run. */
__attribute__((constructor)) static void cpu_check_at_start(void)
{
    char line[256];
    if (cpu_refusal(line, sizeof line, build_arch(), build_cpu_features, cpu_has)) {
        /* Flushed by hand: the refusal is the only thing the user sees, and
         * exit() from a constructor is the one path where a runtime (mingw's
         * under wine, seen once in a test run) may not flush stderr itself. */
        fprintf(stderr, "%s\n", line);
        fflush(stderr);
        exit(1);
    }
}
