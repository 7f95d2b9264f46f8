/* kb_export.h — `harness export --format kernelbench`: the catalog's torch
 * programs of one split as KernelBench-format files.
 *
 * Each program's source is written with its module-level constants set to
 * one config's params (default "large"), as OUT/<level>/<n>_<name>.py:
 * <level> is "levelN" from the category "torch-levelN" (the generator's
 * levels, kept by imports from levelN folders) and "other" otherwise; n
 * counts from 1 within a level in program-name order.  KernelBench's loader
 * execs such a file and takes Model, get_inputs and get_init_inputs from
 * it.  C programs have no form in this format and are counted as skipped.
 * Files are written only when their bytes change; numbered files in the
 * level folders that this export did not write are removed, so a second
 * export changes nothing and an export after the catalog changed leaves no
 * stale problem behind. */
#ifndef CUDAPERF_KB_EXPORT_H
#define CUDAPERF_KB_EXPORT_H

#include "common/error.h"
#include "harness/catalog.h"

typedef struct KbExportSummary {
    int written;      /* new or changed files */
    int unchanged;
    int removed;      /* stale numbered files */
    int skipped_c;    /* C programs of the split */
    int skipped_bad;  /* torch programs that could not be written (one line each) */
} KbExportSummary;

/* Exports split `split` of c to out_dir with config `config`. */
int kb_export_split(Catalog *c, const char *split, const char *config, const char *out_dir, KbExportSummary *sum,
                    Error *e);

/* The KernelBench-format text of one torch program (canonical meta.json
 * `meta`, `source`) under config `config`; caller frees *out. */
int kb_export_source(const char *meta, const char *source, const char *config, char **out, Error *e);

#endif
