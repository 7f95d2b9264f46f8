/* pb_mvt — two matrix-vector products sharing one matrix:
 * x1 += A y1 and x2 += A^T y2, for an m x n (or square n x n) matrix A.
 *
 * Programs vary in dtype (f32, f64), in the storage of A (row-major,
 * column-major, row-major with a padded leading dimension), in square versus
 * rectangular shapes, and in form: two loop nests (each walking A in storage
 * order) or one fused pass over A that updates both vectors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_matvec.h"
#include "gen_text.h"

/* The pair: two independent launches, x1 += A y1 and x2 += A^T y2, for the
 * fused program too.  Each gets the mapping that reads A coalesced: a warp
 * per output along A's contiguous dimension, a thread per output across
 * it; the sum is added to the output's incoming value. */
static void emit_cuda(GenProgram *p, const Shape *sh, int f64)
{
    const char *ty = text_ctype(f64);
    const char *m1 = mv_emit_matvec(p, sh, ty, "mvt_x1", 1, "y1", "x1", 1);
    sb_append(gen_cuda_src(p), "\n");
    const char *m2 = mv_emit_matvec(p, sh, ty, "mvt_x2", 0, "y2", "x2", 1);
    char mapping[96];
    snprintf(mapping, sizeof mapping, "two-launch: %s, %s", m1, m2);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", mapping);
}

static int generate(GenCtx *g)
{
    for (int lay = 0; lay < 3; lay++)
        for (int fused = 0; fused < 2; fused++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int rect = 0; rect < 2; rect++) {
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    Shape sh = mv_shape_of(rect, lay);
                    const char *R = sh.R, *C = sh.C;
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", fused ? "fused" : "twonest", MV_LAYOUT_TAG[lay], dt,
                             rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "mvt");
                    gen_describe(p, "x1 += A y1, x2 += A^T y2; %s A, %s, %s", rect ? "m x n" : "n x n",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "padded row-major",
                                 fused ? "one fused pass" : "two loop nests");
                    gen_arg(p, "A", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "y1", dt, "in", "n");
                    gen_arg(p, "y2", dt, "in", R);
                    gen_arg(p, "x1", dt, "inout", R);
                    gen_arg(p, "x2", dt, "inout", "n");
                    mv_shape_configs(p, &sh, 1);
                    char flops[64], bytes[96];
                    snprintf(flops, sizeof flops, "4*%s*n", R);
                    snprintf(bytes, sizeof bytes, "%d*(%s*n + 3*%s + 3*n)", f64 ? 8 : 4, R, R);
                    gen_cost(p, flops, bytes);
                    double rows, cols;
                    mv_large_dims(&sh, 1, &rows, &cols);
                    double mag = sqrt(fmax(rows, cols)) / 3;
                    if (f64)
                        gen_tolerance(p, 1e-9, 1e-7);
                    else
                        gen_tolerance(p, text_tol2(3e-5 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* mvt: x1 += A y1 and x2 += A^T y2 for an %s matrix A.\n", rect ? "m x n" : "n x n");
                    sb_append(s, mv_layout_comment(&sh));
                    char params[200];
                    snprintf(params, sizeof params, "const %s *A, const %s *y1, const %s *y2, %s *x1, %s *x2%s", ty, ty,
                             ty, ty, ty, mv_size_params(&sh));
                    text_put_signature(s, "void mvt", params);
                    sb_append(s, "{\n");
                    if (fused && lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = x1[i];\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "            acc += %s * y1[j];\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            x2[j] += %s * y2[i];\n        }\n", mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        x1[i] = acc;\n    }\n}\n");
                    } else if (fused) {
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = x2[j];\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "            x1[i] += %s * y1[j];\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            acc += %s * y2[i];\n        }\n", mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        x2[j] = acc;\n    }\n}\n");
                    } else if (lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = x1[i];\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            acc += %s * y1[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        x1[i] = acc;\n    }\n");
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n", R);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            x2[j] += %s * y2[i];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "}\n");
                    } else {
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n", C);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            x1[i] += %s * y1[j];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = x2[j];\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            acc += %s * y2[i];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        x2[j] = acc;\n    }\n}\n");
                    }
                    emit_cuda(p, &sh, f64);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_mvt = {"pb_mvt", "polyhedral", 24, generate};
