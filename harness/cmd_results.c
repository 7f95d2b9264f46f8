/* harness results — what a run found: the run's provenance, a summary by
 * status, and one line (or JSON object) per (kernel, config). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "harness/cli.h"
#include "harness/results.h"
#include "harness/stats.h"

static const char USAGE[] =
    "usage: harness results [RUN] [--status S] [--program PATTERN] [--summary] [--json]\n"
    "  Lists the results of run RUN (default: the latest run): kernel, program, config,\n"
    "  status, largest errors, time (median, IQR) and speedup, and the error message of\n"
    "  failures.  --status keeps one status (pass, wrong_result, compile_error, ...),\n"
    "  --program an SQL LIKE pattern on program names; --summary prints only the counts (by status,\n"
    "  and by the reference the verdicts were checked against: cpu, cuda-reference, torch-cuda, torch-cpu).\n";

static const char *COLUMNS =
    "SELECT r.kernel_id, p.name, c.name, r.status, r.error, r.device, r.trials, r.compile_ms, r.reference_kind,"
    " r.max_abs_err, r.max_rel_err, r.first_bad_index, r.time_median_ms, r.time_iqr_ms, r.time_min_ms,"
    " r.time_spread, r.samples, r.samples_dropped, r.cupti_ms, r.baseline_ms, r.baseline_kind, r.speedup,"
    " r.flagged, k.origin, k.defect, r.log, r.kernel_ms, r.reference_cpu_ms"
    " FROM results r JOIN kernels k ON k.id = r.kernel_id JOIN programs p ON p.id = k.program_id"
    " JOIN configs c ON c.id = r.config_id WHERE r.run_id = :run";

static void add_col(cJSON *o, sqlite3_stmt *st, int k, const char *key)
{
    switch (sqlite3_column_type(st, k)) {
    case SQLITE_NULL: cJSON_AddNullToObject(o, key); break;
    case SQLITE_INTEGER: cJSON_AddNumberToObject(o, key, (double)sqlite3_column_int64(st, k)); break;
    case SQLITE_FLOAT: cJSON_AddNumberToObject(o, key, sqlite3_column_double(st, k)); break;
    default: cJSON_AddStringToObject(o, key, (const char *)sqlite3_column_text(st, k)); break;
    }
}

static const char *num(sqlite3_stmt *st, int k, const char *fmt, char *buf, size_t len)
{
    if (sqlite3_column_type(st, k) == SQLITE_NULL)
        return "-";
    snprintf(buf, len, fmt, sqlite3_column_double(st, k));
    return buf;
}

static cJSON *run_json(const RunRow *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", (double)r->id);
    const char *keys[] = {"started_at", "finished_at", "status", "backend", "machine", "gpu", "driver",
                          "cuda_version", "nvrtc_version", "git_rev"};
    const char *vals[] = {r->started_at, r->finished_at, r->status, r->backend, r->machine, r->gpu, r->driver,
                          r->cuda_version, r->nvrtc_version, r->git_rev};
    for (int k = 0; k < 10; k++)
        if (vals[k])
            cJSON_AddStringToObject(j, keys[k], vals[k]);
        else
            cJSON_AddNullToObject(j, keys[k]);
    cJSON_AddItemToObject(j, "selection", r->selection ? cJSON_Parse(r->selection) : cJSON_CreateNull());
    cJSON_AddItemToObject(j, "options", r->options ? cJSON_Parse(r->options) : cJSON_CreateNull());
    cJSON_AddNumberToObject(j, "seed", (double)r->seed);
    cJSON_AddNumberToObject(j, "n_results", (double)r->n_results);
    return j;
}

/* Median of the per-kernel evaluation wall time (the per-candidate cost). */
static double median_kernel_ms(Catalog *c, int64_t run_id, int *n_kernels)
{
    sqlite3_stmt *st = NULL;
    float *v = NULL;
    int n = 0, cap = 0;
    *n_kernels = 0;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT max(kernel_ms) FROM results WHERE run_id = ? AND kernel_ms IS NOT NULL"
                           " GROUP BY kernel_id",
                           -1, &st, NULL) != SQLITE_OK)
        return NAN;
    sqlite3_bind_int64(st, 1, run_id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap)
            v = xrealloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 256));
        v[n++] = (float)sqlite3_column_double(st, 0);
    }
    sqlite3_finalize(st);
    double m = stats_summarise(v, n).median;
    free(v);
    *n_kernels = n;
    return m;
}

/* Counts of distinct names (statuses, reference kinds) in the order first
 * seen; names past TALLY_MAX are not counted. */
#define TALLY_MAX 32
typedef struct Tally {
    char name[TALLY_MAX][32];
    int count[TALLY_MAX];
    int n;
} Tally;

static void tally_add(Tally *t, const char *name)
{
    if (!name)
        return;
    int k = 0;
    while (k < t->n && strcmp(t->name[k], name) != 0)
        k++;
    if (k == t->n) {
        if (t->n == TALLY_MAX)
            return;
        snprintf(t->name[t->n], sizeof t->name[0], "%s", name);
        t->count[t->n++] = 0;
    }
    t->count[k]++;
}

static void tally_to_json(const Tally *t, cJSON *obj)
{
    for (int k = 0; k < t->n; k++)
        cJSON_AddNumberToObject(obj, t->name[k], t->count[k]);
}

/* " a 3, b 1" */
static void tally_print(const Tally *t)
{
    for (int k = 0; k < t->n; k++)
        printf(" %s %d%s", t->name[k], t->count[k], k + 1 < t->n ? "," : "");
}

int cmd_results(CliContext *cx, int argc, char **argv)
{
    const char *status = NULL, *program = NULL;
    int json = 0, summary = 0;
    int64_t run_id = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--status") == 0 && i + 1 < argc) {
            status = argv[++i];
        } else if (strcmp(a, "--program") == 0 && i + 1 < argc) {
            program = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--summary") == 0) {
            summary = 1;
        } else if (a[0] != '-' && !run_id) {
            char *end;
            run_id = strtoll(a, &end, 10);
            if (*end || run_id < 1)
                return cli_usage_error("results", "'%s' is not a run id", a);
        } else {
            return cli_usage_error("results", "unknown or unexpected argument '%s'", a);
        }
    }
    Error e;
    Catalog *c = NULL;
    RunRow run;
    memset(&run, 0, sizeof run);
    sqlite3_stmt *st = NULL;
    StrBuf sql = STRBUF_INIT;
    int rc = 0;
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0 || (!run_id && results_last_run(c, &run_id, &e) != 0) ||
        results_get_run(c, run_id, &run, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    sb_append(&sql, COLUMNS);
    if (status)
        sb_append(&sql, " AND r.status = :status");
    if (program)
        sb_append(&sql, " AND p.name LIKE :program");
    sb_append(&sql, " ORDER BY p.name, r.kernel_id, c.id");
    if (sqlite3_prepare_v2(catalog_db(c), sql.data, -1, &st, NULL) != SQLITE_OK) {
        catalog_sql_error(c, &e, "results");
        rc = cli_fail(&e);
        goto done;
    }
    sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":run"), run_id);
    if (status)
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":status"), status, -1, SQLITE_STATIC);
    if (program)
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":program"), program, -1, SQLITE_STATIC);

    static const char *const keys[] = {"kernel", "program", "config", "status", "error", "device", "trials",
                                       "compile_ms", "reference_kind", "max_abs_err", "max_rel_err",
                                       "first_bad_index", "time_median_ms", "time_iqr_ms", "time_min_ms",
                                       "time_spread", "samples", "samples_dropped", "cupti_ms", "baseline_ms",
                                       "baseline_kind", "speedup", "flagged", "origin", "defect", "log", "kernel_ms",
                                       "reference_cpu_ms"};
    cJSON *out = json ? run_json(&run) : NULL;
    cJSON *arr = json && !summary ? cJSON_AddArrayToObject(out, "results") : NULL;
    /* counts by status, for the summary; and by the reference the verdicts
     * were checked against (a config beyond the C reference's budget takes
     * golden outputs of the reference CUDA implementation: golden.h) */
    Tally statuses = {.n = 0}, kinds = {.n = 0};
    int total = 0;
    if (!json) {
        printf("run %lld: %s on %s backend, started %s%s%s\n", (long long)run.id, run.status, run.backend,
               run.started_at, run.finished_at ? ", finished " : "", run.finished_at ? run.finished_at : "");
        printf("  machine %s; GPU %s; CUDA %s; NVRTC %s; git %s; seed %llu\n", run.machine ? run.machine : "?",
               run.gpu ? run.gpu : "-", run.cuda_version ? run.cuda_version : "-",
               run.nvrtc_version ? run.nvrtc_version : "-", run.git_rev ? run.git_rev : "?",
               (unsigned long long)run.seed);
        if (!summary)
            printf("\n%-7s %-44s %-11s %-14s %-9s %-9s %-11s %-9s %s\n", "kernel", "program", "config", "status",
                   "abs err", "rel err", "median ms", "IQR ms", "speedup");
    }
    int r;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(st, 3);
        tally_add(&statuses, s);
        tally_add(&kinds, (const char *)sqlite3_column_text(st, 8));
        total++;
        if (summary)
            continue;
        if (json) {
            cJSON *o = cJSON_CreateObject();
            for (int col = 0; col < (int)(sizeof keys / sizeof keys[0]); col++)
                add_col(o, st, col, keys[col]);
            cJSON_AddItemToArray(arr, o);
            continue;
        }
        char b1[32], b2[32], b3[32], b4[32], b5[32];
        printf("%-7lld %-44s %-11s %-14s %-9s %-9s %-11s %-9s %s%s\n", (long long)sqlite3_column_int64(st, 0),
               (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2), s,
               num(st, 9, "%.2g", b1, sizeof b1), num(st, 10, "%.2g", b2, sizeof b2),
               num(st, 12, "%.4f", b3, sizeof b3), num(st, 13, "%.4f", b4, sizeof b4),
               num(st, 21, "%.2fx", b5, sizeof b5), sqlite3_column_int(st, 22) ? " (flagged)" : "");
        if (sqlite3_column_type(st, 4) != SQLITE_NULL && strcmp(s, "pass") != 0)
            printf("        %s\n", (const char *)sqlite3_column_text(st, 4));
    }
    if (r != SQLITE_DONE) {
        catalog_sql_error(c, &e, "results");
        rc = cli_fail(&e);
        cJSON_Delete(out);
        goto done;
    }
    int n_kernels = 0;
    double cost = median_kernel_ms(c, run_id, &n_kernels);
    if (json) {
        tally_to_json(&statuses, cJSON_AddObjectToObject(out, "summary"));
        tally_to_json(&kinds, cJSON_AddObjectToObject(out, "checked_against"));
        if (n_kernels)
            cJSON_AddNumberToObject(out, "median_kernel_ms", cost);
        char *text = cJSON_Print(out);
        printf("%s\n", text);
        cJSON_free(text);
        cJSON_Delete(out);
    } else {
        printf("\n%d result(s):", total);
        tally_print(&statuses);
        printf("\n");
        if (kinds.n) {
            printf("checked against:");
            tally_print(&kinds);
            printf(" (cpu: the C program; cuda-reference: golden outputs of the reference CUDA implementation)\n");
        }
        if (n_kernels)
            printf("per-candidate cost (compile, correctness on every config, timing): median %.1f ms over %d "
                   "kernels\n",
                   cost, n_kernels);
    }
done:
    sqlite3_finalize(st);
    sb_release(&sql);
    run_row_release(&run);
    catalog_close(c);
    return rc;
}
