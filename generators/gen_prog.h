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
 *   configs: small, edge, edge-prime (or a second edge) and large assignments;
 *            edge-prime's may go on with "|name:assignments" for more edge
 *            configs after it
 *   atol/rtol: negative keeps the dtype defaults
 * The pair (kernel.cu and its launch plan) is optional: a Prog whose cuda is
 * NULL has none, so initialisers that stop at src still describe a program.
 *   cuda:     kernel.cu, copied verbatim
 *   launches: up to PROG_MAX_LAUNCHES launches in plan order, ending at the
 *             first without a kernel; grid, block and args as in gen_launch()
 *             (comma lists), smem NULL for none
 *   scratch:  "name:dtype:count" separated by ';'
 *   knobs:    "key=value" separated by ';' (at least block and mapping) */
#ifndef CUDAPERF_GEN_PROG_H
#define CUDAPERF_GEN_PROG_H

#include "gen.h"

#define PROG_MAX_LAUNCHES 6

/* One launch of a Prog's plan: the arguments of gen_launch(). */
typedef struct ProgLaunch {
    const char *kernel, *grid, *block, *smem, *args;
} ProgLaunch;

typedef struct Prog {
    const char *variant, *entry, *desc;
    const char *args, *fills, *scalars;
    const char *configs[4];
    const char *flops, *bytes;
    double atol, rtol;
    const char *src;
    const char *cuda;
    ProgLaunch launches[PROG_MAX_LAUNCHES];
    const char *scratch, *knobs;
} Prog;

int prog_emit_all(GenCtx *g, const Prog *progs, int n);

#endif
