/* End to end, through the command-line tools as a user runs them: generate
 * a subset of families, ingest into a fresh catalog, query it (stats --json,
 * list, show, check), rebuild from scratch and compare hashes, and kill a
 * build half way then finish it: same hash, no partial rows. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "tests/test.h"

#define FAMILIES "--family pb_atax --family pb_bicg"

static int have_tools(void)
{
    return access("bin/harness", X_OK) == 0 && access("bin/cudaperf-gen", X_OK) == 0;
}

static char *build(TestCtx *t, const char *tag)
{
    char *out = NULL;
    int rc = test_sh(&out,
                     "./bin/cudaperf-gen --out %s/%s/programs " FAMILIES " && "
                     "./bin/harness --catalog %s/%s/catalog.db ingest --quiet %s/%s/programs && "
                     "./bin/harness --catalog %s/%s/catalog.db catalog hash",
                     t->tmpdir, tag, t->tmpdir, tag, t->tmpdir, tag, t->tmpdir, tag);
    CHECK_MSG(rc == 0, "build %s failed:\n%s", tag, out);
    char *last = out ? strrchr(out, '\n') : NULL;
    if (last && last != out) {
        *last = '\0';
        last = strrchr(out, '\n');
    }
    char *hash = xstrdup(last ? last + 1 : (out ? out : ""));
    free(out);
    return hash;
}

TEST(e2e_cli_build_query_rebuild)
{
    if (!have_tools())
        SKIP("bin/harness or bin/cudaperf-gen missing: run `make` first");
    char *h1 = build(t, "one");
    char *h2 = build(t, "two");
    CHECK_MSG(strlen(h1) == 64 && strcmp(h1, h2) == 0, "hashes differ: %s vs %s", h1, h2);
    char *out = NULL;
    CHECK(test_sh(&out, "./bin/harness --catalog %s/one/catalog.db catalog stats --json", t->tmpdir) == 0);
    CHECK_MSG(out && strstr(out, "\"programs_by_lang\":{\"c\":") && strstr(out, "\"torch\":0") &&
                  strstr(out, "\"programs_by_split\"") && strstr(out, "\"families\"") &&
                  strstr(out, "\"min_configs_per_program\":") && strstr(out, "\"kernels_by_origin\""),
              "stats --json: %s", out);
    free(out);
    CHECK(test_sh(&out, "./bin/harness catalog list --catalog %s/one/catalog.db --family pb_atax --json",
                  t->tmpdir) == 0);
    CHECK(out && strstr(out, "\"name\":\"c/pb_atax/fused-col-f32-rect\""));
    free(out);
    CHECK(test_sh(&out, "./bin/harness --catalog %s/one/catalog.db catalog show c/pb_atax/fused-col-f32-rect", t->tmpdir) == 0);
    CHECK(out && strstr(out, "signature: atax(in f32 A[") && strstr(out, "--- source ---"));
    free(out);
    CHECK(test_sh(&out, "./bin/harness --catalog %s/one/catalog.db catalog show c/nope", t->tmpdir) == 1);
    CHECK(out && strstr(out, "no program named 'c/nope'"));
    free(out);
    CHECK(test_sh(&out, "./bin/harness --catalog %s/one/catalog.db catalog check", t->tmpdir) == 0);
    CHECK(out && strstr(out, "OK: 0 problem(s)"));
    free(out);
    /* A rerun is a no-op. */
    CHECK(test_sh(&out, "./bin/harness --catalog %s/one/catalog.db ingest --quiet %s/one/programs", t->tmpdir,
                  t->tmpdir) == 0);
    CHECK_MSG(out && strstr(out, " 0 added"), "rerun: %s", out);
    free(out);
    /* Usage errors exit 2. */
    CHECK(test_sh(NULL, "./bin/harness catalog list --split nonsense --catalog %s/one/catalog.db", t->tmpdir) == 2);
    CHECK(test_sh(NULL, "./bin/harness frobnicate") == 2);
    CHECK(test_sh(NULL, "./bin/harness --catalog %s/none.db catalog stats", t->tmpdir) == 1);
    /* Kill a build half way, finish it: same catalog as a clean build. */
    CHECK(test_sh(NULL, "./bin/cudaperf-gen --out %s/k/programs " FAMILIES, t->tmpdir) == 0);
    CHECK(test_sh(NULL,
                  "./bin/harness --catalog %s/k/catalog.db ingest --quiet --jobs 1 %s/k/programs >/dev/null 2>&1 & "
                  "pid=$!; sleep 2; kill -9 $pid; wait $pid; true",
                  t->tmpdir, t->tmpdir) == 0);
    CHECK(test_sh(&out, "./bin/harness --catalog %s/k/catalog.db catalog check", t->tmpdir) == 0);
    free(out);
    CHECK(test_sh(&out, "./bin/harness --catalog %s/k/catalog.db ingest --quiet %s/k/programs && "
                        "./bin/harness --catalog %s/k/catalog.db catalog hash",
                  t->tmpdir, t->tmpdir, t->tmpdir) == 0);
    CHECK_MSG(out && strstr(out, h1), "resumed build differs from a clean one:\n%s", out);
    free(out);
    free(h1);
    free(h2);
    return 0;
}
