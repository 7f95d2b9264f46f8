/* The one test runner: runs every registered test (or those named on the
 * command line), each in its own temporary directory, and ends with
 * "N passed, N failed, N skipped". */
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "tests/test.h"

#define TEST_ENTRY(name) int test_##name(TestCtx *t);
#include "tests/registry.h"
#undef TEST_ENTRY

static const struct {
    const char *name;
    int (*fn)(TestCtx *);
} TESTS[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "tests/registry.h"
#undef TEST_ENTRY
};

void test_fail(TestCtx *t, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "    NOT OK %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    t->failures++;
}

int test_skip(TestCtx *t, const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "    SKIPPED: ");
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    t->skipped = 1;
    return 0;
}

char *test_bin_dir(void)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return xstrdup(dirname(self));
}

char *test_harness_exe(void)
{
    char *bin = test_bin_dir();
    if (!bin)
        return NULL;
    char *p = xasprintf("%s/harness", bin);
    free(bin);
    if (access(p, X_OK) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

int test_build_fake(TestCtx *t, const char *src, const char *so, const char *flags)
{
    char *out = NULL;
    int st = test_sh(&out, "cc -std=c11 -O1 -shared -fPIC %s -o %s/%s tests/fake_cuda/%s", flags, t->tmpdir, so, src);
    if (st != 0)
        test_fail(t, __FILE__, __LINE__, "cannot build %s: %s", src, out ? out : "");
    free(out);
    return st;
}

int test_sh(char **out, const char *fmt, ...)
{
    StrBuf cmd = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&cmd, fmt, ap);
    va_end(ap);
    sb_append(&cmd, " 2>&1");
    fflush(NULL);
    FILE *p = popen(cmd.data, "r");
    sb_release(&cmd);
    if (!p)
        return -1;
    StrBuf o = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        sb_append_n(&o, buf, n);
    int st = pclose(p);
    if (out)
        *out = sb_steal(&o);
    else
        sb_release(&o);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    int n = (int)(sizeof TESTS / sizeof *TESTS);
    for (int i = 0; i < n; i++) {
        int wanted = argc < 2;
        for (int k = 1; k < argc; k++)
            wanted |= strstr(TESTS[i].name, argv[k]) != NULL;
        if (!wanted)
            continue;
        TestCtx t = {TESTS[i].name, 0, 0, ""};
        snprintf(t.tmpdir, sizeof t.tmpdir, "/tmp/cudaperf-test-%s-XXXXXX", TESTS[i].name);
        if (!mkdtemp(t.tmpdir)) {
            perror("mkdtemp");
            return 1;
        }
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        printf("%-40s ...\n", TESTS[i].name);
        fflush(stdout);
        int rc = TESTS[i].fn(&t);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        if (t.skipped && !t.failures) {
            skipped++;
            printf("  SKIP %s (%.2f s)\n", TESTS[i].name, secs);
        } else if (t.failures || rc != 0) {
            failed++;
            printf("  FAIL %s (%.2f s)\n", TESTS[i].name, secs);
        } else {
            passed++;
            printf("  ok   %s (%.2f s)\n", TESTS[i].name, secs);
        }
        if (!getenv("CUDAPERF_KEEP_TEST_DIRS"))
            file_remove_tree(t.tmpdir, NULL);
        fflush(stdout);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
