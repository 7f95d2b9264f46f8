#include "structure.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/gpu_peaks.h"

/* ---- options ---- */

StructureOptions structure_default_options(void)
{
    StructureOptions o;
    memset(&o, 0, sizeof o);
    /* coalescing decides most memory-bound kernels, which are most of the
     * dataset; the other four catch what is wrong by construction */
    o.weights.coalescing = 0.35;
    o.weights.occupancy = 0.20;
    o.weights.intensity = 0.15;
    o.weights.sync = 0.15;
    o.weights.spills = 0.15;
    o.occupancy_target = 0.5;
    o.spill_bytes_half = 64;
    /* the H200 roofline shared with the measured report (gpu_peaks.h) */
    o.peak_flops_f32 = H200_PEAK_FLOPS_F32;
    o.peak_flops_f64 = H200_PEAK_FLOPS_F64;
    o.bandwidth = H200_BANDWIDTH;
    o.sm_count = H200_SM_COUNT;
    return o;
}

static int read_number(const cJSON *v, const char *path, const char *key, double lo, double *out, Error *e)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo)
        return ERR(e, "%s: %s: expected a number >= %g", path, key, lo);
    *out = v->valuedouble;
    return 0;
}

int structure_options_load(const char *path, StructureOptions *o, Error *e)
{
    char *text = NULL;
    int rc = 0;
    cJSON *j = NULL;
    TRY(file_read_all(path, 1 << 20, &text, NULL, e));
    j = cJSON_Parse(text);
    if (!cJSON_IsObject(j))
        FAIL(e, "%s: not a JSON object", path);
    for (const cJSON *it = j->child; it; it = it->next) {
        double v = 0;
        if (strcmp(it->string, "weights") == 0) {
            if (!cJSON_IsObject(it))
                FAIL(e, "%s: weights: expected an object", path);
            for (const cJSON *w = it->child; w; w = w->next) {
                double *slot = strcmp(w->string, "coalescing") == 0  ? &o->weights.coalescing
                               : strcmp(w->string, "occupancy") == 0 ? &o->weights.occupancy
                               : strcmp(w->string, "intensity") == 0 ? &o->weights.intensity
                               : strcmp(w->string, "sync") == 0      ? &o->weights.sync
                               : strcmp(w->string, "spills") == 0    ? &o->weights.spills
                                                                     : NULL;
                if (!slot)
                    FAIL(e, "%s: weights.%s: unknown term (known: coalescing, occupancy, intensity, sync, spills)",
                         path, w->string);
                TRY(read_number(w, path, w->string, 0, slot, e));
            }
        } else if (strcmp(it->string, "occupancy_target") == 0) {
            TRY(read_number(it, path, it->string, 1e-6, &v, e));
            if (v > 1)
                FAIL(e, "%s: occupancy_target: at most 1", path);
            o->occupancy_target = v;
        } else if (strcmp(it->string, "spill_bytes_half") == 0) {
            TRY(read_number(it, path, it->string, 1e-6, &o->spill_bytes_half, e));
        } else if (strcmp(it->string, "peak_flops_f32") == 0) {
            TRY(read_number(it, path, it->string, 1, &o->peak_flops_f32, e));
        } else if (strcmp(it->string, "peak_flops_f64") == 0) {
            TRY(read_number(it, path, it->string, 1, &o->peak_flops_f64, e));
        } else if (strcmp(it->string, "bandwidth") == 0) {
            TRY(read_number(it, path, it->string, 1, &o->bandwidth, e));
        } else if (strcmp(it->string, "sm_count") == 0) {
            TRY(read_number(it, path, it->string, 1, &v, e));
            o->sm_count = (int)v;
        } else {
            FAIL(e, "%s: unknown key '%s'", path, it->string);
        }
    }
    StructureWeights *w = &o->weights;
    if (w->coalescing + w->occupancy + w->intensity + w->sync + w->spills <= 0)
        FAIL(e, "%s: the weights sum to 0", path);
done:
    cJSON_Delete(j);
    free(text);
    return rc;
}

/* ---- occupancy (cuda_occupancy.h's arithmetic for sm_90) ---- */

static int round_up(long long x, long long unit) { return (int)((x + unit - 1) / unit * unit); }

void structure_occupancy(int block_threads, int registers, long long smem_static, long long smem_dynamic,
                         int barriers, StructureOccupancy *o)
{
    memset(o, 0, sizeof *o);
    o->block_threads = block_threads;
    o->registers = registers;
    o->barriers = barriers;
    o->smem_static = smem_static;
    o->smem_dynamic = smem_dynamic;
    if (block_threads <= 0 || block_threads > LAUNCH_MAX_THREADS) {
        snprintf(o->limited_by, sizeof o->limited_by, "block size");
        return;
    }
    int warps = (block_threads + 31) / 32;
    o->limit_warps = SM90_MAX_WARPS_PER_SM / warps;
    /* registers are allocated per warp in units of 256; each of the four
     * sub-partitions holds a quarter of the file, and the hardware check
     * assumes a block's warps spread over all four */
    o->limit_registers = INT_MAX;
    if (registers > 0) {
        int per_warp = round_up((long long)registers * 32, SM90_REG_ALLOC_UNIT);
        long long per_block = (long long)per_warp * warps;
        long long assumed = (long long)per_warp * round_up(warps, SM90_SUBPARTITIONS);
        if (registers > SM90_MAX_REGS_PER_THREAD || per_block > SM90_REGS_PER_BLOCK || assumed > SM90_REGS_PER_BLOCK)
            o->limit_registers = 0;
        else
            o->limit_registers = (SM90_REGS_PER_SM / SM90_SUBPARTITIONS / per_warp) * SM90_SUBPARTITIONS / warps;
    }
    o->limit_blocks = SM90_MAX_BLOCKS_PER_SM;
    /* shared memory: 1 KiB reserved per block, 128-byte granules; over
     * 48 KiB per block only when opted in (227 KiB), which the harness
     * does for dynamic shared memory over 48 KiB (gpu_timing.c) */
    long long total = smem_static + smem_dynamic + SM90_SMEM_RESERVED_PER_BLOCK;
    long long alloc = round_up(total, SM90_SMEM_ALLOC_UNIT);
    long long per_block = (smem_dynamic > SM90_SMEM_PER_BLOCK_DEFAULT ? SM90_SMEM_PER_BLOCK_OPTIN
                                                                      : SM90_SMEM_PER_BLOCK_DEFAULT) +
                          SM90_SMEM_RESERVED_PER_BLOCK;
    o->limit_shared = alloc > per_block ? 0 : (int)(SM90_SMEM_PER_SM / alloc);
    /* Hopper: two named-barrier sets per block slot */
    o->limit_barriers = barriers > 0 ? SM90_MAX_BLOCKS_PER_SM * SM90_BARRIERS_PER_BLOCK_SLOT / barriers : INT_MAX;
    int limits[5] = {o->limit_warps, o->limit_registers, o->limit_shared, o->limit_blocks, o->limit_barriers};
    static const char *const names[5] = {"warps", "registers", "shared memory", "blocks", "barriers"};
    int m = INT_MAX;
    for (int i = 0; i < 5; i++)
        if (limits[i] < m)
            m = limits[i];
    o->blocks_per_sm = m;
    o->warps_per_sm = m * warps;
    o->occupancy = (double)o->warps_per_sm / SM90_MAX_WARPS_PER_SM;
    for (int i = 0; i < 5; i++)
        if (limits[i] == m)
            snprintf(o->limited_by + strlen(o->limited_by), sizeof o->limited_by - strlen(o->limited_by), "%s%s",
                     o->limited_by[0] ? "+" : "", names[i]);
}

/* ---- the report ---- */

const ProblemConfig *structure_default_config(const Problem *p)
{
    const ProblemConfig *c = problem_find_config(p, "large");
    return c ? c : p->n_configs ? &p->configs[p->n_configs - 1] : NULL;
}

/* The value launch argument j passes under config c, or SRC_UNKNOWN. */
static long long arg_value(const Problem *p, const ProblemConfig *c, const LaunchArg *a)
{
    int64_t v;
    if (a->kind == LARG_EXPR)
        return problem_eval(p, c, a->text, &v, NULL) == 0 ? (long long)v : SRC_UNKNOWN;
    if (a->kind != LARG_PROBLEM)
        return SRC_UNKNOWN;
    const ProblemArg *pa = &p->args[a->index];
    if (pa->role == ROLE_PARAM) {
        int k = problem_param_index(p, pa->name);
        return k >= 0 ? (long long)c->params[k] : SRC_UNKNOWN;
    }
    if (pa->role == ROLE_SCALAR && !dtype_is_float(pa->dtype))
        return (long long)problem_scalar_value(pa, c);
    return SRC_UNKNOWN;
}

static int kernel_index(const SrcReport *s, const char *name)
{
    for (int i = 0; i < s->n_kernels; i++)
        if (strcmp(s->kernels[i].name, name) == 0)
            return i;
    return -1;
}

static void classify_used(StructureReport *r, const Problem *p, const ProblemConfig *c, const LaunchPlan *lp)
{
    for (int k = 0; k < r->src.n_kernels; k++) {
        int first = -1;
        for (int l = 0; l < r->n_launches && first < 0; l++)
            if (r->launches[l].kernel == k)
                first = l;
        if (first < 0) {
            src_kernel_classify(&r->src.kernels[k], NULL);
            continue;
        }
        r->used[k] = 1;
        const Launch *L = &lp->launches[first];
        long long *vals = xcalloc((size_t)L->n_args + 1, sizeof *vals);
        for (int j = 0; j < L->n_args; j++)
            vals[j] = arg_value(p, c, &L->args[j]);
        SrcBinding b = {vals, L->n_args, {0, 0, 0}, {0, 0, 0}};
        for (int d = 0; d < 3; d++) {
            b.block[d] = r->launches[first].g.block[d];
            b.grid[d] = r->launches[first].g.grid[d];
        }
        src_kernel_classify(&r->src.kernels[k], &b);
        free(vals);
    }
}

static void occupancy_of_launches(StructureReport *r, const StructureOptions *o)
{
    for (int l = 0; l < r->n_launches; l++) {
        StructureLaunch *L = &r->launches[l];
        const NvrtcKernelInfo *ki = L->kernel >= 0 ? &r->info[L->kernel] : NULL;
        const SrcKernel *sk = L->kernel >= 0 ? &r->src.kernels[L->kernel] : NULL;
        L->have_info = ki && ki->name[0];
        long long smem_static = L->have_info ? ki->static_smem
                                : sk && sk->static_smem_bytes > 0 ? sk->static_smem_bytes
                                                                  : 0;
        int threads = (int)(L->g.block[0] * L->g.block[1] * L->g.block[2]);
        structure_occupancy(threads, L->have_info ? ki->registers : 0, smem_static, L->g.smem,
                            L->have_info ? ki->barriers : 0, &L->occ);
        double blocks = (double)L->g.grid[0] * (double)L->g.grid[1] * (double)L->g.grid[2];
        L->waves = L->occ.blocks_per_sm > 0 ? blocks / ((double)o->sm_count * L->occ.blocks_per_sm) : 0;
    }
}

/* The cost model against the roofline: the plan's own buffers (scratch)
 * are written once and read once at least, beyond the problem's bytes. */
static void intensity(StructureReport *r, const Problem *p, const ProblemConfig *c, const LaunchPlan *lp,
                      const StructureOptions *o)
{
    int64_t flops = 0, bytes = 0, n;
    r->t_intensity = -1;
    for (int a = 0; a < p->n_args; a++)
        r->fp64 |= arg_role_is_buffer(p->args[a].role) && p->args[a].dtype == DT_F64;
    double peak = r->fp64 ? o->peak_flops_f64 : o->peak_flops_f32;
    r->ridge = peak / o->bandwidth;
    for (int s = 0; s < lp->n_scratch; s++)
        if (launch_scratch_count(lp, s, p, c, &n, NULL) == 0)
            r->scratch_bytes += (double)n * (double)dtype_size(lp->scratch[s].dtype);
    if (problem_eval(p, c, p->cost_flops, &flops, NULL) != 0 || problem_eval(p, c, p->cost_bytes, &bytes, NULL) != 0) {
        r->flops = r->bytes = NAN;
        return;
    }
    r->flops = (double)flops;
    r->bytes = (double)bytes;
    r->plan_bytes = r->bytes + 2 * r->scratch_bytes;
    r->ai_model = r->bytes > 0 ? r->flops / r->bytes : 0;
    r->ai_plan = r->plan_bytes > 0 ? r->flops / r->plan_bytes : 0;
    /* roofline time bounds: the problem's least traffic over the plan's */
    double t_model = fmax(r->flops / peak, r->bytes / o->bandwidth);
    double t_plan = fmax(r->flops / peak, r->plan_bytes / o->bandwidth);
    if (t_plan > 0)
        r->t_intensity = fmin(1.0, t_model / t_plan);
}

static void terms(StructureReport *r, const StructureOptions *o)
{
    double sectors = 0, judged = 0, spills = 0, occ = 0;
    int n_spills = 0, any_divergent = 0, any_early = 0;
    for (int k = 0; k < r->src.n_kernels; k++) {
        if (!r->used[k])
            continue;
        const SrcKernel *sk = &r->src.kernels[k];
        int nj = sk->coalesced + sk->uniform + sk->strided;
        if (nj)
            sectors += sk->coalescing * nj;
        judged += nj;
        r->divergent_barriers += sk->n_divergent;
        r->early_exit_barriers += sk->n_early_exit;
        any_divergent |= sk->n_divergent > 0;
        any_early |= sk->n_early_exit > 0;
        if (r->info[k].name[0]) {
            double b = (double)(r->info[k].spill_stores + r->info[k].spill_loads);
            spills += 1.0 / (1.0 + b / o->spill_bytes_half);
            n_spills++;
        }
    }
    r->t_coalescing = judged > 0 ? sectors / judged : -1;
    /* a barrier some threads skip can hang the block: nothing else matters as much */
    r->t_sync = any_divergent ? 0.0 : any_early ? 0.5 : 1.0;
    r->t_spills = n_spills ? spills / n_spills : -1;
    for (int l = 0; l < r->n_launches; l++)
        occ += fmin(1.0, r->launches[l].occ.occupancy / o->occupancy_target);
    r->t_occupancy = r->n_launches ? occ / r->n_launches : -1;
    const double t[5] = {r->t_coalescing, r->t_occupancy, r->t_intensity, r->t_sync, r->t_spills};
    const double w[5] = {o->weights.coalescing, o->weights.occupancy, o->weights.intensity, o->weights.sync,
                         o->weights.spills};
    double sum = 0, wsum = 0;
    for (int i = 0; i < 5; i++)
        if (t[i] >= 0 && w[i] > 0) {
            sum += w[i] * t[i];
            wsum += w[i];
        }
    r->score = wsum > 0 ? sum / wsum : 0;
}

int structure_analyze(const Problem *p, const ProblemConfig *c, const char *source, const LaunchPlan *lp,
                      const NvrtcKernelInfo *info, int n_info, const char *arch, const StructureOptions *o,
                      StructureReport *r, Error *e)
{
    int rc = 0;
    SrcLane *lanes = NULL;
    memset(r, 0, sizeof *r);
    snprintf(r->arch, sizeof r->arch, "%s", arch ? arch : "sm_90");
    snprintf(r->config, sizeof r->config, "%s", c->name);
    r->weights = o->weights;
    r->n_launches = lp->n_launches;
    r->launches = xcalloc((size_t)lp->n_launches + 1, sizeof *r->launches);
    lanes = xcalloc((size_t)lp->n_launches + 1, sizeof *lanes);
    for (int l = 0; l < lp->n_launches; l++) {
        LaunchGeometry *g = &r->launches[l].g;
        TRY(launch_geometry(lp, l, p, c, g, e));
        /* the fastest-varying thread index is the first dimension with
         * more than one thread (a 1 x 256 block makes it y) */
        int dim = g->block[0] > 1 ? 0 : g->block[1] > 1 ? 1 : g->block[2] > 1 ? 2 : 0;
        lanes[l].kernel = lp->launches[l].kernel;
        lanes[l].dim = dim;
    }
    TRY(src_analyze(source, lanes, lp->n_launches, &r->src, e));
    r->used = xcalloc((size_t)r->src.n_kernels + 1, sizeof *r->used);
    r->info = xcalloc((size_t)r->src.n_kernels + 1, sizeof *r->info);
    for (int k = 0; k < r->src.n_kernels; k++)
        for (int i = 0; i < n_info; i++)
            if (strcmp(info[i].name, r->src.kernels[k].name) == 0)
                r->info[k] = info[i];
    for (int l = 0; l < lp->n_launches; l++)
        r->launches[l].kernel = kernel_index(&r->src, lp->launches[l].kernel);
    classify_used(r, p, c, lp);
    occupancy_of_launches(r, o);
    intensity(r, p, c, lp, o);
    terms(r, o);
done:
    free(lanes);
    return rc;
}

int structure_candidate(const Problem *p, const ProblemConfig *c, const char *source, const LaunchPlan *lp,
                        const char *arch, const char *cache_dir, const StructureOptions *o, StructureReport *r,
                        int *compile_error, Error *e)
{
    NvrtcResult nr;
    memset(r, 0, sizeof *r);
    *compile_error = 0;
    if (nvrtc_compile_with(source, arch, cache_dir, NVRTC_PTXAS_INFO, &nr, e) != 0) {
        *compile_error = nr.compile_error;
        nvrtc_result_release(&nr);
        return -1;
    }
    int rc = structure_analyze(p, c, source, lp, nr.kernels, nr.n_kernels, arch, o, r, e);
    nvrtc_result_release(&nr);
    return rc;
}

void structure_report_release(StructureReport *r)
{
    src_report_release(&r->src);
    free(r->used);
    free(r->info);
    free(r->launches);
    memset(r, 0, sizeof *r);
}

/* ---- JSON ---- */

/* Rounded, so reports compare textually across runs and machines. */
static double round4(double x) { return isfinite(x) ? round(x * 1e4) / 1e4 : 0; }

static void add_term(cJSON *o, const char *key, double v)
{
    if (v < 0 || !isfinite(v))
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, round4(v));
}

/* "2*incx*gridDim.x": the stride's expression from its monomial. */
static void stride_expr(const SrcKernel *k, const SrcAccess *a, char *buf, size_t len)
{
    buf[0] = '\0';
    if (a->shape != SRC_SHAPE_AFFINE || a->unknown_stride) {
        snprintf(buf, len, "%s", a->shape == SRC_SHAPE_AFFINE ? "?" : "");
        return;
    }
    size_t n = 0;
    if (a->coef != 1 || !a->n_factors)
        n += (size_t)snprintf(buf + n, len - n, "%lld", a->coef);
    for (int i = 0; i < a->n_factors && n < len; i++) {
        int f = a->factors[i];
        const char *sep = n ? "*" : "";
        if (f >= SRC_SYM_GRIDDIM)
            n += (size_t)snprintf(buf + n, len - n, "%sgridDim.%c", sep, "xyz"[f - SRC_SYM_GRIDDIM]);
        else if (f >= SRC_SYM_BLOCKDIM)
            n += (size_t)snprintf(buf + n, len - n, "%sblockDim.%c", sep, "xyz"[f - SRC_SYM_BLOCKDIM]);
        else
            n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, f < k->n_params ? k->param_names[f] : "?");
    }
}

static cJSON *risks_json(const SrcBarrierRisk *v, int n, const char *cond_key)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "line", v[i].line);
        cJSON_AddNumberToObject(o, cond_key, v[i].cond_line);
        if (v[i].call_line)
            cJSON_AddNumberToObject(o, "call_line", v[i].call_line);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *kernel_json(const StructureReport *r, int k)
{
    const SrcKernel *sk = &r->src.kernels[k];
    const NvrtcKernelInfo *ki = &r->info[k];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", sk->name);
    cJSON_AddNumberToObject(o, "line", sk->line);
    cJSON_AddBoolToObject(o, "launched", r->used[k]);
    if (ki->name[0]) {
        cJSON *c = cJSON_AddObjectToObject(o, "compiled");
        cJSON_AddNumberToObject(c, "registers", ki->registers);
        cJSON_AddNumberToObject(c, "stack_frame", (double)ki->stack_frame);
        cJSON_AddNumberToObject(c, "spill_stores", (double)ki->spill_stores);
        cJSON_AddNumberToObject(c, "spill_loads", (double)ki->spill_loads);
        cJSON_AddNumberToObject(c, "static_smem", (double)ki->static_smem);
        cJSON_AddNumberToObject(c, "barriers", ki->barriers);
    } else {
        cJSON_AddNullToObject(o, "compiled");
    }
    cJSON *s = cJSON_AddObjectToObject(o, "source");
    cJSON_AddNumberToObject(s, "lane_dim", sk->lane_dim);
    cJSON_AddNumberToObject(s, "pointer_params", sk->n_pointer_params);
    cJSON_AddNumberToObject(s, "const_restrict_params", sk->n_const_restrict);
    if (sk->launch_bounds_threads) {
        cJSON *lb = cJSON_AddArrayToObject(s, "launch_bounds");
        cJSON_AddItemToArray(lb, cJSON_CreateNumber(sk->launch_bounds_threads));
        cJSON_AddItemToArray(lb, cJSON_CreateNumber(sk->launch_bounds_min_blocks));
    }
    if (sk->static_smem_bytes >= 0)
        cJSON_AddNumberToObject(s, "static_smem_bytes", (double)sk->static_smem_bytes);
    else
        cJSON_AddNullToObject(s, "static_smem_bytes");
    cJSON_AddBoolToObject(s, "dynamic_smem", sk->dynamic_smem);
    cJSON *sh = cJSON_AddArrayToObject(s, "shared");
    for (int i = 0; i < sk->n_shared; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", sk->shared[i].name);
        cJSON_AddNumberToObject(x, "line", sk->shared[i].line);
        if (sk->shared[i].dynamic || sk->shared[i].bytes < 0)
            cJSON_AddNullToObject(x, "bytes");
        else
            cJSON_AddNumberToObject(x, "bytes", (double)sk->shared[i].bytes);
        cJSON_AddBoolToObject(x, "dynamic", sk->shared[i].dynamic);
        cJSON_AddItemToArray(sh, x);
    }
    cJSON_AddNumberToObject(s, "syncthreads", sk->syncthreads);
    cJSON_AddItemToObject(s, "divergent_barriers", risks_json(sk->divergent, sk->n_divergent, "condition_line"));
    cJSON_AddItemToObject(s, "barriers_after_early_exit", risks_json(sk->early_exit, sk->n_early_exit, "return_line"));
    cJSON_AddNumberToObject(s, "ldg", sk->ldg);
    cJSON_AddNumberToObject(s, "vector_accesses", sk->vector_accesses);
    cJSON *at = cJSON_AddObjectToObject(s, "atomics");
    cJSON_AddNumberToObject(at, "global", sk->atomics_global);
    cJSON_AddNumberToObject(at, "shared", sk->atomics_shared);
    cJSON_AddNumberToObject(at, "other", sk->atomics_other);
    cJSON_AddNumberToObject(s, "warp_ops", sk->warp_ops);
    cJSON *acc = cJSON_AddArrayToObject(o, "accesses");
    for (int i = 0; i < sk->n_accesses; i++) {
        const SrcAccess *a = &sk->accesses[i];
        cJSON *x = cJSON_CreateObject();
        char expr[128];
        cJSON_AddNumberToObject(x, "line", a->line);
        if (a->call_line)
            cJSON_AddNumberToObject(x, "call_line", a->call_line);
        cJSON_AddStringToObject(x, "param", a->param);
        cJSON_AddStringToObject(x, "kind", src_access_kind_name(a->kind));
        cJSON_AddStringToObject(x, "class", src_access_class_name(a->cls));
        stride_expr(sk, a, expr, sizeof expr);
        if (expr[0])
            cJSON_AddStringToObject(x, "stride_expr", expr);
        if (a->stride)
            cJSON_AddNumberToObject(x, "stride", (double)a->stride);
        cJSON_AddNumberToObject(x, "elem_bytes", a->elem_bytes);
        cJSON_AddNumberToObject(x, "sectors", round4(a->sectors));
        cJSON_AddStringToObject(x, "index", a->index);
        if (a->address) /* index is the address argument of an atomic or __ldg */
            cJSON_AddBoolToObject(x, "address", 1);
        cJSON_AddItemToArray(acc, x);
    }
    cJSON *co = cJSON_AddObjectToObject(o, "coalescing");
    cJSON_AddNumberToObject(co, "coalesced", sk->coalesced);
    cJSON_AddNumberToObject(co, "uniform", sk->uniform);
    cJSON_AddNumberToObject(co, "strided", sk->strided);
    cJSON_AddNumberToObject(co, "indirect", sk->indirect);
    add_term(co, "coalesced_fraction", sk->coalesced_fraction);
    add_term(co, "score", sk->coalescing);
    return o;
}

static cJSON *dims(const int64_t d[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)d[i]));
    return a;
}

static void add_limit(cJSON *o, const char *key, int v)
{
    if (v == INT_MAX)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

cJSON *structure_to_cjson(const StructureReport *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "version", STRUCTURE_FORMAT_VERSION);
    cJSON_AddStringToObject(j, "arch", r->arch);
    cJSON_AddStringToObject(j, "config", r->config);
    cJSON_AddNumberToObject(j, "score", round4(r->score));
    cJSON *t = cJSON_AddObjectToObject(j, "terms");
    add_term(t, "coalescing", r->t_coalescing);
    add_term(t, "occupancy", r->t_occupancy);
    add_term(t, "intensity", r->t_intensity);
    add_term(t, "sync", r->t_sync);
    add_term(t, "spills", r->t_spills);
    cJSON *w = cJSON_AddObjectToObject(j, "weights");
    cJSON_AddNumberToObject(w, "coalescing", r->weights.coalescing);
    cJSON_AddNumberToObject(w, "occupancy", r->weights.occupancy);
    cJSON_AddNumberToObject(w, "intensity", r->weights.intensity);
    cJSON_AddNumberToObject(w, "sync", r->weights.sync);
    cJSON_AddNumberToObject(w, "spills", r->weights.spills);
    cJSON *ks = cJSON_AddArrayToObject(j, "kernels");
    for (int k = 0; k < r->src.n_kernels; k++)
        cJSON_AddItemToArray(ks, kernel_json(r, k));
    cJSON *ls = cJSON_AddArrayToObject(j, "launches");
    for (int l = 0; l < r->n_launches; l++) {
        const StructureLaunch *L = &r->launches[l];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kernel", L->kernel >= 0 ? r->src.kernels[L->kernel].name : "?");
        cJSON_AddItemToObject(o, "grid", dims(L->g.grid));
        cJSON_AddItemToObject(o, "block", dims(L->g.block));
        cJSON_AddNumberToObject(o, "smem_dynamic", (double)L->g.smem);
        cJSON *oc = cJSON_AddObjectToObject(o, "occupancy");
        cJSON_AddNumberToObject(oc, "blocks_per_sm", L->occ.blocks_per_sm);
        cJSON_AddNumberToObject(oc, "warps_per_sm", L->occ.warps_per_sm);
        cJSON_AddNumberToObject(oc, "occupancy", round4(L->occ.occupancy));
        cJSON_AddStringToObject(oc, "limited_by", L->occ.limited_by);
        cJSON_AddBoolToObject(oc, "from_ptxas", L->have_info);
        cJSON *lim = cJSON_AddObjectToObject(oc, "limits");
        add_limit(lim, "warps", L->occ.limit_warps);
        add_limit(lim, "registers", L->occ.limit_registers);
        add_limit(lim, "shared_memory", L->occ.limit_shared);
        add_limit(lim, "blocks", L->occ.limit_blocks);
        add_limit(lim, "barriers", L->occ.limit_barriers);
        cJSON_AddNumberToObject(o, "waves", round4(L->waves));
        cJSON_AddItemToArray(ls, o);
    }
    cJSON *in = cJSON_AddObjectToObject(j, "intensity");
    if (isfinite(r->flops)) {
        cJSON_AddNumberToObject(in, "flops", r->flops);
        cJSON_AddNumberToObject(in, "bytes", r->bytes);
        cJSON_AddNumberToObject(in, "scratch_bytes", r->scratch_bytes);
        cJSON_AddNumberToObject(in, "plan_bytes", r->plan_bytes);
        cJSON_AddNumberToObject(in, "ai_model", round4(r->ai_model));
        cJSON_AddNumberToObject(in, "ai_plan", round4(r->ai_plan));
        cJSON_AddStringToObject(in, "bound", r->ai_plan < r->ridge ? "memory" : "compute");
    }
    cJSON_AddStringToObject(in, "precision", r->fp64 ? "fp64" : "fp32");
    cJSON_AddNumberToObject(in, "ridge", round4(r->ridge));
    const SrcFeatures *f = &r->src.features;
    cJSON *fe = cJSON_AddObjectToObject(j, "features");
    cJSON_AddNumberToObject(fe, "pragma_unroll", f->pragma_unroll);
    cJSON_AddNumberToObject(fe, "vector_types", f->vector_types);
    cJSON_AddNumberToObject(fe, "vector_casts", f->vector_casts);
    cJSON_AddNumberToObject(fe, "ldg", f->ldg);
    cJSON_AddNumberToObject(fe, "shfl", f->shfl);
    cJSON_AddNumberToObject(fe, "votes", f->votes);
    cJSON_AddNumberToObject(fe, "warp_reduce", f->warp_reduce);
    cJSON_AddNumberToObject(fe, "syncthreads", f->syncthreads);
    cJSON_AddNumberToObject(fe, "syncwarp", f->syncwarp);
    cJSON_AddNumberToObject(fe, "atomics", f->atomics);
    cJSON_AddNumberToObject(fe, "shared_decls", f->shared_decls);
    cJSON_AddNumberToObject(fe, "extern_shared_decls", f->extern_shared_decls);
    return j;
}

char *structure_to_json(const StructureReport *r)
{
    cJSON *j = structure_to_cjson(r);
    char *t = cJSON_PrintUnformatted(j);
    char *out = xstrdup(t);
    cJSON_free(t);
    cJSON_Delete(j);
    return out;
}

/* ---- text ---- */

static void print_term(FILE *f, const char *name, double v, double w, int last)
{
    if (v < 0)
        fprintf(f, "%s n/a", name);
    else
        fprintf(f, "%s %.2f (weight %.2f)", name, v, w);
    fputs(last ? "\n" : ", ", f);
}

static void print_kernel(FILE *f, const StructureReport *r, int k)
{
    const SrcKernel *sk = &r->src.kernels[k];
    const NvrtcKernelInfo *ki = &r->info[k];
    fprintf(f, "\nkernel %s (line %d)%s\n", sk->name, sk->line, r->used[k] ? "" : ", not launched by the plan");
    if (ki->name[0])
        fprintf(f, "  ptxas: %d registers, %lld B stack frame, spills %lld B stored / %lld B loaded, %lld B static "
                   "shared memory, %d barriers\n",
                ki->registers, ki->stack_frame, ki->spill_stores, ki->spill_loads, ki->static_smem, ki->barriers);
    fprintf(f, "  source: %d pointer parameters (%d const __restrict__), ", sk->n_pointer_params, sk->n_const_restrict);
    if (sk->n_shared == 0)
        fprintf(f, "no shared memory");
    for (int i = 0; i < sk->n_shared; i++) {
        const SrcShared *s = &sk->shared[i];
        if (s->dynamic)
            fprintf(f, "%sextern __shared__ %s (line %d)", i ? ", " : "", s->name, s->line);
        else if (s->bytes >= 0)
            fprintf(f, "%s__shared__ %s %lld B (line %d)", i ? ", " : "", s->name, s->bytes, s->line);
        else
            fprintf(f, "%s__shared__ %s ? B (line %d)", i ? ", " : "", s->name, s->line);
    }
    fprintf(f, "; %d __syncthreads, %d __ldg, %d vector accesses, atomics %d global / %d shared, %d warp operations\n",
            sk->syncthreads, sk->ldg, sk->vector_accesses, sk->atomics_global, sk->atomics_shared, sk->warp_ops);
    for (int i = 0; i < sk->n_divergent; i++) {
        fprintf(f, "  RISK: barrier at line %d sits under a thread-dependent condition (line %d)", sk->divergent[i].line,
                sk->divergent[i].cond_line);
        if (sk->divergent[i].call_line)
            fprintf(f, " through the call at line %d", sk->divergent[i].call_line);
        fputs(": threads that skip it leave the others waiting (deadlock or undefined behaviour)\n", f);
    }
    for (int i = 0; i < sk->n_early_exit; i++)
        fprintf(f, "  risk: barrier at line %d comes after a thread-dependent return (line %d): exited threads "
                   "never arrive (undefined behaviour)\n",
                sk->early_exit[i].line, sk->early_exit[i].cond_line);
    if (sk->n_accesses == 0) {
        fprintf(f, "  no global memory access through its parameters\n");
        return;
    }
    fprintf(f, "  global accesses: %d coalesced, %d uniform, %d strided, %d indirect", sk->coalesced, sk->uniform,
            sk->strided, sk->indirect);
    if (sk->coalescing >= 0)
        fprintf(f, ": coalescing %.2f (coalesced or uniform: %.0f%%)\n", sk->coalescing, 100 * sk->coalesced_fraction);
    else
        fputs("\n", f);
    for (int i = 0; i < sk->n_accesses; i++) {
        const SrcAccess *a = &sk->accesses[i];
        char expr[128], where[32];
        stride_expr(sk, a, expr, sizeof expr);
        snprintf(where, sizeof where, a->call_line ? "line %d (call %d)" : "line %d", a->line, a->call_line);
        /* an address argument (atomics, __ldg) is shown as written */
        int address = a->address;
        fprintf(f, "    %-18s %-6s %s%s%s%s: %s", where, src_access_kind_name(a->kind), address ? "" : a->param,
                address ? "" : "[", a->index, address ? "" : "]", src_access_class_name(a->cls));
        if (a->shape == SRC_SHAPE_AFFINE && !(a->cls == SRC_COALESCED && !a->n_factors)) {
            if (a->stride && a->n_factors)
                fprintf(f, ", stride %lld (%s)", a->stride, expr);
            else if (a->stride)
                fprintf(f, ", stride %lld", a->stride);
            else
                fprintf(f, ", stride %s", expr);
        }
        if (a->cls == SRC_STRIDED)
            fprintf(f, ", %.0f%% of fetched sectors used", 100 * a->sectors);
        fputs("\n", f);
    }
}

void structure_print(FILE *f, const StructureReport *r)
{
    fprintf(f, "structure (config %s, %s): score %.2f\n  ", r->config, r->arch, r->score);
    print_term(f, "coalescing", r->t_coalescing, r->weights.coalescing, 0);
    print_term(f, "occupancy", r->t_occupancy, r->weights.occupancy, 0);
    print_term(f, "intensity", r->t_intensity, r->weights.intensity, 0);
    print_term(f, "sync", r->t_sync, r->weights.sync, 0);
    print_term(f, "spills", r->t_spills, r->weights.spills, 1);
    for (int k = 0; k < r->src.n_kernels; k++)
        print_kernel(f, r, k);
    fputs("\n", f);
    for (int l = 0; l < r->n_launches; l++) {
        const StructureLaunch *L = &r->launches[l];
        fprintf(f, "launch %d %s: grid %lldx%lldx%lld, block %lldx%lldx%lld, %lld B dynamic shared memory: ", l,
                L->kernel >= 0 ? r->src.kernels[L->kernel].name : "?", (long long)L->g.grid[0],
                (long long)L->g.grid[1], (long long)L->g.grid[2], (long long)L->g.block[0], (long long)L->g.block[1],
                (long long)L->g.block[2], (long long)L->g.smem);
        fprintf(f, "%d blocks/SM, %d warps/SM, occupancy %.0f%% (limited by %s)%s, %.3g waves\n", L->occ.blocks_per_sm,
                L->occ.warps_per_sm, 100 * L->occ.occupancy, L->occ.limited_by,
                L->have_info ? "" : " [no ptxas facts: registers not counted]", L->waves);
    }
    if (isfinite(r->flops))
        fprintf(f, "intensity: %.4g flop over %.4g B (+%.4g B of scratch, written and read: %.4g B): %.3g flop/B "
                   "(plan %.3g); %s ridge %.3g flop/B: %s-bound\n",
                r->flops, r->bytes, r->scratch_bytes, r->plan_bytes, r->ai_model, r->ai_plan, r->fp64 ? "fp64" : "fp32",
                r->ridge, r->ai_plan < r->ridge ? "memory" : "compute");
    const SrcFeatures *fe = &r->src.features;
    fprintf(f, "source features: %d #pragma unroll, %d vector-type mentions (%d vector casts), %d __ldg, %d shuffles, "
               "%d votes, %d warp reductions, %d __syncthreads, %d __syncwarp, %d atomics\n",
            fe->pragma_unroll, fe->vector_types, fe->vector_casts, fe->ldg, fe->shfl, fe->votes, fe->warp_reduce,
            fe->syncthreads, fe->syncwarp, fe->atomics);
}
