/* stencil1d — 1D stencils on n points.  Programs vary by
 *   - kind: weighted smoothing of radius 1..4 (symmetric or skewed weights),
 *     the same applied twice through a temporary, the explicit heat
 *     equation (second- and fourth-order Laplacian) run for `steps` time
 *     steps, central-difference first and second derivatives of order
 *     2..8, a variable-coefficient tridiagonal stencil, a Poisson residual
 *     and a weighted-Jacobi sweep;
 *   - boundary: border copied (Dirichlet), clamped (Neumann), zero-padded or
 *     periodic;
 *   - dtype: f32 or f64. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

enum { COPY, CLAMP, ZERO, PERIODIC };
static const char *const BORDER[] = {"copy", "clamp", "zero", "periodic"};
static const char *const BORDER_TEXT[] = {"border points copied", "clamped border",
                                          "zero outside the domain", "periodic domain"};

/* A real literal of the program's type: "0.25f", "2.0", "0.6666667f". */
static const char *lit(char *buf, double v, int f32)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, f32 ? "%.7g" : "%.15g", v);
    if (!strpbrk(tmp, ".e"))
        strcat(tmp, ".0");
    snprintf(buf, 48, "%s%s", tmp, f32 ? "f" : "");
    return buf;
}

/* "i", "i + 1", "i - 2". */
static const char *off(char *buf, int d)
{
    if (d == 0)
        snprintf(buf, 16, "i");
    else
        snprintf(buf, 16, "i %c %d", d < 0 ? '-' : '+', d < 0 ? -d : d);
    return buf;
}

/* The element of `arr` at i + d under the border rule. */
static void emit_load(StrBuf *s, int border, const char *arr, int d)
{
    char o[16];
    off(o, d);
    if (d == 0 || border == COPY)
        sb_printf(s, "%s[%s]", arr, o);
    else if (border == CLAMP)
        sb_printf(s, "%s[clampi(%s, n)]", arr, o);
    else if (border == ZERO)
        sb_printf(s, "at(%s, n, %s)", arr, o);
    else
        sb_printf(s, "%s[wrap(%s, n)]", arr, o);
}

/* The border rule's index helpers; cuda: as __device__ functions for kernel.cu. */
static void emit_border_helpers(StrBuf *s, int border, const char *ty, int cuda)
{
    const char *q = cuda ? "static __device__ " : "static ";
    if (border == CLAMP)
        sb_printf(s, "%sint clampi(int i, int n)\n{\n"
                     "    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n", q);
    else if (border == ZERO)
        sb_printf(s,
                  "%s%s at(const %s *a, int n, int i)\n{\n"
                  "    return i < 0 || i >= n ? 0 : a[i];\n}\n\n",
                  q, ty, ty);
    else if (border == PERIODIC)
        sb_printf(s, "/* i modulo n, in [0, n). */\n%sint wrap(int i, int n)\n{\n"
                     "    i %%= n;\n    return i < 0 ? i + n : i;\n}\n\n", q);
}

/* sum_k w[k] * arr[i + k - r], one term per line; unit weights are left bare. */
static void emit_terms(StrBuf *s, int border, const char *arr, const double *w, int r, int f32,
                       const char *indent)
{
    int first = 1;
    for (int k = 0; k <= 2 * r; k++) {
        double c = w[k];
        if (c == 0)
            continue;
        char b[48];
        if (first)
            sb_append(s, c < 0 ? "-" : "");
        else
            sb_printf(s, "\n%s%c ", indent, c < 0 ? '-' : '+');
        double a = c < 0 ? -c : c;
        if (a != 1.0)
            sb_printf(s, "%s * ", lit(b, a, f32));
        emit_load(s, border, arr, k - r);
        first = 0;
    }
}

static void set_sizes(GenProgram *p, int f32)
{
    gen_config(p, "small", "n=65536");
    gen_config(p, "edge", "n=1");
    gen_config(p, "edge-prime", "n=37");
    gen_config(p, "large", f32 ? "n=134217728" : "n=67108864");
}

static const char *tyname(int f32) { return f32 ? "float" : "double"; }
static const char *dtname(int f32) { return f32 ? "f32" : "f64"; }

/* One sweep function `sweep(in, out, n)` applying weights w of radius r. */
static void emit_sweep(StrBuf *s, int border, const double *w, int r, int f32)
{
    const char *ty = tyname(f32);
    emit_border_helpers(s, border, ty, 0);
    sb_printf(s, "static void sweep(const %s *in, %s *out, int n)\n{\n", ty, ty);
    sb_append(s, "    for (int i = 0; i < n; i++) {\n");
    if (border == COPY)
        sb_printf(s,
                  "        if (i < %d || i >= n - %d) {\n            out[i] = in[i];\n"
                  "            continue;\n        }\n",
                  r, r);
    sb_append(s, "        out[i] = ");
    emit_terms(s, border, "in", w, r, f32, "               ");
    sb_append(s, ";\n    }\n}\n\n");
}

static void draw_weights(GenCtx *g, double *w, int r, int symmetric)
{
    double sum = 0;
    for (int k = 0; k <= 2 * r; k++) {
        w[k] = symmetric && k > r ? w[2 * r - k] : gen_uniform(g, 0.05, 1.0);
        sum += w[k];
    }
    for (int k = 0; k <= 2 * r; k++)
        w[k] = (double)(int)(w[k] / sum * 1e6 + 0.5) / 1e6;
}

/* ---- the pair ---- */

/* Time steps the heat programs' launch plans unroll (one launch each): the
 * largest `steps` of their configs.  Any further steps run in one block. */
#define HEAT_LAUNCHES 32

/* Opens kernel `name` with one thread per point: i, and the return of the
 * threads past n (the parameters must include n). */
static void cuda_open(StrBuf *k, const char *name, const char *params)
{
    sb_printf(k,
              "extern \"C\" __global__ void %s(%s)\n{\n"
              "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= n)\n        return;\n",
              name, params);
}

/* The weighted sweep as a kernel, one thread per point, launched once per
 * sweep (the second through tmp). */
static void cuda_weighted(GenProgram *p, int border, const double *w, int r, int f32, int sweeps)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32);
    char params[96];
    emit_border_helpers(k, border, ty, 1);
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n", ty, ty);
    sb_append(k, "/* One sweep in -> out: one thread per point. */\n");
    cuda_open(k, "sweep", params);
    if (border == COPY)
        sb_printf(k, "    if (i < %d || i >= n - %d) {\n        out[i] = in[i];\n        return;\n    }\n", r, r);
    sb_append(k, "    out[i] = ");
    emit_terms(k, border, "in", w, r, f32, "           ");
    sb_append(k, ";\n}\n");
    if (sweeps == 1) {
        gen_launch(p, "sweep", "(n+255)/256", "256", NULL, "in,out,n");
    } else {
        gen_launch(p, "sweep", "(n+255)/256", "256", NULL, "in,tmp,n");
        gen_launch(p, "sweep", "(n+255)/256", "256", NULL, "tmp,out,n");
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", sweeps == 1 ? "one-element-per-thread" : "one-element-per-thread, one launch per sweep");
}

/* The heat equation: time step t reads one of u, tmp and writes the other
 * (ping-pong), one launch per step for the first HEAT_LAUNCHES steps (a
 * launch past `steps` returns at once); heat_tail runs any further steps in
 * one block with a barrier between steps; heat_final copies the last state
 * into the buffer the last step did not write, since the program leaves it
 * in both. */
static void cuda_heat(GenProgram *p, int order, int border, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32);
    int r = order == 2 ? 1 : 2;
    char b[48];
    emit_border_helpers(k, border, ty, 1);
    sb_printf(k, "/* Point i of the state after one step from u. */\n"
                 "static __device__ %s heat_point(const %s *u, int n, %s alpha, int i)\n{\n", ty, ty, ty);
    if (border == COPY)
        sb_printf(k, "    if (i < %d || i >= n - %d)\n        return u[i];\n", r, r);
    if (order == 2) {
        double w[3] = {1, -2, 1};
        sb_append(k, "    return u[i] + alpha * (");
        emit_terms(k, border, "u", w, 1, f32, "                           ");
        sb_append(k, ");\n}\n\n");
    } else {
        double w[5] = {-1, 16, -30, 16, -1};
        sb_printf(k, "    %s lap = ", ty);
        emit_terms(k, border, "u", w, 2, f32, f32 ? "                " : "                 ");
        sb_printf(k, ";\n    return u[i] + alpha * lap / %s;\n}\n\n", lit(b, 12, f32));
    }
    char params[128];
    snprintf(params, sizeof params,
             "const %s *__restrict__ src, %s *__restrict__ dst, int n, %s alpha, int t, int steps", ty, ty, ty);
    sb_append(k, "/* Time step t: src -> dst, one thread per point. */\n");
    sb_printf(k,
              "extern \"C\" __global__ void heat_step(%s)\n{\n"
              "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (t >= steps || i >= n)\n        return;\n"
              "    dst[i] = heat_point(src, n, alpha, i);\n}\n\n",
              params);
    sb_printf(k,
              "/* Steps first..steps-1 in one block: even steps go u -> tmp, odd ones tmp -> u. */\n"
              "extern \"C\" __global__ void heat_tail(%s *u, %s *tmp, int n, %s alpha, int first, int steps)\n{\n"
              "    for (int t = first; t < steps; t++) {\n"
              "        const %s *src = t %% 2 == 0 ? u : tmp;\n"
              "        %s *dst = t %% 2 == 0 ? tmp : u;\n"
              "        for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
              "            dst[i] = heat_point(src, n, alpha, i);\n"
              "        __syncthreads();\n"
              "    }\n}\n\n",
              ty, ty, ty, ty, ty);
    sb_printf(k,
              "/* Both buffers end with the final state: copy it from the one the last step wrote. */\n"
              "extern \"C\" __global__ void heat_final(%s *u, %s *tmp, int n, int steps)\n{\n"
              "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (steps <= 0 || i >= n)\n        return;\n"
              "    if (steps %% 2 == 1)\n        u[i] = tmp[i];\n    else\n        tmp[i] = u[i];\n}\n",
              ty, ty);
    for (int t = 0; t < HEAT_LAUNCHES; t++) {
        char args[64];
        snprintf(args, sizeof args, "%s,n,alpha,%d,steps", t % 2 == 0 ? "u,tmp" : "tmp,u", t);
        gen_launch(p, "heat_step", "(n+255)/256", "256", NULL, args);
    }
    char tail[64];
    snprintf(tail, sizeof tail, "u,tmp,n,alpha,%d,steps", HEAT_LAUNCHES);
    gen_launch(p, "heat_tail", "1", "1024", NULL, tail);
    gen_launch(p, "heat_final", "(n+255)/256", "256", NULL, "u,tmp,n,steps");
    char steps[16];
    snprintf(steps, sizeof steps, "%d", HEAT_LAUNCHES);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread, one launch per time step (ping-pong), one-block tail");
    gen_knob(p, "unrolled_steps", steps);
}

/* A: one weighted sweep; B: two sweeps through tmp. */
static int gen_weighted(GenCtx *g, int r, int border, int f32, int sweeps)
{
    char variant[64], flops[32], bytes[32];
    int symmetric = (r + border) % 2 == 0;
    snprintf(variant, sizeof variant, "r%d-%s-%s%s%s", r, BORDER[border], dtname(f32),
             symmetric ? "" : "-skew", sweeps == 2 ? "-x2" : "");
    GenProgram *p = gen_begin(g, variant, "stencil");
    gen_describe(p, "%s 1D stencil of radius %d, %s, %d sweep(s)", symmetric ? "symmetric" : "skewed", r,
                 BORDER_TEXT[border], sweeps);
    gen_arg(p, "in", dtname(f32), "in", "n");
    gen_arg(p, "out", dtname(f32), "out", "n");
    if (sweeps == 2)
        gen_arg(p, "tmp", dtname(f32), "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    set_sizes(p, f32);
    snprintf(flops, sizeof flops, "%d*n", 2 * (2 * r + 1) * sweeps);
    snprintf(bytes, sizeof bytes, "%d*n", (f32 ? 4 : 8) * (sweeps == 2 ? 3 : 2));
    gen_cost(p, flops, bytes);
    double w[9];
    draw_weights(g, w, r, symmetric);
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* out[i] = sum_{k=-%d..%d} w[k] * in[i + k] on n points, %s%s. */\n", r, r,
              BORDER_TEXT[border], sweeps == 2 ? ", applied twice" : "");
    sb_append(s, "\n");
    emit_sweep(s, border, w, r, f32);
    const char *ty = tyname(f32);
    if (sweeps == 1)
        sb_printf(s, "void stencil(const %s *in, %s *out, int n)\n{\n    sweep(in, out, n);\n}\n", ty, ty);
    else
        sb_printf(s,
                  "/* Two sweeps: in -> tmp -> out. */\n"
                  "void stencil(const %s *in, %s *out, %s *tmp, int n)\n{\n"
                  "    sweep(in, tmp, n);\n    sweep(tmp, out, n);\n}\n",
                  ty, ty, ty);
    cuda_weighted(p, border, w, r, f32, sweeps);
    return gen_end(p);
}

/* C, D: explicit heat equation, second- (radius 1) or fourth-order (radius 2). */
static int gen_heat(GenCtx *g, int order, int border, int f32)
{
    static const char *const BC[] = {"dirichlet", "neumann", "zero", "periodic"};
    char variant[64], flops[32], bytes[32];
    int r = order == 2 ? 1 : 2;
    snprintf(variant, sizeof variant, "heat%s-%s-%s", order == 2 ? "" : "4", BC[border], dtname(f32));
    GenProgram *p = gen_begin(g, variant, "heat");
    gen_describe(p, "explicit 1D heat equation, order-%d Laplacian, %s, `steps` time steps", order,
                 BORDER_TEXT[border]);
    gen_arg(p, "u", dtname(f32), "inout", "n");
    gen_arg(p, "tmp", dtname(f32), "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "steps", "i32", "param", NULL);
    gen_scalar(p, "alpha", dtname(f32), order == 2 ? 0.25 : 0.2);
    gen_config(p, "small", "n=4096,steps=32");
    gen_config(p, "edge", "n=1,steps=3");
    gen_config(p, "edge-prime", "n=61,steps=7");
    gen_config(p, "large", "n=33554432,steps=32");
    snprintf(flops, sizeof flops, "%d*n*steps", order == 2 ? 5 : 9);
    snprintf(bytes, sizeof bytes, "%d*n", (f32 ? 4 : 8) * 3);
    gen_cost(p, flops, bytes);
    if (f32)
        gen_tolerance(p, 1e-4, 1e-3);
    const char *ty = tyname(f32);
    char b[48];
    StrBuf *s = gen_src(p);
    if (order == 2)
        sb_printf(s,
                  "/* Explicit heat equation u_t = u_xx on n points: `steps` forward-Euler steps\n"
                  " *     u[i] += alpha * (u[i-1] - 2 u[i] + u[i+1]),\n"
                  " * %s.  tmp holds each new state (and the final one). */\n",
                  BORDER_TEXT[border]);
    else
        sb_printf(s,
                  "/* Explicit heat equation u_t = u_xx on n points with the fourth-order Laplacian\n"
                  " *     (-u[i-2] + 16 u[i-1] - 30 u[i] + 16 u[i+1] - u[i+2]) / 12,\n"
                  " * `steps` forward-Euler steps of size alpha, %s.  tmp holds each new\n"
                  " * state (and the final one). */\n",
                  BORDER_TEXT[border]);
    sb_append(s, "#include <string.h>\n\n");
    emit_border_helpers(s, border, ty, 0);
    sb_printf(s, "void heat(%s *u, %s *tmp, int n, int steps, %s alpha)\n{\n", ty, ty, ty);
    sb_append(s, "    for (int t = 0; t < steps; t++) {\n        for (int i = 0; i < n; i++) {\n");
    if (border == COPY)
        sb_printf(s,
                  "            if (i < %d || i >= n - %d) {\n                tmp[i] = u[i];\n"
                  "                continue;\n            }\n",
                  r, r);
    if (order == 2) {
        double w[3] = {1, -2, 1};
        sb_append(s, "            tmp[i] = u[i] + alpha * (");
        emit_terms(s, border, "u", w, 1, f32, "                                     ");
        sb_append(s, ");\n");
    } else {
        double w[5] = {-1, 16, -30, 16, -1};
        sb_printf(s, "            %s lap = ", ty);
        emit_terms(s, border, "u", w, 2, f32, "                       ");
        sb_printf(s, ";\n            tmp[i] = u[i] + alpha * lap / %s;\n", lit(b, 12, f32));
    }
    sb_append(s, "        }\n        memcpy(u, tmp, (size_t)n * sizeof *u);\n    }\n}\n");
    cuda_heat(p, order, border, f32);
    return gen_end(p);
}

/* Coefficients c_1..c_r of the standard central-difference formulas. */
static const double D1[4][4] = {{1.0 / 2},
                                {2.0 / 3, -1.0 / 12},
                                {3.0 / 4, -3.0 / 20, 1.0 / 60},
                                {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280}};
static const double D2[4][5] = {{-2.0, 1.0},
                                {-5.0 / 2, 4.0 / 3, -1.0 / 12},
                                {-49.0 / 18, 3.0 / 2, -3.0 / 20, 1.0 / 90},
                                {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560}};

/* The central-difference sum d at point i (before the 1/h or 1/h^2 factor),
 * one term per line, continuation lines indented by ind. */
static void emit_deriv_sum(StrBuf *s, int deriv, int r, int border, int f32, const char *ind)
{
    char b[48];
    if (deriv == 2)
        sb_printf(s, "%s%s * u[i]", D2[r - 1][0] < 0 ? "-" : "", lit(b, D2[r - 1][0] < 0 ? -D2[r - 1][0] : D2[r - 1][0], f32));
    for (int k = 1; k <= r; k++) {
        double c = deriv == 1 ? D1[r - 1][k - 1] : D2[r - 1][k];
        double a = c < 0 ? -c : c;
        if (k > 1 || deriv == 2)
            sb_printf(s, "\n%s%c ", ind, c < 0 ? '-' : '+');
        else if (c < 0)
            sb_append(s, "-");
        if (a != 1.0)
            sb_printf(s, "%s * ", lit(b, a, f32));
        sb_append(s, "(");
        emit_load(s, border, "u", k);
        sb_append(s, deriv == 1 ? " - " : " + ");
        emit_load(s, border, "u", -k);
        sb_append(s, ")");
    }
}

/* The derivative as a kernel: one thread per point. */
static void cuda_deriv(GenProgram *p, int deriv, int r, int border, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32), *name = deriv == 1 ? "ddx" : "d2dx2", *h = deriv == 1 ? "inv_h" : "inv_h2";
    char params[96];
    emit_border_helpers(k, border, ty, 1);
    snprintf(params, sizeof params, "const %s *__restrict__ u, %s *__restrict__ du, int n, %s %s", ty, ty, ty, h);
    sb_append(k, "/* One thread per point. */\n");
    cuda_open(k, name, params);
    if (border == COPY)
        sb_printf(k, "    if (i < %d || i >= n - %d) {\n        du[i] = 0;\n        return;\n    }\n", r, r);
    sb_printf(k, "    %s d = ", ty);
    emit_deriv_sum(k, deriv, r, border, f32, f32 ? "            " : "             ");
    sb_printf(k, ";\n    du[i] = %s * d;\n}\n", h);
    char args[32];
    snprintf(args, sizeof args, "u,du,n,%s", h);
    gen_launch(p, name, "(n+255)/256", "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

/* E: central differences of the first (deriv 1) or second (deriv 2) derivative. */
static int gen_deriv(GenCtx *g, int deriv, int order, int border, int f32)
{
    int r = order / 2;
    const char *btext = border == COPY ? "zero at the border points" : BORDER_TEXT[border];
    char variant[64], flops[32], bytes[32];
    snprintf(variant, sizeof variant, "%s-o%d-%s-%s", deriv == 1 ? "ddx" : "d2dx2", order, BORDER[border],
             dtname(f32));
    GenProgram *p = gen_begin(g, variant, deriv == 1 ? "ddx" : "d2dx2");
    gen_describe(p, "order-%d central difference of the %s derivative, %s", order,
                 deriv == 1 ? "first" : "second", btext);
    gen_arg(p, "u", dtname(f32), "in", "n");
    gen_arg(p, "du", dtname(f32), "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, deriv == 1 ? "inv_h" : "inv_h2", dtname(f32), deriv == 1 ? 64.0 : 256.0);
    set_sizes(p, f32);
    snprintf(flops, sizeof flops, "%d*n", 3 * r + 2);
    snprintf(bytes, sizeof bytes, "%d*n", (f32 ? 4 : 8) * 2);
    gen_cost(p, flops, bytes);
    if (f32)
        gen_tolerance(p, deriv == 1 ? 1e-4 : 1e-3, 1e-4);
    const char *ty = tyname(f32);
    StrBuf *s = gen_src(p);
    if (deriv == 1)
        sb_printf(s,
                  "/* du/dx by the order-%d central difference:\n"
                  " *     du[i] = inv_h * sum_{k=1..%d} c_k (u[i+k] - u[i-k]),\n"
                  " * %s. */\n",
                  order, r, btext);
    else
        sb_printf(s,
                  "/* d2u/dx2 by the order-%d central difference:\n"
                  " *     du[i] = inv_h2 * (c_0 u[i] + sum_{k=1..%d} c_k (u[i+k] + u[i-k])),\n"
                  " * %s. */\n",
                  order, r, btext);
    sb_append(s, "\n");
    emit_border_helpers(s, border, ty, 0);
    sb_printf(s, "void %s(const %s *u, %s *du, int n, %s %s)\n{\n", deriv == 1 ? "ddx" : "d2dx2", ty, ty, ty,
              deriv == 1 ? "inv_h" : "inv_h2");
    sb_append(s, "    for (int i = 0; i < n; i++) {\n");
    if (border == COPY)
        sb_printf(s,
                  "        if (i < %d || i >= n - %d) {\n            du[i] = 0;\n"
                  "            continue;\n        }\n",
                  r, r);
    sb_printf(s, "        %s d = ", ty);
    emit_deriv_sum(s, deriv, r, border, f32, f32 ? "                " : "                 ");
    sb_printf(s, ";\n        du[i] = %s * d;\n    }\n}\n", deriv == 1 ? "inv_h" : "inv_h2");
    cuda_deriv(p, deriv, r, border, f32);
    return gen_end(p);
}

/* y = T x as a kernel: one thread per row. */
static void cuda_tridiag(GenProgram *p, int border, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(f32);
    char params[320];
    snprintf(params, sizeof params,
             "const %s *__restrict__ lower, const %s *__restrict__ diag,\n"
             "                                         const %s *__restrict__ upper, const %s *__restrict__ x,\n"
             "                                         %s *__restrict__ y, int n",
             ty, ty, ty, ty, ty);
    sb_append(k, "/* One thread per row of T. */\n");
    cuda_open(k, "tridiag_apply", params);
    if (border == ZERO)
        sb_printf(k, "    %s v = diag[i] * x[i];\n"
                     "    if (i > 0)\n        v += lower[i] * x[i - 1];\n"
                     "    if (i < n - 1)\n        v += upper[i] * x[i + 1];\n"
                     "    y[i] = v;\n}\n", ty);
    else
        sb_append(k, "    const int left = i == 0 ? n - 1 : i - 1;\n"
                     "    const int right = i == n - 1 ? 0 : i + 1;\n"
                     "    y[i] = lower[i] * x[left] + diag[i] * x[i] + upper[i] * x[right];\n}\n");
    gen_launch(p, "tridiag_apply", "(n+255)/256", "256", NULL, "lower,diag,upper,x,y,n");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

/* The Poisson residual or weighted-Jacobi sweep as a kernel: one thread per point. */
static void cuda_poisson(GenProgram *p, int jacobi)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = tyname(!jacobi);
    char params[320];
    sb_append(k, "/* One thread per point. */\n");
    if (!jacobi) {
        snprintf(params, sizeof params,
                 "const %s *__restrict__ u, const %s *__restrict__ f, %s *__restrict__ r, int n, %s inv_h2", ty, ty,
                 ty, ty);
        cuda_open(k, "residual", params);
        sb_printf(k, "    const %s left = i > 0 ? u[i - 1] : 0;\n"
                     "    const %s right = i < n - 1 ? u[i + 1] : 0;\n"
                     "    r[i] = f[i] - inv_h2 * (2 * u[i] - left - right);\n}\n", ty, ty);
        gen_launch(p, "residual", "(n+255)/256", "256", NULL, "u,f,r,n,inv_h2");
    } else {
        snprintf(params, sizeof params,
                 "const %s *__restrict__ u, const %s *__restrict__ f, %s *__restrict__ u_new, int n,\n"
                 "                                        %s inv_h2, %s omega", ty, ty, ty, ty, ty);
        cuda_open(k, "jacobi_sweep", params);
        sb_printf(k, "    const %s left = i > 0 ? u[i - 1] : 0;\n"
                     "    const %s right = i < n - 1 ? u[i + 1] : 0;\n"
                     "    const %s jac = 0.5 * (f[i] / inv_h2 + left + right);\n"
                     "    u_new[i] = (1 - omega) * u[i] + omega * jac;\n}\n", ty, ty, ty);
        gen_launch(p, "jacobi_sweep", "(n+255)/256", "256", NULL, "u,f,u_new,n,inv_h2,omega");
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

/* F: out[i] = a[i] in[i-1] + b[i] in[i] + c[i] in[i+1]. */
static int gen_tridiag(GenCtx *g, int border, int f32)
{
    char variant[64], bytes[32];
    snprintf(variant, sizeof variant, "tridiag-%s-%s", BORDER[border], dtname(f32));
    GenProgram *p = gen_begin(g, variant, "tridiag_apply");
    gen_describe(p, "variable-coefficient 3-point stencil (tridiagonal matrix times vector), %s",
                 BORDER_TEXT[border]);
    const char *dt = dtname(f32), *ty = tyname(f32);
    gen_arg(p, "lower", dt, "in", "n");
    gen_arg(p, "diag", dt, "in", "n");
    gen_arg(p, "upper", dt, "in", "n");
    gen_arg(p, "x", dt, "in", "n");
    gen_arg(p, "y", dt, "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    set_sizes(p, f32);
    snprintf(bytes, sizeof bytes, "%d*n", (f32 ? 4 : 8) * 5);
    gen_cost(p, "5*n", bytes);
    StrBuf *s = gen_src(p);
    if (border == ZERO) {
        sb_append(s, "/* y = T x for the tridiagonal T with sub-, main and super-diagonals\n"
                     " * lower, diag, upper: y[i] = lower[i] x[i-1] + diag[i] x[i] + upper[i] x[i+1],\n"
                     " * with x taken as zero outside [0, n). */\n");
        sb_printf(s, "void tridiag_apply(const %s *lower, const %s *diag, const %s *upper, const %s *x,\n"
                     "                   %s *y, int n)\n{\n", ty, ty, ty, ty, ty);
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n        %s v = diag[i] * x[i];\n"
                     "        if (i > 0)\n            v += lower[i] * x[i - 1];\n"
                     "        if (i < n - 1)\n            v += upper[i] * x[i + 1];\n"
                     "        y[i] = v;\n    }\n}\n", ty);
    } else {
        sb_append(s, "/* y = T x for the periodic tridiagonal T (corner entries wrap around):\n"
                     " * y[i] = lower[i] x[i-1] + diag[i] x[i] + upper[i] x[i+1], indices mod n. */\n");
        sb_printf(s, "void tridiag_apply(const %s *lower, const %s *diag, const %s *upper, const %s *x,\n"
                     "                   %s *y, int n)\n{\n", ty, ty, ty, ty, ty);
        sb_append(s, "    for (int i = 0; i < n; i++) {\n"
                     "        int left = i == 0 ? n - 1 : i - 1;\n"
                     "        int right = i == n - 1 ? 0 : i + 1;\n"
                     "        y[i] = lower[i] * x[left] + diag[i] * x[i] + upper[i] * x[right];\n"
                     "    }\n}\n");
    }
    cuda_tridiag(p, border, f32);
    return gen_end(p);
}

/* G: Poisson residual (f32) and one weighted-Jacobi sweep (f64) for -u'' = f. */
static int gen_poisson(GenCtx *g, int jacobi)
{
    int f32 = !jacobi;
    const char *dt = dtname(f32), *ty = tyname(f32);
    GenProgram *p = gen_begin(g, jacobi ? "poisson-wjacobi-f64" : "poisson-residual-f32",
                              jacobi ? "jacobi_sweep" : "residual");
    gen_describe(p, jacobi ? "one weighted-Jacobi sweep for -u'' = f, zero Dirichlet boundary"
                           : "residual r = f + u'' of -u'' = f, zero Dirichlet boundary");
    gen_arg(p, "u", dt, "in", "n");
    gen_arg(p, "f", dt, "in", "n");
    gen_arg(p, jacobi ? "u_new" : "r", dt, "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, "inv_h2", dt, 16.0);
    if (jacobi)
        gen_scalar(p, "omega", dt, 2.0 / 3.0);
    set_sizes(p, f32);
    gen_cost(p, jacobi ? "8*n" : "5*n", f32 ? "12*n" : "24*n");
    if (f32)
        gen_tolerance(p, 1e-4, 1e-4);
    StrBuf *s = gen_src(p);
    if (!jacobi) {
        sb_append(s, "/* Residual of -u'' = f on n interior points with u = 0 beyond both ends:\n"
                     " *     r[i] = f[i] - inv_h2 * (2 u[i] - u[i-1] - u[i+1]). */\n");
        sb_printf(s, "void residual(const %s *u, const %s *f, %s *r, int n, %s inv_h2)\n{\n", ty, ty, ty, ty);
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n"
                     "        %s left = i > 0 ? u[i - 1] : 0;\n"
                     "        %s right = i < n - 1 ? u[i + 1] : 0;\n"
                     "        r[i] = f[i] - inv_h2 * (2 * u[i] - left - right);\n    }\n}\n", ty, ty);
    } else {
        sb_append(s, "/* One weighted-Jacobi sweep for -u'' = f on n interior points, u = 0 beyond\n"
                     " * both ends:\n"
                     " *     u_new[i] = (1 - omega) u[i] + omega (f[i] / inv_h2 + u[i-1] + u[i+1]) / 2. */\n");
        sb_printf(s, "void jacobi_sweep(const %s *u, const %s *f, %s *u_new, int n, %s inv_h2, %s omega)\n{\n",
                  ty, ty, ty, ty, ty);
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n"
                     "        %s left = i > 0 ? u[i - 1] : 0;\n"
                     "        %s right = i < n - 1 ? u[i + 1] : 0;\n"
                     "        %s jac = 0.5 * (f[i] / inv_h2 + left + right);\n"
                     "        u_new[i] = (1 - omega) * u[i] + omega * jac;\n    }\n}\n", ty, ty, ty);
    }
    cuda_poisson(p, jacobi);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    /* A: 16 single sweeps; B: 8 double sweeps. */
    for (int r = 1; r <= 4; r++)
        for (int b = 0; b < 4; b++)
            if (gen_weighted(g, r, b, (r + b) % 2 == 0, 1) != 0)
                return -1;
    for (int r = 1; r <= 2; r++)
        for (int b = 0; b < 4; b++)
            if (gen_weighted(g, r, b, (r + b) % 2 == 1, 2) != 0)
                return -1;
    /* C: 8 second-order heat programs; D: 4 fourth-order. */
    for (int b = 0; b < 4; b++)
        for (int f32 = 1; f32 >= 0; f32--)
            if (gen_heat(g, 2, b, f32) != 0)
                return -1;
    for (int b = 0; b < 4; b++)
        if (gen_heat(g, 4, b, b % 2 == 0) != 0)
            return -1;
    /* E: 8 first derivatives, 4 second derivatives. */
    static const int DB[3] = {CLAMP, ZERO, PERIODIC};
    for (int o = 2; o <= 8; o += 2)
        for (int f32 = 1; f32 >= 0; f32--)
            if (gen_deriv(g, 1, o, DB[(o / 2 + f32) % 3], f32) != 0)
                return -1;
    for (int o = 2; o <= 8; o += 2)
        if (gen_deriv(g, 2, o, o == 8 ? COPY : DB[o / 2 - 1], o % 4 == 2) != 0)
            return -1;
    /* F: 4 tridiagonal; G: 2 Poisson. */
    for (int f32 = 1; f32 >= 0; f32--)
        if (gen_tridiag(g, ZERO, f32) != 0 || gen_tridiag(g, PERIODIC, f32) != 0)
            return -1;
    if (gen_poisson(g, 0) != 0 || gen_poisson(g, 1) != 0)
        return -1;
    return 0;
}

const Family family_stencil1d = {"stencil1d", "stencil", 54, generate};
