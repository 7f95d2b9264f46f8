/* harness import — problem files of another format into the catalog
 * (KernelBench's: see kb_import.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cli.h"
#include "harness/kb_describe.h"
#include "harness/kb_import.h"

static const char USAGE[] =
    "usage: harness import --format kernelbench [options] FILE_OR_DIR...\n"
    "  Imports KernelBench-format Python files (class Model, get_inputs(), get_init_inputs();\n"
    "  folders are searched for *.py) as torch programs with origin \"imported\".  Each file is\n"
    "  described by the PyTorch runner under its original module-level integer constants\n"
    "  (config \"large\"), under halved ones (\"small\", all buffers within --small-bytes) and\n"
    "  under small odd/prime ones (\"edge\"); shapes become expressions of the constants.  Then\n"
    "  the programs go through ingest (degenerate filter, splits).  A file that fails gets one\n"
    "  line `harness: import: FILE: reason`; the others continue.  Exit 0 when anything was\n"
    "  imported or everything was already present, 1 when every file was rejected.\n"
    "  --format F        kernelbench (the only one)\n"
    "  --family NAME     family of the programs (default imported_kernelbench)\n"
    "  --license L       provenance.license (default unknown)\n"
    "  --timeout S       deadline per describe request and per reference run (default 60)\n"
    "  --small-bytes N   budget of the small config, all buffers (default 1048576)\n"
    "  --jobs N          ingest worker processes (default: number of CPU cores)\n"
    "  --seed N          input seed of ingest's checks (default 20261202)\n"
    "  --force           describe and check files whose program the catalog already holds\n"
    "  --quiet           no progress lines\n"
    "  The interpreter: $CUDAPERF_PYTHON, else python3 when it imports torch, else /usr/bin/python3.\n";

int cmd_import(CliContext *cx, int argc, char **argv)
{
    KbImportOptions opt;
    IngestOptions io = {(int)sysconf(_SC_NPROCESSORS_ONLN), 20261202, NULL, "imported", 0, 0, 0};
    memset(&opt, 0, sizeof opt);
    char **paths = calloc((size_t)argc + 1, sizeof *paths);
    const char *format = NULL;
    double timeout = 60;
    int n_paths = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            free(paths);
            return 0;
        } else if (strcmp(a, "--format") == 0 && more) {
            format = argv[++i];
        } else if (strcmp(a, "--family") == 0 && more) {
            opt.family = argv[++i];
        } else if (strcmp(a, "--license") == 0 && more) {
            opt.license = argv[++i];
        } else if (strcmp(a, "--timeout") == 0 && more) {
            timeout = atof(argv[++i]);
        } else if (strcmp(a, "--small-bytes") == 0 && more) {
            opt.small_bytes = strtoll(argv[++i], NULL, 10);
        } else if (strcmp(a, "--jobs") == 0 && more) {
            io.jobs = atoi(argv[++i]);
        } else if (strcmp(a, "--seed") == 0 && more) {
            io.seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--force") == 0) {
            opt.force = io.force = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            opt.quiet = 1;
        } else if (a[0] == '-') {
            free(paths);
            return cli_usage_error("import", "unknown option '%s'", a);
        } else {
            paths[n_paths++] = argv[i];
        }
    }
    const char *err = NULL;
    if (!format)
        err = "--format is required (kernelbench)";
    else if (strcmp(format, "kernelbench") != 0)
        err = "unknown --format (known: kernelbench)";
    else if (n_paths == 0)
        err = "no file or folder given";
    else if (!(timeout > 0))
        err = "--timeout must be a positive number of seconds";
    else if (opt.small_bytes < 0)
        err = "--small-bytes must be positive";
    else if (opt.family && (!opt.family[0] || strchr(opt.family, '/')))
        err = "--family must be a simple name";
    if (err) {
        free(paths);
        return cli_usage_error("import", "%s", err);
    }
    if (io.jobs < 1)
        io.jobs = 1;
    io.timeout_seconds = timeout;
    const char *slash = strrchr(cx->catalog_path, '/');
    int dl = slash ? (int)(slash - cx->catalog_path) : 1;
    const char *dir = slash ? cx->catalog_path : ".";
    char *cache = xasprintf("%.*s/cache/cref", dl, dir);
    char *stage = xasprintf("%.*s/cache/import-%ld", dl, dir, (long)getpid());
    io.cache_dir = cache;
    opt.stage_dir = stage;

    Error e;
    Catalog *c = NULL;
    TorchRunner *r = NULL;
    KbImportSummary s;
    TorchRunnerOptions to = torch_runner_default_options();
    to.deadline_s = timeout;
    /* started by the first describe: a rerun that skips every file needs no torch */
    if (torch_runner_new(&to, 0, &r, &e) != 0 || catalog_open(cx->catalog_path, 1, &c, &e) != 0) {
        rc = cli_fail(&e);
    } else {
        KbDescriber d = kb_describer_torch(r);
        if (kb_import_paths(c, paths, n_paths, &opt, &d, &io, &s, &e) != 0) {
            rc = cli_fail(&e);
        } else {
            printf("harness import: %d files: imported %d, skipped %d (already present), rejected %d\n", s.files,
                   s.imported, s.skipped, s.rejected);
            rc = s.imported > 0 || s.rejected == 0 ? 0 : 1;
        }
    }
    catalog_close(c);
    torch_runner_free(r);
    free(paths);
    free(cache);
    free(stage);
    return rc;
}
