/* gen_matmul.h — the matrix product that pb_2mm and pb_3mm chain: element
 * access for their C programs and one tiled CUDA kernel with its launch.
 *
 * Promise: mm_emit_matmul() appends a complete kernel (16 x 16 tiles staged
 * through shared memory, TILE defined by the caller's kernel.cu) computing
 * z = x y for row-major operands, y optionally stored transposed, and
 * mm_launch_matmul() adds its launch (block 16 x 16, one per tile of z).
 * mm_at() returns one of 12 rotating static buffers.  Deterministic. */
#ifndef CUDAPERF_GEN_MATMUL_H
#define CUDAPERF_GEN_MATMUL_H

#include "gen.h"

/* Element (r, c) of matrix x (rows x cols), column-major when colmajor. */
const char *mm_at(const char *x, int colmajor, const char *r, const char *c, const char *rows, const char *cols);
/* Appends kernel kname: z (rows x cols) from x (rows x inner) and y (inner x
 * cols, or cols x inner when ytrans); `scalars` extends the parameter list
 * (", float alpha"), `comment` heads the kernel, `store` writes acc to z[o]. */
void mm_emit_matmul(GenProgram *p, const char *kname, const char *ty, int ytrans, const char *scalars,
                    const char *comment, const char *store);
/* Launches kname for z = x y with z rows x cols and inner dimension inner
 * (param names or expressions); `scalars` lists scalar args (",alpha"). */
void mm_launch_matmul(GenProgram *p, const char *kname, const char *x, const char *y, const char *z,
                      const char *scalars, const char *rows, const char *inner, const char *cols);

#endif
