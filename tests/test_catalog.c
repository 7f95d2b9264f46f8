/* Catalog: creation with the schema version, refusal of unknown versions and
 * of foreign files, program replacement by name, rollback leaving nothing
 * behind, split rules, content hash independent of insertion order, and
 * catalog check finding a tampered source. */
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/catalog.h"
#include "tests/test.h"

static Problem *load_good(TestCtx *t, const char *name, const char *family)
{
    Problem *p = NULL;
    Error e;
    if (problem_load("tests/data/meta/good.json", &p, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return NULL;
    }
    free(p->name);
    p->name = xstrdup(name);
    free(p->family);
    p->family = xstrdup(family);
    return p;
}

static int put(Catalog *c, Problem *p, const char *source, Error *e)
{
    char *meta = problem_to_json(p);
    ProgramHashes h;
    int rc = catalog_program_hashes(p, meta, source, &h, e);
    if (rc == 0)
        rc = catalog_put_program(c, p, meta, source, &h, "stencil", "generated", e);
    free(meta);
    return rc;
}

static long long count(Catalog *c, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long n = -1;
    if (sqlite3_prepare_v2(catalog_db(c), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

TEST(catalog_versions_and_foreign_files)
{
    Error e;
    Catalog *c = NULL;
    char *db = xasprintf("%s/a.db", t->tmpdir);
    CHECK(catalog_open(db, 0, &c, &e) != 0 && strstr(e.msg, "does not exist"));
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    CHECK(count(c, "PRAGMA user_version") == CATALOG_SCHEMA_VERSION);
    CHECK(catalog_exec(c, "PRAGMA user_version = 99", &e) == 0);
    catalog_close(c);
    c = NULL;
    CHECK(catalog_open(db, 1, &c, &e) != 0);
    CHECK_MSG(strstr(e.msg, "schema version 99") && strstr(e.msg, "refusing"), "%s", e.msg);
    char *junk = xasprintf("%s/junk.db", t->tmpdir);
    CHECK(file_write_if_changed(junk, "this is not a database, just text\n", 35, NULL, &e) == 0);
    CHECK(catalog_open(junk, 1, &c, &e) != 0);
    CHECK_MSG(strstr(e.msg, "junk.db"), "%s", e.msg);
    free(db);
    free(junk);
    return 0;
}

TEST(catalog_programs_transactions_hash)
{
    Error e;
    Catalog *c = NULL;
    char *db = xasprintf("%s/b.db", t->tmpdir);
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    if (!c)
        return -1;
    Problem *p1 = load_good(t, "c/fa/one", "fa"), *p2 = load_good(t, "c/fb/two", "fb");
    if (!p1 || !p2)
        return -1;
    const char *src1 = "void jacobi5(void) { /* one */ }\n", *src2 = "void jacobi5(void) { int q; (void)q; }\n";
    CHECK(catalog_begin(c, &e) == 0);
    CHECK(put(c, p1, src1, &e) == 0);
    CHECK(put(c, p2, src2, &e) == 0);
    CHECK(catalog_commit(c, &e) == 0);
    CHECK(count(c, "SELECT count(*) FROM programs") == 2);
    CHECK(count(c, "SELECT count(*) FROM configs") == 6);
    CHECK(count(c, "SELECT count(*) FROM program_args") == 10);
    /* Replacing by name keeps one row and its children. */
    CHECK(catalog_begin(c, &e) == 0);
    CHECK(put(c, p1, "void jacobi5(void) { /* changed */ }\n", &e) == 0);
    CHECK(catalog_commit(c, &e) == 0);
    CHECK(count(c, "SELECT count(*) FROM programs") == 2);
    CHECK(count(c, "SELECT count(*) FROM configs") == 6);
    /* A rolled-back write leaves nothing. */
    Problem *p3 = load_good(t, "c/fc/three", "fc");
    CHECK(catalog_begin(c, &e) == 0);
    CHECK(put(c, p3, src1, &e) == 0);
    catalog_rollback(c);
    CHECK(count(c, "SELECT count(*) FROM programs") == 2);
    CHECK(count(c, "SELECT count(*) FROM configs") == 6);
    int changed = 0;
    CHECK(catalog_begin(c, &e) == 0 && catalog_assign_splits(c, &changed, &e) == 0 && catalog_commit(c, &e) == 0);
    CHECK(changed == 2);
    CHECK(count(c, "SELECT count(*) FROM programs WHERE split IS NULL") == 0);
    char h1[HASH_HEX_LEN + 1], h2[HASH_HEX_LEN + 1];
    CHECK(catalog_content_hash(c, h1, &e) == 0);
    /* The same content inserted in the other order hashes the same. */
    Catalog *d = NULL;
    char *db2 = xasprintf("%s/c.db", t->tmpdir);
    CHECK(catalog_open(db2, 1, &d, &e) == 0);
    CHECK(catalog_begin(d, &e) == 0);
    CHECK(put(d, p2, src2, &e) == 0);
    CHECK(put(d, p1, "void jacobi5(void) { /* changed */ }\n", &e) == 0);
    CHECK(catalog_assign_splits(d, &changed, &e) == 0);
    CHECK(catalog_commit(d, &e) == 0);
    CHECK(catalog_content_hash(d, h2, &e) == 0);
    CHECK_MSG(strcmp(h1, h2) == 0, "hash depends on insertion order");
    /* Tampering with a stored source is found by check. */
    int problems = 0;
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(catalog_check(d, devnull, &problems, &e) == 0 && problems == 0);
    CHECK(catalog_exec(d, "UPDATE programs SET source = source || ' ' WHERE name = 'c/fb/two'", &e) == 0);
    CHECK(catalog_exec(d, "PRAGMA foreign_keys=OFF; INSERT INTO configs(program_id, name, kind, params)"
                          " VALUES (9999, 'x', 'small', '{}')", &e) == 0);
    CHECK(catalog_check(d, devnull, &problems, &e) == 0 && problems == 2);
    fclose(devnull);
    catalog_close(d);
    catalog_close(c);
    problem_free(p1);
    problem_free(p2);
    problem_free(p3);
    free(db);
    free(db2);
    return 0;
}

TEST(catalog_ood_families)
{
    /* With 20 families, 2 are held out whole and no other program is. */
    Error e;
    Catalog *c = NULL;
    char *db = xasprintf("%s/d.db", t->tmpdir);
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    if (!c)
        return -1;
    CHECK(catalog_begin(c, &e) == 0);
    for (int f = 0; f < 20; f++)
        for (int k = 0; k < 5; k++) {
            char name[64], fam[16], src[128];
            snprintf(fam, sizeof fam, "fam%02d", f);
            snprintf(name, sizeof name, "c/%s/p%d", fam, k);
            snprintf(src, sizeof src, "void jacobi5(void) { int v = %d; (void)v; }\n", f * 10 + k);
            Problem *p = load_good(t, name, fam);
            CHECK(put(c, p, src, &e) == 0);
            problem_free(p);
        }
    int changed;
    CHECK(catalog_assign_splits(c, &changed, &e) == 0);
    CHECK(catalog_commit(c, &e) == 0);
    CHECK(count(c, "SELECT count(DISTINCT family) FROM programs WHERE split = 'test-ood'") == 2);
    CHECK(count(c, "SELECT count(*) FROM programs WHERE split = 'test-ood'") == 10);
    CHECK(count(c, "SELECT count(*) FROM (SELECT family FROM programs GROUP BY family HAVING count(DISTINCT"
                   " split = 'test-ood') > 1)") == 0);
    CHECK(count(c, "SELECT count(*) FROM programs WHERE split = 'train'") > 50);
    catalog_close(c);
    free(db);
    return 0;
}
