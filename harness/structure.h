/* structure.h — the static structural report of one candidate.
 *
 * Promise: from a candidate's kernel.cu, its launch plan, the problem and
 * one config, plus what ptxas reported when NVRTC compiled it (registers,
 * spills, stack, shared memory per kernel), says how efficient the code
 * is by construction, without running it:
 *   - per kernel, the source analysis of structure_source.h, with every
 *     global access classified under the launch's values (a stride `incx`
 *     is 2 in a config where incx is 2);
 *   - per launch, the occupancy an H200 (sm_90) allows, computed as
 *     cuOccupancyMaxActiveBlocksPerMultiprocessor does;
 *   - the arithmetic intensity of the problem's cost model and of the plan
 *     (scratch buffers add traffic), against the roofline;
 *   - five terms in [0, 1] (coalescing, occupancy, intensity,
 *     synchronisation, spills) and their weighted mean, the score.
 * docs/STRUCTURE.md gives every formula, the default weights and why.
 * The report serialises to JSON with stable keys (results.structure).
 *
 * Ownership: a StructureReport owns its contents; structure_report_release
 * frees them. */
#ifndef CUDAPERF_STRUCTURE_H
#define CUDAPERF_STRUCTURE_H

#include <stdio.h>

#include "common/error.h"
#include "common/launch.h"
#include "common/problem.h"
#include "harness/nvrtc.h"
#include "harness/structure_source.h"

#define STRUCTURE_FORMAT_VERSION 1

/* sm_90 (H100/H200) limits the occupancy arithmetic uses. */
#define SM90_MAX_THREADS_PER_SM 2048
#define SM90_MAX_WARPS_PER_SM 64
#define SM90_MAX_BLOCKS_PER_SM 32
#define SM90_REGS_PER_SM 65536
#define SM90_REGS_PER_BLOCK 65536
#define SM90_REG_ALLOC_UNIT 256      /* registers, per warp */
#define SM90_MAX_REGS_PER_THREAD 255
#define SM90_SUBPARTITIONS 4
#define SM90_SMEM_PER_SM (228 * 1024)
#define SM90_SMEM_PER_BLOCK_OPTIN (227 * 1024)
#define SM90_SMEM_PER_BLOCK_DEFAULT (48 * 1024)
#define SM90_SMEM_RESERVED_PER_BLOCK 1024
#define SM90_SMEM_ALLOC_UNIT 128
#define SM90_BARRIERS_PER_BLOCK_SLOT 2 /* hardware named barriers: 2 x max blocks per SM */

typedef struct StructureWeights {
    double coalescing, occupancy, intensity, sync, spills;
} StructureWeights;

typedef struct StructureOptions {
    StructureWeights weights;
    double occupancy_target; /* occupancy at which the occupancy term reaches 1 */
    double spill_bytes_half; /* spill bytes per thread at which the spills term is 1/2 */
    double peak_flops_f32;   /* the roofline: FLOP/s without tensor cores */
    double peak_flops_f64;
    double bandwidth;        /* bytes/s of device memory */
    int sm_count;            /* for the waves of each launch */
} StructureOptions;

/* The documented defaults (an H200 SXM). */
StructureOptions structure_default_options(void);

/* Reads options from a JSON file: {"weights": {"coalescing": 0.35, ...},
 * "occupancy_target": 0.5, "spill_bytes_half": 64, "peak_flops_f32": ...,
 * "peak_flops_f64": ..., "bandwidth": ..., "sm_count": 132}; every key is
 * optional, unknown keys and negative weights are errors, o keeps what the
 * file does not set. */
int structure_options_load(const char *path, StructureOptions *o, Error *e);

typedef struct StructureOccupancy {
    int block_threads, registers, barriers;
    long long smem_static, smem_dynamic;
    /* blocks per SM each resource allows (INT_MAX: unlimited) */
    int limit_warps, limit_registers, limit_shared, limit_blocks, limit_barriers;
    int blocks_per_sm;        /* the least of them: 0 when the block cannot run */
    int warps_per_sm;
    double occupancy;         /* warps_per_sm / 64 */
    char limited_by[64];      /* "warps", "registers", "shared memory", "blocks", "barriers", joined
                                 by '+' when several give the same limit; "block size" when invalid */
} StructureOccupancy;

/* Active blocks per SM of an sm_90 device for a block of block_threads
 * threads using `registers` per thread, smem_static + smem_dynamic bytes of
 * shared memory and `barriers` named barriers (ptxas's "used N barriers"),
 * with the arithmetic of cuOccupancyMaxActiveBlocksPerMultiprocessor
 * (cuda_occupancy.h) for the default carveout; dynamic shared memory over
 * 48 KiB counts as opted in (the harness sets the attribute). */
void structure_occupancy(int block_threads, int registers, long long smem_static, long long smem_dynamic,
                         int barriers, StructureOccupancy *o);

typedef struct StructureLaunch {
    int kernel;               /* index into the report's src.kernels; -1 when the source lacks it */
    LaunchGeometry g;
    int have_info;            /* ptxas facts were found for the kernel */
    StructureOccupancy occ;
    double waves;             /* grid blocks / (SMs * blocks per SM) */
} StructureLaunch;

typedef struct StructureReport {
    char arch[16];
    char config[64];
    SrcReport src;            /* every kernel; used ones classified under their first launch */
    int *used;                /* per src kernel: launched by the plan */
    NvrtcKernelInfo *info;    /* per src kernel (zeroed when ptxas said nothing about it) */
    StructureLaunch *launches;
    int n_launches;
    /* intensity */
    double flops, bytes, scratch_bytes, plan_bytes, ai_model, ai_plan, ridge;
    int fp64;                 /* the roofline of double precision */
    /* terms in [0, 1]; -1 when not applicable (no access to judge) */
    double t_coalescing, t_occupancy, t_intensity, t_sync, t_spills;
    double score;
    StructureWeights weights;
    int divergent_barriers, early_exit_barriers;
} StructureReport;

/* The config a report describes by default: "large" (the size performance
 * is about), else the last one. */
const ProblemConfig *structure_default_config(const Problem *p);

/* Builds the report of source + plan lp for problem p under config c from
 * ptxas's facts (info[0..n_info), as nvrtc_compile_with(NVRTC_PTXAS_INFO)
 * returns them).  Returns 0, or -1 with e when the plan cannot be
 * evaluated under c or the source is refused (src_analyze).  Release r
 * either way. */
int structure_analyze(const Problem *p, const ProblemConfig *c, const char *source, const LaunchPlan *lp,
                      const NvrtcKernelInfo *info, int n_info, const char *arch, const StructureOptions *o,
                      StructureReport *r, Error *e);

/* Compiles source with NVRTC (ptxas report on, through cache_dir) and
 * builds the report.  A candidate that does not compile gets no report:
 * -1, *compile_error set, e "does not compile: <log head>". */
int structure_candidate(const Problem *p, const ProblemConfig *c, const char *source, const LaunchPlan *lp,
                        const char *arch, const char *cache_dir, const StructureOptions *o, StructureReport *r,
                        int *compile_error, Error *e);

void structure_report_release(StructureReport *r);

/* The report as JSON (cJSON object the caller deletes with cJSON_Delete),
 * or as text (the caller frees). */
struct cJSON *structure_to_cjson(const StructureReport *r);
char *structure_to_json(const StructureReport *r);

/* The human-readable report. */
void structure_print(FILE *f, const StructureReport *r);

#endif
