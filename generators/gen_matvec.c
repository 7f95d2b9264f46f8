/* gen_matvec.c — matrix shapes and layouts of the polybench matrix-vector
 * families (see gen_matvec.h). */
#include "gen_matvec.h"
#include "gen_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const MV_LAYOUT_TAG[] = {"row", "col", "pad"};

Shape mv_shape_of(int rect, int lay)
{
    Shape sh = {rect, lay, rect ? "m" : "n", "n"};
    return sh;
}

/* Element (r, c) of matrix x, its offset's multiplier prefixed by `cast`
 * ("" or "(long long)"); one of 12 rotating buffers. */
static const char *element(const Shape *sh, const char *x, const char *r, const char *c, const char *cast)
{
    static char pool[12][96];
    static int k;
    char *b = pool[k++ % 12];
    if (sh->lay == COL)
        snprintf(b, 96, "%s[%s + %s%s * %s]", x, r, cast, c, sh->R);
    else
        snprintf(b, 96, "%s[%s%s * %s + %s]", x, cast, r, sh->lay == PAD ? "lda" : sh->C, c);
    return b;
}

/* Element (r, c) of matrix x. */
const char *mv_at(const Shape *sh, const char *x, const char *r, const char *c)
{
    return element(sh, x, r, c, "");
}

/* The storage shape of a matrix argument, e.g. "m,lda". */
const char *mv_mat_shape(const Shape *sh)
{
    static char b[32];
    if (sh->lay == COL)
        snprintf(b, sizeof b, "%s,%s", sh->C, sh->R);
    else
        snprintf(b, sizeof b, "%s,%s", sh->R, sh->lay == PAD ? "lda" : sh->C);
    return b;
}

/* ", int m, int n, int lda" and friends, for the signature. */
const char *mv_size_params(const Shape *sh)
{
    static char b[48];
    snprintf(b, sizeof b, "%s%s", sh->rect ? ", int m, int n" : ", int n", sh->lay == PAD ? ", int lda" : "");
    return b;
}

/* Declares the size params and the configs.  The large config holds about
 * 2.5e8 matrix elements in all, split over `matrices` (1 or 2) matrices. */
void mv_shape_configs(GenProgram *p, const Shape *sh, int matrices)
{
    if (sh->rect)
        gen_arg(p, "m", "i32", "param", NULL);
    gen_arg(p, "n", "i32", "param", NULL);
    if (sh->lay == PAD)
        gen_arg(p, "lda", "i32", "param", NULL);
    int pad = sh->lay == PAD;
    if (!sh->rect) {
        gen_config(p, "small", pad ? "n=300,lda=320" : "n=300");
        gen_config(p, "edge", pad ? "n=1,lda=3" : "n=1");
        gen_config(p, "edge-prime", pad ? "n=97,lda=101" : "n=97");
        if (matrices == 1)
            gen_config(p, "large", pad ? "n=16000,lda=16384" : "n=16384");
        else
            gen_config(p, "large", pad ? "n=11000,lda=11264" : "n=11264");
    } else {
        gen_config(p, "small", pad ? "m=256,n=384,lda=400" : "m=256,n=384");
        gen_config(p, "edge", pad ? "m=1,n=1,lda=2" : "m=1,n=1");
        gen_config(p, "edge-prime", pad ? "m=131,n=67,lda=71" : "m=131,n=67");
        gen_config(p, "edge-wide", pad ? "m=3,n=257,lda=263" : "m=3,n=257");
        if (matrices == 1)
            gen_config(p, "large", pad ? "m=12288,n=20000,lda=20480" : "m=12288,n=20480");
        else
            gen_config(p, "large", pad ? "m=8192,n=15000,lda=15360" : "m=8192,n=15360");
    }
}

/* The large config's rows and columns, for tolerance estimates. */
void mv_large_dims(const Shape *sh, int matrices, double *rows, double *cols)
{
    if (!sh->rect)
        *rows = *cols = matrices == 1 ? 16384 : 11264;
    else if (matrices == 1)
        *rows = 12288, *cols = 20480;
    else
        *rows = 8192, *cols = 15360;
}

/* The storage comment for the program's header. */
const char *mv_layout_comment(const Shape *sh)
{
    switch (sh->lay) {
    case COL:
        return sh->rect ? " * A is stored column-major: A(i, j) is A[i + j * m]. */\n"
                        : " * A is stored column-major: A(i, j) is A[i + j * n]. */\n";
    case PAD:
        return " * A is row-major with leading dimension lda >= n: A(i, j) is A[i * lda + j]. */\n";
    default:
        return " * A is row-major. */\n";
    }
}

/* ---- the CUDA side ---- */

/* Element (r, c) of matrix x in the CUDA source, with a 64-bit row or
 * column offset (the large f64 configs come within 3% of 2^31 bytes). */
const char *mv_cuda_at(const Shape *sh, const char *x, const char *r, const char *c)
{
    return element(sh, x, r, c, "(long long)");
}

/* One matrix-vector kernel: out[o] = (or, with accumulate, +=) sum over k
 * of A(o, k) * v[k] (rows = 1) or of A(k, o) * v[k] (rows = 0).  When k walks A's contiguous
 * dimension a warp owns each output and reduces with shuffles (coalesced
 * loads); otherwise one thread owns each output and neighbouring threads
 * read neighbouring elements.  Launches it and returns the mapping. */
const char *mv_emit_matvec(GenProgram *p, const Shape *sh, const char *ty, const char *kname, int rows,
                           const char *v, const char *out, int accumulate)
{
    const char *assign = accumulate ? "+=" : "=";
    StrBuf *k = gen_cuda_src(p);
    const char *no = rows ? sh->R : sh->C, *nr = rows ? sh->C : sh->R;
    const char *elem = rows ? mv_cuda_at(sh, "A", "o", "k") : mv_cuda_at(sh, "A", "k", "o");
    int warp = rows ? sh->lay != COL : sh->lay == COL;
    char params[200], args[64], grid[32];
    snprintf(params, sizeof params, "const %s *__restrict__ A, const %s *__restrict__ %s, %s *__restrict__ %s%s",
             ty, ty, v, ty, out, mv_size_params(sh));
    snprintf(args, sizeof args, "A,%s,%s%s%s", v, out, sh->rect ? ",m,n" : ",n", sh->lay == PAD ? ",lda" : "");
    char head[64];
    snprintf(head, sizeof head, "extern \"C\" __global__ void %s", kname);
    if (warp) {
        sb_printf(k, "/* %s[o] %s sum over k of A(%s) %s[k]: one warp per output, shuffle reduction. */\n", out,
                  assign, rows ? "o, k" : "k, o", v);
        text_put_signature(k, head, params);
        sb_printf(k,
                  "{\n"
                  "    const int lane = threadIdx.x %% 32;\n"
                  "    const int o = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
                  "    if (o >= %s)\n        return;\n"
                  "    %s acc = 0;\n"
                  "    for (int k = lane; k < %s; k += 32)\n"
                  "        acc += %s * %s[k];\n"
                  "    for (int off = 16; off > 0; off /= 2)\n"
                  "        acc += __shfl_down_sync(0xffffffffu, acc, off);\n"
                  "    if (lane == 0)\n        %s[o] %s acc;\n"
                  "}\n",
                  no, ty, nr, elem, v, out, assign);
        /* 32 threads per output, counted in threads so that the grid stays
         * right for any block size that is a multiple of 32. */
        snprintf(grid, sizeof grid, "(%s*32+255)/256", no);
    } else {
        sb_printf(k, "/* %s[o] %s sum over k of A(%s) %s[k]: one thread per output. */\n", out,
                  assign, rows ? "o, k" : "k, o", v);
        text_put_signature(k, head, params);
        sb_printf(k,
                  "{\n"
                  "    const int o = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (o >= %s)\n        return;\n"
                  "    %s acc = 0;\n"
                  "    for (int k = 0; k < %s; k++)\n"
                  "        acc += %s * %s[k];\n"
                  "    %s[o] %s acc;\n"
                  "}\n",
                  no, ty, nr, elem, v, out, assign);
        snprintf(grid, sizeof grid, "(%s+255)/256", no);
    }
    gen_launch(p, kname, grid, "256", NULL, args);
    return warp ? "warp-per-output-shuffle" : "thread-per-output";
}
