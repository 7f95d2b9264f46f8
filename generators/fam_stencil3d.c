/* stencil3d — 3D stencils on an nz x ny x nx grid (x fastest).  Programs vary by
 *   - shape and weights: isotropic 7-point, anisotropic 7-point (separate x/y/z
 *     weights), 13-point star of radius 2, isotropic 27-point (weight by
 *     distance class), anisotropic 27-point (product of per-axis 3-tap
 *     weights) and a general 27-point table;
 *   - boundary: border copied, clamped, zero-padded or periodic;
 *   - one sweep or two through a temporary; f32 or f64;
 *   - plus variable-coefficient diffusion and an explicit 3D heat-equation
 *     time loop with a `steps` param. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

enum { COPY, CLAMP, ZERO, PERIODIC };
static const char *const BORDER[] = {"copy", "clamp", "zero", "periodic"};
static const char *const BORDER_TEXT[] = {"border points copied", "clamped border",
                                          "zero outside the grid", "periodic grid"};

enum { ISO7, ANISO7, STAR13, ISO27, ANISO27, GEN27, N_SHAPES };
static const char *const SHAPE[] = {"7pt", "7pt-aniso", "13pt", "27pt", "27pt-aniso", "27pt-table"};
static const int SHAPE_RADIUS[] = {1, 1, 2, 1, 1, 1};
static const int SHAPE_POINTS[] = {7, 7, 13, 27, 27, 27};
static const char *const SHAPE_TEXT[] = {"isotropic 7-point", "anisotropic 7-point",
                                         "13-point star (radius 2)", "isotropic 27-point",
                                         "anisotropic 27-point", "27-point (full weight table)"};

static const char *lit(char *buf, double v, int f32)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, f32 ? "%.6g" : "%.12g", v);
    if (!strpbrk(tmp, ".e"))
        strcat(tmp, ".0");
    snprintf(buf, 48, "%s%s", tmp, f32 ? "f" : "");
    return buf;
}

static const char *tyname(int f32) { return f32 ? "float" : "double"; }
static const char *dtname(int f32) { return f32 ? "f32" : "f64"; }

/* load(a, nz, ny, nx, z, y, x): the value at a possibly outside point;
 * cuda: as __device__ functions for kernel.cu. */
static void emit_load_helper(StrBuf *s, int border, const char *ty, int cuda)
{
    const char *q = cuda ? "static __device__ " : "static ";
    if (border == CLAMP)
        sb_printf(s, "%sint clampi(int i, int n)\n{\n"
                     "    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n", q);
    if (border == PERIODIC)
        sb_printf(s, "/* i modulo n, in [0, n). */\n%sint wrap(int i, int n)\n{\n"
                     "    i %%= n;\n    return i < 0 ? i + n : i;\n}\n\n", q);
    sb_printf(s, "%s%s load(const %s *a, int nz, int ny, int nx, int z, int y, int x)\n{\n", q, ty, ty);
    if (border == CLAMP)
        sb_append(s, "    z = clampi(z, nz);\n    y = clampi(y, ny);\n    x = clampi(x, nx);\n");
    else if (border == PERIODIC)
        sb_append(s, "    z = wrap(z, nz);\n    y = wrap(y, ny);\n    x = wrap(x, nx);\n");
    else
        sb_append(s, "    if (z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx)\n        return 0;\n");
    sb_append(s, "    return a[(z * ny + y) * nx + x];\n}\n\n");
}

/* The neighbour at (dz, dy, dx) along one axis, for the explicit shapes. */
static void emit_nb(StrBuf *s, int border, int axis, int d)
{
    static const char *const COPY_STEP[] = {"plane", "nx", "1"};
    if (border == COPY) {
        int a = d < 0 ? -d : d;
        if (a == 1)
            sb_printf(s, "in[c %c %s]", d < 0 ? '-' : '+', COPY_STEP[axis]);
        else if (axis == 2)
            sb_printf(s, "in[c %c %d]", d < 0 ? '-' : '+', a);
        else
            sb_printf(s, "in[c %c %d * %s]", d < 0 ? '-' : '+', a, COPY_STEP[axis]);
        return;
    }
    char co[3][16];
    static const char *const V[] = {"z", "y", "x"};
    for (int k = 0; k < 3; k++) {
        if (k == axis)
            snprintf(co[k], 16, "%s %c %d", V[k], d < 0 ? '-' : '+', d < 0 ? -d : d);
        else
            snprintf(co[k], 16, "%s", V[k]);
    }
    sb_printf(s, "load(in, nz, ny, nx, %s, %s, %s)", co[0], co[1], co[2]);
}

/* Sum of the 2 neighbours at distance d along `axis`, in parentheses. */
static void emit_pair(StrBuf *s, int border, int axis, int d, const char *ind)
{
    sb_append(s, "(");
    emit_nb(s, border, axis, -d);
    sb_printf(s, border == COPY ? " + " : "\n%s + ", ind);
    emit_nb(s, border, axis, d);
    sb_append(s, ")");
}

/* The weight tables of the 27-point shapes, indented by 4; qual: "static
 * const" in C, "const" in a kernel. */
static void emit_weights(StrBuf *s, int shape, const double *w, int f32, const char *qual)
{
    const char *ty = tyname(f32);
    char b[48];
    if (shape == ISO27) {
        sb_printf(s, "    /* Weight by the neighbour's class: centre, face, edge, corner. */\n"
                     "    %s %s W[4] = {", qual, ty);
        for (int k = 0; k < 4; k++)
            sb_printf(s, "%s%s", k ? ", " : "", lit(b, w[k], f32));
        sb_append(s, "};\n");
    } else if (shape == ANISO27) {
        static const char *const AX[] = {"WZ", "WY", "WX"};
        sb_append(s, "    /* Per-axis 3-tap weights; the 27-point weight is their product. */\n");
        for (int a = 0; a < 3; a++) {
            sb_printf(s, "    %s %s %s[3] = {", qual, ty, AX[a]);
            for (int k = 0; k < 3; k++)
                sb_printf(s, "%s%s", k ? ", " : "", lit(b, w[3 * a + k], f32));
            sb_append(s, "};\n");
        }
    } else if (shape == GEN27) {
        sb_printf(s, "    %s %s W[3][3][3] = {\n", qual, ty);
        for (int i = 0; i < 3; i++) {
            sb_append(s, "        {");
            for (int j = 0; j < 3; j++) {
                sb_append(s, j ? ", {" : "{");
                for (int k = 0; k < 3; k++)
                    sb_printf(s, "%s%s", k ? ", " : "", lit(b, w[9 * i + 3 * j + k], f32));
                sb_append(s, "}");
            }
            sb_append(s, i < 2 ? "},\n" : "}};\n");
        }
    }
}

/* The update of point c = (z, y, x), indented by I: the copied border (left
 * by `skip`: "continue" in the C loop, "return" in a kernel), then the
 * weighted sum. */
static void emit_point(StrBuf *s, int shape, int border, const double *w, int f32, const char *I,
                       const char *skip)
{
    const char *ty = tyname(f32);
    char b[48], ind[40], ind2[48];
    int r = SHAPE_RADIUS[shape];
    snprintf(ind, sizeof ind, "%s       ", I);
    snprintf(ind2, sizeof ind2, "%s             ", I);
    if (border == COPY)
        sb_printf(s,
                  "%sif (z < %d || z >= nz - %d || y < %d || y >= ny - %d || x < %d || x >= nx - %d) {\n"
                  "%s    out[c] = in[c];\n%s    %s;\n%s}\n",
                  I, r, r, r, r, r, r, I, I, skip, I);
    if (shape <= STAR13) {
        sb_printf(s, "%sout[c] = %s * in[c]", I, lit(b, w[0], f32));
        if (shape == ANISO7) {
            for (int a = 0; a < 3; a++) {
                sb_printf(s, "\n%s+ %s * ", ind, lit(b, w[1 + a], f32));
                emit_pair(s, border, a, 1, ind2);
            }
        } else {
            for (int d = 1; d <= r; d++) {
                sb_printf(s, "\n%s+ %s * (", ind, lit(b, w[d], f32));
                for (int a = 0; a < 3; a++) {
                    if (a)
                        sb_printf(s, "\n%s + ", ind2);
                    emit_nb(s, border, a, -d);
                    sb_printf(s, border == COPY ? " + " : "\n%s + ", ind2);
                    emit_nb(s, border, a, d);
                }
                sb_append(s, ")");
            }
        }
        sb_append(s, ";\n");
    } else {
        sb_printf(s, "%s%s acc = 0;\n", I, ty);
        sb_printf(s, "%sfor (int dz = -1; dz <= 1; dz++)\n%s    for (int dy = -1; dy <= 1; dy++)\n"
                     "%s        for (int dx = -1; dx <= 1; dx++)\n%s            acc += ", I, I, I, I);
        if (shape == ISO27)
            sb_append(s, "W[abs(dz) + abs(dy) + abs(dx)]");
        else if (shape == ANISO27)
            sb_append(s, "WZ[dz + 1] * WY[dy + 1] * WX[dx + 1]");
        else
            sb_append(s, "W[dz + 1][dy + 1][dx + 1]");
        if (border == COPY)
            sb_printf(s, "\n%s                   * in[c + (dz * ny + dy) * nx + dx];\n", I);
        else
            sb_printf(s, "\n%s                   * load(in, nz, ny, nx, z + dz, y + dy, x + dx);\n", I);
        sb_printf(s, "%sout[c] = acc;\n", I);
    }
}

/* The sweep function for one shape; w holds the drawn weights. */
static void emit_sweep(StrBuf *s, int shape, int border, const double *w, int f32)
{
    const char *ty = tyname(f32);
    if (border != COPY)
        emit_load_helper(s, border, ty, 0);
    sb_printf(s, "static void sweep(const %s *in, %s *out, int nz, int ny, int nx)\n{\n", ty, ty);
    emit_weights(s, shape, w, f32, "static const");
    if (border == COPY && shape <= STAR13)
        sb_append(s, "    const int plane = ny * nx;\n");
    sb_append(s, "    for (int z = 0; z < nz; z++) {\n        for (int y = 0; y < ny; y++) {\n"
                 "            for (int x = 0; x < nx; x++) {\n"
                 "                int c = (z * ny + y) * nx + x;\n");
    emit_point(s, shape, border, w, f32, "                ", "continue");
    sb_append(s, "            }\n        }\n    }\n}\n\n");
}

/* ---- the pair ---- */

/* Time steps the heat programs' launch plans unroll (one launch each): the
 * largest `steps` of their configs.  Any further steps run in one block. */
#define HEAT_LAUNCHES 16

/* The 3D one-thread-per-point mapping of every kernel here: x along
 * threadIdx.x (contiguous), y along threadIdx.y, one z plane per blockIdx.z. */
#define GRID3 "(nx+31)/32,(ny+7)/8,nz"
#define BLOCK3 "32,8"

static const char *const POINT_INDEX =
    "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    const int z = blockIdx.z;\n"
    "    if (x >= nx || y >= ny)\n        return;\n"
    "    const int c = (z * ny + y) * nx + x;\n";

/* The sweep as a kernel, launched once per sweep (the second through tmp). */
static void cuda_stencil(GenProgram *p, int shape, int border, const double *w, int f32, int sweeps)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32);
    if (border != COPY)
        emit_load_helper(k, border, ty, 1);
    sb_append(k, "/* One sweep in -> out: one thread per point. */\n");
    sb_printf(k, "extern \"C\" __global__ void sweep(const %s *__restrict__ in, %s *__restrict__ out, int nz, int ny, "
                 "int nx)\n{\n", ty, ty);
    emit_weights(k, shape, w, f32, "const");
    if (border == COPY && shape <= STAR13)
        sb_append(k, "    const int plane = ny * nx;\n");
    sb_append(k, POINT_INDEX);
    emit_point(k, shape, border, w, f32, "    ", "return");
    sb_append(k, "}\n");
    if (sweeps == 1) {
        gen_launch(p, "sweep", GRID3, BLOCK3, NULL, "in,out,nz,ny,nx");
    } else {
        gen_launch(p, "sweep", GRID3, BLOCK3, NULL, "in,tmp,nz,ny,nx");
        gen_launch(p, "sweep", GRID3, BLOCK3, NULL, "tmp,out,nz,ny,nx");
    }
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", sweeps == 1 ? "one-element-per-thread" : "one-element-per-thread, one launch per sweep");
}

/* One diffusion step as a kernel: one thread per point, the same flux
 * loop as the program. */
static void cuda_varcoef(GenProgram *p, int border, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32), *f = f32 ? "f" : "";
    sb_append(k, "/* One thread per point. */\n");
    sb_printf(k, "extern \"C\" __global__ void diffuse(const %s *__restrict__ u, const %s *__restrict__ kappa,\n"
                 "                                   %s *__restrict__ u_new, int nz, int ny, int nx, %s dt)\n{\n",
              ty, ty, ty, ty);
    sb_append(k, POINT_INDEX);
    if (border == COPY)
        sb_printf(k, "    if (z == 0 || z == nz - 1 || y == 0 || y == ny - 1 || x == 0 || x == nx - 1) {\n"
                     "        u_new[c] = u[c];\n        return;\n    }\n"
                     "    const int step[6] = {-ny * nx, ny * nx, -nx, nx, -1, 1};\n"
                     "    %s flux = 0;\n"
                     "    for (int k = 0; k < 6; k++) {\n"
                     "        const int nb = c + step[k];\n"
                     "        flux += 0.5%s * (kappa[c] + kappa[nb]) * (u[nb] - u[c]);\n"
                     "    }\n", ty, f);
    else
        sb_printf(k, "    const int DZ[6] = {-1, 1, 0, 0, 0, 0};\n"
                     "    const int DY[6] = {0, 0, -1, 1, 0, 0};\n"
                     "    const int DX[6] = {0, 0, 0, 0, -1, 1};\n"
                     "    %s flux = 0;\n"
                     "    for (int k = 0; k < 6; k++) {\n"
                     "        const int zz = z + DZ[k], yy = y + DY[k], xx = x + DX[k];\n"
                     "        if (zz < 0 || zz >= nz || yy < 0 || yy >= ny || xx < 0 || xx >= nx) {\n"
                     "            flux -= kappa[c] * u[c];\n            continue;\n        }\n"
                     "        const int nb = (zz * ny + yy) * nx + xx;\n"
                     "        flux += 0.5%s * (kappa[c] + kappa[nb]) * (u[nb] - u[c]);\n"
                     "    }\n", ty, f);
    sb_append(k, "    u_new[c] = u[c] + dt * flux;\n}\n");
    gen_launch(p, "diffuse", GRID3, BLOCK3, NULL, "u,kappa,u_new,nz,ny,nx,dt");
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-element-per-thread");
}

/* The heat equation: time step t reads one of u, tmp and writes the other
 * (ping-pong), one launch per step for the first HEAT_LAUNCHES steps (a
 * launch past `steps` returns at once); heat_tail runs any further steps in
 * one block with a barrier between steps; heat_final copies the last state
 * into the buffer the last step did not write, since the program leaves it
 * in both. */
static void cuda_heat(GenProgram *p, int border, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32);
    emit_load_helper(k, border, ty, 1);
    sb_printf(k, "/* Point (z, y, x) of the state after one step from u. */\n"
                 "static __device__ %s heat_point(const %s *u, int nz, int ny, int nx, int z, int y, int x, %s alpha)\n"
                 "{\n"
                 "    const int c = (z * ny + y) * nx + x;\n"
                 "    const %s nb = load(u, nz, ny, nx, z - 1, y, x) + load(u, nz, ny, nx, z + 1, y, x)\n"
                 "                + load(u, nz, ny, nx, z, y - 1, x) + load(u, nz, ny, nx, z, y + 1, x)\n"
                 "                + load(u, nz, ny, nx, z, y, x - 1) + load(u, nz, ny, nx, z, y, x + 1);\n"
                 "    return u[c] + alpha * (nb - 6 * u[c]);\n}\n\n",
              ty, ty, ty, ty);
    sb_printf(k, "/* Time step t: src -> dst, one thread per point. */\n"
                 "extern \"C\" __global__ void heat_step(const %s *__restrict__ src, %s *__restrict__ dst, int nz, int ny,\n"
                 "                                     int nx, %s alpha, int t, int steps)\n{\n"
                 "    if (t >= steps)\n        return;\n%s"
                 "    dst[c] = heat_point(src, nz, ny, nx, z, y, x, alpha);\n}\n\n",
              ty, ty, ty, POINT_INDEX);
    sb_printf(k,
              "/* Steps first..steps-1 in one block: even steps go u -> tmp, odd ones tmp -> u. */\n"
              "extern \"C\" __global__ void heat_tail(%s *u, %s *tmp, int nz, int ny, int nx, %s alpha, int first,\n"
              "                                     int steps)\n{\n"
              "    const int count = nz * ny * nx;\n"
              "    for (int t = first; t < steps; t++) {\n"
              "        const %s *src = t %% 2 == 0 ? u : tmp;\n"
              "        %s *dst = t %% 2 == 0 ? tmp : u;\n"
              "        for (int c = threadIdx.x; c < count; c += blockDim.x)\n"
              "            dst[c] = heat_point(src, nz, ny, nx, c / (ny * nx), c / nx %% ny, c %% nx, alpha);\n"
              "        __syncthreads();\n"
              "    }\n}\n\n",
              ty, ty, ty, ty, ty);
    sb_printf(k,
              "/* Both buffers end with the final state: copy it from the one the last step wrote. */\n"
              "extern \"C\" __global__ void heat_final(%s *u, %s *tmp, int count, int steps)\n{\n"
              "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (steps <= 0 || c >= count)\n        return;\n"
              "    if (steps %% 2 == 1)\n        u[c] = tmp[c];\n    else\n        tmp[c] = u[c];\n}\n",
              ty, ty);
    for (int t = 0; t < HEAT_LAUNCHES; t++) {
        char args[64];
        snprintf(args, sizeof args, "%s,nz,ny,nx,alpha,%d,steps", t % 2 == 0 ? "u,tmp" : "tmp,u", t);
        gen_launch(p, "heat_step", GRID3, BLOCK3, NULL, args);
    }
    char tail[64], steps[16];
    snprintf(tail, sizeof tail, "u,tmp,nz,ny,nx,alpha,%d,steps", HEAT_LAUNCHES);
    gen_launch(p, "heat_tail", "1", "1024", NULL, tail);
    gen_launch(p, "heat_final", "(nz*ny*nx+255)/256", "256", NULL, "u,tmp,nz*ny*nx,steps");
    snprintf(steps, sizeof steps, "%d", HEAT_LAUNCHES);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-element-per-thread, one launch per time step (ping-pong), one-block tail");
    gen_knob(p, "unrolled_steps", steps);
}

static void grid_configs(GenProgram *p, int f32)
{
    gen_config(p, "small", "nz=24,ny=32,nx=40");
    gen_config(p, "edge", "nz=1,ny=1,nx=1");
    gen_config(p, "edge-prime", "nz=5,ny=7,nx=11");
    gen_config(p, "edge-thin", "nz=3,ny=1,nx=37");
    gen_config(p, "large", f32 ? "nz=512,ny=512,nx=512" : "nz=384,ny=512,nx=512");
}

static int gen_stencil(GenCtx *g, int shape, int border, int f32, int sweeps)
{
    char variant[64], flops[48], bytes[48];
    snprintf(variant, sizeof variant, "%s-%s-%s%s", SHAPE[shape], BORDER[border], dtname(f32),
             sweeps == 2 ? "-x2" : "");
    GenProgram *p = gen_begin(g, variant, "stencil3d");
    gen_describe(p, "%s 3D stencil, %s, %d sweep(s)", SHAPE_TEXT[shape], BORDER_TEXT[border], sweeps);
    const char *dt = dtname(f32), *ty = tyname(f32);
    gen_arg(p, "in", dt, "in", "nz,ny,nx");
    gen_arg(p, "out", dt, "out", "nz,ny,nx");
    if (sweeps == 2)
        gen_arg(p, "tmp", dt, "out", "nz,ny,nx");
    gen_arg(p, "nz", "i32", "param", NULL);
    gen_arg(p, "ny", "i32", "param", NULL);
    gen_arg(p, "nx", "i32", "param", NULL);
    grid_configs(p, f32);
    snprintf(flops, sizeof flops, "%d*nz*ny*nx", 2 * SHAPE_POINTS[shape] * sweeps);
    snprintf(bytes, sizeof bytes, "%d*nz*ny*nx", (f32 ? 4 : 8) * (sweeps == 2 ? 3 : 2));
    gen_cost(p, flops, bytes);
    /* Positive weights summing to about 1 (a smoothing stencil). */
    double w[27], sum = 0;
    int nw = shape == ISO7 ? 2 : shape == ANISO7 ? 4 : shape == STAR13 ? 3 : shape == ISO27 ? 4
           : shape == ANISO27 ? 9 : 27;
    static const int MULT[6][4] = {{1, 6}, {1, 2, 2, 2}, {1, 6, 6}, {1, 6, 12, 8}, {0}, {0}};
    for (int k = 0; k < nw; k++)
        w[k] = gen_uniform(g, 0.1, 1.0);
    if (shape == ANISO27) {
        for (int a = 0; a < 3; a++) {
            double sa = w[3 * a] + w[3 * a + 1] + w[3 * a + 2];
            for (int k = 0; k < 3; k++)
                w[3 * a + k] /= sa;
        }
    } else {
        for (int k = 0; k < nw; k++)
            sum += w[k] * (shape == GEN27 ? 1 : MULT[shape][k]);
        for (int k = 0; k < nw; k++)
            w[k] /= sum;
    }
    if (shape == ISO27 || shape == GEN27)
        gen_tolerance(p, f32 ? 2e-5 : 1e-9, f32 ? 1e-4 : 1e-7);
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* %s 3D stencil on an nz x ny x nx grid, x fastest; %s%s. */\n",
              SHAPE_TEXT[shape], BORDER_TEXT[border],
              sweeps == 2 ? "; applied twice" : "");
    if (shape == ISO27)
        sb_append(s, "#include <stdlib.h>\n");
    sb_append(s, "\n");
    emit_sweep(s, shape, border, w, f32);
    if (sweeps == 1)
        sb_printf(s, "void stencil3d(const %s *in, %s *out, int nz, int ny, int nx)\n{\n"
                     "    sweep(in, out, nz, ny, nx);\n}\n", ty, ty);
    else
        sb_printf(s, "/* Two sweeps: in -> tmp -> out. */\n"
                     "void stencil3d(const %s *in, %s *out, %s *tmp, int nz, int ny, int nx)\n{\n"
                     "    sweep(in, tmp, nz, ny, nx);\n    sweep(tmp, out, nz, ny, nx);\n}\n",
                  ty, ty, ty);
    cuda_stencil(p, shape, border, w, f32, sweeps);
    return gen_end(p);
}

/* Variable-coefficient diffusion step: flux between neighbours uses the mean
 * of their conductivities. */
static int gen_varcoef(GenCtx *g, int border, int f32)
{
    char variant[64];
    const char *dt = dtname(f32), *ty = tyname(f32);
    snprintf(variant, sizeof variant, "diffusion-varcoef-%s-%s", border == COPY ? "dirichlet" : "zero", dt);
    GenProgram *p = gen_begin(g, variant, "diffuse");
    gen_describe(p, "one explicit step of variable-conductivity diffusion, %s",
                 border == COPY ? "boundary held fixed" : "zero value outside the grid");
    gen_arg(p, "u", dt, "in", "nz,ny,nx");
    gen_arg(p, "kappa", dt, "in", "nz,ny,nx");
    gen_arg(p, "u_new", dt, "out", "nz,ny,nx");
    gen_arg(p, "nz", "i32", "param", NULL);
    gen_arg(p, "ny", "i32", "param", NULL);
    gen_arg(p, "nx", "i32", "param", NULL);
    gen_scalar(p, "dt", dt, 0.05);
    gen_fill_uniform(p, "kappa", 0.5, 1.5);
    grid_configs(p, f32);
    gen_cost(p, "25*nz*ny*nx", f32 ? "12*nz*ny*nx" : "24*nz*ny*nx");
    StrBuf *s = gen_src(p);
    sb_append(s, "/* One explicit step of div(kappa grad u) on an nz x ny x nx grid (x fastest):\n"
                 " *     u_new = u + dt * sum_nb k_nb (u[nb] - u),  k_nb = (kappa + kappa[nb]) / 2\n"
                 " * over the 6 face neighbours, ");
    if (border == COPY) {
        sb_append(s, "with boundary points held fixed. */\n");
        sb_printf(s, "void diffuse(const %s *u, const %s *kappa, %s *u_new, int nz, int ny, int nx, %s dt)\n{\n",
                  ty, ty, ty, ty);
        sb_printf(s, "    const int step[6] = {-ny * nx, ny * nx, -nx, nx, -1, 1};\n"
                     "    for (int z = 0; z < nz; z++) {\n        for (int y = 0; y < ny; y++) {\n"
                     "            for (int x = 0; x < nx; x++) {\n"
                     "                int c = (z * ny + y) * nx + x;\n"
                     "                if (z == 0 || z == nz - 1 || y == 0 || y == ny - 1 || x == 0 || x == nx - 1) {\n"
                     "                    u_new[c] = u[c];\n                    continue;\n                }\n"
                     "                %s flux = 0;\n"
                     "                for (int k = 0; k < 6; k++) {\n"
                     "                    int nb = c + step[k];\n"
                     "                    flux += 0.5%s * (kappa[c] + kappa[nb]) * (u[nb] - u[c]);\n"
                     "                }\n                u_new[c] = u[c] + dt * flux;\n", ty, f32 ? "f" : "");
    } else {
        sb_append(s, "with u = 0 outside the grid (the\n * conductivity of an outside neighbour is the point's own). */\n");
        sb_printf(s, "void diffuse(const %s *u, const %s *kappa, %s *u_new, int nz, int ny, int nx, %s dt)\n{\n",
                  ty, ty, ty, ty);
        sb_printf(s, "    static const int DZ[6] = {-1, 1, 0, 0, 0, 0};\n"
                     "    static const int DY[6] = {0, 0, -1, 1, 0, 0};\n"
                     "    static const int DX[6] = {0, 0, 0, 0, -1, 1};\n"
                     "    for (int z = 0; z < nz; z++) {\n        for (int y = 0; y < ny; y++) {\n"
                     "            for (int x = 0; x < nx; x++) {\n"
                     "                int c = (z * ny + y) * nx + x;\n"
                     "                %s flux = 0;\n"
                     "                for (int k = 0; k < 6; k++) {\n"
                     "                    int zz = z + DZ[k], yy = y + DY[k], xx = x + DX[k];\n"
                     "                    if (zz < 0 || zz >= nz || yy < 0 || yy >= ny || xx < 0 || xx >= nx) {\n"
                     "                        flux -= kappa[c] * u[c];\n                        continue;\n"
                     "                    }\n"
                     "                    int nb = (zz * ny + yy) * nx + xx;\n"
                     "                    flux += 0.5%s * (kappa[c] + kappa[nb]) * (u[nb] - u[c]);\n"
                     "                }\n                u_new[c] = u[c] + dt * flux;\n", ty, f32 ? "f" : "");
    }
    sb_append(s, "            }\n        }\n    }\n}\n");
    cuda_varcoef(p, border, f32);
    return gen_end(p);
}

/* Explicit 3D heat equation with the 7-point Laplacian for `steps` steps. */
static int gen_heat(GenCtx *g, int border, int f32)
{
    char variant[64];
    const char *dt = dtname(f32), *ty = tyname(f32);
    snprintf(variant, sizeof variant, "heat-%s-%s", border == PERIODIC ? "periodic" : "neumann", dt);
    GenProgram *p = gen_begin(g, variant, "heat3d");
    gen_describe(p, "explicit 3D heat equation, 7-point Laplacian, %s, `steps` time steps",
                 BORDER_TEXT[border]);
    gen_arg(p, "u", dt, "inout", "nz,ny,nx");
    gen_arg(p, "tmp", dt, "out", "nz,ny,nx");
    gen_arg(p, "nz", "i32", "param", NULL);
    gen_arg(p, "ny", "i32", "param", NULL);
    gen_arg(p, "nx", "i32", "param", NULL);
    gen_arg(p, "steps", "i32", "param", NULL);
    gen_scalar(p, "alpha", dt, 0.1);
    gen_config(p, "small", "nz=16,ny=24,nx=32,steps=8");
    gen_config(p, "edge", "nz=1,ny=1,nx=1,steps=2");
    gen_config(p, "edge-prime", "nz=5,ny=7,nx=11,steps=3");
    gen_config(p, "large", "nz=384,ny=384,nx=384,steps=16");
    gen_cost(p, "9*nz*ny*nx*steps", f32 ? "12*nz*ny*nx" : "24*nz*ny*nx");
    if (f32)
        gen_tolerance(p, 1e-4, 1e-3);
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* Explicit heat equation u_t = lap(u) on an nz x ny x nx grid (x fastest):\n"
                 " * `steps` forward-Euler steps u += alpha * (sum of the 6 neighbours - 6 u),\n"
                 " * %s.  tmp holds each new state (and the final one). */\n"
                 "#include <string.h>\n\n", BORDER_TEXT[border]);
    emit_load_helper(s, border, ty, 0);
    sb_printf(s, "void heat3d(%s *u, %s *tmp, int nz, int ny, int nx, int steps, %s alpha)\n{\n", ty, ty, ty);
    sb_append(s, "    for (int t = 0; t < steps; t++) {\n"
                 "        for (int z = 0; z < nz; z++) {\n            for (int y = 0; y < ny; y++) {\n"
                 "                for (int x = 0; x < nx; x++) {\n"
                 "                    int c = (z * ny + y) * nx + x;\n"
                 "                    ");
    sb_printf(s, "%s nb = load(u, nz, ny, nx, z - 1, y, x) + load(u, nz, ny, nx, z + 1, y, x)\n"
                 "                            + load(u, nz, ny, nx, z, y - 1, x) + load(u, nz, ny, nx, z, y + 1, x)\n"
                 "                            + load(u, nz, ny, nx, z, y, x - 1) + load(u, nz, ny, nx, z, y, x + 1);\n"
                 "                    tmp[c] = u[c] + alpha * (nb - 6 * u[c]);\n", f32 ? "float" : "double");
    sb_append(s, "                }\n            }\n        }\n"
                 "        memcpy(u, tmp, (size_t)nz * ny * nx * sizeof *u);\n    }\n}\n");
    cuda_heat(p, border, f32);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    /* 6 shapes x 4 borders x 2 dtypes = 48; a third run two sweeps. */
    for (int sh = 0; sh < N_SHAPES; sh++)
        for (int b = 0; b < 4; b++)
            for (int f32 = 1; f32 >= 0; f32--)
                if (gen_stencil(g, sh, b, f32, (sh + b + f32) % 3 == 0 ? 2 : 1) != 0)
                    return -1;
    for (int f32 = 1; f32 >= 0; f32--)
        if (gen_varcoef(g, COPY, f32) != 0 || gen_varcoef(g, ZERO, f32) != 0)
            return -1;
    if (gen_heat(g, PERIODIC, 1) != 0 || gen_heat(g, CLAMP, 0) != 0)
        return -1;
    return 0;
}

const Family family_stencil3d = {"stencil3d", "stencil", 54, generate};
