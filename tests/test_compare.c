/* Output comparison: tolerances, NaN/Inf rules, integer exactness, the first
 * bad index and the values there; input change detection. */
#include <math.h>
#include <stdint.h>
#include <string.h>

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
