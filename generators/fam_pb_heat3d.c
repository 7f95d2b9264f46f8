/* pb_heat3d — tsteps explicit steps of the 3D heat equation on an
 * nx x ny x nz grid with the 7-point Laplacian, ping-ponging A -> B -> A.
 *
 * Programs vary in dtype (f32, f64), in whether the diffusion coefficients
 * are runtime scalars or baked constants (each program draws its own, inside
 * the explicit scheme's stability limit), in cubic (n^3) versus box grids,
 * in the model (isotropic with fixed borders, anisotropic with one
 * coefficient per axis and fixed borders, or isotropic and periodic), and in
 * whether the step is a static helper or written out inline. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"

enum { ISO, ANISO, PERIODIC };
static const char *const MODEL_TAG[] = {"iso", "aniso", "periodic"};

/* The update of point (i, j, k) of dst from src at indentation `in`: the
 * periodic model reads the wrapped neighbours im, ip, jm, jp, km, kp; the
 * others the strides sx, sy. */
static void emit_point(StrBuf *s, int in, int model, const char *ty, const char *dst, const char *src,
                       const char *const c[3], const char *NY, const char *NZ)
{
    if (model == PERIODIC) {
        sb_printf(s, "%*s%s ctr = %s[(i * %s + j) * %s + k];\n", in, "", ty, src, NY, NZ);
        sb_printf(s, "%*s%s[(i * %s + j) * %s + k] = ctr\n", in, "", dst, NY, NZ);
        sb_printf(s, "%*s+ %s * (%s[(ip * %s + j) * %s + k] - 2 * ctr + %s[(im * %s + j) * %s + k])\n", in + 4, "",
                  c[0], src, NY, NZ, src, NY, NZ);
        sb_printf(s, "%*s+ %s * (%s[(i * %s + jp) * %s + k] - 2 * ctr + %s[(i * %s + jm) * %s + k])\n", in + 4, "",
                  c[1], src, NY, NZ, src, NY, NZ);
        sb_printf(s, "%*s+ %s * (%s[(i * %s + j) * %s + kp] - 2 * ctr + %s[(i * %s + j) * %s + km]);\n", in + 4, "",
                  c[2], src, NY, NZ, src, NY, NZ);
    } else {
        sb_printf(s, "%*sint p = (i * %s + j) * %s + k;\n", in, "", NY, NZ);
        sb_printf(s, "%*s%s[p] = %s[p] + %s * (%s[p + sx] - 2 * %s[p] + %s[p - sx])\n", in, "", dst, src, c[0], src,
                  src, src);
        int al = in + (int)strlen(dst) + 6;
        sb_printf(s, "%*s+ %s * (%s[p + sy] - 2 * %s[p] + %s[p - sy])\n", al, "", c[1], src, src, src);
        sb_printf(s, "%*s+ %s * (%s[p + 1] - 2 * %s[p] + %s[p - 1]);\n", al, "", c[2], src, src, src);
    }
}

/* One step dst <- src at indentation `ind`; c[3] are the coefficients of
 * the x, y and z second differences (names or literals). */
static void emit_step(StrBuf *s, int ind, int model, const char *ty, const char *dst, const char *src, const char *const c[3],
                      const char *NX, const char *NY, const char *NZ)
{
    int in = ind;
    if (model == PERIODIC) {
        sb_printf(s, "%*sfor (int i = 0; i < %s; i++) {\n", in, "", NX);
        sb_printf(s, "%*sint im = i > 0 ? i - 1 : %s - 1, ip = i + 1 < %s ? i + 1 : 0;\n", in + 4, "", NX, NX);
        sb_printf(s, "%*sfor (int j = 0; j < %s; j++) {\n", in + 4, "", NY);
        sb_printf(s, "%*sint jm = j > 0 ? j - 1 : %s - 1, jp = j + 1 < %s ? j + 1 : 0;\n", in + 8, "", NY, NY);
        sb_printf(s, "%*sfor (int k = 0; k < %s; k++) {\n", in + 8, "", NZ);
        sb_printf(s, "%*sint km = k > 0 ? k - 1 : %s - 1, kp = k + 1 < %s ? k + 1 : 0;\n", in + 12, "", NZ, NZ);
        emit_point(s, in + 12, model, ty, dst, src, c, NY, NZ);
        sb_printf(s, "%*s}\n%*s}\n%*s}\n", ind + 8, "", ind + 4, "", ind, "");
    } else {
        sb_printf(s, "%*sfor (int i = 1; i < %s - 1; i++)\n", in, "", NX);
        sb_printf(s, "%*sfor (int j = 1; j < %s - 1; j++)\n", in + 4, "", NY);
        sb_printf(s, "%*sfor (int k = 1; k < %s - 1; k++) {\n", in + 8, "", NZ);
        emit_point(s, in + 12, model, ty, dst, src, c, NY, NZ);
        sb_printf(s, "%*s}\n", ind + 8, "");
    }
}

/* ---- the pair ---- */

/* Time steps the launch plans unroll (two launches each, A -> B and
 * B -> A): the largest tsteps of the configs.  Any further steps run in
 * one block. */
#define HEAT_LAUNCHES 20

/* The pair: one thread per point, k (contiguous) along threadIdx.x, j along
 * threadIdx.y, one i plane per blockIdx.z; one launch per half step, A -> B
 * then B -> A for each of the first HEAT_LAUNCHES steps (a launch past
 * tsteps returns at once); step_tail runs any further steps in one block
 * with a barrier between half steps.  scal/dims/args/dargs are the C
 * program's scalar and size parameter lists. */
static void emit_cuda(GenProgram *p, int model, const char *ty, const char *const c[3], const char *NX,
                      const char *NY, const char *NZ, const char *scal, const char *dims, const char *args,
                      const char *dargs)
{
    StrBuf *k = gen_cuda_src(p);
    char hp[240], kp[280], tp[280], ca[64], la[96];
    /* ", cx, cy, cz, nx, ny, nz" as launch arguments: no spaces. */
    snprintf(ca, sizeof ca, "%s%s", args, dargs);
    int o = 0;
    for (const char *q = ca; *q; q++)
        if (*q != ' ')
            ca[o++] = *q;
    ca[o] = 0;

    snprintf(hp, sizeof hp, "const %s *src, %s *dst%s%s, int i, int j, int k", ty, ty, scal, dims);
    sb_printf(k, "/* Point (i, j, k) of dst from src%s. */\n",
              model == PERIODIC ? ", neighbours wrapping around" : " (interior points only)");
    text_put_signature(k, "static __device__ void update", hp);
    sb_append(k, "{\n");
    if (model == PERIODIC)
        sb_printf(k, "    const int im = i > 0 ? i - 1 : %s - 1, ip = i + 1 < %s ? i + 1 : 0;\n"
                     "    const int jm = j > 0 ? j - 1 : %s - 1, jp = j + 1 < %s ? j + 1 : 0;\n"
                     "    const int km = k > 0 ? k - 1 : %s - 1, kp = k + 1 < %s ? k + 1 : 0;\n",
                  NX, NX, NY, NY, NZ, NZ);
    else
        sb_printf(k, "    if (i < 1 || i >= %s - 1 || j < 1 || j >= %s - 1 || k < 1 || k >= %s - 1)\n        return;\n"
                     "    const int sx = %s * %s, sy = %s;\n",
                  NX, NY, NZ, NY, NZ, NZ);
    emit_point(k, 4, model, ty, "dst", "src", c, NY, NZ);
    sb_append(k, "}\n\n");

    snprintf(kp, sizeof kp, "const %s *__restrict__ src, %s *__restrict__ dst%s%s, int t, int tsteps", ty, ty, scal,
             dims);
    sb_append(k, "/* Half of time step t: src -> dst, one thread per point. */\n");
    text_put_signature(k, "extern \"C\" __global__ void step", kp);
    sb_printf(k, "{\n"
                 "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int j = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    const int i = blockIdx.z;\n"
                 "    if (t >= tsteps || j >= %s || k >= %s)\n        return;\n"
                 "    update(src, dst%s%s, i, j, k);\n}\n\n", NY, NZ, args, dargs);

    snprintf(tp, sizeof tp, "%s *A, %s *B%s%s, int first, int tsteps", ty, ty, scal, dims);
    sb_append(k, "/* Steps first..tsteps-1 in one block: A -> B, then B -> A. */\n");
    text_put_signature(k, "extern \"C\" __global__ void step_tail", tp);
    sb_printf(k, "{\n"
                 "    const int count = %s * %s * %s;\n"
                 "    for (int t = first; t < tsteps; t++) {\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            update(A, B%s%s, c / (%s * %s), c / %s %% %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            update(B, A%s%s, c / (%s * %s), c / %s %% %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "    }\n}\n",
              NX, NY, NZ, args, dargs, NY, NZ, NZ, NY, NZ, args, dargs, NY, NZ, NZ, NY, NZ);
    char grid[48];
    snprintf(grid, sizeof grid, "(%s+31)/32,(%s+7)/8,%s", NZ, NY, NX);
    for (int t = 0; t < HEAT_LAUNCHES; t++) {
        snprintf(la, sizeof la, "A,B%s,%d,tsteps", ca, t);
        gen_launch(p, "step", grid, "32,8", NULL, la);
        snprintf(la, sizeof la, "B,A%s,%d,tsteps", ca, t);
        gen_launch(p, "step", grid, "32,8", NULL, la);
    }
    snprintf(la, sizeof la, "A,B%s,%d,tsteps", ca, HEAT_LAUNCHES);
    gen_launch(p, "step_tail", "1", "1024", NULL, la);
    char steps[16];
    snprintf(steps, sizeof steps, "%d", HEAT_LAUNCHES);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-element-per-thread, one launch per half step, one-block tail");
    gen_knob(p, "unrolled_steps", steps);
}

static int generate(GenCtx *g)
{
    for (int model = 0; model < 3; model++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int runtime = 0; runtime < 2; runtime++)
                for (int box = 0; box < 2; box++) {
                    int helper = (box + runtime + model) % 2 == 1;
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *NX = box ? "nx" : "n", *NY = box ? "ny" : "n", *NZ = box ? "nz" : "n";
                    /* Stable while cx + cy + cz <= 1/2. */
                    double cv[3];
                    if (model == ANISO) {
                        for (int k = 0; k < 3; k++)
                            cv[k] = round(gen_uniform(g, 0.04, 0.16) * 200) / 200;
                    } else {
                        cv[0] = cv[1] = cv[2] = round(gen_uniform(g, 0.08, 0.15) * 200) / 200;
                    }
                    char cbuf[3][40];
                    const char *c[3];
                    for (int k = 0; k < 3; k++) {
                        if (runtime)
                            snprintf(cbuf[k], 40, "%s", model == ANISO ? (k == 0 ? "cx" : k == 1 ? "cy" : "cz") : "alpha");
                        else
                            snprintf(cbuf[k], 40, "%s", text_lit(cv[k], f64));
                        c[k] = cbuf[k];
                    }
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", MODEL_TAG[model], dt,
                             runtime ? "scalars" : "const", box ? "box" : "cube");
                    GenProgram *p = gen_begin(g, variant, "heat_3d");
                    gen_describe(p, "3D heat equation, 7-point, tsteps A->B->A steps, %s, %s grid, %s coefficients",
                                 model == ISO ? "isotropic, fixed borders"
                                              : model == ANISO ? "anisotropic, fixed borders" : "isotropic, periodic",
                                 box ? "nx x ny x nz" : "n^3", runtime ? "runtime" : "constant");
                    const char *shp = box ? "nx,ny,nz" : "n,n,n";
                    gen_arg(p, "A", dt, "inout", shp);
                    gen_arg(p, "B", dt, model == PERIODIC ? "out" : "inout", shp);
                    if (runtime) {
                        if (model == ANISO) {
                            gen_scalar(p, "cx", dt, cv[0]);
                            gen_scalar(p, "cy", dt, cv[1]);
                            gen_scalar(p, "cz", dt, cv[2]);
                        } else {
                            gen_scalar(p, "alpha", dt, cv[0]);
                        }
                    }
                    gen_arg(p, "tsteps", "i32", "param", NULL);
                    if (box) {
                        gen_arg(p, "nx", "i32", "param", NULL);
                        gen_arg(p, "ny", "i32", "param", NULL);
                        gen_arg(p, "nz", "i32", "param", NULL);
                        gen_config(p, "small", "tsteps=10,nx=40,ny=24,nz=32");
                        gen_config(p, "edge", "tsteps=1,nx=1,ny=1,nz=1");
                        gen_config(p, "edge-prime", "tsteps=3,nx=13,ny=7,nz=11");
                        gen_config(p, "edge-flat", "tsteps=2,nx=2,ny=17,nz=3");
                        gen_config(p, "large", "tsteps=20,nx=768,ny=512,nz=320");
                        gen_cost(p, "30*nx*ny*nz*tsteps", f64 ? "32*nx*ny*nz" : "16*nx*ny*nz");
                    } else {
                        gen_arg(p, "n", "i32", "param", NULL);
                        gen_config(p, "small", "tsteps=10,n=32");
                        gen_config(p, "edge", "tsteps=1,n=1");
                        gen_config(p, "edge-prime", "tsteps=3,n=13");
                        gen_config(p, "large", "tsteps=20,n=512");
                        gen_cost(p, "30*n*n*n*tsteps", f64 ? "32*n*n*n" : "16*n*n*n");
                    }
                    if (!f64)
                        gen_tolerance(p, 2e-5, 1e-4);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* heat-3d: tsteps explicit steps of the 3D heat equation on an %s grid,\n"
                                 " * stored row-major (A[(i * %s + j) * %s + k]).  Each step computes B from A and\n"
                                 " * then A from B:\n"
                                 " *   B = A + cx * d2x(A) + cy * d2y(A) + cz * d2z(A)\n"
                                 " * with d2x(A) = A(i+1, j, k) - 2 A(i, j, k) + A(i-1, j, k), and so on",
                              box ? "nx x ny x nz" : "n x n x n", NY, NZ);
                    if (model == ANISO && !runtime)
                        sb_printf(s, ",\n * and cx = %g, cy = %g, cz = %g", cv[0], cv[1], cv[2]);
                    else if (model != ANISO && runtime)
                        sb_append(s, ",\n * and cx = cy = cz = alpha");
                    else if (model != ANISO)
                        sb_printf(s, ",\n * and cx = cy = cz = %g", cv[0]);
                    if (model == PERIODIC)
                        sb_append(s, ".\n * The grid is periodic: neighbours wrap around at the faces. */\n");
                    else
                        sb_append(s, ".\n * Only interior points are updated: the faces of A and B keep their\n"
                                     " * initial values. */\n");
                    char scal[80] = "";
                    if (runtime)
                        snprintf(scal, sizeof scal, model == ANISO ? ", %s cx, %s cy, %s cz" : ", %s alpha", ty, ty, ty);
                    const char *dims = box ? ", int nx, int ny, int nz" : ", int n";
                    char params[240];
                    snprintf(params, sizeof params, "%s *A, %s *B%s, int tsteps%s", ty, ty, scal, dims);
                    const char *args = runtime ? (model == ANISO ? ", cx, cy, cz" : ", alpha") : "";
                    const char *dargs = box ? ", nx, ny, nz" : ", n";
                    if (helper) {
                        char hp[200];
                        snprintf(hp, sizeof hp, "const %s *src, %s *dst%s%s", ty, ty, scal, dims);
                        sb_printf(s, "\n/* One explicit step dst <- src%s. */\n",
                                  model == PERIODIC ? " over every point" : " at the interior points");
                        text_put_signature(s, "static void step", hp);
                        sb_append(s, "{\n");
                        if (model != PERIODIC)
                            sb_printf(s, "    int sx = %s * %s, sy = %s;\n", NY, NZ, NZ);
                        emit_step(s, 4, model, ty, "dst", "src", c, NX, NY, NZ);
                        sb_append(s, "}\n\n");
                        text_put_signature(s, "void heat_3d", params);
                        sb_append(s, "{\n    for (int t = 0; t < tsteps; t++) {\n");
                        sb_printf(s, "        step(A, B%s%s);\n        step(B, A%s%s);\n", args, dargs, args, dargs);
                        sb_append(s, "    }\n}\n");
                    } else {
                        text_put_signature(s, "void heat_3d", params);
                        sb_append(s, "{\n");
                        if (model != PERIODIC)
                            sb_printf(s, "    int sx = %s * %s, sy = %s;  /* strides of i and j */\n", NY, NZ, NZ);
                        sb_append(s, "    for (int t = 0; t < tsteps; t++) {\n");
                        emit_step(s, 8, model, ty, "B", "A", c, NX, NY, NZ);
                        emit_step(s, 8, model, ty, "A", "B", c, NX, NY, NZ);
                        sb_append(s, "    }\n}\n");
                    }
                    emit_cuda(p, model, ty, c, NX, NY, NZ, scal, dims, args, dargs);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_heat3d = {"pb_heat3d", "polyhedral", 24, generate};
