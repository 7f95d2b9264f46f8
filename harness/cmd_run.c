/* harness run — evaluate the candidates of many programs and store every
 * result in a new (or resumed) run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/cli.h"
#include "harness/cudrv.h"
#include "harness/nvrtc.h"
#include "harness/run.h"

static const char USAGE[] =
    "usage: harness run [selection] [options]\n"
    "  Evaluates CUDA candidates against their programs' references on every chosen config\n"
    "  and stores one result per (kernel, config) in a new run of the catalog.\n"
    "selection:\n"
    "  --split S           train, val, test or test-ood (default: every split)\n"
    "  --family F          one generator family\n"
    "  --program PATTERN   program names matching an SQL LIKE pattern (c/gemm/%)\n"
    "  --kernels K         reference (default), variants, all, contenders (the reference and the variants\n"
    "                      not planted to fail: what a speedup study times), or kernel ids 12,40,41\n"
    "  --configs a,b       config names, each checked against the C reference whatever it costs\n"
    "                      (default: every config within the C reference's budget, below; beyond it, a\n"
    "                      C program's config is checked against golden outputs of the program's\n"
    "                      reference CUDA implementation, run in the candidate's worker on the same\n"
    "                      inputs, once that implementation has passed every config within the budget on\n"
    "                      this backend (its latest results in the catalog, this run's included: a\n"
    "                      program's reference runs before its other kernels); the reference itself is\n"
    "                      then compared with a second execution of itself (faults, guard writes, inputs\n"
    "                      changed, nondeterminism). Such results say reference_kind cuda-reference;\n"
    "                      the configs left out are stored as skipped, with the reason)\n"
    "  --reference-budget FLOPS,BYTES  what the C reference may cost per config, by the program's cost\n"
    "                      model (default 4e9,2147483648: a few seconds of one core); with --backend cpu,\n"
    "                      configs beyond 5e7 flops or 256 MiB are left out whatever their reference\n"
    "  --skip-configs a,b  config names never run (e.g. large)\n"
    "  --limit N           at most N kernels (in program order)\n"
    "  --sample N          N kernels spread evenly over the selection (every family in turn)\n"
    "  --sample-programs N every kernel of N programs spread evenly over the selection\n"
    "  --shard I/N         only shard I of N (whole programs, dealt round-robin): run each shard on its\n"
    "                      own copy of the catalog, then `harness merge` the copies into one run\n"
    "options:\n"
    "  --resume RUN        continue run RUN (its own selection, backend, trials, timeout, timing, profile\n"
    "                      and reference budget options) without redoing finished kernels\n"
    "  --backend gpu|cpu   where candidates run (default gpu; cpu: correctness only)\n"
    "  --gpus N|all        one worker per GPU, devices 0..N-1 (default 1)\n"
    "  --jobs N            processes compiling ahead of the GPUs (default: CPU cores - GPUs)\n"
    "  --per-gpu N         worker processes per GPU (default 1; with --backend cpu: one per CPU core):\n"
    "                      their host work (inputs, the C reference, comparing outputs) overlaps, and\n"
    "                      each timed measurement has the GPU to itself (the others' GPU work waits)\n"
    "  --trials N          fresh-input trials per config (default 3; the second reads integer buffers'\n"
    "                      guards as small indices: at least 2 to catch a bounds defect that an index\n"
    "                      check would hide)\n"
    "  --seed N            seed of the first trial (default 20261202)\n"
    "  --timeout S         a fixed deadline per execution of a launch plan, for every kernel and config\n"
    "                      (default: 10x the reference's time on the config + 1 s where known, at most\n"
    "                      60 s, else 5 s; the reference's time is measured in the run, or a stored\n"
    "                      result on a GPU of the same name; 60 with --backend cpu)\n"
    "  --timing-runs N     least number of timing samples per passing config (default 10; 0: correctness\n"
    "                      only). Timing: L2 flushed, inout restored, launches queued behind a spinning\n"
    "                      kernel, until the median is known to 1% or 0.5 s; the reference CUDA\n"
    "                      implementation timed interleaved as the baseline (speedup)\n"
    "  --precise           nvbench-grade timing: median known to 0.5%, at least 0.5 s of samples\n"
    "  --time-all-configs  time every passing config (default: only the config with the most bytes\n"
    "                      of the cost model, the others get a correctness verdict)\n"
    "  --profile           the measured pass on every passing config, after timing: CUPTI range\n"
    "                      profiler over the whole plan (DRAM bytes, sectors/request, occupancy,\n"
    "                      throughput, barrier stalls; docs/STRUCTURE.md), stored in results.profile\n"
    "  --racecheck         every candidate under compute-sanitizer's racecheck (correctness only): a\n"
    "                      shared-memory hazard (a missing __syncthreads) fails it with wrong_result;\n"
    "                      with --backend cpu, the CPU backend's own detector of the same hazards\n"
    "  --arch sm_XX        NVRTC target (default: the GPU's own)\n"
    "  --cache DIR         cache root (default: next to the catalog, cache/{nvrtc,cref})\n"
    "  --quiet             no progress lines\n"
    "Results: `harness results RUN`.  Exit status: 0 when the run finished (whatever the\n"
    "candidates' verdicts), 1 when it could not run or was interrupted, 2 usage.\n";

/* Number of CUDA devices, asked in a child so this process never
 * initialises the driver before forking its workers; 0 when none. */
static int count_gpus(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        CuDriver d;
        Error e;
        int n = 0;
        if (cudrv_load(&d, &e) != 0 || d.init(0) != 0 || d.device_get_count(&n) != 0)
            _exit(0);
        _exit(n > 100 ? 100 : n);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return 0;
    return WEXITSTATUS(status);
}

static int parse_ids(const char *text, int64_t **ids, int *n)
{
    *n = 0;
    *ids = xcalloc(strlen(text) + 1, sizeof **ids);
    char *copy = xstrdup(text), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long long v = strtoll(t, &end, 10);
        if (*end || v <= 0) {
            free(copy);
            return -1;
        }
        (*ids)[(*n)++] = v;
    }
    free(copy);
    return *n ? 0 : -1;
}

int cmd_run(CliContext *cx, int argc, char **argv)
{
    RunOptions o;
    memset(&o, 0, sizeof o);
    o.eval = eval_default_options();
    o.backend = "gpu";
    o.workers = 1;
    o.per_gpu = 1;
    o.compile_jobs = -1;
    o.progress = stderr;
    const char *gpus = NULL, *cache = NULL;
    int per_gpu_given = 0, backend_given = 0, racecheck = 0, stored_racecheck = 0, budget_given = 0;
    char sanitizer[1024];
    int64_t resume = 0, *ids = NULL;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(USAGE, stdout);
            return 0;
        }
#define OPT(name) (strcmp(a, name) == 0 && more)
        if (OPT("--split")) {
            o.sel.split = argv[++i];
            if (strcmp(o.sel.split, "train") && strcmp(o.sel.split, "val") && strcmp(o.sel.split, "test") &&
                strcmp(o.sel.split, "test-ood"))
                return cli_usage_error("run", "--split must be train, val, test or test-ood");
        } else if (OPT("--family")) {
            o.sel.family = argv[++i];
        } else if (OPT("--program")) {
            o.sel.program = argv[++i];
        } else if (OPT("--kernels")) {
            const char *k = argv[++i];
            if (strcmp(k, "reference") == 0)
                o.sel.kernels = KSEL_REFERENCE;
            else if (strcmp(k, "variants") == 0)
                o.sel.kernels = KSEL_VARIANTS;
            else if (strcmp(k, "all") == 0)
                o.sel.kernels = KSEL_ALL;
            else if (strcmp(k, "contenders") == 0)
                o.sel.kernels = KSEL_CONTENDERS;
            else if (parse_ids(k, &ids, &o.sel.n_ids) == 0) {
                o.sel.kernels = KSEL_IDS;
                o.sel.ids = ids;
            } else
                return cli_usage_error("run", "--kernels takes reference, variants, all, contenders or ids like 12,40");
        } else if (OPT("--configs")) {
            o.sel.configs = argv[++i];
        } else if (OPT("--skip-configs")) {
            o.sel.skip_configs = argv[++i];
        } else if (OPT("--reference-budget")) {
            Error be;
            if (golden_parse_budget(argv[++i], &o.budget, &be) != 0)
                return cli_usage_error("run", "--reference-budget: %s", be.msg);
            budget_given = 1;
        } else if (OPT("--shard")) {
            if (run_parse_shard(argv[++i], &o.sel.shard_index, &o.sel.shard_count) != 0)
                return cli_usage_error("run", "--shard takes I/N with 0 <= I < N (e.g. 0/4), not '%s'", argv[i]);
        } else if (OPT("--sample")) {
            o.sel.sample = atoi(argv[++i]);
            if (o.sel.sample < 1)
                return cli_usage_error("run", "--sample must be at least 1");
        } else if (OPT("--sample-programs")) {
            o.sel.sample_programs = atoi(argv[++i]);
            if (o.sel.sample_programs < 1)
                return cli_usage_error("run", "--sample-programs must be at least 1");
        } else if (OPT("--limit")) {
            o.sel.limit = atoi(argv[++i]);
            if (o.sel.limit < 1)
                return cli_usage_error("run", "--limit must be at least 1");
        } else if (OPT("--resume")) {
            resume = atoll(argv[++i]);
            if (resume < 1)
                return cli_usage_error("run", "--resume takes a run id (see `harness results`)");
        } else if (OPT("--backend")) {
            o.backend = argv[++i];
            backend_given = 1;
            if (strcmp(o.backend, "gpu") && strcmp(o.backend, "cpu"))
                return cli_usage_error("run", "--backend must be gpu or cpu");
        } else if (OPT("--gpus")) {
            gpus = argv[++i];
        } else if (OPT("--per-gpu")) {
            o.per_gpu = atoi(argv[++i]);
            per_gpu_given = 1;
            if (o.per_gpu < 1 || o.per_gpu > 64)
                return cli_usage_error("run", "--per-gpu must be between 1 and 64");
        } else if (OPT("--jobs")) {
            o.compile_jobs = atoi(argv[++i]);
        } else if (OPT("--trials")) {
            o.eval.trials = atoi(argv[++i]);
            if (o.eval.trials < 1)
                return cli_usage_error("run", "--trials must be at least 1");
        } else if (OPT("--seed")) {
            o.eval.seed = strtoull(argv[++i], NULL, 10);
        } else if (OPT("--timeout")) {
            o.eval.deadline_s = atof(argv[++i]);
            if (!(o.eval.deadline_s > 0 && o.eval.deadline_s < 3600))
                return cli_usage_error("run", "--timeout must be between 0 and 3600 seconds");
        } else if (strcmp(a, "--precise") == 0) {
            eval_precise_timing(&o.eval);
        } else if (strcmp(a, "--time-all-configs") == 0) {
            o.eval.time_all_configs = 1;
        } else if (strcmp(a, "--profile") == 0) {
            o.eval.profile = 1;
        } else if (strcmp(a, "--racecheck") == 0) {
            racecheck = 1;
        } else if (OPT("--timing-runs")) {
            o.eval.timing_runs = atoi(argv[++i]);
            if (o.eval.timing_runs < 0 || o.eval.timing_runs > 10000)
                return cli_usage_error("run", "--timing-runs must be between 0 and 10000");
        } else if (OPT("--arch")) {
            o.eval.arch = argv[++i];
        } else if (OPT("--cache")) {
            cache = argv[++i];
        } else if (strcmp(a, "--quiet") == 0) {
            o.progress = NULL;
        } else {
            free(ids);
            return cli_usage_error("run", "unknown or incomplete option '%s'", a);
        }
#undef OPT
    }
    Error e;
    /* a resumed run keeps the options it was started with */
    const char *stored_backend = NULL;
    RefBudget stored_budget;
    if (resume && run_stored_options(cx->catalog_path, resume, &o.eval, &stored_racecheck, &stored_backend,
                                     &stored_budget, &e) != 0) {
        free(ids);
        fprintf(stderr, "harness run: %s\n", e.msg);
        return 1;
    }
    if (resume && budget_given) {
        free(ids);
        return cli_usage_error("run", "--reference-budget: a resumed run keeps the budget it was started with");
    }
    if (resume)
        o.budget = stored_budget;
    if (stored_backend && !backend_given)
        o.backend = stored_backend; /* a CPU-backend run resumes on the CPU backend unasked */
    if (o.eval.arch && nvrtc_check_arch(o.eval.arch, &e) != 0) {
        free(ids);
        return cli_usage_error("run", "%s", e.msg);
    }
    int present = 1;
    if (o.eval.profile && strcmp(o.backend, "cpu") == 0) {
        free(ids);
        return cli_usage_error("run", "--profile needs the GPU backend (the CPU has no hardware counters)");
    }
    if (strcmp(o.backend, "cpu") == 0) {
        /* correctness only: the CPU backend never reports a speed */
        o.eval.backend = BACKEND_CPU;
        o.eval.timing_runs = 0; /* deadline_s 0: the CPU backend's fixed one (eval.h) */
        /* a worker is mostly one busy thread (g++, NVRTC for the structural
         * report, the C reference; only launches use every core): one per
         * core made the references' run 1.45x faster on 2 cores (measured) */
        if (!per_gpu_given) {
            long cores = sysconf(_SC_NPROCESSORS_ONLN);
            o.per_gpu = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
        }
        if (gpus) {
            free(ids);
            return cli_usage_error("run", "--gpus is for the GPU backend (use --per-gpu N for N CPU workers)");
        }
    } else {
        present = count_gpus();
    }
    if (racecheck || stored_racecheck) { /* stored: a resumed --racecheck run */
        if (eval_use_racecheck(&o.eval, sanitizer, sizeof sanitizer, &e) != 0) {
            free(ids);
            return cli_usage_error("run", "%s", e.msg);
        }
    }
    if (present == 0) {
        free(ids);
        fprintf(stderr, "harness run: this machine has no usable GPU (no driver, or the driver sees no device).\n"
                        "  For a correctness-only run without a GPU use --backend cpu.\n");
        return 1;
    }
    if (!gpus || strcmp(gpus, "all") == 0)
        o.workers = gpus ? present : 1;
    else
        o.workers = atoi(gpus);
    if (o.workers < 1 || o.workers > present) {
        free(ids);
        return cli_usage_error("run", "--gpus %s: this machine has %d GPU(s)", gpus, present);
    }
    if (o.compile_jobs < 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o.compile_jobs = cores > o.workers ? (int)cores - o.workers : 0;
    }
    char *root = cache ? xstrdup(cache) : NULL;
    if (!root) {
        const char *slash = strrchr(cx->catalog_path, '/');
        root = slash ? xasprintf("%.*s/cache", (int)(slash - cx->catalog_path), cx->catalog_path) : xstrdup("cache");
    }
    char *nv = xasprintf("%s/nvrtc", root), *cr = xasprintf("%s/cref", root), *cpu = xasprintf("%s/cpu", root);
    o.eval.nvrtc_cache = nv;
    o.eval.cref_cache = cr;
    o.eval.cpu_cache = cpu;
    o.eval.progress = NULL;

    RunSummary s;
    int no_gpu = 0;
    int r = resume ? run_resume(cx->catalog_path, resume, &o, &s, &no_gpu, &e)
                   : run_start(cx->catalog_path, &o, &s, &no_gpu, &e);
    if (r != 0) {
        rc = cli_fail(&e);
        if (no_gpu)
            fprintf(stderr, "harness run: use --backend cpu for a correctness-only run without a GPU\n");
    } else {
        printf("harness run %lld: %d kernels (%d done before), %d evaluated: %d pass, %d fail, in %.1f s; "
               "see `harness results %lld`\n",
               (long long)s.run_id, s.kernels, s.skipped_done, s.evaluated, s.pass, s.fail, s.seconds,
               (long long)s.run_id);
    }
    free(root);
    free(nv);
    free(cr);
    free(cpu);
    free(ids);
    return rc;
}
