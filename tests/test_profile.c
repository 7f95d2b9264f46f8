/* The measured structural report: metric choice and the derived figures
 * (profile_metrics.h), the PROFILE request's payloads, and the measured
 * pass end to end through a GPU worker on tests/fake_cuda's stand-in
 * driver and CUPTI (ok, counters not permitted, no CUPTI at all), its JSON
 * (results.profile) and the CLI's --profile parsing.  The real profiler
 * runs in tests/gpu/profile_check.sh on a GPU machine. */
#include <cjson/cJSON.h>
#include <cupti_result.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/cupti_profile.h"
#include "harness/eval.h"
#include "harness/wp_profile.h"
#include "tests/test.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * (1 + fabs((double)(b))))

/* available(): every metric except the names listed in ctx (NULL-ended) */
static int all_but(const char *name, void *ctx)
{
    for (const char *const *n = ctx; *n; n++)
        if (strcmp(name, *n) == 0)
            return 0;
    return 1;
}

TEST(profile_metric_choice_and_math)
{
    /* every first choice known: one metric each, no ratio */
    const char *none[] = {NULL};
    ProfileSelection s;
    profile_resolve(all_but, none, &s);
    CHECK_MSG(s.n == PQ_COUNT, "%d metrics for %d quantities", s.n, PQ_COUNT);
    for (int q = 0; q < PQ_COUNT; q++)
        CHECK(!s.missing[q]);
    /* the barrier share's first name unknown: the ratio of two counters */
    const char *no_pct[] = {"smsp__warp_issue_stalled_barrier_per_warp_active.pct", NULL};
    profile_resolve(all_but, no_pct, &s);
    int has_num = 0, has_den = 0;
    for (int i = 0; i < s.n; i++) {
        has_num |= strcmp(s.names[i], "smsp__warps_issue_stalled_barrier.sum") == 0;
        has_den |= strcmp(s.names[i], "smsp__warps_active.sum") == 0;
    }
    CHECK(has_num && has_den && !s.missing[PQ_BARRIER_STALL]);
    /* no DRAM metric at all: the quantity is missing, the others are not */
    const char *no_dram[] = {"dram__bytes_read.sum", NULL};
    profile_resolve(all_but, no_dram, &s);
    CHECK(s.missing[PQ_DRAM_READ] && !s.missing[PQ_DRAM_WRITE]);

    /* sectors per request -> coalescing: 4-byte words, 4 sectors ideal */
    CHECK(NEAR(profile_coalescing(400, 100, 4), 1.0));
    CHECK(NEAR(profile_coalescing(3200, 100, 4), 0.125)); /* one word per sector: transposed */
    CHECK(NEAR(profile_coalescing(300, 100, 4), 1.0));    /* fewer than ideal (a partial warp): clamped */
    CHECK(NEAR(profile_coalescing(1600, 100, 16), 1.0));  /* float4: 16 sectors is perfect */
    CHECK(NEAR(profile_coalescing(200, 100, 1), 0.5));    /* bytes: one sector ideal */
    CHECK(isnan(profile_coalescing(0, 0, 4)));

    /* a streaming kernel: 1 GB read, 0.5 GB written in 0.5 ms */
    ProfileResult r;
    profile_result_init(&r);
    r.status = PROFILE_OK;
    const char *names[] = {"dram__bytes_read.sum", "dram__bytes_write.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                           "sm__warps_active.avg.pct_of_peak_sustained_active", "gpu__time_duration.sum",
                           "smsp__warps_issue_stalled_barrier.sum", "smsp__warps_active.sum"};
    double values[] = {1e9, 0.5e9, 400, 100, 1600, 100, 75, 0.5e6, 30, 120};
    r.n_metrics = 10;
    for (int i = 0; i < r.n_metrics; i++) {
        snprintf(r.names[i], sizeof r.names[i], "%s", names[i]);
        r.values[i] = values[i];
    }
    profile_take(&r);
    CHECK(NEAR(r.q[PQ_WARPS_ACTIVE], 0.75));
    CHECK(NEAR(r.q[PQ_BARRIER_STALL], 0.25));
    CHECK(strstr(r.source[PQ_BARRIER_STALL], " / ") != NULL);
    CHECK(isnan(r.q[PQ_SM_THROUGHPUT]));
    profile_derive(&r, 0.5e9, 1.5e9, 4, 67e12, 4.3e12);
    CHECK(NEAR(r.ld_sectors_per_request, 4) && NEAR(r.st_sectors_per_request, 16));
    CHECK(NEAR(r.coalescing, (100 * 1.0 + 100 * 0.25) / 200));
    CHECK(NEAR(r.dram_bytes, 1.5e9) && NEAR(r.bytes_ratio, 1.0));
    CHECK(NEAR(r.bandwidth, 3e12) && NEAR(r.flop_rate, 1e12));
    CHECK(NEAR(r.roofline, 3e12 / 4.3e12)); /* memory-bound: bandwidth decides */
    /* compute-bound: the FLOP rate decides */
    profile_derive(&r, 60e9, 1.5e9, 4, 67e12, 4.3e12);
    CHECK(NEAR(r.roofline, 120e12 / 67e12));

    /* JSON: stable keys, NaN as null, the unavailable quantities listed */
    char *text = profile_to_json(&r);
    cJSON *j = cJSON_Parse(text);
    CHECK(j != NULL);
    if (j) {
        cJSON *d = cJSON_GetObjectItem(j, "derived"), *q = cJSON_GetObjectItem(j, "quantities");
        CHECK(cJSON_IsNumber(cJSON_GetObjectItem(d, "coalescing")));
        CHECK(cJSON_IsNull(cJSON_GetObjectItem(q, "sm_throughput")));
        CHECK(strcmp(cJSON_GetObjectItem(j, "status")->valuestring, "ok") == 0);
        char *un = cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "unavailable"));
        CHECK_MSG(strstr(un, "sm_throughput") && strstr(un, "dram_throughput") && !strstr(un, "dram_read"), "%s", un);
        free(un);
        cJSON_Delete(j);
    }
    free(text);

    /* CUPTI codes: not permitted vs absent vs a failure */
    CHECK(cupti_profile_status_of(35) == PROFILE_DENIED);
    CHECK(cupti_profile_status_of(CUPTI_ERROR_NOT_SUPPORTED) == PROFILE_UNAVAILABLE);
    CHECK(cupti_profile_status_of(CUPTI_ERROR_UNKNOWN) == PROFILE_FAILED);
    return 0;
}

TEST(profile_protocol_roundtrip)
{
    WpProfileRequest q;
    memset(&q, 0, sizeof q);
    q.flush_mib = 256;
    q.deadline_ms = 5000;
    q.max_passes = 64;
    q.n_restore = 1;
    q.restore[0] = 1;
    q.plan.repeats = 1;
    q.plan.deadline_ms = 1000;
    q.plan.n_launches = 1;
    q.plan.launches = xcalloc(1, sizeof *q.plan.launches);
    snprintf(q.plan.launches[0].kernel, sizeof q.plan.launches[0].kernel, "axpy");
    for (int d = 0; d < 3; d++)
        q.plan.launches[0].grid[d] = q.plan.launches[0].block[d] = 1;
    WpBuf b = {0};
    wp_encode_profile(&b, &q);
    WpProfileRequest back;
    Error e;
    CHECK_MSG(wp_decode_profile(b.data, b.len, 2, &back, &e) == 0, "%s", e.msg);
    CHECK(back.flush_mib == 256 && back.max_passes == 64 && back.n_restore == 1 && back.restore[0] == 1);
    CHECK(back.plan.n_launches == 1 && strcmp(back.plan.launches[0].kernel, "axpy") == 0);
    wp_profile_request_release(&back);
    /* a restore index past the buffers is refused */
    CHECK(wp_decode_profile(b.data, b.len, 1, &back, &e) != 0 && strstr(e.msg, "restore"));
    wp_profile_request_release(&back);
    wp_buf_release(&b);
    wp_profile_request_release(&q);

    ProfileResult r, r2;
    profile_result_init(&r);
    r.status = PROFILE_DENIED;
    snprintf(r.note, sizeof r.note, "not permitted");
    r.passes = 3;
    r.n_metrics = 1;
    snprintf(r.names[0], sizeof r.names[0], "dram__bytes_read.sum");
    r.values[0] = 12345.5;
    r.n_launches = 2;
    r.api_blocks_per_sm[0] = 8;
    r.api_blocks_per_sm[1] = -1;
    wp_encode_profile_result(&b, &r);
    WpReader rd;
    wp_reader_init(&rd, b.data, b.len);
    CHECK_MSG(wp_decode_profile_result(&rd, &r2, &e) == 0, "%s", e.msg);
    CHECK(r2.status == PROFILE_DENIED && strcmp(r2.note, "not permitted") == 0 && r2.passes == 3);
    CHECK(r2.n_metrics == 1 && r2.values[0] == 12345.5 && r2.n_launches == 2 && r2.api_blocks_per_sm[1] == -1);
    /* truncated */
    wp_reader_init(&rd, b.data, b.len - 3);
    CHECK(wp_decode_profile_result(&rd, &r2, &e) != 0);
    wp_buf_release(&b);
    return 0;
}

/* Builds a stand-in library of tests/fake_cuda into the test's directory. */
/* eval --profile of the axpy candidate under the fake driver and CUPTI. */
static int eval_profiled(TestCtx *t, const char *exe, EvalReport *r, Error *e)
{
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char *ref = NULL, *src = NULL;
    int rc = -1;
    if (problem_load("tests/data/programs/ok-axpy/meta.json", &p, e) != 0 ||
        file_read_all("tests/data/programs/ok-axpy/program.c", 1 << 20, &ref, NULL, e) != 0 ||
        file_read_all("tests/data/kernels/axpy/kernel.cu", 1 << 20, &src, NULL, e) != 0 ||
        launch_load("tests/data/kernels/axpy/launch.json", p, &lp, e) != 0)
        goto done;
    const ProblemConfig *cs[8];
    int n = 0;
    for (int k = 0; k < p->n_configs && n < 8; k++)
        if (strcmp(p->configs[k].name, "large") != 0)
            cs[n++] = &p->configs[k];
    EvalOptions o = eval_default_options();
    char *nv = xasprintf("%s/nvrtc", t->tmpdir), *cr = xasprintf("%s/cref", t->tmpdir);
    o.nvrtc_cache = nv;
    o.cref_cache = cr;
    o.worker_exe = exe;
    o.trials = 1;
    o.timing_runs = 0;
    o.profile = 1;
    o.timing.flush_mib = 1;
    int no_gpu = 0;
    rc = eval_candidate(p, ref, src, lp, cs, n, &o, r, &no_gpu, e);
    free(nv);
    free(cr);
done:
    launch_free(lp);
    problem_free(p);
    free(ref);
    free(src);
    return rc;
}

TEST(profile_fake_gpu_end_to_end)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    if (test_build_fake(t, "fake_libcuda.c", "libcuda.so.1", "") != 0 ||
        test_build_fake(t, "fake_libcupti.c", "libcupti.so.13", FAKE_CUPTI_CFLAGS) != 0) {
        free(exe);
        return -1;
    }
    char *drv = xasprintf("%s/libcuda.so.1", t->tmpdir), *cupti = xasprintf("%s/libcupti.so.13", t->tmpdir);
    setenv("CUDAPERF_LIBCUDA", drv, 1);
    setenv("CUDAPERF_LIBCUPTI", cupti, 1);
    EvalReport r;
    Error e;

    /* permitted: every config measured, the barrier metrics unknown to this "chip" */
    setenv("FAKE_CUPTI_MODE", "ok", 1);
    CHECK_MSG(eval_profiled(t, exe, &r, &e) == 0, "%s", e.msg);
    CHECK(r.n_configs >= 2);
    for (int k = 0; k < r.n_configs; k++) {
        const ProfileResult *p = &r.configs[k].profile;
        CHECK_MSG(r.configs[k].status == EVAL_PASS, "%s: %s", r.configs[k].config->name, r.configs[k].message);
        CHECK_MSG(p->status == PROFILE_OK, "%s: %s %s", r.configs[k].config->name, profile_status_name(p->status),
                  p->note);
        CHECK(p->passes == 3 && NEAR(p->q[PQ_DRAM_READ], 1000) && NEAR(p->dram_bytes, 1500));
        CHECK(NEAR(p->ld_sectors_per_request, 4) && NEAR(p->coalescing, 0.75) && NEAR(p->occupancy, 0.5));
        CHECK(isnan(p->q[PQ_BARRIER_STALL]) && strstr(p->note, "barrier_stall"));
        CHECK_MSG(p->n_launches == 1 && p->api_blocks_per_sm[0] == 8, "%d launches, %d blocks", p->n_launches,
                  p->api_blocks_per_sm[0]);
        CHECK(NEAR(p->bandwidth, 1500 / 1e-6)); /* 1500 bytes in 1000 ns */
        char *json = profile_to_json(p);
        CHECK(strstr(json, "\"barrier_stall\"") && strstr(json, "\"api_blocks_per_sm\":[8]"));
        free(json);
    }
    eval_report_release(&r);

    /* not permitted: said once, every config carries it, the verdicts stand */
    setenv("FAKE_CUPTI_MODE", "denied", 1);
    CHECK_MSG(eval_profiled(t, exe, &r, &e) == 0, "%s", e.msg);
    for (int k = 0; k < r.n_configs; k++) {
        const ProfileResult *p = &r.configs[k].profile;
        CHECK(r.configs[k].status == EVAL_PASS);
        CHECK_MSG(p->status == PROFILE_DENIED && strstr(p->note, "not permitted") &&
                      strstr(p->note, "INSUFFICIENT_PRIVILEGES"),
                  "%s: %s", profile_status_name(p->status), p->note);
    }
    eval_report_release(&r);

    /* no CUPTI: unavailable, with the loader's reason */
    setenv("CUDAPERF_LIBCUPTI", "/nonexistent/libcupti.so.13", 1);
    CHECK_MSG(eval_profiled(t, exe, &r, &e) == 0, "%s", e.msg);
    const ProfileResult *p = &r.configs[0].profile;
    CHECK_MSG(p->status == PROFILE_UNAVAILABLE && strstr(p->note, "CUPTI unavailable"), "%s: %s",
              profile_status_name(p->status), p->note);
    eval_report_release(&r);

    unsetenv("FAKE_CUPTI_MODE");
    unsetenv("CUDAPERF_LIBCUPTI");
    unsetenv("CUDAPERF_LIBCUDA");
    free(drv);
    free(cupti);
    free(exe);
    return 0;
}

TEST(profile_cli_options)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    char *out = NULL;
    int st = test_sh(&out, "%s eval tests/data/programs/ok-axpy --backend cpu --profile 2>&1", exe);
    CHECK_MSG(st == 2 && strstr(out, "--profile needs the GPU backend"), "status %d: %s", st, out);
    free(out);
    st = test_sh(&out, "%s run --backend cpu --profile 2>&1", exe);
    CHECK_MSG(st == 2 && strstr(out, "--profile needs the GPU backend"), "status %d: %s", st, out);
    free(out);
    st = test_sh(&out, "%s eval --help", exe);
    CHECK(st == 0 && strstr(out, "--profile"));
    free(out);
    st = test_sh(&out, "%s profile --kernels bogus 2>&1", exe);
    CHECK_MSG(st == 2 && strstr(out, "--kernels must be"), "status %d: %s", st, out);
    free(out);
    free(exe);
    return 0;
}
