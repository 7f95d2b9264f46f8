/* gen.h — the builder every program family uses to emit programs.
 *
 * A family is one file, generators/fam_<name>.c, that defines
 *
 *     const Family family_<name> = {"<name>", "<category>", <count>, generate_fn};
 *
 * (the Makefile collects every such definition into the registry).  Its
 * generate function emits exactly `count` programs through the builder:
 *
 *     GenProgram *p = gen_begin(g, "axpy-f32", "axpy");
 *     gen_describe(p, "y = a*x + y");
 *     gen_arg(p, "x", "f32", "in", "n");
 *     gen_arg(p, "y", "f32", "inout", "n");
 *     gen_scalar(p, "a", "f32", 2.5);
 *     gen_arg(p, "n", "i32", "param", NULL);
 *     gen_config(p, "small", "n=1000");  gen_config(p, "edge", "n=1");
 *     gen_config(p, "large", "n=67108864");
 *     gen_cost(p, "2*n", "12*n");
 *     gen_source(p, "void axpy(...)\n{\n...}\n");
 *     gen_cuda(p, "extern \"C\" __global__ void axpy(...)\n{...}\n");
 *     gen_launch(p, "axpy", "(n+255)/256", "256", NULL, "x,y,a,n");
 *     gen_end(p);
 *
 * The gen_cuda/gen_scratch/gen_launch calls give the program its pair: the
 * reference CUDA implementation (kernel.cu, NVRTC-compilable, no host code)
 * and its launch plan (launch.json), written beside program.c.
 * Arguments are listed in the C function's parameter order.  Everything is
 * deterministic: the only randomness is gen_rand*(), seeded from the family
 * name and the build seed.  Builder misuse (an invalid program) is a bug in
 * the family: gen_end() reports it through the GenCtx and the build fails. */
#ifndef CUDAPERF_GEN_H
#define CUDAPERF_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "../common/strbuf.h"

typedef struct GenCtx GenCtx;
typedef struct GenProgram GenProgram;

typedef struct Family {
    const char *name;      /* "stencil2d": also the folder and name prefix */
    const char *category;  /* "stencil", "linalg", ... (for stats) */
    int count;             /* how many programs generate() emits */
    int (*generate)(GenCtx *g);
} Family;

/* ---- deterministic randomness ---- */
uint64_t gen_rand(GenCtx *g);
int gen_randint(GenCtx *g, int lo, int hi);        /* uniform in [lo, hi] */
double gen_uniform(GenCtx *g, double lo, double hi);
/* Picks one of the NULL-terminated strings. */
const char *gen_pick(GenCtx *g, const char *const *choices);

/* ---- building one program ---- */
/* `variant` becomes the name's last part: "c/<family>/<variant>".  `entry`
 * is the C function's name. */
GenProgram *gen_begin(GenCtx *g, const char *variant, const char *entry);
void gen_describe(GenProgram *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* role: "in", "out", "inout", "param".  shape: comma-separated expressions
 * ("n,m", "max(n-2,1)") for buffers, NULL for params. */
void gen_arg(GenProgram *p, const char *name, const char *dtype, const char *role, const char *shape);
void gen_scalar(GenProgram *p, const char *name, const char *dtype, double value);
/* Input distributions (default: reals in [-1,1), integers in [0,100)). */
void gen_fill_uniform(GenProgram *p, const char *arg, double lo, double hi);
void gen_fill_int(GenProgram *p, const char *arg, const char *lo_expr, const char *hi_expr);
void gen_fill_partition(GenProgram *p, const char *arg, const char *total_expr);
void gen_fill_sorted(GenProgram *p, const char *arg);
/* Values produced by the reference program (a torch model's parameters and
 * buffers, "w.<state_dict key>"), not drawn: only for torch programs. */
void gen_fill_model(GenProgram *p, const char *arg);
/* assignments: "n=64,m=64" (params, and scalar overrides by name). */
void gen_config(GenProgram *p, const char *name, const char *assignments);
void gen_tolerance(GenProgram *p, double atol, double rtol);
void gen_cost(GenProgram *p, const char *flops_expr, const char *bytes_expr);
/* The C reference's own work where the cost model undercounts it (meta.json's
 * cost.ref_flops / ref_bytes; NULL leaves one equal to the model's): what
 * `harness run` checks against its budget for the one-core C reference.
 * Count what program.c's loops do on one CPU core: each pass over a buffer
 * again, each random or strided access a whole 64-byte line, a libm call as
 * the flops it takes.  flops/bytes stay the problem's (the roofline's). */
void gen_reference_cost(GenProgram *p, const char *flops_expr, const char *bytes_expr);
void gen_source(GenProgram *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
StrBuf *gen_src(GenProgram *p);  /* the source being built, to append to */
/* ---- the reference CUDA implementation (the program's pair) ---- */
/* Appends to kernel.cu. */
void gen_cuda(GenProgram *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
StrBuf *gen_cuda_src(GenProgram *p);
/* A scratch buffer of the launch plan: `count` elements (an expression). */
void gen_scratch(GenProgram *p, const char *name, const char *dtype, const char *count);
/* One launch, in plan order.  grid and block: 1 to 3 comma-separated
 * expressions of the params ("(n+255)/256", "256"); smem: bytes of dynamic
 * shared memory (an expression; NULL for none); args: comma-separated, each
 * a problem argument, a scratch buffer, or an integer expression. */
void gen_launch(GenProgram *p, const char *kernel, const char *grid, const char *block, const char *smem,
                const char *args);
/* Every launch argument naming scratch buffer `scratch` names `buffer`
 * instead, and the scratch buffer leaves the plan: a chain of operators
 * built on scratch buffers makes its last one write the output directly. */
void gen_retarget(GenProgram *p, const char *scratch, const char *buffer);
/* Knob settings recorded with the kernel (knobs.json), e.g. "block", "256". */
void gen_knob(GenProgram *p, const char *key, const char *value);

/* ---- alternatives: candidates from the template library's knob space ----
 * Between gen_alt_begin(p, name) and gen_alt_end(p), gen_cuda, gen_cuda_src,
 * gen_scratch, gen_launch, gen_retarget and gen_knob build an alternative
 * CUDA implementation instead of the pair: written as variants/<name>/
 * beside the derived variants, its knobs the reference's overridden by the
 * ones it sets, with "derived": name and "expect": "pass" unless it sets
 * them (a planted defect sets "defect" and "expect").  Its plan is checked
 * on every config like a derived variant's; one that does not fit is
 * refused and counted, never written. */
void gen_alt_begin(GenProgram *p, const char *name);
void gen_alt_end(GenProgram *p);
/* Inside an alternative: the knob setting is invalid for this problem (a
 * tile that does not divide the block, shared memory over 227 KiB); the
 * alternative is refused with this reason, counted and reported, never
 * written.  The first reason given stands. */
void gen_refuse(GenProgram *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records a misuse found by a helper built on the builder (torch_emit):
 * the program, and the family's run, fail with this message. */
void gen_error(GenProgram *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Validates, writes <out>/<lang>/<family>/<variant>/{program.c,meta.json} (and
 * kernel.cu, launch.json, knobs.json when the program has its pair) and
 * frees p.  Returns 0, or -1 after recording the error in g. */
int gen_end(GenProgram *p);

/* ---- the registry (generated by the Makefile) ---- */
extern const Family *const gen_families[];
extern const int gen_family_count;

/* ---- running families (used by the cudaperf-gen tool and tests) ---- */
typedef struct GenStats {
    int programs;      /* emitted */
    int written;       /* files whose content changed */
    int variants;      /* candidate variants emitted beside the pairs */
    int refused;       /* variants refused: an invalid knob setting, or a plan that does not fit */
    FILE *refusals;    /* where each refusal and its reason is reported (NULL: nowhere) */
    int not_planted;   /* variants left out because what they change cannot show on the problem: a
                        * defect its tolerance hides, partial sums over a loop too short or of a length
                        * the params do not give */
} GenStats;

/* Runs one family into out_dir.  Returns 0, or -1 with the message in err
 * (a buffer of errlen bytes). */
int gen_run_family(const Family *f, const char *out_dir, uint64_t seed, GenStats *stats, char *err,
                   int errlen);
/* The same for a family whose programs are in language `lang`: "c"
 * (program.c, as gen_run_family) or "torch" (program.py, entry the Model
 * class; see torch_emit.h), written to <out>/<lang>/<family>/<variant>/. */
int gen_run_family_lang(const Family *f, const char *lang, const char *out_dir, uint64_t seed,
                        GenStats *stats, char *err, int errlen);
/* The family being run (for generate functions shared by several families). */
const Family *gen_family(const GenCtx *g);

#endif
