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
#include "gen_spec.h"

#define VCFG_SHIFT "small:n=256,shift=64|edge:n=1,shift=4|edge-two:n=2,shift=4|edge-prime:n=131,shift=48|" \
                   "large:n=$(16384|11264),shift=512"
#define VCFG_UNIT "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=$(16384|11264)"
#define MCFG_SHIFT "small:n=128,nrhs=16,shift=48|edge:n=1,nrhs=1,shift=4|edge-prime:n=37,nrhs=5,shift=24|" \
                   "large:n=4096,nrhs=2048,shift=256"
#define SMALL_OFFDIAG "-0.004:0.004"

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
    Spec sp = {dtypes, name, "trsv", desc, args, unit ? fills : NULL, unit ? VCFG_UNIT : VCFG_SHIFT, "n*n",
               "$S*(n*(n+1)/2+2*n)", unit ? 1e-5 : 1e-6, 1e-4, unit ? 0 : 1e-12, unit ? 0 : 1e-9, src};
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
     "        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
    {"f32 f64", "tbsv-band-lower", "tbsv", "solve (L + shift*I) x = b for a band L with k sub-diagonals ($D)",
     "ab:in:n,k+1;b:in:n;x:out:n;shift:scalar:8;n:param;k:param", NULL,
     "small:n=10000,k=4,shift=8|edge:n=1,k=0,shift=2|edge-wide:n=5,k=8,shift=8|edge-prime:n=131,k=7,shift=8|"
     "large:n=$(8388608|4194304),k=16,shift=12",
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
     "    }\n}\n"},
    {"f64", "tbsv-band-upper-blas", "tbsv_upper", "solve (U + shift*I) x = b, U in BLAS upper band storage ($D)",
     "ab:in:n,k+1;b:in:n;x:out:n;shift:scalar:8;n:param;k:param", NULL,
     "small:n=10000,k=4,shift=8|edge:n=1,k=0,shift=2|edge-wide:n=5,k=8,shift=8|edge-prime:n=131,k=7,shift=8|"
     "large:n=4194304,k=16,shift=12",
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
     "    }\n}\n"},
    {"f32 f64", "bidiagonal-lower", "bidiag_solve", "solve a lower bidiagonal system (diagonal d, sub-diagonal e) ($D)",
     "d:in:n;e:in:n;b:in:n;x:out:n;n:param", "d:u:1:2;e:u:-0.5:0.5",
     "small:n=100000|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=$(67108864|33554432)", "3*n", "$S*4*n", 1e-5,
     1e-4, 0, 0,
     "/* Solves the lower bidiagonal system d[0] x[0] = b[0],\n"
     " * e[i] x[i - 1] + d[i] x[i] = b[i] (i >= 1); e[0] is unused.  A first-order\n"
     " * linear recurrence. */\n"
     "void bidiag_solve(const $T *d, const $T *e, const $T *b, $T *x, int n)\n{\n"
     "    if (n == 0)\n"
     "        return;\n"
     "    x[0] = b[0] / d[0];\n"
     "    for (int i = 1; i < n; i++)\n"
     "        x[i] = (b[i] - e[i] * x[i - 1]) / d[i];\n}\n"},
    {"f32", "bidiagonal-upper", "bidiag_upper_solve", "solve an upper bidiagonal system (diagonal d, super-diagonal f) ($D)",
     "d:in:n;f:in:n;b:in:n;x:out:n;n:param", "d:u:1:2;f:u:-0.5:0.5",
     "small:n=100000|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=67108864", "3*n", "$S*4*n", 1e-5, 1e-4, 0, 0,
     "/* Solves d[i] x[i] + f[i] x[i + 1] = b[i] for i < n - 1 and\n"
     " * d[n - 1] x[n - 1] = b[n - 1] (f[n - 1] is unused), from the last\n"
     " * unknown backwards. */\n"
     "void bidiag_upper_solve(const float *d, const float *f, const float *b, float *x, int n)\n{\n"
     "    for (int i = n - 1; i >= 0; i--) {\n"
     "        float s = b[i];\n"
     "        if (i + 1 < n)\n"
     "            s -= f[i] * x[i + 1];\n"
     "        x[i] = s / d[i];\n"
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "            }\n        }\n    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "    }\n}\n"},
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
     "        }\n    }\n}\n"},
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
