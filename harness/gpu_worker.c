#include "gpu_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/parallel.h"
#include "common/strbuf.h"
#include "harness/wp_profile.h"

/* A backstop over the worker's own deadlines: a worker stuck inside a
 * driver call still gets killed.  Transfers are allowed 100 MB/s. */
#define BASE_TIMEOUT_S 60.0
#define BYTES_PER_S 100e6
#define WRAPPER_EXIT_S 60.0 /* compute-sanitizer's exit after its target's, report written */

static double transfer_deadline(uint64_t bytes)
{
    return wp_now() + BASE_TIMEOUT_S + (double)bytes / BYTES_PER_S;
}

void gpu_worker_kill(GpuWorker *w)
{
    if (w->pid <= 0 && !w->exe)
        return; /* never started (a zeroed handle) or already killed */
    if (w->pid > 0) {
        /* a wrapper's group holds the worker too: a killed compute-sanitizer
         * must not leave its target hanging on the GPU */
        if (w->wrapped)
            kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (w->to_fd >= 0)
        close(w->to_fd);
    if (w->from_fd >= 0)
        close(w->from_fd);
    if (w->shm)
        munmap(w->shm, w->shm_len);
    if (w->shm_fd >= 0)
        close(w->shm_fd);
    w->pid = 0;
    w->to_fd = w->from_fd = w->shm_fd = -1;
    w->shm = NULL;
    w->shm_len = 0;
    free(w->exe);
    w->exe = NULL;
}

/* Sends one request and reads its response; on WP_OK *data reads the
 * response's data (valid until *resp is released). */
static int call(GpuWorker *w, uint32_t type, const void *a, uint64_t alen, const void *b, uint64_t blen,
                double deadline, WpFrame *resp, WpReader *data, WpStatus *status, Error *e)
{
    WpStatus st_local;
    WpStatus *st = status ? status : &st_local;
    *st = WP_CUDA_ERROR;
    memset(resp, 0, sizeof *resp);
    if (w->pid <= 0)
        return ERR(e, "GPU worker is not running");
    if (w->share) {
        /* a measurement alone on the GPU; the deadline starts with the turn */
        double waited;
        GpuUse use = type == WP_TIME || type == WP_PROFILE ? GPU_USE_EXCLUSIVE : GPU_USE_SHARED;
        if (gpu_share_enter(w->share, use, &waited, e) != 0)
            return error_prefix(e, "GPU worker, %s", wp_type_name(type));
        deadline += waited;
    }
    int timed_out = 0;
    int io = wp_write_frame2(w->to_fd, type, a, alen, b, blen, deadline, e) != 0 ||
             wp_read_frame(w->from_fd, resp, deadline, &timed_out, e) != 0;
    if (w->share)
        gpu_share_leave(w->share);
    if (io) {
        if (timed_out)
            *st = WP_TIMEOUT;
        return error_prefix(e, "GPU worker, %s", wp_type_name(type));
    }
    char msg[sizeof e->msg];
    if (wp_decode_response(resp, st, msg, sizeof msg, data, e) != 0) {
        *st = WP_BAD_REQUEST;
        wp_frame_release(resp);
        return -1;
    }
    if (resp->type != (type | WP_RESPONSE)) {
        *st = WP_BAD_REQUEST;
        wp_frame_release(resp);
        return ERR(e, "GPU worker answered %s to %s", wp_type_name(resp->type), wp_type_name(type));
    }
    if (*st != WP_OK) {
        wp_frame_release(resp);
        return ERR(e, "%s", msg);
    }
    return 0;
}

/* A request with no response data. */
static int call_simple(GpuWorker *w, uint32_t type, const void *a, uint64_t alen, const void *b, uint64_t blen,
                       WpStatus *status, Error *e)
{
    WpFrame resp;
    WpReader data;
    if (call(w, type, a, alen, b, blen, transfer_deadline(alen + blen), &resp, &data, status, e) != 0)
        return -1;
    wp_frame_release(&resp);
    return 0;
}

const char *backend_name(WorkerBackend b)
{
    return b == BACKEND_CPU ? "cpu" : "gpu";
}

int gpu_worker_start(GpuWorker *w, const char *exe, int device, WpStatus *status, Error *e)
{
    return gpu_worker_start_backend(w, exe, device, BACKEND_GPU, NULL, status, e);
}

int gpu_worker_start_backend(GpuWorker *w, const char *exe, int device, WorkerBackend backend, GpuShare *share,
                             WpStatus *status, Error *e)
{
    return gpu_worker_start_wrapped(w, exe, device, backend, share, NULL, status, e);
}

int gpu_worker_start_wrapped(GpuWorker *w, const char *exe, int device, WorkerBackend backend, GpuShare *share,
                             const WorkerWrapper *wrap, WpStatus *status, Error *e)
{
    memset(w, 0, sizeof *w);
    w->share = share;
    w->to_fd = w->from_fd = w->shm_fd = -1;
    w->device = device;
    w->backend = backend;
    w->exe = xstrdup(exe ? exe : "/proc/self/exe");
    if (wrap && strcmp(w->exe, "/proc/self/exe") == 0) {
        /* under a wrapper, /proc/self/exe would name the wrapper itself */
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n > 0) {
            self[n] = '\0';
            free(w->exe);
            w->exe = xstrdup(self);
        }
    }
    if (status)
        *status = WP_CUDA_ERROR;
    /* A dead worker must not kill the harness with SIGPIPE: writes then
     * fail with EPIPE and the call reports it. */
    signal(SIGPIPE, SIG_IGN);
    int req[2], rsp[2];
    if (pipe2(req, O_CLOEXEC) != 0)
        return ERR(e, "pipe: %s", strerror(errno));
    if (pipe2(rsp, O_CLOEXEC) != 0) {
        close(req[0]);
        close(req[1]);
        return ERR(e, "pipe: %s", strerror(errno));
    }
    /* staging memory: without it (memfd_create refused) transfers go
     * through the pipe, slower, the same otherwise */
    if (backend == BACKEND_GPU)
        w->shm_fd = memfd_create("cudaperf-staging", MFD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(req[0]), close(req[1]), close(rsp[0]), close(rsp[1]);
        if (w->shm_fd >= 0)
            close(w->shm_fd);
        w->shm_fd = -1;
        return ERR(e, "fork: %s", strerror(err));
    }
    if (pid == 0) {
        /* the child: keep only its two pipe ends across exec */
        fcntl(req[0], F_SETFD, 0);
        fcntl(rsp[1], F_SETFD, 0);
        if (w->shm_fd >= 0)
            fcntl(w->shm_fd, F_SETFD, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        struct rlimit core = {0, 0};
        setrlimit(RLIMIT_CORE, &core);
        /* kernel printf() must not end up in the harness's own output */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        char in[16], out[16], dev[16], shm[16];
        snprintf(in, sizeof in, "%d", req[0]);
        snprintf(out, sizeof out, "%d", rsp[1]);
        snprintf(dev, sizeof dev, "%d", device);
        snprintf(shm, sizeof shm, "%d", w->shm_fd);
        char *worker[] = {w->exe,  "worker",   "--fd-in", in, "--fd-out", out, "--device", dev, "--backend",
                          (char *)backend_name(backend), w->shm_fd >= 0 ? "--fd-shm" : NULL, shm, NULL};
        if (wrap)
            setpgid(0, 0);
        if (!wrap) {
            execv(w->exe, worker);
            fprintf(stderr, "harness: cannot start the GPU worker '%s': %s\n", w->exe, strerror(errno));
            _exit(127);
        }
        /* the wrapper's own arguments, then the worker's command line (the
         * pipes and the staging memfd are inherited through it: measured
         * with compute-sanitizer on the H200) */
        char *argv[64];
        int n = 0;
        argv[n++] = (char *)wrap->path;
        for (int i = 0; wrap->args[i] && n < 48; i++)
            argv[n++] = (char *)wrap->args[i];
        for (int i = 0; worker[i] && n < 63; i++)
            argv[n++] = worker[i];
        argv[n] = NULL;
        execv(wrap->path, argv);
        fprintf(stderr, "harness: cannot start the GPU worker under '%s': %s\n", wrap->path, strerror(errno));
        _exit(127);
    }
    close(req[0]);
    close(rsp[1]);
    w->pid = pid;
    w->wrapped = wrap != NULL;
    w->to_fd = req[1];
    w->from_fd = rsp[0];

    uint32_t version = WP_VERSION;
    WpFrame resp;
    WpReader d;
    WpStatus st;
    if (call(w, WP_HELLO, &version, 4, NULL, 0, transfer_deadline(0), &resp, &d, &st, e) != 0) {
        if (status)
            *status = st;
        gpu_worker_kill(w);
        return -1;
    }
    uint32_t v = wp_get_u32(&d);
    w->info.driver_version = (int)wp_get_u32(&d);
    w->info.cc_major = (int)wp_get_u32(&d);
    w->info.cc_minor = (int)wp_get_u32(&d);
    w->info.sm_count = (int)wp_get_u32(&d);
    w->info.memory_bytes = wp_get_u64(&d);
    int bad = wp_get_str(&d, w->info.name, sizeof w->info.name) != 0 || d.bad || v != WP_VERSION;
    wp_frame_release(&resp);
    if (bad) {
        gpu_worker_kill(w);
        if (status)
            *status = WP_BAD_REQUEST;
        return ERR(e, "GPU worker: malformed HELLO answer (version %u)", v);
    }
    if (status)
        *status = WP_OK;
    return 0;
}

void gpu_worker_stop(GpuWorker *w)
{
    if (w->pid > 0) {
        WpFrame resp;
        WpReader d;
        Error e;
        if (call(w, WP_EXIT, NULL, 0, NULL, 0, wp_now() + 5.0, &resp, &d, NULL, &e) == 0) {
            wp_frame_release(&resp);
            /* a wrapper writes its report after the worker exits: give it
             * the time (a plain worker is killed at once, cheaper than its
             * context's teardown) */
            for (double end = wp_now() + WRAPPER_EXIT_S; w->wrapped && wp_now() < end;) {
                pid_t got = waitpid(w->pid, NULL, WNOHANG);
                if (got == w->pid || (got < 0 && errno != EINTR)) {
                    w->pid = 0;
                    break;
                }
                usleep(10000);
            }
        }
    }
    gpu_worker_kill(w);
}

int gpu_worker_load(GpuWorker *w, const void *cubin, size_t len, WpStatus *status, Error *e)
{
    return call_simple(w, WP_LOAD, cubin, len, NULL, 0, status, e);
}

int gpu_worker_alloc(GpuWorker *w, const uint64_t *bytes, const GuardReading *reading, uint32_t n, WpStatus *status,
                     Error *e)
{
    WpBuf sizes = {0};
    for (uint32_t i = 0; i < n; i++)
        wp_put_u64(&sizes, bytes[i]);
    for (uint32_t i = 0; i < n; i++)
        wp_put_u8(&sizes, reading ? reading[i] : GUARD_VALUES);
    int rc = call_simple(w, WP_ALLOC, &n, 4, sizes.data, sizes.len, status, e);
    wp_buf_release(&sizes);
    return rc;
}

/* Whether a transfer of len bytes goes through the staging memory, grown
 * (and mapped) to hold it: 1 yes, 0 no (small, or no staging memory). */
static int use_staging(GpuWorker *w, size_t len)
{
    if (w->shm_fd < 0 || len < WP_STAGING_MIN_BYTES)
        return 0;
    if (w->shm_len >= len)
        return 1;
    size_t want = (len + (64u << 20) - 1) / (64u << 20) * (64u << 20); /* whole 64 MiB: few regrowths */
    if (w->shm)
        munmap(w->shm, w->shm_len);
    w->shm = NULL;
    w->shm_len = 0;
    if (ftruncate(w->shm_fd, (off_t)want) != 0)
        return 0;
    void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, w->shm_fd, 0);
    if (m == MAP_FAILED)
        return 0;
    w->shm = m;
    w->shm_len = want;
    return 1;
}

/* UPLOAD_SHM or DOWNLOAD_SHM of buffer `index` (u32 index, u64 bytes),
 * under the deadline of moving its len bytes. */
static int call_staged(GpuWorker *w, uint32_t type, uint32_t index, uint64_t len, WpStatus *status, Error *e)
{
    uint8_t req[12];
    memcpy(req, &index, 4);
    memcpy(req + 4, &len, 8);
    WpFrame resp;
    WpReader d;
    if (call(w, type, req, sizeof req, NULL, 0, transfer_deadline(len), &resp, &d, status, e) != 0)
        return -1;
    wp_frame_release(&resp);
    return 0;
}

int gpu_worker_upload(GpuWorker *w, uint32_t index, const void *data, size_t len, WpStatus *status, Error *e)
{
    if (!use_staging(w, len))
        return call_simple(w, WP_UPLOAD, &index, 4, data, len, status, e);
    parallel_copy(w->shm, data, len);
    return call_staged(w, WP_UPLOAD_SHM, index, len, status, e);
}

int gpu_worker_fill(GpuWorker *w, uint32_t index, const void *pattern, uint32_t k, WpStatus *status, Error *e)
{
    uint8_t msg[16];
    memcpy(msg, &index, 4);
    memcpy(msg + 4, &k, 4);
    if (k > 8)
        return ERR(e, "fill pattern of %u bytes", k);
    memcpy(msg + 8, pattern, k);
    return call_simple(w, WP_FILL, msg, 8 + k, NULL, 0, status, e);
}

/* The guard list that ends RUN and TIME answers, into out. */
static void read_guards(WpReader *d, RunOutcome *out)
{
    out->n_guards = wp_get_u32(d);
    if (out->n_guards > 2 * WP_MAX_BUFFERS)
        d->bad = 1;
    out->guards = xcalloc(d->bad ? 1 : out->n_guards + 1, sizeof *out->guards);
    for (uint32_t i = 0; !d->bad && i < out->n_guards; i++) {
        out->guards[i].buffer = wp_get_u32(d);
        out->guards[i].offset = (int64_t)wp_get_u64(d);
    }
}

int gpu_worker_load_baseline(GpuWorker *w, const void *cubin, size_t len, WpStatus *status, Error *e)
{
    return call_simple(w, WP_LOAD_BASELINE, cubin, len, NULL, 0, status, e);
}

int gpu_worker_time(GpuWorker *w, const WpTimeRequest *req, WpTimeResult *res, RunOutcome *guards, WpStatus *status,
                    Error *e)
{
    memset(res, 0, sizeof *res);
    memset(guards, 0, sizeof *guards);
    WpBuf b = {0};
    wp_encode_time(&b, req);
    WpFrame resp;
    WpReader d;
    const WpTimingParams *tp = &req->tp;
    /* the worker enforces every bound; this only catches a worker that hangs */
    double runs = (double)(tp->warmup_runs + tp->cupti_runs + 8) * req->n_plans;
    double deadline = wp_now() + BASE_TIMEOUT_S + 6.0 * tp->budget_s + runs * tp->deadline_ms / 1000.0;
    int rc = call(w, WP_TIME, b.data, b.len, NULL, 0, deadline, &resp, &d, status, e);
    wp_buf_release(&b);
    if (rc != 0)
        return -1;
    Error de;
    int bad = wp_decode_time_result(&d, res, &de) != 0;
    if (!bad) {
        read_guards(&d, guards);
        bad = d.bad || wp_remaining(&d) != 0;
    }
    wp_frame_release(&resp);
    if (bad) {
        wp_time_result_release(res);
        run_outcome_release(guards);
        if (status)
            *status = WP_BAD_REQUEST;
        return ERR(e, "GPU worker: malformed TIME answer");
    }
    return 0;
}

int gpu_worker_profile(GpuWorker *w, const WpProfileRequest *req, ProfileResult *res, RunOutcome *guards,
                       WpStatus *status, Error *e)
{
    profile_result_init(res);
    memset(guards, 0, sizeof *guards);
    WpBuf b = {0};
    wp_encode_profile(&b, req);
    WpFrame resp;
    WpReader d;
    /* every pass is bounded by the worker; this catches a worker that hangs */
    double deadline = wp_now() + BASE_TIMEOUT_S + (req->max_passes + 2.0) * (req->deadline_ms / 1000.0 + 1.0);
    int rc = call(w, WP_PROFILE, b.data, b.len, NULL, 0, deadline, &resp, &d, status, e);
    wp_buf_release(&b);
    if (rc != 0)
        return -1;
    Error de;
    de.msg[0] = '\0';
    int bad = wp_decode_profile_result(&d, res, &de) != 0;
    if (!bad) {
        read_guards(&d, guards);
        bad = d.bad || wp_remaining(&d) != 0;
    }
    wp_frame_release(&resp);
    if (bad) {
        run_outcome_release(guards);
        if (status)
            *status = WP_BAD_REQUEST;
        return ERR(e, "GPU worker: malformed PROFILE answer%s%s", de.msg[0] ? ": " : "", de.msg);
    }
    return 0;
}

int gpu_worker_run(GpuWorker *w, const WpRun *run, RunOutcome *out, WpStatus *status, Error *e)
{
    memset(out, 0, sizeof *out);
    WpBuf b = {0};
    wp_encode_run(&b, run);
    WpFrame resp;
    WpReader d;
    double deadline = wp_now() + BASE_TIMEOUT_S + (double)run->repeats * run->deadline_ms / 1000.0;
    int rc = call(w, WP_RUN, b.data, b.len, NULL, 0, deadline, &resp, &d, status, e);
    wp_buf_release(&b);
    if (rc != 0)
        return -1;
    out->n_ms = wp_get_u32(&d);
    if (out->n_ms != run->repeats) {
        wp_frame_release(&resp);
        return ERR(e, "GPU worker: RUN answered %u times for %u repeats", out->n_ms, run->repeats);
    }
    out->ms = xcalloc(out->n_ms + 1, sizeof *out->ms);
    for (uint32_t i = 0; i < out->n_ms; i++)
        out->ms[i] = wp_get_f32(&d);
    read_guards(&d, out);
    if (!d.bad && wp_remaining(&d) != 0) { /* a CPU worker's racecheck report */
        char race[512];
        out->n_races = wp_get_u64(&d);
        if (wp_get_str(&d, race, sizeof race) == 0 && out->n_races)
            out->race = xstrdup(race);
    }
    int bad = d.bad || wp_remaining(&d) != 0;
    wp_frame_release(&resp);
    if (bad) {
        run_outcome_release(out);
        if (status)
            *status = WP_BAD_REQUEST;
        return ERR(e, "GPU worker: malformed RUN answer");
    }
    return 0;
}

void run_outcome_release(RunOutcome *o)
{
    free(o->ms);
    free(o->guards);
    free(o->race);
    memset(o, 0, sizeof *o);
}

int gpu_worker_download(GpuWorker *w, uint32_t index, void *dst, size_t len, WpStatus *status, Error *e)
{
    if (use_staging(w, len)) {
        if (call_staged(w, WP_DOWNLOAD_SHM, index, len, status, e) != 0)
            return -1;
        parallel_copy(dst, w->shm, len); /* dst is often fresh memory */
        return 0;
    }
    WpFrame resp;
    WpReader d;
    if (call(w, WP_DOWNLOAD, &index, 4, NULL, 0, transfer_deadline(len), &resp, &d, status, e) != 0)
        return -1;
    int rc = 0;
    if (wp_remaining(&d) != len) {
        if (status)
            *status = WP_BAD_REQUEST;
        rc = ERR(e, "GPU worker: DOWNLOAD of buffer %u returned %zu bytes, expected %zu", index, wp_remaining(&d),
                 len);
    } else if (len) {
        memcpy(dst, wp_get_bytes(&d, len), len);
    }
    wp_frame_release(&resp);
    return rc;
}

const char *gpu_worker_arch(const GpuWorker *w, char *buf, size_t len)
{
    snprintf(buf, len, "sm_%d%d", w->info.cc_major, w->info.cc_minor);
    return buf;
}
