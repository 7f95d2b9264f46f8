#include "compare.h"

#include <math.h>
#include <string.h>

#include "harness/inputs.h"

static void note_bad(CompareResult *r, int64_t i, double got, double want)
{
    if (r->n_bad++ == 0) {
        r->first_bad = i;
        r->got = got;
        r->want = want;
    }
}

void compare_buffers(DType t, const void *got, const void *want, int64_t n, double atol, double rtol,
                     CompareResult *r)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->first_bad = -1;
    r->max_abs_index = -1;
    size_t size = dtype_size(t);
    for (int64_t i = 0; i < n; i++) {
        double g = inputs_get(t, got, i), w = inputs_get(t, want, i);
        if (!dtype_is_float(t)) {
            /* bit equality: doubles cannot hold every 64-bit integer */
            if (memcmp((const char *)got + (size_t)i * size, (const char *)want + (size_t)i * size, size) != 0) {
                double d = fabs(g - w);
                if (d > r->max_abs || r->max_abs_index < 0)
                    r->max_abs = d, r->max_abs_index = i;
                double rel = w != 0 ? d / fabs(w) : INFINITY;
                if (rel > r->max_rel)
                    r->max_rel = rel;
                /* Integers are exact unless the program declares a tolerance
                 * (a quantiser may round a tie either way: atol 1). */
                if ((atol > 0 || rtol > 0) && d <= atol + rtol * fabs(w))
                    continue;
                note_bad(r, i, g, w);
            }
            continue;
        }
        if (!isfinite(g) || !isfinite(w)) {
            int same = (isnan(g) && isnan(w)) || (isinf(g) && isinf(w) && signbit(g) == signbit(w));
            if (!same) {
                r->max_abs = INFINITY;
                r->max_abs_index = i;
                r->max_rel = INFINITY;
                note_bad(r, i, g, w);
            }
            continue;
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
