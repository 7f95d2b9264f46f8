/* pb_correlation — the m x m correlation matrix of the m variables
 * (columns) of an n x m data matrix: per-column mean and standard deviation
 * (population variance; a deviation <= eps counts as 1 so that a constant
 * column does not divide by zero), normalised data, and the products of the
 * normalised columns; the diagonal is 1.
 *
 * Programs vary in dtype (f32, f64), in the storage of the data (row-major:
 * one observation per row, or column-major: one variable per column), in
 * whether eps is a runtime scalar or a baked constant, and in form: data
 * normalised in place (an inout buffer), normalised into a separate output,
 * or never normalised (centred products divided by n * sd_i * sd_j). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_colmean.h"
#include "gen_tmpl.h"

enum { INPLACE, COPY, DIRECT };
static const char *const FORM_TAG[] = {"inplace", "copy", "direct"};

/* ---- the pair ---- */

/* Column means and deviations.  Row-major: one thread per column walking
 * the rows twice (consecutive threads read consecutive columns).
 * Column-major: one warp per column and two shuffle reductions.  @eps is
 * the scalar parameter or the baked constant. */
static const char STATS_ROWMAJOR[] =
    "/* mean[j] and stddev[j] of column j (population; a deviation <= @eps counts as\n"
    " * 1): one thread per column, walking the rows (consecutive threads read\n"
    " * consecutive columns). */\n"
    "@head"
    "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (j >= m)\n        return;\n"
    "    @T sum = 0;\n"
    "    for (int k = 0; k < n; k++)\n        sum += data[(long long)k * m + j];\n"
    "    const @T mu = sum / n;\n"
    "    @T ss = 0;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        const @T d = data[(long long)k * m + j] - mu;\n"
    "        ss += d * d;\n    }\n"
    "    const @T sd = @sqrt(ss / n);\n"
    "    mean[j] = mu;\n"
    "    stddev[j] = sd <= @eps ? @one : sd;\n"
    "}\n\n";
static const char STATS_COLMAJOR[] =
    "/* The sum over the 32 lanes of a warp (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ @T warp_sum(@T v)\n{\n"
    "    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    return v;\n}\n\n"
    "/* mean[j] and stddev[j] of column j (population; a deviation <= @eps counts as\n"
    " * 1): one warp per column, its lanes striding down the column (coalesced),\n"
    " * the mean reduced before the squared deviations. */\n"
    "@head"
    "    const long long j = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
    "    const int lane = threadIdx.x % 32;\n"
    "    if (j >= m)\n        return; /* the whole warp: columns are warp-uniform */\n"
    "    const @T *x = data + j * n;\n"
    "    @T sum = 0;\n"
    "    for (int k = lane; k < n; k += 32)\n        sum += x[k];\n"
    "    const @T mu = warp_sum(sum) / n;\n"
    "    @T ss = 0;\n"
    "    for (int k = lane; k < n; k += 32) {\n"
    "        const @T d = x[k] - mu;\n"
    "        ss += d * d;\n    }\n"
    "    ss = warp_sum(ss);\n"
    "    if (lane == 0) {\n"
    "        const @T sd = @sqrt(ss / n);\n"
    "        mean[j] = mu;\n"
    "        stddev[j] = sd <= @eps ? @one : sd;\n"
    "    }\n"
    "}\n\n";

/* The normalising launch: one thread per element, the column from the
 * storage order. */
static const char NORMALISE[] =
    "/* @out = (data - mean) / (sqrt(n) stddev), by column: one thread per element. */\n"
    "@head"
    "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (e >= (long long)n * m)\n        return;\n"
    "    const int j = (int)(@col);\n"
    "    const @T root_n = @sqrt((@T)n);\n"
    "    @out[e] = (data[e] - mean[j]) / (root_n * stddev[j]);\n"
    "}\n\n";

/* The product, tiled: block (bx, by) of 16 x 16 threads computes the tile
 * of rows by*16.. and columns bx*16.. when by <= bx (the upper triangle)
 * and writes it and its mirror; its threads stage 16 x 16 slabs of X's
 * columns i0.. and j0.. through shared memory, reading along X's storage
 * order (coalesced), and sum over k in order as the C program does.
 * Without a normalised copy the means are subtracted while staging and
 * the sum divided by n sd_i sd_j. */
static const char CORR_TILES[] =
    "#define TILE 16\n\n"
    "/* corr(i, j) = @formula (X the @what), 1 on the\n"
    " * diagonal: one 16 x 16 block per tile of the upper triangle, which it\n"
    " * also mirrors; X's columns staged through shared memory in 16-row slabs. */\n"
    "@head"
    "    __shared__ @T xi[TILE][TILE + 1]; /* xi[kk][c] = X(k0 + kk, i0 + c) */\n"
    "    __shared__ @T xj[TILE][TILE + 1]; /* xj[kk][c] = X(k0 + kk, j0 + c) */\n"
    "    if (blockIdx.y > blockIdx.x)\n        return; /* below the diagonal: the mirror of a computed tile */\n"
    "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
    "    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;\n"
    "    const int i = i0 + ty, j = j0 + tx;\n"
    "    @T acc = 0;\n"
    "    for (int k0 = 0; k0 < n; k0 += TILE) {\n"
    "@load"
    "        __syncthreads();\n"
    "        for (int kk = 0; kk < TILE; kk++)\n"
    "            acc += xi[kk][ty] * xj[kk][tx];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (i <= j && j < m) {\n"
    "        const @T r = i == j ? @one : @r;\n"
    "        corr[(long long)i * m + j] = r;\n"
    "        corr[(long long)j * m + i] = r;\n"
    "    }\n"
    "}\n";

/* Staging loads: row-major X(k, c) = x[k * m + c] is read with tx along c,
 * column-major X(k, c) = x[k + c * n] with tx along k. */
static const char LOAD_ROWMAJOR[] =
    "        const int k = k0 + ty;\n"
    "        xi[ty][tx] = k < n && i0 + tx < m ? @x[(long long)k * m + i0 + tx]@mi : 0;\n"
    "        xj[ty][tx] = k < n && j0 + tx < m ? @x[(long long)k * m + j0 + tx]@mj : 0;\n";
static const char LOAD_COLMAJOR[] =
    "        const int k = k0 + tx;\n"
    "        xi[tx][ty] = k < n && i0 + ty < m ? @x[k + (long long)(i0 + ty) * n]@mi : 0;\n"
    "        xj[tx][ty] = k < n && j0 + ty < m ? @x[k + (long long)(j0 + ty) * n]@mj : 0;\n";

/* Expands tmpl into k with @head set to the kernel's declaration line
 * (wrapped at 100 columns) and opening brace. */
static void put_kernel(StrBuf *k, TmplSubs *ts, const char *tmpl, const char *name, const char *params)
{
    StrBuf line = STRBUF_INIT, head = STRBUF_INIT, ps = STRBUF_INIT;
    tmpl_expand(&ps, ts, params);
    sb_printf(&line, "extern \"C\" __global__ void %s(%s)", name, ps.data);
    tmpl_put_wrapped(&head, line.data);
    sb_append(&head, "\n{\n");
    tmpl_set(ts, "head", head.data);
    tmpl_expand(k, ts, tmpl);
    tmpl_set(ts, "head", "");
    sb_release(&line);
    sb_release(&head);
    sb_release(&ps);
}

/* The pair: column statistics, normalisation (unless direct), then the
 * tiled product. */
static void emit_cuda(GenProgram *p, int form, int col, int f64, int runtime, const char *eps)
{
    TmplSubs ts;
    tmpl_init(&ts, f64);
    tmpl_set(&ts, "eps", eps);
    tmpl_set(&ts, "one", text_lit(1, f64));
    tmpl_set(&ts, "col", col ? "e / n" : "e % m");
    const char *x = form == COPY ? "norm" : "data";
    tmpl_set(&ts, "x", x);
    tmpl_set(&ts, "out", x);
    tmpl_set(&ts, "mi", form == DIRECT ? (col ? " - mean[i0 + ty]" : " - mean[i0 + tx]") : "");
    tmpl_set(&ts, "mj", form == DIRECT ? (col ? " - mean[j0 + ty]" : " - mean[j0 + tx]") : "");
    tmpl_set(&ts, "what", form == DIRECT ? "data less its column means"
                          : form == COPY ? "normalised copy" : "data normalised in place");
    tmpl_set(&ts, "formula", form == DIRECT ? "sum_k X(k, i) X(k, j) / (n sd_i sd_j)\n *" : "sum_k X(k, i) X(k, j)");
    tmpl_set(&ts, "r", form == DIRECT ? "acc / (n * stddev[i] * stddev[j])" : "acc");
    StrBuf load = STRBUF_INIT;
    tmpl_expand(&load, &ts, col ? LOAD_COLMAJOR : LOAD_ROWMAJOR);
    tmpl_set(&ts, "load", load.data);

    StrBuf *k = gen_cuda_src(p);
    put_kernel(k, &ts, col ? STATS_COLMAJOR : STATS_ROWMAJOR, "col_stats",
               runtime ? "const @T *__restrict__ data, @T *__restrict__ mean, @T *__restrict__ stddev, @T eps, "
                         "int n, int m"
                       : "const @T *__restrict__ data, @T *__restrict__ mean, @T *__restrict__ stddev, int n, int m");
    if (form == INPLACE)
        put_kernel(k, &ts, NORMALISE, "normalise",
                   "@T *__restrict__ data, const @T *__restrict__ mean, const @T *__restrict__ stddev, int n, int m");
    else if (form == COPY)
        put_kernel(k, &ts, NORMALISE, "normalise",
                   "const @T *__restrict__ data, @T *__restrict__ norm, const @T *__restrict__ mean, "
                   "const @T *__restrict__ stddev, int n, int m");
    put_kernel(k, &ts, CORR_TILES, "corr_tiles",
               form == DIRECT ? "const @T *__restrict__ data, const @T *__restrict__ mean, "
                                "const @T *__restrict__ stddev, @T *__restrict__ corr, int n, int m"
                              : "const @T *__restrict__ @x, @T *__restrict__ corr, int n, int m");
    sb_release(&load);

    const char *stats_args = runtime ? "data,mean,stddev,eps,n,m" : "data,mean,stddev,n,m";
    if (col)
        gen_launch(p, "col_stats", "(m+7)/8", "256", NULL, stats_args);
    else
        gen_launch(p, "col_stats", "(m+255)/256", "256", NULL, stats_args);
    if (form == INPLACE)
        gen_launch(p, "normalise", "(n*m+255)/256", "256", NULL, "data,mean,stddev,n,m");
    else if (form == COPY)
        gen_launch(p, "normalise", "(n*m+255)/256", "256", NULL, "data,norm,mean,stddev,n,m");
    gen_launch(p, "corr_tiles", "(m+15)/16,(m+15)/16", "16,16", NULL,
               form == DIRECT ? "data,mean,stddev,corr,n,m" : form == COPY ? "norm,corr,n,m" : "data,corr,n,m");
    gen_knob(p, "block", "16x16");
    gen_knob(p, "mapping", col ? (form == DIRECT ? "warp-per-column statistics (shuffle reductions), "
                                                   "tiled-16x16 upper triangle"
                                                 : "warp-per-column statistics (shuffle reductions), "
                                                   "one-element-per-thread normalisation, tiled-16x16 upper triangle")
                               : (form == DIRECT ? "thread-per-column statistics, tiled-16x16 upper triangle"
                                                 : "thread-per-column statistics, one-element-per-thread "
                                                   "normalisation, tiled-16x16 upper triangle"));
}

static int generate(GenCtx *g)
{
    static const double EPS[] = {0.1, 0.05, 0.01};
    for (int form = 0; form < 3; form++)
        for (int col = 0; col < 2; col++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int runtime = 0; runtime < 2; runtime++) {
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *sq = f64 ? "sqrt" : "sqrtf";
                    double eps_v = EPS[gen_randint(g, 0, 2)];
                    char eps[40];
                    snprintf(eps, sizeof eps, "%s", runtime ? "eps" : text_lit(eps_v, f64));
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", FORM_TAG[form], col ? "colmajor" : "rowmajor",
                             dt, runtime ? "eps-scalar" : "eps-const");
                    GenProgram *p = gen_begin(g, variant, "correlation");
                    gen_describe(p, "correlation matrix of the columns of an n x m %s data matrix, eps %g (%s), %s",
                                 col ? "column-major" : "row-major", eps_v, runtime ? "scalar" : "constant",
                                 form == INPLACE ? "normalised in place"
                                                 : form == COPY ? "normalised copy" : "without a normalised copy");
                    gen_arg(p, "data", dt, form == INPLACE ? "inout" : "in", col ? "m,n" : "n,m");
                    if (form == COPY)
                        gen_arg(p, "norm", dt, "out", col ? "m,n" : "n,m");
                    gen_arg(p, "mean", dt, "out", "m");
                    gen_arg(p, "stddev", dt, "out", "m");
                    gen_arg(p, "corr", dt, "out", "m,m");
                    if (runtime)
                        gen_scalar(p, "eps", dt, eps_v);
                    gen_arg(p, "n", "i32", "param", NULL);
                    gen_arg(p, "m", "i32", "param", NULL);
                    gen_config(p, "small", "n=200,m=96");
                    gen_config(p, "edge", "n=1,m=5");
                    gen_config(p, "edge-prime", "n=37,m=13");
                    gen_config(p, "edge-one-var", "n=29,m=1");
                    gen_config(p, "large", "n=8192,m=4096");
                    char bytes[64];
                    snprintf(bytes, sizeof bytes, "%d*(%sn*m + 2*m + m*m)", f64 ? 8 : 4, form == DIRECT ? "" : "2*");
                    gen_cost(p, form == DIRECT ? "n*m*m + 2*n*m*m + 4*n*m" : "n*m*m + 7*n*m", bytes);
                    if (!f64)
                        gen_tolerance(p, 2e-5, 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_append(s, "#include <math.h>\n\n");
                    sb_printf(s, "/* correlation: the m x m correlation matrix of the m variables of data,\n"
                                 " * n observations of each.  data is %s:\n"
                                 " * %s is observation k of variable j.\n"
                                 " * mean and stddev are per variable (population variance); a deviation\n"
                                 " * <= %s counts as 1 so that a constant variable does not divide by zero.\n",
                              col ? "column-major" : "row-major", col ? "data[k + j * n]" : "data[k * m + j]",
                              runtime ? "eps" : eps);
                    if (form == INPLACE)
                        sb_append(s, " * data is overwritten with the normalised data. */\n");
                    else if (form == COPY)
                        sb_append(s, " * norm receives the normalised data (x - mean) / (sqrt(n) * stddev). */\n");
                    else
                        sb_append(s, " * corr(i, j) = sum_k (x_ki - mean_i)(x_kj - mean_j) / (n sd_i sd_j). */\n");
                    char params[240];
                    int pl = snprintf(params, sizeof params, "%s%s *data", form == INPLACE ? "" : "const ", ty);
                    if (form == COPY)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *norm", ty);
                    pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *mean, %s *stddev, %s *corr", ty, ty, ty);
                    if (runtime)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s eps", ty);
                    snprintf(params + pl, sizeof params - (size_t)pl, ", int n, int m");
                    text_put_signature(s, "void correlation", params);
                    sb_append(s, "{\n");
                    cm_emit_mean(s, ty, col, "data");
                    if (col) {
                        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "        %s sum = 0;\n", ty);
                        sb_append(s, "        for (int k = 0; k < n; k++) {\n");
                        sb_printf(s, "            %s d = %s - mean[j];\n", ty, cm_dat(col, "data", "k", "j"));
                        sb_append(s, "            sum += d * d;\n        }\n");
                        sb_printf(s, "        %s sd = %s(sum / n);\n", ty, sq);
                        sb_printf(s, "        stddev[j] = sd <= %s ? %s : sd;\n    }\n", eps, text_lit(1, f64));
                    } else {
                        sb_append(s, "    for (int j = 0; j < m; j++)\n        stddev[j] = 0;\n");
                        sb_append(s, "    for (int k = 0; k < n; k++) {\n        for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "            %s d = %s - mean[j];\n", ty, cm_dat(col, "data", "k", "j"));
                        sb_append(s, "            stddev[j] += d * d;\n        }\n    }\n");
                        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "        stddev[j] = %s(stddev[j] / n);\n", sq);
                        sb_printf(s, "        if (stddev[j] <= %s)\n            stddev[j] = %s;\n    }\n", eps,
                                  text_lit(1, f64));
                    }
                    const char *x = form == COPY ? "norm" : "data";
                    if (form != DIRECT) {
                        sb_printf(s, "    %s root_n = %s((%s)n);\n", ty, sq, ty);
                        if (col)
                            sb_append(s, "    for (int j = 0; j < m; j++)\n        for (int k = 0; k < n; k++)\n");
                        else
                            sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
                        sb_printf(s, "            %s = (%s - mean[j]) / (root_n * stddev[j]);\n",
                                  cm_dat(col, x, "k", "j"), cm_dat(col, "data", "k", "j"));
                    }
                    sb_append(s, "    for (int i = 0; i < m; i++) {\n");
                    sb_printf(s, "        corr[i * m + i] = %s;\n", text_lit(1, f64));
                    sb_append(s, "        for (int j = i + 1; j < m; j++) {\n");
                    sb_printf(s, "            %s sum = 0;\n", ty);
                    sb_append(s, "            for (int k = 0; k < n; k++)\n");
                    if (form == DIRECT) {
                        sb_printf(s, "                sum += (%s - mean[i]) * (%s - mean[j]);\n",
                                  cm_dat(col, "data", "k", "i"), cm_dat(col, "data", "k", "j"));
                        sb_printf(s, "            %s r = sum / (n * stddev[i] * stddev[j]);\n", ty);
                        sb_append(s, "            corr[i * m + j] = r;\n            corr[j * m + i] = r;\n");
                    } else {
                        sb_printf(s, "                sum += %s * %s;\n", cm_dat(col, x, "k", "i"), cm_dat(col, x, "k", "j"));
                        sb_append(s, "            corr[i * m + j] = sum;\n            corr[j * m + i] = sum;\n");
                    }
                    sb_append(s, "        }\n    }\n}\n");
                    emit_cuda(p, form, col, f64, runtime, eps);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_correlation = {"pb_correlation", "polyhedral", 24, generate};
