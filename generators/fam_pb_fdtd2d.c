/* pb_fdtd2d — 2D finite-difference time-domain (Yee scheme, TE mode) on an
 * nx x ny grid: per time step the electric fields ey and ex are updated from
 * the differences of hz, then hz from the curl of (ex, ey), with a source
 * term read from fict[t].
 *
 * Programs vary in dtype (f32, f64), in whether the update coefficients are
 * runtime scalars or baked constants (each program draws its own, inside
 * the scheme's stability limit), in storage (row-major or column-major
 * fields), in the source (a hard source on the first row of ey, a hard
 * source on the first column of ex, or a soft point source added to hz at
 * the centre), in square versus rectangular grids, and in whether the two
 * electric-field updates share one loop nest. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"

enum { ROW_EY, COL_EX, POINT_HZ };
static const char *const SOURCE_TAG[] = {"ey-row", "ex-col", "hz-point"};

/* Field f at (r, c) where each of r, c is an index expression. */
static const char *fld(int colmajor, const char *f, const char *r, const char *c, const char *NX,
                       const char *NY)
{
    static char pool[16][80];
    static int k;
    char *b = pool[k++ % 16];
    const char *major = colmajor ? c : r, *minor = colmajor ? r : c, *len = colmajor ? NX : NY;
    if (strcmp(major, "0") == 0)
        snprintf(b, 80, "%s[%s]", f, minor);
    else if (strchr(major, ' '))
        snprintf(b, 80, colmajor ? "%s[%s + (%s) * %s]" : "%s[(%s) * %s + %s]", f, colmajor ? minor : major,
                 colmajor ? major : len, colmajor ? len : minor);
    else
        snprintf(b, 80, colmajor ? "%s[%s + %s * %s]" : "%s[%s * %s + %s]", f, colmajor ? minor : major,
                 colmajor ? major : len, colmajor ? len : minor);
    return b;
}

/* ---- the pair ---- */

/* Time steps the launch plans unroll (two launches each, the electric then
 * the magnetic update): the largest tmax of the configs.  Any further steps
 * run in one block. */
#define FDTD_LAUNCHES 50

/* The pair: per time step, e_step updates ey and ex (with the hard source)
 * and h_step updates hz (with the soft source), one thread per point with
 * threadIdx.x along the storage's contiguous index; one launch each for the
 * first FDTD_LAUNCHES steps (a launch past tmax returns at once); fdtd_tail
 * runs any further steps in one block with a barrier between updates.
 * cev/chv: the coefficients (names or literals); dims: the size
 * parameters ("int nx, int ny" or "int n"). */
static void emit_cuda(GenProgram *p, int src, int col, int f64, int runtime, const char *NX, const char *NY,
                      const char *cev, const char *chv)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = text_ctype(f64);
    int rect = NX[1] != 0;
    char scal[48] = "", dims[24], hp[200], kp[260], tp[260];
    if (runtime)
        snprintf(scal, sizeof scal, ", %s ce, %s ch", ty, ty);
    snprintf(dims, sizeof dims, "%s", rect ? "int nx, int ny" : "int n");
    const char *dargs = rect ? ", nx, ny" : ", n";

    if (runtime) /* the e-update needs ce only, the h-update ch */
        snprintf(hp, sizeof hp, "%s *ex, %s *ey, const %s *hz, const %s *fict, %s ce, %s, int t, int i, int j", ty, ty,
                 ty, ty, ty, dims);
    else
        snprintf(hp, sizeof hp, "%s *ex, %s *ey, const %s *hz, const %s *fict, %s, int t, int i, int j", ty, ty, ty,
                 ty, dims);
    sb_printf(k, "/* ey and ex at (i, j) of step t%s. */\n",
              src == ROW_EY ? ", the first row of ey being the hard source"
              : src == COL_EX ? ", the first column of ex being the hard source" : "");
    text_put_signature(k, "static __device__ void e_update", hp);
    sb_append(k, "{\n");
    if (src == ROW_EY)
        sb_printf(k, "    if (i == 0)\n        %s = fict[t];\n    else\n", fld(col, "ey", "i", "j", NX, NY));
    else
        sb_append(k, "    if (i > 0)\n");
    sb_printf(k, "        %s -= %s * (%s - %s);\n", fld(col, "ey", "i", "j", NX, NY), cev,
              fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i - 1", "j", NX, NY));
    if (src == COL_EX)
        sb_printf(k, "    if (j == 0)\n        %s = fict[t];\n    else\n", fld(col, "ex", "i", "j", NX, NY));
    else
        sb_append(k, "    if (j > 0)\n");
    sb_printf(k, "        %s -= %s * (%s - %s);\n}\n\n", fld(col, "ex", "i", "j", NX, NY), cev,
              fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i", "j - 1", NX, NY));

    if (runtime)
        snprintf(hp, sizeof hp, "const %s *ex, const %s *ey, %s *hz, const %s *fict, %s ch, %s, int t, int i, int j",
                 ty, ty, ty, ty, ty, dims);
    else
        snprintf(hp, sizeof hp, "const %s *ex, const %s *ey, %s *hz, const %s *fict, %s, int t, int i, int j", ty, ty,
                 ty, ty, dims);
    sb_printf(k, "/* hz at (i, j) of step t%s. */\n", src == POINT_HZ ? ", plus the soft source at the centre" : "");
    text_put_signature(k, "static __device__ void h_update", hp);
    sb_append(k, "{\n");
    const char *hz = fld(col, "hz", "i", "j", NX, NY);
    sb_printf(k, "    if (i < %s - 1 && j < %s - 1)\n", NX, NY);
    sb_printf(k, "        %s -= %s * (%s - %s\n", hz, chv, fld(col, "ex", "i", "j + 1", NX, NY),
              fld(col, "ex", "i", "j", NX, NY));
    sb_printf(k, "%*s+ %s - %s);\n", 8 + (int)strlen(hz) + 4 + (int)strlen(chv) + 3, "",
              fld(col, "ey", "i + 1", "j", NX, NY), fld(col, "ey", "i", "j", NX, NY));
    if (src == POINT_HZ)
        sb_printf(k, "    if (i == %s / 2 && j == %s / 2)\n        %s += fict[t];\n", NX, NY, hz);
    sb_append(k, "}\n\n");

    /* threadIdx.x walks the contiguous index: j for row-major fields, i for column-major. */
    const char *xi = col ? "i" : "j", *yi = col ? "j" : "i", *XN = col ? NX : NY, *YN = col ? NY : NX;
    if (runtime)
        snprintf(kp, sizeof kp, "%s *__restrict__ ex, %s *__restrict__ ey, const %s *__restrict__ hz, "
                 "const %s *__restrict__ fict, %s ce, int tmax, %s, int t", ty, ty, ty, ty, ty, dims);
    else
        snprintf(kp, sizeof kp, "%s *__restrict__ ex, %s *__restrict__ ey, const %s *__restrict__ hz, "
                 "const %s *__restrict__ fict, int tmax, %s, int t", ty, ty, ty, ty, dims);
    sb_append(k, "/* The electric update of step t: one thread per point. */\n");
    text_put_signature(k, "extern \"C\" __global__ void e_step", kp);
    sb_printf(k, "{\n"
                 "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int %s = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (t >= tmax || %s >= %s || %s >= %s)\n        return;\n"
                 "    e_update(ex, ey, hz, fict%s%s, t, i, j);\n}\n\n",
              xi, yi, xi, XN, yi, YN, runtime ? ", ce" : "", dargs);
    if (runtime)
        snprintf(kp, sizeof kp, "const %s *__restrict__ ex, const %s *__restrict__ ey, %s *__restrict__ hz, "
                 "const %s *__restrict__ fict, %s ch, int tmax, %s, int t", ty, ty, ty, ty, ty, dims);
    else
        snprintf(kp, sizeof kp, "const %s *__restrict__ ex, const %s *__restrict__ ey, %s *__restrict__ hz, "
                 "const %s *__restrict__ fict, int tmax, %s, int t", ty, ty, ty, ty, dims);
    sb_append(k, "/* The magnetic update of step t: one thread per point. */\n");
    text_put_signature(k, "extern \"C\" __global__ void h_step", kp);
    sb_printf(k, "{\n"
                 "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int %s = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (t >= tmax || %s >= %s || %s >= %s)\n        return;\n"
                 "    h_update(ex, ey, hz, fict%s%s, t, i, j);\n}\n\n",
              xi, yi, xi, XN, yi, YN, runtime ? ", ch" : "", dargs);

    snprintf(tp, sizeof tp, "%s *ex, %s *ey, %s *hz, const %s *fict%s, int tmax, %s, int first", ty, ty, ty, ty, scal,
             dims);
    sb_append(k, "/* Steps first..tmax-1 in one block. */\n");
    text_put_signature(k, "extern \"C\" __global__ void fdtd_tail", tp);
    sb_printf(k, "{\n"
                 "    const int count = %s * %s;\n"
                 "    for (int t = first; t < tmax; t++) {\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            e_update(ex, ey, hz, fict%s%s, t, c / %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
                 "            h_update(ex, ey, hz, fict%s%s, t, c / %s, c %% %s);\n"
                 "        __syncthreads();\n"
                 "    }\n}\n",
              NX, NY, runtime ? ", ce" : "", dargs, NY, NY, runtime ? ", ch" : "", dargs, NY, NY);

    char grid[40], args[80];
    const char *la = rect ? ",nx,ny" : ",n";
    snprintf(grid, sizeof grid, "(%s+31)/32,(%s+7)/8", XN, YN);
    for (int t = 0; t < FDTD_LAUNCHES; t++) {
        snprintf(args, sizeof args, "ex,ey,hz,fict%s,tmax%s,%d", runtime ? ",ce" : "", la, t);
        gen_launch(p, "e_step", grid, "32,8", NULL, args);
        snprintf(args, sizeof args, "ex,ey,hz,fict%s,tmax%s,%d", runtime ? ",ch" : "", la, t);
        gen_launch(p, "h_step", grid, "32,8", NULL, args);
    }
    snprintf(args, sizeof args, "ex,ey,hz,fict%s,tmax%s,%d", runtime ? ",ce,ch" : "", la, FDTD_LAUNCHES);
    gen_launch(p, "fdtd_tail", "1", "1024", NULL, args);
    char steps[16];
    snprintf(steps, sizeof steps, "%d", FDTD_LAUNCHES);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-element-per-thread, two launches per time step, one-block tail");
    gen_knob(p, "unrolled_steps", steps);
}

static int generate(GenCtx *g)
{
    for (int src = 0; src < 3; src++)
        for (int col = 0; col < 2; col++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int runtime = 0; runtime < 2; runtime++) {
                    int rect = (src + col + f64 + runtime) % 2 == 0;
                    int fuse = (src + runtime) % 2 == 1;
                    const char *ty = text_ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *NX = rect ? "nx" : "n", *NY = rect ? "ny" : "n";
                    /* Stable while ce * ch <= 1/2. */
                    double ce = round(gen_uniform(g, 0.4, 0.6) * 20) / 20;
                    double ch = round(gen_uniform(g, 0.5, 0.75) * 20) / 20;
                    while (ce * ch > 0.45)
                        ch -= 0.05;
                    char cev[40], chv[40];
                    snprintf(cev, sizeof cev, "%s", runtime ? "ce" : text_lit(ce, f64));
                    snprintf(chv, sizeof chv, "%s", runtime ? "ch" : text_lit(ch, f64));
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s-%s", SOURCE_TAG[src], col ? "col" : "row", dt,
                             runtime ? "scalars" : "const", rect ? "rect" : "square");
                    GenProgram *p = gen_begin(g, variant, "fdtd_2d");
                    gen_describe(p, "2D FDTD over tmax steps, %s source, %s fields, %s grid, %s coefficients",
                                 src == ROW_EY ? "hard ey first-row" : src == COL_EX ? "hard ex first-column"
                                                                                   : "soft hz centre-point",
                                 col ? "column-major" : "row-major", rect ? "nx x ny" : "n x n",
                                 runtime ? "runtime" : "constant");
                    char shp[16];
                    snprintf(shp, sizeof shp, "%s,%s", col ? NY : NX, col ? NX : NY);
                    gen_arg(p, "ex", dt, "inout", shp);
                    gen_arg(p, "ey", dt, "inout", shp);
                    gen_arg(p, "hz", dt, "inout", shp);
                    gen_arg(p, "fict", dt, "in", "tmax");
                    if (runtime) {
                        gen_scalar(p, "ce", dt, ce);
                        gen_scalar(p, "ch", dt, ch);
                    }
                    gen_arg(p, "tmax", "i32", "param", NULL);
                    if (rect) {
                        gen_arg(p, "nx", "i32", "param", NULL);
                        gen_arg(p, "ny", "i32", "param", NULL);
                        gen_config(p, "small", "tmax=10,nx=64,ny=80");
                        gen_config(p, "edge", "tmax=1,nx=1,ny=1");
                        gen_config(p, "edge-prime", "tmax=5,nx=31,ny=17");
                        gen_config(p, "edge-thin", "tmax=4,nx=2,ny=53");
                        gen_config(p, "large", "tmax=50,nx=4096,ny=8192");
                        gen_cost(p, "11*nx*ny*tmax", f64 ? "8*(6*nx*ny + tmax)" : "4*(6*nx*ny + tmax)");
                    } else {
                        gen_arg(p, "n", "i32", "param", NULL);
                        gen_config(p, "small", "tmax=10,n=72");
                        gen_config(p, "edge", "tmax=1,n=1");
                        gen_config(p, "edge-prime", "tmax=5,n=29");
                        gen_config(p, "large", "tmax=50,n=6144");
                        gen_cost(p, "11*n*n*tmax", f64 ? "8*(6*n*n + tmax)" : "4*(6*n*n + tmax)");
                    }
                    if (!f64)
                        gen_tolerance(p, 1e-4, 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* fdtd-2d: tmax steps of the 2D Yee scheme on an %s grid.\n"
                                 " * Per step t:%s\n"
                                 " *   ey(i, j) -= ce * (hz(i, j) - hz(i-1, j))           for i >= 1\n"
                                 " *   ex(i, j) -= ce * (hz(i, j) - hz(i, j-1))           for j >= 1\n"
                                 " *   hz(i, j) -= ch * (ex(i, j+1) - ex(i, j) + ey(i+1, j) - ey(i, j))\n"
                                 " *                                             for i < %s-1, j < %s-1\n",
                              rect ? "nx x ny" : "n x n",
                              src == ROW_EY   ? "\n *   ey(0, j) = fict[t] (a hard source along the first row)"
                              : src == COL_EX ? "\n *   ex(i, 0) = fict[t] (a hard source along the first column)"
                                              : "", NX, NY);
                    if (src == POINT_HZ)
                        sb_printf(s, " *   hz(%s/2, %s/2) += fict[t] (a soft point source)\n", NX, NY);
                    if (!runtime)
                        sb_printf(s, " * with ce = %g and ch = %g.\n", ce, ch);
                    if (col)
                        sb_printf(s, " * Fields are column-major: f(i, j) is f[i + j * %s]. */\n", NX);
                    else
                        sb_printf(s, " * Fields are row-major: f(i, j) is f[i * %s + j]. */\n", NY);
                    char params[240];
                    int pl = snprintf(params, sizeof params, "%s *ex, %s *ey, %s *hz, const %s *fict", ty, ty, ty, ty);
                    if (runtime)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s ce, %s ch", ty, ty);
                    snprintf(params + pl, sizeof params - (size_t)pl, ", int tmax, %s",
                             rect ? "int nx, int ny" : "int n");
                    text_put_signature(s, "void fdtd_2d", params);
                    sb_append(s, "{\n    for (int t = 0; t < tmax; t++) {\n");
                    /* Loops in storage order: i outer for row-major, j outer for column-major. */
                    const char *outer = col ? "j" : "i", *inner = col ? "i" : "j";
                    const char *NO = col ? NY : NX, *NI = col ? NX : NY;
                    if (src == ROW_EY)
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            %s = fict[t];\n", NY,
                                  fld(col, "ey", "0", "j", NX, NY));
                    else if (src == COL_EX)
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            %s = fict[t];\n", NX,
                                  fld(col, "ex", "i", "0", NX, NY));
                    if (fuse) {
                        sb_printf(s, "        for (int %s = 0; %s < %s; %s++) {\n", outer, outer, NO, outer);
                        sb_printf(s, "            for (int %s = 0; %s < %s; %s++) {\n", inner, inner, NI, inner);
                        sb_printf(s, "                if (i > 0)\n                    %s -= %s * (%s - %s);\n",
                                  fld(col, "ey", "i", "j", NX, NY), cev, fld(col, "hz", "i", "j", NX, NY),
                                  fld(col, "hz", "i - 1", "j", NX, NY));
                        sb_printf(s, "                if (j > 0)\n                    %s -= %s * (%s - %s);\n",
                                  fld(col, "ex", "i", "j", NX, NY), cev, fld(col, "hz", "i", "j", NX, NY),
                                  fld(col, "hz", "i", "j - 1", NX, NY));
                        sb_append(s, "            }\n        }\n");
                    } else if (!col) {
                        sb_printf(s, "        for (int i = 1; i < %s; i++)\n            for (int j = 0; j < %s; j++)\n", NX, NY);
                        sb_printf(s, "                %s -= %s * (%s - %s);\n", fld(col, "ey", "i", "j", NX, NY), cev,
                                  fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i - 1", "j", NX, NY));
                        sb_printf(s, "        for (int i = 0; i < %s; i++)\n            for (int j = 1; j < %s; j++)\n", NX, NY);
                        sb_printf(s, "                %s -= %s * (%s - %s);\n", fld(col, "ex", "i", "j", NX, NY), cev,
                                  fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i", "j - 1", NX, NY));
                    } else {
                        sb_printf(s, "        for (int j = 0; j < %s; j++)\n            for (int i = 1; i < %s; i++)\n", NY, NX);
                        sb_printf(s, "                %s -= %s * (%s - %s);\n", fld(col, "ey", "i", "j", NX, NY), cev,
                                  fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i - 1", "j", NX, NY));
                        sb_printf(s, "        for (int j = 1; j < %s; j++)\n            for (int i = 0; i < %s; i++)\n", NY, NX);
                        sb_printf(s, "                %s -= %s * (%s - %s);\n", fld(col, "ex", "i", "j", NX, NY), cev,
                                  fld(col, "hz", "i", "j", NX, NY), fld(col, "hz", "i", "j - 1", NX, NY));
                    }
                    sb_printf(s, "        for (int %s = 0; %s < %s - 1; %s++)\n", outer, outer, NO, outer);
                    sb_printf(s, "            for (int %s = 0; %s < %s - 1; %s++)\n", inner, inner, NI, inner);
                    const char *hz = fld(col, "hz", "i", "j", NX, NY);
                    sb_printf(s, "                %s -= %s * (%s - %s\n", hz, chv, fld(col, "ex", "i", "j + 1", NX, NY),
                              fld(col, "ex", "i", "j", NX, NY));
                    sb_printf(s, "%*s+ %s - %s);\n", 16 + (int)strlen(hz) + 4 + (int)strlen(chv) + 3, "",
                              fld(col, "ey", "i + 1", "j", NX, NY), fld(col, "ey", "i", "j", NX, NY));
                    if (src == POINT_HZ)
                        sb_printf(s, "        %s += fict[t];\n", fld(col, "hz", NX[1] ? "nx / 2" : "n / 2",
                                                                   NY[1] ? "ny / 2" : "n / 2", NX, NY));
                    sb_append(s, "    }\n}\n");
                    emit_cuda(p, src, col, f64, runtime, NX, NY, cev, chv);
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_fdtd2d = {"pb_fdtd2d", "polyhedral", 24, generate};
