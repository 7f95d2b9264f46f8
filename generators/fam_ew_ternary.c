/* ew_ternary — elementwise functions of three inputs, out = f(a, b, c):
 * fused multiply-add, select by a predicate or by a u8 mask (where), lerp,
 * clamp between two arrays, median of three, smoothstep, sigmoid-gated
 * mixes and a few more, in f32 and f64; and integer mixes on i32 (bit
 * select, majority, median, clamp, bounded multiply-add, modular products,
 * saturating sums) and u8 (alpha blend, masks, saturating sums, thresholds).
 * The shape cycles through three vectors of one length, and an n x m
 * matrix pair (a, b) with c broadcast as a row vector (c[j]) or as a column
 * vector (c[i]). */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_tmpl.h"

typedef struct TerOp {
    const char *tag;
    const char *math;
    const char *expr;    /* in x, y, z (from a, b, c); '@' / '#' = f32 suffixes */
    const char *helper;  /* optional static helper; 'T' = element type */
    int cmask;           /* c is a u8 mask of 0/1 values */
    double lo[3], hi[3]; /* real ranges of a, b, c */
    const char *ilo[3], *ihi[3]; /* integer ranges (i32) */
    int flops;
} TerOp;

#define R3(a, b, c, d, e, f) {a, c, e}, {b, d, f}

static const TerOp FOPS[] = {
    {"fma", "a*b + c", "x * y + z", NULL, 0, R3(-1, 1, -1, 1, -1, 1), {0}, {0}, 2},
    {"where-pos", "c > 0 ? a : b", "z > 0.0# ? x : y", NULL, 0, R3(-1, 1, -1, 1, -1, 1), {0}, {0}, 1},
    {"where-mask", "mask c ? a : b (c a u8 mask of 0/1)", "z ? x : y", NULL, 1, R3(-1, 1, -1, 1, 0, 2), {0},
     {0}, 1},
    {"lerp", "a + c*(b - a), c in [0, 1]", "x + z * (y - x)", NULL, 0, R3(-1, 1, -1, 1, 0, 1), {0}, {0}, 3},
    {"clamp", "min(max(a, b), c): a clamped between the arrays b <= c", "fmin@(fmax@(x, y), z)", NULL, 0,
     R3(-2, 2, -1, 0, 0, 1), {0}, {0}, 2},
    {"median3", "median of a, b, c", "median3(x, y, z)",
     "static T median3(T a, T b, T c)\n{\n    return fmax@(fmin@(a, b), fmin@(fmax@(a, b), c));\n}\n\n", 0,
     R3(-1, 1, -1, 1, -1, 1), {0}, {0}, 4},
    {"smoothstep", "smoothstep of a between the edges b < c", "smoothstep(y, z, x)",
     "static T smoothstep(T edge0, T edge1, T v)\n{\n    T t = (v - edge0) / (edge1 - edge0);\n"
     "    t = fmin@(fmax@(t, 0.0#), 1.0#);\n    return t * t * (3.0# - 2.0# * t);\n}\n\n",
     0, R3(-3, 3, -2, -1, 1, 2), {0}, {0}, 9},
    {"sym-poly", "ab + bc + ca", "x * y + y * z + z * x", NULL, 0, R3(-1, 1, -1, 1, -1, 1), {0}, {0}, 5},
    {"add-or-sub", "c > 0.5 ? a + b : a - b", "z > 0.5# ? x + y : x - y", NULL, 0, R3(-1, 1, -1, 1, 0, 1), {0},
     {0}, 2},
    {"norm3", "sqrt(a^2 + b^2 + c^2)", "sqrt@(x * x + y * y + z * z)", NULL, 0, R3(-2, 2, -2, 2, -2, 2), {0},
     {0}, 6},
    {"standardize", "(a - b) / c with c in [0.5, 2]", "(x - y) / z", NULL, 0, R3(-3, 3, -1, 1, 0.5, 2), {0},
     {0}, 2},
    {"exp-affine", "a * exp(b) + c", "x * exp@(y) + z", NULL, 0, R3(-1, 1, -2, 2, -1, 1), {0}, {0}, 3},
    {"sigmoid-mix", "g*a + (1 - g)*b with the gate g = sigmoid(c)", "sigmoid_mix(x, y, z)",
     "static T sigmoid_mix(T a, T b, T c)\n{\n    const T gate = 1.0# / (1.0# + exp@(-c));\n"
     "    return gate * a + (1.0# - gate) * b;\n}\n\n",
     0, R3(-1, 1, -1, 1, -6, 6), {0}, {0}, 7},
    {"relu-fma", "max(a*b + c, 0)", "fmax@(x * y + z, 0.0#)", NULL, 0, R3(-1, 1, -1, 1, -0.5, 0.5), {0}, {0},
     3},
    {"merge-close", "|a - b| < c ? (a + b)/2 : a", "fabs@(x - y) < z ? 0.5# * (x + y) : x", NULL, 0,
     R3(-1, 1, -1, 1, 0, 0.5), {0}, {0}, 4},
};
#define N_FOPS ((int)(sizeof FOPS / sizeof FOPS[0]))

#define I3(a, b, c, d, e, f) {0}, {0}, {a, c, e}, {b, d, f}

static const TerOp I32OPS[] = {
    {"bitselect", "bits of a where c is set, else bits of b", "(x & z) | (y & ~z)", NULL, 0,
     I3("0", "2147483647", "0", "2147483647", "0", "2147483647"), 3},
    {"where-pos", "c > 0 ? a : b", "z > 0 ? x : y", NULL, 0, I3("-100000", "100000", "-100000", "100000", "-100", "100"),
     1},
    {"median3", "median of a, b, c", "median3(x, y, z)",
     "static int32_t median3(int32_t a, int32_t b, int32_t c)\n{\n    if (a > b) {\n"
     "        const int32_t t = a;\n        a = b;\n        b = t;\n    }\n"
     "    /* now a <= b */\n    return c < a ? a : (c > b ? b : c);\n}\n\n",
     0, I3("-1000000", "1000000", "-1000000", "1000000", "-1000000", "1000000"), 4},
    {"clamp", "a clamped to [b, c] (b < c)", "x < y ? y : (x > z ? z : x)", NULL, 0,
     I3("-2000", "2000", "-1000", "0", "0", "1000"), 2},
    {"mul-add", "a*b + c with |a|, |b| < 30000", "x * y + z", NULL, 0,
     I3("-30000", "30000", "-30000", "30000", "-1000000000", "1000000000"), 2},
    {"avg3", "(a + b + c) / 3, truncated", "(x + y + z) / 3", NULL, 0,
     I3("-100000000", "100000000", "-100000000", "100000000", "-100000000", "100000000"), 3},
    {"mulmod", "(a * b) mod c with a, b < 40000 and c >= 1", "(x * y) % z", NULL, 0,
     I3("0", "40000", "0", "40000", "1", "1000"), 2},
    {"min3", "min(a, b, c)", "min3(x, y, z)",
     "static int32_t min3(int32_t a, int32_t b, int32_t c)\n{\n    const int32_t m = a < b ? a : b;\n"
     "    return m < c ? m : c;\n}\n\n",
     0, I3("-1000000", "1000000", "-1000000", "1000000", "-1000000", "1000000"), 2},
    {"sat-add3", "a + b + c saturated to the int32 range", "sat_add3(x, y, z)",
     "static int32_t sat_add3(int32_t a, int32_t b, int32_t c)\n{\n    const int64_t s = (int64_t)a + b + c;\n"
     "    if (s > INT32_MAX)\n        return INT32_MAX;\n    if (s < INT32_MIN)\n        return INT32_MIN;\n"
     "    return (int32_t)s;\n}\n\n",
     0, I3("-2000000000", "2000000000", "-2000000000", "2000000000", "-2000000000", "2000000000"), 4},
    {"cond-shift", "c odd ? a << b : a >> b, a in [0, 2^20), b in [0, 10]", "(z & 1) ? x << y : x >> y", NULL, 0,
     I3("0", "1048576", "0", "11", "0", "1000"), 2},
    {"majority", "bitwise majority of a, b, c", "(x & y) | (x & z) | (y & z)", NULL, 0,
     I3("0", "2147483647", "0", "2147483647", "0", "2147483647"), 5},
    {"range-offset", "b <= a < c ? a - b : -1", "y <= x && x < z ? x - y : -1", NULL, 0,
     I3("-1000", "1000", "-500", "0", "0", "500"), 3},
};
#define N_I32OPS ((int)(sizeof I32OPS / sizeof I32OPS[0]))

static const TerOp U8OPS[] = {
    {"alpha-blend", "(a*c + b*(255 - c)) / 255 rounded", "(x * z + y * (255 - z) + 127) / 255", NULL, 0, {0}, {0},
     {0}, {0}, 5},
    {"where-mask", "c ? a : b (c a 0/1 mask)", "z ? x : y", NULL, 1, {0}, {0}, {0}, {0}, 1},
    {"median3", "median of a, b, c", "median3(x, y, z)",
     "static int median3(int a, int b, int c)\n{\n    const int lo = a < b ? a : b;\n"
     "    const int hi = a < b ? b : a;\n    return c < lo ? lo : (c > hi ? hi : c);\n}\n\n",
     0, {0}, {0}, {0}, {0}, 4},
    {"clamp", "a clamped to [b, c], b < 64 <= 192 <= c", "x < y ? y : (x > z ? z : x)", NULL, 0, {0}, {0}, {0},
     {0}, 2},
    {"sat-add3", "min(a + b + c, 255)", "x + y + z > 255 ? 255 : x + y + z", NULL, 0, {0}, {0}, {0}, {0}, 3},
    {"avg3", "(a + b + c + 1) / 3", "(x + y + z + 1) / 3", NULL, 0, {0}, {0}, {0}, {0}, 4},
    {"max3", "max(a, b, c)", "x > y ? (x > z ? x : z) : (y > z ? y : z)", NULL, 0, {0}, {0}, {0}, {0}, 2},
    {"bitselect", "bits of a where c is set, else bits of b", "(x & z) | (y & ~z)", NULL, 0, {0}, {0}, {0}, {0},
     3},
    {"lerp-fixed", "a + (b - a) * c / 256, truncated", "x + (y - x) * z / 256", NULL, 0, {0}, {0}, {0}, {0}, 4},
    {"change-mask", "|a - b| > c ? 255 : 0", "(x > y ? x - y : y - x) > z ? 255 : 0", NULL, 0, {0}, {0}, {0}, {0},
     3},
    {"weighted", "(2a + b + c + 2) / 4", "(2 * x + y + z + 2) >> 2", NULL, 0, {0}, {0}, {0}, {0}, 4},
    {"add-sub-sat", "a + b - c saturated to [0, 255]", "x + y - z < 0 ? 0 : (x + y - z > 255 ? 255 : x + y - z)",
     NULL, 0, {0}, {0}, {0}, {0}, 4},
};
#define N_U8OPS ((int)(sizeof U8OPS / sizeof U8OPS[0]))

enum { BC_FLAT, BC_ROW, BC_COL };
static const char *const BC_TAGS[] = {"", "-crow", "-ccol"};

static void emit_t(StrBuf *s, const char *tmpl, int f32, const char *ty)
{
    for (const char *c = tmpl; *c; c++) {
        if (*c == '@' || *c == '#') {
            if (f32)
                sb_putc(s, 'f');
        } else if (*c == 'T' && (c == tmpl || c[-1] == ' ' || c[-1] == '(' || c[-1] == '\n') && c[1] == ' ') {
            sb_append(s, ty);
        } else {
            sb_putc(s, *c);
        }
    }
}

typedef enum Kind { K_F32, K_F64, K_I32, K_U8 } Kind;

/* The pair: one thread per output element in 256-thread blocks.  Vectors
 * use a 64-bit flat index; the broadcast shapes use a 2-D grid (x over the
 * m columns, y over the n rows) so c is indexed by the row or column
 * directly, with no division. */
static void emit_cuda(GenProgram *p, const TerOp *op, Kind kind, int bc, const char *entry)
{
    static const char *const ctys[] = {"float", "double", "int", "unsigned char"};
    const char *cty = ctys[kind], *vty = kind == K_U8 ? "int" : cty;
    const char *ccty = op->cmask ? "unsigned char" : cty, *zty = op->cmask ? "int" : vty;
    int f32 = kind == K_F32;
    StrBuf *k = gen_cuda_src(p);
    StrBuf t = STRBUF_INIT;
    static const char *const maps[] = {"one thread per element", "one thread per element, c[j] shared by every row",
                                       "one thread per element, c[i] shared along row i"};
    sb_printf(k, "/* out = %s: %s. */\n", op->math, maps[bc]);
    if (op->helper) {
        emit_t(&t, op->helper, f32, cty);
        text_put_cuda(k, sb_str(&t));
        sb_reset(&t);
    }
    sb_printf(&t, "extern \"C\" __global__ void %s(const %s *__restrict__ a, const %s *__restrict__ b, "
                  "const %s *__restrict__ c, %s *__restrict__ out, int n%s)\n{\n",
              entry, cty, cty, ccty, cty, bc == BC_FLAT ? "" : ", int m");
    tmpl_put_wrapped(k, sb_str(&t));
    sb_reset(&t);
    if (bc == BC_FLAT) {
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    const %s x = a[i];\n    const %s y = b[i];\n    const %s z = c[i];\n    out[i] = ", vty,
                  vty, zty);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, "a,b,c,out,n");
    } else {
        sb_append(k, "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    const int i = blockIdx.y;\n"
                     "    if (j >= m)\n        return;\n"
                     "    const long long e = (long long)i * m + j;\n");
        sb_printf(k, "    const %s x = a[e];\n    const %s y = b[e];\n    const %s z = c[%s];\n    out[e] = ", vty,
                  vty, zty, bc == BC_COL ? "i" : "j");
        gen_launch(p, entry, "(m+255)/256,n", "256", NULL, "a,b,c,out,n,m");
    }
    if (kind == K_U8)
        sb_append(k, "(unsigned char)(");
    emit_t(&t, op->expr, f32, cty);
    text_put_cuda(k, sb_str(&t));
    sb_release(&t);
    sb_append(k, kind == K_U8 ? ");\n}\n" : ";\n}\n");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", bc == BC_FLAT ? "one-element-per-thread" : "one-element-per-thread-2d-grid");
}

static int emit(GenCtx *g, const TerOp *op, Kind kind, int bc)
{
    static const char *const dts[] = {"f32", "f64", "i32", "u8"};
    static const char *const tys[] = {"float", "double", "int32_t", "uint8_t"};
    static const int sizes[] = {4, 8, 4, 1};
    const char *dt = dts[kind], *ty = tys[kind];
    const char *vty = kind == K_U8 ? "int" : ty;
    const char *cdt = op->cmask ? "u8" : dt, *cty = op->cmask ? "uint8_t" : ty;
    const char *zty = op->cmask ? "int" : vty;
    int f32 = kind == K_F32, sz = sizes[kind], csz = op->cmask ? 1 : sz;
    int isfloat = kind == K_F32 || kind == K_F64;
    char variant[80], entry[64], flops[64], bytes[96];
    snprintf(variant, sizeof variant, "%s-%s%s", op->tag, dt, BC_TAGS[bc]);
    snprintf(entry, sizeof entry, "%s_%s", isfloat ? "ew3" : (kind == K_I32 ? "i32" : "u8"), op->tag);
    for (char *c = entry; *c; c++)
        if (*c == '-')
            *c = '_';
    GenProgram *p = gen_begin(g, variant, entry);
    static const char *const bc_words[] = {"three vectors", "c broadcast along rows", "c broadcast along columns"};
    gen_describe(p, "out = %s (%s, %s)", op->math, dt, bc_words[bc]);
    gen_arg(p, "a", dt, "in", bc == BC_FLAT ? "n" : "n,m");
    gen_arg(p, "b", dt, "in", bc == BC_FLAT ? "n" : "n,m");
    gen_arg(p, "c", cdt, "in", bc == BC_FLAT ? "n" : bc == BC_ROW ? "m" : "n");
    gen_arg(p, "out", dt, "out", bc == BC_FLAT ? "n" : "n,m");
    gen_arg(p, "n", "i32", "param", NULL);
    if (bc != BC_FLAT)
        gen_arg(p, "m", "i32", "param", NULL);
    static const char *const names[] = {"a", "b", "c"};
    for (int k = 0; k < 3; k++) {
        if (k == 2 && op->cmask) {
            gen_fill_int(p, "c", "0", "2");
        } else if (isfloat) {
            gen_fill_uniform(p, names[k], op->lo[k], op->hi[k]);
        } else if (kind == K_I32) {
            gen_fill_int(p, names[k], op->ilo[k], op->ihi[k]);
        } else if (strcmp(op->tag, "clamp") == 0 && k > 0) {
            gen_fill_int(p, names[k], k == 1 ? "0" : "192", k == 1 ? "64" : "256");
        } else {
            gen_fill_int(p, names[k], "0", "256");
        }
    }
    if (bc == BC_FLAT) {
        gen_config(p, "small", "n=100000");
        gen_config(p, "edge", "n=1");
        gen_config(p, "edge-prime", "n=2039");
        gen_config(p, "large", kind == K_U8 ? "n=268435456" : "n=67108864");
        snprintf(flops, sizeof flops, "%d*n", op->flops);
        snprintf(bytes, sizeof bytes, "%d*n", 3 * sz + csz);
    } else {
        gen_config(p, "small", "n=300,m=256");
        gen_config(p, "edge", "n=1,m=1");
        gen_config(p, "edge-prime", "n=53,m=97");
        gen_config(p, "large", kind == K_U8 ? "n=16384,m=16384" : kind == K_F64 ? "n=6144,m=8192" : "n=8192,m=8192");
        snprintf(flops, sizeof flops, "%d*n*m", op->flops);
        snprintf(bytes, sizeof bytes, "%d*n*m+%d*%s", 3 * sz, csz, bc == BC_ROW ? "m" : "n");
    }
    gen_cost(p, flops, bytes);
    if (kind == K_F32)
        gen_tolerance(p, 1e-5, 1e-4);
    else if (kind == K_F64)
        gen_tolerance(p, 1e-9, 1e-7);

    StrBuf *s = gen_src(p);
    if (isfloat && (strchr(op->expr, '@') || (op->helper && strchr(op->helper, '@'))))
        sb_append(s, "#include <math.h>\n");
    if (bc != BC_FLAT)
        sb_append(s, "#include <stddef.h>\n");
    if (!isfloat || op->cmask)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    if (bc == BC_FLAT)
        sb_printf(s, "/* out[i] = %s, for i in [0, n). */\n", op->math);
    else
        sb_printf(s, "/* out[i][j] = %s, for n x m row-major a, b and out,\n * with c[%s] used for element (i, j). */\n",
                  op->math, bc == BC_ROW ? "j" : "i");
    if (op->helper)
        emit_t(s, op->helper, f32, ty);
    const char *ro = kind == K_U8 ? "(uint8_t)(" : "", *rc = kind == K_U8 ? ")" : "";
    sb_printf(s, "void %s(const %s *a, const %s *b, const %s *c, %s *out, int n%s)\n{\n", entry, ty, ty, cty, ty,
              bc == BC_FLAT ? "" : ", int m");
    if (bc == BC_FLAT) {
        sb_printf(s,
                  "    for (int i = 0; i < n; i++) {\n        const %s x = a[i];\n        const %s y = b[i];\n"
                  "        const %s z = c[i];\n        out[i] = %s",
                  vty, vty, zty, ro);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n    }\n}\n", rc);
    } else {
        sb_append(s, "    for (int i = 0; i < n; i++) {\n");
        if (bc == BC_COL)
            sb_printf(s, "        const %s z = c[i];\n", zty);
        sb_append(s, "        for (int j = 0; j < m; j++) {\n            const size_t k = (size_t)i * m + j;\n");
        sb_printf(s, "            const %s x = a[k];\n            const %s y = b[k];\n", vty, vty);
        if (bc == BC_ROW)
            sb_printf(s, "            const %s z = c[j];\n", zty);
        sb_printf(s, "            out[k] = %s", ro);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n        }\n    }\n}\n", rc);
    }
    emit_cuda(p, op, kind, bc, entry);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    int made = 0;
    for (int k = 0; k < N_FOPS; k++)
        for (int d = 0; d < 2; d++, made++)
            if (emit(g, &FOPS[k], d == 0 ? K_F32 : K_F64, (k + 2 * d) % 3) != 0)
                return -1;
    for (int k = 0; k < N_I32OPS; k++, made++)
        if (emit(g, &I32OPS[k], K_I32, (k + 1) % 3) != 0)
            return -1;
    for (int k = 0; k < N_U8OPS; k++, made++)
        if (emit(g, &U8OPS[k], K_U8, (k + 2) % 3) != 0)
            return -1;
    return made == 54 ? 0 : -1;
}

const Family family_ew_ternary = {"ew_ternary", "elementwise", 54, generate};
