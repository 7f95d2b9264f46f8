/* harness worker — the GPU worker process (hidden; started by gpu_worker.c).
 *
 * Serves the requests of worker_protocol.h on two file descriptors, one at
 * a time, against one GPU through the runtime-loaded driver API (cudrv.h).
 * It keeps no state the parent cannot rebuild: after a CUDA error or a
 * timeout it answers every further request with that error, and the parent
 * kills it and starts a fresh one (an illegal address kills the context for
 * good, so in-process recovery is not attempted). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/cli.h"
#include "harness/cpu_worker.h"
#include "harness/cudrv.h"
#include "harness/cupti_profile.h"
#include "harness/gpu_timing.h"
#include "harness/guard_zone.h"
#include "harness/worker_protocol.h"
#include "harness/wp_profile.h"

typedef struct Worker {
    CuDriver d;
    int ready;            /* context, stream and events exist */
    WpStatus broken;      /* WP_OK, or the status every later request gets */
    char broken_msg[1024];
    CUdevice dev;
    int device;           /* its ordinal (CUPTI names devices by it) */
    CUcontext ctx;
    CUstream stream;
    CUevent ev_start, ev_end;
    CUmodule mod;         /* slot 0: the candidate */
    CUmodule mod_base;    /* slot 1: the baseline (TIME only) */
    GpuTimer timer;
    uint32_t n_bufs;
    CUdeviceptr *base;    /* allocation start; the buffer is base + WP_GUARD_BYTES */
    uint64_t *size;
    GuardReading *reading; /* how each buffer's guards read (guard_zone.h) */
    int shm_fd;           /* the staging memfd (worker_protocol.h), -1 without */
    uint8_t *shm;         /* its mapping, shm_len bytes; NULL until first used */
    size_t shm_len;
} Worker;

static CUdeviceptr buf_ptr(const Worker *w, uint32_t i)
{
    return w->base[i] + WP_GUARD_BYTES;
}

static int worker_init(Worker *w, int device, Error *e)
{
    int rc = 0, count = 0;
    TRY(cudrv_load(&w->d, e));
    CuDriver *d = &w->d;
    CU_CHECK(d, e, d->init(0));
    CU_CHECK(d, e, d->device_get_count(&count));
    if (device < 0 || device >= count)
        FAIL(e, "no CUDA device %d (the driver sees %d)", device, count);
    CU_CHECK(d, e, d->device_get(&w->dev, device));
    w->device = device;
    CU_CHECK(d, e, d->primary_ctx_retain(&w->ctx, w->dev));
    CU_CHECK(d, e, d->ctx_set_current(w->ctx));
    CU_CHECK(d, e, d->stream_create(&w->stream, CU_STREAM_NON_BLOCKING));
    CU_CHECK(d, e, d->event_create(&w->ev_start, CU_EVENT_DEFAULT));
    CU_CHECK(d, e, d->event_create(&w->ev_end, CU_EVENT_DEFAULT));
    w->ready = 1;
done:
    return rc;
}

static void free_buffers(Worker *w)
{
    for (uint32_t i = 0; i < w->n_bufs; i++)
        if (w->base[i])
            w->d.mem_free(w->base[i]);
    free(w->base);
    free(w->size);
    free(w->reading);
    w->base = NULL;
    w->size = NULL;
    w->reading = NULL;
    w->n_bufs = 0;
}

static int do_hello(Worker *w, WpReader *in, WpBuf *out, Error *e)
{
    int rc = 0, major = 0, minor = 0, sms = 0, drv = 0;
    size_t mem = 0;
    char name[256] = "";
    CuDriver *d = &w->d;
    uint32_t version = wp_get_u32(in);
    if (in->bad || version != WP_VERSION)
        FAIL(e, "protocol version %u, this worker speaks %d", version, WP_VERSION);
    CU_CHECK(d, e, d->driver_get_version(&drv));
    CU_CHECK(d, e, d->device_get_name(name, (int)sizeof name - 1, w->dev));
    CU_CHECK(d, e, d->device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, w->dev));
    CU_CHECK(d, e, d->device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, w->dev));
    CU_CHECK(d, e, d->device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, w->dev));
    CU_CHECK(d, e, d->device_total_mem(&mem, w->dev));
    wp_put_u32(out, WP_VERSION);
    wp_put_u32(out, (uint32_t)drv);
    wp_put_u32(out, (uint32_t)major);
    wp_put_u32(out, (uint32_t)minor);
    wp_put_u32(out, (uint32_t)sms);
    wp_put_u64(out, mem);
    wp_put_str(out, name);
done:
    return rc;
}

/* LOAD (slot 0) and LOAD_BASELINE (slot 1). */
static int do_load(Worker *w, const WpFrame *f, CUmodule *slot, Error *e)
{
    int rc = 0;
    CuDriver *d = &w->d;
    if (*slot) {
        d->module_unload(*slot);
        *slot = NULL;
    }
    if (f->len == 0)
        FAIL(e, "LOAD: empty cubin");
    CU_CHECK(d, e, d->module_load_data(slot, f->payload));
done:
    return rc;
}

static int do_alloc(Worker *w, WpReader *in, Error *e)
{
    int rc = 0;
    CuDriver *d = &w->d;
    free_buffers(w);
    uint8_t *before = xmalloc(WP_GUARD_BYTES), *after = xmalloc(WP_GUARD_BYTES);
    uint32_t n = wp_get_u32(in);
    if (in->bad || n > WP_MAX_BUFFERS || wp_remaining(in) != (size_t)n * 9)
        FAIL(e, "ALLOC: malformed (%u buffers)", n);
    w->base = xcalloc(n + 1, sizeof *w->base);
    w->size = xcalloc(n + 1, sizeof *w->size);
    w->reading = xcalloc(n + 1, sizeof *w->reading);
    w->n_bufs = n;
    for (uint32_t i = 0; i < n; i++)
        w->size[i] = wp_get_u64(in);
    for (uint32_t i = 0; i < n; i++)
        TRY(guard_reading_parse(in, &w->reading[i], e));
    for (uint32_t i = 0; i < n; i++) {
        if (w->size[i] > (16ULL << 30))
            FAIL(e, "ALLOC: buffer %u of %llu bytes is over 16 GiB", i, (unsigned long long)w->size[i]);
        CU_CHECK(d, e, d->mem_alloc(&w->base[i], w->size[i] + 2 * WP_GUARD_BYTES));
        /* the pattern varies with the distance from the buffer: filled on
         * the host, copied (a memset cannot write it) */
        guard_zone_fill(before, WP_GUARD_BYTES, GUARD_BEFORE, i, w->reading[i]);
        guard_zone_fill(after, WP_GUARD_BYTES, GUARD_AFTER, i, w->reading[i]);
        CU_CHECK(d, e, d->memcpy_htod(w->base[i], before, WP_GUARD_BYTES));
        CU_CHECK(d, e, d->memcpy_htod(buf_ptr(w, i) + w->size[i], after, WP_GUARD_BYTES));
    }
done:
    free(before);
    free(after);
    return rc;
}

static int get_index(Worker *w, WpReader *in, const char *what, uint32_t *i, Error *e)
{
    *i = wp_get_u32(in);
    if (in->bad || *i >= w->n_bufs)
        return ERR(e, "%s: buffer index %u of %u", what, *i, w->n_bufs);
    return 0;
}

static int do_upload(Worker *w, WpReader *in, Error *e)
{
    int rc = 0;
    uint32_t i;
    TRY(get_index(w, in, "UPLOAD", &i, e));
    if (wp_remaining(in) != w->size[i])
        FAIL(e, "UPLOAD: %zu bytes for a buffer of %llu", wp_remaining(in), (unsigned long long)w->size[i]);
    if (w->size[i])
        CU_CHECK(&w->d, e, w->d.memcpy_htod(buf_ptr(w, i), wp_get_bytes(in, w->size[i]), w->size[i]));
done:
    return rc;
}

static int do_fill(Worker *w, WpReader *in, Error *e)
{
    int rc = 0;
    uint32_t i;
    CuDriver *d = &w->d;
    uint8_t *host = NULL;
    TRY(get_index(w, in, "FILL", &i, e));
    uint32_t k = wp_get_u32(in);
    const uint8_t *pat = (k == 1 || k == 2 || k == 4 || k == 8) ? wp_get_bytes(in, k) : NULL;
    if (!pat || wp_remaining(in) != 0 || w->size[i] % k)
        FAIL(e, "FILL: bad pattern of %u bytes for a buffer of %llu", k, (unsigned long long)w->size[i]);
    size_t n = w->size[i] / k;
    if (k == 1) {
        CU_CHECK(d, e, d->memset_d8(buf_ptr(w, i), pat[0], n));
    } else if (k == 2) {
        uint16_t v;
        memcpy(&v, pat, 2);
        CU_CHECK(d, e, d->memset_d16(buf_ptr(w, i), v, n));
    } else if (k == 4) {
        uint32_t v;
        memcpy(&v, pat, 4);
        CU_CHECK(d, e, d->memset_d32(buf_ptr(w, i), v, n));
    } else {
        /* no 64-bit memset in the driver API: copy from a patterned host chunk */
        size_t chunk = 1 << 20;
        host = xmalloc(chunk);
        for (size_t j = 0; j < chunk; j += 8)
            memcpy(host + j, pat, 8);
        for (size_t off = 0; off < w->size[i]; off += chunk) {
            size_t len = w->size[i] - off < chunk ? w->size[i] - off : chunk;
            CU_CHECK(d, e, d->memcpy_htod(buf_ptr(w, i) + off, host, len));
        }
    }
done:
    free(host);
    return rc;
}

/* Waits for ev until the deadline, polling (cuEventSynchronize could block
 * forever on a kernel that never ends).  1 when the deadline passed. */
static int wait_event(Worker *w, CUevent ev, double deadline, Error *e)
{
    int rc = 0;
    long sleep_ns = 20000;
    for (;;) {
        CUresult r = w->d.event_query(ev);
        if (r == CUDA_SUCCESS)
            return 0;
        if (r != CUDA_ERROR_NOT_READY)
            CU_CHECK(&w->d, e, r);
        if (wp_now() > deadline)
            return 1;
        struct timespec ts = {0, sleep_ns};
        nanosleep(&ts, NULL);
        if (sleep_ns < 1000000)
            sleep_ns *= 2;
    }
done:
    return rc;
}

/* The guards every buffer's neighbours hold, read back and scanned by
 * guard_zone.h; the list ends the answer in out. */
static int check_guards(Worker *w, WpBuf *out, Error *e)
{
    int rc = 0;
    GuardList list = {0};
    uint8_t *g = xmalloc(WP_GUARD_BYTES);
    for (uint32_t i = 0; i < w->n_bufs; i++) {
        CU_CHECK(&w->d, e, w->d.memcpy_dtoh(g, w->base[i], WP_GUARD_BYTES));
        guard_list_check(&list, i, w->reading[i], g, WP_GUARD_BYTES, GUARD_BEFORE, w->size[i]);
        CU_CHECK(&w->d, e, w->d.memcpy_dtoh(g, buf_ptr(w, i) + w->size[i], WP_GUARD_BYTES));
        guard_list_check(&list, i, w->reading[i], g, WP_GUARD_BYTES, GUARD_AFTER, w->size[i]);
    }
    guard_list_finish(&list, out);
done:
    guard_list_release(&list);
    free(g);
    return rc;
}

/* Addresses of the worker's buffers (the usable part, after the guard). */
static CUdeviceptr *buffer_addresses(const Worker *w)
{
    CUdeviceptr *a = xcalloc(w->n_bufs + 1, sizeof *a);
    for (uint32_t i = 0; i < w->n_bufs; i++)
        a[i] = buf_ptr(w, i);
    return a;
}

/* Runs the plan `repeats` times, each between two events; returns 1 on a
 * timeout (e says which execution), 0 or -1 as usual. */
static int do_run(Worker *w, const WpFrame *f, WpBuf *out, Error *e)
{
    int rc = 0;
    CuDriver *d = &w->d;
    WpRun run = {0};
    GpuPlan plan;
    memset(&plan, 0, sizeof plan);
    float *ms = NULL;
    CUdeviceptr *addr = buffer_addresses(w);
    if (!w->mod)
        FAIL(e, "RUN before LOAD");
    TRY(wp_decode_run(f->payload, (size_t)f->len, w->n_bufs, &run, e));
    TRY(gpu_plan_prepare(d, w->mod, &run, addr, &plan, e));
    ms = xcalloc(run.repeats, sizeof *ms);
    /* Uploads and memsets ran on the legacy stream, which our non-blocking
     * stream does not wait for, and may still be in flight: finish them. */
    CU_CHECK(d, e, d->ctx_synchronize());
    for (uint32_t rep = 0; rep < run.repeats; rep++) {
        CU_CHECK(d, e, d->event_record(w->ev_start, w->stream));
        TRY(gpu_plan_enqueue(d, &plan, w->stream, e));
        CU_CHECK(d, e, d->event_record(w->ev_end, w->stream));
        int t = wait_event(w, w->ev_end, wp_now() + run.deadline_ms / 1000.0, e);
        if (t < 0) {
            error_prefix(e, "while running the plan");
            rc = -1;
            goto done;
        }
        if (t == 1) {
            ERR(e, "the launch plan did not finish within %.3f s (execution %u)", run.deadline_ms / 1000.0, rep + 1);
            rc = 1;
            goto done;
        }
        CU_CHECK(d, e, d->event_elapsed_time(&ms[rep], w->ev_start, w->ev_end));
    }
    wp_put_u32(out, run.repeats);
    for (uint32_t rep = 0; rep < run.repeats; rep++)
        wp_put_f32(out, ms[rep]);
    TRY(check_guards(w, out, e));
done:
    gpu_plan_release(&plan);
    free(addr);
    free(ms);
    wp_run_release(&run);
    return rc;
}

/* The worker's timer (gpu_timing.h) on its context and stream, made on
 * first use: timing and the profiler's L2 flush both need it. */
static int worker_timer(Worker *w, Error *e)
{
    w->timer.d = &w->d;
    w->timer.dev = w->dev;
    w->timer.stream = w->stream;
    w->timer.ev_start = w->ev_start;
    w->timer.ev_end = w->ev_end;
    return gpu_timer_init(&w->timer, e);
}

/* The timing protocol (gpu_timing.h) over the candidate and the baseline. */
static int do_time(Worker *w, const WpFrame *f, WpBuf *out, Error *e)
{
    int rc = 0;
    CuDriver *d = &w->d;
    WpTimeRequest req;
    WpTimeResult res;
    GpuPlan plans[2];
    GpuRestore rs = {0, NULL, NULL, NULL};
    memset(&req, 0, sizeof req);
    memset(&res, 0, sizeof res);
    memset(plans, 0, sizeof plans);
    CUdeviceptr *addr = buffer_addresses(w);
    TRY(wp_decode_time(f->payload, (size_t)f->len, w->n_bufs, &req, e));
    Error te;
    if (worker_timer(w, &te) != 0) {
        /* not the candidate's fault: answer with no samples and the reason */
        res.n_plans = req.n_plans;
        for (uint32_t p = 0; p < req.n_plans; p++)
            res.plans[p].cupti_ms = NAN;
        snprintf(res.note, sizeof res.note, "not timed: %s", te.msg);
        wp_encode_time_result(out, &res);
        wp_put_u32(out, 0); /* no guard written */
        goto done;
    }
    for (uint32_t p = 0; p < req.n_plans; p++) {
        CUmodule m = req.slot[p] ? w->mod_base : w->mod;
        if (!m)
            FAIL(e, "TIME: plan %u needs module slot %u, which is not loaded", p, req.slot[p]);
        TRY(gpu_plan_prepare(d, m, &req.plans[p], addr, &plans[p], e));
    }
    rs.n = req.n_restore;
    rs.dst = xcalloc(rs.n + 1, sizeof *rs.dst);
    rs.src = xcalloc(rs.n + 1, sizeof *rs.src);
    rs.bytes = xcalloc(rs.n + 1, sizeof *rs.bytes);
    for (uint32_t i = 0; i < rs.n; i++) {
        rs.dst[i] = buf_ptr(w, req.restore[i]);
        rs.bytes[i] = w->size[req.restore[i]];
        if (rs.bytes[i])
            CU_CHECK(d, e, d->mem_alloc(&rs.src[i], rs.bytes[i]));
    }
    rc = gpu_time(&w->timer, plans, req.n_plans, &rs, &req.tp, &res, e);
    if (rc == 0) {
        wp_encode_time_result(out, &res);
        TRY(check_guards(w, out, e));
    }
done:
    for (uint32_t i = 0; i < rs.n; i++)
        if (rs.src[i])
            d->mem_free(rs.src[i]);
    free(rs.dst);
    free(rs.src);
    free(rs.bytes);
    for (int p = 0; p < 2; p++)
        gpu_plan_release(&plans[p]);
    wp_time_result_release(&res);
    wp_time_request_release(&req);
    free(addr);
    return rc;
}

/* What the profiler's passes need: the plan, buffers to restore, the
 * flush buffer, the deadline. */
typedef struct ProfilePass {
    Worker *w;
    const GpuPlan *plan;
    const WpProfileRequest *req;
    CUdeviceptr *shadow;  /* per restore entry: the buffer's bytes at the start */
    CUdeviceptr flush;
    size_t flush_bytes;
} ProfilePass;

/* Outside the range: inout buffers back to their first state, L2 flushed,
 * all of it finished before the range opens. */
static int profile_prepare(void *arg, Error *e)
{
    ProfilePass *pp = arg;
    Worker *w = pp->w;
    CuDriver *d = &w->d;
    int rc = 0;
    for (uint32_t i = 0; i < pp->req->n_restore; i++) {
        uint32_t b = pp->req->restore[i];
        if (w->size[b])
            CU_CHECK(d, e, d->memcpy_dtod_async(buf_ptr(w, b), pp->shadow[i], w->size[b], w->stream));
    }
    TRY(gpu_flush_l2(&w->timer, pp->flush, pp->flush_bytes, w->stream, e));
    CU_CHECK(d, e, d->event_record(w->ev_end, w->stream));
    rc = wait_event(w, w->ev_end, wp_now() + 60.0, e);
done:
    return rc;
}

/* Inside the range: the plan, waited for under the deadline. */
static int profile_execute(void *arg, Error *e)
{
    ProfilePass *pp = arg;
    Worker *w = pp->w;
    CuDriver *d = &w->d;
    int rc = 0;
    TRY(gpu_plan_enqueue(d, pp->plan, w->stream, e));
    CU_CHECK(d, e, d->event_record(w->ev_end, w->stream));
    rc = wait_event(w, w->ev_end, wp_now() + pp->req->deadline_ms / 1000.0, e);
    if (rc == 1)
        ERR(e, "the launch plan did not finish within %.3f s while profiled", pp->req->deadline_ms / 1000.0);
done:
    return rc;
}

/* PROFILE (wp_profile.h): the API's occupancy of every launch, then, when
 * passes are allowed, the plan's hardware metrics (cupti_profile.h). */
static int do_profile(Worker *w, const WpFrame *f, WpBuf *out, Error *e)
{
    int rc = 0;
    CuDriver *d = &w->d;
    WpProfileRequest req;
    GpuPlan plan;
    ProfileResult res;
    memset(&plan, 0, sizeof plan);
    profile_result_init(&res);
    ProfilePass pp = {w, &plan, &req, NULL, 0, 0};
    CUdeviceptr *addr = buffer_addresses(w);
    if (wp_decode_profile(f->payload, (size_t)f->len, w->n_bufs, &req, e) != 0) {
        free(addr);
        return -1;
    }
    if (!w->mod)
        FAIL(e, "PROFILE before LOAD");
    TRY(gpu_plan_prepare(d, w->mod, &req.plan, addr, &plan, e));
    res.n_launches = (int)(plan.n < PROFILE_MAX_LAUNCHES ? plan.n : PROFILE_MAX_LAUNCHES);
    for (int i = 0; i < res.n_launches; i++) {
        const WpLaunch *l = &plan.launches[i];
        int blocks = -1;
        CUresult cr = CUDA_ERROR_NOT_SUPPORTED;
        if (d->occupancy_max_active_blocks)
            cr = d->occupancy_max_active_blocks(&blocks, plan.fn[i], (int)(l->block[0] * l->block[1] * l->block[2]),
                                                l->smem);
        if (cr != CUDA_SUCCESS) {
            blocks = -1;
            if (!res.occupancy_note[0]) {
                Error oe;
                if (d->occupancy_max_active_blocks)
                    cudrv_error(d, cr, "cuOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__, &oe);
                else
                    snprintf(oe.msg, sizeof oe.msg, "the driver lacks cuOccupancyMaxActiveBlocksPerMultiprocessor");
                snprintf(res.occupancy_note, sizeof res.occupancy_note, "launch %d: %s", i + 1, oe.msg);
            }
        }
        res.api_blocks_per_sm[i] = blocks;
    }
    if (req.max_passes > 0) {
        if (!d->memcpy_dtod_async || !d->memset_d32_async)
            FAIL(e, "PROFILE: the driver lacks cuMemcpyDtoDAsync/cuMemsetD32Async");
        CU_CHECK(d, e, d->ctx_synchronize()); /* uploads on the legacy stream */
        pp.shadow = xcalloc(req.n_restore + 1, sizeof *pp.shadow);
        for (uint32_t i = 0; i < req.n_restore; i++) {
            uint32_t b = req.restore[i];
            if (!w->size[b])
                continue;
            CU_CHECK(d, e, d->mem_alloc(&pp.shadow[i], w->size[b]));
            CU_CHECK(d, e, d->memcpy_dtod_async(pp.shadow[i], buf_ptr(w, b), w->size[b], w->stream));
        }
        if (req.flush_mib) {
            TRY(worker_timer(w, e)); /* its flush kernel */
            pp.flush_bytes = (size_t)req.flush_mib << 20;
            TRY(gpu_flush_alloc(&w->timer, pp.flush_bytes, &pp.flush, e));
        }
        rc = cupti_profile_run(w->ctx, w->device, profile_prepare, profile_execute, &pp, (int)req.max_passes, &res, e);
        if (rc != 0)
            goto done;
    }
    wp_encode_profile_result(out, &res);
    TRY(check_guards(w, out, e));
done:
    if (pp.shadow)
        for (uint32_t i = 0; i < req.n_restore; i++)
            if (pp.shadow[i])
                d->mem_free(pp.shadow[i]);
    free(pp.shadow);
    if (pp.flush)
        d->mem_free(pp.flush);
    gpu_plan_release(&plan);
    wp_profile_request_release(&req);
    free(addr);
    return rc;
}

/* The staging memory, mapped at least `len` bytes long (at its current
 * size, which the parent has grown to hold the transfer). */
static int map_staging(Worker *w, uint64_t len, const char *what, Error *e)
{
    if (w->shm_fd < 0)
        return ERR(e, "%s: no staging memory (--fd-shm)", what);
    if (w->shm_len >= len)
        return 0;
    struct stat sb;
    if (fstat(w->shm_fd, &sb) != 0)
        return ERR(e, "%s: staging memory: %s", what, strerror(errno));
    if ((uint64_t)sb.st_size < len)
        return ERR(e, "%s: the staging memory has %lld bytes, the transfer %llu", what, (long long)sb.st_size,
                   (unsigned long long)len);
    if (w->shm)
        munmap(w->shm, w->shm_len);
    w->shm_len = 0;
    w->shm = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, w->shm_fd, 0);
    if (w->shm == MAP_FAILED) {
        w->shm = NULL;
        return ERR(e, "%s: cannot map the staging memory: %s", what, strerror(errno));
    }
    w->shm_len = (size_t)sb.st_size;
    return 0;
}

/* UPLOAD_SHM / DOWNLOAD_SHM: u32 index, u64 bytes (the buffer's size). */
static int do_staged(Worker *w, WpReader *in, int upload, Error *e)
{
    int rc = 0;
    uint32_t i;
    const char *what = upload ? "UPLOAD_SHM" : "DOWNLOAD_SHM";
    TRY(get_index(w, in, what, &i, e));
    uint64_t len = wp_get_u64(in);
    if (in->bad || wp_remaining(in) != 0 || len != w->size[i])
        FAIL(e, "%s: %llu bytes for buffer %u of %llu", what, (unsigned long long)len, i,
             (unsigned long long)w->size[i]);
    TRY(map_staging(w, len, what, e));
    if (len && upload)
        CU_CHECK(&w->d, e, w->d.memcpy_htod(buf_ptr(w, i), w->shm, len));
    else if (len)
        CU_CHECK(&w->d, e, w->d.memcpy_dtoh(w->shm, buf_ptr(w, i), len));
done:
    return rc;
}

static int do_download(Worker *w, WpReader *in, WpBuf *out, Error *e)
{
    int rc = 0;
    uint32_t i;
    TRY(get_index(w, in, "DOWNLOAD", &i, e));
    if (wp_remaining(in) != 0)
        FAIL(e, "DOWNLOAD: trailing bytes");
    void *dst = wp_put_space(out, (size_t)w->size[i]);
    if (w->size[i])
        CU_CHECK(&w->d, e, w->d.memcpy_dtoh(dst, buf_ptr(w, i), w->size[i]));
done:
    return rc;
}

static const char USAGE[] = "usage: harness worker --fd-in N --fd-out N [--fd-shm N] [--device N] [--backend gpu|cpu]\n"
                            "  The worker process; the harness starts it itself (see worker_protocol.h).\n"
                            "  --backend cpu serves the same protocol on the CPU (cpu_worker.h).\n";

int cmd_worker(CliContext *cx, int argc, char **argv)
{
    (void)cx;
    int fd_in = -1, fd_out = -1, fd_shm = -1, device = 0, cpu = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(argv[i], "--fd-in") == 0 && i + 1 < argc) {
            fd_in = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--fd-out") == 0 && i + 1 < argc) {
            fd_out = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--fd-shm") == 0 && i + 1 < argc) {
            fd_shm = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            device = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            const char *b = argv[++i];
            if (strcmp(b, "cpu") != 0 && strcmp(b, "gpu") != 0)
                return cli_usage_error("worker", "--backend must be gpu or cpu, not '%s'", b);
            cpu = strcmp(b, "cpu") == 0;
        } else {
            return cli_usage_error("worker", "unknown argument '%s'", argv[i]);
        }
    }
    if (fd_in < 0 || fd_out < 0)
        return cli_usage_error("worker", "--fd-in and --fd-out are required");
    if (cpu)
        return cpu_worker_serve(fd_in, fd_out);
    signal(SIGPIPE, SIG_IGN);
    Worker w;
    memset(&w, 0, sizeof w);
    w.shm_fd = fd_shm;
    Error e;
    if (worker_init(&w, device, &e) != 0) {
        w.broken = WP_NO_DEVICE;
        snprintf(w.broken_msg, sizeof w.broken_msg, "%s", e.msg);
    }
    for (;;) {
        WpFrame f;
        if (wp_read_frame(fd_in, &f, 0, NULL, &e) != 0)
            return 0; /* the parent went away: nothing left to do */
        WpBuf data = {0}, resp = {0};
        WpReader in;
        wp_reader_init(&in, f.payload, (size_t)f.len);
        WpStatus st = WP_OK;
        int r = 0;
        e.msg[0] = '\0';
        if (w.broken != WP_OK && f.type != WP_EXIT) {
            st = w.broken;
            snprintf(e.msg, sizeof e.msg, "%s", w.broken_msg);
        } else {
            switch (f.type) {
            case WP_HELLO: r = do_hello(&w, &in, &data, &e); break;
            case WP_LOAD: r = do_load(&w, &f, &w.mod, &e); break;
            case WP_LOAD_BASELINE: r = do_load(&w, &f, &w.mod_base, &e); break;
            case WP_TIME: r = do_time(&w, &f, &data, &e); break;
            case WP_PROFILE: r = do_profile(&w, &f, &data, &e); break;
            case WP_ALLOC: r = do_alloc(&w, &in, &e); break;
            case WP_UPLOAD: r = do_upload(&w, &in, &e); break;
            case WP_FILL: r = do_fill(&w, &in, &e); break;
            case WP_RUN: r = do_run(&w, &f, &data, &e); break;
            case WP_DOWNLOAD: r = do_download(&w, &in, &data, &e); break;
            case WP_UPLOAD_SHM: r = do_staged(&w, &in, 1, &e); break;
            case WP_DOWNLOAD_SHM: r = do_staged(&w, &in, 0, &e); break;
            case WP_EXIT: break;
            default: r = ERR(&e, "unknown request type %u", f.type); st = WP_BAD_REQUEST; break;
            }
            if (r == 1)
                st = WP_TIMEOUT;
            else if (r != 0 && st == WP_OK)
                st = WP_CUDA_ERROR;
            /* After a CUDA error or a timeout the context cannot be trusted. */
            if (st == WP_CUDA_ERROR || st == WP_TIMEOUT) {
                w.broken = st;
                snprintf(w.broken_msg, sizeof w.broken_msg, "worker unusable after: %s", e.msg);
            }
        }
        wp_encode_response(&resp, st, e.msg);
        int wr = wp_write_frame2(fd_out, f.type | WP_RESPONSE, resp.data, resp.len, data.data, data.len, 0, &e);
        uint32_t type = f.type;
        wp_frame_release(&f);
        wp_buf_release(&data);
        wp_buf_release(&resp);
        if (wr != 0 || type == WP_EXIT)
            return 0;
    }
}
