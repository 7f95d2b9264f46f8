#include "profile_metrics.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "harness/gpu_peaks.h"
#include "harness/structure.h"

/* One way to obtain a quantity: num (times scale), or num / den when den
 * is set. */
typedef struct Alternative {
    const char *num, *den;
    double scale;
} Alternative;

typedef struct Quantity {
    const char *key;
    Alternative alt[3];
} Quantity;

/* Metric names as Nsight Compute spells them on sm_90 (checked with ncu on
 * the H200 for the first of each; the others are fallbacks the profiler's
 * own list accepts or refuses at run time). */
static const Quantity QUANTITIES[PQ_COUNT] = {
    [PQ_DRAM_READ] = {"dram_read_bytes", {{"dram__bytes_read.sum", NULL, 1}}},
    [PQ_DRAM_WRITE] = {"dram_write_bytes", {{"dram__bytes_write.sum", NULL, 1}}},
    [PQ_LD_SECTORS] = {"ld_sectors", {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL, 1}}},
    [PQ_LD_REQUESTS] = {"ld_requests", {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL, 1}}},
    [PQ_ST_SECTORS] = {"st_sectors", {{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", NULL, 1}}},
    [PQ_ST_REQUESTS] = {"st_requests", {{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", NULL, 1}}},
    [PQ_WARPS_ACTIVE] = {"warps_active",
                         {{"sm__warps_active.avg.pct_of_peak_sustained_active", NULL, 0.01},
                          {"sm__warps_active.avg.per_cycle_active", "sm__maximum_warps_per_active_cycle_pct", 1}}},
    [PQ_SM_THROUGHPUT] = {"sm_throughput", {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", NULL, 0.01}}},
    [PQ_DRAM_THROUGHPUT] = {"dram_throughput",
                            {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL, 0.01},
                             {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", NULL, 0.01}}},
    [PQ_BARRIER_STALL] = {"barrier_stall",
                          {{"smsp__warp_issue_stalled_barrier_per_warp_active.pct", NULL, 0.01},
                           {"smsp__warps_issue_stalled_barrier.sum", "smsp__warps_active.sum", 1},
                           {"smsp__pcsamp_warps_issue_stalled_barrier.sum", "smsp__pcsamp_sample_count.sum", 1}}},
    [PQ_DURATION] = {"duration_ns", {{"gpu__time_duration.sum", NULL, 1}}},
};

const char *profile_quantity_key(ProfileQuantity q)
{
    return q >= 0 && q < PQ_COUNT ? QUANTITIES[q].key : "?";
}

const char *profile_status_name(ProfileStatus s)
{
    switch (s) {
    case PROFILE_NOT_RUN: return "not_run";
    case PROFILE_OK: return "ok";
    case PROFILE_DENIED: return "denied";
    case PROFILE_UNAVAILABLE: return "unavailable";
    case PROFILE_FAILED: return "failed";
    }
    return "?";
}

static void add_name(ProfileSelection *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return;
    if (s->n < PROFILE_MAX_METRICS)
        snprintf(s->names[s->n++], PROFILE_METRIC_NAME, "%s", name);
}

void profile_resolve(int (*available)(const char *name, void *ctx), void *ctx, ProfileSelection *s)
{
    memset(s, 0, sizeof *s);
    for (int q = 0; q < PQ_COUNT; q++) {
        const Alternative *chosen = NULL;
        for (int a = 0; a < 3 && !chosen && QUANTITIES[q].alt[a].num; a++) {
            const Alternative *alt = &QUANTITIES[q].alt[a];
            if (available(alt->num, ctx) && (!alt->den || available(alt->den, ctx)))
                chosen = alt;
        }
        if (!chosen) {
            s->missing[q] = 1;
            continue;
        }
        add_name(s, chosen->num);
        if (chosen->den)
            add_name(s, chosen->den);
    }
}

void profile_result_init(ProfileResult *r)
{
    memset(r, 0, sizeof *r);
    r->status = PROFILE_NOT_RUN;
    for (int q = 0; q < PQ_COUNT; q++)
        r->q[q] = NAN;
    r->word_bytes = r->ld_sectors_per_request = r->st_sectors_per_request = r->coalescing = NAN;
    r->occupancy = r->dram_bytes = r->flops = r->model_bytes = r->bytes_ratio = NAN;
    r->bandwidth = r->flop_rate = r->roofline = r->peak_flops = r->peak_bandwidth = NAN;
}

static int collected(const ProfileResult *r, const char *name, double *v)
{
    for (int i = 0; i < r->n_metrics; i++)
        if (strcmp(r->names[i], name) == 0 && isfinite(r->values[i])) {
            *v = r->values[i];
            return 1;
        }
    return 0;
}

void profile_take(ProfileResult *r)
{
    for (int q = 0; q < PQ_COUNT; q++) {
        r->q[q] = NAN;
        r->source[q][0] = '\0';
        for (int a = 0; a < 3 && QUANTITIES[q].alt[a].num; a++) {
            const Alternative *alt = &QUANTITIES[q].alt[a];
            double num, den = 1;
            if (!collected(r, alt->num, &num) || (alt->den && !collected(r, alt->den, &den)))
                continue;
            if (alt->den && den == 0)
                continue; /* nothing ran (no active warp): the ratio has no value */
            r->q[q] = num / den * alt->scale;
            if (alt->den)
                snprintf(r->source[q], sizeof r->source[q], "%s / %s", alt->num, alt->den);
            else
                snprintf(r->source[q], sizeof r->source[q], "%s", alt->num);
            break;
        }
    }
}

double profile_coalescing(double sectors, double requests, double word_bytes)
{
    if (!(requests > 0) || !isfinite(sectors))
        return NAN;
    double ideal = fmax(1.0, word_bytes > 0 ? word_bytes : 4.0); /* 32 lanes x w bytes = w sectors */
    double spr = sectors / requests;
    if (!(spr > 0))
        return NAN;
    return fmin(1.0, ideal / spr);
}

void profile_derive(ProfileResult *r, double flops, double model_bytes, double word_bytes, double peak_flops,
                    double peak_bandwidth)
{
    const double *q = r->q;
    r->word_bytes = word_bytes > 0 ? word_bytes : 4.0;
    r->flops = flops;
    r->model_bytes = model_bytes;
    r->peak_flops = peak_flops;
    r->peak_bandwidth = peak_bandwidth;
    r->ld_sectors_per_request = q[PQ_LD_REQUESTS] > 0 ? q[PQ_LD_SECTORS] / q[PQ_LD_REQUESTS] : NAN;
    r->st_sectors_per_request = q[PQ_ST_REQUESTS] > 0 ? q[PQ_ST_SECTORS] / q[PQ_ST_REQUESTS] : NAN;
    /* loads and stores weighted by their requests: each request is one
     * warp instruction the memory system had to serve */
    double cl = profile_coalescing(q[PQ_LD_SECTORS], q[PQ_LD_REQUESTS], r->word_bytes);
    double cs = profile_coalescing(q[PQ_ST_SECTORS], q[PQ_ST_REQUESTS], r->word_bytes);
    double wl = isnan(cl) ? 0 : q[PQ_LD_REQUESTS], ws = isnan(cs) ? 0 : q[PQ_ST_REQUESTS];
    r->coalescing = wl + ws > 0 ? ((wl > 0 ? wl * cl : 0) + (ws > 0 ? ws * cs : 0)) / (wl + ws) : NAN;
    r->occupancy = q[PQ_WARPS_ACTIVE];
    r->dram_bytes = q[PQ_DRAM_READ] + q[PQ_DRAM_WRITE];
    r->bytes_ratio = model_bytes > 0 ? r->dram_bytes / model_bytes : NAN;
    double t = q[PQ_DURATION] * 1e-9;
    r->bandwidth = t > 0 ? r->dram_bytes / t : NAN;
    r->flop_rate = t > 0 && flops >= 0 ? flops / t : NAN;
    /* achieved / attainable at the measured intensity: with
     * I = flops / dram_bytes, attainable = min(peak, I * bw), so the
     * fraction is max(flop_rate / peak, bandwidth / bw) */
    double f = isfinite(r->flop_rate) && peak_flops > 0 ? r->flop_rate / peak_flops : NAN;
    double b = isfinite(r->bandwidth) && peak_bandwidth > 0 ? r->bandwidth / peak_bandwidth : NAN;
    r->roofline = isnan(f) ? b : isnan(b) ? f : fmax(f, b);
}

/* ---- JSON ---- */

static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, round(v * 1e4) / 1e4);
    else
        cJSON_AddNullToObject(o, key);
}

cJSON *profile_to_cjson(const ProfileResult *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "version", PROFILE_FORMAT_VERSION);
    cJSON_AddStringToObject(j, "status", profile_status_name(r->status));
    cJSON_AddStringToObject(j, "note", r->note);
    cJSON_AddNumberToObject(j, "passes", r->passes);
    add_num(j, "seconds", r->seconds);
    cJSON *m = cJSON_AddObjectToObject(j, "metrics");
    for (int i = 0; i < r->n_metrics; i++)
        add_num(m, r->names[i], r->values[i]);
    cJSON *qs = cJSON_AddObjectToObject(j, "quantities");
    cJSON *un = cJSON_CreateArray();
    for (int q = 0; q < PQ_COUNT; q++) {
        add_num(qs, QUANTITIES[q].key, r->q[q]);
        if (r->status == PROFILE_OK && isnan(r->q[q]))
            cJSON_AddItemToArray(un, cJSON_CreateString(QUANTITIES[q].key));
    }
    cJSON_AddItemToObject(j, "unavailable", un);
    cJSON *d = cJSON_AddObjectToObject(j, "derived");
    add_num(d, "word_bytes", r->word_bytes);
    add_num(d, "ld_sectors_per_request", r->ld_sectors_per_request);
    add_num(d, "st_sectors_per_request", r->st_sectors_per_request);
    add_num(d, "coalescing", r->coalescing);
    add_num(d, "occupancy", r->occupancy);
    add_num(d, "dram_bytes", r->dram_bytes);
    add_num(d, "model_bytes", r->model_bytes);
    add_num(d, "bytes_ratio", r->bytes_ratio);
    add_num(d, "flops", r->flops);
    add_num(d, "bandwidth", r->bandwidth);
    add_num(d, "flop_rate", r->flop_rate);
    add_num(d, "roofline", r->roofline);
    add_num(d, "peak_flops", r->peak_flops);
    add_num(d, "peak_bandwidth", r->peak_bandwidth);
    cJSON *occ = cJSON_AddArrayToObject(j, "api_blocks_per_sm");
    for (int i = 0; i < r->n_launches; i++)
        cJSON_AddItemToArray(occ, cJSON_CreateNumber(r->api_blocks_per_sm[i]));
    if (r->occupancy_note[0])
        cJSON_AddStringToObject(j, "occupancy_note", r->occupancy_note);
    return j;
}

char *profile_to_json(const ProfileResult *r)
{
    cJSON *j = profile_to_cjson(r);
    char *t = cJSON_PrintUnformatted(j);
    char *out = xstrdup(t);
    cJSON_free(t);
    cJSON_Delete(j);
    return out;
}

/* ---- the static report's side ---- */

void profile_derive_for(ProfileResult *r, const Problem *p, const ProblemConfig *c, double word_bytes)
{
    int64_t flops = 0, bytes = 0;
    int fp64 = 0;
    for (int a = 0; a < p->n_args; a++)
        fp64 |= arg_role_is_buffer(p->args[a].role) && p->args[a].dtype == DT_F64;
    double f = problem_eval(p, c, p->cost_flops, &flops, NULL) == 0 ? (double)flops : NAN;
    double b = problem_eval(p, c, p->cost_bytes, &bytes, NULL) == 0 ? (double)bytes : NAN;
    profile_derive(r, f, b, word_bytes, fp64 ? H200_PEAK_FLOPS_F64 : H200_PEAK_FLOPS_F32, H200_BANDWIDTH);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The median elem_bytes of the loads and stores of src's kernels (used[k]
 * nonzero, or every kernel when used is NULL); 4 when there is none. */
static double median_word_bytes(const SrcReport *src, const int *used)
{
    int n = 0, cap = 0, *w = NULL;
    for (int k = 0; k < src->n_kernels; k++) {
        if (used && !used[k])
            continue;
        const SrcKernel *sk = &src->kernels[k];
        for (int a = 0; a < sk->n_accesses; a++) {
            if (sk->accesses[a].elem_bytes <= 0 || sk->accesses[a].kind == SRC_ATOMIC)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                w = xrealloc(w, sizeof *w * (size_t)cap);
            }
            w[n++] = sk->accesses[a].elem_bytes;
        }
    }
    double out = 4.0;
    if (n) {
        qsort(w, (size_t)n, sizeof *w, cmp_int);
        out = w[n / 2];
    }
    free(w);
    return out;
}

double profile_word_bytes(const StructureReport *sr)
{
    return sr ? median_word_bytes(&sr->src, sr->used) : 4.0;
}

double profile_source_word_bytes(const char *source)
{
    SrcReport src;
    Error e;
    memset(&src, 0, sizeof src);
    double w = src_analyze(source, NULL, 0, &src, &e) == 0 ? median_word_bytes(&src, NULL) : 4.0;
    src_report_release(&src);
    return w;
}

/* ---- text ---- */

static const char *fmt(char *buf, size_t len, const char *f, double v)
{
    if (isfinite(v))
        snprintf(buf, len, f, v);
    else
        snprintf(buf, len, "-");
    return buf;
}

static const char *fmt_bytes(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (v >= 1e9)
        snprintf(buf, len, "%.2f GB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.2f MB", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.1f kB", v / 1e3);
    else
        snprintf(buf, len, "%.0f B", v);
    return buf;
}

void profile_print(FILE *f, const ProfileResult *r, const StructureReport *sr)
{
    char a[64], b[64], c[64], d[64];
    if (r->status != PROFILE_OK) {
        fprintf(f, "measured: %s%s%s\n", profile_status_name(r->status), r->note[0] ? ": " : "", r->note);
        return;
    }
    fprintf(f, "measured (CUPTI range profiler, one range over the launch plan, %d pass%s, %.2f s):\n", r->passes,
            r->passes == 1 ? "" : "es", r->seconds);
    fprintf(f, "  %-22s %-26s %s\n", "", "static", "measured");
    /* coalescing */
    snprintf(a, sizeof a, "-");
    if (sr && sr->t_coalescing >= 0)
        snprintf(a, sizeof a, "%.3f", sr->t_coalescing);
    fprintf(f, "  %-22s %-26s %s (ld %s, st %s sectors/request; ideal %.0f)\n", "coalescing", a,
            fmt(b, sizeof b, "%.3f", r->coalescing), fmt(c, sizeof c, "%.2f", r->ld_sectors_per_request),
            fmt(d, sizeof d, "%.2f", r->st_sectors_per_request), fmax(1, r->word_bytes));
    /* occupancy, per launch where the API answered */
    for (int i = 0; i < (sr ? sr->n_launches : 0) || (i == 0 && !sr); i++) {
        const StructureLaunch *l = sr ? &sr->launches[i] : NULL;
        char st[64] = "-", api[64] = "-";
        if (l)
            snprintf(st, sizeof st, "%d blocks/SM (%.0f%%)", l->occ.blocks_per_sm, 100 * l->occ.occupancy);
        if (i < r->n_launches && r->api_blocks_per_sm[i] >= 0)
            snprintf(api, sizeof api, "API %d blocks/SM%s", r->api_blocks_per_sm[i],
                     l && r->api_blocks_per_sm[i] != l->occ.blocks_per_sm ? " (differs)" : "");
        char label[48] = "occupancy";
        if (sr && sr->n_launches > 1)
            snprintf(label, sizeof label, "occupancy, launch %d", i + 1);
        fprintf(f, "  %-22s %-26s %s\n", label, st, api);
        if (i >= 7 && sr && sr->n_launches > 9) {
            fprintf(f, "  %-22s (%d more launches)\n", "", sr->n_launches - i - 1);
            break;
        }
    }
    fprintf(f, "  %-22s %-26s %s of the SM's warps (while active)\n", "achieved occupancy", "",
            fmt(a, sizeof a, "%.1f%%", 100 * r->occupancy));
    char ratio[32];
    fmt(ratio, sizeof ratio, "%.2fx", r->bytes_ratio);
    fprintf(f, "  %-22s %-26s %s (read %s, write %s), %s the model\n", "DRAM bytes",
            fmt_bytes(b, sizeof b, r->model_bytes), fmt_bytes(a, sizeof a, r->dram_bytes),
            fmt_bytes(c, sizeof c, r->q[PQ_DRAM_READ]), fmt_bytes(d, sizeof d, r->q[PQ_DRAM_WRITE]), ratio);
    char rb[64] = "-";
    if (sr)
        snprintf(rb, sizeof rb, "AI %.3g flop/B, %s-bound", sr->ai_plan, sr->ai_plan < sr->ridge ? "memory" : "compute");
    fprintf(f, "  %-22s %-26s %s TB/s, %s TFLOP/s: %s of the roofline\n", "roofline", rb,
            fmt(a, sizeof a, "%.3f", r->bandwidth / 1e12), fmt(b, sizeof b, "%.3f", r->flop_rate / 1e12),
            fmt(c, sizeof c, "%.3f", r->roofline));
    fprintf(f, "  %-22s %-26s SM %s, DRAM %s of peak\n", "throughput", "",
            fmt(a, sizeof a, "%.1f%%", 100 * r->q[PQ_SM_THROUGHPUT]),
            fmt(b, sizeof b, "%.1f%%", 100 * r->q[PQ_DRAM_THROUGHPUT]));
    char sb[64] = "-";
    if (sr) {
        int n = 0;
        for (int k = 0; k < sr->src.n_kernels; k++)
            if (!sr->used || sr->used[k])
                n += sr->src.kernels[k].syncthreads;
        snprintf(sb, sizeof sb, "%d barrier%s, %d divergent", n, n == 1 ? "" : "s", sr->divergent_barriers);
    }
    fprintf(f, "  %-22s %-26s %s of active warp cycles\n", "barrier stalls", sb,
            fmt(a, sizeof a, "%.1f%%", 100 * r->q[PQ_BARRIER_STALL]));
    fprintf(f, "  %-22s %-26s %s ms (GPU time of the range)\n", "duration", "",
            fmt(a, sizeof a, "%.4f", r->q[PQ_DURATION] * 1e-6));
    StrBuf un = STRBUF_INIT;
    for (int q = 0; q < PQ_COUNT; q++)
        if (isnan(r->q[q]))
            sb_printf(&un, "%s%s", un.len ? ", " : "", QUANTITIES[q].key);
    if (un.len)
        fprintf(f, "  unavailable on this GPU/CUPTI: %s\n", sb_str(&un));
    sb_release(&un);
    if (r->occupancy_note[0])
        fprintf(f, "  occupancy API: %s\n", r->occupancy_note);
    if (r->note[0])
        fprintf(f, "  note: %s\n", r->note);
}
