/* gen_matvec.h — dense matrix shapes and storage layouts shared by the
 * polybench matrix-vector families (pb_atax, pb_bicg, pb_mvt, pb_gesummv).
 *
 * Promise: a Shape names an R x C matrix (square n x n, or m x n) stored
 * row-major, column-major or row-major with a padded leading dimension lda;
 * mv_at() and mv_mat_shape() spell its elements and storage shape in C,
 * mv_shape_configs() declares its size params and the families' configs
 * (small, edge, edge-prime, [edge-wide], large holding about 2.5e8 matrix
 * elements over `matrices` matrices), mv_large_dims() gives the large
 * config's dimensions for tolerance estimates; mv_emit_matvec() writes the
 * CUDA kernel of one product, reading A coalesced.  Strings returned come from
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

/* The CUDA side. */
/* Element (r, c) of matrix x in CUDA source, its row or column offset
 * computed in 64 bits. */
const char *mv_cuda_at(const Shape *sh, const char *x, const char *r, const char *c);
/* Emits and launches (block 256) one matrix-vector kernel `kname`:
 * out[o] = sum over k of A(o, k) v[k] (rows = 1) or of A(k, o) v[k]
 * (rows = 0), `+=` instead with accumulate.  A warp per output with a
 * shuffle reduction where k walks A's contiguous dimension, else a thread
 * per output, so A is read coalesced either way.  Returns the mapping's
 * knob value ("warp-per-output-shuffle" or "thread-per-output"). */
const char *mv_emit_matvec(GenProgram *p, const Shape *sh, const char *ty, const char *kname, int rows,
                           const char *v, const char *out, int accumulate);

#endif
