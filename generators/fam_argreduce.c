/* argreduce — positions of extremes: argmax / argmin over a whole array,
 * per row and per column of an r x c matrix, always with the first
 * occurrence winning ties; argmax of |x| (BLAS iamax), top-1 value with its
 * index (greedy decoding), the element nearest to a target, argmax of
 * logits plus a bias vector, and argmax restricted by a mask (-1 when
 * nothing qualifies).  Programs vary by scope, criterion, dtype (f32, f64,
 * i32 drawn from a wide range so ties are rare), index dtype (i32, i64) and
 * layout (contiguous or strided arrays; row-major, padded or column-major
 * matrices).  Per-column searches over row-major data sweep the rows and keep
 * one running best per column. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

typedef struct Spec {
    char scope;       /* 'a' whole array, 'r' per row, 'c' per column */
    const char *kind; /* argmax, argmin, absmax, top1, top1-min, nearest, bias, masked */
    const char *dt;
    char layout;      /* 'c' contiguous / row-major, 's' strided array, 'l' padded rows, 'm' column-major */
    int idx64;
} Spec;

static const Spec SPECS[] = {
    /* whole array */
    {'a', "argmax", "f32", 'c', 0}, {'a', "argmax", "f64", 'c', 0}, {'a', "argmax", "i32", 'c', 0},
    {'a', "argmin", "f32", 'c', 0}, {'a', "argmin", "f64", 's', 0}, {'a', "argmin", "i32", 'c', 1},
    {'a', "argmax", "f32", 's', 0}, {'a', "argmax", "i32", 's', 1}, {'a', "absmax", "f32", 'c', 0},
    {'a', "absmax", "f64", 's', 0}, {'a', "top1", "f32", 'c', 0}, {'a', "top1", "f64", 'c', 1},
    {'a', "top1", "i32", 'c', 0}, {'a', "top1-min", "f32", 'c', 0}, {'a', "nearest", "f32", 'c', 0},
    {'a', "nearest", "f64", 'c', 1}, {'a', "masked", "f32", 'c', 0}, {'a', "argmax", "f64", 's', 1},
    /* per row */
    {'r', "argmax", "f32", 'c', 0}, {'r', "argmax", "f64", 'c', 0}, {'r', "argmax", "i32", 'c', 0},
    {'r', "argmin", "f32", 'c', 0}, {'r', "argmin", "f64", 'm', 0}, {'r', "argmin", "i32", 'c', 1},
    {'r', "argmax", "f32", 'm', 0}, {'r', "argmax", "f32", 'l', 0}, {'r', "absmax", "f32", 'c', 0},
    {'r', "absmax", "f64", 'c', 1}, {'r', "top1", "f32", 'c', 0}, {'r', "top1", "f64", 'c', 0},
    {'r', "top1", "i32", 'm', 0}, {'r', "top1-min", "f64", 'c', 0}, {'r', "bias", "f32", 'c', 0},
    {'r', "bias", "f64", 'l', 1}, {'r', "nearest", "f32", 'c', 0}, {'r', "masked", "f32", 'c', 0},
    {'r', "argmax", "i32", 'l', 0}, {'r', "argmin", "f32", 'm', 0},
    /* per column */
    {'c', "argmax", "f32", 'c', 0}, {'c', "argmax", "f64", 'c', 0}, {'c', "argmax", "i32", 'c', 0},
    {'c', "argmin", "f32", 'c', 0}, {'c', "argmin", "f64", 'm', 0}, {'c', "argmin", "i32", 'c', 1},
    {'c', "argmax", "f32", 'm', 0}, {'c', "absmax", "f32", 'c', 0}, {'c', "absmax", "f64", 'm', 0},
    {'c', "top1", "f32", 'c', 0}, {'c', "top1", "f64", 'c', 0}, {'c', "top1-min", "i32", 'c', 0},
    {'c', "nearest", "f32", 'c', 0}, {'c', "bias", "f32", 'c', 0}, {'c', "argmax", "f32", 'l', 1},
    {'c', "masked", "f64", 'c', 0},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

static const char *ctype(const char *dt)
{
    return is(dt, "f32") ? "float" : is(dt, "f64") ? "double" : "int32_t";
}

/* Whether a larger key wins. */
static int maximises(const Spec *sp)
{
    return !(is(sp->kind, "argmin") || is(sp->kind, "top1-min") || is(sp->kind, "nearest"));
}

/* The search key of element expression e ("x[i]", "row[j]"), with k the
 * index within the run (for per-column bias and per-row targets). */
static void key_of(char *buf, const Spec *sp, const char *e, const char *outer)
{
    const char *abs_fn = is(sp->dt, "f32") ? "fabsf" : "fabs";
    if (is(sp->kind, "absmax"))
        snprintf(buf, 96, "%s(%s)", abs_fn, e);
    else if (is(sp->kind, "nearest") && sp->scope == 'a')
        snprintf(buf, 96, "%s(%s - target)", abs_fn, e);
    else if (is(sp->kind, "nearest"))
        snprintf(buf, 96, "%s(%s - target[%s])", abs_fn, e, outer);
    else
        snprintf(buf, 96, "%s", e);
}

/* A search along one run: `n` elements, the first one elem0, element k at
 * elem (a printf format with one %s for the index variable `k`), storing into idx/val at `slot`.
 * `mask_at` is the mask element's format, NULL without a mask; `bias_at` the
 * bias term's format. */
static void emit_run(StrBuf *s, const Spec *sp, const char *ind, const char *k, const char *n, const char *elem0,
                     const char *elem, const char *mask_at, const char *bias_at, const char *outer, const char *slot)
{
    const char *T = ctype(sp->dt);
    char e0[96], ek[96], key0[96], keyk[96], m[96];
    if (bias_at) {
        char b0[64], bk[64], x0[64], xk[64];
        snprintf(x0, sizeof x0, "%s", elem0);
        snprintf(xk, sizeof xk, elem, k);
        snprintf(b0, sizeof b0, bias_at, "0");
        snprintf(bk, sizeof bk, bias_at, k);
        snprintf(e0, sizeof e0, "%s + %s", x0, b0);
        snprintf(ek, sizeof ek, "%s + %s", xk, bk);
    } else {
        snprintf(e0, sizeof e0, "%s", elem0);
        snprintf(ek, sizeof ek, elem, k);
    }
    key_of(key0, sp, e0, outer);
    key_of(keyk, sp, ek, outer);
    const char *I = sp->idx64 ? "int64_t" : "int";
    char cmp = maximises(sp) ? '>' : '<';
    if (mask_at) {
        snprintf(m, sizeof m, mask_at, k);
        sb_printf(s, "%s%s best = 0;\n%s%s best_k = -1;\n", ind, T, ind, I);
        sb_printf(s, "%sfor (int %s = 0; %s < %s; %s++) {\n", ind, k, k, n, k);
        sb_printf(s, "%s    if (!%s)\n%s        continue;\n", ind, m, ind);
        sb_printf(s, "%s    %s v = %s;\n", ind, T, keyk);
        sb_printf(s, "%s    if (best_k < 0 || v %c best) {\n", ind, cmp);
    } else {
        sb_printf(s, "%s%s best = %s;\n%s%s best_k = 0;\n", ind, T, key0, ind, I);
        sb_printf(s, "%sfor (int %s = 1; %s < %s; %s++) {\n", ind, k, k, n, k);
        sb_printf(s, "%s    %s v = %s;\n", ind, T, keyk);
        sb_printf(s, "%s    if (v %c best) {\n", ind, cmp);
    }
    sb_printf(s, "%s        best = v;\n%s        best_k = %s;\n%s    }\n%s}\n", ind, ind, k, ind, ind);
    sb_printf(s, "%sidx[%s] = best_k;\n", ind, slot);
    if (strncmp(sp->kind, "top1", 4) == 0)
        sb_printf(s, "%sval[%s] = best;\n", ind, slot);
}

/* Per column over row-major rows: one running best per column. */
static void emit_sweep(StrBuf *s, const Spec *sp)
{
    const char *T = ctype(sp->dt);
    int top1 = strncmp(sp->kind, "top1", 4) == 0;
    int masked = is(sp->kind, "masked");
    const char *best = top1 ? "val" : "best";
    const char *ld = sp->layout == 'l' ? "ld" : "c";
    char key[96], e[64];
    if (!top1)
        sb_printf(s, "    %s *best = malloc((size_t)c * sizeof *best);\n    if (!best)\n        return;\n", T);
    if (masked) {
        sb_append(s, "    for (int j = 0; j < c; j++) {\n        best[j] = 0;\n        idx[j] = -1;\n    }\n");
    } else {
        snprintf(e, sizeof e, is(sp->kind, "bias") ? "x[j] + bias[0]" : "x[j]");
        key_of(key, sp, e, "j");
        sb_printf(s, "    for (int j = 0; j < c; j++) {\n        %s[j] = %s;\n        idx[j] = 0;\n    }\n", best,
                  key);
    }
    sb_printf(s, "    for (int i = %d; i < r; i++) {\n", masked ? 0 : 1);
    sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, ld);
    if (masked)
        sb_printf(s, "        const unsigned char *mrow = mask + (size_t)i * c;\n");
    sb_append(s, "        for (int j = 0; j < c; j++) {\n");
    if (masked)
        sb_append(s, "            if (!mrow[j])\n                continue;\n");
    key_of(key, sp, is(sp->kind, "bias") ? "row[j] + bias[i]" : "row[j]", "j");
    sb_printf(s, "            %s v = %s;\n", T, key);
    if (masked)
        sb_printf(s, "            if (idx[j] < 0 || v %c %s[j]) {\n", maximises(sp) ? '>' : '<', best);
    else
        sb_printf(s, "            if (v %c %s[j]) {\n", maximises(sp) ? '>' : '<', best);
    sb_printf(s, "                %s[j] = v;\n                idx[j] = i;\n            }\n        }\n    }\n", best);
    if (!top1)
        sb_append(s, "    free(best);\n");
}

static const char *crit_math(const Spec *sp)
{
    const char *k = sp->kind;
    if (is(k, "argmax") || is(k, "top1")) return "the largest x";
    if (is(k, "argmin") || is(k, "top1-min")) return "the smallest x";
    if (is(k, "absmax")) return "the largest |x|";
    if (is(k, "nearest")) return "the smallest |x - target|";
    if (is(k, "bias")) return "the largest x + bias";
    return "the largest x where mask != 0 (-1 if there is none)";
}

static const char *entry_of(const Spec *sp)
{
    static char buf[64];
    const char *k = sp->kind;
    const char *pre = sp->scope == 'a' ? "" : sp->scope == 'r' ? "row_" : "col_";
    const char *name = is(k, "argmax") ? "argmax" : is(k, "argmin") ? "argmin" : is(k, "absmax") ? "argmax_abs"
                     : is(k, "top1") ? "top1_max" : is(k, "top1-min") ? "top1_min" : is(k, "nearest") ? "argnearest"
                     : is(k, "bias") ? "argmax_biased" : "masked_argmax";
    snprintf(buf, sizeof buf, "%s%s", pre, name);
    return buf;
}

static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "fabs"))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "size_t"))
        sb_append(dst, "#include <stddef.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (strstr(body, "malloc"))
        sb_append(dst, "#include <stdlib.h>\n");
    sb_append(dst, "\n");
}

static const char *const LARGE32[] = {"r=16384,c=8192", "r=2048,c=65536", "r=131072,c=1024", "r=2097152,c=64"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=1024,c=65536", "r=65536,c=1024", "r=1048576,c=64"};

static int generate(GenCtx *g)
{
    for (int q = 0; q < NSPECS; q++) {
        const Spec *sp = &SPECS[q];
        const char *T = ctype(sp->dt);
        const char *I = sp->idx64 ? "int64_t" : "int32_t";
        int top1 = strncmp(sp->kind, "top1", 4) == 0;
        int masked = is(sp->kind, "masked"), bias = is(sp->kind, "bias"), near = is(sp->kind, "nearest");
        int f64 = is(sp->dt, "f64");
        char variant[80];
        snprintf(variant, sizeof variant, "%s-%s-%s%s%s", sp->scope == 'a' ? "all" : sp->scope == 'r' ? "rows" : "cols",
                 sp->kind, sp->dt,
                 sp->layout == 's' ? "-strided" : sp->layout == 'l' ? "-ld" : sp->layout == 'm' ? "-colmajor" : "",
                 sp->idx64 ? "-idx64" : "");
        const char *entry = entry_of(sp);
        GenProgram *p = gen_begin(g, variant, entry);
        const char *count = sp->scope == 'a' ? "1" : sp->scope == 'r' ? "r" : "c";
        const char *xshape = sp->scope == 'a' ? (sp->layout == 's' ? "n*stride" : "n")
                           : sp->layout == 'm' ? "c,r" : sp->layout == 'l' ? "r,ld" : "r,c";
        gen_arg(p, "x", sp->dt, "in", xshape);
        if (masked)
            gen_arg(p, "mask", "u8", "in", sp->scope == 'a' ? "n" : "r,c");
        if (bias)
            gen_arg(p, "bias", sp->dt, "in", sp->scope == 'r' ? "c" : "r");
        if (near && sp->scope != 'a')
            gen_arg(p, "target", sp->dt, "in", count);
        gen_arg(p, "idx", sp->idx64 ? "i64" : "i32", "out", count);
        if (top1)
            gen_arg(p, "val", sp->dt, "out", count);
        if (near && sp->scope == 'a')
            gen_scalar(p, "target", sp->dt, (double)gen_randint(g, -50, 50) / 100.0);
        if (sp->scope == 'a') {
            gen_arg(p, "n", "i32", "param", NULL);
            if (sp->layout == 's')
                gen_arg(p, "stride", "i32", "param", NULL);
        } else {
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            if (sp->layout == 'l')
                gen_arg(p, "ld", "i32", "param", NULL);
        }
        if (is(sp->dt, "i32"))
            gen_fill_int(p, "x", "-1000000000", "1000000000");
        else if (f64 && !near)
            gen_fill_uniform(p, "x", -100.0, 100.0);
        if (masked)
            gen_fill_int(p, "mask", "0", "2");
        if (bias)
            gen_fill_uniform(p, "bias", -0.5, 0.5);

        if (sp->scope == 'a') {
            if (sp->layout == 's') {
                gen_config(p, "small", "n=40000,stride=3");
                gen_config(p, "edge", "n=1,stride=2");
                gen_config(p, "edge-prime", "n=1021,stride=5");
                gen_config(p, "large", f64 ? "n=16777216,stride=4" : "n=33554432,stride=4");
            } else {
                gen_config(p, "small", "n=100000");
                gen_config(p, "edge", "n=1");
                gen_config(p, "edge-prime", "n=7919");
                gen_config(p, "large", f64 ? "n=67108864" : "n=134217728");
            }
        } else {
            const char *large = (f64 ? LARGE64 : LARGE32)[q % 4];
            char buf[64];
            if (sp->layout == 'l') {
                gen_config(p, "small", "r=256,c=300,ld=320");
                gen_config(p, "edge", "r=1,c=1,ld=2");
                gen_config(p, "edge-prime", "r=37,c=131,ld=137");
                /* pad each row by 8 elements */
                int cval = 0;
                sscanf(strstr(large, "c=") + 2, "%d", &cval);
                snprintf(buf, sizeof buf, "%.*sc=%d,ld=%d", (int)(strstr(large, "c=") - large), large, cval - 8,
                         cval);
                gen_config(p, "large", buf);
            } else {
                gen_config(p, "small", sp->scope == 'r' ? "r=256,c=300" : "r=300,c=256");
                gen_config(p, "edge", "r=1,c=1");
                gen_config(p, "edge-thin", sp->scope == 'r' ? "r=7,c=1" : "r=1,c=7");
                gen_config(p, "edge-prime", "r=37,c=131");
                gen_config(p, "large", large);
            }
        }
        int es = f64 ? 8 : 4, is_ = sp->idx64 ? 8 : 4;
        char flops[32], bytes[96];
        const char *N = sp->scope == 'a' ? "n" : "r*c";
        snprintf(flops, sizeof flops, "%s%s", bias || near ? "2*" : "", N);
        snprintf(bytes, sizeof bytes, "%d*%s+%d*%s", es + (masked ? 1 : 0), N, is_ + (top1 ? es : 0) +
                 (near && sp->scope != 'a' ? es : 0), count);
        if (bias)
            snprintf(bytes, sizeof bytes, "%d*r*c+%d*%s+%d*%s", es, es, sp->scope == 'r' ? "c" : "r", is_, count);
        gen_cost(p, flops, bytes);

        StrBuf body = STRBUF_INIT, *s = &body;
        const char *where = sp->scope == 'a' ? (sp->layout == 's' ? "the n elements x[k * stride]" : "the n elements x[k]")
                          : sp->scope == 'r' ? "each row i of the r x c matrix x" : "each column j of the r x c matrix x";
        const char *store = sp->layout == 'm' ? ", stored column-major (x[j * r + i])"
                          : sp->layout == 'l' ? ", stored row-major with leading dimension ld (x[i * ld + j])"
                          : sp->scope == 'a' ? "" : ", stored row-major (x[i * c + j])";
        sb_printf(s, "/* For %s%s:\n *   the index of %s%s, the first occurrence on ties. */\n", where, store,
                  crit_math(sp), top1 ? ", and that value" : "");
        sb_printf(s, "void %s(const %s *x, ", entry, T);
        if (masked)
            sb_append(s, "const unsigned char *mask, ");
        if (bias)
            sb_printf(s, "const %s *bias, ", T);
        if (near && sp->scope != 'a')
            sb_printf(s, "const %s *target, ", T);
        sb_printf(s, "%s *idx, ", I);
        if (top1)
            sb_printf(s, "%s *val, ", T);
        if (near && sp->scope == 'a')
            sb_printf(s, "%s target, ", T);
        if (sp->scope == 'a')
            sb_printf(s, "int n%s)\n{\n", sp->layout == 's' ? ", int stride" : "");
        else
            sb_printf(s, "int r, int c%s)\n{\n", sp->layout == 'l' ? ", int ld" : "");

        if (sp->scope == 'a') {
            emit_run(s, sp, "    ", "k", "n", "x[0]", sp->layout == 's' ? "x[%s * stride]" : "x[%s]",
                     masked ? "mask[%s]" : NULL, NULL, NULL, "0");
        } else if (sp->scope == 'r') {
            sb_append(s, "    for (int i = 0; i < r; i++) {\n");
            const char *elem = "row[%s]";
            if (sp->layout == 'm')
                elem = "x[(size_t)%s * r + i]";
            else
                sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, sp->layout == 'l' ? "ld" : "c");
            if (masked)
                sb_append(s, "        const unsigned char *mrow = mask + (size_t)i * c;\n");
            emit_run(s, sp, "        ", "j", "c", sp->layout == 'm' ? "x[i]" : "row[0]", elem, masked ? "mrow[%s]" : NULL, bias ? "bias[%s]" : NULL, "i",
                     "i");
            sb_append(s, "    }\n");
        } else if (sp->layout == 'm') {
            sb_append(s, "    for (int j = 0; j < c; j++) {\n");
            sb_printf(s, "        const %s *col = x + (size_t)j * r;\n", T);
            emit_run(s, sp, "        ", "i", "r", "col[0]", "col[%s]", masked ? "mask[(size_t)%s * c + j]" : NULL,
                     bias ? "bias[%s]" : NULL, "j", "j");
            sb_append(s, "    }\n");
        } else {
            emit_sweep(s, sp);
        }
        sb_append(s, "}\n");
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_argreduce = {"argreduce", "reduction", 54, generate};
