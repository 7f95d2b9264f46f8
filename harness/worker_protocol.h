/* worker_protocol.h — how the harness talks to its GPU worker process.
 *
 * The parent starts `harness worker --fd-in 3 --fd-out 4` (fork + exec of
 * /proc/self/exe) and speaks over two pipes, one request at a time, each
 * answered by exactly one response.  Both ends are the same binary on the
 * same machine, so integers are native-endian; the magic and the version in
 * HELLO still catch a stray writer or a stale binary.
 *
 * Frame (both directions):  u32 magic 'CPWK' | u32 type | u64 payload length | payload
 * Response type = request type | WP_RESPONSE; payload = u32 status |
 * str message | data, where str = u32 length + bytes (no NUL).
 *
 *   request      payload                                     response data
 *   HELLO        u32 protocol version                        u32 version, i32 driver version,
 *                                                            i32 cc major, i32 cc minor, i32 SMs,
 *                                                            u64 memory bytes, str device name
 *   LOAD         cubin bytes (replaces the loaded module)    -
 *   ALLOC        u32 n, u64 bytes[n], u8 reading[n] (frees   -
 *                earlier buffers; each buffer is its own
 *                cuMemAlloc, with WP_GUARD_BYTES of its guard
 *                pattern before and after it, read as
 *                reading[i] says: GuardReading, guard_zone.h)
 *   UPLOAD       u32 index, bytes (exactly the buffer size)  -
 *   FILL         u32 index, u32 k (1, 2, 4 or 8), k bytes:   -
 *                the element pattern repeated (poison)
 *   RUN          u32 repeats, u32 deadline ms (per           u32 repeats, f32 ms[repeats]
 *                execution of the plan), u32 n launches,     (CUDA-event time of each
 *                launches (below)                            execution of the whole plan),
 *                                                            u32 n, n x (u32 buffer, i64
 *                                                            byte offset): guards written
 *                                                            (offset < 0: before the start,
 *                                                            >= size: past the end); then, from
 *                                                            a CPU worker running a kernel
 *                                                            compiled for --racecheck only,
 *                                                            u64 hazards, str the first
 *                                                            (cpu_racecheck.h)
 *   DOWNLOAD     u32 index                                   the buffer's bytes
 *   EXIT         -                                           - (then the worker exits)
 *
 * launch = str kernel | u32 grid[3] | u32 block[3] | u32 smem | u32 n args | args
 * arg    = u8 kind: WP_ARG_BUFFER then u32 buffer index,
 *                   WP_ARG_VALUE then u8 size (1..8) and size bytes (the value
 *                   as the kernel parameter's C type)
 *
 *   LOAD_BASELINE  cubin bytes of the baseline kernel           -
 *                (module slot 1; LOAD is slot 0)
 *   TIME         WpTimeRequest (wp_encode_time)               WpTimeResult (wp_decode_time_result)
 *   PROFILE      WpProfileRequest (wp_profile.h)              ProfileResult, guards (wp_profile.h)
 *
 * TIME times one or two launch plans (the candidate, slot 0, and the
 * baseline, slot 1) interleaved on the worker's non-default stream, with
 * the protocol of docs/ARCHITECTURE.md: buffers listed in `restore` copied
 * back from their state at the start of TIME before every execution, L2
 * flushed, a spinning kernel ahead of the timed launches so launch
 * overhead stays out of the events, samples until the median's spread is
 * under target (or the budget ends), samples taken at a throttled SM clock
 * dropped, and a CUPTI pass that measures the same plans' kernel time.
 *
 * Status WP_CUDA_ERROR or WP_TIMEOUT means the worker's context may be dead
 * (after an illegal address it is, for good: measured), so the parent kills
 * the worker and starts a fresh one for the next job. */
#ifndef CUDAPERF_WORKER_PROTOCOL_H
#define CUDAPERF_WORKER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define WP_MAGIC 0x4B575043u /* "CPWK" */
#define WP_VERSION 6
#define WP_RESPONSE 0x100u
/* A payload is at most one 16 GiB buffer plus its header. */
#define WP_MAX_PAYLOAD ((16ULL << 30) + 64)
#define WP_MAX_KERNEL_NAME 255
#define WP_MAX_LAUNCHES 256
#define WP_MAX_ARGS 128
#define WP_MAX_BUFFERS 256
#define WP_MAX_REPEATS 100000
/* Guard zones around every buffer: separate cuMemAllocs do not fault on a
 * small overrun (allocations are rounded up to large pages), so a write
 * just past the end is found by checking the guards after each RUN. */
#define WP_GUARD_BYTES 4096
/* Buffer 0's guard byte (guard_zone.h gives the others theirs): 0x3F3F3F3F
 * is a large positive int, so a bound read past an index array's end
 * (row_ptr[n + 1]) opens a segment the kernel then walks, and 0.747f /
 * 0.489 are in the range of most float data; 0xC3 (-390.5f, a negative
 * int) let off-by-one reads of CSR row pointers and histogram inputs pass. */
#define WP_GUARD_BYTE 0x3F

typedef enum WpType {
    WP_HELLO = 1, WP_LOAD, WP_ALLOC, WP_UPLOAD, WP_FILL, WP_RUN, WP_DOWNLOAD, WP_EXIT,
    WP_LOAD_BASELINE, /* GPU only: cubin of the baseline (module slot 1) */
    WP_TIME,          /* GPU only: the timing protocol (below) */
    WP_PROFILE,       /* GPU only: hardware metrics of a plan and the API's occupancy (wp_profile.h) */
    WP_UPLOAD_SHM,    /* GPU only: u32 index, u64 bytes: UPLOAD from the staging memory (below) */
    WP_DOWNLOAD_SHM   /* GPU only: u32 index, u64 bytes: DOWNLOAD into the staging memory */
} WpType;

/* Staging memory: the parent hands the GPU worker a memfd (`--fd-shm N`)
 * and moves large buffers through it, one at a time: it writes a buffer
 * there and sends UPLOAD_SHM, or sends DOWNLOAD_SHM and reads the buffer
 * there once answered.  The worker maps the memfd at its current size
 * (the parent only grows it).  A pipe moves about a hundred MB a second on
 * a loaded machine; a large config's half a gigabyte of inputs, uploaded for
 * the run and again for timing, cost seconds per candidate that way. */
#define WP_STAGING_MIN_BYTES (1u << 20)

typedef enum WpStatus {
    WP_OK = 0,
    WP_BAD_REQUEST,  /* malformed request: a bug on our side, never the candidate's */
    WP_CUDA_ERROR,   /* a driver call failed (launch failure, illegal address, ...) */
    WP_TIMEOUT,      /* an execution of the plan passed its deadline */
    WP_NO_DEVICE     /* no driver, cuInit failed or no device */
} WpStatus;

const char *wp_status_name(WpStatus s);
const char *wp_type_name(uint32_t type);

/* ---- byte buffers ---- */

typedef struct WpBuf {
    uint8_t *data; /* from malloc(); wp_buf_release frees */
    size_t len, cap;
} WpBuf;

void wp_put_u8(WpBuf *b, uint8_t v);
void wp_put_u32(WpBuf *b, uint32_t v);
void wp_put_u64(WpBuf *b, uint64_t v);
void wp_put_f32(WpBuf *b, float v);
void wp_put_bytes(WpBuf *b, const void *p, size_t n);
void wp_put_str(WpBuf *b, const char *s);
/* Appends n uninitialised bytes and returns where they start (valid until
 * the next put). */
void *wp_put_space(WpBuf *b, size_t n);
void wp_buf_release(WpBuf *b);

/* Reads with bounds checks: past the end, values read as 0 and r->bad is
 * set, so a decoder checks once at the end. */
typedef struct WpReader {
    const uint8_t *p;
    size_t len, off;
    int bad;
} WpReader;

void wp_reader_init(WpReader *r, const void *p, size_t len);
uint8_t wp_get_u8(WpReader *r);
uint32_t wp_get_u32(WpReader *r);
uint64_t wp_get_u64(WpReader *r);
float wp_get_f32(WpReader *r);
const void *wp_get_bytes(WpReader *r, size_t n);        /* pointer into the payload */
/* A str into out (NUL-terminated, truncated to cap-1); 0 or -1 when malformed. */
int wp_get_str(WpReader *r, char *out, size_t cap);
size_t wp_remaining(const WpReader *r);

/* ---- frames over file descriptors ---- */

typedef struct WpFrame {
    uint32_t type;
    uint8_t *payload; /* from malloc(); NULL when len is 0 */
    uint64_t len;
} WpFrame;

/* Writes one frame; deadline is an absolute CLOCK_MONOTONIC time in
 * seconds, or <= 0 for none.  Returns -1 with e on error or timeout. */
int wp_write_frame(int fd, uint32_t type, const void *payload, uint64_t len, double deadline, Error *e);
/* Same, header and payload given in two parts (avoids copying a big buffer). */
int wp_write_frame2(int fd, uint32_t type, const void *a, uint64_t alen, const void *b, uint64_t blen,
                    double deadline, Error *e);
/* Reads one frame.  *timed_out (optional) is set when the deadline passed;
 * end of file (the other side died) is an error "worker closed the pipe". */
int wp_read_frame(int fd, WpFrame *f, double deadline, int *timed_out, Error *e);
void wp_frame_release(WpFrame *f);

double wp_now(void); /* CLOCK_MONOTONIC seconds */

/* ---- the RUN request ---- */

typedef enum WpArgKind { WP_ARG_BUFFER = 1, WP_ARG_VALUE = 2 } WpArgKind;

typedef struct WpArg {
    uint8_t kind;
    uint32_t buffer;   /* WP_ARG_BUFFER */
    uint8_t size;      /* WP_ARG_VALUE: 1..8 */
    uint8_t value[8];
} WpArg;

typedef struct WpLaunch {
    char kernel[WP_MAX_KERNEL_NAME + 1];
    uint32_t grid[3], block[3], smem;
    uint32_t n_args;
    WpArg *args;       /* from malloc() */
} WpLaunch;

typedef struct WpRun {
    uint32_t repeats;
    uint32_t deadline_ms;
    uint32_t n_launches;
    WpLaunch *launches; /* from malloc(); wp_run_release frees */
} WpRun;

void wp_encode_run(WpBuf *b, const WpRun *run);
/* Decodes and validates (counts, sizes, names, no trailing bytes);
 * n_buffers bounds the buffer indices.  On success the caller releases
 * *run with wp_run_release. */
int wp_decode_run(const void *payload, size_t len, uint32_t n_buffers, WpRun *run, Error *e);
void wp_run_release(WpRun *run);

/* ---- TIME ---- */

typedef struct WpTimingParams {
    uint32_t flush_mib;        /* L2 flush buffer (MiB), memset before every sample; 0: no flush */
    uint32_t min_samples, max_samples;
    float target_spread;       /* stop when the median's relative CI half-width is below this */
    float budget_s;            /* and at the latest after this much sampling */
    float min_time_s;          /* but not before this much (nvbench-grade numbers: 0.5 s) */
    float warmup_ms;           /* warm-up: at least warmup_runs executions and warmup_ms of wall time */
    uint32_t warmup_runs;
    uint32_t cupti_runs;       /* executions per plan in the CUPTI pass (0: none) */
    float min_clock_fraction;  /* drop samples taken below this fraction of the max SM clock */
    uint32_t deadline_ms;      /* per execution */
} WpTimingParams;

typedef struct WpTimeRequest {
    uint32_t n_plans;          /* 1 (candidate) or 2 (candidate, baseline) */
    uint32_t slot[2];          /* module slot of each plan */
    WpRun plans[2];            /* repeats and deadline_ms unused */
    uint32_t n_restore;
    uint32_t restore[WP_MAX_BUFFERS];
    WpTimingParams tp;
} WpTimeRequest;

typedef struct WpPlanTimes {
    uint32_t n;                /* kept samples */
    float *ms;                 /* from malloc() */
    uint32_t dropped;          /* taken at a throttled clock */
    float cupti_ms;            /* median kernel time from CUPTI; NaN when not measured */
} WpPlanTimes;

typedef struct WpTimeResult {
    uint32_t n_plans;
    WpPlanTimes plans[2];
    uint32_t clock_min_mhz, clock_max_mhz; /* lowest SM clock seen, the maximum; 0: unknown */
    float window_ms;           /* event-window cost, inside every sample; NaN: not measured */
    char note[512];            /* what was not checked and why ("CUPTI unavailable: ...") */
} WpTimeResult;

void wp_encode_time(WpBuf *b, const WpTimeRequest *t);
int wp_decode_time(const void *payload, size_t len, uint32_t n_buffers, WpTimeRequest *t, Error *e);
void wp_time_request_release(WpTimeRequest *t);
void wp_encode_time_result(WpBuf *b, const WpTimeResult *r);
int wp_decode_time_result(WpReader *in, WpTimeResult *r, Error *e);
void wp_time_result_release(WpTimeResult *r);

/* Response payload: status, message, then data. */
void wp_encode_response(WpBuf *b, WpStatus status, const char *msg);
/* Splits a response payload: *status, msg (truncated to cap), and a reader
 * positioned at the data. */
int wp_decode_response(const WpFrame *f, WpStatus *status, char *msg, size_t cap, WpReader *data, Error *e);

#endif
