/* test.h — the tiny test framework: TEST(name) functions registered by the
 * Makefile (grep of tests/test_*.c), CHECK macros that record failures with
 * file:line, and SKIP for tests whose prerequisites are absent (said
 * loudly, with the reason). */
#ifndef CUDAPERF_TEST_H
#define CUDAPERF_TEST_H

#include <stdio.h>

typedef struct TestCtx {
    const char *name;
    int failures;
    int skipped;
    char tmpdir[256]; /* a fresh directory per test, removed afterwards */
} TestCtx;

#define TEST(name) int test_##name(TestCtx *t)

void test_fail(TestCtx *t, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int test_skip(TestCtx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            test_fail(t, __FILE__, __LINE__, "CHECK(%s)", #cond);                                                      \
    } while (0)
#define CHECK_MSG(cond, ...)                                                                                           \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            test_fail(t, __FILE__, __LINE__, __VA_ARGS__);                                                             \
    } while (0)
#define SKIP(...) return test_skip(t, __VA_ARGS__)

/* Runs a shell command, capturing stdout+stderr into a malloc()ed string
 * (*out, may be NULL); returns the exit status. */
int test_sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The folder of this test runner, bin/ (malloc()ed path), or NULL. */
char *test_bin_dir(void);
/* bin/harness next to this test runner (malloc()ed path), or NULL. */
char *test_harness_exe(void);

/* The compiler flags the fake CUPTI builds with (the real CUPTI headers). */
#define FAKE_CUPTI_CFLAGS "-I/usr/local/cuda/include -isystem harness/cupti_c"

/* Builds tests/fake_cuda/src into t's directory as the shared library
 * `so` (libcuda.so.1, libcupti.so.13) with extra compiler flags; 0, or the
 * compiler's status with a failure recorded that shows its output. */
int test_build_fake(TestCtx *t, const char *src, const char *so, const char *flags);

#endif
