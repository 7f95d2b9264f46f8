/* conv_separable — separable 2D convolutions (correlation form) of an h x w
 * image with a row filter kx and a column filter ky.  Programs vary by
 *   - filters: given as input arrays of a fixed tap count, given as inputs
 *     with the radius as a param, or baked constants (Gaussian, binomial,
 *     arbitrary skewed taps, and a derivative-of-Gaussian pair that produces
 *     both gradient images);
 *   - structure: row pass into a temporary then column pass, column pass
 *     first, or fused (no temporary);
 *   - border: zero, clamped, mirrored about the edge pixel, periodic, or
 *     "valid" (the output shrinks by the filter length minus one);
 *   - dtype f32/f64, tap counts 3..9, and single images or a batch of planes
 *     sharing one scratch plane. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { F_INPUT, F_INPUT_R, F_GAUSS, F_BINOMIAL, F_SKEW, F_DOG, N_FILTERS };
static const char *const FTAG[] = {"kin", "kparam", "gauss", "binomial", "skew", "dog"};
enum { ROWS_FIRST, COLS_FIRST, FUSED };
static const char *const STAG[] = {"rowcol", "colrow", "fused"};
enum { ZERO, CLAMP, MIRROR, WRAP, VALID };
static const char *const BTAG[] = {"zero", "clamp", "mirror", "wrap", "valid"};
static const char *const BTEXT[] = {"zero outside the image", "clamped (edge pixels repeated)",
                                    "mirrored about the edge pixel", "periodic",
                                    "valid region only (the output shrinks by 2 R in each direction)"};

typedef struct Ctx {
    int f, st, b, f64, taps, batched;
    const char *ty, *R; /* "R" (enum) or "r" (param) */
} Ctx;

static const char *lit(char *buf, double v, int f64)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, f64 ? "%.12g" : "%.7g", v);
    if (!strpbrk(tmp, ".e"))
        strcat(tmp, ".0");
    snprintf(buf, 48, "%s%s", tmp, f64 ? "" : "f");
    return buf;
}

/* Appends "<qual> T name[2 * R + 1] = {...};", qual "static const" in C
 * and "__constant__" in CUDA. */
static void emit_array(StrBuf *s, const char *qual, const char *name, const double *w, int n, const Ctx *C)
{
    char b[48];
    sb_printf(s, "%s %s %s[2 * R + 1] = {", qual, C->ty, name);
    for (int k = 0; k < n; k++)
        sb_printf(s, "%s%s", k ? ", " : "", lit(b, w[k], C->f64));
    sb_append(s, "};\n");
}

/* The border's index helper; `head` is "static int" in C and
 * "static __device__ int" in CUDA. */
static void emit_index_helper(StrBuf *s, int b, const char *head)
{
    if (b == CLAMP)
        sb_printf(s, "%s clampi(int i, int n)\n{\n    return i < 0 ? 0 : (i >= n ? n - 1 : i);\n}\n\n", head);
    else if (b == MIRROR)
        sb_printf(s, "/* Index i reflected into [0, n) about the edge samples. */\n"
                     "%s reflect101(int i, int n)\n{\n"
                     "    if (n == 1)\n        return 0;\n"
                     "    int period = 2 * n - 2;\n    i %%= period;\n    if (i < 0)\n        i += period;\n"
                     "    return i < n ? i : period - i;\n}\n\n", head);
    else if (b == WRAP)
        sb_printf(s, "/* i modulo n, in [0, n). */\n%s wrap(int i, int n)\n{\n"
                     "    i %%= n;\n    return i < 0 ? i + n : i;\n}\n\n", head);
}

static const char *IDXFN[] = {NULL, "clampi", "reflect101", "wrap", NULL};

/* One 1D pass; `rows` selects the direction.  Parameters: (in, out, k, h, w[, r]). */
static void emit_pass(StrBuf *s, const Ctx *C, int rows)
{
    const char *ty = C->ty, *R = C->R;
    int param = C->f == F_INPUT_R;
    const char *rp = param ? ", int r" : "";
    if (C->b == VALID) {
        if (rows)
            sb_printf(s, "/* Row pass: out (h x (w - 2 %s)) = in filtered along each row by k. */\n", R);
        else
            sb_printf(s, "/* Column pass: out ((h - 2 %s) x w) = in filtered along each column by k. */\n", R);
    } else {
        sb_printf(s, "/* %s pass: out = in filtered along each %s by k (h x w). */\n", rows ? "Row" : "Column",
                  rows ? "row" : "column");
    }
    sb_printf(s, "static void %s(const %s *in, %s *out, const %s *k, int h, int w%s)\n{\n", rows ? "row_pass" : "col_pass",
              ty, ty, ty, rp);
    if (C->b == VALID) {
        if (rows) {
            sb_printf(s, "    const int ow = w - 2 * %s;\n", R);
            sb_printf(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < ow; x++) {\n"
                         "            %s acc = 0;\n"
                         "            for (int t = 0; t <= 2 * %s; t++)\n"
                         "                acc += k[t] * in[y * w + x + t];\n"
                         "            out[y * ow + x] = acc;\n        }\n    }\n}\n\n", ty, R);
        } else {
            sb_printf(s, "    const int oh = h - 2 * %s;\n", R);
            sb_printf(s, "    for (int y = 0; y < oh; y++) {\n        for (int x = 0; x < w; x++) {\n"
                         "            %s acc = 0;\n"
                         "            for (int t = 0; t <= 2 * %s; t++)\n"
                         "                acc += k[t] * in[(y + t) * w + x];\n"
                         "            out[y * w + x] = acc;\n        }\n    }\n}\n\n", ty, R);
        }
        return;
    }
    sb_printf(s, "    for (int y = 0; y < h; y++) {\n        for (int x = 0; x < w; x++) {\n"
                 "            %s acc = 0;\n            for (int t = -%s; t <= %s; t++)%s\n", ty, R, R,
              C->b == ZERO ? " {" : "");
    if (C->b == ZERO) {
        if (rows)
            sb_append(s, "                int xx = x + t;\n                if (xx >= 0 && xx < w)\n");
        else
            sb_append(s, "                int yy = y + t;\n                if (yy >= 0 && yy < h)\n");
        sb_printf(s, "                    acc += k[t + %s] * in[%s];\n", R, rows ? "y * w + xx" : "yy * w + x");
    } else if (rows) {
        sb_printf(s, "                acc += k[t + %s] * in[y * w + %s(x + t, w)];\n", R, IDXFN[C->b]);
    } else {
        sb_printf(s, "                acc += k[t + %s] * in[%s(y + t, h) * w + x];\n", R, IDXFN[C->b]);
    }
    if (C->b == ZERO)
        sb_append(s, "            }\n");
    sb_append(s, "            out[y * w + x] = acc;\n        }\n    }\n}\n\n");
}

/* The fused loop body for one plane: reads `src`, writes `dst` (or gx/gy for DoG). */
static void emit_fused(StrBuf *s, const Ctx *C, const char *I, const char *src, const char *kx, const char *ky,
                       const char *dst, const char *dst2)
{
    const char *ty = C->ty, *R = C->R;
    int dog = C->f == F_DOG, valid = C->b == VALID;
    int braces = dog || C->b == ZERO;
    sb_printf(s, "%sfor (int y = 0; y < %s; y++) {\n%s    for (int x = 0; x < %s; x++) {\n", I, valid ? "oh" : "h",
              I, valid ? "ow" : "w");
    if (dog)
        sb_printf(s, "%s        %s sx = 0, sy = 0;\n", I, ty);
    else
        sb_printf(s, "%s        %s acc = 0;\n", I, ty);
    if (valid) {
        sb_printf(s, "%s        for (int i = 0; i <= 2 * %s; i++) {\n", I, R);
        sb_printf(s, "%s            const %s *row = %s + (y + i) * w + x;\n", I, ty, src);
    } else {
        sb_printf(s, "%s        for (int i = -%s; i <= %s; i++) {\n", I, R, R);
        if (C->b == ZERO)
            sb_printf(s, "%s            if (y + i < 0 || y + i >= h)\n%s                continue;\n"
                         "%s            const %s *row = %s + (y + i) * w;\n", I, I, I, ty, src);
        else
            sb_printf(s, "%s            const %s *row = %s + %s(y + i, h) * w;\n", I, ty, src, IDXFN[C->b]);
    }
    if (dog)
        sb_printf(s, "%s            %s smooth = 0, deriv = 0;\n", I, ty);
    else
        sb_printf(s, "%s            %s racc = 0;\n", I, ty);
    char sample[48];
    if (valid) {
        sb_printf(s, "%s            for (int j = 0; j <= 2 * %s; j++)%s\n", I, R, braces ? " {" : "");
        snprintf(sample, sizeof sample, "row[j]");
    } else {
        sb_printf(s, "%s            for (int j = -%s; j <= %s; j++)%s\n", I, R, R, braces ? " {" : "");
        if (C->b == ZERO) {
            sb_printf(s, "%s                if (x + j < 0 || x + j >= w)\n%s                    continue;\n", I, I);
            snprintf(sample, sizeof sample, "row[x + j]");
        } else {
            snprintf(sample, sizeof sample, "row[%s(x + j, w)]", IDXFN[C->b]);
        }
    }
    char ji[16], ii[16];
    snprintf(ji, sizeof ji, valid ? "j" : "j + %s", R);
    snprintf(ii, sizeof ii, valid ? "i" : "i + %s", R);
    if (dog) {
        sb_printf(s, "%s                smooth += G[%s] * %s;\n", I, ji, sample);
        sb_printf(s, "%s                deriv += D[%s] * %s;\n", I, ji, sample);
        sb_printf(s, "%s            }\n%s            sx += G[%s] * deriv;\n%s            sy += D[%s] * smooth;\n"
                     "%s        }\n",
                  I, I, ii, I, ii, I);
        sb_printf(s, "%s        %s[y * %s + x] = sx;\n%s        %s[y * %s + x] = sy;\n", I, dst,
                  valid ? "ow" : "w", I, dst2, valid ? "ow" : "w");
    } else {
        sb_printf(s, "%s                racc += %s[%s] * %s;\n", I, kx, ji, sample);
        if (braces)
            sb_printf(s, "%s            }\n", I);
        sb_printf(s, "%s            acc += %s[%s] * racc;\n%s        }\n", I, ky, ii, I);
        sb_printf(s, "%s        %s[y * %s + x] = acc;\n", I, dst, valid ? "ow" : "w");
    }
    sb_printf(s, "%s    }\n%s}\n", I, I);
}

/* ---- the pair ---- */

/* Appends the lines of src between its first `skip_head` lines and its last
 * `skip_tail` lines, each with its first `drop` spaces removed. */
static void append_inner(StrBuf *k, const char *src, int skip_head, int skip_tail, int drop)
{
    int lines = 0;
    for (const char *c = src; *c; c++)
        lines += *c == '\n';
    int at = 0;
    for (const char *line = src; *line; at++) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        if (at >= skip_head && at < lines - skip_tail) {
            int d = 0;
            while (d < drop && line[d] == ' ')
                d++;
            sb_append_n(k, line + d, len - (size_t)d);
        }
        line += len;
    }
}

/* One 1D pass kernel: one thread per output element, the output row in
 * blockIdx.y and the plane in blockIdx.z; the taps as in the C pass.
 * filter: a baked __constant__ array, or NULL for the pointer param k. */
static void emit_cuda_pass(StrBuf *k, const Ctx *C, int rows, const char *kname, const char *filter)
{
    const char *ty = C->ty, *R = C->R, *F = filter ? filter : "k";
    int valid = C->b == VALID;
    const char *oh = !rows && valid ? "oh" : "h", *ow = rows && valid ? "ow" : "w";
    sb_printf(k, "/* %s pass: out = in filtered along each %s by %s (%s x %s per plane); one thread per\n"
                 " * output element, the plane in blockIdx.z. */\n",
              rows ? "Row" : "Column", rows ? "row" : "column", F, oh, ow);
    StrBuf sig = STRBUF_INIT;
    sb_printf(&sig, "extern \"C\" __global__ void %s(const %s *__restrict__ in, %s *__restrict__ out, ", kname, ty,
              ty);
    if (!filter)
        sb_printf(&sig, "const %s *__restrict__ k, ", ty);
    sb_printf(&sig, "int h, int w%s)\n", C->f == F_INPUT_R ? ", int r" : "");
    tmpl_put_wrapped(k, sig.data);
    sb_release(&sig);
    sb_append(k, "{\n");
    if (valid)
        sb_printf(k, rows ? "    const int ow = w - 2 * %s;\n" : "    const int oh = h - 2 * %s;\n", R);
    sb_printf(k, "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;\n"
                 "    if (x >= %s)\n        return;\n"
                 "    const %s *src = in + (long long)blockIdx.z * h * w;\n"
                 "    %s *dst = out + (long long)blockIdx.z * %s * %s;\n"
                 "    %s acc = 0;\n",
              ow, ty, ty, oh, ow, ty);
    if (valid) {
        sb_printf(k, "    for (int t = 0; t <= 2 * %s; t++)\n        acc += %s[t] * src[%s];\n", R, F,
                  rows ? "y * w + x + t" : "(y + t) * w + x");
    } else if (C->b == ZERO) {
        sb_printf(k, "    for (int t = -%s; t <= %s; t++) {\n", R, R);
        if (rows)
            sb_append(k, "        int xx = x + t;\n        if (xx >= 0 && xx < w)\n");
        else
            sb_append(k, "        int yy = y + t;\n        if (yy >= 0 && yy < h)\n");
        sb_printf(k, "            acc += %s[t + %s] * src[%s];\n    }\n", F, R, rows ? "y * w + xx" : "yy * w + x");
    } else if (rows) {
        sb_printf(k, "    for (int t = -%s; t <= %s; t++)\n        acc += %s[t + %s] * src[y * w + %s(x + t, w)];\n", R,
                  R, F, R, IDXFN[C->b]);
    } else {
        sb_printf(k, "    for (int t = -%s; t <= %s; t++)\n        acc += %s[t + %s] * src[%s(y + t, h) * w + x];\n", R,
                  R, F, R, IDXFN[C->b]);
    }
    sb_printf(k, "    dst[y * %s + x] = acc;\n}\n", ow);
}

/* Launches a pass kernel from src to dst; hin x win: its input's size and
 * hout x wout its output's (expressions); karg: the filter argument or NULL. */
static void launch_pass(GenProgram *p, const Ctx *C, const char *kname, const char *src, const char *dst,
                        const char *karg, const char *hin, const char *win, const char *hout, const char *wout)
{
    char grid[96], args[128];
    snprintf(grid, sizeof grid, "(%s+255)/256,%s,%s", wout, hout, C->batched ? "planes" : "1");
    snprintf(args, sizeof args, "%s,%s,%s%s%s,%s%s", src, dst, karg ? karg : "", karg ? "," : "", hin, win,
             C->f == F_INPUT_R ? ",r" : "");
    gen_launch(p, kname, grid, "256", NULL, args);
}

/* The C program reuses one scratch plane per temporary, so after its loop
 * the temporary holds the last plane's intermediate: copied from stage. */
static void launch_copy_last(GenProgram *p, const char *stage, const char *tmp, const char *count)
{
    char grid[96], args[128];
    snprintf(grid, sizeof grid, "(%s+255)/256", count);
    snprintf(args, sizeof args, "%s,%s,planes,%s", stage, tmp, count);
    gen_launch(p, "copy_last_plane", grid, "256", NULL, args);
}

/* The pair.  Fused programs: one thread per output pixel running the C's
 * fused loop body (blockIdx.y the row, blockIdx.z the plane).  Two-pass
 * programs: a row-pass and a column-pass kernel, one thread per element of
 * each pass's output, launched in the C's order through tmp; a batch of
 * planes runs each pass over all planes at once through a scratch stage of
 * every plane's intermediate, and the last plane's intermediate is copied
 * into tmp, where the C program leaves it.  Sums run in the C's order.
 * kx, ky: the baked filter taps (unused for input filters); oh, ow: the
 * output size expressions. */
static void emit_cuda(GenProgram *p, const Ctx *C, const double *kx, const double *ky, const char *oh,
                      const char *ow, const char *KXn, const char *KYn)
{
    StrBuf *k = gen_cuda_src(p);
    const char *ty = C->ty;
    int f = C->f, st = C->st, dog = f == F_DOG, param = f == F_INPUT_R, inputs = f == F_INPUT || f == F_INPUT_R;
    int valid = C->b == VALID;
    if (!param)
        sb_printf(k, "enum { R = %d };\n\n", C->taps / 2);
    if (dog) {
        emit_array(k, "__constant__", "G", kx, C->taps, C);
        emit_array(k, "__constant__", "D", ky, C->taps, C);
        sb_append(k, "\n");
    } else if (!inputs) {
        if (f == F_SKEW) {
            emit_array(k, "__constant__", "KX", kx, C->taps, C);
            emit_array(k, "__constant__", "KY", ky, C->taps, C);
        } else {
            emit_array(k, "__constant__", f == F_GAUSS ? "GAUSS" : "BINOMIAL", kx, C->taps, C);
        }
        sb_append(k, "\n");
    }
    if (!valid)
        emit_index_helper(k, C->b, "static __device__ int");
    gen_knob(p, "block", "256");
    if (st == FUSED) {
        const char *entry = dog ? "gradient_dog" : "sepconv";
        sb_append(k, "/* One thread per output pixel (x, blockIdx.y) of plane blockIdx.z. */\n");
        StrBuf sig = STRBUF_INIT;
        sb_printf(&sig, "extern \"C\" __global__ void %s(const %s *__restrict__ in, ", entry, ty);
        if (inputs)
            sb_printf(&sig, "const %s *__restrict__ kx, const %s *__restrict__ ky, ", ty, ty);
        if (dog)
            sb_printf(&sig, "%s *__restrict__ gx_out, %s *__restrict__ gy_out, ", ty, ty);
        else
            sb_printf(&sig, "%s *__restrict__ out, ", ty);
        sb_printf(&sig, "int h, int w%s)\n", param ? ", int r" : "");
        tmpl_put_wrapped(k, sig.data);
        sb_release(&sig);
        sb_append(k, "{\n");
        if (valid)
            sb_printf(k, "    const int oh = h - 2 * %s, ow = w - 2 * %s;\n", C->R, C->R);
        sb_printf(k, "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;\n"
                     "    if (x >= %s)\n        return;\n", valid ? "ow" : "w");
        const char *plane_out = valid ? "oh * ow" : "h * w";
        sb_printf(k, "    const %s *src = in + (long long)blockIdx.z * h * w;\n", ty);
        if (dog)
            sb_printf(k, "    %s *gx = gx_out + (long long)blockIdx.z * %s;\n"
                         "    %s *gy = gy_out + (long long)blockIdx.z * %s;\n", ty, plane_out, ty, plane_out);
        else
            sb_printf(k, "    %s *dst = out + (long long)blockIdx.z * %s;\n", ty, plane_out);
        StrBuf body = STRBUF_INIT;
        emit_fused(&body, C, "    ", "src", KXn, KYn, dog ? "gx" : "dst", "gy");
        append_inner(k, body.data, 2, 2, 8);
        sb_release(&body);
        sb_append(k, "}\n");
        char grid[96], args[96];
        snprintf(grid, sizeof grid, "(%s+255)/256,%s,%s", ow, oh, C->batched ? "planes" : "1");
        snprintf(args, sizeof args, "in,%s%s,h,w%s", inputs ? "kx,ky," : "", dog ? "gx_out,gy_out" : "out",
                 param ? ",r" : "");
        gen_launch(p, entry, grid, "256", NULL, args);
        gen_knob(p, "mapping", "one-output-per-thread, fused");
        return;
    }

    /* Two passes: the intermediate is h x ow after a row pass, oh x w after
     * a column pass. */
    int rf = st == ROWS_FIRST;
    const char *mh = rf ? "h" : oh, *mw = rf ? ow : "w";
    char count[64];
    snprintf(count, sizeof count, strchr(mh, '-') ? "(%s)*" : "%s*", mh);
    snprintf(count + strlen(count), sizeof count - strlen(count), strchr(mw, '-') ? "(%s)" : "%s", mw);
    const char *first = rf ? "row_pass" : "col_pass", *second = rf ? "col_pass" : "row_pass";
    if (dog) {
        char n1g[16], n1d[16], n2g[16], n2d[16];
        snprintf(n1g, sizeof n1g, "%s_g", first);
        snprintf(n1d, sizeof n1d, "%s_d", first);
        snprintf(n2g, sizeof n2g, "%s_g", second);
        snprintf(n2d, sizeof n2d, "%s_d", second);
        emit_cuda_pass(k, C, rf, n1g, "G");
        sb_append(k, "\n");
        emit_cuda_pass(k, C, rf, n1d, "D");
        sb_append(k, "\n");
        emit_cuda_pass(k, C, !rf, n2g, "G");
        sb_append(k, "\n");
        emit_cuda_pass(k, C, !rf, n2d, "D");
        const char *smooth = C->batched ? "stage_smooth" : "tmp_smooth";
        const char *deriv = C->batched ? "stage_deriv" : "tmp_deriv";
        if (C->batched) {
            char sc[96];
            snprintf(sc, sizeof sc, "planes*%s", count);
            gen_scratch(p, "stage_smooth", C->f64 ? "f64" : "f32", sc);
            gen_scratch(p, "stage_deriv", C->f64 ? "f64" : "f32", sc);
        }
        launch_pass(p, C, n1g, "in", smooth, NULL, "h", "w", mh, mw);
        launch_pass(p, C, n1d, "in", deriv, NULL, "h", "w", mh, mw);
        /* gx: D along rows, G along columns; gy: G along rows, D along columns. */
        launch_pass(p, C, rf ? n2g : n2d, rf ? deriv : smooth, "gx_out", NULL, mh, mw, oh, ow);
        launch_pass(p, C, rf ? n2d : n2g, rf ? smooth : deriv, "gy_out", NULL, mh, mw, oh, ow);
        if (C->batched) {
            launch_copy_last(p, "stage_smooth", "tmp_smooth", count);
            launch_copy_last(p, "stage_deriv", "tmp_deriv", count);
        }
    } else {
        const char *f1 = inputs ? NULL : rf ? KXn : KYn, *f2 = inputs ? NULL : rf ? KYn : KXn;
        emit_cuda_pass(k, C, rf, first, f1);
        sb_append(k, "\n");
        emit_cuda_pass(k, C, !rf, second, f2);
        const char *mid = C->batched ? "stage" : "tmp";
        if (C->batched) {
            char sc[96];
            snprintf(sc, sizeof sc, "planes*%s", count);
            gen_scratch(p, "stage", C->f64 ? "f64" : "f32", sc);
        }
        launch_pass(p, C, first, "in", mid, inputs ? (rf ? "kx" : "ky") : NULL, "h", "w", mh, mw);
        launch_pass(p, C, second, mid, "out", inputs ? (rf ? "ky" : "kx") : NULL, mh, mw, oh, ow);
        if (C->batched)
            launch_copy_last(p, "stage", "tmp", count);
    }
    if (C->batched) {
        char sig[200];
        snprintf(sig, sizeof sig,
                 "extern \"C\" __global__ void copy_last_plane(const %s *__restrict__ stage, %s *__restrict__ tmp, "
                 "int planes, int count)\n",
                 ty, ty);
        sb_append(k, "\n/* tmp = the last plane of stage (count elements a plane). */\n");
        tmpl_put_wrapped(k, sig);
        sb_append(k, "{\n"
                     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < count)\n        tmp[i] = stage[(long long)(planes - 1) * count + i];\n}\n");
    }
    gen_knob(p, "mapping", C->batched ? "one-output-per-thread, two passes through a staged batch"
                                      : "one-output-per-thread, two passes");
}

static void draw_filters(GenCtx *g, const Ctx *C, double *kx, double *ky, char *what, size_t wl)
{
    int n = C->taps, r = n / 2;
    if (C->f == F_GAUSS || C->f == F_DOG) {
        double sigma = gen_uniform(g, 1.0, 1.4) * (n - 1) / 6.0;
        sigma = floor(sigma * 10 + 0.5) / 10;
        if (sigma < 0.5)
            sigma = 0.5;
        double sum = 0, m2 = 0;
        for (int k = -r; k <= r; k++)
            sum += (kx[k + r] = exp(-(double)(k * k) / (2 * sigma * sigma)));
        for (int k = 0; k < n; k++)
            kx[k] /= sum;
        for (int k = -r; k <= r; k++)
            m2 += (double)(k * k) * kx[k + r];
        for (int k = -r; k <= r; k++)
            ky[k + r] = k * kx[k + r] / m2;
        snprintf(what, wl, "%.1f", sigma);
    } else if (C->f == F_BINOMIAL) {
        double c = 1;
        for (int k = 0; k < n; k++) {
            kx[k] = c;
            c = c * (n - 1 - k) / (k + 1);
        }
        double tot = pow(2, n - 1);
        for (int k = 0; k < n; k++)
            ky[k] = kx[k] /= tot;
        snprintf(what, wl, "%d", n - 1);
    } else {
        double sx = 0, sy = 0;
        for (int k = 0; k < n; k++) {
            sx += (kx[k] = floor(gen_uniform(g, -0.3, 1.0) * 1000) / 1000);
            sy += (ky[k] = floor(gen_uniform(g, -0.3, 1.0) * 1000) / 1000);
        }
        for (int k = 0; k < n; k++) {
            kx[k] = floor(kx[k] / sx * 1e5 + 0.5) / 1e5;
            ky[k] = floor(ky[k] / sy * 1e5 + 0.5) / 1e5;
        }
        what[0] = '\0';
    }
}

static int gen_conv(GenCtx *g, int f, int st, int v)
{
    Ctx C;
    C.f = f;
    C.st = st;
    C.b = (f + st + 2 * v) % 5;
    C.f64 = (f + st + v) % 2 == 1;
    C.taps = 3 + 2 * ((f + 2 * st + v) % 4);
    C.batched = (f + v) % 3 == 0;
    C.ty = C.f64 ? "double" : "float";
    C.R = f == F_INPUT_R ? "r" : "R";
    const char *dt = C.f64 ? "f64" : "f32";
    int dog = f == F_DOG, param = f == F_INPUT_R, inputs = f == F_INPUT || f == F_INPUT_R;
    int valid = C.b == VALID;
    char variant[96];
    if (param)
        snprintf(variant, sizeof variant, "%s-%s-%s-%s%s", FTAG[f], STAG[st], BTAG[C.b], dt, C.batched ? "-batched" : "");
    else
        snprintf(variant, sizeof variant, "%s%d-%s-%s-%s%s", FTAG[f], C.taps, STAG[st], BTAG[C.b], dt,
                 C.batched ? "-batched" : "");
    GenProgram *p = gen_begin(g, variant, dog ? "gradient_dog" : "sepconv");
    double kx[16], ky[16];
    char what[16];
    if (!inputs)
        draw_filters(g, &C, kx, ky, what, sizeof what);
    static const char *const FTEXT[] = {"filters given as inputs", "filters given as inputs, radius as a param",
                                        "Gaussian filter", "binomial filter", "skewed baked filters",
                                        "derivative-of-Gaussian pair"};
    gen_describe(p, "separable 2D convolution, %s%s, %s, border %s, %s%s", FTEXT[f],
                 param ? "" : (C.taps == 3 ? " (3 taps)" : C.taps == 5 ? " (5 taps)" : C.taps == 7 ? " (7 taps)" : " (9 taps)"),
                 st == FUSED ? "fused" : st == ROWS_FIRST ? "row pass then column pass" : "column pass then row pass",
                 BTEXT[C.b], dt, C.batched ? ", batch of planes" : "");

    /* Arguments. */
    char in_shape[64], out_shape[64], tmp_shape[64], kshape[16], oh[24], ow[24];
    char two_r[16];
    if (param)
        snprintf(two_r, sizeof two_r, "2*r");
    else
        snprintf(two_r, sizeof two_r, "%d", C.taps - 1);
    snprintf(oh, sizeof oh, valid ? "h-%s" : "h", two_r);
    snprintf(ow, sizeof ow, valid ? "w-%s" : "w", two_r);
    const char *bp = C.batched ? "planes," : "";
    snprintf(in_shape, sizeof in_shape, "%sh,w", bp);
    snprintf(out_shape, sizeof out_shape, "%s%s,%s", bp, oh, ow);
    if (st == ROWS_FIRST)
        snprintf(tmp_shape, sizeof tmp_shape, "h,%s", ow);
    else
        snprintf(tmp_shape, sizeof tmp_shape, "%s,w", oh);
    if (param)
        snprintf(kshape, sizeof kshape, "2*r+1");
    else
        snprintf(kshape, sizeof kshape, "%d", C.taps);
    gen_arg(p, "in", dt, "in", in_shape);
    if (inputs) {
        gen_arg(p, "kx", dt, "in", kshape);
        gen_arg(p, "ky", dt, "in", kshape);
    }
    if (dog) {
        gen_arg(p, "gx_out", dt, "out", out_shape);
        gen_arg(p, "gy_out", dt, "out", out_shape);
    } else {
        gen_arg(p, "out", dt, "out", out_shape);
    }
    if (st != FUSED) {
        if (dog) {
            gen_arg(p, "tmp_smooth", dt, "out", tmp_shape);
            gen_arg(p, "tmp_deriv", dt, "out", tmp_shape);
        } else {
            gen_arg(p, "tmp", dt, "out", tmp_shape);
        }
    }
    if (C.batched)
        gen_arg(p, "planes", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    if (param)
        gen_arg(p, "r", "i32", "param", NULL);

    /* Configs. */
    char cfg[128];
    int K = C.taps;
    const char *pl = C.batched ? "planes=3," : "";
    const char *rs = param ? ",r=3" : "";
#define CFG(name, fmt, ...)                                  \
    do {                                                     \
        snprintf(cfg, sizeof cfg, fmt, __VA_ARGS__);         \
        gen_config(p, name, cfg);                            \
    } while (0)
    CFG("small", "%s%s%s", pl, C.batched ? "h=64,w=80" : "h=96,w=128", rs);
    if (param) {
        if (valid)
            CFG("edge", "%sh=5,w=5,r=2", C.batched ? "planes=1," : "");
        else
            CFG("edge", "%sh=1,w=1,r=2", C.batched ? "planes=1," : "");
        CFG("edge-r0", "%sh=7,w=3,r=0", C.batched ? "planes=2," : "");
        CFG("edge-prime", "%sh=13,w=31,r=4", C.batched ? "planes=3," : "");
    } else {
        if (valid)
            CFG("edge", "%sh=%d,w=%d", C.batched ? "planes=1," : "", K, K);
        else
            CFG("edge", "%sh=1,w=1", C.batched ? "planes=1," : "");
        CFG("edge-prime", "%sh=13,w=31", C.batched ? "planes=3," : "");
    }
    if (C.batched)
        CFG("large", "planes=16,h=2048,w=%d%s", C.f64 ? 1024 : 2048, param ? ",r=4" : "");
    else
        CFG("large", "h=8192,w=%d%s", C.f64 ? 4096 : 8192, param ? ",r=4" : "");
#undef CFG

    /* Cost: two passes of K taps, multiply-add each. */
    char flops[96], bytes[160], kk[16];
    snprintf(kk, sizeof kk, param ? "(2*r+1)" : "%d", K);
    int sz = C.f64 ? 8 : 4, nout = dog ? 2 : 1;
    snprintf(flops, sizeof flops, "%d*%s%s*h*w", 4 * nout, C.batched ? "planes*" : "", kk);
    snprintf(bytes, sizeof bytes, "%d*%sh*w+%d*%s(%s)*(%s)%s", sz, C.batched ? "planes*" : "", sz * nout,
             C.batched ? "planes*" : "", oh, ow, inputs ? (param ? "+16*r+8" : "") : "");
    if (inputs && !param) {
        char extra[32];
        snprintf(extra, sizeof extra, "+%d", 2 * K * sz);
        strncat(bytes, extra, sizeof bytes - strlen(bytes) - 1);
    }
    gen_cost(p, flops, bytes);
    if (!C.f64)
        gen_tolerance(p, 1e-4, 1e-4);

    /* Source. */
    StrBuf *s = gen_src(p);
    const char *ty = C.ty;
    if (dog)
        sb_printf(s, "/* Gradients of an h x w %s image by separable derivative-of-Gaussian filters\n"
                     " * (sigma %s, %d taps): gx = D along rows then G along columns, gy = G along rows\n"
                     " * then D along columns, where G is the normalised Gaussian and D its derivative\n"
                     " * (scaled to respond 1 to a unit ramp).  Correlation form:\n"
                     " *     gx(y, x) = sum_i G[i] sum_j D[j] in(y + i - R, x + j - R).\n",
                  C.f64 ? "double" : "float", what, K);
    else
        sb_printf(s, "/* Separable 2D convolution (correlation form) of an h x w %s image:\n"
                     " *     out(y, x) = sum_i ky[i] sum_j kx[j] in(y + i - %s, x + j - %s),\n",
                  C.f64 ? "double" : "float", C.R, C.R);
    if (f == F_INPUT)
        sb_printf(s, " * with the %d-tap filters kx (rows) and ky (columns) given as inputs.\n", K);
    else if (f == F_INPUT_R)
        sb_append(s, " * with the 2 r + 1 tap filters kx (rows) and ky (columns) given as inputs.\n");
    else if (f == F_GAUSS)
        sb_printf(s, " * with kx = ky the normalised %d-tap Gaussian of sigma %s.\n", K, what);
    else if (f == F_BINOMIAL)
        sb_printf(s, " * with kx = ky the %d-tap binomial filter (row %s of Pascal's triangle / 2^%s).\n", K, what, what);
    else if (f == F_SKEW)
        sb_printf(s, " * with fixed, asymmetric %d-tap filters KX (rows) and KY (columns).\n", K);
    sb_printf(s, " * %s%s.", valid ? "Only outputs whose window lies inside the image are computed" : "Border: ",
              valid ? "" : BTEXT[C.b]);
    if (st == ROWS_FIRST)
        sb_printf(s, "\n * Computed as a row pass into %s and a column pass.", dog ? "the temporaries" : "tmp");
    else if (st == COLS_FIRST)
        sb_printf(s, "\n * Computed as a column pass into %s and a row pass.", dog ? "the temporaries" : "tmp");
    else
        sb_append(s, "\n * Both passes are fused per output pixel.");
    if (C.batched)
        sb_printf(s, "\n * The input is a batch of `planes` images, each filtered independently%s.",
                  st == FUSED ? "" : " (the scratch plane is reused)");
    sb_append(s, " */\n");
    if (C.batched)
        sb_append(s, "#include <stddef.h>\n");
    sb_append(s, "\n");
    if (!param)
        sb_printf(s, "enum { R = %d };\n\n", K / 2);
    if (dog) {
        emit_array(s, "static const", "G", kx, K, &C);
        emit_array(s, "static const", "D", ky, K, &C);
        sb_append(s, "\n");
    } else if (!inputs) {
        if (f == F_SKEW) {
            emit_array(s, "static const", "KX", kx, K, &C);
            emit_array(s, "static const", "KY", ky, K, &C);
        } else {
            emit_array(s, "static const", f == F_GAUSS ? "GAUSS" : "BINOMIAL", kx, K, &C);
        }
        sb_append(s, "\n");
    }
    if (!valid)
        emit_index_helper(s, C.b, "static int");
    const char *KXn = inputs ? "kx" : f == F_SKEW ? "KX" : f == F_GAUSS ? "GAUSS" : "BINOMIAL";
    const char *KYn = inputs ? "ky" : f == F_SKEW ? "KY" : f == F_GAUSS ? "GAUSS" : "BINOMIAL";
    if (st != FUSED) {
        if (st == ROWS_FIRST) {
            emit_pass(s, &C, 1);
            emit_pass(s, &C, 0);
        } else {
            emit_pass(s, &C, 0);
            emit_pass(s, &C, 1);
        }
    }
    /* Signature. */
    const char *entry = dog ? "gradient_dog" : "sepconv";
    sb_printf(s, "void %s(const %s *in, ", entry, ty);
    if (inputs)
        sb_printf(s, "const %s *kx, const %s *ky, ", ty, ty);
    if (dog)
        sb_printf(s, "%s *gx_out, %s *gy_out, ", ty, ty);
    else
        sb_printf(s, "%s *out, ", ty);
    if (st != FUSED) {
        if (dog)
            sb_printf(s, "%s *tmp_smooth, %s *tmp_deriv, ", ty, ty);
        else
            sb_printf(s, "%s *tmp, ", ty);
    }
    sb_printf(s, "%sint h, int w%s)\n{\n", C.batched ? "int planes, " : "", param ? ", int r" : "");
    const char *ra = param ? ", r" : "";
    char hv[24], wv[24];
    snprintf(hv, sizeof hv, valid ? "h - 2 * %s" : "h", C.R);
    snprintf(wv, sizeof wv, valid ? "w - 2 * %s" : "w", C.R);
    if (st == FUSED) {
        if (valid)
            sb_printf(s, "    const int oh = h - 2 * %s, ow = w - 2 * %s;\n", C.R, C.R);
        const char *I = "    ";
        if (C.batched) {
            sb_printf(s, "    for (int p = 0; p < planes; p++) {\n"
                         "        const %s *src = in + (size_t)p * h * w;\n", ty);
            if (dog)
                sb_printf(s, "        %s *gx = gx_out + (size_t)p * %s, *gy = gy_out + (size_t)p * %s;\n", ty,
                          valid ? "oh * ow" : "h * w", valid ? "oh * ow" : "h * w");
            else
                sb_printf(s, "        %s *dst = out + (size_t)p * %s;\n", ty, valid ? "oh * ow" : "h * w");
            I = "        ";
        }
        if (C.batched)
            emit_fused(s, &C, I, "src", KXn, KYn, dog ? "gx" : "dst", "gy");
        else
            emit_fused(s, &C, I, "in", KXn, KYn, dog ? "gx_out" : "out", "gy_out");
        if (C.batched)
            sb_append(s, "    }\n");
        sb_append(s, "}\n");
        emit_cuda(p, &C, kx, ky, oh, ow, KXn, KYn);
        return gen_end(p);
    }
    /* Two passes. */
    const char *I = "    ";
    const char *src = "in";
    char o1[48], o2[48];
    snprintf(o1, sizeof o1, "%s", dog ? "gx_out" : "out");
    snprintf(o2, sizeof o2, "gy_out");
    if (C.batched) {
        const char *op = valid ? "out_plane" : "plane";
        if (valid)
            sb_printf(s, "    const size_t in_plane = (size_t)h * w, out_plane = (size_t)(%s) * (%s);\n", hv, wv);
        else
            sb_append(s, "    const size_t plane = (size_t)h * w;\n");
        sb_printf(s, "    for (int p = 0; p < planes; p++) {\n        const %s *src = in + p * %s;\n", ty,
                  valid ? "in_plane" : "plane");
        src = "src";
        I = "        ";
        snprintf(o1, sizeof o1, "%s + p * %s", dog ? "gx_out" : "out", op);
        snprintf(o2, sizeof o2, "gy_out + p * %s", op);
    }
    const char *first = st == ROWS_FIRST ? "row_pass" : "col_pass";
    const char *second = st == ROWS_FIRST ? "col_pass" : "row_pass";
    /* Dimensions of the intermediate seen by the second pass. */
    char h2[24], w2[24];
    snprintf(h2, sizeof h2, "%s", st == COLS_FIRST ? hv : "h");
    snprintf(w2, sizeof w2, "%s", st == ROWS_FIRST ? wv : "w");
    if (dog) {
        /* gx = G along columns of (D along rows); gy = D along columns of (G along rows). */
        if (st == ROWS_FIRST) {
            sb_printf(s, "%s%s(%s, tmp_smooth, G, h, w);\n%s%s(%s, tmp_deriv, D, h, w);\n", I, first, src, I, first, src);
            sb_printf(s, "%s%s(tmp_deriv, %s, G, %s, %s);\n%s%s(tmp_smooth, %s, D, %s, %s);\n", I, second, o1, h2, w2, I,
                      second, o2, h2, w2);
        } else {
            sb_printf(s, "%s%s(%s, tmp_smooth, G, h, w);\n%s%s(%s, tmp_deriv, D, h, w);\n", I, first, src, I, first, src);
            sb_printf(s, "%s%s(tmp_smooth, %s, D, %s, %s);\n%s%s(tmp_deriv, %s, G, %s, %s);\n", I, second, o1, h2, w2, I,
                      second, o2, h2, w2);
        }
    } else {
        sb_printf(s, "%s%s(%s, tmp, %s, h, w%s);\n", I, first, src, st == ROWS_FIRST ? KXn : KYn, ra);
        sb_printf(s, "%s%s(tmp, %s, %s, %s, %s%s);\n", I, second, o1, st == ROWS_FIRST ? KYn : KXn, h2, w2, ra);
    }
    if (C.batched)
        sb_append(s, "    }\n");
    sb_append(s, "}\n");
    emit_cuda(p, &C, kx, ky, oh, ow, KXn, KYn);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int f = 0; f < N_FILTERS; f++)
        for (int st = 0; st < 3; st++)
            for (int v = 0; v < 3; v++)
                if (gen_conv(g, f, st, v) != 0)
                    return -1;
    return 0;
}

const Family family_conv_separable = {"conv_separable", "convolution", 54, generate};
