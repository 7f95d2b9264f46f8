/* conv2d — direct 2D convolution (cross-correlation) of an image batch with
 * a filter bank, in NCHW (filters C_out x C_in x KH x KW) and NHWC (filters
 * KH x KW x C_in x C_out) layouts: square kernels 1 to 7 and an asymmetric
 * 1 x 7 one, strides, zero and reflection padding, dilation, depthwise and
 * grouped filters, transposed convolution for upsampling, and epilogues
 * (bias, ReLU, ReLU6, a residual add, a folded batch-norm scale/shift), over
 * f32 and f64. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

enum { K_STD, K_DW, K_GROUP, K_TRANS, K_REFLECT };
enum { E_NONE, E_BIAS, E_BIAS_RELU, E_BIAS_RELU6, E_RESID, E_BN_RELU };

typedef struct Conv2 {
    int kind, nhwc, kh, kw, stride, ph, pw, dil, epi, groups;
} Conv2;

static const Conv2 CONVS[] = {
    {K_STD, 0, 3, 3, 1, 1, 1, 1, E_NONE, 1},       {K_STD, 0, 3, 3, 1, 1, 1, 1, E_BIAS_RELU, 1},
    {K_STD, 0, 3, 3, 1, 0, 0, 1, E_NONE, 1},       {K_STD, 0, 3, 3, 2, 1, 1, 1, E_BIAS, 1},
    {K_STD, 0, 5, 5, 1, 2, 2, 1, E_BIAS, 1},       {K_STD, 0, 7, 7, 2, 3, 3, 1, E_BIAS_RELU, 1},
    {K_STD, 0, 3, 3, 1, 2, 2, 2, E_NONE, 1},       {K_STD, 0, 1, 1, 1, 0, 0, 1, E_BIAS, 1},
    {K_STD, 0, 1, 1, 2, 0, 0, 1, E_NONE, 1},       {K_STD, 0, 1, 7, 1, 0, 3, 1, E_BIAS_RELU, 1},
    {K_STD, 0, 3, 3, 1, 1, 1, 1, E_RESID, 1},      {K_STD, 1, 3, 3, 1, 1, 1, 1, E_NONE, 1},
    {K_STD, 1, 3, 3, 1, 1, 1, 1, E_BIAS_RELU, 1},  {K_STD, 1, 3, 3, 2, 1, 1, 1, E_BIAS, 1},
    {K_STD, 1, 1, 1, 1, 0, 0, 1, E_BIAS, 1},       {K_STD, 1, 5, 5, 1, 4, 4, 2, E_NONE, 1},
    {K_DW, 0, 3, 3, 1, 1, 1, 1, E_NONE, 1},        {K_DW, 0, 3, 3, 2, 1, 1, 1, E_BIAS_RELU6, 1},
    {K_DW, 1, 3, 3, 1, 1, 1, 1, E_BIAS_RELU, 1},   {K_DW, 1, 5, 5, 1, 2, 2, 1, E_NONE, 1},
    {K_GROUP, 0, 3, 3, 1, 1, 1, 1, E_NONE, 4},     {K_GROUP, 1, 3, 3, 1, 1, 1, 1, E_BIAS_RELU, 8},
    {K_TRANS, 0, 2, 2, 2, 0, 0, 1, E_NONE, 1},     {K_TRANS, 0, 4, 4, 2, 1, 1, 1, E_BIAS, 1},
    {K_TRANS, 1, 4, 4, 2, 1, 1, 1, E_BIAS, 1},     {K_REFLECT, 0, 3, 3, 1, 1, 1, 1, E_BIAS, 1},
    {K_STD, 0, 3, 3, 1, 1, 1, 1, E_BN_RELU, 1},
};

static int square(const Conv2 *c)
{
    return c->kh == c->kw && c->ph == c->pw;
}

/* Output size along one axis, as C (with the enum names) and as a meta
 * expression (with numbers). */
static void out_size(const Conv2 *c, int axis_w, char *code, size_t clen, char *meta, size_t mlen)
{
    const char *in = axis_w ? "w" : "h";
    int k = axis_w ? c->kw : c->kh, pad = axis_w ? c->pw : c->ph;
    const char *K = square(c) ? "K" : axis_w ? "KW" : "KH";
    const char *P = square(c) ? "PAD" : axis_w ? "PW" : "PH";
    if (c->kind == K_TRANS) {
        snprintf(code, clen, "(%s - 1) * STRIDE%s%s + %s", in, pad ? " - 2 * " : "", pad ? P : "", K);
        snprintf(meta, mlen, "(%s-1)*%d+%d", in, c->stride, k - 2 * pad);
        return;
    }
    char padt[24] = "", span[32] = "";
    if (pad)
        snprintf(padt, sizeof padt, " + 2 * %s", P);
    if (k > 1)
        snprintf(span, sizeof span, c->dil > 1 ? " - DIL * (%s - 1)" : " - (%s - 1)", K);
    int shrink = c->dil * (k - 1) - 2 * pad;
    if (c->stride == 1) {
        if (shrink == 0) {
            snprintf(code, clen, "%s", in);
            snprintf(meta, mlen, "%s", in);
        } else {
            snprintf(code, clen, "%s%s%s", in, padt, span);
            snprintf(meta, mlen, "%s%+d", in, -shrink);
        }
    } else {
        snprintf(code, clen, "(%s%s%s - 1) / STRIDE + 1", in, padt, span);
        snprintf(meta, mlen, "(%s%+d)/%d+1", in, -shrink - 1, c->stride);
    }
}

static int min_size(const Conv2 *c, int axis_w)
{
    int k = axis_w ? c->kw : c->kh, pad = axis_w ? c->pw : c->ph;
    if (c->kind == K_TRANS)
        return 1;
    if (c->kind == K_REFLECT)
        return pad + 1;
    int need = c->dil * (k - 1) + 1 - 2 * pad;
    return need < 1 ? 1 : need;
}

/* "acc += X * W;", broken after the '*' when the line would pass 100 columns. */
static void emit_acc(StrBuf *s, const char *ind, const char *x, const char *w)
{
    if (strlen(ind) + strlen(x) + strlen(w) + 11 <= 100)
        sb_printf(s, "%sacc += %s * %s;\n", ind, x, w);
    else
        sb_printf(s, "%sacc += %s *\n%s       %s;\n", ind, x, ind, w);
}

/* Appends src (n bytes) with every line's first `drop` spaces removed and
 * every size_t spelled long long, the CUDA side's 64-bit index type. */
static void append_reindented(StrBuf *k, const char *src, size_t n, int drop)
{
    const char *end = src + n;
    for (const char *line = src; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl + 1 : end;
        int d = 0;
        while (d < drop && line + d < stop && line[d] == ' ')
            d++;
        for (const char *c = line + d; c < stop; c++) {
            int word_start = c == src || !(isalnum((unsigned char)c[-1]) || c[-1] == '_');
            if (word_start && stop - c >= 6 && strncmp(c, "size_t", 6) == 0 &&
                !(isalnum((unsigned char)c[6]) || c[6] == '_')) {
                sb_append(k, "long long");
                c += 5;
            } else {
                sb_putc(k, *c);
            }
        }
        line = stop;
    }
}

/* The pair: one thread per output element.  The kernel body is the C loop
 * body itself (body: its text, at the C's 20-column indent), so taps,
 * borders and epilogue match the program exactly; threads run along ox for
 * NCHW and along the output channel for NHWC, y's contiguous dimension.
 * constants: the C's enum line (may be empty). */
static void emit_cuda(GenProgram *p, const Conv2 *c, int f64, const char *constants, const char *body, size_t body_len,
                      const char *ho_c, const char *wo_c, const char *hw_out)
{
    int dw = c->kind == K_DW;
    int same = strcmp(ho_c, "h") == 0 && strcmp(wo_c, "w") == 0;
    const char *ty = f64 ? "double" : "float";
    const char *ho = same ? "h" : "hout", *wo = same ? "w" : "wout";
    const char *co = dw ? "c" : "cout", *yc = dw ? "ch" : "co";
    int has_bias = c->epi == E_BIAS || c->epi == E_BIAS_RELU || c->epi == E_BIAS_RELU6 || c->epi == E_RESID;
    StrBuf *k = gen_cuda_src(p);
    sb_printf(k, "/* One thread per output element y[b][%s][oy][ox], %s fastest. */\n", yc,
              c->nhwc ? "the channel" : "ox");
    sb_append(k, constants);
    StrBuf sig = STRBUF_INIT;
    char args[96];
    int al = snprintf(args, sizeof args, "x,weight,");
    sb_printf(&sig, "extern \"C\" __global__ void conv2d(const %s *__restrict__ x, const %s *__restrict__ weight, ", ty,
              ty);
    if (has_bias) {
        sb_printf(&sig, "const %s *__restrict__ bias, ", ty);
        al += snprintf(args + al, sizeof args - (size_t)al, "bias,");
    }
    if (c->epi == E_BN_RELU) {
        sb_printf(&sig, "const %s *__restrict__ scale, const %s *__restrict__ shift, ", ty, ty);
        al += snprintf(args + al, sizeof args - (size_t)al, "scale,shift,");
    }
    if (c->epi == E_RESID) {
        sb_printf(&sig, "const %s *__restrict__ res, ", ty);
        al += snprintf(args + al, sizeof args - (size_t)al, "res,");
    }
    sb_printf(&sig, "%s *__restrict__ y, int n, %s, int h, int w)\n", ty, dw ? "int c" : "int cin, int cout");
    snprintf(args + al, sizeof args - (size_t)al, "y,n,%s,h,w", dw ? "c" : "cin,cout");
    tmpl_put_wrapped(k, sig.data);
    sb_release(&sig);
    sb_append(k, "{\n");
    if (!same)
        sb_printf(k, "    const int hout = %s;\n    const int wout = %s;\n", ho_c, wo_c);
    if (c->groups > 1)
        sb_append(k, "    const int cin_g = cin / GROUPS, cout_g = cout / GROUPS;\n");
    sb_printf(k, "    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (gid >= (long long)n * %s * %s * %s)\n        return;\n", co, ho, wo);
    if (c->nhwc)
        sb_printf(k, "    const int %s = (int)(gid %% %s);\n"
                     "    const int ox = (int)(gid / %s %% %s);\n"
                     "    const int oy = (int)(gid / ((long long)%s * %s) %% %s);\n"
                     "    const int b = (int)(gid / ((long long)%s * %s * %s));\n",
                  yc, co, co, wo, co, wo, ho, co, wo, ho);
    else
        sb_printf(k, "    const int ox = (int)(gid %% %s);\n"
                     "    const int oy = (int)(gid / %s %% %s);\n"
                     "    const int %s = (int)(gid / ((long long)%s * %s) %% %s);\n"
                     "    const int b = (int)(gid / ((long long)%s * %s * %s));\n",
                  wo, wo, ho, yc, wo, ho, co, wo, ho, co);
    append_reindented(k, body, body_len, 16);
    sb_append(k, "}\n");

    char grid[200];
    snprintf(grid, sizeof grid, "(n*%s*%s+255)/256", co, hw_out);
    gen_launch(p, "conv2d", grid, "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-output-per-thread");
}

static void program(GenProgram *p, const Conv2 *c, int f64)
{
    const char *dt = f64 ? "f64" : "f32";
    const char *ty = f64 ? "double" : "float";
    int es = f64 ? 8 : 4;
    int dw = c->kind == K_DW;
    int G = c->groups;
    int sq = square(c);
    char ho_c[80], ho_m[64], wo_c[80], wo_m[64];
    out_size(c, 0, ho_c, sizeof ho_c, ho_m, sizeof ho_m);
    out_size(c, 1, wo_c, sizeof wo_c, wo_m, sizeof wo_m);
    int same = strcmp(ho_c, "h") == 0 && strcmp(wo_c, "w") == 0;
    const char *ho = same ? "h" : "hout", *wo = same ? "w" : "wout";
    const char *ci = dw ? "c" : "cin", *co = dw ? "c" : "cout";

    /* Arguments. */
    char xs[32], ws[48], ys[96];
    snprintf(xs, sizeof xs, c->nhwc ? "n,h,w,%s" : "n,%s,h,w", ci);
    if (dw)
        snprintf(ws, sizeof ws, c->nhwc ? "%d,%d,c" : "c,%d,%d", c->kh, c->kw);
    else if (c->kind == K_TRANS)
        snprintf(ws, sizeof ws, c->nhwc ? "%d,%d,cin,cout" : "cin,cout,%d,%d", c->kh, c->kw);
    else if (G > 1 && c->nhwc)
        snprintf(ws, sizeof ws, "%d,%d,cin/%d,cout", c->kh, c->kw, G);
    else if (G > 1)
        snprintf(ws, sizeof ws, "cout,cin/%d,%d,%d", G, c->kh, c->kw);
    else
        snprintf(ws, sizeof ws, c->nhwc ? "%d,%d,cin,cout" : "cout,cin,%d,%d", c->kh, c->kw);
    if (c->nhwc)
        snprintf(ys, sizeof ys, "n,%s,%s,%s", ho_m, wo_m, co);
    else
        snprintf(ys, sizeof ys, "n,%s,%s,%s", co, ho_m, wo_m);
    gen_arg(p, "x", dt, "in", xs);
    gen_arg(p, "weight", dt, "in", ws);
    gen_fill_uniform(p, "weight", -0.25, 0.25);
    int has_bias = c->epi == E_BIAS || c->epi == E_BIAS_RELU || c->epi == E_BIAS_RELU6 || c->epi == E_RESID;
    if (has_bias)
        gen_arg(p, "bias", dt, "in", co);
    if (c->epi == E_BN_RELU) {
        gen_arg(p, "scale", dt, "in", co);
        gen_arg(p, "shift", dt, "in", co);
        gen_fill_uniform(p, "scale", 0.5, 1.5);
    }
    if (c->epi == E_RESID)
        gen_arg(p, "res", dt, "in", ys);
    gen_arg(p, "y", dt, "out", ys);
    gen_arg(p, "n", "i32", "param", NULL);
    if (dw) {
        gen_arg(p, "c", "i32", "param", NULL);
    } else {
        gen_arg(p, "cin", "i32", "param", NULL);
        gen_arg(p, "cout", "i32", "param", NULL);
    }
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);

    /* Configs. */
    char cfg[96];
    int taps = c->kh * c->kw;
    int big = c->kind == K_TRANS ? 64 : taps == 1 ? (c->stride > 1 ? 256 : 256) : taps >= 25 ? 96 : 128;
    if (dw) {
        gen_config(p, "small", "n=2,c=16,h=40,w=36");
        snprintf(cfg, sizeof cfg, "n=1,c=1,h=%d,w=%d", min_size(c, 0), min_size(c, 1));
        gen_config(p, "edge", cfg);
        gen_config(p, "edge-prime", "n=2,c=5,h=13,w=17");
        gen_config(p, "large", "n=16,c=256,h=128,w=128");
    } else {
        gen_config(p, "small", "n=2,cin=8,cout=16,h=24,w=20");
        snprintf(cfg, sizeof cfg, "n=1,cin=%d,cout=%d,h=%d,w=%d", G, G, min_size(c, 0), min_size(c, 1));
        gen_config(p, "edge", cfg);
        snprintf(cfg, sizeof cfg, "n=2,cin=%d,cout=%d,h=13,w=17", 3 * G, 5 * G);
        gen_config(p, "edge-prime", cfg);
        snprintf(cfg, sizeof cfg, "n=16,cin=64,cout=64,h=%d,w=%d", big, big);
        gen_config(p, "large", cfg);
    }

    /* Cost. */
    char flops[160], bytes[200], hw_out[160];
    snprintf(hw_out, sizeof hw_out, "%s%s%s*%s%s%s", same ? "" : "(", ho_m, same ? "" : ")", same ? "" : "(", wo_m,
             same ? "" : ")");
    if (dw) {
        snprintf(flops, sizeof flops, "%d*n*c*%s", 2 * taps, hw_out);
        snprintf(bytes, sizeof bytes, "%d*n*c*h*w+%d*n*c*%s+%d*c", es, es, hw_out, es * (taps + has_bias));
    } else if (c->kind == K_TRANS) {
        snprintf(flops, sizeof flops, "%d*n*cin*cout*h*w", 2 * taps);
        snprintf(bytes, sizeof bytes, "%d*n*cin*h*w+%d*n*cout*%s+%d*cin*cout%s", es, es, hw_out, es * taps,
                 has_bias ? (f64 ? "+8*cout" : "+4*cout") : "");
    } else {
        char per_g[8] = "";
        if (G > 1)
            snprintf(per_g, sizeof per_g, "/%d", G);
        snprintf(flops, sizeof flops, "%d*n*cout*%s*cin%s", 2 * taps, hw_out, per_g);
        int per_out = es * (1 + (c->epi == E_RESID));
        int per_co = es * (has_bias + 2 * (c->epi == E_BN_RELU));
        snprintf(bytes, sizeof bytes, "%d*n*cin*h*w+%d*n*cout*%s+%d*cin*cout%s", es, per_out, hw_out, es * taps,
                 per_g);
        if (per_co) {
            size_t len = strlen(bytes);
            snprintf(bytes + len, sizeof bytes - len, "+%d*cout", per_co);
        }
    }
    gen_cost(p, flops, bytes);
    gen_tolerance(p, f64 ? 1e-9 : 1e-4, f64 ? 1e-7 : 1e-3);

    /* Index expressions. */
    char X[96], W[96], Y[96];
    const char *xc = dw ? "ch" : "ci", *yc = dw ? "ch" : "co";
    if (c->nhwc) {
        snprintf(X, sizeof X, "x[(((size_t)b * h + iy) * w + ix) * %s + %s]", ci, xc);
        snprintf(Y, sizeof Y, "(((size_t)b * %s + oy) * %s + ox) * %s + %s", ho, wo, co, yc);
    } else {
        snprintf(X, sizeof X, "x[(((size_t)b * %s + %s) * h + iy) * w + ix]", ci, xc);
        snprintf(Y, sizeof Y, "(((size_t)b * %s + %s) * %s + oy) * %s + ox", co, yc, ho, wo);
    }
    const char *KH = sq ? "K" : "KH", *KW = sq ? "K" : "KW";
    if (dw)
        snprintf(W, sizeof W, c->nhwc ? "weight[(ky * %s + kx) * c + ch]" : "weight[(ch * %s + ky) * %s + kx]",
                 c->nhwc ? KW : KH, KW);
    else if (c->kind == K_TRANS)
        snprintf(W, sizeof W,
                 c->nhwc ? "weight[((ky * %s + kx) * cin + ci) * cout + co]" : "weight[((ci * cout + co) * %s + ky) * %s + kx]",
                 c->nhwc ? KW : KH, KW);
    else if (G > 1)
        snprintf(W, sizeof W,
                 c->nhwc ? "weight[((ky * %s + kx) * cin_g + cg) * cout + co]" : "weight[((co * cin_g + cg) * %s + ky) * %s + kx]",
                 c->nhwc ? KW : KH, KW);
    else if (taps == 1)
        snprintf(W, sizeof W, c->nhwc ? "weight[ci * cout + co]" : "weight[co * cin + ci]");
    else
        snprintf(W, sizeof W,
                 c->nhwc ? "weight[((ky * %s + kx) * cin + ci) * cout + co]" : "weight[((co * cin + ci) * %s + ky) * %s + kx]",
                 c->nhwc ? KW : KH, KW);

    /* The comment. */
    StrBuf *s = gen_src(p);
    const char *what = dw ? "Depthwise 2D convolution" : G > 1 ? "Grouped 2D convolution"
                       : c->kind == K_TRANS ? "Transposed 2D convolution"
                       : c->kind == K_REFLECT ? "2D convolution with reflection padding"
                       : taps == 1 ? "Pointwise (1 x 1) 2D convolution" : "2D convolution";
    sb_printf(s, "/* %s, %s", what, c->nhwc ? "NHWC" : "NCHW");
    if (taps > 1)
        sb_printf(s, ", %d x %d kernel", c->kh, c->kw);
    if (c->stride > 1)
        sb_printf(s, ", stride %d", c->stride);
    if (c->dil > 1)
        sb_printf(s, ", dilation %d", c->dil);
    if (c->ph || c->pw)
        sb_printf(s, sq ? ", padding %d" : ", padding %d x %d", c->ph, c->pw);
    if (G > 1)
        sb_printf(s, ", %d groups", G);
    sb_append(s, ":\n");
    if (c->kind == K_TRANS)
        sb_printf(s, " * every input pixel (iy, ix) scatters x * weight[ci][co][ky][kx] to output\n"
                     " * (iy * %d%s + ky, ix * %d%s + kx); written here as a gather per output pixel",
                  c->stride, c->ph ? " - 1" : "", c->stride, c->pw ? " - 1" : "");
    else if (dw)
        sb_append(s, " * y[b][ch][oy][ox] = sum over ky, kx of x[b][ch][iy][ix] * weight[ch][ky][kx]");
    else
        sb_append(s, " * y[b][co][oy][ox] = sum over ci, ky, kx of x[b][ci][iy][ix] * weight[co][ci][ky][kx]");
    if (c->kind != K_TRANS && taps > 1)
        sb_printf(s, ",\n * iy = oy%s%s + ky%s %s%s", c->stride > 1 ? " * 2" : "",
                  c->ph == 1 ? " - 1" : c->ph == 2 ? " - 2" : c->ph == 3 ? " - 3" : c->ph == 4 ? " - 4" : "",
                  c->dil > 1 ? " * 2" : "", sq ? "(likewise ix)" : "and ix = ox - 3 + kx",
                  c->kind == K_REFLECT ? ", mirrored at the borders" : c->ph || c->pw ? ", zero outside the image" : "");
    if (c->kind != K_TRANS && taps == 1 && c->stride > 1)
        sb_append(s, ",\n * iy = oy * 2, ix = ox * 2");
    if (G > 1)
        sb_printf(s, ";\n * ci runs over the cin / %d channels of co's group", G);
    switch (c->epi) {
    case E_BIAS: sb_append(s, ";\n * then y += bias"); break;
    case E_BIAS_RELU: sb_append(s, ";\n * then y = relu(y + bias)"); break;
    case E_BIAS_RELU6: sb_append(s, ";\n * then y = min(max(y + bias, 0), 6)"); break;
    case E_RESID: sb_append(s, ";\n * then y = relu(y + bias + res), a residual block's output"); break;
    case E_BN_RELU: sb_append(s, ";\n * then y = relu(y * scale + shift), batch norm folded into a per-channel affine"); break;
    default: break;
    }
    if (c->nhwc)
        sb_printf(s, ".\n * Channels-last: x is n x h x w x %s, weight %s", ci,
                  dw ? "kh x kw x c" : c->kind == K_TRANS ? "kh x kw x cin x cout"
                  : G > 1 ? "kh x kw x (cin / groups) x cout" : "kh x kw x cin x cout");
    sb_append(s, ". */\n#include <stddef.h>\n\n");

    /* Constants. */
    StrBuf en = STRBUF_INIT;
    if (taps > 1) {
        if (sq)
            sb_printf(&en, ", K = %d", c->kh);
        else
            sb_printf(&en, ", KH = %d, KW = %d", c->kh, c->kw);
    }
    if (c->stride > 1)
        sb_printf(&en, ", STRIDE = %d", c->stride);
    if (c->ph || c->pw) {
        if (sq)
            sb_printf(&en, ", PAD = %d", c->ph);
        else
            sb_printf(&en, "%s%s", c->ph ? ", PH = 1" : "", c->pw ? ", PW = 3" : "");
    }
    if (c->dil > 1)
        sb_printf(&en, ", DIL = %d", c->dil);
    if (G > 1)
        sb_printf(&en, ", GROUPS = %d", G);
    size_t enum_at = s->len;
    if (en.len)
        sb_printf(s, "enum { %s };\n\n", en.data + 2);
    sb_release(&en);
    char *constants = xstrndup(s->data + enum_at, s->len - enum_at);

    /* Signature. */
    {
        StrBuf sig = STRBUF_INIT;
        sb_printf(&sig, "void conv2d(const %s *x, const %s *weight, ", ty, ty);
        if (has_bias)
            sb_printf(&sig, "const %s *bias, ", ty);
        if (c->epi == E_BN_RELU)
            sb_printf(&sig, "const %s *scale, const %s *shift, ", ty, ty);
        if (c->epi == E_RESID)
            sb_printf(&sig, "const %s *res, ", ty);
        sb_printf(&sig, "%s *y, int n, %s, int h, int w)", ty, dw ? "int c" : "int cin, int cout");
        tmpl_put_wrapped(s, sig.data);
        sb_release(&sig);
    }
    sb_append(s, "\n{\n");
    if (!same)
        sb_printf(s, "    int hout = %s;\n    int wout = %s;\n", ho_c, wo_c);
    if (G > 1)
        sb_append(s, "    int cin_g = cin / GROUPS, cout_g = cout / GROUPS;\n");

    /* Output loops in memory order. */
    sb_append(s, "    for (int b = 0; b < n; b++)\n");
    if (c->nhwc)
        sb_printf(s, "        for (int oy = 0; oy < %s; oy++)\n"
                     "            for (int ox = 0; ox < %s; ox++)\n"
                     "                for (int %s = 0; %s < %s; %s++) {\n",
                  ho, wo, yc, yc, co, yc);
    else
        sb_printf(s, "        for (int %s = 0; %s < %s; %s++)\n"
                     "            for (int oy = 0; oy < %s; oy++)\n"
                     "                for (int ox = 0; ox < %s; ox++) {\n",
                  yc, yc, co, yc, ho, wo);
    const char *I = "                    ";
    size_t body_at = s->len;
    sb_printf(s, "%s%s acc = 0;\n", I, ty);
    if (G > 1)
        sb_printf(s, "%sint g = co / cout_g;\n", I);

    /* Channel loop, then taps.  `in` is the indentation inside. */
    char chloop[96] = "";
    if (!dw) {
        if (G > 1)
            snprintf(chloop, sizeof chloop, "for (int cg = 0; cg < cin_g; cg++) {\n");
        else
            snprintf(chloop, sizeof chloop, "for (int ci = 0; ci < cin; ci++)");
    }
    if (taps == 1) {
        char xs1[96];
        if (c->stride > 1)
            snprintf(xs1, sizeof xs1, c->nhwc ? "x[(((size_t)b * h + oy * STRIDE) * w + ox * STRIDE) * cin + ci]"
                                               : "x[(((size_t)b * cin + ci) * h + oy * STRIDE) * w + ox * STRIDE]");
        else
            snprintf(xs1, sizeof xs1, c->nhwc ? "x[(((size_t)b * h + oy) * w + ox) * cin + ci]"
                                               : "x[(((size_t)b * cin + ci) * h + oy) * w + ox]");
        sb_printf(s, "%sfor (int ci = 0; ci < cin; ci++)\n", I);
        char ind4[72];
        snprintf(ind4, sizeof ind4, "%s    ", I);
        emit_acc(s, ind4, xs1, W);
    } else {
        /* Taps: ky, kx outermost for NCHW? Keep ci outermost in NCHW, innermost in NHWC. */
        int ci_inner = c->nhwc && !dw;
        int depth = 0;
        char ind[64];
        snprintf(ind, sizeof ind, "%s", I);
        if (!dw && !ci_inner) {
            if (G > 1)
                sb_printf(s, "%s%s%s    int ci = g * cin_g + cg;\n", I, chloop, I);
            else
                sb_printf(s, "%s%s\n", I, chloop);
            snprintf(ind, sizeof ind, "%s    ", I);
            depth++;
        }
        const char *PH = sq ? "PAD" : "PH", *PW = sq ? "PAD" : "PW";
        /* Row tap. */
        sb_printf(s, "%sfor (int ky = 0; ky < %s; ky++) {\n", ind, KH);
        char ind2[64];
        snprintf(ind2, sizeof ind2, "%s    ", ind);
        if (c->kind == K_TRANS) {
            sb_printf(s, "%sint ny = oy%s - ky;\n%sif (ny < 0 || ny %% STRIDE != 0 || ny / STRIDE >= h)\n%s    continue;\n"
                         "%sint iy = ny / STRIDE;\n",
                      ind2, c->ph ? " + PAD" : "", ind2, ind2, ind2);
        } else {
            char e[64];
            snprintf(e, sizeof e, "oy%s%s + ky%s", c->stride > 1 ? " * STRIDE" : "", c->ph ? (sq ? " - PAD" : " - PH") : "",
                     c->dil > 1 ? " * DIL" : "");
            if (!c->ph && c->dil == 1 && c->stride == 1)
                snprintf(e, sizeof e, "oy + ky");
            sb_printf(s, "%sint iy = %s;\n", ind2, e);
            if (c->kind == K_REFLECT)
                sb_printf(s, "%sif (iy < 0)\n%s    iy = -iy;\n%selse if (iy >= h)\n%s    iy = 2 * (h - 1) - iy;\n", ind2,
                          ind2, ind2, ind2);
            else if (c->ph)
                sb_printf(s, "%sif (iy < 0 || iy >= h)\n%s    continue;\n", ind2, ind2);
        }
        (void)PH;
        /* Column tap. */
        sb_printf(s, "%sfor (int kx = 0; kx < %s; kx++) {\n", ind2, KW);
        char ind3[64];
        snprintf(ind3, sizeof ind3, "%s    ", ind2);
        int guarded = 0;
        if (c->kind == K_TRANS) {
            sb_printf(s, "%sint nx = ox%s - kx;\n%sif (nx < 0 || nx %% STRIDE != 0 || nx / STRIDE >= w)\n%s    continue;\n"
                         "%sint ix = nx / STRIDE;\n",
                      ind3, c->pw ? " + PAD" : "", ind3, ind3, ind3);
        } else {
            char e[64];
            snprintf(e, sizeof e, "ox%s%s + kx%s", c->stride > 1 ? " * STRIDE" : "", c->pw ? (sq ? " - PAD" : " - PW") : "",
                     c->dil > 1 ? " * DIL" : "");
            if (!c->pw && c->dil == 1 && c->stride == 1)
                snprintf(e, sizeof e, "ox + kx");
            sb_printf(s, "%sint ix = %s;\n", ind3, e);
            if (c->kind == K_REFLECT)
                sb_printf(s, "%sif (ix < 0)\n%s    ix = -ix;\n%selse if (ix >= w)\n%s    ix = 2 * (w - 1) - ix;\n", ind3,
                          ind3, ind3, ind3);
            else if (c->pw && !ci_inner)
                guarded = 1;
            else if (c->pw)
                sb_printf(s, "%sif (ix < 0 || ix >= w)\n%s    continue;\n", ind3, ind3);
        }
        (void)PW;
        if (ci_inner) {
            if (G > 1)
                sb_printf(s, "%s%s%s    int ci = g * cin_g + cg;\n", ind3, chloop, ind3);
            else
                sb_printf(s, "%s%s\n", ind3, chloop);
            char ind4[72];
            snprintf(ind4, sizeof ind4, "%s    ", ind3);
            emit_acc(s, ind4, X, W);
            if (G > 1)
                sb_printf(s, "%s}\n", ind3);
        } else if (guarded) {
            sb_printf(s, "%sif (ix >= 0 && ix < w)\n", ind3);
            char ind4[72];
            snprintf(ind4, sizeof ind4, "%s    ", ind3);
            emit_acc(s, ind4, X, W);
        } else {
            emit_acc(s, ind3, X, W);
        }
        sb_printf(s, "%s}\n%s}\n", ind2, ind);
        if (depth && G > 1)
            sb_printf(s, "%s}\n", I);
    }

    /* Epilogue. */
    switch (c->epi) {
    case E_BIAS: sb_printf(s, "%sy[%s] = acc + bias[%s];\n", I, Y, yc); break;
    case E_BIAS_RELU:
        sb_printf(s, "%sacc += bias[%s];\n%sy[%s] = acc > 0 ? acc : 0;\n", I, yc, I, Y);
        break;
    case E_BIAS_RELU6:
        sb_printf(s, "%sacc += bias[%s];\n%sif (acc > 6)\n%s    acc = 6;\n%sy[%s] = acc > 0 ? acc : 0;\n", I, yc, I, I,
                  I, Y);
        break;
    case E_RESID:
        sb_printf(s, "%ssize_t idx = %s;\n%sacc += bias[co] + res[idx];\n%sy[idx] = acc > 0 ? acc : 0;\n", I, Y, I, I);
        break;
    case E_BN_RELU:
        sb_printf(s, "%sacc = acc * scale[co] + shift[co];\n%sy[%s] = acc > 0 ? acc : 0;\n", I, I, Y);
        break;
    default: sb_printf(s, "%sy[%s] = acc;\n", I, Y); break;
    }
    size_t body_end = s->len;
    sb_append(s, "                }\n}\n");
    emit_cuda(p, c, f64, constants, s->data + body_at, body_end - body_at, ho_c, wo_c, hw_out);
    free(constants);
}

static int generate(GenCtx *g)
{
    static const char *const KIND[] = {"conv", "dw", "group", "transposed", "reflect"};
    static const char *const EPI[] = {"", "-bias", "-bias-relu", "-bias-relu6", "-residual-relu", "-bn-relu"};
    int n = (int)(sizeof CONVS / sizeof CONVS[0]);
    for (int i = 0; i < n; i++)
        for (int f64 = 0; f64 < 2; f64++) {
            const Conv2 *c = &CONVS[i];
            char variant[96];
            int o = snprintf(variant, sizeof variant, "%s-%s-k%dx%d", KIND[c->kind], c->nhwc ? "nhwc" : "nchw", c->kh,
                             c->kw);
            if (c->stride > 1)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-s%d", c->stride);
            if (c->ph || c->pw)
                o += snprintf(variant + o, sizeof variant - (size_t)o, c->ph == c->pw ? "-p%d" : "-p%dx%d", c->ph, c->pw);
            if (c->dil > 1)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-d%d", c->dil);
            if (c->groups > 1)
                o += snprintf(variant + o, sizeof variant - (size_t)o, "-g%d", c->groups);
            snprintf(variant + o, sizeof variant - (size_t)o, "%s-%s", EPI[c->epi], f64 ? "f64" : "f32");
            GenProgram *p = gen_begin(g, variant, "conv2d");
            gen_describe(p, "%s 2D convolution %s, %dx%d kernel, stride %d (%s)", KIND[c->kind],
                         c->nhwc ? "NHWC" : "NCHW", c->kh, c->kw, c->stride, f64 ? "f64" : "f32");
            program(p, c, f64);
            if (gen_end(p) != 0)
                return -1;
        }
    return 0;
}

const Family family_conv2d = {"conv2d", "convolution", 54, generate};
