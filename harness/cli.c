#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(const Error *e)
{
    fprintf(stderr, "harness: %s\n", e->msg);
    if (getenv("CUDAPERF_DEBUG") && e->src_file)
        fprintf(stderr, "  (raised at %s:%d)\n", e->src_file, e->src_line);
    return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "harness %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see `harness %s --help`)\n", cmd);
    return EXIT_USAGE;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0;
}

int cli_dispatch(CliContext *cx, const char *prefix, const CliCommand *table, int n, int argc, char **argv)
{
    if (argc < 1 || cli_is_help(argv[0])) {
        FILE *f = argc < 1 ? stderr : stdout;
        fprintf(f, "usage: harness %s%s<command> [options]\n\ncommands:\n", prefix, *prefix ? " " : "");
        for (int i = 0; i < n; i++)
            if (table[i].help) /* NULL help: a hidden command (the GPU worker) */
                fprintf(f, "  %-10s %s\n", table[i].name, table[i].help);
        fprintf(f, "\nEvery command takes --catalog PATH (default datasets/catalog.db) and --help.\n");
        return argc < 1 ? EXIT_USAGE : 0;
    }
    /* The table is sorted: binary search, as git does for its builtins. */
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(argv[0], table[mid].name);
        if (c == 0)
            return table[mid].run(cx, argc, argv);
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    fprintf(stderr, "harness: '%s%s%s' is not a command (see `harness %s--help`)\n", prefix, *prefix ? " " : "",
            argv[0], prefix[0] ? prefix : "");
    return EXIT_USAGE;
}
