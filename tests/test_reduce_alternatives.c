/* test_reduce_alternatives.c — the whole-array reductions' alternatives
 * from the template library's knob space (generators/fam_reduce_all.c):
 * which programs get which, what their knobs record, and, end to end on the
 * CPU backend, that the correct ones pass (vector loads with a tail, the
 * warp-shuffle one-pass combine, atomics) and the planted wrong identity is
 * caught. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/fileio.h"
#include "common/strbuf.h"
#include "tests/test.h"

/* knobs.json of program/variants/name under root, parsed (NULL: absent). */
static cJSON *variant_knobs(const char *root, const char *program, const char *name)
{
    char *path = xasprintf("%s/g/c/reduce_all/%s/variants/%s/knobs.json", root, program, name);
    char *text = NULL;
    size_t len = 0;
    Error e;
    cJSON *j = file_read_all(path, 1 << 20, &text, &len, &e) == 0 ? cJSON_Parse(text) : NULL;
    free(text);
    free(path);
    return j;
}

static int knob_is(const cJSON *knobs, const char *key, const char *want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(knobs, key);
    return cJSON_IsString(v) && strcmp(v->valuestring, want) == 0;
}

TEST(reduce_alternatives_knob_space)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family reduce_all", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    static const struct {
        const char *program, *variant, *key, *want;
    } present[] = {
        {"sum-f32", "warp-shuffle", "reduction", "warp-shuffle"},
        {"sum-f32", "one-pass", "passes", "1"},
        {"sum-f32", "atomic", "reduction", "atomic"},
        {"sum-f32", "vec4", "vector_width", "4"},
        {"sum-f64", "vec2", "vector_width", "2"},
        {"sum-f32", "block-1024", "block", "1024"},
        {"sum-f32-strided", "vec-shuffle-one-pass", "vector_width", "1"}, /* strided: scalar loads */
        {"sum-f32", "wrong-reduction-identity", "expect", "fail"},
        {"prod-f64", "wrong-reduction-identity", "defect", "wrong-reduction-identity"},
        {"sum-i64", "non-atomic-accumulation", "expect", "race"},
        {"max-i32", "atomic", "reduction", "atomic"},
    };
    for (size_t i = 0; i < sizeof present / sizeof present[0]; i++) {
        cJSON *k = variant_knobs(t->tmpdir, present[i].program, present[i].variant);
        CHECK_MSG(k && knob_is(k, present[i].key, present[i].want), "%s/%s: %s is not %s", present[i].program,
                  present[i].variant, present[i].key, present[i].want);
        cJSON_Delete(k);
    }
    /* where a knob means nothing: no vector loads of a strided x, no atomic
     * product or floating-point max, no wrong identity for a largest
     * magnitude (0 is as good as the right one) */
    static const char *const absent[][2] = {
        {"sum-f32-strided", "vec4"}, {"prod-f64", "atomic"}, {"max-f32", "atomic"}, {"amax-f64", "wrong-reduction-identity"},
    };
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        cJSON *k = variant_knobs(t->tmpdir, absent[i][0], absent[i][1]);
        CHECK_MSG(!k, "%s has a %s variant", absent[i][0], absent[i][1]);
        cJSON_Delete(k);
    }
    free(bin);
    return 0;
}

TEST(reduce_alternatives_judged_on_the_cpu_backend)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family reduce_all", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    /* edge-prime: n = 7919 (contiguous) or 1021 (strided), no multiple of 4 */
    static const char *const cases[][3] = {
        {"sum-f32", "vec4", "pass"},
        {"var-f32", "vec-shuffle-one-pass", "pass"},
        {"logsumexp-f64-strided", "vec-shuffle-one-pass", "pass"},
        {"sum-i64", "atomic", "pass"},
        {"min-i64-strided", "atomic", "pass"},
        {"range-i32", "one-pass", "pass"},
        {"max-f32", "wrong-reduction-identity", "wrong_result"},
        {"prod-f64", "wrong-reduction-identity", "wrong_result"},
        {"welford-std-f64", "wrong-reduction-identity", "wrong_result"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *prog = cases[i][0], *var = cases[i][1];
        st = test_sh(&out,
                     "cd %s && d=g/c/reduce_all/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                     "$d/variants/%s/launch.json --backend cpu --configs edge-prime --trials 1 --cache c",
                     t->tmpdir, prog, bin, var, var);
        char want[64];
        snprintf(want, sizeof want, "verdict: %s", cases[i][2]);
        CHECK_MSG(out && strstr(out, want), "%s/%s: want %s: %s", prog, var, cases[i][2], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}

/* The row reductions' alternatives (generators/fam_reduce_rows.c): one warp
 * per row and the warp-shuffle block combine, for row-major layouts only;
 * correct on the CPU backend where rows are shorter and longer than a warp
 * and their count is no multiple of the rows per block. */
TEST(reduce_rows_alternatives)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family reduce_rows && "
                           "cat g/c/reduce_rows/sum-f32/variants/warp-per-row/knobs.json && "
                           "test ! -e g/c/reduce_rows/sum-f64-colmajor/variants/warp-per-row",
                     t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "\"mapping\":\t\"one-row-per-warp-reduction-shuffle\""), "%s",
              out ? out : "");
    free(out);
    /* edge-prime: 37 rows of 131; edge-col: 7 rows of 1 */
    static const char *const cases[][3] = {
        {"var-f64-norm", "warp-per-row", "edge-prime,edge-col"},
        {"lse-f64-ld-norm", "warp-per-row-128", "edge-prime,edge"},
        {"range-f64-norm", "warp-shuffle", "edge-prime,edge-col"},
        {"welford-f64-ld", "warp-shuffle", "edge-prime"},
        {"count-gt-f64-ld", "block-1024", "edge-prime"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st = test_sh(&out,
                     "cd %s && d=g/c/reduce_rows/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                     "$d/variants/%s/launch.json --backend cpu --configs %s --trials 1 --cache c",
                     t->tmpdir, cases[i][0], bin, cases[i][1], cases[i][1], cases[i][2]);
        CHECK_MSG(out && strstr(out, "verdict: pass"), "%s/%s: %s", cases[i][0], cases[i][1], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}

/* softmax's alternatives (generators/fam_softmax.c): one warp per row, its
 * block reductions made warp butterflies; correct on the CPU backend for
 * every row body that reduces (max and sum, the online pair, the masked
 * row's early return, the backward dot product). */
TEST(softmax_warp_per_row)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family softmax && "
                           "test ! -e g/c/softmax/online-cols-f32/variants/warp-per-row && "
                           "grep -c __shfl_xor_sync g/c/softmax/online-rows-f32/variants/warp-per-row/kernel.cu",
                     t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    static const char *const cases[][2] = {
        {"online-rows-f32", "warp-per-row"}, {"masked-ld-f64", "warp-per-row-128"},
        {"backward-rows-f64", "warp-per-row"}, {"softmax-ld-f32", "block-1024"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st = test_sh(&out,
                     "cd %s && d=g/c/softmax/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                     "$d/variants/%s/launch.json --backend cpu --configs small,edge,edge-prime --trials 1 --cache c",
                     t->tmpdir, cases[i][0], bin, cases[i][1], cases[i][1]);
        CHECK_MSG(out && strstr(out, "verdict: pass"), "%s/%s: %s", cases[i][0], cases[i][1], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}

/* The row norms' alternatives (generators/fam_layernorm.c): warp-shuffle
 * block sums, one warp per row, the mean and variance in one pass; none
 * where it means nothing (no one-pass variance for RMSNorm). */
TEST(layernorm_alternatives)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family layernorm && "
                           "test ! -e g/c/layernorm/rmsnorm-f32/variants/one-pass && "
                           "test -e g/c/layernorm/rmsnorm-f32/variants/warp-per-row",
                     t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    static const char *const cases[][2] = {
        {"layernorm-stats-ld-f32", "warp-per-row-one-pass"}, {"residual-layernorm-gelu-f64", "one-pass"},
        {"residual-rmsnorm-ld-f32", "warp-per-row"}, {"layernorm-noaffine-f64", "warp-shuffle"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st = test_sh(&out,
                     "cd %s && d=g/c/layernorm/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                     "$d/variants/%s/launch.json --backend cpu --configs small,edge,edge-prime --trials 1 --cache c",
                     t->tmpdir, cases[i][0], bin, cases[i][1], cases[i][1]);
        CHECK_MSG(out && strstr(out, "verdict: pass"), "%s/%s: %s", cases[i][0], cases[i][1], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}
