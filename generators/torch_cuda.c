#include "torch_cuda.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"

/* Loads widen to float and stores round from float (round-to-nearest-even,
 * as torch does), so kernel bodies are written once for every dtype. */
static const char PRELUDE[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "\n"
    "#ifndef INFINITY /* NVRTC has no math.h */\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#endif\n"
    "\n"
    "static __device__ __forceinline__ float tc_ld(const float *p, long long i) { return p[i]; }\n"
    "static __device__ __forceinline__ float tc_ld(const __half *p, long long i) { return __half2float(p[i]); }\n"
    "static __device__ __forceinline__ float tc_ld(const __nv_bfloat16 *p, long long i) { return __bfloat162float(p[i]); }\n"
    "static __device__ __forceinline__ void tc_st(float *p, long long i, float v) { p[i] = v; }\n"
    "static __device__ __forceinline__ void tc_st(__half *p, long long i, float v) { p[i] = __float2half_rn(v); }\n"
    "static __device__ __forceinline__ void tc_st(__nv_bfloat16 *p, long long i, float v) { p[i] = __float2bfloat16_rn(v); }\n"
    "\n";

const char *tc_type(const TorchProg *t)
{
    const char *dt = tp_dtype(t);
    if (strcmp(dt, "f16") == 0)
        return "__half";
    if (strcmp(dt, "bf16") == 0)
        return "__nv_bfloat16";
    return "float";
}

void tc_cuda(TorchProg *t, const char *fmt, ...)
{
    StrBuf *src = gen_cuda_src(tp_gen(t));
    if (src->len == 0)
        sb_append(src, PRELUDE);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(src, fmt, ap);
    va_end(ap);
}

const char *tc_scratch(TorchProg *t, const char *count)
{
    const char *name = tp_keep(t, xasprintf("t%d", tp_serial(t)));
    gen_scratch(tp_gen(t), name, tp_dtype(t), count);
    return name;
}

const char *tc_name(TorchProg *t, const char *stem)
{
    return tp_keep(t, xasprintf("%s_%d", stem, tp_serial(t)));
}

/* The memo key is the stem and the text, so two operators that happen to
 * share a body (clamp and hardtanh) still get kernels named after them. */
const char *tc_kernel(TorchProg *t, const char *stem, const char *text)
{
    char *key = xasprintf("kernel %s\n%s", stem, text);
    const char *name = tp_memo_get(t, key);
    if (!name) {
        name = tc_name(t, stem);
        char *src = xreplace_all(text, TC_NAME, name);
        tc_cuda(t, "%s", src);
        free(src);
        tp_memo_put(t, key, name);
    }
    free(key);
    return name;
}

/* ---- helpers for the emitters ---- */

/* A size expression as a launch argument: parenthesised, so a bare param
 * (an i64 argument of the problem) is passed as the 32-bit int every
 * kernel here takes.  Kept until tp_end. */
static const char *arg(TorchProg *t, const char *e)
{
    return tp_keep(t, xasprintf("(%s)", e));
}

/* A float literal of C ("2.0f", "1e-05f"). */
static const char *flit(TorchProg *t, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.9g", v);
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    strcat(buf, "f");
    return tp_keep(t, xstrdup(buf));
}

/* One thread per element: a 1-d grid of 256-thread blocks over n. */
static void launch_1d(TorchProg *t, const char *kernel, const char *n, const char *args)
{
    char *grid = xasprintf("(%s+255)/256", arg(t, n));
    gen_launch(tp_gen(t), kernel, grid, "256", NULL, args);
    free(grid);
}

/* One block of 256 threads per row. */
static void launch_rows(TorchProg *t, const char *kernel, const char *rows, const char *args)
{
    gen_launch(tp_gen(t), kernel, arg(t, rows), "256", NULL, args);
}

/* The block-wide reduction helper `tc_block_<op>` (written once per
 * kernel.cu): every thread passes its partial and gets the block's result.
 * Warp shuffles, then one partial per warp in shared memory; any block size
 * that is a multiple of 32 (up to 1024) works. */
static void need_block_reduce(TorchProg *t, const char *op)
{
    static const struct {
        const char *op, *combine;
    } OPS[] = {{"sum", "a + b"}, {"max", "fmaxf(a, b)"}, {"min", "fminf(a, b)"}, {"prod", "a * b"}};
    const char *combine = NULL;
    for (size_t i = 0; i < sizeof OPS / sizeof *OPS; i++)
        if (strcmp(OPS[i].op, op) == 0)
            combine = OPS[i].combine;
    char *sig = xasprintf("float tc_block_%s(float v)", op);
    StrBuf *src = gen_cuda_src(tp_gen(t));
    if (src->len && strstr(src->data, sig)) {
        free(sig);
        return;
    }
    tc_cuda(t,
            "static __device__ __forceinline__ float tc_combine_%s(float a, float b) { return %s; }\n"
            "\n"
            "static __device__ %s\n"
            "{\n"
            "    __shared__ float part[32];\n"
            "    for (int off = 16; off > 0; off /= 2)\n"
            "        v = tc_combine_%s(v, __shfl_xor_sync(0xffffffffu, v, off));\n"
            "    const int lane = threadIdx.x %% 32, warp = threadIdx.x / 32;\n"
            "    __syncthreads(); /* an earlier call may still be reading part */\n"
            "    if (lane == 0)\n"
            "        part[warp] = v;\n"
            "    __syncthreads();\n"
            "    float r = part[0];\n"
            "    for (int k = 1; k < (int)(blockDim.x + 31) / 32; k++)\n"
            "        r = tc_combine_%s(r, part[k]);\n"
            "    return r;\n"
            "}\n\n",
            op, combine, sig, op, op);
    free(sig);
}

/* ---- elementwise ---- */

typedef struct ActDef {
    const char *name;
    const char *body;  /* statements computing float y from float x */
} ActDef;

/* torch's formulas and constants (aten's CPU kernels). */
static const ActDef ACT_DEFS[] = {
    {"relu", "const float y = fmaxf(x, 0.0f);"},
    {"leaky_relu", "const float y = x > 0.0f ? x : 0.01f * x;"},
    {"gelu", "const float y = 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));"},
    {"gelu_tanh", "const float y = 0.5f * x * (1.0f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));"},
    {"silu", "const float y = x / (1.0f + expf(-x));"},
    {"sigmoid", "const float y = 1.0f / (1.0f + expf(-x));"},
    {"tanh", "const float y = tanhf(x);"},
    /* beta 1, threshold 20: linear above it */
    {"softplus", "const float y = x > 20.0f ? x : log1pf(expf(x));"},
    {"elu", "const float y = x > 0.0f ? x : expm1f(x);"},
    {"selu", "const float y = 1.05070098735548049f * (x > 0.0f ? x : 1.67326324235437728f * expm1f(x));"},
    {"celu", "const float y = x > 0.0f ? x : 0.75f * expm1f(x / 0.75f);"},
    {"hardtanh", "const float y = fminf(fmaxf(x, -0.5f), 0.5f);"},
    {"hardswish", "const float y = x * fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f;"},
    {"hardsigmoid", "const float y = fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f;"},
    {"mish", "const float y = x * tanhf(log1pf(expf(x)));"},
    {"softsign", "const float y = x / (1.0f + fabsf(x));"},
    /* torch_stage's relu6 is F.relu6(x * 8.0); tc_relu6 is the plain one */
    {"relu6", "const float y = fminf(fmaxf(x * 8.0f, 0.0f), 6.0f);"},
    {"logsigmoid", "const float y = fminf(x, 0.0f) - log1pf(expf(-fabsf(x)));"},
    {"tanhshrink", "const float y = x - tanhf(x);"},
    {"softshrink", "const float y = x > 0.25f ? x - 0.25f : x < -0.25f ? x + 0.25f : 0.0f;"},
    {"hardshrink", "const float y = x >= -0.25f && x <= 0.25f ? 0.0f : x;"},
    {"exp", "const float y = expf(x);"},
    {"log", "const float y = logf(x);"},
    {"sqrt", "const float y = sqrtf(x);"},
    {"rsqrt", "const float y = rsqrtf(x);"},
    {"reciprocal", "const float y = 1.0f / x;"},
    {"abs", "const float y = fabsf(x);"},
    {"erf", "const float y = erff(x);"},
    {"sin", "const float y = sinf(x);"},
    {"clamp", "const float y = fminf(fmaxf(x, -0.5f), 0.5f);"},
    {"square", "const float y = x * x;"},
};

static const ActDef *find_act_def(const char *name)
{
    for (size_t i = 0; i < sizeof ACT_DEFS / sizeof *ACT_DEFS; i++)
        if (strcmp(ACT_DEFS[i].name, name) == 0)
            return &ACT_DEFS[i];
    return NULL;
}

int tc_act_known(const char *name)
{
    return find_act_def(name) != NULL;
}

/* One thread per element of out = f(in): `body` computes float y from
 * float x (x = in[i]; for two inputs, a = in[i], b = in2[i]). */
static void elementwise(TorchProg *t, const char *stem, const char *in, const char *in2, const char *out,
                        const char *n, const char *body)
{
    const char *T = tc_type(t);
    char *text;
    if (in2)
        text = xasprintf("extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, "
                         "const %s *__restrict__ in2, %s *__restrict__ out, int n)\n"
                         "{\n"
                         "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i >= n)\n"
                         "        return;\n"
                         "    const float a = tc_ld(in, i), b = tc_ld(in2, i);\n"
                         "    %s\n"
                         "    tc_st(out, i, y);\n"
                         "}\n\n",
                         T, T, T, body);
    else
        text = xasprintf("extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, "
                         "%s *__restrict__ out, int n)\n"
                         "{\n"
                         "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i >= n)\n"
                         "        return;\n"
                         "    const float x = tc_ld(in, i);\n"
                         "    %s\n"
                         "    tc_st(out, i, y);\n"
                         "}\n\n",
                         T, T, body);
    const char *k = tc_kernel(t, stem, text);
    free(text);
    char *args = in2 ? xasprintf("%s,%s,%s,%s", in, in2, out, arg(t, n)) : xasprintf("%s,%s,%s", in, out, arg(t, n));
    launch_1d(t, k, n, args);
    free(args);
}

void tc_act(TorchProg *t, const char *name, const char *in, const char *out, const char *n)
{
    const ActDef *a = find_act_def(name);
    if (!a) {
        tp_fail(t, "tc_act: unknown activation '%s'", name);
        return;
    }
    elementwise(t, name, in, NULL, out, n, a->body);
}

void tc_scale(TorchProg *t, const char *in, double k, const char *out, const char *n)
{
    char *body = xasprintf("const float y = x * %s;", flit(t, k));
    elementwise(t, "scale", in, NULL, out, n, body);
    free(body);
}

void tc_add(TorchProg *t, const char *a, const char *b, const char *out, const char *n)
{
    elementwise(t, "add", a, b, out, n, "const float y = a + b;");
}

void tc_copy(TorchProg *t, const char *in, const char *out, const char *n)
{
    elementwise(t, "copy", in, NULL, out, n, "const float y = x;");
}

void tc_relu6(TorchProg *t, const char *in, const char *out, const char *n)
{
    elementwise(t, "relu6", in, NULL, out, n, "const float y = fminf(fmaxf(x, 0.0f), 6.0f);");
}

void tc_mul(TorchProg *t, const char *a, const char *b, const char *out, const char *n)
{
    elementwise(t, "mul", a, b, out, n, "const float y = a * b;");
}

void tc_bias_channel(TorchProg *t, const char *in, const char *bias, const char *out, const char *n,
                     const char *channels, const char *inner)
{
    const char *T = tc_type(t);
    char *text = xasprintf("extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, "
                           "const %s *__restrict__ bias, %s *__restrict__ out, int n, int channels, int inner)\n"
                           "{\n"
                           "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i >= n)\n"
                           "        return;\n"
                           "    const long long c = (i / inner) %% channels;\n"
                           "    tc_st(out, i, tc_ld(in, i) + tc_ld(bias, c));\n"
                           "}\n\n",
                           T, T, T);
    const char *k = tc_kernel(t, "bias", text);
    free(text);
    char *args = xasprintf("%s,%s,%s,%s,%s,%s", in, bias, out, arg(t, n), arg(t, channels), arg(t, inner));
    launch_1d(t, k, n, args);
    free(args);
}

void tc_batchnorm(TorchProg *t, const char *in, const char *w, const char *b, const char *mean, const char *var,
                  const char *out, const char *n, const char *channels, const char *inner, double eps)
{
    const char *T = tc_type(t);
    char *text = xasprintf("extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, "
                           "const %s *__restrict__ weight, const %s *__restrict__ bias, "
                           "const %s *__restrict__ mean, const %s *__restrict__ var, %s *__restrict__ out, int n, "
                           "int channels, int inner)\n"
                           "{\n"
                           "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i >= n)\n"
                           "        return;\n"
                           "    const long long c = (i / inner) %% channels;\n"
                           "    const float xhat = (tc_ld(in, i) - tc_ld(mean, c)) * rsqrtf(tc_ld(var, c) + %s);\n"
                           "    tc_st(out, i, xhat * tc_ld(weight, c) + tc_ld(bias, c));\n"
                           "}\n\n",
                           T, T, T, T, T, T, flit(t, eps));
    const char *k = tc_kernel(t, "batchnorm", text);
    free(text);
    char *args = xasprintf("%s,%s,%s,%s,%s,%s,%s,%s,%s", in, w, b, mean, var, out, arg(t, n), arg(t, channels),
                           arg(t, inner));
    launch_1d(t, k, n, args);
    free(args);
}

/* ---- matrix products ---- */

/* out[z] = a[z] @ op(b[z]) (+ bias over columns): 16x16 tiles of a and b
 * staged in shared memory (padded a column against bank conflicts), one
 * thread per output element, grid (N/16, M/16, batch). */
static void gemm(TorchProg *t, const char *stem, const char *a, const char *b, const char *bias, const char *out,
                 const char *batch, const char *M, const char *K, const char *N, int trans_b, int b_batched)
{
    const char *T = tc_type(t);
    StrBuf text = STRBUF_INIT;
    sb_printf(&text,
              "/* out = a @ %s%s: a [M, K], b %s, out [M, N]%s */\n"
              "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ a, const %s *__restrict__ b, %s%s%s"
              "%s *__restrict__ out, int M, int K, int N)\n"
              "{\n"
              "    __shared__ float as[16][16 + 1];\n"
              "    __shared__ float bs[16][16 + 1];\n"
              "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
              "    const long long z = blockIdx.z;\n"
              "    const long long row = (long long)blockIdx.y * 16 + ty;\n"
              "    const long long col = (long long)blockIdx.x * 16 + tx;\n"
              "    const %s *az = a + z * M * K;\n"
              "    const %s *bz = b + %s;\n"
              "    float acc = 0.0f;\n"
              "    for (int k0 = 0; k0 < K; k0 += 16) {\n"
              "        as[ty][tx] = row < M && k0 + tx < K ? tc_ld(az, row * K + k0 + tx) : 0.0f;\n",
              trans_b ? "b^T" : "b", bias ? " + bias" : "", trans_b ? "[N, K]" : "[K, N]",
              strcmp(batch, "1") ? " per batch entry (blockIdx.z)" : "", T, T, bias ? "const " : "",
              bias ? T : "", bias ? " *__restrict__ bias, " : "", T, T, T, b_batched ? "z * K * N" : "0");
    if (trans_b)
        sb_append(&text,
                  "        /* bs[ty][tx] = b[blockIdx.x * 16 + ty][k0 + tx]: read along K */\n"
                  "        const long long brow = (long long)blockIdx.x * 16 + ty;\n"
                  "        bs[ty][tx] = brow < N && k0 + tx < K ? tc_ld(bz, brow * K + k0 + tx) : 0.0f;\n"
                  "        __syncthreads();\n"
                  "        for (int kk = 0; kk < 16; kk++)\n"
                  "            acc += as[ty][kk] * bs[tx][kk];\n");
    else
        sb_append(&text,
                  "        bs[ty][tx] = k0 + ty < K && col < N ? tc_ld(bz, (long long)(k0 + ty) * N + col) : 0.0f;\n"
                  "        __syncthreads();\n"
                  "        for (int kk = 0; kk < 16; kk++)\n"
                  "            acc += as[ty][kk] * bs[kk][tx];\n");
    sb_printf(&text,
              "        __syncthreads();\n"
              "    }\n"
              "    if (row < M && col < N)\n"
              "        tc_st(out, z * M * N + row * N + col, acc%s);\n"
              "}\n\n",
              bias ? " + tc_ld(bias, col)" : "");
    const char *k = tc_kernel(t, stem, sb_str(&text));
    sb_release(&text);
    char *grid = xasprintf("(%s+15)/16,(%s+15)/16,%s", arg(t, N), arg(t, M), arg(t, batch));
    char *args = bias ? xasprintf("%s,%s,%s,%s,%s,%s,%s", a, b, bias, out, arg(t, M), arg(t, K), arg(t, N))
                      : xasprintf("%s,%s,%s,%s,%s,%s", a, b, out, arg(t, M), arg(t, K), arg(t, N));
    gen_launch(tp_gen(t), k, grid, "16,16", NULL, args);
    free(grid);
    free(args);
}

void tc_linear(TorchProg *t, const char *in, const char *w, const char *b_or_NULL, const char *out,
               const char *rows, const char *in_f, const char *out_f)
{
    gemm(t, "linear", in, w, b_or_NULL, out, "1", rows, in_f, out_f, 1, 0);
}

void tc_matmul(TorchProg *t, const char *a, const char *b, const char *out, const char *batch, const char *M,
               const char *K, const char *N, int trans_b, int b_batched)
{
    gemm(t, "matmul", a, b, NULL, out, batch, M, K, N, trans_b, b_batched);
}

/* ---- normalisations over rows ---- */

void tc_layernorm(TorchProg *t, const char *in, const char *w, const char *b, const char *out, const char *rows,
                  const char *n, double eps)
{
    need_block_reduce(t, "sum");
    const char *T = tc_type(t);
    char *text = xasprintf(
            "/* one block per row (the grid is exactly the rows): mean, then the\n"
            " * biased variance around it, then the normalised row */\n"
            "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s%s%s%s%s%s"
            "%s *__restrict__ out, int n)\n"
            "{\n"
            "    const long long base = (long long)blockIdx.x * n;\n"
            "    float s = 0.0f;\n"
            "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
            "        s += tc_ld(in, base + j);\n"
            "    const float mean = tc_block_sum(s) / n;\n"
            "    float q = 0.0f;\n"
            "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
            "        const float d = tc_ld(in, base + j) - mean;\n"
            "        q += d * d;\n"
            "    }\n"
            "    const float rstd = rsqrtf(tc_block_sum(q) / n + %s);\n"
            "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
            "        tc_st(out, base + j, (tc_ld(in, base + j) - mean) * rstd%s%s);\n"
            "}\n\n",
            T, w ? "const " : "", w ? T : "", w ? " *__restrict__ weight, " : "", b ? "const " : "", b ? T : "",
            b ? " *__restrict__ bias, " : "", T, flit(t, eps), w ? " * tc_ld(weight, j)" : "",
            b ? " + tc_ld(bias, j)" : "");
    const char *k = tc_kernel(t, "layernorm", text);
    free(text);
    StrBuf a = STRBUF_INIT;
    sb_printf(&a, "%s", in);
    if (w)
        sb_printf(&a, ",%s", w);
    if (b)
        sb_printf(&a, ",%s", b);
    sb_printf(&a, ",%s,%s", out, arg(t, n));
    launch_rows(t, k, rows, a.data);
    sb_release(&a);
}

void tc_rmsnorm(TorchProg *t, const char *in, const char *w, const char *out, const char *rows, const char *n,
                double eps)
{
    need_block_reduce(t, "sum");
    const char *T = tc_type(t);
    char *text = xasprintf(
            "/* one block per row (the grid is exactly the rows) */\n"
            "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s%s%s%s *__restrict__ out, int n)\n"
            "{\n"
            "    const long long base = (long long)blockIdx.x * n;\n"
            "    float q = 0.0f;\n"
            "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
            "        const float v = tc_ld(in, base + j);\n"
            "        q += v * v;\n"
            "    }\n"
            "    const float r = rsqrtf(tc_block_sum(q) / n + %s);\n"
            "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
            "        tc_st(out, base + j, tc_ld(in, base + j) * r%s);\n"
            "}\n\n",
            T, w ? "const " : "", w ? T : "", w ? " *__restrict__ weight, " : "", T, flit(t, eps),
            w ? " * tc_ld(weight, j)" : "");
    const char *k = tc_kernel(t, "rmsnorm", text);
    free(text);
    char *args = w ? xasprintf("%s,%s,%s,%s", in, w, out, arg(t, n)) : xasprintf("%s,%s,%s", in, out, arg(t, n));
    launch_rows(t, k, rows, args);
    free(args);
}

void tc_groupnorm(TorchProg *t, const char *in, const char *w, const char *b, const char *out, const char *batch,
                  const char *channels, const char *inner, const char *groups, double eps)
{
    need_block_reduce(t, "sum");
    const char *T = tc_type(t);
    int affine = w && b;
    char *text = xasprintf(
            "/* one block per (batch entry, group): a group's channels/groups * inner\n"
            " * elements are contiguous; mean, biased variance, then the per-channel\n"
            " * affine */\n"
            "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s%s%s%s%s%s%s *__restrict__ out, "
            "int channels, int inner, int groups)\n"
            "{\n"
            "    const int per_group = channels / groups;\n"
            "    const long long m = (long long)per_group * inner;\n"
            "    const long long base = (long long)blockIdx.x * m;\n"
            "    float s = 0.0f;\n"
            "    for (long long j = threadIdx.x; j < m; j += blockDim.x)\n"
            "        s += tc_ld(in, base + j);\n"
            "    const float mean = tc_block_sum(s) / m;\n"
            "    float q = 0.0f;\n"
            "    for (long long j = threadIdx.x; j < m; j += blockDim.x) {\n"
            "        const float d = tc_ld(in, base + j) - mean;\n"
            "        q += d * d;\n"
            "    }\n"
            "    const float rstd = rsqrtf(tc_block_sum(q) / m + %s);\n"
            "    for (long long j = threadIdx.x; j < m; j += blockDim.x) {\n"
            "%s"
            "        tc_st(out, base + j, (tc_ld(in, base + j) - mean) * rstd%s);\n"
            "    }\n"
            "}\n\n",
            T, affine ? "const " : "", affine ? T : "", affine ? " *__restrict__ weight, " : "",
            affine ? "const " : "", affine ? T : "", affine ? " *__restrict__ bias, " : "", T, flit(t, eps),
            affine ? "        const long long c = (long long)(blockIdx.x % groups) * per_group + j / inner;\n" : "",
            affine ? " * tc_ld(weight, c) + tc_ld(bias, c)" : "");
    const char *k = tc_kernel(t, "groupnorm", text);
    free(text);
    char *rows = xasprintf("(%s)*(%s)", batch, groups);
    char *args = affine ? xasprintf("%s,%s,%s,%s,%s,%s,%s", in, w, b, out, arg(t, channels), arg(t, inner),
                                    arg(t, groups))
                        : xasprintf("%s,%s,%s,%s,%s", in, out, arg(t, channels), arg(t, inner), arg(t, groups));
    launch_rows(t, k, rows, args);
    free(rows);
    free(args);
}

/* ---- softmax ---- */

#define NEG_INF "__int_as_float(0xff800000)"
#define POS_INF "__int_as_float(0x7f800000)"

void tc_softmax(TorchProg *t, const char *in, const char *out, const char *outer, const char *n, const char *inner,
                int log)
{
    const char *T = tc_type(t), *stem = log ? "log_softmax" : "softmax";
    const char *result = log ? "v - mx - logf(s)" : "expf(v - mx) / s";
    if (strcmp(inner, "1") == 0) {
        need_block_reduce(t, "max");
        need_block_reduce(t, "sum");
        char *text = xasprintf(
                "/* one block per row (the grid is exactly the rows): max, sum of\n"
                " * exp(x - max), then the row */\n"
                "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s *__restrict__ out, int n)\n"
                "{\n"
                "    const long long base = (long long)blockIdx.x * n;\n"
                "    float mx = " NEG_INF ";\n"
                "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
                "        mx = fmaxf(mx, tc_ld(in, base + j));\n"
                "    mx = tc_block_max(mx);\n"
                "    float s = 0.0f;\n"
                "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
                "        s += expf(tc_ld(in, base + j) - mx);\n"
                "    s = tc_block_sum(s);\n"
                "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
                "        const float v = tc_ld(in, base + j);\n"
                "        tc_st(out, base + j, %s);\n"
                "    }\n"
                "}\n\n",
                T, T, result);
        const char *k = tc_kernel(t, stem, text);
        free(text);
        char *args = xasprintf("%s,%s,%s", in, out, arg(t, n));
        launch_rows(t, k, outer, args);
        free(args);
        return;
    }
    char *text = xasprintf(
            "/* softmax over the middle dim of [outer, n, inner]: one thread per\n"
            " * (outer, inner) column, neighbouring threads on neighbouring columns */\n"
            "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s *__restrict__ out, "
            "int count, int n, int inner)\n"
            "{\n"
            "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= count)\n"
            "        return;\n"
            "    const long long base = i / inner * n * inner + i %% inner;\n"
            "    float mx = " NEG_INF ";\n"
            "    for (int j = 0; j < n; j++)\n"
            "        mx = fmaxf(mx, tc_ld(in, base + (long long)j * inner));\n"
            "    float s = 0.0f;\n"
            "    for (int j = 0; j < n; j++)\n"
            "        s += expf(tc_ld(in, base + (long long)j * inner) - mx);\n"
            "    for (int j = 0; j < n; j++) {\n"
            "        const float v = tc_ld(in, base + (long long)j * inner);\n"
            "        tc_st(out, base + (long long)j * inner, %s);\n"
            "    }\n"
            "}\n\n",
            T, T, result);
    const char *k = tc_kernel(t, stem, text);
    free(text);
    char *count = xasprintf("(%s)*(%s)", outer, inner);
    char *args = xasprintf("%s,%s,%s,%s,%s", in, out, arg(t, count), arg(t, n), arg(t, inner));
    launch_1d(t, k, count, args);
    free(count);
    free(args);
}

/* ---- reductions ---- */

typedef struct RedDef {
    const char *how;
    const char *ident;    /* the accumulator's start */
    const char *combine;  /* the accumulator with one more value v */
    const char *block;    /* the tc_block_<op> that combines partials */
    const char *finish;   /* the result from acc (and n) */
    int centred;          /* 1: a first pass finds the mean (var, std); 2: the max (logsumexp) */
} RedDef;

static const RedDef RED_DEFS[] = {
    {"sum", "0.0f", "acc + v", "sum", "acc", 0},
    {"mean", "0.0f", "acc + v", "sum", "acc / n", 0},
    {"amax", NEG_INF, "fmaxf(acc, v)", "max", "acc", 0},
    {"amin", POS_INF, "fminf(acc, v)", "min", "acc", 0},
    {"prod", "1.0f", "acc * v", "prod", "acc", 0},
    {"norm", "0.0f", "acc + v * v", "sum", "sqrtf(acc)", 0},
    /* unbiased (correction 1), as torch.var/std default: n = 1 gives NaN */
    {"var", "0.0f", "acc + (v - c) * (v - c)", "sum", "acc / (n - 1)", 1},
    {"std", "0.0f", "acc + (v - c) * (v - c)", "sum", "sqrtf(acc / (n - 1))", 1},
    {"logsumexp", "0.0f", "acc + expf(v - c)", "sum", "c + logf(acc)", 2},
};

static const RedDef *find_red(const char *how)
{
    for (size_t i = 0; i < sizeof RED_DEFS / sizeof *RED_DEFS; i++)
        if (strcmp(RED_DEFS[i].how, how) == 0)
            return &RED_DEFS[i];
    return NULL;
}

int tc_reduce_known(const char *how)
{
    return find_red(how) != NULL;
}

void tc_reduce(TorchProg *t, const char *how, const char *in, const char *out, const char *outer, const char *n,
               const char *inner)
{
    const RedDef *r = find_red(how);
    if (!r) {
        tp_fail(t, "tc_reduce: unknown reduction '%s'", how);
        return;
    }
    const char *T = tc_type(t);
    StrBuf text = STRBUF_INIT;
    int rows = strcmp(inner, "1") == 0;
    if (rows) {
        need_block_reduce(t, r->block);
        if (r->centred)
            need_block_reduce(t, r->centred == 1 ? "sum" : "max");
        sb_printf(&text,
                  "/* %s over each row: one block per row (the grid is exactly the rows) */\n"
                  "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s *__restrict__ out, int n)\n"
                  "{\n"
                  "    const long long base = (long long)blockIdx.x * n;\n",
                  how, T, T);
        if (r->centred == 1)
            sb_append(&text,
                      "    float s = 0.0f;\n"
                      "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
                      "        s += tc_ld(in, base + j);\n"
                      "    const float c = tc_block_sum(s) / n;\n");
        else if (r->centred == 2)
            sb_append(&text,
                      "    float m = " NEG_INF ";\n"
                      "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
                      "        m = fmaxf(m, tc_ld(in, base + j));\n"
                      "    const float c = tc_block_max(m);\n");
        sb_printf(&text,
                  "    float acc = %s;\n"
                  "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
                  "        const float v = tc_ld(in, base + j);\n"
                  "        acc = %s;\n"
                  "    }\n"
                  "    acc = tc_block_%s(acc);\n"
                  "    if (threadIdx.x == 0)\n"
                  "        tc_st(out, blockIdx.x, %s);\n"
                  "}\n\n",
                  r->ident, r->combine, r->block, r->finish);
        const char *k = tc_kernel(t, how, sb_str(&text));
        sb_release(&text);
        char *args = xasprintf("%s,%s,%s", in, out, arg(t, n));
        launch_rows(t, k, outer, args);
        free(args);
        return;
    }
    sb_printf(&text,
              "/* %s over the middle dim of [outer, n, inner]: one thread per output,\n"
              " * neighbouring threads on neighbouring columns */\n"
              "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, %s *__restrict__ out, "
              "int count, int n, int inner)\n"
              "{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= count)\n"
              "        return;\n"
              "    const long long base = i / inner * n * inner + i %% inner;\n",
              how, T, T);
    if (r->centred == 1)
        sb_append(&text,
                  "    float s = 0.0f;\n"
                  "    for (int j = 0; j < n; j++)\n"
                  "        s += tc_ld(in, base + (long long)j * inner);\n"
                  "    const float c = s / n;\n");
    else if (r->centred == 2)
        sb_append(&text,
                  "    float c = " NEG_INF ";\n"
                  "    for (int j = 0; j < n; j++)\n"
                  "        c = fmaxf(c, tc_ld(in, base + (long long)j * inner));\n");
    sb_printf(&text,
              "    float acc = %s;\n"
              "    for (int j = 0; j < n; j++) {\n"
              "        const float v = tc_ld(in, base + (long long)j * inner);\n"
              "        acc = %s;\n"
              "    }\n"
              "    tc_st(out, i, %s);\n"
              "}\n\n",
              r->ident, r->combine, r->finish);
    const char *k = tc_kernel(t, how, sb_str(&text));
    sb_release(&text);
    char *count = xasprintf("(%s)*(%s)", outer, inner);
    char *args = xasprintf("%s,%s,%s,%s,%s", in, out, arg(t, count), arg(t, n), arg(t, inner));
    launch_1d(t, k, count, args);
    free(count);
    free(args);
}

/* ---- convolution and pooling windows ---- */

enum { WIN_CONV, WIN_CONVT, WIN_MAXPOOL, WIN_AVGPOOL };

/* "o*2-1+k*2" without the factors and terms that are 1 or 0. */
static void tap_expr(char *out, size_t len, const char *o, int stride, int pad, const char *k, int dil)
{
    char s[32] = "", p[32] = "", d[32] = "";
    if (stride != 1)
        snprintf(s, sizeof s, " * %d", stride);
    if (pad)
        snprintf(p, sizeof p, " - %d", pad);
    if (dil != 1)
        snprintf(d, sizeof d, " * %d", dil);
    snprintf(out, len, "%s%s%s + %s%s", o, s, p, k, d);
}

/* One thread per output element of a window operator over c->dims spatial
 * dims (D, H, W order; a 1-d signal's dim is L). */
static void window(TorchProg *t, const TcConv *c, int kind, const char *in, const char *w, const char *b,
                   const char *out)
{
    static const char *const NAMES[3][3] = {{"l"}, {"h", "w"}, {"d", "h", "w"}};
    static const char *const UPPER[3][3] = {{"L"}, {"H", "W"}, {"D", "H", "W"}};
    static const char *const STEMS[] = {"conv", "conv_transpose", "max_pool", "avg_pool"};
    int sd = c->dims;
    if (sd < 1 || sd > 3) {
        tp_fail(t, "window operator over %d spatial dims", sd);
        return;
    }
    const char *const *nm = NAMES[sd - 1], *const *up = UPPER[sd - 1];
    const char *T = tc_type(t);
    char stem[32];
    snprintf(stem, sizeof stem, "%s%dd", STEMS[kind], sd);
    int conv = kind == WIN_CONV || kind == WIN_CONVT;
    StrBuf s = STRBUF_INIT;
    /* signature */
    sb_printf(&s, "extern \"C\" __global__ void " TC_NAME "(const %s *__restrict__ in, ", T);
    if (conv)
        sb_printf(&s, "const %s *__restrict__ weight, ", T);
    if (conv && b)
        sb_printf(&s, "const %s *__restrict__ bias, ", T);
    sb_printf(&s, "%s *__restrict__ out, int n, ", T);
    if (conv)
        sb_append(&s, "int cin, int cout, int groups, ");
    for (int d = 0; d < sd; d++)
        sb_printf(&s, "int I%s, ", up[d]);
    for (int d = 0; d < sd; d++)
        sb_printf(&s, "int O%s%s", up[d], d + 1 < sd ? ", " : ")\n{\n");
    sb_append(&s,
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= n)\n"
              "        return;\n"
              "    long long rest = i;\n");
    /* output coordinates, the last dim fastest */
    for (int d = sd - 1; d >= 0; d--)
        sb_printf(&s, "    const int o%s = rest %% O%s;\n    rest /= O%s;\n", nm[d], up[d], up[d]);
    int kvol = 1;
    for (int d = 0; d < sd; d++)
        kvol *= c->k[d];
    char ivol[64] = "";
    for (int d = 0; d < sd; d++)
        snprintf(ivol + strlen(ivol), sizeof ivol - strlen(ivol), " * I%s", up[d]);
    const char *ind = "    ";
    if (conv) {
        sb_append(&s,
                  "    const int co = rest % cout;\n"
                  "    const long long b = rest / cout;\n"
                  "    const int cin_g = cin / groups, cout_g = cout / groups, g = co / cout_g;\n"
                  "    float acc = 0.0f;\n"
                  "    for (int ci = 0; ci < cin_g; ci++) {\n");
        sb_printf(&s, "        const long long xc = (b * cin + (long long)g * cin_g + ci)%s;\n", ivol);
        if (kind == WIN_CONV)
            sb_printf(&s, "        const long long wc = ((long long)co * cin_g + ci) * %d;\n", kvol);
        else
            sb_printf(&s, "        const long long wc = (((long long)g * cin_g + ci) * cout_g + co %% cout_g) * %d;\n",
                      kvol);
        ind = "        ";
    } else {
        sb_printf(&s, "    const long long xc = rest%s;\n", ivol);
        sb_printf(&s, "    float acc = %s;\n", kind == WIN_MAXPOOL ? NEG_INF : "0.0f");
    }
    /* the window's loops, outermost dim first */
    StrBuf pad = STRBUF_INIT;
    sb_append(&pad, ind);
    for (int d = 0; d < sd; d++) {
        const char *p = pad.data;
        sb_printf(&s, "%sfor (int k%s = 0; k%s < %d; k%s++) {\n", p, nm[d], nm[d], c->k[d], nm[d]);
        char o[16], kk[16], e[128];
        snprintf(o, sizeof o, "o%s", nm[d]);
        snprintf(kk, sizeof kk, "k%s", nm[d]);
        if (kind == WIN_CONVT) {
            /* the input position x with x * stride - pad + k * dil = o */
            char tt[128];
            snprintf(tt, sizeof tt, "%s", o);
            if (c->pad[d])
                snprintf(tt + strlen(tt), sizeof tt - strlen(tt), " + %d", c->pad[d]);
            snprintf(tt + strlen(tt), sizeof tt - strlen(tt), " - %s", kk);
            if (c->dil[d] != 1)
                snprintf(tt + strlen(tt), sizeof tt - strlen(tt), " * %d", c->dil[d]);
            if (c->stride[d] == 1) {
                sb_printf(&s, "%s    const int i%s = %s;\n", p, nm[d], tt);
                sb_printf(&s, "%s    if (i%s < 0 || i%s >= I%s)\n%s        continue;\n", p, nm[d], nm[d], up[d], p);
            } else {
                sb_printf(&s, "%s    const int t%s = %s;\n", p, nm[d], tt);
                sb_printf(&s, "%s    if (t%s < 0 || t%s %% %d != 0 || t%s / %d >= I%s)\n%s        continue;\n", p,
                          nm[d], nm[d], c->stride[d], nm[d], c->stride[d], up[d], p);
                sb_printf(&s, "%s    const int i%s = t%s / %d;\n", p, nm[d], nm[d], c->stride[d]);
            }
        } else {
            tap_expr(e, sizeof e, o, c->stride[d], c->pad[d], kk, c->dil[d]);
            sb_printf(&s, "%s    const int i%s = %s;\n", p, nm[d], e);
            sb_printf(&s, "%s    if (i%s < 0 || i%s >= I%s)\n%s        continue;\n", p, nm[d], nm[d], up[d], p);
        }
        sb_append(&pad, "    ");
    }
    /* the innermost statement: offsets within the channel and the window */
    char xoff[160], woff[160];
    if (sd == 1) {
        snprintf(xoff, sizeof xoff, "il");
        snprintf(woff, sizeof woff, "kl");
    } else if (sd == 2) {
        snprintf(xoff, sizeof xoff, "(long long)ih * IW + iw");
        snprintf(woff, sizeof woff, "kh * %d + kw", c->k[1]);
    } else {
        snprintf(xoff, sizeof xoff, "((long long)id * IH + ih) * IW + iw");
        snprintf(woff, sizeof woff, "(kd * %d + kh) * %d + kw", c->k[1], c->k[2]);
    }
    const char *p = pad.data;
    if (conv)
        sb_printf(&s, "%sacc += tc_ld(in, xc + %s) * tc_ld(weight, wc + %s);\n", p, xoff, woff);
    else if (kind == WIN_MAXPOOL)
        sb_printf(&s, "%sacc = fmaxf(acc, tc_ld(in, xc + %s));\n", p, xoff);
    else
        sb_printf(&s, "%sacc += tc_ld(in, xc + %s);\n", p, xoff);
    /* close the loops */
    for (int d = sd - 1; d >= 0; d--) {
        pad.len -= 4;
        pad.data[pad.len] = '\0';
        sb_printf(&s, "%s}\n", pad.data);
    }
    if (conv)
        sb_append(&s, "    }\n");
    if (conv && b)
        sb_append(&s, "    tc_st(out, i, acc + tc_ld(bias, co));\n");
    else if (kind == WIN_AVGPOOL)
        sb_printf(&s, "    tc_st(out, i, acc / %d.0f); /* the whole window, padding included */\n", kvol);
    else
        sb_append(&s, "    tc_st(out, i, acc);\n");
    sb_append(&s, "}\n\n");
    const char *k = tc_kernel(t, stem, s.data);
    sb_release(&s);
    sb_release(&pad);
    /* launch: one thread per output element */
    StrBuf n = STRBUF_INIT, a = STRBUF_INIT;
    sb_printf(&n, "(%s)*(%s)", c->batch, conv ? c->cout : c->cin);
    for (int d = 0; d < sd; d++)
        sb_printf(&n, "*(%s)", c->out_size[d]);
    sb_printf(&a, "%s", in);
    if (conv)
        sb_printf(&a, ",%s", w);
    if (conv && b)
        sb_printf(&a, ",%s", b);
    sb_printf(&a, ",%s,%s", out, arg(t, n.data));
    if (conv)
        sb_printf(&a, ",%s,%s,%s", arg(t, c->cin), arg(t, c->cout), arg(t, c->groups));
    for (int d = 0; d < sd; d++)
        sb_printf(&a, ",%s", arg(t, c->in_size[d]));
    for (int d = 0; d < sd; d++)
        sb_printf(&a, ",%s", arg(t, c->out_size[d]));
    launch_1d(t, k, n.data, a.data);
    sb_release(&n);
    sb_release(&a);
}

void tc_conv(TorchProg *t, const TcConv *c, const char *in, const char *w, const char *b_or_NULL, const char *out)
{
    window(t, c, WIN_CONV, in, w, b_or_NULL, out);
}

void tc_conv_transpose(TorchProg *t, const TcConv *c, const char *in, const char *w, const char *b_or_NULL,
                       const char *out)
{
    window(t, c, WIN_CONVT, in, w, b_or_NULL, out);
}

void tc_pool(TorchProg *t, const TcConv *c, int max, const char *in, const char *out)
{
    window(t, c, max ? WIN_MAXPOOL : WIN_AVGPOOL, in, NULL, NULL, out);
}
