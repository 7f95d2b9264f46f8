/* test_structure.c — the static structural report (harness/structure,
 * harness/structure_source): occupancy against hand-computed sm_90 cases,
 * the source analysis on hand-written kernels whose expectations sit in
 * their own comments (tests/data/structure/kernels/NAME.cu), ptxas's facts
 * from real NVRTC compiles, no report for a kernel that does not compile,
 * the JSON report, and the validation over generated programs: the
 * coalescing score orders each reference above its uncoalesced variant. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "generators/gen.h"
#include "harness/nvrtc.h"
#include "harness/structure.h"
#include "tests/test.h"

#define DATA "tests/data/structure"

/* ---- occupancy ---- */

TEST(structure_occupancy_cases)
{
    char *text = NULL;
    Error e;
    if (file_read_all(DATA "/occupancy.txt", 1 << 20, &text, NULL, &e) != 0)
        SKIP("%s", e.msg);
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        int threads, regs, bars, blocks;
        long long ss, sd;
        double occ;
        char limited[64] = "";
        int k = 0;
        if (sscanf(line, "%d %d %lld %lld %d -> %d %lf %n", &threads, &regs, &ss, &sd, &bars, &blocks, &occ, &k) < 7) {
            CHECK_MSG(0, "occupancy.txt: cannot read '%s'", line);
            continue;
        }
        /* the limiting resource: words up to a comment, e.g. "shared memory" */
        const char *l = line + k;
        const char *hash = strchr(l, '#');
        size_t len = hash ? (size_t)(hash - l) : strlen(l);
        while (len && (l[len - 1] == ' ' || l[len - 1] == '\t'))
            len--;
        snprintf(limited, sizeof limited, "%.*s", (int)len, l);
        StructureOccupancy o;
        structure_occupancy(threads, regs, ss, sd, bars, &o);
        CHECK_MSG(o.blocks_per_sm == blocks && fabs(o.occupancy - occ) < 1e-3 && strcmp(o.limited_by, limited) == 0,
                  "%d threads, %d regs, %lld+%lld B, %d barriers: got %d blocks, %.3f, '%s'; want %d, %.3f, '%s'",
                  threads, regs, ss, sd, bars, o.blocks_per_sm, o.occupancy, o.limited_by, blocks, occ, limited);
        n++;
    }
    CHECK(n >= 15);
    free(text);
    return 0;
}

/* ---- source analysis: expectations written in the kernels' comments ---- */

typedef struct Expect {
    int line;
    char kind[16], param[64], cls[16];
    long long stride; /* 0: not checked */
    int used;
} Expect;

/* The "// bind NAME:" line of kernel name: its launch values. */
static void read_binding(const char *src, const SrcKernel *k, long long *vals, SrcBinding *b)
{
    memset(b, 0, sizeof *b);
    for (int i = 0; i < k->n_params; i++)
        vals[i] = SRC_UNKNOWN;
    b->param = vals;
    b->n_param = k->n_params;
    char tag[160];
    snprintf(tag, sizeof tag, "// bind %s:", k->name);
    const char *at = strstr(src, tag);
    if (!at)
        return;
    char line[512];
    const char *end = strchr(at, '\n');
    snprintf(line, sizeof line, "%.*s", (int)(end ? end - at : (long)strlen(at)), at + strlen(tag));
    for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char key[64];
        long long x = 0, y = 1, z = 1;
        if (sscanf(tok, "%63[^=]=%lld,%lld,%lld", key, &x, &y, &z) < 2)
            continue;
        long long *d = strcmp(key, "grid") == 0 ? b->grid : strcmp(key, "block") == 0 ? b->block : NULL;
        if (d) {
            d[0] = x;
            d[1] = y;
            d[2] = z;
            continue;
        }
        for (int i = 0; i < k->n_params; i++)
            if (strcmp(k->param_names[i], key) == 0)
                vals[i] = x;
    }
}

/* The "// expect:" items of every line of src. */
static int read_expects(const char *src, Expect **out, int **div_lines, int *n_div, int **early_lines, int *n_early)
{
    int n = 0, line = 1;
    *out = NULL;
    *div_lines = *early_lines = NULL;
    *n_div = *n_early = 0;
    for (const char *p = src; *p; line++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), p);
        char *ex = strstr(buf, "// expect:");
        if (ex) {
            for (char *save = NULL, *item = strtok_r(ex + 10, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
                while (*item == ' ')
                    item++;
                if (strncmp(item, "divergent-barrier", 17) == 0) {
                    *div_lines = xrealloc(*div_lines, sizeof **div_lines * (size_t)(*n_div + 1));
                    (*div_lines)[(*n_div)++] = line;
                } else if (strncmp(item, "early-exit-barrier", 18) == 0) {
                    *early_lines = xrealloc(*early_lines, sizeof **early_lines * (size_t)(*n_early + 1));
                    (*early_lines)[(*n_early)++] = line;
                } else {
                    Expect x;
                    memset(&x, 0, sizeof x);
                    x.line = line;
                    char stride[64] = "";
                    if (sscanf(item, "%15s %63s %15s %63s", x.kind, x.param, x.cls, stride) < 3)
                        return -1;
                    if (strncmp(stride, "stride=", 7) == 0)
                        x.stride = atoll(stride + 7);
                    *out = xrealloc(*out, sizeof **out * (size_t)(n + 1));
                    (*out)[n++] = x;
                }
            }
        }
        p = end ? end + 1 : p + len;
    }
    return n;
}

/* Checks "// expect-kernel NAME: key=value ..." against k. */
static void check_kernel_facts(TestCtx *t, const char *file, const char *src, const SrcKernel *k)
{
    char tag[160];
    snprintf(tag, sizeof tag, "// expect-kernel %s:", k->name);
    for (const char *at = strstr(src, tag); at; at = strstr(at + 1, tag)) {
        char line[512];
        const char *end = strchr(at, '\n');
        snprintf(line, sizeof line, "%.*s", (int)(end ? end - at : (long)strlen(at)), at + strlen(tag));
        for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            char key[64];
            double want;
            if (sscanf(tok, "%63[^=]=%lf", key, &want) != 2)
                continue;
            double got = strcmp(key, "const_restrict") == 0   ? k->n_const_restrict
                         : strcmp(key, "coalescing") == 0     ? k->coalescing
                         : strcmp(key, "syncthreads") == 0    ? k->syncthreads
                         : strcmp(key, "divergent") == 0      ? k->n_divergent
                         : strcmp(key, "early_exit") == 0     ? k->n_early_exit
                         : strcmp(key, "static_smem") == 0    ? (double)k->static_smem_bytes
                         : strcmp(key, "dynamic") == 0        ? k->dynamic_smem
                         : strcmp(key, "ldg") == 0            ? k->ldg
                         : strcmp(key, "warp_ops") == 0       ? k->warp_ops
                         : strcmp(key, "vector") == 0         ? k->vector_accesses
                         : strcmp(key, "atomics_global") == 0 ? k->atomics_global
                         : strcmp(key, "atomics_shared") == 0 ? k->atomics_shared
                                                              : NAN;
            CHECK_MSG(fabs(got - want) < 1e-3, "%s: kernel %s: %s = %g, expected %g", file, k->name, key, got, want);
        }
    }
}

static void check_features(TestCtx *t, const char *file, const char *src, const SrcFeatures *f)
{
    const char *at = strstr(src, "// expect-features:");
    if (!at)
        return;
    char line[512];
    const char *end = strchr(at, '\n');
    snprintf(line, sizeof line, "%.*s", (int)(end ? end - at : (long)strlen(at)), at + 19);
    for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char key[64];
        int want;
        if (sscanf(tok, "%63[^=]=%d", key, &want) != 2)
            continue;
        int got = strcmp(key, "pragma_unroll") == 0         ? f->pragma_unroll
                  : strcmp(key, "vector_casts") == 0        ? f->vector_casts
                  : strcmp(key, "shfl") == 0                ? f->shfl
                  : strcmp(key, "votes") == 0               ? f->votes
                  : strcmp(key, "ldg") == 0                 ? f->ldg
                  : strcmp(key, "atomics") == 0             ? f->atomics
                  : strcmp(key, "shared_decls") == 0        ? f->shared_decls
                  : strcmp(key, "extern_shared_decls") == 0 ? f->extern_shared_decls
                                                            : -1;
        CHECK_MSG(got == want, "%s: feature %s = %d, expected %d", file, key, got, want);
    }
}

static int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static void check_kernel_file(TestCtx *t, const char *path)
{
    char *src = NULL;
    Error e;
    if (file_read_all(path, 1 << 20, &src, NULL, &e) != 0) {
        CHECK_MSG(0, "%s", e.msg);
        return;
    }
    /* lanes from the bind lines' blocks: a 1 x N block makes y the lane */
    SrcLane lanes[16];
    int n_lanes = 0;
    for (const char *at = strstr(src, "// bind "); at && n_lanes < 16; at = strstr(at + 1, "// bind ")) {
        static char names[16][64];
        long long bx = 1, by = 1;
        const char *blk = strstr(at, "block=");
        const char *eol = strchr(at, '\n');
        if (sscanf(at, "// bind %63[^:]", names[n_lanes]) == 1 && blk && (!eol || blk < eol) &&
            sscanf(blk, "block=%lld,%lld", &bx, &by) == 2) {
            lanes[n_lanes].kernel = names[n_lanes];
            lanes[n_lanes].dim = bx > 1 ? 0 : by > 1 ? 1 : 2;
            n_lanes++;
        }
    }
    SrcReport r;
    int rc = src_analyze(src, lanes, n_lanes, &r, &e);
    CHECK_MSG(rc == 0, "%s: %s", path, e.msg);
    Expect *ex = NULL;
    int *div = NULL, *early = NULL, n_div = 0, n_early = 0;
    int n_ex = read_expects(src, &ex, &div, &n_div, &early, &n_early);
    CHECK_MSG(n_ex >= 0, "%s: a malformed expect comment", path);
    for (int k = 0; rc == 0 && k < r.n_kernels; k++) {
        SrcKernel *sk = &r.kernels[k];
        long long vals[64];
        SrcBinding b;
        read_binding(src, sk, vals, &b);
        src_kernel_classify(sk, &b);
        check_kernel_facts(t, path, src, sk);
        for (int a = 0; a < sk->n_accesses; a++) {
            const SrcAccess *x = &sk->accesses[a];
            const char *cls = src_access_class_name(x->cls), *kind = src_access_kind_name(x->kind);
            int found = 0;
            for (int i = 0; i < n_ex && !found; i++)
                if (!ex[i].used && ex[i].line == x->line && strcmp(ex[i].kind, kind) == 0 &&
                    strcmp(ex[i].param, x->param) == 0 && strcmp(ex[i].cls, cls) == 0 &&
                    (!ex[i].stride || ex[i].stride == x->stride))
                    ex[i].used = found = 1;
            CHECK_MSG(found, "%s:%d: unexpected access %s %s %s (stride %lld) [%s] in kernel %s", path, x->line, kind,
                      x->param, cls, x->stride, x->index, sk->name);
        }
        for (int i = 0; i < sk->n_divergent; i++)
            CHECK_MSG(in_list(div, n_div, sk->divergent[i].line), "%s:%d: unexpected divergent barrier (kernel %s)",
                      path, sk->divergent[i].line, sk->name);
        for (int i = 0; i < sk->n_early_exit; i++)
            CHECK_MSG(in_list(early, n_early, sk->early_exit[i].line),
                      "%s:%d: unexpected barrier after an early exit (kernel %s)", path, sk->early_exit[i].line,
                      sk->name);
    }
    for (int i = 0; i < n_ex; i++)
        CHECK_MSG(ex[i].used, "%s:%d: expected access %s %s %s not found", path, ex[i].line, ex[i].kind, ex[i].param,
                  ex[i].cls);
    for (int i = 0; i < n_div; i++) {
        int found = 0;
        for (int k = 0; k < r.n_kernels; k++)
            for (int j = 0; j < r.kernels[k].n_divergent; j++)
                found |= r.kernels[k].divergent[j].line == div[i];
        CHECK_MSG(found, "%s:%d: the divergent barrier was not reported", path, div[i]);
    }
    for (int i = 0; i < n_early; i++) {
        int found = 0;
        for (int k = 0; k < r.n_kernels; k++)
            for (int j = 0; j < r.kernels[k].n_early_exit; j++)
                found |= r.kernels[k].early_exit[j].line == early[i];
        CHECK_MSG(found, "%s:%d: the barrier after an early exit was not reported", path, early[i]);
    }
    check_features(t, path, src, &r.features);
    free(ex);
    free(div);
    free(early);
    src_report_release(&r);
    free(src);
}

TEST(structure_source_kernels)
{
    DIR *d = opendir(DATA "/kernels");
    if (!d)
        SKIP("%s/kernels missing", DATA);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 4 || strcmp(de->d_name + len - 3, ".cu") != 0)
            continue;
        char *path = xasprintf(DATA "/kernels/%s", de->d_name);
        check_kernel_file(t, path);
        free(path);
        n++;
    }
    closedir(d);
    CHECK(n >= 10);
    return 0;
}

/* Source the analysis must survive without a report of nonsense. */
TEST(structure_source_robust)
{
    static const char *const odd[] = {
        "",
        "extern \"C\" __global__ void k(",
        "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = ; }",
        "#define A(x) A(x)\nextern \"C\" __global__ void k(float *x) { x[A(1)] = 0; }",
        "#define F(a, b) a##b\n__global__ void k(float *x) { for (;;) { if (x[0]) break; } while (1) {} do {} while (0); }",
        "template <int N> __global__ void k(float *x) { x[N * threadIdx.x] = 0; }",
        "struct S { float a[4]; __device__ float get(int i) const { return a[i]; } };\n"
        "extern \"C\" __global__ void k(S *s, float *y) { y[threadIdx.x] = s->get(threadIdx.x); }",
        "__device__ int f(int n) { return n ? f(n - 1) : 0; }\nextern \"C\" __global__ void k(int *y) { y[f(threadIdx.x)] = 1; }",
        "extern \"C\" __global__ void k(float *y) { switch (threadIdx.x) { case 0: __syncthreads(); break; default: y[0] = 1; } }",
        NULL};
    for (int i = 0; odd[i]; i++) {
        SrcReport r;
        Error e;
        int rc = src_analyze(odd[i], NULL, 0, &r, &e);
        CHECK_MSG(rc == 0, "odd source #%d: %s", i, e.msg);
        src_report_release(&r);
    }
    /* the recursive device function is followed to a bounded depth */
    SrcReport r;
    Error e;
    CHECK(src_analyze(odd[7], NULL, 0, &r, &e) == 0 && r.n_kernels == 1);
    src_report_release(&r);
    /* a switch on the thread index guards its barrier */
    CHECK(src_analyze(odd[8], NULL, 0, &r, &e) == 0 && r.n_kernels == 1 && r.kernels[0].n_divergent == 1);
    src_report_release(&r);
    /* a macro expansion bomb is refused, not followed */
    StrBuf bomb = STRBUF_INIT;
    sb_append(&bomb, "#define A0 x x x x x x x x\n");
    for (int i = 1; i < 12; i++)
        sb_printf(&bomb, "#define A%d A%d A%d A%d A%d A%d A%d A%d A%d\n", i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
                  i - 1, i - 1);
    sb_append(&bomb, "int y = A11;\n");
    CHECK(src_analyze(bomb.data, NULL, 0, &r, &e) != 0 && strstr(e.msg, "macro expansion"));
    src_report_release(&r);
    sb_release(&bomb);
    return 0;
}

/* ---- ptxas facts through NVRTC ---- */

TEST(structure_ptxas_log_parse)
{
    char *log = NULL;
    Error e;
    if (file_read_all(DATA "/ptxas_spills.log", 1 << 20, &log, NULL, &e) != 0)
        SKIP("%s", e.msg);
    NvrtcKernelInfo *ks = NULL;
    int n = 0;
    nvrtc_parse_ptxas_info(log, &ks, &n);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(strcmp(ks[0].name, "spill") == 0 && ks[0].registers == 32 && ks[0].stack_frame == 13520 &&
              ks[0].spill_stores == 19916 && ks[0].spill_loads == 29792 && ks[0].static_smem == 0 &&
              ks[0].cumulative_stack == 13520);
        /* the non-inlined helper's spills are not the next entry's */
        CHECK(strcmp(ks[1].name, "tiles") == 0 && ks[1].registers == 40 && ks[1].barriers == 1 &&
              ks[1].static_smem == 4000 && ks[1].spill_stores == 0);
    }
    free(ks);
    free(log);
    return 0;
}

static const char SHARED_KERNEL[] =
    "#define BLOCK 256\n"
    "extern \"C\" __global__ void block_sum(const float *__restrict__ x, float *out, int n)\n"
    "{\n"
    "    __shared__ float sh[BLOCK];\n"
    "    const int i = blockIdx.x * BLOCK + threadIdx.x;\n"
    "    sh[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (int s = BLOCK / 2; s > 0; s >>= 1) {\n"
    "        if (threadIdx.x < s)\n"
    "            sh[threadIdx.x] += sh[threadIdx.x + s];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0)\n"
    "        out[blockIdx.x] = sh[0];\n"
    "}\n"
    "extern \"C\" __global__ void copy(const float *x, float *y) { y[threadIdx.x] = x[threadIdx.x]; }\n";

TEST(structure_ptxas_from_nvrtc)
{
    Error e;
    NvrtcResult r, plain;
    char *cache = xasprintf("%s/nvrtc", t->tmpdir);
    int rc = nvrtc_compile_with(SHARED_KERNEL, "sm_90", cache, NVRTC_PTXAS_INFO, &r, &e);
    CHECK_MSG(rc == 0, "%s", e.msg);
    CHECK(!r.cached && r.n_kernels == 2);
    for (int i = 0; i < r.n_kernels; i++) {
        const NvrtcKernelInfo *k = &r.kernels[i];
        CHECK_MSG(k->registers > 0 && k->registers <= 255, "%s: %d registers", k->name, k->registers);
        if (strcmp(k->name, "block_sum") == 0)
            CHECK_MSG(k->static_smem == 1024 && k->barriers == 1 && k->spill_stores == 0,
                      "block_sum: %lld B smem, %d barriers", k->static_smem, k->barriers);
        else
            CHECK(strcmp(k->name, "copy") == 0 && k->static_smem == 0 && k->barriers == 0);
    }
    CHECK(strstr(r.log, "Used") != NULL);
    char key[HASH_HEX_LEN + 1];
    snprintf(key, sizeof key, "%s", r.key);
    int regs = r.n_kernels ? r.kernels[0].registers : -1;
    nvrtc_result_release(&r);
    /* from the cache: the same facts, from the stored log */
    rc = nvrtc_compile_with(SHARED_KERNEL, "sm_90", cache, NVRTC_PTXAS_INFO, &r, &e);
    CHECK(rc == 0 && r.cached && r.n_kernels == 2 && r.kernels[0].registers == regs);
    nvrtc_result_release(&r);
    /* the option is part of the key; a plain request is unchanged (no facts, no log) */
    rc = nvrtc_compile(SHARED_KERNEL, "sm_90", cache, &plain, &e);
    CHECK(rc == 0 && strcmp(plain.key, key) != 0 && plain.n_kernels == 0 && plain.kernels == NULL);
    CHECK(plain.log && strstr(plain.log, "Used") == NULL);
    char k0[HASH_HEX_LEN + 1], k1[HASH_HEX_LEN + 1];
    CHECK(nvrtc_cache_key(SHARED_KERNEL, "sm_90", k0, &e) == 0 && strcmp(k0, plain.key) == 0);
    CHECK(nvrtc_cache_key_for(SHARED_KERNEL, "sm_90", NVRTC_PTXAS_INFO, k1, &e) == 0 && strcmp(k1, key) == 0);
    nvrtc_result_release(&plain);
    /* a cubin cached without its log is compiled again, not reported empty */
    char *log_path = xasprintf("%s/%s.log", cache, key);
    CHECK(unlink(log_path) == 0);
    rc = nvrtc_compile_with(SHARED_KERNEL, "sm_90", cache, NVRTC_PTXAS_INFO, &r, &e);
    CHECK(rc == 0 && !r.cached && r.n_kernels == 2 && file_exists(log_path));
    nvrtc_result_release(&r);
    free(log_path);
    free(cache);
    return 0;
}

/* ---- the report ---- */

static int load_fixture(const char *kernel_dir, Problem **p, LaunchPlan **lp, char **src, Error *e)
{
    char *cu = xasprintf("tests/data/kernels/%s/kernel.cu", kernel_dir);
    char *lj = xasprintf("tests/data/kernels/%s/launch.json", kernel_dir);
    int rc = problem_load("tests/data/programs/ok-axpy/meta.json", p, e);
    if (rc == 0)
        rc = file_read_all(cu, 1 << 20, src, NULL, e);
    if (rc == 0)
        rc = launch_load(lj, *p, lp, e);
    free(cu);
    free(lj);
    return rc;
}

static double json_num(const cJSON *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *x = o;
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && x; k = strtok_r(NULL, ".", &save))
        x = cJSON_IsArray(x) ? cJSON_GetArrayItem(x, atoi(k)) : cJSON_GetObjectItemCaseSensitive(x, k);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

TEST(structure_report_json)
{
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char *src = NULL, *cache = xasprintf("%s/nvrtc", t->tmpdir);
    Error e;
    if (load_fixture("axpy-two-launch", &p, &lp, &src, &e) != 0)
        SKIP("fixture: %s", e.msg);
    StructureOptions o = structure_default_options();
    StructureReport r;
    int compile_error = 0;
    int rc = structure_candidate(p, structure_default_config(p), src, lp, "sm_90", cache, &o, &r, &compile_error, &e);
    CHECK_MSG(rc == 0, "%s", e.msg);
    if (rc == 0) {
        char *text = structure_to_json(&r);
        cJSON *j = cJSON_Parse(text);
        CHECK(j != NULL);
        CHECK(json_num(j, "version") == STRUCTURE_FORMAT_VERSION);
        CHECK(strcmp(cJSON_GetObjectItem(j, "config")->valuestring, "large") == 0);
        /* two coalesced kernels, full occupancy, no barriers, no spills */
        CHECK(json_num(j, "terms.coalescing") == 1 && json_num(j, "terms.occupancy") == 1 &&
              json_num(j, "terms.sync") == 1 && json_num(j, "terms.spills") == 1);
        /* tmp (4n bytes) is written and read back: 12n + 8n bytes for a
         * memory-bound 2n flops, so the roofline time grows by 20/12 */
        CHECK_MSG(fabs(json_num(j, "terms.intensity") - 0.6) < 1e-4, "intensity %g", json_num(j, "terms.intensity"));
        CHECK(fabs(json_num(j, "score") - (0.35 + 0.2 + 0.15 * 0.6 + 0.15 + 0.15)) < 1e-3);
        CHECK(json_num(j, "launches.1.occupancy.blocks_per_sm") == 16);
        CHECK(json_num(j, "launches.0.grid.0") == 67108864 / 128);
        CHECK(json_num(j, "kernels.0.compiled.registers") > 0);
        CHECK(json_num(j, "kernels.1.coalescing.coalesced") == 2); /* y[i] += tmp[i]: an update and a load */
        CHECK(json_num(j, "intensity.scratch_bytes") == 4.0 * 67108864);
        /* stable: the same report serialises to the same text */
        char *again = structure_to_json(&r);
        CHECK(strcmp(text, again) == 0);
        free(again);
        cJSON_Delete(j);
        free(text);
        /* the text report names the kernels and the launches */
        char *path = xasprintf("%s/report.txt", t->tmpdir);
        FILE *f = fopen(path, "w");
        structure_print(f, &r);
        fclose(f);
        char *out = NULL;
        CHECK(file_read_all(path, 1 << 20, &out, NULL, &e) == 0 && strstr(out, "kernel scale (line 2)") &&
              strstr(out, "launch 1 accumulate") && strstr(out, "memory-bound"));
        free(out);
        free(path);
    }
    structure_report_release(&r);
    /* weights from a file change the score, not the terms */
    char *wpath = xasprintf("%s/weights.json", t->tmpdir);
    const char *w = "{\"weights\": {\"coalescing\": 0, \"occupancy\": 0, \"intensity\": 1, \"sync\": 0, \"spills\": 0}}";
    CHECK(file_write_if_changed(wpath, w, strlen(w), NULL, &e) == 0);
    CHECK(structure_options_load(wpath, &o, &e) == 0);
    rc = structure_candidate(p, structure_default_config(p), src, lp, "sm_90", cache, &o, &r, &compile_error, &e);
    CHECK(rc == 0 && fabs(r.score - 0.6) < 1e-6);
    structure_report_release(&r);
    const char *bad = "{\"weights\": {\"elegance\": 1}}";
    CHECK(file_write_if_changed(wpath, bad, strlen(bad), NULL, &e) == 0);
    CHECK(structure_options_load(wpath, &o, &e) != 0 && strstr(e.msg, "elegance"));
    free(wpath);
    launch_free(lp);
    problem_free(p);
    free(src);
    free(cache);
    return 0;
}

TEST(structure_compile_error_no_report)
{
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    char *src = NULL, *cache = xasprintf("%s/nvrtc", t->tmpdir);
    Error e;
    if (load_fixture("axpy-no-compile", &p, &lp, &src, &e) != 0)
        SKIP("fixture: %s", e.msg);
    StructureOptions o = structure_default_options();
    StructureReport r;
    int compile_error = 0;
    int rc = structure_candidate(p, structure_default_config(p), src, lp, "sm_90", cache, &o, &r, &compile_error, &e);
    CHECK(rc != 0 && compile_error == 1);
    CHECK_MSG(strstr(e.msg, "does not compile") && strstr(e.msg, "undeclared_thing"), "%s", e.msg);
    CHECK(r.src.n_kernels == 0 && r.n_launches == 0); /* no report, not a report of zeros */
    structure_report_release(&r);
    /* the command says so and exits 1; a good pair exits 0 */
    char *exe = test_harness_exe(), *out = NULL;
    if (exe) {
        int st = test_sh(&out, "%s structure --cache %s tests/data/programs/ok-axpy tests/data/kernels/axpy-no-compile/kernel.cu "
                               "tests/data/kernels/axpy-no-compile/launch.json 2>&1",
                         exe, t->tmpdir);
        CHECK_MSG(st == 1 && strstr(out, "no structural report") && strstr(out, "does not compile"), "%d: %s", st, out);
        free(out);
        st = test_sh(&out, "%s structure --cache %s --json tests/data/programs/ok-axpy tests/data/kernels/axpy/kernel.cu "
                           "tests/data/kernels/axpy/launch.json",
                     exe, t->tmpdir);
        cJSON *j = cJSON_Parse(out ? out : "");
        CHECK_MSG(st == 0 && j && json_num(j, "structure.terms.coalescing") == 1, "%d: %s", st, out);
        cJSON_Delete(j);
        free(out);
        CHECK(test_sh(NULL, "%s structure >/dev/null 2>&1", exe) == 2);
        /* a folder without its pair: a failure naming the file */
        st = test_sh(&out, "%s structure tests/data/programs/ok-axpy 2>&1", exe);
        CHECK_MSG(st == 1 && strstr(out, "kernel.cu"), "%d: %s", st, out);
        free(out);
        free(exe);
    }
    launch_free(lp);
    problem_free(p);
    free(src);
    free(cache);
    return 0;
}

/* ---- validation over generated programs ---- */

/* The coalescing term of dir's pair for the program in pdir (no compile:
 * coalescing needs only the source and the plan).  -2 when unreadable. */
static double coalescing_of(const char *pdir, const char *dir, const StructureOptions *o)
{
    char *meta = xasprintf("%s/meta.json", pdir), *cu = xasprintf("%s/kernel.cu", dir),
         *lj = xasprintf("%s/launch.json", dir), *src = NULL;
    Problem *p = NULL;
    LaunchPlan *lp = NULL;
    StructureReport r;
    memset(&r, 0, sizeof r);
    Error e;
    double s = -2;
    if (problem_load(meta, &p, &e) == 0 && file_read_all(cu, 1 << 20, &src, NULL, &e) == 0 &&
        launch_load(lj, p, &lp, &e) == 0 &&
        structure_analyze(p, structure_default_config(p), src, lp, NULL, 0, "sm_90", o, &r, &e) == 0)
        s = r.t_coalescing;
    structure_report_release(&r);
    launch_free(lp);
    problem_free(p);
    free(src);
    free(meta);
    free(cu);
    free(lj);
    return s;
}

/* The families sampled: every third of the registry (sorted by file name),
 * so the test stays well under 30 s; `STRUCTURE_ALL_FAMILIES=1` takes all. */
static int sampled(int i) { return getenv("STRUCTURE_ALL_FAMILIES") || i % 3 == 0; }

TEST(structure_orders_uncoalesced_variants)
{
    StructureOptions o = structure_default_options();
    int pairs = 0, ordered = 0, families = 0;
    StrBuf misses = STRBUF_INIT;
    /* tens of thousands of small files: in memory when the machine has a
     * tmpfs (a third of the time on disk), removed family by family */
    char shm[] = "/dev/shm/cudaperf-structure-XXXXXX";
    const char *root = file_is_dir("/dev/shm") && mkdtemp(shm) ? shm : t->tmpdir;
    for (int f = 0; f < gen_family_count; f++) {
        if (!sampled(f))
            continue;
        char err[512];
        GenStats st;
        memset(&st, 0, sizeof st);
        char *out = xasprintf("%s/gen", root);
        if (gen_run_family(gen_families[f], out, 20261202, &st, err, sizeof err) != 0) {
            CHECK_MSG(0, "family %s: %s", gen_families[f]->name, err);
            free(out);
            continue;
        }
        char *fam = xasprintf("%s/c/%s", out, gen_families[f]->name);
        DIR *d = opendir(fam);
        struct dirent *de;
        int had = 0;
        while (d && (de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char *pdir = xasprintf("%s/%s", fam, de->d_name);
            char *vdir = xasprintf("%s/variants/uncoalesced", pdir);
            if (file_is_dir(vdir)) {
                double ref = coalescing_of(pdir, pdir, &o), var = coalescing_of(pdir, vdir, &o);
                pairs++;
                had = 1;
                if (ref > var)
                    ordered++;
                else
                    sb_printf(&misses, "  %s/%s: reference %.3f, uncoalesced %.3f\n", gen_families[f]->name,
                              de->d_name, ref, var);
            }
            free(pdir);
            free(vdir);
        }
        if (d)
            closedir(d);
        families += had;
        file_remove_tree(out, NULL); /* a family at a time: the disk stays small */
        free(fam);
        free(out);
    }
    if (root == shm)
        file_remove_tree(shm, NULL);
    double frac = pairs ? (double)ordered / pairs : 0;
    fprintf(stderr, "  structure: reference > uncoalesced in %d of %d pairs (%.1f%%) over %d sampled families\n",
            ordered, pairs, 100 * frac, families);
    if (misses.len)
        fprintf(stderr, "  not ordered:\n%s", misses.data);
    CHECK(pairs >= 50);
    CHECK_MSG(frac >= 0.95, "only %.1f%% of %d pairs ordered", 100 * frac, pairs);
    sb_release(&misses);
    return 0;
}

/* harness run stores the report per result (CPU backend: no GPU needed). */
TEST(structure_stored_by_run)
{
    char *exe = test_harness_exe(), *out = NULL, cwd[4096];
    if (!exe || !getcwd(cwd, sizeof cwd))
        SKIP("bin/harness next to the test runner is missing");
    int st = test_sh(&out,
                     "set -e; cd %s; mkdir -p progs/c/fixtures/ok-axpy; "
                     "cp %s/tests/data/programs/ok-axpy/* %s/tests/data/kernels/axpy/* progs/c/fixtures/ok-axpy/; "
                     "%s --catalog cat.db ingest --quiet progs >/dev/null; "
                     "%s --catalog cat.db run --backend cpu --trials 1 --configs small,edge --quiet >/dev/null; "
                     "sqlite3 cat.db \"SELECT c.name || ' ' || json_extract(r.structure, '$.config') || ' ' || "
                     "json_extract(r.structure, '$.terms.coalescing') FROM results r JOIN configs c ON c.id = "
                     "r.config_id ORDER BY c.name\"",
                     t->tmpdir, cwd, cwd, exe, exe);
    CHECK_MSG(st == 0 && out && strstr(out, "edge edge 1") && strstr(out, "small small 1"), "%d: %s", st,
              out ? out : "");
    free(out);
    free(exe);
    return 0;
}
