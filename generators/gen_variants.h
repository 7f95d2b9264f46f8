/* gen_variants.h — alternative candidates derived from a reference pair.
 *
 * Every program's reference CUDA implementation is the seed of a spread of
 * candidates, strong and weak, from which the harness builds preference
 * data: knob changes that keep the kernel correct (block size, read-only
 * `__restrict__` loads dropped, a transposed thread-to-element mapping that
 * breaks coalescing (only where the thread index lays out the accesses of
 * the innermost loops: elsewhere it would change nothing), a loop unrolled
 * 32 times with and without a 24-register cap, a simple sum loop unrolled
 * with 64 partial sums) and planted defects that look plausible (the same
 * partial sums under a 24-register cap, which must spill them on every
 * iteration; missing bounds check, off-by-one bound, missing
 * `__syncthreads`, non-atomic accumulation, a double accumulator made
 * float).  (A wrong reduction identity needs to know the merge: the
 * reduction families plant it themselves, as an alternative; gen.h.)  Each is a mechanical rewrite of
 * the reference source and launch plan, applied only where its pattern is
 * present and the rewrite stays meaningful (a block-size change only when
 * nothing else in the kernel depends on the block size); every variant's
 * knobs record what changed and, for defects, what was planted and what
 * the harness should say:
 *
 *     {"block": "256", ..., "derived": "missing-bounds-check",
 *      "defect": "missing-bounds-check", "expect": "fail"}
 *
 * and "parent" names the sibling a variant was derived from where that is
 * not the reference (register-spills: its uncapped partial-sums-P), so
 * that the pair differs by one change.
 *
 * "expect" is "pass" (a correct variant, possibly slower: "slower" marks
 * the ones meant to be measurably slower), "fail" (a wrong result or an
 * out-of-bounds access on at least one config) or "race" (a data race:
 * caught when the schedule exposes it).
 *
 * Promise: variants_derive() is pure and deterministic: the same reference
 * always yields the same variants in the same order.  The caller validates
 * each variant's launch plan against the problem and refuses (never emits)
 * one that does not fit. */
#ifndef CUDAPERF_GEN_VARIANTS_H
#define CUDAPERF_GEN_VARIANTS_H

#include <cjson/cJSON.h>

typedef struct GenVariant {
    char *name;       /* folder name under variants/: "block-128", "off-by-one" */
    char *source;     /* kernel.cu (owned) */
    cJSON *launches;  /* the launch plan's "launches" array (owned) */
    cJSON *knobs;     /* knobs.json object (owned) */
    cJSON *scratch;   /* the plan's "scratch" array (owned); NULL: the reference's */
} GenVariant;

/* Derives the variants of the reference (source, launches, knobs; knobs may
 * be NULL).  Returns how many were stored in *out (a malloc()ed array, NULL
 * when none); release with variants_free(). */
int variants_derive(const char *source, const cJSON *launches, const cJSON *knobs, GenVariant **out);
void variants_free(GenVariant *v, int n);

#endif
