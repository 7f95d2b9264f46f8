/* cupti_kernels.h — kernel durations from CUPTI activity records.
 *
 * An independent clock for the timing loop: while a collection is open,
 * CUPTI records the start and end of every kernel (activity kind
 * CONCURRENT_KERNEL) and cupti_kernels_stop() returns them in start order.
 * The timing loop compares the sum over a plan's kernels with its CUDA
 * event time.  The timing loop's own kernels (cudaperf_flush, cudaperf_spin)
 * are left out of the spans.  libcupti is loaded at run time ($CUDAPERF_LIBCUPTI,
 * libcupti.so.13, or the toolkit's copy); where it is missing or refuses,
 * the cross-check is off and the result says why. */
#ifndef CUDAPERF_CUPTI_KERNELS_H
#define CUDAPERF_CUPTI_KERNELS_H

#include <stdint.h>

#include "common/error.h"

typedef struct KernelSpan {
    uint64_t start_ns, end_ns;
} KernelSpan;

/* Loads CUPTI once per process; -1 with e when unavailable. */
int cupti_kernels_init(Error *e);
/* Starts recording kernel activity. */
int cupti_kernels_start(Error *e);
/* Stops, flushes and returns the spans (from malloc(), *n of them). */
int cupti_kernels_stop(KernelSpan **spans, int *n, Error *e);

#endif
