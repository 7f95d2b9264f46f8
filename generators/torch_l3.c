/* torch_l3.c — level 3 PyTorch programs: small architectures written with
 * basic operators (no fused library blocks such as
 * nn.TransformerEncoderLayer): MLP and SwiGLU blocks, self-attention, a
 * transformer encoder layer, ResNet basic and bottleneck blocks, a
 * depthwise-separable convolution, LSTM and GRU cells unrolled over a few
 * steps, a mixture-of-experts router (top-k gating), a squeeze-and-
 * excitation block and a ViT patch embedding.  One family per architecture
 * ("torch_l3_<name>"); its programs vary the dtype, the sizes and the
 * architecture's options (activation, norm placement, stride, heads, k).
 * Every program is written with its reference CUDA implementation: forward()
 * as a sequence of kernels over scratch buffers (the cu_* functions). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "torch_cuda.h"
#include "torch_families.h"
#include "torch_stage.h"

typedef struct Arch {
    const char *name;
    int count;
    void (*build)(TorchProg *t, GenCtx *g, int i);
} Arch;

/* ---- shared pieces ---- */

static const char *pick_act(int i)
{
    return (const char *[]){"F.gelu", "torch.relu", "F.silu"}[i % 3];
}

/* [B, L, E] with E = heads * head_dim in every config. */
static void seq_params(TorchProg *t, GenCtx *g, int i, int heads)
{
    tp_param(t, "B", gen_randint(g, 2, 3), (int64_t[]){8, 16, 4, 12, 6, 10}[i % 6], 1);
    tp_param(t, "L", 8 * gen_randint(g, 1, 3), (int64_t[]){512, 1024, 256, 768}[i % 4] + 128 * (i / 12), 13);
    tp_param(t, "E", heads * 8 * gen_randint(g, 1, 2), heads * (i % 2 ? 64 : 96), heads * 3);
    tp_input(t, "x", "B,L,E", -1, 1);
}

static void img_params(TorchProg *t, GenCtx *g, int i, int cout_mult)
{
    tp_param(t, "B", gen_randint(g, 2, 3), (int64_t[]){16, 8, 32, 12, 24, 20}[i % 6], 1);
    tp_param(t, "C", 4 * gen_randint(g, 1, 2), i < 12 ? 64 : 96, 4);
    tp_param(t, "H", gen_randint(g, 8, 14), (int64_t[]){56, 112, 64, 96}[i % 4], 17);
    tp_param(t, "W", gen_randint(g, 8, 14), (int64_t[]){56, 112, 64, 96}[(i + 1) % 4], 13);
    tp_param(t, "COUT", cout_mult * 4 * gen_randint(g, 1, 2), cout_mult * 64, cout_mult * 4);
    tp_input(t, "x", "B,C,H,W", -1, 1);
}

static void linear_w(TorchProg *t, const char *name, const char *out, const char *in, int bias)
{
    char key[64], shape[128];
    snprintf(key, sizeof key, "%s.weight", name);
    snprintf(shape, sizeof shape, "%s,%s", out, in);
    tp_weight(t, key, NULL, shape);
    if (bias) {
        snprintf(key, sizeof key, "%s.bias", name);
        tp_weight(t, key, NULL, out);
    }
}

static void norm_w(TorchProg *t, const char *name, const char *n)
{
    char key[64];
    snprintf(key, sizeof key, "%s.weight", name);
    tp_weight(t, key, NULL, n);
    snprintf(key, sizeof key, "%s.bias", name);
    tp_weight(t, key, NULL, n);
}

static void bn_w(TorchProg *t, const char *name, const char *n)
{
    char key[64];
    norm_w(t, name, n);
    snprintf(key, sizeof key, "%s.running_mean", name);
    tp_weight(t, key, NULL, n);
    snprintf(key, sizeof key, "%s.running_var", name);
    tp_weight(t, key, NULL, n);
    snprintf(key, sizeof key, "%s.num_batches_tracked", name);
    tp_weight(t, key, "i64", "");
}

static void conv_w(TorchProg *t, const char *name, const char *out, const char *in_per_group, int k)
{
    char key[64], shape[160];
    snprintf(key, sizeof key, "%s.weight", name);
    snprintf(shape, sizeof shape, "%s,%s,%d,%d", out, in_per_group, k, k);
    tp_weight(t, key, NULL, shape);
}

/* A helper that gives BatchNorm layers fixed, non-trivial statistics. */
static void bn_helper(TorchProg *t)
{
    tp_helper(t, "def _set_bn(bn):\n"
                 "    n = bn.num_features\n"
                 "    with torch.no_grad():\n"
                 "        bn.weight.copy_(torch.linspace(0.5, 1.5, n))\n"
                 "        bn.bias.copy_(torch.linspace(-0.2, 0.2, n))\n"
                 "        bn.running_mean.copy_(torch.linspace(-0.3, 0.3, n))\n"
                 "        bn.running_var.copy_(torch.linspace(0.5, 2.0, n))\n"
                 "    return bn.eval()\n");
}

static double tol_loose(int deep)
{
    return deep ? 400 : 100;
}

/* ---- the reference CUDA implementation ----
 *
 * Each architecture's forward() as a sequence of kernels over scratch
 * buffers, one kernel per operator.  The common operators (nn.Linear,
 * LayerNorm, RMSNorm, BatchNorm, Conv2d, softmax, means, activations,
 * residual adds) come from torch_cuda.h's emitters; what is specific to
 * these architectures (attention's scores and weighted sum over the packed
 * qkv rows, the LSTM/GRU gate updates, the MoE router and gated experts,
 * the SE channel scaling, the patch embedding) is written here, once per
 * program, with one thread per output element in 256-thread blocks. */

/* Appends `tmpl` to kernel.cu, "$T" replaced by the element type, unless the
 * text holding `key` (a kernel's or helper's signature) is already there:
 * a kernel written here serves every launch of its operator. */
static void cu_text(TorchProg *t, const char *key, const char *tmpl)
{
    const StrBuf *src = gen_cuda_src(tp_gen(t));
    if (src->len && strstr(src->data, key))
        return;
    StrBuf out = STRBUF_INIT;
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '$' && p[1] == 'T') {
            sb_append(&out, tc_type(t));
            p++;
        } else {
            sb_putc(&out, *p);
        }
    }
    tc_cuda(t, "%s\n", sb_str(&out));
    sb_release(&out);
}

/* Kernel `name` (a template as for cu_text), written once per program. */
static void cu_kernel(TorchProg *t, const char *name, const char *tmpl)
{
    char key[96];
    snprintf(key, sizeof key, "__global__ void %s(", name);
    cu_text(t, key, tmpl);
}

/* An expression, printf-style, kept until tp_end. */
static const char *cu_expr(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *cu_expr(TorchProg *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tp_keep(t, xstrdup(buf));
}

/* A scratch buffer of `count` elements, printf-style. */
static const char *cu_scratch(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *cu_scratch(TorchProg *t, const char *fmt, ...)
{
    char count[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(count, sizeof count, fmt, ap);
    va_end(ap);
    return tc_scratch(t, count);
}

/* One launch over `count` elements (one thread each, 256-thread blocks);
 * args as printf, sizes parenthesised (as torch_cuda.h passes them: the
 * kernels take 32-bit ints). */
static void cu_launch(TorchProg *t, const char *kernel, const char *count, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void cu_launch(TorchProg *t, const char *kernel, const char *count, const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *grid = xasprintf("((%s)+255)/256", count);
    gen_launch(tp_gen(t), kernel, grid, "256", NULL, args);
    free(grid);
}

static const char ROUND_T[] =
    "// v as the program's dtype holds it: torch rounds every operator's result.\n"
    "static __device__ __forceinline__ float round_t(float v)\n"
    "{\n"
    "    $T r;\n"
    "    tc_st(&r, 0, v);\n"
    "    return tc_ld(&r, 0);\n"
    "}\n";

static void cu_round_helper(TorchProg *t)
{
    cu_text(t, "float round_t(", ROUND_T);
}

/* ---- operators ---- */

/* y = act(x) over n elements, the activation by its Python spelling
 * (F.relu6 is the plain one, tc_relu6). */
static void cu_act(TorchProg *t, const char *act, const char *x, const char *y, const char *n)
{
    static const char *const MAP[][2] = {
        {"F.gelu", "gelu"}, {"torch.relu", "relu"}, {"F.silu", "silu"}, {"torch.sigmoid", "sigmoid"}};
    for (size_t a = 0; a < sizeof MAP / sizeof *MAP; a++)
        if (strcmp(MAP[a][0], act) == 0) {
            tc_act(t, MAP[a][1], x, y, n);
            return;
        }
    if (strcmp(act, "F.relu6") == 0)
        tc_relu6(t, x, y, n);
    else
        tp_fail(t, "no CUDA for activation %s", act);
}

/* conv (square kernel k, stride, pad; no bias) -> BatchNorm2d in eval mode
 * -> act (NULL: none), the convolutional blocks' unit, into a new scratch
 * buffer [batch, cout, ho, wo] that it returns.  conv and bn are the
 * modules' names. */
static const char *cu_conv_bn(TorchProg *t, const char *x, const char *conv, const char *bn, const char *act,
                              const char *batch, const char *cin, const char *h, const char *wd, const char *cout,
                              const char *ho, const char *wo, int k, int stride, int pad, const char *groups)
{
    const char *n = cu_expr(t, "(%s)*(%s)*(%s)*(%s)", batch, cout, ho, wo);
    const char *c = cu_scratch(t, "%s", n), *b = cu_scratch(t, "%s", n);
    TcConv cv = {.dims = 2, .batch = batch, .cin = cin, .cout = cout, .in_size = {h, wd}, .out_size = {ho, wo},
                 .k = {k, k}, .stride = {stride, stride}, .pad = {pad, pad}, .dil = {1, 1}, .groups = groups};
    tc_conv(t, &cv, x, cu_expr(t, "w.%s.weight", conv), NULL, c);
    tc_batchnorm(t, c, cu_expr(t, "w.%s.weight", bn), cu_expr(t, "w.%s.bias", bn),
                 cu_expr(t, "w.%s.running_mean", bn), cu_expr(t, "w.%s.running_var", bn), b, n, cout,
                 cu_expr(t, "(%s)*(%s)", ho, wo), 1e-5);
    if (!act)
        return b;
    const char *a = cu_scratch(t, "%s", n);
    cu_act(t, act, b, a, n);
    return a;
}

/* nn.LayerNorm(E) module `name` over the B*L rows of [B, L, E]. */
static void cu_layernorm(TorchProg *t, const char *in, const char *name, const char *out, const char *rows)
{
    tc_layernorm(t, in, cu_expr(t, "w.%s.weight", name), cu_expr(t, "w.%s.bias", name), out, rows, "E", 1e-5);
}

/* Multi-head self-attention of `in` [B*L, E] into y [B*L, E], as
 * attention_lines writes it: qkv projection, scaled scores (masked above the
 * diagonal when causal), softmax over keys, weighted sum of the values with
 * the heads side by side, output projection. */
static void cu_attention(TorchProg *t, const char *in, const char *y, int heads, int causal)
{
    const char *hd = cu_expr(t, "E/%d", heads), *ns = cu_expr(t, "B*%d*L*L", heads);
    const char *qkv = cu_scratch(t, "B*L*3*E"), *s = cu_scratch(t, "%s", ns), *p = cu_scratch(t, "%s", ns);
    const char *o = cu_scratch(t, "B*L*E");
    tc_linear(t, in, "w.qkv.weight", "w.qkv.bias", qkv, "B*L", "E", "3*E");
    const char *name = causal ? "attn_scores_causal" : "attn_scores";
    char *tmpl = xasprintf(
        "// s[b][h][i][j] = (q_i . k_j) / sqrt(d) for head h, with q, k and v read from the rows\n"
        "// of qkv [B, L, 3, H, d] (the reshape/permute of the Python).%s  One thread per score.\n"
        "extern \"C\" __global__ void %s(const $T *__restrict__ qkv, $T *__restrict__ s, int batch,\n"
        "%*sint len, int heads, int d)\n"
        "{\n"
        "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= (long long)batch * heads * len * len)\n"
        "        return;\n"
        "    const int kj = (int)(i %% len);\n"
        "    const int qi = (int)(i / len %% len);\n"
        "    const int h = (int)(i / ((long long)len * len) %% heads);\n"
        "    const long long b = i / ((long long)len * len * heads);\n"
        "%s"
        "    const long long e = (long long)heads * d;\n"
        "    const long long q = ((b * len + qi) * 3 + 0) * e + (long long)h * d;\n"
        "    const long long k = ((b * len + kj) * 3 + 1) * e + (long long)h * d;\n"
        "    float dot = 0.0f;\n"
        "    for (int c = 0; c < d; c++)\n"
        "        dot += tc_ld(qkv, q + c) * tc_ld(qkv, k + c);\n"
        "    tc_st(s, i, round_t(dot) * rsqrtf((float)d));\n"
        "}\n",
        causal ? "\n// Causal: keys after the query are masked to -inf." : "", name,
        (int)(strlen("extern \"C\" __global__ void (") + strlen(name)), "",
        causal ? "    if (kj > qi) {\n"
                 "        tc_st(s, i, __int_as_float(0xff800000)); // -inf\n"
                 "        return;\n"
                 "    }\n"
               : "");
    cu_round_helper(t);
    cu_kernel(t, name, tmpl);
    free(tmpl);
    cu_launch(t, name, ns, "%s,%s,(B),(L),(%d),(%s)", qkv, s, heads, hd);
    tc_softmax(t, s, p, cu_expr(t, "B*%d*L", heads), "L", "1", 0);
    cu_kernel(t, "attn_values",
              "// o[b][i][h*d + c] = sum_j p[b][h][i][j] * v_j[h][c]: the heads' outputs side by side\n"
              "// ((att @ v).transpose(1, 2).reshape(b, l, e)).  One thread per output.\n"
              "extern \"C\" __global__ void attn_values(const $T *__restrict__ p, const $T *__restrict__ qkv,\n"
              "                                       $T *__restrict__ o, int batch, int len, int heads, int d)\n"
              "{\n"
              "    const long long e = (long long)heads * d;\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= (long long)batch * len * e)\n"
              "        return;\n"
              "    const int c = (int)(i % d);\n"
              "    const int h = (int)(i / d % heads);\n"
              "    const int qi = (int)(i / e % len);\n"
              "    const long long b = i / (e * len);\n"
              "    const long long row = ((b * heads + h) * len + qi) * len;\n"
              "    float acc = 0.0f;\n"
              "    for (int j = 0; j < len; j++)\n"
              "        acc += tc_ld(p, row + j) * tc_ld(qkv, ((b * len + j) * 3 + 2) * e + (long long)h * d + c);\n"
              "    tc_st(o, i, acc);\n"
              "}\n");
    cu_launch(t, "attn_values", "B*L*E", "%s,%s,%s,(B),(L),(%d),(%s)", p, qkv, o, heads, hd);
    tc_linear(t, o, "w.proj.weight", "w.proj.bias", y, "B*L", "E", "E");
}

/* Steps the launch plan holds: the largest T of any config.  A step past
 * a config's own T still projects h (harmlessly, into scratch), but its
 * cell update returns at once. */
static int cu_max_steps(TorchProg *t)
{
    int steps = 1;
    for (int c = 0; c < TP_NCFG; c++) {
        int64_t v = tp_eval(t, "T", c);
        if (v > steps)
            steps = (int)v;
    }
    return steps;
}

/* ---- each architecture's kernels ---- */

static void cu_mlp_block(TorchProg *t, int prenorm, int three, int mult, const char *act)
{
    const char *h = "x", *hid = cu_expr(t, "%d*E", mult), *nh = cu_expr(t, "B*L*%d*E", mult);
    if (prenorm) {
        h = cu_scratch(t, "B*L*E");
        cu_layernorm(t, "x", "norm", h, "B*L");
    }
    const char *f1 = cu_scratch(t, "%s", nh), *a1 = cu_scratch(t, "%s", nh);
    tc_linear(t, h, "w.fc1.weight", "w.fc1.bias", f1, "B*L", "E", hid);
    cu_act(t, act, f1, a1, nh);
    if (three) {
        const char *fm = cu_scratch(t, "%s", nh), *am = cu_scratch(t, "%s", nh);
        tc_linear(t, a1, "w.fc_mid.weight", "w.fc_mid.bias", fm, "B*L", hid, hid);
        cu_act(t, act, fm, am, nh);
        a1 = am;
    }
    const char *f2 = cu_scratch(t, "B*L*E");
    tc_linear(t, a1, "w.fc2.weight", "w.fc2.bias", f2, "B*L", hid, "E");
    tc_add(t, "x", f2, "out", "B*L*E");
}

static void cu_swiglu(TorchProg *t, int rms)
{
    const char *h = "x", *n2 = "B*L*2*E";
    if (rms) {
        h = cu_scratch(t, "B*L*E");
        tc_rmsnorm(t, "x", "w.norm_weight", h, "B*L", "E", 1e-6);
    }
    const char *g = cu_scratch(t, "%s", n2), *sg = cu_scratch(t, "%s", n2), *u = cu_scratch(t, "%s", n2);
    const char *m = cu_scratch(t, "%s", n2), *d = cu_scratch(t, "B*L*E");
    tc_linear(t, h, "w.w1.weight", NULL, g, "B*L", "E", "2*E");
    tc_act(t, "silu", g, sg, n2);
    tc_linear(t, h, "w.w3.weight", NULL, u, "B*L", "E", "2*E");
    tc_mul(t, sg, u, m, n2);
    tc_linear(t, m, "w.w2.weight", NULL, d, "B*L", "2*E", "E");
    tc_add(t, "x", d, "out", "B*L*E");
}

static void cu_transformer(TorchProg *t, int heads, int prenorm, int causal, const char *act)
{
    const char *n = "B*L*E", *n4 = "B*L*4*E";
    const char *y = cu_scratch(t, "%s", n), *x1 = cu_scratch(t, "%s", n), *f1 = cu_scratch(t, "%s", n4);
    const char *a1 = cu_scratch(t, "%s", n4), *f2 = cu_scratch(t, "%s", n);
    if (prenorm) {
        const char *h = cu_scratch(t, "%s", n), *h2 = cu_scratch(t, "%s", n);
        cu_layernorm(t, "x", "ln1", h, "B*L");
        cu_attention(t, h, y, heads, causal);
        tc_add(t, "x", y, x1, n);
        cu_layernorm(t, x1, "ln2", h2, "B*L");
        tc_linear(t, h2, "w.fc1.weight", "w.fc1.bias", f1, "B*L", "E", "4*E");
        cu_act(t, act, f1, a1, n4);
        tc_linear(t, a1, "w.fc2.weight", "w.fc2.bias", f2, "B*L", "4*E", "E");
        tc_add(t, x1, f2, "out", n);
    } else {
        const char *s1 = cu_scratch(t, "%s", n), *s2 = cu_scratch(t, "%s", n);
        cu_attention(t, "x", y, heads, causal);
        tc_add(t, "x", y, s1, n);
        cu_layernorm(t, s1, "ln1", x1, "B*L");
        tc_linear(t, x1, "w.fc1.weight", "w.fc1.bias", f1, "B*L", "E", "4*E");
        cu_act(t, act, f1, a1, n4);
        tc_linear(t, a1, "w.fc2.weight", "w.fc2.bias", f2, "B*L", "4*E", "E");
        tc_add(t, x1, f2, s2, n);
        cu_layernorm(t, s2, "ln2", "out", "B*L");
    }
}

/* out = relu(main + down_bn(down(x))): the residual blocks' projection
 * shortcut and join. */
static void cu_shortcut_join(TorchProg *t, const char *main, int stride, const char *ho, const char *wo)
{
    const char *d = cu_conv_bn(t, "x", "down", "down_bn", NULL, "B", "C", "H", "W", "COUT", ho, wo, 1, stride, 0, "1");
    const char *n = cu_expr(t, "B*COUT*(%s)*(%s)", ho, wo);
    const char *s = cu_scratch(t, "%s", n);
    tc_add(t, main, d, s, n);
    tc_act(t, "relu", s, "out", n);
}

static void cu_resnet_basic(TorchProg *t, int stride, const char *ho, const char *wo)
{
    const char *h = cu_conv_bn(t, "x", "conv1", "bn1", "torch.relu", "B", "C", "H", "W", "COUT", ho, wo, 3, stride,
                               1, "1");
    h = cu_conv_bn(t, h, "conv2", "bn2", NULL, "B", "COUT", ho, wo, "COUT", ho, wo, 3, 1, 1, "1");
    cu_shortcut_join(t, h, stride, ho, wo);
}

static void cu_resnet_bottleneck(TorchProg *t, int stride, const char *ho, const char *wo)
{
    const char *h = cu_conv_bn(t, "x", "conv1", "bn1", "torch.relu", "B", "C", "H", "W", "COUT/4", "H", "W", 1, 1, 0,
                               "1");
    h = cu_conv_bn(t, h, "conv2", "bn2", "torch.relu", "B", "COUT/4", "H", "W", "COUT/4", ho, wo, 3, stride, 1, "1");
    h = cu_conv_bn(t, h, "conv3", "bn3", NULL, "B", "COUT/4", ho, wo, "COUT", ho, wo, 1, 1, 0, "1");
    cu_shortcut_join(t, h, stride, ho, wo);
}

static void cu_depthwise_separable(TorchProg *t, int k, int stride, const char *act, const char *ho, const char *wo)
{
    const char *h = cu_conv_bn(t, "x", "dw", "bn1", act, "B", "C", "H", "W", "C", ho, wo, k, stride, k / 2, "C");
    const char *b = cu_conv_bn(t, h, "pw", "bn2", NULL, "B", "C", ho, wo, "COUT", ho, wo, 1, 1, 0, "1");
    cu_act(t, act, b, "out", cu_expr(t, "B*COUT*(%s)*(%s)", ho, wo));
}

static void cu_lstm(TorchProg *t)
{
    const char *gx = cu_scratch(t, "T*B*4*HID"), *gh = cu_scratch(t, "B*4*HID");
    tc_linear(t, "x", "w.ih.weight", "w.ih.bias", gx, "T*B", "IN", "4*HID");
    cu_round_helper(t);
    cu_kernel(t, "lstm_cell",
              "// One LSTM step: gates = ih(x[step]) + hh(h) in torch's chunk order (i, f, g, o),\n"
              "// c = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) * tanh(c).  c_in may be\n"
              "// c_out (each thread reads and writes its own element); the plan holds the most steps\n"
              "// of any config, and a step >= steps does nothing.\n"
              "extern \"C\" __global__ void lstm_cell(const $T *__restrict__ gx, const $T *__restrict__ gh,\n"
              "                                     const $T *c_in, $T *h_out, $T *c_out, int batch, int hid,\n"
              "                                     int step, int steps)\n"
              "{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= (long long)batch * hid || step >= steps)\n"
              "        return;\n"
              "    const long long r = i / hid;\n"
              "    const int j = (int)(i % hid);\n"
              "    const long long x_row = ((long long)step * batch + r) * 4 * hid, h_row = r * 4 * hid;\n"
              "    float gate[4];\n"
              "    for (int q = 0; q < 4; q++)\n"
              "        gate[q] = round_t(tc_ld(gx, x_row + q * hid + j) + tc_ld(gh, h_row + q * hid + j));\n"
              "    const float in_gate = 1.0f / (1.0f + expf(-gate[0]));\n"
              "    const float forget = 1.0f / (1.0f + expf(-gate[1]));\n"
              "    const float cell = tanhf(gate[2]);\n"
              "    const float out_gate = 1.0f / (1.0f + expf(-gate[3]));\n"
              "    const float c = round_t(forget * tc_ld(c_in, i) + in_gate * cell);\n"
              "    tc_st(c_out, i, c);\n"
              "    tc_st(h_out, i, out_gate * tanhf(c));\n"
              "}\n");
    int steps = cu_max_steps(t);
    for (int s = 0; s < steps; s++) {
        tc_linear(t, s ? "out0" : "h0", "w.hh.weight", "w.hh.bias", gh, "B", "HID", "4*HID");
        cu_launch(t, "lstm_cell", "B*HID", "%s,%s,%s,out0,out1,(B),(HID),%d,(T)", gx, gh, s ? "out1" : "c0", s);
    }
}

static void cu_gru(TorchProg *t)
{
    const char *gx = cu_scratch(t, "T*B*3*HID"), *gh = cu_scratch(t, "B*3*HID");
    tc_linear(t, "x", "w.ih.weight", "w.ih.bias", gx, "T*B", "IN", "3*HID");
    cu_kernel(t, "gru_cell",
              "// One GRU step from xr, xz, xn = ih(x[step]) and hr, hz, hn = hh(h):\n"
              "// r = sigmoid(xr + hr), z = sigmoid(xz + hz), n = tanh(xn + r * hn),\n"
              "// h = (1 - z) * n + z * h.  h_in may be h_out (each thread reads and writes its own\n"
              "// element); the plan holds the most steps of any config, and a step >= steps does\n"
              "// nothing.\n"
              "extern \"C\" __global__ void gru_cell(const $T *__restrict__ gx, const $T *__restrict__ gh,\n"
              "                                    const $T *h_in, $T *h_out, int batch, int hid, int step, int steps)\n"
              "{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= (long long)batch * hid || step >= steps)\n"
              "        return;\n"
              "    const long long r = i / hid;\n"
              "    const int j = (int)(i % hid);\n"
              "    const long long x_row = ((long long)step * batch + r) * 3 * hid, h_row = r * 3 * hid;\n"
              "    const float reset = 1.0f / (1.0f + expf(-(tc_ld(gx, x_row + j) + tc_ld(gh, h_row + j))));\n"
              "    const float update =\n"
              "        1.0f / (1.0f + expf(-(tc_ld(gx, x_row + hid + j) + tc_ld(gh, h_row + hid + j))));\n"
              "    const float cand = tanhf(tc_ld(gx, x_row + 2 * hid + j) + reset * tc_ld(gh, h_row + 2 * hid + j));\n"
              "    tc_st(h_out, i, (1.0f - update) * cand + update * tc_ld(h_in, i));\n"
              "}\n");
    int steps = cu_max_steps(t);
    for (int s = 0; s < steps; s++) {
        tc_linear(t, s ? "out" : "h0", "w.hh.weight", "w.hh.bias", gh, "B", "HID", "3*HID");
        cu_launch(t, "gru_cell", "B*HID", "%s,%s,%s,out,(B),(HID),%d,(T)", gx, gh, s ? "out" : "h0", s);
    }
}

static void cu_moe(TorchProg *t, int experts, int k)
{
    char *tmpl = xasprintf(
        "// The float32 router of one token per thread: logits = x . w_gate for the %d experts,\n"
        "// probs = softmax(logits), the %d largest kept (the lowest expert on ties) and\n"
        "// renormalised to sum 1, every other expert's gate 0.\n"
        "extern \"C\" __global__ void moe_gates(const $T *__restrict__ x, const $T *__restrict__ w,\n"
        "                                     $T *__restrict__ gates, int tokens, int dim)\n"
        "{\n"
        "    const long long tok = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (tok >= tokens)\n"
        "        return;\n"
        "    float p[%d];\n"
        "    bool kept[%d];\n"
        "    float m = __int_as_float(0xff800000), s = 0.0f; // -inf\n"
        "    for (int e = 0; e < %d; e++) {\n"
        "        float dot = 0.0f;\n"
        "        for (int c = 0; c < dim; c++)\n"
        "            dot += tc_ld(x, tok * dim + c) * tc_ld(w, (long long)e * dim + c);\n"
        "        p[e] = dot;\n"
        "        m = fmaxf(m, dot);\n"
        "        kept[e] = false;\n"
        "    }\n"
        "    for (int e = 0; e < %d; e++) {\n"
        "        p[e] = expf(p[e] - m);\n"
        "        s += p[e];\n"
        "    }\n"
        "    float kept_sum = 0.0f;\n"
        "    for (int r = 0; r < %d; r++) {\n"
        "        int best = -1;\n"
        "        for (int e = 0; e < %d; e++)\n"
        "            if (!kept[e] && (best == -1 || p[e] > p[best]))\n"
        "                best = e;\n"
        "        kept[best] = true;\n"
        "        kept_sum += p[best] / s;\n"
        "    }\n"
        "    for (int e = 0; e < %d; e++)\n"
        "        tc_st(gates, tok * %d + e, kept[e] ? p[e] / s / kept_sum : 0.0f);\n"
        "}\n",
        experts, k, experts, experts, experts, experts, k, experts, experts, experts);
    cu_kernel(t, "moe_gates", tmpl);
    free(tmpl);
    cu_launch(t, "moe_gates", "TOK", "x,w.gate.weight,out1,(TOK),(E)");
    cu_round_helper(t);
    cu_kernel(t, "moe_expert",
              "// out += gates[:, e] * expert_e(x) for expert e (out starts at 0 for expert 0); a token\n"
              "// whose gate for e is 0 adds nothing, so its dot product is skipped.  One thread per\n"
              "// output element; each operator's result rounded to the dtype, as torch does.\n"
              "extern \"C\" __global__ void moe_expert(const $T *__restrict__ x, const $T *__restrict__ w,\n"
              "                                      const $T *__restrict__ b, const $T *__restrict__ gates,\n"
              "                                      $T *__restrict__ out, int tokens, int dim, int experts, int e)\n"
              "{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= (long long)tokens * dim)\n"
              "        return;\n"
              "    const long long tok = i / dim;\n"
              "    const int j = (int)(i % dim);\n"
              "    const float g = tc_ld(gates, tok * experts + e);\n"
              "    float acc = e == 0 ? 0.0f : tc_ld(out, i);\n"
              "    if (g != 0.0f) {\n"
              "        float dot = 0.0f;\n"
              "        for (int c = 0; c < dim; c++)\n"
              "            dot += tc_ld(x, tok * dim + c) * tc_ld(w, (long long)j * dim + c);\n"
              "        acc = round_t(acc + round_t(g * round_t(dot + tc_ld(b, j))));\n"
              "    }\n"
              "    tc_st(out, i, acc);\n"
              "}\n");
    for (int e = 0; e < experts; e++)
        cu_launch(t, "moe_expert", "TOK*E", "x,w.experts.%d.weight,w.experts.%d.bias,out1,out0,(TOK),(E),%d,%d",
                  e, e, experts, e);
}

static void cu_squeeze_excitation(TorchProg *t, int add_mean)
{
    const char *h = cu_conv_bn(t, "x", "conv", "bn", "torch.relu", "B", "C", "H", "W", "COUT", "H", "W", 3, 1, 1, "1");
    const char *s = cu_scratch(t, "B*COUT"), *f1 = cu_scratch(t, "B*(COUT/4)"), *a1 = cu_scratch(t, "B*(COUT/4)");
    const char *f2 = cu_scratch(t, "B*COUT"), *g = cu_scratch(t, "B*COUT");
    tc_reduce(t, "mean", h, s, "B*COUT", "H*W", "1");
    tc_linear(t, s, "w.fc1.weight", "w.fc1.bias", f1, "B", "COUT", "COUT/4");
    tc_act(t, "relu", f1, a1, "B*(COUT/4)");
    tc_linear(t, a1, "w.fc2.weight", "w.fc2.bias", f2, "B", "COUT/4", "COUT");
    tc_act(t, "sigmoid", f2, g, "B*COUT");
    if (!add_mean) {
        cu_kernel(t, "scale_channels",
                  "// y = h * g[:, :, None, None]: each (batch, channel) plane of hw scaled by its gate.\n"
                  "extern \"C\" __global__ void scale_channels(const $T *__restrict__ h, const $T *__restrict__ g,\n"
                  "                                          $T *__restrict__ y, int n, int hw)\n"
                  "{\n"
                  "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i >= n)\n"
                  "        return;\n"
                  "    tc_st(y, i, tc_ld(h, i) * tc_ld(g, i / hw));\n"
                  "}\n");
        cu_launch(t, "scale_channels", "B*COUT*H*W", "%s,%s,out,(B*COUT*H*W),(H*W)", h, g);
        return;
    }
    const char *m = cu_scratch(t, "B*H*W");
    tc_reduce(t, "mean", "x", m, "B", "C", "H*W");
    cu_round_helper(t);
    cu_kernel(t, "scale_channels_add",
              "// y = h * g[:, :, None, None] + m[:, None]: each (batch, channel) plane of hw scaled by\n"
              "// its gate, plus the batch's per-pixel mean m [batch, hw].\n"
              "extern \"C\" __global__ void scale_channels_add(const $T *__restrict__ h, const $T *__restrict__ g,\n"
              "                                              const $T *__restrict__ m, $T *__restrict__ y,\n"
              "                                              int n, int c, int hw)\n"
              "{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= n)\n"
              "        return;\n"
              "    const long long plane = i / hw;\n"
              "    const float scaled = round_t(tc_ld(h, i) * tc_ld(g, plane));\n"
              "    tc_st(y, i, scaled + tc_ld(m, plane / c * hw + i % hw));\n"
              "}\n");
    cu_launch(t, "scale_channels_add", "B*COUT*H*W", "%s,%s,%s,out,(B*COUT*H*W),(COUT),(H*W)", h, g, m);
}

static void cu_vit_patch_embed(TorchProg *t, int p, const char *np)
{
    const char *n = cu_expr(t, "B*%s*E", np);
    const char *h = cu_scratch(t, "%s", n), *s = cu_scratch(t, "%s", n);
    cu_kernel(t, "patch_embed",
              "// nn.Conv2d(c, e, p, stride=p) with bias over NCHW x, written as [B, patches, E]\n"
              "// (proj(x).flatten(2).transpose(1, 2)); patches row-major over the (h/p, wd/p) grid.\n"
              "// One thread per output.\n"
              "extern \"C\" __global__ void patch_embed(const $T *__restrict__ x, const $T *__restrict__ w,\n"
              "                                       const $T *__restrict__ bias, $T *__restrict__ y, int batch,\n"
              "                                       int c, int h, int wd, int e, int p)\n"
              "{\n"
              "    const int gw = wd / p, patches = (h / p) * gw;\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= (long long)batch * patches * e)\n"
              "        return;\n"
              "    const int o = (int)(i % e);\n"
              "    const int patch = (int)(i / e % patches);\n"
              "    const long long b = i / ((long long)e * patches);\n"
              "    const int y0 = patch / gw * p, x0 = patch % gw * p;\n"
              "    float acc = 0.0f;\n"
              "    for (int ci = 0; ci < c; ci++)\n"
              "        for (int ky = 0; ky < p; ky++)\n"
              "            for (int kx = 0; kx < p; kx++)\n"
              "                acc += tc_ld(x, ((b * c + ci) * h + y0 + ky) * wd + x0 + kx) *\n"
              "                       tc_ld(w, (((long long)o * c + ci) * p + ky) * p + kx);\n"
              "    tc_st(y, i, acc + tc_ld(bias, o));\n"
              "}\n");
    cu_launch(t, "patch_embed", n, "x,w.proj.weight,w.proj.bias,%s,(B),(C),(H),(W),(E),%d", h, p);
    tc_bias_channel(t, h, "w.pos", s, n, cu_expr(t, "%s*E", np), "1");
    cu_layernorm(t, s, "norm", "out", cu_expr(t, "B*%s", np));
}

/* ---- architectures ---- */

static void mlp_block(TorchProg *t, GenCtx *g, int i)
{
    seq_params(t, g, i, 4);
    int mult = i % 2 ? 4 : 2, prenorm = i % 4 < 2, three = i % 5 == 4;
    const char *act = pick_act(i);
    char hid[16];
    snprintf(hid, sizeof hid, "%d*E", mult);
    tp_init_arg(t, "dim", "E");
    tp_init_arg(t, "hidden", hid);
    if (prenorm) {
        tp_init(t, "self.norm = nn.LayerNorm(dim)");
        norm_w(t, "norm", "E");
    }
    tp_init(t, "self.fc1 = nn.Linear(dim, hidden)");
    linear_w(t, "fc1", hid, "E", 1);
    if (three) {
        tp_init(t, "self.fc_mid = nn.Linear(hidden, hidden)");
        linear_w(t, "fc_mid", hid, hid, 1);
    }
    tp_init(t, "self.fc2 = nn.Linear(hidden, dim)");
    linear_w(t, "fc2", "E", hid, 1);
    tp_forward(t, "h = %s", prenorm ? "self.norm(x)" : "x");
    tp_forward(t, "h = %s(self.fc1(h))", act);
    if (three)
        tp_forward(t, "h = %s(self.fc_mid(h))", act);
    tp_forward(t, "return x + self.fc2(h)");
    tp_output(t, NULL, "B,L,E");
    char flops[96];
    snprintf(flops, sizeof flops, "%d*B*L*E*E", 4 * mult + (three ? 2 * mult * mult : 0));
    tp_cost(t, flops, NULL);
    tp_describe(t, "residual MLP block (%s%s, hidden %dE%s)", prenorm ? "LayerNorm, " : "", act, mult,
                three ? ", three layers" : "");
    tp_default_tolerance(t, tol_loose(three));
    cu_mlp_block(t, prenorm, three, mult, act);
}

static void swiglu_mlp(TorchProg *t, GenCtx *g, int i)
{
    seq_params(t, g, i, 4);
    int rms = i % 2 == 0;
    tp_init_arg(t, "dim", "E");
    tp_init_arg(t, "hidden", "2*E");
    if (rms) {
        tp_init(t, "self.norm_weight = nn.Parameter(torch.linspace(0.5, 1.5, dim))");
        tp_weight(t, "norm_weight", NULL, "E");
    }
    tp_init(t, "self.w1 = nn.Linear(dim, hidden, bias=False)");
    tp_init(t, "self.w3 = nn.Linear(dim, hidden, bias=False)");
    tp_init(t, "self.w2 = nn.Linear(hidden, dim, bias=False)");
    linear_w(t, "w1", "2*E", "E", 0);
    linear_w(t, "w3", "2*E", "E", 0);
    linear_w(t, "w2", "E", "2*E", 0);
    if (rms)
        tp_forward(t, "h = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight");
    else
        tp_forward(t, "h = x");
    tp_forward(t, "return x + self.w2(F.silu(self.w1(h)) * self.w3(h))");
    tp_output(t, NULL, "B,L,E");
    tp_cost(t, "12*B*L*E*E", NULL);
    tp_describe(t, "SwiGLU feed-forward block%s with residual", rms ? " after RMSNorm" : "");
    tp_default_tolerance(t, tol_loose(0));
    cu_swiglu(t, rms);
}

/* Multi-head attention over h (a Python name), into y; `causal` masks the future. */
static void attention_lines(TorchProg *t, const char *in, int heads, int causal)
{
    tp_forward(t, "b, l, e = %s.shape", in);
    tp_forward(t, "qkv = self.qkv(%s).reshape(b, l, 3, %d, e // %d).permute(2, 0, 3, 1, 4)", in, heads, heads);
    tp_forward(t, "q, k, v = qkv[0], qkv[1], qkv[2]");
    tp_forward(t, "att = (q @ k.transpose(-2, -1)) * (1.0 / float(e // %d) ** 0.5)", heads);
    if (causal) {
        tp_forward(t, "mask = torch.ones(l, l, dtype=torch.bool, device=x.device).triu(1)");
        tp_forward(t, "att = att.masked_fill(mask, float('-inf'))");
    }
    tp_forward(t, "att = torch.softmax(att, dim=-1)");
    tp_forward(t, "y = self.proj((att @ v).transpose(1, 2).reshape(b, l, e))");
}

static void self_attention(TorchProg *t, GenCtx *g, int i)
{
    int heads = (int[]){4, 8, 2, 4, 8, 1}[i % 6], causal = i % 2;
    seq_params(t, g, i, heads);
    tp_init_arg(t, "dim", "E");
    tp_init(t, "self.qkv = nn.Linear(dim, 3 * dim)");
    tp_init(t, "self.proj = nn.Linear(dim, dim)");
    linear_w(t, "qkv", "3*E", "E", 1);
    linear_w(t, "proj", "E", "E", 1);
    attention_lines(t, "x", heads, causal);
    tp_forward(t, "return y");
    tp_output(t, NULL, "B,L,E");
    tp_cost(t, "8*B*L*E*E+4*B*L*L*E", NULL);
    tp_describe(t, "%smulti-head self-attention, %d heads (written with matmul and softmax)",
                causal ? "causal " : "", heads);
    tp_default_tolerance(t, tol_loose(1));
    cu_attention(t, "x", "out", heads, causal);
}

static void transformer_layer(TorchProg *t, GenCtx *g, int i)
{
    int heads = (int[]){4, 8, 2, 4}[i % 4], prenorm = i % 2 == 0, causal = i % 3 == 2;
    const char *act = i % 4 < 2 ? "F.gelu" : "torch.relu";
    seq_params(t, g, i, heads);
    tp_init_arg(t, "dim", "E");
    tp_init(t, "self.ln1 = nn.LayerNorm(dim)");
    tp_init(t, "self.qkv = nn.Linear(dim, 3 * dim)");
    tp_init(t, "self.proj = nn.Linear(dim, dim)");
    tp_init(t, "self.ln2 = nn.LayerNorm(dim)");
    tp_init(t, "self.fc1 = nn.Linear(dim, 4 * dim)");
    tp_init(t, "self.fc2 = nn.Linear(4 * dim, dim)");
    norm_w(t, "ln1", "E");
    linear_w(t, "qkv", "3*E", "E", 1);
    linear_w(t, "proj", "E", "E", 1);
    norm_w(t, "ln2", "E");
    linear_w(t, "fc1", "4*E", "E", 1);
    linear_w(t, "fc2", "E", "4*E", 1);
    if (prenorm) {
        tp_forward(t, "h = self.ln1(x)");
        attention_lines(t, "h", heads, causal);
        tp_forward(t, "x1 = x + y");
        tp_forward(t, "return x1 + self.fc2(%s(self.fc1(self.ln2(x1))))", act);
    } else {
        attention_lines(t, "x", heads, causal);
        tp_forward(t, "x1 = self.ln1(x + y)");
        tp_forward(t, "return self.ln2(x1 + self.fc2(%s(self.fc1(x1))))", act);
    }
    tp_output(t, NULL, "B,L,E");
    tp_cost(t, "24*B*L*E*E+4*B*L*L*E", NULL);
    tp_describe(t, "transformer encoder layer (%s-norm, %d heads, %s%s), written with basic operators",
                prenorm ? "pre" : "post", heads, act, causal ? ", causal" : "");
    tp_default_tolerance(t, tol_loose(1));
    cu_transformer(t, heads, prenorm, causal, act);
}

static void resnet_basic(TorchProg *t, GenCtx *g, int i)
{
    int stride = i % 2 ? 2 : 1;
    img_params(t, g, i, 1);
    bn_helper(t);
    tp_init_arg(t, "cin", "C");
    tp_init_arg(t, "cout", "COUT");
    tp_init(t, "self.conv1 = nn.Conv2d(cin, cout, 3, stride=%d, padding=1, bias=False)", stride);
    tp_init(t, "self.bn1 = _set_bn(nn.BatchNorm2d(cout))");
    tp_init(t, "self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)");
    tp_init(t, "self.bn2 = _set_bn(nn.BatchNorm2d(cout))");
    tp_init(t, "self.down = nn.Conv2d(cin, cout, 1, stride=%d, bias=False)", stride);
    tp_init(t, "self.down_bn = _set_bn(nn.BatchNorm2d(cout))");
    conv_w(t, "conv1", "COUT", "C", 3);
    bn_w(t, "bn1", "COUT");
    conv_w(t, "conv2", "COUT", "COUT", 3);
    bn_w(t, "bn2", "COUT");
    conv_w(t, "down", "COUT", "C", 1);
    bn_w(t, "down_bn", "COUT");
    tp_forward(t, "h = torch.relu(self.bn1(self.conv1(x)))");
    tp_forward(t, "h = self.bn2(self.conv2(h))");
    tp_forward(t, "return torch.relu(h + self.down_bn(self.down(x)))");
    const char *ho = stride == 2 ? "(H-1)/2+1" : "H", *wo = stride == 2 ? "(W-1)/2+1" : "W";
    char shape[96], flops[256];
    snprintf(shape, sizeof shape, "B,COUT,%s,%s", ho, wo);
    tp_output(t, NULL, shape);
    snprintf(flops, sizeof flops, "2*B*COUT*(%s)*(%s)*(9*C+9*COUT+C)", ho, wo);
    tp_cost(t, flops, NULL);
    tp_describe(t, "ResNet basic block, stride %d, projection shortcut", stride);
    tp_default_tolerance(t, tol_loose(1));
    cu_resnet_basic(t, stride, ho, wo);
}

static void resnet_bottleneck(TorchProg *t, GenCtx *g, int i)
{
    int stride = i % 2 ? 2 : 1;
    img_params(t, g, i, 4);
    bn_helper(t);
    tp_init_arg(t, "cin", "C");
    tp_init_arg(t, "width", "COUT/4");
    tp_init_arg(t, "cout", "COUT");
    tp_init(t, "self.conv1 = nn.Conv2d(cin, width, 1, bias=False)");
    tp_init(t, "self.bn1 = _set_bn(nn.BatchNorm2d(width))");
    tp_init(t, "self.conv2 = nn.Conv2d(width, width, 3, stride=%d, padding=1, bias=False)", stride);
    tp_init(t, "self.bn2 = _set_bn(nn.BatchNorm2d(width))");
    tp_init(t, "self.conv3 = nn.Conv2d(width, cout, 1, bias=False)");
    tp_init(t, "self.bn3 = _set_bn(nn.BatchNorm2d(cout))");
    tp_init(t, "self.down = nn.Conv2d(cin, cout, 1, stride=%d, bias=False)", stride);
    tp_init(t, "self.down_bn = _set_bn(nn.BatchNorm2d(cout))");
    conv_w(t, "conv1", "COUT/4", "C", 1);
    bn_w(t, "bn1", "COUT/4");
    conv_w(t, "conv2", "COUT/4", "COUT/4", 3);
    bn_w(t, "bn2", "COUT/4");
    conv_w(t, "conv3", "COUT", "COUT/4", 1);
    bn_w(t, "bn3", "COUT");
    conv_w(t, "down", "COUT", "C", 1);
    bn_w(t, "down_bn", "COUT");
    tp_forward(t, "h = torch.relu(self.bn1(self.conv1(x)))");
    tp_forward(t, "h = torch.relu(self.bn2(self.conv2(h)))");
    tp_forward(t, "h = self.bn3(self.conv3(h))");
    tp_forward(t, "return torch.relu(h + self.down_bn(self.down(x)))");
    const char *ho = stride == 2 ? "(H-1)/2+1" : "H", *wo = stride == 2 ? "(W-1)/2+1" : "W";
    char shape[96], flops[256];
    snprintf(shape, sizeof shape, "B,COUT,%s,%s", ho, wo);
    tp_output(t, NULL, shape);
    snprintf(flops, sizeof flops, "2*B*H*W*C*(COUT/4)+2*B*(%s)*(%s)*((COUT/4)*(9*(COUT/4)+COUT)+COUT*C)", ho, wo);
    tp_cost(t, flops, NULL);
    tp_describe(t, "ResNet bottleneck block (1x1, 3x3 stride %d, 1x1; width COUT/4), projection shortcut", stride);
    tp_default_tolerance(t, tol_loose(1));
    cu_resnet_bottleneck(t, stride, ho, wo);
}

static void depthwise_separable(TorchProg *t, GenCtx *g, int i)
{
    int stride = i % 2 ? 2 : 1, k = i % 3 == 2 ? 5 : 3;
    const char *act = i % 4 < 2 ? "torch.relu" : "F.relu6";
    img_params(t, g, i, 1);
    bn_helper(t);
    tp_init_arg(t, "cin", "C");
    tp_init_arg(t, "cout", "COUT");
    tp_init(t, "self.dw = nn.Conv2d(cin, cin, %d, stride=%d, padding=%d, groups=cin, bias=False)", k, stride, k / 2);
    tp_init(t, "self.bn1 = _set_bn(nn.BatchNorm2d(cin))");
    tp_init(t, "self.pw = nn.Conv2d(cin, cout, 1, bias=False)");
    tp_init(t, "self.bn2 = _set_bn(nn.BatchNorm2d(cout))");
    conv_w(t, "dw", "C", "1", k);
    bn_w(t, "bn1", "C");
    conv_w(t, "pw", "COUT", "C", 1);
    bn_w(t, "bn2", "COUT");
    tp_forward(t, "h = %s(self.bn1(self.dw(x)))", act);
    tp_forward(t, "return %s(self.bn2(self.pw(h)))", act);
    const char *ho = stride == 2 ? "(H-1)/2+1" : "H", *wo = stride == 2 ? "(W-1)/2+1" : "W";
    char shape[96], flops[256];
    snprintf(shape, sizeof shape, "B,COUT,%s,%s", ho, wo);
    tp_output(t, NULL, shape);
    snprintf(flops, sizeof flops, "2*B*C*(%s)*(%s)*(%d+COUT)", ho, wo, k * k);
    tp_cost(t, flops, NULL);
    tp_describe(t, "depthwise-separable convolution (depthwise %dx%d stride %d, BN, %s; pointwise 1x1, BN, %s)", k,
                k, stride, act, act);
    tp_default_tolerance(t, tol_loose(0));
    cu_depthwise_separable(t, k, stride, act, ho, wo);
}

/* LSTM and GRU cells unrolled over T steps of x [T, B, IN]. */
static void rnn_params(TorchProg *t, GenCtx *g, int i)
{
    tp_param(t, "T", 1 + i % 3, 1 + 3 * (i % 3), 1 + 3 * (i % 3));
    tp_param(t, "B", gen_randint(g, 2, 4), (int64_t[]){256, 512, 1024, 128}[i % 4], 1);
    tp_param(t, "IN", 8 * gen_randint(g, 2, 4), (int64_t[]){256, 512, 1024}[i % 3] + 64 * (i / 12), 7);
    tp_param(t, "HID", 8 * gen_randint(g, 2, 4), (int64_t[]){512, 1024, 256}[i % 3], 5);
}

static void lstm_cell(TorchProg *t, GenCtx *g, int i)
{
    rnn_params(t, g, i);
    tp_input(t, "x", "T,B,IN", -1, 1);
    tp_input(t, "h0", "B,HID", -1, 1);
    tp_input(t, "c0", "B,HID", -1, 1);
    tp_init_arg(t, "input_size", "IN");
    tp_init_arg(t, "hidden_size", "HID");
    tp_init(t, "self.ih = nn.Linear(input_size, 4 * hidden_size)");
    tp_init(t, "self.hh = nn.Linear(hidden_size, 4 * hidden_size)");
    linear_w(t, "ih", "4*HID", "IN", 1);
    linear_w(t, "hh", "4*HID", "HID", 1);
    tp_forward(t, "h, c = h0, c0");
    tp_forward(t, "for step in range(x.shape[0]):");
    tp_forward(t, "    gates = self.ih(x[step]) + self.hh(h)");
    tp_forward(t, "    i, f, g, o = gates.chunk(4, dim=1)");
    tp_forward(t, "    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)");
    tp_forward(t, "    h = torch.sigmoid(o) * torch.tanh(c)");
    tp_forward(t, "return h, c");
    tp_output(t, NULL, "B,HID");
    tp_output(t, NULL, "B,HID");
    tp_cost(t, "8*T*B*HID*(IN+HID)+10*T*B*HID", NULL);
    tp_describe(t, "LSTM cell unrolled over T steps (gates i, f, g, o; returns h and c)");
    tp_default_tolerance(t, tol_loose(i % 3 != 0));
    cu_lstm(t);
}

static void gru_cell(TorchProg *t, GenCtx *g, int i)
{
    rnn_params(t, g, i);
    tp_input(t, "x", "T,B,IN", -1, 1);
    tp_input(t, "h0", "B,HID", -1, 1);
    tp_init_arg(t, "input_size", "IN");
    tp_init_arg(t, "hidden_size", "HID");
    tp_init(t, "self.ih = nn.Linear(input_size, 3 * hidden_size)");
    tp_init(t, "self.hh = nn.Linear(hidden_size, 3 * hidden_size)");
    linear_w(t, "ih", "3*HID", "IN", 1);
    linear_w(t, "hh", "3*HID", "HID", 1);
    tp_forward(t, "h = h0");
    tp_forward(t, "for step in range(x.shape[0]):");
    tp_forward(t, "    xr, xz, xn = self.ih(x[step]).chunk(3, dim=1)");
    tp_forward(t, "    hr, hz, hn = self.hh(h).chunk(3, dim=1)");
    tp_forward(t, "    r = torch.sigmoid(xr + hr)");
    tp_forward(t, "    z = torch.sigmoid(xz + hz)");
    tp_forward(t, "    n = torch.tanh(xn + r * hn)");
    tp_forward(t, "    h = (1.0 - z) * n + z * h");
    tp_forward(t, "return h");
    tp_output(t, NULL, "B,HID");
    tp_cost(t, "6*T*B*HID*(IN+HID)+10*T*B*HID", NULL);
    tp_describe(t, "GRU cell unrolled over T steps (gates r, z, n)");
    tp_default_tolerance(t, tol_loose(i % 3 != 0));
    cu_gru(t);
}

static void moe_router(TorchProg *t, GenCtx *g, int i)
{
    int experts = (int[]){4, 8, 6, 4}[i % 4], k = 1 + i % 2;
    tp_param(t, "TOK", 8 * gen_randint(g, 2, 6), (int64_t[]){4096, 8192, 2048, 16384}[i % 4], 3);
    tp_param(t, "E", 16 * gen_randint(g, 1, 4), (int64_t[]){512, 1024, 768}[i % 3] + 64 * (i / 12), 11);
    tp_input(t, "x", "TOK,E", -1, 1);
    tp_init_arg(t, "dim", "E");
    tp_init(t, "self.gate = nn.Linear(dim, %d, bias=False)", experts);
    tp_init(t, "self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(%d)])", experts);
    char ne[8];
    snprintf(ne, sizeof ne, "%d", experts);
    linear_w(t, "gate", ne, "E", 0);
    for (int e = 0; e < experts; e++) {
        char name[32];
        snprintf(name, sizeof name, "experts.%d", e);
        linear_w(t, name, "E", "E", 1);
    }
    /* the router runs in float32 whatever the dtype (as Switch Transformer's
     * does): in bf16, equal probabilities are common, and torch's CPU and
     * GPU topk break such ties differently, so the experts chosen would
     * depend on the device */
    tp_forward(t, "probs = torch.softmax(F.linear(x.float(), self.gate.weight.float()), dim=-1)");
    tp_forward(t, "w, idx = torch.topk(probs, %d, dim=-1)", k);
    tp_forward(t, "w = w / w.sum(dim=-1, keepdim=True)");
    tp_forward(t, "gates = torch.zeros_like(probs).scatter(1, idx, w).to(x.dtype)");
    tp_forward(t, "out = torch.zeros_like(x)");
    tp_forward(t, "for e, expert in enumerate(self.experts):");
    tp_forward(t, "    out = out + gates[:, e:e + 1] * expert(x)");
    tp_forward(t, "return out, gates");
    tp_output(t, NULL, "TOK,E");
    char gshape[32];
    snprintf(gshape, sizeof gshape, "TOK,%d", experts);
    tp_output(t, NULL, gshape);
    char flops[96];
    snprintf(flops, sizeof flops, "2*TOK*E*%d+2*TOK*E*E*%d", experts, experts);
    tp_cost(t, flops, NULL);
    tp_describe(t, "mixture-of-experts layer: softmax router in float32, top-%d gating renormalised, %d linear experts "
                   "(returns the combined output and the dense gates)",
                k, experts);
    tp_default_tolerance(t, tol_loose(0));
    cu_moe(t, experts, k);
}

static void squeeze_excitation(TorchProg *t, GenCtx *g, int i)
{
    img_params(t, g, i, 1);
    bn_helper(t);
    tp_init_arg(t, "cin", "C");
    tp_init_arg(t, "cout", "COUT");
    tp_init(t, "self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)");
    tp_init(t, "self.bn = _set_bn(nn.BatchNorm2d(cout))");
    tp_init(t, "self.fc1 = nn.Linear(cout, cout // 4)");
    tp_init(t, "self.fc2 = nn.Linear(cout // 4, cout)");
    conv_w(t, "conv", "COUT", "C", 3);
    bn_w(t, "bn", "COUT");
    linear_w(t, "fc1", "COUT/4", "COUT", 1);
    linear_w(t, "fc2", "COUT", "COUT/4", 1);
    tp_forward(t, "h = torch.relu(self.bn(self.conv(x)))");
    tp_forward(t, "s = h.mean(dim=(2, 3))");
    tp_forward(t, "s = torch.sigmoid(self.fc2(torch.relu(self.fc1(s))))");
    tp_forward(t, "return h * s[:, :, None, None]%s", i % 2 ? " + x.mean(dim=1, keepdim=True)" : "");
    tp_output(t, NULL, "B,COUT,H,W");
    tp_cost(t, "18*B*COUT*H*W*C+4*B*COUT*H*W", NULL);
    tp_describe(t, "conv 3x3 + BN + ReLU with squeeze-and-excitation (reduction 4)%s",
                i % 2 ? ", plus the input's channel mean" : "");
    tp_default_tolerance(t, tol_loose(1));
    cu_squeeze_excitation(t, i % 2);
}

static void vit_patch_embed(TorchProg *t, GenCtx *g, int i)
{
    int p = (int[]){4, 8, 16, 2}[i % 4];
    tp_param(t, "B", gen_randint(g, 2, 3), (int64_t[]){32, 16, 64, 8}[i % 4], 1);
    tp_param(t, "C", 3, 3, 1);
    tp_param(t, "H", p * gen_randint(g, 2, 4), i < 12 ? 224 : 256, p * 3 + 1);
    tp_param(t, "W", p * gen_randint(g, 2, 4), i < 12 ? 224 : 256, p * 2 + 1);
    tp_param(t, "E", 32 * gen_randint(g, 1, 2), (int64_t[]){768, 384, 512}[i % 3], 7);
    tp_input(t, "x", "B,C,H,W", -1, 1);
    char np[96];
    snprintf(np, sizeof np, "(H/%d)*(W/%d)", p, p);
    tp_init_arg(t, "channels", "C");
    tp_init_arg(t, "dim", "E");
    tp_init_arg(t, "patches", np);
    tp_init(t, "self.pos = nn.Parameter(0.02 * torch.cos(torch.arange(patches * dim, dtype=torch.float32)).reshape(1, patches, dim))");
    tp_init(t, "self.proj = nn.Conv2d(channels, dim, %d, stride=%d)", p, p);
    tp_init(t, "self.norm = nn.LayerNorm(dim)");
    char shape[128];
    snprintf(shape, sizeof shape, "1,%s,E", np);
    tp_weight(t, "pos", NULL, shape);
    conv_w(t, "proj", "E", "C", p);
    tp_weight(t, "proj.bias", NULL, "E");
    norm_w(t, "norm", "E");
    tp_forward(t, "h = self.proj(x).flatten(2).transpose(1, 2)");
    tp_forward(t, "return self.norm(h + self.pos)");
    snprintf(shape, sizeof shape, "B,%s,E", np);
    tp_output(t, NULL, shape);
    char flops[128];
    snprintf(flops, sizeof flops, "2*B*%s*E*C*%d", np, p * p);
    tp_cost(t, flops, NULL);
    tp_describe(t, "ViT patch embedding: %dx%d patches by a strided conv, position embedding, LayerNorm", p, p);
    tp_default_tolerance(t, tol_loose(0));
    cu_vit_patch_embed(t, p, np);
}

static const Arch ARCHS[] = {
    {"mlp_block", 17, mlp_block},
    {"swiglu_mlp", 16, swiglu_mlp},
    {"self_attention", 17, self_attention},
    {"transformer_encoder_layer", 17, transformer_layer},
    {"resnet_basic_block", 17, resnet_basic},
    {"resnet_bottleneck", 16, resnet_bottleneck},
    {"depthwise_separable_conv", 17, depthwise_separable},
    {"lstm_cell", 17, lstm_cell},
    {"gru_cell", 17, gru_cell},
    {"moe_router", 17, moe_router},
    {"squeeze_excitation", 16, squeeze_excitation},
    {"vit_patch_embed", 16, vit_patch_embed},
};
#define N_ARCHS ((int)(sizeof ARCHS / sizeof *ARCHS))

static int l3_generate(GenCtx *g)
{
    const Arch *a = &ARCHS[torch_family_index(gen_family(g))];
    for (int i = 0; i < a->count; i++) {
        const char *dt = i % 2 ? "bf16" : "f32";
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%03d", dt, i);
        TorchProg *t = tp_begin(g, variant, dt);
        a->build(t, g, i);
        if (tp_end(t) != 0)
            return -1;
    }
    return 0;
}

int torch_l3_families(Family *out, int max)
{
    static char names[N_ARCHS][64];
    int n = 0;
    for (int i = 0; i < N_ARCHS && n < max; i++, n++) {
        snprintf(names[i], sizeof names[i], "torch_l3_%s", ARCHS[i].name);
        out[n] = (Family){names[i], "torch-level3", ARCHS[i].count, l3_generate};
    }
    return n;
}
