/* kb_import.h — `harness import --format kernelbench`: KernelBench-format
 * Python files into the catalog as lang "torch" programs.
 *
 * For each file (directories are searched recursively for *.py): the text
 * is checked for Model / get_inputs / get_init_inputs and its module-level
 * integer constants are read (kb_source); the program is described
 * (get_inputs() dtypes and shapes, outputs after one forward pass,
 * state_dict) under its original constants ("large"), under constants
 * halved until every buffer together fits in a small budget ("small"), and
 * under small odd/prime values ("edge"), each checked by describing it;
 * shapes become expressions of the constants (kb_infer) that must give the
 * described shape on every config.  The meta.json and program.py are
 * written to a staging folder and go through harness ingest (validation,
 * degenerate filter, splits) with origin "imported".
 *
 * A file that fails gets one line on stderr, `harness: import: FILE:
 * reason`, and the others continue. */
#ifndef CUDAPERF_KB_IMPORT_H
#define CUDAPERF_KB_IMPORT_H

#include <stdint.h>

#include "common/dtype.h"
#include "common/error.h"
#include "harness/catalog.h"
#include "harness/ingest.h"
#include "harness/kb_source.h"

#define KB_MAX_DIMS 8

/* One tensor of a description. */
typedef struct KbTensor {
    char *name;               /* state_dict key for weights; NULL otherwise (from malloc()) */
    DType dtype;
    int ndim;
    int64_t dims[KB_MAX_DIMS];
    int has_range;            /* integer tensors: observed values in [lo, hi] */
    int64_t lo, hi;
} KbTensor;

/* What running a program's get_inputs(), one forward pass and its
 * state_dict shows.  Every array is from malloc(); kb_description_release
 * frees them. */
typedef struct KbDescription {
    KbTensor *inputs;
    int n_inputs;
    KbTensor *outputs;
    int n_outputs;
    KbTensor *weights;
    int n_weights;
} KbDescription;

void kb_description_release(KbDescription *d);

/* Describes the program `source` (read from `path`) with its module-level
 * integer constants set to `values` (every constant of the file, in the
 * file's order).  Returns 0; -1 with a one-line reason in e when the
 * program is at fault; -2 when the describer itself failed (no torch
 * interpreter, a protocol error), which stops an import. */
typedef struct KbDescriber {
    int (*describe)(void *ctx, const char *path, const char *source, const KbConstants *values,
                    KbDescription *out, Error *e);
    void *ctx;
} KbDescriber;

typedef struct KbImportOptions {
    const char *family;       /* NULL: "imported_kernelbench" */
    const char *license;      /* provenance.license; NULL: "unknown" */
    const char *stage_dir;    /* where program folders are written for ingest (created, then removed) */
    int64_t small_bytes;      /* budget of the small config (all buffers); 0: 1 MiB */
    int force;                /* re-describe files whose program the catalog already holds */
    int quiet;                /* no progress lines */
} KbImportOptions;

typedef struct KbImportSummary {
    int files;
    int imported;   /* new in the catalog */
    int skipped;    /* already present */
    int rejected;   /* one line each on stderr */
} KbImportSummary;

/* Builds the meta.json text of one file (no catalog involved): describes
 * it under the derived configs and infers its shapes.  *meta_out (caller
 * frees) on success; -1 with the reason in e; -2 when the describer failed
 * for a reason of its own. */
int kb_import_meta(const char *path, const char *source, const KbImportOptions *opt, const KbDescriber *d,
                   char **meta_out, Error *e);

/* The program name a file gets ("torch/<family>/<stem>", with "levelN-"
 * before the stem when its folder is levelN); caller frees. */
char *kb_import_name(const char *path, const char *family);

/* Imports files and directories into c: each file's folder is staged and
 * then ingested with `iopt` (origin forced to "imported").  Rejections are
 * printed and counted; -1 only for failures that stop everything (catalog
 * errors, an unwritable staging folder). */
int kb_import_paths(Catalog *c, char *const *paths, int n_paths, const KbImportOptions *opt, const KbDescriber *d,
                    const IngestOptions *iopt, KbImportSummary *sum, Error *e);

#endif
