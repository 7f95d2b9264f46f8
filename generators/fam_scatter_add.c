/* scatter_add — accumulating through an index array: 1D scatter-add and
 * index_add (into existing or zeroed outputs, scaled, with 64-bit or
 * Python-style negative indices, masked), row and column index_add,
 * torch.scatter_add_ along either dimension, embedding backward (padding
 * index, scale by frequency) and sparse SGD row updates, segment reductions
 * (sum, mean, max, min, logsumexp, softmax; sorted ids, unsorted ids or CSR
 * offsets), bincount with and without weights, scatter-max/min/multiply and
 * scatter_reduce mean, gather-then-accumulate (COO SpMV and SpMM, transposed
 * CSR SpMV, GCN aggregation, embedding bags), particle-to-grid deposits
 * (1D/2D cloud-in-cell, nearest grid point), k-means updates, degree counts,
 * COO-to-dense with duplicates and the mixture-of-experts combine.  Index
 * arrays are drawn with gen_fill_int inside their valid ranges; f32 results
 * with many terms per slot are accumulated in double. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_prog.h"

/* The pairs: one thread per scattered element (per element of a scattered
 * row, for row and column variants) with global atomics.  Outputs the C code
 * zeroes are zeroed by a first launch (they arrive poisoned); f32 results the
 * C code accumulates in double go through an f64 scratch buffer and a
 * converting launch.  Max and min use the integer orderings of IEEE bit
 * patterns (atomicMax/atomicMin on the bits), multiply a compare-and-swap
 * loop.  Segment reductions over CSR offsets and embedding bags need no
 * atomics: one thread per segment or per output element. */
#define ZERO_F32 \
    "/* p[i] = 0 for i in [0, n): the outputs arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_f32(float *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0.0f;\n" \
    "}\n" \
    "\n"

#define ZERO_F64 \
    "/* p[i] = 0 for i in [0, n): outputs and scratch arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_f64(double *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0.0;\n" \
    "}\n" \
    "\n"

#define ZERO_I32 \
    "/* p[i] = 0 for i in [0, n): outputs and scratch arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_i32(int *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0;\n" \
    "}\n" \
    "\n"

#define ZERO_I64 \
    "/* p[i] = 0 for i in [0, n): the outputs arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_i64(long long *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0;\n" \
    "}\n" \
    "\n"

#define F64_TO_F32 \
    "/* out[i] = (float)acc[i]: the double accumulators rounded once, as in C. */\n" \
    "extern \"C\" __global__ void f64_to_f32(const double *acc, float *out, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        out[i] = (float)acc[i];\n" \
    "}\n" \
    "\n"

#define ATOMIC_MAX_F32 \
    "/* Atomic float max through the integer orderings of IEEE bit patterns:\n" \
    " * floats with the sign bit clear order like their bits as signed ints (and\n" \
    " * beat every negative), negative floats in reverse of their bits as\n" \
    " * unsigned ints (and lose to every non-negative). */\n" \
    "__device__ void atomic_max_f32(float *addr, float v)\n" \
    "{\n" \
    "    if (__float_as_int(v) >= 0)\n" \
    "        atomicMax((int *)addr, __float_as_int(v));\n" \
    "    else\n" \
    "        atomicMin((unsigned int *)addr, __float_as_uint(v));\n" \
    "}\n" \
    "\n"

#define ATOMIC_MAX_F64 \
    "/* Atomic double max through the integer orderings of IEEE bit patterns (see\n" \
    " * the float version: signed max for the sign bit clear, unsigned min else). */\n" \
    "__device__ void atomic_max_f64(double *addr, double v)\n" \
    "{\n" \
    "    const long long bits = __double_as_longlong(v);\n" \
    "    if (bits >= 0)\n" \
    "        atomicMax((long long *)addr, bits);\n" \
    "    else\n" \
    "        atomicMin((unsigned long long *)addr, (unsigned long long)bits);\n" \
    "}\n" \
    "\n"

static const Prog PROGS[] = {
    {"add-f32-inout", "index_add",
     "out[idx[i]] += src[i]: 1D scatter-add into an existing f32 array",
     "out:f32:inout:m;idx:i32:in:n;src:f32:in:n;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "n", "8*n+8*m", 1e-05, 0.0001,
     "#include <stdint.h>\n"
     "\n"
     "/* out[idx[i]] += src[i] for i = 0..n-1; duplicates add up and indices\n"
     " * outside [0, m) are skipped. */\n"
     "void index_add(float *out, const int32_t *idx, const float *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (idx[i] >= 0 && idx[i] < m)\n"
     "            out[idx[i]] += src[i];\n"
     "}\n",
     "/* One thread per source element: out[idx[i]] += src[i] atomically; indices\n"
     " * outside [0, m) are skipped. */\n"
     "extern \"C\" __global__ void index_add(float *out, const int *idx, const float *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicAdd(&out[k], src[i]);\n"
     "}\n",
     {{"index_add", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-f64-zeroed", "scatter_add",
     "out = 0; out[idx[i]] += src[i] (f64)",
     "src:f64:in:n;idx:i32:in:n;out:f64:out:m;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=33554432,m=2097152"},
     "n", "12*n+8*m", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[k] = sum of src[i] over the i with idx[i] == k, idx[i] in [0, m). */\n"
     "void scatter_add(const double *src, const int32_t *idx, double *out, int n, int m)\n"
     "{\n"
     "    memset(out, 0, (size_t)m * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[idx[i]] += src[i];\n"
     "}\n",
     ZERO_F64
     "/* One thread per source element: out[idx[i]] += src[i] atomically. */\n"
     "extern \"C\" __global__ void scatter_add(const double *src, const int *idx, double *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&out[idx[i]], src[i]);\n"
     "}\n",
     {{"zero_f64", "(m+255)/256", "256", NULL, "out,m"},
      {"scatter_add", "(n+255)/256", "256", NULL, "src,idx,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-i32-to-i64", "scatter_add_widen",
     "i32 values scatter-added into i64 totals",
     "src:i32:in:n;idx:i32:in:n;out:i64:out:m;n:i32:param;m:i32:param",
     "src=int:-100000:100000;idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "n", "8*n+8*m", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[k] = sum of src[i] over the i with idx[i] == k (idx[i] in [0, m)),\n"
     " * totalled in 64 bits. */\n"
     "void scatter_add_widen(const int32_t *src, const int32_t *idx, int64_t *out, int n, int m)\n"
     "{\n"
     "    memset(out, 0, (size_t)m * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[idx[i]] += src[i];\n"
     "}\n",
     ZERO_I64
     "/* One thread per source element: out[idx[i]] += src[i] in 64 bits (the\n"
     " * unsigned atomic adds negative values correctly in two's complement). */\n"
     "extern \"C\" __global__ void scatter_add_widen(const int *src, const int *idx, long long *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&out[idx[i]], (unsigned long long)(long long)src[i]);\n"
     "}\n",
     {{"zero_i64", "(m+255)/256", "256", NULL, "out,m"},
      {"scatter_add_widen", "(n+255)/256", "256", NULL, "src,idx,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-i64-inout", "index_add",
     "out[idx[i]] += src[i] for i64 data",
     "out:i64:inout:m;idx:i32:in:n;src:i64:in:n;n:i32:param;m:i32:param",
     "out=int:-1000000000:1000000000;idx=int:0:m;src=int:-1000000000:1000000000",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=33554432,m=2097152"},
     "n", "12*n+16*m", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* out[idx[i]] += src[i] for i = 0..n-1; indices outside [0, m) are skipped. */\n"
     "void index_add(int64_t *out, const int32_t *idx, const int64_t *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (idx[i] >= 0 && idx[i] < m)\n"
     "            out[idx[i]] += src[i];\n"
     "}\n",
     "/* One thread per source element: out[idx[i]] += src[i] in 64 bits; indices\n"
     " * outside [0, m) are skipped. */\n"
     "extern \"C\" __global__ void index_add(long long *out, const int *idx, const long long *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicAdd((unsigned long long *)&out[k], (unsigned long long)src[i]);\n"
     "}\n",
     {{"index_add", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-f32-alpha", "index_add_scaled",
     "out[idx[i]] += alpha * src[i] (f32)",
     "out:f32:inout:m;idx:i32:in:n;src:f32:in:n;@alpha;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "alpha:f32:0.75",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "2*n", "8*n+8*m", 1e-05, 0.0001,
     "#include <stdint.h>\n"
     "\n"
     "/* out[idx[i]] += alpha * src[i] for i = 0..n-1; indices outside [0, m) are\n"
     " * skipped. */\n"
     "void index_add_scaled(float *out, const int32_t *idx, const float *src, float alpha, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (idx[i] >= 0 && idx[i] < m)\n"
     "            out[idx[i]] += alpha * src[i];\n"
     "}\n",
     "/* One thread per source element: out[idx[i]] += alpha * src[i] atomically. */\n"
     "extern \"C\" __global__ void index_add_scaled(float *out, const int *idx, const float *src, float alpha, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicAdd(&out[k], alpha * src[i]);\n"
     "}\n",
     {{"index_add_scaled", "(n+255)/256", "256", NULL, "out,idx,src,alpha,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rows-f32", "index_add_rows",
     "index_add along dim 0: out[idx[i], :] += src[i, :]",
     "out:f32:inout:m,d;idx:i32:in:n;src:f32:in:n,d;n:i32:param;d:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=2000,d=64,m=500", "n=1,d=1,m=1", "n=97,d=13,m=7", "n=1048576,d=128,m=65536"},
     "n*d", "8*n*d+4*n+8*m*d", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Row scatter-add: out[idx[i]][:] += src[i][:] for each of the n rows of\n"
     " * src (d columns); idx[i] in [0, m) selects a row of out. */\n"
     "void index_add_rows(float *out, const int32_t *idx, const float *src, int n, int d, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (idx[i] < 0 || idx[i] >= m)\n"
     "            continue;\n"
     "        float *dst = out + (size_t)idx[i] * d;\n"
     "        const float *row = src + (size_t)i * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            dst[j] += row[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (i, j) of src: out[idx[i]][j] += src[i][j]. */\n"
     "extern \"C\" __global__ void index_add_rows(float *out, const int *idx, const float *src, int n, int d, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d, j = e % d;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicAdd(&out[(long long)k * d + j], src[e]);\n"
     "}\n",
     {{"index_add_rows", "(n*d+255)/256", "256", NULL, "out,idx,src,n,d,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rows-f64-alpha", "index_add_rows_scaled",
     "out[idx[i], :] += alpha * src[i, :] (f64)",
     "out:f64:inout:m,d;idx:i32:in:n;src:f64:in:n,d;@alpha;n:i32:param;d:i32:param;m:i32:param",
     "idx=int:0:m",
     "alpha:f64:-0.5",
     {"n=2000,d=64,m=500", "n=1,d=1,m=1", "n=97,d=13,m=7", "n=524288,d=128,m=65536"},
     "2*n*d", "16*n*d+4*n+16*m*d", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* out[idx[i]][:] += alpha * src[i][:] for the n rows of src (d columns),\n"
     " * idx[i] in [0, m). */\n"
     "void index_add_rows_scaled(double *out, const int32_t *idx, const double *src, double alpha, int n, int d, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (idx[i] < 0 || idx[i] >= m)\n"
     "            continue;\n"
     "        double *dst = out + (size_t)idx[i] * d;\n"
     "        const double *row = src + (size_t)i * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            dst[j] += alpha * row[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (i, j) of src: out[idx[i]][j] += alpha * src[i][j]. */\n"
     "extern \"C\" __global__ void index_add_rows_scaled(double *out, const int *idx, const double *src, double alpha, int n,\n"
     "                                                 int d, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d, j = e % d;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicAdd(&out[(long long)k * d + j], alpha * src[e]);\n"
     "}\n",
     {{"index_add_rows_scaled", "(n*d+255)/256", "256", NULL, "out,idx,src,alpha,n,d,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"embedding-grad-padding", "embedding_backward",
     "embedding backward: accumulate output gradients into the rows of the table gradient, skipping the padding token",
     "grad_table:f32:inout:vocab,dim;tokens:i32:in:ntok;grad_out:f32:in:ntok,dim;padding_idx:i32:param;ntok:i32:param;dim:i32:param;vocab:i32:param",
     "tokens=int:0:vocab",
     "",
     {"padding_idx=0,ntok=2000,dim=64,vocab=500", "padding_idx=0,ntok=1,dim=1,vocab=2", "padding_idx=3,ntok=97,dim=13,vocab=7", "padding_idx=0,ntok=1048576,dim=128,vocab=65536"},
     "ntok*dim", "8*ntok*dim+4*ntok+8*vocab*dim", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Gradient of an embedding lookup: grad_table[tokens[t]][:] += grad_out[t][:]\n"
     " * for each of the ntok tokens, except tokens equal to padding_idx, which\n"
     " * receive no gradient.  tokens[t] lies in [0, vocab). */\n"
     "void embedding_backward(float *grad_table, const int32_t *tokens, const float *grad_out, int padding_idx, int ntok,\n"
     "                        int dim, int vocab)\n"
     "{\n"
     "    for (int t = 0; t < ntok; t++) {\n"
     "        int v = tokens[t];\n"
     "        if (v == padding_idx || v < 0 || v >= vocab)\n"
     "            continue;\n"
     "        float *dst = grad_table + (size_t)v * dim;\n"
     "        const float *g = grad_out + (size_t)t * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            dst[j] += g[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (t, j) of grad_out: grad_table[tokens[t]][j] +=\n"
     " * grad_out[t][j], except for the padding token. */\n"
     "extern \"C\" __global__ void embedding_backward(float *grad_table, const int *tokens, const float *grad_out,\n"
     "                                              int padding_idx, int ntok, int dim, int vocab)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)ntok * dim)\n"
     "        return;\n"
     "    const long long t = e / dim, j = e % dim;\n"
     "    const int v = tokens[t];\n"
     "    if (v == padding_idx || v < 0 || v >= vocab)\n"
     "        return;\n"
     "    atomicAdd(&grad_table[(long long)v * dim + j], grad_out[e]);\n"
     "}\n",
     {{"embedding_backward", "(ntok*dim+255)/256", "256", NULL, "grad_table,tokens,grad_out,padding_idx,ntok,dim,vocab"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"embedding-grad-freq", "embedding_backward_by_freq",
     "embedding backward with gradients scaled by the inverse frequency of each token in the batch",
     "tokens:i32:in:ntok;grad_out:f32:in:ntok,dim;grad_table:f32:out:vocab,dim;ntok:i32:param;dim:i32:param;vocab:i32:param",
     "tokens=int:0:vocab",
     "",
     {"ntok=2000,dim=64,vocab=500", "ntok=1,dim=1,vocab=1", "ntok=97,dim=13,vocab=7", "ntok=1048576,dim=128,vocab=65536"},
     "2*ntok*dim", "4*ntok*dim+4*ntok+4*vocab*dim", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Embedding backward with scale_grad_by_freq: with count[v] the number of\n"
     " * times token v occurs in tokens,\n"
     " *   grad_table[v][:] = sum over t with tokens[t] == v of grad_out[t][:] / count[v]\n"
     " * and rows of tokens that do not occur are 0. */\n"
     "void embedding_backward_by_freq(const int32_t *tokens, const float *grad_out, float *grad_table, int ntok, int dim,\n"
     "                                int vocab)\n"
     "{\n"
     "    int32_t *count = calloc((size_t)vocab, sizeof *count);\n"
     "    if (!count)\n"
     "        return;\n"
     "    for (int t = 0; t < ntok; t++)\n"
     "        count[tokens[t]]++;\n"
     "    memset(grad_table, 0, (size_t)vocab * dim * sizeof *grad_table);\n"
     "    for (int t = 0; t < ntok; t++) {\n"
     "        int v = tokens[t];\n"
     "        float scale = 1.0f / count[v];\n"
     "        float *dst = grad_table + (size_t)v * dim;\n"
     "        const float *g = grad_out + (size_t)t * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            dst[j] += g[j] * scale;\n"
     "    }\n"
     "    free(count);\n"
     "}\n",
     ZERO_I32
     ZERO_F32
     "/* One thread per token: count[tokens[t]] += 1. */\n"
     "extern \"C\" __global__ void count_tokens(const int *tokens, int *count, int ntok)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t < ntok)\n"
     "        atomicAdd(&count[tokens[t]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per element (t, j) of grad_out: grad_table[v][j] +=\n"
     " * grad_out[t][j] * (1 / count[v]) with v = tokens[t]. */\n"
     "extern \"C\" __global__ void embedding_backward_by_freq(const int *tokens, const float *grad_out, float *grad_table,\n"
     "                                                      const int *count, int ntok, int dim)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)ntok * dim)\n"
     "        return;\n"
     "    const long long t = e / dim, j = e % dim;\n"
     "    const int v = tokens[t];\n"
     "    const float scale = 1.0f / count[v];\n"
     "    atomicAdd(&grad_table[(long long)v * dim + j], grad_out[e] * scale);\n"
     "}\n",
     {{"zero_i32", "(vocab+255)/256", "256", NULL, "count,vocab"},
      {"count_tokens", "(ntok+255)/256", "256", NULL, "tokens,count,ntok"},
      {"zero_f32", "(vocab*dim+255)/256", "256", NULL, "grad_table,vocab*dim"},
      {"embedding_backward_by_freq", "(ntok*dim+255)/256", "256", NULL, "tokens,grad_out,grad_table,count,ntok,dim"}},
     "count:i32:vocab", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"cols-f32", "index_add_cols",
     "index_add along dim 1: out[:, idx[j]] += src[:, j]",
     "out:f32:inout:r,m;idx:i32:in:n;src:f32:in:r,n;r:i32:param;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"r=64,n=2000,m=500", "r=1,n=1,m=1", "r=13,n=97,m=7", "r=128,n=1048576,m=65536"},
     "r*n", "8*r*n+4*n+8*r*m", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Column scatter-add over r rows: out[i][idx[j]] += src[i][j] for every row\n"
     " * i and every column j < n of src; idx[j] in [0, m). */\n"
     "void index_add_cols(float *out, const int32_t *idx, const float *src, int r, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        float *orow = out + (size_t)i * m;\n"
     "        const float *srow = src + (size_t)i * n;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            orow[idx[j]] += srow[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (i, j) of src: out[i][idx[j]] += src[i][j]. */\n"
     "extern \"C\" __global__ void index_add_cols(float *out, const int *idx, const float *src, int r, int n, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * n)\n"
     "        return;\n"
     "    const long long i = e / n, j = e % n;\n"
     "    atomicAdd(&out[i * m + idx[j]], src[e]);\n"
     "}\n",
     {{"index_add_cols", "(r*n+255)/256", "256", NULL, "out,idx,src,r,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-sum-sorted-f32", "segment_sum",
     "segment sum over sorted segment ids (f32, double accumulation)",
     "x:f32:in:n;seg:i32:in:n;out:f32:out:nseg;n:i32:param;nseg:i32:param",
     "seg=int:0:nseg;seg=sorted",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=67108864,nseg=1048576"},
     "n", "8*n+4*nseg", 0.001, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[s] = sum of x[i] over the i with seg[i] == s, for ascending segment\n"
     " * ids in [0, nseg); empty segments are 0.  Each run of equal ids is summed\n"
     " * in double. */\n"
     "void segment_sum(const float *x, const int32_t *seg, float *out, int n, int nseg)\n"
     "{\n"
     "    memset(out, 0, (size_t)nseg * sizeof *out);\n"
     "    int i = 0;\n"
     "    while (i < n) {\n"
     "        int s = seg[i];\n"
     "        double sum = 0.0;\n"
     "        for (; i < n && seg[i] == s; i++)\n"
     "            sum += x[i];\n"
     "        out[s] = (float)sum;\n"
     "    }\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per element: acc[seg[i]] += x[i] in double (atomically). */\n"
     "extern \"C\" __global__ void segment_sum(const float *x, const int *seg, double *acc, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&acc[seg[i]], (double)x[i]);\n"
     "}\n",
     {{"zero_f64", "(nseg+255)/256", "256", NULL, "acc,nseg"},
      {"segment_sum", "(n+255)/256", "256", NULL, "x,seg,acc,n"},
      {"f64_to_f32", "(nseg+255)/256", "256", NULL, "acc,out,nseg"}},
     "acc:f64:nseg", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"segment-sum-unsorted-f64", "unsorted_segment_sum",
     "segment sum over unsorted segment ids (f64)",
     "x:f64:in:n;seg:i32:in:n;out:f64:out:nseg;n:i32:param;nseg:i32:param",
     "seg=int:0:nseg",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=33554432,nseg=1048576"},
     "n", "12*n+8*nseg", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[s] = sum of x[i] over the i with seg[i] == s; ids are in [0, nseg) in\n"
     " * any order, and empty segments are 0. */\n"
     "void unsorted_segment_sum(const double *x, const int32_t *seg, double *out, int n, int nseg)\n"
     "{\n"
     "    memset(out, 0, (size_t)nseg * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[seg[i]] += x[i];\n"
     "}\n",
     ZERO_F64
     "/* One thread per element: out[seg[i]] += x[i] atomically. */\n"
     "extern \"C\" __global__ void unsorted_segment_sum(const double *x, const int *seg, double *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&out[seg[i]], x[i]);\n"
     "}\n",
     {{"zero_f64", "(nseg+255)/256", "256", NULL, "out,nseg"},
      {"unsorted_segment_sum", "(n+255)/256", "256", NULL, "x,seg,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-mean-f32", "unsorted_segment_mean",
     "segment mean over unsorted ids; empty segments give 0",
     "x:f32:in:n;seg:i32:in:n;out:f32:out:nseg;n:i32:param;nseg:i32:param",
     "seg=int:0:nseg",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=67108864,nseg=1048576"},
     "2*n", "8*n+4*nseg", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* out[s] = mean of x[i] over the i with seg[i] == s (ids in [0, nseg), any\n"
     " * order), or 0 for an empty segment.  Sums are accumulated in double. */\n"
     "void unsorted_segment_mean(const float *x, const int32_t *seg, float *out, int n, int nseg)\n"
     "{\n"
     "    double *sum = calloc((size_t)nseg, sizeof *sum);\n"
     "    int32_t *count = calloc((size_t)nseg, sizeof *count);\n"
     "    if (!sum || !count) {\n"
     "        free(sum);\n"
     "        free(count);\n"
     "        return;\n"
     "    }\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        sum[seg[i]] += x[i];\n"
     "        count[seg[i]]++;\n"
     "    }\n"
     "    for (int s = 0; s < nseg; s++)\n"
     "        out[s] = count[s] > 0 ? (float)(sum[s] / count[s]) : 0.0f;\n"
     "    free(sum);\n"
     "    free(count);\n"
     "}\n",
     ZERO_F64
     ZERO_I32
     "/* One thread per element: sum[seg[i]] += x[i] (double) and count[seg[i]] += 1. */\n"
     "extern \"C\" __global__ void segment_sums(const float *x, const int *seg, double *sum, int *count, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    atomicAdd(&sum[seg[i]], (double)x[i]);\n"
     "    atomicAdd(&count[seg[i]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per segment: the mean, 0 for an empty segment. */\n"
     "extern \"C\" __global__ void unsorted_segment_mean(const double *sum, const int *count, float *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s < nseg)\n"
     "        out[s] = count[s] > 0 ? (float)(sum[s] / count[s]) : 0.0f;\n"
     "}\n",
     {{"zero_f64", "(nseg+255)/256", "256", NULL, "sum,nseg"},
      {"zero_i32", "(nseg+255)/256", "256", NULL, "count,nseg"},
      {"segment_sums", "(n+255)/256", "256", NULL, "x,seg,sum,count,n"},
      {"unsorted_segment_mean", "(nseg+255)/256", "256", NULL, "sum,count,out,nseg"}},
     "sum:f64:nseg;count:i32:nseg", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"segment-max-sorted-f32", "segment_max",
     "segment maximum over sorted ids; empty segments give 0",
     "x:f32:in:n;seg:i32:in:n;out:f32:out:nseg;n:i32:param;nseg:i32:param",
     "seg=int:0:nseg;seg=sorted",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=67108864,nseg=1048576"},
     "n", "8*n+4*nseg", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[s] = max of x[i] over the i with seg[i] == s, for ascending ids in\n"
     " * [0, nseg); empty segments are 0. */\n"
     "void segment_max(const float *x, const int32_t *seg, float *out, int n, int nseg)\n"
     "{\n"
     "    memset(out, 0, (size_t)nseg * sizeof *out);\n"
     "    int i = 0;\n"
     "    while (i < n) {\n"
     "        int s = seg[i];\n"
     "        float m = x[i];\n"
     "        for (i++; i < n && seg[i] == s; i++)\n"
     "            if (x[i] > m)\n"
     "                m = x[i];\n"
     "        out[s] = m;\n"
     "    }\n"
     "}\n",
     ATOMIC_MAX_F32
     "#define NEG_INF_BITS 0xff800000u\n"
     "\n"
     "/* out[s] = -infinity: the identity of max. */\n"
     "extern \"C\" __global__ void init_max(float *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s < nseg)\n"
     "        out[s] = __uint_as_float(NEG_INF_BITS);\n"
     "}\n"
     "\n"
     "/* One thread per element: out[seg[i]] = max(out[seg[i]], x[i]). */\n"
     "extern \"C\" __global__ void segment_max(const float *x, const int *seg, float *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomic_max_f32(&out[seg[i]], x[i]);\n"
     "}\n"
     "\n"
     "/* One thread per segment: an empty segment becomes 0. */\n"
     "extern \"C\" __global__ void empty_to_zero(float *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s < nseg && __float_as_uint(out[s]) == NEG_INF_BITS)\n"
     "        out[s] = 0.0f;\n"
     "}\n",
     {{"init_max", "(nseg+255)/256", "256", NULL, "out,nseg"},
      {"segment_max", "(n+255)/256", "256", NULL, "x,seg,out,n"},
      {"empty_to_zero", "(nseg+255)/256", "256", NULL, "out,nseg"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-min-unsorted-f64", "unsorted_segment_min",
     "segment minimum over unsorted ids; empty segments give 0",
     "x:f64:in:n;seg:i32:in:n;out:f64:out:nseg;n:i32:param;nseg:i32:param",
     "seg=int:0:nseg",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=33554432,nseg=1048576"},
     "n", "12*n+8*nseg", -1, -1,
     "#include <math.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* out[s] = min of x[i] over the i with seg[i] == s (ids in [0, nseg), any\n"
     " * order), or 0 for an empty segment. */\n"
     "void unsorted_segment_min(const double *x, const int32_t *seg, double *out, int n, int nseg)\n"
     "{\n"
     "    for (int s = 0; s < nseg; s++)\n"
     "        out[s] = INFINITY;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (x[i] < out[seg[i]])\n"
     "            out[seg[i]] = x[i];\n"
     "    for (int s = 0; s < nseg; s++)\n"
     "        if (out[s] == INFINITY)\n"
     "            out[s] = 0.0;\n"
     "}\n",
     "#define POS_INF_BITS 0x7ff0000000000000LL\n"
     "\n"
     "/* out[s] = +infinity: the identity of min. */\n"
     "extern \"C\" __global__ void init_min(double *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s < nseg)\n"
     "        out[s] = __longlong_as_double(POS_INF_BITS);\n"
     "}\n"
     "\n"
     "/* Atomic double min through the integer orderings of IEEE bit patterns:\n"
     " * doubles with the sign bit clear order like their bits as signed integers,\n"
     " * negative doubles in reverse of their bits as unsigned integers. */\n"
     "__device__ void atomic_min_f64(double *addr, double v)\n"
     "{\n"
     "    const long long bits = __double_as_longlong(v);\n"
     "    if (bits >= 0)\n"
     "        atomicMin((long long *)addr, bits);\n"
     "    else\n"
     "        atomicMax((unsigned long long *)addr, (unsigned long long)bits);\n"
     "}\n"
     "\n"
     "/* One thread per element: out[seg[i]] = min(out[seg[i]], x[i]). */\n"
     "extern \"C\" __global__ void unsorted_segment_min(const double *x, const int *seg, double *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomic_min_f64(&out[seg[i]], x[i]);\n"
     "}\n"
     "\n"
     "/* One thread per segment: an empty segment becomes 0. */\n"
     "extern \"C\" __global__ void empty_to_zero(double *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s < nseg && __double_as_longlong(out[s]) == POS_INF_BITS)\n"
     "        out[s] = 0.0;\n"
     "}\n",
     {{"init_min", "(nseg+255)/256", "256", NULL, "out,nseg"},
      {"unsorted_segment_min", "(n+255)/256", "256", NULL, "x,seg,out,n"},
      {"empty_to_zero", "(nseg+255)/256", "256", NULL, "out,nseg"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-sum-offsets-f32", "segment_sum_csr",
     "segment sums of a packed array given CSR-style offsets",
     "x:f32:in:n;offsets:i32:in:nseg+1;out:f32:out:nseg;n:i32:param;nseg:i32:param",
     "offsets=partition:n",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=67108864,nseg=1048576"},
     "n", "4*n+8*nseg", 0.001, 0.001,
     "#include <stdint.h>\n"
     "\n"
     "/* out[s] = x[offsets[s]] + ... + x[offsets[s+1] - 1]: segment s is the slice\n"
     " * [offsets[s], offsets[s+1]) of x, with offsets non-decreasing from 0 to n.\n"
     " * Each segment is summed in double. */\n"
     "void segment_sum_csr(const float *x, const int32_t *offsets, float *out, int n, int nseg)\n"
     "{\n"
     "    for (int s = 0; s < nseg; s++) {\n"
     "        int end = offsets[s + 1] < n ? offsets[s + 1] : n;\n"
     "        double sum = 0.0;\n"
     "        for (int i = offsets[s]; i < end; i++)\n"
     "            sum += x[i];\n"
     "        out[s] = (float)sum;\n"
     "    }\n"
     "}\n",
     "/* One thread per segment: the slice [offsets[s], offsets[s+1]) summed in\n"
     " * double, in order. */\n"
     "extern \"C\" __global__ void segment_sum_csr(const float *x, const int *offsets, float *out, int n, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s >= nseg)\n"
     "        return;\n"
     "    const int end = offsets[s + 1] < n ? offsets[s + 1] : n;\n"
     "    double sum = 0.0;\n"
     "    for (int i = offsets[s]; i < end; i++)\n"
     "        sum += x[i];\n"
     "    out[s] = (float)sum;\n"
     "}\n",
     {{"segment_sum_csr", "(nseg+255)/256", "256", NULL, "x,offsets,out,n,nseg"}},
     NULL, "block=256;mapping=one-segment-per-thread"},
    {"segment-max-offsets-f64", "segment_max_csr",
     "segment maxima of a packed f64 array given offsets; empty segments give 0",
     "x:f64:in:n;offsets:i32:in:nseg+1;out:f64:out:nseg;n:i32:param;nseg:i32:param",
     "offsets=partition:n",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=33554432,nseg=1048576"},
     "n", "8*n+12*nseg", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* out[s] = max of x[offsets[s] .. offsets[s+1] - 1], or 0 for an empty\n"
     " * segment; offsets are non-decreasing from 0 to n. */\n"
     "void segment_max_csr(const double *x, const int32_t *offsets, double *out, int n, int nseg)\n"
     "{\n"
     "    for (int s = 0; s < nseg; s++) {\n"
     "        int begin = offsets[s], end = offsets[s + 1] < n ? offsets[s + 1] : n;\n"
     "        if (begin >= end) {\n"
     "            out[s] = 0.0;\n"
     "            continue;\n"
     "        }\n"
     "        double m = x[begin];\n"
     "        for (int i = begin + 1; i < end; i++)\n"
     "            if (x[i] > m)\n"
     "                m = x[i];\n"
     "        out[s] = m;\n"
     "    }\n"
     "}\n",
     "/* One thread per segment: the maximum of its slice, 0 when it is empty. */\n"
     "extern \"C\" __global__ void segment_max_csr(const double *x, const int *offsets, double *out, int n, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s >= nseg)\n"
     "        return;\n"
     "    const int begin = offsets[s], end = offsets[s + 1] < n ? offsets[s + 1] : n;\n"
     "    if (begin >= end) {\n"
     "        out[s] = 0.0;\n"
     "        return;\n"
     "    }\n"
     "    double m = x[begin];\n"
     "    for (int i = begin + 1; i < end; i++)\n"
     "        if (x[i] > m)\n"
     "            m = x[i];\n"
     "    out[s] = m;\n"
     "}\n",
     {{"segment_max_csr", "(nseg+255)/256", "256", NULL, "x,offsets,out,n,nseg"}},
     NULL, "block=256;mapping=one-segment-per-thread"},
    {"bincount-weights-f32", "bincount_weighted",
     "numpy bincount with f32 weights (double accumulation)",
     "x:i32:in:n;weights:f32:in:n;out:f32:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:0:nbins;weights=uniform:0:1",
     "",
     {"n=100000,nbins=1000", "n=1,nbins=1", "n=7919,nbins=13", "n=67108864,nbins=100000"},
     "n", "8*n+4*nbins", 0.001, 0.001,
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* out[b] = sum of weights[i] over the i with x[i] == b, x[i] in [0, nbins).\n"
     " * Sums are accumulated in double. */\n"
     "void bincount_weighted(const int32_t *x, const float *weights, float *out, int n, int nbins)\n"
     "{\n"
     "    double *acc = calloc((size_t)nbins, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        acc[x[i]] += weights[i];\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        out[b] = (float)acc[b];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per element: acc[x[i]] += weights[i] in double (atomically). */\n"
     "extern \"C\" __global__ void bincount_weighted(const int *x, const float *weights, double *acc, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&acc[x[i]], (double)weights[i]);\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "acc,nbins"},
      {"bincount_weighted", "(n+255)/256", "256", NULL, "x,weights,acc,n"},
      {"f64_to_f32", "(nbins+255)/256", "256", NULL, "acc,out,nbins"}},
     "acc:f64:nbins", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"bincount-weights-f64", "bincount_weighted",
     "bincount with f64 weights, values beyond nbins dropped",
     "x:i64:in:n;weights:f64:in:n;out:f64:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:-5:nbins+5",
     "",
     {"n=100000,nbins=700", "n=1,nbins=1", "n=7919,nbins=29", "n=33554432,nbins=65536"},
     "n", "16*n+8*nbins", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[b] = sum of weights[i] over the i with x[i] == b for b in [0, nbins);\n"
     " * values of x outside that range are dropped. */\n"
     "void bincount_weighted(const int64_t *x, const double *weights, double *out, int n, int nbins)\n"
     "{\n"
     "    memset(out, 0, (size_t)nbins * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (x[i] >= 0 && x[i] < nbins)\n"
     "            out[x[i]] += weights[i];\n"
     "}\n",
     ZERO_F64
     "/* One thread per element: out[x[i]] += weights[i] for x[i] in [0, nbins). */\n"
     "extern \"C\" __global__ void bincount_weighted(const long long *x, const double *weights, double *out, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const long long b = x[i];\n"
     "    if (b >= 0 && b < nbins)\n"
     "        atomicAdd(&out[b], weights[i]);\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "out,nbins"},
      {"bincount_weighted", "(n+255)/256", "256", NULL, "x,weights,out,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"bincount-i64", "bincount",
     "bincount: number of occurrences of each value, 64-bit counts",
     "x:i32:in:n;out:i64:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:0:nbins",
     "",
     {"n=100000,nbins=1000", "n=1,nbins=1", "n=7919,nbins=13", "n=67108864,nbins=100000"},
     "n", "4*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[b] = number of i with x[i] == b, x[i] in [0, nbins). */\n"
     "void bincount(const int32_t *x, int64_t *out, int n, int nbins)\n"
     "{\n"
     "    memset(out, 0, (size_t)nbins * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[x[i]]++;\n"
     "}\n",
     ZERO_I64
     "/* One thread per element: out[x[i]] += 1 in 64 bits. */\n"
     "extern \"C\" __global__ void bincount(const int *x, long long *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&out[x[i]], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nbins+255)/256", "256", NULL, "out,nbins"},
      {"bincount", "(n+255)/256", "256", NULL, "x,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    /* The max and min scatters into existing outputs have one more edge
     * config, edge-sparse: few sources per slot.  A thread past the end of
     * idx (a missing or loosened bound) reads a small in-range index from
     * its guard on the second trial and scatters the value beside it, which
     * shows only where it beats the slot's; where every slot already holds
     * the max or min of dozens of sources (edge-prime: 78) it never does, so
     * the off-by-ones passed every config (census 2026-12-07).  The i32 min's
     * existing values are non-negative, so an untouched slot is above the
     * guard's small index (1 to 8) wherever the seed puts it; drawn from
     * [-1e6, 1e6], the slot the stray thread hit held -978,056. */
    {"max-f32-inout", "scatter_max",
     "scatter-max: out[idx[i]] = max(out[idx[i]], src[i])",
     "out:f32:inout:m;idx:i32:in:n;src:f32:in:n;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101|edge-sparse:n=300,m=4099", "n=67108864,m=4194304"},
     "n", "8*n+8*m", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* out[k] = max(out[k], max of src[i] over the i with idx[i] == k);\n"
     " * indices outside [0, m) are skipped. */\n"
     "void scatter_max(float *out, const int32_t *idx, const float *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k = idx[i];\n"
     "        if (k >= 0 && k < m && src[i] > out[k])\n"
     "            out[k] = src[i];\n"
     "    }\n"
     "}\n",
     ATOMIC_MAX_F32
     "/* One thread per source element: out[idx[i]] = max(out[idx[i]], src[i]). */\n"
     "extern \"C\" __global__ void scatter_max(float *out, const int *idx, const float *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomic_max_f32(&out[k], src[i]);\n"
     "}\n",
     {{"scatter_max", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"min-i32-inout", "scatter_min",
     "scatter-min of i32 values into an existing array",
     "out:i32:inout:m;idx:i32:in:n;src:i32:in:n;n:i32:param;m:i32:param",
     "out=int:0:1000000;idx=int:0:m;src=int:-1000000000:1000000000",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101|edge-sparse:n=300,m=4099", "n=67108864,m=4194304"},
     "n", "8*n+8*m", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* out[k] = min(out[k], min of src[i] over the i with idx[i] == k); indices\n"
     " * outside [0, m) are skipped. */\n"
     "void scatter_min(int32_t *out, const int32_t *idx, const int32_t *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k = idx[i];\n"
     "        if (k >= 0 && k < m && src[i] < out[k])\n"
     "            out[k] = src[i];\n"
     "    }\n"
     "}\n",
     "/* One thread per source element: out[idx[i]] = min(out[idx[i]], src[i]). */\n"
     "extern \"C\" __global__ void scatter_min(int *out, const int *idx, const int *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomicMin(&out[k], src[i]);\n"
     "}\n",
     {{"scatter_min", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"max-i64-zeroed", "scatter_max_init",
     "scatter-max of i64 values; slots nothing maps to hold the minimum value",
     "src:i64:in:n;idx:i32:in:n;out:i64:out:m;n:i32:param;m:i32:param",
     "src=int:-1000000000000:1000000000000;idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=33554432,m=2097152"},
     "n", "12*n+8*m", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* out[k] = max of src[i] over the i with idx[i] == k (idx[i] in [0, m)), or\n"
     " * INT64_MIN when no i maps to k. */\n"
     "void scatter_max_init(const int64_t *src, const int32_t *idx, int64_t *out, int n, int m)\n"
     "{\n"
     "    for (int k = 0; k < m; k++)\n"
     "        out[k] = INT64_MIN;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (src[i] > out[idx[i]])\n"
     "            out[idx[i]] = src[i];\n"
     "}\n",
     "/* out[k] = INT64_MIN: the identity of max. */\n"
     "extern \"C\" __global__ void init_min_value(long long *out, int m)\n"
     "{\n"
     "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k < m)\n"
     "        out[k] = -9223372036854775807LL - 1;\n"
     "}\n"
     "\n"
     "/* One thread per source element: out[idx[i]] = max(out[idx[i]], src[i]). */\n"
     "extern \"C\" __global__ void scatter_max_init(const long long *src, const int *idx, long long *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicMax(&out[idx[i]], src[i]);\n"
     "}\n",
     {{"init_min_value", "(m+255)/256", "256", NULL, "out,m"},
      {"scatter_max_init", "(n+255)/256", "256", NULL, "src,idx,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"max-rows-f32", "scatter_max_rows",
     "row scatter-max: out[idx[i], :] = max(out[idx[i], :], src[i, :])",
     "out:f32:inout:m,d;idx:i32:in:n;src:f32:in:n,d;n:i32:param;d:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=2000,d=64,m=500", "n=1,d=1,m=1", "n=97,d=13,m=7|edge-sparse:n=30,d=7,m=409", "n=1048576,d=128,m=65536"},
     "n*d", "8*n*d+4*n+8*m*d", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Elementwise row scatter-max: out[idx[i]][j] = max(out[idx[i]][j],\n"
     " * src[i][j]) for the n rows of src (d columns); idx[i] in [0, m). */\n"
     "void scatter_max_rows(float *out, const int32_t *idx, const float *src, int n, int d, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (idx[i] < 0 || idx[i] >= m)\n"
     "            continue;\n"
     "        float *dst = out + (size_t)idx[i] * d;\n"
     "        const float *row = src + (size_t)i * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            if (row[j] > dst[j])\n"
     "                dst[j] = row[j];\n"
     "    }\n"
     "}\n",
     ATOMIC_MAX_F32
     "/* One thread per element (i, j) of src: out[idx[i]][j] = max(out[idx[i]][j],\n"
     " * src[i][j]). */\n"
     "extern \"C\" __global__ void scatter_max_rows(float *out, const int *idx, const float *src, int n, int d, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d, j = e % d;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomic_max_f32(&out[(long long)k * d + j], src[e]);\n"
     "}\n",
     {{"scatter_max_rows", "(n*d+255)/256", "256", NULL, "out,idx,src,n,d,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"mul-f64-inout", "scatter_mul",
     "scatter-multiply of factors near 1 into an existing f64 array",
     "out:f64:inout:m;idx:i32:in:n;src:f64:in:n;n:i32:param;m:i32:param",
     "out=uniform:0.5:2;idx=int:0:m;src=uniform:0.99:1.01",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=33554432,m=2097152"},
     "n", "12*n+16*m", 1e-12, 1e-09,
     "#include <stdint.h>\n"
     "\n"
     "/* out[k] *= product of src[i] over the i with idx[i] == k (idx[i] in\n"
     " * [0, m)); the factors are close to 1. */\n"
     "void scatter_mul(double *out, const int32_t *idx, const double *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (idx[i] >= 0 && idx[i] < m)\n"
     "            out[idx[i]] *= src[i];\n"
     "}\n",
     "/* Atomic double multiply: a compare-and-swap loop on the bits. */\n"
     "__device__ void atomic_mul_f64(double *addr, double v)\n"
     "{\n"
     "    unsigned long long *bits = (unsigned long long *)addr;\n"
     "    unsigned long long old = *bits, seen;\n"
     "    do {\n"
     "        seen = old;\n"
     "        old = atomicCAS(bits, seen, __double_as_longlong(__longlong_as_double(seen) * v));\n"
     "    } while (old != seen);\n"
     "}\n"
     "\n"
     "/* One thread per source element: out[idx[i]] *= src[i]. */\n"
     "extern \"C\" __global__ void scatter_mul(double *out, const int *idx, const double *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i];\n"
     "    if (k >= 0 && k < m)\n"
     "        atomic_mul_f64(&out[k], src[i]);\n"
     "}\n",
     {{"scatter_mul", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-cas-loop"},
    {"mean-f32-inout", "scatter_reduce_mean",
     "scatter_reduce mean without self: slots that receive values become their mean, the others keep their value",
     "out:f32:inout:m;idx:i32:in:n;src:f32:in:n;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "2*n", "8*n+8*m", 1e-05, 0.0001,
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* out[k] = mean of src[i] over the i with idx[i] == k (idx[i] in [0, m));\n"
     " * slots nothing maps to keep their value.  Sums are accumulated in double. */\n"
     "void scatter_reduce_mean(float *out, const int32_t *idx, const float *src, int n, int m)\n"
     "{\n"
     "    double *sum = calloc((size_t)m, sizeof *sum);\n"
     "    int32_t *count = calloc((size_t)m, sizeof *count);\n"
     "    if (!sum || !count) {\n"
     "        free(sum);\n"
     "        free(count);\n"
     "        return;\n"
     "    }\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        sum[idx[i]] += src[i];\n"
     "        count[idx[i]]++;\n"
     "    }\n"
     "    for (int k = 0; k < m; k++)\n"
     "        if (count[k] > 0)\n"
     "            out[k] = (float)(sum[k] / count[k]);\n"
     "    free(sum);\n"
     "    free(count);\n"
     "}\n",
     ZERO_F64
     ZERO_I32
     "/* One thread per source element: sum[idx[i]] += src[i] (double) and\n"
     " * count[idx[i]] += 1. */\n"
     "extern \"C\" __global__ void scatter_sums(const int *idx, const float *src, double *sum, int *count, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    atomicAdd(&sum[idx[i]], (double)src[i]);\n"
     "    atomicAdd(&count[idx[i]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per slot: slots that received values become their mean, the\n"
     " * others keep their value. */\n"
     "extern \"C\" __global__ void scatter_reduce_mean(float *out, const double *sum, const int *count, int m)\n"
     "{\n"
     "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k < m && count[k] > 0)\n"
     "        out[k] = (float)(sum[k] / count[k]);\n"
     "}\n",
     {{"zero_f64", "(m+255)/256", "256", NULL, "sum,m"},
      {"zero_i32", "(m+255)/256", "256", NULL, "count,m"},
      {"scatter_sums", "(n+255)/256", "256", NULL, "idx,src,sum,count,n"},
      {"scatter_reduce_mean", "(m+255)/256", "256", NULL, "out,sum,count,m"}},
     "sum:f64:m;count:i32:m", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"coo-spmv-f32", "coo_spmv",
     "sparse matrix-vector product from COO triplets: y[row[e]] += val[e] * x[col[e]]",
     "row:i32:in:nnz;col:i32:in:nnz;val:f32:in:nnz;x:f32:in:ncols;y:f32:out:nrows;nnz:i32:param;nrows:i32:param;ncols:i32:param",
     "row=int:0:nrows;col=int:0:ncols",
     "",
     {"nnz=100000,nrows=5000,ncols=4000", "nnz=1,nrows=1,ncols=1", "nnz=7919,nrows=101,ncols=89", "nnz=67108864,nrows=4194304,ncols=4194304"},
     "2*nnz", "16*nnz+4*ncols+4*nrows", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* y = A x for the nrows x ncols sparse matrix A given as nnz COO triplets\n"
     " * (row[e], col[e], val[e]) in any order, duplicates adding up:\n"
     " *   y[r] = sum over e with row[e] == r of val[e] * x[col[e]].\n"
     " * Triplets with a column outside [0, ncols) are skipped; rows are\n"
     " * accumulated in double. */\n"
     "void coo_spmv(const int32_t *row, const int32_t *col, const float *val, const float *x, float *y, int nnz, int nrows,\n"
     "              int ncols)\n"
     "{\n"
     "    double *acc = calloc((size_t)nrows, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int e = 0; e < nnz; e++)\n"
     "        if (col[e] < ncols)\n"
     "            acc[row[e]] += (double)val[e] * x[col[e]];\n"
     "    for (int r = 0; r < nrows; r++)\n"
     "        y[r] = (float)acc[r];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per triplet: acc[row] += val * x[col] in double (atomically);\n"
     " * columns outside [0, ncols) are skipped. */\n"
     "extern \"C\" __global__ void coo_spmv(const int *row, const int *col, const float *val, const float *x, double *acc,\n"
     "                                    int nnz, int ncols)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= nnz || col[e] >= ncols)\n"
     "        return;\n"
     "    atomicAdd(&acc[row[e]], (double)val[e] * x[col[e]]);\n"
     "}\n",
     {{"zero_f64", "(nrows+255)/256", "256", NULL, "acc,nrows"},
      {"coo_spmv", "(nnz+255)/256", "256", NULL, "row,col,val,x,acc,nnz,ncols"},
      {"f64_to_f32", "(nrows+255)/256", "256", NULL, "acc,y,nrows"}},
     "acc:f64:nrows", "block=256;mapping=one-nonzero-per-thread-global-atomics-f64"},
    {"coo-spmv-f64-axpby", "coo_spmv_axpby",
     "y = alpha * A x + beta * y for a COO matrix (f64)",
     "row:i32:in:nnz;col:i32:in:nnz;val:f64:in:nnz;x:f64:in:ncols;y:f64:inout:nrows;@alpha;@beta;nnz:i32:param;nrows:i32:param;ncols:i32:param",
     "row=int:0:nrows;col=int:0:ncols",
     "alpha:f64:1.5;beta:f64:0.25",
     {"nnz=100000,nrows=5000,ncols=4000", "nnz=1,nrows=1,ncols=1", "nnz=7919,nrows=101,ncols=89", "nnz=33554432,nrows=2097152,ncols=2097152"},
     "2*nnz+2*nrows", "24*nnz+8*ncols+16*nrows", 1e-09, 1e-09,
     "#include <stdint.h>\n"
     "\n"
     "/* y = alpha * A x + beta * y for the sparse A given as nnz COO triplets\n"
     " * (row[e], col[e], val[e]), any order, duplicates adding up; row[e] in\n"
     " * [0, nrows) and col[e] in [0, ncols). */\n"
     "void coo_spmv_axpby(const int32_t *row, const int32_t *col, const double *val, const double *x, double *y,\n"
     "                    double alpha, double beta, int nnz, int nrows, int ncols)\n"
     "{\n"
     "    for (int r = 0; r < nrows; r++)\n"
     "        y[r] *= beta;\n"
     "    for (int e = 0; e < nnz; e++)\n"
     "        if (col[e] < ncols)\n"
     "            y[row[e]] += alpha * val[e] * x[col[e]];\n"
     "}\n",
     "/* One thread per row: y[r] *= beta. */\n"
     "extern \"C\" __global__ void scale_y(double *y, double beta, int nrows)\n"
     "{\n"
     "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (r < nrows)\n"
     "        y[r] *= beta;\n"
     "}\n"
     "\n"
     "/* One thread per triplet: y[row] += alpha * val * x[col] atomically. */\n"
     "extern \"C\" __global__ void coo_spmv_axpby(const int *row, const int *col, const double *val, const double *x,\n"
     "                                          double *y, double alpha, int nnz, int ncols)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= nnz || col[e] >= ncols)\n"
     "        return;\n"
     "    atomicAdd(&y[row[e]], alpha * val[e] * x[col[e]]);\n"
     "}\n",
     {{"scale_y", "(nrows+255)/256", "256", NULL, "y,beta,nrows"},
      {"coo_spmv_axpby", "(nnz+255)/256", "256", NULL, "row,col,val,x,y,alpha,nnz,ncols"}},
     NULL, "block=256;mapping=one-nonzero-per-thread-global-atomics"},
    {"coo-spmm-f32", "coo_spmm",
     "sparse times dense: Y[row[e], :] += val[e] * X[col[e], :] with COO triplets",
     "row:i32:in:nnz;col:i32:in:nnz;val:f32:in:nnz;X:f32:in:ncols,d;Y:f32:out:nrows,d;nnz:i32:param;nrows:i32:param;ncols:i32:param;d:i32:param",
     "row=int:0:nrows;col=int:0:ncols",
     "",
     {"nnz=20000,nrows=1000,ncols=800,d=32", "nnz=1,nrows=1,ncols=1,d=1", "nnz=997,nrows=31,ncols=29,d=7", "nnz=4194304,nrows=262144,ncols=262144,d=64"},
     "2*nnz*d", "12*nnz+4*ncols*d+4*nrows*d", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Y = A X for the sparse nrows x ncols A given as nnz COO triplets (any\n"
     " * order, duplicates adding up) and the dense ncols x d row-major X:\n"
     " *   Y[r][:] = sum over e with row[e] == r of val[e] * X[col[e]][:]. */\n"
     "void coo_spmm(const int32_t *row, const int32_t *col, const float *val, const float *X, float *Y, int nnz, int nrows,\n"
     "              int ncols, int d)\n"
     "{\n"
     "    memset(Y, 0, (size_t)nrows * d * sizeof *Y);\n"
     "    for (int e = 0; e < nnz; e++) {\n"
     "        if (col[e] >= ncols)\n"
     "            continue;\n"
     "        const float *xr = X + (size_t)col[e] * d;\n"
     "        float *yr = Y + (size_t)row[e] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            yr[j] += val[e] * xr[j];\n"
     "    }\n"
     "}\n",
     ZERO_F32
     "/* One thread per (triplet e, column j): Y[row[e]][j] += val[e] * X[col[e]][j]. */\n"
     "extern \"C\" __global__ void coo_spmm(const int *row, const int *col, const float *val, const float *X, float *Y,\n"
     "                                    int nnz, int ncols, int d)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)nnz * d)\n"
     "        return;\n"
     "    const long long e = t / d, j = t % d;\n"
     "    if (col[e] >= ncols)\n"
     "        return;\n"
     "    atomicAdd(&Y[(long long)row[e] * d + j], val[e] * X[(long long)col[e] * d + j]);\n"
     "}\n",
     {{"zero_f32", "(nrows*d+255)/256", "256", NULL, "Y,nrows*d"},
      {"coo_spmm", "(nnz*d+255)/256", "256", NULL, "row,col,val,X,Y,nnz,ncols,d"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"gcn-aggregate-f64", "gcn_aggregate",
     "GCN aggregation: messages normalised by the endpoint degrees, scatter-added to destination nodes",
     "src:i32:in:nedges;dst:i32:in:nedges;h:f64:in:nnodes,d;out:f64:out:nnodes,d;nedges:i32:param;nnodes:i32:param;d:i32:param",
     "src=int:0:nnodes;dst=int:0:nnodes",
     "",
     {"nedges=20000,nnodes=1000,d=32", "nedges=1,nnodes=1,d=1", "nedges=997,nnodes=31,d=7", "nedges=8388608,nnodes=524288,d=64"},
     "3*nedges*d", "8*nedges+16*nnodes*d", 1e-09, 1e-09,
     "#include <math.h>\n"
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Symmetrically normalised neighbour aggregation over directed edges\n"
     " * src[e] -> dst[e] (node ids in [0, nnodes)): with deg[v] = 1 + the number\n"
     " * of edges touching v as source or destination,\n"
     " *   out[dst[e]][:] += h[src[e]][:] / sqrt(deg[src[e]] * deg[dst[e]]). */\n"
     "void gcn_aggregate(const int32_t *src, const int32_t *dst, const double *h, double *out, int nedges, int nnodes,\n"
     "                   int d)\n"
     "{\n"
     "    int32_t *deg = malloc((size_t)nnodes * sizeof *deg);\n"
     "    if (!deg)\n"
     "        return;\n"
     "    for (int v = 0; v < nnodes; v++)\n"
     "        deg[v] = 1;\n"
     "    for (int e = 0; e < nedges; e++) {\n"
     "        deg[src[e]]++;\n"
     "        deg[dst[e]]++;\n"
     "    }\n"
     "    memset(out, 0, (size_t)nnodes * d * sizeof *out);\n"
     "    for (int e = 0; e < nedges; e++) {\n"
     "        double w = 1.0 / sqrt((double)deg[src[e]] * deg[dst[e]]);\n"
     "        const double *hs = h + (size_t)src[e] * d;\n"
     "        double *o = out + (size_t)dst[e] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            o[j] += w * hs[j];\n"
     "    }\n"
     "    free(deg);\n"
     "}\n",
     ZERO_F64
     "/* deg[v] = 1 (the self loop). */\n"
     "extern \"C\" __global__ void init_degree(int *deg, int nnodes)\n"
     "{\n"
     "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (v < nnodes)\n"
     "        deg[v] = 1;\n"
     "}\n"
     "\n"
     "/* One thread per edge: both endpoints gain a degree. */\n"
     "extern \"C\" __global__ void count_degree(const int *src, const int *dst, int *deg, int nedges)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= nedges)\n"
     "        return;\n"
     "    atomicAdd(&deg[src[e]], 1);\n"
     "    atomicAdd(&deg[dst[e]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per (edge e, feature j): out[dst][j] += h[src][j] /\n"
     " * sqrt(deg[src] * deg[dst]) atomically. */\n"
     "extern \"C\" __global__ void gcn_aggregate(const int *src, const int *dst, const double *h, double *out,\n"
     "                                         const int *deg, int nedges, int d)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)nedges * d)\n"
     "        return;\n"
     "    const long long e = t / d, j = t % d;\n"
     "    const int s = src[e], v = dst[e];\n"
     "    const double w = 1.0 / sqrt((double)deg[s] * deg[v]);\n"
     "    atomicAdd(&out[(long long)v * d + j], w * h[(long long)s * d + j]);\n"
     "}\n",
     {{"init_degree", "(nnodes+255)/256", "256", NULL, "deg,nnodes"},
      {"count_degree", "(nedges+255)/256", "256", NULL, "src,dst,deg,nedges"},
      {"zero_f64", "(nnodes*d+255)/256", "256", NULL, "out,nnodes*d"},
      {"gcn_aggregate", "(nedges*d+255)/256", "256", NULL, "src,dst,h,out,deg,nedges,d"}},
     "deg:i32:nnodes", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"csr-transpose-spmv-f32", "csr_transpose_spmv",
     "y = A^T x for a CSR matrix: each row scatters into the columns",
     "row_ptr:i32:in:nrows+1;col:i32:in:nnz;val:f32:in:nnz;x:f32:in:nrows;y:f32:out:ncols;nrows:i32:param;ncols:i32:param;nnz:i32:param",
     "row_ptr=partition:nnz;col=int:0:ncols",
     "",
     {"nrows=5000,ncols=4000,nnz=100000", "nrows=1,ncols=1,nnz=1", "nrows=101,ncols=89,nnz=7919", "nrows=4194304,ncols=4194304,nnz=67108864"},
     "2*nnz", "8*nnz+8*nrows+4*ncols", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* y = A^T x for the nrows x ncols CSR matrix A (row_ptr, col, val): row r\n"
     " * adds val[k] * x[r] to y[col[k]] for k in [row_ptr[r], row_ptr[r+1]).\n"
     " * Columns are accumulated in double. */\n"
     "void csr_transpose_spmv(const int32_t *row_ptr, const int32_t *col, const float *val, const float *x, float *y,\n"
     "                        int nrows, int ncols, int nnz)\n"
     "{\n"
     "    double *acc = calloc((size_t)ncols, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int r = 0; r < nrows; r++) {\n"
     "        int end = row_ptr[r + 1] < nnz ? row_ptr[r + 1] : nnz;\n"
     "        for (int k = row_ptr[r]; k < end; k++)\n"
     "            acc[col[k]] += (double)val[k] * x[r];\n"
     "    }\n"
     "    for (int c = 0; c < ncols; c++)\n"
     "        y[c] = (float)acc[c];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per row r: acc[col[k]] += val[k] * x[r] in double (atomically)\n"
     " * for the row's nonzeros. */\n"
     "extern \"C\" __global__ void csr_transpose_spmv(const int *row_ptr, const int *col, const float *val, const float *x,\n"
     "                                              double *acc, int nrows, int nnz)\n"
     "{\n"
     "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (r >= nrows)\n"
     "        return;\n"
     "    const int end = row_ptr[r + 1] < nnz ? row_ptr[r + 1] : nnz;\n"
     "    for (int k = row_ptr[r]; k < end; k++)\n"
     "        atomicAdd(&acc[col[k]], (double)val[k] * x[r]);\n"
     "}\n",
     {{"zero_f64", "(ncols+255)/256", "256", NULL, "acc,ncols"},
      {"csr_transpose_spmv", "(nrows+255)/256", "256", NULL, "row_ptr,col,val,x,acc,nrows,nnz"},
      {"f64_to_f32", "(ncols+255)/256", "256", NULL, "acc,y,ncols"}},
     "acc:f64:ncols", "block=256;mapping=one-row-per-thread-global-atomics-f64"},
    {"embedding-bag-sum-f32", "embedding_bag_sum",
     "EmbeddingBag (sum): each bag sums the table rows of its indices",
     "table:f32:in:vocab,dim;indices:i32:in:nidx;offsets:i32:in:nbags+1;out:f32:out:nbags,dim;nidx:i32:param;nbags:i32:param;dim:i32:param;vocab:i32:param",
     "indices=int:0:vocab;offsets=partition:nidx",
     "",
     {"nidx=20000,nbags=1000,dim=32,vocab=5000", "nidx=1,nbags=1,dim=1,vocab=1", "nidx=997,nbags=31,dim=7,vocab=13", "nidx=4194304,nbags=131072,dim=128,vocab=1048576"},
     "nidx*dim", "4*nidx*dim+4*nidx+4*nbags*dim", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Bag b holds indices[offsets[b] .. offsets[b+1]) (offsets non-decreasing\n"
     " * from 0 to nidx):\n"
     " *   out[b][:] = sum over those k of table[indices[k]][:]   (0 for an empty bag). */\n"
     "void embedding_bag_sum(const float *table, const int32_t *indices, const int32_t *offsets, float *out, int nidx,\n"
     "                       int nbags, int dim, int vocab)\n"
     "{\n"
     "    for (int b = 0; b < nbags; b++) {\n"
     "        float *o = out + (size_t)b * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            o[j] = 0.0f;\n"
     "        int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx;\n"
     "        for (int k = offsets[b]; k < end; k++) {\n"
     "            if (indices[k] < 0 || indices[k] >= vocab)\n"
     "                continue;\n"
     "            const float *row = table + (size_t)indices[k] * dim;\n"
     "            for (int j = 0; j < dim; j++)\n"
     "                o[j] += row[j];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* One thread per output element (b, j): the bag's table rows summed in\n"
     " * order (no atomics: each output has one writer). */\n"
     "extern \"C\" __global__ void embedding_bag_sum(const float *table, const int *indices, const int *offsets, float *out,\n"
     "                                             int nidx, int nbags, int dim, int vocab)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)nbags * dim)\n"
     "        return;\n"
     "    const long long b = t / dim, j = t % dim;\n"
     "    const int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx;\n"
     "    float sum = 0.0f;\n"
     "    for (int k = offsets[b]; k < end; k++)\n"
     "        if (indices[k] >= 0 && indices[k] < vocab)\n"
     "            sum += table[(long long)indices[k] * dim + j];\n"
     "    out[t] = sum;\n"
     "}\n",
     {{"embedding_bag_sum", "(nbags*dim+255)/256", "256", NULL, "table,indices,offsets,out,nidx,nbags,dim,vocab"}},
     NULL, "block=256;mapping=one-output-per-thread"},
    {"embedding-bag-mean-f64", "embedding_bag_mean",
     "EmbeddingBag (mean) in f64",
     "table:f64:in:vocab,dim;indices:i32:in:nidx;offsets:i32:in:nbags+1;out:f64:out:nbags,dim;nidx:i32:param;nbags:i32:param;dim:i32:param;vocab:i32:param",
     "indices=int:0:vocab;offsets=partition:nidx",
     "",
     {"nidx=20000,nbags=1000,dim=32,vocab=5000", "nidx=1,nbags=1,dim=1,vocab=1", "nidx=997,nbags=31,dim=7,vocab=13", "nidx=4194304,nbags=131072,dim=64,vocab=1048576"},
     "nidx*dim", "8*nidx*dim+4*nidx+8*nbags*dim", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Bag b holds indices[offsets[b] .. offsets[b+1]) (offsets non-decreasing\n"
     " * from 0 to nidx); indices outside [0, vocab) are skipped:\n"
     " *   out[b][:] = mean over its valid k of table[indices[k]][:]   (0 for none). */\n"
     "void embedding_bag_mean(const double *table, const int32_t *indices, const int32_t *offsets, double *out, int nidx,\n"
     "                        int nbags, int dim, int vocab)\n"
     "{\n"
     "    for (int b = 0; b < nbags; b++) {\n"
     "        double *o = out + (size_t)b * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            o[j] = 0.0;\n"
     "        int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx, count = 0;\n"
     "        for (int k = offsets[b]; k < end; k++) {\n"
     "            if (indices[k] < 0 || indices[k] >= vocab)\n"
     "                continue;\n"
     "            const double *row = table + (size_t)indices[k] * dim;\n"
     "            for (int j = 0; j < dim; j++)\n"
     "                o[j] += row[j];\n"
     "            count++;\n"
     "        }\n"
     "        if (count > 0)\n"
     "            for (int j = 0; j < dim; j++)\n"
     "                o[j] /= count;\n"
     "    }\n"
     "}\n",
     "/* One thread per output element (b, j): the mean of the bag's valid table\n"
     " * rows, 0 for none. */\n"
     "extern \"C\" __global__ void embedding_bag_mean(const double *table, const int *indices, const int *offsets,\n"
     "                                              double *out, int nidx, int nbags, int dim, int vocab)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)nbags * dim)\n"
     "        return;\n"
     "    const long long b = t / dim, j = t % dim;\n"
     "    const int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx;\n"
     "    double sum = 0.0;\n"
     "    int count = 0;\n"
     "    for (int k = offsets[b]; k < end; k++) {\n"
     "        if (indices[k] < 0 || indices[k] >= vocab)\n"
     "            continue;\n"
     "        sum += table[(long long)indices[k] * dim + j];\n"
     "        count++;\n"
     "    }\n"
     "    out[t] = count > 0 ? sum / count : 0.0;\n"
     "}\n",
     {{"embedding_bag_mean", "(nbags*dim+255)/256", "256", NULL, "table,indices,offsets,out,nidx,nbags,dim,vocab"}},
     NULL, "block=256;mapping=one-output-per-thread"},
    {"embedding-bag-weighted-f32", "embedding_bag_weighted",
     "EmbeddingBag (sum) with per-sample weights",
     "table:f32:in:vocab,dim;indices:i32:in:nidx;weights:f32:in:nidx;offsets:i32:in:nbags+1;out:f32:out:nbags,dim;nidx:i32:param;nbags:i32:param;dim:i32:param;vocab:i32:param",
     "indices=int:0:vocab;offsets=partition:nidx",
     "",
     {"nidx=20000,nbags=1000,dim=32,vocab=5000", "nidx=1,nbags=1,dim=1,vocab=1", "nidx=997,nbags=31,dim=7,vocab=13", "nidx=4194304,nbags=131072,dim=128,vocab=1048576"},
     "2*nidx*dim", "4*nidx*dim+8*nidx+4*nbags*dim", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Bag b holds indices[offsets[b] .. offsets[b+1]):\n"
     " *   out[b][:] = sum over those k of weights[k] * table[indices[k]][:]\n"
     " * (0 for an empty bag); indices outside [0, vocab) are skipped. */\n"
     "void embedding_bag_weighted(const float *table, const int32_t *indices, const float *weights, const int32_t *offsets,\n"
     "                            float *out, int nidx, int nbags, int dim, int vocab)\n"
     "{\n"
     "    for (int b = 0; b < nbags; b++) {\n"
     "        float *o = out + (size_t)b * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            o[j] = 0.0f;\n"
     "        int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx;\n"
     "        for (int k = offsets[b]; k < end; k++) {\n"
     "            if (indices[k] < 0 || indices[k] >= vocab)\n"
     "                continue;\n"
     "            const float *row = table + (size_t)indices[k] * dim;\n"
     "            for (int j = 0; j < dim; j++)\n"
     "                o[j] += weights[k] * row[j];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* One thread per output element (b, j): the weighted sum of the bag's table\n"
     " * rows. */\n"
     "extern \"C\" __global__ void embedding_bag_weighted(const float *table, const int *indices, const float *weights,\n"
     "                                                  const int *offsets, float *out, int nidx, int nbags, int dim,\n"
     "                                                  int vocab)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)nbags * dim)\n"
     "        return;\n"
     "    const long long b = t / dim, j = t % dim;\n"
     "    const int end = offsets[b + 1] < nidx ? offsets[b + 1] : nidx;\n"
     "    float sum = 0.0f;\n"
     "    for (int k = offsets[b]; k < end; k++)\n"
     "        if (indices[k] >= 0 && indices[k] < vocab)\n"
     "            sum += weights[k] * table[(long long)indices[k] * dim + j];\n"
     "    out[t] = sum;\n"
     "}\n",
     {{"embedding_bag_weighted", "(nbags*dim+255)/256", "256", NULL, "table,indices,weights,offsets,out,nidx,nbags,dim,vocab"}},
     NULL, "block=256;mapping=one-output-per-thread"},
    {"gather-scatter-f32", "gather_scatter_add",
     "gather-then-accumulate: out[dst[i]] += table[src[i]]",
     "table:f32:in:ntab;src:i32:in:n;dst:i32:in:n;out:f32:out:m;n:i32:param;ntab:i32:param;m:i32:param",
     "src=int:0:ntab;dst=int:0:m",
     "",
     {"n=100000,ntab=20000,m=10000", "n=1,ntab=1,m=1", "n=7919,ntab=211,m=101", "n=67108864,ntab=16777216,m=4194304"},
     "n", "12*n+4*ntab+4*m", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[k] = sum of table[src[i]] over the i with dst[i] == k: a gather from\n"
     " * table (src[i] in [0, ntab)) followed by a scatter-add (dst[i] in [0, m)). */\n"
     "void gather_scatter_add(const float *table, const int32_t *src, const int32_t *dst, float *out, int n, int ntab,\n"
     "                        int m)\n"
     "{\n"
     "    memset(out, 0, (size_t)m * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (src[i] < ntab)\n"
     "            out[dst[i]] += table[src[i]];\n"
     "}\n",
     ZERO_F32
     "/* One thread per pair: out[dst[i]] += table[src[i]] atomically. */\n"
     "extern \"C\" __global__ void gather_scatter_add(const float *table, const int *src, const int *dst, float *out, int n,\n"
     "                                              int ntab)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n && src[i] < ntab)\n"
     "        atomicAdd(&out[dst[i]], table[src[i]]);\n"
     "}\n",
     {{"zero_f32", "(m+255)/256", "256", NULL, "out,m"},
      {"gather_scatter_add", "(n+255)/256", "256", NULL, "table,src,dst,out,n,ntab"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"scatter-dim1-f32", "scatter_add_dim1",
     "torch.scatter_add_ along dim 1 of a matrix: out[i][idx[i][j]] += src[i][j]",
     "out:f32:inout:r,m;idx:i32:in:r,n;src:f32:in:r,n;r:i32:param;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"r=64,n=2000,m=500", "r=1,n=1,m=1", "r=13,n=97,m=7", "r=4096,n=16384,m=4096"},
     "r*n", "8*r*n+8*r*m", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* For each row i: out[i][idx[i][j]] += src[i][j] for j < n, with idx[i][j]\n"
     " * in [0, m) (out is r x m, idx and src are r x n, all row-major). */\n"
     "void scatter_add_dim1(float *out, const int32_t *idx, const float *src, int r, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        float *orow = out + (size_t)i * m;\n"
     "        const int32_t *irow = idx + (size_t)i * n;\n"
     "        const float *srow = src + (size_t)i * n;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            orow[irow[j]] += srow[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (i, j) of src: out[i][idx[i][j]] += src[i][j]. */\n"
     "extern \"C\" __global__ void scatter_add_dim1(float *out, const int *idx, const float *src, int r, int n, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * n)\n"
     "        return;\n"
     "    const long long i = e / n;\n"
     "    atomicAdd(&out[i * m + idx[e]], src[e]);\n"
     "}\n",
     {{"scatter_add_dim1", "(r*n+255)/256", "256", NULL, "out,idx,src,r,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"scatter-dim0-f64", "scatter_add_dim0",
     "torch.scatter_add_ along dim 0: out[idx[i][j]][j] += src[i][j]",
     "out:f64:inout:m,c;idx:i32:in:r,c;src:f64:in:r,c;r:i32:param;c:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"r=2000,c=64,m=500", "r=1,c=1,m=1", "r=97,c=13,m=7", "r=8192,c=4096,m=2048"},
     "r*c", "12*r*c+16*m*c", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* out[idx[i][j]][j] += src[i][j] for every i < r and j < c: each column of\n"
     " * src is scattered into the same column of out (m x c); indices of m or\n"
     " * more are skipped. */\n"
     "void scatter_add_dim0(double *out, const int32_t *idx, const double *src, int r, int c, int m)\n"
     "{\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const int32_t *irow = idx + (size_t)i * c;\n"
     "        const double *srow = src + (size_t)i * c;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            if (irow[j] < m)\n"
     "                out[(size_t)irow[j] * c + j] += srow[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per element (i, j) of src: out[idx[i][j]][j] += src[i][j];\n"
     " * indices of m or more are skipped. */\n"
     "extern \"C\" __global__ void scatter_add_dim0(double *out, const int *idx, const double *src, int r, int c, int m)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long j = e % c;\n"
     "    if (idx[e] < m)\n"
     "        atomicAdd(&out[(long long)idx[e] * c + j], src[e]);\n"
     "}\n",
     {{"scatter_add_dim0", "(r*c+255)/256", "256", NULL, "out,idx,src,r,c,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"cic-deposit-1d-f32", "cic_deposit_1d",
     "cloud-in-cell deposit of particle charges onto a 1D grid",
     "pos:f32:in:n;q:f32:in:n;grid:f32:out:m;n:i32:param;m:i32:param",
     "pos=uniform:-0.01:1;q=uniform:0:1",
     "",
     {"n=100000,m=1000", "n=1,m=2", "n=7919,m=101", "n=67108864,m=1048576"},
     "6*n", "8*n+4*m", 0.001, 0.001,
     "#include <stdlib.h>\n"
     "\n"
     "/* Cloud-in-cell deposit on m grid points spanning [0, 1]: particle p at\n"
     " * pos[p] sits at u = pos[p] * (m - 1) in grid units (in float); with cell\n"
     " * c = (int)u and fraction f = u - c it adds q[p] * (1 - f) to grid[c] and\n"
     " * q[p] * f to grid[c + 1].  Particles with u outside [0, m - 1) are dropped.\n"
     " * The grid is accumulated in double. */\n"
     "void cic_deposit_1d(const float *pos, const float *q, float *grid, int n, int m)\n"
     "{\n"
     "    double *acc = calloc((size_t)m, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int p = 0; p < n; p++) {\n"
     "        float u = pos[p] * (m - 1);\n"
     "        if (u < 0.0f || u >= (float)(m - 1))\n"
     "            continue;\n"
     "        int c = (int)u;\n"
     "        double f = u - c;\n"
     "        acc[c] += q[p] * (1.0 - f);\n"
     "        acc[c + 1] += q[p] * f;\n"
     "    }\n"
     "    for (int c = 0; c < m; c++)\n"
     "        grid[c] = (float)acc[c];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per particle: u = pos * (m - 1) in float, cell c = (int)u and\n"
     " * fraction f = u - c; q (1 - f) goes to acc[c] and q f to acc[c + 1]. */\n"
     "extern \"C\" __global__ void cic_deposit_1d(const float *pos, const float *q, double *acc, int n, int m)\n"
     "{\n"
     "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (p >= n)\n"
     "        return;\n"
     "    const float u = pos[p] * (m - 1);\n"
     "    if (u < 0.0f || u >= (float)(m - 1))\n"
     "        return;\n"
     "    const int c = (int)u;\n"
     "    const double f = u - c;\n"
     "    atomicAdd(&acc[c], q[p] * (1.0 - f));\n"
     "    atomicAdd(&acc[c + 1], q[p] * f);\n"
     "}\n",
     {{"zero_f64", "(m+255)/256", "256", NULL, "acc,m"},
      {"cic_deposit_1d", "(n+255)/256", "256", NULL, "pos,q,acc,n,m"},
      {"f64_to_f32", "(m+255)/256", "256", NULL, "acc,grid,m"}},
     "acc:f64:m", "block=256;mapping=one-particle-per-thread-global-atomics-f64"},
    {"ngp-deposit-2d-f64", "ngp_deposit_2d",
     "nearest-grid-point mass deposit of 2D particles onto an ny x nx grid",
     "x:f64:in:n;y:f64:in:n;mass:f64:in:n;grid:f64:out:ny,nx;n:i32:param;nx:i32:param;ny:i32:param",
     "x=uniform:0:1;y=uniform:-0.05:1.05;mass=uniform:0.5:2",
     "",
     {"n=100000,nx=128,ny=96", "n=1,nx=1,ny=1", "n=7919,nx=13,ny=11", "n=33554432,nx=2048,ny=2048"},
     "4*n", "24*n+8*nx*ny", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Nearest-grid-point deposit on the unit square: a particle at (x, y) adds\n"
     " * its mass to cell ((int)(y * ny), (int)(x * nx)) of the ny x nx grid;\n"
     " * particles outside [0, 1) x [0, 1) are dropped. */\n"
     "void ngp_deposit_2d(const double *x, const double *y, const double *mass, double *grid, int n, int nx, int ny)\n"
     "{\n"
     "    memset(grid, 0, (size_t)nx * ny * sizeof *grid);\n"
     "    for (int p = 0; p < n; p++) {\n"
     "        if (x[p] < 0.0 || x[p] >= 1.0 || y[p] < 0.0 || y[p] >= 1.0)\n"
     "            continue;\n"
     "        int i = (int)(y[p] * ny), j = (int)(x[p] * nx);\n"
     "        if (i > ny - 1)\n"
     "            i = ny - 1;\n"
     "        if (j > nx - 1)\n"
     "            j = nx - 1;\n"
     "        grid[(size_t)i * nx + j] += mass[p];\n"
     "    }\n"
     "}\n",
     ZERO_F64
     "/* One thread per particle: its mass goes to the cell ((int)(y ny), (int)(x nx)). */\n"
     "extern \"C\" __global__ void ngp_deposit_2d(const double *x, const double *y, const double *mass, double *grid, int n,\n"
     "                                          int nx, int ny)\n"
     "{\n"
     "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (p >= n)\n"
     "        return;\n"
     "    if (x[p] < 0.0 || x[p] >= 1.0 || y[p] < 0.0 || y[p] >= 1.0)\n"
     "        return;\n"
     "    int i = (int)(y[p] * ny), j = (int)(x[p] * nx);\n"
     "    if (i > ny - 1)\n"
     "        i = ny - 1;\n"
     "    if (j > nx - 1)\n"
     "        j = nx - 1;\n"
     "    atomicAdd(&grid[(long long)i * nx + j], mass[p]);\n"
     "}\n",
     {{"zero_f64", "(nx*ny+255)/256", "256", NULL, "grid,nx*ny"},
      {"ngp_deposit_2d", "(n+255)/256", "256", NULL, "x,y,mass,grid,n,nx,ny"}},
     NULL, "block=256;mapping=one-particle-per-thread-global-atomics"},
    {"cic-deposit-2d-f32", "cic_deposit_2d",
     "bilinear (cloud-in-cell) deposit of 2D particles onto a grid",
     "x:f32:in:n;y:f32:in:n;q:f32:in:n;grid:f32:out:ny,nx;n:i32:param;nx:i32:param;ny:i32:param",
     "x=uniform:0:1;y=uniform:0:1.02;q=uniform:0:1",
     "",
     {"n=100000,nx=64,ny=64", "n=1,nx=2,ny=2", "n=7919,nx=13,ny=11", "n=33554432,nx=2048,ny=2048"},
     "20*n", "12*n+4*nx*ny", 0.001, 0.001,
     "#include <stddef.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* Cloud-in-cell deposit on an ny x nx grid spanning the unit square: a\n"
     " * particle at (x, y) sits at (u, v) = (x * (nx - 1), y * (ny - 1)) in grid\n"
     " * units (in float); when 0 <= u < nx - 1 and 0 <= v < ny - 1, with cell\n"
     " * (i, j) = ((int)v, (int)u) and fractions fy = v - i, fx = u - j, it spreads\n"
     " * q bilinearly over the cells (i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1).\n"
     " * Other particles are dropped.  The grid is accumulated in double. */\n"
     "void cic_deposit_2d(const float *x, const float *y, const float *q, float *grid, int n, int nx, int ny)\n"
     "{\n"
     "    size_t cells = (size_t)nx * ny;\n"
     "    double *acc = calloc(cells, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int p = 0; p < n; p++) {\n"
     "        float u = x[p] * (nx - 1), v = y[p] * (ny - 1);\n"
     "        if (u < 0.0f || u >= (float)(nx - 1) || v < 0.0f || v >= (float)(ny - 1))\n"
     "            continue;\n"
     "        int i = (int)v, j = (int)u;\n"
     "        double fy = v - i, fx = u - j;\n"
     "        double *c = acc + (size_t)i * nx + j;\n"
     "        c[0] += q[p] * (1 - fy) * (1 - fx);\n"
     "        c[1] += q[p] * (1 - fy) * fx;\n"
     "        c[nx] += q[p] * fy * (1 - fx);\n"
     "        c[nx + 1] += q[p] * fy * fx;\n"
     "    }\n"
     "    for (size_t k = 0; k < cells; k++)\n"
     "        grid[k] = (float)acc[k];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per particle: (u, v) = (x (nx - 1), y (ny - 1)) in float, and q\n"
     " * spread bilinearly over the four corners of its cell, in double. */\n"
     "extern \"C\" __global__ void cic_deposit_2d(const float *x, const float *y, const float *q, double *acc, int n, int nx,\n"
     "                                          int ny)\n"
     "{\n"
     "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (p >= n)\n"
     "        return;\n"
     "    const float u = x[p] * (nx - 1), v = y[p] * (ny - 1);\n"
     "    if (u < 0.0f || u >= (float)(nx - 1) || v < 0.0f || v >= (float)(ny - 1))\n"
     "        return;\n"
     "    const int i = (int)v, j = (int)u;\n"
     "    const double fy = v - i, fx = u - j;\n"
     "    double *c = acc + (long long)i * nx + j;\n"
     "    atomicAdd(&c[0], q[p] * (1 - fy) * (1 - fx));\n"
     "    atomicAdd(&c[1], q[p] * (1 - fy) * fx);\n"
     "    atomicAdd(&c[nx], q[p] * fy * (1 - fx));\n"
     "    atomicAdd(&c[nx + 1], q[p] * fy * fx);\n"
     "}\n",
     {{"zero_f64", "(nx*ny+255)/256", "256", NULL, "acc,nx*ny"},
      {"cic_deposit_2d", "(n+255)/256", "256", NULL, "x,y,q,acc,n,nx,ny"},
      {"f64_to_f32", "(nx*ny+255)/256", "256", NULL, "acc,grid,nx*ny"}},
     "acc:f64:nx*ny", "block=256;mapping=one-particle-per-thread-global-atomics-f64"},
    {"sparse-sgd-f32", "sparse_sgd_update",
     "sparse SGD step on embedding rows: table[idx[i], :] -= lr * grad[i, :]",
     "table:f32:inout:vocab,dim;idx:i32:in:n;grad:f32:in:n,dim;@lr;n:i32:param;dim:i32:param;vocab:i32:param",
     "idx=int:0:vocab",
     "lr:f32:0.1",
     {"n=2000,dim=64,vocab=500", "n=1,dim=1,vocab=1", "n=97,dim=13,vocab=7", "n=1048576,dim=128,vocab=65536"},
     "2*n*dim", "8*n*dim+4*n+8*vocab*dim", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* Sparse SGD: table[idx[i]][:] -= lr * grad[i][:] for each of the n\n"
     " * gradient rows; repeated indices apply all their updates.  idx[i] in\n"
     " * [0, vocab). */\n"
     "void sparse_sgd_update(float *table, const int32_t *idx, const float *grad, float lr, int n, int dim, int vocab)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (idx[i] < 0 || idx[i] >= vocab)\n"
     "            continue;\n"
     "        float *row = table + (size_t)idx[i] * dim;\n"
     "        const float *g = grad + (size_t)i * dim;\n"
     "        for (int j = 0; j < dim; j++)\n"
     "            row[j] -= lr * g[j];\n"
     "    }\n"
     "}\n",
     "/* One thread per gradient element (i, j): table[idx[i]][j] -= lr * grad[i][j]\n"
     " * atomically. */\n"
     "extern \"C\" __global__ void sparse_sgd_update(float *table, const int *idx, const float *grad, float lr, int n,\n"
     "                                             int dim, int vocab)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * dim)\n"
     "        return;\n"
     "    const long long i = e / dim, j = e % dim;\n"
     "    const int v = idx[i];\n"
     "    if (v >= 0 && v < vocab)\n"
     "        atomicAdd(&table[(long long)v * dim + j], -(lr * grad[e]));\n"
     "}\n",
     {{"sparse_sgd_update", "(n*dim+255)/256", "256", NULL, "table,idx,grad,lr,n,dim,vocab"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-f32-idx64", "scatter_add_i64_index",
     "scatter-add with 64-bit indices",
     "src:f32:in:n;idx:i64:in:n;out:f32:out:m;n:i32:param;m:i32:param",
     "idx=int:0:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "n", "12*n+4*m", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[k] = sum of src[i] over the i with idx[i] == k (64-bit indices in\n"
     " * [0, m)). */\n"
     "void scatter_add_i64_index(const float *src, const int64_t *idx, float *out, int n, int m)\n"
     "{\n"
     "    memset(out, 0, (size_t)m * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[idx[i]] += src[i];\n"
     "}\n",
     ZERO_F32
     "/* One thread per source element: out[idx[i]] += src[i] (64-bit indices). */\n"
     "extern \"C\" __global__ void scatter_add_i64_index(const float *src, const long long *idx, float *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&out[idx[i]], src[i]);\n"
     "}\n",
     {{"zero_f32", "(m+255)/256", "256", NULL, "out,m"},
      {"scatter_add_i64_index", "(n+255)/256", "256", NULL, "src,idx,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"add-f64-negative-index", "scatter_add_wrap",
     "scatter-add with Python-style negative indices (-1 is the last slot)",
     "out:f64:inout:m;idx:i32:in:n;src:f64:in:n;n:i32:param;m:i32:param",
     "idx=int:-m:m",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=33554432,m=2097152"},
     "n", "12*n+16*m", 1e-09, 1e-09,
     "#include <stdint.h>\n"
     "\n"
     "/* out[k] += src[i] where k = idx[i] for idx[i] >= 0 and k = m + idx[i] for\n"
     " * negative idx[i], as Python indexes; idx[i] lies in [-m, m). */\n"
     "void scatter_add_wrap(double *out, const int32_t *idx, const double *src, int n, int m)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k = idx[i] < 0 ? m + idx[i] : idx[i];\n"
     "        out[k] += src[i];\n"
     "    }\n"
     "}\n",
     "/* One thread per source element: negative indices count from the end. */\n"
     "extern \"C\" __global__ void scatter_add_wrap(double *out, const int *idx, const double *src, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int k = idx[i] < 0 ? m + idx[i] : idx[i];\n"
     "    atomicAdd(&out[k], src[i]);\n"
     "}\n",
     {{"scatter_add_wrap", "(n+255)/256", "256", NULL, "out,idx,src,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"kmeans-update-f32", "kmeans_update",
     "k-means update step: per-cluster sums and counts, then centroids",
     "x:f32:in:n,d;label:i32:in:n;centroids:f32:out:k,d;counts:i32:out:k;n:i32:param;d:i32:param;k:i32:param",
     "label=int:0:k",
     "",
     {"n=20000,d=16,k=50", "n=1,d=1,k=1", "n=997,d=7,k=13", "n=4194304,d=32,k=1024"},
     "n*d+k*d", "4*n*d+4*n+4*k*d+4*k", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* k-means centroid update: counts[c] = number of points with label c, and\n"
     " * centroids[c][:] = mean of those points x[i][:] (0 for an empty cluster).\n"
     " * label[i] in [0, k); sums are accumulated in double. */\n"
     "void kmeans_update(const float *x, const int32_t *label, float *centroids, int32_t *counts, int n, int d, int k)\n"
     "{\n"
     "    double *sum = calloc((size_t)k * d, sizeof *sum);\n"
     "    if (!sum)\n"
     "        return;\n"
     "    for (int c = 0; c < k; c++)\n"
     "        counts[c] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int c = label[i];\n"
     "        const float *xi = x + (size_t)i * d;\n"
     "        double *s = sum + (size_t)c * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            s[j] += xi[j];\n"
     "        counts[c]++;\n"
     "    }\n"
     "    for (int c = 0; c < k; c++)\n"
     "        for (int j = 0; j < d; j++)\n"
     "            centroids[(size_t)c * d + j] = counts[c] > 0 ? (float)(sum[(size_t)c * d + j] / counts[c]) : 0.0f;\n"
     "    free(sum);\n"
     "}\n",
     ZERO_F64
     ZERO_I32
     "/* One thread per element (i, j) of x: sum[label[i]][j] += x[i][j] in double;\n"
     " * the thread of column 0 also counts the point. */\n"
     "extern \"C\" __global__ void cluster_sums(const float *x, const int *label, double *sum, int *counts, int n, int d)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d, j = e % d;\n"
     "    const int c = label[i];\n"
     "    atomicAdd(&sum[(long long)c * d + j], (double)x[e]);\n"
     "    if (j == 0)\n"
     "        atomicAdd(&counts[c], 1);\n"
     "}\n"
     "\n"
     "/* One thread per centroid element: the mean, 0 for an empty cluster. */\n"
     "extern \"C\" __global__ void kmeans_update(const double *sum, const int *counts, float *centroids, int d, int k)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)k * d)\n"
     "        return;\n"
     "    const long long c = t / d;\n"
     "    centroids[t] = counts[c] > 0 ? (float)(sum[t] / counts[c]) : 0.0f;\n"
     "}\n",
     {{"zero_f64", "(k*d+255)/256", "256", NULL, "sum,k*d"},
      {"zero_i32", "(k+255)/256", "256", NULL, "counts,k"},
      {"cluster_sums", "(n*d+255)/256", "256", NULL, "x,label,sum,counts,n,d"},
      {"kmeans_update", "(k*d+255)/256", "256", NULL, "sum,counts,centroids,d,k"}},
     "sum:f64:k*d", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"kmeans-update-f64-keep", "kmeans_update_keep_empty",
     "k-means update (f64) where empty clusters keep their old centroid",
     "x:f64:in:n,d;label:i32:in:n;centroids:f64:inout:k,d;n:i32:param;d:i32:param;k:i32:param",
     "label=int:0:k",
     "",
     {"n=20000,d=16,k=50", "n=1,d=1,k=2", "n=997,d=7,k=13", "n=2097152,d=32,k=1024"},
     "n*d+k*d", "8*n*d+4*n+16*k*d", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* k-means centroid update in place: centroids[c][:] becomes the mean of the\n"
     " * points x[i][:] with label[i] == c; a cluster without points keeps its\n"
     " * centroid.  label[i] in [0, k). */\n"
     "void kmeans_update_keep_empty(const double *x, const int32_t *label, double *centroids, int n, int d, int k)\n"
     "{\n"
     "    double *sum = calloc((size_t)k * d, sizeof *sum);\n"
     "    int32_t *count = calloc((size_t)k, sizeof *count);\n"
     "    if (!sum || !count) {\n"
     "        free(sum);\n"
     "        free(count);\n"
     "        return;\n"
     "    }\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const double *xi = x + (size_t)i * d;\n"
     "        double *s = sum + (size_t)label[i] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            s[j] += xi[j];\n"
     "        count[label[i]]++;\n"
     "    }\n"
     "    for (int c = 0; c < k; c++) {\n"
     "        if (count[c] == 0)\n"
     "            continue;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            centroids[(size_t)c * d + j] = sum[(size_t)c * d + j] / count[c];\n"
     "    }\n"
     "    free(sum);\n"
     "    free(count);\n"
     "}\n",
     ZERO_F64
     ZERO_I32
     "/* One thread per element (i, j) of x: sum[label[i]][j] += x[i][j]; the\n"
     " * thread of column 0 also counts the point. */\n"
     "extern \"C\" __global__ void cluster_sums(const double *x, const int *label, double *sum, int *count, int n, int d)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d, j = e % d;\n"
     "    const int c = label[i];\n"
     "    atomicAdd(&sum[(long long)c * d + j], x[e]);\n"
     "    if (j == 0)\n"
     "        atomicAdd(&count[c], 1);\n"
     "}\n"
     "\n"
     "/* One thread per centroid element: the mean; an empty cluster keeps its\n"
     " * centroid. */\n"
     "extern \"C\" __global__ void kmeans_update_keep_empty(const double *sum, const int *count, double *centroids, int d,\n"
     "                                                    int k)\n"
     "{\n"
     "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (t >= (long long)k * d)\n"
     "        return;\n"
     "    const long long c = t / d;\n"
     "    if (count[c] > 0)\n"
     "        centroids[t] = sum[t] / count[c];\n"
     "}\n",
     {{"zero_f64", "(k*d+255)/256", "256", NULL, "sum,k*d"},
      {"zero_i32", "(k+255)/256", "256", NULL, "count,k"},
      {"cluster_sums", "(n*d+255)/256", "256", NULL, "x,label,sum,count,n,d"},
      {"kmeans_update_keep_empty", "(k*d+255)/256", "256", NULL, "sum,count,centroids,d,k"}},
     "sum:f64:k*d;count:i32:k", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"masked-add-f32", "masked_scatter_add",
     "scatter-add of the elements selected by a mask",
     "src:f32:in:n;idx:i32:in:n;mask:u8:in:n;out:f32:out:m;n:i32:param;m:i32:param",
     "idx=int:0:m;mask=int:0:2",
     "",
     {"n=100000,m=10000", "n=1,m=1", "n=7919,m=101", "n=67108864,m=4194304"},
     "n", "9*n+4*m", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* out[k] = sum of src[i] over the i with mask[i] != 0 and idx[i] == k,\n"
     " * idx[i] in [0, m). */\n"
     "void masked_scatter_add(const float *src, const int32_t *idx, const uint8_t *mask, float *out, int n, int m)\n"
     "{\n"
     "    memset(out, 0, (size_t)m * sizeof *out);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (mask[i])\n"
     "            out[idx[i]] += src[i];\n"
     "}\n",
     ZERO_F32
     "/* One thread per source element: selected elements add to out[idx[i]]. */\n"
     "extern \"C\" __global__ void masked_scatter_add(const float *src, const int *idx, const unsigned char *mask, float *out,\n"
     "                                              int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n && mask[i])\n"
     "        atomicAdd(&out[idx[i]], src[i]);\n"
     "}\n",
     {{"zero_f32", "(m+255)/256", "256", NULL, "out,m"},
      {"masked_scatter_add", "(n+255)/256", "256", NULL, "src,idx,mask,out,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-softmax-f32", "segment_softmax",
     "softmax within segments (graph attention): scatter-max, scatter-add of exponentials, normalise",
     "x:f32:in:n;seg:i32:in:n;y:f32:out:n;n:i32:param;nseg:i32:param",
     "x=uniform:-3:3;seg=int:0:nseg",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=67108864,nseg=1048576"},
     "5*n", "12*n", 1e-05, 0.0001,
     "#include <math.h>\n"
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* Softmax over the elements of each segment (seg[i] in [0, nseg), any\n"
     " * order), as in graph attention over incoming edges:\n"
     " *   y[i] = exp(x[i] - max_s) / sum over j in segment s of exp(x[j] - max_s),\n"
     " * s = seg[i], max_s the segment's maximum.  Denominators are summed in double. */\n"
     "void segment_softmax(const float *x, const int32_t *seg, float *y, int n, int nseg)\n"
     "{\n"
     "    float *mx = malloc((size_t)nseg * sizeof *mx);\n"
     "    double *den = calloc((size_t)nseg, sizeof *den);\n"
     "    if (!mx || !den) {\n"
     "        free(mx);\n"
     "        free(den);\n"
     "        return;\n"
     "    }\n"
     "    for (int s = 0; s < nseg; s++)\n"
     "        mx[s] = -INFINITY;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (x[i] > mx[seg[i]])\n"
     "            mx[seg[i]] = x[i];\n"
     "    for (int i = 0; i < n; i++)\n"
     "        den[seg[i]] += exp((double)x[i] - mx[seg[i]]);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        y[i] = (float)(exp((double)x[i] - mx[seg[i]]) / den[seg[i]]);\n"
     "    free(mx);\n"
     "    free(den);\n"
     "}\n",
     ATOMIC_MAX_F32
     "/* mx[s] = -infinity, den[s] = 0. */\n"
     "extern \"C\" __global__ void init_segments(float *mx, double *den, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s >= nseg)\n"
     "        return;\n"
     "    mx[s] = __uint_as_float(0xff800000u);\n"
     "    den[s] = 0.0;\n"
     "}\n"
     "\n"
     "/* One thread per element: mx[seg[i]] = max(mx[seg[i]], x[i]). */\n"
     "extern \"C\" __global__ void segment_max(const float *x, const int *seg, float *mx, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomic_max_f32(&mx[seg[i]], x[i]);\n"
     "}\n"
     "\n"
     "/* One thread per element: den[s] += exp(x[i] - mx[s]) in double. */\n"
     "extern \"C\" __global__ void segment_denominators(const float *x, const int *seg, const float *mx, double *den, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&den[seg[i]], exp((double)x[i] - mx[seg[i]]));\n"
     "}\n"
     "\n"
     "/* One thread per element: y[i] = exp(x[i] - mx[s]) / den[s]. */\n"
     "extern \"C\" __global__ void segment_softmax(const float *x, const int *seg, const float *mx, const double *den,\n"
     "                                           float *y, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        y[i] = (float)(exp((double)x[i] - mx[seg[i]]) / den[seg[i]]);\n"
     "}\n",
     {{"init_segments", "(nseg+255)/256", "256", NULL, "mx,den,nseg"},
      {"segment_max", "(n+255)/256", "256", NULL, "x,seg,mx,n"},
      {"segment_denominators", "(n+255)/256", "256", NULL, "x,seg,mx,den,n"},
      {"segment_softmax", "(n+255)/256", "256", NULL, "x,seg,mx,den,y,n"}},
     "mx:f32:nseg;den:f64:nseg", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"segment-logsumexp-f64", "segment_logsumexp",
     "log-sum-exp per segment over unsorted ids; empty segments give 0",
     "x:f64:in:n;seg:i32:in:n;out:f64:out:nseg;n:i32:param;nseg:i32:param",
     "x=uniform:-5:5;seg=int:0:nseg",
     "",
     {"n=100000,nseg=5000", "n=1,nseg=1", "n=7919,nseg=101", "n=33554432,nseg=1048576"},
     "4*n", "12*n+8*nseg", 1e-09, 1e-09,
     "#include <math.h>\n"
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* out[s] = log(sum of exp(x[i]) over the i with seg[i] == s), computed as\n"
     " * max_s + log(sum exp(x[i] - max_s)); 0 for an empty segment. */\n"
     "void segment_logsumexp(const double *x, const int32_t *seg, double *out, int n, int nseg)\n"
     "{\n"
     "    double *mx = malloc((size_t)nseg * sizeof *mx);\n"
     "    if (!mx)\n"
     "        return;\n"
     "    for (int s = 0; s < nseg; s++) {\n"
     "        mx[s] = -INFINITY;\n"
     "        out[s] = 0.0;\n"
     "    }\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (x[i] > mx[seg[i]])\n"
     "            mx[seg[i]] = x[i];\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[seg[i]] += exp(x[i] - mx[seg[i]]);\n"
     "    for (int s = 0; s < nseg; s++)\n"
     "        out[s] = mx[s] == -INFINITY ? 0.0 : mx[s] + log(out[s]);\n"
     "    free(mx);\n"
     "}\n",
     ATOMIC_MAX_F64
     "#define NEG_INF_BITS 0xfff0000000000000ULL\n"
     "\n"
     "/* mx[s] = -infinity, out[s] = 0. */\n"
     "extern \"C\" __global__ void init_segments(double *mx, double *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s >= nseg)\n"
     "        return;\n"
     "    mx[s] = __longlong_as_double((long long)NEG_INF_BITS);\n"
     "    out[s] = 0.0;\n"
     "}\n"
     "\n"
     "/* One thread per element: mx[seg[i]] = max(mx[seg[i]], x[i]). */\n"
     "extern \"C\" __global__ void segment_max(const double *x, const int *seg, double *mx, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomic_max_f64(&mx[seg[i]], x[i]);\n"
     "}\n"
     "\n"
     "/* One thread per element: out[s] += exp(x[i] - mx[s]) atomically. */\n"
     "extern \"C\" __global__ void segment_exp_sums(const double *x, const int *seg, const double *mx, double *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&out[seg[i]], exp(x[i] - mx[seg[i]]));\n"
     "}\n"
     "\n"
     "/* One thread per segment: out[s] = mx[s] + log(out[s]), 0 for an empty one. */\n"
     "extern \"C\" __global__ void segment_logsumexp(const double *mx, double *out, int nseg)\n"
     "{\n"
     "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (s >= nseg)\n"
     "        return;\n"
     "    out[s] = (unsigned long long)__double_as_longlong(mx[s]) == NEG_INF_BITS ? 0.0 : mx[s] + log(out[s]);\n"
     "}\n",
     {{"init_segments", "(nseg+255)/256", "256", NULL, "mx,out,nseg"},
      {"segment_max", "(n+255)/256", "256", NULL, "x,seg,mx,n"},
      {"segment_exp_sums", "(n+255)/256", "256", NULL, "x,seg,mx,out,n"},
      {"segment_logsumexp", "(nseg+255)/256", "256", NULL, "mx,out,nseg"}},
     "mx:f64:nseg", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"weighted-degree-f64", "weighted_degree",
     "weighted degree of each node of an undirected edge list",
     "src:i32:in:nedges;dst:i32:in:nedges;w:f64:in:nedges;deg:f64:out:nnodes;nedges:i32:param;nnodes:i32:param",
     "src=int:0:nnodes;dst=int:0:nnodes;w=uniform:0:1",
     "",
     {"nedges=100000,nnodes=10000", "nedges=1,nnodes=1", "nedges=7919,nnodes=101", "nedges=33554432,nnodes=4194304"},
     "2*nedges", "16*nedges+8*nnodes", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* deg[v] = sum of w[e] over the undirected edges e = {src[e], dst[e]} touching\n"
     " * v (a self-loop counts twice); node ids in [0, nnodes). */\n"
     "void weighted_degree(const int32_t *src, const int32_t *dst, const double *w, double *deg, int nedges, int nnodes)\n"
     "{\n"
     "    memset(deg, 0, (size_t)nnodes * sizeof *deg);\n"
     "    for (int e = 0; e < nedges; e++) {\n"
     "        deg[src[e]] += w[e];\n"
     "        deg[dst[e]] += w[e];\n"
     "    }\n"
     "}\n",
     ZERO_F64
     "/* One thread per edge: both endpoints gain its weight. */\n"
     "extern \"C\" __global__ void weighted_degree(const int *src, const int *dst, const double *w, double *deg, int nedges)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= nedges)\n"
     "        return;\n"
     "    atomicAdd(&deg[src[e]], w[e]);\n"
     "    atomicAdd(&deg[dst[e]], w[e]);\n"
     "}\n",
     {{"zero_f64", "(nnodes+255)/256", "256", NULL, "deg,nnodes"},
      {"weighted_degree", "(nedges+255)/256", "256", NULL, "src,dst,w,deg,nedges"}},
     NULL, "block=256;mapping=one-edge-per-thread-global-atomics"},
    {"in-degree-i32", "in_degree",
     "in-degree count of each node of a directed edge list",
     "dst:i32:in:nedges;deg:i32:out:nnodes;nedges:i32:param;nnodes:i32:param",
     "dst=int:0:nnodes",
     "",
     {"nedges=100000,nnodes=10000", "nedges=1,nnodes=1", "nedges=7919,nnodes=101", "nedges=33554432,nnodes=4194304"},
     "nedges", "4*nedges+4*nnodes", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* deg[v] = number of edges whose destination dst[e] is v, v in [0, nnodes). */\n"
     "void in_degree(const int32_t *dst, int32_t *deg, int nedges, int nnodes)\n"
     "{\n"
     "    for (int v = 0; v < nnodes; v++)\n"
     "        deg[v] = 0;\n"
     "    for (int e = 0; e < nedges; e++)\n"
     "        deg[dst[e]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per edge: deg[dst[e]] += 1. */\n"
     "extern \"C\" __global__ void in_degree(const int *dst, int *deg, int nedges)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e < nedges)\n"
     "        atomicAdd(&deg[dst[e]], 1);\n"
     "}\n",
     {{"zero_i32", "(nnodes+255)/256", "256", NULL, "deg,nnodes"},
      {"in_degree", "(nedges+255)/256", "256", NULL, "dst,deg,nedges"}},
     NULL, "block=256;mapping=one-edge-per-thread-global-atomics"},
    {"coo-to-dense-f32", "coo_to_dense",
     "sparse COO (with duplicates) to a dense row-major matrix: index_put with accumulate",
     "ri:i32:in:nnz;ci:i32:in:nnz;v:f32:in:nnz;dense:f32:out:rows,cols;nnz:i32:param;rows:i32:param;cols:i32:param",
     "ri=int:0:rows;ci=int:0:cols",
     "",
     {"nnz=50000,rows=300,cols=400", "nnz=1,rows=1,cols=1", "nnz=997,rows=37,cols=41", "nnz=67108864,rows=8192,cols=8192"},
     "nnz", "12*nnz+4*rows*cols", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* dense[ri[k]][ci[k]] += v[k] for the nnz entries (duplicates add up) into\n"
     " * a zeroed rows x cols row-major matrix. */\n"
     "void coo_to_dense(const int32_t *ri, const int32_t *ci, const float *v, float *dense, int nnz, int rows, int cols)\n"
     "{\n"
     "    memset(dense, 0, (size_t)rows * cols * sizeof *dense);\n"
     "    for (int k = 0; k < nnz; k++)\n"
     "        dense[(size_t)ri[k] * cols + ci[k]] += v[k];\n"
     "}\n",
     ZERO_F32
     "/* One thread per entry: dense[ri][ci] += v atomically. */\n"
     "extern \"C\" __global__ void coo_to_dense(const int *ri, const int *ci, const float *v, float *dense, int nnz, int cols)\n"
     "{\n"
     "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k < nnz)\n"
     "        atomicAdd(&dense[(long long)ri[k] * cols + ci[k]], v[k]);\n"
     "}\n",
     {{"zero_f32", "(rows*cols+255)/256", "256", NULL, "dense,rows*cols"},
      {"coo_to_dense", "(nnz+255)/256", "256", NULL, "ri,ci,v,dense,nnz,cols"}},
     NULL, "block=256;mapping=one-nonzero-per-thread-global-atomics"},
    {"coo-to-dense-f64-i64", "coo_to_dense",
     "sparse COO with 64-bit coordinates to a dense f64 matrix, accumulating duplicates",
     "coords:i64:in:nnz,2;v:f64:in:nnz;dense:f64:inout:rows,cols;nnz:i32:param;rows:i32:param;cols:i32:param",
     "coords=int:0:max(rows,cols)",
     "",
     {"nnz=50000,rows=300,cols=400", "nnz=1,rows=1,cols=1", "nnz=997,rows=37,cols=41", "nnz=33554432,rows=8192,cols=8192"},
     "nnz", "24*nnz+16*rows*cols", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* dense[coords[k][0]][coords[k][1]] += v[k] for the nnz entries, adding to\n"
     " * the existing rows x cols matrix; entries outside it are skipped. */\n"
     "void coo_to_dense(const int64_t *coords, const double *v, double *dense, int nnz, int rows, int cols)\n"
     "{\n"
     "    for (int k = 0; k < nnz; k++) {\n"
     "        int64_t r = coords[2 * (size_t)k], c = coords[2 * (size_t)k + 1];\n"
     "        if (r < 0 || r >= rows || c < 0 || c >= cols)\n"
     "            continue;\n"
     "        dense[r * cols + c] += v[k];\n"
     "    }\n"
     "}\n",
     "/* One thread per entry: dense[r][c] += v atomically; entries outside the\n"
     " * matrix are skipped. */\n"
     "extern \"C\" __global__ void coo_to_dense(const long long *coords, const double *v, double *dense, int nnz, int rows,\n"
     "                                        int cols)\n"
     "{\n"
     "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= nnz)\n"
     "        return;\n"
     "    const long long r = coords[2 * k], c = coords[2 * k + 1];\n"
     "    if (r < 0 || r >= rows || c < 0 || c >= cols)\n"
     "        return;\n"
     "    atomicAdd(&dense[r * cols + c], v[k]);\n"
     "}\n",
     {{"coo_to_dense", "(nnz+255)/256", "256", NULL, "coords,v,dense,nnz,rows,cols"}},
     NULL, "block=256;mapping=one-nonzero-per-thread-global-atomics"},
    {"moe-combine-f32", "moe_combine",
     "mixture-of-experts combine: expert outputs scaled by their gates and scatter-added back to their tokens",
     "expert_out:f32:in:nassign,d;token:i32:in:nassign;gate:f32:in:nassign;out:f32:out:ntok,d;nassign:i32:param;ntok:i32:param;d:i32:param",
     "token=int:0:ntok;gate=uniform:0:1",
     "",
     {"nassign=4000,ntok=2000,d=64", "nassign=1,ntok=1,d=1", "nassign=97,ntok=41,d=13", "nassign=524288,ntok=262144,d=256"},
     "2*nassign*d", "4*nassign*d+8*nassign+4*ntok*d", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Mixture-of-experts combine: assignment a routed token token[a] (in\n"
     " * [0, ntok)) to an expert whose output row is expert_out[a][:], weighted by\n"
     " * gate[a]:\n"
     " *   out[t][:] = sum over a with token[a] == t of gate[a] * expert_out[a][:]. */\n"
     "void moe_combine(const float *expert_out, const int32_t *token, const float *gate, float *out, int nassign, int ntok,\n"
     "                 int d)\n"
     "{\n"
     "    memset(out, 0, (size_t)ntok * d * sizeof *out);\n"
     "    for (int a = 0; a < nassign; a++) {\n"
     "        const float *e = expert_out + (size_t)a * d;\n"
     "        float *o = out + (size_t)token[a] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            o[j] += gate[a] * e[j];\n"
     "    }\n"
     "}\n",
     ZERO_F32
     "/* One thread per element (a, j) of expert_out: out[token[a]][j] += gate[a] *\n"
     " * expert_out[a][j] atomically. */\n"
     "extern \"C\" __global__ void moe_combine(const float *expert_out, const int *token, const float *gate, float *out,\n"
     "                                       int nassign, int d)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)nassign * d)\n"
     "        return;\n"
     "    const long long a = e / d, j = e % d;\n"
     "    atomicAdd(&out[(long long)token[a] * d + j], gate[a] * expert_out[e]);\n"
     "}\n",
     {{"zero_f32", "(ntok*d+255)/256", "256", NULL, "out,ntok*d"},
      {"moe_combine", "(nassign*d+255)/256", "256", NULL, "expert_out,token,gate,out,nassign,d"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"global-add-pool-f64", "global_add_pool",
     "graph readout: node feature rows summed per graph of a batch given by a sorted batch vector",
     "x:f64:in:nnodes,d;batch:i32:in:nnodes;out:f64:out:ngraphs,d;nnodes:i32:param;d:i32:param;ngraphs:i32:param",
     "batch=int:0:ngraphs;batch=sorted",
     "",
     {"nnodes=20000,d=32,ngraphs=200", "nnodes=1,d=1,ngraphs=1", "nnodes=997,d=7,ngraphs=13", "nnodes=4194304,d=64,ngraphs=16384"},
     "nnodes*d", "8*nnodes*d+4*nnodes+8*ngraphs*d", 1e-09, 1e-09,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Sum pooling per graph: out[g][:] = sum of x[v][:] over the nodes v with\n"
     " * batch[v] == g; batch is sorted (the nodes of a graph are contiguous) with\n"
     " * values in [0, ngraphs), and graphs without nodes get 0. */\n"
     "void global_add_pool(const double *x, const int32_t *batch, double *out, int nnodes, int d, int ngraphs)\n"
     "{\n"
     "    memset(out, 0, (size_t)ngraphs * d * sizeof *out);\n"
     "    for (int v = 0; v < nnodes; v++) {\n"
     "        const double *xv = x + (size_t)v * d;\n"
     "        double *o = out + (size_t)batch[v] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            o[j] += xv[j];\n"
     "    }\n"
     "}\n",
     ZERO_F64
     "/* One thread per element (v, j) of x: out[batch[v]][j] += x[v][j] atomically. */\n"
     "extern \"C\" __global__ void global_add_pool(const double *x, const int *batch, double *out, int nnodes, int d)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)nnodes * d)\n"
     "        return;\n"
     "    const long long v = e / d, j = e % d;\n"
     "    atomicAdd(&out[(long long)batch[v] * d + j], x[e]);\n"
     "}\n",
     {{"zero_f64", "(ngraphs*d+255)/256", "256", NULL, "out,ngraphs*d"},
      {"global_add_pool", "(nnodes*d+255)/256", "256", NULL, "x,batch,out,nnodes,d"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
};
#define NPROGS ((int)(sizeof PROGS / sizeof PROGS[0]))

static int generate(GenCtx *g)
{
    return prog_emit_all(g, PROGS, NPROGS);
}

const Family family_scatter_add = {"scatter_add", "atomics", 54, generate};
