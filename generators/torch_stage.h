/* torch_stage.h — building blocks of the generated PyTorch programs: an
 * input tensor of a layout with sizes for every config, then operators
 * applied in turn to the current tensor, each writing its __init__ and
 * forward() lines, its state_dict entries and its cost, and tracking the
 * tensor's shape as expressions of the params.  Level 1 programs use one
 * operator, level 2 programs a chain of them (torch_l1.c, torch_l2.c).
 *
 * A shape mistake (a size that drops below 1 in some config) is a bug in
 * the family and fails the generation with the program's name. */
#ifndef CUDAPERF_TORCH_STAGE_H
#define CUDAPERF_TORCH_STAGE_H

#include "../common/strbuf.h"
#include "torch_emit.h"

/* Layouts of the current tensor. */
typedef enum TLayout {
    TL_VEC,  /* [B, F] */
    TL_SEQ,  /* [B, L, F] */
    TL_SIG,  /* [B, C, L]        (1-d signals) */
    TL_IMG,  /* [B, C, H, W]     (2-d images) */
    TL_VOL   /* [B, C, D, H, W]  (3-d volumes) */
} TLayout;

/* dtypes an operator runs in on CPU torch 1.13 (checked by running it). */
enum { TD_F32 = 1, TD_BF16 = 2, TD_F16 = 4 };

typedef struct Stage {
    TorchProg *t;
    GenCtx *g;
    TLayout layout;
    int rank;
    char dim[6][192];   /* the current tensor's shape, expressions of the params */
    char var[16];       /* its Python name: "x", then "h" */
    int layers;         /* modules created so far (names l0, l1, ...) */
    StrBuf flops;       /* "+"-joined terms */
    double loose;       /* tolerance factor, grows with each accumulating op */
    int channel_dim;    /* the channel/feature dimension (1, or rank-1 for VEC/SEQ) */
    int variant;        /* the program's index in its family, set before st_begin:
                         * it picks the large batch, so a family's programs differ */
    const char *buf;    /* the CUDA buffer holding the current tensor: the input
                         * "x" after st_begin, then each operator's scratch;
                         * NULL: the program carries no CUDA (a Stage filled by
                         * hand sets it to its input's name to get one) */
    int ops, cuda_ops;  /* operators applied (st_add_flops calls) and those
                         * that wrote their CUDA (st_cuda_out calls) */
} Stage;

/* Starts a program with input x of the layout: declares its size params
 * (B, F / B, L, F / B, C, L / B, C, H, W / B, C, D, H, W) with values drawn
 * for every config; `big` scales the large config (1 normal, 0 for heavy
 * operators whose large size must stay smaller).  Reals in [lo, hi). */
void st_begin(Stage *s, TorchProg *t, GenCtx *g, TLayout layout, int big, double lo, double hi);
/* The current tensor is the output; adds the cost and tolerance; the caller
 * then calls tp_end. */
void st_finish(Stage *s);

/* The shape as "a,b,c" (static buffer, valid until the next call). */
const char *st_shape(const Stage *s);
/* The number of elements of the current tensor, as an expression. */
const char *st_numel(const Stage *s);
/* Adds an operator's flops: every operator calls it exactly once. */
void st_add_flops(Stage *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the program's CUDA side (torch_cuda.h) ----
 * Every operator, the st_* ones below and any a family writes itself
 * between them, takes the current tensor's buffer, updates the shape and
 * adds its flops, then takes its output buffer and emits its kernel(s)
 * from the one to the other with the torch_cuda emitters:
 *
 *     const char *in = st_cuda_in(s);
 *     ... s->dim / s->rank updated; st_add_flops(s, ...) ...
 *     const char *out = st_cuda_out(s);
 *     if (out)
 *         tc_reduce(s->t, "norm", in, out, outer, n, inner);
 *
 * st_finish then makes the last operator write "out" directly
 * (gen_retarget).  An operator that writes no CUDA (not translated yet)
 * leaves the program without any when nothing before it wrote CUDA: every
 * later st_cuda_out returns NULL.  After operators that did, it is a bug
 * that fails the generation with the program's name. */
/* The buffer holding the current tensor (NULL: the program has no CUDA). */
const char *st_cuda_in(const Stage *s);
/* A fresh scratch buffer of the current shape (call it after updating
 * s->dim and after st_add_flops), now the current tensor's buffer; NULL
 * when the program carries no CUDA (emit nothing then).  Counts the
 * operator as translated: call it once per operator. */
const char *st_cuda_out(Stage *s);

/* ---- operators; each applies to the current tensor ---- */
/* Elementwise activations by name (see the table in torch_stage.c). */
int st_act_known(const char *name);
int st_act_dtypes(const char *name);
/* The domain the activation needs ([lo, hi) of its input; 0 0 for any). */
void st_act_domain(const char *name, double *lo, double *hi);
void st_act(Stage *s, const char *name);
void st_scale(Stage *s, double k);                 /* h * k */
void st_bias(Stage *s);                            /* + a learnable per-channel bias */
void st_residual(Stage *s);                        /* + the input x (same shape only) */

void st_linear(Stage *s, const char *out_param, int64_t small, int64_t large, int64_t edge, int bias);
void st_layernorm(Stage *s);
void st_rmsnorm(Stage *s);
void st_batchnorm(Stage *s);
void st_groupnorm(Stage *s, int groups);
void st_instancenorm(Stage *s);
void st_softmax(Stage *s, int dim, int log);
/* Reduce over dim (mean, sum, amax, amin, logsumexp, ...). */
void st_reduce(Stage *s, const char *how, int dim, int keepdim);

/* Convolutions of the layout's dimensionality. */
void st_conv(Stage *s, const char *out_param, int64_t small, int64_t large, int64_t edge, int k, int stride,
             int pad, int dil, int groups, int bias);
void st_convT(Stage *s, const char *out_param, int64_t small, int64_t large, int64_t edge, int k, int stride,
              int pad, int outpad, int groups, int bias);
void st_pool(Stage *s, int max, int k, int stride, int pad);
void st_adaptive_avg(Stage *s);                    /* to 1x1 and flatten: [B, C] */

#endif
