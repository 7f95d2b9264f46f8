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
#include "harness/golden.h"
#include "harness/nvrtc.h"
#include "harness/results.h"
#include "harness/structure.h"

static const char USAGE[] =
    "usage: harness eval PROGRAM [kernel.cu launch.json] [options]\n"
    "  Compiles kernel.cu with NVRTC, runs it on the GPU on the inputs the C reference of\n"
    "  PROGRAM (a catalog name such as c/stencil2d/jacobi5-f32-003, or a program folder with\n"
    "  meta.json and program.c, or program.py for a torch program) gets, and compares (kernel.cu and launch.json default to the\n"
    "  folder's own, its reference pair):\n"
    "  per config pass / wrong_result / runtime_error / timeout / compile_error, the largest\n"
    "  errors, and the time (median, IQR, samples, CUPTI's kernel time) with the speedup over\n"
    "  the program's reference CUDA implementation, timed interleaved in the same worker.\n"
    "  After the verdict: the static structural report (coalescing, occupancy, barriers, score;\n"
    "  `harness structure`, docs/STRUCTURE.md), also under \"structure\" in --json.\n"
    "  --configs a,b,...  configs to run, each against the C reference whatever it costs (default: all\n"
    "                     but 'large', whose C reference is too slow; a torch program's reference runs\n"
    "                     on the GPU: every config there. A C program's config beyond the C reference's\n"
    "                     budget, 'large' included, is checked by default against golden outputs of the\n"
    "                     program's reference CUDA implementation, run in the same worker on the same\n"
    "                     inputs, once the catalog shows that implementation passed every config within\n"
    "                     the budget on this backend (evaluating the reference itself: once it passes\n"
    "                     them here; it is then compared with a second execution of itself); else it is\n"
    "                     reported skipped, with the reason)\n"
    "  --reference-budget FLOPS,BYTES  what the C reference may cost per config, by the program's cost\n"
    "                     model (default 4e9,2147483648); with --backend cpu, a 'large' beyond 5e7 flops or\n"
    "                     256 MiB stays out whatever its reference\n"
    "  --trials N         fresh-seed trials per config (default 3; the second reads integer buffers'\n"
    "                     guards as small indices)\n"
    "  --seed N           seed of the first trial (default 20261202)\n"
    "  --arch sm_XX       NVRTC target (default: the GPU's own)\n"
    "  --timeout S        a fixed deadline per execution of the launch plan (default: 10x the\n"
    "                     reference's time on the config + 1 s where known, at most 60 s, else 5 s;\n"
    "                     known: the catalog's latest passing result of the reference on a GPU of\n"
    "                     the same name, or measured here; 60 with --backend cpu)\n"
    "  --timing-runs N    least number of timing samples (default 10; 0: no timing)\n"
    "  --precise          nvbench-grade timing: median known to 0.5%, at least 0.5 s of samples\n"
    "  --time-all-configs time every passing config (default: only the config with the most bytes)\n"
    "  --profile          the measured pass on every passing config (CUPTI range profiler over the\n"
    "                     plan, after timing), printed beside the static report of the same config\n"
    "  --racecheck        run the candidate under compute-sanitizer's racecheck: a shared-memory\n"
    "                     hazard (a missing __syncthreads) fails every config with wrong_result,\n"
    "                     even where the GPU happened to compute the right numbers; correctness only\n"
    "                     (with --backend cpu: the CPU backend's own detector, instrumented loads and\n"
    "                     stores; hazards between warps in one barrier interval, as racecheck's errors)\n"
    "  --cache DIR        cache root (default: next to the catalog, cache/{nvrtc,cref,cpu})\n"
    "  --device N         GPU index (default 0)\n"
    "  --backend gpu|cpu  cpu: compile kernel.cu with the host C++ compiler and run it on the CPU\n"
    "                     (threads as fibers, real barriers and warp operations): a correctness\n"
    "                     verdict without a GPU, never a time\n"
    "  --json             machine-readable verdict on stdout\n"
    "Exit status: 0 when every config passed, 1 otherwise (or when there is no GPU), 2 usage.\n";

/* Reads a program folder's meta.json and program.c (program.py for lang
 * "torch"). */
static int load_program_dir(const char *dir, Problem **p, char **source, Error *e)
{
    char *meta = xasprintf("%s/meta.json", dir), *src = NULL;
    int rc = problem_load(meta, p, e);
    if (rc == 0) {
        src = xasprintf("%s/%s", dir, strcmp((*p)->lang, "torch") == 0 ? "program.py" : "program.c");
        rc = file_read_all(src, 1 << 20, source, NULL, e);
    }
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

/* Chooses the configs: the named ones, or every one but "large" (whose C
 * reference is too slow on the CPU); a torch program's reference runs on the
 * GPU beside a GPU candidate, so there "large" is in too. */
static int pick_configs(const Problem *p, const char *list, WorkerBackend backend, const ProblemConfig ***out, int *n,
                        Error *e)
{
    const ProblemConfig **cs = xcalloc((size_t)p->n_configs + 1, sizeof *cs);
    *n = 0;
    int every = backend != BACKEND_CPU && strcmp(p->lang, "torch") == 0;
    if (!list) {
        for (int k = 0; k < p->n_configs; k++)
            if (every || strcmp(p->configs[k].name, "large") != 0)
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

/* The timing baseline: the program's reference CUDA implementation (the
 * folder's kernel.cu, or the catalog's reference kernel), unless that is
 * the candidate itself (*is_reference is then set: its times are the
 * reference's, for deadlines).  Nothing found is not an error: no speedup. */
static int find_baseline(CliContext *cx, const char *program, const Problem *p, const char *candidate_path,
                         char **source, LaunchPlan **plan, int *is_reference)
{
    Error e;
    *source = NULL;
    *plan = NULL;
    *is_reference = 0;
    if (file_is_dir(program)) {
        char *cu = xasprintf("%s/kernel.cu", program), *lj = xasprintf("%s/launch.json", program);
        char *a = realpath(cu, NULL), *b = realpath(candidate_path, NULL);
        int same = a && b && strcmp(a, b) == 0;
        *is_reference = same;
        if (!same && file_exists(cu) && file_read_all(cu, 1 << 20, source, NULL, &e) == 0 &&
            launch_load(lj, p, plan, &e) != 0) {
            free(*source);
            *source = NULL;
        }
        free(a);
        free(b);
        free(cu);
        free(lj);
        return 0;
    }
    Catalog *c = NULL;
    sqlite3_stmt *st = NULL;
    if (catalog_open(cx->catalog_path, 0, &c, &e) != 0)
        return -1;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT k.source, k.launch FROM kernels k JOIN programs p ON p.id = k.program_id"
                           " WHERE p.name = ? AND k.origin = 'reference' ORDER BY k.id LIMIT 1",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, program, -1, SQLITE_STATIC);
        char *cand = NULL;
        if (sqlite3_step(st) == SQLITE_ROW && file_read_all(candidate_path, 1 << 20, &cand, NULL, &e) == 0) {
            *is_reference = strcmp(cand, (const char *)sqlite3_column_text(st, 0)) == 0;
            if (!*is_reference &&
                launch_parse((const char *)sqlite3_column_text(st, 1), "launch.json", p, plan, &e) == 0)
                *source = xstrdup((const char *)sqlite3_column_text(st, 0));
        }
        free(cand);
    }
    sqlite3_finalize(st);
    catalog_close(c);
    return 0;
}

/* Why no config of this evaluation can take golden outputs whatever the
 * catalog says, into why[0..len) (1), or 0 when the catalog decides: a
 * program folder has no stored results (only its own pair may give them,
 * from its passes in this evaluation), and a candidate whose program has no
 * readable reference implementation has nothing to give them. */
static int golden_out_of_reach(const char *program, const EvalOptions *o, char *why, size_t len)
{
    if (file_is_dir(program) && !o->candidate_is_reference) {
        snprintf(why, len, "a program folder has no stored results of it (evaluate the catalog's program by name)");
        return 1;
    }
    if (!o->candidate_is_reference && !o->baseline_source) {
        snprintf(why, len, "the catalog holds none that can be read for this program");
        return 1;
    }
    return 0;
}

/* Whether config c, chosen by default (chosen: it is among the default
 * configs), takes golden outputs: a C program's config beyond the C
 * reference's budget b.  'large', left out by default (its C reference is
 * too slow), joins them then, unless the CPU backend's fibers cannot
 * afford it whatever the reference. */
static int wants_golden(const Problem *p, const ProblemConfig *c, int chosen, const EvalOptions *o, const RefBudget *b)
{
    RefBudget fibers = golden_cpu_backend_budget();
    if (strcmp(p->lang, "c") != 0 || !golden_beyond(p, c, b, NULL, NULL))
        return 0;
    return chosen || (strcmp(c->name, "large") == 0 &&
                      !(o->backend == BACKEND_CPU && golden_kernel_beyond(p, c, &fibers, NULL, NULL)));
}

/* The default configs (cs[0..*n_cs), from pick_configs; room for every
 * config of p) with golden outputs where the C reference is beyond budget
 * b: each such config stays or joins, marked in golden[] (parallel to cs),
 * when golden.h allows it (golden_allowed), with o's golden fields set; else it is
 * left out and left_out[k] (k over p->configs; from malloc()) says why.
 * -1 with e on a catalog error. */
static int add_golden_configs(CliContext *cx, const char *program, const Problem *p, const char *kernel,
                              const LaunchPlan *lp, EvalOptions *o, const RefBudget *b, const ProblemConfig **cs,
                              int *n_cs, unsigned char *golden, char **left_out, Error *e)
{
    int rc = 0, n = 0, wanted = 0;
    Catalog *c = NULL;
    int64_t ref = 0;
    char why[768], reason[1280];
    unsigned char *in = xcalloc((size_t)p->n_configs + 1, 1), *want = xcalloc((size_t)p->n_configs + 1, 1);
    unsigned char *now = xcalloc((size_t)p->n_configs + 1, 1); /* checked against the C reference here */
    for (int j = 0; j < *n_cs; j++)
        in[cs[j] - p->configs] = 1;
    for (int k = 0; k < p->n_configs; k++) {
        want[k] = wants_golden(p, &p->configs[k], in[k], o, b);
        now[k] = in[k] && !want[k];
        wanted |= want[k];
    }
    /* the catalog, once, where it decides: golden.h reads the verdicts of
     * the program's reference kernel on this backend; a program folder's
     * own pair decides by its passes in this evaluation alone */
    int out_of_reach = wanted && golden_out_of_reach(program, o, why, sizeof why);
    int from_catalog = wanted && !out_of_reach && !file_is_dir(program);
    if (from_catalog) {
        TRY(catalog_open(cx->catalog_path, 0, &c, e));
        TRY(golden_reference_kernel(c, p->name, &ref, e));
    }
    for (int k = 0; k < p->n_configs; k++) {
        int ok = 0;
        if (want[k] && !out_of_reach)
            ok = from_catalog ? golden_allowed(c, ref, backend_name(o->backend), p, b,
                                               o->candidate_is_reference ? now : NULL, &p->configs[k], why,
                                               sizeof why, e)
                              : 1;
        if (ok < 0) {
            rc = -1; /* e says why */
            goto done;
        }
        if (want[k] && !ok)
            left_out[k] = xstrdup(golden_skip_reason(p, &p->configs[k], b, why, reason, sizeof reason));
        if (now[k] || ok) {
            golden[n] = (unsigned char)ok;
            cs[n++] = &p->configs[k];
        }
        if (ok) {
            o->golden = golden;
            o->golden_source = o->candidate_is_reference ? kernel : o->baseline_source;
            o->golden_plan = o->candidate_is_reference ? lp : o->baseline_plan;
            o->golden_after_pass = o->candidate_is_reference;
        }
    }
    *n_cs = n;
done:
    catalog_close(c);
    free(in);
    free(want);
    free(now);
    return rc;
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
    printf("\n%-14s %-15s %-7s %-10s %-10s %-12s %-10s %-9s %-10s %s\n", "config", "status", "trials", "abs err",
           "rel err", "median ms", "IQR ms", "samples", "CUPTI ms", "speedup");
    for (int k = 0; k < r->n_configs; k++) {
        const EvalConfig *ec = &r->configs[k];
        char a[32] = "-", b[32] = "-", tm[32] = "-", iq[32] = "-", ns[32] = "-", cu[32] = "-", sp[48] = "-", tr[16];
        if (ec->buffer[0]) {
            fmt_err(ec->cmp.max_abs, a, sizeof a);
            fmt_err(ec->cmp.max_rel, b, sizeof b);
        }
        if (ec->timed_runs) {
            snprintf(tm, sizeof tm, "%.5f", ec->median_ms);
            snprintf(iq, sizeof iq, "%.5f", ec->iqr_ms);
            snprintf(ns, sizeof ns, ec->dropped ? "%d(-%d)" : "%d", ec->timed_runs, ec->dropped);
            if (!isnan(ec->cupti_ms))
                snprintf(cu, sizeof cu, "%.5f", ec->cupti_ms);
            if (!isnan(ec->speedup))
                snprintf(sp, sizeof sp, "%.2fx%s", ec->speedup, ec->flagged ? " (flagged: review)" : "");
        }
        snprintf(tr, sizeof tr, "%d/%d", ec->trials, o->trials);
        printf("%-14s %-15s %-7s %-10s %-10s %-12s %-10s %-9s %-10s %s\n", ec->config->name,
               eval_status_name(ec->status), tr, a, b, tm, iq, ns, cu, sp);
        if (ec->message[0])
            printf("    %s\n", ec->message);
        if (ec->reference_kind && strcmp(ec->reference_kind, GOLDEN_REFERENCE_KIND) == 0)
            printf("    checked against golden outputs: the program's reference CUDA implementation's, on the same "
                   "inputs (the C reference is beyond its budget)\n");
        if (ec->timed_runs && !isnan(ec->window_ms))
            printf("    times include the event window's own %.2f us (measured on an empty kernel), as ncu's do\n",
                   ec->window_ms * 1000.0);
        if (ec->timing_note[0])
            printf("    timing: %s\n", ec->timing_note);
    }
    printf("\nverdict: %s\n", eval_status_name(r->status));
    if (r->baseline_note[0])
        printf("baseline: %s\n", r->baseline_note);
    if (o->timing_runs > 0 && o->backend != BACKEND_CPU)
        printf("(timing: CUDA events around the whole launch plan on a non-default stream, L2 flushed (%u MiB) and "
               "inout buffers restored before each sample, launches queued behind a spinning kernel; at least %u "
               "samples, until the median is known to %.1f%% or %.2f s; samples under %.0f%% of the max SM clock "
               "dropped; speedup = baseline median / candidate median, the baseline (%s))\n",
               o->timing.flush_mib, o->timing.min_samples > (uint32_t)o->timing_runs ? o->timing.min_samples
                                                                                     : (uint32_t)o->timing_runs,
               100.0 * o->timing.target_spread, o->timing.budget_s, 100.0 * o->timing.min_clock_fraction,
               strncmp(program, "torch/", 6) == 0 ? "torch eager on the same GPU and inputs, timed by the torch runner"
               : o->baseline_source          ? "the program's reference CUDA implementation, timed interleaved"
                                             : "none");
}

static void add_num(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(obj, key, v);
    else
        cJSON_AddStringToObject(obj, key, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

/* The static structural report shown after the verdict (structure.h): none
 * for a candidate that does not compile; *note then says why. */
static int structure_of(const Problem *p, const char *kernel, const LaunchPlan *lp, const EvalReport *r,
                        const EvalOptions *o, StructureReport *sr, char *note, size_t len)
{
    if (r->status == EVAL_COMPILE_ERROR) {
        snprintf(note, len, "kernel.cu does not compile");
        return 0;
    }
    const char *arch = o->arch ? o->arch : strncmp(r->arch, "sm_", 3) == 0 ? r->arch : "sm_90";
    StructureOptions so = structure_default_options();
    int compile_error;
    Error e;
    if (structure_candidate(p, structure_default_config(p), kernel, lp, arch, o->nvrtc_cache, &so, sr,
                            &compile_error, &e) != 0) {
        snprintf(note, len, "%s", e.msg);
        return 0;
    }
    return 1;
}

/* The measured report of every profiled config, beside the static report
 * of that same config (a kernel that does not compile has neither). */
static void print_profiles(const Problem *p, const char *kernel, const LaunchPlan *lp, const EvalReport *r,
                           const EvalOptions *o)
{
    for (int k = 0; o->profile && k < r->n_configs; k++) {
        const EvalConfig *ec = &r->configs[k];
        if (ec->profile.status == PROFILE_NOT_RUN && ec->status == EVAL_PASS)
            continue;
        printf("\n-- config %s: ", ec->config->name);
        if (ec->profile.status == PROFILE_NOT_RUN) {
            printf("not profiled (%s)\n", ec->status == EVAL_COMPILE_ERROR ? "kernel.cu does not compile"
                                                                          : "the config did not pass");
            continue;
        }
        StructureReport sr;
        StructureOptions so = structure_default_options();
        int compile_error = 0;
        Error e;
        const char *arch = o->arch ? o->arch : strncmp(r->arch, "sm_", 3) == 0 ? r->arch : "sm_90";
        int have = structure_candidate(p, ec->config, kernel, lp, arch, o->nvrtc_cache, &so, &sr, &compile_error,
                                       &e) == 0;
        printf("static vs measured\n");
        profile_print(stdout, &ec->profile, have ? &sr : NULL);
        if (!have)
            printf("  (no static report: %s)\n", e.msg);
        structure_report_release(&sr);
    }
}

static void print_json(const char *program, const char *kernel_path, const EvalReport *r, const EvalOptions *o,
                       const StructureReport *sr, const char *structure_note, const Problem *p, char **left_out)
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
        if (ec->reference_kind)
            cJSON_AddStringToObject(c, "reference_kind", ec->reference_kind);
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
            add_num(c, "median_ms", ec->median_ms);
            add_num(c, "iqr_ms", ec->iqr_ms);
            add_num(c, "min_ms", ec->min_ms);
            add_num(c, "spread", ec->spread);
            cJSON_AddNumberToObject(c, "samples", ec->timed_runs);
            cJSON_AddNumberToObject(c, "samples_dropped", ec->dropped);
            add_num(c, "cupti_ms", ec->cupti_ms);
            add_num(c, "event_window_ms", ec->window_ms);
            add_num(c, "reference_cpu_ms", ec->reference_cpu_ms);
            add_num(c, "baseline_ms", ec->baseline_ms);
            if (ec->baseline_kind)
                cJSON_AddStringToObject(c, "baseline_kind", ec->baseline_kind);
            add_num(c, "baseline_cupti_ms", ec->baseline_cupti_ms);
            add_num(c, "speedup", ec->speedup);
            cJSON_AddBoolToObject(c, "flagged", ec->flagged);
            cJSON_AddNumberToObject(c, "clock_min_mhz", ec->clock_min_mhz);
            cJSON_AddNumberToObject(c, "clock_max_mhz", ec->clock_max_mhz);
        }
        if (ec->timing_note[0])
            cJSON_AddStringToObject(c, "timing_note", ec->timing_note);
        if (!isnan(ec->deadline_s)) {
            cJSON_AddNumberToObject(c, "deadline_s", ec->deadline_s);
            cJSON_AddStringToObject(c, "deadline", ec->deadline_note);
        }
        if (ec->profile.status != PROFILE_NOT_RUN)
            cJSON_AddItemToObject(c, "profile", profile_to_cjson(&ec->profile));
        cJSON_AddItemToArray(cs, c);
    }
    cJSON *sk = cJSON_AddArrayToObject(j, "skipped"); /* configs left out for want of golden outputs, and why */
    for (int k = 0; k < p->n_configs; k++) {
        if (!left_out[k])
            continue;
        cJSON *one = cJSON_CreateObject();
        cJSON_AddStringToObject(one, "name", p->configs[k].name);
        cJSON_AddStringToObject(one, "reason", left_out[k]);
        cJSON_AddItemToArray(sk, one);
    }
    cJSON_AddItemToObject(j, "structure", sr ? structure_to_cjson(sr) : cJSON_CreateNull());
    if (!sr)
        cJSON_AddStringToObject(j, "structure_note", structure_note);
    char *s = cJSON_Print(j);
    printf("%s\n", s);
    cJSON_free(s);
    cJSON_Delete(j);
}

/* eval_candidate, with the catalog's stored times of the program's
 * reference on this GPU noted in the session first: they set the default
 * deadline (deadline.h).  A program folder has none stored. */
static int evaluate(CliContext *cx, const char *program, const Problem *p, const char *ref_source,
                    const char *kernel, const LaunchPlan *lp, const ProblemConfig *const *cs, int n_cs,
                    const EvalOptions *o, EvalReport *r, int *no_gpu, Error *e)
{
    int rc = 0;
    EvalSession s;
    Catalog *c = NULL;
    memset(r, 0, sizeof *r);
    TRY(eval_session_open(&s, o, no_gpu, e));
    if (o->deadline_s <= 0 && o->backend != BACKEND_CPU && !file_is_dir(program)) {
        TRY(catalog_open(cx->catalog_path, 0, &c, e));
        TRY(results_reference_times(c, p->name, s.gpu.name, s.ref_times, e));
        catalog_close(c);
        c = NULL;
    }
    TRY(eval_session_candidate(&s, p, ref_source, kernel, lp, cs, n_cs, o, r, no_gpu, e));
done:
    catalog_close(c);
    eval_session_close(&s);
    return rc;
}

int cmd_eval(CliContext *cx, int argc, char **argv)
{
    EvalOptions o = eval_default_options();
    const char *pos[3] = {NULL, NULL, NULL}, *configs = NULL, *cache = NULL;
    RefBudget budget = golden_default_budget();
    int n_pos = 0, json = 0, racecheck = 0;
    char sanitizer[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        } else if (strcmp(a, "--configs") == 0 && more) {
            configs = argv[++i];
        } else if (strcmp(a, "--reference-budget") == 0 && more) {
            Error be;
            if (golden_parse_budget(argv[++i], &budget, &be) != 0)
                return cli_usage_error("eval", "--reference-budget: %s", be.msg);
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
        } else if (strcmp(a, "--precise") == 0) {
            eval_precise_timing(&o);
        } else if (strcmp(a, "--time-all-configs") == 0) {
            o.time_all_configs = 1;
        } else if (strcmp(a, "--profile") == 0) {
            o.profile = 1;
        } else if (strcmp(a, "--racecheck") == 0) {
            racecheck = 1;
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
    if (o.backend == BACKEND_CPU && o.profile)
        return cli_usage_error("eval", "--profile needs the GPU backend (the CPU has no hardware counters)");
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
    if (racecheck && eval_use_racecheck(&o, sanitizer, sizeof sanitizer, &e) != 0) {
        free(dir_kernel);
        free(dir_launch);
        return cli_usage_error("eval", "%s", e.msg);
    }

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
    char *ref_source = NULL, *kernel = NULL, *base_source = NULL;
    LaunchPlan *base_plan = NULL;
    const ProblemConfig **cs = NULL;
    unsigned char *golden = NULL;
    char **left_out = NULL; /* per config of p: why it is left out for want of golden outputs */
    int n_cs = 0, rc = 0, no_gpu = 0;
    EvalReport r;
    memset(&r, 0, sizeof r);
    StructureReport sr;
    memset(&sr, 0, sizeof sr);
    char structure_note[1024] = "";
    if (load_program(cx, pos[0], &p, &ref_source, &e) != 0 || file_read_all(pos[1], 1 << 20, &kernel, NULL, &e) != 0 ||
        launch_load(pos[2], p, &lp, &e) != 0 || pick_configs(p, configs, o.backend, &cs, &n_cs, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    if (n_cs == 0) {
        rc = cli_usage_error("eval", "no config to run");
        goto done;
    }
    if (find_baseline(cx, pos[0], p, pos[1], &base_source, &base_plan, &o.candidate_is_reference) == 0 &&
        base_source) {
        o.baseline_source = base_source;
        o.baseline_plan = base_plan;
    }
    golden = xcalloc((size_t)p->n_configs + 1, 1);
    left_out = xcalloc((size_t)p->n_configs + 1, sizeof *left_out);
    if (!configs && add_golden_configs(cx, pos[0], p, kernel, lp, &o, &budget, cs, &n_cs, golden, left_out, &e) != 0) {
        rc = cli_fail(&e);
        goto done;
    }
    if (n_cs == 0) {
        fprintf(stderr, "harness eval: no config to run:");
        for (int k = 0; k < p->n_configs; k++)
            if (left_out[k])
                fprintf(stderr, " %s", left_out[k]);
        fprintf(stderr, "\n");
        rc = 1;
        goto done;
    }
    if (evaluate(cx, pos[0], p, ref_source, kernel, lp, cs, n_cs, &o, &r, &no_gpu, &e) != 0) {
        rc = cli_fail(&e);
        if (no_gpu)
            fprintf(stderr, "harness eval: this machine has no usable GPU, so the candidate was not evaluated "
                            "(--backend cpu gives a correctness verdict on the CPU)\n");
        goto done;
    }
    int have_sr = structure_of(p, kernel, lp, &r, &o, &sr, structure_note, sizeof structure_note);
    if (json) {
        print_json(p->name, pos[1], &r, &o, have_sr ? &sr : NULL, structure_note, p, left_out);
    } else {
        print_human(p->name, pos[1], &r, &o);
        printf("\n");
        if (have_sr)
            structure_print(stdout, &sr);
        else
            printf("structure: no report (%s)\n", structure_note);
        print_profiles(p, kernel, lp, &r, &o);
        for (int k = 0; k < p->n_configs; k++)
            if (left_out[k])
                printf("\nconfig %s: skipped: %s\n", p->configs[k].name, left_out[k]);
    }
    rc = r.status == EVAL_PASS ? 0 : 1;
done:
    structure_report_release(&sr);
    eval_report_release(&r);
    free(cs);
    free(golden);
    for (int k = 0; left_out && k < p->n_configs; k++)
        free(left_out[k]);
    free(left_out);
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
    free(base_source);
    launch_free(base_plan);
    return rc;
}
