/* reduce_cols — one reduction per column of an r x c matrix: sum, mean,
 * max, min, sum of squares, L1/L2/RMS norms, two-pass and Welford variance,
 * logsumexp, product of values near 1, largest magnitude, range and counts
 * above a threshold.  Programs vary by operation, dtype (f32 accumulating in
 * double, f64, i32 widening to i64), input layout (row-major, where a column
 * is strided and the natural loop keeps one accumulator per column while
 * sweeping the rows; row-major with a padded leading dimension ld >= c;
 * column-major, where each column is contiguous) and a fused epilogue: none,
 * scale by alpha, square root, per-column bias, accumulate into the output,
 * or normalise the matrix by the column statistic (L1/L2/RMS/max-abs
 * scaling, centring, standardising, batch-norm with gamma and beta,
 * log-softmax over dim 0, min-max).  The large configs cycle through
 * square, wide, tall and very tall shapes.
 *
 * The loops are written in the transposed view (statistic index i, reduced
 * index j over c) and renamed at the end, so both layouts share one set of
 * emitters. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_stat.h"
#include "gen_tmpl.h"

static const StatSpec SPECS[] = {
    {"sum", "f32", 'r', ""}, {"sum", "f64", 'r', ""}, {"sum", "i32", 'r', ""},
    {"sum", "f32", 'l', "scale"}, {"sum", "f64", 'c', ""}, {"sum", "f32", 'c', "acc"},
    {"sum", "f32", 'r', "bias"}, {"sum", "f32", 'r', "norm"}, {"sum", "i32", 'c', ""},
    {"mean", "f32", 'r', ""}, {"mean", "f64", 'l', ""}, {"mean", "f32", 'c', ""},
    {"mean", "f64", 'r', "norm"}, {"mean", "i32", 'r', ""}, {"mean", "f32", 'l', "bias"},
    {"max", "f32", 'r', ""}, {"max", "f64", 'c', ""}, {"max", "i32", 'r', ""}, {"max", "f32", 'l', ""},
    {"min", "f32", 'r', ""}, {"min", "f64", 'r', ""}, {"min", "i32", 'c', ""},
    {"sumsq", "f32", 'r', ""}, {"sumsq", "f64", 'l', "scale"}, {"sumsq", "i32", 'r', ""},
    {"l2", "f32", 'r', ""}, {"l2", "f64", 'c', ""}, {"l2", "f32", 'r', "norm"}, {"l2", "f64", 'l', "norm"},
    {"l1", "f32", 'r', ""}, {"l1", "f64", 'r', "norm"}, {"l1", "i32", 'c', ""},
    {"rms", "f32", 'l', ""}, {"rms", "f64", 'r', "norm"},
    {"var", "f32", 'r', ""}, {"var", "f64", 'r', "sqrt"}, {"var", "f32", 'r', "norm"},
    {"var", "f64", 'l', "affine"}, {"var", "f32", 'c', "affine"}, {"var", "f64", 'c', ""},
    {"welford", "f32", 'r', "sqrt"}, {"welford", "f64", 'r', ""},
    {"lse", "f32", 'r', ""}, {"lse", "f64", 'c', ""}, {"lse", "f32", 'r', "norm"}, {"lse", "f64", 'l', "norm"},
    {"count-gt", "f32", 'r', ""}, {"count-gt", "i32", 'l', ""}, {"count-gt", "f64", 'c', ""},
    {"prod", "f32", 'r', ""}, {"prod", "f64", 'c', ""},
    {"amax", "f32", 'r', ""}, {"amax", "f64", 'r', "norm"},
    {"range", "f32", 'r', "norm"},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Contiguous runs (column-major input), written in the transposed view:
 * one pass or two over each run. */
static void emit_contig(StrBuf *s, const StatSpec *sp)
{
    const char *T = stat_ctype(sp->dt);
    const char *op = sp->op;
    char val[64];
    sb_append(s, "    for (int i = 0; i < r; i++) {\n");
    sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, "c");
    if (stat_normalises(sp))
        sb_printf(s, "        %s *yrow = y + (size_t)i * c;\n", T);
    if (is(op, "var") || is(op, "lse") || is(op, "welford") || is(op, "range")) {
        if (is(op, "var")) {
            sb_append(s, "        double mean = 0.0;\n        for (int j = 0; j < c; j++)\n"
                         "            mean += row[j];\n        mean /= c;\n"
                         "        double ss = 0.0;\n        for (int j = 0; j < c; j++) {\n"
                         "            double d = row[j] - mean;\n            ss += d * d;\n        }\n");
            if (stat_normalises(sp))
                sb_printf(s, "        double inv = 1.0 / sqrt(ss / c + eps);\n"
                             "        for (int j = 0; j < c; j++)\n"
                             "            yrow[j] = (row[j] - mean) * inv%s;\n",
                          is(sp->epi, "affine") ? " * gamma[i] + beta[i]" : "");
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

/* Strided runs (row-major input), in the transposed view: run i is
 * x[j * S + i] for j < c, with S = r (renamed to c) or ld.  One accumulator
 * per run, sweeping the runs together. */
static void emit_strided(StrBuf *s, const StatSpec *sp)
{
    const char *T = stat_ctype(sp->dt);
    const char *A = stat_acc_type(sp);
    const char *op = sp->op;
    const char *S = sp->layout == 'l' ? "ld" : "r";
    int f32 = is(sp->dt, "f32");
    char val[64];
    if (is(op, "var") || is(op, "welford")) {
        const char *a = "mean", *b = is(op, "var") ? "ss" : "m2";
        sb_printf(s, "    double *%s = calloc((size_t)r, sizeof *%s);\n", a, a);
        sb_printf(s, "    double *%s = calloc((size_t)r, sizeof *%s);\n", b, b);
        sb_printf(s, "    if (!%s || !%s) {\n        free(%s);\n        free(%s);\n        return;\n    }\n", a, b,
                  a, b);
        if (is(op, "var")) {
            sb_printf(s, "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        for (int i = 0; i < r; i++)\n            mean[i] += col[i];\n    }\n"
                         "    for (int i = 0; i < r; i++)\n        mean[i] /= c;\n"
                         "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        for (int i = 0; i < r; i++) {\n"
                         "            double d = col[i] - mean[i];\n            ss[i] += d * d;\n        }\n    }\n",
                      T, S, T, S);
        } else {
            sb_printf(s, "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        for (int i = 0; i < r; i++) {\n"
                         "            double d = col[i] - mean[i];\n            mean[i] += d / (j + 1);\n"
                         "            m2[i] += d * (col[i] - mean[i]);\n        }\n    }\n",
                      T, S);
        }
        if (stat_normalises(sp)) {
            sb_printf(s, "    for (int i = 0; i < r; i++)\n        ss[i] = 1.0 / sqrt(ss[i] / c + eps);\n"
                         "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        %s *ycol = y + (size_t)j * r;\n        for (int i = 0; i < r; i++)\n"
                         "            ycol[i] = %s(col[i] - mean[i]) * ss[i]%s%s;\n    }\n",
                      T, S, T, f32 ? "(float)(" : "", is(sp->epi, "affine") ? " * gamma[i] + beta[i]" : "",
                      f32 ? ")" : "");
        } else if (is(op, "welford") && !sp->epi[0]) {
            sb_printf(s, "    for (int i = 0; i < r; i++) {\n        mean_out[i] = %smean[i];\n"
                         "        var_out[i] = %sm2[i] / c%s;\n    }\n",
                      f32 ? "(float)" : "", f32 ? "(float)(" : "", f32 ? ")" : "");
        } else {
            sb_append(s, "    for (int i = 0; i < r; i++)\n");
            snprintf(val, sizeof val, "%s[i] / c", b);
            stat_emit_store(s, sp, "        ", val);
        }
        sb_printf(s, "    free(%s);\n    free(%s);\n", a, b);
        return;
    }
    if (is(op, "lse") || is(op, "range")) {
        int lse = is(op, "lse");
        const char *a = lse ? "m" : "lo", *b = lse ? "s" : "hi";
        sb_printf(s, "    %s *%s = malloc((size_t)r * sizeof *%s);\n", T, a, a);
        if (lse)
            sb_printf(s, "    double *%s = calloc((size_t)r, sizeof *%s);\n", b, b);
        else
            sb_printf(s, "    %s *%s = malloc((size_t)r * sizeof *%s);\n", T, b, b);
        sb_printf(s, "    if (!%s || !%s) {\n        free(%s);\n        free(%s);\n        return;\n    }\n", a, b,
                  a, b);
        if (lse)
            sb_append(s, "    for (int i = 0; i < r; i++)\n        m[i] = x[i];\n");
        else
            sb_append(s, "    for (int i = 0; i < r; i++)\n        lo[i] = hi[i] = x[i];\n");
        sb_printf(s, "    for (int j = 1; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                     "        for (int i = 0; i < r; i++) {\n", T, S);
        if (lse)
            sb_append(s, "            if (col[i] > m[i])\n                m[i] = col[i];\n        }\n    }\n");
        else
            sb_append(s, "            if (col[i] < lo[i])\n                lo[i] = col[i];\n"
                         "            if (col[i] > hi[i])\n                hi[i] = col[i];\n        }\n    }\n");
        if (lse) {
            sb_printf(s, "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        for (int i = 0; i < r; i++)\n"
                         "            s[i] += exp((double)col[i] - m[i]);\n    }\n", T, S);
            if (stat_normalises(sp)) {
                sb_printf(s, "    for (int i = 0; i < r; i++)\n        s[i] = m[i] + log(s[i]); /* logsumexp */\n"
                             "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                             "        %s *ycol = y + (size_t)j * r;\n        for (int i = 0; i < r; i++)\n"
                             "            ycol[i] = %s(col[i] - s[i]);\n    }\n",
                          T, S, T, f32 ? "(float)" : "");
            } else {
                sb_append(s, "    for (int i = 0; i < r; i++)\n");
                stat_emit_store(s, sp, "        ", "m[i] + log(s[i])");
            }
        } else {
            sb_printf(s, "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                         "        %s *ycol = y + (size_t)j * r;\n        for (int i = 0; i < r; i++) {\n"
                         "            %s span = hi[i] - lo[i];\n"
                         "            ycol[i] = span > 0 ? (col[i] - lo[i]) / span : 0;\n        }\n    }\n",
                      T, S, T, T);
        }
        sb_printf(s, "    free(%s);\n    free(%s);\n", a, b);
        return;
    }
    /* Single-pass statistics: accumulate straight into out when it has the
     * accumulator's type and nothing is applied afterwards. */
    int in_place = !stat_normalises(sp) && is(A, stat_ctype(stat_out_dtype(sp))) && sp->epi[0] == '\0' && !is(op, "mean") &&
                   !is(op, "l2") && !is(op, "rms");
    const char *acc = in_place ? "out" : "acc";
    if (!in_place)
        sb_printf(s, "    %s *acc = malloc((size_t)r * sizeof *acc);\n    if (!acc)\n        return;\n", A);
    int first = is(op, "max") || is(op, "min");
    if (first)
        sb_printf(s, "    for (int i = 0; i < r; i++)\n        %s[i] = x[i];\n", acc);
    else
        sb_printf(s, "    for (int i = 0; i < r; i++)\n        %s[i] = %s;\n", acc, is(op, "prod") ? "1.0" : "0");
    sb_printf(s, "    for (int j = %d; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n", first, T, S);
    sb_append(s, "        for (int i = 0; i < r; i++)\n");
    char a[16];
    snprintf(a, sizeof a, "%s[i]", acc);
    stat_emit_update(s, sp, "            ", a, "col[i]");
    sb_append(s, "    }\n");
    if (stat_normalises(sp)) {
        sb_append(s, "    for (int i = 0; i < r; i++)\n");
        if (is(op, "sum"))
            sb_append(s, "        acc[i] = 1.0 / acc[i];\n");
        else if (is(op, "mean"))
            sb_append(s, "        acc[i] /= c;\n");
        else if (is(op, "l2"))
            sb_append(s, "        acc[i] = 1.0 / fmax(sqrt(acc[i]), eps);\n");
        else if (is(op, "l1"))
            sb_append(s, "        acc[i] = 1.0 / fmax(acc[i], eps);\n");
        else if (is(op, "rms"))
            sb_append(s, "        acc[i] = 1.0 / sqrt(acc[i] / c + eps);\n");
        else if (is(op, "amax"))
            sb_append(s, "        acc[i] = acc[i] > 0.0 ? 1.0 / acc[i] : 0.0;\n");
        sb_printf(s, "    for (int j = 0; j < c; j++) {\n        const %s *col = x + (size_t)j * %s;\n"
                     "        %s *ycol = y + (size_t)j * r;\n        for (int i = 0; i < r; i++)\n", T, S, T);
        if (is(op, "mean"))
            sb_append(s, "            ycol[i] = col[i] - acc[i];\n    }\n");
        else
            sb_printf(s, "            ycol[i] = %scol[i] * acc[i]%s;\n    }\n", f32 ? "(float)(" : "",
                      f32 ? ")" : "");
    } else if (!in_place) {
        sb_append(s, "    for (int i = 0; i < r; i++)\n");
        stat_emit_store(s, sp, "        ", stat_value_of(val, sp, "acc[i]"));
    }
    if (!in_place)
        sb_append(s, "    free(acc);\n");
}

/* Renames the transposed view: i <-> j, r <-> c, row <-> col, yrow <-> ycol. */
static void transpose_names(StrBuf *dst, const char *src)
{
    static const char *const from[] = {"i", "j", "r", "c", "row", "col", "yrow", "ycol"};
    static const char *const to[] = {"j", "i", "c", "r", "col", "row", "ycol", "yrow"};
    for (const char *q = src; *q;) {
        if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_') {
            const char *e = q;
            while ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9') || *e == '_')
                e++;
            const char *rep = NULL;
            for (int k = 0; k < 8; k++)
                if (strlen(from[k]) == (size_t)(e - q) && strncmp(from[k], q, (size_t)(e - q)) == 0)
                    rep = to[k];
            if (rep)
                sb_append(dst, rep);
            else
                sb_append_n(dst, q, (size_t)(e - q));
            q = e;
        } else if (*q >= '0' && *q <= '9') {
            const char *e = q; /* numbers such as 1e-6 or 0x1f stay whole */
            while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'z') || *e == '.')
                e++;
            sb_append_n(dst, q, (size_t)(e - q));
            q = e;
        } else {
            sb_putc(dst, *q++);
        }
    }
}

static const char *math_of(const StatSpec *sp)
{
    const char *op = sp->op;
    if (is(op, "sum")) return "s_j = sum_i x[i][j]";
    if (is(op, "mean")) return "s_j = (1/r) sum_i x[i][j]";
    if (is(op, "max")) return "s_j = max_i x[i][j]";
    if (is(op, "min")) return "s_j = min_i x[i][j]";
    if (is(op, "sumsq")) return "s_j = sum_i x[i][j]^2";
    if (is(op, "l2")) return "s_j = sqrt(sum_i x[i][j]^2)";
    if (is(op, "l1")) return "s_j = sum_i |x[i][j]|";
    if (is(op, "rms")) return "s_j = sqrt((1/r) sum_i x[i][j]^2)";
    if (is(op, "var")) return "s_j = (1/r) sum_i (x[i][j] - mean_j)^2 (two passes)";
    if (is(op, "welford")) return "mean_j and s_j = (1/r) sum_i (x[i][j] - mean_j)^2 by Welford's update";
    if (is(op, "lse")) return "s_j = log sum_i exp(x[i][j]) (max-shifted)";
    if (is(op, "count-gt")) return "s_j = #{i : x[i][j] > thresh}";
    if (is(op, "prod")) return "s_j = prod_i x[i][j] (values close to 1)";
    if (is(op, "amax")) return "s_j = max_i |x[i][j]|";
    return "lo_j = min_i x[i][j], hi_j = max_i x[i][j]";
}

static const char *epi_math(const StatSpec *sp)
{
    const char *op = sp->op, *e = sp->epi;
    if (is(e, "scale")) return "out[j] = alpha * s_j";
    if (is(e, "sqrt")) return "out[j] = sqrt(s_j)";
    if (is(e, "bias")) return "out[j] = s_j + bias[j]";
    if (is(e, "acc")) return "out[j] = beta * out[j] + s_j";
    if (is(e, "affine")) return "y[i][j] = (x[i][j] - mean_j) / sqrt(s_j + eps) * gamma[j] + beta[j] (batch norm)";
    if (is(op, "welford")) return "mean_out[j] = mean_j, var_out[j] = s_j";
    if (!stat_normalises(sp)) return "out[j] = s_j";
    if (is(op, "sum")) return "y[i][j] = x[i][j] / s_j (columns sum to 1)";
    if (is(op, "mean")) return "y[i][j] = x[i][j] - s_j (centred columns)";
    if (is(op, "l2") || is(op, "l1")) return "y[i][j] = x[i][j] / max(s_j, eps)";
    if (is(op, "rms")) return "y[i][j] = x[i][j] / sqrt(s_j^2 + eps)";
    if (is(op, "var")) return "y[i][j] = (x[i][j] - mean_j) / sqrt(s_j + eps) (standardised columns)";
    if (is(op, "lse")) return "y[i][j] = x[i][j] - s_j (log-softmax over each column)";
    if (is(op, "amax")) return "y[i][j] = x[i][j] / s_j (0 for an all-zero column)";
    return "y[i][j] = (x[i][j] - lo_j) / (hi_j - lo_j) (0 for a constant column)";
}

static const char *entry_of(const StatSpec *sp)
{
    static char buf[64];
    const char *op = sp->op, *e = sp->epi;
    if (is(e, "affine"))
        return "col_batch_norm";
    if (stat_normalises(sp)) {
        if (is(op, "sum")) return "col_normalize_sum";
        if (is(op, "mean")) return "col_center";
        if (is(op, "var")) return "col_standardize";
        if (is(op, "lse")) return "col_log_softmax";
        if (is(op, "range")) return "col_minmax_scale";
        snprintf(buf, sizeof buf, "col_normalize_%s", op);
        return buf;
    }
    if (is(op, "welford"))
        return is(e, "sqrt") ? "col_std" : "col_mean_var";
    if (is(op, "var") && is(e, "sqrt"))
        return "col_std";
    if (is(op, "lse"))
        return "col_logsumexp";
    if (is(op, "count-gt"))
        return "col_count_above";
    snprintf(buf, sizeof buf, "col_%s", op);
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
    if (strstr(body, "malloc") || strstr(body, "calloc") || strstr(body, "llabs"))
        sb_append(dst, "#include <stdlib.h>\n");
    sb_append(dst, "\n");
}

/* The Acc struct and its identity, acc_of (one element) and acc_merge;
 * returns sizeof(Acc). */
static int emit_acc(StrBuf *k, const StatSpec *sp, TmplSubs *ts)
{
    const char *op = sp->op;
    int fl = stat_is_float(sp->dt), d64 = is(sp->dt, "f64"), esz = d64 ? 8 : 4;
    const char *inf = d64 ? "__longlong_as_double(0x7ff0000000000000LL)" : "__int_as_float(0x7f800000)";
    if (is(op, "max") || is(op, "min")) {
        char id[64];
        if (!fl)
            snprintf(id, sizeof id, "%s", is(op, "max") ? "(-2147483647 - 1)" : "2147483647");
        else
            snprintf(id, sizeof id, "%s%s", is(op, "max") ? "-" : "", inf);
        tmpl_set(ts, "ID", id);
        tmpl_set(ts, "CMP", is(op, "max") ? ">" : "<");
        tmpl_expand(k, ts, "struct Acc {\n    @T m;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@ID}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return b.m @CMP a.m ? b : a; }\n");
        return esz;
    }
    if (is(op, "range")) {
        tmpl_set(ts, "INF", inf);
        tmpl_expand(k, ts, "struct Acc {\n    @T lo, hi;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@INF, -@INF}; }\n"
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
        tmpl_expand(k, ts, "/* sum of exp(x_i) = s * exp(m); s == 0: no element yet */\n"
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

/* The column statistic as an expression of the combined accumulator a. */
static const char *stat_of(const StatSpec *sp)
{
    const char *op = sp->op;
    if (is(op, "mean")) return stat_is_float(sp->dt) ? "a.s / r" : "(double)a.s / r";
    if (is(op, "l2")) return "sqrt(a.s)";
    if (is(op, "rms")) return "sqrt(a.s / r)";
    if (is(op, "max") || is(op, "min") || is(op, "amax")) return "a.m";
    if (is(op, "count-gt")) return "a.c";
    if (is(op, "var") || is(op, "welford")) return "a.m2 / r";
    if (is(op, "lse")) return "a.m + log(a.s)";
    return "a.s";
}

/* The statements that write column j's result, indented by ind: out[j]
 * (and the like), or, for the normalising epilogues, y_at = f(x_at) in the
 * loop `loop` over the column's elements. */
static void emit_epilogue(StrBuf *k, const StatSpec *sp, TmplSubs *ts, const char *ind, const char *loop,
                          const char *y_at, const char *x_at)
{
    const char *op = sp->op, *e = sp->epi;
    if (is(op, "welford") && !e[0]) {
        sb_printf(k, "%s", ind);
        tmpl_expand(k, ts, "mean_out[j] = @cast(a.mean);\n");
        sb_printf(k, "%s", ind);
        tmpl_expand(k, ts, "var_out[j] = @cast(a.m2 / r);\n");
        return;
    }
    if (!stat_normalises(sp) && !is(op, "range")) {
        char expr[128];
        const char *v = stat_of(sp);
        if (is(e, "scale"))
            snprintf(expr, sizeof expr, "alpha * %s", v);
        else if (is(e, "sqrt"))
            snprintf(expr, sizeof expr, "sqrt(%s)", v);
        else if (is(e, "bias"))
            snprintf(expr, sizeof expr, "%s + bias[j]", v);
        else if (is(e, "acc"))
            snprintf(expr, sizeof expr, "beta * out[j] + %s", v);
        else
            snprintf(expr, sizeof expr, "%s", v);
        int cast = is(stat_out_dtype(sp), "f32") && !is(op, "max") && !is(op, "min");
        sb_printf(k, "%sout[j] = %s%s%s;\n", ind, cast ? "(float)(" : "", expr, cast ? ")" : "");
        return;
    }
    const char *pre, *elem;
    if (is(op, "sum")) pre = "const double inv = 1.0 / a.s;", elem = "@cast(@X * inv)";
    else if (is(op, "mean")) pre = "const double mean = a.s / r;", elem = "@X - mean";
    else if (is(op, "l2")) pre = "const double inv = 1.0 / fmax(sqrt(a.s), (double)eps);", elem = "@cast(@X * inv)";
    else if (is(op, "l1")) pre = "const double inv = 1.0 / fmax(a.s, (double)eps);", elem = "@cast(@X * inv)";
    else if (is(op, "rms")) pre = "const double inv = 1.0 / sqrt(a.s / r + eps);", elem = "@cast(@X * inv)";
    else if (is(op, "amax")) pre = "const double inv = a.m > 0.0 ? 1.0 / a.m : 0.0;", elem = "@cast(@X * inv)";
    else if (is(op, "var") && is(e, "affine"))
        pre = "const double inv = 1.0 / sqrt(a.m2 / r + eps);",
        elem = "@cast((@X - a.mean) * inv * gamma[j] + beta[j])";
    else if (is(op, "var")) pre = "const double inv = 1.0 / sqrt(a.m2 / r + eps);", elem = "@cast((@X - a.mean) * inv)";
    else if (is(op, "lse")) pre = "const double lse = a.m + log(a.s);", elem = "@cast(@X - lse)";
    else pre = "const @T span = a.hi - a.lo;", elem = "span > 0 ? (@X - a.lo) / span : 0";
    tmpl_set(ts, "X", x_at);
    sb_printf(k, "%s", ind);
    tmpl_expand(k, ts, pre);
    sb_printf(k, "\n%s%s\n%s    %s = ", ind, loop, ind, y_at);
    tmpl_expand(k, ts, elem);
    sb_append(k, ";\n");
}

static void emit_cuda(GenProgram *p, const StatSpec *sp, const char *entry)
{
    StrBuf *k = gen_cuda_src(p);
    TmplSubs ts;
    tmpl_init(&ts, 1);
    const char *T = stat_cuda_type(sp->dt), *OT = stat_cuda_type(stat_out_dtype(sp));
    tmpl_set(&ts, "T", T);
    tmpl_set(&ts, "cast", is(stat_out_dtype(sp), "f32") ? "(float)" : "");
    int colmajor = sp->layout == 'c', ld = sp->layout == 'l';
    int welford2 = is(sp->op, "welford") && !sp->epi[0];
    int mat_out = stat_normalises(sp) || is(sp->op, "range");

    /* The parameter list, in the C function's order, and the launch args. */
    char params[320], args[128];
    int np = 0, na = 0;
    np += snprintf(params + np, sizeof params - np, "const %s *__restrict__ x, ", T);
    na += snprintf(args + na, sizeof args - na, "x,");
    if (mat_out) {
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
    if (is(sp->epi, "affine")) {
        np += snprintf(params + np, sizeof params - np, ", const %s *__restrict__ gamma, const %s *__restrict__ beta",
                       T, T);
        na += snprintf(args + na, sizeof args - na, ",gamma,beta");
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

    sb_printf(k, "/* Per column j of an r x c matrix stored %s:\n *   %s,\n *   %s.\n",
              colmajor ? "column-major" : ld ? "row-major with leading dimension ld" : "row-major",
              math_of(sp), epi_math(sp));
    sb_append(k, colmajor ? " * One block per column: strided partial results, then a shared-memory tree. */\n"
                          : " * One thread per column, walking the rows. */\n");
    int acc_bytes = emit_acc(k, sp, &ts);
    char decl[400];
    snprintf(decl, sizeof decl, "extern \"C\" __global__ void %s(%s)", entry, params);
    sb_append(k, "\n");
    if (!colmajor) {
        tmpl_set(&ts, "LD", ld ? "ld" : "c");
        tmpl_put_wrapped(k, decl);
        tmpl_expand(k, &ts, "\n{\n"
                            "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (j >= c)\n        return;\n"
                            "    Acc a = acc_identity();\n"
                            "    for (int i = 0; i < r; i++)\n"
                            "        a = acc_merge(a, acc_of(x[(long long)i * @LD + j]@THA));\n");
        char x_at[64];
        snprintf(x_at, sizeof x_at, "x[(long long)i * %s + j]", ld ? "ld" : "c");
        emit_epilogue(k, sp, &ts, "    ", "for (int i = 0; i < r; i++)", "y[(long long)i * c + j]", x_at);
        sb_append(k, "}\n");
        gen_launch(p, entry, "(c+255)/256", "256", NULL, args);
        gen_knob(p, "mapping", "one-column-per-thread");
    } else {
        tmpl_expand(k, &ts,
                    "/* Combines sh[0 .. blockDim.x) into sh[0]; blockDim.x is a power of two. */\n"
                    "__device__ void block_reduce(Acc *sh)\n{\n"
                    "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                    "        __syncthreads();\n"
                    "        if (threadIdx.x < s)\n"
                    "            sh[threadIdx.x] = acc_merge(sh[threadIdx.x], sh[threadIdx.x + s]);\n"
                    "    }\n"
                    "    __syncthreads();\n}\n\n");
        tmpl_put_wrapped(k, decl);
        tmpl_expand(k, &ts, "\n{\n"
                            "    extern __shared__ Acc sh[];\n"
                            "    const int j = blockIdx.x;\n"
                            "    const @T *col = x + (long long)j * r;\n"
                            "    Acc a = acc_identity();\n"
                            "    for (int i = threadIdx.x; i < r; i += blockDim.x)\n"
                            "        a = acc_merge(a, acc_of(col[i]@THA));\n"
                            "    sh[threadIdx.x] = a;\n"
                            "    block_reduce(sh);\n"
                            "    a = sh[0];\n");
        if (mat_out) {
            tmpl_expand(k, &ts, "    @T *ycol = y + (long long)j * r;\n");
            emit_epilogue(k, sp, &ts, "    ", "for (int i = threadIdx.x; i < r; i += blockDim.x)", "ycol[i]",
                          "col[i]");
        } else {
            sb_append(k, "    if (threadIdx.x == 0) {\n");
            emit_epilogue(k, sp, &ts, "        ", NULL, NULL, NULL);
            sb_append(k, "    }\n");
        }
        sb_append(k, "}\n");
        char smem[32];
        snprintf(smem, sizeof smem, "256*%d", acc_bytes);
        gen_launch(p, entry, "c", "256", smem, args);
        gen_knob(p, "mapping", "one-column-per-block-reduction-shared");
    }
    gen_knob(p, "block", "256");
}

/* Large shapes, cycled through: square-ish, tall, very tall and narrow, wide. */
static const char *const LARGE32[] = {"r=8192,c=16384", "r=65536,c=2048", "r=2097152,c=64", "r=1024,c=131072"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=65536,c=1024", "r=1048576,c=64", "r=1024,c=65536"};
static const char *const LARGE32_LD[] = {"r=8192,c=16000,ld=16384", "r=65536,c=2000,ld=2048",
                                         "r=2097152,c=60,ld=64", "r=1024,c=131000,ld=131072"};
static const char *const LARGE64_LD[] = {"r=8192,c=8000,ld=8192", "r=65536,c=1000,ld=1024",
                                         "r=1048576,c=60,ld=64", "r=1024,c=65000,ld=65536"};

static int generate(GenCtx *g)
{
    for (int k = 0; k < NSPECS; k++) {
        const StatSpec *sp = &SPECS[k];
        const char *od = stat_out_dtype(sp);
        const char *T = stat_ctype(sp->dt);
        int ld = sp->layout == 'l';
        int affine = is(sp->epi, "affine");
        char variant[80];
        snprintf(variant, sizeof variant, "%s-%s%s%s%s", sp->op, sp->dt,
                 sp->layout == 'c' ? "-colmajor" : ld ? "-ld" : "", sp->epi[0] ? "-" : "", sp->epi);
        const char *entry = entry_of(sp);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "per column of an r x c %s matrix (%s): %s; %s",
                     sp->layout == 'c' ? "column-major" : ld ? "row-major (leading dimension ld)" : "row-major",
                     sp->dt, math_of(sp), epi_math(sp));
        const char *xshape = sp->layout == 'c' ? "c,r" : ld ? "r,ld" : "r,c";
        gen_arg(p, "x", sp->dt, "in", xshape);
        int welford2 = is(sp->op, "welford") && !sp->epi[0];
        int mat_out = stat_normalises(sp) || is(sp->op, "range");
        if (mat_out) {
            gen_arg(p, "y", sp->dt, "out", sp->layout == 'c' ? "c,r" : "r,c");
        } else if (welford2) {
            gen_arg(p, "mean_out", od, "out", "c");
            gen_arg(p, "var_out", od, "out", "c");
        } else {
            gen_arg(p, "out", od, is(sp->epi, "acc") ? "inout" : "out", "c");
        }
        if (is(sp->epi, "bias"))
            gen_arg(p, "bias", od, "in", "c");
        if (affine) {
            gen_arg(p, "gamma", sp->dt, "in", "c");
            gen_arg(p, "beta", sp->dt, "in", "c");
        }
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
            gen_scalar(p, "eps", sp->dt, is(sp->dt, "f32") ? 1e-5 : 1e-12);
            snprintf(sig, sizeof sig, ", %s eps", T);
        }
        gen_arg(p, "r", "i32", "param", NULL);
        gen_arg(p, "c", "i32", "param", NULL);
        if (ld)
            gen_arg(p, "ld", "i32", "param", NULL);

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
        if (affine)
            gen_fill_uniform(p, "gamma", 0.5, 1.5);

        if (ld) {
            gen_config(p, "small", "r=300,c=256,ld=272");
            gen_config(p, "edge", "r=1,c=1,ld=3");
            gen_config(p, "edge-prime", "r=131,c=37,ld=41");
            gen_config(p, "large", (is(sp->dt, "f64") ? LARGE64_LD : LARGE32_LD)[k % 4]);
        } else {
            gen_config(p, "small", "r=300,c=256");
            gen_config(p, "edge", "r=1,c=1");
            gen_config(p, "edge-row", "r=1,c=7");
            gen_config(p, "edge-prime", "r=131,c=37");
            gen_config(p, "large", (is(sp->dt, "f64") ? LARGE64 : LARGE32)[k % 4]);
        }
        /* f32 column sums run over up to 2^21 terms in any order. */
        if (is(od, "f32")) {
            if (is(sp->op, "prod"))
                gen_tolerance(p, 1e-5, 1e-3);
            else if (!is(sp->op, "max") && !is(sp->op, "min"))
                gen_tolerance(p, 1e-4, 1e-3);
        } else if (is(od, "f64") && is(sp->op, "prod")) {
            gen_tolerance(p, 1e-12, 1e-8);
        }
        int es = is(sp->dt, "f64") ? 8 : 4;
        int os = is(od, "f32") || is(od, "i32") ? 4 : 8;
        char flops[32], bytes[96];
        int two = is(sp->op, "var") || is(sp->op, "lse") || is(sp->op, "welford");
        snprintf(flops, sizeof flops, "%d*r*c", (two ? 3 : 1) + (stat_normalises(sp) ? 1 : 0) + (affine ? 2 : 0) +
                 (is(sp->op, "sumsq") || is(sp->op, "l2") || is(sp->op, "rms") ? 1 : 0));
        if (mat_out)
            snprintf(bytes, sizeof bytes, affine ? "%d*r*c+%d*c" : "%d*r*c", 2 * es, 2 * es);
        else
            snprintf(bytes, sizeof bytes, "%d*r*c+%d*c", es,
                     os * (welford2 || is(sp->epi, "acc") || is(sp->epi, "bias") ? 2 : 1));
        gen_cost(p, flops, bytes);

        StrBuf body = STRBUF_INIT, view = STRBUF_INIT, *s = &body;
        sb_printf(s, "/* For each column j of the r x c matrix x, stored %s:\n *   %s,\n *   %s. */\n",
                  sp->layout == 'c' ? "column-major (x[j * r + i])"
                  : ld              ? "row-major with leading dimension ld (x[i * ld + j])"
                                    : "row-major (x[i * c + j])",
                  math_of(sp), epi_math(sp));
        if (is(sp->dt, "f32") && !is(sp->op, "max") && !is(sp->op, "min") && !is(sp->op, "range") &&
            !is(sp->op, "count-gt"))
            sb_append(s, "/* Column statistics are accumulated in double. */\n");
        sb_printf(s, "void %s(const %s *x, ", entry, T);
        if (mat_out)
            sb_printf(s, "%s *y", T);
        else if (welford2)
            sb_printf(s, "%s *mean_out, %s *var_out", stat_ctype(od), stat_ctype(od));
        else
            sb_printf(s, "%s *out", stat_ctype(od));
        if (is(sp->epi, "bias"))
            sb_printf(s, ", const %s *bias", stat_ctype(od));
        if (affine)
            sb_printf(s, ", const %s *gamma, const %s *beta", T, T);
        sb_printf(s, "%s, int r, int c%s)\n{\n", sig, ld ? ", int ld" : "");
        if (sp->layout == 'c')
            emit_contig(&view, sp);
        else
            emit_strided(&view, sp);
        transpose_names(s, sb_str(&view));
        sb_append(s, "}\n");
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        sb_release(&view);
        emit_cuda(p, sp, entry);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_reduce_cols = {"reduce_cols", "reduction", 54, generate};
