/* pb_atax — y = A^T (A x) for an m x n (or square n x n) matrix A.
 *
 * Programs vary in dtype (f32, f64), in the storage of A (row-major,
 * column-major, row-major with a padded leading dimension), in square versus
 * rectangular shapes, and in form: two loop nests through an output tmp = A x
 * (each nest walking A in its storage order), or one fused pass over the rows
 * of A that keeps A x in a local and never stores it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_matvec.h"

static const char *ctype(int f64)
{
    return f64 ? "double" : "float";
}

/* Element (r, c) of A in the CUDA source, with a 64-bit row or column
 * offset (the large f64 configs come within 3% of 2^31 bytes). */
static const char *cuda_at(const Shape *sh, const char *r, const char *c)
{
    static char pool[4][96];
    static int k;
    char *b = pool[k++ % 4];
    if (sh->lay == COL)
        snprintf(b, 96, "A[%s + (long long)%s * %s]", r, c, sh->R);
    else
        snprintf(b, 96, "A[(long long)%s * %s + %s]", r, sh->lay == PAD ? "lda" : sh->C, c);
    return b;
}

/* One matrix-vector kernel: out[o] = sum over k of A(o, k) * v[k] (rows =
 * 1) or of A(k, o) * v[k] (rows = 0).  When k walks A's contiguous
 * dimension a warp owns each output and reduces with shuffles (coalesced
 * loads); otherwise one thread owns each output and neighbouring threads
 * read neighbouring elements.  Launches it and returns the mapping. */
static const char *emit_matvec(GenProgram *p, const Shape *sh, const char *ty, const char *kname, int rows,
                               const char *v, const char *out)
{
    StrBuf *k = gen_cuda_src(p);
    const char *no = rows ? sh->R : sh->C, *nr = rows ? sh->C : sh->R;
    const char *elem = rows ? cuda_at(sh, "o", "k") : cuda_at(sh, "k", "o");
    int warp = rows ? sh->lay != COL : sh->lay == COL;
    char params[200], args[64], grid[32];
    snprintf(params, sizeof params, "const %s *__restrict__ A, const %s *__restrict__ %s, %s *__restrict__ %s%s",
             ty, ty, v, ty, out, mv_size_params(sh));
    snprintf(args, sizeof args, "A,%s,%s%s%s", v, out, sh->rect ? ",m,n" : ",n", sh->lay == PAD ? ",lda" : "");
    char head[64];
    snprintf(head, sizeof head, "extern \"C\" __global__ void %s", kname);
    if (warp) {
        sb_printf(k, "/* %s[o] = sum over k of A(%s) %s[k]: one warp per output, shuffle reduction. */\n", out,
                  rows ? "o, k" : "k, o", v);
        mv_put_signature(k, head, params);
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
                  "    if (lane == 0)\n        %s[o] = acc;\n"
                  "}\n",
                  no, ty, nr, elem, v, out);
        /* 32 threads per output, counted in threads so that the grid stays
         * right for any block size that is a multiple of 32. */
        snprintf(grid, sizeof grid, "(%s*32+255)/256", no);
    } else {
        sb_printf(k, "/* %s[o] = sum over k of A(%s) %s[k]: one thread per output. */\n", out,
                  rows ? "o, k" : "k, o", v);
        mv_put_signature(k, head, params);
        sb_printf(k,
                  "{\n"
                  "    const int o = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (o >= %s)\n        return;\n"
                  "    %s acc = 0;\n"
                  "    for (int k = 0; k < %s; k++)\n"
                  "        acc += %s * %s[k];\n"
                  "    %s[o] = acc;\n"
                  "}\n",
                  no, ty, nr, elem, v, out);
        snprintf(grid, sizeof grid, "(%s+255)/256", no);
    }
    gen_launch(p, kname, grid, "256", NULL, args);
    return warp ? "warp-per-output-shuffle" : "thread-per-output";
}

/* The pair: two launches, tmp = A x then y = A^T tmp (the fused program
 * keeps tmp in a scratch buffer).  Each pass gets the mapping that reads A
 * coalesced: a warp per output along A's contiguous dimension, a thread per
 * output across it. */
static void emit_cuda(GenProgram *p, const Shape *sh, int fused, int f64)
{
    const char *ty = ctype(f64);
    const char *tmp = fused ? "ax" : "tmp";
    if (fused)
        gen_scratch(p, "ax", f64 ? "f64" : "f32", sh->R);
    const char *m1 = emit_matvec(p, sh, ty, "atax_ax", 1, "x", tmp);
    sb_append(gen_cuda_src(p), "\n");
    const char *m2 = emit_matvec(p, sh, ty, "atax_aty", 0, tmp, "y");
    char mapping[96];
    snprintf(mapping, sizeof mapping, "two-pass: %s, %s", m1, m2);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", mapping);
}

static int generate(GenCtx *g)
{
    for (int lay = 0; lay < 3; lay++)
        for (int fused = 0; fused < 2; fused++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int rect = 0; rect < 2; rect++) {
                    const char *ty = ctype(f64), *dt = f64 ? "f64" : "f32";
                    Shape sh = mv_shape_of(rect, lay);
                    const char *R = sh.R, *C = sh.C;
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", fused ? "fused" : "twopass", MV_LAYOUT_TAG[lay], dt,
                             rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "atax");
                    gen_describe(p, "y = A^T (A x), %s A, %s%s", rect ? "m x n" : "n x n",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "padded row-major",
                                 fused ? ", fused single pass" : ", two passes through tmp = A x");
                    gen_arg(p, "A", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "x", dt, "in", "n");
                    gen_arg(p, "y", dt, "out", "n");
                    if (!fused)
                        gen_arg(p, "tmp", dt, "out", R);
                    mv_shape_configs(p, &sh, 1);
                    char flops[64], bytes[96];
                    snprintf(flops, sizeof flops, "4*%s*n", R);
                    snprintf(bytes, sizeof bytes, "%d*(%s*n + 2*n%s%s)", f64 ? 8 : 4, R, fused ? "" : " + ",
                             fused ? "" : R);
                    gen_cost(p, flops, bytes);
                    /* column-major A read along its rows by the C loops: a
                     * 64-byte line per element, per pass over A */
                    if (lay == COL) {
                        char ref_bytes[64];
                        snprintf(ref_bytes, sizeof ref_bytes, "%d*%s*n", fused ? 128 : 64, R);
                        gen_reference_cost(p, NULL, ref_bytes);
                    }
                    /* y_j sums rows of A weighted by (A x)_i ~ sqrt(n)/3. */
                    double rows, cols;
                    mv_large_dims(&sh, 1, &rows, &cols);
                    double mag = sqrt(rows) / sqrt(3.0) * sqrt(cols) / 3;
                    if (f64)
                        gen_tolerance(p, fmax(1e-9, mv_tol2(1e-11 * mag)), 1e-7);
                    else
                        gen_tolerance(p, mv_tol2(1e-4 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* atax: y = A^T (A x) for an %s matrix A%s.\n", rect ? "m x n" : "n x n",
                              fused ? "" : "; tmp = A x");
                    sb_append(s, mv_layout_comment(&sh));
                    char params[200];
                    snprintf(params, sizeof params, "const %s *A, const %s *x, %s *y%s%s%s", ty, ty, ty,
                             fused ? "" : ", ", fused ? "" : ty, fused ? "" : " *tmp");
                    strcat(params, mv_size_params(&sh));
                    mv_put_signature(s, "void atax", params);
                    sb_append(s, "{\n");
                    if (fused) {
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        y[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s ax = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            ax += %s * x[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            y[j] += %s * ax;\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "    }\n}\n");
                    } else if (lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            acc += %s * x[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        tmp[i] = acc;\n    }\n");
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        y[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n", R);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            y[j] += %s * tmp[i];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "}\n");
                    } else {
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n        tmp[i] = 0;\n", R);
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n", C);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            tmp[i] += %s * x[j];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            acc += %s * tmp[i];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        y[j] = acc;\n    }\n}\n");
                    }
                    emit_cuda(p, &sh, fused, f64);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_atax = {"pb_atax", "polyhedral", 24, generate};
