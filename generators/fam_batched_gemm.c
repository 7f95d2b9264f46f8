/* batched_gemm — products of many matrices at once: contiguous batches
 * with every op(A), op(B) combination, strided batches (stride 0
 * broadcasts), one operand shared by the whole batch (weights, linear
 * layers with bias), alpha/beta and per-batch alphas, epilogues, fixed tiny
 * sizes (2x2 .. 8x8, 16x16, 32x32) over millions of batches, attention
 * scores and P*V in single- and multi-head layouts, int8 and complex
 * batches, column-major batches, batch-reduced products, grouped (MoE)
 * products with row offsets, 4D broadcasts and einsum layouts with the
 * batch in the middle.  Floating-point sums accumulate in double except in
 * the tiny fixed-size kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"

#define BCFG "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=1,n=1,k=1|edge-prime:batch=3,m=7,n=13,k=5|" \
             "large:batch=64,m=1024,n=1024,k=1024"
/* BCFG with a config for the products that accumulate into C (C[t] +=
 * ...): a thread past the end of C there adds the zero its guarded loads
 * summed and leaves the guard as it found it, so a missing or loosened
 * bound shows only as an access past the guard zone.  Rows of C over 4 KiB
 * + 256 bytes (the guard and its alignment, worker_protocol.h's
 * WP_GUARD_BYTES) with m not a multiple of the tile put the last batch
 * entry's row m there: the CPU backend faults on it (int32-accumulate's and
 * per-batch-alpha's bounds defects passed every other config, census
 * 2026-12-07). */
#define BCFG_WIDE "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=1,n=1,k=1|edge-prime:batch=3,m=7,n=13,k=5|" \
                  "edge-wide:batch=2,m=3,n=1201,k=5|large:batch=64,m=1024,n=1024,k=1024"
#define BCOST "2*batch*m*n*k", "$S*batch*(m*k+k*n+m*n)"

/* The pairs: one thread per element of C[t] in 16 x 16 tiles with the batch
 * entry t = blockIdx.z, the tiles of op(A) and op(B) staged through shared
 * memory, K in steps of TILE.  SETUP (statements, each line indented and
 * ending in a newline) finds the batch entry's matrices; A_AT is op(A) at
 * (i, pa), B_AT op(B) at (pb, j); each thread sums its products in the C
 * program's order (the padding past K adds zeros) in ACC, and STORE writes
 * C[t] at (i, j) for C of M x N.  Arguments are string literals, or "%s" to
 * make a printf format of the template for variants built at run time. */
#define BTILED(DOC, ENTRY, PARAMS, TA, TB, ACC, M, N, K, SETUP, A_AT, B_AT, STORE)                         \
    "/* " DOC ": one thread per element of\n"                                                           \
    " * C[t] in 16 x 16 tiles, t = blockIdx.z, the tiles of A and B staged\n"                            \
    " * through shared memory. */\n"                                                                    \
    "#define TILE 16\n\n"                                                                               \
    "extern \"C\" __global__ void " ENTRY "(" PARAMS ")\n{\n"                                            \
    "    __shared__ " TA " as[TILE][TILE];\n"                                                          \
    "    __shared__ " TB " bs[TILE][TILE];\n"                                                          \
    "    const int ty = threadIdx.y, tx = threadIdx.x;\n"                                               \
    "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx, t = blockIdx.z;\n"            \
    SETUP                                                                                               \
    "    " ACC " acc = 0;\n"                                                                             \
    "    for (int p0 = 0; p0 < " K "; p0 += TILE) {\n"                                                   \
    "        const int pa = p0 + tx, pb = p0 + ty;\n"                                                    \
    "        as[ty][tx] = i < " M " && pa < " K " ? " A_AT " : 0;\n"                                       \
    "        bs[ty][tx] = pb < " K " && j < " N " ? " B_AT " : 0;\n"                                       \
    "        __syncthreads();\n"                                                                        \
    "        for (int p = 0; p < TILE; p++)\n"                                                          \
    "            acc += as[ty][p] * bs[p][tx];\n"                                                       \
    "        __syncthreads();\n"                                                                        \
    "    }\n"                                                                                           \
    "    if (i < " M " && j < " N ") {\n"                                                                 \
    "        " STORE ";\n"                                                                              \
    "    }\n}\n"
/* The launch of a BTILED kernel: Z batch entries of M x N. */
#define BT_LAUNCH(ENTRY, M, N, Z, ARGS) ENTRY "|(" N "+15)/16,(" M "+15)/16," Z "|16,16||" ARGS
#define BT_KNOBS "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"

static int emit_ops(GenCtx *g, int ta, int tb, const char *dtypes)
{
    static char name[32], args[200], src[2048], desc[96];
    snprintf(name, sizeof name, "contiguous-%c%c", "nt"[ta], "nt"[tb]);
    snprintf(desc, sizeof desc, "C[b] = %s*%s for a contiguous batch ($D)", ta ? "A[b]^T" : "A[b]",
             tb ? "B[b]^T" : "B[b]");
    snprintf(args, sizeof args, "a:in:batch,%s;b:in:batch,%s;c:out:batch,m,n;batch:param;m:param;n:param;k:param",
             ta ? "k,m" : "m,k", tb ? "n,k" : "k,n");
    snprintf(src, sizeof src,
             "#include <stddef.h>\n\n"
             "/* C[t] = %s * %s for t < batch.  Each matrix is row-major and the batch\n"
             " * is contiguous: A[t] is %s, B[t] is %s, C[t] is m x n. */\n"
             "void bmm(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
             "    for (int t = 0; t < batch; t++) {\n"
             "        const $T *at = a + (size_t)t * m * k;\n"
             "        const $T *bt = b + (size_t)t * k * n;\n"
             "        $T *ct = c + (size_t)t * m * n;\n"
             "        for (int i = 0; i < m; i++) {\n"
             "            for (int j = 0; j < n; j++) {\n"
             "                double acc = 0.0;\n"
             "                for (int p = 0; p < k; p++)\n"
             "                    acc += at[%s] * bt[%s];\n"
             "                ct[i * n + j] = acc;\n"
             "            }\n        }\n    }\n}\n",
             ta ? "A[t]^T" : "A[t]", tb ? "B[t]^T" : "B[t]", ta ? "k x m" : "m x k", tb ? "n x k" : "k x n",
             ta ? "p * m + i" : "i * k + p", tb ? "j * k + p" : "p * n + j");
    static char cuda[4096];
    snprintf(cuda, sizeof cuda,
             BTILED("%s", "bmm", "const $T *a, const $T *b, $T *c, int batch, int m, int n, int k", "$T", "$T",
                    "double", "m", "n", "k", "%s", "%s", "%s", "c[((long long)t * m + i) * n + j] = acc"),
             "C[t] = op(A[t]) * op(B[t])",
             "    const $T *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n",
             ta ? "at[pa * m + i]" : "at[i * k + pa]", tb ? "bt[j * k + pb]" : "bt[pb * n + j]");
    Spec sp = {dtypes, name, "bmm", desc, args, NULL, BCFG, BCOST, 1e-3, 1e-3, 0, 0, src, cuda,
               BT_LAUNCH("bmm", "m", "n", "batch", "a,b,c,batch,m,n,k"), NULL, BT_KNOBS};
    return spec_emit_all(g, &sp, 1);
}

/* Fixed-size batches: n x n matrices, the loops over n written with the literal size. */
static int emit_fixed(GenCtx *g, int n, const char *dtypes, const char *large)
{
    static char name[32], args[128], cfg[256], src[2048], desc[96], cost[2][64];
    snprintf(name, sizeof name, "fixed-%dx%d", n, n);
    snprintf(desc, sizeof desc, "C[t] = A[t]*B[t] for a batch of %dx%d matrices ($D)", n, n);
    snprintf(args, sizeof args, "a:in:batch,%d,%d;b:in:batch,%d,%d;c:out:batch,%d,%d;batch:param", n, n, n, n, n,
             n);
    snprintf(cfg, sizeof cfg, "small:batch=%d|edge:batch=1|edge-prime:batch=13|large:batch=%s",
             n >= 32 ? 20 : n >= 16 ? 100 : 1000, large);
    snprintf(cost[0], sizeof cost[0], "%d*batch", 2 * n * n * n);
    snprintf(cost[1], sizeof cost[1], "$S*%d*batch", 3 * n * n);
    if (n == 2) {
        snprintf(src, sizeof src,
                 "/* C[t] = A[t] * B[t] for a batch of 2 x 2 matrices, each stored row-major\n"
                 " * as four consecutive values (a00, a01, a10, a11). */\n"
                 "void matmul2x2_batched(const $T *a, const $T *b, $T *c, int batch)\n{\n"
                 "    for (int t = 0; t < batch; t++) {\n"
                 "        const $T *x = a + 4 * t, *y = b + 4 * t;\n"
                 "        $T *z = c + 4 * t;\n"
                 "        z[0] = x[0] * y[0] + x[1] * y[2];\n"
                 "        z[1] = x[0] * y[1] + x[1] * y[3];\n"
                 "        z[2] = x[2] * y[0] + x[3] * y[2];\n"
                 "        z[3] = x[2] * y[1] + x[3] * y[3];\n"
                 "    }\n}\n");
    } else {
        snprintf(src, sizeof src,
                 "/* C[t] = A[t] * B[t] for a batch of %d x %d row-major matrices stored back\n"
                 " * to back (%d values each). */\n"
                 "void matmul%dx%d_batched(const $T *a, const $T *b, $T *c, int batch)\n{\n"
                 "    for (int t = 0; t < batch; t++) {\n"
                 "        const $T *x = a + %d * t, *y = b + %d * t;\n"
                 "        $T *z = c + %d * t;\n"
                 "        for (int i = 0; i < %d; i++) {\n"
                 "            for (int j = 0; j < %d; j++) {\n"
                 "                $T acc = 0;\n"
                 "                for (int p = 0; p < %d; p++)\n"
                 "                    acc += x[i * %d + p] * y[p * %d + j];\n"
                 "                z[i * %d + j] = acc;\n"
                 "            }\n        }\n    }\n}\n",
                 n, n, n * n, n, n, n * n, n * n, n * n, n, n, n, n, n, n);
    }
    char entry[32];
    snprintf(entry, sizeof entry, "matmul%dx%d_batched", n, n);
    static char cuda[2048], launch[128];
    snprintf(cuda, sizeof cuda,
             "/* C[t] = A[t] * B[t] for %d x %d matrices: one thread per element of\n"
             " * C, summed in the element type as the C program does. */\n"
             "extern \"C\" __global__ void %s(const $T *a, const $T *b, $T *c, int batch)\n{\n"
             "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (e >= (long long)batch * %d)\n        return;\n"
             "    const int i = (int)(e %% %d) / %d, j = (int)(e %% %d);\n"
             "    const $T *x = a + e / %d * %d, *y = b + e / %d * %d;\n"
             "    $T acc = 0;\n"
             "    for (int p = 0; p < %d; p++)\n"
             "        acc += x[i * %d + p] * y[p * %d + j];\n"
             "    c[e] = acc;\n}\n",
             n, n, entry, n * n, n * n, n, n, n * n, n * n, n * n, n * n, n, n, n);
    snprintf(launch, sizeof launch, "%s|(batch*%d+255)/256|256||a,b,c,batch", entry, n * n);
    Spec sp = {dtypes, name, entry, desc, args, NULL, cfg, cost[0], cost[1], n >= 16 ? 1e-4 : 0,
               n >= 16 ? 1e-4 : 0, 0, 0, src, cuda, launch, NULL, "block=256;mapping=one-element-per-thread"};
    return spec_emit_all(g, &sp, 1);
}

static const Spec SPECS[] = {
    {"f32 f64", "strided", "gemm_strided_batched",
     "C[t] = alpha*A[t]*B[t] + beta*C[t] with batch strides sa, sb, sc (0 broadcasts) ($D)",
     "a:in:(batch-1)*sa+m*k;b:in:(batch-1)*sb+k*n;c:inout:(batch-1)*sc+m*n;alpha:scalar:~0.5~2;"
     "beta:scalar:~-1~1;batch:param;m:param;n:param;k:param;sa:param;sb:param;sc:param",
     NULL,
     "small:batch=8,m=32,n=24,k=16,sa=600,sb=400,sc=800|edge:batch=1,m=1,n=1,k=1,sa=1,sb=1,sc=1|"
     "edge-broadcast:batch=5,m=7,n=13,k=5,sa=0,sb=70,sc=91|edge-prime:batch=3,m=7,n=13,k=5,sa=37,sb=67,sc=97|"
     "large:batch=64,m=1024,n=1024,k=1024,sa=1048576,sb=1048576,sc=1049600",
     "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Strided batched GEMM: C[t] = alpha * A[t] * B[t] + beta * C[t] where\n"
     " * A[t] starts at a + t * sa, B[t] at b + t * sb and C[t] at c + t * sc;\n"
     " * every matrix is row-major (A m x k, B k x n, C m x n).  A stride of 0\n"
     " * shares one input across the batch; sc >= m * n. */\n"
     "void gemm_strided_batched(const $T *a, const $T *b, $T *c, $T alpha, $T beta, int batch, int m, int n,\n"
     "                          int k, int sa, int sb, int sc)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * sa;\n"
     "        const $T *bt = b + (size_t)t * sb;\n"
     "        $T *ct = c + (size_t)t * sc;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = alpha * acc + beta * ct[i * n + j];\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = alpha * A[t] * B[t] + beta * C[t], batch strides", "gemm_strided_batched",
            "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int batch, int m, int n, int k, int sa, "
            "int sb, int sc",
            "$T", "$T", "double", "m", "n", "k",
            "    const $T *at = a + (long long)t * sa, *bt = b + (long long)t * sb;\n"
            "    $T *ct = c + (long long)t * sc;\n",
            "at[i * k + pa]", "bt[pb * n + j]", "ct[i * n + j] = alpha * acc + beta * ct[i * n + j]"),
     "gemm_strided_batched|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,alpha,beta,batch,m,n,k,sa,sb,sc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "shared-left", "bmm_shared_a", "C[t] = A*B[t], one A for the whole batch ($D)",
     "a:in:m,k;b:in:batch,k,n;c:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL, BCFG,
     "2*batch*m*n*k", "$S*(m*k+batch*(k*n+m*n))", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A * B[t]: the same m x k matrix A applied to every k x n matrix of\n"
     " * the batch (row-major, contiguous batches). */\n"
     "void bmm_shared_a(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *bt = b + (size_t)t * k * n;\n"
     "        $T *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += a[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A * B[t]", "bmm_shared_a", "const $T *a, const $T *b, $T *c, int batch, int m, int n, int k",
            "$T", "$T", "double", "m", "n", "k", "    const $T *bt = b + (long long)t * k * n;\n", "a[i * k + pa]",
            "bt[pb * n + j]", "c[((long long)t * m + i) * n + j] = acc"),
     "bmm_shared_a|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "shared-right", "bmm_shared_w", "C[t] = A[t]*W, one W for the whole batch ($D)",
     "a:in:batch,m,k;w:in:k,n;c:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL, BCFG,
     "2*batch*m*n*k", "$S*(k*n+batch*(m*k+m*n))", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t] * W: every m x k matrix of the batch times one shared k x n\n"
     " * weight matrix (row-major). */\n"
     "void bmm_shared_w(const $T *a, const $T *w, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * m * k;\n"
     "        $T *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * w[p * n + j];\n"
     "                ct[i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A[t] * W", "bmm_shared_w", "const $T *a, const $T *w, $T *c, int batch, int m, int n, int k",
            "$T", "$T", "double", "m", "n", "k", "    const $T *at = a + (long long)t * m * k;\n", "at[i * k + pa]",
            "w[pb * n + j]", "c[((long long)t * m + i) * n + j] = acc"),
     "bmm_shared_w|(n+15)/16,(m+15)/16,batch|16,16||a,w,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "linear", "linear_batched", "Y[t] = X[t]*W^T + bias (a linear layer over a batch of sequences)",
     "x:in:batch,m,k;w:in:n,k;bias:in:n;y:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL, BCFG,
     "2*batch*m*n*k", "$S*(k*n+n+batch*(m*k+m*n))", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* A linear layer on a batch of sequences: Y[t] = X[t] * W^T + bias, with\n"
     " * X batch x m x k, W n x k (one weight row per output feature), bias n and\n"
     " * Y batch x m x n. */\n"
     "void linear_batched(const float *x, const float *w, const float *bias, float *y, int batch, int m, int n,\n"
     "                    int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            const float *row = x + ((size_t)t * m + i) * k;\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = bias[j];\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += row[p] * w[j * k + p];\n"
     "                y[((size_t)t * m + i) * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("Y[t] = X[t] * W^T + bias", "linear_batched",
            "const float *x, const float *w, const float *bias, float *y, int batch, int m, int n, int k", "float",
            "float", "double", "m", "n", "k", "    const float *xt = x + (long long)t * m * k;\n", "xt[i * k + pa]",
            "w[j * k + pb]", "y[((long long)t * m + i) * n + j] = bias[j] + acc"),
     "linear_batched|(n+15)/16,(m+15)/16,batch|16,16||x,w,bias,y,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f64", "linear-relu", "linear_relu_batched", "Y[t] = relu(X[t]*W^T + bias) ($D)",
     "x:in:batch,m,k;w:in:n,k;bias:in:n;y:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL,
     "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=3,n=5,k=1|edge-prime:batch=3,m=7,n=13,k=5|"
     "large:batch=64,m=1024,n=1024,k=1024",
     "2*batch*m*n*k", "$S*(k*n+n+batch*(m*k+m*n))", 0, 0, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Y[t] = max(X[t] * W^T + bias, 0): a linear layer with ReLU over a batch;\n"
     " * X is batch x m x k, W is n x k, Y is batch x m x n. */\n"
     "void linear_relu_batched(const double *x, const double *w, const double *bias, double *y, int batch, int m,\n"
     "                         int n, int k)\n{\n"
     "    size_t rows = (size_t)batch * m;\n"
     "    for (size_t r = 0; r < rows; r++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = bias[j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += x[r * k + p] * w[j * k + p];\n"
     "            y[r * n + j] = acc > 0.0 ? acc : 0.0;\n"
     "        }\n    }\n}\n",
     BTILED("Y[t] = max(X[t] * W^T + bias, 0)", "linear_relu_batched",
            "const double *x, const double *w, const double *bias, double *y, int batch, int m, int n, int k",
            "double", "double", "double", "m", "n", "k", "    const double *xt = x + (long long)t * m * k;\n",
            "xt[i * k + pa]", "w[j * k + pb]",
            "const double v = bias[j] + acc;\n        y[((long long)t * m + i) * n + j] = v > 0.0 ? v : 0.0"),
     "linear_relu_batched|(n+15)/16,(m+15)/16,batch|16,16||x,w,bias,y,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "alpha-beta", "bgemm", "C[t] = alpha*A[t]*B[t] + beta*C[t] ($D)",
     "a:in:batch,m,k;b:in:batch,k,n;c:inout:batch,m,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;"
     "batch:param;m:param;n:param;k:param",
     NULL, BCFG, "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = alpha * A[t] * B[t] + beta * C[t] for a contiguous batch of\n"
     " * row-major matrices (A m x k, B k x n, C m x n). */\n"
     "void bgemm(const $T *a, const $T *b, $T *c, $T alpha, $T beta, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * m * k;\n"
     "        const $T *bt = b + (size_t)t * k * n;\n"
     "        $T *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = alpha * acc + beta * ct[i * n + j];\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = alpha * A[t] * B[t] + beta * C[t]", "bgemm",
            "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int batch, int m, int n, int k", "$T", "$T",
            "double", "m", "n", "k", "    const $T *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n",
            "at[i * k + pa]", "bt[pb * n + j]",
            "c[((long long)t * m + i) * n + j] = alpha * acc + beta * c[((long long)t * m + i) * n + j]"),
     "bgemm|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,alpha,beta,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "bias-relu", "bmm_bias_relu", "C[t] = relu(A[t]*B[t] + bias[t]) with one bias row per batch ($D)",
     "a:in:batch,m,k;b:in:batch,k,n;bias:in:batch,n;c:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL,
     "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=3,n=5,k=1|edge-prime:batch=3,m=7,n=13,k=5|"
     "large:batch=64,m=1024,n=1024,k=1024",
     "2*batch*m*n*k+2*batch*m*n", "$S*batch*(m*k+k*n+n+m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = max(A[t] * B[t] + bias[t], 0) where bias[t] (n values) is added to\n"
     " * every row of batch entry t; row-major, contiguous batches. */\n"
     "void bmm_bias_relu(const float *a, const float *b, const float *bias, float *c, int batch, int m, int n,\n"
     "                   int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * k;\n"
     "        const float *bt = b + (size_t)t * k * n;\n"
     "        float *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = bias[(size_t)t * n + j];\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = acc > 0.0 ? acc : 0.0;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = max(A[t] * B[t] + bias[t], 0)", "bmm_bias_relu",
            "const float *a, const float *b, const float *bias, float *c, int batch, int m, int n, int k", "float",
            "float", "double", "m", "n", "k",
            "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[i * k + pa]",
            "bt[pb * n + j]",
            "const double v = bias[(long long)t * n + j] + acc;\n"
            "        c[((long long)t * m + i) * n + j] = v > 0.0 ? v : 0.0"),
     "bmm_bias_relu|(n+15)/16,(m+15)/16,batch|16,16||a,b,bias,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "gelu", "bmm_gelu", "C[t] = gelu(A[t]*B[t]) (tanh approximation) ($D)",
     "a:in:batch,m,k;b:in:batch,k,n;c:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL, BCFG,
     "2*batch*m*n*k+10*batch*m*n", "$S*batch*(m*k+k*n+m*n)", 1e-3, 1e-3, 0, 0,
     "#include <math.h>\n#include <stddef.h>\n\n"
     "static double gelu(double v)\n{\n"
     "    return 0.5 * v * (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));\n}\n\n"
     "/* C[t] = gelu(A[t] * B[t]) for a contiguous batch of row-major matrices. */\n"
     "void bmm_gelu(const float *a, const float *b, float *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * k;\n"
     "        const float *bt = b + (size_t)t * k * n;\n"
     "        float *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = gelu(acc);\n"
     "            }\n        }\n    }\n}\n",
     "__device__ double gelu(double v)\n"
     "{\n"
     "    return 0.5 * v * (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));\n"
     "}\n"
     "\n"
     BTILED("C[t] = gelu(A[t] * B[t])", "bmm_gelu",
            "const float *a, const float *b, float *c, int batch, int m, int n, int k", "float", "float", "double",
            "m", "n", "k", "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n",
            "at[i * k + pa]", "bt[pb * n + j]", "c[((long long)t * m + i) * n + j] = gelu(acc)"),
     "bmm_gelu|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "attention-scores", "attn_scores", "S[t] = scale*Q[t]*K[t]^T ($D)",
     "q:in:batch,s,d;k:in:batch,s,d;scores:out:batch,s,s;scale:scalar:0.125;batch:param;s:param;d:param", NULL,
     "small:batch=8,s=32,d=16|edge:batch=1,s=1,d=1|edge-prime:batch=3,s=13,d=7|large:batch=64,s=2048,d=64",
     "2*batch*s*s*d", "$S*batch*(2*s*d+s*s)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Attention scores: S[t] = scale * Q[t] * K[t]^T for batch sequences of s\n"
     " * vectors of dimension d (Q, K batch x s x d; S batch x s x s). */\n"
     "void attn_scores(const $T *q, const $T *k, $T *scores, $T scale, int batch, int s, int d)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *qt = q + (size_t)t * s * d;\n"
     "        const $T *kt = k + (size_t)t * s * d;\n"
     "        $T *st = scores + (size_t)t * s * s;\n"
     "        for (int i = 0; i < s; i++) {\n"
     "            for (int j = 0; j < s; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < d; p++)\n"
     "                    acc += qt[i * d + p] * kt[j * d + p];\n"
     "                st[i * s + j] = scale * acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("S[t] = scale * Q[t] * K[t]^T", "attn_scores",
            "const $T *q, const $T *k, $T *scores, $T scale, int batch, int s, int d", "$T", "$T", "double", "s", "s",
            "d", "    const $T *qt = q + (long long)t * s * d, *kt = k + (long long)t * s * d;\n", "qt[i * d + pa]",
            "kt[j * d + pb]", "scores[((long long)t * s + i) * s + j] = scale * acc"),
     "attn_scores|(s+15)/16,(s+15)/16,batch|16,16||q,k,scores,scale,batch,s,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "multihead-scores", "mha_scores", "S[b][h] = Q[b,:,h]*K[b,:,h]^T / sqrt(d), [B,S,H,D] layout ($D)",
     "q:in:batch,s,h,d;k:in:batch,s,h,d;scores:out:batch,h,s,s;batch:param;s:param;h:param;d:param", NULL,
     "small:batch=2,s=32,h=4,d=16|edge:batch=1,s=1,h=1,d=1|edge-prime:batch=1,s=13,h=3,d=7|"
     "large:batch=8,s=1024,h=16,d=64",
     "2*batch*h*s*s*d", "$S*(2*batch*s*h*d+batch*h*s*s)", 1e-3, 1e-3, 0, 0,
     "#include <math.h>\n#include <stddef.h>\n\n"
     "/* Multi-head attention scores.  Q and K are batch x s x h x d (the heads\n"
     " * interleaved in each position, as a projection writes them); the result\n"
     " * is batch x h x s x s with scores[b][hh][i][j] = q_i . k_j / sqrt(d). */\n"
     "void mha_scores(const float *q, const float *k, float *scores, int batch, int s, int h, int d)\n{\n"
     "    double scale = 1.0 / sqrt((double)d);\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        for (int hh = 0; hh < h; hh++) {\n"
     "            float *out = scores + ((size_t)b * h + hh) * s * s;\n"
     "            for (int i = 0; i < s; i++) {\n"
     "                const float *qi = q + (((size_t)b * s + i) * h + hh) * d;\n"
     "                for (int j = 0; j < s; j++) {\n"
     "                    const float *kj = k + (((size_t)b * s + j) * h + hh) * d;\n"
     "                    double acc = 0.0;\n"
     "                    for (int p = 0; p < d; p++)\n"
     "                        acc += qi[p] * kj[p];\n"
     "                    out[(size_t)i * s + j] = scale * acc;\n"
     "                }\n            }\n        }\n    }\n}\n",
     BTILED("scores[b][hh] = Q[b,:,hh] * K[b,:,hh]^T / sqrt(d), t = b * h + hh", "mha_scores",
            "const float *q, const float *k, float *scores, int batch, int s, int h, int d", "float", "float",
            "double", "s", "s", "d",
            "    const int b = t / h, hh = t % h;\n    const double scale = 1.0 / sqrt((double)d);\n",
            "q[(((long long)b * s + i) * h + hh) * d + pa]", "k[(((long long)b * s + j) * h + hh) * d + pb]",
            "scores[((long long)t * s + i) * s + j] = scale * acc"),
     "mha_scores|(s+15)/16,(s+15)/16,batch*h|16,16||q,k,scores,batch,s,h,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "multihead-pv", "mha_pv", "O[b,:,h] = P[b][h]*V[b,:,h], [B,S,H,D] layout ($D)",
     "p:in:batch,h,s,s;v:in:batch,s,h,d;o:out:batch,s,h,d;batch:param;s:param;h:param;d:param", "p:u:0:1",
     "small:batch=2,s=32,h=4,d=16|edge:batch=1,s=1,h=1,d=1|edge-prime:batch=1,s=13,h=3,d=7|"
     "large:batch=8,s=1024,h=16,d=64",
     "2*batch*h*s*s*d", "$S*(2*batch*s*h*d+batch*h*s*s)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* The value step of multi-head attention: for every batch b and head hh,\n"
     " * O[b, i, hh, :] = sum over j of P[b][hh][i][j] * V[b, j, hh, :].  P is\n"
     " * batch x h x s x s; V and O are batch x s x h x d. */\n"
     "void mha_pv(const float *p, const float *v, float *o, int batch, int s, int h, int d)\n{\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        for (int hh = 0; hh < h; hh++) {\n"
     "            const float *pb = p + ((size_t)b * h + hh) * s * s;\n"
     "            for (int i = 0; i < s; i++) {\n"
     "                for (int e = 0; e < d; e++) {\n"
     "                    double acc = 0.0;\n"
     "                    for (int j = 0; j < s; j++)\n"
     "                        acc += pb[(size_t)i * s + j] * v[(((size_t)b * s + j) * h + hh) * d + e];\n"
     "                    o[(((size_t)b * s + i) * h + hh) * d + e] = acc;\n"
     "                }\n            }\n        }\n    }\n}\n",
     BTILED("O[b,:,hh] = P[b][hh] * V[b,:,hh], t = b * h + hh", "mha_pv",
            "const float *probs, const float *v, float *o, int batch, int s, int h, int d", "float", "float",
            "double", "s", "d", "s",
            "    const int b = t / h, hh = t % h;\n    const float *pt = probs + (long long)t * s * s;\n",
            "pt[i * s + pa]", "v[(((long long)b * s + pb) * h + hh) * d + j]",
            "o[(((long long)b * s + i) * h + hh) * d + j] = acc"),
     "mha_pv|(d+15)/16,(s+15)/16,batch*h|16,16||p,v,o,batch,s,h,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"i8", "int8", "bmm_i8", "C[t] = A[t]*B[t] for int8 matrices, exact int32 results",
     "a:in:batch,m,k;b:in:batch,k,n;c:out:batch,m,n:i32;batch:param;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128", BCFG, "2*batch*m*n*k", "batch*(m*k+k*n+4*m*n)", 0, 0, 0, 0,
     "#include <stddef.h>\n#include <stdint.h>\n\n"
     "/* C[t] = A[t] * B[t] for int8 matrices (A m x k, B k x n, row-major,\n"
     " * contiguous batches) with exact 32-bit sums. */\n"
     "void bmm_i8(const int8_t *a, const int8_t *b, int32_t *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const int8_t *at = a + (size_t)t * m * k;\n"
     "        const int8_t *bt = b + (size_t)t * k * n;\n"
     "        int32_t *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                int32_t acc = 0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A[t] * B[t], int8 in, exact int32 sums", "bmm_i8",
            "const signed char *a, const signed char *b, int *c, int batch, int m, int n, int k", "signed char",
            "signed char", "int", "m", "n", "k",
            "    const signed char *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n",
            "at[i * k + pa]", "bt[pb * n + j]", "c[((long long)t * m + i) * n + j] = acc"),
     "bmm_i8|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"i8", "int8-nt-scaled", "bmm_i8_nt_scaled", "C[t] = scale[t]*(A[t]*B[t]^T), int8 inputs, f32 results",
     "a:in:batch,m,k;b:in:batch,n,k;scale:in:batch:f32;c:out:batch,m,n:f32;batch:param;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128;scale:u:0.0001:0.001", BCFG, "2*batch*m*n*k",
     "batch*(m*k+k*n+4+4*m*n)", 1e-5, 1e-5, 0, 0,
     "#include <stddef.h>\n#include <stdint.h>\n\n"
     "/* C[t] = scale[t] * A[t] * B[t]^T: exact int32 dot products of int8 rows\n"
     " * (A m x k, B n x k per batch entry), dequantized with one scale per batch. */\n"
     "void bmm_i8_nt_scaled(const int8_t *a, const int8_t *b, const float *scale, float *c, int batch, int m,\n"
     "                      int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const int8_t *at = a + (size_t)t * m * k;\n"
     "        const int8_t *bt = b + (size_t)t * n * k;\n"
     "        float *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                int32_t acc = 0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[j * k + p];\n"
     "                ct[i * n + j] = scale[t] * (float)acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = scale[t] * A[t] * B[t]^T, int8 in, float out", "bmm_i8_nt_scaled",
            "const signed char *a, const signed char *b, const float *scale, float *c, int batch, int m, "
            "int n, int k",
            "signed char", "signed char", "int", "m", "n", "k",
            "    const signed char *at = a + (long long)t * m * k, *bt = b + (long long)t * n * k;\n",
            "at[i * k + pa]", "bt[j * k + pb]", "c[((long long)t * m + i) * n + j] = scale[t] * (float)acc"),
     "bmm_i8_nt_scaled|(n+15)/16,(m+15)/16,batch|16,16||a,b,scale,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"i32", "int32-accumulate", "bmm_i32", "C[t] += A[t]*B[t] for int32 matrices",
     "a:in:batch,m,k;b:in:batch,k,n;c:inout:batch,m,n;batch:param;m:param;n:param;k:param",
     "a:i:-100:100;b:i:-100:100;c:i:-1000:1000", BCFG_WIDE, "2*batch*m*n*k", "4*batch*(m*k+k*n+2*m*n)", 0, 0, 0, 0,
     "#include <stddef.h>\n#include <stdint.h>\n\n"
     "/* C[t] += A[t] * B[t] for 32-bit integer matrices; the input ranges keep\n"
     " * every sum far from overflow. */\n"
     "void bmm_i32(const int32_t *a, const int32_t *b, int32_t *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const int32_t *at = a + (size_t)t * m * k;\n"
     "        const int32_t *bt = b + (size_t)t * k * n;\n"
     "        int32_t *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++)\n"
     "            for (int j = 0; j < n; j++)\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    ct[i * n + j] += at[i * k + p] * bt[p * n + j];\n"
     "    }\n}\n",
     BTILED("C[t] += A[t] * B[t], int32", "bmm_i32",
            "const int *a, const int *b, int *c, int batch, int m, int n, int k", "int", "int", "int", "m", "n", "k",
            "    const int *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[i * k + pa]",
            "bt[pb * n + j]", "c[((long long)t * m + i) * n + j] += acc"),
     "bmm_i32|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "complex", "bmm_complex", "complex C[t] = A[t]*B[t], interleaved (re, im) ($D)",
     "a:in:batch,m,k,2;b:in:batch,k,n,2;c:out:batch,m,n,2;batch:param;m:param;n:param;k:param", NULL,
     "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=1,n=1,k=1|edge-prime:batch=3,m=7,n=13,k=5|"
     "large:batch=32,m=1024,n=1024,k=512",
     "8*batch*m*n*k", "$S*2*batch*(m*k+k*n+m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Complex C[t] = A[t] * B[t], every number stored as (re, im); A[t] is\n"
     " * m x k, B[t] is k x n, row-major, contiguous batches. */\n"
     "void bmm_complex(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * m * k * 2;\n"
     "        const $T *bt = b + (size_t)t * k * n * 2;\n"
     "        $T *ct = c + (size_t)t * m * n * 2;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double re = 0.0, im = 0.0;\n"
     "                for (int p = 0; p < k; p++) {\n"
     "                    const $T *x = at + 2 * (i * k + p), *y = bt + 2 * (p * n + j);\n"
     "                    re += (double)x[0] * y[0] - (double)x[1] * y[1];\n"
     "                    im += (double)x[0] * y[1] + (double)x[1] * y[0];\n"
     "                }\n"
     "                ct[2 * (i * n + j)] = re;\n"
     "                ct[2 * (i * n + j) + 1] = im;\n"
     "            }\n        }\n    }\n}\n",
     "/* Complex C[t] = A[t] * B[t]: one thread per element of C[t] in 16 x 16 tiles,\n"
     " * t = blockIdx.z, the real and imaginary parts of the tiles of A and B\n"
     " * staged through shared memory. */\n"
     "#define TILE 16\n"
     "\n"
     "extern \"C\" __global__ void bmm_complex(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n"
     "{\n"
     "    __shared__ $T ar[TILE][TILE], ai[TILE][TILE], br[TILE][TILE], bi[TILE][TILE];\n"
     "    const int ty = threadIdx.y, tx = threadIdx.x;\n"
     "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx, t = blockIdx.z;\n"
     "    const $T *at = a + (long long)t * m * k * 2, *bt = b + (long long)t * k * n * 2;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int p0 = 0; p0 < k; p0 += TILE) {\n"
     "        const int pa = p0 + tx, pb = p0 + ty;\n"
     "        const bool a_in = i < m && pa < k, b_in = pb < k && j < n;\n"
     "        ar[ty][tx] = a_in ? at[2 * (i * k + pa)] : 0;\n"
     "        ai[ty][tx] = a_in ? at[2 * (i * k + pa) + 1] : 0;\n"
     "        br[ty][tx] = b_in ? bt[2 * (pb * n + j)] : 0;\n"
     "        bi[ty][tx] = b_in ? bt[2 * (pb * n + j) + 1] : 0;\n"
     "        __syncthreads();\n"
     "        for (int p = 0; p < TILE; p++) {\n"
     "            re += (double)ar[ty][p] * br[p][tx] - (double)ai[ty][p] * bi[p][tx];\n"
     "            im += (double)ar[ty][p] * bi[p][tx] + (double)ai[ty][p] * br[p][tx];\n"
     "        }\n"
     "        __syncthreads();\n"
     "    }\n"
     "    if (i < m && j < n) {\n"
     "        $T *ct = c + 2 * (((long long)t * m + i) * n + j);\n"
     "        ct[0] = re;\n"
     "        ct[1] = im;\n"
     "    }\n"
     "}\n",
     "bmm_complex|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "complex-conj-left", "bmm_complex_ah", "complex C[t] = A[t]^H*B[t] ($D)",
     "a:in:batch,k,m,2;b:in:batch,k,n,2;c:out:batch,m,n,2;batch:param;m:param;n:param;k:param", NULL,
     "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=1,n=1,k=1|edge-prime:batch=3,m=7,n=13,k=5|"
     "large:batch=32,m=1024,n=1024,k=512",
     "8*batch*m*n*k", "$S*2*batch*(m*k+k*n+m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Complex C[t] = A[t]^H * B[t] (conjugate transpose of A), numbers stored as\n"
     " * (re, im): A[t] is k x m, B[t] is k x n, C[t] is m x n, row-major. */\n"
     "void bmm_complex_ah(const float *a, const float *b, float *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * k * m * 2;\n"
     "        const float *bt = b + (size_t)t * k * n * 2;\n"
     "        float *ct = c + (size_t)t * m * n * 2;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double re = 0.0, im = 0.0;\n"
     "                for (int p = 0; p < k; p++) {\n"
     "                    const float *x = at + 2 * (p * m + i), *y = bt + 2 * (p * n + j);\n"
     "                    /* conj(x) * y */\n"
     "                    re += (double)x[0] * y[0] + (double)x[1] * y[1];\n"
     "                    im += (double)x[0] * y[1] - (double)x[1] * y[0];\n"
     "                }\n"
     "                ct[2 * (i * n + j)] = re;\n"
     "                ct[2 * (i * n + j) + 1] = im;\n"
     "            }\n        }\n    }\n}\n",
     "/* Complex C[t] = A[t]^H * B[t]: one thread per element of C[t] in 16 x 16 tiles,\n"
     " * t = blockIdx.z, the real and imaginary parts of the tiles of A and B\n"
     " * staged through shared memory. */\n"
     "#define TILE 16\n"
     "\n"
     "extern \"C\" __global__ void bmm_complex_ah(const float *a, const float *b, float *c, int batch, int m, "
     "int n, int k)\n"
     "{\n"
     "    __shared__ float ar[TILE][TILE], ai[TILE][TILE], br[TILE][TILE], bi[TILE][TILE];\n"
     "    const int ty = threadIdx.y, tx = threadIdx.x;\n"
     "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx, t = blockIdx.z;\n"
     "    const float *at = a + (long long)t * k * m * 2, *bt = b + (long long)t * k * n * 2;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int p0 = 0; p0 < k; p0 += TILE) {\n"
     "        const int pa = p0 + tx, pb = p0 + ty;\n"
     "        const bool a_in = i < m && pa < k, b_in = pb < k && j < n;\n"
     "        ar[ty][tx] = a_in ? at[2 * (pa * m + i)] : 0;\n"
     "        ai[ty][tx] = a_in ? at[2 * (pa * m + i) + 1] : 0;\n"
     "        br[ty][tx] = b_in ? bt[2 * (pb * n + j)] : 0;\n"
     "        bi[ty][tx] = b_in ? bt[2 * (pb * n + j) + 1] : 0;\n"
     "        __syncthreads();\n"
     "        for (int p = 0; p < TILE; p++) {\n"
     "            re += (double)ar[ty][p] * br[p][tx] + (double)ai[ty][p] * bi[p][tx];\n"
     "            im += (double)ar[ty][p] * bi[p][tx] - (double)ai[ty][p] * br[p][tx];\n"
     "        }\n"
     "        __syncthreads();\n"
     "    }\n"
     "    if (i < m && j < n) {\n"
     "        float *ct = c + 2 * (((long long)t * m + i) * n + j);\n"
     "        ct[0] = re;\n"
     "        ct[1] = im;\n"
     "    }\n"
     "}\n",
     "bmm_complex_ah|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "per-batch-alpha", "bmm_alpha", "C[t] = alpha[t]*A[t]*B[t] + C[t] ($D)",
     "alpha:in:batch;a:in:batch,m,k;b:in:batch,k,n;c:inout:batch,m,n;batch:param;m:param;n:param;k:param", NULL,
     BCFG_WIDE, "2*batch*m*n*k", "$S*batch*(1+m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] += alpha[t] * A[t] * B[t] with one scale factor per batch entry\n"
     " * (row-major, contiguous batches). */\n"
     "void bmm_alpha(const float *alpha, const float *a, const float *b, float *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * k;\n"
     "        const float *bt = b + (size_t)t * k * n;\n"
     "        float *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] += alpha[t] * acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] += alpha[t] * A[t] * B[t]", "bmm_alpha",
            "const float *alpha, const float *a, const float *b, float *c, int batch, int m, int n, int k", "float",
            "float", "double", "m", "n", "k",
            "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[i * k + pa]",
            "bt[pb * n + j]",
            "c[((long long)t * m + i) * n + j] = c[((long long)t * m + i) * n + j] + alpha[t] * acc"),
     "bmm_alpha|(n+15)/16,(m+15)/16,batch|16,16||alpha,a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "batch-reduced", "bmm_reduce", "C = sum_t A[t]*B[t] ($D)",
     "a:in:batch,m,k;b:in:batch,k,n;c:out:m,n;batch:param;m:param;n:param;k:param", NULL,
     "small:batch=8,m=32,n=24,k=16|edge:batch=1,m=1,n=1,k=1|edge-prime:batch=3,m=7,n=13,k=5|"
     "large:batch=64,m=1024,n=1024,k=1024",
     "2*batch*m*n*k", "$S*(batch*(m*k+k*n)+m*n)", 1e-2, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C = sum over t of A[t] * B[t] (a batch-reduced product, as in the weight\n"
     " * gradient of a layer applied to a batch).  Row-major, contiguous batches. */\n"
     "void bmm_reduce(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int t = 0; t < batch; t++) {\n"
     "                const $T *at = a + (size_t)t * m * k;\n"
     "                const $T *bt = b + (size_t)t * k * n;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[p * n + j];\n"
     "            }\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     BTILED("C = sum over t of A[t] * B[t], one product with inner dimension batch * k (q = t * k + p)", "bmm_reduce",
            "const $T *a, const $T *b, $T *c, int batch, int m, int n, int k", "$T", "$T", "double", "m", "n",
            "batch * k", "", "a[((long long)(pa / k) * m + i) * k + pa % k]", "b[(long long)pb * n + j]",
            "c[i * n + j] = acc"),
     "bmm_reduce|(n+15)/16,(m+15)/16,1|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-folded-into-k"},
    {"f32 f64", "colmajor-nn", "bmm_colmajor", "C[t] = A[t]*B[t] in column-major storage ($D)",
     "a:in:batch,k,m;b:in:batch,n,k;c:out:batch,n,m;batch:param;m:param;n:param;k:param", NULL, BCFG, BCOST,
     1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t] * B[t] with column-major matrices (cuBLAS convention): A[t]\n"
     " * (m x k) has element (i, p) at [p * m + i], B[t] (k x n) at [j * k + p],\n"
     " * C[t] (m x n) at [j * m + i]. */\n"
     "void bmm_colmajor(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const $T *at = a + (size_t)t * m * k;\n"
     "        const $T *bt = b + (size_t)t * k * n;\n"
     "        $T *ct = c + (size_t)t * m * n;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            for (int i = 0; i < m; i++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[p * m + i] * bt[j * k + p];\n"
     "                ct[j * m + i] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A[t] * B[t], column-major", "bmm_colmajor",
            "const $T *a, const $T *b, $T *c, int batch, int m, int n, int k", "$T", "$T", "double", "m", "n", "k",
            "    const $T *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[pa * m + i]",
            "bt[j * k + pb]", "c[((long long)t * n + j) * m + i] = acc"),
     "bmm_colmajor|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "colmajor-tn-beta", "bmm_colmajor_tn", "C[t] = A[t]^T*B[t] + beta*C[t], column-major ($D)",
     "a:in:batch,m,k;b:in:batch,n,k;c:inout:batch,n,m;beta:scalar:~-1~1;batch:param;m:param;n:param;k:param",
     NULL, BCFG, "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t]^T * B[t] + beta * C[t], column-major: A[t] is k x m with\n"
     " * element (p, i) at [i * k + p], B[t] is k x n ([j * k + p]), C[t] is\n"
     " * m x n ([j * m + i]). */\n"
     "void bmm_colmajor_tn(const float *a, const float *b, float *c, float beta, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * k;\n"
     "        const float *bt = b + (size_t)t * k * n;\n"
     "        float *ct = c + (size_t)t * m * n;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            for (int i = 0; i < m; i++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * k + p] * bt[j * k + p];\n"
     "                ct[j * m + i] = acc + beta * ct[j * m + i];\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A[t]^T * B[t] + beta * C[t], column-major", "bmm_colmajor_tn",
            "const float *a, const float *b, float *c, float beta, int batch, int m, int n, int k", "float", "float",
            "double", "m", "n", "k",
            "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[i * k + pa]",
            "bt[j * k + pb]", "float *cij = c + ((long long)t * n + j) * m + i;\n        *cij = acc + beta * *cij"),
     "bmm_colmajor_tn|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,beta,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "congruence", "bmm_congruence", "C[t] = A[t]*B[t]*A[t]^T through a temporary ($D)",
     "a:in:batch,n,n;b:in:batch,n,n;tmp:out:batch,n,n;c:out:batch,n,n;batch:param;n:param", NULL,
     "small:batch=8,n=24|edge:batch=1,n=1|edge-prime:batch=3,n=13|large:batch=64,n=1024", "4*batch*n*n*n",
     "$S*batch*4*n*n", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* The congruence transform C[t] = A[t] * B[t] * A[t]^T of a batch of n x n\n"
     " * matrices (e.g. propagating covariances): tmp[t] = A[t] * B[t], then\n"
     " * C[t] = tmp[t] * A[t]^T. */\n"
     "void bmm_congruence(const float *a, const float *b, float *tmp, float *c, int batch, int n)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * n * n;\n"
     "        const float *bt = b + (size_t)t * n * n;\n"
     "        float *wt = tmp + (size_t)t * n * n;\n"
     "        float *ct = c + (size_t)t * n * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < n; p++)\n"
     "                    acc += at[i * n + p] * bt[p * n + j];\n"
     "                wt[i * n + j] = acc;\n"
     "            }\n        }\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < n; p++)\n"
     "                    acc += wt[i * n + p] * at[j * n + p];\n"
     "                ct[i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("First launch, tmp[t] = A[t] * B[t]", "congruence_ab",
            "const float *a, const float *b, float *tmp, int batch, int n", "float", "float", "double", "n", "n", "n",
            "    const float *at = a + (long long)t * n * n, *bt = b + (long long)t * n * n;\n", "at[i * n + pa]",
            "bt[pb * n + j]", "tmp[((long long)t * n + i) * n + j] = acc")
     "\n"
     BTILED("Second launch, C[t] = tmp[t] * A[t]^T", "congruence_abat",
            "const float *a, const float *tmp, float *c, int batch, int n", "float", "float", "double", "n", "n", "n",
            "    const float *at = a + (long long)t * n * n, *wt = tmp + (long long)t * n * n;\n", "wt[i * n + pa]",
            "at[j * n + pb]", "c[((long long)t * n + i) * n + j] = acc"),
     "congruence_ab|(n+15)/16,(n+15)/16,batch|16,16||a,b,tmp,batch,n;"
     "congruence_abat|(n+15)/16,(n+15)/16,batch|16,16||a,tmp,c,batch,n", NULL,
     "block=16x16;mapping=two-launches,tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "padded-rows", "bmm_ld", "C[t] = A[t]*B[t] with rows padded to lda, ldb, ldc ($D)",
     "a:in:batch,m,lda;b:in:batch,k,ldb;c:inout:batch,m,ldc;batch:param;m:param;n:param;k:param;lda:param;"
     "ldb:param;ldc:param",
     NULL,
     "small:batch=8,m=32,n=24,k=16,lda=20,ldb=32,ldc=25|edge:batch=1,m=1,n=1,k=1,lda=1,ldb=1,ldc=1|"
     "edge-prime:batch=3,m=7,n=13,k=5,lda=7,ldb=13,ldc=17|large:batch=64,m=1000,n=1000,k=1000,lda=1024,ldb=1024,ldc=1024",
     "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t] * B[t] for a batch of row-major matrices whose rows are padded:\n"
     " * A[t] is m rows of lda values (k used), B[t] is k rows of ldb (n used),\n"
     " * C[t] is m rows of ldc (n written, the padding untouched). */\n"
     "void bmm_ld(const float *a, const float *b, float *c, int batch, int m, int n, int k, int lda, int ldb,\n"
     "            int ldc)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * lda;\n"
     "        const float *bt = b + (size_t)t * k * ldb;\n"
     "        float *ct = c + (size_t)t * m * ldc;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += at[i * lda + p] * bt[p * ldb + j];\n"
     "                ct[i * ldc + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = A[t] * B[t], rows padded to lda, ldb, ldc", "bmm_ld",
            "const float *a, const float *b, float *c, int batch, int m, int n, int k, int lda, int ldb, int ldc",
            "float", "float", "double", "m", "n", "k",
            "    const float *at = a + (long long)t * m * lda, *bt = b + (long long)t * k * ldb;\n",
            "at[i * lda + pa]", "bt[pb * ldb + j]", "c[((long long)t * m + i) * ldc + j] = acc"),
     "bmm_ld|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k,lda,ldb,ldc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "broadcast-4d", "bmm_broadcast4d", "C[i][j] = A[i][j]*B[j]: [B1,B2,M,K] x [B2,K,N] ($D)",
     "a:in:b1,b2,m,k;b:in:b2,k,n;c:out:b1,b2,m,n;b1:param;b2:param;m:param;n:param;k:param", NULL,
     "small:b1=2,b2=4,m=32,n=24,k=16|edge:b1=1,b2=1,m=1,n=1,k=1|edge-prime:b1=3,b2=2,m=7,n=13,k=5|"
     "large:b1=8,b2=8,m=1024,n=1024,k=1024",
     "2*b1*b2*m*n*k", "$S*(b1*b2*(m*k+m*n)+b2*k*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Broadcast batched product: A is b1 x b2 x m x k, B is b2 x k x n and\n"
     " * C[x][y] = A[x][y] * B[y] (B broadcast along the first batch dimension). */\n"
     "void bmm_broadcast4d(const float *a, const float *b, float *c, int b1, int b2, int m, int n, int k)\n{\n"
     "    for (int x = 0; x < b1; x++) {\n"
     "        for (int y = 0; y < b2; y++) {\n"
     "            const float *axy = a + ((size_t)x * b2 + y) * m * k;\n"
     "            const float *by = b + (size_t)y * k * n;\n"
     "            float *cxy = c + ((size_t)x * b2 + y) * m * n;\n"
     "            for (int i = 0; i < m; i++) {\n"
     "                for (int j = 0; j < n; j++) {\n"
     "                    double acc = 0.0;\n"
     "                    for (int p = 0; p < k; p++)\n"
     "                        acc += axy[i * k + p] * by[p * n + j];\n"
     "                    cxy[i * n + j] = acc;\n"
     "                }\n            }\n        }\n    }\n}\n",
     BTILED("C[x][y] = A[x][y] * B[y], t = x * b2 + y", "bmm_broadcast4d",
            "const float *a, const float *b, float *c, int b1, int b2, int m, int n, int k", "float", "float",
            "double", "m", "n", "k",
            "    const float *axy = a + (long long)t * m * k, *by = b + (long long)(t % b2) * k * n;\n",
            "axy[i * k + pa]", "by[pb * n + j]", "c[((long long)t * m + i) * n + j] = acc"),
     "bmm_broadcast4d|(n+15)/16,(m+15)/16,b1*b2|16,16||a,b,c,b1,b2,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "grouped-moe", "grouped_gemm", "Y[r] = X[r]*W[g] for the rows r of group g (offsets) ($D)",
     "x:in:rows,k;w:in:groups,k,n;offs:in:groups+1:i32;y:out:rows,n;rows:param;groups:param;n:param;k:param",
     "offs:p:rows",
     "small:rows=200,groups=8,n=24,k=16|edge:rows=1,groups=1,n=1,k=1|edge-prime:rows=37,groups=5,n=13,k=7|"
     "large:rows=65536,groups=64,n=1024,k=1024",
     "2*rows*n*k", "$S*(rows*k+groups*k*n+rows*n)+4*groups", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Grouped GEMM (mixture-of-experts style): the rows of X are sorted by\n"
     " * group, group g owning rows offs[g] .. offs[g + 1] - 1 (offs[0] = 0,\n"
     " * offs[groups] = rows), and each group has its own k x n weight matrix:\n"
     " * Y[r] = X[r] * W[g]. */\n"
     "void grouped_gemm(const $T *x, const $T *w, const int *offs, $T *y, int rows, int groups, int n, int k)\n{\n"
     "    int g = 0;\n"
     "    for (int r = 0; r < rows; r++) {\n"
     "        while (g < groups - 1 && offs[g + 1] <= r)\n"
     "            g++; /* the group that owns row r */\n"
     "        const $T *wg = w + (size_t)g * k * n;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += x[(size_t)r * k + p] * wg[p * n + j];\n"
     "            y[(size_t)r * n + j] = acc;\n"
     "        }\n    }\n}\n",
     "/* Grouped GEMM: one thread per element of Y, which finds the group of its\n"
     " * row in the offsets, then forms the dot product with that group's W. */\n"
     "extern \"C\" __global__ void grouped_gemm(const $T *x, const $T *w, const int *offs, $T *y, int rows, "
     "int groups,\n"
     "                                        int n, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)rows * n)\n"
     "        return;\n"
     "    const int r = (int)(e / n), j = (int)(e % n);\n"
     "    int g = 0;\n"
     "    while (g < groups - 1 && offs[g + 1] <= r)\n"
     "        g++;\n"
     "    const $T *xr = x + (long long)r * k, *wg = w + (long long)g * k * n;\n"
     "    double acc = 0.0;\n"
     "    for (int p = 0; p < k; p++)\n"
     "        acc += xr[p] * wg[p * n + j];\n"
     "    y[e] = acc;\n"
     "}\n",
     "grouped_gemm|(rows*n+255)/256|256||x,w,offs,y,rows,groups,n,k", NULL,
     "block=256;mapping=one-element-per-thread"},
    {"f32", "mixed-f64-out", "bmm_mixed", "C[t] (f64) = A[t]*B[t] for f32 inputs",
     "a:in:batch,m,k;b:in:batch,k,n;c:out:batch,m,n:f64;batch:param;m:param;n:param;k:param", NULL, BCFG,
     "2*batch*m*n*k", "batch*(4*m*k+4*k*n+8*m*n)", 1e-9, 1e-7, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = A[t] * B[t] from single-precision inputs into a double-precision\n"
     " * result; row-major, contiguous batches. */\n"
     "void bmm_mixed(const float *a, const float *b, double *c, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * m * k;\n"
     "        const float *bt = b + (size_t)t * k * n;\n"
     "        double *ct = c + (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += (double)at[i * k + p] * bt[p * n + j];\n"
     "                ct[i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] (double) = A[t] * B[t] (float), tiles kept in double", "bmm_mixed",
            "const float *a, const float *b, double *c, int batch, int m, int n, int k", "double", "double", "double",
            "m", "n", "k", "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n",
            "at[i * k + pa]", "bt[pb * n + j]", "c[((long long)t * m + i) * n + j] = acc"),
     "bmm_mixed|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "residual", "bmm_residual", "D[t] = A[t]*B[t] + C[t] ($D)",
     "a:in:batch,m,k;b:in:batch,k,n;c:in:batch,m,n;d:out:batch,m,n;batch:param;m:param;n:param;k:param", NULL,
     BCFG, "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* D[t] = A[t] * B[t] + C[t] for a contiguous batch of row-major matrices. */\n"
     "void bmm_residual(const float *a, const float *b, const float *c, float *d, int batch, int m, int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        size_t oa = (size_t)t * m * k, ob = (size_t)t * k * n, oc = (size_t)t * m * n;\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = c[oc + i * n + j];\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += a[oa + i * k + p] * b[ob + p * n + j];\n"
     "                d[oc + i * n + j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("D[t] = A[t] * B[t] + C[t]", "bmm_residual",
            "const float *a, const float *b, const float *c, float *d, int batch, int m, int n, int k", "float",
            "float", "double", "m", "n", "k",
            "    const float *at = a + (long long)t * m * k, *bt = b + (long long)t * k * n;\n", "at[i * k + pa]",
            "bt[pb * n + j]", "const long long o = ((long long)t * m + i) * n + j;\n        d[o] = c[o] + acc"),
     "bmm_residual|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,d,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32", "scores-masked", "attn_scores_bias", "S[t] = scale*Q[t]*K[t]^T + bias (bias shared across the batch)",
     "q:in:batch,s,d;k:in:batch,s,d;bias:in:s,s;scores:out:batch,s,s;scale:scalar:0.25;batch:param;s:param;d:param",
     NULL, "small:batch=8,s=32,d=16|edge:batch=1,s=1,d=1|edge-prime:batch=3,s=13,d=7|large:batch=64,s=2048,d=64",
     "2*batch*s*s*d+2*batch*s*s", "$S*(batch*(2*s*d+s*s)+s*s)", 1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* Attention scores with an additive bias (a relative-position bias or a\n"
     " * mask) shared by all batch entries: S[t] = scale * Q[t] * K[t]^T + bias.\n"
     " * Q, K are batch x s x d; bias is s x s; S is batch x s x s. */\n"
     "void attn_scores_bias(const float *q, const float *k, const float *bias, float *scores, float scale,\n"
     "                      int batch, int s, int d)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        for (int i = 0; i < s; i++) {\n"
     "            const float *qi = q + ((size_t)t * s + i) * d;\n"
     "            for (int j = 0; j < s; j++) {\n"
     "                const float *kj = k + ((size_t)t * s + j) * d;\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < d; p++)\n"
     "                    acc += qi[p] * kj[p];\n"
     "                scores[((size_t)t * s + i) * s + j] = scale * acc + bias[i * s + j];\n"
     "            }\n        }\n    }\n}\n",
     BTILED("S[t] = scale * Q[t] * K[t]^T + bias", "attn_scores_bias",
            "const float *q, const float *k, const float *bias, float *scores, float scale, int batch, int s, int d",
            "float", "float", "double", "s", "s", "d",
            "    const float *qt = q + (long long)t * s * d, *kt = k + (long long)t * s * d;\n", "qt[i * d + pa]",
            "kt[j * d + pb]", "scores[((long long)t * s + i) * s + j] = scale * acc + bias[i * s + j]"),
     "attn_scores_bias|(s+15)/16,(s+15)/16,batch|16,16||q,k,bias,scores,scale,batch,s,d", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f32 f64", "einsum-mbk-bkn", "einsum_mbk_bkn", "C[m,b,n] = sum_k A[m,b,k]*B[b,k,n], batch in the middle ($D)",
     "a:in:m,batch,k;b:in:batch,k,n;c:out:m,batch,n;batch:param;m:param;n:param;k:param", NULL, BCFG, BCOST,
     1e-3, 1e-3, 0, 0,
     "#include <stddef.h>\n\n"
     "/* The einsum \"mbk,bkn->mbn\": a batched product whose batch index b is the\n"
     " * middle dimension of A and C (A is m x batch x k, B is batch x k x n, C is\n"
     " * m x batch x n). */\n"
     "void einsum_mbk_bkn(const $T *a, const $T *b, $T *c, int batch, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int t = 0; t < batch; t++) {\n"
     "            const $T *ar = a + ((size_t)i * batch + t) * k;\n"
     "            const $T *bt = b + (size_t)t * k * n;\n"
     "            $T *cr = c + ((size_t)i * batch + t) * n;\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += ar[p] * bt[p * n + j];\n"
     "                cr[j] = acc;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[m,b,n] = sum_k A[m,b,k] * B[b,k,n]", "einsum_mbk_bkn",
            "const $T *a, const $T *b, $T *c, int batch, int m, int n, int k", "$T", "$T", "double", "m", "n", "k",
            "    const $T *bt = b + (long long)t * k * n;\n", "a[((long long)i * batch + t) * k + pa]",
            "bt[pb * n + j]", "c[((long long)i * batch + t) * n + j] = acc"),
     "einsum_mbk_bkn|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
    {"f64", "nt-alpha-beta", "bgemm_nt", "C[t] = alpha*A[t]*B[t]^T + beta*C[t] ($D)",
     "a:in:batch,m,k;b:in:batch,n,k;c:inout:batch,m,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;"
     "batch:param;m:param;n:param;k:param",
     NULL, BCFG, "2*batch*m*n*k", "$S*batch*(m*k+k*n+2*m*n)", 0, 0, 0, 0,
     "#include <stddef.h>\n\n"
     "/* C[t] = alpha * A[t] * B[t]^T + beta * C[t]; A[t] is m x k, B[t] is n x k,\n"
     " * C[t] is m x n, all row-major and contiguous over the batch. */\n"
     "void bgemm_nt(const double *a, const double *b, double *c, double alpha, double beta, int batch, int m,\n"
     "              int n, int k)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            const double *ai = a + ((size_t)t * m + i) * k;\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                const double *bj = b + ((size_t)t * n + j) * k;\n"
     "                double acc = 0.0;\n"
     "                for (int p = 0; p < k; p++)\n"
     "                    acc += ai[p] * bj[p];\n"
     "                double *cij = c + ((size_t)t * m + i) * n + j;\n"
     "                *cij = alpha * acc + beta * *cij;\n"
     "            }\n        }\n    }\n}\n",
     BTILED("C[t] = alpha * A[t] * B[t]^T + beta * C[t]", "bgemm_nt",
            "const double *a, const double *b, double *c, double alpha, double beta, int batch, int m, int n, int k",
            "double", "double", "double", "m", "n", "k",
            "    const double *at = a + (long long)t * m * k, *bt = b + (long long)t * n * k;\n", "at[i * k + pa]",
            "bt[j * k + pb]",
            "double *cij = c + ((long long)t * m + i) * n + j;\n        *cij = alpha * acc + beta * *cij"),
     "bgemm_nt|(n+15)/16,(m+15)/16,batch|16,16||a,b,c,alpha,beta,batch,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread,batch-in-grid-z"},
};

static int generate(GenCtx *g)
{
    if (emit_ops(g, 0, 0, "f32 f64") || emit_ops(g, 0, 1, "f32 f64") || emit_ops(g, 1, 0, "f32") ||
        emit_ops(g, 1, 1, "f32 f64"))
        return -1;
    if (emit_fixed(g, 2, "f32", "16777216") || emit_fixed(g, 3, "f32 f64", "$(8388608|4194304)") ||
        emit_fixed(g, 4, "f32 f64", "$(4194304|2097152)") || emit_fixed(g, 8, "f32", "1048576") ||
        emit_fixed(g, 16, "f32", "262144") || emit_fixed(g, 32, "f64", "32768"))
        return -1;
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_batched_gemm = {"batched_gemm", "linalg", 54, generate};
