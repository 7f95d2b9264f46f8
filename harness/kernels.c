#include "kernels.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

int kernels_program_id(Catalog *c, const char *name, int64_t *id, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT id FROM programs WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    *id = r == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "kernels");
}

static int program_id(Catalog *c, const char *name, int64_t *id, Error *e)
{
    if (kernels_program_id(c, name, id, e) != 0)
        return -1;
    if (!*id)
        return ERR(e, "no program named '%s' in %s", name, catalog_path(c));
    return 0;
}

/* Id of the program's kernel with this content hash, 0 when none. */
static int find_kernel(Catalog *c, int64_t pid, const char *hash, int64_t *id, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT id FROM kernels WHERE content_hash = ? AND program_id = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, pid);
    int r = sqlite3_step(st);
    *id = r == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "kernels");
}

/* Inserts k with no parent yet: link_parents sets it once every kernel of
 * the folder has its id. */
static int insert_kernel(Catalog *c, int64_t pid, const KernelFiles *k, int64_t *id, Error *e)
{
    sqlite3_stmt *st = NULL;
    char now[32];
    if (sqlite3_prepare_v2(catalog_db(c),
                           "INSERT INTO kernels(program_id, origin, parent_id, source, launch, knobs, defect,"
                           " content_hash, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_int64(st, 1, pid);
    sqlite3_bind_text(st, 2, strcmp(k->name, "reference") == 0 ? "reference" : "variant", -1, SQLITE_STATIC);
    sqlite3_bind_null(st, 3);
    sqlite3_bind_text(st, 4, k->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, k->launch, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, k->knobs, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, k->defect, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, k->content_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, catalog_now(now), -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    if (r != SQLITE_DONE)
        return catalog_sql_error(c, e, "inserting a kernel");
    *id = sqlite3_last_insert_rowid(catalog_db(c));
    return 0;
}

/* Sets the parent of every variant of pf: the sibling its knobs name, else
 * the reference (ids[i]: the catalog id of pf->kernels[i]; reference: the
 * reference's id, or 0).  Kept kernels too: knobs may change while the
 * source stays. */
static int link_parents(Catalog *c, const PairFiles *pf, const int64_t *ids, int64_t reference, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(catalog_db(c), "UPDATE kernels SET parent_id = ? WHERE id = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return catalog_sql_error(c, e, "linking a variant to its parent");
    for (int i = pf->has_reference; i < pf->n; i++) {
        sqlite3_reset(st);
        const char *named = pf->kernels[i].parent;
        int64_t parent = named ? ids[pair_files_find(pf, named)] : reference;
        if (parent)
            sqlite3_bind_int64(st, 1, parent);
        else
            sqlite3_bind_null(st, 1);
        sqlite3_bind_int64(st, 2, ids[i]);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            return catalog_sql_error(c, e, "linking a variant to its parent");
        }
    }
    sqlite3_finalize(st);
    return 0;
}

int kernels_sync_folder(Catalog *c, const char *program_name, const PairFiles *pf, KernelSyncStats *stats, Error *e)
{
    int rc = 0;
    int64_t pid;
    sqlite3_stmt *st = NULL;
    StrBuf keep = STRBUF_INIT;
    int64_t *ids = xcalloc((size_t)pf->n + 1, sizeof *ids);
    TRY(program_id(c, program_name, &pid, e));
    for (int i = 0; i < pf->n; i++) {
        const KernelFiles *k = &pf->kernels[i];
        TRY(find_kernel(c, pid, k->content_hash, &ids[i], e));
        if (ids[i]) {
            stats->unchanged++;
        } else {
            TRY(insert_kernel(c, pid, k, &ids[i], e));
            stats->added++;
        }
        sb_printf(&keep, "%s'%s'", keep.len ? "," : "", k->content_hash); /* hex digits only: safe */
    }
    /* the reference comes first when there is one */
    TRY(link_parents(c, pf, ids, pf->has_reference ? ids[0] : 0, e));
    char *sql = xasprintf("DELETE FROM kernels WHERE program_id = ? AND origin IN ('reference', 'variant')"
                          " AND content_hash NOT IN (%s)",
                          keep.len ? keep.data : "''");
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) != SQLITE_OK) {
        free(sql);
        FAIL(e, "catalog: %s", sqlite3_errmsg(catalog_db(c)));
    }
    free(sql);
    sqlite3_bind_int64(st, 1, pid);
    if (sqlite3_step(st) != SQLITE_DONE) {
        catalog_sql_error(c, e, "removing stale kernels");
        goto done_rc;
    }
    stats->removed += sqlite3_changes(catalog_db(c));
done:
    sqlite3_finalize(st);
    sb_release(&keep);
    free(ids);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

static char *col_dup(sqlite3_stmt *st, int k)
{
    const unsigned char *t = sqlite3_column_text(st, k);
    return t ? xstrdup((const char *)t) : NULL;
}

#define KERNEL_COLUMNS                                                                                                 \
    "SELECT k.id, k.program_id, coalesce(k.parent_id, 0), p.name, k.origin, k.source, k.launch, k.knobs, k.defect,"    \
    " k.content_hash, k.created_at FROM kernels k JOIN programs p ON p.id = k.program_id "

static void read_row(sqlite3_stmt *st, KernelRow *k)
{
    k->id = sqlite3_column_int64(st, 0);
    k->program_id = sqlite3_column_int64(st, 1);
    k->parent_id = sqlite3_column_int64(st, 2);
    k->program = col_dup(st, 3);
    k->origin = col_dup(st, 4);
    k->source = col_dup(st, 5);
    k->launch = col_dup(st, 6);
    k->knobs = col_dup(st, 7);
    k->defect = col_dup(st, 8);
    k->content_hash = col_dup(st, 9);
    k->created_at = col_dup(st, 10);
}

int kernels_get(Catalog *c, int64_t id, KernelRow *out, Error *e)
{
    sqlite3_stmt *st = NULL;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(catalog_db(c), KERNEL_COLUMNS "WHERE k.id = ?", -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_int64(st, 1, id);
    int r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        read_row(st, out);
    sqlite3_finalize(st);
    if (r == SQLITE_DONE)
        return ERR(e, "no kernel %lld in %s (see `harness kernels list PROGRAM`)", (long long)id, catalog_path(c));
    return r == SQLITE_ROW ? 0 : catalog_sql_error(c, e, "kernels");
}

int kernels_list(Catalog *c, const char *program_name, KernelRow **rows, int *n, Error *e)
{
    sqlite3_stmt *st = NULL;
    int cap = 16, r;
    *n = 0;
    *rows = NULL;
    int64_t pid;
    if (program_id(c, program_name, &pid, e) != 0)
        return -1;
    if (sqlite3_prepare_v2(catalog_db(c), KERNEL_COLUMNS "WHERE k.program_id = ? ORDER BY k.id", -1, &st, NULL) !=
        SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_int64(st, 1, pid);
    *rows = xcalloc((size_t)cap, sizeof **rows);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap)
            *rows = xrealloc(*rows, sizeof **rows * (size_t)(cap *= 2));
        read_row(st, &(*rows)[(*n)++]);
    }
    sqlite3_finalize(st);
    if (r != SQLITE_DONE) {
        kernel_rows_free(*rows, *n);
        *rows = NULL;
        *n = 0;
        return catalog_sql_error(c, e, "kernels");
    }
    return 0;
}

void kernel_row_release(KernelRow *k)
{
    free(k->program);
    free(k->origin);
    free(k->source);
    free(k->launch);
    free(k->knobs);
    free(k->defect);
    free(k->content_hash);
    free(k->created_at);
    memset(k, 0, sizeof *k);
}

void kernel_rows_free(KernelRow *rows, int n)
{
    for (int i = 0; i < n; i++)
        kernel_row_release(&rows[i]);
    free(rows);
}
