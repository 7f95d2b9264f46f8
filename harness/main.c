/* harness — the CudaPerf command line: catalog queries, ingest of program
 * folders, candidate evaluation on the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli.h"

static const CliCommand COMMANDS[] = {
    /* sorted by name */
    {"catalog", cmd_catalog, "query and check the catalog (stats, list, show, check, hash)"},
    {"compile", cmd_compile, "compile CUDA candidates with NVRTC (no GPU needed) and show their logs"},
    {"eval", cmd_eval, "evaluate one CUDA candidate (kernel.cu + launch.json) on the GPU"},
    {"export", cmd_export, "write catalog programs in another format (--format kernelbench)"},
    {"import", cmd_import, "bring problem files of another format into the catalog (--format kernelbench)"},
    {"ingest", cmd_ingest, "validate program folders and add them to the catalog"},
    {"kernels", cmd_kernels, "list a program's CUDA candidates, show one (source, launch plan, knobs)"},
    {"merge", cmd_merge, "bring the runs of catalog copies (shards of a cluster job) into this catalog"},
    {"profile", cmd_profile, "measured structure of catalog kernels on the GPU (CUPTI), beside the static report"},
    {"results", cmd_results, "list the results of a run (default: the latest) [--json]"},
    {"run", cmd_run, "evaluate candidates of a split on the GPU(s) and store the results as a run"},
    {"structure", cmd_structure, "static structural report of a CUDA candidate: coalescing, occupancy, barriers (no GPU)"},
    {"worker", cmd_worker, NULL}, /* the GPU worker process, started by the harness itself */
};

int main(int argc, char **argv)
{
    CliContext cx = {getenv("CUDAPERF_CATALOG") ? getenv("CUDAPERF_CATALOG") : "datasets/catalog.db"};
    /* --catalog PATH is accepted anywhere on the line. */
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--catalog") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "harness: --catalog needs a path\n");
                return EXIT_USAGE;
            }
            cx.catalog_path = argv[++i];
        } else if (strncmp(argv[i], "--catalog=", 10) == 0) {
            cx.catalog_path = argv[i] + 10;
        } else {
            argv[n++] = argv[i];
        }
    }
    argv[n] = NULL;
    return cli_dispatch(&cx, "", COMMANDS, (int)(sizeof COMMANDS / sizeof *COMMANDS), n, argv);
}
