/* parallel.h — one loop over a range split across a few threads.
 *
 * For host work on buffers of hundreds of MB (filling inputs, poisoning
 * outputs, comparing them), where a single thread spends seconds and most
 * of it on first-touch page faults, which threads take in parallel.  The
 * calling thread runs the first range itself; a range whose thread cannot
 * start runs there too, so the work always completes. */
#ifndef CUDAPERF_PARALLEL_H
#define CUDAPERF_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#define PARALLEL_MAX_THREADS 32

/* How many threads work on `count` items: 1 below min_count or on a
 * single core, else the number of cores, at most max_threads (itself at
 * most PARALLEL_MAX_THREADS). */
int parallel_threads(int64_t count, int64_t min_count, int max_threads);

/* Splits [0, count) into n even consecutive ranges (n from
 * parallel_threads) and calls fn(ctx, k, begin, end) for range k, each on
 * its own thread; returns when all are done.  fn must only touch its own
 * range and its own slot k of whatever ctx holds. */
void parallel_ranges(int64_t count, int n, void (*fn)(void *ctx, int k, int64_t begin, int64_t end), void *ctx);

/* memcpy(dst, src, n), split over threads from 64 MiB up: a copy into
 * fresh memory (a download into a new buffer, a trial kept in the cache)
 * spends most of its time on the destination's first-touch faults. */
void parallel_copy(void *dst, const void *src, size_t n);

#endif
