#include "run.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/cost_trace.h"
#include "harness/gpu_share.h"
#include "harness/kernels.h"
#include "harness/nvrtc.h"
#include "harness/results.h"
#include "harness/structure.h"
#include "harness/version.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the selection, as stored with the run (for resume) ---- */

static const char *const KSEL_NAMES[] = {"reference", "variants", "all", "ids", "contenders"};

static char *selection_json(const RunSelection *s)
{
    cJSON *j = cJSON_CreateObject();
    if (s->split)
        cJSON_AddStringToObject(j, "split", s->split);
    if (s->family)
        cJSON_AddStringToObject(j, "family", s->family);
    if (s->program)
        cJSON_AddStringToObject(j, "program", s->program);
    cJSON_AddStringToObject(j, "kernels", KSEL_NAMES[s->kernels]);
    if (s->kernels == KSEL_IDS) {
        cJSON *a = cJSON_AddArrayToObject(j, "ids");
        for (int i = 0; i < s->n_ids; i++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->ids[i]));
    }
    if (s->configs)
        cJSON_AddStringToObject(j, "configs", s->configs);
    if (s->skip_configs)
        cJSON_AddStringToObject(j, "skip_configs", s->skip_configs);
    if (s->limit)
        cJSON_AddNumberToObject(j, "limit", s->limit);
    if (s->sample)
        cJSON_AddNumberToObject(j, "sample", s->sample);
    if (s->sample_programs)
        cJSON_AddNumberToObject(j, "sample_programs", s->sample_programs);
    if (s->shard_count) {
        char shard[32];
        snprintf(shard, sizeof shard, "%d/%d", s->shard_index, s->shard_count);
        cJSON_AddStringToObject(j, "shard", shard);
    }
    char *text = cJSON_PrintUnformatted(j);
    char *out = xstrdup(text);
    cJSON_free(text);
    cJSON_Delete(j);
    return out;
}

int run_parse_shard(const char *text, int *index, int *count)
{
    char *end1, *end2;
    long i = strtol(text, &end1, 10);
    if (end1 == text || *end1 != '/')
        return -1;
    long n = strtol(end1 + 1, &end2, 10);
    if (end2 == end1 + 1 || *end2 || n < 1 || n > 100000 || i < 0 || i >= n)
        return -1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

/* A selection parsed back from a run; strings and ids point into *owner
 * (release with cJSON_Delete) and *ids_out (free). */
static int selection_parse(const char *text, RunSelection *s, cJSON **owner, int64_t **ids_out, Error *e)
{
    memset(s, 0, sizeof *s);
    *ids_out = NULL;
    cJSON *j = *owner = cJSON_Parse(text ? text : "");
    if (!cJSON_IsObject(j))
        return ERR(e, "the run's stored selection is not valid JSON");
    const cJSON *v;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "split")))
        s->split = v->valuestring;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "family")))
        s->family = v->valuestring;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "program")))
        s->program = v->valuestring;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "configs")))
        s->configs = v->valuestring;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "skip_configs")))
        s->skip_configs = v->valuestring;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "limit")))
        s->limit = v->valueint;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "sample")))
        s->sample = v->valueint;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(j, "sample_programs")))
        s->sample_programs = v->valueint;
    if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "shard")) &&
        run_parse_shard(v->valuestring, &s->shard_index, &s->shard_count) != 0)
        return ERR(e, "the run's stored selection has an invalid shard '%s'", v->valuestring);
    v = cJSON_GetObjectItemCaseSensitive(j, "kernels");
    int k = -1;
    for (int i = 0; i < (int)(sizeof KSEL_NAMES / sizeof KSEL_NAMES[0]) && cJSON_IsString(v); i++)
        if (strcmp(v->valuestring, KSEL_NAMES[i]) == 0)
            k = i;
    if (k < 0)
        return ERR(e, "the run's stored selection has no valid 'kernels'");
    s->kernels = (KernelSelect)k;
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(j, "ids");
    if (s->kernels == KSEL_IDS) {
        int n = cJSON_GetArraySize(ids);
        *ids_out = xcalloc((size_t)n + 1, sizeof **ids_out);
        for (int i = 0; i < n; i++)
            (*ids_out)[i] = (int64_t)cJSON_GetArrayItem(ids, i)->valuedouble;
        s->ids = *ids_out;
        s->n_ids = n;
    }
    return 0;
}

/* Keeps every kernel of `want` programs spread evenly over the selection
 * (the programs at places floor(k * P / want) of the P selected, in order);
 * ids and programs are filtered in place. */
static void keep_program_sample(int64_t *ids, int64_t *programs, int *n, int want)
{
    int total = 0;
    for (int k = 0; k < *n; k++)
        total += k == 0 || programs[k] != programs[k - 1];
    if (total <= want)
        return;
    int kept = 0, place = -1, next = 0; /* next: the k of the next program to keep */
    for (int k = 0; k < *n; k++) {
        if (k == 0 || programs[k] != programs[k - 1])
            place++;
        while (next < want && (int)((int64_t)next * total / want) < place)
            next++;
        if (next < want && (int)((int64_t)next * total / want) == place) {
            ids[kept] = ids[k];
            programs[kept++] = programs[k];
        }
    }
    *n = kept;
}

/* The selected kernel ids, ordered by program, its reference first, then id
 * (a worker keeps one program loaded across its kernels). */
static int select_kernels(Catalog *c, const RunSelection *s, int64_t **ids, int *n, Error *e)
{
    StrBuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    int rc = 0, cap = 256, r;
    *n = 0;
    *ids = xcalloc((size_t)cap, sizeof **ids);
    int64_t *programs = xcalloc((size_t)cap, sizeof *programs); /* each kernel's program */
    sb_append(&sql, "SELECT k.id, k.program_id FROM kernels k JOIN programs p ON p.id = k.program_id WHERE 1");
    if (s->split)
        sb_append(&sql, " AND p.split = :split");
    if (s->family)
        sb_append(&sql, " AND p.family = :family");
    if (s->program)
        sb_append(&sql, " AND p.name LIKE :program");
    if (s->kernels == KSEL_REFERENCE)
        sb_append(&sql, " AND k.origin = 'reference'");
    else if (s->kernels == KSEL_VARIANTS)
        sb_append(&sql, " AND k.origin = 'variant'");
    else if (s->kernels == KSEL_CONTENDERS)
        sb_append(&sql, " AND (k.origin = 'reference' OR (k.origin = 'variant'"
                        " AND coalesce(json_extract(k.knobs, '$.expect'), 'pass') IN ('pass', 'slower')))");
    else if (s->kernels == KSEL_IDS) {
        sb_append(&sql, " AND k.id IN (");
        for (int i = 0; i < s->n_ids; i++)
            sb_printf(&sql, "%s%lld", i ? "," : "", (long long)s->ids[i]);
        sb_append(&sql, s->n_ids ? ")" : "NULL)");
    }
    /* a program's reference first: its times set its variants' deadlines */
    sb_append(&sql, " ORDER BY p.name, k.origin <> 'reference', k.id");
    if (s->limit > 0)
        sb_printf(&sql, " LIMIT %d", s->limit);
    if (sqlite3_prepare_v2(catalog_db(c), sql.data, -1, &st, NULL) != SQLITE_OK) {
        catalog_sql_error(c, e, "selecting kernels");
        goto done_rc;
    }
    if (s->split)
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":split"), s->split, -1, SQLITE_STATIC);
    if (s->family)
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":family"), s->family, -1, SQLITE_STATIC);
    if (s->program)
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":program"), s->program, -1, SQLITE_STATIC);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap *= 2;
            *ids = xrealloc(*ids, sizeof **ids * (size_t)cap);
            programs = xrealloc(programs, sizeof *programs * (size_t)cap);
        }
        programs[*n] = sqlite3_column_int64(st, 1);
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    if (r != SQLITE_DONE) {
        catalog_sql_error(c, e, "selecting kernels");
        goto done_rc;
    }
    if (s->sample_programs > 0)
        keep_program_sample(*ids, programs, n, s->sample_programs);
    if (s->sample > 0 && *n > s->sample) {
        /* every (n/sample)-th kernel: a deterministic spread over families */
        for (int k = 0; k < s->sample; k++) {
            (*ids)[k] = (*ids)[(int64_t)k * *n / s->sample];
            programs[k] = programs[(int64_t)k * *n / s->sample];
        }
        *n = s->sample;
    }
    if (s->shard_count > 0) {
        /* whole programs per shard (a worker keeps a program loaded), dealt
         * round-robin in selection order */
        int kept = 0, place = -1;
        for (int k = 0; k < *n; k++) {
            if (k == 0 || programs[k] != programs[k - 1])
                place++;
            if (place % s->shard_count == s->shard_index)
                (*ids)[kept++] = (*ids)[k];
        }
        *n = kept;
    }
done:
    free(programs);
    sqlite3_finalize(st);
    sb_release(&sql);
    return rc;
done_rc:
    free(*ids);
    *ids = NULL;
    *n = 0;
    rc = -1;
    goto done;
}

/* ---- one worker process: its share of the kernels ---- */

typedef struct LoadedProgram {
    int64_t id;
    Problem *p;
    char *source;
    int64_t *config_ids;  /* per p->configs[k] */
    int64_t base_id;      /* the reference CUDA implementation: the timing baseline (0: none) */
    char *base_source;
    LaunchPlan *base_plan;
} LoadedProgram;

static void loaded_release(LoadedProgram *lp)
{
    problem_free(lp->p);
    free(lp->source);
    free(lp->config_ids);
    free(lp->base_source);
    launch_free(lp->base_plan);
    memset(lp, 0, sizeof *lp);
}

/* The program's reference kernel, if it has one whose plan parses. */
static int load_baseline(Catalog *c, LoadedProgram *lp, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT id, source, launch FROM kernels WHERE program_id = ? AND origin = 'reference'"
                           " ORDER BY id LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_int64(st, 1, lp->id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        Error pe;
        if (launch_parse((const char *)sqlite3_column_text(st, 2), "launch.json", lp->p, &lp->base_plan, &pe) == 0) {
            lp->base_id = sqlite3_column_int64(st, 0);
            lp->base_source = xstrdup((const char *)sqlite3_column_text(st, 1));
        }
    }
    sqlite3_finalize(st);
    return 0;
}

static int load_program(Catalog *c, int64_t program_id, LoadedProgram *out, Error *e)
{
    int rc = 0;
    sqlite3_stmt *st = NULL;
    loaded_release(out);
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT name, meta, source FROM programs WHERE id = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return catalog_sql_error(c, e, "programs");
    sqlite3_bind_int64(st, 1, program_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        catalog_sql_error(c, e, "programs");
        goto done_rc;
    }
    TRY(problem_parse((const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 0), &out->p,
                      e));
    out->source = xstrdup((const char *)sqlite3_column_text(st, 2));
    out->id = program_id;
    sqlite3_finalize(st);
    st = NULL;
    out->config_ids = xcalloc((size_t)out->p->n_configs + 1, sizeof *out->config_ids);
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT id FROM configs WHERE program_id = ? AND name = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        catalog_sql_error(c, e, "configs");
        goto done_rc;
    }
    for (int k = 0; k < out->p->n_configs; k++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, program_id);
        sqlite3_bind_text(st, 2, out->p->configs[k].name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_ROW)
            FAIL(e, "catalog: program %s has no config row '%s'", out->p->name, out->p->configs[k].name);
        out->config_ids[k] = sqlite3_column_int64(st, 0);
    }
    TRY(load_baseline(c, out, e));
done:
    sqlite3_finalize(st);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

/* The budget a run's options give (zero: the default). */
static RefBudget run_budget(const RunOptions *o)
{
    return o->budget.flops > 0 && o->budget.bytes > 0 ? o->budget : golden_default_budget();
}

/* Why config c is not run by default on the CPU backend, or NULL when the
 * candidate, a fiber per CUDA thread there, can afford it. */
static const char *too_dear_for_fibers(const Problem *p, const ProblemConfig *c, char *buf, size_t len)
{
    RefBudget fibers = golden_cpu_backend_budget();
    double flops = 0, bytes = 0;
    if (!golden_kernel_beyond(p, c, &fibers, &flops, &bytes))
        return NULL;
    snprintf(buf, len,
             "config '%s' costs %.3g GFLOP / %.3g GB: beyond what the CPU backend runs by default "
             "(name it with --configs to run it anyway)",
             c->name, flops / 1e9, bytes / 1e9);
    return buf;
}

static int in_name_list(const char *list, const char *name)
{
    int named = 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        named |= strcmp(t, name) == 0;
    free(copy);
    return named;
}

/* Chooses the configs of p to evaluate against its own reference (the C
 * program, or torch's): the named ones, or those within the budget (every
 * config of a torch program on the GPU, whose reference runs there).  A C
 * program's configs beyond the budget are marked in beyond[] (indexed like
 * p->configs), for resolve_golden; the rest get a `skipped` reason (NULL
 * for configs not asked for at all). */
static void choose_configs(const Problem *p, const RunOptions *o, const ProblemConfig **chosen, int *n_chosen,
                           char **skip_reason, unsigned char *beyond)
{
    const RunSelection *sel = &o->sel;
    RefBudget budget = run_budget(o);
    int cpu_backend = strcmp(o->backend, "cpu") == 0, torch = strcmp(p->lang, "torch") == 0;
    *n_chosen = 0;
    for (int k = 0; k < p->n_configs; k++) {
        const ProblemConfig *c = &p->configs[k];
        char buf[512];
        skip_reason[k] = NULL;
        beyond[k] = 0;
        if (sel->skip_configs && in_name_list(sel->skip_configs, c->name))
            continue;
        if (sel->configs) {
            if (in_name_list(sel->configs, c->name))
                chosen[(*n_chosen)++] = c;
            continue;
        }
        const char *why = cpu_backend ? too_dear_for_fibers(p, c, buf, sizeof buf) : NULL;
        if (why)
            skip_reason[k] = xstrdup(why);
        else if (!torch && golden_beyond(p, c, &budget, NULL, NULL))
            beyond[k] = 1;
        else
            chosen[(*n_chosen)++] = c;
    }
}

/* The configs of the program beyond the C reference's budget (beyond[k])
 * join chosen[] marked in golden[] (parallel to chosen) where golden.h
 * allows golden outputs for kernel k, else get their `skipped` reason.
 * For the program's reference itself the configs it is evaluated on now
 * count as its passes if it passes them in this very evaluation
 * (*after_pass: eval's golden_after_pass); for another kernel the
 * reference's stored verdicts decide, this run's included (it ran first).
 * -1 with e on a catalog error. */
static int resolve_golden(Catalog *c, const RunOptions *o, const LoadedProgram *lp, const KernelRow *k,
                          const ProblemConfig **chosen, int *n_chosen, unsigned char *golden, char **skip,
                          const unsigned char *beyond, int *after_pass, Error *e)
{
    const Problem *p = lp->p;
    RefBudget budget = run_budget(o);
    int is_ref = lp->base_id != 0 && lp->base_id == k->id;
    unsigned char *now = xcalloc((size_t)p->n_configs + 1, 1);
    for (int j = 0; is_ref && j < *n_chosen; j++)
        now[chosen[j] - p->configs] = 1;
    *after_pass = is_ref;
    for (int ci = 0; ci < p->n_configs; ci++) {
        if (!beyond[ci])
            continue;
        char why[768], reason[1280];
        int ok = golden_allowed(c, lp->base_id, o->backend, p, &budget, is_ref ? now : NULL, &p->configs[ci], why,
                                sizeof why, e);
        if (ok < 0) {
            free(now);
            return -1;
        }
        if (ok) {
            golden[*n_chosen] = 1;
            chosen[(*n_chosen)++] = &p->configs[ci];
        } else {
            skip[ci] = xstrdup(golden_skip_reason(p, &p->configs[ci], &budget, why, reason, sizeof reason));
        }
    }
    free(now);
    return 0;
}

typedef struct WorkerCtx {
    const char *catalog_path;
    int64_t run_id;
    const RunOptions *o;
    int device;
    const char *gpu_share; /* the device's share file, or NULL (alone on it, or nothing timed) */
    int progress_fd;
    int *next_program;     /* shared by every worker of the run (MAP_SHARED): the next program to take */
} WorkerCtx;

/* Stores the verdicts of one kernel in one transaction. */
static int store_kernel(Catalog *c, const WorkerCtx *w, const KernelRow *k, const LoadedProgram *lp,
                        const EvalReport *r, const ProblemConfig *const *chosen, int n_chosen, char **skip_reason,
                        char **structure, const char *kernel_error, double kernel_ms, Error *e)
{
    int rc = 0;
    char device[300];
    snprintf(device, sizeof device, "%d: %s", w->device, r && r->gpu.name[0] ? r->gpu.name : "?");
    char *profile = NULL; /* the current row's results.profile */
    TRY(catalog_begin(c, e));
    for (int ci = 0; ci < lp->p->n_configs; ci++) {
        const ProblemConfig *cf = &lp->p->configs[ci];
        ResultRow row = result_row_empty();
        free(profile);
        profile = NULL;
        row.kernel_id = k->id;
        row.config_id = lp->config_ids[ci];
        row.device = device;
        row.reference_kind = "cpu";
        row.kernel_ms = kernel_ms;
        row.structure = structure ? structure[ci] : NULL;
        const EvalConfig *ec = NULL;
        for (int j = 0; r && j < r->n_configs; j++)
            if (r->configs[j].config == cf)
                ec = &r->configs[j];
        if (ec) {
            row.reference_cpu_ms = ec->reference_cpu_ms;
            if (ec->reference_kind)
                row.reference_kind = ec->reference_kind;
        }
        int chosen_here = 0;
        for (int j = 0; j < n_chosen; j++)
            chosen_here |= chosen[j] == cf;
        if (kernel_error) {
            row.status = "invalid_plan";
            row.error = kernel_error;
        } else if (ec) {
            row.status = eval_status_name(ec->status);
            row.error = ec->message[0] ? ec->message : NULL;
            row.trials = ec->trials;
            row.compile_ms = r->compile_cached ? 0 : r->compile_seconds * 1000.0;
            if (ec->buffer[0]) {
                row.max_abs_err = ec->cmp.max_abs;
                row.max_rel_err = ec->cmp.max_rel;
                if (ec->cmp.n_bad)
                    row.first_bad_index = ec->cmp.first_bad;
            }
            if (ec->timed_runs) {
                row.time_median_ms = ec->median_ms;
                row.time_iqr_ms = ec->iqr_ms;
                row.time_min_ms = ec->min_ms;
                row.time_spread = ec->spread;
                row.samples = ec->timed_runs;
                row.samples_dropped = ec->dropped;
                row.cupti_ms = ec->cupti_ms;
                row.baseline_ms = ec->baseline_ms;
                row.speedup = ec->speedup;
                row.flagged = ec->flagged;
                if (!isnan(ec->baseline_ms))
                    row.baseline_kind = ec->baseline_kind;
            }
            if (ec->timing_note[0] && ec->status == EVAL_PASS)
                row.log = ec->timing_note;
            if (ec->status == EVAL_COMPILE_ERROR)
                row.log = r->compile_log;
            if (ec->profile.status != PROFILE_NOT_RUN)
                row.profile = profile = profile_to_json(&ec->profile);
        } else if (skip_reason[ci]) {
            row.status = "skipped";
            row.error = skip_reason[ci];
        } else if (!chosen_here) {
            continue; /* not asked for */
        } else {
            row.status = "not_run";
        }
        TRY(results_put(c, w->run_id, &row, e));
    }
    TRY(catalog_commit(c, e));
done:
    free(profile);
    if (rc != 0)
        catalog_rollback(c);
    return rc;
}

/* The static structural report of a kernel under each config of p (JSON
 * text per config, NULL where it cannot be made), for results.structure:
 * one NVRTC compile with ptxas's report (cached; compile-ahead makes it
 * too), then the analysis per config.  NULL when it does not compile. */
static char **structure_reports(const Problem *p, const char *source, const LaunchPlan *plan, const EvalOptions *eo)
{
    NvrtcResult nr;
    Error e;
    const char *arch = eo->arch ? eo->arch : "sm_90";
    if (nvrtc_compile_with(source, arch, eo->nvrtc_cache, NVRTC_PTXAS_INFO, &nr, &e) != 0) {
        nvrtc_result_release(&nr);
        return NULL;
    }
    StructureOptions so = structure_default_options();
    char **out = xcalloc((size_t)p->n_configs + 1, sizeof *out);
    for (int ci = 0; ci < p->n_configs; ci++) {
        StructureReport sr;
        if (structure_analyze(p, &p->configs[ci], source, plan, nr.kernels, nr.n_kernels, arch, &so, &sr, &e) == 0)
            out[ci] = structure_to_json(&sr);
        structure_report_release(&sr);
    }
    nvrtc_result_release(&nr);
    return out;
}

static void report(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The GPU and driver of the run (from worker 0's device). */
static int record_device(Catalog *c, int64_t run_id, const GpuInfo *g, Error *e)
{
    sqlite3_stmt *st = NULL;
    char gpu[400], driver[32], cuda[32];
    if (g->cc_major == 0) /* the CPU backend */
        snprintf(gpu, sizeof gpu, "%s", g->name);
    else
        snprintf(gpu, sizeof gpu, "%s (sm_%d%d, %d SMs, %.1f GiB)", g->name, g->cc_major, g->cc_minor, g->sm_count,
                 (double)g->memory_bytes / (1 << 30));
    snprintf(cuda, sizeof cuda, "%d.%d", g->driver_version / 1000, g->driver_version % 1000 / 10);
    snprintf(driver, sizeof driver, g->cc_major ? "CUDA driver API %d" : "-", g->driver_version);
    if (!g->cc_major)
        snprintf(cuda, sizeof cuda, "-");
    if (sqlite3_prepare_v2(catalog_db(c), "UPDATE runs SET gpu = ?, driver = ?, cuda_version = ? WHERE id = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "runs");
    sqlite3_bind_text(st, 1, gpu, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, driver, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, cuda, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, run_id);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    return r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "runs");
}

static void report(int fd, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (write(fd, line, (size_t)n) < 0) {
        /* the parent is gone: nothing to tell */
    }
}

/* The program ordinal of each of the (program-ordered) kernels: ord[i] is
 * the number of program changes before kernel i.  Returns how many programs
 * there are.  A kernel whose program cannot be looked up counts as a
 * program of its own. */
static int program_ordinals(Catalog *c, const int64_t *kernels, int n, int *ord)
{
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(catalog_db(c), "SELECT program_id FROM kernels WHERE id = ?", -1, &st, NULL);
    int64_t last = -1;
    int ordinal = -1;
    for (int i = 0; i < n; i++) {
        int64_t program = -2 - i;
        if (st) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, kernels[i]);
            if (sqlite3_step(st) == SQLITE_ROW)
                program = sqlite3_column_int64(st, 0);
        }
        if (program != last)
            ordinal++;
        last = program;
        ord[i] = ordinal;
    }
    sqlite3_finalize(st);
    return ordinal + 1;
}

/* Loads the program and notes its reference's stored times on this GPU in
 * the session, for the deadlines of its candidates (deadline.h) until the
 * session measures its own; the CPU backend's deadline does not use them. */
static int load_program_times(Catalog *c, int64_t program_id, LoadedProgram *lp, EvalSession *s,
                              const EvalOptions *eo, Error *e)
{
    if (load_program(c, program_id, lp, e) != 0)
        return -1;
    if (eo->backend == BACKEND_CPU || eo->deadline_s > 0)
        return 0;
    return results_reference_times(c, lp->p->name, s->gpu.name, s->ref_times, e);
}

/* Evaluates one kernel in the worker's session and stores its verdicts; an
 * error that stops the worker is reported to the parent and ends it. */
static void worker_kernel(const WorkerCtx *w, Catalog *c, EvalSession *session, EvalOptions *eo, LoadedProgram *lp,
                          int64_t kernel_id)
{
    const RunOptions *o = w->o;
    Error e;
    int no_gpu = 0;
    KernelRow k;
    LaunchPlan *plan = NULL;
    EvalReport r;
    memset(&r, 0, sizeof r);
    if (kernels_get(c, kernel_id, &k, &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    if (lp->id != k.program_id && load_program_times(c, k.program_id, lp, session, eo, &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    int n_cf = lp->p->n_configs;
    const ProblemConfig **chosen = xcalloc((size_t)n_cf + 1, sizeof *chosen);
    char **skip = xcalloc((size_t)n_cf + 1, sizeof *skip);
    unsigned char *beyond = xcalloc((size_t)n_cf + 1, 1), *golden = xcalloc((size_t)n_cf + 1, 1);
    int n_chosen = 0, rc_eval = 0, after_pass = 0;
    double t_kernel = now_s();
    choose_configs(lp->p, o, chosen, &n_chosen, skip, beyond);
    if (resolve_golden(c, o, lp, &k, chosen, &n_chosen, golden, skip, beyond, &after_pass, &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    Error pe;
    const char *plan_error = NULL;
    if (launch_parse(k.launch, "launch.json", lp->p, &plan, &pe) != 0) {
        plan_error = pe.msg;
    } else if (n_chosen > 0) {
        /* the baseline: the reference implementation, timed interleaved
         * with every other candidate of the program */
        eo->baseline_source = lp->base_id && lp->base_id != k.id ? lp->base_source : NULL;
        eo->baseline_plan = lp->base_id && lp->base_id != k.id ? lp->base_plan : NULL;
        eo->candidate_is_reference = strcmp(k.origin, "reference") == 0;
        /* the same implementation gives the golden outputs beyond the budget */
        eo->golden = golden;
        eo->golden_source = lp->base_source;
        eo->golden_plan = lp->base_plan;
        eo->golden_after_pass = after_pass;
        rc_eval = eval_session_candidate(session, lp->p, lp->source, k.source, plan, chosen, n_chosen, eo, &r,
                                         &no_gpu, &e);
    }
    if (rc_eval != 0) {
        report(w->progress_fd, "%c %s", no_gpu ? 'G' : 'E', e.msg);
        _exit(1);
    }
    double kernel_ms = (now_s() - t_kernel) * 1000.0;
    double traced = cost_trace("run", "eval", t_kernel);
    char **structure = plan_error ? NULL : structure_reports(lp->p, k.source, plan, eo);
    traced = cost_trace("run", "structure", traced);
    if (store_kernel(c, w, &k, lp, n_chosen ? &r : NULL, chosen, n_chosen, skip, structure, plan_error, kernel_ms,
                     &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    cost_trace("run", "store", traced);
    report(w->progress_fd, "K %s %lld", !plan_error && r.status == EVAL_PASS ? "pass" : "fail", (long long)k.id);
    for (int j = 0; j < lp->p->n_configs; j++) {
        free(skip[j]);
        if (structure)
            free(structure[j]);
    }
    free(structure);
    free(skip);
    free(chosen);
    free(beyond);
    free(golden);
    eval_report_release(&r);
    launch_free(plan);
    kernel_row_release(&k);
}

/* Evaluates kernels and exits.  A worker takes whole programs, the next
 * one not yet taken by any worker (w->next_program, shared by all of them),
 * so that the candidates of one program meet in one evaluation session and
 * share its cache of reference trials (ref_cache.h), and so that a worker
 * that drew cheap programs takes more of them instead of idling while
 * another works through a long one.  Lines to the parent: "K <pass|fail>
 * <kernel id>", or "E <message>" for an error that stops this worker, or
 * "G <message>" when there is no GPU. */
static void worker_main(const WorkerCtx *w, const int64_t *kernels, int n)
{
    Catalog *c = NULL;
    Error e;
    LoadedProgram lp;
    memset(&lp, 0, sizeof lp);
    EvalSession session;
    EvalOptions eo = w->o->eval;
    eo.device = w->device;
    eo.gpu_share = w->gpu_share;
    int no_gpu = 0;
    if (catalog_open(w->catalog_path, 0, &c, &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    if (eval_session_open(&session, &eo, &no_gpu, &e) != 0) {
        report(w->progress_fd, "%c %s", no_gpu ? 'G' : 'E', e.msg);
        _exit(1);
    }
    if (w->device == 0 && record_device(c, w->run_id, &session.gpu, &e) != 0) {
        report(w->progress_fd, "E %s", e.msg);
        _exit(1);
    }
    int *ord = xcalloc((size_t)n + 1, sizeof *ord);
    int n_programs = program_ordinals(c, kernels, n, ord);
    int i = 0;
    for (;;) {
        int program = __atomic_fetch_add(w->next_program, 1, __ATOMIC_RELAXED);
        if (program >= n_programs)
            break;
        /* ordinals never decrease along the list and this worker's claims
         * only grow, so i only moves forward */
        while (i < n && ord[i] < program)
            i++;
        for (; i < n && ord[i] == program; i++)
            worker_kernel(w, c, &session, &eo, &lp, kernels[i]);
    }
    free(ord);
    eval_session_close(&session);
    loaded_release(&lp);
    catalog_close(c);
    _exit(0);
}

/* ---- compile-ahead: fill the NVRTC cache before the workers need it ---- */

static void compiler_main(const char *catalog_path, const int64_t *kernels, int n, int first, int stride,
                          const char *arch, const char *cache)
{
    Catalog *c = NULL;
    Error e;
    if (catalog_open(catalog_path, 0, &c, &e) != 0)
        _exit(1);
    for (int i = first; i < n; i += stride) {
        KernelRow k;
        if (kernels_get(c, kernels[i], &k, &e) != 0)
            break;
        NvrtcResult r;
        memset(&r, 0, sizeof r);
        nvrtc_compile(k.source, arch, cache, &r, &e); /* failures are the workers' to report */
        nvrtc_result_release(&r);
        nvrtc_compile_with(k.source, arch, cache, NVRTC_PTXAS_INFO, &r, &e); /* for the structural report */
        nvrtc_result_release(&r);
        kernel_row_release(&k);
    }
    catalog_close(c);
    _exit(0);
}

/* ---- the parent ---- */

static volatile sig_atomic_t g_interrupted;
static void on_signal(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

static void machine_name(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, len, "%s (%s %s)", u.nodename, u.sysname, u.machine);
    else
        snprintf(buf, len, "?");
}

static void progress_line(const RunOptions *o, const RunSummary *s, int todo, double t0, int final)
{
    static double last;
    double t = now_s();
    if (!o->progress || (!final && t - last < 2.0))
        return;
    last = t;
    int done = s->evaluated;
    double rate = done / fmax(t - t0, 1e-9);
    fprintf(o->progress, "harness run %lld: %d/%d kernels (%d%%), %d pass, %d fail, %.2f kernels/s, ETA %.0f s\n",
            (long long)s->run_id, done, todo, todo ? 100 * done / todo : 100, s->pass, s->fail, rate,
            rate > 0 ? (todo - done) / rate : 0.0);
    fflush(o->progress);
}

/* Runs the workers over the kernels still to do; fills s. */
static int execute(const char *catalog_path, int64_t run_id, const RunOptions *o, const int64_t *todo, int n_todo,
                   RunSummary *s, int *no_gpu, Error *e)
{
    int gpus = o->workers < 1 ? 1 : o->workers;
    int rc = 0, workers = gpus * (o->per_gpu < 1 ? 1 : o->per_gpu);
    int compilers = o->compile_jobs > 0 && strcmp(o->backend, "gpu") == 0 ? o->compile_jobs : 0;
    pid_t *pids = xcalloc((size_t)(workers + compilers) + 1, sizeof *pids);
    int *fds = xcalloc((size_t)workers + 1, sizeof *fds);
    StrBuf *partial = xcalloc((size_t)workers + 1, sizeof *partial);
    char fatal[2048] = "";
    char (*shares)[512] = NULL; /* per GPU: its share file's path */
    double t0 = now_s();
    /* the workers' shared claim counter (worker_main) */
    int *next_program = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next_program == MAP_FAILED) {
        next_program = NULL;
        FAIL(e, "mmap of the workers' shared counter: %s", strerror(errno));
    }
    *next_program = 0;
    if (workers > n_todo && n_todo > 0)
        workers = n_todo;
    /* Workers sharing a GPU take turns there when anything is measured
     * (gpu_share.h); correctness-only runs need no turns. */
    if (workers > gpus && strcmp(o->backend, "gpu") == 0 && (o->eval.timing_runs > 0 || o->eval.profile)) {
        shares = xcalloc((size_t)gpus, sizeof *shares);
        for (int d = 0; d < gpus; d++)
            TRY(gpu_share_create(d, shares[d], sizeof shares[d], e));
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    g_interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    fflush(NULL);
    for (int g = 0; g < compilers; g++) {
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGINT, SIG_DFL);
            compiler_main(catalog_path, todo, n_todo, g, compilers, o->eval.arch ? o->eval.arch : "sm_90",
                          o->eval.nvrtc_cache);
        }
        pids[workers + g] = pid;
    }
    for (int g = 0; g < workers && n_todo > 0; g++) {
        int pfd[2];
        if (pipe(pfd) != 0)
            FAIL(e, "pipe: %s", strerror(errno));
        pid_t pid = fork();
        if (pid < 0)
            FAIL(e, "fork: %s", strerror(errno));
        if (pid == 0) {
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            close(pfd[0]);
            WorkerCtx w = {catalog_path, run_id, o, g % gpus, shares ? shares[g % gpus] : NULL, pfd[1], next_program};
            worker_main(&w, todo, n_todo);
        }
        close(pfd[1]);
        pids[g] = pid;
        fds[g] = pfd[0];
    }
    int open_fds = n_todo > 0 ? workers : 0;
    while (open_fds > 0) {
        struct pollfd pf[64];
        int map[64], np = 0;
        for (int g = 0; g < workers && np < 64; g++)
            if (fds[g] >= 0) {
                pf[np].fd = fds[g];
                pf[np].events = POLLIN;
                map[np++] = g;
            }
        int pr = poll(pf, (nfds_t)np, 1000);
        if (pr < 0 && errno != EINTR)
            FAIL(e, "poll: %s", strerror(errno));
        if (g_interrupted)
            break;
        for (int k = 0; k < np && pr > 0; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP)))
                continue;
            int g = map[k];
            char buf[4096];
            ssize_t got = read(fds[g], buf, sizeof buf);
            if (got <= 0) {
                close(fds[g]);
                fds[g] = -1;
                open_fds--;
                continue;
            }
            sb_append_n(&partial[g], buf, (size_t)got);
            char *nl;
            while ((nl = strchr(partial[g].data, '\n')) != NULL) {
                *nl = '\0';
                const char *line = partial[g].data;
                if (line[0] == 'K') {
                    s->evaluated++;
                    if (strncmp(line + 2, "pass", 4) == 0)
                        s->pass++;
                    else
                        s->fail++;
                } else if ((line[0] == 'E' || line[0] == 'G') && !fatal[0]) {
                    snprintf(fatal, sizeof fatal, "%s", line + 2);
                    if (line[0] == 'G' && no_gpu)
                        *no_gpu = 1;
                }
                size_t rest = partial[g].len - (size_t)(nl + 1 - partial[g].data);
                memmove(partial[g].data, nl + 1, rest + 1);
                partial[g].len = rest;
            }
            progress_line(o, s, n_todo, t0, 0);
        }
    }
    if (g_interrupted)
        FAIL(e, "interrupted: run %lld keeps what finished; continue it with `harness run --resume %lld`",
             (long long)run_id, (long long)run_id);
    if (fatal[0])
        FAIL(e, "%s", fatal);
    if (s->evaluated < n_todo)
        FAIL(e, "%d kernels were not evaluated (a worker process died); `harness run --resume %lld` continues",
             n_todo - s->evaluated, (long long)run_id);
done:
    progress_line(o, s, n_todo, t0, 1);
    for (int g = 0; g < workers + compilers; g++) {
        if (pids[g] > 0) {
            if (rc != 0 || g >= workers)
                kill(pids[g], SIGKILL);
            waitpid(pids[g], NULL, 0);
        }
    }
    for (int g = 0; g < workers; g++) {
        if (fds[g] > 0)
            close(fds[g]);
        sb_release(&partial[g]);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    for (int d = 0; shares && d < gpus; d++)
        if (shares[d][0])
            unlink(shares[d]);
    free(shares);
    free(pids);
    free(fds);
    free(partial);
    if (next_program)
        munmap(next_program, sizeof(int));
    s->seconds = now_s() - t0;
    return rc;
}

/* The kernels of `all` that are not in `done` (both sorted? `all` is in
 * program order, so test membership by binary search in the sorted done). */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int run_common(const char *catalog_path, int64_t run_id, const RunOptions *o, const RunSelection *sel,
                      RunSummary *s, int *no_gpu, Error *e)
{
    int rc = 0, n_all = 0, n_done = 0, n_todo = 0;
    int64_t *all = NULL, *done_ids = NULL, *todo = NULL;
    Catalog *c = NULL;
    TRY(catalog_open(catalog_path, 0, &c, e));
    TRY(select_kernels(c, sel, &all, &n_all, e));
    TRY(results_done_kernels(c, run_id, &done_ids, &n_done, e));
    todo = xcalloc((size_t)n_all + 1, sizeof *todo);
    for (int i = 0; i < n_all; i++)
        if (!bsearch(&all[i], done_ids, (size_t)n_done, sizeof *done_ids, cmp_i64))
            todo[n_todo++] = all[i];
    s->run_id = run_id;
    s->kernels = n_all;
    s->skipped_done = n_all - n_todo;
    if (o->progress)
        fprintf(o->progress,
                "harness run %lld: %d kernels selected, %d already done, %d to evaluate on %d %s device(s) x %d "
                "worker(s)\n",
                (long long)run_id, n_all, s->skipped_done, n_todo, o->workers, o->backend,
                o->per_gpu < 1 ? 1 : o->per_gpu);
    catalog_close(c);
    c = NULL;
    int erc = execute(catalog_path, run_id, o, todo, n_todo, s, no_gpu, e);
    Error fe;
    if (catalog_open(catalog_path, 0, &c, &fe) == 0)
        results_finish_run(c, run_id, erc == 0 ? "finished" : "interrupted", &fe);
    if (erc != 0)
        rc = -1;
done:
    catalog_close(c);
    free(all);
    free(done_ids);
    free(todo);
    return rc;
}

int run_start(const char *catalog_path, const RunOptions *o, RunSummary *s, int *no_gpu, Error *e)
{
    int rc = 0;
    Catalog *c = NULL;
    char *sel = selection_json(&o->sel), *opts = NULL, machine[300], nvrtc[32];
    memset(s, 0, sizeof *s);
    if (no_gpu)
        *no_gpu = 0;
    TRY(catalog_open(catalog_path, 0, &c, e));
    cJSON *oj = cJSON_CreateObject();
    cJSON_AddNumberToObject(oj, "trials", o->eval.trials);
    /* an explicit deadline, or "auto" (deadline.h): a resumed run judges
     * its remaining kernels under the same rule */
    if (o->eval.deadline_s > 0)
        cJSON_AddNumberToObject(oj, "timeout_s", o->eval.deadline_s);
    else
        cJSON_AddStringToObject(oj, "timeout_s", "auto");
    cJSON_AddNumberToObject(oj, "timing_runs", o->eval.timing_runs);
    if (o->eval.profile)
        cJSON_AddBoolToObject(oj, "profile", 1);
    if (o->eval.racecheck)
        cJSON_AddBoolToObject(oj, "racecheck", 1);
    if (o->eval.time_all_configs)
        cJSON_AddBoolToObject(oj, "time_all_configs", 1);
    cJSON_AddNumberToObject(oj, "gpus", o->workers);
    cJSON_AddNumberToObject(oj, "workers_per_gpu", o->per_gpu < 1 ? 1 : o->per_gpu);
    cJSON_AddStringToObject(oj, "arch", o->eval.arch ? o->eval.arch : "device");
    /* which configs the C reference checks and which take golden outputs:
     * a resumed run draws the line where its first part did */
    RefBudget budget = run_budget(o);
    char budget_text[64];
    snprintf(budget_text, sizeof budget_text, "%.17g,%.17g", budget.flops, budget.bytes);
    cJSON_AddStringToObject(oj, "reference_budget", budget_text);
    char *t = cJSON_PrintUnformatted(oj);
    opts = xstrdup(t);
    cJSON_free(t);
    cJSON_Delete(oj);
    machine_name(machine, sizeof machine);
    nvrtc_version_string(nvrtc, sizeof nvrtc);
    RunInfo ri = {o->backend, sel, machine, NULL, NULL, NULL, nvrtc, cudaperf_git_rev(), opts, o->eval.seed};
    int64_t run_id;
    TRY(results_start_run(c, &ri, &run_id, e));
    catalog_close(c);
    c = NULL;
    TRY(run_common(catalog_path, run_id, o, &o->sel, s, no_gpu, e));
done:
    catalog_close(c);
    free(sel);
    free(opts);
    return rc;
}

int run_stored_options(const char *catalog_path, int64_t run_id, EvalOptions *o, int *racecheck, const char **backend,
                       RefBudget *budget, Error *e)
{
    int rc = 0;
    Catalog *c = NULL;
    RunRow row;
    cJSON *oj = NULL;
    memset(&row, 0, sizeof row);
    TRY(catalog_open(catalog_path, 0, &c, e));
    TRY(results_get_run(c, run_id, &row, e));
    oj = row.options ? cJSON_Parse(row.options) : NULL;
    if (!cJSON_IsObject(oj))
        FAIL(e, "run %lld: its stored options are not a JSON object", (long long)run_id);
    const cJSON *v;
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(oj, "trials")))
        o->trials = v->valueint;
    v = cJSON_GetObjectItemCaseSensitive(oj, "timeout_s");
    if (cJSON_IsNumber(v))
        o->deadline_s = v->valuedouble;
    else if (cJSON_IsString(v) && strcmp(v->valuestring, "auto") == 0)
        o->deadline_s = 0;
    else if (v)
        FAIL(e, "run %lld: its stored timeout_s is neither a number nor \"auto\"", (long long)run_id);
    if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(oj, "timing_runs")))
        o->timing_runs = v->valueint;
    o->profile = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(oj, "profile"));
    *racecheck = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(oj, "racecheck"));
    o->time_all_configs = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(oj, "time_all_configs"));
    *budget = golden_default_budget(); /* runs before the option ran with it */
    v = cJSON_GetObjectItemCaseSensitive(oj, "reference_budget");
    if (v && (!cJSON_IsString(v) || golden_parse_budget(v->valuestring, budget, e) != 0))
        FAIL(e, "run %lld: its stored reference_budget is not FLOPS,BYTES", (long long)run_id);
    o->seed = row.seed;
    *backend = row.backend && strcmp(row.backend, "cpu") == 0 ? "cpu" : "gpu"; /* literals: row is released */
done:
    cJSON_Delete(oj);
    run_row_release(&row);
    catalog_close(c);
    return rc;
}

int run_resume(const char *catalog_path, int64_t run_id, const RunOptions *o, RunSummary *s, int *no_gpu,
               Error *e)
{
    int rc = 0;
    Catalog *c = NULL;
    RunRow row;
    cJSON *owner = NULL;
    int64_t *ids = NULL;
    RunSelection sel;
    memset(&row, 0, sizeof row);
    memset(s, 0, sizeof *s);
    if (no_gpu)
        *no_gpu = 0;
    TRY(catalog_open(catalog_path, 0, &c, e));
    TRY(results_get_run(c, run_id, &row, e));
    if (strcmp(row.backend, o->backend) != 0)
        FAIL(e, "run %lld ran on the %s backend; resume it with --backend %s", (long long)run_id, row.backend,
             row.backend);
    TRY(selection_parse(row.selection, &sel, &owner, &ids, e));
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_step(st);
    }
    sqlite3_finalize(st);
    catalog_close(c);
    c = NULL;
    RunOptions ro = *o;
    ro.sel = sel;
    TRY(run_common(catalog_path, run_id, &ro, &sel, s, no_gpu, e));
done:
    catalog_close(c);
    run_row_release(&row);
    cJSON_Delete(owner);
    free(ids);
    return rc;
}
