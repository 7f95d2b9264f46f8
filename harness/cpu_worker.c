#include "cpu_worker.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/ucontext.h>
#include <time.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/cpu_runtime.h"
#include "harness/guard_zone.h"
#include "harness/sandbox.h"
#include "harness/worker_protocol.h"

#define MAX_SLOTS 64
/* The references' limits (sandbox_default_limits), as soft limits. */
#define MEMORY_HEADROOM ((rlim_t)4 << 30)
#define FILE_SIZE_LIMIT ((rlim_t)1 << 20)
#define CPU_SLACK_S 20.0
/* cuMemAlloc's documented alignment, which every buffer's data gets here. */
#define BUFFER_ALIGN 256
/* The PROT_NONE zone at each end of a buffer's mapping: as large as the
 * buffer, within these bounds, so an index up to twice the size (a doubled
 * stride) faults in it instead of landing in another mapping. */
#define RED_ZONE_MIN ((size_t)1 << 20)
#define RED_ZONE_MAX ((size_t)1 << 30)

/* One buffer's mapping:
 *   PROT_NONE zone | head guard | data | tail guard | PROT_NONE zone
 * The tail guard is WP_GUARD_BYTES plus what keeps the data BUFFER_ALIGN
 * aligned (under 256 bytes), so the PROT_NONE zone starts right after it;
 * the head guard is WP_GUARD_BYTES plus what is left down to a page.  Both
 * hold the buffer's guard byte and are scanned after each RUN (guard_zone.h): a write
 * into them is reported as the GPU worker reports it; an access beyond them
 * faults, and the crash answer names the buffer.  Nothing mapped lies
 * between the tail guard and the PROT_NONE zone, where overruns go. */
typedef struct CpuBuffer {
    uint8_t *map;          /* the whole mapping, from mmap(); free_buffers unmaps it */
    size_t map_len;
    uint8_t *data;         /* the buffer, inside the mapping */
    uint64_t size;
    size_t head, tail;     /* guard bytes right before and right after data */
    GuardReading reading;  /* how they read (guard_zone.h) */
} CpuBuffer;

typedef struct CpuWorker {
    WpStatus broken;       /* WP_OK, or the status every later request gets */
    char broken_msg[1024];
    void *dl;              /* the loaded kernel object (dlopen) */
    int uses_sync;
    int racecheck;         /* the kernel was compiled for --racecheck */
    void *(*tls_anchor)(void);
    uint32_t n_bufs;
    CpuBuffer *buf;        /* n_bufs, from calloc() */
    CpuRuntime *rt;
    int n_slots;
} CpuWorker;

/* ---- soft resource limits (the hard ones stay, so they can be moved) ---- */

static void set_soft_limit(int resource, rlim_t v)
{
    struct rlimit r;
    if (getrlimit(resource, &r) != 0)
        return;
    r.rlim_cur = r.rlim_max != RLIM_INFINITY && v > r.rlim_max ? r.rlim_max : v;
    setrlimit(resource, &r);
}

static size_t address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static double cpu_seconds_used(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

/* ---- the last answer of a crashing kernel (async-signal context) ---- */

static int g_fd_out = -1;
static volatile uint32_t g_request;   /* the request being served */
static int g_crashing;
static const CpuWorker *g_worker;     /* whose buffers a fault may name */
static const WpLaunch *volatile g_launch; /* the launch running now, or NULL */

static const char *signal_text(int sig)
{
    switch (sig) {
    case SIGSEGV: return "Segmentation fault";
    case SIGBUS: return "Bus error";
    case SIGFPE: return "Floating point exception";
    case SIGILL: return "Illegal instruction";
    case SIGABRT: return "Aborted";
    case SIGTRAP: return "Trace/breakpoint trap";
    case SIGXCPU: return "CPU time limit exceeded";
    case SIGXFSZ: return "File size limit exceeded";
    default: return "fatal signal";
    }
}

/* "read" or "wrote" from the page fault's error code where the CPU gives
 * one (x86-64), else "accessed". */
static const char *fault_access(const void *uctx)
{
#if defined(__x86_64__) && defined(REG_ERR)
    const ucontext_t *uc = uctx;
    return uc && (uc->uc_mcontext.gregs[REG_ERR] & 2) ? "wrote" : "read";
#else
    (void)uctx;
    return "accessed";
#endif
}

/* When addr lies inside a buffer's mapping (its PROT_NONE zones: the guards
 * are writable), writes into buf what the GPU worker's guard message says
 * of a write, for the buffer whose data is nearest: "buffer 1 (parameter 0
 * of axpy) has 4000 bytes, the kernel read byte 40960 (36960 past the
 * end)", and returns 1; else 0.  The worker knows buffers by index and
 * launch parameter only (their names stay with the parent).  Async-signal
 * context: reads the worker's tables and uses snprintf only. */
static int describe_buffer_fault(const void *addr, const void *uctx, char *buf, size_t len)
{
    const CpuWorker *w = g_worker;
    const uint8_t *a = addr;
    int inside = 0;
    uint32_t best = 0;
    uint64_t best_dist = UINT64_MAX;
    for (uint32_t i = 0; w && w->buf && i < w->n_bufs; i++) {
        const CpuBuffer *b = &w->buf[i];
        if (!b->map)
            continue;
        inside |= a >= b->map && a < b->map + b->map_len;
        uint64_t dist = a < b->data ? (uint64_t)(b->data - a)
                        : a >= b->data + b->size ? (uint64_t)(a - (b->data + b->size)) : 0;
        if (dist < best_dist) {
            best_dist = dist;
            best = i;
        }
    }
    if (!inside)
        return 0;
    const CpuBuffer *b = &w->buf[best];
    char param[WP_MAX_KERNEL_NAME + 64] = "";
    const WpLaunch *L = g_launch;
    for (uint32_t k = 0; L && k < L->n_args; k++)
        if (L->args[k].kind == WP_ARG_BUFFER && L->args[k].buffer == best) {
            snprintf(param, sizeof param, " (parameter %u of %s)", k, L->kernel);
            break;
        }
    long long off = (long long)(a - b->data);
    if (off < 0)
        snprintf(buf, len, "buffer %u%s has %llu bytes, the kernel %s byte %lld (%lld before the start)", best,
                 param, (unsigned long long)b->size, fault_access(uctx), off, -off);
    else
        snprintf(buf, len, "buffer %u%s has %llu bytes, the kernel %s byte %lld (%lld past the end)", best, param,
                 (unsigned long long)b->size, fault_access(uctx), off, off - (long long)b->size);
    return 1;
}

static void crash_handler(int sig, siginfo_t *info, void *uctx)
{
    if (__atomic_exchange_n(&g_crashing, 1, __ATOMIC_SEQ_CST)) {
        for (;;) /* another thread is already answering */
            pause();
    }
    char where[320], which[512], msg[1024];
    int overflow = 0;
    cpu_runtime_describe_crash(info->si_addr, where, sizeof where, &overflow);
    if (overflow)
        snprintf(msg, sizeof msg,
                 "stack overflow%s: a CUDA thread used more than its %d KiB fiber stack (signal %d, %s; large local "
                 "arrays belong in shared or global memory)",
                 where, CPU_FIBER_STACK_BYTES / 1024, sig, signal_text(sig));
    else if ((sig == SIGSEGV || sig == SIGBUS) && describe_buffer_fault(info->si_addr, uctx, which, sizeof which))
        snprintf(msg, sizeof msg,
                 "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS on a GPU): %s: signal %d (%s) at address %p%s",
                 which, sig, signal_text(sig), info->si_addr, where);
    else if (sig == SIGSEGV || sig == SIGBUS)
        snprintf(msg, sizeof msg,
                 "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS on a GPU): signal %d (%s) at address %p%s", sig,
                 signal_text(sig), info->si_addr, where);
    else if (sig == SIGFPE)
        snprintf(msg, sizeof msg,
                 "arithmetic exception: signal %d (%s)%s (integer division by zero or overflow: undefined on a GPU, "
                 "a trap on the CPU)",
                 sig, signal_text(sig), where);
    else if (sig == SIGXCPU)
        snprintf(msg, sizeof msg, "the CPU worker used up its CPU time limit: signal %d (%s)%s", sig,
                 signal_text(sig), where);
    else
        snprintf(msg, sizeof msg, "the kernel crashed the CPU worker: signal %d (%s)%s", sig, signal_text(sig),
                 where);
    /* frame: magic, type, payload length; payload: status, str message */
    uint8_t frame[16 + 8 + sizeof msg];
    uint32_t n = (uint32_t)strlen(msg), magic = WP_MAGIC, type = g_request | WP_RESPONSE, st = WP_CUDA_ERROR;
    uint64_t len = 8 + (uint64_t)n;
    memcpy(frame, &magic, 4);
    memcpy(frame + 4, &type, 4);
    memcpy(frame + 8, &len, 8);
    memcpy(frame + 16, &st, 4);
    memcpy(frame + 20, &n, 4);
    memcpy(frame + 24, msg, n);
    size_t total = 24 + n, off = 0;
    while (off < total) {
        ssize_t w = write(g_fd_out, frame + off, total - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    _exit(3);
}

static void install_crash_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    static const int SIGS[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof SIGS / sizeof *SIGS; i++)
        sigaction(SIGS[i], &sa, NULL);
}

/* ---- requests ---- */

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown model");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(out, len, "%s", colon);
                break;
            }
        }
    }
    fclose(f);
}

static int do_hello(CpuWorker *w, WpReader *in, WpBuf *out, Error *e)
{
    uint32_t version = wp_get_u32(in);
    if (in->bad || version != WP_VERSION)
        return ERR(e, "protocol version %u, this worker speaks %d", version, WP_VERSION);
    char model[256], name[256];
    cpu_model(model, sizeof model);
    snprintf(name, sizeof name, "CPU (%d cores, %s)", w->n_slots, model);
    wp_put_u32(out, WP_VERSION);
    wp_put_u32(out, 0); /* driver */
    wp_put_u32(out, 0); /* compute capability 0.0 */
    wp_put_u32(out, 0);
    wp_put_u32(out, (uint32_t)w->n_slots);
    wp_put_u64(out, (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE));
    wp_put_str(out, name);
    return 0;
}

static int do_load(CpuWorker *w, const WpFrame *f, Error *e)
{
    int rc = 0, fd = -1;
    if (w->dl) {
        dlclose(w->dl);
        w->dl = NULL;
    }
    if (f->len == 0)
        FAIL(e, "LOAD: empty shared object");
    fd = memfd_create("cudaperf-kernel.so", MFD_CLOEXEC);
    if (fd < 0)
        FAIL(e, "LOAD: memfd_create: %s", strerror(errno));
    set_soft_limit(RLIMIT_FSIZE, RLIM_INFINITY);
    for (uint64_t off = 0; off < f->len;) {
        ssize_t n = write(fd, f->payload + off, (size_t)(f->len - off));
        if (n <= 0)
            FAIL(e, "LOAD: writing the shared object: %s", strerror(errno));
        off += (uint64_t)n;
    }
    set_soft_limit(RLIMIT_FSIZE, FILE_SIZE_LIMIT);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    w->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!w->dl)
        FAIL(e, "LOAD: cannot load the compiled kernel: %s", dlerror());
    unsigned (*abi)(void);
    int (*uses_sync)(void);
    *(void **)&abi = dlsym(w->dl, "cudaperf_cpu_abi");
    *(void **)&uses_sync = dlsym(w->dl, "cudaperf_cpu_uses_sync");
    if (!abi || !uses_sync || abi() != CPU_ABI_VERSION)
        FAIL(e, "LOAD: not a kernel object of CPU ABI %d (stale cache?)", CPU_ABI_VERSION);
    w->uses_sync = uses_sync();
    *(void **)&w->tls_anchor = dlsym(w->dl, "cudaperf_cpu_tls_anchor");
    w->racecheck = dlsym(w->dl, "cudaperf_cpu_racecheck") != NULL;
    if (w->racecheck && !w->tls_anchor)
        FAIL(e, "LOAD: a racecheck kernel object without cudaperf_cpu_tls_anchor (stale cache?)");
done:
    if (fd >= 0)
        close(fd);
    return rc;
}

static void free_buffers(CpuWorker *w)
{
    for (uint32_t i = 0; i < w->n_bufs; i++)
        if (w->buf[i].map)
            munmap(w->buf[i].map, w->buf[i].map_len);
    free(w->buf);
    w->buf = NULL;
    w->n_bufs = 0;
}

static size_t round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

/* Maps every buffer as CpuBuffer describes, guards filled. */
static int do_alloc(CpuWorker *w, WpReader *in, Error *e)
{
    int rc = 0;
    free_buffers(w);
    set_soft_limit(RLIMIT_AS, RLIM_INFINITY);
    uint32_t n = wp_get_u32(in);
    if (in->bad || n > WP_MAX_BUFFERS || wp_remaining(in) != (size_t)n * 9)
        FAIL(e, "ALLOC: malformed (%u buffers)", n);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page % BUFFER_ALIGN || RED_ZONE_MIN % page)
        FAIL(e, "ALLOC: unsupported page size %zu", page);
    w->buf = xcalloc(n + 1, sizeof *w->buf);
    w->n_bufs = n;
    for (uint32_t i = 0; i < n; i++)
        w->buf[i].size = wp_get_u64(in);
    for (uint32_t i = 0; i < n; i++)
        TRY(guard_reading_parse(in, &w->buf[i].reading, e));
    for (uint32_t i = 0; i < n; i++) {
        CpuBuffer *b = &w->buf[i];
        uint64_t sz = b->size;
        if (sz > (16ULL << 30))
            FAIL(e, "ALLOC: buffer %u of %llu bytes is over 16 GiB", i, (unsigned long long)sz);
        size_t tail = WP_GUARD_BYTES + (size_t)((BUFFER_ALIGN - sz % BUFFER_ALIGN) % BUFFER_ALIGN);
        size_t rw = round_up(WP_GUARD_BYTES + (size_t)sz + tail, page);
        size_t red = round_up((size_t)sz, page);
        red = red < RED_ZONE_MIN ? RED_ZONE_MIN : red > RED_ZONE_MAX ? RED_ZONE_MAX : red;
        size_t len = red + rw + red;
        uint8_t *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            FAIL(e, "ALLOC: cannot map %llu bytes for buffer %u: %s", (unsigned long long)sz, i, strerror(errno));
        b->map = m;
        b->map_len = len;
        if (mprotect(m + red, rw, PROT_READ | PROT_WRITE) != 0)
            FAIL(e, "ALLOC: cannot make %zu bytes of buffer %u writable: %s", rw, i, strerror(errno));
        b->size = sz;
        b->tail = tail;
        b->head = rw - (size_t)sz - tail;
        b->data = m + red + b->head;
        guard_zone_fill(b->data - b->head, b->head, GUARD_BEFORE, i, b->reading);
        guard_zone_fill(b->data + sz, b->tail, GUARD_AFTER, i, b->reading);
    }
done:
    set_soft_limit(RLIMIT_AS, (rlim_t)address_space() + MEMORY_HEADROOM);
    return rc;
}

static int get_index(CpuWorker *w, WpReader *in, const char *what, uint32_t *i, Error *e)
{
    *i = wp_get_u32(in);
    if (in->bad || *i >= w->n_bufs)
        return ERR(e, "%s: buffer index %u of %u", what, *i, w->n_bufs);
    return 0;
}

static int do_upload(CpuWorker *w, WpReader *in, Error *e)
{
    uint32_t i;
    if (get_index(w, in, "UPLOAD", &i, e) != 0)
        return -1;
    if (wp_remaining(in) != w->buf[i].size)
        return ERR(e, "UPLOAD: %zu bytes for a buffer of %llu", wp_remaining(in), (unsigned long long)w->buf[i].size);
    if (w->buf[i].size)
        memcpy(w->buf[i].data, wp_get_bytes(in, (size_t)w->buf[i].size), (size_t)w->buf[i].size);
    return 0;
}

static int do_fill(CpuWorker *w, WpReader *in, Error *e)
{
    uint32_t i;
    if (get_index(w, in, "FILL", &i, e) != 0)
        return -1;
    uint32_t k = wp_get_u32(in);
    const uint8_t *pat = (k == 1 || k == 2 || k == 4 || k == 8) ? wp_get_bytes(in, k) : NULL;
    if (!pat || wp_remaining(in) != 0 || w->buf[i].size % k)
        return ERR(e, "FILL: bad pattern of %u bytes for a buffer of %llu", k, (unsigned long long)w->buf[i].size);
    for (uint64_t off = 0; off < w->buf[i].size; off += k)
        memcpy(w->buf[i].data + off, pat, k);
    return 0;
}

static void check_guards(CpuWorker *w, WpBuf *out)
{
    GuardList list = {0};
    for (uint32_t i = 0; i < w->n_bufs; i++) {
        const CpuBuffer *b = &w->buf[i];
        guard_list_check(&list, i, b->reading, b->data - b->head, b->head, GUARD_BEFORE, b->size);
        guard_list_check(&list, i, b->reading, b->data + b->size, b->tail, GUARD_AFTER, b->size);
    }
    guard_list_finish(&list, out);
}

/* Resolves launch k's kernel and checks its arguments against the kernel's
 * parameters (the GPU would silently read garbage). */
static int bind_launch(CpuWorker *w, uint32_t k, const WpLaunch *L, CpuLaunch *cl, void **argv, void **ptrs, Error *e)
{
    char sym[WP_MAX_KERNEL_NAME + 32];
    snprintf(sym, sizeof sym, "cudaperf_cpu_launch_%s", L->kernel);
    *(void **)&cl->fn = dlsym(w->dl, sym);
    snprintf(sym, sizeof sym, "cudaperf_cpu_sig_%s", L->kernel);
    const unsigned *(*sig_fn)(void);
    *(void **)&sig_fn = dlsym(w->dl, sym);
    if (!cl->fn || !sig_fn)
        return ERR(e, "launch %u: kernel.cu defines no kernel '%s' (is it extern \"C\" __global__?)", k, L->kernel);
    const unsigned *sig = sig_fn();
    uint32_t n = sig[0];
    if (n != L->n_args)
        return ERR(e, "launch %u (%s): the launch plan passes %u arguments, the kernel takes %u", k, L->kernel,
                   L->n_args, n);
    for (uint32_t a = 0; a < n; a++) {
        unsigned size = sig[1 + a], is_ptr = sig[1 + n + a];
        const WpArg *A = &L->args[a];
        if (A->kind == WP_ARG_BUFFER) {
            if (!is_ptr)
                return ERR(e, "launch %u (%s): argument %u is a buffer, but the kernel's parameter %u is a %u-byte value",
                           k, L->kernel, a, a, size);
            ptrs[a] = w->buf[A->buffer].data;
            argv[a] = &ptrs[a];
        } else {
            if (is_ptr)
                return ERR(e, "launch %u (%s): argument %u is a value, but the kernel's parameter %u is a pointer", k,
                           L->kernel, a, a);
            argv[a] = (void *)A->value; /* 8 bytes, zero-padded: a wider parameter reads what the GPU would */
        }
    }
    cl->name = L->kernel;
    cl->args = argv;
    memcpy(cl->grid, L->grid, sizeof cl->grid);
    memcpy(cl->block, L->block, sizeof cl->block);
    cl->smem = L->smem;
    cl->use_fibers = w->uses_sync;
    cl->racecheck = w->racecheck;
    cl->tls_anchor = w->tls_anchor;
    return 0;
}

/* Runs the plan `repeats` times; 1 on a timeout, 0 or -1 as usual. */
static int do_run(CpuWorker *w, const WpFrame *f, WpBuf *out, Error *e)
{
    int rc = 0;
    WpRun run = {0};
    CpuLaunch *cl = NULL;
    void **argv = NULL, **ptrs = NULL;
    float *ms = NULL;
    if (!w->dl)
        FAIL(e, "RUN before LOAD");
    TRY(wp_decode_run(f->payload, (size_t)f->len, w->n_bufs, &run, e));
    cl = xcalloc(run.n_launches + 1, sizeof *cl);
    argv = xcalloc((size_t)run.n_launches * WP_MAX_ARGS + 1, sizeof *argv);
    ptrs = xcalloc((size_t)run.n_launches * WP_MAX_ARGS + 1, sizeof *ptrs);
    for (uint32_t k = 0; k < run.n_launches; k++)
        TRY(bind_launch(w, k, &run.launches[k], &cl[k], argv + (size_t)k * WP_MAX_ARGS,
                        ptrs + (size_t)k * WP_MAX_ARGS, e));
    /* CPU time backstop for this RUN: every slot busy until each deadline */
    double budget = run.repeats * (run.deadline_ms / 1000.0) * w->n_slots + CPU_SLACK_S;
    set_soft_limit(RLIMIT_CPU, (rlim_t)(cpu_seconds_used() + budget + 1));
    ms = xcalloc(run.repeats + 1, sizeof *ms);
    char race[512];
    cpu_runtime_races(w->rt, race, sizeof race); /* counted from here */
    for (uint32_t rep = 0; rep < run.repeats; rep++) {
        double t0 = wp_now(), deadline = t0 + run.deadline_ms / 1000.0;
        for (uint32_t k = 0; k < run.n_launches; k++) {
            g_launch = &run.launches[k];
            int r = cpu_runtime_launch(w->rt, &cl[k], deadline, e);
            g_launch = NULL;
            if (r == 1) {
                ERR(e, "the launch plan did not finish within %.3f s (execution %u, launch %u: %s)",
                    run.deadline_ms / 1000.0, rep + 1, k, cl[k].name);
                rc = 1;
                goto done;
            }
            if (r != 0) {
                error_prefix(e, "launch %u (%s)", k, cl[k].name);
                rc = -1;
                goto done;
            }
        }
        ms[rep] = (float)((wp_now() - t0) * 1000.0);
    }
    wp_put_u32(out, run.repeats);
    for (uint32_t rep = 0; rep < run.repeats; rep++)
        wp_put_f32(out, ms[rep]);
    check_guards(w, out);
    /* racecheck kernels: the hazards, after the guards (worker_protocol.h) */
    if (w->racecheck) {
        uint64_t n = cpu_runtime_races(w->rt, race, sizeof race);
        wp_put_u64(out, n);
        wp_put_str(out, race);
    }
done:
    free(cl);
    free(argv);
    free(ptrs);
    free(ms);
    wp_run_release(&run);
    return rc;
}

static int do_download(CpuWorker *w, WpReader *in, WpBuf *out, Error *e)
{
    uint32_t i;
    if (get_index(w, in, "DOWNLOAD", &i, e) != 0)
        return -1;
    if (wp_remaining(in) != 0)
        return ERR(e, "DOWNLOAD: trailing bytes");
    void *dst = wp_put_space(out, (size_t)w->buf[i].size);
    if (w->buf[i].size)
        memcpy(dst, w->buf[i].data, (size_t)w->buf[i].size);
    return 0;
}

int cpu_worker_serve(int fd_in, int fd_out)
{
    signal(SIGPIPE, SIG_IGN);
    CpuWorker w;
    memset(&w, 0, sizeof w);
    Error e;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    w.n_slots = cores < 1 ? 1 : cores > MAX_SLOTS ? MAX_SLOTS : (int)cores;
    g_fd_out = fd_out;
    g_worker = &w;
    sandbox_restrict_self();
    set_soft_limit(RLIMIT_FSIZE, FILE_SIZE_LIMIT);
    cpu_runtime_alt_stack();
    install_crash_handler();
    if (cpu_runtime_new(w.n_slots, &w.rt, &e) != 0) {
        w.broken = WP_NO_DEVICE;
        snprintf(w.broken_msg, sizeof w.broken_msg, "%s", e.msg);
    }
    for (;;) {
        WpFrame f;
        if (wp_read_frame(fd_in, &f, 0, NULL, &e) != 0)
            return 0; /* the parent went away */
        WpBuf data = {0}, resp = {0};
        WpReader in;
        wp_reader_init(&in, f.payload, (size_t)f.len);
        WpStatus st = WP_OK;
        int r = 0;
        e.msg[0] = '\0';
        g_request = f.type;
        if (w.broken != WP_OK && f.type != WP_EXIT) {
            st = w.broken;
            snprintf(e.msg, sizeof e.msg, "%s", w.broken_msg);
        } else {
            switch (f.type) {
            case WP_HELLO: r = do_hello(&w, &in, &data, &e); break;
            case WP_LOAD: r = do_load(&w, &f, &e); break;
            case WP_ALLOC: r = do_alloc(&w, &in, &e); break;
            case WP_UPLOAD: r = do_upload(&w, &in, &e); break;
            case WP_FILL: r = do_fill(&w, &in, &e); break;
            case WP_RUN: r = do_run(&w, &f, &data, &e); break;
            case WP_DOWNLOAD: r = do_download(&w, &in, &data, &e); break;
            case WP_EXIT: break;
            default: r = ERR(&e, "unknown request type %u", f.type); st = WP_BAD_REQUEST; break;
            }
            if (r == 1)
                st = WP_TIMEOUT;
            else if (r != 0 && st == WP_OK)
                st = WP_CUDA_ERROR;
            /* a timed-out launch may still be running in a slot: nothing
             * more can be trusted in this process */
            if (st == WP_TIMEOUT || (st == WP_CUDA_ERROR && f.type == WP_RUN)) {
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
        if (wr != 0 || type == WP_EXIT) {
            if (w.broken != WP_TIMEOUT) {
                free_buffers(&w);
                cpu_runtime_free(w.rt);
            }
            return 0;
        }
    }
}
