/* gen_spec.h — dtype-generic program specs for the table-driven families
 * (gemv, ger, trisolve, syrk, gemm, batched_gemm, fir, dft).
 *
 * Promise: spec_emit_all() emits each Spec once per dtype of its `dtypes`
 * list, in order, through the gen.h builder, and returns 0, or -1 as soon as
 * gen_end() fails.  Every string of a Spec is expanded for the dtype first:
 * $T is the C type, $f the f32 literal suffix ("f" or ""), $S the element
 * size in bytes, $D the dtype name and $(a|b) picks a for f32 (and every
 * non-f64 type), b for f64.  Arguments are "name:role:shape[:dtype]"
 * separated by ';' (dtype defaults to the spec's; params are i32; a scalar's
 * shape field is its value, or "~lo~hi" for a draw, rounded to 1e-4), fills
 * are "name:u:lo:hi", "name:i:lo_expr:hi_expr" or "name:p:total_expr"
 * (a partition), configs "name:a=1,b=2|...".  The variant name is
 * "<name>-<dtype>"; source lines longer than 100 columns are broken once at
 * the last ", " that fits, aligned after the line's first '('.
 *
 * A spec with `cuda` also gives each program its pair (kernel.cu and its
 * launch plan).  The pair's strings are expanded the same way except that
 * $T is the type's CUDA spelling (int, signed char, long long, ...: NVRTC
 * has no <stdint.h>).  `launch` lists launches separated by ';', each
 * "kernel|grid|block|smem|args" (smem may be empty: none), `scratch`
 * "name:dtype:count;..." and `knobs` "key=value;...".  The pair fields come
 * last so that a spec without them keeps its C side unchanged.  The output
 * is deterministic: a given spec list always yields the same programs. */
#ifndef CUDAPERF_GEN_SPEC_H
#define CUDAPERF_GEN_SPEC_H

#include "gen.h"

typedef struct Spec {
    const char *dtypes; /* space-separated: one program per dtype */
    const char *name;
    const char *entry;
    const char *desc;
    const char *args;
    const char *fills;
    const char *configs;
    const char *flops, *bytes;
    double atol, rtol;     /* for f32 (and integer) programs; 0, 0: the default */
    double atol64, rtol64; /* for f64 programs */
    const char *src;
    /* the pair (NULL cuda: none) */
    const char *cuda;    /* kernel.cu */
    const char *launch;  /* "kernel|grid|block|smem|args;..." */
    const char *scratch; /* "name:dtype:count;...", or NULL */
    const char *knobs;   /* "key=value;...": at least block and mapping */
} Spec;

/* Emits every one of the n specs once per dtype of its list. */
int spec_emit_all(GenCtx *g, const Spec *specs, int n);
/* spec_emit_all() for specs whose C loops call libm per term (a cos or
 * sin costs tens of flops on one core where the problem's flops count
 * one): each program's C reference is costed at ref_flops_factor times
 * its flops (gen.h: gen_reference_cost). */
int spec_emit_all_libm(GenCtx *g, const Spec *specs, int n, int ref_flops_factor);

/* A family's alternatives of one program of spec sp in dtype dt, built
 * with gen_alt_begin ... gen_alt_end after the pair; ctx is the caller's. */
typedef void (*SpecAlternatives)(GenProgram *p, const Spec *sp, const char *dt, const void *ctx);
/* spec_emit_all() of the one spec sp, calling alts (when not NULL) for each
 * of its programs after its pair and before gen_end(). */
int spec_emit_alt(GenCtx *g, const Spec *sp, SpecAlternatives alts, const void *ctx);
/* s expanded for dtype dt as a pair's kernel.cu is ($T in its CUDA
 * spelling, long lines broken); the caller frees. */
char *spec_cuda_text(const char *s, const char *dt);

#endif
