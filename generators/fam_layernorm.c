/* layernorm — normalisation layers: LayerNorm with and without the affine
 * gamma/beta, LayerNorm that also returns its per-row statistics, RMSNorm,
 * the fused residual-add + LayerNorm / RMSNorm of transformer blocks (which
 * also write the summed residual stream), and over N x C x HW activations
 * group norm, instance norm and inference-mode batch norm (running mean and
 * variance inputs).  Each comes over f32 and f64 in three variants: the
 * plain form, a layout variant (row-wise norms read rows with a padded
 * leading dimension; channel norms take NHWC instead of NCHW) and a fused
 * activation epilogue (GELU, SiLU or ReLU).  Statistics accumulate in
 * double; the variance is the two-pass one. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { V_PLAIN, V_LAYOUT, V_ACT };
enum { ACT_GELU, ACT_SILU, ACT_RELU };

static const char *const ACT_NAME[] = {"gelu", "silu", "relu"};

static void emit_act(StrBuf *s, const TmplSubs *sub, int act)
{
    if (act == ACT_GELU)
        tmpl_expand(s, sub,
             "/* GELU, tanh approximation. */\n"
             "static @T gelu(@T v)\n{\n"
             "    return 0.5@f * v * (1 + @tanh(0.7978845608@f * (v + 0.044715@f * v * v * v)));\n}\n\n");
    else if (act == ACT_SILU)
        tmpl_expand(s, sub, "static @T silu(@T v)\n{\n    return v / (1 + @exp(-v));\n}\n\n");
    else
        tmpl_expand(s, sub, "static @T relu(@T v)\n{\n    return v > 0 ? v : 0;\n}\n\n");
}

/* ---- row-wise norms over an n x d matrix ---- */

typedef struct RowOp {
    const char *tag, *entry, *title, *math;
    int rms;       /* RMSNorm instead of LayerNorm */
    int affine;    /* 0 none, 1 gamma (and beta for LayerNorm) */
    int residual;  /* h = x + res is normalised and written out */
    int stats;     /* mean and rstd are written out */
    int act;       /* the activation of the ACT variant */
    double eps;
} RowOp;

static const RowOp ROW_OPS[] = {
    {"layernorm", "layer_norm", "LayerNorm", "y = (x - mean) / sqrt(var + eps) * gamma + beta", 0, 1, 0, 0,
     ACT_GELU, 1e-5},
    {"layernorm-noaffine", "layer_norm", "LayerNorm without affine parameters",
     "y = (x - mean) / sqrt(var + eps)", 0, 0, 0, 0, ACT_RELU, 1e-5},
    {"layernorm-stats", "layer_norm_fwd", "LayerNorm returning its statistics",
     "y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var + eps);\n"
     " * mean and rstd are written per row (as a training forward pass does)",
     0, 1, 0, 1, ACT_GELU, 1e-5},
    {"rmsnorm", "rms_norm", "RMSNorm", "y = x / sqrt(mean(x^2) + eps) * weight", 1, 1, 0, 0, ACT_SILU, 1e-6},
    {"residual-layernorm", "add_layer_norm", "Residual add + LayerNorm",
     "h = x + res;  y = (h - mean(h)) / sqrt(var(h) + eps) * gamma + beta", 0, 1, 1, 0, ACT_GELU, 1e-5},
    {"residual-rmsnorm", "add_rms_norm", "Residual add + RMSNorm",
     "h = x + res;  y = h / sqrt(mean(h^2) + eps) * weight", 1, 1, 1, 0, ACT_SILU, 1e-6},
};

static void row_program(GenCtx *g, GenProgram *p, const RowOp *op, int v, int f64)
{
    (void)g;
    const char *dt = f64 ? "f64" : "f32";
    int es = f64 ? 8 : 4;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    tmpl_set(&sub, "MEAN", f64 ? "sum / d" : "(float)(sum / d)");
    tmpl_set(&sub, "VAR", f64 ? "sq / d" : "(float)(sq / d)");
    int act = v == V_ACT;
    tmpl_set(&sub, "A", act ? (op->act == ACT_GELU ? "gelu(" : op->act == ACT_SILU ? "silu(" : "relu(") : "");
    tmpl_set(&sub, "Z", act ? ")" : "");
    const char *in = op->residual ? "h" : "x";
    tmpl_set(&sub, "in", in);

    gen_arg(p, "x", dt, "in", v == V_LAYOUT ? "n,ld" : "n,d");
    if (op->residual)
        gen_arg(p, "res", dt, "in", "n,d");
    if (op->affine) {
        gen_arg(p, op->rms ? "weight" : "gamma", dt, "in", "d");
        gen_fill_uniform(p, op->rms ? "weight" : "gamma", 0.5, 1.5);
        if (!op->rms)
            gen_arg(p, "beta", dt, "in", "d");
    }
    if (op->residual)
        gen_arg(p, "h", dt, "out", "n,d");
    gen_arg(p, "y", dt, "out", "n,d");
    if (op->stats) {
        gen_arg(p, "mean", dt, "out", "n");
        gen_arg(p, "rstd", dt, "out", "n");
    }
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "d", "i32", "param", NULL);
    if (v == V_LAYOUT)
        gen_arg(p, "ld", "i32", "param", NULL);
    gen_scalar(p, "eps", dt, op->eps);
    gen_fill_uniform(p, "x", -2, 3);
    if (v == V_LAYOUT) {
        gen_config(p, "small", "n=64,d=768,ld=800");
        gen_config(p, "edge", "n=1,d=1,ld=2");
        gen_config(p, "edge-prime", "n=7,d=131,ld=139");
        gen_config(p, "large", f64 ? "n=8192,d=4000,ld=4096" : "n=16384,d=4000,ld=4096");
    } else {
        gen_config(p, "small", "n=64,d=768");
        gen_config(p, "edge", "n=1,d=1");
        gen_config(p, "edge-prime", "n=7,d=131");
        gen_config(p, "large", f64 ? "n=8192,d=4096" : "n=16384,d=4096");
    }
    /* A float sum of squares in an f64 RMSNorm (the low-precision defect)
     * reaches the output through a square root, which halves its error:
     * with 16 terms a thread (d = 4096) it stayed at 3e-8 to 5e-8 against
     * rtol 1e-7 on every config, large included.  Rows of 4M elements,
     * 16K terms a thread, lose the small squares a float partial sum can
     * no longer add: 3e-7 to 5e-7 (simulated; one row of x + res for the
     * residual forms, within the CPU backend's 256 MiB). */
    if (op->rms && f64)
        gen_config(p, "edge-long-row", v == V_LAYOUT ? (op->residual ? "n=1,d=4194304,ld=4194560"
                                                                      : "n=2,d=4194304,ld=4194560")
                                                     : (op->residual ? "n=1,d=4194304" : "n=2,d=4194304"));
    int full = 2 + (op->residual ? 2 : 0);
    int vec = op->affine ? (op->rms ? 1 : 2) : 0;
    char flops[32], bytes[96];
    snprintf(flops, sizeof flops, "%d*n*d", (op->rms ? 5 : 8) + (op->residual ? 1 : 0) + (act ? 8 : 0));
    if (op->stats)
        snprintf(bytes, sizeof bytes, "%d*n*d+%d*d+%d*n", full * es, vec * es, 2 * es);
    else if (vec)
        snprintf(bytes, sizeof bytes, "%d*n*d+%d*d", full * es, vec * es);
    else
        snprintf(bytes, sizeof bytes, "%d*n*d", full * es);
    gen_cost(p, flops, bytes);
    gen_tolerance(p, f64 ? 1e-9 : 1e-4, f64 ? 1e-7 : 1e-3);

    StrBuf *s = gen_src(p);
    sb_printf(s, "/* %s%s over each row of an n x d matrix%s:\n * %s%s. */\n", op->title,
              act ? (op->act == ACT_GELU ? " + GELU" : op->act == ACT_SILU ? " + SiLU" : " + ReLU") : "",
              v == V_LAYOUT ? "\n * whose x rows are ld elements apart" : "", op->math,
              act ? (op->act == ACT_GELU ? ", then y = gelu(y)" : op->act == ACT_SILU ? ", then y = silu(y)"
                                                                                      : ", then y = relu(y)")
                  : "");
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n\n");
    if (act)
        emit_act(s, &sub, op->act);

    /* The per-row helper. */
    StrBuf sig = STRBUF_INIT;
    sb_printf(&sig, "static void %s_row(const %s *x, ", op->rms ? "rms_norm" : "layer_norm", f64 ? "double" : "float");
    if (op->residual)
        tmpl_expand(&sig, &sub, "const @T *res, ");
    if (op->affine)
        tmpl_expand(&sig, &sub, op->rms ? "const @T *weight, " : "const @T *gamma, const @T *beta, ");
    if (op->residual)
        tmpl_expand(&sig, &sub, "@T *h, ");
    tmpl_expand(&sig, &sub, "@T *y, ");
    if (op->stats)
        tmpl_expand(&sig, &sub, "@T *mean_out, @T *rstd_out, ");
    tmpl_expand(&sig, &sub, "int d, @T eps)");
    tmpl_put_wrapped(s, sig.data);
    sb_append(s, "\n{\n");
    sb_release(&sig);
    if (op->residual)
        tmpl_expand(s, &sub, "    for (int j = 0; j < d; j++)\n        h[j] = x[j] + res[j];\n");
    if (op->rms) {
        tmpl_expand(s, &sub,
             "    double sq = 0;\n"
             "    for (int j = 0; j < d; j++)\n"
             "        sq += @in[j] * @in[j];\n"
             "    @T scale = 1 / @sqrt(@VAR + eps);\n"
             "    for (int j = 0; j < d; j++)\n"
             "        y[j] = @{A}@in[j] * scale * weight[j]@Z;\n");
    } else {
        tmpl_expand(s, &sub,
             "    double sum = 0;\n"
             "    for (int j = 0; j < d; j++)\n"
             "        sum += @in[j];\n"
             "    @T mean = @MEAN;\n"
             "    double sq = 0;\n"
             "    for (int j = 0; j < d; j++) {\n"
             "        @T c = @in[j] - mean;\n"
             "        sq += c * c;\n"
             "    }\n"
             "    @T rstd = 1 / @sqrt(@VAR + eps);\n"
             "    for (int j = 0; j < d; j++)\n");
        if (op->affine)
            tmpl_expand(s, &sub, "        y[j] = @A(@in[j] - mean) * rstd * gamma[j] + beta[j]@Z;\n");
        else
            tmpl_expand(s, &sub, "        y[j] = @A(@in[j] - mean) * rstd@Z;\n");
        if (op->stats)
            sb_append(s, "    *mean_out = mean;\n    *rstd_out = rstd;\n");
    }
    sb_append(s, "}\n\n");

    /* The entry. */
    tmpl_expand(&sig, &sub, "void ");
    sb_printf(&sig, "%s(const %s *x, ", op->entry, f64 ? "double" : "float");
    if (op->residual)
        tmpl_expand(&sig, &sub, "const @T *res, ");
    if (op->affine)
        tmpl_expand(&sig, &sub, op->rms ? "const @T *weight, " : "const @T *gamma, const @T *beta, ");
    if (op->residual)
        tmpl_expand(&sig, &sub, "@T *h, ");
    tmpl_expand(&sig, &sub, "@T *y, ");
    if (op->stats)
        tmpl_expand(&sig, &sub, "@T *mean, @T *rstd, ");
    tmpl_expand(&sig, &sub, v == V_LAYOUT ? "int n, int d, int ld, @T eps)" : "int n, int d, @T eps)");
    tmpl_put_wrapped(s, sig.data);
    sb_append(s, "\n{\n");
    sb_release(&sig);
    sb_append(s, "    for (int i = 0; i < n; i++) {\n");
    sb_printf(s, "        size_t row = (size_t)i * d;\n");
    sb_printf(s, "        %s_row(x + %s, ", op->rms ? "rms_norm" : "layer_norm",
              v == V_LAYOUT ? "(size_t)i * ld" : "row");
    if (op->residual)
        sb_append(s, "res + row, ");
    if (op->affine)
        sb_append(s, op->rms ? "weight, " : "gamma, beta, ");
    if (op->residual)
        sb_append(s, "h + row, ");
    sb_append(s, "y + row, ");
    if (op->stats)
        sb_append(s, "&mean[i], &rstd[i], ");
    sb_append(s, "d, eps);\n    }\n}\n");
}

/* ---- channel norms over an n x c x hw activation ---- */

enum { CH_GROUP, CH_INSTANCE, CH_BATCH };

static const struct {
    const char *tag, *entry;
    int act;
} CH_OPS[] = {
    {"groupnorm", "group_norm", ACT_SILU},
    {"instancenorm", "instance_norm", ACT_RELU},
    {"batchnorm", "batch_norm_inference", ACT_RELU},
};

static void ch_program(GenProgram *p, int kind, int v, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    int es = f64 ? 8 : 4;
    int nhwc = v == V_LAYOUT;
    int act = v == V_ACT;
    int a = CH_OPS[kind].act;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    const char *den = kind == CH_GROUP ? "count" : "hw";
    char mean[40], var[40];
    snprintf(mean, sizeof mean, f64 ? "sum / %s" : "(float)(sum / %s)", den);
    snprintf(var, sizeof var, f64 ? "sq / %s" : "(float)(sq / %s)", den);
    tmpl_set(&sub, "MEAN", mean);
    tmpl_set(&sub, "VAR", var);
    tmpl_set(&sub, "A", act ? (a == ACT_SILU ? "silu(" : "relu(") : "");
    tmpl_set(&sub, "Z", act ? ")" : "");
    /* The index of element (i, ch, s). */
    tmpl_set(&sub, "IDX", nhwc ? "((size_t)i * hw + s) * c + ch" : "((size_t)i * c + ch) * hw + s");

    const char *shape = nhwc ? "n,hw,c" : "n,c,hw";
    gen_arg(p, "x", dt, "in", shape);
    if (kind == CH_BATCH) {
        gen_arg(p, "running_mean", dt, "in", "c");
        gen_arg(p, "running_var", dt, "in", "c");
        gen_fill_uniform(p, "running_mean", -0.5, 0.5);
        gen_fill_uniform(p, "running_var", 0.25, 2.0);
    }
    gen_arg(p, "gamma", dt, "in", "c");
    gen_arg(p, "beta", dt, "in", "c");
    gen_arg(p, "y", dt, "out", shape);
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "hw", "i32", "param", NULL);
    if (kind == CH_GROUP)
        gen_arg(p, "groups", "i32", "param", NULL);
    gen_scalar(p, "eps", dt, 1e-5);
    gen_fill_uniform(p, "x", -1.5, 2.5);
    gen_fill_uniform(p, "gamma", 0.5, 1.5);
    if (kind == CH_GROUP) {
        gen_config(p, "small", "n=2,c=32,hw=256,groups=8");
        gen_config(p, "edge", "n=1,c=1,hw=1,groups=1");
        gen_config(p, "edge-prime", "n=3,c=15,hw=37,groups=5");
        gen_config(p, "large", f64 ? "n=16,c=256,hw=8192,groups=32" : "n=32,c=256,hw=8192,groups=32");
    } else {
        gen_config(p, "small", "n=2,c=32,hw=256");
        gen_config(p, "edge", "n=1,c=1,hw=1");
        gen_config(p, "edge-prime", "n=3,c=13,hw=37");
        gen_config(p, "large", f64 ? "n=16,c=256,hw=8192" : "n=32,c=256,hw=8192");
    }
    char flops[32], bytes[64];
    snprintf(flops, sizeof flops, "%d*n*c*hw", (kind == CH_BATCH ? 2 : 7) + (act ? 4 : 0));
    snprintf(bytes, sizeof bytes, "%d*n*c*hw+%d*c", 2 * es, (kind == CH_BATCH ? 4 : 2) * es);
    gen_cost(p, flops, bytes);
    if (kind == CH_BATCH)
        gen_tolerance(p, f64 ? 1e-10 : 1e-5, f64 ? 1e-9 : 1e-4);
    else
        gen_tolerance(p, f64 ? 1e-9 : 1e-4, f64 ? 1e-7 : 1e-3);

    StrBuf *s = gen_src(p);
    const char *layout = nhwc ? "NHWC: x is n x hw x c" : "NCHW: x is n x c x hw";
    const char *actc = act ? (a == ACT_SILU ? ", then y = silu(y)" : ", then y = relu(y)") : "";
    if (kind == CH_GROUP)
        sb_printf(s,
                  "/* Group norm%s (%s).  The c channels form `groups`\n"
                  " * groups of c / groups channels; over each sample's group\n"
                  " * y = (x - mean) / sqrt(var + eps) * gamma[ch] + beta[ch]%s. */\n",
                  act ? " + SiLU" : "", layout, actc);
    else if (kind == CH_INSTANCE)
        sb_printf(s,
                  "/* Instance norm%s (%s).  Over the hw positions of each\n"
                  " * (sample, channel): y = (x - mean) / sqrt(var + eps) * gamma[ch] + beta[ch]%s. */\n",
                  act ? " + ReLU" : "", layout, actc);
    else
        sb_printf(s,
                  "/* Batch norm in inference mode%s (%s):\n"
                  " * y = (x - running_mean[ch]) / sqrt(running_var[ch] + eps) * gamma[ch] + beta[ch]%s. */\n",
                  act ? " + ReLU" : "", layout, act ? ",\n * then y = relu(y)" : "");
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n\n");
    if (act)
        emit_act(s, &sub, a);

    if (kind == CH_BATCH) {
        StrBuf sig = STRBUF_INIT;
        tmpl_expand(&sig, &sub,
             "void batch_norm_inference(const @T *x, const @T *running_mean, const @T *running_var, "
             "const @T *gamma, const @T *beta, @T *y, int n, int c, int hw, @T eps)");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
        sb_append(s, "\n{\n");
        if (nhwc)
            tmpl_expand(s, &sub,
                 "    for (int i = 0; i < n; i++) {\n"
                 "        for (int s = 0; s < hw; s++) {\n"
                 "            for (int ch = 0; ch < c; ch++) {\n"
                 "                @T scale = gamma[ch] / @sqrt(running_var[ch] + eps);\n"
                 "                size_t idx = @IDX;\n"
                 "                y[idx] = @A(x[idx] - running_mean[ch]) * scale + beta[ch]@Z;\n"
                 "            }\n"
                 "        }\n"
                 "    }\n}\n");
        else
            tmpl_expand(s, &sub,
                 "    for (int i = 0; i < n; i++) {\n"
                 "        for (int ch = 0; ch < c; ch++) {\n"
                 "            @T scale = gamma[ch] / @sqrt(running_var[ch] + eps);\n"
                 "            @T shift = beta[ch] - running_mean[ch] * scale;\n"
                 "            for (int s = 0; s < hw; s++) {\n"
                 "                size_t idx = @IDX;\n"
                 "                y[idx] = @{A}x[idx] * scale + shift@Z;\n"
                 "            }\n"
                 "        }\n"
                 "    }\n}\n");
        return;
    }

    if (kind == CH_INSTANCE) {
        StrBuf sig = STRBUF_INIT;
        tmpl_expand(&sig, &sub,
             "void instance_norm(const @T *x, const @T *gamma, const @T *beta, @T *y, int n, int c, int hw, "
             "@T eps)");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
        tmpl_expand(s, &sub,
             "\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int ch = 0; ch < c; ch++) {\n"
             "            double sum = 0;\n"
             "            for (int s = 0; s < hw; s++)\n"
             "                sum += x[@IDX];\n"
             "            @T mean = @MEAN;\n"
             "            double sq = 0;\n"
             "            for (int s = 0; s < hw; s++) {\n"
             "                @T v = x[@IDX] - mean;\n"
             "                sq += v * v;\n"
             "            }\n"
             "            @T rstd = 1 / @sqrt(@VAR + eps);\n"
             "            for (int s = 0; s < hw; s++) {\n"
             "                size_t idx = @IDX;\n"
             "                y[idx] = @A(x[idx] - mean) * rstd * gamma[ch] + beta[ch]@Z;\n"
             "            }\n"
             "        }\n"
             "    }\n}\n");
        return;
    }

    /* Group norm: loops over a group's elements in memory order. */
    tmpl_set(&sub, "OUTER", nhwc ? "int s = 0; s < hw; s++" : "int ch = g * cpg; ch < (g + 1) * cpg; ch++");
    tmpl_set(&sub, "INNER", nhwc ? "int ch = g * cpg; ch < (g + 1) * cpg; ch++" : "int s = 0; s < hw; s++");
    StrBuf sig = STRBUF_INIT;
    tmpl_expand(&sig, &sub,
         "void group_norm(const @T *x, const @T *gamma, const @T *beta, @T *y, int n, int c, int hw, "
         "int groups, @T eps)");
    tmpl_put_wrapped(s, sig.data);
    sb_release(&sig);
    tmpl_expand(s, &sub,
         "\n{\n"
         "    int cpg = c / groups;\n"
         "    double count = (double)cpg * hw;\n"
         "    for (int i = 0; i < n; i++) {\n"
         "        for (int g = 0; g < groups; g++) {\n"
         "            double sum = 0;\n"
         "            for (@OUTER)\n"
         "                for (@INNER)\n"
         "                    sum += x[@IDX];\n"
         "            @T mean = @MEAN;\n"
         "            double sq = 0;\n"
         "            for (@OUTER)\n"
         "                for (@INNER) {\n"
         "                    @T v = x[@IDX] - mean;\n"
         "                    sq += v * v;\n"
         "                }\n"
         "            @T rstd = 1 / @sqrt(@VAR + eps);\n"
         "            for (@OUTER)\n"
         "                for (@INNER) {\n"
         "                    size_t idx = @IDX;\n"
         "                    y[idx] = @A(x[idx] - mean) * rstd * gamma[ch] + beta[ch]@Z;\n"
         "                }\n"
         "        }\n"
         "    }\n}\n");
}

/* ---- the pair ----
 * Row norms: one block per row; the row's sums (double, as in the C
 * program: the mean first, then the squared deviations) are per-thread
 * passes over strided slices followed by a shared-memory tree.  Group norm:
 * one block per (sample, group); instance norm: one block per (sample,
 * channel) in NCHW, where the channel is contiguous, and one thread per
 * (sample, channel) in NHWC, where it is strided by c (neighbouring threads
 * take neighbouring channels); inference batch norm: one thread per
 * element. */

static const char *const BLOCK_SUM =
    "/* The sum of v over the block, returned to every thread; sh holds\n"
    " * blockDim.x values (a power of two). */\n"
    "__device__ double block_sum(double v, double *sh)\n{\n"
    "    sh[threadIdx.x] = v;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s)\n"
    "            sh[threadIdx.x] += sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "    v = sh[0];\n"
    "    __syncthreads(); /* sh is free for the next sum */\n"
    "    return v;\n}\n\n";

/* block_sum for the warp-shuffle combine: every warp folds its values by
 * an xor butterfly, then every warp folds the warps' sums the same way, so
 * every thread has the block's sum (sh: 32 values). */
static const char *const BLOCK_SUM_SHFL =
    "/* The sum of v over the block, returned to every thread: xor shuffles in\n"
    " * each warp, then over the warps' sums (sh: 32 values; blockDim.x a\n"
    " * multiple of 32). */\n"
    "__device__ double block_sum(double v, double *sh)\n{\n"
    "    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
    "    for (int d = 16; d > 0; d >>= 1)\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, d);\n"
    "    if (lane == 0)\n        sh[warp] = v;\n"
    "    __syncthreads();\n"
    "    v = lane < (int)(blockDim.x / 32) ? sh[lane] : 0.0;\n"
    "    for (int d = 16; d > 0; d >>= 1)\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, d);\n"
    "    __syncthreads(); /* sh is free for the next sum */\n"
    "    return v;\n}\n\n";

static const char *const WARP_SUM =
    "/* The sum of v over the warp, returned to every lane (an xor butterfly). */\n"
    "__device__ double warp_sum(double v)\n{\n"
    "    for (int d = 16; d > 0; d >>= 1)\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, d);\n"
    "    return v;\n}\n\n";

/* A point of the template library's knob space for the row norms; the
 * reference is one block of 256 threads per row, shared-memory tree sums,
 * two passes over the row for the mean and the variance. */
typedef struct RowPlan {
    int block;         /* threads per block: a power of two, 64 to 1024 */
    int shuffle;       /* block sums by warp shuffles (else a shared tree) */
    int warp_per_row;  /* one warp per row, block/32 rows per block */
    int one_pass;      /* sum and sum of squares in one pass: var = E[x^2] - mean^2 */
} RowPlan;

static const RowPlan REFERENCE_ROWS = {256, 0, 0, 0};

/* The activation as a device function. */
static void emit_cuda_act(StrBuf *k, const TmplSubs *sub, int act)
{
    StrBuf a = STRBUF_INIT;
    emit_act(&a, sub, act);
    const char *src = sb_str(&a), *st = strstr(src, "static ");
    sb_append_n(k, src, (size_t)(st - src));
    sb_append(k, "__device__ ");
    sb_append(k, st + 7);
    sb_release(&a);
}

static void row_cuda(GenProgram *p, const RowOp *op, int v, int f64, const RowPlan *pl)
{
    StrBuf *k = gen_cuda_src(p);
    TmplSubs sub;
    tmpl_init(&sub, f64);
    tmpl_set(&sub, "MEAN", f64 ? "sum / d" : "(float)(sum / d)");
    tmpl_set(&sub, "VAR", f64 ? "sq / d" : "(float)(sq / d)");
    int act = v == V_ACT;
    tmpl_set(&sub, "A", act ? (op->act == ACT_GELU ? "gelu(" : op->act == ACT_SILU ? "silu(" : "relu(") : "");
    tmpl_set(&sub, "Z", act ? ")" : "");
    tmpl_set(&sub, "in", op->residual ? "h" : "x");
    tmpl_set(&sub, "J", pl->warp_per_row ? "for (int j = lane; j < d; j += 32)"
                                         : "for (int j = threadIdx.x; j < d; j += blockDim.x)");
    tmpl_set(&sub, "BS", pl->warp_per_row ? "warp_sum" : "block_sum");
    tmpl_set(&sub, "SH", pl->warp_per_row ? "" : ", sh");

    sb_printf(k, "/* %s over each row of an n x d matrix%s:\n * %s%s.\n"
                 " * %s. */\n", op->title,
              v == V_LAYOUT ? "\n * whose x rows are ld elements apart" : "", op->math,
              act ? (op->act == ACT_GELU ? ", then y = gelu(y)" : op->act == ACT_SILU ? ", then y = silu(y)"
                                                                                      : ", then y = relu(y)")
                  : "",
              pl->warp_per_row ? "One warp per row; xor-shuffle sums"
              : pl->shuffle    ? "One block per row; warp-shuffle sums"
                               : "One block per row; shared-memory tree sums");
    if (act)
        emit_cuda_act(k, &sub, op->act);
    tmpl_expand(k, &sub, pl->warp_per_row ? WARP_SUM : pl->shuffle ? BLOCK_SUM_SHFL : BLOCK_SUM);

    StrBuf sig = STRBUF_INIT, args = STRBUF_INIT;
    tmpl_expand(&sig, &sub, "extern \"C\" __global__ void ");
    sb_printf(&sig, "%s(", op->entry);
    tmpl_expand(&sig, &sub, "const @T *__restrict__ x, ");
    sb_append(&args, "x,");
    if (op->residual) {
        tmpl_expand(&sig, &sub, "const @T *__restrict__ res, ");
        sb_append(&args, "res,");
    }
    if (op->affine) {
        tmpl_expand(&sig, &sub, op->rms ? "const @T *__restrict__ weight, "
                                        : "const @T *__restrict__ gamma, const @T *__restrict__ beta, ");
        sb_append(&args, op->rms ? "weight," : "gamma,beta,");
    }
    if (op->residual) {
        tmpl_expand(&sig, &sub, "@T *__restrict__ h, ");
        sb_append(&args, "h,");
    }
    tmpl_expand(&sig, &sub, "@T *__restrict__ y, ");
    sb_append(&args, "y,");
    if (op->stats) {
        tmpl_expand(&sig, &sub, "@T *__restrict__ mean, @T *__restrict__ rstd, ");
        sb_append(&args, "mean,rstd,");
    }
    tmpl_expand(&sig, &sub, v == V_LAYOUT ? "int n, int d, int ld, @T eps)" : "int n, int d, @T eps)");
    sb_append(&args, v == V_LAYOUT ? "n,d,ld,eps" : "n,d,eps");
    tmpl_put_wrapped(k, sb_str(&sig));
    if (pl->warp_per_row)
        sb_append(k, "\n{\n    const int lane = threadIdx.x % 32;\n"
                     "    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
                     "    if (i >= n)\n        return; /* the whole warp: i is the warp's row */\n");
    else
        sb_append(k, pl->shuffle ? "\n{\n    __shared__ double sh[32];\n    const int i = blockIdx.x;\n"
                                 : "\n{\n    extern __shared__ double sh[];\n    const int i = blockIdx.x;\n");
    sb_printf(k, "    x += (long long)i * %s;\n", v == V_LAYOUT ? "ld" : "d");
    if (op->residual)
        sb_append(k, "    res += (long long)i * d;\n    h += (long long)i * d;\n");
    sb_append(k, "    y += (long long)i * d;\n");
    if (op->residual)
        tmpl_expand(k, &sub, "    @J\n        h[j] = x[j] + res[j];\n");
    if (op->rms) {
        tmpl_expand(k, &sub,
                    "    double sq = 0;\n"
                    "    @J\n"
                    "        sq += @in[j] * @in[j];\n"
                    "    sq = @BS(sq@SH);\n"
                    "    const @T scale = 1 / @sqrt(@VAR + eps);\n"
                    "    @J\n"
                    "        y[j] = @{A}@in[j] * scale * weight[j]@Z;\n");
    } else {
        if (pl->one_pass)
            tmpl_expand(k, &sub,
                        "    /* one pass: the sum and the sum of squares (in double, so the\n"
                        "     * difference E[x^2] - mean^2 keeps its digits for these rows) */\n"
                        "    double sum = 0, sq = 0;\n"
                        "    @J {\n"
                        "        const double v = @in[j];\n"
                        "        sum += v;\n"
                        "        sq += v * v;\n"
                        "    }\n"
                        "    sum = @BS(sum@SH);\n"
                        "    sq = @BS(sq@SH);\n"
                        "    const @T row_mean = @MEAN;\n"
                        "    const double var = fmax(sq / d - (sum / d) * (sum / d), 0.0);\n"
                        "    const @T row_rstd = 1 / @sqrt((@T)var + eps);\n"
                        "    @J\n");
        else
            tmpl_expand(k, &sub,
                        "    double sum = 0;\n"
                        "    @J\n"
                        "        sum += @in[j];\n"
                        "    sum = @BS(sum@SH);\n"
                        "    const @T row_mean = @MEAN;\n"
                        "    double sq = 0;\n"
                        "    @J {\n"
                        "        const @T c = @in[j] - row_mean;\n"
                        "        sq += c * c;\n"
                        "    }\n"
                        "    sq = @BS(sq@SH);\n"
                        "    const @T row_rstd = 1 / @sqrt(@VAR + eps);\n"
                        "    @J\n");
        if (op->affine)
            tmpl_expand(k, &sub, "        y[j] = @A(@in[j] - row_mean) * row_rstd * gamma[j] + beta[j]@Z;\n");
        else
            tmpl_expand(k, &sub, "        y[j] = @A(@in[j] - row_mean) * row_rstd@Z;\n");
        if (op->stats)
            sb_append(k, pl->warp_per_row ? "    if (lane == 0) {\n        mean[i] = row_mean;\n        rstd[i] = row_rstd;\n    }\n"
                                          : "    if (threadIdx.x == 0) {\n        mean[i] = row_mean;\n        rstd[i] = row_rstd;\n    }\n");
    }
    sb_append(k, "}\n");
    char smem[32], block[16], grid[32];
    snprintf(smem, sizeof smem, "%d*8", pl->block);
    snprintf(block, sizeof block, "%d", pl->block);
    snprintf(grid, sizeof grid, "(n+%d)/%d", pl->block / 32 - 1, pl->block / 32);
    gen_launch(p, op->entry, pl->warp_per_row ? grid : "n", block, pl->warp_per_row || pl->shuffle ? NULL : smem,
               sb_str(&args));
    gen_knob(p, "block", block);
    gen_knob(p, "mapping", pl->warp_per_row ? "one-row-per-warp-reduction-shuffle"
                           : pl->shuffle    ? "one-row-per-block-reduction-shuffle"
                                            : "one-row-per-block-reduction-shared");
    gen_knob(p, "reduction", pl->warp_per_row || pl->shuffle ? "warp-shuffle" : "shared-tree");
    if (!op->rms)
        gen_knob(p, "passes", pl->one_pass ? "1" : "2");
    sb_release(&sig);
    sb_release(&args);
}

/* The alternatives from the knob space: other block sizes, warp-shuffle
 * sums, one warp per row, the mean and variance in one pass (where there
 * is a variance), and one pass with one warp per row. */
static void row_alternatives(GenProgram *p, const RowOp *op, int v, int f64)
{
    static const struct {
        const char *name;
        RowPlan plan;
        int needs_variance;
    } alts[] = {
        {"block-128", {128, 0, 0, 0}, 0},     {"block-1024", {1024, 0, 0, 0}, 0},
        {"warp-shuffle", {256, 1, 0, 0}, 0},  {"warp-per-row", {256, 0, 1, 0}, 0},
        {"one-pass", {256, 1, 0, 1}, 1},      {"warp-per-row-one-pass", {256, 0, 1, 1}, 1},
    };
    for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++) {
        if (alts[i].needs_variance && op->rms)
            continue;
        gen_alt_begin(p, alts[i].name);
        row_cuda(p, op, v, f64, &alts[i].plan);
        gen_alt_end(p);
    }
}

static void ch_cuda(GenProgram *p, int kind, int v, int f64)
{
    StrBuf *k = gen_cuda_src(p);
    int nhwc = v == V_LAYOUT, act = v == V_ACT, a = CH_OPS[kind].act;
    TmplSubs sub;
    tmpl_init(&sub, f64);
    const char *den = kind == CH_GROUP ? "count" : "hw";
    char mean[40], var[40];
    snprintf(mean, sizeof mean, f64 ? "sum / %s" : "(float)(sum / %s)", den);
    snprintf(var, sizeof var, f64 ? "sq / %s" : "(float)(sq / %s)", den);
    tmpl_set(&sub, "MEAN", mean);
    tmpl_set(&sub, "VAR", var);
    tmpl_set(&sub, "A", act ? (a == ACT_SILU ? "silu(" : "relu(") : "");
    tmpl_set(&sub, "Z", act ? ")" : "");
    tmpl_set(&sub, "IDX", nhwc ? "((long long)i * hw + s) * c + ch" : "((long long)i * c + ch) * hw + s");
    const char *layout = nhwc ? "NHWC: x is n x hw x c" : "NCHW: x is n x c x hw";
    const char *actc = act ? (a == ACT_SILU ? ", then y = silu(y)" : ", then y = relu(y)") : "";
    if (kind == CH_GROUP)
        sb_printf(k, "/* Group norm%s (%s): over each sample's group of c / groups\n"
                     " * channels, y = (x - mean) / sqrt(var + eps) * gamma[ch] + beta[ch]%s.\n"
                     " * One block per (sample, group); shared-memory tree sums. */\n",
                  act ? " + SiLU" : "", layout, actc);
    else if (kind == CH_INSTANCE)
        sb_printf(k, "/* Instance norm%s (%s): over the hw positions of each (sample, channel),\n"
                     " * y = (x - mean) / sqrt(var + eps) * gamma[ch] + beta[ch]%s.\n%s",
                  act ? " + ReLU" : "", layout, actc,
                  nhwc ? " * One thread per (sample, channel), walking the positions. */\n"
                       : " * One block per (sample, channel); shared-memory tree sums. */\n");
    else
        sb_printf(k, "/* Batch norm in inference mode%s (%s):\n"
                     " * y = (x - running_mean[ch]) / sqrt(running_var[ch] + eps) * gamma[ch] + beta[ch]%s.\n"
                     " * One thread per element. */\n",
                  act ? " + ReLU" : "", layout, actc);
    if (act)
        emit_cuda_act(k, &sub, a);

    StrBuf sig = STRBUF_INIT;
    if (kind == CH_BATCH) {
        tmpl_expand(&sig, &sub,
                    "extern \"C\" __global__ void batch_norm_inference(const @T *__restrict__ x, "
                    "const @T *__restrict__ running_mean, const @T *__restrict__ running_var, "
                    "const @T *__restrict__ gamma, const @T *__restrict__ beta, @T *__restrict__ y, "
                    "int n, int c, int hw, @T eps)");
        tmpl_put_wrapped(k, sb_str(&sig));
        tmpl_expand(k, &sub,
                    "\n{\n"
                    "    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (idx >= (long long)n * c * hw)\n        return;\n");
        if (nhwc)
            tmpl_expand(k, &sub,
                        "    const int ch = (int)(idx % c);\n"
                        "    const @T scale = gamma[ch] / @sqrt(running_var[ch] + eps);\n"
                        "    y[idx] = @A(x[idx] - running_mean[ch]) * scale + beta[ch]@Z;\n}\n");
        else
            tmpl_expand(k, &sub,
                        "    const int ch = (int)(idx / hw % c);\n"
                        "    const @T scale = gamma[ch] / @sqrt(running_var[ch] + eps);\n"
                        "    const @T shift = beta[ch] - running_mean[ch] * scale;\n"
                        "    y[idx] = @{A}x[idx] * scale + shift@Z;\n}\n");
        gen_launch(p, "batch_norm_inference", "(n*c*hw+255)/256", "256", NULL,
                   "x,running_mean,running_var,gamma,beta,y,n,c,hw,eps");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-element-per-thread");
        sb_release(&sig);
        return;
    }
    if (kind == CH_INSTANCE && nhwc) {
        tmpl_expand(&sig, &sub,
                    "extern \"C\" __global__ void instance_norm(const @T *__restrict__ x, const @T *__restrict__ gamma, "
                    "const @T *__restrict__ beta, @T *__restrict__ y, int n, int c, int hw, @T eps)");
        tmpl_put_wrapped(k, sb_str(&sig));
        tmpl_expand(k, &sub,
                    "\n{\n"
                    "    const int t = blockIdx.x * blockDim.x + threadIdx.x; /* i * c + ch */\n"
                    "    if (t >= n * c)\n        return;\n"
                    "    const int i = t / c, ch = t % c;\n"
                    "    double sum = 0;\n"
                    "    for (int s = 0; s < hw; s++)\n"
                    "        sum += x[@IDX];\n"
                    "    const @T mean = @MEAN;\n"
                    "    double sq = 0;\n"
                    "    for (int s = 0; s < hw; s++) {\n"
                    "        const @T v = x[@IDX] - mean;\n"
                    "        sq += v * v;\n"
                    "    }\n"
                    "    const @T rstd = 1 / @sqrt(@VAR + eps);\n"
                    "    for (int s = 0; s < hw; s++) {\n"
                    "        const long long idx = @IDX;\n"
                    "        y[idx] = @A(x[idx] - mean) * rstd * gamma[ch] + beta[ch]@Z;\n"
                    "    }\n}\n");
        gen_launch(p, "instance_norm", "(n*c+255)/256", "256", NULL, "x,gamma,beta,y,n,c,hw,eps");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-channel-per-thread");
        sb_release(&sig);
        return;
    }
    tmpl_expand(k, &sub, BLOCK_SUM);
    if (kind == CH_INSTANCE) {
        tmpl_expand(&sig, &sub,
                    "extern \"C\" __global__ void instance_norm(const @T *__restrict__ x, const @T *__restrict__ gamma, "
                    "const @T *__restrict__ beta, @T *__restrict__ y, int n, int c, int hw, @T eps)");
        tmpl_put_wrapped(k, sb_str(&sig));
        tmpl_expand(k, &sub,
                    "\n{\n"
                    "    extern __shared__ double sh[];\n"
                    "    const int ch = blockIdx.x % c; /* blockIdx.x = i * c + ch */\n"
                    "    x += (long long)blockIdx.x * hw;\n"
                    "    y += (long long)blockIdx.x * hw;\n"
                    "    double sum = 0;\n"
                    "    for (int s = threadIdx.x; s < hw; s += blockDim.x)\n"
                    "        sum += x[s];\n"
                    "    sum = block_sum(sum, sh);\n"
                    "    const @T mean = @MEAN;\n"
                    "    double sq = 0;\n"
                    "    for (int s = threadIdx.x; s < hw; s += blockDim.x) {\n"
                    "        const @T v = x[s] - mean;\n"
                    "        sq += v * v;\n"
                    "    }\n"
                    "    sq = block_sum(sq, sh);\n"
                    "    const @T rstd = 1 / @sqrt(@VAR + eps);\n"
                    "    for (int s = threadIdx.x; s < hw; s += blockDim.x)\n"
                    "        y[s] = @A(x[s] - mean) * rstd * gamma[ch] + beta[ch]@Z;\n}\n");
        gen_launch(p, "instance_norm", "n*c", "256", "256*8", "x,gamma,beta,y,n,c,hw,eps");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-channel-per-block-reduction-shared");
        sb_release(&sig);
        return;
    }
    /* Group norm: element e of the group is position s of channel ch. */
    tmpl_set(&sub, "SCH", nhwc ? "const int s = e / cpg, ch = g * cpg + e % cpg;"
                               : "const int ch = g * cpg + e / hw, s = e % hw;");
    tmpl_expand(&sig, &sub,
                "extern \"C\" __global__ void group_norm(const @T *__restrict__ x, const @T *__restrict__ gamma, "
                "const @T *__restrict__ beta, @T *__restrict__ y, int n, int c, int hw, int groups, @T eps)");
    tmpl_put_wrapped(k, sb_str(&sig));
    tmpl_expand(k, &sub,
                "\n{\n"
                "    extern __shared__ double sh[];\n"
                "    const int i = blockIdx.x / groups, g = blockIdx.x % groups;\n"
                "    const int cpg = c / groups, size = cpg * hw;\n"
                "    const double count = (double)cpg * hw;\n"
                "    double sum = 0;\n"
                "    for (int e = threadIdx.x; e < size; e += blockDim.x) {\n"
                "        @SCH\n"
                "        sum += x[@IDX];\n"
                "    }\n"
                "    sum = block_sum(sum, sh);\n"
                "    const @T mean = @MEAN;\n"
                "    double sq = 0;\n"
                "    for (int e = threadIdx.x; e < size; e += blockDim.x) {\n"
                "        @SCH\n"
                "        const @T v = x[@IDX] - mean;\n"
                "        sq += v * v;\n"
                "    }\n"
                "    sq = block_sum(sq, sh);\n"
                "    const @T rstd = 1 / @sqrt(@VAR + eps);\n"
                "    for (int e = threadIdx.x; e < size; e += blockDim.x) {\n"
                "        @SCH\n"
                "        const long long idx = @IDX;\n"
                "        y[idx] = @A(x[idx] - mean) * rstd * gamma[ch] + beta[ch]@Z;\n"
                "    }\n}\n");
    gen_launch(p, "group_norm", "n*groups", "256", "256*8", "x,gamma,beta,y,n,c,hw,groups,eps");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-group-per-block-reduction-shared");
    sb_release(&sig);
}

static int generate(GenCtx *g)
{
    static const char *const VTAG[2][3] = {{"", "-ld", ""}, {"-nchw", "-nhwc", "-nchw"}};
    int nrow = (int)(sizeof ROW_OPS / sizeof ROW_OPS[0]);
    for (int o = 0; o < nrow + 3; o++)
        for (int v = 0; v < 3; v++)
            for (int f64 = 0; f64 < 2; f64++) {
                int is_row = o < nrow;
                const char *tag = is_row ? ROW_OPS[o].tag : CH_OPS[o - nrow].tag;
                int act = is_row ? ROW_OPS[o].act : CH_OPS[o - nrow].act;
                char variant[80];
                snprintf(variant, sizeof variant, "%s%s%s%s-%s", tag, VTAG[!is_row][v], v == V_ACT ? "-" : "",
                         v == V_ACT ? ACT_NAME[act] : "", f64 ? "f64" : "f32");
                GenProgram *p = gen_begin(g, variant, is_row ? ROW_OPS[o].entry : CH_OPS[o - nrow].entry);
                gen_describe(p, "%s%s%s (%s)", tag, v == V_ACT ? " + " : "", v == V_ACT ? ACT_NAME[act] : "",
                             v == V_LAYOUT ? (is_row ? "padded rows" : "NHWC") : (is_row ? "rows" : "NCHW"));
                if (is_row) {
                    row_program(g, p, &ROW_OPS[o], v, f64);
                    row_cuda(p, &ROW_OPS[o], v, f64, &REFERENCE_ROWS);
                    row_alternatives(p, &ROW_OPS[o], v, f64);
                } else {
                    ch_program(p, o - nrow, v, f64);
                    ch_cuda(p, o - nrow, v, f64);
                }
                if (gen_end(p) != 0)
                    return -1;
            }
    return 0;
}

const Family family_layernorm = {"layernorm", "ml", 54, generate};
