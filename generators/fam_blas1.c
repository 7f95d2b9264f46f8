/* blas1 — BLAS level-1 style vector operations: axpy, axpby, waxpby, xpay,
 * scal, swap-and-scale, plane rotations (rot, and rotm with a full 2x2
 * matrix), normalisation by the 2-norm, the fused AXPY-DOT of Krylov
 * solvers, and the reductions dot, dot-plus-scalar (sdsdot), nrm2, asum,
 * iamax, iamin, distance and sum.  Each operation comes in f32 and f64 with
 * unit stride, and once more with BLAS increments incx / incy as params.
 * Reductions are batched over nb vectors (one result per vector) so every
 * program has a non-trivial output; f32 reductions accumulate in double. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_tmpl.h"

enum {
    OP_AXPY, OP_AXPBY, OP_WAXPBY, OP_XPAY, OP_SCAL, OP_SWAPSCALE, OP_ROT, OP_ROTM, OP_NORMALIZE, OP_AXPYDOT,
    OP_DOT, OP_DOTPLUS, OP_NRM2, OP_ASUM, OP_IAMAX, OP_IAMIN, OP_DIST, OP_SUM, N_OPS
};

typedef struct OpInfo {
    const char *tag;
    const char *math;
    int uses_y;      /* a second vector with its own increment */
    int reduction;   /* batched: one result per vector */
} OpInfo;

static const OpInfo OPS[N_OPS] = {
    {"axpy", "y = alpha*x + y", 1, 0},
    {"axpby", "y = alpha*x + beta*y", 1, 0},
    {"waxpby", "w = alpha*x + beta*y", 1, 0},
    {"xpay", "y = x + beta*y", 1, 0},
    {"scal", "x = alpha*x", 0, 0},
    {"swap-scale", "(x, y) = (alpha*y, beta*x)", 1, 0},
    {"rot", "plane rotation: (x, y) = (c*x + s*y, c*y - s*x)", 1, 0},
    {"rotm", "modified rotation: (x, y) = (h11*x + h12*y, h21*x + h22*y)", 1, 0},
    {"normalize", "y = x / ||x||_2", 1, 0},
    {"axpydot", "z = w - alpha*v; r = u . z", 0, 0},
    {"dot", "r[b] = x_b . y_b", 1, 1},
    {"dot-plus", "r[b] = sb + x_b . y_b (accumulated in double)", 1, 1},
    {"nrm2", "r[b] = ||x_b||_2", 0, 1},
    {"asum", "r[b] = sum_i |x_b[i]|", 0, 1},
    {"iamax", "r[b] = first index i of max |x_b[i]|", 0, 1},
    {"iamin", "r[b] = first index i of min |x_b[i]|", 0, 1},
    {"dist", "r[b] = ||x_b - y_b||_2", 1, 1},
    {"sum", "r[b] = sum_i x_b[i]", 0, 1},
};

static double round4(double v)
{
    if (v == 0)
        return 0;
    double e = pow(10.0, floor(log10(fabs(v))) - 3);
    return round(v / e) * e;
}

typedef struct Ctx {
    int f32, strided;
    const char *ty, *dt;
    char X[48], Y[48];  /* element i of x and y as written in the loop */
} Ctx;

/* Appends the update of element i of the vector operation op, one
 * statement a line at indentation ind; X and Y are element i of x and y as
 * written in the code (the C loop and the CUDA thread share it). */
static void emit_vector_body(StrBuf *s, int op, const char *X, const char *Y, const char *ty, const char *ind)
{
    switch (op) {
    case OP_AXPY: sb_printf(s, "%s%s += alpha * %s;\n", ind, Y, X); break;
    case OP_AXPBY: sb_printf(s, "%s%s = alpha * %s + beta * %s;\n", ind, Y, X, Y); break;
    case OP_WAXPBY: sb_printf(s, "%sw[i] = alpha * %s + beta * %s;\n", ind, X, Y); break;
    case OP_XPAY: sb_printf(s, "%s%s = %s + beta * %s;\n", ind, Y, X, Y); break;
    case OP_SCAL: sb_printf(s, "%s%s *= alpha;\n", ind, X); break;
    case OP_SWAPSCALE:
        sb_printf(s, "%sconst %s t = %s;\n%s%s = alpha * %s;\n%s%s = beta * t;\n", ind, ty, X, ind, X, Y, ind, Y);
        break;
    case OP_ROT:
    case OP_ROTM:
        sb_printf(s, "%sconst %s xi = %s;\n%sconst %s yi = %s;\n", ind, ty, X, ind, ty, Y);
        if (op == OP_ROT)
            sb_printf(s, "%s%s = c * xi + s * yi;\n%s%s = c * yi - s * xi;\n", ind, X, ind, Y);
        else
            sb_printf(s, "%s%s = h11 * xi + h12 * yi;\n%s%s = h21 * xi + h22 * yi;\n", ind, X, ind, Y);
        break;
    }
}

static void emit_vector_op(StrBuf *s, int op, const Ctx *c)
{
    sb_append(s, "    for (int i = 0; i < n; i++) {\n");
    emit_vector_body(s, op, c->X, c->Y, c->ty, "        ");
    sb_append(s, "    }\n");
}

/* ---- the pair ----
 * Vector updates: one thread per element (256-thread blocks, 64-bit
 * index).  Batched reductions: one 256-thread block per vector; each thread
 * accumulates a strided slice (in double, as the C program does), then a
 * shared-memory tree combines the block.  normalize and axpydot reduce the
 * whole vector: per-block partial sums of grid-stride slices (a block per
 * 1024 elements, at most 1024 blocks) into scratch, one block to combine
 * them, and for normalize a third launch to scale. */

#define RED_BLOCKS "min((n+1023)/1024,1024)"

/* Writes the CUDA parameter list for the C one (pointers gain __restrict__:
 * every buffer is distinct) into sig, and the parameter names, comma
 * separated, into args. */
static void cuda_params(const char *c_params, StrBuf *sig, StrBuf *args)
{
    for (const char *q = c_params; *q;) {
        const char *comma = strstr(q, ", ");
        size_t len = comma ? (size_t)(comma - q) : strlen(q);
        const char *star = memchr(q, '*', len), *name = q + len;
        while (name > q && name[-1] != ' ' && name[-1] != '*')
            name--;
        if (q != c_params) {
            sb_append(sig, ", ");
            sb_putc(args, ',');
        }
        if (star)
            sb_printf(sig, "%.*s__restrict__ %.*s", (int)(star + 1 - q), q, (int)(q + len - name), name);
        else
            sb_append_n(sig, q, len);
        sb_append_n(args, name, (size_t)(q + len - name));
        q += len;
        if (*q)
            q += 2;
    }
}

static void put_kernel_head(StrBuf *k, const char *name, const char *params)
{
    StrBuf t = STRBUF_INIT;
    sb_printf(&t, "extern \"C\" __global__ void %s(%s)\n{\n", name, params);
    tmpl_put_wrapped(k, sb_str(&t));
    sb_release(&t);
}

/* The shared-memory tree that sums sh[0 .. blockDim.x) into sh[0]. */
static const char BLOCK_SUM[] =
    "/* Sums sh[0 .. blockDim.x) into sh[0]; blockDim.x is a power of two. */\n"
    "__device__ void block_sum(double *sh)\n"
    "{\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s)\n"
    "            sh[threadIdx.x] += sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "}\n\n";

/* The final launch of a whole-vector sum: one block adds the partials and
 * thread 0 hands the total to `tail` (C statements using `total`). */
static void emit_partials_final(StrBuf *k, const char *name, const char *params, const char *tail)
{
    put_kernel_head(k, name, params);
    sb_printf(k, "    extern __shared__ double sh[];\n"
                 "    double acc = 0.0;\n"
                 "    for (int i = threadIdx.x; i < nparts; i += blockDim.x)\n"
                 "        acc += partial[i];\n"
                 "    sh[threadIdx.x] = acc;\n"
                 "    block_sum(sh);\n"
                 "    if (threadIdx.x != 0)\n        return;\n"
                 "    const double total = sh[0];\n%s}\n",
              tail);
}

static void emit_cuda(GenProgram *p, int op, const Ctx *c, const char *entry, const char *c_params)
{
    const OpInfo *O = &OPS[op];
    const char *ty = c->ty, *f = c->f32 ? "f" : "", *dcast = c->f32 ? "(double)" : "";
    int sz = c->f32 ? 4 : 8;
    StrBuf *k = gen_cuda_src(p);
    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    cuda_params(c_params, &sig, &args);
    char X[48], Y[48];
    /* The vector kernels' i is 64-bit already; the reductions' i is an int. */
    if (O->reduction) {
        snprintf(X, sizeof X, c->strided ? "xb[(long long)i * incx]" : "xb[i]");
        snprintf(Y, sizeof Y, c->strided ? "yb[(long long)i * incy]" : "yb[i]");
    } else {
        snprintf(X, sizeof X, c->strided ? "x[i * incx]" : "x[i]");
        snprintf(Y, sizeof Y, c->strided ? "y[i * incy]" : "y[i]");
    }
    const char *index = "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "    if (i >= n)\n        return;\n";
    if (!O->reduction && op != OP_NORMALIZE && op != OP_AXPYDOT) {
        sb_printf(k, "/* %s: one thread per element. */\n", O->math);
        put_kernel_head(k, entry, sb_str(&sig));
        sb_append(k, index);
        emit_vector_body(k, op, X, Y, ty, "    ");
        sb_append(k, "}\n");
        gen_launch(p, entry, "(n+255)/256", "256", NULL, sb_str(&args));
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-element-per-thread");
    } else if (O->reduction) {
        int isidx = op == OP_IAMAX || op == OP_IAMIN;
        sb_printf(k, "/* For each of nb vectors, %s: one block per vector, a strided\n"
                     " * slice per thread, then a shared-memory tree. */\n\n",
                  O->math);
        if (isidx) {
            const char *cmp = op == OP_IAMAX ? ">" : "<";
            sb_printf(k, "struct Best {\n    %s v; /* |x[i]| */\n    int i;   /* -1: no element yet */\n};\n\n", ty);
            sb_printf(k, "/* The %s |x| wins; a tie goes to the lower index (the first occurrence). */\n"
                         "__device__ Best best_merge(Best a, Best b)\n{\n"
                         "    if (b.i < 0)\n        return a;\n    if (a.i < 0)\n        return b;\n"
                         "    return b.v %s a.v || (b.v == a.v && b.i < a.i) ? b : a;\n}\n\n",
                      op == OP_IAMAX ? "larger" : "smaller", cmp);
            put_kernel_head(k, entry, sb_str(&sig));
            sb_printf(k, "    extern __shared__ Best sh[];\n    const int b = blockIdx.x;\n");
        } else {
            sb_append(k, BLOCK_SUM);
            put_kernel_head(k, entry, sb_str(&sig));
            sb_printf(k, "    extern __shared__ double sh[];\n    const int b = blockIdx.x;\n");
        }
        if (c->strided) {
            sb_printf(k, "    const %s *xb = x + b * (1 + (long long)(n - 1) * incx);\n", ty);
            if (O->uses_y)
                sb_printf(k, "    const %s *yb = y + b * (1 + (long long)(n - 1) * incy);\n", ty);
        } else {
            sb_printf(k, "    const %s *xb = x + (long long)b * n;\n", ty);
            if (O->uses_y)
                sb_printf(k, "    const %s *yb = y + (long long)b * n;\n", ty);
        }
        if (isidx) {
            sb_printf(k, "    Best best = {0, -1};\n"
                         "    for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
                         "        const %s a = fabs%s(%s);\n"
                         "        if (best.i < 0 || a %s best.v) { /* strict: this thread's first wins ties */\n"
                         "            best.v = a;\n            best.i = i;\n        }\n    }\n"
                         "    sh[threadIdx.x] = best;\n"
                         "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                         "        __syncthreads();\n"
                         "        if (threadIdx.x < s)\n"
                         "            sh[threadIdx.x] = best_merge(sh[threadIdx.x], sh[threadIdx.x + s]);\n"
                         "    }\n"
                         "    if (threadIdx.x == 0)\n        r[b] = sh[0].i;\n}\n",
                      ty, f, X, op == OP_IAMAX ? ">" : "<");
        } else {
            sb_append(k, "    double acc = 0.0;\n    for (int i = threadIdx.x; i < n; i += blockDim.x) {\n");
            switch (op) {
            case OP_DOT:
            case OP_DOTPLUS: sb_printf(k, "        acc += %s%s * %s;\n", dcast, X, Y); break;
            case OP_NRM2: sb_printf(k, "        acc += %s%s * %s;\n", dcast, X, X); break;
            case OP_ASUM: sb_printf(k, "        acc += fabs(%s%s);\n", dcast, X); break;
            case OP_DIST:
                sb_printf(k, "        const double d = %s%s - %s;\n        acc += d * d;\n", dcast, X, Y);
                break;
            case OP_SUM: sb_printf(k, "        acc += %s;\n", X); break;
            }
            sb_append(k, "    }\n    sh[threadIdx.x] = acc;\n    block_sum(sh);\n");
            const char *res = op == OP_NRM2 || op == OP_DIST ? "sqrt(sh[0])"
                              : op == OP_DOTPLUS                ? "sb + sh[0]"
                                                                : "sh[0]";
            if (c->f32)
                sb_printf(k, "    if (threadIdx.x == 0)\n        r[b] = (float)(%s);\n}\n", res);
            else
                sb_printf(k, "    if (threadIdx.x == 0)\n        r[b] = %s;\n}\n", res);
        }
        char smem[16];
        snprintf(smem, sizeof smem, "256*%d", isidx ? 2 * sz : 8);
        gen_launch(p, entry, "nb", "256", smem, sb_str(&args));
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-vector-per-block-reduction-shared");
    } else if (op == OP_NORMALIZE) {
        sb_printf(k, "/* y = x / ||x||_2 in three launches: per-block partial sums of squares (in\n"
                     " * double) over grid-stride slices, one block turning them into 1 / ||x||, and\n"
                     " * one thread per element to scale. */\n\n");
        sb_append(k, BLOCK_SUM);
        char name[64], sig2[160];
        snprintf(name, sizeof name, "%s_sumsq", entry);
        snprintf(sig2, sizeof sig2, "const %s *__restrict__ x, double *__restrict__ partial, int n%s", ty,
                 c->strided ? ", int incx" : "");
        put_kernel_head(k, name, sig2);
        sb_printf(k, "    extern __shared__ double sh[];\n    double acc = 0.0;\n"
                     "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                     "         i += (long long)gridDim.x * blockDim.x)\n"
                     "        acc += %s%s * %s;\n"
                     "    sh[threadIdx.x] = acc;\n    block_sum(sh);\n"
                     "    if (threadIdx.x == 0)\n        partial[blockIdx.x] = sh[0];\n}\n\n",
                  dcast, X, X);
        gen_launch(p, name, RED_BLOCKS, "256", "256*8", c->strided ? "x,partial,n,incx" : "x,partial,n");
        snprintf(name, sizeof name, "%s_inv_norm", entry);
        emit_partials_final(k, name, "const double *__restrict__ partial, int nparts, double *__restrict__ inv",
                            "    inv[0] = total > 0.0 ? 1.0 / sqrt(total) : 0.0;\n");
        gen_launch(p, name, "1", "256", "256*8", "partial," RED_BLOCKS ",inv");
        sb_append(k, "\n");
        snprintf(sig2, sizeof sig2, "const %s *__restrict__ x, %s *__restrict__ y, const double *__restrict__ inv, "
                                    "int n%s", ty, ty, c->strided ? ", int incx, int incy" : "");
        put_kernel_head(k, entry, sig2);
        sb_append(k, index);
        sb_printf(k, "    %s = %s(%s * inv[0]);\n}\n", Y, c->f32 ? "(float)" : "", X);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, c->strided ? "x,y,inv,n,incx,incy" : "x,y,inv,n");
        gen_scratch(p, "partial", "f64", "1024");
        gen_scratch(p, "inv", "f64", "1");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "grid-stride-block-reduction-shared-then-one-element-per-thread");
        gen_knob(p, "max_blocks", "1024");
        gen_knob(p, "launches", "3");
    } else {
        const char *W = c->strided ? "w[i * incx]" : "w[i]";
        const char *V = c->strided ? "v[i * incx]" : "v[i]";
        const char *U = c->strided ? "u[i * incx]" : "u[i]";
        sb_printf(k, "/* AXPY-DOT in two launches: each thread writes z[i] = w[i] - alpha*v[i] and\n"
                     " * adds u[i]*z[i] to its block's partial sum (double, grid-stride slices); one\n"
                     " * block then adds the partials into r. */\n\n");
        sb_append(k, BLOCK_SUM);
        char name[64], sig2[200];
        snprintf(name, sizeof name, "%s_partial", entry);
        snprintf(sig2, sizeof sig2, "const %s *__restrict__ w, const %s *__restrict__ v, const %s *__restrict__ u, "
                                    "%s *__restrict__ z, double *__restrict__ partial, int n%s, %s alpha",
                 ty, ty, ty, ty, c->strided ? ", int incx" : "", ty);
        put_kernel_head(k, name, sig2);
        sb_printf(k, "    extern __shared__ double sh[];\n    double acc = 0.0;\n"
                     "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                     "         i += (long long)gridDim.x * blockDim.x) {\n"
                     "        const %s zi = %s - alpha * %s;\n"
                     "        z[i] = zi;\n"
                     "        acc += %s%s * zi;\n    }\n"
                     "    sh[threadIdx.x] = acc;\n    block_sum(sh);\n"
                     "    if (threadIdx.x == 0)\n        partial[blockIdx.x] = sh[0];\n}\n\n",
                  ty, W, V, dcast, U);
        gen_launch(p, name, RED_BLOCKS, "256", "256*8",
                   c->strided ? "w,v,u,z,partial,n,incx,alpha" : "w,v,u,z,partial,n,alpha");
        snprintf(name, sizeof name, "%s_final", entry);
        snprintf(sig2, sizeof sig2, "const double *__restrict__ partial, int nparts, %s *__restrict__ r", ty);
        emit_partials_final(k, name, sig2, c->f32 ? "    r[0] = (float)total;\n" : "    r[0] = total;\n");
        gen_launch(p, name, "1", "256", "256*8", "partial," RED_BLOCKS ",r");
        gen_scratch(p, "partial", "f64", "1024");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "grid-stride-block-reduction-shared");
        gen_knob(p, "max_blocks", "1024");
        gen_knob(p, "launches", "2");
    }
    sb_release(&sig);
    sb_release(&args);
}

static int emit(GenCtx *g, int op, int variant_kind)
{
    const OpInfo *O = &OPS[op];
    Ctx c;
    c.strided = variant_kind == 2;
    c.f32 = variant_kind == 0 || (variant_kind == 2 && op % 2 == 0);
    c.ty = c.f32 ? "float" : "double";
    c.dt = c.f32 ? "f32" : "f64";
    int sz = c.f32 ? 4 : 8;
    const char *xb = O->reduction ? "xb" : "x", *yb = O->reduction ? "yb" : "y";
    if (c.strided) {
        snprintf(c.X, sizeof c.X, "%s[(size_t)i * incx]", xb);
        snprintf(c.Y, sizeof c.Y, "%s[(size_t)i * incy]", yb);
    } else {
        snprintf(c.X, sizeof c.X, "%s[i]", xb);
        snprintf(c.Y, sizeof c.Y, "%s[i]", yb);
    }
    const char *ty = c.ty, *dt = c.dt;
    char variant[64], entry[64];
    snprintf(variant, sizeof variant, "%s-%s%s", O->tag, dt, c.strided ? "-strided" : "");
    const char *pre = c.f32 ? "s" : "d";
    char base[32];
    snprintf(base, sizeof base, "%s", O->tag);
    for (char *q = base; *q; q++)
        if (*q == '-')
            *q = '_';
    if (op == OP_IAMAX || op == OP_IAMIN)
        snprintf(entry, sizeof entry, "i%s%s_batched", pre, base + 1);
    else if (op == OP_DOTPLUS && c.f32)
        snprintf(entry, sizeof entry, "sdsdot_batched");
    else
        snprintf(entry, sizeof entry, "%s%s%s", pre, base, O->reduction ? "_batched" : "");
    GenProgram *p = gen_begin(g, variant, entry);
    gen_describe(p, "BLAS-1 %s: %s (%s%s)", O->tag, O->math, dt, c.strided ? ", strided" : "");

    /* The strides of the vectors; x always has one, y when used. */
    const char *xlen = c.strided ? "1+(n-1)*incx" : "n";
    const char *ylen = c.strided ? "1+(n-1)*incy" : "n";
    int uses_incy = c.strided && O->uses_y;
    char shape[64];
    StrBuf params = STRBUF_INIT;
    if (O->reduction) {
        snprintf(shape, sizeof shape, "nb,%s", xlen);
        gen_arg(p, "x", dt, "in", shape);
        sb_printf(&params, "const %s *x", ty);
        if (O->uses_y) {
            snprintf(shape, sizeof shape, "nb,%s", ylen);
            gen_arg(p, "y", dt, "in", shape);
            sb_printf(&params, ", const %s *y", ty);
        }
        int isidx = op == OP_IAMAX || op == OP_IAMIN;
        gen_arg(p, "r", isidx ? "i32" : dt, "out", "nb");
        sb_printf(&params, ", %s *r, int nb, int n", isidx ? "int" : ty);
        gen_arg(p, "nb", "i32", "param", NULL);
        gen_arg(p, "n", "i32", "param", NULL);
    } else if (op == OP_AXPYDOT) {
        gen_arg(p, "w", dt, "in", xlen);
        gen_arg(p, "v", dt, "in", xlen);
        gen_arg(p, "u", dt, "in", xlen);
        gen_arg(p, "z", dt, "out", "n");
        gen_arg(p, "r", dt, "out", "1");
        gen_arg(p, "n", "i32", "param", NULL);
        sb_printf(&params, "const %s *w, const %s *v, const %s *u, %s *z, %s *r, int n", ty, ty, ty, ty, ty);
    } else {
        int x_out = op == OP_SCAL || op == OP_SWAPSCALE || op == OP_ROT || op == OP_ROTM;
        gen_arg(p, "x", dt, x_out ? "inout" : "in", xlen);
        sb_printf(&params, "%s%s *x", x_out ? "" : "const ", ty);
        if (O->uses_y) {
            int y_in = op == OP_WAXPBY;
            gen_arg(p, "y", dt, y_in ? "in" : (op == OP_NORMALIZE && !c.strided ? "out" : "inout"), ylen);
            sb_printf(&params, ", %s%s *y", y_in ? "const " : "", ty);
        }
        if (op == OP_WAXPBY) {
            gen_arg(p, "w", dt, "out", "n");
            sb_printf(&params, ", %s *w", ty);
        }
        gen_arg(p, "n", "i32", "param", NULL);
        sb_append(&params, ", int n");
    }
    if (c.strided) {
        gen_arg(p, "incx", "i32", "param", NULL);
        sb_append(&params, ", int incx");
        if (uses_incy) {
            gen_arg(p, "incy", "i32", "param", NULL);
            sb_append(&params, ", int incy");
        }
    }
    /* Scalars. */
    switch (op) {
    case OP_AXPY: case OP_SCAL: case OP_AXPYDOT:
        gen_scalar(p, "alpha", dt, round4(gen_uniform(g, -2.0, 2.0)));
        sb_printf(&params, ", %s alpha", ty);
        break;
    case OP_AXPBY: case OP_WAXPBY: case OP_SWAPSCALE:
        gen_scalar(p, "alpha", dt, round4(gen_uniform(g, 0.3, 2.0)));
        gen_scalar(p, "beta", dt, round4(gen_uniform(g, -1.5, -0.3)));
        sb_printf(&params, ", %s alpha, %s beta", ty, ty);
        break;
    case OP_XPAY:
        gen_scalar(p, "beta", dt, round4(gen_uniform(g, 0.2, 0.9)));
        sb_printf(&params, ", %s beta", ty);
        break;
    case OP_ROT: {
        double th = gen_uniform(g, 0.2, 1.3);
        gen_scalar(p, "c", dt, cos(th));
        gen_scalar(p, "s", dt, sin(th));
        sb_printf(&params, ", %s c, %s s", ty, ty);
        break;
    }
    case OP_ROTM:
        gen_scalar(p, "h11", dt, round4(gen_uniform(g, 0.5, 1.5)));
        gen_scalar(p, "h12", dt, round4(gen_uniform(g, -1, 1)));
        gen_scalar(p, "h21", dt, round4(gen_uniform(g, -1, 1)));
        gen_scalar(p, "h22", dt, round4(gen_uniform(g, 0.5, 1.5)));
        sb_printf(&params, ", %s h11, %s h12, %s h21, %s h22", ty, ty, ty, ty);
        break;
    case OP_DOTPLUS:
        gen_scalar(p, "sb", dt, round4(gen_uniform(g, -10, 10)));
        sb_printf(&params, ", %s sb", ty);
        break;
    default: break;
    }

    /* Configs, cost and tolerance. */
    char flops[64], bytes[96];
    if (O->reduction) {
        if (c.strided) {
            gen_config(p, "small", uses_incy ? "nb=8,n=6000,incx=2,incy=3" : "nb=8,n=6000,incx=3");
            gen_config(p, "edge", uses_incy ? "nb=1,n=1,incx=1,incy=1" : "nb=1,n=1,incx=1");
            gen_config(p, "edge-prime", uses_incy ? "nb=5,n=331,incx=3,incy=2" : "nb=5,n=331,incx=2");
            gen_config(p, "large", uses_incy ? "nb=32,n=1048576,incx=2,incy=1" : "nb=32,n=1048576,incx=2");
        } else {
            gen_config(p, "small", "nb=8,n=12500");
            gen_config(p, "edge", "nb=1,n=1");
            gen_config(p, "edge-prime", "nb=3,n=1021");
            gen_config(p, "large", "nb=64,n=1048576");
        }
        int nvec = O->uses_y ? 2 : 1;
        snprintf(flops, sizeof flops, "%d*nb*n", op == OP_DIST ? 3 : 2);
        snprintf(bytes, sizeof bytes, "%d*nb*n+%d*nb", nvec * sz,
                 op == OP_IAMAX || op == OP_IAMIN ? 4 : sz);
        if (op == OP_IAMAX || op == OP_IAMIN)
            ; /* exact */
        else if (c.f32)
            gen_tolerance(p, op == OP_DOT || op == OP_DOTPLUS || op == OP_SUM ? 1e-2 : 1e-3, 1e-3);
        else
            gen_tolerance(p, 1e-7, 1e-8);
    } else {
        if (c.strided) {
            int y2 = O->uses_y;
            gen_config(p, "small", y2 ? "n=50000,incx=2,incy=3" : "n=50000,incx=3");
            gen_config(p, "edge", y2 ? "n=1,incx=1,incy=1" : "n=1,incx=1");
            gen_config(p, "edge-prime", y2 ? "n=1021,incx=3,incy=2" : "n=1021,incx=2");
            gen_config(p, "large", y2 ? (op % 3 ? "n=33554432,incx=2,incy=1" : "n=33554432,incx=1,incy=2")
                                      : "n=33554432,incx=2");
        } else {
            gen_config(p, "small", "n=100000");
            gen_config(p, "edge", "n=1");
            gen_config(p, "edge-prime", "n=1021");
            gen_config(p, "large", "n=67108864");
        }
        static const int fl[] = {2, 3, 3, 2, 1, 2, 6, 6, 3, 4};
        static const int nb[] = {3, 3, 3, 3, 2, 4, 4, 4, 2, 4};
        snprintf(flops, sizeof flops, "%d*n", fl[op]);
        snprintf(bytes, sizeof bytes, op == OP_AXPYDOT ? "%d*n+%d" : "%d*n", nb[op] * sz, sz);
        if (op == OP_NORMALIZE)
            gen_tolerance(p, c.f32 ? 1e-8 : 1e-12, c.f32 ? 5e-4 : 1e-9);
        else if (op == OP_AXPYDOT)
            gen_tolerance(p, c.f32 ? 1e-2 : 1e-7, c.f32 ? 1e-3 : 1e-8);
        else
            gen_tolerance(p, c.f32 ? 1e-5 : 1e-9, c.f32 ? 1e-4 : 1e-7);
    }
    gen_cost(p, flops, bytes);

    /* Source. */
    StrBuf *s = gen_src(p);
    int needs_math = op == OP_NORMALIZE || op == OP_NRM2 || op == OP_ASUM || op == OP_IAMAX ||
                     op == OP_IAMIN || op == OP_DIST;
    int needs_stddef = c.strided || O->reduction;
    if (needs_math)
        sb_append(s, "#include <math.h>\n");
    if (needs_stddef)
        sb_append(s, "#include <stddef.h>\n");
    if (needs_math || needs_stddef)
        sb_append(s, "\n");
    if (O->reduction) {
        sb_printf(s, "/* For each of nb vectors of length n: %s.\n", O->math);
        if (c.strided)
            sb_printf(s, " * Vector b of x starts at x + b*(1 + (n-1)*incx) and its elements are incx\n"
                         " * apart%s. */\n",
                      O->uses_y ? "; likewise y with incy" : "");
        else
            sb_printf(s, " * The vectors are the rows of an nb x n row-major array%s. */\n",
                      O->uses_y ? " (x and y alike)" : "");
    } else if (op == OP_AXPYDOT) {
        sb_printf(s, "/* AXPY-DOT: z = w - alpha*v and r = u . z in one pass%s. */\n",
                  c.strided ? ";\n * w, v and u have increment incx, z is contiguous" : "");
    } else {
        sb_printf(s, "/* %s for vectors of n elements", O->math);
        if (!c.strided)
            sb_append(s, ". */\n");
        else if (!O->uses_y)
            sb_append(s, ",\n * x with increment incx (> 0). */\n");
        else if (op == OP_WAXPBY)
            sb_append(s, ",\n * x and y with increments incx and incy (> 0), w contiguous. */\n");
        else
            sb_append(s, ",\n * x and y with increments incx and incy (> 0); the elements of y between\n"
                         " * the strided ones are left unchanged. */\n");
    }
    text_put_void_signature(s, entry, sb_str(&params), 2);
    sb_append(s, "{\n");
    const char *acc_ty = "double";
    if (O->reduction) {
        sb_append(s, "    for (int b = 0; b < nb; b++) {\n");
        if (c.strided) {
            sb_printf(s, "        const %s *xb = x + (size_t)b * (1 + (size_t)(n - 1) * incx);\n", ty);
            if (O->uses_y)
                sb_printf(s, "        const %s *yb = y + (size_t)b * (1 + (size_t)(n - 1) * incy);\n", ty);
        } else {
            sb_printf(s, "        const %s *xb = x + (size_t)b * n;\n", ty);
            if (O->uses_y)
                sb_printf(s, "        const %s *yb = y + (size_t)b * n;\n", ty);
        }
        /* The loop over the vector, with the element access re-indented. */
        if (op == OP_IAMAX || op == OP_IAMIN) {
            const char *cmp = op == OP_IAMAX ? ">" : "<";
            const char *word = op == OP_IAMAX ? "max" : "min";
            sb_printf(s, "        int best = 0;\n        %s best_abs = fabs%s(xb[0]);\n", ty, c.f32 ? "f" : "");
            sb_printf(s,
                      "        for (int i = 1; i < n; i++) {\n            const %s a = fabs%s(%s);\n"
                      "            if (a %s best_abs) { /* strict: the first %s wins ties */\n"
                      "                best = i;\n                best_abs = a;\n            }\n        }\n"
                      "        r[b] = best;\n    }\n}\n",
                      ty, c.f32 ? "f" : "", c.X, cmp, word);
        } else {
            sb_printf(s, "        %s acc = 0.0;\n        for (int i = 0; i < n; i++) {\n", acc_ty);
            const char *cast = c.f32 ? "(double)" : "";
            switch (op) {
            case OP_DOT:
            case OP_DOTPLUS: sb_printf(s, "            acc += %s%s * %s;\n", cast, c.X, c.Y); break;
            case OP_NRM2: sb_printf(s, "            acc += %s%s * %s;\n", cast, c.X, c.X); break;
            case OP_ASUM: sb_printf(s, "            acc += fabs(%s%s);\n", cast, c.X); break;
            case OP_DIST:
                sb_printf(s, "            const double d = %s%s - %s;\n            acc += d * d;\n", cast, c.X, c.Y);
                break;
            case OP_SUM: sb_printf(s, "            acc += %s;\n", c.X); break;
            }
            sb_append(s, "        }\n");
            const char *res = op == OP_NRM2 || op == OP_DIST ? "sqrt(acc)" : op == OP_DOTPLUS ? "sb + acc" : "acc";
            if (c.f32)
                sb_printf(s, "        r[b] = (float)(%s);\n    }\n}\n", res);
            else
                sb_printf(s, "        r[b] = %s;\n    }\n}\n", res);
        }
    } else if (op == OP_NORMALIZE) {
        const char *cast = c.f32 ? "(double)" : "";
        sb_printf(s, "    double ss = 0.0;\n    for (int i = 0; i < n; i++)\n        ss += %s%s * %s;\n", cast, c.X,
                  c.X);
        sb_append(s, "    const double inv = ss > 0.0 ? 1.0 / sqrt(ss) : 0.0;\n");
        sb_printf(s, "    for (int i = 0; i < n; i++)\n        %s = %s(%s * inv);\n", c.Y, c.f32 ? "(float)" : "", c.X);
        sb_append(s, "}\n");
    } else if (op == OP_AXPYDOT) {
        const char *W = c.strided ? "w[(size_t)i * incx]" : "w[i]";
        const char *V = c.strided ? "v[(size_t)i * incx]" : "v[i]";
        const char *U = c.strided ? "u[(size_t)i * incx]" : "u[i]";
        sb_printf(s, "    double acc = 0.0;\n    for (int i = 0; i < n; i++) {\n");
        sb_printf(s, "        z[i] = %s - alpha * %s;\n        acc += %s%s * z[i];\n    }\n", W, V,
                  c.f32 ? "(double)" : "", U);
        sb_printf(s, "    r[0] = %sacc;\n}\n", c.f32 ? "(float)" : "");
    } else {
        emit_vector_op(s, op, &c);
        sb_append(s, "}\n");
    }
    emit_cuda(p, op, &c, entry, sb_str(&params));
    sb_release(&params);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int op = 0; op < N_OPS; op++)
        for (int v = 0; v < 3; v++)
            if (emit(g, op, v) != 0)
                return -1;
    return 0;
}

const Family family_blas1 = {"blas1", "linalg", 54, generate};
