/* harness eval — evaluate one CUDA candidate against a catalog program and
 * print a verdict (human-readable, or --json). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/cli.h"
#include "harness/eval.h"
#include "harness/nvrtc.h"

static const char USAGE[] =
    "usage: harness eval PROGRAM [kernel.cu launch.json] [options]\n"
    "  Compiles kernel.cu with NVRTC, runs it on the GPU on the inputs the C reference of\n"
    "  PROGRAM (a catalog name such as c/stencil2d/jacobi5-f32-003, or a program folder with\n"
    "  meta.json and program.c) gets, and compares (kernel.cu and launch.json default to the\n"
    "  folder's own, its reference pair):\n"
    "  per config pass / wrong_result / runtime_error / timeout / compile_error, the largest\n"
    "  errors, and a preliminary time (median of CUDA-event times of the whole launch plan).\n"
    "  --configs a,b,...  configs to run (default: all but 'large', whose CPU reference is too slow)\n"
    "  --trials N         fresh-seed trials per config (default 3)\n"
    "  --seed N           seed of the first trial (default 20261202)\n"
    "  --arch sm_XX       NVRTC target (default: the GPU's own)\n"
    "  --timeout S        deadline per execution of the launch plan (default 5)\n"
    "  --timing-runs N    timed executions after 3 warm-ups (default 20; 0: no timing)\n"
    "  --cache DIR        cache root (default: next to the catalog, cache/{nvrtc,cref,cpu})\n"
    "  --device N         GPU index (default 0)\n"
    "  --backend gpu|cpu  cpu: compile kernel.cu with the host C++ compiler and run it on the CPU\n"
    "                     (threads as fibers, real barriers and warp operations): a correctness\n"
    "                     verdict without a GPU, never a time\n"
    "  --json             machine-readable verdict on stdout\n"
    "Exit status: 0 when every config passed, 1 otherwise (or when there is no GPU), 2 usage.\n";

/* Reads a program folder's meta.json and program.c. */
static int load_program_dir(const char *dir, Problem **p, char **source, Error *e)
{
    char *meta = xasprintf("%s/meta.json", dir), *src = xasprintf("%s/program.c", dir);
    int rc = problem_load(meta, p, e);
    if (rc == 0)
        rc = file_read_all(src, 1 << 20, source, NULL, e);
    free(meta);
    free(src);
    return rc;
}

/* Reads the program's meta.json and source from the catalog, or from a
 * program folder when `name` is one. */
static int load_program(CliContext *cx, const char *name, Problem **p, char **source, Error *e)
{
    Catalog *c = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0;
    *p = NULL;
    *source = NULL;
    if (file_is_dir(name))
        return load_program_dir(name, p, source, e);
    TRY(catalog_open(cx->catalog_path, 0, &c, e));
    if (sqlite3_prepare_v2(catalog_db(c), "SELECT meta, source FROM programs WHERE name = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        catalog_sql_error(c, e, "reading programs");
        goto done_rc;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        if (step == SQLITE_DONE)
            ERR(e, "no program named '%s' in %s (see `harness catalog list`)", name, cx->catalog_path);
        else
            catalog_sql_error(c, e, "reading programs");
        goto done_rc;
    }
    TRY(problem_parse((const char *)sqlite3_column_text(st, 0), name, p, e));
    *source = xstrdup((const char *)sqlite3_column_text(st, 1));
done:
    sqlite3_finalize(st);
    catalog_close(c);
    return rc;
done_rc:
    rc = -1;
    goto done;
}

/* Chooses the configs: the named ones, or every one but "large". */
static int pick_configs(const Problem *p, const char *list, const ProblemConfig ***out, int *n, Error *e)
{
    const ProblemConfig **cs = xcalloc((size_t)p->n_configs + 1, sizeof *cs);
    *n = 0;
    if (!list) {
        for (int k = 0; k < p->n_configs; k++)
            if (strcmp(p->configs[k].name, "large") != 0)
                cs[(*n)++] = &p->configs[k];
    } else {
        char *copy = xstrdup(list), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const ProblemConfig *c = problem_find_config(p, tok);
            if (!c) {
                StrBuf names = STRBUF_INIT;
                for (int k = 0; k < p->n_configs; k++)
                    sb_printf(&names, "%s%s", k ? ", " : "", p->configs[k].name);
                ERR(e, "%s has no config '%s' (it has: %s)", p->name, tok, sb_str(&names));
                sb_release(&names);
                free(copy);
                free(cs);
                return -1;
            }
            if (*n < p->n_configs)
                cs[(*n)++] = c;
        }
        free(copy);
    }
    *out = cs;
    return 0;
}

static const char *fmt_err(double v, char *buf, size_t len)
{
    if (isinf(v))
        snprintf(buf, len, "inf");
    else
        snprintf(buf, len, "%.3g", v);
    return buf;
}

static void print_human(const char *program, const char *kernel_path, const EvalReport *r, const EvalOptions *o)
{
    printf("harness eval: %s with %s\n", program, kernel_path);
    if (r->gpu.name[0] && o->backend == BACKEND_CPU)
        printf("CPU backend: %s; compiler %s (correctness only, no timing)\n", r->gpu.name, r->nvrtc_version);
    else if (r->gpu.name[0])
        printf("GPU: %s (sm_%d%d, %d SMs, driver %d.%d); NVRTC %s, target %s\n", r->gpu.name, r->gpu.cc_major,
               r->gpu.cc_minor, r->gpu.sm_count, r->gpu.driver_version / 1000, r->gpu.driver_version % 1000 / 10,
               r->nvrtc_version, r->arch);
    if (r->status == EVAL_COMPILE_ERROR) {
        printf("\ncompile_error: kernel.cu does not compile for %s. Log:\n%s%s\n", r->arch, r->compile_log,
               r->compile_log[0] && r->compile_log[strlen(r->compile_log) - 1] == '\n' ? "" : "\n");
        printf("verdict: compile_error\n");
        return;
    }
    printf("compiled in %.3f s%s\n", r->compile_seconds, r->compile_cached ? " (from the cache)" : "");
    if (r->compile_log && r->compile_log[0])
        printf("%s log:\n%s\n", o->backend == BACKEND_CPU ? "compiler" : "NVRTC", r->compile_log);
    printf("\n%-14s %-15s %-7s %-12s %-12s %s\n", "config", "status", "trials", "max abs err", "max rel err",
           "preliminary time");
    for (int k = 0; k < r->n_configs; k++) {
        const EvalConfig *ec = &r->configs[k];
        char a[32] = "-", b[32] = "-", tm[48] = "-", tr[16];
        if (ec->buffer[0]) {
            fmt_err(ec->cmp.max_abs, a, sizeof a);
            fmt_err(ec->cmp.max_rel, b, sizeof b);
        }
        if (ec->timed_runs)
            snprintf(tm, sizeof tm, "%.4f ms", ec->median_ms);
        snprintf(tr, sizeof tr, "%d/%d", ec->trials, o->trials);
        printf("%-14s %-15s %-7s %-12s %-12s %s\n", ec->config->name, eval_status_name(ec->status), tr, a, b, tm);
        if (ec->message[0])
            printf("    %s\n", ec->message);
    }
    printf("\nverdict: %s\n", eval_status_name(r->status));
    if (o->timing_runs > 0 && o->backend != BACKEND_CPU)
        printf("(preliminary timing: median of %d CUDA-event times of the whole launch plan after %d warm-up runs; "
               "no L2 flush, clock or CUPTI checks yet)\n",
               o->timing_runs, o->warmup_runs);
}

static void add_num(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(obj, key, v);
    else
        cJSON_AddStringToObject(obj, key, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

static void print_json(const char *program, const char *kernel_path, const EvalReport *r, const EvalOptions *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "program", program);
    cJSON_AddStringToObject(j, "kernel", kernel_path);
    cJSON_AddStringToObject(j, "status", eval_status_name(r->status));
    cJSON_AddStringToObject(j, "arch", r->arch);
    cJSON_AddStringToObject(j, "gpu", r->gpu.name);
    cJSON_AddNumberToObject(j, "driver_version", r->gpu.driver_version);
    cJSON_AddStringToObject(j, "nvrtc_version", r->nvrtc_version);
    cJSON_AddStringToObject(j, "compile_log", r->compile_log ? r->compile_log : "");
    cJSON_AddNumberToObject(j, "compile_seconds", r->compile_seconds);
    cJSON_AddBoolToObject(j, "compile_cached", r->compile_cached);
    cJSON_AddNumberToObject(j, "trials", o->trials);
    cJSON_AddNumberToObject(j, "seed", (double)o->seed);
    cJSON_AddNumberToObject(j, "worker_restarts", r->worker_restarts);
    cJSON *cs = cJSON_AddArrayToObject(j, "configs");
    for (int k = 0; k < r->n_configs; k++) {
        const EvalConfig *ec = &r->configs[k];
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", ec->config->name);
        cJSON_AddStringToObject(c, "status", eval_status_name(ec->status));
        cJSON_AddStringToObject(c, "message", ec->message);
        cJSON_AddNumberToObject(c, "trials", ec->trials);
        if (ec->buffer[0]) {
            cJSON_AddStringToObject(c, "buffer", ec->buffer);
            add_num(c, "max_abs_err", ec->cmp.max_abs);
            add_num(c, "max_rel_err", ec->cmp.max_rel);
            cJSON_AddNumberToObject(c, "bad_elements", (double)ec->cmp.n_bad);
            if (ec->cmp.first_bad >= 0) {
                cJSON_AddNumberToObject(c, "first_bad_index", (double)ec->cmp.first_bad);
                add_num(c, "got", ec->cmp.got);
                add_num(c, "expected", ec->cmp.want);
            }
        }
        if (ec->timed_runs) {
            cJSON_AddNumberToObject(c, "preliminary_median_ms", ec->median_ms);
            cJSON_AddNumberToObject(c, "timed_runs", ec->timed_runs);
        }
        cJSON_AddItemToArray(cs, c);
    }
    char *s = cJSON_Print(j);
    printf("%s\n", s);
    cJSON_free(s);
    cJSON_Delete(j);
}

int cmd_eval(CliContext *cx, int argc, char **argv)
{
    EvalOptions o = eval_default_options();
    const char *pos[3] = {NULL, NULL, NULL}, *configs = NULL, *cache = NULL;
    int n_pos = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--configs") == 0 && more) {
            configs = argv[++i];
        } else if (strcmp(a, "--trials") == 0 && more) {
            o.trials = atoi(argv[++i]);
            if (o.trials < 1)
                return cli_usage_error("eval", "--trials must be at least 1");
        } else if (strcmp(a, "--seed") == 0 && more) {
            o.seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--arch") == 0 && more) {
            o.arch = argv[++i];
        } else if (strcmp(a, "--timeout") == 0 && more) {
            o.deadline_s = atof(argv[++i]);
            if (!(o.deadline_s > 0 && o.deadline_s < 3600))
                return cli_usage_error("eval", "--timeout must be between 0 and 3600 seconds");
        } else if (strcmp(a, "--timing-runs") == 0 && more) {
            o.timing_runs = atoi(argv[++i]);
            if (o.timing_runs < 0 || o.timing_runs > 10000)
                return cli_usage_error("eval", "--timing-runs must be between 0 and 10000");
        } else if (strcmp(a, "--cache") == 0 && more) {
            cache = argv[++i];
        } else if (strcmp(a, "--backend") == 0 && more) {
            const char *b = argv[++i];
            if (strcmp(b, "cpu") != 0 && strcmp(b, "gpu") != 0)
                return cli_usage_error("eval", "--backend must be gpu or cpu, not '%s'", b);
            o.backend = strcmp(b, "cpu") == 0 ? BACKEND_CPU : BACKEND_GPU;
        } else if (strcmp(a, "--device") == 0 && more) {
            o.device = atoi(argv[++i]);
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("eval", "unknown option '%s'", a);
        } else if (n_pos < 3) {
            pos[n_pos++] = a;
        } else {
            return cli_usage_error("eval", "unexpected argument '%s'", a);
        }
    }
    char *dir_kernel = NULL, *dir_launch = NULL;
    if (n_pos == 1 && file_is_dir(pos[0])) {
        pos[1] = dir_kernel = xasprintf("%s/kernel.cu", pos[0]);
        pos[2] = dir_launch = xasprintf("%s/launch.json", pos[0]);
        n_pos = 3;
    }
    if (n_pos != 3) {
        free(dir_kernel);
        free(dir_launch);
        return cli_usage_error("eval", "needs PROGRAM kernel.cu launch.json (or a program folder holding its pair)");
    }
    Error e;
    if (o.arch && nvrtc_check_arch(o.arch, &e) != 0)
        return cli_usage_error("eval", "%s", e.msg);

    /* caches live next to the catalog unless --cache says otherwise */
    char *root = NULL;
    if (cache) {
        root = xstrdup(cache);
    } else {
        const char *slash = strrchr(cx->catalog_path, '/');
        root = slash ? xasprintf("%.*s/cache", (int)(slash - cx->catalog_path), cx->catalog_path) : xstrdup("cache");
    }
    char *nv_cache = xasprintf("%s/nvrtc", root), *cref_cache = xasprintf("%s/cref", root);
    char *cpu_cache = xasprintf("%s/cpu", root);
    o.nvrtc_cache = nv_cache;
    o.cpu_cache = cpu_cache;
    o.cref_cache = cref_cache;
    o.progress = json ? NULL : stderr;

    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char *ref_source = NULL, *kernel = NULL;
    const ProblemConfig **cs = NULL;
    int n_cs = 0, rc = 0, no_gpu = 0;
    EvalReport r;
    memset(&r, 0, sizeof r);
    if (load_program(cx, pos[0], &p, &ref_source, &e) != 0 || file_read_all(pos[1], 1 << 20, &kernel, NULL, &e) != 0 ||
        launch_load(pos[2], p, &lp, &e) != 0 || pick_configs(p, configs, &cs, &n_cs, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    if (n_cs == 0) {
        rc = cli_usage_error("eval", "no config to run");
        goto done;
    }
    if (eval_candidate(p, ref_source, kernel, lp, cs, n_cs, &o, &r, &no_gpu, &e) != 0) {
        rc = cli_fail(&e);
        if (no_gpu)
            fprintf(stderr, "harness eval: this machine has no usable GPU, so the candidate was not evaluated "
                            "(--backend cpu gives a correctness verdict on the CPU)\n");
        goto done;
    }
    if (json)
        print_json(p->name, pos[1], &r, &o);
    else
        print_human(p->name, pos[1], &r, &o);
    rc = r.status == EVAL_PASS ? 0 : 1;
done:
    eval_report_release(&r);
    free(cs);
    launch_free(lp);
    problem_free(p);
    free(ref_source);
    free(kernel);
    free(root);
    free(nv_cache);
    free(cref_cache);
    free(cpu_cache);
    free(dir_kernel);
    free(dir_launch);
    return rc;
}
