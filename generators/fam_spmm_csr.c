/* spmm_csr — a CSR sparse matrix against dense matrices.  SpMM C = A B with
 * row-major or column-major dense operands, alpha/beta and accumulate forms,
 * A^T B, bias + ReLU, mean / sum / max neighbour aggregation, GCN symmetric
 * normalisation, a padded leading dimension, a fixed width of 4, column
 * scaling and two hops A(AB); sampled dense-dense products (SDDMM) on the
 * CSR pattern (plain, scaled, column-major V, row softmax, residual,
 * sigmoid); and per-row (and per-column) sums, norms, normalisation and
 * statistics of the stored values.  Each in f32 and f64. */
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

enum { SPMM, SQUARE, SDDMM, ROWS, COLS };

typedef struct Op {
    const char *tag;
    int shape;          /* which arguments and configs it takes */
    const char *doc;    /* the program's opening comment */
    const char *sig;    /* the parameter list after the CSR arrays */
    const char *body;
    const char *flops;
    const char *bytes;  /* "%d" is the element size */
    const char *ref_bytes; /* the C reference's, where bytes undercount them (gen.h:
                              gen_reference_cost); NULL: the same */
} Op;

#define CSR "const int *row_ptr, const int *col_idx, const $T *vals, "

static const Op OPS[] = {
    {"spmm", SPMM, "C = A B: A is a rows x cols CSR matrix, B a dense cols x k matrix and C a\n"
                   " * dense rows x k matrix, both row-major.",
     CSR "const $T *B, $T *C", 
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-colmajor", SPMM, "C = A B with A a rows x cols CSR matrix and the dense matrices stored\n"
                            " * column-major: B is cols x k (column j at B + j * cols), C is rows x k.",
     CSR "const $T *B, $T *C",
     "    for (int j = 0; j < k; j++) {\n        const $T *b = B + j * cols;\n"
     "        for (int i = 0; i < rows; i++) {\n            $T sum = 0;\n"
     "            for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "                sum += vals[p] * b[col_idx[p]];\n            C[j * rows + i] = sum;\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-axpby", SPMM, "C = alpha * A B + beta * C: A a rows x cols CSR matrix, B (cols x k)\n"
                         " * and C (rows x k) dense and row-major.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        for (int j = 0; j < k; j++) {\n            $T sum = 0;\n"
     "            for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "                sum += vals[p] * B[col_idx[p] * k + j];\n"
     "            C[i * k + j] = alpha * sum + beta * C[i * k + j];\n        }\n    }\n",
     "2*nnz*k+3*rows*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+2*%d*rows*k"},
    {"spmm-accumulate", SPMM, "C += A B: A a rows x cols CSR matrix, B (cols x k) and C (rows x k)\n"
                              " * dense and row-major.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+2*%d*rows*k"},
    {"spmm-transposed", SPMM, "C = A^T B: A a rows x cols CSR matrix, B a dense rows x k matrix and C\n"
                              " * a dense cols x k matrix (row-major); each row of A scatters into C.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < cols * k; i++)\n        C[i] = 0;\n"
     "    for (int i = 0; i < rows; i++) {\n        const $T *b = B + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            $T *c = C + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*rows*k+%d*cols*k"},
    {"spmm-bias-relu", SPMM, "C = max(A B + bias, 0): a sparse graph layer (A rows x cols CSR, B cols x k\n"
                             " * and C rows x k dense row-major, bias of length k).",
     CSR "const $T *B, const $T *bias, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = bias[j];\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n"
     "        for (int j = 0; j < k; j++)\n            if (c[j] < 0)\n                c[j] = 0;\n    }\n",
     "2*nnz*k+2*rows*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-mean", SPMM, "Mean aggregation: row i of C is the vals-weighted sum of the rows of B\n"
                        " * named by row i of the CSR matrix A, divided by the row's entry count\n"
                        " * (zero for an empty row).  B is cols x k, C rows x k, row-major.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
     "        int len = row_ptr[i + 1] - row_ptr[i];\n        if (len == 0)\n            continue;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n"
     "        for (int j = 0; j < k; j++)\n            c[j] /= len;\n    }\n",
     "2*nnz*k+rows*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-pattern-sum", SPMM, "Sum aggregation over a 0/1 pattern: row i of C is the sum of the rows of\n"
                               " * B whose indices are stored in row i of the CSR structure (no values).",
     "const int *row_ptr, const int *col_idx, const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += b[j];\n        }\n    }\n",
     "nnz*k", "4*(rows+1)+4*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-max", SPMM, "Max aggregation: C[i][j] = max over the entries p of row i of\n"
                       " * vals[p] * B[col_idx[p]][j], and 0 for an empty row (B cols x k, C rows x k).",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        if (row_ptr[i] == row_ptr[i + 1]) {\n"
     "            for (int j = 0; j < k; j++)\n                c[j] = 0;\n            continue;\n        }\n"
     "        for (int j = 0; j < k; j++) {\n            int p = row_ptr[i];\n"
     "            $T best = vals[p] * B[col_idx[p] * k + j];\n"
     "            for (p = p + 1; p < row_ptr[i + 1]; p++) {\n"
     "                $T v = vals[p] * B[col_idx[p] * k + j];\n"
     "                if (v > best)\n                    best = v;\n            }\n            c[j] = best;\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-gcn", SQUARE, "GCN propagation C = D^-1/2 (A + I) D^-1/2 B for the 0/1 pattern A of an\n"
                         " * n-vertex graph in CSR form, with d_i = (entries in row i) + 1 counting\n"
                         " * the self loop.  B and C are n x k, row-major.",
     "const int *row_ptr, const int *col_idx, const $T *B, $T *C",
     "    for (int i = 0; i < n; i++) {\n        $T *c = C + i * k;\n"
     "        $T di = ($T)(row_ptr[i + 1] - row_ptr[i] + 1);\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = B[i * k + j] / di;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n            int v = col_idx[p];\n"
     "            $T dv = ($T)(row_ptr[v + 1] - row_ptr[v] + 1);\n"
     "            $T w = 1 / sqrt$F(di * dv);\n            const $T *b = B + v * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += w * b[j];\n        }\n    }\n",
     "2*nnz*k+2*n*k", "4*(n+1)+4*nnz+%d*n*k+%d*n*k"},
    {"spmm-padded-ldb", SPMM, "C = A B where B is a dense cols x k block inside a row-major array with\n"
                              " * leading dimension ldb >= k; A is rows x cols CSR and C rows x k.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * ldb;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-colscale", SPMM, "C = A B diag(w): the CSR product (A rows x cols, B cols x k, row-major)\n"
                            " * followed by a scale per output column.",
     CSR "const $T *B, const $T *w, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T *c = C + i * k;\n"
     "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + col_idx[p] * k;\n"
     "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n        }\n"
     "        for (int j = 0; j < k; j++)\n            c[j] *= w[j];\n    }\n",
     "2*nnz*k+rows*k", "4*(rows+1)+(4+%d)*nnz+%d*cols*k+%d*rows*k"},
    {"spmm-width4", SPMM, "C = A B for a dense B with exactly 4 columns (as for 4-component\n"
                          " * vectors): A rows x cols CSR, B cols x 4 and C rows x 4, row-major.",
     CSR "const $T *B, $T *C",
     "    for (int i = 0; i < rows; i++) {\n        $T c0 = 0, c1 = 0, c2 = 0, c3 = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *b = B + 4 * col_idx[p];\n"
     "            c0 += vals[p] * b[0];\n            c1 += vals[p] * b[1];\n"
     "            c2 += vals[p] * b[2];\n            c3 += vals[p] * b[3];\n        }\n"
     "        C[4 * i] = c0;\n        C[4 * i + 1] = c1;\n        C[4 * i + 2] = c2;\n        C[4 * i + 3] = c3;\n"
     "    }\n",
     "8*nnz", "4*(rows+1)+(4+%d)*nnz+%d*cols*4+%d*rows*4"},
    {"spmm-two-hop", SQUARE, "C = A (A B) for a square n x n CSR matrix A and dense n x k matrices\n"
                             " * (row-major); tmp receives A B.",
     CSR "const $T *B, $T *tmp, $T *C",
     NULL, "4*nnz*k", "4*(n+1)+(4+%d)*nnz+%d*n*k+2*%d*n*k"},
    {"sddmm", SDDMM, "Sampled dense-dense product: for each stored entry p = (i, c) of the\n"
                     " * rows x cols CSR pattern, out[p] = dot(U[i], V[c]) with U rows x k and\n"
                     " * V cols x k row-major.",
     "const int *row_ptr, const int *col_idx, const $T *U, const $T *V, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        const $T *u = U + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *v = V + col_idx[p] * k;\n            $T dot = 0;\n"
     "            for (int j = 0; j < k; j++)\n                dot += u[j] * v[j];\n"
     "            out[p] = dot;\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+4*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
    {"sddmm-scaled", SDDMM, "SDDMM: out[p] = vals[p] * dot(U[i], V[c]) for each stored entry p = (i, c)\n"
                            " * of the rows x cols CSR matrix (U rows x k, V cols x k, row-major).",
     CSR "const $T *U, const $T *V, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        const $T *u = U + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *v = V + col_idx[p] * k;\n            $T dot = 0;\n"
     "            for (int j = 0; j < k; j++)\n                dot += u[j] * v[j];\n"
     "            out[p] = vals[p] * dot;\n        }\n    }\n",
     "2*nnz*k+nnz", "4*(rows+1)+(4+%d)*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
    {"sddmm-vcolmajor", SDDMM, "SDDMM with V stored column-major: out[p] = sum_j U[i][j] * V[j * cols + c]\n"
                               " * for each stored entry p = (i, c) of the rows x cols CSR pattern.",
     "const int *row_ptr, const int *col_idx, const $T *U, const $T *V, $T *out",
     "    for (int i = 0; i < rows; i++) {\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n            int c = col_idx[p];\n"
     "            $T dot = 0;\n            for (int j = 0; j < k; j++)\n"
     "                dot += U[i * k + j] * V[j * cols + c];\n            out[p] = dot;\n        }\n    }\n",
     "2*nnz*k", "4*(rows+1)+4*nnz+%d*rows*k+%d*cols*k+%d*nnz",
     /* V read down a column, cols apart: a 64-byte line per term */
     "64*nnz*k"},
    {"sddmm-softmax", SDDMM, "Sparse attention scores: s_p = dot(Q[i], K[c]) / sqrt(k) on the stored\n"
                             " * entries p = (i, c) of a CSR pattern, then a softmax over each row's\n"
                             " * entries.  Q is rows x k and K cols x k, row-major.",
     "const int *row_ptr, const int *col_idx, const $T *Q, const $T *K, $T *out",
     "    $T scale = 1 / sqrt$F(($T)k);\n"
     "    for (int i = 0; i < rows; i++) {\n        const $T *q = Q + i * k;\n"
     "        $T mx = -INFINITY;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *kc = K + col_idx[p] * k;\n            $T dot = 0;\n"
     "            for (int j = 0; j < k; j++)\n                dot += q[j] * kc[j];\n"
     "            out[p] = dot * scale;\n            if (out[p] > mx)\n                mx = out[p];\n        }\n"
     "        $T sum = 0;\n        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            out[p] = exp$F(out[p] - mx);\n            sum += out[p];\n        }\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            out[p] /= sum;\n    }\n",
     "2*nnz*k+5*nnz", "4*(rows+1)+4*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
    {"sddmm-residual", SDDMM, "Matrix-factorisation residual on the observed entries: for each stored\n"
                              " * entry p = (i, c) of the CSR matrix, out[p] = dot(U[i], V[c]) - vals[p].",
     CSR "const $T *U, const $T *V, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        const $T *u = U + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *v = V + col_idx[p] * k;\n            $T dot = 0;\n"
     "            for (int j = 0; j < k; j++)\n                dot += u[j] * v[j];\n"
     "            out[p] = dot - vals[p];\n        }\n    }\n",
     "2*nnz*k+nnz", "4*(rows+1)+(4+%d)*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
    {"sddmm-sigmoid", SDDMM, "Link scores on a CSR pattern: out[p] = sigmoid(dot(U[i], V[c])) for each\n"
                             " * stored entry p = (i, c); U rows x k and V cols x k, row-major.",
     "const int *row_ptr, const int *col_idx, const $T *U, const $T *V, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        const $T *u = U + i * k;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "            const $T *v = V + col_idx[p] * k;\n            $T dot = 0;\n"
     "            for (int j = 0; j < k; j++)\n                dot += u[j] * v[j];\n"
     "            out[p] = 1 / (1 + exp$F(-dot));\n        }\n    }\n",
     "2*nnz*k+4*nnz", "4*(rows+1)+4*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
    {"row-sums", ROWS, "Row sums of a CSR matrix: sums[i] = sum of the values stored in row i.",
     "const int *row_ptr, const $T *vals, $T *sums",
     "    for (int i = 0; i < rows; i++) {\n        $T s = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            s += vals[p];\n"
     "        sums[i] = s;\n    }\n",
     "nnz", "4*(rows+1)+%d*nnz+%d*rows"},
    {"row-norm2", ROWS, "Euclidean norm of each row of a CSR matrix: sqrt of the sum of squares\n"
                        " * of the values stored in the row.",
     "const int *row_ptr, const $T *vals, $T *norms",
     "    for (int i = 0; i < rows; i++) {\n        $T s = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            s += vals[p] * vals[p];\n"
     "        norms[i] = sqrt$F(s);\n    }\n",
     "2*nnz+rows", "4*(rows+1)+%d*nnz+%d*rows"},
    {"row-normalize-l1", ROWS, "Row-normalises a CSR matrix in the L1 norm: out[p] = vals[p] / sum |vals|\n"
                               " * over the row of p (a row whose entries are all zero is copied).",
     "const int *row_ptr, const $T *vals, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        $T s = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            s += fabs$F(vals[p]);\n"
     "        $T inv = s > 0 ? 1 / s : 1;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            out[p] = vals[p] * inv;\n    }\n",
     "3*nnz", "4*(rows+1)+2*%d*nnz"},
    {"row-maxabs", ROWS, "Infinity norm of each row of a CSR matrix: the largest |value| stored\n"
                         " * in the row, 0 for an empty row.",
     "const int *row_ptr, const $T *vals, $T *out",
     "    for (int i = 0; i < rows; i++) {\n        $T m = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "            if (fabs$F(vals[p]) > m)\n                m = fabs$F(vals[p]);\n"
     "        out[i] = m;\n    }\n",
     "nnz", "4*(rows+1)+%d*nnz+%d*rows"},
    {"row-stats", ROWS, "Mean and (population) variance of the values stored in each row of a CSR\n"
                        " * matrix; both are 0 for an empty row.",
     "const int *row_ptr, const $T *vals, $T *mean, $T *var",
     "    for (int i = 0; i < rows; i++) {\n        int len = row_ptr[i + 1] - row_ptr[i];\n"
     "        if (len == 0) {\n            mean[i] = 0;\n            var[i] = 0;\n            continue;\n        }\n"
     "        $T s = 0;\n        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            s += vals[p];\n"
     "        $T mu = s / len, ss = 0;\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "            ss += (vals[p] - mu) * (vals[p] - mu);\n"
     "        mean[i] = mu;\n        var[i] = ss / len;\n    }\n",
     "4*nnz+2*rows", "4*(rows+1)+%d*nnz+2*%d*rows"},
    {"col-sums", COLS, "Column sums of a rows x cols CSR matrix: sums[c] = sum of the values\n"
                       " * stored in column c, accumulated row by row.",
     "const int *row_ptr, const int *col_idx, const $T *vals, $T *sums",
     "    for (int c = 0; c < cols; c++)\n        sums[c] = 0;\n"
     "    for (int i = 0; i < rows; i++)\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n            sums[col_idx[p]] += vals[p];\n",
     "nnz", "4*(rows+1)+(4+%d)*nnz+%d*cols"},
    {"col-sumsq", COLS, "Squared column norms of a rows x cols CSR matrix (the diagonal of A^T A):\n"
                        " * out[c] = sum of vals^2 over the entries stored in column c.",
     "const int *row_ptr, const int *col_idx, const $T *vals, $T *out",
     "    for (int c = 0; c < cols; c++)\n        out[c] = 0;\n"
     "    for (int i = 0; i < rows; i++)\n"
     "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "            out[col_idx[p]] += vals[p] * vals[p];\n",
     "2*nnz", "4*(rows+1)+(4+%d)*nnz+%d*cols"},
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* Declares the buffers of the C signature `sig` in order: the names give
 * the shapes, `const` makes an input. */
static void add_buffers(GenProgram *p, const Op *op, const char *dt)
{
    /* Each buffer's shape, by name. */
    static const struct {
        const char *name, *spmm, *square, *sddmm;
    } SHAPES[] = {
        {"B", "cols,k", "n,k", NULL}, {"C", "rows,k", "n,k", NULL}, {"tmp", NULL, "n,k", NULL},
        {"bias", "k", NULL, NULL},    {"w", "k", NULL, NULL},       {"U", NULL, NULL, "rows,k"},
        {"V", NULL, NULL, "cols,k"},  {"Q", NULL, NULL, "rows,k"},  {"K", NULL, NULL, "cols,k"},
        {"out", NULL, NULL, "nnz"},
    };
    const char *q = op->sig;
    while (*q) {
        int is_const = !strncmp(q, "const ", 6);
        if (is_const)
            q += 6;
        const char *ty = q;
        while (*q != ' ')
            q++;
        q++; /* space, then '*' */
        q++;
        char name[32];
        int n = 0;
        while (*q && *q != ',')
            name[n++] = *q++;
        name[n] = '\0';
        while (*q == ',' || *q == ' ')
            q++;
        int is_int = !strncmp(ty, "int", 3);
        const char *shape = NULL;
        if (!strcmp(name, "row_ptr"))
            shape = op->shape == SQUARE ? "n+1" : "rows+1";
        else if (!strcmp(name, "col_idx") || !strcmp(name, "vals"))
            shape = "nnz";
        else if (op->shape == ROWS)
            shape = !strcmp(name, "out") && strstr(op->tag, "normalize") ? "nnz" : "rows";
        else if (op->shape == COLS)
            shape = "cols";
        else
            for (size_t k = 0; k < sizeof SHAPES / sizeof *SHAPES; k++)
                if (!strcmp(SHAPES[k].name, name))
                    shape = op->shape == SPMM ? SHAPES[k].spmm
                            : op->shape == SQUARE ? SHAPES[k].square : SHAPES[k].sddmm;
        if (!strcmp(op->tag, "spmm-padded-ldb") && !strcmp(name, "B"))
            shape = "cols,ldb";
        if (!strcmp(op->tag, "spmm-transposed"))
            shape = !strcmp(name, "B") ? "rows,k" : !strcmp(name, "C") ? "cols,k" : shape;
        if (!strcmp(op->tag, "spmm-width4"))
            shape = !strcmp(name, "B") ? "cols,4" : !strcmp(name, "C") ? "rows,4" : shape;
        const char *role = is_const ? "in" : "out";
        if (!strcmp(name, "C") && (strstr(op->tag, "axpby") || strstr(op->tag, "accumulate")))
            role = "inout";
        gen_arg(p, name, is_int ? "i32" : dt, role, shape ? shape : "?");
    }
}

/* ---- the pair ---- */

/* Expands a CUDA template: $T and $F as in put(), and every pointer
 * parameter's " *" becomes " *__restrict__ " when `restrict_ptrs` (for the
 * C signatures of OPS, reused as the kernels' signatures). */
static void put_cuda(StrBuf *k, const Sub *t, const char *tmpl, int restrict_ptrs)
{
    for (const char *c = tmpl; *c; c++) {
        if (c[0] == '$' && (c[1] == 'T' || c[1] == 'F')) {
            sb_append(k, c[1] == 'T' ? t->T : t->F);
            c++;
        } else if (restrict_ptrs && c[0] == ' ' && c[1] == '*') {
            sb_append(k, " *__restrict__ ");
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
    put_cuda(&ps, t, params, 1);
    sb_printf(&line, "extern \"C\" __global__ void %s(%s)", name, ps.data);
    tmpl_put_wrapped(k, line.data);
    sb_append(k, "\n{\n");
    sb_release(&line);
    sb_release(&ps);
}

/* Group all-reductions by butterfly shuffles over the GROUP lanes that
 * share a row: every lane of the group gets the result. */
static const char GROUP_SUM[] =
    "/* The sum over a group of GROUP lanes (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ $T group_sum($T v)\n{\n"
    "    for (int o = GROUP / 2; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    return v;\n}\n\n";
static const char GROUP_MAX[] =
    "/* The max over a group of GROUP lanes (butterfly shuffles: every lane gets it). */\n"
    "__device__ __forceinline__ $T group_max($T v)\n{\n"
    "    for (int o = GROUP / 2; o > 0; o >>= 1) {\n"
    "        const $T u = __shfl_xor_sync(0xffffffffu, v, o);\n"
    "        v = u > v ? u : v;\n    }\n"
    "    return v;\n}\n\n";

/* Kernel prologues: the thread's output element e of a rows x k (or n x k)
 * matrix, its row i and column j; a lane group's row i, its range of
 * entries and the thread's lane in the group. */
#define ELEM_OF(R)                                                                                                  \
    "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"                                  \
    "    if (e >= (long long)" R " * k)\n        return;\n"                                                        \
    "    const int i = (int)(e / k), j = (int)(e % k);\n"
#define GROUP_ROW(R)                                                                                                \
    "    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / GROUP;\n"                     \
    "    const int lane = threadIdx.x % GROUP;\n"                                                                    \
    "    const bool live = row < " R "; /* no early return: whole warps reach the shuffles */\n"                  \
    "    const int i = live ? (int)row : 0;\n"                                                                       \
    "    const int start = live ? row_ptr[i] : 0, end = live ? row_ptr[i + 1] : 0;\n"

/* One kernel body per program: how its threads map to the work, the
 * kernel's comment, and the body after the signature's opening brace.
 * SpMM programs give a thread each output element (consecutive threads
 * share a row of A and read consecutive columns of B); SDDMM and the row
 * reductions give a group of GROUP = 8 lanes each row (the rows hold ~20
 * entries), its lanes striding the row's entries. */
typedef struct CudaOp {
    const char *tag;
    const char *mapping;
    const char *comment;
    const char *body;
} CudaOp;

#define ONE_ELEM "one-output-element-per-thread"
#define GROUP_ENTRIES "8-lane-group-per-row, lane-per-entry"

static const CudaOp CUDA_OPS[] = {
    {"spmm", ONE_ELEM, "C = A B: one thread per element C[i][j].",
     ELEM_OF("rows") "    $T sum = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        sum += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = sum;\n"},
    {"spmm-colmajor", ONE_ELEM,
     "C = A B, dense matrices column-major: one thread per element, consecutive\n"
     " * threads down a column of C (coalesced stores).",
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)rows * k)\n        return;\n"
     "    const int j = (int)(e / rows), i = (int)(e % rows);\n"
     "    const $T *b = B + (long long)j * cols;\n"
     "    $T sum = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        sum += vals[p] * b[col_idx[p]];\n"
     "    C[e] = sum;\n"},
    {"spmm-axpby", ONE_ELEM, "C = alpha A B + beta C: one thread per element.",
     ELEM_OF("rows") "    $T sum = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        sum += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = alpha * sum + beta * C[e];\n"},
    {"spmm-accumulate", ONE_ELEM, "C += A B: one thread per element, accumulating onto C[i][j].",
     ELEM_OF("rows") "    $T c = C[e];\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        c += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = c;\n"},
    {"spmm-transposed", "zero C, then one-element-of-B-per-thread atomicAdd scatter (two launches)",
     "C += A^T B: one thread per element B[i][j] scatters vals_p * B[i][j] into\n"
     " * C[col_p][j] for the entries p of row i (C zeroed by the first launch).",
     ELEM_OF("rows") "    const $T b = B[e];\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        atomicAdd(&C[(long long)col_idx[p] * k + j], vals[p] * b);\n"},
    {"spmm-bias-relu", ONE_ELEM, "C = max(A B + bias, 0): one thread per element.",
     ELEM_OF("rows") "    $T c = bias[j];\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        c += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = c < 0 ? 0 : c;\n"},
    {"spmm-mean", ONE_ELEM, "Mean aggregation: one thread per element C[i][j].",
     ELEM_OF("rows") "    const int len = row_ptr[i + 1] - row_ptr[i];\n"
     "    $T c = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        c += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    if (len > 0)\n        c /= len;\n"
     "    C[e] = c;\n"},
    {"spmm-pattern-sum", ONE_ELEM, "Sum aggregation over a 0/1 pattern: one thread per element C[i][j].",
     ELEM_OF("rows") "    $T c = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        c += B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = c;\n"},
    {"spmm-max", ONE_ELEM, "Max aggregation (0 for an empty row): one thread per element C[i][j].",
     ELEM_OF("rows") "    int p = row_ptr[i];\n"
     "    const int end = row_ptr[i + 1];\n"
     "    if (p == end) {\n        C[e] = 0;\n        return;\n    }\n"
     "    $T best = vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    for (p = p + 1; p < end; p++) {\n"
     "        const $T v = vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "        if (v > best)\n            best = v;\n    }\n"
     "    C[e] = best;\n"},
    {"spmm-gcn", ONE_ELEM, "GCN propagation C = D^-1/2 (A + I) D^-1/2 B: one thread per element C[i][j].",
     ELEM_OF("n") "    const $T di = ($T)(row_ptr[i + 1] - row_ptr[i] + 1);\n"
     "    $T c = B[e] / di;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "        const int v = col_idx[p];\n"
     "        const $T dv = ($T)(row_ptr[v + 1] - row_ptr[v] + 1);\n"
     "        const $T w = 1 / sqrt$F(di * dv);\n"
     "        c += w * B[(long long)v * k + j];\n    }\n"
     "    C[e] = c;\n"},
    {"spmm-padded-ldb", ONE_ELEM, "C = A B with B's rows ldb elements apart: one thread per element C[i][j].",
     ELEM_OF("rows") "    $T sum = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        sum += vals[p] * B[(long long)col_idx[p] * ldb + j];\n"
     "    C[e] = sum;\n"},
    {"spmm-colscale", ONE_ELEM, "C = A B diag(w): one thread per element C[i][j].",
     ELEM_OF("rows") "    $T sum = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++)\n"
     "        sum += vals[p] * B[(long long)col_idx[p] * k + j];\n"
     "    C[e] = sum * w[j];\n"},
    {"spmm-width4", "one-row-per-thread", "C = A B with 4 dense columns: one thread per row, four accumulators.",
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= rows)\n        return;\n"
     "    $T c0 = 0, c1 = 0, c2 = 0, c3 = 0;\n"
     "    for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
     "        const $T *b = B + 4 * (long long)col_idx[p];\n"
     "        c0 += vals[p] * b[0];\n        c1 += vals[p] * b[1];\n"
     "        c2 += vals[p] * b[2];\n        c3 += vals[p] * b[3];\n    }\n"
     "    C[4 * i] = c0;\n    C[4 * i + 1] = c1;\n    C[4 * i + 2] = c2;\n    C[4 * i + 3] = c3;\n"},
    {"spmm-two-hop", "one-output-element-per-thread, two launches (tmp = A B, C = A tmp)", NULL, NULL},
    {"sddmm", GROUP_ENTRIES, "out[p] = dot(U[i], V[col_p]): 8 lanes per row, one per stored entry.",
     GROUP_ROW("rows") "    const $T *u = U + (long long)i * k;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T *v = V + (long long)col_idx[p] * k;\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += u[j] * v[j];\n"
     "        out[p] = dot;\n    }\n"},
    {"sddmm-scaled", GROUP_ENTRIES,
     "out[p] = vals[p] dot(U[i], V[col_p]): 8 lanes per row, one per stored entry.",
     GROUP_ROW("rows") "    const $T *u = U + (long long)i * k;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T *v = V + (long long)col_idx[p] * k;\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += u[j] * v[j];\n"
     "        out[p] = vals[p] * dot;\n    }\n"},
    {"sddmm-vcolmajor", GROUP_ENTRIES,
     "out[p] = sum_j U[i][j] V[j][col_p] with V column-major: 8 lanes per row, one\n"
     " * per stored entry.",
     GROUP_ROW("rows") "    const $T *u = U + (long long)i * k;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const int c = col_idx[p];\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += u[j] * V[(long long)j * cols + c];\n"
     "        out[p] = dot;\n    }\n"},
    {"sddmm-softmax", "8-lane-group-per-row, lane-per-entry, shuffle max and sum",
     "Sparse attention: scores dot(Q[i], K[col_p]) / sqrt(k) on row i's entries,\n"
     " * then their softmax.  8 lanes per row, one per stored entry; each lane\n"
     " * rereads only the entries it wrote.",
     GROUP_ROW("rows") "    const $T scale = 1 / sqrt$F(($T)k);\n"
     "    const $T *q = Q + (long long)i * k;\n"
     "    $T mx = NEG_INF;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T *kc = K + (long long)col_idx[p] * k;\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += q[j] * kc[j];\n"
     "        const $T s = dot * scale;\n"
     "        out[p] = s;\n"
     "        mx = s > mx ? s : mx;\n    }\n"
     "    mx = group_max(mx);\n"
     "    $T sum = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T ex = exp$F(out[p] - mx);\n"
     "        out[p] = ex;\n        sum += ex;\n    }\n"
     "    sum = group_sum(sum);\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        out[p] /= sum;\n"},
    {"sddmm-residual", GROUP_ENTRIES,
     "out[p] = dot(U[i], V[col_p]) - vals[p]: 8 lanes per row, one per stored entry.",
     GROUP_ROW("rows") "    const $T *u = U + (long long)i * k;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T *v = V + (long long)col_idx[p] * k;\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += u[j] * v[j];\n"
     "        out[p] = dot - vals[p];\n    }\n"},
    {"sddmm-sigmoid", GROUP_ENTRIES,
     "out[p] = sigmoid(dot(U[i], V[col_p])): 8 lanes per row, one per stored entry.",
     GROUP_ROW("rows") "    const $T *u = U + (long long)i * k;\n"
     "    for (int p = start + lane; p < end; p += GROUP) {\n"
     "        const $T *v = V + (long long)col_idx[p] * k;\n"
     "        $T dot = 0;\n"
     "        for (int j = 0; j < k; j++)\n            dot += u[j] * v[j];\n"
     "        out[p] = 1 / (1 + exp$F(-dot));\n    }\n"},
    {"row-sums", "8-lane-group-per-row, shuffle reduction", "sums[i] = the sum of row i's values: 8 lanes per row.",
     GROUP_ROW("rows") "    $T s = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        s += vals[p];\n"
     "    s = group_sum(s);\n"
     "    if (live && lane == 0)\n        sums[i] = s;\n"},
    {"row-norm2", "8-lane-group-per-row, shuffle reduction", "norms[i] = ||row i||_2: 8 lanes per row.",
     GROUP_ROW("rows") "    $T s = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        s += vals[p] * vals[p];\n"
     "    s = group_sum(s);\n"
     "    if (live && lane == 0)\n        norms[i] = sqrt$F(s);\n"},
    {"row-normalize-l1", "8-lane-group-per-row, shuffle reduction",
     "out[p] = vals[p] / ||row i||_1 (a zero row copied): 8 lanes per row.",
     GROUP_ROW("rows") "    $T s = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        s += fabs$F(vals[p]);\n"
     "    s = group_sum(s);\n"
     "    const $T inv = s > 0 ? 1 / s : 1;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        out[p] = vals[p] * inv;\n"},
    {"row-maxabs", "8-lane-group-per-row, shuffle max", "out[i] = max |value| of row i (0 when empty): 8 lanes per row.",
     GROUP_ROW("rows") "    $T m = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        m = fabs$F(vals[p]) > m ? fabs$F(vals[p]) : m;\n"
     "    m = group_max(m);\n"
     "    if (live && lane == 0)\n        out[i] = m;\n"},
    {"row-stats", "8-lane-group-per-row, shuffle reductions (two passes: mean, then variance)",
     "Mean and population variance of row i's values (0, 0 when empty): 8 lanes\n"
     " * per row, the mean reduced before the squared deviations.",
     GROUP_ROW("rows") "    const int len = end - start;\n"
     "    $T s = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        s += vals[p];\n"
     "    s = group_sum(s);\n"
     "    const $T mu = len > 0 ? s / len : 0;\n"
     "    $T ss = 0;\n"
     "    for (int p = start + lane; p < end; p += GROUP)\n        ss += (vals[p] - mu) * (vals[p] - mu);\n"
     "    ss = group_sum(ss);\n"
     "    if (live && lane == 0) {\n        mean[i] = mu;\n        var[i] = len > 0 ? ss / len : 0;\n    }\n"},
    {"col-sums", "zero sums, then one-entry-per-thread atomicAdd (two launches)",
     "sums[col_p] += vals[p] for every stored entry p: one thread per entry (the\n"
     " * rows' ranges row_ptr[0] .. row_ptr[rows] cover them in order).",
     "    const long long p = row_ptr[0] + (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (p >= row_ptr[rows])\n        return;\n"
     "    atomicAdd(&sums[col_idx[p]], vals[p]);\n"},
    {"col-sumsq", "zero out, then one-entry-per-thread atomicAdd (two launches)",
     "out[col_p] += vals[p]^2 for every stored entry p: one thread per entry (the\n"
     " * rows' ranges row_ptr[0] .. row_ptr[rows] cover them in order).",
     "    const long long p = row_ptr[0] + (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (p >= row_ptr[rows])\n        return;\n"
     "    atomicAdd(&out[col_idx[p]], vals[p] * vals[p]);\n"},
};

/* The kernel argument list of the C signature `sig` (names only), then
 * alpha and beta when ab, then `params`' names. */
static void sig_names(char *out, size_t len, const char *sig, int ab, const char *params)
{
    StrBuf b = STRBUF_INIT;
    const char *lists[2] = {sig, params};
    for (int l = 0; l < 2; l++) {
        for (const char *q = lists[l]; *q;) {
            const char *comma = strchr(q, ',');
            const char *endp = comma ? comma : q + strlen(q);
            const char *nm = endp;
            while (nm > q && (nm[-1] == '_' || (nm[-1] >= 'a' && nm[-1] <= 'z') || (nm[-1] >= 'A' && nm[-1] <= 'Z')))
                nm--;
            if (b.len)
                sb_putc(&b, ',');
            sb_append_n(&b, nm, (size_t)(endp - nm));
            q = comma ? comma + 1 : endp;
        }
        if (l == 0 && ab)
            sb_append(&b, ",alpha,beta");
    }
    snprintf(out, len, "%s", b.data);
    sb_release(&b);
}

/* The pair: the program's kernel keeps the C signature (restrict-qualified)
 * and its body comes from CUDA_OPS; atomic scatters are preceded by a
 * zeroing launch and two-hop runs the SpMM kernel twice. */
static void emit_cuda(GenProgram *p, const Op *op, const Sub *t, int ab, const char *params)
{
    const CudaOp *c = NULL;
    for (size_t i = 0; i < sizeof CUDA_OPS / sizeof *CUDA_OPS; i++)
        if (!strcmp(CUDA_OPS[i].tag, op->tag))
            c = &CUDA_OPS[i];
    StrBuf *k = gen_cuda_src(p);
    char args[200];
    if (!strcmp(op->tag, "spmm-two-hop")) {
        put_cuda(k, t, "/* C = A B for the square CSR matrix: one thread per element C[i][j]. */\n", 0);
        put_kernel_head(k, t, "spmm_rows", CSR "const $T *B, $T *C, int rows, int k");
        put_cuda(k, t, CUDA_OPS[0].body, 0);
        sb_append(k, "}\n");
        gen_launch(p, "spmm_rows", "(n*k+255)/256", "256", NULL, "row_ptr,col_idx,vals,B,tmp,n,k");
        gen_launch(p, "spmm_rows", "(n*k+255)/256", "256", NULL, "row_ptr,col_idx,vals,tmp,C,n,k");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", c->mapping);
        return;
    }
    const char *entry = op->shape == SDDMM ? "sddmm" : (op->shape == ROWS || op->shape == COLS) ? "csr_reduce" : "spmm";
    int transposed = !strcmp(op->tag, "spmm-transposed");
    if (transposed || op->shape == COLS) {
        put_cuda(k, t,
                 "/* y = 0: one thread per element. */\n"
                 "extern \"C\" __global__ void zero($T *__restrict__ y, int n)\n{\n"
                 "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i < n)\n        y[i] = 0;\n}\n\n", 0);
        if (transposed)
            gen_launch(p, "zero", "(cols*k+255)/256", "256", NULL, "C,cols*k");
        else
            gen_launch(p, "zero", "(cols+255)/256", "256", NULL, !strcmp(op->tag, "col-sums") ? "sums,cols" : "out,cols");
    }
    if (strstr(c->body, "NEG_INF"))
        sb_append(k, t->F[0] ? "#define NEG_INF __int_as_float(0xff800000) /* -infinity: NVRTC has no INFINITY */\n"
                             : "#define NEG_INF __longlong_as_double(0xfff0000000000000ULL) /* -infinity */\n");
    if (strstr(c->body, "GROUP"))
        sb_append(k, "#define GROUP 8 /* lanes per row: a divisor of 32 */\n\n");
    if (strstr(c->body, "group_sum"))
        put_cuda(k, t, GROUP_SUM, 0);
    if (strstr(c->body, "group_max"))
        put_cuda(k, t, GROUP_MAX, 0);
    sb_append(k, "/* ");
    put_cuda(k, t, c->comment, 0);
    sb_append(k, " */\n");
    StrBuf sig = STRBUF_INIT;
    sb_append(&sig, op->sig);
    if (ab)
        sb_append(&sig, ", $T alpha, $T beta");
    sb_printf(&sig, ", %s", params);
    put_kernel_head(k, t, entry, sig.data);
    sb_release(&sig);
    put_cuda(k, t, c->body, 0);
    sb_append(k, "}\n");
    sig_names(args, sizeof args, op->sig, ab, params);
    const char *n = op->shape == SQUARE ? "n" : "rows";
    char grid[64];
    if (!strcmp(c->mapping, ONE_ELEM) || transposed)
        snprintf(grid, sizeof grid, "(%s*k+255)/256", n);
    else if (op->shape == COLS)
        snprintf(grid, sizeof grid, "(nnz+255)/256");
    else if (!strcmp(op->tag, "spmm-width4"))
        snprintf(grid, sizeof grid, "(rows+255)/256");
    else
        snprintf(grid, sizeof grid, "(%s+31)/32", n); /* 8 lanes a row, 32 rows a block */
    gen_launch(p, entry, grid, "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", c->mapping);
}

static int emit(GenCtx *g, const Op *op, int d)
{
    const char *dt = d ? "f64" : "f32";
    const int sz = d ? 8 : 4;
    Sub t = {d ? "double" : "float", d ? "" : "f"};
    char variant[64];
    snprintf(variant, sizeof variant, "%s-%s", op->tag, dt);
    const char *entry = op->shape == SDDMM ? "sddmm" : (op->shape == ROWS || op->shape == COLS) ? "csr_reduce" : "spmm";
    GenProgram *p = gen_begin(g, variant, entry);
    gen_describe(p, "CSR sparse times dense: %s, %s", op->tag, dt);
    add_buffers(p, op, dt);
    int ab = strstr(op->tag, "axpby") != NULL, ldb = !strcmp(op->tag, "spmm-padded-ldb");
    int w4 = !strcmp(op->tag, "spmm-width4");
    if (ab) {
        gen_scalar(p, "alpha", dt, 1.5);
        gen_scalar(p, "beta", dt, -0.5);
    }
    /* Params and configs. */
    StrBuf *s = gen_src(p);
    const char *params;
    switch (op->shape) {
    case SQUARE:
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "nnz", "i32", "param", NULL);
        gen_arg(p, "k", "i32", "param", NULL);
        gen_config(p, "small", "n=600,nnz=9600,k=16");
        gen_config(p, "edge", "n=1,nnz=1,k=1");
        gen_config(p, "edge-prime", "n=37,nnz=211,k=7");
        gen_config(p, "large", "n=1048576,nnz=16777216,k=32");
        params = "int n, int nnz, int k";
        break;
    case ROWS:
        gen_arg(p, "rows", "i32", "param", NULL);
        gen_arg(p, "nnz", "i32", "param", NULL);
        gen_config(p, "small", "rows=2000,nnz=40000");
        gen_config(p, "edge", "rows=1,nnz=1");
        gen_config(p, "edge-prime", "rows=41,nnz=307");
        gen_config(p, "large", "rows=8388608,nnz=201326592");
        params = "int rows, int nnz";
        break;
    case COLS:
        gen_arg(p, "rows", "i32", "param", NULL);
        gen_arg(p, "cols", "i32", "param", NULL);
        gen_arg(p, "nnz", "i32", "param", NULL);
        gen_config(p, "small", "rows=2000,cols=1500,nnz=40000");
        gen_config(p, "edge", "rows=1,cols=1,nnz=1");
        gen_config(p, "edge-prime", "rows=41,cols=29,nnz=307");
        gen_config(p, "large", "rows=8388608,cols=8388608,nnz=134217728");
        params = "int rows, int cols, int nnz";
        break;
    default:
        gen_arg(p, "rows", "i32", "param", NULL);
        gen_arg(p, "cols", "i32", "param", NULL);
        gen_arg(p, "nnz", "i32", "param", NULL);
        if (w4) {
            gen_config(p, "small", "rows=2000,cols=1500,nnz=24000");
            gen_config(p, "edge", "rows=1,cols=1,nnz=1");
            gen_config(p, "edge-prime", "rows=37,cols=53,nnz=211");
            gen_config(p, "large", "rows=4194304,cols=4194304,nnz=67108864");
            params = "int rows, int cols, int nnz";
            break;
        }
        gen_arg(p, "k", "i32", "param", NULL);
        if (ldb) {
            gen_arg(p, "ldb", "i32", "param", NULL);
            gen_config(p, "small", "rows=512,cols=400,nnz=6000,k=16,ldb=20");
            gen_config(p, "edge", "rows=1,cols=1,nnz=1,k=1,ldb=3");
            gen_config(p, "edge-prime", "rows=37,cols=53,nnz=211,k=7,ldb=11");
            gen_config(p, "large", "rows=1048576,cols=1048576,nnz=16777216,k=32,ldb=40");
            params = "int rows, int cols, int nnz, int k, int ldb";
        } else {
            gen_config(p, "small", "rows=512,cols=400,nnz=6000,k=16");
            gen_config(p, "edge", "rows=1,cols=1,nnz=1,k=1");
            gen_config(p, "edge-prime", "rows=37,cols=53,nnz=211,k=7");
            if (op->shape == SDDMM)
                gen_config(p, "large", "rows=1048576,cols=1048576,nnz=16777216,k=64");
            else
                gen_config(p, "large", "rows=1048576,cols=1048576,nnz=16777216,k=32");
            params = "int rows, int cols, int nnz, int k";
        }
    }
    gen_fill_partition(p, "row_ptr", "nnz");
    if (strstr(op->sig, "col_idx"))
        gen_fill_int(p, "col_idx", "0", op->shape == SQUARE ? "n" : "cols");
    char bytes[200];
    snprintf(bytes, sizeof bytes, op->bytes, sz, sz, sz, sz);
    gen_cost(p, op->flops, bytes);
    if (op->ref_bytes)
        gen_reference_cost(p, NULL, op->ref_bytes);
    if (d)
        gen_tolerance(p, 1e-9, 1e-7);
    else
        gen_tolerance(p, !strcmp(op->tag, "spmm-two-hop") ? 1e-3 : 1e-4, 1e-4);

    /* Source. */
    const char *math = strstr(op->body ? op->body : "", "$F(") ? "#include <math.h>\n\n" : "";
    sb_append(s, math);
    sb_append(s, "/* ");
    sb_append(s, op->doc);
    sb_append(s, " */\n");
    if (!strcmp(op->tag, "spmm-two-hop")) {
        put(s, &t, "static void spmm_rows(const int *row_ptr, const int *col_idx, const $T *vals,\n"
                   "                      const $T *B, $T *C, int n, int k)\n{\n"
                   "    for (int i = 0; i < n; i++) {\n        $T *c = C + i * k;\n"
                   "        for (int j = 0; j < k; j++)\n            c[j] = 0;\n"
                   "        for (int p = row_ptr[i]; p < row_ptr[i + 1]; p++) {\n"
                   "            const $T *b = B + col_idx[p] * k;\n"
                   "            for (int j = 0; j < k; j++)\n                c[j] += vals[p] * b[j];\n"
                   "        }\n    }\n}\n\n");
    }
    sb_printf(s, "void %s(", entry);
    put(s, &t, op->sig);
    if (ab)
        put(s, &t, ", $T alpha, $T beta");
    sb_printf(s, ",\n        %s)\n{\n", params);
    /* Parameters that only size buffers. */
    const char *body = op->body ? op->body : "";
    static const char *const names[] = {"rows", "cols", "nnz", "k", "n", "ldb"};
    for (int k = 0; k < 6; k++) {
        const char *nm = names[k];
        if (!strstr(params, nm) || (!strcmp(nm, "n") && !strstr(params, "int n,")) ||
            (!strcmp(nm, "k") && !strstr(params, "int k")))
            continue;
        /* Used in the body as a word? */
        int used = 0;
        size_t len = strlen(nm);
        for (const char *q = body; (q = strstr(q, nm)) != NULL; q += len) {
            char before = q == body ? ' ' : q[-1], after = q[len];
            if (!(before == '_' || (before >= 'a' && before <= 'z')) &&
                !(after == '_' || (after >= 'a' && after <= 'z')))
                used = 1;
        }
        if (!strcmp(op->tag, "spmm-two-hop"))
            used = strcmp(nm, "nnz") != 0;
        if (!used)
            sb_printf(s, "    (void)%s; /* only sizes the buffers */\n", nm);
    }
    if (!strcmp(op->tag, "spmm-two-hop"))
        sb_append(s, "    spmm_rows(row_ptr, col_idx, vals, B, tmp, n, k);\n"
                     "    spmm_rows(row_ptr, col_idx, vals, tmp, C, n, k);\n");
    else
        put(s, &t, body);
    sb_append(s, "}\n");
    emit_cuda(p, op, &t, ab, params);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int k = 0; k < N_OPS; k++)
        for (int d = 0; d < 2; d++)
            if (emit(g, &OPS[k], d) != 0)
                return -1;
    return 0;
}

const Family family_spmm_csr = {"spmm_csr", "sparse", 54, generate};
