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
    int racecheck; /* evaluated with --racecheck */
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

/* Evaluates kernel source src under launch plan text plan against
 * tests/data/programs/<program> on the CPU, on every config but large.
 * Returns 0 with the report in *r and its problem in *pp (the report points
 * at its configs; the caller releases both), or -1 with the failure
 * recorded (what names the case). */
static int eval_on_cpu(TestCtx *t, const char *exe, const char *what, const char *program, const char *src,
                       const char *plan, int racecheck, EvalReport *r, Problem **pp)
{
    Error e;
    int rc = -1;
    char *meta = xasprintf("tests/data/programs/%s/meta.json", program);
    char *ref_path = xasprintf("tests/data/programs/%s/program.c", program);
    char *ref = NULL, *cr = NULL, *cc = NULL;
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    memset(r, 0, sizeof *r);
    *pp = NULL;
    if (problem_load(meta, &p, &e) != 0 || file_read_all(ref_path, 1 << 20, &ref, NULL, &e) != 0 ||
        launch_parse(plan, "launch.json", p, &lp, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", what, e.msg);
        goto done;
    }
    const ProblemConfig *configs[8];
    int n_configs = 0;
    for (int k = 0; k < p->n_configs && n_configs < 8; k++)
        if (strcmp(p->configs[k].name, "large") != 0)
            configs[n_configs++] = &p->configs[k];
    EvalOptions o = eval_default_options();
    cr = xasprintf("%s/cref", t->tmpdir);
    cc = xasprintf("%s/cpu", t->tmpdir);
    o.backend = BACKEND_CPU;
    o.cref_cache = cr;
    o.cpu_cache = cc;
    o.worker_exe = exe;
    o.trials = 2;
    o.deadline_s = 1.0;
    char race[64];
    if (racecheck && eval_use_racecheck(&o, race, sizeof race, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: --racecheck: %s", what, e.msg);
        goto done;
    }
    int no_gpu = 0;
    rc = eval_candidate(p, ref, src, lp, configs, n_configs, &o, r, &no_gpu, &e);
    CHECK_MSG(rc == 0, "%s: eval failed: %s", what, e.msg);
done:
    if (rc == 0) {
        *pp = p;
    } else {
        eval_report_release(r);
        problem_free(p);
    }
    launch_free(lp);
    free(ref);
    free(meta);
    free(ref_path);
    free(cr);
    free(cc);
    return rc == 0 ? 0 : -1;
}

/* Every config's verdict and message, and the compile log, as one text
 * (malloc()ed). */
static char *report_text(const EvalReport *r)
{
    StrBuf all = STRBUF_INIT;
    sb_append(&all, r->compile_log ? r->compile_log : "");
    for (int k = 0; k < r->n_configs; k++)
        sb_printf(&all, "\n%s: %s %s", r->configs[k].config->name, eval_status_name(r->configs[k].status),
                  r->configs[k].message);
    return sb_steal(&all);
}

/* Evaluates one candidate on the CPU and checks its verdict and text. */
static void eval_case(TestCtx *t, const char *exe, const Case *c)
{
    Error e;
    char *kpath = xasprintf("tests/data/kernels/%s/kernel.cu", c->dir);
    char *lpath = xasprintf("tests/data/kernels/%s/launch.json", c->dir);
    char *src = NULL, *plan = NULL, *all = NULL;
    Problem *p = NULL;
    EvalReport r;
    if (file_read_all(kpath, 1 << 20, &src, NULL, &e) != 0 || file_read_all(lpath, 1 << 20, &plan, NULL, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", c->dir, e.msg);
        goto done;
    }
    if (eval_on_cpu(t, exe, c->dir, c->program, src, plan, c->racecheck, &r, &p) != 0)
        goto done;
    all = report_text(&r);
    CHECK_MSG(strcmp(eval_status_name(r.status), c->status) == 0, "%s: verdict %s, expected %s:%s", c->dir,
              eval_status_name(r.status), c->status, all);
    if (strcmp(c->expect, "-") != 0)
        CHECK_MSG(strstr(all, c->expect) != NULL, "%s: '%s' not in:%s", c->dir, c->expect, all);
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
    eval_report_release(&r);
    problem_free(p);
done:
    free(all);
    free(src);
    free(plan);
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

/* --racecheck on the CPU backend (cpu_racecheck.h): a hazard whose output
 * is right fails with the hazard named, one whose output is wrong says
 * both, and kernels whose barriers are all there (static and dynamic shared
 * memory, shuffles, atomics on shared memory) pass as they do without it.
 * Without --racecheck the benign race passes. */
TEST(cpu_backend_racecheck)
{
    static const Case CASES[] = {
        {"cpu-race-benign", "sum-f32", "pass", "-", 0},
        {"cpu-race-benign", "sum-f32", "wrong_result",
         "shared-memory race (CPU backend racecheck: ", 1},
        {"cpu-race-benign", "sum-f32", "wrong_result",
         "write-after-read hazard: thread (0,0,0) of block (", 1},
        {"cpu-race-benign", "sum-f32", "wrong_result", "byte 0 of dynamic shared memory, which thread (", 1},
        {"cpu-missing-sync", "sum-f32", "wrong_result",
         "outside tolerance (atol 0.001, rtol 0.0001); first at index 0", 1},
        /* thread 0 runs first and reads what the others have yet to write */
        {"cpu-missing-sync", "sum-f32", "wrong_result", "write-after-read hazard: thread (37,0,0) of block (", 1},
        {"cpu-missing-sync", "sum-f32", "wrong_result", "of static shared memory, which thread (0,0,0)", 1},
        {"cpu-reduce-block", "sum-f32", "pass", "-", 1},
        {"cpu-reduce-dynamic-smem", "sum-f32", "pass", "-", 1},
        {"cpu-reduce-shuffle", "sum-f32", "pass", "-", 1},
        {"cpu-atomic-add", "sum-f32", "pass", "-", 1},
        {"cpu-transpose-tiled", "transpose-f32", "pass", "-", 1},
    };
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
        eval_case(t, exe, &CASES[i]);
    free(exe);
    return 0;
}

/* A kernel for the ok-axpy fixture and what the CPU backend must say of it:
 * the verdict, and what each config's message must hold, every %lld
 * standing for the buffer's size (4 n bytes); NULL for a pass. */
typedef struct BoundsCase {
    const char *what, *src, *status, *want;
} BoundsCase;

/* Evaluates each case under launch plan `plan` on ok-axpy's three configs
 * but large and checks its verdicts and messages. */
static void check_bounds_cases(TestCtx *t, const char *exe, const char *plan, const BoundsCase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        EvalReport r;
        Problem *p = NULL;
        if (eval_on_cpu(t, exe, cases[i].what, "ok-axpy", cases[i].src, plan, 0, &r, &p) != 0)
            continue;
        char *all = report_text(&r);
        CHECK_MSG(strcmp(eval_status_name(r.status), cases[i].status) == 0, "%s: verdict %s, expected %s:%s",
                  cases[i].what, eval_status_name(r.status), cases[i].status, all);
        CHECK_MSG(r.n_configs == 3, "%s: %d configs", cases[i].what, r.n_configs);
        for (int k = 0; k < r.n_configs; k++) {
            const EvalConfig *ec = &r.configs[k];
            long long bytes = 4 * ec->config->params[0];
            char want[512];
            snprintf(want, sizeof want, cases[i].want ? cases[i].want : "", bytes, bytes);
            CHECK_MSG(strcmp(eval_status_name(ec->status), cases[i].status) == 0 && strstr(ec->message, want),
                      "%s: %s: %s '%s', expected %s '%s'", cases[i].what, ec->config->name,
                      eval_status_name(ec->status), ec->message, cases[i].status, want);
        }
        free(all);
        eval_report_release(&r);
        problem_free(p);
    }
}

/* Out-of-bounds accesses get the GPU worker's verdicts and messages: a
 * write into a guard zone is reported by the shared guard check, an access
 * beyond it faults in the buffer's PROT_NONE zone and the crash answer
 * names the buffer; a correct kernel on the same buffers still passes.
 * ok-axpy: x (in, buffer 0) and y (inout, buffer 1) of n floats, n = 1000,
 * 1 and 97 on the configs run here. */
TEST(cpu_backend_out_of_bounds)
{
    static const char *PLAN =
        "{ \"launches\": [ {\"kernel\": \"axpy\", \"grid\": [\"(n+255)/256\"], \"block\": [256], "
        "\"args\": [\"x\", \"y\", \"a\", \"n\"]} ] }";
#define AXPY_BODY                                                                                                      \
    "extern \"C\" __global__ void axpy(const float *x, float *y, float a, int n)\n"                                      \
    "{\n"                                                                                                               \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                                              \
    "    if (i < n)\n"                                                                                                  \
    "        y[i] = a * x[i] + y[i];\n"
/* the page fault's error code tells reads from writes on x86-64 only */
#if defined(__x86_64__)
#define READ "read"
#define WROTE "wrote"
#else
#define READ "accessed"
#define WROTE "accessed"
#endif
    static const BoundsCase CASES[] = {
        {"one element past the end of y", AXPY_BODY "    if (i == 0)\n        y[n] = 1.0f;\n}\n", "runtime_error",
         "wrote out of bounds: 'y' has %lld bytes, the kernel wrote byte %lld (0 past the end)"},
        {"one element before the start of y", AXPY_BODY "    if (i == 0)\n        y[-1] = 1.0f;\n}\n",
         "runtime_error", "wrote out of bounds: 1 bytes before the start of 'y'"}, /* 1.0f's top byte, as on a GPU */
        {"a read 512 KiB past the end of x",
         AXPY_BODY "    if (i == 0)\n        y[0] += x[(size_t)n + 131072];\n}\n", "runtime_error",
         "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS on a GPU): buffer 0 (parameter 0 of axpy) has %lld bytes, "
         "the kernel " READ " byte "},
        /* past the guard zone: no mapped slack between it and the PROT_NONE zone */
        {"a write 4400 bytes past the end of y", AXPY_BODY "    if (i == 0)\n        y[n + 1100] = 1.0f;\n}\n",
         "runtime_error",
         "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS on a GPU): buffer 1 (parameter 1 of axpy) has %lld bytes, "
         "the kernel " WROTE " byte "},
        {"a write 8 KiB before the start of x",
         AXPY_BODY "    if (i == 0)\n        ((float *)x)[-2048] = 1.0f;\n}\n", "runtime_error",
         "buffer 0 (parameter 0 of axpy) has %lld bytes, the kernel " WROTE " byte -8192 (8192 before the start)"},
        /* reads past the end that decide something: neighbouring guard words
         * differ (guard_zone_pattern), as row_ptr[n] and row_ptr[n + 1] of a
         * CSR walk must for the segment between them to be walked */
        {"two neighbours read past the end of x, compared",
         AXPY_BODY "    if (i == 0)\n        y[0] += x[n + 1] != x[n + 2] ? 1.0f : 0.0f;\n}\n", "wrong_result",
         "outside tolerance"},
        {"a loop bounded by words read past the end of x",
         AXPY_BODY "    if (i == 0)\n        for (int k = __float_as_int(x[n]); k < __float_as_int(x[n + 1]); k++)\n"
                   "            y[k % n] += 1.0f;\n}\n",
         "wrong_result", "outside tolerance"},
        {"the correct kernel", AXPY_BODY "}\n", "pass", NULL},
    };
#undef AXPY_BODY
#undef READ
#undef WROTE
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    check_bounds_cases(t, exe, PLAN, CASES, sizeof CASES / sizeof *CASES);
    free(exe);
    return 0;
}

/* Dynamic shared memory ends where the launch's smem bytes end, as the
 * block's shared window does on a GPU: reading one element past it faults
 * (a GPU says CUDA_ERROR_ILLEGAL_ADDRESS), and the message says it was
 * shared memory; the same kernel reading inside it passes. */
TEST(cpu_backend_shared_memory_bounds)
{
    static const char *PLAN =
        "{ \"launches\": [ {\"kernel\": \"axpy\", \"grid\": [\"(n+255)/256\"], \"block\": [256], \"smem\": \"1024\", "
        "\"args\": [\"x\", \"y\", \"a\", \"n\"]} ] }";
#define SMEM_AXPY(OFFSET)                                                                                              \
    "extern \"C\" __global__ void axpy(const float *x, float *y, float a, int n)\n"                                      \
    "{\n"                                                                                                               \
    "    extern __shared__ float sh[];\n"                                                                               \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                                              \
    "    sh[threadIdx.x] = i < n ? x[i] : 0.0f;\n"                                                                      \
    "    __syncthreads();\n"                                                                                            \
    "    float v = sh[threadIdx.x + " OFFSET "];\n"                                                                     \
    "    if (i < n)\n"                                                                                                  \
    "        y[i] = a * v + y[i];\n"                                                                                    \
    "    else if (v == 12345.0f) /* every thread reads */\n"                                                          \
    "        y[0] = 0.0f;\n"                                                                                            \
    "}\n"
    static const BoundsCase CASES[] = {
        {"inside the 1024 bytes", SMEM_AXPY("0"), "pass", NULL},
        {"one float past them", SMEM_AXPY("1"), "runtime_error",
         "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS on a GPU): signal 11 (Segmentation fault) at address "},
        /* the same, its end: which block faults first depends on the CPU worker's threads */
        {"one float past them (where)", SMEM_AXPY("1"), "runtime_error",
         "shared memory, byte 0 past the end of the block's 1024 bytes of dynamic shared memory in block ("},
    };
#undef SMEM_AXPY
    char *exe = test_harness_exe();
    if (!exe)
        SKIP("the harness binary is not next to the test runner (build both with make)");
    check_bounds_cases(t, exe, PLAN, CASES, sizeof CASES / sizeof *CASES);
    free(exe);
    return 0;
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
    CHECK(cpu_compile(src, cache, 0, &r, &e) != 0);
    CHECK_MSG(r.compile_error && r.log && strstr(r.log, "kernel.cu:5:") && strstr(r.log, "nope") &&
                  !strstr(r.log, "/tmp/"),
              "%s", r.log ? r.log : e.msg);
    cpu_compile_result_release(&r);
    /* a good one compiles, then comes from the cache */
    const char *good = "#include <cuda_bf16.h>\nextern \"C\" __global__ void k(__nv_bfloat16 *y) { y[0] = "
                       "__float2bfloat16(__bfloat162float(y[0]) * 2.0f); }\n";
    CHECK_MSG(cpu_compile(good, cache, 0, &r, &e) == 0 && r.so && !r.cached, "%s", e.msg);
    cpu_compile_result_release(&r);
    CHECK_MSG(cpu_compile(good, cache, 0, &r, &e) == 0 && r.so && r.cached, "%s", e.msg);
    cpu_compile_result_release(&r);
    free(cache);
    return 0;
}
