/* ref_cache.h — the C reference's outputs of recent trials, kept in memory
 * by an evaluation session so that the candidates of one program (its
 * reference implementation and every variant, evaluated one after another)
 * do not each rerun the C reference on the same inputs.
 *
 * An entry is keyed by (program name, config name, seed): inputs are a pure
 * function of the problem, the config and the seed (inputs.h), so the same
 * key means the same inputs and the same reference outputs.  The cache holds
 * one program at a time (a lookup for another program empties it) and at
 * most REF_CACHE_MAX_BYTES of outputs; larger trials are simply not kept.
 * Only C references are cached (a torch reference also produces the model's
 * weights, which the candidate receives as inputs). */
#ifndef CUDAPERF_REF_CACHE_H
#define CUDAPERF_REF_CACHE_H

#include <stdint.h>

#include "common/problem.h"
#include "harness/cref.h"

#define REF_CACHE_MAX_BYTES (1LL << 30)

typedef struct RefCache RefCache;

RefCache *ref_cache_new(void);
void ref_cache_free(RefCache *c);   /* NULL is fine */

/* When (p, cf, seed) is held: copies the stored outputs into b's output and
 * inout buffers (b already holds the inputs of that seed), sets
 * b->run_seconds to the stored reference time and returns 1; 0 otherwise. */
int ref_cache_fetch(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, RefBuffers *b);

/* Keeps copies of b's output and inout buffers after a reference run that
 * succeeded on the inputs of (p, cf, seed). */
void ref_cache_store(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, const RefBuffers *b);

/* Trials served from the cache / reference runs stored, since ref_cache_new. */
void ref_cache_counts(const RefCache *c, long *hits, long *stores);

#endif
