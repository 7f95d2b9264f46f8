/* reduce_all — whole-array reductions of n elements to one value (or two):
 * sum, product of values near 1, max, min, mean, variance (two-pass,
 * population or sample) and Welford's one-pass mean/variance/deviation, L1
 * and L2 norms (plain and BLAS-style overflow-safe scaling), sum of squares,
 * count above a threshold, logsumexp, range and largest magnitude.  Programs
 * vary by operation, dtype (f32, f64, i32, i64; integer sums widen to i64,
 * f32 sums accumulate in double) and layout (contiguous, or every stride-th
 * element of a larger buffer). */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_reduce.h"
#include "gen_tmpl.h"

typedef struct Spec {
    const char *op;
    const char *dt;
    int strided;
} Spec;

/* The 54 programs.  Operations come with the dtypes where they mean something
 * (no integer logsumexp, no integer product). */
static const Spec SPECS[] = {
    {"sum", "f32", 0}, {"sum", "f32", 1}, {"sum", "f64", 0}, {"sum", "f64", 1},
    {"sum", "i32", 0}, {"sum", "i32", 1}, {"sum", "i64", 0}, {"sum", "i64", 1},
    {"prod", "f32", 0}, {"prod", "f32", 1}, {"prod", "f64", 0}, {"prod", "f64", 1},
    {"max", "f32", 0}, {"max", "f32", 1}, {"max", "f64", 0}, {"max", "i32", 0},
    {"max", "i32", 1}, {"max", "i64", 0},
    {"min", "f32", 0}, {"min", "f64", 0}, {"min", "f64", 1}, {"min", "i32", 0}, {"min", "i64", 1},
    {"mean", "f32", 0}, {"mean", "f32", 1}, {"mean", "f64", 0}, {"mean", "i32", 0},
    {"var", "f32", 0}, {"var", "f32", 1}, {"var-sample", "f64", 0}, {"var-sample", "f64", 1},
    {"welford-meanvar", "f32", 0}, {"welford-std", "f64", 0}, {"welford-std", "f64", 1},
    {"l1", "f32", 0}, {"l1", "f64", 1}, {"l1", "i32", 0},
    {"l2", "f32", 0}, {"l2", "f64", 0}, {"l2", "f32", 1}, {"nrm2-scaled", "f64", 0},
    {"sumsq", "f32", 0}, {"sumsq", "f64", 0}, {"sumsq", "i32", 0},
    {"count-gt", "f32", 0}, {"count-gt", "f64", 1}, {"count-gt", "i32", 0},
    {"logsumexp", "f32", 0}, {"logsumexp", "f64", 0}, {"logsumexp", "f32", 1},
    {"logsumexp", "f64", 1},
    {"range", "f32", 0}, {"range", "i32", 0},
    {"amax", "f64", 0},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is_float(const char *dt) { return dt[0] == 'f'; }
static int is_64(const char *dt) { return strcmp(dt + 1, "64") == 0; }

static const char *ctype(const char *dt)
{
    if (strcmp(dt, "f32") == 0)
        return "float";
    if (strcmp(dt, "f64") == 0)
        return "double";
    if (strcmp(dt, "i32") == 0)
        return "int32_t";
    return "int64_t";
}

static int op_is(const Spec *s, const char *op) { return strcmp(s->op, op) == 0; }

/* Output dtype: integer sums and counts widen to i64; integer means are f64. */
static const char *out_dtype(const Spec *s)
{
    if (op_is(s, "count-gt"))
        return "i64";
    if (is_float(s->dt))
        return s->dt;
    if (op_is(s, "max") || op_is(s, "min") || op_is(s, "range"))
        return s->dt;
    if (op_is(s, "mean"))
        return "f64";
    return "i64";
}

static int size_of(const char *dt) { return is_64(dt) ? 8 : 4; }

static void emit_loop_open(StrBuf *s, const Spec *sp, int from1)
{
    sb_printf(s, "    for (int i = %d; i < n; i++) {\n", from1);
    sb_printf(s, "        %s v = x[%s];\n", ctype(sp->dt), sp->strided ? "i * stride" : "i");
}

static void emit_body(StrBuf *s, const Spec *sp)
{
    const char *T = ctype(sp->dt);
    const char *x0 = "x[0]";
    int f32 = strcmp(sp->dt, "f32") == 0;
    const char *cast = f32 ? "(float)" : "";
    if (op_is(sp, "sum") || op_is(sp, "mean") || op_is(sp, "l1") || op_is(sp, "sumsq") ||
        op_is(sp, "l2")) {
        const char *acc = is_float(sp->dt) ? "double" : "int64_t";
        sb_printf(s, "    %s s = 0;\n", acc);
        emit_loop_open(s, sp, 0);
        if (op_is(sp, "l1"))
            sb_printf(s, "        s += %s;\n", is_float(sp->dt) ? (f32 ? "fabsf(v)" : "fabs(v)")
                                                                  : "v < 0 ? -(int64_t)v : v");
        else if (op_is(sp, "sumsq") || op_is(sp, "l2"))
            sb_printf(s, "        s += %s * v;\n", is_float(sp->dt) ? "(double)v" : "(int64_t)v");
        else
            sb_append(s, "        s += v;\n");
        sb_append(s, "    }\n");
        if (op_is(sp, "mean"))
            sb_printf(s, "    *out = %s(%ss / n);\n", cast, is_float(sp->dt) ? "" : "(double)");
        else if (op_is(sp, "l2"))
            sb_printf(s, "    *out = %ssqrt(s);\n", cast);
        else
            sb_printf(s, "    *out = %ss;\n", cast);
    } else if (op_is(sp, "prod")) {
        sb_append(s, "    double p = 1.0;\n");
        emit_loop_open(s, sp, 0);
        sb_printf(s, "        p *= v;\n    }\n    *out = %sp;\n", cast);
    } else if (op_is(sp, "max") || op_is(sp, "min")) {
        int mx = op_is(sp, "max");
        sb_printf(s, "    %s m = %s;\n", T, x0);
        emit_loop_open(s, sp, 1);
        sb_printf(s, "        if (v %c m)\n            m = v;\n    }\n    *out = m;\n", mx ? '>' : '<');
    } else if (op_is(sp, "range")) {
        sb_printf(s, "    %s lo = %s, hi = %s;\n", T, x0, x0);
        emit_loop_open(s, sp, 1);
        sb_append(s, "        if (v < lo)\n            lo = v;\n"
                     "        if (v > hi)\n            hi = v;\n    }\n");
        sb_append(s, "    *out = hi - lo;\n");
    } else if (op_is(sp, "amax")) {
        sb_append(s, "    double m = 0.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        if (fabs(v) > m)\n            m = fabs(v);\n    }\n    *out = m;\n");
    } else if (op_is(sp, "var") || op_is(sp, "var-sample")) {
        sb_append(s, "    double mean = 0.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        mean += v;\n    }\n    mean /= n;\n\n    double ss = 0.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        double d = v - mean;\n        ss += d * d;\n    }\n");
        if (op_is(sp, "var"))
            sb_printf(s, "    *out = %s(ss / n);\n", cast);
        else
            sb_printf(s, "    *out = n > 1 ? ss / (n - 1) : 0.0;\n");
    } else if (op_is(sp, "welford-meanvar") || op_is(sp, "welford-std")) {
        sb_append(s, "    double mean = 0.0, m2 = 0.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        double d = v - mean;\n        mean += d / (i + 1);\n"
                     "        m2 += d * (v - mean);\n    }\n");
        if (op_is(sp, "welford-meanvar"))
            sb_printf(s, "    out[0] = %smean;\n    out[1] = %s(m2 / n);\n", cast, cast);
        else
            sb_append(s, "    *out = n > 1 ? sqrt(m2 / (n - 1)) : 0.0;\n");
    } else if (op_is(sp, "nrm2-scaled")) {
        sb_append(s, "    double scale = 0.0, ssq = 1.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        if (v == 0.0)\n            continue;\n"
                     "        double a = fabs(v);\n"
                     "        if (scale < a) {\n"
                     "            ssq = 1.0 + ssq * (scale / a) * (scale / a);\n"
                     "            scale = a;\n"
                     "        } else {\n"
                     "            ssq += (a / scale) * (a / scale);\n"
                     "        }\n    }\n"
                     "    *out = scale * sqrt(ssq);\n");
    } else if (op_is(sp, "count-gt")) {
        sb_append(s, "    int64_t count = 0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        if (v > thresh)\n            count++;\n    }\n    *out = count;\n");
    } else if (op_is(sp, "logsumexp")) {
        sb_printf(s, "    %s m = %s;\n", T, x0);
        emit_loop_open(s, sp, 1);
        sb_append(s, "        if (v > m)\n            m = v;\n    }\n\n    double s = 0.0;\n");
        emit_loop_open(s, sp, 0);
        sb_append(s, "        s += exp((double)v - m);\n    }\n");
        sb_printf(s, "    *out = %s(m + log(s));\n", cast);
    }
}

static const char *math_of(const Spec *sp)
{
    if (op_is(sp, "sum")) return "out = sum_i x_i";
    if (op_is(sp, "prod")) return "out = prod_i x_i (values close to 1)";
    if (op_is(sp, "max")) return "out = max_i x_i";
    if (op_is(sp, "min")) return "out = min_i x_i";
    if (op_is(sp, "mean")) return "out = (1/n) sum_i x_i";
    if (op_is(sp, "var")) return "out = (1/n) sum_i (x_i - mean)^2, two passes";
    if (op_is(sp, "var-sample")) return "out = 1/(n-1) sum_i (x_i - mean)^2, two passes (0 when n = 1)";
    if (op_is(sp, "welford-meanvar"))
        return "out[0] = mean, out[1] = population variance, by Welford's one-pass update";
    if (op_is(sp, "welford-std"))
        return "out = sample standard deviation by Welford's one-pass update (0 when n = 1)";
    if (op_is(sp, "l1")) return "out = sum_i |x_i|";
    if (op_is(sp, "l2")) return "out = sqrt(sum_i x_i^2)";
    if (op_is(sp, "nrm2-scaled"))
        return "out = sqrt(sum_i x_i^2), accumulated as scale^2 * ssq so no square overflows";
    if (op_is(sp, "sumsq")) return "out = sum_i x_i^2";
    if (op_is(sp, "count-gt")) return "out = #{i : x_i > thresh}";
    if (op_is(sp, "logsumexp")) return "out = log(sum_i exp(x_i)), shifted by the maximum for stability";
    if (op_is(sp, "range")) return "out = max_i x_i - min_i x_i";
    return "out = max_i |x_i|";
}

static const char *entry_of(const Spec *sp)
{
    static char buf[64];
    const char *op = sp->op;
    if (strncmp(op, "welford", 7) == 0)
        op = op_is(sp, "welford-std") ? "std" : "mean_var";
    else if (op_is(sp, "var-sample"))
        op = "var";
    else if (op_is(sp, "nrm2-scaled"))
        op = "nrm2";
    else if (op_is(sp, "count-gt"))
        op = "count_above";
    snprintf(buf, sizeof buf, "reduce_%s", op);
    return buf;
}

static void set_fill(GenProgram *p, const Spec *sp)
{
    if (op_is(sp, "prod")) {
        gen_fill_uniform(p, "x", 0.9999, 1.0001);
    } else if (is_float(sp->dt)) {
        if (op_is(sp, "logsumexp"))
            gen_fill_uniform(p, "x", is_64(sp->dt) ? -10.0 : -4.0, is_64(sp->dt) ? 10.0 : 4.0);
        else if (!is_64(sp->dt) && (op_is(sp, "sum") || op_is(sp, "mean") || op_is(sp, "count-gt")))
            gen_fill_uniform(p, "x", 0.0, 1.0); /* no cancellation in f32 sums */
        else if (op_is(sp, "amax") || op_is(sp, "nrm2-scaled"))
            gen_fill_uniform(p, "x", -1000.0, 1000.0);
    } else if (op_is(sp, "max") || op_is(sp, "min") || op_is(sp, "range")) {
        if (is_64(sp->dt))
            gen_fill_int(p, "x", "-1000000000000000", "1000000000000000");
        else
            gen_fill_int(p, "x", "-1000000000", "1000000000");
    } else if (op_is(sp, "count-gt")) {
        gen_fill_int(p, "x", "0", "1000");
    } else if (is_64(sp->dt)) {
        gen_fill_int(p, "x", "-1000000000", "1000000000"); /* |sum| < 2^63 for any n < 2^33 */
    } else {
        gen_fill_int(p, "x", "-1000", "1000");
    }
}

static void set_tolerance(GenProgram *p, const Spec *sp)
{
    const char *od = out_dtype(sp);
    if (!is_float(od))
        return; /* exact */
    if (op_is(sp, "max") || op_is(sp, "min") || op_is(sp, "range") || op_is(sp, "amax"))
        return; /* the exact element value: the defaults are ample */
    int f32 = strcmp(od, "f32") == 0;
    if (op_is(sp, "prod"))
        gen_tolerance(p, f32 ? 1e-5 : 1e-12, f32 ? 1e-3 : 1e-8);
    else if (op_is(sp, "logsumexp"))
        gen_tolerance(p, f32 ? 1e-4 : 1e-9, f32 ? 1e-4 : 1e-9);
    else /* sums over up to 2^27 terms, in any order */
        gen_tolerance(p, f32 ? 1e-4 : 1e-8, f32 ? 1e-3 : 1e-8);
}

static const char *flops_of(const Spec *sp)
{
    if (op_is(sp, "var") || op_is(sp, "var-sample")) return "4*n";
    if (strncmp(sp->op, "welford", 7) == 0) return "6*n";
    if (op_is(sp, "nrm2-scaled")) return "5*n";
    if (op_is(sp, "logsumexp")) return "4*n";
    if (op_is(sp, "sumsq") || op_is(sp, "l2") || op_is(sp, "range")) return "2*n";
    return "n";
}

/* The headers the body needs, then a blank line. */
static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "sqrt(") || strstr(body, "fabs") || strstr(body, "exp(") || strstr(body, "log("))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (dst->len)
        sb_append(dst, "\n");
}

/* ---- the pair ----
 * Every operation is a merge of per-element accumulators (an Acc struct:
 * a sum, a max, (count, mean, M2) for the variances, (scale, ssq) for the
 * scaled norm, (max, sum of exp) for logsumexp).  Launch 1: each of at most
 * 1024 blocks folds a grid-stride slice per thread, then a shared-memory
 * tree combines the block's threads into partial[blockIdx.x].  Launch 2: one
 * block combines the partials and writes out.  The variances merge Chan's
 * way in one pass (the C program's two passes or Welford updates, in another
 * order: within the tolerance), logsumexp by rescaling the running sum. */

/* The Acc struct and its identity, acc_of (one element) and acc_merge.
 * Returns the scratch dtype of one Acc component and sets *ncomp. */
static const char *emit_acc(StrBuf *k, const Spec *sp, TmplSubs *ts, int *ncomp, int wrong_id)
{
    int fl = is_float(sp->dt), d64 = strcmp(sp->dt, "f64") == 0;
    const char *neg_inf = d64 ? "-__longlong_as_double(0x7ff0000000000000LL)" : "-__int_as_float(0x7f800000)";
    const char *pos_inf = d64 ? "__longlong_as_double(0x7ff0000000000000LL)" : "__int_as_float(0x7f800000)";
    if (!fl) {
        neg_inf = is_64(sp->dt) ? "(-9223372036854775807LL - 1)" : "(-2147483647 - 1)";
        pos_inf = is_64(sp->dt) ? "9223372036854775807LL" : "2147483647";
    }
    tmpl_set(ts, "NEG", neg_inf);
    tmpl_set(ts, "POS", pos_inf);
    *ncomp = 1;
    if (op_is(sp, "max") || op_is(sp, "min")) {
        int mx = op_is(sp, "max");
        tmpl_set(ts, "ID", mx != wrong_id ? neg_inf : pos_inf); /* the defect: the other end's */
        tmpl_set(ts, "CMP", mx ? ">" : "<");
        tmpl_expand(k, ts, "struct Acc {\n    @T m;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@ID}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return b.m @CMP a.m ? b : a; }\n");
        return sp->dt;
    }
    if (op_is(sp, "range")) {
        *ncomp = 2;
        char rid[160]; /* the defect: the ends swapped */
        snprintf(rid, sizeof rid, "%s, %s", wrong_id ? neg_inf : pos_inf, wrong_id ? pos_inf : neg_inf);
        tmpl_set(ts, "RID", rid);
        tmpl_expand(k, ts, "struct Acc {\n    @T lo, hi;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@RID}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{v, v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    return Acc{b.lo < a.lo ? b.lo : a.lo, b.hi > a.hi ? b.hi : a.hi};\n}\n");
        return sp->dt;
    }
    if (op_is(sp, "var") || op_is(sp, "var-sample") || strncmp(sp->op, "welford", 7) == 0) {
        *ncomp = 3;
        tmpl_set(ts, "ID3", wrong_id ? "1.0, 0.0, 0.0" : "0.0, 0.0, 0.0"); /* the defect: one phantom element */
        tmpl_expand(k, ts, "/* count, mean and sum of squared deviations of a set of elements */\n"
                           "struct Acc {\n    double n, mean, m2;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@ID3}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{1.0, (double)v, 0.0}; }\n"
                           "/* Chan et al.: the statistics of the union of two sets. */\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    if (b.n == 0.0)\n        return a;\n"
                           "    if (a.n == 0.0)\n        return b;\n"
                           "    const double n = a.n + b.n, d = b.mean - a.mean;\n"
                           "    return Acc{n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n)};\n}\n");
        return "f64";
    }
    if (op_is(sp, "nrm2-scaled")) {
        *ncomp = 2;
        tmpl_set(ts, "IDN", wrong_id ? "1.0, 1.0" : "0.0, 1.0"); /* the defect: a scale that starts at 1 */
        tmpl_expand(k, ts, "/* sum of squares = scale^2 * ssq; scale is the largest magnitude seen (0: none yet) */\n"
                           "struct Acc {\n    double scale, ssq;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@IDN}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{fabs(v), 1.0}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    if (a.scale < b.scale) {\n"
                           "        const Acc t = a;\n        a = b;\n        b = t;\n    }\n"
                           "    if (b.scale == 0.0)\n        return a;\n"
                           "    const double r = b.scale / a.scale;\n"
                           "    return Acc{a.scale, a.ssq + b.ssq * r * r};\n}\n");
        return "f64";
    }
    if (op_is(sp, "logsumexp")) {
        *ncomp = 2;
        tmpl_set(ts, "IDL", wrong_id ? "0.0, 1.0" : "0.0, 0.0"); /* the defect: an empty set counted as exp(0) */
        tmpl_expand(k, ts, "/* sum of exp(x_i) = s * exp(m); s == 0: no element yet */\n"
                           "struct Acc {\n    double m, s;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@IDL}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{(double)v, 1.0}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                           "    if (b.s == 0.0)\n        return a;\n"
                           "    if (a.s == 0.0)\n        return b;\n"
                           "    const double m = fmax(a.m, b.m);\n"
                           "    return Acc{m, a.s * exp(a.m - m) + b.s * exp(b.m - m)};\n}\n");
        return "f64";
    }
    if (op_is(sp, "amax")) {
        tmpl_expand(k, ts, "struct Acc {\n    double m;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{0.0}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{fabs(v)}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{fmax(a.m, b.m)}; }\n");
        return "f64";
    }
    if (op_is(sp, "count-gt")) {
        tmpl_set(ts, "IDC", wrong_id ? "1" : "0");
        tmpl_expand(k, ts, "struct Acc {\n    long long c;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@IDC}; }\n"
                           "__device__ Acc acc_of(@T v, @T thresh) { return Acc{v > thresh ? 1LL : 0LL}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.c + b.c}; }\n");
        return "i64";
    }
    /* sums: sum, mean, l1, sumsq, l2, and the product */
    const char *of = "v";
    if (op_is(sp, "l1"))
        of = fl ? "fabs((double)v)" : "v < 0 ? -(long long)v : (long long)v";
    else if (op_is(sp, "sumsq") || op_is(sp, "l2"))
        of = fl ? "(double)v * v" : "(long long)v * v";
    else
        of = fl ? "(double)v" : "(long long)v";
    tmpl_set(ts, "OF", of);
    tmpl_set(ts, "IDP", wrong_id ? "0.0" : "1.0");  /* the defect: a sum's identity for a product */
    tmpl_set(ts, "IDS", wrong_id ? "1" : "0");      /* the defect: a product's identity for a sum */
    tmpl_set(ts, "A", fl ? "double" : "long long");
    if (op_is(sp, "prod"))
        tmpl_expand(k, ts, "struct Acc {\n    double p;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@IDP}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{(double)v}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.p * b.p}; }\n");
    else
        tmpl_expand(k, ts, "struct Acc {\n    @A s;\n};\n\n"
                           "__device__ Acc acc_identity() { return Acc{@IDS}; }\n"
                           "__device__ Acc acc_of(@T v) { return Acc{@OF}; }\n"
                           "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.s + b.s}; }\n");
    return fl ? "f64" : "i64";
}

/* The statements of the final kernel that write out from the combined a. */
static const char *store_of(const Spec *sp)
{
    if (op_is(sp, "max") || op_is(sp, "min")) return "    out[0] = a.m;\n";
    if (op_is(sp, "range")) return "    out[0] = a.hi - a.lo;\n";
    if (op_is(sp, "prod")) return "    out[0] = @cast(a.p);\n";
    if (op_is(sp, "mean")) return "    out[0] = @cast((double)a.s / n);\n";
    if (op_is(sp, "l2")) return "    out[0] = @cast(sqrt((double)a.s));\n";
    if (op_is(sp, "var")) return "    out[0] = @cast(a.m2 / n);\n";
    if (op_is(sp, "var-sample")) return "    out[0] = n > 1 ? a.m2 / (n - 1) : 0.0;\n";
    if (op_is(sp, "welford-meanvar")) return "    out[0] = @cast(a.mean);\n    out[1] = @cast(a.m2 / n);\n";
    if (op_is(sp, "welford-std")) return "    out[0] = n > 1 ? sqrt(a.m2 / (n - 1)) : 0.0;\n";
    if (op_is(sp, "nrm2-scaled")) return "    out[0] = a.scale * sqrt(a.ssq);\n";
    if (op_is(sp, "count-gt")) return "    out[0] = a.c;\n";
    if (op_is(sp, "logsumexp")) return "    out[0] = @cast(a.m + log(a.s));\n";
    if (op_is(sp, "amax")) return "    out[0] = a.m;\n";
    return "    out[0] = @cast(a.s);\n"; /* sum, l1, sumsq */
}

static const char *cuda_type(const char *dt)
{
    if (strcmp(dt, "f32") == 0)
        return "float";
    if (strcmp(dt, "f64") == 0)
        return "double";
    return strcmp(dt, "i32") == 0 ? "int" : "long long";
}

/* A point of the template library's knob space for a whole-array
 * reduction.  The reference is {256, shared tree, two passes, scalar}. */
typedef struct Plan {
    int block;     /* threads per block: a power of two, 128 to 1024 */
    int shuffle;   /* combine a block's threads by warp shuffles (else a shared-memory tree) */
    int passes;    /* 2: partials, then one block combines them; 1: the last block to finish does */
    int atomic;    /* each block adds its result to one accumulator atomically (sums, integer max/min) */
    int vec;       /* elements per load: 1, or 2 or 4 (a vector type; contiguous x only) */
    int wrong_id;  /* the planted defect: a wrong identity for the merge */
    int racy;      /* the planted defect: the atomic update done as a plain read-modify-write */
} Plan;

static const Plan REFERENCE_PLAN = {256, 0, 2, 0, 1, 0, 0};

/* The Acc components, for the shuffle that moves a whole Acc. */
static const char *acc_fields(const Spec *sp)
{
    if (op_is(sp, "max") || op_is(sp, "min") || op_is(sp, "amax")) return "m";
    if (op_is(sp, "range")) return "lo,hi";
    if (op_is(sp, "var") || op_is(sp, "var-sample") || strncmp(sp->op, "welford", 7) == 0) return "n,mean,m2";
    if (op_is(sp, "nrm2-scaled")) return "scale,ssq";
    if (op_is(sp, "logsumexp")) return "m,s";
    if (op_is(sp, "count-gt")) return "c";
    if (op_is(sp, "prod")) return "p";
    return "s";
}

/* The atomic update of the one-component accumulator, or NULL where the
 * merge has no atomic form (products, floating-point max/min, the
 * multi-component merges).  Integer sums add as unsigned long long: two's
 * complement addition is the same operation. */
static const char *atomic_update(const Spec *sp)
{
    const char *f = acc_fields(sp);
    if (strcmp(f, "s") == 0 || strcmp(f, "c") == 0) {
        if (is_float(sp->dt) && strcmp(f, "s") == 0)
            return "atomicAdd(&acc->s, r.s)";
        return strcmp(f, "c") == 0 ? "atomicAdd((unsigned long long *)&acc->c, (unsigned long long)r.c)"
                                   : "atomicAdd((unsigned long long *)&acc->s, (unsigned long long)r.s)";
    }
    if ((op_is(sp, "max") || op_is(sp, "min")) && !is_float(sp->dt))
        return op_is(sp, "max") ? "atomicMax(&acc->m, r.m)" : "atomicMin(&acc->m, r.m)";
    return NULL;
}

/* The planted race's plain update (what atomic_update does, not atomically). */
static const char *racy_update(const Spec *sp)
{
    const char *f = acc_fields(sp);
    if (strcmp(f, "s") == 0) return "acc->s += r.s";
    if (strcmp(f, "c") == 0) return "acc->c += r.c";
    return op_is(sp, "max") ? "acc->m = r.m > acc->m ? r.m : acc->m" : "acc->m = r.m < acc->m ? r.m : acc->m";
}

/* Whether a wrong identity changes this operation's result: the largest
 * magnitude starts at 0 and any identity at or below 0 is harmless. */
static int wrong_identity_shows(const Spec *sp) { return !op_is(sp, "amax"); }

/* The grid-stride fold of this thread's elements into a, by vectors of
 * pl->vec elements (then the n % vec left over) or one by one. */
static void emit_fold(StrBuf *k, const TmplSubs *ts, const Spec *sp, const Plan *pl)
{
    if (pl->vec == 1) {
        tmpl_expand(k, ts, "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                           "         i += (long long)gridDim.x * blockDim.x)\n"
                           "        a = acc_merge(a, acc_of(x[@IDX]@THA));\n");
        return;
    }
    const char *vt = pl->vec == 4 ? (strcmp(sp->dt, "f32") == 0 ? "float4" : "int4")
                                  : (strcmp(sp->dt, "f64") == 0 ? "double2" : "longlong2");
    static const char *const lanes[] = {"x", "y", "z", "w"};
    sb_printf(k, "    /* n / %d whole vectors (cudaMalloc'd x is 16-byte aligned), then the rest */\n"
                 "    const %s *xv = reinterpret_cast<const %s *>(x);\n"
                 "    const long long step = (long long)gridDim.x * blockDim.x, nv = n / %d;\n"
                 "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += step) {\n"
                 "        const %s v = xv[i];\n",
              pl->vec, vt, vt, pl->vec, vt);
    for (int l = 0; l < pl->vec; l++) {
        TmplSubs t2 = *ts;
        char lane[8];
        snprintf(lane, sizeof lane, "v.%s", lanes[l]);
        tmpl_set(&t2, "V", lane);
        tmpl_expand(k, &t2, "        a = acc_merge(a, acc_of(@V@THA));\n");
    }
    sb_printf(k, "    }\n"
                 "    for (long long i = nv * %d + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)\n",
              pl->vec);
    tmpl_expand(k, ts, "        a = acc_merge(a, acc_of(x[i]@THA));\n");
}

/* Combines the block's per-thread a: the result is @R in thread 0. */
static void emit_block_combine(StrBuf *k, const Plan *pl)
{
    sb_append(k, pl->shuffle ? "    a = block_reduce_shfl(a, sh);\n" : "    sh[threadIdx.x] = a;\n    block_reduce(sh);\n");
}

static const char *shared_decl(const Plan *pl)
{
    return pl->shuffle ? "    __shared__ Acc sh[32];\n" : "    extern __shared__ Acc sh[];\n";
}

static void describe_plan(StrBuf *k, const Plan *pl)
{
    if (pl->atomic)
        sb_append(k, " * Three launches: the accumulator set to the identity, per-block results\n"
                     " * of grid-stride slices added to it atomically, then the output written. */\n");
    else if (pl->passes == 1)
        sb_append(k, " * One pass: per-block partial results of grid-stride slices, and the last\n"
                     " * block to finish (a counter, reset by a first launch) combines them. */\n");
    else
        sb_append(k, " * Two launches: per-block partial results of grid-stride slices, then one\n"
                     " * block combines them. */\n");
}

static void emit_cuda(GenProgram *p, const Spec *sp, const char *entry, const Plan *pl)
{
    StrBuf *k = gen_cuda_src(p);
    TmplSubs ts;
    tmpl_init(&ts, 1);
    tmpl_set(&ts, "T", cuda_type(sp->dt));
    tmpl_set(&ts, "OT", cuda_type(out_dtype(sp)));
    tmpl_set(&ts, "cast", strcmp(out_dtype(sp), "f32") == 0 ? "(float)" : "");
    tmpl_set(&ts, "entry", entry);
    int thresh = op_is(sp, "count-gt");
    char th[32];
    snprintf(th, sizeof th, ", %s thresh", cuda_type(sp->dt));
    tmpl_set(&ts, "TH", thresh ? th : "");
    tmpl_set(&ts, "THA", thresh ? ", thresh" : "");
    tmpl_set(&ts, "ST", sp->strided ? ", int stride" : "");
    tmpl_set(&ts, "IDX", sp->strided ? "i * stride" : "i");
    tmpl_set(&ts, "R", pl->shuffle ? "a" : "sh[0]");

    sb_printf(k, "/* %s, for the n elements x[%s].\n", math_of(sp), sp->strided ? "i * stride" : "i");
    describe_plan(k, pl);
    int ncomp;
    const char *adt = emit_acc(k, sp, &ts, &ncomp, pl->wrong_id);
    sb_append(k, "\n");
    if (pl->shuffle)
        reduce_emit_block_shuffle(k, acc_fields(sp));
    else
        reduce_emit_tree(k);
    sb_append(k, "\n");

    char name1[64], name2[64], name3[64];
    if (pl->atomic) {
        snprintf(name1, sizeof name1, "%s_init", entry);
        snprintf(name2, sizeof name2, "%s_atomic", entry);
        snprintf(name3, sizeof name3, "%s_store", entry);
        tmpl_set(&ts, "UPDATE", pl->racy ? racy_update(sp) : atomic_update(sp));
        tmpl_expand(k, &ts, "extern \"C\" __global__ void @{entry}_init(Acc *acc) { *acc = acc_identity(); }\n\n"
                            "extern \"C\" __global__ void @{entry}_atomic(const @T *__restrict__ x@TH, Acc *acc, int n@ST)\n{\n");
        sb_append(k, shared_decl(pl));
        sb_append(k, "    Acc a = acc_identity();\n");
        emit_fold(k, &ts, sp, pl);
        emit_block_combine(k, pl);
        tmpl_expand(k, &ts, "    if (threadIdx.x == 0) {\n"
                            "        const Acc r = @R;\n"
                            "        @UPDATE;\n"
                            "    }\n}\n\n"
                            "extern \"C\" __global__ void @{entry}_store(const Acc *__restrict__ acc, @OT *__restrict__ out, int n)\n{\n"
                            "    const Acc a = *acc;\n");
    } else if (pl->passes == 1) {
        snprintf(name1, sizeof name1, "%s_reset", entry);
        snprintf(name2, sizeof name2, "%s_onepass", entry);
        tmpl_expand(k, &ts, "extern \"C\" __global__ void @{entry}_reset(unsigned int *done) { *done = 0u; }\n\n"
                            "extern \"C\" __global__ void @{entry}_onepass(const @T *__restrict__ x@TH, Acc *partial,\n"
                            "        unsigned int *done, @OT *__restrict__ out, int n@ST)\n{\n");
        sb_append(k, shared_decl(pl));
        sb_append(k, "    __shared__ int last;\n    Acc a = acc_identity();\n");
        emit_fold(k, &ts, sp, pl);
        emit_block_combine(k, pl);
        tmpl_expand(k, &ts, "    if (threadIdx.x == 0) {\n"
                            "        partial[blockIdx.x] = @R;\n"
                            "        __threadfence(); /* the partial is visible before the count says so */\n"
                            "        last = atomicAdd(done, 1u) == gridDim.x - 1;\n"
                            "    }\n"
                            "    __syncthreads();\n"
                            "    if (!last)\n        return;\n"
                            "    __threadfence();\n"
                            "    a = acc_identity();\n"
                            "    for (int i = threadIdx.x; i < (int)gridDim.x; i += blockDim.x)\n"
                            "        a = acc_merge(a, partial[i]);\n");
        emit_block_combine(k, pl);
        tmpl_expand(k, &ts, pl->shuffle ? "    if (threadIdx.x != 0)\n        return;\n"
                                          : "    if (threadIdx.x != 0)\n        return;\n    a = @R;\n");
    } else {
        snprintf(name1, sizeof name1, "%s_partial", entry);
        snprintf(name2, sizeof name2, "%s_final", entry);
        tmpl_expand(k, &ts, "extern \"C\" __global__ void @{entry}_partial(const @T *__restrict__ x@TH, Acc *__restrict__ partial,\n"
                            "        int n@ST)\n{\n");
        sb_append(k, shared_decl(pl));
        sb_append(k, "    Acc a = acc_identity();\n");
        emit_fold(k, &ts, sp, pl);
        emit_block_combine(k, pl);
        tmpl_expand(k, &ts, "    if (threadIdx.x == 0)\n"
                            "        partial[blockIdx.x] = @R;\n}\n\n"
                            "extern \"C\" __global__ void @{entry}_final(const Acc *__restrict__ partial, int nparts,\n"
                            "        @OT *__restrict__ out, int n)\n{\n");
        sb_append(k, shared_decl(pl));
        sb_append(k, "    Acc a = acc_identity();\n"
                     "    for (int i = threadIdx.x; i < nparts; i += blockDim.x)\n"
                     "        a = acc_merge(a, partial[i]);\n");
        emit_block_combine(k, pl);
        tmpl_expand(k, &ts, pl->shuffle ? "    if (threadIdx.x != 0)\n        return;\n"
                                          : "    if (threadIdx.x != 0)\n        return;\n    a = @R;\n");
    }
    tmpl_expand(k, &ts, store_of(sp));
    sb_append(k, "}\n");

    /* the launch plan */
    int acc_bytes = ncomp * (strcmp(adt, "f64") == 0 || strcmp(adt, "i64") == 0 ? 8 : 4);
    char count[32], smem[32], grid[96], block[16], xargs[64], args[160];
    snprintf(count, sizeof count, "%d", (pl->atomic ? 1 : 1024) * ncomp);
    snprintf(smem, sizeof smem, "%d*%d", pl->block, acc_bytes);
    snprintf(block, sizeof block, "%d", pl->block);
    int per_block = pl->block * pl->vec;
    snprintf(grid, sizeof grid, "min((n+%d)/%d,1024)", per_block - 1, per_block);
    snprintf(xargs, sizeof xargs, "x%s", thresh ? ",thresh" : "");
    const char *st = sp->strided ? ",stride" : "";
    const char *sm = pl->shuffle ? NULL : smem;
    if (pl->atomic) {
        gen_scratch(p, "acc", adt, count);
        gen_launch(p, name1, "1", "1", NULL, "acc");
        snprintf(args, sizeof args, "%s,acc,n%s", xargs, st);
        gen_launch(p, name2, grid, block, sm, args);
        gen_launch(p, name3, "1", "1", NULL, "acc,out,n");
    } else if (pl->passes == 1) {
        gen_scratch(p, "partial", adt, count);
        gen_scratch(p, "done", "u32", "1");
        gen_launch(p, name1, "1", "1", NULL, "done");
        snprintf(args, sizeof args, "%s,partial,done,out,n%s", xargs, st);
        gen_launch(p, name2, grid, block, sm, args);
    } else {
        gen_scratch(p, "partial", adt, count);
        snprintf(args, sizeof args, "%s,partial,n%s", xargs, st);
        gen_launch(p, name1, grid, block, sm, args);
        snprintf(args, sizeof args, "partial,%s,out,n", grid);
        gen_launch(p, name2, "1", block, sm, args);
    }
    gen_knob(p, "block", block);
    gen_knob(p, "mapping", pl->shuffle ? "grid-stride-block-reduction-shuffle" : "grid-stride-block-reduction-shared");
    gen_knob(p, "max_blocks", "1024");
    gen_knob(p, "launches", pl->atomic ? "3" : "2");
    gen_knob(p, "reduction", pl->atomic ? "atomic" : pl->shuffle ? "warp-shuffle" : "shared-tree");
    gen_knob(p, "passes", pl->atomic || pl->passes == 1 ? "1" : "2");
    char vw[8];
    snprintf(vw, sizeof vw, "%d", pl->vec);
    gen_knob(p, "vector_width", vw);
    if (pl->wrong_id) {
        gen_knob(p, "defect", "wrong-reduction-identity");
        gen_knob(p, "expect", "fail");
    }
    if (pl->racy) {
        gen_knob(p, "defect", "non-atomic-accumulation");
        gen_knob(p, "expect", "race");
    }
}

/* The alternatives from the knob space: other block sizes, the warp-shuffle
 * combine, one pass, atomics where the merge has an atomic form, vector
 * loads of a contiguous x, the fastest-looking combination, and two
 * planted defects (a wrong identity, a non-atomic accumulation). */
static void emit_alternatives(GenProgram *p, const Spec *sp, const char *entry)
{
    int vec = sp->strided ? 1 : is_64(sp->dt) ? 2 : 4;
    char vname[32];
    snprintf(vname, sizeof vname, "vec%d", vec);
    struct {
        const char *name;
        Plan plan;
        int when;
    } alts[] = {
        {"block-128", {128, 0, 2, 0, 1, 0, 0}, 1},
        {"block-512", {512, 0, 2, 0, 1, 0, 0}, 1},
        {"block-1024", {1024, 0, 2, 0, 1, 0, 0}, 1},
        {"warp-shuffle", {256, 1, 2, 0, 1, 0, 0}, 1},
        {"one-pass", {256, 0, 1, 0, 1, 0, 0}, 1},
        {"atomic", {256, 0, 1, 1, 1, 0, 0}, atomic_update(sp) != NULL},
        {vname, {256, 0, 2, 0, vec, 0, 0}, vec > 1},
        {"vec-shuffle-one-pass", {512, 1, 1, 0, vec, 0, 0}, 1},
        {"wrong-reduction-identity", {256, 0, 2, 0, 1, 1, 0}, wrong_identity_shows(sp)},
        {"non-atomic-accumulation", {256, 0, 1, 1, 1, 0, 1}, atomic_update(sp) != NULL},
    };
    for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++) {
        if (!alts[i].when)
            continue;
        gen_alt_begin(p, alts[i].name);
        emit_cuda(p, sp, entry, &alts[i].plan);
        gen_alt_end(p);
    }
}

static int generate(GenCtx *g)
{
    for (int k = 0; k < NSPECS; k++) {
        const Spec *sp = &SPECS[k];
        const char *od = out_dtype(sp);
        int nout = op_is(sp, "welford-meanvar") ? 2 : 1;
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%s%s", sp->op, sp->dt, sp->strided ? "-strided" : "");
        const char *entry = entry_of(sp);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "%s over %s%s (%s)", math_of(sp), sp->strided ? "every stride-th element of " : "",
                     "an array", sp->dt);
        gen_arg(p, "x", sp->dt, "in", sp->strided ? "n*stride" : "n");
        gen_arg(p, "out", od, "out", nout == 2 ? "2" : "1");
        int has_thresh = op_is(sp, "count-gt");
        double thresh = 0;
        if (has_thresh) {
            if (is_float(sp->dt))
                thresh = (double)gen_randint(g, 20, 90) / 100.0;
            else
                thresh = gen_randint(g, 100, 900);
            gen_scalar(p, "thresh", sp->dt, thresh);
        }
        gen_arg(p, "n", "i32", "param", NULL);
        if (sp->strided)
            gen_arg(p, "stride", "i32", "param", NULL);
        set_fill(p, sp);
        int big = !is_64(sp->dt);
        if (sp->strided) {
            gen_config(p, "small", "n=40000,stride=3");
            gen_config(p, "edge", "n=1,stride=2");
            gen_config(p, "edge-prime", "n=1021,stride=5");
            gen_config(p, "large", big ? "n=33554432,stride=4" : "n=16777216,stride=4");
        } else {
            gen_config(p, "small", "n=100000");
            gen_config(p, "edge", "n=1");
            gen_config(p, "edge-prime", "n=7919");
            gen_config(p, "large", big ? "n=134217728" : "n=67108864");
        }
        set_tolerance(p, sp);
        char bytes[64];
        snprintf(bytes, sizeof bytes, "%d*n+%d", size_of(sp->dt), nout * size_of(od));
        gen_cost(p, flops_of(sp), bytes);

        StrBuf body = STRBUF_INIT, *s = &body;
        sb_printf(s, "/* %s, for the n elements x[%s]. */\n", math_of(sp), sp->strided ? "i * stride" : "i");
        if (strcmp(sp->dt, "f32") == 0 && !op_is(sp, "max") && !op_is(sp, "min") && !op_is(sp, "range"))
            sb_append(s, "/* Accumulates in double. */\n");
        sb_printf(s, "void %s(const %s *x, %s *out, ", entry, ctype(sp->dt), ctype(od));
        if (has_thresh)
            sb_printf(s, "%s thresh, ", ctype(sp->dt));
        sb_printf(s, "int n%s)\n{\n", sp->strided ? ", int stride" : "");
        emit_body(s, sp);
        sb_append(s, "}\n");
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        emit_cuda(p, sp, entry, &REFERENCE_PLAN);
        emit_alternatives(p, sp, entry);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_reduce_all = {"reduce_all", "reduction", 54, generate};
