/* harness structure — the static structural report of one CUDA candidate
 * (no GPU: NVRTC compiles it for ptxas's resource report, the source is
 * analysed, occupancy and intensity computed; structure.h). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/cli.h"
#include "harness/nvrtc.h"
#include "harness/structure.h"

static const char USAGE[] =
    "usage: harness structure PROGRAM [kernel.cu launch.json] [options]\n"
    "  The static structural report of a CUDA candidate, without a GPU: global accesses and\n"
    "  their coalescing (per line), shared memory, barriers under thread-dependent conditions,\n"
    "  atomics, vector and read-only loads, registers/spills/stack from ptxas (NVRTC), occupancy\n"
    "  per launch on an H200 (sm_90), arithmetic intensity against the roofline, and a score in\n"
    "  [0, 1] (docs/STRUCTURE.md).  PROGRAM is a program folder (its kernel.cu and launch.json\n"
    "  are the default pair) or a catalog name (default pair: its reference kernel).\n"
    "  --config NAME   the config whose sizes and launch geometry count (default: large)\n"
    "  --arch sm_XX    NVRTC target (default sm_90; the occupancy model is sm_90's)\n"
    "  --cache DIR     cache root (default: next to the catalog, cache/nvrtc)\n"
    "  --weights FILE  score weights and roofline as JSON (docs/STRUCTURE.md)\n"
    "  --json          the report as JSON on stdout\n"
    "Exit status: 0 with a report, 1 when the candidate does not compile (no report) or on\n"
    "failure, 2 usage.\n";

/* The problem of PROGRAM (a folder or a catalog name) and, for a catalog
 * name, its reference pair (NULL when it has none). */
static int load_program(CliContext *cx, const char *name, Problem **p, char **ref_source, char **ref_launch,
                        Error *e)
{
    *p = NULL;
    *ref_source = *ref_launch = NULL;
    if (file_is_dir(name)) {
        char *meta = xasprintf("%s/meta.json", name);
        int rc = problem_load(meta, p, e);
        free(meta);
        return rc;
    }
    Catalog *c = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0;
    TRY(catalog_open(cx->catalog_path, 0, &c, e));
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT p.meta, (SELECT k.source FROM kernels k WHERE k.program_id = p.id AND"
                           " k.origin = 'reference' ORDER BY k.id LIMIT 1), (SELECT k.launch FROM kernels k"
                           " WHERE k.program_id = p.id AND k.origin = 'reference' ORDER BY k.id LIMIT 1)"
                           " FROM programs p WHERE p.name = ?",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = catalog_sql_error(c, e, "reading programs");
        goto done;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        if (step == SQLITE_DONE)
            FAIL(e, "no program named '%s' in %s (nor a folder of that name)", name, cx->catalog_path);
        rc = catalog_sql_error(c, e, "reading programs");
        goto done;
    }
    TRY(problem_parse((const char *)sqlite3_column_text(st, 0), name, p, e));
    if (sqlite3_column_type(st, 1) == SQLITE_TEXT && sqlite3_column_type(st, 2) == SQLITE_TEXT) {
        *ref_source = xstrdup((const char *)sqlite3_column_text(st, 1));
        *ref_launch = xstrdup((const char *)sqlite3_column_text(st, 2));
    }
done:
    sqlite3_finalize(st);
    catalog_close(c);
    return rc;
}

static void print_no_report(int json, const char *program, const char *kernel, const char *why, const char *log)
{
    if (json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "program", program);
        cJSON_AddStringToObject(j, "kernel", kernel);
        cJSON_AddNullToObject(j, "structure");
        cJSON_AddStringToObject(j, "error", why);
        if (log)
            cJSON_AddStringToObject(j, "compile_log", log);
        char *s = cJSON_Print(j);
        printf("%s\n", s);
        cJSON_free(s);
        cJSON_Delete(j);
        return;
    }
    fprintf(stderr, "harness structure: %s: no structural report: %s\n", kernel, why);
}

int cmd_structure(CliContext *cx, int argc, char **argv)
{
    const char *pos[3] = {NULL, NULL, NULL}, *config = NULL, *cache = NULL, *weights = NULL, *arch = "sm_90";
    int n_pos = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--config") == 0 && more) {
            config = argv[++i];
        } else if (strcmp(a, "--arch") == 0 && more) {
            arch = argv[++i];
        } else if (strcmp(a, "--cache") == 0 && more) {
            cache = argv[++i];
        } else if (strcmp(a, "--weights") == 0 && more) {
            weights = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("structure", "unknown option '%s'", a);
        } else if (n_pos < 3) {
            pos[n_pos++] = a;
        } else {
            return cli_usage_error("structure", "unexpected argument '%s'", a);
        }
    }
    if (n_pos != 1 && n_pos != 3)
        return cli_usage_error("structure", "needs PROGRAM [kernel.cu launch.json]");
    Error e;
    if (nvrtc_check_arch(arch, &e) != 0)
        return cli_usage_error("structure", "%s", e.msg);
    StructureOptions so = structure_default_options();
    if (weights && structure_options_load(weights, &so, &e) != 0)
        return cli_usage_error("structure", "%s", e.msg);

    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char *source = NULL, *launch_text = NULL, *nv_cache = NULL;
    char *kernel_label = NULL;
    StructureReport r;
    memset(&r, 0, sizeof r);
    int rc = 0, compile_error = 0;
    if (load_program(cx, pos[0], &p, &source, &launch_text, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    if (n_pos == 3 || file_is_dir(pos[0])) {
        free(source);
        free(launch_text);
        source = launch_text = NULL;
        char *cu = n_pos == 3 ? xstrdup(pos[1]) : xasprintf("%s/kernel.cu", pos[0]);
        char *lj = n_pos == 3 ? xstrdup(pos[2]) : xasprintf("%s/launch.json", pos[0]);
        kernel_label = cu;
        int lrc = file_read_all(cu, 1 << 20, &source, NULL, &e) == 0 ? launch_load(lj, p, &lp, &e) : -1;
        free(lj);
        if (lrc != 0) {
            rc = cli_fail(&e);
            goto done;
        }
    } else {
        if (!source) {
            rc = cli_usage_error("structure", "%s has no reference kernel in the catalog: give kernel.cu launch.json",
                                 pos[0]);
            goto done;
        }
        kernel_label = xasprintf("%s (reference kernel)", pos[0]);
        if (launch_parse(launch_text, "launch.json", p, &lp, &e) != 0) {
            rc = cli_fail(&e);
            goto done;
        }
    }
    const ProblemConfig *c = config ? problem_find_config(p, config) : structure_default_config(p);
    if (!c) {
        rc = cli_usage_error("structure", "%s has no config '%s'", p->name, config ? config : "large");
        goto done;
    }
    if (cache) {
        nv_cache = xasprintf("%s/nvrtc", cache);
    } else {
        const char *slash = strrchr(cx->catalog_path, '/');
        nv_cache = slash ? xasprintf("%.*s/cache/nvrtc", (int)(slash - cx->catalog_path), cx->catalog_path)
                         : xstrdup("cache/nvrtc");
    }
    if (structure_candidate(p, c, source, lp, arch, nv_cache, &so, &r, &compile_error, &e) != 0) {
        if (compile_error) {
            print_no_report(json, p->name, kernel_label, e.msg, NULL);
            rc = 1;
        } else {
            rc = cli_fail(&e);
        }
        goto done;
    }
    if (json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "program", p->name);
        cJSON_AddStringToObject(j, "kernel", kernel_label);
        cJSON_AddItemToObject(j, "structure", structure_to_cjson(&r));
        char *s = cJSON_Print(j);
        printf("%s\n", s);
        cJSON_free(s);
        cJSON_Delete(j);
    } else {
        printf("harness structure: %s with %s\n", p->name, kernel_label);
        structure_print(stdout, &r);
    }
done:
    structure_report_release(&r);
    launch_free(lp);
    problem_free(p);
    free(source);
    free(launch_text);
    free(nv_cache);
    free(kernel_label);
    return rc;
}
