/* The GPU path end to end: `harness worker` processes driven through
 * gpu_worker.h by eval_candidate(), on the candidates of tests/data/kernels
 * with the verdicts of tests/data/kernels/expected.txt.
 *
 * gpu_fake_* run everywhere: the worker loads tests/fake_cuda's stand-in
 * driver (built here with cc), which imitates each misbehaviour, so
 * protocol, buffers, poison, guards, comparison, timeouts and worker
 * restarts are exercised in CI.  gpu_device_* use the real driver and skip
 * loudly without a GPU.  Both need the harness binary next to the test
 * runner (the worker is `harness worker`). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/eval.h"
#include "harness/gpu_timing.h"
#include "harness/racecheck.h"
#include "tests/test.h"

typedef struct Case {
    char dir[64], status[32], fake_mode[32], expect[256];
} Case;

static int load_cases(Case **out, int *n)
{
    char *text = NULL;
    Error e;
    if (file_read_all("tests/data/kernels/expected.txt", 1 << 16, &text, NULL, &e) != 0)
        return -1;
    Case *cs = xcalloc(64, sizeof *cs);
    int k = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && k < 64; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0])
            continue;
        Case *c = &cs[k];
        int used = 0;
        if (sscanf(line, "%63s %31s %31s %n", c->dir, c->status, c->fake_mode, &used) != 3)
            continue;
        snprintf(c->expect, sizeof c->expect, "%s", line + used);
        k++;
    }
    free(text);
    *out = cs;
    *n = k;
    return 0;
}

typedef struct Fixture {
    Problem *p;
    char *ref;
    const ProblemConfig *configs[8];
    int n_configs;
} Fixture;

static int fixture_load(TestCtx *t, Fixture *f)
{
    Error e;
    memset(f, 0, sizeof *f);
    if (problem_load("tests/data/programs/ok-axpy/meta.json", &f->p, &e) != 0 ||
        file_read_all("tests/data/programs/ok-axpy/program.c", 1 << 20, &f->ref, NULL, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s", e.msg);
        return -1;
    }
    for (int k = 0; k < f->p->n_configs && f->n_configs < 8; k++)
        if (strcmp(f->p->configs[k].name, "large") != 0)
            f->configs[f->n_configs++] = &f->p->configs[k];
    return 0;
}

static void fixture_release(Fixture *f)
{
    problem_free(f->p);
    free(f->ref);
}

/* Evaluates one candidate folder and checks its verdict against c. */
static void eval_case(TestCtx *t, Fixture *f, const char *exe, const Case *c, double deadline)
{
    Error e;
    char *kpath = xasprintf("tests/data/kernels/%s/kernel.cu", c->dir);
    char *lpath = xasprintf("tests/data/kernels/%s/launch.json", c->dir);
    char *src = NULL;
    LaunchPlan *lp = NULL;
    if (file_read_all(kpath, 1 << 20, &src, NULL, &e) != 0 || launch_load(lpath, f->p, &lp, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", c->dir, e.msg);
        goto done;
    }
    EvalOptions o = eval_default_options();
    char *nv = xasprintf("%s/nvrtc", t->tmpdir), *cr = xasprintf("%s/cref", t->tmpdir);
    o.nvrtc_cache = nv;
    o.cref_cache = cr;
    o.worker_exe = exe;
    o.trials = 2;
    o.deadline_s = deadline;
    o.warmup_runs = 1;
    o.timing_runs = 3;
    if (getenv("CUDAPERF_LIBCUDA"))
        o.timing.flush_mib = 1; /* the fake driver flushes with a CPU memset */
    EvalReport r;
    int no_gpu = 0;
    int rc = eval_candidate(f->p, f->ref, src, lp, f->configs, f->n_configs, &o, &r, &no_gpu, &e);
    CHECK_MSG(rc == 0, "%s: eval failed: %s", c->dir, e.msg);
    if (rc == 0) {
        StrBuf all = STRBUF_INIT;
        sb_append(&all, r.compile_log ? r.compile_log : "");
        for (int k = 0; k < r.n_configs; k++)
            sb_printf(&all, "\n%s: %s %s", r.configs[k].config->name, eval_status_name(r.configs[k].status),
                      r.configs[k].message);
        CHECK_MSG(strcmp(eval_status_name(r.status), c->status) == 0, "%s: verdict %s, expected %s:%s", c->dir,
                  eval_status_name(r.status), c->status, sb_str(&all));
        if (strcmp(c->expect, "-") != 0)
            CHECK_MSG(strstr(sb_str(&all), c->expect) != NULL, "%s: '%s' not in:%s", c->dir, c->expect, sb_str(&all));
        /* one config is timed (the one with the most bytes), the others
         * say why they are not */
        int timed_k = eval_timed_config(f->p, f->configs, f->n_configs);
        if (r.status == EVAL_PASS)
            for (int k = 0; k < r.n_configs; k++) {
                const EvalConfig *ec = &r.configs[k];
                if (k == timed_k) {
                    CHECK_MSG(ec->trials == 2 && ec->timed_runs >= 10 && ec->median_ms > 0,
                              "%s: %s: %d trials, %d timed (median %g ms)", c->dir, ec->config->name, ec->trials,
                              ec->timed_runs, ec->median_ms);
                    /* the CUPTI cross-check gives a kernel time wherever CUPTI loads */
                    if (!strstr(ec->timing_note, "CUPTI unavailable"))
                        CHECK_MSG(ec->cupti_ms > 0, "%s: %s: no CUPTI time (%g): %s", c->dir, ec->config->name,
                                  ec->cupti_ms, ec->timing_note);
                } else
                    CHECK_MSG(ec->trials == 2 && ec->timed_runs == 0 && strstr(ec->timing_note, "is the timed one"),
                              "%s: %s: %d trials, %d timed, note '%s'", c->dir, ec->config->name, ec->trials,
                              ec->timed_runs, ec->timing_note);
            }
        /* every config of a crashing or hanging candidate gets its verdict
         * from a fresh worker */
        if (r.status == EVAL_TIMEOUT || (r.status == EVAL_RUNTIME_ERROR && !strstr(c->expect, "out of bounds")))
            CHECK_MSG(r.worker_restarts == r.n_configs, "%s: %d restarts for %d configs", c->dir, r.worker_restarts,
                      r.n_configs);
        sb_release(&all);
    }
    eval_report_release(&r);
    free(nv);
    free(cr);
done:
    launch_free(lp);
    free(src);
    free(kpath);
    free(lpath);
}

/* Builds the fake driver into the test's directory and points the worker
 * at it; NULL (and a failure) when cc cannot build it. */
static char *build_fake(TestCtx *t)
{
    if (test_build_fake(t, "fake_libcuda.c", "libcuda.so.1", "") != 0)
        return NULL;
    char *so = xasprintf("%s/libcuda.so.1", t->tmpdir);
    setenv("CUDAPERF_LIBCUDA", so, 1);
    return so;
}

TEST(gpu_fake_eval)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    Case *cs = NULL;
    int n = 0;
    Fixture f;
    char *so = build_fake(t);
    /* the fake CUPTI's activity records, fed by the fake driver's launches */
    char *cupti = xasprintf("%s/libcupti.so.13", t->tmpdir);
    int cupti_built = test_build_fake(t, "fake_libcupti.c", "libcupti.so.13", FAKE_CUPTI_CFLAGS) == 0;
    setenv("CUDAPERF_LIBCUPTI", cupti, 1);
    if (!so || !cupti_built || load_cases(&cs, &n) != 0 || fixture_load(t, &f) != 0) {
        free(exe);
        free(so);
        free(cs);
        free(cupti);
        unsetenv("CUDAPERF_LIBCUDA");
        unsetenv("CUDAPERF_LIBCUPTI");
        return -1;
    }
    CHECK(n >= 8);
    for (int i = 0; i < n; i++) {
        if (strcmp(cs[i].fake_mode, "-") == 0)
            continue;
        setenv("FAKE_CUDA_MODE", cs[i].fake_mode, 1);
        eval_case(t, &f, exe, &cs[i], 0.3);
    }
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    unsetenv("CUDAPERF_LIBCUPTI");
    fixture_release(&f);
    free(cs);
    free(so);
    free(cupti);
    free(exe);
    return 0;
}

/* A stand-in compute-sanitizer: runs the worker command line it is given
 * as a child (so the pipes it inherits are the worker's), counts its starts
 * in $FAKE_SANITIZER_STARTS, and at exit writes a racecheck log in the real
 * tool's format (as seen on the H200) with $FAKE_RACECHECK_ERRORS errors. */
static const char FAKE_SANITIZER[] =
    "#!/bin/sh\n"
    "log=\n"
    "while [ $# -gt 0 ]; do\n"
    "  case $1 in --log-file) log=$2; shift 2 ;; --tool|--print-limit) shift 2 ;; *) break ;; esac\n"
    "done\n"
    "echo start >>\"$FAKE_SANITIZER_STARTS\"\n"
    "\"$@\"\n"
    "rc=$?\n"
    "n=${FAKE_RACECHECK_ERRORS:-0}\n"
    "{ echo '========= COMPUTE-SANITIZER'\n"
    "  [ \"$n\" -gt 0 ] && echo '========= Error: Race reported between Write access at axpy+0x70 in kernel.cu:12:axpy'\n"
    "  echo \"========= RACECHECK SUMMARY: $((n + 1)) hazards displayed ($n errors, 1 warning)\"; } >\"$log\"\n"
    "exit $rc\n";

static int count_lines(const char *path)
{
    char *text = NULL;
    Error e;
    if (file_read_all(path, 1 << 16, &text, NULL, &e) != 0)
        return 0;
    int n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    free(text);
    return n;
}

TEST(gpu_fake_racecheck)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    Fixture f;
    char *so = build_fake(t);
    char *tool = xasprintf("%s/compute-sanitizer", t->tmpdir), *starts = xasprintf("%s/starts", t->tmpdir);
    char *nv = xasprintf("%s/nvrtc", t->tmpdir), *cr = xasprintf("%s/cref", t->tmpdir);
    char *src = NULL;
    LaunchPlan *lp = NULL;
    Error e;
    int changed;
    CHECK(file_write_if_changed(tool, FAKE_SANITIZER, strlen(FAKE_SANITIZER), &changed, &e) == 0);
    CHECK(chmod(tool, 0755) == 0);
    setenv("CUDAPERF_SANITIZER", tool, 1);
    setenv("FAKE_SANITIZER_STARTS", starts, 1);
    setenv("FAKE_CUDA_MODE", "ok", 1);
    if (!so || fixture_load(t, &f) != 0)
        goto out;
    CHECK(file_read_all("tests/data/kernels/axpy/kernel.cu", 1 << 20, &src, NULL, &e) == 0);
    CHECK(launch_load("tests/data/kernels/axpy/launch.json", f.p, &lp, &e) == 0);
    if (!src || !lp)
        goto fixture;

    EvalOptions o = eval_default_options();
    o.nvrtc_cache = nv;
    o.cref_cache = cr;
    o.worker_exe = exe;
    o.trials = 1;
    char path[1024];
    /* the CPU backend's own detector needs no sanitizer (cpu_racecheck.h) */
    o.backend = BACKEND_CPU;
    setenv("CUDAPERF_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    CHECK(eval_use_racecheck(&o, path, sizeof path, &e) == 0 && strcmp(path, EVAL_CPU_RACECHECK) == 0 &&
          o.racecheck == path && o.timing_runs == 0);
    o.racecheck = NULL;
    o.timing_runs = eval_default_options().timing_runs;
    o.backend = BACKEND_GPU;
    /* refused where it cannot mean anything */
    o.profile = 1;
    CHECK(eval_use_racecheck(&o, path, sizeof path, &e) == -1 && strstr(e.msg, "--profile"));
    o.profile = 0;
    setenv("CUDAPERF_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    CHECK(eval_use_racecheck(&o, path, sizeof path, &e) == -1 && strstr(e.msg, "/nonexistent/compute-sanitizer"));
    setenv("CUDAPERF_SANITIZER", tool, 1);
    CHECK(eval_use_racecheck(&o, path, sizeof path, &e) == 0 && strcmp(path, tool) == 0 && o.timing_runs == 0);

    /* two candidates in one session: each in a worker of its own under the
     * sanitizer; the first is clean, the second has a reported hazard */
    EvalSession s;
    int no_gpu = 0;
    CHECK(eval_session_open(&s, &o, &no_gpu, &e) == 0);
    EvalReport r;
    setenv("FAKE_RACECHECK_ERRORS", "0", 1);
    CHECK(eval_session_candidate(&s, f.p, f.ref, src, lp, f.configs, f.n_configs, &o, &r, &no_gpu, &e) == 0);
    CHECK_MSG(r.status == EVAL_PASS, "clean candidate: %s (%s)", eval_status_name(r.status),
              r.n_configs ? r.configs[0].message : "");
    CHECK(r.n_configs > 0 && r.configs[0].timed_runs == 0);
    eval_report_release(&r);
    setenv("FAKE_RACECHECK_ERRORS", "2", 1);
    CHECK(eval_session_candidate(&s, f.p, f.ref, src, lp, f.configs, f.n_configs, &o, &r, &no_gpu, &e) == 0);
    CHECK_MSG(r.status == EVAL_WRONG_RESULT, "racy candidate: %s", eval_status_name(r.status));
    for (int k = 0; k < r.n_configs; k++)
        CHECK_MSG(r.configs[k].status == EVAL_WRONG_RESULT &&
                      strstr(r.configs[k].message, "shared-memory race (compute-sanitizer racecheck: 2 errors, "
                                                   "1 warning): Error: Race reported between Write access"),
                  "config %s: %s", r.configs[k].config->name, r.configs[k].message);
    eval_report_release(&r);
    eval_session_close(&s);
    CHECK_MSG(count_lines(starts) == 2, "%d sanitizer starts for 2 candidates", count_lines(starts));

    /* the command line: the worker under the sanitizer is the harness
     * itself (not /proc/self/exe, which would name the sanitizer there) */
    char *out = NULL;
    int st = test_sh(&out, "%s --catalog %s/none.db eval tests/data/programs/ok-axpy tests/data/kernels/axpy/kernel.cu "
                           "tests/data/kernels/axpy/launch.json --racecheck --trials 1 --cache %s 2>&1",
                     exe, t->tmpdir, t->tmpdir);
    CHECK_MSG(st == 1 && out && strstr(out, "verdict: wrong_result") && strstr(out, "shared-memory race"),
              "harness eval --racecheck: exit %d:\n%s", st, out ? out : "");
    free(out);

fixture:
    fixture_release(&f);
out:
    launch_free(lp);
    free(src);
    unsetenv("FAKE_RACECHECK_ERRORS");
    unsetenv("FAKE_SANITIZER_STARTS");
    unsetenv("CUDAPERF_SANITIZER");
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    free(nv);
    free(cr);
    free(tool);
    free(starts);
    free(so);
    free(exe);
    return 0;
}

/* The log format of the real tool, as compute-sanitizer of CUDA 13 wrote it
 * on the H200 (device runs 23 to 26): singular and plural counts, and the
 * hazard line the failure message quotes. */
TEST(racecheck_reads_the_tools_log)
{
    char *path = xasprintf("%s/rc.log", t->tmpdir);
    const char *logs[] = {
        "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
        "========= COMPUTE-SANITIZER\n"
        "========= Error: Race reported between Read access at block_sum(double *)+0x2c0 in kernel.cu:9\n"
        "=========     and Write access at block_sum(double *)+0x310 in kernel.cu:12 [128 hazards]\n"
        "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n",
        "========= RACECHECK SUMMARY: 4 hazards displayed (4 errors, 0 warnings)\n",
        "========= COMPUTE-SANITIZER\n",
    };
    int errors[] = {0, 1, 4, -1}, warnings[] = {0, 1, 0, -1}, changed;
    Error e;
    for (int i = 0; i < 4; i++) {
        RaceReport r;
        CHECK(file_write_if_changed(path, logs[i], strlen(logs[i]), &changed, &e) == 0);
        int rc = racecheck_read_log(path, &r, &e);
        if (errors[i] < 0) {
            CHECK_MSG(rc == -1 && strstr(e.msg, "no RACECHECK SUMMARY"), "log %d: rc %d", i, rc);
            continue;
        }
        CHECK_MSG(rc == 0 && r.errors == errors[i] && r.warnings == warnings[i], "log %d: rc %d, %d errors, %d warnings",
                  i, rc, r.errors, r.warnings);
    }
    RaceReport r;
    CHECK(file_write_if_changed(path, logs[1], strlen(logs[1]), &changed, &e) == 0 && racecheck_read_log(path, &r, &e) == 0);
    CHECK(strcmp(r.first, "Error: Race reported between Read access at block_sum(double *)+0x2c0 in kernel.cu:9") == 0);
    CHECK(racecheck_read_log("/nonexistent/rc.log", &r, &e) == -1 && strstr(e.msg, "/nonexistent/rc.log"));
    free(path);
    return 0;
}

TEST(gpu_fake_no_device)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    Fixture f;
    char *so = build_fake(t);
    if (!so || fixture_load(t, &f) != 0) {
        free(exe);
        free(so);
        unsetenv("CUDAPERF_LIBCUDA");
        return -1;
    }
    LaunchPlan *lp = NULL;
    Error e;
    CHECK(launch_load("tests/data/kernels/axpy/launch.json", f.p, &lp, &e) == 0);
    EvalOptions o = eval_default_options();
    char *nv = xasprintf("%s/nvrtc", t->tmpdir), *cr = xasprintf("%s/cref", t->tmpdir);
    o.nvrtc_cache = nv;
    o.cref_cache = cr;
    o.worker_exe = exe;
    EvalReport r;
    int no_gpu = 0;
    /* a driver that sees no device, then no driver at all */
    setenv("FAKE_CUDA_MODE", "nodevice", 1);
    CHECK(eval_candidate(f.p, f.ref, "", lp, f.configs, f.n_configs, &o, &r, &no_gpu, &e) != 0);
    CHECK_MSG(no_gpu && strstr(e.msg, "no GPU") && strstr(e.msg, "no CUDA device 0"), "%s", e.msg);
    eval_report_release(&r);
    setenv("CUDAPERF_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    no_gpu = 0;
    CHECK(eval_candidate(f.p, f.ref, "", lp, f.configs, f.n_configs, &o, &r, &no_gpu, &e) != 0);
    CHECK_MSG(no_gpu && strstr(e.msg, "no GPU: no CUDA driver"), "%s", e.msg);
    eval_report_release(&r);
    unsetenv("FAKE_CUDA_MODE");
    unsetenv("CUDAPERF_LIBCUDA");
    launch_free(lp);
    fixture_release(&f);
    free(nv);
    free(cr);
    free(so);
    free(exe);
    return 0;
}

TEST(gpu_device_eval)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    unsetenv("CUDAPERF_LIBCUDA");
    GpuWorker w;
    WpStatus st;
    Error e;
    if (gpu_worker_start(&w, exe, 0, &st, &e) != 0) {
        free(exe);
        if (st == WP_NO_DEVICE)
            SKIP("no GPU: %s", e.msg);
        test_fail(t, __FILE__, __LINE__, "cannot start a GPU worker: %s", e.msg);
        return -1;
    }
    printf("    GPU: %s, sm_%d%d, driver %d\n", w.info.name, w.info.cc_major, w.info.cc_minor, w.info.driver_version);
    gpu_worker_stop(&w);
    Case *cs = NULL;
    int n = 0;
    Fixture f;
    if (load_cases(&cs, &n) != 0 || fixture_load(t, &f) != 0) {
        free(cs);
        free(exe);
        return -1;
    }
    for (int i = 0; i < n; i++)
        eval_case(t, &f, exe, &cs[i], 2.0);
    fixture_release(&f);
    free(cs);
    free(exe);
    return 0;
}

/* The timer's hand-written PTX (spin, empty, read-only flush) assembles
 * for sm_90 with ptxas, so the device loads it without surprises. */
TEST(gpu_timer_ptx_assembles)
{
    const char *ptxas = "/usr/local/cuda/bin/ptxas";
    if (access(ptxas, X_OK) != 0)
        SKIP("no %s", ptxas);
    char *path = xasprintf("%s/timer.ptx", t->tmpdir);
    Error e;
    int changed;
    CHECK_MSG(file_write_if_changed(path, gpu_timing_ptx(), strlen(gpu_timing_ptx()), &changed, &e) == 0, "%s", e.msg);
    char *out = NULL;
    int st = test_sh(&out, "%s -arch=sm_90 %s -o %s/timer.cubin 2>&1", ptxas, path, t->tmpdir);
    CHECK_MSG(st == 0, "ptxas: %s", out ? out : "");
    CHECK(strstr(gpu_timing_ptx(), ".entry cudaperf_flush") && strstr(gpu_timing_ptx(), "ld.global.cg"));
    free(out);
    free(path);
    return 0;
}
