/* gen_stat.h — one statistic of a row or of a column (sum, mean, max, min,
 * sums of squares and norms, variance, logsumexp, product, largest
 * magnitude, range, count above a threshold) with its fused epilogue, as
 * the reduce_rows and reduce_cols families write it.
 *
 * Promise: the C text these emit reads one run of c elements as a row
 * (reduce_cols writes its column-major runs in that transposed view and
 * renames afterwards); type names are C's for the program and CUDA's for
 * the kernel.  Returned strings are literals or the caller's buffer.
 * Deterministic. */
#ifndef CUDAPERF_GEN_STAT_H
#define CUDAPERF_GEN_STAT_H

#include "../common/strbuf.h"

typedef struct StatSpec {
    const char *op;
    const char *dt;
    char layout;     /* 'r' row-major, 'l' row-major with leading dimension ld, 'c' column-major */
    const char *epi; /* "", "scale", "sqrt", "bias", "acc", "norm", "affine" (reduce_cols only) */
} StatSpec;

int stat_is_float(const char *dt);
/* Whether the epilogue rewrites the matrix by the statistic ("norm", "affine")
 * rather than storing one value per run. */
int stat_normalises(const StatSpec *s);
/* The C type of dtype dt ("float", "double", "int32_t", "int64_t"). */
const char *stat_ctype(const char *dt);
/* The CUDA type of dtype dt ("float", "double", "int", "long long"). */
const char *stat_cuda_type(const char *dt);
/* The dtype of the output: the input's for float data, max and min; f64
 * for integer means; i64 for integer sums and counts. */
const char *stat_out_dtype(const StatSpec *s);
/* The accumulator type of single-pass ops. */
const char *stat_acc_type(const StatSpec *s);
/* Appends the update of accumulator `a` with element `v`, indented by ind. */
void stat_emit_update(StrBuf *s, const StatSpec *sp, const char *ind, const char *a, const char *v);
/* The statistic as an expression of accumulator `a`, written into buf (64 bytes). */
const char *stat_value_of(char *buf, const StatSpec *sp, const char *a);
/* Appends out[i] = epilogue(val) for the scalar epilogues. */
void stat_emit_store(StrBuf *s, const StatSpec *sp, const char *ind, const char *val);

#endif
