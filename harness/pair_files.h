/* pair_files.h — read the CUDA side of a program folder.
 *
 * A program folder (generated, contributed or imported) may hold its pair
 * beside meta.json: kernel.cu, launch.json and optionally knobs.json; and
 * alternative candidates in variants/<name>/ with the same three files,
 * where knobs.json may name a planted defect ({"defect": "missing-sync",
 * ...}) and the sibling variant it was derived from ({"parent":
 * "partial-sums-64"}: a planted defect measured against the kernel it was
 * planted in; without it a variant's parent is the reference).
 * pair_files_load() reads them all and validates every launch plan against
 * the program (every launch's geometry on every config), so what reaches
 * the catalog is runnable.  Errors name the file and the field. */
#ifndef CUDAPERF_PAIR_FILES_H
#define CUDAPERF_PAIR_FILES_H

#include "common/error.h"
#include "common/hash.h"
#include "common/problem.h"

typedef struct KernelFiles {
    char *name;         /* "reference", or the variant folder's name */
    char *source;       /* kernel.cu */
    char *launch;       /* launch.json, canonical (compact) JSON */
    char *knobs;        /* compact JSON object, or NULL */
    char *defect;       /* knobs.json's "defect", or NULL */
    char *parent;       /* knobs.json's "parent" (another variant's name), or NULL */
    char content_hash[HASH_HEX_LEN + 1]; /* sha256(program, source, launch) */
} KernelFiles;

typedef struct PairFiles {
    KernelFiles *kernels; /* the reference first (when present), then variants by name */
    int n;
    int has_reference;
} PairFiles;

/* Reads dir's pair and variants for problem p into *out (zeroed first).
 * A folder without kernel.cu and without variants/ gives n = 0.  Returns 0,
 * or -1 with e on the first malformed file; release with pair_files_release
 * either way. */
int pair_files_load(const char *dir, const Problem *p, PairFiles *out, Error *e);
void pair_files_release(PairFiles *pf);

/* The index in pf->kernels of the variant named name; -1 when none. */
int pair_files_find(const PairFiles *pf, const char *name);

/* The content hash of a kernel: sha256 of its program's name, its source
 * and its canonical launch plan.  The program is part of it because two
 * programs may share one CUDA implementation (a fused and a split C loop
 * nest computing the same thing), and each must own its candidate. */
void kernel_content_hash(const char *program, const char *source, const char *launch,
                         char hex[HASH_HEX_LEN + 1]);

#endif
