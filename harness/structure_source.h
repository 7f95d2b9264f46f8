/* structure_source.h — static analysis of a candidate's kernel.cu source.
 *
 * Promise: without compiling or running anything, says for every
 * `__global__` function of the source what its code does structurally:
 * which global memory accesses it makes and how neighbouring threads'
 * addresses relate (coalesced, uniform, strided, indirect), its shared
 * memory declarations and their sizes, its barriers and whether any sits
 * under a condition that depends on the thread's index, atomics by target,
 * vector and read-only loads.  Source-wide feature counts (pragmas, warp
 * primitives, ...) come from PCRE2 patterns over the comment-free text.
 *
 * How: the source is lexed (comments removed, `#define` macros expanded,
 * other directives dropped), functions are found at file scope, and each
 * kernel body is interpreted abstractly: every expression gets a value
 * that says how it depends on the lane index (threadIdx.x, or the first
 * block dimension larger than 1): constant, uniform across a warp,
 * quasi-uniform (lane / k: neighbours share it), affine (c * lane + u, c
 * known or symbolic), indirect (loaded at a lane-dependent address) or
 * irregular.  Local variables hold the join of everything assigned to them
 * (a fixpoint over the body), __device__ functions are analysed at each
 * call with the caller's argument values.  docs/STRUCTURE.md states the
 * rules and what this heuristic cannot see.
 *
 * Ownership: a SrcReport owns everything in it; src_report_release frees. */
#ifndef CUDAPERF_STRUCTURE_SOURCE_H
#define CUDAPERF_STRUCTURE_SOURCE_H

#include "common/error.h"

typedef enum SrcAccessClass {
    SRC_COALESCED, /* unit stride in the lane index */
    SRC_UNIFORM,   /* the same address across a warp, or few distinct ones (lane / k) */
    SRC_STRIDED,   /* larger or symbolic stride, or nonlinear in the lane */
    SRC_INDIRECT   /* the index was loaded from memory at a lane-dependent address */
} SrcAccessClass;

typedef enum SrcAccessKind { SRC_LOAD, SRC_STORE, SRC_UPDATE, SRC_ATOMIC } SrcAccessKind;

const char *src_access_class_name(SrcAccessClass c); /* "coalesced", "uniform", "strided", "indirect" */
const char *src_access_kind_name(SrcAccessKind k);   /* "load", "store", "update", "atomic" */

/* How an access's offset varies across the lanes of a warp. */
typedef enum SrcShape {
    SRC_SHAPE_UNIFORM,   /* the same in every lane */
    SRC_SHAPE_QUASI,     /* piecewise constant (lane / k): neighbours share addresses */
    SRC_SHAPE_AFFINE,    /* stride * lane + uniform */
    SRC_SHAPE_INDIRECT,  /* loaded from memory at a lane-dependent address */
    SRC_SHAPE_IRREGULAR  /* nonlinear in the lane */
} SrcShape;

/* Run-time factors of a stride: a kernel parameter (its index), or these
 * plus the dimension. */
#define SRC_SYM_BLOCKDIM 100
#define SRC_SYM_GRIDDIM 110
#define SRC_MAX_FACTORS 3

typedef struct SrcAccess {
    int line;            /* of the access in kernel.cu */
    int call_line;       /* the kernel's line calling the __device__ function it is in; 0 when direct */
    char param[64];      /* the kernel's pointer parameter (or __device__ array); "?" when several */
    SrcAccessKind kind;
    SrcShape shape;
    /* SRC_SHAPE_AFFINE: the lane stride in elements is coef * factors[0] *
     * ... (run-time symbols), unless unknown_stride (a sum of run-time
     * terms, a run-time divisor: not followed) */
    long long coef;
    int n_factors;
    int factors[SRC_MAX_FACTORS];
    int unknown_stride;
    int elem_bytes;      /* bytes per element (16 for float4), 0 unknown */
    char index[96];      /* the offset expression as written (macros expanded), truncated; when
                            address is set, the address argument of an atomic or __ldg ("&y[i]") */
    int address;
    /* set by src_kernel_classify */
    SrcAccessClass cls;
    long long stride;    /* the lane stride in elements when known (factors bound), else 0 */
    double sectors;      /* estimated fraction of the fetched 32-byte sectors the warp uses */
} SrcAccess;

typedef struct SrcShared {
    char name[64];
    int line;
    long long bytes;     /* -1 when a dimension or the type's size is unknown; 0 for extern [] */
    int dynamic;         /* extern __shared__ T x[] (sized by the launch) */
} SrcShared;

/* A barrier at risk: inside a branch or loop whose condition depends on the
 * thread (deadlock or undefined behaviour), or after a thread-dependent
 * early return (exited threads never arrive; formally undefined). */
typedef struct SrcBarrierRisk {
    int line;       /* the barrier */
    int cond_line;  /* the condition, or the early return */
    int call_line;  /* the kernel's call when the barrier is in a __device__ function; else 0 */
} SrcBarrierRisk;

typedef struct SrcKernel {
    char *name;
    int line;
    int n_params, n_pointer_params, n_const_restrict; /* const T *__restrict__ pointer params */
    char **param_names;                 /* n_params names ("" when unnamed) */
    int launch_bounds_threads, launch_bounds_min_blocks; /* __launch_bounds__, 0 when absent */
    int lane_dim;                       /* 0: threadIdx.x is the lane index; 1: y; 2: z */
    SrcShared *shared;
    int n_shared;
    long long static_smem_bytes;        /* sum of static __shared__ arrays, -1 when one is unknown */
    int dynamic_smem;                   /* declares extern __shared__ */
    int syncthreads;                    /* barriers reached (through calls too, per call) */
    SrcBarrierRisk *divergent;
    int n_divergent;
    SrcBarrierRisk *early_exit;
    int n_early_exit;
    SrcAccess *accesses;
    int n_accesses;
    /* set by src_kernel_classify: counts per class, and over the judged
     * (not indirect) accesses: the fraction coalesced or uniform, and the
     * coalescing score, the mean of their sectors (1 for coalesced and
     * uniform ones); -1 when nothing is judged */
    int coalesced, uniform, strided, indirect;
    double coalesced_fraction;
    double coalescing;
    int vector_accesses;                /* global accesses through float2/float4/int4... pointers */
    int ldg;                            /* __ldg and the other cache-hinted loads */
    int atomics_global, atomics_shared, atomics_other;
    int warp_ops;                       /* __shfl*_sync, votes, __reduce*_sync, __match*_sync */
} SrcKernel;

/* Source-wide counts from PCRE2 patterns over the text without comments. */
typedef struct SrcFeatures {
    int pragma_unroll;       /* #pragma unroll [N] */
    int vector_types;        /* mentions of float2/float4/int4/... */
    int vector_casts;        /* reinterpret_cast<...vector...> or (vector *) casts */
    int ldg;                 /* __ldg( */
    int shfl;                /* __shfl*_sync( */
    int votes;               /* __ballot/__any/__all/__uni_sync, __activemask, __match_*_sync */
    int warp_reduce;         /* __reduce_*_sync( */
    int syncthreads;         /* __syncthreads( and _count/_and/_or */
    int syncwarp;
    int atomics;             /* atomicXxx( */
    int shared_decls, extern_shared_decls;
} SrcFeatures;

typedef struct SrcReport {
    SrcKernel *kernels;      /* every __global__ function, in source order */
    int n_kernels;
    SrcFeatures features;
} SrcReport;

/* Lane dimension per kernel: kernel `name` is launched with threadIdx.dim
 * as the fastest-varying index (a plan whose block is 1 x 256 makes it y).
 * Kernels not listed use x. */
typedef struct SrcLane {
    const char *kernel;
    int dim;
} SrcLane;

/* Analyses source.  Returns 0 with *r filled (a source the heuristics
 * cannot follow still gets a report: unknown constructs count as
 * uniform), or -1 with e only for input it refuses (larger than 1 MiB, a
 * macro expansion beyond 1 M tokens).  Release r with src_report_release
 * either way. */
int src_analyze(const char *source, const SrcLane *lanes, int n_lanes, SrcReport *r, Error *e);
void src_report_release(SrcReport *r);

/* Values of a kernel's run-time symbols in one launch: param[i] is the
 * value passed for parameter i (SRC_UNKNOWN when not an integer known
 * before the launch), block and grid the launch geometry (0 unknown). */
#define SRC_UNKNOWN (-0x7fffffffffffffffLL)
typedef struct SrcBinding {
    const long long *param;
    int n_param;
    long long block[3], grid[3];
} SrcBinding;

/* (Re)classifies k's accesses with the symbols b binds (NULL: none, every
 * run-time stride counts as large) and recomputes its counts and scores.
 * A stride is coalesced when it is 1 or -1; a strided access's sectors are
 * elem / min(|stride| * elem, 32): the bytes a warp uses over the bytes of
 * the 32-byte sectors it fetches, elem / 32 when the stride is unknown. */
void src_kernel_classify(SrcKernel *k, const SrcBinding *b);

/* The kernel named name, or NULL. */
const SrcKernel *src_find_kernel(const SrcReport *r, const char *name);

#endif
