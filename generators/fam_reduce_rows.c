/* reduce_rows — one reduction per row of an r x c matrix: sum, mean, max,
 * min, sum of squares, L1/L2/RMS norms, two-pass and Welford variance,
 * logsumexp, product of values near 1, largest magnitude, range and counts
 * above a threshold.  Programs vary by operation, dtype (f32 accumulating in
 * double, f64, i32 widening to i64), input layout (row-major, row-major with
 * a padded leading dimension ld >= c, column-major) and a fused epilogue:
 * none, scale by alpha, square root, add a per-row bias, accumulate into the
 * output (out = beta*out + r), or normalise the matrix by the row statistic
 * (L1/L2/RMS/max-abs scaling, centring, standardising, log-softmax,
 * min-max).  The large configs cycle through square, wide and tall shapes. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_reduce.h"
#include "gen_stat.h"
#include "gen_tmpl.h"

static const StatSpec SPECS[] = {
    {"sum", "f32", 'r', ""}, {"sum", "f64", 'c', ""}, {"sum", "i32", 'r', ""},
    {"sum", "f32", 'l', "scale"}, {"sum", "f64", 'r', "acc"}, {"sum", "f32", 'c', "bias"},
    {"sum", "f32", 'r', "norm"}, {"sum", "i32", 'c', ""},
    {"mean", "f32", 'r', ""}, {"mean", "f64", 'l', ""}, {"mean", "f32", 'c', ""},
    {"mean", "f64", 'r', "norm"}, {"mean", "i32", 'r', ""}, {"mean", "f32", 'r', "bias"},
    {"max", "f32", 'r', ""}, {"max", "f64", 'c', ""}, {"max", "i32", 'r', ""}, {"max", "f32", 'l', ""},
    {"min", "f32", 'r', ""}, {"min", "f64", 'l', ""}, {"min", "i32", 'c', ""},
    {"sumsq", "f32", 'r', ""}, {"sumsq", "f64", 'c', "scale"}, {"sumsq", "i32", 'l', ""},
    {"l2", "f32", 'r', ""}, {"l2", "f64", 'l', ""}, {"l2", "f32", 'r', "norm"}, {"l2", "f64", 'c', "norm"},
    {"l2", "f32", 'c', ""},
    {"l1", "f32", 'r', ""}, {"l1", "f64", 'r', "norm"}, {"l1", "i32", 'l', ""},
    {"rms", "f32", 'r', ""}, {"rms", "f64", 'r', "norm"}, {"rms", "f32", 'c', "norm"},
    {"var", "f32", 'r', ""}, {"var", "f64", 'r', "sqrt"}, {"var", "f32", 'l', "norm"},
    {"var", "f64", 'r', "norm"},
    {"welford", "f32", 'r', "sqrt"}, {"welford", "f64", 'l', ""},
    {"lse", "f32", 'r', ""}, {"lse", "f64", 'r', ""}, {"lse", "f32", 'r', "norm"}, {"lse", "f64", 'l', "norm"},
    {"count-gt", "f32", 'r', ""}, {"count-gt", "i32", 'c', ""}, {"count-gt", "f64", 'l', ""},
    {"prod", "f32", 'r', ""}, {"prod", "f64", 'c', ""},
    {"amax", "f32", 'r', ""}, {"amax", "f64", 'r', "norm"}, {"amax", "f32", 'c', "norm"},
    {"range", "f64", 'r', "norm"},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Row-major (and padded) layouts: one pass or two over each row. */
static void emit_rowmajor(StrBuf *s, const StatSpec *sp)
{
    const char *T = stat_ctype(sp->dt);
    const char *op = sp->op;
    char val[64];
    sb_append(s, "    for (int i = 0; i < r; i++) {\n");
    sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, sp->layout == 'l' ? "ld" : "c");
    if (stat_normalises(sp))
        sb_printf(s, "        %s *yrow = y + (size_t)i * c;\n", T);
    if (is(op, "var") || is(op, "lse") || is(op, "welford") || is(op, "range")) {
        if (is(op, "var")) {
            sb_append(s, "        double mean = 0.0;\n        for (int j = 0; j < c; j++)\n"
                         "            mean += row[j];\n        mean /= c;\n"
                         "        double ss = 0.0;\n        for (int j = 0; j < c; j++) {\n"
                         "            double d = row[j] - mean;\n            ss += d * d;\n        }\n");
            if (stat_normalises(sp))
                sb_append(s, "        double inv = 1.0 / sqrt(ss / c + eps);\n"
                             "        for (int j = 0; j < c; j++)\n"
                             "            yrow[j] = (row[j] - mean) * inv;\n");
            else
                stat_emit_store(s, sp, "        ", "ss / c");
        } else if (is(op, "welford")) {
            sb_append(s, "        double mean = 0.0, m2 = 0.0;\n        for (int j = 0; j < c; j++) {\n"
                         "            double d = row[j] - mean;\n            mean += d / (j + 1);\n"
                         "            m2 += d * (row[j] - mean);\n        }\n");
            if (is(sp->epi, "sqrt"))
                stat_emit_store(s, sp, "        ", "m2 / c");
            else
                sb_append(s, "        mean_out[i] = mean;\n        var_out[i] = m2 / c;\n");
        } else if (is(op, "lse")) {
            sb_printf(s, "        %s m = row[0];\n        for (int j = 1; j < c; j++)\n"
                         "            if (row[j] > m)\n                m = row[j];\n"
                         "        double s = 0.0;\n        for (int j = 0; j < c; j++)\n"
                         "            s += exp((double)row[j] - m);\n"
                         "        double lse = m + log(s);\n", T);
            if (stat_normalises(sp))
                sb_printf(s, "        for (int j = 0; j < c; j++)\n            yrow[j] = %s(row[j] - lse);\n",
                          is(sp->dt, "f32") ? "(float)" : "");
            else
                stat_emit_store(s, sp, "        ", "lse");
        } else { /* range, min-max normalised */
            sb_printf(s, "        %s lo = row[0], hi = row[0];\n        for (int j = 1; j < c; j++) {\n"
                         "            if (row[j] < lo)\n                lo = row[j];\n"
                         "            if (row[j] > hi)\n                hi = row[j];\n        }\n"
                         "        %s span = hi - lo;\n        for (int j = 0; j < c; j++)\n"
                         "            yrow[j] = span > 0 ? (row[j] - lo) / span : 0;\n", T, T);
        }
        sb_append(s, "    }\n");
        return;
    }
    const char *A = stat_acc_type(sp);
    if (is(op, "max") || is(op, "min")) {
        sb_printf(s, "        %s m = row[0];\n        for (int j = 1; j < c; j++)\n", A);
        stat_emit_update(s, sp, "            ", "m", "row[j]");
    } else {
        const char *init = is(op, "prod") ? "1.0" : is(A, "double") ? "0.0" : "0";
        sb_printf(s, "        %s s = %s;\n        for (int j = 0; j < c; j++)\n", A, init);
        stat_emit_update(s, sp, "            ", "s", "row[j]");
    }
    const char *a = is(op, "max") || is(op, "min") ? "m" : "s";
    if (stat_normalises(sp)) {
        if (is(op, "sum"))
            sb_append(s, "        double inv = 1.0 / s;\n");
        else if (is(op, "mean"))
            sb_append(s, "        double mean = s / c;\n");
        else if (is(op, "l2"))
            sb_append(s, "        double inv = 1.0 / fmax(sqrt(s), eps);\n");
        else if (is(op, "l1"))
            sb_append(s, "        double inv = 1.0 / fmax(s, eps);\n");
        else if (is(op, "rms"))
            sb_append(s, "        double inv = 1.0 / sqrt(s / c + eps);\n");
        else if (is(op, "amax"))
            sb_append(s, "        double inv = s > 0.0 ? 1.0 / s : 0.0;\n");
        sb_append(s, "        for (int j = 0; j < c; j++)\n");
        if (is(op, "mean"))
            sb_append(s, "            yrow[j] = row[j] - mean;\n");
        else
            sb_printf(s, "            yrow[j] = %s(row[j] * inv);\n", is(sp->dt, "f32") ? "(float)" : "");
    } else {
        stat_emit_store(s, sp, "        ", stat_value_of(val, sp, a));
    }
    sb_append(s, "    }\n");
}

/* Column-major input: sweep the columns (contiguous) and keep one
 * accumulator per row. */
static void emit_colmajor(StrBuf *s, const StatSpec *sp)
{
    const char *T = stat_ctype(sp->dt);
    const char *A = stat_acc_type(sp);
    const char *op = sp->op;
    char val[64];
    /* Accumulate straight into out when it has the accumulator's type and
     * nothing is applied afterwards. */
    int in_place = !stat_normalises(sp) && is(A, stat_ctype(stat_out_dtype(sp))) && sp->epi[0] == '\0' && !is(op, "mean") &&
                   !is(op, "l2") && !is(op, "rms");
    const char *acc = in_place ? "out" : "acc";
    if (!in_place)
        sb_printf(s, "    %s *acc = malloc((size_t)r * sizeof *acc);\n    if (!acc)\n        return;\n", A);
    int first_col = is(op, "max") || is(op, "min");
    if (first_col)
        sb_printf(s, "    for (int i = 0; i < r; i++)\n        %s[i] = x[i];\n", acc);
    else
        sb_printf(s, "    for (int i = 0; i < r; i++)\n        %s[i] = %s;\n", acc,
                  is(op, "prod") ? "1.0" : "0");
    sb_printf(s, "    for (int j = %d; j < c; j++) {\n", first_col);
    sb_printf(s, "        const %s *col = x + (size_t)j * r;\n", T);
    sb_append(s, "        for (int i = 0; i < r; i++)\n");
    char a[16];
    snprintf(a, sizeof a, "%s[i]", acc);
    stat_emit_update(s, sp, "            ", a, "col[i]");
    sb_append(s, "    }\n");
    if (stat_normalises(sp)) {
        sb_append(s, "    for (int i = 0; i < r; i++)\n");
        if (is(op, "l2"))
            sb_append(s, "        acc[i] = 1.0 / fmax(sqrt(acc[i]), eps);\n");
        else if (is(op, "rms"))
            sb_append(s, "        acc[i] = 1.0 / sqrt(acc[i] / c + eps);\n");
        else if (is(op, "amax"))
            sb_append(s, "        acc[i] = acc[i] > 0.0 ? 1.0 / acc[i] : 0.0;\n");
        sb_printf(s, "    for (int j = 0; j < c; j++)\n        for (int i = 0; i < r; i++)\n"
                     "            y[(size_t)j * r + i] = %sx[(size_t)j * r + i] * acc[i]%s;\n",
                  is(sp->dt, "f32") ? "(float)(" : "", is(sp->dt, "f32") ? ")" : "");
    } else if (!in_place) {
        sb_append(s, "    for (int i = 0; i < r; i++)\n");
        stat_emit_store(s, sp, "        ", stat_value_of(val, sp, "acc[i]"));
    }
    if (!in_place)
        sb_append(s, "    free(acc);\n");
}

static const char *math_of(const StatSpec *sp)
{
    const char *op = sp->op;
    if (is(op, "sum")) return "s_i = sum_j x[i][j]";
    if (is(op, "mean")) return "s_i = (1/c) sum_j x[i][j]";
    if (is(op, "max")) return "s_i = max_j x[i][j]";
    if (is(op, "min")) return "s_i = min_j x[i][j]";
    if (is(op, "sumsq")) return "s_i = sum_j x[i][j]^2";
    if (is(op, "l2")) return "s_i = sqrt(sum_j x[i][j]^2)";
    if (is(op, "l1")) return "s_i = sum_j |x[i][j]|";
    if (is(op, "rms")) return "s_i = sqrt((1/c) sum_j x[i][j]^2)";
    if (is(op, "var")) return "s_i = (1/c) sum_j (x[i][j] - mean_i)^2 (two passes)";
    if (is(op, "welford")) return "mean_i and s_i = (1/c) sum_j (x[i][j] - mean_i)^2 by Welford's update";
    if (is(op, "lse")) return "s_i = log sum_j exp(x[i][j]) (max-shifted)";
    if (is(op, "count-gt")) return "s_i = #{j : x[i][j] > thresh}";
    if (is(op, "prod")) return "s_i = prod_j x[i][j] (values close to 1)";
    if (is(op, "amax")) return "s_i = max_j |x[i][j]|";
    return "lo_i = min_j x[i][j], hi_i = max_j x[i][j]";
}

static const char *epi_math(const StatSpec *sp)
{
    const char *op = sp->op, *e = sp->epi;
    if (is(e, "scale")) return "out[i] = alpha * s_i";
    if (is(e, "sqrt")) return "out[i] = sqrt(s_i)";
    if (is(e, "bias")) return "out[i] = s_i + bias[i]";
    if (is(e, "acc")) return "out[i] = beta * out[i] + s_i";
    if (is(op, "welford")) return "mean_out[i] = mean_i, var_out[i] = s_i";
    if (!stat_normalises(sp)) return "out[i] = s_i";
    if (is(op, "sum")) return "y[i][j] = x[i][j] / s_i (rows sum to 1)";
    if (is(op, "mean")) return "y[i][j] = x[i][j] - s_i (centred rows)";
    if (is(op, "l2") || is(op, "l1")) return "y[i][j] = x[i][j] / max(s_i, eps)";
    if (is(op, "rms")) return "y[i][j] = x[i][j] / sqrt(s_i^2 + eps)";
    if (is(op, "var")) return "y[i][j] = (x[i][j] - mean_i) / sqrt(s_i + eps) (standardised rows)";
    if (is(op, "lse")) return "y[i][j] = x[i][j] - s_i (log-softmax)";
    if (is(op, "amax")) return "y[i][j] = x[i][j] / s_i (0 for an all-zero row)";
    return "y[i][j] = (x[i][j] - lo_i) / (hi_i - lo_i) (0 for a constant row)";
}

static const char *entry_of(const StatSpec *sp)
{
    static char buf[64];
    const char *op = sp->op, *e = sp->epi;
    if (stat_normalises(sp)) {
        if (is(op, "sum")) return "row_normalize_sum";
        if (is(op, "mean")) return "row_center";
        if (is(op, "var")) return "row_standardize";
        if (is(op, "lse")) return "row_log_softmax";
        if (is(op, "range")) return "row_minmax_scale";
        snprintf(buf, sizeof buf, "row_normalize_%s", op);
        return buf;
    }
    if (is(op, "welford"))
        return is(e, "sqrt") ? "row_std" : "row_mean_var";
    if (is(op, "var") && is(e, "sqrt"))
        return "row_std";
    if (is(op, "lse"))
        return "row_logsumexp";
    if (is(op, "count-gt"))
        return "row_count_above";
    snprintf(buf, sizeof buf, "row_%s", op);
    return buf;
}

static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "sqrt(") || strstr(body, "fabs") || strstr(body, "exp(") || strstr(body, "log("))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "size_t"))
        sb_append(dst, "#include <stddef.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (strstr(body, "malloc") || strstr(body, "llabs"))
        sb_append(dst, "#include <stdlib.h>\n");
    sb_append(dst, "\n");
}

/* The Acc struct and its identity, acc_of (one element) and acc_merge;
 * returns sizeof(Acc). */
static int emit_acc(StrBuf *k, const StatSpec *sp, TmplSubs *ts)
{
    const char *op = sp->op;
    int fl = stat_is_float(sp->dt), d64 = is(sp->dt, "f64"), esz = d64 ? 8 : 4;
    if (is(op, "max") || is(op, "min")) {
        const char *id;
        if (is(op, "max"))
            id = !fl ? "(-2147483647 - 1)" : d64 ? "-__longlong_as_double(0x7ff0000000000000LL)"
                                                : "-__int_as_float(0x7f800000)";
        else
            id = !fl ? "2147483647" : d64 ? "__longlong_as_double(0x7ff0000000000000LL)"
                                          : "__int_as_float(0x7f800000)";
        tmpl_set(ts, "ID", id);
        tmpl_set(ts, "CMP", is(op, "max") ? ">" : "<");
        tmpl_expand(k, ts, "struct Acc {\n    @T m;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@ID}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return b.m @CMP a.m ? b : a; }\n");
        return esz;
    }
    if (is(op, "range")) {
        tmpl_expand(k, ts, "struct Acc {\n    @T lo, hi;\n};\n\n"
                           "__device__ Acc acc_identity()\n{\n"
                           "    const @T inf = __longlong_as_double(0x7ff0000000000000LL);\n"
                           "    return Acc{inf, -inf};\n}\n"
                           "__device__ Acc acc_of(@T v) { return Acc{v, v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    return Acc{b.lo < a.lo ? b.lo : a.lo, b.hi > a.hi ? b.hi : a.hi};\n}\n");
        return 2 * esz;
    }
    if (is(op, "var") || is(op, "welford")) {
        tmpl_expand(k, ts, "/* count, mean and sum of squared deviations of a set of elements */\n"
                           "struct Acc {\n    double n, mean, m2;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{0.0, 0.0, 0.0}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{1.0, (double)v, 0.0}; }\n"
                           "/* Chan et al.: the statistics of the union of two sets. */\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    if (b.n == 0.0)\n        return a;\n"
                           "    if (a.n == 0.0)\n        return b;\n"
                           "    const double n = a.n + b.n, d = b.mean - a.mean;\n"
                           "    return Acc{n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n)};\n}\n");
        return 24;
    }
    if (is(op, "lse")) {
        tmpl_expand(k, ts, "/* sum of exp(x_j) = s * exp(m); s == 0: no element yet */\n"
                           "struct Acc {\n    double m, s;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{0.0, 0.0}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{(double)v, 1.0}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    if (b.s == 0.0)\n        return a;\n"
                           "    if (a.s == 0.0)\n        return b;\n"
                           "    const double m = fmax(a.m, b.m);\n"
                           "    return Acc{m, a.s * exp(a.m - m) + b.s * exp(b.m - m)};\n}\n");
        return 16;
    }
    if (is(op, "amax")) {
        tmpl_expand(k, ts, "struct Acc {\n    double m;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{0.0}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{fabs((double)v)}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{fmax(a.m, b.m)}; }\n");
        return 8;
    }
    if (is(op, "count-gt")) {
        tmpl_expand(k, ts, "struct Acc {\n    long long c;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{0}; }\n"
                           "__device__ Acc acc_of(@T v, @T thresh) { return Acc{v > thresh ? 1LL : 0LL}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.c + b.c}; }\n");
        return 8;
    }
    if (is(op, "prod")) {
        tmpl_expand(k, ts, "struct Acc {\n    double s;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{1.0}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{(double)v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.s * b.s}; }\n");
        return 8;
    }
    /* sums: sum, mean, sumsq, l2, rms, l1 */
    const char *of;
    if (is(op, "l1"))
        of = fl ? "fabs((double)v)" : "v < 0 ? -(long long)v : (long long)v";
    else if (is(op, "sumsq") || is(op, "l2") || is(op, "rms"))
        of = fl ? "(double)v * v" : "(long long)v * v";
    else
        of = fl ? "(double)v" : "(long long)v";
    tmpl_set(ts, "OF", of);
    tmpl_set(ts, "A", fl ? "double" : "long long");
    tmpl_expand(k, ts, "struct Acc {\n    @A s;\n};\n\n"
                       "__device__ Acc acc_identity() { return Acc{0}; }\n"
                       "__device__ Acc acc_of(@T v) { return Acc{@OF}; }\n"
                       "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.s + b.s}; }\n");
    return 8;
}

/* The row statistic as an expression of the combined accumulator a. */
static const char *stat_of(const StatSpec *sp)
{
    const char *op = sp->op;
    if (is(op, "mean")) return stat_is_float(sp->dt) ? "a.s / c" : "(double)a.s / c";
    if (is(op, "l2")) return "sqrt(a.s)";
    if (is(op, "rms")) return "sqrt(a.s / c)";
    if (is(op, "max") || is(op, "min") || is(op, "amax")) return "a.m";
    if (is(op, "count-gt")) return "a.c";
    if (is(op, "var") || is(op, "welford")) return "a.m2 / c";
    if (is(op, "lse")) return "a.m + log(a.s)";
    return "a.s";
}

/* The statements that write row i's result: `ind` indents them, `y_at(j)`
 * spelled by yfmt addresses element j of the output row, `v` names the
 * input element (for the normalising epilogues, in a loop over j given by
 * loop). */
static void emit_epilogue(StrBuf *k, const StatSpec *sp, TmplSubs *ts, const char *ind, const char *loop,
                          const char *y_at, const char *x_at)
{
    const char *op = sp->op, *e = sp->epi;
    if (is(op, "welford") && !e[0]) {
        sb_printf(k, "%smean_out[i] = a.mean;\n%svar_out[i] = a.m2 / c;\n", ind, ind);
        return;
    }
    if (!stat_normalises(sp)) {
        char expr[128];
        const char *v = stat_of(sp);
        if (is(e, "scale"))
            snprintf(expr, sizeof expr, "alpha * %s", v);
        else if (is(e, "sqrt"))
            snprintf(expr, sizeof expr, "sqrt(%s)", v);
        else if (is(e, "bias"))
            snprintf(expr, sizeof expr, "%s + bias[i]", v);
        else if (is(e, "acc"))
            snprintf(expr, sizeof expr, "beta * out[i] + %s", v);
        else
            snprintf(expr, sizeof expr, "%s", v);
        int cast = is(stat_out_dtype(sp), "f32") && !is(op, "max") && !is(op, "min");
        sb_printf(k, "%sout[i] = %s%s%s;\n", ind, cast ? "(float)(" : "", expr, cast ? ")" : "");
        return;
    }
    const char *pre, *elem;
    if (is(op, "sum")) pre = "const double inv = 1.0 / a.s;", elem = "@cast(@X * inv)";
    else if (is(op, "mean")) pre = "const double mean = a.s / c;", elem = "@X - mean";
    else if (is(op, "l2")) pre = "const double inv = 1.0 / fmax(sqrt(a.s), (double)eps);", elem = "@cast(@X * inv)";
    else if (is(op, "l1")) pre = "const double inv = 1.0 / fmax(a.s, (double)eps);", elem = "@cast(@X * inv)";
    else if (is(op, "rms")) pre = "const double inv = 1.0 / sqrt(a.s / c + eps);", elem = "@cast(@X * inv)";
    else if (is(op, "amax")) pre = "const double inv = a.m > 0.0 ? 1.0 / a.m : 0.0;", elem = "@cast(@X * inv)";
    else if (is(op, "var")) pre = "const double inv = 1.0 / sqrt(a.m2 / c + eps);", elem = "@cast((@X - a.mean) * inv)";
    else if (is(op, "lse")) pre = "const double lse = a.m + log(a.s);", elem = "@cast(@X - lse)";
    else pre = "const @T span = a.hi - a.lo;", elem = "span > 0 ? (@X - a.lo) / span : 0";
    tmpl_set(ts, "X", x_at);
    sb_printf(k, "%s", ind);
    tmpl_expand(k, ts, pre);
    sb_printf(k, "\n%s%s\n%s    %s = ", ind, loop, ind, y_at);
    tmpl_expand(k, ts, elem);
    sb_append(k, ";\n");
}

/* A point of the template library's knob space for a row-major row
 * reduction; the reference is one block of 256 per row, a shared tree. */
typedef struct RowPlan {
    int block;         /* threads per block: a power of two, 64 to 1024 */
    int shuffle;       /* the block's threads combine by warp shuffles (else a shared tree) */
    int warp_per_row;  /* one warp per row, block/32 rows per block, no shared memory */
} RowPlan;

static const RowPlan REFERENCE_ROWS = {256, 0, 0};

/* Acc's members, for the shuffles that move a whole Acc. */
static const char *acc_fields(const StatSpec *sp)
{
    const char *op = sp->op;
    if (is(op, "max") || is(op, "min") || is(op, "amax")) return "m";
    if (is(op, "range")) return "lo,hi";
    if (is(op, "var") || is(op, "welford")) return "n,mean,m2";
    if (is(op, "lse")) return "m,s";
    if (is(op, "count-gt")) return "c";
    return "s";
}

/* The row-major kernel of plan pl and its launch: a block (or a warp) per
 * row folds a strided slice per thread, combines, and writes the epilogue. */
static void emit_rowmajor_cuda(GenProgram *p, const StatSpec *sp, TmplSubs *ts, const char *entry, const char *decl,
                               const char *args, int acc_bytes, const RowPlan *pl)
{
    StrBuf *k = gen_cuda_src(p);
    int whole_row_out = stat_normalises(sp) || is(sp->op, "range");
    if (pl->warp_per_row)
        reduce_emit_warp_allreduce(k, acc_fields(sp));
    else if (pl->shuffle)
        reduce_emit_block_shuffle(k, acc_fields(sp));
    else
        reduce_emit_tree(k);
    sb_append(k, "\n");
    tmpl_put_wrapped(k, decl);
    sb_append(k, "\n");
    const char *loop = "for (int j = threadIdx.x; j < c; j += blockDim.x)";
    if (pl->warp_per_row) {
        loop = "for (int j = lane; j < c; j += 32)";
        tmpl_expand(k, ts, "{\n"
                           "    const int lane = threadIdx.x % 32;\n"
                           "    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"
                           "    if (i >= r)\n        return; /* the whole warp: i is the warp's row */\n"
                           "    const @T *row = x + (long long)i * @LD;\n"
                           "    Acc a = acc_identity();\n"
                           "    for (int j = lane; j < c; j += 32)\n"
                           "        a = acc_merge(a, acc_of(row[j]@THA));\n"
                           "    a = warp_allreduce(a);\n");
    } else {
        sb_append(k, pl->shuffle ? "{\n    __shared__ Acc sh[32];\n" : "{\n    extern __shared__ Acc sh[];\n");
        tmpl_expand(k, ts, "    const int i = blockIdx.x;\n"
                           "    const @T *row = x + (long long)i * @LD;\n"
                           "    Acc a = acc_identity();\n"
                           "    for (int j = threadIdx.x; j < c; j += blockDim.x)\n"
                           "        a = acc_merge(a, acc_of(row[j]@THA));\n");
        if (!pl->shuffle)
            sb_append(k, "    sh[threadIdx.x] = a;\n    block_reduce(sh);\n    a = sh[0];\n");
        else if (whole_row_out) /* every thread writes part of the row: thread 0's result to all */
            sb_append(k, "    a = block_reduce_shfl(a, sh);\n"
                         "    if (threadIdx.x == 0)\n        sh[0] = a;\n"
                         "    __syncthreads();\n"
                         "    a = sh[0];\n");
        else
            sb_append(k, "    a = block_reduce_shfl(a, sh);\n");
    }
    if (whole_row_out) {
        tmpl_expand(k, ts, "    @T *yrow = y + (long long)i * c;\n");
        emit_epilogue(k, sp, ts, "    ", loop, "yrow[j]", "row[j]");
    } else {
        sb_append(k, pl->warp_per_row ? "    if (lane == 0) {\n" : "    if (threadIdx.x == 0) {\n");
        emit_epilogue(k, sp, ts, "        ", NULL, NULL, NULL);
        sb_append(k, "    }\n");
    }
    sb_append(k, "}\n");
    char smem[32], block[16], grid[32];
    snprintf(smem, sizeof smem, "%d*%d", pl->block, acc_bytes);
    snprintf(block, sizeof block, "%d", pl->block);
    snprintf(grid, sizeof grid, "(r+%d)/%d", pl->block / 32 - 1, pl->block / 32);
    gen_launch(p, entry, pl->warp_per_row ? grid : "r", block, pl->shuffle || pl->warp_per_row ? NULL : smem, args);
    gen_knob(p, "mapping", pl->warp_per_row ? "one-row-per-warp-reduction-shuffle"
                           : pl->shuffle    ? "one-row-per-block-reduction-shuffle"
                                            : "one-row-per-block-reduction-shared");
    gen_knob(p, "reduction", pl->shuffle || pl->warp_per_row ? "warp-shuffle" : "shared-tree");
    if (pl != &REFERENCE_ROWS)
        gen_knob(p, "block", block);
}

static void emit_cuda(GenProgram *p, const StatSpec *sp, const char *entry, const RowPlan *pl)
{
    StrBuf *k = gen_cuda_src(p);
    TmplSubs ts;
    tmpl_init(&ts, 1);
    const char *T = stat_cuda_type(sp->dt), *OT = stat_cuda_type(stat_out_dtype(sp));
    tmpl_set(&ts, "T", T);
    tmpl_set(&ts, "cast", is(sp->dt, "f32") ? "(float)" : "");
    int colmajor = sp->layout == 'c', ld = sp->layout == 'l';
    int welford2 = is(sp->op, "welford") && !sp->epi[0];

    /* The parameter list, in the C function's order, and the launch args. */
    char params[256], args[128];
    int np = 0, na = 0;
    np += snprintf(params + np, sizeof params - np, "const %s *__restrict__ x, ", T);
    na += snprintf(args + na, sizeof args - na, "x,");
    if (stat_normalises(sp) || is(sp->op, "range")) {
        np += snprintf(params + np, sizeof params - np, "%s *__restrict__ y", T);
        na += snprintf(args + na, sizeof args - na, "y");
    } else if (welford2) {
        np += snprintf(params + np, sizeof params - np, "%s *__restrict__ mean_out, %s *__restrict__ var_out", OT, OT);
        na += snprintf(args + na, sizeof args - na, "mean_out,var_out");
    } else {
        np += snprintf(params + np, sizeof params - np, "%s *%sout", OT, is(sp->epi, "acc") ? "" : "__restrict__ ");
        na += snprintf(args + na, sizeof args - na, "out");
    }
    if (is(sp->epi, "bias")) {
        np += snprintf(params + np, sizeof params - np, ", const %s *__restrict__ bias", OT);
        na += snprintf(args + na, sizeof args - na, ",bias");
    }
    const char *scalar = is(sp->epi, "scale") ? "alpha" : is(sp->epi, "acc") ? "beta"
                         : is(sp->op, "count-gt") ? "thresh" : NULL;
    if (!scalar && stat_normalises(sp) && !is(sp->op, "sum") && !is(sp->op, "mean") && !is(sp->op, "lse") &&
        !is(sp->op, "amax") && !is(sp->op, "range"))
        scalar = "eps";
    if (scalar) {
        np += snprintf(params + np, sizeof params - np, ", %s %s",
                       is(scalar, "alpha") || is(scalar, "beta") ? OT : T, scalar);
        na += snprintf(args + na, sizeof args - na, ",%s", scalar);
    }
    snprintf(params + np, sizeof params - np, ", int r, int c%s", ld ? ", int ld" : "");
    snprintf(args + na, sizeof args - na, ",r,c%s", ld ? ",ld" : "");
    tmpl_set(&ts, "THA", is(sp->op, "count-gt") ? ", thresh" : "");

    sb_printf(k, "/* Per row i of an r x c matrix stored %s:\n *   %s,\n *   %s.\n",
              colmajor ? "column-major" : ld ? "row-major with leading dimension ld" : "row-major",
              math_of(sp), epi_math(sp));
    sb_append(k, colmajor ? " * One thread per row, walking the columns. */\n"
                          : " * One block per row: strided partial results, then a shared-memory tree. */\n");
    int acc_bytes = emit_acc(k, sp, &ts);
    char decl[400];
    snprintf(decl, sizeof decl, "extern \"C\" __global__ void %s(%s)", entry, params);
    sb_append(k, "\n");
    if (colmajor) {
        tmpl_put_wrapped(k, decl);
        sb_append(k, "\n");
        tmpl_expand(k, &ts, "{\n"
                            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i >= r)\n        return;\n"
                            "    Acc a = acc_identity();\n"
                            "    for (int j = 0; j < c; j++)\n"
                            "        a = acc_merge(a, acc_of(x[(long long)j * r + i]@THA));\n");
        emit_epilogue(k, sp, &ts, "    ", "for (int j = 0; j < c; j++)", "y[(long long)j * r + i]",
                      "x[(long long)j * r + i]");
        sb_append(k, "}\n");
        gen_launch(p, entry, "(r+255)/256", "256", NULL, args);
        gen_knob(p, "mapping", "one-row-per-thread");
    } else {
        tmpl_set(&ts, "LD", ld ? "ld" : "c");
        emit_rowmajor_cuda(p, sp, &ts, entry, decl, args, acc_bytes, pl);
    }
    if (pl == &REFERENCE_ROWS || colmajor)
        gen_knob(p, "block", "256");
}

/* The alternatives from the knob space, for the row-major layouts: other
 * block sizes, the warp-shuffle combine, and one warp per row (what short
 * rows want: a block of 256 threads on a row of 64 leaves most idle). */
static void emit_row_alternatives(GenProgram *p, const StatSpec *sp, const char *entry)
{
    static const struct {
        const char *name;
        RowPlan plan;
    } alts[] = {
        {"block-128", {128, 0, 0}},
        {"block-1024", {1024, 0, 0}},
        {"warp-shuffle", {256, 1, 0}},
        {"warp-per-row", {256, 0, 1}},
        {"warp-per-row-128", {128, 0, 1}},
    };
    for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++) {
        gen_alt_begin(p, alts[i].name);
        emit_cuda(p, sp, entry, &alts[i].plan);
        gen_alt_end(p);
    }
}

/* Large shapes, cycled through: square-ish, wide, tall, very tall and narrow. */
static const char *const LARGE32[] = {"r=16384,c=8192", "r=2048,c=65536", "r=131072,c=1024",
                                      "r=2097152,c=64"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=1024,c=65536", "r=65536,c=1024",
                                      "r=1048576,c=64"};
static const char *const LARGE32_LD[] = {"r=16384,c=8000,ld=8192", "r=2048,c=65000,ld=65536",
                                         "r=131072,c=1000,ld=1024", "r=2097152,c=60,ld=64"};
static const char *const LARGE64_LD[] = {"r=8192,c=8000,ld=8192", "r=1024,c=65000,ld=65536",
                                         "r=65536,c=1000,ld=1024", "r=1048576,c=60,ld=64"};

static int generate(GenCtx *g)
{
    for (int k = 0; k < NSPECS; k++) {
        const StatSpec *sp = &SPECS[k];
        const char *od = stat_out_dtype(sp);
        const char *T = stat_ctype(sp->dt);
        int ld = sp->layout == 'l';
        char variant[80];
        snprintf(variant, sizeof variant, "%s-%s%s%s%s", sp->op, sp->dt,
                 sp->layout == 'c' ? "-colmajor" : ld ? "-ld" : "", sp->epi[0] ? "-" : "", sp->epi);
        const char *entry = entry_of(sp);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "per row of an r x c %s matrix (%s): %s; %s",
                     sp->layout == 'c' ? "column-major" : ld ? "row-major (leading dimension ld)" : "row-major",
                     sp->dt, math_of(sp), epi_math(sp));
        const char *xshape = sp->layout == 'c' ? "c,r" : ld ? "r,ld" : "r,c";
        gen_arg(p, "x", sp->dt, "in", xshape);
        int welford2 = is(sp->op, "welford") && !sp->epi[0];
        if (stat_normalises(sp) || is(sp->op, "range")) {
            gen_arg(p, "y", sp->dt, "out", sp->layout == 'c' ? "c,r" : "r,c");
        } else if (welford2) {
            gen_arg(p, "mean_out", od, "out", "r");
            gen_arg(p, "var_out", od, "out", "r");
        } else {
            gen_arg(p, "out", od, is(sp->epi, "acc") ? "inout" : "out", "r");
        }
        if (is(sp->epi, "bias"))
            gen_arg(p, "bias", od, "in", "r");
        char sig[160] = "";
        if (is(sp->epi, "scale")) {
            gen_scalar(p, "alpha", od, gen_uniform(g, 0.25, 2.0));
            snprintf(sig, sizeof sig, ", %s alpha", stat_ctype(od));
        } else if (is(sp->epi, "acc")) {
            gen_scalar(p, "beta", od, gen_uniform(g, 0.25, 0.95));
            snprintf(sig, sizeof sig, ", %s beta", stat_ctype(od));
        } else if (is(sp->op, "count-gt")) {
            double t = stat_is_float(sp->dt) ? gen_randint(g, 0, 60) / 100.0 : gen_randint(g, 20, 80);
            gen_scalar(p, "thresh", sp->dt, t);
            snprintf(sig, sizeof sig, ", %s thresh", T);
        } else if (stat_normalises(sp) && !is(sp->op, "sum") && !is(sp->op, "mean") && !is(sp->op, "lse") &&
                   !is(sp->op, "amax") && !is(sp->op, "range")) {
            gen_scalar(p, "eps", sp->dt, is(sp->dt, "f32") ? 1e-6 : 1e-12);
            snprintf(sig, sizeof sig, ", %s eps", T);
        }
        gen_arg(p, "r", "i32", "param", NULL);
        gen_arg(p, "c", "i32", "param", NULL);
        if (ld)
            gen_arg(p, "ld", "i32", "param", NULL);

        /* Inputs. */
        if (is(sp->op, "prod"))
            gen_fill_uniform(p, "x", 0.999, 1.001);
        else if (is(sp->op, "sum") && stat_normalises(sp))
            gen_fill_uniform(p, "x", 0.05, 1.0);
        else if (is(sp->op, "lse"))
            gen_fill_uniform(p, "x", -4.0, 4.0);
        else if (is(sp->dt, "f32") && (is(sp->op, "sum") || is(sp->op, "mean") || is(sp->op, "count-gt")))
            gen_fill_uniform(p, "x", 0.0, 1.0);
        else if (!stat_is_float(sp->dt) && (is(sp->op, "max") || is(sp->op, "min")))
            gen_fill_int(p, "x", "-1000000000", "1000000000");
        else if (!stat_is_float(sp->dt))
            gen_fill_int(p, "x", "-1000", "1000");
        if (is(sp->epi, "acc"))
            gen_fill_uniform(p, "out", -10.0, 10.0);

        if (ld) {
            gen_config(p, "small", "r=256,c=300,ld=320");
            gen_config(p, "edge", "r=1,c=1,ld=3");
            gen_config(p, "edge-prime", "r=37,c=131,ld=137");
            gen_config(p, "large", (is(sp->dt, "f64") ? LARGE64_LD : LARGE32_LD)[k % 4]);
        } else {
            gen_config(p, "small", "r=256,c=300");
            gen_config(p, "edge", "r=1,c=1");
            gen_config(p, "edge-col", "r=7,c=1");
            gen_config(p, "edge-prime", "r=37,c=131");
            gen_config(p, "large", (is(sp->dt, "f64") ? LARGE64 : LARGE32)[k % 4]);
        }
        /* Tolerances: f32 row sums over up to 65536 terms in any order. */
        if (is(od, "f32")) {
            if (is(sp->op, "prod"))
                gen_tolerance(p, 1e-5, 1e-3);
            else if (!is(sp->op, "max") && !is(sp->op, "min"))
                gen_tolerance(p, 1e-4, 1e-3);
        } else if (is(od, "f64") && is(sp->op, "prod")) {
            gen_tolerance(p, 1e-12, 1e-8);
        }
        int es = is(sp->dt, "f64") || is(sp->dt, "i64") ? 8 : 4;
        int os = is(od, "f32") || is(od, "i32") ? 4 : 8;
        char flops[32], bytes[96];
        int two = is(sp->op, "var") || is(sp->op, "lse") || is(sp->op, "welford");
        snprintf(flops, sizeof flops, "%d*r*c", (two ? 3 : 1) + (stat_normalises(sp) ? 1 : 0) + 
                 (is(sp->op, "sumsq") || is(sp->op, "l2") || is(sp->op, "rms") ? 1 : 0));
        if (stat_normalises(sp) || is(sp->op, "range"))
            snprintf(bytes, sizeof bytes, "%d*r*c", 2 * es);
        else
            snprintf(bytes, sizeof bytes, "%d*r*c+%d*r", es,
                     os * (welford2 || is(sp->epi, "acc") || is(sp->epi, "bias") ? 2 : 1));
        gen_cost(p, flops, bytes);

        StrBuf body = STRBUF_INIT, *s = &body;
        sb_printf(s, "/* For each row i of the r x c matrix x, stored %s:\n *   %s,\n *   %s. */\n",
                  sp->layout == 'c' ? "column-major (x[j * r + i])"
                  : ld              ? "row-major with leading dimension ld (x[i * ld + j])"
                                    : "row-major (x[i * c + j])",
                  math_of(sp), epi_math(sp));
        if (is(sp->dt, "f32") && !is(sp->op, "max") && !is(sp->op, "min") && !is(sp->op, "range") &&
            !is(sp->op, "count-gt"))
            sb_append(s, "/* Row statistics are accumulated in double. */\n");
        sb_printf(s, "void %s(const %s *x, ", entry, T);
        if (stat_normalises(sp) || is(sp->op, "range"))
            sb_printf(s, "%s *y", T);
        else if (welford2)
            sb_printf(s, "%s *mean_out, %s *var_out", stat_ctype(od), stat_ctype(od));
        else
            sb_printf(s, "%s *out", stat_ctype(od));
        if (is(sp->epi, "bias"))
            sb_printf(s, ", const %s *bias", stat_ctype(od));
        sb_printf(s, "%s, int r, int c%s)\n{\n", sig, ld ? ", int ld" : "");
        if (sp->layout == 'c')
            emit_colmajor(s, sp);
        else
            emit_rowmajor(s, sp);
        sb_append(s, "}\n");
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        emit_cuda(p, sp, entry, &REFERENCE_ROWS);
        if (sp->layout != 'c')
            emit_row_alternatives(p, sp, entry);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_reduce_rows = {"reduce_rows", "reduction", 54, generate};
