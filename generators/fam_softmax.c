/* softmax — softmax-style normalisations along one axis: softmax,
 * log-softmax, softmax with a temperature, masked softmax (a u8 mask input),
 * the online single-pass form (which also returns the row log-sum-exp),
 * softmax of a scaled and biased input, log-sum-exp alone, and the backward
 * passes of softmax and log-softmax.  Every operator comes over f32 and f64
 * (always numerically stable: the maximum is subtracted before exp) and in
 * three layouts: contiguous rows, rows with a padded leading dimension, and
 * "columns" (the middle axis of an n x m x c tensor, stride c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

/* A buffer of an operator: 'x' a full tensor (the first one takes the padded
 * leading dimension in the "ld" layout), 'v' a vector of length m, 'r' one
 * value per row (the helper's return value), 'k' a u8 mask shaped like x. */
typedef struct OpArg {
    const char *name;
    int out;
    char kind;
} OpArg;

typedef struct Op {
    const char *tag;     /* variant prefix and helper name */
    const char *entry;
    const char *title;   /* the program comment's first words */
    const char *math;    /* the comment stating the math */
    OpArg args[4];
    int nargs;
    const char *scalar;  /* a by-value scalar, or NULL */
    double scalar_value;
    const char *body;    /* the helper's body over one row of length m */
    int flops;           /* per element */
    double lo, hi;       /* fill of the first input */
    int logout;          /* outputs are logs (looser absolute tolerance) */
    int grad;            /* a backward pass */
} Op;

#define ROWMAX                                                                                     \
    "    @T mx = x[0];\n"                                                                          \
    "    for (int j = 1; j < m; j++)\n"                                                            \
    "        if (x[j@S] > mx)\n"                                                                   \
    "            mx = x[j@S];\n"

static const Op OPS[] = {
    {"softmax", "softmax", "Softmax", "y = exp(x - max(x)) / sum(exp(x - max(x)))",
     {{"x", 0, 'x'}, {"y", 1, 'x'}}, 2, NULL, 0,
     ROWMAX
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++) {\n"
     "        y[j@S] = @exp(x[j@S] - mx);\n"
     "        sum += y[j@S];\n"
     "    }\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] /= sum;\n",
     5, -8, 8, 0, 0},
    {"logsoftmax", "log_softmax", "Log-softmax", "y = x - max(x) - log(sum(exp(x - max(x))))",
     {{"x", 0, 'x'}, {"y", 1, 'x'}}, 2, NULL, 0,
     ROWMAX
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++)\n"
     "        sum += @exp(x[j@S] - mx);\n"
     "    @T lse = mx + @log(sum);\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] = x[j@S] - lse;\n",
     5, -8, 8, 1, 0},
    {"temp", "softmax_temperature", "Softmax with a temperature", "y = softmax(x / temperature), temperature > 0",
     {{"x", 0, 'x'}, {"y", 1, 'x'}}, 2, "temperature", 0.7,
     "    /* A positive temperature keeps the position of the maximum. */\n"
     ROWMAX
     "    @T inv_t = 1 / temperature;\n"
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++) {\n"
     "        y[j@S] = @exp((x[j@S] - mx) * inv_t);\n"
     "        sum += y[j@S];\n"
     "    }\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] /= sum;\n",
     6, -4, 4, 0, 0},
    {"masked", "masked_softmax", "Masked softmax",
     "y = softmax over the positions where mask != 0; masked positions, and\n"
     " * rows masked entirely, get 0",
     {{"x", 0, 'x'}, {"mask", 0, 'k'}, {"y", 1, 'x'}}, 3, NULL, 0,
     "    @T mx = -INFINITY;\n"
     "    for (int j = 0; j < m; j++)\n"
     "        if (mask[j@S] && x[j@S] > mx)\n"
     "            mx = x[j@S];\n"
     "    if (mx == -INFINITY) {\n"
     "        for (int j = 0; j < m; j++)\n"
     "            y[j@S] = 0;\n"
     "        return;\n"
     "    }\n"
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++) {\n"
     "        y[j@S] = mask[j@S] ? @exp(x[j@S] - mx) : 0;\n"
     "        sum += y[j@S];\n"
     "    }\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] /= sum;\n",
     5, -8, 8, 0, 0},
    {"online", "softmax_online", "Single-pass (online) softmax",
     "y = softmax(x) and lse = log(sum(exp(x))); the maximum and the sum are\n"
     " * taken in one pass, rescaling the running sum whenever the maximum grows",
     {{"x", 0, 'x'}, {"y", 1, 'x'}, {"lse", 1, 'r'}}, 3, NULL, 0,
     "    @T mx = x[0];\n"
     "    @T sum = 1;\n"
     "    for (int j = 1; j < m; j++) {\n"
     "        @T v = x[j@S];\n"
     "        if (v > mx) {\n"
     "            sum = sum * @exp(mx - v) + 1;\n"
     "            mx = v;\n"
     "        } else {\n"
     "            sum += @exp(v - mx);\n"
     "        }\n"
     "    }\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] = @exp(x[j@S] - mx) / sum;\n"
     "    return mx + @log(sum);\n",
     6, -8, 8, 0, 0},
    {"bias", "softmax_scale_bias", "Softmax of a scaled, biased input", "y = softmax(scale * x + bias), bias broadcast along the softmax axis",
     {{"x", 0, 'x'}, {"bias", 0, 'v'}, {"y", 1, 'x'}}, 3, "scale", 0.125,
     "    @T mx = scale * x[0] + bias[0];\n"
     "    for (int j = 1; j < m; j++) {\n"
     "        @T v = scale * x[j@S] + bias[j];\n"
     "        if (v > mx)\n"
     "            mx = v;\n"
     "    }\n"
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++) {\n"
     "        y[j@S] = @exp(scale * x[j@S] + bias[j] - mx);\n"
     "        sum += y[j@S];\n"
     "    }\n"
     "    for (int j = 0; j < m; j++)\n"
     "        y[j@S] /= sum;\n",
     7, -16, 16, 0, 0},
    {"lse", "logsumexp", "Log-sum-exp", "lse = max(x) + log(sum(exp(x - max(x))))",
     {{"x", 0, 'x'}, {"lse", 1, 'r'}}, 2, NULL, 0,
     ROWMAX
     "    @T sum = 0;\n"
     "    for (int j = 0; j < m; j++)\n"
     "        sum += @exp(x[j@S] - mx);\n"
     "    return mx + @log(sum);\n",
     4, -8, 8, 1, 0},
    {"backward", "softmax_backward", "Softmax backward", "dx = y * (dy - sum(dy * y)), y the softmax output",
     {{"y", 0, 'x'}, {"dy", 0, 'x'}, {"dx", 1, 'x'}}, 3, NULL, 0,
     "    @T dot = 0;\n"
     "    for (int j = 0; j < m; j++)\n"
     "        dot += dy[j@S] * y[j@S];\n"
     "    for (int j = 0; j < m; j++)\n"
     "        dx[j@S] = y[j@S] * (dy[j@S] - dot);\n",
     4, 0.0001, 0.01, 0, 1},
    {"logbackward", "log_softmax_backward", "Log-softmax backward",
     "dx = dy - exp(logy) * sum(dy), logy the log-softmax output",
     {{"logy", 0, 'x'}, {"dy", 0, 'x'}, {"dx", 1, 'x'}}, 3, NULL, 0,
     "    @T total = 0;\n"
     "    for (int j = 0; j < m; j++)\n"
     "        total += dy[j@S];\n"
     "    for (int j = 0; j < m; j++)\n"
     "        dx[j@S] = dy[j@S] - @exp(logy[j@S]) * total;\n",
     4, -12, -4, 0, 1},
};

enum { LAYOUT_ROWS, LAYOUT_LD, LAYOUT_COLS };
static const char *const LAYOUT_TAG[] = {"rows", "ld", "cols"};

static int op_returns(const Op *op)
{
    for (int a = 0; a < op->nargs; a++)
        if (op->args[a].kind == 'r')
            return 1;
    return 0;
}

static const char *arg_ctype(const OpArg *a, const char *ty)
{
    return a->kind == 'k' ? "uint8_t" : ty;
}

/* The helper over one row (contiguous) or one strided column. */
static void emit_helper(StrBuf *s, TmplSubs *sub, const Op *op, int layout)
{
    const char *ty = sub->val[0];
    StrBuf sig = STRBUF_INIT;
    sb_printf(&sig, "static %s %s_%s(", op_returns(op) ? ty : "void", op->tag,
              layout == LAYOUT_COLS ? "col" : "row");
    int first = 1;
    for (int a = 0; a < op->nargs; a++) {
        const OpArg *x = &op->args[a];
        if (x->kind == 'r')
            continue;
        sb_printf(&sig, "%s%s%s *%s", first ? "" : ", ", x->out ? "" : "const ", arg_ctype(x, ty), x->name);
        first = 0;
    }
    sb_append(&sig, ", int m");
    if (layout == LAYOUT_COLS)
        sb_append(&sig, ", int stride");
    if (op->scalar)
        sb_printf(&sig, ", %s %s", ty, op->scalar);
    sb_append(&sig, ")");
    tmpl_put_wrapped(s, sig.data);
    sb_release(&sig);
    sb_append(s, "\n{\n");
    tmpl_expand(s, sub, op->body);
    sb_append(s, "}\n\n");
}

/* ---- the pair ----
 * Rows (contiguous or padded): one block per row; each reduction over the
 * row (maximum, sum, the online pair) is a per-thread pass over a strided
 * slice followed by a shared-memory tree whose result every thread reads.
 * Columns (stride c): one thread per (i, k) column, running the C program's
 * own helper as a device function (neighbouring threads read neighbouring
 * elements). */

/* The row kernels' bodies, by operator tag: x, y, ... point at row i (the
 * loops run over a strided slice j = threadIdx.x, threadIdx.x + blockDim.x,
 * ...); sh is the block's shared memory. */
typedef struct RowBody {
    const char *tag;
    const char *body;
} RowBody;

#define J_LOOP "for (int j = threadIdx.x; j < m; j += blockDim.x)"
#define CUDA_ROWMAX                                                                                \
    "    @T mx = x[0];\n"                                                                          \
    "    " J_LOOP "\n"                                                                             \
    "        if (x[j] > mx)\n"                                                                     \
    "            mx = x[j];\n"                                                                     \
    "    mx = block_max(mx, sh);\n"

static const RowBody ROW_BODIES[] = {
    {"softmax", CUDA_ROWMAX
                "    @T sum = 0;\n"
                "    " J_LOOP " {\n"
                "        y[j] = @exp(x[j] - mx);\n"
                "        sum += y[j];\n"
                "    }\n"
                "    sum = block_sum(sum, sh);\n"
                "    " J_LOOP "\n"
                "        y[j] /= sum;\n"},
    {"logsoftmax", CUDA_ROWMAX
                   "    @T sum = 0;\n"
                   "    " J_LOOP "\n"
                   "        sum += @exp(x[j] - mx);\n"
                   "    sum = block_sum(sum, sh);\n"
                   "    const @T lse = mx + @log(sum);\n"
                   "    " J_LOOP "\n"
                   "        y[j] = x[j] - lse;\n"},
    {"temp", CUDA_ROWMAX
             "    const @T inv_t = 1 / temperature;\n"
             "    @T sum = 0;\n"
             "    " J_LOOP " {\n"
             "        y[j] = @exp((x[j] - mx) * inv_t);\n"
             "        sum += y[j];\n"
             "    }\n"
             "    sum = block_sum(sum, sh);\n"
             "    " J_LOOP "\n"
             "        y[j] /= sum;\n"},
    {"masked", "    @T mx = NEG_INF;\n"
               "    " J_LOOP "\n"
               "        if (mask[j] && x[j] > mx)\n"
               "            mx = x[j];\n"
               "    mx = block_max(mx, sh);\n"
               "    if (mx == NEG_INF) { /* the whole row is masked */\n"
               "        " J_LOOP "\n"
               "            y[j] = 0;\n"
               "        return;\n"
               "    }\n"
               "    @T sum = 0;\n"
               "    " J_LOOP " {\n"
               "        y[j] = mask[j] ? @exp(x[j] - mx) : 0;\n"
               "        sum += y[j];\n"
               "    }\n"
               "    sum = block_sum(sum, sh);\n"
               "    " J_LOOP "\n"
               "        y[j] /= sum;\n"},
    {"online", "    /* The thread's running maximum and sum, rescaled whenever the maximum grows. */\n"
               "    @T mx = NEG_INF, sum = 0;\n"
               "    " J_LOOP " {\n"
               "        const @T v = x[j];\n"
               "        if (v > mx) {\n"
               "            sum = sum * @exp(mx - v) + 1;\n"
               "            mx = v;\n"
               "        } else {\n"
               "            sum += @exp(v - mx);\n"
               "        }\n"
               "    }\n"
               "    block_online(&mx, &sum, sh);\n"
               "    " J_LOOP "\n"
               "        y[j] = @exp(x[j] - mx) / sum;\n"
               "    if (threadIdx.x == 0)\n"
               "        lse[i] = mx + @log(sum);\n"},
    {"bias", "    @T mx = scale * x[0] + bias[0];\n"
             "    " J_LOOP " {\n"
             "        const @T v = scale * x[j] + bias[j];\n"
             "        if (v > mx)\n"
             "            mx = v;\n"
             "    }\n"
             "    mx = block_max(mx, sh);\n"
             "    @T sum = 0;\n"
             "    " J_LOOP " {\n"
             "        y[j] = @exp(scale * x[j] + bias[j] - mx);\n"
             "        sum += y[j];\n"
             "    }\n"
             "    sum = block_sum(sum, sh);\n"
             "    " J_LOOP "\n"
             "        y[j] /= sum;\n"},
    {"lse", CUDA_ROWMAX
            "    @T sum = 0;\n"
            "    " J_LOOP "\n"
            "        sum += @exp(x[j] - mx);\n"
            "    sum = block_sum(sum, sh);\n"
            "    if (threadIdx.x == 0)\n"
            "        lse[i] = mx + @log(sum);\n"},
    {"backward", "    @T dot = 0;\n"
                 "    " J_LOOP "\n"
                 "        dot += dy[j] * y[j];\n"
                 "    dot = block_sum(dot, sh);\n"
                 "    " J_LOOP "\n"
                 "        dx[j] = y[j] * (dy[j] - dot);\n"},
    {"logbackward", "    @T total = 0;\n"
                    "    " J_LOOP "\n"
                    "        total += dy[j];\n"
                    "    total = block_sum(total, sh);\n"
                    "    " J_LOOP "\n"
                    "        dx[j] = dy[j] - @exp(logy[j]) * total;\n"},
};

static const char *const BLOCK_MAX =
    "/* The maximum of v over the block, returned to every thread; sh holds\n"
    " * blockDim.x values (a power of two). */\n"
    "__device__ @T block_max(@T v, @T *sh)\n{\n"
    "    sh[threadIdx.x] = v;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s && sh[threadIdx.x + s] > sh[threadIdx.x])\n"
    "            sh[threadIdx.x] = sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "    v = sh[0];\n"
    "    __syncthreads(); /* sh is free for the next reduction */\n"
    "    return v;\n}\n\n";

static const char *const BLOCK_SUM =
    "/* The sum of v over the block, returned to every thread; sh holds\n"
    " * blockDim.x values (a power of two). */\n"
    "__device__ @T block_sum(@T v, @T *sh)\n{\n"
    "    sh[threadIdx.x] = v;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x < s)\n"
    "            sh[threadIdx.x] += sh[threadIdx.x + s];\n"
    "    }\n"
    "    __syncthreads();\n"
    "    v = sh[0];\n"
    "    __syncthreads(); /* sh is free for the next reduction */\n"
    "    return v;\n}\n\n";

static const char *const BLOCK_ONLINE =
    "/* Merges the pair (m2, s2) into (*mx, *sum): sum * exp(mx) and s2 * exp(m2)\n"
    " * are sums of exponentials; a zero sum is an empty set. */\n"
    "__device__ void online_merge(@T *mx, @T *sum, @T m2, @T s2)\n{\n"
    "    if (s2 == 0)\n        return;\n"
    "    if (*sum == 0) {\n        *mx = m2;\n        *sum = s2;\n        return;\n    }\n"
    "    const @T m = m2 > *mx ? m2 : *mx;\n"
    "    *sum = *sum * @exp(*mx - m) + s2 * @exp(m2 - m);\n"
    "    *mx = m;\n}\n\n"
    "/* The block's (maximum, sum) pair, returned to every thread; sh holds\n"
    " * 2 * blockDim.x values (blockDim.x a power of two). */\n"
    "__device__ void block_online(@T *mx, @T *sum, @T *sh)\n{\n"
    "    @T *shm = sh, *shs = sh + blockDim.x;\n"
    "    shm[threadIdx.x] = *mx;\n"
    "    shs[threadIdx.x] = *sum;\n"
    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
    "        __syncthreads();\n"
    "        const int t = threadIdx.x;\n"
    "        if (t < s)\n"
    "            online_merge(&shm[t], &shs[t], shm[t + s], shs[t + s]);\n"
    "    }\n"
    "    __syncthreads();\n"
    "    *mx = shm[0];\n"
    "    *sum = shs[0];\n}\n\n";

/* The warp versions, for one warp per row: xor butterflies leave the
 * result in every lane (a sum's or a maximum's bitwise the same in all:
 * each lane combines the same two values, and + and max commute). */
static const char *const WARP_MAX =
    "/* The maximum of v over the warp, returned to every lane. */\n"
    "__device__ @T warp_max(@T v)\n{\n"
    "    for (int d = 16; d > 0; d >>= 1) {\n"
    "        const @T o = __shfl_xor_sync(0xffffffffu, v, d);\n"
    "        if (o > v)\n            v = o;\n"
    "    }\n"
    "    return v;\n}\n\n";

static const char *const WARP_SUM =
    "/* The sum of v over the warp, returned to every lane. */\n"
    "__device__ @T warp_sum(@T v)\n{\n"
    "    for (int d = 16; d > 0; d >>= 1)\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, d);\n"
    "    return v;\n}\n\n";

static const char *const WARP_ONLINE =
    "/* The warp's (maximum, sum) pair, returned to every lane. */\n"
    "__device__ void warp_online(@T *mx, @T *sum)\n{\n"
    "    for (int d = 16; d > 0; d >>= 1) {\n"
    "        const @T m2 = __shfl_xor_sync(0xffffffffu, *mx, d), s2 = __shfl_xor_sync(0xffffffffu, *sum, d);\n"
    "        online_merge(mx, sum, m2, s2);\n"
    "    }\n}\n\n";

/* A point of the template library's knob space for the row layouts; the
 * reference is one block of 256 threads per row with shared-memory trees. */
typedef struct RowPlan {
    int block;         /* threads per block: a power of two, 64 to 1024 */
    int warp_per_row;  /* one warp per row (block/32 rows per block), shuffles, no shared memory */
} RowPlan;

static const RowPlan REFERENCE_ROWS = {256, 0};

/* The row body for one warp per row: lanes stride the row, the block
 * reductions become warp ones, and lane 0 writes the row's statistic.
 * Returns a malloc()ed string. */
static char *warp_body(const char *body)
{
    char *a = xreplace_all(body, J_LOOP, "for (int j = lane; j < m; j += 32)");
    char *b = xreplace_all(a, "threadIdx.x == 0", "lane == 0");
    char *c = xreplace_all(b, ", sh);", ");");
    char *d = xreplace_all(c, "block_", "warp_");
    free(a);
    free(b);
    free(c);
    return d;
}

/* The CUDA parameter list of the entry (the C function's order); `names`
 * gets the launch args. */
static void cuda_params(StrBuf *sig, StrBuf *names, const Op *op, int layout, const char *ty)
{
    for (int a = 0; a < op->nargs; a++) {
        const OpArg *x = &op->args[a];
        sb_printf(sig, "%s%s%s *__restrict__ %s", a ? ", " : "", x->out ? "" : "const ",
                  x->kind == 'k' ? "unsigned char" : ty, x->name);
        sb_printf(names, "%s%s", a ? "," : "", x->name);
    }
    sb_printf(sig, ", int n, int m%s", layout == LAYOUT_LD ? ", int ld" : layout == LAYOUT_COLS ? ", int c" : "");
    sb_printf(names, ",n,m%s", layout == LAYOUT_LD ? ",ld" : layout == LAYOUT_COLS ? ",c" : "");
    if (op->scalar) {
        sb_printf(sig, ", %s %s", ty, op->scalar);
        sb_printf(names, ",%s", op->scalar);
    }
}

static void emit_cuda(GenProgram *p, TmplSubs *sub, const Op *op, int layout, const RowPlan *pl)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = sub->val[0];
    int neg_inf = strcmp(op->tag, "masked") == 0 || (strcmp(op->tag, "online") == 0 && layout != LAYOUT_COLS);
    sb_printf(k, "/* %s along %s:\n * %s.\n", op->title,
              layout == LAYOUT_COLS ? "the middle axis of an n x m x c tensor (stride c)" : "each row of an n x m matrix",
              op->math);
    sb_append(k, layout == LAYOUT_COLS ? " * One thread per (i, k) column. */\n"
                 : pl->warp_per_row    ? " * One warp per row; warp-shuffle reductions. */\n"
                                       : " * One block per row; shared-memory tree reductions. */\n");
    if (neg_inf)
        sb_append(k, "#define NEG_INF (-__int_as_float(0x7f800000)) /* -infinity, in float or double */\n");
    sb_append(k, "\n");
    StrBuf sig = STRBUF_INIT, names = STRBUF_INIT;
    sb_printf(&sig, "extern \"C\" __global__ void %s(", op->entry);
    cuda_params(&sig, &names, op, layout, ty);
    sb_append(&sig, ")");
    const char *ret = NULL;
    for (int a = 0; a < op->nargs; a++)
        if (op->args[a].kind == 'r')
            ret = op->args[a].name;

    if (layout == LAYOUT_COLS) {
        /* The C helper, as a device function. */
        StrBuf h = STRBUF_INIT;
        emit_helper(&h, sub, op, layout);
        const char *src = sb_str(&h);
        const char *st = strstr(src, "static ");
        sb_append_n(k, src, (size_t)(st - src));
        sb_append(k, "__device__ ");
        for (const char *c = st + 7; *c;) {
            if (strncmp(c, "-INFINITY", 9) == 0) {
                sb_append(k, "NEG_INF");
                c += 9;
            } else if (strncmp(c, "uint8_t", 7) == 0) {
                sb_append(k, "unsigned char");
                c += 7;
            } else {
                sb_putc(k, *c++);
            }
        }
        sb_release(&h);
        tmpl_put_wrapped(k, sb_str(&sig));
        sb_append(k, "\n{\n"
                     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; /* i * c + k */\n"
                     "    if (t >= (long long)n * c)\n        return;\n"
                     "    const long long i = t / c, k = t % c, base = i * m * c + k;\n    ");
        if (ret)
            sb_printf(k, "%s[t] = ", ret);
        sb_printf(k, "%s_col(", op->tag);
        int first = 1;
        for (int a = 0; a < op->nargs; a++) {
            const OpArg *x = &op->args[a];
            if (x->kind == 'r')
                continue;
            sb_printf(k, "%s%s%s", first ? "" : ", ", x->name, x->kind == 'v' ? "" : " + base");
            first = 0;
        }
        sb_printf(k, ", m, c%s%s);\n}\n", op->scalar ? ", " : "", op->scalar ? op->scalar : "");
        gen_launch(p, op->entry, "(n*c+255)/256", "256", NULL, sb_str(&names));
        gen_knob(p, "mapping", "one-column-per-thread");
    } else {
        const RowBody *rb = NULL;
        for (size_t b = 0; b < sizeof ROW_BODIES / sizeof ROW_BODIES[0]; b++)
            if (strcmp(ROW_BODIES[b].tag, op->tag) == 0)
                rb = &ROW_BODIES[b];
        int online = strcmp(op->tag, "online") == 0, warp = pl->warp_per_row;
        if (online)
            tmpl_expand(k, sub, warp ? "" : BLOCK_ONLINE);
        if (online && warp) { /* online_merge, then the warp version */
            const char *bo = BLOCK_ONLINE, *cut = strstr(bo, "/* The block's (maximum, sum) pair");
            char *merge = xstrndup(bo, (size_t)(cut - bo));
            tmpl_expand(k, sub, merge);
            free(merge);
            tmpl_expand(k, sub, WARP_ONLINE);
        }
        if (strstr(rb->body, "block_max"))
            tmpl_expand(k, sub, warp ? WARP_MAX : BLOCK_MAX);
        if (strstr(rb->body, "block_sum"))
            tmpl_expand(k, sub, warp ? WARP_SUM : BLOCK_SUM);
        tmpl_put_wrapped(k, sb_str(&sig));
        sb_append(k, "\n{\n");
        tmpl_expand(k, sub, warp ? "    const int lane = threadIdx.x % 32;\n"
                                   "    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
                                   "    if (i >= n)\n        return; /* the whole warp: i is the warp's row */\n"
                                 : "    extern __shared__ @T sh[];\n    const int i = blockIdx.x;\n");
        int first_full = 1;
        for (int a = 0; a < op->nargs; a++) {
            const OpArg *x = &op->args[a];
            if (x->kind != 'x' && x->kind != 'k')
                continue;
            int ld = layout == LAYOUT_LD && x->kind == 'x' && !x->out && first_full;
            sb_printf(k, "    %s += (long long)i * %s;\n", x->name, ld ? "ld" : "m");
            if (x->kind == 'x' && !x->out)
                first_full = 0;
        }
        char *body = warp ? warp_body(rb->body) : xstrdup(rb->body);
        tmpl_expand(k, sub, body);
        free(body);
        sb_append(k, "}\n");
        char smem[32], block[16], grid[32];
        snprintf(smem, sizeof smem, "%s%d*%d", online ? "2*" : "", pl->block, strcmp(ty, "double") == 0 ? 8 : 4);
        snprintf(block, sizeof block, "%d", pl->block);
        snprintf(grid, sizeof grid, "(n+%d)/%d", pl->block / 32 - 1, pl->block / 32);
        gen_launch(p, op->entry, warp ? grid : "n", block, warp ? NULL : smem, sb_str(&names));
        gen_knob(p, "mapping", warp ? "one-row-per-warp-reduction-shuffle" : "one-row-per-block-reduction-shared");
        gen_knob(p, "reduction", warp ? "warp-shuffle" : "shared-tree");
        if (pl != &REFERENCE_ROWS)
            gen_knob(p, "block", block);
    }
    if (pl == &REFERENCE_ROWS || layout == LAYOUT_COLS)
        gen_knob(p, "block", "256");
    sb_release(&sig);
    sb_release(&names);
}

/* The alternatives from the knob space, for the row layouts: other block
 * sizes, and one warp per row (rows of a few hundred elements leave most
 * of a 256-thread block idle in its reductions). */
static void emit_row_alternatives(GenProgram *p, TmplSubs *sub, const Op *op, int layout)
{
    static const struct {
        const char *name;
        RowPlan plan;
    } alts[] = {
        {"block-128", {128, 0}}, {"block-1024", {1024, 0}}, {"warp-per-row", {256, 1}}, {"warp-per-row-128", {128, 1}},
    };
    for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++) {
        gen_alt_begin(p, alts[i].name);
        emit_cuda(p, sub, op, layout, &alts[i].plan);
        gen_alt_end(p);
    }
}

static int generate(GenCtx *g)
{
    int nops = (int)(sizeof OPS / sizeof OPS[0]);
    for (int o = 0; o < nops; o++)
        for (int layout = 0; layout < 3; layout++)
            for (int f64 = 0; f64 < 2; f64++) {
                const Op *op = &OPS[o];
                const char *dt = f64 ? "f64" : "f32";
                int es = f64 ? 8 : 4;
                TmplSubs sub;
                tmpl_init(&sub, f64);
                tmpl_set(&sub, "S", layout == LAYOUT_COLS ? " * stride" : "");
                const char *ty = f64 ? "double" : "float";
                char variant[64];
                snprintf(variant, sizeof variant, "%s-%s-%s", op->tag, LAYOUT_TAG[layout], dt);
                GenProgram *p = gen_begin(g, variant, op->entry);
                gen_describe(p, "%s along %s (%s)", op->entry,
                              layout == LAYOUT_COLS ? "the middle axis of an n x m x c tensor"
                                                    : "the rows of an n x m matrix",
                              dt);
                /* Shapes of each kind of buffer in this layout. */
                const char *full = layout == LAYOUT_COLS ? "n,m,c" : "n,m";
                const char *rowstat = layout == LAYOUT_COLS ? "n,c" : "n";
                int first_full = 1;
                for (int a = 0; a < op->nargs; a++) {
                    const OpArg *x = &op->args[a];
                    const char *shape = x->kind == 'v' ? "m" : x->kind == 'r' ? rowstat : full;
                    if (x->kind == 'x' && !x->out && layout == LAYOUT_LD && first_full)
                        shape = "n,ld";
                    if (x->kind == 'x' && !x->out)
                        first_full = 0;
                    gen_arg(p, x->name, x->kind == 'k' ? "u8" : dt, x->out ? "out" : "in", shape);
                }
                gen_fill_uniform(p, op->args[0].name, op->lo, op->hi);
                for (int a = 1; a < op->nargs; a++)
                    if (op->args[a].kind == 'k')
                        gen_fill_int(p, op->args[a].name, "0", "2");
                gen_arg(p, "n", "i32", "param", NULL);
                gen_arg(p, "m", "i32", "param", NULL);
                if (layout == LAYOUT_LD)
                    gen_arg(p, "ld", "i32", "param", NULL);
                if (layout == LAYOUT_COLS)
                    gen_arg(p, "c", "i32", "param", NULL);
                if (op->scalar)
                    gen_scalar(p, op->scalar, dt, op->scalar_value);
                if (layout == LAYOUT_ROWS) {
                    gen_config(p, "small", "n=64,m=500");
                    gen_config(p, "edge", "n=1,m=1");
                    gen_config(p, "edge-prime", "n=7,m=131");
                    gen_config(p, "large", f64 ? "n=8192,m=4096" : "n=16384,m=4096");
                } else if (layout == LAYOUT_LD) {
                    gen_config(p, "small", "n=64,m=500,ld=512");
                    gen_config(p, "edge", "n=1,m=1,ld=3");
                    gen_config(p, "edge-prime", "n=7,m=131,ld=137");
                    gen_config(p, "large", f64 ? "n=8192,m=4000,ld=4096" : "n=16384,m=4000,ld=4096");
                } else {
                    gen_config(p, "small", "n=4,m=100,c=48");
                    gen_config(p, "edge", "n=1,m=1,c=1");
                    gen_config(p, "edge-prime", "n=3,m=13,c=7");
                    gen_config(p, "large", f64 ? "n=32,m=1024,c=1024" : "n=64,m=1024,c=1024");
                }
                /* Cost: every element once per buffer. */
                const char *elems = layout == LAYOUT_COLS ? "n*m*c" : "n*m";
                const char *rows = layout == LAYOUT_COLS ? "n*c" : "n";
                int full_bytes = 0, row_bytes = 0, vec_bytes = 0;
                for (int a = 0; a < op->nargs; a++) {
                    char k = op->args[a].kind;
                    if (k == 'x')
                        full_bytes += es;
                    else if (k == 'k')
                        full_bytes += 1;
                    else if (k == 'r')
                        row_bytes += es;
                    else
                        vec_bytes += es;
                }
                char flops[64], bytes[96];
                snprintf(flops, sizeof flops, "%d*%s", op->flops, elems);
                if (row_bytes && vec_bytes)
                    snprintf(bytes, sizeof bytes, "%d*%s+%d*%s+%d*m", full_bytes, elems, row_bytes, rows,
                             vec_bytes);
                else if (row_bytes)
                    snprintf(bytes, sizeof bytes, "%d*%s+%d*%s", full_bytes, elems, row_bytes, rows);
                else if (vec_bytes)
                    snprintf(bytes, sizeof bytes, "%d*%s+%d*m", full_bytes, elems, vec_bytes);
                else
                    snprintf(bytes, sizeof bytes, "%d*%s", full_bytes, elems);
                gen_cost(p, flops, bytes);
                if (!f64)
                    gen_tolerance(p, op->logout || op->grad ? 1e-4 : 1e-6, 1e-3);
                else
                    gen_tolerance(p, 1e-10, 1e-8);

                StrBuf *s = gen_src(p);
                sb_printf(s, "/* %s along ", op->title);
                if (layout == LAYOUT_ROWS)
                    sb_append(s, "each row of an n x m row-major matrix:\n");
                else if (layout == LAYOUT_LD)
                    sb_printf(s, "each row of an n x m matrix (%s rows are ld\n * elements apart):\n",
                              op->args[0].name);
                else
                    sb_append(s, "the middle axis of an n x m x c tensor (stride c):\n");
                sb_printf(s, " * %s. */\n", op->math);
                sb_append(s, "#include <math.h>\n#include <stddef.h>\n");
                if (op->args[1].kind == 'k')
                    sb_append(s, "#include <stdint.h>\n");
                sb_append(s, "\n");
                emit_helper(s, &sub, op, layout);

                /* The entry function. */
                StrBuf sig = STRBUF_INIT;
                sb_printf(&sig, "void %s(", op->entry);
                for (int a = 0; a < op->nargs; a++) {
                    const OpArg *x = &op->args[a];
                    sb_printf(&sig, "%s%s%s *%s", a ? ", " : "", x->out ? "" : "const ", arg_ctype(x, ty),
                              x->name);
                }
                sb_printf(&sig, ", int n, int m%s",
                          layout == LAYOUT_LD ? ", int ld" : layout == LAYOUT_COLS ? ", int c" : "");
                if (op->scalar)
                    sb_printf(&sig, ", %s %s", ty, op->scalar);
                sb_append(&sig, ")");
                tmpl_put_wrapped(s, sig.data);
                sb_release(&sig);
                sb_append(s, "\n{\n");
                const char *ind = "        ";
                if (layout == LAYOUT_COLS) {
                    sb_append(s, "    for (int i = 0; i < n; i++) {\n"
                                 "        for (int k = 0; k < c; k++) {\n"
                                 "            size_t base = (size_t)i * m * c + k;\n");
                    ind = "            ";
                } else {
                    sb_append(s, "    for (int i = 0; i < n; i++)");
                    ind = op_returns(op) ? "        " : " ";
                    if (op_returns(op))
                        sb_append(s, "\n");
                }
                const char *ret = NULL;
                for (int a = 0; a < op->nargs; a++)
                    if (op->args[a].kind == 'r')
                        ret = op->args[a].name;
                if (ret) {
                    if (layout == LAYOUT_COLS)
                        sb_printf(s, "%s%s[(size_t)i * c + k] = ", ind, ret);
                    else
                        sb_printf(s, "%s%s[i] = ", ind, ret);
                } else {
                    sb_append(s, layout == LAYOUT_COLS ? ind : (strcmp(ind, " ") == 0 ? "\n        " : ind));
                }
                sb_printf(s, "%s_%s(", op->tag, layout == LAYOUT_COLS ? "col" : "row");
                first_full = 1;
                int first = 1;
                for (int a = 0; a < op->nargs; a++) {
                    const OpArg *x = &op->args[a];
                    if (x->kind == 'r')
                        continue;
                    sb_printf(s, "%s%s", first ? "" : ", ", x->name);
                    first = 0;
                    if (x->kind == 'v')
                        continue;
                    if (layout == LAYOUT_COLS)
                        sb_append(s, " + base");
                    else if (layout == LAYOUT_LD && x->kind == 'x' && !x->out && first_full)
                        sb_append(s, " + (size_t)i * ld");
                    else
                        sb_append(s, " + (size_t)i * m");
                    if (x->kind == 'x' && !x->out)
                        first_full = 0;
                }
                sb_append(s, ", m");
                if (layout == LAYOUT_COLS)
                    sb_append(s, ", c");
                if (op->scalar)
                    sb_printf(s, ", %s", op->scalar);
                sb_append(s, ");\n");
                if (layout == LAYOUT_COLS)
                    sb_append(s, "        }\n    }\n");
                sb_append(s, "}\n");
                emit_cuda(p, &sub, op, layout, &REFERENCE_ROWS);
                if (layout != LAYOUT_COLS)
                    emit_row_alternatives(p, &sub, op, layout);
                if (gen_end(p) != 0)
                    return -1;
            }
    return 0;
}

const Family family_softmax = {"softmax", "ml", 54, generate};
