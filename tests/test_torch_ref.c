/* The torch reference runner (harness/torch_ref + harness/torch_runner.py):
 * frames encode and decode; describe and run through a real runner (the
 * Linear+ReLU fixture's outputs recomputed here from the weights it
 * returned); every kind of broken program (syntax error, no get_inputs,
 * forward that raises, wrong output count, exit(), printing, sleeping
 * forever) gets its one-line error and the runner serves the next request.
 * Skipped, loudly, where no interpreter imports torch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/catalog.h"
#include "harness/ingest.h"
#include "harness/torch_ref.h"
#include "tests/test.h"

#define FIXTURE "tests/data/torch/linear-relu/program.py"
#define BAD(name) "tests/data/torch/bad/" name ".py"

/* A started runner, or NULL after SKIP's message. */
static TorchRunner *runner_or_skip(TestCtx *t, double deadline)
{
    char py[512];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0) {
        test_skip(t, "%s", e.msg);
        return NULL;
    }
    TorchRunnerOptions o = torch_runner_default_options();
    o.deadline_s = deadline;
    TorchRunner *r = NULL;
    if (torch_runner_new(&o, 1, &r, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "runner: %s", e.msg);
        return NULL;
    }
    return r;
}

TEST(torch_frame_roundtrip)
{
    StrBuf s = STRBUF_INIT;
    const char *a = "abc", *b = "";
    unsigned char bin[5] = {0, 1, 0, 255, 7};
    const void *bufs[3] = {a, b, bin};
    uint64_t lens[3] = {3, 0, 5};
    torch_frame_encode(&s, "{\"op\":\"x\"}", bufs, lens, 3);
    torch_frame_encode(&s, "{}", NULL, NULL, 0);
    Error e;
    TorchFrame f;
    size_t used = 0;
    /* every proper prefix asks for more bytes */
    int partial_ok = 1;
    for (size_t n = 0; n < 16 + 10 + 3 * 8 + 8; n++)
        if (torch_frame_decode(s.data, n, &used, &f, &e) != 1)
            partial_ok = 0;
    CHECK(partial_ok);
    CHECK(torch_frame_decode(s.data, s.len, &used, &f, &e) == 0);
    CHECK(strcmp(f.header, "{\"op\":\"x\"}") == 0);
    CHECK(f.n == 3 && f.lens[0] == 3 && f.lens[1] == 0 && f.lens[2] == 5);
    CHECK(memcmp(f.bufs[0], "abc", 3) == 0 && memcmp(f.bufs[2], bin, 5) == 0);
    size_t first = used;
    torch_frame_release(&f);
    CHECK(torch_frame_decode(s.data + first, s.len - first, &used, &f, &e) == 0);
    CHECK(strcmp(f.header, "{}") == 0 && f.n == 0 && first + used == s.len);
    torch_frame_release(&f);
    s.data[0] = 'X';
    CHECK(torch_frame_decode(s.data, s.len, &used, &f, &e) == -1 && strstr(e.msg, "bad magic"));
    s.data[0] = 'C';
    s.data[4] = 9; /* version */
    CHECK(torch_frame_decode(s.data, s.len, &used, &f, &e) == -1 && strstr(e.msg, "version 9"));
    sb_release(&s);
    return 0;
}

TEST(torch_runner_describe_and_run)
{
    TorchRunner *r = runner_or_skip(t, 60);
    if (!r)
        return 0;
    Error e;
    int fault = 0;
    TorchDescription d;
    const char *names[] = {"B"};
    int64_t vals[] = {5};
    TorchProgram prog = {FIXTURE, NULL, NULL, names, vals, 1};
    CHECK_MSG(torch_ref_describe(r, &prog, 1, &d, &fault, &e) == 0, "%s", e.msg);
    CHECK(d.n_constants == 3 && strcmp(d.const_names[0], "B") == 0 && d.const_values[0] == 5 &&
          d.const_values[1] == 32 && d.const_values[2] == 16);
    CHECK(d.n_inputs == 1 && d.inputs[0].dtype == DT_F32 && d.inputs[0].ndim == 2 && d.inputs[0].shape[0] == 5 &&
          d.inputs[0].shape[1] == 32);
    CHECK(d.n_init == 2 && d.init[0].is_value && d.init[0].value == 32);
    CHECK(d.n_outputs == 1 && strcmp(d.outputs[0].name, "out") == 0 && d.outputs[0].shape[1] == 16);
    CHECK(d.n_state == 2 && strcmp(d.state[0].name, "w.linear.weight") == 0 && d.state[0].shape[0] == 16 &&
          strcmp(d.state[1].name, "w.linear.bias") == 0);
    torch_description_release(&d);

    /* run: out = relu(x W^T + b), recomputed here from the returned weights */
    const char *pn[] = {"B", "IN", "OUT"};
    int64_t pv[] = {3, 32, 16};
    TorchProgram prog3 = {FIXTURE, NULL, NULL, pn, pv, 3};
    float x[3 * 32];
    for (int i = 0; i < 3 * 32; i++)
        x[i] = (float)((i * 37) % 19) / 9.5f - 1.0f;
    TorchTensor in = {"x", DT_F32, 2, {3, 32}, 96, x, 0, 0};
    TorchRunResult res, res2;
    CHECK_MSG(torch_ref_run(r, &prog3, 7, "cpu", &in, 1, 1, &res, &fault, &e) == 0, "%s", e.msg);
    CHECK(res.n_outputs == 1 && res.n_state == 2 && res.outputs[0].count == 48);
    if (res.n_outputs == 1 && res.n_state == 2 && res.state[0].count == 512 && res.state[1].count == 16) {
        const float *w = res.state[0].data, *b = res.state[1].data, *out = res.outputs[0].data;
        double worst = 0;
        for (int i = 0; i < 3; i++)
            for (int o = 0; o < 16; o++) {
                double acc = b[o];
                for (int k = 0; k < 32; k++)
                    acc += (double)x[i * 32 + k] * w[o * 32 + k];
                worst = fmax(worst, fabs(fmax(acc, 0.0) - out[i * 16 + o]));
            }
        CHECK_MSG(worst < 1e-5, "max error %g", worst);
        /* weights depend on the seed and only on it */
        CHECK(torch_ref_run(r, &prog3, 7, "cpu", &in, 1, 1, &res2, &fault, &e) == 0);
        CHECK(res2.n_state == 2 && memcmp(res2.state[0].data, w, 512 * 4) == 0);
        torch_run_result_release(&res2);
        CHECK(torch_ref_run(r, &prog3, 8, "cpu", &in, 1, 1, &res2, &fault, &e) == 0);
        CHECK(res2.n_state == 2 && memcmp(res2.state[0].data, w, 512 * 4) != 0);
        torch_run_result_release(&res2);
    }
    torch_run_result_release(&res);
    /* an input of the wrong size is the program's error, not a crash */
    TorchTensor bad = {"x", DT_F32, 2, {3, 31}, 93, x, 0, 0};
    CHECK(torch_ref_run(r, &prog3, 7, "cpu", &bad, 1, 1, &res, &fault, &e) == -1 && fault &&
          strstr(e.msg, FIXTURE ": forward raised"));
    CHECK(torch_runner_restarts(r) == 0);
    torch_runner_free(r);
    return 0;
}

TEST(torch_runner_errors)
{
    TorchRunner *r = runner_or_skip(t, 4.0);
    if (!r)
        return 0;
    static const struct {
        const char *file, *want;
        int ok;
    } CASES[] = {
        {BAD("syntax_error"), BAD("syntax_error") ": syntax error at line 4", 0},
        {BAD("no_get_inputs"), BAD("no_get_inputs") ": has no get_inputs()", 0},
        {BAD("forward_raises"), BAD("forward_raises") ": forward raised ValueError: no forward for you (line 5)", 0},
        {BAD("two_outputs"), BAD("two_outputs") ": forward returned 2 outputs, meta.json declares 1", 0},
        {BAD("exits"), BAD("exits") ": the program called exit(3)", 0},
        {BAD("prints"), "", 1}, /* its prints go to stderr, the protocol survives */
        {"tests/data/torch/bad/missing.py", "cannot open 'tests/data/torch/bad/missing.py'", 0},
        {BAD("sleeps"), BAD("sleeps") ": timed out after 4.0 s", 0},
        {BAD("prints"), "", 1}, /* a fresh runner after the timeout */
        {BAD("dies"), BAD("dies") ": the torch runner died (exit code 7)", 0},
        {BAD("prints"), "", 1}, /* and after a death */
    };
    float x[4] = {1, 2, 3, 4};
    TorchTensor in = {"x", DT_F32, 1, {4}, 4, x, 0, 0};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        TorchProgram prog = {CASES[i].file, NULL, NULL, NULL, NULL, 0};
        TorchRunResult res;
        Error e;
        int fault = 0;
        int rc = torch_ref_run(r, &prog, 1, "cpu", &in, 1, 1, &res, &fault, &e);
        if (CASES[i].ok) {
            CHECK_MSG(rc == 0, "%s: %s", CASES[i].file, e.msg);
            CHECK(rc != 0 || (res.n_outputs == 1 && ((float *)res.outputs[0].data)[3] == 8.0f));
            torch_run_result_release(&res);
        } else {
            CHECK_MSG(rc == -1 && fault && strstr(e.msg, CASES[i].want) == e.msg && !strchr(e.msg, '\n'),
                      "%s: got '%s'", CASES[i].file, rc == 0 ? "success" : e.msg);
        }
    }
    CHECK_MSG(torch_runner_restarts(r) == 2, "restarts %d", torch_runner_restarts(r));
    torch_runner_free(r);
    return 0;
}

TEST(torch_find_python_env)
{
    char py[512];
    Error e;
    const char *old = getenv("CUDAPERF_PYTHON");
    char *keep = old ? xstrdup(old) : NULL;
    setenv("CUDAPERF_PYTHON", "/nonexistent/python3", 1);
    CHECK(torch_ref_find_python(py, sizeof py, &e) == -1 && strstr(e.msg, "CUDAPERF_PYTHON='/nonexistent/python3'"));
    if (keep)
        setenv("CUDAPERF_PYTHON", keep, 1);
    else
        unsetenv("CUDAPERF_PYTHON");
    free(keep);
    return 0;
}

static char *rejection_of(Catalog *c, const char *name)
{
    sqlite3_stmt *st = NULL;
    char *out = NULL;
    sqlite3_prepare_v2(catalog_db(c), "SELECT verdict || ': ' || reason FROM rejections WHERE name = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        out = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

/* Ingest takes torch programs through the same checks as C ones: the
 * degenerate filter, failures with the file named, splits. */
TEST(torch_ingest_fixtures)
{
    char py[512];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0)
        SKIP("%s", e.msg);
    char *db = xasprintf("%s/catalog.db", t->tmpdir), *cache = xasprintf("%s/cache", t->tmpdir);
    Catalog *c = NULL;
    CHECK(catalog_open(db, 1, &c, &e) == 0);
    if (!c)
        return -1;
    IngestOptions opt = {2, 42, cache, "contributed", 1, 0, 20.0};
    IngestSummary s;
    char *roots[] = {"tests/data/torch/ingest", "tests/data/torch/linear-relu"};
    CHECK_MSG(ingest_paths(c, roots, 2, &opt, &s, &e) == 0, "%s", e.msg);
    CHECK_MSG(s.found == 8 && s.added == 2 && s.degenerate == 2 && s.failed == 4 && s.not_checked == 0,
              "found %d added %d degenerate %d failed %d not checked %d", s.found, s.added, s.degenerate, s.failed,
              s.not_checked);
    static const struct {
        const char *name, *want;
    } EXPECT[] = {
        {"torch/fixtures/degenerate-zero", "degenerate: every output is constant"},
        {"torch/fixtures/degenerate-independent", "degenerate: outputs do not depend on the inputs"},
        {"torch/fixtures/raises", "failed: tests/data/torch/ingest/raises/program.py: config small: forward raised "
                                  "RuntimeError: shape '[3, -1]' is invalid"},
        {"torch/fixtures/wrong-shape", "failed: tests/data/torch/ingest/wrong-shape/program.py: config small: the "
                                       "program's 'out' is f32[128], meta.json declares f32[64]"},
        {"torch/fixtures/nan-output", "failed: config small: output 'out' has 64 non-finite elements"},
        {"torch/fixtures/missing-weight", "failed: tests/data/torch/ingest/missing-weight/program.py: meta.json's "
                                          "'w.fc.weight' is not in the model's state_dict (it has: w.linear.weight, "
                                          "w.linear.bias)"},
    };
    for (size_t i = 0; i < sizeof EXPECT / sizeof *EXPECT; i++) {
        char *r = rejection_of(c, EXPECT[i].name);
        CHECK_MSG(r && strstr(r, EXPECT[i].want), "%s: got '%s'", EXPECT[i].name, r ? r : "(no rejection)");
        free(r);
    }
    /* the accepted ones have a split like any program; a rerun is a no-op */
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(catalog_db(c), "SELECT count(*) FROM programs WHERE lang = 'torch' AND split IS NOT NULL",
                       -1, &st, NULL);
    CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 2);
    sqlite3_finalize(st);
    CHECK(ingest_paths(c, roots, 2, &opt, &s, &e) == 0 && s.unchanged == 8 && s.added == 0);
    catalog_close(c);
    free(db);
    free(cache);
    return 0;
}

/* End to end: the Linear+ReLU program ingested; its hand-written CUDA
 * candidate, which reads w.linear.weight and w.linear.bias, passes under
 * `harness eval --backend cpu` (inputs from the harness, weights from the
 * runner); one that forgets the bias is wrong_result; `harness run
 * --backend cpu` stores a pass for the program's reference kernel. */
TEST(torch_eval_cpu_backend)
{
    char py[512];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0)
        SKIP("%s", e.msg);
    if (access("bin/harness", X_OK) != 0)
        SKIP("bin/harness missing: run `make` first");
    char *out = NULL;
    const char *d = t->tmpdir;
    int st = test_sh(&out, "bin/harness --catalog %s/c.db ingest --quiet tests/data/torch/linear-relu", d);
    CHECK_MSG(st == 0 && strstr(out, "1 added"), "ingest: %s", out);
    free(out);
    st = test_sh(&out, "bin/harness --catalog %s/c.db eval --backend cpu --json torch/fixtures/linear-relu "
                       "tests/data/torch/linear-relu/kernel.cu tests/data/torch/linear-relu/launch.json 2>&1",
                 d);
    CHECK_MSG(st == 0 && strstr(out, "\"pass\"") && !strstr(out, "wrong_result") && !strstr(out, "reference_error"),
              "eval: %s", out);
    free(out);
    st = test_sh(&out, "bin/harness --catalog %s/c.db eval --backend cpu --json --configs small "
                       "torch/fixtures/linear-relu tests/data/torch/linear-relu-wrong/kernel.cu "
                       "tests/data/torch/linear-relu-wrong/launch.json 2>&1",
                 d);
    CHECK_MSG(st == 1 && strstr(out, "\"wrong_result\"") && strstr(out, "outside tolerance"), "eval: %s", out);
    free(out);
    st = test_sh(&out, "bin/harness --catalog %s/c.db run --backend cpu --trials 1 --quiet 2>&1 && "
                       "bin/harness --catalog %s/c.db results 1 2>&1",
                 d, d);
    CHECK_MSG(st == 0 && strstr(out, "linear-relu") && strstr(out, "pass") && !strstr(out, "reference_error"),
              "run: %s", out);
    free(out);
    return 0;
}

/* On a GPU: the runner times torch eager (and torch.compile where torch
 * has it) under the timing protocol, and a `run` on cuda gives the CPU's
 * weights.  Skips loudly without torch or without a GPU torch can see. */
TEST(torch_runner_time_gpu)
{
    char py[512];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0)
        SKIP("%s", e.msg);
    TorchRunnerOptions o = torch_runner_default_options();
    o.cuda = 1;
    TorchRunner *r = NULL;
    if (torch_runner_new(&o, 1, &r, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "runner: %s", e.msg);
        return 0;
    }
    if (!torch_runner_has_cuda(r)) {
        char version[64], note[400];
        snprintf(version, sizeof version, "%s", torch_runner_torch_version(r));
        snprintf(note, sizeof note, "%s", torch_runner_cuda_note(r));
        torch_runner_free(r);
        /* with a GPU present, a runner that cannot see it is a failure, not a skip */
        CHECK_MSG(access("/dev/nvidia0", F_OK) != 0, "a GPU is here (/dev/nvidia0) but the runner's torch %s sees none: %s",
                  version, note);
        SKIP("torch %s (%s) sees no GPU: the timing request needs one (%s)", version, py, note);
    }
    const char *pn[] = {"B", "IN", "OUT"};
    int64_t pv[] = {256, 1024, 1024};
    TorchProgram prog = {FIXTURE, NULL, NULL, pn, pv, 3};
    float *x = xmalloc(256 * 1024 * sizeof *x);
    for (int i = 0; i < 256 * 1024; i++)
        x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    TorchTensor in = {"x", DT_F32, 2, {256, 1024}, 256 * 1024, x, 0, 0};
    int fault = 0;
    TorchRunResult cpu, gpu;
    CHECK_MSG(torch_ref_run(r, &prog, 3, "cpu", &in, 1, 1, &cpu, &fault, &e) == 0, "%s", e.msg);
    CHECK_MSG(torch_ref_run(r, &prog, 3, "cuda", &in, 1, 1, &gpu, &fault, &e) == 0, "%s", e.msg);
    if (cpu.n_state == 2 && gpu.n_state == 2 && cpu.n_outputs == 1 && gpu.n_outputs == 1) {
        CHECK(memcmp(cpu.state[0].data, gpu.state[0].data, 1024 * 1024 * 4) == 0); /* weights made on the CPU */
        double worst = 0;
        const float *a = cpu.outputs[0].data, *b = gpu.outputs[0].data;
        for (int64_t i = 0; i < cpu.outputs[0].count; i++)
            worst = fmax(worst, fabs((double)a[i] - b[i]));
        CHECK_MSG(worst < 1e-3, "cpu vs cuda max abs difference %g (TF32 left on?)", worst);
    }
    torch_run_result_release(&cpu);
    torch_run_result_release(&gpu);
    TorchTimingParams tp = torch_timing_default_params();
    TorchTimeResult tr;
    CHECK_MSG(torch_ref_time(r, &prog, 3, &in, 1, &tp, &tr, &fault, &e) == 0, "%s", e.msg);
    printf("    torch eager on %s: median %.4f ms, IQR %.4f ms, min %.4f ms, %d samples, spread %.4f\n", tr.device,
           tr.eager.median_ms, tr.eager.iqr_ms, tr.eager.min_ms, tr.eager.count, tr.eager.spread);
    if (tr.compile_error[0])
        printf("    torch.compile not timed: %s\n", tr.compile_error);
    else
        printf("    torch.compile: median %.4f ms, IQR %.4f ms, %d samples (max |compiled - eager| %g)\n",
               tr.compiled.median_ms, tr.compiled.iqr_ms, tr.compiled.count, tr.compile_max_abs_diff);
    if (tr.note[0])
        printf("    note: %s\n", tr.note);
    CHECK(tr.eager.count >= 10 && tr.eager.median_ms > 0 && tr.eager.min_ms <= tr.eager.median_ms);
    CHECK(tr.eager.spread <= 0.01 || strstr(tr.note, "budget"));
    CHECK(tr.compile_error[0] || (tr.compiled.count >= 10 && tr.compile_max_abs_diff < 1e-2));
    free(x);
    torch_runner_free(r);
    return 0;
}

/* Generated PyTorch programs (one family per level, with parameters, a
 * batch norm's buffers and an architecture) go through ingest: every one
 * runs in the runner, none fails, the w.* buffers match their state_dicts. */
TEST(torch_ingest_generated)
{
    char py[512];
    Error e;
    if (torch_ref_find_python(py, sizeof py, &e) != 0)
        SKIP("%s", e.msg);
    if (access("bin/harness", X_OK) != 0 || access("bin/cudaperf-gen", X_OK) != 0)
        SKIP("bin/harness or bin/cudaperf-gen missing: run `make` first");
    char *out = NULL;
    const char *d = t->tmpdir;
    int st = test_sh(&out,
                     "bin/cudaperf-gen --out %s/gen --family torch_l1_conv2d --family "
                     "torch_l2_conv2d_batchnorm_relu_maxpool --family torch_l3_mlp_block >/dev/null && "
                     "bin/harness --catalog %s/c.db ingest --quiet --jobs 2 %s/gen 2>&1",
                     d, d, d);
    CHECK_MSG(st == 0 && strstr(out, "27 found") && strstr(out, " 0 failed, 0 invalid") && !strstr(out, "not checked"),
              "ingest: %s", out);
    free(out);
    return 0;
}
