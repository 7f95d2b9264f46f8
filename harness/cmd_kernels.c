/* harness kernels — list a program's CUDA candidates, show one. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/kernels.h"

static const char LIST_USAGE[] =
    "usage: harness kernels list PROGRAM [--json]\n"
    "  The CUDA candidates of PROGRAM: id, origin (reference, variant, policy, contributed,\n"
    "  imported), parent, planted defect and knob settings.\n";
static const char SHOW_USAGE[] =
    "usage: harness kernels show ID [--json]\n"
    "  One candidate: its program, origin, parent, knobs, defect, launch plan and source.\n";

/* Parses "[--json] POSITIONAL"; returns -1 after printing help, EXIT_USAGE on
 * a usage error, 0 otherwise. */
static int parse(const char *cmd, const char *usage, int argc, char **argv, int *json, const char **pos)
{
    *json = 0;
    *pos = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(usage, stdout);
            return -1;
        } else if (strcmp(argv[i], "--json") == 0) {
            *json = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (!*pos) {
            *pos = argv[i];
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (!*pos)
        return cli_usage_error(cmd, "%s", strchr(usage, ' ') + 1);
    return 0;
}

static cJSON *row_json(const KernelRow *k, int with_source)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", (double)k->id);
    cJSON_AddStringToObject(j, "program", k->program);
    cJSON_AddStringToObject(j, "origin", k->origin);
    if (k->parent_id)
        cJSON_AddNumberToObject(j, "parent", (double)k->parent_id);
    else
        cJSON_AddNullToObject(j, "parent");
    cJSON_AddItemToObject(j, "knobs", k->knobs ? cJSON_Parse(k->knobs) : cJSON_CreateNull());
    if (k->defect)
        cJSON_AddStringToObject(j, "defect", k->defect);
    else
        cJSON_AddNullToObject(j, "defect");
    cJSON_AddStringToObject(j, "content_hash", k->content_hash);
    cJSON_AddStringToObject(j, "created_at", k->created_at);
    if (with_source) {
        cJSON_AddItemToObject(j, "launch", cJSON_Parse(k->launch));
        cJSON_AddStringToObject(j, "source", k->source);
    }
    return j;
}

static void print_json(cJSON *j)
{
    char *s = cJSON_Print(j);
    printf("%s\n", s);
    cJSON_free(s);
    cJSON_Delete(j);
}

static int kernels_list_cmd(CliContext *cx, int argc, char **argv)
{
    int json;
    const char *program;
    int u = parse("kernels list", LIST_USAGE, argc, argv, &json, &program);
    if (u)
        return u < 0 ? 0 : u;
    Error e;
    Catalog *c = NULL;
    KernelRow *rows = NULL;
    int n = 0;
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0 || kernels_list(c, program, &rows, &n, &e) != 0) {
        catalog_close(c);
        return cli_fail(&e);
    }
    catalog_close(c);
    if (json) {
        cJSON *a = cJSON_CreateArray();
        for (int i = 0; i < n; i++)
            cJSON_AddItemToArray(a, row_json(&rows[i], 0));
        print_json(a);
    } else {
        printf("%-8s %-11s %-8s %-22s %s\n", "id", "origin", "parent", "defect", "knobs");
        for (int i = 0; i < n; i++) {
            char parent[24] = "-";
            if (rows[i].parent_id)
                snprintf(parent, sizeof parent, "%lld", (long long)rows[i].parent_id);
            printf("%-8lld %-11s %-8s %-22s %s\n", (long long)rows[i].id, rows[i].origin, parent,
                   rows[i].defect ? rows[i].defect : "-", rows[i].knobs ? rows[i].knobs : "-");
        }
        printf("%d kernel(s) of %s\n", n, program);
    }
    kernel_rows_free(rows, n);
    return 0;
}

static int kernels_show_cmd(CliContext *cx, int argc, char **argv)
{
    int json;
    const char *idtext;
    int u = parse("kernels show", SHOW_USAGE, argc, argv, &json, &idtext);
    if (u)
        return u < 0 ? 0 : u;
    char *end;
    long long id = strtoll(idtext, &end, 10);
    if (*end || id <= 0)
        return cli_usage_error("kernels show", "'%s' is not a kernel id", idtext);
    Error e;
    Catalog *c = NULL;
    KernelRow k;
    memset(&k, 0, sizeof k);
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0 || kernels_get(c, id, &k, &e) != 0) {
        catalog_close(c);
        return cli_fail(&e);
    }
    catalog_close(c);
    if (json) {
        print_json(row_json(&k, 1));
    } else {
        printf("kernel %lld of %s\norigin: %s\n", (long long)k.id, k.program, k.origin);
        if (k.parent_id)
            printf("parent: %lld\n", (long long)k.parent_id);
        printf("defect: %s\nknobs: %s\ncontent hash: %s\ncreated: %s\n\nlaunch.json:\n", k.defect ? k.defect : "none",
               k.knobs ? k.knobs : "none", k.content_hash, k.created_at);
        cJSON *l = cJSON_Parse(k.launch);
        char *s = l ? cJSON_Print(l) : NULL;
        printf("%s\n\nkernel.cu:\n%s", s ? s : k.launch, k.source);
        if (s)
            cJSON_free(s);
        cJSON_Delete(l);
    }
    kernel_row_release(&k);
    return 0;
}

static const CliCommand KERNELS_COMMANDS[] = {
    {"list", kernels_list_cmd, "the CUDA candidates of a program [--json]"},
    {"show", kernels_show_cmd, "one candidate: source, launch plan, knobs, origin, parent [--json]"},
};

int cmd_kernels(CliContext *cx, int argc, char **argv)
{
    return cli_dispatch(cx, "kernels", KERNELS_COMMANDS, (int)(sizeof KERNELS_COMMANDS / sizeof *KERNELS_COMMANDS),
                        argc - 1, argv + 1);
}
