/* kernels.h — CUDA candidates in the catalog (the kernels table).
 *
 * kernels_sync_folder() makes the catalog's generated candidates of one
 * program (origin 'reference' and 'variant') equal to what its folder holds
 * (pair_files.h): new ones are inserted, ones whose content disappeared are
 * deleted (their results go with them: they were results of code that no
 * longer exists), unchanged ones are left alone, so a rebuild is a no-op.
 * Candidates of other origins (policy, contributed, imported) are never
 * touched.  Call inside a transaction.
 *
 * KernelRow values returned by kernels_get()/kernels_list() own their
 * strings; release them with kernel_row_release(). */
#ifndef CUDAPERF_KERNELS_H
#define CUDAPERF_KERNELS_H

#include <stdint.h>

#include "common/error.h"
#include "harness/catalog.h"
#include "harness/pair_files.h"

typedef struct KernelSyncStats {
    int added, removed, unchanged;
} KernelSyncStats;

/* The program's id, 0 when the catalog has no program of that name. */
int kernels_program_id(Catalog *c, const char *name, int64_t *id, Error *e);

int kernels_sync_folder(Catalog *c, const char *program_name, const PairFiles *pf, KernelSyncStats *st, Error *e);

typedef struct KernelRow {
    int64_t id, program_id, parent_id; /* parent_id 0: none */
    char *program;                     /* program name */
    char *origin, *source, *launch, *knobs, *defect, *content_hash, *created_at;
} KernelRow;

/* One kernel by id; -1 with "no kernel N" when absent. */
int kernels_get(Catalog *c, int64_t id, KernelRow *out, Error *e);
/* The kernels of a program, by id (*rows from malloc(), *n of them). */
int kernels_list(Catalog *c, const char *program_name, KernelRow **rows, int *n, Error *e);
void kernel_row_release(KernelRow *k);
void kernel_rows_free(KernelRow *rows, int n);

#endif
