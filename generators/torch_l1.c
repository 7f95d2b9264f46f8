/* torch_l1.c — level 1 PyTorch programs: one operator each (activations,
 * reductions, softmax, norms, matmul variants, convolutions and transposed
 * convolutions, pooling, losses, cumulative ops, arg-reductions, indexing).
 * One family per operator ("torch_l1_<op>"); its programs vary the dtype,
 * the layout and rank of the input, the dimension operated on and the
 * operator's settings, with sizes drawn for every config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torch_families.h"
#include "torch_stage.h"

enum { K_ACT, K_RED, K_SOFTMAX, K_NORM, K_MM, K_CONV, K_POOL, K_LOSS, K_CUM, K_ARG, K_INDEX };

typedef struct L1Spec {
    const char *op;
    int kind;
    int count;
    int dtypes;  /* 0: from the activation table */
} L1Spec;

#define B32 TD_F32
#define BBF (TD_F32 | TD_BF16)
#define BALL (TD_F32 | TD_BF16 | TD_F16)

static const L1Spec SPECS[] = {
    {"relu", K_ACT, 3, 0}, {"leaky_relu", K_ACT, 3, 0}, {"gelu", K_ACT, 3, 0}, {"gelu_tanh", K_ACT, 3, 0},
    {"silu", K_ACT, 3, 0}, {"sigmoid", K_ACT, 3, 0}, {"tanh", K_ACT, 3, 0}, {"softplus", K_ACT, 3, 0},
    {"elu", K_ACT, 3, 0}, {"selu", K_ACT, 3, 0}, {"celu", K_ACT, 3, 0}, {"hardtanh", K_ACT, 3, 0},
    {"hardswish", K_ACT, 3, 0}, {"hardsigmoid", K_ACT, 3, 0}, {"mish", K_ACT, 3, 0}, {"softsign", K_ACT, 3, 0},
    {"relu6", K_ACT, 3, 0}, {"logsigmoid", K_ACT, 3, 0}, {"tanhshrink", K_ACT, 3, 0}, {"softshrink", K_ACT, 3, 0},
    {"hardshrink", K_ACT, 3, 0}, {"exp", K_ACT, 3, 0}, {"log", K_ACT, 3, 0}, {"sqrt", K_ACT, 3, 0},
    {"rsqrt", K_ACT, 3, 0}, {"reciprocal", K_ACT, 3, 0}, {"abs", K_ACT, 3, 0}, {"erf", K_ACT, 3, 0},
    {"sin", K_ACT, 3, 0}, {"clamp", K_ACT, 3, 0}, {"square", K_ACT, 3, 0},
    {"sum", K_RED, 4, BALL}, {"mean", K_RED, 4, BALL}, {"amax", K_RED, 4, BALL}, {"amin", K_RED, 4, BALL},
    {"prod", K_RED, 4, B32}, {"var", K_RED, 4, BALL}, {"std", K_RED, 4, BALL}, {"logsumexp", K_RED, 4, BBF},
    {"norm", K_RED, 4, BALL},
    {"softmax", K_SOFTMAX, 6, BBF}, {"log_softmax", K_SOFTMAX, 6, BBF},
    {"layernorm", K_NORM, 5, BBF}, {"rmsnorm", K_NORM, 5, BBF}, {"batchnorm", K_NORM, 5, BBF},
    {"groupnorm", K_NORM, 5, BBF}, {"instancenorm", K_NORM, 5, BBF}, {"l2_normalize", K_NORM, 5, BBF},
    {"mm", K_MM, 5, BBF}, {"mm_tall_skinny", K_MM, 5, BBF}, {"bmm", K_MM, 5, BBF}, {"matvec", K_MM, 5, BBF},
    {"linear", K_MM, 5, BBF}, {"linear_nobias", K_MM, 5, BBF}, {"addmm", K_MM, 5, BBF},
    {"matmul_broadcast", K_MM, 5, BBF}, {"mm_transposed", K_MM, 5, BBF},
    {"conv1d", K_CONV, 5, B32}, {"conv2d", K_CONV, 5, BBF}, {"conv3d", K_CONV, 5, BBF},
    {"conv_transpose1d", K_CONV, 5, B32}, {"conv_transpose2d", K_CONV, 5, B32}, {"conv_transpose3d", K_CONV, 5, B32},
    {"conv2d_depthwise", K_CONV, 5, BBF}, {"conv2d_grouped", K_CONV, 5, BBF}, {"conv2d_dilated", K_CONV, 5, BBF},
    {"max_pool1d", K_POOL, 4, BBF}, {"max_pool2d", K_POOL, 4, BBF}, {"max_pool3d", K_POOL, 4, B32},
    {"avg_pool1d", K_POOL, 4, BBF}, {"avg_pool2d", K_POOL, 4, BBF}, {"avg_pool3d", K_POOL, 4, B32},
    {"adaptive_avg_pool2d", K_POOL, 4, BBF},
    {"mse_loss", K_LOSS, 3, TD_F32 | TD_F16}, {"l1_loss", K_LOSS, 3, BALL}, {"smooth_l1_loss", K_LOSS, 3, BALL},
    {"huber_loss", K_LOSS, 3, BALL}, {"cross_entropy", K_LOSS, 3, BBF}, {"nll_loss", K_LOSS, 3, BBF},
    {"kl_div", K_LOSS, 3, BBF}, {"bce_with_logits", K_LOSS, 3, BBF}, {"hinge_embedding_loss", K_LOSS, 3, BBF},
    {"margin_ranking_loss", K_LOSS, 3, BBF}, {"triplet_margin_loss", K_LOSS, 3, BBF},
    {"cosine_similarity", K_LOSS, 3, BBF}, {"soft_margin_loss", K_LOSS, 3, BBF},
    {"cumsum", K_CUM, 4, BBF}, {"cumprod", K_CUM, 4, BBF}, {"cummax", K_CUM, 4, BBF},
    {"logcumsumexp", K_CUM, 4, BBF}, {"cumsum_reverse", K_CUM, 4, BBF},
    {"argmax", K_ARG, 4, BALL}, {"argmin", K_ARG, 4, BALL}, {"topk", K_ARG, 4, BBF}, {"sort", K_ARG, 4, BALL},
    {"max_dim", K_ARG, 4, BALL},
    {"gather", K_INDEX, 4, BALL}, {"index_select", K_INDEX, 4, BALL}, {"embedding", K_INDEX, 4, BALL},
    {"masked_fill", K_INDEX, 4, BALL}, {"take_along_dim", K_INDEX, 4, BALL}, {"scatter_add", K_INDEX, 4, BALL},
    {"index_add", K_INDEX, 4, BALL}, {"where", K_INDEX, 4, BALL},
};
#define N_SPECS ((int)(sizeof SPECS / sizeof *SPECS))

static const char *pick_dtype(int mask, int i)
{
    const char *list[3];
    int n = 0;
    if (mask & TD_F32)
        list[n++] = "f32";
    if (mask & TD_BF16)
        list[n++] = "bf16";
    if (mask & TD_F16)
        list[n++] = "f16";
    return list[i % n];
}

static TLayout act_layout(int i)
{
    static const TLayout L[] = {TL_VEC, TL_IMG, TL_SEQ, TL_SIG};
    return L[i % 4];
}

/* ---- kinds ---- */

static void gen_act(Stage *s, const L1Spec *sp, int i)
{
    double lo, hi;
    st_act_domain(sp->op, &lo, &hi);
    if (lo == hi)
        lo = -2.0, hi = 2.0;
    st_begin(s, s->t, s->g, act_layout(i), 1, lo, hi);
    tp_describe(s->t, "%s, elementwise, on a %d-d tensor", sp->op, s->rank);
    st_act(s, sp->op);
    st_finish(s);
}

static void gen_red(Stage *s, const L1Spec *sp, int i)
{
    static const TLayout L[] = {TL_VEC, TL_SEQ, TL_IMG, TL_SEQ};
    int prod = strcmp(sp->op, "prod") == 0;
    st_begin(s, s->t, s->g, L[i % 4], 1, prod ? 0.9 : -1.0, prod ? 1.1 : 1.0);
    int dim = (int)((i * 7 + 1) % s->rank);
    if (i % 4 == 0)
        dim = s->rank - 1;
    int keep = i % 2;
    tp_describe(s->t, "%s over dim %d of a %d-d tensor%s", sp->op, dim, s->rank, keep ? ", keepdim" : "");
    if (strcmp(sp->op, "norm") == 0) {
        char *line = xasprintf("h = torch.linalg.vector_norm(x, dim=%d%s)", dim, keep ? ", keepdim=True" : "");
        tp_forward(s->t, "%s", line);
        free(line);
        st_add_flops(s, "2*%s", st_numel(s));
        if (keep)
            snprintf(s->dim[dim], sizeof s->dim[dim], "1");
        else {
            for (int d = dim; d < s->rank - 1; d++)
                memcpy(s->dim[d], s->dim[d + 1], sizeof s->dim[d]);
            s->rank--;
        }
        s->loose *= 10;
        snprintf(s->var, sizeof s->var, "h");
    } else {
        st_reduce(s, sp->op, dim, keep);
    }
    st_finish(s);
}

static void gen_softmax(Stage *s, const L1Spec *sp, int i)
{
    static const TLayout L[] = {TL_VEC, TL_SEQ, TL_IMG, TL_SEQ, TL_VEC, TL_IMG};
    st_begin(s, s->t, s->g, L[i % 6], 1, -4.0, 4.0);
    int dim = i < 3 ? -1 : 1;
    tp_describe(s->t, "%s over dim %d of a %d-d tensor", sp->op, dim, s->rank);
    st_softmax(s, dim, strcmp(sp->op, "log_softmax") == 0);
    st_finish(s);
}

static void gen_norm(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    TLayout lay;
    if (strcmp(op, "layernorm") == 0 || strcmp(op, "rmsnorm") == 0)
        lay = i % 2 ? TL_SEQ : TL_VEC;
    else if (strcmp(op, "l2_normalize") == 0)
        lay = i % 2 ? TL_SEQ : TL_VEC;
    else if (strcmp(op, "groupnorm") == 0)
        lay = TL_IMG;
    else
        lay = (TLayout[]){TL_IMG, TL_SIG, TL_VOL, TL_IMG, TL_SIG}[i % 5];
    st_begin(s, s->t, s->g, lay, 1, -2.0, 2.0);
    tp_describe(s->t, "%s on a %d-d tensor", op, s->rank);
    if (strcmp(op, "layernorm") == 0)
        st_layernorm(s);
    else if (strcmp(op, "rmsnorm") == 0)
        st_rmsnorm(s);
    else if (strcmp(op, "batchnorm") == 0)
        st_batchnorm(s);
    else if (strcmp(op, "instancenorm") == 0)
        st_instancenorm(s);
    else if (strcmp(op, "groupnorm") == 0) {
        /* channels a multiple of the groups in every config */
        st_groupnorm(s, 1);
    } else {
        tp_forward(s->t, "h = F.normalize(x, p=2.0, dim=-1)");
        st_add_flops(s, "3*%s", st_numel(s));
        s->loose *= 4;
        snprintf(s->var, sizeof s->var, "h");
    }
    st_finish(s);
}

/* Sizes of a matmul: M, N, K with small/large/edge values. */
static void mm_sizes(TorchProg *t, GenCtx *g, int tall, int i)
{
    static const int64_t big[] = {1024, 2048, 4096}, rows[] = {1024, 2048, 4096, 3072, 1536, 8192};
    if (tall) {
        tp_param(t, "M", 32 * gen_randint(g, 4, 8), 16 * rows[i % 6], 1);
        tp_param(t, "K", 8 * gen_randint(g, 2, 8), 64, 7);
        tp_param(t, "N", 8 * gen_randint(g, 2, 6), 128, 3);
    } else {
        tp_param(t, "M", 16 * gen_randint(g, 2, 6), rows[i % 6], 1 + 2 * gen_randint(g, 0, 8));
        tp_param(t, "K", 16 * gen_randint(g, 2, 6), big[gen_randint(g, 0, 2)], 17);
        tp_param(t, "N", 16 * gen_randint(g, 2, 6), big[gen_randint(g, 0, 2)], 13);
    }
}

static void gen_mm(Stage *s, const L1Spec *sp, int i)
{
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    const char *op = sp->op;
    memset(&s->flops, 0, sizeof s->flops);
    if (strcmp(op, "bmm") == 0) {
        tp_param(t, "BATCH", gen_randint(g, 2, 4), 32, 3);
        mm_sizes(t, g, 0, i);
        tp_input(t, "a", "BATCH,M,K", -1, 1);
        tp_input(t, "b", "BATCH,K,N", -1, 1);
        tp_forward(t, "return torch.bmm(a, b)");
        tp_output(t, NULL, "BATCH,M,N");
        tp_cost(t, "2*BATCH*M*N*K", NULL);
        tp_describe(t, "batched matrix product");
    } else if (strcmp(op, "matvec") == 0) {
        mm_sizes(t, g, 0, i);
        tp_input(t, "a", "M,K", -1, 1);
        tp_input(t, "v", "K", -1, 1);
        tp_forward(t, "return torch.mv(a, v)");
        tp_output(t, NULL, "M");
        tp_cost(t, "2*M*K", NULL);
        tp_describe(t, "matrix-vector product");
    } else if (strncmp(op, "linear", 6) == 0) {
        int bias = strcmp(op, "linear") == 0;
        st_begin(s, t, g, i % 2 ? TL_SEQ : TL_VEC, 0, -1, 1);
        static const int64_t outs[] = {1024, 2048, 4096};
        st_linear(s, "OUT", 16 * gen_randint(g, 2, 8), outs[gen_randint(g, 0, 2)], 11, bias);
        tp_describe(t, "nn.Linear%s on a %d-d input", bias ? "" : " without bias", s->rank);
        st_finish(s);
        return;
    } else if (strcmp(op, "addmm") == 0) {
        mm_sizes(t, g, 0, i);
        tp_input(t, "c", "N", -1, 1);
        tp_input(t, "a", "M,K", -1, 1);
        tp_input(t, "b", "K,N", -1, 1);
        tp_forward(t, "return torch.addmm(c, a, b, beta=0.5, alpha=2.0)");
        tp_output(t, NULL, "M,N");
        tp_cost(t, "2*M*N*K+2*M*N", NULL);
        tp_describe(t, "0.5*c + 2*(a @ b), c broadcast over rows");
    } else if (strcmp(op, "matmul_broadcast") == 0) {
        tp_param(t, "BATCH", gen_randint(g, 2, 4), 16, 5);
        mm_sizes(t, g, 0, i);
        tp_input(t, "a", "BATCH,M,K", -1, 1);
        tp_input(t, "b", "K,N", -1, 1);
        tp_forward(t, "return torch.matmul(a, b)");
        tp_output(t, NULL, "BATCH,M,N");
        tp_cost(t, "2*BATCH*M*N*K", NULL);
        tp_describe(t, "3-d by 2-d matmul (the matrix broadcast over the batch)");
    } else if (strcmp(op, "mm_transposed") == 0) {
        mm_sizes(t, g, 0, i);
        tp_input(t, "a", "K,M", -1, 1);
        tp_input(t, "b", "N,K", -1, 1);
        tp_forward(t, "return torch.matmul(a.t(), b.t())");
        tp_output(t, NULL, "M,N");
        tp_cost(t, "2*M*N*K", NULL);
        tp_describe(t, "a^T @ b^T");
    } else {
        mm_sizes(t, g, strcmp(op, "mm_tall_skinny") == 0, i);
        tp_input(t, "a", "M,K", -1, 1);
        tp_input(t, "b", "K,N", -1, 1);
        tp_forward(t, "return torch.mm(a, b)");
        tp_output(t, NULL, "M,N");
        tp_cost(t, "2*M*N*K", NULL);
        tp_describe(t, "matrix product%s", strcmp(op, "mm") ? " (tall and skinny)" : "");
    }
    tp_default_tolerance(t, 100);
}

static void gen_conv(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    GenCtx *g = s->g;
    int k = (int[]){3, 5, 3, 1, 3}[i % 5];
    int stride = (int[]){1, 1, 2, 1, 2}[i % 5];
    int pad = (int[]){1, 2, 0, 0, 1}[i % 5];
    int bias = i % 2 == 0;
    if (strstr(op, "transpose")) {
        TLayout lay = op[15] == '1' ? TL_SIG : op[15] == '2' ? TL_IMG : TL_VOL;
        st_begin(s, s->t, g, lay, 0, -1, 1);
        int outpad = stride == 2 ? i % 2 : 0;
        st_convT(s, "COUT", 4 * gen_randint(g, 1, 3), lay == TL_VOL ? 16 : 64, 5, k, stride, pad, outpad, 1, bias);
        tp_describe(s->t, "ConvTranspose%dd k=%d stride=%d pad=%d output_padding=%d", (int)(lay - TL_SIG) + 1, k,
                    stride, pad, outpad);
    } else if (strcmp(op, "conv1d") == 0 || strcmp(op, "conv2d") == 0 || strcmp(op, "conv3d") == 0) {
        TLayout lay = op[4] == '1' ? TL_SIG : op[4] == '2' ? TL_IMG : TL_VOL;
        st_begin(s, s->t, g, lay, 0, -1, 1);
        st_conv(s, "COUT", 4 * gen_randint(g, 1, 4), lay == TL_VOL ? 32 : 128, 7, k, stride, pad, 1, 1, bias);
        tp_describe(s->t, "Conv%dd k=%d stride=%d pad=%d", (int)(lay - TL_SIG) + 1, k, stride, pad);
    } else if (strcmp(op, "conv2d_depthwise") == 0) {
        st_begin(s, s->t, g, TL_IMG, 0, -1, 1);
        st_conv(s, NULL, 0, 0, 0, k == 1 ? 3 : k, stride, k == 1 ? 1 : pad, 1, -1, bias);
        tp_describe(s->t, "depthwise Conv2d (groups = channels)");
    } else {
        st_begin(s, s->t, g, TL_IMG, 0, -1, 1);
        int dil = 2 + i % 2;
        st_conv(s, "COUT", 4 * gen_randint(g, 1, 4), 128, 7, 3, 1, dil, dil, 1, bias);
        tp_describe(s->t, "dilated Conv2d (dilation %d)", dil);
    }
    st_finish(s);
}

/* Grouped conv needs channel counts divisible by the groups: its own input. */
static void gen_conv_grouped(Stage *s, int i)
{
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    int groups = (int[]){2, 4, 8, 2, 4}[i % 5];
    memset(s, 0, sizeof *s);
    s->variant = i;
    s->t = t;
    s->g = g;
    s->layout = TL_IMG;
    s->rank = 4;
    s->loose = 1;
    s->channel_dim = 1;
    snprintf(s->var, sizeof s->var, "x");
    tp_param(t, "B", gen_randint(g, 2, 3), 8 + 4 * i, 1);
    tp_param(t, "C", groups * gen_randint(g, 1, 3), 64, groups);
    tp_param(t, "H", gen_randint(g, 14, 24), 128, 31);
    tp_param(t, "W", gen_randint(g, 14, 24), 128, 23);
    static const char *const d[] = {"B", "C", "H", "W"};
    for (int k = 0; k < 4; k++)
        snprintf(s->dim[k], sizeof s->dim[k], "%s", d[k]);
    tp_input(t, "x", "B,C,H,W", -1, 1);
    st_conv(s, "COUT", groups * gen_randint(g, 1, 3), 128, groups * 3, 3, 1 + i % 2, 1, 1, groups, i % 2);
    tp_describe(t, "grouped Conv2d (%d groups)", groups);
    st_finish(s);
}

static void gen_pool(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    if (strcmp(op, "adaptive_avg_pool2d") == 0) {
        st_begin(s, s->t, s->g, TL_IMG, 1, -1, 1);
        int o = 1 + i % 4;
        tp_forward(s->t, "h = F.adaptive_avg_pool2d(x, %d)", o);
        st_add_flops(s, "%s", st_numel(s));
        snprintf(s->dim[2], sizeof s->dim[2], "%d", o);
        snprintf(s->dim[3], sizeof s->dim[3], "%d", o);
        snprintf(s->var, sizeof s->var, "h");
        s->loose = 10;
        tp_describe(s->t, "adaptive average pooling to %dx%d", o, o);
        st_finish(s);
        return;
    }
    int max = op[0] == 'm';
    char dimc = op[max ? 8 : 8];
    TLayout lay = dimc == '1' ? TL_SIG : dimc == '2' ? TL_IMG : TL_VOL;
    st_begin(s, s->t, s->g, lay, 1, -1, 1);
    int k = (int[]){2, 3, 3, 4}[i % 4], stride = (int[]){2, 2, 1, 4}[i % 4], pad = (int[]){0, 1, 1, 0}[i % 4];
    st_pool(s, max, k, stride, pad);
    tp_describe(s->t, "%s k=%d stride=%d pad=%d", op, k, stride, pad);
    st_finish(s);
}

/* Losses reduce to a scalar (mean) or keep rows; two inputs, some with targets. */
static void gen_loss(Stage *s, const L1Spec *sp, int i)
{
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    const char *op = sp->op;
    static const int64_t bl[] = {4096, 8192, 16384, 2048, 12288, 6144}, fl[] = {1024, 4096};
    tp_param(t, "B", gen_randint(g, 8, 32), bl[i % 6], i % 2 ? 1 : 3);
    tp_param(t, "N", 16 * gen_randint(g, 2, 8), fl[gen_randint(g, 0, 1)], 13 + 4 * (i % 3));
    const char *red = (const char *[]){"mean", "sum", "none"}[i % 3];
    int scalar = strcmp(red, "none") != 0;
    const char *outshape = scalar ? "" : "B,N";
    tp_cost(t, "8*B*N", NULL);
    if (strcmp(op, "cross_entropy") == 0 || strcmp(op, "nll_loss") == 0) {
        tp_input(t, "logits", "B,N", -3, 3);
        tp_input_int(t, "target", "B", "0", "N");
        if (op[0] == 'c')
            tp_forward(t, "return F.cross_entropy(logits, target, reduction='%s')", red);
        else
            tp_forward(t, "return F.nll_loss(F.log_softmax(logits, dim=1), target, reduction='%s')", red);
        outshape = scalar ? "" : "B";
    } else if (strcmp(op, "kl_div") == 0) {
        tp_input(t, "p", "B,N", -3, 3);
        tp_input(t, "q", "B,N", -3, 3);
        tp_forward(t, "return F.kl_div(F.log_softmax(p, dim=1), F.softmax(q, dim=1), reduction='%s')",
                   scalar ? "batchmean" : "none");
    } else if (strcmp(op, "bce_with_logits") == 0) {
        tp_input(t, "logits", "B,N", -3, 3);
        tp_input(t, "target", "B,N", 0, 1);
        tp_forward(t, "return F.binary_cross_entropy_with_logits(logits, target, reduction='%s')", red);
    } else if (strcmp(op, "hinge_embedding_loss") == 0 || strcmp(op, "soft_margin_loss") == 0) {
        tp_input(t, "pred", "B,N", -2, 2);
        tp_input(t, "sign", "B,N", -1, 1);
        tp_forward(t, "return F.%s(pred, torch.where(sign >= 0, 1.0, -1.0).to(pred.dtype), reduction='%s')", op,
                   red);
    } else if (strcmp(op, "margin_ranking_loss") == 0) {
        tp_input(t, "a", "B,N", -1, 1);
        tp_input(t, "b", "B,N", -1, 1);
        tp_input(t, "sign", "B,N", -1, 1);
        tp_forward(t, "return F.margin_ranking_loss(a, b, torch.where(sign >= 0, 1.0, -1.0).to(a.dtype), "
                      "margin=0.1, reduction='%s')",
                   red);
    } else if (strcmp(op, "triplet_margin_loss") == 0) {
        tp_input(t, "anchor", "B,N", -1, 1);
        tp_input(t, "positive", "B,N", -1, 1);
        tp_input(t, "negative", "B,N", -1, 1);
        tp_forward(t, "return F.triplet_margin_loss(anchor, positive, negative, margin=1.0, reduction='%s')", red);
        outshape = scalar ? "" : "B";
    } else if (strcmp(op, "cosine_similarity") == 0) {
        tp_input(t, "a", "B,N", -1, 1);
        tp_input(t, "b", "B,N", -1, 1);
        if (scalar)
            tp_forward(t, "return torch.%s(1.0 - F.cosine_similarity(a, b, dim=1))", red);
        else
            tp_forward(t, "return F.cosine_similarity(a, b, dim=1)");
        outshape = scalar ? "" : "B";
    } else {
        tp_input(t, "pred", "B,N", -1, 1);
        tp_input(t, "target", "B,N", -1, 1);
        if (strcmp(op, "huber_loss") == 0)
            tp_forward(t, "return F.huber_loss(pred, target, reduction='%s', delta=0.5)", red);
        else if (strcmp(op, "smooth_l1_loss") == 0)
            tp_forward(t, "return F.smooth_l1_loss(pred, target, reduction='%s', beta=0.5)", red);
        else
            tp_forward(t, "return F.%s(pred, target, reduction='%s')", op, red);
    }
    tp_output(t, NULL, outshape);
    tp_describe(t, "%s, reduction %s", op, red);
    tp_default_tolerance(t, scalar ? 100 : 4);
}

static void gen_cum(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    int prod = strcmp(op, "cumprod") == 0;
    st_begin(s, s->t, s->g, (TLayout[]){TL_VEC, TL_SEQ, TL_IMG, TL_VEC}[i % 4], 1, prod ? 0.9 : -1.0,
             prod ? 1.1 : 1.0);
    int dim = i % 2 ? 1 : -1;
    tp_describe(s->t, "%s along dim %d", op, dim);
    if (strcmp(op, "cummax") == 0) {
        tp_forward(s->t, "return torch.cummax(x, dim=%d)", dim);
        tp_output(s->t, NULL, st_shape(s));
        tp_output(s->t, "i64", st_shape(s));
        tp_cost(s->t, st_numel(s), NULL);
        return;
    }
    if (strcmp(op, "cumsum_reverse") == 0)
        tp_forward(s->t, "h = torch.flip(torch.cumsum(torch.flip(x, [%d]), dim=%d), [%d])", dim, dim, dim);
    else
        tp_forward(s->t, "h = torch.%s(x, dim=%d)", op, dim);
    snprintf(s->var, sizeof s->var, "h");
    st_add_flops(s, "%s", st_numel(s));
    s->loose = 100;
    st_finish(s);
}

static void gen_argred(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    TorchProg *t = s->t;
    st_begin(s, t, s->g, (TLayout[]){TL_VEC, TL_SEQ, TL_IMG, TL_VEC}[i % 4], 1, -1, 1);
    int dim = i % 2 ? 1 : s->rank - 1;
    char rest[1024] = "";
    for (int d = 0; d < s->rank; d++)
        if (d != dim)
            snprintf(rest + strlen(rest), sizeof rest - strlen(rest), "%s%s", rest[0] ? "," : "", s->dim[d]);
    tp_describe(t, "%s along dim %d", op, dim);
    tp_cost(t, st_numel(s), NULL);
    if (strcmp(op, "argmax") == 0 || strcmp(op, "argmin") == 0) {
        tp_forward(t, "return torch.%s(x, dim=%d)", op, dim);
        tp_output(t, "i64", rest);
    } else if (strcmp(op, "max_dim") == 0) {
        tp_forward(t, "return torch.max(x, dim=%d)", dim);
        tp_output(t, NULL, rest);
        tp_output(t, "i64", rest);
    } else if (strcmp(op, "sort") == 0) {
        tp_forward(t, "return torch.sort(x, dim=%d, descending=%s)", dim, i % 3 ? "True" : "False");
        tp_output(t, NULL, st_shape(s));
        tp_output(t, "i64", st_shape(s));
    } else {
        int k = 1 + i % 4;
        char sh[1024] = "";
        for (int d = 0; d < s->rank; d++) {
            char kk[8];
            snprintf(kk, sizeof kk, "%d", k);
            snprintf(sh + strlen(sh), sizeof sh - strlen(sh), "%s%s", d ? "," : "", d == dim ? kk : s->dim[d]);
        }
        /* every config's dim must hold k elements */
        for (int c = 0; c < TP_NCFG; c++)
            if (tp_eval(t, s->dim[dim], c) < k)
                tp_fail(t, "topk: dim %d smaller than k=%d", dim, k);
        tp_forward(t, "return torch.topk(x, %d, dim=%d)", k, dim);
        tp_output(t, NULL, sh);
        tp_output(t, "i64", sh);
    }
}

static void gen_index(Stage *s, const L1Spec *sp, int i)
{
    const char *op = sp->op;
    TorchProg *t = s->t;
    GenCtx *g = s->g;
    static const int64_t bl[] = {4096, 8192, 2048, 6144, 1024, 3072}, fl[] = {1024, 2048};
    tp_param(t, "B", gen_randint(g, 8, 32), bl[i % 6], i % 2 ? 1 : 5);
    tp_param(t, "N", 16 * gen_randint(g, 2, 8), fl[gen_randint(g, 0, 1)], 17);
    tp_cost(t, "B*N", NULL);
    tp_describe(t, "%s", op);
    if (strcmp(op, "gather") == 0 || strcmp(op, "take_along_dim") == 0) {
        tp_param(t, "K", 4 * gen_randint(g, 1, 8), 256, 3);
        tp_input(t, "x", "B,N", -1, 1);
        tp_input_int(t, "idx", "B,K", "0", "N");
        if (op[0] == 'g')
            tp_forward(t, "return torch.gather(x, 1, idx)");
        else
            tp_forward(t, "return torch.take_along_dim(x, idx, dim=1)");
        tp_output(t, NULL, "B,K");
    } else if (strcmp(op, "index_select") == 0) {
        tp_param(t, "K", 4 * gen_randint(g, 1, 8), 2048, 3);
        tp_input(t, "x", "B,N", -1, 1);
        tp_input_int(t, "idx", "K", "0", "B");
        tp_forward(t, "return torch.index_select(x, 0, idx)");
        tp_output(t, NULL, "K,N");
    } else if (strcmp(op, "embedding") == 0) {
        tp_param(t, "V", 32 * gen_randint(g, 2, 8), 50000, 7);
        tp_init_arg(t, "num_embeddings", "V");
        tp_init_arg(t, "dim", "N");
        tp_init(t, "self.emb = nn.Embedding(num_embeddings, dim)");
        tp_weight(t, "emb.weight", NULL, "V,N");
        tp_input_int(t, "ids", "B", "0", "V");
        tp_forward(t, "return self.emb(ids)");
        tp_output(t, NULL, "B,N");
    } else if (strcmp(op, "masked_fill") == 0) {
        tp_input(t, "x", "B,N", -1, 1);
        tp_input_bool(t, "mask", "B,N");
        tp_forward(t, "return x.masked_fill(mask, %s)", i % 2 ? "0.0" : "-1.0");
        tp_output(t, NULL, "B,N");
    } else if (strcmp(op, "where") == 0) {
        tp_input(t, "x", "B,N", -1, 1);
        tp_input(t, "y", "B,N", -1, 1);
        tp_forward(t, "return torch.where(x > y, x, y * 0.5)");
        tp_output(t, NULL, "B,N");
    } else if (strcmp(op, "scatter_add") == 0) {
        tp_param(t, "K", 4 * gen_randint(g, 1, 8), 256, 3);
        tp_input(t, "src", "B,K", -1, 1);
        tp_input_int(t, "idx", "B,K", "0", "N");
        tp_forward(t, "return torch.zeros(src.shape[0], %s, dtype=src.dtype).scatter_add(1, idx, src)", "N");
        tp_output(t, NULL, "B,N");
    } else {
        tp_param(t, "K", 4 * gen_randint(g, 1, 8), 4096, 3);
        tp_input(t, "src", "K,N", -1, 1);
        tp_input_int(t, "idx", "K", "0", "B");
        tp_forward(t, "return torch.zeros(%s, src.shape[1], dtype=src.dtype).index_add(0, idx, src)", "B");
        tp_output(t, NULL, "B,N");
    }
    tp_default_tolerance(t, strstr(op, "add") ? 10 : 1);
}

static int l1_generate(GenCtx *g)
{
    const L1Spec *sp = &SPECS[torch_family_index(gen_family(g))];
    int mask = sp->dtypes ? sp->dtypes : st_act_dtypes(sp->op);
    for (int i = 0; i < sp->count; i++) {
        const char *dt = pick_dtype(mask, i);
        char variant[96];
        snprintf(variant, sizeof variant, "%s-%s-%03d", sp->op, dt, i);
        Stage s;
        memset(&s, 0, sizeof s);
        s.variant = i;
        s.t = tp_begin(g, variant, dt);
        s.g = g;
        switch (sp->kind) {
        case K_ACT: gen_act(&s, sp, i); break;
        case K_RED: gen_red(&s, sp, i); break;
        case K_SOFTMAX: gen_softmax(&s, sp, i); break;
        case K_NORM: gen_norm(&s, sp, i); break;
        case K_MM: gen_mm(&s, sp, i); break;
        case K_CONV:
            if (strcmp(sp->op, "conv2d_grouped") == 0)
                gen_conv_grouped(&s, i);
            else
                gen_conv(&s, sp, i);
            break;
        case K_POOL: gen_pool(&s, sp, i); break;
        case K_LOSS: gen_loss(&s, sp, i); break;
        case K_CUM: gen_cum(&s, sp, i); break;
        case K_ARG: gen_argred(&s, sp, i); break;
        default: gen_index(&s, sp, i); break;
        }
        sb_release(&s.flops);
        if (tp_end(s.t) != 0)
            return -1;
    }
    return 0;
}

int torch_l1_families(Family *out, int max)
{
    int n = 0;
    for (int i = 0; i < N_SPECS && n < max; i++, n++) {
        static char names[N_SPECS][64];
        snprintf(names[i], sizeof names[i], "torch_l1_%s", SPECS[i].op);
        out[n] = (Family){names[i], "torch-level1", SPECS[i].count, l1_generate};
    }
    return n;
}
