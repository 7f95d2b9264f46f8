/* ger — outer products and low-rank updates: A += alpha*x*y^T (row- and
 * column-major, leading dimension, strided vectors, with beta scaling),
 * plain outer products over f32/f64/i32/i64/u8, symmetric rank-1 and rank-2
 * updates on one triangle and in packed storage (syr, spr, syr2, spr2),
 * rank-2 and rank-4 general updates, complex her/gerc/geru, Kronecker,
 * Kronecker-sum, Khatri-Rao and face-splitting products, batched outer
 * products, generalized "outer" operations (difference, sum, min, |x - y|,
 * squared difference), three-way outer products, Householder reflections
 * and weighted covariance updates. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"

#define GCFG "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|edge-col:m=131,n=1|large:m=16384,n=$(16384|8192)"
#define SYCFG "small:n=300|edge:n=1|edge-prime:n=131|large:n=$(16384|11264)"
/* The pairs: one thread per output element over a flat 64-bit index (the
 * products reach 2^29 elements), with the element's coordinates recovered by
 * division; triangular updates run the full square and leave the other
 * triangle's threads idle.  Each element is computed with the C program's
 * own arithmetic, in the same order. */
#define KCFG "small:p=8,q=6,r=12,s=10|edge:p=1,q=1,r=1,s=1|edge-prime:p=3,q=5,r=7,s=2|large:p=128,q=128,r=128,s=$(128|64)"

static const Spec SPECS[] = {
    {"f32 f64", "ger-rowmajor", "ger", "A += alpha*x*y^T, row-major ($D)",
     "x:in:m;y:in:n;a:inout:m,n;alpha:scalar:~0.5~2;m:param;n:param", NULL, GCFG, "2*m*n", "$S*(2*m*n+m+n)", 0, 0,
     0, 0,
     "/* Rank-1 update A += alpha * x * y^T of the m x n row-major matrix A. */\n"
     "void ger(const $T *x, const $T *y, $T *a, $T alpha, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        $T ax = alpha * x[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] += ax * y[j];\n"
     "    }\n}\n",
     "/* A += alpha * x * y^T, row-major: one thread per element of A. */\n"
     "extern \"C\" __global__ void ger(const $T *x, const $T *y, $T *a, $T alpha, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    const $T ax = alpha * x[i];\n"
     "    a[e] += ax * y[j];\n"
     "}\n",
     "ger|(m*n+255)/256|256||x,y,a,alpha,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "ger-colmajor", "ger", "A += alpha*x*y^T, column-major ($D)",
     "x:in:m;y:in:n;a:inout:n,m;alpha:scalar:~0.5~2;m:param;n:param", NULL, GCFG, "2*m*n", "$S*(2*m*n+m+n)", 0, 0,
     0, 0,
     "/* Rank-1 update A += alpha * x * y^T of the m x n column-major matrix A\n"
     " * (element (i, j) at a[j * m + i]), one column at a time. */\n"
     "void ger(const $T *x, const $T *y, $T *a, $T alpha, int m, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        $T ay = alpha * y[j];\n"
     "        $T *col = a + j * m;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            col[i] += x[i] * ay;\n"
     "    }\n}\n",
     "/* A += alpha * x * y^T, column-major: one thread per element of A, in\n"
     " * storage order. */\n"
     "extern \"C\" __global__ void ger(const $T *x, const $T *y, $T *a, $T alpha, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int j = (int)(e / m), i = (int)(e % m);\n"
     "    const $T ay = alpha * y[j];\n"
     "    a[e] += x[i] * ay;\n"
     "}\n",
     "ger|(m*n+255)/256|256||x,y,a,alpha,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "ger-lda", "ger_lda", "A += alpha*x*y^T, row-major with leading dimension lda ($D)",
     "x:in:m;y:in:n;a:inout:m,lda;alpha:scalar:~0.5~2;m:param;n:param;lda:param", NULL,
     "small:m=200,n=300,lda=320|edge:m=1,n=1,lda=1|edge-prime:m=37,n=131,lda=137|"
     "large:m=16384,n=$(16000,lda=16384|8000,lda=8192)",
     "2*m*n", "$S*(2*m*n+m+n)", 0, 0, 0, 0,
     "/* A += alpha * x * y^T where A (m x n) sits in a row-major array with rows\n"
     " * lda >= n apart; the padding is not touched. */\n"
     "void ger_lda(const $T *x, const $T *y, $T *a, $T alpha, int m, int n, int lda)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * lda + j] += alpha * x[i] * y[j];\n}\n",
     "/* A += alpha * x * y^T, rows lda apart: one thread per element of the\n"
     " * m x n matrix (the padding is not touched). */\n"
     "extern \"C\" __global__ void ger_lda(const $T *x, const $T *y, $T *a, $T alpha, int m, int n, int lda)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[(long long)i * lda + j] += alpha * x[i] * y[j];\n"
     "}\n",
     "ger_lda|(m*n+255)/256|256||x,y,a,alpha,m,n,lda", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "outer", "outer", "A = x*y^T ($D)", "x:in:m;y:in:n;a:out:m,n;m:param;n:param", NULL, GCFG, "m*n",
     "$S*(m*n+m+n)", 0, 0, 0, 0,
     "/* Outer product A = x * y^T: A[i][j] = x[i] * y[j], m x n row-major. */\n"
     "void outer(const $T *x, const $T *y, $T *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] = x[i] * y[j];\n}\n",
     "/* A = x * y^T: one thread per element. */\n"
     "extern \"C\" __global__ void outer(const $T *x, const $T *y, $T *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] = x[i] * y[j];\n"
     "}\n",
     "outer|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"i32", "outer", "outer_i32", "A = x*y^T for int32 vectors", "x:in:m;y:in:n;a:out:m,n;m:param;n:param",
     "x:i:-40000:40000;y:i:-40000:40000", GCFG, "m*n", "4*(m*n+m+n)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Outer product of two int32 vectors whose entries stay below 40000 in\n"
     " * magnitude, so every product fits 32 bits. */\n"
     "void outer_i32(const int32_t *x, const int32_t *y, int32_t *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] = x[i] * y[j];\n}\n",
     "/* A = x * y^T (int32): one thread per element. */\n"
     "extern \"C\" __global__ void outer_i32(const int *x, const int *y, int *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] = x[i] * y[j];\n"
     "}\n",
     "outer_i32|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"i64", "outer-widening", "outer_i64", "A = x*y^T for int32 vectors into int64",
     "x:in:m:i32;y:in:n:i32;a:out:m,n;m:param;n:param", "x:i:-2000000000:2000000000;y:i:-2000000000:2000000000",
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=16384,n=8192", "m*n", "8*m*n+4*(m+n)", 0, 0,
     0, 0,
     "#include <stdint.h>\n\n"
     "/* Widening outer product: A[i][j] = x[i] * y[j] computed exactly in 64 bits\n"
     " * from full-range int32 inputs. */\n"
     "void outer_i64(const int32_t *x, const int32_t *y, int64_t *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[(int64_t)i * n + j] = (int64_t)x[i] * y[j];\n}\n",
     "/* A = x * y^T exactly in 64 bits: one thread per element. */\n"
     "extern \"C\" __global__ void outer_i64(const int *x, const int *y, long long *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] = (long long)x[i] * y[j];\n"
     "}\n",
     "outer_i64|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"u8", "outer-widening", "outer_u8", "A = x*y^T for uint8 vectors into uint16",
     "x:in:m;y:in:n;a:out:m,n:u16;m:param;n:param", NULL,
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=16384,n=32768", "m*n", "2*m*n+m+n", 0, 0, 0,
     0,
     "#include <stdint.h>\n\n"
     "/* Outer product of two 8-bit vectors (e.g. separable image weights) into\n"
     " * 16-bit results: 255 * 255 fits. */\n"
     "void outer_u8(const uint8_t *x, const uint8_t *y, uint16_t *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] = (uint16_t)(x[i] * y[j]);\n}\n",
     "/* A = x * y^T, 8-bit into 16-bit: one thread per element. */\n"
     "extern \"C\" __global__ void outer_u8(const unsigned char *x, const unsigned char *y, unsigned short *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] = (unsigned short)(x[i] * y[j]);\n"
     "}\n",
     "outer_u8|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "syr-lower", "syr", "A += alpha*x*x^T on the lower triangle ($D)",
     "x:in:n;a:inout:n,n;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "n*n", "$S*(n*(n+1)+n)", 0, 0, 0, 0,
     "/* Symmetric rank-1 update of the lower triangle: A[i][j] += alpha * x[i] *\n"
     " * x[j] for j <= i; A is n x n row-major and its strict upper part is left\n"
     " * alone. */\n"
     "void syr(const $T *x, $T *a, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T ax = alpha * x[i];\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            a[i * n + j] += ax * x[j];\n"
     "    }\n}\n",
     "/* A += alpha * x * x^T on the lower triangle: one thread per element of\n"
     " * the square, those above the diagonal idle. */\n"
     "extern \"C\" __global__ void syr(const $T *x, $T *a, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    const $T ax = alpha * x[i];\n"
     "    a[e] += ax * x[j];\n"
     "}\n",
     "syr|(n*n+255)/256|256||x,a,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "syr-upper", "syr", "A += alpha*x*x^T on the upper triangle ($D)",
     "x:in:n;a:inout:n,n;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "n*n", "$S*(n*(n+1)+n)", 0, 0, 0, 0,
     "/* Symmetric rank-1 update of the upper triangle: A[i][j] += alpha * x[i] *\n"
     " * x[j] for j >= i (A n x n, row-major). */\n"
     "void syr(const $T *x, $T *a, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        for (int j = i; j < n; j++)\n"
     "            a[i * n + j] += alpha * x[i] * x[j];\n}\n",
     "/* A += alpha * x * x^T on the upper triangle: one thread per element of\n"
     " * the square, those below the diagonal idle. */\n"
     "extern \"C\" __global__ void syr(const $T *x, $T *a, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j < i)\n"
     "        return;\n"
     "    a[e] += alpha * x[i] * x[j];\n"
     "}\n",
     "syr|(n*n+255)/256|256||x,a,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "spr-packed-lower", "spr", "packed lower AP += alpha*x*x^T ($D)",
     "x:in:n;ap:inout:n*(n+1)/2;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "n*n", "$S*(n*(n+1)+n)", 0, 0, 0, 0,
     "/* Symmetric rank-1 update in packed storage: the lower triangle is stored\n"
     " * row by row (A[i][j], j <= i, at ap[i * (i + 1) / 2 + j]). */\n"
     "void spr(const $T *x, $T *ap, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T *row = ap + i * (i + 1) / 2;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            row[j] += alpha * x[i] * x[j];\n"
     "    }\n}\n",
     "/* Packed lower AP += alpha * x * x^T: one thread per (i, j) of the square,\n"
     " * those above the diagonal idle. */\n"
     "extern \"C\" __global__ void spr(const $T *x, $T *ap, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    ap[(long long)i * (i + 1) / 2 + j] += alpha * x[i] * x[j];\n"
     "}\n",
     "spr|(n*n+255)/256|256||x,ap,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32", "spr-packed-upper", "spr_upper", "packed upper AP += alpha*x*x^T, BLAS column order ($D)",
     "x:in:n;ap:inout:n*(n+1)/2;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "n*n", "$S*(n*(n+1)+n)", 0, 0, 0, 0,
     "/* Symmetric rank-1 update of an upper triangle packed column by column\n"
     " * (BLAS order): A[i][j], i <= j, is ap[j * (j + 1) / 2 + i]. */\n"
     "void spr_upper(const float *x, float *ap, float alpha, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        float *col = ap + j * (j + 1) / 2;\n"
     "        float axj = alpha * x[j];\n"
     "        for (int i = 0; i <= j; i++)\n"
     "            col[i] += x[i] * axj;\n"
     "    }\n}\n",
     "/* Packed upper AP += alpha * x * x^T (BLAS column order): one thread per\n"
     " * (i, j) of the square in packed order, those below the diagonal idle. */\n"
     "extern \"C\" __global__ void spr_upper(const float *x, float *ap, float alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int j = (int)(e / n), i = (int)(e % n);\n"
     "    if (i > j)\n"
     "        return;\n"
     "    const float axj = alpha * x[j];\n"
     "    ap[(long long)j * (j + 1) / 2 + i] += x[i] * axj;\n"
     "}\n",
     "spr_upper|(n*n+255)/256|256||x,ap,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f64", "spr2-packed-lower", "spr2", "packed lower AP += alpha*(x*y^T + y*x^T) ($D)",
     "x:in:n;y:in:n;ap:inout:n*(n+1)/2;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "3*n*n", "$S*(n*(n+1)+2*n)", 0,
     0, 0, 0,
     "/* Symmetric rank-2 update in packed storage (lower triangle by rows):\n"
     " * A[i][j] += alpha * (x[i] * y[j] + y[i] * x[j]) for j <= i. */\n"
     "void spr2(const double *x, const double *y, double *ap, double alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double *row = ap + i * (i + 1) / 2;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            row[j] += alpha * (x[i] * y[j] + y[i] * x[j]);\n"
     "    }\n}\n",
     "/* Packed lower AP += alpha * (x * y^T + y * x^T): one thread per (i, j) of\n"
     " * the square, those above the diagonal idle. */\n"
     "extern \"C\" __global__ void spr2(const double *x, const double *y, double *ap, double alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    ap[(long long)i * (i + 1) / 2 + j] += alpha * (x[i] * y[j] + y[i] * x[j]);\n"
     "}\n",
     "spr2|(n*n+255)/256|256||x,y,ap,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "syr2-lower", "syr2", "A += alpha*(x*y^T + y*x^T) on the lower triangle ($D)",
     "x:in:n;y:in:n;a:inout:n,n;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "3*n*n", "$S*(n*(n+1)+2*n)", 0, 0, 0,
     0,
     "/* Symmetric rank-2 update of the lower triangle of the n x n row-major\n"
     " * matrix A: A[i][j] += alpha * (x[i] * y[j] + y[i] * x[j]), j <= i. */\n"
     "void syr2(const $T *x, const $T *y, $T *a, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            a[i * n + j] += alpha * (x[i] * y[j] + y[i] * x[j]);\n}\n",
     "/* A += alpha * (x * y^T + y * x^T) on the lower triangle: one thread per\n"
     " * element, those above the diagonal idle. */\n"
     "extern \"C\" __global__ void syr2(const $T *x, const $T *y, $T *a, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    a[e] += alpha * (x[i] * y[j] + y[i] * x[j]);\n"
     "}\n",
     "syr2|(n*n+255)/256|256||x,y,a,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "syr2-upper", "syr2", "A += alpha*(x*y^T + y*x^T) on the upper triangle ($D)",
     "x:in:n;y:in:n;a:inout:n,n;alpha:scalar:~0.5~2;n:param", NULL, SYCFG, "3*n*n", "$S*(n*(n+1)+2*n)", 0, 0, 0,
     0,
     "/* Symmetric rank-2 update of the upper triangle of the n x n row-major\n"
     " * matrix A: A[i][j] += alpha * x[i] * y[j] + alpha * y[i] * x[j], j >= i. */\n"
     "void syr2(const $T *x, const $T *y, $T *a, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T axi = alpha * x[i], ayi = alpha * y[i];\n"
     "        for (int j = i; j < n; j++)\n"
     "            a[i * n + j] += axi * y[j] + ayi * x[j];\n"
     "    }\n}\n",
     "/* A += alpha * (x * y^T + y * x^T) on the upper triangle: one thread per\n"
     " * element, those below the diagonal idle. */\n"
     "extern \"C\" __global__ void syr2(const $T *x, const $T *y, $T *a, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j < i)\n"
     "        return;\n"
     "    const $T axi = alpha * x[i], ayi = alpha * y[i];\n"
     "    a[e] += axi * y[j] + ayi * x[j];\n"
     "}\n",
     "syr2|(n*n+255)/256|256||x,y,a,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "rank2-general", "ger2", "A += alpha*x*y^T + beta*u*v^T ($D)",
     "x:in:m;y:in:n;u:in:m;v:in:n;a:inout:m,n;alpha:scalar:~0.5~2;beta:scalar:~-2~-0.5;m:param;n:param", NULL,
     GCFG, "4*m*n", "$S*(2*m*n+2*m+2*n)", 0, 0, 0, 0,
     "/* Rank-2 update of the m x n row-major matrix A:\n"
     " * A += alpha * x * y^T + beta * u * v^T. */\n"
     "void ger2(const $T *x, const $T *y, const $T *u, const $T *v, $T *a, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] += alpha * x[i] * y[j] + beta * u[i] * v[j];\n}\n",
     "/* A += alpha * x * y^T + beta * u * v^T: one thread per element. */\n"
     "extern \"C\" __global__ void ger2(const $T *x, const $T *y, const $T *u, const $T *v, $T *a, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] += alpha * x[i] * y[j] + beta * u[i] * v[j];\n"
     "}\n",
     "ger2|(m*n+255)/256|256||x,y,u,v,a,alpha,beta,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "her-lower", "her", "Hermitian A += alpha*x*x^H on the lower triangle ($D)",
     "x:in:n,2;a:inout:n,n,2;alpha:scalar:~0.5~2;n:param", NULL,
     "small:n=300|edge:n=1|edge-prime:n=131|large:n=$(11264|8192)", "4*n*n", "$S*2*(n*(n+1)+n)", 0, 0, 0, 0,
     "/* Hermitian rank-1 update of the lower triangle: A[i][j] += alpha * x[i] *\n"
     " * conj(x[j]) for j <= i, complex numbers stored as (re, im), A n x n\n"
     " * row-major, alpha real.  Diagonal entries keep a zero imaginary part. */\n"
     "void her(const $T *x, $T *a, $T alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T xr = x[2 * i], xi = x[2 * i + 1];\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            $T yr = x[2 * j], yi = x[2 * j + 1];\n"
     "            $T *aij = a + 2 * (i * n + j);\n"
     "            aij[0] += alpha * (xr * yr + xi * yi);\n"
     "            aij[1] = i == j ? 0 : aij[1] + alpha * (xi * yr - xr * yi);\n"
     "        }\n    }\n}\n",
     "/* Hermitian A += alpha * x * x^H on the lower triangle: one thread per\n"
     " * complex element, those above the diagonal idle. */\n"
     "extern \"C\" __global__ void her(const $T *x, $T *a, $T alpha, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    const $T xr = x[2 * i], xi = x[2 * i + 1];\n"
     "    const $T yr = x[2 * j], yi = x[2 * j + 1];\n"
     "    $T *aij = a + 2 * e;\n"
     "    aij[0] += alpha * (xr * yr + xi * yi);\n"
     "    aij[1] = i == j ? 0 : aij[1] + alpha * (xi * yr - xr * yi);\n"
     "}\n",
     "her|(n*n+255)/256|256||x,a,alpha,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32 f64", "gerc", "gerc", "complex A += alpha*x*y^H (alpha complex) ($D)",
     "x:in:m,2;y:in:n,2;a:inout:m,n,2;alpha_re:scalar:~0.5~1.5;alpha_im:scalar:~-1~1;m:param;n:param", NULL,
     "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=$(8192|8192),n=$(16384|8192)", "8*m*n",
     "$S*2*(2*m*n+m+n)", 0, 0, 0, 0,
     "/* Complex rank-1 update A += alpha * x * y^H (conjugated y), every number\n"
     " * stored as (re, im); A is m x n row-major and alpha = alpha_re + i alpha_im. */\n"
     "void gerc(const $T *x, const $T *y, $T *a, $T alpha_re, $T alpha_im, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        /* t = alpha * x[i] */\n"
     "        $T tr = alpha_re * x[2 * i] - alpha_im * x[2 * i + 1];\n"
     "        $T ti = alpha_re * x[2 * i + 1] + alpha_im * x[2 * i];\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            $T yr = y[2 * j], yi = -y[2 * j + 1];\n"
     "            a[2 * (i * n + j)] += tr * yr - ti * yi;\n"
     "            a[2 * (i * n + j) + 1] += tr * yi + ti * yr;\n"
     "        }\n    }\n}\n",
     "/* Complex A += alpha * x * y^H: one thread per complex element. */\n"
     "extern \"C\" __global__ void gerc(const $T *x, const $T *y, $T *a, $T alpha_re, $T alpha_im, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    const $T tr = alpha_re * x[2 * i] - alpha_im * x[2 * i + 1];\n"
     "    const $T ti = alpha_re * x[2 * i + 1] + alpha_im * x[2 * i];\n"
     "    const $T yr = y[2 * j], yi = -y[2 * j + 1];\n"
     "    a[2 * e] += tr * yr - ti * yi;\n"
     "    a[2 * e + 1] += tr * yi + ti * yr;\n"
     "}\n",
     "gerc|(m*n+255)/256|256||x,y,a,alpha_re,alpha_im,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "geru", "geru", "complex A += x*y^T (no conjugation) ($D)", "x:in:m,2;y:in:n,2;a:inout:m,n,2;m:param;n:param",
     NULL, "small:m=200,n=300|edge:m=1,n=1|edge-prime:m=37,n=131|large:m=8192,n=16384", "8*m*n",
     "$S*2*(2*m*n+m+n)", 0, 0, 0, 0,
     "/* Unconjugated complex rank-1 update A += x * y^T with interleaved\n"
     " * (re, im) storage; A is m x n row-major. */\n"
     "void geru(const float *x, const float *y, float *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            float *aij = a + 2 * (i * n + j);\n"
     "            aij[0] += x[2 * i] * y[2 * j] - x[2 * i + 1] * y[2 * j + 1];\n"
     "            aij[1] += x[2 * i] * y[2 * j + 1] + x[2 * i + 1] * y[2 * j];\n"
     "        }\n    }\n}\n",
     "/* Complex A += x * y^T: one thread per complex element. */\n"
     "extern \"C\" __global__ void geru(const float *x, const float *y, float *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    float *aij = a + 2 * e;\n"
     "    aij[0] += x[2 * i] * y[2 * j] - x[2 * i + 1] * y[2 * j + 1];\n"
     "    aij[1] += x[2 * i] * y[2 * j + 1] + x[2 * i + 1] * y[2 * j];\n"
     "}\n",
     "geru|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "kron", "kron", "K = A (x) B, the Kronecker product ($D)",
     "a:in:p,q;b:in:r,s;k:out:p*r,q*s;p:param;q:param;r:param;s:param", NULL, KCFG, "p*q*r*s",
     "$S*(p*q+r*s+p*q*r*s)", 0, 0, 0, 0,
     "/* Kronecker product K = A (x) B of A (p x q) and B (r x s), all row-major:\n"
     " * K is (p r) x (q s) and K[i r + k][j s + l] = A[i][j] * B[k][l]. */\n"
     "void kron(const $T *a, const $T *b, $T *k, int p, int q, int r, int s)\n{\n"
     "    int cols = q * s;\n"
     "    for (int i = 0; i < p; i++)\n"
     "        for (int j = 0; j < q; j++)\n"
     "            for (int kk = 0; kk < r; kk++)\n"
     "                for (int l = 0; l < s; l++)\n"
     "                    k[(i * r + kk) * cols + j * s + l] = a[i * q + j] * b[kk * s + l];\n}\n",
     "/* K = A (x) B: one thread per element of K. */\n"
     "extern \"C\" __global__ void kron(const $T *a, const $T *b, $T *k, int p, int q, int r, int s)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)p * r * q * s)\n"
     "        return;\n"
     "    const long long row = e / ((long long)q * s), col = e % ((long long)q * s);\n"
     "    const int i = (int)(row / r), kk = (int)(row % r), j = (int)(col / s), l = (int)(col % s);\n"
     "    k[e] = a[i * q + j] * b[kk * s + l];\n"
     "}\n",
     "kron|(p*r*q*s+255)/256|256||a,b,k,p,q,r,s", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"i32", "kron", "kron_i32", "K = A (x) B for int32 matrices",
     "a:in:p,q;b:in:r,s;k:out:p*r,q*s;p:param;q:param;r:param;s:param", "a:i:-1000:1000;b:i:-1000:1000", KCFG,
     "p*q*r*s", "4*(p*q+r*s+p*q*r*s)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Kronecker product of int32 matrices A (p x q) and B (r x s): K is\n"
     " * (p r) x (q s), row-major, built one output row at a time. */\n"
     "void kron_i32(const int32_t *a, const int32_t *b, int32_t *k, int p, int q, int r, int s)\n{\n"
     "    for (int row = 0; row < p * r; row++) {\n"
     "        int i = row / r, kk = row % r;\n"
     "        int32_t *out = k + row * (q * s);\n"
     "        for (int col = 0; col < q * s; col++)\n"
     "            out[col] = a[i * q + col / s] * b[kk * s + col % s];\n"
     "    }\n}\n",
     "/* K = A (x) B (int32): one thread per element of K. */\n"
     "extern \"C\" __global__ void kron_i32(const int *a, const int *b, int *k, int p, int q, int r, int s)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)p * r * q * s)\n"
     "        return;\n"
     "    const long long row = e / ((long long)q * s), col = e % ((long long)q * s);\n"
     "    const int i = (int)(row / r), kk = (int)(row % r), j = (int)(col / s), l = (int)(col % s);\n"
     "    k[e] = a[i * q + j] * b[kk * s + l];\n"
     "}\n",
     "kron_i32|(p*r*q*s+255)/256|256||a,b,k,p,q,r,s", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "kron-batched", "kron_batched", "K[t] = A[t] (x) B[t] for a batch of small matrices ($D)",
     "a:in:batch,p,p;b:in:batch,p,p;k:out:batch,p*p,p*p;batch:param;p:param", NULL,
     "small:batch=100,p=4|edge:batch=1,p=1|edge-prime:batch=7,p=3|large:batch=1048576,p=4", "batch*p*p*p*p",
     "$S*batch*(2*p*p+p*p*p*p)", 0, 0, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Batched Kronecker products of p x p matrices: K[t] = A[t] (x) B[t] is\n"
     " * p^2 x p^2, row-major. */\n"
     "void kron_batched(const float *a, const float *b, float *k, int batch, int p)\n{\n"
     "    int n = p * p;\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * n, *bt = b + (size_t)t * n;\n"
     "        float *kt = k + (size_t)t * n * n;\n"
     "        for (int i = 0; i < p; i++)\n"
     "            for (int j = 0; j < p; j++)\n"
     "                for (int u = 0; u < p; u++)\n"
     "                    for (int v = 0; v < p; v++)\n"
     "                        kt[(i * p + u) * n + j * p + v] = at[i * p + j] * bt[u * p + v];\n"
     "    }\n}\n",
     "/* K[t] = A[t] (x) B[t]: one thread per element of K. */\n"
     "extern \"C\" __global__ void kron_batched(const float *a, const float *b, float *k, int batch, int p)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * p * p * p * p)\n"
     "        return;\n"
     "    const int n = p * p;\n"
     "    const int t = (int)(e / ((long long)n * n)), rem = (int)(e % ((long long)n * n));\n"
     "    const int row = rem / n, col = rem % n;\n"
     "    const int i = row / p, u = row % p, j = col / p, v = col % p;\n"
     "    const float *at = a + (long long)t * n, *bt = b + (long long)t * n;\n"
     "    k[e] = at[i * p + j] * bt[u * p + v];\n"
     "}\n",
     "kron_batched|(batch*p*p*p*p+255)/256|256||a,b,k,batch,p", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "kron-sum", "kron_sum", "K = A (x) I + I (x) B, the Kronecker sum ($D)",
     "a:in:p,p;b:in:r,r;k:out:p*r,p*r;p:param;r:param", NULL,
     "small:p=12,r=10|edge:p=1,r=1|edge-prime:p=7,r=5|large:p=128,r=128", "2*p*p*r*r", "$S*(p*p+r*r+p*p*r*r)",
     0, 0, 0, 0,
     "/* Kronecker sum of A (p x p) and B (r x r): K = A (x) I_r + I_p (x) B, a\n"
     " * (p r) x (p r) row-major matrix (e.g. a 2D Laplacian from 1D ones). */\n"
     "void kron_sum(const float *a, const float *b, float *k, int p, int r)\n{\n"
     "    int n = p * r;\n"
     "    for (int i = 0; i < p; i++)\n"
     "        for (int u = 0; u < r; u++)\n"
     "            for (int j = 0; j < p; j++)\n"
     "                for (int v = 0; v < r; v++) {\n"
     "                    float val = u == v ? a[i * p + j] : 0.0f;\n"
     "                    if (i == j)\n"
     "                        val += b[u * r + v];\n"
     "                    k[(i * r + u) * n + j * r + v] = val;\n"
     "                }\n}\n",
     "/* K = A (x) I + I (x) B: one thread per element of K. */\n"
     "extern \"C\" __global__ void kron_sum(const float *a, const float *b, float *k, int p, int r)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)p * r * p * r)\n"
     "        return;\n"
     "    const int n = p * r;\n"
     "    const int row = (int)(e / n), col = (int)(e % n);\n"
     "    const int i = row / r, u = row % r, j = col / r, v = col % r;\n"
     "    float val = u == v ? a[i * p + j] : 0.0f;\n"
     "    if (i == j)\n"
     "        val += b[u * r + v];\n"
     "    k[e] = val;\n"
     "}\n",
     "kron_sum|(p*r*p*r+255)/256|256||a,b,k,p,r", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "khatri-rao", "khatri_rao", "column-wise Kronecker (Khatri-Rao) product ($D)",
     "a:in:p,n;b:in:r,n;k:out:p*r,n;p:param;r:param;n:param", NULL,
     "small:p=30,r=20,n=50|edge:p=1,r=1,n=1|edge-prime:p=7,r=5,n=13|large:p=256,r=256,n=2048", "p*r*n",
     "$S*(p*n+r*n+p*r*n)", 0, 0, 0, 0,
     "/* Khatri-Rao product: column j of K (p r x n) is the Kronecker product of\n"
     " * column j of A (p x n) and column j of B (r x n); all row-major. */\n"
     "void khatri_rao(const float *a, const float *b, float *k, int p, int r, int n)\n{\n"
     "    for (int i = 0; i < p; i++)\n"
     "        for (int u = 0; u < r; u++)\n"
     "            for (int j = 0; j < n; j++)\n"
     "                k[(i * r + u) * n + j] = a[i * n + j] * b[u * n + j];\n}\n",
     "/* Khatri-Rao product: one thread per element of K. */\n"
     "extern \"C\" __global__ void khatri_rao(const float *a, const float *b, float *k, int p, int r, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)p * r * n)\n"
     "        return;\n"
     "    const int row = (int)(e / n), j = (int)(e % n);\n"
     "    const int i = row / r, u = row % r;\n"
     "    k[e] = a[(long long)i * n + j] * b[(long long)u * n + j];\n"
     "}\n",
     "khatri_rao|(p*r*n+255)/256|256||a,b,k,p,r,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f64", "face-splitting", "face_splitting", "row-wise Kronecker (face-splitting) product ($D)",
     "a:in:m,p;b:in:m,r;k:out:m,p*r;m:param;p:param;r:param", NULL,
     "small:m=50,p=30,r=20|edge:m=1,p=1,r=1|edge-prime:m=13,p=7,r=5|large:m=65536,p=64,r=32", "m*p*r",
     "$S*(m*p+m*r+m*p*r)", 0, 0, 0, 0,
     "/* Face-splitting product: row i of K (m x p r) is the Kronecker product of\n"
     " * row i of A (m x p) and row i of B (m x r), i.e. a batch of outer\n"
     " * products flattened row by row. */\n"
     "void face_splitting(const double *a, const double *b, double *k, int m, int p, int r)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < p; j++)\n"
     "            for (int l = 0; l < r; l++)\n"
     "                k[(i * p + j) * r + l] = a[i * p + j] * b[i * r + l];\n}\n",
     "/* Face-splitting product: one thread per element of K. */\n"
     "extern \"C\" __global__ void face_splitting(const double *a, const double *b, double *k, int m, int p, int r)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * p * r)\n"
     "        return;\n"
     "    const int i = (int)(e / (p * r)), c = (int)(e % (p * r));\n"
     "    const int j = c / r, l = c % r;\n"
     "    k[e] = a[(long long)i * p + j] * b[(long long)i * r + l];\n"
     "}\n",
     "face_splitting|(m*p*r+255)/256|256||a,b,k,m,p,r", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "batched-outer", "outer_batched", "A[t] = x[t]*y[t]^T for a batch ($D)",
     "x:in:batch,m;y:in:batch,n;a:out:batch,m,n;batch:param;m:param;n:param", NULL,
     "small:batch=16,m=40,n=50|edge:batch=1,m=1,n=1|edge-prime:batch=3,m=13,n=7|large:batch=256,m=1024,n=1024",
     "batch*m*n", "$S*batch*(m+n+m*n)", 0, 0, 0, 0,
     "#include <stddef.h>\n\n"
     "/* A batch of outer products: A[t][i][j] = x[t][i] * y[t][j]. */\n"
     "void outer_batched(const float *x, const float *y, float *a, int batch, int m, int n)\n{\n"
     "    for (int t = 0; t < batch; t++)\n"
     "        for (int i = 0; i < m; i++)\n"
     "            for (int j = 0; j < n; j++)\n"
     "                a[((size_t)t * m + i) * n + j] = x[(size_t)t * m + i] * y[(size_t)t * n + j];\n}\n",
     "/* A[t] = x[t] * y[t]^T: one thread per element of the batch. */\n"
     "extern \"C\" __global__ void outer_batched(const float *x, const float *y, float *a, int batch, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * m * n)\n"
     "        return;\n"
     "    const int t = (int)(e / ((long long)m * n)), rem = (int)(e % ((long long)m * n));\n"
     "    const int i = rem / n, j = rem % n;\n"
     "    a[e] = x[(long long)t * m + i] * y[(long long)t * n + j];\n"
     "}\n",
     "outer_batched|(batch*m*n+255)/256|256||x,y,a,batch,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f64", "batched-ger", "ger_batched", "A[t] += alpha*x[t]*y[t]^T for a batch ($D)",
     "x:in:batch,m;y:in:batch,n;a:inout:batch,m,n;alpha:scalar:~0.5~2;batch:param;m:param;n:param", NULL,
     "small:batch=16,m=40,n=50|edge:batch=1,m=1,n=1|edge-prime:batch=3,m=13,n=7|large:batch=128,m=1024,n=1024",
     "2*batch*m*n", "$S*batch*(m+n+2*m*n)", 0, 0, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Batched rank-1 updates A[t] += alpha * x[t] * y[t]^T (each A[t] m x n,\n"
     " * row-major, contiguous). */\n"
     "void ger_batched(const double *x, const double *y, double *a, double alpha, int batch, int m, int n)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const double *xt = x + (size_t)t * m, *yt = y + (size_t)t * n;\n"
     "        double *at = a + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            for (int j = 0; j < n; j++)\n"
     "                at[i * n + j] += alpha * xt[i] * yt[j];\n"
     "    }\n}\n",
     "/* A[t] += alpha * x[t] * y[t]^T: one thread per element of the batch. */\n"
     "extern \"C\" __global__ void ger_batched(const double *x, const double *y, double *a, double alpha, int batch, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * m * n)\n"
     "        return;\n"
     "    const int t = (int)(e / ((long long)m * n)), rem = (int)(e % ((long long)m * n));\n"
     "    const int i = rem / n, j = rem % n;\n"
     "    a[e] += alpha * x[(long long)t * m + i] * y[(long long)t * n + j];\n"
     "}\n",
     "ger_batched|(batch*m*n+255)/256|256||x,y,a,alpha,batch,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "ger-strided", "ger_strided", "A += alpha*x*y^T with strided x and y ($D)",
     "x:in:1+(m-1)*incx;y:in:1+(n-1)*incy;a:inout:m,n;alpha:scalar:~0.5~2;m:param;n:param;incx:param;incy:param",
     NULL,
     "small:m=200,n=300,incx=2,incy=3|edge:m=1,n=1,incx=1,incy=1|edge-prime:m=37,n=131,incx=3,incy=2|"
     "large:m=16384,n=16384,incx=2,incy=4",
     "2*m*n", "$S*(2*m*n+m+n)", 0, 0, 0, 0,
     "/* A += alpha * x * y^T where element i of x is x[i * incx] and element j\n"
     " * of y is y[j * incy]; A is m x n row-major. */\n"
     "void ger_strided(const float *x, const float *y, float *a, float alpha, int m, int n, int incx, int incy)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        float ax = alpha * x[i * incx];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] += ax * y[j * incy];\n"
     "    }\n}\n",
     "/* A += alpha * x * y^T, strided x and y: one thread per element of A. */\n"
     "extern \"C\" __global__ void ger_strided(const float *x, const float *y, float *a, float alpha, int m, int n, int incx, int incy)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    const float ax = alpha * x[(long long)i * incx];\n"
     "    a[e] += ax * y[(long long)j * incy];\n"
     "}\n",
     "ger_strided|(m*n+255)/256|256||x,y,a,alpha,m,n,incx,incy", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "outer-difference", "outer_diff", "D[i][j] = x[i] - y[j] ($D)", "x:in:m;y:in:n;d:out:m,n;m:param;n:param",
     NULL, GCFG, "m*n", "$S*(m*n+m+n)", 0, 0, 0, 0,
     "/* Outer difference D[i][j] = x[i] - y[j] (m x n, row-major), e.g. the\n"
     " * relative positions of two point sets on a line. */\n"
     "void outer_diff(const float *x, const float *y, float *d, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            d[i * n + j] = x[i] - y[j];\n}\n",
     "/* D[i][j] = x[i] - y[j]: one thread per element. */\n"
     "extern \"C\" __global__ void outer_diff(const float *x, const float *y, float *d, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    d[e] = x[i] - y[j];\n"
     "}\n",
     "outer_diff|(m*n+255)/256|256||x,y,d,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"i32", "outer-sum", "outer_sum", "S[i][j] = x[i] + y[j] for int32", "x:in:m;y:in:n;s:out:m,n;m:param;n:param",
     "x:i:-1000000:1000000;y:i:-1000000:1000000", GCFG, "m*n", "4*(m*n+m+n)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Outer sum S[i][j] = x[i] + y[j] (m x n, row-major). */\n"
     "void outer_sum(const int32_t *x, const int32_t *y, int32_t *s, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            s[i * n + j] = x[i] + y[j];\n}\n",
     "/* S[i][j] = x[i] + y[j]: one thread per element. */\n"
     "extern \"C\" __global__ void outer_sum(const int *x, const int *y, int *s, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    s[e] = x[i] + y[j];\n"
     "}\n",
     "outer_sum|(m*n+255)/256|256||x,y,s,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "outer-min", "outer_min", "M[i][j] = min(x[i], y[j]) ($D)", "x:in:m;y:in:n;mm:out:m,n;m:param;n:param",
     NULL, GCFG, "m*n", "$S*(m*n+m+n)", 0, 0, 0, 0,
     "#include <math.h>\n\n"
     "/* Outer minimum M[i][j] = min(x[i], y[j]) (m x n, row-major), e.g. the\n"
     " * Brownian-motion covariance min(s, t). */\n"
     "void outer_min(const float *x, const float *y, float *mm, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            mm[i * n + j] = fminf(x[i], y[j]);\n}\n",
     "/* M[i][j] = min(x[i], y[j]): one thread per element. */\n"
     "extern \"C\" __global__ void outer_min(const float *x, const float *y, float *mm, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    mm[e] = fminf(x[i], y[j]);\n"
     "}\n",
     "outer_min|(m*n+255)/256|256||x,y,mm,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"i32", "outer-absdiff", "outer_absdiff", "D[i][j] = |x[i] - y[j]| for int32",
     "x:in:m;y:in:n;d:out:m,n;m:param;n:param", "x:i:-1000000:1000000;y:i:-1000000:1000000", GCFG, "2*m*n",
     "4*(m*n+m+n)", 0, 0, 0, 0,
     "#include <stdint.h>\n#include <stdlib.h>\n\n"
     "/* All pairwise absolute differences D[i][j] = |x[i] - y[j]| of two integer\n"
     " * sequences (m x n, row-major). */\n"
     "void outer_absdiff(const int32_t *x, const int32_t *y, int32_t *d, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            d[i * n + j] = abs(x[i] - y[j]);\n}\n",
     "/* D[i][j] = |x[i] - y[j]|: one thread per element. */\n"
     "extern \"C\" __global__ void outer_absdiff(const int *x, const int *y, int *d, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    d[e] = abs(x[i] - y[j]);\n"
     "}\n",
     "outer_absdiff|(m*n+255)/256|256||x,y,d,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f64", "outer-sqdiff", "outer_sqdiff", "D[i][j] = (x[i] - y[j])^2 ($D)", "x:in:m;y:in:n;d:out:m,n;m:param;n:param",
     NULL, GCFG, "2*m*n", "$S*(m*n+m+n)", 0, 0, 0, 0,
     "/* Squared distances between the points x (m of them) and y (n) on a line:\n"
     " * D[i][j] = (x[i] - y[j])^2, m x n row-major. */\n"
     "void outer_sqdiff(const double *x, const double *y, double *d, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double t = x[i] - y[j];\n"
     "            d[i * n + j] = t * t;\n"
     "        }\n}\n",
     "/* D[i][j] = (x[i] - y[j])^2: one thread per element. */\n"
     "extern \"C\" __global__ void outer_sqdiff(const double *x, const double *y, double *d, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    const double t = x[i] - y[j];\n"
     "    d[e] = t * t;\n"
     "}\n",
     "outer_sqdiff|(m*n+255)/256|256||x,y,d,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "scaled-ger", "ger_scaled", "A = beta*A + alpha*x*y^T ($D)",
     "x:in:m;y:in:n;a:inout:m,n;alpha:scalar:~0.5~2;beta:scalar:~0.25~0.9;m:param;n:param", NULL, GCFG, "3*m*n",
     "$S*(2*m*n+m+n)", 0, 0, 0, 0,
     "/* A = beta * A + alpha * x * y^T (a decayed rank-1 update, as in a running\n"
     " * estimate of a second-moment matrix); A is m x n row-major. */\n"
     "void ger_scaled(const $T *x, const $T *y, $T *a, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] = beta * a[i * n + j] + alpha * x[i] * y[j];\n}\n",
     "/* A = beta * A + alpha * x * y^T: one thread per element. */\n"
     "extern \"C\" __global__ void ger_scaled(const $T *x, const $T *y, $T *a, $T alpha, $T beta, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    a[e] = beta * a[e] + alpha * x[i] * y[j];\n"
     "}\n",
     "ger_scaled|(m*n+255)/256|256||x,y,a,alpha,beta,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "rank4-update", "rank4_update", "A += sum of four outer products X[:,l]*Y[:,l]^T ($D)",
     "x:in:m,4;y:in:n,4;a:inout:m,n;m:param;n:param", NULL, GCFG, "8*m*n", "$S*(2*m*n+4*m+4*n)", 1e-5, 1e-4, 0, 0,
     "/* Rank-4 update A += X * Y^T with X m x 4 and Y n x 4 (row-major): the\n"
     " * sum of the four outer products of their columns. */\n"
     "void rank4_update(const float *x, const float *y, float *a, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            float s = 0.0f;\n"
     "            for (int l = 0; l < 4; l++)\n"
     "                s += x[i * 4 + l] * y[j * 4 + l];\n"
     "            a[i * n + j] += s;\n"
     "        }\n    }\n}\n",
     "/* A += X * Y^T (rank 4): one thread per element. */\n"
     "extern \"C\" __global__ void rank4_update(const float *x, const float *y, float *a, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    float s = 0.0f;\n"
     "    for (int l = 0; l < 4; l++)\n"
     "        s += x[i * 4 + l] * y[j * 4 + l];\n"
     "    a[e] += s;\n"
     "}\n",
     "rank4_update|(m*n+255)/256|256||x,y,a,m,n", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32 f64", "householder", "householder_apply", "A = (I - tau*v*v^T)*A via w = A^T*v ($D)",
     "v:in:m;a:inout:m,n;w:out:n;tau:scalar:~0.5~1.5;m:param;n:param", NULL, GCFG, "4*m*n",
     "$S*(2*m*n+m+n)", 1e-3, 1e-3, 0, 0,
     "/* Applies the Householder reflection H = I - tau * v * v^T to the m x n\n"
     " * row-major matrix A from the left: w = A^T * v, then the rank-1 update\n"
     " * A -= tau * v * w^T. */\n"
     "void householder_apply(const $T *v, $T *a, $T *w, $T tau, int m, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            acc += a[i * n + j] * v[i];\n"
     "        w[j] = acc;\n"
     "    }\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        $T tv = tau * v[i];\n"
     "        for (int j = 0; j < n; j++)\n"
     "            a[i * n + j] -= tv * w[j];\n"
     "    }\n}\n",
     "/* First launch, w = A^T * v: one thread per column of A. */\n"
     "extern \"C\" __global__ void householder_w(const $T *v, const $T *a, $T *w, int m, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        acc += a[(long long)i * n + j] * v[i];\n"
     "    w[j] = acc;\n"
     "}\n"
     "\n"
     "/* Second launch, A -= tau * v * w^T: one thread per element of A. */\n"
     "extern \"C\" __global__ void householder_update(const $T *v, $T *a, const $T *w, $T tau, int m, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    const $T tv = tau * v[i];\n"
     "    a[e] -= tv * w[j];\n"
     "}\n",
     "householder_w|(n+255)/256|256||v,a,w,m,n;householder_update|(m*n+255)/256|256||v,a,w,tau,m,n", NULL,
     "block=256;mapping=two-launches,one-column-per-thread+one-element-per-thread"},
    {"f32 f64", "outer3", "outer3", "T[i][j][k] = x[i]*y[j]*z[k], a three-way outer product ($D)",
     "x:in:p;y:in:q;z:in:r;t:out:p,q,r;p:param;q:param;r:param", NULL,
     "small:p=30,q=40,r=50|edge:p=1,q=1,r=1|edge-prime:p=7,q=11,r=13|large:p=512,q=512,r=$(512|256)", "2*p*q*r",
     "$S*(p+q+r+p*q*r)", 0, 0, 0, 0,
     "/* Rank-1 three-way tensor T = x (x) y (x) z: T[i][j][k] = x[i] * y[j] * z[k],\n"
     " * stored p x q x r row-major. */\n"
     "void outer3(const $T *x, const $T *y, const $T *z, $T *t, int p, int q, int r)\n{\n"
     "    for (int i = 0; i < p; i++)\n"
     "        for (int j = 0; j < q; j++) {\n"
     "            $T xy = x[i] * y[j];\n"
     "            for (int k = 0; k < r; k++)\n"
     "                t[(i * q + j) * r + k] = xy * z[k];\n"
     "        }\n}\n",
     "/* T = x (x) y (x) z: one thread per element of T. */\n"
     "extern \"C\" __global__ void outer3(const $T *x, const $T *y, const $T *z, $T *t, int p, int q, int r)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)p * q * r)\n"
     "        return;\n"
     "    const int i = (int)(e / ((long long)q * r)), j = (int)(e / r % q), k = (int)(e % r);\n"
     "    const $T xy = x[i] * y[j];\n"
     "    t[e] = xy * z[k];\n"
     "}\n",
     "outer3|(p*q*r+255)/256|256||x,y,z,t,p,q,r", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f64", "covariance-update", "cov_update", "C += w*(x - mu)*(x - mu)^T on the lower triangle ($D)",
     "x:in:n;mu:in:n;c:inout:n,n;w:scalar:~0.05~0.5;n:param", NULL, SYCFG, "2*n*n+n", "$S*(n*(n+1)+2*n)", 0, 0, 0,
     0,
     "/* Adds one weighted observation to a covariance accumulator:\n"
     " * C += w * (x - mu) (x - mu)^T on the lower triangle of the n x n\n"
     " * row-major C. */\n"
     "void cov_update(const double *x, const double *mu, double *c, double w, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double di = w * (x[i] - mu[i]);\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            c[i * n + j] += di * (x[j] - mu[j]);\n"
     "    }\n}\n",
     "/* C += w * (x - mu) (x - mu)^T on the lower triangle: one thread per\n"
     " * element, those above the diagonal idle. */\n"
     "extern \"C\" __global__ void cov_update(const double *x, const double *mu, double *c, double w, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * n)\n"
     "        return;\n"
     "    const int i = (int)(e / n), j = (int)(e % n);\n"
     "    if (j > i)\n"
     "        return;\n"
     "    const double di = w * (x[i] - mu[i]);\n"
     "    c[e] += di * (x[j] - mu[j]);\n"
     "}\n",
     "cov_update|(n*n+255)/256|256||x,mu,c,w,n", NULL,
     "block=256;mapping=one-element-per-thread,full-square-grid,other-triangle-idle"},
    {"f32", "kron-vector", "kron_vec", "K = A (x) v for a matrix A and a column vector v ($D)",
     "a:in:m,n;v:in:r;k:out:m*r,n;m:param;n:param;r:param", NULL,
     "small:m=40,n=50,r=6|edge:m=1,n=1,r=1|edge-prime:m=13,n=7,r=5|large:m=4096,n=4096,r=16", "m*n*r",
     "$S*(m*n+r+m*n*r)", 0, 0, 0, 0,
     "/* Kronecker product of the m x n matrix A with the length-r column vector\n"
     " * v: K is (m r) x n with K[i r + u][j] = A[i][j] * v[u] (row-major). */\n"
     "void kron_vec(const float *a, const float *v, float *k, int m, int n, int r)\n{\n"
     "    for (int i = 0; i < m; i++)\n"
     "        for (int u = 0; u < r; u++)\n"
     "            for (int j = 0; j < n; j++)\n"
     "                k[(i * r + u) * n + j] = a[i * n + j] * v[u];\n}\n",
     "/* K = A (x) v: one thread per element of K. */\n"
     "extern \"C\" __global__ void kron_vec(const float *a, const float *v, float *k, int m, int n, int r)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)m * r * n)\n"
     "        return;\n"
     "    const int row = (int)(e / n), j = (int)(e % n);\n"
     "    const int i = row / r, u = row % r;\n"
     "    k[e] = a[(long long)i * n + j] * v[u];\n"
     "}\n",
     "kron_vec|(m*r*n+255)/256|256||a,v,k,m,n,r", NULL,
     "block=256;mapping=one-element-per-thread"},
};

static int generate(GenCtx *g)
{
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_ger = {"ger", "linalg", 54, generate};
