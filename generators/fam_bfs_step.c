/* bfs_step — graph traversal steps on CSR graphs (row_ptr from a random
 * partition of nnz, uniform column indices): top-down and bottom-up BFS
 * frontier expansion with byte, int, bitmap and queue frontiers, with
 * distances and parents; whole BFS runs from a source (distances, minimum
 * parents, a depth limit, repeated bottom-up sweeps, several sources);
 * 32/64 concurrent searches in bit masks; connected-component label
 * propagation (pull, push, max, changed flags, several iterations, to
 * convergence) and pointer jumping; neighbour intersections on small
 * degrees (common neighbours, triangles, Jaccard, overlap, cosine,
 * clustering, Adamic-Adar); frontier-driven shortest-path relaxation,
 * widest paths, Luby independent-set and Jones-Plassmann colouring steps,
 * k-core peeling, frontier compaction, COO expansion, 2-colouring,
 * Brandes path counting and dependency steps, random walks, two-hop
 * degree sums and BFS tree edges.  Index types i32 and i64 where noted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_ops.h"


enum { G, GL, GQ, GS, GSD, GMS, GK, TRI, VERT, WALK, WALKS, COOK, GI };

static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [G] = {"n=2000,nnz=16000", "n=1,nnz=1", "n=37,nnz=211", "n=16777216,nnz=268435456"},
        [GL] = {"n=2000,nnz=16000,level=2", "n=1,nnz=1,level=0", "n=37,nnz=211,level=1",
                "n=16777216,nnz=268435456,level=3"},
        [GQ] = {"n=2000,nnz=16000,level=2,qlen=300", "n=1,nnz=1,level=0,qlen=1", "n=37,nnz=211,level=1,qlen=7",
                "n=16777216,nnz=268435456,level=3,qlen=2097152"},
        [GS] = {"n=2000,nnz=8000,source=5", "n=1,nnz=1,source=0", "n=37,nnz=97,source=36",
                "n=4194304,nnz=67108864,source=123"},
        [GSD] = {"n=2000,nnz=6000,source=5,max_depth=3", "n=1,nnz=1,source=0,max_depth=1",
                 "n=37,nnz=97,source=36,max_depth=2", "n=4194304,nnz=67108864,source=123,max_depth=4"},
        [GMS] = {"n=2000,nnz=6000,ns=4", "n=1,nnz=1,ns=1", "n=37,nnz=97,ns=3", "n=4194304,nnz=67108864,ns=64"},
        [GK] = {"n=2000,nnz=16000,k=8", "n=1,nnz=1,k=1", "n=37,nnz=211,k=5", "n=16777216,nnz=268435456,k=16"},
        [TRI] = {"n=2000,nnz=8000", "n=1,nnz=1", "n=37,nnz=149", "n=8388608,nnz=67108864"},
        [VERT] = {"n=20000", "n=1", "n=1009", "n=268435456"},
        [WALK] = {"n=2000,nnz=16000,walkers=5000", "n=1,nnz=1,walkers=1", "n=37,nnz=211,walkers=101",
                  "n=16777216,nnz=268435456,walkers=16777216"},
        [WALKS] = {"n=2000,nnz=16000,walkers=2000,steps=8", "n=1,nnz=1,walkers=1,steps=1",
                   "n=37,nnz=211,walkers=101,steps=3", "n=4194304,nnz=67108864,walkers=4194304,steps=16"},
        [COOK] = {"n=2000,nnz=16000,level=2", "n=1,nnz=1,level=0", "n=37,nnz=211,level=1",
                  "n=16777216,nnz=268435456,level=3"},
        [GI] = {"n=2000,nnz=16000,iters=3", "n=1,nnz=1,iters=1", "n=37,nnz=211,iters=2",
                "n=16777216,nnz=268435456,iters=3"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

/* The C loops reach a random vertex's state (or its adjacency row) per edge,
 * a 64-byte line each where the problem's bytes count 4 or 8: per step, per
 * iteration or source, per walker; triangle-style kernels fetch both ends'
 * rows per edge. */
static const char *reference_bytes(int kind)
{
    switch (kind) {
    case G:
    case GL:
    case GQ:
    case GS:
    case GSD:
    case GK:
    case COOK:
        return "64*nnz";
    case GMS:
        return "64*nnz*ns";
    case GI:
        return "64*nnz*iters";
    case TRI:
        return "128*nnz";
    case VERT:
        return "64*n";
    case WALK:
        return "64*walkers";
    case WALKS:
        return "64*walkers*steps";
    default:
        return NULL;
    }
}

#define OP(...) {__VA_ARGS__, .tol64 = {0, 0}}
#define CSR_FILL "row_ptr=part:nnz;col_idx=int:0:n"
#define CSR_SHAPES "row_ptr=n+1;col_idx=nnz"
#define INC "#include <stdint.h>\n\n"
#define NNZ_UNUSED "    (void)nnz; /* sizes col_idx */\n"
#define TOPDOWN_DOC(what)                                                                          \
    "/* One top-down BFS step: every vertex u of the frontier (" what ") visits\n"                  \
    " * its out-neighbours; an unvisited one (dist -1) gets distance level + 1\n"                    \
    " * and joins the next frontier. */\n"
#define COMMON_FN                                                                                  \
    "/* Common neighbours of u and v: pairs (a, b) of N(u) x N(v) with a == b\n"                     \
    " * (the degrees are small, so a nested loop does). */\n"                                       \
    "static int common(const int *row_ptr, const int *col_idx, int u, int v)\n{\n    int c = 0;\n"   \
    "    for (int a = row_ptr[u]; a < row_ptr[u + 1]; a++)\n"                                        \
    "        for (int b = row_ptr[v]; b < row_ptr[v + 1]; b++)\n"                                    \
    "            c += col_idx[a] == col_idx[b];\n    return c;\n}\n\n"
#define EDGE_LOOP(stmt)                                                                            \
    NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        int du = row_ptr[u + 1] - row_ptr[u];\n"    \
    "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"  \
    "            int dv = row_ptr[v + 1] - row_ptr[v];\n            int c = common(row_ptr, col_idx, u, v);\n" \
    stmt "        }\n    }\n"

/* The pairs.  A step over the vertices is one thread per vertex (pull
 * steps, per-vertex scans of in-neighbours, neighbour intersections); a
 * push step is one thread per frontier vertex writing its neighbours with
 * atomics (benign races where every writer stores the same value), after a
 * launch that copies the inputs into the outputs.  Whole searches and
 * iterations whose count the data decides (BFS to the end, convergence) or
 * a param gives run in one block of 1024 threads that sweeps level after
 * level, __syncthreads_or() telling whether the sweep changed anything:
 * kernel.cu has no host loop and a launch plan a fixed number of launches. */
#define CU_COMMON \
    "/* Common neighbours of u and v: pairs (a, b) of N(u) x N(v) with a == b. */\n" \
    "__device__ int common(const int *row_ptr, const int *col_idx, int u, int v)\n" \
    "{\n" \
    "    int c = 0;\n" \
    "    for (int a = row_ptr[u]; a < row_ptr[u + 1]; a++)\n" \
    "        for (int b = row_ptr[v]; b < row_ptr[v + 1]; b++)\n" \
    "            c += col_idx[a] == col_idx[b];\n" \
    "    return c;\n" \
    "}\n" \
    "\n"

static const Op OPS[] = {
    OP("bfs-top-down", "i32 i64", GL, "bfs_step", INC TOPDOWN_DOC("frontier[u] != 0"),
       "const $T *row_ptr, const $T *col_idx, const uint8_t *frontier, const int *dist, uint8_t *next, int *dist_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        dist_out[v] = dist[v];\n    }\n"
       "    for (int u = 0; u < n; u++) {\n        if (!frontier[u])\n            continue;\n"
       "        for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            $T v = col_idx[k];\n"
       "            if (dist_out[v] == -1) {\n                dist_out[v] = level + 1;\n                next[v] = 1;\n"
       "            }\n        }\n    }\n",
       "nnz", "$S*(n+1+nnz)+10*n", CSR_SHAPES ";frontier=n;dist=n;next=n;dist_out=n",
       CSR_FILL ";frontier=int:0:2;dist=int:-1:3",
     .cuda = "/* One thread per vertex: next = 0, dist_out = dist. */\n"
             "extern \"C\" __global__ void init_step(const int *dist, unsigned char *next, int *dist_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    dist_out[v] = dist[v];\n"
             "}\n"
             "\n"
             "/* One thread per frontier vertex u: its unvisited out-neighbours get\n"
             " * level + 1 and join next (every writer stores the same values). */\n"
             "extern \"C\" __global__ void bfs_step(const $T *row_ptr, const $T *col_idx, const unsigned char *frontier, const int *dist,\n"
             "                                    unsigned char *next, int *dist_out, int n, int level)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || !frontier[u])\n"
             "        return;\n"
             "    for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const $T v = col_idx[k];\n"
             "        if (dist[v] == -1) {\n"
             "            dist_out[v] = level + 1;\n"
             "            next[v] = 1;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,next,dist_out,n"},
                {"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,dist,next,dist_out,n,level"}},
     .mapping = "one-frontier-vertex-per-thread-push"),
    OP("bfs-top-down-intflags", "i32", GL, "bfs_step", TOPDOWN_DOC("frontier[u] == 1, int flags"),
       "const int *row_ptr, const int *col_idx, const int *frontier, const int *dist, int *next, int *dist_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        dist_out[v] = dist[v];\n    }\n"
       "    for (int u = 0; u < n; u++) {\n        if (frontier[u] != 1)\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist_out[v] == -1) {\n                dist_out[v] = level + 1;\n                next[v] = 1;\n"
       "            }\n        }\n    }\n",
       "nnz", "4*(n+1+nnz)+16*n", CSR_SHAPES ";frontier=n;dist=n;next=n;dist_out=n",
       CSR_FILL ";frontier=int:0:2;dist=int:-1:3",
     .cuda = "/* One thread per vertex: next = 0, dist_out = dist. */\n"
             "extern \"C\" __global__ void init_step(const int *dist, int *next, int *dist_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    dist_out[v] = dist[v];\n"
             "}\n"
             "\n"
             "/* One thread per vertex u with frontier[u] == 1: its unvisited\n"
             " * out-neighbours get level + 1 and join next. */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const int *frontier, const int *dist,\n"
             "                                    int *next, int *dist_out, int n, int level)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || frontier[u] != 1)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        if (dist[v] == -1) {\n"
             "            dist_out[v] = level + 1;\n"
             "            next[v] = 1;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,next,dist_out,n"},
                {"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,dist,next,dist_out,n,level"}},
     .mapping = "one-frontier-vertex-per-thread-push"),
    OP("bfs-top-down-bitmap", "i32", G, "bfs_step",
       INC "/* One top-down BFS step on bitmaps (bit v % 32 of word v / 32): the\n"
       " * out-neighbours of frontier vertices that are not yet visited are set\n"
       " * in next and in visited_out (a copy of visited). */\n",
       "const int *row_ptr, const int *col_idx, const uint32_t *frontier, const uint32_t *visited, uint32_t *next, uint32_t *visited_out, int n, int nnz",
       NNZ_UNUSED "    int words = (n + 31) / 32;\n    for (int w = 0; w < words; w++) {\n        next[w] = 0;\n"
       "        visited_out[w] = visited[w];\n    }\n    for (int u = 0; u < n; u++) {\n"
       "        if (!((frontier[u / 32] >> (u % 32)) & 1))\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            uint32_t bit = 1u << (v % 32);\n            if (!(visited_out[v / 32] & bit)) {\n"
       "                visited_out[v / 32] |= bit;\n                next[v / 32] |= bit;\n            }\n"
       "        }\n    }\n",
       "nnz", "4*(n+1+nnz)+n/2", CSR_SHAPES ";frontier=(n+31)/32;visited=(n+31)/32;next=(n+31)/32;visited_out=(n+31)/32",
       CSR_FILL ";frontier=int:0:4294967295;visited=int:0:4294967295",
     .cuda = "/* One thread per bitmap word: next = 0, visited_out = visited. */\n"
             "extern \"C\" __global__ void init_step(const unsigned int *visited, unsigned int *next, unsigned int *visited_out, int n)\n"
             "{\n"
             "    const long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (w >= (n + 31) / 32)\n"
             "        return;\n"
             "    next[w] = 0;\n"
             "    visited_out[w] = visited[w];\n"
             "}\n"
             "\n"
             "/* One thread per vertex u in the frontier bitmap: its unvisited\n"
             " * out-neighbours are set in next and visited_out with atomicOr. */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const unsigned int *frontier,\n"
             "                                    const unsigned int *visited, unsigned int *next, unsigned int *visited_out, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || !((frontier[u / 32] >> (u % 32)) & 1))\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        const unsigned int bit = 1u << (v % 32);\n"
             "        if (!(visited[v / 32] & bit)) {\n"
             "            atomicOr(&visited_out[v / 32], bit);\n"
             "            atomicOr(&next[v / 32], bit);\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"init_step", "((n+31)/32+255)/256", "256", NULL, "visited,next,visited_out,n"},
                {"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,visited,next,visited_out,n"}},
     .mapping = "one-frontier-vertex-per-thread-push-atomicor"),
    OP("bfs-top-down-queue", "i32", GQ, "bfs_step",
       INC "/* One top-down BFS step from a frontier given as a list of qlen vertex ids\n"
       " * (repeats allowed): unvisited out-neighbours (dist -1) get distance\n"
       " * level + 1 and are flagged in next. */\n",
       "const int *row_ptr, const int *col_idx, const int *queue, const int *dist, uint8_t *next, int *dist_out, int n, int nnz, int level, int qlen",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        dist_out[v] = dist[v];\n    }\n"
       "    for (int q = 0; q < qlen; q++) {\n        int u = queue[q];\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist_out[v] == -1) {\n                dist_out[v] = level + 1;\n                next[v] = 1;\n"
       "            }\n        }\n    }\n",
       "nnz*qlen/n", "4*(n+1+nnz)+4*qlen+9*n", CSR_SHAPES ";queue=qlen;dist=n;next=n;dist_out=n",
       CSR_FILL ";queue=int:0:n;dist=int:-1:3",
     .cuda = "/* One thread per vertex: next = 0, dist_out = dist. */\n"
             "extern \"C\" __global__ void init_step(const int *dist, unsigned char *next, int *dist_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    dist_out[v] = dist[v];\n"
             "}\n"
             "\n"
             "/* One thread per queue entry u: its unvisited out-neighbours get level + 1\n"
             " * and join next. */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const int *queue, const int *dist,\n"
             "                                    unsigned char *next, int *dist_out, int level, int qlen)\n"
             "{\n"
             "    const long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (q >= qlen)\n"
             "        return;\n"
             "    const int u = queue[q];\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        if (dist[v] == -1) {\n"
             "            dist_out[v] = level + 1;\n"
             "            next[v] = 1;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,next,dist_out,n"},
                {"bfs_step", "(qlen+255)/256", "256", NULL, "row_ptr,col_idx,queue,dist,next,dist_out,level,qlen"}},
     .mapping = "one-queue-entry-per-thread-push"),
    OP("bfs-bottom-up", "i32 i64", GL, "bfs_step",
       INC "/* One bottom-up BFS step (row v of the CSR lists v's in-neighbours): each\n"
       " * unvisited vertex (dist -1) looks for a neighbour in the frontier and, at\n"
       " * the first one found, takes distance level + 1 and joins next. */\n",
       "const $T *row_ptr, const $T *col_idx, const uint8_t *frontier, const int *dist, uint8_t *next, int *dist_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        dist_out[v] = dist[v];\n"
       "        if (dist[v] != -1)\n            continue;\n"
       "        for ($T k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n            if (frontier[col_idx[k]]) {\n"
       "                dist_out[v] = level + 1;\n                next[v] = 1;\n                break;\n            }\n"
       "        }\n    }\n",
       "nnz", "$S*(n+1+nnz)+10*n", CSR_SHAPES ";frontier=n;dist=n;next=n;dist_out=n",
       CSR_FILL ";frontier=int:0:2;dist=int:-1:3",
     .cuda = "/* One thread per vertex: an unvisited vertex with an in-neighbour in the\n"
             " * frontier takes level + 1 and joins next. */\n"
             "extern \"C\" __global__ void bfs_step(const $T *row_ptr, const $T *col_idx, const unsigned char *frontier, const int *dist,\n"
             "                                    unsigned char *next, int *dist_out, int n, int level)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    dist_out[v] = dist[v];\n"
             "    if (dist[v] != -1)\n"
             "        return;\n"
             "    for ($T k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        if (frontier[col_idx[k]]) {\n"
             "            dist_out[v] = level + 1;\n"
             "            next[v] = 1;\n"
             "            break;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,dist,next,dist_out,n,level"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("bfs-bottom-up-bitmap", "i32", G, "bfs_step",
       INC "/* One bottom-up BFS step on bitmaps (bit v % 32 of word v / 32; row v of\n"
       " * the CSR lists v's in-neighbours): an unvisited vertex with a neighbour\n"
       " * in the frontier is set in next and visited_out. */\n"
       "static int test(const uint32_t *bits, int v)\n{\n    return (bits[v / 32] >> (v % 32)) & 1;\n}\n\n",
       "const int *row_ptr, const int *col_idx, const uint32_t *frontier, const uint32_t *visited, uint32_t *next, uint32_t *visited_out, int n, int nnz",
       NNZ_UNUSED "    int words = (n + 31) / 32;\n    for (int w = 0; w < words; w++) {\n        next[w] = 0;\n"
       "        visited_out[w] = visited[w];\n    }\n    for (int v = 0; v < n; v++) {\n"
       "        if (test(visited, v))\n            continue;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "            if (test(frontier, col_idx[k])) {\n                next[v / 32] |= 1u << (v % 32);\n"
       "                visited_out[v / 32] |= 1u << (v % 32);\n                break;\n            }\n"
       "        }\n    }\n",
       "nnz", "4*(n+1+nnz)+n/2", CSR_SHAPES ";frontier=(n+31)/32;visited=(n+31)/32;next=(n+31)/32;visited_out=(n+31)/32",
       CSR_FILL ";frontier=int:0:4294967295;visited=int:0:4294967295",
     .cuda = "__device__ int test(const unsigned int *bits, int v)\n"
             "{\n"
             "    return (bits[v / 32] >> (v % 32)) & 1;\n"
             "}\n"
             "\n"
             "/* One thread per bitmap word: each of its 32 vertices that is unvisited\n"
             " * and has an in-neighbour in the frontier is set in next and visited_out\n"
             " * (the thread owns both words: no atomics). */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const unsigned int *frontier,\n"
             "                                    const unsigned int *visited, unsigned int *next, unsigned int *visited_out, int n)\n"
             "{\n"
             "    const long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (w >= (n + 31) / 32)\n"
             "        return;\n"
             "    unsigned int found = 0;\n"
             "    for (int b = 0; b < 32 && w * 32 + b < n; b++) {\n"
             "        const int v = (int)(w * 32 + b);\n"
             "        if (test(visited, v))\n"
             "            continue;\n"
             "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "            if (test(frontier, col_idx[k])) {\n"
             "                found |= 1u << b;\n"
             "                break;\n"
             "            }\n"
             "        }\n"
             "    }\n"
             "    next[w] = found;\n"
             "    visited_out[w] = visited[w] | found;\n"
             "}\n",
     .launch = {{"bfs_step", "((n+31)/32+255)/256", "256", NULL, "row_ptr,col_idx,frontier,visited,next,visited_out,n"}},
     .mapping = "one-bitmap-word-per-thread-pull"),
    OP("bfs-bottom-up-parent", "i32", G, "bfs_step",
       INC "/* One bottom-up BFS step that records BFS-tree parents: an unvisited\n"
       " * vertex v (parent -1) takes as parent its first in-neighbour (in CSR\n"
       " * order) that is in the frontier, and joins next. */\n",
       "const int *row_ptr, const int *col_idx, const uint8_t *frontier, const int *parent, uint8_t *next, int *parent_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        parent_out[v] = parent[v];\n"
       "        if (parent[v] != -1)\n            continue;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n            if (frontier[col_idx[k]]) {\n"
       "                parent_out[v] = col_idx[k];\n                next[v] = 1;\n                break;\n            }\n"
       "        }\n    }\n",
       "nnz", "4*(n+1+nnz)+10*n", CSR_SHAPES ";frontier=n;parent=n;next=n;parent_out=n",
       CSR_FILL ";frontier=int:0:2;parent=int:-1:3",
     .cuda = "/* One thread per vertex: an unvisited vertex takes its first in-neighbour\n"
             " * in the frontier as parent and joins next. */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const unsigned char *frontier,\n"
             "                                    const int *parent, unsigned char *next, int *parent_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    parent_out[v] = parent[v];\n"
             "    if (parent[v] != -1)\n"
             "        return;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        if (frontier[col_idx[k]]) {\n"
             "            parent_out[v] = col_idx[k];\n"
             "            next[v] = 1;\n"
             "            break;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,parent,next,parent_out,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("bfs-top-down-parent", "i32", GL, "bfs_step",
       INC "/* One top-down BFS step with parents: an unvisited vertex (dist -1)\n"
       " * reached from the frontier gets distance level + 1 and, as parent, the\n"
       " * smallest frontier vertex with an edge to it. */\n",
       "const int *row_ptr, const int *col_idx, const uint8_t *frontier, const int *dist, int *dist_out, int *parent_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        dist_out[v] = dist[v];\n        parent_out[v] = -1;\n    }\n"
       "    for (int u = 0; u < n; u++) { /* ascending, so the first parent is the smallest */\n"
       "        if (!frontier[u])\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == -1 && parent_out[v] == -1) {\n                dist_out[v] = level + 1;\n"
       "                parent_out[v] = u;\n            }\n        }\n    }\n",
       "nnz", "4*(n+1+nnz)+13*n", CSR_SHAPES ";frontier=n;dist=n;dist_out=n;parent_out=n",
       CSR_FILL ";frontier=int:0:2;dist=int:-1:3",
     .cuda = "#define NO_PARENT 0x7fffffff\n"
             "\n"
             "/* One thread per vertex: dist_out = dist, parent_out = NO_PARENT (above\n"
             " * every vertex, so atomicMin keeps the smallest frontier vertex). */\n"
             "extern \"C\" __global__ void init_step(const int *dist, int *dist_out, int *parent_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    dist_out[v] = dist[v];\n"
             "    parent_out[v] = NO_PARENT;\n"
             "}\n"
             "\n"
             "/* One thread per frontier vertex u: offers itself as the parent of its\n"
             " * unvisited out-neighbours. */\n"
             "extern \"C\" __global__ void bfs_step(const int *row_ptr, const int *col_idx, const unsigned char *frontier,\n"
             "                                    const int *dist, int *parent_out, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || !frontier[u])\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        if (dist[col_idx[k]] == -1)\n"
             "            atomicMin(&parent_out[col_idx[k]], (int)u);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: a vertex that got a parent takes level + 1; the\n"
             " * others get parent -1. */\n"
             "extern \"C\" __global__ void finish_step(int *dist_out, int *parent_out, int n, int level)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    if (parent_out[v] == NO_PARENT)\n"
             "        parent_out[v] = -1;\n"
             "    else\n"
             "        dist_out[v] = level + 1;\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,dist_out,parent_out,n"},
                {"bfs_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,dist,parent_out,n"},
                {"finish_step", "(n+255)/256", "256", NULL, "dist_out,parent_out,n,level"}},
     .mapping = "one-frontier-vertex-per-thread-push-atomicmin"),
    OP("bfs-distances", "i32 i64", GS, "bfs",
       "#include <stdlib.h>\n\n/* Breadth-first search from `source`: dist[v] is the number of edges on a\n"
       " * shortest path from the source, -1 when v is unreachable. */\n",
       "const $T *row_ptr, const $T *col_idx, int *dist, int n, int nnz, int source",
       NNZ_UNUSED "    $T *queue = malloc((size_t)n * sizeof *queue);\n    if (!queue)\n        return;\n"
       "    for (int v = 0; v < n; v++)\n        dist[v] = -1;\n"
       "    dist[source] = 0;\n    queue[0] = source;\n    int head = 0, tail = 1;\n"
       "    while (head < tail) {\n        $T u = queue[head++];\n"
       "        for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            $T v = col_idx[k];\n"
       "            if (dist[v] == -1) {\n                dist[v] = dist[u] + 1;\n                queue[tail++] = v;\n"
       "            }\n        }\n    }\n    free(queue);\n",
       "nnz", "$S*(n+1+nnz)+4*n", CSR_SHAPES ";dist=n", CSR_FILL,
     .cuda = "/* One thread per vertex: dist = -1, 0 at the source. */\n"
             "extern \"C\" __global__ void init_dist(int *dist, int n, int source)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        dist[v] = v == source ? 0 : -1;\n"
             "}\n"
             "\n"
             "/* One block, level-synchronous: on each level its threads stride over the\n"
             " * vertices, and those on the level give their unvisited out-neighbours\n"
             " * level + 1 (every writer stores the same value), until a level adds\n"
             " * nobody. */\n"
             "extern \"C\" __global__ void bfs(const $T *row_ptr, const $T *col_idx, int *dist, int n)\n"
             "{\n"
             "    for (int level = 0;; level++) {\n"
             "        int added = 0;\n"
             "        for ($T u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            if (dist[u] != level)\n"
             "                continue;\n"
             "            for ($T k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "                if (dist[col_idx[k]] == -1) {\n"
             "                    dist[col_idx[k]] = level + 1;\n"
             "                    added = 1;\n"
             "                }\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n",
     .launch = {{"init_dist", "(n+255)/256", "256", NULL, "dist,n,source"},
                {"bfs", "1", "1024", NULL, "row_ptr,col_idx,dist,n"}},
     .mapping = "one-block-level-synchronous"),
    OP("bfs-parents", "i32", GS, "bfs",
       "#include <stdlib.h>\n\n/* Breadth-first search from `source` with a canonical BFS tree: dist[v]\n"
       " * as usual (-1 if unreachable) and parent[v] the smallest vertex u with an\n"
       " * edge u -> v and dist[u] = dist[v] - 1 (-1 for the source and unreached). */\n",
       "const int *row_ptr, const int *col_idx, int *dist, int *parent, int n, int nnz, int source",
       NNZ_UNUSED "    int *queue = malloc((size_t)n * sizeof *queue);\n    if (!queue)\n        return;\n"
       "    for (int v = 0; v < n; v++) {\n        dist[v] = -1;\n        parent[v] = -1;\n    }\n"
       "    dist[source] = 0;\n    queue[0] = source;\n    int head = 0, tail = 1;\n"
       "    while (head < tail) {\n        int u = queue[head++];\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == -1) {\n                dist[v] = dist[u] + 1;\n                queue[tail++] = v;\n"
       "            }\n        }\n    }\n"
       "    for (int u = 0; u < n; u++) {\n        if (dist[u] == -1)\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == dist[u] + 1 && (parent[v] == -1 || u < parent[v]))\n"
       "                parent[v] = u;\n        }\n    }\n    free(queue);\n",
       "2*nnz", "4*(n+1+nnz)+8*n", CSR_SHAPES ";dist=n;parent=n", CSR_FILL,
     .cuda = "#define NO_PARENT 0x7fffffff\n"
             "\n"
             "/* One thread per vertex: dist = -1 (0 at the source), parent = NO_PARENT. */\n"
             "extern \"C\" __global__ void init_search(int *dist, int *parent, int n, int source)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    dist[v] = v == source ? 0 : -1;\n"
             "    parent[v] = NO_PARENT;\n"
             "}\n"
             "\n"
             "/* One block, level-synchronous BFS: the vertices on each level give their\n"
             " * unvisited out-neighbours level + 1, until a level adds nobody. */\n"
             "extern \"C\" __global__ void bfs(const int *row_ptr, const int *col_idx, int *dist, int n)\n"
             "{\n"
             "    for (int level = 0;; level++) {\n"
             "        int added = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            if (dist[u] != level)\n"
             "                continue;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "                if (dist[col_idx[k]] == -1) {\n"
             "                    dist[col_idx[k]] = level + 1;\n"
             "                    added = 1;\n"
             "                }\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n"
             "\n"
             "/* One thread per reached vertex u: offers itself as the parent of the\n"
             " * out-neighbours one level further (atomicMin keeps the smallest). */\n"
             "extern \"C\" __global__ void tree_parents(const int *row_ptr, const int *col_idx, const int *dist, int *parent, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || dist[u] == -1)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        if (dist[col_idx[k]] == dist[u] + 1)\n"
             "            atomicMin(&parent[col_idx[k]], (int)u);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: no parent offered means -1. */\n"
             "extern \"C\" __global__ void finish_parents(int *parent, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n && parent[v] == NO_PARENT)\n"
             "        parent[v] = -1;\n"
             "}\n",
     .launch = {{"init_search", "(n+255)/256", "256", NULL, "dist,parent,n,source"},
                {"bfs", "1", "1024", NULL, "row_ptr,col_idx,dist,n"},
                {"tree_parents", "(n+255)/256", "256", NULL, "row_ptr,col_idx,dist,parent,n"},
                {"finish_parents", "(n+255)/256", "256", NULL, "parent,n"}},
     .mapping = "one-block-level-synchronous+one-vertex-per-thread-atomicmin"),
    OP("bfs-depth-limited", "i32", GSD, "bfs",
       "#include <stdlib.h>\n\n/* Breadth-first search from `source` that stops after max_depth levels:\n"
       " * dist[v] for vertices within max_depth edges, -1 for all others. */\n",
       "const int *row_ptr, const int *col_idx, int *dist, int n, int nnz, int source, int max_depth",
       NNZ_UNUSED "    int *queue = malloc((size_t)n * sizeof *queue);\n    if (!queue)\n        return;\n"
       "    for (int v = 0; v < n; v++)\n        dist[v] = -1;\n"
       "    dist[source] = 0;\n    queue[0] = source;\n    int head = 0, tail = 1;\n"
       "    while (head < tail) {\n        int u = queue[head++];\n        if (dist[u] == max_depth)\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == -1) {\n                dist[v] = dist[u] + 1;\n                queue[tail++] = v;\n"
       "            }\n        }\n    }\n    free(queue);\n",
       "nnz", "4*(n+1+nnz)+4*n", CSR_SHAPES ";dist=n", CSR_FILL,
     .cuda = "/* One thread per vertex: dist = -1, 0 at the source. */\n"
             "extern \"C\" __global__ void init_dist(int *dist, int n, int source)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        dist[v] = v == source ? 0 : -1;\n"
             "}\n"
             "\n"
             "/* One block, level-synchronous BFS that expands no vertex on level\n"
             " * max_depth: the vertices on each level give their unvisited out-neighbours\n"
             " * level + 1, until a level adds nobody or the limit is reached. */\n"
             "extern \"C\" __global__ void bfs(const int *row_ptr, const int *col_idx, int *dist, int n, int max_depth)\n"
             "{\n"
             "    for (int level = 0; level < max_depth; level++) {\n"
             "        int added = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            if (dist[u] != level)\n"
             "                continue;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "                if (dist[col_idx[k]] == -1) {\n"
             "                    dist[col_idx[k]] = level + 1;\n"
             "                    added = 1;\n"
             "                }\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n",
     .launch = {{"init_dist", "(n+255)/256", "256", NULL, "dist,n,source"},
                {"bfs", "1", "1024", NULL, "row_ptr,col_idx,dist,n,max_depth"}},
     .mapping = "one-block-level-synchronous"),
    OP("bfs-bottom-up-sweeps", "i32", GS, "bfs",
       "/* Level-synchronous bottom-up BFS towards `source` (row v of the CSR lists\n"
       " * v's in-neighbours): sweep after sweep, an unvisited vertex with a\n"
       " * neighbour on the current level joins the next one, until a sweep adds\n * nobody. */\n",
       "const int *row_ptr, const int *col_idx, int *dist, int n, int nnz, int source",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        dist[v] = -1;\n    dist[source] = 0;\n"
       "    for (int level = 0;; level++) {\n        int added = 0;\n        for (int v = 0; v < n; v++) {\n"
       "            if (dist[v] != -1)\n                continue;\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "                if (dist[col_idx[k]] == level) {\n                    dist[v] = level + 1;\n"
       "                    added++;\n                    break;\n                }\n            }\n        }\n"
       "        if (!added)\n            break;\n    }\n",
       "4*nnz", "4*(n+1+nnz)+4*n", CSR_SHAPES ";dist=n", CSR_FILL,
     .cuda = "/* One thread per vertex: dist = -1, 0 at the source. */\n"
             "extern \"C\" __global__ void init_dist(int *dist, int n, int source)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        dist[v] = v == source ? 0 : -1;\n"
             "}\n"
             "\n"
             "/* One block, sweep after sweep: an unvisited vertex with an in-neighbour on\n"
             " * the current level takes level + 1 (a vertex set in this sweep is on the\n"
             " * next level, so it does not chain), until a sweep adds nobody. */\n"
             "extern \"C\" __global__ void bfs(const int *row_ptr, const int *col_idx, int *dist, int n)\n"
             "{\n"
             "    for (int level = 0;; level++) {\n"
             "        int added = 0;\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            if (dist[v] != -1)\n"
             "                continue;\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "                if (dist[col_idx[k]] == level) {\n"
             "                    dist[v] = level + 1;\n"
             "                    added = 1;\n"
             "                    break;\n"
             "                }\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n",
     .launch = {{"init_dist", "(n+255)/256", "256", NULL, "dist,n,source"},
                {"bfs", "1", "1024", NULL, "row_ptr,col_idx,dist,n"}},
     .mapping = "one-block-level-synchronous-pull"),
    OP("bfs-multi-source", "i32", GMS, "bfs_multi",
       "/* Multi-source BFS: dist[v] is the distance to the nearest of the ns\n"
       " * sources and owner[v] the smallest source vertex at that distance (-1 and\n"
       " * -1 when no source reaches v).  Level-synchronous. */\n",
       "const int *row_ptr, const int *col_idx, const int *sources, int *dist, int *owner, int n, int nnz, int ns",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        dist[v] = -1;\n        owner[v] = -1;\n    }\n"
       "    for (int s = 0; s < ns; s++) {\n        int v = sources[s];\n        dist[v] = 0;\n"
       "        if (owner[v] == -1 || v < owner[v])\n            owner[v] = v;\n    }\n"
       "    for (int level = 0;; level++) {\n        int added = 0;\n        for (int u = 0; u < n; u++) {\n"
       "            if (dist[u] != level)\n                continue;\n"
       "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n                int v = col_idx[k];\n"
       "                if (dist[v] == -1) {\n                    dist[v] = level + 1;\n                    owner[v] = owner[u];\n"
       "                    added++;\n                } else if (dist[v] == level + 1 && owner[u] < owner[v]) {\n"
       "                    owner[v] = owner[u];\n                }\n            }\n        }\n"
       "        if (!added)\n            break;\n    }\n",
       "4*nnz", "4*(n+1+nnz)+4*ns+8*n", CSR_SHAPES ";sources=ns;dist=n;owner=n", CSR_FILL ";sources=int:0:n",
     .cuda = "#define NO_OWNER 0x7fffffff\n"
             "\n"
             "/* One thread per vertex: dist = -1, owner = NO_OWNER (above every vertex,\n"
             " * so atomicMin keeps the smallest). */\n"
             "extern \"C\" __global__ void init_search(int *dist, int *owner, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    dist[v] = -1;\n"
             "    owner[v] = NO_OWNER;\n"
             "}\n"
             "\n"
             "/* One thread per source: distance 0, owned by itself. */\n"
             "extern \"C\" __global__ void seed_sources(const int *sources, int *dist, int *owner, int ns)\n"
             "{\n"
             "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (s >= ns)\n"
             "        return;\n"
             "    dist[sources[s]] = 0;\n"
             "    owner[sources[s]] = sources[s];\n"
             "}\n"
             "\n"
             "/* One block, level-synchronous: a vertex on the level claims its unvisited\n"
             " * out-neighbours for level + 1 (atomicCAS) and offers its owner to every\n"
             " * out-neighbour on level + 1 (atomicMin); the owners of a level are final\n"
             " * before it expands.  Until a level adds nobody. */\n"
             "extern \"C\" __global__ void bfs_multi(const int *row_ptr, const int *col_idx, int *dist, int *owner, int n)\n"
             "{\n"
             "    for (int level = 0;; level++) {\n"
             "        int added = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            if (dist[u] != level)\n"
             "                continue;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "                const int v = col_idx[k];\n"
             "                const int old = atomicCAS(&dist[v], -1, level + 1);\n"
             "                if (old == -1)\n"
             "                    added = 1;\n"
             "                if (old == -1 || old == level + 1)\n"
             "                    atomicMin(&owner[v], owner[u]);\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n"
             "\n"
             "/* One thread per vertex: never reached means owner -1. */\n"
             "extern \"C\" __global__ void finish_owner(int *owner, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n && owner[v] == NO_OWNER)\n"
             "        owner[v] = -1;\n"
             "}\n",
     .launch = {{"init_search", "(n+255)/256", "256", NULL, "dist,owner,n"},
                {"seed_sources", "(ns+255)/256", "256", NULL, "sources,dist,owner,ns"},
                {"bfs_multi", "1", "1024", NULL, "row_ptr,col_idx,dist,owner,n"},
                {"finish_owner", "(n+255)/256", "256", NULL, "owner,n"}},
     .mapping = "one-block-level-synchronous+atomicmin-owner"),
    OP("msbfs-step", "u32 u64", G, "msbfs_step",
       INC "/* One step of many concurrent BFS searches, one per bit: a vertex joins\n"
       " * search b's next frontier when an in-edge comes from a vertex in b's\n"
       " * frontier and it was not visited by b; visited_out = visited | next. */\n",
       "const int *row_ptr, const int *col_idx, const $T *frontier, const $T *visited, $T *next, $T *visited_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        next[v] = 0;\n    for (int u = 0; u < n; u++) {\n"
       "        if (!frontier[u])\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n            next[col_idx[k]] |= frontier[u];\n    }\n"
       "    for (int v = 0; v < n; v++) {\n        next[v] &= ~visited[v];\n        visited_out[v] = visited[v] | next[v];\n    }\n",
       "nnz+2*n", "4*(n+1+nnz)+4*$S*n", CSR_SHAPES ";frontier=n;visited=n;next=n;visited_out=n",
       CSR_FILL ";frontier=int:0:65536;visited=int:0:65536",
     .cuda = "/* One thread per vertex: next = 0. */\n"
             "extern \"C\" __global__ void zero_next($T *next, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        next[v] = 0;\n"
             "}\n"
             "\n"
             "/* One thread per vertex u with searches in its frontier: ORs them into its\n"
             " * out-neighbours' next. */\n"
             "extern \"C\" __global__ void msbfs_push(const int *row_ptr, const int *col_idx, const $T *frontier, $T *next, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || !frontier[u])\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        atomicOr(&next[col_idx[k]], frontier[u]);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: drop the searches that visited it already. */\n"
             "extern \"C\" __global__ void msbfs_finish(const $T *visited, $T *next, $T *visited_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] &= ~visited[v];\n"
             "    visited_out[v] = visited[v] | next[v];\n"
             "}\n",
     .launch = {{"zero_next", "(n+255)/256", "256", NULL, "next,n"},
                {"msbfs_push", "(n+255)/256", "256", NULL, "row_ptr,col_idx,frontier,next,n"},
                {"msbfs_finish", "(n+255)/256", "256", NULL, "visited,next,visited_out,n"}},
     .mapping = "one-frontier-vertex-per-thread-push-atomicor"),
    OP("cc-pull-min", "i32 i64", G, "cc_step",
       "/* One connected-components label-propagation step (pull): each vertex\n"
       " * takes the smallest label among itself and its neighbours. */\n",
       "const $T *row_ptr, const $T *col_idx, const int *label, int *label_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        int best = label[v];\n"
       "        for ($T k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "            if (label[col_idx[k]] < best)\n                best = label[col_idx[k]];\n"
       "        label_out[v] = best;\n    }\n",
       "nnz", "$S*(n+1+nnz)+8*n", CSR_SHAPES ";label=n;label_out=n", CSR_FILL ";label=int:0:n",
     .cuda = "/* One thread per vertex: the smallest label of itself and its neighbours. */\n"
             "extern \"C\" __global__ void cc_step(const $T *row_ptr, const $T *col_idx, const int *label, int *label_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    int best = label[v];\n"
             "    for ($T k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "        if (label[col_idx[k]] < best)\n"
             "            best = label[col_idx[k]];\n"
             "    label_out[v] = best;\n"
             "}\n",
     .launch = {{"cc_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,label,label_out,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("cc-push-min", "i32", G, "cc_step",
       "/* One label-propagation step (push): every vertex offers its label to its\n"
       " * out-neighbours, which keep the smallest label offered or their own. */\n",
       "const int *row_ptr, const int *col_idx, const int *label, int *label_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        label_out[v] = label[v];\n"
       "    for (int u = 0; u < n; u++)\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            if (label[u] < label_out[col_idx[k]])\n                label_out[col_idx[k]] = label[u];\n",
       "nnz", "4*(n+1+nnz)+8*n", CSR_SHAPES ";label=n;label_out=n", CSR_FILL ";label=int:0:n",
     .cuda = "/* One thread per vertex: label_out = label. */\n"
             "extern \"C\" __global__ void copy_labels(const int *label, int *label_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        label_out[v] = label[v];\n"
             "}\n"
             "\n"
             "/* One thread per vertex u: offers its label to its out-neighbours\n"
             " * (atomicMin keeps the smallest). */\n"
             "extern \"C\" __global__ void cc_step(const int *row_ptr, const int *col_idx, const int *label, int *label_out, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        atomicMin(&label_out[col_idx[k]], label[u]);\n"
             "}\n",
     .launch = {{"copy_labels", "(n+255)/256", "256", NULL, "label,label_out,n"},
                {"cc_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,label,label_out,n"}},
     .mapping = "one-vertex-per-thread-push-atomicmin"),
    OP("cc-pull-changed", "i32", G, "cc_step",
       INC "/* One pull label-propagation step that also reports which labels\n"
       " * changed (changed[v] = 1), for a convergence test. */\n",
       "const int *row_ptr, const int *col_idx, const int *label, int *label_out, uint8_t *changed, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        int best = label[v];\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "            if (label[col_idx[k]] < best)\n                best = label[col_idx[k]];\n"
       "        label_out[v] = best;\n        changed[v] = best != label[v];\n    }\n",
       "nnz", "4*(n+1+nnz)+9*n", CSR_SHAPES ";label=n;label_out=n;changed=n", CSR_FILL ";label=int:0:n",
     .cuda = "/* One thread per vertex: the smallest label of itself and its neighbours,\n"
             " * and whether it changed. */\n"
             "extern \"C\" __global__ void cc_step(const int *row_ptr, const int *col_idx, const int *label, int *label_out,\n"
             "                                   unsigned char *changed, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    int best = label[v];\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "        if (label[col_idx[k]] < best)\n"
             "            best = label[col_idx[k]];\n"
             "    label_out[v] = best;\n"
             "    changed[v] = best != label[v];\n"
             "}\n",
     .launch = {{"cc_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,label,label_out,changed,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("cc-pull-max", "i32", G, "cc_step",
       "/* One label-propagation step keeping the largest label among a vertex and\n * its neighbours. */\n",
       "const int *row_ptr, const int *col_idx, const int *label, int *label_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        int best = label[v];\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "            if (label[col_idx[k]] > best)\n                best = label[col_idx[k]];\n"
       "        label_out[v] = best;\n    }\n",
       "nnz", "4*(n+1+nnz)+8*n", CSR_SHAPES ";label=n;label_out=n", CSR_FILL ";label=int:0:n",
     .cuda = "/* One thread per vertex: the largest label of itself and its neighbours. */\n"
             "extern \"C\" __global__ void cc_step(const int *row_ptr, const int *col_idx, const int *label, int *label_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    int best = label[v];\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "        if (label[col_idx[k]] > best)\n"
             "            best = label[col_idx[k]];\n"
             "    label_out[v] = best;\n"
             "}\n",
     .launch = {{"cc_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,label,label_out,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("cc-pull-iters", "i32", GI, "cc_steps",
       "#include <stdlib.h>\n#include <string.h>\n\n"
       "/* `iters` synchronous pull label-propagation steps (minimum label over a\n"
       " * vertex and its neighbours), double-buffered. */\n",
       "const int *row_ptr, const int *col_idx, const int *label, int *label_out, int n, int nnz, int iters",
       NNZ_UNUSED "    int *cur = malloc((size_t)n * sizeof *cur);\n    if (!cur)\n        return;\n"
       "    memcpy(label_out, label, (size_t)n * sizeof *label_out);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(cur, label_out, (size_t)n * sizeof *cur);\n"
       "        for (int v = 0; v < n; v++) {\n            int best = cur[v];\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "                if (cur[col_idx[k]] < best)\n                    best = cur[col_idx[k]];\n"
       "            label_out[v] = best;\n        }\n    }\n    free(cur);\n",
       "nnz*iters", "4*(n+1+nnz)+8*n", CSR_SHAPES ";label=n;label_out=n", CSR_FILL ";label=int:0:n",
     .cuda = "/* One block runs the iters synchronous steps, its threads striding over the\n"
             " * vertices: cur = label_out, then label_out[v] = the smallest label of v and\n"
             " * its neighbours in cur, a barrier between the two. */\n"
             "extern \"C\" __global__ void cc_steps(const int *row_ptr, const int *col_idx, const int *label, int *label_out, int *cur,\n"
             "                                    int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        label_out[v] = label[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            cur[v] = label_out[v];\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            int best = cur[v];\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                if (cur[col_idx[k]] < best)\n"
             "                    best = cur[col_idx[k]];\n"
             "            label_out[v] = best;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"cc_steps", "1", "1024", NULL, "row_ptr,col_idx,label,label_out,cur,n,iters"}},
     .scratch = "cur:i32:n",
     .mapping = "one-block-synchronous-sweeps"),
    OP("cc-converge", "i32", G, "components",
       "/* Label propagation to convergence: starting from label[v] = v, each\n"
       " * vertex repeatedly takes the minimum label of itself and its neighbours\n"
       " * until nothing changes; label[v] ends as the smallest vertex reachable\n"
       " * from v along the CSR edges. */\n",
       "const int *row_ptr, const int *col_idx, int *label, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        label[v] = v;\n    for (int changed = 1; changed;) {\n"
       "        changed = 0;\n        for (int v = 0; v < n; v++) {\n"
       "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "                if (label[col_idx[k]] < label[v]) {\n                    label[v] = label[col_idx[k]];\n"
       "                    changed = 1;\n                }\n            }\n        }\n    }\n",
       "4*nnz", "4*(n+1+nnz)+4*n", CSR_SHAPES ";label=n", CSR_FILL,
     .cuda = "/* One block: label[v] = v, then sweeps in which each thread lowers the\n"
             " * labels of its vertices to the smallest neighbour label (only v's thread\n"
             " * writes label[v]; labels only decrease, so any interleaving reaches the\n"
             " * same fixpoint: the smallest vertex reachable from v), until a sweep\n"
             " * changes nothing. */\n"
             "extern \"C\" __global__ void components(const int *row_ptr, const int *col_idx, int *label, int n)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        label[v] = v;\n"
             "    __syncthreads();\n"
             "    for (;;) {\n"
             "        int changed = 0;\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x) {\n"
             "            int best = label[v];\n"
             "            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "                if (label[col_idx[k]] < best)\n"
             "                    best = label[col_idx[k]];\n"
             "            if (best < label[v]) {\n"
             "                label[v] = best;\n"
             "                changed = 1;\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(changed))\n"
             "            break;\n"
             "    }\n"
             "}\n",
     .launch = {{"components", "1", "1024", NULL, "row_ptr,col_idx,label,n"}},
     .mapping = "one-block-sweeps-to-convergence"),
    OP("pointer-jump", "i32", VERT, "pointer_jump",
       "/* One pointer-jumping (shortcutting) step on a parent array: every vertex\n"
       " * replaces its parent by its grandparent. */\n",
       "const int *parent, int *parent_out, int n",
       "    for (int v = 0; v < n; v++)\n        parent_out[v] = parent[parent[v]];\n",
       "n", "12*n", "parent=n;parent_out=n", "parent=int:0:n",
     .cuda = "/* One thread per vertex: its grandparent. */\n"
             "extern \"C\" __global__ void pointer_jump(const int *parent, int *parent_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        parent_out[v] = parent[parent[v]];\n"
             "}\n",
     .launch = {{"pointer_jump", "(n+255)/256", "256", NULL, "parent,parent_out,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("find-roots", "i32", VERT, "find_roots",
       "/* Roots of a forest given by parent links that point to smaller vertices:\n"
       " * p(v) = label[v] when label[v] < v, otherwise v is a root.  root[v] is the\n"
       " * root reached by following p. */\n",
       "const int *label, int *root, int n",
       "    for (int v = 0; v < n; v++) /* ascending, so root[p(v)] is known */\n"
       "        root[v] = label[v] < v ? root[label[v]] : v;\n",
       "n", "12*n", "label=n;root=n", "label=int:0:n",
     .cuda = "/* One thread per vertex: follow the links to smaller vertices up to the\n"
             " * root (the C code's ascending order only makes root[p(v)] ready). */\n"
             "extern \"C\" __global__ void find_roots(const int *label, int *root, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    int x = (int)v;\n"
             "    while (label[x] < x)\n"
             "        x = label[x];\n"
             "    root[v] = x;\n"
             "}\n",
     .launch = {{"find_roots", "(n+255)/256", "256", NULL, "label,root,n"}},
     .mapping = "one-vertex-per-thread-chase"),
    OP("common-neighbours", "i32", TRI, "edge_common",
       COMMON_FN "/* For each stored edge k = (u, v), the number of common neighbours of u and v. */\n",
       "const int *row_ptr, const int *col_idx, int *cn, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++)\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            cn[k] = common(row_ptr, col_idx, u, col_idx[k]);\n",
       "nnz*nnz/n", "4*(n+1+2*nnz)", CSR_SHAPES ";cn=nnz", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: the common neighbours of each of its edges. */\n"
             "extern \"C\" __global__ void edge_common(const int *row_ptr, const int *col_idx, int *cn, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        cn[k] = common(row_ptr, col_idx, (int)u, col_idx[k]);\n"
             "}\n",
     .launch = {{"edge_common", "(n+255)/256", "256", NULL, "row_ptr,col_idx,cn,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("triangles", "i32", TRI, "vertex_triangles",
       COMMON_FN "/* Triangle-like counts per vertex: t[u] sums, over the out-neighbours v\n"
       " * of u, the common neighbours of u and v. */\n",
       "const int *row_ptr, const int *col_idx, int *t, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        int sum = 0;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            sum += common(row_ptr, col_idx, u, col_idx[k]);\n        t[u] = sum;\n    }\n",
       "nnz*nnz/n", "4*(n+1+nnz)+4*n", CSR_SHAPES ";t=n", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: the common neighbours summed over its edges. */\n"
             "extern \"C\" __global__ void vertex_triangles(const int *row_ptr, const int *col_idx, int *t, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    int sum = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        sum += common(row_ptr, col_idx, (int)u, col_idx[k]);\n"
             "    t[u] = sum;\n"
             "}\n",
     .launch = {{"vertex_triangles", "(n+255)/256", "256", NULL, "row_ptr,col_idx,t,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("jaccard", "f32 f64", TRI, "edge_similarity",
       COMMON_FN "/* Jaccard similarity of the endpoints of each stored edge (u, v):\n"
       " * c / (d_u + d_v - c) with c the common neighbours, 0 when undefined. */\n",
       "const int *row_ptr, const int *col_idx, $T *sim, int n, int nnz",
       EDGE_LOOP("            int uni = du + dv - c;\n            sim[k] = uni > 0 ? ($T)c / uni : 0;\n"),
       "nnz*nnz/n", "4*(n+1+nnz)+$S*nnz", CSR_SHAPES ";sim=nnz", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: the Jaccard similarity of each of its edges. */\n"
             "extern \"C\" __global__ void edge_similarity(const int *row_ptr, const int *col_idx, $T *sim, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int du = row_ptr[u + 1] - row_ptr[u];\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        const int dv = row_ptr[v + 1] - row_ptr[v];\n"
             "        const int c = common(row_ptr, col_idx, (int)u, v);\n"
             "        const int uni = du + dv - c;\n"
             "        sim[k] = uni > 0 ? ($T)c / uni : 0;\n"
             "    }\n"
             "}\n",
     .launch = {{"edge_similarity", "(n+255)/256", "256", NULL, "row_ptr,col_idx,sim,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("overlap", "f32", TRI, "edge_similarity",
       COMMON_FN "/* Overlap coefficient of the endpoints of each stored edge (u, v):\n"
       " * c / min(d_u, d_v) with c the common neighbours. */\n",
       "const int *row_ptr, const int *col_idx, $T *sim, int n, int nnz",
       EDGE_LOOP("            int m = du < dv ? du : dv;\n            sim[k] = m > 0 ? ($T)c / m : 0;\n"),
       "nnz*nnz/n", "4*(n+1+nnz)+$S*nnz", CSR_SHAPES ";sim=nnz", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: the overlap coefficient of each of its edges. */\n"
             "extern \"C\" __global__ void edge_similarity(const int *row_ptr, const int *col_idx, $T *sim, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int du = row_ptr[u + 1] - row_ptr[u];\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        const int dv = row_ptr[v + 1] - row_ptr[v];\n"
             "        const int c = common(row_ptr, col_idx, (int)u, v);\n"
             "        const int m = du < dv ? du : dv;\n"
             "        sim[k] = m > 0 ? ($T)c / m : 0;\n"
             "    }\n"
             "}\n",
     .launch = {{"edge_similarity", "(n+255)/256", "256", NULL, "row_ptr,col_idx,sim,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("cosine", "f64", TRI, "edge_similarity",
       "#include <math.h>\n\n" COMMON_FN "/* Cosine (Salton) similarity of the endpoints of each stored edge (u, v):\n"
       " * c / sqrt(d_u d_v) with c the common neighbours. */\n",
       "const int *row_ptr, const int *col_idx, $T *sim, int n, int nnz",
       EDGE_LOOP("            sim[k] = dv > 0 ? c / sqrt((double)du * dv) : 0;\n"),
       "nnz*nnz/n", "4*(n+1+nnz)+$S*nnz", CSR_SHAPES ";sim=nnz", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: the cosine similarity of each of its edges. */\n"
             "extern \"C\" __global__ void edge_similarity(const int *row_ptr, const int *col_idx, $T *sim, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int du = row_ptr[u + 1] - row_ptr[u];\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        const int dv = row_ptr[v + 1] - row_ptr[v];\n"
             "        const int c = common(row_ptr, col_idx, (int)u, v);\n"
             "        sim[k] = dv > 0 ? c / sqrt((double)du * dv) : 0;\n"
             "    }\n"
             "}\n",
     .launch = {{"edge_similarity", "(n+255)/256", "256", NULL, "row_ptr,col_idx,sim,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("clustering", "f32", TRI, "clustering",
       COMMON_FN "/* Local clustering coefficient of each vertex u: the number of (ordered)\n"
       " * links among its out-neighbours, sum over v of common(u, v), divided by\n"
       " * d_u (d_u - 1); 0 when d_u < 2. */\n",
       "const int *row_ptr, const int *col_idx, $T *cc, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        int du = row_ptr[u + 1] - row_ptr[u], links = 0;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            links += common(row_ptr, col_idx, u, col_idx[k]);\n"
       "        cc[u] = du > 1 ? ($T)links / (($T)du * (du - 1)) : 0;\n    }\n",
       "nnz*nnz/n", "4*(n+1+nnz)+$S*n", CSR_SHAPES ";cc=n", CSR_FILL,
     .cuda = CU_COMMON
             "/* One thread per vertex u: links among its out-neighbours over d_u (d_u - 1). */\n"
             "extern \"C\" __global__ void clustering(const int *row_ptr, const int *col_idx, $T *cc, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    const int du = row_ptr[u + 1] - row_ptr[u];\n"
             "    int links = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        links += common(row_ptr, col_idx, (int)u, col_idx[k]);\n"
             "    cc[u] = du > 1 ? ($T)links / (($T)du * (du - 1)) : 0;\n"
             "}\n",
     .launch = {{"clustering", "(n+255)/256", "256", NULL, "row_ptr,col_idx,cc,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("adamic-adar", "f64", TRI, "adamic_adar",
       "#include <math.h>\n\n/* Adamic-Adar score of each stored edge (u, v): over every pair a in N(u),\n"
       " * b in N(v) with a == b, add 1 / log(d_a), skipping neighbours of degree\n * below 2. */\n",
       "const int *row_ptr, const int *col_idx, $T *score, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
       "            int v = col_idx[k];\n            $T s = 0;\n"
       "            for (int a = row_ptr[u]; a < row_ptr[u + 1]; a++) {\n                int w = col_idx[a];\n"
       "                int dw = row_ptr[w + 1] - row_ptr[w];\n                if (dw < 2)\n                    continue;\n"
       "                for (int b = row_ptr[v]; b < row_ptr[v + 1]; b++)\n"
       "                    if (col_idx[b] == w)\n                        s += 1 / log((double)dw);\n            }\n"
       "            score[k] = s;\n        }\n    }\n",
       "nnz*nnz/n", "4*(n+1+nnz)+$S*nnz", CSR_SHAPES ";score=nnz", CSR_FILL,
     .cuda = "/* One thread per vertex u: for each of its edges (u, v), 1 / log(d_w) summed\n"
             " * over the matching pairs w of N(u) x N(v), in the C code's order. */\n"
             "extern \"C\" __global__ void adamic_adar(const int *row_ptr, const int *col_idx, $T *score, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        $T s = 0;\n"
             "        for (int a = row_ptr[u]; a < row_ptr[u + 1]; a++) {\n"
             "            const int w = col_idx[a];\n"
             "            const int dw = row_ptr[w + 1] - row_ptr[w];\n"
             "            if (dw < 2)\n"
             "                continue;\n"
             "            for (int b = row_ptr[v]; b < row_ptr[v + 1]; b++)\n"
             "                if (col_idx[b] == w)\n"
             "                    s += 1 / log((double)dw);\n"
             "        }\n"
             "        score[k] = s;\n"
             "    }\n"
             "}\n",
     .launch = {{"adamic_adar", "(n+255)/256", "256", NULL, "row_ptr,col_idx,score,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("sssp-push-active", "f32 f64 i32", G, "relax_step",
       INC "/* One frontier-driven Bellman-Ford step: every active vertex u relaxes\n"
       " * its out-edges (u, v, w), dist_out[v] = min(dist_out[v], dist[u] + w);\n"
       " * active_out flags the vertices whose distance dropped. */\n",
       "const int *row_ptr, const int *col_idx, const $T *weight, const uint8_t *active, const $T *dist, $T *dist_out, uint8_t *active_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        dist_out[v] = dist[v];\n        active_out[v] = 0;\n    }\n"
       "    for (int u = 0; u < n; u++) {\n        if (!active[u])\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[u] + weight[k] < dist_out[v]) {\n                dist_out[v] = dist[u] + weight[k];\n"
       "                active_out[v] = 1;\n            }\n        }\n    }\n",
       "2*nnz", "4*(n+1+nnz)+$S*nnz+(2*$S+2)*n", CSR_SHAPES ";weight=nnz;active=n;dist=n;dist_out=n;active_out=n",
       CSR_FILL ";weight=int:1:100;active=int:0:2;dist=int:0:1000",
     .cuda = "/* Atomic min of $T: native for int; for floats through the integer orderings\n"
             " * of IEEE bit patterns (signed min with the sign bit clear, unsigned max\n"
             " * else). */\n"
             "__device__ void atomic_min_value(int *addr, int v)\n"
             "{\n"
             "    atomicMin(addr, v);\n"
             "}\n"
             "\n"
             "__device__ void atomic_min_value(float *addr, float v)\n"
             "{\n"
             "    if (__float_as_int(v) >= 0)\n"
             "        atomicMin((int *)addr, __float_as_int(v));\n"
             "    else\n"
             "        atomicMax((unsigned int *)addr, __float_as_uint(v));\n"
             "}\n"
             "\n"
             "__device__ void atomic_min_value(double *addr, double v)\n"
             "{\n"
             "    const long long bits = __double_as_longlong(v);\n"
             "    if (bits >= 0)\n"
             "        atomicMin((long long *)addr, bits);\n"
             "    else\n"
             "        atomicMax((unsigned long long *)addr, (unsigned long long)bits);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: dist_out = dist. */\n"
             "extern \"C\" __global__ void init_step(const $T *dist, $T *dist_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        dist_out[v] = dist[v];\n"
             "}\n"
             "\n"
             "/* One thread per active vertex u: relaxes its out-edges into dist_out with\n"
             " * an atomic min. */\n"
             "extern \"C\" __global__ void relax_step(const int *row_ptr, const int *col_idx, const $T *weight,\n"
             "                                      const unsigned char *active, const $T *dist, $T *dist_out, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || !active[u])\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const $T cand = dist[u] + weight[k];\n"
             "        if (cand < dist_out[col_idx[k]])\n"
             "            atomic_min_value(&dist_out[col_idx[k]], cand);\n"
             "    }\n"
             "}\n"
             "\n"
             "/* One thread per vertex: active when its distance dropped. */\n"
             "extern \"C\" __global__ void flag_improved(const $T *dist, const $T *dist_out, unsigned char *active_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        active_out[v] = dist_out[v] < dist[v];\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,dist_out,n"},
                {"relax_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,weight,active,dist,dist_out,n"},
                {"flag_improved", "(n+255)/256", "256", NULL, "dist,dist_out,active_out,n"}},
     .mapping = "one-active-vertex-per-thread-push-atomicmin"),
    OP("sssp-steps", "f32", GI, "relax_steps",
       "#include <stdlib.h>\n#include <string.h>\n\n"
       "/* `iters` synchronous Bellman-Ford sweeps (push form) from the given\n"
       " * tentative distances: each sweep relaxes every edge against the\n * previous sweep's distances. */\n",
       "const int *row_ptr, const int *col_idx, const $T *weight, const $T *dist, $T *dist_out, int n, int nnz, int iters",
       NNZ_UNUSED "    $T *prev = malloc((size_t)n * sizeof *prev);\n    if (!prev)\n        return;\n"
       "    memcpy(dist_out, dist, (size_t)n * sizeof *dist_out);\n"
       "    for (int it = 0; it < iters; it++) {\n        memcpy(prev, dist_out, (size_t)n * sizeof *prev);\n"
       "        for (int u = 0; u < n; u++)\n            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "                if (prev[u] + weight[k] < dist_out[col_idx[k]])\n"
       "                    dist_out[col_idx[k]] = prev[u] + weight[k];\n    }\n    free(prev);\n",
       "2*nnz*iters", "4*(n+1+nnz)+$S*nnz+2*$S*n", CSR_SHAPES ";weight=nnz;dist=n;dist_out=n",
       CSR_FILL ";weight=uni:0.1:1;dist=uni:0:20",
     .cuda = "/* Atomic float min through the integer orderings of IEEE bit patterns. */\n"
             "__device__ void atomic_min_float(float *addr, float v)\n"
             "{\n"
             "    if (__float_as_int(v) >= 0)\n"
             "        atomicMin((int *)addr, __float_as_int(v));\n"
             "    else\n"
             "        atomicMax((unsigned int *)addr, __float_as_uint(v));\n"
             "}\n"
             "\n"
             "/* One block runs the iters sweeps, its threads striding over the vertices:\n"
             " * prev = dist_out, then every edge (u, v, w) lowers dist_out[v] to\n"
             " * prev[u] + w with an atomic min, a barrier between the two. */\n"
             "extern \"C\" __global__ void relax_steps(const int *row_ptr, const int *col_idx, const $T *weight, const $T *dist,\n"
             "                                       $T *dist_out, $T *prev, int n, int iters)\n"
             "{\n"
             "    for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "        dist_out[v] = dist[v];\n"
             "    for (int it = 0; it < iters; it++) {\n"
             "        __syncthreads();\n"
             "        for (int v = threadIdx.x; v < n; v += blockDim.x)\n"
             "            prev[v] = dist_out[v];\n"
             "        __syncthreads();\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x)\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "                if (prev[u] + weight[k] < dist_out[col_idx[k]])\n"
             "                    atomic_min_float(&dist_out[col_idx[k]], prev[u] + weight[k]);\n"
             "    }\n"
             "}\n",
     .launch = {{"relax_steps", "1", "1024", NULL, "row_ptr,col_idx,weight,dist,dist_out,prev,n,iters"}},
     .scratch = "prev:$T:n",
     .mapping = "one-block-synchronous-sweeps-atomicmin"),
    OP("widest-path", "f32", G, "widest_step",
       "/* One pull step of the widest (maximum-bottleneck) path problem: row v\n"
       " * lists in-edges (u, v) with capacity cap; width_out[v] =\n"
       " * max(width[v], max_u min(width[u], cap)). */\n",
       "const int *row_ptr, const int *col_idx, const $T *cap, const $T *width, $T *width_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        $T best = width[v];\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "            $T w = width[col_idx[k]] < cap[k] ? width[col_idx[k]] : cap[k];\n"
       "            if (w > best)\n                best = w;\n        }\n        width_out[v] = best;\n    }\n",
       "2*nnz", "4*(n+1+nnz)+$S*nnz+2*$S*n", CSR_SHAPES ";cap=nnz;width=n;width_out=n",
       CSR_FILL ";cap=uni:0:1;width=uni:0:1",
     .cuda = "/* One thread per vertex: the best bottleneck over its in-edges. */\n"
             "extern \"C\" __global__ void widest_step(const int *row_ptr, const int *col_idx, const $T *cap, const $T *width,\n"
             "                                       $T *width_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    $T best = width[v];\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        const $T w = width[col_idx[k]] < cap[k] ? width[col_idx[k]] : cap[k];\n"
             "        if (w > best)\n"
             "            best = w;\n"
             "    }\n"
             "    width_out[v] = best;\n"
             "}\n",
     .launch = {{"widest_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,cap,width,width_out,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("sssp-pull-pred", "f64", G, "relax_step",
       "/* One pull Bellman-Ford step with predecessors: row v lists in-edges\n"
       " * (u, v, w); v keeps its distance and predecessor unless some dist[u] + w\n"
       " * is smaller, in which case the first such best u (in CSR order) wins. */\n",
       "const int *row_ptr, const int *col_idx, const $T *weight, const $T *dist, const int *pred, $T *dist_out, int *pred_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        $T best = dist[v];\n        int from = pred[v];\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "            $T cand = dist[col_idx[k]] + weight[k];\n"
       "            if (cand < best) {\n                best = cand;\n                from = col_idx[k];\n            }\n        }\n"
       "        dist_out[v] = best;\n        pred_out[v] = from;\n    }\n",
       "2*nnz", "4*(n+1+nnz)+$S*nnz+(2*$S+8)*n", CSR_SHAPES ";weight=nnz;dist=n;pred=n;dist_out=n;pred_out=n",
       CSR_FILL ";weight=uni:0.1:1;dist=uni:0:20;pred=int:-1:n",
     .cuda = "/* One thread per vertex: the first strictly best in-edge candidate. */\n"
             "extern \"C\" __global__ void relax_step(const int *row_ptr, const int *col_idx, const $T *weight, const $T *dist,\n"
             "                                      const int *pred, $T *dist_out, int *pred_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    $T best = dist[v];\n"
             "    int from = pred[v];\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        const $T cand = dist[col_idx[k]] + weight[k];\n"
             "        if (cand < best) {\n"
             "            best = cand;\n"
             "            from = col_idx[k];\n"
             "        }\n"
             "    }\n"
             "    dist_out[v] = best;\n"
             "    pred_out[v] = from;\n"
             "}\n",
     .launch = {{"relax_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,weight,dist,pred,dist_out,pred_out,n"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("mis-step", "i32", G, "mis_step",
       INC "/* One round of Luby's maximal independent set (state 0 undecided, 1 in\n"
       " * the set, 2 excluded): an undecided vertex whose (priority, id) beats\n"
       " * every undecided neighbour joins the set; then undecided neighbours of\n"
       " * the set are excluded. */\n"
       "static int beats(const int *prio, int a, int b)\n{\n"
       "    return prio[a] > prio[b] || (prio[a] == prio[b] && a > b);\n}\n\n",
       "const int *row_ptr, const int *col_idx, const int *priority, const uint8_t *state, uint8_t *state_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        state_out[v] = state[v];\n        if (state[v] != 0)\n            continue;\n"
       "        int wins = 1;\n        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n            int u = col_idx[k];\n"
       "            if (u != v && state[u] == 0 && !beats(priority, v, u)) {\n                wins = 0;\n                break;\n"
       "            }\n        }\n        if (wins)\n            state_out[v] = 1;\n    }\n"
       "    for (int v = 0; v < n; v++) {\n        if (state_out[v] != 0)\n            continue;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
       "            if (state_out[col_idx[k]] == 1 && state[col_idx[k]] == 0) {\n"
       "                state_out[v] = 2;\n                break;\n            }\n        }\n    }\n",
       "2*nnz", "4*(n+1+nnz)+6*n", CSR_SHAPES ";priority=n;state=n;state_out=n",
       CSR_FILL ";priority=int:0:1000000;state=int:0:3",
     .cuda = "__device__ int beats(const int *prio, int a, int b)\n"
             "{\n"
             "    return prio[a] > prio[b] || (prio[a] == prio[b] && a > b);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: an undecided vertex that beats all its undecided\n"
             " * neighbours joins the set. */\n"
             "extern \"C\" __global__ void mis_select(const int *row_ptr, const int *col_idx, const int *priority,\n"
             "                                      const unsigned char *state, unsigned char *state_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    state_out[v] = state[v];\n"
             "    if (state[v] != 0)\n"
             "        return;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        const int u = col_idx[k];\n"
             "        if (u != v && state[u] == 0 && !beats(priority, (int)v, u))\n"
             "            return;\n"
             "    }\n"
             "    state_out[v] = 1;\n"
             "}\n"
             "\n"
             "/* One thread per vertex: an undecided vertex next to a vertex that joined\n"
             " * the set in this round is excluded. */\n"
             "extern \"C\" __global__ void mis_exclude(const int *row_ptr, const int *col_idx, const unsigned char *state,\n"
             "                                       unsigned char *state_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n || state_out[v] != 0)\n"
             "        return;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        if (state_out[col_idx[k]] == 1 && state[col_idx[k]] == 0) {\n"
             "            state_out[v] = 2;\n"
             "            return;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"mis_select", "(n+255)/256", "256", NULL, "row_ptr,col_idx,priority,state,state_out,n"},
                {"mis_exclude", "(n+255)/256", "256", NULL, "row_ptr,col_idx,state,state_out,n"}},
     .mapping = "one-vertex-per-thread-two-phases"),
    OP("coloring-step", "i32", G, "color_step",
       "/* One Jones-Plassmann colouring round (color -1 = uncoloured): an\n"
       " * uncoloured vertex whose (priority, id) beats all uncoloured neighbours\n"
       " * takes the smallest colour not used by its coloured neighbours. */\n"
       "static int beats(const int *prio, int a, int b)\n{\n"
       "    return prio[a] > prio[b] || (prio[a] == prio[b] && a > b);\n}\n\n",
       "const int *row_ptr, const int *col_idx, const int *priority, const int *color, int *color_out, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        color_out[v] = color[v];\n        if (color[v] != -1)\n            continue;\n"
       "        int wins = 1;\n        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n            int u = col_idx[k];\n"
       "            if (u != v && color[u] == -1 && !beats(priority, v, u))\n                wins = 0;\n        }\n"
       "        if (!wins)\n            continue;\n        int c = 0;\n        for (int used = 1; used;) {\n"
       "            used = 0;\n            for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
       "                if (color[col_idx[k]] == c)\n                    used = 1;\n            if (used)\n                c++;\n        }\n"
       "        color_out[v] = c;\n    }\n",
       "4*nnz", "4*(n+1+nnz)+12*n", CSR_SHAPES ";priority=n;color=n;color_out=n",
       CSR_FILL ";priority=int:0:1000000;color=int:-1:4",
     .cuda = "__device__ int beats(const int *prio, int a, int b)\n"
             "{\n"
             "    return prio[a] > prio[b] || (prio[a] == prio[b] && a > b);\n"
             "}\n"
             "\n"
             "/* One thread per vertex: an uncoloured vertex that beats all its uncoloured\n"
             " * neighbours takes the smallest colour its coloured neighbours leave free. */\n"
             "extern \"C\" __global__ void color_step(const int *row_ptr, const int *col_idx, const int *priority, const int *color,\n"
             "                                      int *color_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    color_out[v] = color[v];\n"
             "    if (color[v] != -1)\n"
             "        return;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        const int u = col_idx[k];\n"
             "        if (u != v && color[u] == -1 && !beats(priority, (int)v, u))\n"
             "            return;\n"
             "    }\n"
             "    int c = 0;\n"
             "    for (int used = 1; used;) {\n"
             "        used = 0;\n"
             "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++)\n"
             "            if (color[col_idx[k]] == c)\n"
             "                used = 1;\n"
             "        if (used)\n"
             "            c++;\n"
             "    }\n"
             "    color_out[v] = c;\n"
             "}\n",
     .launch = {{"color_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,priority,color,color_out,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("kcore-peel", "i32", GK, "kcore_step",
       INC "/* One k-core peeling step: a vertex stays alive when it is alive and at\n"
       " * least k of its neighbours are alive. */\n",
       "const int *row_ptr, const int *col_idx, const uint8_t *alive, uint8_t *alive_out, int n, int nnz, int k",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        int live = 0;\n"
       "        for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)\n            live += alive[col_idx[e]] != 0;\n"
       "        alive_out[v] = alive[v] && live >= k;\n    }\n",
       "nnz", "4*(n+1+nnz)+2*n", CSR_SHAPES ";alive=n;alive_out=n", CSR_FILL ";alive=int:0:2",
     .cuda = "/* One thread per vertex: alive with at least k live neighbours. */\n"
             "extern \"C\" __global__ void kcore_step(const int *row_ptr, const int *col_idx, const unsigned char *alive,\n"
             "                                      unsigned char *alive_out, int n, int k)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    int live = 0;\n"
             "    for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)\n"
             "        live += alive[col_idx[e]] != 0;\n"
             "    alive_out[v] = alive[v] && live >= k;\n"
             "}\n",
     .launch = {{"kcore_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,alive,alive_out,n,k"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("frontier-compact", "i32", VERT, "compact_frontier",
       INC "/* Compacts a frontier given as flags into a queue: the flagged vertices in\n"
       " * ascending order, then -1 up to n entries. */\n",
       "const uint8_t *flags, int *queue, int n",
       "    int len = 0;\n    for (int v = 0; v < n; v++)\n        if (flags[v])\n            queue[len++] = v;\n"
       "    for (int i = len; i < n; i++)\n        queue[i] = -1;\n",
       "n", "5*n", "flags=n;queue=n", "flags=int:0:2",
     .cuda = "/* One block per tile of blockDim.x vertices: how many are flagged. */\n"
             "extern \"C\" __global__ void count_flags(const unsigned char *flags, int *block_count, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    const int c = __syncthreads_count(v < n && flags[v]);\n"
             "    if (threadIdx.x == 0)\n"
             "        block_count[blockIdx.x] = c;\n"
             "}\n"
             "\n"
             "/* One block: block_start[b] = the flags of the tiles before b, in chunks of\n"
             " * blockDim.x (a Hillis-Steele scan in shared memory plus the running total);\n"
             " * block_start[nblocks] = the total. */\n"
             "extern \"C\" __global__ void scan_counts(const int *block_count, int *block_start, int nblocks)\n"
             "{\n"
             "    extern __shared__ int part[];\n"
             "    int carry = 0;\n"
             "    for (int base = 0; base < nblocks; base += blockDim.x) {\n"
             "        const int b = base + threadIdx.x;\n"
             "        const int c = b < nblocks ? block_count[b] : 0;\n"
             "        part[threadIdx.x] = c;\n"
             "        __syncthreads();\n"
             "        for (int off = 1; off < blockDim.x; off *= 2) {\n"
             "            const int add = threadIdx.x >= off ? part[threadIdx.x - off] : 0;\n"
             "            __syncthreads();\n"
             "            part[threadIdx.x] += add;\n"
             "            __syncthreads();\n"
             "        }\n"
             "        if (b < nblocks)\n"
             "            block_start[b] = carry + part[threadIdx.x] - c;\n"
             "        carry += part[blockDim.x - 1];\n"
             "        __syncthreads();\n"
             "    }\n"
             "    if (threadIdx.x == 0)\n"
             "        block_start[nblocks] = carry;\n"
             "}\n"
             "\n"
             "/* One thread per vertex: a flagged vertex goes to its tile's start plus the\n"
             " * flagged vertices before it in the tile (a shared-memory scan); entries\n"
             " * from the total on are -1. */\n"
             "extern \"C\" __global__ void compact_frontier(const unsigned char *flags, const int *block_start, int *queue, int n,\n"
             "                                            int nblocks)\n"
             "{\n"
             "    extern __shared__ int part[];\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    const int f = v < n && flags[v] ? 1 : 0;\n"
             "    part[threadIdx.x] = f;\n"
             "    __syncthreads();\n"
             "    for (int off = 1; off < blockDim.x; off *= 2) {\n"
             "        const int add = threadIdx.x >= off ? part[threadIdx.x - off] : 0;\n"
             "        __syncthreads();\n"
             "        part[threadIdx.x] += add;\n"
             "        __syncthreads();\n"
             "    }\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    if (f)\n"
             "        queue[block_start[blockIdx.x] + part[threadIdx.x] - 1] = (int)v;\n"
             "    if (v >= block_start[nblocks])\n"
             "        queue[v] = -1;\n"
             "}\n",
     .launch = {{"count_flags", "(n+255)/256", "256", NULL, "flags,block_count,n"},
                {"scan_counts", "1", "256", "256*4", "block_count,block_start,(n+255)/256"},
                {"compact_frontier", "(n+255)/256", "256", "256*4", "flags,block_start,queue,n,(n+255)/256"}},
     .scratch = "block_count:i32:(n+255)/256;block_start:i32:(n+255)/256+1",
     .mapping = "block-count+one-block-scan+block-scan-scatter"),
    OP("bfs-coo-step", "i32", COOK, "bfs_step",
       INC "/* One BFS step over an edge list (src[e] -> dst[e]): the unvisited\n"
       " * (dist -1) targets of edges leaving the frontier get distance level + 1\n * and join next. */\n",
       "const int *src, const int *dst, const uint8_t *frontier, const int *dist, uint8_t *next, int *dist_out, int n, int nnz, int level",
       "    for (int v = 0; v < n; v++) {\n        next[v] = 0;\n        dist_out[v] = dist[v];\n    }\n"
       "    for (int e = 0; e < nnz; e++) {\n        if (frontier[src[e]] && dist_out[dst[e]] == -1) {\n"
       "            dist_out[dst[e]] = level + 1;\n            next[dst[e]] = 1;\n        }\n    }\n",
       "nnz", "8*nnz+10*n", "src=nnz;dst=nnz;frontier=n;dist=n;next=n;dist_out=n",
       "src=int:0:n;dst=int:0:n;frontier=int:0:2;dist=int:-1:3",
     .cuda = "/* One thread per vertex: next = 0, dist_out = dist. */\n"
             "extern \"C\" __global__ void init_step(const int *dist, unsigned char *next, int *dist_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    next[v] = 0;\n"
             "    dist_out[v] = dist[v];\n"
             "}\n"
             "\n"
             "/* One thread per edge: an unvisited target of an edge leaving the frontier\n"
             " * gets level + 1 and joins next (every writer stores the same values). */\n"
             "extern \"C\" __global__ void bfs_step(const int *src, const int *dst, const unsigned char *frontier, const int *dist,\n"
             "                                    unsigned char *next, int *dist_out, int nnz, int level)\n"
             "{\n"
             "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (e >= nnz)\n"
             "        return;\n"
             "    if (frontier[src[e]] && dist[dst[e]] == -1) {\n"
             "        dist_out[dst[e]] = level + 1;\n"
             "        next[dst[e]] = 1;\n"
             "    }\n"
             "}\n",
     .launch = {{"init_step", "(n+255)/256", "256", NULL, "dist,next,dist_out,n"},
                {"bfs_step", "(nnz+255)/256", "256", NULL, "src,dst,frontier,dist,next,dist_out,nnz,level"}},
     .mapping = "one-edge-per-thread"),
    OP("two-coloring", "i32", G, "bipartite_step",
       INC "/* One step of 2-colouring for a bipartiteness test (color -1, 0 or 1): an\n"
       " * uncoloured vertex takes the opposite of its first coloured neighbour's\n"
       " * colour; conflict[v] = 1 when a coloured v has a neighbour of its own\n * colour. */\n",
       "const int *row_ptr, const int *col_idx, const int *color, int *color_out, uint8_t *conflict, int n, int nnz",
       NNZ_UNUSED "    for (int v = 0; v < n; v++) {\n        color_out[v] = color[v];\n        conflict[v] = 0;\n"
       "        for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n            int c = color[col_idx[k]];\n"
       "            if (c == -1)\n                continue;\n            if (color[v] == -1) {\n"
       "                color_out[v] = 1 - c;\n                break;\n            }\n"
       "            if (c == color[v])\n                conflict[v] = 1;\n        }\n    }\n",
       "nnz", "4*(n+1+nnz)+9*n", CSR_SHAPES ";color=n;color_out=n;conflict=n", CSR_FILL ";color=int:-1:2",
     .cuda = "/* One thread per vertex: the C code's scan of its neighbours' colours. */\n"
             "extern \"C\" __global__ void bipartite_step(const int *row_ptr, const int *col_idx, const int *color, int *color_out,\n"
             "                                          unsigned char *conflict, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    color_out[v] = color[v];\n"
             "    conflict[v] = 0;\n"
             "    for (int k = row_ptr[v]; k < row_ptr[v + 1]; k++) {\n"
             "        const int c = color[col_idx[k]];\n"
             "        if (c == -1)\n"
             "            continue;\n"
             "        if (color[v] == -1) {\n"
             "            color_out[v] = 1 - c;\n"
             "            break;\n"
             "        }\n"
             "        if (c == color[v])\n"
             "            conflict[v] = 1;\n"
             "    }\n"
             "}\n",
     .launch = {{"bipartite_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,color,color_out,conflict,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("sigma-step", "f64", GL, "sigma_step",
       "/* One forward step of Brandes' betweenness algorithm: for every vertex u\n"
       " * on BFS level `level` and out-edge u -> v with dist[v] = level + 1, the\n"
       " * shortest-path count of v grows by that of u. */\n",
       "const int *row_ptr, const int *col_idx, const int *dist, const $T *sigma, $T *sigma_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int v = 0; v < n; v++)\n        sigma_out[v] = sigma[v];\n"
       "    for (int u = 0; u < n; u++) {\n        if (dist[u] != level)\n            continue;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            if (dist[col_idx[k]] == level + 1)\n                sigma_out[col_idx[k]] += sigma[u];\n    }\n",
       "nnz", "4*(n+1+nnz)+(4+2*$S)*n", CSR_SHAPES ";dist=n;sigma=n;sigma_out=n",
       CSR_FILL ";dist=int:0:5;sigma=int:1:10",
     .cuda = "/* One thread per vertex: sigma_out = sigma. */\n"
             "extern \"C\" __global__ void copy_sigma(const $T *sigma, $T *sigma_out, int n)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v < n)\n"
             "        sigma_out[v] = sigma[v];\n"
             "}\n"
             "\n"
             "/* One thread per vertex u on the level: adds sigma[u] to its out-neighbours\n"
             " * one level further (atomically; the counts are whole numbers, so the sums\n"
             " * are exact in any order). */\n"
             "extern \"C\" __global__ void sigma_step(const int *row_ptr, const int *col_idx, const int *dist, const $T *sigma,\n"
             "                                      $T *sigma_out, int n, int level)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n || dist[u] != level)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        if (dist[col_idx[k]] == level + 1)\n"
             "            atomicAdd(&sigma_out[col_idx[k]], sigma[u]);\n"
             "}\n",
     .launch = {{"copy_sigma", "(n+255)/256", "256", NULL, "sigma,sigma_out,n"},
                {"sigma_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,dist,sigma,sigma_out,n,level"}},
     .mapping = "one-vertex-per-thread-push-atomicadd"),
    OP("bfs-path-counts", "f64", GS, "bfs_paths",
       "#include <stdlib.h>\n\n/* BFS from `source` counting shortest paths: dist[v] (-1 unreachable) and\n"
       " * sigma[v], the number of shortest paths from the source to v. */\n",
       "const int *row_ptr, const int *col_idx, int *dist, $T *sigma, int n, int nnz, int source",
       NNZ_UNUSED "    int *queue = malloc((size_t)n * sizeof *queue);\n    if (!queue)\n        return;\n"
       "    for (int v = 0; v < n; v++) {\n        dist[v] = -1;\n        sigma[v] = 0;\n    }\n"
       "    dist[source] = 0;\n    sigma[source] = 1;\n    queue[0] = source;\n    int head = 0, tail = 1;\n"
       "    while (head < tail) {\n        int u = queue[head++];\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == -1) {\n                dist[v] = dist[u] + 1;\n                queue[tail++] = v;\n            }\n"
       "            if (dist[v] == dist[u] + 1)\n                sigma[v] += sigma[u];\n        }\n    }\n    free(queue);\n",
       "2*nnz", "4*(n+1+nnz)+(4+$S)*n", CSR_SHAPES ";dist=n;sigma=n", CSR_FILL,
     .cuda = "/* One thread per vertex: dist = -1, sigma = 0; the source 0 and 1. */\n"
             "extern \"C\" __global__ void init_search(int *dist, $T *sigma, int n, int source)\n"
             "{\n"
             "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (v >= n)\n"
             "        return;\n"
             "    dist[v] = v == source ? 0 : -1;\n"
             "    sigma[v] = v == source ? 1 : 0;\n"
             "}\n"
             "\n"
             "/* One block, level-synchronous: a vertex u on the level claims its\n"
             " * unvisited out-neighbours (atomicCAS) and adds sigma[u], final since its\n"
             " * level was done, to those one level further (atomicAdd: whole numbers,\n"
             " * exact in any order); a barrier before the next level.  Until a level adds\n"
             " * nobody. */\n"
             "extern \"C\" __global__ void bfs_paths(const int *row_ptr, const int *col_idx, int *dist, $T *sigma, int n)\n"
             "{\n"
             "    for (int level = 0;; level++) {\n"
             "        int added = 0;\n"
             "        for (int u = threadIdx.x; u < n; u += blockDim.x) {\n"
             "            if (dist[u] != level)\n"
             "                continue;\n"
             "            for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "                const int v = col_idx[k];\n"
             "                const int old = atomicCAS(&dist[v], -1, level + 1);\n"
             "                if (old == -1)\n"
             "                    added = 1;\n"
             "                if (old == -1 || old == level + 1)\n"
             "                    atomicAdd(&sigma[v], sigma[u]);\n"
             "            }\n"
             "        }\n"
             "        if (!__syncthreads_or(added))\n"
             "            break;\n"
             "    }\n"
             "}\n",
     .launch = {{"init_search", "(n+255)/256", "256", NULL, "dist,sigma,n,source"},
                {"bfs_paths", "1", "1024", NULL, "row_ptr,col_idx,dist,sigma,n"}},
     .mapping = "one-block-level-synchronous"),
    OP("dependency-step", "f64", GL, "dependency_step",
       "/* One backward step of Brandes' algorithm: each vertex u on level `level`\n"
       " * accumulates delta_u = sum over out-edges u -> v with dist[v] = level + 1\n"
       " * of sigma[u] / sigma[v] (1 + delta[v]); other vertices keep delta. */\n",
       "const int *row_ptr, const int *col_idx, const int *dist, const $T *sigma, const $T *delta, $T *delta_out, int n, int nnz, int level",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        delta_out[u] = delta[u];\n        if (dist[u] != level)\n            continue;\n"
       "        $T d = 0;\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n            int v = col_idx[k];\n"
       "            if (dist[v] == level + 1)\n                d += sigma[u] / sigma[v] * (1 + delta[v]);\n        }\n"
       "        delta_out[u] = d;\n    }\n",
       "4*nnz", "4*(n+1+nnz)+(4+3*$S)*n", CSR_SHAPES ";dist=n;sigma=n;delta=n;delta_out=n",
       CSR_FILL ";dist=int:0:5;sigma=int:1:10;delta=uni:0:3",
     .cuda = "/* One thread per vertex: a vertex on the level sums its successors'\n"
             " * contributions in CSR order; others keep delta. */\n"
             "extern \"C\" __global__ void dependency_step(const int *row_ptr, const int *col_idx, const int *dist, const $T *sigma,\n"
             "                                           const $T *delta, $T *delta_out, int n, int level)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    delta_out[u] = delta[u];\n"
             "    if (dist[u] != level)\n"
             "        return;\n"
             "    $T d = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++) {\n"
             "        const int v = col_idx[k];\n"
             "        if (dist[v] == level + 1)\n"
             "            d += sigma[u] / sigma[v] * (1 + delta[v]);\n"
             "    }\n"
             "    delta_out[u] = d;\n"
             "}\n",
     .launch = {{"dependency_step", "(n+255)/256", "256", NULL, "row_ptr,col_idx,dist,sigma,delta,delta_out,n,level"}},
     .mapping = "one-vertex-per-thread-pull"),
    OP("random-walk-step", "i32", WALK, "walk_step",
       "/* One step of many random walkers: walker w at vertex u moves to its\n"
       " * out-neighbour number r[w] mod deg(u), or stays when u has none. */\n",
       "const int *row_ptr, const int *col_idx, const int *pos, const int *r, int *next, int n, int nnz, int walkers",
       "    (void)n; /* sizes row_ptr */\n    (void)nnz; /* sizes col_idx */\n"
       "    for (int w = 0; w < walkers; w++) {\n        int u = pos[w];\n        int deg = row_ptr[u + 1] - row_ptr[u];\n"
       "        next[w] = deg > 0 ? col_idx[row_ptr[u] + r[w] % deg] : u;\n    }\n",
       "2*walkers", "4*(n+1)+16*walkers", CSR_SHAPES ";pos=walkers;r=walkers;next=walkers",
       CSR_FILL ";pos=int:0:n;r=int:0:1000000",
     .cuda = "/* One thread per walker: out-neighbour number r mod deg, or stay. */\n"
             "extern \"C\" __global__ void walk_step(const int *row_ptr, const int *col_idx, const int *pos, const int *r, int *next,\n"
             "                                     int walkers)\n"
             "{\n"
             "    const long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (w >= walkers)\n"
             "        return;\n"
             "    const int u = pos[w];\n"
             "    const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "    next[w] = deg > 0 ? col_idx[row_ptr[u] + r[w] % deg] : u;\n"
             "}\n",
     .launch = {{"walk_step", "(walkers+255)/256", "256", NULL, "row_ptr,col_idx,pos,r,next,walkers"}},
     .mapping = "one-walker-per-thread"),
    OP("random-walks", "i32", WALKS, "walks",
       "/* Random walks of `steps` steps: walker w starts at start[w] and at step s\n"
       " * moves from u to out-neighbour number r[w][s] mod deg(u) (staying on a\n"
       " * vertex without out-edges); path[w][s] is its vertex after step s. */\n",
       "const int *row_ptr, const int *col_idx, const int *start, const int *r, int *path, int n, int nnz, int walkers, int steps",
       "    (void)n; /* sizes row_ptr */\n    (void)nnz; /* sizes col_idx */\n"
       "    for (int w = 0; w < walkers; w++) {\n        int u = start[w];\n        for (int s = 0; s < steps; s++) {\n"
       "            int deg = row_ptr[u + 1] - row_ptr[u];\n            if (deg > 0)\n"
       "                u = col_idx[row_ptr[u] + r[w * steps + s] % deg];\n            path[w * steps + s] = u;\n"
       "        }\n    }\n",
       "2*walkers*steps", "4*(n+1)+4*walkers+8*walkers*steps", CSR_SHAPES ";start=walkers;r=walkers,steps;path=walkers,steps",
       CSR_FILL ";start=int:0:n;r=int:0:1000000",
     .cuda = "/* One thread per walker: its whole walk. */\n"
             "extern \"C\" __global__ void walks(const int *row_ptr, const int *col_idx, const int *start, const int *r, int *path,\n"
             "                                 int walkers, int steps)\n"
             "{\n"
             "    const long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (w >= walkers)\n"
             "        return;\n"
             "    int u = start[w];\n"
             "    for (int s = 0; s < steps; s++) {\n"
             "        const int deg = row_ptr[u + 1] - row_ptr[u];\n"
             "        if (deg > 0)\n"
             "            u = col_idx[row_ptr[u] + r[w * steps + s] % deg];\n"
             "        path[w * steps + s] = u;\n"
             "    }\n"
             "}\n",
     .launch = {{"walks", "(walkers+255)/256", "256", NULL, "row_ptr,col_idx,start,r,path,walkers,steps"}},
     .mapping = "one-walker-per-thread"),
    OP("two-hop-degree", "i32", G, "two_hop",
       "/* The two-hop reach estimate of each vertex: the sum of the out-degrees of\n * its out-neighbours. */\n",
       "const int *row_ptr, const int *col_idx, int *reach, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++) {\n        int sum = 0;\n"
       "        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            sum += row_ptr[col_idx[k] + 1] - row_ptr[col_idx[k]];\n        reach[u] = sum;\n    }\n",
       "2*nnz", "4*(n+1+nnz)+4*n", CSR_SHAPES ";reach=n", CSR_FILL,
     .cuda = "/* One thread per vertex: its out-neighbours' out-degrees summed. */\n"
             "extern \"C\" __global__ void two_hop(const int *row_ptr, const int *col_idx, int *reach, int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    int sum = 0;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        sum += row_ptr[col_idx[k] + 1] - row_ptr[col_idx[k]];\n"
             "    reach[u] = sum;\n"
             "}\n",
     .launch = {{"two_hop", "(n+255)/256", "256", NULL, "row_ptr,col_idx,reach,n"}},
     .mapping = "one-vertex-per-thread"),
    OP("tree-edges", "i32", G, "tree_edges",
       INC "/* Marks the BFS-DAG edges: is_tree[k] = 1 for a stored edge u -> v with\n"
       " * dist[u] >= 0 and dist[v] = dist[u] + 1. */\n",
       "const int *row_ptr, const int *col_idx, const int *dist, uint8_t *is_tree, int n, int nnz",
       NNZ_UNUSED "    for (int u = 0; u < n; u++)\n        for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
       "            is_tree[k] = dist[u] >= 0 && dist[col_idx[k]] == dist[u] + 1;\n",
       "nnz", "4*(n+1+nnz)+4*n+nnz", CSR_SHAPES ";dist=n;is_tree=nnz", CSR_FILL ";dist=int:-1:4",
     .cuda = "/* One thread per vertex u: marks its out-edges into the next BFS level. */\n"
             "extern \"C\" __global__ void tree_edges(const int *row_ptr, const int *col_idx, const int *dist, unsigned char *is_tree,\n"
             "                                      int n)\n"
             "{\n"
             "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (u >= n)\n"
             "        return;\n"
             "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
             "        is_tree[k] = dist[u] >= 0 && dist[col_idx[k]] == dist[u] + 1;\n"
             "}\n",
     .launch = {{"tree_edges", "(n+255)/256", "256", NULL, "row_ptr,col_idx,dist,is_tree,n"}},
     .mapping = "one-vertex-per-thread"),
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* Applies "name=int:lo:hi;name=uni:lo:hi;name=part:total;name=sorted". */
static int generate(GenCtx *g)
{
    static const OpFamily family = {"graph traversal step", configs, reference_bytes};
    return ops_emit_all(g, &family, OPS, N_OPS);
}

const Family family_bfs_step = {"bfs_step", "graph", 54, generate};
