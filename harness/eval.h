/* eval.h — evaluate one CUDA candidate against its C reference on the GPU.
 *
 * For each chosen configuration and each of several trials (fresh seeds):
 * the C reference runs on the CPU in the sandbox (cref.h) and the candidate
 * runs in a GPU worker (gpu_worker.h) on byte-identical inputs (inputs.h on
 * the host, copied); outputs and scratch start poisoned; every buffer is a
 * separate allocation with guard zones; afterwards outputs are compared
 * (compare.h), `in` buffers must be unchanged and guards intact.  A crash or
 * hang ends only the worker: it is killed, the configuration gets
 * runtime_error or timeout, and a fresh worker serves the next one.
 * A config whose C reference is beyond its budget may instead be checked
 * against golden outputs of the program's reference CUDA implementation,
 * executed in the same worker on the same inputs (EvalOptions.golden,
 * golden.h).  Configurations that pass are timed (EvalOptions.timing). */
#ifndef CUDAPERF_EVAL_H
#define CUDAPERF_EVAL_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/launch.h"
#include "common/problem.h"
#include "harness/compare.h"
#include "harness/cref.h"
#include "harness/deadline.h"
#include "harness/gpu_worker.h"
#include "harness/profile_metrics.h"

/* Speedups above this are flagged for review in results (a 10x win over a
 * competent reference is more often a measurement or correctness hole). */
#define EVAL_SPEEDUP_FLAG 10.0

typedef enum EvalStatus {
    EVAL_PASS,
    EVAL_WRONG_RESULT,
    EVAL_RUNTIME_ERROR,
    EVAL_TIMEOUT,
    EVAL_COMPILE_ERROR,
    EVAL_REFERENCE_ERROR, /* the reference (C, torch, or the CUDA one giving golden outputs) failed on this
                             config: not the candidate's fault */
    EVAL_NOT_RUN,
    EVAL_SKIPPED          /* not evaluated, on purpose (the message says why): golden outputs not allowed */
} EvalStatus;

/* "pass", "wrong_result", "runtime_error", "timeout", "compile_error",
 * "reference_error", "not_run", "skipped". */
const char *eval_status_name(EvalStatus s);

/* The deadline per execution of the launch plan when none is given: on the
 * GPU, DEADLINE_FACTOR x the reference CUDA implementation's time on the
 * config + DEADLINE_SLACK_S where the session knows that time (deadline.h),
 * else EVAL_DEADLINE_S; with the CPU backend a fixed one, since every CUDA
 * thread is a fiber there and a plan takes 100 to 1000 times as long (more
 * on a loaded machine), unrelated to the GPU's figures. */
#define EVAL_DEADLINE_S DEADLINE_FALLBACK_S
#define EVAL_CPU_BACKEND_DEADLINE_S 60.0

typedef struct EvalOptions {
    const char *arch;        /* NULL: the device's own (sm_90 on an H200) */
    int trials;              /* fresh-seed trials per config (at least 1; default 3) */
    uint64_t seed;           /* trial t uses seed + t */
    double deadline_s;       /* per execution of the launch plan, fixed (--timeout); 0 (the default):
                                adaptive on the GPU (deadline.h), EVAL_CPU_BACKEND_DEADLINE_S on the CPU */
    int warmup_runs;         /* unused (the timing protocol's own warm-up: timing) */
    int timing_runs;         /* 0: no timing; else the least number of samples */
    int time_all_configs;    /* 0: time only the timed config (eval_timed_config); 1: every config */
    const char *nvrtc_cache; /* cubin cache directory */
    const char *cref_cache;  /* compiled references */
    const char *worker_exe;  /* NULL: /proc/self/exe */
    int device;
    const char *gpu_share;   /* the device's share file when other workers use it too (gpu_share.h:
                                measurements alone on the GPU); NULL: this session has it to itself */
    FILE *progress;          /* one line per config as it finishes; NULL: quiet */
    WpTimingParams timing;   /* the timing protocol (gpu_timing.h); timing_runs > 0 turns it on */
    /* The baseline timed interleaved with the candidate (the program's
     * reference CUDA implementation); NULL: no speedup is measured. */
    const char *baseline_source;
    const LaunchPlan *baseline_plan;
    /* The candidate is the program's reference CUDA implementation: its
     * times in this session are the reference's, for later deadlines (the
     * callers know; a source compare cannot tell a launch.json variant). */
    int candidate_is_reference;
    /* Golden outputs (golden.h): golden[k] set marks configs[k] as checked
     * against the outputs of the program's reference CUDA implementation
     * (golden_source + golden_plan, compiled for the backend) instead of
     * the C reference: it runs in the candidate's worker on the trial's
     * inputs right before the candidate, on buffers of its own (poisoned,
     * guards and inputs checked as a candidate's), and the session's trial
     * cache keeps its outputs as it keeps the C reference's.  Its failure
     * there is a reference_error of the candidate, or, when the candidate
     * is that reference, the candidate's own verdict: then the candidate is
     * compared against a second, independent execution of itself.  Those
     * configs are evaluated after the others; with golden_after_pass only
     * if every other config of the call passed (the reference's own
     * evaluation, whose passes are what allow the golden outputs), else
     * they are skipped.  Under the GPU's --racecheck they are skipped: the
     * reference's run would count against the candidate in the sanitizer's
     * report.  NULL golden: none. */
    const unsigned char *golden;
    const char *golden_source;
    const LaunchPlan *golden_plan;
    int golden_after_pass;
    WorkerBackend backend;   /* BACKEND_CPU: cpu_compile.h + `harness worker --backend cpu`,
                                a correctness verdict only (no timing) */
    const char *cpu_cache;   /* CPU backend objects; NULL: datasets/cache/cpu */
    int profile;             /* the measured pass (cupti_profile.h) on every config that passed, after
                                timing, on the last trial's inputs; GPU only */
    int profile_max_passes;  /* bound on the profiler's replays of the plan (default 64; 0: the API's
                                occupancy only) */
    const char *racecheck;   /* compute-sanitizer's path (racecheck.h): every candidate in a fresh worker
                                under its racecheck tool, a reported shared-memory hazard fails it;
                                correctness only (callers set timing_runs 0, no profile).  With
                                BACKEND_CPU, EVAL_CPU_RACECHECK: the candidate compiled with the CPU
                                backend's hazard detector (cpu_racecheck.h).  NULL: off */
} EvalOptions;

/* What EvalOptions.racecheck holds for the CPU backend's own detector. */
#define EVAL_CPU_RACECHECK "cpu-racecheck"

EvalOptions eval_default_options(void);
/* --racecheck: for the GPU backend finds compute-sanitizer (racecheck.h)
 * into path[0..len), for the CPU backend writes EVAL_CPU_RACECHECK there
 * (cpu_racecheck.h); points o->racecheck at path and turns timing off.  -1
 * with e when the sanitizer is not found, or o asks for --profile
 * (instrumented code measures nothing). */
int eval_use_racecheck(EvalOptions *o, char *path, size_t len, Error *e);
/* nvbench-grade final numbers: median known to 0.5%, at least 0.5 s of
 * samples, at most 5 s. */
void eval_precise_timing(EvalOptions *o);
/* The config a candidate is timed on unless time_all_configs: the one of
 * configs[0..n) with the most bytes in the program's cost model (the first
 * of equals), where a speedup means most; the others get a correctness
 * verdict only.  One timed config keeps the per-candidate cost down (the
 * timing budget is per config). */
int eval_timed_config(const Problem *p, const ProblemConfig *const *configs, int n);

typedef struct EvalConfig {
    const ProblemConfig *config; /* borrowed from the Problem */
    EvalStatus status;
    char message[1024];          /* why it failed; "" on pass */
    int trials;                  /* trials that ran to a verdict */
    char buffer[128];            /* the output the numbers below are about */
    CompareResult cmp;           /* first failure, or the worst error when passing */
    /* timing (passing configs, timing on): NaN / 0 when not timed */
    double median_ms, iqr_ms, min_ms, spread;
    int timed_runs;              /* samples kept */
    int dropped;                 /* samples taken at a throttled SM clock */
    double cupti_ms;             /* CUPTI's median kernel time of the plan */
    double window_ms;            /* event-window cost, inside the samples; NaN: not measured */
    double reference_cpu_ms;     /* the C reference's run time on one core, fastest trial; NaN: none */
    const char *reference_kind;  /* where the reference outputs came from: "cpu" (the C program),
                                    "torch-cuda", "torch-cpu", or GOLDEN_REFERENCE_KIND (the reference
                                    CUDA implementation's golden outputs); NULL: no reference ran */
    double baseline_ms, baseline_cupti_ms, speedup;
    const char *baseline_kind;   /* "reference-cuda", "torch-eager", or NULL when there is no baseline */
    int flagged;                 /* speedup over EVAL_SPEEDUP_FLAG: for review */
    int clock_min_mhz, clock_max_mhz;
    char timing_note[512];       /* what timing could not check, and why */
    ProfileResult profile;       /* the measured pass (o->profile), derived; status PROFILE_NOT_RUN otherwise */
    double deadline_s;           /* the deadline per execution the last trial ran under; NaN: none ran */
    char deadline_note[192];     /* which one and why (deadline_describe); also in a timeout's message */
} EvalConfig;

typedef struct EvalReport {
    EvalStatus status;           /* pass only when every config passed */
    char arch[16];
    GpuInfo gpu;
    char nvrtc_version[32];
    char *compile_log;           /* from malloc(); may be "" */
    double compile_seconds;
    int compile_cached;
    int worker_restarts;
    int n_configs;
    EvalConfig *configs;         /* from malloc() */
    char baseline_note[512];     /* why there is no baseline, when one was asked for */
} EvalReport;

/* A GPU worker kept across candidates: starting one costs 0.2-0.4 s of
 * driver start-up (measured), more than evaluating a small candidate.  A
 * candidate that kills its worker gets a fresh one for what follows. */
typedef struct EvalSession {
    GpuWorker w;
    GpuShare share;          /* open when o->gpu_share was given (share.fd > 0): w takes its turns there */
    int worker_up;
    int loaded;              /* the current candidate's module is loaded */
    int base_loaded;         /* and the baseline's (module slot 1) */
    int device;
    const char *worker_exe;
    GpuInfo gpu;
    char arch[16];           /* the NVRTC target: --arch, or the device's own ("cpu" on the CPU backend) */
    WorkerBackend backend;
    ProfileStatus profile_refused; /* PROFILE_DENIED / _UNAVAILABLE once the profiler said so: not asked again */
    char profile_note[512];        /* its reason, said once on o->progress */
    struct TorchRunner *torch;     /* lang "torch" references (torch_ref.h), started on first use */
    struct RefCache *refs;         /* the current program's trials: inputs and reference outputs
                                      (ref_cache.h); owned */
    int said_not_kept;             /* a trial the cache could not keep was said on o->progress */
    RefTimes *ref_times;           /* the current program's reference CUDA times per config, measured
                                      here or noted from the catalog (deadline.h); owned */
    /* torch eager's median on the last (program, config, seed) it was timed
     * for: a program's candidates share it (it does not depend on them) */
    char eager_key[512];
    double eager_ms;
    char eager_note[256];
    /* eval_session_measure's inputs of the last (program, config, seed):
     * the kernels of a program measured one after another (a reference
     * and its variant in `harness profile --pairs`) draw them once; owned */
    RefBuffers measure_inputs;
    char measure_key[512];
    /* --racecheck: the sanitizer's path (borrowed from the options) and
     * the log its racecheck writes, a temporary file of this session's */
    const char *racecheck;
    char race_log[256];
    int race_fresh;         /* the worker has served no candidate yet */
} EvalSession;

/* Starts the worker for o->device (and fixes the target arch).  -1 with e
 * when it cannot ("no GPU: ..." and *no_gpu set when there is none). */
int eval_session_open(EvalSession *s, const EvalOptions *o, int *no_gpu, Error *e);
void eval_session_close(EvalSession *s);

/* Evaluates one candidate in session s (see eval_candidate). */
int eval_session_candidate(EvalSession *s, const Problem *p, const char *ref_source, const char *kernel_source,
                           const LaunchPlan *lp, const ProblemConfig *const *configs, int n_configs,
                           const EvalOptions *o, EvalReport *r, int *no_gpu, Error *e);

/* Measures one candidate on config c without checking it: compile, load,
 * the config's inputs (inputs.h, seed o->seed), one execution of the plan
 * (faults and guard writes are caught), then the measured pass
 * (profile_config: hardware metrics, the API's occupancy per launch).  No
 * C reference runs, so large configs cost only the GPU's time: for
 * validating the measured report over many kernels (`harness profile`).
 * ec->status: EVAL_PASS when the plan ran cleanly (its outputs are NOT
 * compared), else compile_error / runtime_error / timeout with
 * ec->message.  -1 with e only when the measurement itself cannot happen. */
int eval_session_measure(EvalSession *s, const Problem *p, const char *kernel_source, const LaunchPlan *lp,
                         const ProblemConfig *c, const EvalOptions *o, EvalConfig *ec, int *no_gpu, Error *e);

/* Evaluates kernel_source + plan lp for problem p (reference ref_source)
 * on configs[0..n_configs).  Returns 0 with *r filled (the candidate's
 * failures are statuses in r, not errors) or -1 with e when the evaluation
 * itself cannot happen: no GPU ("no GPU: ..."), a reference that does not
 * compile, a cache that cannot be written.  *no_gpu (optional) is set in the
 * first case.  Release r with eval_report_release either way.  A one-shot
 * session: opens a worker, evaluates, closes it. */
int eval_candidate(const Problem *p, const char *ref_source, const char *kernel_source, const LaunchPlan *lp,
                   const ProblemConfig *const *configs, int n_configs, const EvalOptions *o, EvalReport *r,
                   int *no_gpu, Error *e);
void eval_report_release(EvalReport *r);

/* Kernel parameter bytes of problem argument a under config c (params and
 * scalars as their C type): *size gets 1..8.  For the launch plan. */
int eval_arg_value(const Problem *p, const ProblemArg *a, const ProblemConfig *c, uint8_t value[8], uint8_t *size,
                   Error *e);

#endif
