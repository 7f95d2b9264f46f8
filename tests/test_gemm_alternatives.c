/* test_gemm_alternatives.c — the tiled template's knob space in the gemm
 * family: tile_check (generators/gen_tile) accepts shapes within the sm_90
 * limits, up to the limits exactly, and refuses each shape past one with a
 * reason naming it; generating the family refuses the settings that break
 * a limit, says why under --verbose and writes no folder for them; and
 * register-tiled alternatives of real programs pass on the CPU backend on
 * the edge configs, while one with its inner product broken fails there. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "generators/gen_tile.h"
#include "tests/test.h"

/* Shapes within the limits, the last three at a limit exactly. */
TEST(tile_check_accepts_shapes_within_limits)
{
    static const TileShape OK[] = {
        {16, 16, 16, 1, 1, 4, 4, 0},     /* the pairs' 16 x 16 tile */
        {32, 32, 32, 1, 1, 8, 8, 0},     /* 1024 threads */
        {64, 64, 16, 4, 4, 8, 8, 0},     /* register-tiled, double */
        {128, 128, 128, 8, 8, 1, 1, 0},  /* 32 KiB of int8 tiles */
        {128, 128, 128, 8, 8, 4, 4, 1},  /* 128 KiB, dynamic */
        {64, 64, 96, 4, 4, 4, 4, 0},     /* 49152 bytes static */
        {256, 256, 454, 8, 8, 1, 1, 1},  /* 232448 bytes dynamic, 1024 threads */
        {64, 32, 8, 2, 1, 4, 4, 0},      /* rectangular */
    };
    for (size_t i = 0; i < sizeof OK / sizeof *OK; i++) {
        char why[256] = "";
        const char *r = tile_check(&OK[i], why, sizeof why);
        CHECK_MSG(r == NULL, "shape %zu refused: %s", i, why);
    }
    TileShape s = {64, 64, 16, 4, 4, 4, 8, 0};
    CHECK(tile_threads(&s) == 256);
    CHECK(tile_smem_bytes(&s) == 64 * 16 * 4 + 16 * 64 * 8);
    return 0;
}

/* Each shape past a limit, refused with a reason naming that limit. */
TEST(tile_check_refuses_with_reasons)
{
    static const struct {
        TileShape s;
        const char *reason[2]; /* both must appear */
    } BAD[] = {
        {{64, 64, 64, 1, 1, 4, 4, 0}, {"(4096) over the limit of 1024", "threads per block"}},
        {{48, 48, 16, 1, 1, 4, 4, 1}, {"(2304) over the limit of 1024", "48x48"}},
        {{128, 128, 128, 8, 8, 8, 8, 0}, {"262144 bytes", "227 KiB (232448 bytes)"}},
        {{128, 128, 128, 8, 8, 8, 8, 1}, {"262144 bytes", "227 KiB (232448 bytes)"}},
        {{256, 256, 455, 8, 8, 1, 1, 1}, {"232960 bytes", "227 KiB"}},
        {{128, 128, 128, 8, 8, 4, 4, 0}, {"static shared memory 131072 bytes", "48 KiB (49152 bytes)"}},
        {{64, 64, 97, 4, 4, 4, 4, 0}, {"static shared memory 49664 bytes", "48 KiB"}},
        {{64, 64, 16, 3, 3, 4, 4, 0}, {"register tile 3x3 does not divide", "64x64 tile"}},
        {{64, 60, 16, 4, 8, 4, 4, 0}, {"register tile 4x8 does not divide", "64x60"}},
        {{64, 64, 0, 4, 4, 4, 4, 0}, {"must be positive", "K step 0"}},
        {{64, 64, 16, 0, 4, 4, 4, 0}, {"must be positive", "register tile 0x4"}},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        char why[256] = "";
        const char *r = tile_check(&BAD[i].s, why, sizeof why);
        CHECK_MSG(r == why, "shape %zu accepted", i);
        for (int k = 0; k < 2 && r; k++)
            CHECK_MSG(strstr(r, BAD[i].reason[k]), "shape %zu: wanted '%s' in '%s'", i, BAD[i].reason[k], r);
    }
    return 0;
}

static char *bin_dir(void)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return xstrdup(dirname(self));
}

/* Generates the gemm family into t's g/ with --verbose into gen.txt;
 * returns the generator's status. */
static int generate_gemm(TestCtx *t, const char *bin)
{
    char *out = NULL;
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family gemm --verbose >gen.txt 2>&1; s=$?; "
                           "tail -1 gen.txt; exit $s", t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "54 programs"), "cudaperf-gen: %s", out ? out : "");
    free(out);
    return st;
}

/* The settings that break a limit are refused on real programs, with their
 * reasons, and never written; the ones within the limits are written with
 * their knobs. */
TEST(gemm_alternatives_refused_with_reasons)
{
    char *bin = bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    if (generate_gemm(t, bin) != 0) {
        free(bin);
        return 0;
    }
    static const char *const LINES[] = {
        "refused c/gemm/matmul-f32/variants/tile-64: 64x64 threads per block (4096) over the limit of 1024\n",
        "refused c/gemm/matmul-f64/variants/regtile-8x8-k128: shared memory 262144 bytes over the 227 KiB",
        "refused c/gemm/matmul-f32/variants/regtile-8x8-k128: static shared memory 131072 bytes over the 48 KiB",
    };
    int st = test_sh(&out, "cd %s && cat gen.txt", t->tmpdir);
    for (size_t i = 0; i < sizeof LINES / sizeof *LINES; i++)
        CHECK_MSG(st == 0 && out && strstr(out, LINES[i]), "wanted '%s'", LINES[i]);
    free(out);
    /* refused: no folder; within the limits: a folder with its knobs */
    st = test_sh(&out, "cd %s/g/c/gemm && ls -d matmul-f32/variants/tile-64 matmul-f64/variants/regtile-8x8-k128 "
                       "matmul-f32/variants/regtile-8x8-k128 2>/dev/null | wc -l",
                 t->tmpdir);
    CHECK_MSG(st == 0 && out && atoi(out) == 0, "refused variants written: %s", out ? out : "");
    free(out);
    st = test_sh(&out, "cd %s/g/c/gemm && cat matmul-f32/variants/regtile-4x4/knobs.json "
                       "int8-nn-i8/variants/regtile-8x8-k128/knobs.json",
                 t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "\"register_tile\":\t\"4x4\"") && strstr(out, "\"tile\":\t\"64\"") &&
                  strstr(out, "\"block\":\t\"16x16\"") && strstr(out, "\"register_tile\":\t\"8x8\"") &&
                  strstr(out, "\"derived\":\t\"regtile-4x4\"") && strstr(out, "\"expect\":\t\"pass\""),
              "knobs: %s", out ? out : "");
    free(out);
    /* a few refusals per program at most, and none of a setting within the limits */
    st = test_sh(&out, "cd %s && grep -c '^refused ' gen.txt; grep -c -E '/variants/(tile-32|regtile-2x2|regtile-4x4):' "
                       "gen.txt; grep '^refused ' gen.txt | cut -d/ -f3 | sort | uniq -c | sort -rn | head -1",
                 t->tmpdir);
    int total = -1, within = -1, most = -1;
    if (out)
        sscanf(out, "%d %d %d", &total, &within, &most);
    CHECK_MSG(st != 2 && total > 0 && total <= 2 * 54 && within == 0 && most <= 2, "refusals: %s", out ? out : "");
    free(out);
    free(bin);
    return 0;
}

/* Register-tiled alternatives of real programs (a triangular operand, an
 * int8 accumulation, an epilogue) pass on the CPU backend on the edge
 * configs; the same kernel with each thread's products crossed (row r's A
 * times column r's B) fails: the check can tell. */
TEST(gemm_register_tiled_alternatives_pass_cpu)
{
    char *bin = bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    if (generate_gemm(t, bin) != 0) {
        free(bin);
        return 0;
    }
    static const char *const CASES[][2] = {
        {"symm-lower-f64", "regtile-4x4"},
        {"int8-tn-accumulate-i8", "regtile-8x8-k128"},
        {"matmul-bias-gelu-tanh-f32", "regtile-2x2"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        int st = test_sh(&out, "cd %s && d=g/c/gemm/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                               "$d/variants/%s/launch.json --backend cpu --configs edge,edge-prime --trials 1 --cache c",
                         t->tmpdir, CASES[i][0], bin, CASES[i][1], CASES[i][1]);
        CHECK_MSG(st == 0 && out && strstr(out, "verdict: pass") && strstr(out, "edge-prime     pass"), "%s/%s: %s",
                  CASES[i][0], CASES[i][1], out ? out : "");
        free(out);
    }
    test_sh(&out, "cd %s && d=g/c/gemm/matmul-f32 && mkdir -p bad && "
            "sed 's/sum\\[r\\]\\[s\\] += av\\[r\\] \\* bv\\[s\\]/sum[r][s] += av[r] * bv[r]/' "
            "$d/variants/regtile-4x4/kernel.cu >bad/kernel.cu && ! cmp -s bad/kernel.cu "
            "$d/variants/regtile-4x4/kernel.cu && %s/harness eval $d bad/kernel.cu "
            "$d/variants/regtile-4x4/launch.json --backend cpu --configs edge-prime --trials 1 --cache c",
            t->tmpdir, bin);
    CHECK_MSG(out && strstr(out, "verdict: wrong_result"), "the crossed products: %s", out ? out : "");
    free(out);
    free(bin);
    return 0;
}
