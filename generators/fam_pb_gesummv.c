/* pb_gesummv — y = alpha * A x + beta * B x for two m x n (or square
 * n x n) matrices A and B.
 *
 * Programs vary in dtype (f32, f64), in whether alpha and beta are runtime
 * scalars or constants baked into the code, in the storage of A and B
 * (row-major, column-major, row-major with a padded leading dimension), in
 * square versus rectangular shapes (alternating across the other axes), and
 * in form: through an output tmp = A x, or fused with two local accumulators
 * per row. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_matvec.h"
#include "gen_text.h"

/* The large config's rows and columns, for tolerance estimates. */
static void large_dims(const Shape *sh, int matrices, double *rows, double *cols)
{
    if (!sh->rect)
        *rows = *cols = matrices == 1 ? 16384 : 11264;
    else if (matrices == 1)
        *rows = 12288, *cols = 20480;
    else
        *rows = 8192, *cols = 15360;
}

/* ---- the pair ---- */

/* The pair: one launch, each output row i accumulating A x and B x side by
 * side.  Row-major A and B: a warp per row, lanes striding along the row
 * and a shuffle reduction; column-major: a thread per row, so neighbouring
 * threads read neighbouring elements of each column. */
static void emit_cuda(GenProgram *p, const Shape *sh, int fused, int runtime, int f64, const char *al,
                      const char *be)
{
    const char *ty = text_ctype(f64);
    StrBuf *k = gen_cuda_src(p);
    int warp = sh->lay != COL;
    char params[300], args[96], head[64], grid[32];
    int pl = snprintf(params, sizeof params,
                      "const %s *__restrict__ A, const %s *__restrict__ B, const %s *__restrict__ x, "
                      "%s *__restrict__ y",
                      ty, ty, ty, ty);
    int al_len = snprintf(args, sizeof args, "A,B,x,y");
    if (!fused) {
        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *__restrict__ tmp", ty);
        al_len += snprintf(args + al_len, sizeof args - (size_t)al_len, ",tmp");
    }
    if (runtime) {
        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s alpha, %s beta", ty, ty);
        al_len += snprintf(args + al_len, sizeof args - (size_t)al_len, ",alpha,beta");
    }
    snprintf(params + pl, sizeof params - (size_t)pl, "%s", mv_size_params(sh));
    snprintf(args + al_len, sizeof args - (size_t)al_len, "%s%s", sh->rect ? ",m,n" : ",n", sh->lay == PAD ? ",lda" : "");
    snprintf(head, sizeof head, "extern \"C\" __global__ void gesummv");
    sb_printf(k, "/* y[i] = %s * (A x)[i] + %s * (B x)[i]%s: one %s per row i%s. */\n", al, be,
              fused ? "" : ", tmp[i] = (A x)[i]", warp ? "warp" : "thread", warp ? ", shuffle reduction" : "");
    text_put_signature(k, head, params);
    if (warp) {
        sb_printf(k,
                  "{\n"
                  "    const int lane = threadIdx.x %% 32;\n"
                  "    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
                  "    if (i >= %s)\n        return;\n"
                  "    %s ax = 0, bx = 0;\n"
                  "    for (int j = lane; j < %s; j += 32) {\n"
                  "        ax += %s * x[j];\n"
                  "        bx += %s * x[j];\n"
                  "    }\n"
                  "    for (int off = 16; off > 0; off /= 2) {\n"
                  "        ax += __shfl_down_sync(0xffffffffu, ax, off);\n"
                  "        bx += __shfl_down_sync(0xffffffffu, bx, off);\n"
                  "    }\n"
                  "    if (lane == 0) {\n",
                  sh->R, ty, sh->C, mv_cuda_at(sh, "A", "i", "j"), mv_cuda_at(sh, "B", "i", "j"));
        if (!fused)
            sb_append(k, "        tmp[i] = ax;\n");
        sb_printf(k, "        y[i] = %s * ax + %s * bx;\n    }\n}\n", al, be);
        /* 32 threads per output, counted in threads so that the grid stays
         * right for any block size that is a multiple of 32. */
        snprintf(grid, sizeof grid, "(%s*32+255)/256", sh->R);
    } else {
        sb_printf(k,
                  "{\n"
                  "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i >= %s)\n        return;\n"
                  "    %s ax = 0, bx = 0;\n"
                  "    for (int j = 0; j < %s; j++) {\n"
                  "        ax += %s * x[j];\n"
                  "        bx += %s * x[j];\n"
                  "    }\n",
                  sh->R, ty, sh->C, mv_cuda_at(sh, "A", "i", "j"), mv_cuda_at(sh, "B", "i", "j"));
        if (!fused)
            sb_append(k, "    tmp[i] = ax;\n");
        sb_printf(k, "    y[i] = %s * ax + %s * bx;\n}\n", al, be);
        snprintf(grid, sizeof grid, "(%s+255)/256", sh->R);
    }
    gen_launch(p, "gesummv", grid, "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", warp ? "warp-per-row-shuffle" : "thread-per-row");
}

static int generate(GenCtx *g)
{
    for (int lay = 0; lay < 3; lay++)
        for (int fused = 0; fused < 2; fused++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int runtime = 0; runtime < 2; runtime++) {
                    int rect = (lay + fused + f64 + runtime) % 2 == 1;
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    Shape sh = mv_shape_of(rect, lay);
                    const char *R = sh.R, *C = sh.C;
                    double alpha_v = round(gen_uniform(g, 0.5, 2.0) * 20) / 20;
                    double beta_v = round(gen_uniform(g, 0.5, 2.0) * 20) / 20;
                    char al[40], be[40];
                    snprintf(al, sizeof al, "%s", runtime ? "alpha" : text_lit(alpha_v, f64));
                    snprintf(be, sizeof be, "%s", runtime ? "beta" : text_lit(beta_v, f64));
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s-%s", fused ? "fused" : "tmp", MV_LAYOUT_TAG[lay], dt,
                             runtime ? "scalars" : "const", rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "gesummv");
                    gen_describe(p, "y = alpha*A*x + beta*B*x; %s matrices, %s, %s alpha/beta%s",
                                 rect ? "m x n" : "n x n",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "padded row-major",
                                 runtime ? "runtime" : "constant", fused ? ", fused" : ", through tmp = A x");
                    gen_arg(p, "A", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "B", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "x", dt, "in", "n");
                    gen_arg(p, "y", dt, "out", R);
                    if (!fused)
                        gen_arg(p, "tmp", dt, "out", R);
                    if (runtime) {
                        gen_scalar(p, "alpha", dt, alpha_v);
                        gen_scalar(p, "beta", dt, beta_v);
                    }
                    mv_shape_configs(p, &sh, 2);
                    char flops[64], bytes[96];
                    snprintf(flops, sizeof flops, "4*%s*n + 3*%s", R, R);
                    snprintf(bytes, sizeof bytes, "%d*(2*%s*n + n + %d*%s)", f64 ? 8 : 4, R, fused ? 1 : 2, R);
                    gen_cost(p, flops, bytes);
                    double rows, cols;
                    large_dims(&sh, 2, &rows, &cols);
                    double mag = (alpha_v + beta_v) * sqrt(cols) / 3;
                    if (f64)
                        gen_tolerance(p, 1e-9, 1e-7);
                    else
                        gen_tolerance(p, text_tol2(3e-5 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* gesummv: y = alpha * A x + beta * B x for %s matrices A and B%s.\n",
                              rect ? "m x n" : "n x n", fused ? "" : ";\n * tmp = A x");
                    if (lay == ROW)
                        sb_append(s, " * A and B are row-major. */\n");
                    else if (lay == COL)
                        sb_printf(s, " * A and B are column-major: A(i, j) is A[i + j * %s]. */\n", R);
                    else
                        sb_append(s, " * A and B are row-major with leading dimension lda >= n:\n"
                                     " * A(i, j) is A[i * lda + j]. */\n");
                    char params[240];
                    int pl = snprintf(params, sizeof params, "const %s *A, const %s *B, const %s *x, %s *y", ty, ty, ty,
                                      ty);
                    if (!fused)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *tmp", ty);
                    if (runtime)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s alpha, %s beta", ty, ty);
                    snprintf(params + pl, sizeof params - (size_t)pl, "%s", mv_size_params(&sh));
                    text_put_signature(s, "void gesummv", params);
                    sb_append(s, "{\n");
                    if (lay != COL && fused) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s ax = 0, bx = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "            ax += %s * x[j];\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            bx += %s * x[j];\n        }\n", mv_at(&sh, "B", "i", "j"));
                        sb_printf(s, "        y[i] = %s * ax + %s * bx;\n    }\n}\n", al, be);
                    } else if (lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_append(s, "        tmp[i] = 0;\n        y[i] = 0;\n");
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "            tmp[i] += %s * x[j];\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            y[i] += %s * x[j];\n        }\n", mv_at(&sh, "B", "i", "j"));
                        sb_printf(s, "        y[i] = %s * tmp[i] + %s * y[i];\n    }\n}\n", al, be);
                    } else {
                        /* Column-major: sweep A and B column by column. */
                        const char *ax = fused ? "y" : "tmp";
                        if (fused)
                            sb_printf(s, "    for (int i = 0; i < %s; i++)\n        y[i] = 0;\n", R);
                        else
                            sb_printf(s, "    for (int i = 0; i < %s; i++) {\n        tmp[i] = 0;\n        y[i] = 0;\n    }\n",
                                      R);
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        if (fused) {
                            sb_printf(s, "        %s xa = %s * x[j], xb = %s * x[j];\n", ty, al, be);
                            sb_printf(s, "        for (int i = 0; i < %s; i++)\n", R);
                            sb_printf(s, "            y[i] += %s * xa + %s * xb;\n    }\n}\n", mv_at(&sh, "A", "i", "j"),
                                      mv_at(&sh, "B", "i", "j"));
                        } else {
                            sb_printf(s, "        for (int i = 0; i < %s; i++) {\n", R);
                            sb_printf(s, "            %s[i] += %s * x[j];\n", ax, mv_at(&sh, "A", "i", "j"));
                            sb_printf(s, "            y[i] += %s * x[j];\n        }\n    }\n", mv_at(&sh, "B", "i", "j"));
                            sb_printf(s, "    for (int i = 0; i < %s; i++)\n", R);
                            sb_printf(s, "        y[i] = %s * tmp[i] + %s * y[i];\n}\n", al, be);
                        }
                    }
                    emit_cuda(p, &sh, fused, runtime, f64, al, be);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_gesummv = {"pb_gesummv", "polyhedral", 24, generate};
