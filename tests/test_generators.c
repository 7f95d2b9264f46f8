/* Generators: every family emits exactly its declared number of valid,
 * distinct programs, deterministically; and a sample of each family's
 * programs (the first and the last) compiles, runs its small and edge
 * configs in the sandbox and passes the degenerate filter. */
#include <dirent.h>
#include <stdlib.h>

#include <cjson/cJSON.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "generators/gen.h"
#include "harness/catalog.h"
#include "harness/golden.h"
#include "harness/ingest.h"
#include "harness/worker_protocol.h"
#include "tests/test.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Generates family `name` into a new folder `<tmpdir>/gen` (returned: the
 * caller frees it), with *f the family and *s its statistics; NULL after a
 * failed check when there is no such family or it does not generate. */
static char *generate_family(TestCtx *t, const char *name, const Family **f_out, GenStats *s)
{
    const Family *f = NULL;
    for (int i = 0; i < gen_family_count; i++)
        if (strcmp(gen_families[i]->name, name) == 0)
            f = gen_families[i];
    if (!f) {
        test_fail(t, __FILE__, __LINE__, "no %s family", name);
        return NULL;
    }
    char *out = xasprintf("%s/gen", t->tmpdir), err[2048];
    memset(s, 0, sizeof *s);
    if (gen_run_family(f, out, 20261202, s, err, sizeof err) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", err);
        free(out);
        return NULL;
    }
    *f_out = f;
    return out;
}

TEST(generators_all_families)
{
    char *out = xasprintf("%s/gen", t->tmpdir);
    char *sample = xasprintf("%s/sample", t->tmpdir);
    int total = 0;
    CHECK_MSG(gen_family_count >= 50, "only %d families", gen_family_count);
    for (int i = 0; i < gen_family_count; i++) {
        const Family *f = gen_families[i];
        GenStats s = {0}, s2 = {0};
        char err[2048];
        int rc = gen_run_family(f, out, 20261202, &s, err, sizeof err);
        CHECK_MSG(rc == 0, "%s", err);
        CHECK_MSG(s.programs == f->count, "%s: %d programs, declared %d", f->name, s.programs, f->count);
        /* Deterministic: a second run writes nothing new. */
        CHECK(gen_run_family(f, out, 20261202, &s2, err, sizeof err) == 0);
        CHECK_MSG(s2.written == 0, "%s: second run changed %d files", f->name, s2.written);
        total += s.programs;
        /* Move the first and last program of the family into the sample. */
        char *fam_dir = xasprintf("%s/c/%s", out, f->name);
        DIR *d = opendir(fam_dir);
        char **names = NULL;
        int n = 0;
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            names = xrealloc(names, sizeof(char *) * (size_t)(n + 1));
            names[n++] = xstrdup(de->d_name);
        }
        if (d)
            closedir(d);
        qsort(names, (size_t)n, sizeof *names, cmp_str);
        char *dst_dir = xasprintf("%s/c/%s", sample, f->name);
        file_mkdirs(dst_dir, NULL);
        for (int k = 0; k < n; k++) {
            if (k == 0 || k == n - 1) {
                char *src = xasprintf("%s/%s", fam_dir, names[k]);
                char *dst = xasprintf("%s/%s", dst_dir, names[k]);
                CHECK(rename(src, dst) == 0);
                free(src);
                free(dst);
            }
            free(names[k]);
        }
        free(names);
        free(fam_dir);
        free(dst_dir);
    }
    CHECK_MSG(total >= 2871 && total <= 2929, "%d programs in all, want 2,900 within 1%%", total);
    printf("    %d families, %d programs\n", gen_family_count, total);
    /* Run the sample through the real ingest path. */
    char *db = xasprintf("%s/catalog.db", t->tmpdir);
    char *cache = xasprintf("%s/cache", t->tmpdir);
    Catalog *c = NULL;
    Error e;
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    IngestOptions opt = {(int)sysconf(_SC_NPROCESSORS_ONLN), 20261202, cache, "generated", 1, 0, 0};
    IngestSummary s;
    char *roots[] = {sample};
    if (c) {
        CHECK_MSG(ingest_paths(c, roots, 1, &opt, &s, &e) == 0, "%s", e.msg);
        CHECK_MSG(s.found == 2 * gen_family_count, "found %d", s.found);
        CHECK_MSG(s.added == s.found, "%d of %d sampled programs accepted (see the reasons above)", s.added, s.found);
        catalog_close(c);
    }
    free(db);
    free(cache);
    free(out);
    free(sample);
    return 0;
}

/* The variants written follow the problem: the low-precision defect only
 * where the outputs' tolerance is tight enough to show it (rtol < 1e-5),
 * and a variant an earlier generation wrote that this one does not derive
 * is removed, so ingest never takes it for a candidate. */
TEST(generators_variants_follow_the_problem)
{
    GenStats s;
    const Family *blas1;
    char *out = generate_family(t, "blas1", &blas1, &s), err[2048];
    if (!out)
        return -1;
    CHECK_MSG(s.not_planted > 0, "no low-precision defect left out of blas1");
    char *fam_dir = xasprintf("%s/c/blas1", out), *first = NULL;
    DIR *d = opendir(fam_dir);
    struct dirent *de;
    int planted = 0;
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char *meta_path = xasprintf("%s/%s/meta.json", fam_dir, de->d_name), *text = NULL;
        char *lp = xasprintf("%s/%s/variants/low-precision-accumulation", fam_dir, de->d_name);
        Error e;
        if (file_read_all(meta_path, 1 << 20, &text, NULL, &e) == 0) {
            cJSON *m = cJSON_Parse(text);
            const cJSON *rtol = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "tolerance"), "rtol");
            CHECK_MSG(cJSON_IsNumber(rtol), "%s: no tolerance.rtol", meta_path);
            if (file_is_dir(lp)) {
                planted++;
                CHECK_MSG(cJSON_IsNumber(rtol) && rtol->valuedouble < 1e-5,
                          "%s: low-precision defect planted under rtol %g", de->d_name, rtol->valuedouble);
            }
            cJSON_Delete(m);
        }
        if (!first)
            first = xstrdup(de->d_name);
        free(text);
        free(meta_path);
        free(lp);
    }
    if (d)
        closedir(d);
    CHECK_MSG(planted > 0, "no blas1 program has the low-precision defect");
    /* a variant of an earlier generation */
    char *stale = xasprintf("%s/%s/variants/block-48", fam_dir, first ? first : "?");
    Error e;
    CHECK(file_mkdirs(stale, &e) == 0);
    char *stale_file = xasprintf("%s/kernel.cu", stale);
    CHECK(file_write_if_changed(stale_file, "x", 1, NULL, &e) == 0);
    GenStats s2 = {0};
    CHECK_MSG(gen_run_family(blas1, out, 20261202, &s2, err, sizeof err) == 0, "%s", err);
    CHECK_MSG(!file_exists(stale_file) && !file_is_dir(stale), "%s is still there", stale);
    CHECK_MSG(s2.written == 1, "regeneration changed %d files, expected the one removal", s2.written);
    free(stale_file);
    free(stale);
    free(first);
    free(fam_dir);
    free(out);
    return 0;
}

/* A half-pixel source coordinate written as (x + 0.5f) * scale - 0.5f is an
 * FMA in nvcc's code and two roundings in C: on the large config the two
 * disagree past the tolerance (device run 28).  The resize pairs must spell
 * it as one rounded division, the same in program.c, kernel.cu and every
 * variant's kernel. */
TEST(generators_resize_coordinates_round_once)
{
    GenStats s;
    const Family *resize;
    char *out = generate_family(t, "resize", &resize, &s);
    if (!out)
        return -1;
    const char *names[] = {"bilinear-gray-f32", "bilinear-rgb-u8", "bicubic-planar-f32"};
    const char *files[] = {"program.c", "kernel.cu", "variants/no-restrict/kernel.cu"};
    for (size_t n = 0; n < sizeof names / sizeof *names; n++)
        for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
            char *path = xasprintf("%s/c/resize/%s/%s", out, names[n], files[f]), *text = NULL;
            Error e;
            int read = file_read_all(path, 1 << 20, &text, NULL, &e);
            CHECK_MSG(read == 0, "%s: %s", path, e.msg);
            if (read == 0) {
                CHECK_MSG(strstr(text, "(2 * x + 1) * in_w - out_w") != NULL, "%s: no one-rounding coordinate", path);
                CHECK_MSG(strstr(text, "0.5f) * s") == NULL, "%s: a multiply-add coordinate", path);
            }
            free(text);
            free(path);
        }
    free(out);
    return 0;
}

/* The low-precision defect reaches a sum whose error shows: the
 * cross-entropy means' mean over rows and the Hann periodogram's re/im
 * sums were declared beside another accumulator ("double total = 0,
 * count = 0;"), which the defect does not rewrite, so their variants made
 * float only a partial that a log, or the float nearest the exact window
 * energy, takes back under the tolerance; and the f64 RMS norms, whose
 * square root halves the error, have a config whose rows hold 16K terms a
 * thread (their 4K-element rows kept it at 3e-8 to 5e-8 against rtol
 * 1e-7). */
TEST(generators_low_precision_reaches_a_sum)
{
    static const struct {
        const char *family, *program, *floats[3];
    } CASES[] = {
        {"cross_entropy", "ce-ignore-mean-f64", {"    float total = 0.0f;\n", NULL}},
        {"cross_entropy", "ce-weighted-wmean-f64", {"    float total = 0.0f;\n", "    float weight_sum = 0.0f;\n", NULL}},
        {"cross_entropy", "seq-ce-masked-mean-f64", {"    float total = 0.0f;\n", NULL}},
        {"dft", "hann-periodogram-f64", {"    float re = 0.0f;\n", "    float im = 0.0f;\n", NULL}},
        {"layernorm", "rmsnorm-f64", {NULL}},
        {"layernorm", "rmsnorm-ld-f64", {NULL}},
        {"layernorm", "rmsnorm-silu-f64", {NULL}},
        {"layernorm", "residual-rmsnorm-f64", {NULL}},
        {"layernorm", "residual-rmsnorm-ld-f64", {NULL}},
        {"layernorm", "residual-rmsnorm-silu-f64", {NULL}},
    };
    const char *generated = "";
    char *out = NULL;
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        if (strcmp(generated, CASES[i].family) != 0) {
            GenStats s;
            const Family *f;
            free(out);
            if (!(out = generate_family(t, CASES[i].family, &f, &s)))
                return -1;
            generated = CASES[i].family;
        }
        char *dir = xasprintf("%s/c/%s/%s", out, CASES[i].family, CASES[i].program);
        char *kpath = xasprintf("%s/variants/low-precision-accumulation/kernel.cu", dir), *text = NULL;
        Error e;
        CHECK_MSG(file_read_all(kpath, 1 << 20, &text, NULL, &e) == 0, "%s: %s", kpath, e.msg);
        for (int k = 0; text && CASES[i].floats[k]; k++)
            CHECK_MSG(strstr(text, CASES[i].floats[k]), "%s: no '%.*s'", kpath, (int)strlen(CASES[i].floats[k]) - 1,
                      CASES[i].floats[k]);
        if (strcmp(CASES[i].family, "layernorm") == 0) {
            char *mpath = xasprintf("%s/meta.json", dir);
            Problem *p = NULL;
            CHECK_MSG(problem_load(mpath, &p, &e) == 0, "%s: %s", mpath, e.msg);
            const ProblemConfig *c = p ? problem_find_config(p, "edge-long-row") : NULL;
            CHECK_MSG(c != NULL, "%s: no edge-long-row config", mpath);
            int64_t d = 0;
            CHECK_MSG(!c || (problem_eval(p, c, "d", &d, &e) == 0 && d / 256 >= 16384),
                      "%s: edge-long-row rows of %lld, under 16K terms for each of 256 threads", mpath, (long long)d);
            if (p)
                problem_free(p);
            free(mpath);
        }
        free(text);
        free(kpath);
        free(dir);
    }
    free(out);
    return 0;
}

/* Bounds defects that only some configs can show (census 2026-12-07): each
 * of these programs has an edge config where a thread past the end does
 * something visible.
 * - edge-wide, the products accumulating into C (C += ...): the extra
 *   thread adds a zero and leaves the guard as it was, so only an access
 *   past the guard zone shows; the output's row (rows) must be longer than
 *   the guard and its alignment and the tiled dimension (tile) must leave a
 *   partial tile of 16, so that row's far end lies past the guard.
 * - edge-chunks, the bidiagonal solvers: one thread per chunk of 256, so
 *   a loosened chunk bound launches an extra thread only when n is a
 *   multiple of 256 (rows "n % 256" must be 0).
 * - edge-sparse, scatter max/min into existing outputs: few sources per
 *   slot (n at most m / 8, so the slots the guard's small indices name
 *   mostly keep their initial values), and a partial block of 256. */
TEST(generators_bounds_edge_configs)
{
    static const struct {
        const char *family, *program, *config, *rows, *tile;
    } CASES[] = {
        {"gemm", "int32-i32", "edge-wide", "4*n", "m % 16"},
        {"gemm", "complex-f32", "edge-wide", "8*n", "m % 16"},
        {"gemm", "complex-f64", "edge-wide", "16*n", "m % 16"},
        {"gemm", "int8-tn-accumulate-i8", "edge-wide", "4*n", "m % 16"},
        {"gemm", "colmajor-ld-tn-f32", "edge-wide", "4*m", "n % 16"},
        {"syrk", "int8-lower-i8", "edge-wide", "4*n", "n % 16"},
        {"syrk", "syrk-lower-ld-f32", "edge-wide", "4*n", "n % 16"},
        {"batched_gemm", "int32-accumulate-i32", "edge-wide", "4*n", "m % 16"},
        {"batched_gemm", "per-batch-alpha-f32", "edge-wide", "4*n", "m % 16"},
        {"trisolve", "bidiagonal-lower-f32", "edge-chunks", "n % 256", NULL},
        {"trisolve", "bidiagonal-lower-f64", "edge-chunks", "n % 256", NULL},
        {"trisolve", "bidiagonal-upper-f32", "edge-chunks", "n % 256", NULL},
        {"scatter_add", "max-f32-inout", "edge-sparse", "m / 8 - n", "n % 256"},
        {"scatter_add", "min-i32-inout", "edge-sparse", "m / 8 - n", "n % 256"},
        {"scatter_add", "max-rows-f32", "edge-sparse", "m / 8 - n", "n * d % 256"},
    };
    const char *done[8] = {0};
    int n_done = 0;
    char *out = NULL;
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        int have = 0;
        for (int j = 0; j < n_done; j++)
            have |= strcmp(done[j], CASES[i].family) == 0;
        if (!have) {
            GenStats s;
            const Family *f;
            free(out);
            out = generate_family(t, CASES[i].family, &f, &s);
            if (!out)
                return -1;
            done[n_done++] = CASES[i].family;
        }
        char *path = xasprintf("%s/c/%s/%s/meta.json", out, CASES[i].family, CASES[i].program);
        Problem *p = NULL;
        Error e;
        CHECK_MSG(problem_load(path, &p, &e) == 0, "%s: %s", path, e.msg);
        const ProblemConfig *c = p ? problem_find_config(p, CASES[i].config) : NULL;
        CHECK_MSG(c != NULL, "%s: no %s config", path, CASES[i].config);
        int64_t rows = 0, tile = 1;
        if (c) {
            CHECK(problem_eval(p, c, CASES[i].rows, &rows, &e) == 0);
            if (CASES[i].tile)
                CHECK(problem_eval(p, c, CASES[i].tile, &tile, &e) == 0);
            if (strcmp(CASES[i].config, "edge-wide") == 0)
                CHECK_MSG(rows > WP_GUARD_BYTES + 255, "%s: a row of %lld bytes ends inside the guard", path,
                          (long long)rows);
            else if (strcmp(CASES[i].config, "edge-chunks") == 0)
                CHECK_MSG(rows == 0, "%s: n is not a multiple of the chunk", path);
            else
                CHECK_MSG(rows >= 0, "%s: more than m / 8 sources", path);
            CHECK_MSG(tile != 0, "%s: %s is 0, no partial tile", path, CASES[i].tile);
        }
        if (p)
            problem_free(p);
        free(path);
    }
    free(out);
    return 0;
}

/* The C reference's own cost (meta.json cost.ref_bytes, ref_flops) where
 * its loops reach memory at random or call libm per term: such a program's
 * large config is beyond the C
 * reference's budget (its configs are checked against golden outputs),
 * though the problem's own bytes, the kernel's, fit it; small configs stay
 * within it.  These are the programs whose C references ran past 20 s on
 * one core on the device (BENCHMARKS: device runs 31 to 36). */
TEST(generators_reference_cost_counts_random_access)
{
    static const char *const cases[][2] = {
        {"pagerank", "c/pagerank/pull-f32"},
        {"bfs_step", "c/bfs_step/triangles-i32"},
        {"pb_atax", "c/pb_atax/fused-col-f32-square"},
        {"particles", "c/particles/deposit-cic-3d-f32"},
        {"search", "c/search/lower-bound-f32"},
        {"dft", "c/dft/dct2-f32"},
        {"sort", "c/sort/argsort-f32"},
        {"spmm_csr", "c/spmm_csr/sddmm-vcolmajor-f32"},
    };
    RefBudget budget = golden_default_budget();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Family *f = NULL;
        GenStats s;
        char *out = generate_family(t, cases[i][0], &f, &s);
        if (!out)
            return -1;
        char *meta = xasprintf("%s/%s/meta.json", out, cases[i][1]);
        Problem *p = NULL;
        Error e;
        CHECK_MSG(problem_load(meta, &p, &e) == 0, "%s", e.msg);
        if (p) {
            const ProblemConfig *large = problem_find_config(p, "large"), *small = problem_find_config(p, "small");
            CHECK_MSG(p->cost_ref_bytes || p->cost_ref_flops, "%s: no cost.ref_bytes or ref_flops", cases[i][1]);
            CHECK_MSG(large && golden_beyond(p, large, &budget, NULL, NULL), "%s: large within the budget",
                      cases[i][1]);
            CHECK_MSG(large && !golden_kernel_beyond(p, large, &budget, NULL, NULL),
                      "%s: the problem's own cost is beyond the budget too (the case proves nothing)", cases[i][1]);
            CHECK_MSG(small && !golden_beyond(p, small, &budget, NULL, NULL), "%s: small beyond the budget",
                      cases[i][1]);
            int64_t rf = 0, rb = 0, pf = 0, pb = 0;
            CHECK(problem_reference_cost(p, large, &rf, &rb, &e) == 0);
            CHECK(problem_eval(p, large, p->cost_flops, &pf, &e) == 0);
            CHECK(problem_eval(p, large, p->cost_bytes, &pb, &e) == 0);
            CHECK_MSG(rb > pb || rf > pf, "%s: the reference's cost %lld flops / %lld bytes is the problem's",
                      cases[i][1], (long long)rf, (long long)rb);
            problem_free(p);
        }
        free(meta);
        file_remove_tree(out, NULL);
        free(out);
    }
    return 0;
}
