/* gemv — matrix-vector products: y = alpha*A*x + beta*y and y = alpha*A^T*x
 * + beta*y with row- and column-major A (optionally with a leading
 * dimension), plain y = A*x, BLAS band storage (gbmv), symmetric matrices
 * read from one triangle (symv), packed (spmv) and banded (sbmv), fused
 * epilogues (bias + ReLU / tanh / sigmoid, residual b - A*x), strided
 * vectors, batched products, complex data, int8 -> i32 and i16 -> i64
 * products, tridiagonal matrices and the two-sided BiCG and A^T*A*x kernels.
 * f32 programs accumulate their dot products in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_reduce.h"
#include "gen_spec.h"

#define GEMV_CFG "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|edge-col:m=131,n=1|large:m=16384,n=$(16384|8192)"
#define SQ_CFG "small:n=300|edge:n=1|edge-prime:n=131|large:n=$(16384|11264)"
#define GEMV_COST "2*m*n", "$S*(m*n+n+2*m)"

/* The pairs: a product whose reduction runs along contiguous memory gets
 * one block per output and this block-wide sum (warp shuffles, then one
 * partial per warp through shared memory); one that runs across rows gets
 * one thread per output, so a warp reads consecutive addresses.  Sums are
 * in double (or the exact integer type), as in the C programs. */

static const Spec SPECS[] = {
    {"f32 f64", "gemv-n-rowmajor", "gemv", "y = alpha*A*x + beta*y, A m x n row-major ($D)",
     "a:in:m,n;x:in:n;y:inout:m;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param", NULL, GEMV_CFG,
     GEMV_COST, 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y, with A an m x n row-major matrix. */\n"
     "void gemv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = alpha * A * x + beta * y: one block per row of A. */\n"
     "extern \"C\" __global__ void gemv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "gemv|m|256||a,x,y,alpha,beta,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "gemv-t-rowmajor", "gemv_t", "y = alpha*A^T*x + beta*y, A m x n row-major ($D)",
     "a:in:m,n;x:in:m;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param", NULL, GEMV_CFG,
     "2*m*n", "$S*(m*n+m+2*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A^T * x + beta * y, with A an m x n row-major matrix\n"
     " * (x has m entries, y has n). */\n"
     "void gemv_t(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += a[i * n + j] * x[i];\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "    }\n}\n",
     "/* y = alpha * A^T * x + beta * y: one thread per column of A (coalesced\n"
     " * across the threads of a warp). */\n"
     "extern \"C\" __global__ void gemv_t(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        acc += a[(long long)i * n + j] * x[i];\n"
     "    y[j] = alpha * acc + beta * y[j];\n"
     "}\n",
     "gemv_t|(n+255)/256|256||a,x,y,alpha,beta,m,n", NULL,
     "block=256;mapping=one-column-per-thread"},
    {"f32 f64", "gemv-n-colmajor", "gemv", "y = alpha*A*x + beta*y, A m x n column-major ($D)",
     "a:in:n,m;x:in:n;y:inout:m;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param", NULL, GEMV_CFG,
     GEMV_COST, 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y, with A an m x n column-major matrix:\n"
     " * A[i][j] is a[j * m + i]. */\n"
     "void gemv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[j * m + i] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* y = alpha * A * x + beta * y, A column-major: one thread per row (the\n"
     " * threads of a warp read consecutive entries of a column). */\n"
     "extern \"C\" __global__ void gemv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= m)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += a[(long long)j * m + i] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "gemv|(m+255)/256|256||a,x,y,alpha,beta,m,n", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "gemv-t-colmajor", "gemv_t", "y = alpha*A^T*x + beta*y, A m x n column-major ($D)",
     "a:in:n,m;x:in:m;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param", NULL, GEMV_CFG,
     "2*m*n", "$S*(m*n+m+2*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A^T * x + beta * y, with A an m x n column-major matrix\n"
     " * (A[i][j] is a[j * m + i]); each y[j] is a dot product with column j. */\n"
     "void gemv_t(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const $T *col = a + j * m;\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += col[i] * x[i];\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = alpha * A^T * x + beta * y, A column-major: one block per column. */\n"
     "extern \"C\" __global__ void gemv_t(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x;\n"
     "    const $T *col = a + (long long)j * m;\n"
     "    double acc = 0.0;\n"
     "    for (int r = threadIdx.x; r < m; r += blockDim.x)\n"
     "        acc += col[r] * x[r];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "}\n",
     "gemv_t|n|256||a,x,y,alpha,beta,m,n", NULL,
     "block=256;mapping=one-column-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "gemv-n-lda", "gemv_lda", "y = alpha*A*x + beta*y, A row-major with leading dimension lda ($D)",
     "a:in:m,lda;x:in:n;y:inout:m;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;lda:param", NULL,
     "small:m=200,n=300,lda=304|edge:m=1,n=1,lda=1|edge-prime:m=37,n=131,lda=137|"
     "large:m=16384,n=$(16000,lda=16384|8000,lda=8192)",
     "2*m*n", "$S*(m*n+n+2*m)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y for the m x n matrix A stored row-major\n"
     " * inside a wider array: A[i][j] is a[i * lda + j], lda >= n. */\n"
     "void gemv_lda(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int lda)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        const $T *row = a + i * lda;\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += row[j] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = alpha * A * x + beta * y, rows lda apart: one block per row. */\n"
     "extern \"C\" __global__ void gemv_lda(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int lda)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * lda;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "gemv_lda|m|256||a,x,y,alpha,beta,m,n,lda", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "gemv-t-colmajor-lda", "gemv_t_lda",
     "y = alpha*A^T*x + beta*y, A column-major with leading dimension lda ($D)",
     "a:in:n,lda;x:in:m;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;lda:param", NULL,
     "small:m=200,n=300,lda=208|edge:m=1,n=1,lda=1|edge-prime:m=37,n=131,lda=41|"
     "large:m=$(16000,n=16384,lda=16384|8000,n=16384,lda=8192)",
     "2*m*n", "$S*(m*n+m+2*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A^T * x + beta * y for the m x n column-major matrix A with\n"
     " * leading dimension lda >= m: A[i][j] is a[j * lda + i]. */\n"
     "void gemv_t_lda(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int lda)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += a[j * lda + i] * x[i];\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = alpha * A^T * x + beta * y, columns lda apart: one block per column. */\n"
     "extern \"C\" __global__ void gemv_t_lda(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int lda)\n"
     "{\n"
     "    const int j = blockIdx.x;\n"
     "    const $T *col = a + (long long)j * lda;\n"
     "    double acc = 0.0;\n"
     "    for (int r = threadIdx.x; r < m; r += blockDim.x)\n"
     "        acc += col[r] * x[r];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "}\n",
     "gemv_t_lda|n|256||a,x,y,alpha,beta,m,n,lda", NULL,
     "block=256;mapping=one-column-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "matvec", "matvec", "y = A*x ($D)", "a:in:m,n;x:in:n;y:out:m;m:param;n:param", NULL, GEMV_CFG,
     "2*m*n", "$S*(m*n+n+m)", 1e-2, 1e-3, 0, 0,
     "/* y = A * x for an m x n row-major matrix A. */\n"
     "void matvec(const $T *a, const $T *x, $T *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = A * x: one block per row of A. */\n"
     "extern \"C\" __global__ void matvec(const $T *a, const $T *x, $T *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "matvec|m|256||a,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "vecmat", "vecmat", "y = x^T*A, the row vector times a matrix ($D)",
     "x:in:m;a:in:m,n;y:out:n;m:param;n:param", NULL, GEMV_CFG, "2*m*n", "$S*(m*n+n+m)", 1e-2, 1e-3, 0, 0,
     "/* y = x^T * A (a row vector times the m x n row-major matrix A): y has n\n"
     " * entries, y[j] = sum over i of x[i] * A[i][j]. */\n"
     "void vecmat(const $T *x, const $T *a, $T *y, int m, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += x[i] * a[i * n + j];\n"
     "        y[j] = acc;\n"
     "    }\n}\n",
     "/* y = x^T * A: one thread per column of A. */\n"
     "extern \"C\" __global__ void vecmat(const $T *x, const $T *a, $T *y, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        acc += x[i] * a[(long long)i * n + j];\n"
     "    y[j] = acc;\n"
     "}\n",
     "vecmat|(n+255)/256|256||x,a,y,m,n", NULL,
     "block=256;mapping=one-column-per-thread"},
    {"f32 f64", "gbmv-n", "gbmv", "banded y = alpha*A*x + beta*y, BLAS band storage ($D)",
     "ab:in:n,kl+ku+1;x:in:n;y:inout:m;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;kl:param;ku:param",
     NULL,
     "small:m=200,n=300,kl=3,ku=5|edge:m=1,n=1,kl=0,ku=0|edge-wide:m=5,n=4,kl=7,ku=6|"
     "edge-prime:m=37,n=31,kl=2,ku=7|large:m=4194304,n=4194304,kl=$(16,ku=16|8,ku=8)",
     "2*m*(kl+ku+1)", "$S*(n*(kl+ku+1)+n+2*m)", 1e-4, 1e-4, 0, 0,
     "/* y = alpha * A * x + beta * y for an m x n band matrix with kl sub- and ku\n"
     " * super-diagonals in BLAS band storage (column-major, kl + ku + 1 entries\n"
     " * per column): A[i][j] is ab[j * (kl + ku + 1) + ku + i - j] for\n"
     " * j - ku <= i <= j + kl; every other entry of A is zero. */\n"
     "void gbmv(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int kl, int ku)\n{\n"
     "    int ldab = kl + ku + 1;\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        int j0 = i - kl > 0 ? i - kl : 0;\n"
     "        int j1 = i + ku < n - 1 ? i + ku : n - 1;\n"
     "        double acc = 0.0;\n"
     "        for (int j = j0; j <= j1; j++)\n"
     "            acc += ab[j * ldab + ku + i - j] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Banded y = alpha * A * x + beta * y: one thread per row, over its band. */\n"
     "extern \"C\" __global__ void gbmv(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int kl, int ku)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= m)\n"
     "        return;\n"
     "    const int ldab = kl + ku + 1;\n"
     "    const int j0 = max(i - kl, 0), j1 = min(i + ku, n - 1);\n"
     "    double acc = 0.0;\n"
     "    for (int j = j0; j <= j1; j++)\n"
     "        acc += ab[(long long)j * ldab + ku + i - j] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "gbmv|(m+255)/256|256||ab,x,y,alpha,beta,m,n,kl,ku", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "gbmv-t", "gbmv_t", "banded y = alpha*A^T*x + beta*y, BLAS band storage ($D)",
     "ab:in:n,kl+ku+1;x:in:m;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;kl:param;ku:param",
     NULL,
     "small:m=200,n=300,kl=4,ku=2|edge:m=1,n=1,kl=0,ku=0|edge-wide:m=5,n=4,kl=7,ku=6|"
     "edge-prime:m=37,n=31,kl=5,ku=1|large:m=4194304,n=4194304,kl=$(16,ku=16|8,ku=8)",
     "2*n*(kl+ku+1)", "$S*(n*(kl+ku+1)+m+2*n)", 1e-4, 1e-4, 0, 0,
     "/* y = alpha * A^T * x + beta * y for an m x n band matrix A with kl sub-\n"
     " * and ku super-diagonals in BLAS band storage: A[i][j] is\n"
     " * ab[j * (kl + ku + 1) + ku + i - j] for j - ku <= i <= j + kl, zero\n"
     " * elsewhere.  Column j of A holds the band entries y[j] needs. */\n"
     "void gbmv_t(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int kl, int ku)\n{\n"
     "    int ldab = kl + ku + 1;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        int i0 = j - ku > 0 ? j - ku : 0;\n"
     "        int i1 = j + kl < m - 1 ? j + kl : m - 1;\n"
     "        double acc = 0.0;\n"
     "        for (int i = i0; i <= i1; i++)\n"
     "            acc += ab[j * ldab + ku + i - j] * x[i];\n"
     "        y[j] = alpha * acc + beta * y[j];\n"
     "    }\n}\n",
     "/* Banded y = alpha * A^T * x + beta * y: one thread per column of A, over\n"
     " * its band (stored contiguously). */\n"
     "extern \"C\" __global__ void gbmv_t(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int kl, int ku)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    const int ldab = kl + ku + 1;\n"
     "    const int i0 = max(j - ku, 0), i1 = min(j + kl, m - 1);\n"
     "    const $T *col = ab + (long long)j * ldab + ku - j;\n"
     "    double acc = 0.0;\n"
     "    for (int i = i0; i <= i1; i++)\n"
     "        acc += col[i] * x[i];\n"
     "    y[j] = alpha * acc + beta * y[j];\n"
     "}\n",
     "gbmv_t|(n+255)/256|256||ab,x,y,alpha,beta,m,n,kl,ku", NULL,
     "block=256;mapping=one-column-per-thread"},
    {"f32 f64", "symv-lower", "symv", "symmetric y = alpha*A*x + beta*y from the lower triangle ($D)",
     "a:in:n,n;x:in:n;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param", NULL, SQ_CFG,
     "2*n*n", "$S*(n*(n+1)/2+3*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y for a symmetric n x n matrix of which only\n"
     " * the lower triangle of the row-major array a is read: A[i][j] is\n"
     " * a[i * n + j] for j <= i and a[j * n + i] for j > i. */\n"
     "void symv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            acc += a[j * n + i] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Symmetric y = alpha * A * x + beta * y from the lower triangle: one thread\n"
     " * per row (row i of the triangle, then column i below the diagonal). */\n"
     "extern \"C\" __global__ void symv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j <= i; j++)\n"
     "        acc += a[(long long)i * n + j] * x[j];\n"
     "    for (int j = i + 1; j < n; j++)\n"
     "        acc += a[(long long)j * n + i] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "symv|(n+255)/256|256||a,x,y,alpha,beta,n", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "symv-upper", "symv", "symmetric y = alpha*A*x + beta*y from the upper triangle ($D)",
     "a:in:n,n;x:in:n;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param", NULL, SQ_CFG,
     "2*n*n", "$S*(n*(n+1)/2+3*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y for a symmetric n x n matrix stored in the\n"
     " * upper triangle of the row-major array a (the strict lower part is never\n"
     " * read): A[i][j] is a[i * n + j] for j >= i and a[j * n + i] for j < i. */\n"
     "void symv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < i; j++)\n"
     "            acc += a[j * n + i] * x[j];\n"
     "        for (int j = i; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Symmetric y = alpha * A * x + beta * y from the upper triangle: one thread\n"
     " * per row (column i above the diagonal, then row i of the triangle). */\n"
     "extern \"C\" __global__ void symv(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < i; j++)\n"
     "        acc += a[(long long)j * n + i] * x[j];\n"
     "    for (int j = i; j < n; j++)\n"
     "        acc += a[(long long)i * n + j] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "symv|(n+255)/256|256||a,x,y,alpha,beta,n", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "spmv-packed-lower", "spmv", "symmetric packed (lower, row by row) y = alpha*A*x + beta*y ($D)",
     "ap:in:n*(n+1)/2;x:in:n;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param", NULL, SQ_CFG,
     "2*n*n", "$S*(n*(n+1)/2+3*n)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y for a symmetric n x n matrix in packed\n"
     " * storage: the lower triangle row by row, so A[i][j] (j <= i) is\n"
     " * ap[i * (i + 1) / 2 + j]. */\n"
     "void spmv(const $T *ap, const $T *x, $T *y, $T alpha, $T beta, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const $T *row = ap + i * (i + 1) / 2;\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            acc += row[j] * x[j];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            acc += ap[j * (j + 1) / 2 + i] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Packed symmetric (lower) y = alpha * A * x + beta * y: one thread per row. */\n"
     "extern \"C\" __global__ void spmv(const $T *ap, const $T *x, $T *y, $T alpha, $T beta, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const $T *row = ap + (long long)i * (i + 1) / 2;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j <= i; j++)\n"
     "        acc += row[j] * x[j];\n"
     "    for (int j = i + 1; j < n; j++)\n"
     "        acc += ap[(long long)j * (j + 1) / 2 + i] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "spmv|(n+255)/256|256||ap,x,y,alpha,beta,n", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "spmv-packed-upper", "spmv", "symmetric packed (upper, row by row) y = alpha*A*x + beta*y ($D)",
     "ap:in:n*(n+1)/2;x:in:n;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param", NULL, SQ_CFG,
     "2*n*n", "$S*(n*(n+1)/2+3*n)", 1e-2, 1e-3, 0, 0,
     "/* Offset of row i of a packed upper triangle: rows 0..i-1 hold n, n - 1,\n"
     " * ..., n - i + 1 entries. */\n"
     "static int row_start(int i, int n)\n{\n"
     "    return i * (2 * n - i + 1) / 2;\n}\n\n"
     "/* y = alpha * A * x + beta * y for a symmetric n x n matrix whose upper\n"
     " * triangle is packed row by row: A[i][j] (j >= i) is\n"
     " * ap[row_start(i, n) + j - i]. */\n"
     "void spmv(const $T *ap, const $T *x, $T *y, $T alpha, $T beta, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < i; j++)\n"
     "            acc += ap[row_start(j, n) + i - j] * x[j];\n"
     "        const $T *row = ap + row_start(i, n);\n"
     "        for (int j = i; j < n; j++)\n"
     "            acc += row[j - i] * x[j];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Offset of row i of a packed upper triangle. */\n"
     "__device__ long long row_start(int i, int n)\n"
     "{\n"
     "    return (long long)i * (2 * n - i + 1) / 2;\n"
     "}\n"
     "\n"
     "/* Packed symmetric (upper) y = alpha * A * x + beta * y: one thread per row. */\n"
     "extern \"C\" __global__ void spmv(const $T *ap, const $T *x, $T *y, $T alpha, $T beta, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < i; j++)\n"
     "        acc += ap[row_start(j, n) + i - j] * x[j];\n"
     "    const $T *row = ap + row_start(i, n);\n"
     "    for (int j = i; j < n; j++)\n"
     "        acc += row[j - i] * x[j];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "spmv|(n+255)/256|256||ap,x,y,alpha,beta,n", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "sbmv-lower", "sbmv", "symmetric band y = A*x, lower band storage ($D)",
     "ab:in:n,k+1;x:in:n;y:out:n;n:param;k:param", NULL,
     "small:n=1000,k=4|edge:n=1,k=0|edge-wide:n=5,k=8|edge-prime:n=131,k=7|large:n=$(8388608|4194304),k=15",
     "4*n*(k+1)", "$S*(n*(k+1)+2*n)", 1e-4, 1e-4, 0, 0,
     "/* y = A * x for a symmetric n x n band matrix with k sub-diagonals, stored\n"
     " * by rows: ab[i * (k + 1) + d] is A[i][i - d] for d = 0..k (entries with\n"
     " * i - d < 0 are unused).  A[i][i + d] = A[i + d][i] by symmetry. */\n"
     "void sbmv(const $T *ab, const $T *x, $T *y, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = ab[i * (k + 1)] * x[i];\n"
     "        for (int d = 1; d <= k; d++) {\n"
     "            if (i - d >= 0)\n"
     "                acc += ab[i * (k + 1) + d] * x[i - d];\n"
     "            if (i + d < n)\n"
     "                acc += ab[(i + d) * (k + 1) + d] * x[i + d];\n"
     "        }\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Symmetric band y = A * x (lower band storage): one thread per row. */\n"
     "extern \"C\" __global__ void sbmv(const $T *ab, const $T *x, $T *y, int n, int k)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = ab[(long long)i * (k + 1)] * x[i];\n"
     "    for (int d = 1; d <= k; d++) {\n"
     "        if (i - d >= 0)\n"
     "            acc += ab[(long long)i * (k + 1) + d] * x[i - d];\n"
     "        if (i + d < n)\n"
     "            acc += ab[(long long)(i + d) * (k + 1) + d] * x[i + d];\n"
     "    }\n"
     "    y[i] = acc;\n"
     "}\n",
     "sbmv|(n+255)/256|256||ab,x,y,n,k", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "sbmv-upper", "sbmv", "symmetric band y = alpha*A*x + beta*y, upper band storage ($D)",
     "ab:in:n,k+1;x:in:n;y:inout:n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param", NULL,
     "small:n=1000,k=6|edge:n=1,k=0|edge-wide:n=5,k=8|edge-prime:n=131,k=3|large:n=$(8388608|4194304),k=15",
     "4*n*(k+1)", "$S*(n*(k+1)+3*n)", 1e-4, 1e-4, 0, 0,
     "/* y = alpha * A * x + beta * y for a symmetric n x n band matrix with k\n"
     " * super-diagonals, stored by rows: ab[i * (k + 1) + d] is A[i][i + d]\n"
     " * for d = 0..k (entries past the last column are unused). */\n"
     "void sbmv(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int d = 0; d <= k && i + d < n; d++)\n"
     "            acc += ab[i * (k + 1) + d] * x[i + d];\n"
     "        for (int d = 1; d <= k && i - d >= 0; d++)\n"
     "            acc += ab[(i - d) * (k + 1) + d] * x[i - d];\n"
     "        y[i] = alpha * acc + beta * y[i];\n"
     "    }\n}\n",
     "/* Symmetric band y = alpha * A * x + beta * y (upper band storage): one\n"
     " * thread per row. */\n"
     "extern \"C\" __global__ void sbmv(const $T *ab, const $T *x, $T *y, $T alpha, $T beta, int n, int k)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int d = 0; d <= k && i + d < n; d++)\n"
     "        acc += ab[(long long)i * (k + 1) + d] * x[i + d];\n"
     "    for (int d = 1; d <= k && i - d >= 0; d++)\n"
     "        acc += ab[(long long)(i - d) * (k + 1) + d] * x[i - d];\n"
     "    y[i] = alpha * acc + beta * y[i];\n"
     "}\n",
     "sbmv|(n+255)/256|256||ab,x,y,alpha,beta,n,k", NULL,
     "block=256;mapping=one-row-per-thread"},
    {"f32 f64", "linear-bias-relu", "linear_relu", "y = relu(W*x + b) ($D)",
     "w:in:m,n;x:in:n;b:in:m;y:out:m;m:param;n:param", NULL,
     "small:m=200,n=300|edge:m=7,n=1|edge-prime:m=37,n=131|large:m=16384,n=$(16384|8192)", "2*m*n+2*m",
     "$S*(m*n+n+2*m)",
     1e-2, 1e-3, 0, 0,
     "#include <math.h>\n\n"
     "/* A dense layer on one input vector: y = max(W * x + b, 0), W m x n\n"
     " * row-major. */\n"
     "void linear_relu(const $T *w, const $T *x, const $T *b, $T *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = b[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += w[i * n + j] * x[j];\n"
     "        y[i] = fmax(acc, 0.0);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = max(W * x + b, 0): one block per row of W. */\n"
     "extern \"C\" __global__ void linear_relu(const $T *w, const $T *x, const $T *b, $T *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = w + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = fmax(b[i] + acc, 0.0);\n"
     "}\n",
     "linear_relu|m|256||w,x,b,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "linear-bias-tanh", "linear_tanh", "y = tanh(W*x + b) ($D)",
     "w:in:m,n;x:in:n;b:in:m;y:out:m;m:param;n:param", NULL, GEMV_CFG, "2*m*n+10*m", "$S*(m*n+n+2*m)",
     1e-2, 1e-3, 0, 0,
     "#include <math.h>\n\n"
     "/* y = tanh(W * x + b) for an m x n row-major weight matrix W. */\n"
     "void linear_tanh(const float *w, const float *x, const float *b, float *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = b[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += w[i * n + j] * x[j];\n"
     "        y[i] = tanhf((float)acc);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = tanh(W * x + b): one block per row of W. */\n"
     "extern \"C\" __global__ void linear_tanh(const float *w, const float *x, const float *b, float *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = w + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = tanhf((float)(b[i] + acc));\n"
     "}\n",
     "linear_tanh|m|256||w,x,b,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "linear-t-sigmoid", "linear_t_sigmoid", "y = sigmoid(W^T*x + b), W column-major ($D)",
     "w:in:n,m;x:in:n;b:in:m;y:out:m;m:param;n:param", NULL, GEMV_CFG, "2*m*n+10*m", "$S*(m*n+n+2*m)",
     1e-2, 1e-3, 0, 0,
     "#include <math.h>\n\n"
     "/* y = sigmoid(W^T * x + b) where W is stored n x m row-major (so column i\n"
     " * of W, w[j * m + i], is the weight vector of output i). */\n"
     "void linear_t_sigmoid(const float *w, const float *x, const float *b, float *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = b[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += w[j * m + i] * x[j];\n"
     "        y[i] = 1.0f / (1.0f + expf(-(float)acc));\n"
     "    }\n}\n",
     "/* y = sigmoid(W^T * x + b), W stored n x m: one thread per output (the\n"
     " * threads of a warp read consecutive weights). */\n"
     "extern \"C\" __global__ void linear_t_sigmoid(const float *w, const float *x, const float *b, float *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= m)\n"
     "        return;\n"
     "    double acc = b[i];\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += w[(long long)j * m + i] * x[j];\n"
     "    y[i] = 1.0f / (1.0f + expf(-(float)acc));\n"
     "}\n",
     "linear_t_sigmoid|(m+255)/256|256||w,x,b,y,m,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "gemv-strided", "gemv_strided", "y = alpha*A*x + beta*y with strided vectors incx, incy ($D)",
     "a:in:m,n;x:in:1+(n-1)*incx;y:inout:1+(m-1)*incy;alpha:scalar:~0.5~2;beta:scalar:~-1~1;"
     "m:param;n:param;incx:param;incy:param",
     NULL,
     "small:m=200,n=300,incx=2,incy=3|edge:m=1,n=1,incx=1,incy=1|edge-prime:m=37,n=131,incx=3,incy=5|"
     "large:m=16384,n=$(16384|8192),incx=4,incy=2",
     "2*m*n", "$S*(m*n+n+2*m)", 1e-2, 1e-3, 0, 0,
     "/* y = alpha * A * x + beta * y where x and y are strided views: element j\n"
     " * of x is x[j * incx], element i of y is y[i * incy]; A is m x n\n"
     " * row-major.  Entries of y between the strided ones are left alone. */\n"
     "void gemv_strided(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int incx,\n"
     "                  int incy)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j * incx];\n"
     "        y[i * incy] = alpha * acc + beta * y[i * incy];\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = alpha * A * x + beta * y, strided x and y: one block per row of A. */\n"
     "extern \"C\" __global__ void gemv_strided(const $T *a, const $T *x, $T *y, $T alpha, $T beta, int m, int n, int incx, int incy)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[(long long)j * incx];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[(long long)i * incy] = alpha * acc + beta * y[(long long)i * incy];\n"
     "}\n",
     "gemv_strided|m|256||a,x,y,alpha,beta,m,n,incx,incy", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "batched", "gemv_batched", "y[b] = A[b]*x[b] for a batch of matrices ($D)",
     "a:in:batch,m,n;x:in:batch,n;y:out:batch,m;batch:param;m:param;n:param", NULL,
     "small:batch=8,m=40,n=50|edge:batch=1,m=1,n=1|edge-prime:batch=3,m=13,n=7|"
     "large:batch=$(256|128),m=1024,n=1024",
     "2*batch*m*n", "$S*batch*(m*n+n+m)", 1e-4, 1e-4, 0, 0,
     "#include <stddef.h>\n\n"
     "/* y[b] = A[b] * x[b] for batch independent m x n row-major matrices. */\n"
     "void gemv_batched(const $T *a, const $T *x, $T *y, int batch, int m, int n)\n{\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const $T *ab = a + (size_t)b * m * n;\n"
     "        const $T *xb = x + (size_t)b * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            double acc = 0.0;\n"
     "            for (int j = 0; j < n; j++)\n"
     "                acc += ab[i * n + j] * xb[j];\n"
     "            y[(size_t)b * m + i] = acc;\n"
     "        }\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y[b] = A[b] * x[b]: one block per row, blockIdx.y the batch entry. */\n"
     "extern \"C\" __global__ void gemv_batched(const $T *a, const $T *x, $T *y, int batch, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const int b = blockIdx.y;\n"
     "    const $T *row = a + ((long long)b * m + i) * n;\n"
     "    const $T *xb = x + (long long)b * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * xb[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[(long long)b * m + i] = acc;\n"
     "}\n",
     "gemv_batched|m,batch|256||a,x,y,batch,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "complex", "zgemv", "complex y = A*x + y, interleaved (re, im) ($D)",
     "a:in:m,n,2;x:in:n,2;y:inout:m,2;m:param;n:param", NULL,
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=$(8192|8192),n=$(16384|8192)",
     "8*m*n", "$S*2*(m*n+n+2*m)", 1e-2, 1e-3, 0, 0,
     "/* Complex y = A * x + y.  Every complex number is stored as (re, im);\n"
     " * A is m x n row-major. */\n"
     "void zgemv(const $T *a, const $T *x, $T *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            $T ar = a[2 * (i * n + j)], ai = a[2 * (i * n + j) + 1];\n"
     "            $T xr = x[2 * j], xi = x[2 * j + 1];\n"
     "            re += (double)ar * xr - (double)ai * xi;\n"
     "            im += (double)ar * xi + (double)ai * xr;\n"
     "        }\n"
     "        y[2 * i] += re;\n"
     "        y[2 * i + 1] += im;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* Complex y = A * x + y: one block per row of A, two block-wide sums. */\n"
     "extern \"C\" __global__ void zgemv(const $T *a, const $T *x, $T *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + 2 * (long long)i * n;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
     "        const $T ar = row[2 * j], ai = row[2 * j + 1];\n"
     "        const $T xr = x[2 * j], xi = x[2 * j + 1];\n"
     "        re += (double)ar * xr - (double)ai * xi;\n"
     "        im += (double)ar * xi + (double)ai * xr;\n"
     "    }\n"
     "    re = block_sum(re);\n"
     "    im = block_sum(im);\n"
     "    if (threadIdx.x == 0) {\n"
     "        y[2 * i] += re;\n"
     "        y[2 * i + 1] += im;\n"
     "    }\n"
     "}\n",
     "zgemv|m|256||a,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"i8", "int8-dot", "gemv_i8", "y = A*x for int8 A and x, exact int32 results",
     "a:in:m,n;x:in:n;y:out:m:i32;m:param;n:param", "a:i:-128:128;x:i:-128:128",
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=32768,n=16384", "2*m*n", "m*n+n+4*m",
     0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* y = A * x for signed 8-bit A (m x n, row-major) and x, accumulated\n"
     " * exactly in 32-bit integers (|y[i]| <= n * 2^14). */\n"
     "void gemv_i8(const int8_t *a, const int8_t *x, int32_t *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        int32_t acc = 0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("int")
     "/* y = A * x, int8 in, exact int32 sums: one block per row of A. */\n"
     "extern \"C\" __global__ void gemv_i8(const signed char *a, const signed char *x, int *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const signed char *row = a + (long long)i * n;\n"
     "    int acc = 0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "gemv_i8|m|256||a,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"i16", "int16-wide", "gemv_i16", "y = A*x for int16 A and x, exact int64 results",
     "a:in:m,n;x:in:n;y:out:m:i64;m:param;n:param", "a:i:-32768:32768;x:i:-32768:32768",
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=16384,n=16384", "2*m*n",
     "2*m*n+2*n+8*m", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* y = A * x for 16-bit A (m x n, row-major) and x.  A product needs 31 bits\n"
     " * and a row sum up to 31 + log2(n), so rows are accumulated in 64 bits. */\n"
     "void gemv_i16(const int16_t *a, const int16_t *x, int64_t *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        int64_t acc = 0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("long long")
     "/* y = A * x, int16 in, exact int64 sums: one block per row of A. */\n"
     "extern \"C\" __global__ void gemv_i16(const short *a, const short *x, long long *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const short *row = a + (long long)i * n;\n"
     "    long long acc = 0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "gemv_i16|m|256||a,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "bicg", "bicg", "q = A*p and s = A^T*r, the two products of a BiCG step ($D)",
     "a:in:m,n;p:in:n;r:in:m;q:out:m;s:out:n;m:param;n:param", NULL, GEMV_CFG, "4*m*n",
     "$S*(m*n+2*n+2*m)", 1e-2, 1e-3, 0, 0,
     "/* The two matrix-vector products of a BiCG step with the m x n row-major\n"
     " * matrix A: q = A * p and s = A^T * r. */\n"
     "void bicg(const $T *a, const $T *p, const $T *r, $T *q, $T *s, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * p[j];\n"
     "        q[i] = acc;\n"
     "    }\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += r[i] * a[i * n + j];\n"
     "        s[j] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* First launch, q = A * p: one block per row of A. */\n"
     "extern \"C\" __global__ void bicg_q(const $T *a, const $T *p, $T *q, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * p[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        q[i] = acc;\n"
     "}\n"
     "\n"
     "/* Second launch, s = A^T * r: one thread per column of A. */\n"
     "extern \"C\" __global__ void bicg_s(const $T *a, const $T *r, $T *s, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        acc += r[i] * a[(long long)i * n + j];\n"
     "    s[j] = acc;\n"
     "}\n",
     "bicg_q|m|256||a,p,q,m,n;bicg_s|(n+255)/256|256||a,r,s,m,n", NULL,
     "block=256;mapping=two-launches,one-row-per-block+one-column-per-thread"},
    {"f32 f64", "residual", "residual", "r = b - A*x ($D)",
     "a:in:m,n;x:in:n;b:in:m;r:out:m;m:param;n:param", NULL, GEMV_CFG, "2*m*n+m", "$S*(m*n+n+2*m)",
     1e-2, 1e-3, 0, 0,
     "/* The residual of a linear system: r = b - A * x, A m x n row-major. */\n"
     "void residual(const $T *a, const $T *x, const $T *b, $T *r, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = b[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc -= a[i * n + j] * x[j];\n"
     "        r[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* r = b - A * x: one block per row of A. */\n"
     "extern \"C\" __global__ void residual(const $T *a, const $T *x, const $T *b, $T *r, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        r[i] = b[i] - acc;\n"
     "}\n",
     "residual|m|256||a,x,b,r,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "diag-scaled", "scaled_matvec", "y = Dr*A*Dc*x with diagonal row and column scalings ($D)",
     "a:in:m,n;dr:in:m;dc:in:n;x:in:n;y:out:m;m:param;n:param", "dr:u:0.5:2;dc:u:0.5:2", GEMV_CFG,
     "3*m*n+m", "$S*(m*n+2*n+2*m)", 1e-2, 1e-3, 0, 0,
     "/* y = diag(dr) * A * diag(dc) * x: a matrix-vector product with the row\n"
     " * and column equilibration scalings of A (m x n, row-major) applied on\n"
     " * the fly. */\n"
     "void scaled_matvec(const float *a, const float *dr, const float *dc, const float *x, float *y,\n"
     "                   int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * (dc[j] * x[j]);\n"
     "        y[i] = dr[i] * acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = diag(dr) * A * diag(dc) * x: one block per row of A. */\n"
     "extern \"C\" __global__ void scaled_matvec(const float *a, const float *dr, const float *dc, const float *x, float *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * (dc[j] * x[j]);\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = dr[i] * acc;\n"
     "}\n",
     "scaled_matvec|m|256||a,dr,dc,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "mixed-f64-out", "matvec_mixed", "y (f64) = A*x for f32 A and x",
     "a:in:m,n;x:in:n;y:out:m:f64;m:param;n:param", NULL, GEMV_CFG, "2*m*n", "4*(m*n+n)+8*m", 1e-6, 1e-6,
     0, 0,
     "/* y = A * x with single-precision inputs (A m x n, row-major) and a\n"
     " * double-precision result: every product and sum is formed in double. */\n"
     "void matvec_mixed(const float *a, const float *x, double *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += (double)a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y (double) = A * x (float): one block per row of A. */\n"
     "extern \"C\" __global__ void matvec_mixed(const float *a, const float *x, double *y, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += (double)row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "matvec_mixed|m|256||a,x,y,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "tridiagonal", "tridiag_matvec", "y = T*x for a tridiagonal T given by three diagonals ($D)",
     "dl:in:n;d:in:n;du:in:n;x:in:n;y:out:n;n:param", NULL,
     "small:n=100000|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=$(67108864|33554432)", "5*n", "$S*5*n",
     0, 0, 0, 0,
     "/* y = T * x for an n x n tridiagonal matrix T with sub-diagonal dl (dl[i]\n"
     " * is T[i][i - 1], dl[0] unused), diagonal d and super-diagonal du (du[i]\n"
     " * is T[i][i + 1], du[n - 1] unused). */\n"
     "void tridiag_matvec(const $T *dl, const $T *d, const $T *du, const $T *x, $T *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T acc = d[i] * x[i];\n"
     "        if (i > 0)\n"
     "            acc += dl[i] * x[i - 1];\n"
     "        if (i < n - 1)\n"
     "            acc += du[i] * x[i + 1];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* y = T * x, T tridiagonal: one thread per row. */\n"
     "extern \"C\" __global__ void tridiag_matvec(const $T *dl, const $T *d, const $T *du, const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    $T acc = d[i] * x[i];\n"
     "    if (i > 0)\n"
     "        acc += dl[i] * x[i - 1];\n"
     "    if (i < n - 1)\n"
     "        acc += du[i] * x[i + 1];\n"
     "    y[i] = acc;\n"
     "}\n",
     "tridiag_matvec|(n+255)/256|256||dl,d,du,x,y,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "batched-shared-x", "gemv_batched_shared", "y[b] = A[b]*x, one x for the whole batch ($D)",
     "a:in:batch,m,n;x:in:n;y:out:batch,m;batch:param;m:param;n:param", NULL,
     "small:batch=8,m=40,n=50|edge:batch=1,m=1,n=1|edge-prime:batch=5,m=7,n=13|large:batch=128,m=2048,n=1024",
     "2*batch*m*n", "4*(batch*m*n+n+batch*m)", 1e-4, 1e-4, 0, 0,
     "#include <stddef.h>\n\n"
     "/* y[b] = A[b] * x: batch row-major m x n matrices, all applied to the\n"
     " * same vector x.  y is batch x m. */\n"
     "void gemv_batched_shared(const float *a, const float *x, float *y, int batch, int m, int n)\n{\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            const float *row = a + ((size_t)b * m + i) * n;\n"
     "            double acc = 0.0;\n"
     "            for (int j = 0; j < n; j++)\n"
     "                acc += row[j] * x[j];\n"
     "            y[(size_t)b * m + i] = acc;\n"
     "        }\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y[b] = A[b] * x: one block per row, blockIdx.y the batch entry. */\n"
     "extern \"C\" __global__ void gemv_batched_shared(const float *a, const float *x, float *y, int batch, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const int b = blockIdx.y;\n"
     "    const float *row = a + ((long long)b * m + i) * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[(long long)b * m + i] = acc;\n"
     "}\n",
     "gemv_batched_shared|m,batch|256||a,x,y,batch,m,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "atax", "atax", "y = A^T*(A*x) through a temporary ($D)",
     "a:in:m,n;x:in:n;tmp:out:m;y:out:n;m:param;n:param", NULL, GEMV_CFG, "4*m*n", "4*(m*n+2*n+m)",
     1e-2, 1e-3, 0, 0,
     "/* y = A^T * (A * x) for an m x n row-major A; tmp receives A * x. */\n"
     "void atax(const float *a, const float *x, float *tmp, float *y, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        tmp[i] = acc;\n"
     "    }\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += a[i * n + j] * tmp[i];\n"
     "        y[j] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* First launch, tmp = A * x: one block per row of A. */\n"
     "extern \"C\" __global__ void atax_tmp(const float *a, const float *x, float *tmp, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        tmp[i] = acc;\n"
     "}\n"
     "\n"
     "/* Second launch, y = A^T * tmp: one thread per column of A. */\n"
     "extern \"C\" __global__ void atax_y(const float *a, const float *tmp, float *y, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        acc += a[(long long)i * n + j] * tmp[i];\n"
     "    y[j] = acc;\n"
     "}\n",
     "atax_tmp|m|256||a,x,tmp,m,n;atax_y|(n+255)/256|256||a,tmp,y,m,n", NULL,
     "block=256;mapping=two-launches,one-row-per-block+one-column-per-thread"},
};

static int generate(GenCtx *g)
{
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_gemv = {"gemv", "linalg", 54, generate};
