/* spmv_csr — sparse matrix-vector products.  CSR y = A x in many forms
 * (alpha/beta update, bias + ReLU epilogue, residual b - A x, row and column
 * scaling, separate diagonal, pattern-only matrix, row means, A(Ax), a
 * normalised power step, lower-triangle filter, Jacobi step, complex values,
 * max-plus and min-plus semirings), the transposed product A^T x scattered
 * into y, ELL (row- and column-major, padded or with row lengths) and COO,
 * each in f32 and f64.  Row pointers are random partitions of nnz and
 * column indices are uniform, so rows are unsorted and may repeat columns. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

/* Template text: "$T" is the element type, "$F" the float suffix ("f" or
 * ""), used both for literals (1.0$F) and math functions (sqrt$F). */
typedef struct Sub {
    const char *T, *F;
} Sub;

static void put(StrBuf *s, const Sub *t, const char *tmpl)
{
    for (const char *c = tmpl; *c; c++) {
        if (c[0] == '$' && c[1] == 'T') {
            sb_append(s, t->T);
            c++;
        } else if (c[0] == '$' && c[1] == 'F') {
            sb_append(s, t->F);
            c++;
        } else {
            sb_putc(s, *c);
        }
    }
}

/* A coefficient drawn for a program, rounded to two decimals to read well. */
static double coef(GenCtx *g, double lo, double hi)
{
    return round(gen_uniform(g, lo, hi) * 100) / 100;
}

static const char *const OPS[] = {
    "csr",         "csr-axpby",    "csr-bias-relu", "csr-rowptr-i64", "csr-residual", "csr-rowscale",
    "csr-colscale", "csr-diag",    "csr-pattern",   "csr-rowmean",    "csr-squared",  "csr-power-step",
    "csr-tril",    "csr-jacobi",   "csr-complex",   "csr-maxplus",    "csr-minplus",  "csr-t",
    "csr-t-axpby", "csr-and-t",    "ell-rowmajor",  "ell-colmajor",   "ell-rowlen",   "coo",
    "coo-t",       "coo-axpby",    "coo-rowscale",
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* The CSR arguments: row_ptr (i32 or i64), col_idx, vals. */
static void csr_args(GenProgram *p, const char *dt, const char *rows, const char *cols, int i64)
{
    gen_arg(p, "row_ptr", i64 ? "i64" : "i32", "in", rows[0] == 'n' ? "n+1" : "rows+1");
    gen_arg(p, "col_idx", i64 ? "i64" : "i32", "in", "nnz");
    if (dt)
        gen_arg(p, "vals", dt, "in", "nnz");
    gen_fill_partition(p, "row_ptr", "nnz");
    gen_fill_int(p, "col_idx", "0", cols);
}

static void rect_params(GenProgram *p)
{
    gen_arg(p, "rows", "i32", "param", NULL);
    gen_arg(p, "cols", "i32", "param", NULL);
    gen_arg(p, "nnz", "i32", "param", NULL);
    gen_config(p, "small", "rows=1000,cols=800,nnz=16000");
    gen_config(p, "edge", "rows=1,cols=1,nnz=1");
    gen_config(p, "edge-prime", "rows=37,cols=53,nnz=211");
    gen_config(p, "edge-wide", "rows=3,cols=1009,nnz=997");
    gen_config(p, "large", "rows=4194304,cols=4194304,nnz=67108864");
}

static void square_params(GenProgram *p)
{
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "nnz", "i32", "param", NULL);
    gen_config(p, "small", "n=1000,nnz=16000");
    gen_config(p, "edge", "n=1,nnz=1");
    gen_config(p, "edge-prime", "n=37,nnz=211");
    gen_config(p, "large", "n=4194304,nnz=67108864");
}

static void ell_params(GenProgram *p)
{
    gen_arg(p, "rows", "i32", "param", NULL);
    gen_arg(p, "cols", "i32", "param", NULL);
    gen_arg(p, "width", "i32", "param", NULL);
    gen_config(p, "small", "rows=1000,cols=800,width=16");
    gen_config(p, "edge", "rows=1,cols=1,width=1");
    gen_config(p, "edge-prime", "rows=37,cols=53,width=7");
    gen_config(p, "large", "rows=4194304,cols=4194304,width=24");
}

static void coo_params(GenProgram *p)
{
    gen_arg(p, "rows", "i32", "param", NULL);
    gen_arg(p, "cols", "i32", "param", NULL);
    gen_arg(p, "nnz", "i32", "param", NULL);
    gen_config(p, "small", "rows=1000,cols=800,nnz=16000");
    gen_config(p, "edge", "rows=1,cols=1,nnz=1");
    gen_config(p, "edge-prime", "rows=37,cols=53,nnz=211");
    gen_config(p, "large", "rows=4194304,cols=4194304,nnz=67108864");
}

/* ---- the pair ---- */

/* Expands a CUDA template: $T and $F as in put(), and $R for
 * "*__restrict__" (so "const $T $R x" declares a read-only array). */
static void put_cuda(StrBuf *k, const Sub *t, const char *tmpl)
{
    for (const char *c = tmpl; *c; c++) {
        if (c[0] == '$' && c[1] == 'R') {
            sb_append(k, "*__restrict__");
            c++;
        } else if (c[0] == '$' && (c[1] == 'T' || c[1] == 'F')) {
            sb_append(k, c[1] == 'T' ? t->T : t->F);
            c++;
        } else {
            sb_putc(k, *c);
        }
    }
}

/* Appends `extern "C" __global__ void name(params)` and the opening brace,
 * the parameter list broken after a comma past 100 columns. */
static void put_kernel_head(StrBuf *k, const Sub *t, const char *name, const char *params)
{
    StrBuf line = STRBUF_INIT, ps = STRBUF_INIT;
    put_cuda(&ps, t, params);
    sb_printf(&line, "extern \"C\" __global__ void %s(%s)", name, ps.data);
    tmpl_put_wrapped(k, line.data);
    sb_append(k, "\n{\n");
    sb_release(&line);
    sb_release(&ps);
}

/* A warp-wide reduction (sum, max or min) by shuffles: lane 0 ends with the
 * result over the 32 lanes. */
static void put_warp_reduce(StrBuf *k, const Sub *t, const char *what, const char *name, const char *combine)
{
    StrBuf b = STRBUF_INIT;
    sb_printf(&b,
              "/* The %s over the 32 lanes of a warp, by shuffles: lane 0 gets the result. */\n"
              "__device__ __forceinline__ $T %s($T v)\n{\n"
              "    for (int o = 16; o > 0; o >>= 1) {\n"
              "        const $T u = __shfl_down_sync(0xffffffffu, v, o);\n"
              "        %s;\n"
              "    }\n"
              "    return v;\n}\n\n",
              what, name, combine);
    put_cuda(k, t, b.data);
    sb_release(&b);
}

/* One CSR kernel with a warp per row (the "vector CSR" mapping): the lanes
 * stride through the row's entries (coalesced reads of col_idx and vals),
 * `init` declares the lane's accumulators, `elem` folds entry k into them,
 * `reduce` combines the lanes, and lane 0 runs `store`.  The row count is
 * `rows`; blockDim.x must be a multiple of 32.  Snippets are indented for
 * their place (4 spaces; elem 8) and end in a newline. */
static void put_warp_row_kernel(StrBuf *k, const Sub *t, const char *comment, const char *name,
                                const char *params, const char *rows, const char *kty, const char *init,
                                const char *elem, const char *reduce, const char *store)
{
    put_cuda(k, t, comment);
    put_kernel_head(k, t, name, params);
    StrBuf b = STRBUF_INIT;
    sb_printf(&b,
              "    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
              "    const int lane = threadIdx.x %% 32;\n"
              "    if (row >= %s)\n        return; /* the whole warp: rows are warp-uniform */\n"
              "    const int i = (int)row;\n"
              "%s"
              "    for (%s k = row_ptr[i] + lane; k < row_ptr[i + 1]; k += 32) {\n%s    }\n"
              "%s"
              "    if (lane == 0) {\n%s    }\n}\n",
              rows, init, kty, elem, reduce, store);
    put_cuda(k, t, b.data);
    sb_release(&b);
}

/* A one-thread-per-element kernel over n elements: `body` (indented 4)
 * runs with the 64-bit index i < n. */
static void put_map_kernel(StrBuf *k, const Sub *t, const char *comment, const char *name, const char *params,
                           const char *n, const char *body)
{
    put_cuda(k, t, comment);
    put_kernel_head(k, t, name, params);
    StrBuf b = STRBUF_INIT;
    sb_printf(&b,
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= %s)\n        return;\n%s}\n",
              n, body);
    put_cuda(k, t, b.data);
    sb_release(&b);
}

#define CSR_PARAMS "const int $R row_ptr, const int $R col_idx, const $T $R vals, "
#define SUM_INIT "    $T sum = 0;\n"
#define SUM_ELEM "        sum += vals[k] * x[col_idx[k]];\n"
#define SUM_REDUCE "    sum = warp_sum(sum);\n"

/* The pair.  CSR programs: a warp per row and a shuffle reduction (the
 * power step adds a block reduction of ||Ax||^2 into a scratch double and
 * a scaling launch); the transposed products zero (or scale) y, then
 * scatter each row's entries with atomicAdd.  ELL: a thread per row
 * (column-major slots read coalesced).  COO: y zeroed (or scaled), a
 * thread per triple with atomicAdd, and a final scaling where the program
 * scales rows. */
static void emit_cuda(GenProgram *p, const char *tag, const Sub *t)
{
    StrBuf *k = gen_cuda_src(p);
    const char *mapping = "warp-per-row, warp-shuffle reduction";
    /* the transposed products scatter with atomicAdd: no warp sum (csr-t-f32
     * carried one unused) */
    int warp_rows = !strncmp(tag, "csr", 3) && strcmp(tag, "csr-maxplus") && strcmp(tag, "csr-minplus") &&
                    strcmp(tag, "csr-t") && strcmp(tag, "csr-t-axpby");
    if (warp_rows)
        put_warp_reduce(k, t, "sum", "warp_sum", "v += u");

    if (!strcmp(tag, "csr") || !strcmp(tag, "csr-rowptr-i64") || !strcmp(tag, "csr-axpby") ||
        !strcmp(tag, "csr-bias-relu") || !strcmp(tag, "csr-residual") || !strcmp(tag, "csr-rowscale") ||
        !strcmp(tag, "csr-colscale") || !strcmp(tag, "csr-rowmean") || !strcmp(tag, "csr-tril")) {
        const char *params = CSR_PARAMS "const $T $R x, $T $R y, int rows, int cols, int nnz";
        const char *elem = SUM_ELEM, *store = "        y[i] = sum;\n", *kty = "int";
        const char *args = "row_ptr,col_idx,vals,x,y,rows,cols,nnz";
        const char *comment = "/* y = A x: one warp per row of the CSR matrix. */\n";
        if (!strcmp(tag, "csr-rowptr-i64")) {
            params = "const long long $R row_ptr, const long long $R col_idx, const $T $R vals, const $T $R x, "
                     "$T $R y, int rows, int cols, int nnz";
            kty = "long long";
            comment = "/* y = A x with 64-bit row offsets and column indices: one warp per row. */\n";
        } else if (!strcmp(tag, "csr-axpby")) {
            params = CSR_PARAMS "const $T $R x, $T $R y, $T alpha, $T beta, int rows, int cols, int nnz";
            store = "        y[i] = alpha * sum + beta * y[i];\n";
            args = "row_ptr,col_idx,vals,x,y,alpha,beta,rows,cols,nnz";
            comment = "/* y = alpha A x + beta y: one warp per row. */\n";
        } else if (!strcmp(tag, "csr-bias-relu")) {
            params = CSR_PARAMS "const $T $R x, const $T $R bias, $T $R y, int rows, int cols, int nnz";
            store = "        sum += bias[i];\n        y[i] = sum > 0 ? sum : 0;\n";
            args = "row_ptr,col_idx,vals,x,bias,y,rows,cols,nnz";
            comment = "/* y = max(A x + bias, 0): one warp per row. */\n";
        } else if (!strcmp(tag, "csr-residual")) {
            params = CSR_PARAMS "const $T $R x, const $T $R b, $T $R r, int rows, int cols, int nnz";
            store = "        r[i] = b[i] - sum;\n";
            args = "row_ptr,col_idx,vals,x,b,r,rows,cols,nnz";
            comment = "/* r = b - A x: one warp per row. */\n";
        } else if (!strcmp(tag, "csr-rowscale")) {
            params = CSR_PARAMS "const $T $R x, const $T $R scale, $T $R y, int rows, int cols, int nnz";
            store = "        y[i] = scale[i] * sum;\n";
            args = "row_ptr,col_idx,vals,x,scale,y,rows,cols,nnz";
            comment = "/* y = diag(scale) A x: one warp per row. */\n";
        } else if (!strcmp(tag, "csr-colscale")) {
            params = CSR_PARAMS "const $T $R x, const $T $R scale, $T $R y, int rows, int cols, int nnz";
            elem = "        const int c = col_idx[k];\n        sum += vals[k] * scale[c] * x[c];\n";
            args = "row_ptr,col_idx,vals,x,scale,y,rows,cols,nnz";
            comment = "/* y = A diag(scale) x: one warp per row. */\n";
        } else if (!strcmp(tag, "csr-rowmean")) {
            store = "        const int len = row_ptr[i + 1] - row_ptr[i];\n        y[i] = len > 0 ? sum / len : 0;\n";
            comment = "/* y_i = (A x)_i / (stored entries in row i), 0 for an empty row: one warp\n"
                      " * per row. */\n";
        } else if (!strcmp(tag, "csr-tril")) {
            elem = "        if (col_idx[k] <= i)\n            sum += vals[k] * x[col_idx[k]];\n";
            comment = "/* y = tril(A) x (entries with col <= row): one warp per row. */\n";
        }
        put_warp_row_kernel(k, t, comment, "spmv", params, "rows", kty, SUM_INIT, elem, SUM_REDUCE, store);
        gen_launch(p, "spmv", "(rows+7)/8", "256", NULL, args);
    } else if (!strcmp(tag, "csr-diag") || !strcmp(tag, "csr-pattern") || !strcmp(tag, "csr-jacobi")) {
        if (!strcmp(tag, "csr-diag")) {
            put_warp_row_kernel(k, t, "/* y = (D + A) x, D stored apart: one warp per row. */\n", "spmv",
                                CSR_PARAMS "const $T $R diag, const $T $R x, $T $R y, int n, int nnz", "n", "int",
                                SUM_INIT, SUM_ELEM, SUM_REDUCE, "        y[i] = diag[i] * x[i] + sum;\n");
            gen_launch(p, "spmv", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,diag,x,y,n,nnz");
        } else if (!strcmp(tag, "csr-pattern")) {
            put_warp_row_kernel(k, t, "/* y = A x for a 0/1 pattern matrix: one warp per row. */\n", "spmv",
                                "const int $R row_ptr, const int $R col_idx, const $T $R x, $T $R y, int n, int nnz",
                                "n", "int", SUM_INIT, "        sum += x[col_idx[k]];\n", SUM_REDUCE,
                                "        y[i] = sum;\n");
            gen_launch(p, "spmv", "(n+7)/8", "256", NULL, "row_ptr,col_idx,x,y,n,nnz");
        } else {
            put_warp_row_kernel(k, t,
                                "/* One weighted Jacobi step x_new = x + omega (b - D x - A x) / D: one warp\n"
                                " * per row. */\n",
                                "spmv",
                                CSR_PARAMS "const $T $R diag, const $T $R b, const $T $R x, $T $R x_new, $T omega, "
                                           "int n, int nnz",
                                "n", "int", SUM_INIT, SUM_ELEM, SUM_REDUCE,
                                "        const $T ax = diag[i] * x[i] + sum;\n"
                                "        x_new[i] = x[i] + omega * (b[i] - ax) / diag[i];\n");
            gen_launch(p, "spmv", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,diag,b,x,x_new,omega,n,nnz");
        }
    } else if (!strcmp(tag, "csr-squared")) {
        put_warp_row_kernel(k, t, "/* y = A x for the square CSR matrix: one warp per row. */\n", "csr_mul",
                            CSR_PARAMS "const $T $R x, $T $R y, int n", "n", "int", SUM_INIT, SUM_ELEM, SUM_REDUCE,
                            "        y[i] = sum;\n");
        gen_launch(p, "csr_mul", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,x,tmp,n");
        gen_launch(p, "csr_mul", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,tmp,y,n");
        mapping = "warp-per-row, warp-shuffle reduction, two launches (tmp = A x, y = A tmp)";
    } else if (!strcmp(tag, "csr-power-step")) {
        put_cuda(k, t,
                 "/* Zeroes the ||A x||^2 accumulator. */\n"
                 "extern \"C\" __global__ void power_init(double *norm2)\n{\n    *norm2 = 0;\n}\n\n"
                 "/* y = A x with one warp per row; each block adds its rows' sum^2 (in\n"
                 " * double, as the C program does) to *norm2. */\n");
        put_kernel_head(k, t, "spmv", CSR_PARAMS "const $T $R x, $T $R y, double *norm2, int n");
        put_cuda(k, t,
                 "    __shared__ double part[32];\n"
                 "    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
                 "    const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;\n"
                 "    double sq = 0;\n"
                 "    if (row < n) { /* warp-uniform: every lane of the warp reaches the shuffles */\n"
                 "        const int i = (int)row;\n"
                 "        $T sum = 0;\n"
                 "        for (int k = row_ptr[i] + lane; k < row_ptr[i + 1]; k += 32)\n"
                 "            sum += vals[k] * x[col_idx[k]];\n"
                 "        sum = warp_sum(sum);\n"
                 "        if (lane == 0) {\n"
                 "            y[i] = sum;\n"
                 "            sq = (double)sum * sum;\n"
                 "        }\n"
                 "    }\n"
                 "    if (lane == 0)\n        part[wid] = sq;\n"
                 "    __syncthreads();\n"
                 "    if (threadIdx.x == 0) {\n"
                 "        double s = 0;\n"
                 "        for (int j = 0; j < (int)(blockDim.x / 32); j++)\n            s += part[j];\n"
                 "        atomicAdd(norm2, s);\n"
                 "    }\n}\n\n");
        put_map_kernel(k, t, "/* y *= 1 / ||A x||_2 when the norm is nonzero: one thread per element. */\n",
                       "power_scale", "$T $R y, const double $R norm2, int n", "n",
                       "    const double s = *norm2;\n"
                       "    if (s > 0)\n        y[i] *= ($T)(1.0 / sqrt(s));\n");
        gen_scratch(p, "norm2", "f64", "1");
        gen_launch(p, "power_init", "1", "1", NULL, "norm2");
        gen_launch(p, "spmv", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,x,y,norm2,n");
        gen_launch(p, "power_scale", "(n+255)/256", "256", NULL, "y,norm2,n");
        mapping = "warp-per-row, warp-shuffle + block reduction of the norm (atomicAdd), three launches";
    } else if (!strcmp(tag, "csr-complex")) {
        put_warp_row_kernel(k, t, "/* y = A x, complex entries as interleaved (re, im): one warp per row. */\n",
                            "spmv", CSR_PARAMS "const $T $R x, $T $R y, int rows, int cols, int nnz", "rows", "int",
                            "    $T re = 0, im = 0;\n",
                            "        const $T ar = vals[2 * k], ai = vals[2 * k + 1];\n"
                            "        const int c = col_idx[k];\n"
                            "        const $T xr = x[2 * c], xi = x[2 * c + 1];\n"
                            "        re += ar * xr - ai * xi;\n        im += ar * xi + ai * xr;\n",
                            "    re = warp_sum(re);\n    im = warp_sum(im);\n",
                            "        y[2 * i] = re;\n        y[2 * i + 1] = im;\n");
        gen_launch(p, "spmv", "(rows+7)/8", "256", NULL, "row_ptr,col_idx,vals,x,y,rows,cols,nnz");
    } else if (!strcmp(tag, "csr-maxplus")) {
        /* A lane with no entry starts from the row's first entry: a member
         * of the row, so the max is unchanged (no infinities needed). */
        put_warp_reduce(k, t, "max", "warp_max", "v = u > v ? u : v");
        put_warp_row_kernel(k, t,
                            "/* y_i = max_k (vals_k + x[col_k]) over row i, 0 for an empty row: one warp\n"
                            " * per row. */\n",
                            "spmv", CSR_PARAMS "const $T $R x, $T $R y, int rows, int cols, int nnz", "rows", "int",
                            "    const int start = row_ptr[i], end = row_ptr[i + 1];\n"
                            "    if (start == end) {\n"
                            "        if (lane == 0)\n            y[i] = 0;\n"
                            "        return;\n    }\n"
                            "    $T best = vals[start] + x[col_idx[start]];\n",
                            "        const $T v = vals[k] + x[col_idx[k]];\n"
                            "        if (v > best)\n            best = v;\n",
                            "    best = warp_max(best);\n", "        y[i] = best;\n");
        gen_launch(p, "spmv", "(rows+7)/8", "256", NULL, "row_ptr,col_idx,vals,x,y,rows,cols,nnz");
        mapping = "warp-per-row, warp-shuffle max";
    } else if (!strcmp(tag, "csr-minplus")) {
        put_warp_reduce(k, t, "min", "warp_min", "v = u < v ? u : v");
        put_warp_row_kernel(k, t,
                            "/* One (min, +) relaxation dist_out_i = min(dist_i, min_k dist[col_k] + vals_k):\n"
                            " * one warp per row. */\n",
                            "spmv", CSR_PARAMS "const $T $R dist, $T $R dist_out, int n, int nnz", "n", "int",
                            "    $T best = dist[i];\n",
                            "        const $T cand = dist[col_idx[k]] + vals[k];\n"
                            "        if (cand < best)\n            best = cand;\n",
                            "    best = warp_min(best);\n", "        dist_out[i] = best;\n");
        gen_launch(p, "spmv", "(n+7)/8", "256", NULL, "row_ptr,col_idx,vals,dist,dist_out,n,nnz");
        mapping = "warp-per-row, warp-shuffle min";
    } else if (!strcmp(tag, "csr-t") || !strcmp(tag, "csr-t-axpby")) {
        int ab = !strcmp(tag, "csr-t-axpby");
        if (ab) {
            put_map_kernel(k, t, "/* y *= beta: one thread per element. */\n", "scale_y", "$T $R y, $T beta, int n",
                           "n", "    y[i] *= beta;\n");
            gen_launch(p, "scale_y", "(cols+255)/256", "256", NULL, "y,beta,cols");
        } else {
            put_map_kernel(k, t, "/* y = 0: one thread per element. */\n", "zero_y", "$T $R y, int n", "n",
                           "    y[i] = 0;\n");
            gen_launch(p, "zero_y", "(cols+255)/256", "256", NULL, "y,cols");
        }
        sb_append(k, "\n");
        put_cuda(k, t,
                 ab ? "/* y += alpha A^T x: one warp per row scatters vals_k * alpha x_i into\n"
                      " * y[col_k] with atomicAdd. */\n"
                    : "/* y += A^T x: one warp per row scatters vals_k * x_i into y[col_k] with\n"
                      " * atomicAdd. */\n");
        put_kernel_head(k, t, "spmv_t",
                        ab ? CSR_PARAMS "const $T $R x, $T *y, $T alpha, int rows" : CSR_PARAMS
                             "const $T $R x, $T *y, int rows");
        put_cuda(k, t,
                 "    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
                 "    const int lane = threadIdx.x % 32;\n"
                 "    if (row >= rows)\n        return;\n"
                 "    const int i = (int)row;\n");
        put_cuda(k, t, ab ? "    const $T xi = alpha * x[i];\n" : "    const $T xi = x[i];\n");
        put_cuda(k, t,
                 "    for (int k = row_ptr[i] + lane; k < row_ptr[i + 1]; k += 32)\n"
                 "        atomicAdd(&y[col_idx[k]], vals[k] * xi);\n}\n");
        gen_launch(p, "spmv_t", "(rows+7)/8", "256", NULL,
                   ab ? "row_ptr,col_idx,vals,x,y,alpha,rows" : "row_ptr,col_idx,vals,x,y,rows");
        mapping = ab ? "scale y, then warp-per-row scatter with atomicAdd (two launches)"
                     : "zero y, then warp-per-row scatter with atomicAdd (two launches)";
    } else if (!strcmp(tag, "csr-and-t")) {
        put_map_kernel(k, t, "/* z = 0: one thread per element. */\n", "zero_z", "$T $R z, int n", "n",
                       "    z[i] = 0;\n");
        sb_append(k, "\n");
        put_warp_row_kernel(k, t,
                            "/* y = A x and z += A^T w: one warp per row sums its row for y and scatters\n"
                            " * vals_k * w_i into z[col_k] with atomicAdd. */\n",
                            "spmv_both",
                            CSR_PARAMS "const $T $R x, const $T $R w, $T $R y, $T *z, int rows", "rows", "int",
                            "    $T sum = 0;\n    const $T wi = w[i];\n",
                            "        const int c = col_idx[k];\n"
                            "        sum += vals[k] * x[c];\n"
                            "        atomicAdd(&z[c], vals[k] * wi);\n",
                            SUM_REDUCE, "        y[i] = sum;\n");
        gen_launch(p, "zero_z", "(cols+255)/256", "256", NULL, "z,cols");
        gen_launch(p, "spmv_both", "(rows+7)/8", "256", NULL, "row_ptr,col_idx,vals,x,w,y,z,rows");
        mapping = "zero z, then warp-per-row: shuffle reduction for y, atomicAdd scatter for z (two launches)";
    } else if (!strncmp(tag, "ell", 3)) {
        mapping = "one-row-per-thread";
        if (!strcmp(tag, "ell-colmajor")) {
            put_map_kernel(k, t,
                           "/* y = A x, ELLPACK stored column-major (slot k of row i at k * rows + i):\n"
                           " * one thread per row, so a warp reads each slot column coalesced. */\n",
                           "spmv_ell",
                           "const int $R ell_col, const $T $R ell_val, const $T $R x, $T $R y, int rows, int cols, "
                           "int width",
                           "rows",
                           "    $T sum = 0;\n"
                           "    for (int k = 0; k < width; k++) {\n"
                           "        const long long s = (long long)k * rows + i;\n"
                           "        const int c = ell_col[s];\n"
                           "        if (c >= 0)\n            sum += ell_val[s] * x[c];\n"
                           "    }\n"
                           "    y[i] = sum;\n");
            gen_launch(p, "spmv_ell", "(rows+255)/256", "256", NULL, "ell_col,ell_val,x,y,rows,cols,width");
        } else if (!strcmp(tag, "ell-rowlen")) {
            put_map_kernel(k, t,
                           "/* y = A x, ELLPACK row-major with an explicit length per row: one thread per\n"
                           " * row. */\n",
                           "spmv_ell",
                           "const int $R ell_col, const $T $R ell_val, const int $R row_len, const $T $R x, "
                           "$T $R y, int rows, int cols, int width",
                           "rows",
                           "    const int *c = ell_col + i * width;\n"
                           "    const $T *v = ell_val + i * width;\n"
                           "    $T sum = 0;\n"
                           "    for (int k = 0; k < row_len[i]; k++)\n"
                           "        sum += v[k] * x[c[k]];\n"
                           "    y[i] = sum;\n");
            gen_launch(p, "spmv_ell", "(rows+255)/256", "256", NULL, "ell_col,ell_val,row_len,x,y,rows,cols,width");
        } else {
            put_map_kernel(k, t,
                           "/* y = A x, ELLPACK row-major (a negative column marks padding): one thread\n"
                           " * per row. */\n",
                           "spmv_ell",
                           "const int $R ell_col, const $T $R ell_val, const $T $R x, $T $R y, int rows, int cols, "
                           "int width",
                           "rows",
                           "    const int *c = ell_col + i * width;\n"
                           "    const $T *v = ell_val + i * width;\n"
                           "    $T sum = 0;\n"
                           "    for (int k = 0; k < width; k++)\n"
                           "        if (c[k] >= 0)\n            sum += v[k] * x[c[k]];\n"
                           "    y[i] = sum;\n");
            gen_launch(p, "spmv_ell", "(rows+255)/256", "256", NULL, "ell_col,ell_val,x,y,rows,cols,width");
        }
    } else {
        int tr = !strcmp(tag, "coo-t"), ab = !strcmp(tag, "coo-axpby"), rs = !strcmp(tag, "coo-rowscale");
        const char *ylen = tr ? "cols" : "rows";
        char grid[32];
        snprintf(grid, sizeof grid, "(%s+255)/256", ylen);
        if (ab) {
            put_map_kernel(k, t, "/* y *= beta: one thread per element. */\n", "scale_y", "$T $R y, $T beta, int n",
                           "n", "    y[i] *= beta;\n");
            gen_launch(p, "scale_y", grid, "256", NULL, "y,beta,rows");
        } else {
            put_map_kernel(k, t, "/* y = 0: one thread per element. */\n", "zero_y", "$T $R y, int n", "n",
                           "    y[i] = 0;\n");
            gen_launch(p, "zero_y", grid, "256", NULL, tr ? "y,cols" : "y,rows");
        }
        sb_append(k, "\n");
        if (tr)
            put_map_kernel(k, t, "/* y += A^T x: one thread per COO triple, atomicAdd into y[col]. */\n", "spmv_coo",
                           "const int $R row_idx, const int $R col_idx, const $T $R vals, const $T $R x, $T *y, "
                           "int nnz",
                           "nnz", "    atomicAdd(&y[col_idx[i]], vals[i] * x[row_idx[i]]);\n");
        else if (ab)
            put_map_kernel(k, t, "/* y += alpha A x: one thread per COO triple, atomicAdd into y[row]. */\n",
                           "spmv_coo",
                           "const int $R row_idx, const int $R col_idx, const $T $R vals, const $T $R x, $T *y, "
                           "$T alpha, int nnz",
                           "nnz", "    atomicAdd(&y[row_idx[i]], alpha * vals[i] * x[col_idx[i]]);\n");
        else
            put_map_kernel(k, t, "/* y += A x: one thread per COO triple, atomicAdd into y[row]. */\n", "spmv_coo",
                           "const int $R row_idx, const int $R col_idx, const $T $R vals, const $T $R x, $T *y, "
                           "int nnz",
                           "nnz", "    atomicAdd(&y[row_idx[i]], vals[i] * x[col_idx[i]]);\n");
        gen_launch(p, "spmv_coo", "(nnz+255)/256", "256", NULL,
                   ab ? "row_idx,col_idx,vals,x,y,alpha,nnz" : "row_idx,col_idx,vals,x,y,nnz");
        if (rs) {
            sb_append(k, "\n");
            put_map_kernel(k, t, "/* y *= scale (row scaling): one thread per element. */\n", "scale_rows",
                           "$T $R y, const $T $R scale, int n", "n", "    y[i] *= scale[i];\n");
            gen_launch(p, "scale_rows", "(rows+255)/256", "256", NULL, "y,scale,rows");
        }
        mapping = rs   ? "zero y, one-triple-per-thread atomicAdd scatter, row scaling (three launches)"
                  : ab ? "scale y, then one-triple-per-thread atomicAdd scatter (two launches)"
                       : "zero y, then one-triple-per-thread atomicAdd scatter (two launches)";
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", mapping);
}

static int emit(GenCtx *g, int op, int d)
{
    const char *dt = d ? "f64" : "f32";
    const int sz = d ? 8 : 4;
    Sub t = {d ? "double" : "float", d ? "" : "f"};
    char variant[64], bytes[160];
    snprintf(variant, sizeof variant, "%s-%s", OPS[op], dt);
    const char *tag = OPS[op];
    const char *entry = !strncmp(tag, "ell", 3)   ? "spmv_ell"
                        : !strncmp(tag, "coo", 3) ? "spmv_coo"
                        : !strcmp(tag, "csr-and-t") ? "spmv_both"
                        : !strcmp(tag, "csr-t") || !strcmp(tag, "csr-t-axpby") ? "spmv_t"
                                                    : "spmv";
    GenProgram *p = gen_begin(g, variant, entry);
    StrBuf *s = gen_src(p);
    /* Most variants read the CSR arrays, x, and write y once. */
    snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, sz, sz);
    const char *flops = "2*nnz";

    if (!strcmp(tag, "csr") || !strcmp(tag, "csr-axpby") || !strcmp(tag, "csr-bias-relu") ||
        !strcmp(tag, "csr-rowptr-i64") || !strcmp(tag, "csr-residual") || !strcmp(tag, "csr-rowscale") ||
        !strcmp(tag, "csr-colscale") || !strcmp(tag, "csr-rowmean") || !strcmp(tag, "csr-tril")) {
        int i64 = !strcmp(tag, "csr-rowptr-i64");
        csr_args(p, dt, "rows", "cols", i64);
        gen_arg(p, "x", dt, "in", "cols");
        if (!strcmp(tag, "csr-bias-relu"))
            gen_arg(p, "bias", dt, "in", "rows");
        if (!strcmp(tag, "csr-residual"))
            gen_arg(p, "b", dt, "in", "rows");
        if (!strcmp(tag, "csr-rowscale"))
            gen_arg(p, "scale", dt, "in", "rows");
        if (!strcmp(tag, "csr-colscale"))
            gen_arg(p, "scale", dt, "in", "cols");
        gen_arg(p, !strcmp(tag, "csr-residual") ? "r" : "y", dt, !strcmp(tag, "csr-axpby") ? "inout" : "out",
                "rows");
        if (!strcmp(tag, "csr-axpby")) {
            gen_scalar(p, "alpha", dt, coef(g, 0.5, 2.0));
            gen_scalar(p, "beta", dt, coef(g, -1.0, 1.0));
        }
        rect_params(p);
        if (i64) {
            snprintf(bytes, sizeof bytes, "8*(rows+1)+%d*nnz+%d*cols+%d*rows", 8 + sz, sz, sz);
            put(s, &t, "#include <stdint.h>\n\n"
                       "/* y = A x for a rows x cols CSR matrix with 64-bit row offsets and\n"
                       " * column indices (for matrices with more than 2^31 nonzeros). */\n"
                       "void spmv(const int64_t *row_ptr, const int64_t *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr")) {
            put(s, &t, "/* y = A x for a rows x cols CSR matrix A. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-axpby")) {
            snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, sz, 2 * sz);
            flops = "2*nnz+3*rows";
            put(s, &t, "/* y = alpha * A x + beta * y for a rows x cols CSR matrix A. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, $T alpha, $T beta, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-bias-relu")) {
            snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, sz, 2 * sz);
            flops = "2*nnz+2*rows";
            put(s, &t, "/* y = max(A x + bias, 0): a sparse layer with a ReLU. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, const $T *bias, $T *y, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-residual")) {
            snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, sz, 2 * sz);
            flops = "2*nnz+rows";
            put(s, &t, "/* r = b - A x: the residual of a sparse linear system. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, const $T *b, $T *r, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-rowscale")) {
            snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, sz, 2 * sz);
            flops = "2*nnz+rows";
            put(s, &t, "/* y = diag(scale) A x: CSR product with a row scaling. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, const $T *scale, $T *y, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-colscale")) {
            snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, 2 * sz, sz);
            flops = "3*nnz";
            put(s, &t, "/* y = A diag(scale) x: CSR product with a column scaling. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, const $T *scale, $T *y, int rows, int cols, int nnz)\n{\n");
        } else if (!strcmp(tag, "csr-rowmean")) {
            flops = "2*nnz+rows";
            put(s, &t, "/* y_i = (A x)_i / (number of stored entries in row i), 0 for an empty\n"
                       " * row: a mean over each row's neighbours. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n");
        } else {
            put(s, &t, "/* y = tril(A) x: only the stored entries on or below the diagonal\n"
                       " * (col <= row) of the rows x cols CSR matrix take part. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n");
        }
        sb_append(s, "    (void)cols; /* cols and nnz only size x, col_idx and vals */\n    (void)nnz;\n");
        if (i64) {
            put(s, &t, "    for (int i = 0; i < rows; i++) {\n        $T sum = 0;\n"
                       "        for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            sum += vals[k] * x[col_idx[k]];\n        y[i] = sum;\n    }\n}\n");
        } else {
            put(s, &t, "    for (int i = 0; i < rows; i++) {\n        $T sum = 0;\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n");
            if (!strcmp(tag, "csr-colscale"))
                sb_append(s, "            sum += vals[k] * scale[col_idx[k]] * x[col_idx[k]];\n");
            else if (!strcmp(tag, "csr-tril"))
                sb_append(s, "            if (col_idx[k] <= i)\n                sum += vals[k] * x[col_idx[k]];\n");
            else
                sb_append(s, "            sum += vals[k] * x[col_idx[k]];\n");
            if (!strcmp(tag, "csr-axpby"))
                sb_append(s, "        y[i] = alpha * sum + beta * y[i];\n");
            else if (!strcmp(tag, "csr-bias-relu"))
                put(s, &t, "        sum += bias[i];\n        y[i] = sum > 0 ? sum : 0;\n");
            else if (!strcmp(tag, "csr-residual"))
                sb_append(s, "        r[i] = b[i] - sum;\n");
            else if (!strcmp(tag, "csr-rowscale"))
                sb_append(s, "        y[i] = scale[i] * sum;\n");
            else if (!strcmp(tag, "csr-rowmean"))
                sb_append(s, "        int len = row_ptr[i + 1] - row_ptr[i];\n"
                             "        y[i] = len > 0 ? sum / len : 0;\n");
            else
                sb_append(s, "        y[i] = sum;\n");
            sb_append(s, "    }\n}\n");
        }
    } else if (!strcmp(tag, "csr-diag") || !strcmp(tag, "csr-pattern") || !strcmp(tag, "csr-squared") ||
               !strcmp(tag, "csr-power-step") || !strcmp(tag, "csr-jacobi") || !strcmp(tag, "csr-minplus")) {
        /* Square matrices. */
        int pattern = !strcmp(tag, "csr-pattern");
        csr_args(p, pattern ? NULL : dt, "n", "n", 0);
        if (!strcmp(tag, "csr-diag"))
            gen_arg(p, "diag", dt, "in", "n");
        if (!strcmp(tag, "csr-jacobi")) {
            gen_arg(p, "diag", dt, "in", "n");
            gen_arg(p, "b", dt, "in", "n");
            gen_fill_uniform(p, "diag", 4.0, 8.0);
        }
        if (!strcmp(tag, "csr-minplus")) {
            gen_fill_uniform(p, "vals", 0.0, 1.0);
        }
        gen_arg(p, !strcmp(tag, "csr-minplus") ? "dist" : "x", dt, "in", "n");
        if (!strcmp(tag, "csr-minplus"))
            gen_fill_uniform(p, "dist", 0.0, 10.0);
        if (!strcmp(tag, "csr-squared"))
            gen_arg(p, "tmp", dt, "out", "n");
        gen_arg(p, !strcmp(tag, "csr-minplus") ? "dist_out" : (!strcmp(tag, "csr-jacobi") ? "x_new" : "y"), dt,
                "out", "n");
        if (!strcmp(tag, "csr-jacobi"))
            gen_scalar(p, "omega", dt, coef(g, 0.6, 0.95));
        square_params(p);
        snprintf(bytes, sizeof bytes, "4*(n+1)+%d*nnz+%d*n", pattern ? 4 : 4 + sz, 2 * sz);
        if (!strcmp(tag, "csr-diag")) {
            snprintf(bytes, sizeof bytes, "4*(n+1)+%d*nnz+%d*n", 4 + sz, 3 * sz);
            flops = "2*nnz+2*n";
            put(s, &t, "/* y = (D + A) x, where the diagonal D is stored apart from the\n"
                       " * off-diagonal CSR part A (as in a split Laplacian). */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *diag, const $T *x, $T *y, int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    for (int i = 0; i < n; i++) {\n        $T sum = diag[i] * x[i];\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            sum += vals[k] * x[col_idx[k]];\n        y[i] = sum;\n    }\n}\n");
        } else if (pattern) {
            flops = "nnz";
            put(s, &t, "/* y = A x for a 0/1 pattern matrix given only by its CSR structure:\n"
                       " * y_i sums x over the columns stored in row i. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *x, $T *y, int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx */\n"
                       "    for (int i = 0; i < n; i++) {\n        $T sum = 0;\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            sum += x[col_idx[k]];\n        y[i] = sum;\n    }\n}\n");
        } else if (!strcmp(tag, "csr-squared")) {
            flops = "4*nnz";
            snprintf(bytes, sizeof bytes, "4*(n+1)+%d*nnz+%d*n", 4 + sz, 3 * sz);
            put(s, &t, "/* y = A (A x) for a square CSR matrix; tmp receives A x. */\n"
                       "static void csr_mul(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "                    const $T *x, $T *y, int n)\n{\n"
                       "    for (int i = 0; i < n; i++) {\n        $T sum = 0;\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            sum += vals[k] * x[col_idx[k]];\n        y[i] = sum;\n    }\n}\n\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals, const $T *x,\n"
                       "          $T *tmp, $T *y, int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    csr_mul(row_ptr, col_idx, vals, x, tmp, n);\n"
                       "    csr_mul(row_ptr, col_idx, vals, tmp, y, n);\n}\n");
            gen_tolerance(p, d ? 1e-9 : 1e-3, d ? 1e-7 : 1e-4);
        } else if (!strcmp(tag, "csr-power-step")) {
            flops = "2*nnz+3*n";
            put(s, &t, "#include <math.h>\n\n"
                       "/* One power-iteration step: y = A x / ||A x||_2 (y = A x when the\n"
                       " * product is zero). */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *x, $T *y, int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    double norm2 = 0;\n"
                       "    for (int i = 0; i < n; i++) {\n        $T sum = 0;\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            sum += vals[k] * x[col_idx[k]];\n        y[i] = sum;\n"
                       "        norm2 += (double)sum * sum;\n    }\n"
                       "    if (norm2 > 0) {\n        $T inv = ($T)(1.0 / sqrt(norm2));\n"
                       "        for (int i = 0; i < n; i++)\n            y[i] *= inv;\n    }\n}\n");
            gen_tolerance(p, d ? 1e-10 : 1e-6, d ? 1e-7 : 1e-3);
        } else if (!strcmp(tag, "csr-jacobi")) {
            flops = "2*nnz+4*n";
            snprintf(bytes, sizeof bytes, "4*(n+1)+%d*nnz+%d*n", 4 + sz, 4 * sz);
            put(s, &t, "/* One weighted Jacobi step for (D + A) x = b, with D = diag and A the\n"
                       " * off-diagonal CSR part: x_new = x + omega * (b - D x - A x) / D. */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *diag, const $T *b, const $T *x, $T *x_new, $T omega,\n"
                       "          int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    for (int i = 0; i < n; i++) {\n        $T ax = diag[i] * x[i];\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            ax += vals[k] * x[col_idx[k]];\n"
                       "        x_new[i] = x[i] + omega * (b[i] - ax) / diag[i];\n    }\n}\n");
        } else {
            flops = "2*nnz";
            put(s, &t, "/* One Bellman-Ford relaxation in the (min, +) semiring, pulling along\n"
                       " * the stored edges of row i (vals are non-negative edge lengths):\n"
                       " * dist_out_i = min(dist_i, min_k dist[col_k] + vals_k). */\n"
                       "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "          const $T *dist, $T *dist_out, int n, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    for (int i = 0; i < n; i++) {\n        $T best = dist[i];\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {\n"
                       "            $T cand = dist[col_idx[k]] + vals[k];\n"
                       "            if (cand < best)\n                best = cand;\n        }\n"
                       "        dist_out[i] = best;\n    }\n}\n");
        }
    } else if (!strcmp(tag, "csr-complex")) {
        csr_args(p, NULL, "rows", "cols", 0);
        gen_arg(p, "vals", dt, "in", "nnz,2");
        gen_arg(p, "x", dt, "in", "cols,2");
        gen_arg(p, "y", dt, "out", "rows,2");
        rect_params(p);
        flops = "8*nnz";
        snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + 2 * sz, 2 * sz, 2 * sz);
        put(s, &t, "/* y = A x with complex entries stored as interleaved (re, im) pairs. */\n"
                   "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                   "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n"
                   "    (void)cols; /* cols and nnz only size x, col_idx and vals */\n    (void)nnz;\n"
                   "    for (int i = 0; i < rows; i++) {\n        $T re = 0, im = 0;\n"
                   "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {\n"
                   "            $T ar = vals[2 * k], ai = vals[2 * k + 1];\n"
                   "            $T xr = x[2 * col_idx[k]], xi = x[2 * col_idx[k] + 1];\n"
                   "            re += ar * xr - ai * xi;\n            im += ar * xi + ai * xr;\n        }\n"
                   "        y[2 * i] = re;\n        y[2 * i + 1] = im;\n    }\n}\n");
    } else if (!strcmp(tag, "csr-maxplus")) {
        csr_args(p, dt, "rows", "cols", 0);
        gen_arg(p, "x", dt, "in", "cols");
        gen_arg(p, "y", dt, "out", "rows");
        rect_params(p);
        put(s, &t, "/* y = A x in the (max, +) semiring: y_i = max_k (vals_k + x[col_k]) over\n"
                   " * the entries stored in row i, and 0 for an empty row. */\n"
                   "void spmv(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                   "          const $T *x, $T *y, int rows, int cols, int nnz)\n{\n"
                   "    (void)cols; /* cols and nnz only size x, col_idx and vals */\n    (void)nnz;\n"
                   "    for (int i = 0; i < rows; i++) {\n"
                   "        if (row_ptr[i] == row_ptr[i + 1]) {\n            y[i] = 0;\n            continue;\n        }\n"
                   "        $T best = vals[row_ptr[i]] + x[col_idx[row_ptr[i]]];\n"
                   "        for (int k = row_ptr[i] + 1; k < row_ptr[i + 1]; k++) {\n"
                   "            $T v = vals[k] + x[col_idx[k]];\n"
                   "            if (v > best)\n                best = v;\n        }\n"
                   "        y[i] = best;\n    }\n}\n");
    } else if (!strcmp(tag, "csr-t") || !strcmp(tag, "csr-t-axpby")) {
        int ab = !strcmp(tag, "csr-t-axpby");
        csr_args(p, dt, "rows", "cols", 0);
        gen_arg(p, "x", dt, "in", "rows");
        gen_arg(p, "y", dt, ab ? "inout" : "out", "cols");
        if (ab) {
            gen_scalar(p, "alpha", dt, coef(g, 0.5, 2.0));
            gen_scalar(p, "beta", dt, coef(g, -1.0, 1.0));
        }
        rect_params(p);
        snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*rows+%d*cols", 4 + sz, sz, ab ? 2 * sz : sz);
        if (ab) {
            flops = "2*nnz+3*cols";
            put(s, &t, "/* y = alpha * A^T x + beta * y for a rows x cols CSR matrix A: each\n"
                       " * row scatters its contributions into y. */\n"
                       "void spmv_t(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "            const $T *x, $T *y, $T alpha, $T beta, int rows, int cols, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    for (int j = 0; j < cols; j++)\n        y[j] *= beta;\n"
                       "    for (int i = 0; i < rows; i++) {\n        $T ax = alpha * x[i];\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            y[col_idx[k]] += vals[k] * ax;\n    }\n}\n");
        } else {
            put(s, &t, "/* y = A^T x for a rows x cols CSR matrix A: each row scatters\n"
                       " * vals_k * x_i into y[col_k]. */\n"
                       "void spmv_t(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                       "            const $T *x, $T *y, int rows, int cols, int nnz)\n{\n"
                       "    (void)nnz; /* sizes col_idx and vals */\n"
                       "    for (int j = 0; j < cols; j++)\n        y[j] = 0;\n"
                       "    for (int i = 0; i < rows; i++)\n"
                       "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)\n"
                       "            y[col_idx[k]] += vals[k] * x[i];\n}\n");
        }
        gen_tolerance(p, d ? 1e-9 : 1e-4, d ? 1e-7 : 1e-4);
    } else if (!strcmp(tag, "csr-and-t")) {
        csr_args(p, dt, "rows", "cols", 0);
        gen_arg(p, "x", dt, "in", "cols");
        gen_arg(p, "w", dt, "in", "rows");
        gen_arg(p, "y", dt, "out", "rows");
        gen_arg(p, "z", dt, "out", "cols");
        rect_params(p);
        flops = "4*nnz";
        snprintf(bytes, sizeof bytes, "4*(rows+1)+%d*nnz+%d*cols+%d*rows", 4 + sz, 2 * sz, 2 * sz);
        put(s, &t, "/* y = A x and z = A^T w in one pass over a rows x cols CSR matrix (as in\n"
                   " * bi-conjugate gradient methods). */\n"
                   "void spmv_both(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                   "               const $T *x, const $T *w, $T *y, $T *z, int rows, int cols, int nnz)\n{\n"
                   "    (void)nnz; /* sizes col_idx and vals */\n"
                   "    for (int j = 0; j < cols; j++)\n        z[j] = 0;\n"
                   "    for (int i = 0; i < rows; i++) {\n        $T sum = 0;\n"
                   "        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {\n"
                   "            sum += vals[k] * x[col_idx[k]];\n"
                   "            z[col_idx[k]] += vals[k] * w[i];\n        }\n        y[i] = sum;\n    }\n}\n");
        gen_tolerance(p, d ? 1e-9 : 1e-4, d ? 1e-7 : 1e-4);
    } else if (!strncmp(tag, "ell", 3)) {
        int colmajor = !strcmp(tag, "ell-colmajor"), rowlen = !strcmp(tag, "ell-rowlen");
        gen_arg(p, "ell_col", "i32", "in", colmajor ? "width,rows" : "rows,width");
        gen_arg(p, "ell_val", dt, "in", colmajor ? "width,rows" : "rows,width");
        if (rowlen)
            gen_arg(p, "row_len", "i32", "in", "rows");
        gen_arg(p, "x", dt, "in", "cols");
        gen_arg(p, "y", dt, "out", "rows");
        ell_params(p);
        /* Padding slots hold a negative column index (about a fifth of them). */
        gen_fill_int(p, "ell_col", rowlen ? "0" : "-cols/4-1", "cols");
        if (rowlen)
            gen_fill_int(p, "row_len", "0", "width+1");
        snprintf(bytes, sizeof bytes, "%d*rows*width+%d*cols+%d*rows", 4 + sz, sz, rowlen ? sz + 4 : sz);
        flops = "2*rows*width";
        if (colmajor)
            put(s, &t, "/* y = A x for A in ELLPACK format stored column-major: slot k of row i\n"
                       " * is at k * rows + i.  A negative column index marks padding. */\n"
                       "void spmv_ell(const int *ell_col, const $T *ell_val, const $T *x, $T *y,\n"
                       "              int rows, int cols, int width)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++) {\n        $T sum = 0;\n"
                       "        for (int k = 0; k < width; k++) {\n"
                       "            int c = ell_col[k * rows + i];\n"
                       "            if (c >= 0)\n                sum += ell_val[k * rows + i] * x[c];\n        }\n"
                       "        y[i] = sum;\n    }\n}\n");
        else if (rowlen)
            put(s, &t, "#include <stddef.h>\n\n/* y = A x for A in ELLPACK format (rows x width slots, row-major) with\n"
                       " * an explicit length per row: only the first row_len[i] slots are used. */\n"
                       "void spmv_ell(const int *ell_col, const $T *ell_val, const int *row_len,\n"
                       "              const $T *x, $T *y, int rows, int cols, int width)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++) {\n"
                       "        const int *c = ell_col + (size_t)i * width;\n"
                       "        const $T *v = ell_val + (size_t)i * width;\n        $T sum = 0;\n"
                       "        for (int k = 0; k < row_len[i]; k++)\n"
                       "            sum += v[k] * x[c[k]];\n        y[i] = sum;\n    }\n}\n");
        else
            put(s, &t, "#include <stddef.h>\n\n/* y = A x for A in ELLPACK format: rows x width slots stored row-major,\n"
                       " * a negative column index marking a padding slot. */\n"
                       "void spmv_ell(const int *ell_col, const $T *ell_val, const $T *x, $T *y,\n"
                       "              int rows, int cols, int width)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++) {\n        $T sum = 0;\n"
                       "        for (int k = 0; k < width; k++) {\n"
                       "            int c = ell_col[(size_t)i * width + k];\n"
                       "            if (c >= 0)\n                sum += ell_val[(size_t)i * width + k] * x[c];\n        }\n"
                       "        y[i] = sum;\n    }\n}\n");
    } else {
        /* COO: unsorted (row, col, val) triples, scattered into y. */
        int tr = !strcmp(tag, "coo-t"), ab = !strcmp(tag, "coo-axpby"), rs = !strcmp(tag, "coo-rowscale");
        gen_arg(p, "row_idx", "i32", "in", "nnz");
        gen_arg(p, "col_idx", "i32", "in", "nnz");
        gen_arg(p, "vals", dt, "in", "nnz");
        gen_arg(p, "x", dt, "in", tr ? "rows" : "cols");
        if (rs)
            gen_arg(p, "scale", dt, "in", "rows");
        gen_arg(p, "y", dt, ab ? "inout" : "out", tr ? "cols" : "rows");
        if (ab) {
            gen_scalar(p, "alpha", dt, coef(g, 0.5, 2.0));
            gen_scalar(p, "beta", dt, coef(g, -1.0, 1.0));
        }
        coo_params(p);
        gen_fill_int(p, "row_idx", "0", "rows");
        gen_fill_int(p, "col_idx", "0", "cols");
        snprintf(bytes, sizeof bytes, "%d*nnz+%d*cols+%d*rows", 8 + sz, sz, (ab || rs) ? 2 * sz : sz);
        if (tr) {
            put(s, &t, "/* y = A^T x for A given as unsorted COO triples (row_idx, col_idx, vals). */\n"
                       "void spmv_coo(const int *row_idx, const int *col_idx, const $T *vals,\n"
                       "              const $T *x, $T *y, int rows, int cols, int nnz)\n{\n"
                       "    (void)rows; /* sizes x */\n"
                       "    for (int j = 0; j < cols; j++)\n        y[j] = 0;\n"
                       "    for (int k = 0; k < nnz; k++)\n"
                       "        y[col_idx[k]] += vals[k] * x[row_idx[k]];\n}\n");
        } else if (ab) {
            flops = "2*nnz+3*rows";
            put(s, &t, "/* y = alpha * A x + beta * y for A given as unsorted COO triples. */\n"
                       "void spmv_coo(const int *row_idx, const int *col_idx, const $T *vals,\n"
                       "              const $T *x, $T *y, $T alpha, $T beta, int rows, int cols, int nnz)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++)\n        y[i] *= beta;\n"
                       "    for (int k = 0; k < nnz; k++)\n"
                       "        y[row_idx[k]] += alpha * vals[k] * x[col_idx[k]];\n}\n");
        } else if (rs) {
            flops = "2*nnz+rows";
            put(s, &t, "/* y = diag(scale) A x for A given as unsorted COO triples. */\n"
                       "void spmv_coo(const int *row_idx, const int *col_idx, const $T *vals,\n"
                       "              const $T *x, const $T *scale, $T *y, int rows, int cols, int nnz)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++)\n        y[i] = 0;\n"
                       "    for (int k = 0; k < nnz; k++)\n"
                       "        y[row_idx[k]] += vals[k] * x[col_idx[k]];\n"
                       "    for (int i = 0; i < rows; i++)\n        y[i] *= scale[i];\n}\n");
        } else {
            put(s, &t, "/* y = A x for A given as unsorted COO triples (row_idx, col_idx, vals). */\n"
                       "void spmv_coo(const int *row_idx, const int *col_idx, const $T *vals,\n"
                       "              const $T *x, $T *y, int rows, int cols, int nnz)\n{\n"
                       "    (void)cols; /* sizes x */\n"
                       "    for (int i = 0; i < rows; i++)\n        y[i] = 0;\n"
                       "    for (int k = 0; k < nnz; k++)\n"
                       "        y[row_idx[k]] += vals[k] * x[col_idx[k]];\n}\n");
        }
        gen_tolerance(p, d ? 1e-9 : 1e-4, d ? 1e-7 : 1e-4);
    }
    emit_cuda(p, tag, &t);
    gen_describe(p, "sparse matrix-vector product: %s, %s", tag, dt);
    gen_cost(p, flops, bytes);
    if (!d && !strncmp(tag, "csr", 3) && strcmp(tag, "csr-squared") && strcmp(tag, "csr-power-step") &&
        strcmp(tag, "csr-minplus") && strcmp(tag, "csr-maxplus"))
        gen_tolerance(p, 1e-4, 1e-4);
    if (!d && !strncmp(tag, "ell", 3))
        gen_tolerance(p, 1e-4, 1e-4);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int op = 0; op < N_OPS; op++)
        for (int d = 0; d < 2; d++)
            if (emit(g, op, d) != 0)
                return -1;
    return 0;
}

const Family family_spmv_csr = {"spmv_csr", "sparse", 54, generate};
