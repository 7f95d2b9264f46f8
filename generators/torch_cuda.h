/* torch_cuda.h — the CUDA side of the generated torch programs: each
 * program's reference CUDA implementation (kernel.cu + launch.json), written
 * through the generator builder (gen_cuda/gen_scratch/gen_launch of gen.h on
 * tp_gen(t)), so gen_end() stores the pair and derives its variants exactly
 * as it does for C programs.
 *
 * Conventions every torch family's CUDA follows:
 * - kernel.cu opens with one prelude (written by the first tc_cuda call):
 *   cuda_fp16.h, cuda_bf16.h and the overloaded device helpers
 *       float tc_ld(const T *p, long long i)     load as float
 *       void  tc_st(T *p, long long i, float v)  round to T and store
 *   for T = float, __half, __nv_bfloat16, so a kernel body is written once
 *   and instanced by substituting the element type (tc_type).
 * - Arithmetic is in float; a value crosses kernels (scratch buffers) in the
 *   program's dtype, because torch rounds to the dtype after each operator.
 * - Buffers are the meta.json names: the forward inputs, "out" (or "out0",
 *   ...), the model's state as "w.<state_dict key>"; scratch buffers come
 *   from tc_scratch.  Integer params reach kernels as launch args.
 * - The translation is the straightforward one a competent CUDA programmer
 *   writes first: one kernel per operator, one thread per output element
 *   (or one block per row for reductions), bounds checks on every access.
 * - A kernel is written once per program: an operator applied again with
 *   the same settings (the 8 identical GEMMs of an LSTM unrolled over 7
 *   steps, an activation used twice in a chain) launches the kernel already
 *   there (tc_kernel). */
#ifndef CUDAPERF_TORCH_CUDA_H
#define CUDAPERF_TORCH_CUDA_H

#include "torch_emit.h"

/* The CUDA spelling of the program's dtype: "float", "__half", "__nv_bfloat16". */
const char *tc_type(const TorchProg *t);
/* Appends text to kernel.cu, after the prelude (written first, once). */
void tc_cuda(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new scratch buffer of `count` elements (an expression of the params) in
 * the program's dtype; returns its name ("t0", "t1", ...), valid until tp_end. */
const char *tc_scratch(TorchProg *t, const char *count);
/* A fresh kernel name: stem + a number unique in the program ("relu_2").
 * Valid until tp_end.  For a kernel written with tc_cuda; tc_kernel names
 * its kernels itself. */
const char *tc_name(TorchProg *t, const char *stem);

/* Where a kernel's name goes in the text given to tc_kernel. */
#define TC_NAME "$KERNEL"
/* The name of the program's kernel with this stem and text, writing it the
 * first time: `text` is one kernel's definition (comment, signature, body)
 * with TC_NAME where its name goes ("__global__ void " TC_NAME "(...").  The
 * first call with a (stem, text) appends the text to kernel.cu under a
 * fresh tc_name(stem); a later call with the same pair writes nothing and
 * returns the same name, so the caller only adds its launch.  Settings that
 * are baked into the text (eps, a window's geometry, the dtype) give
 * different texts and so different kernels.  Valid until tp_end. */
const char *tc_kernel(TorchProg *t, const char *stem, const char *text);

/* ---- operator emitters ----
 *
 * Each appends its launches to the plan, in order, and its kernel to
 * kernel.cu unless the program already has that kernel (tc_kernel).
 * Buffers are meta.json or scratch names, all in the program's dtype;
 * `in` and `out` are different buffers and no emitter reads `out` (so
 * gen_retarget may rename it).  Sizes are integer expressions of the
 * params ("B*L", "(H+2)/2+1"): each reaches its kernel as a 32-bit int
 * (wrapped in parentheses, so a bare i64 param is never passed by name) and
 * must fit one in every config; index arithmetic in the kernels is 64-bit.
 * Float settings (eps, slopes) are baked into the text.  Arithmetic is in
 * float and each operator rounds once, when it stores. */

/* Whether tc_act knows `name` (the activations of torch_stage.c's table:
 * relu, gelu, gelu_tanh, silu, softplus, selu, ..., square). */
int tc_act_known(const char *name);
/* out[i] = act(in[i]) for i < n, with torch's formula and constants as
 * torch_stage.c writes them: its "relu6" is F.relu6(x * 8.0) (so a plain
 * relu6 would not saturate on inputs in [-1, 1)); tc_relu6 is plain. */
void tc_act(TorchProg *t, const char *name, const char *in, const char *out, const char *n);
/* out[i] = F.relu6(in[i]) = min(max(in[i], 0), 6). */
void tc_relu6(TorchProg *t, const char *in, const char *out, const char *n);
/* out[i] = in[i] * k. */
void tc_scale(TorchProg *t, const char *in, double k, const char *out, const char *n);
/* out[i] = a[i] + b[i] (a residual add). */
void tc_add(TorchProg *t, const char *a, const char *b, const char *out, const char *n);
/* out[i] = a[i] * b[i] (a gating product: SwiGLU's silu(w1 x) * w3 x). */
void tc_mul(TorchProg *t, const char *a, const char *b, const char *out, const char *n);
/* out[i] = in[i] (only for a program whose output is its input). */
void tc_copy(TorchProg *t, const char *in, const char *out, const char *n);
/* out[i] = in[i] + bias[c] with c = (i / inner) % channels: a per-channel
 * bias over a tensor whose channel dim has `channels` entries and `inner`
 * elements after it (inner "1" when the channel dim is the last). */
void tc_bias_channel(TorchProg *t, const char *in, const char *bias, const char *out, const char *n,
                     const char *channels, const char *inner);

/* y = x W^T + b (nn.Linear): x [rows, in_f], w [out_f, in_f], b [out_f] or
 * NULL, y [rows, out_f]; a 16x16 shared-memory tiled product. */
void tc_linear(TorchProg *t, const char *in, const char *w, const char *b_or_NULL, const char *out,
               const char *rows, const char *in_f, const char *out_f);
/* out = a @ b per batch entry (torch.matmul/bmm): a [batch, M, K], b
 * [batch, K, N] (or [batch, N, K] when trans_b: a @ b^T), out [batch, M, N];
 * batch "1" for plain 2-d operands; b_batched 0 broadcasts one b [K, N]
 * over the batch. */
void tc_matmul(TorchProg *t, const char *a, const char *b, const char *out, const char *batch, const char *M,
               const char *K, const char *N, int trans_b, int b_batched);

/* LayerNorm over the last dim of [rows, n]: biased variance, eps as given
 * (nn.LayerNorm's default is 1e-5); w and b ([n]) may be NULL (no affine).
 * One block per row. */
void tc_layernorm(TorchProg *t, const char *in, const char *w, const char *b, const char *out, const char *rows,
                  const char *n, double eps);
/* out = x * rsqrt(mean(x^2 over the last dim) + eps) * w; w [n] or NULL.
 * One block per row. */
void tc_rmsnorm(TorchProg *t, const char *in, const char *w, const char *out, const char *rows, const char *n,
                double eps);
/* BatchNorm in eval mode: out = (x - mean[c]) / sqrt(var[c] + eps) * w[c]
 * + b[c] with c = (i / inner) % channels (running statistics, no update). */
void tc_batchnorm(TorchProg *t, const char *in, const char *w, const char *b, const char *mean, const char *var,
                  const char *out, const char *n, const char *channels, const char *inner, double eps);
/* GroupNorm of x [batch, channels, inner] in `groups` groups (biased
 * variance over each group's channels/groups * inner elements), then the
 * per-channel affine w, b ([channels], may be NULL).  InstanceNorm is
 * groups = channels.  One block per (batch, group). */
void tc_groupnorm(TorchProg *t, const char *in, const char *w, const char *b, const char *out, const char *batch,
                  const char *channels, const char *inner, const char *groups, double eps);

/* softmax (log_softmax when `log`) over the middle dim of x viewed as
 * [outer, n, inner] (inner "1": the last dim, one block per row; else one
 * thread per (outer, inner) column). */
void tc_softmax(TorchProg *t, const char *in, const char *out, const char *outer, const char *n, const char *inner,
                int log);
/* Whether tc_reduce knows `how`: sum, mean, amax, amin, prod, var, std
 * (unbiased, torch's default), logsumexp, norm (the 2-norm). */
int tc_reduce_known(const char *how);
/* out [outer, inner] = how over the middle dim of x viewed as [outer, n,
 * inner] (keepdim or not is only the output's shape); one block per row
 * when inner is "1", else one thread per output. */
void tc_reduce(TorchProg *t, const char *how, const char *in, const char *out, const char *outer, const char *n,
               const char *inner);

/* A convolution or pooling window over 1 to 3 spatial dims, layout
 * [batch, channels, spatial...]; sizes are expressions, the window's
 * geometry literals. */
typedef struct TcConv {
    int dims;                      /* spatial dims: 1, 2 or 3 */
    const char *batch, *cin, *cout;
    const char *in_size[3];        /* input spatial sizes (D, H, W order) */
    const char *out_size[3];       /* output spatial sizes */
    int k[3], stride[3], pad[3], dil[3];
    const char *groups;            /* an expression: "1", "4", "C" (depthwise) */
} TcConv;
/* nn.ConvNd: w [cout, cin/groups, k...], b [cout] or NULL; one thread per
 * output element. */
void tc_conv(TorchProg *t, const TcConv *c, const char *in, const char *w, const char *b_or_NULL, const char *out);
/* nn.ConvTransposeNd (output_padding only shows in out_size): w [cin,
 * cout/groups, k...], b [cout] or NULL; one thread per output element
 * gathering the inputs that reach it. */
void tc_conv_transpose(TorchProg *t, const TcConv *c, const char *in, const char *w, const char *b_or_NULL,
                       const char *out);
/* max_poolNd / avg_poolNd (cin channels, cout ignored; dil 1 for avg):
 * padding never wins a max; avg divides by the full window
 * (count_include_pad, torch's default; ceil_mode off). */
void tc_pool(TorchProg *t, const TcConv *c, int max, const char *in, const char *out);

#endif
