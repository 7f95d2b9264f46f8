/* gen_matvec.h — dense matrix shapes and storage layouts shared by the
 * polybench matrix-vector families (pb_atax, pb_bicg, pb_mvt, pb_gesummv).
 *
 * Promise: a Shape names an R x C matrix (square n x n, or m x n) stored
 * row-major, column-major or row-major with a padded leading dimension lda;
 * mv_at() and mv_mat_shape() spell its elements and storage shape in C,
 * mv_shape_configs() declares its size params and the families' configs
 * (small, edge, edge-prime, [edge-wide], large holding about 2.5e8 matrix
 * elements over `matrices` matrices), mv_large_dims() gives the large
 * config's dimensions for tolerance estimates.  Strings returned come from
 * rotating static buffers (valid for a few calls).  Deterministic. */
#ifndef CUDAPERF_GEN_MATVEC_H
#define CUDAPERF_GEN_MATVEC_H

#include "gen.h"

enum { ROW, COL, PAD };

/* The matrix shape of one program: rows R x columns C, stored row-major,
 * column-major, or row-major with a padded leading dimension lda >= C. */
typedef struct Shape {
    int rect, lay;
    const char *R, *C;
} Shape;

extern const char *const MV_LAYOUT_TAG[]; /* "row", "col", "pad" */

/* Rounds a tolerance up to two significant digits. */
double mv_tol2(double v);
/* Appends "<head>(<params>)\n", wrapping the parameters at 100 columns. */
void mv_put_signature(StrBuf *s, const char *head, const char *params);
Shape mv_shape_of(int rect, int lay);
/* Element (r, c) of matrix x. */
const char *mv_at(const Shape *sh, const char *x, const char *r, const char *c);
/* The storage shape of a matrix argument, e.g. "m,lda". */
const char *mv_mat_shape(const Shape *sh);
/* ", int m, int n, int lda" and friends, for the signature. */
const char *mv_size_params(const Shape *sh);
void mv_shape_configs(GenProgram *p, const Shape *sh, int matrices);
void mv_large_dims(const Shape *sh, int matrices, double *rows, double *cols);
/* The storage comment for a program's header. */
const char *mv_layout_comment(const Shape *sh);

#endif
