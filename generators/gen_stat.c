/* gen_stat.c — one statistic of a row or column, as C and CUDA text (see
 * gen_stat.h). */
#include "gen_stat.h"

#include <stdio.h>
#include <string.h>

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

int stat_is_float(const char *dt) { return dt[0] == 'f'; }

int stat_normalises(const StatSpec *s) { return is(s->epi, "norm") || is(s->epi, "affine"); }

const char *stat_ctype(const char *dt)
{
    if (is(dt, "f32"))
        return "float";
    if (is(dt, "f64"))
        return "double";
    if (is(dt, "i32"))
        return "int32_t";
    return "int64_t";
}

const char *stat_out_dtype(const StatSpec *s)
{
    if (is(s->op, "count-gt"))
        return "i64";
    if (stat_is_float(s->dt) || is(s->op, "max") || is(s->op, "min"))
        return s->dt;
    if (is(s->op, "mean"))
        return "f64";
    return "i64";
}

/* The accumulator type of single-pass ops. */
const char *stat_acc_type(const StatSpec *s)
{
    if (is(s->op, "max") || is(s->op, "min"))
        return stat_ctype(s->dt);
    if (is(s->op, "count-gt") || !stat_is_float(s->dt))
        return "int64_t";
    return "double";
}

/* The update of accumulator `a` with element `v` for single-pass ops. */
void stat_emit_update(StrBuf *s, const StatSpec *sp, const char *ind, const char *a, const char *v)
{
    const char *op = sp->op;
    int fl = stat_is_float(sp->dt);
    if (is(op, "sum") || is(op, "mean"))
        sb_printf(s, "%s%s += %s;\n", ind, a, v);
    else if (is(op, "sumsq") || is(op, "l2") || is(op, "rms"))
        sb_printf(s, "%s%s += %s%s * %s;\n", ind, a,
                  is(sp->dt, "f32") ? "(double)" : fl ? "" : "(int64_t)", v, v);
    else if (is(op, "l1"))
        sb_printf(s, fl ? "%s%s += fabs(%s);\n" : "%s%s += llabs(%s);\n", ind, a, v);
    else if (is(op, "prod"))
        sb_printf(s, "%s%s *= %s;\n", ind, a, v);
    else if (is(op, "max"))
        sb_printf(s, "%sif (%s > %s)\n%s    %s = %s;\n", ind, v, a, ind, a, v);
    else if (is(op, "min"))
        sb_printf(s, "%sif (%s < %s)\n%s    %s = %s;\n", ind, v, a, ind, a, v);
    else if (is(op, "amax"))
        sb_printf(s, "%sif (fabs(%s) > %s)\n%s    %s = fabs(%s);\n", ind, v, a, ind, a, v);
    else if (is(op, "count-gt"))
        sb_printf(s, "%sif (%s > thresh)\n%s    %s++;\n", ind, v, ind, a);
}

/* The statistic as an expression of the accumulator `a` over c elements. */
const char *stat_value_of(char *buf, const StatSpec *sp, const char *a)
{
    const char *op = sp->op;
    if (is(op, "mean"))
        snprintf(buf, 64, stat_is_float(sp->dt) ? "%s / c" : "(double)%s / c", a);
    else if (is(op, "l2"))
        snprintf(buf, 64, "sqrt(%s)", a);
    else if (is(op, "rms") && !stat_normalises(sp))
        snprintf(buf, 64, "sqrt(%s / c)", a);
    else
        snprintf(buf, 64, "%s", a);
    return buf;
}

/* out[i] = epilogue(value) for the scalar epilogues. */
void stat_emit_store(StrBuf *s, const StatSpec *sp, const char *ind, const char *val)
{
    int f32 = is(stat_out_dtype(sp), "f32");
    const char *e = sp->epi;
    char expr[160];
    if (is(e, "scale"))
        snprintf(expr, sizeof expr, "alpha * %s", val);
    else if (is(e, "sqrt"))
        snprintf(expr, sizeof expr, "sqrt(%s)", val);
    else if (is(e, "bias"))
        snprintf(expr, sizeof expr, "%s + bias[i]", val);
    else if (is(e, "acc"))
        snprintf(expr, sizeof expr, "beta * out[i] + %s", val);
    else
        snprintf(expr, sizeof expr, "%s", val);
    int simple = 1, depth = 0; /* no space outside parentheses */
    for (const char *q = expr; *q; q++) {
        depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
        if (*q == ' ' && depth == 0)
            simple = 0;
    }
    if (f32 && is(stat_acc_type(sp), "double"))
        sb_printf(s, simple ? "%sout[i] = (float)%s;\n" : "%sout[i] = (float)(%s);\n", ind, expr);
    else
        sb_printf(s, "%sout[i] = %s;\n", ind, expr);
}

/* ---- the pair ----
 * Row-major layouts: one block per row; each thread folds a strided slice
 * of the row into an accumulator (an Acc struct), a shared-memory tree
 * combines the block's accumulators, and the block writes the row's result
 * (thread 0) or its normalised row (all threads).  Column-major: one thread
 * per row, walking the columns (neighbouring threads read neighbouring
 * elements), in the C program's order.  The variances merge Chan's way (one
 * pass instead of the C program's two or Welford's updates: the same value
 * within the tolerance), logsumexp by rescaling its running sum. */
const char *stat_cuda_type(const char *dt)
{
    if (is(dt, "f32"))
        return "float";
    if (is(dt, "f64"))
        return "double";
    return is(dt, "i32") ? "int" : "long long";
}
