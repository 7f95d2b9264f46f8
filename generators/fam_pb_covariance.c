/* pb_covariance — the m x m covariance matrix of the m variables (columns)
 * of an n x m data matrix: per-column means, centred data, and the products
 * of the centred columns divided by n - 1 (sample) or n (population).
 *
 * Programs vary in dtype (f32, f64), in the storage of the data (row-major:
 * one observation per row, or column-major: one variable per column), in the
 * divisor (n - 1 or n), and in form: data centred in place (an inout buffer),
 * centred into a separate output, or never centred (the means subtracted
 * inside the product). */
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

/* Column means.  Row-major: one thread per column walking the rows
 * (consecutive threads read consecutive columns).  Column-major: one warp
 * per column and a shuffle reduction. */
static const char MEAN_ROWMAJOR[] =
    "/* mean[j] = the average of column j: one thread per column, walking the rows\n"
    " * (consecutive threads read consecutive columns). */\n"
    "extern \"C\" __global__ void col_mean(const @T *__restrict__ data, @T *__restrict__ mean, int n, int m)\n"
    "{\n"
    "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (j >= m)\n        return;\n"
    "    @T sum = 0;\n"
    "    for (int k = 0; k < n; k++)\n        sum += data[(long long)k * m + j];\n"
    "    mean[j] = sum / n;\n"
    "}\n\n";
static const char MEAN_COLMAJOR[] =
    "/* The sum over the 32 lanes of a warp (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ @T warp_sum(@T v)\n{\n"
    "    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    return v;\n}\n\n"
    "/* mean[j] = the average of column j: one warp per column, its lanes striding\n"
    " * down the column (coalesced). */\n"
    "extern \"C\" __global__ void col_mean(const @T *__restrict__ data, @T *__restrict__ mean, int n, int m)\n"
    "{\n"
    "    const long long j = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
    "    const int lane = threadIdx.x % 32;\n"
    "    if (j >= m)\n        return; /* the whole warp: columns are warp-uniform */\n"
    "    const @T *x = data + j * n;\n"
    "    @T sum = 0;\n"
    "    for (int k = lane; k < n; k += 32)\n        sum += x[k];\n"
    "    sum = warp_sum(sum);\n"
    "    if (lane == 0)\n        mean[j] = sum / n;\n"
    "}\n\n";

/* The centring launch: one thread per element, the column from the
 * storage order. */
static const char CENTRE_INPLACE[] =
    "/* data -= mean of its column: one thread per element. */\n"
    "extern \"C\" __global__ void centre(@T *__restrict__ data, const @T *__restrict__ mean, int n, int m)\n"
    "{\n"
    "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (e >= (long long)n * m)\n        return;\n"
    "    data[e] -= mean[@col];\n"
    "}\n\n";
static const char CENTRE_COPY[] =
    "/* centered = data - the mean of its column: one thread per element. */\n"
    "extern \"C\" __global__ void centre(const @T *__restrict__ data, @T *__restrict__ centered,\n"
    "                                  const @T *__restrict__ mean, int n, int m)\n"
    "{\n"
    "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (e >= (long long)n * m)\n        return;\n"
    "    centered[e] = data[e] - mean[@col];\n"
    "}\n\n";

/* The product: cov = X^T X / d, tiled.  Block (bx, by) of 16 x 16 threads
 * computes the tile of rows by*16.. and columns bx*16.. when by <= bx (the
 * upper triangle) and writes it and its mirror; its threads stage 16 x 16
 * slabs of X's columns i0.. and j0.. through shared memory, reading along
 * X's storage order (coalesced), and sum over k in order as the C program
 * does.  Without a centred copy the means are subtracted while staging. */
static const char COV_TILES[] =
    "#define TILE 16\n\n"
    "/* cov(i, j) = sum_k X(k, i) X(k, j) / @div, X the @what: one 16 x 16\n"
    " * block per tile of the upper triangle, which it also mirrors; X's columns\n"
    " * staged through shared memory in 16-row slabs. */\n"
    "extern \"C\" __global__ void cov_tiles(@params)\n"
    "{\n"
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
    "        const @T r = acc / @div;\n"
    "        cov[(long long)i * m + j] = r;\n"
    "        cov[(long long)j * m + i] = r;\n"
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

/* The pair: means, centring (unless direct), then the tiled product. */
static void emit_cuda(GenProgram *p, int form, int col, int f64, int sample)
{
    TmplSubs ts;
    tmpl_init(&ts, f64);
    tmpl_set(&ts, "col", col ? "e / n" : "e % m");
    tmpl_set(&ts, "div", sample ? "(n - 1)" : "n");
    const char *x = form == COPY ? "centered" : "data";
    tmpl_set(&ts, "x", x);
    tmpl_set(&ts, "mi", form == DIRECT ? (col ? " - mean[i0 + ty]" : " - mean[i0 + tx]") : "");
    tmpl_set(&ts, "mj", form == DIRECT ? (col ? " - mean[j0 + ty]" : " - mean[j0 + tx]") : "");
    tmpl_set(&ts, "what", form == DIRECT ? "data less its column means"
                          : form == COPY ? "centred copy" : "data centred in place");
    char params[200];
    snprintf(params, sizeof params, "const %s *__restrict__ %s, %s%s *__restrict__ cov, int n, int m", ts.val[0], x,
             form == DIRECT ? (f64 ? "const double *__restrict__ mean, " : "const float *__restrict__ mean, ") : "",
             ts.val[0]);
    StrBuf line = STRBUF_INIT;
    sb_printf(&line, "extern \"C\" __global__ void cov_tiles(%s)", params);
    StrBuf head = STRBUF_INIT;
    tmpl_put_wrapped(&head, line.data);
    sb_append(&head, "\n{\n");
    StrBuf body = STRBUF_INIT;
    tmpl_expand(&body, &ts, col ? LOAD_COLMAJOR : LOAD_ROWMAJOR);
    tmpl_set(&ts, "load", body.data);

    StrBuf *k = gen_cuda_src(p);
    tmpl_expand(k, &ts, col ? MEAN_COLMAJOR : MEAN_ROWMAJOR);
    if (form == INPLACE)
        tmpl_expand(k, &ts, CENTRE_INPLACE);
    else if (form == COPY)
        tmpl_expand(k, &ts, CENTRE_COPY);
    /* The product kernel, its signature wrapped. */
    const char *sig = strstr(COV_TILES, "extern");
    StrBuf pre = STRBUF_INIT, post = STRBUF_INIT;
    sb_append_n(&pre, COV_TILES, (size_t)(sig - COV_TILES));
    sb_append(&post, strstr(sig, "{\n") + 2);
    tmpl_expand(k, &ts, pre.data);
    sb_append(k, head.data);
    tmpl_expand(k, &ts, post.data);
    sb_release(&pre);
    sb_release(&post);
    sb_release(&line);
    sb_release(&head);
    sb_release(&body);

    if (col)
        gen_launch(p, "col_mean", "(m+7)/8", "256", NULL, "data,mean,n,m");
    else
        gen_launch(p, "col_mean", "(m+255)/256", "256", NULL, "data,mean,n,m");
    if (form == INPLACE)
        gen_launch(p, "centre", "(n*m+255)/256", "256", NULL, "data,mean,n,m");
    else if (form == COPY)
        gen_launch(p, "centre", "(n*m+255)/256", "256", NULL, "data,centered,mean,n,m");
    gen_launch(p, "cov_tiles", "(m+15)/16,(m+15)/16", "16,16", NULL,
               form == DIRECT ? "data,mean,cov,n,m" : form == COPY ? "centered,cov,n,m" : "data,cov,n,m");
    gen_knob(p, "block", "16x16");
    gen_knob(p, "mapping", col ? (form == DIRECT ? "warp-per-column mean (shuffle reduction), tiled-16x16 upper triangle"
                                                 : "warp-per-column mean (shuffle reduction), one-element-per-thread "
                                                   "centring, tiled-16x16 upper triangle")
                               : (form == DIRECT ? "thread-per-column mean, tiled-16x16 upper triangle"
                                                 : "thread-per-column mean, one-element-per-thread centring, "
                                                   "tiled-16x16 upper triangle"));
}

static int generate(GenCtx *g)
{
    for (int form = 0; form < 3; form++)
        for (int col = 0; col < 2; col++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int sample = 0; sample < 2; sample++) {
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", FORM_TAG[form], col ? "colmajor" : "rowmajor",
                             dt, sample ? "sample" : "population");
                    GenProgram *p = gen_begin(g, variant, "covariance");
                    gen_describe(p, "%s covariance matrix of the columns of an n x m %s data matrix, %s",
                                 sample ? "sample" : "population", col ? "column-major" : "row-major",
                                 form == INPLACE ? "centred in place"
                                                 : form == COPY ? "centred copy" : "without a centred copy");
                    gen_arg(p, "data", dt, form == INPLACE ? "inout" : "in", col ? "m,n" : "n,m");
                    if (form == COPY)
                        gen_arg(p, "centered", dt, "out", col ? "m,n" : "n,m");
                    gen_arg(p, "mean", dt, "out", "m");
                    gen_arg(p, "cov", dt, "out", "m,m");
                    gen_arg(p, "n", "i32", "param", NULL);
                    gen_arg(p, "m", "i32", "param", NULL);
                    gen_config(p, "small", "n=200,m=96");
                    gen_config(p, "edge", sample ? "n=2,m=5" : "n=1,m=5");
                    gen_config(p, "edge-prime", "n=37,m=13");
                    gen_config(p, "edge-one-var", "n=29,m=1");
                    gen_config(p, "large", "n=8192,m=4096");
                    char bytes[64];
                    snprintf(bytes, sizeof bytes, "%d*(%sn*m + m + m*m)", f64 ? 8 : 4, form == DIRECT ? "" : "2*");
                    gen_cost(p, form == DIRECT ? "2*n*m*m + n*m" : "n*m*m + 2*n*m", bytes);
                    if (!f64)
                        gen_tolerance(p, 1e-5, 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* covariance: the m x m %s covariance matrix of the m variables of\n"
                                 " * data, n observations of each.  data is %s:\n"
                                 " * %s is observation k of variable j.\n"
                                 " * cov(i, j) = sum_k (x_ki - mean_i)(x_kj - mean_j) / %s.\n",
                              sample ? "sample" : "population", col ? "column-major" : "row-major",
                              col ? "data[k + j * n]" : "data[k * m + j]", sample ? "(n - 1), n >= 2" : "n");
                    if (form == INPLACE)
                        sb_append(s, " * data is overwritten with the centred data. */\n");
                    else if (form == COPY)
                        sb_append(s, " * centered receives the centred data x - mean. */\n");
                    else
                        sb_append(s, " * The means are subtracted inside the product. */\n");
                    char params[200];
                    snprintf(params, sizeof params, "%s%s *data%s%s%s, %s *mean, %s *cov, int n, int m",
                             form == INPLACE ? "" : "const ", ty, form == COPY ? ", " : "", form == COPY ? ty : "",
                             form == COPY ? " *centered" : "", ty, ty);
                    text_put_signature(s, "void covariance", params);
                    sb_append(s, "{\n");
                    cm_emit_mean(s, ty, col, "data");
                    const char *x = form == COPY ? "centered" : "data";
                    if (form != DIRECT) {
                        if (col)
                            sb_append(s, "    for (int j = 0; j < m; j++)\n        for (int k = 0; k < n; k++)\n");
                        else
                            sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
                        if (form == INPLACE)
                            sb_printf(s, "            %s -= mean[j];\n", cm_dat(col, x, "k", "j"));
                        else
                            sb_printf(s, "            %s = %s - mean[j];\n", cm_dat(col, x, "k", "j"),
                                      cm_dat(col, "data", "k", "j"));
                    }
                    sb_append(s, "    for (int i = 0; i < m; i++) {\n");
                    sb_append(s, "        for (int j = i; j < m; j++) {\n");
                    sb_printf(s, "            %s sum = 0;\n", ty);
                    sb_append(s, "            for (int k = 0; k < n; k++)\n");
                    if (form == DIRECT)
                        sb_printf(s, "                sum += (%s - mean[i]) * (%s - mean[j]);\n",
                                  cm_dat(col, "data", "k", "i"), cm_dat(col, "data", "k", "j"));
                    else
                        sb_printf(s, "                sum += %s * %s;\n", cm_dat(col, x, "k", "i"), cm_dat(col, x, "k", "j"));
                    sb_printf(s, "            cov[i * m + j] = sum / %s;\n", sample ? "(n - 1)" : "n");
                    sb_append(s, "            cov[j * m + i] = cov[i * m + j];\n        }\n    }\n}\n");
                    emit_cuda(p, form, col, f64, sample);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_covariance = {"pb_covariance", "polyhedral", 24, generate};
