/* test_variants.c — the candidate variants derived from reference pairs
 * (generators/gen_variants): which rewrites apply to which kernels, what
 * they change, what they record; and, end to end on the CPU backend, that a
 * correct variant passes and a planted out-of-bounds defect is caught; the
 * register-spills variant compiles with NVRTC and makes ptxas spill. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "generators/gen_partial_sums.h"
#include "generators/gen_variants.h"
#include "harness/nvrtc.h"
#include "tests/test.h"

static const char *ELEMENTWISE =
    "extern \"C\" __global__ void scale(const float *__restrict__ x, float *__restrict__ y, int n)\n"
    "{\n"
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    y[i] = 2.0f * x[i];\n"
    "}\n";

static const char *HISTOGRAM =
    "#define BLOCK 256\n"
    "extern \"C\" __global__ void hist(const int *v, int *counts, int n)\n"
    "{\n"
    "    __shared__ int local[BLOCK];\n"
    "    local[threadIdx.x] = 0;\n"
    "    __syncthreads();\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) {\n"
    "        atomicAdd(&counts[v[i] & 255], 1);\n"
    "    }\n"
    "}\n";

static cJSON *plan(const char *grid, const char *block, const char *smem)
{
    cJSON *a = cJSON_CreateArray(), *l = cJSON_CreateObject();
    const char *g[] = {grid}, *b[] = {block}, *args[] = {"x", "y", "n"};
    cJSON_AddStringToObject(l, "kernel", "k");
    cJSON_AddItemToObject(l, "grid", cJSON_CreateStringArray(g, 1));
    cJSON_AddItemToObject(l, "block", cJSON_CreateStringArray(b, 1));
    cJSON_AddStringToObject(l, "smem", smem);
    cJSON_AddItemToObject(l, "args", cJSON_CreateStringArray(args, 3));
    cJSON_AddItemToArray(a, l);
    return a;
}

static const GenVariant *find(const GenVariant *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

static const char *knob(const GenVariant *v, const char *key)
{
    const cJSON *k = v ? cJSON_GetObjectItemCaseSensitive(v->knobs, key) : NULL;
    return cJSON_IsString(k) ? k->valuestring : "";
}

TEST(variants_rewrites)
{
    cJSON *launches = plan("(n+255)/256", "256", "0");
    cJSON *knobs = cJSON_CreateObject();
    cJSON_AddStringToObject(knobs, "block", "256");
    GenVariant *v = NULL;
    int n = variants_derive(ELEMENTWISE, launches, knobs, &v);
    CHECK_MSG(n == 9, "elementwise: %d variants", n);
    const GenVariant *gs = find(v, n, "grid-stride");
    CHECK_MSG(gs && strstr(gs->source, "for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;") &&
                  strstr(gs->source, "i += (long long)gridDim.x * blockDim.x) {") && !strstr(gs->source, "return;"),
              "%s", gs ? gs->source : "(none)");
    if (gs) {
        const cJSON *l = cJSON_GetArrayItem(gs->launches, 0);
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(l, "grid")->child->valuestring, "min((n+255)/256,1056)") == 0);
    }
    const GenVariant *b = find(v, n, "block-128");
    CHECK(b && strcmp(knob(b, "block"), "128") == 0 && strcmp(knob(b, "expect"), "pass") == 0);
    if (b) {
        const cJSON *l = cJSON_GetArrayItem(b->launches, 0);
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(l, "grid")->child->valuestring, "(n+127)/128") == 0);
        CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(l, "block")->child->valuestring, "128") == 0);
    }
    CHECK(find(v, n, "block-64") && find(v, n, "block-512") && find(v, n, "block-1024") && !find(v, n, "block-256"));
    const GenVariant *u = find(v, n, "uncoalesced");
    CHECK(u && strstr(u->source, "threadIdx.x * gridDim.x + blockIdx.x") && strcmp(knob(u, "expect"), "slower") == 0);
    const GenVariant *r = find(v, n, "no-restrict");
    CHECK(r && !strstr(r->source, "__restrict__"));
    const GenVariant *m = find(v, n, "missing-bounds-check");
    CHECK(m && !strstr(m->source, "if (") && !strstr(m->source, "return;") &&
          strcmp(knob(m, "defect"), "missing-bounds-check") == 0 && strcmp(knob(m, "expect"), "fail") == 0);
    const GenVariant *o = find(v, n, "off-by-one");
    CHECK(o && strstr(o->source, "if (i > n)") && strcmp(knob(o, "defect"), "off-by-one") == 0);
    /* the reference's knobs are kept, the derivation recorded */
    CHECK(o && strcmp(knob(o, "block"), "256") == 0 && strcmp(knob(o, "derived"), "off-by-one") == 0);
    variants_free(v, n);
    cJSON_Delete(launches);

    /* a kernel that names its block size (a shared array) gets no
     * block-size variants, nor an uncoalesced one (threads cooperate) */
    launches = plan("(n+255)/256", "256", "0");
    n = variants_derive(HISTOGRAM, launches, NULL, &v);
    CHECK(!find(v, n, "block-128") && !find(v, n, "uncoalesced"));
    const GenVariant *s = find(v, n, "missing-syncthreads");
    CHECK(s && !strstr(s->source, "__syncthreads") && strcmp(knob(s, "expect"), "race") == 0);
    const GenVariant *a = find(v, n, "non-atomic-accumulation");
    CHECK_MSG(a && strstr(a->source, "counts[v[i] & 255] += 1;") && !strstr(a->source, "atomicAdd"), "%s",
              a ? a->source : "(none)");
    m = find(v, n, "missing-bounds-check");
    CHECK_MSG(m && !strstr(m->source, "if (i < n)") && strstr(m->source, "    {\n        atomicAdd"), "%s",
              m ? m->source : "(none)");
    o = find(v, n, "off-by-one");
    CHECK(o && strstr(o->source, "if (i <= n) {"));
    variants_free(v, n);
    cJSON_Delete(launches);

    /* a loop gets unrolling variants; a padded tile an unpadded one */
    static const char *const TILED =
        "#define T 32\n"
        "extern \"C\" __global__ void tr(const float *a, float *b, int n)\n"
        "{\n"
        "    __shared__ float tile[T][T + 1];\n"
        "    for (int k = 0; k < n; k++)\n"
        "        tile[threadIdx.y][threadIdx.x] = a[k];\n"
        "    __syncthreads();\n"
        "    b[0] = tile[threadIdx.x][threadIdx.y];\n"
        "}\n";
    launches = plan("(n+31)/32", "32", "0");
    n = variants_derive(TILED, launches, NULL, &v);
    const GenVariant *u1 = find(v, n, "unroll-1"), *bc = find(v, n, "bank-conflicts");
    CHECK(u1 && strstr(u1->source, "    #pragma unroll 1\n    for (int k = 0;") && find(v, n, "unroll-8"));
    CHECK(bc && strstr(bc->source, "tile[T][T];") && strcmp(knob(bc, "expect"), "slower") == 0);
    CHECK(!find(v, n, "block-64")); /* 32 is named in the source */
    variants_free(v, n);
    cJSON_Delete(launches);

    /* dynamic shared memory sized by the block: no block-size variants */
    launches = plan("(n+255)/256", "256", "256*4");
    n = variants_derive(ELEMENTWISE, launches, NULL, &v);
    CHECK(!find(v, n, "block-128"));
    variants_free(v, n);
    cJSON_Delete(launches);
    cJSON_Delete(knobs);
    return 0;
}

/* The grid-stride rewrite counts in long long but keeps the type the
 * reference gave its index: an int i widened would make max(i - k, 0)
 * ambiguous for NVRTC (run 16: gemv gbmv-n-f64's variant did not compile). */
TEST(variants_grid_stride_keeps_the_index_type)
{
    static const char *NARROW =
        "extern \"C\" __global__ void band(const float *x, float *y, int n, int k)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n)\n"
        "        return;\n"
        "    y[i] = x[max(i - k, 0)];\n"
        "}\n";
    cJSON *launches = plan("(n+255)/256", "256", "0");
    GenVariant *v;
    int n = variants_derive(NARROW, launches, NULL, &v);
    const GenVariant *gs = find(v, n, "grid-stride");
    CHECK_MSG(gs && strstr(gs->source, "for (long long i_stride = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                                       "i_stride < n;") &&
                  strstr(gs->source, "        const int i = (int)i_stride;\n        y[i] = x[max(i - k, 0)];"),
              "%s", gs ? gs->source : "(none)");
    Error e;
    NvrtcResult r;
    memset(&r, 0, sizeof r);
    char *cache = xasprintf("%s/nvrtc", t->tmpdir);
    CHECK_MSG(gs && nvrtc_compile(gs->source, "sm_90", cache, &r, &e) == 0, "NVRTC: %s %s", e.msg,
              r.log ? r.log : "");
    nvrtc_result_release(&r);
    free(cache);
    variants_free(v, n);
    cJSON_Delete(launches);
    return 0;
}

/* The uncoalesced variant is planted only where the thread index lays out
 * the hot accesses: the innermost loop's body places an access by it or by
 * a name derived from it (directly, through a helper's argument, or as a
 * base that moves by one element per thread). */
TEST(variants_uncoalesced_only_where_the_mapping_matters)
{
    static const struct {
        const char *what, *source;
        int planted;
    } CASES[] = {
        {"conv: ox = gid % w indexes the loop's loads",
         "extern \"C\" __global__ void conv(const float *x, const float *k, float *y, int n, int w, int t)\n"
         "{\n"
         "    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    if (gid >= n)\n"
         "        return;\n"
         "    const int ox = (int)(gid % w), oy = (int)(gid / w);\n"
         "    float acc = 0;\n"
         "    for (int j = 0; j < t; j++)\n"
         "        acc += x[oy * (w + t) + ox + j] * k[j];\n"
         "    y[gid] = acc;\n"
         "}\n",
         1},
        {"a row pointer src + x walked by the inner loop",
         "extern \"C\" __global__ void box(const float *in, float *out, int w)\n"
         "{\n"
         "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    float acc = 0;\n"
         "    for (int i = 0; i < 3; i++) {\n"
         "        const float *row = in + i * w + x;\n"
         "        for (int j = 0; j < 3; j++)\n"
         "            acc += row[j];\n"
         "    }\n"
         "    out[x] = acc;\n"
         "}\n",
         1},
        {"a helper's argument: tap(x, i - j) reads x[i - j]",
         "__device__ float tap(const float *x, long long j) { return j >= 0 ? x[j] : 0; }\n"
         "extern \"C\" __global__ void fir(const float *x, const float *h, float *y, int n, int t)\n"
         "{\n"
         "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    float acc = 0;\n"
         "    for (int j = 0; j < t; j++)\n"
         "        acc += h[j] * tap(x, i - j);\n"
         "    y[i] = acc;\n"
         "}\n",
         1},
        {"a DFT: every thread reads all of x in its loop",
         "extern \"C\" __global__ void dft(const float *x, const float *f, float *y, int n, int nf)\n"
         "{\n"
         "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    const float w = f[m];\n"
         "    float re = 0;\n"
         "    for (int j = 0; j < n; j++)\n"
         "        re += x[j] * cosf(w * j);\n"
         "    y[m] = re;\n"
         "}\n",
         0},
        {"a table private to the thread (base p * len)",
         "extern \"C\" __global__ void table(int *t, int b, int len)\n"
         "{\n"
         "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    int *d = t + p * len;\n"
         "    for (int j = 1; j < len; j++)\n"
         "        d[j] = d[j - 1] + j;\n"
         "}\n",
         0},
        {"an edge list: the loop's bounds come from row_ptr[u], its loads do not",
         "extern \"C\" __global__ void deg(const int *row_ptr, const int *col, float *s, int n)\n"
         "{\n"
         "    const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    for (int k = row_ptr[u]; k < row_ptr[u + 1]; k++)\n"
         "        for (int a = row_ptr[u]; a < row_ptr[u + 1]; a++)\n"
         "            s[k] += col[a] == col[k];\n"
         "}\n",
         0},
    };
    cJSON *launches = plan("(n+255)/256", "256", "0");
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        GenVariant *v;
        int n = variants_derive(CASES[c].source, launches, NULL, &v);
        CHECK_MSG(!!find(v, n, "uncoalesced") == CASES[c].planted, "%s: uncoalesced variant %s", CASES[c].what,
                  CASES[c].planted ? "missing" : "planted");
        variants_free(v, n);
    }
    cJSON_Delete(launches);
    return 0;
}

/* Generated variants of a real program, on the CPU backend: a block-size
 * variant passes, the planted off-by-one bound is caught. */
TEST(variants_generated_and_judged)
{
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family ew_unary", t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "variants derived"), "%s", out ? out : "");
    free(out);
    const char *d = "g/c/ew_unary/abs-f64";
    st = test_sh(&out, "cd %s && cat %s/variants/off-by-one/knobs.json", t->tmpdir, d);
    CHECK_MSG(st == 0 && out && strstr(out, "\"defect\":\t\"off-by-one\""), "%s", out ? out : "");
    free(out);
    static const char *const cases[][2] = {{"block-128", "pass"}, {"off-by-one", "runtime_error"}};
    for (int i = 0; i < 2; i++) {
        st = test_sh(&out, "cd %s && %s/harness eval %s %s/variants/%s/kernel.cu %s/variants/%s/launch.json "
                           "--backend cpu --configs edge-prime --trials 1 --cache c", t->tmpdir, bin, d, d,
                     cases[i][0], d, cases[i][0]);
        char want[64];
        snprintf(want, sizeof want, "verdict: %s", cases[i][1]);
        CHECK_MSG(out && strstr(out, want), "%s: %s", cases[i][0], out ? out : "");
        free(out);
    }
    free(bin);
    return 0;
}

/* The bounds defects go to the guard around the store of the output, not
 * to the first guard (a load into shared memory, whose out-of-range read
 * no output would show). */
TEST(variants_bounds_defects_guard_the_store)
{
    static const char TILED[] =
        "extern \"C\" __global__ void t(const float *__restrict__ in, float *__restrict__ out, int n, int m)\n"
        "{\n"
        "    __shared__ float tile[32][33];\n"
        "    const int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32;\n"
        "    for (int r = threadIdx.y; r < 32; r += blockDim.y) {\n"
        "        const int i = i0 + r, j = j0 + threadIdx.x;\n"
        "        if (i < n && j < m)\n"
        "            tile[r][threadIdx.x] = in[i * m + j];\n"
        "    }\n"
        "    __syncthreads();\n"
        "    for (int r = threadIdx.y; r < 32; r += blockDim.y) {\n"
        "        const int i = i0 + threadIdx.x, j = j0 + r;\n"
        "        if (i < n && j < m) {\n"
        "            const float v = tile[threadIdx.x][r];\n"
        "            out[j * n + i] = v;\n"
        "        }\n"
        "    }\n"
        "}\n";
    cJSON *launches = plan("(m+31)/32", "32", "0");
    GenVariant *v = NULL;
    int n = variants_derive(TILED, launches, NULL, &v);
    const GenVariant *o = find(v, n, "off-by-one"), *m = find(v, n, "missing-bounds-check");
    CHECK_MSG(o && strstr(o->source, "            tile[r][threadIdx.x] = in[i * m + j];") &&
                  strstr(o->source, "        if (i < n && j < m)\n            tile") &&
                  strstr(o->source, "        if (i <= n && j <= m) {\n            const float v"),
              "%s", o ? o->source : "(no off-by-one)");
    CHECK_MSG(m && strstr(m->source, "        if (i < n && j < m)\n            tile") &&
                  !strstr(m->source, "if (i < n && j < m) {"),
              "%s", m ? m->source : "(no missing-bounds-check)");
    variants_free(v, n);
    cJSON_Delete(launches);
    return 0;
}

/* Smaller blocks only where the grid still covers the work: a warp-per-row
 * kernel launched with "(rows+7)/8" blocks (eight warps of 256 threads)
 * loses rows with 64 or 128 threads a block and keeps them with more; a
 * block-per-row kernel beside a globally indexed one takes any size. */
TEST(variants_smaller_blocks_only_where_the_grid_covers)
{
    static const char WARP_ROWS[] =
        "extern \"C\" __global__ void twiddle(float *t, int n)\n"
        "{\n"
        "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        t[i] = (float)i;\n"
        "}\n"
        "extern \"C\" __global__ void rows_sum(const float *a, float *y, int rows, int cols)\n"
        "{\n"
        "    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
        "    if (row >= rows)\n"
        "        return;\n"
        "    float s = 0;\n"
        "    for (int j = threadIdx.x % 32; j < cols; j += 32)\n"
        "        s += a[row * cols + j];\n"
        "    y[row] = s;\n"
        "}\n"
        "extern \"C\" __global__ void block_rows(const float *a, float *y, int rows, int cols)\n"
        "{\n"
        "    for (int j = threadIdx.x; j < cols; j += blockDim.x)\n"
        "        y[blockIdx.x] += a[blockIdx.x * cols + j];\n"
        "}\n";
    cJSON *launches = cJSON_Parse(
        "[{\"kernel\": \"twiddle\", \"grid\": [\"(n+255)/256\"], \"block\": [\"256\"], \"smem\": \"0\", \"args\": [\"t\", \"n\"]},"
        " {\"kernel\": \"rows_sum\", \"grid\": [\"(rows+7)/8\"], \"block\": [\"256\"], \"smem\": \"0\","
        " \"args\": [\"a\", \"y\", \"rows\", \"cols\"]}]");
    GenVariant *v = NULL;
    int n = variants_derive(WARP_ROWS, launches, NULL, &v);
    CHECK(!find(v, n, "block-64") && !find(v, n, "block-128") && find(v, n, "block-512") && find(v, n, "block-1024"));
    variants_free(v, n);
    cJSON_Delete(launches);

    launches = cJSON_Parse(
        "[{\"kernel\": \"twiddle\", \"grid\": [\"(n+255)/256\"], \"block\": [\"256\"], \"smem\": \"0\", \"args\": [\"t\", \"n\"]},"
        " {\"kernel\": \"block_rows\", \"grid\": [\"rows\"], \"block\": [\"256\"], \"smem\": \"0\","
        " \"args\": [\"a\", \"y\", \"rows\", \"cols\"]}]");
    n = variants_derive(WARP_ROWS, launches, NULL, &v);
    const GenVariant *b64 = find(v, n, "block-64");
    char *plan64 = b64 ? cJSON_PrintUnformatted(b64->launches) : NULL;
    CHECK_MSG(plan64 && strstr(plan64, "(n+63)/64"), "%s", plan64 ? plan64 : "(no block-64)");
    free(plan64);
    variants_free(v, n);
    cJSON_Delete(launches);
    return 0;
}

/* A guard no launch can fail (a zeroing kernel over 256 bins launched as
 * one block of 256 threads) gets no bounds defects: they go to the next
 * kernel's guard, whose bound comes from the config; a program with only
 * such guards has none. */
TEST(variants_bounds_defects_only_where_they_can_show)
{
    static const char TWO_KERNELS[] =
        "extern \"C\" __global__ void zero_i32(int *p, int n)\n"
        "{\n"
        "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        p[i] = 0;\n"
        "}\n"
        "extern \"C\" __global__ void count(const unsigned char *v, int *counts, int npix)\n"
        "{\n"
        "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= npix)\n"
        "        return;\n"
        "    atomicAdd(&counts[v[i]], 1);\n"
        "}\n";
    cJSON *launches = cJSON_Parse("[{\"kernel\": \"zero_i32\", \"grid\": [\"1\"], \"block\": [\"256\"], \"smem\": \"0\","
                                  " \"args\": [\"counts\", \"256\"]},"
                                  " {\"kernel\": \"count\", \"grid\": [\"(npix+255)/256\"], \"block\": [\"256\"],"
                                  " \"smem\": \"0\", \"args\": [\"v\", \"counts\", \"npix\"]}]");
    GenVariant *v = NULL;
    int n = variants_derive(TWO_KERNELS, launches, NULL, &v);
    const GenVariant *o = find(v, n, "off-by-one"), *m = find(v, n, "missing-bounds-check");
    CHECK_MSG(o && strstr(o->source, "if (i < n)\n") && strstr(o->source, "if (i > npix)\n"), "%s",
              o ? o->source : "(no off-by-one)");
    CHECK_MSG(m && strstr(m->source, "if (i < n)\n") && !strstr(m->source, "i >= npix"), "%s",
              m ? m->source : "(no missing-bounds-check)");
    variants_free(v, n);

    /* more threads than bins: the zeroing kernel's guard can fail, so it is the one */
    cJSON_SetValuestring(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(launches, 0), "block"), 0), "512");
    n = variants_derive(TWO_KERNELS, launches, NULL, &v);
    o = find(v, n, "off-by-one");
    CHECK_MSG(o && strstr(o->source, "if (i <= n)\n"), "%s", o ? o->source : "(no off-by-one)");
    variants_free(v, n);

    /* the zeroing kernel alone, exactly covered: no bounds defects at all */
    cJSON_SetValuestring(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(launches, 0), "block"), 0), "256");
    cJSON_DeleteItemFromArray(launches, 1);
    char *zero_only = xasprintf("%.*s", (int)(strstr(TWO_KERNELS, "extern \"C\" __global__ void count") - TWO_KERNELS),
                                TWO_KERNELS);
    n = variants_derive(zero_only, launches, NULL, &v);
    CHECK(!find(v, n, "off-by-one") && !find(v, n, "missing-bounds-check"));
    variants_free(v, n);
    free(zero_only);
    cJSON_Delete(launches);
    return 0;
}

/* The off-by-one loosens every bound of a joined guard (the one that stops
 * the thread at n may be any of them: a time step below its count always
 * passes its own); a guard with no store and no access in what it guards
 * (a warp picked for a shuffle loop) gets no bounds defects; torch's
 * tc_st(out, i, v) is a store of an output. */
TEST(variants_bounds_defects_show_where_planted)
{
    static const char STEP[] =
        "extern \"C\" __global__ void step(const float *src, float *dst, int n, int t, int steps)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (t >= steps || i >= n)\n"
        "        return;\n"
        "    dst[i] = src[i];\n"
        "}\n";
    cJSON *launches = plan("(n+255)/256", "256", "0");
    GenVariant *v = NULL;
    int n = variants_derive(STEP, launches, NULL, &v);
    const GenVariant *o = find(v, n, "off-by-one");
    CHECK_MSG(o && strstr(o->source, "if (t > steps || i > n)\n"), "%s", o ? o->source : "(no off-by-one)");
    variants_free(v, n);
    cJSON_Delete(launches);

    static const char BLOCK_SUM[] =
        "__device__ double block_sum(double v)\n"
        "{\n"
        "    __shared__ double part[32];\n"
        "    for (int o = 16; o > 0; o >>= 1)\n"
        "        v += __shfl_down_sync(0xffffffffu, v, o);\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x % 32 == 0)\n"
        "        part[threadIdx.x / 32] = v;\n"
        "    __syncthreads();\n"
        "    v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;\n"
        "    if (threadIdx.x < 32)\n"
        "        for (int o = 16; o > 0; o >>= 1)\n"
        "            v += __shfl_down_sync(0xffffffffu, v, o);\n"
        "    return v;\n"
        "}\n"
        "extern \"C\" __global__ void rows(const float *a, float *y, int m, int n)\n"
        "{\n"
        "    double acc = 0.0;\n"
        "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
        "        acc += a[(long long)blockIdx.x * n + j];\n"
        "    acc = block_sum(acc);\n"
        "    if (threadIdx.x == 0)\n"
        "        y[blockIdx.x] = acc;\n"
        "}\n";
    launches = plan("m", "256", "0");
    n = variants_derive(BLOCK_SUM, launches, NULL, &v);
    CHECK_MSG(!find(v, n, "off-by-one") && !find(v, n, "missing-bounds-check"), "a bounds defect on the warp guard");
    variants_free(v, n);
    cJSON_Delete(launches);

    static const char TC_STORE[] =
        "extern \"C\" __global__ void mm(const float *a, const float *b, float *out, int M, int N, int K)\n"
        "{\n"
        "    __shared__ float as[16][16];\n"
        "    const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;\n"
        "    float acc = 0;\n"
        "    for (int k0 = 0; k0 < K; k0 += 16) {\n"
        "        if (row < M && k0 + threadIdx.x < K)\n"
        "            as[threadIdx.y][threadIdx.x] = a[row * K + k0 + threadIdx.x];\n"
        "        __syncthreads();\n"
        "        for (int p = 0; p < 16 && k0 + p < K; p++)\n"
        "            acc += as[threadIdx.y][p] * b[(k0 + p) * N + col];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    if (row < M && col < N)\n"
        "        tc_st(out, row * N + col, acc);\n"
        "}\n";
    launches = plan("(N+15)/16", "16", "0");
    n = variants_derive(TC_STORE, launches, NULL, &v);
    o = find(v, n, "off-by-one");
    CHECK_MSG(o && strstr(o->source, "if (row <= M && col <= N)\n        tc_st") &&
                  strstr(o->source, "if (row < M && k0 + threadIdx.x < K)"),
              "%s", o ? o->source : "(no off-by-one)");
    variants_free(v, n);
    cJSON_Delete(launches);
    return 0;
}

/* The low-precision defect makes every zero-started double accumulator
 * float, not only the first: a log-sum-exp's partial sum of exponentials
 * comes first, and the log takes its error back under the tolerance, while
 * the mean over rows after it shows. */
TEST(variants_low_precision_every_accumulator)
{
    static const char LSE_MEAN[] =
        "extern \"C\" __global__ void lse_mean(const double *x, double *out, int n, int c)\n"
        "{\n"
        "    double total = 0;\n"
        "    for (int i = 0; i < n; i++) {\n"
        "        double sum = 0.0;\n"
        "        for (int j = 0; j < c; j++)\n"
        "            sum += exp(x[i * c + j]);\n"
        "        total += log(sum);\n"
        "    }\n"
        "    double scale = 1.0 / n;\n"
        "    out[0] = total * scale;\n"
        "}\n";
    cJSON *launches = plan("1", "1", "0");
    GenVariant *v = NULL;
    int n = variants_derive(LSE_MEAN, launches, NULL, &v);
    const GenVariant *lp = find(v, n, "low-precision-accumulation");
    CHECK_MSG(lp && strstr(lp->source, "    float total = 0.0f;\n") && strstr(lp->source, "        float sum = 0.0f;\n") &&
                  strstr(lp->source, "    double scale = 1.0 / n;\n") && strcmp(knob(lp, "expect"), "fail") == 0,
              "%s", lp ? lp->source : "(no low-precision-accumulation)");
    variants_free(v, n);
    cJSON_Delete(launches);
    return 0;
}

/* Only accumulators go float: a running max is compared, selected and
 * stored, never added to, so in float it only rounds the value it ends
 * with (by at most 2^-24 relative: spmm_csr row-maxabs-f64 passed every
 * config, large included), and a program whose only zero-started double is
 * such a max gets no low-precision defect.  A min that a recurrence then
 * adds to (DTW's cost table) carries its rounding on, and goes float. */
TEST(variants_low_precision_only_accumulators)
{
    static const char ROW_MAX[] =
        "extern \"C\" __global__ void row_max(const int *rp, const double *v, double *out, int rows)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= rows)\n"
        "        return;\n"
        "    double m = 0;\n"
        "    for (int p = rp[i]; p < rp[i + 1]; p++)\n"
        "        m = fabs(v[p]) > m ? fabs(v[p]) : m;\n"
        "    out[i] = m;\n"
        "}\n";
    cJSON *launches = plan("(rows+255)/256", "256", "0");
    GenVariant *v = NULL;
    int n = variants_derive(ROW_MAX, launches, NULL, &v);
    const GenVariant *lp = find(v, n, "low-precision-accumulation");
    CHECK_MSG(!lp, "a running max made float: %s", lp->source);
    variants_free(v, n);

    char *with_sum = xreplace_all(ROW_MAX, "    out[i] = m;\n",
                                  "    double s = 0.0;\n"
                                  "    for (int p = rp[i]; p < rp[i + 1]; p++)\n"
                                  "        s += v[p];\n"
                                  "    out[i] = s > m ? s : m;\n");
    n = variants_derive(with_sum, launches, NULL, &v);
    lp = find(v, n, "low-precision-accumulation");
    CHECK_MSG(lp && strstr(lp->source, "    double m = 0;\n") && strstr(lp->source, "    float s = 0.0f;\n"),
              "%s", lp ? lp->source : "(no low-precision-accumulation)");
    variants_free(v, n);
    free(with_sum);

    char *dtw = xreplace_all(ROW_MAX, "    out[i] = m;\n", "    out[i] = v[i] * v[i] + m;\n");
    n = variants_derive(dtw, launches, NULL, &v);
    lp = find(v, n, "low-precision-accumulation");
    CHECK_MSG(lp && strstr(lp->source, "    float m = 0.0f;\n"), "%s", lp ? lp->source : "(no low-precision-accumulation)");
    variants_free(v, n);
    free(dtw);
    cJSON_Delete(launches);
    return 0;
}

/* Reads program `prog`'s reference from the generated tree `root`: its
 * kernel.cu into *source and its launch plan's "launches" into *launches
 * (both the caller's to free).  Returns 0, or -1 with a failure recorded. */
static int read_reference(TestCtx *t, const char *root, const char *prog, char **source, cJSON **launches)
{
    char *kpath = xasprintf("%s/%s/kernel.cu", root, prog), *lpath = xasprintf("%s/%s/launch.json", root, prog);
    char *plan = NULL;
    Error e;
    *source = NULL;
    *launches = NULL;
    int rc = -1;
    if (file_read_all(kpath, 1 << 20, source, NULL, &e) != 0 || file_read_all(lpath, 1 << 20, &plan, NULL, &e) != 0) {
        test_fail(t, __FILE__, __LINE__, "%s: %s", prog, e.msg);
        goto done;
    }
    cJSON *root_json = cJSON_Parse(plan);
    *launches = cJSON_DetachItemFromObjectCaseSensitive(root_json, "launches");
    cJSON_Delete(root_json);
    if (!cJSON_IsArray(*launches)) {
        test_fail(t, __FILE__, __LINE__, "%s: no launches in %s", prog, lpath);
        goto done;
    }
    rc = 0;
done:
    free(plan);
    free(kpath);
    free(lpath);
    return rc;
}

/* Whether the bounds defects of source go where `missing` and `off` say:
 * `missing` is the guard line the missing-bounds-check drops (NULL: none
 * planted), `off` the line the off-by-one has instead of its guard (NULL:
 * none planted). */
static void check_bounds_defects(TestCtx *t, const char *what, const char *source, const cJSON *launches,
                                 const char *missing, const char *off)
{
    GenVariant *v = NULL;
    int n = variants_derive(source, launches, NULL, &v);
    const GenVariant *m = find(v, n, "missing-bounds-check"), *o = find(v, n, "off-by-one");
    if (missing)
        CHECK_MSG(m && strstr(source, missing) && !strstr(m->source, missing), "%s: missing-bounds-check should drop "
                  "\"%s\":\n%s", what, missing, m ? m->source : "(none planted)");
    else
        CHECK_MSG(!m, "%s: a missing-bounds-check that cannot show:\n%s", what, m->source);
    if (off)
        CHECK_MSG(o && strstr(o->source, off), "%s: off-by-one should read \"%s\":\n%s", what, off,
                  o ? o->source : "(none planted)");
    else
        CHECK_MSG(!o, "%s: an off-by-one that cannot show:\n%s", what, o->source);
    variants_free(v, n);
}

/* On real generated references, the bounds defects avoid guards whose loss
 * could never show, one case per rule: the guard of a zeroing kernel that
 * the grid covers exactly whatever the config (histogram rows-u8: to the
 * counting kernel; batched_gemm fixed-16x16-f32: none), a condition on no
 * thread's position (stencil3d's step count: to the thread guard; sssp's
 * distance test: none), an off-by-one whose extra write is overwritten
 * (frontier-compact's scan: the off-by-one to the compaction kernel), a
 * square's guard behind a triangle test (ger syr-upper), a chunk loop
 * clamped to the bound (search merge-path), a work filter inside a loop
 * that bounds its index (trisolve trsv-lower-trans); and a guard in a
 * helper no kernel calls (bce-none-f32's reference with the block_sum of
 * bce-mean-f32 put back, as the family once emitted it), whose families
 * now emit no such helper. */
TEST(variants_bounds_defects_never_vacuous)
{
    static const struct {
        const char *prog, *missing, *off;
    } CASES[] = {
        {"c/histogram/rows-u8", "    if (e >= (long long)r * c)\n", "if (e > (long long)r * c)\n"},
        {"c/batched_gemm/fixed-16x16-f32", NULL, NULL},
        {"c/stencil3d/heat-neumann-f64", "    if (x >= nx || y >= ny)\n", "    if (x > nx || y > ny)\n"},
        {"c/bfs_step/sssp-steps-f32", NULL, NULL},
        {"c/bfs_step/frontier-compact-i32", "        if (b < nblocks)\n", "    if (v > n)\n"},
        {"c/ger/syr-upper-f32", NULL, NULL},
        {"c/search/merge-path-f32", NULL, NULL},
        {"c/trisolve/trsv-lower-trans-f32", NULL, NULL},
    };
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family histogram --family batched_gemm "
                           "--family stencil3d --family bfs_step --family ger --family search --family trisolve "
                           "--family cross_entropy --family spmv_csr", t->tmpdir, bin);
    CHECK_MSG(st == 0 && out && strstr(out, "variants derived"), "%s", out ? out : "");
    free(out);
    free(bin);
    char *root = xasprintf("%s/g", t->tmpdir), *source = NULL, *helper = NULL;
    cJSON *launches = NULL, *helper_plan = NULL;
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        if (read_reference(t, root, CASES[c].prog, &source, &launches) == 0)
            check_bounds_defects(t, CASES[c].prog, source, launches, CASES[c].missing, CASES[c].off);
        free(source);
        cJSON_Delete(launches);
    }
    /* dead code: the family's helper back in front of the kernel */
    if (read_reference(t, root, "c/cross_entropy/bce-none-f32", &source, &launches) == 0 &&
        read_reference(t, root, "c/cross_entropy/bce-mean-f32", &helper, &helper_plan) == 0) {
        CHECK_MSG(!strstr(source, "block_sum"), "bce-none-f32 carries an unused block_sum:\n%s", source);
        const char *from = strstr(helper, "/* The sum of v over the block");
        const char *to = from ? strstr(from, "\n}\n") : NULL, *kernel = strstr(source, "extern \"C\"");
        CHECK_MSG(to && kernel, "no block_sum in bce-mean-f32 or no kernel in bce-none-f32");
        if (to && kernel) {
            char *dead = xasprintf("%.*s%.*s\n%s", (int)(kernel - source), source, (int)(to + 3 - from), from, kernel);
            check_bounds_defects(t, "bce-none-f32 with an unused block_sum", dead, launches,
                                 "    if (q < (long long)n * c) {\n", "    if (q <= (long long)n * c) {\n");
            free(dead);
        }
    }
    free(source);
    free(helper);
    cJSON_Delete(launches);
    cJSON_Delete(helper_plan);
    if (read_reference(t, root, "c/spmv_csr/csr-t-f32", &source, &launches) == 0)
        CHECK_MSG(!strstr(source, "warp_sum"), "csr-t-f32 carries an unused warp_sum:\n%s", source);
    free(source);
    cJSON_Delete(launches);
    free(root);
    return 0;
}

/* Every rewrite that plants a defect or claims a change does so in code a
 * launch runs.  Each reference below, real generated source, keeps every
 * such variant when its kernels run; with its kernels turned into helpers
 * that nothing calls, beside a launched kernel of its own that has none of
 * those features, it has none of them (torch references once carried an
 * unused block_max whose barriers took 56 missing-syncthreads). */
TEST(variants_only_in_code_that_runs)
{
    static const struct {
        const char *prog;
        const char *kinds[6];
    } CASES[] = {
        {"c/spmv_csr/csr-power-step-f64", {"missing-syncthreads", "non-atomic-accumulation",
                                           "low-precision-accumulation", "unroll-1", "register-spills", NULL}},
        {"c/pb_covariance/direct-rowmajor-f64-sample", {"missing-syncthreads", "bank-conflicts",
                                                        "low-precision-accumulation", "unroll-8", NULL}},
    };
    static const char *const DEAD_KINDS[] = {"missing-syncthreads", "missing-syncthreads-2", "missing-syncthreads-3",
                                             "non-atomic-accumulation", "bank-conflicts", "low-precision-accumulation",
                                             "unroll-1", "unroll-8", "unroll-32", "maxnreg-24",
                                             "partial-sums-64", "register-spills", "uncoalesced"};
    char *bin = test_bin_dir(), *out = NULL;
    if (!bin)
        SKIP("cannot find the binaries' folder");
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family spmv_csr --family pb_covariance", t->tmpdir,
                     bin);
    CHECK_MSG(st == 0 && out && strstr(out, "variants derived"), "%s", out ? out : "");
    free(out);
    free(bin);
    char *root = xasprintf("%s/g", t->tmpdir), *live = xreplace_all(ELEMENTWISE, "void scale(", "void k(");
    cJSON *live_plan = plan("(n+255)/256", "256", "0");
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        char *source = NULL;
        cJSON *launches = NULL;
        if (read_reference(t, root, CASES[c].prog, &source, &launches) == 0) {
            GenVariant *v = NULL;
            int n = variants_derive(source, launches, NULL, &v);
            for (int k = 0; CASES[c].kinds[k]; k++)
                CHECK_MSG(find(v, n, CASES[c].kinds[k]), "%s: no %s", CASES[c].prog, CASES[c].kinds[k]);
            variants_free(v, n);
            /* the same code, run by nothing */
            char *helpers = xreplace_all(source, "extern \"C\" __global__", "static __device__");
            char *dead = xasprintf("%s\n%s", helpers, live);
            n = variants_derive(dead, live_plan, NULL, &v);
            for (size_t k = 0; k < sizeof DEAD_KINDS / sizeof *DEAD_KINDS; k++)
                CHECK_MSG(!find(v, n, DEAD_KINDS[k]), "%s run by nothing: a %s:\n%s", CASES[c].prog, DEAD_KINDS[k],
                          find(v, n, DEAD_KINDS[k])->source);
            CHECK_MSG(find(v, n, "missing-bounds-check"), "%s run by nothing: the live kernel lost its defects",
                      CASES[c].prog);
            variants_free(v, n);
            free(dead);
            free(helpers);
        }
        free(source);
        cJSON_Delete(launches);
    }
    cJSON_Delete(live_plan);
    free(live);
    free(root);
    return 0;
}

/* Spill stores ptxas reported for source's kernels (bytes per thread,
 * summed), or -1 when it does not compile (the log in *log). */
static long long spill_stores(const char *source, const char *cache, int *max_regs, char **log)
{
    NvrtcResult r;
    Error e;
    long long sum = -1;
    *max_regs = 0;
    *log = NULL;
    if (nvrtc_compile_with(source, "sm_90", cache, NVRTC_PTXAS_INFO, &r, &e) == 0) {
        sum = 0;
        for (int i = 0; i < r.n_kernels; i++) {
            sum += r.kernels[i].spill_stores;
            if (r.kernels[i].registers > *max_regs)
                *max_regs = r.kernels[i].registers;
        }
    } else {
        *log = xstrdup(e.msg);
    }
    nvrtc_result_release(&r);
    return sum;
}

/* Register pressure: "unroll-32" (#pragma unroll 32 on the first loop) and
 * "maxnreg-24", the same with a __maxnreg__(24) cap on every kernel, a
 * correct candidate whose parent is unroll-32; and where a loop is a simple
 * sum, "partial-sums-64" (64 partial sums, unrolled) and "register-spills",
 * the same capped: the planted defect, parent partial-sums-64.  Only where
 * there is a loop and no __launch_bounds__; it compiles with NVRTC, and on
 * a real reference (an n-body summation) ptxas spills where the reference
 * and the parent do not. */
TEST(variants_register_spills)
{
    static const char LOOPED[] =
        "extern \"C\" __global__ void dot(const float *__restrict__ x, const float *__restrict__ y, float *out,\n"
        "                                 int n, int m)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n)\n"
        "        return;\n"
        "    float acc = 0;\n"
        "    for (int j = 0; j < m; j++)\n"
        "        acc += x[(long long)i * m + j] * y[j];\n"
        "    out[i] = acc;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__(256) fill(float *out, int n)\n"
        "{\n"
        "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
        "        out[i] = 0;\n"
        "}\n";
    cJSON *launches = plan("(n+255)/256", "256", "0");
    GenVariant *v = NULL;
    int n = variants_derive(LOOPED, launches, NULL, &v);
    const GenVariant *cap = find(v, n, "maxnreg-24"), *u32 = find(v, n, "unroll-32");
    CHECK_MSG(cap && strstr(cap->source, "extern \"C\" __global__ void __maxnreg__(24) dot(const float") &&
                  strstr(cap->source, "    #pragma unroll 32\n    for (int j = 0; j < m; j++)\n") &&
                  strstr(cap->source, "__global__ void __launch_bounds__(256) fill(") &&
                  !strstr(cap->source, "__maxnreg__(24) fill") && !strstr(cap->source, "__maxnreg__(24) __launch"),
              "%s", cap ? cap->source : "(no maxnreg-24)");
    CHECK(cap && strcmp(knob(cap, "expect"), "pass") == 0 && !cJSON_GetObjectItemCaseSensitive(cap->knobs, "defect") &&
          strcmp(knob(cap, "maxnreg"), "24") == 0 && strcmp(knob(cap, "unroll"), "32") == 0 &&
          strcmp(knob(cap, "parent"), "unroll-32") == 0);
    /* the parent: the same unrolling without the cap */
    char *uncapped = cap ? xreplace_all(cap->source, "__maxnreg__(24) ", "") : NULL;
    CHECK_MSG(u32 && uncapped && strcmp(u32->source, uncapped) == 0 && strcmp(knob(u32, "expect"), "pass") == 0 &&
                  strcmp(knob(u32, "unroll"), "32") == 0,
              "%s", u32 ? u32->source : "(no unroll-32)");
    free(uncapped);
    /* the planted defect: 64 partial sums, capped, beside its uncapped parent */
    const GenVariant *rs = find(v, n, "register-spills"), *sums = find(v, n, "partial-sums-64");
    CHECK_MSG(rs && strstr(rs->source, "__global__ void __maxnreg__(24) dot(") &&
                  strstr(rs->source, "        float acc_parts[64];\n") &&
                  strstr(rs->source, "            acc_parts[part_] += x[(long long)i * m + j] * y[j];\n") &&
                  strstr(rs->source, "            acc += x[(long long)i * m + j] * y[j];\n") &&
                  strstr(rs->source, "            acc += acc_parts[part_];\n"),
              "%s", rs ? rs->source : "(no register-spills)");
    CHECK(rs && strcmp(knob(rs, "defect"), "register-spills") == 0 && strcmp(knob(rs, "expect"), "slower") == 0 &&
          strcmp(knob(rs, "maxnreg"), "24") == 0 && strcmp(knob(rs, "partial_sums"), "64") == 0 &&
          strcmp(knob(rs, "parent"), "partial-sums-64") == 0 && strcmp(knob(rs, "trip_count"), "(m) - (0)") == 0);
    uncapped = rs ? xreplace_all(rs->source, "__maxnreg__(24) ", "") : NULL;
    CHECK_MSG(sums && uncapped && strcmp(sums->source, uncapped) == 0 && strcmp(knob(sums, "expect"), "pass") == 0 &&
                  strcmp(knob(sums, "partial_sums"), "64") == 0,
              "%s", sums ? sums->source : "(no partial-sums-64)");
    free(uncapped);
    char *cache = xasprintf("%s/nvrtc", t->tmpdir), *log = NULL;
    int regs = 0;
    if (rs && sums) {
        /* NVRTC takes the cap, ptxas keeps to it and spills the partial
         * sums, which the uncapped parent holds in registers */
        long long st = spill_stores(rs->source, cache, &regs, &log);
        CHECK_MSG(st >= 64 * 4 - 24 * 4 && regs <= 24, "spills %lld, %d registers: %s", st, regs, log ? log : "");
        free(log);
        st = spill_stores(sums->source, cache, &regs, &log);
        CHECK_MSG(st == 0 && regs > 64, "partial-sums-64: spills %lld, %d registers: %s", st, regs, log ? log : "");
        free(log);
    }
    /* the two attributes together are refused, which is why a bounded
     * kernel is left alone */
    static const char BOTH[] = "extern \"C\" __global__ void __launch_bounds__(256) __maxnreg__(24) k(float *y)\n"
                               "{\n    y[0] = 1;\n}\n";
    CHECK(spill_stores(BOTH, cache, &regs, &log) < 0 && log && strstr(log, "__maxnreg__"));
    free(log);
    variants_free(v, n);

    /* a sum at the top level of one kernel beside a nest of two in another:
     * the nest does the work, so the defect is not planted at all; with
     * the nest flattened the sum gets it */
    static const char NESTED[] =
        "extern \"C\" __global__ void means(const float *x, float *mu, int n, int m)\n"
        "{\n"
        "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (c >= m)\n"
        "        return;\n"
        "    float s = 0;\n"
        "    for (int r = 0; r < n; r++)\n"
        "        s += x[(long long)r * m + c];\n"
        "    mu[c] = s / n;\n"
        "}\n"
        "extern \"C\" __global__ void gram(const float *x, float *g, int n, int m)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;\n"
        "    if (i >= m)\n"
        "        return;\n"
        "    float acc = 0;\n"
        "    for (int r0 = 0; r0 < n; r0 += 512)\n"
        "        #pragma unroll 4\n"
        "        for (int r = r0; r < r0 + 512; r++)\n"
        "            acc += x[(long long)r * m + i] * x[(long long)r * m + j];\n"
        "    g[(long long)j * m + i] = acc;\n"
        "}\n";
    n = variants_derive(NESTED, launches, NULL, &v);
    CHECK_MSG(n > 0 && !find(v, n, "register-spills") && !find(v, n, "partial-sums-64") && find(v, n, "unroll-32"),
              "%d variants", n);
    variants_free(v, n);
    char *flat = xreplace_all(NESTED, "    for (int r0 = 0; r0 < n; r0 += 512)\n        #pragma unroll 4\n"
                                      "        for (int r = r0; r < r0 + 512; r++)\n            acc",
                              "    for (int r = 0; r < n; r++)\n        acc");
    n = variants_derive(flat, launches, NULL, &v);
    rs = find(v, n, "register-spills");
    CHECK_MSG(rs && strstr(rs->source, "float s_parts[64];") && !strstr(rs->source, "acc_parts"),
              "%s", rs ? rs->source : flat);
    variants_free(v, n);
    free(flat);

    /* every kernel bounded: nothing to cap; no loop: nothing to spill */
    static const char BOUNDED[] =
        "extern \"C\" __global__ void __launch_bounds__(256) fill(float *out, int n)\n"
        "{\n"
        "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
        "        out[i] = 0;\n"
        "}\n";
    n = variants_derive(BOUNDED, launches, NULL, &v);
    CHECK(n > 0 && !find(v, n, "register-spills") && !find(v, n, "maxnreg-24"));
    variants_free(v, n);
    n = variants_derive(ELEMENTWISE, launches, NULL, &v);
    CHECK(n > 0 && !find(v, n, "register-spills") && !find(v, n, "maxnreg-24"));
    variants_free(v, n);
    cJSON_Delete(launches);

    /* a real reference: one thread per body summing over all others */
    char *bin = test_bin_dir(), *out = NULL, *ref = NULL, *var = NULL;
    if (!bin) {
        free(cache);
        SKIP("cannot find the binaries' folder");
    }
    int st = test_sh(&out, "cd %s && %s/cudaperf-gen --out g --family nbody", t->tmpdir, bin);
    CHECK_MSG(st == 0, "%s", out ? out : "");
    free(out);
    char *dir = xasprintf("%s/g/c/nbody/acc-3d-soa-f32", t->tmpdir);
    char *ref_path = xasprintf("%s/kernel.cu", dir);
    char *var_path = xasprintf("%s/variants/register-spills/kernel.cu", dir);
    Error e;
    if (file_read_all(ref_path, 1 << 20, &ref, NULL, &e) == 0 &&
        file_read_all(var_path, 1 << 20, &var, NULL, &e) == 0) {
        long long ref_st = spill_stores(ref, cache, &regs, &log);
        CHECK_MSG(ref_st == 0 && regs > 24, "reference: spills %lld, %d registers: %s", ref_st, regs, log ? log : "");
        free(log);
        long long var_st = spill_stores(var, cache, &regs, &log);
        CHECK_MSG(var_st > 0 && regs <= 24, "register-spills: spills %lld, %d registers: %s", var_st, regs,
                  log ? log : "");
        free(log);
        /* its parent unrolls the same loop and keeps every value in registers */
        char *parent_path = xasprintf("%s/variants/partial-sums-16/kernel.cu", dir), *parent = NULL;
        if (file_read_all(parent_path, 1 << 20, &parent, NULL, &e) == 0) {
            long long parent_st = spill_stores(parent, cache, &regs, &log);
            CHECK_MSG(parent_st == 0 && regs > 24, "partial-sums-16: spills %lld, %d registers: %s", parent_st, regs,
                      log ? log : "");
            free(log);
        } else {
            CHECK_MSG(0, "%s", e.msg);
        }
        free(parent);
        free(parent_path);
    } else {
        CHECK_MSG(0, "%s", e.msg);
    }
    free(ref);
    free(var);
    free(ref_path);
    free(var_path);
    free(dir);
    free(bin);
    free(cache);
    return 0;
}

/* gen_partial_sums: the simple sum loops it takes (a braced body with two
 * accumulators declared in one list, a one-line body, "++j" and "j += 1"),
 * and the loops it leaves alone because the rewrite would be wrong or
 * would need a parser: a bound that reads the index ("k < t && k <= i"), a
 * bound or an index the body assigns, an accumulator read in the body or
 * updated twice, one not declared as a scalar before the loop, a nested
 * loop, a break, a barrier, a new name that is already taken. */
TEST(partial_sums_forms)
{
    static const char HEAD[] = "__global__ void k(const float *x, float *out, int n, int t, int i)\n{\n";
    static const struct {
        const char *body;
        int parts; /* 0: refused */
    } CASES[] = {
        {"    float sx = 0, sy = 0;\n    for (int j = 0; j < n; j++) {\n        float d = x[j];\n"
         "        sx += d;\n        sy += d * d;\n    }\n    out[0] = sx + sy;\n", 32},
        {"    double acc = 1;\n    for (long long j = i; j < n; ++j)\n        acc += x[j];\n    out[0] = acc;\n", 64},
        {"    int c = 0;\n    for (int j = 0; j < n; j += 1)\n        c += x[j] > 0;\n    out[0] = c;\n", 64},
        {"    float acc = 0;\n    for (int k = 0; k < t && k <= i; k++)\n        acc += x[k];\n    out[0] = acc;\n", 0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        acc += x[j];\n        n -= 1;\n    }\n", 0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        acc += x[j];\n        j += 1;\n    }\n", 0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        acc += x[j];\n        out[j] = acc;\n    }\n",
         0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        acc += x[j];\n        acc += 1;\n    }\n", 0},
        {"    for (int j = 0; j < n; j++)\n        out[0] += x[j];\n", 0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        for (int u = 0; u < 4; u++)\n"
         "            acc += x[j];\n    }\n",
         0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        if (x[j] < 0)\n            break;\n"
         "        acc += x[j];\n    }\n",
         0},
        {"    float acc = 0;\n    for (int j = 0; j < n; j++) {\n        acc += x[j];\n        __syncthreads();\n    }\n",
         0},
        {"    float acc = 0, part_ = 0;\n    for (int j = 0; j < n; j++)\n        acc += x[j];\n", 0},
    };
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        char *src = xasprintf("%s%s}\n", HEAD, CASES[c].body);
        const char *loop = strstr(src, "    for (");
        int parts = 0;
        char *trip = NULL;
        char *out = partial_sums_rewrite(src, (size_t)(loop - src), &parts, &trip);
        CHECK_MSG(CASES[c].parts ? out && parts == CASES[c].parts && trip : !out, "case %zu: %s", c,
                  out ? out : "(refused)");
        if (out) {
            /* the rewrite compiles as CUDA: NVRTC, no GPU */
            char *cache = xasprintf("%s/nvrtc", t->tmpdir), *log = NULL;
            char *kernel = xreplace_all(out, "__global__", "extern \"C\" __global__");
            int regs;
            CHECK_MSG(spill_stores(kernel, cache, &regs, &log) >= 0, "case %zu does not compile: %s\n%s", c,
                      log ? log : "", out);
            free(log);
            free(kernel);
            free(cache);
        }
        free(out);
        free(trip);
        free(src);
    }
    /* the trip count is the bound minus the start, as the problem's params say */
    char *src = xasprintf("%s%s}\n", HEAD, CASES[1].body), *trip = NULL;
    int parts = 0;
    char *out = partial_sums_rewrite(src, (size_t)(strstr(src, "    for (") - src), &parts, &trip);
    CHECK_MSG(trip && strcmp(trip, "(n) - (i)") == 0, "%s", trip ? trip : "(none)");
    free(out);
    free(trip);
    free(src);
    return 0;
}
