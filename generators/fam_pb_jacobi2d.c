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
#include "gen_text.h"

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

/* ---- the pair ---- */

/* Time steps the launch plans unroll (two launches each, A -> B and
 * B -> A): the largest tsteps of the configs.  Any further steps run in
 * one block. */
#define JACOBI_LAUNCHES 50

/* The pair: one thread per point on 32x8 blocks (threadIdx.x along the
 * contiguous j), one launch per sweep, A -> B then B -> A for each of the
 * first JACOBI_LAUNCHES steps (a launch past tsteps returns at once);
 * sweep_tail runs any further steps in one block with a barrier between
 * sweeps.  With copied borders a first launch copies A into B. */
static void emit_cuda(GenProgram *p, int bnd, int f64, int runtime, int rect, const char *w)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = text_ctype(f64), *M = rect ? "m" : "n";
    char wp[24], wa[8], hp[200], kp[240], tp[240], args[64];
    snprintf(wp, sizeof wp, "%s%s", runtime ? ty : "", runtime ? " w, " : "");
    snprintf(wa, sizeof wa, "%s", runtime ? "w," : "");
    snprintf(hp, sizeof hp, "const %s *src, %s *dst, %sint n%s, int i, int j", ty, ty, wp, rect ? ", int m" : "");
    sb_printf(k, "/* Point (i, j) of dst: the %s-weighted 5-point sum of src%s. */\n", runtime ? "w" : "0.2",
              bnd == PERIODIC ? ", wrapping around" : " (interior points only)");
    text_put_signature(k, "static __device__ void update", hp);
    sb_append(k, "{\n");
    if (bnd == PERIODIC)
        sb_printf(k, "    const int up = i > 0 ? i - 1 : n - 1, down = i + 1 < n ? i + 1 : 0;\n"
                     "    const int left = j > 0 ? j - 1 : %s - 1, right = j + 1 < %s ? j + 1 : 0;\n", M, M);
    else
        sb_printf(k, "    if (i < 1 || i >= n - 1 || j < 1 || j >= %s - 1)\n        return;\n", M);
    emit_point(k, 4, bnd, "dst", "src", w, M);
    sb_append(k, "}\n\n");

    snprintf(kp, sizeof kp, "const %s *__restrict__ src, %s *__restrict__ dst, %sint n%s, int t, int tsteps", ty, ty,
             wp, rect ? ", int m" : "");
    sb_append(k, "/* One sweep of time step t: src -> dst, one thread per point. */\n");
    text_put_signature(k, "extern \"C\" __global__ void sweep", kp);
    sb_printf(k, "{\n"
                 "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (t >= tsteps || i >= n || j >= %s)\n        return;\n"
                 "    update(src, dst, %sn%s, i, j);\n}\n\n", M, runtime ? "w, " : "", rect ? ", m" : "");

    snprintf(tp, sizeof tp, "%s *A, %s *B, %sint n%s, int first, int tsteps", ty, ty, wp, rect ? ", int m" : "");
    sb_append(k, "/* Steps first..tsteps-1 in one block: A -> B, then B -> A. */\n");
    text_put_signature(k, "extern \"C\" __global__ void sweep_tail", tp);
    sb_printf(k, "{\n"
                 "    const int count = n * %s;\n"
                 "    for (int t = first; t < tsteps; t++) {\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            update(A, B, %sn%s, c / %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            update(B, A, %sn%s, c / %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "    }\n}\n",
              M, runtime ? "w, " : "", rect ? ", m" : "", M, M, runtime ? "w, " : "", rect ? ", m" : "", M, M);
    if (bnd == COPY) {
        sb_printf(k, "\n/* B = A, one thread per element. */\n"
                     "extern \"C\" __global__ void copy(const %s *__restrict__ A, %s *__restrict__ B, int count)\n{\n"
                     "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (c < count)\n        B[c] = A[c];\n}\n", ty, ty);
        snprintf(args, sizeof args, "A,B,n*%s", M);
        char grid[32];
        snprintf(grid, sizeof grid, "(n*%s+255)/256", M);
        gen_launch(p, "copy", grid, "256", NULL, args);
    }
    char grid[32];
    snprintf(grid, sizeof grid, "(%s+31)/32,(n+7)/8", M);
    for (int t = 0; t < JACOBI_LAUNCHES; t++) {
        snprintf(args, sizeof args, "A,B,%sn%s,%d,tsteps", wa, rect ? ",m" : "", t);
        gen_launch(p, "sweep", grid, "32,8", NULL, args);
        snprintf(args, sizeof args, "B,A,%sn%s,%d,tsteps", wa, rect ? ",m" : "", t);
        gen_launch(p, "sweep", grid, "32,8", NULL, args);
    }
    snprintf(args, sizeof args, "A,B,%sn%s,%d,tsteps", wa, rect ? ",m" : "", JACOBI_LAUNCHES);
    gen_launch(p, "sweep_tail", "1", "1024", NULL, args);
    char steps[16];
    snprintf(steps, sizeof steps, "%d", JACOBI_LAUNCHES);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-element-per-thread, one launch per sweep, one-block tail");
    gen_knob(p, "unrolled_steps", steps);
}

static int generate(GenCtx *g)
{
    for (int bnd = 0; bnd < 3; bnd++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int runtime = 0; runtime < 2; runtime++)
                for (int rect = 0; rect < 2; rect++) {
                    int helper = (rect + runtime + bnd) % 2 == 0;
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *N = "n", *M = rect ? "m" : "n";
                    char w[40];
                    snprintf(w, sizeof w, "%s", runtime ? "w" : text_lit(0.2, f64));
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
                        text_put_signature(s, "static void sweep", hp);
                        sb_append(s, "{\n");
                        emit_sweep(s, 4, bnd, "dst", "src", w, N, M);
                        sb_append(s, "}\n\n");
                        text_put_signature(s, "void jacobi_2d", params);
                        sb_append(s, "{\n");
                        if (bnd == COPY)
                            sb_printf(s, "    memcpy(B, A, sizeof(%s) * (size_t)n * %s);\n", ty, M);
                        sb_append(s, "    for (int t = 0; t < tsteps; t++) {\n");
                        sb_printf(s, "        sweep(A, B%s, n%s);\n", runtime ? ", w" : "", rect ? ", m" : "");
                        sb_printf(s, "        sweep(B, A%s, n%s);\n", runtime ? ", w" : "", rect ? ", m" : "");
                        sb_append(s, "    }\n}\n");
                    } else {
                        text_put_signature(s, "void jacobi_2d", params);
                        sb_append(s, "{\n");
                        if (bnd == COPY)
                            sb_printf(s, "    memcpy(B, A, sizeof(%s) * (size_t)n * %s);\n", ty, M);
                        sb_append(s, "    for (int t = 0; t < tsteps; t++) {\n");
                        emit_sweep(s, 8, bnd, "B", "A", w, N, M);
                        emit_sweep(s, 8, bnd, "A", "B", w, N, M);
                        sb_append(s, "    }\n}\n");
                    }
                    emit_cuda(p, bnd, f64, runtime, rect, w);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_jacobi2d = {"pb_jacobi2d", "polyhedral", 24, generate};
