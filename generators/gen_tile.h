/* gen_tile.h — whether a tiled kernel's shape can be launched at all.
 *
 * Promise: tile_check() takes the shape of a tiled matrix-product kernel
 * (the block's tile of C, the K step, each thread's register tile of C,
 * the element sizes of the A and B tiles kept in shared memory) and says
 * whether it fits the sm_90 limits every supported GPU shares: NULL when
 * it does, else a reason naming the limit broken and the offending value.
 * The template library calls it before emitting a knob setting and passes
 * the reason to gen_refuse(), so an invalid setting is refused, never
 * emitted.  Pure functions: no allocation, no global state. */
#ifndef CUDAPERF_GEN_TILE_H
#define CUDAPERF_GEN_TILE_H

#include <stddef.h>

#define TILE_MAX_THREADS 1024         /* threads per block */
#define TILE_MAX_SMEM 232448          /* shared memory per block, 227 KiB (opt-in) */
#define TILE_MAX_STATIC_SMEM 49152    /* static __shared__ arrays, 48 KiB */

typedef struct TileShape {
    int tile_m, tile_n;   /* the block's tile of C: tile_m rows, tile_n columns */
    int tile_k;           /* K step: the A tile is tile_m x tile_k, the B tile tile_k x tile_n */
    int reg_m, reg_n;     /* each thread's sub-block of C (1 x 1: one element per thread) */
    int a_bytes, b_bytes; /* element sizes of the shared A and B tiles */
    int dynamic_smem;     /* the tiles are extern __shared__: the 48 KiB static limit does not apply */
} TileShape;

/* Threads per block: (tile_m / reg_m) * (tile_n / reg_n). */
long tile_threads(const TileShape *s);
/* Bytes of shared memory the A and B tiles take. */
long tile_smem_bytes(const TileShape *s);
/* NULL when s fits; else why (len bytes, filled with the reason) is
 * returned: a non-positive size, a register tile not dividing the tile,
 * threads over TILE_MAX_THREADS, shared memory over TILE_MAX_SMEM, or
 * static shared memory over TILE_MAX_STATIC_SMEM, checked in that order. */
const char *tile_check(const TileShape *s, char *why, size_t len);

#endif
