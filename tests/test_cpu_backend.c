/* The CPU backend: translation and refusals (cpu_compile.h), and
 * eval_candidate() with --backend cpu end to end on the candidates of
 * tests/data/kernels: those of expected.txt must get the verdicts the GPU
 * gets, those of cpu_expected.txt exercise barriers, shared memory, warp
 * shuffles, atomics, __half and what the backend refuses.  No GPU needed;
 * the worker is `harness worker --backend cpu` next to the test runner. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/launch.h"
#include "common/strbuf.h"
#include "harness/cpu_compile.h"
#include "harness/eval.h"
#include "tests/test.h"

typedef struct Case {
    char dir[64], program[64], status[32], expect[256];
} Case;

/* Reads a case list: expected.txt (folder, verdict, fake mode, text; the
 * program is ok-axpy) or cpu_expected.txt (folder, program, verdict, text). */
static int load_cases(const char *path, int with_program, Case **out, int *n)
{
    char *text = NULL;
    Error e;
    if (file_read_all(path, 1 << 16, &text, NULL, &e) != 0)
        return -1;
    Case *cs = xcalloc(64, sizeof *cs);
    int k = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && k < 64; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0])
            continue;
        Case *c = &cs[k];
        char skip[32];
        int used = 0, ok;
        if (with_program)
            ok = sscanf(line, "%63s %63s %31s %n", c->dir, c->program, c->status, &used) == 3;
        else
            ok = sscanf(line, "%63s %31s %31s %n", c->dir, c->status, skip, &used) == 3;
        if (!ok)
            continue;
        if (!with_program)
            snprintf(c->program, sizeof c->program, "ok-axpy");
        snprintf(c->expect, sizeof c->expect, "%s", line + used);
        k++;
    }
    free(text);
    *out = cs;
    *n = k;
    return 0;
}

/* Evaluates one candidate on the CPU and checks its verdict and text. */
static void eval_case(TestCtx *t, const char *exe, const Case *c)
{
    Error e;
    char *meta = xasprintf("tests/data/programs/%s/meta.json", c->program);
    char *ref_path = xasprintf("tests/data/programs/%s/program.c", c->program);
    char *kpath = xasprintf("tests/data/kernels/%s/kernel.cu", c->dir);
    char *lpath = xasprintf("tests/data/kernels/%s/launch.json", c->dir);
    char *src = NULL, *ref = NULL;
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    if (problem_load(meta, &p, &e) != 0 || file_read_all(ref_path, 1 << 20, &ref, NULL, &e) != 0 ||
        file_read_all(kpath, 1 << 20, &src, NULL, &e) != 0 || launch_load(lpath, p, &lp, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", c->dir, e.msg);
        goto done;
    }
    const ProblemConfig *configs[8];
    int n_configs = 0;
    for (int k = 0; k < p->n_configs && n_configs < 8; k++)
        if (strcmp(p->configs[k].name, "large") != 0)
            configs[n_configs++] = &p->configs[k];
    EvalOptions o = eval_default_options();
    char *cr = xasprintf("%s/cref", t->tmpdir), *cc = xasprintf("%s/cpu", t->tmpdir);
    o.backend = BACKEND_CPU;
    o.cref_cache = cr;
    o.cpu_cache = cc;
    o.worker_exe = exe;
    o.trials = 2;
    o.deadline_s = 1.0;
    EvalReport r;
    int no_gpu = 0;
    int rc = eval_candidate(p, ref, src, lp, configs, n_configs, &o, &r, &no_gpu, &e);
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
        CHECK_MSG(strncmp(r.gpu.name, "CPU (", 5) == 0, "%s: device '%s'", c->dir, r.gpu.name);
        for (int k = 0; k < r.n_configs; k++) {
            CHECK_MSG(r.configs[k].timed_runs == 0, "%s: the CPU backend timed a run", c->dir);
            if (r.status == EVAL_PASS)
                CHECK_MSG(r.configs[k].trials == 2, "%s: %s: %d trials", c->dir, r.configs[k].config->name,
                          r.configs[k].trials);
        }
        /* every config of a crashing or hanging candidate gets a fresh worker */
        if (r.status == EVAL_TIMEOUT || (r.status == EVAL_RUNTIME_ERROR && !strstr(c->expect, "out of bounds")))
            CHECK_MSG(r.worker_restarts == r.n_configs, "%s: %d restarts for %d configs", c->dir, r.worker_restarts,
                      r.n_configs);
        sb_release(&all);
    }
    eval_report_release(&r);
    free(cr);
    free(cc);
done:
    launch_free(lp);
    problem_free(p);
    free(src);
    free(ref);
    free(meta);
    free(ref_path);
    free(kpath);
    free(lpath);
}

static int run_list(TestCtx *t, const char *path, int with_program, int min_cases)
{
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    Case *cs = NULL;
    int n = 0;
    if (load_cases(path, with_program, &cs, &n) != 0) {
        test_fail(t, __FILE__, __LINE__, "cannot read %s", path);
        free(exe);
        return -1;
    }
    CHECK_MSG(n >= min_cases, "%s: %d cases", path, n);
    for (int i = 0; i < n; i++)
        eval_case(t, exe, &cs[i]);
    free(cs);
    free(exe);
    return 0;
}

/* The GPU's fixtures get the GPU's verdicts. */
TEST(cpu_backend_gpu_fixtures)
{
    return run_list(t, "tests/data/kernels/expected.txt", 0, 10);
}

/* Barriers, shared memory, shuffles, atomics, half, refusals, divergence. */
TEST(cpu_backend_kernels)
{
    return run_list(t, "tests/data/kernels/cpu_expected.txt", 1, 10);
}

/* Each unsupported construct is refused with its name and line. */
TEST(cpu_backend_refusals)
{
    static const struct {
        const char *src, *want;
    } CASES[] = {
        {"extern \"C\" __global__ void k(float *y)\n{\n    asm(\"trap;\");\n}\n", "kernel.cu:3: inline PTX assembly (asm)"},
        {"#include <mma.h>\n", "kernel.cu:1: #include <mma.h>: tensor-core"},
        {"using namespace nvcuda;\n\n__global__ void k() { wmma::fragment<int> f; }\n",
         "kernel.cu:1: tensor-core matrix operations (nvcuda::wmma)"},
        {"#include <cooperative_groups.h>\n", "cooperative groups"},
        {"\n__global__ void k() { auto g = this_grid(); g.sync(); }\n", "kernel.cu:2: grid-wide synchronisation"},
        {"__global__ void __cluster_dims__(2, 1, 1) k() {}\n", "thread block clusters (__cluster_dims__)"},
        {"__global__ void k(cudaTextureObject_t t, float *y) { y[0] = tex1Dfetch<float>(t, 0); }\n",
         "kernel.cu:1: textures (cudaTextureObject_t)"},
        {"texture<float, 1> tex;\n", "textures (texture<...>)"},
        {"\n\n__global__ void k(cudaSurfaceObject_t s) {}\n", "kernel.cu:3: surfaces"},
        {"__global__ void c() {}\n__global__ void k() { c<<<1, 1>>>(); }\n", "kernel.cu:2: device-side kernel launches"},
        {"#include \"x.h\"\n", "angle-bracket"},
        {"#include <cub/cub.cuh>\n", "not available on the CPU backend"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        Error e;
        int rc = cpu_check_supported(CASES[i].src, &e);
        CHECK_MSG(rc != 0 && strstr(e.msg, CASES[i].want), "case %zu: rc %d, '%s' (want '%s')", i, rc,
                  rc ? e.msg : "", CASES[i].want);
    }
    /* mentions in comments and strings are not uses; allowed headers pass */
    Error e;
    const char *ok = "#include <cuda_fp16.h>\n#include <cstdint>\n// asm(\"x\"); tex2D wmma\n"
                     "__device__ const char *s = \"asm volatile this_grid\";\n"
                     "__global__ void k(float *texture_count) { texture_count[0] = 1; }\n";
    CHECK_MSG(cpu_check_supported(ok, &e) == 0, "%s", e.msg);
    return 0;
}

/* The translation: kernels found by linkage, dynamic shared memory
 * rewritten at file and block scope, line numbers kept. */
TEST(cpu_backend_translate)
{
    const char *src = "extern __shared__ float g_s[];\n"
                      "extern \"C\" {\n"
                      "__global__ void a(float *y) { y[0] = g_s[0]; }\n"
                      "}\n"
                      "namespace ns { extern \"C\" __global__ __launch_bounds__(256) void b(int n) {\n"
                      "    extern __shared__ __align__(16) unsigned char raw[];\n"
                      "} }\n"
                      "__global__ void cxx(int n) {}\n"
                      "template <int B> __global__ void t(int n) {}\n"
                      "extern \"C\" __global__ void decl(int n);\n"
                      "extern \"C\" void __global__ c(const float *__restrict__ x, int n) {}\n";
    char *out = NULL;
    int n = 0;
    Error e;
    CHECK(cpu_translate(src, &out, &n, &e) == 0);
    CHECK_MSG(n == 3, "%d kernels:\n%s", n, out);
    CHECK(out && strstr(out, "#line 1 \"kernel.cu\"\n"));
    CHECK(out && strstr(out, "static thread_local float *const g_s = reinterpret_cast<float *>(__cp_dyn_smem());"));
    CHECK(out && strstr(out, "    unsigned char *const raw = reinterpret_cast<unsigned char *>(__cp_dyn_smem());"));
    CHECK(out && strstr(out, "cudaperf_cpu_launch_a(") && strstr(out, "__cp_enter(&ns::b,") &&
          strstr(out, "cudaperf_cpu_launch_c(") && !strstr(out, "launch_cxx") && !strstr(out, "launch_t(") &&
          !strstr(out, "launch_decl"));
    /* line 11 of kernel.cu is still line 11 */
    const char *body = out ? strstr(out, "#line 1 \"kernel.cu\"\n") : NULL;
    const char *c_def = "extern \"C\" void __global__ c(";
    int line = 1;
    for (const char *q = body ? body + strlen("#line 1 \"kernel.cu\"\n") : ""; *q && strncmp(q, c_def, strlen(c_def));
         q++)
        line += *q == '\n';
    CHECK_MSG(line == 11, "kernel c on line %d", line);
    free(out);
    return 0;
}

/* A compiler error points into kernel.cu at the candidate's own line. */
TEST(cpu_backend_compile_log)
{
    CpuCompileResult r;
    Error e;
    char *cache = xasprintf("%s/cpu", t->tmpdir);
    const char *src = "// line 1\n\nextern \"C\" __global__ void k(float *y)\n{\n    y[0] = nope;\n}\n";
    CHECK(cpu_compile(src, cache, &r, &e) != 0);
    CHECK_MSG(r.compile_error && r.log && strstr(r.log, "kernel.cu:5:") && strstr(r.log, "nope") &&
                  !strstr(r.log, "/tmp/"),
              "%s", r.log ? r.log : e.msg);
    cpu_compile_result_release(&r);
    /* a good one compiles, then comes from the cache */
    const char *good = "#include <cuda_bf16.h>\nextern \"C\" __global__ void k(__nv_bfloat16 *y) { y[0] = "
                       "__float2bfloat16(__bfloat162float(y[0]) * 2.0f); }\n";
    CHECK_MSG(cpu_compile(good, cache, &r, &e) == 0 && r.so && !r.cached, "%s", e.msg);
    cpu_compile_result_release(&r);
    CHECK_MSG(cpu_compile(good, cache, &r, &e) == 0 && r.so && r.cached, "%s", e.msg);
    cpu_compile_result_release(&r);
    free(cache);
    return 0;
}
