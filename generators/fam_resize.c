/* resize — image resampling between sizes given as params.  Programs vary by
 *   - method: nearest neighbour (top-left "floor" mapping or pixel-centre
 *     mapping), bilinear (half-pixel centres or aligned corners), bicubic
 *     (Keys, a = -0.75), area averaging by a fixed integer factor (dropping or
 *     keeping partial edge blocks) and general area resampling with
 *     fractional pixel coverage;
 *   - layout: single channel, interleaved RGB or RGBA, planar with a channel
 *     count param;
 *   - dtype: f32 or u8 (rounded to nearest; integer arithmetic where exact).
 * Configs cover both down- and upsampling. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

enum { NEAREST_FLOOR, NEAREST_CENTER, BILINEAR, BILINEAR_CORNERS, BICUBIC, AREA_INT, AREA_CEIL, AREA };
static const char *const METHOD[] = {"nearest",  "nearest-center", "bilinear", "bilinear-corners",
                                     "bicubic",  "area",           "area-ceil", "area-frac"};
enum { GRAY, RGB, RGBA, PLANAR };
static const char *const LAYOUT[] = {"gray", "rgb", "rgba", "planar"};
static const int LAYOUT_CH[] = {1, 3, 4, 1};

typedef struct Spec {
    int method, layout, u8, factor;
} Spec;

/* Each row: method, layout, u8, factor (area only). */
static const Spec SPECS[54] = {
    {NEAREST_FLOOR, GRAY, 0, 0},     {NEAREST_FLOOR, GRAY, 1, 0},     {NEAREST_FLOOR, RGB, 0, 0},
    {NEAREST_FLOOR, RGB, 1, 0},      {NEAREST_FLOOR, PLANAR, 0, 0},   {NEAREST_FLOOR, PLANAR, 1, 0},
    {NEAREST_CENTER, GRAY, 0, 0},    {NEAREST_CENTER, GRAY, 1, 0},    {NEAREST_CENTER, RGBA, 0, 0},
    {NEAREST_CENTER, RGBA, 1, 0},    {NEAREST_CENTER, PLANAR, 0, 0},  {NEAREST_CENTER, PLANAR, 1, 0},
    {BILINEAR, GRAY, 0, 0},          {BILINEAR, GRAY, 1, 0},          {BILINEAR, RGB, 0, 0},
    {BILINEAR, RGB, 1, 0},           {BILINEAR, RGBA, 0, 0},          {BILINEAR, RGBA, 1, 0},
    {BILINEAR, PLANAR, 0, 0},        {BILINEAR, PLANAR, 1, 0},        {BILINEAR_CORNERS, GRAY, 0, 0},
    {BILINEAR_CORNERS, GRAY, 1, 0},  {BILINEAR_CORNERS, RGB, 0, 0},   {BILINEAR_CORNERS, RGB, 1, 0},
    {BILINEAR_CORNERS, PLANAR, 0, 0}, {BILINEAR_CORNERS, PLANAR, 1, 0}, {BICUBIC, GRAY, 0, 0},
    {BICUBIC, GRAY, 1, 0},           {BICUBIC, RGB, 0, 0},            {BICUBIC, RGB, 1, 0},
    {BICUBIC, PLANAR, 0, 0},         {BICUBIC, PLANAR, 1, 0},         {AREA_INT, GRAY, 0, 2},
    {AREA_INT, GRAY, 1, 2},          {AREA_INT, RGB, 0, 2},           {AREA_INT, RGB, 1, 2},
    {AREA_INT, PLANAR, 0, 2},        {AREA_INT, PLANAR, 1, 2},        {AREA_INT, GRAY, 0, 3},
    {AREA_INT, GRAY, 1, 4},          {AREA_INT, RGB, 1, 4},           {AREA_INT, RGB, 0, 3},
    {AREA_INT, PLANAR, 0, 4},        {AREA_INT, RGBA, 1, 2},          {AREA_CEIL, GRAY, 0, 2},
    {AREA_CEIL, GRAY, 1, 2},         {AREA_CEIL, RGB, 1, 2},          {AREA_CEIL, PLANAR, 0, 3},
    {AREA, GRAY, 0, 0},              {AREA, GRAY, 1, 0},              {AREA, RGB, 0, 0},
    {AREA, RGB, 1, 0},               {AREA, PLANAR, 0, 0},            {AREA, PLANAR, 1, 0},
};

/* The input (src) or output (dst) element at row `y`, column `x`, channel c. */
static const char *px(char *buf, const Spec *S, int is_in, const char *y, const char *x)
{
    const char *arr = S->layout == PLANAR ? (is_in ? "src" : "dst") : (is_in ? "in" : "out");
    const char *w = is_in ? "in_w" : "out_w";
    char yp[48];
    if (strchr(y, ' ')) {
        snprintf(yp, sizeof yp, "(%s)", y);
        y = yp;
    }
    if (LAYOUT_CH[S->layout] > 1)
        snprintf(buf, 96, "%s[(%s * %s + %s) * %d + c]", arr, y, w, x, LAYOUT_CH[S->layout]);
    else
        snprintf(buf, 96, "%s[%s * %s + %s]", arr, y, w, x);
    return buf;
}

/* u8: the 8-bit type's spelling (uint8_t in C, unsigned char in kernel.cu). */
static void emit_store(StrBuf *s, const Spec *S, const char *ind, const char *val, int round, const char *u8)
{
    char o[96];
    px(o, S, 0, "y", "x");
    if (!S->u8)
        sb_printf(s, "%s%s = %s;\n", ind, o, val);
    else if (round == 1)
        sb_printf(s, "%s%s = (%s)(%s + 0.5f);\n", ind, o, u8, val);
    else if (round == 2)
        sb_printf(s, "%s%s = (%s)(%s + 0.5);\n", ind, o, u8, val);
    else
        sb_printf(s, "%s%s = %s;\n", ind, o, val);
}

/* Opens the channel loop of interleaved layouts; returns the inner indent. */
static const char *open_channels(StrBuf *s, const Spec *S, const char *ind, const char *ind2)
{
    if (LAYOUT_CH[S->layout] == 1)
        return ind;
    sb_printf(s, "%sfor (int c = 0; c < %d; c++) {\n", ind, LAYOUT_CH[S->layout]);
    return ind2;
}

static void close_channels(StrBuf *s, const Spec *S, const char *ind)
{
    if (LAYOUT_CH[S->layout] > 1)
        sb_printf(s, "%s}\n", ind);
}

/* The source coordinate of a pixel centre, (y + 1/2) * in_h / out_h - 1/2,
 * as one integer numerator over one integer denominator: a single rounding
 * (int to float conversions are exact at image sizes, and the division is
 * correctly rounded in C and in CUDA alike).  Written as a multiply and a
 * subtract, nvcc contracts it into an FMA and C does not: one ulp of a
 * coordinate near 3,000 moves the interpolation weight by 2.4e-4, past the
 * tolerance, so the large config's reference CUDA implementation failed on
 * the GPU (device run 28). */
#define HALF_PIXEL_Y "(float)((2 * y + 1) * in_h - out_h) / (2 * out_h)"
#define HALF_PIXEL_X "(float)((2 * x + 1) * in_w - out_w) / (2 * out_w)"

static void emit_body(StrBuf *s, const Spec *S)
{
    const char *acc = S->u8 ? "float" : "float";
    const char *I2 = "        ", *I3 = "            ", *I4 = "                ";
    char a[96], b[96], c[96], d[96];
    switch (S->method) {
    case NEAREST_FLOOR:
    case NEAREST_CENTER:
        sb_append(s, "    for (int y = 0; y < out_h; y++) {\n");
        if (S->method == NEAREST_FLOOR)
            sb_append(s, "        int sy = y * in_h / out_h;\n        for (int x = 0; x < out_w; x++) {\n"
                         "            int sx = x * in_w / out_w;\n");
        else
            sb_append(s, "        int sy = (2 * y + 1) * in_h / (2 * out_h);\n"
                         "        for (int x = 0; x < out_w; x++) {\n"
                         "            int sx = (2 * x + 1) * in_w / (2 * out_w);\n");
        {
            const char *I = open_channels(s, S, I3, I4);
            px(b, S, 0, "y", "x");
            sb_printf(s, "%s%s = %s;\n", I, b, px(a, S, 1, "sy", "sx"));
            close_channels(s, S, I3);
        }
        sb_append(s, "        }\n    }\n");
        break;
    case BILINEAR:
    case BILINEAR_CORNERS:
        if (S->method == BILINEAR_CORNERS) /* half-pixel centres need no scale: HALF_PIXEL_Y */
            sb_append(s, "    const float sy = out_h > 1 ? (float)(in_h - 1) / (out_h - 1) : 0;\n"
                         "    const float sx = out_w > 1 ? (float)(in_w - 1) / (out_w - 1) : 0;\n");
        sb_append(s, "    for (int y = 0; y < out_h; y++) {\n");
        if (S->method == BILINEAR)
            sb_append(s, "        float fy = " HALF_PIXEL_Y ";\n        if (fy < 0)\n            fy = 0;\n");
        else
            sb_append(s, "        float fy = y * sy;\n");
        sb_append(s, "        int y0 = (int)fy;\n        if (y0 > in_h - 1)\n            y0 = in_h - 1;\n"
                     "        int y1 = y0 < in_h - 1 ? y0 + 1 : y0;\n        float wy = fy - y0;\n"
                     "        for (int x = 0; x < out_w; x++) {\n");
        if (S->method == BILINEAR)
            sb_append(s, "            float fx = " HALF_PIXEL_X ";\n            if (fx < 0)\n                fx = 0;\n");
        else
            sb_append(s, "            float fx = x * sx;\n");
        sb_append(s, "            int x0 = (int)fx;\n            if (x0 > in_w - 1)\n                x0 = in_w - 1;\n"
                     "            int x1 = x0 < in_w - 1 ? x0 + 1 : x0;\n            float wx = fx - x0;\n");
        {
            const char *I = open_channels(s, S, I3, I4);
            sb_printf(s, "%sfloat top = (1 - wx) * %s + wx * %s;\n", I, px(a, S, 1, "y0", "x0"),
                      px(b, S, 1, "y0", "x1"));
            sb_printf(s, "%sfloat bottom = (1 - wx) * %s + wx * %s;\n", I, px(c, S, 1, "y1", "x0"),
                      px(d, S, 1, "y1", "x1"));
            emit_store(s, S, I, "(1 - wy) * top + wy * bottom", 1, "uint8_t");
            close_channels(s, S, I3);
        }
        sb_append(s, "        }\n    }\n");
        break;
    case BICUBIC:
        sb_append(s, "    for (int y = 0; y < out_h; y++) {\n"
                     "        float fy = " HALF_PIXEL_Y ";\n        int iy = (int)floorf(fy);\n"
                     "        float wy[4];\n        for (int k = 0; k < 4; k++)\n"
                     "            wy[k] = cubic(fy - (iy + k - 1));\n"
                     "        for (int x = 0; x < out_w; x++) {\n"
                     "            float fx = " HALF_PIXEL_X ";\n            int ix = (int)floorf(fx);\n"
                     "            float wx[4];\n            for (int k = 0; k < 4; k++)\n"
                     "                wx[k] = cubic(fx - (ix + k - 1));\n");
        {
            const char *I = open_channels(s, S, I3, I4);
            sb_printf(s, "%s%s v = 0;\n%sfor (int m = 0; m < 4; m++) {\n", I, acc, I);
            sb_printf(s, "%s    int yy = clampi(iy + m - 1, in_h);\n%s    for (int k = 0; k < 4; k++)\n", I, I);
            sb_printf(s, "%s        v += wy[m] * wx[k] * %s;\n%s}\n", I, px(a, S, 1, "yy", "clampi(ix + k - 1, in_w)"), I);
            if (S->u8) {
                sb_printf(s, "%sv = v < 0 ? 0 : (v > 255 ? 255 : v);\n", I);
                emit_store(s, S, I, "v", 1, "uint8_t");
            } else {
                emit_store(s, S, I, "v", 0, "uint8_t");
            }
            close_channels(s, S, I3);
        }
        sb_append(s, "        }\n    }\n");
        break;
    case AREA_INT:
    case AREA_CEIL: {
        int f = S->factor;
        sb_append(s, "    for (int y = 0; y < out_h; y++) {\n        for (int x = 0; x < out_w; x++) {\n");
        const char *I = open_channels(s, S, I3, I4);
        sb_printf(s, "%s%s sum = 0;\n", I, S->u8 ? "int" : "float");
        if (S->method == AREA_INT) {
            sb_printf(s, "%sfor (int dy = 0; dy < F; dy++)\n%s    for (int dx = 0; dx < F; dx++)\n", I, I);
            sb_printf(s, "%s        sum += %s;\n", I, px(a, S, 1, "y * F + dy", "x * F + dx"));
            if (S->u8)
                sb_printf(s, "%s%s = (uint8_t)((sum + F * F / 2) / (F * F));\n", I, px(b, S, 0, "y", "x"));
            else
                sb_printf(s, "%s%s = sum / (F * F);\n", I, px(b, S, 0, "y", "x"));
        } else {
            sb_printf(s, "%sint count = 0;\n", I);
            sb_printf(s, "%sfor (int yy = y * F; yy < y * F + F && yy < in_h; yy++) {\n", I);
            sb_printf(s, "%s    for (int xx = x * F; xx < x * F + F && xx < in_w; xx++) {\n", I);
            sb_printf(s, "%s        sum += %s;\n%s        count++;\n%s    }\n%s}\n", I, px(a, S, 1, "yy", "xx"), I, I, I);
            if (S->u8)
                sb_printf(s, "%s%s = (uint8_t)((sum + count / 2) / count);\n", I, px(b, S, 0, "y", "x"));
            else
                sb_printf(s, "%s%s = sum / count;\n", I, px(b, S, 0, "y", "x"));
        }
        (void)f;
        close_channels(s, S, I3);
        sb_append(s, "        }\n    }\n");
        break;
    }
    case AREA:
        sb_append(s, "    const double sy = (double)in_h / out_h, sx = (double)in_w / out_w;\n"
                     "    for (int y = 0; y < out_h; y++) {\n"
                     "        double y_begin = y * sy, y_end = (y + 1) * sy;\n"
                     "        for (int x = 0; x < out_w; x++) {\n"
                     "            double x_begin = x * sx, x_end = (x + 1) * sx;\n");
        {
            const char *I = open_channels(s, S, I3, I4);
            sb_printf(s, "%sdouble sum = 0;\n", I);
            sb_printf(s, "%sfor (int yy = (int)y_begin; yy < in_h && yy < y_end; yy++) {\n", I);
            sb_printf(s, "%s    double wy = fmin(y_end, yy + 1) - fmax(y_begin, yy);\n", I);
            sb_printf(s, "%s    for (int xx = (int)x_begin; xx < in_w && xx < x_end; xx++) {\n", I);
            sb_printf(s, "%s        double wx = fmin(x_end, xx + 1) - fmax(x_begin, xx);\n", I);
            sb_printf(s, "%s        sum += wy * wx * %s;\n%s    }\n%s}\n", I, px(a, S, 1, "yy", "xx"), I, I);
            if (S->u8)
                emit_store(s, S, I, "sum / (sy * sx)", 2, "uint8_t");
            else
                emit_store(s, S, I, "(float)(sum / (sy * sx))", 0, "uint8_t");
            close_channels(s, S, I3);
        }
        sb_append(s, "        }\n    }\n");
        break;
    }
    (void)I2;
}

/* ---- the pair ---- */

/* The CUDA body of output pixel (y, x) (all its channels), indented by 4:
 * the program's per-row and per-column source coordinates computed per
 * thread, then the same per-channel arithmetic. */
static void emit_pixel_cuda(StrBuf *k, const Spec *S)
{
    const char *I = "    ", *I2 = "        ", *u8 = "unsigned char";
    char a[96], b[96], c[96], d[96];
    switch (S->method) {
    case NEAREST_FLOOR:
    case NEAREST_CENTER:
        if (S->method == NEAREST_FLOOR)
            sb_append(k, "    const int sy = y * in_h / out_h;\n    const int sx = x * in_w / out_w;\n");
        else
            sb_append(k, "    const int sy = (2 * y + 1) * in_h / (2 * out_h);\n"
                         "    const int sx = (2 * x + 1) * in_w / (2 * out_w);\n");
        I = open_channels(k, S, I, I2);
        sb_printf(k, "%s%s = %s;\n", I, px(b, S, 0, "y", "x"), px(a, S, 1, "sy", "sx"));
        break;
    case BILINEAR:
    case BILINEAR_CORNERS:
        if (S->method == BILINEAR)
            sb_append(k, "    float fy = " HALF_PIXEL_Y ";\n    if (fy < 0)\n        fy = 0;\n"
                         "    float fx = " HALF_PIXEL_X ";\n    if (fx < 0)\n        fx = 0;\n");
        else
            sb_append(k, "    const float sy = out_h > 1 ? (float)(in_h - 1) / (out_h - 1) : 0;\n"
                         "    const float sx = out_w > 1 ? (float)(in_w - 1) / (out_w - 1) : 0;\n"
                         "    const float fy = y * sy;\n    const float fx = x * sx;\n");
        sb_append(k, "    int y0 = (int)fy;\n    if (y0 > in_h - 1)\n        y0 = in_h - 1;\n"
                     "    const int y1 = y0 < in_h - 1 ? y0 + 1 : y0;\n    const float wy = fy - y0;\n"
                     "    int x0 = (int)fx;\n    if (x0 > in_w - 1)\n        x0 = in_w - 1;\n"
                     "    const int x1 = x0 < in_w - 1 ? x0 + 1 : x0;\n    const float wx = fx - x0;\n");
        I = open_channels(k, S, I, I2);
        sb_printf(k, "%sconst float top = (1 - wx) * %s + wx * %s;\n", I, px(a, S, 1, "y0", "x0"),
                  px(b, S, 1, "y0", "x1"));
        sb_printf(k, "%sconst float bottom = (1 - wx) * %s + wx * %s;\n", I, px(c, S, 1, "y1", "x0"),
                  px(d, S, 1, "y1", "x1"));
        emit_store(k, S, I, "(1 - wy) * top + wy * bottom", 1, u8);
        break;
    case BICUBIC:
        sb_append(k, "    const float fy = " HALF_PIXEL_Y ";\n    const int iy = (int)floorf(fy);\n"
                     "    const float fx = " HALF_PIXEL_X ";\n    const int ix = (int)floorf(fx);\n"
                     "    float wy[4], wx[4];\n    for (int k = 0; k < 4; k++) {\n"
                     "        wy[k] = cubic(fy - (iy + k - 1));\n        wx[k] = cubic(fx - (ix + k - 1));\n    }\n");
        I = open_channels(k, S, I, I2);
        sb_printf(k, "%sfloat v = 0;\n%sfor (int m = 0; m < 4; m++) {\n", I, I);
        sb_printf(k, "%s    const int yy = clampi(iy + m - 1, in_h);\n%s    for (int k = 0; k < 4; k++)\n", I, I);
        sb_printf(k, "%s        v += wy[m] * wx[k] * %s;\n%s}\n", I, px(a, S, 1, "yy", "clampi(ix + k - 1, in_w)"), I);
        if (S->u8)
            sb_printf(k, "%sv = v < 0 ? 0 : (v > 255 ? 255 : v);\n", I);
        emit_store(k, S, I, "v", S->u8 ? 1 : 0, u8);
        break;
    case AREA_INT:
    case AREA_CEIL:
        I = open_channels(k, S, I, I2);
        sb_printf(k, "%s%s sum = 0;\n", I, S->u8 ? "int" : "float");
        if (S->method == AREA_INT) {
            sb_printf(k, "%sfor (int dy = 0; dy < F; dy++)\n%s    for (int dx = 0; dx < F; dx++)\n", I, I);
            sb_printf(k, "%s        sum += %s;\n", I, px(a, S, 1, "y * F + dy", "x * F + dx"));
            if (S->u8)
                sb_printf(k, "%s%s = (%s)((sum + F * F / 2) / (F * F));\n", I, px(b, S, 0, "y", "x"), u8);
            else
                sb_printf(k, "%s%s = sum / (F * F);\n", I, px(b, S, 0, "y", "x"));
        } else {
            sb_printf(k, "%sint count = 0;\n", I);
            sb_printf(k, "%sfor (int yy = y * F; yy < y * F + F && yy < in_h; yy++) {\n", I);
            sb_printf(k, "%s    for (int xx = x * F; xx < x * F + F && xx < in_w; xx++) {\n", I);
            sb_printf(k, "%s        sum += %s;\n%s        count++;\n%s    }\n%s}\n", I, px(a, S, 1, "yy", "xx"), I, I, I);
            if (S->u8)
                sb_printf(k, "%s%s = (%s)((sum + count / 2) / count);\n", I, px(b, S, 0, "y", "x"), u8);
            else
                sb_printf(k, "%s%s = sum / count;\n", I, px(b, S, 0, "y", "x"));
        }
        break;
    case AREA:
        sb_append(k, "    const double sy = (double)in_h / out_h, sx = (double)in_w / out_w;\n"
                     "    const double y_begin = y * sy, y_end = (y + 1) * sy;\n"
                     "    const double x_begin = x * sx, x_end = (x + 1) * sx;\n");
        I = open_channels(k, S, I, I2);
        sb_printf(k, "%sdouble sum = 0;\n", I);
        sb_printf(k, "%sfor (int yy = (int)y_begin; yy < in_h && yy < y_end; yy++) {\n", I);
        sb_printf(k, "%s    const double wy = fmin(y_end, yy + 1) - fmax(y_begin, yy);\n", I);
        sb_printf(k, "%s    for (int xx = (int)x_begin; xx < in_w && xx < x_end; xx++) {\n", I);
        sb_printf(k, "%s        const double wx = fmin(x_end, xx + 1) - fmax(x_begin, xx);\n", I);
        sb_printf(k, "%s        sum += wy * wx * %s;\n%s    }\n%s}\n", I, px(a, S, 1, "yy", "xx"), I, I);
        if (S->u8)
            emit_store(k, S, I, "sum / (sy * sx)", 2, u8);
        else
            emit_store(k, S, I, "(float)(sum / (sy * sx))", 0, u8);
        break;
    }
    close_channels(k, S, "    ");
}

/* The pair: one thread per output pixel (all its interleaved channels) on
 * 32x8 blocks, x along threadIdx.x; a planar image takes one blockIdx.z
 * per channel plane. */
static void emit_cuda(GenProgram *p, const Spec *S, const char *outh, const char *outw)
{
    StrBuf *k = gen_cuda_src(p);
    int planar = S->layout == PLANAR, area_fixed = S->method == AREA_INT || S->method == AREA_CEIL;
    const char *ty = S->u8 ? "unsigned char" : "float";
    if (area_fixed)
        sb_printf(k, "enum { F = %d };\n\n", S->factor);
    if (S->method == BICUBIC)
        sb_append(k, "static __device__ int clampi(int i, int n)\n{\n    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n"
                     "/* Keys cubic convolution kernel with a = -0.75. */\n"
                     "static __device__ float cubic(float t)\n{\n    const float a = -0.75f;\n    t = fabsf(t);\n"
                     "    if (t <= 1)\n        return ((a + 2) * t - (a + 3)) * t * t + 1;\n"
                     "    if (t < 2)\n        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;\n"
                     "    return 0;\n}\n\n");
    sb_printf(k, "/* One thread per output pixel%s. */\n", planar ? ", one blockIdx.z per channel plane" : "");
    sb_printf(k, "extern \"C\" __global__ void resize(const %s *__restrict__ in, %s *__restrict__ out, %sint in_h,\n"
                 "                                   int in_w%s)\n{\n",
              ty, ty, planar ? "int channels, " : "", area_fixed ? "" : ", int out_h, int out_w");
    if (S->method == AREA_INT)
        sb_append(k, "    const int out_h = in_h / F, out_w = in_w / F;\n");
    else if (S->method == AREA_CEIL)
        sb_append(k, "    const int out_h = (in_h + F - 1) / F, out_w = (in_w + F - 1) / F;\n");
    sb_append(k, "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (x >= out_w || y >= out_h)\n        return;\n");
    if (planar)
        sb_printf(k, "    const int c = blockIdx.z;\n"
                     "    const %s *src = in + (long long)c * in_h * in_w;\n"
                     "    %s *dst = out + (long long)c * out_h * out_w;\n", ty, ty);
    emit_pixel_cuda(k, S);
    sb_append(k, "}\n");
    char grid[96], args[96];
    snprintf(grid, sizeof grid, "(%s+31)/32,(%s+7)/8%s", outw, outh, planar ? ",channels" : "");
    snprintf(args, sizeof args, "in,out,%sin_h,in_w%s", planar ? "channels," : "", area_fixed ? "" : ",out_h,out_w");
    gen_launch(p, "resize", grid, "32,8", NULL, args);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", planar ? "one-pixel-per-thread, one plane per blockIdx.z" : "one-pixel-per-thread");
}

/* Sizes: the large config's input holds about 2^28 bytes (256 MiB). */
static void configs(GenProgram *p, const Spec *S, int idx)
{
    int planar = S->layout == PLANAR;
    int bpp = LAYOUT_CH[S->layout] * (S->u8 ? 1 : 4) * (planar ? 3 : 1);
    int H = 8192, W = (int)((1LL << 28) / bpp / H);
    if (W > 16384) {
        H = 16384;
        W = 16384;
    }
    W -= W % 64;
    char buf[160];
    const char *cp = planar ? "channels=3," : "";
    if (S->method == AREA_INT || S->method == AREA_CEIL) {
        snprintf(buf, sizeof buf, "%sin_h=240,in_w=320", cp);
        gen_config(p, "small", buf);
        snprintf(buf, sizeof buf, "%sin_h=%d,in_w=%d", planar ? "channels=1," : "", S->factor, S->factor);
        gen_config(p, "edge", buf);
        snprintf(buf, sizeof buf, "%sin_h=%d,in_w=%d", cp, 13 * S->factor + 1, 37 * S->factor + S->factor - 1);
        gen_config(p, "edge-prime", buf);
        snprintf(buf, sizeof buf, "%sin_h=%d,in_w=%d", cp, H, W);
        gen_config(p, "large", buf);
        return;
    }
    snprintf(buf, sizeof buf, "%sin_h=240,in_w=320,out_h=100,out_w=130", cp);
    gen_config(p, "small", buf);
    snprintf(buf, sizeof buf, "%sin_h=45,in_w=61,out_h=128,out_w=160", cp);
    gen_config(p, "up", buf);
    snprintf(buf, sizeof buf, "%sin_h=1,in_w=1,out_h=3,out_w=2", planar ? "channels=1," : "");
    gen_config(p, "edge", buf);
    snprintf(buf, sizeof buf, "%sin_h=37,in_w=53,out_h=17,out_w=101", cp);
    gen_config(p, "edge-prime", buf);
    snprintf(buf, sizeof buf, "%sin_h=29,in_w=31,out_h=1,out_w=1", cp);
    gen_config(p, "edge-to-1x1", buf);
    if (idx % 2 == 0)
        snprintf(buf, sizeof buf, "%sin_h=%d,in_w=%d,out_h=%d,out_w=%d", cp, H, W, H * 3 / 8 + 1, W * 3 / 8 + 3);
    else
        snprintf(buf, sizeof buf, "%sin_h=%d,in_w=%d,out_h=%d,out_w=%d", cp, H / 2, W / 2, H, W);
    gen_config(p, "large", buf);
}

static int gen_resize(GenCtx *g, const Spec *S, int idx)
{
    char variant[80], shape[64], tmp[64];
    int ch = LAYOUT_CH[S->layout], planar = S->layout == PLANAR;
    const char *dt = S->u8 ? "u8" : "f32", *ty = S->u8 ? "uint8_t" : "float";
    int area_fixed = S->method == AREA_INT || S->method == AREA_CEIL;
    if (area_fixed)
        snprintf(variant, sizeof variant, "%s-x%d-%s-%s", METHOD[S->method], S->factor, LAYOUT[S->layout], dt);
    else
        snprintf(variant, sizeof variant, "%s-%s-%s", METHOD[S->method], LAYOUT[S->layout], dt);
    GenProgram *p = gen_begin(g, variant, "resize");
    static const char *const MTEXT[] = {
        "nearest-neighbour resize (source index floor(x * in / out))",
        "nearest-neighbour resize (pixel centres mapped)",
        "bilinear resize with half-pixel centres",
        "bilinear resize with aligned corners",
        "bicubic resize (Keys, a = -0.75) with half-pixel centres",
        "area downsampling by an integer factor (partial blocks dropped)",
        "area downsampling by an integer factor (partial edge blocks averaged)",
        "area resampling with fractional pixel coverage"};
    static const char *const LTEXT[] = {"single-channel", "interleaved RGB", "interleaved RGBA", "planar multi-channel"};
    gen_describe(p, "%s, %s %s image", MTEXT[S->method], LTEXT[S->layout], dt);
    char outh[32], outw[32];
    if (area_fixed) {
        if (S->method == AREA_INT) {
            snprintf(outh, sizeof outh, "in_h/%d", S->factor);
            snprintf(outw, sizeof outw, "in_w/%d", S->factor);
        } else {
            snprintf(outh, sizeof outh, "(in_h+%d)/%d", S->factor - 1, S->factor);
            snprintf(outw, sizeof outw, "(in_w+%d)/%d", S->factor - 1, S->factor);
        }
    } else {
        snprintf(outh, sizeof outh, "out_h");
        snprintf(outw, sizeof outw, "out_w");
    }
    if (ch > 1)
        snprintf(tmp, sizeof tmp, ",%d", ch);
    else
        tmp[0] = '\0';
    snprintf(shape, sizeof shape, "%sin_h,in_w%s", planar ? "channels," : "", tmp);
    gen_arg(p, "in", dt, "in", shape);
    snprintf(shape, sizeof shape, "%s%s,%s%s", planar ? "channels," : "", outh, outw, tmp);
    gen_arg(p, "out", dt, "out", shape);
    if (planar)
        gen_arg(p, "channels", "i32", "param", NULL);
    gen_arg(p, "in_h", "i32", "param", NULL);
    gen_arg(p, "in_w", "i32", "param", NULL);
    if (!area_fixed) {
        gen_arg(p, "out_h", "i32", "param", NULL);
        gen_arg(p, "out_w", "i32", "param", NULL);
    }
    if (!S->u8)
        gen_fill_uniform(p, "in", 0.0, 1.0);
    configs(p, S, idx);
    static const int FLOPS[] = {0, 0, 9, 9, 50, 0, 0, 0};
    char flops[96], bytes[128];
    const char *chmul = planar ? "channels*" : "";
    int sz = S->u8 ? 1 : 4;
    if (area_fixed)
        snprintf(flops, sizeof flops, "%s%d*in_h*in_w", chmul, ch);
    else if (S->method == AREA)
        snprintf(flops, sizeof flops, "%s%d*(in_h*in_w+out_h*out_w)", chmul, 3 * ch);
    else
        snprintf(flops, sizeof flops, "%s%d*out_h*out_w", chmul, FLOPS[S->method] * ch);
    snprintf(bytes, sizeof bytes, "%s%d*(in_h*in_w+%s*%s)", chmul, sz * ch, outh, outw);
    gen_cost(p, flops, bytes);
    if (S->u8 && (S->method == BILINEAR || S->method == BILINEAR_CORNERS || S->method == BICUBIC ||
                  S->method == AREA))
        gen_tolerance(p, 1, 0);
    else if (!S->u8 && S->method == BICUBIC)
        gen_tolerance(p, 2e-5, 1e-4);

    StrBuf *s = gen_src(p);
    char ms[128];
    snprintf(ms, sizeof ms, "%s", MTEXT[S->method]);
    ms[0] = (char)(ms[0] - 'a' + 'A');
    const char *img = S->layout == GRAY ? "single-channel" : S->layout == RGB ? "interleaved RGB"
                    : S->layout == RGBA ? "interleaved RGBA" : "planar (one plane per channel)";
    if (area_fixed)
        sb_printf(s, "/* %s:\n * an in_h x in_w %s %s image shrunk %d times in each direction,\n"
                     " * each output the mean of its %d x %d block.",
                  ms, img, S->u8 ? "8-bit" : "float", S->factor, S->factor, S->factor);
    else
        sb_printf(s, "/* %s\n * of an in_h x in_w %s %s image to out_h x out_w.", ms, img, S->u8 ? "8-bit" : "float");
    if (S->method == BILINEAR || S->method == BICUBIC)
        sb_append(s, "\n * Source coordinate of output x: (x + 0.5) * in_w / out_w - 0.5.");
    if (S->method == BILINEAR_CORNERS)
        sb_append(s, "\n * Corner pixels map to corner pixels: x * (in_w - 1) / (out_w - 1).");
    if (S->method == BICUBIC)
        sb_append(s, "\n * Taps outside the image are clamped to the edge.");
    if (S->method == AREA)
        sb_append(s, "\n * Each output averages the input area it covers, weighting partly covered pixels\n"
                     " * by their covered fraction.");
    if (S->u8 && !(S->method == NEAREST_FLOOR || S->method == NEAREST_CENTER))
        sb_append(s, "\n * Results are rounded to nearest.");
    sb_append(s, " */\n");
    int inc_math = S->method == BICUBIC || S->method == AREA;
    if (inc_math)
        sb_append(s, "#include <math.h>\n");
    if (planar)
        sb_append(s, "#include <stddef.h>\n");
    if (S->u8)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    if (area_fixed)
        sb_printf(s, "enum { F = %d };\n\n", S->factor);
    if (S->method == BICUBIC) {
        sb_append(s, "static int clampi(int i, int n)\n{\n    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n"
                     "/* Keys cubic convolution kernel with a = -0.75. */\n"
                     "static float cubic(float t)\n{\n    const float a = -0.75f;\n    t = fabsf(t);\n"
                     "    if (t <= 1)\n        return ((a + 2) * t - (a + 3)) * t * t + 1;\n"
                     "    if (t < 2)\n        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;\n"
                     "    return 0;\n}\n\n");
    }
    /* Signature. */
    sb_printf(s, "void resize(const %s *in, %s *out, %sint in_h, int in_w%s)\n{\n", ty, ty, planar ? "int channels, " : "",
              area_fixed ? "" : ", int out_h, int out_w");
    if (area_fixed) {
        if (S->method == AREA_INT)
            sb_append(s, "    const int out_h = in_h / F, out_w = in_w / F;\n");
        else
            sb_append(s, "    const int out_h = (in_h + F - 1) / F, out_w = (in_w + F - 1) / F;\n");
    }
    if (planar) {
        sb_printf(s, "    for (int c = 0; c < channels; c++) {\n"
                     "        const %s *src = in + (size_t)c * in_h * in_w;\n"
                     "        %s *dst = out + (size_t)c * out_h * out_w;\n", ty, ty);
        StrBuf inner = STRBUF_INIT;
        emit_body(&inner, S);
        /* Indent the body one level inside the plane loop. */
        const char *q = sb_str(&inner);
        while (*q) {
            const char *e = strchr(q, '\n');
            size_t n = e ? (size_t)(e - q + 1) : strlen(q);
            if (n > 1)
                sb_append(s, "    ");
            sb_append_n(s, q, n);
            q += n;
        }
        sb_release(&inner);
        sb_append(s, "    }\n");
    } else {
        emit_body(s, S);
    }
    sb_append(s, "}\n");
    emit_cuda(p, S, outh, outw);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int i = 0; i < 54; i++)
        if (gen_resize(g, &SPECS[i], i) != 0)
            return -1;
    return 0;
}

const Family family_resize = {"resize", "image", 54, generate};
