/* stencil2d — 2D stencils on an n x m grid: Jacobi-style weighted
 * neighbourhood sums (5-point, 9-point, cross of radius 2), with the border
 * either copied, clamped or zero-padded, over f32 and f64, and with one or
 * two sweeps fused through a temporary. */
#include <stdio.h>

#include "gen.h"

typedef struct Shape {
    const char *tag;
    int radius;
    int npts;
    int di[13], dj[13];
} Shape;

static const Shape SHAPES[] = {
    {"5pt", 1, 5, {0, -1, 1, 0, 0}, {0, 0, 0, -1, 1}},
    {"9pt", 1, 9, {-1, -1, -1, 0, 0, 0, 1, 1, 1}, {-1, 0, 1, -1, 0, 1, -1, 0, 1}},
    {"cross2", 2, 9, {0, -1, 1, 0, 0, -2, 2, 0, 0}, {0, 0, 0, -1, 1, 0, 0, -2, 2}},
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
    if (border[0] == 'c' && border[1] == 'l')
        sb_printf(s, "in[clampi(%s, n) * m + clampi(%s, m)]", bi, bj);
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
    int made = 0;
    for (int sh = 0; sh < 3; sh++)
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 2; d++)
                for (int sweeps = 1; sweeps <= 2; sweeps++) {
                    if (made >= 36)
                        return 0;
                    const Shape *S = &SHAPES[sh];
                    const char *ty = d == 0 ? "float" : "double";
                    char variant[64];
                    snprintf(variant, sizeof variant, "%s-%s-%s%s", S->tag, BORDERS[b], dtypes[d],
                             sweeps == 2 ? "-x2" : "");
                    GenProgram *p = gen_begin(g, variant, "stencil");
                    gen_describe(p, "%d-point 2D stencil, %s border, %d sweep(s)", S->npts, BORDERS[b],
                                 sweeps);
                    gen_arg(p, "in", dtypes[d], "in", "n,m");
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
                    gen_cost(p, flops, d == 0 ? "8*n*m" : "16*n*m");
                    /* Weights: a deterministic draw per program, summing to about 1. */
                    double w[13], sum = 0;
                    for (int k = 0; k < S->npts; k++)
                        sum += (w[k] = gen_uniform(g, 0.05, 1.0));
                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* %d-point stencil on an n x m grid (row-major), %s border. */\n",
                              S->npts, BORDERS[b]);
                    if (b == 1)
                        sb_append(s, "static int clampi(int v, int len)\n{\n"
                                     "    return v < 0 ? 0 : (v >= len ? len - 1 : v);\n}\n\n");
                    if (b == 2)
                        sb_printf(s,
                                  "static %s at(const %s *a, int n, int m, int i, int j)\n{\n"
                                  "    if (i < 0 || i >= n || j < 0 || j >= m)\n        return 0;\n"
                                  "    return a[i * m + j];\n}\n\n",
                                  ty, ty);
                    sb_printf(s, "static void sweep(const %s *in, %s *out, int n, int m)\n{\n", ty, ty);
                    sb_append(s, "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n");
                    if (b == 0) {
                        sb_printf(s,
                                  "            if (i < %d || i >= n - %d || j < %d || j >= m - %d) {\n"
                                  "                out[i * m + j] = in[i * m + j];\n"
                                  "                continue;\n            }\n",
                                  S->radius, S->radius, S->radius, S->radius);
                    }
                    sb_append(s, "            out[i * m + j] =");
                    for (int k = 0; k < S->npts; k++) {
                        sb_printf(s, "%s%.6f%s * ", k ? "\n                + " : " ", w[k] / sum,
                                  d == 0 ? "f" : "");
                        emit_index(s, BORDERS[b], S->di[k], S->dj[k]);
                    }
                    sb_append(s, ";\n        }\n    }\n}\n\n");
                    if (sweeps == 1) {
                        sb_printf(s, "void stencil(const %s *in, %s *out, int n, int m)\n{\n"
                                     "    sweep(in, out, n, m);\n}\n", ty, ty);
                    } else {
                        sb_printf(s, "/* Two sweeps: in -> tmp -> out. */\n"
                                     "void stencil(const %s *in, %s *out, %s *tmp, int n, int m)\n{\n"
                                     "    sweep(in, tmp, n, m);\n    sweep(tmp, out, n, m);\n}\n",
                                  ty, ty, ty);
                    }
                    if (gen_end(p) != 0)
                        return -1;
                    made++;
                }
    return 0;
}

const Family family_stencil2d = {"stencil2d", "stencil", 36, generate};
