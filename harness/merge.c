/* merge.c — runs of catalog copies joined into one catalog (see merge.h). */
#include "merge.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "common/strbuf.h"
#include "harness/results.h"
#include "harness/run.h"

/* One run of a source catalog. */
typedef struct SourceRun {
    const char *path;    /* the source catalog (borrowed) */
    RunRow row;
    char *job;           /* what makes shards one job: selection without the shard, backend, seed, options */
    char *job_selection; /* the selection without the shard (JSON) */
    int shard_index, shard_count; /* count 0: not sharded */
    int group;           /* index of its merged run */
} SourceRun;

static void source_run_release(SourceRun *r)
{
    run_row_release(&r->row);
    free(r->job);
    free(r->job_selection);
}

/* Reads every run of one source catalog. */
static int read_runs(const char *path, SourceRun **runs, int *n, Error *e)
{
    Catalog *c = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0, r;
    if (catalog_open(path, 0, &c, e) != 0)
        return error_prefix(e, "%s", path);
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT id FROM runs ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
        catalog_sql_error(c, e, "runs");
        rc = -1;
        goto done;
    }
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        *runs = xrealloc(*runs, sizeof **runs * (size_t)(*n + 1));
        SourceRun *sr = &(*runs)[*n];
        memset(sr, 0, sizeof *sr);
        sr->path = path;
        if (results_get_run(c, sqlite3_column_int64(st, 0), &sr->row, e) != 0) {
            rc = -1;
            goto done;
        }
        (*n)++;
        cJSON *sel = cJSON_Parse(sr->row.selection ? sr->row.selection : "{}");
        if (!cJSON_IsObject(sel)) {
            cJSON_Delete(sel);
            rc = ERR(e, "%s: run %lld has no valid selection", path, (long long)sr->row.id);
            goto done;
        }
        const cJSON *shard = cJSON_GetObjectItemCaseSensitive(sel, "shard");
        if (cJSON_IsString(shard) &&
            run_parse_shard(shard->valuestring, &sr->shard_index, &sr->shard_count) != 0) {
            cJSON_Delete(sel);
            rc = ERR(e, "%s: run %lld has an invalid shard '%s'", path, (long long)sr->row.id, shard->valuestring);
            goto done;
        }
        cJSON_DeleteItemFromObjectCaseSensitive(sel, "shard");
        char *text = cJSON_PrintUnformatted(sel);
        sr->job_selection = xstrdup(text);
        sr->job = xasprintf("%s|%s|%llu|%s|%d", text, sr->row.backend, (unsigned long long)sr->row.seed,
                            sr->row.options ? sr->row.options : "", sr->shard_count);
        cJSON_free(text);
        cJSON_Delete(sel);
    }
    if (r != SQLITE_DONE)
        rc = catalog_sql_error(c, e, "runs");
done:
    sqlite3_finalize(st);
    catalog_close(c);
    return rc;
}

/* "a, b" of the distinct values of one field over a group's runs. */
static char *distinct_join(SourceRun *runs, int n, int group, size_t offset)
{
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < n; i++) {
        if (runs[i].group != group)
            continue;
        const char *v = *(char **)((char *)&runs[i].row + offset);
        if (!v || !*v)
            continue;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) {
            const char *w = runs[k].group == group ? *(char **)((char *)&runs[k].row + offset) : NULL;
            seen = w && strcmp(w, v) == 0;
        }
        if (!seen)
            sb_printf(&b, "%s%s", b.len ? ", " : "", v);
    }
    return sb_steal(&b);
}

/* The merged run's selection: the job's, plus where it came from. */
static char *merged_selection(SourceRun *runs, int n, int group)
{
    const SourceRun *first = NULL;
    cJSON *from = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        if (runs[i].group != group)
            continue;
        if (!first)
            first = &runs[i];
        cJSON *o = cJSON_CreateObject();
        if (runs[i].shard_count) {
            char shard[32];
            snprintf(shard, sizeof shard, "%d/%d", runs[i].shard_index, runs[i].shard_count);
            cJSON_AddStringToObject(o, "shard", shard);
        }
        cJSON_AddNumberToObject(o, "run", (double)runs[i].row.id);
        cJSON_AddStringToObject(o, "started_at", runs[i].row.started_at ? runs[i].row.started_at : "");
        cJSON_AddStringToObject(o, "machine", runs[i].row.machine ? runs[i].row.machine : "");
        cJSON_AddItemToArray(from, o);
    }
    cJSON *sel = cJSON_Parse(first->job_selection);
    cJSON_AddItemToObject(sel, "merged_from", from);
    char *text = cJSON_PrintUnformatted(sel);
    char *out = xstrdup(text);
    cJSON_free(text);
    cJSON_Delete(sel);
    return out;
}

static int64_t lookup_id(sqlite3 *db, const char *sql, const char *a, const char *b)
{
    sqlite3_stmt *st = NULL;
    int64_t id = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
        if (b)
            sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return id;
}

static double col_real(sqlite3_stmt *st, int k)
{
    return sqlite3_column_type(st, k) == SQLITE_NULL ? NAN : sqlite3_column_double(st, k);
}

static const char *col_text(sqlite3_stmt *st, int k)
{
    return (const char *)sqlite3_column_text(st, k);
}

/* Copies the results of one source run into target run `into`. */
static int copy_results(Catalog *target, int64_t into, const SourceRun *src, long *copied, Error *e)
{
    Catalog *c = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0, r;
    if (catalog_open(src->path, 0, &c, e) != 0)
        return error_prefix(e, "%s", src->path);
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT k.content_hash, p.name, c.name, r.status, r.error, r.device, r.trials,"
                           " r.compile_ms, r.kernel_ms, r.reference_kind, r.max_abs_err, r.max_rel_err,"
                           " r.first_bad_index, r.time_median_ms, r.time_iqr_ms, r.time_min_ms, r.time_spread,"
                           " r.samples, r.samples_dropped, r.cupti_ms, r.baseline_ms, r.baseline_kind, r.speedup,"
                           " r.flagged, r.structure, r.profile, r.log, r.reference_cpu_ms"
                           " FROM results r JOIN kernels k ON k.id = r.kernel_id JOIN configs c ON c.id = r.config_id"
                           " JOIN programs p ON p.id = c.program_id WHERE r.run_id = ? ORDER BY r.id",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = catalog_sql_error(c, e, "results");
        goto done;
    }
    sqlite3_bind_int64(st, 1, src->row.id);
    sqlite3 *tdb = catalog_db(target);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *hash = col_text(st, 0), *program = col_text(st, 1), *config = col_text(st, 2);
        ResultRow row = result_row_empty();
        row.kernel_id = lookup_id(tdb, "SELECT id FROM kernels WHERE content_hash = ?", hash, NULL);
        if (row.kernel_id < 0) {
            rc = ERR(e, "%s: run %lld has a result for a kernel of %s that %s does not hold (content %.12s): "
                        "merge copies of the same catalog",
                     src->path, (long long)src->row.id, program, catalog_path(target), hash);
            goto done;
        }
        row.config_id = lookup_id(tdb,
                                  "SELECT c.id FROM configs c JOIN programs p ON p.id = c.program_id"
                                  " WHERE p.name = ? AND c.name = ?",
                                  program, config);
        if (row.config_id < 0) {
            rc = ERR(e, "%s: run %lld has a result for config '%s' of %s, which %s does not hold", src->path,
                     (long long)src->row.id, config, program, catalog_path(target));
            goto done;
        }
        sqlite3_stmt *dup = NULL;
        int exists = 0;
        if (sqlite3_prepare_v2(tdb, "SELECT 1 FROM results WHERE run_id = ? AND kernel_id = ? AND config_id = ?", -1,
                               &dup, NULL) == SQLITE_OK) {
            sqlite3_bind_int64(dup, 1, into);
            sqlite3_bind_int64(dup, 2, row.kernel_id);
            sqlite3_bind_int64(dup, 3, row.config_id);
            exists = sqlite3_step(dup) == SQLITE_ROW;
        }
        sqlite3_finalize(dup);
        if (exists) {
            rc = ERR(e, "%s: run %lld holds a result (%s, config %s) that another merged run holds too: "
                        "the shards overlap",
                     src->path, (long long)src->row.id, program, config);
            goto done;
        }
        row.status = col_text(st, 3);
        row.error = col_text(st, 4);
        row.device = col_text(st, 5);
        row.trials = sqlite3_column_int(st, 6);
        row.compile_ms = col_real(st, 7);
        row.kernel_ms = col_real(st, 8);
        row.reference_kind = col_text(st, 9);
        row.max_abs_err = col_real(st, 10);
        row.max_rel_err = col_real(st, 11);
        row.first_bad_index = sqlite3_column_type(st, 12) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 12);
        row.time_median_ms = col_real(st, 13);
        row.time_iqr_ms = col_real(st, 14);
        row.time_min_ms = col_real(st, 15);
        row.time_spread = col_real(st, 16);
        row.samples = sqlite3_column_int(st, 17);
        row.samples_dropped = sqlite3_column_int(st, 18);
        row.cupti_ms = col_real(st, 19);
        row.baseline_ms = col_real(st, 20);
        row.baseline_kind = col_text(st, 21);
        row.speedup = col_real(st, 22);
        row.flagged = sqlite3_column_int(st, 23);
        row.structure = col_text(st, 24);
        row.profile = col_text(st, 25);
        row.log = col_text(st, 26);
        row.reference_cpu_ms = col_real(st, 27);
        if (results_put(target, into, &row, e) != 0) {
            rc = -1;
            goto done;
        }
        (*copied)++;
    }
    if (r != SQLITE_DONE)
        rc = catalog_sql_error(c, e, "results");
done:
    sqlite3_finalize(st);
    catalog_close(c);
    return rc;
}

/* Stores group g as one run of the target (or reports it merged before). */
static int merge_group(Catalog *target, SourceRun *runs, int n, int g, FILE *report, MergeSummary *s, Error *e)
{
    int rc = 0;
    char *selection = merged_selection(runs, n, g);
    int64_t existing = lookup_id(catalog_db(target), "SELECT id FROM runs WHERE selection = ?", selection, NULL);
    char *machine = NULL, *gpu = NULL, *git = NULL;
    const SourceRun *first = NULL;
    if (existing >= 0) {
        s->runs_skipped++;
        if (report)
            fprintf(report, "already merged as run %lld: %s\n", (long long)existing, selection);
        goto done;
    }
    for (int i = 0; i < n && !first; i++)
        if (runs[i].group == g)
            first = &runs[i];
    machine = distinct_join(runs, n, g, offsetof(RunRow, machine));
    gpu = distinct_join(runs, n, g, offsetof(RunRow, gpu));
    git = distinct_join(runs, n, g, offsetof(RunRow, git_rev));
    RunInfo ri = {first->row.backend, selection, machine, gpu, first->row.driver, first->row.cuda_version,
                  first->row.nvrtc_version, git, first->row.options, first->row.seed};
    int64_t id;
    TRY(results_start_run(target, &ri, &id, e));
    /* shards present, finished; earliest start and latest end */
    int count = first->shard_count, all_finished = 1;
    char *seen = xcalloc((size_t)(count ? count : 1), 1);
    const char *started = NULL, *finished = NULL;
    long before = s->results;
    int members = 0;
    for (int i = 0; i < n; i++) {
        if (runs[i].group != g)
            continue;
        members++;
        if (count)
            seen[runs[i].shard_index]++;
        all_finished &= runs[i].row.status && strcmp(runs[i].row.status, "finished") == 0;
        if (runs[i].row.started_at && (!started || strcmp(runs[i].row.started_at, started) < 0))
            started = runs[i].row.started_at;
        if (runs[i].row.finished_at && (!finished || strcmp(runs[i].row.finished_at, finished) > 0))
            finished = runs[i].row.finished_at;
        if (copy_results(target, id, &runs[i], &s->results, e) != 0) {
            free(seen);
            rc = -1;
            goto done;
        }
    }
    StrBuf missing = STRBUF_INIT;
    for (int k = 0; k < count; k++)
        if (seen[k] != 1)
            sb_printf(&missing, "%s%d/%d%s", missing.len ? ", " : "", k, count, seen[k] ? " (twice)" : "");
    free(seen);
    const char *status = all_finished && missing.len == 0 ? "finished" : "interrupted";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(target), "UPDATE runs SET status = ?, started_at = ?, finished_at = ? WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK) {
        sb_release(&missing);
        rc = catalog_sql_error(target, e, "runs");
        goto done;
    }
    sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, started, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, finished, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, id);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        sb_release(&missing);
        rc = catalog_sql_error(target, e, "runs");
        goto done;
    }
    s->runs_created++;
    if (report) {
        fprintf(report, "run %lld: %d source run(s)%s, %ld results, %s", (long long)id, members,
                count ? " (shards of one job)" : "", s->results - before, status);
        if (missing.len)
            fprintf(report, "; shards missing or repeated: %s", missing.data);
        fprintf(report, "\n");
    }
    sb_release(&missing);
done:
    free(selection);
    free(machine);
    free(gpu);
    free(git);
    return rc;
}

int merge_catalogs(Catalog *target, const char *const *sources, int n, FILE *report, MergeSummary *s, Error *e)
{
    memset(s, 0, sizeof *s);
    SourceRun *runs = NULL;
    int n_runs = 0, n_groups = 0, rc = 0;
    for (int i = 0; i < n; i++)
        TRY(read_runs(sources[i], &runs, &n_runs, e));
    s->source_runs = n_runs;
    /* the shards of one job share a group; other runs have their own */
    for (int i = 0; i < n_runs; i++) {
        runs[i].group = -1;
        for (int k = 0; k < i && runs[i].shard_count; k++)
            if (runs[k].shard_count && strcmp(runs[k].job, runs[i].job) == 0)
                runs[i].group = runs[k].group;
        if (runs[i].group < 0)
            runs[i].group = n_groups++;
    }
    TRY(catalog_begin(target, e));
    for (int g = 0; g < n_groups; g++)
        if (merge_group(target, runs, n_runs, g, report, s, e) != 0) {
            catalog_rollback(target);
            memset(s, 0, sizeof *s);
            rc = -1;
            goto done;
        }
    TRY(catalog_commit(target, e));
done:
    for (int i = 0; i < n_runs; i++)
        source_run_release(&runs[i]);
    free(runs);
    return rc;
}
