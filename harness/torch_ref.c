#include "torch_ref.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/sandbox.h"

/* harness/torch_runner.py, compiled into the binary by the Makefile. */
extern const char torch_runner_py[];

#define FRAME_MAGIC "CPTR"
#define FRAME_HEAD 16
#define ERR_TAIL 4096
#define START_DEADLINE_S 120.0 /* import torch (and CUDA's start) on a loaded machine */

struct TorchRunner {
    TorchRunnerOptions o;
    char python[PATH_MAX];
    char workdir[64];         /* private cwd, removed by torch_runner_free */
    SandboxChild ch;
    int up;
    int restarts, starts;
    char torch_version[64];
    int cuda;
    char cuda_note[400];      /* torch's reason when cuda is 0 */
    char tail[ERR_TAIL];      /* the last bytes the runner wrote to stderr */
    size_t tail_len;
};

TorchRunnerOptions torch_runner_default_options(void)
{
    TorchRunnerOptions o;
    memset(&o, 0, sizeof o);
    o.deadline_s = 60.0;
    o.memory_bytes = (size_t)8 << 30;
    return o;
}

TorchTimingParams torch_timing_default_params(void)
{
    TorchTimingParams t = {256, 10, 2000, 3, 0.01, 0.5, 0.0, 10.0, 1};
    return t;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- finding the interpreter ---- */

/* 1 when `python` runs and imports torch (quietly, within 60 s). */
static int imports_torch(const char *python)
{
    char *argv[] = {(char *)python, "-c", "import torch", NULL};
    SandboxLimits lim = {60.0, 60.0, (size_t)8 << 30, (size_t)64 << 10, 0};
    SandboxResult res;
    Error e;
    if (sandbox_exec(&lim, argv, NULL, &res, &e) != 0)
        return 0;
    int ok = sandbox_ok(&res);
    sandbox_result_release(&res);
    return ok;
}

int torch_ref_find_python(char *buf, size_t len, Error *e)
{
    static char cached[PATH_MAX];
    const char *env = getenv("CUDAPERF_PYTHON");
    if (env && *env) {
        if (!imports_torch(env))
            return ERR(e, "no Python interpreter with torch: CUDAPERF_PYTHON='%s' cannot import torch", env);
        snprintf(buf, len, "%s", env);
        return 0;
    }
    if (!cached[0]) {
        if (imports_torch("python3"))
            snprintf(cached, sizeof cached, "python3");
        else if (imports_torch("/usr/bin/python3"))
            snprintf(cached, sizeof cached, "/usr/bin/python3");
    }
    if (!cached[0])
        return ERR(e, "no Python interpreter with torch: neither python3 on PATH nor /usr/bin/python3 imports "
                      "torch (install python3-torch, or set CUDAPERF_PYTHON)");
    snprintf(buf, len, "%s", cached);
    return 0;
}

/* ---- frames ---- */

static void put_u32(StrBuf *s, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    sb_append_n(s, (const char *)b, 4);
}

static void put_u64(StrBuf *s, uint64_t v)
{
    put_u32(s, (uint32_t)v);
    put_u32(s, (uint32_t)(v >> 32));
}

static uint32_t get_u32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get_u64(const unsigned char *b)
{
    return (uint64_t)get_u32(b) | (uint64_t)get_u32(b + 4) << 32;
}

void torch_frame_encode(StrBuf *out, const char *header, const void *const *bufs, const uint64_t *lens, int n)
{
    size_t hl = strlen(header);
    sb_append_n(out, FRAME_MAGIC, 4);
    put_u32(out, TORCH_PROTOCOL_VERSION);
    put_u32(out, (uint32_t)hl);
    put_u32(out, (uint32_t)n);
    sb_append_n(out, header, hl);
    for (int i = 0; i < n; i++) {
        put_u64(out, lens[i]);
        if (lens[i])
            sb_append_n(out, bufs[i], (size_t)lens[i]);
    }
}

int torch_frame_decode(const void *data, size_t len, size_t *used, TorchFrame *f, Error *e)
{
    const unsigned char *b = data;
    memset(f, 0, sizeof *f);
    *used = 0;
    if (len < FRAME_HEAD)
        return 1;
    if (memcmp(b, FRAME_MAGIC, 4) != 0)
        return ERR(e, "torch runner protocol: bad magic (%02x %02x %02x %02x)", b[0], b[1], b[2], b[3]);
    uint32_t version = get_u32(b + 4), hl = get_u32(b + 8), n = get_u32(b + 12);
    if (version != TORCH_PROTOCOL_VERSION)
        return ERR(e, "torch runner protocol: version %u (this harness speaks %d)", version, TORCH_PROTOCOL_VERSION);
    if (n > 1u << 20)
        return ERR(e, "torch runner protocol: %u buffers", n);
    size_t off = FRAME_HEAD + (size_t)hl;
    if (len < off)
        return 1;
    for (uint32_t i = 0; i < n; i++) {
        if (len < off + 8)
            return 1;
        uint64_t bl = get_u64(b + off);
        if (bl > (uint64_t)len - off - 8)
            return 1;
        off += 8 + (size_t)bl;
    }
    /* complete: fill the views */
    f->header = xstrndup((const char *)b + FRAME_HEAD, hl);
    f->n = (int)n;
    f->bufs = xcalloc((size_t)n + 1, sizeof *f->bufs);
    f->lens = xcalloc((size_t)n + 1, sizeof *f->lens);
    off = FRAME_HEAD + (size_t)hl;
    for (uint32_t i = 0; i < n; i++) {
        f->lens[i] = get_u64(b + off);
        f->bufs[i] = b + off + 8;
        off += 8 + (size_t)f->lens[i];
    }
    *used = off;
    return 0;
}

void torch_frame_release(TorchFrame *f)
{
    free(f->header);
    free(f->bufs);
    free(f->lens);
    memset(f, 0, sizeof *f);
}

/* ---- the process ---- */

static void keep_tail(TorchRunner *r, const char *buf, size_t n)
{
    if (n >= ERR_TAIL) {
        memcpy(r->tail, buf + n - ERR_TAIL, ERR_TAIL);
        r->tail_len = ERR_TAIL;
        return;
    }
    if (r->tail_len + n > ERR_TAIL) {
        size_t drop = r->tail_len + n - ERR_TAIL;
        memmove(r->tail, r->tail + drop, r->tail_len - drop);
        r->tail_len -= drop;
    }
    memcpy(r->tail + r->tail_len, buf, n);
    r->tail_len += n;
}

/* The last non-empty line the runner wrote to stderr (a Python traceback's
 * last line says what went wrong), into buf. */
static const char *tail_line(const TorchRunner *r, char *buf, size_t len)
{
    size_t end = r->tail_len;
    while (end && (r->tail[end - 1] == '\n' || r->tail[end - 1] == '\r' || r->tail[end - 1] == ' '))
        end--;
    size_t start = end;
    while (start && r->tail[start - 1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), r->tail + start);
    return buf;
}

static void runner_kill(TorchRunner *r, int *status)
{
    sandbox_child_kill(&r->ch, status);
    r->up = 0;
}

/* Exchanges one frame: writes `req` while reading the reply and draining
 * stderr, until a whole reply frame has arrived or the deadline.  -1 with e
 * (the runner killed) on a deadline, a dead runner or a protocol error. */
static int exchange(TorchRunner *r, const StrBuf *req, double deadline_s, StrBuf *reply, TorchFrame *f, Error *e)
{
    size_t sent = 0;
    double end = now_s() + deadline_s;
    int status = 0;
    for (;;) {
        size_t used;
        int d = torch_frame_decode(reply->data, reply->len, &used, f, e);
        if (d < 0) {
            runner_kill(r, NULL);
            return -1;
        }
        if (d == 0)
            return 0;
        double left = end - now_s();
        if (left <= 0) {
            runner_kill(r, NULL);
            return ERR(e, "timed out after %.1f s (the torch runner was killed)", deadline_s);
        }
        struct pollfd pf[3];
        int np = 0;
        pf[np++] = (struct pollfd){r->ch.from_child, POLLIN, 0};
        pf[np++] = (struct pollfd){r->ch.err, POLLIN, 0};
        if (sent < req->len)
            pf[np++] = (struct pollfd){r->ch.to_child, POLLOUT, 0};
        int timeout_ms = (int)(left * 1000) + 1;
        if (poll(pf, (nfds_t)np, timeout_ms) < 0) {
            if (errno == EINTR)
                continue;
            runner_kill(r, NULL);
            return ERR(e, "poll: %s", strerror(errno));
        }
        char buf[65536];
        if (pf[1].revents & (POLLIN | POLLHUP)) {
            ssize_t got = read(r->ch.err, buf, sizeof buf);
            if (got > 0)
                keep_tail(r, buf, (size_t)got);
            else if (got == 0)
                pf[1].fd = -1;
        }
        if (np == 3 && (pf[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(r->ch.to_child, req->data + sent, req->len - sent);
            if (w > 0)
                sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                goto died;
        }
        if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t got = read(r->ch.from_child, buf, sizeof buf);
            if (got > 0)
                sb_append_n(reply, buf, (size_t)got);
            else if (got == 0 || (errno != EAGAIN && errno != EINTR))
                goto died;
        }
    }
died : {
    /* collect what it said on the way out */
    char buf[65536];
    ssize_t got;
    while ((got = read(r->ch.err, buf, sizeof buf)) > 0)
        keep_tail(r, buf, (size_t)got);
    /* it closed its stdout: reap it (a second at most) for its status */
    int reaped = 0;
    for (int i = 0; i < 200 && !reaped; i++) {
        if (waitpid(r->ch.pid, &status, WNOHANG) == r->ch.pid) {
            reaped = 1;
        } else {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    if (reaped) {
        kill(-r->ch.pid, SIGKILL); /* what it left in its group */
        r->ch.pid = -1;
        runner_kill(r, NULL);
    } else {
        runner_kill(r, &status);
    }
    char why[160], line[1024];
    SandboxResult sr;
    memset(&sr, 0, sizeof sr);
    if (WIFEXITED(status))
        sr.exited = 1, sr.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        sr.signal = WTERMSIG(status);
    tail_line(r, line, sizeof line);
    return ERR(e, "the torch runner died (%s)%s%s", sandbox_describe(&sr, why, sizeof why), line[0] ? ": " : "",
               line);
}
}

static int request(TorchRunner *r, cJSON *hdr, const void *const *bufs, const uint64_t *lens, int n,
                   double deadline_s, TorchFrame *f, cJSON **reply, StrBuf *store, Error *e);

static int runner_start(TorchRunner *r, Error *e)
{
    int rc = 0;
    if (!r->python[0])
        TRY(torch_ref_find_python(r->python, sizeof r->python, e));
    if (!r->workdir[0]) {
        char tmpl[] = "/tmp/cudaperf-torch-XXXXXX";
        if (!mkdtemp(tmpl))
            FAIL(e, "cannot create a private directory for the torch runner: %s", strerror(errno));
        snprintf(r->workdir, sizeof r->workdir, "%s", tmpl);
    }
    SandboxLimits lim = sandbox_default_limits();
    lim.cpu_seconds = 0; /* per request: the deadline */
    lim.memory_bytes = r->o.cuda ? 0 : r->o.memory_bytes;
    if (r->o.cuda) {
        lim.output_bytes = (size_t)1 << 30; /* torch.compile writes generated code and binaries */
        lim.allow_unix_sockets = 1;         /* cudaGetDeviceCount fails with error 304 without */
    }
    const char *script = getenv("CUDAPERF_TORCH_RUNNER");
    char *argv[8];
    int k = 0;
    argv[k++] = r->python;
    argv[k++] = "-B"; /* no __pycache__ */
    if (script && *script) {
        argv[k++] = (char *)script;
    } else {
        argv[k++] = "-c";
        argv[k++] = (char *)torch_runner_py;
    }
    char threads[32];
    if (r->o.threads > 0) {
        snprintf(threads, sizeof threads, "--threads=%d", r->o.threads);
        argv[k++] = threads;
    }
    argv[k] = NULL;
    r->tail_len = 0;
    /* a runner that dies while we write must not kill the harness with
     * SIGPIPE: the write then fails with EPIPE and is reported */
    signal(SIGPIPE, SIG_IGN);
    TRY(sandbox_spawn(&lim, argv, r->workdir, &r->ch, e));
    fcntl(r->ch.to_child, F_SETFL, fcntl(r->ch.to_child, F_GETFL) | O_NONBLOCK);
    fcntl(r->ch.from_child, F_SETFL, fcntl(r->ch.from_child, F_GETFL) | O_NONBLOCK);
    fcntl(r->ch.err, F_SETFL, fcntl(r->ch.err, F_GETFL) | O_NONBLOCK);
    r->up = 1;
    if (r->starts++ > 0)
        r->restarts++;
    cJSON *hello = cJSON_CreateObject();
    cJSON_AddStringToObject(hello, "op", "hello");
    cJSON *reply = NULL;
    TorchFrame f;
    StrBuf store = STRBUF_INIT;
    double dl = r->o.deadline_s > START_DEADLINE_S ? r->o.deadline_s : START_DEADLINE_S;
    int hr = request(r, hello, NULL, NULL, 0, dl, &f, &reply, &store, e);
    cJSON_Delete(hello);
    if (hr == 0) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, "torch");
        snprintf(r->torch_version, sizeof r->torch_version, "%s", cJSON_IsString(v) ? v->valuestring : "?");
        r->cuda = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "cuda"));
        v = cJSON_GetObjectItemCaseSensitive(reply, "cuda_note");
        snprintf(r->cuda_note, sizeof r->cuda_note, "%s", cJSON_IsString(v) ? v->valuestring : "");
        torch_frame_release(&f);
    }
    cJSON_Delete(reply);
    sb_release(&store);
    if (hr != 0) {
        error_prefix(e, "cannot start the torch runner (%s)", r->python);
        runner_kill(r, NULL);
        goto done_rc;
    }
done:
    return rc;
done_rc:
    rc = -1;
    goto done;
}

/* Sends hdr (+ buffers) and waits for the reply; on success *reply is the
 * parsed header (ok or not) and f's buffers point into store.  -1 with e
 * when no reply came (the runner is then killed). */
static int request(TorchRunner *r, cJSON *hdr, const void *const *bufs, const uint64_t *lens, int n,
                   double deadline_s, TorchFrame *f, cJSON **reply, StrBuf *store, Error *e)
{
    *reply = NULL;
    memset(f, 0, sizeof *f);
    char *text = cJSON_PrintUnformatted(hdr);
    StrBuf req = STRBUF_INIT;
    torch_frame_encode(&req, text, bufs, lens, n);
    free(text);
    int rc = exchange(r, &req, deadline_s, store, f, e);
    sb_release(&req);
    if (rc != 0)
        return -1;
    *reply = cJSON_Parse(f->header);
    if (!cJSON_IsObject(*reply)) {
        cJSON_Delete(*reply);
        *reply = NULL;
        torch_frame_release(f);
        runner_kill(r, NULL);
        return ERR(e, "torch runner protocol: the reply's header is not a JSON object");
    }
    return 0;
}

int torch_runner_new(const TorchRunnerOptions *o, int start, TorchRunner **out, Error *e)
{
    TorchRunner *r = xcalloc(1, sizeof *r);
    r->o = o ? *o : torch_runner_default_options();
    if (r->o.deadline_s <= 0)
        r->o.deadline_s = 60.0;
    if (r->o.memory_bytes == 0)
        r->o.memory_bytes = (size_t)8 << 30;
    if (r->o.python)
        snprintf(r->python, sizeof r->python, "%s", r->o.python);
    r->o.python = NULL;
    r->ch.pid = r->ch.to_child = r->ch.from_child = r->ch.err = -1;
    *out = r;
    if (start && runner_start(r, e) != 0) {
        torch_runner_free(r);
        *out = NULL;
        return -1;
    }
    return 0;
}

void torch_runner_free(TorchRunner *r)
{
    if (!r)
        return;
    if (r->up) {
        /* end of input: the runner exits by itself; a stuck one is killed */
        close(r->ch.to_child);
        r->ch.to_child = -1;
        double end = now_s() + 2.0;
        int st;
        while (now_s() < end && waitpid(r->ch.pid, &st, WNOHANG) == 0) {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    runner_kill(r, NULL);
    if (r->workdir[0])
        file_remove_tree(r->workdir, NULL);
    free(r);
}

const char *torch_runner_torch_version(TorchRunner *r)
{
    return r->torch_version[0] ? r->torch_version : "?";
}

int torch_runner_has_cuda(TorchRunner *r)
{
    return r->cuda;
}

const char *torch_runner_cuda_note(TorchRunner *r)
{
    return r->cuda_note;
}

int torch_runner_restarts(const TorchRunner *r)
{
    return r->restarts;
}

/* ---- requests ---- */

static cJSON *program_header(const char *op, const TorchProgram *prog, uint64_t seed)
{
    cJSON *h = cJSON_CreateObject();
    cJSON_AddStringToObject(h, "op", op);
    cJSON_AddStringToObject(h, "program", prog->path ? prog->path : "program.py");
    if (prog->source)
        cJSON_AddStringToObject(h, "source", prog->source);
    if (prog->entry)
        cJSON_AddStringToObject(h, "entry", prog->entry);
    cJSON *params = cJSON_AddObjectToObject(h, "params");
    for (int i = 0; i < prog->n_params; i++)
        cJSON_AddNumberToObject(params, prog->param_names[i], (double)prog->param_values[i]);
    cJSON_AddNumberToObject(h, "seed", (double)seed);
    return h;
}

/* Runs one request for prog, starting the runner if needed.  On success
 * *reply is an ok reply; an error reply becomes -1 with *fault = 1. */
static int program_request(TorchRunner *r, const TorchProgram *prog, cJSON *hdr, const void *const *bufs,
                           const uint64_t *lens, int n, double deadline_s, TorchFrame *f, cJSON **reply,
                           StrBuf *store, int *fault, Error *e)
{
    const char *label = prog->path ? prog->path : "program.py";
    int dummy;
    if (!fault)
        fault = &dummy;
    *fault = 0;
    *reply = NULL;
    if (!r->up && runner_start(r, e) != 0)
        return error_prefix(e, "%s", label);
    if (!prog->source) {
        /* read here, not by the runner: its cwd is a private directory */
        char *text = NULL;
        if (file_read_all(label, 16 << 20, &text, NULL, e) != 0) {
            *fault = 1;
            return -1;
        }
        cJSON_AddStringToObject(hdr, "source", text);
        free(text);
    }
    if (request(r, hdr, bufs, lens, n, deadline_s, f, reply, store, e) != 0) {
        /* a deadline or a runner that died while running the program: the
         * program's doing (the harness's own failures fail at start) */
        *fault = 1;
        return error_prefix(e, "%s", label);
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(*reply, "ok"))) {
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(*reply, "error");
        const char *m = cJSON_IsString(msg) ? msg->valuestring : "error reply without a message";
        if (strncmp(m, "protocol: ", 10) == 0) {
            runner_kill(r, NULL); /* it exits after a protocol error */
            ERR(e, "%s: torch runner %s", label, m);
        } else {
            *fault = 1;
            ERR(e, "%s: %s", label, m);
        }
        cJSON_Delete(*reply);
        *reply = NULL;
        torch_frame_release(f);
        return -1;
    }
    return 0;
}

static void tensor_release(TorchTensor *t)
{
    free(t->name);
    free(t->data);
    memset(t, 0, sizeof *t);
}

static void tensors_free(TorchTensor *t, int n)
{
    for (int i = 0; t && i < n; i++)
        tensor_release(&t[i]);
    free(t);
}

/* Parses one {"name","dtype","shape"} description. */
static int tensor_from_json(const cJSON *j, const char *label, TorchTensor *t, Error *e)
{
    memset(t, 0, sizeof *t);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    t->name = xstrdup(cJSON_IsString(name) ? name->valuestring : "?");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(j, "value");
    if (!dt) {
        t->is_value = cJSON_IsNumber(value) || cJSON_IsBool(value);
        t->value = cJSON_IsNumber(value) ? value->valuedouble : cJSON_IsTrue(value) ? 1.0 : 0.0;
        return 0;
    }
    if (!cJSON_IsString(dt) || (t->dtype = dtype_from_name(dt->valuestring)) == DT_INVALID)
        return ERR(e, "%s: torch runner protocol: '%s' has no known dtype", label, t->name);
    if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) > TORCH_MAX_DIMS)
        return ERR(e, "%s: '%s' has %d dimensions (at most %d)", label, t->name,
                   cJSON_IsArray(shape) ? cJSON_GetArraySize(shape) : -1, TORCH_MAX_DIMS);
    t->ndim = cJSON_GetArraySize(shape);
    t->count = 1;
    for (int d = 0; d < t->ndim; d++) {
        const cJSON *v = cJSON_GetArrayItem(shape, d);
        if (!cJSON_IsNumber(v) || v->valuedouble < 0)
            return ERR(e, "%s: torch runner protocol: '%s' has a bad shape", label, t->name);
        t->shape[d] = (int64_t)v->valuedouble;
        t->count *= t->shape[d];
    }
    return 0;
}

/* An array of descriptions; with data from f's buffers starting at *next. */
static int tensors_from_json(const cJSON *arr, const char *label, const TorchFrame *f, int *next, TorchTensor **out,
                             int *n, Error *e)
{
    *out = NULL;
    *n = 0;
    if (!arr)
        return 0;
    if (!cJSON_IsArray(arr))
        return ERR(e, "%s: torch runner protocol: expected an array", label);
    int m = cJSON_GetArraySize(arr);
    TorchTensor *t = xcalloc((size_t)m + 1, sizeof *t);
    for (int i = 0; i < m; i++) {
        if (tensor_from_json(cJSON_GetArrayItem(arr, i), label, &t[i], e) != 0)
            goto fail;
        if (f && next) {
            if (*next >= f->n)
                goto short_frame;
            uint64_t want = (uint64_t)t[i].count * dtype_size(t[i].dtype);
            if (f->lens[*next] != want) {
                ERR(e, "%s: torch runner protocol: '%s' came with %llu bytes, %llu expected", label, t[i].name,
                    (unsigned long long)f->lens[*next], (unsigned long long)want);
                goto fail;
            }
            t[i].data = xmalloc(want + 1);
            memcpy(t[i].data, f->bufs[*next], want);
            (*next)++;
        }
    }
    *out = t;
    *n = m;
    return 0;
short_frame:
    ERR(e, "%s: torch runner protocol: fewer buffers than tensors", label);
fail:
    tensors_free(t, m);
    return -1;
}

int torch_ref_describe(TorchRunner *r, const TorchProgram *prog, uint64_t seed, TorchDescription *out, int *fault,
                       Error *e)
{
    memset(out, 0, sizeof *out);
    const char *label = prog->path ? prog->path : "program.py";
    cJSON *hdr = program_header("describe", prog, seed), *reply = NULL;
    TorchFrame f;
    StrBuf store = STRBUF_INIT;
    int rc = program_request(r, prog, hdr, NULL, NULL, 0, r->o.deadline_s, &f, &reply, &store, fault, e);
    cJSON_Delete(hdr);
    if (rc != 0)
        goto done;
    const cJSON *consts = cJSON_GetObjectItemCaseSensitive(reply, "constants");
    int nc = cJSON_IsObject(consts) ? cJSON_GetArraySize(consts) : 0;
    out->const_names = xcalloc((size_t)nc + 1, sizeof *out->const_names);
    out->const_values = xcalloc((size_t)nc + 1, sizeof *out->const_values);
    const cJSON *c;
    cJSON_ArrayForEach(c, consts)
    {
        if (!cJSON_IsNumber(c))
            continue;
        out->const_names[out->n_constants] = xstrdup(c->string);
        out->const_values[out->n_constants++] = (int64_t)c->valuedouble;
    }
    if (tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "inputs"), label, NULL, NULL, &out->inputs,
                          &out->n_inputs, e) != 0 ||
        tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "init_inputs"), label, NULL, NULL, &out->init,
                          &out->n_init, e) != 0 ||
        tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "outputs"), label, NULL, NULL, &out->outputs,
                          &out->n_outputs, e) != 0 ||
        tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "state"), label, NULL, NULL, &out->state,
                          &out->n_state, e) != 0) {
        torch_description_release(out);
        rc = -1;
    }
    torch_frame_release(&f);
done:
    cJSON_Delete(reply);
    sb_release(&store);
    return rc;
}

void torch_description_release(TorchDescription *d)
{
    for (int i = 0; i < d->n_constants; i++)
        free(d->const_names[i]);
    free(d->const_names);
    free(d->const_values);
    tensors_free(d->inputs, d->n_inputs);
    tensors_free(d->init, d->n_init);
    tensors_free(d->outputs, d->n_outputs);
    tensors_free(d->state, d->n_state);
    memset(d, 0, sizeof *d);
}

/* The "inputs" descriptions and buffer views of a run/time request. */
static void add_inputs(cJSON *hdr, const TorchTensor *inputs, int n, const void **bufs, uint64_t *lens)
{
    cJSON *arr = cJSON_AddArrayToObject(hdr, "inputs");
    for (int i = 0; i < n; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", inputs[i].name ? inputs[i].name : "");
        cJSON_AddStringToObject(t, "dtype", dtype_name(inputs[i].dtype));
        cJSON *shape = cJSON_AddArrayToObject(t, "shape");
        for (int d = 0; d < inputs[i].ndim; d++)
            cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)inputs[i].shape[d]));
        cJSON_AddItemToArray(arr, t);
        bufs[i] = inputs[i].data;
        lens[i] = (uint64_t)inputs[i].count * dtype_size(inputs[i].dtype);
    }
}

int torch_ref_run(TorchRunner *r, const TorchProgram *prog, uint64_t seed, const char *device,
                  const TorchTensor *inputs, int n_inputs, int n_outputs, TorchRunResult *out, int *fault, Error *e)
{
    memset(out, 0, sizeof *out);
    const char *label = prog->path ? prog->path : "program.py";
    cJSON *hdr = program_header("run", prog, seed), *reply = NULL;
    cJSON_AddStringToObject(hdr, "device", device ? device : "cpu");
    if (n_outputs > 0)
        cJSON_AddNumberToObject(hdr, "n_outputs", n_outputs);
    const void **bufs = xcalloc((size_t)n_inputs + 1, sizeof *bufs);
    uint64_t *lens = xcalloc((size_t)n_inputs + 1, sizeof *lens);
    add_inputs(hdr, inputs, n_inputs, bufs, lens);
    TorchFrame f;
    StrBuf store = STRBUF_INIT;
    int rc = program_request(r, prog, hdr, (const void *const *)bufs, lens, n_inputs, r->o.deadline_s, &f, &reply,
                             &store, fault, e);
    cJSON_Delete(hdr);
    free(bufs);
    free(lens);
    if (rc != 0)
        goto done;
    int next = 0;
    const cJSON *secs = cJSON_GetObjectItemCaseSensitive(reply, "seconds");
    out->seconds = cJSON_IsNumber(secs) ? secs->valuedouble : NAN;
    if (tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "outputs"), label, &f, &next, &out->outputs,
                          &out->n_outputs, e) != 0 ||
        tensors_from_json(cJSON_GetObjectItemCaseSensitive(reply, "state"), label, &f, &next, &out->state,
                          &out->n_state, e) != 0) {
        torch_run_result_release(out);
        rc = -1;
    }
    torch_frame_release(&f);
done:
    cJSON_Delete(reply);
    sb_release(&store);
    return rc;
}

void torch_run_result_release(TorchRunResult *res)
{
    tensors_free(res->outputs, res->n_outputs);
    tensors_free(res->state, res->n_state);
    memset(res, 0, sizeof *res);
}

static void timing_from_json(const cJSON *j, TorchTiming *t)
{
    t->median_ms = t->iqr_ms = t->min_ms = t->spread = NAN;
    t->count = 0;
    if (!cJSON_IsObject(j))
        return;
    const cJSON *v;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "median_ms")))
        t->median_ms = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "iqr_ms")))
        t->iqr_ms = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "min_ms")))
        t->min_ms = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "spread")))
        t->spread = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "count")))
        t->count = v->valueint;
}

int torch_ref_time(TorchRunner *r, const TorchProgram *prog, uint64_t seed, const TorchTensor *inputs, int n_inputs,
                   const TorchTimingParams *tp, TorchTimeResult *out, int *fault, Error *e)
{
    memset(out, 0, sizeof *out);
    timing_from_json(NULL, &out->eager);
    timing_from_json(NULL, &out->compiled);
    out->compile_max_abs_diff = NAN;
    TorchTimingParams p = tp ? *tp : torch_timing_default_params();
    cJSON *hdr = program_header("time", prog, seed), *reply = NULL;
    cJSON_AddStringToObject(hdr, "device", "cuda");
    cJSON_AddBoolToObject(hdr, "compile", p.compile);
    cJSON *t = cJSON_AddObjectToObject(hdr, "timing");
    cJSON_AddNumberToObject(t, "flush_mib", p.flush_mib);
    cJSON_AddNumberToObject(t, "min_samples", p.min_samples);
    cJSON_AddNumberToObject(t, "max_samples", p.max_samples);
    cJSON_AddNumberToObject(t, "warmup_runs", p.warmup_runs);
    cJSON_AddNumberToObject(t, "target_spread", p.target_spread);
    cJSON_AddNumberToObject(t, "budget_s", p.budget_s);
    cJSON_AddNumberToObject(t, "min_time_s", p.min_time_s);
    cJSON_AddNumberToObject(t, "warmup_ms", p.warmup_ms);
    const void **bufs = xcalloc((size_t)n_inputs + 1, sizeof *bufs);
    uint64_t *lens = xcalloc((size_t)n_inputs + 1, sizeof *lens);
    add_inputs(hdr, inputs, n_inputs, bufs, lens);
    TorchFrame f;
    StrBuf store = STRBUF_INIT;
    /* torch.compile alone can take a minute on a cold cache */
    int rc = program_request(r, prog, hdr, (const void *const *)bufs, lens, n_inputs, 10 * r->o.deadline_s, &f,
                             &reply, &store, fault, e);
    cJSON_Delete(hdr);
    free(bufs);
    free(lens);
    if (rc != 0)
        goto done;
    timing_from_json(cJSON_GetObjectItemCaseSensitive(reply, "eager"), &out->eager);
    timing_from_json(cJSON_GetObjectItemCaseSensitive(reply, "compile"), &out->compiled);
    const cJSON *v;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(reply, "compile_error")))
        snprintf(out->compile_error, sizeof out->compile_error, "%s", v->valuestring);
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(reply, "compile_max_abs_diff")))
        out->compile_max_abs_diff = v->valuedouble;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(reply, "device")))
        snprintf(out->device, sizeof out->device, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(reply, "note")))
        snprintf(out->note, sizeof out->note, "%s", v->valuestring);
    torch_frame_release(&f);
done:
    cJSON_Delete(reply);
    sb_release(&store);
    return rc;
}

/* ---- problems ---- */

/* Shape of buffer argument a under config c, into t (no data). */
static int problem_tensor(const Problem *p, const ProblemArg *a, const ProblemConfig *c, TorchTensor *t, Error *e)
{
    memset(t, 0, sizeof *t);
    if (a->ndim > TORCH_MAX_DIMS)
        return ERR(e, "'%s' has %d dimensions (at most %d)", a->name, a->ndim, TORCH_MAX_DIMS);
    t->dtype = a->dtype;
    t->ndim = a->ndim;
    t->count = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (problem_eval(p, c, a->shape[d], &t->shape[d], e) != 0)
            return error_prefix(e, "'%s'.shape[%d]", a->name, d);
        t->count *= t->shape[d];
    }
    return 0;
}

static void shape_text(const TorchTensor *t, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "%s[", dtype_name(t->dtype));
    for (int d = 0; d < t->ndim && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
    if (o < len)
        snprintf(buf + o, len - o, "]");
}

/* Copies tensor t into buffer argument a (count elements): dtype and count
 * must agree with meta.json. */
static int copy_into(const Problem *p, const ProblemArg *a, const ProblemConfig *c, const TorchTensor *t, void *buf,
                     int64_t count, const char *label, Error *e)
{
    if (t->dtype != a->dtype || t->count != count) {
        TorchTensor want;
        char got_s[160], want_s[160];
        shape_text(t, got_s, sizeof got_s);
        if (problem_tensor(p, a, c, &want, e) != 0)
            return error_prefix(e, "%s: config %s", label, c->name);
        shape_text(&want, want_s, sizeof want_s);
        return ERR(e, "%s: config %s: the program's '%s' is %s, meta.json declares %s", label, c->name, a->name, got_s,
                   want_s);
    }
    memcpy(buf, t->data, (size_t)count * dtype_size(a->dtype));
    return 0;
}

/* The forward inputs of p under c as tensors over the caller's buffers
 * (borrowed: the caller clears .data before tensors_free).  *n_in and
 * *n_out count forward's inputs and outputs. */
static int forward_inputs(const Problem *p, const char *label, const ProblemConfig *c, void *const *bufs,
                          const int64_t *count, TorchTensor *in, int *n_in, int *n_out, Error *e)
{
    int rc = 0;
    *n_in = *n_out = 0;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        if (a->role == ROLE_OUT || a->role == ROLE_INOUT)
            (*n_out)++;
        if (a->role != ROLE_IN || a->fill.kind == FILL_MODEL)
            continue;
        TorchTensor *t = &in[(*n_in)++];
        if (problem_tensor(p, a, c, t, e) != 0) {
            error_prefix(e, "%s: config %s", label, c->name);
            return -1;
        }
        if (t->count != count[i])
            FAIL(e, "%s: config %s: '%s' has %lld elements here, %lld in the buffer", label, c->name, a->name,
                 (long long)t->count, (long long)count[i]);
        t->data = bufs[i];
    }
done:
    return rc;
}

int torch_ref_problem_time(TorchRunner *r, const Problem *p, const char *source, const char *label,
                           const ProblemConfig *c, uint64_t seed, void *const *bufs, const int64_t *count,
                           const TorchTimingParams *tp, TorchTimeResult *out, int *fault, Error *e)
{
    int rc = 0, n_in = 0, n_out = 0, dummy;
    if (!fault)
        fault = &dummy;
    *fault = 0;
    TorchTensor *in = xcalloc((size_t)p->n_args + 1, sizeof *in);
    TRY(forward_inputs(p, label, c, bufs, count, in, &n_in, &n_out, e));
    TorchProgram prog = {label, source, p->entry, (const char *const *)p->params, c->params, p->n_params};
    rc = torch_ref_time(r, &prog, seed, in, n_in, tp, out, fault, e);
done:
    for (int i = 0; i < n_in; i++)
        in[i].data = NULL;
    tensors_free(in, n_in);
    return rc;
}

int torch_ref_problem_run(TorchRunner *r, const Problem *p, const char *source, const char *label,
                          const ProblemConfig *c, uint64_t seed, const char *device, void *const *bufs,
                          const int64_t *count, int *fault, Error *e)
{
    int rc = 0, n_in = 0, n_out = 0, dummy;
    if (!fault)
        fault = &dummy;
    *fault = 0;
    TorchTensor *in = xcalloc((size_t)p->n_args + 1, sizeof *in);
    TorchRunResult res;
    memset(&res, 0, sizeof res);
    if (forward_inputs(p, label, c, bufs, count, in, &n_in, &n_out, e) != 0)
        goto done_rc;
    TorchProgram prog = {label, source, p->entry, (const char *const *)p->params, c->params, p->n_params};
    if (torch_ref_run(r, &prog, seed, device, in, n_in, n_out, &res, fault, e) != 0) {
        /* "label: what" -> "label: config c: what" */
        size_t ll = strlen(label);
        if (strncmp(e->msg, label, ll) == 0 && e->msg[ll] == ':') {
            char *rest = xstrdup(e->msg + ll + 1);
            snprintf(e->msg, sizeof e->msg, "%s: config %s:%s", label, c->name, rest);
            free(rest);
        }
        goto done_rc;
    }
    int k = 0;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        const TorchTensor *t = NULL;
        if (a->role == ROLE_OUT || a->role == ROLE_INOUT) {
            if (k >= res.n_outputs)
                FAIL(e, "%s: config %s: forward returned %d outputs, meta.json declares more", label, c->name,
                     res.n_outputs);
            t = &res.outputs[k++];
        } else if (a->role == ROLE_IN && a->fill.kind == FILL_MODEL) {
            for (int s = 0; s < res.n_state && !t; s++)
                if (strcmp(res.state[s].name, a->name) == 0)
                    t = &res.state[s];
            if (!t) {
                StrBuf names = STRBUF_INIT;
                for (int s = 0; s < res.n_state; s++)
                    sb_printf(&names, "%s%s", s ? ", " : "", res.state[s].name);
                ERR(e, "%s: meta.json's '%s' is not in the model's state_dict (it has: %s)", label, a->name,
                    res.n_state ? sb_str(&names) : "nothing");
                sb_release(&names);
                *fault = 1;
                goto done_rc;
            }
        } else {
            continue;
        }
        if (copy_into(p, a, c, t, bufs[i], count[i], label, e) != 0) {
            *fault = 1;
            goto done_rc;
        }
    }
done:
    for (int i = 0; i < n_in; i++)
        in[i].data = NULL;
    tensors_free(in, n_in);
    torch_run_result_release(&res);
    return rc;
done_rc:
    rc = -1;
    goto done;
}
