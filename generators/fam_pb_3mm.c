/* pb_3mm — three matrix products, G = (A * B) * (C * D), with the two
 * intermediate products E = A * B and F = C * D also outputs.
 *
 * Programs vary in dtype (f32, f64), in storage (all row-major, all
 * column-major, or "right factor transposed": B, D and F stored column-major
 * so every product is a dot product of contiguous rows), in square (one size
 * n) versus rectangular (ni, nk, nj, nm, nl) shapes, and in form: three
 * explicit loop nests (dot-product order) or one static matrix-product helper
 * called three times (row-update order for row-major, column-update order for
 * column-major). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_matmul.h"

enum { ROW, COL, RT };
static const char *const LAYOUT_TAG[] = {"row", "col", "rt"};

/* One explicit dot-product nest: Z(i, j) = sum_k X(i, k) * Y(k, j). */
static void emit_nest(StrBuf *s, const char *ty, const char *z, const char *x, const char *y,
                      const char *R, const char *M, const char *C, int cx, int cy, int cz)
{
    sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
    sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", C);
    sb_printf(s, "            %s acc = 0;\n", ty);
    sb_printf(s, "            for (int k = 0; k < %s; k++)\n                acc += %s * %s;\n", M,
              mm_at(x, cx, "i", "k", R, M), mm_at(y, cy, "k", "j", M, C));
    sb_printf(s, "            %s = acc;\n        }\n    }\n", mm_at(z, cz, "i", "j", R, C));
}

/* ---- the pair ---- */

/* The pair: one tiled matrix-product kernel launched three times, E = A B,
 * F = C D, G = E F.  Column-major matrices are the row-major transposes of
 * their matrices, so those products run as E^T = B^T A^T and so on; in the
 * rt layout every right-hand factor (B, D, F, and C in F^T = D^T C^T) is
 * read as a transposed factor. */
static void emit_cuda(GenProgram *p, int lay, int f64, const char *I, const char *K, const char *J, const char *M,
                      const char *L)
{
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, "/* 3mm in three launches of one matrix product: E = A B, F = C D, G = E F.\n");
    if (lay == COL)
        sb_append(k, " * The matrices are column-major, i.e. row-major transposes, so the launches\n"
                     " * compute E^T = B^T A^T, F^T = D^T C^T and G^T = F^T E^T. */\n");
    else if (lay == RT)
        sb_append(k, " * B, D and F are column-major (row-major transposes): E and G read their right\n"
                     " * factor transposed, and F is computed as F^T = D^T C^T with C read transposed. */\n");
    else
        sb_append(k, " * All matrices are row-major. */\n");
    sb_append(k, "#define TILE 16\n\n");
    mm_emit_matmul(p, "matmul", text_ctype(f64), lay == RT, "", "z = x y.", "z[o] = acc");
    if (lay == COL) {
        mm_launch_matmul(p, "matmul", "B", "A", "E", "", J, K, I);
        mm_launch_matmul(p, "matmul", "D", "C", "F", "", L, M, J);
        mm_launch_matmul(p, "matmul", "F", "E", "G", "", L, J, I);
    } else if (lay == RT) {
        mm_launch_matmul(p, "matmul", "A", "B", "E", "", I, K, J);
        mm_launch_matmul(p, "matmul", "D", "C", "F", "", L, M, J);
        mm_launch_matmul(p, "matmul", "E", "F", "G", "", I, J, L);
    } else {
        mm_launch_matmul(p, "matmul", "A", "B", "E", "", I, K, J);
        mm_launch_matmul(p, "matmul", "C", "D", "F", "", J, M, L);
        mm_launch_matmul(p, "matmul", "E", "F", "G", "", I, J, L);
    }
    gen_knob(p, "block", "16x16");
    gen_knob(p, "mapping", "tiled-16x16-shared, three launches");
}

static int generate(GenCtx *g)
{
    for (int lay = 0; lay < 3; lay++)
        for (int helper = 0; helper < 2; helper++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int rect = 0; rect < 2; rect++) {
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *I = rect ? "ni" : "n", *K = rect ? "nk" : "n", *J = rect ? "nj" : "n";
                    const char *M = rect ? "nm" : "n", *L = rect ? "nl" : "n";
                    /* Column-major flags of the left factors and of the right factors. */
                    int cl = lay == COL, cr = lay != ROW;
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", helper ? "helper" : "nests", LAYOUT_TAG[lay],
                             dt, rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "three_mm");
                    gen_describe(p, "G = (A*B)*(C*D) with E = A*B and F = C*D; %s storage, %s, %s",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "right factors column-major",
                                 rect ? "rectangular" : "square", helper ? "matmul helper" : "explicit nests");
                    char shp[64];
#define SHAPE(a, b, colmajor) (snprintf(shp, sizeof shp, "%s,%s", (colmajor) ? (b) : (a), (colmajor) ? (a) : (b)), shp)
                    gen_arg(p, "A", dt, "in", SHAPE(I, K, cl));
                    gen_arg(p, "B", dt, "in", SHAPE(K, J, cr));
                    gen_arg(p, "C", dt, "in", SHAPE(J, M, cl));
                    gen_arg(p, "D", dt, "in", SHAPE(M, L, cr));
                    gen_arg(p, "E", dt, "out", SHAPE(I, J, cl));
                    gen_arg(p, "F", dt, "out", SHAPE(J, L, cr));
                    gen_arg(p, "G", dt, "out", SHAPE(I, L, cl));
#undef SHAPE
                    if (rect) {
                        static const char *const names[] = {"ni", "nk", "nj", "nm", "nl"};
                        for (int k = 0; k < 5; k++)
                            gen_arg(p, names[k], "i32", "param", NULL);
                        gen_config(p, "small", "ni=72,nk=96,nj=64,nm=80,nl=88");
                        gen_config(p, "edge", "ni=1,nk=1,nj=1,nm=1,nl=1");
                        gen_config(p, "edge-prime", "ni=29,nk=7,nj=41,nm=13,nl=3");
                        gen_config(p, "large", "ni=4096,nk=2048,nj=3072,nm=2560,nl=4096");
                        gen_cost(p, "2*ni*nk*nj + 2*nj*nm*nl + 2*ni*nj*nl",
                                 f64 ? "8*(ni*nk + nk*nj + nj*nm + nm*nl + ni*nj + nj*nl + ni*nl)"
                                     : "4*(ni*nk + nk*nj + nj*nm + nm*nl + ni*nj + nj*nl + ni*nl)");
                    } else {
                        gen_arg(p, "n", "i32", "param", NULL);
                        gen_config(p, "small", "n=96");
                        gen_config(p, "edge", "n=1");
                        gen_config(p, "edge-prime", "n=31");
                        gen_config(p, "large", "n=4096");
                        gen_cost(p, "6*n*n*n", f64 ? "56*n*n" : "28*n*n");
                    }
                    /* G's typical size at the large config: sqrt(nj) * |E| * |F|,
                     * with |E| = sqrt(nk)/3, |F| = sqrt(nm)/3 for inputs in [-1, 1). */
                    double nk = rect ? 2048 : 4096, nj = rect ? 3072 : 4096, nm = rect ? 2560 : 4096;
                    double mag = sqrt(nj) * sqrt(nk) / 3 * sqrt(nm) / 3;
                    if (f64)
                        gen_tolerance(p, text_tol2(1e-11 * mag), 1e-7);
                    else
                        gen_tolerance(p, text_tol2(1e-4 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_append(s, "/* 3mm: E = A * B, F = C * D, G = E * F.\n");
                    if (rect)
                        sb_append(s, " * A is ni x nk, B nk x nj, C nj x nm, D nm x nl;\n"
                                     " * E is ni x nj, F nj x nl, G ni x nl.\n");
                    else
                        sb_append(s, " * All matrices are n x n.\n");
                    if (lay == ROW)
                        sb_append(s, " * Row-major storage: X(r, c) is X[r * cols + c]. */\n");
                    else if (lay == COL)
                        sb_append(s, " * Column-major storage: X(r, c) is X[r + c * rows]. */\n");
                    else
                        sb_append(s, " * A, C, E and G are row-major; the right factors B, D and F are\n"
                                     " * column-major (X(r, c) is X[r + c * rows]), so each product is a\n"
                                     " * dot product of two contiguous vectors. */\n");
                    char params[300];
                    snprintf(params, sizeof params,
                             "const %s *A, const %s *B, const %s *C, const %s *D, %s *E, %s *F, %s *G, %s", ty, ty,
                             ty, ty, ty, ty, ty, rect ? "int ni, int nk, int nj, int nm, int nl" : "int n");
                    if (helper) {
                        if (lay == ROW) {
                            sb_printf(s, "\n/* z = x * y for row-major x (rows x inner) and y (inner x cols). */\n"
                                         "static void matmul(const %s *x, const %s *y, %s *z, int rows, int inner, int cols)\n{\n",
                                      ty, ty, ty);
                            sb_append(s, "    for (int i = 0; i < rows; i++) {\n"
                                         "        for (int j = 0; j < cols; j++)\n"
                                         "            z[i * cols + j] = 0;\n"
                                         "        for (int k = 0; k < inner; k++) {\n");
                            sb_printf(s, "            %s a = x[i * inner + k];\n", ty);
                            sb_append(s, "            for (int j = 0; j < cols; j++)\n"
                                         "                z[i * cols + j] += a * y[k * cols + j];\n"
                                         "        }\n    }\n}\n\n");
                        } else if (lay == COL) {
                            sb_printf(s, "\n/* z = x * y for column-major x (rows x inner) and y (inner x cols). */\n"
                                         "static void matmul(const %s *x, const %s *y, %s *z, int rows, int inner, int cols)\n{\n",
                                      ty, ty, ty);
                            sb_append(s, "    for (int j = 0; j < cols; j++) {\n"
                                         "        for (int i = 0; i < rows; i++)\n"
                                         "            z[i + j * rows] = 0;\n"
                                         "        for (int k = 0; k < inner; k++) {\n");
                            sb_printf(s, "            %s b = y[k + j * inner];\n", ty);
                            sb_append(s, "            for (int i = 0; i < rows; i++)\n"
                                         "                z[i + j * rows] += x[i + k * rows] * b;\n"
                                         "        }\n    }\n}\n\n");
                        } else {
                            sb_printf(s, "\n/* z = x * y for row-major x (rows x inner) and column-major y\n"
                                         " * (inner x cols); z is row-major if z_colmajor is 0. */\n"
                                         "static void matmul(const %s *x, const %s *y, %s *z, int rows, int inner, int cols,\n"
                                         "                   int z_colmajor)\n{\n", ty, ty, ty);
                            sb_append(s, "    for (int i = 0; i < rows; i++) {\n"
                                         "        for (int j = 0; j < cols; j++) {\n");
                            sb_printf(s, "            %s acc = 0;\n", ty);
                            sb_append(s, "            for (int k = 0; k < inner; k++)\n"
                                         "                acc += x[i * inner + k] * y[k + j * inner];\n"
                                         "            if (z_colmajor)\n"
                                         "                z[i + j * rows] = acc;\n"
                                         "            else\n"
                                         "                z[i * cols + j] = acc;\n"
                                         "        }\n    }\n}\n\n");
                        }
                        text_put_signature(s, "void three_mm", params);
                        if (lay == RT)
                            sb_printf(s, "{\n    matmul(A, B, E, %s, %s, %s, 0);\n    matmul(C, D, F, %s, %s, %s, 1);\n"
                                         "    matmul(E, F, G, %s, %s, %s, 0);\n}\n", I, K, J, J, M, L, I, J, L);
                        else
                            sb_printf(s, "{\n    matmul(A, B, E, %s, %s, %s);\n    matmul(C, D, F, %s, %s, %s);\n"
                                         "    matmul(E, F, G, %s, %s, %s);\n}\n", I, K, J, J, M, L, I, J, L);
                    } else {
                        text_put_signature(s, "void three_mm", params);
                        sb_append(s, "{\n");
                        emit_nest(s, ty, "E", "A", "B", I, K, J, cl, cr, cl);
                        emit_nest(s, ty, "F", "C", "D", J, M, L, cl, cr, cr);
                        emit_nest(s, ty, "G", "E", "F", I, J, L, cl, cr, cl);
                        sb_append(s, "}\n");
                    }
                    emit_cuda(p, lay, f64, I, K, J, M, L);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_3mm = {"pb_3mm", "polyhedral", 24, generate};
