/* gather — index-driven data movement: embedding lookups (plain, with a
 * padding index, with clamped out-of-range ids, scaled plus a position
 * table), embedding bags over CSR offsets (sum, mean, max, per-sample
 * weights) and fixed-size bags, torch.gather along either dimension of a
 * matrix and along the middle one of a 3D tensor, index_select of rows and
 * columns (also batched), flat take, 2D coordinate gathers, weighted row
 * gathers, paged K/V-cache gathers through a block table, one-hot encoding,
 * learned and sinusoidal positional-embedding adds, and rotary position
 * embeddings (interleaved pairs from cos/sin tables, half-split with
 * computed angles, and per-token position ids into cos/sin caches).  Data
 * types are f32/f64 and, for pure moves, u8/i16/i32/i64 tables; indices
 * are i32 or i64. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct GArg {
    const char *name;
    char kind;         /* 'T' data dtype, 'I' index dtype, 'u' u8, 'i' i32 */
    const char *role;
    const char *shape;
    const char *fill;  /* NULL, "int:lo:hi", "part:total", "uni:lo:hi" */
} GArg;

typedef struct GOp {
    const char *tag, *entry;
    const char *dtypes;  /* data/index pairs: "f32/i32,f64/i64" */
    GArg args[7];
    const char *params;  /* comma-separated, in signature order */
    const char *scalar;  /* "name=value" or NULL (same dtype as the data) */
    const char *cfg[4];  /* small, edge, edge-prime, large */
    const char *flops, *bytes;  /* @E: data element size, @X: index size */
    double atol32, rtol32;      /* f32 tolerance (0: default) */
    const char *code;
    /* The pair: kernel.cu (a template like code, @T and @I in CUDA's
     * spelling), its one launch's grid (256-thread blocks) and the mapping
     * knob.  The launch arguments are the C signature's: the buffers, then
     * params, then the scalar. */
    const char *cuda;
    const char *grid;
    const char *mapping;
} GOp;

static const GOp OPS[] = {
    {"embedding", "embedding", "f32/i32,f64/i64,u8/i32,i32/i64",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "n", "int:0:v"}, {"out", 'T', "out", "n,d", NULL}},
     "v,d,n", NULL,
     {"v=1000,d=64,n=512", "v=1,d=1,n=1", "v=37,d=13,n=29", "v=50257,d=1024,n=65536"},
     "0", "@E*n*d*2+@X*n", 0, 0,
     "/* Embedding lookup: out[i][:] = table[ids[i]][:], table v x d. */\n"
     "@INC\n"
     "void embedding(const @T *table, const @I *ids, @T *out, int v, int d, int n)\n"
     "{\n"
     "    (void)v;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        memcpy(out + (size_t)i * d, table + (size_t)ids[i] * d, (size_t)d * sizeof *out);\n"
     "}\n",
     "/* Embedding lookup: out[i][:] = table[ids[i]][:]; one thread per output element. */\n"
     "extern \"C\" __global__ void embedding(const @T *__restrict__ table, const @I *__restrict__ ids, "
     "@T *__restrict__ out, int v, int d, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d;\n"
     "    out[e] = table[(long long)ids[i] * d + e % d];\n"
     "}\n",
     "(n*d+255)/256", "one-output-element-per-thread"},
    {"embedding-padidx", "embedding_padding_idx", "f32/i64,f64/i32",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "n", "int:0:v"}, {"out", 'T', "out", "n,d", NULL}},
     "v,d,n,pad_idx", NULL,
     {"v=50,d=64,n=2000,pad_idx=0", "v=1,d=1,n=1,pad_idx=0", "v=37,d=13,n=29,pad_idx=5",
      "v=4096,d=1024,n=65536,pad_idx=1"},
     "0", "@E*n*d*2+@X*n", 0, 0,
     "/* Embedding lookup with a padding index: out[i][:] = table[ids[i]][:],\n"
     " * except that tokens equal to pad_idx get a zero row. */\n"
     "@INC\n"
     "void embedding_padding_idx(const @T *table, const @I *ids, @T *out, int v, int d, int n,\n"
     "                           int pad_idx)\n"
     "{\n"
     "    (void)v;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        @T *row = out + (size_t)i * d;\n"
     "        if (ids[i] == pad_idx) {\n"
     "            for (int j = 0; j < d; j++)\n"
     "                row[j] = 0;\n"
     "            continue;\n"
     "        }\n"
     "        const @T *src = table + (size_t)ids[i] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] = src[j];\n"
     "    }\n"
     "}\n",
     "/* Embedding lookup with a padding index (its tokens get a zero row); one thread per\n"
     " * output element. */\n"
     "extern \"C\" __global__ void embedding_padding_idx(const @T *__restrict__ table, "
     "const @I *__restrict__ ids, @T *__restrict__ out, int v, int d, int n, int pad_idx)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const @I id = ids[e / d];\n"
     "    out[e] = id == pad_idx ? (@T)0 : table[(long long)id * d + e % d];\n"
     "}\n",
     "(n*d+255)/256", "one-output-element-per-thread"},
    {"embedding-clamp", "embedding_clamped", "f32/i32,i32/i32",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "n", "int:-3:v+3"}, {"out", 'T', "out", "n,d", NULL}},
     "v,d,n", NULL,
     {"v=500,d=64,n=1024", "v=1,d=1,n=1", "v=37,d=13,n=29", "v=32000,d=2048,n=32768"},
     "0", "@E*n*d*2+@X*n", 0, 0,
     "/* Embedding lookup with out-of-range ids clamped into [0, v):\n"
     " * out[i][:] = table[min(max(ids[i], 0), v - 1)][:]. */\n"
     "@INC\n"
     "void embedding_clamped(const @T *table, const @I *ids, @T *out, int v, int d, int n)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int id = ids[i] < 0 ? 0 : ids[i] >= v ? v - 1 : ids[i];\n"
     "        const @T *src = table + (size_t)id * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            out[(size_t)i * d + j] = src[j];\n"
     "    }\n"
     "}\n",
     "/* Embedding lookup with ids clamped into [0, v); one thread per output element. */\n"
     "extern \"C\" __global__ void embedding_clamped(const @T *__restrict__ table, const @I *__restrict__ ids, "
     "@T *__restrict__ out, int v, int d, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const @I raw = ids[e / d];\n"
     "    const int id = raw < 0 ? 0 : raw >= v ? v - 1 : raw;\n"
     "    out[e] = table[(long long)id * d + e % d];\n"
     "}\n",
     "(n*d+255)/256", "one-output-element-per-thread"},
    {"token-pos-embedding", "token_position_embedding", "f32/i32,f64/i64",
     {{"wte", 'T', "in", "v,d", NULL}, {"wpe", 'T', "in", "s,d", NULL}, {"ids", 'I', "in", "b,s", "int:0:v"},
      {"out", 'T', "out", "b,s,d", NULL}},
     "v,d,b,s", NULL,
     {"v=1000,d=64,b=4,s=128", "v=1,d=1,b=1,s=1", "v=37,d=13,b=3,s=17", "v=50257,d=1024,b=32,s=2048"},
     "2*b*s*d", "@E*b*s*d*2+@E*s*d+@X*b*s", 0, 0,
     "/* Token plus position embedding, the input layer of a transformer:\n"
     " * out[b][t][:] = sqrt(d) * wte[ids[b][t]][:] + wpe[t][:]. */\n"
     "@INC\n"
     "void token_position_embedding(const @T *wte, const @T *wpe, const @I *ids, @T *out, int v, int d,\n"
     "                              int b, int s)\n"
     "{\n"
     "    (void)v;\n"
     "    @T scale = @sqrt((@T)d);\n"
     "    for (int bi = 0; bi < b; bi++)\n"
     "        for (int t = 0; t < s; t++) {\n"
     "            size_t tok = (size_t)bi * s + t;\n"
     "            const @T *e = wte + (size_t)ids[tok] * d;\n"
     "            const @T *p = wpe + (size_t)t * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                out[tok * d + j] = scale * e[j] + p[j];\n"
     "        }\n"
     "}\n",
     "/* out[b][t][:] = sqrt(d) * wte[ids[b][t]][:] + wpe[t][:]; one thread per output element. */\n"
     "extern \"C\" __global__ void token_position_embedding(const @T *__restrict__ wte, "
     "const @T *__restrict__ wpe, const @I *__restrict__ ids, @T *__restrict__ out, int v, int d, int b, int s)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * s * d)\n"
     "        return;\n"
     "    const long long tok = e / d;\n"
     "    const int j = e % d, t = tok % s;\n"
     "    const @T scale = @sqrt((@T)d);\n"
     "    out[e] = scale * wte[(long long)ids[tok] * d + j] + wpe[(long long)t * d + j];\n"
     "}\n",
     "(b*s*d+255)/256", "one-output-element-per-thread"},
    {"embedding-bag-sum", "embedding_bag_sum", "f32/i32,f64/i64",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "nnz", "int:0:v"},
      {"offsets", 'I', "in", "bags+1", "part:nnz"}, {"out", 'T', "out", "bags,d", NULL}},
     "v,d,nnz,bags", NULL,
     {"v=1000,d=64,nnz=2000,bags=100", "v=1,d=1,nnz=1,bags=1", "v=37,d=13,nnz=53,bags=7",
      "v=1000000,d=128,nnz=1048576,bags=65536"},
     "nnz*d", "@E*nnz*d+@E*bags*d+@X*nnz+@X*bags", 0, 0,
     "/* Embedding bag, sum mode: bag k covers ids[offsets[k] .. offsets[k + 1]) and\n"
     " * out[k][:] = sum of table[ids[i]][:] over its ids (0 for an empty bag). */\n"
     "@INC\n"
     "void embedding_bag_sum(const @T *table, const @I *ids, const @I *offsets, @T *out, int v, int d,\n"
     "                       int nnz, int bags)\n"
     "{\n"
     "    (void)v;\n"
     "    (void)nnz;\n"
     "    for (int k = 0; k < bags; k++) {\n"
     "        @T *row = out + (size_t)k * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] = 0;\n"
     "        for (@I i = offsets[k]; i < offsets[k + 1]; i++) {\n"
     "            const @T *src = table + (size_t)ids[i] * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                row[j] += src[j];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* Embedding bag, sum mode: one thread per output element (bag k, column j) adds\n"
     " * its bag's rows in order. */\n"
     "extern \"C\" __global__ void embedding_bag_sum(const @T *__restrict__ table, const @I *__restrict__ ids, "
     "const @I *__restrict__ offsets, @T *__restrict__ out, int v, int d, int nnz, int bags)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)bags * d)\n"
     "        return;\n"
     "    const int k = e / d, j = e % d;\n"
     "    @T acc = 0;\n"
     "    for (@I i = offsets[k]; i < offsets[k + 1]; i++)\n"
     "        acc += table[(long long)ids[i] * d + j];\n"
     "    out[e] = acc;\n"
     "}\n",
     "(bags*d+255)/256", "one-output-element-per-thread"},
    {"embedding-bag-mean", "embedding_bag_mean", "f32/i64,f64/i32",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "nnz", "int:0:v"},
      {"offsets", 'I', "in", "bags+1", "part:nnz"}, {"out", 'T', "out", "bags,d", NULL}},
     "v,d,nnz,bags", NULL,
     {"v=1000,d=64,nnz=2000,bags=100", "v=1,d=1,nnz=1,bags=1", "v=37,d=13,nnz=53,bags=7",
      "v=1000000,d=128,nnz=1048576,bags=65536"},
     "nnz*d+bags*d", "@E*nnz*d+@E*bags*d+@X*nnz+@X*bags", 0, 0,
     "/* Embedding bag, mean mode: bag k averages table[ids[i]][:] over\n"
     " * i in [offsets[k], offsets[k + 1]); an empty bag gives zeros. */\n"
     "@INC\n"
     "void embedding_bag_mean(const @T *table, const @I *ids, const @I *offsets, @T *out, int v, int d,\n"
     "                        int nnz, int bags)\n"
     "{\n"
     "    (void)v;\n"
     "    (void)nnz;\n"
     "    for (int k = 0; k < bags; k++) {\n"
     "        @T *row = out + (size_t)k * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] = 0;\n"
     "        @I count = offsets[k + 1] - offsets[k];\n"
     "        if (count == 0)\n"
     "            continue;\n"
     "        for (@I i = offsets[k]; i < offsets[k + 1]; i++) {\n"
     "            const @T *src = table + (size_t)ids[i] * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                row[j] += src[j];\n"
     "        }\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] /= (@T)count;\n"
     "    }\n"
     "}\n",
     "/* Embedding bag, mean mode (an empty bag gives 0): one thread per output element\n"
     " * (bag k, column j) adds its bag's rows in order, then divides. */\n"
     "extern \"C\" __global__ void embedding_bag_mean(const @T *__restrict__ table, "
     "const @I *__restrict__ ids, const @I *__restrict__ offsets, @T *__restrict__ out, int v, int d, int nnz, "
     "int bags)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)bags * d)\n"
     "        return;\n"
     "    const int k = e / d, j = e % d;\n"
     "    const @I count = offsets[k + 1] - offsets[k];\n"
     "    @T acc = 0;\n"
     "    for (@I i = offsets[k]; i < offsets[k + 1]; i++)\n"
     "        acc += table[(long long)ids[i] * d + j];\n"
     "    out[e] = count == 0 ? (@T)0 : acc / (@T)count;\n"
     "}\n",
     "(bags*d+255)/256", "one-output-element-per-thread"},
    {"embedding-bag-weighted", "embedding_bag_weighted", "f32/i32,f64/i64",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "nnz", "int:0:v"},
      {"weights", 'T', "in", "nnz", "uni:0:2"}, {"offsets", 'I', "in", "bags+1", "part:nnz"},
      {"out", 'T', "out", "bags,d", NULL}},
     "v,d,nnz,bags", NULL,
     {"v=1000,d=64,nnz=2000,bags=100", "v=1,d=1,nnz=1,bags=1", "v=37,d=13,nnz=53,bags=7",
      "v=1000000,d=128,nnz=1048576,bags=65536"},
     "2*nnz*d", "@E*nnz*d+@E*bags*d+@E*nnz+@X*nnz+@X*bags", 0, 0,
     "/* Embedding bag with per-sample weights: out[k][:] = sum over i in\n"
     " * [offsets[k], offsets[k + 1]) of weights[i] * table[ids[i]][:]. */\n"
     "@INC\n"
     "void embedding_bag_weighted(const @T *table, const @I *ids, const @T *weights, const @I *offsets,\n"
     "                            @T *out, int v, int d, int nnz, int bags)\n"
     "{\n"
     "    (void)v;\n"
     "    (void)nnz;\n"
     "    for (int k = 0; k < bags; k++) {\n"
     "        @T *row = out + (size_t)k * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] = 0;\n"
     "        for (@I i = offsets[k]; i < offsets[k + 1]; i++) {\n"
     "            const @T *src = table + (size_t)ids[i] * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                row[j] += weights[i] * src[j];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* Embedding bag with per-sample weights: one thread per output element (bag k,\n"
     " * column j) adds its bag's weighted rows in order. */\n"
     "extern \"C\" __global__ void embedding_bag_weighted(const @T *__restrict__ table, "
     "const @I *__restrict__ ids, const @T *__restrict__ weights, const @I *__restrict__ offsets, "
     "@T *__restrict__ out, int v, int d, int nnz, int bags)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)bags * d)\n"
     "        return;\n"
     "    const int k = e / d, j = e % d;\n"
     "    @T acc = 0;\n"
     "    for (@I i = offsets[k]; i < offsets[k + 1]; i++)\n"
     "        acc += weights[i] * table[(long long)ids[i] * d + j];\n"
     "    out[e] = acc;\n"
     "}\n",
     "(bags*d+255)/256", "one-output-element-per-thread"},
    {"embedding-bag-max", "embedding_bag_max", "f32/i32,i32/i64",
     {{"table", 'T', "in", "v,d", NULL}, {"ids", 'I', "in", "nnz", "int:0:v"},
      {"offsets", 'I', "in", "bags+1", "part:nnz"}, {"out", 'T', "out", "bags,d", NULL}},
     "v,d,nnz,bags", NULL,
     {"v=1000,d=64,nnz=2000,bags=100", "v=1,d=1,nnz=1,bags=1", "v=37,d=13,nnz=53,bags=7",
      "v=1000000,d=128,nnz=1048576,bags=65536"},
     "nnz*d", "@E*nnz*d+@E*bags*d+@X*nnz+@X*bags", 0, 0,
     "/* Embedding bag, max mode: out[k][j] = max of table[ids[i]][j] over\n"
     " * i in [offsets[k], offsets[k + 1]); an empty bag gives zeros. */\n"
     "@INC\n"
     "void embedding_bag_max(const @T *table, const @I *ids, const @I *offsets, @T *out, int v, int d,\n"
     "                       int nnz, int bags)\n"
     "{\n"
     "    (void)v;\n"
     "    (void)nnz;\n"
     "    for (int k = 0; k < bags; k++) {\n"
     "        @T *row = out + (size_t)k * d;\n"
     "        if (offsets[k] == offsets[k + 1]) {\n"
     "            for (int j = 0; j < d; j++)\n"
     "                row[j] = 0;\n"
     "            continue;\n"
     "        }\n"
     "        const @T *first = table + (size_t)ids[offsets[k]] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            row[j] = first[j];\n"
     "        for (@I i = offsets[k] + 1; i < offsets[k + 1]; i++) {\n"
     "            const @T *src = table + (size_t)ids[i] * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                if (src[j] > row[j])\n"
     "                    row[j] = src[j];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* Embedding bag, max mode (an empty bag gives 0): one thread per output element\n"
     " * (bag k, column j). */\n"
     "extern \"C\" __global__ void embedding_bag_max(const @T *__restrict__ table, const @I *__restrict__ ids, "
     "const @I *__restrict__ offsets, @T *__restrict__ out, int v, int d, int nnz, int bags)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)bags * d)\n"
     "        return;\n"
     "    const int k = e / d, j = e % d;\n"
     "    const @I first = offsets[k], last = offsets[k + 1];\n"
     "    if (first == last) {\n"
     "        out[e] = 0;\n"
     "        return;\n"
     "    }\n"
     "    @T best = table[(long long)ids[first] * d + j];\n"
     "    for (@I i = first + 1; i < last; i++) {\n"
     "        const @T val = table[(long long)ids[i] * d + j];\n"
     "        if (val > best)\n"
     "            best = val;\n"
     "    }\n"
     "    out[e] = best;\n"
     "}\n",
     "(bags*d+255)/256", "one-output-element-per-thread"},
    {"bag-fixed-sum", "gather_sum", "f32/i32,f64/i64",
     {{"table", 'T', "in", "v,d", NULL}, {"idx", 'I', "in", "n,k", "int:0:v"}, {"out", 'T', "out", "n,d", NULL}},
     "v,d,n,k", NULL,
     {"v=1000,d=64,n=256,k=8", "v=1,d=1,n=1,k=1", "v=37,d=13,n=29,k=5", "v=262144,d=256,n=65536,k=16"},
     "n*k*d", "@E*n*k*d+@E*n*d+@X*n*k", 0, 0,
     "/* Fixed-size bags: out[i][:] = sum over j < k of table[idx[i][j]][:]. */\n"
     "@INC\n"
     "void gather_sum(const @T *table, const @I *idx, @T *out, int v, int d, int n, int k)\n"
     "{\n"
     "    (void)v;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        @T *row = out + (size_t)i * d;\n"
     "        for (int c = 0; c < d; c++)\n"
     "            row[c] = 0;\n"
     "        for (int j = 0; j < k; j++) {\n"
     "            const @T *src = table + (size_t)idx[(size_t)i * k + j] * d;\n"
     "            for (int c = 0; c < d; c++)\n"
     "                row[c] += src[c];\n"
     "        }\n"
     "    }\n"
     "}\n",
     "/* Fixed-size bags: out[i][:] = sum over j < k of table[idx[i][j]][:]; one thread per\n"
     " * output element adds its k rows in order. */\n"
     "extern \"C\" __global__ void gather_sum(const @T *__restrict__ table, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int v, int d, int n, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * d)\n"
     "        return;\n"
     "    const long long i = e / d;\n"
     "    const int c = e % d;\n"
     "    @T acc = 0;\n"
     "    for (int j = 0; j < k; j++)\n"
     "        acc += table[(long long)idx[i * k + j] * d + c];\n"
     "    out[e] = acc;\n"
     "}\n",
     "(n*d+255)/256", "one-output-element-per-thread"},
    {"gather-dim1", "gather_dim1", "f32/i64,i64/i32",
     {{"x", 'T', "in", "n,m", NULL}, {"idx", 'I', "in", "n,k", "int:0:m"}, {"out", 'T', "out", "n,k", NULL}},
     "n,m,k", NULL,
     {"n=128,m=300,k=64", "n=1,m=1,k=1", "n=13,m=37,k=11", "n=16384,m=8192,k=2048"},
     "0", "@E*n*m+@E*n*k+@X*n*k", 0, 0,
     "/* torch.gather along dimension 1: out[i][j] = x[i][idx[i][j]],\n"
     " * x n x m, idx and out n x k. */\n"
     "@INC\n"
     "void gather_dim1(const @T *x, const @I *idx, @T *out, int n, int m, int k)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        for (int j = 0; j < k; j++)\n"
     "            out[(size_t)i * k + j] = x[(size_t)i * m + idx[(size_t)i * k + j]];\n"
     "}\n",
     "/* torch.gather along dimension 1: out[i][j] = x[i][idx[i][j]]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void gather_dim1(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int n, int m, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * k)\n"
     "        return;\n"
     "    out[e] = x[e / k * m + idx[e]];\n"
     "}\n",
     "(n*k+255)/256", "one-output-element-per-thread"},
    {"gather-dim0", "gather_dim0", "f64/i32,i32/i64",
     {{"x", 'T', "in", "n,m", NULL}, {"idx", 'I', "in", "k,m", "int:0:n"}, {"out", 'T', "out", "k,m", NULL}},
     "n,m,k", NULL,
     {"n=300,m=128,k=64", "n=1,m=1,k=1", "n=37,m=13,k=11", "n=8192,m=8192,k=4096"},
     "0", "@E*n*m+@E*k*m+@X*k*m", 0, 0,
     "/* torch.gather along dimension 0: out[i][j] = x[idx[i][j]][j],\n"
     " * x n x m, idx and out k x m. */\n"
     "@INC\n"
     "void gather_dim0(const @T *x, const @I *idx, @T *out, int n, int m, int k)\n"
     "{\n"
     "    (void)n;\n"
     "    for (int i = 0; i < k; i++)\n"
     "        for (int j = 0; j < m; j++) {\n"
     "            size_t e = (size_t)i * m + j;\n"
     "            out[e] = x[(size_t)idx[e] * m + j];\n"
     "        }\n"
     "}\n",
     "/* torch.gather along dimension 0: out[i][j] = x[idx[i][j]][j]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void gather_dim0(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int n, int m, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)k * m)\n"
     "        return;\n"
     "    out[e] = x[(long long)idx[e] * m + e % m];\n"
     "}\n",
     "(k*m+255)/256", "one-output-element-per-thread"},
    {"gather-3d-dim1", "gather_3d", "f32/i64,f64/i32",
     {{"x", 'T', "in", "b,n,d", NULL}, {"idx", 'I', "in", "b,k,d", "int:0:n"}, {"out", 'T', "out", "b,k,d", NULL}},
     "b,n,d,k", NULL,
     {"b=4,n=100,d=32,k=50", "b=1,n=1,d=1,k=1", "b=3,n=17,d=7,k=11", "b=64,n=1024,d=512,k=512"},
     "0", "@E*b*n*d+@E*b*k*d+@X*b*k*d", 0, 0,
     "/* torch.gather along the middle dimension of a b x n x d tensor:\n"
     " * out[z][j][c] = x[z][idx[z][j][c]][c], idx and out b x k x d. */\n"
     "@INC\n"
     "void gather_3d(const @T *x, const @I *idx, @T *out, int b, int n, int d, int k)\n"
     "{\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int j = 0; j < k; j++)\n"
     "            for (int c = 0; c < d; c++) {\n"
     "                size_t e = ((size_t)z * k + j) * d + c;\n"
     "                out[e] = x[((size_t)z * n + idx[e]) * d + c];\n"
     "            }\n"
     "}\n",
     "/* torch.gather along the middle dimension: out[z][j][c] = x[z][idx[z][j][c]][c]; one\n"
     " * thread per output element. */\n"
     "extern \"C\" __global__ void gather_3d(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int b, int n, int d, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * k * d)\n"
     "        return;\n"
     "    const long long z = e / ((long long)k * d);\n"
     "    out[e] = x[(z * n + idx[e]) * d + e % d];\n"
     "}\n",
     "(b*k*d+255)/256", "one-output-element-per-thread"},
    {"index-select-rows", "index_select_rows", "f32/i64,u8/i32",
     {{"x", 'T', "in", "n,m", NULL}, {"idx", 'I', "in", "k", "int:0:n"}, {"out", 'T', "out", "k,m", NULL}},
     "n,m,k", NULL,
     {"n=300,m=128,k=200", "n=1,m=1,k=1", "n=37,m=13,k=29", "n=65536,m=2048,k=65536"},
     "0", "@E*k*m*2+@X*k", 0, 0,
     "/* index_select along dimension 0: out[i][:] = x[idx[i]][:], x n x m. */\n"
     "@INC\n"
     "void index_select_rows(const @T *x, const @I *idx, @T *out, int n, int m, int k)\n"
     "{\n"
     "    (void)n;\n"
     "    for (int i = 0; i < k; i++)\n"
     "        memcpy(out + (size_t)i * m, x + (size_t)idx[i] * m, (size_t)m * sizeof *out);\n"
     "}\n",
     "/* index_select along dimension 0: out[i][:] = x[idx[i]][:]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void index_select_rows(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int n, int m, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)k * m)\n"
     "        return;\n"
     "    out[e] = x[(long long)idx[e / m] * m + e % m];\n"
     "}\n",
     "(k*m+255)/256", "one-output-element-per-thread"},
    {"index-select-cols", "index_select_cols", "f64/i32,i16/i64",
     {{"x", 'T', "in", "n,m", NULL}, {"idx", 'I', "in", "k", "int:0:m"}, {"out", 'T', "out", "n,k", NULL}},
     "n,m,k", NULL,
     {"n=128,m=300,k=200", "n=1,m=1,k=1", "n=13,m=37,k=29", "n=16384,m=8192,k=4096"},
     "0", "@E*n*k*2+@X*k", 0, 0,
     "/* index_select along dimension 1: out[i][j] = x[i][idx[j]], x n x m, out n x k. */\n"
     "@INC\n"
     "void index_select_cols(const @T *x, const @I *idx, @T *out, int n, int m, int k)\n"
     "{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        const @T *row = x + (size_t)i * m;\n"
     "        for (int j = 0; j < k; j++)\n"
     "            out[(size_t)i * k + j] = row[idx[j]];\n"
     "    }\n"
     "}\n",
     "/* index_select along dimension 1: out[i][j] = x[i][idx[j]]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void index_select_cols(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int n, int m, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * k)\n"
     "        return;\n"
     "    out[e] = x[e / k * m + idx[e % k]];\n"
     "}\n",
     "(n*k+255)/256", "one-output-element-per-thread"},
    {"index-select-batched", "batched_index_select", "f32/i32,f64/i64",
     {{"x", 'T', "in", "b,n,d", NULL}, {"idx", 'I', "in", "b,k", "int:0:n"}, {"out", 'T', "out", "b,k,d", NULL}},
     "b,n,d,k", NULL,
     {"b=4,n=100,d=64,k=40", "b=1,n=1,d=1,k=1", "b=3,n=17,d=7,k=11", "b=32,n=4096,d=1024,k=2048"},
     "0", "@E*b*k*d*2+@X*b*k", 0, 0,
     "/* Batched index_select: out[z][j][:] = x[z][idx[z][j]][:], x b x n x d,\n"
     " * out b x k x d (e.g. picking the top-k tokens of each sequence). */\n"
     "@INC\n"
     "void batched_index_select(const @T *x, const @I *idx, @T *out, int b, int n, int d, int k)\n"
     "{\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int j = 0; j < k; j++) {\n"
     "            const @T *src = x + ((size_t)z * n + idx[(size_t)z * k + j]) * d;\n"
     "            @T *dst = out + ((size_t)z * k + j) * d;\n"
     "            for (int c = 0; c < d; c++)\n"
     "                dst[c] = src[c];\n"
     "        }\n"
     "}\n",
     "/* Batched index_select: out[z][j][:] = x[z][idx[z][j]][:]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void batched_index_select(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int b, int n, int d, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * k * d)\n"
     "        return;\n"
     "    const long long zj = e / d; /* z * k + j */\n"
     "    const long long z = zj / k;\n"
     "    out[e] = x[(z * n + idx[zj]) * d + e % d];\n"
     "}\n",
     "(b*k*d+255)/256", "one-output-element-per-thread"},
    {"take", "take", "f32/i64,i64/i32",
     {{"x", 'T', "in", "n", NULL}, {"idx", 'I', "in", "m", "int:0:n"}, {"out", 'T', "out", "m", NULL}},
     "n,m", NULL,
     {"n=10000,m=5000", "n=1,m=1", "n=37,m=101", "n=67108864,m=67108864"},
     "0", "@E*n+@E*m+@X*m", 0, 0,
     "/* Flat take: out[i] = x[idx[i]]. */\n"
     "@INC\n"
     "void take(const @T *x, const @I *idx, @T *out, int n, int m)\n"
     "{\n"
     "    (void)n;\n"
     "    for (int i = 0; i < m; i++)\n"
     "        out[i] = x[idx[i]];\n"
     "}\n",
     "/* Flat take: out[i] = x[idx[i]]; one thread per output element. */\n"
     "extern \"C\" __global__ void take(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "@T *__restrict__ out, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= m)\n"
     "        return;\n"
     "    out[i] = x[idx[i]];\n"
     "}\n",
     "(m+255)/256", "one-output-element-per-thread"},
    {"gather-2d-coords", "gather_points", "f32/i32,u8/i64",
     {{"img", 'T', "in", "h,w", NULL}, {"rows", 'I', "in", "k", "int:0:h"}, {"cols", 'I', "in", "k", "int:0:w"},
      {"out", 'T', "out", "k", NULL}},
     "h,w,k", NULL,
     {"h=100,w=120,k=5000", "h=1,w=1,k=1", "h=13,w=17,k=31", "h=8192,w=8192,k=33554432"},
     "0", "@E*k*2+@X*k*2", 0, 0,
     "/* Gather at 2D coordinates: out[i] = img[rows[i]][cols[i]], img h x w. */\n"
     "@INC\n"
     "void gather_points(const @T *img, const @I *rows, const @I *cols, @T *out, int h, int w, int k)\n"
     "{\n"
     "    (void)h;\n"
     "    for (int i = 0; i < k; i++)\n"
     "        out[i] = img[(size_t)rows[i] * w + cols[i]];\n"
     "}\n",
     "/* Gather at 2D coordinates: out[i] = img[rows[i]][cols[i]]; one thread per point. */\n"
     "extern \"C\" __global__ void gather_points(const @T *__restrict__ img, const @I *__restrict__ rows, "
     "const @I *__restrict__ cols, @T *__restrict__ out, int h, int w, int k)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= k)\n"
     "        return;\n"
     "    out[i] = img[(long long)rows[i] * w + cols[i]];\n"
     "}\n",
     "(k+255)/256", "one-output-element-per-thread"},
    {"gather-rows-scaled", "gather_rows_scaled", "f32/i32,f64/i64",
     {{"x", 'T', "in", "n,d", NULL}, {"idx", 'I', "in", "k", "int:0:n"}, {"scale", 'T', "in", "k", "uni:0.5:2"},
      {"out", 'T', "out", "k,d", NULL}},
     "n,d,k", NULL,
     {"n=500,d=64,k=300", "n=1,d=1,k=1", "n=37,d=13,k=29", "n=65536,d=2048,k=65536"},
     "k*d", "@E*k*d*2+@E*k+@X*k", 0, 0,
     "/* Weighted row gather (as in mixture-of-experts combine):\n"
     " * out[i][:] = scale[i] * x[idx[i]][:]. */\n"
     "@INC\n"
     "void gather_rows_scaled(const @T *x, const @I *idx, const @T *scale, @T *out, int n, int d, int k)\n"
     "{\n"
     "    (void)n;\n"
     "    for (int i = 0; i < k; i++) {\n"
     "        const @T *src = x + (size_t)idx[i] * d;\n"
     "        for (int j = 0; j < d; j++)\n"
     "            out[(size_t)i * d + j] = scale[i] * src[j];\n"
     "    }\n"
     "}\n",
     "/* Weighted row gather: out[i][:] = scale[i] * x[idx[i]][:]; one thread per output\n"
     " * element. */\n"
     "extern \"C\" __global__ void gather_rows_scaled(const @T *__restrict__ x, const @I *__restrict__ idx, "
     "const @T *__restrict__ scale, @T *__restrict__ out, int n, int d, int k)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)k * d)\n"
     "        return;\n"
     "    const long long i = e / d;\n"
     "    out[e] = scale[i] * x[(long long)idx[i] * d + e % d];\n"
     "}\n",
     "(k*d+255)/256", "one-output-element-per-thread"},
    {"paged-kv-gather", "paged_kv_gather", "f32/i32,f64/i32",
     {{"cache", 'T', "in", "blocks,bs,d", NULL}, {"block_table", 'I', "in", "b,mb", "int:0:blocks"},
      {"out", 'T', "out", "b,mb*bs,d", NULL}},
     "blocks,bs,d,b,mb", NULL,
     {"blocks=64,bs=16,d=64,b=4,mb=8", "blocks=1,bs=1,d=1,b=1,mb=1", "blocks=13,bs=5,d=7,b=3,mb=4",
      "blocks=8192,bs=16,d=1024,b=64,mb=64"},
     "0", "@E*b*mb*bs*d*2+@X*b*mb", 0, 0,
     "/* Paged K/V cache gather: sequence z's token t lives in block\n"
     " * block_table[z][t / bs] at slot t % bs, so\n"
     " * out[z][t][:] = cache[block_table[z][t / bs]][t % bs][:], t < mb * bs. */\n"
     "@INC\n"
     "void paged_kv_gather(const @T *cache, const @I *block_table, @T *out, int blocks, int bs, int d,\n"
     "                     int b, int mb)\n"
     "{\n"
     "    (void)blocks;\n"
     "    int len = mb * bs;\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int t = 0; t < len; t++) {\n"
     "            @I block = block_table[(size_t)z * mb + t / bs];\n"
     "            const @T *src = cache + ((size_t)block * bs + t % bs) * d;\n"
     "            memcpy(out + ((size_t)z * len + t) * d, src, (size_t)d * sizeof *out);\n"
     "        }\n"
     "}\n",
     "/* Paged K/V cache gather: out[z][t][:] = cache[block_table[z][t / bs]][t % bs][:]; one\n"
     " * thread per output element. */\n"
     "extern \"C\" __global__ void paged_kv_gather(const @T *__restrict__ cache, "
     "const @I *__restrict__ block_table, @T *__restrict__ out, int blocks, int bs, int d, int b, int mb)\n"
     "{\n"
     "    const int len = mb * bs;\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * len * d)\n"
     "        return;\n"
     "    const long long zt = e / d; /* z * len + t */\n"
     "    const int z = zt / len, t = zt % len;\n"
     "    const @I block = block_table[(long long)z * mb + t / bs];\n"
     "    out[e] = cache[((long long)block * bs + t % bs) * d + e % d];\n"
     "}\n",
     "(b*mb*bs*d+255)/256", "one-output-element-per-thread"},
    {"one-hot", "one_hot", "f32/i32,u8/i64",
     {{"labels", 'I', "in", "n", "int:0:c"}, {"out", 'T', "out", "n,c", NULL}},
     "n,c", NULL,
     {"n=500,c=100", "n=1,c=1", "n=37,c=13", "n=65536,c=4096"},
     "0", "@E*n*c+@X*n", 0, 0,
     "/* One-hot encoding: out[i][j] = 1 if labels[i] == j else 0, out n x c. */\n"
     "@INC\n"
     "void one_hot(const @I *labels, @T *out, int n, int c)\n"
     "{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        for (int j = 0; j < c; j++)\n"
     "            out[(size_t)i * c + j] = labels[i] == j;\n"
     "}\n",
     "/* One-hot encoding: out[i][j] = labels[i] == j; one thread per output element. */\n"
     "extern \"C\" __global__ void one_hot(const @I *__restrict__ labels, @T *__restrict__ out, int n, int c)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * c)\n"
     "        return;\n"
     "    out[e] = labels[e / c] == e % c;\n"
     "}\n",
     "(n*c+255)/256", "one-output-element-per-thread"},
    {"one-hot-smoothed", "one_hot_smoothed", "f32/i64,f64/i32",
     {{"labels", 'I', "in", "n", "int:0:c"}, {"out", 'T', "out", "n,c", NULL}},
     "n,c", "smoothing=0.1",
     {"n=500,c=100", "n=1,c=1", "n=37,c=13", "n=65536,c=4096"},
     "n*c", "@E*n*c+@X*n", 0, 0,
     "/* Label-smoothed one-hot targets: out[i][j] = 1 - smoothing + smoothing / c\n"
     " * where j == labels[i], smoothing / c elsewhere. */\n"
     "@INC\n"
     "void one_hot_smoothed(const @I *labels, @T *out, int n, int c, @T smoothing)\n"
     "{\n"
     "    @T off = smoothing / c;\n"
     "    @T on = 1 - smoothing + off;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        for (int j = 0; j < c; j++)\n"
     "            out[(size_t)i * c + j] = labels[i] == j ? on : off;\n"
     "}\n",
     "/* Label-smoothed one-hot targets; one thread per output element. */\n"
     "extern \"C\" __global__ void one_hot_smoothed(const @I *__restrict__ labels, @T *__restrict__ out, "
     "int n, int c, @T smoothing)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)n * c)\n"
     "        return;\n"
     "    const @T off = smoothing / c;\n"
     "    const @T on = 1 - smoothing + off;\n"
     "    out[e] = labels[e / c] == e % c ? on : off;\n"
     "}\n",
     "(n*c+255)/256", "one-output-element-per-thread"},
    {"pos-embedding-add", "add_position_embedding", "f32/-,f64/-",
     {{"x", 'T', "in", "b,s,d", NULL}, {"pos", 'T', "in", "smax,d", NULL}, {"out", 'T', "out", "b,s,d", NULL}},
     "b,s,d,smax,offset", NULL,
     {"b=4,s=100,d=64,smax=256,offset=17", "b=1,s=1,d=1,smax=1,offset=0", "b=3,s=17,d=13,smax=41,offset=23",
      "b=32,s=2048,d=1024,smax=4096,offset=1024"},
     "b*s*d", "@E*b*s*d*2+@E*s*d", 0, 0,
     "/* Learned positional embedding added at an offset (a continuing sequence):\n"
     " * out[z][t][:] = x[z][t][:] + pos[offset + t][:], pos smax x d, offset + s <= smax. */\n"
     "@INC\n"
     "void add_position_embedding(const @T *x, const @T *pos, @T *out, int b, int s, int d, int smax,\n"
     "                            int offset)\n"
     "{\n"
     "    (void)smax;\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int t = 0; t < s; t++) {\n"
     "            size_t row = ((size_t)z * s + t) * d;\n"
     "            const @T *p = pos + (size_t)(offset + t) * d;\n"
     "            for (int j = 0; j < d; j++)\n"
     "                out[row + j] = x[row + j] + p[j];\n"
     "        }\n"
     "}\n",
     "/* out[z][t][:] = x[z][t][:] + pos[offset + t][:]; one thread per output element. */\n"
     "extern \"C\" __global__ void add_position_embedding(const @T *__restrict__ x, "
     "const @T *__restrict__ pos, @T *__restrict__ out, int b, int s, int d, int smax, int offset)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * s * d)\n"
     "        return;\n"
     "    const int t = e / d % s;\n"
     "    out[e] = x[e] + pos[(long long)(offset + t) * d + e % d];\n"
     "}\n",
     "(b*s*d+255)/256", "one-output-element-per-thread"},
    {"sinusoidal-pos-add", "add_sinusoidal_position", "f32/-,f64/-",
     {{"x", 'T', "in", "b,s,d", NULL}, {"out", 'T', "out", "b,s,d", NULL}},
     "b,s,d", NULL,
     {"b=4,s=100,d=64", "b=1,s=1,d=2", "b=3,s=17,d=14", "b=32,s=2048,d=1024"},
     "6*b*s*d", "@E*b*s*d*2", 1e-4, 1e-3,
     "/* Sinusoidal positional encoding added to x (b x s x d, d even):\n"
     " * out[z][t][2i] = x + sin(t / 10000^(2i / d)), out[z][t][2i + 1] = x + cos(...).\n"
     " * Angles are computed in double. */\n"
     "@INC\n"
     "void add_sinusoidal_position(const @T *x, @T *out, int b, int s, int d)\n"
     "{\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int t = 0; t < s; t++) {\n"
     "            size_t row = ((size_t)z * s + t) * d;\n"
     "            for (int i = 0; i < d / 2; i++) {\n"
     "                double angle = t * pow(10000.0, -2.0 * i / d);\n"
     "                out[row + 2 * i] = x[row + 2 * i] + @{castT}sin(angle);\n"
     "                out[row + 2 * i + 1] = x[row + 2 * i + 1] + @{castT}cos(angle);\n"
     "            }\n"
     "        }\n"
     "}\n",
     "/* Sinusoidal positional encoding added to x (d even): one thread per (sin, cos)\n"
     " * pair of outputs; angles in double. */\n"
     "extern \"C\" __global__ void add_sinusoidal_position(const @T *__restrict__ x, @T *__restrict__ out, "
     "int b, int s, int d)\n"
     "{\n"
     "    const int half = d / 2;\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * s * half)\n"
     "        return;\n"
     "    const long long row = e / half; /* z * s + t */\n"
     "    const int i = e % half, t = row % s;\n"
     "    const double angle = t * pow(10000.0, -2.0 * i / d);\n"
     "    const long long at = row * d + 2 * i;\n"
     "    out[at] = x[at] + @{castT}sin(angle);\n"
     "    out[at + 1] = x[at + 1] + @{castT}cos(angle);\n"
     "}\n",
     "(b*s*(d/2)+255)/256", "one-output-pair-per-thread"},
    {"rope-interleaved", "rope_interleaved", "f32/-,f64/-",
     {{"x", 'T', "in", "b,s,h,d", NULL}, {"cos_t", 'T', "in", "s,d/2", NULL}, {"sin_t", 'T', "in", "s,d/2", NULL},
      {"out", 'T', "out", "b,s,h,d", NULL}},
     "b,s,h,d", NULL,
     {"b=2,s=64,h=4,d=64", "b=1,s=1,h=1,d=2", "b=3,s=17,h=5,d=14", "b=16,s=2048,h=16,d=128"},
     "3*b*s*h*d", "@E*b*s*h*d*2+@E*s*d", 0, 0,
     "/* Rotary position embedding, interleaved pairs, from cos/sin tables (s x d/2):\n"
     " * (x[2i], x[2i+1]) at position t is rotated by the angle of cos_t[t][i], sin_t[t][i].\n"
     " * x and out are b x s x h x d, d even. */\n"
     "@INC\n"
     "void rope_interleaved(const @T *x, const @T *cos_t, const @T *sin_t, @T *out, int b, int s, int h,\n"
     "                      int d)\n"
     "{\n"
     "    int half = d / 2;\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int t = 0; t < s; t++)\n"
     "            for (int hh = 0; hh < h; hh++) {\n"
     "                size_t base = (((size_t)z * s + t) * h + hh) * d;\n"
     "                for (int i = 0; i < half; i++) {\n"
     "                    @T c = cos_t[(size_t)t * half + i], sn = sin_t[(size_t)t * half + i];\n"
     "                    @T x0 = x[base + 2 * i], x1 = x[base + 2 * i + 1];\n"
     "                    out[base + 2 * i] = x0 * c - x1 * sn;\n"
     "                    out[base + 2 * i + 1] = x0 * sn + x1 * c;\n"
     "                }\n"
     "            }\n"
     "}\n",
     "/* Rotary position embedding, interleaved pairs, from cos/sin tables: one thread per\n"
     " * rotated pair (x[2i], x[2i+1]). */\n"
     "extern \"C\" __global__ void rope_interleaved(const @T *__restrict__ x, const @T *__restrict__ cos_t, "
     "const @T *__restrict__ sin_t, @T *__restrict__ out, int b, int s, int h, int d)\n"
     "{\n"
     "    const int half = d / 2;\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * s * h * half)\n"
     "        return;\n"
     "    const long long row = e / half; /* ((z * s + t) * h + hh) */\n"
     "    const int i = e % half, t = row / h % s;\n"
     "    const @T c = cos_t[(long long)t * half + i], sn = sin_t[(long long)t * half + i];\n"
     "    const long long at = row * d + 2 * i;\n"
     "    const @T x0 = x[at], x1 = x[at + 1];\n"
     "    out[at] = x0 * c - x1 * sn;\n"
     "    out[at + 1] = x0 * sn + x1 * c;\n"
     "}\n",
     "(b*s*h*(d/2)+255)/256", "one-output-pair-per-thread"},
    {"rope-half-computed", "rope_neox", "f32/i32,f64/i64",
     {{"x", 'T', "in", "s,h,d", NULL}, {"positions", 'I', "in", "s", "int:0:2048"},
      {"out", 'T', "out", "s,h,d", NULL}},
     "s,h,d", "base=10000",
     {"s=128,h=8,d=64", "s=1,h=1,d=2", "s=17,h=5,d=14", "s=32768,h=32,d=128"},
     "8*s*h*d", "@E*s*h*d*2+@X*s", 1e-3, 1e-3,
     "/* Rotary position embedding, half-split (GPT-NeoX) layout, angles computed\n"
     " * from the token positions: for i < d/2, theta = positions[t] * base^(-2i / d) and\n"
     " * (x[i], x[i + d/2]) is rotated by theta.  x and out are s x h x d; angles in double. */\n"
     "@INC\n"
     "void rope_neox(const @T *x, const @I *positions, @T *out, int s, int h, int d, @T base)\n"
     "{\n"
     "    int half = d / 2;\n"
     "    for (int t = 0; t < s; t++)\n"
     "        for (int i = 0; i < half; i++) {\n"
     "            double theta = (double)positions[t] * pow(base, -2.0 * i / d);\n"
     "            @T c = @{castT}cos(theta), sn = @{castT}sin(theta);\n"
     "            for (int hh = 0; hh < h; hh++) {\n"
     "                size_t base_idx = ((size_t)t * h + hh) * d;\n"
     "                @T x0 = x[base_idx + i], x1 = x[base_idx + i + half];\n"
     "                out[base_idx + i] = x0 * c - x1 * sn;\n"
     "                out[base_idx + i + half] = x0 * sn + x1 * c;\n"
     "            }\n"
     "        }\n"
     "}\n",
     "/* Rotary position embedding, half-split layout, angles computed (in double) from the\n"
     " * token positions: one thread per rotated pair (x[i], x[i + d/2]). */\n"
     "extern \"C\" __global__ void rope_neox(const @T *__restrict__ x, const @I *__restrict__ positions, "
     "@T *__restrict__ out, int s, int h, int d, @T base)\n"
     "{\n"
     "    const int half = d / 2;\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)s * h * half)\n"
     "        return;\n"
     "    const long long row = e / half; /* t * h + hh */\n"
     "    const int i = e % half, t = row / h;\n"
     "    const double theta = (double)positions[t] * pow((double)base, -2.0 * i / d);\n"
     "    const @T c = @{castT}cos(theta), sn = @{castT}sin(theta);\n"
     "    const long long at = row * d + i;\n"
     "    const @T x0 = x[at], x1 = x[at + half];\n"
     "    out[at] = x0 * c - x1 * sn;\n"
     "    out[at + half] = x0 * sn + x1 * c;\n"
     "}\n",
     "(s*h*(d/2)+255)/256", "one-output-pair-per-thread"},
    {"rope-cache-posids", "rope_cached", "f32/i64,f64/i32",
     {{"q", 'T', "in", "b,s,h,d", NULL}, {"position_ids", 'I', "in", "b,s", "int:0:maxpos"},
      {"cos_cache", 'T', "in", "maxpos,d/2", NULL}, {"sin_cache", 'T', "in", "maxpos,d/2", NULL},
      {"out", 'T', "out", "b,s,h,d", NULL}},
     "b,s,h,d,maxpos", NULL,
     {"b=2,s=64,h=4,d=64,maxpos=256", "b=1,s=1,h=1,d=2,maxpos=1", "b=3,s=17,h=5,d=14,maxpos=37",
      "b=16,s=2048,h=16,d=128,maxpos=8192"},
     "3*b*s*h*d", "@E*b*s*h*d*2+@X*b*s+@E*maxpos*d", 0, 0,
     "/* Rotary position embedding with per-token position ids: the cos/sin rows\n"
     " * are gathered from caches (maxpos x d/2) at position_ids[z][t], and (q[i], q[i + d/2])\n"
     " * is rotated (half-split layout).  q and out are b x s x h x d. */\n"
     "@INC\n"
     "void rope_cached(const @T *q, const @I *position_ids, const @T *cos_cache, const @T *sin_cache,\n"
     "                 @T *out, int b, int s, int h, int d, int maxpos)\n"
     "{\n"
     "    (void)maxpos;\n"
     "    int half = d / 2;\n"
     "    for (int z = 0; z < b; z++)\n"
     "        for (int t = 0; t < s; t++) {\n"
     "            size_t p = (size_t)position_ids[(size_t)z * s + t];\n"
     "            const @T *c = cos_cache + p * half;\n"
     "            const @T *sn = sin_cache + p * half;\n"
     "            for (int hh = 0; hh < h; hh++) {\n"
     "                size_t base = (((size_t)z * s + t) * h + hh) * d;\n"
     "                for (int i = 0; i < half; i++) {\n"
     "                    @T x0 = q[base + i], x1 = q[base + i + half];\n"
     "                    out[base + i] = x0 * c[i] - x1 * sn[i];\n"
     "                    out[base + i + half] = x0 * sn[i] + x1 * c[i];\n"
     "                }\n"
     "            }\n"
     "        }\n"
     "}\n",
     "/* Rotary position embedding with per-token position ids into cos/sin caches (half-split\n"
     " * layout): one thread per rotated pair (q[i], q[i + d/2]). */\n"
     "extern \"C\" __global__ void rope_cached(const @T *__restrict__ q, const @I *__restrict__ position_ids, "
     "const @T *__restrict__ cos_cache, const @T *__restrict__ sin_cache, @T *__restrict__ out, int b, int s, "
     "int h, int d, int maxpos)\n"
     "{\n"
     "    const int half = d / 2;\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)b * s * h * half)\n"
     "        return;\n"
     "    const long long row = e / half; /* ((z * s + t) * h + hh) */\n"
     "    const int i = e % half;\n"
     "    const long long p = position_ids[row / h];\n"
     "    const @T c = cos_cache[p * half + i], sn = sin_cache[p * half + i];\n"
     "    const long long at = row * d + i;\n"
     "    const @T x0 = q[at], x1 = q[at + half];\n"
     "    out[at] = x0 * c - x1 * sn;\n"
     "    out[at + half] = x0 * sn + x1 * c;\n"
     "}\n",
     "(b*s*h*(d/2)+255)/256", "one-output-pair-per-thread"},
};

static const char *ctype_of(const char *dt)
{
    static const char *const map[][2] = {{"f32", "float"},  {"f64", "double"}, {"u8", "uint8_t"},
                                         {"i16", "int16_t"}, {"i32", "int32_t"}, {"i64", "int64_t"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return "?";
}

static int dsize(const char *dt)
{
    return strcmp(dt, "f64") == 0 || strcmp(dt, "i64") == 0 ? 8 : strcmp(dt, "u8") == 0 ? 1
           : strcmp(dt, "i16") == 0                          ? 2 : 4;
}

/* CUDA's spelling of a dtype (kernel.cu includes no headers). */
static const char *cuda_type_of(const char *dt)
{
    static const char *const map[][2] = {{"f32", "float"},  {"f64", "double"}, {"u8", "unsigned char"},
                                         {"i16", "short"}, {"i32", "int"},    {"i64", "long long"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return "?";
}

/* The pair of one program: op->cuda expanded for the data type T and the
 * index type I, every kernel signature wrapped to 100 columns; one launch
 * over op->grid with the C signature's arguments. */
static void emit_cuda(GenProgram *p, const GOp *op, const char *T, const char *I)
{
    TmplSubs sub;
    tmpl_init(&sub, strcmp(T, "f64") == 0);
    tmpl_set(&sub, "T", cuda_type_of(T));
    tmpl_set(&sub, "I", strcmp(I, "-") ? cuda_type_of(I) : "int");
    tmpl_set(&sub, "castT", strcmp(T, "f32") == 0 ? "(float)" : "");
    StrBuf src = STRBUF_INIT;
    tmpl_expand(&src, &sub, op->cuda);
    StrBuf *k = gen_cuda_src(p);
    for (const char *line = src.data; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        if (strncmp(line, "extern \"C\"", 10) == 0) {
            char *one = xstrndup(line, nl ? n - 1 : n);
            tmpl_put_wrapped(k, one);
            sb_putc(k, '\n');
            free(one);
        } else {
            sb_append_n(k, line, n);
        }
        line += n;
    }
    sb_release(&src);
    /* Launch arguments: the buffers, the params, the scalar. */
    StrBuf args = STRBUF_INIT;
    for (int a = 0; a < 7 && op->args[a].name; a++)
        sb_printf(&args, "%s%s", a ? "," : "", op->args[a].name);
    sb_printf(&args, ",%s", op->params);
    if (op->scalar)
        sb_printf(&args, ",%.*s", (int)strcspn(op->scalar, "="), op->scalar);
    gen_launch(p, op->entry, op->grid, "256", NULL, sb_str(&args));
    sb_release(&args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", op->mapping);
}

static int program(GenCtx *g, const GOp *op, const char *T, const char *I)
{
    char variant[96];
    if (strcmp(I, "-") == 0)
        snprintf(variant, sizeof variant, "%s-%s", op->tag, T);
    else
        snprintf(variant, sizeof variant, "%s-%s-%s", op->tag, T, I);
    GenProgram *p = gen_begin(g, variant, op->entry);
    gen_describe(p, "%s, %s data%s%s", op->entry, T, strcmp(I, "-") ? ", indices " : "", strcmp(I, "-") ? I : "");
    int isf = T[0] == 'f';
    for (int a = 0; a < 7 && op->args[a].name; a++) {
        const GArg *x = &op->args[a];
        const char *dt = x->kind == 'T' ? T : x->kind == 'I' ? I : x->kind == 'u' ? "u8" : "i32";
        gen_arg(p, x->name, dt, x->role, x->shape);
        if (!x->fill)
            continue;
        char f[64];
        snprintf(f, sizeof f, "%s", x->fill);
        char *k1 = strchr(f, ':');
        char *k2 = k1 ? strchr(k1 + 1, ':') : NULL;
        if (k1)
            *k1 = '\0';
        if (k2)
            *k2 = '\0';
        if (strcmp(f, "int") == 0)
            gen_fill_int(p, x->name, k1 + 1, k2 + 1);
        else if (strcmp(f, "part") == 0)
            gen_fill_partition(p, x->name, k1 + 1);
        else
            gen_fill_uniform(p, x->name, atof(k1 + 1), atof(k2 + 1));
    }
    char params[64];
    snprintf(params, sizeof params, "%s", op->params);
    for (char *tok = strtok(params, ","); tok; tok = strtok(NULL, ","))
        gen_arg(p, tok, "i32", "param", NULL);
    if (op->scalar) {
        char sc[48];
        snprintf(sc, sizeof sc, "%s", op->scalar);
        char *eq = strchr(sc, '=');
        *eq = '\0';
        gen_scalar(p, sc, T, atof(eq + 1));
    }
    gen_config(p, "small", op->cfg[0]);
    gen_config(p, "edge", op->cfg[1]);
    gen_config(p, "edge-prime", op->cfg[2]);
    gen_config(p, "large", op->cfg[3]);
    if (isf && T[1] == '3' && op->atol32 > 0)
        gen_tolerance(p, op->atol32, op->rtol32);
    else if (isf && T[1] == '6' && op->atol32 > 0)
        gen_tolerance(p, 1e-9, 1e-7);
    char es[8], xs[8];
    snprintf(es, sizeof es, "%d", dsize(T));
    snprintf(xs, sizeof xs, "%d", strcmp(I, "-") ? dsize(I) : 0);
    TmplSubs sub;
    tmpl_init(&sub, strcmp(T, "f64") == 0);
    tmpl_set(&sub, "E", es);
    tmpl_set(&sub, "X", xs);
    StrBuf fl = STRBUF_INIT, by = STRBUF_INIT;
    tmpl_expand(&fl, &sub, op->flops);
    tmpl_expand(&by, &sub, op->bytes);
    gen_cost(p, fl.data, by.data);
    sb_release(&fl);
    sb_release(&by);

    /* Includes: what the code uses. */
    const char *code = op->code;
    int need_math = strstr(code, "@sqrt") || strstr(code, "sin(") || strstr(code, "pow(");
    int need_string = strstr(code, "memcpy") != NULL;
    int need_stdint = !isf || (strcmp(I, "-") != 0);
    char inc[128] = "";
    if (need_math)
        strcat(inc, "#include <math.h>\n");
    strcat(inc, "#include <stddef.h>\n");
    if (need_stdint)
        strcat(inc, "#include <stdint.h>\n");
    if (need_string)
        strcat(inc, "#include <string.h>\n");
    tmpl_set(&sub, "INC", inc);
    tmpl_set(&sub, "T", ctype_of(T));
    tmpl_set(&sub, "castT", strcmp(T, "f32") == 0 ? "(float)" : "");
    tmpl_set(&sub, "I", strcmp(I, "-") ? ctype_of(I) : "int");
    StrBuf src = STRBUF_INIT;
    tmpl_expand(&src, &sub, code);
    /* Re-wrap the entry's signature to the line limit for these type names. */
    char *sig = strstr(src.data, "\nvoid ");
    char *body = sig ? strstr(sig, ")\n{\n") : NULL;
    if (sig && body) {
        StrBuf line = STRBUF_INIT;
        for (char *c = sig + 1; c <= body; c++) {
            if (*c == '\n') {
                while (c[1] == ' ')
                    c++;
                sb_putc(&line, ' ');
            } else {
                sb_putc(&line, *c);
            }
        }
        StrBuf out = STRBUF_INIT;
        sb_append_n(&out, src.data, (size_t)(sig + 1 - src.data));
        tmpl_put_wrapped(&out, line.data);
        sb_append(&out, body + 1);
        gen_source(p, "%s", out.data);
        sb_release(&out);
        sb_release(&line);
    } else {
        gen_source(p, "%s", src.data);
    }
    sb_release(&src);
    emit_cuda(p, op, T, I);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    int n = (int)(sizeof OPS / sizeof OPS[0]);
    for (int i = 0; i < n; i++) {
        char list[64];
        snprintf(list, sizeof list, "%s", OPS[i].dtypes);
        char *save = NULL;
        for (char *pair = strtok_r(list, ",", &save); pair; pair = strtok_r(NULL, ",", &save)) {
            char *slash = strchr(pair, '/');
            *slash = '\0';
            if (program(g, &OPS[i], pair, slash + 1) != 0)
                return -1;
        }
    }
    return 0;
}

const Family family_gather = {"gather", "ml", 54, generate};
