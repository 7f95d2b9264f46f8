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
                    if (b == 1)
                        sb_append(s, "static int clampi(int v, int len)\n{\n"
                                     "    return v < 0 ? 0 : (v >= len ? len - 1 : v);\n}\n\n");
                    if (b == 2)
                        sb_printf(s,
                                  "static %s at(const %s *a, int n, int m, int i, int j)\n{\n"
                                  "    if (i < 0 || i >= n || j < 0 || j >= m)\n        return 0;\n"
                                  "    return a[i * m + j];\n}\n\n",
                                  ty, ty);
                    const char *cp = var ? ", const " : "";
                    const char *cty = var ? ty : "";
                    const char *cn = var ? " *coef" : "";
                    sb_printf(s, "static void sweep(const %s *in%s%s%s, %s *out, int n, int m)\n{\n", ty, cp, cty, cn,
                              ty);
                    sb_append(s, "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n");
                    if (b == 0) {
                        sb_printf(s,
                                  "            if (i < %d || i >= n - %d || j < %d || j >= m - %d) {\n"
                                  "                out[i * m + j] = in[i * m + j];\n"
                                  "                continue;\n            }\n",
                                  S->radius, S->radius, S->radius, S->radius);
                    }
                    sb_append(s, var ? "            out[i * m + j] = coef[i * m + j] * (" : "            out[i * m + j] =");
                    for (int k = 0; k < S->npts; k++) {
                        sb_printf(s, "%s%.6f%s * ", k ? "\n                + " : (var ? "" : " "), w[k] / sum,
                                  d == 0 ? "f" : "");
                        emit_index(s, BORDERS[b], S->di[k], S->dj[k]);
                    }
                    sb_append(s, var ? ");\n        }\n    }\n}\n\n" : ";\n        }\n    }\n}\n\n");
                    if (sweeps == 1) {
                        sb_printf(s, "void stencil(const %s *in%s%s%s, %s *out, int n, int m)\n{\n"
                                     "    sweep(in%s, out, n, m);\n}\n", ty, cp, cty, cn, ty, var ? ", coef" : "");
                    } else {
                        sb_printf(s, "/* Two sweeps: in -> tmp -> out. */\n"
                                     "void stencil(const %s *in%s%s%s, %s *out, %s *tmp, int n, int m)\n{\n"
                                     "    sweep(in%s, tmp, n, m);\n    sweep(tmp%s, out, n, m);\n}\n",
                                  ty, cp, cty, cn, ty, ty, var ? ", coef" : "", var ? ", coef" : "");
                    }
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_stencil2d = {"stencil2d", "stencil", 96, generate};
