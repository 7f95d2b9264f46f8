/* torch_l1.c — level 1 PyTorch programs: one operator each (activations,
 * reductions, softmax, norms, matmul variants, convolutions and transposed
 * convolutions, pooling, losses, cumulative ops, arg-reductions, indexing).
 * One family per operator ("torch_l1_<op>"); its programs vary the dtype,
 * the layout and rank of the input, the dimension operated on and the
 * operator's settings, with sizes drawn for every config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torch_cuda.h"
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
    {"argmax", K_ARG, 4, BALL}, {"argmin", K_ARG, 4, BALL}, {"topk", K_ARG, 4, B32}, {"sort", K_ARG, 4, BALL},
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

/* ---- the reference CUDA implementations ----
 *
 * Size params reach kernels by name, so as the i64 values meta.json gives
 * them: kernels take them as `long long` (an expression in a launch's args
 * would arrive as an int; none is passed).  Index math is in long long. */

/* Block-wide float sum and max, returned to every thread: a butterfly in
 * each warp, then every thread adds the warps' partials in the same order,
 * so the result is deterministic.  blockDim.x is a multiple of 32.  Each
 * is written only where a kernel calls it (emit_block_reduce). */
static const char BLOCK_SUM[] =
    "static __device__ float block_sum(float v)\n"
    "{\n"
    "    __shared__ float part[32];\n"
    "    for (int o = 16; o > 0; o >>= 1)\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
    "    __syncthreads(); /* a previous call may still be reading part[] */\n"
    "    if (threadIdx.x % 32 == 0)\n"
    "        part[threadIdx.x / 32] = v;\n"
    "    __syncthreads();\n"
    "    float s = 0.0f;\n"
    "    for (int w = 0; w < (int)(blockDim.x / 32); w++)\n"
    "        s += part[w];\n"
    "    return s;\n"
    "}\n\n";
static const char BLOCK_MAX[] =
    "static __device__ float block_max(float v)\n"
    "{\n"
    "    __shared__ float part[32];\n"
    "    for (int o = 16; o > 0; o >>= 1)\n"
    "        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x % 32 == 0)\n"
    "        part[threadIdx.x / 32] = v;\n"
    "    __syncthreads();\n"
    "    float m = -INFINITY;\n"
    "    for (int w = 0; w < (int)(blockDim.x / 32); w++)\n"
    "        m = fmaxf(m, part[w]);\n"
    "    return m;\n"
    "}\n\n";

/* block_sum, and block_max when `max` (a row's log-sum-exp needs it), for
 * the kernels written next: a reference carries no helper it never calls
 * (40 loss, normalize and matvec programs carried an unused block_max, or
 * all of them beside an element-wise loss). */
static void emit_block_reduce(TorchProg *t, int max)
{
    tc_cuda(t, "%s%s", BLOCK_SUM, max ? BLOCK_MAX : "");
}

/* v rounded to the program's dtype (torch materialises intermediates in it). */
static void emit_round(TorchProg *t)
{
    tc_cuda(t,
            "/* v rounded to the element type, as torch stores an intermediate tensor */\n"
            "static __device__ float round_to_dtype(float v)\n"
            "{\n"
            "    %s r[1];\n"
            "    tc_st(r, 0, v);\n"
            "    return tc_ld(r, 0);\n"
            "}\n\n",
            tc_type(t));
}

/* A scratch buffer of floats (accumulators, per-row partial sums). */
static const char *f32_scratch(TorchProg *t, const char *count)
{
    const char *name = tp_keep(t, xasprintf("t%d", tp_serial(t)));
    gen_scratch(tp_gen(t), name, "f32", count);
    return name;
}

/* One thread per element over n (an expression of the params). */
static void launch_flat(TorchProg *t, const char *kernel, const char *n, const char *args)
{
    char *grid = xasprintf("(%s+255)/256", n);
    gen_launch(tp_gen(t), kernel, grid, "256", NULL, args);
    free(grid);
}

/* One block per row, `rows` of them. */
static void launch_rows(TorchProg *t, const char *kernel, const char *rows, const char *args)
{
    gen_launch(tp_gen(t), kernel, rows, "256", NULL, args);
}

static void knobs(TorchProg *t, const char *mapping)
{
    gen_knob(tp_gen(t), "block", "256");
    gen_knob(tp_gen(t), "mapping", mapping);
}

/* The current tensor of a stage around dimension `dim`, seen as [outer,
 * len, inner]: `params` is the kernel's parameter list for its dims
 * ("long long B, long long L, long long N"), `args` the launch args
 * ("B,L,N"), `shape` the C declarations of outer, len and inner, `count`
 * the number of lines (outer*inner); outer, len and inner also as
 * expressions of the params.  A dim that is not a plain param name is a
 * bug in the family: the program fails (tp_fail) and -1 is returned. */
typedef struct Lines {
    char params[256], args[128], shape[256], count[128];
    char outer[96], len[64], inner[96];
} Lines;

static int lines_of(const Stage *s, int dim, Lines *ln)
{
    char outer[96] = "", inner[96] = "", count[128] = "";
    ln->params[0] = ln->args[0] = '\0';
    for (int d = 0; d < s->rank; d++) {
        const char *n = s->dim[d];
        for (const char *c = n; *c; c++)
            if (!(*c == '_' || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) {
                tp_fail(s->t, "dimension %d ('%s') is not a param: its kernel takes the dims by name", d, n);
                return -1;
            }
        snprintf(ln->params + strlen(ln->params), sizeof ln->params - strlen(ln->params), "%slong long %s",
                 d ? ", " : "", n);
        snprintf(ln->args + strlen(ln->args), sizeof ln->args - strlen(ln->args), "%s%s", d ? "," : "", n);
        if (d == dim)
            continue;
        char *side = d < dim ? outer : inner;
        snprintf(side + strlen(side), 96 - strlen(side), "%s%s", side[0] ? " * " : "", n);
        snprintf(count + strlen(count), sizeof count - strlen(count), "%s%s", count[0] ? "*" : "", n);
    }
    snprintf(ln->shape, sizeof ln->shape, "    const long long outer = %s, len = %s, inner = %s;\n",
             outer[0] ? outer : "1", s->dim[dim], inner[0] ? inner : "1");
    snprintf(ln->count, sizeof ln->count, "%s", count[0] ? count : "1");
    snprintf(ln->outer, sizeof ln->outer, "%s", outer[0] ? outer : "1");
    snprintf(ln->len, sizeof ln->len, "%s", s->dim[dim]);
    snprintf(ln->inner, sizeof ln->inner, "%s", inner[0] ? inner : "1");
    return 0;
}

/* ---- CUDA: indexing ---- */

static void cuda_index(TorchProg *t, const char *op, int fill_zero)
{
    const char *T = tc_type(t), *k = tc_name(t, op);
    if (strcmp(op, "gather") == 0 || strcmp(op, "take_along_dim") == 0) {
        tc_cuda(t,
                "/* out[b][k] = x[b][idx[b][k]] */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ x, const long long *__restrict__ idx,\n"
                "    %s *__restrict__ out, long long B, long long N, long long K)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * K)\n"
                "        return;\n"
                "    const long long b = i / K;\n"
                "    tc_st(out, i, tc_ld(x, b * N + idx[i]));\n"
                "}\n",
                k, T, T);
        launch_flat(t, k, "B*K", "x,idx,out,B,N,K");
    } else if (strcmp(op, "index_select") == 0) {
        tc_cuda(t,
                "/* out[k][n] = x[idx[k]][n] */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ x, const long long *__restrict__ idx,\n"
                "    %s *__restrict__ out, long long N, long long K)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= K * N)\n"
                "        return;\n"
                "    const long long r = i / N, n = i %% N;\n"
                "    tc_st(out, i, tc_ld(x, idx[r] * N + n));\n"
                "}\n",
                k, T, T);
        launch_flat(t, k, "K*N", "x,idx,out,N,K");
    } else if (strcmp(op, "embedding") == 0) {
        tc_cuda(t,
                "/* out[b][n] = weight[ids[b]][n] */\n"
                "extern \"C\" __global__ void %s(const long long *__restrict__ ids, const %s *__restrict__ weight,\n"
                "    %s *__restrict__ out, long long B, long long N)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * N)\n"
                "        return;\n"
                "    const long long b = i / N, n = i %% N;\n"
                "    tc_st(out, i, tc_ld(weight, ids[b] * N + n));\n"
                "}\n",
                k, T, T);
        launch_flat(t, k, "B*N", "ids,w.emb.weight,out,B,N");
    } else if (strcmp(op, "masked_fill") == 0) {
        tc_cuda(t,
                "/* out = mask ? %s : x */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ x, const unsigned char *__restrict__ mask,\n"
                "    %s *__restrict__ out, long long B, long long N)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * N)\n"
                "        return;\n"
                "    tc_st(out, i, mask[i] ? %s : tc_ld(x, i));\n"
                "}\n",
                fill_zero ? "0" : "-1", k, T, T, fill_zero ? "0.0f" : "-1.0f");
        launch_flat(t, k, "B*N", "x,mask,out,B,N");
    } else if (strcmp(op, "where") == 0) {
        tc_cuda(t,
                "/* out = x > y ? x : y * 0.5 */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ x, const %s *__restrict__ y,\n"
                "    %s *__restrict__ out, long long B, long long N)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * N)\n"
                "        return;\n"
                "    const float a = tc_ld(x, i), b = tc_ld(y, i);\n"
                "    tc_st(out, i, a > b ? a : b * 0.5f);\n"
                "}\n",
                k, T, T, T);
        launch_flat(t, k, "B*N", "x,y,out,B,N");
    } else {
        /* scatter_add / index_add: float accumulators (zeroed), atomic adds,
         * then the sums stored in the dtype */
        int scatter = strcmp(op, "scatter_add") == 0;
        const char *acc = f32_scratch(t, "B*N");
        const char *kz = tc_name(t, "zero"), *kf = tc_name(t, "store");
        tc_cuda(t,
                "extern \"C\" __global__ void %s(float *__restrict__ acc, long long B, long long N)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * N)\n"
                "        return;\n"
                "    acc[i] = 0.0f;\n"
                "}\n\n",
                kz);
        if (scatter)
            tc_cuda(t,
                    "/* acc[b][idx[b][k]] += src[b][k] */\n"
                    "extern \"C\" __global__ void %s(const %s *__restrict__ src, const long long *__restrict__ idx,\n"
                    "    float *__restrict__ acc, long long N, long long B, long long K)\n"
                    "{\n"
                    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i >= B * K)\n"
                    "        return;\n"
                    "    const long long b = i / K;\n"
                    "    atomicAdd(&acc[b * N + idx[i]], tc_ld(src, i));\n"
                    "}\n\n",
                    k, T);
        else
            tc_cuda(t,
                    "/* acc[idx[k]][n] += src[k][n] */\n"
                    "extern \"C\" __global__ void %s(const %s *__restrict__ src, const long long *__restrict__ idx,\n"
                    "    float *__restrict__ acc, long long N, long long K)\n"
                    "{\n"
                    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i >= K * N)\n"
                    "        return;\n"
                    "    const long long r = i / N, n = i %% N;\n"
                    "    atomicAdd(&acc[idx[r] * N + n], tc_ld(src, i));\n"
                    "}\n\n",
                    k, T);
        tc_cuda(t,
                "extern \"C\" __global__ void %s(const float *__restrict__ acc, %s *__restrict__ out, long long B,\n"
                "    long long N)\n"
                "{\n"
                "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= B * N)\n"
                "        return;\n"
                "    tc_st(out, i, acc[i]);\n"
                "}\n",
                kf, T);
        char *a = xasprintf("%s,B,N", acc);
        launch_flat(t, kz, "B*N", a);
        free(a);
        a = scatter ? xasprintf("src,idx,%s,N,B,K", acc) : xasprintf("src,idx,%s,N,K", acc);
        launch_flat(t, k, scatter ? "B*K" : "K*N", a);
        free(a);
        a = xasprintf("%s,out,B,N", acc);
        launch_flat(t, kf, "B*N", a);
        free(a);
    }
    knobs(t, "thread-per-element");
}

/* ---- CUDA: losses ---- */

/* The elementwise losses: the term at element i, from the inputs. */
typedef struct LossTerm {
    const char *op, *inputs, *body; /* inputs: the buffers, in forward()'s order */
} LossTerm;

static const LossTerm LOSS_TERMS[] = {
    {"mse_loss", "pred,target", "    const float d = tc_ld(pred, i) - tc_ld(target, i);\n    return d * d;\n"},
    {"l1_loss", "pred,target", "    return fabsf(tc_ld(pred, i) - tc_ld(target, i));\n"},
    {"smooth_l1_loss", "pred,target",
     "    /* beta = 0.5 */\n"
     "    const float d = fabsf(tc_ld(pred, i) - tc_ld(target, i));\n"
     "    return d < 0.5f ? 0.5f * d * d / 0.5f : d - 0.5f * 0.5f;\n"},
    {"huber_loss", "pred,target",
     "    /* delta = 0.5 */\n"
     "    const float d = fabsf(tc_ld(pred, i) - tc_ld(target, i));\n"
     "    return d < 0.5f ? 0.5f * d * d : 0.5f * (d - 0.5f * 0.5f);\n"},
    {"bce_with_logits", "logits,target",
     "    /* max(x, 0) - x*t + log(1 + exp(-|x|)): no overflow for any x */\n"
     "    const float x = tc_ld(logits, i), y = tc_ld(target, i);\n"
     "    return fmaxf(x, 0.0f) - x * y + log1pf(expf(-fabsf(x)));\n"},
    {"hinge_embedding_loss", "pred,sign",
     "    /* margin 1: x where y = 1, max(0, 1 - x) where y = -1 */\n"
     "    const float x = tc_ld(pred, i);\n"
     "    return tc_ld(sign, i) >= 0.0f ? x : fmaxf(0.0f, 1.0f - x);\n"},
    {"soft_margin_loss", "pred,sign",
     "    const float y = tc_ld(sign, i) >= 0.0f ? 1.0f : -1.0f;\n"
     "    return log1pf(expf(-y * tc_ld(pred, i)));\n"},
    {"margin_ranking_loss", "a,b,sign",
     "    /* margin 0.1 */\n"
     "    const float y = tc_ld(sign, i) >= 0.0f ? 1.0f : -1.0f;\n"
     "    return fmaxf(0.0f, -y * (tc_ld(a, i) - tc_ld(b, i)) + 0.1f);\n"},
};

/* "const T *__restrict__ a,\n    const T *__restrict__ b" and "a, b" for the
 * comma-separated buffer names. */
static void buffer_params(const char *T, const char *names, char *params, size_t plen, char *call, size_t clen)
{
    params[0] = call[0] = '\0';
    char copy[128];
    snprintf(copy, sizeof copy, "%s", names);
    int first = 1;
    for (char *save, *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save), first = 0) {
        snprintf(params + strlen(params), plen - strlen(params), "%sconst %s *__restrict__ %s", first ? "" : ",\n    ",
                 T, n);
        snprintf(call + strlen(call), clen - strlen(call), "%s%s", first ? "" : ", ", n);
    }
}

/* The final reduction of per-row partials: out = sum / divisor. */
static void emit_loss_final(TorchProg *t, const char *part, const char *divisor)
{
    const char *k = tc_name(t, "loss_total");
    tc_cuda(t,
            "/* out = the sum of the rows' partials%s; one block */\n"
            "extern \"C\" __global__ void %s(const float *__restrict__ part, %s *__restrict__ out, long long B,\n"
            "    long long N)\n"
            "{\n"
            "    float s = 0.0f;\n"
            "    for (long long r = threadIdx.x; r < B; r += blockDim.x)\n"
            "        s += part[r];\n"
            "    s = block_sum(s);\n"
            "    if (threadIdx.x == 0)\n"
            "        tc_st(out, 0, s%s);\n"
            "}\n",
            divisor ? divisor : "", k, tc_type(t), divisor ? divisor : "");
    char *a = xasprintf("%s,out,B,N", part);
    gen_launch(tp_gen(t), k, "1", "256", NULL, a);
    free(a);
}

static void cuda_loss(TorchProg *t, const char *op, const char *red)
{
    const char *T = tc_type(t);
    int none = strcmp(red, "none") == 0, mean = strcmp(red, "mean") == 0;
    const LossTerm *lt = NULL;
    for (size_t e = 0; e < sizeof LOSS_TERMS / sizeof *LOSS_TERMS; e++)
        if (strcmp(LOSS_TERMS[e].op, op) == 0)
            lt = &LOSS_TERMS[e];
    /* the helpers the kernels below call: an element-wise loss kept per
     * element calls neither a block reduction nor round_to_dtype; the
     * log-softmax rows (cross_entropy, nll_loss, kl_div) take a block max */
    if (!(lt && none)) {
        emit_block_reduce(t, !lt && strcmp(op, "triplet_margin_loss") != 0 && strcmp(op, "cosine_similarity") != 0);
        emit_round(t);
    }
    if (lt) {
        char params[512], call[128];
        buffer_params(T, lt->inputs, params, sizeof params, call, sizeof call);
        tc_cuda(t, "/* %s at element i */\nstatic __device__ float loss_term(%s, long long i)\n{\n%s}\n\n", op, params,
                lt->body);
        const char *k = tc_name(t, op);
        if (none) {
            tc_cuda(t,
                    "extern \"C\" __global__ void %s(%s,\n    %s *__restrict__ out, long long B, long long N)\n"
                    "{\n"
                    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i >= B * N)\n"
                    "        return;\n"
                    "    tc_st(out, i, loss_term(%s, i));\n"
                    "}\n",
                    k, params, T, call);
            char *a = xasprintf("%s,out,B,N", lt->inputs);
            launch_flat(t, k, "B*N", a);
            free(a);
            knobs(t, "thread-per-element");
            return;
        }
        const char *part = f32_scratch(t, "B");
        tc_cuda(t,
                "/* part[b] = the sum of row b's terms (one block per row) */\n"
                "extern \"C\" __global__ void %s(%s,\n    float *__restrict__ part, long long N)\n"
                "{\n"
                "    const long long row = blockIdx.x;\n"
                "    float s = 0.0f;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x)\n"
                "        s += round_to_dtype(loss_term(%s, row * N + j));\n"
                "    s = block_sum(s);\n"
                "    if (threadIdx.x == 0)\n"
                "        part[row] = s;\n"
                "}\n\n",
                k, params, call);
        char *a = xasprintf("%s,%s,N", lt->inputs, part);
        launch_rows(t, k, "B", a);
        free(a);
        emit_loss_final(t, part, mean ? " / ((float)B * (float)N)" : NULL);
        knobs(t, "block-per-row");
        return;
    }

    /* the row losses: one block per row; `dst` gets the row's value (out
     * for reduction none, else a float partial) */
    const char *k = tc_name(t, op);
    const char *part = none ? "out" : f32_scratch(t, "B");
    const char *dst_t = none ? T : "float";
    char *args = NULL;
    if (strcmp(op, "cross_entropy") == 0 || strcmp(op, "nll_loss") == 0) {
        tc_cuda(t,
                "/* row b: -log_softmax(logits[b])[target[b]] */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ logits,\n"
                "    const long long *__restrict__ target, %s *__restrict__ dst, long long N)\n"
                "{\n"
                "    const long long row = blockIdx.x;\n"
                "    const %s *x = logits + row * N;\n"
                "    float m = -INFINITY;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x)\n"
                "        m = fmaxf(m, tc_ld(x, j));\n"
                "    m = block_max(m);\n"
                "    float s = 0.0f;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x)\n"
                "        s += expf(tc_ld(x, j) - m);\n"
                "    s = block_sum(s);\n"
                "    if (threadIdx.x == 0)\n"
                "        tc_st(dst, row, -round_to_dtype(tc_ld(x, target[row]) - m - logf(s)));\n"
                "}\n\n",
                k, T, dst_t, T);
        args = xasprintf("logits,target,%s,N", part);
    } else if (strcmp(op, "triplet_margin_loss") == 0) {
        tc_cuda(t,
                "/* row b: max(|a - p + eps| - |a - n + eps| + 1, 0), eps = 1e-6 */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ anchor,\n"
                "    const %s *__restrict__ positive, const %s *__restrict__ negative, %s *__restrict__ dst,\n"
                "    long long N)\n"
                "{\n"
                "    const long long row = blockIdx.x;\n"
                "    float sp = 0.0f, sn = 0.0f;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x) {\n"
                "        const long long i = row * N + j;\n"
                "        const float a = tc_ld(anchor, i);\n"
                "        const float dp = round_to_dtype(round_to_dtype(a - tc_ld(positive, i)) + 1e-6f);\n"
                "        const float dn = round_to_dtype(round_to_dtype(a - tc_ld(negative, i)) + 1e-6f);\n"
                "        sp += dp * dp;\n"
                "        sn += dn * dn;\n"
                "    }\n"
                "    sp = block_sum(sp);\n"
                "    sn = block_sum(sn);\n"
                "    if (threadIdx.x == 0)\n"
                "        tc_st(dst, row, fmaxf(round_to_dtype(sqrtf(sp)) - round_to_dtype(sqrtf(sn)) + 1.0f, 0.0f));\n"
                "}\n\n",
                k, T, T, T, dst_t);
        args = xasprintf("anchor,positive,negative,%s,N", part);
    } else if (strcmp(op, "cosine_similarity") == 0) {
        tc_cuda(t,
                "/* row b: a.b / (max(|a|, eps) * max(|b|, eps)), eps = 1e-8%s */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ a, const %s *__restrict__ b,\n"
                "    %s *__restrict__ dst, long long N)\n"
                "{\n"
                "    const long long row = blockIdx.x;\n"
                "    float ab = 0.0f, aa = 0.0f, bb = 0.0f;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x) {\n"
                "        const float x = tc_ld(a, row * N + j), y = tc_ld(b, row * N + j);\n"
                "        ab += x * y;\n"
                "        aa += x * x;\n"
                "        bb += y * y;\n"
                "    }\n"
                "    ab = block_sum(ab);\n"
                "    aa = block_sum(aa);\n"
                "    bb = block_sum(bb);\n"
                "    const float cosine = round_to_dtype(ab / (fmaxf(sqrtf(aa), 1e-8f) * fmaxf(sqrtf(bb), 1e-8f)));\n"
                "    if (threadIdx.x == 0)\n"
                "        tc_st(dst, row, %s);\n"
                "}\n\n",
                none ? "" : "; the loss is 1 - that", k, T, T, dst_t,
                none ? "cosine" : "round_to_dtype(1.0f - cosine)");
        args = xasprintf("a,b,%s,N", part);
    } else { /* kl_div(log_softmax(p), softmax(q)) */
        tc_cuda(t,
                "/* row b of kl_div(log_softmax(p), softmax(q)): t * (log t - lp) with\n"
                " * lp = log_softmax(p), t = softmax(q), each rounded to the dtype as torch\n"
                " * stores them; %s */\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ p, const %s *__restrict__ q,\n"
                "    %s *__restrict__ dst, long long N)\n"
                "{\n"
                "    const long long row = blockIdx.x;\n"
                "    const %s *x = p + row * N, *y = q + row * N;\n"
                "    float mx = -INFINITY, my = -INFINITY;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x) {\n"
                "        mx = fmaxf(mx, tc_ld(x, j));\n"
                "        my = fmaxf(my, tc_ld(y, j));\n"
                "    }\n"
                "    mx = block_max(mx);\n"
                "    my = block_max(my);\n"
                "    float sx = 0.0f, sy = 0.0f;\n"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x) {\n"
                "        sx += expf(tc_ld(x, j) - mx);\n"
                "        sy += expf(tc_ld(y, j) - my);\n"
                "    }\n"
                "    const float lse = mx + logf(block_sum(sx)), sum_y = block_sum(sy);\n"
                "%s"
                "    for (long long j = threadIdx.x; j < N; j += blockDim.x) {\n"
                "        const float lp = round_to_dtype(tc_ld(x, j) - lse);\n"
                "        const float tq = round_to_dtype(expf(tc_ld(y, j) - my) / sum_y);\n"
                "        const float v = tq > 0.0f ? tq * (logf(tq) - lp) : 0.0f;\n"
                "%s"
                "    }\n"
                "%s"
                "}\n\n",
                none ? "out[b][j] = that" : "dst[b] = its sum over j", k, T, T, dst_t, T,
                none ? "" : "    float s = 0.0f;\n",
                none ? "        tc_st(dst, row * N + j, v);\n" : "        s += round_to_dtype(v);\n",
                none ? "" : "    s = block_sum(s);\n    if (threadIdx.x == 0)\n        dst[row] = s;\n");
        args = xasprintf("p,q,%s,N", part);
    }
    launch_rows(t, k, "B", args);
    free(args);
    if (!none)
        emit_loss_final(t, part, mean || strcmp(op, "kl_div") == 0 ? " / (float)B" : NULL);
    knobs(t, "block-per-row");
}

/* ---- CUDA: scans and arg-reductions along a dimension ----
 * The tensor is [outer, len, inner] around the dimension; element r of
 * line (o, n) is at (o * len + r) * inner + n. */

/* `in` to `out` (cummax: to out0 and its indices out1); s has the shape. */
static void cuda_cum(TorchProg *t, const Stage *s, const char *op, int dim, const char *in, const char *out)
{
    Lines ln;
    if (lines_of(s, dim, &ln) != 0)
        return;
    const char *T = tc_type(t), *k = tc_name(t, op);
    int cummax = strcmp(op, "cummax") == 0, reverse = strcmp(op, "cumsum_reverse") == 0;
    const char *init = "0.0f", *step = "acc += v;";
    if (strcmp(op, "cumprod") == 0)
        init = "1.0f", step = "acc *= v;";
    else if (strcmp(op, "logcumsumexp") == 0)
        init = "-INFINITY",
        step = "{\n            /* log(exp(acc) + exp(v)), stable */\n"
               "            const float m = fmaxf(acc, v);\n"
               "            acc = m == -INFINITY ? m : m + log1pf(expf(-fabsf(acc - v)));\n        }";
    tc_cuda(t,
            "/* %s along dimension %d: one thread per line%s */\n"
            "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ out%s,\n"
            "    %s)\n"
            "{\n"
            "%s"
            "    const long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (line >= outer * inner)\n"
            "        return;\n"
            "    const long long base = line / inner * len * inner + line %% inner;\n",
            op, dim, cummax ? "; a later equal maximum takes the index, as in torch" : "", k, T, T,
            cummax ? ",\n    long long *__restrict__ idx" : "", ln.params, ln.shape);
    if (cummax)
        tc_cuda(t,
                "    float best = -INFINITY;\n"
                "    long long at = 0;\n"
                "    for (long long r = 0; r < len; r++) {\n"
                "        const float v = tc_ld(x, base + r * inner);\n"
                "        if (v >= best) {\n"
                "            best = v;\n"
                "            at = r;\n"
                "        }\n"
                "        tc_st(out, base + r * inner, best);\n"
                "        idx[base + r * inner] = at;\n"
                "    }\n"
                "}\n");
    else
        tc_cuda(t,
                "    float acc = %s;\n"
                "    for (long long q = 0; q < len; q++) {\n"
                "        const long long r = %s;\n"
                "        const float v = tc_ld(x, base + r * inner);\n"
                "        %s\n"
                "        tc_st(out, base + r * inner, acc);\n"
                "    }\n"
                "}\n",
                init, reverse ? "len - 1 - q" : "q", step);
    char *a = xasprintf("%s,%s,%s", in, cummax ? "out0,out1" : out, ln.args);
    char *n = xasprintf("%s", ln.count);
    launch_flat(t, k, n, a);
    free(a);
    free(n);
    knobs(t, "thread-per-line");
}

/* argmax, argmin, max with indices, topk: one thread per line, the first
 * index among equal values (torch's rule); sort: one block per line, a
 * bitonic sort of the line's indices in shared memory ordered by (value,
 * index), which is torch's stable order. */
static void cuda_arg(TorchProg *t, const Stage *s, const char *op, int dim, int k_top, int descending)
{
    Lines ln;
    if (lines_of(s, dim, &ln) != 0)
        return;
    const char *T = tc_type(t), *k = tc_name(t, op);
    if (strcmp(op, "sort") == 0) {
        tc_cuda(t,
                "#define SORT_MAX 8192 /* the longest line (a power of two) */\n\n"
                "/* Whether element a of the line comes before element b: %s value,\n"
                " * then smaller index; indices past the line (padding) come last. */\n"
                "static __device__ bool before(const %s *x, long long inner, int len, int a, int b)\n"
                "{\n"
                "    if (a >= len || b >= len)\n"
                "        return a < b;\n"
                "    const float va = tc_ld(x, a * inner), vb = tc_ld(x, b * inner);\n"
                "    return va %c vb || (va == vb && a < b);\n"
                "}\n\n"
                "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ values,\n"
                "    long long *__restrict__ indices, %s)\n"
                "{\n"
                "    __shared__ int order[SORT_MAX];\n"
                "%s"
                "    const long long line = blockIdx.x;\n"
                "    const long long base = line / inner * len * inner + line %% inner;\n"
                "    int n = 1; /* len padded to a power of two */\n"
                "    while (n < len)\n"
                "        n <<= 1;\n"
                "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
                "        order[i] = i;\n"
                "    __syncthreads();\n"
                "    for (int size = 2; size <= n; size <<= 1) {\n"
                "        for (int half = size >> 1; half > 0; half >>= 1) {\n"
                "            for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
                "                const int j = i ^ half;\n"
                "                if (j > i) {\n"
                "                    const int a = order[i], b = order[j];\n"
                "                    /* blocks with (i & size) == 0 ascend, the others descend */\n"
                "                    const bool swap = (i & size) == 0 ? before(x + base, inner, (int)len, b, a)\n"
                "                                                      : before(x + base, inner, (int)len, a, b);\n"
                "                    if (swap) {\n"
                "                        order[i] = b;\n"
                "                        order[j] = a;\n"
                "                    }\n"
                "                }\n"
                "            }\n"
                "            __syncthreads();\n"
                "        }\n"
                "    }\n"
                "    for (int r = threadIdx.x; r < len; r += blockDim.x) {\n"
                "        tc_st(values, base + r * inner, tc_ld(x, base + order[r] * inner));\n"
                "        indices[base + r * inner] = order[r];\n"
                "    }\n"
                "}\n",
                descending ? "larger" : "smaller", T, descending ? '>' : '<', k, T, T, ln.params, ln.shape);
        char *a = xasprintf("x,out0,out1,%s", ln.args);
        gen_launch(tp_gen(t), k, ln.count, "256", NULL, a);
        free(a);
        knobs(t, "block-per-line-bitonic");
        return;
    }
    int topk = strcmp(op, "topk") == 0; /* values only: tied values' indices have no one answer */
    int values = strcmp(op, "max_dim") == 0 || topk;
    int least = strcmp(op, "argmin") == 0;
    tc_cuda(t,
            "/* %s along dimension %d: one thread per line; the first index among\n"
            " * equal values */\n"
            "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s%s%s%s,\n"
            "    %s)\n"
            "{\n"
            "%s"
            "    const long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (line >= outer * inner)\n"
            "        return;\n"
            "    const long long o = line / inner, n = line %% inner;\n"
            "    const long long base = o * len * inner + n;\n",
            op, dim, k, T, values ? T : "", values ? " *__restrict__ out" : "", topk ? "" : values ? ",\n    " : "",
            topk ? "" : "long long *__restrict__ idx", ln.params, ln.shape);
    if (strcmp(op, "topk") == 0) {
        tc_cuda(t,
                "    /* pass p takes the largest element after pass p-1's in the order\n"
                "     * (larger value, then smaller index) */\n"
                "    float prev = INFINITY;\n"
                "    long long prev_at = -1;\n"
                "    for (int p = 0; p < %d; p++) {\n"
                "        float best = -INFINITY;\n"
                "        long long at = -1;\n"
                "        for (long long r = 0; r < len; r++) {\n"
                "            const float v = tc_ld(x, base + r * inner);\n"
                "            const bool after_prev = v < prev || (v == prev && r > prev_at);\n"
                "            if (after_prev && (at < 0 || v > best)) {\n"
                "                best = v;\n"
                "                at = r;\n"
                "            }\n"
                "        }\n"
                "        const long long dst = (o * %d + p) * inner + n;\n"
                "        tc_st(out, dst, best);\n"
                "        prev = best;\n"
                "        prev_at = at;\n"
                "    }\n"
                "}\n",
                k_top, k_top);
    } else {
        tc_cuda(t,
                "    float best = tc_ld(x, base);\n"
                "    long long at = 0;\n"
                "    for (long long r = 1; r < len; r++) {\n"
                "        const float v = tc_ld(x, base + r * inner);\n"
                "        if (v %c best) {\n"
                "            best = v;\n"
                "            at = r;\n"
                "        }\n"
                "    }\n"
                "%s"
                "    idx[line] = at;\n"
                "}\n",
                least ? '<' : '>', values ? "    tc_st(out, line, best);\n" : "");
    }
    char *a = xasprintf("x,%s,%s", values && !topk ? "out0,out1" : "out", ln.args);
    launch_flat(t, k, ln.count, a);
    free(a);
    knobs(t, "thread-per-line");
}

/* ---- CUDA: norms and pooling written directly in level 1 ---- */

/* F.normalize(x, p=2, dim=-1): one block per row. */
static void cuda_l2_normalize(TorchProg *t, const Stage *s, const char *in, const char *out)
{
    Lines ln;
    if (lines_of(s, s->rank - 1, &ln) != 0)
        return;
    const char *T = tc_type(t), *k = tc_name(t, "l2_normalize");
    emit_block_reduce(t, 0);
    emit_round(t);
    tc_cuda(t,
            "/* out = x / max(|x|, 1e-12) over each row (the norm rounded to the\n"
            " * dtype, as torch divides by a tensor of it): one block per row */\n"
            "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ out,\n"
            "    %s)\n"
            "{\n"
            "%s"
            "    const long long row = blockIdx.x;\n"
            "    float s = 0.0f;\n"
            "    for (long long j = threadIdx.x; j < len; j += blockDim.x) {\n"
            "        const float v = tc_ld(x, row * len + j);\n"
            "        s += v * v;\n"
            "    }\n"
            "    const float norm = round_to_dtype(fmaxf(sqrtf(block_sum(s)), 1e-12f));\n"
            "    for (long long j = threadIdx.x; j < len; j += blockDim.x)\n"
            "        tc_st(out, row * len + j, tc_ld(x, row * len + j) / norm);\n"
            "}\n",
            k, T, T, ln.params, ln.shape);
    char *a = xasprintf("%s,%s,%s", in, out, ln.args);
    gen_launch(tp_gen(t), k, ln.count, "256", NULL, a);
    free(a);
    knobs(t, "block-per-row");
}

/* F.adaptive_avg_pool2d(x, o) on [B, C, H, W]: output cell (i, j) averages
 * rows [floor(i*H/o), ceil((i+1)*H/o)) and the same for columns; one
 * thread per output. */
static void cuda_adaptive_avg_pool2d(TorchProg *t, int o, const char *in, const char *out)
{
    const char *T = tc_type(t), *k = tc_name(t, "adaptive_avg_pool2d");
    tc_cuda(t,
            "#define OUT_SIZE %d\n\n"
            "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ out,\n"
            "    long long B, long long C, long long H, long long W)\n"
            "{\n"
            "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= B * C * OUT_SIZE * OUT_SIZE)\n"
            "        return;\n"
            "    const long long ox = i %% OUT_SIZE, oy = i / OUT_SIZE %% OUT_SIZE;\n"
            "    const long long plane = i / (OUT_SIZE * OUT_SIZE);\n"
            "    const long long y0 = oy * H / OUT_SIZE, y1 = ((oy + 1) * H + OUT_SIZE - 1) / OUT_SIZE;\n"
            "    const long long x0 = ox * W / OUT_SIZE, x1 = ((ox + 1) * W + OUT_SIZE - 1) / OUT_SIZE;\n"
            "    float s = 0.0f;\n"
            "    for (long long y = y0; y < y1; y++)\n"
            "        for (long long xx = x0; xx < x1; xx++)\n"
            "            s += tc_ld(x, (plane * H + y) * W + xx);\n"
            "    tc_st(out, i, s / (float)((y1 - y0) * (x1 - x0)));\n"
            "}\n",
            o, k, T, T);
    char *n = xasprintf("B*C*%d", o * o);
    char *a = xasprintf("%s,%s,B,C,H,W", in, out);
    launch_flat(t, k, n, a);
    free(a);
    free(n);
    knobs(t, "thread-per-output");
}

/* ---- CUDA: matrix products ---- */

/* One tiled kernel for every product: C[z] = A[z] B[z] with TILE x TILE
 * tiles of A and B staged in shared memory, one thread per output element,
 * float accumulation.  a_at/b_at: the offsets of A(m, k) and B(k, n) in
 * terms of z, row/ka and kb/col; epilogue: the stored value from acc. */
static void cuda_mm(TorchProg *t, const char *op, const char *params, const char *args, const char *batch,
                    const char *a_at, const char *b_at, const char *epilogue)
{
    const char *k = tc_name(t, op);
    tc_cuda(t,
            "#define TILE 16\n\n"
            "/* %s: one thread per output element, TILE x TILE tiles of the\n"
            " * operands staged in shared memory, float accumulation */\n"
            "extern \"C\" __global__ void %s(%s)\n"
            "{\n"
            "    __shared__ float as[TILE][TILE];\n"
            "    __shared__ float bs[TILE][TILE];\n"
            "    const long long z = blockIdx.z;\n"
            "    const long long row = (long long)blockIdx.y * TILE + threadIdx.y;\n"
            "    const long long col = (long long)blockIdx.x * TILE + threadIdx.x;\n"
            "    float acc = 0.0f;\n"
            "    for (long long k0 = 0; k0 < K; k0 += TILE) {\n"
            "        const long long ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;\n"
            "        as[threadIdx.y][threadIdx.x] = row < M && ka < K ? tc_ld(a, %s) : 0.0f;\n"
            "        bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? tc_ld(b, %s) : 0.0f;\n"
            "        __syncthreads();\n"
            "        for (int kk = 0; kk < TILE; kk++)\n"
            "            acc += as[threadIdx.y][kk] * bs[kk][threadIdx.x];\n"
            "        __syncthreads();\n"
            "    }\n"
            "    if (row < M && col < N)\n"
            "        tc_st(out, (z * M + row) * N + col, %s);\n"
            "}\n",
            op, k, params, a_at, b_at, epilogue);
    char *grid = xasprintf("(N+15)/16,(M+15)/16,%s", batch);
    gen_launch(tp_gen(t), k, grid, "16,16", NULL, args);
    free(grid);
    gen_knob(tp_gen(t), "block", "16x16");
    gen_knob(tp_gen(t), "mapping", "tiled-shared-16");
}

static void cuda_matvec(TorchProg *t)
{
    const char *T = tc_type(t), *k = tc_name(t, "matvec");
    emit_block_reduce(t, 0);
    tc_cuda(t,
            "/* out[m] = sum over k of a[m][k] v[k]: one block per row */\n"
            "extern \"C\" __global__ void %s(const %s *__restrict__ a, const %s *__restrict__ v,\n"
            "    %s *__restrict__ out, long long M, long long K)\n"
            "{\n"
            "    const long long row = blockIdx.x;\n"
            "    float s = 0.0f;\n"
            "    for (long long j = threadIdx.x; j < K; j += blockDim.x)\n"
            "        s += tc_ld(a, row * K + j) * tc_ld(v, j);\n"
            "    s = block_sum(s);\n"
            "    if (threadIdx.x == 0)\n"
            "        tc_st(out, row, s);\n"
            "}\n",
            k, T, T, T);
    gen_launch(tp_gen(t), k, "M", "256", NULL, "a,v,out,M,K");
    knobs(t, "block-per-row");
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
        Lines ln;
        const char *in = st_cuda_in(s);
        int plain = lines_of(s, dim, &ln) == 0;
        if (keep)
            snprintf(s->dim[dim], sizeof s->dim[dim], "1");
        else {
            for (int d = dim; d < s->rank - 1; d++)
                memcpy(s->dim[d], s->dim[d + 1], sizeof s->dim[d]);
            s->rank--;
        }
        s->loose *= 10;
        snprintf(s->var, sizeof s->var, "h");
        const char *out = plain ? st_cuda_out(s) : NULL;
        if (out)
            tc_reduce(s->t, "norm", in, out, ln.outer, ln.len, ln.inner);
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
        const char *in = st_cuda_in(s);
        st_add_flops(s, "3*%s", st_numel(s));
        const char *out = st_cuda_out(s);
        if (out)
            cuda_l2_normalize(s->t, s, in, out);
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
    if (strcmp(op, "matvec") == 0) {
        cuda_matvec(t);
        return;
    }
    const char *T = tc_type(t);
    int addmm = strcmp(op, "addmm") == 0;
    char *params = xasprintf("%s%s%sconst %s *__restrict__ a, const %s *__restrict__ b,\n"
                             "    %s *__restrict__ out, long long M, long long N, long long K",
                             addmm ? "const " : "", addmm ? T : "", addmm ? " *__restrict__ c,\n    " : "", T, T, T);
    const char *args = addmm ? "c,a,b,out,M,N,K" : "a,b,out,M,N,K";
    const char *epilogue = addmm ? "0.5f * tc_ld(c, col) + 2.0f * acc" : "acc";
    if (strcmp(op, "bmm") == 0)
        cuda_mm(t, "bmm", params, args, "BATCH", "(z * M + row) * K + ka", "(z * K + kb) * N + col", epilogue);
    else if (strcmp(op, "matmul_broadcast") == 0)
        cuda_mm(t, "matmul_broadcast", params, args, "BATCH", "(z * M + row) * K + ka", "kb * N + col", epilogue);
    else if (strcmp(op, "mm_transposed") == 0)
        cuda_mm(t, "mm_transposed", params, args, "1", "ka * M + row", "col * K + kb", epilogue);
    else
        cuda_mm(t, addmm ? "addmm" : "mm", params, args, "1", "row * K + ka", "kb * N + col", epilogue);
    free(params);
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
    s->buf = "x";  /* the input's buffer: the stage operators then write CUDA */
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
        const char *in = st_cuda_in(s);
        snprintf(s->dim[2], sizeof s->dim[2], "%d", o);
        snprintf(s->dim[3], sizeof s->dim[3], "%d", o);
        const char *out = st_cuda_out(s);
        if (out)
            cuda_adaptive_avg_pool2d(s->t, o, in, out);
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
    cuda_loss(t, op, red);
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
        cuda_cum(s->t, s, op, dim < 0 ? s->rank - 1 : dim, "x", NULL);
        return;
    }
    /* In f16 and bf16 the running value is kept in f32 and each output
     * rounded once.  torch leaves the accumulation's precision to the
     * device: on the H200 its bf16 cumsum, cumprod and logcumsumexp over
     * rows of 1,024 and more differed from an f32 running value rounded
     * per output by up to half the value at single elements, where its CPU
     * build agreed with it; the reference would be a property of the
     * machine, not of the program. */
    int half = strcmp(tp_dtype(s->t), "f32") != 0;
    const char *x = half ? "x.float()" : "x", *back = half ? ".to(x.dtype)" : "";
    if (strcmp(op, "cumsum_reverse") == 0)
        tp_forward(s->t, "h = torch.flip(torch.cumsum(torch.flip(%s, [%d]), dim=%d), [%d])%s", x, dim, dim, dim, back);
    else
        tp_forward(s->t, "h = torch.%s(%s, dim=%d)%s", op, x, dim, back);
    snprintf(s->var, sizeof s->var, "h");
    const char *in = st_cuda_in(s);
    st_add_flops(s, "%s", st_numel(s));
    const char *out = st_cuda_out(s);
    if (out)
        cuda_cum(s->t, s, op, dim < 0 ? s->rank - 1 : dim, in, out);
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
        cuda_arg(t, s, op, dim, 0, 0);
    } else if (strcmp(op, "max_dim") == 0) {
        tp_forward(t, "return torch.max(x, dim=%d)", dim);
        tp_output(t, NULL, rest);
        tp_output(t, "i64", rest);
        cuda_arg(t, s, op, dim, 0, 0);
    } else if (strcmp(op, "sort") == 0) {
        /* stable: the order of equal values (frequent in bf16 and f16) is
         * then defined, so the indices have one right answer */
        for (int c = 0; c < TP_NCFG; c++)
            if (tp_eval(t, s->dim[dim], c) > 8192)
                tp_fail(t, "sort: dim %d longer than 8192 (the CUDA sort's shared-memory line)", dim);
        tp_forward(t, "return torch.sort(x, dim=%d, descending=%s, stable=True)", dim, i % 3 ? "True" : "False");
        tp_output(t, NULL, st_shape(s));
        tp_output(t, "i64", st_shape(s));
        cuda_arg(t, s, op, dim, 0, i % 3 != 0);
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
        /* the values only: f32 lines of thousands of elements tie often
         * enough that which index torch returns for equal values differed
         * between CPU and GPU torch (measured on the H200) */
        tp_forward(t, "return torch.topk(x, %d, dim=%d).values", k, dim);
        tp_output(t, NULL, sh);
        cuda_arg(t, s, op, dim, k, 1);
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
        tp_forward(t, "return torch.zeros(src.shape[0], %s, dtype=src.dtype, device=src.device).scatter_add(1, idx, src)", "N");
        tp_output(t, NULL, "B,N");
    } else {
        tp_param(t, "K", 4 * gen_randint(g, 1, 8), 4096, 3);
        tp_input(t, "src", "K,N", -1, 1);
        tp_input_int(t, "idx", "K", "0", "B");
        tp_forward(t, "return torch.zeros(%s, src.shape[1], dtype=src.dtype, device=src.device).index_add(0, idx, src)", "B");
        tp_output(t, NULL, "B,N");
    }
    tp_default_tolerance(t, strstr(op, "add") ? 10 : 1);
    cuda_index(t, op, i % 2);
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
