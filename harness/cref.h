/* cref.h — C reference programs: compile to a shared object and run one
 * configuration in the sandbox.
 *
 * The harness appends a call thunk, generated from meta.json, to the
 * program's source, so any signature in the problem format can be called
 * without libffi: `void cudaperf_call_(void *const *argv)` unpacks one
 * pointer per argument (the buffer itself, or a pointer to the param/scalar
 * value) and calls the entry.  Shared objects are cached by the hash of the
 * source, the thunk and the compiler command. */
#ifndef CUDAPERF_CREF_H
#define CUDAPERF_CREF_H

#include <stdint.h>

#include "common/error.h"
#include "common/problem.h"
#include "harness/sandbox.h"

/* Compiles `source` for problem p into <cache_dir>/<hash>.so (reusing a
 * cached one).  *so_path (malloc) is set on success.  A compile error is
 * returned as -1 with e holding the compiler's log (first lines). */
int cref_compile(const Problem *p, const char *source, const char *cache_dir, char **so_path, Error *e);

/* The buffers of one run.  Every buffer is its own shared mapping with a
 * guard page right after its end, so a reference that writes out of bounds
 * crashes instead of corrupting its neighbour. */
typedef struct RefBuffers {
    int n;               /* = problem's n_args; non-buffer slots are NULL */
    void **data;         /* data[i]: start of argument i's elements */
    int64_t *count;      /* elements per buffer */
    void **map;          /* mmap bases (internal) */
    size_t *map_len;
    void *values;        /* param/scalar storage, pointed to by argv */
    void **argv;
    double run_seconds;  /* the entry's run time in the last cref_run (one core); < 0: not run */
} RefBuffers;

/* Allocates and fills the buffers of config c: inputs from the seed,
 * outputs poisoned.  Release with cref_buffers_release. */
int cref_buffers_init(RefBuffers *b, const Problem *p, const ProblemConfig *c, uint64_t seed, Error *e);
/* The same buffers with every byte zero (nothing drawn, nothing poisoned),
 * for a caller that writes them all itself (a trial kept by ref_cache.h).
 * Release with cref_buffers_release. */
int cref_buffers_alloc(RefBuffers *b, const Problem *p, const ProblemConfig *c, Error *e);
void cref_buffers_release(RefBuffers *b);

/* Runs the compiled reference on b in the sandbox.  Returns 0 if it ran to
 * completion, with b->run_seconds the entry's own run time (measured in the
 * child around the call: one core, no loading, no sandbox start); -1 with e
 * ("crashed: killed by signal 11 (Segmentation fault)", "timed out after
 * 20.0 s", ...) otherwise. */
int cref_run(const char *so_path, const Problem *p, RefBuffers *b, const SandboxLimits *lim, Error *e);

#endif
