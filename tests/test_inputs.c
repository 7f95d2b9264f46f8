/* Inputs: deterministic per (seed, argument), within the declared ranges,
 * partitions and sorted fills well formed; half/bfloat16 rounding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "harness/inputs.h"
#include "tests/test.h"

TEST(inputs_fills)
{
    const char *meta =
        "{\"name\": \"c/t/fills\", \"lang\": \"c\", \"family\": \"t\", \"entry\": \"f\", \"params\": [\"n\", \"nnz\"],"
        " \"args\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"uniform\", \"lo\": 2, \"hi\": 3}},"
        "            {\"name\": \"idx\", \"dtype\": \"i32\", \"shape\": [\"nnz\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"int\", \"lo\": 0, \"hi\": \"n\"}},"
        "            {\"name\": \"ptr\", \"dtype\": \"i32\", \"shape\": [\"n+1\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"partition\", \"total\": \"nnz\"}},"
        "            {\"name\": \"keys\", \"dtype\": \"f64\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"uniform\", \"lo\": -5, \"hi\": 5, \"sorted\": true}},"
        "            {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
        "            {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"},"
        "            {\"name\": \"nnz\", \"dtype\": \"i32\", \"role\": \"param\"}],"
        " \"configs\": [{\"name\": \"small\", \"n\": 1000, \"nnz\": 5000}, {\"name\": \"edge\", \"n\": 1, \"nnz\": 1},"
        "              {\"name\": \"large\", \"n\": 100000, \"nnz\": 1000000}],"
        " \"tolerance\": {\"atol\": 0, \"rtol\": 0}, \"cost\": {\"flops\": \"n\", \"bytes\": \"n\"},"
        " \"provenance\": {\"license\": \"CC-BY-4.0\"}}";
    Problem *p = NULL;
    Error e;
    CHECK_MSG(problem_parse(meta, "fills", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return -1;
    const ProblemConfig *c = problem_find_config(p, "small");
    float x[1000], x2[1000], x3[1000];
    int32_t idx[5000], ptr[1001];
    double keys[1000];
    CHECK(inputs_fill(p, c, &p->args[0], 7, x, 1000, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[0], 7, x2, 1000, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[0], 8, x3, 1000, &e) == 0);
    CHECK(memcmp(x, x2, sizeof x) == 0);
    CHECK(memcmp(x, x3, sizeof x) != 0);
    double mean = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(x[i] >= 2.0f && x[i] <= 3.0f);
        mean += x[i] / 1000.0;
    }
    CHECK_MSG(fabs(mean - 2.5) < 0.05, "mean %g", mean);
    CHECK(inputs_fill(p, c, &p->args[1], 7, idx, 5000, &e) == 0);
    int lo = 1 << 30, hi = -1;
    for (int i = 0; i < 5000; i++) {
        lo = idx[i] < lo ? idx[i] : lo;
        hi = idx[i] > hi ? idx[i] : hi;
    }
    CHECK(lo == 0 && hi == 999);
    CHECK(inputs_fill(p, c, &p->args[2], 7, ptr, 1001, &e) == 0);
    CHECK(ptr[0] == 0 && ptr[1000] == 5000);
    for (int i = 0; i < 1000; i++)
        CHECK(ptr[i] <= ptr[i + 1]);
    CHECK(inputs_fill(p, c, &p->args[3], 7, keys, 1000, &e) == 0);
    for (int i = 0; i + 1 < 1000; i++)
        CHECK(keys[i] <= keys[i + 1]);
    float poison[4];
    inputs_poison(DT_F32, poison, 4);
    CHECK(isnan(poison[0]) && isnan(poison[3]));
    problem_free(p);
    return 0;
}

TEST(inputs_half_rounding)
{
    CHECK(inputs_f32_to_f16(1.0f) == 0x3c00);
    CHECK(inputs_f32_to_f16(-2.0f) == 0xc000);
    CHECK(inputs_f32_to_f16(65504.0f) == 0x7bff);
    CHECK(inputs_f32_to_f16(1e6f) == 0x7c00);               /* overflow to inf */
    CHECK(inputs_f32_to_f16(5.960464477539063e-08f) == 0x0001); /* smallest subnormal */
    CHECK(inputs_f32_to_f16(1.0f + 1.0f / 2048) == 0x3c00);  /* tie to even: down */
    CHECK(inputs_f32_to_f16(1.0f + 3.0f / 2048) == 0x3c02);  /* tie to even: up */
    CHECK(inputs_f16_to_f32(0x3555) == 0.333251953125f);
    CHECK(inputs_f32_to_bf16(1.0f) == 0x3f80);
    CHECK(inputs_f32_to_bf16(1.00390625f) == 0x3f80);         /* tie to even */
    CHECK(inputs_f32_to_bf16(1.01171875f) == 0x3f82);
    CHECK(inputs_bf16_to_f32(0x4049) == 3.140625f);
    for (int i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        float f = inputs_f16_to_f32(h);
        if (isnan(f))
            continue;
        CHECK_MSG(inputs_f32_to_f16(f) == h, "f16 0x%04x does not round-trip", i);
        if (inputs_f32_to_f16(f) != h)
            break;
    }
    return 0;
}

#include <curand.h>

TEST(inputs_philox_matches_curand)
{
    /* Our Philox words must be cuRAND's host-generator words, bit for bit,
     * across seeds and offsets (including ones that are not multiples of 4
     * and ones past a subsequence wrap). */
    static const uint64_t seeds[] = {0x123456789abcdefULL, 42, 20261202};
    static const unsigned long long offsets[] = {0, 7, 262147, (1ULL << 40) + 3};
    const size_t n = 300000;
    uint32_t *u = xmalloc(n * sizeof *u);
    curandGenerator_t g;
    if (curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS) {
        free(u);
        SKIP("cannot create cuRAND's host generator");
    }
    long bad = 0;
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++)
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
            curandSetPseudoRandomGeneratorSeed(g, seeds[s]);
            curandSetGeneratorOffset(g, offsets[o]);
            CHECK(curandGenerate(g, u, n) == CURAND_STATUS_SUCCESS);
            for (size_t i = 0; i < n; i++)
                bad += u[i] != inputs_philox_word(seeds[s], offsets[o] + i);
        }
    CHECK_MSG(bad == 0, "%ld words differ from cuRAND", bad);
    curandDestroyGenerator(g);
    free(u);
    return 0;
}

/* A large uniform fill is made by several threads: every element is still
 * word i of the argument's Philox stream, transformed as for one thread
 * (f32 through the block-at-a-time path, f64 and i32 through the general
 * one), whatever the split.  The count is odd so the last block is partial. */
TEST(inputs_large_uniform_fill_is_the_stream)
{
    const char *meta =
        "{\"name\": \"c/t/big\", \"lang\": \"c\", \"family\": \"t\", \"entry\": \"f\", \"params\": [\"n\"],"
        " \"args\": [{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"uniform\", \"lo\": -3, \"hi\": 5}},"
        "            {\"name\": \"d\", \"dtype\": \"f64\", \"shape\": [\"n\"], \"role\": \"in\"},"
        "            {\"name\": \"k\", \"dtype\": \"i32\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"uniform\", \"lo\": -100, \"hi\": 100}},"
        "            {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
        "            {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"}],"
        " \"configs\": [{\"name\": \"small\", \"n\": 3}, {\"name\": \"edge\", \"n\": 1},"
        "              {\"name\": \"large\", \"n\": 3000001}],"
        " \"tolerance\": {\"atol\": 0, \"rtol\": 0}, \"cost\": {\"flops\": \"n\", \"bytes\": \"n\"},"
        " \"provenance\": {\"license\": \"CC-BY-4.0\"}}";
    Problem *p = NULL;
    Error e;
    CHECK_MSG(problem_parse(meta, "big", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return -1;
    const int64_t n = 3000001;
    const ProblemConfig *c = problem_find_config(p, "large");
    float *x = xmalloc(sizeof(float) * n);
    double *d = xmalloc(sizeof(double) * n);
    int32_t *k = xmalloc(sizeof(int32_t) * n);
    CHECK(inputs_fill(p, c, &p->args[0], 11, x, n, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[1], 11, d, n, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[2], 11, k, n, &e) == 0);
    uint64_t sx = inputs_stream_seed(11, "x"), sd = inputs_stream_seed(11, "d"), sk = inputs_stream_seed(11, "k");
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 5; i += (i < 4096 || i > n - 4096) ? 1 : 997) {
        double ux = ((double)inputs_philox_word(sx, (uint64_t)i) + 0.5) / 4294967296.0;
        double ud = ((double)inputs_philox_word(sd, (uint64_t)i) + 0.5) / 4294967296.0;
        double uk = ((double)inputs_philox_word(sk, (uint64_t)i) + 0.5) / 4294967296.0;
        if (x[i] != (float)(-3.0 + 8.0 * ux) || d[i] != -1.0 + 2.0 * ud || k[i] != (int32_t)floor(-100.0 + 200.0 * uk)) {
            bad++;
            CHECK_MSG(0, "element %lld: %.9g %.17g %d", (long long)i, x[i], d[i], k[i]);
        }
    }
    free(x);
    free(d);
    free(k);
    problem_free(p);
    return 0;
}

/* Buffers past the size from which several threads poison them (uneven
 * ranges): every element must hold the pattern, the last one too. */
TEST(inputs_poison_large_buffers)
{
    DType types[] = {DT_F32, DT_F16, DT_F64, DT_I32};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        DType dt = types[k];
        size_t size = dtype_size(dt);
        int64_t count = (int64_t)((64 << 20) / size) + 3;
        unsigned char *buf = xmalloc((size_t)count * size);
        memset(buf, 0, (size_t)count * size);
        inputs_poison(dt, buf, count);
        unsigned char one[8];
        inputs_poison(dt, one, 1);
        CHECK(dtype_is_float(dt) ? isnan(inputs_get(dt, buf, 0)) : buf[0] == 0xA5);
        int64_t wrong = -1;
        for (int64_t i = 0; i < count && wrong < 0; i++)
            if (memcmp(buf + (size_t)i * size, one, size) != 0)
                wrong = i;
        CHECK_MSG(wrong < 0, "%s: element %lld of %lld is not the poison pattern", dtype_name(dt), (long long)wrong,
                  (long long)count);
        free(buf);
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Integer fills and partitions past the size from which several threads
 * draw them (and the partition is radix-sorted): every element is what
 * one thread drawing word after word and qsort give, for a range of one
 * word per element (below 2^32) and of two. */
TEST(inputs_large_int_fills_are_the_stream)
{
    const char *meta =
        "{\"name\": \"c/t/ints\", \"lang\": \"c\", \"family\": \"t\", \"entry\": \"f\", \"params\": [\"n\", \"m\"],"
        " \"args\": [{\"name\": \"idx\", \"dtype\": \"i32\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"int\", \"lo\": -7, \"hi\": \"m\"}},"
        "            {\"name\": \"wide\", \"dtype\": \"i64\", \"shape\": [\"n\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"int\", \"lo\": 0, \"hi\": \"m*m\"}},"
        "            {\"name\": \"ptr\", \"dtype\": \"i32\", \"shape\": [\"n+1\"], \"role\": \"in\","
        "             \"fill\": {\"dist\": \"partition\", \"total\": \"4*n\"}},"
        "            {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
        "            {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"},"
        "            {\"name\": \"m\", \"dtype\": \"i32\", \"role\": \"param\"}],"
        " \"configs\": [{\"name\": \"small\", \"n\": 3, \"m\": 5}, {\"name\": \"edge\", \"n\": 1, \"m\": 1},"
        "              {\"name\": \"large\", \"n\": 3000001, \"m\": 4000000}],"
        " \"tolerance\": {\"atol\": 0, \"rtol\": 0}, \"cost\": {\"flops\": \"n\", \"bytes\": \"n\"},"
        " \"provenance\": {\"license\": \"CC-BY-4.0\"}}";
    Problem *p = NULL;
    Error e;
    CHECK_MSG(problem_parse(meta, "ints", &p, &e) == 0, "%s", e.msg);
    if (!p)
        return -1;
    const int64_t n = 3000001, m = 4000000;
    const ProblemConfig *c = problem_find_config(p, "large");
    int32_t *idx = xmalloc(sizeof(int32_t) * n), *ptr = xmalloc(sizeof(int32_t) * (n + 1));
    int64_t *wide = xmalloc(sizeof(int64_t) * n);
    uint64_t *cuts = xmalloc(sizeof(uint64_t) * (n + 1));
    CHECK(inputs_fill(p, c, &p->args[0], 5, idx, n, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[1], 5, wide, n, &e) == 0);
    CHECK(inputs_fill(p, c, &p->args[2], 5, ptr, n + 1, &e) == 0);
    uint64_t si = inputs_stream_seed(5, "idx"), sw = inputs_stream_seed(5, "wide"), sp = inputs_stream_seed(5, "ptr");
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 5; i++) {
        int64_t want = -7 + (int64_t)(((uint64_t)inputs_philox_word(si, (uint64_t)i) * (uint64_t)(m + 7)) >> 32);
        if (idx[i] != want) {
            bad++;
            CHECK_MSG(0, "idx[%lld] = %d, the stream gives %lld", (long long)i, idx[i], (long long)want);
        }
        /* m * m is past 2^32: two words an element, the first the high one */
        uint64_t two = (uint64_t)inputs_philox_word(sw, 2 * (uint64_t)i) << 32 | inputs_philox_word(sw, 2 * (uint64_t)i + 1);
        if (wide[i] != (int64_t)(two % ((uint64_t)m * m))) {
            bad++;
            CHECK_MSG(0, "wide[%lld] = %lld, the stream gives %llu", (long long)i, (long long)wide[i],
                      (unsigned long long)(two % ((uint64_t)m * m)));
        }
    }
    for (int64_t i = 0; i <= n; i++)
        cuts[i] = ((uint64_t)inputs_philox_word(sp, (uint64_t)i) * (uint64_t)(4 * n + 1)) >> 32;
    qsort(cuts, (size_t)n + 1, sizeof *cuts, cmp_u64);
    cuts[0] = 0;
    cuts[n] = 4 * n;
    for (int64_t i = 0; i <= n && bad < 5; i++)
        if ((uint64_t)ptr[i] != cuts[i]) {
            bad++;
            CHECK_MSG(0, "ptr[%lld] = %d, sorted draws give %llu", (long long)i, ptr[i], (unsigned long long)cuts[i]);
        }
    free(idx);
    free(ptr);
    free(wide);
    free(cuts);
    problem_free(p);
    return 0;
}

static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorted fills (radix-sorted keys for 32- and 64-bit elements) hold the
 * same values as the unsorted fill of the same argument, in qsort's
 * order, negative and positive alike. */
TEST(inputs_sorted_fills_are_the_sorted_stream)
{
    static const char *const TYPES[] = {"f32", "i32", "f64", "i64", "u32"};
    for (int k = 0; k < 5; k++) {
        int is_float = TYPES[k][0] == 'f', is_unsigned = TYPES[k][0] == 'u';
        char *metas[2];
        for (int sorted = 0; sorted < 2; sorted++)
            metas[sorted] = xasprintf(
                "{\"name\": \"c/t/sorted\", \"lang\": \"c\", \"family\": \"t\", \"entry\": \"f\", \"params\": [\"n\"],"
                " \"args\": [{\"name\": \"keys\", \"dtype\": \"%s\", \"shape\": [\"n\"], \"role\": \"in\","
                "             \"fill\": {\"dist\": \"%s\", \"lo\": %s, \"hi\": 1000000%s}},"
                "            {\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [\"n\"], \"role\": \"out\"},"
                "            {\"name\": \"n\", \"dtype\": \"i32\", \"role\": \"param\"}],"
                " \"configs\": [{\"name\": \"small\", \"n\": 3}, {\"name\": \"edge\", \"n\": 1},"
                "              {\"name\": \"large\", \"n\": 2000003}],"
                " \"tolerance\": {\"atol\": 0, \"rtol\": 0}, \"cost\": {\"flops\": \"n\", \"bytes\": \"n\"},"
                " \"provenance\": {\"license\": \"CC-BY-4.0\"}}",
                TYPES[k], is_float ? "uniform" : "int", is_unsigned ? "0" : "-1000000", sorted ? ", \"sorted\": true" : "");
        Problem *plain = NULL, *sorted = NULL;
        Error e;
        CHECK_MSG(problem_parse(metas[0], "plain", &plain, &e) == 0, "%s", e.msg);
        CHECK_MSG(problem_parse(metas[1], "sorted", &sorted, &e) == 0, "%s", e.msg);
        free(metas[0]);
        free(metas[1]);
        if (!plain || !sorted) {
            problem_free(plain);
            problem_free(sorted);
            return -1;
        }
        const int64_t n = 2000003;
        size_t size = dtype_size(plain->args[0].dtype);
        void *a = xmalloc(size * n), *b = xmalloc(size * n);
        double *want = xmalloc(sizeof(double) * n);
        CHECK(inputs_fill(plain, problem_find_config(plain, "large"), &plain->args[0], 3, a, n, &e) == 0);
        CHECK(inputs_fill(sorted, problem_find_config(sorted, "large"), &sorted->args[0], 3, b, n, &e) == 0);
        int negatives = 0;
        for (int64_t i = 0; i < n; i++) {
            want[i] = inputs_get(plain->args[0].dtype, a, i);
            negatives += want[i] < 0;
        }
        qsort(want, (size_t)n, sizeof *want, cmp_f64);
        int bad = 0;
        for (int64_t i = 0; i < n && bad < 3; i++)
            if (inputs_get(sorted->args[0].dtype, b, i) != want[i]) {
                bad++;
                CHECK_MSG(0, "%s: element %lld is %.17g, qsort gives %.17g", TYPES[k], (long long)i,
                          inputs_get(sorted->args[0].dtype, b, i), want[i]);
            }
        CHECK_MSG(is_unsigned || negatives > n / 3, "%s: %d negative values", TYPES[k], negatives);
        free(a);
        free(b);
        free(want);
        problem_free(plain);
        problem_free(sorted);
    }
    return 0;
}
