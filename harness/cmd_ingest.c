/* harness ingest — validate program folders and add them to the catalog. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cli.h"
#include "harness/ingest.h"

static const char USAGE[] =
    "usage: harness ingest [--jobs N] [--seed N] [--origin O] [--force] [--quiet] DIR...\n"
    "  Finds every folder below DIR holding meta.json + program.c, validates it, compiles\n"
    "  it, runs its small config (two seeds) and edge configs in the sandbox, drops\n"
    "  degenerate programs (listed with the reason) and stores the rest, then assigns splits.\n"
    "  Programs already in the catalog (same content hash) are skipped: reruns are no-ops.\n"
    "  --jobs N     worker processes (default: number of CPU cores)\n"
    "  --seed N     input seed of the checks (default 20261202)\n"
    "  --origin O   generated (default), contributed or imported\n"
    "  --cache DIR  compiled references (default: next to the catalog, cache/cref)\n"
    "  --timeout S  wall-clock limit per reference run (default 20)\n"
    "  --force      re-check programs the catalog already knows\n"
    "  --strict     exit 1 if any program was invalid, failed or dropped\n"
    "  --quiet      no progress line\n";

int cmd_ingest(CliContext *cx, int argc, char **argv)
{
    IngestOptions opt = {(int)sysconf(_SC_NPROCESSORS_ONLN), 20261202, NULL, "generated", 0, 0, 0};
    char **roots = calloc((size_t)argc + 1, sizeof *roots);
    int n_roots = 0, rc = 0, strict = 0;
    char *cache = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            free(roots);
            return 0;
        } else if (strcmp(a, "--jobs") == 0 && i + 1 < argc) {
            opt.jobs = atoi(argv[++i]);
        } else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
            opt.seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--origin") == 0 && i + 1 < argc) {
            opt.origin = argv[++i];
        } else if (strcmp(a, "--cache") == 0 && i + 1 < argc) {
            opt.cache_dir = argv[++i];
        } else if (strcmp(a, "--force") == 0) {
            opt.force = 1;
        } else if (strcmp(a, "--timeout") == 0 && i + 1 < argc) {
            opt.timeout_seconds = atof(argv[++i]);
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            opt.quiet = 1;
        } else if (a[0] == '-') {
            free(roots);
            return cli_usage_error("ingest", "unknown option '%s'", a);
        } else {
            roots[n_roots++] = argv[i];
        }
    }
    if (n_roots == 0) {
        free(roots);
        return cli_usage_error("ingest", "no folder given");
    }
    if (opt.jobs < 1)
        opt.jobs = 1;
    if (strcmp(opt.origin, "generated") && strcmp(opt.origin, "contributed") && strcmp(opt.origin, "imported")) {
        free(roots);
        return cli_usage_error("ingest", "--origin must be generated, contributed or imported");
    }
    if (!opt.cache_dir) {
        const char *slash = strrchr(cx->catalog_path, '/');
        int dl = slash ? (int)(slash - cx->catalog_path) : 1;
        cache = malloc((size_t)dl + 32);
        snprintf(cache, (size_t)dl + 32, "%.*s/cache/cref", dl, slash ? cx->catalog_path : ".");
        opt.cache_dir = cache;
    }
    Error e;
    Catalog *c = NULL;
    IngestSummary s;
    if (catalog_open(cx->catalog_path, 1, &c, &e) != 0 || ingest_paths(c, roots, n_roots, &opt, &s, &e) != 0) {
        rc = cli_fail(&e);
    } else {
        printf("harness ingest: %d found, %d unchanged, %d added, %d dropped as degenerate, %d failed, %d invalid; "
               "%d split assignments changed; kernels: %d added, %d removed\n",
               s.found, s.unchanged, s.added, s.degenerate, s.failed, s.invalid, s.split_changes, s.kernels_added,
               s.kernels_removed);
        if (s.not_checked)
            printf("harness ingest: %d programs not checked (nothing stored for them; see the messages above)\n",
                   s.not_checked);
        if (strict && (s.invalid || s.failed || s.degenerate))
            rc = 1;
        if (s.not_checked)
            rc = 1;
    }
    catalog_close(c);
    free(roots);
    free(cache);
    return rc;
}
