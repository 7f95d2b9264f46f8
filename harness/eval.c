#include "eval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/parallel.h"
#include "common/strbuf.h"
#include "harness/cost_trace.h"
#include "harness/cpu_compile.h"
#include "harness/cref.h"
#include "harness/golden.h"
#include "harness/racecheck.h"
#include "harness/ref_cache.h"
#include "harness/inputs.h"
#include "harness/nvrtc.h"
#include "harness/stats.h"
#include "harness/torch_ref.h"
#include "harness/wp_profile.h"

const char *eval_status_name(EvalStatus s)
{
    switch (s) {
    case EVAL_PASS: return "pass";
    case EVAL_WRONG_RESULT: return "wrong_result";
    case EVAL_RUNTIME_ERROR: return "runtime_error";
    case EVAL_TIMEOUT: return "timeout";
    case EVAL_COMPILE_ERROR: return "compile_error";
    case EVAL_REFERENCE_ERROR: return "reference_error";
    case EVAL_NOT_RUN: return "not_run";
    case EVAL_SKIPPED: return "skipped";
    }
    return "?";
}

int eval_use_racecheck(EvalOptions *o, char *path, size_t len, Error *e)
{
    if (o->profile)
        return ERR(e, "--racecheck and --profile do not go together (instrumented code measures nothing)");
    if (o->backend == BACKEND_CPU) /* its own detector: cpu_racecheck.h */
        snprintf(path, len, "%s", EVAL_CPU_RACECHECK);
    else if (racecheck_find_sanitizer(path, len, e) != 0)
        return -1;
    o->racecheck = path;
    o->timing_runs = 0;
    return 0;
}

void eval_precise_timing(EvalOptions *o)
{
    o->timing.target_spread = 0.005f;
    o->timing.min_time_s = 0.5f;
    o->timing.budget_s = 5.0f;
    o->timing.max_samples = 20000;
}

int eval_timed_config(const Problem *p, const ProblemConfig *const *configs, int n)
{
    int best = 0;
    int64_t most = -1;
    for (int k = 0; k < n; k++) {
        int64_t bytes = 0;
        if (problem_eval(p, configs[k], p->cost_bytes, &bytes, NULL) == 0 && bytes > most) {
            most = bytes;
            best = k;
        }
    }
    return best;
}

EvalOptions eval_default_options(void)
{
    EvalOptions o;
    memset(&o, 0, sizeof o);
    o.trials = 3;
    o.seed = 20261202;
    o.deadline_s = 0; /* adaptive (deadline.h) */
    o.warmup_runs = 3;
    o.timing_runs = 10;
    o.nvrtc_cache = "datasets/cache/nvrtc";
    o.cref_cache = "datasets/cache/cref";
    o.backend = BACKEND_GPU;
    o.cpu_cache = "datasets/cache/cpu";
    o.profile_max_passes = 64;
    /* The timing protocol's defaults: flush 256 MiB (over 4x the H200's
     * 60 MiB L2); at least 10 samples, until the median is known to 1%
     * or half a second of sampling has passed; warm-up of 3 runs and
     * 10 ms; 5 CUPTI-traced runs; samples under 75% of the max SM clock
     * dropped. */
    o.timing = (WpTimingParams){256, 10, 2000, 0.01f, 0.5f, 0.0f, 10.0f, 3, 5, 0.75f, 5000};
    return o;
}

int eval_arg_value(const Problem *p, const ProblemArg *a, const ProblemConfig *c, uint8_t value[8], uint8_t *size,
                   Error *e)
{
    memset(value, 0, 8);
    *size = (uint8_t)dtype_size(a->dtype);
    if (a->role == ROLE_PARAM) {
        int64_t v = c->params[problem_param_index(p, a->name)];
        if (a->dtype == DT_I32 || a->dtype == DT_U32) {
            if (v < INT32_MIN || v > (a->dtype == DT_I32 ? INT32_MAX : (int64_t)UINT32_MAX))
                return ERR(e, "param %s = %lld does not fit %s", a->name, (long long)v, dtype_name(a->dtype));
            int32_t v32 = (int32_t)v;
            memcpy(value, &v32, 4);
        } else {
            memcpy(value, &v, 8);
        }
        return 0;
    }
    if (a->role != ROLE_SCALAR)
        return ERR(e, "argument %s is a buffer, not a value", a->name);
    /* the same conversions as the C reference's thunk (cref.c) */
    double v = problem_scalar_value(a, c);
    switch (a->dtype) {
    case DT_F32: { float f = (float)v; memcpy(value, &f, 4); break; }
    case DT_F64: memcpy(value, &v, 8); break;
    case DT_F16: { uint16_t h = inputs_f32_to_f16((float)v); memcpy(value, &h, 2); break; }
    case DT_BF16: { uint16_t h = inputs_f32_to_bf16((float)v); memcpy(value, &h, 2); break; }
    case DT_I32: { int32_t x = (int32_t)v; memcpy(value, &x, 4); break; }
    case DT_U32: { uint32_t x = (uint32_t)v; memcpy(value, &x, 4); break; }
    case DT_I64: { int64_t x = (int64_t)v; memcpy(value, &x, 8); break; }
    case DT_U64: { uint64_t x = (uint64_t)v; memcpy(value, &x, 8); break; }
    case DT_BOOL: case DT_U8: case DT_I8: { int8_t x = (int8_t)v; memcpy(value, &x, 1); break; }
    default: { int64_t x = (int64_t)v; memcpy(value, &x, *size); break; }
    }
    return 0;
}

/* ---- the CPU backend's compile, in NVRTC's result (the image is a shared object) ---- */

/* "g++ 12.2.0": the compiler and the last word of its version line. */
static void cpu_compiler_short(char *buf, size_t len)
{
    const char *v = cpu_compiler_version(), *last = strrchr(v, ' ');
    snprintf(buf, len, "%.*s %s", (int)strcspn(v, " "), v, last ? last + 1 : "");
}

static int compile_for_backend(const EvalOptions *o, const char *source, const char *arch, NvrtcResult *nr, Error *e)
{
    if (o->backend != BACKEND_CPU)
        return nvrtc_compile(source, arch, o->nvrtc_cache, nr, e);
    CpuCompileResult cr;
    int rc = cpu_compile(source, o->cpu_cache ? o->cpu_cache : "datasets/cache/cpu", o->racecheck != NULL, &cr, e);
    memset(nr, 0, sizeof *nr);
    nr->cubin = cr.so;
    nr->cubin_len = cr.so_len;
    nr->log = cr.log;
    nr->compile_error = cr.compile_error;
    nr->cached = cr.cached;
    nr->seconds = cr.seconds;
    memcpy(nr->key, cr.key, sizeof nr->key);
    return rc; /* cr's storage now belongs to nr */
}

/* ---- one evaluation ---- */

typedef struct Eval {
    const Problem *p;
    const LaunchPlan *lp;
    const EvalOptions *o;
    EvalReport *r;
    const void *cubin;
    size_t cubin_len;
    char *so_path;
    EvalSession *s;      /* the worker, kept across candidates */
    /* worker buffer layout: problem buffers in argument order, then scratch */
    int n_bufs;        /* problem buffers, the candidate's scratch, the baseline's scratch */
    int n_problem_bufs;
    int *buf_of_arg;   /* problem arg -> worker buffer, -1 for values */
    const LaunchPlan *base_lp; /* the baseline's plan, NULL: none */
    double word_bytes;         /* element size of the candidate's accesses (profile_derive) */
    void *base_cubin;
    size_t base_cubin_len;
    const char *ref_source;    /* a torch program's source (the runner gets it per request) */
    Deadline deadline;         /* per execution, for the config being evaluated (use_deadline) */
    int timed_k;               /* the config timed unless time_all_configs (eval_timed_config) */
    const char *kernel_source; /* the candidate's */
    /* golden outputs (EvalOptions.golden): the reference CUDA
     * implementation's image, made on the first config that needs it */
    int golden_now;            /* the config being evaluated takes them */
    int gold_ready;            /* gold_cubin or gold_error is set */
    const void *gold_cubin;    /* gold_owned, or the candidate's own cubin when the sources are equal */
    size_t gold_cubin_len;
    void *gold_owned;
    char gold_error[1024];     /* why there is no image */
} Eval;

static int is_torch(const Problem *p)
{
    return strcmp(p->lang, "torch") == 0;
}

/* The session's torch runner, started on first use: on the GPU when the
 * candidate runs on one and the runner's torch sees it (torch references
 * run on the GPU directly), else on the CPU. */
static int session_torch(EvalSession *s, Error *e)
{
    if (s->torch)
        return 0;
    TorchRunnerOptions o = torch_runner_default_options();
    o.cuda = s->backend != BACKEND_CPU;
    if (torch_runner_new(&o, 1, &s->torch, e) != 0)
        return error_prefix(e, "the torch reference cannot run");
    return 0;
}

/* A turn on the session's GPU for work outside its worker (the torch
 * runner's): 0 at once when the session has the GPU to itself. */
static int session_turn(EvalSession *s, GpuUse use, Error *e)
{
    if (s->share.fd <= 0)
        return 0;
    return gpu_share_enter(&s->share, use, NULL, e);
}

/* Starts the session's worker when none is running. */
static int session_ensure(EvalSession *s, int *no_gpu, Error *e)
{
    if (s->worker_up)
        return 0;
    WpStatus st;
    GpuShare *share = s->share.fd > 0 ? &s->share : NULL;
    RacecheckArgs storage;
    WorkerWrapper wrap;
    if (s->racecheck)
        wrap = racecheck_wrapper(s->racecheck, s->race_log, &storage);
    if (gpu_worker_start_wrapped(&s->w, s->worker_exe, s->device, s->backend, share, s->racecheck ? &wrap : NULL,
                                 &st, e) != 0) {
        if (st == WP_NO_DEVICE) {
            if (no_gpu)
                *no_gpu = 1;
            return error_prefix(e, "no GPU");
        }
        return error_prefix(e, "cannot start the GPU worker");
    }
    s->worker_up = 1;
    s->race_fresh = 1;
    s->gpu = s->w.info;
    return 0;
}

int eval_session_open(EvalSession *s, const EvalOptions *o, int *no_gpu, Error *e)
{
    memset(s, 0, sizeof *s);
    s->refs = ref_cache_new(e);
    if (!s->refs)
        return -1;
    s->ref_times = ref_times_new();
    if (no_gpu)
        *no_gpu = 0;
    s->device = o->device;
    s->worker_exe = o->worker_exe;
    s->backend = o->backend;
    s->share.fd = -1;
    if (o->gpu_share && o->backend == BACKEND_GPU && gpu_share_open(&s->share, o->gpu_share, e) != 0)
        return -1;
    if (o->racecheck && o->backend == BACKEND_GPU) {
        const char *tmp = getenv("TMPDIR");
        snprintf(s->race_log, sizeof s->race_log, "%s/cudaperf-racecheck-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(s->race_log);
        if (fd < 0)
            return ERR(e, "%s: %s", s->race_log, strerror(errno));
        close(fd);
        s->racecheck = o->racecheck;
    }
    if (session_ensure(s, no_gpu, e) != 0)
        return -1;
    if (o->backend == BACKEND_CPU)
        snprintf(s->arch, sizeof s->arch, "cpu");
    else if (o->arch)
        snprintf(s->arch, sizeof s->arch, "%s", o->arch);
    else
        gpu_worker_arch(&s->w, s->arch, sizeof s->arch);
    return 0;
}

void eval_session_close(EvalSession *s)
{
    torch_runner_free(s->torch);
    s->torch = NULL;
    ref_cache_free(s->refs);
    s->refs = NULL;
    ref_times_free(s->ref_times);
    s->ref_times = NULL;
    cref_buffers_release(&s->measure_inputs);
    s->measure_key[0] = '\0';
    if (s->worker_up)
        gpu_worker_stop(&s->w);
    gpu_worker_kill(&s->w);
    s->worker_up = 0;
    gpu_share_close(&s->share);
    if (s->racecheck)
        unlink(s->race_log);
    s->racecheck = NULL;
}

/* Starts a worker (and loads the cubin) when none is running.  -1 only for
 * failures that are not the candidate's (no GPU); a cubin the driver
 * refuses is reported through *status. */
static int ensure_worker(Eval *ev, WpStatus *status, int *no_gpu, Error *e)
{
    *status = WP_OK;
    if (ev->s->worker_up && ev->s->loaded)
        return 0;
    if (session_ensure(ev->s, no_gpu, e) != 0)
        return -1;
    if (!ev->r->gpu.name[0])
        ev->r->gpu = ev->s->gpu;
    if (ev->cubin) {
        if (gpu_worker_load(&ev->s->w, ev->cubin, ev->cubin_len, status, e) != 0)
            return 1; /* the candidate's cubin: a runtime error of this config */
        ev->s->loaded = 1;
    }
    return 0;
}

/* A timeout's message says which deadline applied: the worker only knows
 * its length. */
static void worker_failed(Eval *ev, EvalConfig *ec, WpStatus st, const Error *e)
{
    ec->status = st == WP_TIMEOUT ? EVAL_TIMEOUT : EVAL_RUNTIME_ERROR;
    if (st == WP_TIMEOUT && ec->deadline_note[0])
        snprintf(ec->message, sizeof ec->message, "%s; deadline %s", e->msg, ec->deadline_note);
    else
        snprintf(ec->message, sizeof ec->message, "%s", e->msg);
    gpu_worker_kill(&ev->s->w);
    ev->s->worker_up = 0;
    ev->s->loaded = 0;
    ev->s->base_loaded = 0;
    ev->r->worker_restarts++;
}

/* The deadline per execution of a plan under config c: o->deadline_s when
 * given, the CPU backend's fixed one (the GPU's figures say nothing about
 * fibers), else the rule over the best reference time the session holds.
 * Recomputed before each step, so a time measured meanwhile applies. */
static void use_deadline(Eval *ev, const ProblemConfig *c, EvalConfig *ec)
{
    const EvalOptions *o = ev->o;
    RefTimeSource src = REF_TIME_NONE;
    double ref_ms = ref_times_get(ev->s->ref_times, ev->p->name, c->name, &src);
    /* instrumented code (--racecheck) runs 10-100x slower: the fixed one too */
    double fixed = o->deadline_s > 0                                ? o->deadline_s
                   : o->backend == BACKEND_CPU || ev->s->racecheck ? EVAL_CPU_BACKEND_DEADLINE_S
                                                                   : 0;
    ev->deadline = deadline_widen_fallback(deadline_rule(fixed, ref_ms, src), ec->reference_cpu_ms, ev->golden_now);
    ec->deadline_s = ev->deadline.seconds;
    deadline_describe(&ev->deadline, ec->deadline_note, sizeof ec->deadline_note);
}

/* Records ms as the reference CUDA implementation's time on config c. */
static void note_reference_ms(Eval *ev, const ProblemConfig *c, double ms, RefTimeSource src)
{
    ref_times_note(ev->s->ref_times, ev->p->name, c->name, ms, src);
}

/* The fastest execution of a RUN, when the candidate is the reference. */
static void note_reference_run(Eval *ev, const ProblemConfig *c, const RunOutcome *out)
{
    if (!ev->o->candidate_is_reference || out->n_ms == 0)
        return;
    double best = out->ms[0];
    for (uint32_t i = 1; i < out->n_ms; i++)
        if (out->ms[i] < best)
            best = out->ms[i];
    note_reference_ms(ev, c, best, REF_TIME_RUN);
}

/* The RUN request of the plan under config c.  -1: the plan does not fit
 * this config (a candidate error). */
static int build_plan_run(Eval *ev, const LaunchPlan *lp, int scratch_base, const ProblemConfig *c, uint32_t repeats,
                          WpRun *run, Error *e)
{
    const Problem *p = ev->p;
    memset(run, 0, sizeof *run);
    run->repeats = repeats;
    run->deadline_ms = deadline_ms(&ev->deadline);
    run->n_launches = (uint32_t)lp->n_launches;
    run->launches = xcalloc((size_t)lp->n_launches, sizeof *run->launches);
    for (int k = 0; k < lp->n_launches; k++) {
        const Launch *L = &lp->launches[k];
        WpLaunch *W = &run->launches[k];
        LaunchGeometry g;
        if (launch_geometry(lp, k, p, c, &g, e) != 0)
            return -1;
        snprintf(W->kernel, sizeof W->kernel, "%s", L->kernel);
        for (int d = 0; d < 3; d++) {
            W->grid[d] = (uint32_t)g.grid[d];
            W->block[d] = (uint32_t)g.block[d];
        }
        W->smem = (uint32_t)g.smem;
        W->n_args = (uint32_t)L->n_args;
        W->args = xcalloc((size_t)L->n_args + 1, sizeof *W->args);
        for (int a = 0; a < L->n_args; a++) {
            const LaunchArg *la = &L->args[a];
            WpArg *A = &W->args[a];
            if (la->kind == LARG_SCRATCH) {
                A->kind = WP_ARG_BUFFER;
                A->buffer = (uint32_t)(scratch_base + la->index);
            } else if (la->kind == LARG_PROBLEM && ev->buf_of_arg[la->index] >= 0) {
                A->kind = WP_ARG_BUFFER;
                A->buffer = (uint32_t)ev->buf_of_arg[la->index];
            } else if (la->kind == LARG_PROBLEM) {
                A->kind = WP_ARG_VALUE;
                if (eval_arg_value(p, &p->args[la->index], c, A->value, &A->size, e) != 0)
                    return error_prefix(e, "launches[%d].args[%d]", k, a);
            } else {
                int64_t v;
                if (problem_eval(p, c, la->text, &v, e) != 0)
                    return error_prefix(e, "launches[%d].args[%d], config %s", k, a, c->name);
                if (v < INT32_MIN || v > INT32_MAX)
                    return ERR(e, "launches[%d].args[%d] = %lld does not fit the int it is passed as", k, a,
                               (long long)v);
                int32_t v32 = (int32_t)v;
                A->kind = WP_ARG_VALUE;
                A->size = 4;
                memcpy(A->value, &v32, 4);
            }
        }
    }
    return 0;
}

/* The candidate's plan: its scratch follows the problem's buffers. */
static int build_run(Eval *ev, const ProblemConfig *c, uint32_t repeats, WpRun *run, Error *e)
{
    return build_plan_run(ev, ev->lp, ev->n_problem_bufs, c, repeats, run, e);
}

/* Records cmp as the config's numbers when it is a first failure, or the
 * worst error so far of a passing config. */
static void keep_cmp(EvalConfig *ec, const char *buffer, const CompareResult *cmp)
{
    int take = cmp->n_bad ? ec->cmp.n_bad == 0 : (ec->cmp.n_bad == 0 && (!ec->buffer[0] || cmp->max_abs > ec->cmp.max_abs));
    if (take) {
        ec->cmp = *cmp;
        snprintf(ec->buffer, sizeof ec->buffer, "%s", buffer);
    }
}

/* Uploads the inputs (host[]) and poisons the outputs, the problem's
 * buffers only.  -1 with *st and e when the worker failed. */
static int upload_problem_buffers(Eval *ev, void **host, const uint64_t *bytes, WpStatus *st, Error *e)
{
    const Problem *p = ev->p;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        int b = ev->buf_of_arg[i];
        if (b < 0)
            continue;
        uint8_t pat[8];
        if (arg_role_is_input(a->role)) {
            if (gpu_worker_upload(&ev->s->w, (uint32_t)b, host[b], bytes[b], st, e) != 0)
                return -1;
        } else {
            inputs_poison(a->dtype, pat, 1);
            if (gpu_worker_fill(&ev->s->w, (uint32_t)b, pat, (uint32_t)dtype_size(a->dtype), st, e) != 0)
                return -1;
        }
    }
    return 0;
}

/* Uploads the inputs (host[]) and poisons outputs and every scratch. */
static int upload_and_poison(Eval *ev, void **host, const uint64_t *bytes, WpStatus *st, Error *e)
{
    if (upload_problem_buffers(ev, host, bytes, st, e) != 0)
        return -1;
    for (int s = ev->n_problem_bufs; s < ev->n_bufs; s++) {
        static const uint8_t nan32[4] = {0xff, 0xff, 0xff, 0x7f};
        if (bytes[s] % 4 == 0 && gpu_worker_fill(&ev->s->w, (uint32_t)s, nan32, 4, st, e) != 0)
            return -1;
    }
    return 0;
}

/* Times the candidate (and the baseline, interleaved) on config c and fills
 * ec's timing fields.  0: timed (or timing not possible, said in
 * ec->timing_note); 1: the candidate failed while timed (ec says how);
 * -1 with *st and e: the worker failed. */
/* A torch program's baseline is torch eager on the same GPU, timed by the
 * runner under the same protocol (flush, spin-gated events, warm-up, stop
 * rule) on the very inputs and weights the candidate got; it cannot share
 * the worker, so it is timed once per (program, config, seed) in the
 * session, right after the first candidate, not interleaved. */
static void torch_eager_baseline(Eval *ev, const ProblemConfig *c, uint64_t seed, void **host, const uint64_t *bytes,
                                 EvalConfig *ec)
{
    const Problem *p = ev->p;
    EvalSession *s = ev->s;
    if (!s->torch || !torch_runner_has_cuda(s->torch)) {
        if (!ec->timing_note[0])
            snprintf(ec->timing_note, sizeof ec->timing_note,
                     "torch eager not timed: the torch runner's torch sees no GPU (no speedup)%s%s",
                     s->torch && torch_runner_cuda_note(s->torch)[0] ? ": " : "",
                     s->torch ? torch_runner_cuda_note(s->torch) : "");
        return;
    }
    char key[sizeof s->eager_key];
    snprintf(key, sizeof key, "%s\n%s\n%llu", p->name, c->name, (unsigned long long)seed);
    if (strcmp(key, s->eager_key) != 0) {
        void **bufs = xcalloc((size_t)p->n_args + 1, sizeof *bufs);
        int64_t *count = xcalloc((size_t)p->n_args + 1, sizeof *count);
        for (int i = 0; i < p->n_args; i++) {
            int b = ev->buf_of_arg[i];
            if (b < 0)
                continue;
            bufs[i] = host[b];
            count[i] = (int64_t)(bytes[b] / dtype_size(p->args[i].dtype));
        }
        const WpTimingParams *w = &ev->o->timing;
        TorchTimingParams tp = torch_timing_default_params();
        tp.flush_mib = (int)w->flush_mib;
        tp.min_samples = (int)w->min_samples > ev->o->timing_runs ? (int)w->min_samples : ev->o->timing_runs;
        tp.max_samples = (int)w->max_samples;
        tp.warmup_runs = (int)w->warmup_runs;
        tp.target_spread = w->target_spread;
        tp.budget_s = w->budget_s;
        tp.min_time_s = w->min_time_s;
        tp.warmup_ms = w->warmup_ms;
        tp.compile = 0;
        TorchTimeResult tr;
        Error te;
        memset(&tr, 0, sizeof tr);
        snprintf(s->eager_key, sizeof s->eager_key, "%s", key);
        s->eager_ms = NAN;
        s->eager_note[0] = '\0';
        int rc = session_turn(s, GPU_USE_EXCLUSIVE, &te);
        if (rc == 0) {
            rc = torch_ref_problem_time(s->torch, p, ev->ref_source, p->name, c, seed, bufs, count, &tp, &tr, NULL,
                                        &te);
            gpu_share_leave(&s->share);
        }
        if (rc == 0 && tr.eager.count > 0)
            s->eager_ms = tr.eager.median_ms;
        else
            snprintf(s->eager_note, sizeof s->eager_note, "torch eager not timed: %s",
                     rc != 0 ? te.msg : tr.note[0] ? tr.note : "no samples");
        free(bufs);
        free(count);
    }
    if (!isnan(s->eager_ms)) {
        ec->baseline_ms = s->eager_ms;
        ec->speedup = ec->median_ms > 0 ? s->eager_ms / ec->median_ms : NAN;
        ec->flagged = ec->speedup > EVAL_SPEEDUP_FLAG;
        ec->baseline_kind = "torch-eager";
    } else if (!ec->timing_note[0]) {
        snprintf(ec->timing_note, sizeof ec->timing_note, "%s", s->eager_note);
    }
}

static int time_config(Eval *ev, const ProblemConfig *c, uint64_t seed, EvalConfig *ec, void **host,
                       const uint64_t *bytes, WpStatus *st, Error *e)
{
    const Problem *p = ev->p;
    int rc = 0;
    WpTimeRequest req;
    WpTimeResult res;
    RunOutcome guards = {0};
    memset(&req, 0, sizeof req);
    memset(&res, 0, sizeof res);
    if (upload_and_poison(ev, host, bytes, st, e) != 0)
        return -1;
    if (ev->base_lp && !ev->s->base_loaded && ev->base_cubin) {
        if (gpu_worker_load_baseline(&ev->s->w, ev->base_cubin, ev->base_cubin_len, st, e) != 0)
            return -1;
        ev->s->base_loaded = 1;
    }
    Error pe;
    if (build_run(ev, c, 1, &req.plans[0], &pe) != 0) {
        snprintf(ec->timing_note, sizeof ec->timing_note, "not timed: %s", pe.msg);
        return 0;
    }
    req.n_plans = 1;
    if (ev->base_lp && ev->s->base_loaded) {
        if (build_plan_run(ev, ev->base_lp, ev->n_problem_bufs + ev->lp->n_scratch, c, 1, &req.plans[1], &pe) == 0) {
            req.slot[1] = 1;
            req.n_plans = 2;
        } else {
            snprintf(ec->timing_note, sizeof ec->timing_note, "baseline not timed: %s", pe.msg);
        }
    }
    for (int i = 0; i < p->n_args; i++)
        if (ev->buf_of_arg[i] >= 0 && p->args[i].role == ROLE_INOUT)
            req.restore[req.n_restore++] = (uint32_t)ev->buf_of_arg[i];
    req.tp = ev->o->timing;
    if ((int)req.tp.min_samples < ev->o->timing_runs)
        req.tp.min_samples = (uint32_t)ev->o->timing_runs;
    if (req.tp.max_samples < req.tp.min_samples)
        req.tp.max_samples = req.tp.min_samples;
    req.tp.deadline_ms = deadline_ms(&ev->deadline);
    if (gpu_worker_time(&ev->s->w, &req, &res, &guards, st, e) != 0) {
        rc = -1;
        goto done;
    }
    if (guards.n_guards) {
        ec->status = EVAL_RUNTIME_ERROR;
        snprintf(ec->message, sizeof ec->message, "wrote out of bounds of buffer %u while being timed",
                 guards.guards[0].buffer);
        rc = 1;
        goto done;
    }
    if (res.plans[0].n == 0) {
        snprintf(ec->timing_note, sizeof ec->timing_note, "%s", res.note[0] ? res.note : "not timed");
        goto done;
    }
    Summary cand = stats_summarise(res.plans[0].ms, (int)res.plans[0].n);
    ec->median_ms = cand.median;
    ec->iqr_ms = cand.iqr;
    ec->min_ms = cand.min;
    ec->spread = cand.spread;
    ec->timed_runs = cand.n;
    ec->dropped = (int)res.plans[0].dropped;
    ec->cupti_ms = res.plans[0].cupti_ms;
    ec->window_ms = res.window_ms;
    ec->clock_min_mhz = (int)res.clock_min_mhz;
    ec->clock_max_mhz = (int)res.clock_max_mhz;
    if (ev->o->candidate_is_reference)
        note_reference_ms(ev, c, cand.median, REF_TIME_TIMED);
    if (res.n_plans == 2) {
        Summary base = stats_summarise(res.plans[1].ms, (int)res.plans[1].n);
        if (res.plans[1].n > 0)
            note_reference_ms(ev, c, base.median, REF_TIME_TIMED); /* the baseline is the reference */
        ec->baseline_ms = base.median;
        ec->baseline_cupti_ms = res.plans[1].cupti_ms;
        ec->speedup = cand.median > 0 ? base.median / cand.median : NAN;
        ec->flagged = ec->speedup > EVAL_SPEEDUP_FLAG;
        ec->baseline_kind = "reference-cuda";
    } else if (is_torch(p) && !ev->base_lp) {
        torch_eager_baseline(ev, c, seed, host, bytes, ec);
    }
    if (res.note[0] && !ec->timing_note[0])
        snprintf(ec->timing_note, sizeof ec->timing_note, "%s", res.note);
done:
    run_outcome_release(&guards);
    wp_time_result_release(&res);
    wp_time_request_release(&req);
    return rc;
}

/* The measured pass over config c (cupti_profile.h): fresh inputs, one
 * range over the plan, replays as the metrics need.  Fills ec->profile.
 * 0: measured or not possible (the status says why; a profiler the
 * machine refuses is said once on o->progress and not asked again);
 * 1: the candidate failed while profiled (ec says how); -1 with *st and
 * e: the worker failed. */
static int profile_config(Eval *ev, const ProblemConfig *c, EvalConfig *ec, void **host, const uint64_t *bytes,
                          WpStatus *st, Error *e)
{
    const Problem *p = ev->p;
    EvalSession *s = ev->s;
    ProfileResult *pr = &ec->profile;
    if (s->profile_refused != PROFILE_NOT_RUN) {
        pr->status = s->profile_refused;
        snprintf(pr->note, sizeof pr->note, "%s", s->profile_note);
        return 0;
    }
    WpProfileRequest req;
    memset(&req, 0, sizeof req);
    RunOutcome guards = {0};
    int rc = 0;
    if (upload_and_poison(ev, host, bytes, st, e) != 0)
        return -1;
    Error pe;
    if (build_run(ev, c, 1, &req.plan, &pe) != 0) {
        pr->status = PROFILE_FAILED;
        snprintf(pr->note, sizeof pr->note, "not profiled: %s", pe.msg);
        return 0;
    }
    for (int i = 0; i < p->n_args; i++)
        if (ev->buf_of_arg[i] >= 0 && p->args[i].role == ROLE_INOUT)
            req.restore[req.n_restore++] = (uint32_t)ev->buf_of_arg[i];
    req.flush_mib = ev->o->timing.flush_mib;
    req.deadline_ms = deadline_ms(&ev->deadline);
    req.max_passes = (uint32_t)(ev->o->profile_max_passes >= 0 ? ev->o->profile_max_passes : 64);
    if (gpu_worker_profile(&s->w, &req, pr, &guards, st, e) != 0) {
        rc = -1;
        goto done;
    }
    if (guards.n_guards) {
        ec->status = EVAL_RUNTIME_ERROR;
        snprintf(ec->message, sizeof ec->message, "wrote out of bounds of buffer %u while being profiled",
                 guards.guards[0].buffer);
        rc = 1;
        goto done;
    }
    if (pr->status == PROFILE_DENIED || pr->status == PROFILE_UNAVAILABLE) {
        s->profile_refused = pr->status;
        snprintf(s->profile_note, sizeof s->profile_note, "%s", pr->note);
        if (ev->o->progress) {
            fprintf(ev->o->progress, "harness: no measured metrics (%s): %s; the static report stands\n",
                    profile_status_name(pr->status), pr->note);
            fflush(ev->o->progress);
        }
    }
    profile_take(pr);
    profile_derive_for(pr, p, c, ev->word_bytes);
done:
    run_outcome_release(&guards);
    wp_profile_request_release(&req);
    return rc;
}

/* Says once per session that a trial was not kept by the session's cache
 * (ref_cache.h), so every candidate pays for it again: on o->progress, or
 * on stderr when that is NULL (a run's workers), since it changes what a
 * whole run costs. */
static void say_not_kept(Eval *ev, const ProblemConfig *c, RefCacheKeep k, const RefBuffers *rb)
{
    const Problem *p = ev->p;
    FILE *f = ev->o->progress ? ev->o->progress : stderr;
    if ((k != REF_CACHE_TOO_LARGE && k != REF_CACHE_FULL) || ev->s->said_not_kept)
        return;
    double mib = 0;
    for (int i = 0; i < p->n_args; i++)
        if (arg_role_is_buffer(p->args[i].role))
            mib += (arg_role_is_input(p->args[i].role) + arg_role_is_output(p->args[i].role)) * (double)rb->count[i] *
                   dtype_size(p->args[i].dtype) / 1048576.0;
    fprintf(f,
            "harness: %s config %s: a trial (%.1f MiB of inputs and outputs) %s the trial cache's cap of %.1f MiB "
            "(%s): each candidate regenerates its inputs and reruns the reference (said once)\n",
            p->name, c->name, mib, k == REF_CACHE_TOO_LARGE ? "is larger than" : "does not fit, beside earlier trials, in",
            ref_cache_cap(ev->s->refs) / 1048576.0, REF_CACHE_ENV);
    fflush(f);
    ev->s->said_not_kept = 1;
}

/* A buffer's guard reading on trial t: its pattern's values on even trials
 * (the first included, so one trial is what it always was); on odd ones,
 * a buffer of integers reads as small indices and one of floats as the
 * values of the other sign (guard_zone.h): the threads past an end whose
 * index checks skipped the large values, or whose in-place map left the
 * positive ones as they were, show there. */
static GuardReading guard_reading_of(DType t, int trial)
{
    if (trial % 2 == 0)
        return GUARD_VALUES;
    return dtype_is_float(t) ? GUARD_VALUES_NEGATED : (GuardReading)dtype_size(t);
}

/* Every worker buffer's guard reading on trial t, into reading[ev->n_bufs]. */
static void guard_readings(const Eval *ev, int trial, GuardReading *reading)
{
    const Problem *p = ev->p;
    memset(reading, GUARD_VALUES, (size_t)ev->n_bufs);
    for (int i = 0; i < p->n_args; i++)
        if (ev->buf_of_arg[i] >= 0)
            reading[ev->buf_of_arg[i]] = guard_reading_of(p->args[i].dtype, trial);
    for (int s = 0; s < ev->lp->n_scratch; s++)
        reading[ev->n_problem_bufs + s] = guard_reading_of(ev->lp->scratch[s].dtype, trial);
    for (int s = 0; ev->base_lp && s < ev->base_lp->n_scratch; s++)
        reading[ev->n_problem_bufs + ev->lp->n_scratch + s] = guard_reading_of(ev->base_lp->scratch[s].dtype, trial);
}

/* The CPU backend's --racecheck: out's hazards fail a config that passed
 * (wrong_result, as compute-sanitizer's do on the GPU), and explain a wrong
 * result. */
static void cpu_race_verdict(EvalConfig *ec, const RunOutcome *out)
{
    char said[768];
    snprintf(said, sizeof said, "shared-memory race (CPU backend racecheck: %llu hazard%s): %s",
             (unsigned long long)out->n_races, out->n_races == 1 ? "" : "s", out->race);
    if (ec->status == EVAL_PASS) {
        ec->status = EVAL_WRONG_RESULT;
        snprintf(ec->message, sizeof ec->message, "%s", said);
    } else if (ec->status == EVAL_WRONG_RESULT) {
        size_t len = strlen(ec->message);
        snprintf(ec->message + len, sizeof ec->message - len, "; %s", said);
    }
}

/* For one execution of `plan` on a trial's buffers: uploads the inputs
 * (host[]), poisons the outputs and the plan's scratch (buffers from
 * scratch_base on).  -1 with *st and e when the worker failed. */
static int upload_trial(Eval *ev, const LaunchPlan *plan, int scratch_base, void **host, const uint64_t *bytes,
                        WpStatus *st, Error *e)
{
    uint8_t pat[8];
    if (upload_problem_buffers(ev, host, bytes, st, e) != 0)
        return -1;
    for (int s = 0; s < plan->n_scratch; s++) {
        inputs_poison(plan->scratch[s].dtype, pat, 1);
        if (gpu_worker_fill(&ev->s->w, (uint32_t)(scratch_base + s), pat, (uint32_t)dtype_size(plan->scratch[s].dtype),
                            st, e) != 0)
            return -1;
    }
    return 0;
}

/* The message of guard violation g of an execution of `plan` (its scratch
 * from buffer scratch_base on), into msg[0..len). */
static void guard_message(const Eval *ev, const LaunchPlan *plan, int scratch_base, const GuardViolation *g,
                          const uint64_t *bytes, char *msg, size_t len)
{
    const Problem *p = ev->p;
    const char *name = (int)g->buffer >= scratch_base && (int)g->buffer < scratch_base + plan->n_scratch
                           ? plan->scratch[g->buffer - (uint32_t)scratch_base].name
                           : "?";
    for (int i = 0; i < p->n_args; i++)
        if (ev->buf_of_arg[i] == (int)g->buffer)
            name = p->args[i].name;
    if (g->offset < 0)
        snprintf(msg, len, "wrote out of bounds: %lld bytes before the start of '%s'", (long long)-g->offset, name);
    else
        snprintf(msg, len, "wrote out of bounds: '%s' has %llu bytes, the kernel wrote byte %lld (%lld past the end)",
                 name, (unsigned long long)bytes[g->buffer], (long long)g->offset,
                 (long long)(g->offset - (int64_t)bytes[g->buffer]));
}

/* The golden outputs of config ec could not be made (msg says why; it may
 * be ec->message).  Not the candidate's fault, so a reference_error,
 * unless the candidate is that very reference: then it is its own verdict
 * `own`, found on its first execution instead of its second. */
static void golden_failed(const Eval *ev, EvalConfig *ec, EvalStatus own, const char *msg)
{
    char said[sizeof ec->message];
    snprintf(said, sizeof said, "%s", msg);
    if (ev->o->candidate_is_reference) {
        ec->status = own;
        snprintf(ec->message, sizeof ec->message, "its execution that gives the golden outputs: %s", said);
    } else {
        ec->status = EVAL_REFERENCE_ERROR;
        snprintf(ec->message, sizeof ec->message,
                 "no golden outputs: the reference CUDA implementation failed on this config: %s", said);
    }
}

/* The image of the reference CUDA implementation that gives golden
 * outputs, compiled once per candidate for the backend (the candidate's
 * own when it is the same source); a failure stays in ev->gold_error, and
 * every golden config reports it. */
static void golden_prepare(Eval *ev)
{
    const EvalOptions *o = ev->o;
    ev->gold_ready = 1;
    if (!o->golden_source || !o->golden_plan) {
        snprintf(ev->gold_error, sizeof ev->gold_error, "the program's reference CUDA implementation was not given");
        return;
    }
    if (ev->cubin && strcmp(o->golden_source, ev->kernel_source) == 0) {
        ev->gold_cubin = ev->cubin;
        ev->gold_cubin_len = ev->cubin_len;
        return;
    }
    NvrtcResult gr;
    Error ge;
    memset(&gr, 0, sizeof gr);
    if (compile_for_backend(o, o->golden_source, ev->r->arch, &gr, &ge) != 0) {
        snprintf(ev->gold_error, sizeof ev->gold_error, "it does not compile: %s",
                 gr.compile_error && gr.log && *gr.log ? gr.log : ge.msg);
    } else {
        ev->gold_owned = gr.cubin; /* taken over: freed with the evaluation */
        ev->gold_cubin = gr.cubin;
        ev->gold_cubin_len = gr.cubin_len;
        gr.cubin = NULL;
    }
    nvrtc_result_release(&gr);
}

/* Sizes (gbytes) and guard readings of an execution of the golden plan on
 * config c: the problem's buffers as the candidate has them (bytes), then
 * the plan's own scratch.  -1 with e when the plan does not fit c. */
static int golden_layout(const Eval *ev, const ProblemConfig *c, int trial, const uint64_t *bytes, uint64_t *gbytes,
                         GuardReading *reading, Error *e)
{
    const Problem *p = ev->p;
    const LaunchPlan *gl = ev->o->golden_plan;
    for (int i = 0; i < p->n_args; i++) {
        int b = ev->buf_of_arg[i];
        if (b >= 0) {
            gbytes[b] = bytes[b];
            reading[b] = guard_reading_of(p->args[i].dtype, trial);
        }
    }
    for (int k = 0; k < gl->n_scratch; k++) {
        int64_t count;
        if (launch_scratch_count(gl, k, p, c, &count, e) != 0)
            return -1;
        gbytes[ev->n_problem_bufs + k] = (uint64_t)count * dtype_size(gl->scratch[k].dtype);
        reading[ev->n_problem_bufs + k] = guard_reading_of(gl->scratch[k].dtype, trial);
    }
    return 0;
}

/* 1 with msg when input a, `count` elements, holds in `now` anything else
 * than it held when uploaded (`was`): the kernel modified its input. */
static int input_modified(const ProblemArg *a, const void *now, const void *was, int64_t count, char *msg, size_t len)
{
    int64_t at = compare_first_change(a->dtype, now, was, count);
    if (at < 0)
        return 0;
    snprintf(msg, len, "the kernel modified its input '%s' (element %lld: %.9g, was %.9g)", a->name, (long long)at,
             inputs_get(a->dtype, now, at), inputs_get(a->dtype, was, at));
    return 1;
}

/* Downloads the golden execution's outputs into rb (the trial's reference
 * outputs from now on) and checks that it left its inputs as uploaded
 * (host[]).  0; 1 with msg when it modified an input; -1 with *st and e
 * when the worker failed. */
static int golden_collect(Eval *ev, RefBuffers *rb, void **host, const uint64_t *bytes, char *msg, size_t len,
                          WpStatus *st, Error *e)
{
    const Problem *p = ev->p;
    int rc = 0;
    void *back = NULL;
    for (int i = 0; i < p->n_args && rc == 0; i++) {
        const ProblemArg *a = &p->args[i];
        int b = ev->buf_of_arg[i];
        if (b < 0)
            continue;
        if (arg_role_is_output(a->role)) {
            rc = gpu_worker_download(&ev->s->w, (uint32_t)b, rb->data[i], bytes[b], st, e);
            continue;
        }
        back = xrealloc(back, bytes[b] + 1);
        rc = gpu_worker_download(&ev->s->w, (uint32_t)b, back, bytes[b], st, e);
        if (rc == 0 && input_modified(a, back, host[b], (int64_t)(bytes[b] / dtype_size(a->dtype)), msg, len))
            rc = 1;
    }
    free(back);
    return rc;
}

/* The golden outputs of config c on this trial (EvalOptions.golden): the
 * reference CUDA implementation executes once in the session's worker on
 * the trial's inputs (host[], exactly what the candidate gets next), on
 * buffers of its own, outputs and scratch poisoned, guards and inputs
 * checked as a candidate's are; its outputs land in rb.  Its time is the
 * reference's, for later deadlines.  0: rb holds them; 1: they could not
 * be made (ec says why, golden_failed); -1 with e when the evaluation
 * itself cannot go on (no GPU).  Module slot 0 holds the reference
 * afterwards: s->loaded is cleared, so ensure_worker loads the candidate
 * again (a LOAD costs about 0.1 ms, the protocol is unchanged). */
static int golden_run(Eval *ev, const ProblemConfig *c, int trial, RefBuffers *rb, void **host, const uint64_t *bytes,
                      EvalConfig *ec, int *no_gpu, Error *e)
{
    EvalSession *s = ev->s;
    const LaunchPlan *gl = ev->o->golden_plan;
    int rc = 1, n = ev->n_problem_bufs + (gl ? gl->n_scratch : 0);
    WpStatus st = WP_OK;
    WpRun run = {0};
    RunOutcome out = {0};
    Error te;
    char msg[1024];
    uint64_t *gbytes = xcalloc((size_t)n + 1, sizeof *gbytes);
    GuardReading *reading = xcalloc((size_t)n + 1, sizeof *reading);
    if (!ev->gold_ready)
        golden_prepare(ev);
    if (ev->gold_error[0]) {
        golden_failed(ev, ec, EVAL_COMPILE_ERROR, ev->gold_error);
        goto done;
    }
    use_deadline(ev, c, ec);
    if (golden_layout(ev, c, trial, bytes, gbytes, reading, &te) != 0 ||
        build_plan_run(ev, gl, ev->n_problem_bufs, c, 1, &run, &te) != 0) {
        snprintf(msg, sizeof msg, "launch plan: %s", te.msg);
        golden_failed(ev, ec, EVAL_RUNTIME_ERROR, msg);
        goto done;
    }
    if (session_ensure(s, no_gpu, e) != 0) {
        rc = -1;
        goto done;
    }
    s->loaded = 0; /* slot 0 holds the reference from here on */
    if (gpu_worker_load(&s->w, ev->gold_cubin, ev->gold_cubin_len, &st, &te) != 0 ||
        gpu_worker_alloc(&s->w, gbytes, reading, (uint32_t)n, &st, &te) != 0 ||
        upload_trial(ev, gl, ev->n_problem_bufs, host, gbytes, &st, &te) != 0 ||
        gpu_worker_run(&s->w, &run, &out, &st, &te) != 0)
        goto worker;
    if (out.n_ms)
        note_reference_ms(ev, c, out.ms[0], REF_TIME_RUN); /* the reference's own time on c: deadlines */
    if (out.n_guards) {
        guard_message(ev, gl, ev->n_problem_bufs, &out.guards[0], gbytes, msg, sizeof msg);
        golden_failed(ev, ec, EVAL_RUNTIME_ERROR, msg);
        goto done;
    }
    int got = golden_collect(ev, rb, host, gbytes, msg, sizeof msg, &st, &te);
    if (got < 0)
        goto worker;
    if (got > 0) {
        golden_failed(ev, ec, EVAL_WRONG_RESULT, msg);
        goto done;
    }
    rc = 0;
done:
    wp_run_release(&run);
    run_outcome_release(&out);
    free(gbytes);
    free(reading);
    return rc;
worker:
    worker_failed(ev, ec, st, &te); /* the worker is gone: the candidate's trial starts a fresh one */
    golden_failed(ev, ec, ec->status, ec->message);
    goto done;
}

/* A trial the session's cache kept for the other kind of reference (the C
 * one, or golden outputs) is no answer for this config. */
static int kept_for_other_reference(const Eval *ev, const RefTrial *kept)
{
    int golden_kept = kept->kind && strcmp(kept->kind, GOLDEN_REFERENCE_KIND) == 0;
    return golden_kept != ev->golden_now;
}

/* One trial: reference on the CPU, candidate on the GPU, compare.  Sets
 * ec->status (leaves it EVAL_PASS when everything matched).  -1 only for
 * failures of the evaluation itself. */
static int run_trial(Eval *ev, const ProblemConfig *c, int trial, uint64_t seed, int time_it, int profile_it,
                     EvalConfig *ec, int *no_gpu, Error *e)
{
    const Problem *p = ev->p;
    const LaunchPlan *lp = ev->lp;
    int rc = 0, n = ev->n_bufs;
    WpStatus st = WP_OK;
    WpRun run = {0};
    RunOutcome out = {0};
    RefBuffers rb;
    memset(&rb, 0, sizeof rb);
    double traced = wp_now();
    uint64_t *bytes = xcalloc((size_t)n + 1, sizeof *bytes);
    GuardReading *reading = xcalloc((size_t)n + 1, sizeof *reading);
    void **host = xcalloc((size_t)n + 1, sizeof *host);   /* inputs as uploaded; ours unless borrowed */
    unsigned char *borrowed = xcalloc((size_t)n + 1, 1);  /* host[b] is the session cache's (not freed) */
    void **back = xcalloc((size_t)n + 1, sizeof *back);   /* what came back */
    const void **want = xcalloc((size_t)p->n_args + 1, sizeof *want); /* the reference's outputs */
    Error te;

    /* The trial: inputs and the reference's outputs.  Another candidate of
     * this program may have run this very trial (the inputs are a pure
     * function of problem, config and seed): the session's cache then
     * lends its inputs byte for byte and the reference's outputs (valid
     * until the next call on the cache, after this trial), so nothing is
     * drawn, run or copied. */
    RefTrial kept;
    int hit = ref_cache_fetch(ev->s->refs, p, c, seed, &kept);
    if (hit && kept_for_other_reference(ev, &kept))
        hit = 0; /* computed afresh, and not kept (the cache holds that trial already) */
    if ((hit ? cref_buffers_alloc(&rb, p, c, e) : cref_buffers_init(&rb, p, c, seed, e)) != 0)
        goto done_rc;
    if (is_torch(p) && !hit) {
        /* the runner writes the outputs and the "w." buffers (the model's
         * parameters, inputs of the candidate) and modifies nothing else */
        const char *dev = ev->s->backend != BACKEND_CPU && torch_runner_has_cuda(ev->s->torch) ? "cuda" : "cpu";
        ec->reference_kind = strcmp(dev, "cuda") == 0 ? "torch-cuda" : "torch-cpu";
        int ran = strcmp(dev, "cuda") == 0 ? session_turn(ev->s, GPU_USE_SHARED, &te) : 0;
        if (ran == 0) {
            ran = torch_ref_problem_run(ev->s->torch, p, ev->ref_source, p->name, c, seed, dev, rb.data, rb.count,
                                        NULL, &te);
            gpu_share_leave(&ev->s->share);
        }
        if (ran != 0) {
            ec->status = EVAL_REFERENCE_ERROR;
            snprintf(ec->message, sizeof ec->message, "the torch reference failed: %s", te.msg);
            goto done;
        }
        rb.run_seconds = -1; /* no C program ran: no one-core time (torch's is the baseline, timed) */
    }
    /* the candidate's inputs, kept before a C reference runs (it
     * overwrites inout buffers): the candidate gets these very bytes */
    for (int i = 0; i < p->n_args; i++) {
        int b = ev->buf_of_arg[i];
        if (b < 0)
            continue;
        bytes[b] = (uint64_t)rb.count[i] * dtype_size(p->args[i].dtype);
        back[b] = xmalloc(bytes[b] + 1);
        want[i] = hit ? kept.outputs[i] : rb.data[i];
        if (hit && arg_role_is_input(p->args[i].role)) {
            host[b] = (void *)kept.inputs[i];   /* only read: uploads and comparisons */
            borrowed[b] = 1;
            continue;
        }
        host[b] = xmalloc(bytes[b] + 1);
        if (arg_role_is_input(p->args[i].role))
            parallel_copy(host[b], rb.data[i], bytes[b]);
    }
    traced = cost_trace("parent", "inputs", traced);
    if (hit) {
        rb.run_seconds = kept.run_seconds;
        if (kept.kind)
            ec->reference_kind = kept.kind;
    } else {
        say_not_kept(ev, c, ref_cache_begin(ev->s->refs, p, c, seed, &rb), &rb);
        SandboxLimits lim = sandbox_default_limits();
        if (ev->golden_now) {
            int g = golden_run(ev, c, trial, &rb, host, bytes, ec, no_gpu, e);
            if (g < 0)
                goto done_rc;
            if (g > 0)
                goto done; /* ec says why */
            ec->reference_kind = GOLDEN_REFERENCE_KIND;
            rb.run_seconds = -1; /* no C program ran */
        } else if (!is_torch(p) && cref_run(ev->so_path, p, &rb, &lim, &te) != 0) {
            ec->status = EVAL_REFERENCE_ERROR;
            snprintf(ec->message, sizeof ec->message, "the C reference failed: %s", te.msg);
            goto done;
        }
        ref_cache_finish(ev->s->refs, p, c, seed, &rb, ev->golden_now ? GOLDEN_REFERENCE_KIND
                                                       : is_torch(p)   ? ec->reference_kind
                                                                       : NULL);
    }
    traced = cost_trace("parent", "reference", traced);
    if (rb.run_seconds >= 0 && !(rb.run_seconds * 1e3 >= ec->reference_cpu_ms))
        ec->reference_cpu_ms = rb.run_seconds * 1e3;   /* fastest trial */
    for (int s = 0; s < lp->n_scratch; s++) {
        int64_t count;
        if (launch_scratch_count(lp, s, p, c, &count, &te) != 0) {
            ec->status = EVAL_RUNTIME_ERROR;
            snprintf(ec->message, sizeof ec->message, "launch plan: %s", te.msg);
            goto done;
        }
        bytes[ev->n_problem_bufs + s] = (uint64_t)count * dtype_size(lp->scratch[s].dtype);
    }
    for (int s = 0; ev->base_lp && s < ev->base_lp->n_scratch; s++) {
        int64_t count = 0;
        if (launch_scratch_count(ev->base_lp, s, p, c, &count, &te) != 0) {
            *e = te;
            error_prefix(e, "the baseline's launch plan");
            goto done_rc;
        }
        bytes[ev->n_problem_bufs + lp->n_scratch + s] = (uint64_t)count * dtype_size(ev->base_lp->scratch[s].dtype);
    }
    use_deadline(ev, c, ec);
    if (build_run(ev, c, 1, &run, &te) != 0) {
        ec->status = EVAL_RUNTIME_ERROR;
        snprintf(ec->message, sizeof ec->message, "launch plan: %s", te.msg);
        goto done;
    }

    /* the candidate */
    int w = ensure_worker(ev, &st, no_gpu, &te);
    if (w < 0) {
        *e = te;
        goto done_rc;
    }
    if (w == 1) {
        worker_failed(ev, ec, st, &te);
        goto done;
    }
    traced = cost_trace("parent", "worker", traced);
#define GPU(call)                                                                                                      \
    do {                                                                                                               \
        if ((call) != 0) {                                                                                             \
            worker_failed(ev, ec, st, &te);                                                                            \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)
    guard_readings(ev, trial, reading);
    GPU(gpu_worker_alloc(&ev->s->w, bytes, reading, (uint32_t)n, &st, &te));
    traced = cost_trace("parent", "alloc", traced);
    GPU(upload_trial(ev, lp, ev->n_problem_bufs, host, bytes, &st, &te));
    traced = cost_trace("parent", "upload", traced);
    GPU(gpu_worker_run(&ev->s->w, &run, &out, &st, &te));
    traced = cost_trace("parent", "run", traced);
    note_reference_run(ev, c, &out);
    if (out.n_guards) {
        ec->status = EVAL_RUNTIME_ERROR;
        guard_message(ev, lp, ev->n_problem_bufs, &out.guards[0], bytes, ec->message, sizeof ec->message);
        goto done;
    }
    for (int i = 0; i < p->n_args; i++) {
        int b = ev->buf_of_arg[i];
        if (b >= 0)
            GPU(gpu_worker_download(&ev->s->w, (uint32_t)b, back[b], bytes[b], &st, &te));
    }

    traced = cost_trace("parent", "download", traced);
    /* inputs unchanged, then outputs */
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        int b = ev->buf_of_arg[i];
        if (b < 0 || a->role != ROLE_IN)
            continue;
        if (input_modified(a, back[b], host[b], (int64_t)(bytes[b] / dtype_size(a->dtype)), ec->message,
                           sizeof ec->message)) {
            ec->status = EVAL_WRONG_RESULT;
            goto done;
        }
    }
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        int b = ev->buf_of_arg[i];
        if (b < 0 || !arg_role_is_output(a->role))
            continue;
        CompareResult cmp;
        compare_buffers(a->dtype, back[b], want[i], rb.count[i], p->atol, p->rtol, &cmp);
        keep_cmp(ec, a->name, &cmp);
        if (cmp.n_bad && ec->status == EVAL_PASS) {
            ec->status = EVAL_WRONG_RESULT;
            snprintf(ec->message, sizeof ec->message,
                     "'%s': %lld of %lld elements outside tolerance (atol %g, rtol %g); first at index %lld: got "
                     "%.9g, expected %.9g",
                     a->name, (long long)cmp.n_bad, (long long)cmp.n, p->atol, p->rtol, (long long)cmp.first_bad,
                     cmp.got, cmp.want);
        }
    }
    if (out.race) /* the CPU backend's --racecheck: a hazard fails the config as racecheck's does */
        cpu_race_verdict(ec, &out);
    traced = cost_trace("parent", "compare", traced);
    if (ec->status != EVAL_PASS || (!time_it && !profile_it))
        goto done;
    if (!time_it)
        goto profile;

    /* timing (gpu_timing.h), then the candidate once more on fresh
     * buffers: what it computes after being timed must still be right */
    use_deadline(ev, c, ec); /* the reference may have just measured itself */
    int tr = time_config(ev, c, seed, ec, host, bytes, &st, &te);
    if (tr < 0) {
        worker_failed(ev, ec, st, &te);
        goto done;
    }
    traced = cost_trace("parent", "timing", traced);
    if (tr > 0 || ec->status != EVAL_PASS)
        goto done;
    GPU(upload_and_poison(ev, host, bytes, &st, &te));
    run_outcome_release(&out);
    GPU(gpu_worker_run(&ev->s->w, &run, &out, &st, &te));
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        int b = ev->buf_of_arg[i];
        if (b < 0 || !arg_role_is_output(a->role))
            continue;
        GPU(gpu_worker_download(&ev->s->w, (uint32_t)b, back[b], bytes[b], &st, &te));
        CompareResult cmp;
        compare_buffers(a->dtype, back[b], want[i], rb.count[i], p->atol, p->rtol, &cmp);
        if (cmp.n_bad) {
            ec->status = EVAL_WRONG_RESULT;
            ec->cmp = cmp;
            snprintf(ec->buffer, sizeof ec->buffer, "%s", a->name);
            snprintf(ec->message, sizeof ec->message,
                     "'%s' is wrong after the timed runs (%lld of %lld elements outside tolerance; first at index "
                     "%lld: got %.9g, expected %.9g): the kernel behaves differently once it has run many times",
                     a->name, (long long)cmp.n_bad, (long long)cmp.n, (long long)cmp.first_bad, cmp.got, cmp.want);
            break;
        }
    }
    traced = cost_trace("parent", "after-timing-check", traced);
profile:
    /* the measured pass, apart from everything timed */
    if (profile_it && ec->status == EVAL_PASS) {
        use_deadline(ev, c, ec);
        int pr = profile_config(ev, c, ec, host, bytes, &st, &te);
        if (pr < 0)
            worker_failed(ev, ec, st, &te);
    }
#undef GPU
done:
    wp_run_release(&run);
    run_outcome_release(&out);
    cref_buffers_release(&rb);
    for (int i = 0; i < n; i++) {
        if (!borrowed[i])
            free(host[i]);
        free(back[i]);
    }
    free(host);
    free(borrowed);
    free(back);
    free(want);
    free(bytes);
    free(reading);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

/* Config configs[k] of the candidate: its trials (timing and profile on
 * the last), unless a load failure before the first config decided it
 * already.  -1 with e only when the evaluation itself cannot go on. */
static int eval_config(Eval *ev, int k, int *no_gpu, Error *e)
{
    const EvalOptions *o = ev->o;
    EvalConfig *ec = &ev->r->configs[k];
    if (ec->status != EVAL_NOT_RUN) /* a load failure recorded before the configs */
        return 0;
    const ProblemConfig *const c = ec->config;
    int timed_k = ev->timed_k;
    ev->golden_now = o->golden && o->golden[k];
    ec->status = EVAL_PASS;
    int trials = o->trials < 1 ? 1 : o->trials;
    for (int t = 0; t < trials && ec->status == EVAL_PASS; t++) {
        int time_it = t == trials - 1 && o->timing_runs > 0 && o->backend != BACKEND_CPU &&
                      (o->time_all_configs || k == timed_k);
        int profile_it = t == trials - 1 && o->profile && o->backend != BACKEND_CPU;
        if (run_trial(ev, c, t, o->seed + (uint64_t)t, time_it, profile_it, ec, no_gpu, e) != 0)
            return -1;
        ec->trials++;
    }
    if (ec->status == EVAL_PASS && o->timing_runs > 0 && o->backend != BACKEND_CPU && !o->time_all_configs &&
        k != timed_k && !ec->timing_note[0])
        snprintf(ec->timing_note, sizeof ec->timing_note, "not timed: config %s is the timed one "
                 "(--time-all-configs times every config)", ev->r->configs[timed_k].config->name);
    return 0;
}

/* 1 when the golden configs may not take golden outputs in this
 * evaluation after all, with why[0..len); 0 when they may. */
static int golden_refused(const Eval *ev, char *why, size_t len)
{
    const EvalOptions *o = ev->o;
    const EvalReport *r = ev->r;
    if (ev->s->racecheck) {
        snprintf(why, len, "under --racecheck every candidate runs alone in its sanitized worker, where the "
                           "execution of the reference CUDA implementation that gives them would count against it");
        return 1;
    }
    for (int j = 0; o->golden_after_pass && j < r->n_configs; j++)
        if (!o->golden[j] && r->configs[j].status != EVAL_PASS) {
            snprintf(why, len, "the reference CUDA implementation did not pass config '%s' here (%s)",
                     r->configs[j].config->name, eval_status_name(r->configs[j].status));
            return 1;
        }
    return 0;
}

/* Config configs[k], checked against golden outputs (EvalOptions.golden),
 * or skipped with the reason when they are refused here. */
static int golden_config(Eval *ev, int k, int *no_gpu, Error *e)
{
    EvalConfig *ec = &ev->r->configs[k];
    char why[768];
    if (ec->status == EVAL_NOT_RUN && golden_refused(ev, why, sizeof why)) {
        ec->status = EVAL_SKIPPED;
        ec->reference_kind = NULL;
        snprintf(ec->message, sizeof ec->message,
                 "config '%s' is beyond the C reference's budget and has no golden outputs: %s", ec->config->name,
                 why);
        return 0;
    }
    return eval_config(ev, k, no_gpu, e);
}

/* --racecheck, after the candidate's last config: its worker is stopped
 * (the sanitizer writes its summary as it exits) and a reported hazard
 * fails every config that passed.  A worker killed on the way (a crash,
 * a timeout) took its report with it: those configs failed already. */
static void racecheck_verdict(Eval *ev)
{
    EvalSession *s = ev->s;
    EvalReport *r = ev->r;
    if (!s->worker_up)
        return;
    gpu_worker_stop(&s->w);
    s->worker_up = 0;
    RaceReport race;
    Error le;
    int read = racecheck_read_log(s->race_log, &race, &le);
    char said[1024] = "";
    if (read == 0 && race.errors > 0)
        snprintf(said, sizeof said, "shared-memory race (compute-sanitizer racecheck: %d error%s, %d warning%s)%s%s",
                 race.errors, race.errors == 1 ? "" : "s", race.warnings, race.warnings == 1 ? "" : "s",
                 race.first[0] ? ": " : "", race.first);
    for (int k = 0; k < r->n_configs; k++) {
        EvalConfig *ec = &r->configs[k];
        if (read != 0) {
            if (ec->status == EVAL_PASS)
                snprintf(ec->timing_note, sizeof ec->timing_note, "racecheck: %s", le.msg);
        } else if (said[0] && ec->status == EVAL_PASS) {
            ec->status = EVAL_WRONG_RESULT;
            snprintf(ec->message, sizeof ec->message, "%s", said);
            if (r->status == EVAL_PASS)
                r->status = EVAL_WRONG_RESULT;
        } else if (said[0] && ec->status == EVAL_WRONG_RESULT) {
            /* the race likely explains the wrong numbers: say so */
            size_t len = strlen(ec->message);
            snprintf(ec->message + len, sizeof ec->message - len, "; %s", said);
        }
    }
}

int eval_session_candidate(EvalSession *s, const Problem *p, const char *ref_source, const char *kernel_source,
                           const LaunchPlan *lp, const ProblemConfig *const *configs, int n_configs,
                           const EvalOptions *o, EvalReport *r, int *no_gpu, Error *e)
{
    memset(r, 0, sizeof *r);
    if (no_gpu)
        *no_gpu = 0;
    int rc = 0;
    Eval ev;
    memset(&ev, 0, sizeof ev);
    ev.p = p;
    ev.lp = lp;
    ev.o = o;
    ev.r = r;
    ev.s = s;
    ev.kernel_source = kernel_source;
    s->loaded = 0; /* the previous candidate's module is replaced below */
    NvrtcResult nr;
    memset(&nr, 0, sizeof nr);
    r->status = EVAL_NOT_RUN;
    r->n_configs = n_configs;
    r->configs = xcalloc((size_t)n_configs + 1, sizeof *r->configs);
    for (int k = 0; k < n_configs; k++) {
        EvalConfig *ec = &r->configs[k];
        ec->config = configs[k];
        ec->status = EVAL_NOT_RUN;
        ec->median_ms = ec->iqr_ms = ec->min_ms = ec->spread = ec->cupti_ms = ec->window_ms = NAN;
        ec->reference_cpu_ms = NAN;
        ec->baseline_ms = ec->baseline_cupti_ms = ec->speedup = NAN;
        ec->deadline_s = NAN;
        /* the reference it is checked against, even if it fails before one runs */
        if (o->golden && o->golden[k])
            ec->reference_kind = GOLDEN_REFERENCE_KIND;
        else if (!is_torch(p))
            ec->reference_kind = "cpu"; /* a torch program's says where its runner ran */
        profile_result_init(&ec->profile);
        if (o->profile && o->backend == BACKEND_CPU)
            snprintf(ec->profile.note, sizeof ec->profile.note, "the CPU backend has no hardware counters");
    }
    if (o->profile && o->backend != BACKEND_CPU)
        ev.word_bytes = profile_source_word_bytes(kernel_source);
    if (o->backend == BACKEND_CPU)
        cpu_compiler_short(r->nvrtc_version, sizeof r->nvrtc_version);
    else
        nvrtc_version_string(r->nvrtc_version, sizeof r->nvrtc_version);
    ev.buf_of_arg = xcalloc((size_t)p->n_args + 1, sizeof *ev.buf_of_arg);
    for (int i = 0; i < p->n_args; i++)
        ev.buf_of_arg[i] = arg_role_is_buffer(p->args[i].role) ? ev.n_bufs++ : -1;
    ev.n_problem_bufs = ev.n_bufs;
    ev.n_bufs += lp->n_scratch;
    /* the baseline: the reference CUDA implementation for C programs;
     * torch programs are measured against torch eager instead
     * (torch_eager_baseline) */
    if (o->baseline_plan && o->backend != BACKEND_CPU && o->timing_runs > 0 && !is_torch(p)) {
        ev.base_lp = o->baseline_plan;
        ev.n_bufs += ev.base_lp->n_scratch;
    }

    /* --racecheck: each candidate in a worker of its own, so that the
     * sanitizer's report at the worker's exit is this candidate's */
    if (s->racecheck && s->worker_up && !s->race_fresh) {
        gpu_worker_stop(&s->w);
        s->worker_up = 0;
    }
    /* The GPU first: without one there is nothing to evaluate, and the
     * device decides the default architecture. */
    WpStatus st;
    int w = ensure_worker(&ev, &st, no_gpu, e);
    if (w != 0)
        goto done_rc;
    s->race_fresh = 0;
    snprintf(r->arch, sizeof r->arch, "%s", s->arch);

    Error ce;
    double traced = wp_now();
    if (compile_for_backend(o, kernel_source, r->arch, &nr, &ce) != 0) {
        if (!nr.compile_error) {
            *e = ce;
            rc = -1;
            goto done;
        }
        r->status = EVAL_COMPILE_ERROR;
        r->compile_log = xstrdup(nr.log && *nr.log ? nr.log : ce.msg);
        for (int k = 0; k < n_configs; k++)
            r->configs[k].status = EVAL_COMPILE_ERROR;
        goto done;
    }
    r->compile_log = xstrdup(nr.log ? nr.log : "");
    r->compile_seconds = nr.seconds;
    r->compile_cached = nr.cached;
    ev.cubin = nr.cubin;
    ev.cubin_len = nr.cubin_len;
    traced = cost_trace("parent", "compile", traced);
    if (gpu_worker_load(&s->w, ev.cubin, ev.cubin_len, &st, &ce) != 0)
        /* the first config reports it; a fresh worker retries the load */
        worker_failed(&ev, &r->configs[0], st, &ce);
    else
        s->loaded = 1;

    traced = cost_trace("parent", "load", traced);
    s->base_loaded = 0; /* a new candidate: the baseline is loaded with it */
    if (ev.base_lp) {
        NvrtcResult br;
        Error be;
        memset(&br, 0, sizeof br);
        if (nvrtc_compile(o->baseline_source, r->arch, o->nvrtc_cache, &br, &be) == 0) {
            ev.base_cubin = br.cubin; /* taken over: freed below */
            ev.base_cubin_len = br.cubin_len;
            br.cubin = NULL;
        } else {
            snprintf(r->baseline_note, sizeof r->baseline_note, "the baseline does not compile: %s", be.msg);
            ev.base_lp = NULL;
        }
        nvrtc_result_release(&br);
    }

    ev.ref_source = ref_source;
    if (is_torch(p)) {
        if (session_torch(s, e) != 0) {
            error_prefix(e, "%s", p->name);
            goto done_rc;
        }
    } else if (cref_compile(p, ref_source, o->cref_cache, &ev.so_path, e) != 0) {
        error_prefix(e, "the C reference of %s", p->name);
        goto done_rc;
    }

    cost_trace("parent", "reference-setup", traced);
    r->status = EVAL_PASS;
    ev.timed_k = eval_timed_config(p, configs, n_configs);
    /* the configs with golden outputs last: the reference's own passes on
     * the others may be what allows them (golden_after_pass) */
    for (int golden = 0; golden < 2; golden++)
        for (int k = 0; k < n_configs; k++) {
            if ((o->golden && o->golden[k]) != golden)
                continue;
            if ((golden ? golden_config(&ev, k, no_gpu, e) : eval_config(&ev, k, no_gpu, e)) != 0)
                goto done_rc;
            EvalConfig *ec = &r->configs[k];
            if (ec->status != EVAL_PASS && ec->status != EVAL_SKIPPED && r->status == EVAL_PASS)
                r->status = ec->status;
            if (o->progress) {
                fprintf(o->progress, "harness eval: config %s: %s\n", ec->config->name, eval_status_name(ec->status));
                fflush(o->progress);
            }
        }
    if (s->racecheck)
        racecheck_verdict(&ev);
done:
    s->loaded = 0; /* the module belongs to this candidate */
    nvrtc_result_release(&nr);
    free(ev.so_path);
    free(ev.buf_of_arg);
    free(ev.base_cubin);
    free(ev.gold_owned);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

int eval_session_measure(EvalSession *s, const Problem *p, const char *kernel_source, const LaunchPlan *lp,
                         const ProblemConfig *c, const EvalOptions *o, EvalConfig *ec, int *no_gpu, Error *e)
{
    int rc = 0;
    Eval ev;
    EvalReport r;
    NvrtcResult nr;
    WpRun run = {0};
    RunOutcome out = {0};
    WpStatus st = WP_OK;
    Error te;
    memset(&ev, 0, sizeof ev);
    memset(&r, 0, sizeof r);
    memset(&nr, 0, sizeof nr);
    memset(ec, 0, sizeof *ec);
    ec->config = c;
    ec->status = EVAL_NOT_RUN;
    ec->median_ms = ec->iqr_ms = ec->min_ms = ec->spread = ec->cupti_ms = ec->window_ms = NAN;
    ec->baseline_ms = ec->baseline_cupti_ms = ec->speedup = NAN;
    ec->deadline_s = NAN;
    profile_result_init(&ec->profile);
    ev.p = p;
    ev.lp = lp;
    ev.o = o;
    ev.r = &r;
    ev.s = s;
    ev.word_bytes = profile_source_word_bytes(kernel_source);
    s->loaded = 0;
    ev.buf_of_arg = xcalloc((size_t)p->n_args + 1, sizeof *ev.buf_of_arg);
    for (int i = 0; i < p->n_args; i++)
        ev.buf_of_arg[i] = arg_role_is_buffer(p->args[i].role) ? ev.n_bufs++ : -1;
    ev.n_problem_bufs = ev.n_bufs;
    ev.n_bufs += lp->n_scratch;
    int n = ev.n_bufs;
    uint64_t *bytes = xcalloc((size_t)n + 1, sizeof *bytes);
    void **host = xcalloc((size_t)n + 1, sizeof *host);
    if (session_ensure(s, no_gpu, e) != 0)
        goto done_rc;
    if (nvrtc_compile(kernel_source, s->arch, o->nvrtc_cache, &nr, &te) != 0) {
        if (!nr.compile_error) {
            *e = te;
            goto done_rc;
        }
        ec->status = EVAL_COMPILE_ERROR;
        snprintf(ec->message, sizeof ec->message, "does not compile: %s", nr.log && *nr.log ? nr.log : te.msg);
        goto done;
    }
    ev.cubin = nr.cubin;
    ev.cubin_len = nr.cubin_len;
    char key[sizeof s->measure_key];
    snprintf(key, sizeof key, "%s|%s|%llu", p->name, c->name, (unsigned long long)o->seed);
    if (strcmp(key, s->measure_key) != 0) {
        cref_buffers_release(&s->measure_inputs);
        s->measure_key[0] = '\0';
        if (cref_buffers_init(&s->measure_inputs, p, c, o->seed, e) != 0)
            goto done_rc;
        snprintf(s->measure_key, sizeof s->measure_key, "%s", key);
    }
    const RefBuffers *in = &s->measure_inputs;
    for (int i = 0; i < p->n_args; i++) {
        int b = ev.buf_of_arg[i];
        if (b < 0)
            continue;
        bytes[b] = (uint64_t)in->count[i] * dtype_size(p->args[i].dtype);
        host[b] = xmalloc(bytes[b] + 1);
        if (arg_role_is_input(p->args[i].role))
            memcpy(host[b], in->data[i], bytes[b]);
    }
    for (int k = 0; k < lp->n_scratch; k++) {
        int64_t count;
        if (launch_scratch_count(lp, k, p, c, &count, &te) != 0) {
            ec->status = EVAL_RUNTIME_ERROR;
            snprintf(ec->message, sizeof ec->message, "launch plan: %s", te.msg);
            goto done;
        }
        bytes[ev.n_problem_bufs + k] = (uint64_t)count * dtype_size(lp->scratch[k].dtype);
    }
    use_deadline(&ev, c, ec);
    if (build_run(&ev, c, 1, &run, &te) != 0) {
        ec->status = EVAL_RUNTIME_ERROR;
        snprintf(ec->message, sizeof ec->message, "launch plan: %s", te.msg);
        goto done;
    }
    int w = ensure_worker(&ev, &st, no_gpu, &te);
    if (w < 0) {
        *e = te;
        goto done_rc;
    }
    if (w == 1 || gpu_worker_alloc(&s->w, bytes, NULL, (uint32_t)n, &st, &te) != 0 ||
        upload_and_poison(&ev, host, bytes, &st, &te) != 0 || gpu_worker_run(&s->w, &run, &out, &st, &te) != 0) {
        worker_failed(&ev, ec, st, &te);
        goto done;
    }
    note_reference_run(&ev, c, &out);
    if (out.n_guards) {
        ec->status = EVAL_RUNTIME_ERROR;
        snprintf(ec->message, sizeof ec->message, "wrote out of bounds of buffer %u", out.guards[0].buffer);
        goto done;
    }
    ec->status = EVAL_PASS;
    ec->trials = 1;
    int pr = profile_config(&ev, c, ec, host, bytes, &st, &te);
    if (pr < 0)
        worker_failed(&ev, ec, st, &te);
done:
    s->loaded = 0;
    wp_run_release(&run);
    run_outcome_release(&out);
    for (int i = 0; i < n; i++)
        free(host[i]);
    free(host);
    free(bytes);
    free(ev.buf_of_arg);
    nvrtc_result_release(&nr);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

int eval_candidate(const Problem *p, const char *ref_source, const char *kernel_source, const LaunchPlan *lp,
                   const ProblemConfig *const *configs, int n_configs, const EvalOptions *o, EvalReport *r,
                   int *no_gpu, Error *e)
{
    EvalSession s;
    memset(r, 0, sizeof *r);
    if (eval_session_open(&s, o, no_gpu, e) != 0) {
        eval_session_close(&s);
        return -1;
    }
    int rc = eval_session_candidate(&s, p, ref_source, kernel_source, lp, configs, n_configs, o, r, no_gpu, e);
    eval_session_close(&s);
    return rc;
}

void eval_report_release(EvalReport *r)
{
    free(r->compile_log);
    free(r->configs);
    memset(r, 0, sizeof *r);
}
