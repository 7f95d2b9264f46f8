#include "worker_protocol.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/strbuf.h"

const char *wp_status_name(WpStatus s)
{
    switch (s) {
    case WP_OK: return "ok";
    case WP_BAD_REQUEST: return "bad request";
    case WP_CUDA_ERROR: return "CUDA error";
    case WP_TIMEOUT: return "timeout";
    case WP_NO_DEVICE: return "no GPU";
    }
    return "unknown status";
}

const char *wp_type_name(uint32_t type)
{
    static const char *const names[] = {"?", "HELLO", "LOAD", "ALLOC", "UPLOAD", "FILL", "RUN", "DOWNLOAD", "EXIT",
                                         "LOAD_BASELINE", "TIME", "PROFILE", "UPLOAD_SHM", "DOWNLOAD_SHM"};
    type &= ~WP_RESPONSE;
    return type < sizeof names / sizeof *names ? names[type] : "?";
}

double wp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- buffers ---- */

static void reserve(WpBuf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void wp_put_bytes(WpBuf *b, const void *p, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}
void *wp_put_space(WpBuf *b, size_t n)
{
    reserve(b, n + 1); /* never NULL, even for n == 0 */
    void *p = b->data + b->len;
    b->len += n;
    return p;
}

void wp_put_u8(WpBuf *b, uint8_t v) { wp_put_bytes(b, &v, 1); }
void wp_put_u32(WpBuf *b, uint32_t v) { wp_put_bytes(b, &v, 4); }
void wp_put_u64(WpBuf *b, uint64_t v) { wp_put_bytes(b, &v, 8); }
void wp_put_f32(WpBuf *b, float v) { wp_put_bytes(b, &v, 4); }

void wp_put_str(WpBuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    wp_put_u32(b, (uint32_t)n);
    wp_put_bytes(b, s, n);
}

void wp_buf_release(WpBuf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void wp_reader_init(WpReader *r, const void *p, size_t len)
{
    r->p = p;
    r->len = len;
    r->off = 0;
    r->bad = 0;
}

const void *wp_get_bytes(WpReader *r, size_t n)
{
    if (r->bad || n > r->len - r->off) {
        r->bad = 1;
        return NULL;
    }
    const void *p = r->p + r->off;
    r->off += n;
    return p;
}

#define GETTER(name, type)                                                                                             \
    type name(WpReader *r)                                                                                             \
    {                                                                                                                  \
        type v = 0;                                                                                                    \
        const void *p = wp_get_bytes(r, sizeof v);                                                                     \
        if (p)                                                                                                         \
            memcpy(&v, p, sizeof v);                                                                                   \
        return v;                                                                                                      \
    }
GETTER(wp_get_u8, uint8_t)
GETTER(wp_get_u32, uint32_t)
GETTER(wp_get_u64, uint64_t)
GETTER(wp_get_f32, float)

int wp_get_str(WpReader *r, char *out, size_t cap)
{
    uint32_t n = wp_get_u32(r);
    const char *p = wp_get_bytes(r, n);
    if (!p) {
        if (cap)
            out[0] = '\0';
        return -1;
    }
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(out, p, k);
    out[k] = '\0';
    return 0;
}

size_t wp_remaining(const WpReader *r)
{
    return r->bad ? 0 : r->len - r->off;
}

/* ---- frames ---- */

/* Waits until fd is ready for `events` or the deadline passes (0 ready,
 * 1 timed out, -1 error). */
static int wait_fd(int fd, short events, double deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - wp_now();
            if (left <= 0)
                return 1;
            ms = (int)(left * 1000.0) + 1;
        }
        struct pollfd pf = {fd, events, 0};
        int n = poll(&pf, 1, ms);
        if (n > 0)
            return 0;
        if (n < 0 && errno != EINTR)
            return -1;
    }
}

static int write_all(int fd, const void *p, uint64_t n, double deadline, Error *e)
{
    const uint8_t *q = p;
    while (n > 0) {
        int w = wait_fd(fd, POLLOUT, deadline);
        if (w == 1)
            return ERR(e, "worker did not accept a request before the deadline");
        if (w < 0)
            return ERR(e, "poll: %s", strerror(errno));
        size_t chunk = n > (1u << 20) ? (1u << 20) : (size_t)n;
        ssize_t k = write(fd, q, chunk);
        if (k < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return ERR(e, "cannot write to the worker pipe: %s", strerror(errno));
        }
        q += k;
        n -= (uint64_t)k;
    }
    return 0;
}

/* 0 ok, 1 timed out, -1 error (e set). */
static int read_all(int fd, void *p, uint64_t n, double deadline, Error *e)
{
    uint8_t *q = p;
    while (n > 0) {
        int w = wait_fd(fd, POLLIN, deadline);
        if (w == 1)
            return 1;
        if (w < 0)
            return ERR(e, "poll: %s", strerror(errno));
        size_t chunk = n > (1u << 20) ? (1u << 20) : (size_t)n;
        ssize_t k = read(fd, q, chunk);
        if (k == 0)
            return ERR(e, "worker closed the pipe (it died)");
        if (k < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return ERR(e, "cannot read the worker pipe: %s", strerror(errno));
        }
        q += k;
        n -= (uint64_t)k;
    }
    return 0;
}

int wp_write_frame2(int fd, uint32_t type, const void *a, uint64_t alen, const void *b, uint64_t blen,
                    double deadline, Error *e)
{
    uint8_t hdr[16];
    uint32_t magic = WP_MAGIC;
    uint64_t len = alen + blen;
    memcpy(hdr, &magic, 4);
    memcpy(hdr + 4, &type, 4);
    memcpy(hdr + 8, &len, 8);
    if (write_all(fd, hdr, sizeof hdr, deadline, e) != 0 || write_all(fd, a, alen, deadline, e) != 0 ||
        write_all(fd, b, blen, deadline, e) != 0)
        return -1;
    return 0;
}

int wp_write_frame(int fd, uint32_t type, const void *payload, uint64_t len, double deadline, Error *e)
{
    return wp_write_frame2(fd, type, payload, len, NULL, 0, deadline, e);
}

int wp_read_frame(int fd, WpFrame *f, double deadline, int *timed_out, Error *e)
{
    memset(f, 0, sizeof *f);
    if (timed_out)
        *timed_out = 0;
    uint8_t hdr[16];
    int r = read_all(fd, hdr, sizeof hdr, deadline, e);
    if (r == 0) {
        uint32_t magic;
        memcpy(&magic, hdr, 4);
        memcpy(&f->type, hdr + 4, 4);
        memcpy(&f->len, hdr + 8, 8);
        if (magic != WP_MAGIC)
            return ERR(e, "worker protocol: bad magic 0x%08x", magic);
        if (f->len > WP_MAX_PAYLOAD)
            return ERR(e, "worker protocol: payload of %llu bytes is too large", (unsigned long long)f->len);
        if (f->len) {
            f->payload = malloc((size_t)f->len);
            if (!f->payload)
                return ERR(e, "cannot allocate %llu bytes for a worker message", (unsigned long long)f->len);
            r = read_all(fd, f->payload, f->len, deadline, e);
        }
    }
    if (r == 1) {
        if (timed_out)
            *timed_out = 1;
        ERR(e, "worker did not answer before the deadline");
    }
    if (r != 0) {
        wp_frame_release(f);
        return -1;
    }
    return 0;
}

void wp_frame_release(WpFrame *f)
{
    free(f->payload);
    memset(f, 0, sizeof *f);
}

/* ---- RUN ---- */

void wp_encode_run(WpBuf *b, const WpRun *run)
{
    wp_put_u32(b, run->repeats);
    wp_put_u32(b, run->deadline_ms);
    wp_put_u32(b, run->n_launches);
    for (uint32_t k = 0; k < run->n_launches; k++) {
        const WpLaunch *L = &run->launches[k];
        wp_put_str(b, L->kernel);
        for (int d = 0; d < 3; d++)
            wp_put_u32(b, L->grid[d]);
        for (int d = 0; d < 3; d++)
            wp_put_u32(b, L->block[d]);
        wp_put_u32(b, L->smem);
        wp_put_u32(b, L->n_args);
        for (uint32_t a = 0; a < L->n_args; a++) {
            const WpArg *A = &L->args[a];
            wp_put_u8(b, A->kind);
            if (A->kind == WP_ARG_BUFFER) {
                wp_put_u32(b, A->buffer);
            } else {
                wp_put_u8(b, A->size);
                wp_put_bytes(b, A->value, A->size);
            }
        }
    }
}

int wp_decode_run(const void *payload, size_t len, uint32_t n_buffers, WpRun *run, Error *e)
{
    memset(run, 0, sizeof *run);
    WpReader r;
    wp_reader_init(&r, payload, len);
    run->repeats = wp_get_u32(&r);
    run->deadline_ms = wp_get_u32(&r);
    uint32_t n = wp_get_u32(&r);
    if (r.bad)
        return ERR(e, "RUN: truncated header");
    if (run->repeats < 1 || run->repeats > WP_MAX_REPEATS)
        return ERR(e, "RUN: repeats %u outside 1..%d", run->repeats, WP_MAX_REPEATS);
    if (run->deadline_ms < 1)
        return ERR(e, "RUN: deadline must be positive");
    if (n < 1 || n > WP_MAX_LAUNCHES)
        return ERR(e, "RUN: %u launches outside 1..%d", n, WP_MAX_LAUNCHES);
    run->launches = xcalloc(n, sizeof *run->launches);
    run->n_launches = n;
    for (uint32_t k = 0; k < n; k++) {
        WpLaunch *L = &run->launches[k];
        uint32_t nl = wp_get_u32(&r);
        const char *name = wp_get_bytes(&r, nl);
        if (!name || nl == 0 || nl > WP_MAX_KERNEL_NAME || memchr(name, '\0', nl)) {
            wp_run_release(run);
            return ERR(e, "RUN: launch %u: bad kernel name", k);
        }
        memcpy(L->kernel, name, nl);
        L->kernel[nl] = '\0';
        for (int d = 0; d < 3; d++)
            L->grid[d] = wp_get_u32(&r);
        for (int d = 0; d < 3; d++)
            L->block[d] = wp_get_u32(&r);
        L->smem = wp_get_u32(&r);
        L->n_args = wp_get_u32(&r);
        if (r.bad || L->n_args > WP_MAX_ARGS) {
            wp_run_release(run);
            return ERR(e, "RUN: launch %u: truncated or more than %d arguments", k, WP_MAX_ARGS);
        }
        for (int d = 0; d < 3; d++)
            if (L->grid[d] < 1 || L->block[d] < 1) {
                wp_run_release(run);
                return ERR(e, "RUN: launch %u: zero grid or block dimension", k);
            }
        L->args = xcalloc(L->n_args + 1, sizeof *L->args);
        for (uint32_t a = 0; a < L->n_args; a++) {
            WpArg *A = &L->args[a];
            A->kind = wp_get_u8(&r);
            if (A->kind == WP_ARG_BUFFER) {
                A->buffer = wp_get_u32(&r);
                if (!r.bad && A->buffer >= n_buffers) {
                    ERR(e, "RUN: launch %u arg %u: buffer %u of %u", k, a, A->buffer, n_buffers);
                    wp_run_release(run); /* A points into run: report first */
                    return -1;
                }
            } else if (A->kind == WP_ARG_VALUE) {
                A->size = wp_get_u8(&r);
                const void *v = A->size >= 1 && A->size <= 8 ? wp_get_bytes(&r, A->size) : NULL;
                if (!v) {
                    ERR(e, "RUN: launch %u arg %u: bad value size %u", k, a, A->size);
                    wp_run_release(run);
                    return -1;
                }
                memcpy(A->value, v, A->size);
            } else {
                ERR(e, "RUN: launch %u arg %u: unknown kind %u", k, a, A->kind);
                wp_run_release(run);
                return -1;
            }
        }
    }
    if (r.bad || wp_remaining(&r) != 0) {
        wp_run_release(run);
        return ERR(e, "RUN: %s", r.bad ? "truncated" : "trailing bytes");
    }
    return 0;
}

void wp_run_release(WpRun *run)
{
    for (uint32_t k = 0; run->launches && k < run->n_launches; k++)
        free(run->launches[k].args);
    free(run->launches);
    memset(run, 0, sizeof *run);
}

void wp_encode_response(WpBuf *b, WpStatus status, const char *msg)
{
    wp_put_u32(b, (uint32_t)status);
    wp_put_str(b, msg ? msg : "");
}

int wp_decode_response(const WpFrame *f, WpStatus *status, char *msg, size_t cap, WpReader *data, Error *e)
{
    wp_reader_init(data, f->payload, (size_t)f->len);
    *status = (WpStatus)wp_get_u32(data);
    if (wp_get_str(data, msg, cap) != 0 || data->bad)
        return ERR(e, "worker protocol: malformed %s response", wp_type_name(f->type));
    if (*status > WP_NO_DEVICE)
        return ERR(e, "worker protocol: unknown status %u", (unsigned)*status);
    return 0;
}

/* ---- TIME ---- */

void wp_encode_time(WpBuf *b, const WpTimeRequest *t)
{
    wp_put_u32(b, t->n_plans);
    for (uint32_t p = 0; p < t->n_plans; p++) {
        WpBuf run = {0};
        wp_encode_run(&run, &t->plans[p]);
        wp_put_u32(b, t->slot[p]);
        wp_put_u64(b, run.len);
        wp_put_bytes(b, run.data, run.len);
        wp_buf_release(&run);
    }
    wp_put_u32(b, t->n_restore);
    for (uint32_t i = 0; i < t->n_restore; i++)
        wp_put_u32(b, t->restore[i]);
    const WpTimingParams *tp = &t->tp;
    wp_put_u32(b, tp->flush_mib);
    wp_put_u32(b, tp->min_samples);
    wp_put_u32(b, tp->max_samples);
    wp_put_f32(b, tp->target_spread);
    wp_put_f32(b, tp->budget_s);
    wp_put_f32(b, tp->min_time_s);
    wp_put_f32(b, tp->warmup_ms);
    wp_put_u32(b, tp->warmup_runs);
    wp_put_u32(b, tp->cupti_runs);
    wp_put_f32(b, tp->min_clock_fraction);
    wp_put_u32(b, tp->deadline_ms);
}

int wp_decode_time(const void *payload, size_t len, uint32_t n_buffers, WpTimeRequest *t, Error *e)
{
    memset(t, 0, sizeof *t);
    WpReader r;
    wp_reader_init(&r, payload, len);
    uint32_t n = wp_get_u32(&r);
    if (r.bad || n < 1 || n > 2)
        return ERR(e, "TIME: %u plans (1 or 2)", n);
    for (uint32_t p = 0; p < n; p++) {
        t->slot[p] = wp_get_u32(&r);
        uint64_t plen = wp_get_u64(&r);
        const void *bytes = r.bad || plen > wp_remaining(&r) ? NULL : wp_get_bytes(&r, (size_t)plen);
        if (!bytes || t->slot[p] > 1) {
            wp_time_request_release(t);
            return ERR(e, "TIME: plan %u malformed", p);
        }
        if (wp_decode_run(bytes, (size_t)plen, n_buffers, &t->plans[p], e) != 0) {
            wp_time_request_release(t);
            return error_prefix(e, "TIME: plan %u", p);
        }
        t->n_plans = p + 1;
    }
    t->n_restore = wp_get_u32(&r);
    if (r.bad || t->n_restore > n_buffers) {
        wp_time_request_release(t);
        return ERR(e, "TIME: %u buffers to restore of %u", t->n_restore, n_buffers);
    }
    for (uint32_t i = 0; i < t->n_restore; i++) {
        t->restore[i] = wp_get_u32(&r);
        if (t->restore[i] >= n_buffers)
            r.bad = 1;
    }
    WpTimingParams *tp = &t->tp;
    tp->flush_mib = wp_get_u32(&r);
    tp->min_samples = wp_get_u32(&r);
    tp->max_samples = wp_get_u32(&r);
    tp->target_spread = wp_get_f32(&r);
    tp->budget_s = wp_get_f32(&r);
    tp->min_time_s = wp_get_f32(&r);
    tp->warmup_ms = wp_get_f32(&r);
    tp->warmup_runs = wp_get_u32(&r);
    tp->cupti_runs = wp_get_u32(&r);
    tp->min_clock_fraction = wp_get_f32(&r);
    tp->deadline_ms = wp_get_u32(&r);
    if (r.bad || wp_remaining(&r) != 0 || tp->min_samples < 1 || tp->max_samples < tp->min_samples ||
        tp->max_samples > WP_MAX_REPEATS || tp->flush_mib > 4096 || tp->cupti_runs > 1000 || tp->deadline_ms < 1 ||
        !(tp->budget_s >= 0 && tp->budget_s <= 600) || !(tp->min_time_s >= 0 && tp->min_time_s <= tp->budget_s)) {
        wp_time_request_release(t);
        return ERR(e, "TIME: malformed timing parameters");
    }
    return 0;
}

void wp_time_request_release(WpTimeRequest *t)
{
    for (uint32_t p = 0; p < 2; p++)
        wp_run_release(&t->plans[p]);
    memset(t, 0, sizeof *t);
}

void wp_encode_time_result(WpBuf *b, const WpTimeResult *r)
{
    wp_put_u32(b, r->n_plans);
    for (uint32_t p = 0; p < r->n_plans; p++) {
        const WpPlanTimes *pt = &r->plans[p];
        wp_put_u32(b, pt->n);
        for (uint32_t i = 0; i < pt->n; i++)
            wp_put_f32(b, pt->ms[i]);
        wp_put_u32(b, pt->dropped);
        wp_put_f32(b, pt->cupti_ms);
    }
    wp_put_u32(b, r->clock_min_mhz);
    wp_put_u32(b, r->clock_max_mhz);
    wp_put_f32(b, r->window_ms);
    wp_put_str(b, r->note);
}

int wp_decode_time_result(WpReader *in, WpTimeResult *r, Error *e)
{
    memset(r, 0, sizeof *r);
    r->n_plans = wp_get_u32(in);
    if (in->bad || r->n_plans < 1 || r->n_plans > 2)
        return ERR(e, "TIME response: %u plans", r->n_plans);
    for (uint32_t p = 0; p < r->n_plans; p++) {
        WpPlanTimes *pt = &r->plans[p];
        pt->n = wp_get_u32(in);
        if (in->bad || pt->n > WP_MAX_REPEATS || (size_t)pt->n * 4 > wp_remaining(in)) {
            wp_time_result_release(r);
            return ERR(e, "TIME response: malformed samples");
        }
        pt->ms = xcalloc((size_t)pt->n + 1, sizeof *pt->ms);
        for (uint32_t i = 0; i < pt->n; i++)
            pt->ms[i] = wp_get_f32(in);
        pt->dropped = wp_get_u32(in);
        pt->cupti_ms = wp_get_f32(in);
    }
    r->clock_min_mhz = wp_get_u32(in);
    r->clock_max_mhz = wp_get_u32(in);
    r->window_ms = wp_get_f32(in);
    if (wp_get_str(in, r->note, sizeof r->note) != 0 || in->bad) {
        wp_time_result_release(r);
        return ERR(e, "TIME response: truncated");
    }
    return 0;
}

void wp_time_result_release(WpTimeResult *r)
{
    for (uint32_t p = 0; p < 2; p++)
        free(r->plans[p].ms);
    memset(r, 0, sizeof *r);
}
