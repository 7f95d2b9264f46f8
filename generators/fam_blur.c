/* blur — 2D box and Gaussian blurs computed directly over the window.
 * Programs vary by
 *   - filter: square box of radius 1, 2, 3 or 5, a 7 x 3 rectangular box, or
 *     a Gaussian of sigma 0.6, 1.0, 1.5 or 2.0 (radius ceil(3 sigma)) whose
 *     weights are baked into the program;
 *   - image layout and type: single-channel f32 or u8, interleaved RGB f32 or
 *     u8, interleaved RGBA u8 (alpha passed through) and single-channel f32
 *     read through a padded row pitch;
 *   - border: clamped, mirrored with the edge repeated, or mirrored about
 *     the edge sample.
 * u8 programs use exact integer arithmetic (fixed-point Gaussian weights
 * summing to 2^10 per axis, rounded divisions). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

typedef struct Filter {
    const char *tag;
    int gauss;
    int rx, ry;     /* box radii */
    double sigma;   /* Gaussian */
} Filter;

static const Filter FILTERS[] = {
    {"box-r1", 0, 1, 1, 0},      {"box-r2", 0, 2, 2, 0},      {"box-r3", 0, 3, 3, 0},
    {"box-r5", 0, 5, 5, 0},      {"box-7x3", 0, 3, 1, 0},     {"gauss-s0.6", 1, 0, 0, 0.6},
    {"gauss-s1.0", 1, 0, 0, 1.0}, {"gauss-s1.5", 1, 0, 0, 1.5}, {"gauss-s2.0", 1, 0, 0, 2.0},
};
#define N_FILTERS 9

enum { GRAY_F32, GRAY_U8, RGB_F32, RGB_U8, RGBA_U8, GRAY_F32_PITCH, N_LAYOUTS };
static const char *const LAYOUT[] = {"gray-f32", "gray-u8", "rgb-f32", "rgb-u8", "rgba-u8", "gray-f32-pitched"};

enum { CLAMP, MIRROR, REFLECT101 };
static const char *const BORDER[] = {"clamp", "mirror", "reflect101"};
static const char *const BORDER_TEXT[] = {
    "clamped (edge pixels repeated)",
    "mirrored with the edge pixel repeated (... c b a | a b c ...)",
    "mirrored about the edge pixel (... c b | a b c ...)"};
static const char *const BORDER_FN[] = {"clampi", "mirror", "reflect101"};

/* The border's index function; cuda: as a __device__ function for kernel.cu. */
static void emit_border_fn(StrBuf *s, int border, int cuda)
{
    const char *q = cuda ? "static __device__ " : "static ";
    if (border == CLAMP)
        sb_printf(s, "%sint clampi(int i, int n)\n{\n"
                     "    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n", q);
    else if (border == MIRROR)
        sb_printf(s, "/* Index i reflected into [0, n), the edge sample repeated. */\n"
                     "%sint mirror(int i, int n)\n{\n"
                     "    int period = 2 * n;\n    i %%= period;\n    if (i < 0)\n        i += period;\n"
                     "    return i < n ? i : period - 1 - i;\n}\n\n", q);
    else
        sb_printf(s, "/* Index i reflected into [0, n) about the edge samples (not repeated). */\n"
                     "%sint reflect101(int i, int n)\n{\n"
                     "    if (n == 1)\n        return 0;\n"
                     "    int period = 2 * n - 2;\n    i %%= period;\n    if (i < 0)\n        i += period;\n"
                     "    return i < n ? i : period - i;\n}\n\n", q);
}

/* The filter's radius constants and Gaussian table; qual: "static const"
 * in C, "__constant__" in kernel.cu (both 13 characters, so the table's
 * continuation lines align the same). */
static void emit_tables(StrBuf *s, int gauss, int u8, int rx, int ry, const double *w, const int *wi,
                        const char *qual)
{
    if (rx == ry)
        sb_printf(s, "enum { RADIUS = %d };\n\n", rx);
    else
        sb_printf(s, "enum { RX = %d, RY = %d };\n\n", rx, ry);
    if (gauss) {
        if (u8) {
            sb_printf(s, "%s int G[2 * RADIUS + 1] = {", qual);
            for (int k = 0; k <= 2 * rx; k++)
                sb_printf(s, "%s%d", k ? ", " : "", wi[k]);
        } else {
            sb_printf(s, "%s float G[2 * RADIUS + 1] = {", qual);
            for (int k = 0; k <= 2 * rx; k++)
                sb_printf(s, "%s%s%.7ff", k ? "," : "", k && k % 6 == 0 ? "\n                                        " : (k ? " " : ""), w[k]);
        }
        sb_append(s, "};\n\n");
    }
}

/* The computation of output pixel (y, x), indented by I0 (a C loop body or
 * a kernel's); u8ty spells the 8-bit type. */
static void emit_pixel(StrBuf *s, const char *I0, int ch, int u8, int gauss, int pitched, int border, int taps,
                       const char *RXs, const char *RYs, const char *u8ty)
{
    const char *bf = BORDER_FN[border];
    char I[24], inidx[64], outidx[64];
    snprintf(I, sizeof I, "%s%s", I0, ch > 1 ? "    " : "");
    if (ch == 1) {
        snprintf(inidx, sizeof inidx, "yy * %s + %s(x + dx, w)", pitched ? "pitch" : "w", bf);
        snprintf(outidx, sizeof outidx, "y * w + x");
    } else {
        snprintf(inidx, sizeof inidx, "(yy * w + %s(x + dx, w)) * %d + c", bf, ch);
        snprintf(outidx, sizeof outidx, "(y * w + x) * %d + c", ch);
    }
    if (ch > 1)
        sb_printf(s, "%sfor (int c = 0; c < 3; c++) {\n", I0);
    sb_printf(s, "%s%s acc = 0;\n", I, u8 ? "int" : "float");
    sb_printf(s, "%sfor (int dy = -%s; dy <= %s; dy++) {\n", I, RYs, RYs);
    sb_printf(s, "%s    int yy = %s(y + dy, h);\n", I, bf);
    sb_printf(s, "%s    for (int dx = -%s; dx <= %s; dx++)\n", I, RXs, RXs);
    if (gauss)
        sb_printf(s, "%s        acc += G[dy + RADIUS] * G[dx + RADIUS] * in[%s];\n", I, inidx);
    else
        sb_printf(s, "%s        acc += in[%s];\n", I, inidx);
    sb_printf(s, "%s}\n", I);
    if (u8 && gauss)
        sb_printf(s, "%sout[%s] = (%s)((acc + (1 << 19)) >> 20);\n", I, outidx, u8ty);
    else if (u8)
        sb_printf(s, "%sout[%s] = (%s)((acc + %d) / %d);\n", I, outidx, u8ty, taps / 2, taps);
    else if (gauss)
        sb_printf(s, "%sout[%s] = acc;\n", I, outidx);
    else
        sb_printf(s, "%sout[%s] = acc / %d.0f;\n", I, outidx, taps);
    if (ch > 1)
        sb_printf(s, "%s}\n", I0);
    if (ch == 4)
        sb_printf(s, "%sout[(y * w + x) * 4 + 3] = in[(y * w + x) * 4 + 3];\n", I0);
}

/* The pair: one thread per output pixel (all its channels) on 32x8 blocks,
 * x along threadIdx.x; the same window loop as the program. */
static void emit_cuda(GenProgram *p, const char *entry, int ch, int u8, int gauss, int pitched, int border,
                      int taps, int rx, int ry, const double *w, const int *wi)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = u8 ? "unsigned char" : "float";
    emit_tables(k, gauss, u8, rx, ry, w, wi, "__constant__");
    emit_border_fn(k, border, 1);
    sb_append(k, "/* One thread per output pixel. */\n");
    sb_printf(k, "extern \"C\" __global__ void %s(const %s *__restrict__ in, %s *__restrict__ out,\n"
                 "%*sint h, int w%s)\n"
                 "{\n"
                 "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (x >= w || y >= h)\n        return;\n",
              entry, ty, ty, (int)strlen(entry) + 28, "", pitched ? ", int pitch" : "");
    emit_pixel(k, "    ", ch, u8, gauss, pitched, border, taps, rx == ry ? "RADIUS" : "RX", rx == ry ? "RADIUS" : "RY",
               "unsigned char");
    sb_append(k, "}\n");
    gen_launch(p, entry, "(w+31)/32,(h+7)/8", "32,8", NULL, pitched ? "in,out,h,w,pitch" : "in,out,h,w");
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-pixel-per-thread");
}

/* Normalized 1D Gaussian weights of radius r; integer version summing to 1024. */
static int gauss_weights(double sigma, double *w, int *wi)
{
    int r = (int)ceil(3 * sigma);
    double sum = 0;
    for (int k = -r; k <= r; k++)
        sum += (w[k + r] = exp(-(double)(k * k) / (2 * sigma * sigma)));
    int isum = 0;
    for (int k = 0; k <= 2 * r; k++) {
        w[k] /= sum;
        wi[k] = (int)floor(w[k] * 1024 + 0.5);
        isum += wi[k];
    }
    wi[r] += 1024 - isum;
    return r;
}

static int gen_blur(GenCtx *g, int fi, int layout, int border)
{
    const Filter *F = &FILTERS[fi];
    int u8 = layout == GRAY_U8 || layout == RGB_U8 || layout == RGBA_U8;
    int ch = layout == RGB_F32 || layout == RGB_U8 ? 3 : layout == RGBA_U8 ? 4 : 1;
    int blur_ch = ch == 4 ? 3 : ch;
    int pitched = layout == GRAY_F32_PITCH;
    const char *ty = u8 ? "uint8_t" : "float";
    const char *dt = u8 ? "u8" : "f32";
    double w[32];
    int wi[32];
    int rx = F->rx, ry = F->ry;
    if (F->gauss)
        rx = ry = gauss_weights(F->sigma, w, wi);
    int taps = (2 * rx + 1) * (2 * ry + 1);

    char variant[80], shape[32], flops[64], bytes[64], chs[8] = "";
    snprintf(variant, sizeof variant, "%s-%s-%s", F->tag, LAYOUT[layout], BORDER[border]);
    GenProgram *p = gen_begin(g, variant, F->gauss ? "gaussian_blur" : "box_blur");
    if (ch > 1)
        snprintf(chs, sizeof chs, ",%d", ch);
    if (F->gauss)
        gen_describe(p, "Gaussian blur, sigma %.1f (radius %d), %s image, border %s", F->sigma, rx, LAYOUT[layout],
                     BORDER_TEXT[border]);
    else
        gen_describe(p, "%d x %d box blur, %s image, border %s", 2 * rx + 1, 2 * ry + 1, LAYOUT[layout],
                     BORDER_TEXT[border]);
    snprintf(shape, sizeof shape, "h,%s%s", pitched ? "pitch" : "w", chs);
    gen_arg(p, "in", dt, "in", shape);
    snprintf(shape, sizeof shape, "h,w%s", chs);
    gen_arg(p, "out", dt, "out", shape);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    if (pitched)
        gen_arg(p, "pitch", "i32", "param", NULL);
    if (!u8)
        gen_fill_uniform(p, "in", 0.0, 1.0);
    const char *pc = pitched ? ",pitch=" : "";
    char cfg[96];
#define CFG(name, H, W, P)                                                                        \
    do {                                                                                          \
        if (pitched)                                                                              \
            snprintf(cfg, sizeof cfg, "h=%d,w=%d%s%d", H, W, pc, P);                              \
        else                                                                                      \
            snprintf(cfg, sizeof cfg, "h=%d,w=%d", H, W);                                         \
        gen_config(p, name, cfg);                                                                 \
    } while (0)
    CFG("small", 96, 128, 192);
    CFG("edge", 1, 1, 16);
    CFG("edge-prime", 13, 31, 37);
    CFG("edge-thin", 2, 257, 272);
    static const int LH[] = {8192, 16384, 4096, 8192, 8192, 8192};
    static const int LW[] = {8192, 8192, 4096, 8192, 4096, 8000};
    CFG("large", LH[layout], LW[layout], 8192);
#undef CFG
    snprintf(flops, sizeof flops, "%d*h*w", 2 * taps * blur_ch);
    snprintf(bytes, sizeof bytes, "%d*h*w", 2 * ch * (u8 ? 1 : 4));
    gen_cost(p, flops, bytes);

    StrBuf *s = gen_src(p);
    const char *img = ch == 1 ? "single-channel" : ch == 3 ? "interleaved RGB" : "interleaved RGBA";
    if (F->gauss)
        sb_printf(s, "/* Gaussian blur (sigma %.1f, radius %d) of an h x w %s %s image:\n"
                     " *     out(y, x) = sum_{dy,dx} g[dy] g[dx] in(y + dy, x + dx)\n",
                  F->sigma, rx, img, u8 ? "8-bit" : "float");
    else
        sb_printf(s, "/* %d x %d box blur of an h x w %s %s image: each output is the mean of\n"
                     " * the window centred on it.\n",
                  2 * rx + 1, 2 * ry + 1, img, u8 ? "8-bit" : "float");
    sb_printf(s, " * Border: %s.", BORDER_TEXT[border]);
    if (ch == 4)
        sb_append(s, "  Alpha is copied unchanged.");
    if (pitched)
        sb_append(s, "  Input rows are `pitch` elements apart.");
    if (u8 && F->gauss)
        sb_append(s, "\n * Weights are fixed point (each axis sums to 1024); the result is rounded.");
    else if (u8)
        sb_append(s, "  The mean is rounded to nearest.");
    sb_append(s, " */\n");
    sb_append(s, u8 ? "#include <stdint.h>\n\n" : "\n");
    emit_tables(s, F->gauss, u8, rx, ry, w, wi, "static const");
    const char *RXs = rx == ry ? "RADIUS" : "RX", *RYs = rx == ry ? "RADIUS" : "RY";
    emit_border_fn(s, border, 0);
    sb_printf(s, "void %s(const %s *in, %s *out, int h, int w%s)\n{\n", F->gauss ? "gaussian_blur" : "box_blur",
              ty, ty, pitched ? ", int pitch" : "");
    sb_append(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < w; x++) {\n");
    emit_pixel(s, "            ", ch, u8, F->gauss, pitched, border, taps, RXs, RYs, "uint8_t");
    sb_append(s, "        }\n    }\n}\n");
    emit_cuda(p, F->gauss ? "gaussian_blur" : "box_blur", ch, u8, F->gauss, pitched, border, taps, rx, ry, w, wi);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int f = 0; f < N_FILTERS; f++)
        for (int l = 0; l < N_LAYOUTS; l++)
            if (gen_blur(g, f, l, (f + l) % 3) != 0)
                return -1;
    return 0;
}

const Family family_blur = {"blur", "image", 54, generate};
