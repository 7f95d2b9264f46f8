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

#include "common/strbuf.h"
#include "tests/test.h"

static char *bin_dir(void)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return xstrdup(dirname(self));
}

TEST(run_cpu_backend_every_family)
{
    char *bin = bin_dir();
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
