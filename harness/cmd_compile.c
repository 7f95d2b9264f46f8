/* harness compile — compile CUDA candidates with NVRTC, no GPU needed.
 *
 * For contributors and generator authors: checks that kernel.cu files
 * compile for a target (sm_90 by default) exactly as the GPU harness will
 * compile them (same include filter, options and cache), and prints the
 * log of those that do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/cli.h"
#include "harness/nvrtc.h"

static const char USAGE[] =
    "usage: harness compile [--arch sm_XX] [--cache DIR] [--quiet] kernel.cu|FOLDER...\n"
    "  Compiles each kernel.cu (a FOLDER stands for FOLDER/kernel.cu) with NVRTC as the GPU\n"
    "  harness does, without a GPU; prints one line per file and the log of failures.\n"
    "  --arch sm_XX   target (default sm_90, the H200)\n"
    "  --cache DIR    cubin cache (default datasets/cache/nvrtc)\n"
    "  --quiet        only failures and the summary\n"
    "Exit status: 0 when everything compiled, 1 otherwise, 2 usage.\n";

int cmd_compile(CliContext *cx, int argc, char **argv)
{
    (void)cx;
    const char *arch = "sm_90", *cache = "datasets/cache/nvrtc";
    int quiet = 0, n_ok = 0, n_bad = 0, n_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--arch") == 0 && i + 1 < argc) {
            arch = argv[++i];
        } else if (strcmp(a, "--cache") == 0 && i + 1 < argc) {
            cache = argv[++i];
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("compile", "unknown option '%s'", a);
        } else {
            n_files++;
        }
    }
    if (n_files == 0)
        return cli_usage_error("compile", "needs at least one kernel.cu or folder");
    Error e;
    if (nvrtc_check_arch(arch, &e) != 0)
        return cli_usage_error("compile", "%s", e.msg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--arch") == 0 || strcmp(a, "--cache") == 0) {
            i++;
            continue;
        }
        if (a[0] == '-' && a[1])
            continue;
        char *path = file_is_dir(a) ? xasprintf("%s/kernel.cu", a) : xstrdup(a);
        char *src = NULL;
        NvrtcResult r;
        memset(&r, 0, sizeof r);
        if (file_read_all(path, 1 << 20, &src, NULL, &e) != 0) {
            fprintf(stderr, "harness compile: %s\n", e.msg);
            n_bad++;
        } else if (nvrtc_compile(src, arch, cache, &r, &e) != 0) {
            n_bad++;
            printf("%s: %s\n", path, r.compile_error ? "compile_error" : "error");
            printf("%s\n", r.log && *r.log ? r.log : e.msg);
        } else {
            n_ok++;
            if (!quiet)
                printf("%s: ok (%zu bytes of cubin, %s)\n", path, r.cubin_len,
                       r.cached ? "cached" : "compiled");
        }
        nvrtc_result_release(&r);
        free(src);
        free(path);
    }
    printf("harness compile: %d compiled, %d failed (%s)\n", n_ok, n_bad, arch);
    return n_bad ? 1 : 0;
}
