#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted s[0..n) by linear interpolation. */
static double quantile(const float *s, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return s[lo] + (pos - lo) * (s[hi] - s[lo]);
}

Summary stats_summarise(const float *x, int n)
{
    Summary s;
    memset(&s, 0, sizeof s);
    s.n = n;
    if (n <= 0) {
        s.median = s.q1 = s.q3 = s.iqr = s.min = s.max = s.spread = NAN;
        return s;
    }
    float *v = xmalloc(sizeof *v * (size_t)n);
    memcpy(v, x, sizeof *v * (size_t)n);
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    s.min = v[0];
    s.max = v[n - 1];
    s.median = quantile(v, n, 0.5);
    s.q1 = quantile(v, n, 0.25);
    s.q3 = quantile(v, n, 0.75);
    s.iqr = s.q3 - s.q1;
    if (n < 3 || s.median <= 0) {
        s.spread = INFINITY;
    } else {
        double h = 1.96 * sqrt((double)n) / 2.0;
        int lo = (int)floor(n / 2.0 - h), hi = (int)ceil(n / 2.0 + h);
        if (lo < 0)
            lo = 0;
        if (hi > n - 1)
            hi = n - 1;
        s.spread = (v[hi] - v[lo]) / (2.0 * s.median);
    }
    free(v);
    return s;
}

typedef struct Ranked {
    double v;
    int i;
} Ranked;

static int cmp_ranked(const void *a, const void *b)
{
    double x = ((const Ranked *)a)->v, y = ((const Ranked *)b)->v;
    return (x > y) - (x < y);
}

static void ranks(const double *x, int n, double *r)
{
    Ranked *t = xmalloc(sizeof *t * (size_t)n);
    for (int i = 0; i < n; i++)
        t[i] = (Ranked){x[i], i};
    qsort(t, (size_t)n, sizeof *t, cmp_ranked);
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && t[j + 1].v == t[i].v)
            j++;
        for (int k = i; k <= j; k++)
            r[t[k].i] = (i + j) / 2.0 + 1.0;
        i = j + 1;
    }
    free(t);
}

double stats_spearman(const double *a, const double *b, int n)
{
    if (n < 2)
        return NAN;
    double *ra = xmalloc(sizeof *ra * (size_t)n), *rb = xmalloc(sizeof *rb * (size_t)n);
    ranks(a, n, ra);
    ranks(b, n, rb);
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) {
        ma += ra[i];
        mb += rb[i];
    }
    ma /= n;
    mb /= n;
    for (int i = 0; i < n; i++) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    free(ra);
    free(rb);
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : NAN;
}
