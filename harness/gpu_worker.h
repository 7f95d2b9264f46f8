/* gpu_worker.h — the parent's handle on a GPU worker process.
 *
 * gpu_worker_start() forks and execs `<exe> worker` (normally
 * /proc/self/exe, the harness itself) with two pipes and says HELLO.  Each
 * call sends one request of worker_protocol.h and waits for its answer
 * under a deadline.  Any failure — a CUDA error, a timeout, a worker that
 * died or stopped answering — leaves the worker unusable: the caller reads
 * the kind of failure from the returned status, calls gpu_worker_kill(), and
 * starts a fresh worker for the next job.  Crashes and hangs of candidate
 * kernels therefore end one worker, never the harness. */
#ifndef CUDAPERF_GPU_WORKER_H
#define CUDAPERF_GPU_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "harness/gpu_share.h"
#include "harness/guard_zone.h"
#include "harness/worker_protocol.h"

typedef struct GpuInfo {
    int driver_version;  /* 13000 = CUDA 13.0 */
    int cc_major, cc_minor;
    int sm_count;
    uint64_t memory_bytes;
    char name[256];
} GpuInfo;

/* Which worker serves the protocol: the GPU one, or cpu_worker.h's, which
 * runs the same requests on the CPU (`harness worker --backend cpu`). */
typedef enum WorkerBackend { BACKEND_GPU = 0, BACKEND_CPU = 1 } WorkerBackend;

/* "gpu" / "cpu". */
const char *backend_name(WorkerBackend b);

typedef struct GpuWorker {
    pid_t pid;           /* 0 when not running */
    int to_fd, from_fd;  /* request / response pipes */
    int device;
    WorkerBackend backend;
    char *exe;           /* from malloc() */
    GpuInfo info;
    /* The staging memory of large transfers (worker_protocol.h), GPU
     * backend only: a memfd the worker inherits (-1: none, transfers go
     * through the pipe) and the parent's mapping of it; owned, released
     * with the worker. */
    int shm_fd;
    uint8_t *shm;
    size_t shm_len;
    /* The GPU's share (gpu_share.h) when other workers use it too: every
     * request takes a turn, TIME and PROFILE an exclusive one; borrowed,
     * NULL: the worker has the GPU to itself. */
    GpuShare *share;
    int wrapped;         /* started under a WorkerWrapper: stop waits for its exit */
} GpuWorker;

/* Starts a worker for `device` from executable `exe` (NULL: /proc/self/exe)
 * and checks it with HELLO.  Returns 0, or -1 with e; *status (optional)
 * then tells WP_NO_DEVICE (no driver, no GPU: e says why) from other
 * failures.  On failure the worker is already reaped. */
int gpu_worker_start(GpuWorker *w, const char *exe, int device, WpStatus *status, Error *e);
/* The same for either backend (gpu_worker_start is BACKEND_GPU, alone on
 * its GPU), its requests taking turns in `share` (borrowed; NULL: none). */
int gpu_worker_start_backend(GpuWorker *w, const char *exe, int device, WorkerBackend backend, GpuShare *share,
                             WpStatus *status, Error *e);

/* A program the worker runs under (compute-sanitizer for --racecheck): the
 * child execs `path args... <worker command line>`.  Borrowed; args ends
 * with NULL (at most 47 of them). */
typedef struct WorkerWrapper {
    const char *path;
    const char *const *args;
} WorkerWrapper;

/* gpu_worker_start_backend, the worker running under `wrap` (NULL: none).
 * The pid kept is the wrapper's; gpu_worker_stop() waits for it to exit, so
 * a wrapper that writes a report at exit has written it when stop returns. */
int gpu_worker_start_wrapped(GpuWorker *w, const char *exe, int device, WorkerBackend backend, GpuShare *share,
                             const WorkerWrapper *wrap, WpStatus *status, Error *e);

/* Asks the worker to exit and reaps it (kills it if it does not go). */
void gpu_worker_stop(GpuWorker *w);
/* SIGKILL and reap; safe on a stopped, killed or zeroed handle. */
void gpu_worker_kill(GpuWorker *w);

/* The requests.  Each returns 0, or -1 with e and *status: WP_CUDA_ERROR
 * (also when the worker died), WP_TIMEOUT (the worker reported one, or did
 * not answer in time), WP_BAD_REQUEST, WP_NO_DEVICE. */
int gpu_worker_load(GpuWorker *w, const void *cubin, size_t len, WpStatus *status, Error *e);
/* n buffers of bytes[i] bytes, their guards read as reading[i] says
 * (reading NULL: every one GUARD_VALUES) */
int gpu_worker_alloc(GpuWorker *w, const uint64_t *bytes, const GuardReading *reading, uint32_t n, WpStatus *status,
                     Error *e);
int gpu_worker_upload(GpuWorker *w, uint32_t index, const void *data, size_t len, WpStatus *status, Error *e);
/* Fills buffer index with the k-byte element pattern (k = 1, 2, 4, 8). */
int gpu_worker_fill(GpuWorker *w, uint32_t index, const void *pattern, uint32_t k, WpStatus *status, Error *e);

typedef struct GuardViolation {
    uint32_t buffer;
    int64_t offset; /* byte offset of the written guard byte nearest the buffer */
} GuardViolation;

typedef struct RunOutcome {
    float *ms;              /* run->repeats times, from malloc() */
    uint32_t n_ms;
    GuardViolation *guards; /* from malloc() */
    uint32_t n_guards;
    /* The CPU backend's --racecheck: shared-memory hazards during the RUN,
     * and the first one (from malloc(); NULL when none was counted). */
    uint64_t n_races;
    char *race;
} RunOutcome;

int gpu_worker_run(GpuWorker *w, const WpRun *run, RunOutcome *out, WpStatus *status, Error *e);
void run_outcome_release(RunOutcome *o);
/* Loads the baseline's cubin into module slot 1 (GPU workers only). */
int gpu_worker_load_baseline(GpuWorker *w, const void *cubin, size_t len, WpStatus *status, Error *e);
/* The timing protocol (worker_protocol.h TIME): *res and the guards written
 * meanwhile (in guards->guards; guards->ms unused).  Release both. */
int gpu_worker_time(GpuWorker *w, const WpTimeRequest *req, WpTimeResult *res, RunOutcome *guards, WpStatus *status,
                    Error *e);

struct WpProfileRequest;
struct ProfileResult;
/* The PROFILE request (wp_profile.h): *res (raw pairs; profile_take and
 * profile_derive make the report) and the guards written meanwhile.  A
 * profiler that is not permitted or absent is res->status, not an error. */
int gpu_worker_profile(GpuWorker *w, const struct WpProfileRequest *req, struct ProfileResult *res,
                       RunOutcome *guards, WpStatus *status, Error *e);

/* Downloads exactly len bytes (the buffer's size) into dst. */
int gpu_worker_download(GpuWorker *w, uint32_t index, void *dst, size_t len, WpStatus *status, Error *e);

/* "sm_90" for the worker's device, into buf. */
const char *gpu_worker_arch(const GpuWorker *w, char *buf, size_t len);

#endif
