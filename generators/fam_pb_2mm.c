/* pb_2mm — two chained matrix products, D = alpha * A * B * C + beta * D,
 * computed through a temporary tmp (ni x nj) that is also an output.
 *
 * Programs vary in dtype (f32, f64), in whether alpha and beta are runtime
 * scalars or constants baked into the code, in storage (all row-major, all
 * column-major, or A/D row-major with B and C stored transposed), in where
 * alpha is applied (tmp = alpha * A * B, or tmp = A * B and alpha applied in
 * the second product, which changes tmp), and in square (one size n) versus
 * rectangular (ni, nk, nj, nl) shapes.  The loop order follows the storage:
 * row-wise updates for row-major, column-wise for column-major, dot products
 * when the right-hand factors are stored transposed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_matmul.h"

enum { ROW, COL, BT };
static const char *const LAYOUT_TAG[] = {"row", "col", "bt"};

/* ---- the pair ---- */

/* The pair: two launches of one tiled matrix-product pattern, tmp = A B
 * then D = tmp C + beta D, alpha applied where the program applies it.
 * Column-major matrices are the row-major transposes of their matrices, so
 * those programs compute tmp^T = B^T A^T and D^T = C^T tmp^T with the same
 * kernels; B and C stored transposed (bt) are read as transposed factors. */
static void emit_cuda(GenProgram *p, int lay, int late, int runtime, int f64, const char *I, const char *K,
                      const char *J, const char *L, const char *al, const char *be)
{
    const char *ty = text_ctype(f64);
    StrBuf *k = gen_cuda_src(p);
    sb_printf(k, "/* 2mm in two launches: tmp = %sA B, then D = %stmp C + beta D.\n", late ? "" : "alpha ",
              late ? "alpha " : "");
    if (lay == COL)
        sb_append(k, " * The matrices are column-major, i.e. row-major transposes, so the launches\n"
                     " * compute tmp^T = B^T A^T and D^T = C^T tmp^T. */\n");
    else if (lay == BT)
        sb_append(k, " * B and C are stored transposed. */\n");
    else
        sb_append(k, " * All matrices are row-major. */\n");
    sb_append(k, "#define TILE 16\n\n");
    char sc1[48] = "", sc2[64] = "", st1[64], st2[96];
    if (runtime && !late)
        snprintf(sc1, sizeof sc1, ", %s alpha", ty);
    if (runtime)
        snprintf(sc2, sizeof sc2, late ? ", %s alpha, %s beta" : ", %s beta", ty, ty);
    if (late) {
        snprintf(st1, sizeof st1, "z[o] = acc");
        snprintf(st2, sizeof st2, "z[o] = %s * acc + %s * z[o]", al, be);
    } else {
        snprintf(st1, sizeof st1, "z[o] = %s * acc", al);
        snprintf(st2, sizeof st2, "z[o] = acc + %s * z[o]", be);
    }
    mm_emit_matmul(p, "two_mm_tmp", ty, lay == BT, sc1, late ? "z = x y (tmp = A B)." : "z = alpha x y (tmp = alpha A B).",
                st1);
    sb_append(k, "\n");
    mm_emit_matmul(p, "two_mm_d", ty, lay == BT, sc2,
                late ? "z = alpha x y + beta z (D = alpha tmp C + beta D)." : "z = x y + beta z (D = tmp C + beta D).",
                st2);
    const char *a1 = runtime && !late ? ",alpha" : "", *a2 = !runtime ? "" : late ? ",alpha,beta" : ",beta";
    if (lay == COL) {
        mm_launch_matmul(p, "two_mm_tmp", "B", "A", "tmp", a1, J, K, I);
        mm_launch_matmul(p, "two_mm_d", "C", "tmp", "D", a2, L, J, I);
    } else {
        mm_launch_matmul(p, "two_mm_tmp", "A", "B", "tmp", a1, I, K, J);
        mm_launch_matmul(p, "two_mm_d", "tmp", "C", "D", a2, I, J, L);
    }
    gen_knob(p, "block", "16x16");
    gen_knob(p, "mapping", "tiled-16x16-shared, two launches");
}

static int generate(GenCtx *g)
{
    for (int lay = 0; lay < 3; lay++)
        for (int late = 0; late < 2; late++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int runtime = 0; runtime < 2; runtime++) {
                    int rect = (lay + late + f64 + runtime) % 2 == 0;
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *I = rect ? "ni" : "n", *K = rect ? "nk" : "n";
                    const char *J = rect ? "nj" : "n", *L = rect ? "nl" : "n";
                    double alpha_v = round(gen_uniform(g, 0.5, 2.0) * 20) / 20;
                    double beta_v = round(gen_uniform(g, 0.2, 1.5) * 20) / 20;
                    char al[40], be[40];
                    snprintf(al, sizeof al, "%s", runtime ? "alpha" : text_lit(alpha_v, f64));
                    snprintf(be, sizeof be, "%s", runtime ? "beta" : text_lit(beta_v, f64));

                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s-%s", late ? "late" : "early",
                             LAYOUT_TAG[lay], dt, runtime ? "scalars" : "const", rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "two_mm");
                    gen_describe(p, "D = alpha*A*B*C + beta*D through tmp = %sA*B; %s storage, %s, %s alpha/beta",
                                 late ? "" : "alpha*",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "B and C transposed",
                                 rect ? "rectangular" : "square", runtime ? "runtime" : "constant");
                    char shp[64];
                    snprintf(shp, sizeof shp, "%s,%s", I, K);
                    gen_arg(p, "A", dt, "in", shp);
                    snprintf(shp, sizeof shp, "%s,%s", lay == BT ? J : K, lay == BT ? K : J);
                    gen_arg(p, "B", dt, "in", shp);
                    snprintf(shp, sizeof shp, "%s,%s", lay == BT ? L : J, lay == BT ? J : L);
                    gen_arg(p, "C", dt, "in", shp);
                    snprintf(shp, sizeof shp, "%s,%s", I, L);
                    gen_arg(p, "D", dt, "inout", shp);
                    snprintf(shp, sizeof shp, "%s,%s", I, J);
                    gen_arg(p, "tmp", dt, "out", shp);
                    if (runtime) {
                        gen_scalar(p, "alpha", dt, alpha_v);
                        gen_scalar(p, "beta", dt, beta_v);
                    }
                    if (rect) {
                        gen_arg(p, "ni", "i32", "param", NULL);
                        gen_arg(p, "nk", "i32", "param", NULL);
                        gen_arg(p, "nj", "i32", "param", NULL);
                        gen_arg(p, "nl", "i32", "param", NULL);
                        gen_config(p, "small", "ni=80,nk=96,nj=64,nl=112");
                        gen_config(p, "edge", "ni=1,nk=1,nj=1,nl=1");
                        gen_config(p, "edge-prime", "ni=31,nk=17,nj=53,nl=7");
                        gen_config(p, "large", "ni=4096,nk=2048,nj=3072,nl=4096");
                        gen_cost(p, "2*ni*nk*nj + ni*nj + 2*ni*nj*nl + 2*ni*nl",
                                 f64 ? "8*(ni*nk + nk*nj + nj*nl + 2*ni*nl + ni*nj)"
                                     : "4*(ni*nk + nk*nj + nj*nl + 2*ni*nl + ni*nj)");
                    } else {
                        gen_arg(p, "n", "i32", "param", NULL);
                        gen_config(p, "small", "n=96");
                        gen_config(p, "edge", "n=1");
                        gen_config(p, "edge-prime", "n=37");
                        gen_config(p, "large", "n=4096");
                        gen_cost(p, "4*n*n*n + 3*n*n", f64 ? "48*n*n" : "24*n*n");
                    }
                    /* D is a sum over nj*nk products of inputs in [-1, 1): its
                     * typical size at the large config sets the absolute error. */
                    double nk = rect ? 2048 : 4096, nj = rect ? 3072 : 4096;
                    double mag = alpha_v * sqrt(nj * nk) / 9 * sqrt(3.0) + beta_v;
                    if (f64)
                        gen_tolerance(p, fmax(1e-9, text_tol2(1e-11 * mag)), 1e-7);
                    else
                        gen_tolerance(p, text_tol2(1e-4 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* 2mm: tmp = %sA * B, then D = %s * C + beta * D.\n", late ? "" : "alpha * ",
                              late ? "alpha * tmp" : "tmp");
                    if (rect)
                        sb_append(s, " * A is ni x nk, B nk x nj, C nj x nl, D ni x nl, tmp ni x nj.\n");
                    else
                        sb_append(s, " * All matrices are n x n.\n");
                    if (lay == ROW)
                        sb_append(s, " * Row-major storage: X(r, c) is X[r * cols + c]. */\n");
                    else if (lay == COL)
                        sb_append(s, " * Column-major storage: X(r, c) is X[r + c * rows]. */\n");
                    else
                        sb_printf(s, " * A, D and tmp are row-major; B and C are stored transposed\n"
                                     " * (B[j * %s + k] holds B(k, j)), so every product is a dot product. */\n",
                                  K);
                    char params[256];
                    int pl = snprintf(params, sizeof params, "const %s *A, const %s *B, const %s *C, %s *D, %s *tmp",
                                      ty, ty, ty, ty, ty);
                    if (runtime)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s alpha, %s beta", ty, ty);
                    snprintf(params + pl, sizeof params - (size_t)pl, "%s",
                             rect ? ", int ni, int nk, int nj, int nl" : ", int n");
                    text_put_signature(s, "void two_mm", params);
                    sb_append(s, "{\n");
                    if (lay == ROW) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", I);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            %s = 0;\n", J,
                                  mm_at("tmp", 0, "i", "j", I, J));
                        sb_printf(s, "        for (int k = 0; k < %s; k++) {\n", K);
                        if (late)
                            sb_printf(s, "            %s a = %s;\n", ty, mm_at("A", 0, "i", "k", I, K));
                        else
                            sb_printf(s, "            %s a = %s * %s;\n", ty, al, mm_at("A", 0, "i", "k", I, K));
                        sb_printf(s, "            for (int j = 0; j < %s; j++)\n                %s += a * %s;\n",
                                  J, mm_at("tmp", 0, "i", "j", I, J), mm_at("B", 0, "k", "j", K, J));
                        sb_append(s, "        }\n    }\n");
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", I);
                        sb_printf(s, "        for (int l = 0; l < %s; l++)\n            %s *= %s;\n", L,
                                  mm_at("D", 0, "i", "l", I, L), be);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", J);
                        if (late)
                            sb_printf(s, "            %s t = %s * %s;\n", ty, al, mm_at("tmp", 0, "i", "j", I, J));
                        else
                            sb_printf(s, "            %s t = %s;\n", ty, mm_at("tmp", 0, "i", "j", I, J));
                        sb_printf(s, "            for (int l = 0; l < %s; l++)\n                %s += t * %s;\n",
                                  L, mm_at("D", 0, "i", "l", I, L), mm_at("C", 0, "j", "l", J, L));
                        sb_append(s, "        }\n    }\n}\n");
                    } else if (lay == COL) {
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", J);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            %s = 0;\n", I,
                                  mm_at("tmp", 1, "i", "j", I, J));
                        sb_printf(s, "        for (int k = 0; k < %s; k++) {\n", K);
                        if (late)
                            sb_printf(s, "            %s b = %s;\n", ty, mm_at("B", 1, "k", "j", K, J));
                        else
                            sb_printf(s, "            %s b = %s * %s;\n", ty, al, mm_at("B", 1, "k", "j", K, J));
                        sb_printf(s, "            for (int i = 0; i < %s; i++)\n                %s += %s * b;\n",
                                  I, mm_at("tmp", 1, "i", "j", I, J), mm_at("A", 1, "i", "k", I, K));
                        sb_append(s, "        }\n    }\n");
                        sb_printf(s, "    for (int l = 0; l < %s; l++) {\n", L);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            %s *= %s;\n", I,
                                  mm_at("D", 1, "i", "l", I, L), be);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", J);
                        if (late)
                            sb_printf(s, "            %s c = %s * %s;\n", ty, al, mm_at("C", 1, "j", "l", J, L));
                        else
                            sb_printf(s, "            %s c = %s;\n", ty, mm_at("C", 1, "j", "l", J, L));
                        sb_printf(s, "            for (int i = 0; i < %s; i++)\n                %s += %s * c;\n",
                                  I, mm_at("D", 1, "i", "l", I, L), mm_at("tmp", 1, "i", "j", I, J));
                        sb_append(s, "        }\n    }\n}\n");
                    } else {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", I);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", J);
                        sb_printf(s, "            %s acc = 0;\n", ty);
                        sb_printf(s, "            for (int k = 0; k < %s; k++)\n                acc += %s * %s;\n",
                                  K, mm_at("A", 0, "i", "k", I, K), mm_at("B", 0, "j", "k", J, K));
                        if (late)
                            sb_printf(s, "            %s = acc;\n", mm_at("tmp", 0, "i", "j", I, J));
                        else
                            sb_printf(s, "            %s = %s * acc;\n", mm_at("tmp", 0, "i", "j", I, J), al);
                        sb_append(s, "        }\n    }\n");
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", I);
                        sb_printf(s, "        for (int l = 0; l < %s; l++) {\n", L);
                        sb_printf(s, "            %s acc = 0;\n", ty);
                        sb_printf(s, "            for (int j = 0; j < %s; j++)\n                acc += %s * %s;\n",
                                  J, mm_at("tmp", 0, "i", "j", I, J), mm_at("C", 0, "l", "j", L, J));
                        if (late)
                            sb_printf(s, "            %s = %s * acc + %s * %s;\n", mm_at("D", 0, "i", "l", I, L), al,
                                      be, mm_at("D", 0, "i", "l", I, L));
                        else
                            sb_printf(s, "            %s = acc + %s * %s;\n", mm_at("D", 0, "i", "l", I, L), be,
                                      mm_at("D", 0, "i", "l", I, L));
                        sb_append(s, "        }\n    }\n}\n");
                    }
                    emit_cuda(p, lay, late, runtime, f64, I, K, J, L, al, be);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_2mm = {"pb_2mm", "polyhedral", 24, generate};
