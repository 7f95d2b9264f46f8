/* cli.h — what the harness subcommands share: the command table, option
 * helpers and the exit-code convention (0 ok, 1 runtime failure, 2 usage). */
#ifndef CUDAPERF_CLI_H
#define CUDAPERF_CLI_H

#include <stdio.h>

#include "common/error.h"
#include "harness/catalog.h"

#define EXIT_USAGE 2

typedef struct CliContext {
    const char *catalog_path;  /* --catalog, default datasets/catalog.db */
} CliContext;

typedef struct CliCommand {
    const char *name;
    int (*run)(CliContext *cx, int argc, char **argv); /* argv[0] is the command name */
    const char *help;  /* NULL: hidden from the command list */
} CliCommand;

/* Prints "harness: <msg>" to stderr; returns 1 (runtime failure). */
int cli_fail(const Error *e);
/* Prints "harness <cmd>: <msg>" and a hint to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Dispatches argv[0] through a sorted table of subcommands. */
int cli_dispatch(CliContext *cx, const char *prefix, const CliCommand *table, int n, int argc, char **argv);

int cli_is_help(const char *arg);

/* The top-level commands. */
int cmd_catalog(CliContext *cx, int argc, char **argv);
int cmd_compile(CliContext *cx, int argc, char **argv);
int cmd_eval(CliContext *cx, int argc, char **argv);
int cmd_export(CliContext *cx, int argc, char **argv);
int cmd_import(CliContext *cx, int argc, char **argv);
int cmd_ingest(CliContext *cx, int argc, char **argv);
int cmd_kernels(CliContext *cx, int argc, char **argv);
int cmd_merge(CliContext *cx, int argc, char **argv);
int cmd_profile(CliContext *cx, int argc, char **argv);
int cmd_results(CliContext *cx, int argc, char **argv);
int cmd_run(CliContext *cx, int argc, char **argv);
int cmd_structure(CliContext *cx, int argc, char **argv);
int cmd_worker(CliContext *cx, int argc, char **argv);

#endif
