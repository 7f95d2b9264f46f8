#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

int results_start_run(Catalog *c, const RunInfo *ri, int64_t *run_id, Error *e)
{
    sqlite3_stmt *st = NULL;
    char now[32];
    if (sqlite3_prepare_v2(catalog_db(c),
                           "INSERT INTO runs(started_at, status, backend, selection, machine, gpu, driver,"
                           " cuda_version, nvrtc_version, git_rev, options, seed)"
                           " VALUES (?, 'running', ?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "runs");
    const char *text[] = {catalog_now(now), ri->backend, ri->selection, ri->machine, ri->gpu, ri->driver,
                          ri->cuda_version, ri->nvrtc_version, ri->git_rev, ri->options};
    for (int k = 0; k < 10; k++)
        sqlite3_bind_text(st, k + 1, text[k], -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 11, (sqlite3_int64)ri->seed);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    if (r != SQLITE_DONE)
        return catalog_sql_error(c, e, "creating a run");
    *run_id = sqlite3_last_insert_rowid(catalog_db(c));
    return 0;
}

int results_finish_run(Catalog *c, int64_t run_id, const char *status, Error *e)
{
    sqlite3_stmt *st = NULL;
    char now[32];
    if (sqlite3_prepare_v2(catalog_db(c), "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "runs");
    sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, catalog_now(now), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, run_id);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    return r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "finishing a run");
}

static char *col_dup(sqlite3_stmt *st, int k)
{
    const unsigned char *t = sqlite3_column_text(st, k);
    return t ? xstrdup((const char *)t) : NULL;
}

int results_get_run(Catalog *c, int64_t run_id, RunRow *out, Error *e)
{
    sqlite3_stmt *st = NULL;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT id, started_at, finished_at, status, backend, selection, machine, gpu, driver,"
                           " cuda_version, nvrtc_version, git_rev, options, seed,"
                           " (SELECT count(*) FROM results WHERE run_id = runs.id) FROM runs WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "runs");
    sqlite3_bind_int64(st, 1, run_id);
    int r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        char **f[] = {&out->started_at, &out->finished_at, &out->status, &out->backend, &out->selection,
                      &out->machine, &out->gpu, &out->driver, &out->cuda_version, &out->nvrtc_version,
                      &out->git_rev, &out->options};
        for (int k = 0; k < 12; k++)
            *f[k] = col_dup(st, k + 1);
        out->seed = (uint64_t)sqlite3_column_int64(st, 13);
        out->n_results = sqlite3_column_int64(st, 14);
    }
    sqlite3_finalize(st);
    if (r == SQLITE_DONE)
        return ERR(e, "no run %lld in %s", (long long)run_id, catalog_path(c));
    return r == SQLITE_ROW ? 0 : catalog_sql_error(c, e, "runs");
}

int results_last_run(Catalog *c, int64_t *run_id, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT max(id) FROM runs", -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "runs");
    int r = sqlite3_step(st);
    *run_id = r == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (r != SQLITE_ROW)
        return catalog_sql_error(c, e, "runs");
    if (!*run_id)
        return ERR(e, "%s has no runs yet (start one with `harness run`)", catalog_path(c));
    return 0;
}

void run_row_release(RunRow *r)
{
    char *f[] = {r->started_at, r->finished_at, r->status, r->backend, r->selection, r->machine, r->gpu,
                 r->driver, r->cuda_version, r->nvrtc_version, r->git_rev, r->options};
    for (int k = 0; k < 12; k++)
        free(f[k]);
    memset(r, 0, sizeof *r);
}

ResultRow result_row_empty(void)
{
    ResultRow r;
    memset(&r, 0, sizeof r);
    r.compile_ms = r.kernel_ms = r.max_abs_err = r.max_rel_err = NAN;
    r.time_median_ms = r.time_iqr_ms = r.time_min_ms = r.time_spread = r.cupti_ms = NAN;
    r.reference_cpu_ms = NAN;
    r.baseline_ms = r.speedup = NAN;
    r.first_bad_index = -1;
    return r;
}

static void bind_real(sqlite3_stmt *st, int k, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, k);
    else if (isinf(v))
        sqlite3_bind_double(st, k, v > 0 ? 1e308 : -1e308); /* SQLite has no infinity */
    else
        sqlite3_bind_double(st, k, v);
}

int results_put(Catalog *c, int64_t run_id, const ResultRow *r, Error *e)
{
    sqlite3_stmt *st = NULL;
    char now[32];
    if (sqlite3_prepare_v2(catalog_db(c),
                           "INSERT OR REPLACE INTO results(run_id, kernel_id, config_id, status, error, device,"
                           " trials, compile_ms, kernel_ms, reference_kind, max_abs_err, max_rel_err, first_bad_index,"
                           " time_median_ms, time_iqr_ms, time_min_ms, time_spread, samples, samples_dropped,"
                           " cupti_ms, baseline_ms, baseline_kind, speedup, flagged, structure, profile, log,"
                           " created_at, reference_cpu_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "results");
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, r->kernel_id);
    sqlite3_bind_int64(st, 3, r->config_id);
    sqlite3_bind_text(st, 4, r->status, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, r->error, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, r->device, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, r->trials);
    bind_real(st, 8, r->compile_ms);
    bind_real(st, 9, r->kernel_ms);
    sqlite3_bind_text(st, 10, r->reference_kind, -1, SQLITE_STATIC);
    bind_real(st, 11, r->max_abs_err);
    bind_real(st, 12, r->max_rel_err);
    if (r->first_bad_index >= 0)
        sqlite3_bind_int64(st, 13, r->first_bad_index);
    else
        sqlite3_bind_null(st, 13);
    bind_real(st, 14, r->time_median_ms);
    bind_real(st, 15, r->time_iqr_ms);
    bind_real(st, 16, r->time_min_ms);
    bind_real(st, 17, r->time_spread);
    sqlite3_bind_int(st, 18, r->samples);
    sqlite3_bind_int(st, 19, r->samples_dropped);
    bind_real(st, 20, r->cupti_ms);
    bind_real(st, 21, r->baseline_ms);
    sqlite3_bind_text(st, 22, r->baseline_kind, -1, SQLITE_STATIC);
    bind_real(st, 23, r->speedup);
    sqlite3_bind_int(st, 24, r->flagged);
    sqlite3_bind_text(st, 25, r->structure, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 26, r->profile, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 27, r->log, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 28, catalog_now(now), -1, SQLITE_TRANSIENT);
    bind_real(st, 29, r->reference_cpu_ms);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "storing a result");
}

int results_done_kernels(Catalog *c, int64_t run_id, int64_t **ids, int *n, Error *e)
{
    sqlite3_stmt *st = NULL;
    int cap = 64, r;
    *n = 0;
    *ids = xcalloc((size_t)cap, sizeof **ids);
    /* a kernel's results are stored in one transaction: any result means done */
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT DISTINCT kernel_id FROM results WHERE run_id = ? ORDER BY kernel_id",
                           -1, &st, NULL) != SQLITE_OK) {
        free(*ids);
        *ids = NULL;
        return catalog_sql_error(c, e, "results");
    }
    sqlite3_bind_int64(st, 1, run_id);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap)
            *ids = xrealloc(*ids, sizeof **ids * (size_t)(cap *= 2));
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (r != SQLITE_DONE) {
        free(*ids);
        *ids = NULL;
        *n = 0;
        return catalog_sql_error(c, e, "results");
    }
    return 0;
}

int results_reference_times(Catalog *c, const char *program, const char *gpu, RefTimes *t, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT cf.name, r.time_median_ms FROM results r"
                           " JOIN kernels k ON k.id = r.kernel_id"
                           " JOIN programs p ON p.id = k.program_id"
                           " JOIN configs cf ON cf.id = r.config_id"
                           " WHERE p.name = ? AND k.origin = 'reference' AND r.status = 'pass'"
                           " AND r.time_median_ms > 0"
                           " AND substr(r.device, instr(r.device, ': ') + 2) = ?"
                           " ORDER BY r.created_at, r.id",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "results");
    sqlite3_bind_text(st, 1, program, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, gpu, -1, SQLITE_STATIC);
    int r;
    while ((r = sqlite3_step(st)) == SQLITE_ROW)
        ref_times_note(t, program, (const char *)sqlite3_column_text(st, 0), sqlite3_column_double(st, 1),
                       REF_TIME_CATALOG);
    sqlite3_finalize(st);
    return r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "results");
}

int results_latest_verdict(Catalog *c, int64_t kernel, const char *config, const char *backend, const char *kind,
                           char *status, size_t len, int64_t *run_id, Error *e)
{
    sqlite3_stmt *st = NULL;
    /* results written before reference_kind existed were all the C reference's */
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT r.status, r.run_id FROM results r"
                           " JOIN configs cf ON cf.id = r.config_id"
                           " JOIN runs u ON u.id = r.run_id"
                           " WHERE r.kernel_id = ?1 AND cf.name = ?2 AND u.backend = ?3"
                           " AND r.status NOT IN ('skipped', 'not_run')"
                           " AND (?4 IS NULL OR coalesce(r.reference_kind, 'cpu') = ?4)"
                           " ORDER BY r.created_at DESC, r.id DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "results");
    sqlite3_bind_int64(st, 1, kernel);
    sqlite3_bind_text(st, 2, config, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, backend, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
    int r = sqlite3_step(st), found = r == SQLITE_ROW;
    if (found) {
        snprintf(status, len, "%s", (const char *)sqlite3_column_text(st, 0));
        *run_id = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (r != SQLITE_ROW && r != SQLITE_DONE)
        return catalog_sql_error(c, e, "results");
    return found;
}
