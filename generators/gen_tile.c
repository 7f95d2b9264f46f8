/* gen_tile.c — see gen_tile.h. */
#include "gen_tile.h"

#include <stdio.h>

long tile_threads(const TileShape *s)
{
    if (s->reg_m <= 0 || s->reg_n <= 0)
        return 0;
    return (long)(s->tile_m / s->reg_m) * (s->tile_n / s->reg_n);
}

long tile_smem_bytes(const TileShape *s)
{
    return (long)s->tile_m * s->tile_k * s->a_bytes + (long)s->tile_k * s->tile_n * s->b_bytes;
}

const char *tile_check(const TileShape *s, char *why, size_t len)
{
    if (s->tile_m <= 0 || s->tile_n <= 0 || s->tile_k <= 0 || s->reg_m <= 0 || s->reg_n <= 0 || s->a_bytes <= 0 ||
        s->b_bytes <= 0) {
        snprintf(why, len, "tile %dx%d, K step %d, register tile %dx%d, elements of %d and %d bytes: sizes must be positive",
                 s->tile_m, s->tile_n, s->tile_k, s->reg_m, s->reg_n, s->a_bytes, s->b_bytes);
        return why;
    }
    if (s->tile_m % s->reg_m != 0 || s->tile_n % s->reg_n != 0) {
        snprintf(why, len, "register tile %dx%d does not divide the %dx%d tile", s->reg_m, s->reg_n, s->tile_m,
                 s->tile_n);
        return why;
    }
    long threads = tile_threads(s);
    if (threads > TILE_MAX_THREADS) {
        snprintf(why, len, "%dx%d threads per block (%ld) over the limit of %d", s->tile_n / s->reg_n,
                 s->tile_m / s->reg_m, threads, TILE_MAX_THREADS);
        return why;
    }
    long smem = tile_smem_bytes(s);
    if (smem > TILE_MAX_SMEM) {
        snprintf(why, len, "shared memory %ld bytes over the 227 KiB (%d bytes) limit per block", smem, TILE_MAX_SMEM);
        return why;
    }
    if (!s->dynamic_smem && smem > TILE_MAX_STATIC_SMEM) {
        snprintf(why, len,
                 "static shared memory %ld bytes over the 48 KiB (%d bytes) limit of static __shared__ arrays "
                 "(dynamic shared memory would be needed)",
                 smem, TILE_MAX_STATIC_SMEM);
        return why;
    }
    return NULL;
}
