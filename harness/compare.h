/* compare.h — is a candidate's output the reference's, within tolerance?
 *
 * Floats (f16, bf16, f32, f64) match when |got - want| <= atol + rtol*|want|
 * elementwise; a NaN or an infinity in either must be matched exactly (NaN
 * by NaN, +Inf by +Inf), so a poisoned element the kernel never wrote (NaN)
 * fails wherever the reference is finite.  Integers and bool must be equal
 * bit for bit.  The result names the first mismatching element and the
 * values there, and the largest absolute and relative errors, as llm.c's
 * checks print them. */
#ifndef CUDAPERF_COMPARE_H
#define CUDAPERF_COMPARE_H

#include <stdint.h>

#include "common/dtype.h"

typedef struct CompareResult {
    int64_t n;          /* elements compared */
    int64_t n_bad;      /* elements outside tolerance */
    int64_t first_bad;  /* index of the first, -1 when none */
    double got, want;   /* the values there */
    double max_abs;     /* over all elements; INFINITY when a non-finite value mismatched */
    double max_rel;     /* |got-want|/|want| over elements with want != 0 (INFINITY for got != 0 = want) */
    int64_t max_abs_index;
} CompareResult;

/* Compares n elements of dtype t.  Never fails. */
void compare_buffers(DType t, const void *got, const void *want, int64_t n, double atol, double rtol,
                     CompareResult *r);

/* The first index where two byte-identical-expected buffers differ (inputs
 * after the kernel ran), in elements of dtype t; -1 when they are equal. */
int64_t compare_first_change(DType t, const void *after, const void *before, int64_t n);

#endif
