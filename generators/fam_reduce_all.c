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
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_reduce_all = {"reduce_all", "reduction", 54, generate};
