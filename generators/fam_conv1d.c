/* conv1d — direct 1D convolution (cross-correlation, as deep-learning
 * frameworks define it) of an (N, C_in, L) signal with (C_out, C_in, K)
 * filters: kernel sizes 1 to 11, strides, zero padding ("valid", "same" and
 * in between), dilation, circular padding, optional bias and ReLU/SiLU
 * epilogues, a residual add, depthwise and grouped filters, causal
 * depthwise convolution (left padding only, as in gated sequence models),
 * and transposed convolution for upsampling.  Layouts are channels-first
 * (NCL, filters C_out x C_in x K) and channels-last (NLC, filters
 * K x C_in x C_out), over f32 and f64. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { C_STD, C_DW, C_GROUP, C_CAUSAL, C_TRANS, C_CIRC, C_RESID };
enum { A_NONE, A_RELU, A_SILU };

typedef struct Conv {
    int kind, nlc, k, stride, pad, dil, bias, act, groups;
} Conv;

static const Conv CONVS[] = {
    {C_STD, 0, 3, 1, 1, 1, 0, A_NONE, 1},  {C_STD, 0, 3, 1, 1, 1, 1, A_NONE, 1},
    {C_STD, 0, 3, 1, 1, 1, 1, A_RELU, 1},  {C_STD, 0, 3, 1, 0, 1, 0, A_NONE, 1},
    {C_STD, 0, 5, 1, 2, 1, 1, A_NONE, 1},  {C_STD, 0, 7, 2, 3, 1, 1, A_RELU, 1},
    {C_STD, 0, 3, 2, 1, 1, 0, A_NONE, 1},  {C_STD, 0, 3, 1, 2, 2, 1, A_NONE, 1},
    {C_STD, 0, 3, 1, 4, 4, 0, A_NONE, 1},  {C_STD, 0, 1, 1, 0, 1, 1, A_NONE, 1},
    {C_STD, 0, 10, 5, 0, 1, 0, A_NONE, 1}, {C_STD, 1, 3, 1, 1, 1, 0, A_NONE, 1},
    {C_STD, 1, 3, 1, 1, 1, 1, A_RELU, 1},  {C_STD, 1, 5, 2, 2, 1, 1, A_NONE, 1},
    {C_STD, 1, 3, 1, 2, 2, 0, A_NONE, 1},  {C_DW, 0, 3, 1, 1, 1, 0, A_NONE, 1},
    {C_DW, 0, 7, 1, 3, 1, 1, A_NONE, 1},   {C_DW, 1, 5, 2, 2, 1, 0, A_NONE, 1},
    {C_CAUSAL, 0, 4, 1, 3, 1, 1, A_SILU, 1}, {C_CAUSAL, 1, 4, 1, 3, 1, 0, A_NONE, 1},
    {C_GROUP, 0, 3, 1, 1, 1, 0, A_NONE, 4}, {C_GROUP, 1, 3, 1, 1, 1, 1, A_RELU, 8},
    {C_TRANS, 0, 4, 2, 1, 1, 0, A_NONE, 1}, {C_TRANS, 0, 8, 4, 2, 1, 1, A_NONE, 1},
    {C_TRANS, 1, 4, 2, 1, 1, 1, A_NONE, 1}, {C_RESID, 0, 3, 1, 1, 1, 1, A_NONE, 1},
    {C_CIRC, 0, 3, 1, 1, 1, 1, A_NONE, 1},
};

/* The output length as a C expression of l and the enum constants, and as
 * a meta.json shape expression with the numbers. */
static void out_len(const Conv *c, char *code, size_t clen, char *meta, size_t mlen)
{
    if (c->kind == C_CAUSAL || c->kind == C_CIRC || c->kind == C_RESID) {
        snprintf(code, clen, "l");
        snprintf(meta, mlen, "l");
        return;
    }
    if (c->kind == C_TRANS) {
        snprintf(code, clen, "(l - 1) * STRIDE - 2 * PAD + K");
        snprintf(meta, mlen, "(l-1)*%d+%d", c->stride, c->k - 2 * c->pad);
        return;
    }
    char span[40];  /* the receptive field minus one */
    if (c->k == 1)
        span[0] = '\0';
    else if (c->dil > 1)
        snprintf(span, sizeof span, " - DIL * (K - 1)");
    else
        snprintf(span, sizeof span, " - (K - 1)");
    int shrink = c->dil * (c->k - 1) - 2 * c->pad;  /* l_out = (l - shrink - 1) / s + 1 */
    if (c->stride == 1) {
        snprintf(code, clen, "l%s%s", c->pad ? " + 2 * PAD" : "", span);
        if (shrink == 0)
            snprintf(meta, mlen, "l");
        else
            snprintf(meta, mlen, "l%+d", -shrink);
    } else {
        snprintf(code, clen, "(l%s%s - 1) / STRIDE + 1", c->pad ? " + 2 * PAD" : "", span);
        snprintf(meta, mlen, "(l%+d)/%d+1", -shrink - 1, c->stride);
    }
}

/* The smallest valid input length (>= 1). */
static int min_len(const Conv *c)
{
    if (c->kind == C_TRANS)
        return 1;
    int need = c->dil * (c->k - 1) + 1 - 2 * c->pad;
    return need < 1 ? 1 : need;
}

/* The epilogue's activation function; `device` marks it __device__ for the
 * CUDA source. */
static void act_fn(StrBuf *s, const TmplSubs *sub, int act, int device)
{
    const char *q = device ? "static __device__" : "static";
    TmplSubs d = *sub;
    tmpl_set(&d, "Q", q);
    if (act == A_RELU)
        tmpl_expand(s, &d, "@Q @T relu(@T v)\n{\n    return v > 0 ? v : 0;\n}\n\n");
    else if (act == A_SILU)
        tmpl_expand(s, &d, "@Q @T silu(@T v)\n{\n    return v / (1 + @exp(-v));\n}\n\n");
}

/* Breaks each "acc += a * b;" line longer than 100 columns after the '*',
 * aligning b under a. */
static void wrap_products(StrBuf *s)
{
    StrBuf out = STRBUF_INIT;
    const char *line = s->data;
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *acc = strstr(line, "acc += ");
        const char *mul = NULL;
        if (len > 100 && acc && acc < line + len)
            for (const char *c = acc; c < line + len - 3; c++)
                if (strncmp(c, " * w[", 5) == 0)
                    mul = c;
        if (mul) {
            sb_append_n(&out, line, (size_t)(mul - line) + 2);
            sb_printf(&out, "\n%*s", (int)(acc - line) + 7, "");
            sb_append_n(&out, mul + 3, (size_t)(line + len - mul - 3));
        } else {
            sb_append_n(&out, line, len);
        }
        if (!nl)
            break;
        sb_putc(&out, '\n');
        line = nl + 1;
    }
    sb_reset(s);
    sb_append(s, out.data);
    sb_release(&out);
}

/* Appends the accumulation into acc of one output element (b, channel,
 * o), at the C loop body's 16-column indent: the program's loop body, and
 * the CUDA kernel's after re-indenting.  sub holds X and W. */
static void emit_accumulation(StrBuf *s, TmplSubs *sub, const Conv *c, int dw)
{
    if (dw) {
        if (c->kind == C_CAUSAL)
            tmpl_expand(s, sub,
                 "                for (int k = 0; k < K; k++) {\n"
                 "                    int pos = o - (K - 1) + k;\n"
                 "                    if (pos >= 0)\n"
                 "                        acc += @X * @W;\n"
                 "                }\n");
        else {
            char posx[64];
            snprintf(posx, sizeof posx, "o%s%s + k", c->stride > 1 ? " * STRIDE" : "", c->pad ? " - PAD" : "");
            tmpl_set(sub, "POS", posx);
            tmpl_expand(s, sub,
                 "                for (int k = 0; k < K; k++) {\n"
                 "                    int pos = @POS;\n"
                 "                    if (pos >= 0 && pos < l)\n"
                 "                        acc += @X * @W;\n"
                 "                }\n");
        }
    } else if (c->kind == C_TRANS) {
        tmpl_expand(s, sub,
             "                /* Input i reaches output o through tap k when o = i * STRIDE - PAD + k. */\n"
             "                for (int ci = 0; ci < cin; ci++)\n"
             "                    for (int k = 0; k < K; k++) {\n"
             "                        int num = o + PAD - k;\n"
             "                        if (num < 0 || num % STRIDE != 0)\n"
             "                            continue;\n"
             "                        int pos = num / STRIDE;\n"
             "                        if (pos < l)\n"
             "                            acc += @X * @W;\n"
             "                    }\n");
    } else {
        char posx[64];
        snprintf(posx, sizeof posx, "o%s%s + k%s", c->stride > 1 ? " * STRIDE" : "", c->pad ? " - PAD" : "",
                 c->dil > 1 ? " * DIL" : "");
        if (c->k == 1)
            snprintf(posx, sizeof posx, "o");
        tmpl_set(sub, "POS", posx);
        if (c->kind == C_GROUP)
            tmpl_expand(s, sub,
                 "                for (int cg = 0; cg < cin_g; cg++) {\n"
                 "                    int ci = g * cin_g + cg;\n");
        else if (c->k == 1)
            tmpl_expand(s, sub, "                for (int ci = 0; ci < @CIN; ci++)\n");
        else
            tmpl_expand(s, sub, "                for (int ci = 0; ci < @CIN; ci++) {\n");
        if (c->k == 1) {
            tmpl_expand(s, sub, "                    acc += @X * @W;\n");
        } else {
            tmpl_expand(s, sub, "                    for (int k = 0; k < K; k++) {\n"
                          "                        int pos = @POS;\n");
            if (c->kind == C_CIRC)
                tmpl_expand(s, sub,
                     "                        if (pos < 0)\n"
                     "                            pos += l;\n"
                     "                        else if (pos >= l)\n"
                     "                            pos -= l;\n"
                     "                        acc += @X * @W;\n");
            else if (c->pad == 0)
                tmpl_expand(s, sub, "                        acc += @X * @W;\n");
            else
                tmpl_expand(s, sub,
                     "                        if (pos >= 0 && pos < l)\n"
                     "                            acc += @X * @W;\n");
            sb_append(s, "                    }\n                }\n");
        }
    }
    if (c->kind == C_RESID)
        sb_append(s, c->nlc ? "                acc += x[((size_t)b * l + o) * c + co];\n"
                            : "                acc += x[((size_t)b * c + co) * l + o];\n");
}

/* Appends the enum of the program's constants (none for a pointwise filter). */
static void emit_constants(StrBuf *s, const Conv *c)
{
    if (c->k > 1) {
        sb_printf(s, "enum { K = %d", c->k);
        if (c->stride > 1)
            sb_printf(s, ", STRIDE = %d", c->stride);
        if (c->pad && c->kind != C_CAUSAL)
            sb_printf(s, ", PAD = %d", c->pad);
        if (c->dil > 1)
            sb_printf(s, ", DIL = %d", c->dil);
        if (c->kind == C_GROUP)
            sb_printf(s, ", GROUPS = %d", c->groups);
        sb_append(s, " };\n\n");
    }
}

/* Appends src with every line's first `drop` spaces removed and every
 * "(size_t)" cast spelled "(long long)", the CUDA side's 64-bit index. */
static void append_reindented(StrBuf *k, const char *src, int drop)
{
    for (const char *line = src; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        int d = 0;
        while (d < drop && line[d] == ' ')
            d++;
        for (const char *c = line + d; c < line + len; c++) {
            if (strncmp(c, "(size_t)", 8) == 0) {
                sb_append(k, "(long long)");
                c += 7;
            } else {
                sb_putc(k, *c);
            }
        }
        line += len;
    }
}

/* The pair: one thread per output element, accumulating exactly as the C
 * loop body does (same taps, same order).  Threads run along the output
 * position for NCL and along the output channel for NLC, the contiguous
 * dimension of y in each layout, so y[idx] is the thread's own element. */
static void emit_cuda(GenProgram *p, const Conv *c, TmplSubs *sub, const char *lout_code, const char *lo_m)
{
    int dw = c->kind == C_DW || c->kind == C_CAUSAL;
    int same_c = dw || c->kind == C_RESID;
    const char *co = same_c ? "c" : "cout", *och = dw ? "ch" : "co";
    const char *lo = strcmp(lout_code, "l") != 0 ? "lout" : "l";
    StrBuf *k = gen_cuda_src(p);
    sb_printf(k, "/* One thread per output element y[b][%s][o], %s fastest. */\n", och,
              c->nlc ? "the channel" : "the position");
    emit_constants(k, c);
    act_fn(k, sub, c->act, 1);
    StrBuf sig = STRBUF_INIT;
    tmpl_expand(&sig, sub, "extern \"C\" __global__ void conv1d(const @T *__restrict__ x, const @T *__restrict__ w, ");
    if (c->bias)
        tmpl_expand(&sig, sub, "const @T *__restrict__ bias, ");
    tmpl_expand(&sig, sub, same_c ? "@T *__restrict__ y, int n, int c, int l)\n"
                                  : "@T *__restrict__ y, int n, int cin, int cout, int l)\n");
    tmpl_put_wrapped(k, sig.data);
    sb_release(&sig);
    sb_append(k, "{\n");
    if (strcmp(lo, "lout") == 0)
        tmpl_expand(k, sub, "    const int lout = @LOUT;\n");
    if (c->kind == C_GROUP)
        sb_append(k, "    const int cin_g = cin / GROUPS, cout_g = cout / GROUPS;\n");
    sb_printf(k, "    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (idx >= (long long)n * %s * %s)\n        return;\n", co, lo);
    if (c->nlc)
        sb_printf(k, "    const int %s = (int)(idx %% %s);\n    const int o = (int)(idx / %s %% %s);\n", och, co, co, lo);
    else
        sb_printf(k, "    const int o = (int)(idx %% %s);\n    const int %s = (int)(idx / %s %% %s);\n", lo, och, lo, co);
    sb_printf(k, "    const int b = (int)(idx / ((long long)%s * %s));\n", co, lo);
    tmpl_set(sub, "OCH", och);
    tmpl_expand(k, sub, c->bias ? "    @T acc = bias[@OCH];\n" : "    @T acc = 0;\n");
    if (c->kind == C_GROUP)
        sb_append(k, "    const int g = co / cout_g;\n");
    StrBuf acc = STRBUF_INIT;
    emit_accumulation(&acc, sub, c, dw);
    append_reindented(k, acc.data, 12);
    sb_release(&acc);
    sb_printf(k, "    y[idx] = %s;\n}\n", c->act == A_RELU ? "relu(acc)" : c->act == A_SILU ? "silu(acc)" : "acc");
    wrap_products(k);

    char grid[128], args[64];
    snprintf(grid, sizeof grid, "(n*%s*%s+255)/256", co, lo_m);
    snprintf(args, sizeof args, "x,w,%sy,n,%s,l", c->bias ? "bias," : "", same_c ? "c" : "cin,cout");
    gen_launch(p, "conv1d", grid, "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-output-per-thread");
}

static void program(GenProgram *p, const Conv *c, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    int es = f64 ? 8 : 4;
    int dw = c->kind == C_DW || c->kind == C_CAUSAL;
    int same_c = dw || c->kind == C_RESID;  /* one channel count c */
    TmplSubs sub;
    tmpl_init(&sub, f64);
    char lout_code[64], lout_meta[64];
    out_len(c, lout_code, sizeof lout_code, lout_meta, sizeof lout_meta);

    /* Arguments. */
    char xs[32], ws[32], ys[48];
    if (same_c) {
        snprintf(xs, sizeof xs, c->nlc ? "n,l,c" : "n,c,l");
        snprintf(ws, sizeof ws, c->kind == C_RESID ? "c,c,%d" : (c->nlc ? "%d,c" : "c,%d"), c->k);
        snprintf(ys, sizeof ys, c->nlc ? "n,%s,c" : "n,c,%s", lout_meta);
    } else {
        snprintf(xs, sizeof xs, c->nlc ? "n,l,cin" : "n,cin,l");
        if (c->kind == C_TRANS)
            snprintf(ws, sizeof ws, c->nlc ? "%d,cin,cout" : "cin,cout,%d", c->k);
        else if (c->kind == C_GROUP)
            snprintf(ws, sizeof ws, c->nlc ? "%d,cin/%d,cout" : "cout,cin/%d,%d", c->nlc ? c->k : c->groups,
                     c->nlc ? c->groups : c->k);
        else
            snprintf(ws, sizeof ws, c->nlc ? "%d,cin,cout" : "cout,cin,%d", c->k);
        snprintf(ys, sizeof ys, c->nlc ? "n,%s,cout" : "n,cout,%s", lout_meta);
    }
    gen_arg(p, "x", dt, "in", xs);
    gen_arg(p, "w", dt, "in", ws);
    gen_fill_uniform(p, "w", -0.5, 0.5);
    if (c->bias)
        gen_arg(p, "bias", dt, "in", same_c ? "c" : "cout");
    gen_arg(p, "y", dt, "out", ys);
    gen_arg(p, "n", "i32", "param", NULL);
    if (same_c) {
        gen_arg(p, "c", "i32", "param", NULL);
    } else {
        gen_arg(p, "cin", "i32", "param", NULL);
        gen_arg(p, "cout", "i32", "param", NULL);
    }
    gen_arg(p, "l", "i32", "param", NULL);

    /* Configs. */
    char cfg[96];
    int lmin = min_len(c);
    int G = c->groups;
    int big_l = c->k == 1 ? 65536 : c->kind == C_TRANS ? 16384 : 32768;
    if (same_c) {
        int cl = c->kind == C_RESID ? 64 : 256;
        int ln = c->kind == C_RESID ? 32768 : 65536;
        gen_config(p, "small", "n=2,c=24,l=300");
        snprintf(cfg, sizeof cfg, "n=1,c=1,l=%d", lmin);
        gen_config(p, "edge", cfg);
        gen_config(p, "edge-prime", "n=3,c=7,l=53");
        snprintf(cfg, sizeof cfg, "n=%d,c=%d,l=%d", c->kind == C_RESID ? 16 : 8, cl, ln);
        gen_config(p, "large", cfg);
    } else {
        snprintf(cfg, sizeof cfg, "n=2,cin=%d,cout=%d,l=200", 16, 32);
        gen_config(p, "small", cfg);
        snprintf(cfg, sizeof cfg, "n=1,cin=%d,cout=%d,l=%d", G, G, lmin);
        gen_config(p, "edge", cfg);
        snprintf(cfg, sizeof cfg, "n=3,cin=%d,cout=%d,l=%d", G > 1 ? 3 * G : 5, G > 1 ? 5 * G : 7,
                 lmin > 37 ? 41 : 37);
        gen_config(p, "edge-prime", cfg);
        snprintf(cfg, sizeof cfg, "n=16,cin=64,cout=64,l=%d", big_l);
        gen_config(p, "large", cfg);
    }

    /* Cost: 2 flops per multiply-add.  lo_m: the output length, parenthesised when compound. */
    char lo_m[72];
    snprintf(lo_m, sizeof lo_m, strcmp(lout_meta, "l") == 0 ? "%s" : "(%s)", lout_meta);
    char flops[96], bytes[128];
    if (dw) {
        snprintf(flops, sizeof flops, "%d*n*c*%s", 2 * c->k, lo_m);
        snprintf(bytes, sizeof bytes, "%d*n*c*l+%d*n*c*%s+%d*c", es, es, lo_m, es * (c->k + c->bias));
    } else if (c->kind == C_RESID) {
        snprintf(flops, sizeof flops, "%d*n*c*c*l+2*n*c*l", 2 * c->k);
        snprintf(bytes, sizeof bytes, "%d*n*c*l+%d*c*c+%d*c", 2 * es, es * c->k, es);
    } else if (c->kind == C_TRANS) {
        snprintf(flops, sizeof flops, "%d*n*cin*cout*l", 2 * c->k);
        snprintf(bytes, sizeof bytes, "%d*n*cin*l+%d*n*cout*%s+%d*cin*cout%s", es, es, lo_m, es * c->k,
                 c->bias ? (f64 ? "+8*cout" : "+4*cout") : "");
    } else {
        char per_g[8] = "";
        if (G > 1)
            snprintf(per_g, sizeof per_g, "/%d", G);
        snprintf(flops, sizeof flops, "%d*n*cout*%s*cin%s", 2 * c->k, lo_m, per_g);
        snprintf(bytes, sizeof bytes, "%d*n*cin*l+%d*n*cout*%s+%d*cin*cout%s%s", es, es, lo_m, es * c->k, per_g,
                 c->bias ? (f64 ? "+8*cout" : "+4*cout") : "");
    }
    gen_cost(p, flops, bytes);
    gen_tolerance(p, f64 ? 1e-9 : 1e-4, f64 ? 1e-7 : 1e-3);

    /* Source. */
    StrBuf *s = gen_src(p);
    const char *what = c->kind == C_DW ? "Depthwise 1D convolution"
                       : c->kind == C_CAUSAL ? "Causal depthwise 1D convolution"
                       : c->kind == C_GROUP ? "Grouped 1D convolution"
                       : c->kind == C_TRANS ? "Transposed 1D convolution"
                       : c->kind == C_CIRC ? "1D convolution with circular padding"
                       : c->kind == C_RESID ? "1D convolution with a residual add"
                                            : "1D convolution";
    sb_printf(s, "/* %s, %s layout", what, c->nlc ? "channels-last (NLC)" : "NCL");
    if (c->kind == C_TRANS) {
        sb_printf(s, ", kernel %d, stride %d, padding %d:\n"
                     " * y[b][co][o] = %ssum over ci, k with o = i * %d - %d + k of x[b][ci][i] * w[ci][co][k];\n"
                     " * l_out = (l - 1) * %d - %d + %d.",
                  c->k, c->stride, c->pad, c->bias ? "bias[co] + " : "", c->stride, c->pad, c->stride, 2 * c->pad,
                  c->k);
    } else if (dw) {
        sb_printf(s, ", kernel %d", c->k);
        if (c->kind == C_CAUSAL)
            sb_printf(s, " (left padding %d only):\n"
                         " * y[b][ch][o] = %s(%ssum_k x[b][ch][o - %d + k] * w[ch][k]), x = 0 before the start.",
                      c->k - 1, c->act == A_SILU ? "silu" : "", c->bias ? "bias[ch] + " : "", c->k - 1);
        else
            sb_printf(s, ", stride %d, zero padding %d:\n"
                         " * y[b][ch][o] = %ssum_k x[b][ch][o * %d - %d + k] * w[ch][k].",
                      c->stride, c->pad, c->bias ? "bias[ch] + " : "", c->stride, c->pad);
    } else {
        if (c->k == 1)
            sb_append(s, ", pointwise (kernel 1)");
        else
            sb_printf(s, ", kernel %d", c->k);
        if (c->stride > 1)
            sb_printf(s, ", stride %d", c->stride);
        if (c->dil > 1)
            sb_printf(s, ", dilation %d", c->dil);
        if (c->k > 1)
            sb_printf(s, ", %s padding %d", c->kind == C_CIRC ? "circular" : "zero", c->pad);
        if (c->kind == C_GROUP)
            sb_printf(s, ", %d groups", G);
        char tap[80];
        if (c->k == 1)
            snprintf(tap, sizeof tap, "sum over ci of x[b][ci][o] * w[co][ci]");
        else
            snprintf(tap, sizeof tap, "sum over ci, k of x[b][ci][o%s%s + k%s] * w[co][ci][k]",
                     c->stride == 2 ? " * 2" : c->stride == 5 ? " * 5" : "",
                     c->pad == 1 ? " - 1" : c->pad == 2 ? " - 2" : c->pad == 3 ? " - 3" : c->pad == 4 ? " - 4" : "",
                     c->dil == 2 ? " * 2" : c->dil == 4 ? " * 4" : "");
        sb_printf(s, ":\n * y[b][co][o] = %s%s%s%s%s", c->act == A_RELU ? "relu(" : "", c->bias ? "bias[co] + " : "",
                  tap, c->act == A_RELU ? ")" : "", c->kind == C_RESID ? " + x[b][co][o]" : "");
        if (c->kind == C_GROUP)
            sb_printf(s, ",\n * ci running over the cin / %d input channels of co's group", G);
        if (c->kind == C_CIRC)
            sb_append(s, ",\n * positions outside [0, l) wrapping around");
        sb_append(s, ".");
    }
    if (c->nlc)
        sb_printf(s, "\n * x is n x l x %s, y n x l_out x %s; w is %s.", same_c ? "c" : "cin", same_c ? "c" : "cout",
                  dw ? "k x c" : c->kind == C_GROUP ? "k x (cin / groups) x cout" : "k x cin x cout");
    sb_append(s, " */\n");
    if (c->act == A_SILU)
        sb_append(s, "#include <math.h>\n");
    sb_append(s, "#include <stddef.h>\n\n");

    /* Constants. */
    emit_constants(s, c);
    act_fn(s, &sub, c->act, 0);

    /* Index expressions. */
    const char *ci = same_c ? "c" : "cin", *co = same_c ? "c" : "cout";
    char X[96], W[96], Y[96];
    const char *xch = dw ? "ch" : "ci";
    const char *ych = dw ? "ch" : "co";
    if (c->nlc)
        snprintf(X, sizeof X, "x[((size_t)b * l + pos) * %s + %s]", ci, xch);
    else
        snprintf(X, sizeof X, "x[((size_t)b * %s + %s) * l + pos]", ci, xch);
    const char *lo = strcmp(lout_code, "l") != 0 ? "lout" : "l";
    if (c->nlc)
        snprintf(Y, sizeof Y, "y[((size_t)b * %s + o) * %s + %s]", lo, co, ych);
    else
        snprintf(Y, sizeof Y, "y[((size_t)b * %s + %s) * %s + o]", co, ych, lo);
    if (dw)
        snprintf(W, sizeof W, c->nlc ? "w[k * c + ch]" : "w[ch * K + k]");
    else if (c->kind == C_TRANS)
        snprintf(W, sizeof W, c->nlc ? "w[(k * cin + ci) * cout + co]" : "w[(ci * cout + co) * K + k]");
    else if (c->kind == C_GROUP)
        snprintf(W, sizeof W, c->nlc ? "w[(k * cin_g + cg) * cout + co]" : "w[(co * cin_g + cg) * K + k]");
    else
        snprintf(W, sizeof W, c->nlc ? "w[(k * %s + ci) * %s + co]" : "w[(co * %s + ci) * K + k]", ci, co);
    if (c->nlc && !dw && c->kind != C_TRANS && c->kind != C_GROUP) {
        char tmp[96];
        snprintf(tmp, sizeof tmp, W, ci, co);
        snprintf(W, sizeof W, "%s", tmp);
    }
    if (c->k == 1) {
        /* A pointwise filter reads input position o itself. */
        char *pos = strstr(X, "pos");
        memmove(pos + 1, pos + 3, strlen(pos + 3) + 1);
        pos[0] = 'o';
        snprintf(W, sizeof W, c->nlc ? "w[ci * %s + co]" : "w[co * %s + ci]", c->nlc ? co : ci);
    }
    tmpl_set(&sub, "X", X);
    tmpl_set(&sub, "W", W);
    tmpl_set(&sub, "Y", Y);
    tmpl_set(&sub, "LOUT", lout_code);
    tmpl_set(&sub, "CIN", ci);

    /* Signature. */
    {
        StrBuf sig = STRBUF_INIT;
        tmpl_expand(&sig, &sub, "void conv1d(const @T *x, const @T *w, ");
        if (c->bias)
            tmpl_expand(&sig, &sub, "const @T *bias, ");
        tmpl_expand(&sig, &sub, same_c ? "@T *y, int n, int c, int l)" : "@T *y, int n, int cin, int cout, int l)");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
    }
    sb_append(s, "\n{\n");
    if (strcmp(lout_code, "l") != 0)
        tmpl_expand(s, &sub, "    int lout = @LOUT;\n");
    if (c->kind == C_GROUP)
        sb_append(s, "    int cin_g = cin / GROUPS, cout_g = cout / GROUPS;\n");

    /* Loops: batch, then output position and channel in memory order. */
    const char *och = dw ? "ch" : "co";
    sb_append(s, "    for (int b = 0; b < n; b++)\n");
    if (c->nlc)
        sb_printf(s, "        for (int o = 0; o < %s; o++)\n            for (int %s = 0; %s < %s; %s++) {\n", lo, och,
                  och, co, och);
    else
        sb_printf(s, "        for (int %s = 0; %s < %s; %s++)\n            for (int o = 0; o < %s; o++) {\n", och,
                  och, co, och, lo);
    tmpl_set(&sub, "OCH", och);
    tmpl_expand(s, &sub, c->bias ? "                @T acc = bias[@OCH];\n" : "                @T acc = 0;\n");
    if (c->kind == C_GROUP)
        sb_append(s, "                int g = co / cout_g;\n");

    /* The accumulation. */
    emit_accumulation(s, &sub, c, dw);
    if (c->act == A_RELU)
        tmpl_expand(s, &sub, "                @Y = relu(acc);\n");
    else if (c->act == A_SILU)
        tmpl_expand(s, &sub, "                @Y = silu(acc);\n");
    else
        tmpl_expand(s, &sub, "                @Y = acc;\n");
    sb_append(s, "            }\n}\n");
    wrap_products(s);
    emit_cuda(p, c, &sub, lout_code, lo_m);
}

static int generate(GenCtx *g)
{
    int n = (int)(sizeof CONVS / sizeof CONVS[0]);
    static const char *const KIND[] = {"conv", "dw", "group", "causal-dw", "transposed", "circular", "residual"};
    for (int i = 0; i < n; i++)
        for (int f64 = 0; f64 < 2; f64++) {
            const Conv *c = &CONVS[i];
            char variant[96];
            int o = snprintf(variant, sizeof variant, "%s-%s-k%d", KIND[c->kind], c->nlc ? "nlc" : "ncl", c->k);
            if (c->stride > 1)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-s%d", c->stride);
            if (c->kind != C_CAUSAL)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-p%d", c->pad);
            if (c->dil > 1)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-d%d", c->dil);
            if (c->kind == C_GROUP)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-g%d", c->groups);
            if (c->bias)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-bias");
            if (c->act)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-%s", c->act == A_RELU ? "relu" : "silu");
            snprintf(variant + o, sizeof variant - (size_t)o, "-%s", f64 ? "f64" : "f32");
            GenProgram *p = gen_begin(g, variant, "conv1d");
            gen_describe(p, "%s 1D convolution, kernel %d, stride %d, padding %d, dilation %d (%s)", KIND[c->kind],
                         c->k, c->stride, c->pad, c->dil, f64 ? "f64" : "f32");
            program(p, c, f64);
            if (gen_end(p) != 0)
                return -1;
        }
    return 0;
}

const Family family_conv1d = {"conv1d", "convolution", 54, generate};
