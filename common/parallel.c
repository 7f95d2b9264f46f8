#include "common/parallel.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

int parallel_threads(int64_t count, int64_t min_count, int max_threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (max_threads > PARALLEL_MAX_THREADS)
        max_threads = PARALLEL_MAX_THREADS;
    if (count < min_count || cores < 2 || max_threads < 2)
        return 1;
    return cores < max_threads ? (int)cores : max_threads;
}

typedef struct RangeCall {
    void (*fn)(void *ctx, int k, int64_t begin, int64_t end);
    void *ctx;
    int k;
    int64_t begin, end;
} RangeCall;

static void *range_main(void *arg)
{
    RangeCall *r = arg;
    r->fn(r->ctx, r->k, r->begin, r->end);
    return NULL;
}

void parallel_ranges(int64_t count, int n, void (*fn)(void *ctx, int k, int64_t begin, int64_t end), void *ctx)
{
    if (n < 1)
        n = 1;
    if (n > PARALLEL_MAX_THREADS)
        n = PARALLEL_MAX_THREADS;
    RangeCall calls[PARALLEL_MAX_THREADS];
    pthread_t th[PARALLEL_MAX_THREADS];
    int started[PARALLEL_MAX_THREADS] = {0};
    int64_t chunk = (count + n - 1) / n;
    for (int k = 0; k < n; k++) {
        int64_t b = chunk * k < count ? chunk * k : count, e = b + chunk < count ? b + chunk : count;
        calls[k] = (RangeCall){fn, ctx, k, b, e};
        started[k] = k > 0 && pthread_create(&th[k], NULL, range_main, &calls[k]) == 0;
    }
    for (int k = 0; k < n; k++)
        if (!started[k])
            range_main(&calls[k]);
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
}

typedef struct Copy {
    char *dst;
    const char *src;
} Copy;

static void copy_range(void *ctx, int k, int64_t begin, int64_t end)
{
    (void)k;
    const Copy *c = ctx;
    memcpy(c->dst + begin, c->src + begin, (size_t)(end - begin));
}

#define COPY_PARALLEL_MIN (64LL << 20)

void parallel_copy(void *dst, const void *src, size_t n)
{
    Copy c = {dst, src};
    parallel_ranges((int64_t)n, parallel_threads((int64_t)n, COPY_PARALLEL_MIN, 8), copy_range, &c);
}
