/* Ingest: the fixtures in tests/data/programs cover a good program (twice,
 * renamed), three more good ones (the CPU backend's kernels run against
 * them), two degenerate ones, a crash, a hang, compile failures, a
 * signature mismatch, an unwritten output and a malformed meta.json.  Each
 * gets the right verdict and reason; a rerun changes nothing; the two
 * normalised-equal programs share a split; the catalog checks clean. */
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/ingest.h"
#include "tests/test.h"

static char *rejection_reason(Catalog *c, const char *name)
{
    sqlite3_stmt *st = NULL;
    char *out = NULL;
    sqlite3_prepare_v2(catalog_db(c), "SELECT verdict || ': ' || reason FROM rejections WHERE name = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        out = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

TEST(ingest_fixtures)
{
    char *db = xasprintf("%s/catalog.db", t->tmpdir);
    char *cache = xasprintf("%s/cache", t->tmpdir);
    Catalog *c = NULL;
    Error e;
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    if (!c)
        return -1;
    IngestOptions opt = {2, 42, cache, "contributed", 1, 0, 1.0};
    IngestSummary s;
    char *roots[] = {"tests/data/programs"};
    CHECK_MSG(ingest_paths(c, roots, 1, &opt, &s, &e) == 0, "%s", e.msg);
    CHECK_MSG(s.found == 15, "found %d", s.found);
    CHECK_MSG(s.added == 5, "added %d", s.added);
    CHECK_MSG(s.degenerate == 2, "degenerate %d", s.degenerate);
    CHECK_MSG(s.failed == 7, "failed %d", s.failed);
    CHECK_MSG(s.invalid == 1, "invalid %d", s.invalid);
    static const struct {
        const char *name, *want;
    } EXPECT[] = {
        {"c/fixtures/degenerate-constant", "degenerate: every output is constant"},
        {"c/fixtures/degenerate-independent", "degenerate: outputs do not depend on the inputs"},
        {"c/fixtures/crash-out-of-bounds", "signal 11"},
        {"c/fixtures/hang", "timed out"},
        {"c/fixtures/no-compile", "does not compile"},
        {"c/fixtures/wrong-entry", "implicit declaration of function 'axpy'"},
        {"c/fixtures/wrong-signature", "incompatible"},
        {"c/fixtures/nan-unwritten", "non-finite"},
        {"c/fixtures/wrong-order", "cudaperf_entry_"},
    };
    for (size_t i = 0; i < sizeof EXPECT / sizeof *EXPECT; i++) {
        char *r = rejection_reason(c, EXPECT[i].name);
        CHECK_MSG(r && strstr(r, EXPECT[i].want),
                  "%s: got '%s', want '%s'", EXPECT[i].name, r ? r : "(not rejected)", EXPECT[i].want);
        free(r);
    }
    /* Renamed twins share a normalised source, hence a split. */
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(catalog_db(c), "SELECT count(DISTINCT split), count(DISTINCT norm_hash), count(*) FROM programs "
                       "WHERE name LIKE 'c/fixtures/ok-axpy%'",
                       -1, &st, NULL);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK(sqlite3_column_int(st, 0) == 1 && sqlite3_column_int(st, 1) == 1 && sqlite3_column_int(st, 2) == 2);
    sqlite3_finalize(st);
    char h1[HASH_HEX_LEN + 1], h2[HASH_HEX_LEN + 1];
    CHECK(catalog_content_hash(c, h1, &e) == 0);
    /* Rerun: nothing is run again, nothing changes. */
    CHECK(ingest_paths(c, roots, 1, &opt, &s, &e) == 0);
    CHECK_MSG(s.unchanged == 14 && s.added == 0 && s.failed == 0, "rerun: unchanged %d added %d", s.unchanged, s.added);
    CHECK(catalog_content_hash(c, h2, &e) == 0);
    CHECK(strcmp(h1, h2) == 0);
    int problems = -1;
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(catalog_check(c, devnull, &problems, &e) == 0 && problems == 0);
    fclose(devnull);
    catalog_close(c);
    free(db);
    free(cache);
    return 0;
}

TEST(ingest_relative_cache_dir)
{
    /* `make dataset` passes relative paths; the sandboxed runs chdir away,
     * so the cache must be resolved first (a regression: every program was
     * rejected with "cannot open shared object file"). */
    char *db = xasprintf("%s/rel.db", t->tmpdir);
    Catalog *c = NULL;
    Error e;
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    if (!c)
        return -1;
    IngestOptions opt = {1, 42, "build/test-relative-cache", "contributed", 1, 0, 5.0};
    IngestSummary s;
    char *roots[] = {"tests/data/programs/ok-axpy"};
    CHECK_MSG(ingest_paths(c, roots, 1, &opt, &s, &e) == 0, "%s", e.msg);
    CHECK_MSG(s.added == 1 && s.failed == 0, "added %d failed %d", s.added, s.failed);
    catalog_close(c);
    free(db);
    return 0;
}
