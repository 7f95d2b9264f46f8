/* gen_prog.h — verbatim, table-driven programs for the families that write
 * each program out in full (histogram, scatter_add).
 *
 * Promise: prog_emit_all() emits the n Progs in order through the gen.h
 * builder, exactly as described (no templating: the source is copied
 * verbatim), and returns 0, or -1 as soon as gen_end() fails.  Every Prog
 * gets the four configs "small", "edge", "edge-prime" and "large" from its
 * configs[] in that order.  The output is deterministic.
 *   args:    "name:dtype:role[:shape]" separated by ';' (shape commas kept),
 *            or "@name" for the scalar of that name, in parameter order
 *   fills:   "name=int:lo:hi", "name=uniform:lo:hi", "name=partition:total" or
 *            "name=sorted", ';'-separated
 *   scalars: "name:dtype:value", ';'-separated
 *   configs: small, edge, edge-prime (or a second edge) and large assignments
 *   atol/rtol: negative keeps the dtype defaults */
#ifndef CUDAPERF_GEN_PROG_H
#define CUDAPERF_GEN_PROG_H

#include "gen.h"

typedef struct Prog {
    const char *variant, *entry, *desc;
    const char *args, *fills, *scalars;
    const char *configs[4];
    const char *flops, *bytes;
    double atol, rtol;
    const char *src;
} Prog;

int prog_emit_all(GenCtx *g, const Prog *progs, int n);

#endif
