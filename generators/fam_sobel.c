/* sobel — edge detectors on single-channel images.  Programs vary by
 *   - operator: 3x3 Sobel, Scharr and Prewitt, 5x5 Sobel, 2x2 Roberts cross
 *     (gradients), 4- and 8-neighbour Laplacians and a 5x5 Laplacian of
 *     Gaussian;
 *   - output: the gradient pair (f32, f64 or i16), L2 or L1 magnitude, magnitude
 *     and direction (atan2), a thresholded binary edge map, a saturated 8-bit
 *     absolute response, and Canny-style non-maximum suppression;
 *   - input type: f32, f64 or u8 (u8 inputs use exact integer arithmetic);
 *   - border: clamped, mirrored about the edge pixel, zero outside, or border
 *     pixels skipped (set to 0). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

enum { SOBEL3, SCHARR, PREWITT, SOBEL5, ROBERTS, N_GRAD_OPS };
enum { LAP4, LAP8, LOG5, N_LAP_OPS };
static const char *const GRAD_NAME[] = {"sobel3", "scharr", "prewitt", "sobel5", "roberts"};
static const char *const GRAD_TEXT[] = {"3x3 Sobel", "3x3 Scharr", "3x3 Prewitt", "5x5 Sobel", "2x2 Roberts cross"};
static const char *const GRAD_ENTRY[] = {"sobel", "scharr", "prewitt", "sobel5x5", "roberts"};
static const char *const LAP_NAME[] = {"laplace4", "laplace8", "log5"};
static const char *const LAP_TEXT[] = {"4-neighbour Laplacian", "8-neighbour Laplacian",
                                       "5x5 Laplacian of Gaussian"};
/* Threshold near the median gradient magnitude of uniform 8-bit noise, and the
 * shift that keeps the saturated |gx| + |gy| response mostly below 255. */
static const int GRAD_THRESHOLD[] = {300, 1330, 212, 2300, 122};
static const int GRAD_SHIFT[] = {2, 5, 2, 6, 1};
static const int LAP_SHIFT[] = {2, 3, 4};

enum { GXGY_F32, MAG_L2_F32, MAG_L1_U8, MAG_DIR_U8, THRESH_U8, GXGY_I16, ABS_U8, MAG_L2_F64, N_GRAD_KINDS };
static const char *const GRAD_KIND[] = {"gxgy-f32", "mag-l2-f32", "mag-l1-u8in", "mag-dir-u8in",
                                        "threshold-u8", "gxgy-i16", "abs-u8", "mag-l2-f64"};
enum { LAP_F32, LAP_I16, LAP_ABS_U8, LAP_F64, N_LAP_KINDS };
static const char *const LAP_KIND[] = {"f32", "i16", "abs-u8", "f64"};

enum { CLAMP, REFLECT101, ZERO, SKIP };
static const char *const BORDER[] = {"clamp", "reflect101", "zero", "skip"};
static const char *const BORDER_TEXT[] = {"clamped border (edge pixels repeated)",
                                          "border mirrored about the edge pixel",
                                          "zero outside the image",
                                          "border pixels without a full window set to 0"};

typedef struct Types {
    const char *in, *acc, *dt;
} Types;

static Types types_for(int in_kind) /* 0 f32, 1 u8, 2 f64 */
{
    if (in_kind == 1)
        return (Types){"uint8_t", "int", "u8"};
    if (in_kind == 2)
        return (Types){"double", "double", "f64"};
    return (Types){"float", "float", "f32"};
}

static void emit_table(StrBuf *s, const char *name, int n, const int *k)
{
    sb_printf(s, "static const int %s[%d][%d] = {", name, n, n);
    for (int i = 0; i < n; i++) {
        sb_append(s, i ? ",\n" : "");
        if (i)
            sb_printf(s, "%*s", (int)strlen(name) + 27, "");
        sb_append(s, "{");
        for (int j = 0; j < n; j++)
            sb_printf(s, "%s%d", j ? ", " : "", k[i * n + j]);
        sb_append(s, "}");
    }
    sb_append(s, "};\n");
}

static void emit_pixel_helper(StrBuf *s, int border, const Types *T)
{
    if (border == SKIP)
        return;
    if (border == CLAMP)
        sb_append(s, "static int clampi(int i, int n)\n{\n    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n");
    if (border == REFLECT101)
        sb_append(s, "/* Index i reflected into [0, n) about the edge samples. */\n"
                     "static int reflect101(int i, int n)\n{\n"
                     "    if (n == 1)\n        return 0;\n"
                     "    int period = 2 * n - 2;\n    i %= period;\n    if (i < 0)\n        i += period;\n"
                     "    return i < n ? i : period - i;\n}\n\n");
    sb_printf(s, "static %s pixel(const %s *img, int h, int w, int y, int x)\n{\n", T->acc, T->in);
    if (border == CLAMP)
        sb_append(s, "    return img[clampi(y, h) * w + clampi(x, w)];\n}\n\n");
    else if (border == REFLECT101)
        sb_append(s, "    return img[reflect101(y, h) * w + reflect101(x, w)];\n}\n\n");
    else
        sb_append(s, "    if (y < 0 || y >= h || x < 0 || x >= w)\n        return 0;\n"
                     "    return img[y * w + x];\n}\n\n");
}

/* The window loop accumulating `n_k` kernels (names K[]) into sums S[]. */
static void emit_window(StrBuf *s, int border, int lo, int hi, int n_k, const char *const *K,
                        const char *const *S, const Types *T, const char *off)
{
    sb_printf(s, "    for (int dy = %d; dy <= %d; dy++) {\n        for (int dx = %d; dx <= %d; dx++) {\n", lo, hi,
              lo, hi);
    if (border == SKIP)
        sb_printf(s, "            %s v = img[(y + dy) * w + x + dx];\n", T->acc);
    else
        sb_printf(s, "            %s v = pixel(img, h, w, y + dy, x + dx);\n", T->acc);
    for (int k = 0; k < n_k; k++)
        sb_printf(s, "            %s += %s[dy%s][dx%s] * v;\n", S[k], K[k], off, off);
    sb_append(s, "        }\n    }\n");
}

static void emit_skip_test(StrBuf *s, int lo, int hi)
{
    if (lo == 0)
        sb_printf(s, "            if (y >= h - %d || x >= w - %d) {\n", hi, hi);
    else
        sb_printf(s, "            if (y < %d || y >= h - %d || x < %d || x >= w - %d) {\n", -lo, hi, -lo, hi);
}

/* ---- the pair ---- */

/* Appends C text c to kernel.cu as CUDA: each line loses up to `dedent`
 * leading spaces; static tables become __constant__ and static functions
 * __device__; the <stdint.h> types get their built-in spellings (kernel.cu
 * includes no headers); in a kernel body (body = 1) "continue;", which skips
 * a pixel in the C loop, leaves the thread. */
static void to_cuda(StrBuf *k, const char *c, int dedent, int body)
{
    static const char *const FROM[] = {"static const int ", "static ", "uint8_t", "int16_t", "int64_t", "continue;"};
    static const char *const TO[] = {"__constant__ int ", "static __device__ ", "unsigned char", "short", "long long",
                                     "return;"};
    const int n_subs = (int)(sizeof FROM / sizeof FROM[0]);
    const char *q = c;
    while (*q) {
        for (int sp = 0; sp < dedent && *q == ' '; sp++)
            q++;
        const char *e = strchr(q, '\n');
        size_t len = e ? (size_t)(e - q) + 1 : strlen(q);
        for (size_t i = 0; i < len;) {
            int hit = -1;
            for (int f = 0; f < n_subs && hit < 0; f++) {
                size_t fl = strlen(FROM[f]);
                if ((f < 2 && i != 0) || (f == n_subs - 1 && !body) || fl > len - i)
                    continue;
                if (strncmp(q + i, FROM[f], fl) == 0 && (i == 0 || !(isalnum((unsigned char)q[i - 1]) || q[i - 1] == '_')))
                    hit = f;
            }
            if (hit >= 0) {
                sb_append(k, TO[hit]);
                i += strlen(FROM[hit]);
            } else {
                sb_putc(k, q[i++]);
            }
        }
        q += len;
    }
}

/* The pair: the program's tables and helpers as __constant__ / __device__
 * definitions, and a kernel with one thread per pixel on 32x8 blocks (x
 * along threadIdx.x) running the program's per-pixel body.  outs: the
 * output parameters, "float *mag" or "short *gx, short *gy" (each gets
 * __restrict__); args: the launch arguments. */
static void emit_cuda(GenProgram *p, const char *entry, const char *in_ty, const char *defs, const char *prologue,
                      const char *body, const char *o1_ty, const char *o1, const char *o2, const char *args)
{
    StrBuf *k = gen_cuda_src(p);
    to_cuda(k, defs, 0, 0);
    sb_append(k, "/* One thread per pixel. */\n");
    /* The parameters, wrapped at 100 columns and aligned after the parenthesis. */
    char prm[4][64];
    int np = 0, indent = (int)strlen(entry) + 28, col = indent;
    snprintf(prm[np++], sizeof prm[0], "const %s *__restrict__ img", in_ty);
    snprintf(prm[np++], sizeof prm[0], "%s *__restrict__ %s", o1_ty, o1);
    if (o2)
        snprintf(prm[np++], sizeof prm[0], "%s *__restrict__ %s", o1_ty, o2);
    snprintf(prm[np++], sizeof prm[0], "int h, int w");
    sb_printf(k, "extern \"C\" __global__ void %s(", entry);
    for (int i = 0; i < np; i++) {
        int len = (int)strlen(prm[i]);
        if (i && col + 2 + len + 1 > 100) {
            sb_printf(k, ",\n%*s", indent, "");
            col = indent;
        } else if (i) {
            sb_append(k, ", ");
            col += 2;
        }
        sb_append(k, prm[i]);
        col += len;
    }
    sb_printf(k, ")\n{\n%s"
                 "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (x >= w || y >= h)\n        return;\n", prologue);
    to_cuda(k, body, 8, 1);
    sb_append(k, "}\n");
    gen_launch(p, entry, "(w+31)/32,(h+7)/8", "32,8", NULL, args);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "one-pixel-per-thread");
}

/* The CUDA spelling of a C element type. */
static const char *cuda_type(const char *c)
{
    return strcmp(c, "uint8_t") == 0 ? "unsigned char" : strcmp(c, "int16_t") == 0 ? "short" : c;
}

static void configs(GenProgram *p, int in_kind)
{
    gen_config(p, "small", "h=96,w=128");
    gen_config(p, "edge", "h=1,w=1");
    gen_config(p, "edge-prime", "h=13,w=31");
    gen_config(p, "edge-thin", "h=2,w=263");
    gen_config(p, "large", in_kind == 1 ? "h=16384,w=8192" : "h=8192,w=8192");
}

static void grad_kernels(int op, int *kx, int *ky, int *n)
{
    static const int S3[9] = {-1, 0, 1, -2, 0, 2, -1, 0, 1};
    static const int SC[9] = {-3, 0, 3, -10, 0, 10, -3, 0, 3};
    static const int PR[9] = {-1, 0, 1, -1, 0, 1, -1, 0, 1};
    static const int RX[4] = {1, 0, 0, -1}, RY[4] = {0, 1, -1, 0};
    static const int SM[5] = {1, 4, 6, 4, 1}, DF[5] = {-1, -2, 0, 2, 1};
    if (op == SOBEL5) {
        *n = 5;
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                kx[i * 5 + j] = SM[i] * DF[j];
                ky[i * 5 + j] = DF[i] * SM[j];
            }
        return;
    }
    if (op == ROBERTS) {
        *n = 2;
        memcpy(kx, RX, sizeof RX);
        memcpy(ky, RY, sizeof RY);
        return;
    }
    *n = 3;
    const int *k = op == SOBEL3 ? S3 : op == SCHARR ? SC : PR;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            kx[i * 3 + j] = k[i * 3 + j];
            ky[i * 3 + j] = k[j * 3 + i];
        }
}

static int gen_gradient(GenCtx *g, int op, int kind, int border)
{
    int in_kind = kind == GXGY_F32 || kind == MAG_L2_F32 ? 0 : kind == MAG_L2_F64 ? 2 : 1;
    Types T = types_for(in_kind);
    int kx[25], ky[25], n;
    grad_kernels(op, kx, ky, &n);
    int lo = op == ROBERTS ? 0 : -(n / 2), hi = op == ROBERTS ? 1 : n / 2;
    char variant[80], off[8];
    snprintf(off, sizeof off, lo ? " + %d" : "", -lo);
    snprintf(variant, sizeof variant, "%s-%s-%s", GRAD_NAME[op], GRAD_KIND[kind], BORDER[border]);
    GenProgram *p = gen_begin(g, variant, GRAD_ENTRY[op]);
    static const char *const KTEXT[] = {"gradients gx, gy", "L2 gradient magnitude", "L1 gradient magnitude",
                                        "gradient magnitude and direction", "thresholded edge map",
                                        "16-bit gradients gx, gy", "saturated 8-bit |gx| + |gy|",
                                        "L2 gradient magnitude"};
    gen_describe(p, "%s %s of a %s image, %s", GRAD_TEXT[op], KTEXT[kind], T.dt, BORDER_TEXT[border]);
    gen_arg(p, "img", T.dt, "in", "h,w");
    const char *o1 = NULL, *o2 = NULL, *odt = "f32";
    switch (kind) {
    case GXGY_F32: o1 = "gx"; o2 = "gy"; break;
    case GXGY_I16: o1 = "gx"; o2 = "gy"; odt = "i16"; break;
    case MAG_L2_F32: case MAG_L1_U8: o1 = "mag"; break;
    case MAG_L2_F64: o1 = "mag"; odt = "f64"; break;
    case MAG_DIR_U8: o1 = "mag"; o2 = "dir"; break;
    case THRESH_U8: o1 = "edges"; odt = "u8"; break;
    case ABS_U8: o1 = "response"; odt = "u8"; break;
    }
    gen_arg(p, o1, odt, "out", "h,w");
    if (o2)
        gen_arg(p, o2, odt, "out", "h,w");
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    if (in_kind != 1)
        gen_fill_uniform(p, "img", 0.0, 1.0);
    configs(p, in_kind);
    char flops[32], bytes[32];
    snprintf(flops, sizeof flops, "%d*h*w", 4 * n * n + 4);
    int osz = strcmp(odt, "f64") == 0 ? 8 : strcmp(odt, "f32") == 0 ? 4 : strcmp(odt, "i16") == 0 ? 2 : 1;
    int isz = in_kind == 1 ? 1 : in_kind == 2 ? 8 : 4;
    snprintf(bytes, sizeof bytes, "%d*h*w", isz + osz * (o2 ? 2 : 1));
    gen_cost(p, flops, bytes);
    if (kind == GXGY_F32 || kind == MAG_L2_F32)
        gen_tolerance(p, 1e-4, 1e-4);
    else if (kind == MAG_L1_U8 || kind == MAG_DIR_U8)
        gen_tolerance(p, 1e-4, 1e-5);

    StrBuf *s = gen_src(p);
    sb_printf(s, "/* %s %s of an h x w %s image", GRAD_TEXT[op], KTEXT[kind],
              in_kind == 1 ? "8-bit" : in_kind == 2 ? "double" : "float");
    switch (kind) {
    case MAG_L2_F32: case MAG_L2_F64: sb_append(s, ":\n * sqrt(gx^2 + gy^2)"); break;
    case MAG_L1_U8: sb_append(s, ":\n * |gx| + |gy|"); break;
    case MAG_DIR_U8: sb_append(s, ":\n * sqrt(gx^2 + gy^2) and atan2(gy, gx) in radians"); break;
    case THRESH_U8: sb_printf(s, ":\n * 255 where sqrt(gx^2 + gy^2) > %d, else 0 (compared squared, in integers)", GRAD_THRESHOLD[op]); break;
    case ABS_U8: sb_printf(s, ":\n * min(255, (|gx| + |gy|) >> %d)", GRAD_SHIFT[op]); break;
    default: break;
    }
    sb_printf(s, ";\n * %s.  gx responds to horizontal change, gy to vertical change. */\n",
              BORDER_TEXT[border]);
    int need_math = kind == MAG_L2_F32 || kind == MAG_L2_F64 || kind == MAG_DIR_U8;
    int need_stdlib = kind == MAG_L1_U8 || kind == ABS_U8;
    if (need_math)
        sb_append(s, "#include <math.h>\n");
    if (in_kind == 1 || kind == GXGY_I16)
        sb_append(s, "#include <stdint.h>\n");
    if (need_stdlib)
        sb_append(s, "#include <stdlib.h>\n");
    sb_append(s, "\n");
    /* The tables and helpers (defs) and the per-pixel body are built apart:
     * kernel.cu reuses them. */
    StrBuf defs = STRBUF_INIT, body = STRBUF_INIT;
    if (kind == THRESH_U8)
        sb_printf(&defs, "enum { THRESHOLD = %d };\n\n", GRAD_THRESHOLD[op]);
    emit_table(&defs, "KX", n, kx);
    emit_table(&defs, "KY", n, ky);
    sb_append(&defs, "\n");
    emit_pixel_helper(&defs, border, &T);
    sb_printf(&defs, "static void gradient(const %s *img, %sint w, int y, int x, %s *gx, %s *gy)\n{\n", T.in,
              border == SKIP ? "" : "int h, ", T.acc, T.acc);
    sb_printf(&defs, "    %s sx = 0, sy = 0;\n", T.acc);
    static const char *const KN[] = {"KX", "KY"}, *const SN[] = {"sx", "sy"};
    emit_window(&defs, border, lo, hi, 2, KN, SN, &T, off);
    sb_append(&defs, "    *gx = sx;\n    *gy = sy;\n}\n\n");
    sb_append(s, sb_str(&defs));

    /* Entry. */
    char ty1[16], ty2[16];
    snprintf(ty1, sizeof ty1, "%s", strcmp(odt, "f32") == 0 ? "float" : strcmp(odt, "f64") == 0 ? "double"
                                    : strcmp(odt, "i16") == 0 ? "int16_t" : "uint8_t");
    snprintf(ty2, sizeof ty2, "%s", ty1);
    sb_printf(s, "void %s(const %s *img, %s *%s, ", GRAD_ENTRY[op], T.in, ty1, o1);
    if (o2)
        sb_printf(s, "%s *%s, ", ty2, o2);
    sb_append(s, "int h, int w)\n{\n");
    sb_append(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < w; x++) {\n");
    StrBuf *b = &body;
    sb_append(b, "            int i = y * w + x;\n");
    if (border == SKIP) {
        emit_skip_test(b, lo, hi);
        sb_printf(b, "                %s[i] = 0;\n", o1);
        if (o2)
            sb_printf(b, "                %s[i] = 0;\n", o2);
        sb_append(b, "                continue;\n            }\n");
    }
    const char *I = "            ", *hh = border == SKIP ? "" : "h, ";
    if (kind == GXGY_F32) {
        sb_printf(b, "%sgradient(img, %sw, y, x, &gx[i], &gy[i]);\n", I, hh);
    } else if (kind == GXGY_I16) {
        sb_printf(b, "%sint sx, sy;\n%sgradient(img, %sw, y, x, &sx, &sy);\n", I, I, hh);
        sb_printf(b, "%sgx[i] = (int16_t)sx;\n%sgy[i] = (int16_t)sy;\n", I, I);
    }
    if (kind != GXGY_F32 && kind != GXGY_I16)
        sb_printf(b, "%s%s gx, gy;\n%sgradient(img, %sw, y, x, &gx, &gy);\n", I, T.acc, I, hh);
    if (kind == GXGY_F32 || kind == GXGY_I16) {
    } else if (kind == MAG_L2_F32) {
        sb_printf(b, "%smag[i] = sqrtf(gx * gx + gy * gy);\n", I);
    } else if (kind == MAG_L2_F64) {
        sb_printf(b, "%smag[i] = sqrt(gx * gx + gy * gy);\n", I);
    } else if (kind == MAG_L1_U8) {
        sb_printf(b, "%smag[i] = (float)(abs(gx) + abs(gy));\n", I);
    } else if (kind == MAG_DIR_U8) {
        sb_printf(b, "%smag[i] = sqrtf((float)(gx * gx + gy * gy));\n", I);
        sb_printf(b, "%sdir[i] = atan2f((float)gy, (float)gx);\n", I);
    } else if (kind == THRESH_U8) {
        sb_printf(b, "%sedges[i] = gx * gx + gy * gy > THRESHOLD * THRESHOLD ? 255 : 0;\n", I);
    } else if (kind == ABS_U8) {
        sb_printf(b, "%sint v = (abs(gx) + abs(gy)) >> %d;\n", I, GRAD_SHIFT[op]);
        sb_printf(b, "%sresponse[i] = (uint8_t)(v > 255 ? 255 : v);\n", I);
    }
    sb_append(s, sb_str(b));
    sb_append(s, "        }\n    }\n}\n");
    char args[32];
    snprintf(args, sizeof args, "img,%s%s%s,h,w", o1, o2 ? "," : "", o2 ? o2 : "");
    emit_cuda(p, GRAD_ENTRY[op], cuda_type(T.in), sb_str(&defs), "", sb_str(b), cuda_type(ty1), o1, o2, args);
    sb_release(&defs);
    sb_release(&body);
    return gen_end(p);
}

static int gen_laplacian(GenCtx *g, int op, int kind, int border)
{
    static const int L4[9] = {0, 1, 0, 1, -4, 1, 0, 1, 0};
    static const int L8[9] = {1, 1, 1, 1, -8, 1, 1, 1, 1};
    static const int LG[25] = {0, 0, -1, 0, 0, 0, -1, -2, -1, 0, -1, -2, 16, -2, -1,
                               0, -1, -2, -1, 0, 0, 0, -1, 0, 0};
    const int *k = op == LAP4 ? L4 : op == LAP8 ? L8 : LG;
    int n = op == LOG5 ? 5 : 3, r = n / 2;
    int in_kind = kind == LAP_F32 ? 0 : kind == LAP_F64 ? 2 : 1;
    Types T = types_for(in_kind);
    const char *odt = kind == LAP_F32 ? "f32" : kind == LAP_F64 ? "f64" : kind == LAP_I16 ? "i16" : "u8";
    const char *oty = kind == LAP_F32 ? "float" : kind == LAP_F64 ? "double" : kind == LAP_I16 ? "int16_t" : "uint8_t";
    char variant[80], off[8];
    snprintf(off, sizeof off, " + %d", r);
    snprintf(variant, sizeof variant, "%s-%s-%s", LAP_NAME[op], LAP_KIND[kind], BORDER[border]);
    GenProgram *p = gen_begin(g, variant, "laplacian");
    gen_describe(p, "%s%s of a %s image, %s", LAP_TEXT[op], kind == LAP_ABS_U8 ? " (saturated absolute value)" : "",
                 T.dt, BORDER_TEXT[border]);
    gen_arg(p, "img", T.dt, "in", "h,w");
    gen_arg(p, "out", odt, "out", "h,w");
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    if (in_kind != 1)
        gen_fill_uniform(p, "img", 0.0, 1.0);
    configs(p, in_kind);
    char flops[32], bytes[32];
    snprintf(flops, sizeof flops, "%d*h*w", 2 * n * n);
    int isz = in_kind == 1 ? 1 : in_kind == 2 ? 8 : 4;
    int osz = kind == LAP_F32 ? 4 : kind == LAP_F64 ? 8 : kind == LAP_I16 ? 2 : 1;
    snprintf(bytes, sizeof bytes, "%d*h*w", isz + osz);
    gen_cost(p, flops, bytes);
    if (kind == LAP_F32)
        gen_tolerance(p, 1e-4, 1e-4);
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* %s of an h x w %s image", LAP_TEXT[op], in_kind == 1 ? "8-bit" : in_kind == 2 ? "double" : "float");
    if (kind == LAP_ABS_U8)
        sb_printf(s, ", as min(255, |response| >> %d)", LAP_SHIFT[op]);
    sb_printf(s, ";\n * %s. */\n", BORDER_TEXT[border]);
    const char *hh = border == SKIP ? "" : "h, ";
    if (kind == LAP_ABS_U8)
        sb_append(s, "#include <stdint.h>\n#include <stdlib.h>\n");
    else if (in_kind == 1)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    /* The tables and helpers (defs) and the per-pixel body are built apart:
     * kernel.cu reuses them. */
    StrBuf defs = STRBUF_INIT, body = STRBUF_INIT;
    emit_table(&defs, "K", n, k);
    sb_append(&defs, "\n");
    emit_pixel_helper(&defs, border, &T);
    sb_printf(&defs, "static %s response(const %s *img, %sint w, int y, int x)\n{\n", T.acc, T.in,
              border == SKIP ? "" : "int h, ");
    sb_printf(&defs, "    %s sum = 0;\n", T.acc);
    static const char *const KN[] = {"K"}, *const SN[] = {"sum"};
    emit_window(&defs, border, -r, r, 1, KN, SN, &T, off);
    sb_append(&defs, "    return sum;\n}\n\n");
    sb_append(s, sb_str(&defs));
    sb_printf(s, "void laplacian(const %s *img, %s *out, int h, int w)\n{\n", T.in, oty);
    sb_append(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < w; x++) {\n");
    StrBuf *b = &body;
    if (border == SKIP) {
        emit_skip_test(b, -r, r);
        sb_append(b, "                out[y * w + x] = 0;\n                continue;\n            }\n");
    }
    if (kind == LAP_ABS_U8) {
        sb_printf(b, "            int v = abs(response(img, %sw, y, x)) >> %d;\n", hh, LAP_SHIFT[op]);
        sb_append(b, "            out[y * w + x] = (uint8_t)(v > 255 ? 255 : v);\n");
    } else if (kind == LAP_I16) {
        sb_printf(b, "            out[y * w + x] = (int16_t)response(img, %sw, y, x);\n", hh);
    } else {
        sb_printf(b, "            out[y * w + x] = response(img, %sw, y, x);\n", hh);
    }
    sb_append(s, sb_str(b));
    sb_append(s, "        }\n    }\n}\n");
    emit_cuda(p, "laplacian", cuda_type(T.in), sb_str(&defs), "", sb_str(b), cuda_type(oty), "out", NULL, "img,out,h,w");
    sb_release(&defs);
    sb_release(&body);
    return gen_end(p);
}

/* Canny-style non-maximum suppression on 3x3 Sobel gradients of a u8 image. */
static int gen_nms(GenCtx *g, int binary)
{
    GenProgram *p = gen_begin(g, binary ? "canny-nms-threshold-u8" : "canny-nms-mag-f32", "canny_nms");
    gen_describe(p, "Sobel gradients with Canny non-maximum suppression%s, clamped border",
                 binary ? " and a threshold (binary edges)" : " (suppressed L2 magnitude)");
    gen_arg(p, "img", "u8", "in", "h,w");
    gen_arg(p, binary ? "edges" : "mag", binary ? "u8" : "f32", "out", "h,w");
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    configs(p, 1);
    gen_cost(p, "80*h*w", binary ? "2*h*w" : "5*h*w");
    if (!binary)
        gen_tolerance(p, 1e-4, 1e-5);
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* Canny non-maximum suppression on the 3x3 Sobel gradients of an h x w 8-bit\n"
                 " * image (clamped border).  The gradient direction is quantised to 0, 45, 90 or\n"
                 " * 135 degrees (tan 22.5 = 0.4142 as 13573 / 2^15, in integers); a pixel is kept\n"
                 " * when its squared magnitude m is > the neighbour behind it and >= the one ahead\n"
                 " * along that direction (neighbours outside the image count as 0)%s. */\n",
              binary ? "\n * and m > THRESHOLD^2; kept pixels are 255, others 0"
                     : ";\n * kept pixels hold sqrt(m), others 0");
    sb_append(s, "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\n");
    StrBuf defs = STRBUF_INIT, body = STRBUF_INIT;
    if (binary)
        sb_append(&defs, "enum { THRESHOLD = 300 };\n\n");
    sb_append(&defs, "static int clampi(int i, int n)\n{\n    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n"
                 "static void sobel(const uint8_t *img, int h, int w, int y, int x, int *gx, int *gy)\n{\n"
                 "    int p[3][3];\n"
                 "    for (int dy = -1; dy <= 1; dy++)\n"
                 "        for (int dx = -1; dx <= 1; dx++)\n"
                 "            p[dy + 1][dx + 1] = img[clampi(y + dy, h) * w + clampi(x + dx, w)];\n"
                 "    *gx = (p[0][2] + 2 * p[1][2] + p[2][2]) - (p[0][0] + 2 * p[1][0] + p[2][0]);\n"
                 "    *gy = (p[2][0] + 2 * p[2][1] + p[2][2]) - (p[0][0] + 2 * p[0][1] + p[0][2]);\n"
                 "}\n\n"
                 "/* Squared gradient magnitude at (y, x); 0 outside the image. */\n"
                 "static int mag2(const uint8_t *img, int h, int w, int y, int x)\n{\n"
                 "    if (y < 0 || y >= h || x < 0 || x >= w)\n        return 0;\n"
                 "    int gx, gy;\n    sobel(img, h, w, y, x, &gx, &gy);\n"
                 "    return gx * gx + gy * gy;\n}\n\n");
    sb_append(s, sb_str(&defs));
    sb_printf(s, "void canny_nms(const uint8_t *img, %s, int h, int w)\n{\n",
              binary ? "uint8_t *edges" : "float *mag");
    const char *tans = "    const int tan22 = 13573, tan67 = 79109; /* tan(22.5), tan(67.5) times 2^15 */\n";
    sb_append(s, tans);
    sb_append(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < w; x++) {\n");
    sb_append(&body, "            int gx, gy;\n            sobel(img, h, w, y, x, &gx, &gy);\n"
                 "            int m = gx * gx + gy * gy;\n"
                 "            int ax = abs(gx), ay = abs(gy);\n"
                 "            int64_t t = (int64_t)ay << 15;\n"
                 "            int dy, dx;\n"
                 "            if (t < (int64_t)tan22 * ax) {\n                dy = 0;\n                dx = 1;\n"
                 "            } else if (t > (int64_t)tan67 * ax) {\n                dy = 1;\n                dx = 0;\n"
                 "            } else {\n                dy = 1;\n                dx = (gx < 0) == (gy < 0) ? 1 : -1;\n"
                 "            }\n"
                 "            int keep = m > mag2(img, h, w, y - dy, x - dx) && m >= mag2(img, h, w, y + dy, x + dx);\n");
    if (binary)
        sb_append(&body, "            edges[y * w + x] = keep && m > THRESHOLD * THRESHOLD ? 255 : 0;\n");
    else
        sb_append(&body, "            mag[y * w + x] = keep ? sqrtf((float)m) : 0.0f;\n");
    sb_append(s, sb_str(&body));
    sb_append(s, "        }\n    }\n}\n");
    emit_cuda(p, "canny_nms", "unsigned char", sb_str(&defs), tans, sb_str(&body), binary ? "unsigned char" : "float",
              binary ? "edges" : "mag", NULL, binary ? "img,edges,h,w" : "img,mag,h,w");
    sb_release(&defs);
    sb_release(&body);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int op = 0; op < N_GRAD_OPS; op++)
        for (int k = 0; k < N_GRAD_KINDS; k++)
            if (gen_gradient(g, op, k, (op + k) % 4) != 0)
                return -1;
    for (int op = 0; op < N_LAP_OPS; op++)
        for (int k = 0; k < N_LAP_KINDS; k++)
            if (gen_laplacian(g, op, k, (op + 2 * k + 1) % 4) != 0)
                return -1;
    if (gen_nms(g, 1) != 0 || gen_nms(g, 0) != 0)
        return -1;
    return 0;
}

const Family family_sobel = {"sobel", "image", 54, generate};
