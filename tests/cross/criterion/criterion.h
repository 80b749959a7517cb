#pragma once
/*
 * criterion.h — a stand-in for the part of Criterion that tests/test_nnue.c,
 * tests/test_perft.c and tests/test_support.c use, for the cross builds
 * (aarch64 under qemu), for which Debian has no Criterion to link: the same
 * test files run there unchanged (tests/cross/runner.c runs them, one after
 * the other in one process, and prints "N passed, N failed").
 */
#include <stdbool.h>
#include <stdio.h>

typedef void (*CrossTestBody)(void);
typedef struct {
    CrossTestBody init, fini;
    double timeout; /* accepted, not enforced: qemu's own timeout bounds the run */
} CrossSuiteOptions;

void cross_register_test(const char *suite, const char *name, CrossTestBody body);
void cross_register_suite(const char *suite, const CrossSuiteOptions *options);
/* A failed check: printed; a fatal one ends the test. */
void cross_fail(bool fatal, const char *file, int line, const char *expression, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
void cross_log(const char *format, ...) __attribute__((format(printf, 1, 2)));

#define Test(suite, name, ...)                                                                              \
    static void suite##_##name(void);                                                                      \
    __attribute__((constructor)) static void suite##_##name##_registered(void)                             \
    {                                                                                                      \
        cross_register_test(#suite, #name, suite##_##name);                                                \
    }                                                                                                      \
    static void suite##_##name(void)

#define TestSuite(suite, ...)                                                                               \
    __attribute__((constructor)) static void suite##_suite_registered(void)                                \
    {                                                                                                      \
        static const CrossSuiteOptions options = { __VA_ARGS__ };                                          \
        cross_register_suite(#suite, &options);                                                            \
    }

/* Criterion's hooks into its runner: nothing to hook here. */
struct criterion_test_set;
#define ReportHook(kind) __attribute__((unused)) static void cross_report_hook_##kind

#define CROSS_CHECK(fatal, condition, ...)                                                                  \
    do {                                                                                                   \
        if (!(condition))                                                                                  \
            cross_fail(fatal, __FILE__, __LINE__, #condition, " " __VA_ARGS__);                             \
    } while (0)

#define cr_assert(c, ...) CROSS_CHECK(true, c, __VA_ARGS__)
#define cr_assert_not(c, ...) CROSS_CHECK(true, !(c), __VA_ARGS__)
#define cr_assert_eq(a, b, ...) CROSS_CHECK(true, (a) == (b), __VA_ARGS__)
#define cr_assert_neq(a, b, ...) CROSS_CHECK(true, (a) != (b), __VA_ARGS__)
#define cr_assert_gt(a, b, ...) CROSS_CHECK(true, (a) > (b), __VA_ARGS__)
#define cr_assert_not_null(p, ...) CROSS_CHECK(true, (p) != NULL, __VA_ARGS__)
#define cr_expect(c, ...) CROSS_CHECK(false, c, __VA_ARGS__)
#define cr_expect_not(c, ...) CROSS_CHECK(false, !(c), __VA_ARGS__)
#define cr_expect_eq(a, b, ...) CROSS_CHECK(false, (a) == (b), __VA_ARGS__)
#define cr_log_info(...) cross_log(__VA_ARGS__)
#define cr_log_error(...) cross_log(__VA_ARGS__)
