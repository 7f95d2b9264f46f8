/* ew_chain — fused chains of 2 to 6 elementwise steps with scalar
 * parameters, the kind of epilogue a framework fuses into one kernel:
 * scale, bias, normalise by a constant mean and standard deviation, ReLU,
 * leaky ReLU, clip, tanh, sigmoid, softplus, softsign, exp, sin, square,
 * abs.  Each program draws its own chain (length cycling 2..6); the
 * generator follows the range of values through the chain (interval
 * arithmetic) so no step overflows, saturates everything or collapses the
 * output to a constant, and derives the f32 tolerance from the chain's
 * error amplification.  Layouts: out of place, in place, strided vectors
 * and chain-plus-residual; f32 and f64.
 *
 * Alternatives from the knob space (beside the fused pair): the chain
 * unfused, one kernel per step through scratch buffers; float2/float4
 * (double2) loads with a scalar tail, for the contiguous layouts; and a
 * grid-stride loop of 4 elements per thread per trip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_tmpl.h"

enum {
    OP_SCALE, OP_BIAS, OP_NORM, OP_RELU, OP_LEAKY, OP_CLIP, OP_TANH, OP_SIGMOID,
    OP_SOFTPLUS, OP_SOFTSIGN, OP_EXP, OP_SIN, OP_SQUARE, OP_ABS, N_OPKINDS
};

static const char *const OP_WORDS[] = {"scale", "bias", "normalise", "relu", "leaky-relu", "clip", "tanh",
                                       "sigmoid", "softplus", "softsign", "exp", "sin", "square", "abs"};
static const char *const OP_SHORT[] = {"sc", "bi", "nm", "re", "lr", "cl", "th", "sg", "sp", "ss", "ex", "sn",
                                       "sq", "ab"};

typedef struct Step {
    int op;
    char sname[2][24];  /* scalar names used by the step */
    double sval[2];
    int nscalar;
} Step;

typedef struct Range {
    double lo, hi;
} Range;

static double maxabs(Range r)
{
    return fmax(fabs(r.lo), fabs(r.hi));
}

static double sigm(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

/* Rounds to 3 significant digits so the values read well in meta.json. */
static double round3(double v)
{
    if (v == 0)
        return 0;
    double e = pow(10.0, floor(log10(fabs(v))) - 2);
    return round(v / e) * e;
}

/* Applies step s to the range r; returns the range and the largest |f'|. */
static Range step_range(const Step *s, Range r, double *deriv)
{
    Range o = r;
    double a = s->sval[0], b = s->sval[1];
    *deriv = 1;
    switch (s->op) {
    case OP_SCALE:
        o.lo = a > 0 ? r.lo * a : r.hi * a;
        o.hi = a > 0 ? r.hi * a : r.lo * a;
        *deriv = fabs(a);
        break;
    case OP_BIAS: o.lo = r.lo + a; o.hi = r.hi + a; break;
    case OP_NORM:
        o.lo = (r.lo - a) * b;
        o.hi = (r.hi - a) * b;
        *deriv = b;
        break;
    case OP_RELU: o.lo = fmax(r.lo, 0); o.hi = fmax(r.hi, 0); break;
    case OP_LEAKY:
        o.lo = r.lo < 0 ? r.lo * a : r.lo;
        o.hi = r.hi < 0 ? r.hi * a : r.hi;
        break;
    case OP_CLIP: o.lo = fmin(fmax(r.lo, a), b); o.hi = fmin(fmax(r.hi, a), b); break;
    case OP_TANH: o.lo = tanh(r.lo); o.hi = tanh(r.hi); break;
    case OP_SIGMOID: o.lo = sigm(r.lo); o.hi = sigm(r.hi); *deriv = 0.25; break;
    case OP_SOFTPLUS: o.lo = log1p(exp(r.lo)); o.hi = log1p(exp(r.hi)); break;
    case OP_SOFTSIGN: o.lo = r.lo / (1 + fabs(r.lo)); o.hi = r.hi / (1 + fabs(r.hi)); break;
    case OP_EXP: o.lo = exp(r.lo); o.hi = exp(r.hi); *deriv = o.hi; break;
    case OP_SIN:
        if (r.lo >= -1.5 && r.hi <= 1.5) {
            o.lo = sin(r.lo);
            o.hi = sin(r.hi);
        } else {
            o.lo = -1;
            o.hi = 1;
        }
        break;
    case OP_SQUARE:
    case OP_ABS: {
        double m = maxabs(r);
        double mn = r.lo >= 0 ? r.lo : (r.hi <= 0 ? -r.hi : 0);
        o.lo = s->op == OP_SQUARE ? mn * mn : mn;
        o.hi = s->op == OP_SQUARE ? m * m : m;
        *deriv = s->op == OP_SQUARE ? 2 * m : 1;
        break;
    }
    }
    return o;
}

/* Draws the scalars of a step of kind op given the incoming range. */
static void draw_step(GenCtx *g, Step *s, int op, Range r)
{
    static const char *const first[] = {"alpha", "beta", "mean", NULL, "slope", "clip_lo", NULL};
    s->op = op;
    s->nscalar = 0;
    double w = r.hi - r.lo;
    switch (op) {
    case OP_SCALE:
        s->sval[0] = round3(gen_uniform(g, 0.5, 2.5) * (gen_randint(g, 0, 3) == 0 ? -1 : 1));
        s->nscalar = 1;
        break;
    case OP_BIAS: s->sval[0] = round3(gen_uniform(g, -0.6, 0.6)); s->nscalar = 1; break;
    case OP_NORM:
        s->sval[0] = round3(r.lo + w * gen_uniform(g, 0.3, 0.7));
        s->sval[1] = round3(1.0 / (w * gen_uniform(g, 0.25, 0.5)));
        s->nscalar = 2;
        break;
    case OP_LEAKY: s->sval[0] = round3(gen_uniform(g, 0.01, 0.3)); s->nscalar = 1; break;
    case OP_CLIP:
        s->sval[0] = round3(r.lo + w * gen_uniform(g, 0.05, 0.3));
        s->sval[1] = round3(r.hi - w * gen_uniform(g, 0.05, 0.3));
        s->nscalar = 2;
        break;
    default: break;
    }
    if (s->nscalar >= 1)
        snprintf(s->sname[0], sizeof s->sname[0], "%s", first[op <= OP_CLIP ? op : 6]);
    if (op == OP_NORM)
        snprintf(s->sname[1], sizeof s->sname[1], "inv_std");
    if (op == OP_CLIP)
        snprintf(s->sname[1], sizeof s->sname[1], "clip_hi");
}

/* A step is acceptable when the values stay moderate and keep a spread. */
static int step_ok(const Step *s, Range in, Range out)
{
    if (maxabs(out) > 40 || out.hi - out.lo < 0.1)
        return 0;
    if (s->op == OP_EXP && in.hi > 3.5)
        return 0;
    if ((s->op == OP_RELU || s->op == OP_LEAKY) && (in.hi < 0.2 || in.lo > 0))
        return 0;
    if ((s->op == OP_SQUARE || s->op == OP_ABS) && in.lo >= 0)
        return 0;
    if (s->op == OP_CLIP && s->sval[0] >= s->sval[1])
        return 0;
    return 1;
}

/* Appends the step as "<indent>v = ...;" (the C loop body and the CUDA
 * thread body share it, at their own indentation). */
static void emit_step(StrBuf *sb, const Step *s, int f32, const char *indent)
{
    const char *f = f32 ? "f" : "";
    sb_printf(sb, "%sv = ", indent);
    switch (s->op) {
    case OP_SCALE: sb_printf(sb, "v * %s", s->sname[0]); break;
    case OP_BIAS: sb_printf(sb, "v + %s", s->sname[0]); break;
    case OP_NORM: sb_printf(sb, "(v - %s) * %s", s->sname[0], s->sname[1]); break;
    case OP_RELU: sb_printf(sb, "fmax%s(v, 0.0%s)", f, f); break;
    case OP_LEAKY: sb_printf(sb, "v > 0.0%s ? v : %s * v", f, s->sname[0]); break;
    case OP_CLIP: sb_printf(sb, "fmin%s(fmax%s(v, %s), %s)", f, f, s->sname[0], s->sname[1]); break;
    case OP_TANH: sb_printf(sb, "tanh%s(v)", f); break;
    case OP_SIGMOID: sb_printf(sb, "1.0%s / (1.0%s + exp%s(-v))", f, f, f); break;
    case OP_SOFTPLUS: sb_printf(sb, "log1p%s(exp%s(v))", f, f); break;
    case OP_SOFTSIGN: sb_printf(sb, "v / (1.0%s + fabs%s(v))", f, f); break;
    case OP_EXP: sb_printf(sb, "exp%s(v)", f); break;
    case OP_SIN: sb_printf(sb, "sin%s(v)", f); break;
    case OP_SQUARE: sb_append(sb, "v * v"); break;
    case OP_ABS: sb_printf(sb, "fabs%s(v)", f); break;
    }
    sb_append(sb, ";\n");
}

static void describe_step(StrBuf *sb, const Step *s)
{
    switch (s->op) {
    case OP_SCALE: sb_printf(sb, "scale by %s", s->sname[0]); break;
    case OP_BIAS: sb_printf(sb, "add %s", s->sname[0]); break;
    case OP_NORM: sb_printf(sb, "normalise as (v - %s) * %s", s->sname[0], s->sname[1]); break;
    case OP_LEAKY: sb_printf(sb, "leaky relu with slope %s", s->sname[0]); break;
    case OP_CLIP: sb_printf(sb, "clip to [%s, %s]", s->sname[0], s->sname[1]); break;
    default: sb_append(sb, OP_WORDS[s->op]); break;
    }
}

enum { LAY_COPY, LAY_INPLACE, LAY_STRIDED, LAY_RESIDUAL };
static const char *const LAY_TAGS[] = {"", "-inplace", "-strided", "-residual"};

/* The fused kernel's layout parameters (its buffers, n, the strides) into
 * sig and their launch arguments into args. */
static void layout_params(StrBuf *sig, StrBuf *args, int lay, const char *ty)
{
    switch (lay) {
    case LAY_COPY:
        sb_printf(sig, "const %s *__restrict__ x, %s *__restrict__ y, int n", ty, ty);
        sb_append(args, "x,y,n");
        break;
    case LAY_INPLACE:
        sb_printf(sig, "%s *x, int n", ty);
        sb_append(args, "x,n");
        break;
    case LAY_STRIDED:
        sb_printf(sig, "const %s *__restrict__ x, %s *__restrict__ y, int n, int incx, int incy", ty, ty);
        sb_append(args, "x,y,n,incx,incy");
        break;
    default:
        sb_printf(sig, "const %s *__restrict__ x, const %s *__restrict__ res, %s *__restrict__ y, int n", ty, ty,
                  ty);
        sb_append(args, "x,res,y,n");
        break;
    }
}

/* The scalars of steps [from, to) into sig and, unless it is NULL, args. */
static void scalar_params(StrBuf *sig, StrBuf *args, const Step *steps, int from, int to, const char *ty)
{
    for (int i = from; i < to; i++)
        for (int q = 0; q < steps[i].nscalar; q++) {
            sb_printf(sig, ", %s %s", ty, steps[i].sname[q]);
            if (args)
                sb_printf(args, ",%s", steps[i].sname[q]);
        }
}

/* A point of the knob space.  The pair is {1, 1, 1}: the whole chain in
 * one kernel, one thread per element. */
typedef struct Plan {
    int fused;  /* 0: one kernel per step, through scratch buffers */
    int vec;    /* consecutive elements a thread loads as one vector: 1, 2 or 4 */
    int ept;    /* elements a thread handles per trip of a grid-stride loop (1: no loop) */
} Plan;

static const Plan REFERENCE_PLAN = {1, 1, 1};

/* Blocks of the grid-stride alternative at most: 8 per SM of an H100/H200
 * (132 SMs), as the derived grid-stride variant caps its grid. */
#define GRID_STRIDE_MAX_BLOCKS 1056

static const char *const HEADS[] = {"y[i] = f(x[i])", "x[i] = f(x[i]) in place", "y[i*incy] = f(x[i*incx])",
                                    "y[i] = res[i] + f(x[i])"};
/* The fused kernels' store of v, the chain's value of element i, per layout. */
static const char *const STORES[] = {"y[i] = v;", "x[i] = v;", "y[i * incy] = v;", "y[i] = res[i] + v;"};

/* The alternatives' kernel head: "fused_chain(" with the layout's buffers
 * and the steps' scalars (their names appended to args), wrapped, and the
 * body's opening brace; sig is scratch the caller releases. */
static void open_fused_chain(StrBuf *k, StrBuf *sig, StrBuf *args, const Step *steps, int len, int lay,
                             const char *ty)
{
    sb_append(sig, "extern \"C\" __global__ void fused_chain(");
    layout_params(sig, args, lay, ty);
    scalar_params(sig, args, steps, 0, len, ty);
    sb_append(sig, ")");
    tmpl_put_wrapped(k, sb_str(sig));
    sb_append(k, "\n{\n");
}

/* The pair: the whole chain fused into one thread per element (256-thread
 * blocks, 64-bit index), v kept in a register between the steps; the
 * scalars arrive by value after the C program's buffer arguments. */
static void emit_reference(GenProgram *p, const Step *steps, int len, int lay, int f32)
{
    const char *ty = f32 ? "float" : "double";
    StrBuf *k = gen_cuda_src(p);
    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    sb_printf(k, "/* %s for the fused chain f: one thread per element. */\n", HEADS[lay]);
    sb_append(&sig, "extern \"C\" __global__ void fused_chain(");
    layout_params(&sig, &args, lay, ty);
    scalar_params(&sig, &args, steps, 0, len, ty);
    sb_append(&sig, ")\n{\n");
    tmpl_put_wrapped(k, sb_str(&sig));
    sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= n)\n        return;\n");
    sb_printf(k, "    %s v = %s;\n", ty, lay == LAY_STRIDED ? "x[i * incx]" : "x[i]");
    for (int i = 0; i < len; i++)
        emit_step(k, &steps[i], f32, "    ");
    sb_printf(k, "    %s\n}\n", STORES[lay]);
    gen_launch(p, "fused_chain", "(n+255)/256", "256", NULL, sb_str(&args));
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
    sb_release(&sig);
    sb_release(&args);
}

/* Unfused: one kernel per step, as a framework runs the operators one by
 * one.  Step s (1-based) reads the previous step's result (x for the
 * first) and writes its own: the results between steps alternate between
 * the scratch buffers t0 and t1 (t0 only for two steps), and the last
 * step writes the output as the layout does.  Every step writes all n
 * elements of its result before the next launch reads them, so the
 * harness's poisoned scratch is never read. */
static void emit_unfused(GenProgram *p, const Step *steps, int len, int lay, int f32)
{
    const char *ty = f32 ? "float" : "double", *dt = f32 ? "f32" : "f64";
    StrBuf *k = gen_cuda_src(p);
    sb_printf(k, "/* %s for the chain f, unfused: one kernel per step.\n"
                 " * Each reads the previous step's result (x for the first) and writes\n"
                 " * its own to a scratch buffer (the last writes the output). */\n",
              HEADS[lay]);
    gen_scratch(p, "t0", dt, "n");
    if (len > 2)
        gen_scratch(p, "t1", dt, "n");
    for (int s = 1; s <= len; s++) {
        int first = s == 1, last = s == len;
        StrBuf name = STRBUF_INIT, sig = STRBUF_INIT, args = STRBUF_INIT;
        sb_printf(&name, "step%d_", s);
        for (const char *c = OP_WORDS[steps[s - 1].op]; *c; c++)
            sb_printf(&name, "%c", *c == '-' ? '_' : *c);
        /* in place, the last step's output is x, which the first step read:
         * two launches apart, so __restrict__ holds within each */
        sb_printf(&sig, "extern \"C\" __global__ void %s(const %s *__restrict__ in, ", sb_str(&name), ty);
        if (last && lay == LAY_RESIDUAL)
            sb_printf(&sig, "const %s *__restrict__ res, ", ty);
        sb_printf(&sig, "%s *__restrict__ out, int n", ty);
        if (first && lay == LAY_STRIDED)
            sb_append(&sig, ", int incx");
        if (last && lay == LAY_STRIDED)
            sb_append(&sig, ", int incy");
        scalar_params(&sig, &args, steps, s - 1, s, ty);
        sb_append(&sig, ")");
        if (s > 1)
            sb_append(k, "\n");
        tmpl_put_wrapped(k, sb_str(&sig));
        sb_append(k, "\n{\n");
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    %s v = %s;\n", ty, first && lay == LAY_STRIDED ? "in[i * incx]" : "in[i]");
        emit_step(k, &steps[s - 1], f32, "    ");
        if (last && lay == LAY_STRIDED)
            sb_append(k, "    out[i * incy] = v;\n}\n");
        else if (last && lay == LAY_RESIDUAL)
            sb_append(k, "    out[i] = res[i] + v;\n}\n");
        else
            sb_append(k, "    out[i] = v;\n}\n");
        /* the launch's arguments: in, [res], out, n, [incx], [incy], scalars */
        StrBuf la = STRBUF_INIT;
        const char *out = lay == LAY_INPLACE ? "x" : "y";
        char src[4], dst[4];
        snprintf(src, sizeof src, "t%d", s % 2); /* the result of step s-1 is in t((s-2) % 2) */
        snprintf(dst, sizeof dst, "t%d", (s - 1) % 2);
        sb_printf(&la, "%s,%s%s,n%s%s%s", first ? "x" : src, last && lay == LAY_RESIDUAL ? "res," : "",
                  last ? out : dst, first && lay == LAY_STRIDED ? ",incx" : "", last && lay == LAY_STRIDED ? ",incy" : "",
                  sb_str(&args));
        gen_launch(p, sb_str(&name), "(n+255)/256", "256", NULL, sb_str(&la));
        sb_release(&la);
        sb_release(&name);
        sb_release(&sig);
        sb_release(&args);
    }
    char launches[8];
    snprintf(launches, sizeof launches, "%d", len);
    gen_knob(p, "fusion", "unfused");
    gen_knob(p, "launches", launches);
    gen_knob(p, "vector_width", "1");
    gen_knob(p, "elements_per_thread", "1");
    gen_knob(p, "expect", "slower"); /* correct; every intermediate result goes through memory */
}

/* The chain as a device function of one value (the vector kernel applies
 * it to each lane and to the tail). */
static void emit_chain_function(StrBuf *k, const Step *steps, int len, int f32)
{
    const char *ty = f32 ? "float" : "double";
    StrBuf sig = STRBUF_INIT;
    sb_printf(&sig, "__device__ __forceinline__ %s chain(%s v", ty, ty);
    scalar_params(&sig, NULL, steps, 0, len, ty);
    sb_append(&sig, ")");
    tmpl_put_wrapped(k, sb_str(&sig));
    sb_append(k, "\n{\n");
    for (int i = 0; i < len; i++)
        emit_step(k, &steps[i], f32, "    ");
    sb_append(k, "    return v;\n}\n\n");
    sb_release(&sig);
}

/* "<indent><lhs> = <pre>chain(<arg>, <scalars>);", wrapped at 100 columns. */
static void emit_chain_call(StrBuf *k, const char *indent, const char *lhs, const char *pre, const char *arg,
                            const Step *steps, int len)
{
    StrBuf line = STRBUF_INIT;
    sb_printf(&line, "%s%s = %schain(%s", indent, lhs, pre, arg);
    for (int i = 0; i < len; i++)
        for (int q = 0; q < steps[i].nscalar; q++)
            sb_printf(&line, ", %s", steps[i].sname[q]);
    sb_append(&line, ");");
    tmpl_put_wrapped(k, sb_str(&line));
    sb_append(k, "\n");
    sb_release(&line);
}

/* Vector loads: thread t loads elements [t*vec, t*vec + vec) as one
 * float2/float4/double2 (x, y and res are whole harness buffers, 256-byte
 * aligned, so every vector is aligned; in place, each thread reads and
 * writes its own vector), and the thread after the last whole vector does
 * the n % vec elements left over one by one. */
static void emit_vector(GenProgram *p, const Step *steps, int len, int lay, int f32, int vec)
{
    const char *ty = f32 ? "float" : "double";
    static const char *const lanes[] = {"x", "y", "z", "w"};
    char vt[16], grid[32], w[8];
    snprintf(vt, sizeof vt, "%s%d", ty, vec);
    snprintf(w, sizeof w, "%d", vec);
    if (lay == LAY_STRIDED) {
        gen_refuse(p, "x and y are strided (incx, incy): a thread's elements are not consecutive, so no %s load "
                      "covers them", vt);
        return;
    }
    if (!f32 && vec == 4) {
        gen_refuse(p, "4 doubles are 32 bytes, over the 16-byte widest load of sm_90 (double2 is the widest vector "
                      "of double it loads at once)");
        return;
    }
    StrBuf *k = gen_cuda_src(p);
    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    sb_printf(k, "/* %s for the fused chain f, by vectors: each thread\n"
                 " * loads and stores %d consecutive elements as one %s (the buffers\n"
                 " * are whole allocations, 256-byte aligned); the thread after the last\n"
                 " * whole vector does the n %% %d left over. */\n",
              HEADS[lay], vec, vt, vec);
    emit_chain_function(k, steps, len, f32);
    open_fused_chain(k, &sig, &args, steps, len, lay, ty);
    sb_printf(k, "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x, nv = n / %d;\n"
                 "    if (t < nv) {\n",
              vec);
    if (lay == LAY_INPLACE) {
        sb_printf(k, "        %s a = reinterpret_cast<%s *>(x)[t];\n", vt, vt);
    } else {
        sb_printf(k, "        const %s a = reinterpret_cast<const %s *>(x)[t];\n", vt, vt);
        if (lay == LAY_RESIDUAL)
            sb_printf(k, "        const %s r = reinterpret_cast<const %s *>(res)[t];\n", vt, vt);
        sb_printf(k, "        %s b;\n", vt);
    }
    for (int l = 0; l < vec; l++) {
        char lhs[8], arg[8], pre[16];
        snprintf(lhs, sizeof lhs, "%s.%s", lay == LAY_INPLACE ? "a" : "b", lanes[l]);
        snprintf(arg, sizeof arg, "a.%s", lanes[l]);
        snprintf(pre, sizeof pre, "r.%s + ", lanes[l]);
        emit_chain_call(k, "        ", lhs, lay == LAY_RESIDUAL ? pre : "", arg, steps, len);
    }
    sb_printf(k, "        reinterpret_cast<%s *>(%s)[t] = %s;\n", vt, lay == LAY_INPLACE ? "x" : "y",
              lay == LAY_INPLACE ? "a" : "b");
    sb_printf(k, "    } else if (t == nv) {\n"
                 "        for (long long i = nv * %d; i < n; i++)\n",
              vec);
    emit_chain_call(k, "            ", lay == LAY_INPLACE ? "x[i]" : "y[i]", lay == LAY_RESIDUAL ? "res[i] + " : "",
                    "x[i]", steps, len);
    sb_append(k, "    }\n}\n");
    /* ceil(ceil(n / vec) / 256) threads' blocks: ceil(n / (256 * vec)) */
    snprintf(grid, sizeof grid, "(n+%d)/%d", 256 * vec - 1, 256 * vec);
    gen_launch(p, "fused_chain", grid, "256", NULL, sb_str(&args));
    gen_knob(p, "fusion", "fused");
    gen_knob(p, "mapping", "one-vector-per-thread");
    gen_knob(p, "vector_width", w);
    gen_knob(p, "elements_per_thread", w);
    sb_release(&sig);
    sb_release(&args);
}

/* A grid-stride loop whose every trip gives a thread ept elements,
 * blockDim.x apart so each of its loads is coalesced across the warp; the
 * grid is capped at GRID_STRIDE_MAX_BLOCKS and the loop covers whatever n
 * the cap leaves over. */
static void emit_grid_stride(GenProgram *p, const Step *steps, int len, int lay, int f32, int ept)
{
    const char *ty = f32 ? "float" : "double";
    StrBuf *k = gen_cuda_src(p);
    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    char grid[64], e[8], cap[16];
    snprintf(e, sizeof e, "%d", ept);
    snprintf(cap, sizeof cap, "%d", GRID_STRIDE_MAX_BLOCKS);
    sb_printf(k, "/* %s for the fused chain f: a grid-stride loop whose\n"
                 " * every trip gives a thread %d elements, blockDim.x apart (coalesced loads). */\n",
              HEADS[lay], ept);
    open_fused_chain(k, &sig, &args, steps, len, lay, ty);
    sb_printf(k, "    const long long stride = %dLL * gridDim.x * blockDim.x;\n"
                 "    for (long long i0 = %dLL * blockIdx.x * blockDim.x + threadIdx.x; i0 < n; i0 += stride) {\n"
                 "#pragma unroll\n"
                 "        for (int j = 0; j < %d; j++) {\n"
                 "            const long long i = i0 + (long long)j * blockDim.x;\n"
                 "            if (i >= n)\n                break;\n",
              ept, ept, ept);
    sb_printf(k, "            %s v = %s;\n", ty, lay == LAY_STRIDED ? "x[i * incx]" : "x[i]");
    for (int i = 0; i < len; i++)
        emit_step(k, &steps[i], f32, "            ");
    sb_printf(k, "            %s\n        }\n    }\n}\n", STORES[lay]);
    snprintf(grid, sizeof grid, "min((n+%d)/%d,%d)", 256 * ept - 1, 256 * ept, GRID_STRIDE_MAX_BLOCKS);
    gen_launch(p, "fused_chain", grid, "256", NULL, sb_str(&args));
    gen_knob(p, "fusion", "fused");
    gen_knob(p, "mapping", "grid-stride");
    gen_knob(p, "max_blocks", cap);
    gen_knob(p, "vector_width", "1");
    gen_knob(p, "elements_per_thread", e);
    sb_release(&sig);
    sb_release(&args);
}

/* The CUDA implementation at one point of the knob space. */
static void emit_cuda(GenProgram *p, const Step *steps, int len, int lay, int f32, const Plan *pl)
{
    if (!pl->fused)
        emit_unfused(p, steps, len, lay, f32);
    else if (pl->vec > 1)
        emit_vector(p, steps, len, lay, f32, pl->vec);
    else if (pl->ept > 1)
        emit_grid_stride(p, steps, len, lay, f32, pl->ept);
    else
        emit_reference(p, steps, len, lay, f32);
}

/* The alternatives: the chain unfused, vector loads of width 2 and 4 (refused
 * where the layout or the element type rules them out), and a grid-stride
 * loop with 4 elements per thread per trip. */
static void emit_alternatives(GenProgram *p, const Step *steps, int len, int lay, int f32)
{
    static const struct {
        const char *name;
        Plan plan;
    } alts[] = {
        {"unfused", {0, 1, 1}},
        {"vector-2", {1, 2, 1}},
        {"vector-4", {1, 4, 1}},
        {"ept-4-grid-stride", {1, 1, 4}},
    };
    for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++) {
        gen_alt_begin(p, alts[i].name);
        emit_cuda(p, steps, len, lay, f32, &alts[i].plan);
        gen_alt_end(p);
    }
}

#define N_PROGRAMS 54
#define MAX_STEPS 6

static int generate(GenCtx *g)
{
    static char seen[N_PROGRAMS][64];
    static const double xlo[] = {-1, -3, 0}, xhi[] = {1, 3, 1};
    for (int k = 0; k < N_PROGRAMS; k++) {
        int len = 2 + k % 5, lay = (k / 5 + k) % 4, f32 = k % 3 != 2, xr = (k / 3) % 3;
        Step steps[MAX_STEPS];
        Range r0 = {xlo[xr], xhi[xr]}, r;
        double maxmag, err;
        char sig[64];
        int ok = 0;
        for (int attempt = 0; attempt < 1000 && !ok; attempt++) {
            r = r0;
            maxmag = maxabs(r);
            err = 0;
            int n = 0, tries = 0;
            while (n < len && tries < 200) {
                tries++;
                int op = gen_randint(g, 0, N_OPKINDS - 1);
                if (n > 0 && steps[n - 1].op == op)
                    continue;
                draw_step(g, &steps[n], op, r);
                double d;
                Range o = step_range(&steps[n], r, &d);
                if (!step_ok(&steps[n], r, o))
                    continue;
                /* Error bound: the incoming error amplified by |f'|, plus a
                 * few ulps (fast f32 math) of the new value and the old one. */
                err = err * d + 6e-7 * (maxabs(o) + maxabs(r));
                r = o;
                maxmag = fmax(maxmag, maxabs(r));
                n++;
            }
            if (n < len)
                continue;
            int pos = snprintf(sig, sizeof sig, "%d%d", lay, f32);
            for (int i = 0; i < len; i++)
                pos += snprintf(sig + pos, sizeof sig - (size_t)pos, "-%s", OP_SHORT[steps[i].op]);
            ok = 1;
            for (int j = 0; j < k; j++)
                if (strcmp(seen[j], sig) == 0)
                    ok = 0;
        }
        if (!ok)
            return -1;
        snprintf(seen[k], sizeof seen[k], "%s", sig);
        /* Repeated scalar kinds get numbered names: alpha, alpha2, ... */
        for (int i = 0; i < len; i++)
            for (int q = 0; q < steps[i].nscalar; q++) {
                int count = 1;
                for (int j = 0; j < i; j++)
                    if (steps[j].op == steps[i].op)
                        count++;
                if (count > 1) {
                    size_t l = strlen(steps[i].sname[q]);
                    snprintf(steps[i].sname[q] + l, sizeof steps[i].sname[q] - l, "%d", count);
                }
            }

        const char *dt = f32 ? "f32" : "f64", *ty = f32 ? "float" : "double";
        int sz = f32 ? 4 : 8;
        char variant[96];
        int pos = snprintf(variant, sizeof variant, "c%02d-%s", k, dt);
        for (int i = 0; i < len && pos < (int)sizeof variant - 4; i++)
            pos += snprintf(variant + pos, sizeof variant - (size_t)pos, "-%s", OP_SHORT[steps[i].op]);
        snprintf(variant + pos, sizeof variant - (size_t)pos, "%s", LAY_TAGS[lay]);
        GenProgram *p = gen_begin(g, variant, "fused_chain");
        StrBuf chain = STRBUF_INIT;
        for (int i = 0; i < len; i++) {
            if (i)
                sb_append(&chain, ", ");
            describe_step(&chain, &steps[i]);
        }
        gen_describe(p, "fused elementwise chain (%s): %s", dt, sb_str(&chain));

        StrBuf params = STRBUF_INIT;
        switch (lay) {
        case LAY_COPY:
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            sb_printf(&params, "const %s *x, %s *y, int n", ty, ty);
            break;
        case LAY_INPLACE:
            gen_arg(p, "x", dt, "inout", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            sb_printf(&params, "%s *x, int n", ty);
            break;
        case LAY_STRIDED:
            gen_arg(p, "x", dt, "in", "1+(n-1)*incx");
            gen_arg(p, "y", dt, "inout", "1+(n-1)*incy");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_arg(p, "incx", "i32", "param", NULL);
            gen_arg(p, "incy", "i32", "param", NULL);
            sb_printf(&params, "const %s *x, %s *y, int n, int incx, int incy", ty, ty);
            break;
        default:
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "res", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            sb_printf(&params, "const %s *x, const %s *res, %s *y, int n", ty, ty, ty);
            break;
        }
        for (int i = 0; i < len; i++)
            for (int q = 0; q < steps[i].nscalar; q++) {
                gen_scalar(p, steps[i].sname[q], dt, steps[i].sval[q]);
                sb_printf(&params, ", %s %s", ty, steps[i].sname[q]);
            }
        gen_fill_uniform(p, "x", xlo[xr], xhi[xr]);
        if (lay == LAY_STRIDED) {
            gen_config(p, "small", "n=60000,incx=2,incy=2");
            gen_config(p, "edge", "n=1,incx=1,incy=1");
            gen_config(p, "edge-prime", "n=1009,incx=3,incy=1");
            gen_config(p, "large", k % 2 ? "n=33554432,incx=2,incy=1" : "n=33554432,incx=1,incy=2");
        } else {
            gen_config(p, "small", "n=100000");
            gen_config(p, "edge", "n=1");
            gen_config(p, "edge-prime", "n=3001");
            gen_config(p, "large", f32 ? "n=100000000" : "n=67108864");
        }
        char flops[32], bytes[32];
        int nflops = 0;
        for (int i = 0; i < len; i++)
            nflops += steps[i].op == OP_NORM || steps[i].op == OP_CLIP || steps[i].op == OP_SIGMOID ? 2 : 1;
        snprintf(flops, sizeof flops, "%d*n", nflops + (lay == LAY_RESIDUAL));
        snprintf(bytes, sizeof bytes, "%d*n", (lay == LAY_RESIDUAL ? 3 : 2) * sz);
        gen_cost(p, flops, bytes);
        if (lay == LAY_RESIDUAL)
            err += 6e-7 * (maxmag + 1);
        if (f32)
            gen_tolerance(p, fmax(1e-5, round3(2 * err)), 1e-4);
        else
            gen_tolerance(p, 1e-9, 1e-7);

        StrBuf *s = gen_src(p);
        sb_append(s, "#include <math.h>\n");
        if (lay == LAY_STRIDED)
            sb_append(s, "#include <stddef.h>\n");
        sb_append(s, "\n/* ");
        if (lay == LAY_INPLACE)
            sb_append(s, "In place, x[i] = f(x[i])");
        else if (lay == LAY_STRIDED)
            sb_append(s, "y[i*incy] = f(x[i*incx]) (other elements of y unchanged)");
        else if (lay == LAY_RESIDUAL)
            sb_append(s, "y[i] = res[i] + f(x[i])");
        else
            sb_append(s, "y[i] = f(x[i])");
        sb_append(s, " for i in [0, n), where f is the\n * fused chain:");
        /* The steps, wrapped at about 80 columns. */
        int col = 16;
        for (int i = 0; i < len; i++) {
            StrBuf one = STRBUF_INIT;
            describe_step(&one, &steps[i]);
            sb_append(&one, i + 1 < len ? "," : ". */\n");
            if (col + 1 + (int)one.len > 80) {
                sb_append(s, "\n *");
                col = 2;
            }
            sb_printf(s, " %s", sb_str(&one));
            col += 1 + (int)one.len;
            sb_release(&one);
        }
        text_put_void_signature(s, "fused_chain", sb_str(&params), 2);
        sb_append(s, "{\n    for (int i = 0; i < n; i++) {\n");
        sb_printf(s, "        %s v = %s;\n", ty,
                  lay == LAY_STRIDED ? "x[(size_t)i * incx]" : "x[i]");
        for (int i = 0; i < len; i++)
            emit_step(s, &steps[i], f32, "        ");
        if (lay == LAY_INPLACE)
            sb_append(s, "        x[i] = v;\n");
        else if (lay == LAY_STRIDED)
            sb_append(s, "        y[(size_t)i * incy] = v;\n");
        else if (lay == LAY_RESIDUAL)
            sb_append(s, "        y[i] = res[i] + v;\n");
        else
            sb_append(s, "        y[i] = v;\n");
        sb_append(s, "    }\n}\n");
        emit_cuda(p, steps, len, lay, f32, &REFERENCE_PLAN);
        emit_alternatives(p, steps, len, lay, f32);
        sb_release(&chain);
        sb_release(&params);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_ew_chain = {"ew_chain", "elementwise", 54, generate};
