/* ingest.h — validate program folders and store them in the catalog.
 *
 * `make dataset` and contributions go through the same path: every folder
 * holding a meta.json (and program.c, or program.py for lang "torch") below the given roots is parsed and
 * validated, compiled, run in the sandbox on its small config with two
 * seeds and on every edge config, checked for degenerate outputs, and then
 * stored.  Programs whose content hash the catalog already knows (stored or
 * rejected) are skipped without being run, so a rerun is a no-op and a
 * killed build resumes where it stopped.  Work runs in `jobs` worker
 * processes; the catalog is written by the parent alone, in transactions of
 * a few programs. */
#ifndef CUDAPERF_INGEST_H
#define CUDAPERF_INGEST_H

#include <stdint.h>

#include "common/error.h"
#include "harness/catalog.h"
#include "harness/pair_files.h"

typedef struct IngestOptions {
    int jobs;                /* worker processes (>= 1) */
    uint64_t seed;           /* input seed for the checks */
    const char *cache_dir;   /* compiled references */
    const char *origin;      /* generated / contributed / imported */
    int quiet;               /* no progress line */
    int force;               /* re-run programs the catalog already knows */
    double timeout_seconds;  /* wall-clock limit per reference run (0: default 20 s) */
} IngestOptions;

typedef struct IngestSummary {
    int found;      /* meta.json files */
    int unchanged;  /* already known */
    int added;      /* stored (new or replaced) */
    int degenerate; /* dropped by the degenerate filter */
    int failed;     /* did not compile, crashed, hung, produced NaN */
    int invalid;    /* malformed meta.json or missing source */
    int not_checked;/* could not be run here (a torch program without a torch interpreter): not stored */
    int removed;    /* catalog programs whose folder no longer exists (only with prune) */
    int split_changes;
    int kernels_added;   /* reference and variant kernels new in the catalog */
    int kernels_removed; /* stale generated kernels deleted */
} IngestSummary;

int ingest_paths(Catalog *c, char *const *roots, int n_roots, const IngestOptions *opt, IngestSummary *sum,
                 Error *e);

/* A caller's view of each verdict, instead of ingest's own stderr line
 * (harness import reports by file).  dir: the program's folder; name: NULL
 * when its meta.json did not load; verdict: 0 stored, 1 dropped as
 * degenerate, 2 failed, 3 invalid. */
typedef void (*IngestVerdictFn)(void *ctx, const char *dir, const char *name, int verdict, const char *reason);

/* ingest_paths, telling fn(ctx, ...) every verdict. */
int ingest_paths_reporting(Catalog *c, char *const *roots, int n_roots, const IngestOptions *opt, IngestVerdictFn fn,
                           void *ctx, IngestSummary *sum, Error *e);

#endif
