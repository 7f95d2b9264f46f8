/* gpu_timing.h — the GPU worker's launch plans and its timing protocol.
 *
 * GpuPlan: a launch plan bound to a module and to the worker's buffers,
 * ready to be enqueued on a stream any number of times.
 *
 * gpu_time(): times one or two plans (candidate, baseline) interleaved, in
 * alternating order, on the worker's non-default stream.  Before every
 * sample, outside the timed window: the buffers to restore are copied back
 * from shadows taken at the start (so inout data is the same every time),
 * the L2 is flushed by reading flush_mib MiB (over twice the L2; gpu_flush_l2),
 * and a spinning kernel is enqueued that holds the stream until the host has
 * enqueued the timed launches, so CUDA events measure GPU execution, not
 * launch overhead.  Warm-up first (at least warmup_runs executions and
 * warmup_ms of wall time); then samples until every plan has min_samples and the spread
 * of its median (stats.h) is under target_spread, or the budget or
 * max_samples is reached.  After each sample the SM clock is read (NVML);
 * samples below min_clock_fraction of the maximum are dropped and counted.
 * Finally, with CUPTI available, cupti_runs executions of each plan are
 * traced and the median of their summed kernel durations returned, an
 * independent check of the event times (the timing loop's own flush and
 * gate kernels left out).  The event window's own cost (the gaps between
 * the events and the kernels, ~2 us) is measured once on an empty kernel
 * with CUPTI and reported, not subtracted (see calibrate_window in the
 * .c).  The persisting-L2 limit is set to 0 once per context. */
#ifndef CUDAPERF_GPU_TIMING_H
#define CUDAPERF_GPU_TIMING_H

#include <stdint.h>

#include "common/error.h"
#include "harness/cudrv.h"
#include "harness/nvml_clock.h"
#include "harness/worker_protocol.h"

typedef struct GpuPlan {
    uint32_t n;
    const WpLaunch *launches;  /* borrowed from the WpRun */
    CUfunction *fn;
    void ***params;            /* per launch: argument pointers, then the pointer storage */
} GpuPlan;

/* Binds run to module mod and buffer addresses bufs.  Errors name the
 * launch ("launch 1: kernel.cu defines no kernel 'x'"). */
int gpu_plan_prepare(CuDriver *d, CUmodule mod, const WpRun *run, const CUdeviceptr *bufs, GpuPlan *p, Error *e);
/* Enqueues every launch of p on stream s. */
int gpu_plan_enqueue(CuDriver *d, const GpuPlan *p, CUstream s, Error *e);
void gpu_plan_release(GpuPlan *p);

typedef struct GpuTimer {
    CuDriver *d;
    CUdevice dev;
    CUstream stream;
    CUevent ev_start, ev_end;
    int ready;                 /* the pieces below exist */
    CUmodule spin_mod;
    CUfunction spin_fn;
    CUfunction empty_fn;       /* an empty kernel: the event window's cost is measured on it */
    CUfunction flush_fn;       /* the read-only L2 flush kernel; NULL: memset instead */
    int window_tried;          /* calibration attempted (once per timer) */
    float window_ms;           /* that cost (reported, inside the samples); NaN: not measured */
    volatile uint32_t *flag;   /* host-mapped release flag of the spinning kernel */
    CUdeviceptr flag_dev;
    CUdeviceptr flush;
    size_t flush_bytes;
    NvmlClock *nvml;
    char nvml_note[256];       /* why clocks are not checked, or "" */
    char cupti_note[256];      /* why CUPTI is not used, or "" */
} GpuTimer;

/* Sets up the timer on the current context (d, dev, stream and events
 * filled by the caller); -1 with e when the driver lacks what timing needs. */
int gpu_timer_init(GpuTimer *t, Error *e);
void gpu_timer_release(GpuTimer *t);

/* The L2 flush (timing and the profiler's passes): a kernel reads the
 * whole buffer (at least twice the L2) through L2 and writes nothing, so
 * the L2 holds only clean lines when the measured window opens.  A memset
 * flush (nvbench's way) leaves the L2 full of dirty lines whose write-back
 * lands inside the next window: measured on the H200, 27.5 MB of DRAM
 * writes charged to a kernel that writes 4 bytes.  gpu_flush_alloc makes
 * the zeroed buffer (the caller frees it with mem_free); gpu_flush_l2
 * enqueues the flush on stream s (a memset when the kernel is missing). */
/* The PTX of the timer's own kernels (spin, empty, flush), for tests. */
const char *gpu_timing_ptx(void);
int gpu_flush_alloc(GpuTimer *t, size_t bytes, CUdeviceptr *buf, Error *e);
int gpu_flush_l2(GpuTimer *t, CUdeviceptr buf, size_t bytes, CUstream s, Error *e);

/* The restore list: dst[i] gets src[i] (bytes[i]) before every sample. */
typedef struct GpuRestore {
    uint32_t n;
    CUdeviceptr *dst, *src;
    uint64_t *bytes;
} GpuRestore;

/* Returns 0 with out filled, 1 when an execution passed deadline_ms (e
 * says so), -1 with e on a CUDA error. */
int gpu_time(GpuTimer *t, const GpuPlan *plans, uint32_t n_plans, const GpuRestore *restore,
             const WpTimingParams *tp, WpTimeResult *out, Error *e);

#endif
