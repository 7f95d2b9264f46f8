/* stats.h — summary statistics of timing samples.
 *
 * Distribution-free, because kernel times are not normal (a long right
 * tail from clock changes and interference): the median, the quartiles
 * (linear interpolation between order statistics), and the spread of the
 * median, the half-width of its 95% confidence interval from order
 * statistics (ranks n/2 -+ 1.96 sqrt(n)/2) relative to the median.  The
 * timing loop samples until that spread is under its target. */
#ifndef CUDAPERF_STATS_H
#define CUDAPERF_STATS_H

typedef struct Summary {
    int n;
    double median, q1, q3, iqr, min, max;
    double spread; /* relative half-width of the median's 95% CI; +inf when n < 3 */
} Summary;

/* Summarises x[0..n) (not modified; n may be 0: everything NaN). */
Summary stats_summarise(const float *x, int n);

/* Spearman rank correlation of a and b (average ranks for ties); NaN when
 * n < 2 or a side is constant. */
double stats_spearman(const double *a, const double *b, int n);

#endif
