/* scan — prefix operations and what is built from them: inclusive and
 * exclusive prefix sums (f32 accumulating in double, f64, i32 widening to
 * i64, i64), offsets from counts, prefix max/min, prefix products of values
 * near 1, suffix (reverse) scans, scans of a strided array, per-row scans of
 * a matrix (sum, exclusive sum, max, reverse) and per-column scans, the
 * summed-area table of a u8 image, segmented scans driven by head flags or by
 * runs of equal sorted keys, stream compaction (values, indices, with the
 * scatter positions as an output, stable partition, keeping even integers),
 * unique and run-length encoding, log-cumsum-exp, running mean and the
 * first-order linear recurrence of an exponential moving average. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

typedef struct Spec {
    const char *kind;
    const char *dt;
} Spec;

static const Spec SPECS[] = {
    {"incl", "f32"}, {"incl", "f64"}, {"incl", "i32"}, {"incl", "i64"},
    {"excl", "f32"}, {"excl", "f64"}, {"excl", "i32"}, {"excl", "i64"},
    {"offsets", "i32"},
    {"cummax", "f32"}, {"cummax", "f64"}, {"cummax", "i32"}, {"cummax", "i64"},
    {"cummin", "f32"},
    {"cumprod", "f32"}, {"cumprod", "f64"},
    {"suffix-sum", "f32"}, {"suffix-sum", "f64"}, {"suffix-sum", "i32"}, {"suffix-max", "f32"},
    {"strided-incl", "f32"}, {"strided-incl", "i64"},
    {"row-incl", "f32"}, {"row-incl", "f64"}, {"row-incl", "i32"}, {"row-excl", "f32"}, {"row-excl", "i64"},
    {"row-cummax", "f32"}, {"row-cummax", "i32"}, {"row-suffix-sum", "f64"},
    {"col-incl", "f32"}, {"col-incl", "f64"}, {"col-cummax", "f32"},
    {"sat", "u8"},
    {"seg-incl", "f32"}, {"seg-incl", "f64"}, {"seg-incl", "i32"}, {"seg-excl", "i64"}, {"seg-max", "f32"},
    {"key-incl", "f32"}, {"key-incl", "i64"},
    {"select", "f32"}, {"select", "f64"}, {"select-even", "i32"}, {"select-idx", "f32"},
    {"partition", "f32"}, {"select-pos", "i32"},
    {"unique", "i32"}, {"rle", "i32"},
    {"logcumsumexp", "f32"}, {"logcumsumexp", "f64"},
    {"cummean", "f32"},
    {"ema", "f32"}, {"ema", "f64"},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }
static int starts(const char *a, const char *b) { return strncmp(a, b, strlen(b)) == 0; }

static const char *ctype(const char *dt)
{
    if (is(dt, "f32")) return "float";
    if (is(dt, "f64")) return "double";
    if (is(dt, "i32")) return "int32_t";
    if (is(dt, "u8")) return "uint8_t";
    return "int64_t";
}

static int size_of(const char *dt) { return is(dt, "u8") ? 1 : (is(dt, "f64") || is(dt, "i64")) ? 8 : 4; }

/* Sums widen: i32 inputs give i64 sums; everything else keeps its dtype. */
static const char *sum_dtype(const char *dt) { return is(dt, "i32") ? "i64" : dt; }

/* The running-sum type: double for f32, the output type otherwise. */
static const char *acc_type(const char *dt)
{
    return is(dt, "f32") ? "double" : ctype(sum_dtype(dt));
}

static const char *cast_of(const char *dt) { return is(dt, "f32") ? "(float)" : ""; }

/* Inputs of running sums: f32 in [0, 1) so the sums do not cancel, i32 in
 * [-1000, 1000), i64 in [-1e9, 1e9); f64 keeps the default [-1, 1). */
static void set_sum_fill(GenProgram *p, const char *dt)
{
    if (is(dt, "f32"))
        gen_fill_uniform(p, "x", 0.0, 1.0);
    else if (is(dt, "i32"))
        gen_fill_int(p, "x", "-1000", "1000");
    else if (is(dt, "i64"))
        gen_fill_int(p, "x", "-1000000000", "1000000000");
}

static int is_row(const Spec *sp) { return starts(sp->kind, "row-") || starts(sp->kind, "col-") || is(sp->kind, "sat"); }

static const char *const LARGE32[] = {"r=16384,c=8192", "r=2048,c=65536", "r=131072,c=1024", "r=2097152,c=64"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=1024,c=65536", "r=65536,c=1024", "r=1048576,c=64"};

static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "exp(") || strstr(body, "log(") || strstr(body, "fmax") || strstr(body, "log1p"))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "size_t"))
        sb_append(dst, "#include <stddef.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t") || strstr(body, "uint8_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (strstr(body, "malloc"))
        sb_append(dst, "#include <stdlib.h>\n");
    if (strstr(body, "memset"))
        sb_append(dst, "#include <string.h>\n");
    if (dst->len)
        sb_append(dst, "\n");
}

static int generate(GenCtx *g)
{
    for (int q = 0; q < NSPECS; q++) {
        const Spec *sp = &SPECS[q];
        const char *k = sp->kind, *dt = sp->dt;
        const char *T = ctype(dt);
        int f32 = is(dt, "f32"), f64 = is(dt, "f64"), fl = f32 || f64;
        int wide = f64 || is(dt, "i64");
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%s", k, dt);
        StrBuf body = STRBUF_INIT, *s = &body;
        const char *entry = "scan";
        GenProgram *p = NULL;
        char flops[48] = "n", bytes[96] = "";
        const char *yd = dt; /* output dtype */

#define BEGIN(name) (entry = (name), p = gen_begin(g, variant, entry))
        if (is(k, "incl") || is(k, "excl") || is(k, "suffix-sum") || is(k, "strided-incl")) {
            int excl = is(k, "excl"), suf = is(k, "suffix-sum"), str = is(k, "strided-incl");
            yd = sum_dtype(dt);
            BEGIN(excl ? "exclusive_scan" : suf ? "suffix_sum" : str ? "strided_inclusive_scan" : "inclusive_scan");
            gen_describe(p, "%s prefix sum (%s)", excl ? "exclusive" : suf ? "suffix (reverse)" : "inclusive", dt);
            gen_arg(p, "x", dt, "in", str ? "n*stride" : "n");
            gen_arg(p, "y", yd, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (str)
                gen_arg(p, "stride", "i32", "param", NULL);
            set_sum_fill(p, dt);
            if (excl)
                sb_append(s, "/* y[i] = x[0] + ... + x[i-1], so y[0] = 0. */\n");
            else if (suf)
                sb_append(s, "/* y[i] = x[i] + x[i+1] + ... + x[n-1]. */\n");
            else if (str)
                sb_append(s, "/* y[i] = x[0] + x[stride] + ... + x[i*stride]: the prefix sums of every\n"
                             " * stride-th element. */\n");
            else
                sb_append(s, "/* y[i] = x[0] + x[1] + ... + x[i]. */\n");
            if (f32)
                sb_append(s, "/* The running sum is kept in double. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, int n%s)\n{\n", entry, T, ctype(yd), str ? ", int stride" : "");
            sb_printf(s, "    %s s = 0;\n", acc_type(dt));
            if (excl)
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        y[i] = %ss;\n        s += x[i];\n    }\n",
                          cast_of(dt));
            else if (suf)
                sb_printf(s, "    for (int i = n - 1; i >= 0; i--) {\n        s += x[i];\n        y[i] = %ss;\n    }\n",
                          cast_of(dt));
            else
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        s += x[%s];\n        y[i] = %ss;\n    }\n",
                          str ? "i * stride" : "i", cast_of(dt));
            sb_append(s, "}\n");
        } else if (is(k, "offsets")) {
            BEGIN("counts_to_offsets");
            gen_describe(p, "offsets from counts: an exclusive prefix sum with the total appended");
            gen_arg(p, "counts", dt, "in", "n");
            gen_arg(p, "offsets", dt, "out", "n+1");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_int(p, "counts", "0", "8");
            sb_append(s, "/* offsets[i] = counts[0] + ... + counts[i-1], for i = 0..n: where each bucket\n"
                         " * starts in a packed array, with the total in offsets[n].  Counts are below 8,\n"
                         " * so the total fits an int for any n below 2^28. */\n");
            sb_printf(s, "void %s(const int32_t *counts, int32_t *offsets, int n)\n{\n", entry);
            sb_append(s, "    offsets[0] = 0;\n    for (int i = 0; i < n; i++)\n"
                         "        offsets[i + 1] = offsets[i] + counts[i];\n}\n");
            snprintf(bytes, sizeof bytes, "8*n+4");
        } else if (is(k, "cummax") || is(k, "cummin") || is(k, "suffix-max")) {
            int mx = !is(k, "cummin"), suf = is(k, "suffix-max");
            BEGIN(suf ? "suffix_max" : mx ? "cummax" : "cummin");
            gen_describe(p, "%s running %s (%s)", suf ? "reverse" : "prefix", mx ? "maximum" : "minimum", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (is(dt, "i32"))
                gen_fill_int(p, "x", "-1000000000", "1000000000");
            else if (is(dt, "i64"))
                gen_fill_int(p, "x", "-1000000000000", "1000000000000");
            if (suf) {
                sb_append(s, "/* y[i] = max(x[i], x[i+1], ..., x[n-1]). */\n");
                sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
                sb_printf(s, "    %s m = x[n - 1];\n    for (int i = n - 1; i >= 0; i--) {\n"
                             "        if (x[i] > m)\n            m = x[i];\n        y[i] = m;\n    }\n}\n", T);
            } else {
                sb_printf(s, "/* y[i] = %s(x[0], ..., x[i]). */\n", mx ? "max" : "min");
                sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
                sb_printf(s, "    %s m = x[0];\n    for (int i = 0; i < n; i++) {\n"
                             "        if (x[i] %c m)\n            m = x[i];\n        y[i] = m;\n    }\n}\n",
                          T, mx ? '>' : '<');
            }
        } else if (is(k, "cumprod")) {
            BEGIN("cumprod");
            gen_describe(p, "prefix product of values near 1 (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", 0.9999, 1.0001);
            sb_printf(s, "/* y[i] = x[0] * x[1] * ... * x[i]; the factors are close to 1.%s */\n",
                      f32 ? "\n * The running product is kept in double." : "");
            sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
            sb_printf(s, "    double p = 1.0;\n    for (int i = 0; i < n; i++) {\n        p *= x[i];\n"
                         "        y[i] = %sp;\n    }\n}\n", cast_of(dt));
        } else if (starts(k, "row-") || starts(k, "col-")) {
            int col = starts(k, "col-");
            int excl = is(k, "row-excl"), mx = strstr(k, "cummax") != NULL, suf = is(k, "row-suffix-sum");
            yd = mx ? dt : sum_dtype(dt);
            const char *Y = ctype(yd);
            char name[48];
            snprintf(name, sizeof name, "%s_%s", col ? "col" : "row",
                     mx ? "cummax" : excl ? "exclusive_cumsum" : suf ? "suffix_sum" : "cumsum");
            BEGIN(name);
            gen_describe(p, "%s %s along each %s of an r x c row-major matrix (%s)", excl ? "exclusive" : suf ? "reverse" : "inclusive",
                         mx ? "running maximum" : "prefix sum", col ? "column" : "row", dt);
            gen_arg(p, "x", dt, "in", "r,c");
            gen_arg(p, "y", yd, "out", "r,c");
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            if (mx && is(dt, "i32"))
                gen_fill_int(p, "x", "-1000000000", "1000000000");
            else if (!mx)
                set_sum_fill(p, dt);
            if (col) {
                sb_printf(s, "/* Down each column of the r x c row-major matrix x:\n *   y[i][j] = %s.\n",
                          mx ? "max(x[0][j], ..., x[i][j])" : "x[0][j] + ... + x[i][j]");
                sb_append(s, " * Sweeps the rows, carrying one running value per column. */\n");
                sb_printf(s, "void %s(const %s *x, %s *y, int r, int c)\n{\n", entry, T, Y);
                if (mx) {
                    sb_printf(s, "    for (int j = 0; j < c; j++)\n        y[j] = x[j];\n"
                                 "    for (int i = 1; i < r; i++) {\n"
                                 "        const %s *row = x + (size_t)i * c;\n"
                                 "        const %s *prev = y + (size_t)(i - 1) * c;\n"
                                 "        %s *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++)\n"
                                 "            out[j] = row[j] > prev[j] ? row[j] : prev[j];\n    }\n}\n", T, T, T);
                } else if (f32) {
                    sb_append(s, "    double *acc = malloc((size_t)c * sizeof *acc);\n    if (!acc)\n        return;\n"
                                 "    for (int j = 0; j < c; j++)\n        acc[j] = 0.0;\n"
                                 "    for (int i = 0; i < r; i++) {\n"
                                 "        const float *row = x + (size_t)i * c;\n"
                                 "        float *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++) {\n"
                                 "            acc[j] += row[j];\n            out[j] = (float)acc[j];\n        }\n"
                                 "    }\n    free(acc);\n}\n");
                } else {
                    sb_printf(s, "    for (int j = 0; j < c; j++)\n        y[j] = x[j];\n"
                                 "    for (int i = 1; i < r; i++) {\n"
                                 "        const %s *row = x + (size_t)i * c;\n"
                                 "        const %s *prev = y + (size_t)(i - 1) * c;\n"
                                 "        %s *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++)\n"
                                 "            out[j] = prev[j] + row[j];\n    }\n}\n", T, Y, Y);
                }
            } else {
                sb_printf(s, "/* Along each row of the r x c row-major matrix x:\n *   y[i][j] = %s. */\n",
                          mx ? "max(x[i][0], ..., x[i][j])" : excl ? "x[i][0] + ... + x[i][j-1] (0 for j = 0)"
                          : suf ? "x[i][j] + ... + x[i][c-1]" : "x[i][0] + ... + x[i][j]");
                sb_printf(s, "void %s(const %s *x, %s *y, int r, int c)\n{\n", entry, T, Y);
                sb_printf(s, "    for (int i = 0; i < r; i++) {\n        const %s *row = x + (size_t)i * c;\n"
                             "        %s *out = y + (size_t)i * c;\n", T, Y);
                if (mx)
                    sb_printf(s, "        %s m = row[0];\n        for (int j = 0; j < c; j++) {\n"
                                 "            if (row[j] > m)\n                m = row[j];\n"
                                 "            out[j] = m;\n        }\n", T);
                else if (excl)
                    sb_printf(s, "        %s s = 0;\n        for (int j = 0; j < c; j++) {\n"
                                 "            out[j] = %ss;\n            s += row[j];\n        }\n",
                              acc_type(dt), cast_of(dt));
                else if (suf)
                    sb_printf(s, "        %s s = 0;\n        for (int j = c - 1; j >= 0; j--) {\n"
                                 "            s += row[j];\n            out[j] = %ss;\n        }\n",
                              acc_type(dt), cast_of(dt));
                else
                    sb_printf(s, "        %s s = 0;\n        for (int j = 0; j < c; j++) {\n"
                                 "            s += row[j];\n            out[j] = %ss;\n        }\n",
                              acc_type(dt), cast_of(dt));
                sb_append(s, "    }\n}\n");
            }
            snprintf(flops, sizeof flops, "r*c");
            snprintf(bytes, sizeof bytes, "%d*r*c", size_of(dt) + size_of(yd));
        } else if (is(k, "sat")) {
            yd = "i64";
            BEGIN("summed_area_table");
            gen_describe(p, "summed-area table (integral image) of an r x c u8 image");
            gen_arg(p, "img", "u8", "in", "r,c");
            gen_arg(p, "sat", "i64", "out", "r,c");
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            sb_append(s, "/* sat[i][j] = sum of img[a][b] over a <= i, b <= j, for an r x c row-major\n"
                         " * u8 image: each row's running sum plus the table's row above. */\n");
            sb_printf(s, "void %s(const uint8_t *img, int64_t *sat, int r, int c)\n{\n", entry);
            sb_append(s, "    int64_t run = 0;\n    for (int j = 0; j < c; j++) {\n"
                         "        run += img[j];\n        sat[j] = run;\n    }\n"
                         "    for (int i = 1; i < r; i++) {\n"
                         "        const uint8_t *row = img + (size_t)i * c;\n"
                         "        const int64_t *above = sat + (size_t)(i - 1) * c;\n"
                         "        int64_t *out = sat + (size_t)i * c;\n"
                         "        run = 0;\n"
                         "        for (int j = 0; j < c; j++) {\n"
                         "            run += row[j];\n"
                         "            out[j] = above[j] + run;\n"
                         "        }\n    }\n}\n");
            snprintf(flops, sizeof flops, "2*r*c");
            snprintf(bytes, sizeof bytes, "9*r*c");
        } else if (starts(k, "seg-") || starts(k, "key-")) {
            int key = starts(k, "key-"), excl = is(k, "seg-excl"), mx = is(k, "seg-max");
            yd = mx ? dt : sum_dtype(dt);
            const char *Y = ctype(yd);
            BEGIN(key ? "scan_by_key" : mx ? "segmented_cummax" : excl ? "segmented_exclusive_scan"
                                                                   : "segmented_inclusive_scan");
            gen_describe(p, "segmented %s %s (%s), segments given by %s", excl ? "exclusive" : "inclusive",
                         mx ? "running maximum" : "prefix sum", dt, key ? "runs of equal sorted keys" : "head flags");
            gen_arg(p, "x", dt, "in", "n");
            if (key)
                gen_arg(p, "keys", "i32", "in", "n");
            else
                gen_arg(p, "flags", "u8", "in", "n");
            gen_arg(p, "y", yd, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (key) {
                gen_fill_int(p, "keys", "0", "n/16+1");
                gen_fill_sorted(p, "keys");
            } else {
                gen_fill_int(p, "flags", "0", "2");
            }
            if (!mx)
                set_sum_fill(p, dt);
            if (key)
                sb_append(s, "/* A segment is a run of equal keys (keys are sorted); within each segment\n"
                             " *   y[i] = x[start] + ... + x[i]. */\n");
            else
                sb_printf(s, "/* flags[i] != 0 starts a new segment at i (a segment also starts at 0);\n"
                             " * within each segment\n *   y[i] = %s. */\n",
                          mx ? "max(x[start], ..., x[i])" : excl ? "x[start] + ... + x[i-1] (0 at the start)"
                                                              : "x[start] + ... + x[i]");
            if (f32 && !mx)
                sb_append(s, "/* The running sum is kept in double. */\n");
            sb_printf(s, "void %s(const %s *x, const %s *%s, %s *y, int n)\n{\n", entry, T,
                      key ? "int32_t" : "uint8_t", key ? "keys" : "flags", Y);
            const char *head = key ? "i == 0 || keys[i] != keys[i - 1]" : "i == 0 || flags[i]";
            if (mx)
                sb_printf(s, "    %s m = x[0];\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s || x[i] > m)\n            m = x[i];\n"
                             "        y[i] = m;\n    }\n}\n", T, head);
            else if (excl)
                sb_printf(s, "    %s s = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s)\n            s = 0;\n"
                             "        y[i] = s;\n        s += x[i];\n    }\n}\n", acc_type(dt), head);
            else
                sb_printf(s, "    %s s = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s)\n            s = 0;\n"
                             "        s += x[i];\n        y[i] = %ss;\n    }\n}\n", acc_type(dt), head, cast_of(dt));
            snprintf(bytes, sizeof bytes, "%d*n", size_of(dt) + size_of(yd) + (key ? 4 : 1));
        } else if (starts(k, "select") || is(k, "partition")) {
            int even = is(k, "select-even"), idx = is(k, "select-idx"), part = is(k, "partition");
            int pos = is(k, "select-pos");
            BEGIN(even ? "select_even" : idx ? "select_indices" : part ? "partition_above"
                  : pos ? "compact_with_positions" : "select_above");
            gen_describe(p, "stream compaction (%s): %s", dt,
                         even ? "keep the even values" : idx ? "indices of the elements above a threshold"
                         : part ? "stable partition around a threshold"
                         : pos ? "keep the elements above a threshold, also returning each element's scatter position"
                               : "keep the elements above a threshold");
            gen_arg(p, "x", dt, "in", "n");
            if (idx)
                gen_arg(p, "idx", "i32", "out", "n");
            else
                gen_arg(p, "out", dt, "out", "n");
            if (pos)
                gen_arg(p, "pos", "i32", "out", "n");
            gen_arg(p, "count", "i32", "out", "1");
            double t = 0;
            if (!even) {
                t = fl ? gen_randint(g, -60, 60) / 100.0 : gen_randint(g, 200, 800);
                gen_scalar(p, "thresh", dt, t);
            }
            gen_arg(p, "n", "i32", "param", NULL);
            if (!fl)
                gen_fill_int(p, "x", "0", "1000");
            const char *keep = even ? "x[i] % 2 == 0" : "x[i] > thresh";
            if (even)
                sb_append(s, "/* Keeps the even values of x, in order: out[0..count) holds them and the rest\n"
                             " * of out is zeroed. */\n");
            else if (idx)
                sb_append(s, "/* The indices i with x[i] > thresh, ascending: idx[0..count) holds them and\n"
                             " * the rest of idx is -1. */\n");
            else if (part)
                sb_append(s, "/* Stable partition: the elements with x[i] > thresh first, then the others,\n"
                             " * each group in its original order; count is the size of the first group. */\n");
            else if (pos)
                sb_append(s, "/* Compaction through an exclusive scan of the predicate x[i] > thresh:\n"
                             " * pos[i] is the number of kept elements before i (where x[i] goes if kept),\n"
                             " * out[0..count) holds the kept elements in order and the rest of out is 0. */\n");
            else
                sb_append(s, "/* Keeps the elements with x[i] > thresh, in order: out[0..count) holds them\n"
                             " * and the rest of out is zeroed. */\n");
            sb_printf(s, "void %s(const %s *x, %s *%s, %sint32_t *count, ", entry, T, idx ? "int32_t" : T,
                      idx ? "idx" : "out", pos ? "int32_t *pos, " : "");
            if (!even)
                sb_printf(s, "%s thresh, ", T);
            sb_append(s, "int n)\n{\n    int m = 0;\n");
            if (part) {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            out[m++] = x[i];\n"
                             "    *count = m;\n"
                             "    for (int i = 0; i < n; i++)\n        if (!(%s))\n            out[m++] = x[i];\n}\n",
                          keep, keep);
            } else if (pos) {
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        pos[i] = m;\n"
                             "        if (%s)\n            out[m++] = x[i];\n    }\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        out[i] = 0;\n}\n", keep);
            } else if (idx) {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            idx[m++] = i;\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        idx[i] = -1;\n}\n", keep);
            } else {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            out[m++] = x[i];\n"
                             "    *count = m;\n    memset(out + m, 0, (size_t)(n - m) * sizeof *out);\n}\n", keep);
            }
            snprintf(bytes, sizeof bytes, "%d*n+4", 2 * size_of(dt) + (pos ? 4 : 0));
        } else if (is(k, "unique") || is(k, "rle")) {
            int rle = is(k, "rle");
            BEGIN(rle ? "run_length_encode" : "unique_sorted");
            gen_describe(p, rle ? "run-length encoding of an i32 array" : "unique values of a sorted i32 array");
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, rle ? "values" : "out", dt, "out", "n");
            if (rle)
                gen_arg(p, "lengths", "i32", "out", "n");
            gen_arg(p, rle ? "nruns" : "count", "i32", "out", "1");
            gen_arg(p, "n", "i32", "param", NULL);
            if (rle) {
                gen_fill_int(p, "x", "0", "3");
                sb_append(s, "/* Run-length encoding: the array is a sequence of *nruns maximal runs of\n"
                             " * equal values; run k has value values[k] and length lengths[k].  Entries\n"
                             " * from *nruns on are 0. */\n");
                sb_printf(s, "void %s(const int32_t *x, int32_t *values, int32_t *lengths, int32_t *nruns, int n)\n{\n",
                          entry);
                sb_append(s, "    int m = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (i == 0 || x[i] != x[i - 1]) {\n"
                             "            values[m] = x[i];\n            lengths[m] = 0;\n            m++;\n        }\n"
                             "        lengths[m - 1]++;\n    }\n    *nruns = m;\n"
                             "    for (int i = m; i < n; i++) {\n        values[i] = 0;\n        lengths[i] = 0;\n    }\n}\n");
                snprintf(bytes, sizeof bytes, "12*n+4");
            } else {
                gen_fill_int(p, "x", "0", "n/4+1");
                gen_fill_sorted(p, "x");
                sb_append(s, "/* The distinct values of the sorted array x, ascending: out[0..count) holds\n"
                             " * them (the first element of each run of equal values) and the rest of out\n"
                             " * is 0. */\n");
                sb_printf(s, "void %s(const int32_t *x, int32_t *out, int32_t *count, int n)\n{\n", entry);
                sb_append(s, "    int m = 0;\n    for (int i = 0; i < n; i++)\n"
                             "        if (i == 0 || x[i] != x[i - 1])\n            out[m++] = x[i];\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        out[i] = 0;\n}\n");
                snprintf(bytes, sizeof bytes, "8*n+4");
            }
        } else if (is(k, "logcumsumexp")) {
            BEGIN("logcumsumexp");
            gen_describe(p, "y[i] = log(exp(x[0]) + ... + exp(x[i])) (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", -5.0, 5.0);
            sb_append(s, "/* y[i] = log(exp(x[0]) + ... + exp(x[i])), updated stably as\n"
                         " * y[i] = m + log(exp(y[i-1] - m) + exp(x[i] - m)) with m the larger term. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
            sb_printf(s, "    double acc = x[0];\n    y[0] = x[0];\n    for (int i = 1; i < n; i++) {\n"
                         "        double m = fmax(acc, x[i]);\n"
                         "        acc = m + log(exp(acc - m) + exp(x[i] - m));\n"
                         "        y[i] = %sacc;\n    }\n}\n", cast_of(dt));
            snprintf(flops, sizeof flops, "6*n");
        } else if (is(k, "cummean")) {
            BEGIN("running_mean");
            gen_describe(p, "running mean y[i] = (x[0] + ... + x[i]) / (i + 1) (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", 0.0, 1.0);
            sb_append(s, "/* y[i] = (x[0] + ... + x[i]) / (i + 1), the running sum kept in double. */\n");
            sb_printf(s, "void %s(const float *x, float *y, int n)\n{\n", entry);
            sb_append(s, "    double s = 0.0;\n    for (int i = 0; i < n; i++) {\n        s += x[i];\n"
                         "        y[i] = (float)(s / (i + 1));\n    }\n}\n");
            snprintf(flops, sizeof flops, "2*n");
        } else { /* ema */
            BEGIN("exponential_moving_average");
            gen_describe(p, "exponential moving average, a first-order linear recurrence (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_scalar(p, "decay", dt, f32 ? 0.9 : 0.99);
            gen_arg(p, "n", "i32", "param", NULL);
            sb_append(s, "/* y[0] = x[0], y[i] = decay * y[i-1] + (1 - decay) * x[i]: a scan over the\n"
                         " * affine maps y -> decay * y + (1 - decay) * x[i]. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, %s decay, int n)\n{\n", entry, T, T, T);
            sb_printf(s, "    %s acc = x[0];\n    y[0] = x[0];\n    for (int i = 1; i < n; i++) {\n"
                         "        acc = decay * acc + (1 - decay) * x[i];\n        y[i] = %sacc;\n    }\n}\n",
                      "double", cast_of(dt));
            snprintf(flops, sizeof flops, "3*n");
        }
#undef BEGIN

        /* Shapes and configs. */
        if (is_row(sp)) {
            gen_config(p, "small", "r=256,c=300");
            gen_config(p, "edge", "r=1,c=1");
            gen_config(p, "edge-thin", starts(k, "col-") ? "r=7,c=1" : "r=1,c=7");
            gen_config(p, "edge-prime", "r=37,c=131");
            const char *large = (wide ? LARGE64 : LARGE32)[q % 4];
            if (is(k, "sat"))
                large = "r=8192,c=16384";
            else if (starts(k, "col-") && q % 4 == 3)
                large = wide ? "r=8192,c=8192" : "r=16384,c=8192"; /* not 2^21 rows of a running column */
            gen_config(p, "large", large);
        } else if (is(k, "strided-incl")) {
            gen_config(p, "small", "n=40000,stride=3");
            gen_config(p, "edge", "n=1,stride=2");
            gen_config(p, "edge-prime", "n=1021,stride=5");
            gen_config(p, "large", wide ? "n=16777216,stride=4" : "n=33554432,stride=4");
        } else {
            gen_config(p, "small", "n=100000");
            gen_config(p, "edge", "n=1");
            gen_config(p, "edge-prime", "n=7919");
            gen_config(p, "large", wide || is(yd, "i64") ? "n=67108864" : "n=134217728");
        }
        /* Tolerances. */
        if (is(yd, "f32")) {
            if (is(k, "cumprod"))
                gen_tolerance(p, 1e-5, 1e-3);
            else if (is(k, "logcumsumexp"))
                gen_tolerance(p, 1e-4, 1e-4);
            else if (!strstr(k, "max") && !strstr(k, "min") && !starts(k, "select") && !is(k, "partition"))
                gen_tolerance(p, 1e-4, 1e-3);
        } else if (is(yd, "f64")) {
            if (is(k, "cumprod"))
                gen_tolerance(p, 1e-12, 1e-8);
            else if (!strstr(k, "max") && !strstr(k, "min") && !starts(k, "select") && !is(k, "partition"))
                gen_tolerance(p, 1e-9, 1e-9);
        }
        if (!bytes[0])
            snprintf(bytes, sizeof bytes, "%d*n", size_of(dt) + size_of(yd));
        gen_cost(p, flops, bytes);
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_scan = {"scan", "scan", 54, generate};
