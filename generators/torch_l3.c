/* torch_l3.c — level 3 PyTorch programs: small architectures written with
 * basic operators (no fused library blocks such as
 * nn.TransformerEncoderLayer): MLP and SwiGLU blocks, self-attention, a
 * transformer encoder layer, ResNet basic and bottleneck blocks, a
 * depthwise-separable convolution, LSTM and GRU cells unrolled over a few
 * steps, a mixture-of-experts router (top-k gating), a squeeze-and-
 * excitation block and a ViT patch embedding.  One family per architecture
 * ("torch_l3_<name>"); its programs vary the dtype, the sizes and the
 * architecture's options (activation, norm placement, stride, heads, k). */
#include <stdio.h>
#include <string.h>

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
    tp_forward(t, "probs = torch.softmax(self.gate(x), dim=-1)");
    tp_forward(t, "w, idx = torch.topk(probs, %d, dim=-1)", k);
    tp_forward(t, "w = w / w.sum(dim=-1, keepdim=True)");
    tp_forward(t, "gates = torch.zeros_like(probs).scatter(1, idx, w)");
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
    tp_describe(t, "mixture-of-experts layer: softmax router, top-%d gating renormalised, %d linear experts "
                   "(returns the combined output and the dense gates)",
                k, experts);
    tp_default_tolerance(t, tol_loose(0));
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
