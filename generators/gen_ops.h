/* gen_ops.h — the op-table families: programs written as C templates with
 * their CUDA pair, one table row ("op") per program kind, instanced per
 * dtype (search, pagerank, bfs_step, dp_antidiag).
 *
 * Promise: ops_emit_all() emits, for every op and every instance in its
 * `types` ("f32 f64" or "i32/f32" key/payload pairs), one program through the
 * gen.h builder: the C source from the op's templates with $T/$V/$F
 * substituted, the arguments declared from the C parameter list, configs from
 * the family's configs(kind), fills, cost model ($S/$W: the sizes of $T/$V),
 * tolerances, and the pair (kernel.cu from the op's CUDA template with CUDA's
 * type names, scratch buffers, launches in order, knobs: the largest block
 * and the op's mapping).  Returns 0, or -1 as soon as gen_end() fails.  The
 * output is deterministic. */
#ifndef CUDAPERF_GEN_OPS_H
#define CUDAPERF_GEN_OPS_H

#include "gen.h"

#define OPS_MAX_LAUNCHES 8

#include "gen_optext.h"

/* One launch of an op's plan: the arguments of gen_launch(). */
typedef struct OpLaunch {
    const char *kernel, *grid, *block, *smem, *args;
} OpLaunch;

typedef struct Op {
    const char *tag;
    const char *types;  /* space-separated instances: "f32" or "i32/f32" ($T/$V) */
    int kind;           /* which configs */
    const char *entry;
    const char *pre;    /* includes, the opening comment, helpers */
    const char *sig;    /* the C parameter list */
    const char *body;
    const char *flops, *bytes;  /* $S / $W: sizes of $T / $V */
    const char *shapes; /* "x=n,m;y=n" */
    const char *fills;  /* "x=int:lo:hi;y=uni:lo:hi;p=part:total;a=sorted" */
    const char *inout;  /* space-separated in-out buffers */
    const char *scalars;/* "alpha=1.5;beta=0.5" */
    double tol[2];      /* atol, rtol for non-f64 instances; 0: defaults */
    double tol64[2];    /* the same for f64 instances */
    /* The pair: kernel.cu as a template ($T, $V and $F as in the C text,
     * with CUDA's type names), its launches in plan order (up to the first
     * without a kernel), scratch buffers ("name:dtype:count;...", $T and $V
     * standing for the dtypes) and the mapping knob. */
    const char *cuda;
    OpLaunch launch[OPS_MAX_LAUNCHES];
    const char *scratch;
    const char *mapping;
    /* The C reference's own work where flops/bytes undercount it (gen.h:
     * gen_reference_cost; NULL: the same), $S / $W as above; last, so the
     * tables name them (.ref_bytes = ...) only where they apply. */
    const char *ref_flops, *ref_bytes;
} Op;

/* What the family adds to its op table. */
typedef struct OpFamily {
    const char *what;                           /* "link analysis": the description's first words */
    void (*configs)(GenProgram *p, int kind);   /* small, edge..., large for an op's `kind` */
    /* The C reference's bytes for an op's `kind` where the op names none
     * (Op.ref_bytes), or NULL: the same as the problem's.  For families
     * whose C loops gather or scatter at random (a graph's edges), each
     * such access counted as the whole 64-byte line it costs. */
    const char *(*ref_bytes)(int kind);
} OpFamily;

int ops_emit_all(GenCtx *g, const OpFamily *fam, const Op *ops, int n);

#endif
