/* trisolve — triangular solves and products: forward and back substitution
 * (lower/upper, unit or non-unit diagonal, transposed, row- and
 * column-major, strided), several right-hand sides from the left and from
 * the right (trsm), packed and banded triangles, bidiagonal systems,
 * batched solves, the inverse of a triangular matrix, LU and Cholesky
 * solves from stored factors, and triangular matrix-vector/-matrix
 * products (trmv, tpmv, trmm).  Systems stay well conditioned on random
 * inputs: non-unit solves work with T + shift*I (shift a scalar sized to
 * n) or a separate diagonal in [1, 2), and unit-diagonal matrices get small
 * off-diagonal entries.  Sums accumulate in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_reduce.h"
#include "gen_spec.h"

#define VCFG_SHIFT "small:n=256,shift=64|edge:n=1,shift=4|edge-two:n=2,shift=4|edge-prime:n=131,shift=48|" \
                   "large:n=$(16384|11264),shift=512"
/* The bidiagonal solvers' configs, with one of whole chunks: their
 * launches have a thread per chunk of 256 unknowns, so a loosened "chunk
 * start >= n" bound lets one more thread run only where n is a multiple of
 * 256, and there it writes its chunk's map one past the end of the map
 * scratch; every other config leaves it unlaunched (the off-by-one passed
 * them all, census 2026-12-07).  LARGE: the large config's n. */
#define BIDIAG_CFG(LARGE) "small:n=100000|edge:n=1|edge-two:n=2|edge-prime:n=131|edge-chunks:n=512|large:n=" LARGE
#define VCFG_UNIT "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=$(16384|11264)"
#define MCFG_SHIFT "small:n=128,nrhs=16,shift=48|edge:n=1,nrhs=1,shift=4|edge-prime:n=37,nrhs=5,shift=24|" \
                   "large:n=4096,nrhs=2048,shift=256"
#define SMALL_OFFDIAG "-0.004:0.004"

/* The pairs.  A solve with one right-hand side runs in one block that
 * walks the unknowns in order: when the rows of the matrix are contiguous
 * the threads share each row's dot product with the solved part of x
 * (block_sum) and thread 0 finishes the unknown; when its columns are
 * contiguous the block sweeps them instead, removing each solved unknown
 * from the remaining rows' sums (double scratch, as the C programs sum in
 * double).  Solves with many right-hand sides (or a batch of systems) give
 * each thread one right-hand side; banded solves run in one warp (with the
 * last k + 1 unknowns in a shared-memory ring), bidiagonal ones, first-order
 * recurrences over up to 2^26 unknowns, as a chunked scan of affine maps in
 * three launches; the products (trmv, trmm) are parallel like gemv and gemm. */
#define SOLVE_KNOBS "block=256;mapping=one-block,rows-in-order,block-sum-per-row"
#define SWEEP_KNOBS "block=256;mapping=one-block,column-sweep,double-scratch"
#define RHS_KNOBS "block=256;mapping=one-right-hand-side-per-thread"

/* Appends text as a C block comment wrapped at 80 columns. */
static void wrap_comment(StrBuf *s, const char *text)
{
    int col = 2;
    sb_append(s, "/*");
    for (const char *w = text; *w;) {
        while (*w == ' ')
            w++;
        int len = 0;
        while (w[len] && w[len] != ' ')
            len++;
        if (!len)
            break;
        if (col + 1 + len > 78) {
            sb_append(s, "\n *");
            col = 2;
        }
        sb_putc(s, ' ');
        sb_append_n(s, w, (size_t)len);
        col += 1 + len;
        w += len;
    }
    sb_append(s, " */\n");
}

/* Triangular solve with one right-hand side: x = M^-1 b with M = T or T^T
 * for the lower or upper triangle T of a (row- or column-major). */
static int emit_trsv(GenCtx *g, int lower, int unit, int trans, int colmajor, const char *dtypes)
{
    static char name[64], desc[160], args[160], fills[64], src[3072];
    int fwd = lower != trans; /* the effective matrix is lower triangular */
    int rowacc = trans == colmajor; /* M(i, j) = a[i * n + j] */
    const char *mij = rowacc ? "a[i * n + j]" : "a[j * n + i]";
    const char *mii = "a[i * n + i]";
    const char *tri = lower ? "lower" : "upper";
    char Tn[8];
    snprintf(Tn, sizeof Tn, "%c%s", lower ? 'L' : 'U', trans ? "^T" : "");
    snprintf(name, sizeof name, "trsv-%s%s%s%s", tri, unit ? "-unit" : "", trans ? "-trans" : "",
             colmajor ? "-colmajor" : "");
    snprintf(desc, sizeof desc, "solve %s%s x = b, %s, %s substitution ($D)", Tn, unit ? "" : " + shift*I",
             colmajor ? "column-major" : "row-major", fwd ? "forward" : "back");
    snprintf(args, sizeof args, "a:in:n,n;b:in:n;x:out:n;%sn:param", unit ? "" : "shift:scalar:64;");
    snprintf(fills, sizeof fills, "a:u:" SMALL_OFFDIAG);
    char text[512];
    snprintf(text, sizeof text,
             "Solves %s%s%s x = b by %s substitution. %c is the %s triangle of the n x n %s matrix a%s; "
             "the other triangle of a is ignored.%s",
             unit ? "" : "(", Tn, unit ? "" : " + shift * I)", fwd ? "forward" : "back", lower ? 'L' : 'U', tri,
             colmajor ? "column-major" : "row-major",
             unit ? ", with a unit diagonal (the diagonal of a is not read)" : "",
             unit ? "" : " The shift keeps the system well conditioned.");
    StrBuf s = STRBUF_INIT;
    wrap_comment(&s, text);
    sb_printf(&s, "void trsv(const $T *a, const $T *b, $T *x, %sint n)\n{\n", unit ? "" : "$T shift, ");
    if (fwd)
        sb_append(&s, "    for (int i = 0; i < n; i++) {\n        double s = b[i];\n"
                      "        for (int j = 0; j < i; j++)\n");
    else
        sb_append(&s, "    for (int i = n - 1; i >= 0; i--) {\n        double s = b[i];\n"
                      "        for (int j = i + 1; j < n; j++)\n");
    sb_printf(&s, "            s -= %s * x[j];\n", mij);
    if (unit)
        sb_append(&s, "        x[i] = s;\n");
    else
        sb_printf(&s, "        x[i] = s / (%s + shift);\n", mii);
    sb_append(&s, "    }\n}\n");
    snprintf(src, sizeof src, "%s", sb_str(&s));
    sb_release(&s);
    /* the pair: rows of M contiguous (rowacc): one block, a block sum per row;
     * columns contiguous: one block sweeping the columns */
    static char cuda[4096], launch[96];
    StrBuf k = STRBUF_INIT;
    const char *shift = unit ? "" : "$T shift, ";
    if (rowacc) {
        sb_append(&k, REDUCE_BLOCK_SUM("double"));
        sb_printf(&k,
                  "/* Solves %s%s%s x = b: one block walks the rows %s, the threads sharing\n"
                  " * each row's dot product with the solved part of x; thread 0 finishes x[i]. */\n"
                  "extern \"C\" __global__ void trsv(const $T *a, const $T *b, $T *x, %sint n)\n{\n"
                  "    for (int step = 0; step < n; step++) {\n"
                  "        const int i = %s;\n"
                  "        const $T *row = a + (long long)i * n;\n"
                  "        double s = 0.0;\n"
                  "        for (int j = %s; j < %s; j += blockDim.x)\n"
                  "            s += row[j] * x[j];\n"
                  "        s = block_sum(s);\n"
                  "        if (threadIdx.x == 0)\n"
                  "            x[i] = %s;\n"
                  "        __syncthreads();\n"
                  "    }\n}\n",
                  unit ? "" : "(", Tn, unit ? "" : " + shift * I)", fwd ? "forwards" : "backwards", shift,
                  fwd ? "step" : "n - 1 - step", fwd ? "threadIdx.x" : "i + 1 + threadIdx.x", fwd ? "i" : "n",
                  unit ? "b[i] - s" : "(b[i] - s) / (row[i] + shift)");
        snprintf(launch, sizeof launch, "trsv|1|256||a,b,x,%sn", unit ? "" : "shift,");
    } else {
        sb_printf(&k,
                  "/* Solves %s%s%s x = b: one block sweeps the columns of the matrix\n"
                  " * (column j is a[j * n + 0 .. n - 1]) %s; once x[j] is known the\n"
                  " * threads remove it from the sums acc of the rows still to solve\n"
                  " * (acc[i] always belongs to thread i %% blockDim.x). */\n"
                  "extern \"C\" __global__ void trsv(const $T *a, const $T *b, $T *x, %sint n, double *acc)\n{\n"
                  "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
                  "        acc[i] = b[i];\n"
                  "    __syncthreads();\n"
                  "    for (int step = 0; step < n; step++) {\n"
                  "        const int j = %s;\n"
                  "        const $T *col = a + (long long)j * n;\n"
                  "        if (threadIdx.x == 0)\n"
                  "            x[j] = %s;\n"
                  "        __syncthreads();\n"
                  "        const $T xj = x[j];\n"
                  "        for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
                  "            if (i %s j)\n"
                  "                acc[i] -= col[i] * xj;\n"
                  "        __syncthreads();\n"
                  "    }\n}\n",
                  unit ? "" : "(", Tn, unit ? "" : " + shift * I)", fwd ? "forwards" : "backwards", shift,
                  fwd ? "step" : "n - 1 - step", unit ? "acc[j]" : "acc[j] / (col[j] + shift)", fwd ? ">" : "<");
        snprintf(launch, sizeof launch, "trsv|1|256||a,b,x,%sn,acc", unit ? "" : "shift,");
    }
    snprintf(cuda, sizeof cuda, "%s", sb_str(&k));
    sb_release(&k);
    Spec sp = {dtypes, name, "trsv", desc, args, unit ? fills : NULL, unit ? VCFG_UNIT : VCFG_SHIFT, "n*n",
               "$S*(n*(n+1)/2+2*n)", unit ? 1e-5 : 1e-6, 1e-4, unit ? 0 : 1e-12, unit ? 0 : 1e-9, src, cuda,
               launch, rowacc ? NULL : "acc:f64:n", rowacc ? SOLVE_KNOBS : SWEEP_KNOBS};
    return spec_emit_all(g, &sp, 1);
}

static const Spec SPECS[] = {
    {"f32 f64", "trsm-left-lower", "trsm", "solve (L + shift*I) X = alpha*B for many right-hand sides ($D)",
     "a:in:n,n;b:in:n,nrhs;x:out:n,nrhs;alpha:scalar:~0.5~2;shift:scalar:48;n:param;nrhs:param", NULL,
     MCFG_SHIFT, "n*n*nrhs", "$S*(n*(n+1)/2+2*n*nrhs)", 1e-6, 1e-4, 1e-12, 1e-9,
     "/* Solves (L + shift * I) X = alpha * B for the n x nrhs matrix X, where L is\n"
     " * the lower triangle of the n x n row-major matrix a; B and X are n x nrhs,\n"
     " * row-major.  Forward substitution, one row of X at a time. */\n"
     "void trsm(const $T *a, const $T *b, $T *x, $T alpha, $T shift, int n, int nrhs)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double d = a[i * n + i] + shift;\n"
     "        for (int c = 0; c < nrhs; c++) {\n"
     "            double s = alpha * b[i * nrhs + c];\n"
     "            for (int j = 0; j < i; j++)\n"
     "                s -= a[i * n + j] * x[j * nrhs + c];\n"
     "            x[i * nrhs + c] = s / d;\n"
     "        }\n    }\n}\n",
     "/* (L + shift * I) X = alpha * B: one thread per column of X, forward\n"
     " * substitution down its column (a warp reads consecutive columns). */\n"
     "extern \"C\" __global__ void trsm(const $T *a, const $T *b, $T *x, $T alpha, $T shift, int n, int nrhs)\n"
     "{\n"
     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (c >= nrhs)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const double d = a[(long long)i * n + i] + shift;\n"
     "        double s = alpha * b[(long long)i * nrhs + c];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= a[(long long)i * n + j] * x[(long long)j * nrhs + c];\n"
     "        x[(long long)i * nrhs + c] = s / d;\n"
     "    }\n"
     "}\n",
     "trsm|(nrhs+255)/256|256||a,b,x,alpha,shift,n,nrhs", NULL,
     "block=256;mapping=one-right-hand-side-per-thread"},
    {"f32 f64", "trsm-left-upper-inplace", "trsm_upper", "solve (U + shift*I) X = B in place of B ($D)",
     "a:in:n,n;b:inout:n,nrhs;shift:scalar:48;n:param;nrhs:param", NULL, MCFG_SHIFT, "n*n*nrhs",
     "$S*(n*(n+1)/2+2*n*nrhs)", 1e-6, 1e-4, 1e-12, 1e-9,
     "/* Overwrites B (n x nrhs, row-major) with the solution X of\n"
     " * (U + shift * I) X = B, U the upper triangle of the n x n row-major a.\n"
     " * Back substitution: row i of X needs the rows below it. */\n"
     "void trsm_upper(const $T *a, $T *b, $T shift, int n, int nrhs)\n{\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        for (int c = 0; c < nrhs; c++) {\n"
     "            double s = b[i * nrhs + c];\n"
     "            for (int j = i + 1; j < n; j++)\n"
     "                s -= a[i * n + j] * b[j * nrhs + c];\n"
     "            b[i * nrhs + c] = s / (a[i * n + i] + shift);\n"
     "        }\n    }\n}\n",
     "/* (U + shift * I) X = B in place: one thread per column of B, back\n"
     " * substitution up its column (only its own column is read and written). */\n"
     "extern \"C\" __global__ void trsm_upper(const $T *a, $T *b, $T shift, int n, int nrhs)\n"
     "{\n"
     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (c >= nrhs)\n"
     "        return;\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = b[(long long)i * nrhs + c];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            s -= a[(long long)i * n + j] * b[(long long)j * nrhs + c];\n"
     "        b[(long long)i * nrhs + c] = s / (a[(long long)i * n + i] + shift);\n"
     "    }\n"
     "}\n",
     "trsm_upper|(nrhs+255)/256|256||a,b,shift,n,nrhs", NULL,
     "block=256;mapping=one-right-hand-side-per-thread"},
    {"f32 f64", "trsm-right-upper", "trsm_right", "solve X (U + shift*I) = B from the right ($D)",
     "a:in:n,n;b:in:m,n;x:out:m,n;shift:scalar:48;m:param;n:param", NULL,
     "small:m=16,n=128,shift=48|edge:m=1,n=1,shift=4|edge-prime:m=5,n=37,shift=24|large:m=2048,n=4096,shift=256",
     "m*n*n", "$S*(n*(n+1)/2+2*m*n)", 1e-6, 1e-4, 1e-12, 1e-9,
     "/* Solves X (U + shift * I) = B for X (m x n) from the right, with U the upper\n"
     " * triangle of the n x n row-major matrix a.  Each row of X is independent:\n"
     " * x_r[j] = (b_r[j] - sum_{p<j} x_r[p] U[p][j]) / (U[j][j] + shift). */\n"
     "void trsm_right(const $T *a, const $T *b, $T *x, $T shift, int m, int n)\n{\n"
     "    for (int r = 0; r < m; r++) {\n"
     "        const $T *br = b + r * n;\n"
     "        $T *xr = x + r * n;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double s = br[j];\n"
     "            for (int p = 0; p < j; p++)\n"
     "                s -= xr[p] * a[p * n + j];\n"
     "            xr[j] = s / (a[j * n + j] + shift);\n"
     "        }\n    }\n}\n",
     "/* X (U + shift * I) = B: one thread per row of X, which is an independent\n"
     " * forward substitution. */\n"
     "extern \"C\" __global__ void trsm_right(const $T *a, const $T *b, $T *x, $T shift, int m, int n)\n"
     "{\n"
     "    const int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (r >= m)\n"
     "        return;\n"
     "    const $T *br = b + (long long)r * n;\n"
     "    $T *xr = x + (long long)r * n;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double s = br[j];\n"
     "        for (int p = 0; p < j; p++)\n"
     "            s -= xr[p] * a[(long long)p * n + j];\n"
     "        xr[j] = s / (a[(long long)j * n + j] + shift);\n"
     "    }\n"
     "}\n",
     "trsm_right|(m+255)/256|256||a,b,x,shift,m,n", NULL,
     "block=256;mapping=one-row-of-x-per-thread"},
    {"f64", "trsm-right-lower-trans", "trsm_right_lt", "solve X (L + shift*I)^T = B, as in a Cholesky panel ($D)",
     "a:in:n,n;b:in:m,n;x:out:m,n;shift:scalar:48;m:param;n:param", NULL,
     "small:m=16,n=128,shift=48|edge:m=1,n=1,shift=4|edge-prime:m=5,n=37,shift=24|large:m=2048,n=4096,shift=256",
     "m*n*n", "$S*(n*(n+1)/2+2*m*n)", 0, 0, 1e-12, 1e-9,
     "/* Solves X (L + shift * I)^T = B for X (m x n), L the lower triangle of the\n"
     " * n x n row-major matrix a, as in the panel update of a blocked Cholesky\n"
     " * factorization.  Row r of X satisfies (L + shift I) x_r = b_r, so it is a\n"
     " * forward substitution along the rows of L. */\n"
     "void trsm_right_lt(const double *a, const double *b, double *x, double shift, int m, int n)\n{\n"
     "    for (int r = 0; r < m; r++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double s = b[r * n + j];\n"
     "            for (int p = 0; p < j; p++)\n"
     "                s -= x[r * n + p] * a[j * n + p];\n"
     "            x[r * n + j] = s / (a[j * n + j] + shift);\n"
     "        }\n    }\n}\n",
     "/* X (L + shift * I)^T = B: one thread per row of X (an independent forward\n"
     " * substitution along the rows of L). */\n"
     "extern \"C\" __global__ void trsm_right_lt(const double *a, const double *b, double *x, double shift, "
     "int m, int n)\n"
     "{\n"
     "    const int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (r >= m)\n"
     "        return;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double s = b[(long long)r * n + j];\n"
     "        for (int p = 0; p < j; p++)\n"
     "            s -= x[(long long)r * n + p] * a[(long long)j * n + p];\n"
     "        x[(long long)r * n + j] = s / (a[(long long)j * n + j] + shift);\n"
     "    }\n"
     "}\n",
     "trsm_right_lt|(m+255)/256|256||a,b,x,shift,m,n", NULL,
     "block=256;mapping=one-row-of-x-per-thread"},
    {"f32 f64", "trsm-left-lower-unit", "trsm_unit", "solve L X = B, L unit lower triangular ($D)",
     "a:in:n,n;b:in:n,nrhs;x:out:n,nrhs;n:param;nrhs:param", "a:u:" SMALL_OFFDIAG,
     "small:n=128,nrhs=16|edge:n=1,nrhs=1|edge-prime:n=37,nrhs=5|large:n=4096,nrhs=2048", "n*n*nrhs",
     "$S*(n*(n-1)/2+2*n*nrhs)", 1e-5, 1e-4, 0, 0,
     "/* Solves L X = B where L is unit lower triangular with its strict lower part\n"
     " * taken from the n x n row-major matrix a (the forward step of an LU solve\n"
     " * with many right-hand sides).  B and X are n x nrhs, row-major. */\n"
     "void trsm_unit(const $T *a, const $T *b, $T *x, int n, int nrhs)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int c = 0; c < nrhs; c++) {\n"
     "            double s = b[i * nrhs + c];\n"
     "            for (int j = 0; j < i; j++)\n"
     "                s -= a[i * n + j] * x[j * nrhs + c];\n"
     "            x[i * nrhs + c] = s;\n"
     "        }\n    }\n}\n",
     "/* L X = B, L unit lower triangular: one thread per column of X. */\n"
     "extern \"C\" __global__ void trsm_unit(const $T *a, const $T *b, $T *x, int n, int nrhs)\n"
     "{\n"
     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (c >= nrhs)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = b[(long long)i * nrhs + c];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= a[(long long)i * n + j] * x[(long long)j * nrhs + c];\n"
     "        x[(long long)i * nrhs + c] = s;\n"
     "    }\n"
     "}\n",
     "trsm_unit|(nrhs+255)/256|256||a,b,x,n,nrhs", NULL,
     "block=256;mapping=one-right-hand-side-per-thread"},
    {"f32", "trsm-colmajor-rhs", "trsm_colmajor", "solve (L + shift*I) X = B with column-major B and X ($D)",
     "a:in:n,n;b:in:nrhs,n;x:out:nrhs,n;shift:scalar:48;n:param;nrhs:param", NULL, MCFG_SHIFT, "n*n*nrhs",
     "$S*(n*(n+1)/2+2*n*nrhs)", 1e-6, 1e-4, 0, 0,
     "/* Solves (L + shift * I) X = B where L is the lower triangle of the n x n\n"
     " * row-major matrix a and the right-hand sides are stored column-major (each\n"
     " * of the nrhs columns of B and X is n contiguous values): one forward\n"
     " * substitution per column. */\n"
     "void trsm_colmajor(const float *a, const float *b, float *x, float shift, int n, int nrhs)\n{\n"
     "    for (int c = 0; c < nrhs; c++) {\n"
     "        const float *bc = b + c * n;\n"
     "        float *xc = x + c * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            double s = bc[i];\n"
     "            for (int j = 0; j < i; j++)\n"
     "                s -= a[i * n + j] * xc[j];\n"
     "            xc[i] = s / (a[i * n + i] + shift);\n"
     "        }\n    }\n}\n",
     "/* (L + shift * I) X = B, column-major B and X: one thread per column. */\n"
     "extern \"C\" __global__ void trsm_colmajor(const float *a, const float *b, float *x, float shift, int n, "
     "int nrhs)\n"
     "{\n"
     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (c >= nrhs)\n"
     "        return;\n"
     "    const float *bc = b + (long long)c * n;\n"
     "    float *xc = x + (long long)c * n;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = bc[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= a[(long long)i * n + j] * xc[j];\n"
     "        xc[i] = s / (a[(long long)i * n + i] + shift);\n"
     "    }\n"
     "}\n",
     "trsm_colmajor|(nrhs+255)/256|256||a,b,x,shift,n,nrhs", NULL,
     "block=256;mapping=one-right-hand-side-per-thread"},
    {"f32 f64", "tpsv-packed-lower", "tpsv", "solve (L + shift*I) x = b, L packed by rows ($D)",
     "ap:in:n*(n+1)/2;b:in:n;x:out:n;shift:scalar:64;n:param", NULL, VCFG_SHIFT, "n*n", "$S*(n*(n+1)/2+2*n)",
     1e-6, 1e-4, 1e-12, 1e-9,
     "/* Solves (L + shift * I) x = b for a lower triangular L in packed storage,\n"
     " * row by row: L[i][j] (j <= i) is ap[i * (i + 1) / 2 + j]. */\n"
     "void tpsv(const $T *ap, const $T *b, $T *x, $T shift, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const $T *row = ap + i * (i + 1) / 2;\n"
     "        double s = b[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= row[j] * x[j];\n"
     "        x[i] = s / (row[i] + shift);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* (L + shift * I) x = b, L packed by rows: one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void tpsv(const $T *ap, const $T *b, $T *x, $T shift, int n)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = step;\n"
     "        const $T *row = ap + (long long)i * (i + 1) / 2;\n"
     "        double s = 0.0;\n"
     "        for (int j = threadIdx.x; j < i; j += blockDim.x)\n"
     "            s += row[j] * x[j];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            x[i] = (b[i] - s) / (row[i] + shift);\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "tpsv|1|256||ap,b,x,shift,n", NULL,
     "block=256;mapping=one-block,rows-in-order,block-sum-per-row"},
    {"f32 f64", "tpsv-packed-upper", "tpsv_upper", "solve (U + shift*I) x = b, U packed by rows ($D)",
     "ap:in:n*(n+1)/2;b:in:n;x:out:n;shift:scalar:64;n:param", NULL, VCFG_SHIFT, "n*n", "$S*(n*(n+1)/2+2*n)",
     1e-6, 1e-4, 1e-12, 1e-9,
     "/* Solves (U + shift * I) x = b for an upper triangular U packed row by row:\n"
     " * row i holds U[i][i..n-1] and starts at i * (2n - i + 1) / 2. */\n"
     "void tpsv_upper(const $T *ap, const $T *b, $T *x, $T shift, int n)\n{\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        const $T *row = ap + i * (2 * n - i + 1) / 2; /* row[0] is U[i][i] */\n"
     "        double s = b[i];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            s -= row[j - i] * x[j];\n"
     "        x[i] = s / (row[0] + shift);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* (U + shift * I) x = b, U packed by rows: one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void tpsv_upper(const $T *ap, const $T *b, $T *x, $T shift, int n)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = n - 1 - step;\n"
     "        const $T *row = ap + (long long)i * (2 * n - i + 1) / 2; /* row[0] is U[i][i] */\n"
     "        double s = 0.0;\n"
     "        for (int j = i + 1 + threadIdx.x; j < n; j += blockDim.x)\n"
     "            s += row[j - i] * x[j];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            x[i] = (b[i] - s) / (row[0] + shift);\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "tpsv_upper|1|256||ap,b,x,shift,n", NULL,
     "block=256;mapping=one-block,rows-in-order,block-sum-per-row"},
    {"f64", "tpsv-packed-upper-unit", "tpsv_unit", "solve U x = b, U unit upper triangular, packed by columns ($D)",
     "ap:in:n*(n+1)/2;b:in:n;x:out:n;n:param", "ap:u:" SMALL_OFFDIAG, VCFG_UNIT, "n*n", "$S*(n*(n+1)/2+2*n)", 0,
     0, 0, 0,
     "/* Solves U x = b for a unit upper triangular U packed column by column\n"
     " * (BLAS order): U[i][j] (i < j) is ap[j * (j + 1) / 2 + i]; the stored\n"
     " * diagonal entries ap[j * (j + 1) / 2 + j] are not read.  Column-oriented\n"
     " * back substitution: once x[j] is known, it is removed from the rows above. */\n"
     "void tpsv_unit(const double *ap, const double *b, double *x, int n)\n{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        x[i] = b[i];\n"
     "    for (int j = n - 1; j >= 0; j--) {\n"
     "        const double *col = ap + j * (j + 1) / 2;\n"
     "        for (int i = 0; i < j; i++)\n"
     "            x[i] -= col[i] * x[j];\n"
     "    }\n}\n",
     "/* U x = b, U unit upper triangular packed by columns: one block sweeps\n"
     " * the columns from the last; once x[j] is final the threads remove it\n"
     " * from the rows above (x[i] always belongs to thread i % blockDim.x). */\n"
     "extern \"C\" __global__ void tpsv_unit(const double *ap, const double *b, double *x, int n)\n"
     "{\n"
     "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
     "        x[i] = b[i];\n"
     "    __syncthreads();\n"
     "    for (int j = n - 1; j >= 0; j--) {\n"
     "        const double *col = ap + (long long)j * (j + 1) / 2;\n"
     "        const double xj = x[j];\n"
     "        for (int i = threadIdx.x; i < j; i += blockDim.x)\n"
     "            x[i] -= col[i] * xj;\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "tpsv_unit|1|256||ap,b,x,n", NULL,
     "block=256;mapping=one-block,column-sweep"},
    /* The band solves walk their rows in order in one warp, about 2.4 us a
     * row on an H100 (device run 37: 20 s for 8M rows, where one CPU core
     * takes 0.3 s), so their large configs keep n at 512K: a second or so,
     * within the harness's deadline of 10x the C reference's time, at least
     * 5 s. */
    {"f32 f64", "tbsv-band-lower", "tbsv", "solve (L + shift*I) x = b for a band L with k sub-diagonals ($D)",
     "ab:in:n,k+1;b:in:n;x:out:n;shift:scalar:8;n:param;k:param", NULL,
     "small:n=10000,k=4,shift=8|edge:n=1,k=0,shift=2|edge-wide:n=5,k=8,shift=8|edge-prime:n=131,k=7,shift=8|"
     "large:n=524288,k=16,shift=12",
     "2*n*(k+1)", "$S*(n*(k+1)+2*n)", 1e-6, 1e-4, 1e-12, 1e-9,
     "/* Solves (L + shift * I) x = b for a lower band matrix L with k\n"
     " * sub-diagonals stored by rows: ab[i * (k + 1) + d] is L[i][i - d] for\n"
     " * d = 0..k (entries before column 0 unused). */\n"
     "void tbsv(const $T *ab, const $T *b, $T *x, $T shift, int n, int k)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const $T *row = ab + i * (k + 1);\n"
     "        double s = b[i];\n"
     "        for (int d = 1; d <= k && d <= i; d++)\n"
     "            s -= row[d] * x[i - d];\n"
     "        x[i] = s / (row[0] + shift);\n"
     "    }\n}\n",
     "/* (L + shift * I) x = b for a lower band matrix with k sub-diagonals: one\n"
     " * warp walks the rows in order, its lanes sharing the k band terms of each\n"
     " * row (a warp-shuffle sum); lane 0 finishes x[i].  The last k + 1 unknowns\n"
     " * are also kept in a shared-memory ring, so that the next rows read them\n"
     " * without a round trip through global memory. */\n"
     "extern \"C\" __global__ void tbsv(const $T *__restrict__ ab, const $T *__restrict__ b, $T *__restrict__ x,\n"
     "                                $T shift, int n, int k)\n"
     "{\n"
     "    extern __shared__ $T ring[];\n"
     "    const int lane = threadIdx.x;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const $T *row = ab + (long long)i * (k + 1);\n"
     "        double s = 0.0;\n"
     "        for (int d = 1 + lane; d <= k && d <= i; d += 32)\n"
     "            s += row[d] * ring[(i - d) % (k + 1)];\n"
     "        for (int o = 16; o > 0; o >>= 1)\n"
     "            s += __shfl_down_sync(0xffffffffu, s, o);\n"
     "        if (lane == 0) {\n"
     "            const $T xi = (b[i] - s) / (row[0] + shift);\n"
     "            x[i] = xi;\n"
     "            ring[i % (k + 1)] = xi;\n"
     "        }\n"
     "        __syncwarp();\n"
     "    }\n"
     "}\n",
     "tbsv|1|32|(k+1)*$S|ab,b,x,shift,n,k", NULL,
     "block=32;mapping=one-warp,rows-in-order,warp-shuffle-sum,shared-ring-of-unknowns"},
    {"f64", "tbsv-band-upper-blas", "tbsv_upper", "solve (U + shift*I) x = b, U in BLAS upper band storage ($D)",
     "ab:in:n,k+1;b:in:n;x:out:n;shift:scalar:8;n:param;k:param", NULL,
     "small:n=10000,k=4,shift=8|edge:n=1,k=0,shift=2|edge-wide:n=5,k=8,shift=8|edge-prime:n=131,k=7,shift=8|"
     "large:n=524288,k=16,shift=12",
     "2*n*(k+1)", "$S*(n*(k+1)+2*n)", 0, 0, 1e-12, 1e-9,
     "/* Solves (U + shift * I) x = b for an upper band matrix U with k\n"
     " * super-diagonals in BLAS band storage (column-major): U[i][j] is\n"
     " * ab[j * (k + 1) + k + i - j] for j - k <= i <= j, so the diagonal is\n"
     " * ab[j * (k + 1) + k]. */\n"
     "void tbsv_upper(const double *ab, const double *b, double *x, double shift, int n, int k)\n{\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = b[i];\n"
     "        for (int j = i + 1; j <= i + k && j < n; j++)\n"
     "            s -= ab[j * (k + 1) + k + i - j] * x[j];\n"
     "        x[i] = s / (ab[i * (k + 1) + k] + shift);\n"
     "    }\n}\n",
     "/* (U + shift * I) x = b for an upper band matrix in BLAS band storage: one\n"
     " * warp walks the rows from the last, its lanes sharing the k band terms of\n"
     " * each row (a warp-shuffle sum); lane 0 finishes x[i].  The last k + 1\n"
     " * unknowns are also kept in a shared-memory ring, so that the next rows\n"
     " * read them without a round trip through global memory. */\n"
     "extern \"C\" __global__ void tbsv_upper(const double *__restrict__ ab, const double *__restrict__ b,\n"
     "                                      double *__restrict__ x, double shift, int n, int k)\n"
     "{\n"
     "    extern __shared__ double ring[];\n"
     "    const int lane = threadIdx.x;\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = 0.0;\n"
     "        for (int j = i + 1 + lane; j <= i + k && j < n; j += 32)\n"
     "            s += ab[(long long)j * (k + 1) + k + i - j] * ring[j % (k + 1)];\n"
     "        for (int o = 16; o > 0; o >>= 1)\n"
     "            s += __shfl_down_sync(0xffffffffu, s, o);\n"
     "        if (lane == 0) {\n"
     "            const double xi = (b[i] - s) / (ab[(long long)i * (k + 1) + k] + shift);\n"
     "            x[i] = xi;\n"
     "            ring[i % (k + 1)] = xi;\n"
     "        }\n"
     "        __syncwarp();\n"
     "    }\n"
     "}\n",
     "tbsv_upper|1|32|(k+1)*8|ab,b,x,shift,n,k", NULL,
     "block=32;mapping=one-warp,rows-in-order,warp-shuffle-sum,shared-ring-of-unknowns"},
    {"f32 f64", "bidiagonal-lower", "bidiag_solve", "solve a lower bidiagonal system (diagonal d, sub-diagonal e) ($D)",
     "d:in:n;e:in:n;b:in:n;x:out:n;n:param", "d:u:1:2;e:u:-0.5:0.5",
     BIDIAG_CFG("$(67108864|33554432)"), "3*n", "$S*4*n", 1e-5,
     1e-4, 0, 0,
     "/* Solves the lower bidiagonal system d[0] x[0] = b[0],\n"
     " * e[i] x[i - 1] + d[i] x[i] = b[i] (i >= 1); e[0] is unused.  A first-order\n"
     " * linear recurrence. */\n"
     "void bidiag_solve(const $T *d, const $T *e, const $T *b, $T *x, int n)\n{\n"
     "    if (n == 0)\n"
     "        return;\n"
     "    x[0] = b[0] / d[0];\n"
     "    for (int i = 1; i < n; i++)\n"
     "        x[i] = (b[i] - e[i] * x[i - 1]) / d[i];\n}\n",
     "/* A first-order recurrence over up to 2^26 unknowns, in three launches: the\n"
     " * unknowns are cut into chunks of CHUNK; each chunk composes the affine\n"
     " * maps v -> (b[i] - e[i] v) / d[i] of its unknowns (in double), one\n"
     " * thread chains the chunk maps to find the value entering every chunk,\n"
     " * and each chunk then runs the C program's recurrence from that value. */\n"
     "#define CHUNK 256\n"
     "\n"
     "/* First launch: chunk c's composed map A v + B, one thread per chunk\n"
     " * (x[0] = b[0] / d[0] ignores e[0]). */\n"
     "extern \"C\" __global__ void chunk_maps(const $T *d, const $T *e, const $T *b, int n, double *amap, "
     "double *bmap)\n"
     "{\n"
     "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    const long long i0 = c * CHUNK;\n"
     "    if (i0 >= n)\n"
     "        return;\n"
     "    const long long i1 = min(i0 + CHUNK, (long long)n);\n"
     "    double A = 1.0, B = 0.0;\n"
     "    for (long long i = i0; i < i1; i++) {\n"
     "        const double ei = i == 0 ? 0.0 : e[i];\n"
     "        A = -ei * A / d[i];\n"
     "        B = (b[i] - ei * B) / d[i];\n"
     "    }\n"
     "    amap[c] = A;\n"
     "    bmap[c] = B;\n"
     "}\n"
     "\n"
     "/* Second launch: one thread chains the maps, xin[c] = the unknown just\n"
     " * before chunk c (0 before the first). */\n"
     "extern \"C\" __global__ void chain_chunks(const double *__restrict__ amap, const double *__restrict__ bmap,\n"
     "                                        double *__restrict__ xin, int chunks)\n"
     "{\n"
     "    double v = 0.0;\n"
     "    for (int c = 0; c < chunks; c++) {\n"
     "        xin[c] = v;\n"
     "        v = amap[c] * v + bmap[c];\n"
     "    }\n"
     "}\n"
     "\n"
     "/* Third launch: every chunk's unknowns by the C program's recurrence,\n"
     " * starting from xin, one thread per chunk. */\n"
     "extern \"C\" __global__ void bidiag_solve(const $T *d, const $T *e, const $T *b, $T *x, int n, "
     "const double *xin)\n"
     "{\n"
     "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    const long long i0 = c * CHUNK;\n"
     "    if (i0 >= n)\n"
     "        return;\n"
     "    const long long i1 = min(i0 + CHUNK, (long long)n);\n"
     "    $T prev = xin[c];\n"
     "    for (long long i = i0; i < i1; i++) {\n"
     "        prev = i == 0 ? b[0] / d[0] : (b[i] - e[i] * prev) / d[i];\n"
     "        x[i] = prev;\n"
     "    }\n"
     "}\n",
     "chunk_maps|((n+255)/256+255)/256|256||d,e,b,n,amap,bmap;chain_chunks|1|1||amap,bmap,xin,(n+255)/256;bidiag_solve|((n+255)/256+255)/256|256||d,e,b,x,n,xin", "amap:f64:(n+255)/256;bmap:f64:(n+255)/256;xin:f64:(n+255)/256",
     "block=256;chunk=256;mapping=three-launches,chunked-affine-scan,one-chunk-per-thread"},
    {"f32", "bidiagonal-upper", "bidiag_upper_solve", "solve an upper bidiagonal system (diagonal d, super-diagonal f) ($D)",
     "d:in:n;f:in:n;b:in:n;x:out:n;n:param", "d:u:1:2;f:u:-0.5:0.5",
     BIDIAG_CFG("67108864"), "3*n", "$S*4*n", 1e-5, 1e-4, 0, 0,
     "/* Solves d[i] x[i] + f[i] x[i + 1] = b[i] for i < n - 1 and\n"
     " * d[n - 1] x[n - 1] = b[n - 1] (f[n - 1] is unused), from the last\n"
     " * unknown backwards. */\n"
     "void bidiag_upper_solve(const float *d, const float *f, const float *b, float *x, int n)\n{\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        float s = b[i];\n"
     "        if (i + 1 < n)\n"
     "            s -= f[i] * x[i + 1];\n"
     "        x[i] = s / d[i];\n"
     "    }\n}\n",
     "/* A first-order recurrence (from the last unknown) over up to 2^26 unknowns, in three launches: the\n"
     " * unknowns are cut into chunks of CHUNK; each chunk composes the affine\n"
     " * maps v -> (b[i] - f[i] v) / d[i] of its unknowns (in double), one\n"
     " * thread chains the chunk maps to find the value entering every chunk,\n"
     " * and each chunk then runs the C program's recurrence from that value. */\n"
     "#define CHUNK 256\n"
     "\n"
     "/* First launch: chunk c's composed map A v + B, from its last unknown to\n"
     " * its first, one thread per chunk (x[n - 1] = b[n - 1] / d[n - 1] ignores\n"
     " * f[n - 1]). */\n"
     "extern \"C\" __global__ void chunk_maps(const float *d, const float *f, const float *b, int n, double *amap,\n"
     "                                      double *bmap)\n"
     "{\n"
     "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    const long long i0 = c * CHUNK;\n"
     "    if (i0 >= n)\n"
     "        return;\n"
     "    const long long i1 = min(i0 + CHUNK, (long long)n);\n"
     "    double A = 1.0, B = 0.0;\n"
     "    for (long long i = i1 - 1; i >= i0; i--) {\n"
     "        const double fi = i == n - 1 ? 0.0 : f[i];\n"
     "        A = -fi * A / d[i];\n"
     "        B = (b[i] - fi * B) / d[i];\n"
     "    }\n"
     "    amap[c] = A;\n"
     "    bmap[c] = B;\n"
     "}\n"
     "\n"
     "/* Second launch: one thread chains the maps from the last chunk, xin[c] =\n"
     " * the unknown just after chunk c (0 after the last). */\n"
     "extern \"C\" __global__ void chain_chunks(const double *__restrict__ amap, const double *__restrict__ bmap,\n"
     "                                        double *__restrict__ xin, int chunks)\n"
     "{\n"
     "    double v = 0.0;\n"
     "    for (int c = chunks - 1; c >= 0; c--) {\n"
     "        xin[c] = v;\n"
     "        v = amap[c] * v + bmap[c];\n"
     "    }\n"
     "}\n"
     "\n"
     "/* Third launch: every chunk's unknowns by the C program's recurrence,\n"
     " * from xin backwards, one thread per chunk. */\n"
     "extern \"C\" __global__ void bidiag_upper_solve(const float *d, const float *f, const float *b, "
     "float *x, int n,\n"
     "                                              const double *xin)\n"
     "{\n"
     "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    const long long i0 = c * CHUNK;\n"
     "    if (i0 >= n)\n"
     "        return;\n"
     "    const long long i1 = min(i0 + CHUNK, (long long)n);\n"
     "    float next = xin[c];\n"
     "    for (long long i = i1 - 1; i >= i0; i--) {\n"
     "        float s = b[i];\n"
     "        if (i + 1 < n)\n"
     "            s -= f[i] * next;\n"
     "        next = s / d[i];\n"
     "        x[i] = next;\n"
     "    }\n"
     "}\n",
     "chunk_maps|((n+255)/256+255)/256|256||d,f,b,n,amap,bmap;chain_chunks|1|1||amap,bmap,xin,(n+255)/256;bidiag_upper_solve|((n+255)/256+255)/256|256||d,f,b,x,n,xin", "amap:f64:(n+255)/256;bmap:f64:(n+255)/256;xin:f64:(n+255)/256",
     "block=256;chunk=256;mapping=three-launches,chunked-affine-scan,one-chunk-per-thread"},
    {"f32 f64", "trmv-lower", "trmv", "y = L*x, L the lower triangle of A ($D)", "a:in:n,n;x:in:n;y:out:n;n:param",
     NULL, VCFG_UNIT, "n*n", "$S*(n*(n+1)/2+2*n)", 1e-3, 1e-3, 0, 0,
     "/* Triangular matrix-vector product y = L * x with L the lower triangle\n"
     " * (diagonal included) of the n x n row-major matrix a. */\n"
     "void trmv(const $T *a, const $T *x, $T *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = L * x: one block per row of L. */\n"
     "extern \"C\" __global__ void trmv(const $T *a, const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < i + 1; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "trmv|n|256||a,x,y,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32 f64", "trmv-upper-inplace", "trmv_upper", "x = U*x in place ($D)", "a:in:n,n;x:inout:n;n:param", NULL,
     VCFG_UNIT, "n*n", "$S*(n*(n+1)/2+2*n)", 1e-3, 1e-3, 0, 0,
     "/* x = U * x in place, U the upper triangle (diagonal included) of the n x n\n"
     " * row-major matrix a.  Going down the rows is safe: row i only needs\n"
     " * x[i..n-1], which are still the original values. */\n"
     "void trmv_upper(const $T *a, $T *x, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = i; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        x[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* First launch, ux = U * x into scratch (x must stay intact while other rows\n"
     " * read it): one block per row of U. */\n"
     "extern \"C\" __global__ void trmv_upper(const $T *a, const $T *x, $T *ux, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const $T *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = i + threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        ux[i] = acc;\n"
     "}\n"
     "\n"
     "/* Second launch: x = ux, one thread per element. */\n"
     "extern \"C\" __global__ void copy_back(const $T *ux, $T *x, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    x[i] = ux[i];\n"
     "}\n",
     "trmv_upper|n|256||a,x,ux,n;copy_back|(n+255)/256|256||ux,x,n", "ux:$D:n",
     "block=256;mapping=two-launches,one-row-per-block+copy,scratch-result"},
    {"f64", "trmv-lower-unit", "trmv_unit", "y = L*x, L unit lower triangular ($D)", "a:in:n,n;x:in:n;y:out:n;n:param",
     NULL, VCFG_UNIT, "n*n", "$S*(n*(n-1)/2+2*n)", 0, 0, 0, 0,
     "/* y = L * x with L unit lower triangular: the strict lower part of the\n"
     " * n x n row-major matrix a and ones on the diagonal. */\n"
     "void trmv_unit(const double *a, const double *x, double *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = x[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = L * x, L unit lower triangular: one block per row. */\n"
     "extern \"C\" __global__ void trmv_unit(const double *a, const double *x, double *y, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const double *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < i; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = x[i] + acc;\n"
     "}\n",
     "trmv_unit|n|256||a,x,y,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "trmv-lower-trans", "trmv_t", "y = L^T*x ($D)", "a:in:n,n;x:in:n;y:out:n;n:param", NULL, VCFG_UNIT,
     "n*n", "$S*(n*(n+1)/2+2*n)", 1e-3, 1e-3, 0, 0,
     "/* y = L^T * x with L the lower triangle of the n x n row-major matrix a:\n"
     " * y[j] = sum over i >= j of L[i][j] * x[i]. */\n"
     "void trmv_t(const float *a, const float *x, float *y, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.0;\n"
     "        for (int i = j; i < n; i++)\n"
     "            acc += a[i * n + j] * x[i];\n"
     "        y[j] = acc;\n"
     "    }\n}\n",
     "/* y = L^T * x: one thread per column of L (coalesced across a warp). */\n"
     "extern \"C\" __global__ void trmv_t(const float *a, const float *x, float *y, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int i = j; i < n; i++)\n"
     "        acc += a[(long long)i * n + j] * x[i];\n"
     "    y[j] = acc;\n"
     "}\n",
     "trmv_t|(n+255)/256|256||a,x,y,n", NULL,
     "block=256;mapping=one-column-per-thread"},
    {"f32", "tpmv-packed-lower", "tpmv", "y = L*x, L packed by rows ($D)", "ap:in:n*(n+1)/2;x:in:n;y:out:n;n:param",
     NULL, VCFG_UNIT, "n*n", "$S*(n*(n+1)/2+2*n)", 1e-3, 1e-3, 0, 0,
     "/* y = L * x for a lower triangular L packed row by row: L[i][j] (j <= i)\n"
     " * is ap[i * (i + 1) / 2 + j]. */\n"
     "void tpmv(const float *ap, const float *x, float *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const float *row = ap + i * (i + 1) / 2;\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j <= i; j++)\n"
     "            acc += row[j] * x[j];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y = L * x, L packed by rows: one block per row. */\n"
     "extern \"C\" __global__ void tpmv(const float *ap, const float *x, float *y, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = ap + (long long)i * (i + 1) / 2;\n"
     "    double acc = 0.0;\n"
     "    for (int j = threadIdx.x; j < i + 1; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] = acc;\n"
     "}\n",
     "tpmv|n|256||ap,x,y,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "trmv-upper-accumulate", "trmv_acc", "y += alpha*U*x ($D)",
     "a:in:n,n;x:in:n;y:inout:n;alpha:scalar:~0.5~2;n:param", NULL, VCFG_UNIT, "n*n+2*n", "$S*(n*(n+1)/2+3*n)",
     1e-3, 1e-3, 0, 0,
     "/* y += alpha * U * x with U the upper triangle of the n x n row-major\n"
     " * matrix a. */\n"
     "void trmv_acc(const float *a, const float *x, float *y, float alpha, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = i; j < n; j++)\n"
     "            acc += a[i * n + j] * x[j];\n"
     "        y[i] += alpha * acc;\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* y += alpha * U * x: one block per row of U. */\n"
     "extern \"C\" __global__ void trmv_acc(const float *a, const float *x, float *y, float alpha, int n)\n"
     "{\n"
     "    const int i = blockIdx.x;\n"
     "    const float *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int j = i + threadIdx.x; j < n; j += blockDim.x)\n"
     "        acc += row[j] * x[j];\n"
     "    acc = block_sum(acc);\n"
     "    if (threadIdx.x == 0)\n"
     "        y[i] += alpha * acc;\n"
     "}\n",
     "trmv_acc|n|256||a,x,y,alpha,n", NULL,
     "block=256;mapping=one-row-per-block,warp-shuffle-block-sum"},
    {"f32", "batched-lower", "trsv_batched", "solve (L[t] + shift*I) x[t] = b[t] for a batch ($D)",
     "a:in:batch,n,n;b:in:batch,n;x:out:batch,n;shift:scalar:16;batch:param;n:param", NULL,
     "small:batch=64,n=32,shift=16|edge:batch=1,n=1,shift=4|edge-prime:batch=7,n=13,shift=8|"
     "large:batch=16384,n=128,shift=24",
     "batch*n*n", "$S*batch*(n*(n+1)/2+2*n)", 1e-6, 1e-4, 0, 0,
     "#include <stddef.h>\n\n"
     "/* A batch of independent lower triangular solves: (L[t] + shift * I) x[t] =\n"
     " * b[t], with L[t] the lower triangle of the t-th n x n row-major matrix. */\n"
     "void trsv_batched(const float *a, const float *b, float *x, float shift, int batch, int n)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const float *at = a + (size_t)t * n * n;\n"
     "        const float *bt = b + (size_t)t * n;\n"
     "        float *xt = x + (size_t)t * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            double s = bt[i];\n"
     "            for (int j = 0; j < i; j++)\n"
     "                s -= at[i * n + j] * xt[j];\n"
     "            xt[i] = s / (at[i * n + i] + shift);\n"
     "        }\n    }\n}\n",
     "/* A batch of lower triangular solves: one thread per system. */\n"
     "extern \"C\" __global__ void trsv_batched(const float *a, const float *b, float *x, float shift, "
     "int batch, int n)\n"
     "{\n"
     "    const int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= batch)\n"
     "        return;\n"
     "    const float *at = a + (long long)t * n * n;\n"
     "    const float *bt = b + (long long)t * n;\n"
     "    float *xt = x + (long long)t * n;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = bt[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= at[i * n + j] * xt[j];\n"
     "        xt[i] = s / (at[i * n + i] + shift);\n"
     "    }\n"
     "}\n",
     "trsv_batched|(batch+255)/256|256||a,b,x,shift,batch,n", NULL,
     "block=256;mapping=one-system-per-thread"},
    {"f64", "batched-upper-multi-rhs", "trsm_batched", "solve (U[t] + shift*I) X[t] = B[t] for a batch ($D)",
     "a:in:batch,n,n;b:in:batch,n,nrhs;x:out:batch,n,nrhs;shift:scalar:16;batch:param;n:param;nrhs:param", NULL,
     "small:batch=16,n=32,nrhs=4,shift=16|edge:batch=1,n=1,nrhs=1,shift=4|edge-prime:batch=7,n=13,nrhs=3,shift=8|"
     "large:batch=4096,n=128,nrhs=32,shift=24",
     "batch*n*n*nrhs", "$S*batch*(n*(n+1)/2+2*n*nrhs)", 0, 0, 1e-12, 1e-9,
     "#include <stddef.h>\n\n"
     "/* Batched back substitution with several right-hand sides:\n"
     " * (U[t] + shift * I) X[t] = B[t], U[t] the upper triangle of the t-th\n"
     " * n x n row-major matrix, B[t] and X[t] n x nrhs row-major. */\n"
     "void trsm_batched(const double *a, const double *b, double *x, double shift, int batch, int n, int nrhs)\n{\n"
     "    for (int t = 0; t < batch; t++) {\n"
     "        const double *at = a + (size_t)t * n * n;\n"
     "        const double *bt = b + (size_t)t * n * nrhs;\n"
     "        double *xt = x + (size_t)t * n * nrhs;\n"
     "        for (int i = n - 1; i >= 0; i--) {\n"
     "            for (int c = 0; c < nrhs; c++) {\n"
     "                double s = bt[i * nrhs + c];\n"
     "                for (int j = i + 1; j < n; j++)\n"
     "                    s -= at[i * n + j] * xt[j * nrhs + c];\n"
     "                xt[i * nrhs + c] = s / (at[i * n + i] + shift);\n"
     "            }\n        }\n    }\n}\n",
     "/* A batch of back substitutions with several right-hand sides: one thread\n"
     " * per (system, right-hand side) pair. */\n"
     "extern \"C\" __global__ void trsm_batched(const double *a, const double *b, double *x, double shift, "
     "int batch, int n,\n"
     "                                        int nrhs)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * nrhs)\n"
     "        return;\n"
     "    const int t = (int)(e / nrhs), c = (int)(e % nrhs);\n"
     "    const double *at = a + (long long)t * n * n;\n"
     "    const double *bt = b + (long long)t * n * nrhs;\n"
     "    double *xt = x + (long long)t * n * nrhs;\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = bt[i * nrhs + c];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            s -= at[i * n + j] * xt[j * nrhs + c];\n"
     "        xt[i * nrhs + c] = s / (at[i * n + i] + shift);\n"
     "    }\n"
     "}\n",
     "trsm_batched|(batch*nrhs+255)/256|256||a,b,x,shift,batch,n,nrhs", NULL,
     "block=256;mapping=one-right-hand-side-per-thread"},
    {"f32 f64", "inverse-lower", "trtri", "X = (L + shift*I)^-1, lower triangular inverse ($D)",
     "a:in:n,n;x:out:n,n;shift:scalar:16;n:param", NULL,
     "small:n=96,shift=16|edge:n=1,shift=4|edge-prime:n=37,shift=12|large:n=4096,shift=256", "n*n*n/3",
     "$S*(n*(n+1)/2+n*n)", 1e-8, 1e-4, 1e-14, 1e-9,
     "/* Inverse of the lower triangular matrix T = L + shift * I, L the lower\n"
     " * triangle of the n x n row-major matrix a.  X = T^-1 is lower triangular\n"
     " * too; column c solves T x_c = e_c by forward substitution from row c.\n"
     " * The strict upper triangle of X is set to zero. */\n"
     "void trtri(const $T *a, $T *x, $T shift, int n)\n{\n"
     "    for (int c = 0; c < n; c++) {\n"
     "        for (int i = 0; i < c; i++)\n"
     "            x[i * n + c] = 0;\n"
     "        for (int i = c; i < n; i++) {\n"
     "            double s = i == c ? 1.0 : 0.0;\n"
     "            for (int j = c; j < i; j++)\n"
     "                s -= a[i * n + j] * x[j * n + c];\n"
     "            x[i * n + c] = s / (a[i * n + i] + shift);\n"
     "        }\n    }\n}\n",
     "/* X = (L + shift * I)^-1: one thread per column of X, which solves\n"
     " * T x_c = e_c by forward substitution (a warp reads consecutive columns). */\n"
     "extern \"C\" __global__ void trtri(const $T *a, $T *x, $T shift, int n)\n"
     "{\n"
     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (c >= n)\n"
     "        return;\n"
     "    for (int i = 0; i < c; i++)\n"
     "        x[(long long)i * n + c] = 0;\n"
     "    for (int i = c; i < n; i++) {\n"
     "        double s = i == c ? 1.0 : 0.0;\n"
     "        for (int j = c; j < i; j++)\n"
     "            s -= a[(long long)i * n + j] * x[(long long)j * n + c];\n"
     "        x[(long long)i * n + c] = s / (a[(long long)i * n + i] + shift);\n"
     "    }\n"
     "}\n",
     "trtri|(n+255)/256|256||a,x,shift,n", NULL,
     "block=256;mapping=one-column-per-thread"},
    {"f32 f64", "lu-solve", "lu_solve", "solve (L U) x = b from packed LU factors ($D)",
     "lu:in:n,n;b:in:n;y:out:n;x:out:n;shift:scalar:1;n:param", "lu:u:" SMALL_OFFDIAG,
     "small:n=256,shift=1|edge:n=1,shift=1|edge-two:n=2,shift=1|edge-prime:n=131,shift=1|large:n=$(16384|11264),shift=1",
     "2*n*n", "$S*(n*n+3*n)", 1e-5, 1e-4, 0, 0,
     "/* Solves A x = b given A = L U in the packed form of an LU factorization:\n"
     " * L is unit lower triangular with its strict lower part in lu, U is the\n"
     " * upper triangle of lu plus shift on the diagonal (lu is n x n, row-major).\n"
     " * Forward substitution L y = b, then back substitution U x = y. */\n"
     "void lu_solve(const $T *lu, const $T *b, $T *y, $T *x, $T shift, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = b[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= lu[i * n + j] * y[j];\n"
     "        y[i] = s;\n"
     "    }\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = y[i];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            s -= lu[i * n + j] * x[j];\n"
     "        x[i] = s / (lu[i * n + i] + shift);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* First launch, L y = b (L unit lower): one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void lu_forward(const $T *lu, const $T *b, $T *y, int n)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = step;\n"
     "        const $T *row = lu + (long long)i * n;\n"
     "        double s = 0.0;\n"
     "        for (int j = threadIdx.x; j < i; j += blockDim.x)\n"
     "            s += row[j] * y[j];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            y[i] = b[i] - s;\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n"
     "\n"
     "/* Second launch, (U + shift * I) x = y: one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void lu_backward(const $T *lu, const $T *y, $T *x, $T shift, int n)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = n - 1 - step;\n"
     "        const $T *row = lu + (long long)i * n;\n"
     "        double s = 0.0;\n"
     "        for (int j = i + 1 + threadIdx.x; j < n; j += blockDim.x)\n"
     "            s += row[j] * x[j];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            x[i] = (y[i] - s) / (row[i] + shift);\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "lu_forward|1|256||lu,b,y,n;lu_backward|1|256||lu,y,x,shift,n", NULL,
     "block=256;mapping=two-launches,one-block,rows-in-order,block-sum-per-row"},
    {"f32 f64", "cholesky-solve", "cholesky_solve", "solve G G^T x = b with G = L + shift*I ($D)",
     "a:in:n,n;b:in:n;x:out:n;shift:scalar:64;n:param", NULL, VCFG_SHIFT, "2*n*n", "$S*(n*(n+1)/2+2*n)", 1e-8,
     1e-4, 1e-14, 1e-9,
     "/* Solves G G^T x = b, the two triangular solves after a Cholesky\n"
     " * factorization, with G = L + shift * I and L the lower triangle of the\n"
     " * n x n row-major matrix a.  x first holds the solution of G z = b. */\n"
     "void cholesky_solve(const $T *a, const $T *b, $T *x, $T shift, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = b[i];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= a[i * n + j] * x[j];\n"
     "        x[i] = s / (a[i * n + i] + shift);\n"
     "    }\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        double s = x[i];\n"
     "        for (int j = i + 1; j < n; j++)\n"
     "            s -= a[j * n + i] * x[j];\n"
     "        x[i] = s / (a[i * n + i] + shift);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* First launch, G z = b into x: one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void cholesky_forward(const $T *a, const $T *b, $T *x, $T shift, int n)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = step;\n"
     "        const $T *row = a + (long long)i * n;\n"
     "        double s = 0.0;\n"
     "        for (int j = threadIdx.x; j < i; j += blockDim.x)\n"
     "            s += row[j] * x[j];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            x[i] = (b[i] - s) / (row[i] + shift);\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n"
     "\n"
     "/* Second launch, G^T x = z: one block sweeps the columns of G^T (the\n"
     " * rows of G, contiguous) from the last; once x[j] is final the threads\n"
     " * remove it from the sums acc of the rows above (acc[i] always belongs\n"
     " * to thread i % blockDim.x). */\n"
     "extern \"C\" __global__ void cholesky_backward(const $T *a, $T *x, $T shift, int n, double *acc)\n"
     "{\n"
     "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
     "        acc[i] = x[i];\n"
     "    __syncthreads();\n"
     "    for (int j = n - 1; j >= 0; j--) {\n"
     "        const $T *row = a + (long long)j * n;\n"
     "        if (threadIdx.x == 0)\n"
     "            x[j] = acc[j] / (row[j] + shift);\n"
     "        __syncthreads();\n"
     "        const $T xj = x[j];\n"
     "        for (int i = threadIdx.x; i < j; i += blockDim.x)\n"
     "            acc[i] -= row[i] * xj;\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "cholesky_forward|1|256||a,b,x,shift,n;cholesky_backward|1|256||a,x,shift,n,acc", "acc:f64:n",
     "block=256;mapping=two-launches,one-block,block-sum-per-row+column-sweep"},
    {"f32", "trsv-strided", "trsv_strided", "solve (L + shift*I) x = b in place with stride incx ($D)",
     "a:in:n,n;x:inout:1+(n-1)*incx;shift:scalar:64;n:param;incx:param", NULL,
     "small:n=256,incx=3,shift=64|edge:n=1,incx=1,shift=4|edge-prime:n=131,incx=2,shift=48|"
     "large:n=16384,incx=4,shift=512",
     "n*n", "$S*(n*(n+1)/2+2*n)", 1e-6, 1e-4, 0, 0,
     "/* Solves (L + shift * I) x = b in place: on entry x[i * incx] holds b[i],\n"
     " * on return the solution; L is the lower triangle of the n x n row-major\n"
     " * matrix a.  Entries between the strided ones are not touched. */\n"
     "void trsv_strided(const float *a, float *x, float shift, int n, int incx)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double s = x[i * incx];\n"
     "        for (int j = 0; j < i; j++)\n"
     "            s -= a[i * n + j] * x[j * incx];\n"
     "        x[i * incx] = s / (a[i * n + i] + shift);\n"
     "    }\n}\n",
     REDUCE_BLOCK_SUM("double")
     "/* (L + shift * I) x = b in place, stride incx: one block walks the rows\n"
     " * in order, the threads sharing each row's dot product with the solved\n"
     " * part of x; thread 0 finishes the unknown. */\n"
     "extern \"C\" __global__ void trsv_strided(const float *a, float *x, float shift, int n, int incx)\n"
     "{\n"
     "    for (int step = 0; step < n; step++) {\n"
     "        const int i = step;\n"
     "        const float *row = a + (long long)i * n;\n"
     "        double s = 0.0;\n"
     "        for (int j = threadIdx.x; j < i; j += blockDim.x)\n"
     "            s += row[j] * x[(long long)j * incx];\n"
     "        s = block_sum(s);\n"
     "        if (threadIdx.x == 0)\n"
     "            x[(long long)i * incx] = (x[(long long)i * incx] - s) / (row[i] + shift);\n"
     "        __syncthreads();\n"
     "    }\n"
     "}\n",
     "trsv_strided|1|256||a,x,shift,n,incx", NULL,
     "block=256;mapping=one-block,rows-in-order,block-sum-per-row"},
    {"f64", "trmm-lower", "trmm", "C = L*B, L the lower triangle of A ($D)",
     "a:in:n,n;b:in:n,nrhs;c:out:n,nrhs;n:param;nrhs:param", NULL,
     "small:n=128,nrhs=16|edge:n=1,nrhs=1|edge-prime:n=37,nrhs=5|large:n=4096,nrhs=2048", "n*n*nrhs",
     "$S*(n*(n+1)/2+2*n*nrhs)", 0, 0, 0, 0,
     "/* Triangular matrix product C = L * B, L the lower triangle (diagonal\n"
     " * included) of the n x n row-major matrix a; B and C are n x nrhs. */\n"
     "void trmm(const double *a, const double *b, double *c, int n, int nrhs)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int j = 0; j < nrhs; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p <= i; p++)\n"
     "                acc += a[i * n + p] * b[p * nrhs + j];\n"
     "            c[i * nrhs + j] = acc;\n"
     "        }\n    }\n}\n",
     "/* C = L * B: one thread per element of C (threadIdx.x along a row of B and\n"
     " * C, so a warp reads consecutive entries of B). */\n"
     "extern \"C\" __global__ void trmm(const double *a, const double *b, double *c, int n, int nrhs)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;\n"
     "    if (j >= nrhs)\n"
     "        return;\n"
     "    const double *row = a + (long long)i * n;\n"
     "    double acc = 0.0;\n"
     "    for (int p = 0; p <= i; p++)\n"
     "        acc += row[p] * b[(long long)p * nrhs + j];\n"
     "    c[(long long)i * nrhs + j] = acc;\n"
     "}\n",
     "trmm|(nrhs+255)/256,n|256||a,b,c,n,nrhs", NULL,
     "block=256;mapping=one-element-per-thread"},
};

static int generate(GenCtx *g)
{
    for (int lower = 1; lower >= 0; lower--)
        for (int unit = 0; unit < 2; unit++)
            if (emit_trsv(g, lower, unit, 0, 0, "f32 f64"))
                return -1;
    if (emit_trsv(g, 1, 0, 1, 0, "f32 f64") || emit_trsv(g, 0, 1, 1, 0, "f32 f64") ||
        emit_trsv(g, 1, 0, 0, 1, "f32") || emit_trsv(g, 0, 0, 0, 1, "f64") ||
        emit_trsv(g, 1, 1, 1, 1, "f32"))
        return -1;
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_trisolve = {"trisolve", "linalg", 54, generate};
