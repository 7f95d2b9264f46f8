/* quantize — integer quantisation kernels: per-tensor affine quantisation
 * f32/f64 -> i8/u8/i16 under four rounding modes; per-channel quantisation
 * along rows or columns; dequantisation (per-tensor, per-channel,
 * per-group, and the i32 GEMM epilogue with bias); fake quantisation and
 * its straight-through gradient; requantisation of i32 accumulators with a
 * fixed-point multiplier and shift (gemmlowp style) and of i8/u8 with a
 * float ratio; int8 dot products accumulated in i32 (GEMV, u8 x i8,
 * zero-point corrected, dp4a-style, row pairs, dequantised output);
 * fixed-point Q15 and Q16.16 conversions and products; dynamic
 * per-tensor and per-row quantisation; int4 packing and unpacking; and
 * sign-bit packing.
 *
 * Float -> integer quantisers compare with atol 1: a CUDA version that
 * multiplies by a reciprocal instead of dividing may land on the other
 * side of a rounding tie, which is an accepted one-step difference. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Round {
    const char *tag, *words, *fn; /* fn: libm name without suffix */
} Round;

static const Round ROUNDS[] = {
    {"rne", "rounding half to even", "nearbyint"},
    {"away", "rounding half away from zero", "round"},
    {"floor", "rounding down", "floor"},
    {"trunc", "rounding toward zero", "trunc"},
};

static const char *FS(int f32)
{
    return f32 ? "f" : "";
}

/* Standard elementwise configs for n values. */
static void configs_1d(GenProgram *p, const char *large)
{
    gen_config(p, "small", "n=100000");
    gen_config(p, "edge", "n=1");
    gen_config(p, "edge-prime", "n=1031");
    gen_config(p, "large", large);
}

static void configs_2d(GenProgram *p, const char *large)
{
    gen_config(p, "small", "n=200,m=500");
    gen_config(p, "edge", "n=1,m=1");
    gen_config(p, "edge-prime", "n=37,m=131");
    gen_config(p, "large", large);
}

/* ---- the pair ----
 * Elementwise programs: one thread per element in 256-thread blocks, a
 * 64-bit index over vectors and a 2-D grid over matrices (x across the m
 * columns, y down the n rows, so per-row and per-column operands need no
 * division).  Dot products and the per-row dynamic quantiser: one warp per
 * row, lanes striding along it, shuffles combining them (the i32 sums are
 * exact, so the order does not matter).  The per-tensor dynamic quantiser:
 * per-block partial maxima, one block for the scale, then one thread per
 * element.  kernel.cu includes no headers: int8_t is signed char, int16_t
 * short, int32_t int, int64_t long long. */

#define CU_IDX1                                                                                                        \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"                                      \
    "    if (i >= n)\n"                                                                                                \
    "        return;\n"
#define CU_IDX2                                                                                                        \
    "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"                                                       \
    "    const int i = blockIdx.y;\n"                                                                                  \
    "    if (j >= m)\n"                                                                                                \
    "        return;\n"                                                                                                \
    "    const long long k = (long long)i * m + j;\n"
/* One warp per row: `i` is the warp's row, `lane` its place in the warp. */
#define CU_WARP_ROW                                                                                                    \
    "    const int lane = threadIdx.x % 32;\n"                                                                         \
    "    const int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;\n"                                           \
    "    if (i >= n)\n"                                                                                                \
    "        return;\n"
#define CU_WARP_SUM                                                                                                    \
    "    for (int off = 16; off > 0; off >>= 1)\n"                                                                     \
    "        acc += __shfl_down_sync(0xffffffff, acc, off);\n"
#define CU_RSHIFT                                                                                                      \
    "/* round(v / 2^shift), halves away from zero; shift in [1, 62]. */\n"                                            \
    "static __device__ long long rounding_shift(long long v, int shift)\n{\n"                                          \
    "    const long long half = 1LL << (shift - 1);\n"                                                                 \
    "    return v >= 0 ? (v + half) >> shift : -((-v + half) >> shift);\n}\n\n"

/* CUDA's spelling of a C fixed-width type. */
static const char *cu(const char *c_type)
{
    static const char *const map[][2] = {{"int8_t", "signed char"}, {"uint8_t", "unsigned char"},
                                         {"int16_t", "short"},      {"int32_t", "int"},
                                         {"int64_t", "long long"}};
    for (int i = 0; i < 5; i++)
        if (strcmp(c_type, map[i][0]) == 0)
            return map[i][1];
    return c_type;
}

/* Appends `extern "C" __global__ void <decl>` wrapped at 100 columns, then "\n{\n". */
static void cu_head(StrBuf *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cu_head(StrBuf *k, const char *fmt, ...)
{
    StrBuf t = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_append(&t, "extern \"C\" __global__ void ");
    sb_vprintf(&t, fmt, ap);
    va_end(ap);
    tmpl_put_wrapped(k, sb_str(&t));
    sb_append(k, "\n{\n");
    sb_release(&t);
}

/* Appends a kernel: its comment, `extern "C" __global__ void <decl>` wrapped
 * at 100 columns, and the body (the statements and the closing brace). */
static void cu_kernel(GenProgram *p, const char *comment, const char *decl, const char *body)
{
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, comment);
    cu_head(k, "%s", decl);
    sb_append(k, body);
}

/* The launch plans of the three mappings, with their knobs. */
static void plan_1d(GenProgram *p, const char *kernel, const char *args)
{
    gen_launch(p, kernel, "(n+255)/256", "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

static void plan_2d(GenProgram *p, const char *kernel, const char *args)
{
    gen_launch(p, kernel, "(m+255)/256,n", "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread-2d-grid");
}

static void plan_warp_rows(GenProgram *p, const char *kernel, const char *args)
{
    gen_launch(p, kernel, "(32*n+255)/256", "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-warp-per-row-shuffle-reduction");
}

/* A: per-tensor quantisation, 13 programs. */
static int per_tensor(GenCtx *g)
{
    /* kind: 0 i8 from f32 (full range), 1 u8 from f32 (asymmetric), 2 i8 from f64 (narrow range),
     * 3 i16 from f32. */
    for (int k = 0; k < 13; k++) {
        int kind = k < 12 ? k % 3 : 3, mode = k < 12 ? k / 3 : 0;
        int f32 = kind != 2;
        const char *ty = f32 ? "float" : "double";
        static const char *const odt[] = {"i8", "u8", "i8", "i16"};
        static const char *const oty[] = {"int8_t", "uint8_t", "int8_t", "int16_t"};
        static const int qmin[] = {-128, 0, -127, -32768}, qmax[] = {127, 255, 127, 32767};
        char variant[64], entry[64];
        snprintf(variant, sizeof variant, "per-tensor-%s-%s-%s", f32 ? "f32" : "f64", odt[kind], ROUNDS[mode].tag);
        snprintf(entry, sizeof entry, "quantize_%s", odt[kind]);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "per-tensor quantisation to %s, %s", odt[kind], ROUNDS[mode].words);
        gen_arg(p, "x", f32 ? "f32" : "f64", "in", "n");
        gen_arg(p, "q", odt[kind], "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        double scale = kind == 3 ? gen_uniform(g, 1.0 / 9000, 1.0 / 6000) : gen_uniform(g, 0.02, 0.035);
        gen_scalar(p, "inv_scale", f32 ? "f32" : "f64", (double)(int)(1.0 / scale));
        if (kind == 1)
            gen_scalar(p, "zero_point", "i32", gen_randint(g, 100, 156));
        gen_fill_uniform(p, "x", -4, 4);
        configs_1d(p, f32 ? "n=134217728" : "n=67108864");
        gen_cost(p, "4*n", kind == 3 ? (f32 ? "6*n" : "10*n") : (f32 ? "5*n" : "9*n"));
        gen_tolerance(p, 1, 0);
        StrBuf *s = gen_src(p);
        sb_printf(s, "#include <math.h>\n#include <stdint.h>\n\n");
        sb_printf(s, "/* Per-tensor %s quantisation to %s:\n * q = clamp(round(x * inv_scale)%s, %d, %d), %s.\n"
                     " * inv_scale is 1/scale, so x * inv_scale is rounded once. */\n",
                  kind == 1 ? "affine" : "symmetric", oty[kind], kind == 1 ? " + zero_point" : "", qmin[kind],
                  qmax[kind], ROUNDS[mode].words);
        sb_printf(s, "void %s(const %s *x, %s *q, int n, %s inv_scale%s)\n{\n", entry, ty, oty[kind], ty,
                  kind == 1 ? ", int zero_point" : "");
        sb_printf(s, "    for (int i = 0; i < n; i++) {\n        const int v = (int)%s%s(x[i] * inv_scale)%s;\n",
                  ROUNDS[mode].fn, FS(f32), kind == 1 ? " + zero_point" : "");
        sb_printf(s, "        q[i] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n    }\n}\n", oty[kind], qmin[kind],
                  qmin[kind], qmax[kind], qmax[kind]);
        StrBuf *k = gen_cuda_src(p);
        sb_printf(k, "/* q = clamp(%s(x * inv_scale)%s, %d, %d): one thread per element. */\n", ROUNDS[mode].fn,
                  kind == 1 ? " + zero_point" : "", qmin[kind], qmax[kind]);
        cu_head(k, "%s(const %s *__restrict__ x, %s *__restrict__ q, int n, %s inv_scale%s)", entry, ty,
                cu(oty[kind]), ty, kind == 1 ? ", int zero_point" : "");
        sb_printf(k, CU_IDX1 "    const int v = (int)%s%s(x[i] * inv_scale)%s;\n", ROUNDS[mode].fn, FS(f32),
                  kind == 1 ? " + zero_point" : "");
        sb_printf(k, "    q[i] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n}\n", cu(oty[kind]), qmin[kind], qmin[kind],
                  qmax[kind], qmax[kind]);
        plan_1d(p, entry, kind == 1 ? "x,q,n,inv_scale,zero_point" : "x,q,n,inv_scale");
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

/* B: per-channel quantisation along rows or columns, 8 programs. */
static int per_channel(GenCtx *g)
{
    for (int k = 0; k < 8; k++) {
        int cols = k & 1, u8 = (k >> 1) & 1, mode = (k >> 2) & 1;
        const char *oty = u8 ? "uint8_t" : "int8_t", *odt = u8 ? "u8" : "i8";
        const char *C = cols ? "j" : "i", *nch = cols ? "m" : "n";
        char variant[64], entry[64];
        snprintf(variant, sizeof variant, "per-channel-%s-%s-%s", cols ? "cols" : "rows", odt, ROUNDS[mode].tag);
        snprintf(entry, sizeof entry, "quantize_per_%s_%s", cols ? "column" : "row", odt);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "per-channel quantisation (channel = %s) to %s, %s", cols ? "column" : "row", odt,
                     ROUNDS[mode].words);
        gen_arg(p, "x", "f32", "in", "n,m");
        gen_arg(p, "scale", "f32", "in", nch);
        if (u8)
            gen_arg(p, "zero_point", "i32", "in", nch);
        gen_arg(p, "q", odt, "out", "n,m");
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "m", "i32", "param", NULL);
        gen_fill_uniform(p, "x", -3, 3);
        gen_fill_uniform(p, "scale", 0.015, 0.04);
        if (u8)
            gen_fill_int(p, "zero_point", "100", "156");
        configs_2d(p, "n=8192,m=16384");
        char bytes[48];
        snprintf(bytes, sizeof bytes, "5*n*m+%d*%s", u8 ? 8 : 4, nch);
        gen_cost(p, "4*n*m", bytes);
        gen_tolerance(p, 1, 0);
        StrBuf *s = gen_src(p);
        sb_append(s, "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n");
        sb_printf(s,
                  "/* Per-channel quantisation of an n x m row-major matrix, one channel per %s:\n"
                  " * q[i][j] = clamp(round(x[i][j] / scale[%s])%s, %d, %d),\n * %s. */\n",
                  cols ? "column" : "row", C, u8 ? (cols ? " + zero_point[j]" : " + zero_point[i]") : "",
                  u8 ? 0 : -128, u8 ? 255 : 127, ROUNDS[mode].words);
        if (u8)
            sb_printf(s, "void %s(const float *x, const float *scale, const int *zero_point, %s *q,\n%*sint n, int m)\n{\n",
                      entry, oty, (int)strlen(entry) + 6, "");
        else
            sb_printf(s, "void %s(const float *x, const float *scale, %s *q, int n, int m)\n{\n", entry, oty);
        sb_append(s, "    for (int i = 0; i < n; i++) {\n");
        if (!cols) {
            sb_append(s, "        const float s = scale[i];\n");
            if (u8)
                sb_append(s, "        const int zp = zero_point[i];\n");
        }
        sb_append(s, "        for (int j = 0; j < m; j++) {\n            const size_t k = (size_t)i * m + j;\n");
        sb_printf(s, "            const int v = (int)%sf(x[k] / %s)%s;\n", ROUNDS[mode].fn, cols ? "scale[j]" : "s",
                  u8 ? (cols ? " + zero_point[j]" : " + zp") : "");
        sb_printf(s, "            q[k] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n        }\n    }\n}\n", oty,
                  u8 ? 0 : -128, u8 ? 0 : -128, u8 ? 255 : 127, u8 ? 255 : 127);
        StrBuf *k = gen_cuda_src(p);
        sb_printf(k, "/* Per-%s quantisation, %s: one thread per element. */\n", cols ? "column" : "row",
                  ROUNDS[mode].words);
        if (u8)
            cu_head(k, "%s(const float *__restrict__ x, const float *__restrict__ scale, "
                       "const int *__restrict__ zero_point, unsigned char *__restrict__ q, int n, int m)", entry);
        else
            cu_head(k, "%s(const float *__restrict__ x, const float *__restrict__ scale, "
                       "signed char *__restrict__ q, int n, int m)", entry);
        sb_printf(k, CU_IDX2 "    const int v = (int)%sf(x[k] / scale[%s])%s;\n", ROUNDS[mode].fn, C,
                  u8 ? (cols ? " + zero_point[j]" : " + zero_point[i]") : "");
        sb_printf(k, "    q[k] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n}\n", cu(oty), u8 ? 0 : -128, u8 ? 0 : -128,
                  u8 ? 255 : 127, u8 ? 255 : 127);
        plan_2d(p, entry, u8 ? "x,scale,zero_point,q,n,m" : "x,scale,q,n,m");
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

/* C: dequantisation, 6 programs. */
static int dequant(GenCtx *g)
{
    for (int k = 0; k < 6; k++) {
        GenProgram *p;
        StrBuf *s;
        switch (k) {
        case 0:
            p = gen_begin(g, "dequant-i8-f32", "dequantize_i8");
            gen_describe(p, "per-tensor symmetric dequantisation i8 -> f32");
            gen_arg(p, "q", "i8", "in", "n");
            gen_arg(p, "x", "f32", "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_scalar(p, "scale", "f32", 0.0125);
            gen_fill_int(p, "q", "-128", "128");
            configs_1d(p, "n=201326592");
            gen_cost(p, "n", "5*n");
            s = gen_src(p);
            sb_append(s, "#include <stdint.h>\n\n/* Per-tensor symmetric dequantisation: x = q * scale. */\n"
                         "void dequantize_i8(const int8_t *q, float *x, int n, float scale)\n{\n"
                         "    for (int i = 0; i < n; i++)\n        x[i] = (float)q[i] * scale;\n}\n");
            cu_kernel(p, "/* x = q * scale: one thread per element. */\n",
                      "dequantize_i8(const signed char *__restrict__ q, float *__restrict__ x, int n, float scale)",
                      CU_IDX1 "    x[i] = (float)q[i] * scale;\n}\n");
            plan_1d(p, "dequantize_i8", "q,x,n,scale");
            break;
        case 1:
            p = gen_begin(g, "dequant-u8-f32", "dequantize_u8");
            gen_describe(p, "per-tensor affine dequantisation u8 -> f32");
            gen_arg(p, "q", "u8", "in", "n");
            gen_arg(p, "x", "f32", "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_scalar(p, "scale", "f32", 0.02);
            gen_scalar(p, "zero_point", "i32", 128);
            gen_fill_int(p, "q", "0", "256");
            configs_1d(p, "n=201326592");
            gen_cost(p, "2*n", "5*n");
            s = gen_src(p);
            sb_append(s, "#include <stdint.h>\n\n/* Per-tensor affine dequantisation: x = (q - zero_point) * scale. */\n"
                         "void dequantize_u8(const uint8_t *q, float *x, int n, float scale, int zero_point)\n{\n"
                         "    for (int i = 0; i < n; i++)\n        x[i] = (float)(q[i] - zero_point) * scale;\n}\n");
            cu_kernel(p, "/* x = (q - zero_point) * scale: one thread per element. */\n",
                      "dequantize_u8(const unsigned char *__restrict__ q, float *__restrict__ x, int n, float scale, "
                      "int zero_point)",
                      CU_IDX1 "    x[i] = (float)(q[i] - zero_point) * scale;\n}\n");
            plan_1d(p, "dequantize_u8", "q,x,n,scale,zero_point");
            break;
        case 2:
            p = gen_begin(g, "dequant-per-row-i8-f32", "dequantize_per_row");
            gen_describe(p, "per-row (per-output-channel) dequantisation i8 -> f32");
            gen_arg(p, "q", "i8", "in", "n,m");
            gen_arg(p, "scale", "f32", "in", "n");
            gen_arg(p, "x", "f32", "out", "n,m");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_arg(p, "m", "i32", "param", NULL);
            gen_fill_int(p, "q", "-128", "128");
            gen_fill_uniform(p, "scale", 0.001, 0.05);
            configs_2d(p, "n=16384,m=12288");
            gen_cost(p, "n*m", "5*n*m+4*n");
            s = gen_src(p);
            sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                         "/* Per-row dequantisation of an n x m row-major i8 matrix: x[i][j] = q[i][j] * scale[i]. */\n"
                         "void dequantize_per_row(const int8_t *q, const float *scale, float *x, int n, int m)\n{\n"
                         "    for (int i = 0; i < n; i++) {\n        const float s = scale[i];\n"
                         "        for (int j = 0; j < m; j++)\n"
                         "            x[(size_t)i * m + j] = (float)q[(size_t)i * m + j] * s;\n    }\n}\n");
            cu_kernel(p, "/* x[i][j] = q[i][j] * scale[i]: one thread per element. */\n",
                      "dequantize_per_row(const signed char *__restrict__ q, const float *__restrict__ scale, "
                      "float *__restrict__ x, int n, int m)",
                      CU_IDX2 "    x[k] = (float)q[k] * scale[i];\n}\n");
            plan_2d(p, "dequantize_per_row", "q,scale,x,n,m");
            break;
        case 3:
            p = gen_begin(g, "dequant-per-col-u8-f64", "dequantize_per_column");
            gen_describe(p, "per-column affine dequantisation u8 -> f64");
            gen_arg(p, "q", "u8", "in", "n,m");
            gen_arg(p, "scale", "f64", "in", "m");
            gen_arg(p, "zero_point", "i32", "in", "m");
            gen_arg(p, "x", "f64", "out", "n,m");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_arg(p, "m", "i32", "param", NULL);
            gen_fill_int(p, "q", "0", "256");
            gen_fill_uniform(p, "scale", 0.001, 0.05);
            gen_fill_int(p, "zero_point", "96", "160");
            configs_2d(p, "n=8192,m=8192");
            gen_cost(p, "2*n*m", "9*n*m+12*m");
            s = gen_src(p);
            sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                         "/* Per-column affine dequantisation of an n x m row-major u8 matrix:\n"
                         " * x[i][j] = (q[i][j] - zero_point[j]) * scale[j]. */\n"
                         "void dequantize_per_column(const uint8_t *q, const double *scale, const int *zero_point,\n"
                         "                           double *x, int n, int m)\n{\n"
                         "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
                         "            const size_t k = (size_t)i * m + j;\n"
                         "            x[k] = (q[k] - zero_point[j]) * scale[j];\n        }\n    }\n}\n");
            cu_kernel(p, "/* x[i][j] = (q[i][j] - zero_point[j]) * scale[j]: one thread per element. */\n",
                      "dequantize_per_column(const unsigned char *__restrict__ q, const double *__restrict__ scale, "
                      "const int *__restrict__ zero_point, double *__restrict__ x, int n, int m)",
                      CU_IDX2 "    x[k] = (q[k] - zero_point[j]) * scale[j];\n}\n");
            plan_2d(p, "dequantize_per_column", "q,scale,zero_point,x,n,m");
            break;
        case 4:
            p = gen_begin(g, "dequant-per-group-i8-f32", "dequantize_groups");
            gen_describe(p, "per-group dequantisation i8 -> f32 (groups of gs along each row)");
            gen_arg(p, "q", "i8", "in", "n,ng*gs");
            gen_arg(p, "scale", "f32", "in", "n,ng");
            gen_arg(p, "x", "f32", "out", "n,ng*gs");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_arg(p, "ng", "i32", "param", NULL);
            gen_arg(p, "gs", "i32", "param", NULL);
            gen_fill_int(p, "q", "-128", "128");
            gen_fill_uniform(p, "scale", 0.001, 0.05);
            gen_config(p, "small", "n=128,ng=24,gs=32");
            gen_config(p, "edge", "n=1,ng=1,gs=1");
            gen_config(p, "edge-prime", "n=37,ng=5,gs=13");
            gen_config(p, "large", "n=16384,ng=96,gs=128");
            gen_cost(p, "n*ng*gs", "5*n*ng*gs+4*n*ng");
            s = gen_src(p);
            sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                         "/* Group-wise dequantisation: each row of q holds ng groups of gs values, and\n"
                         " * group g of row i shares scale[i][g]: x = q * scale. */\n"
                         "void dequantize_groups(const int8_t *q, const float *scale, float *x, int n, int ng, int gs)\n{\n"
                         "    const size_t row = (size_t)ng * gs;\n"
                         "    for (int i = 0; i < n; i++) {\n        for (int g = 0; g < ng; g++) {\n"
                         "            const float s = scale[(size_t)i * ng + g];\n"
                         "            const size_t base = i * row + (size_t)g * gs;\n"
                         "            for (int k = 0; k < gs; k++)\n"
                         "                x[base + k] = (float)q[base + k] * s;\n        }\n    }\n}\n");
            cu_kernel(p, "/* x = q * scale[i][c / gs] for column c of row i: one thread per element. */\n",
                      "dequantize_groups(const signed char *__restrict__ q, const float *__restrict__ scale, "
                      "float *__restrict__ x, int n, int ng, int gs)",
                      "    const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    const int i = blockIdx.y;\n"
                      "    if (c >= ng * gs)\n        return;\n"
                      "    const long long k = (long long)i * ng * gs + c;\n"
                      "    x[k] = (float)q[k] * scale[(long long)i * ng + c / gs];\n}\n");
            gen_launch(p, "dequantize_groups", "(ng*gs+255)/256,n", "256", NULL, "q,scale,x,n,ng,gs");
            gen_knob(p, "block", "256");
            gen_knob(p, "mapping", "one-element-per-thread-2d-grid");
            break;
        default:
            p = gen_begin(g, "dequant-i32-epilogue", "dequantize_gemm_output");
            gen_describe(p, "i32 GEMM accumulator -> f32 with per-column weight scales and bias");
            gen_arg(p, "acc", "i32", "in", "n,m");
            gen_arg(p, "w_scale", "f32", "in", "m");
            gen_arg(p, "bias", "f32", "in", "m");
            gen_arg(p, "y", "f32", "out", "n,m");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_arg(p, "m", "i32", "param", NULL);
            gen_scalar(p, "a_scale", "f32", 0.015);
            gen_fill_int(p, "acc", "-200000", "200000");
            gen_fill_uniform(p, "w_scale", 0.0005, 0.005);
            gen_fill_uniform(p, "bias", -1, 1);
            configs_2d(p, "n=8192,m=8192");
            gen_cost(p, "3*n*m", "8*n*m+8*m");
            s = gen_src(p);
            sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                         "/* Epilogue of an int8 GEMM: y[i][j] = acc[i][j] * (a_scale * w_scale[j]) + bias[j],\n"
                         " * with the activation scale a_scale and per-column weight scales. */\n"
                         "void dequantize_gemm_output(const int32_t *acc, const float *w_scale, const float *bias,\n"
                         "                            float *y, int n, int m, float a_scale)\n{\n"
                         "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
                         "            const size_t k = (size_t)i * m + j;\n"
                         "            y[k] = (float)acc[k] * (a_scale * w_scale[j]) + bias[j];\n        }\n    }\n}\n");
            cu_kernel(p, "/* y[i][j] = acc[i][j] * (a_scale * w_scale[j]) + bias[j]: one thread per element. */\n",
                      "dequantize_gemm_output(const int *__restrict__ acc, const float *__restrict__ w_scale, "
                      "const float *__restrict__ bias, float *__restrict__ y, int n, int m, float a_scale)",
                      CU_IDX2 "    y[k] = (float)acc[k] * (a_scale * w_scale[j]) + bias[j];\n}\n");
            plan_2d(p, "dequantize_gemm_output", "acc,w_scale,bias,y,n,m,a_scale");
            break;
        }
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

/* D: fake quantisation and its straight-through gradient, 4 programs. */
static int fake_quant(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    /* 1. per-tensor u8 fake quant, f32 */
    p = gen_begin(g, "fake-quant-per-tensor-f32", "fake_quantize");
    gen_describe(p, "per-tensor fake quantisation (quantise to u8 and back), f32");
    gen_arg(p, "x", "f32", "in", "n");
    gen_arg(p, "y", "f32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, "scale", "f32", 0.025);
    gen_scalar(p, "zero_point", "i32", 120);
    gen_fill_uniform(p, "x", -4, 4);
    configs_1d(p, "n=134217728");
    gen_cost(p, "6*n", "8*n");
    gen_tolerance(p, 0.0253, 0);
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n\n"
                 "/* Fake quantisation (quantise to u8, then dequantise), per tensor:\n"
                 " * q = clamp(round_half_even(x / scale) + zero_point, 0, 255),\n"
                 " * y = (q - zero_point) * scale.  A rounding tie may legitimately land one\n"
                 " * step (scale) apart in another implementation. */\n"
                 "void fake_quantize(const float *x, float *y, int n, float scale, int zero_point)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n"
                 "        int q = (int)nearbyintf(x[i] / scale) + zero_point;\n"
                 "        q = q < 0 ? 0 : (q > 255 ? 255 : q);\n"
                 "        y[i] = (float)(q - zero_point) * scale;\n    }\n}\n");
    cu_kernel(p, "/* q = clamp(round_half_even(x / scale) + zero_point, 0, 255),\n"
                 " * y = (q - zero_point) * scale: one thread per element. */\n",
              "fake_quantize(const float *__restrict__ x, float *__restrict__ y, int n, float scale, "
              "int zero_point)",
              CU_IDX1 "    int q = (int)nearbyintf(x[i] / scale) + zero_point;\n"
              "    q = q < 0 ? 0 : (q > 255 ? 255 : q);\n"
              "    y[i] = (float)(q - zero_point) * scale;\n}\n");
    plan_1d(p, "fake_quantize", "x,y,n,scale,zero_point");
    if (gen_end(p) != 0)
        return -1;
    /* 2. per-row symmetric fake quant, f64 */
    p = gen_begin(g, "fake-quant-per-row-f64", "fake_quantize_per_row");
    gen_describe(p, "per-row symmetric fake quantisation (narrow i8 range), f64");
    gen_arg(p, "x", "f64", "in", "n,m");
    gen_arg(p, "scale", "f64", "in", "n");
    gen_arg(p, "y", "f64", "out", "n,m");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -3, 3);
    gen_fill_uniform(p, "scale", 0.015, 0.04);
    configs_2d(p, "n=8192,m=8192");
    gen_cost(p, "5*n*m", "16*n*m+8*n");
    gen_tolerance(p, 0.0401, 0);
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n\n"
                 "/* Per-row symmetric fake quantisation to the narrow int8 range [-127, 127]:\n"
                 " * y[i][j] = clamp(round(x[i][j] / scale[i]), -127, 127) * scale[i],\n"
                 " * rounding half away from zero. */\n"
                 "void fake_quantize_per_row(const double *x, const double *scale, double *y, int n, int m)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const double s = scale[i];\n"
                 "        for (int j = 0; j < m; j++) {\n            const size_t k = (size_t)i * m + j;\n"
                 "            const double q = fmin(fmax(round(x[k] / s), -127.0), 127.0);\n"
                 "            y[k] = q * s;\n        }\n    }\n}\n");
    cu_kernel(p, "/* y[i][j] = clamp(round(x[i][j] / scale[i]), -127, 127) * scale[i]:\n"
                 " * one thread per element. */\n",
              "fake_quantize_per_row(const double *__restrict__ x, const double *__restrict__ scale, "
              "double *__restrict__ y, int n, int m)",
              CU_IDX2 "    const double s = scale[i];\n"
              "    const double q = fmin(fmax(round(x[k] / s), -127.0), 127.0);\n"
              "    y[k] = q * s;\n}\n");
    plan_2d(p, "fake_quantize_per_row", "x,scale,y,n,m");
    if (gen_end(p) != 0)
        return -1;
    /* 3. straight-through estimator backward, per tensor */
    p = gen_begin(g, "fake-quant-ste-backward-f32", "fake_quantize_backward");
    gen_describe(p, "straight-through gradient of per-tensor fake quantisation, f32");
    gen_arg(p, "dy", "f32", "in", "n");
    gen_arg(p, "x", "f32", "in", "n");
    gen_arg(p, "dx", "f32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, "scale", "f32", 0.02);
    gen_scalar(p, "zero_point", "i32", 100);
    gen_fill_uniform(p, "x", -4, 4);
    configs_1d(p, "n=67108864");
    gen_cost(p, "3*n", "12*n");
    s = gen_src(p);
    sb_append(s, "/* Straight-through estimator for u8 fake quantisation: the gradient passes\n"
                 " * where x lies inside the representable range [(0 - zp) * scale, (255 - zp) * scale]\n"
                 " * and is zero where quantisation clamps. */\n"
                 "void fake_quantize_backward(const float *dy, const float *x, float *dx, int n, float scale,\n"
                 "                            int zero_point)\n{\n"
                 "    const float lo = (float)(0 - zero_point) * scale;\n"
                 "    const float hi = (float)(255 - zero_point) * scale;\n"
                 "    for (int i = 0; i < n; i++)\n        dx[i] = x[i] >= lo && x[i] <= hi ? dy[i] : 0.0f;\n}\n");
    cu_kernel(p, "/* dx = dy where x lies in [(0 - zp) * scale, (255 - zp) * scale], else 0:\n"
                 " * one thread per element. */\n",
              "fake_quantize_backward(const float *__restrict__ dy, const float *__restrict__ x, "
              "float *__restrict__ dx, int n, float scale, int zero_point)",
              "    const float lo = (float)(0 - zero_point) * scale;\n"
              "    const float hi = (float)(255 - zero_point) * scale;\n" CU_IDX1
              "    dx[i] = x[i] >= lo && x[i] <= hi ? dy[i] : 0.0f;\n}\n");
    plan_1d(p, "fake_quantize_backward", "dy,x,dx,n,scale,zero_point");
    if (gen_end(p) != 0)
        return -1;
    /* 4. per-column symmetric fake quant with ReLU, f32 */
    p = gen_begin(g, "fake-quant-per-col-relu-f32", "fake_quantize_relu_per_column");
    gen_describe(p, "ReLU then per-column fake quantisation to u8 with zero point 0, f32");
    gen_arg(p, "x", "f32", "in", "n,m");
    gen_arg(p, "scale", "f32", "in", "m");
    gen_arg(p, "y", "f32", "out", "n,m");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -2, 6);
    gen_fill_uniform(p, "scale", 0.01, 0.03);
    configs_2d(p, "n=8192,m=16384");
    gen_cost(p, "5*n*m", "8*n*m+4*m");
    gen_tolerance(p, 0.0301, 0);
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n\n"
                 "/* ReLU fused with per-column fake quantisation to u8 (zero point 0):\n"
                 " * y[i][j] = min(round(max(x[i][j], 0) / scale[j]), 255) * scale[j],\n"
                 " * rounding half to even. */\n"
                 "void fake_quantize_relu_per_column(const float *x, const float *scale, float *y, int n, int m)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
                 "            const size_t k = (size_t)i * m + j;\n"
                 "            const float q = fminf(nearbyintf(fmaxf(x[k], 0.0f) / scale[j]), 255.0f);\n"
                 "            y[k] = q * scale[j];\n        }\n    }\n}\n");
    cu_kernel(p, "/* y[i][j] = min(round_half_even(max(x[i][j], 0) / scale[j]), 255) * scale[j]:\n"
                 " * one thread per element. */\n",
              "fake_quantize_relu_per_column(const float *__restrict__ x, const float *__restrict__ scale, "
              "float *__restrict__ y, int n, int m)",
              CU_IDX2 "    const float q = fminf(nearbyintf(fmaxf(x[k], 0.0f) / scale[j]), 255.0f);\n"
              "    y[k] = q * scale[j];\n}\n");
    plan_2d(p, "fake_quantize_relu_per_column", "x,scale,y,n,m");
    return gen_end(p);
}

/* The rounding right shift helper shared by the requantisers: rounds half
 * away from zero on the magnitude, so no negative value is ever shifted. */
static const char *RSHIFT_HELPER =
    "/* round(v / 2^shift), halves away from zero; shift in [1, 62]. */\n"
    "static int64_t rounding_shift(int64_t v, int shift)\n{\n"
    "    const int64_t half = (int64_t)1 << (shift - 1);\n"
    "    return v >= 0 ? (v + half) >> shift : -((-v + half) >> shift);\n}\n\n";

/* E: requantisation of i32 accumulators, 4 programs. */
static int requant(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    p = gen_begin(g, "requant-i32-i8-per-tensor", "requantize");
    gen_describe(p, "i32 accumulator -> i8 with a fixed-point multiplier and shift, per tensor");
    gen_arg(p, "acc", "i32", "in", "n");
    gen_arg(p, "q", "i8", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, "multiplier", "i32", gen_randint(g, 1200000000, 2000000000));
    gen_scalar(p, "shift", "i32", 40);
    gen_scalar(p, "zero_point", "i32", -5);
    gen_fill_int(p, "acc", "-100000", "100000");
    configs_1d(p, "n=134217728");
    gen_cost(p, "4*n", "5*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n");
    sb_append(s, RSHIFT_HELPER);
    sb_append(s, "/* Requantise i32 accumulators to i8: the real scale is multiplier / 2^shift\n"
                 " * (multiplier < 2^31), so q = clamp(round(acc * multiplier / 2^shift) + zero_point,\n"
                 " * -128, 127) in exact integer arithmetic. */\n"
                 "void requantize(const int32_t *acc, int8_t *q, int n, int multiplier, int shift, int zero_point)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n"
                 "        const int64_t v = rounding_shift((int64_t)acc[i] * multiplier, shift) + zero_point;\n"
                 "        q[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));\n    }\n}\n");
    cu_kernel(p, CU_RSHIFT "/* q = clamp(round(acc * multiplier / 2^shift) + zero_point, -128, 127): one thread per\n"
                 " * element. */\n",
              "requantize(const int *__restrict__ acc, signed char *__restrict__ q, int n, int multiplier, "
              "int shift, int zero_point)",
              CU_IDX1 "    const long long v = rounding_shift((long long)acc[i] * multiplier, shift) + zero_point;\n"
                      "    q[i] = (signed char)(v < -128 ? -128 : (v > 127 ? 127 : v));\n}\n");
    plan_1d(p, "requantize", "acc,q,n,multiplier,shift,zero_point");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "requant-i32-i8-per-channel-bias", "requantize_per_channel");
    gen_describe(p, "i32 accumulator + bias -> i8, per-row fixed-point multipliers and shifts");
    gen_arg(p, "acc", "i32", "in", "n,m");
    gen_arg(p, "bias", "i32", "in", "n");
    gen_arg(p, "multiplier", "i32", "in", "n");
    gen_arg(p, "shift", "i32", "in", "n");
    gen_arg(p, "q", "i8", "out", "n,m");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_fill_int(p, "acc", "-100000", "100000");
    gen_fill_int(p, "bias", "-5000", "5000");
    gen_fill_int(p, "multiplier", "1073741824", "2147483647");
    gen_fill_int(p, "shift", "40", "43");
    configs_2d(p, "n=8192,m=16384");
    gen_cost(p, "5*n*m", "5*n*m+12*n");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n");
    sb_append(s, RSHIFT_HELPER);
    sb_append(s, "/* Per-output-channel requantisation of an n x m accumulator matrix (channel =\n"
                 " * row): q[i][j] = clamp(round((acc[i][j] + bias[i]) * multiplier[i] / 2^shift[i]),\n"
                 " * -128, 127). */\n"
                 "void requantize_per_channel(const int32_t *acc, const int32_t *bias, const int32_t *multiplier,\n"
                 "                            const int32_t *shift, int8_t *q, int n, int m)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n"
                 "        for (int j = 0; j < m; j++) {\n"
                 "            const size_t k = (size_t)i * m + j;\n"
                 "            const int64_t a = (int64_t)acc[k] + bias[i];\n"
                 "            const int64_t v = rounding_shift(a * multiplier[i], shift[i]);\n"
                 "            q[k] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));\n"
                 "        }\n    }\n}\n");
    cu_kernel(p, CU_RSHIFT "/* q[i][j] = clamp(round((acc[i][j] + bias[i]) * multiplier[i] / 2^shift[i]), -128, 127):\n"
                 " * one thread per element. */\n",
              "requantize_per_channel(const int *__restrict__ acc, const int *__restrict__ bias, "
              "const int *__restrict__ multiplier, const int *__restrict__ shift, signed char *__restrict__ q, "
              "int n, int m)",
              CU_IDX2 "    const long long a = (long long)acc[k] + bias[i];\n"
                      "    const long long v = rounding_shift(a * multiplier[i], shift[i]);\n"
                      "    q[k] = (signed char)(v < -128 ? -128 : (v > 127 ? 127 : v));\n}\n");
    plan_2d(p, "requantize_per_channel", "acc,bias,multiplier,shift,q,n,m");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "requant-i32-u8-relu", "requantize_relu");
    gen_describe(p, "i32 accumulator -> u8 with fused ReLU (clamp at the zero point)");
    gen_arg(p, "acc", "i32", "in", "n");
    gen_arg(p, "q", "u8", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_scalar(p, "multiplier", "i32", gen_randint(g, 1200000000, 2000000000));
    gen_scalar(p, "shift", "i32", 41);
    gen_scalar(p, "zero_point", "i32", 10);
    gen_fill_int(p, "acc", "-300000", "300000");
    configs_1d(p, "n=134217728");
    gen_cost(p, "4*n", "5*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n");
    sb_append(s, RSHIFT_HELPER);
    sb_append(s, "/* Requantise to u8 with a fused ReLU: values below the zero point (real 0)\n"
                 " * clamp to it. q = clamp(round(acc * multiplier / 2^shift) + zero_point,\n"
                 " * zero_point, 255). */\n"
                 "void requantize_relu(const int32_t *acc, uint8_t *q, int n, int multiplier, int shift, int zero_point)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n"
                 "        const int64_t v = rounding_shift((int64_t)acc[i] * multiplier, shift) + zero_point;\n"
                 "        q[i] = (uint8_t)(v < zero_point ? zero_point : (v > 255 ? 255 : v));\n    }\n}\n");
    cu_kernel(p, CU_RSHIFT "/* q = clamp(round(acc * multiplier / 2^shift) + zero_point, zero_point, 255): one\n"
                 " * thread per element. */\n",
              "requantize_relu(const int *__restrict__ acc, unsigned char *__restrict__ q, int n, int multiplier, "
              "int shift, int zero_point)",
              CU_IDX1 "    const long long v = rounding_shift((long long)acc[i] * multiplier, shift) + zero_point;\n"
                      "    q[i] = (unsigned char)(v < zero_point ? zero_point : (v > 255 ? 255 : v));\n}\n");
    plan_1d(p, "requantize_relu", "acc,q,n,multiplier,shift,zero_point");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "requant-i32-i16-per-col", "requantize_i16_per_column");
    gen_describe(p, "i32 accumulator -> i16, per-column multipliers with one shift");
    gen_arg(p, "acc", "i32", "in", "n,m");
    gen_arg(p, "multiplier", "i32", "in", "m");
    gen_arg(p, "q", "i16", "out", "n,m");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_scalar(p, "shift", "i32", 33);
    gen_fill_int(p, "acc", "-20000000", "20000000");
    gen_fill_int(p, "multiplier", "1073741824", "2147483647");
    configs_2d(p, "n=8192,m=8192");
    gen_cost(p, "4*n*m", "6*n*m+4*m");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n");
    sb_append(s, RSHIFT_HELPER);
    sb_append(s, "/* Requantise an n x m accumulator matrix to i16 with a per-column multiplier:\n"
                 " * q[i][j] = clamp(round(acc[i][j] * multiplier[j] / 2^shift), -32768, 32767). */\n"
                 "void requantize_i16_per_column(const int32_t *acc, const int32_t *multiplier, int16_t *q, int n,\n"
                 "                               int m, int shift)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        for (int j = 0; j < m; j++) {\n"
                 "            const size_t k = (size_t)i * m + j;\n"
                 "            const int64_t v = rounding_shift((int64_t)acc[k] * multiplier[j], shift);\n"
                 "            q[k] = (int16_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));\n"
                 "        }\n    }\n}\n");
    cu_kernel(p, CU_RSHIFT "/* q[i][j] = clamp(round(acc[i][j] * multiplier[j] / 2^shift), -32768, 32767): one\n"
                 " * thread per element. */\n",
              "requantize_i16_per_column(const int *__restrict__ acc, const int *__restrict__ multiplier, "
              "short *__restrict__ q, int n, int m, int shift)",
              CU_IDX2 "    const long long v = rounding_shift((long long)acc[k] * multiplier[j], shift);\n"
                      "    q[k] = (short)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));\n}\n");
    plan_2d(p, "requantize_i16_per_column", "acc,multiplier,q,n,m,shift");
    return gen_end(p);
}

/* F: requantisation between 8-bit types with a float ratio, 2 programs. */
static int requant8(GenCtx *g)
{
    for (int k = 0; k < 2; k++) {
        const char *idt = k ? "u8" : "i8", *odt = k ? "i8" : "u8";
        const char *ity = k ? "uint8_t" : "int8_t", *oty = k ? "int8_t" : "uint8_t";
        int lo = k ? -128 : 0, hi = k ? 127 : 255;
        char variant[48], entry[48];
        snprintf(variant, sizeof variant, "requant-%s-%s", idt, odt);
        snprintf(entry, sizeof entry, "requantize_%s_to_%s", idt, odt);
        GenProgram *p = gen_begin(g, variant, entry);
        gen_describe(p, "requantise %s -> %s: new scale and zero point through a float ratio", idt, odt);
        gen_arg(p, "qin", idt, "in", "n");
        gen_arg(p, "qout", odt, "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        gen_scalar(p, "ratio", "f32", k ? 0.75 : 1.4);
        gen_scalar(p, "zp_in", "i32", k ? 128 : 0);
        gen_scalar(p, "zp_out", "i32", k ? -3 : 128);
        if (k)
            gen_fill_int(p, "qin", "0", "256");
        else
            gen_fill_int(p, "qin", "-128", "128");
        configs_1d(p, "n=268435456");
        gen_cost(p, "4*n", "2*n");
        gen_tolerance(p, 1, 0);
        StrBuf *s = gen_src(p);
        sb_printf(s, "#include <math.h>\n#include <stdint.h>\n\n"
                     "/* Requantise %s to %s: qout = clamp(round((qin - zp_in) * ratio) + zp_out, %d, %d),\n"
                     " * ratio = scale_in / scale_out, rounding half to even. */\n"
                     "void %s(const %s *qin, %s *qout, int n, float ratio, int zp_in, int zp_out)\n{\n"
                     "    for (int i = 0; i < n; i++) {\n"
                     "        const int v = (int)nearbyintf((float)(qin[i] - zp_in) * ratio) + zp_out;\n"
                     "        qout[i] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n    }\n}\n",
                  ity, oty, lo, hi, entry, ity, oty, oty, lo, lo, hi, hi);
        StrBuf *k = gen_cuda_src(p);
        sb_printf(k, "/* qout = clamp(round_half_even((qin - zp_in) * ratio) + zp_out, %d, %d): one thread per\n"
                     " * element. */\n", lo, hi);
        cu_head(k, "%s(const %s *__restrict__ qin, %s *__restrict__ qout, int n, float ratio, int zp_in, "
                   "int zp_out)", entry, cu(ity), cu(oty));
        sb_printf(k, CU_IDX1 "    const int v = (int)nearbyintf((float)(qin[i] - zp_in) * ratio) + zp_out;\n"
                             "    qout[i] = (%s)(v < %d ? %d : (v > %d ? %d : v));\n}\n",
                  cu(oty), lo, lo, hi, hi);
        plan_1d(p, entry, "qin,qout,n,ratio,zp_in,zp_out");
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

/* G: int8 dot products accumulated in i32, 6 programs. */
static int int8_dots(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    static const char *const GEMV_SMALL = "n=256,m=512", *GEMV_EDGE = "n=1,m=1", *GEMV_PRIME = "n=37,m=1031",
                             *GEMV_LARGE = "n=16384,m=16384";
    for (int k = 0; k < 2; k++) {
        const char *adt = k ? "u8" : "i8", *aty = k ? "uint8_t" : "int8_t";
        char variant[48], entry[48];
        snprintf(variant, sizeof variant, "gemv-%s-i8-i32", adt);
        snprintf(entry, sizeof entry, "gemv_%s_i8", adt);
        p = gen_begin(g, variant, entry);
        gen_describe(p, "int8 GEMV: y = A x with %s A, i8 x, i32 accumulation", adt);
        gen_arg(p, "a", adt, "in", "n,m");
        gen_arg(p, "x", "i8", "in", "m");
        gen_arg(p, "y", "i32", "out", "n");
        gen_arg(p, "n", "i32", "param", NULL);
        gen_arg(p, "m", "i32", "param", NULL);
        gen_fill_int(p, "a", k ? "0" : "-128", k ? "256" : "128");
        gen_fill_int(p, "x", "-128", "128");
        gen_config(p, "small", GEMV_SMALL);
        gen_config(p, "edge", GEMV_EDGE);
        gen_config(p, "edge-prime", GEMV_PRIME);
        gen_config(p, "large", GEMV_LARGE);
        gen_cost(p, "2*n*m", "n*m+m+4*n");
        s = gen_src(p);
        sb_printf(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                     "/* y = A x for an n x m row-major %s matrix A and an i8 vector x, accumulated\n"
                     " * exactly in i32 (|sum| < m * %d fits for m <= 16384). */\n"
                     "void %s(const %s *a, const int8_t *x, int32_t *y, int n, int m)\n{\n"
                     "    for (int i = 0; i < n; i++) {\n        const %s *row = a + (size_t)i * m;\n"
                     "        int32_t acc = 0;\n        for (int j = 0; j < m; j++)\n"
                     "            acc += row[j] * x[j];\n        y[i] = acc;\n    }\n}\n",
                  k ? "u8" : "i8", k ? 32640 : 16384, entry, aty, aty);
        StrBuf *kc = gen_cuda_src(p);
        sb_append(kc, "/* y = A x in i32: one warp per row, the lanes striding along it, a shuffle tree\n"
                      " * adding their partial sums. */\n");
        cu_head(kc, "%s(const %s *__restrict__ a, const signed char *__restrict__ x, int *__restrict__ y, "
                    "int n, int m)", entry, cu(aty));
        sb_append(kc, CU_WARP_ROW);
        sb_printf(kc, "    const %s *row = a + (long long)i * m;\n", cu(aty));
        sb_append(kc, "    int acc = 0;\n"
                      "    for (int j = lane; j < m; j += 32)\n"
                      "        acc += row[j] * x[j];\n" CU_WARP_SUM
                      "    if (lane == 0)\n        y[i] = acc;\n}\n");
        plan_warp_rows(p, entry, "a,x,y,n,m");
        if (gen_end(p) != 0)
            return -1;
    }
    p = gen_begin(g, "gemv-u8-zero-point", "gemv_u8_zero_point");
    gen_describe(p, "u8 GEMV with zero points: y[i] = sum_j (A[i][j] - za)(x[j] - zx)");
    gen_arg(p, "a", "u8", "in", "n,m");
    gen_arg(p, "x", "u8", "in", "m");
    gen_arg(p, "y", "i32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_scalar(p, "za", "i32", 128);
    gen_scalar(p, "zx", "i32", 110);
    gen_fill_int(p, "a", "0", "256");
    gen_fill_int(p, "x", "0", "256");
    gen_config(p, "small", GEMV_SMALL);
    gen_config(p, "edge", GEMV_EDGE);
    gen_config(p, "edge-prime", GEMV_PRIME);
    gen_config(p, "large", GEMV_LARGE);
    gen_cost(p, "4*n*m", "n*m+m+4*n");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* Asymmetric u8 GEMV: y[i] = sum_j (a[i][j] - za) * (x[j] - zx), exact in i32. */\n"
                 "void gemv_u8_zero_point(const uint8_t *a, const uint8_t *x, int32_t *y, int n, int m, int za, int zx)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const uint8_t *row = a + (size_t)i * m;\n"
                 "        int32_t acc = 0;\n        for (int j = 0; j < m; j++)\n"
                 "            acc += (row[j] - za) * (x[j] - zx);\n        y[i] = acc;\n    }\n}\n");
    cu_kernel(p, "/* y[i] = sum_j (a[i][j] - za) * (x[j] - zx) in i32: one warp per row, the lanes\n"
                 " * striding along it, a shuffle tree adding their partial sums. */\n",
              "gemv_u8_zero_point(const unsigned char *__restrict__ a, const unsigned char *__restrict__ x, "
              "int *__restrict__ y, int n, int m, int za, int zx)",
              CU_WARP_ROW "    const unsigned char *row = a + (long long)i * m;\n"
                          "    int acc = 0;\n"
                          "    for (int j = lane; j < m; j += 32)\n"
                          "        acc += (row[j] - za) * (x[j] - zx);\n" CU_WARP_SUM
                          "    if (lane == 0)\n        y[i] = acc;\n}\n");
    plan_warp_rows(p, "gemv_u8_zero_point", "a,x,y,n,m,za,zx");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "dp4a-accumulate", "dot4_accumulate");
    gen_describe(p, "dp4a-style: c[i] += dot of the i-th groups of four i8 values of a and b");
    gen_arg(p, "a", "i8", "in", "n,4");
    gen_arg(p, "b", "i8", "in", "n,4");
    gen_arg(p, "c", "i32", "inout", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_int(p, "a", "-128", "128");
    gen_fill_int(p, "b", "-128", "128");
    gen_fill_int(p, "c", "-1000000", "1000000");
    configs_1d(p, "n=67108864");
    gen_cost(p, "8*n", "16*n");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* dp4a-style accumulate: c[i] += a[i][0]*b[i][0] + ... + a[i][3]*b[i][3], where\n"
                 " * a and b hold n packed groups of four i8 values. */\n"
                 "void dot4_accumulate(const int8_t *a, const int8_t *b, int32_t *c, int n)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const int8_t *ai = a + 4 * (size_t)i;\n"
                 "        const int8_t *bi = b + 4 * (size_t)i;\n"
                 "        c[i] += ai[0] * bi[0] + ai[1] * bi[1] + ai[2] * bi[2] + ai[3] * bi[3];\n    }\n}\n");
    cu_kernel(p, "/* c[i] += a[i][0]*b[i][0] + ... + a[i][3]*b[i][3]: one thread per group of four. */\n",
              "dot4_accumulate(const signed char *__restrict__ a, const signed char *__restrict__ b, "
              "int *__restrict__ c, int n)",
              CU_IDX1 "    const signed char *ai = a + 4 * i;\n"
                      "    const signed char *bi = b + 4 * i;\n"
                      "    c[i] += ai[0] * bi[0] + ai[1] * bi[1] + ai[2] * bi[2] + ai[3] * bi[3];\n}\n");
    plan_1d(p, "dot4_accumulate", "a,b,c,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "row-pair-dot-i8", "row_dots_i8");
    gen_describe(p, "row-wise dot products of two i8 matrices into i32");
    gen_arg(p, "a", "i8", "in", "n,k");
    gen_arg(p, "b", "i8", "in", "n,k");
    gen_arg(p, "r", "i32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "k", "i32", "param", NULL);
    gen_fill_int(p, "a", "-128", "128");
    gen_fill_int(p, "b", "-128", "128");
    gen_config(p, "small", "n=1000,k=96");
    gen_config(p, "edge", "n=1,k=1");
    gen_config(p, "edge-prime", "n=101,k=67");
    gen_config(p, "large", "n=1048576,k=256");
    gen_cost(p, "2*n*k", "2*n*k+4*n");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* r[i] = sum_t a[i][t] * b[i][t] for n x k row-major i8 matrices, in i32. */\n"
                 "void row_dots_i8(const int8_t *a, const int8_t *b, int32_t *r, int n, int k)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        int32_t acc = 0;\n"
                 "        for (int t = 0; t < k; t++)\n"
                 "            acc += a[(size_t)i * k + t] * b[(size_t)i * k + t];\n        r[i] = acc;\n    }\n}\n");
    cu_kernel(p, "/* r[i] = sum_t a[i][t] * b[i][t] in i32: one warp per row, the lanes striding\n"
                 " * along it, a shuffle tree adding their partial sums. */\n",
              "row_dots_i8(const signed char *__restrict__ a, const signed char *__restrict__ b, "
              "int *__restrict__ r, int n, int k)",
              CU_WARP_ROW "    const signed char *ar = a + (long long)i * k;\n"
                          "    const signed char *br = b + (long long)i * k;\n"
                          "    int acc = 0;\n"
                          "    for (int t = lane; t < k; t += 32)\n"
                          "        acc += ar[t] * br[t];\n" CU_WARP_SUM
                          "    if (lane == 0)\n        r[i] = acc;\n}\n");
    plan_warp_rows(p, "row_dots_i8", "a,b,r,n,k");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "gemv-i8-dequant-f32", "gemv_i8_dequantized");
    gen_describe(p, "int8 GEMV with per-row weight scales and an activation scale, f32 output");
    gen_arg(p, "a", "i8", "in", "n,m");
    gen_arg(p, "a_scale", "f32", "in", "n");
    gen_arg(p, "x", "i8", "in", "m");
    gen_arg(p, "y", "f32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_scalar(p, "x_scale", "f32", 0.02);
    gen_fill_int(p, "a", "-128", "128");
    gen_fill_int(p, "x", "-128", "128");
    gen_fill_uniform(p, "a_scale", 0.001, 0.01);
    gen_config(p, "small", GEMV_SMALL);
    gen_config(p, "edge", GEMV_EDGE);
    gen_config(p, "edge-prime", GEMV_PRIME);
    gen_config(p, "large", GEMV_LARGE);
    gen_cost(p, "2*n*m+2*n", "n*m+m+8*n");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* Dequantised int8 GEMV: y[i] = (sum_j a[i][j] * x[j]) * (a_scale[i] * x_scale),\n"
                 " * the sum exact in i32. */\n"
                 "void gemv_i8_dequantized(const int8_t *a, const float *a_scale, const int8_t *x, float *y, int n,\n"
                 "                         int m, float x_scale)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const int8_t *row = a + (size_t)i * m;\n"
                 "        int32_t acc = 0;\n        for (int j = 0; j < m; j++)\n"
                 "            acc += row[j] * x[j];\n"
                 "        y[i] = (float)acc * (a_scale[i] * x_scale);\n    }\n}\n");
    cu_kernel(p, "/* y[i] = (sum_j a[i][j] * x[j]) * (a_scale[i] * x_scale), the sum in i32: one warp\n"
                 " * per row, the lanes striding along it, a shuffle tree adding their partial sums. */\n",
              "gemv_i8_dequantized(const signed char *__restrict__ a, const float *__restrict__ a_scale, "
              "const signed char *__restrict__ x, float *__restrict__ y, int n, int m, float x_scale)",
              CU_WARP_ROW "    const signed char *row = a + (long long)i * m;\n"
                          "    int acc = 0;\n"
                          "    for (int j = lane; j < m; j += 32)\n"
                          "        acc += row[j] * x[j];\n" CU_WARP_SUM
                          "    if (lane == 0)\n        y[i] = (float)acc * (a_scale[i] * x_scale);\n}\n");
    plan_warp_rows(p, "gemv_i8_dequantized", "a,a_scale,x,y,n,m,x_scale");
    return gen_end(p);
}

/* H: fixed-point conversions and products, 6 programs. */
static int fixed_point(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    p = gen_begin(g, "f32-to-q15", "f32_to_q15");
    gen_describe(p, "f32 -> Q15 fixed point (i16), rounded and saturated");
    gen_arg(p, "x", "f32", "in", "n");
    gen_arg(p, "q", "i16", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -1.2, 1.2);
    configs_1d(p, "n=134217728");
    gen_cost(p, "3*n", "6*n");
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stdint.h>\n\n"
                 "/* Q15: q = clamp(round_half_even(x * 2^15), -32768, 32767); values outside\n"
                 " * [-1, 1) saturate.  The product by a power of two is exact. */\n"
                 "void f32_to_q15(const float *x, int16_t *q, int n)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const float v = nearbyintf(x[i] * 32768.0f);\n"
                 "        q[i] = (int16_t)(v < -32768.0f ? -32768 : (v > 32767.0f ? 32767 : (int)v));\n    }\n}\n");
    cu_kernel(p, "/* q = clamp(round_half_even(x * 2^15), -32768, 32767): one thread per element. */\n",
              "f32_to_q15(const float *__restrict__ x, short *__restrict__ q, int n)",
              CU_IDX1 "    const float v = nearbyintf(x[i] * 32768.0f);\n"
                      "    q[i] = (short)(v < -32768.0f ? -32768 : (v > 32767.0f ? 32767 : (int)v));\n}\n");
    plan_1d(p, "f32_to_q15", "x,q,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "q15-to-f32", "q15_to_f32");
    gen_describe(p, "Q15 fixed point (i16) -> f32");
    gen_arg(p, "q", "i16", "in", "n");
    gen_arg(p, "x", "f32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_int(p, "q", "-32768", "32768");
    configs_1d(p, "n=134217728");
    gen_cost(p, "n", "6*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n/* Q15 to float: x = q / 2^15 (exact). */\n"
                 "void q15_to_f32(const int16_t *q, float *x, int n)\n{\n"
                 "    for (int i = 0; i < n; i++)\n        x[i] = (float)q[i] * (1.0f / 32768.0f);\n}\n");
    cu_kernel(p, "/* x = q / 2^15: one thread per element. */\n",
              "q15_to_f32(const short *__restrict__ q, float *__restrict__ x, int n)",
              CU_IDX1 "    x[i] = (float)q[i] * (1.0f / 32768.0f);\n}\n");
    plan_1d(p, "q15_to_f32", "q,x,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "q15-mul", "q15_mul");
    gen_describe(p, "Q15 product with rounding and saturation");
    gen_arg(p, "a", "i16", "in", "n");
    gen_arg(p, "b", "i16", "in", "n");
    gen_arg(p, "c", "i16", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_int(p, "a", "-32768", "32768");
    gen_fill_int(p, "b", "-32768", "32768");
    configs_1d(p, "n=134217728");
    gen_cost(p, "3*n", "6*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n"
                 "/* Q15 multiply: c = round(a * b / 2^15), halves away from zero, saturated to\n"
                 " * [-32768, 32767] (only -1 * -1 overflows). */\n"
                 "void q15_mul(const int16_t *a, const int16_t *b, int16_t *c, int n)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const int32_t p = (int32_t)a[i] * b[i];\n"
                 "        const int32_t r = p >= 0 ? (p + 16384) >> 15 : -((-p + 16384) >> 15);\n"
                 "        c[i] = (int16_t)(r > 32767 ? 32767 : r);\n    }\n}\n");
    cu_kernel(p, "/* c = round(a * b / 2^15), halves away from zero, saturated: one thread per element. */\n",
              "q15_mul(const short *__restrict__ a, const short *__restrict__ b, short *__restrict__ c, int n)",
              CU_IDX1 "    const int p = (int)a[i] * b[i];\n"
                      "    const int r = p >= 0 ? (p + 16384) >> 15 : -((-p + 16384) >> 15);\n"
                      "    c[i] = (short)(r > 32767 ? 32767 : r);\n}\n");
    plan_1d(p, "q15_mul", "a,b,c,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "f64-to-q16-16", "f64_to_q16_16");
    gen_describe(p, "f64 -> Q16.16 fixed point (i32), rounded and saturated");
    gen_arg(p, "x", "f64", "in", "n");
    gen_arg(p, "q", "i32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -40000, 40000);
    configs_1d(p, "n=67108864");
    gen_cost(p, "3*n", "12*n");
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stdint.h>\n\n"
                 "/* Q16.16: q = clamp(round_half_even(x * 2^16), INT32_MIN, INT32_MAX); |x| beyond\n"
                 " * 32768 saturates. */\n"
                 "void f64_to_q16_16(const double *x, int32_t *q, int n)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const double v = nearbyint(x[i] * 65536.0);\n"
                 "        q[i] = v < (double)INT32_MIN ? INT32_MIN : (v > (double)INT32_MAX ? INT32_MAX : (int32_t)v);\n"
                 "    }\n}\n");
    cu_kernel(p, "/* q = clamp(round_half_even(x * 2^16), INT32_MIN, INT32_MAX): one thread per element. */\n",
              "f64_to_q16_16(const double *__restrict__ x, int *__restrict__ q, int n)",
              CU_IDX1 "    const int lo = -2147483647 - 1, hi = 2147483647;\n"
                      "    const double v = nearbyint(x[i] * 65536.0);\n"
                      "    q[i] = v < (double)lo ? lo : (v > (double)hi ? hi : (int)v);\n}\n");
    plan_1d(p, "f64_to_q16_16", "x,q,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "q16-16-to-f64", "q16_16_to_f64");
    gen_describe(p, "Q16.16 fixed point (i32) -> f64");
    gen_arg(p, "q", "i32", "in", "n");
    gen_arg(p, "x", "f64", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_int(p, "q", "-2147483647", "2147483647");
    configs_1d(p, "n=67108864");
    gen_cost(p, "n", "12*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n/* Q16.16 to double: x = q / 2^16 (exact). */\n"
                 "void q16_16_to_f64(const int32_t *q, double *x, int n)\n{\n"
                 "    for (int i = 0; i < n; i++)\n        x[i] = q[i] / 65536.0;\n}\n");
    cu_kernel(p, "/* x = q / 2^16: one thread per element. */\n",
              "q16_16_to_f64(const int *__restrict__ q, double *__restrict__ x, int n)",
              CU_IDX1 "    x[i] = q[i] / 65536.0;\n}\n");
    plan_1d(p, "q16_16_to_f64", "q,x,n");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "q16-16-mul", "q16_16_mul");
    gen_describe(p, "Q16.16 product with rounding and saturation");
    gen_arg(p, "a", "i32", "in", "n");
    gen_arg(p, "b", "i32", "in", "n");
    gen_arg(p, "c", "i32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_int(p, "a", "-100000000", "100000000");
    gen_fill_int(p, "b", "-10000000", "10000000");
    configs_1d(p, "n=67108864");
    gen_cost(p, "3*n", "12*n");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n"
                 "/* Q16.16 multiply: c = round(a * b / 2^16), halves away from zero, in 64-bit\n"
                 " * arithmetic, saturated to the int32 range. */\n"
                 "void q16_16_mul(const int32_t *a, const int32_t *b, int32_t *c, int n)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const int64_t p = (int64_t)a[i] * b[i];\n"
                 "        const int64_t r = p >= 0 ? (p + 32768) >> 16 : -((-p + 32768) >> 16);\n"
                 "        c[i] = (int32_t)(r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r));\n"
                 "    }\n}\n");
    cu_kernel(p, "/* c = round(a * b / 2^16), halves away from zero, in 64-bit arithmetic, saturated:\n"
                 " * one thread per element. */\n",
              "q16_16_mul(const int *__restrict__ a, const int *__restrict__ b, int *__restrict__ c, int n)",
              CU_IDX1 "    const long long lo = -2147483647LL - 1, hi = 2147483647LL;\n"
                      "    const long long p = (long long)a[i] * b[i];\n"
                      "    const long long r = p >= 0 ? (p + 32768) >> 16 : -((-p + 32768) >> 16);\n"
                      "    c[i] = (int)(r > hi ? hi : (r < lo ? lo : r));\n}\n");
    plan_1d(p, "q16_16_mul", "a,b,c,n");
    return gen_end(p);
}

/* I: dynamic quantisation, 2 programs. */
static int dynamic(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    p = gen_begin(g, "dynamic-per-tensor-i8", "quantize_dynamic");
    gen_describe(p, "dynamic symmetric per-tensor quantisation: scale from max |x|, then quantise to i8");
    gen_arg(p, "x", "f32", "in", "n");
    gen_arg(p, "q", "i8", "out", "n");
    gen_arg(p, "scale", "f32", "out", "1");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -3, 3);
    configs_1d(p, "n=134217728");
    gen_cost(p, "4*n", "5*n+4");
    gen_tolerance(p, 0, 1e-6);
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stdint.h>\n\n"
                 "/* Dynamic symmetric quantisation: scale = max|x| / 127 (1 if x is all zero),\n"
                 " * q = round_half_even(x / scale), which lies in [-127, 127].  The maximum and\n"
                 " * the IEEE division are exact, so q is reproducible. */\n"
                 "void quantize_dynamic(const float *x, int8_t *q, float *scale, int n)\n{\n"
                 "    float amax = 0.0f;\n    for (int i = 0; i < n; i++)\n        amax = fmaxf(amax, fabsf(x[i]));\n"
                 "    const float s = amax > 0.0f ? amax / 127.0f : 1.0f;\n"
                 "    for (int i = 0; i < n; i++)\n        q[i] = (int8_t)nearbyintf(x[i] / s);\n"
                 "    scale[0] = s;\n}\n");
    gen_cuda(p, "/* Dynamic symmetric quantisation in three launches: per-block maxima of |x| over\n"
                " * grid-stride slices, one block turning them into the scale, then one thread per\n"
                " * element.  The maximum is exact, so q matches the C program's bit for bit. */\n\n"
                "/* Reduces sh[0 .. blockDim.x) to its maximum in sh[0]; blockDim.x is a power of two. */\n"
                "__device__ void block_max(float *sh)\n{\n"
                "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                "        __syncthreads();\n"
                "        if (threadIdx.x < s)\n"
                "            sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]);\n"
                "    }\n"
                "    __syncthreads();\n}\n\n");
    cu_kernel(p, "",
              "quantize_dynamic_amax(const float *__restrict__ x, float *__restrict__ partial, int n)",
              "    extern __shared__ float sh[];\n"
              "    float amax = 0.0f;\n"
              "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
              "         i += (long long)gridDim.x * blockDim.x)\n"
              "        amax = fmaxf(amax, fabsf(x[i]));\n"
              "    sh[threadIdx.x] = amax;\n"
              "    block_max(sh);\n"
              "    if (threadIdx.x == 0)\n        partial[blockIdx.x] = sh[0];\n}\n\n");
    cu_kernel(p, "",
              "quantize_dynamic_scale(const float *__restrict__ partial, int nparts, float *__restrict__ scale)",
              "    extern __shared__ float sh[];\n"
              "    float amax = 0.0f;\n"
              "    for (int b = threadIdx.x; b < nparts; b += blockDim.x)\n"
              "        amax = fmaxf(amax, partial[b]);\n"
              "    sh[threadIdx.x] = amax;\n"
              "    block_max(sh);\n"
              "    if (threadIdx.x == 0)\n        scale[0] = sh[0] > 0.0f ? sh[0] / 127.0f : 1.0f;\n}\n\n");
    cu_kernel(p, "",
              "quantize_dynamic(const float *__restrict__ x, signed char *__restrict__ q, "
              "const float *__restrict__ scale, int n)",
              CU_IDX1 "    q[i] = (signed char)nearbyintf(x[i] / scale[0]);\n}\n");
    gen_scratch(p, "partial", "f32", "1024");
    gen_launch(p, "quantize_dynamic_amax", "min((n+1023)/1024,1024)", "256", "256*4", "x,partial,n");
    gen_launch(p, "quantize_dynamic_scale", "1", "256", "256*4", "partial,min((n+1023)/1024,1024),scale");
    gen_launch(p, "quantize_dynamic", "(n+255)/256", "256", NULL, "x,q,scale,n");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "grid-stride-block-max-shared-then-one-element-per-thread");
    gen_knob(p, "max_blocks", "1024");
    gen_knob(p, "launches", "3");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "dynamic-per-row-i8", "quantize_per_token");
    gen_describe(p, "dynamic per-row (per-token) symmetric quantisation to i8 with row scales");
    gen_arg(p, "x", "f32", "in", "n,m");
    gen_arg(p, "q", "i8", "out", "n,m");
    gen_arg(p, "scale", "f32", "out", "n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -3, 3);
    configs_2d(p, "n=32768,m=4096");
    gen_cost(p, "4*n*m", "5*n*m+4*n");
    gen_tolerance(p, 0, 1e-6);
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* Per-token dynamic quantisation of an n x m row-major matrix: for each row,\n"
                 " * scale[i] = max_j |x[i][j]| / 127 (1 for an all-zero row) and\n"
                 " * q[i][j] = round_half_even(x[i][j] / scale[i]). */\n"
                 "void quantize_per_token(const float *x, int8_t *q, float *scale, int n, int m)\n{\n"
                 "    for (int i = 0; i < n; i++) {\n        const float *xr = x + (size_t)i * m;\n"
                 "        int8_t *qr = q + (size_t)i * m;\n        float amax = 0.0f;\n"
                 "        for (int j = 0; j < m; j++)\n            amax = fmaxf(amax, fabsf(xr[j]));\n"
                 "        const float s = amax > 0.0f ? amax / 127.0f : 1.0f;\n"
                 "        for (int j = 0; j < m; j++)\n            qr[j] = (int8_t)nearbyintf(xr[j] / s);\n"
                 "        scale[i] = s;\n    }\n}\n");
    cu_kernel(p, "/* Per-token dynamic quantisation: one warp per row finds max |x| (lanes striding\n"
                 " * along the row, a shuffle tree combining them, every lane getting the result),\n"
                 " * then quantises the row with the row's scale. */\n",
              "quantize_per_token(const float *__restrict__ x, signed char *__restrict__ q, "
              "float *__restrict__ scale, int n, int m)",
              CU_WARP_ROW "    const float *xr = x + (long long)i * m;\n"
                          "    signed char *qr = q + (long long)i * m;\n"
                          "    float amax = 0.0f;\n"
                          "    for (int j = lane; j < m; j += 32)\n"
                          "        amax = fmaxf(amax, fabsf(xr[j]));\n"
                          "    for (int off = 16; off > 0; off >>= 1)\n"
                          "        amax = fmaxf(amax, __shfl_xor_sync(0xffffffff, amax, off));\n"
                          "    const float s = amax > 0.0f ? amax / 127.0f : 1.0f;\n"
                          "    for (int j = lane; j < m; j += 32)\n"
                          "        qr[j] = (signed char)nearbyintf(xr[j] / s);\n"
                          "    if (lane == 0)\n        scale[i] = s;\n}\n");
    plan_warp_rows(p, "quantize_per_token", "x,q,scale,n,m");
    return gen_end(p);
}

/* J and K: int4 packing / unpacking and sign-bit packing, 3 programs. */
static int packing(GenCtx *g)
{
    GenProgram *p;
    StrBuf *s;
    p = gen_begin(g, "int4-pack-groups", "quantize_int4_packed");
    gen_describe(p, "group-wise int4 quantisation, two values packed per byte (offset binary)");
    gen_arg(p, "x", "f32", "in", "n,ng*gs");
    gen_arg(p, "scale", "f32", "in", "n,ng");
    gen_arg(p, "packed", "u8", "out", "n,ng*gs/2");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "ng", "i32", "param", NULL);
    gen_arg(p, "gs", "i32", "param", NULL);
    gen_fill_uniform(p, "x", -1, 1);
    gen_fill_uniform(p, "scale", 0.08, 0.16);
    gen_config(p, "small", "n=128,ng=16,gs=32");
    gen_config(p, "edge", "n=1,ng=1,gs=2");
    gen_config(p, "edge-prime", "n=37,ng=3,gs=22");
    gen_config(p, "large", "n=16384,ng=64,gs=128");
    gen_cost(p, "4*n*ng*gs", "4*n*ng*gs+n*ng*gs/2+4*n*ng");
    gen_tolerance(p, 17, 0); /* a one-step difference in either nibble */
    s = gen_src(p);
    sb_append(s, "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* Group-wise int4 quantisation: each row has ng groups of gs (even) values\n"
                 " * sharing scale[i][g]; v = clamp(round_half_even(x / scale), -8, 7) is stored as\n"
                 " * the nibble v + 8, two per byte: element 2t in the low nibble of byte t,\n"
                 " * element 2t + 1 in the high nibble. */\n"
                 "static int nibble(float x, float s)\n{\n"
                 "    const int v = (int)nearbyintf(x / s);\n"
                 "    return (v < -8 ? -8 : (v > 7 ? 7 : v)) + 8;\n}\n\n"
                 "void quantize_int4_packed(const float *x, const float *scale, uint8_t *packed, int n, int ng, int gs)\n{\n"
                 "    const size_t row = (size_t)ng * gs;\n"
                 "    for (int i = 0; i < n; i++) {\n        for (int g = 0; g < ng; g++) {\n"
                 "            const float s = scale[(size_t)i * ng + g];\n"
                 "            const size_t base = i * row + (size_t)g * gs;\n"
                 "            for (int t = 0; t < gs; t += 2) {\n"
                 "                const int lo = nibble(x[base + t], s);\n"
                 "                const int hi = nibble(x[base + t + 1], s);\n"
                 "                packed[(base + t) / 2] = (uint8_t)(lo | (hi << 4));\n"
                 "            }\n        }\n    }\n}\n");
    cu_kernel(p, "/* Group-wise int4 quantisation, two values per byte: one thread per output byte\n"
                 " * (a 2-D grid: x across the ng*gs/2 bytes of a row, y down the n rows); gs is even,\n"
                 " * so both values of a byte share a group. */\n"
                 "static __device__ int nibble(float x, float s)\n{\n"
                 "    const int v = (int)nearbyintf(x / s);\n"
                 "    return (v < -8 ? -8 : (v > 7 ? 7 : v)) + 8;\n}\n\n",
              "quantize_int4_packed(const float *__restrict__ x, const float *__restrict__ scale, "
              "unsigned char *__restrict__ packed, int n, int ng, int gs)",
              "    const int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    const int i = blockIdx.y;\n"
              "    if (t >= ng * gs / 2)\n        return;\n"
              "    const int c = 2 * t; /* the column of the low nibble */\n"
              "    const float s = scale[(long long)i * ng + c / gs];\n"
              "    const float *xr = x + (long long)i * ng * gs;\n"
              "    const int lo = nibble(xr[c], s);\n"
              "    const int hi = nibble(xr[c + 1], s);\n"
              "    packed[(long long)i * (ng * gs / 2) + t] = (unsigned char)(lo | (hi << 4));\n}\n");
    gen_launch(p, "quantize_int4_packed", "(ng*gs/2+255)/256,n", "256", NULL, "x,scale,packed,n,ng,gs");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-byte-per-thread-2d-grid");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "int4-unpack-dequant", "dequantize_int4_packed");
    gen_describe(p, "unpack offset-binary int4 pairs and dequantise with group scales, f32");
    gen_arg(p, "packed", "u8", "in", "n,ng*gs/2");
    gen_arg(p, "scale", "f32", "in", "n,ng");
    gen_arg(p, "x", "f32", "out", "n,ng*gs");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "ng", "i32", "param", NULL);
    gen_arg(p, "gs", "i32", "param", NULL);
    gen_fill_int(p, "packed", "0", "256");
    gen_fill_uniform(p, "scale", 0.01, 0.2);
    gen_config(p, "small", "n=128,ng=16,gs=32");
    gen_config(p, "edge", "n=1,ng=1,gs=2");
    gen_config(p, "edge-prime", "n=37,ng=3,gs=22");
    gen_config(p, "large", "n=16384,ng=64,gs=128");
    gen_cost(p, "2*n*ng*gs", "n*ng*gs/2+4*n*ng*gs+4*n*ng");
    s = gen_src(p);
    sb_append(s, "#include <stddef.h>\n#include <stdint.h>\n\n"
                 "/* Inverse of group-wise int4 packing: byte t of a row holds element 2t in its\n"
                 " * low nibble and 2t + 1 in its high nibble, each stored as v + 8 with v in\n"
                 " * [-8, 7]; x = v * scale[i][g] for group g = column / gs. */\n"
                 "void dequantize_int4_packed(const uint8_t *packed, const float *scale, float *x, int n, int ng, int gs)\n{\n"
                 "    const size_t row = (size_t)ng * gs;\n"
                 "    for (int i = 0; i < n; i++) {\n        for (int g = 0; g < ng; g++) {\n"
                 "            const float s = scale[(size_t)i * ng + g];\n"
                 "            const size_t base = i * row + (size_t)g * gs;\n"
                 "            for (int t = 0; t < gs; t += 2) {\n"
                 "                const int byte = packed[(base + t) / 2];\n"
                 "                x[base + t] = (float)((byte & 0xF) - 8) * s;\n"
                 "                x[base + t + 1] = (float)((byte >> 4) - 8) * s;\n"
                 "            }\n        }\n    }\n}\n");
    cu_kernel(p, "/* Unpack offset-binary int4 pairs and dequantise: one thread per input byte (a 2-D\n"
                 " * grid: x across the ng*gs/2 bytes of a row, y down the n rows). */\n",
              "dequantize_int4_packed(const unsigned char *__restrict__ packed, const float *__restrict__ scale, "
              "float *__restrict__ x, int n, int ng, int gs)",
              "    const int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    const int i = blockIdx.y;\n"
              "    if (t >= ng * gs / 2)\n        return;\n"
              "    const int c = 2 * t; /* the column of the low nibble */\n"
              "    const float s = scale[(long long)i * ng + c / gs];\n"
              "    const int byte = packed[(long long)i * (ng * gs / 2) + t];\n"
              "    float *xr = x + (long long)i * ng * gs;\n"
              "    xr[c] = (float)((byte & 0xF) - 8) * s;\n"
              "    xr[c + 1] = (float)((byte >> 4) - 8) * s;\n}\n");
    gen_launch(p, "dequantize_int4_packed", "(ng*gs/2+255)/256,n", "256", NULL, "packed,scale,x,n,ng,gs");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-byte-per-thread-2d-grid");
    if (gen_end(p) != 0)
        return -1;

    p = gen_begin(g, "sign-bits-pack", "pack_sign_bits");
    gen_describe(p, "1-bit quantisation: pack the signs (x > 0) of n values, 8 per byte");
    gen_arg(p, "x", "f32", "in", "n");
    gen_arg(p, "bits", "u8", "out", "(n+7)/8");
    gen_arg(p, "n", "i32", "param", NULL);
    configs_1d(p, "n=536870912");
    gen_cost(p, "2*n", "4*n+n/8");
    s = gen_src(p);
    sb_append(s, "#include <stdint.h>\n\n"
                 "/* Binary quantisation: bit (i % 8) of bits[i / 8] is 1 when x[i] > 0, least\n"
                 " * significant bit first; the unused high bits of the last byte are 0. */\n"
                 "void pack_sign_bits(const float *x, uint8_t *bits, int n)\n{\n"
                 "    for (int b = 0; b < (n + 7) / 8; b++) {\n        unsigned byte = 0;\n"
                 "        for (int k = 0; k < 8 && 8 * b + k < n; k++)\n"
                 "            if (x[8 * b + k] > 0.0f)\n                byte |= 1u << k;\n"
                 "        bits[b] = (uint8_t)byte;\n    }\n}\n");
    cu_kernel(p, "/* Sign bits, least significant first, 8 per byte: one thread per output byte. */\n",
              "pack_sign_bits(const float *__restrict__ x, unsigned char *__restrict__ bits, int n)",
              "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (b >= (n + 7) / 8)\n        return;\n"
              "    unsigned byte = 0;\n"
              "    for (int k = 0; k < 8 && 8 * b + k < n; k++)\n"
              "        if (x[8 * b + k] > 0.0f)\n            byte |= 1u << k;\n"
              "    bits[b] = (unsigned char)byte;\n}\n");
    gen_launch(p, "pack_sign_bits", "((n+7)/8+255)/256", "256", NULL, "x,bits,n");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-byte-per-thread");
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    if (per_tensor(g) || per_channel(g) || dequant(g) || fake_quant(g) || requant(g) || requant8(g) ||
        int8_dots(g) || fixed_point(g) || dynamic(g) || packing(g))
        return -1;
    return 0;
}

const Family family_quantize = {"quantize", "elementwise", 54, generate};
