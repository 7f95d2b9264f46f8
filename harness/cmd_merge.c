/* harness merge — bring the runs of catalog copies (the shards of a
 * cluster job, or runs made on another machine) into this catalog. */
#include <stdio.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/merge.h"

static const char USAGE[] =
    "usage: harness merge SOURCE.db...\n"
    "  Copies the runs of SOURCE catalogs into this catalog (--catalog): the shards of one\n"
    "  job (`harness run --shard I/N` on copies of the catalog) become one run, finished when\n"
    "  every shard 0..N-1 is there once; other runs are copied as they are.  Results are\n"
    "  matched by kernel content and by program and config name, so the copies need only hold\n"
    "  the same programs and kernels.  All or nothing: on an error nothing is stored.  Merging\n"
    "  the same runs again stores nothing.  Example (a job of 4 shards):\n"
    "    for i in 0 1 2 3; do cp catalog.db shard-$i.db; done\n"
    "    harness --catalog shard-$I.db run --split test --shard $I/4    # on each node\n"
    "    harness --catalog catalog.db merge shard-*.db\n";

int cmd_merge(CliContext *cx, int argc, char **argv)
{
    if (argc >= 2 && cli_is_help(argv[1])) {
        fputs(USAGE, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-')
            return cli_usage_error("merge", "unknown option '%s'", argv[i]);
    if (argc < 2)
        return cli_usage_error("merge", "name at least one source catalog");
    Catalog *c = NULL;
    Error e;
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0)
        return cli_fail(&e);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], cx->catalog_path) == 0) {
            catalog_close(c);
            return cli_usage_error("merge", "'%s' is the catalog being merged into", argv[i]);
        }
    MergeSummary s;
    int rc = merge_catalogs(c, (const char *const *)argv + 1, argc - 1, stdout, &s, &e);
    catalog_close(c);
    if (rc != 0)
        return cli_fail(&e);
    printf("harness merge: %d run(s) read from %d catalog(s); %d run(s) stored with %ld results, %d merged before\n",
           s.source_runs, argc - 1, s.runs_created, s.results, s.runs_skipped);
    return 0;
}
