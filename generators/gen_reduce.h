/* gen_reduce.h — the combining steps of the reductions built on an `Acc`
 * struct, as CUDA text for a family's kernel.cu.
 *
 * A reduction family emits its own `struct Acc` with acc_identity() and
 * acc_merge(a, b) (the merge must be associative and, up to rounding,
 * commutative); these emit the ways threads combine their accumulators:
 *
 *   reduce_emit_tree          block_reduce(sh): sh[0 .. blockDim.x) into
 *                             sh[0] by a shared-memory tree (blockDim.x a
 *                             power of two)
 *   reduce_emit_block_shuffle block_reduce_shfl(a, sh): the block's a into
 *                             thread 0's by warp shuffles, then the first
 *                             warp over the warps' results (sh: 32 Accs;
 *                             blockDim.x a multiple of 32)
 *   reduce_emit_warp_allreduce warp_allreduce(a): a warp's a combined into
 *                             every lane's (a butterfly of xor shuffles)
 *
 * `fields` names Acc's members ("m", "lo,hi", "n,mean,m2"): each moves by
 * its own __shfl_*_sync (any 4- or 8-byte type).  Each function appends
 * complete definitions ending in "}\n" and emits nothing else. */
#ifndef CUDAPERF_GEN_REDUCE_H
#define CUDAPERF_GEN_REDUCE_H

#include "../common/strbuf.h"

void reduce_emit_tree(StrBuf *k);
void reduce_emit_block_shuffle(StrBuf *k, const char *fields);
void reduce_emit_warp_allreduce(StrBuf *k, const char *fields);

/* The CUDA text of `__device__ A block_sum(A v)`, a string literal to
 * concatenate: the block's v summed into thread 0's by warp shuffles, then
 * one partial per warp through shared memory (blockDim.x a multiple of 32,
 * at most 1024). */
#define REDUCE_BLOCK_SUM(A)                                                                        \
    "/* Sum of v over the block, valid in thread 0 (blockDim.x a multiple of 32,\n"                     \
    " * at most 1024).  The first barrier lets a second call reuse part[]. */\n"                         \
    "__device__ " A " block_sum(" A " v)\n{\n"                                                              \
    "    __shared__ " A " part[32];\n"                                                                     \
    "    for (int o = 16; o > 0; o >>= 1)\n"                                                              \
    "        v += __shfl_down_sync(0xffffffffu, v, o);\n"                                                  \
    "    __syncthreads();\n"                                                                              \
    "    if (threadIdx.x % 32 == 0)\n"                                                                    \
    "        part[threadIdx.x / 32] = v;\n"                                                               \
    "    __syncthreads();\n"                                                                              \
    "    v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;\n"                                     \
    "    if (threadIdx.x < 32)\n"                                                                         \
    "        for (int o = 16; o > 0; o >>= 1)\n"                                                          \
    "            v += __shfl_down_sync(0xffffffffu, v, o);\n"                                              \
    "    return v;\n}\n\n"

#endif
