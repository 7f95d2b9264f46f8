/* ew_binary — binary expressions of two inputs, out = f(a, b): float
 * expressions (a*b+a, max-min, hypot, atan2, pow with positive bases, fmod,
 * log-ratio, gated tanh, logaddexp, Huber, cross-entropy, ...) in f32 and
 * f64, and integer expressions on i32 (bit mixing, saturating add/sub,
 * division with remainder, gcd, high half of a product) and u8 (saturating
 * pixel arithmetic, rounding averages, multiply/screen blends).  The shape
 * cycles through four broadcasting patterns: two vectors of the same
 * length, a matrix with a row vector (b[j]) or a column vector (b[i]), and
 * an outer "product" of a column vector and a row vector. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_text.h"
#include "gen_tmpl.h"

typedef struct BinOp {
    const char *tag;     /* variant part; entry is ew_<tag> */
    const char *math;    /* comment text */
    const char *expr;    /* in x (from a) and y (from b); '@' / '#' = f32 suffixes */
    const char *helper;  /* optional static helper ('@', '#', 'T' = element type) */
    double alo, ahi, blo, bhi; /* real input ranges */
    const char *ilo_a, *ihi_a, *ilo_b, *ihi_b; /* integer ranges */
    int flops;
} BinOp;

static const BinOp FOPS[] = {
    {"mul-add", "a*b + a", "x * y + x", NULL, -1, 1, -1, 1, 0, 0, 0, 0, 2},
    {"maxmin-diff", "max(a,b) - min(a,b)", "fmax@(x, y) - fmin@(x, y)", NULL, -1, 1, -1, 1, 0, 0, 0, 0, 3},
    {"hypot", "hypot(a, b)", "hypot@(x, y)", NULL, -10, 10, -10, 10, 0, 0, 0, 0, 4},
    {"atan2", "atan2(a, b)", "atan2@(x, y)", NULL, -1, 1, -1, 1, 0, 0, 0, 0, 1},
    {"pow", "a^b with a in [0.5, 2]", "pow@(x, y)", NULL, 0.5, 2, -3, 3, 0, 0, 0, 0, 1},
    {"sqdiff", "(a - b)^2", "(x - y) * (x - y)", NULL, -1, 1, -1, 1, 0, 0, 0, 0, 3},
    {"div-1p-sq", "a / (1 + b^2)", "x / (1.0# + y * y)", NULL, -4, 4, -4, 4, 0, 0, 0, 0, 3},
    {"copysign", "|a| with the sign of b", "copysign@(x, y)", NULL, -1, 1, -1, 1, 0, 0, 0, 0, 1},
    {"fmod", "fmod(a, b) with b in [0.5, 2]", "fmod@(x, y)", NULL, -10, 10, 0.5, 2, 0, 0, 0, 0, 1},
    {"log-ratio", "log(a / b) for positive a, b", "log@(x / y)", NULL, 0.1, 10, 0.1, 10, 0, 0, 0, 0, 2},
    {"gated-tanh", "a * tanh(b)", "x * tanh@(y)", NULL, -2, 2, -3, 3, 0, 0, 0, 0, 2},
    {"glu", "a * sigmoid(b)", "x / (1.0# + exp@(-y))", NULL, -2, 2, -6, 6, 0, 0, 0, 0, 4},
    {"reldiff", "(a - b) / (|a| + |b| + 1)", "(x - y) / (fabs@(x) + fabs@(y) + 1.0#)", NULL, -5, 5, -5, 5,
     0, 0, 0, 0, 5},
    {"cexp-re", "Re(exp(a + i b)) = exp(a) cos(b)", "exp@(x) * cos@(y)", NULL, -2, 2, -3, 3, 0, 0, 0, 0, 3},
    {"logaddexp", "log(exp(a) + exp(b)), computed stably", "fmax@(x, y) + log1p@(exp@(-fabs@(x - y)))",
     NULL, -5, 5, -5, 5, 0, 0, 0, 0, 6},
    {"huber", "Huber loss of a - b (delta = 1)", "huber(x - y)",
     "static T huber(T d)\n{\n    const T ad = fabs@(d);\n"
     "    return ad <= 1.0# ? 0.5# * d * d : ad - 0.5#;\n}\n\n",
     -3, 3, -3, 3, 0, 0, 0, 0, 4},
    {"bce", "binary cross-entropy of prediction a in (0,1) against target b in [0,1]", "bce(x, y)",
     "static T bce(T p, T t)\n{\n    return -(t * log@(p) + (1.0# - t) * log@(1.0# - p));\n}\n\n",
     0.01, 0.99, 0, 1, 0, 0, 0, 0, 7},
    {"kl-term", "a log(a / b) for positive a, b", "x * log@(x / y)", NULL, 0.1, 2, 0.1, 2, 0, 0, 0, 0, 3},
    {"diff-squares", "a^2 - b^2", "x * x - y * y", NULL, -2, 2, -2, 2, 0, 0, 0, 0, 3},
    {"normalize", "a / sqrt(a^2 + b^2 + 1)", "x / sqrt@(x * x + y * y + 1.0#)", NULL, -3, 3, -3, 3, 0, 0, 0,
     0, 6},
};
#define N_FOPS ((int)(sizeof FOPS / sizeof FOPS[0]))

static const BinOp I32OPS[] = {
    {"bitmix", "(a & 0x0F0F0F0F) | (b & 0x70F0F0F0)", "(x & 0x0F0F0F0F) | (y & 0x70F0F0F0)", NULL, 0, 0, 0, 0,
     "0", "1000000000", "0", "1000000000", 3},
    {"shift-xor", "a ^ (b << 3)", "x ^ (y << 3)", NULL, 0, 0, 0, 0, "0", "1000000000", "0", "1048576", 2},
    {"sat-add", "a + b saturated to the int32 range", "sat_add(x, y)",
     "static int32_t sat_add(int32_t a, int32_t b)\n{\n    const int64_t s = (int64_t)a + b;\n"
     "    if (s > INT32_MAX)\n        return INT32_MAX;\n    if (s < INT32_MIN)\n        return INT32_MIN;\n"
     "    return (int32_t)s;\n}\n\n",
     0, 0, 0, 0, "-2000000000", "2000000000", "-2000000000", "2000000000", 3},
    {"sat-sub", "a - b saturated to the int32 range", "sat_sub(x, y)",
     "static int32_t sat_sub(int32_t a, int32_t b)\n{\n    const int64_t d = (int64_t)a - b;\n"
     "    return d > INT32_MAX ? INT32_MAX : d < INT32_MIN ? INT32_MIN : (int32_t)d;\n}\n\n",
     0, 0, 0, 0, "-2000000000", "2000000000", "-2000000000", "2000000000", 3},
    {"divmod", "a / b + a % b (C truncating division, b >= 1)", "x / y + x % y", NULL, 0, 0, 0, 0, "-1000000",
     "1000000", "1", "1000", 3},
    {"gcd", "gcd(a, b) by Euclid's algorithm, a, b >= 1", "gcd(x, y)",
     "static int32_t gcd(int32_t a, int32_t b)\n{\n    while (b != 0) {\n        const int32_t r = a % b;\n"
     "        a = b;\n        b = r;\n    }\n    return a;\n}\n\n",
     0, 0, 0, 0, "1", "100000", "1", "100000", 20},
    {"absdiff", "|a - b|", "x > y ? x - y : y - x", NULL, 0, 0, 0, 0, "-1000000", "1000000", "-1000000",
     "1000000", 2},
    {"mulhi", "(a * b) >> 31 for a, b >= 0, through a 64-bit product", "(int32_t)(((int64_t)x * y) >> 31)",
     NULL, 0, 0, 0, 0, "0", "2147483647", "0", "2147483647", 2},
    {"avg-floor", "floor((a + b) / 2) without overflow, a, b >= 0", "(x & y) + ((x ^ y) >> 1)", NULL, 0, 0, 0,
     0, "0", "2147483647", "0", "2147483647", 4},
};
#define N_I32OPS ((int)(sizeof I32OPS / sizeof I32OPS[0]))

static const BinOp U8OPS[] = {
    {"sat-add", "min(a + b, 255)", "x + y > 255 ? 255 : x + y", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 2},
    {"sat-sub", "max(a - b, 0)", "x > y ? x - y : 0", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 2},
    {"avg-round", "(a + b + 1) / 2", "(x + y + 1) >> 1", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 3},
    {"absdiff", "|a - b|", "x > y ? x - y : y - x", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 2},
    {"blend31", "(3a + b + 2) / 4", "(3 * x + y + 2) >> 2", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 4},
    {"nibble-pack", "high nibble of a, high nibble of b in the low half", "(x & 0xF0) | (y >> 4)", NULL, 0, 0,
     0, 0, 0, 0, 0, 0, 3},
    {"max", "max(a, b)", "x > y ? x : y", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    {"multiply", "a * b / 255 rounded (multiply blend)", "(x * y + 127) / 255", NULL, 0, 0, 0, 0, 0, 0, 0, 0,
     3},
    {"screen", "255 - (255 - a)(255 - b) / 255 rounded (screen blend)",
     "255 - ((255 - x) * (255 - y) + 127) / 255", NULL, 0, 0, 0, 0, 0, 0, 0, 0, 5},
};
#define N_U8OPS ((int)(sizeof U8OPS / sizeof U8OPS[0]))

enum { BC_FLAT, BC_ROW, BC_COL, BC_OUTER };
static const char *const BC_TAGS[] = {"", "-rowbc", "-colbc", "-outer"};

/* Copies tmpl resolving '@' and '#' (f32 suffixes) and 'T' (the element type). */
static void emit_t(StrBuf *s, const char *tmpl, int f32, const char *ty)
{
    for (const char *c = tmpl; *c; c++) {
        if (*c == '@' || *c == '#') {
            if (f32)
                sb_putc(s, 'f');
        } else if (*c == 'T' && (c == tmpl || c[-1] == ' ' || c[-1] == '(' || c[-1] == '\n') &&
                   (c[1] == ' ' || c[1] == '*')) {
            sb_append(s, ty);
        } else {
            sb_putc(s, *c);
        }
    }
}

typedef enum Kind { K_F32, K_F64, K_I32, K_U8 } Kind;

/* The pair: one thread per output element in 256-thread blocks.  Vectors
 * use a 64-bit flat index; the broadcast shapes use a 2-D grid (x over the
 * m columns, y over the n rows) so the broadcast operand is indexed by the
 * row or column directly, with no division. */
static void emit_cuda(GenProgram *p, const BinOp *op, Kind kind, int bc, const char *entry)
{
    static const char *const ctys[] = {"float", "double", "int", "unsigned char"};
    const char *cty = ctys[kind], *vty = kind == K_U8 ? "int" : cty;
    int f32 = kind == K_F32;
    StrBuf *k = gen_cuda_src(p);
    StrBuf t = STRBUF_INIT;
    static const char *const maps[] = {"one thread per element", "one thread per element, b[j] shared by every row",
                                       "one thread per element, b[i] shared along row i",
                                       "one thread per element of the n x m outer combination"};
    sb_printf(k, "/* out = %s: %s. */\n", op->math, maps[bc]);
    if (op->helper) {
        emit_t(&t, op->helper, f32, cty);
        text_put_cuda(k, sb_str(&t));
        sb_reset(&t);
    }
    sb_printf(&t, "extern \"C\" __global__ void %s(const %s *__restrict__ a, const %s *__restrict__ b, "
                  "%s *__restrict__ out, int n%s)\n{\n",
              entry, cty, cty, cty, bc == BC_FLAT ? "" : ", int m");
    tmpl_put_wrapped(k, sb_str(&t));
    sb_reset(&t);
    if (bc == BC_FLAT) {
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    const %s x = a[i];\n    const %s y = b[i];\n    out[i] = ", vty, vty);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, "a,b,out,n");
    } else {
        sb_append(k, "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    const int i = blockIdx.y;\n"
                     "    if (j >= m)\n        return;\n"
                     "    const long long e = (long long)i * m + j;\n");
        sb_printf(k, "    const %s x = a[%s];\n    const %s y = b[%s];\n    out[e] = ", vty,
                  bc == BC_OUTER ? "i" : "e", vty, bc == BC_COL ? "i" : "j");
        gen_launch(p, entry, "(m+255)/256,n", "256", NULL, "a,b,out,n,m");
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

static int emit(GenCtx *g, const BinOp *op, Kind kind, int bc)
{
    static const char *const dts[] = {"f32", "f64", "i32", "u8"};
    static const char *const tys[] = {"float", "double", "int32_t", "uint8_t"};
    static const int sizes[] = {4, 8, 4, 1};
    const char *dt = dts[kind], *ty = tys[kind];
    /* u8 values are widened to int before the arithmetic. */
    const char *vty = kind == K_U8 ? "int" : ty;
    int f32 = kind == K_F32, sz = sizes[kind];
    char variant[80], entry[64], flops[64], bytes[96];
    snprintf(variant, sizeof variant, "%s-%s%s", op->tag, dt, BC_TAGS[bc]);
    snprintf(entry, sizeof entry, "ew_%s", op->tag);
    for (char *c = entry; *c; c++)
        if (*c == '-')
            *c = '_';
    GenProgram *p = gen_begin(g, variant, entry);
    static const char *const bc_words[] = {"two vectors", "matrix and row vector", "matrix and column vector",
                                           "column vector and row vector"};
    gen_describe(p, "out = %s (%s, %s)", op->math, dt, bc_words[bc]);
    if (bc == BC_FLAT) {
        gen_arg(p, "a", dt, "in", "n");
        gen_arg(p, "b", dt, "in", "n");
        gen_arg(p, "out", dt, "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
    } else {
        gen_arg(p, "a", dt, "in", bc == BC_OUTER ? "n" : "n,m");
        gen_arg(p, "b", dt, "in", bc == BC_COL ? "n" : "m");
        gen_arg(p, "out", dt, "out", "n,m");
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "m", "i32", "param", NULL);
    }
    if (kind == K_F32 || kind == K_F64) {
        gen_fill_uniform(p, "a", op->alo, op->ahi);
        gen_fill_uniform(p, "b", op->blo, op->bhi);
    } else if (kind == K_I32) {
        gen_fill_int(p, "a", op->ilo_a, op->ihi_a);
        gen_fill_int(p, "b", op->ilo_b, op->ihi_b);
    } else {
        gen_fill_int(p, "a", "0", "256");
        gen_fill_int(p, "b", "0", "256");
    }
    if (bc == BC_FLAT) {
        gen_config(p, "small", "n=100000");
        gen_config(p, "edge", "n=1");
        gen_config(p, "edge-prime", "n=1021");
        gen_config(p, "large", kind == K_U8 ? "n=268435456" : "n=67108864");
        snprintf(flops, sizeof flops, "%d*n", op->flops);
        snprintf(bytes, sizeof bytes, "%d*n", 3 * sz);
    } else {
        gen_config(p, "small", "n=256,m=384");
        gen_config(p, "edge", "n=1,m=1");
        gen_config(p, "edge-prime", "n=37,m=131");
        gen_config(p, "large", kind == K_U8 ? "n=16384,m=16384" : kind == K_F64 ? "n=8192,m=6144" : "n=8192,m=8192");
        snprintf(flops, sizeof flops, "%d*n*m", op->flops);
        if (bc == BC_OUTER)
            snprintf(bytes, sizeof bytes, "%d*(n+m+n*m)", sz);
        else
            snprintf(bytes, sizeof bytes, "%d*(2*n*m+%s)", sz, bc == BC_ROW ? "m" : "n");
    }
    gen_cost(p, flops, bytes);
    if (kind == K_F32)
        gen_tolerance(p, 1e-5, 1e-4);
    else if (kind == K_F64)
        gen_tolerance(p, 1e-9, 1e-7);

    StrBuf *s = gen_src(p);
    if (kind == K_F32 || kind == K_F64)
        sb_append(s, "#include <math.h>\n");
    if (bc != BC_FLAT)
        sb_append(s, "#include <stddef.h>\n");
    if (kind == K_I32 || kind == K_U8)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    static const char *const shape_words[] = {
        "for i in [0, n)", "for an n x m row-major a and a length-m row vector b (b[j] on every row)",
        "for an n x m row-major a and a length-n column vector b (b[i] on row i)",
        "for a length-n column vector a and a length-m row vector b, out n x m"};
    if (bc == BC_FLAT)
        sb_printf(s, "/* out[i] = %s, %s. */\n", op->math, shape_words[bc]);
    else
        sb_printf(s, "/* out[i][j] = %s,\n * %s. */\n", op->math, shape_words[bc]);
    if (op->helper)
        emit_t(s, op->helper, f32, ty);
    const char *res_open = kind == K_U8 ? "(uint8_t)(" : "";
    const char *res_close = kind == K_U8 ? ")" : "";
    switch (bc) {
    case BC_FLAT:
        sb_printf(s, "void %s(const %s *a, const %s *b, %s *out, int n)\n{\n", entry, ty, ty, ty);
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n        const %s x = a[i];\n        const %s y = b[i];\n"
                     "        out[i] = %s",
                  vty, vty, res_open);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n    }\n}\n", res_close);
        break;
    case BC_ROW:
        sb_printf(s, "void %s(const %s *a, const %s *b, %s *out, int n, int m)\n{\n", entry, ty, ty, ty);
        sb_printf(s,
                  "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
                  "            const %s x = a[(size_t)i * m + j];\n            const %s y = b[j];\n"
                  "            out[(size_t)i * m + j] = %s",
                  vty, vty, res_open);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n        }\n    }\n}\n", res_close);
        break;
    case BC_COL:
        sb_printf(s, "void %s(const %s *a, const %s *b, %s *out, int n, int m)\n{\n", entry, ty, ty, ty);
        sb_printf(s,
                  "    for (int i = 0; i < n; i++) {\n        const %s y = b[i];\n"
                  "        for (int j = 0; j < m; j++) {\n"
                  "            const %s x = a[(size_t)i * m + j];\n"
                  "            out[(size_t)i * m + j] = %s",
                  vty, vty, res_open);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n        }\n    }\n}\n", res_close);
        break;
    default:
        sb_printf(s, "void %s(const %s *a, const %s *b, %s *out, int n, int m)\n{\n", entry, ty, ty, ty);
        sb_printf(s,
                  "    for (int i = 0; i < n; i++) {\n        const %s x = a[i];\n"
                  "        %s *row = out + (size_t)i * m;\n"
                  "        for (int j = 0; j < m; j++) {\n"
                  "            const %s y = b[j];\n"
                  "            row[j] = %s",
                  vty, ty, vty, res_open);
        emit_t(s, op->expr, f32, ty);
        sb_printf(s, "%s;\n        }\n    }\n}\n", res_close);
        break;
    }
    emit_cuda(p, op, kind, bc, entry);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    int made = 0;
    for (int k = 0; k < N_FOPS; k++)
        for (int d = 0; d < 2; d++, made++)
            if (emit(g, &FOPS[k], d == 0 ? K_F32 : K_F64, (k + 3 * d) % 4) != 0)
                return -1;
    for (int k = 0; k < N_I32OPS; k++, made++)
        if (emit(g, &I32OPS[k], K_I32, (k + 1) % 4) != 0)
            return -1;
    for (int k = 0; k < N_U8OPS; k++, made++)
        if (emit(g, &U8OPS[k], K_U8, (k + 2) % 4) != 0)
            return -1;
    return made == 58 ? 0 : -1;
}

const Family family_ew_binary = {"ew_binary", "elementwise", 58, generate};
