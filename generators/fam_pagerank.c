/* pagerank — link analysis on CSR graphs with a fixed number of
 * iterations: PageRank in pull form (row v lists v's in-neighbours, with
 * out-degrees given) and push form (row u lists u's out-neighbours), in the
 * Brin-Page "(1 - d) + d sum" scaling or normalised to sum 1 with dangling
 * mass redistributed, single iterations, residual histories, weighted
 * edges, 64-bit indices, delta propagation; personalised PageRank (a
 * teleport vector, seed lists, a batch of seeds); HITS hub/authority steps
 * (L2 and L1 normalisation, several iterations, bipartite graphs); Katz
 * and eigenvector centrality; and degree computations (in, out, weighted,
 * inverse, normalised, average neighbour degree).  f32 and f64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_ops.h"


enum { PR, PRB, PRS, DEG, DEGN, BIP, PR1 };

/* The large configs keep the single-block references (a barrier between
 * iterations) within the harness's 60 s deadline on an H100: the batch of
 * k = 8 vectors visits k times the edges, so its graph is a quarter of the
 * others' (on the 67M-edge graph its reference took over 60 s, device run
 * 37). */
static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [PR] = {"n=1000,nnz=8000,iters=10", "n=1,nnz=1,iters=1", "n=37,nnz=211,iters=3",
                "n=4194304,nnz=67108864,iters=10"},
        [PR1] = {"n=1000,nnz=8000", "n=1,nnz=1", "n=37,nnz=211", "n=16777216,nnz=268435456"},
        [PRB] = {"n=1000,nnz=8000,iters=5,k=4", "n=1,nnz=1,iters=1,k=1", "n=37,nnz=211,iters=3,k=3",
                 "n=1048576,nnz=16777216,iters=5,k=8"},
        [PRS] = {"n=1000,nnz=8000,iters=10,ns=5", "n=1,nnz=1,iters=1,ns=1", "n=37,nnz=211,iters=3,ns=2",
                 "n=4194304,nnz=67108864,iters=10,ns=100"},
        [DEG] = {"n=2000,nnz=16000", "n=1,nnz=1", "n=37,nnz=211", "n=16777216,nnz=268435456"},
        [DEGN] = {"n=2000", "n=1", "n=37", "n=134217728"},
        [BIP] = {"nu=800,ni=600,nnz=8000,iters=5", "nu=1,ni=1,nnz=1,iters=1", "nu=37,ni=23,nnz=211,iters=2",
                 "nu=4194304,ni=1048576,nnz=67108864,iters=5"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

/* The C loops visit every edge once per iteration (and per personalisation
 * vector), reading or updating the value of a random vertex: a 64-byte line
 * each, where the problem's bytes count 4 or 8. */
static const char *reference_bytes(int kind)
{
    switch (kind) {
    case PR:
    case PRS:
    case BIP:
        return "64*nnz*iters";
    case PRB:
        return "64*nnz*iters*k";
    case PR1:
    case DEG:
        return "64*nnz";
    default:
        return NULL; /* per-vertex work only */
    }
}

#define OP(...) {__VA_ARGS__}
#define INC "#include <stdlib.h>\n#include <string.h>\n\n"
#define CSR_FILL "row_ptr=part:nnz;col_idx=int:0:n"
#define CSR_SHAPES "row_ptr=n+1;col_idx=nnz"
#define NNZ_UNUSED "    (void)nnz; /* sizes col_idx */\n"
#define SCRATCH(name)                                                                              \
    "    $T *" name " = malloc((size_t)n * sizeof *" name ");\n    if (!" name ")\n        return;\n"
#define NORMAL {1e-10, 1e-3}, {1e-15, 1e-9}
#define UNIT {1e-7, 1e-3}, {1e-12, 1e-9}
#define PULL_SUM(src)                                                                              \
    "            $T sum = 0;\n            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"      \
    "                sum += " src "[col_idx[k]] / out_deg[col_idx[k]];\n"

/* The pairs.  Single steps and degree computations are one thread per
 * vertex (pull) or per source vertex with atomic adds (push), a zeroing or
 * copying launch first.  The iterated programs run their `iters` rounds in
 * one block of 1024 threads that strides over the vertices, with barriers
 * between the phases of a round and shared-memory tree reductions (double)
 * for the dangling mass, residuals and norms: a launch plan has a fixed
 * number of launches and kernel.cu no host loop, and a multi-block grid has
 * no barrier.  Pull sums keep the C code's CSR order; push sums and
 * reductions change the order of additions, within the tolerances. */
#define CU_BLOCK_SUM \
    "/* The sum of every thread's x over the block, returned to all threads;\n" \
    " * part holds blockDim.x doubles (a power of two). */\n" \
    "__device__ double block_sum(double x, double *part)\n" \
    "{\n" \
    "    part[threadIdx.x] = x;\n" \
    "    __syncthreads();\n" \
    "    for (int half = blockDim.x / 2; half > 0; half /= 2) {\n" \
    "        if (threadIdx.x < half)\n" \
    "            part[threadIdx.x] += part[threadIdx.x + half];\n" \
    "        __syncthreads();\n" \
    "    }\n" \
    "    const double total = part[0];\n" \
    "    __syncthreads();\n" \
    "    return total;\n" \
    "}\n" \
    "\n"

#define CU_NORM_KERNELS \
    "/* One block: total[0] = the sum of x[i] (L1, with l2 == 0) or of x[i]^2\n" \
    " * (with l2 != 0) in double, by a shared-memory tree reduction. */\n" \
    "extern \"C\" __global__ void norm_sum(const $T *x, double *total, int n, int l2)\n" \
    "{\n" \
    "    extern __shared__ double part[];\n" \
    "    double s = 0;\n" \
    "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n" \
    "        s += l2 ? (double)x[i] * x[i] : x[i];\n" \
    "    part[threadIdx.x] = s;\n" \
    "    __syncthreads();\n" \
    "    for (int half = blockDim.x / 2; half > 0; half /= 2) {\n" \
    "        if (threadIdx.x < half)\n" \
    "            part[threadIdx.x] += part[threadIdx.x + half];\n" \
    "        __syncthreads();\n" \
    "    }\n" \
    "    if (threadIdx.x == 0)\n" \
    "        total[0] = part[0];\n" \
    "}\n" \
    "\n" \
    "/* One thread per vertex u: auth[v] += hub[u] for each link u -> v. */\n" \
    "extern \"C\" __global__ void push_hubs(const int *row_ptr, const int *col_idx, const $T *hub, $T *auth, int n)\n" \
    "{\n" \
    "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (u >= n)\n" \
    "        return;\n" \
    "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n" \
    "        atomicAdd(&auth[col_idx[k]], hub[u]);\n" \
    "}\n" \
    "\n" \
    "/* One thread per vertex u: the sum of the authorities of its targets. */\n" \
    "extern \"C\" __global__ void pull_auths(const int *row_ptr, const int *col_idx, const $T *auth, $T *hub_out, int n)\n" \
    "{\n" \
    "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (u >= n)\n" \
    "        return;\n" \
    "    $T s = 0;\n" \
    "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n" \
    "        s += auth[col_idx[k]];\n" \
    "    hub_out[u] = s;\n" \
    "}\n" \
    "\n" \
    "/* One thread per vertex: auth = 0. */\n" \
    "extern \"C\" __global__ void zero_auth($T *auth, int n)\n" \
    "{\n" \
    "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (v < n)\n" \
    "        auth[v] = 0;\n" \
    "}\n" \
    "\n"

static const Op OPS[] = {
    OP("pull", "f32 f64", PR, "pagerank",
       INC "/* PageRank by `iters` pull iterations from r0, in the Brin-Page scaling:\n"
       " * rank[v] = (1 - d) + d sum over in-neighbours u of rank[u] / out_deg[u]\n"
       " * (row v of the CSR lists v's in-neighbours; every out_deg is >= 1). */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const $T *r0, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(rank, r0, (size_t)n * sizeof *rank);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n" PULL_SUM("prev") "            rank[v] = (1 - d) + d * sum;\n        }\n"
       "    }\n    free(prev);\n",
       "3*nnz*iters", "4*(n+1+nnz)+4*n+2*$S*n", CSR_SHAPES ";out_deg=n;r0=n;rank=n",
       CSR_FILL ";out_deg=int:1:9;r0=uni:0.5:1.5", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations, its threads striding over the vertices:\n"
             " * prev = rank, a barrier, then rank[v] = (1 - d) + d sum over in-neighbours\n"
             " * u of prev[u] / out_deg[u], in CSR order. */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const int *out_deg, const $T *r0, $T *rank,\n"
             "                                    $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = r0[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = (1 - d) + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", NULL, "row_ptr,col_idx,out_deg,r0,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("pull-i64", "f32 f64", PR, "pagerank",
       "#include <stdint.h>\n" INC "/* PageRank by `iters` pull iterations on a graph with 64-bit CSR indices:\n"
       " * rank[v] = (1 - d) + d sum over in-neighbours u of rank[u] / out_deg[u],\n"
       " * starting from rank = 1. */\n",
       "const int64_t *row_ptr, const int64_t *col_idx, const int *out_deg, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n            $T sum = 0;\n"
       "            for (int64_t k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
       "            rank[v] = (1 - d) + d * sum;\n        }\n    }\n    free(prev);\n",
       "3*nnz*iters", "8*(n+1+nnz)+4*n+$S*n", CSR_SHAPES ";out_deg=n;rank=n",
       CSR_FILL ";out_deg=int:1:9", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from rank = 1, its threads striding over\n"
             " * the vertices: prev = rank, a barrier, then the pull update with 64-bit\n"
             " * CSR indices. */\n"
             "extern \"C\" __global__ void pagerank(const long long *row_ptr, const long long *col_idx, const int *out_deg, $T *rank,\n"
             "                                    $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (long long k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = (1 - d) + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", NULL, "row_ptr,col_idx,out_deg,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("pull-dangling", "f32 f64", PR, "pagerank",
       INC "/* Normalised PageRank by `iters` pull iterations from the uniform vector:\n"
       " * rank[v] = (1 - d) / n + d (sum over in-neighbours u of rank[u] / out_deg[u]\n"
       " * + D / n), where D is the rank held by dangling vertices (out_deg 0). */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = ($T)1 / n;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        double dangling = 0;\n        for (int u = 0; u < n; u++)\n            if (out_deg[u] == 0)\n"
       "                dangling += prev[u];\n        $T base = (1 - d) / n + d * ($T)(dangling / n);\n"
       "        for (int v = 0; v < n; v++) {\n            $T sum = 0;\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "                if (out_deg[col_idx[k]] > 0)\n                    sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
       "            rank[v] = base + d * sum;\n        }\n    }\n    free(prev);\n",
       "3*nnz*iters", "4*(n+1+nnz)+4*n+$S*n", CSR_SHAPES ";out_deg=n;rank=n",
       CSR_FILL ";out_deg=int:0:9", NULL, "d=0.85", NORMAL,
     .cuda = CU_BLOCK_SUM
             "/* One block runs the iterations from 1 / n, its threads striding over the\n"
             " * vertices: prev = rank, the dangling mass D (a block reduction), then\n"
             " * rank[v] = (1 - d) / n + d (pull sum + D / n). */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank, $T *prev,\n"
             "                                    $T d, int n, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = ($T)1 / n;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        double mine = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            prev[u] = rank[u];\n"
             "            if (out_deg[u] == 0)\n"
             "                mine += prev[u];\n"
             "        }\n"
             "        const double dangling = block_sum(mine, part); /* its barriers publish prev */\n"
             "        const $T base = (1 - d) / n + d * ($T)(dangling / n);\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                if (out_deg[col_idx[k]] > 0)\n"
             "                    sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = base + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", "1024*8", "row_ptr,col_idx,out_deg,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull+block-reduction-shared"),
    OP("push", "f32 f64", PR, "pagerank",
       INC "/* PageRank by `iters` push iterations (row u of the CSR lists u's\n"
       " * out-neighbours): each vertex scatters d rank[u] / deg(u) to its\n"
       " * out-neighbours, on top of 1 - d each; dangling rank is dropped. */\n",
       "const int *row_ptr, const int *col_idx, const $T *r0, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(rank, r0, (size_t)n * sizeof *rank);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++)\n            rank[v] = 1 - d;\n"
       "        for (int u = 0; u < n; u++) {\n            int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "            if (deg == 0)\n                continue;\n            $T share = d * prev[u] / deg;\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                rank[col_idx[k]] += share;\n"
       "        }\n    }\n    free(prev);\n",
       "2*nnz*iters", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";r0=n;rank=n", CSR_FILL ";r0=uni:0.5:1.5",
       NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations, its threads striding over the vertices:\n"
             " * prev = rank and rank = 1 - d, a barrier, then each vertex u adds\n"
             " * d prev[u] / deg(u) to its out-neighbours (atomicAdd). */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const $T *r0, $T *rank, $T *prev, $T d,\n"
             "                                    int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = r0[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            prev[v] = rank[v];\n"
             "            rank[v] = 1 - d;\n"
             "        }\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "            if (deg == 0)\n"
             "                continue;\n"
             "            const $T share = d * prev[u] / deg;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&rank[col_idx[k]], share);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", NULL, "row_ptr,col_idx,r0,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-push-atomics"),
    OP("push-dangling", "f32 f64", PR, "pagerank",
       INC "/* Normalised PageRank by `iters` push iterations from the uniform vector\n"
       " * (row u lists u's out-neighbours); the rank of vertices without\n"
       " * out-edges is spread evenly over all vertices. */\n",
       "const int *row_ptr, const int *col_idx, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = ($T)1 / n;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        double dangling = 0;\n        for (int u = 0; u < n; u++)\n"
       "            if (row_ptr[u + 1] == row_ptr[u])\n                dangling += prev[u];\n"
       "        $T base = (1 - d) / n + d * ($T)(dangling / n);\n"
       "        for (int v = 0; v < n; v++)\n            rank[v] = base;\n"
       "        for (int u = 0; u < n; u++) {\n            int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "                rank[col_idx[k]] += d * prev[u] / deg;\n        }\n    }\n    free(prev);\n",
       "3*nnz*iters", "4*(n+1+nnz)+$S*n", CSR_SHAPES ";rank=n", CSR_FILL, NULL, "d=0.85", NORMAL,
     .cuda = CU_BLOCK_SUM
             "/* One block runs the iterations from 1 / n, its threads striding over the\n"
             " * vertices: prev = rank, the dangling mass (a block reduction), rank = the\n"
             " * teleport base, a barrier, then the pushes (atomicAdd). */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, $T *rank, $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = ($T)1 / n;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        double mine = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            prev[u] = rank[u];\n"
             "            if (row_ptr[u + 1] == row_ptr[u])\n"
             "                mine += prev[u];\n"
             "        }\n"
             "        const double dangling = block_sum(mine, part);\n"
             "        const $T base = (1 - d) / n + d * ($T)(dangling / n);\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            rank[v] = base;\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&rank[col_idx[k]], d * prev[u] / deg);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", "1024*8", "row_ptr,col_idx,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-push-atomics+block-reduction-shared"),
    OP("single-pull", "f32 f64", PR1, "pagerank_step",
       "/* One PageRank pull iteration: r_new[v] = (1 - d) + d sum over in-neighbours\n"
       " * u of r[u] / out_deg[u] (out_deg >= 1). */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const $T *r, $T *r_new, $T d, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        $T sum = 0;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "            sum += r[col_idx[k]] / out_deg[col_idx[k]];\n        r_new[v] = (1 - d) + d * sum;\n    }\n",
       "3*nnz", "4*(n+1+nnz)+4*n+2*$S*n", CSR_SHAPES ";out_deg=n;r=n;r_new=n",
       CSR_FILL ";out_deg=int:1:9;r=uni:0.5:1.5", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One thread per vertex: the pull update in CSR order. */\n"
             "extern \"C\" __global__ void pagerank_step(const int *row_ptr, const int *col_idx, const int *out_deg, const $T *r,\n"
             "                                         $T *r_new, $T d, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    $T sum = 0;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "        sum += r[col_idx[k]] / out_deg[col_idx[k]];\n"
             "    r_new[v] = (1 - d) + d * sum;\n"
             "}\n",
     .launch = {{"pagerank_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,out_deg,r,r_new,d,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("single-push", "f32 f64", PR1, "pagerank_step",
       "/* One PageRank push iteration (row u lists u's out-neighbours): r_new =\n"
       " * 1 - d everywhere, plus d r[u] / deg(u) from each in-neighbour u. */\n",
       "const int *row_ptr, const int *col_idx, const $T *r, $T *r_new, $T d, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        r_new[v] = 1 - d;\n"
       "    for (int u = 0; u < n; u++) {\n        int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            r_new[col_idx[k]] += d * r[u] / deg;\n    }\n",
       "3*nnz", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";r=n;r_new=n", CSR_FILL ";r=uni:0.5:1.5", NULL, "d=0.85",
       {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One thread per vertex: r_new = 1 - d. */\n"
             "extern \"C\" __global__ void teleport($T *r_new, $T d, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        r_new[v] = 1 - d;\n"
             "}\n"
             "\n"
             "/* One thread per vertex u: d r[u] / deg(u) added to each out-neighbour. */\n"
             "extern \"C\" __global__ void pagerank_step(const int *row_ptr, const int *col_idx, const $T *r, $T *r_new, $T d, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        atomicAdd(&r_new[col_idx[k]], d * r[u] / deg);\n"
             "}\n",
     .launch = {{"teleport", "(n+255)/256", "256", NULL, "r_new,d,n"},
                {"pagerank_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,r,r_new,d,n"}},
     .mapping = "one-vertex-per-thread-push-atomics"),
    OP("residual-history", "f32 f64", PR, "pagerank",
       INC "/* PageRank pull iterations (Brin-Page scaling, from rank = 1) that record\n"
       " * the L1 change of every iteration in residual[it]. */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank, $T *residual, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        double change = 0;\n        for (int v = 0; v < n; v++) {\n" PULL_SUM("prev")
       "            rank[v] = (1 - d) + d * sum;\n            change += rank[v] > prev[v] ? rank[v] - prev[v] : prev[v] - rank[v];\n"
       "        }\n        residual[it] = ($T)change;\n    }\n    free(prev);\n",
       "4*nnz*iters", "4*(n+1+nnz)+4*n+$S*n", CSR_SHAPES ";out_deg=n;rank=n;residual=iters",
       CSR_FILL ";out_deg=int:1:9", NULL, "d=0.85", {1e-4, 1e-3}, {1e-9, 1e-6},
     .cuda = CU_BLOCK_SUM
             "/* One block runs the iterations from rank = 1, its threads striding over\n"
             " * the vertices: prev = rank, a barrier, the pull update, and the L1 change\n"
             " * summed by a block reduction into residual[it]. */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank,\n"
             "                                    $T *residual, $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        double change = 0;\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = (1 - d) + d * sum;\n"
             "            change += rank[v] > prev[v] ? rank[v] - prev[v] : prev[v] - rank[v];\n"
             "        }\n"
             "        change = block_sum(change, part);\n"
             "        if (threadIdx.x == 0)\n"
             "            residual[it] = ($T)change;\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", "1024*8", "row_ptr,col_idx,out_deg,rank,residual,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull+block-reduction-shared"),
    OP("weighted-pull", "f32 f64", PR, "pagerank",
       INC "/* Weighted PageRank by `iters` pull iterations from rank = 1: an in-edge\n"
       " * (u, v) of weight w carries the fraction w / out_weight[u] of u's rank;\n"
       " * rank[v] = (1 - d) + d sum of those shares. */\n",
       "const int *row_ptr, const int *col_idx, const $T *w, const $T *out_weight, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n            $T sum = 0;\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "                sum += w[k] * prev[col_idx[k]] / out_weight[col_idx[k]];\n"
       "            rank[v] = (1 - d) + d * sum;\n        }\n    }\n    free(prev);\n",
       "4*nnz*iters", "4*(n+1+nnz)+$S*nnz+2*$S*n", CSR_SHAPES ";w=nnz;out_weight=n;rank=n",
       CSR_FILL ";w=uni:0.1:1;out_weight=uni:2:6", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from rank = 1, its threads striding over\n"
             " * the vertices: prev = rank, a barrier, then the weighted pull update. */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const $T *w, const $T *out_weight,\n"
             "                                    $T *rank, $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += w[k] * prev[col_idx[k]] / out_weight[col_idx[k]];\n"
             "            rank[v] = (1 - d) + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", NULL, "row_ptr,col_idx,w,out_weight,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("weighted-push", "f32 f64", PR, "pagerank",
       INC "/* Weighted PageRank by `iters` push iterations from rank = 1: u sends\n"
       " * d rank[u] w / (total weight of u's out-edges) along each out-edge of\n"
       " * weight w; every vertex also gets 1 - d. */\n",
       "const int *row_ptr, const int *col_idx, const $T *w, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++)\n            rank[v] = 1 - d;\n"
       "        for (int u = 0; u < n; u++) {\n            $T total = 0;\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                total += w[k];\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "                rank[col_idx[k]] += d * prev[u] * w[k] / total;\n        }\n    }\n    free(prev);\n",
       "5*nnz*iters", "4*(n+1+nnz)+$S*nnz+$S*n", CSR_SHAPES ";w=nnz;rank=n",
       CSR_FILL ";w=uni:0.1:1", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from rank = 1, its threads striding over\n"
             " * the vertices: prev = rank and rank = 1 - d, a barrier, then each vertex\n"
             " * sends d prev[u] w / (its out-weight) along each out-edge (atomicAdd). */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const $T *w, $T *rank, $T *prev, $T d,\n"
             "                                    int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            prev[v] = rank[v];\n"
             "            rank[v] = 1 - d;\n"
             "        }\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            $T total = 0;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                total += w[k];\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&rank[col_idx[k]], d * prev[u] * w[k] / total);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", NULL, "row_ptr,col_idx,w,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-push-atomics"),
    OP("personalized-pull", "f32 f64", PR, "personalized_pagerank",
       INC "/* Personalised PageRank by `iters` pull iterations from p: the teleport\n"
       " * goes to the vector p, rank[v] = (1 - d) p[v] + d sum over in-neighbours\n"
       " * u of rank[u] / out_deg[u] (out_deg >= 1). */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const $T *p, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(rank, p, (size_t)n * sizeof *rank);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n" PULL_SUM("prev") "            rank[v] = (1 - d) * p[v] + d * sum;\n        }\n"
       "    }\n    free(prev);\n",
       "4*nnz*iters", "4*(n+1+nnz)+4*n+2*$S*n", CSR_SHAPES ";out_deg=n;p=n;rank=n",
       CSR_FILL ";out_deg=int:1:9;p=uni:0:2", NULL, "d=0.85", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from p, its threads striding over the\n"
             " * vertices: prev = rank, a barrier, then rank[v] = (1 - d) p[v] + d (pull\n"
             " * sum). */\n"
             "extern \"C\" __global__ void personalized_pagerank(const int *row_ptr, const int *col_idx, const int *out_deg,\n"
             "                                                 const $T *p, $T *rank, $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = p[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = (1 - d) * p[v] + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"personalized_pagerank", "1", "1024", NULL, "row_ptr,col_idx,out_deg,p,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("personalized-push", "f32 f64", PR, "personalized_pagerank",
       INC "/* Personalised PageRank by `iters` push iterations from p (row u lists u's\n"
       " * out-neighbours): rank = (1 - d) p plus d rank[u] / deg(u) from every\n"
       " * in-neighbour u; dangling rank is dropped. */\n",
       "const int *row_ptr, const int *col_idx, const $T *p, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(rank, p, (size_t)n * sizeof *rank);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++)\n            rank[v] = (1 - d) * p[v];\n"
       "        for (int u = 0; u < n; u++) {\n            int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "                rank[col_idx[k]] += d * prev[u] / deg;\n        }\n    }\n    free(prev);\n",
       "3*nnz*iters", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";p=n;rank=n", CSR_FILL ";p=uni:0:2", NULL, "d=0.85",
       {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from p, its threads striding over the\n"
             " * vertices: prev = rank and rank = (1 - d) p, a barrier, then the pushes\n"
             " * (atomicAdd). */\n"
             "extern \"C\" __global__ void personalized_pagerank(const int *row_ptr, const int *col_idx, const $T *p, $T *rank,\n"
             "                                                 $T *prev, $T d, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = p[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            prev[v] = rank[v];\n"
             "            rank[v] = (1 - d) * p[v];\n"
             "        }\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&rank[col_idx[k]], d * prev[u] / deg);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"personalized_pagerank", "1", "1024", NULL, "row_ptr,col_idx,p,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-push-atomics"),
    OP("personalized-seeds", "f32 f64", PRS, "personalized_pagerank",
       INC "/* Personalised PageRank towards a seed set by `iters` pull iterations:\n"
       " * the teleport mass (1 - d) is shared equally by the ns seed entries\n"
       " * (a repeated seed counts twice); rank starts at the teleport vector. */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const int *seeds, $T *rank, $T d, int n, int nnz, int iters, int ns",
       NNZ_UNUSED SCRATCH("tele") "    $T *prev = malloc((size_t)n * sizeof *prev);\n"
       "    if (!prev) {\n        free(tele);\n        return;\n    }\n"
       "    for (int v = 0; v < n; v++)\n        tele[v] = 0;\n"
       "    for (int s = 0; s < ns; s++)\n        tele[seeds[s]] += (1 - d) / ns;\n"
       "    memcpy(rank, tele, (size_t)n * sizeof *rank);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n" PULL_SUM("prev") "            rank[v] = tele[v] + d * sum;\n        }\n"
       "    }\n    free(prev);\n    free(tele);\n",
       "3*nnz*iters", "4*(n+1+nnz)+4*n+4*ns+$S*n", CSR_SHAPES ";out_deg=n;seeds=ns;rank=n",
       CSR_FILL ";out_deg=int:1:9;seeds=int:0:n", NULL, "d=0.85", {1e-9, 1e-3}, {1e-14, 1e-9},
     .cuda = "/* One block: the teleport vector (each seed entry adds (1 - d) / ns; equal\n"
             " * addends, so the order of the atomic adds does not matter), rank = tele,\n"
             " * then the iterations, its threads striding over the vertices. */\n"
             "extern \"C\" __global__ void personalized_pagerank(const int *row_ptr, const int *col_idx, const int *out_deg,\n"
             "                                                 const int *seeds, $T *rank, $T *tele, $T *prev, $T d, int n,\n"
             "                                                 int iters, int ns)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        tele[v] = 0;\n"
             "    __syncthreads();\n"
             "    for (int s = threadIdx.x; s < ns; s += blockDim.x)\n"
             "        atomicAdd(&tele[seeds[s]], (1 - d) / ns);\n"
             "    __syncthreads();\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = tele[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = tele[v] + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"personalized_pagerank", "1", "1024", NULL, "row_ptr,col_idx,out_deg,seeds,rank,tele,prev,d,n,iters,ns"}},
     .scratch = "tele:$T:n;prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("personalized-batch", "f32 f64", PRB, "personalized_pagerank",
       INC "/* k personalised PageRank vectors at once, one per seed vertex: row j of\n"
       " * rank (k x n) teleports to seeds[j]; `iters` pull iterations from the\n"
       " * teleport vectors. */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const int *seeds, $T *rank, $T d, int n, int nnz, int iters, int k",
       NNZ_UNUSED "    $T *prev = malloc((size_t)k * n * sizeof *prev);\n    if (!prev)\n        return;\n"
       "    for (int j = 0; j < k; j++) {\n        $T *r = rank + (size_t)j * n;\n"
       "        for (int v = 0; v < n; v++)\n            r[v] = 0;\n        r[seeds[j]] = 1 - d;\n    }\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)k * n * sizeof *prev);\n"
       "        for (int j = 0; j < k; j++) {\n            const $T *p = prev + (size_t)j * n;\n"
       "            $T *r = rank + (size_t)j * n;\n            for (int v = 0; v < n; v++) {\n"
       "                $T sum = 0;\n                for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)\n"
       "                    sum += p[col_idx[e]] / out_deg[col_idx[e]];\n"
       "                r[v] = (v == seeds[j] ? 1 - d : 0) + d * sum;\n            }\n        }\n    }\n    free(prev);\n",
       "3*nnz*iters*k", "4*(n+1+nnz)+4*n+4*k+$S*n*k", CSR_SHAPES ";out_deg=n;seeds=k;rank=k,n",
       CSR_FILL ";out_deg=int:1:9;seeds=int:0:n", NULL, "d=0.85", {1e-9, 1e-3}, {1e-14, 1e-9},
     .cuda = "/* One block runs the iterations of all k vectors, its threads striding over\n"
             " * the k x n entries (row j teleports to seeds[j]): prev = rank, a barrier,\n"
             " * then the pull update of every entry. */\n"
             "extern \"C\" __global__ void personalized_pagerank(const int *row_ptr, const int *col_idx, const int *out_deg,\n"
             "                                                 const int *seeds, $T *rank, $T *prev, $T d, int n, int iters, int k)\n"
             "{\n"
             "    const long long total = (long long)k * n;\n"
             "    for (long long t = threadIdx.x; t < total; t += blockDim.x)\n"
             "        rank[t] = t % n == seeds[t / n] ? 1 - d : 0;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (long long t = threadIdx.x; t < total; t += blockDim.x)\n"
             "            prev[t] = rank[t];\n"
             "        __syncthreads();\n"
             "        for (long long t = threadIdx.x; t < total; t += blockDim.x) {\n"
             "            const long long j = t / n;\n"
             "            const int v = (int)(t % n);\n"
             "            const $T *p = prev + j * n;\n"
             "            $T sum = 0;\n"
             "            for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)\n"
             "                sum += p[col_idx[e]] / out_deg[col_idx[e]];\n"
             "            rank[t] = (v == seeds[j] ? 1 - d : 0) + d * sum;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"personalized_pagerank", "1", "1024", NULL, "row_ptr,col_idx,out_deg,seeds,rank,prev,d,n,iters,k"}},
     .scratch = "prev:$T:k*n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("hits-l2", "f32 f64", PR1, "hits_step",
       "#include <math.h>\n\n/* One HITS step (row u lists u's out-links): authority[v] = sum of hub[u]\n"
       " * over links u -> v, then hub_out[u] = sum of the new authorities of u's\n"
       " * targets; both are scaled to unit L2 norm (when not zero). */\n"
       "static void normalize($T *x, int n)\n{\n    double s = 0;\n"
       "    for (int i = 0; i < n; i++)\n        s += (double)x[i] * x[i];\n    if (s == 0)\n        return;\n"
       "    $T inv = ($T)(1 / sqrt(s));\n    for (int i = 0; i < n; i++)\n        x[i] *= inv;\n}\n\n",
       "const int *row_ptr, const int *col_idx, const $T *hub, $T *auth, $T *hub_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        auth[v] = 0;\n    for (int u = 0; u < n; u++)\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            auth[col_idx[k]] += hub[u];\n"
       "    normalize(auth, n);\n    for (int u = 0; u < n; u++) {\n        $T s = 0;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            s += auth[col_idx[k]];\n"
       "        hub_out[u] = s;\n    }\n    normalize(hub_out, n);\n",
       "4*nnz+6*n", "4*(n+1+nnz)+3*$S*n", CSR_SHAPES ";hub=n;auth=n;hub_out=n", CSR_FILL ";hub=uni:0:1",
       NULL, NULL, UNIT,
     .cuda = CU_NORM_KERNELS
             "/* One thread per vertex: x *= 1 / sqrt(total), unless total is 0. */\n"
             "extern \"C\" __global__ void scale_l2($T *x, const double *total, int n)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n || total[0] == 0)\n"
             "        return;\n"
             "    const $T inv = ($T)(1 / sqrt(total[0]));\n"
             "    x[i] *= inv;\n"
             "}\n",
     .launch = {{"zero_auth", "(n+255)/256", "256", NULL, "auth,n"},
                {"push_hubs", "(n+255)/256", "256", NULL, "row_ptr,col_idx,hub,auth,n"},
                {"norm_sum", "1", "256", "256*8", "auth,total,n,1"},
                {"scale_l2", "(n+255)/256", "256", NULL, "auth,total,n"},
                {"pull_auths", "(n+255)/256", "256", NULL, "row_ptr,col_idx,auth,hub_out,n"},
                {"norm_sum", "1", "256", "256*8", "hub_out,total,n,1"},
                {"scale_l2", "(n+255)/256", "256", NULL, "hub_out,total,n"}},
     .scratch = "total:f64:1",
     .mapping = "one-vertex-per-thread-push-atomics+block-reduction-shared"),
    OP("hits-l1", "f32 f64", PR1, "hits_step",
       "/* One HITS step (row u lists u's out-links) with L1 normalisation:\n"
       " * authorities from hubs, then hubs from the new authorities, each scaled\n"
       " * to sum 1 (when not zero). */\n"
       "static void normalize($T *x, int n)\n{\n    double s = 0;\n"
       "    for (int i = 0; i < n; i++)\n        s += x[i];\n    if (s == 0)\n        return;\n"
       "    for (int i = 0; i < n; i++)\n        x[i] = ($T)(x[i] / s);\n}\n\n",
       "const int *row_ptr, const int *col_idx, const $T *hub, $T *auth, $T *hub_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        auth[v] = 0;\n    for (int u = 0; u < n; u++)\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            auth[col_idx[k]] += hub[u];\n"
       "    normalize(auth, n);\n    for (int u = 0; u < n; u++) {\n        $T s = 0;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            s += auth[col_idx[k]];\n"
       "        hub_out[u] = s;\n    }\n    normalize(hub_out, n);\n",
       "4*nnz+4*n", "4*(n+1+nnz)+3*$S*n", CSR_SHAPES ";hub=n;auth=n;hub_out=n", CSR_FILL ";hub=uni:0:1",
       NULL, NULL, NORMAL,
     .cuda = CU_NORM_KERNELS
             "/* One thread per vertex: x /= total, unless total is 0. */\n"
             "extern \"C\" __global__ void scale_l1($T *x, const double *total, int n)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n || total[0] == 0)\n"
             "        return;\n"
             "    x[i] = ($T)(x[i] / total[0]);\n"
             "}\n",
     .launch = {{"zero_auth", "(n+255)/256", "256", NULL, "auth,n"},
                {"push_hubs", "(n+255)/256", "256", NULL, "row_ptr,col_idx,hub,auth,n"},
                {"norm_sum", "1", "256", "256*8", "auth,total,n,0"},
                {"scale_l1", "(n+255)/256", "256", NULL, "auth,total,n"},
                {"pull_auths", "(n+255)/256", "256", NULL, "row_ptr,col_idx,auth,hub_out,n"},
                {"norm_sum", "1", "256", "256*8", "hub_out,total,n,0"},
                {"scale_l1", "(n+255)/256", "256", NULL, "hub_out,total,n"}},
     .scratch = "total:f64:1",
     .mapping = "one-vertex-per-thread-push-atomics+block-reduction-shared"),
    OP("hits-iters", "f64", PR, "hits",
       "#include <math.h>\n\n/* `iters` HITS iterations from unit hubs (row u lists u's out-links):\n"
       " * authorities from hubs, hubs from authorities, each L2-normalised. */\n"
       "static void normalize($T *x, int n)\n{\n    $T s = 0;\n"
       "    for (int i = 0; i < n; i++)\n        s += x[i] * x[i];\n    if (s == 0)\n        return;\n"
       "    s = sqrt(s);\n    for (int i = 0; i < n; i++)\n        x[i] /= s;\n}\n\n",
       "const int *row_ptr, const int *col_idx, $T *auth, $T *hub, int n, int nnz, int iters",
       NNZ_UNUSED "    for (int u = 0; u < n; u++)\n        hub[u] = 1;\n    for (int it = 0; it < iters; it++) {\n"
       "        for (int v = 0; v < n; v++)\n            auth[v] = 0;\n        for (int u = 0; u < n; u++)\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                auth[col_idx[k]] += hub[u];\n"
       "        normalize(auth, n);\n        for (int u = 0; u < n; u++) {\n            hub[u] = 0;\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                hub[u] += auth[col_idx[k]];\n"
       "        }\n        normalize(hub, n);\n    }\n",
       "4*nnz*iters", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";auth=n;hub=n", CSR_FILL, NULL, NULL, UNIT,
     .cuda = CU_BLOCK_SUM
             "/* x /= sqrt(sum x^2) over the block's vertices, unless the sum is 0. */\n"
             "__device__ void normalize($T *x, int n, double *part)\n"
             "{\n"
             "    $T s = 0;\n"
             "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
             "        s += x[i] * x[i];\n"
             "    s = block_sum(s, part);\n"
             "    if (s == 0)\n"
             "        return;\n"
             "    s = sqrt(s);\n"
             "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
             "        x[i] /= s;\n"
             "}\n"
             "\n"
             "/* One block runs the iterations from unit hubs, its threads striding over\n"
             " * the vertices: authorities by atomic pushes, normalised; hubs by pulls,\n"
             " * normalised; barriers between the phases. */\n"
             "extern \"C\" __global__ void hits(const int *row_ptr, const int *col_idx, $T *auth, $T *hub, int n, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int u = threadIdx.x; u < n; u += blockDim.x)\n"
             "        hub[u] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            auth[v] = 0;\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x)\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&auth[col_idx[k]], hub[u]);\n"
             "        __syncthreads();\n"
             "        normalize(auth, n, part);\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            $T s = 0;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                s += auth[col_idx[k]];\n"
             "            hub[u] = s;\n"
             "        }\n"
             "        __syncthreads();\n"
             "        normalize(hub, n, part);\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"hits", "1", "1024", "1024*8", "row_ptr,col_idx,auth,hub,n,iters"}},
     .mapping = "one-block-synchronous-iterations+block-reduction-shared"),
    OP("hits-bipartite", "f32 f64", BIP, "hits",
       "#include <math.h>\n\n/* HITS on a bipartite user-item graph (row u lists the items user u\n"
       " * links to): `iters` rounds of item scores from user scores and user\n"
       " * scores from item scores, each L2-normalised; users start at 1. */\n"
       "static void normalize($T *x, int n)\n{\n    double s = 0;\n"
       "    for (int i = 0; i < n; i++)\n        s += (double)x[i] * x[i];\n    if (s == 0)\n        return;\n"
       "    $T inv = ($T)(1 / sqrt(s));\n    for (int i = 0; i < n; i++)\n        x[i] *= inv;\n}\n\n",
       "const int *row_ptr, const int *col_idx, $T *user, $T *item, int nu, int ni, int nnz, int iters",
       NNZ_UNUSED "    for (int u = 0; u < nu; u++)\n        user[u] = 1;\n    for (int it = 0; it < iters; it++) {\n"
       "        for (int i = 0; i < ni; i++)\n            item[i] = 0;\n        for (int u = 0; u < nu; u++)\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                item[col_idx[k]] += user[u];\n"
       "        normalize(item, ni);\n        for (int u = 0; u < nu; u++) {\n            $T s = 0;\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                s += item[col_idx[k]];\n"
       "            user[u] = s;\n        }\n        normalize(user, nu);\n    }\n",
       "4*nnz*iters", "4*(nu+1+nnz)+$S*(nu+ni)", "row_ptr=nu+1;col_idx=nnz;user=nu;item=ni",
       "row_ptr=part:nnz;col_idx=int:0:ni", NULL, NULL, UNIT,
     .cuda = CU_BLOCK_SUM
             "/* x *= 1 / sqrt(sum x^2) (the sum in double), unless the sum is 0. */\n"
             "__device__ void normalize($T *x, int n, double *part)\n"
             "{\n"
             "    double s = 0;\n"
             "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
             "        s += (double)x[i] * x[i];\n"
             "    s = block_sum(s, part);\n"
             "    if (s == 0)\n"
             "        return;\n"
             "    const $T inv = ($T)(1 / sqrt(s));\n"
             "    for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
             "        x[i] *= inv;\n"
             "}\n"
             "\n"
             "/* One block runs the iterations from unit user scores, its threads striding\n"
             " * over users and items: item scores by atomic pushes, normalised; user\n"
             " * scores by pulls, normalised; barriers between the phases. */\n"
             "extern \"C\" __global__ void hits(const int *row_ptr, const int *col_idx, $T *user, $T *item, int nu, int ni, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int u = threadIdx.x; u < nu; u += blockDim.x)\n"
             "        user[u] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        for (int i = threadIdx.x; i < ni; i += blockDim.x)\n"
             "            item[i] = 0;\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < nu; u += blockDim.x)\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&item[col_idx[k]], user[u]);\n"
             "        __syncthreads();\n"
             "        normalize(item, ni, part);\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < nu; u += blockDim.x) {\n"
             "            $T s = 0;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                s += item[col_idx[k]];\n"
             "            user[u] = s;\n"
             "        }\n"
             "        __syncthreads();\n"
             "        normalize(user, nu, part);\n"
             "        __syncthreads();\n"
             "    }\n"
             "}\n",
     .launch = {{"hits", "1", "1024", "1024*8", "row_ptr,col_idx,user,item,nu,ni,iters"}},
     .mapping = "one-block-synchronous-iterations+block-reduction-shared"),
    OP("katz-pull", "f32 f64", PR, "katz",
       INC "/* Katz centrality by `iters` pull iterations from x = beta:\n"
       " * x[v] = alpha sum over in-neighbours u of x[u] + beta[v]. */\n",
       "const int *row_ptr, const int *col_idx, const $T *beta, $T *x, $T alpha, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(x, beta, (size_t)n * sizeof *x);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, x, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n            $T sum = 0;\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n                sum += prev[col_idx[k]];\n"
       "            x[v] = alpha * sum + beta[v];\n        }\n    }\n    free(prev);\n",
       "2*nnz*iters", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";beta=n;x=n", CSR_FILL ";beta=uni:0.5:1.5",
       NULL, "alpha=0.04", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from beta, its threads striding over the\n"
             " * vertices: prev = x, a barrier, then x[v] = alpha (pull sum) + beta[v]. */\n"
             "extern \"C\" __global__ void katz(const int *row_ptr, const int *col_idx, const $T *beta, $T *x, $T *prev, $T alpha,\n"
             "                                int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        x[v] = beta[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = x[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]];\n"
             "            x[v] = alpha * sum + beta[v];\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"katz", "1", "1024", NULL, "row_ptr,col_idx,beta,x,prev,alpha,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull"),
    OP("katz-push", "f32 f64", PR, "katz",
       INC "/* Katz centrality by `iters` push iterations (row u lists u's\n"
       " * out-neighbours): x_new = beta + alpha sum of x over in-neighbours. */\n",
       "const int *row_ptr, const int *col_idx, const $T *beta, $T *x, $T alpha, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    memcpy(x, beta, (size_t)n * sizeof *x);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, x, (size_t)n * sizeof *prev);\n"
       "        memcpy(x, beta, (size_t)n * sizeof *x);\n        for (int u = 0; u < n; u++)\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n                x[col_idx[k]] += alpha * prev[u];\n"
       "    }\n    free(prev);\n",
       "2*nnz*iters", "4*(n+1+nnz)+2*$S*n", CSR_SHAPES ";beta=n;x=n", CSR_FILL ";beta=uni:0.5:1.5",
       NULL, "alpha=0.04", {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One block runs the iterations from beta, its threads striding over the\n"
             " * vertices: prev = x and x = beta, a barrier, then each vertex adds\n"
             " * alpha prev[u] to its out-neighbours (atomicAdd). */\n"
             "extern \"C\" __global__ void katz(const int *row_ptr, const int *col_idx, const $T *beta, $T *x, $T *prev, $T alpha,\n"
             "                                int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        x[v] = beta[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            prev[v] = x[v];\n"
             "            x[v] = beta[v];\n"
             "        }\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x)\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                atomicAdd(&x[col_idx[k]], alpha * prev[u]);\n"
             "    }\n"
             "}\n",
     .launch = {{"katz", "1", "1024", NULL, "row_ptr,col_idx,beta,x,prev,alpha,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-push-atomics"),
    OP("eigenvector", "f32 f64", PR, "eigenvector_centrality",
       "#include <math.h>\n" INC "/* Eigenvector centrality by `iters` power iterations from the all-ones\n"
       " * vector: x[v] = sum over in-neighbours u of x[u] + x[v] (the shift keeps\n"
       " * the iteration from oscillating), then x is scaled to unit L2 norm. */\n",
       "const int *row_ptr, const int *col_idx, $T *x, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        x[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, x, (size_t)n * sizeof *prev);\n"
       "        double norm = 0;\n        for (int v = 0; v < n; v++) {\n            $T sum = prev[v];\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n                sum += prev[col_idx[k]];\n"
       "            x[v] = sum;\n            norm += (double)sum * sum;\n        }\n"
       "        $T inv = ($T)(1 / sqrt(norm));\n        for (int v = 0; v < n; v++)\n            x[v] *= inv;\n"
       "    }\n    free(prev);\n",
       "2*nnz*iters", "4*(n+1+nnz)+$S*n", CSR_SHAPES ";x=n", CSR_FILL, NULL, NULL, UNIT,
     .cuda = CU_BLOCK_SUM
             "/* One block runs the power iterations from ones, its threads striding over\n"
             " * the vertices: prev = x, a barrier, x[v] = prev[v] + pull sum, the squared\n"
             " * norm by a block reduction, then x scaled to unit norm. */\n"
             "extern \"C\" __global__ void eigenvector_centrality(const int *row_ptr, const int *col_idx, $T *x, $T *prev, int n,\n"
             "                                                  int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        x[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = x[v];\n"
             "        __syncthreads();\n"
             "        double norm = 0;\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = prev[v];\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]];\n"
             "            x[v] = sum;\n"
             "            norm += (double)sum * sum;\n"
             "        }\n"
             "        norm = block_sum(norm, part);\n"
             "        const $T inv = ($T)(1 / sqrt(norm));\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            x[v] *= inv;\n"
             "    }\n"
             "}\n",
     .launch = {{"eigenvector_centrality", "1", "1024", "1024*8", "row_ptr,col_idx,x,prev,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull+block-reduction-shared"),
    OP("delta-step", "f32 f64", PR1, "pagerank_delta",
       "/* One step of delta-based PageRank (pull): the change pushed this round is\n"
       " * delta_new[v] = d sum over in-neighbours u of delta[u] / out_deg[u], and\n"
       " * it is added to the ranks. */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, const $T *rank, const $T *delta, $T *rank_out, $T *delta_out, $T d, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        $T sum = 0;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "            sum += delta[col_idx[k]] / out_deg[col_idx[k]];\n"
       "        delta_out[v] = d * sum;\n        rank_out[v] = rank[v] + delta_out[v];\n    }\n",
       "4*nnz", "4*(n+1+nnz)+4*n+4*$S*n", CSR_SHAPES ";out_deg=n;rank=n;delta=n;rank_out=n;delta_out=n",
       CSR_FILL ";out_deg=int:1:9;rank=uni:0.5:1.5;delta=uni:-0.1:0.1", NULL, "d=0.85", {1e-5, 1e-4}, {0, 0},
     .cuda = "/* One thread per vertex: the pulled change, added to the rank. */\n"
             "extern \"C\" __global__ void pagerank_delta(const int *row_ptr, const int *col_idx, const int *out_deg, const $T *rank,\n"
             "                                          const $T *delta, $T *rank_out, $T *delta_out, $T d, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    $T sum = 0;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "        sum += delta[col_idx[k]] / out_deg[col_idx[k]];\n"
             "    const $T change = d * sum;\n"
             "    delta_out[v] = change;\n"
             "    rank_out[v] = rank[v] + change;\n"
             "}\n",
     .launch = {{"pagerank_delta", "(n+255)/256", "256", NULL, "row_ptr,col_idx,out_deg,rank,delta,rank_out,delta_out,d,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("pull-normalized", "f32 f64", PR, "pagerank",
       INC "/* PageRank by `iters` pull iterations from rank = 1 (Brin-Page scaling,\n"
       " * out_deg >= 1), then scaled so the ranks sum to 1. */\n",
       "const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank, $T d, int n, int nnz, int iters",
       NNZ_UNUSED SCRATCH("prev") "    for (int v = 0; v < n; v++)\n        rank[v] = 1;\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, rank, (size_t)n * sizeof *prev);\n"
       "        for (int v = 0; v < n; v++) {\n" PULL_SUM("prev") "            rank[v] = (1 - d) + d * sum;\n        }\n"
       "    }\n    double total = 0;\n    for (int v = 0; v < n; v++)\n        total += rank[v];\n"
       "    for (int v = 0; v < n; v++)\n        rank[v] = ($T)(rank[v] / total);\n    free(prev);\n",
       "3*nnz*iters", "4*(n+1+nnz)+4*n+$S*n", CSR_SHAPES ";out_deg=n;rank=n",
       CSR_FILL ";out_deg=int:1:9", NULL, "d=0.85", NORMAL,
     .cuda = CU_BLOCK_SUM
             "/* One block runs the iterations from rank = 1, its threads striding over\n"
             " * the vertices, then divides by the total (a block reduction in double). */\n"
             "extern \"C\" __global__ void pagerank(const int *row_ptr, const int *col_idx, const int *out_deg, $T *rank, $T *prev,\n"
             "                                    $T d, int n, int iters)\n"
             "{\n"
             "    extern __shared__ double part[];\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = 1;\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = rank[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            $T sum = 0;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                sum += prev[col_idx[k]] / out_deg[col_idx[k]];\n"
             "            rank[v] = (1 - d) + d * sum;\n"
             "        }\n"
             "    }\n"
             "    double mine = 0;\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        mine += rank[v];\n"
             "    const double total = block_sum(mine, part);\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        rank[v] = ($T)(rank[v] / total);\n"
             "}\n",
     .launch = {{"pagerank", "1", "1024", "1024*8", "row_ptr,col_idx,out_deg,rank,prev,d,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-iterations-pull+block-reduction-shared"),
    OP("out-degree", "i32", DEGN, "degrees",
       "/* Out-degrees from the CSR row pointers. */\n", "const int *row_ptr, int *deg, int n",
       "    for (int v = 0; v < n; v++)\n        deg[v] = row_ptr[v + 1] - row_ptr[v];\n",
       "n", "8*n+4", "row_ptr=n+1;deg=n", "row_ptr=part:4*n", NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: the difference of its row pointers. */\n"
             "extern \"C\" __global__ void degrees(const int *row_ptr, int *deg, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        deg[v] = row_ptr[v + 1] - row_ptr[v];\n"
             "}\n",
     .launch = {{"degrees", "(n+255)/256", "256", NULL, "row_ptr,deg,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("in-degree", "i32", DEG, "degrees",
       "/* In-degrees: how many stored edges point at each vertex. */\n",
       "const int *col_idx, int *deg, int n, int nnz",
       "    for (int v = 0; v < n; v++)\n        deg[v] = 0;\n    for (int k = 0; k < nnz; k++)\n        deg[col_idx[k]]++;\n",
       "nnz", "4*nnz+4*n", "col_idx=nnz;deg=n", "col_idx=int:0:n", NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: deg = 0. */\n"
             "extern \"C\" __global__ void zero_degrees(int *deg, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        deg[v] = 0;\n"
             "}\n"
             "\n"
             "/* One thread per stored edge: its target's in-degree += 1. */\n"
             "extern \"C\" __global__ void degrees(const int *col_idx, int *deg, int nnz)\n"
             "{\n"
             "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (k < nnz)\n"
             "        atomicAdd(&deg[col_idx[k]], 1);\n"
             "}\n",
     .launch = {{"zero_degrees", "(n+255)/256", "256", NULL, "deg,n"},
                {"degrees", "(nnz+255)/256", "256", NULL, "col_idx,deg,nnz"}},
     .mapping = "one-edge-per-thread-global-atomics"),
    OP("in-out-degree", "i32 i64", DEG, "degrees",
       "#include <stdint.h>\n\n/* In- and out-degrees of a CSR graph with $T indices. */\n",
       "const $T *row_ptr, const $T *col_idx, int *in_deg, int *out_deg, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        in_deg[v] = 0;\n"
       "        out_deg[v] = (int)(row_ptr[v + 1] - row_ptr[v]);\n    }\n"
       "    for (int u = 0; u < n; u++)\n        for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            in_deg[col_idx[k]]++;\n",
       "nnz+n", "$S*(n+1+nnz)+8*n", CSR_SHAPES ";in_deg=n;out_deg=n", CSR_FILL, NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: in_deg = 0, out_deg from the row pointers. */\n"
             "extern \"C\" __global__ void init_degrees(const $T *row_ptr, int *in_deg, int *out_deg, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    in_deg[v] = 0;\n"
             "    out_deg[v] = (int)(row_ptr[v + 1] - row_ptr[v]);\n"
             "}\n"
             "\n"
             "/* One thread per vertex u: each of its out-neighbours' in-degree += 1. */\n"
             "extern \"C\" __global__ void degrees(const $T *row_ptr, const $T *col_idx, int *in_deg, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        atomicAdd(&in_deg[col_idx[k]], 1);\n"
             "}\n",
     .launch = {{"init_degrees", "(n+255)/256", "256", NULL, "row_ptr,in_deg,out_deg,n"},
                {"degrees", "(n+255)/256", "256", NULL, "row_ptr,col_idx,in_deg,n"}},
     .mapping = "one-vertex-per-thread-push-atomics"),
    OP("strength", "f32 f64", DEG, "strengths",
       "/* Weighted degrees (strengths): out_w[u] sums the weights of u's stored\n"
       " * out-edges, in_w[v] those of the edges into v. */\n",
       "const int *row_ptr, const int *col_idx, const $T *w, $T *out_w, $T *in_w, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        in_w[v] = 0;\n    for (int u = 0; u < n; u++) {\n"
       "        $T s = 0;\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            s += w[k];\n"
       "            in_w[col_idx[k]] += w[k];\n        }\n        out_w[u] = s;\n    }\n",
       "2*nnz", "4*(n+1+nnz)+$S*nnz+2*$S*n", CSR_SHAPES ";w=nnz;out_w=n;in_w=n", CSR_FILL ";w=uni:0:1",
       NULL, NULL, {1e-4, 1e-4}, {0, 0},
     .cuda = "/* One thread per vertex: in_w = 0. */\n"
             "extern \"C\" __global__ void zero_in($T *in_w, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        in_w[v] = 0;\n"
             "}\n"
             "\n"
             "/* One thread per vertex u: its out-weights summed in order, each also added\n"
             " * to its target's in-weight (atomicAdd). */\n"
             "extern \"C\" __global__ void strengths(const int *row_ptr, const int *col_idx, const $T *w, $T *out_w, $T *in_w, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    $T s = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        s += w[k];\n"
             "        atomicAdd(&in_w[col_idx[k]], w[k]);\n"
             "    }\n"
             "    out_w[u] = s;\n"
             "}\n",
     .launch = {{"zero_in", "(n+255)/256", "256", NULL, "in_w,n"},
                {"strengths", "(n+255)/256", "256", NULL, "row_ptr,col_idx,w,out_w,in_w,n"}},
     .mapping = "one-vertex-per-thread-push-atomics"),
    OP("inverse-degree", "f32", DEGN, "inverse_degree",
       "/* 1 / out-degree per vertex (0 for a vertex without out-edges), the\n * scaling a PageRank push uses. */\n",
       "const int *row_ptr, $T *inv_deg, int n",
       "    for (int v = 0; v < n; v++) {\n        int deg = row_ptr[v + 1] - row_ptr[v];\n"
       "        inv_deg[v] = deg > 0 ? 1.0$F / deg : 0;\n    }\n",
       "2*n", "8*n+4", "row_ptr=n+1;inv_deg=n", "row_ptr=part:4*n", NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: 1 / out-degree, 0 without out-edges. */\n"
             "extern \"C\" __global__ void inverse_degree(const int *row_ptr, $T *inv_deg, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    const int deg = row_ptr[v + 1] - row_ptr[v];\n"
             "    inv_deg[v] = deg > 0 ? 1.0$F / deg : 0;\n"
             "}\n",
     .launch = {{"inverse_degree", "(n+255)/256", "256", NULL, "row_ptr,inv_deg,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("degree-centrality", "f64", DEG, "degree_centrality",
       "/* Degree centrality: (in-degree + out-degree) / (2 (n - 1)), 0 for a\n * one-vertex graph. */\n",
       "const int *row_ptr, const int *col_idx, $T *centrality, int n, int nnz",
       "    for (int v = 0; v < n; v++)\n        centrality[v] = row_ptr[v + 1] - row_ptr[v];\n"
       "    for (int k = 0; k < nnz; k++)\n        centrality[col_idx[k]] += 1;\n"
       "    for (int v = 0; v < n; v++)\n        centrality[v] = n > 1 ? centrality[v] / (2.0 * (n - 1)) : 0;\n",
       "nnz+3*n", "4*(n+1+nnz)+$S*n", CSR_SHAPES ";centrality=n", CSR_FILL, NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: in_deg = 0. */\n"
             "extern \"C\" __global__ void zero_counts(int *in_deg, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        in_deg[v] = 0;\n"
             "}\n"
             "\n"
             "/* One thread per stored edge: its target's in-degree += 1. */\n"
             "extern \"C\" __global__ void count_in(const int *col_idx, int *in_deg, int nnz)\n"
             "{\n"
             "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (k < nnz)\n"
             "        atomicAdd(&in_deg[col_idx[k]], 1);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: (in + out) / (2 (n - 1)), 0 for one vertex. */\n"
             "extern \"C\" __global__ void degree_centrality(const int *row_ptr, const int *in_deg, $T *centrality, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    const $T deg = (row_ptr[v + 1] - row_ptr[v]) + in_deg[v];\n"
             "    centrality[v] = n > 1 ? deg / (2.0 * (n - 1)) : 0;\n"
             "}\n",
     .launch = {{"zero_counts", "(n+255)/256", "256", NULL, "in_deg,n"},
                {"count_in", "(nnz+255)/256", "256", NULL, "col_idx,in_deg,nnz"},
                {"degree_centrality", "(n+255)/256", "256", NULL, "row_ptr,in_deg,centrality,n"}},
     .scratch = "in_deg:i32:n",
     .mapping = "one-edge-per-thread-global-atomics"),
    OP("avg-neighbor-degree", "f32", DEG, "avg_neighbor_degree",
       "/* Average out-degree of each vertex's out-neighbours (0 for a vertex\n * without out-edges). */\n",
       "const int *row_ptr, const int *col_idx, $T *avg, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "        long sum = 0;\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            sum += row_ptr[col_idx[k] + 1] - row_ptr[col_idx[k]];\n"
       "        avg[u] = deg > 0 ? ($T)sum / deg : 0;\n    }\n",
       "2*nnz", "4*(n+1+nnz)+$S*n", CSR_SHAPES ";avg=n", CSR_FILL, NULL, NULL, {0, 0}, {0, 0},
     .cuda = "/* One thread per vertex: its out-neighbours' out-degrees averaged. */\n"
             "extern \"C\" __global__ void avg_neighbor_degree(const int *row_ptr, const int *col_idx, $T *avg, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "    long long sum = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        sum += row_ptr[col_idx[k] + 1] - row_ptr[col_idx[k]];\n"
             "    avg[u] = deg > 0 ? ($T)sum / deg : 0;\n"
             "}\n",
     .launch = {{"avg_neighbor_degree", "(n+255)/256", "256", NULL, "row_ptr,col_idx,avg,n"}},
     .mapping = "one-vertex-per-thread"),
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* Applies "name=int:lo:hi;name=uni:lo:hi;name=part:total;name=sorted". */
static int generate(GenCtx *g)
{
    static const OpFamily family = {"link analysis", configs, reference_bytes};
    return ops_emit_all(g, &family, OPS, N_OPS);
}

const Family family_pagerank = {"pagerank", "graph", 54, generate};
