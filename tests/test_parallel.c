/* common/parallel: the ranges cover [0, count) exactly once, each with its
 * own slot; a threaded copy is a memcpy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "common/strbuf.h"
#include "tests/test.h"

typedef struct Marks {
    unsigned char *seen;
    int64_t lo[PARALLEL_MAX_THREADS], hi[PARALLEL_MAX_THREADS];
} Marks;

static void mark(void *ctx, int k, int64_t begin, int64_t end)
{
    Marks *m = ctx;
    m->lo[k] = begin;
    m->hi[k] = end;
    for (int64_t i = begin; i < end; i++)
        m->seen[i]++;
}

TEST(parallel_ranges_cover_once)
{
    int64_t counts[] = {0, 1, 7, 1000003};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int n = 1; n <= 9; n += 4) {
            Marks m;
            memset(&m, 0, sizeof m);
            m.seen = xcalloc((size_t)counts[c] + 1, 1);
            parallel_ranges(counts[c], n, mark, &m);
            int64_t twice = -1, next = 0;
            for (int64_t i = 0; i < counts[c]; i++)
                if (m.seen[i] != 1 && twice < 0)
                    twice = i;
            for (int k = 0; k < n; k++) { /* consecutive, in order */
                CHECK_MSG(m.lo[k] == next && m.hi[k] >= m.lo[k], "count %lld, %d ranges: range %d is [%lld, %lld)",
                          (long long)counts[c], n, k, (long long)m.lo[k], (long long)m.hi[k]);
                next = m.hi[k];
            }
            CHECK_MSG(twice < 0 && next == counts[c], "count %lld, %d ranges: element %lld not covered once",
                      (long long)counts[c], n, (long long)twice);
            free(m.seen);
        }
    CHECK(parallel_threads(10, 100, 8) == 1);
    CHECK(parallel_threads(1000, 100, 1) == 1);
    CHECK(parallel_threads(1000, 100, 8) >= 1 && parallel_threads(1000, 100, 8) <= 8);
    return 0;
}

TEST(parallel_copy_is_memcpy)
{
    size_t n = (64u << 20) + 4097; /* past the threaded size, uneven ranges */
    unsigned char *src = xmalloc(n), *dst = xmalloc(n);
    uint32_t s = 12345;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        src[i] = (unsigned char)(s >> 24);
    }
    memset(dst, 0, n);
    parallel_copy(dst, src, n);
    CHECK(memcmp(dst, src, n) == 0);
    parallel_copy(dst, src, 0); /* nothing, no crash */
    free(src);
    free(dst);
    return 0;
}
