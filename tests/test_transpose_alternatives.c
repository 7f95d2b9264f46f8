/* test_transpose_alternatives.c — the tiled transposes' knob space
 * (generators/fam_transpose.c): tile sizes and elements per thread as
 * alternatives, correct on the CPU backend on ragged edges; a tile whose
 * static shared memory is over 48 KiB refused with its reason (reported by
 * cudaperf-gen --verbose) and never written, where a smaller element fits. */
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"

TEST(transpose_tile_alternatives)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family transpose --verbose", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    CHECK_MSG(out && strstr(out, "refused c/transpose/transpose2d-f64/variants/tile-128-rows-8: a 128x128 tile of "
                                 "double with its padding column is 132096 bytes of static shared memory, over 49152"),
              "%s", out ? out : "");
    free(out);
    st = test_sh(&out, "cd %s/g/c/transpose && test ! -e transpose2d-f64/variants/tile-128-rows-8 && "
                       "cat transpose2d-u8/variants/tile-128-rows-8/knobs.json",
                 t->tmpdir);
    CHECK_MSG(st == 0 && out && strstr(out, "\"elements_per_thread\":\t\"16\""), "%s", out ? out : "");
    free(out);
    static const char *const cases[][2] = {
        {"transpose2d-f64", "tile-16-rows-4"}, {"transpose2d-u8", "tile-128-rows-8"},
        {"batched-u8", "tile-64-rows-8"}, {"transpose2d-f32", "tile-32-rows-32"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st = test_sh(&out,
                     "cd %s && d=g/c/transpose/%s && %s/harness eval $d $d/variants/%s/kernel.cu "
                     "$d/variants/%s/launch.json --backend cpu --configs small,edge,edge-prime --trials 1 --cache c",
                     t->tmpdir, cases[i][0], bin, cases[i][1], cases[i][1]);
        CHECK_MSG(out && strstr(out, "verdict: pass"), "%s/%s: %s", cases[i][0], cases[i][1], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}
