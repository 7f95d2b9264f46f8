/* merge.h — join runs made in copies of a catalog into one catalog.
 *
 * On a cluster each task of a job runs `harness run --shard I/N` on its own
 * copy of the catalog (SQLite does not share writers across machines);
 * `harness merge` then brings the copies' runs back.  The shards of one job
 * (same selection apart from the shard, same backend, seed and options)
 * become one run of the target; a run made without --shard is copied as
 * it is.
 *
 * Promise: merge_catalogs() maps every result onto the target's kernels (by
 * content hash) and configs (by program and config name), so the copies
 * need not share row ids, only content.  It stores everything in one
 * transaction: on any error nothing is stored.  A merged run records where
 * it came from (shard, source run, start time); merging the same runs again
 * stores nothing and says so.  A merged run is `finished` only when every
 * shard 0..N-1 is present once and finished; otherwise `interrupted`, with
 * the missing shards reported.  Errors name the source file and the
 * problem: not a catalog, a kernel or config the target lacks, two shards
 * holding the same (kernel, config) result. */
#ifndef CUDAPERF_MERGE_H
#define CUDAPERF_MERGE_H

#include <stdio.h>

#include "common/error.h"
#include "harness/catalog.h"

typedef struct MergeSummary {
    int runs_created;   /* runs stored in the target */
    int runs_skipped;   /* already merged earlier */
    int source_runs;    /* runs read from the sources */
    long results;       /* results stored */
} MergeSummary;

/* Merges the runs of the n source catalogs into target; one line per
 * stored or skipped run goes to report (may be NULL). */
int merge_catalogs(Catalog *target, const char *const *sources, int n, FILE *report, MergeSummary *s, Error *e);

#endif
