/* cupti_profile.h — hardware metrics of a launch plan with CUPTI's range
 * profiler, inside the GPU worker.
 *
 * Promise: cupti_profile_run() collects the metrics profile_metrics.h
 * chooses over one user range that holds a whole launch plan, replaying
 * the plan as many times as the metrics need passes (user replay).  Before
 * each pass, outside the range, the caller's `prepare` restores inputs and
 * flushes the L2 (so each pass sees what one cold execution sees); inside,
 * `execute` enqueues the plan and waits for it under the deadline.  It is
 * a separate pass, after correctness and timing: nothing it does touches
 * a timed sample.
 *
 * CUPTI (libcupti.so.13, or the toolkit's copy, which
 * loads libnvperf_host.so from its own directory; $CUDAPERF_LIBCUPTI, when
 * set, is the only path tried) is opened with dlopen on first use, so the
 * worker runs where it is absent.  Metric names are
 * checked one by one against the profiler's host API on this chip; those
 * it does not know are left out and reported, never guessed.  Every CUPTI
 * call goes through one checking macro recording the call and file:line.
 * A profiler the machine does not permit (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
 * and the virtualised variant) ends as PROFILE_DENIED with that said, a
 * missing library or unsupported device as PROFILE_UNAVAILABLE; either is
 * remembered, and later calls answer at once without trying again. */
#ifndef CUDAPERF_CUPTI_PROFILE_H
#define CUDAPERF_CUPTI_PROFILE_H

#include <cuda.h>

#include "common/error.h"
#include "harness/profile_metrics.h"

/* Runs outside the range before every pass / the plan inside it.  Each
 * returns 0, 1 when the plan passed its deadline, -1 with e on a CUDA
 * error. */
typedef int (*CuptiPassFn)(void *arg, Error *e);

/* Profiles: r->status, note, passes, seconds and the collected pairs
 * (r->names/values; profile_take turns them into quantities).  Returns 0
 * (whatever the status: a profiler that refuses is not an error of the
 * candidate's), 1 when the plan passed its deadline, -1 with e when a
 * callback failed (the context may be dead). */
int cupti_profile_run(CUcontext ctx, int device, CuptiPassFn prepare, CuptiPassFn execute, void *arg,
                      int max_passes, ProfileResult *r, Error *e);

/* The status a CUPTI error code means for profiling (pure; for tests):
 * PROFILE_DENIED, PROFILE_UNAVAILABLE or PROFILE_FAILED. */
ProfileStatus cupti_profile_status_of(int cupti_result);

#endif
