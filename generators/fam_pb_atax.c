/* pb_atax — y = A^T (A x) for an m x n (or square n x n) matrix A.
 *
 * Programs vary in dtype (f32, f64), in the storage of A (row-major,
 * column-major, row-major with a padded leading dimension), in square versus
 * rectangular shapes, and in form: two loop nests through an output tmp = A x
 * (each nest walking A in its storage order), or one fused pass over the rows
 * of A that keeps A x in a local and never stores it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_matvec.h"
#include "gen_text.h"

/* The pair: two launches, tmp = A x then y = A^T tmp (the fused program
 * keeps tmp in a scratch buffer).  Each pass gets the mapping that reads A
 * coalesced: a warp per output along A's contiguous dimension, a thread per
 * output across it. */
static void emit_cuda(GenProgram *p, const Shape *sh, int fused, int f64)
{
    const char *ty = text_ctype(f64);
    const char *tmp = fused ? "ax" : "tmp";
    if (fused)
        gen_scratch(p, "ax", f64 ? "f64" : "f32", sh->R);
    const char *m1 = mv_emit_matvec(p, sh, ty, "atax_ax", 1, "x", tmp, 0);
    sb_append(gen_cuda_src(p), "\n");
    const char *m2 = mv_emit_matvec(p, sh, ty, "atax_aty", 0, tmp, "y", 0);
    char mapping[96];
    snprintf(mapping, sizeof mapping, "two-pass: %s, %s", m1, m2);
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
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", fused ? "fused" : "twopass", MV_LAYOUT_TAG[lay], dt,
                             rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "atax");
                    gen_describe(p, "y = A^T (A x), %s A, %s%s", rect ? "m x n" : "n x n",
                                 lay == ROW ? "row-major" : lay == COL ? "column-major" : "padded row-major",
                                 fused ? ", fused single pass" : ", two passes through tmp = A x");
                    gen_arg(p, "A", dt, "in", mv_mat_shape(&sh));
                    gen_arg(p, "x", dt, "in", "n");
                    gen_arg(p, "y", dt, "out", "n");
                    if (!fused)
                        gen_arg(p, "tmp", dt, "out", R);
                    mv_shape_configs(p, &sh, 1);
                    char flops[64], bytes[96];
                    snprintf(flops, sizeof flops, "4*%s*n", R);
                    snprintf(bytes, sizeof bytes, "%d*(%s*n + 2*n%s%s)", f64 ? 8 : 4, R, fused ? "" : " + ",
                             fused ? "" : R);
                    gen_cost(p, flops, bytes);
                    /* column-major A read along its rows by the C loops: a
                     * 64-byte line per element, per pass over A */
                    if (lay == COL) {
                        char ref_bytes[64];
                        snprintf(ref_bytes, sizeof ref_bytes, "%d*%s*n", fused ? 128 : 64, R);
                        gen_reference_cost(p, NULL, ref_bytes);
                    }
                    /* y_j sums rows of A weighted by (A x)_i ~ sqrt(n)/3. */
                    double rows, cols;
                    mv_large_dims(&sh, 1, &rows, &cols);
                    double mag = sqrt(rows) / sqrt(3.0) * sqrt(cols) / 3;
                    if (f64)
                        gen_tolerance(p, fmax(1e-9, text_tol2(1e-11 * mag)), 1e-7);
                    else
                        gen_tolerance(p, text_tol2(1e-4 * mag), 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* atax: y = A^T (A x) for an %s matrix A%s.\n", rect ? "m x n" : "n x n",
                              fused ? "" : "; tmp = A x");
                    sb_append(s, mv_layout_comment(&sh));
                    char params[200];
                    snprintf(params, sizeof params, "const %s *A, const %s *x, %s *y%s%s%s", ty, ty, ty,
                             fused ? "" : ", ", fused ? "" : ty, fused ? "" : " *tmp");
                    strcat(params, mv_size_params(&sh));
                    text_put_signature(s, "void atax", params);
                    sb_append(s, "{\n");
                    if (fused) {
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        y[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s ax = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            ax += %s * x[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            y[j] += %s * ax;\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "    }\n}\n");
                    } else if (lay != COL) {
                        sb_printf(s, "    for (int i = 0; i < %s; i++) {\n", R);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            acc += %s * x[j];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        tmp[i] = acc;\n    }\n");
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n        y[j] = 0;\n", C);
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n", R);
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            y[j] += %s * tmp[i];\n", C,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "}\n");
                    } else {
                        sb_printf(s, "    for (int i = 0; i < %s; i++)\n        tmp[i] = 0;\n", R);
                        sb_printf(s, "    for (int j = 0; j < %s; j++)\n", C);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            tmp[i] += %s * x[j];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_printf(s, "    for (int j = 0; j < %s; j++) {\n", C);
                        sb_printf(s, "        %s acc = 0;\n", ty);
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            acc += %s * tmp[i];\n", R,
                                  mv_at(&sh, "A", "i", "j"));
                        sb_append(s, "        y[j] = acc;\n    }\n}\n");
                    }
                    emit_cuda(p, &sh, fused, f64);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_atax = {"pb_atax", "polyhedral", 24, generate};
