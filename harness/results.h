/* results.h — runs and their results in the catalog.
 *
 * A run is one invocation of `harness run` (or a resumed one): what was
 * asked for, where it ran (machine, GPU, driver, CUDA and NVRTC versions,
 * git revision) and with which seed.  A result is one (kernel, config)
 * verdict with its errors and timing statistics.  The runner stores all
 * results of one kernel in one transaction, so a run killed at any moment
 * loses at most the kernel in flight, and results_done_kernels() tells a
 * resumed run what it can skip.  Numbers that do not apply are NaN in a
 * ResultRow and NULL in the catalog. */
#ifndef CUDAPERF_RESULTS_H
#define CUDAPERF_RESULTS_H

#include <stdint.h>

#include "common/error.h"
#include "harness/catalog.h"
#include "harness/deadline.h"

typedef struct RunInfo {
    const char *backend;       /* "gpu" or "cpu" */
    const char *selection;     /* JSON */
    const char *machine, *gpu, *driver, *cuda_version, *nvrtc_version, *git_rev;
    const char *options;       /* JSON */
    uint64_t seed;
} RunInfo;

int results_start_run(Catalog *c, const RunInfo *ri, int64_t *run_id, Error *e);
/* status: "finished" or "interrupted". */
int results_finish_run(Catalog *c, int64_t run_id, const char *status, Error *e);

/* A stored run (strings from malloc(); run_row_release frees them). */
typedef struct RunRow {
    int64_t id;
    char *started_at, *finished_at, *status, *backend, *selection, *machine, *gpu, *driver, *cuda_version,
        *nvrtc_version, *git_rev, *options;
    uint64_t seed;
    int64_t n_results;
} RunRow;

int results_get_run(Catalog *c, int64_t run_id, RunRow *out, Error *e);
/* The most recent run, for `harness results` without an id; -1 when none. */
int results_last_run(Catalog *c, int64_t *run_id, Error *e);
void run_row_release(RunRow *r);

typedef struct ResultRow {
    int64_t kernel_id, config_id;
    const char *status, *error, *device, *reference_kind, *baseline_kind, *structure, *profile, *log;
    int trials;
    double compile_ms;
    double kernel_ms;          /* wall time of the kernel's whole evaluation */
    double max_abs_err, max_rel_err;
    int64_t first_bad_index;   /* -1: none */
    double time_median_ms, time_iqr_ms, time_min_ms, time_spread, cupti_ms;
    double reference_cpu_ms;   /* the C reference on one core, fastest trial; NaN: none */
    int samples, samples_dropped;
    double baseline_ms, speedup;
    int flagged;
} ResultRow;

/* A row with every number NaN / -1 / 0 and every string NULL. */
ResultRow result_row_empty(void);

/* Stores (replaces) one result; call inside a transaction. */
int results_put(Catalog *c, int64_t run_id, const ResultRow *r, Error *e);

/* Kernel ids of run_id that have results (their results are stored all at
 * once, so these are done): a sorted array from malloc() in *ids, *n of them. */
int results_done_kernels(Catalog *c, int64_t run_id, int64_t **ids, int *n, Error *e);

/* Notes into t (as REF_TIME_CATALOG, oldest first so the latest wins) the
 * stored times of the reference kernel of program `program` per config:
 * passing results with a time_median_ms, measured on a GPU named `gpu`
 * (results.device "N: <gpu>"; another model's times say nothing about this
 * one).  One query; a program without any notes nothing.  For deadlines
 * (deadline.h). */
int results_reference_times(Catalog *c, const char *program, const char *gpu, RefTimes *t, Error *e);

/* The latest verdict of kernel `kernel` on its program's config named
 * `config`, among the results of runs on backend `backend` ("gpu", "cpu")
 * checked against a reference of kind `kind` ("cpu": the C reference;
 * NULL: any): its status into status[0..len) and its run into *run_id.
 * skipped and not_run results are no verdicts.  Latest: stored last.
 * Returns 1 when there is one, 0 when there is none, -1 with e.  For
 * golden.h, which asks whether a reference CUDA implementation has passed. */
int results_latest_verdict(Catalog *c, int64_t kernel, const char *config, const char *backend, const char *kind,
                           char *status, size_t len, int64_t *run_id, Error *e);

#endif
