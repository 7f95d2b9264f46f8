/* test_cpu_families.c — the whole pipeline on real generated programs
 * without a GPU: one program of every generator family (the middle one of
 * its folder, so the sample changes with neither the first nor the last
 * variants) is generated, ingested with its reference CUDA implementation,
 * and run with `harness run --backend cpu` (one trial per config, to keep
 * CI short); every reference must pass on
 * every config the CPU backend runs by default. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "common/strbuf.h"
#include "tests/test.h"

TEST(run_cpu_backend_every_family)
{
    char *bin = test_bin_dir();
    char *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out,
                     "set -e; cd %s; %s/cudaperf-gen --out all >/dev/null; "
                     "for f in all/c/*/; do n=$(ls -d $f*/ | wc -l); d=$(ls -d $f*/ | sed -n \"$(( (n + 1) / 2 ))p\"); "
                     "mkdir -p sample/c/$(basename $f); cp -r $d sample/c/$(basename $f)/; done; "
                     "ls -d sample/c/*/* | wc -l",
                     t->tmpdir, bin);
    int families = st == 0 && out ? atoi(out) : 0;
    CHECK_MSG(st == 0 && families >= 50, "sampling the families: %s", out ? out : "");
    free(out);
    if (families < 50) {
        free(bin);
        return 0;
    }
    st = test_sh(&out, "cd %s && %s/harness --catalog cat.db ingest --quiet sample", t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "0 failed") && strstr(out, "dropped as degenerate"), "ingest: %s",
              out ? out : "");
    free(out);
    st = test_sh(&out, "cd %s && %s/harness --catalog cat.db run --backend cpu --trials 1 --quiet", t->tmpdir, bin);
    char want[64];
    snprintf(want, sizeof want, "%d kernels (0 done before), %d evaluated: %d pass, 0 fail", families, families,
             families);
    CHECK_MSG(st == 0 && out && strstr(out, want), "wanted '%s': %s", want, out ? out : "");
    free(out);
    /* on failure, the verdicts that were not passes, with their messages */
    if (t->failures) {
        test_sh(&out, "cd %s && %s/harness --catalog cat.db results 1 | grep -v ' pass ' | head -60", t->tmpdir, bin);
        printf("%s\n", out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}

/* The torch side of the same pipeline: the middle program of a spread of
 * torch families (every operator kind of level 1, chains of level 2, every
 * level-3 architecture kind that is cheap on a CPU) is generated with its
 * reference CUDA implementation, ingested (references run on CPU torch) and
 * run with `harness run --backend cpu`; every reference must pass. */
#include "harness/torch_ref.h"
TEST(run_cpu_backend_torch_families)
{
    static const char *const families[] = {
        "torch_l1_gelu", "torch_l1_logsumexp", "torch_l1_log_softmax", "torch_l1_groupnorm", "torch_l1_bmm",
        "torch_l1_conv2d_grouped", "torch_l1_conv_transpose1d", "torch_l1_avg_pool2d", "torch_l1_cross_entropy",
        "torch_l1_cummax", "torch_l1_sort", "torch_l1_scatter_add", "torch_l2_linear_gelu_linear_layernorm",
        "torch_l2_matmul_scale_clamp", "torch_l2_conv2d_batchnorm_relu_maxpool", "torch_l2_convT2d_groupnorm_relu",
        "torch_l3_self_attention", "torch_l3_lstm_cell", "torch_l3_moe_router", "torch_l3_resnet_basic_block"};
    const int n = (int)(sizeof families / sizeof *families);
    char py[4096];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0)
        SKIP("%s", e.msg);
    char *bin = test_bin_dir();
    if (!bin)
        SKIP("cannot find the binaries' folder");
    StrBuf args = STRBUF_INIT;
    for (int i = 0; i < n; i++)
        sb_printf(&args, " --family %s", families[i]);
    char *out = NULL;
    int st = test_sh(&out,
                     "set -e; cd %s; %s/cudaperf-gen --out all%s >/dev/null; "
                     "for f in all/torch/*/; do n=$(ls -d $f*/ | wc -l); d=$(ls -d $f*/ | sed -n \"$(( (n + 1) / 2 ))p\"); "
                     "test -f $d/kernel.cu; mkdir -p sample/torch/$(basename $f); cp -r $d sample/torch/$(basename $f)/; "
                     "done; ls -d sample/torch/*/* | wc -l",
                     t->tmpdir, bin, sb_str(&args));
    int got = st == 0 && out ? atoi(out) : 0;
    CHECK_MSG(got == n, "sampling %d torch families (each with kernel.cu): %s", n, out ? out : "");
    free(out);
    if (got == n) {
        st = test_sh(&out, "cd %s && %s/harness --catalog cat.db ingest --quiet sample", t->tmpdir, bin);
        CHECK_MSG(st == 0 && out && strstr(out, "0 failed"), "ingest: %s", out ? out : "");
        free(out);
        st = test_sh(&out, "cd %s && %s/harness --catalog cat.db run --backend cpu --trials 1 --quiet", t->tmpdir,
                     bin);
        CHECK_MSG(st == 0 && out && strstr(out, " 0 fail"), "run: %s", out ? out : "");
        free(out);
        /* the results say where the reference outputs came from: torch on the CPU here */
        st = test_sh(&out, "cd %s && %s/harness --catalog cat.db results 1 --json | grep -c '\"reference_kind\":.*\"torch-cpu\"'",
                     t->tmpdir, bin);
        CHECK_MSG(st == 0 && out && atoi(out) >= n, "torch-cpu reference results: %s", out ? out : "");
        free(out);
        /* no C program ran: no one-core reference time (it used to be stored as 0) */
        test_sh(&out, "cd %s && %s/harness --catalog cat.db results 1 --json | grep -c '\"reference_cpu_ms\":[[:space:]]*[0-9]'",
                t->tmpdir, bin);
        CHECK_MSG(out && atoi(out) == 0, "torch results with a C reference time: %s", out ? out : "");
        free(out);
        if (t->failures) {
            test_sh(&out, "cd %s && %s/harness --catalog cat.db results 1 | grep -v ' pass ' | head -40", t->tmpdir,
                    bin);
            printf("%s\n", out ? out : "");
            free(out);
        }
    }
    sb_release(&args);
    free(bin);
    return 0;
}

/* Planted bounds defects that only the guards' contents can show (856a850):
 * activations' accumulating hardsigmoid backward, whose thread past the end
 * once read an x of 32.5 from a guard (gradient 0, "dx += 0" left dx's guard
 * as it was), and scatter_add's i32 min, whose stray thread's small guard
 * index once landed on a slot already below what it scattered.  The real
 * programs are generated and their kernels run on the CPU backend with two
 * trials (the second reads guards as small indices): each of the three
 * defects must fail on some config and both references must pass. */
static int caught_on_some_config(const cJSON *results, const char *program, const char *defect, int *ran)
{
    int caught = 0;
    *ran = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, results)
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "program");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "defect");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "status");
        if (!cJSON_IsString(p) || strcmp(p->valuestring, program) != 0 || !cJSON_IsString(s))
            continue;
        if (defect ? !(cJSON_IsString(d) && strcmp(d->valuestring, defect) == 0) : cJSON_IsString(d))
            continue;
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(r, "origin");
        if (!defect && !(cJSON_IsString(o) && strcmp(o->valuestring, "reference") == 0))
            continue;
        (*ran)++;
        caught |= strcmp(s->valuestring, "pass") != 0;
    }
    return caught;
}

TEST(run_cpu_backend_catches_guard_blind_defects)
{
    char *bin = test_bin_dir();
    char *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out,
                     "set -e; cd %s; %s/cudaperf-gen --out all --family activations --family scatter_add >/dev/null; "
                     "mkdir -p sample/c/activations sample/c/scatter_add; "
                     "cp -r all/c/activations/hardsigmoid-bwd-f64-accum sample/c/activations/; "
                     "cp -r all/c/scatter_add/min-i32-inout sample/c/scatter_add/; "
                     "%s/harness --catalog cat.db ingest --quiet sample; "
                     "%s/harness --catalog cat.db run --backend cpu --kernels all --skip-configs large --trials 2 "
                     "--quiet >/dev/null; %s/harness --catalog cat.db results 1 --json",
                     t->tmpdir, bin, bin, bin, bin);
    cJSON *j = st == 0 && out ? cJSON_Parse(strchr(out, '{')) : NULL;
    CHECK_MSG(j, "generate, ingest and run: %s", out ? out : "");
    free(out);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(j, "results");
    static const struct {
        const char *program, *defect;
    } WANT[] = {{"c/activations/hardsigmoid-bwd-f64-accum", "missing-bounds-check"},
                {"c/activations/hardsigmoid-bwd-f64-accum", "off-by-one"},
                {"c/scatter_add/min-i32-inout", "off-by-one"}};
    for (size_t i = 0; j && i < sizeof WANT / sizeof *WANT; i++) {
        int ran = 0, caught = caught_on_some_config(results, WANT[i].program, WANT[i].defect, &ran);
        CHECK_MSG(ran > 0 && caught, "%s %s: %d results, caught %d", WANT[i].program, WANT[i].defect, ran, caught);
    }
    for (size_t i = 0; j && i < 3; i += 2) {
        int ran = 0, failed = caught_on_some_config(results, WANT[i].program, NULL, &ran);
        CHECK_MSG(ran >= 3 && !failed, "%s reference: %d results, a failure %d", WANT[i].program, ran, failed);
    }
    cJSON_Delete(j);
    free(bin);
    return 0;
}

/* The ids, comma-separated, of db's kernels whose knobs say "derived" is
 * "register-spills" or starts with "partial-sums-" (from malloc()); NULL on
 * an SQL error. */
static char *partial_sum_kernels(const char *db_path, int *n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    StrBuf ids = STRBUF_INIT;
    int ok = sqlite3_open(db_path, &db) == SQLITE_OK &&
             sqlite3_prepare_v2(db,
                                "SELECT id FROM kernels WHERE json_extract(knobs, '$.derived') = 'register-spills'"
                                " OR json_extract(knobs, '$.derived') LIKE 'partial-sums-%' ORDER BY id",
                                -1, &st, NULL) == SQLITE_OK;
    *n = 0;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        sb_printf(&ids, "%s%lld", ids.len ? "," : "", (long long)sqlite3_column_int64(st, 0));
        (*n)++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (!ok) {
        sb_release(&ids);
        return NULL;
    }
    return sb_steal(&ids);
}

/* The partial-sums rewrite keeps results within the tolerance: for one
 * program with a planted register-spills variant in each of four families
 * (a dot product per row, two fused matrix-vector sums, a softmax backward
 * column sum, a symmetric rank-k update), the partial-sums candidate and
 * the capped register-spills variant pass every config the CPU backend
 * runs by default, the main loop of P iterations and the remainder both
 * (small configs run 200 to 300 iterations). */
TEST(run_cpu_backend_partial_sums_pass)
{
    char *bin = test_bin_dir();
    char *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out,
                     "set -e; cd %s; %s/cudaperf-gen --out all --family gemv --family pb_mvt --family softmax "
                     "--family syrk >/dev/null; "
                     "for f in all/c/*/; do d=$(ls -d $f*/variants/register-spills | head -1); d=${d%%/variants/*}; "
                     "mkdir -p sample/c/$(basename $f); cp -r $d sample/c/$(basename $f)/; done; "
                     "ls -d sample/c/*/* | wc -l",
                     t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && atoi(out) == 4, "sampling: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "cd %s && %s/harness --catalog cat.db ingest --quiet sample", t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "0 failed"), "ingest: %s", out ? out : "");
    free(out);
    char *db = xasprintf("%s/cat.db", t->tmpdir);
    int n = 0;
    char *ids = partial_sum_kernels(db, &n);
    CHECK_MSG(ids && n == 8, "partial-sums and register-spills kernels: %d", n);
    if (ids && n == 8) {
        st = test_sh(&out, "cd %s && %s/harness --catalog cat.db run --backend cpu --trials 1 --quiet --kernels %s",
                     t->tmpdir, bin, ids);
        CHECK_MSG(st == 0 && out && strstr(out, "8 kernels (0 done before), 8 evaluated: 8 pass, 0 fail"), "%s",
                  out ? out : "");
        free(out);
    }
    free(ids);
    free(db);
    free(bin);
    return 0;
}
