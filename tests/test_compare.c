/* Output comparison: tolerances, NaN/Inf rules, integer exactness, the first
 * bad index and the values there; input change detection. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "harness/compare.h"
#include "harness/inputs.h"
#include "tests/test.h"

TEST(compare_tolerance)
{
    float want[4] = {1.0f, -2.0f, 100.0f, 0.0f};
    float got[4] = {1.0f, -2.0f, 100.0f, 0.0f};
    CompareResult r;
    compare_buffers(DT_F32, got, want, 4, 1e-5, 1e-4, &r);
    CHECK(r.n == 4 && r.n_bad == 0 && r.first_bad == -1 && r.max_abs == 0 && r.max_rel == 0);
    /* within atol + rtol*|want|: 100 * 1e-4 + 1e-5 = 0.01001 */
    got[2] = 100.01f;
    compare_buffers(DT_F32, got, want, 4, 1e-5, 1e-4, &r);
    CHECK_MSG(r.n_bad == 0, "100.01 vs 100 should pass, max_abs %g", r.max_abs);
    CHECK(r.max_abs > 0.009 && r.max_abs < 0.011 && r.max_abs_index == 2);
    CHECK(fabs(r.max_rel - r.max_abs / 100.0) < 1e-9);
    /* just outside */
    got[2] = 100.02f;
    compare_buffers(DT_F32, got, want, 4, 1e-5, 1e-4, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 2 && r.got > 100.01 && r.want == 100.0);
    /* rtol is relative to the reference, not the candidate */
    double w1 = 1.0, g1 = 1.5;
    compare_buffers(DT_F64, &g1, &w1, 1, 0, 0.4, &r);
    CHECK(r.n_bad == 1);
    compare_buffers(DT_F64, &w1, &g1, 1, 0, 0.4, &r);
    CHECK(r.n_bad == 0);
    /* atol matters where the reference is zero; the first bad index is the first */
    got[2] = 100.0f;
    got[3] = 2e-5f;
    got[1] = -2.5f;
    compare_buffers(DT_F32, got, want, 4, 1e-5, 1e-4, &r);
    CHECK(r.n_bad == 2 && r.first_bad == 1 && r.got == -2.5 && r.want == -2.0);
    CHECK(isinf(r.max_rel)); /* 2e-5 against 0 */
    return 0;
}

TEST(compare_nan_inf)
{
    CompareResult r;
    float want[3] = {NAN, INFINITY, -INFINITY};
    float got[3] = {NAN, INFINITY, -INFINITY};
    compare_buffers(DT_F32, got, want, 3, 1, 1, &r);
    CHECK_MSG(r.n_bad == 0, "matching NaN/Inf must pass (%lld bad)", (long long)r.n_bad);
    got[1] = -INFINITY;
    compare_buffers(DT_F32, got, want, 3, 1, 1, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 1 && isinf(r.max_abs));
    got[1] = INFINITY;
    got[0] = 0.0f; /* the reference is NaN: the candidate must be too, however loose the tolerance */
    compare_buffers(DT_F32, got, want, 3, 1e30, 1e30, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 0);
    /* a poisoned (never written) element fails against a finite reference */
    float w2[2] = {1.0f, 2.0f}, g2[2] = {1.0f, 0.0f};
    inputs_poison(DT_F32, &g2[1], 1);
    compare_buffers(DT_F32, g2, w2, 2, 1e30, 1e30, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 1 && isnan(r.got));
    /* half precision goes through float */
    uint16_t hw[2] = {inputs_f32_to_f16(1.0f), inputs_f32_to_f16(NAN)};
    uint16_t hg[2] = {inputs_f32_to_f16(1.0f), inputs_f32_to_f16(NAN)};
    compare_buffers(DT_F16, hg, hw, 2, 1e-3, 1e-3, &r);
    CHECK(r.n_bad == 0);
    hg[0] = inputs_f32_to_f16(1.25f);
    compare_buffers(DT_F16, hg, hw, 2, 1e-3, 1e-3, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 0 && r.got == 1.25);
    return 0;
}

TEST(compare_integers_exact)
{
    CompareResult r;
    int32_t w[3] = {1, 2, 3}, g[3] = {1, 2, 3};
    compare_buffers(DT_I32, g, w, 3, 10, 10, &r);
    CHECK(r.n_bad == 0);
    g[2] = 4; /* exact when the tolerance is zero... */
    compare_buffers(DT_I32, g, w, 3, 0, 0, &r);
    CHECK(r.n_bad == 1 && r.first_bad == 2 && r.got == 4 && r.want == 3 && r.max_abs == 1);
    /* ...sub-unit tolerances (those of a float output beside it) change nothing... */
    compare_buffers(DT_I32, g, w, 3, 1e-3, 1e-4, &r);
    CHECK(r.n_bad == 1);
    /* ...and a declared integer tolerance (a quantiser's atol 1) is honoured. */
    compare_buffers(DT_I32, g, w, 3, 1, 0, &r);
    CHECK(r.n_bad == 0 && r.max_abs == 1);
    /* 64-bit values that a double cannot tell apart */
    uint64_t w64 = (1ULL << 60), g64 = (1ULL << 60) + 1;
    compare_buffers(DT_U64, &g64, &w64, 1, 0, 0, &r);
    CHECK(r.n_bad == 1);
    uint8_t bw[2] = {1, 0}, bg[2] = {1, 0};
    compare_buffers(DT_BOOL, bg, bw, 2, 0, 0, &r);
    CHECK(r.n_bad == 0);
    return 0;
}

TEST(compare_input_change)
{
    float before[4] = {1, 2, 3, 4}, after[4] = {1, 2, 3, 4};
    CHECK(compare_first_change(DT_F32, after, before, 4) == -1);
    after[2] = 0;
    CHECK(compare_first_change(DT_F32, after, before, 4) == 2);
    /* NaN inputs compare by bits, so an unchanged NaN is unchanged */
    before[0] = after[0] = NAN;
    after[2] = 3;
    CHECK(compare_first_change(DT_F32, after, before, 4) == -1);
    return 0;
}

/* The one-pass rule of compare.h, element by element: the oracle the
 * threaded, typed comparison must reproduce field for field. */
static void one_pass(DType t, const void *got, const void *want, int64_t n, double atol, double rtol,
                     CompareResult *r)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->first_bad = r->max_abs_index = -1;
    size_t size = dtype_size(t);
    for (int64_t i = 0; i < n; i++) {
        double g = inputs_get(t, got, i), w = inputs_get(t, want, i);
        int bad = 0;
        if (!dtype_is_float(t)) {
            if (memcmp((const char *)got + i * size, (const char *)want + i * size, size) == 0)
                continue;
            double d = fabs(g - w);
            if (d > r->max_abs || r->max_abs_index < 0)
                r->max_abs = d, r->max_abs_index = i;
            double rel = w != 0 ? d / fabs(w) : INFINITY;
            r->max_rel = rel > r->max_rel ? rel : r->max_rel;
            bad = !((atol > 0 || rtol > 0) && d <= atol + rtol * fabs(w));
        } else if (!isfinite(g) || !isfinite(w)) {
            if ((isnan(g) && isnan(w)) || (isinf(g) && isinf(w) && signbit(g) == signbit(w)))
                continue;
            r->max_abs = r->max_rel = INFINITY;
            r->max_abs_index = i;
            bad = 1;
        } else {
            double d = fabs(g - w);
            if (d > r->max_abs && isfinite(r->max_abs))
                r->max_abs = d, r->max_abs_index = i;
            double rel = w != 0 ? d / fabs(w) : (d != 0 ? INFINITY : 0);
            r->max_rel = rel > r->max_rel ? rel : r->max_rel;
            bad = !(d <= atol + rtol * fabs(w));
        }
        if (bad && r->n_bad++ == 0)
            r->first_bad = i, r->got = g, r->want = w;
    }
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* Buffers past the threshold where the comparison splits into threads,
 * with sparse errors of every kind (small, large, NaN, infinities) placed
 * so that the ranges' results must be merged in order. */
TEST(compare_threads_match_one_pass)
{
    const int64_t n = (1 << 22) + 12345;
    DType types[] = {DT_F32, DT_F64, DT_F16, DT_I32, DT_U8};
    uint64_t seed = 20261204;
    for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++)
        for (int pattern = 0; pattern < 4; pattern++) {
            DType dt = types[ti];
            size_t size = dtype_size(dt);
            unsigned char *want = xmalloc((size_t)n * size), *got = xmalloc((size_t)n * size);
            for (int64_t i = 0; i < n; i++) {
                double v = (double)(next_rand(&seed) % 2000) / 10.0 - 100.0;
                if (!dtype_is_float(dt))
                    v = (double)(next_rand(&seed) % 100);
                inputs_put(dt, want, i, v);
                inputs_put(dt, got, i, v);
            }
            /* errors: none (pattern 0), small ones everywhere (1), a few
             * large ones and non-finite values late in the buffer (2), a
             * NaN early then larger finite errors later (3) */
            for (int k = 0; k < (pattern == 0 ? 0 : 64); k++) {
                int64_t i = (int64_t)(next_rand(&seed) % (uint64_t)n);
                double w = inputs_get(dt, want, i);
                double v = pattern == 1 ? w + 0.01 * (k % 5) : w + (double)(k % 7) * 3.0;
                if (pattern == 2 && dtype_is_float(dt) && k % 9 == 0)
                    v = k % 2 ? INFINITY : NAN;
                inputs_put(dt, got, i, v);
            }
            if (pattern == 3 && dtype_is_float(dt)) {
                inputs_put(dt, got, 5, NAN);
                if (dt != DT_F64) {
                    inputs_put(dt, got, n - 3, -INFINITY);
                } else {
                    /* finite values whose difference overflows: past the
                     * NaN, the largest error's index must stay there */
                    inputs_put(dt, got, n - 100, 1.7e308);
                    inputs_put(dt, want, n - 100, -1.7e308);
                }
            }
            CompareResult a, b;
            compare_buffers(dt, got, want, n, 1e-3, 1e-3, &a);
            one_pass(dt, got, want, n, 1e-3, 1e-3, &b);
            CHECK_MSG(a.n == b.n && a.n_bad == b.n_bad && a.first_bad == b.first_bad &&
                          a.max_abs_index == b.max_abs_index &&
                          (a.max_abs == b.max_abs || (isnan(a.max_abs) && isnan(b.max_abs))) &&
                          a.max_rel == b.max_rel &&
                          (a.n_bad == 0 || ((a.got == b.got || (isnan(a.got) && isnan(b.got))) && a.want == b.want)),
                      "dtype %s pattern %d: threads %lld bad (first %lld), max abs %g at %lld, max rel %g; one pass "
                      "%lld bad (first %lld), max abs %g at %lld, max rel %g",
                      dtype_name(dt), pattern, (long long)a.n_bad, (long long)a.first_bad, a.max_abs,
                      (long long)a.max_abs_index, a.max_rel, (long long)b.n_bad, (long long)b.first_bad, b.max_abs,
                      (long long)b.max_abs_index, b.max_rel);
            free(want);
            free(got);
        }
    return 0;
}
