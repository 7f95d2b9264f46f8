/* test_ew_chain_alternatives.c — the fused elementwise chains' knob space
 * (generators/fam_ew_chain.c): the chain unfused into one kernel per step
 * through poisoned scratch buffers, float2/float4/double2 loads with a
 * scalar tail, and a grid-stride loop of 4 elements per thread per trip;
 * which programs get which (no vectors of a strided layout, no 4-wide
 * vector of double: refused with their reasons), what the knobs record,
 * and, end to end on the CPU backend, that every alternative of a program
 * of each layout and element type passes.
 *
 * Programs are named c<k>-<dtype>-<steps>[-<layout>], the steps drawn at
 * random: the tests find them by index, dtype and layout tag (none for the
 * copy layout: c00 and c14 are copies). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tests/test.h"

/* knobs.json of variants/name of the program matching glob `program`
 * under root/g/c/ew_chain, parsed (NULL: absent). */
static cJSON *variant_knobs(const char *root, const char *program, const char *name)
{
    char *out = NULL;
    int st = test_sh(&out, "cat %s/g/c/ew_chain/%s/variants/%s/knobs.json 2>/dev/null", root, program, name);
    cJSON *j = st == 0 && out ? cJSON_Parse(out) : NULL;
    free(out);
    return j;
}

static int knob_is(const cJSON *knobs, const char *key, const char *want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(knobs, key);
    return cJSON_IsString(v) && strcmp(v->valuestring, want) == 0;
}

TEST(ew_chain_alternatives_knob_space)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family ew_chain --verbose", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    CHECK_MSG(out && strstr(out, "-strided/variants/vector-2: x and y are strided (incx, incy)"),
              "no strided refusal reported: %s", out ? out : "");
    CHECK_MSG(out && strstr(out, "-f64-") && strstr(out, "/variants/vector-4: 4 doubles are 32 bytes"),
              "no double4 refusal reported: %s", out ? out : "");
    free(out);
    /* c00: copy, f32, 2 steps; c02: strided f64; c14: copy f64 */
    static const struct {
        const char *program, *variant, *key, *want;
    } present[] = {
        {"c00-f32-*", "unfused", "fusion", "unfused"},
        {"c00-f32-*", "unfused", "expect", "slower"},
        {"c00-f32-*", "unfused", "launches", "2"},
        {"c00-f32-*", "vector-4", "vector_width", "4"},
        {"c00-f32-*", "vector-4", "elements_per_thread", "4"},
        {"c00-f32-*", "vector-4", "fusion", "fused"},
        {"c00-f32-*", "vector-2", "vector_width", "2"},
        {"c00-f32-*", "vector-2", "expect", "pass"},
        {"c14-f64-*", "vector-2", "elements_per_thread", "2"},
        {"c02-f64-*-strided", "ept-4-grid-stride", "mapping", "grid-stride"},
        {"c02-f64-*-strided", "ept-4-grid-stride", "elements_per_thread", "4"},
        {"c02-f64-*-strided", "ept-4-grid-stride", "vector_width", "1"},
        {"c02-f64-*-strided", "unfused", "fusion", "unfused"},
    };
    for (size_t i = 0; i < sizeof present / sizeof present[0]; i++) {
        cJSON *k = variant_knobs(t->tmpdir, present[i].program, present[i].variant);
        CHECK_MSG(k && knob_is(k, present[i].key, present[i].want), "%s/%s: %s is not %s", present[i].program,
                  present[i].variant, present[i].key, present[i].want);
        cJSON_Delete(k);
    }
    /* Over the whole family: every program unfused and grid-stride; vectors
     * of 2 wherever the layout is contiguous, of 4 only for f32; the pair's
     * knobs untouched (no fusion key). */
    st = test_sh(&out,
                 "cd %s/g/c/ew_chain && n=0 && for d in c*; do n=$((n+1)); "
                 "test -e $d/variants/unfused && test -e $d/variants/ept-4-grid-stride || echo \"$d: missing\"; "
                 "case $d in *-strided) test -e $d/variants/vector-2 -o -e $d/variants/vector-4 && echo \"$d: vector\";; "
                 "*) test -e $d/variants/vector-2 || echo \"$d: no vector-2\";; esac; "
                 "case $d in *-f64-*) test -e $d/variants/vector-4 && echo \"$d: double4\";; "
                 "*-strided) ;; *) test -e $d/variants/vector-4 || echo \"$d: no vector-4\";; esac; "
                 "grep -q fusion $d/knobs.json && echo \"$d: pair knobs changed\"; done; echo \"programs: $n\"",
                 t->tmpdir);
    CHECK_MSG(st == 0 && out && strcmp(out, "programs: 54\n") == 0, "%s", out ? out : "");
    free(out);
    free(bin);
    return 0;
}

TEST(ew_chain_alternatives_judged_on_the_cpu_backend)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family ew_chain", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    /* Each layout in f32 and f64.  Configs: small (n = 100000, or 60000
     * strided), edge (n = 1: only the vector kernels' tail), edge-prime
     * (n = 3001 or 1009: no multiple of 2 or 4); large only where it is the
     * one config that makes the grid-stride loop take several trips (the
     * grid capped at 1056 blocks) at a size the CPU runs in seconds. */
    static const char *const programs[] = {
        "c00-f32-*",         "c14-f64-*",         "c01-f32-*-inplace",  "c08-f64-*-inplace",
        "c19-f32-*-strided", "c02-f64-*-strided", "c03-f32-*-residual", "c23-f64-*-residual",
    };
    static const char *const alts[] = {"unfused", "vector-2", "vector-4", "ept-4-grid-stride"};
    int judged = 0;
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        for (size_t a = 0; a < sizeof alts / sizeof alts[0]; a++) {
            st = test_sh(&out,
                         "cd %s && d=$(echo g/c/ew_chain/%s) && test -d $d || exit 4; test -d $d/variants/%s || exit 3; "
                         "%s/harness eval $d $d/variants/%s/kernel.cu $d/variants/%s/launch.json --backend cpu "
                         "--configs small,edge,edge-prime --trials 1 --cache c",
                         t->tmpdir, programs[i], alts[a], bin, alts[a], alts[a]);
            if (st == 3) {
                free(out);
                continue; /* refused for this program (checked by the knob-space test) */
            }
            judged++;
            CHECK_MSG(st == 0 && out && strstr(out, "verdict: pass") && strstr(out, "config edge-prime: pass"),
                      "%s/%s: %s", programs[i], alts[a], out ? out : "");
            free(out);
        }
    /* 8 programs x 4, less 2 strided x 2 vectors and 3 f64 vector-4 */
    CHECK_MSG(judged == 25, "judged %d alternatives, want 25", judged);
    st = test_sh(&out,
                 "cd %s && d=$(echo g/c/ew_chain/c02-f64-*-strided) && %s/harness eval $d "
                 "$d/variants/ept-4-grid-stride/kernel.cu $d/variants/ept-4-grid-stride/launch.json "
                 "--backend cpu --configs large --trials 1 --cache c",
                 t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "verdict: pass"), "grid-stride on large: %s", out ? out : "");
    free(out);
    free(bin);
    return 0;
}
