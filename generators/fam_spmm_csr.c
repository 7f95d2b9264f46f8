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
     "2*nnz*k", "4*(rows+1)+4*nnz+%d*rows*k+%d*cols*k+%d*nnz"},
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
