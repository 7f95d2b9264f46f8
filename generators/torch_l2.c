/* torch_l2.c — level 2 PyTorch programs: fused chains of 2 to 6 operators
 * (a head — Linear, matmul, a convolution or a transposed convolution —
 * then activations, norms, pooling, reductions, scaling, bias and residual
 * adds).  One family per chain, named by its operators
 * ("torch_l2_conv2d_batchnorm_relu_maxpool"); its programs vary the dtype,
 * the sizes and the head's stride. */
#include <stdio.h>
#include <string.h>

#include "torch_cuda.h"
#include "torch_families.h"
#include "torch_stage.h"

typedef struct Chain {
    const char *ops;  /* space-separated operators, the head first */
} Chain;

static const Chain CHAINS[] = {
    /* Linear heads on [B, F] */
    {"linear relu"}, {"linear gelu"}, {"linear gelu layernorm"}, {"linear relu linear"},
    {"linear silu linear"}, {"linear sigmoid scale"}, {"linear tanh scale residual"},
    {"linear layernorm relu"}, {"linear batchnorm relu"}, {"linear scale residual"},
    {"linear bias gelu"}, {"linear hardswish relu"}, {"linear leaky_relu sum"}, {"linear softmax"},
    {"linear logsoftmax"}, {"linear gelu linear layernorm"}, {"linear rmsnorm silu"},
    {"linear groupnorm hardtanh"}, {"linear elu mean"}, {"linear logsumexp relu"},
    {"linear sigmoid sum"}, {"linear tanh amax"}, {"linear relu linear relu linear"},
    {"linear batchnorm tanh scale"}, {"linear clamp layernorm"}, {"linear softplus tanh"},
    {"linear selu linear softmax"}, {"linear mish mish"}, {"linear gelu_tanh scale bias"},
    {"linear relu6 scale residual layernorm"}, {"linear swish_gate"}, {"linear hardsigmoid scale"},
    /* Linear on sequences [B, L, F] */
    {"seqlinear gelu layernorm"}, {"seqlinear softmax"}, {"seqlinear rmsnorm linear"},
    {"seqlinear silu linear residual"},
    /* matmul of two inputs */
    {"matmul scale residual"}, {"matmul relu"}, {"matmul gelu layernorm"}, {"matmul softmax"},
    {"matmul sigmoid sum"}, {"matmul scale clamp"}, {"matmul bias relu"},
    /* 2-d convolutions */
    {"conv2d batchnorm relu maxpool"}, {"conv2d relu"}, {"conv2d relu avgpool"},
    {"conv2d gelu groupnorm"}, {"conv2d batchnorm relu"}, {"conv2d instancenorm relu"},
    {"conv2d groupnorm tanh maxpool"}, {"conv2d relu bias scale"}, {"conv2d hardswish relu"},
    {"conv2d sigmoid sum"}, {"conv2d mean relu"}, {"conv2d softmax"}, {"conv2d maxpool gap linear"},
    {"conv2d relu conv2d relu"}, {"conv2d batchnorm relu gap"}, {"conv2d tanh scale residual"},
    {"conv2d leaky_relu avgpool sigmoid"}, {"conv2d logsumexp relu"}, {"conv2d mish tanh"},
    {"conv2d clamp scale"}, {"conv2d silu batchnorm"}, {"conv2d elu maxpool gap"},
    /* 3-d convolutions */
    {"conv3d relu"}, {"conv3d batchnorm relu"}, {"conv3d gelu groupnorm"}, {"conv3d softmax"},
    {"conv3d relu maxpool"}, {"conv3d leaky_relu sum"}, {"conv3d instancenorm relu"},
    {"conv3d hardswish mean"},
    /* 1-d convolutions */
    {"conv1d relu maxpool"}, {"conv1d batchnorm gelu"}, {"conv1d tanh avgpool"},
    {"conv1d silu groupnorm"},
    /* transposed convolutions */
    {"convT2d relu"}, {"convT2d batchnorm tanh"}, {"convT2d gelu maxpool"},
    {"convT2d sigmoid scale residual"}, {"convT2d logsumexp hardswish"}, {"convT2d groupnorm relu"},
    {"convT3d relu scale"}, {"convT3d batchnorm relu"}, {"convT3d softmax sigmoid"},
    {"convT3d leaky_relu avgpool"},
};
#define N_CHAINS ((int)(sizeof CHAINS / sizeof *CHAINS))

/* Operators whose CPU torch 1.13 kernels lack bf16 (found by running them). */
static int chain_has_bf16(const char *ops)
{
    static const char *const f32_only[] = {"conv1d", "convT", "mish", "conv3d relu maxpool", "conv3d leaky",
                                           "conv3d hardswish", NULL};
    for (int i = 0; f32_only[i]; i++)
        if (strstr(ops, f32_only[i]))
            return 0;
    if (strncmp(ops, "conv3d", 6) == 0 && strstr(ops, "pool"))
        return 0;
    return 1;
}

static void head(Stage *s, const char *op, int i)
{
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    static const int64_t outs[] = {1024, 2048, 4096};
    int stride = i % 3 == 2 ? 2 : 1;
    int k = (int[]){3, 5, 3, 1, 7}[i % 5];
    if (strcmp(op, "linear") == 0 || strcmp(op, "seqlinear") == 0) {
        st_begin(s, t, g, op[0] == 's' ? TL_SEQ : TL_VEC, 0, -1, 1);
        st_linear(s, "OUT", 16 * gen_randint(g, 2, 8), outs[gen_randint(g, 0, 2)], 12, i % 4 != 3);
    } else if (strcmp(op, "matmul") == 0) {
        memset(s, 0, sizeof *s);
        s->variant = i;
        s->t = t;
        s->g = g;
        s->layout = TL_VEC;
        s->rank = 2;
        s->channel_dim = 1;
        s->loose = 100; /* K up to 4096: f32 sums of that many terms differ by ~1e-4 near zero (measured on the H200) */
        tp_param(t, "M", 16 * gen_randint(g, 2, 6), (int64_t[]){1024, 2048, 4096, 3072, 1536, 512}[i % 6], 13);
        tp_param(t, "K", 16 * gen_randint(g, 2, 6), outs[gen_randint(g, 0, 2)], 17);
        tp_param(t, "N", 16 * gen_randint(g, 2, 6), outs[gen_randint(g, 0, 2)], 12);
        tp_input(t, "a", "M,K", -1, 1);
        tp_input(t, "b", "K,N", -1, 1);
        tp_forward(t, "h = torch.matmul(a, b)");
        snprintf(s->dim[0], sizeof s->dim[0], "M");
        snprintf(s->dim[1], sizeof s->dim[1], "N");
        snprintf(s->var, sizeof s->var, "h");
        st_add_flops(s, "2*M*N*K");
        s->buf = "a";  /* the stage's CUDA starts here */
        const char *out = st_cuda_out(s);
        if (out)
            tc_matmul(t, "a", "b", out, "1", "M", "K", "N", 0, 0);
    } else if (strncmp(op, "convT", 5) == 0) {
        TLayout lay = op[5] == '2' ? TL_IMG : TL_VOL;
        st_begin(s, t, g, lay, 0, -1, 1);
        int kt = k == 1 ? 2 : k;
        st_convT(s, "COUT", 8 * gen_randint(g, 1, 2), lay == TL_VOL ? 16 : 64, 6, kt, stride, kt / 2, stride - 1, 1,
                 i % 2 == 0);
    } else {
        TLayout lay = op[4] == '1' ? TL_SIG : op[4] == '2' ? TL_IMG : TL_VOL;
        st_begin(s, t, g, lay, 0, -1, 1);
        st_conv(s, "COUT", 8 * gen_randint(g, 1, 3), lay == TL_VOL ? 32 : 128, 6, k, stride, k / 2, 1, 1, i % 2 == 0);
    }
}

static void tail(Stage *s, const char *op, int i, int n_op)
{
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    char pname[16];
    snprintf(pname, sizeof pname, "OUT%d", n_op);
    if (st_act_known(op))
        st_act(s, op);
    else if (strcmp(op, "scale") == 0)
        st_scale(s, (double[]){0.5, 2.0, 1.5, 0.25}[i % 4]);
    else if (strcmp(op, "bias") == 0)
        st_bias(s);
    else if (strcmp(op, "residual") == 0) {
        char name[16];
        snprintf(name, sizeof name, "res%d", n_op);
        const char *in = st_cuda_in(s);
        tp_input(t, name, st_shape(s), -1, 1);
        tp_forward(t, "h = %s + %s", s->var, name);
        st_add_flops(s, "%s", st_numel(s));
        const char *out = st_cuda_out(s);
        if (out)
            tc_add(t, in, tp_keep(t, xstrdup(name)), out, st_numel(s));
    } else if (strcmp(op, "layernorm") == 0)
        st_layernorm(s);
    else if (strcmp(op, "rmsnorm") == 0)
        st_rmsnorm(s);
    else if (strcmp(op, "batchnorm") == 0)
        st_batchnorm(s);
    else if (strcmp(op, "groupnorm") == 0)
        st_groupnorm(s, 2);
    else if (strcmp(op, "instancenorm") == 0)
        st_instancenorm(s);
    else if (strcmp(op, "softmax") == 0 || strcmp(op, "logsoftmax") == 0)
        st_softmax(s, s->channel_dim == s->rank - 1 ? -1 : s->channel_dim, op[0] == 'l');
    else if (strcmp(op, "maxpool") == 0 || strcmp(op, "avgpool") == 0)
        st_pool(s, op[0] == 'm', 2, 2, 0);
    else if (strcmp(op, "sum") == 0 || strcmp(op, "mean") == 0 || strcmp(op, "amax") == 0 ||
             strcmp(op, "logsumexp") == 0)
        st_reduce(s, op, s->channel_dim, 1);
    else if (strcmp(op, "gap") == 0)
        st_adaptive_avg(s);
    else if (strcmp(op, "linear") == 0)
        st_linear(s, pname, 16 * gen_randint(g, 2, 6), 1024, 7, 1);
    else if (strcmp(op, "conv2d") == 0)
        st_conv(s, pname, 8 * gen_randint(g, 1, 2), 64, 5, 3, 1, 1, 1, 1, 1);
    else if (strcmp(op, "swish_gate") == 0) {
        /* x * sigmoid(x): the gate of the previous layer's output */
        const char *in = st_cuda_in(s);
        tp_forward(t, "h = %s * torch.sigmoid(%s)", s->var, s->var);
        st_add_flops(s, "5*%s", st_numel(s));
        const char *out = st_cuda_out(s);
        if (out)
            tc_act(t, "silu", in, out, st_numel(s));
    } else
        tp_fail(t, "unknown chain operator '%s'", op);
    snprintf(s->var, sizeof s->var, "h");
}

static int l2_generate(GenCtx *g)
{
    const Chain *c = &CHAINS[torch_family_index(gen_family(g))];
    int bf16 = chain_has_bf16(c->ops);
    for (int i = 0; i < gen_family(g)->count; i++) {
        const char *dt = bf16 && i % 2 ? "bf16" : "f32";
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%03d", dt, i);
        Stage s;
        memset(&s, 0, sizeof s);
        s.variant = i;
        s.t = tp_begin(g, variant, dt);
        s.g = g;
        char ops[256];
        snprintf(ops, sizeof ops, "%s", c->ops);
        char *save = NULL;
        int n = 0;
        for (char *op = strtok_r(ops, " ", &save); op; op = strtok_r(NULL, " ", &save), n++) {
            if (n == 0)
                head(&s, op, i);
            else
                tail(&s, op, i, n);
        }
        tp_describe(s.t, "%s, fused (%d operators)", c->ops, n);
        st_finish(&s);
        if (tp_end(s.t) != 0)
            return -1;
    }
    return 0;
}

int torch_l2_families(Family *out, int max)
{
    static char names[N_CHAINS][96];
    int n = 0;
    for (int i = 0; i < N_CHAINS && n < max; i++, n++) {
        snprintf(names[i], sizeof names[i], "torch_l2_%s", CHAINS[i].ops);
        for (char *q = names[i]; *q; q++)
            if (*q == ' ')
                *q = '_';
        /* 400 programs: 5 per chain for the first ones, 4 for the rest */
        int count = i < 400 - 4 * N_CHAINS ? 5 : 4;
        out[n] = (Family){names[i], "torch-level2", count, l2_generate};
    }
    return n;
}
