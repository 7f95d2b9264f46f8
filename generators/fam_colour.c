/* colour — per-pixel colour conversions and compositing.  Programs vary by
 *   - operation: RGB to grey (BT.601, BT.709, average, lightness, linear-light),
 *     RGB <-> YCbCr (JPEG full range, BT.601 and BT.709 studio range), RGB <->
 *     analog YUV, NV12/NV21/I420 chroma-subsampled decoding and NV12
 *     encoding, RGB <-> HSV and HSL, gamma and sRGB transfer curves (direct or
 *     through a lookup table), brightness/contrast, saturation, sepia,
 *     RGB -> XYZ -> Lab, alpha compositing (straight and premultiplied "over",
 *     constant and per-pixel-mask blends, premultiply/unpremultiply);
 *   - layout: interleaved RGB/BGR/RGBA, planar in one buffer, separate planes;
 *   - type: u8 (exact fixed-point integer arithmetic where the format defines
 *     it, else rounded floats checked to within 1) and f32. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct A {
    const char *name, *dtype, *role, *shape;
    double lo, hi;   /* fill range for inputs (0, 0: default), value for scalars */
} A;

#define MAXA 8
enum { PIX, YUV420 };

/* Elements per pixel of a pixel-wise buffer shape: "n" 1, "n,3" 3, "3,n" 3. */
static int per_pixel(const char *shape)
{
    int k = 1;
    for (const char *q = shape; *q; q++)
        if (*q >= '0' && *q <= '9')
            k *= *q - '0';
    return k;
}

/* ---- the pair ----
 * Every program is one loop over pixels (or over the 3n channel values, or
 * over the rows and columns of a 4:2:0 image) whose iterations are
 * independent, so the reference CUDA implementation is that loop with one
 * thread per iteration: cuda_from_c() rewrites the C source mechanically
 * (helpers become __device__ functions, the loop header becomes the thread
 * index and its bounds check, fixed-width types take CUDA's spelling) and
 * refuses any source that does not have that shape.  The three programs of
 * another shape have hand-written kernels in CUSTOM. */

typedef struct Custom {
    const char *variant;
    const char *cuda;    /* kernel.cu */
    const char *grid;    /* the one launch */
    const char *args;
    const char *mapping;
} Custom;

static const Custom CUSTOM[] = {
    {"gamma-lut-u8",
     "/* Gamma correction of an interleaved 8-bit RGB image through a lookup table:\n"
     " * out = round(255 (in / 255)^(1 / gamma)).  Each block builds the 256-entry table\n"
     " * in shared memory, then one thread per channel value looks its value up. */\n"
     "extern \"C\" __global__ void gamma_correct(const unsigned char *__restrict__ in,\n"
     "                                          unsigned char *__restrict__ out, int n, float gamma)\n"
     "{\n"
     "    __shared__ unsigned char table[256];\n"
     "    for (int k = threadIdx.x; k < 256; k += blockDim.x)\n"
     "        table[k] = (unsigned char)(255.0f * powf(k / 255.0f, 1.0f / gamma) + 0.5f);\n"
     "    __syncthreads();\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= 3 * n)\n"
     "        return;\n"
     "    out[i] = table[in[i]];\n"
     "}\n",
     "(3*n+255)/256", "in,out,n,gamma", "shared-lut-one-value-per-thread"},
    {"crossfade-planar-f32",
     "/* Cross-fade of two planar float RGB images (planes one after another):\n"
     " * out = b + alpha (a - b).  The planes are contiguous, so one thread per value\n"
     " * covers all 3n of them. */\n"
     "extern \"C\" __global__ void crossfade(const float *__restrict__ a, const float *__restrict__ b,\n"
     "                                      float *__restrict__ out, int n, float alpha)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= 3 * n)\n"
     "        return;\n"
     "    out[i] = b[i] + alpha * (a[i] - b[i]);\n"
     "}\n",
     "(3*n+255)/256", "a,b,out,n,alpha", "one-value-per-thread"},
    {"rgb-to-nv12-bt601-u8",
     "/* Interleaved 8-bit RGB to NV12 (studio-range BT.601, 8-bit fixed point):\n"
     " *     Y = ((66 R + 129 G + 25 B + 128) >> 8) + 16 per pixel;\n"
     " * one (Cb, Cr) pair per 2 x 2 block (partial blocks at odd edges use the pixels\n"
     " * they have), from the block's channel sums SR, SG, SB over its k pixels:\n"
     " *     Cb = floor((-38 SR - 74 SG + 112 SB + 32896 k) / (256 k))\n"
     " *     Cr = floor((112 SR - 94 SG - 18 SB + 32896 k) / (256 k)).\n"
     " * One thread per 2 x 2 block writes the block's luma and its chroma pair. */\n"
     "extern \"C\" __global__ void rgb_to_nv12(const unsigned char *__restrict__ rgb,\n"
     "                                        unsigned char *__restrict__ luma,\n"
     "                                        unsigned char *__restrict__ uv, int h, int w)\n"
     "{\n"
     "    const int cw = (w + 1) / 2;\n"
     "    const int bx = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    const int by = blockIdx.y;\n"
     "    if (bx >= cw)\n"
     "        return;\n"
     "    int sr = 0, sg = 0, sb = 0, k = 0;\n"
     "    for (int row = 2 * by; row < 2 * by + 2 && row < h; row++) {\n"
     "        for (int col = 2 * bx; col < 2 * bx + 2 && col < w; col++) {\n"
     "            const unsigned char *p = rgb + (row * w + col) * 3;\n"
     "            luma[row * w + col] = (unsigned char)(((66 * p[0] + 129 * p[1] + 25 * p[2] + 128) >> 8) + 16);\n"
     "            sr += p[0];\n"
     "            sg += p[1];\n"
     "            sb += p[2];\n"
     "            k++;\n"
     "        }\n"
     "    }\n"
     "    unsigned char *c = uv + (by * cw + bx) * 2;\n"
     "    c[0] = (unsigned char)((-38 * sr - 74 * sg + 112 * sb + 32896 * k) / (256 * k));\n"
     "    c[1] = (unsigned char)((112 * sr - 94 * sg - 18 * sb + 32896 * k) / (256 * k));\n"
     "}\n",
     "((w+1)/2+255)/256,(h+1)/2", "rgb,luma,uv,h,w", "one-2x2-block-per-thread-2d-grid"},
};
#define N_CUSTOM ((int)(sizeof CUSTOM / sizeof CUSTOM[0]))

/* Appends line (n bytes) with the C program's fixed-width type names in
 * CUDA's spelling (kernel.cu includes no headers). */
static void put_cuda_line(StrBuf *k, const char *line, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (n - i >= 7 && strncmp(line + i, "uint8_t", 7) == 0) {
            sb_append(k, "unsigned char");
            i += 7;
        } else {
            sb_putc(k, line[i++]);
        }
    }
    sb_putc(k, '\n');
}

/* Parses "<indent>for (int v = 0; v < BOUND; v++)" with an optional " {";
 * stores v and BOUND.  Returns 1 with *brace set, or 0. */
static int parse_loop(const char *line, size_t n, int indent, char *var, size_t varlen, char *bound,
                      size_t boundlen, int *brace)
{
    char text[160];
    if (n >= sizeof text)
        return 0;
    memcpy(text, line, n);
    text[n] = '\0';
    for (int i = 0; i < indent; i++)
        if (text[i] != ' ')
            return 0;
    const char *t = text + indent;
    if (strncmp(t, "for (int ", 9) != 0)
        return 0;
    t += 9;
    size_t vl = strcspn(t, " ");
    if (vl == 0 || vl >= varlen)
        return 0;
    snprintf(var, varlen, "%.*s", (int)vl, t);
    char head[48], tail[48];
    snprintf(head, sizeof head, "%s = 0; %s < ", var, var);
    if (strncmp(t, head, strlen(head)) != 0)
        return 0;
    t += strlen(head);
    snprintf(tail, sizeof tail, "; %s++)", var);
    const char *end = strstr(t, tail);
    if (!end || (size_t)(end - t) >= boundlen)
        return 0;
    snprintf(bound, boundlen, "%.*s", (int)(end - t), t);
    end += strlen(tail);
    *brace = strcmp(end, " {") == 0;
    return *brace || *end == '\0';
}

/* "const uint8_t *rgb, uint8_t *gray, int n, float gamma": pointers gain
 * __restrict__ (every buffer of the family is distinct); the names, comma
 * separated, go to args. */
static void cuda_params(const char *c_params, size_t len, StrBuf *sig, StrBuf *args)
{
    const char *q = c_params, *end = c_params + len;
    while (q < end) {
        const char *comma = strstr(q, ", ");
        size_t l = comma && comma < end ? (size_t)(comma - q) : (size_t)(end - q);
        const char *star = memchr(q, '*', l), *name = q + l;
        while (name > q && name[-1] != ' ' && name[-1] != '*')
            name--;
        if (q != c_params) {
            sb_append(sig, ", ");
            sb_putc(args, ',');
        }
        if (star)
            sb_printf(sig, "%.*s__restrict__ %.*s", (int)(star + 1 - q), q, (int)(q + l - name), name);
        else
            sb_append_n(sig, q, l);
        sb_append_n(args, name, (size_t)(q + l - name));
        q += l;
        if (q < end)
            q += 2;
    }
}

/* Writes the pair of the program whose C source is src (see the note
 * above).  Returns 0, or -1 when src is not of the translatable shape. */
static int cuda_from_c(GenProgram *p, const char *src, const char *entry, int kind)
{
    StrBuf k = STRBUF_INIT, sig = STRBUF_INIT, args = STRBUF_INIT;
    char head[64], var[16], bound[64], var2[16], bound2[64];
    snprintf(head, sizeof head, "void %s(", entry);
    enum { PREAMBLE, INCLUDES, HELPERS, PROLOGUE, BODY, TAIL } state = PREAMBLE;
    int rc = -1, brace = 0, brace2 = 0, body_indent = 0;
    const char *mapping = NULL;
    for (const char *line = src; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        const char *next = nl ? nl + 1 : line + n;
        switch (state) {
        case PREAMBLE: /* the leading comment */
            put_cuda_line(&k, line, n);
            if (n >= 2 && strncmp(line + n - 2, "*/", 2) == 0)
                state = INCLUDES;
            break;
        case INCLUDES: /* the #include lines and the blank line after them */
            if (n == 0 || line[0] == '#')
                break;
            state = HELPERS;
            /* a blank line between the leading comment and a helper */
            if (strncmp(line, "/*", 2) == 0 || strncmp(line, "static ", 7) == 0)
                sb_putc(&k, '\n');
            /* fall through */
        case HELPERS:
            if (strncmp(line, head, strlen(head)) == 0) {
                const char *close = memchr(line, ')', n);
                if (!close || strncmp(next, "{\n", 2) != 0)
                    goto done;
                cuda_params(line + strlen(head), (size_t)(close - line - strlen(head)), &sig, &args);
                StrBuf t = STRBUF_INIT, u = STRBUF_INIT;
                sb_printf(&t, "extern \"C\" __global__ void %s(%s)", entry, sb_str(&sig));
                put_cuda_line(&u, t.data, t.len);
                u.data[--u.len] = '\0';
                tmpl_put_wrapped(&k, sb_str(&u));
                sb_append(&k, "\n{\n");
                sb_release(&t);
                sb_release(&u);
                next += 2;
                state = PROLOGUE;
            } else if (strncmp(line, "static ", 7) == 0) {
                sb_append(&k, "static __device__ ");
                put_cuda_line(&k, line + 7, n - 7);
            } else {
                put_cuda_line(&k, line, n);
            }
            break;
        case PROLOGUE: /* statements before the loop, then the loop header */
            if (kind == PIX && parse_loop(line, n, 4, var, sizeof var, bound, sizeof bound, &brace)) {
                sb_printf(&k, "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    if (%s >= %s)\n        return;\n",
                          var, var, bound);
                char grid[80];
                int o = snprintf(grid, sizeof grid, "(");
                for (const char *c = bound; *c; c++)
                    if (*c != ' ')
                        grid[o++] = *c;
                snprintf(grid + o, sizeof grid - (size_t)o, "+255)/256");
                gen_launch(p, entry, grid, "256", NULL, sb_str(&args));
                mapping = strcmp(bound, "n") == 0 ? "one-pixel-per-thread" : "one-value-per-thread";
                body_indent = 8;
                state = BODY;
            } else if (kind == YUV420 && parse_loop(line, n, 4, var, sizeof var, bound, sizeof bound, &brace)) {
                const char *l2 = next, *nl2 = strchr(l2, '\n');
                if (!brace || !nl2 || strcmp(var, "row") != 0 || strcmp(bound, "h") != 0 ||
                    !parse_loop(l2, (size_t)(nl2 - l2), 8, var2, sizeof var2, bound2, sizeof bound2, &brace2) ||
                    !brace2 || strcmp(var2, "col") != 0 || strcmp(bound2, "w") != 0)
                    goto done;
                sb_append(&k, "    const int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    const int row = blockIdx.y;\n"
                              "    if (col >= w)\n        return;\n");
                gen_launch(p, entry, "(w+255)/256,h", "256", NULL, sb_str(&args));
                mapping = "one-pixel-per-thread-2d-grid";
                next = nl2 + 1;
                body_indent = 12;
                state = BODY;
            } else {
                if (strncmp(line, "    for (", 9) == 0 || strncmp(line, "    }", 5) == 0)
                    goto done;
                put_cuda_line(&k, line, n);
            }
            break;
        case BODY: /* the loop body, one indentation step (or two) out */
            if (!brace && n > 0 && line[n - 1] == ';') {
                put_cuda_line(&k, line + body_indent - 4, n - (size_t)(body_indent - 4));
                state = TAIL;
                break;
            }
            if (brace && body_indent == 8 && n == 5 && strncmp(line, "    }", 5) == 0) {
                state = TAIL;
                break;
            }
            if (brace && body_indent == 12 && n == 9 && strncmp(line, "        }", 9) == 0) {
                if (strncmp(next, "    }\n", 6) != 0)
                    goto done;
                next += 6;
                state = TAIL;
                break;
            }
            if (n > 0 && (n < (size_t)body_indent || strspn(line, " ") < (size_t)body_indent))
                goto done;
            if (n == 0)
                sb_putc(&k, '\n');
            else
                put_cuda_line(&k, line + body_indent - 4, n - (size_t)(body_indent - 4));
            break;
        case TAIL: /* nothing but the function's closing brace */
            if (n != 1 || line[0] != '}' || *next)
                goto done;
            sb_append(&k, "}\n");
            rc = 0;
            break;
        }
        line = next;
    }
done:
    if (rc == 0) {
        gen_cuda(p, "%s", sb_str(&k));
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", mapping);
    }
    sb_release(&k);
    sb_release(&sig);
    sb_release(&args);
    return rc;
}

static int emit_cuda(GenProgram *p, const char *variant, const char *entry, int kind, const char *src)
{
    for (int i = 0; i < N_CUSTOM; i++)
        if (strcmp(CUSTOM[i].variant, variant) == 0) {
            gen_cuda(p, "%s", CUSTOM[i].cuda);
            gen_launch(p, entry, CUSTOM[i].grid, "256", NULL, CUSTOM[i].args);
            gen_knob(p, "block", "256");
            gen_knob(p, "mapping", CUSTOM[i].mapping);
            return 0;
        }
    if (cuda_from_c(p, src, entry, kind) == 0)
        return 0;
    fprintf(stderr, "colour: %s: the C source is not one independent loop; give it a CUSTOM kernel\n", variant);
    return -1;
}

static int prog(GenCtx *g, const char *variant, const char *entry, const char *desc, int kind,
                const A *args, int flops_per_px, double atol, double rtol, const char *src)
{
    GenProgram *p = gen_begin(g, variant, entry);
    gen_describe(p, "%s", desc);
    int bpp = 0;
    for (int i = 0; i < MAXA && args[i].name; i++) {
        const A *a = &args[i];
        if (strcmp(a->role, "scalar") == 0)
            continue;
        gen_arg(p, a->name, a->dtype, a->role, a->shape);
        int sz = strcmp(a->dtype, "u8") == 0 ? 1 : 4;
        if (kind == PIX)
            bpp += sz * per_pixel(a->shape);
        if (strcmp(a->role, "in") == 0) {
            if (a->hi > a->lo)
                gen_fill_uniform(p, a->name, a->lo, a->hi);
            else if (strcmp(a->dtype, "f32") == 0)
                gen_fill_uniform(p, a->name, 0.0, 1.0);
        }
    }
    /* The C signature: buffers, then the size params, then the scalars. */
    if (kind == PIX) {
        gen_arg(p, "n", "i32", "param", NULL);
    } else {
        gen_arg(p, "h", "i32", "param", NULL);
        gen_arg(p, "w", "i32", "param", NULL);
    }
    for (int i = 0; i < MAXA && args[i].name; i++)
        if (strcmp(args[i].role, "scalar") == 0)
            gen_scalar(p, args[i].name, args[i].dtype, args[i].lo);
    char buf[96], flops[64];
    if (kind == PIX) {
        gen_config(p, "small", "n=65536");
        gen_config(p, "edge", "n=1");
        gen_config(p, "edge-prime", "n=997");
        long long n = (1LL << 29) / bpp;
        n -= n % 1024;
        snprintf(buf, sizeof buf, "n=%lld", n);
        gen_config(p, "large", buf);
        snprintf(flops, sizeof flops, "%d*n", flops_per_px);
        snprintf(buf, sizeof buf, "%d*n", bpp);
        gen_cost(p, flops, buf);
    } else {
        gen_config(p, "small", "h=128,w=160");
        gen_config(p, "edge", "h=1,w=1");
        gen_config(p, "edge-prime", "h=13,w=37");
        gen_config(p, "large", "h=8192,w=8192");
        snprintf(flops, sizeof flops, "%d*h*w", flops_per_px);
        /* Luma plane, half-resolution chroma (2 values per 2 x 2 block), RGB. */
        int rgb = strstr(variant, "f32") ? 12 : 3;
        snprintf(buf, sizeof buf, "%d*h*w+2*((h+1)/2)*((w+1)/2)", 1 + rgb);
        gen_cost(p, flops, buf);
    }
    if (atol >= 0)
        gen_tolerance(p, atol, rtol);
    gen_source(p, "%s", src);
    int rc = emit_cuda(p, variant, entry, kind, src);
    return gen_end(p) != 0 || rc != 0 ? -1 : 0;
}

#define END {0, 0, 0, 0, 0, 0}

static int gray_family(GenCtx *g)
{
    int rc = 0;
    rc |= prog(g, "gray-bt601-rgb-u8", "rgb_to_gray", "RGB to grey, BT.601 weights, 8-bit fixed point", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"gray", "u8", "out", "n", 0, 0}, END}, 6, -1, 0,
               "/* Luma of an interleaved 8-bit RGB image with the BT.601 weights (0.299, 0.587,\n"
               " * 0.114) in 8-bit fixed point: Y = (77 R + 150 G + 29 B + 128) >> 8. */\n"
               "#include <stdint.h>\n\n"
               "void rgb_to_gray(const uint8_t *rgb, uint8_t *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const uint8_t *p = rgb + 3 * i;\n"
               "        gray[i] = (uint8_t)((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8);\n"
               "    }\n}\n");
    rc |= prog(g, "gray-bt601-rgb-f32", "rgb_to_gray", "RGB to grey, BT.601 weights, float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 5, -1, 0,
               "/* Luma of an interleaved float RGB image: Y = 0.299 R + 0.587 G + 0.114 B (BT.601). */\n"
               "void rgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        gray[i] = 0.299f * rgb[3 * i] + 0.587f * rgb[3 * i + 1] + 0.114f * rgb[3 * i + 2];\n"
               "}\n");
    rc |= prog(g, "gray-bt601-planar-f32", "rgb_to_gray", "planar RGB to grey, BT.601 weights, float", PIX,
               (A[]){{"rgb", "f32", "in", "3,n", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 5, -1, 0,
               "/* Luma of a planar float RGB image (the R, G and B planes one after another):\n"
               " * Y = 0.299 R + 0.587 G + 0.114 B (BT.601). */\n"
               "void rgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
               "    const float *r = rgb, *g = rgb + n, *b = rgb + 2 * n;\n"
               "    for (int i = 0; i < n; i++)\n"
               "        gray[i] = 0.299f * r[i] + 0.587f * g[i] + 0.114f * b[i];\n"
               "}\n");
    rc |= prog(g, "gray-bt601-bgr-u8", "bgr_to_gray", "BGR to grey, BT.601 weights, 15-bit fixed point", PIX,
               (A[]){{"bgr", "u8", "in", "n,3", 0, 0}, {"gray", "u8", "out", "n", 0, 0}, END}, 6, -1, 0,
               "/* Luma of an interleaved 8-bit BGR image (blue first), BT.601 weights in 15-bit\n"
               " * fixed point: Y = (3735 B + 19235 G + 9798 R + 2^14) >> 15. */\n"
               "#include <stdint.h>\n\n"
               "void bgr_to_gray(const uint8_t *bgr, uint8_t *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int b = bgr[3 * i], g = bgr[3 * i + 1], r = bgr[3 * i + 2];\n"
               "        gray[i] = (uint8_t)((3735 * b + 19235 * g + 9798 * r + (1 << 14)) >> 15);\n"
               "    }\n}\n");
    rc |= prog(g, "gray-bt601-rgba-f32", "rgba_to_gray", "RGBA to grey (alpha ignored), BT.601, float", PIX,
               (A[]){{"rgba", "f32", "in", "n,4", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 5, -1, 0,
               "/* Luma of an interleaved float RGBA image, alpha ignored:\n"
               " * Y = 0.299 R + 0.587 G + 0.114 B (BT.601). */\n"
               "void rgba_to_gray(const float *rgba, float *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const float *p = rgba + 4 * i;\n"
               "        gray[i] = 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];\n"
               "    }\n}\n");
    rc |= prog(g, "gray-bt709-rgb-f32", "rgb_to_gray", "RGB to grey, BT.709 weights, float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 5, -1, 0,
               "/* Luma of an interleaved float RGB image, BT.709 weights:\n"
               " * Y = 0.2126 R + 0.7152 G + 0.0722 B. */\n"
               "void rgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        gray[i] = 0.2126f * r + 0.7152f * g + 0.0722f * b;\n"
               "    }\n}\n");
    rc |= prog(g, "gray-bt709-planar-u8", "rgb_to_gray", "planar RGB to grey, BT.709, 16-bit fixed point", PIX,
               (A[]){{"r", "u8", "in", "n", 0, 0}, {"g", "u8", "in", "n", 0, 0}, {"b", "u8", "in", "n", 0, 0},
                     {"gray", "u8", "out", "n", 0, 0}, END}, 6, -1, 0,
               "/* Luma from three separate 8-bit R, G, B planes, BT.709 weights (0.2126, 0.7152,\n"
               " * 0.0722) in 16-bit fixed point: Y = (13933 R + 46871 G + 4732 B + 2^15) >> 16. */\n"
               "#include <stdint.h>\n\n"
               "void rgb_to_gray(const uint8_t *r, const uint8_t *g, const uint8_t *b, uint8_t *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        gray[i] = (uint8_t)((13933 * r[i] + 46871 * g[i] + 4732 * b[i] + (1 << 15)) >> 16);\n"
               "}\n");
    rc |= prog(g, "gray-alpha-bt709-rgba-u8", "rgba_to_gray_alpha", "RGBA to grey+alpha, BT.709, fixed point", PIX,
               (A[]){{"rgba", "u8", "in", "n,4", 0, 0}, {"ga", "u8", "out", "n,2", 0, 0}, END}, 6, -1, 0,
               "/* Interleaved 8-bit RGBA to interleaved grey + alpha: grey is the BT.709 luma in\n"
               " * 16-bit fixed point, (13933 R + 46871 G + 4732 B + 2^15) >> 16; alpha is kept. */\n"
               "#include <stdint.h>\n\n"
               "void rgba_to_gray_alpha(const uint8_t *rgba, uint8_t *ga, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const uint8_t *p = rgba + 4 * i;\n"
               "        ga[2 * i] = (uint8_t)((13933 * p[0] + 46871 * p[1] + 4732 * p[2] + (1 << 15)) >> 16);\n"
               "        ga[2 * i + 1] = p[3];\n"
               "    }\n}\n");
    rc |= prog(g, "gray-average-rgb-u8", "rgb_to_gray", "RGB to grey as the rounded channel mean, u8", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"gray", "u8", "out", "n", 0, 0}, END}, 3, -1, 0,
               "/* Grey as the mean of the three channels of an interleaved 8-bit RGB image,\n"
               " * rounded to nearest: (R + G + B + 1) / 3. */\n"
               "#include <stdint.h>\n\n"
               "void rgb_to_gray(const uint8_t *rgb, uint8_t *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        gray[i] = (uint8_t)((rgb[3 * i] + rgb[3 * i + 1] + rgb[3 * i + 2] + 1) / 3);\n"
               "}\n");
    rc |= prog(g, "gray-average-planar-f32", "rgb_to_gray", "planar RGB to grey as the channel mean, f32", PIX,
               (A[]){{"rgb", "f32", "in", "3,n", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 3, -1, 0,
               "/* Grey as the mean of the channels of a planar float RGB image (R, G, B planes\n"
               " * one after another). */\n"
               "void rgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        gray[i] = (rgb[i] + rgb[n + i] + rgb[2 * n + i]) / 3.0f;\n"
               "}\n");
    rc |= prog(g, "gray-lightness-rgb-u8", "rgb_to_gray", "RGB to grey by lightness (max+min)/2, u8", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"gray", "u8", "out", "n", 0, 0}, END}, 4, -1, 0,
               "/* Grey by the lightness method, (max(R, G, B) + min(R, G, B)) / 2 rounded to\n"
               " * nearest, for an interleaved 8-bit RGB image. */\n"
               "#include <stdint.h>\n\n"
               "static int max3(int a, int b, int c)\n{\n    int m = a > b ? a : b;\n    return m > c ? m : c;\n}\n\n"
               "static int min3(int a, int b, int c)\n{\n    int m = a < b ? a : b;\n    return m < c ? m : c;\n}\n\n"
               "void rgb_to_gray(const uint8_t *rgb, uint8_t *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        gray[i] = (uint8_t)((max3(r, g, b) + min3(r, g, b) + 1) / 2);\n"
               "    }\n}\n");
    rc |= prog(g, "gray-lightness-rgb-f32", "rgb_to_gray", "RGB to grey by lightness (max+min)/2, f32", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 5, -1, 0,
               "/* Grey by the lightness method, (max(R, G, B) + min(R, G, B)) / 2, for an\n"
               " * interleaved float RGB image. */\n"
               "#include <math.h>\n\n"
               "void rgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        gray[i] = 0.5f * (fmaxf(r, fmaxf(g, b)) + fminf(r, fminf(g, b)));\n"
               "    }\n}\n");
    return rc;
}

static int ycbcr_family(GenCtx *g)
{
    int rc = 0;
    static const char JPEG_FWD_U8[] =
        "static uint8_t clamp_u8(int v)\n{\n    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));\n}\n\n";
    char src[4096];
    snprintf(src, sizeof src,
             "/* JPEG (full-range BT.601) YCbCr from an interleaved 8-bit RGB image, in 16-bit\n"
             " * fixed point, rounded and clamped to [0, 255]:\n"
             " *     Y  =  0.299 R    + 0.587 G    + 0.114 B\n"
             " *     Cb = -0.168736 R - 0.331264 G + 0.5 B      + 128\n"
             " *     Cr =  0.5 R      - 0.418688 G - 0.081312 B + 128\n"
             " * The output is interleaved Y, Cb, Cr. */\n"
             "#include <stdint.h>\n\n%s"
             "void rgb_to_ycbcr(const uint8_t *rgb, uint8_t *ycc, int n)\n{\n"
             "    const int half = 1 << 15, offset = 128 << 16;\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
             "        ycc[3 * i] = clamp_u8((19595 * r + 38470 * g + 7471 * b + half) >> 16);\n"
             "        ycc[3 * i + 1] = clamp_u8((-11059 * r - 21709 * g + 32768 * b + offset + half) >> 16);\n"
             "        ycc[3 * i + 2] = clamp_u8((32768 * r - 27439 * g - 5329 * b + offset + half) >> 16);\n"
             "    }\n}\n",
             JPEG_FWD_U8);
    rc |= prog(g, "rgb-to-ycbcr-jpeg-u8", "rgb_to_ycbcr", "RGB to JPEG YCbCr, 8-bit fixed point, interleaved", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"ycc", "u8", "out", "n,3", 0, 0}, END}, 15, -1, 0, src);
    snprintf(src, sizeof src,
             "/* JPEG (full-range BT.601) YCbCr from an interleaved 8-bit RGB image into three\n"
             " * planes (Y, then Cb, then Cr), 16-bit fixed point, rounded and clamped:\n"
             " *     Y  =  0.299 R    + 0.587 G    + 0.114 B\n"
             " *     Cb = -0.168736 R - 0.331264 G + 0.5 B      + 128\n"
             " *     Cr =  0.5 R      - 0.418688 G - 0.081312 B + 128 */\n"
             "#include <stdint.h>\n\n%s"
             "void rgb_to_ycbcr_planar(const uint8_t *rgb, uint8_t *ycc, int n)\n{\n"
             "    uint8_t *y = ycc, *cb = ycc + n, *cr = ycc + 2 * n;\n"
             "    const int half = 1 << 15, offset = 128 << 16;\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
             "        y[i] = clamp_u8((19595 * r + 38470 * g + 7471 * b + half) >> 16);\n"
             "        cb[i] = clamp_u8((-11059 * r - 21709 * g + 32768 * b + offset + half) >> 16);\n"
             "        cr[i] = clamp_u8((32768 * r - 27439 * g - 5329 * b + offset + half) >> 16);\n"
             "    }\n}\n",
             JPEG_FWD_U8);
    rc |= prog(g, "rgb-to-ycbcr-jpeg-planar-out-u8", "rgb_to_ycbcr_planar",
               "interleaved RGB to planar JPEG YCbCr, 8-bit fixed point", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"ycc", "u8", "out", "3,n", 0, 0}, END}, 15, -1, 0, src);
    rc |= prog(g, "rgb-to-ycbcr-jpeg-f32", "rgb_to_ycbcr", "RGB to JPEG YCbCr, float in [0, 1], interleaved", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"ycc", "f32", "out", "n,3", 0, 0}, END}, 15, -1, 0,
               "/* JPEG (full-range BT.601) YCbCr from an interleaved float RGB image in [0, 1];\n"
               " * chroma is offset by 0.5:\n"
               " *     Y  =  0.299 R    + 0.587 G    + 0.114 B\n"
               " *     Cb = -0.168736 R - 0.331264 G + 0.5 B      + 0.5\n"
               " *     Cr =  0.5 R      - 0.418688 G - 0.081312 B + 0.5 */\n"
               "void rgb_to_ycbcr(const float *rgb, float *ycc, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        ycc[3 * i] = 0.299f * r + 0.587f * g + 0.114f * b;\n"
               "        ycc[3 * i + 1] = -0.168736f * r - 0.331264f * g + 0.5f * b + 0.5f;\n"
               "        ycc[3 * i + 2] = 0.5f * r - 0.418688f * g - 0.081312f * b + 0.5f;\n"
               "    }\n}\n");
    rc |= prog(g, "rgb-to-ycbcr-jpeg-planar-f32", "rgb_to_ycbcr", "planar RGB to planar JPEG YCbCr, float", PIX,
               (A[]){{"rgb", "f32", "in", "3,n", 0, 0}, {"ycc", "f32", "out", "3,n", 0, 0}, END}, 15, -1, 0,
               "/* JPEG (full-range BT.601) YCbCr of a planar float RGB image in [0, 1]; both\n"
               " * images hold their three planes one after another; chroma is offset by 0.5. */\n"
               "void rgb_to_ycbcr(const float *rgb, float *ycc, int n)\n{\n"
               "    const float *r = rgb, *g = rgb + n, *b = rgb + 2 * n;\n"
               "    float *y = ycc, *cb = ycc + n, *cr = ycc + 2 * n;\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        y[i] = 0.299f * r[i] + 0.587f * g[i] + 0.114f * b[i];\n"
               "        cb[i] = 0.5f + (b[i] - y[i]) / 1.772f;\n"
               "        cr[i] = 0.5f + (r[i] - y[i]) / 1.402f;\n"
               "    }\n}\n");
    rc |= prog(g, "ycbcr-jpeg-to-rgb-u8", "ycbcr_to_rgb", "JPEG YCbCr to RGB, u8, rounded and clamped", PIX,
               (A[]){{"ycc", "u8", "in", "n,3", 0, 0}, {"rgb", "u8", "out", "n,3", 0, 0}, END}, 16, 1, 0,
               "/* Interleaved JPEG (full-range BT.601) YCbCr to interleaved 8-bit RGB:\n"
               " *     R = Y + 1.402 (Cr - 128)\n"
               " *     G = Y - 0.344136 (Cb - 128) - 0.714136 (Cr - 128)\n"
               " *     B = Y + 1.772 (Cb - 128)\n"
               " * rounded to nearest and clamped to [0, 255]. */\n"
               "#include <math.h>\n#include <stdint.h>\n\n"
               "static uint8_t to_u8(float v)\n{\n"
               "    v = floorf(v + 0.5f);\n    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));\n}\n\n"
               "void ycbcr_to_rgb(const uint8_t *ycc, uint8_t *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float y = ycc[3 * i], cb = ycc[3 * i + 1] - 128.0f, cr = ycc[3 * i + 2] - 128.0f;\n"
               "        rgb[3 * i] = to_u8(y + 1.402f * cr);\n"
               "        rgb[3 * i + 1] = to_u8(y - 0.344136f * cb - 0.714136f * cr);\n"
               "        rgb[3 * i + 2] = to_u8(y + 1.772f * cb);\n"
               "    }\n}\n");
    rc |= prog(g, "ycbcr-jpeg-to-rgb-planar-f32", "ycbcr_to_rgb", "planar JPEG YCbCr to planar RGB, float, clamped", PIX,
               (A[]){{"ycc", "f32", "in", "3,n", 0, 0}, {"rgb", "f32", "out", "3,n", 0, 0}, END}, 16, -1, 0,
               "/* Planar JPEG YCbCr (chroma offset 0.5) to planar float RGB clamped to [0, 1]:\n"
               " *     R = Y + 1.402 Cr',  G = Y - 0.344136 Cb' - 0.714136 Cr',  B = Y + 1.772 Cb'\n"
               " * with Cb' = Cb - 0.5, Cr' = Cr - 0.5. */\n"
               "#include <math.h>\n\n"
               "static float clamp01(float v)\n{\n    return fminf(fmaxf(v, 0.0f), 1.0f);\n}\n\n"
               "void ycbcr_to_rgb(const float *ycc, float *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float y = ycc[i], cb = ycc[n + i] - 0.5f, cr = ycc[2 * n + i] - 0.5f;\n"
               "        rgb[i] = clamp01(y + 1.402f * cr);\n"
               "        rgb[n + i] = clamp01(y - 0.344136f * cb - 0.714136f * cr);\n"
               "        rgb[2 * n + i] = clamp01(y + 1.772f * cb);\n"
               "    }\n}\n");
    rc |= prog(g, "rgb-to-yuv-bt601-f32", "rgb_to_yuv", "RGB to analog YUV (BT.601), float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"yuv", "f32", "out", "n,3", 0, 0}, END}, 9, -1, 0,
               "/* Analog YUV (BT.601) from an interleaved float RGB image:\n"
               " *     Y = 0.299 R + 0.587 G + 0.114 B,  U = 0.492111 (B - Y),  V = 0.877283 (R - Y). */\n"
               "void rgb_to_yuv(const float *rgb, float *yuv, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        float y = 0.299f * r + 0.587f * g + 0.114f * b;\n"
               "        yuv[3 * i] = y;\n"
               "        yuv[3 * i + 1] = 0.492111f * (b - y);\n"
               "        yuv[3 * i + 2] = 0.877283f * (r - y);\n"
               "    }\n}\n");
    rc |= prog(g, "yuv-bt601-to-rgb-f32", "yuv_to_rgb", "analog YUV (BT.601) planes to interleaved RGB, float", PIX,
               (A[]){{"y", "f32", "in", "n", 0, 1}, {"u", "f32", "in", "n", -0.436, 0.436},
                     {"v", "f32", "in", "n", -0.615, 0.615}, {"rgb", "f32", "out", "n,3", 0, 0}, END}, 8, -1, 0,
               "/* Analog YUV (BT.601), three separate planes, to an interleaved float RGB image:\n"
               " *     R = Y + 1.139883 V,  G = Y - 0.394642 U - 0.580622 V,  B = Y + 2.032062 U. */\n"
               "void yuv_to_rgb(const float *y, const float *u, const float *v, float *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        rgb[3 * i] = y[i] + 1.139883f * v[i];\n"
               "        rgb[3 * i + 1] = y[i] - 0.394642f * u[i] - 0.580622f * v[i];\n"
               "        rgb[3 * i + 2] = y[i] + 2.032062f * u[i];\n"
               "    }\n}\n");
    rc |= prog(g, "rgb-to-ycbcr-bt601-studio-u8", "rgb_to_ycbcr", "RGB to studio-range BT.601 YCbCr planes, 8-bit fixed point", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"y", "u8", "out", "n", 0, 0}, {"cb", "u8", "out", "n", 0, 0},
                     {"cr", "u8", "out", "n", 0, 0}, END}, 15, -1, 0,
               "/* Studio-range BT.601 YCbCr (Y in [16, 235], chroma in [16, 240]) from an\n"
               " * interleaved 8-bit RGB image, in 8-bit fixed point:\n"
               " *     Y  = ((66 R + 129 G + 25 B + 128) >> 8) + 16\n"
               " *     Cb = ((-38 R - 74 G + 112 B + 128) >> 8) + 128\n"
               " *     Cr = ((112 R - 94 G - 18 B + 128) >> 8) + 128\n"
               " * (the chroma offset is added before the shift so that it never shifts a\n"
               " * negative value). */\n"
               "#include <stdint.h>\n\n"
               "void rgb_to_ycbcr(const uint8_t *rgb, uint8_t *y, uint8_t *cb, uint8_t *cr, int n)\n{\n"
               "    const int bias = (128 << 8) + 128;\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        y[i] = (uint8_t)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);\n"
               "        cb[i] = (uint8_t)((-38 * r - 74 * g + 112 * b + bias) >> 8);\n"
               "        cr[i] = (uint8_t)((112 * r - 94 * g - 18 * b + bias) >> 8);\n"
               "    }\n}\n");
    rc |= prog(g, "ycbcr-bt601-studio-to-rgb-u8", "ycbcr_to_rgb", "studio-range BT.601 YCbCr planes to RGB, 8-bit fixed point", PIX,
               (A[]){{"y", "u8", "in", "n", 16, 236}, {"cb", "u8", "in", "n", 16, 241}, {"cr", "u8", "in", "n", 16, 241},
                     {"rgb", "u8", "out", "n,3", 0, 0}, END}, 14, -1, 0,
               "/* Studio-range BT.601 YCbCr, three separate 8-bit planes, to interleaved RGB in\n"
               " * 8-bit fixed point, with C = Y - 16, D = Cb - 128, E = Cr - 128:\n"
               " *     R = (298 C + 409 E + 128) / 256\n"
               " *     G = (298 C - 100 D - 208 E + 128) / 256\n"
               " *     B = (298 C + 516 D + 128) / 256\n"
               " * each floored and clamped to [0, 255]. */\n"
               "#include <stdint.h>\n\n"
               "/* floor(v / 256) clamped to [0, 255]. */\n"
               "static uint8_t scale_clamp(int v)\n{\n"
               "    if (v < 0)\n        return 0;\n    v >>= 8;\n    return (uint8_t)(v > 255 ? 255 : v);\n}\n\n"
               "void ycbcr_to_rgb(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, uint8_t *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int c = y[i] - 16, d = cb[i] - 128, e = cr[i] - 128;\n"
               "        rgb[3 * i] = scale_clamp(298 * c + 409 * e + 128);\n"
               "        rgb[3 * i + 1] = scale_clamp(298 * c - 100 * d - 208 * e + 128);\n"
               "        rgb[3 * i + 2] = scale_clamp(298 * c + 516 * d + 128);\n"
               "    }\n}\n");
    rc |= prog(g, "rgb-to-ycbcr-bt709-studio-f32", "rgb_to_ycbcr", "RGB in [0,1] to studio-range BT.709 YCbCr on the 8-bit scale, float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"ycc", "f32", "out", "n,3", 0, 0}, END}, 12, 1e-3, 1e-4,
               "/* Studio-range BT.709 YCbCr on the 8-bit scale from an interleaved float RGB image\n"
               " * in [0, 1]: with E = 0.2126 R + 0.7152 G + 0.0722 B,\n"
               " *     Y = 16 + 219 E,  Cb = 128 + 224 (B - E) / 1.8556,  Cr = 128 + 224 (R - E) / 1.5748. */\n"
               "void rgb_to_ycbcr(const float *rgb, float *ycc, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        float e = 0.2126f * r + 0.7152f * g + 0.0722f * b;\n"
               "        ycc[3 * i] = 16.0f + 219.0f * e;\n"
               "        ycc[3 * i + 1] = 128.0f + 224.0f * (b - e) / 1.8556f;\n"
               "        ycc[3 * i + 2] = 128.0f + 224.0f * (r - e) / 1.5748f;\n"
               "    }\n}\n");
    rc |= prog(g, "ycbcr-bt709-studio-to-rgb-u8", "ycbcr_to_rgb", "studio-range BT.709 YCbCr to RGB, u8, rounded and clamped", PIX,
               (A[]){{"ycc", "u8", "in", "n,3", 16, 236}, {"rgb", "u8", "out", "n,3", 0, 0}, END}, 16, 1, 0,
               "/* Interleaved studio-range BT.709 YCbCr to interleaved 8-bit RGB: with\n"
               " * E = (Y - 16) / 219, Pb = (Cb - 128) / 224, Pr = (Cr - 128) / 224,\n"
               " *     R = E + 1.5748 Pr,  G = E - 0.1873 Pb - 0.4681 Pr,  B = E + 1.8556 Pb,\n"
               " * scaled by 255, rounded to nearest and clamped to [0, 255]. */\n"
               "#include <math.h>\n#include <stdint.h>\n\n"
               "static uint8_t to_u8(float v)\n{\n"
               "    v = floorf(255.0f * v + 0.5f);\n    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));\n}\n\n"
               "void ycbcr_to_rgb(const uint8_t *ycc, uint8_t *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float e = (ycc[3 * i] - 16) / 219.0f;\n"
               "        float pb = (ycc[3 * i + 1] - 128) / 224.0f;\n"
               "        float pr = (ycc[3 * i + 2] - 128) / 224.0f;\n"
               "        rgb[3 * i] = to_u8(e + 1.5748f * pr);\n"
               "        rgb[3 * i + 1] = to_u8(e - 0.1873f * pb - 0.4681f * pr);\n"
               "        rgb[3 * i + 2] = to_u8(e + 1.8556f * pb);\n"
               "    }\n}\n");
    return rc;
}

static int subsampled_family(GenCtx *g)
{
    int rc = 0;
    rc |= prog(g, "nv12-to-rgb-bt601-u8", "nv12_to_rgb", "NV12 (4:2:0, interleaved UV) studio BT.601 to RGB, fixed point", YUV420,
               (A[]){{"luma", "u8", "in", "h,w", 16, 236}, {"uv", "u8", "in", "(h+1)/2,(w+1)/2,2", 16, 241},
                     {"rgb", "u8", "out", "h,w,3", 0, 0}, END}, 14, -1, 0,
               "/* NV12 to interleaved 8-bit RGB: an h x w luma plane and a half-resolution\n"
               " * plane of interleaved (Cb, Cr) pairs, one per 2 x 2 block (odd sizes round up).\n"
               " * Studio-range BT.601 in 8-bit fixed point, with C = Y - 16, D = Cb - 128,\n"
               " * E = Cr - 128:\n"
               " *     R = (298 C + 409 E + 128) / 256,  G = (298 C - 100 D - 208 E + 128) / 256,\n"
               " *     B = (298 C + 516 D + 128) / 256,\n"
               " * each floored and clamped to [0, 255]. */\n"
               "#include <stdint.h>\n\n"
               "/* floor(v / 256) clamped to [0, 255]. */\n"
               "static uint8_t scale_clamp(int v)\n{\n"
               "    if (v < 0)\n        return 0;\n    v >>= 8;\n    return (uint8_t)(v > 255 ? 255 : v);\n}\n\n"
               "void nv12_to_rgb(const uint8_t *luma, const uint8_t *uv, uint8_t *rgb, int h, int w)\n{\n"
               "    const int cw = (w + 1) / 2;\n"
               "    for (int row = 0; row < h; row++) {\n"
               "        for (int col = 0; col < w; col++) {\n"
               "            const uint8_t *chroma = uv + ((row / 2) * cw + col / 2) * 2;\n"
               "            int c = luma[row * w + col] - 16, d = chroma[0] - 128, e = chroma[1] - 128;\n"
               "            uint8_t *p = rgb + (row * w + col) * 3;\n"
               "            p[0] = scale_clamp(298 * c + 409 * e + 128);\n"
               "            p[1] = scale_clamp(298 * c - 100 * d - 208 * e + 128);\n"
               "            p[2] = scale_clamp(298 * c + 516 * d + 128);\n"
               "        }\n    }\n}\n");
    rc |= prog(g, "nv21-to-rgb-bt709-f32", "nv21_to_rgb", "NV21 (4:2:0, interleaved VU) full-range BT.709 to float RGB", YUV420,
               (A[]){{"luma", "u8", "in", "h,w", 0, 0}, {"vu", "u8", "in", "(h+1)/2,(w+1)/2,2", 0, 0},
                     {"rgb", "f32", "out", "h,w,3", 0, 0}, END}, 12, -1, 0,
               "/* NV21 to interleaved float RGB in [0, 1]: an h x w 8-bit luma plane and a\n"
               " * half-resolution plane of interleaved (Cr, Cb) pairs, one per 2 x 2 block (odd\n"
               " * sizes round up).  Full-range BT.709:\n"
               " *     R = Y + 1.5748 Cr',  G = Y - 0.1873 Cb' - 0.4681 Cr',  B = Y + 1.8556 Cb'\n"
               " * on values scaled to [0, 1] (chroma centred on 128), clamped to [0, 1]. */\n"
               "#include <math.h>\n#include <stdint.h>\n\n"
               "static float clamp01(float v)\n{\n    return fminf(fmaxf(v, 0.0f), 1.0f);\n}\n\n"
               "void nv21_to_rgb(const uint8_t *luma, const uint8_t *vu, float *rgb, int h, int w)\n{\n"
               "    const int cw = (w + 1) / 2;\n"
               "    for (int row = 0; row < h; row++) {\n"
               "        for (int col = 0; col < w; col++) {\n"
               "            const uint8_t *chroma = vu + ((row / 2) * cw + col / 2) * 2;\n"
               "            float y = luma[row * w + col] / 255.0f;\n"
               "            float cr = (chroma[0] - 128) / 255.0f, cb = (chroma[1] - 128) / 255.0f;\n"
               "            float *p = rgb + (row * w + col) * 3;\n"
               "            p[0] = clamp01(y + 1.5748f * cr);\n"
               "            p[1] = clamp01(y - 0.1873f * cb - 0.4681f * cr);\n"
               "            p[2] = clamp01(y + 1.8556f * cb);\n"
               "        }\n    }\n}\n");
    rc |= prog(g, "i420-to-rgb-jpeg-u8", "i420_to_rgb", "I420 (4:2:0, three planes) JPEG YCbCr to RGB, u8, rounded", YUV420,
               (A[]){{"y", "u8", "in", "h,w", 0, 0}, {"u", "u8", "in", "(h+1)/2,(w+1)/2", 0, 0},
                     {"v", "u8", "in", "(h+1)/2,(w+1)/2", 0, 0}, {"rgb", "u8", "out", "h,w,3", 0, 0}, END}, 16, 1, 0,
               "/* I420 to interleaved 8-bit RGB: an h x w Y plane and half-resolution U (Cb) and\n"
               " * V (Cr) planes, one sample per 2 x 2 block (odd sizes round up).  Full-range\n"
               " * (JPEG) BT.601:\n"
               " *     R = Y + 1.402 (V - 128),  G = Y - 0.344136 (U - 128) - 0.714136 (V - 128),\n"
               " *     B = Y + 1.772 (U - 128),\n"
               " * rounded to nearest and clamped to [0, 255]. */\n"
               "#include <math.h>\n#include <stdint.h>\n\n"
               "static uint8_t to_u8(float v)\n{\n"
               "    v = floorf(v + 0.5f);\n    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));\n}\n\n"
               "void i420_to_rgb(const uint8_t *y, const uint8_t *u, const uint8_t *v, uint8_t *rgb, int h, int w)\n{\n"
               "    const int cw = (w + 1) / 2;\n"
               "    for (int row = 0; row < h; row++) {\n"
               "        for (int col = 0; col < w; col++) {\n"
               "            int k = (row / 2) * cw + col / 2;\n"
               "            float luma = y[row * w + col], cb = u[k] - 128.0f, cr = v[k] - 128.0f;\n"
               "            uint8_t *p = rgb + (row * w + col) * 3;\n"
               "            p[0] = to_u8(luma + 1.402f * cr);\n"
               "            p[1] = to_u8(luma - 0.344136f * cb - 0.714136f * cr);\n"
               "            p[2] = to_u8(luma + 1.772f * cb);\n"
               "        }\n    }\n}\n");
    rc |= prog(g, "rgb-to-nv12-bt601-u8", "rgb_to_nv12", "RGB to NV12 (studio BT.601, chroma from 2x2 block means), fixed point", YUV420,
               (A[]){{"rgb", "u8", "in", "h,w,3", 0, 0}, {"luma", "u8", "out", "h,w", 0, 0},
                     {"uv", "u8", "out", "(h+1)/2,(w+1)/2,2", 0, 0}, END}, 20, -1, 0,
               "/* Interleaved 8-bit RGB to NV12 (studio-range BT.601, 8-bit fixed point):\n"
               " *     Y = ((66 R + 129 G + 25 B + 128) >> 8) + 16 per pixel;\n"
               " * one (Cb, Cr) pair per 2 x 2 block (partial blocks at odd edges use the pixels\n"
               " * they have), from the block's channel sums SR, SG, SB over its k pixels:\n"
               " *     Cb = floor((-38 SR - 74 SG + 112 SB + 32896 k) / (256 k))\n"
               " *     Cr = floor((112 SR - 94 SG - 18 SB + 32896 k) / (256 k)). */\n"
               "#include <stdint.h>\n\n"
               "void rgb_to_nv12(const uint8_t *rgb, uint8_t *luma, uint8_t *uv, int h, int w)\n{\n"
               "    for (int row = 0; row < h; row++) {\n"
               "        for (int col = 0; col < w; col++) {\n"
               "            const uint8_t *p = rgb + (row * w + col) * 3;\n"
               "            luma[row * w + col] = (uint8_t)(((66 * p[0] + 129 * p[1] + 25 * p[2] + 128) >> 8) + 16);\n"
               "        }\n    }\n"
               "    const int ch = (h + 1) / 2, cw = (w + 1) / 2;\n"
               "    for (int by = 0; by < ch; by++) {\n"
               "        for (int bx = 0; bx < cw; bx++) {\n"
               "            int sr = 0, sg = 0, sb = 0, k = 0;\n"
               "            for (int row = 2 * by; row < 2 * by + 2 && row < h; row++) {\n"
               "                for (int col = 2 * bx; col < 2 * bx + 2 && col < w; col++) {\n"
               "                    const uint8_t *p = rgb + (row * w + col) * 3;\n"
               "                    sr += p[0];\n                    sg += p[1];\n                    sb += p[2];\n"
               "                    k++;\n"
               "                }\n            }\n"
               "            uint8_t *c = uv + (by * cw + bx) * 2;\n"
               "            c[0] = (uint8_t)((-38 * sr - 74 * sg + 112 * sb + 32896 * k) / (256 * k));\n"
               "            c[1] = (uint8_t)((112 * sr - 94 * sg - 18 * sb + 32896 * k) / (256 * k));\n"
               "        }\n    }\n}\n");
    return rc;
}

static const char HUE_F32[] =
    "/* Hue in degrees [0, 360) of a colour with maximum mx and range d = mx - mn > 0. */\n"
    "static float hue(float r, float g, float b, float mx, float d)\n{\n"
    "    float h;\n"
    "    if (mx == r)\n        h = 60.0f * ((g - b) / d);\n"
    "    else if (mx == g)\n        h = 60.0f * ((b - r) / d + 2.0f);\n"
    "    else\n        h = 60.0f * ((r - g) / d + 4.0f);\n"
    "    return h < 0 ? h + 360.0f : h;\n}\n\n";

static int hsv_family(GenCtx *g)
{
    int rc = 0;
    char src[4096];
    snprintf(src, sizeof src,
             "/* RGB to HSV for an interleaved float RGB image in [0, 1]: H in degrees [0, 360)\n"
             " * (0 for greys), S = (max - min) / max (0 for black), V = max.  Output\n"
             " * interleaved H, S, V. */\n"
             "#include <math.h>\n\n%s"
             "void rgb_to_hsv(const float *rgb, float *hsv, int n)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
             "        float mx = fmaxf(r, fmaxf(g, b)), mn = fminf(r, fminf(g, b)), d = mx - mn;\n"
             "        hsv[3 * i] = d > 0 ? hue(r, g, b, mx, d) : 0.0f;\n"
             "        hsv[3 * i + 1] = mx > 0 ? d / mx : 0.0f;\n"
             "        hsv[3 * i + 2] = mx;\n"
             "    }\n}\n",
             HUE_F32);
    rc |= prog(g, "rgb-to-hsv-f32", "rgb_to_hsv", "RGB to HSV (hue in degrees), float, interleaved", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"hsv", "f32", "out", "n,3", 0, 0}, END}, 12, 1e-4, 1e-4, src);
    rc |= prog(g, "rgb-to-hsv-planar-f32", "rgb_to_hsv", "planar RGB to planar HSV (all in [0,1)), float", PIX,
               (A[]){{"rgb", "f32", "in", "3,n", 0, 0}, {"hsv", "f32", "out", "3,n", 0, 0}, END}, 12, 1e-5, 1e-4,
               "/* RGB to HSV for planar float images (three planes one after another), every\n"
               " * component in [0, 1]: H is the hue angle as a fraction of a turn (0 for greys),\n"
               " * S = (max - min) / max (0 for black), V = max. */\n"
               "#include <math.h>\n\n"
               "void rgb_to_hsv(const float *rgb, float *hsv, int n)\n{\n"
               "    const float *r = rgb, *g = rgb + n, *b = rgb + 2 * n;\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float mx = fmaxf(r[i], fmaxf(g[i], b[i])), mn = fminf(r[i], fminf(g[i], b[i]));\n"
               "        float d = mx - mn, h = 0;\n"
               "        if (d > 0) {\n"
               "            if (mx == r[i])\n                h = (g[i] - b[i]) / d;\n"
               "            else if (mx == g[i])\n                h = (b[i] - r[i]) / d + 2;\n"
               "            else\n                h = (r[i] - g[i]) / d + 4;\n"
               "            h /= 6;\n            if (h < 0)\n                h += 1;\n"
               "        }\n"
               "        hsv[i] = h;\n        hsv[n + i] = mx > 0 ? d / mx : 0.0f;\n        hsv[2 * n + i] = mx;\n"
               "    }\n}\n");
    rc |= prog(g, "rgb-to-hsv-u8", "rgb_to_hsv", "RGB to 8-bit HSV (H in [0,180)), exact integer arithmetic", PIX,
               (A[]){{"rgb", "u8", "in", "n,3", 0, 0}, {"hsv", "u8", "out", "n,3", 0, 0}, END}, 14, -1, 0,
               "/* RGB to HSV for interleaved 8-bit images, in integers: V = max, S = 255 (max -\n"
               " * min) / max and H = hue / 2 in [0, 180) (hue in degrees), each rounded to\n"
               " * nearest (halves away from zero); H = S = 0 for greys and black. */\n"
               "#include <stdint.h>\n\n"
               "/* num / den rounded to nearest, halves away from zero (den > 0). */\n"
               "static int div_round(int num, int den)\n{\n"
               "    return num >= 0 ? (2 * num + den) / (2 * den) : -((-2 * num + den) / (2 * den));\n}\n\n"
               "void rgb_to_hsv(const uint8_t *rgb, uint8_t *hsv, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
               "        int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);\n"
               "        int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);\n"
               "        int d = mx - mn, h = 0;\n"
               "        if (d > 0) {\n"
               "            if (mx == r)\n                h = div_round(30 * (g - b), d);\n"
               "            else if (mx == g)\n                h = 60 + div_round(30 * (b - r), d);\n"
               "            else\n                h = 120 + div_round(30 * (r - g), d);\n"
               "            if (h < 0)\n                h += 180;\n"
               "            if (h >= 180)\n                h -= 180;\n"
               "        }\n"
               "        hsv[3 * i] = (uint8_t)h;\n"
               "        hsv[3 * i + 1] = (uint8_t)(mx > 0 ? (255 * d + mx / 2) / mx : 0);\n"
               "        hsv[3 * i + 2] = (uint8_t)mx;\n"
               "    }\n}\n");
    rc |= prog(g, "hsv-to-rgb-f32", "hsv_to_rgb", "HSV planes (hue in degrees) to interleaved RGB, float", PIX,
               (A[]){{"h", "f32", "in", "n", 0, 360}, {"s", "f32", "in", "n", 0, 1}, {"v", "f32", "in", "n", 0, 1},
                     {"rgb", "f32", "out", "n,3", 0, 0}, END}, 14, 1e-4, 1e-4,
               "/* HSV to RGB: hue in degrees [0, 360), saturation and value in [0, 1], given as\n"
               " * three planes; output interleaved float RGB.  With C = V S, H' = H / 60,\n"
               " * X = C (1 - |H' mod 2 - 1|) and m = V - C, the sector floor(H') picks the\n"
               " * order of (C, X, 0), and m is added to each channel. */\n"
               "#include <math.h>\n\n"
               "void hsv_to_rgb(const float *h, const float *s, const float *v, float *rgb, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float c = v[i] * s[i], hp = h[i] / 60.0f;\n"
               "        float x = c * (1 - fabsf(fmodf(hp, 2.0f) - 1)), m = v[i] - c;\n"
               "        int sector = (int)hp;\n"
               "        float r, g, b;\n"
               "        switch (sector) {\n"
               "        case 0: r = c; g = x; b = 0; break;\n"
               "        case 1: r = x; g = c; b = 0; break;\n"
               "        case 2: r = 0; g = c; b = x; break;\n"
               "        case 3: r = 0; g = x; b = c; break;\n"
               "        case 4: r = x; g = 0; b = c; break;\n"
               "        default: r = c; g = 0; b = x; break;\n"
               "        }\n"
               "        rgb[3 * i] = r + m;\n        rgb[3 * i + 1] = g + m;\n        rgb[3 * i + 2] = b + m;\n"
               "    }\n}\n");
    snprintf(src, sizeof src,
             "/* RGB to HSL for an interleaved float RGB image in [0, 1]: H in degrees [0, 360)\n"
             " * (0 for greys), L = (max + min) / 2, S = (max - min) / (1 - |2 L - 1|) (0 for\n"
             " * greys).  Output interleaved H, S, L. */\n"
             "#include <math.h>\n\n%s"
             "void rgb_to_hsl(const float *rgb, float *hsl, int n)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];\n"
             "        float mx = fmaxf(r, fmaxf(g, b)), mn = fminf(r, fminf(g, b)), d = mx - mn;\n"
             "        float l = 0.5f * (mx + mn);\n"
             "        hsl[3 * i] = d > 0 ? hue(r, g, b, mx, d) : 0.0f;\n"
             "        hsl[3 * i + 1] = d > 0 ? d / (1 - fabsf(2 * l - 1)) : 0.0f;\n"
             "        hsl[3 * i + 2] = l;\n"
             "    }\n}\n",
             HUE_F32);
    rc |= prog(g, "rgb-to-hsl-f32", "rgb_to_hsl", "RGB to HSL (hue in degrees), float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"hsl", "f32", "out", "n,3", 0, 0}, END}, 14, 1e-4, 1e-4, src);
    rc |= prog(g, "hsl-to-rgb-f32", "hsl_to_rgb", "interleaved HSL (hue in degrees) to planar RGB, float", PIX,
               (A[]){{"hsl", "f32", "in", "n,3", 0, 0}, {"rgb", "f32", "out", "3,n", 0, 0}, END}, 16, 1e-4, 1e-4,
               "/* HSL to RGB: input interleaved (H, S, L) with the hue given as a fraction of a\n"
               " * turn in [0, 1) and S, L in [0, 1]; output planar float RGB (three planes one\n"
               " * after another).  With C = (1 - |2 L - 1|) S, H' = 6 H,\n"
               " * X = C (1 - |H' mod 2 - 1|) and m = L - C / 2, the sector floor(H') picks the\n"
               " * order of (C, X, 0), and m is added to each channel. */\n"
               "#include <math.h>\n\n"
               "void hsl_to_rgb(const float *hsl, float *rgb, int n)\n{\n"
               "    float *r = rgb, *g = rgb + n, *b = rgb + 2 * n;\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float hp = 6 * hsl[3 * i], s = hsl[3 * i + 1], l = hsl[3 * i + 2];\n"
               "        float c = (1 - fabsf(2 * l - 1)) * s;\n"
               "        float x = c * (1 - fabsf(fmodf(hp, 2.0f) - 1)), m = l - 0.5f * c;\n"
               "        int sector = (int)hp;\n"
               "        float rr = 0, gg = 0, bb = 0;\n"
               "        if (sector == 0) {\n            rr = c;\n            gg = x;\n"
               "        } else if (sector == 1) {\n            rr = x;\n            gg = c;\n"
               "        } else if (sector == 2) {\n            gg = c;\n            bb = x;\n"
               "        } else if (sector == 3) {\n            gg = x;\n            bb = c;\n"
               "        } else if (sector == 4) {\n            rr = x;\n            bb = c;\n"
               "        } else {\n            rr = c;\n            bb = x;\n        }\n"
               "        r[i] = rr + m;\n        g[i] = gg + m;\n        b[i] = bb + m;\n"
               "    }\n}\n");
    return rc;
}

static const char SRGB_DECODE[] =
    "/* sRGB-encoded value in [0, 1] to linear light. */\n"
    "static float srgb_to_linear(float c)\n{\n"
    "    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);\n}\n\n";
static const char SRGB_ENCODE[] =
    "/* Linear light in [0, 1] to the sRGB encoding. */\n"
    "static float linear_to_srgb(float c)\n{\n"
    "    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1 / 2.4f) - 0.055f;\n}\n\n";

static int transfer_family(GenCtx *g)
{
    int rc = 0;
    char src[4096];
    rc |= prog(g, "gamma-pow-f32", "gamma_correct", "gamma correction out = in^(1/gamma), float RGB", PIX,
               (A[]){{"in", "f32", "in", "n,3", 0, 0}, {"out", "f32", "out", "n,3", 0, 0},
                     {"gamma", "f32", "scalar", 0, 2.2, 0}, END}, 30, 1e-5, 1e-4,
               "/* Gamma correction of an interleaved float RGB image in [0, 1]:\n"
               " * out = in^(1 / gamma) for every channel. */\n"
               "#include <math.h>\n\n"
               "void gamma_correct(const float *in, float *out, int n, float gamma)\n{\n"
               "    const float e = 1.0f / gamma;\n"
               "    for (int i = 0; i < 3 * n; i++)\n"
               "        out[i] = powf(in[i], e);\n"
               "}\n");
    rc |= prog(g, "gamma-lut-u8", "gamma_correct", "gamma correction of 8-bit RGB through a 256-entry table", PIX,
               (A[]){{"in", "u8", "in", "n,3", 0, 0}, {"out", "u8", "out", "n,3", 0, 0},
                     {"gamma", "f32", "scalar", 0, 1.8, 0}, END}, 3, 1, 0,
               "/* Gamma correction of an interleaved 8-bit RGB image through a lookup table:\n"
               " * out = round(255 (in / 255)^(1 / gamma)). */\n"
               "#include <math.h>\n#include <stdint.h>\n\n"
               "void gamma_correct(const uint8_t *in, uint8_t *out, int n, float gamma)\n{\n"
               "    uint8_t table[256];\n"
               "    for (int k = 0; k < 256; k++)\n"
               "        table[k] = (uint8_t)(255.0f * powf(k / 255.0f, 1.0f / gamma) + 0.5f);\n"
               "    for (int i = 0; i < 3 * n; i++)\n"
               "        out[i] = table[in[i]];\n"
               "}\n");
    snprintf(src, sizeof src,
             "/* sRGB-encoded interleaved float RGBA image to linear light; alpha is already\n"
             " * linear and is copied. */\n"
             "#include <math.h>\n\n%s"
             "void srgb_to_linear_rgba(const float *in, float *out, int n)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        for (int c = 0; c < 3; c++)\n"
             "            out[4 * i + c] = srgb_to_linear(in[4 * i + c]);\n"
             "        out[4 * i + 3] = in[4 * i + 3];\n"
             "    }\n}\n",
             SRGB_DECODE);
    rc |= prog(g, "srgb-to-linear-rgba-f32", "srgb_to_linear_rgba", "sRGB decoding of float RGBA (alpha copied)", PIX,
               (A[]){{"in", "f32", "in", "n,4", 0, 0}, {"out", "f32", "out", "n,4", 0, 0}, END}, 30, 1e-5, 1e-4, src);
    snprintf(src, sizeof src,
             "/* Linear-light float RGB image (interleaved, in [0, 1]) to the sRGB encoding. */\n"
             "#include <math.h>\n\n%s"
             "void linear_to_srgb_rgb(const float *in, float *out, int n)\n{\n"
             "    for (int i = 0; i < 3 * n; i++)\n"
             "        out[i] = linear_to_srgb(in[i]);\n"
             "}\n",
             SRGB_ENCODE);
    rc |= prog(g, "linear-to-srgb-f32", "linear_to_srgb_rgb", "sRGB encoding of linear float RGB", PIX,
               (A[]){{"in", "f32", "in", "n,3", 0, 0}, {"out", "f32", "out", "n,3", 0, 0}, END}, 30, 1e-5, 1e-4, src);
    snprintf(src, sizeof src,
             "/* sRGB-encoded 8-bit RGB image to linear-light floats in [0, 1]. */\n"
             "#include <math.h>\n#include <stdint.h>\n\n%s"
             "void srgb8_to_linear(const uint8_t *in, float *out, int n)\n{\n"
             "    for (int i = 0; i < 3 * n; i++)\n"
             "        out[i] = srgb_to_linear(in[i] / 255.0f);\n"
             "}\n",
             SRGB_DECODE);
    rc |= prog(g, "srgb-u8-to-linear-f32", "srgb8_to_linear", "8-bit sRGB to linear-light float RGB", PIX,
               (A[]){{"in", "u8", "in", "n,3", 0, 0}, {"out", "f32", "out", "n,3", 0, 0}, END}, 30, 1e-5, 1e-4, src);
    snprintf(src, sizeof src,
             "/* Linear-light float RGB image in [0, 1] to 8-bit sRGB, rounded to nearest. */\n"
             "#include <math.h>\n#include <stdint.h>\n\n%s"
             "void linear_to_srgb8(const float *in, uint8_t *out, int n)\n{\n"
             "    for (int i = 0; i < 3 * n; i++)\n"
             "        out[i] = (uint8_t)(255.0f * linear_to_srgb(in[i]) + 0.5f);\n"
             "}\n",
             SRGB_ENCODE);
    rc |= prog(g, "linear-f32-to-srgb-u8", "linear_to_srgb8", "linear-light float RGB to 8-bit sRGB", PIX,
               (A[]){{"in", "f32", "in", "n,3", 0, 0}, {"out", "u8", "out", "n,3", 0, 0}, END}, 30, 1, 0, src);
    snprintf(src, sizeof src,
             "/* Grey of an sRGB-encoded float RGB image computed in linear light: decode each\n"
             " * channel, take the BT.709 luminance 0.2126 R + 0.7152 G + 0.0722 B, and encode\n"
             " * the result back to sRGB. */\n"
             "#include <math.h>\n\n%s%s"
             "void srgb_to_gray(const float *rgb, float *gray, int n)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        float r = srgb_to_linear(rgb[3 * i]);\n"
             "        float g = srgb_to_linear(rgb[3 * i + 1]);\n"
             "        float b = srgb_to_linear(rgb[3 * i + 2]);\n"
             "        gray[i] = linear_to_srgb(0.2126f * r + 0.7152f * g + 0.0722f * b);\n"
             "    }\n}\n",
             SRGB_DECODE, SRGB_ENCODE);
    rc |= prog(g, "gray-linear-light-f32", "srgb_to_gray", "grey of sRGB computed in linear light (decode, BT.709, encode)", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"gray", "f32", "out", "n", 0, 0}, END}, 90, 1e-5, 1e-4, src);
    rc |= prog(g, "brightness-contrast-f32", "brightness_contrast", "contrast about mid-grey plus brightness, clamped, float RGB", PIX,
               (A[]){{"in", "f32", "in", "n,3", 0, 0}, {"out", "f32", "out", "n,3", 0, 0},
                     {"contrast", "f32", "scalar", 0, 1.3, 0}, {"brightness", "f32", "scalar", 0, 0.05, 0}, END}, 12, -1, 0,
               "/* Contrast and brightness of an interleaved float RGB image in [0, 1]:\n"
               " * out = clamp((in - 0.5) contrast + 0.5 + brightness, 0, 1). */\n"
               "#include <math.h>\n\n"
               "void brightness_contrast(const float *in, float *out, int n, float contrast, float brightness)\n{\n"
               "    for (int i = 0; i < 3 * n; i++) {\n"
               "        float v = (in[i] - 0.5f) * contrast + 0.5f + brightness;\n"
               "        out[i] = fminf(fmaxf(v, 0.0f), 1.0f);\n"
               "    }\n}\n");
    return rc;
}

static int blend_family(GenCtx *g)
{
    int rc = 0;
    rc |= prog(g, "over-straight-f32", "composite_over", "Porter-Duff over of straight-alpha float RGBA images", PIX,
               (A[]){{"src", "f32", "in", "n,4", 0, 0}, {"dst", "f32", "in", "n,4", 0, 0},
                     {"out", "f32", "out", "n,4", 0, 0}, END}, 14, 1e-5, 1e-4,
               "/* Porter-Duff \"over\" of two interleaved float RGBA images with straight\n"
               " * (non-premultiplied) alpha:\n"
               " *     a = as + ad (1 - as),  c = (cs as + cd ad (1 - as)) / a  (0 where a = 0). */\n"
               "void composite_over(const float *src, const float *dst, float *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const float *s = src + 4 * i, *d = dst + 4 * i;\n"
               "        float under = d[3] * (1 - s[3]);\n"
               "        float a = s[3] + under;\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[4 * i + c] = a > 0 ? (s[c] * s[3] + d[c] * under) / a : 0.0f;\n"
               "        out[4 * i + 3] = a;\n"
               "    }\n}\n");
    rc |= prog(g, "over-premultiplied-f32", "composite_over", "Porter-Duff over of premultiplied float RGBA images", PIX,
               (A[]){{"src", "f32", "in", "n,4", 0, 0}, {"dst", "f32", "in", "n,4", 0, 0},
                     {"out", "f32", "out", "n,4", 0, 0}, END}, 8, -1, 0,
               "/* Porter-Duff \"over\" of two interleaved float RGBA images with premultiplied\n"
               " * alpha: every channel, alpha included, is out = src + dst (1 - src_alpha). */\n"
               "void composite_over(const float *src, const float *dst, float *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float k = 1 - src[4 * i + 3];\n"
               "        for (int c = 0; c < 4; c++)\n"
               "            out[4 * i + c] = src[4 * i + c] + dst[4 * i + c] * k;\n"
               "    }\n}\n");
    rc |= prog(g, "over-opaque-u8", "composite_over", "8-bit RGBA over an opaque RGB background, exact rounding", PIX,
               (A[]){{"src", "u8", "in", "n,4", 0, 0}, {"bg", "u8", "in", "n,3", 0, 0},
                     {"out", "u8", "out", "n,3", 0, 0}, END}, 12, -1, 0,
               "/* An interleaved 8-bit RGBA image (straight alpha) over an opaque RGB background:\n"
               " * out = (src a + bg (255 - a) + 127) / 255 per channel, in integers. */\n"
               "#include <stdint.h>\n\n"
               "void composite_over(const uint8_t *src, const uint8_t *bg, uint8_t *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int a = src[4 * i + 3];\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[3 * i + c] = (uint8_t)((src[4 * i + c] * a + bg[3 * i + c] * (255 - a) + 127) / 255);\n"
               "    }\n}\n");
    rc |= prog(g, "crossfade-u8", "crossfade", "constant-alpha cross-fade of two 8-bit RGB images", PIX,
               (A[]){{"a", "u8", "in", "n,3", 0, 0}, {"b", "u8", "in", "n,3", 0, 0},
                     {"out", "u8", "out", "n,3", 0, 0}, {"alpha", "f32", "scalar", 0, 0.35, 0}, END}, 9, 1, 0,
               "/* Cross-fade of two interleaved 8-bit RGB images with a constant weight:\n"
               " * out = round(alpha a + (1 - alpha) b). */\n"
               "#include <stdint.h>\n\n"
               "void crossfade(const uint8_t *a, const uint8_t *b, uint8_t *out, int n, float alpha)\n{\n"
               "    for (int i = 0; i < 3 * n; i++)\n"
               "        out[i] = (uint8_t)(alpha * a[i] + (1 - alpha) * b[i] + 0.5f);\n"
               "}\n");
    rc |= prog(g, "crossfade-planar-f32", "crossfade", "constant-alpha cross-fade of two planar float RGB images", PIX,
               (A[]){{"a", "f32", "in", "3,n", 0, 0}, {"b", "f32", "in", "3,n", 0, 0},
                     {"out", "f32", "out", "3,n", 0, 0}, {"alpha", "f32", "scalar", 0, 0.7, 0}, END}, 9, -1, 0,
               "/* Cross-fade of two planar float RGB images (planes one after another):\n"
               " * out = b + alpha (a - b). */\n"
               "void crossfade(const float *a, const float *b, float *out, int n, float alpha)\n{\n"
               "    for (int c = 0; c < 3; c++) {\n"
               "        const float *pa = a + c * n, *pb = b + c * n;\n"
               "        float *po = out + c * n;\n"
               "        for (int i = 0; i < n; i++)\n"
               "            po[i] = pb[i] + alpha * (pa[i] - pb[i]);\n"
               "    }\n}\n");
    rc |= prog(g, "blend-mask-f32", "blend_mask", "per-pixel mask blend of two float RGB images", PIX,
               (A[]){{"fg", "f32", "in", "n,3", 0, 0}, {"bg", "f32", "in", "n,3", 0, 0}, {"mask", "f32", "in", "n", 0, 0},
                     {"out", "f32", "out", "n,3", 0, 0}, END}, 9, -1, 0,
               "/* Blend of two interleaved float RGB images through a one-channel mask in [0, 1]:\n"
               " * out = mask fg + (1 - mask) bg. */\n"
               "void blend_mask(const float *fg, const float *bg, const float *mask, float *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float m = mask[i];\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[3 * i + c] = m * fg[3 * i + c] + (1 - m) * bg[3 * i + c];\n"
               "    }\n}\n");
    rc |= prog(g, "premultiply-u8", "premultiply", "premultiply 8-bit RGBA by alpha, exact rounding", PIX,
               (A[]){{"in", "u8", "in", "n,4", 0, 0}, {"out", "u8", "out", "n,4", 0, 0}, END}, 9, -1, 0,
               "/* Premultiplied alpha for an interleaved 8-bit RGBA image:\n"
               " * c' = (c a + 127) / 255, alpha unchanged. */\n"
               "#include <stdint.h>\n\n"
               "void premultiply(const uint8_t *in, uint8_t *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int a = in[4 * i + 3];\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[4 * i + c] = (uint8_t)((in[4 * i + c] * a + 127) / 255);\n"
               "        out[4 * i + 3] = (uint8_t)a;\n"
               "    }\n}\n");
    rc |= prog(g, "unpremultiply-f32", "unpremultiply", "divide premultiplied float RGBA colour by alpha", PIX,
               (A[]){{"in", "f32", "in", "n,4", 0.05, 1.0}, {"out", "f32", "out", "n,4", 0, 0}, END}, 4, -1, 0,
               "/* Undo premultiplied alpha for an interleaved float RGBA image: c' = c / a where\n"
               " * a > 0 (colour 0 otherwise), alpha unchanged. */\n"
               "void unpremultiply(const float *in, float *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        float a = in[4 * i + 3];\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[4 * i + c] = a > 0 ? in[4 * i + c] / a : 0.0f;\n"
               "        out[4 * i + 3] = a;\n"
               "    }\n}\n");
    return rc;
}

static int misc_family(GenCtx *g)
{
    int rc = 0;
    char src[4096];
    rc |= prog(g, "rgb-to-xyz-f32", "rgb_to_xyz", "linear sRGB (D65) to CIE XYZ, float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"xyz", "f32", "out", "n,3", 0, 0}, END}, 15, -1, 0,
               "/* Linear-light sRGB (D65 white) to CIE XYZ for an interleaved float image:\n"
               " * xyz = M rgb with the standard sRGB matrix M. */\n"
               "void rgb_to_xyz(const float *rgb, float *xyz, int n)\n{\n"
               "    static const float M[3][3] = {{0.4124564f, 0.3575761f, 0.1804375f},\n"
               "                                  {0.2126729f, 0.7151522f, 0.0721750f},\n"
               "                                  {0.0193339f, 0.1191920f, 0.9503041f}};\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const float *p = rgb + 3 * i;\n"
               "        for (int k = 0; k < 3; k++)\n"
               "            xyz[3 * i + k] = M[k][0] * p[0] + M[k][1] * p[1] + M[k][2] * p[2];\n"
               "    }\n}\n");
    snprintf(src, sizeof src,
             "/* sRGB-encoded float RGB image in [0, 1] to CIE L*a*b* (D65 white point):\n"
             " * decode to linear light, convert to XYZ, normalise by the white point and apply\n"
             " * f(t) = cbrt(t) for t > (6/29)^3, t / (3 (6/29)^2) + 4/29 otherwise;\n"
             " *     L = 116 f(Y) - 16,  a = 500 (f(X) - f(Y)),  b = 200 (f(Y) - f(Z)). */\n"
             "#include <math.h>\n\n%s"
             "static float lab_f(float t)\n{\n"
             "    const float delta = 6.0f / 29.0f;\n"
             "    return t > delta * delta * delta ? cbrtf(t) : t / (3 * delta * delta) + 4.0f / 29.0f;\n}\n\n"
             "void rgb_to_lab(const float *rgb, float *lab, int n)\n{\n"
             "    for (int i = 0; i < n; i++) {\n"
             "        float r = srgb_to_linear(rgb[3 * i]);\n"
             "        float g = srgb_to_linear(rgb[3 * i + 1]);\n"
             "        float b = srgb_to_linear(rgb[3 * i + 2]);\n"
             "        float x = (0.4124564f * r + 0.3575761f * g + 0.1804375f * b) / 0.95047f;\n"
             "        float y = 0.2126729f * r + 0.7151522f * g + 0.0721750f * b;\n"
             "        float z = (0.0193339f * r + 0.1191920f * g + 0.9503041f * b) / 1.08883f;\n"
             "        float fx = lab_f(x), fy = lab_f(y), fz = lab_f(z);\n"
             "        lab[3 * i] = 116 * fy - 16;\n"
             "        lab[3 * i + 1] = 500 * (fx - fy);\n"
             "        lab[3 * i + 2] = 200 * (fy - fz);\n"
             "    }\n}\n",
             SRGB_DECODE);
    rc |= prog(g, "rgb-to-lab-f32", "rgb_to_lab", "sRGB to CIE L*a*b* (D65), float", PIX,
               (A[]){{"rgb", "f32", "in", "n,3", 0, 0}, {"lab", "f32", "out", "n,3", 0, 0}, END}, 120, 1e-3, 1e-4, src);
    rc |= prog(g, "sepia-u8", "sepia", "sepia tone matrix on 8-bit RGB, fixed point, saturated", PIX,
               (A[]){{"in", "u8", "in", "n,3", 0, 0}, {"out", "u8", "out", "n,3", 0, 0}, END}, 18, -1, 0,
               "/* Sepia tone of an interleaved 8-bit RGB image, the classic matrix\n"
               " *     R' = 0.393 R + 0.769 G + 0.189 B\n"
               " *     G' = 0.349 R + 0.686 G + 0.168 B\n"
               " *     B' = 0.272 R + 0.534 G + 0.131 B\n"
               " * in 8-bit fixed point (weights times 256, truncated), saturated at 255. */\n"
               "#include <stdint.h>\n\n"
               "static uint8_t sat(int v)\n{\n    return (uint8_t)(v > 255 ? 255 : v);\n}\n\n"
               "void sepia(const uint8_t *in, uint8_t *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        int r = in[3 * i], g = in[3 * i + 1], b = in[3 * i + 2];\n"
               "        out[3 * i] = sat((101 * r + 197 * g + 48 * b) >> 8);\n"
               "        out[3 * i + 1] = sat((89 * r + 176 * g + 43 * b) >> 8);\n"
               "        out[3 * i + 2] = sat((70 * r + 137 * g + 34 * b) >> 8);\n"
               "    }\n}\n");
    rc |= prog(g, "saturation-f32", "saturate", "saturation scaling about BT.709 luma, clamped, float RGB", PIX,
               (A[]){{"in", "f32", "in", "n,3", 0, 0}, {"out", "f32", "out", "n,3", 0, 0},
                     {"s", "f32", "scalar", 0, 1.5, 0}, END}, 14, -1, 0,
               "/* Saturation of an interleaved float RGB image in [0, 1] scaled by s about its\n"
               " * BT.709 luma Y: out = clamp(Y + s (c - Y), 0, 1) per channel. */\n"
               "#include <math.h>\n\n"
               "void saturate(const float *in, float *out, int n, float s)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        const float *p = in + 3 * i;\n"
               "        float y = 0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2];\n"
               "        for (int c = 0; c < 3; c++)\n"
               "            out[3 * i + c] = fminf(fmaxf(y + s * (p[c] - y), 0.0f), 1.0f);\n"
               "    }\n}\n");
    return rc;
}

static int generate(GenCtx *g)
{
    /* 12 + 12 + 4 + 6 + 8 + 8 + 4 = 54 programs. */
    if (gray_family(g) || ycbcr_family(g) || subsampled_family(g) || hsv_family(g) || transfer_family(g) ||
        blend_family(g) || misc_family(g))
        return -1;
    return 0;
}

const Family family_colour = {"colour", "image", 54, generate};
