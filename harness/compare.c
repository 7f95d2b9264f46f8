#include "compare.h"

#include <math.h>
#include <string.h>

#include "common/parallel.h"
#include "harness/inputs.h"

/* The running result of one range of a comparison, plus what merging
 * ranges in order needs: the last element at which a non-finite value
 * mismatched (-1: none), which is where max_abs_index points once max_abs
 * is infinite. */
typedef struct RangeResult {
    CompareResult r;
    int64_t last_nonfinite;
} RangeResult;

static void note_bad(CompareResult *r, int64_t i, double got, double want)
{
    if (r->n_bad++ == 0) {
        r->first_bad = i;
        r->got = got;
        r->want = want;
    }
}

/* One float element (f16 and bf16 widened): the rules of compare.h. */
static inline void step_float(RangeResult *rr, int64_t i, double g, double w, double atol, double rtol)
{
    CompareResult *r = &rr->r;
    if (!isfinite(g) || !isfinite(w)) {
        int same = (isnan(g) && isnan(w)) || (isinf(g) && isinf(w) && signbit(g) == signbit(w));
        if (!same) {
            r->max_abs = INFINITY;
            r->max_abs_index = i;
            r->max_rel = INFINITY;
            rr->last_nonfinite = i;
            note_bad(r, i, g, w);
        }
        return;
    }
    double d = fabs(g - w);
    if (d > r->max_abs && isfinite(r->max_abs))
        r->max_abs = d, r->max_abs_index = i;
    double rel = w != 0 ? d / fabs(w) : (d != 0 ? INFINITY : 0);
    if (rel > r->max_rel)
        r->max_rel = rel;
    if (!(d <= atol + rtol * fabs(w)))
        note_bad(r, i, g, w);
}

/* One integer or bool element whose bytes differ. */
static inline void step_int(RangeResult *rr, int64_t i, double g, double w, double atol, double rtol)
{
    CompareResult *r = &rr->r;
    double d = fabs(g - w);
    if (d > r->max_abs || r->max_abs_index < 0)
        r->max_abs = d, r->max_abs_index = i;
    double rel = w != 0 ? d / fabs(w) : INFINITY;
    if (rel > r->max_rel)
        r->max_rel = rel;
    /* Integers are exact unless the program declares a tolerance (a
     * quantiser may round a tie either way: atol 1); doubles cannot hold
     * every 64-bit integer, hence the byte comparison first. */
    if ((atol > 0 || rtol > 0) && d <= atol + rtol * fabs(w))
        return;
    note_bad(r, i, g, w);
}

/* Elements [begin, end).  Elements whose bytes are equal never change a
 * result (zero error, or the same NaN or infinity), so equal stretches are
 * skipped with memcmp; f32 and f64, the common outputs, are read directly. */
static void compare_range(DType t, const void *got, const void *want, int64_t begin, int64_t end, double atol,
                          double rtol, RangeResult *rr)
{
    enum { STRETCH = 4096 };
    size_t size = dtype_size(t);
    int is_float = dtype_is_float(t);
    for (int64_t s = begin; s < end; s += STRETCH) {
        int64_t e = s + STRETCH < end ? s + STRETCH : end;
        if (memcmp((const char *)got + (size_t)s * size, (const char *)want + (size_t)s * size,
                   (size_t)(e - s) * size) == 0)
            continue;
        if (t == DT_F32) {
            const float *g = got, *w = want;
            for (int64_t i = s; i < e; i++)
                step_float(rr, i, g[i], w[i], atol, rtol);
        } else if (t == DT_F64) {
            const double *g = got, *w = want;
            for (int64_t i = s; i < e; i++)
                step_float(rr, i, g[i], w[i], atol, rtol);
        } else if (is_float) {
            for (int64_t i = s; i < e; i++)
                step_float(rr, i, inputs_get(t, got, i), inputs_get(t, want, i), atol, rtol);
        } else {
            for (int64_t i = s; i < e; i++)
                if (memcmp((const char *)got + (size_t)i * size, (const char *)want + (size_t)i * size, size) != 0)
                    step_int(rr, i, inputs_get(t, got, i), inputs_get(t, want, i), atol, rtol);
        }
    }
}

/* Folds range c (the next in order) into r: the result is what one pass
 * over both would have given. */
static void merge_range(RangeResult *r, const RangeResult *c, int is_float)
{
    if (c->r.n_bad) {
        if (r->r.n_bad == 0) {
            r->r.first_bad = c->r.first_bad;
            r->r.got = c->r.got;
            r->r.want = c->r.want;
        }
        r->r.n_bad += c->r.n_bad;
    }
    if (c->r.max_rel > r->r.max_rel)
        r->r.max_rel = c->r.max_rel;
    if (is_float && !isfinite(r->r.max_abs)) {
        /* past infinity only non-finite mismatches move the index */
        if (c->last_nonfinite >= 0)
            r->r.max_abs_index = c->last_nonfinite;
    } else if (c->r.max_abs_index >= 0 &&
               (r->r.max_abs_index < 0 || c->r.max_abs > r->r.max_abs || !isfinite(c->r.max_abs))) {
        r->r.max_abs = c->r.max_abs;
        r->r.max_abs_index = c->r.max_abs_index;
    }
    if (c->last_nonfinite >= 0)
        r->last_nonfinite = c->last_nonfinite;
}

static void range_init(RangeResult *rr)
{
    memset(rr, 0, sizeof *rr);
    rr->r.first_bad = -1;
    rr->r.max_abs_index = -1;
    rr->last_nonfinite = -1;
}

typedef struct RangeJobs {
    DType t;
    const void *got, *want;
    double atol, rtol;
    RangeResult rr[PARALLEL_MAX_THREADS];
} RangeJobs;

static void range_job(void *ctx, int k, int64_t begin, int64_t end)
{
    RangeJobs *j = ctx;
    compare_range(j->t, j->got, j->want, begin, end, j->atol, j->rtol, &j->rr[k]);
}

/* Large outputs (hundreds of MB on large configs) are compared by several
 * threads: one thread took 11.6 ns per f32 element before the typed loops
 * (measured, 2026-12-04), seconds per candidate. */
#define COMPARE_PARALLEL_MIN (1 << 22)

void compare_buffers(DType t, const void *got, const void *want, int64_t n, double atol, double rtol,
                     CompareResult *r)
{
    RangeJobs jobs = {t, got, want, atol, rtol, {{{0}, 0}}};
    int k = parallel_threads(n, COMPARE_PARALLEL_MIN, 8);
    for (int j = 0; j < k; j++)
        range_init(&jobs.rr[j]);
    parallel_ranges(n, k, range_job, &jobs);
    RangeResult all;
    range_init(&all);
    for (int j = 0; j < k; j++)
        merge_range(&all, &jobs.rr[j], dtype_is_float(t));
    *r = all.r;
    r->n = n;
}

int64_t compare_first_change(DType t, const void *after, const void *before, int64_t n)
{
    size_t size = dtype_size(t);
    if (memcmp(after, before, (size_t)n * size) == 0)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (memcmp((const char *)after + (size_t)i * size, (const char *)before + (size_t)i * size, size) != 0)
            return i;
    return -1;
}
