/* stencil2d — 2D stencils on an n x m grid: Jacobi-style weighted
 * neighbourhood sums (5-point, 9-point, cross of radius 2, 5x5 box), with the
 * border either copied, clamped or zero-padded, over f32 and f64, with one or
 * two sweeps fused through a temporary, and with constant coefficients or a
 * per-point coefficient field scaling each update. */
#include <stdio.h>

#include "gen.h"

typedef struct Shape {
    const char *tag;
    int radius;
    int npts;
    int di[25], dj[25];
} Shape;

static const Shape SHAPES[] = {
    {"5pt", 1, 5, {0, -1, 1, 0, 0}, {0, 0, 0, -1, 1}},
    {"9pt", 1, 9, {-1, -1, -1, 0, 0, 0, 1, 1, 1}, {-1, 0, 1, -1, 0, 1, -1, 0, 1}},
    {"cross2", 2, 9, {0, -1, 1, 0, 0, -2, 2, 0, 0}, {0, 0, 0, -1, 1, 0, 0, -2, 2}},
    {"box25", 2, 25,
     {-2, -2, -2, -2, -2, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2},
     {-2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2}},
};

static const char *BORDERS[] = {"copy", "clamp", "zero"};

/* "i", "i + 1" or "i - 2": offsets as a person writes them. */
static const char *off(char *buf, const char *v, int d)
{
    if (d == 0)
        snprintf(buf, 16, "%s", v);
    else
        snprintf(buf, 16, "%s %c %d", v, d < 0 ? '-' : '+', d < 0 ? -d : d);
    return buf;
}

static void emit_index(StrBuf *s, const char *border, int di, int dj)
{
    char bi[16], bj[16];
    off(bi, "i", di);
    off(bj, "j", dj);
    if (border[0] == 'c' && border[1] == 'l') {
        char ci[32], cj[32];
        snprintf(ci, sizeof ci, di ? "clampi(%s, n)" : "%s", bi);
        snprintf(cj, sizeof cj, dj ? "clampi(%s, m)" : "%s", bj);
        sb_printf(s, di ? "in[%s * m + %s]" : "in[i * m + %s]", di ? ci : cj, cj);
    }
    else if (border[0] == 'z')
        sb_printf(s, "at(in, n, m, %s, %s)", bi, bj);
    else if (di == 0)
        sb_printf(s, "in[i * m + %s]", bj);
    else
        sb_printf(s, "in[(%s) * m + %s]", bi, bj);
}

/* The border rule's helpers; cuda: as __device__ functions for kernel.cu. */
static void emit_helpers(StrBuf *s, int b, const char *ty, int cuda)
{
    const char *q = cuda ? "static __device__ " : "static ";
    if (b == 1)
        sb_printf(s, "%sint clampi(int v, int len)\n{\n"
                     "    return v < 0 ? 0 : (v >= len ? len - 1 : v);\n}\n\n", q);
    if (b == 2)
        sb_printf(s,
                  "%s%s at(const %s *a, int n, int m, int i, int j)\n{\n"
                  "    if (i < 0 || i >= n || j < 0 || j >= m)\n        return 0;\n"
                  "    return a[i * m + j];\n}\n\n",
                  q, ty, ty);
}

/* The update of point (i, j), indented by ind: the copied border (left by
 * `skip`, "continue" in the C loop, "return" in a kernel), then the weighted
 * sum, one term per line.  w/sum are the program's weights. */
static void emit_update(StrBuf *s, const Shape *S, int b, int d, int var, const double *w, double sum,
                        const char *ind, const char *skip)
{
    if (b == 0) {
        sb_printf(s,
                  "%sif (i < %d || i >= n - %d || j < %d || j >= m - %d) {\n"
                  "%s    out[i * m + j] = in[i * m + j];\n"
                  "%s    %s;\n%s}\n",
                  ind, S->radius, S->radius, S->radius, S->radius, ind, ind, skip, ind);
    }
    sb_printf(s, var ? "%sout[i * m + j] = coef[i * m + j] * (" : "%sout[i * m + j] =", ind);
    for (int k = 0; k < S->npts; k++) {
        if (k)
            sb_printf(s, "\n%s    + ", ind);
        else if (!var)
            sb_append(s, " ");
        sb_printf(s, "%.6f%s * ", w[k] / sum, d == 0 ? "f" : "");
        emit_index(s, BORDERS[b], S->di[k], S->dj[k]);
    }
    sb_append(s, var ? ");\n" : ";\n");
}

/* The pair: the sweep as a kernel with one thread per point on 32x8
 * blocks (threadIdx.x along the contiguous j), launched once per sweep (the
 * second through tmp). */
static void emit_cuda(GenProgram *p, const Shape *S, int b, int d, int var, int sweeps, const double *w,
                      double sum)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = d == 0 ? "float" : "double";
    emit_helpers(k, b, ty, 1);
    sb_append(k, "/* One sweep in -> out: one thread per point. */\n");
    sb_printf(k, "extern \"C\" __global__ void sweep(const %s *__restrict__ in, ", ty);
    if (var)
        sb_printf(k, "const %s *__restrict__ coef,\n                                 ", ty);
    sb_printf(k, "%s *__restrict__ out, int n, int m)\n{\n"
                 "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (i >= n || j >= m)\n        return;\n", ty);
    emit_update(k, S, b, d, var, w, sum, "    ", "return");
    sb_append(k, "}\n");
    const char *c = var ? "coef," : "";
    char a1[48], a2[48];
    snprintf(a1, sizeof a1, "in,%s%s,n,m", c, sweeps == 2 ? "tmp" : "out");
    gen_launch(p, "sweep", "(m+31)/32,(n+7)/8", "32,8", NULL, a1);
    if (sweeps == 2) {
        snprintf(a2, sizeof a2, "tmp,%sout,n,m", c);
        gen_launch(p, "sweep", "(m+31)/32,(n+7)/8", "32,8", NULL, a2);
    }
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", sweeps == 1 ? "one-element-per-thread" : "one-element-per-thread, one launch per sweep");
}

static int generate(GenCtx *g)
{
    static const char *const dtypes[] = {"f32", "f64"};
    for (int var = 0; var < 2; var++)
    for (int sh = 0; sh < 4; sh++)
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 2; d++)
                for (int sweeps = 1; sweeps <= 2; sweeps++) {
                    const Shape *S = &SHAPES[sh];
                    const char *ty = d == 0 ? "float" : "double";
                    char variant[64];
                    snprintf(variant, sizeof variant, "%s-%s-%s%s%s", S->tag, BORDERS[b], dtypes[d],
                             sweeps == 2 ? "-x2" : "", var ? "-varcoef" : "");
                    GenProgram *p = gen_begin(g, variant, "stencil");
                    gen_describe(p, "%d-point 2D stencil, %s border, %d sweep(s)%s", S->npts, BORDERS[b],
                                 sweeps, var ? ", per-point coefficients" : "");
                    gen_arg(p, "in", dtypes[d], "in", "n,m");
                    if (var) {
                        gen_arg(p, "coef", dtypes[d], "in", "n,m");
                        gen_fill_uniform(p, "coef", 0.5, 1.5);
                    }
                    gen_arg(p, "out", dtypes[d], "out", "n,m");
                    if (sweeps == 2)
                        gen_arg(p, "tmp", dtypes[d], "out", "n,m");
                    gen_arg(p, "n", "i32", "param", NULL);
                    gen_arg(p, "m", "i32", "param", NULL);
                    gen_config(p, "small", "n=64,m=80");
                    gen_config(p, "edge", "n=1,m=7");
                    gen_config(p, "edge-prime", "n=37,m=131");
                    gen_config(p, "large", "n=8192,m=8192");
                    char flops[64];
                    snprintf(flops, sizeof flops, "%d*n*m", 2 * S->npts * sweeps);
                    gen_cost(p, flops, d == 0 ? (var ? "12*n*m" : "8*n*m") : (var ? "24*n*m" : "16*n*m"));
                    /* Weights: a deterministic draw per program, summing to about 1. */
                    double w[25], sum = 0;
                    for (int k = 0; k < S->npts; k++)
                        sum += (w[k] = gen_uniform(g, 0.05, 1.0));
                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* %d-point stencil on an n x m grid (row-major), %s border%s. */\n",
                              S->npts, BORDERS[b], var ? ";\n   each update is scaled by the coefficient field coef" : "");
                    emit_helpers(s, b, ty, 0);
                    const char *cp = var ? ", const " : "";
                    const char *cty = var ? ty : "";
                    const char *cn = var ? " *coef" : "";
                    sb_printf(s, "static void sweep(const %s *in%s%s%s, %s *out, int n, int m)\n{\n", ty, cp, cty, cn,
                              ty);
                    sb_append(s, "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n");
                    emit_update(s, S, b, d, var, w, sum, "            ", "continue");
                    sb_append(s, "        }\n    }\n}\n\n");
                    if (sweeps == 1) {
                        sb_printf(s, "void stencil(const %s *in%s%s%s, %s *out, int n, int m)\n{\n"
                                     "    sweep(in%s, out, n, m);\n}\n", ty, cp, cty, cn, ty, var ? ", coef" : "");
                    } else {
                        sb_printf(s, "/* Two sweeps: in -> tmp -> out. */\n"
                                     "void stencil(const %s *in%s%s%s, %s *out, %s *tmp, int n, int m)\n{\n"
                                     "    sweep(in%s, tmp, n, m);\n    sweep(tmp%s, out, n, m);\n}\n",
                                  ty, cp, cty, cn, ty, ty, var ? ", coef" : "", var ? ", coef" : "");
                    }
                    emit_cuda(p, S, b, d, var, sweeps, w, sum);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_stencil2d = {"stencil2d", "stencil", 96, generate};
