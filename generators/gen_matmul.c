/* gen_matmul.c — the tiled matrix product of pb_2mm and pb_3mm (see
 * gen_matmul.h). */
#include "gen_matmul.h"

#include <stdio.h>

#include "gen_text.h"

/* Element (r, c) of matrix x with `rows` rows and `cols` columns. */
const char *mm_at(const char *x, int colmajor, const char *r, const char *c, const char *rows, const char *cols)
{
    static char pool[12][96];
    static int k;
    char *b = pool[k++ % 12];
    if (colmajor)
        snprintf(b, 96, "%s[%s + %s * %s]", x, r, c, rows);
    else
        snprintf(b, 96, "%s[%s * %s + %s]", x, r, cols, c);
    return b;
}

/* Appends one tiled matrix-product kernel: z (rows x cols, row-major) from
 * x (rows x inner, row-major) and y (inner x cols; row-major, or stored
 * transposed as cols x inner when ytrans).  A 16 x 16 block computes a
 * 16 x 16 tile of z, staging 16 x 16 tiles of x and y through shared
 * memory; a transposed y is read along its rows (coalesced) and stored
 * transposed in the tile.  `scalars` is appended to the parameter list
 * (", float alpha" ...); `store` writes the result acc to z[o]. */
void mm_emit_matmul(GenProgram *p, const char *kname, const char *ty, int ytrans, const char *scalars,
                    const char *comment, const char *store)
{
    StrBuf *k = gen_cuda_src(p);
    char head[64], params[200];
    snprintf(head, sizeof head, "extern \"C\" __global__ void %s", kname);
    snprintf(params, sizeof params,
             "const %s *__restrict__ x, const %s *__restrict__ y, %s *__restrict__ z%s, int rows, int inner, "
             "int cols",
             ty, ty, ty, scalars);
    sb_printf(k, "/* %s\n * z is rows x cols, x rows x inner, y %s; all row-major. */\n", comment,
              ytrans ? "stored transposed (cols x inner)" : "inner x cols");
    text_put_signature(k, head, params);
    sb_printf(k,
              "{\n"
              "    __shared__ %s xs[TILE][TILE];\n"
              "    __shared__ %s ys[TILE][TILE + 1];\n"
              "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
              "    const int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;\n"
              "    %s acc = 0;\n"
              "    for (int k0 = 0; k0 < inner; k0 += TILE) {\n"
              "        xs[ty][tx] = r < rows && k0 + tx < inner ? x[(long long)r * inner + k0 + tx] : 0;\n",
              ty, ty, ty);
    if (ytrans)
        sb_append(k, "        const int yc = blockIdx.x * TILE + ty;\n"
                     "        ys[tx][ty] = k0 + tx < inner && yc < cols ? y[(long long)yc * inner + k0 + tx] : 0;\n");
    else
        sb_append(k, "        ys[ty][tx] = k0 + ty < inner && c < cols ? y[(long long)(k0 + ty) * cols + c] : 0;\n");
    sb_printf(k,
              "        __syncthreads();\n"
              "        for (int kk = 0; kk < TILE; kk++)\n"
              "            acc += xs[ty][kk] * ys[kk][tx];\n"
              "        __syncthreads();\n"
              "    }\n"
              "    if (r < rows && c < cols) {\n"
              "        const long long o = (long long)r * cols + c;\n"
              "        %s;\n"
              "    }\n"
              "}\n",
              store);
}

/* Launches kname for z = x y with z rows x cols and inner dimension inner
 * (param names or expressions); `scalars` lists scalar args (",alpha"). */
void mm_launch_matmul(GenProgram *p, const char *kname, const char *x, const char *y, const char *z,
                      const char *scalars, const char *rows, const char *inner, const char *cols)
{
    char grid[64], args[96];
    snprintf(grid, sizeof grid, "(%s+15)/16,(%s+15)/16", cols, rows);
    snprintf(args, sizeof args, "%s,%s,%s%s,%s,%s,%s", x, y, z, scalars, rows, inner, cols);
    gen_launch(p, kname, grid, "16,16", NULL, args);
}
