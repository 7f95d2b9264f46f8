#include "gen_reduce.h"

#include <stdio.h>
#include <string.h>

void reduce_emit_tree(StrBuf *k)
{
    sb_append(k, "/* Combines sh[0 .. blockDim.x) into sh[0]; blockDim.x is a power of two. */\n"
                 "__device__ void block_reduce(Acc *sh)\n{\n"
                 "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                 "        __syncthreads();\n"
                 "        if (threadIdx.x < s)\n"
                 "            sh[threadIdx.x] = acc_merge(sh[threadIdx.x], sh[threadIdx.x + s]);\n"
                 "    }\n"
                 "    __syncthreads();\n}\n");
}

/* acc_<name>(a, d): every field of a through __shfl_<name>_sync(.., d). */
static void emit_acc_shuffle(StrBuf *k, const char *name, const char *fields, const char *doc)
{
    sb_printf(k, "/* %s */\n__device__ Acc acc_shfl_%s(Acc a, int d)\n{\n", doc, name);
    const char *f = fields;
    while (*f) {
        size_t n = strcspn(f, ",");
        sb_printf(k, "    a.%.*s = __shfl_%s_sync(0xffffffffu, a.%.*s, d);\n", (int)n, f, name, (int)n, f);
        f += n + (f[n] == ',');
    }
    sb_append(k, "    return a;\n}\n");
}

void reduce_emit_block_shuffle(StrBuf *k, const char *fields)
{
    emit_acc_shuffle(k, "down", fields, "a's components from the thread d lanes up");
    sb_append(k, "\n/* Combines the block's a into thread 0's result: a shuffle tree in each\n"
                 " * warp, then the first warp combines the warps' results (sh: one per\n"
                 " * warp).  blockDim.x is a multiple of 32. */\n"
                 "__device__ Acc block_reduce_shfl(Acc a, Acc *sh)\n{\n"
                 "    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
                 "    for (int d = 16; d > 0; d >>= 1)\n"
                 "        a = acc_merge(a, acc_shfl_down(a, d));\n"
                 "    if (lane == 0)\n        sh[warp] = a;\n"
                 "    __syncthreads();\n"
                 "    if (warp == 0) {\n"
                 "        a = lane < (int)(blockDim.x / 32) ? sh[lane] : acc_identity();\n"
                 "        for (int d = 16; d > 0; d >>= 1)\n"
                 "            a = acc_merge(a, acc_shfl_down(a, d));\n"
                 "    }\n"
                 "    return a;\n}\n");
}

void reduce_emit_warp_allreduce(StrBuf *k, const char *fields)
{
    emit_acc_shuffle(k, "xor", fields, "a's components from the thread whose lane index differs by d");
    sb_append(k, "\n/* Combines the warp's a into every lane's: after the xor butterfly each\n"
                 " * lane has merged all 32 (in its own order: equal up to rounding). */\n"
                 "__device__ Acc warp_allreduce(Acc a)\n{\n"
                 "    for (int d = 16; d > 0; d >>= 1)\n"
                 "        a = acc_merge(a, acc_shfl_xor(a, d));\n"
                 "    return a;\n}\n");
}
