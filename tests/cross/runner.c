/* runner.c — runs the tests registered through tests/cross/criterion/
 * criterion.h, in the order of their files, in one process: a failed fatal
 * check ends its test (longjmp) and the next one runs. Prints each test's
 * verdict and "N passed, N failed"; exits 1 on a failure. */
#include <criterion/criterion.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TESTS = 256, MAX_SUITES = 16 };

static struct {
    const char *suite, *name;
    CrossTestBody body;
} tests[MAX_TESTS];
static int test_count;
static struct {
    const char *suite;
    const CrossSuiteOptions *options;
} suites[MAX_SUITES];
static int suite_count;

static jmp_buf test_end;
static bool test_failed;

void cross_register_test(const char *suite, const char *name, CrossTestBody body)
{
    if (test_count < MAX_TESTS)
        tests[test_count].suite = suite, tests[test_count].name = name, tests[test_count++].body = body;
}

void cross_register_suite(const char *suite, const CrossSuiteOptions *options)
{
    if (suite_count < MAX_SUITES)
        suites[suite_count].suite = suite, suites[suite_count++].options = options;
}

void cross_fail(bool fatal, const char *file, int line, const char *expression, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s:%d: failed: %s:", file, line, expression);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    test_failed = true;
    if (fatal)
        longjmp(test_end, 1);
}

void cross_log(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

static const CrossSuiteOptions *options_of(const char *suite)
{
    for (int s = 0; s < suite_count; s++)
        if (strcmp(suites[s].suite, suite) == 0)
            return suites[s].options;
    return NULL;
}

int main(void)
{
    int failed = 0;
    for (int t = 0; t < test_count; t++) {
        const CrossSuiteOptions *options = options_of(tests[t].suite);
        test_failed = false;
        if (setjmp(test_end) == 0) {
            if (options && options->init)
                options->init();
            tests[t].body();
        }
        if (options && options->fini)
            options->fini();
        failed += test_failed;
        printf("%s %s/%s\n", test_failed ? "FAIL" : "ok  ", tests[t].suite, tests[t].name);
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", test_count - failed, failed);
    return failed ? 1 : 0;
}
