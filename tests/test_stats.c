/* test_stats.c — timing statistics and the TIME request's encoding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/stats.h"
#include "harness/worker_protocol.h"
#include "tests/test.h"

TEST(stats_summary)
{
    float x[] = {5, 1, 4, 2, 3};
    Summary s = stats_summarise(x, 5);
    CHECK(s.n == 5 && s.median == 3 && s.min == 1 && s.max == 5);
    CHECK(s.q1 == 2 && s.q3 == 4 && s.iqr == 2);
    CHECK(x[0] == 5); /* input untouched */
    float even[] = {1, 2, 3, 4};
    CHECK(stats_summarise(even, 4).median == 2.5);
    CHECK(isnan(stats_summarise(x, 0).median));
    CHECK(isinf(stats_summarise(x, 2).spread));
    /* the spread shrinks with more samples of the same distribution, and
     * is zero for identical samples */
    float same[50];
    for (int i = 0; i < 50; i++)
        same[i] = 1.0f;
    CHECK(stats_summarise(same, 50).spread == 0);
    float *noisy = malloc(sizeof *noisy * 4000);
    unsigned r = 12345;
    for (int i = 0; i < 4000; i++) {
        r = r * 1103515245u + 12345u;
        noisy[i] = 1.0f + (float)((r >> 8) % 1000) / 10000.0f; /* 1.0 .. 1.1 */
    }
    double s20 = stats_summarise(noisy, 20).spread, s4000 = stats_summarise(noisy, 4000).spread;
    CHECK_MSG(s4000 < s20 && s4000 < 0.01 && s20 > 0.005, "spread 20: %g, 4000: %g", s20, s4000);
    free(noisy);
    return 0;
}

TEST(stats_spearman)
{
    double a[] = {1, 2, 3, 4, 5}, b[] = {10, 20, 30, 40, 50}, c[] = {5, 4, 3, 2, 1}, d[] = {1, 1, 1, 1, 1};
    CHECK(fabs(stats_spearman(a, b, 5) - 1) < 1e-12);
    CHECK(fabs(stats_spearman(a, c, 5) + 1) < 1e-12);
    CHECK(isnan(stats_spearman(a, d, 5)));
    double t1[] = {1, 2, 2, 3}, t2[] = {1, 2, 3, 4};
    double rho = stats_spearman(t1, t2, 4);
    CHECK_MSG(rho > 0.9 && rho < 1, "ties: %g", rho);
    return 0;
}

TEST(worker_protocol_time_roundtrip)
{
    WpTimeRequest q;
    memset(&q, 0, sizeof q);
    q.n_plans = 2;
    q.slot[1] = 1;
    for (int p = 0; p < 2; p++) {
        q.plans[p].repeats = 1;
        q.plans[p].deadline_ms = 100;
        q.plans[p].n_launches = 1;
        q.plans[p].launches = calloc(1, sizeof(WpLaunch));
        strcpy(q.plans[p].launches[0].kernel, p ? "base" : "cand");
        for (int d = 0; d < 3; d++)
            q.plans[p].launches[0].grid[d] = q.plans[p].launches[0].block[d] = 1;
    }
    q.n_restore = 1;
    q.restore[0] = 2;
    q.tp = (WpTimingParams){256, 10, 100, 0.01f, 0.5f, 0.1f, 10.0f, 3, 5, 0.75f, 5000};
    WpBuf b = {0};
    wp_encode_time(&b, &q);
    WpTimeRequest d;
    Error e;
    CHECK(wp_decode_time(b.data, b.len, 3, &d, &e) == 0);
    CHECK(d.n_plans == 2 && d.slot[1] == 1 && strcmp(d.plans[1].launches[0].kernel, "base") == 0);
    CHECK(d.n_restore == 1 && d.restore[0] == 2 && d.tp.flush_mib == 256 && d.tp.min_time_s == 0.1f);
    wp_time_request_release(&d);
    /* a restore index past the buffers, and a truncated request, are refused */
    CHECK(wp_decode_time(b.data, b.len, 2, &d, &e) != 0);
    CHECK(wp_decode_time(b.data, b.len - 3, 3, &d, &e) != 0);
    wp_buf_release(&b);
    for (int p = 0; p < 2; p++)
        free(q.plans[p].launches);

    WpTimeResult r;
    memset(&r, 0, sizeof r);
    r.n_plans = 1;
    float ms[] = {1.5f, 1.25f};
    r.plans[0].n = 2;
    r.plans[0].ms = ms;
    r.plans[0].dropped = 1;
    r.plans[0].cupti_ms = NAN;
    r.clock_max_mhz = 1980;
    strcpy(r.note, "CUPTI unavailable");
    wp_encode_time_result(&b, &r);
    WpReader in;
    wp_reader_init(&in, b.data, b.len);
    WpTimeResult got;
    CHECK(wp_decode_time_result(&in, &got, &e) == 0);
    CHECK(got.plans[0].n == 2 && got.plans[0].ms[1] == 1.25f && got.plans[0].dropped == 1);
    CHECK(isnan(got.plans[0].cupti_ms) && got.clock_max_mhz == 1980 && strcmp(got.note, "CUPTI unavailable") == 0);
    wp_time_result_release(&got);
    wp_buf_release(&b);
    return 0;
}
