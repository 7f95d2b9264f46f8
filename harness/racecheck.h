/* racecheck.h — candidates run under compute-sanitizer's racecheck tool.
 *
 * A kernel that drops a __syncthreads() between writing shared memory and
 * reading it usually still passes on the GPU: the warps of a block seldom
 * interleave badly enough to show it, and a policy rewarded for speed will
 * learn to drop barriers.  With --racecheck every candidate runs in a fresh
 * GPU worker started under `compute-sanitizer --tool racecheck`, which
 * watches every shared-memory access; a candidate with a reported hazard
 * (an error, not a warning) fails each config it passed with wrong_result
 * and the hazard in the message.  Correctness only: the instrumented code's
 * times mean nothing, so nothing is timed.  Global-memory races (lost
 * updates of a non-atomic accumulation) are outside the tool's reach; the
 * fresh inputs of every trial still catch most of them. */
#ifndef CUDAPERF_RACECHECK_H
#define CUDAPERF_RACECHECK_H

#include <stddef.h>

#include "common/error.h"
#include "harness/gpu_worker.h"

/* Overrides where compute-sanitizer is looked for. */
#define RACECHECK_SANITIZER_ENV "CUDAPERF_SANITIZER"

/* Finds compute-sanitizer: $CUDAPERF_SANITIZER, else the toolkit's bin
 * (nvrtc_cuda_home(): $CUDAPERF_CUDA_HOME or /usr/local/cuda), then PATH.  Writes its path into path[0..len) and
 * returns 0, or -1 with e naming the places looked at. */
int racecheck_find_sanitizer(char *path, size_t len, Error *e);

/* What one racecheck log says. */
typedef struct RaceReport {
    int errors, warnings;  /* from the summary line */
    char first[512];       /* the first reported hazard, "" when none */
} RaceReport;

/* Reads the log a sanitizer wrote at its exit (RACECHECK SUMMARY ...).
 * Returns 0 with *r filled, or -1 with e when the file cannot be read or
 * holds no summary (the sanitizer was killed, or is no racecheck). */
int racecheck_read_log(const char *log_path, RaceReport *r, Error *e);

/* The wrapper that starts a worker under the racecheck tool, writing its
 * report to log_path.  The struct borrows sanitizer and log_path; args
 * points into *storage, which the caller keeps alive as long as the
 * wrapper. */
typedef struct RacecheckArgs {
    const char *args[12];
} RacecheckArgs;
WorkerWrapper racecheck_wrapper(const char *sanitizer, const char *log_path, RacecheckArgs *storage);

#endif
