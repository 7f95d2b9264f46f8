/* pb_jacobi2d — tsteps Jacobi iterations of the 5-point average on an
 * n x m grid, ping-ponging A -> B -> A each step.
 *
 * Programs vary in dtype (f32, f64), in whether the weight is a runtime
 * scalar or the constant 0.2, in square (n x n) versus rectangular (n x m)
 * grids, in the boundary (fixed borders of both A and B, never written;
 * fixed borders with B first copied from A; or periodic wrap-around with
 * every point updated), and in whether the sweep is a static helper or
 * written out inline. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

static const char *ctype(int f64)
{
    return f64 ? "double" : "float";
}

/* A floating literal as a person writes it: 1.5f, 2.0, 0.25. */
static const char *lit(double v, int f64)
{
    static char pool[8][40];
    static int k;
    char *b = pool[k++ % 8];
    char t[32];
    snprintf(t, sizeof t, "%.6g", v);
    if (!strpbrk(t, ".e"))
        strcat(t, ".0");
    snprintf(b, 40, "%s%s", t, f64 ? "" : "f");
    return b;
}

/* Appends "<head>(<params>)\n", wrapping the comma-separated parameter list
 * at 100 columns with continuation lines aligned after the parenthesis. */
static void put_signature(StrBuf *s, const char *head, const char *params)
{
    int indent = (int)strlen(head) + 1, col = indent;
    sb_printf(s, "%s(", head);
    const char *q = params;
    while (*q) {
        const char *e = strstr(q, ", ");
        int len = e ? (int)(e - q) : (int)strlen(q);
        if (q != params) {
            if (col + 2 + len + 1 > 100) {
                sb_printf(s, ",\n%*s", indent, "");
                col = indent;
            } else {
                sb_append(s, ", ");
                col += 2;
            }
        }
        sb_append_n(s, q, (size_t)len);
        col += len;
        q = e ? e + 2 : q + len;
    }
    sb_append(s, ")\n");
}

enum { FIXED, COPY, PERIODIC };
static const char *const BOUNDARY_TAG[] = {"fixed", "copyborder", "periodic"};

/* The 5-point update of dst from src at (i, j), indented by `ind`. */
static void emit_point(StrBuf *s, int ind, int boundary, const char *dst, const char *src, const char *w,
                       const char *M)
{
    if (boundary == PERIODIC) {
        sb_printf(s, "%*s%s[i * %s + j] = %s * (%s[i * %s + j] + %s[i * %s + left] + %s[i * %s + right]\n", ind, "",
                  dst, M, w, src, M, src, M, src, M);
        sb_printf(s, "%*s+ %s[up * %s + j] + %s[down * %s + j]);\n", ind + (int)strlen(dst) + 13 + (int)strlen(M) +
                  (int)strlen(w) + 4, "", src, M, src, M);
    } else {
        sb_printf(s, "%*s%s[i * %s + j] = %s * (%s[i * %s + j] + %s[i * %s + j - 1] + %s[i * %s + j + 1]\n", ind, "",
                  dst, M, w, src, M, src, M, src, M);
        sb_printf(s, "%*s+ %s[(i - 1) * %s + j] + %s[(i + 1) * %s + j]);\n", ind + (int)strlen(dst) + 13 +
                  (int)strlen(M) + (int)strlen(w) + 4, "", src, M, src, M);
    }
}

/* The loops of one sweep dst <- src, at indentation `ind`. */
static void emit_sweep(StrBuf *s, int ind, int boundary, const char *dst, const char *src, const char *w,
                       const char *N, const char *M)
{
    if (boundary == PERIODIC) {
        sb_printf(s, "%*sfor (int i = 0; i < %s; i++) {\n", ind, "", N);
        sb_printf(s, "%*sint up = i > 0 ? i - 1 : %s - 1, down = i + 1 < %s ? i + 1 : 0;\n", ind + 4, "", N, N);
        sb_printf(s, "%*sfor (int j = 0; j < %s; j++) {\n", ind + 4, "", M);
        sb_printf(s, "%*sint left = j > 0 ? j - 1 : %s - 1, right = j + 1 < %s ? j + 1 : 0;\n", ind + 8, "", M, M);
        emit_point(s, ind + 8, boundary, dst, src, w, M);
        sb_printf(s, "%*s}\n%*s}\n", ind + 4, "", ind, "");
    } else {
        sb_printf(s, "%*sfor (int i = 1; i < %s - 1; i++)\n", ind, "", N);
        sb_printf(s, "%*sfor (int j = 1; j < %s - 1; j++)\n", ind + 4, "", M);
        emit_point(s, ind + 8, boundary, dst, src, w, M);
    }
}

static int generate(GenCtx *g)
{
    for (int bnd = 0; bnd < 3; bnd++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int runtime = 0; runtime < 2; runtime++)
                for (int rect = 0; rect < 2; rect++) {
                    int helper = (rect + runtime + bnd) % 2 == 0;
                    const char *ty = ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *N = "n", *M = rect ? "m" : "n";
                    char w[40];
                    snprintf(w, sizeof w, "%s", runtime ? "w" : lit(0.2, f64));
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", BOUNDARY_TAG[bnd], dt,
                             runtime ? "weight" : "const", rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "jacobi_2d");
                    gen_describe(p, "Jacobi 2D 5-point average, tsteps A->B->A steps, %s grid, %s, %s weight",
                                 rect ? "n x m" : "n x n",
                                 bnd == FIXED ? "fixed borders" : bnd == COPY ? "fixed borders, B copied from A"
                                                                              : "periodic",
                                 runtime ? "runtime" : "constant");
                    const char *shp = rect ? "n,m" : "n,n";
                    gen_arg(p, "A", dt, "inout", shp);
                    gen_arg(p, "B", dt, bnd == FIXED ? "inout" : "out", shp);
                    if (runtime)
                        gen_scalar(p, "w", dt, 0.2);
                    gen_arg(p, "tsteps", "i32", "param", NULL);
                    gen_arg(p, "n", "i32", "param", NULL);
                    if (rect) {
                        gen_arg(p, "m", "i32", "param", NULL);
                        gen_config(p, "small", "tsteps=10,n=96,m=128");
                        gen_config(p, "edge", "tsteps=1,n=1,m=1");
                        gen_config(p, "edge-prime", "tsteps=3,n=37,m=53");
                        gen_config(p, "edge-thin", "tsteps=2,n=3,m=101");
                        gen_config(p, "large", "tsteps=50,n=6144,m=10240");
                        gen_cost(p, "10*n*m*tsteps", f64 ? "32*n*m" : "16*n*m");
                    } else {
                        gen_config(p, "small", "tsteps=10,n=120");
                        gen_config(p, "edge", "tsteps=1,n=1");
                        gen_config(p, "edge-prime", "tsteps=4,n=41");
                        gen_config(p, "edge-two", "tsteps=2,n=2");
                        gen_config(p, "large", "tsteps=50,n=8192");
                        gen_cost(p, "10*n*n*tsteps", f64 ? "32*n*n" : "16*n*n");
                    }
                    if (!f64)
                        gen_tolerance(p, 2e-5, 1e-4);

                    StrBuf *s = gen_src(p);
                    if (bnd == COPY)
                        sb_append(s, "#include <stddef.h>\n#include <string.h>\n\n");
                    sb_printf(s, "/* jacobi-2d: tsteps Jacobi iterations on an %s grid (row-major).  Each\n"
                                 " * step replaces B by the %s-weighted 5-point sum of A, then A by that of B.\n",
                              rect ? "n x m" : "n x n", runtime ? "w" : "0.2");
                    if (bnd == FIXED)
                        sb_append(s, " * Only interior points are updated: the border rows and columns of A and B\n"
                                     " * keep their initial values. */\n");
                    else if (bnd == COPY)
                        sb_append(s, " * B starts as a copy of A; only interior points are updated, so the\n"
                                     " * borders of both keep A's initial values. */\n");
                    else
                        sb_append(s, " * The grid is periodic: neighbours wrap around at the edges. */\n");
                    char params[200];
                    snprintf(params, sizeof params, "%s *A, %s *B%s%s%s, int tsteps, int n%s", ty, ty,
                             runtime ? ", " : "", runtime ? ty : "", runtime ? " w" : "", rect ? ", int m" : "");
                    if (helper) {
                        char hp[160];
                        snprintf(hp, sizeof hp, "const %s *src, %s *dst%s%s%s, int n%s", ty, ty, runtime ? ", " : "",
                                 runtime ? ty : "", runtime ? " w" : "", rect ? ", int m" : "");
                        sb_printf(s, "\n/* One sweep: dst = %s-weighted 5-point sum of src%s. */\n", runtime ? "w" : "0.2",
                                  bnd == PERIODIC ? ", wrapping around" : " at the interior points");
                        put_signature(s, "static void sweep", hp);
                        sb_append(s, "{\n");
                        emit_sweep(s, 4, bnd, "dst", "src", w, N, M);
                        sb_append(s, "}\n\n");
                        put_signature(s, "void jacobi_2d", params);
                        sb_append(s, "{\n");
                        if (bnd == COPY)
                            sb_printf(s, "    memcpy(B, A, sizeof(%s) * (size_t)n * %s);\n", ty, M);
                        sb_append(s, "    for (int t = 0; t < tsteps; t++) {\n");
                        sb_printf(s, "        sweep(A, B%s, n%s);\n", runtime ? ", w" : "", rect ? ", m" : "");
                        sb_printf(s, "        sweep(B, A%s, n%s);\n", runtime ? ", w" : "", rect ? ", m" : "");
                        sb_append(s, "    }\n}\n");
                    } else {
                        put_signature(s, "void jacobi_2d", params);
                        sb_append(s, "{\n");
                        if (bnd == COPY)
                            sb_printf(s, "    memcpy(B, A, sizeof(%s) * (size_t)n * %s);\n", ty, M);
                        sb_append(s, "    for (int t = 0; t < tsteps; t++) {\n");
                        emit_sweep(s, 8, bnd, "B", "A", w, N, M);
                        emit_sweep(s, 8, bnd, "A", "B", w, N, M);
                        sb_append(s, "    }\n}\n");
                    }
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_jacobi2d = {"pb_jacobi2d", "polyhedral", 24, generate};
