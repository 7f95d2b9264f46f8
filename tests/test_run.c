/* test_run.c — `harness run`, `harness results` and `harness kernels` end
 * to end on the fake driver of tests/fake_cuda (no GPU needed): a program
 * folder with its reference pair and three variants is ingested, run,
 * listed, partly forgotten and resumed. */
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/results.h"
#include "tests/test.h"

/* <tmp>/progs/ok-axpy with the axpy reference pair and variants. */
static int make_folder(TestCtx *t)
{
    return test_sh(NULL,
                   "set -e; d=%s/progs/ok-axpy; mkdir -p $d/variants; "
                   "cp tests/data/programs/ok-axpy/meta.json tests/data/programs/ok-axpy/program.c $d/; "
                   "cp tests/data/kernels/axpy/kernel.cu tests/data/kernels/axpy/launch.json $d/; "
                   "for v in no-compile bad-include skip-last; do mkdir -p $d/variants/$v; "
                   "cp tests/data/kernels/axpy-$v/kernel.cu tests/data/kernels/axpy-$v/launch.json $d/variants/$v/; done; "
                   "printf '{\"defect\": \"skip-last\", \"block\": \"256\"}\\n' > $d/variants/skip-last/knobs.json",
                   t->tmpdir);
}

/* Runs SQL on the catalog directly (no sqlite3 command-line tool: the GPU
 * machine has none). */
static int sql_exec(const char *db_path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(db_path, &db) == SQLITE_OK ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_ERROR;
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

static cJSON *results_json(TestCtx *t, const char *bin, const char *db, const char *run)
{
    char *out = NULL;
    int st = test_sh(&out, "%s/harness --catalog %s results %s --json 2>/dev/null", bin, db, run);
    cJSON *j = st == 0 && out ? cJSON_Parse(out) : NULL;
    if (!j)
        test_fail(t, __FILE__, __LINE__, "harness results --json failed (%d): %s", st, out ? out : "");
    free(out);
    return j;
}

static int count_status(const cJSON *j, const char *status)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "summary"), status);
    return cJSON_IsNumber(s) ? s->valueint : 0;
}

TEST(run_fake_gpu_end_to_end)
{
    char *bin = test_bin_dir();
    char *harness = bin ? xasprintf("%s/harness", bin) : NULL;
    if (!harness || access(harness, X_OK) != 0) {
        free(bin);
        free(harness);
        SKIP("the harness binary is not next to the test runner (build both with make)");
    }
    char *so = xasprintf("%s/libcuda.so.1", t->tmpdir), *db = xasprintf("%s/cat.db", t->tmpdir);
    char *out = NULL;
    CHECK(test_sh(&out, "cc -std=c11 -O1 -shared -fPIC -o %s tests/fake_cuda/fake_libcuda.c", so) == 0);
    free(out);
    CHECK(make_folder(t) == 0);
    setenv("CUDAPERF_LIBCUDA", so, 1);
    setenv("FAKE_CUDA_MODE", "ok", 1);

    /* ingest stores the reference and three variants */
    CHECK(test_sh(&out, "%s --catalog %s ingest --quiet --cache %s/cref %s/progs", harness, db, t->tmpdir,
                  t->tmpdir) == 0);
    CHECK_MSG(out && strstr(out, "kernels: 4 added"), "ingest: %s", out ? out : "");
    free(out);
    CHECK(test_sh(&out, "%s --catalog %s kernels list c/fixtures/ok-axpy", harness, db) == 0);
    CHECK_MSG(out && strstr(out, "4 kernel(s)") && strstr(out, "skip-last"), "kernels list: %s", out ? out : "");
    free(out);

    /* a run over every kernel: references pass, compile errors are results */
    int st = test_sh(&out, "%s --catalog %s run --kernels all --configs small,edge --cache %s/cache --timing-runs 0 --trials 2 --jobs 1",
                     harness, db, t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "harness run 1: 4 kernels (0 done before), 4 evaluated"), "run: %s",
              out ? out : "");
    free(out);
    cJSON *j = results_json(t, bin, db, "1");
    if (j) {
        int n_configs = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(j, "results"))
        {
            const char *status = cJSON_GetObjectItemCaseSensitive(r, "status")->valuestring;
            const char *origin = cJSON_GetObjectItemCaseSensitive(r, "origin")->valuestring;
            if (strcmp(origin, "reference") == 0) {
                n_configs++;
                CHECK_MSG(strcmp(status, "pass") == 0, "reference: %s", status);
                CHECK(strstr(cJSON_GetObjectItemCaseSensitive(r, "device")->valuestring, "0: ") != NULL);
                /* the C reference's own time on one core is stored with every passing result */
                const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(r, "reference_cpu_ms");
                CHECK_MSG(cJSON_IsNumber(cpu) && cpu->valuedouble > 0 && cpu->valuedouble < 5000,
                          "reference_cpu_ms: %s", cJSON_IsNumber(cpu) ? "out of range" : "missing");
            }
        }
        CHECK(n_configs >= 2);
        CHECK_MSG(count_status(j, "compile_error") == 2 * n_configs, "compile errors: %d",
                  count_status(j, "compile_error"));
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "finished") == 0);
        CHECK(cJSON_GetObjectItemCaseSensitive(j, "gpu")->valuestring != NULL);
        cJSON_Delete(j);
    }

    /* forget two kernels' results, as if the run had been killed: resume
     * evaluates exactly those again, with the run's own options (2 trials,
     * no timing) whatever the resuming command line says */
    CHECK(sql_exec(db, "DELETE FROM results WHERE kernel_id IN (1, 4); UPDATE runs SET status = 'interrupted'") == 0);
    st = test_sh(&out, "%s --catalog %s run --resume 1 --cache %s/cache --trials 5 --jobs 0", harness, db,
                 t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "4 kernels (2 done before), 2 evaluated"), "resume: %s", out ? out : "");
    free(out);
    j = results_json(t, bin, db, "1");
    if (j) {
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "finished") == 0);
        CHECK(count_status(j, "pass") >= 4);
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(j, "results"))
        {
            const cJSON *tr = cJSON_GetObjectItemCaseSensitive(r, "trials");
            const cJSON *tm = cJSON_GetObjectItemCaseSensitive(r, "time_median_ms");
            if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "status")->valuestring, "pass") == 0)
                CHECK_MSG(cJSON_IsNumber(tr) && tr->valueint == 2 && (!tm || cJSON_IsNull(tm)),
                          "a resumed result has %d trials and a time: the run's options were not kept",
                          cJSON_IsNumber(tr) ? tr->valueint : -1);
        }
        cJSON_Delete(j);
    }

    /* the fake imitates a kernel that skips its last element */
    setenv("FAKE_CUDA_MODE", "skip_last", 1);
    st = test_sh(&out, "%s --catalog %s run --kernels reference --configs small --cache %s/cache --timing-runs 0 --jobs 0", harness,
                 db, t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "0 pass, 1 fail"), "skip_last run: %s", out ? out : "");
    free(out);
    CHECK(test_sh(&out, "%s --catalog %s results 2 --status wrong_result", harness, db) == 0);
    CHECK_MSG(out && strstr(out, "outside tolerance") && strstr(out, "wrong_result"), "results: %s", out ? out : "");
    free(out);

    /* --sample spreads a few kernels over the selection; --skip-configs
     * never runs the named configs, and both survive into the stored run */
    unsetenv("FAKE_CUDA_MODE");
    st = test_sh(&out, "%s --catalog %s run --kernels all --sample 2 --skip-configs edge,large --cache %s/cache "
                       "--timing-runs 0 --jobs 0", harness, db, t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "2 kernels (0 done before)"), "sample run: %s", out ? out : "");
    free(out);
    j = results_json(t, bin, db, "3");
    if (j) {
        const cJSON *r;
        int edge = 0, n = 0;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(j, "results")) {
            const char *cfg = cJSON_GetObjectItemCaseSensitive(r, "config")->valuestring;
            n++;
            edge += strcmp(cfg, "edge") == 0 || strcmp(cfg, "large") == 0;
        }
        CHECK_MSG(n >= 2 && edge == 0, "sampled results: %d, edge: %d", n, edge);
        cJSON_Delete(j);
    }

    /* without a GPU the run says so and points to the CPU backend */
    setenv("FAKE_CUDA_MODE", "nodevice", 1);
    st = test_sh(&out, "%s --catalog %s run --cache %s/cache", harness, db, t->tmpdir);
    CHECK_MSG(st == 1 && out && strstr(out, "no usable GPU") && strstr(out, "--backend cpu"), "no GPU: %s",
              out ? out : "");
    free(out);
    /* bad usage */
    CHECK(test_sh(NULL, "%s --catalog %s run --split nosuch", harness, db) == 2);
    CHECK(test_sh(&out, "%s --catalog %s results 99", harness, db) == 1);
    CHECK_MSG(out && strstr(out, "no run 99"), "%s", out ? out : "");
    free(out);

    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    free(so);
    free(db);
    free(bin);
    free(harness);
    return 0;
}

/* A job split into two shards on two copies of the catalog, merged back:
 * every (kernel, config) result exactly once, in one finished run; merging
 * again stores nothing; one shard alone is an interrupted run that names
 * the missing shard; a file that is not a catalog is refused by name. */
TEST(run_shards_and_merge)
{
    char *bin = test_bin_dir();
    char *harness = bin ? xasprintf("%s/harness", bin) : NULL;
    if (!harness || access(harness, X_OK) != 0) {
        free(bin);
        free(harness);
        SKIP("the harness binary is not next to the test runner (build both with make)");
    }
    char *so = xasprintf("%s/libcuda.so.1", t->tmpdir), *out = NULL;
    const char *d = t->tmpdir;
    CHECK(test_sh(&out, "cc -std=c11 -O1 -shared -fPIC -o %s tests/fake_cuda/fake_libcuda.c", so) == 0);
    free(out);
    CHECK(make_folder(t) == 0);
    CHECK(test_sh(NULL, "set -e; p=%s/progs/scale-f16; mkdir -p $p; cp tests/data/programs/scale-f16/* $p/; "
                        "cp tests/data/kernels/cpu-half-scale/kernel.cu tests/data/kernels/cpu-half-scale/launch.json $p/",
                  d) == 0);
    setenv("CUDAPERF_LIBCUDA", so, 1);
    setenv("FAKE_CUDA_MODE", "ok", 1);
    CHECK(test_sh(&out, "%s --catalog %s/cat.db ingest --quiet --cache %s/cref %s/progs", harness, d, d, d) == 0);
    CHECK_MSG(out && strstr(out, "kernels: 5 added"), "ingest: %s", out ? out : "");
    free(out);
    CHECK(test_sh(NULL, "cp %s/cat.db %s/s0.db && cp %s/cat.db %s/s1.db && cp %s/cat.db %s/lone.db", d, d, d, d, d, d) ==
          0);
    for (int i = 0; i < 2; i++) {
        int st = test_sh(&out, "%s --catalog %s/s%d.db run --kernels all --configs small --shard %d/2 --trials 1 "
                               "--timing-runs 0 --jobs 0 --cache %s/cache",
                         harness, d, i, i, d);
        CHECK_MSG(st == 0 && out && strstr(out, i == 0 ? "4 kernels (0 done before)" : "1 kernels (0 done before)"),
                  "shard %d: %s", i, out ? out : "");
        free(out);
    }
    /* whole programs: of the two, the first (4 kernels) */
    CHECK(test_sh(NULL, "cp %s/cat.db %s/sp.db", d, d) == 0);
    int st = test_sh(&out, "%s --catalog %s/sp.db run --kernels all --configs small --sample-programs 1 --trials 1 "
                           "--timing-runs 0 --jobs 0 --cache %s/cache",
                     harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "4 kernels (0 done before)"), "sample-programs: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "%s --catalog %s/cat.db merge %s/s0.db %s/s1.db", harness, d, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "2 source run(s) (shards of one job), 5 results, finished"), "merge: %s",
              out ? out : "");
    free(out);
    char *db = xasprintf("%s/cat.db", d);
    cJSON *j = results_json(t, bin, db, "1");
    free(db);
    if (j) {
        int n = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(j, "results")) n++;
        CHECK_MSG(n == 5, "%d merged results", n);
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "finished") == 0);
        cJSON_Delete(j);
    }
    /* again: nothing new */
    st = test_sh(&out, "%s --catalog %s/cat.db merge %s/s0.db %s/s1.db", harness, d, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "0 run(s) stored with 0 results, 1 merged before"), "again: %s",
              out ? out : "");
    free(out);
    /* one shard alone */
    st = test_sh(&out, "%s --catalog %s/lone.db merge %s/s0.db", harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "interrupted; shards missing or repeated: 1/2"), "lone: %s",
              out ? out : "");
    free(out);
    /* not a catalog: named, nothing stored */
    CHECK(test_sh(NULL, "echo nonsense > %s/bad.db", d) == 0);
    st = test_sh(&out, "%s --catalog %s/lone.db merge %s/s1.db %s/bad.db", harness, d, d, d);
    CHECK_MSG(st == 1 && out && strstr(out, "bad.db"), "bad source: %s", out ? out : "");
    free(out);
    CHECK(test_sh(NULL, "%s --catalog %s/cat.db run --shard 2/2", harness, d) == 2);
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    free(so);
    free(bin);
    free(harness);
    return 0;
}

/* The first text column of the first row of sql on the catalog, from
 * malloc(); NULL when there is none. */
static char *sql_text(const char *db_path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *out = NULL;
    if (sqlite3_open(db_path, &db) == SQLITE_OK && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        out = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

/* The error stored for kernel `kernel` in run `run` (config small). */
static char *stored_error(const char *db, int run, const char *kernel)
{
    char *sql = xasprintf("SELECT r.status || ': ' || coalesce(r.error, '') FROM results r JOIN configs c ON c.id = "
                          "r.config_id WHERE r.run_id = %d AND r.kernel_id = %s AND c.name = 'small'",
                          run, kernel);
    char *text = sql_text(db, sql);
    free(sql);
    return text;
}

/* The default deadline follows the reference (deadline.h).  A variant that
 * hangs (the fake hangs 128-thread blocks only, the reference has 256)
 * times out after 10x the reference's time + 1 s: the reference's time
 * measured just before in the same worker, then, in a resumed run and in
 * `harness eval`, the catalog's stored figure for this GPU's name (none for
 * another GPU).  --timeout stays a fixed deadline; the run stores "auto" or
 * the number, and a resumed "auto" run keeps its rule whatever the
 * resuming command line says.  The fake's event times are 0.001 ms, so
 * each hang costs about a second. */
TEST(run_fake_gpu_adaptive_deadline)
{
    char *bin = test_bin_dir();
    char *harness = bin ? xasprintf("%s/harness", bin) : NULL;
    if (!harness || access(harness, X_OK) != 0) {
        free(bin);
        free(harness);
        SKIP("the harness binary is not next to the test runner (build both with make)");
    }
    const char *d = t->tmpdir;
    char *so = xasprintf("%s/libcuda.so.1", d), *db = xasprintf("%s/cat.db", d), *out = NULL;
    CHECK(test_sh(&out, "cc -std=c11 -O1 -shared -fPIC -o %s tests/fake_cuda/fake_libcuda.c", so) == 0);
    free(out);
    CHECK(test_sh(NULL,
                  "set -e; p=%s/progs/ok-axpy; mkdir -p $p/variants/hang; "
                  "cp tests/data/programs/ok-axpy/meta.json tests/data/programs/ok-axpy/program.c $p/; "
                  "cp tests/data/kernels/axpy/kernel.cu tests/data/kernels/axpy/launch.json $p/; "
                  "cp tests/data/kernels/axpy-hang/kernel.cu $p/variants/hang/; "
                  "sed 's/255/127/g; s/256/128/g' tests/data/kernels/axpy-hang/launch.json > $p/variants/hang/launch.json",
                  d) == 0);
    setenv("CUDAPERF_LIBCUDA", so, 1);
    setenv("FAKE_CUDA_MODE", "hang", 1);
    setenv("FAKE_CUDA_HANG_BLOCK", "128", 1);
    CHECK(test_sh(&out, "%s --catalog %s ingest --quiet --cache %s/cref %s/progs", harness, db, d, d) == 0);
    free(out);
    char *ref = sql_text(db, "SELECT id FROM kernels WHERE origin = 'reference'");
    char *hang = sql_text(db, "SELECT id FROM kernels WHERE origin = 'variant'");
    CHECK(ref && hang);
    if (!ref || !hang)
        goto done;

    /* the reference runs first and measures itself; the variant's deadline follows */
    const char *common = "--configs small --trials 1 --timing-runs 0 --jobs 0";
    int st = test_sh(&out, "%s --catalog %s run --kernels all %s --cache %s/cache", harness, db, common, d);
    CHECK_MSG(st == 0 && out && strstr(out, "2 evaluated: 1 pass, 1 fail"), "run: %s", out ? out : "");
    free(out);
    char *err = stored_error(db, 1, hang);
    CHECK_MSG(err && strstr(err, "timeout: ") && strstr(err, "did not finish within 1.000 s") &&
                  strstr(err, "deadline 1.000 s = 10x the reference's 0.001 ms (run in this session) + 1 s"),
              "run 1: %s", err ? err : "(none)");
    free(err);
    char *opt = sql_text(db, "SELECT json_extract(options, '$.timeout_s') FROM runs WHERE id = 1");
    CHECK_MSG(opt && strcmp(opt, "auto") == 0, "run 1 stored timeout_s %s", opt ? opt : "(none)");
    free(opt);

    /* a stored figure of this GPU counts, another GPU's does not */
    CHECK(sql_exec(db, "UPDATE results SET time_median_ms = 10 WHERE kernel_id IN "
                       "(SELECT id FROM kernels WHERE origin = 'reference')") == 0);
    Catalog *c = NULL;
    Error e;
    CHECK_MSG(catalog_open(db, 0, &c, &e) == 0, "%s", e.msg);
    if (c) {
        RefTimes *rt = ref_times_new();
        RefTimeSource src;
        CHECK(results_reference_times(c, "c/fixtures/ok-axpy", "Other GPU", rt, &e) == 0);
        CHECK(isnan(ref_times_get(rt, "c/fixtures/ok-axpy", "small", &src)) && src == REF_TIME_NONE);
        CHECK(results_reference_times(c, "c/fixtures/ok-axpy", "Fake GPU", rt, &e) == 0);
        CHECK(ref_times_get(rt, "c/fixtures/ok-axpy", "small", &src) == 10 && src == REF_TIME_CATALOG);
        ref_times_free(rt);
        catalog_close(c);
    }

    /* resumed: "auto" is kept over the command line's --timeout, and the
     * reference is done, so the stored figure sets the deadline */
    char *forget = xasprintf("DELETE FROM results WHERE run_id = 1 AND kernel_id = %s; "
                             "UPDATE runs SET status = 'interrupted' WHERE id = 1", hang);
    CHECK(sql_exec(db, forget) == 0);
    free(forget);
    st = test_sh(&out, "%s --catalog %s run --resume 1 --timeout 0.5 --jobs 0 --cache %s/cache", harness, db, d);
    CHECK_MSG(st == 0 && out && strstr(out, "2 kernels (1 done before), 1 evaluated"), "resume: %s", out ? out : "");
    free(out);
    err = stored_error(db, 1, hang);
    CHECK_MSG(err && strstr(err, "did not finish within 1.100 s") &&
                  strstr(err, "deadline 1.100 s = 10x the reference's 10 ms (stored result) + 1 s"),
              "resumed: %s", err ? err : "(none)");
    free(err);

    /* harness eval reads the same stored figure */
    st = test_sh(&out, "%s --catalog %s eval c/fixtures/ok-axpy %s/progs/ok-axpy/variants/hang/kernel.cu "
                       "%s/progs/ok-axpy/variants/hang/launch.json --configs small --trials 1 --timing-runs 0 --json",
                 harness, db, d, d);
    cJSON *j = out ? cJSON_Parse(out) : NULL;
    const cJSON *cfg = j ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "configs"), 0) : NULL;
    const cJSON *dl = cJSON_GetObjectItemCaseSensitive(cfg, "deadline");
    const cJSON *dls = cJSON_GetObjectItemCaseSensitive(cfg, "deadline_s");
    CHECK_MSG(st == 1 && cJSON_IsString(dl) && strstr(dl->valuestring, "(stored result)") && cJSON_IsNumber(dls) &&
                  fabs(dls->valuedouble - 1.1) < 1e-9,
              "eval: %s", out ? out : "");
    cJSON_Delete(j);
    free(out);

    /* --timeout: a fixed deadline, stored as given */
    char *only = xasprintf("--kernels %s", hang);
    st = test_sh(&out, "%s --catalog %s run %s %s --timeout 0.5 --cache %s/cache", harness, db, only, common, d);
    CHECK_MSG(st == 0 && out && strstr(out, "harness run 2:"), "fixed: %s", out ? out : "");
    free(out);
    free(only);
    err = stored_error(db, 2, hang);
    CHECK_MSG(err && strstr(err, "did not finish within 0.500 s") && strstr(err, "deadline 0.500 s, fixed"),
              "run 2: %s", err ? err : "(none)");
    free(err);
    opt = sql_text(db, "SELECT json_extract(options, '$.timeout_s') FROM runs WHERE id = 2");
    CHECK_MSG(opt && atof(opt) == 0.5, "run 2 stored timeout_s %s", opt ? opt : "(none)");
    free(opt);
done:
    unsetenv("FAKE_CUDA_HANG_BLOCK");
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    free(ref);
    free(hang);
    free(so);
    free(db);
    free(bin);
    free(harness);
    return 0;
}

/* The harness next to the test runner (from malloc(); the caller frees),
 * with the fake driver built into <tmpdir>/libcuda.so.1; NULL when the
 * harness is missing or the fake does not build. */
static char *fake_gpu_harness(TestCtx *t)
{
    char *bin = test_bin_dir();
    char *harness = bin ? xasprintf("%s/harness", bin) : NULL;
    free(bin);
    if (harness && access(harness, X_OK) == 0 &&
        test_sh(NULL, "cc -std=c11 -O1 -shared -fPIC -o %s/libcuda.so.1 tests/fake_cuda/fake_libcuda.c", t->tmpdir) == 0)
        return harness;
    free(harness);
    return NULL;
}

/* Turns the fake driver (built by fake_gpu_harness) on in "ok" mode and
 * ingests the folder of make_folder into <tmpdir>/cat.db; 0 on success.
 * The caller unsets FAKE_CUDA_MODE and CUDAPERF_LIBCUDA when done. */
static int ingest_under_fake_driver(TestCtx *t, const char *harness)
{
    const char *d = t->tmpdir;
    char *so = xasprintf("%s/libcuda.so.1", d);
    setenv("CUDAPERF_LIBCUDA", so, 1);
    free(so);
    setenv("FAKE_CUDA_MODE", "ok", 1);
    return test_sh(NULL, "%s --catalog %s/cat.db ingest --quiet --cache %s/cref %s/progs", harness, d, d, d);
}

/* Undoes the environment of the fake driver (ingest_under_fake_driver and
 * the tests that set it themselves). */
static void fake_driver_off(void)
{
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
}

/* `harness eval` runs a torch program's "large" config by default on the GPU
 * (its reference runs there too), not with the CPU backend. */
TEST(eval_torch_default_configs)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    /* the fixture with a large config small enough for CPU torch */
    CHECK(test_sh(NULL, "set -e; cp -r tests/data/torch/linear-relu %s/lr; cd %s/lr; "
                        "sed -i 's/\"B\": 4096, \"IN\": 4096, \"OUT\": 4096/\"B\": 16, \"IN\": 64, \"OUT\": 32/' meta.json; "
                        "grep -q '\"IN\": 64' meta.json",
                  d, d) == 0);
    int st = test_sh(&out, "CUDAPERF_LIBCUDA=%s/libcuda.so.1 FAKE_CUDA_MODE=ok %s eval %s/lr --trials 1 --timing-runs 0 "
                           "--cache %s/cache 2>&1 | grep -E '^(small|edge|edge-odd|large) ' | cut -d' ' -f1",
                     d, harness, d, d);
    CHECK_MSG(st == 0 && out && strcmp(out, "small\nedge\nedge-odd\nlarge\n") == 0, "GPU backend configs: %s",
              out ? out : "");
    free(out);
    st = test_sh(&out, "%s eval %s/lr --backend cpu --trials 1 --cache %s/cache 2>&1 | "
                       "grep -E '^(small|edge|edge-odd|large) ' | cut -d' ' -f1",
                 harness, d, d);
    CHECK_MSG(st == 0 && out && strcmp(out, "small\nedge\nedge-odd\n") == 0, "CPU backend configs: %s", out ? out : "");
    free(out);
    free(harness);
    return 0;
}

/* `--kernels contenders`: the reference and the variants not planted to
 * fail; a variant whose knobs expect "fail" is left out, and a resumed run
 * keeps the selection. */
TEST(run_kernels_contenders)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    CHECK(make_folder(t) == 0);
    CHECK(test_sh(NULL,
                  "printf '{\"defect\": \"skip-last\", \"expect\": \"fail\"}\\n' > %s/progs/ok-axpy/variants/skip-last/knobs.json; "
                  "printf '{\"derived\": \"no-compile\", \"expect\": \"slower\"}\\n' > %s/progs/ok-axpy/variants/no-compile/knobs.json",
                  d, d) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    int st = test_sh(&out, "%s --catalog %s/cat.db run --kernels contenders --configs small --timing-runs 0 --trials 1 "
                           "--jobs 0 --cache %s/cache",
                     harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "3 kernels (0 done before)"), "contenders: %s", out ? out : "");
    free(out);
    test_sh(&out, "%s --catalog %s/cat.db results 1 --json | grep -c '\"defect\":.*\"skip-last\"'", harness, d);
    CHECK_MSG(out && atoi(out) == 0, "the fail-expected variant ran: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "%s --catalog %s/cat.db run --resume 1 --jobs 0 --cache %s/cache", harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "3 kernels (3 done before)"), "resume: %s", out ? out : "");
    free(out);
    fake_driver_off();
    free(harness);
    return 0;
}

/* A run on the CPU backend resumes on the CPU backend when --resume is all
 * the command line says (device run 32 lost its CPU side to a refusal that
 * asked for --backend cpu again); asking for the other backend is refused. */
TEST(run_resume_keeps_the_cpu_backend)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    CHECK(make_folder(t) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    fake_driver_off();
    int st = test_sh(&out, "%s --catalog %s/cat.db run --backend cpu --kernels reference --configs small --trials 1 "
                           "--per-gpu 1 --cache %s/cache",
                     harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "1 kernels (0 done before), 1 evaluated"), "run: %s", out ? out : "");
    free(out);
    char *db = xasprintf("%s/cat.db", d);
    CHECK(sql_exec(db, "DELETE FROM results; UPDATE runs SET status = 'interrupted'") == 0);
    free(db);
    st = test_sh(&out, "%s --catalog %s/cat.db run --resume 1 --backend gpu --cache %s/cache 2>&1", harness, d, d);
    /* refused: "ran on the cpu backend" where a GPU is, "no usable GPU" here */
    CHECK_MSG(st != 0 && out && strstr(out, "--backend cpu"), "resume on the other backend: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "%s --catalog %s/cat.db run --resume 1 --per-gpu 1 --cache %s/cache", harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "1 kernels (0 done before), 1 evaluated: 1 pass"), "resume: %s",
              out ? out : "");
    free(out);
    free(harness);
    return 0;
}

/* The status, reference_kind and error of kernel `kernel` (SQL giving its
 * id) on config `config` in run `run`, "status|kind|error", from malloc(). */
static char *golden_row(const char *db, int run, const char *kernel, const char *config)
{
    char *sql = xasprintf("SELECT r.status || '|' || coalesce(r.reference_kind, '') || '|' || coalesce(r.error, '')"
                          " FROM results r JOIN configs c ON c.id = r.config_id WHERE r.run_id = %d AND"
                          " r.kernel_id = (%s) AND c.name = '%s'",
                          run, kernel, config);
    char *text = sql_text(db, sql);
    free(sql);
    return text;
}

#define GOLDEN_REF "SELECT id FROM kernels WHERE origin = 'reference'"
#define GOLDEN_SKIP_LAST "SELECT id FROM kernels WHERE defect = 'skip-last'"
/* A budget under ok-axpy's small config (2000 flops, 12000 bytes) and
 * over its edge configs (n = 1 and 97): small takes golden outputs. */
#define GOLDEN_RUN "run --backend cpu --per-gpu 1 --trials 2 --reference-budget 1000,10000"

/* Golden outputs beyond the C reference's budget (golden.h) on the CPU
 * backend: refused (skipped, with the reason) before the reference CUDA
 * implementation has passed the configs within the budget; in a run with
 * the reference first, the reference is checked against a second execution
 * of itself and a wrong variant fails against its outputs; a later run
 * takes the reference's stored passes; a stored failure of the reference
 * refuses them again; --configs runs the C reference whatever the cost. */
TEST(run_golden_outputs_cpu_backend)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL, *row = NULL, *db = xasprintf("%s/cat.db", d);
    CHECK(make_folder(t) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    fake_driver_off();

    /* 1: the variants alone, the reference never run: small is skipped */
    int st = test_sh(&out, "%s --catalog %s " GOLDEN_RUN " --kernels variants --cache %s/cache", harness, db, d);
    CHECK_MSG(st == 0 && out && strstr(out, "3 evaluated"), "run 1: %s", out ? out : "");
    free(out);
    row = golden_row(db, 1, GOLDEN_SKIP_LAST, "small");
    CHECK_MSG(row && strncmp(row, "skipped|", 8) == 0 && strstr(row, "beyond the C reference's budget") &&
                  strstr(row, "has not yet passed every config within the budget on the cpu backend") &&
                  strstr(row, "run the reference first"),
              "run 1, skip-last small: %s", row ? row : "(none)");
    free(row);
    row = golden_row(db, 1, GOLDEN_SKIP_LAST, "edge");
    CHECK_MSG(row && strncmp(row, "wrong_result|cpu|", 17) == 0, "run 1, skip-last edge: %s", row ? row : "(none)");
    free(row);
    char *opt = sql_text(db, "SELECT json_extract(options, '$.reference_budget') FROM runs WHERE id = 1");
    CHECK_MSG(opt && strcmp(opt, "1000,10000") == 0, "run 1 stored reference_budget %s", opt ? opt : "(none)");
    free(opt);

    /* 2: every kernel, the reference first: it passes small against a
     * second execution of itself, and skip-last fails there */
    st = test_sh(&out, "%s --catalog %s " GOLDEN_RUN " --kernels all --cache %s/cache", harness, db, d);
    CHECK_MSG(st == 0 && out && strstr(out, "4 evaluated: 1 pass, 3 fail"), "run 2: %s", out ? out : "");
    free(out);
    row = golden_row(db, 2, GOLDEN_REF, "small");
    CHECK_MSG(row && strcmp(row, "pass|cuda-reference|") == 0, "run 2, reference small: %s", row ? row : "(none)");
    free(row);
    row = golden_row(db, 2, GOLDEN_REF, "edge-prime");
    CHECK_MSG(row && strcmp(row, "pass|cpu|") == 0, "run 2, reference edge-prime: %s", row ? row : "(none)");
    free(row);
    row = golden_row(db, 2, GOLDEN_SKIP_LAST, "small");
    CHECK_MSG(row && strncmp(row, "wrong_result|cuda-reference|'y': 1 of 1000 elements outside tolerance", 69) == 0,
              "run 2, skip-last small: %s", row ? row : "(none)");
    free(row);
    row = golden_row(db, 2, GOLDEN_REF, "large");
    CHECK_MSG(row && strstr(row, "beyond what the CPU backend runs by default"), "run 2, large: %s",
              row ? row : "(none)");
    free(row);

    /* 3: the variants again: the reference's stored passes allow them */
    st = test_sh(&out, "%s --catalog %s " GOLDEN_RUN " --kernels variants --cache %s/cache", harness, db, d);
    CHECK_MSG(st == 0, "run 3: %s", out ? out : "");
    free(out);
    row = golden_row(db, 3, GOLDEN_SKIP_LAST, "small");
    CHECK_MSG(row && strncmp(row, "wrong_result|cuda-reference|", 28) == 0, "run 3, skip-last small: %s",
              row ? row : "(none)");
    free(row);

    /* 4: the reference's latest verdict on a config within the budget is a
     * failure: refused again, saying which */
    CHECK(sql_exec(db, "UPDATE results SET status = 'wrong_result' WHERE run_id = 2 AND kernel_id = (" GOLDEN_REF
                       ") AND config_id = (SELECT id FROM configs WHERE name = 'edge-prime')") == 0);
    st = test_sh(&out, "%s --catalog %s " GOLDEN_RUN " --kernels variants --cache %s/cache", harness, db, d);
    CHECK_MSG(st == 0, "run 4: %s", out ? out : "");
    free(out);
    row = golden_row(db, 4, GOLDEN_SKIP_LAST, "small");
    CHECK_MSG(row && strncmp(row, "skipped|", 8) == 0 &&
                  strstr(row, "its latest result on config 'edge-prime', run 2 on the cpu backend, is wrong_result"),
              "run 4, skip-last small: %s", row ? row : "(none)");
    free(row);

    /* 5: named, small is checked against the C reference whatever it costs */
    st = test_sh(&out, "%s --catalog %s " GOLDEN_RUN " --kernels variants --configs small --cache %s/cache", harness,
                 db, d);
    CHECK_MSG(st == 0, "run 5: %s", out ? out : "");
    free(out);
    row = golden_row(db, 5, GOLDEN_SKIP_LAST, "small");
    CHECK_MSG(row && strncmp(row, "wrong_result|cpu|", 17) == 0, "run 5, skip-last small: %s", row ? row : "(none)");
    free(row);

    /* a resumed run keeps its budget and refuses another */
    CHECK(test_sh(NULL, "%s --catalog %s run --resume 1 --reference-budget 1,1 --cache %s/cache", harness, db, d) == 2);
    CHECK(test_sh(NULL, "%s --catalog %s run --backend cpu --reference-budget 0,5", harness, db) == 2);
    free(db);
    free(harness);
    return 0;
}

/* The same through the GPU worker (the fake driver of tests/fake_cuda):
 * the reference's image takes module slot 0 for the golden execution and
 * the candidate's comes back for its own, and the golden config is the
 * timed one (the most bytes), with the reference as its baseline. */
TEST(run_golden_outputs_fake_gpu)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL, *row = NULL, *db = xasprintf("%s/cat.db", d);
    CHECK(make_folder(t) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    int st = test_sh(&out, "%s --catalog %s run --kernels all --skip-configs large --trials 2 --timing-runs 3 --jobs 0 "
                           "--reference-budget 1000,10000 --cache %s/cache",
                     harness, db, d);
    CHECK_MSG(st == 0 && out && strstr(out, "4 evaluated"), "run: %s", out ? out : "");
    free(out);
    row = golden_row(db, 1, GOLDEN_REF, "small");
    CHECK_MSG(row && strcmp(row, "pass|cuda-reference|") == 0, "reference small: %s", row ? row : "(none)");
    free(row);
    row = sql_text(db, "SELECT r.status || ' ' || r.reference_kind || ' ' || (r.time_median_ms > 0) || ' ' || "
                       "r.baseline_kind FROM results r JOIN configs c ON c.id = r.config_id WHERE c.name = 'small' "
                       "AND r.kernel_id = (" GOLDEN_SKIP_LAST ")");
    /* the fake runs a correct axpy whatever the source: the variant passes */
    CHECK_MSG(row && strcmp(row, "pass cuda-reference 1 reference-cuda") == 0, "skip-last small: %s",
              row ? row : "(none)");
    free(row);
    /* `harness results` counts the verdicts by the reference they were checked against */
    st = test_sh(&out, "%s --catalog %s results 1 --summary 2>&1", harness, db);
    CHECK_MSG(st == 0 && out && strstr(out, "checked against:") && strstr(out, "cuda-reference "), "results: %s",
              out ? out : "");
    free(out);
    st = test_sh(&out, "%s --catalog %s results 1 --json --summary 2>&1", harness, db);
    cJSON *j = st == 0 && out ? cJSON_Parse(out) : NULL;
    const cJSON *golden =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "checked_against"), "cuda-reference");
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "checked_against"), "cpu");
    CHECK_MSG(cJSON_IsNumber(golden) && golden->valueint >= 2 && cJSON_IsNumber(cpu) && cpu->valueint >= 1,
              "checked_against: %s", out ? out : "");
    cJSON_Delete(j);
    free(out);
    fake_driver_off();
    free(db);
    free(harness);
    return 0;
}

/* `harness eval` checks the configs beyond the C reference's budget against
 * golden outputs where the catalog allows it (the reference's stored
 * passes on the same backend): a wrong variant fails there; a reference
 * that fails a config within the budget gets none for itself (skipped,
 * with the reason); the reference's own failure on the golden config is a
 * reference_error of the candidate. */
TEST(eval_golden_outputs)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL, *db = xasprintf("%s/cat.db", d);
    CHECK(make_folder(t) == 0);
    /* a second program whose reference writes one element past y */
    CHECK(test_sh(NULL, "set -e; p=%s/progs/oob-axpy; mkdir -p $p; "
                        "sed 's#c/fixtures/ok-axpy#c/fixtures/oob-axpy#' tests/data/programs/ok-axpy/meta.json > $p/meta.json; "
                        "cp tests/data/programs/ok-axpy/program.c $p/; "
                        "cp tests/data/kernels/axpy-oob-near/kernel.cu tests/data/kernels/axpy-oob-near/launch.json $p/",
                  d) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    fake_driver_off();
    const char *eval = "eval --backend cpu --trials 2 --reference-budget 1000,10000 --json";
    const char *pick = "python3 -c \"import json,sys; j=json.load(sys.stdin); "
                       "print(' '.join(c['name']+':'+c['status']+':'+c.get('reference_kind','') for c in j['configs']))\"";

    /* before the reference ran: small is left out, and why */
    char *skip_last = xasprintf("%s/progs/ok-axpy/variants/skip-last/kernel.cu %s/progs/ok-axpy/variants/skip-last/"
                                "launch.json --cache %s/cache",
                                d, d, d);
    int st = test_sh(&out, "%s --catalog %s %s c/fixtures/ok-axpy %s | "
                           "python3 -c \"import json,sys; print(json.load(sys.stdin)['skipped'][0]['reason'])\"",
                     harness, db, eval, skip_last);
    CHECK_MSG(out && strstr(out, "config 'small'") && strstr(out, "run the reference first"), "before: %d %s", st,
              out ? out : "");
    free(out);
    /* the reference runs on the configs within the budget; then skip-last fails small against it */
    st = test_sh(&out, "%s --catalog %s run --backend cpu --per-gpu 1 --trials 1 --configs edge,edge-prime "
                       "--program c/fixtures/ok-axpy --cache %s/cache",
                 harness, db, d);
    CHECK_MSG(st == 0 && out && strstr(out, "1 pass, 0 fail"), "reference run: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "%s --catalog %s %s c/fixtures/ok-axpy %s | %s", harness, db, eval, skip_last, pick);
    CHECK_MSG(out && strcmp(out, "small:wrong_result:cuda-reference edge:wrong_result:cpu "
                                 "edge-prime:wrong_result:cpu\n") == 0,
              "skip-last: %s", out ? out : "");
    free(out);
    /* the reference itself, from its folder: against a second execution of itself */
    st = test_sh(&out, "%s --catalog %s %s %s/progs/ok-axpy --cache %s/cache | %s", harness, db, eval, d, d, pick);
    CHECK_MSG(st == 0 && out && strcmp(out, "small:pass:cuda-reference edge:pass:cpu edge-prime:pass:cpu\n") == 0,
              "reference: %d %s", st, out ? out : "");
    free(out);
    /* a reference that fails within the budget gives itself no golden outputs */
    CHECK(test_sh(NULL, "set -e; mkdir -p %s/bad; cp %s/progs/ok-axpy/meta.json %s/progs/ok-axpy/program.c %s/bad/; "
                        "cp tests/data/kernels/axpy-skip-last/kernel.cu tests/data/kernels/axpy-skip-last/launch.json %s/bad/",
                  d, d, d, d, d) == 0);
    st = test_sh(&out, "%s --catalog %s %s %s/bad --cache %s/cache | python3 -c \"import json,sys; "
                       "print([c['message'] for c in json.load(sys.stdin)['configs'] if c['status'] == 'skipped'][0])\"",
                 harness, db, eval, d, d);
    CHECK_MSG(out && strstr(out, "did not pass config 'edge' here (wrong_result)"), "bad reference: %s",
              out ? out : "");
    free(out);
    /* the stored passes of oob-axpy's reference (as if the guards had
     * missed its write) allow golden outputs, but its execution writes out
     * of bounds: a reference_error of the correct candidate */
    CHECK(sql_exec(db, "INSERT INTO results (run_id, kernel_id, config_id, status, reference_kind, created_at) "
                       "SELECT 1, k.id, c.id, 'pass', 'cpu', '2026-01-01T00:00:00Z' FROM kernels k "
                       "JOIN programs p ON p.id = k.program_id JOIN configs c ON c.program_id = p.id "
                       "WHERE p.name = 'c/fixtures/oob-axpy' AND k.origin = 'reference' AND c.name LIKE 'edge%'") == 0);
    st = test_sh(&out, "%s --catalog %s %s c/fixtures/oob-axpy %s/progs/ok-axpy/kernel.cu %s/progs/ok-axpy/launch.json "
                       "--cache %s/cache | python3 -c \"import json,sys; "
                       "c=json.load(sys.stdin)['configs'][0]; print(c['name'], c['status'], c['message'])\"",
                 harness, db, eval, d, d, d);
    CHECK_MSG(out && strstr(out, "small reference_error no golden outputs: the reference CUDA implementation failed") &&
                  strstr(out, "wrote out of bounds"),
              "oob reference: %s", out ? out : "");
    free(out);
    free(skip_last);
    free(db);
    free(harness);
    return 0;
}

/* `harness profile` measures a program's kernels one after another on one
 * config's inputs, drawn once (the session keeps them): each kernel that
 * compiles is measured, each one that does not says so. */
TEST(profile_kernels_of_one_program)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    CHECK(make_folder(t) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    int st = test_sh(&out, "%s --catalog %s/cat.db profile --kernels all --config small --occupancy-only --jobs 1 "
                           "--cache %s/cache 2>/dev/null",
                     harness, d, d);
    int pass = 0, compile = 0, lines = 0;
    for (char *l = out ? strtok(out, "\n") : NULL; l; l = strtok(NULL, "\n")) {
        if (*l != '{')
            continue;   /* the runner's own lines */
        lines++;
        pass += strstr(l, "\"status\":\"pass\"") != NULL;
        compile += strstr(l, "\"status\":\"compile_error\"") != NULL;
    }
    CHECK_MSG(st == 0 && lines == 4 && pass == 2 && compile == 2, "status %d, %d lines, %d pass, %d compile errors", st,
              lines, pass, compile);
    free(out);
    fake_driver_off();
    free(harness);
    return 0;
}

/* Buffers of a MiB and more travel through the staging memory
 * (worker_protocol.h), not the pipe: the axpy fixture at n = 1,000,000
 * (4 MB per buffer; x and y uploaded, y downloaded) under the fake driver
 * passes, so both directions carry the right bytes. */
TEST(gpu_worker_staged_transfers)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    CHECK(test_sh(NULL, "set -e; cp -r tests/data/programs/ok-axpy %s/ax; cp tests/data/kernels/axpy/kernel.cu "
                        "tests/data/kernels/axpy/launch.json %s/ax/; sed -i 's/67108864/1000000/' %s/ax/meta.json; "
                        "grep -q 1000000 %s/ax/meta.json",
                  d, d, d, d) == 0);
    int st = test_sh(&out, "CUDAPERF_LIBCUDA=%s/libcuda.so.1 FAKE_CUDA_MODE=ok %s eval %s/ax --configs large,small "
                           "--trials 2 --timing-runs 0 --cache %s/cache 2>&1",
                     d, harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "\nlarge          pass") && strstr(out, "\nsmall          pass"),
              "status %d: %s", st, out ? out : "");
    free(out);
    free(harness);
    return 0;
}

/* Two workers on one GPU with timing on (`--per-gpu 2`): both programs'
 * kernels are timed (each measurement took an exclusive turn of the GPU's
 * share, gpu_share.h), every (kernel, config) result is stored once, and
 * the share file is gone when the run ends. */
TEST(run_per_gpu_timed)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *out = NULL;
    CHECK(make_folder(t) == 0);
    CHECK(test_sh(NULL, "set -e; cp -r %s/progs/ok-axpy %s/progs/ok-axpy-2; "
                        "sed -i 's|c/fixtures/ok-axpy|c/fixtures/ok-axpy-2|' %s/progs/ok-axpy-2/meta.json",
                  d, d, d) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    int st = test_sh(&out, "mkdir -p %s/tmp && TMPDIR=%s/tmp %s --catalog %s/cat.db run --kernels reference "
                           "--configs small,edge --trials 1 --per-gpu 2 --jobs 0 --cache %s/cache",
                     d, d, harness, d, d);
    CHECK_MSG(st == 0 && out && strstr(out, "2 kernels (0 done before), 2 evaluated") && strstr(out, "x 2 worker"),
              "run: %s", out ? out : "");
    free(out);
    test_sh(&out, "%s --catalog %s/cat.db results 1 --json | grep -c '\"time_median_ms\":[[:space:]]*[0-9]'", harness, d);
    CHECK_MSG(out && atoi(out) == 2, "timed results (one timed config per kernel): %s", out ? out : "");
    free(out);
    test_sh(&out, "%s --catalog %s/cat.db results 1 --json | grep -c '\"config\":'", harness, d);
    CHECK_MSG(out && atoi(out) == 4, "results: %s", out ? out : "");
    free(out);
    test_sh(&out, "ls %s/tmp | grep -c cudaperf-gpu", d);
    CHECK_MSG(out && atoi(out) == 0, "share files left behind: %s", out ? out : "");
    free(out);
    fake_driver_off();
    free(harness);
    return 0;
}

/* The parent_id of the program's variant whose knobs say "derived" or
 * "defect" is name (0: none; -1: no such variant). */
static long long parent_of(const char *db_path, const char *defect)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long parent = -1;
    if (sqlite3_open(db_path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT coalesce(parent_id, 0) FROM kernels WHERE defect = ?", -1, &st, NULL) ==
            SQLITE_OK) {
        sqlite3_bind_text(st, 1, defect, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            parent = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return parent;
}

/* knobs.json's "parent" names the sibling variant a defect was planted in:
 * ingest links the two, a rerun without it links the reference again, and
 * a parent that names no variant, the reference's own, or a cycle is
 * refused with the file and the field, keeping what the catalog held. */
TEST(ingest_variant_parents)
{
    char *harness = fake_gpu_harness(t);
    if (!harness)
        SKIP("no harness next to the test runner (build both with make), or the fake driver did not build");
    const char *d = t->tmpdir;
    char *db = xasprintf("%s/cat.db", d), *out = NULL;
    CHECK(make_folder(t) == 0);
    CHECK(test_sh(NULL, "printf '{\"defect\": \"skip-last\", \"parent\": \"no-compile\"}\\n' > "
                        "%s/progs/ok-axpy/variants/skip-last/knobs.json", d) == 0);
    CHECK(ingest_under_fake_driver(t, harness) == 0);
    /* the parent is no-compile's row: the reference is the lowest id */
    long long named = parent_of(db, "skip-last");
    CHECK(test_sh(&out, "%s --catalog %s kernels list c/fixtures/ok-axpy", harness, db) == 0);
    char *want = xasprintf("\n%-8lld %-11s %-8s", named, "variant", "1");
    CHECK_MSG(named > 1 && out && strstr(out, want), "skip-last's parent %lld:\n%s", named, out ? out : "");
    free(want);
    free(out);

    /* without the field the reference is the parent again, nothing re-added */
    CHECK(test_sh(NULL, "printf '{\"defect\": \"skip-last\"}\\n' > %s/progs/ok-axpy/variants/skip-last/knobs.json",
                  d) == 0);
    CHECK(test_sh(&out, "%s --catalog %s ingest --cache %s/cref %s/progs 2>&1", harness, db, d, d) == 0);
    CHECK_MSG(out && strstr(out, "kernels: 0 added, 0 removed"), "rerun: %s", out ? out : "");
    free(out);
    CHECK_MSG(parent_of(db, "skip-last") == 1, "skip-last's parent after the rerun: %lld", parent_of(db, "skip-last"));

    static const struct {
        const char *no_compile, *skip_last, *why;
    } BAD[] = {
        {"{}", "{\"defect\": \"skip-last\", \"parent\": \"nope\"}",
         "variants/skip-last/knobs.json: parent: no variant named 'nope'"},
        {"{\"parent\": \"skip-last\"}", "{\"defect\": \"skip-last\", \"parent\": \"no-compile\"}",
         "knobs.json: parent: the chain of parents is a cycle"},
        {"{}", "{\"defect\": \"skip-last\", \"parent\": \"skip-last\"}",
         "variants/skip-last/knobs.json: parent: must name another variant of the program"},
        {"{}", "{\"defect\": \"skip-last\", \"parent\": 3}",
         "variants/skip-last/knobs.json: parent: must name another variant of the program"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        CHECK(test_sh(NULL, "printf '%%s\\n' '%s' > %s/progs/ok-axpy/variants/no-compile/knobs.json; "
                            "printf '%%s\\n' '%s' > %s/progs/ok-axpy/variants/skip-last/knobs.json",
                      BAD[i].no_compile, d, BAD[i].skip_last, d) == 0);
        test_sh(&out, "%s --catalog %s ingest --cache %s/cref %s/progs 2>&1", harness, db, d, d);
        CHECK_MSG(out && strstr(out, BAD[i].why) && strstr(out, "1 invalid"), "%s: %s", BAD[i].skip_last,
                  out ? out : "");
        free(out);
        CHECK_MSG(parent_of(db, "skip-last") == 1, "after a refused ingest the catalog changed");
    }
    CHECK(test_sh(NULL, "printf '{}\\n' > %s/progs/ok-axpy/knobs.json; "
                        "printf '{\"parent\": \"no-compile\"}\\n' > %s/progs/ok-axpy/knobs.json; "
                        "printf '{}\\n' > %s/progs/ok-axpy/variants/no-compile/knobs.json; "
                        "printf '{\"defect\": \"skip-last\"}\\n' > %s/progs/ok-axpy/variants/skip-last/knobs.json",
                  d, d, d, d) == 0);
    test_sh(&out, "%s --catalog %s ingest --cache %s/cref %s/progs 2>&1", harness, db, d, d);
    CHECK_MSG(out && strstr(out, "ok-axpy/knobs.json: parent: the reference pair has no parent"), "%s",
              out ? out : "");
    free(out);
    fake_driver_off();
    free(db);
    free(harness);
    return 0;
}
