/* syrk — symmetric rank-k products: C = alpha*A*A^T + beta*C and
 * C = alpha*A^T*A + beta*C on the lower or upper triangle (row- and
 * column-major, leading dimensions, packed outputs), SYR2K, Hermitian HERK
 * on complex data, int8/int16/int32 Gram matrices, and the full Gram
 * matrices of statistics and kernel methods: A^T*A, A*A^T, weighted and
 * ridge-regularised normal matrices, covariance, weighted covariance and
 * correlation, squared-distance, RBF, Laplacian, polynomial and cosine
 * kernels, batched Gram matrices.  Sums accumulate in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"

#define SCFG "small:n=96,k=64|edge:n=1,k=1|edge-prime:n=37,k=29"
#define SCFG_L SCFG "|large:n=4096,k=4096"
/* A config for the products that accumulate into C (C += A*A^T): a thread
 * past the end of C there adds the zero its guarded loads summed and leaves
 * the guard as it found it, so a missing or loosened bound shows only as an
 * access past the guard zone.  Row n's first n + 1 elements reach over 4 KiB
 * + 256 bytes past the end of C (the guard and its alignment,
 * worker_protocol.h's WP_GUARD_BYTES) for n over 1088, not a multiple of the
 * tile: the CPU backend faults there (int8-lower's and syrk-lower-ld's bounds
 * defects passed every other config, census 2026-12-07). */
#define WIDE_EDGE "|edge-wide:n=1123,k=3"

/* The pairs: one thread per element of the n x n result in 16 x 16 tiles,
 * the tiles of the two operands staged through shared memory, K in steps
 * of TILE; a triangular result lets the tiles wholly in the other triangle
 * exit at once (SETUP) and guards its store.  A_AT is the left operand at
 * (i, pa), B_AT the right one at (pb, j); ACCUM adds one term of the sum
 * in the C program's order (the padding past K adds zeros), in double,
 * which is exact for the integer programs (their sums stay far below
 * 2^53).  TILED2 sums
 * two products, for syr2k.  Results that C computes once and mirrors are
 * computed for both (i, j) and (j, i), which gives the same values.
 * Arguments are string literals, or "%s" to make a printf format of the
 * template for the variants built at run time. */
#define TILED_HEAD(DOC, ENTRY, PARAMS)                                                                   \
    "/* " DOC ".\n"                                                                                     \
    " * One thread per element of the result in 16 x 16 tiles, the tiles of\n"                          \
    " * the operands staged through shared memory. */\n"                                                \
    "#define TILE 16\n\n"                                                                               \
    "extern \"C\" __global__ void " ENTRY "(" PARAMS ")\n{\n"
#define TILED_LOOP(N, K, LOADS, ACCUM, STORE)                                                           \
    "    const int ty = threadIdx.y, tx = threadIdx.x;\n"                                               \
    "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;\n"                           \
    "    double acc = 0;\n"                                                                              \
    "    for (int p0 = 0; p0 < " K "; p0 += TILE) {\n"                                                   \
    "        const int pa = p0 + tx, pb = p0 + ty;\n"                                                    \
    LOADS                                                                                               \
    "        __syncthreads();\n"                                                                        \
    "        for (int p = 0; p < TILE; p++)\n"                                                          \
    "            " ACCUM ";\n"                                                                          \
    "        __syncthreads();\n"                                                                        \
    "    }\n"                                                                                           \
    "    if (i < " N " && j < " N ") {\n"                                                                 \
    "        " STORE ";\n"                                                                              \
    "    }\n}\n"
#define TILED(DOC, ENTRY, PARAMS, T, N, K, SETUP, A_AT, B_AT, ACCUM, STORE)                               \
    TILED_HEAD(DOC, ENTRY, PARAMS)                                                                      \
    "    __shared__ " T " as[TILE][TILE], bs[TILE][TILE];\n" SETUP                                       \
    TILED_LOOP(N, K,                                                                                    \
               "        as[ty][tx] = i < " N " && pa < " K " ? " A_AT " : 0;\n"                             \
               "        bs[ty][tx] = pb < " K " && j < " N " ? " B_AT " : 0;\n",                            \
               ACCUM, STORE)
#define TILED2(DOC, ENTRY, PARAMS, T, N, K, SETUP, A_AT, B_AT, C_AT, D_AT, STORE)                         \
    TILED_HEAD(DOC, ENTRY, PARAMS)                                                                      \
    "    __shared__ " T " as[TILE][TILE], bs[TILE][TILE], cs[TILE][TILE], ds[TILE][TILE];\n" SETUP       \
    TILED_LOOP(N, K,                                                                                    \
               "        as[ty][tx] = i < " N " && pa < " K " ? " A_AT " : 0;\n"                             \
               "        cs[ty][tx] = i < " N " && pa < " K " ? " C_AT " : 0;\n"                             \
               "        bs[ty][tx] = pb < " K " && j < " N " ? " B_AT " : 0;\n"                             \
               "        ds[ty][tx] = pb < " K " && j < " N " ? " D_AT " : 0;\n",                            \
               "acc += as[ty][p] * bs[p][tx] + cs[ty][p] * ds[p][tx]", STORE)
#define PRODUCT "acc += as[ty][p] * bs[p][tx]"
#define LOWER_ONLY "    if (blockIdx.x > blockIdx.y)\n        return; /* the tile lies above the diagonal */\n"
#define UPPER_ONLY "    if (blockIdx.x < blockIdx.y)\n        return; /* the tile lies below the diagonal */\n"
#define SQ_LAUNCH(ENTRY, ARGS) ENTRY "|(n+15)/16,(n+15)/16|16,16||" ARGS
#define SQ_KNOBS "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"

/* syrk / syr2k on one triangle, row-major, C inout. */
static int emit_tri(GenCtx *g, int two, int upper, int trans, const char *dtypes, const char *large)
{
    static char name[48], desc[128], args[200], cfg[256], src[2048];
    const char *ai = trans ? "a[p * n + i]" : "a[i * k + p]", *aj = trans ? "a[p * n + j]" : "a[j * k + p]";
    const char *bi = trans ? "b[p * n + i]" : "b[i * k + p]", *bj = trans ? "b[p * n + j]" : "b[j * k + p]";
    const char *shape = trans ? "k,n" : "n,k";
    snprintf(name, sizeof name, "%s-%s-%s", two ? "syr2k" : "syrk", upper ? "upper" : "lower",
             trans ? "t" : "n");
    const char *prod = trans ? (two ? "A^T*B + B^T*A" : "A^T*A") : (two ? "A*B^T + B*A^T" : "A*A^T");
    snprintf(desc, sizeof desc, "C = alpha*(%s) + beta*C on the %s triangle ($D)", prod, upper ? "upper" : "lower");
    if (two)
        snprintf(args, sizeof args,
                 "a:in:%s;b:in:%s;c:inout:n,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param", shape, shape);
    else
        snprintf(args, sizeof args, "a:in:%s;c:inout:n,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param",
                 shape);
    snprintf(cfg, sizeof cfg, SCFG "|large:%s", large);
    char body[256];
    if (two)
        snprintf(body, sizeof body, "acc += %s * %s + %s * %s;", ai, bj, bi, aj);
    else
        snprintf(body, sizeof body, "acc += %s * %s;", ai, aj);
    snprintf(src, sizeof src,
             "/* Symmetric rank-%sk update of the %s triangle:\n"
             " *     C = alpha * (%s) + beta * C.\n"
             " * A%s %s %s, row-major; C is n x n row-major and only its entries with\n"
             " * j %s i are read or written. */\n"
             "void %s(const $T *a, %s$T *c, $T alpha, $T beta, int n, int k)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int j = %s; j %s; j++) {\n"
             "            double acc = 0.0;\n"
             "            for (int p = 0; p < k; p++)\n"
             "                %s\n"
             "            c[i * n + j] = alpha * acc + beta * c[i * n + j];\n"
             "        }\n    }\n}\n",
             two ? "2" : "", upper ? "upper" : "lower", prod, two ? " and B" : "",
             two ? "are" : "is", trans ? "k x n" : "n x k", upper ? ">=" : "<=", two ? "syr2k" : "syrk",
             two ? "const $T *b, " : "", upper ? "i" : "0", upper ? "< n" : "<= i", body);
    static char cuda[4096], store[160], doc[96];
    snprintf(store, sizeof store,
             "if (j %s i)\n            c[(long long)i * n + j] = alpha * acc + beta * c[(long long)i * n + j]",
             upper ? ">=" : "<=");
    snprintf(doc, sizeof doc, "C = alpha * (%s) + beta * C on the %s triangle", prod, upper ? "upper" : "lower");
    const char *cai = trans ? "a[(long long)pa * n + i]" : "a[(long long)i * k + pa]";
    const char *cbj = trans ? "b[(long long)pb * n + j]" : "b[(long long)j * k + pb]";
    const char *cbi = trans ? "b[(long long)pa * n + i]" : "b[(long long)i * k + pa]";
    const char *caj = trans ? "a[(long long)pb * n + j]" : "a[(long long)j * k + pb]";
    if (two)
        snprintf(cuda, sizeof cuda,
                 TILED2("%s", "syr2k", "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int n, int k", "$T", "n",
                        "k", "%s", "%s", "%s", "%s", "%s", "%s"),
                 doc, upper ? UPPER_ONLY : LOWER_ONLY, cai, cbi, cbj, caj, store); /* in load order */
    else
        snprintf(cuda, sizeof cuda,
                 TILED("%s", "syrk", "const $T *a, $T *c, $T alpha, $T beta, int n, int k", "$T", "n", "k", "%s",
                       "%s", "%s", PRODUCT, "%s"),
                 doc, upper ? UPPER_ONLY : LOWER_ONLY, cai, caj, store);
    Spec sp = {dtypes, name, two ? "syr2k" : "syrk", desc, args, NULL, cfg, two ? "2*n*n*k" : "n*n*k",
               two ? "$S*(2*n*k+n*n)" : "$S*(n*k+n*n)", 1e-2, 1e-3, 0, 0, src, cuda,
               two ? SQ_LAUNCH("syr2k", "a,b,c,alpha,beta,n,k") : SQ_LAUNCH("syrk", "a,c,alpha,beta,n,k"), NULL,
               SQ_KNOBS};
    return spec_emit_all(g, &sp, 1);
}

static const Spec SPECS[] = {
    {"f32 f64", "syrk-colmajor-lower-n", "syrk_colmajor", "C = alpha*A*A^T + beta*C, lower, column-major ($D)",
     "a:in:k,n;c:inout:n,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param", NULL, SCFG_L, "n*n*k",
     "$S*(n*k+n*n)", 1e-2, 1e-3, 0, 0,
     "/* C = alpha * A * A^T + beta * C on the lower triangle, column-major: A is\n"
     " * n x k with element (i, p) at a[p * n + i], C is n x n with (i, j) at\n"
     " * c[j * n + i]; only entries with i >= j are touched. */\n"
     "void syrk_colmajor(const $T *a, $T *c, $T alpha, $T beta, int n, int k)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        for (int i = j; i < n; i++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * n + i] * a[p * n + j];\n"
     "            c[j * n + i] = alpha * acc + beta * c[j * n + i];\n"
     "        }\n    }\n}\n",
     TILED("C = alpha * A * A^T + beta * C, lower, column-major", "syrk_colmajor",
           "const $T *a, $T *c, $T alpha, $T beta, int n, int k", "$T", "n", "k", LOWER_ONLY,
           "a[(long long)pa * n + i]", "a[(long long)pb * n + j]", PRODUCT,
           "if (i >= j)\n            c[(long long)j * n + i] = alpha * acc + beta * c[(long long)j * n + i]"),
     "syrk_colmajor|(n+15)/16,(n+15)/16|16,16||a,c,alpha,beta,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f64", "syrk-colmajor-upper-t", "syrk_colmajor_t", "C = alpha*A^T*A + beta*C, upper, column-major ($D)",
     "a:in:n,k;c:inout:n,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param", NULL, SCFG_L, "n*n*k",
     "$S*(n*k+n*n)", 0, 0, 0, 0,
     "/* C = alpha * A^T * A + beta * C on the upper triangle, column-major: A is\n"
     " * k x n with element (p, i) at a[i * k + p] (so column i is contiguous),\n"
     " * C is n x n with (i, j) at c[j * n + i], touched only for i <= j. */\n"
     "void syrk_colmajor_t(const double *a, double *c, double alpha, double beta, int n, int k)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double *aj = a + j * k;\n"
     "        for (int i = 0; i <= j; i++) {\n"
     "            const double *ai = a + i * k;\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += ai[p] * aj[p];\n"
     "            c[j * n + i] = alpha * acc + beta * c[j * n + i];\n"
     "        }\n    }\n}\n",
     TILED("C = alpha * A^T * A + beta * C, upper, column-major", "syrk_colmajor_t",
           "const double *a, double *c, double alpha, double beta, int n, int k", "double", "n", "k", UPPER_ONLY,
           "a[(long long)i * k + pa]", "a[(long long)j * k + pb]", PRODUCT,
           "if (i <= j)\n            c[(long long)j * n + i] = alpha * acc + beta * c[(long long)j * n + i]"),
     "syrk_colmajor_t|(n+15)/16,(n+15)/16|16,16||a,c,alpha,beta,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "gram-ata", "gram", "G = A^T*A, the full Gram matrix of the columns ($D)",
     "a:in:m,n;gm:out:n,n;m:param;n:param", NULL,
     "small:m=64,n=96|edge:m=1,n=1|edge-prime:m=29,n=37|large:m=65536,n=1024", "m*n*n", "$S*(m*n+n*n)", 1e-2,
     1e-3, 0, 0,
     "/* The Gram matrix of the columns of A (m x n, row-major): G = A^T * A,\n"
     " * n x n, both triangles written (G[j][i] mirrors G[i][j]). */\n"
     "void gram(const $T *a, $T *gm, int m, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int r = 0; r < m; r++)\n"
     "                acc += a[r * n + i] * a[r * n + j];\n"
     "            gm[i * n + j] = acc;\n"
     "            gm[j * n + i] = acc;\n"
     "        }\n    }\n}\n",
     TILED("G = A^T * A", "gram", "const $T *a, $T *gm, int m, int n", "$T", "n", "m", "", "a[(long long)pa * n + i]",
           "a[(long long)pb * n + j]", PRODUCT, "gm[(long long)i * n + j] = acc"),
     "gram|(n+15)/16,(n+15)/16|16,16||a,gm,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "gram-aat", "gram_rows", "G = A*A^T, the full Gram matrix of the rows ($D)",
     "a:in:n,d;gm:out:n,n;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=1,d=1|edge-prime:n=37,d=29|large:n=8192,d=1024", "2*n*n*d", "$S*(n*d+n*n)", 1e-2,
     1e-3, 0, 0,
     "/* G = A * A^T: all pairwise dot products of the n rows of A (n x d,\n"
     " * row-major), computed for every (i, j). */\n"
     "void gram_rows(const $T *a, $T *gm, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < d; p++)\n"
     "                acc += a[i * d + p] * a[j * d + p];\n"
     "            gm[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     TILED("G = A * A^T", "gram_rows", "const $T *a, $T *gm, int n, int d", "$T", "n", "d", "",
           "a[(long long)i * d + pa]", "a[(long long)j * d + pb]", PRODUCT, "gm[(long long)i * n + j] = acc"),
     "gram_rows|(n+15)/16,(n+15)/16|16,16||a,gm,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "covariance", "covariance", "sample covariance of the columns of X ($D)",
     "x:in:n,d;mean:out:d;cov:out:d,d;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=2,d=1|edge-three:n=3,d=3|edge-prime:n=37,d=29|large:n=65536,d=1024", "2*n*d*d",
     "$S*(n*d+d*d+d)", 1e-3, 1e-3, 0, 0,
     "/* Sample covariance of d variables observed n times (x is n x d,\n"
     " * row-major): mean[j] is the column mean and\n"
     " * cov[i][j] = sum_r (x[r][i] - mean[i]) * (x[r][j] - mean[j]) / (n - 1),\n"
     " * with the divisor taken as 1 when n = 1. */\n"
     "void covariance(const $T *x, $T *mean, $T *cov, int n, int d)\n{\n"
     "    for (int j = 0; j < d; j++) {\n"
     "        double s = 0.0;\n"
     "        for (int r = 0; r < n; r++)\n"
     "            s += x[r * d + j];\n"
     "        mean[j] = s / n;\n"
     "    }\n"
     "    double denom = n > 1 ? n - 1 : 1;\n"
     "    for (int i = 0; i < d; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int r = 0; r < n; r++)\n"
     "                acc += (x[r * d + i] - mean[i]) * (x[r * d + j] - mean[j]);\n"
     "            cov[i * d + j] = acc / denom;\n"
     "            cov[j * d + i] = acc / denom;\n"
     "        }\n    }\n}\n",
     "/* First launch: the column means, one thread per column. */\n"
     "extern \"C\" __global__ void column_means(const $T *x, $T *mean, int n, int d)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= d)\n"
     "        return;\n"
     "    double s = 0.0;\n"
     "    for (int r = 0; r < n; r++)\n"
     "        s += x[(long long)r * d + j];\n"
     "    mean[j] = s / n;\n"
     "}\n"
     "\n"
     TILED("Second launch, cov = (X - mean)^T * (X - mean) / (n - 1)", "covariance",
           "const $T *x, const $T *mean, $T *cov, int n, int d", "$T", "d", "n",
           "    const double denom = n > 1 ? n - 1 : 1;\n", "x[(long long)pa * d + i] - mean[i]",
           "x[(long long)pb * d + j] - mean[j]", PRODUCT, "cov[(long long)i * d + j] = acc / denom"),
     "column_means|(d+255)/256|256||x,mean,n,d;covariance|(d+15)/16,(d+15)/16|16,16||x,mean,cov,n,d", NULL,
     "block=16x16;mapping=two-launches,one-column-per-thread+tiled-16x16-shared"},
    {"f32 f64", "correlation", "correlation", "Pearson correlation matrix of the columns of X ($D)",
     "x:in:n,d;corr:out:d,d;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=2,d=2|edge-prime:n=37,d=29|large:n=65536,d=1024", "2*n*d*d+4*n*d",
     "$S*(n*d+d*d)", 1e-3, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdlib.h>\n\n"
     "/* Pearson correlation matrix of d variables observed n times (x is n x d,\n"
     " * row-major): corr[i][j] = sum_r z[r][i] * z[r][j] / n with z the\n"
     " * standardized columns.  A (near-)constant column gets unit scale, so its\n"
     " * correlations are 0 instead of NaN. */\n"
     "void correlation(const $T *x, $T *corr, int n, int d)\n{\n"
     "    double *mean = malloc(sizeof(double) * d);\n"
     "    double *scale = malloc(sizeof(double) * d);\n"
     "    if (!mean || !scale) {\n"
     "        free(mean);\n"
     "        free(scale);\n"
     "        return;\n"
     "    }\n"
     "    for (int j = 0; j < d; j++) {\n"
     "        double s = 0.0, ss = 0.0;\n"
     "        for (int r = 0; r < n; r++)\n"
     "            s += x[r * d + j];\n"
     "        mean[j] = s / n;\n"
     "        for (int r = 0; r < n; r++)\n"
     "            ss += (x[r * d + j] - mean[j]) * (x[r * d + j] - mean[j]);\n"
     "        double sd = sqrt(ss / n);\n"
     "        scale[j] = sd > 1e-6 ? 1.0 / sd : 1.0;\n"
     "    }\n"
     "    for (int i = 0; i < d; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int r = 0; r < n; r++)\n"
     "                acc += (x[r * d + i] - mean[i]) * (x[r * d + j] - mean[j]);\n"
     "            double c = acc / n * scale[i] * scale[j];\n"
     "            corr[i * d + j] = c;\n"
     "            corr[j * d + i] = c;\n"
     "        }\n    }\n"
     "    free(mean);\n"
     "    free(scale);\n}\n",
     "/* First launch: the mean and inverse standard deviation of every column,\n"
     " * one thread per column. */\n"
     "extern \"C\" __global__ void column_stats(const $T *x, double *mean, double *scale, int n, int d)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= d)\n"
     "        return;\n"
     "    double s = 0.0, ss = 0.0;\n"
     "    for (int r = 0; r < n; r++)\n"
     "        s += x[(long long)r * d + j];\n"
     "    const double m = s / n;\n"
     "    for (int r = 0; r < n; r++)\n"
     "        ss += (x[(long long)r * d + j] - m) * (x[(long long)r * d + j] - m);\n"
     "    const double sd = sqrt(ss / n);\n"
     "    mean[j] = m;\n"
     "    scale[j] = sd > 1e-6 ? 1.0 / sd : 1.0;\n"
     "}\n"
     "\n"
     TILED("Second launch, the correlations from the centred columns", "correlation",
           "const $T *x, const double *mean, const double *scale, $T *corr, int n, int d", "double", "d", "n", "",
           "x[(long long)pa * d + i] - mean[i]", "x[(long long)pb * d + j] - mean[j]", PRODUCT,
           "corr[(long long)i * d + j] = acc / n * scale[i] * scale[j]"),
     "column_stats|(d+255)/256|256||x,mean,scale,n,d;"
     "correlation|(d+15)/16,(d+15)/16|16,16||x,mean,scale,corr,n,d", "mean:f64:d;scale:f64:d",
     "block=16x16;mapping=two-launches,one-column-per-thread+tiled-16x16-shared"},
    {"f32 f64", "sqdist", "pairwise_sqdist", "D[i][j] = |x_i - x_j|^2 for all pairs of rows ($D)",
     "x:in:n,d;dist:out:n,n;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=2,d=1|edge-prime:n=37,d=29|large:n=8192,d=512", "3*n*n*d", "$S*(n*d+n*n)", 1e-3,
     1e-4, 0, 0,
     "/* Squared Euclidean distances between all pairs of the n points (rows of\n"
     " * x, n x d): dist[i][j] = sum_p (x[i][p] - x[j][p])^2. */\n"
     "void pairwise_sqdist(const $T *x, $T *dist, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < d; p++) {\n"
     "                double diff = x[i * d + p] - x[j * d + p];\n"
     "                acc += diff * diff;\n"
     "            }\n"
     "            dist[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     TILED("dist[i][j] = |x_i - x_j|^2", "pairwise_sqdist", "const $T *x, $T *dist, int n, int d", "$T", "n", "d", "",
           "x[(long long)i * d + pa]", "x[(long long)j * d + pb]",
           "{\n                const double diff = as[ty][p] - bs[p][tx];\n"
           "                acc += diff * diff;\n            }",
           "dist[(long long)i * n + j] = acc"),
     "pairwise_sqdist|(n+15)/16,(n+15)/16|16,16||x,dist,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "rbf-kernel", "rbf_kernel", "K[i][j] = exp(-gamma*|x_i - x_j|^2) ($D)",
     "x:in:n,d;kmat:out:n,n;gamma:scalar:0.02;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=2,d=1|edge-prime:n=37,d=29|large:n=8192,d=64", "3*n*n*d+n*n", "$S*(n*d+n*n)", 1e-5,
     1e-4, 0, 0,
     "#include <math.h>\n\n"
     "/* Gaussian (RBF) kernel matrix of n points (rows of x, n x d):\n"
     " * K[i][j] = exp(-gamma * |x_i - x_j|^2).  Symmetric, computed for i >= j\n"
     " * and mirrored. */\n"
     "void rbf_kernel(const float *x, float *kmat, float gamma, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < d; p++) {\n"
     "                double diff = x[i * d + p] - x[j * d + p];\n"
     "                acc += diff * diff;\n"
     "            }\n"
     "            float v = expf(-gamma * (float)acc);\n"
     "            kmat[i * n + j] = v;\n"
     "            kmat[j * n + i] = v;\n"
     "        }\n    }\n}\n",
     TILED("K[i][j] = exp(-gamma * |x_i - x_j|^2)", "rbf_kernel",
           "const float *x, float *kmat, float gamma, int n, int d", "float", "n", "d", "",
           "x[(long long)i * d + pa]", "x[(long long)j * d + pb]",
           "{\n                const double diff = as[ty][p] - bs[p][tx];\n"
           "                acc += diff * diff;\n            }",
           "kmat[(long long)i * n + j] = expf(-gamma * (float)acc)"),
     "rbf_kernel|(n+15)/16,(n+15)/16|16,16||x,kmat,gamma,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "laplacian-kernel", "laplacian_kernel", "K[i][j] = exp(-gamma*|x_i - x_j|_1) ($D)",
     "x:in:n,d;kmat:out:n,n;gamma:scalar:0.05;n:param;d:param", NULL,
     "small:n=96,d=32|edge:n=2,d=1|edge-prime:n=37,d=29|large:n=8192,d=32", "3*n*n*d+n*n", "$S*(n*d+n*n)", 1e-5,
     1e-4, 0, 0,
     "#include <math.h>\n\n"
     "/* Laplacian kernel matrix of n points (rows of x, n x d):\n"
     " * K[i][j] = exp(-gamma * sum_p |x[i][p] - x[j][p]|). */\n"
     "void laplacian_kernel(const float *x, float *kmat, float gamma, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < d; p++)\n"
     "                acc += fabs((double)x[i * d + p] - x[j * d + p]);\n"
     "            kmat[i * n + j] = expf(-gamma * (float)acc);\n"
     "        }\n    }\n}\n",
     TILED("K[i][j] = exp(-gamma * |x_i - x_j|_1)", "laplacian_kernel",
           "const float *x, float *kmat, float gamma, int n, int d", "float", "n", "d", "",
           "x[(long long)i * d + pa]", "x[(long long)j * d + pb]", "acc += fabs((double)as[ty][p] - bs[p][tx])",
           "kmat[(long long)i * n + j] = expf(-gamma * (float)acc)"),
     "laplacian_kernel|(n+15)/16,(n+15)/16|16,16||x,kmat,gamma,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f64", "poly-kernel", "poly_kernel", "K = (X*X^T + c)^2, the degree-2 polynomial kernel ($D)",
     "x:in:n,d;kmat:out:n,n;c:scalar:1.0;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=1,d=1|edge-prime:n=37,d=29|large:n=8192,d=512", "2*n*n*d+3*n*n", "$S*(n*d+n*n)", 0,
     0, 0, 0,
     "/* Polynomial kernel of degree 2: K[i][j] = (x_i . x_j + c)^2 for the n rows\n"
     " * of x (n x d, row-major). */\n"
     "void poly_kernel(const double *x, double *kmat, double c, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double dot = c;\n"
     "            for (int p = 0; p < d; p++)\n"
     "                dot += x[i * d + p] * x[j * d + p];\n"
     "            kmat[i * n + j] = dot * dot;\n"
     "            kmat[j * n + i] = dot * dot;\n"
     "        }\n    }\n}\n",
     TILED("K[i][j] = (x_i . x_j + c)^2", "poly_kernel", "const double *x, double *kmat, double c, int n, int d",
           "double", "n", "d", "", "x[(long long)i * d + pa]", "x[(long long)j * d + pb]", PRODUCT,
           "const double dot = c + acc;\n        kmat[(long long)i * n + j] = dot * dot"),
     "poly_kernel|(n+15)/16,(n+15)/16|16,16||x,kmat,c,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "cosine-similarity", "cosine_similarity", "S[i][j] = x_i.x_j / (|x_i| |x_j|) ($D)",
     "x:in:n,d;sim:out:n,n;n:param;d:param", NULL,
     "small:n=96,d=64|edge:n=1,d=1|edge-prime:n=37,d=29|large:n=8192,d=512", "2*n*n*d+4*n*d", "$S*(n*d+n*n)",
     1e-4, 1e-4, 0, 0,
     "#include <math.h>\n#include <stdlib.h>\n\n"
     "/* Cosine similarity of every pair of rows of x (n x d):\n"
     " * sim[i][j] = x_i . x_j / max(|x_i| |x_j|, 1e-12). */\n"
     "void cosine_similarity(const float *x, float *sim, int n, int d)\n{\n"
     "    double *norm = malloc(sizeof(double) * n);\n"
     "    if (!norm)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = 0.0;\n"
     "        for (int p = 0; p < d; p++)\n"
     "            s += (double)x[i * d + p] * x[i * d + p];\n"
     "        norm[i] = sqrt(s);\n"
     "    }\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double dot = 0.0;\n"
     "            for (int p = 0; p < d; p++)\n"
     "                dot += x[i * d + p] * x[j * d + p];\n"
     "            sim[i * n + j] = dot / fmax(norm[i] * norm[j], 1e-12);\n"
     "        }\n    }\n"
     "    free(norm);\n}\n",
     "/* First launch: the norm of every row, one thread per row. */\n"
     "extern \"C\" __global__ void row_norms(const float *x, double *norm, int n, int d)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double s = 0.0;\n"
     "    for (int p = 0; p < d; p++)\n"
     "        s += (double)x[(long long)i * d + p] * x[(long long)i * d + p];\n"
     "    norm[i] = sqrt(s);\n"
     "}\n"
     "\n"
     TILED("Second launch, sim[i][j] = x_i . x_j / max(|x_i| |x_j|, 1e-12)", "cosine_similarity",
           "const float *x, const double *norm, float *sim, int n, int d", "float", "n", "d", "",
           "x[(long long)i * d + pa]", "x[(long long)j * d + pb]", PRODUCT,
           "sim[(long long)i * n + j] = acc / fmax(norm[i] * norm[j], 1e-12)"),
     "row_norms|(n+255)/256|256||x,norm,n,d;"
     "cosine_similarity|(n+15)/16,(n+15)/16|16,16||x,norm,sim,n,d", "norm:f64:n",
     "block=16x16;mapping=two-launches,one-row-per-thread+tiled-16x16-shared"},
    {"f32 f64", "packed-lower", "syrk_packed", "packed lower triangle of A*A^T ($D)",
     "a:in:n,k;cp:out:n*(n+1)/2;n:param;k:param", NULL, SCFG "|large:n=4096,k=4096", "n*n*k",
     "$S*(n*k+n*(n+1)/2)", 1e-2, 1e-3, 0, 0,
     "/* The lower triangle of C = A * A^T (A n x k, row-major) in packed storage,\n"
     " * row by row: C[i][j] (j <= i) goes to cp[i * (i + 1) / 2 + j]. */\n"
     "void syrk_packed(const $T *a, $T *cp, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T *row = cp + i * (i + 1) / 2;\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * a[j * k + p];\n"
     "            row[j] = acc;\n"
     "        }\n    }\n}\n",
     TILED("Packed lower triangle of A * A^T", "syrk_packed", "const $T *a, $T *cp, int n, int k", "$T", "n", "k",
           LOWER_ONLY, "a[(long long)i * k + pa]", "a[(long long)j * k + pb]", PRODUCT,
           "if (j <= i)\n            cp[(long long)i * (i + 1) / 2 + j] = acc"),
     "syrk_packed|(n+15)/16,(n+15)/16|16,16||a,cp,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "packed-upper-t", "syrk_packed_upper", "packed upper triangle of A^T*A ($D)",
     "a:in:k,n;cp:out:n*(n+1)/2;n:param;k:param", NULL, SCFG "|large:n=4096,k=4096", "n*n*k",
     "$S*(n*k+n*(n+1)/2)", 1e-2, 1e-3, 0, 0,
     "/* The upper triangle of C = A^T * A (A k x n, row-major), packed row by\n"
     " * row: row i holds C[i][i..n-1] and starts at i * (2n - i + 1) / 2. */\n"
     "void syrk_packed_upper(const float *a, float *cp, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float *row = cp + i * (2 * n - i + 1) / 2;\n"
     "        for (int j = i; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * n + i] * a[p * n + j];\n"
     "            row[j - i] = acc;\n"
     "        }\n    }\n}\n",
     TILED("Packed upper triangle of A^T * A", "syrk_packed_upper", "const float *a, float *cp, int n, int k",
           "float", "n", "k", UPPER_ONLY, "a[(long long)pa * n + i]", "a[(long long)pb * n + j]", PRODUCT,
           "if (j >= i)\n            cp[(long long)i * (2 * n - i + 1) / 2 + j - i] = acc"),
     "syrk_packed_upper|(n+15)/16,(n+15)/16|16,16||a,cp,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "herk-lower", "herk", "Hermitian C = alpha*A*A^H + beta*C on the lower triangle ($D)",
     "a:in:n,k,2;c:inout:n,n,2;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param", NULL, SCFG_L,
     "4*n*n*k", "$S*2*(n*k+n*n)", 1e-2, 1e-3, 0, 0,
     "/* Hermitian rank-k update of the lower triangle: C = alpha * A * A^H +\n"
     " * beta * C with complex A (n x k) and C (n x n) stored as (re, im) pairs,\n"
     " * row-major, and real alpha, beta.  Diagonal entries stay real. */\n"
     "void herk(const $T *a, $T *c, $T alpha, $T beta, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            for (int p = 0; p < k; p++) {\n"
     "                const $T *x = a + 2 * (i * k + p), *y = a + 2 * (j * k + p);\n"
     "                /* x * conj(y) */\n"
     "                re += (double)x[0] * y[0] + (double)x[1] * y[1];\n"
     "                im += (double)x[1] * y[0] - (double)x[0] * y[1];\n"
     "            }\n"
     "            $T *cij = c + 2 * (i * n + j);\n"
     "            cij[0] = alpha * re + beta * cij[0];\n"
     "            cij[1] = i == j ? 0 : alpha * im + beta * cij[1];\n"
     "        }\n    }\n}\n",
     "/* Hermitian C = alpha * A * A^H + beta * C on the lower triangle: one thread per element\n"
     " * of the triangle (threads of the other triangle idle). */\n"
     "extern \"C\" __global__ void herk(const $T *a, $T *c, $T alpha, $T beta, int n, int k)\n"
     "{\n"
     "    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n || j >= n || j > i)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int p = 0; p < k; p++) {\n"
     "        const $T *x = a + 2 * ((long long)i * k + p), *y = a + 2 * ((long long)j * k + p);\n"
     "        re += (double)x[0] * y[0] + (double)x[1] * y[1];\n"
     "        im += (double)x[1] * y[0] - (double)x[0] * y[1];\n"
     "    }\n"
     "    $T *cij = c + 2 * ((long long)i * n + j);\n"
     "    cij[0] = alpha * re + beta * cij[0];\n"
     "    cij[1] = i == j ? 0 : alpha * im + beta * cij[1];\n"
     "}\n",
     "herk|(n+15)/16,(n+15)/16|16,16||a,c,alpha,beta,n,k", NULL,
     "block=16x16;mapping=one-element-per-thread,other-triangle-idle"},
    {"f32", "herk-upper-t", "herk_upper_t", "Hermitian C = A^H*A on the upper triangle ($D)",
     "a:in:k,n,2;c:inout:n,n,2;n:param;k:param", NULL, SCFG_L, "4*n*n*k", "$S*2*(n*k+n*n)", 1e-2, 1e-3, 0, 0,
     "/* C = A^H * A on the upper triangle (entries j >= i of C) for complex A\n"
     " * (k x n) and C (n x n), numbers stored as (re, im), row-major. */\n"
     "void herk_upper_t(const float *a, float *c, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = i; j < n; j++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            for (int p = 0; p < k; p++) {\n"
     "                const float *x = a + 2 * (p * n + i), *y = a + 2 * (p * n + j);\n"
     "                /* conj(x) * y */\n"
     "                re += (double)x[0] * y[0] + (double)x[1] * y[1];\n"
     "                im += (double)x[0] * y[1] - (double)x[1] * y[0];\n"
     "            }\n"
     "            c[2 * (i * n + j)] = re;\n"
     "            c[2 * (i * n + j) + 1] = i == j ? 0.0f : (float)im;\n"
     "        }\n    }\n}\n",
     "/* Hermitian C = A^H * A on the upper triangle: one thread per element\n"
     " * of the triangle (threads of the other triangle idle). */\n"
     "extern \"C\" __global__ void herk_upper_t(const float *a, float *c, int n, int k)\n"
     "{\n"
     "    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n || j >= n || j < i)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int p = 0; p < k; p++) {\n"
     "        const float *x = a + 2 * ((long long)p * n + i), *y = a + 2 * ((long long)p * n + j);\n"
     "        re += (double)x[0] * y[0] + (double)x[1] * y[1];\n"
     "        im += (double)x[0] * y[1] - (double)x[1] * y[0];\n"
     "    }\n"
     "    c[2 * ((long long)i * n + j)] = re;\n"
     "    c[2 * ((long long)i * n + j) + 1] = i == j ? 0.0f : (float)im;\n"
     "}\n",
     "herk_upper_t|(n+15)/16,(n+15)/16|16,16||a,c,n,k", NULL,
     "block=16x16;mapping=one-element-per-thread,other-triangle-idle"},
    {"i8", "int8-lower", "syrk_i8", "C += A*A^T on the lower triangle, int8 A, int32 C",
     "a:in:n,k;c:inout:n,n:i32;n:param;k:param", "a:i:-128:128;c:i:-100000:100000",
     SCFG WIDE_EDGE "|large:n=4096,k=4096", "n*n*k", "n*k+4*n*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C += A * A^T on the lower triangle (j <= i) for int8 A (n x k) and an\n"
     " * int32 accumulator C (n x n), both row-major; the sums are exact. */\n"
     "void syrk_i8(const int8_t *a, int32_t *c, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * a[j * k + p];\n"
     "            c[i * n + j] += acc;\n"
     "        }\n    }\n}\n",
     TILED("C += A * A^T on the lower triangle, int8 A, exact int32 sums", "syrk_i8",
           "const signed char *a, int *c, int n, int k", "signed char", "n", "k", LOWER_ONLY,
           "a[(long long)i * k + pa]", "a[(long long)j * k + pb]", PRODUCT,
           "if (j <= i)\n            c[(long long)i * n + j] += (int)acc"),
     "syrk_i8|(n+15)/16,(n+15)/16|16,16||a,c,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"i32", "int32-upper-t", "syrk_i32", "C = A^T*A on the upper triangle, int32",
     "a:in:k,n;c:inout:n,n;n:param;k:param", "a:i:-1000:1000", SCFG "|large:n=4096,k=2048", "n*n*k",
     "4*(n*k+n*n)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C = A^T * A on the upper triangle (j >= i) for a 32-bit integer A (k x n,\n"
     " * row-major) whose entries are below 1000 in magnitude. */\n"
     "void syrk_i32(const int32_t *a, int32_t *c, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = i; j < n; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * n + i] * a[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     TILED("C = A^T * A on the upper triangle, int32", "syrk_i32", "const int *a, int *c, int n, int k", "int", "n",
           "k", UPPER_ONLY, "a[(long long)pa * n + i]", "a[(long long)pb * n + j]", PRODUCT,
           "if (j >= i)\n            c[(long long)i * n + j] = (int)acc"),
     "syrk_i32|(n+15)/16,(n+15)/16|16,16||a,c,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"i16", "int16-gram", "gram_i16", "G = A*A^T for int16 A, int64 results",
     "a:in:n,k;gm:out:n,n:i64;n:param;k:param", "a:i:-32768:32768", SCFG "|large:n=4096,k=4096", "n*n*k",
     "2*n*k+8*n*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* G = A * A^T for 16-bit A (n x k, row-major), exact in 64 bits: each\n"
     " * product fits 31 bits and the row sums need up to 31 + log2(k). */\n"
     "void gram_i16(const int16_t *a, int64_t *gm, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            int64_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * a[j * k + p];\n"
     "            gm[i * n + j] = acc;\n"
     "            gm[j * n + i] = acc;\n"
     "        }\n    }\n}\n",
     TILED("G = A * A^T, int16 A, exact int64 sums", "gram_i16", "const short *a, long long *gm, int n, int k",
           "short", "n", "k", "", "a[(long long)i * k + pa]", "a[(long long)j * k + pb]", PRODUCT,
           "gm[(long long)i * n + j] = (long long)acc"),
     "gram_i16|(n+15)/16,(n+15)/16|16,16||a,gm,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "batched-mirror", "syrk_batched", "C[t] = A[t]*A[t]^T for a batch, lower computed and mirrored ($D)",
     "a:in:batch,n,k;c:out:batch,n,n;batch:param;n:param;k:param", NULL,
     "small:batch=8,n=32,k=16|edge:batch=1,n=1,k=1|edge-prime:batch=3,n=13,k=7|large:batch=64,n=1024,k=1024",
     "batch*n*n*k", "$S*batch*(n*k+n*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t] * A[t]^T for a batch of n x k matrices (row-major): each\n"
     " * lower-triangle entry is computed once and copied to its mirror. */\n"
     "void syrk_batched(const $T *a, $T *c, int batch, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * n * k;\n"
     "        $T *ct = c + (size_t)t * n * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            for (int j = 0; j <= i; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * at[j * k + p];\n"
     "                ct[i * n + j] = acc;\n"
     "                ct[j * n + i] = acc;\n"
     "            }\n        }\n    }\n}\n",
     TILED("C[t] = A[t] * A[t]^T, t = blockIdx.z", "syrk_batched", "const $T *a, $T *c, int batch, int n, int k",
           "$T", "n", "k", "    const $T *at = a + (long long)blockIdx.z * n * k;\n", "at[i * k + pa]",
           "at[j * k + pb]", PRODUCT, "c[((long long)blockIdx.z * n + i) * n + j] = acc"),
     "syrk_batched|(n+15)/16,(n+15)/16,batch|16,16||a,c,batch,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "batched-self-similarity", "self_similarity", "S[t] = X[t]*X[t]^T / d for a batch ($D)",
     "x:in:batch,n,d;s:out:batch,n,n;batch:param;n:param;d:param", NULL,
     "small:batch=8,n=32,d=16|edge:batch=1,n=1,d=1|edge-prime:batch=3,n=13,d=7|large:batch=32,n=2048,d=128",
     "2*batch*n*n*d", "$S*batch*(n*d+n*n)", 1e-4, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Self-similarity matrices: S[t][i][j] = x_i . x_j / d for the n rows of\n"
     " * each batch entry X[t] (n x d). */\n"
     "void self_similarity(const float *x, float *s, int batch, int n, int d)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *xt = x + (size_t)t * n * d;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < d; p++)\n"
     "                    acc += xt[i * d + p] * xt[j * d + p];\n"
     "                s[((size_t)t * n + i) * n + j] = acc / d;\n"
     "            }\n        }\n    }\n}\n",
     TILED("S[t] = X[t] * X[t]^T / d, t = blockIdx.z", "self_similarity",
           "const float *x, float *s, int batch, int n, int d", "float", "n", "d",
           "    const float *xt = x + (long long)blockIdx.z * n * d;\n", "xt[i * d + pa]", "xt[j * d + pb]",
           PRODUCT, "s[((long long)blockIdx.z * n + i) * n + j] = acc / d"),
     "self_similarity|(n+15)/16,(n+15)/16,batch|16,16||x,s,batch,n,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "weighted-gram", "weighted_gram", "G = A^T*diag(w)*A ($D)",
     "a:in:m,n;w:in:m;gm:out:n,n;m:param;n:param", "w:u:0:1",
     "small:m=64,n=96|edge:m=1,n=1|edge-prime:m=29,n=37|large:m=65536,n=1024", "2*m*n*n", "$S*(m*n+m+n*n)",
     1e-2, 1e-3, 0, 0,
     "/* Weighted normal matrix G = A^T * diag(w) * A (A m x n row-major, w the m\n"
     " * observation weights), as in weighted least squares. */\n"
     "void weighted_gram(const $T *a, const $T *w, $T *gm, int m, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int r = 0; r < m; r++)\n"
     "                acc += w[r] * a[r * n + i] * a[r * n + j];\n"
     "            gm[i * n + j] = acc;\n"
     "            gm[j * n + i] = acc;\n"
     "        }\n    }\n}\n",
     TILED("G = A^T * diag(w) * A", "weighted_gram", "const $T *a, const $T *w, $T *gm, int m, int n", "$T", "n", "m",
           "", "w[pa] * a[(long long)pa * n + i]", "a[(long long)pb * n + j]", PRODUCT,
           "gm[(long long)i * n + j] = acc"),
     "weighted_gram|(n+15)/16,(n+15)/16|16,16||a,w,gm,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "ridge-normal", "ridge_normal", "G = A^T*A + lambda*I ($D)",
     "a:in:m,n;gm:out:n,n;lambda:scalar:~0.1~2;m:param;n:param", NULL,
     "small:m=64,n=96|edge:m=1,n=1|edge-prime:m=29,n=37|large:m=65536,n=1024", "m*n*n", "$S*(m*n+n*n)", 1e-2,
     1e-3, 0, 0,
     "/* The ridge-regression normal matrix G = A^T * A + lambda * I for A m x n\n"
     " * (row-major); G is n x n, both triangles written. */\n"
     "void ridge_normal(const $T *a, $T *gm, $T lambda, int m, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = i == j ? lambda : 0.0;\n"
     "            for (int r = 0; r < m; r++)\n"
     "                acc += a[r * n + i] * a[r * n + j];\n"
     "            gm[i * n + j] = acc;\n"
     "            gm[j * n + i] = acc;\n"
     "        }\n    }\n}\n",
     TILED("G = A^T * A + lambda * I", "ridge_normal", "const $T *a, $T *gm, $T lambda, int m, int n", "$T", "n", "m",
           "", "a[(long long)pa * n + i]", "a[(long long)pb * n + j]", PRODUCT,
           "gm[(long long)i * n + j] = (i == j ? lambda : 0.0) + acc"),
     "ridge_normal|(n+15)/16,(n+15)/16|16,16||a,gm,lambda,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "syrk-lower-ld", "syrk_ld", "C = A*A^T + C on the lower triangle with leading dimensions ($D)",
     "a:in:n,lda;c:inout:n,ldc;n:param;k:param;lda:param;ldc:param", NULL,
     "small:n=96,k=64,lda=72,ldc=100|edge:n=1,k=1,lda=1,ldc=1|edge-prime:n=37,k=29,lda=31,ldc=41|"
     "edge-wide:n=1123,k=3,lda=5,ldc=1125|large:n=4000,k=4000,lda=4096,ldc=4096", /* WIDE_EDGE, padded */
     "n*n*k", "$S*(n*k+n*n)", 1e-2, 1e-3, 0, 0,
     "/* C += A * A^T on the lower triangle, with A (n x k) and C (n x n) row-major\n"
     " * in padded arrays: A[i][p] is a[i * lda + p], C[i][j] is c[i * ldc + j]. */\n"
     "void syrk_ld(const float *a, float *c, int n, int k, int lda, int ldc)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = c[i * ldc + j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * lda + p] * a[j * lda + p];\n"
     "            c[i * ldc + j] = acc;\n"
     "        }\n    }\n}\n",
     TILED("C += A * A^T on the lower triangle, leading dimensions", "syrk_ld",
           "const float *a, float *c, int n, int k, int lda, int ldc", "float", "n", "k", LOWER_ONLY,
           "a[(long long)i * lda + pa]", "a[(long long)j * lda + pb]", PRODUCT,
           "if (j <= i)\n            c[(long long)i * ldc + j] = c[(long long)i * ldc + j] + acc"),
     "syrk_ld|(n+15)/16,(n+15)/16|16,16||a,c,n,k,lda,ldc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f64", "syrk-upper-t-ld", "syrk_t_ld", "C = alpha*A^T*A + beta*C on the upper triangle, leading dimensions ($D)",
     "a:in:k,lda;c:inout:n,ldc;alpha:scalar:~0.5~2;beta:scalar:~-1~1;n:param;k:param;lda:param;ldc:param", NULL,
     "small:n=96,k=64,lda=100,ldc=96|edge:n=1,k=1,lda=1,ldc=1|edge-prime:n=37,k=29,lda=40,ldc=37|"
     "large:n=4000,k=4000,lda=4096,ldc=4096",
     "n*n*k", "$S*(n*k+n*n)", 0, 0, 0, 0,
     "/* C = alpha * A^T * A + beta * C on the upper triangle; A is k x n and C is\n"
     " * n x n, row-major in padded arrays (A[p][i] is a[p * lda + i], C[i][j] is\n"
     " * c[i * ldc + j]). */\n"
     "void syrk_t_ld(const double *a, double *c, double alpha, double beta, int n, int k, int lda, int ldc)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = i; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * lda + i] * a[p * lda + j];\n"
     "            c[i * ldc + j] = alpha * acc + beta * c[i * ldc + j];\n"
     "        }\n    }\n}\n",
     TILED("C = alpha * A^T * A + beta * C on the upper triangle, leading dimensions", "syrk_t_ld",
           "const double *a, double *c, double alpha, double beta, int n, int k, int lda, int ldc", "double", "n",
           "k", UPPER_ONLY, "a[(long long)pa * lda + i]", "a[(long long)pb * lda + j]", PRODUCT,
           "if (j >= i)\n            c[(long long)i * ldc + j] = alpha * acc + beta * c[(long long)i * ldc + j]"),
     "syrk_t_ld|(n+15)/16,(n+15)/16|16,16||a,c,alpha,beta,n,k,lda,ldc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32 f64", "syrk-lower-alpha", "syrk_alpha", "C = alpha*A*A^T on the lower triangle, no beta ($D)",
     "a:in:n,k;c:inout:n,n;alpha:scalar:~0.5~2;n:param;k:param", NULL, "small:n=64,k=96|edge:n=1,k=1|"
     "edge-prime:n=37,k=29|large:n=8192,k=1024", "n*n*k", "$S*(n*k+n*n/2)", 1e-2, 1e-3, 0, 0,
     "/* Overwrites the lower triangle of C with alpha * A * A^T (A n x k,\n"
     " * row-major); the strict upper triangle of C is left as it was. */\n"
     "void syrk_alpha(const $T *a, $T *c, $T alpha, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const $T *ai = a + i * k;\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            const $T *aj = a + j * k;\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += ai[p] * aj[p];\n"
     "            c[i * n + j] = alpha * acc;\n"
     "        }\n    }\n}\n",
     TILED("C = alpha * A * A^T on the lower triangle", "syrk_alpha", "const $T *a, $T *c, $T alpha, int n, int k",
           "$T", "n", "k", LOWER_ONLY, "a[(long long)i * k + pa]", "a[(long long)j * k + pb]", PRODUCT,
           "if (j <= i)\n            c[(long long)i * n + j] = alpha * acc"),
     "syrk_alpha|(n+15)/16,(n+15)/16|16,16||a,c,alpha,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f32", "syr2k-full", "syr2k_full", "C = A^T*B + B^T*A, both triangles ($D)",
     "a:in:k,n;b:in:k,n;c:out:n,n;n:param;k:param", NULL, SCFG_L, "2*n*n*k", "$S*(2*n*k+n*n)", 1e-2, 1e-3, 0, 0,
     "/* The symmetric matrix C = A^T * B + B^T * A (A, B k x n, row-major),\n"
     " * computed on the lower triangle and mirrored. */\n"
     "void syr2k_full(const float *a, const float *b, float *c, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * n + i] * b[p * n + j] + b[p * n + i] * a[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "            c[j * n + i] = acc;\n"
     "        }\n    }\n}\n",
     TILED2("C = A^T * B + B^T * A", "syr2k_full", "const float *a, const float *b, float *c, int n, int k", "float",
            "n", "k", "", "a[(long long)pa * n + i]", "b[(long long)pb * n + j]", "b[(long long)pa * n + i]",
            "a[(long long)pb * n + j]", "c[(long long)i * n + j] = acc"),
     "syr2k_full|(n+15)/16,(n+15)/16|16,16||a,b,c,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
    {"f64", "weighted-covariance", "weighted_cov", "weighted covariance of the columns of X ($D)",
     "x:in:n,d;w:in:n;cov:out:d,d;n:param;d:param", "w:u:0.1:1",
     "small:n=96,d=64|edge:n=2,d=1|edge-prime:n=37,d=29|large:n=65536,d=1024", "3*n*d*d", "$S*(n*d+n+d*d)", 0,
     0, 0, 0,
     "#include <stdlib.h>\n\n"
     "/* Weighted covariance of d variables from n weighted observations (x n x d,\n"
     " * row-major, weights w > 0): with W = sum w and m = sum_r w[r] x[r] / W,\n"
     " * cov[i][j] = sum_r w[r] (x[r][i] - m[i]) (x[r][j] - m[j]) / W. */\n"
     "void weighted_cov(const double *x, const double *w, double *cov, int n, int d)\n{\n"
     "    double *mean = calloc((size_t)d, sizeof(double));\n"
     "    if (!mean)\n"
     "        return;\n"
     "    double wsum = 0.0;\n"
     "    for (int r = 0; r < n; r++) {\n"
     "        wsum += w[r];\n"
     "        for (int j = 0; j < d; j++)\n"
     "            mean[j] += w[r] * x[r * d + j];\n"
     "    }\n"
     "    for (int j = 0; j < d; j++)\n"
     "        mean[j] /= wsum;\n"
     "    for (int i = 0; i < d; i++) {\n"
     "        for (int j = 0; j <= i; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int r = 0; r < n; r++)\n"
     "                acc += w[r] * (x[r * d + i] - mean[i]) * (x[r * d + j] - mean[j]);\n"
     "            cov[i * d + j] = acc / wsum;\n"
     "            cov[j * d + i] = acc / wsum;\n"
     "        }\n    }\n"
     "    free(mean);\n}\n",
     "/* First launch: the weight sum and the weighted column means, one thread\n"
     " * per column (each forms the weight sum in the C program's order). */\n"
     "extern \"C\" __global__ void weighted_means(const double *x, const double *w, double *mean, "
     "double *wsum, int n,\n"
     "                                          int d)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= d)\n"
     "        return;\n"
     "    double ws = 0.0, s = 0.0;\n"
     "    for (int r = 0; r < n; r++) {\n"
     "        ws += w[r];\n"
     "        s += w[r] * x[(long long)r * d + j];\n"
     "    }\n"
     "    mean[j] = s / ws;\n"
     "    if (j == 0)\n"
     "        wsum[0] = ws;\n"
     "}\n"
     "\n"
     TILED("Second launch, the weighted products of the centred columns", "weighted_cov",
           "const double *x, const double *w, const double *mean, const double *wsum, double *cov, int n, int d",
           "double", "d", "n", "", "w[pa] * (x[(long long)pa * d + i] - mean[i])",
           "x[(long long)pb * d + j] - mean[j]", PRODUCT, "cov[(long long)i * d + j] = acc / wsum[0]"),
     "weighted_means|(d+255)/256|256||x,w,mean,wsum,n,d;"
     "weighted_cov|(d+15)/16,(d+15)/16|16,16||x,w,mean,wsum,cov,n,d", "mean:f64:d;wsum:f64:1",
     "block=16x16;mapping=two-launches,one-column-per-thread+tiled-16x16-shared"},
};

static int generate(GenCtx *g)
{
    static const char *const large[] = {"n=4096,k=4096", "n=8192,k=1024", "n=2048,k=16384", "n=4096,k=2048"};
    int s = 0;
    for (int upper = 0; upper < 2; upper++)
        for (int trans = 0; trans < 2; trans++)
            if (emit_tri(g, 0, upper, trans, "f32 f64", large[s++ % 4]))
                return -1;
    for (int upper = 0; upper < 2; upper++)
        if (emit_tri(g, 1, upper, 0, "f32 f64", large[s++ % 4]))
            return -1;
    if (emit_tri(g, 1, 0, 1, "f32 f64", large[s++ % 4]) || emit_tri(g, 1, 1, 1, "f64", large[s % 4]))
        return -1;
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_syrk = {"syrk", "linalg", 54, generate};
