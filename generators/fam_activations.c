/* activations — neural-network activation functions and their derivatives:
 * GELU (erf and tanh forms), SiLU, Mish, softplus (with beta and a
 * linear threshold), ELU, SELU, leaky ReLU, hardswish, hardsigmoid, CELU,
 * softsign, QuickGELU and log-sigmoid.  Each activation comes as a forward
 * pass (y = f(x)) and a backward pass (dx = dy * f'(x)) in f32 and f64; the
 * f64 forms vary the layout: a bias row vector fused before the activation
 * over an n x m matrix, or an in-place update; and gradient accumulation
 * (dx += dy * f'(x)) instead of assignment. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Act {
    const char *tag;      /* variant part; function names use it with '_' */
    const char *math;     /* forward formula, for comments */
    const char *fwd;      /* body of static T <name>(T x<sargs>) ('@', '#' = f32 suffixes) */
    const char *grad;     /* body of static T <name>_grad(T x<sargs>) */
    const char *sname[2]; /* scalar parameters */
    double sval[2];
    int flops_f, flops_b;
} Act;

static const Act ACTS[] = {
    {"gelu-erf", "GELU(x) = x * Phi(x), Phi the standard normal CDF (erf form)",
     "    return 0.5# * x * (1.0# + erf@(x * 0.70710678118654752#));\n",
     "    const T cdf = 0.5# * (1.0# + erf@(x * 0.70710678118654752#));\n"
     "    const T pdf = 0.39894228040143268# * exp@(-0.5# * x * x);\n    return cdf + x * pdf;\n",
     {NULL, NULL}, {0, 0}, 5, 9},
    {"gelu-tanh", "GELU(x) ~ 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))",
     "    const T u = 0.79788456080286536# * (x + 0.044715# * x * x * x);\n"
     "    return 0.5# * x * (1.0# + tanh@(u));\n",
     "    const T u = 0.79788456080286536# * (x + 0.044715# * x * x * x);\n    const T t = tanh@(u);\n"
     "    const T du = 0.79788456080286536# * (1.0# + 3.0# * 0.044715# * x * x);\n"
     "    return 0.5# * (1.0# + t) + 0.5# * x * (1.0# - t * t) * du;\n",
     {NULL, NULL}, {0, 0}, 8, 16},
    {"silu", "SiLU(x) = x * sigmoid(x)", "    return x / (1.0# + exp@(-x));\n",
     "    const T s = 1.0# / (1.0# + exp@(-x));\n    return s * (1.0# + x * (1.0# - s));\n", {NULL, NULL},
     {0, 0}, 4, 7},
    {"mish", "Mish(x) = x * tanh(softplus(x))", "    return x * tanh@(log1p@(exp@(x)));\n",
     "    const T t = tanh@(log1p@(exp@(x)));\n    const T s = 1.0# / (1.0# + exp@(-x));\n"
     "    return t + x * (1.0# - t * t) * s;\n",
     {NULL, NULL}, {0, 0}, 4, 11},
    {"softplus", "softplus(x) = log(1 + exp(beta x)) / beta, or x where beta x > threshold",
     "    const T bx = beta * x;\n    return bx > threshold ? x : log1p@(exp@(bx)) / beta;\n",
     "    const T bx = beta * x;\n    return bx > threshold ? 1.0# : 1.0# / (1.0# + exp@(-bx));\n",
     {"beta", "threshold"}, {1.5, 5.0}, 4, 4},
    {"elu", "ELU(x) = x for x > 0, alpha (exp(x) - 1) otherwise",
     "    return x > 0.0# ? x : alpha * expm1@(x);\n", "    return x > 0.0# ? 1.0# : alpha * exp@(x);\n",
     {"alpha", NULL}, {1.0, 0}, 2, 2},
    {"selu", "SELU(x) = lambda * (x for x > 0, alpha (exp(x) - 1) otherwise)",
     "    const T lambda = 1.0507009873554805#;\n    const T alpha = 1.6732632423543772#;\n"
     "    return lambda * (x > 0.0# ? x : alpha * expm1@(x));\n",
     "    const T lambda = 1.0507009873554805#;\n    const T alpha = 1.6732632423543772#;\n"
     "    return x > 0.0# ? lambda : lambda * alpha * exp@(x);\n",
     {NULL, NULL}, {0, 0}, 3, 3},
    {"leaky-relu", "leaky ReLU(x) = x for x > 0, slope * x otherwise", "    return x > 0.0# ? x : slope * x;\n",
     "    return x > 0.0# ? 1.0# : slope;\n", {"slope", NULL}, {0.01, 0}, 1, 1},
    {"hardswish", "hardswish(x) = x * min(max(x + 3, 0), 6) / 6",
     "    return x * fmin@(fmax@(x + 3.0#, 0.0#), 6.0#) / 6.0#;\n",
     "    if (x < -3.0#)\n        return 0.0#;\n    if (x > 3.0#)\n        return 1.0#;\n"
     "    return (2.0# * x + 3.0#) / 6.0#;\n",
     {NULL, NULL}, {0, 0}, 5, 3},
    {"hardsigmoid", "hardsigmoid(x) = min(max(x / 6 + 1/2, 0), 1)",
     "    return fmin@(fmax@(x / 6.0# + 0.5#, 0.0#), 1.0#);\n",
     "    return x > -3.0# && x < 3.0# ? 1.0# / 6.0# : 0.0#;\n", {NULL, NULL}, {0, 0}, 4, 2},
    {"celu", "CELU(x) = max(0, x) + min(0, alpha (exp(x / alpha) - 1))",
     "    return fmax@(x, 0.0#) + fmin@(alpha * expm1@(x / alpha), 0.0#);\n",
     "    return x > 0.0# ? 1.0# : exp@(x / alpha);\n", {"alpha", NULL}, {1.25, 0}, 5, 2},
    {"softsign", "softsign(x) = x / (1 + |x|)", "    return x / (1.0# + fabs@(x));\n",
     "    const T d = 1.0# + fabs@(x);\n    return 1.0# / (d * d);\n", {NULL, NULL}, {0, 0}, 3, 4},
    {"quick-gelu", "QuickGELU(x) = x * sigmoid(1.702 x)", "    return x / (1.0# + exp@(-1.702# * x));\n",
     "    const T s = 1.0# / (1.0# + exp@(-1.702# * x));\n    return s + 1.702# * x * s * (1.0# - s);\n",
     {NULL, NULL}, {0, 0}, 5, 9},
    {"logsigmoid", "log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))",
     "    return fmin@(x, 0.0#) - log1p@(exp@(-fabs@(x)));\n", "    return 1.0# / (1.0# + exp@(x));\n",
     {NULL, NULL}, {0, 0}, 5, 3},
};
#define N_ACTS ((int)(sizeof ACTS / sizeof ACTS[0]))

/* Copies tmpl resolving '@' / '#' (f32 suffixes) and 'T ' (element type). */
static void emit_t(StrBuf *s, const char *tmpl, int f32, const char *ty)
{
    for (const char *c = tmpl; *c; c++) {
        if (*c == '@' || *c == '#') {
            if (f32)
                sb_putc(s, 'f');
        } else if (*c == 'T' && c[1] == ' ' && (c == tmpl || c[-1] == ' ')) {
            sb_append(s, ty);
        } else {
            sb_putc(s, *c);
        }
    }
}

enum { V_PLAIN, V_BIAS, V_INPLACE, V_ACCUM };

/* The pair: the activation (or its derivative) as a __device__ function and
 * one thread per element in 256-thread blocks; a 64-bit flat index over
 * vectors, and for the bias form a 2-D grid (x over the m columns, y over
 * the n rows) so bias[j] needs no division.  params and sargs are the C
 * program's parameter list and the scalar parameters, already in CUDA
 * spelling (float, double, int). */
static void emit_cuda(GenProgram *p, const Act *a, int f32, int backward, int form, const char *fn,
                      const char *entry, const char *sargs, const char *scall)
{
    const char *ty = f32 ? "float" : "double";
    StrBuf *k = gen_cuda_src(p);
    StrBuf t = STRBUF_INIT;
    sb_printf(k, "/* %s%s: one thread per element. */\n", backward ? "Derivative of " : "", a->math);
    sb_printf(k, "static __device__ %s %s%s(%s x%s)\n{\n", ty, fn, backward ? "_grad" : "", ty, sargs);
    emit_t(k, backward ? a->grad : a->fwd, f32, ty);
    sb_append(k, "}\n\n");
    if (form == V_BIAS)
        sb_printf(&t, "extern \"C\" __global__ void %s(const %s *__restrict__ x, const %s *__restrict__ bias, "
                      "%s *__restrict__ y, int n, int m",
                  entry, ty, ty, ty);
    else if (form == V_INPLACE)
        sb_printf(&t, "extern \"C\" __global__ void %s(%s *x, int n", entry, ty);
    else if (backward)
        sb_printf(&t, "extern \"C\" __global__ void %s(const %s *__restrict__ %s, const %s *__restrict__ %s, "
                      "%s *__restrict__ dx, int n",
                  entry, ty, form == V_ACCUM ? "x" : "dy", ty, form == V_ACCUM ? "dy" : "x", ty);
    else
        sb_printf(&t, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int n", entry,
                  ty, ty);
    sb_printf(&t, "%s)\n{\n", sargs);
    tmpl_put_wrapped(k, sb_str(&t));
    sb_release(&t);
    /* The launch plan lists the scalars as ",beta,threshold". */
    char sl[48] = "", args[96];
    for (int c = 0, o = 0; scall[c] && o < (int)sizeof sl - 1; c++)
        if (scall[c] != ' ')
            sl[o++] = scall[c], sl[o] = '\0';
    if (form == V_BIAS) {
        sb_append(k, "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    const int i = blockIdx.y;\n"
                     "    if (j >= m)\n        return;\n"
                     "    const long long e = (long long)i * m + j;\n");
        sb_printf(k, "    y[e] = %s(x[e] + bias[j]%s);\n}\n", fn, scall);
        snprintf(args, sizeof args, "x,bias,y,n,m%s", sl);
        gen_launch(p, entry, "(m+255)/256,n", "256", NULL, args);
    } else {
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        if (form == V_INPLACE) {
            sb_printf(k, "    x[i] = %s(x[i]%s);\n}\n", fn, scall);
            snprintf(args, sizeof args, "x,n%s", sl);
        } else if (backward) {
            sb_printf(k, "    dx[i] %s dy[i] * %s_grad(x[i]%s);\n}\n", form == V_ACCUM ? "+=" : "=", fn, scall);
            snprintf(args, sizeof args, "%s,dx,n%s", form == V_ACCUM ? "x,dy" : "dy,x", sl);
        } else {
            sb_printf(k, "    y[i] = %s(x[i]%s);\n}\n", fn, scall);
            snprintf(args, sizeof args, "x,y,n%s", sl);
        }
        gen_launch(p, entry, "(n+255)/256", "256", NULL, args);
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", form == V_BIAS ? "one-element-per-thread-2d-grid" : "one-element-per-thread");
}

static int emit(GenCtx *g, const Act *a, int f32, int backward, int form)
{
    const char *dt = f32 ? "f32" : "f64", *ty = f32 ? "float" : "double";
    int sz = f32 ? 4 : 8;
    char fn[32];
    snprintf(fn, sizeof fn, "%s", a->tag);
    for (char *c = fn; *c; c++)
        if (*c == '-')
            *c = '_';
    static const char *const form_tags[] = {"", "-bias", "-inplace", "-accum"};
    char variant[64], entry[64];
    snprintf(variant, sizeof variant, "%s-%s-%s%s", a->tag, backward ? "bwd" : "fwd", dt, form_tags[form]);
    snprintf(entry, sizeof entry, "%s_%s%s", fn, backward ? "backward" : "forward",
             form == V_BIAS ? "_bias" : form == V_INPLACE ? "_inplace" : form == V_ACCUM ? "_accumulate" : "");
    GenProgram *p = gen_begin(g, variant, entry);
    gen_describe(p, "%s %s (%s)%s", a->tag, backward ? "backward" : "forward", dt,
                 form == V_BIAS ? ", bias row vector fused" : form == V_INPLACE ? ", in place"
                                                            : form == V_ACCUM ? ", gradient accumulated" : "");
    StrBuf params = STRBUF_INIT;
    if (form == V_BIAS) {
        gen_arg(p, "x", dt, "in", "n,m");
        gen_arg(p, "bias", dt, "in", "m");
        gen_arg(p, "y", dt, "out", "n,m");
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "m", "i32", "param", NULL);
        sb_printf(&params, "const %s *x, const %s *bias, %s *y, int n, int m", ty, ty, ty);
        gen_fill_uniform(p, "bias", -1, 1);
    } else if (form == V_INPLACE) {
        gen_arg(p, "x", dt, "inout", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        sb_printf(&params, "%s *x, int n", ty);
    } else if (backward && form == V_ACCUM) {
        /* x first: a thread past the end reads the first buffer's guard, a
         * small positive value (harness/guard_zone.h), where every f'(x) here
         * is non-zero; from the second buffer's (32.5 as a double) a
         * saturating f' such as hardsigmoid's gave 0, "dx += 0" left dx's
         * guard as it was, and the missing bound showed on no config. */
        gen_arg(p, "x", dt, "in", "n");
        gen_arg(p, "dy", dt, "in", "n");
        gen_arg(p, "dx", dt, "inout", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        sb_printf(&params, "const %s *x, const %s *dy, %s *dx, int n", ty, ty, ty);
    } else if (backward) {
        gen_arg(p, "dy", dt, "in", "n");
        gen_arg(p, "x", dt, "in", "n");
        gen_arg(p, "dx", dt, "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        sb_printf(&params, "const %s *dy, const %s *x, %s *dx, int n", ty, ty, ty);
    } else {
        gen_arg(p, "x", dt, "in", "n");
        gen_arg(p, "y", dt, "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        sb_printf(&params, "const %s *x, %s *y, int n", ty, ty);
    }
    gen_fill_uniform(p, "x", -5, 5);
    StrBuf sargs = STRBUF_INIT, scall = STRBUF_INIT;
    for (int k = 0; k < 2 && a->sname[k]; k++) {
        /* A per-program draw near the usual default keeps the programs apart. */
        double v = a->sval[k] * gen_uniform(g, 0.8, 1.25);
        v = (double)(long)(v * 1000 + 0.5) / 1000;
        gen_scalar(p, a->sname[k], dt, v);
        sb_printf(&params, ", %s %s", ty, a->sname[k]);
        sb_printf(&sargs, ", %s %s", ty, a->sname[k]);
        sb_printf(&scall, ", %s", a->sname[k]);
    }
    char flops[32], bytes[32];
    if (form == V_BIAS) {
        gen_config(p, "small", "n=256,m=384");
        gen_config(p, "edge", "n=1,m=1");
        gen_config(p, "edge-prime", "n=31,m=97");
        gen_config(p, "large", "n=8192,m=8192");
        snprintf(flops, sizeof flops, "%d*n*m", a->flops_f + 1);
        snprintf(bytes, sizeof bytes, "%d*n*m+%d*m", 2 * sz, sz);
    } else {
        gen_config(p, "small", "n=100000");
        gen_config(p, "edge", "n=1");
        gen_config(p, "edge-prime", "n=1031");
        gen_config(p, "large", backward || !f32 ? "n=67108864" : "n=134217728");
        snprintf(flops, sizeof flops, "%d*n", backward ? a->flops_b + 1 + (form == V_ACCUM) : a->flops_f);
        snprintf(bytes, sizeof bytes, "%d*n", (backward ? 3 + (form == V_ACCUM) : 2) * sz);
    }
    gen_cost(p, flops, bytes);
    if (f32)
        gen_tolerance(p, backward ? 2e-5 : 1e-5, backward ? 2e-4 : 1e-4);
    else
        gen_tolerance(p, 1e-9, 1e-7);

    StrBuf *s = gen_src(p);
    sb_append(s, "#include <math.h>\n");
    if (form == V_BIAS)
        sb_append(s, "#include <stddef.h>\n");
    sb_append(s, "\n");
    if (backward)
        sb_printf(s, "/* Backward pass of %s:\n * dx %s dy * f'(x), elementwise over n values. */\n", a->math,
                  form == V_ACCUM ? "+=" : "=");
    else if (form == V_BIAS)
        sb_printf(s, "/* %s, applied to x + bias:\n * y[i][j] = f(x[i][j] + bias[j]) for an n x m row-major x. */\n",
                  a->math);
    else
        sb_printf(s, "/* %s,\n * elementwise over n values%s. */\n", a->math, form == V_INPLACE ? ", in place" : "");
    sb_printf(s, "static %s %s%s(%s x%s)\n{\n", ty, fn, backward ? "_grad" : "", ty, sb_str(&sargs));
    emit_t(s, backward ? a->grad : a->fwd, f32, ty);
    sb_append(s, "}\n\n");
    sb_printf(s, "void %s(%s)\n{\n", entry, sb_str(&params));
    const char *call = sb_str(&scall);
    if (form == V_BIAS) {
        sb_printf(s,
                  "    for (int i = 0; i < n; i++) {\n        const %s *xr = x + (size_t)i * m;\n"
                  "        %s *yr = y + (size_t)i * m;\n        for (int j = 0; j < m; j++)\n"
                  "            yr[j] = %s(xr[j] + bias[j]%s);\n    }\n}\n",
                  ty, ty, fn, call);
    } else if (form == V_INPLACE) {
        sb_printf(s, "    for (int i = 0; i < n; i++)\n        x[i] = %s(x[i]%s);\n}\n", fn, call);
    } else if (backward) {
        sb_printf(s, "    for (int i = 0; i < n; i++)\n        dx[i] %s dy[i] * %s_grad(x[i]%s);\n}\n",
                  form == V_ACCUM ? "+=" : "=", fn, call);
    } else {
        sb_printf(s, "    for (int i = 0; i < n; i++)\n        y[i] = %s(x[i]%s);\n}\n", fn, call);
    }
    emit_cuda(p, a, f32, backward, form, fn, entry, sb_str(&sargs), call);
    sb_release(&params);
    sb_release(&sargs);
    sb_release(&scall);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    int made = 0;
    for (int k = 0; k < N_ACTS; k++) {
        const Act *a = &ACTS[k];
        if (emit(g, a, 1, 0, V_PLAIN) != 0 || emit(g, a, 1, 1, V_PLAIN) != 0)
            return -1;
        made += 2;
        /* The last activation has no f64 forms: 14 x 4 - 2 = 54. */
        if (k == N_ACTS - 1)
            break;
        if (emit(g, a, 0, 0, k % 2 ? V_BIAS : V_INPLACE) != 0 || emit(g, a, 0, 1, k % 2 ? V_ACCUM : V_PLAIN) != 0)
            return -1;
        made += 2;
    }
    return made == 54 ? 0 : -1;
}

const Family family_activations = {"activations", "ml", 54, generate};
