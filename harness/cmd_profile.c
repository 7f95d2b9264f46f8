/* harness profile — the measured structural report of many catalog
 * kernels, for validating it against the static one (tests/gpu/profile_check.sh).
 *
 * For each selected kernel under one config: the static report
 * (structure.h: coalescing score, occupancy per launch), then on the GPU
 * without any reference (eval_session_measure): one execution of the plan,
 * the CUDA API's occupancy of every launch, and, unless --occupancy-only,
 * the CUPTI range profiler's metrics (profile_metrics.h).  One JSON object
 * per kernel and line on stdout (or --out), progress on stderr. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/cli.h"
#include "harness/eval.h"
#include "harness/kernels.h"
#include "harness/nvrtc.h"
#include "harness/results.h"
#include "harness/structure.h"

static const char USAGE[] =
    "usage: harness profile [selection] [options]\n"
    "  Measures catalog kernels on the GPU without checking them (no C reference runs): one\n"
    "  execution of the launch plan, cuOccupancyMaxActiveBlocksPerMultiprocessor per launch, and\n"
    "  the CUPTI range profiler over the whole plan; beside each, the static report of the same\n"
    "  config. One JSON object per kernel and line (keys: docs/STRUCTURE.md, \"Validation\").\n"
    "selection (default: every reference kernel):\n"
    "  --kernels reference|variants|all\n"
    "  --pairs DEFECT       each reference followed by its variant with that defect (uncoalesced)\n"
    "  --families a,b,...   only these families\n"
    "  --sample N           N kernels (or pairs) spread evenly over the selection\n"
    "options:\n"
    "  --config NAME        the config to measure (default: large, else the last)\n"
    "  --occupancy-only     the API's occupancy and one execution, no profiler\n"
    "  --jobs N             processes compiling ahead into the NVRTC cache (default 4)\n"
    "  --timeout S          a fixed deadline per execution of a plan (default: 10x the reference's\n"
    "                       time on the config + 1 s where known, at most 60 s, else 5 s; known: the\n"
    "                       reference measured earlier here, or a stored result on a GPU of the same name)\n"
    "  --cache DIR          cache root (default: next to the catalog)\n"
    "  --out FILE           write the JSON lines there instead of stdout\n"
    "Exit status: 0 when every selected kernel was handled (whatever it measured), 1 when the\n"
    "measurement could not run (no GPU, no catalog), 2 usage.\n";

typedef struct Options {
    const char *kernels, *pairs, *families, *config, *cache, *out;
    int sample, occupancy_only, jobs;
    double timeout;      /* 0: adaptive (deadline.h) */
} Options;

/* The selected kernel ids, in program order (pairs: reference, variant). */
static int select_ids(Catalog *c, const Options *o, int64_t **ids, int *n, int *unit, Error *e)
{
    sqlite3_stmt *st = NULL;
    const char *sql;
    *unit = 1;
    if (o->pairs) {
        *unit = 2;
        sql = "SELECT r.id, v.id FROM kernels v JOIN kernels r ON r.id = v.parent_id"
              " JOIN programs p ON p.id = r.program_id WHERE v.defect = ?1"
              " AND (?2 IS NULL OR (',' || ?2 || ',') LIKE ('%,' || p.family || ',%')) ORDER BY p.name, v.id";
    } else {
        sql = "SELECT k.id FROM kernels k JOIN programs p ON p.id = k.program_id"
              " WHERE (?1 = 'all' OR (?1 = 'reference' AND k.origin = 'reference')"
              " OR (?1 = 'variants' AND k.origin = 'variant'))"
              " AND (?2 IS NULL OR (',' || ?2 || ',') LIKE ('%,' || p.family || ',%')) ORDER BY p.name, k.id";
    }
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "selecting kernels");
    sqlite3_bind_text(st, 1, o->pairs ? o->pairs : o->kernels, -1, SQLITE_STATIC);
    if (o->families)
        sqlite3_bind_text(st, 2, o->families, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 2);
    int cap = 64, step;
    *n = 0;
    *ids = xmalloc(sizeof **ids * (size_t)cap);
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n + 2 > cap) {
            cap *= 2;
            *ids = xrealloc(*ids, sizeof **ids * (size_t)cap);
        }
        for (int k = 0; k < *unit; k++)
            (*ids)[(*n)++] = sqlite3_column_int64(st, k);
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE)
        return catalog_sql_error(c, e, "selecting kernels");
    /* --sample: units spread evenly */
    int units = *n / *unit;
    if (o->sample > 0 && o->sample < units) {
        int64_t *kept = xmalloc(sizeof *kept * (size_t)(o->sample * *unit + 1));
        for (int i = 0; i < o->sample; i++) {
            int u = (int)((long long)i * units / o->sample);
            for (int k = 0; k < *unit; k++)
                kept[i * *unit + k] = (*ids)[u * *unit + k];
        }
        free(*ids);
        *ids = kept;
        *n = o->sample * *unit;
    }
    return 0;
}

/* Fills the NVRTC cache (plain and ptxas-report compiles) with `jobs`
 * processes, so the measuring loop finds every cubin ready. */
static void compile_ahead(const char *catalog_path, const int64_t *ids, int n, int jobs, const char *cache)
{
    pid_t *pids = xcalloc((size_t)jobs + 1, sizeof *pids);
    for (int j = 0; j < jobs; j++) {
        pids[j] = fork();
        if (pids[j] != 0)
            continue;
        Catalog *c = NULL;
        Error e;
        if (catalog_open(catalog_path, 0, &c, &e) != 0)
            _exit(1);
        for (int i = j; i < n; i += jobs) {
            KernelRow k;
            if (kernels_get(c, ids[i], &k, &e) != 0)
                continue;
            NvrtcResult r;
            memset(&r, 0, sizeof r);
            nvrtc_compile(k.source, "sm_90", cache, &r, &e);
            nvrtc_result_release(&r);
            nvrtc_compile_with(k.source, "sm_90", cache, NVRTC_PTXAS_INFO, &r, &e);
            nvrtc_result_release(&r);
            kernel_row_release(&k);
        }
        catalog_close(c);
        _exit(0);
    }
    for (int j = 0; j < jobs; j++)
        if (pids[j] > 0)
            waitpid(pids[j], NULL, 0);
    free(pids);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* The program of kernel k: meta parsed, name and family. */
static int load_problem(Catalog *c, int64_t program_id, Problem **p, char *family, size_t flen, Error *e)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    *p = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT meta, name, family FROM programs WHERE id = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return catalog_sql_error(c, e, "reading programs");
    sqlite3_bind_int64(st, 1, program_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        rc = ERR(e, "no program %lld", (long long)program_id);
    } else {
        snprintf(family, flen, "%s", (const char *)sqlite3_column_text(st, 2));
        rc = problem_parse((const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1), p, e);
    }
    sqlite3_finalize(st);
    return rc;
}

/* One kernel: static report, measurement, one JSON line. */
static int profile_one(Catalog *c, EvalSession *s, const EvalOptions *eo, const Options *o, int64_t id, FILE *out,
                       int *no_gpu, Error *e)
{
    KernelRow k;
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char family[128] = "";
    int rc = 0;
    double t0 = now_s();
    memset(&k, 0, sizeof k);
    TRY(kernels_get(c, id, &k, e));
    TRY(load_problem(c, k.program_id, &p, family, sizeof family, e));
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "kernel", (double)id);
    cJSON_AddStringToObject(j, "program", k.program);
    cJSON_AddStringToObject(j, "family", family);
    cJSON_AddStringToObject(j, "origin", k.origin);
    if (k.defect)
        cJSON_AddStringToObject(j, "defect", k.defect);
    cJSON_AddNumberToObject(j, "parent", (double)k.parent_id);
    const ProblemConfig *cf = o->config ? problem_find_config(p, o->config) : NULL;
    if (!cf)
        cf = structure_default_config(p);
    cJSON_AddStringToObject(j, "config", cf->name);
    Error pe;
    if (launch_parse(k.launch, "launch.json", p, &lp, &pe) != 0) {
        cJSON_AddStringToObject(j, "status", "invalid_plan");
        cJSON_AddStringToObject(j, "message", pe.msg);
        goto emit;
    }
    /* static */
    StructureReport sr;
    StructureOptions so = structure_default_options();
    int compile_error = 0;
    cJSON *sj = cJSON_AddObjectToObject(j, "static");
    if (structure_candidate(p, cf, k.source, lp, "sm_90", eo->nvrtc_cache, &so, &sr, &compile_error, &pe) == 0) {
        add_num(sj, "coalescing", sr.t_coalescing >= 0 ? sr.t_coalescing : NAN);
        add_num(sj, "score", sr.score);
        add_num(sj, "model_bytes", sr.bytes);
        add_num(sj, "flops", sr.flops);
        add_num(sj, "word_bytes", profile_word_bytes(&sr));
        cJSON *occ = cJSON_AddArrayToObject(sj, "blocks_per_sm");
        cJSON *lim = cJSON_AddArrayToObject(sj, "limited_by");
        for (int i = 0; i < sr.n_launches; i++) {
            cJSON_AddItemToArray(occ, cJSON_CreateNumber(sr.launches[i].occ.blocks_per_sm));
            cJSON_AddItemToArray(lim, cJSON_CreateString(sr.launches[i].occ.limited_by));
        }
    } else {
        cJSON_AddStringToObject(sj, "error", pe.msg);
    }
    structure_report_release(&sr);
    /* measured, under the reference's deadline: a reference measured here
     * (pairs: it comes first) or its stored times */
    EvalOptions ko = *eo;
    ko.candidate_is_reference = strcmp(k.origin, "reference") == 0;
    if (ko.deadline_s <= 0 && results_reference_times(c, p->name, s->gpu.name, s->ref_times, e) != 0) {
        cJSON_Delete(j);
        rc = -1;
        goto done;
    }
    EvalConfig *ec = xcalloc(1, sizeof *ec);
    if (eval_session_measure(s, p, k.source, lp, cf, &ko, ec, no_gpu, e) != 0) {
        free(ec);
        cJSON_Delete(j);
        rc = -1;
        goto done;
    }
    cJSON_AddStringToObject(j, "status", eval_status_name(ec->status));
    if (ec->message[0])
        cJSON_AddStringToObject(j, "message", ec->message);
    cJSON_AddItemToObject(j, "profile", profile_to_cjson(&ec->profile));
    free(ec);
emit:
    add_num(j, "seconds", now_s() - t0);
    char *text = cJSON_PrintUnformatted(j);
    fprintf(out, "%s\n", text);
    fflush(out);
    cJSON_free(text);
    cJSON_Delete(j);
done:
    launch_free(lp);
    problem_free(p);
    kernel_row_release(&k);
    return rc;
}

int cmd_profile(CliContext *cx, int argc, char **argv)
{
    Options o = {"reference", NULL, NULL, NULL, NULL, NULL, 0, 0, 4, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--kernels") == 0 && more) {
            o.kernels = argv[++i];
            if (strcmp(o.kernels, "reference") != 0 && strcmp(o.kernels, "variants") != 0 &&
                strcmp(o.kernels, "all") != 0)
                return cli_usage_error("profile", "--kernels must be reference, variants or all, not '%s'", o.kernels);
        } else if (strcmp(a, "--pairs") == 0 && more) {
            o.pairs = argv[++i];
        } else if (strcmp(a, "--families") == 0 && more) {
            o.families = argv[++i];
        } else if (strcmp(a, "--sample") == 0 && more) {
            o.sample = atoi(argv[++i]);
            if (o.sample < 1)
                return cli_usage_error("profile", "--sample must be at least 1");
        } else if (strcmp(a, "--config") == 0 && more) {
            o.config = argv[++i];
        } else if (strcmp(a, "--occupancy-only") == 0) {
            o.occupancy_only = 1;
        } else if (strcmp(a, "--jobs") == 0 && more) {
            o.jobs = atoi(argv[++i]);
            if (o.jobs < 0 || o.jobs > 256)
                return cli_usage_error("profile", "--jobs must be between 0 and 256");
        } else if (strcmp(a, "--timeout") == 0 && more) {
            o.timeout = atof(argv[++i]);
            if (!(o.timeout > 0 && o.timeout < 3600))
                return cli_usage_error("profile", "--timeout must be between 0 and 3600 seconds");
        } else if (strcmp(a, "--cache") == 0 && more) {
            o.cache = argv[++i];
        } else if (strcmp(a, "--out") == 0 && more) {
            o.out = argv[++i];
        } else {
            return cli_usage_error("profile", "unknown or incomplete option '%s'", a);
        }
    }
    Error e;
    Catalog *c = NULL;
    int64_t *ids = NULL;
    int n = 0, unit = 1, rc = 0, no_gpu = 0;
    FILE *out = stdout;
    EvalSession s;
    memset(&s, 0, sizeof s);
    int session = 0;
    char *root = o.cache ? xstrdup(o.cache) : NULL;
    if (!root) {
        const char *slash = strrchr(cx->catalog_path, '/');
        root = slash ? xasprintf("%.*s/cache", (int)(slash - cx->catalog_path), cx->catalog_path) : xstrdup("cache");
    }
    char *nv = xasprintf("%s/nvrtc", root), *cr = xasprintf("%s/cref", root);
    EvalOptions eo = eval_default_options();
    eo.nvrtc_cache = nv;
    eo.cref_cache = cr;
    eo.deadline_s = o.timeout;
    eo.profile = 1;
    eo.profile_max_passes = o.occupancy_only ? 0 : 64;
    eo.progress = stderr;
    eo.arch = "sm_90"; /* the static report's target: both sides read the same cubin */
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0 || select_ids(c, &o, &ids, &n, &unit, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    if (o.out && !(out = fopen(o.out, "w"))) {
        ERR(&e, "cannot write '%s': %s", o.out, strerror(errno));
        out = stdout;
        rc = cli_fail(&e);
        goto done;
    }
    fprintf(stderr, "harness profile: %d kernels%s, config %s\n", n, unit == 2 ? " (pairs)" : "",
            o.config ? o.config : "large");
    double t0 = now_s();
    if (o.jobs > 0)
        compile_ahead(cx->catalog_path, ids, n, o.jobs, nv);
    fprintf(stderr, "harness profile: compiled ahead in %.1f s\n", now_s() - t0);
    if (eval_session_open(&s, &eo, &no_gpu, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    session = 1;
    double t1 = now_s(), last = t1;
    for (int i = 0; i < n; i++) {
        if (profile_one(c, &s, &eo, &o, ids[i], out, &no_gpu, &e) != 0) {
            rc = cli_fail(&e);
            goto done;
        }
        if (now_s() - last > 5.0 || i == n - 1) {
            last = now_s();
            fprintf(stderr, "harness profile: %d/%d kernels, %.1f s\n", i + 1, n, last - t1);
        }
    }
done:
    if (session)
        eval_session_close(&s);
    if (out != stdout)
        fclose(out);
    catalog_close(c);
    free(ids);
    free(root);
    free(nv);
    free(cr);
    return rc;
}
