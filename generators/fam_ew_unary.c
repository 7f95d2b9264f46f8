/* ew_unary — one math function applied to every element: exp, log, sqrt,
 * tanh, sin, abs, square, reciprocal, rsqrt, erf, cbrt, ... and nested
 * compositions such as tanh(exp(-x*x)) or sin(3x)*exp(-x*x).  Each of 29
 * expressions appears in f32 and f64; the memory layout cycles through a
 * contiguous vector, BLAS-style strided vectors (incx, incy), a row-major
 * matrix with padded leading dimensions, and an in-place update.  Input
 * ranges keep every function inside its domain (log and sqrt of positives,
 * reciprocals of values bounded away from zero). */
#include <stdio.h>
#include <string.h>

#include "gen.h"

typedef struct UnaryOp {
    const char *tag;    /* variant name part; entry is map_<tag> */
    const char *math;   /* for the comment */
    const char *expr;   /* in v; '@' = float suffix of a libm call, '#' = literal suffix */
    double lo, hi;      /* input range */
    int flops;
} UnaryOp;

static const UnaryOp OPS[] = {
    {"exp", "exp(x)", "exp@(v)", -4, 4, 1},
    {"log", "log(x), x > 0", "log@(v)", 0.01, 100, 1},
    {"sqrt", "sqrt(x), x >= 0", "sqrt@(v)", 0, 100, 1},
    {"tanh", "tanh(x)", "tanh@(v)", -3, 3, 1},
    {"sin", "sin(x)", "sin@(v)", -3.14159, 3.14159, 1},
    {"abs", "|x|", "fabs@(v)", -1, 1, 1},
    {"square", "x^2", "v * v", -2, 2, 1},
    {"recip", "1/x, x in [0.25, 4]", "1.0# / v", 0.25, 4, 1},
    {"gauss-tanh", "tanh(exp(-x^2))", "tanh@(exp@(-v * v))", -2, 2, 4},
    {"rsqrt", "1/sqrt(x), x > 0", "1.0# / sqrt@(v)", 0.01, 10, 2},
    {"log1p-abs", "log(1 + |x|)", "log1p@(fabs@(v))", -5, 5, 2},
    {"sigmoid", "1 / (1 + exp(-x))", "1.0# / (1.0# + exp@(-v))", -8, 8, 4},
    {"cbrt", "cube root of x", "cbrt@(v)", -8, 8, 1},
    {"sincos", "sin(x) cos(x)", "sin@(v) * cos@(v)", -3, 3, 3},
    {"atan", "atan(x)", "atan@(v)", -10, 10, 1},
    {"expm1", "exp(x) - 1 (accurate near 0)", "expm1@(v)", -2, 2, 1},
    {"log2-1px2", "log2(1 + x^2)", "log2@(1.0# + v * v)", -4, 4, 3},
    {"erf", "erf(x)", "erf@(v)", -3, 3, 1},
    {"softsign", "x / (1 + |x|)", "v / (1.0# + fabs@(v))", -5, 5, 3},
    {"cube", "x^3", "v * v * v", -2, 2, 2},
    {"gabor", "sin(3x) exp(-x^2)", "sin@(3.0# * v) * exp@(-v * v)", -1.5, 1.5, 6},
    {"hypot1", "sqrt(x^2 + 1)", "sqrt@(v * v + 1.0#)", -10, 10, 3},
    {"pow1p5", "x^1.5, x >= 0", "pow@(v, 1.5#)", 0, 4, 1},
    {"fract", "x - floor(x)", "v - floor@(v)", -10, 10, 2},
    {"asinh", "asinh(x)", "asinh@(v)", -10, 10, 1},
    {"xlogx", "x log(x), x > 0", "v * log@(v)", 0.01, 4, 2},
    {"exp2-negabs", "2^(-|x|)", "exp2@(-fabs@(v))", -6, 6, 3},
    {"cosh", "cosh(x)", "cosh@(v)", -3, 3, 1},
    {"sqrt-log1p-sq", "sqrt(log(1 + x^2))", "sqrt@(log1p@(v * v))", -4, 4, 3},
};
#define N_OPS ((int)(sizeof OPS / sizeof OPS[0]))

enum { LAY_CONTIG, LAY_STRIDED, LAY_PADDED, LAY_INPLACE };
static const char *const LAYOUT_TAGS[] = {"", "-strided", "-ld", "-inplace"};

/* Writes tmpl with its '@' and '#' markers resolved for the element type. */
static void emit_expr(StrBuf *s, const char *tmpl, int f32)
{
    for (const char *c = tmpl; *c; c++) {
        if (*c == '@' || *c == '#') {
            if (f32)
                sb_putc(s, 'f');
        } else {
            sb_putc(s, *c);
        }
    }
}

/* The pair: one thread per element, 256-thread blocks, 64-bit indices (the
 * large configs pass 2^31 bytes); the same expression with CUDA's
 * single- or double-precision math functions. */
static void emit_cuda(GenProgram *p, const UnaryOp *op, int lay, const char *entry, const char *ty, int f32)
{
    StrBuf *k = gen_cuda_src(p);
    sb_printf(k, "/* %s elementwise: one thread per element. */\n", op->math);
    switch (lay) {
    case LAY_CONTIG:
        sb_printf(k, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int n)\n{\n",
                  entry, ty, ty);
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    const %s v = x[i];\n    y[i] = ", ty);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, "x,y,n");
        break;
    case LAY_STRIDED:
        sb_printf(k, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int n, int incx, "
                     "int incy)\n{\n", entry, ty, ty);
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    const %s v = x[i * incx];\n    y[i * incy] = ", ty);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, "x,y,n,incx,incy");
        break;
    case LAY_PADDED:
        sb_printf(k, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int n, int m, "
                     "int ldx, int ldy)\n{\n", entry, ty, ty);
        sb_append(k, "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    const int i = blockIdx.y;\n"
                     "    if (j >= m)\n        return;\n");
        sb_printf(k, "    const %s v = x[(long long)i * ldx + j];\n    y[(long long)i * ldy + j] = ", ty);
        gen_launch(p, entry, "(m+255)/256,n", "256", NULL, "x,y,n,m,ldx,ldy");
        break;
    default:
        sb_printf(k, "extern \"C\" __global__ void %s(%s *x, int n)\n{\n", entry, ty);
        sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= n)\n        return;\n");
        sb_printf(k, "    const %s v = x[i];\n    x[i] = ", ty);
        gen_launch(p, entry, "(n+255)/256", "256", NULL, "x,n");
        break;
    }
    emit_expr(k, op->expr, f32);
    sb_append(k, ";\n}\n");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

static int generate(GenCtx *g)
{
    int made = 0;
    for (int k = 0; k < N_OPS; k++)
        for (int d = 0; d < 2; d++) {
            const UnaryOp *op = &OPS[k];
            int f32 = d == 0;
            const char *dt = f32 ? "f32" : "f64";
            const char *ty = f32 ? "float" : "double";
            int sz = f32 ? 4 : 8;
            int lay = (2 * k + d + k / 4) % 4;
            char variant[64], entry[64], flops[64], bytes[64];
            snprintf(variant, sizeof variant, "%s-%s%s", op->tag, dt, LAYOUT_TAGS[lay]);
            snprintf(entry, sizeof entry, "map_%s", op->tag);
            for (char *c = entry; *c; c++)
                if (*c == '-')
                    *c = '_';
            GenProgram *p = gen_begin(g, variant, entry);
            gen_describe(p, "y = %s elementwise (%s)", op->math,
                         lay == LAY_CONTIG ? "contiguous" : lay == LAY_STRIDED ? "strided vectors"
                                                          : lay == LAY_PADDED  ? "padded row-major matrix"
                                                                               : "in place");
            StrBuf *s = gen_src(p);
            sb_append(s, lay == LAY_STRIDED || lay == LAY_PADDED ? "#include <math.h>\n#include <stddef.h>\n\n"
                                                                 : "#include <math.h>\n\n");
            switch (lay) {
            case LAY_CONTIG:
                gen_arg(p, "x", dt, "in", "n");
                gen_arg(p, "y", dt, "out", "n");
                gen_arg(p, "n", "i32", "param", NULL);
                gen_config(p, "small", "n=100000");
                gen_config(p, "edge", "n=1");
                gen_config(p, "edge-prime", "n=1021");
                gen_config(p, "large", "n=67108864");
                snprintf(flops, sizeof flops, "%d*n", op->flops);
                snprintf(bytes, sizeof bytes, "%d*n", 2 * sz);
                sb_printf(s, "/* y[i] = %s for i in [0, n). */\n", op->math);
                sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, ty, ty);
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        const %s v = x[i];\n        y[i] = ", ty);
                emit_expr(s, op->expr, f32);
                sb_append(s, ";\n    }\n}\n");
                break;
            case LAY_STRIDED: {
                static const char *const large[] = {"n=33554432,incx=2,incy=1", "n=33554432,incx=1,incy=2",
                                                    "n=16777216,incx=4,incy=2"};
                gen_arg(p, "x", dt, "in", "1+(n-1)*incx");
                gen_arg(p, "y", dt, "inout", "1+(n-1)*incy");
                gen_arg(p, "n", "i32", "param", NULL);
                gen_arg(p, "incx", "i32", "param", NULL);
                gen_arg(p, "incy", "i32", "param", NULL);
                gen_config(p, "small", "n=50000,incx=2,incy=3");
                gen_config(p, "edge", "n=1,incx=1,incy=1");
                gen_config(p, "edge-prime", "n=769,incx=3,incy=2");
                gen_config(p, "large", large[k % 3]);
                snprintf(flops, sizeof flops, "%d*n", op->flops);
                snprintf(bytes, sizeof bytes, "%d*n", 2 * sz);
                sb_printf(s,
                          "/* y[i*incy] = f(x[i*incx]) for i in [0, n) with f(x) = %s;\n"
                          " * incx, incy >= 1, and the elements of y in between are left unchanged. */\n",
                          op->math);
                sb_printf(s, "void %s(const %s *x, %s *y, int n, int incx, int incy)\n{\n", entry, ty, ty);
                sb_printf(s,
                          "    for (int i = 0; i < n; i++) {\n        const %s v = x[(size_t)i * incx];\n"
                          "        y[(size_t)i * incy] = ",
                          ty);
                emit_expr(s, op->expr, f32);
                sb_append(s, ";\n    }\n}\n");
                break;
            }
            case LAY_PADDED:
                gen_arg(p, "x", dt, "in", "n,ldx");
                gen_arg(p, "y", dt, "inout", "n,ldy");
                gen_arg(p, "n", "i32", "param", NULL);
                gen_arg(p, "m", "i32", "param", NULL);
                gen_arg(p, "ldx", "i32", "param", NULL);
                gen_arg(p, "ldy", "i32", "param", NULL);
                gen_config(p, "small", "n=240,m=300,ldx=320,ldy=304");
                gen_config(p, "edge", "n=1,m=1,ldx=1,ldy=1");
                gen_config(p, "edge-prime", "n=37,m=131,ldx=137,ldy=139");
                gen_config(p, "large", "n=8192,m=8000,ldx=8192,ldy=8064");
                snprintf(flops, sizeof flops, "%d*n*m", op->flops);
                snprintf(bytes, sizeof bytes, "%d*n*m", 2 * sz);
                sb_printf(s,
                          "/* Y = %s elementwise over an n x m row-major matrix X; the rows of X\n"
                          " * and Y are ldx and ldy elements apart (ld >= m), and the padding\n"
                          " * columns of Y are left unchanged. */\n",
                          op->math);
                sb_printf(s, "void %s(const %s *x, %s *y, int n, int m, int ldx, int ldy)\n{\n", entry, ty, ty);
                sb_printf(s,
                          "    for (int i = 0; i < n; i++) {\n"
                          "        const %s *xr = x + (size_t)i * ldx;\n"
                          "        %s *yr = y + (size_t)i * ldy;\n"
                          "        for (int j = 0; j < m; j++) {\n"
                          "            const %s v = xr[j];\n            yr[j] = ",
                          ty, ty, ty);
                emit_expr(s, op->expr, f32);
                sb_append(s, ";\n        }\n    }\n}\n");
                break;
            default:
                gen_arg(p, "x", dt, "inout", "n");
                gen_arg(p, "n", "i32", "param", NULL);
                gen_config(p, "small", "n=100000");
                gen_config(p, "edge", "n=1");
                gen_config(p, "edge-prime", "n=4093");
                gen_config(p, "large", "n=100000000");
                snprintf(flops, sizeof flops, "%d*n", op->flops);
                snprintf(bytes, sizeof bytes, "%d*n", 2 * sz);
                sb_printf(s, "/* x[i] = %s, in place, for i in [0, n). */\n", op->math);
                sb_printf(s, "void %s(%s *x, int n)\n{\n", entry, ty);
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        const %s v = x[i];\n        x[i] = ", ty);
                emit_expr(s, op->expr, f32);
                sb_append(s, ";\n    }\n}\n");
                break;
            }
            emit_cuda(p, op, lay, entry, ty, f32);
            gen_fill_uniform(p, "x", op->lo, op->hi);
            gen_cost(p, flops, bytes);
            if (f32)
                gen_tolerance(p, 1e-5, 1e-4);
            else
                gen_tolerance(p, 1e-9, 1e-7);
            if (gen_end(p) != 0)
                return -1;
            made++;
        }
    return made == 58 ? 0 : -1;
}

const Family family_ew_unary = {"ew_unary", "elementwise", 58, generate};
