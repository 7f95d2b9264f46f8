#include "catalog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/normalize.h"

extern const char catalog_schema_sql[];

struct Catalog {
    sqlite3 *db;
    char *path;
};

sqlite3 *catalog_db(Catalog *c)
{
    return c->db;
}

const char *catalog_path(const Catalog *c)
{
    return c->path;
}

int catalog_sql_error(Catalog *c, Error *e, const char *what)
{
    return ERR(e, "catalog '%s': %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

int catalog_exec(Catalog *c, const char *sql, Error *e)
{
    char *msg = NULL;
    if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        ERR(e, "catalog '%s': %s", c->path, msg ? msg : sqlite3_errmsg(c->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

const char *catalog_now(char *buf)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

int catalog_open(const char *path, int create, Catalog **out, Error *e)
{
    *out = NULL;
    int exists = file_exists(path);
    if (!exists && !create)
        return ERR(e, "catalog '%s' does not exist (build it with `make dataset`)", path);
    Catalog *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &c->db, flags, NULL) != SQLITE_OK) {
        ERR(e, "cannot open catalog '%s': %s", path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
        catalog_close(c);
        return -1;
    }
    sqlite3_busy_timeout(c->db, 10000);
    int version = -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        ERR(e, "catalog '%s' is not a readable SQLite database: %s", path, sqlite3_errmsg(c->db));
        sqlite3_finalize(st);
        catalog_close(c);
        return -1;
    }
    version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version == 0) {
        /* A new file, or one without our schema: only an empty database is
         * ours to initialise. */
        int tables = 0;
        if (sqlite3_prepare_v2(c->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            tables = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        if (tables > 0) {
            ERR(e, "catalog '%s' has tables but no schema version: not a CudaPerf catalog", path);
            catalog_close(c);
            return -1;
        }
        if (catalog_exec(c, "BEGIN IMMEDIATE", e) != 0 || catalog_exec(c, catalog_schema_sql, e) != 0 ||
            catalog_exec(c, "COMMIT", e) != 0) {
            error_prefix(e, "cannot create the catalog schema");
            catalog_close(c);
            return -1;
        }
        version = CATALOG_SCHEMA_VERSION;
    }
    if (version != CATALOG_SCHEMA_VERSION) {
        if (version < CATALOG_SCHEMA_VERSION)
            ERR(e, "catalog '%s' has schema version %d, older than this build's %d (refusing, not migrating): "
                   "move it aside and rebuild it with `make dataset`",
                path, version, CATALOG_SCHEMA_VERSION);
        else
            ERR(e, "catalog '%s' has schema version %d; this build knows version %d only (refusing, not migrating)",
                path, version, CATALOG_SCHEMA_VERSION);
        catalog_close(c);
        return -1;
    }
    /* WAL: readers (reports, the CLI) never block the writer of a run. */
    if (catalog_exec(c, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL", e) != 0) {
        catalog_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

void catalog_close(Catalog *c)
{
    if (!c)
        return;
    sqlite3_close(c->db);
    free(c->path);
    free(c);
}

int catalog_begin(Catalog *c, Error *e)
{
    return catalog_exec(c, "BEGIN IMMEDIATE", e);
}

int catalog_commit(Catalog *c, Error *e)
{
    return catalog_exec(c, "COMMIT", e);
}

void catalog_rollback(Catalog *c)
{
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

int catalog_set_info(Catalog *c, const char *key, const char *value, Error *e)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO catalog_info(key, value) VALUES (?, ?)", -1, &st,
                           NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "set info");
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = catalog_sql_error(c, e, "set info");
    sqlite3_finalize(st);
    return rc;
}

int catalog_program_hashes(const Problem *p, const char *meta_json, const char *source, ProgramHashes *h,
                           Error *e)
{
    (void)p;
    hash_hex(source, strlen(source), h->source);
    char *norm = NULL;
    if (normalize_source(source, &norm, e) != 0)
        return -1;
    hash_hex(norm, strlen(norm), h->norm);
    free(norm);
    HashCtx *hc = hash_new();
    hash_update_str(hc, meta_json);
    hash_update_str(hc, source);
    hash_final(hc, h->content);
    return 0;
}

int catalog_knows_content(Catalog *c, const char *content_hash, int *known, Error *e)
{
    sqlite3_stmt *st = NULL;
    *known = 0;
    if (sqlite3_prepare_v2(c->db,
                           "SELECT 1 FROM programs WHERE content_hash = ?1 "
                           "UNION ALL SELECT 1 FROM rejections WHERE content_hash = ?1 LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "look up content hash");
    sqlite3_bind_text(st, 1, content_hash, -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    if (r == SQLITE_ROW)
        *known = 1;
    else if (r != SQLITE_DONE)
        return catalog_sql_error(c, e, "look up content hash");
    return 0;
}

static const char *config_kind(const char *name)
{
    if (strcmp(name, "small") == 0)
        return "small";
    if (strcmp(name, "large") == 0)
        return "large";
    if (strncmp(name, "edge", 4) == 0)
        return "edge";
    return "other";
}

static char *config_json(const Problem *p, const ProblemConfig *cf)
{
    StrBuf sb = STRBUF_INIT;
    sb_putc(&sb, '{');
    for (int k = 0; k < p->n_params; k++)
        sb_printf(&sb, "%s\"%s\": %lld", k ? ", " : "", p->params[k], (long long)cf->params[k]);
    for (int k = 0; k < cf->n_ov; k++)
        sb_printf(&sb, "%s\"%s\": %.17g", (k || p->n_params) ? ", " : "", cf->ov_names[k], cf->ov_values[k]);
    sb_putc(&sb, '}');
    return sb_steal(&sb);
}

static double config_bytes(const Problem *p, const ProblemConfig *cf)
{
    double total = 0;
    for (int i = 0; i < p->n_args; i++) {
        int64_t n;
        if (arg_role_is_buffer(p->args[i].role) && problem_buffer_count(p, &p->args[i], cf, &n, NULL) == 0)
            total += (double)n * (double)dtype_size(p->args[i].dtype);
    }
    return total;
}

static const char *first_output_dtype(const Problem *p)
{
    for (int i = 0; i < p->n_args; i++)
        if (arg_role_is_output(p->args[i].role))
            return dtype_name(p->args[i].dtype);
    return "?";
}

int catalog_put_program(Catalog *c, const Problem *p, const char *meta_json, const char *source,
                        const ProgramHashes *h, const char *category, const char *origin, Error *e)
{
    int rc = 0;
    sqlite3_stmt *st = NULL;
    char now[32];
    catalog_now(now);
    sqlite3_int64 id;
    /* Replace by name: foreign keys cascade to args, configs and kernels. */
    if (sqlite3_prepare_v2(c->db, "DELETE FROM programs WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        FAIL(e, "catalog: delete %s: %s", p->name, sqlite3_errmsg(c->db));
    sqlite3_finalize(st);
    st = NULL;
    const ProblemConfig *small = problem_find_config(p, "small");
    int64_t flops = 0, bytes = 0;
    problem_eval(p, small, p->cost_flops, &flops, NULL);
    problem_eval(p, small, p->cost_bytes, &bytes, NULL);
    if (sqlite3_prepare_v2(c->db,
                           "INSERT INTO programs(name, lang, family, category, origin, entry, description, dtype,"
                           " meta, source, source_hash, norm_hash, content_hash, flops_small, bytes_small,"
                           " created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, p->lang, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, p->family, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, category, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, origin, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, p->entry, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, p->description, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, first_output_dtype(p), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, meta_json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, h->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, h->norm, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, h->content, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 14, (double)flops);
    sqlite3_bind_double(st, 15, (double)bytes);
    sqlite3_bind_text(st, 16, now, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        FAIL(e, "catalog: insert %s: %s", p->name, sqlite3_errmsg(c->db));
    sqlite3_finalize(st);
    st = NULL;
    id = sqlite3_last_insert_rowid(c->db);
    if (sqlite3_prepare_v2(c->db,
                           "INSERT INTO program_args(program_id, position, name, dtype, role, shape)"
                           " VALUES (?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        StrBuf shape = STRBUF_INIT;
        if (arg_role_is_buffer(a->role)) {
            sb_putc(&shape, '[');
            for (int d = 0; d < a->ndim; d++)
                sb_printf(&shape, "%s\"%s\"", d ? ", " : "", a->shape[d]);
            sb_putc(&shape, ']');
        }
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, a->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, dtype_name(a->dtype), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, arg_role_name(a->role), -1, SQLITE_STATIC);
        if (shape.len)
            sqlite3_bind_text(st, 6, shape.data, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, 6);
        int r = sqlite3_step(st);
        sb_release(&shape);
        if (r != SQLITE_DONE)
            FAIL(e, "catalog: insert args of %s: %s", p->name, sqlite3_errmsg(c->db));
    }
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(c->db,
                           "INSERT INTO configs(program_id, name, kind, params, bytes) VALUES (?,?,?,?,?)", -1,
                           &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    for (int k = 0; k < p->n_configs; k++) {
        const ProblemConfig *cf = &p->configs[k];
        char *js = config_json(p, cf);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, cf->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, config_kind(cf->name), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, js, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(st, 5, config_bytes(p, cf));
        int r = sqlite3_step(st);
        free(js);
        if (r != SQLITE_DONE)
            FAIL(e, "catalog: insert configs of %s: %s", p->name, sqlite3_errmsg(c->db));
    }
    /* An accepted program is no longer rejected. */
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(c->db, "DELETE FROM rejections WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
done:
    sqlite3_finalize(st);
    return rc;
}

int catalog_put_rejection(Catalog *c, const char *content_hash, const char *name, const char *verdict,
                          const char *reason, Error *e)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    char now[32];
    /* A program that is now rejected leaves the catalog. */
    if (sqlite3_prepare_v2(c->db, "DELETE FROM programs WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "reject");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = catalog_sql_error(c, e, "reject");
    sqlite3_finalize(st);
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(c->db,
                           "INSERT OR REPLACE INTO rejections(content_hash, name, verdict, reason, created_at)"
                           " VALUES (?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "reject");
    sqlite3_bind_text(st, 1, content_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, verdict, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, catalog_now(now), -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = catalog_sql_error(c, e, "reject");
    sqlite3_finalize(st);
    return rc;
}

/* ---- splits ---- */

static unsigned hash_bucket(const char *prefix, const char *s, unsigned mod)
{
    char hex[HASH_HEX_LEN + 1];
    HashCtx *h = hash_new();
    hash_update_str(h, prefix);
    hash_update_str(h, s);
    hash_final(h, hex);
    char first[9];
    memcpy(first, hex, 8);
    first[8] = '\0';
    return (unsigned)(strtoul(first, NULL, 16) % mod);
}

typedef struct FamRank {
    char *lang, *family;
    char key[HASH_HEX_LEN + 1];
} FamRank;

static int cmp_famrank(const void *a, const void *b)
{
    const FamRank *x = a, *y = b;
    int c = strcmp(x->lang, y->lang);
    return c ? c : strcmp(x->key, y->key);
}

int catalog_assign_splits(Catalog *c, int *changed, Error *e)
{
    int rc = 0, n_fam = 0;
    FamRank *fams = NULL;
    sqlite3_stmt *st = NULL;
    *changed = 0;
    TRY(catalog_exec(c, "CREATE TEMP TABLE IF NOT EXISTS ood_families(lang TEXT, family TEXT);"
                        "DELETE FROM ood_families;", e));
    /* Families ranked by a hash of their name; the first ~10% of each
     * language are held out.  Adding a family moves at most one other. */
    if (sqlite3_prepare_v2(c->db, "SELECT DISTINCT lang, family FROM programs", -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        fams = xrealloc(fams, sizeof *fams * (size_t)(n_fam + 1));
        FamRank *f = &fams[n_fam++];
        f->lang = xstrdup((const char *)sqlite3_column_text(st, 0));
        f->family = xstrdup((const char *)sqlite3_column_text(st, 1));
        HashCtx *h = hash_new();
        hash_update_str(h, "ood-family");
        hash_update_str(h, f->family);
        hash_final(h, f->key);
    }
    sqlite3_finalize(st);
    st = NULL;
    qsort(fams, (size_t)n_fam, sizeof *fams, cmp_famrank);
    if (sqlite3_prepare_v2(c->db, "INSERT INTO ood_families VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    for (int i = 0; i < n_fam;) {
        int j = i;
        while (j < n_fam && strcmp(fams[j].lang, fams[i].lang) == 0)
            j++;
        int count = j - i, hold = (count + 5) / 10; /* round(10%) */
        if (count >= 3 && hold < 1)
            hold = 1;
        for (int k = i; k < i + hold; k++) {
            sqlite3_reset(st);
            sqlite3_bind_text(st, 1, fams[k].lang, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, fams[k].family, -1, SQLITE_STATIC);
            if (sqlite3_step(st) != SQLITE_DONE)
                FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
        }
        i = j;
    }
    sqlite3_finalize(st);
    st = NULL;
    /* Every program's split follows its normalised-source group: a group
     * with any member in a held-out family is held out whole. */
    if (sqlite3_prepare_v2(c->db,
                           "SELECT p.id, p.norm_hash, p.split,"
                           " EXISTS (SELECT 1 FROM programs q JOIN ood_families o"
                           "         ON o.lang = q.lang AND o.family = q.family WHERE q.norm_hash = p.norm_hash)"
                           " FROM programs p",
                           -1, &st, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    sqlite3_stmt *up = NULL;
    if (sqlite3_prepare_v2(c->db, "UPDATE programs SET split = ? WHERE id = ?", -1, &up, NULL) != SQLITE_OK)
        FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *norm = (const char *)sqlite3_column_text(st, 1);
        const char *old = (const char *)sqlite3_column_text(st, 2);
        const char *split;
        if (sqlite3_column_int(st, 3)) {
            split = "test-ood";
        } else {
            unsigned b = hash_bucket("split", norm, 100);
            split = b < 80 ? "train" : (b < 90 ? "val" : "test");
        }
        if (old && strcmp(old, split) == 0)
            continue;
        sqlite3_reset(up);
        sqlite3_bind_text(up, 1, split, -1, SQLITE_STATIC);
        sqlite3_bind_int64(up, 2, sqlite3_column_int64(st, 0));
        if (sqlite3_step(up) != SQLITE_DONE) {
            sqlite3_finalize(up);
            FAIL(e, "catalog: %s", sqlite3_errmsg(c->db));
        }
        (*changed)++;
    }
    sqlite3_finalize(up);
done:
    sqlite3_finalize(st);
    for (int i = 0; i < n_fam; i++) {
        free(fams[i].lang);
        free(fams[i].family);
    }
    free(fams);
    return rc;
}

/* ---- content hash ---- */

int catalog_content_hash(Catalog *c, char hex[HASH_HEX_LEN + 1], Error *e)
{
    static const char *const queries[] = {
        "SELECT 'program', name, lang, family, origin, coalesce(split, ''), content_hash FROM programs ORDER BY name",
        "SELECT 'config', p.name, c.name, c.kind, c.params, '', '' FROM configs c JOIN programs p"
        " ON p.id = c.program_id ORDER BY p.name, c.name",
        "SELECT 'kernel', p.name, k.origin, k.content_hash, coalesce(k.defect, ''),"
        " coalesce((SELECT content_hash FROM kernels q WHERE q.id = k.parent_id), ''), ''"
        " FROM kernels k JOIN programs p ON p.id = k.program_id ORDER BY k.content_hash",
        NULL};
    HashCtx *h = hash_new();
    for (const char *const *q = queries; *q; q++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(c->db, *q, -1, &st, NULL) != SQLITE_OK) {
            hash_final(h, hex);
            return catalog_sql_error(c, e, "hash");
        }
        int r;
        while ((r = sqlite3_step(st)) == SQLITE_ROW)
            for (int k = 0; k < 7; k++)
                hash_update_str(h, (const char *)sqlite3_column_text(st, k));
        sqlite3_finalize(st);
        if (r != SQLITE_DONE) {
            hash_final(h, hex);
            return catalog_sql_error(c, e, "hash");
        }
    }
    hash_final(h, hex);
    return 0;
}

/* ---- integrity check ---- */

static int count_query(Catalog *c, const char *sql, long long *n, Error *e)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "check");
    *n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return 0;
}

int catalog_check(Catalog *c, FILE *out, int *problems, Error *e)
{
    *problems = 0;
    sqlite3_stmt *st = NULL;
    long long n;
    if (count_query(c, "PRAGMA user_version", &n, e) != 0)
        return -1;
    fprintf(out, "schema version: %lld (expected %d)\n", n, CATALOG_SCHEMA_VERSION);
    if (n != CATALOG_SCHEMA_VERSION)
        (*problems)++;
    if (sqlite3_prepare_v2(c->db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "integrity_check");
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *msg = (const char *)sqlite3_column_text(st, 0);
        if (strcmp(msg, "ok") != 0) {
            fprintf(out, "integrity: %s\n", msg);
            (*problems)++;
        }
    }
    sqlite3_finalize(st);
    static const struct {
        const char *what, *sql;
    } ORPHANS[] = {
        {"args without a program", "SELECT count(*) FROM program_args WHERE program_id NOT IN (SELECT id FROM programs)"},
        {"configs without a program", "SELECT count(*) FROM configs WHERE program_id NOT IN (SELECT id FROM programs)"},
        {"kernels without a program", "SELECT count(*) FROM kernels WHERE program_id NOT IN (SELECT id FROM programs)"},
        {"results without a run, kernel or config",
         "SELECT count(*) FROM results WHERE run_id NOT IN (SELECT id FROM runs) OR kernel_id NOT IN"
         " (SELECT id FROM kernels) OR config_id NOT IN (SELECT id FROM configs)"},
        {"programs without configs", "SELECT count(*) FROM programs WHERE id NOT IN (SELECT program_id FROM configs)"},
        {"programs with fewer than 3 configs",
         "SELECT count(*) FROM (SELECT program_id FROM configs WHERE program_id IN (SELECT id FROM programs)"
         " GROUP BY program_id HAVING count(*) < 3)"},
        {"programs without a split", "SELECT count(*) FROM programs WHERE split IS NULL"},
        {"programs without args", "SELECT count(*) FROM programs WHERE id NOT IN (SELECT program_id FROM program_args)"},
    };
    for (size_t i = 0; i < sizeof ORPHANS / sizeof *ORPHANS; i++) {
        if (count_query(c, ORPHANS[i].sql, &n, e) != 0)
            return -1;
        if (n) {
            fprintf(out, "orphans: %lld %s\n", n, ORPHANS[i].what);
            (*problems)++;
        }
    }
    /* Every stored source and meta must still match its hashes. */
    if (sqlite3_prepare_v2(c->db, "SELECT name, source, source_hash, meta, content_hash FROM programs", -1, &st,
                           NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "check hashes");
    long long checked = 0, bad = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *src = (const char *)sqlite3_column_text(st, 1);
        const char *meta = (const char *)sqlite3_column_text(st, 3);
        char hx[HASH_HEX_LEN + 1];
        hash_hex(src ? src : "", src ? strlen(src) : 0, hx);
        int ok = strcmp(hx, (const char *)sqlite3_column_text(st, 2)) == 0;
        HashCtx *h = hash_new();
        hash_update_str(h, meta);
        hash_update_str(h, src);
        hash_final(h, hx);
        ok &= strcmp(hx, (const char *)sqlite3_column_text(st, 4)) == 0;
        checked++;
        if (!ok) {
            bad++;
            if (bad <= 20)
                fprintf(out, "hash mismatch: %s (source or meta changed after it was stored)\n", name);
        }
    }
    sqlite3_finalize(st);
    if (bad) {
        fprintf(out, "hash mismatches: %lld of %lld programs\n", bad, checked);
        (*problems)++;
    }
    fprintf(out, "programs checked: %lld\n", checked);
    return 0;
}
