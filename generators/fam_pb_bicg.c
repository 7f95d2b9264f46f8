/* pb_bicg — the two matrix-vector products of a BiCG step: q = A p and
 * s = A^T r, for an m x n (or square n x n) matrix A.
 *
 * Programs vary in dtype (f32, f64), in the storage of A (row-major,
 * column-major, row-major with a padded leading dimension), in square versus
 * rectangular shapes, and in form: one fused pass over A that updates both
 * products, or two separate loop nests (each walking A in storage order). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_matvec.h"
#include "gen_text.h"

/* The pair: two independent launches, q = A p and s = A^T r, for the fused
 * program too (its single loop nest only saves the C code a second sweep).
 * Each gets the mapping that reads A coalesced: a warp per output along
 * A's contiguous dimension, a thread per output across it. */
static void emit_cuda(GenProgram *p, const Shape *sh, int f64)
{
    const char *ty = text_ctype(f64);
    const char *m1 = mv_emit_matvec(p, sh, ty, "bicg_q", 1, "p", "q", 0);
    sb_append(gen_cuda_src(p), "\n");
    const char *m2 = mv_emit_matvec(p, sh, ty, "bicg_s", 0, "r", "s", 0);
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
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", fused ? "fused" : "split", MV_LAYOUT_TAG[lay], dt,
                             rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "bicg");
                    gen_describe(p, "q = A p, s = A^T r; %s A, %s, %s", rect ? "m x n" : "n x n",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "padded row-major",
                                 fused ? "one fused pass" : "two loop nests");
                    gen_arg(p, "A", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "p", dt, "in", "n");
                    gen_arg(p, "r", dt, "in", R);
                    gen_arg(p, "q", dt, "out", R);
                    gen_arg(p, "s", dt, "out", "n");
                    mv_shape_configs(p, &sh, 1);
                    char flops[64], bytes[96];
                    snprintf(flops, sizeof flops, "4*%s*n", R);
                    snprintf(bytes, sizeof bytes, "%d*(%s*n + 2*%s + 2*n)", f64 ? 8 : 4, R, R);
                    gen_cost(p, flops, bytes);
                    double rows, cols;
                    mv_large_dims(&sh, 1, &rows, &cols);
                    double mag = sqrt(fmax(rows, cols)) / 3;
                    if (f64)
                        gen_tolerance(p, 1e-9, 1e-7);
                    else
                        gen_tolerance(p, text_tol2(3e-5 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* bicg: q = A p and s = A^T r for an %s matrix A.\n", rect ? "m x n" : "n x n");
                    sb_append(s, mv_layout_comment(&sh));
                    char params[200];
                    snprintf(params, sizeof params, "const %s *A, const %s *p, const %s *r, %s *q, %s *s%s", ty, ty, ty,
                             ty, ty, mv_size_params(&sh));
                    text_put_signature(s, "void bicg", params);
                    sb_append(s, "{\n");
                    if (fused && lay != COL) {
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        s[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "            s[j] += r[i] * %s;\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            acc += %s * p[j];\n        }\n", mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        q[i] = acc;\n    }\n}\n");
                    } else if (fused) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n        q[i] = 0;\n", R);
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "            q[i] += %s * p[j];\n", mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "            acc += r[i] * %s;\n        }\n", mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        s[j] = acc;\n    }\n}\n");
                    } else if (lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            acc += %s * p[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        q[i] = acc;\n    }\n");
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        s[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n", R);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            s[j] += r[i] * %s;\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "}\n");
                    } else {
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n        q[i] = 0;\n", R);
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n", C);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            q[i] += %s * p[j];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            acc += r[i] * %s;\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        s[j] = acc;\n    }\n}\n");
                    }
                    emit_cuda(p, &sh, f64);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_bicg = {"pb_bicg", "polyhedral", 24, generate};
