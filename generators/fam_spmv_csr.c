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
