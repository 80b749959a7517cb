/* test_cpu_check.c — the start-up check of the CPU (cpu_check.h) with
 * pretended CPUs: which feature is missing, which build to name instead, and
 * the one line of the refusal. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_check.h"

/* A CPU with the x86-64-v2 features and nothing later. */
static bool v2_cpu(const char *f)
{
    const char *const has[] = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", NULL};
    for (int i = 0; has[i]; i++)
        if (strcmp(has[i], f) == 0)
            return true;
    return false;
}
static bool bare_cpu(const char *f) { return (void)f, false; }
static bool full_cpu(const char *f) { return (void)f, true; }
/* A v3 CPU without BMI2 (an early AVX2 part): still only v2. */
static bool no_bmi2_cpu(const char *f) { return strcmp(f, "bmi2") != 0; }

static const char *const v3_needs[] = {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "fma", "bmi", "bmi2", NULL};
static const char *const nothing[] = {NULL};

Test(cpu_check, first_missing)
{
    cr_assert_null(cpu_first_missing(v3_needs, full_cpu));
    cr_assert_str_eq(cpu_first_missing(v3_needs, v2_cpu), "avx");
    cr_assert_str_eq(cpu_first_missing(v3_needs, bare_cpu), "sse3");
    cr_assert_str_eq(cpu_first_missing(v3_needs, no_bmi2_cpu), "bmi2");
    cr_assert_null(cpu_first_missing(nothing, bare_cpu));
}

Test(cpu_check, best_arch)
{
    cr_assert_str_eq(cpu_best_arch(full_cpu), "x86-64-v3");
    cr_assert_str_eq(cpu_best_arch(v2_cpu), "x86-64-v2");
    cr_assert_str_eq(cpu_best_arch(no_bmi2_cpu), "x86-64-v2");
    cr_assert_str_eq(cpu_best_arch(bare_cpu), "x86-64");
}

Test(cpu_check, refusal_is_one_line_naming_the_build)
{
    char line[256] = "untouched";
    cr_assert_not(cpu_refusal(line, sizeof line, "x86-64-v3", v3_needs, full_cpu));
    cr_assert_str_eq(line, "untouched");
    cr_assert_not(cpu_refusal(line, sizeof line, "x86-64", nothing, bare_cpu));
    cr_assert(cpu_refusal(line, sizeof line, "x86-64-v3", v3_needs, v2_cpu));
    cr_assert_str_eq(line, "bachess: this build (ARCH=x86-64-v3) needs the CPU feature avx, which this CPU lacks; "
                           "build bachess with `make ARCH=x86-64-v2` for it");
    cr_assert_null(strchr(line, '\n'));
    cr_assert(cpu_refusal(line, sizeof line, "native", v3_needs, bare_cpu));
    cr_assert_not_null(strstr(line, "`make ARCH=x86-64`"));
}

#if defined(__x86_64__) || defined(__i386__)
Test(cpu_check, pretend_missing_from_the_environment)
{
    setenv("BACHESS_CPU_PRETEND_MISSING", "avx2,bmi2", 1);
    cr_assert_not(cpu_has("avx2"));
    cr_assert_not(cpu_has("bmi2"));
    cr_assert(cpu_has("bmi") == !!__builtin_cpu_supports("bmi")); /* a prefix of a name is not the name */
    setenv("BACHESS_CPU_PRETEND_MISSING", "", 1);
    cr_assert(cpu_has("avx2") == !!__builtin_cpu_supports("avx2"));
    unsetenv("BACHESS_CPU_PRETEND_MISSING");
}
#endif
