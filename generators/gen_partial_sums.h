/* gen_partial_sums.h — a sum loop rewritten to keep many partial sums.
 *
 * A loop that adds into scalar accumulators,
 *
 *     float acc = 0;
 *     for (int j = a; j < b; j++)
 *         acc += x[j] * y[j];
 *
 * becomes one that steps by P, adds iteration j0 + u into acc_parts[u] in a
 * fully unrolled inner loop, finishes the last b - a mod P iterations as
 * before and adds the P partial sums into acc at the end: P independent
 * dependency chains instead of one, the multiple-accumulator unrolling
 * people write by hand for instruction-level parallelism.  The P partial
 * sums of every accumulator stay live across the whole loop, which is
 * what makes the rewrite the planted "register-spills" defect once the
 * kernel is capped at 24 registers (gen_variants): the values cannot be
 * recomputed or scheduled away, so every iteration loads and stores them
 * in local memory.  Sums are reassociated: a float result moves within
 * rounding, as a different summation order moves it.
 *
 * Only the simple form is taken, the one that needs no parser: a header
 * "for (T j = A; j < B; j++)" (or ++j, j += 1) over an int-like j, a body of
 * plain statements (no nested loop, break, continue, return, goto, barrier
 * or preprocessor line) that never assigns j, and accumulators that are
 * scalars declared earlier in the function with an arithmetic type,
 * updated only by one "acc += ...;" statement each and read nowhere else
 * in the body.
 *
 * Promise: pure text rewriting, deterministic; the input is never
 * modified. */
#ifndef CUDAPERF_GEN_PARTIAL_SUMS_H
#define CUDAPERF_GEN_PARTIAL_SUMS_H

#include <stddef.h>

/* Partial sums per accumulator for one to four accumulators: about 64 in
 * all, which an uncapped kernel still holds in registers (at most 255). */
int partial_sums_per_accumulator(int n_accumulators);

/* The source src with the loop whose line starts at byte `line` rewritten
 * with partial sums (partial_sums_per_accumulator of its accumulators); a
 * new string the caller frees, with *parts set to the count per
 * accumulator and *trip_count to the loop's trip count as the text
 * "(B) - (A)" (caller frees), which the caller may evaluate against the
 * problem's params: the partial sums take part only in loops of at least P
 * iterations.  NULL when the loop is not of the simple form above (then
 * *trip_count is untouched). */
char *partial_sums_rewrite(const char *src, size_t line, int *parts, char **trip_count);

#endif
