/* ref_cache.h — whole trials of recent candidates, kept in memory by an
 * evaluation session so that the candidates of one program (its reference
 * implementation and every variant, evaluated one after another) do not
 * each regenerate the same inputs and rerun the same reference.
 *
 * A trial is what a candidate is judged on: its inputs (every input and
 * inout buffer as the candidate receives it: drawn from the seed by
 * inputs.h, and for a torch program also the model's weights, the "w."
 * buffers its runner writes) and the reference's outputs (every output and
 * inout buffer after the reference ran), with the reference's own run time.
 * An entry is keyed by (program name, config name, seed): inputs are a pure
 * function of the problem, the config and the seed, so the same key means
 * byte-identical inputs and the same reference outputs.  C and torch
 * programs alike.
 *
 * The cache holds one program at a time (a lookup for another program
 * empties it) and at most its cap in bytes, inputs and outputs together:
 * by default a quarter of the machine's physical memory, at least 1 GiB and
 * at most 32 GiB; the environment variable REF_CACHE_ENV (a whole number of
 * MiB, 0 keeps nothing) replaces that rule.  Each session has its own
 * cache, so N workers of one run may hold N caps.  A trial that does not
 * fit (larger than the cap, or the cap filled by the program's earlier
 * trials) is not kept: ref_cache_begin says so and the caller reruns it
 * for every candidate.  Nothing is ever evicted for a newer trial of the
 * same program: candidates replay the trials in the same order, so the
 * first ones kept are the ones asked for first. */
#ifndef CUDAPERF_REF_CACHE_H
#define CUDAPERF_REF_CACHE_H

#include <stdint.h>

#include "common/error.h"
#include "common/problem.h"
#include "harness/cref.h"

#define REF_CACHE_ENV "CUDAPERF_REF_CACHE_MIB"
#define REF_CACHE_MIN_BYTES (1LL << 30)
#define REF_CACHE_MAX_BYTES (32LL << 30)

typedef struct RefCache RefCache;

/* A new empty cache with its cap from the environment or the machine (see
 * above).  NULL with e when REF_CACHE_ENV is set but is not a whole number
 * of MiB.  Free with ref_cache_free. */
RefCache *ref_cache_new(Error *e);
void ref_cache_free(RefCache *c);   /* NULL is fine */

/* The cap in bytes; setting it (tests) does not drop what is held. */
long long ref_cache_cap(const RefCache *c);
void ref_cache_set_cap(RefCache *c, long long bytes);

/* A kept trial, borrowed from the cache: every pointer stays valid until
 * the next call on the cache other than ref_cache_cap / ref_cache_counts.
 * Arrays are indexed by argument; bytes[i] is buffer i's size, and
 * inputs[i] / outputs[i] are NULL where argument i is no input / output
 * buffer (an inout buffer has both: before and after the reference). */
typedef struct RefTrial {
    const void *const *inputs;
    const void *const *outputs;
    const int64_t *bytes;
    double run_seconds;   /* the reference's own time in that trial (cref.h) */
    const char *kind;     /* as given to ref_cache_finish */
} RefTrial;

/* 1 with *t set when the trial (p, cf, seed) is held; 0 otherwise (and a
 * lookup for another program than the held one empties the cache). */
int ref_cache_fetch(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, RefTrial *t);

typedef enum RefCacheKeep {
    REF_CACHE_KEPT,       /* inputs copied; the entry waits for ref_cache_finish */
    REF_CACHE_HELD,       /* that trial is held already: nothing to do */
    REF_CACHE_TOO_LARGE,  /* the trial alone is larger than the cap */
    REF_CACHE_FULL        /* it would fit, but the program's earlier trials fill the cap */
} RefCacheKeep;

/* Keeping a trial, step 1: copies b's input and inout buffers as they are
 * now, which must be exactly what the candidate receives (for a C program
 * before the reference runs, since it overwrites inout buffers; for a torch
 * program after its runner wrote the weights).  b holds the buffers of
 * (p, cf, seed) (cref_buffers_init).  Drops a begun entry that was never
 * finished (its reference failed). */
RefCacheKeep ref_cache_begin(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed,
                             const RefBuffers *b);

/* Step 2, after the reference ran successfully on those inputs: copies b's
 * output and inout buffers and b->run_seconds, and from now on serves the
 * trial.  `kind` (static storage, not copied; may be NULL) is handed back
 * by ref_cache_fetch: where the outputs came from.  Does nothing unless
 * the last ref_cache_begin kept this very trial. */
void ref_cache_finish(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, const RefBuffers *b,
                      const char *kind);

/* Trials served from the cache / trials kept, since ref_cache_new; the
 * bytes held now (0 on a NULL cache, like the counts). */
void ref_cache_counts(const RefCache *c, long *hits, long *stores);
long long ref_cache_bytes(const RefCache *c);

#endif
