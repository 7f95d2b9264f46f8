/* run.h — `harness run`: evaluate many candidates and store every result.
 *
 * A run selects programs (split, family, name) and their kernels
 * (references, variants, all, or explicit ids), evaluates each kernel on
 * the chosen configs (eval.h: correctness trials, timing), and stores one
 * result per (kernel, config) under a new run id (results.h).  Kernels are
 * spread over `workers` processes, one per GPU (device i for worker i),
 * whole programs at a time so a program's candidates share one session's
 * cache of reference outputs;
 * each writes its own results, one kernel per transaction, so a run killed
 * at any moment resumes (run_resume) losing at most the kernels in flight.
 * While the GPUs execute, `compile_jobs` processes compile the kernels
 * ahead of them into the NVRTC cache.  Progress goes to `progress`, one
 * line per few seconds.
 *
 * Which configs: the named ones, against the C reference whatever it
 * costs; or by default every config whose C reference fits the budget
 * (RunOptions.budget, golden.h), and beyond it, for C programs, the
 * configs whose golden outputs the program's reference CUDA implementation
 * may give (golden_allowed: it passed every config within the budget, in
 * the catalog on this backend, or in this very run, where a program's
 * reference is evaluated before its other kernels; the reference itself
 * is then checked against a second execution of itself).  With the CPU
 * backend, configs beyond GOLDEN_CPU_BACKEND_* are left out whatever
 * their reference (the candidate runs as fibers).  The others are recorded
 * as skipped with the reason, never silently left out. */
#ifndef CUDAPERF_RUN_H
#define CUDAPERF_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "harness/eval.h"
#include "harness/golden.h"

/* KSEL_CONTENDERS: the reference and the variants not planted to fail (knobs
 * "expect" pass or slower): the kernels a speedup study times. */
typedef enum KernelSelect { KSEL_REFERENCE, KSEL_VARIANTS, KSEL_ALL, KSEL_IDS, KSEL_CONTENDERS } KernelSelect;

typedef struct RunSelection {
    const char *split;    /* NULL: every split */
    const char *family;   /* NULL: every family */
    const char *program;  /* SQL LIKE pattern on the name; NULL: any */
    KernelSelect kernels;
    const int64_t *ids;   /* KSEL_IDS */
    int n_ids;
    const char *configs;  /* comma-separated names, run against the C reference; NULL: those within the
                             budget, and beyond it those with golden outputs (above) */
    const char *skip_configs; /* comma-separated names never run (e.g. "large"); NULL: none */
    int limit;            /* at most this many kernels (0: all) */
    int sample;           /* this many kernels spread evenly over the selection (0: all) */
    int sample_programs;  /* this many whole programs spread evenly over the selection (0: all);
                             applied before `sample` */
    int shard_index, shard_count; /* shard I of N: the programs whose place in the selection is I mod N
                                     (count 0: not sharded); `harness merge` joins the shards' runs */
} RunSelection;

typedef struct RunOptions {
    RunSelection sel;
    EvalOptions eval;     /* per candidate; eval.device is ignored (worker i uses device i) */
    const char *backend;  /* "gpu" or "cpu" */
    int workers;          /* GPUs to use (>= 1) */
    int per_gpu;          /* worker processes per GPU (>= 1; > 1 only without timing: they share the GPU) */
    int compile_jobs;     /* compile-ahead processes (0: none) */
    RefBudget budget;     /* what the C reference may cost per config (golden.h; zero: the default) */
    FILE *progress;       /* NULL: quiet */
} RunOptions;

typedef struct RunSummary {
    int64_t run_id;
    int kernels;          /* selected */
    int skipped_done;     /* already finished in the resumed run */
    int evaluated;
    int results;          /* (kernel, config) results stored by this invocation */
    int pass, fail;       /* kernels that passed every config / failed one */
    double seconds;
} RunSummary;

/* Parses "I/N" (0 <= I < N): 0, or -1 when malformed. */
int run_parse_shard(const char *text, int *index, int *count);

/* Starts a new run.  Returns 0 with s filled (candidates' failures are
 * results, not errors), or -1 with e when the run itself cannot go on (no
 * catalog, no GPU: e then says so and *no_gpu is set, bad selection). */
int run_start(const char *catalog_path, const RunOptions *o, RunSummary *s, int *no_gpu, Error *e);

/* Continues run_id with the selection stored in the run (o->sel is
 * ignored). */
/* The evaluation options run run_id was started with (trials, timeout,
 * timing runs, --profile, --time-all-configs, seed), written into *o so a
 * resumed run judges its remaining kernels exactly as its first part did,
 * whatever the resuming command line says; *racecheck says whether it ran
 * under --racecheck (the caller finds the sanitizer again), *budget its
 * C reference's budget (the default for runs older than the option).
 * Returns 0 or -1 with e (no such run, unreadable options). */
int run_stored_options(const char *catalog_path, int64_t run_id, EvalOptions *o, int *racecheck, const char **backend,
                       RefBudget *budget, Error *e);
int run_resume(const char *catalog_path, int64_t run_id, const RunOptions *o, RunSummary *s, int *no_gpu,
               Error *e);

#endif
