/* The deadline rule and the table of reference times it reads
 * (harness/deadline.h): 10x the reference's time + 1 s, capped; the
 * fallback where nothing is known; an explicit deadline over both; a better
 * source of a reference time over a worse one. */
#include <math.h>
#include <string.h>

#include "harness/deadline.h"
#include "tests/test.h"

static int near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

TEST(deadline_rule)
{
    char buf[256];
    /* a known reference time: 10x + 1 s */
    Deadline d = deadline_rule(0, 23.0, REF_TIME_TIMED);
    CHECK_MSG(near(d.seconds, 1.23) && d.kind == DEADLINE_REFERENCE && !d.capped, "%g", d.seconds);
    CHECK(deadline_ms(&d) == 1230);
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "1.230 s = 10x the reference's 23 ms (timed in this session) + 1 s") == 0, "%s", buf);
    d = deadline_rule(0, 0.0, REF_TIME_RUN);
    CHECK(near(d.seconds, 1.0) && d.kind == DEADLINE_REFERENCE);
    /* capped: a pathological stored figure cannot make a hang cost minutes */
    d = deadline_rule(0, 7200.0, REF_TIME_CATALOG);
    CHECK(near(d.seconds, DEADLINE_MAX_S) && d.capped && d.kind == DEADLINE_REFERENCE);
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strstr(buf, "7.2e+03 ms (stored result)") && strstr(buf, "capped at 60 s"), "%s", buf);
    d = deadline_rule(0, 5900.0, REF_TIME_CATALOG);
    CHECK(near(d.seconds, 60.0) && !d.capped);
    /* unknown: the fallback */
    d = deadline_rule(0, NAN, REF_TIME_NONE);
    CHECK(near(d.seconds, DEADLINE_FALLBACK_S) && d.kind == DEADLINE_FALLBACK && isnan(d.reference_ms));
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strstr(buf, "5.000 s, the default") != NULL, "%s", buf);
    CHECK(deadline_rule(0, -1.0, REF_TIME_RUN).kind == DEADLINE_FALLBACK);
    CHECK(deadline_rule(0, INFINITY, REF_TIME_RUN).kind == DEADLINE_FALLBACK);
    CHECK(deadline_rule(0, 3.0, REF_TIME_NONE).kind == DEADLINE_FALLBACK);
    /* a fallback widened: beyond the C reference's budget the most, else
     * from the C reference's one-core time, within 5 to 60 s */
    d = deadline_widen_fallback(deadline_rule(0, NAN, REF_TIME_NONE), NAN, 1);
    CHECK(near(d.seconds, DEADLINE_MAX_S) && d.kind == DEADLINE_FALLBACK);
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strstr(buf, "60.000 s, the most") && strstr(buf, "beyond the C reference's budget"), "%s", buf);
    d = deadline_widen_fallback(deadline_rule(0, NAN, REF_TIME_NONE), 1500.0, 0);
    CHECK_MSG(near(d.seconds, 16.0), "%g", d.seconds);
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strstr(buf, "16.000 s from the C reference's 1.5e+03 ms on one core") != NULL, "%s", buf);
    CHECK(near(deadline_widen_fallback(deadline_rule(0, NAN, REF_TIME_NONE), 20.0, 0).seconds, DEADLINE_FALLBACK_S));
    CHECK(near(deadline_widen_fallback(deadline_rule(0, NAN, REF_TIME_NONE), 19000.0, 0).seconds, DEADLINE_MAX_S));
    CHECK(near(deadline_widen_fallback(deadline_rule(0, NAN, REF_TIME_NONE), NAN, 0).seconds, DEADLINE_FALLBACK_S));
    /* a known reference time or a fixed deadline is never widened */
    CHECK(near(deadline_widen_fallback(deadline_rule(0, 23.0, REF_TIME_TIMED), 1500.0, 1).seconds, 1.23));
    CHECK(near(deadline_widen_fallback(deadline_rule(2.0, NAN, REF_TIME_NONE), 1500.0, 1).seconds, 2.0));
    /* explicit wins, over a known time and over the cap */
    d = deadline_rule(2.0, 23.0, REF_TIME_TIMED);
    CHECK(near(d.seconds, 2.0) && d.kind == DEADLINE_FIXED);
    CHECK(near(deadline_rule(120.0, NAN, REF_TIME_NONE).seconds, 120.0));
    deadline_describe(&d, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "2.000 s, fixed") == 0, "%s", buf);
    /* the protocol's milliseconds: never 0 */
    d = deadline_rule(1e-6, NAN, REF_TIME_NONE);
    CHECK(deadline_ms(&d) == 1);
    return 0;
}

TEST(deadline_reference_times)
{
    RefTimes *rt = ref_times_new();
    RefTimeSource src;
    CHECK(isnan(ref_times_get(rt, "c/a", "small", &src)) && src == REF_TIME_NONE);
    ref_times_note(rt, "c/a", "small", 40.0, REF_TIME_CATALOG);
    ref_times_note(rt, "c/a", "small", 30.0, REF_TIME_CATALOG); /* the latest stored one */
    CHECK(ref_times_get(rt, "c/a", "small", &src) == 30.0 && src == REF_TIME_CATALOG);
    /* a measurement of this session beats the catalog, a timed median a run */
    ref_times_note(rt, "c/a", "small", 2.0, REF_TIME_RUN);
    ref_times_note(rt, "c/a", "small", 50.0, REF_TIME_CATALOG);
    CHECK(ref_times_get(rt, "c/a", "small", &src) == 2.0 && src == REF_TIME_RUN);
    ref_times_note(rt, "c/a", "small", 1.5, REF_TIME_TIMED);
    ref_times_note(rt, "c/a", "small", 3.0, REF_TIME_RUN);
    CHECK(ref_times_get(rt, "c/a", "small", &src) == 1.5 && src == REF_TIME_TIMED);
    /* configs apart; nonsense ignored */
    ref_times_note(rt, "c/a", "large", NAN, REF_TIME_RUN);
    ref_times_note(rt, "c/a", "large", -1.0, REF_TIME_RUN);
    ref_times_note(rt, "c/a", "large", 9.0, REF_TIME_NONE);
    CHECK(isnan(ref_times_get(rt, "c/a", "large", &src)) && src == REF_TIME_NONE);
    ref_times_note(rt, "c/a", "large", 9.0, REF_TIME_RUN);
    CHECK(ref_times_get(rt, "c/a", "large", &src) == 9.0);
    /* one program at a time: another's figure empties the table */
    CHECK(isnan(ref_times_get(rt, "c/b", "small", &src)));
    ref_times_note(rt, "c/b", "small", 4.0, REF_TIME_CATALOG);
    CHECK(ref_times_get(rt, "c/b", "small", &src) == 4.0);
    CHECK(isnan(ref_times_get(rt, "c/a", "small", &src)) && src == REF_TIME_NONE);
    ref_times_free(rt);
    ref_times_free(NULL);
    return 0;
}
