/* pooling — neural-network pooling layers.  Programs vary by
 *   - operation: max, average (padding counted or not), L2 (root of the sum of
 *     squares), max with argmax indices, ceil-mode max, adaptive average and
 *     max, global average / max and a concatenated global avg+max;
 *   - window: kernel 2, 3 or 5 (one rectangular 2x3), stride 1..3 and padding
 *     0..2, all fixed per program;
 *   - layout: NCHW or NHWC for 2D, NCL for 1D;
 *   - dtype: f32, f64 and u8 (max, and average with rounding). */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Window {
    int kh, kw, sh, sw, ph, pw;
} Window;

static const Window WINDOWS[] = {
    {2, 2, 2, 2, 0, 0}, {3, 3, 2, 2, 1, 1}, {3, 3, 1, 1, 1, 1},
    {3, 3, 3, 3, 0, 0}, {5, 5, 2, 2, 2, 2}, {2, 3, 2, 1, 0, 1},
};

enum { MAX, AVG_EXCL, AVG_INCL, L2, MAX_IDX, MAX_CEIL };
enum { NCHW, NHWC };
enum { F32, F64, U8 };
static const char *const DT[] = {"f32", "f64", "u8"};
static const char *const CT[] = {"float", "double", "uint8_t"};
static const int DSZ[] = {4, 8, 1};

typedef struct Spec {
    int op, win, layout, dt;
} Spec;

static const Spec SPECS2D[] = {
    {MAX, 0, NCHW, F32},      {MAX, 0, NHWC, U8},       {MAX, 1, NCHW, F32},      {MAX, 1, NHWC, F32},
    {MAX, 2, NCHW, F64},      {MAX, 2, NHWC, F32},      {MAX, 3, NCHW, U8},       {MAX, 3, NHWC, F32},
    {MAX, 4, NCHW, F32},      {MAX, 4, NHWC, F64},      {MAX, 5, NCHW, F32},      {MAX, 5, NHWC, F32},
    {AVG_EXCL, 0, NCHW, F32}, {AVG_EXCL, 0, NHWC, U8},  {AVG_EXCL, 1, NCHW, F32}, {AVG_INCL, 1, NHWC, F32},
    {AVG_EXCL, 1, NHWC, F64}, {AVG_EXCL, 2, NCHW, F32}, {AVG_INCL, 2, NCHW, F64}, {AVG_INCL, 2, NHWC, F32},
    {AVG_EXCL, 3, NCHW, F64}, {AVG_EXCL, 3, NHWC, F32}, {AVG_EXCL, 4, NCHW, F32}, {AVG_INCL, 4, NCHW, F32},
    {AVG_INCL, 4, NHWC, F32}, {AVG_EXCL, 5, NCHW, F32}, {AVG_INCL, 5, NHWC, F64}, {L2, 0, NCHW, F32},
    {L2, 0, NHWC, F32},       {L2, 1, NCHW, F32},       {L2, 1, NHWC, F64},       {L2, 2, NCHW, F64},
    {L2, 2, NHWC, F32},       {L2, 4, NCHW, F32},       {L2, 4, NHWC, F32},       {MAX_IDX, 0, NCHW, F32},
    {MAX_IDX, 1, NCHW, F32},  {MAX_IDX, 4, NCHW, F64},  {MAX_CEIL, 3, NCHW, F32},
};
#define N_SPECS2D ((int)(sizeof SPECS2D / sizeof *SPECS2D))

/* "(h+2-3)/2+1" written simply: (len + 2p - k) / s + 1. */
static void out_expr(char *buf, size_t len, const char *v, int k, int s, int p, int ceil_mode)
{
    int c = 2 * p - k + (ceil_mode ? s - 1 : 0);
    if (s == 1) {
        c += 1;
        if (c == 0)
            snprintf(buf, len, "%s", v);
        else
            snprintf(buf, len, "%s%c%d", v, c < 0 ? '-' : '+', c < 0 ? -c : c);
    } else if (c == 0) {
        snprintf(buf, len, "%s/%d+1", v, s);
    } else {
        snprintf(buf, len, "(%s%c%d)/%d+1", v, c < 0 ? '-' : '+', c < 0 ? -c : c, s);
    }
}

static const char *min_value(int dt)
{
    return dt == F32 ? "-FLT_MAX" : dt == F64 ? "-DBL_MAX" : "0";
}

/* ---- the pair ---- */

/* CUDA spellings of the element types (no headers needed). */
static const char *const CUDA_T[] = {"float", "double", "unsigned char"};

/* The lowest value, for a max pool's start (FLT_MAX and DBL_MAX without
 * <float.h>, which NVRTC does not provide). */
static const char *cuda_lowest(int dt)
{
    return dt == F32 ? "-3.402823466e+38f" : dt == F64 ? "-1.7976931348623157e+308" : "0";
}

/* Appends `extern "C" __global__ void entry(params)`, wrapped at 100
 * columns. */
static void put_head(StrBuf *k, const char *entry, const char *params)
{
    char line[400];
    snprintf(line, sizeof line, "extern \"C\" __global__ void %s(%s)\n", entry, params);
    tmpl_put_wrapped(k, line);
}

/* 2D pooling: one thread per output element, the window loop exactly as in
 * the C program (same order, so sums and first-max ties match).  Threads
 * run along ox for NCHW and along the channel for NHWC, the contiguous
 * output dimension in each layout. */
static void emit_cuda_pool2d(GenProgram *p, const Spec *S, const char *entry, const char *oh, const char *ow)
{
    const Window *W = &WINDOWS[S->win];
    int square = W->kh == W->kw && W->sh == W->sw && W->ph == W->pw;
    int nchw = S->layout == NCHW, padded = W->ph || W->pw, ceil_mode = S->op == MAX_CEIL;
    const char *ty = CUDA_T[S->dt];
    const char *KH = "KH", *KW = "KW", *SH = "SH", *SW = "SW", *PH = "PH", *PW = "PW";
    StrBuf *k = gen_cuda_src(p);
    if (square) {
        KH = KW = "K";
        SH = SW = "S";
        PH = PW = "P";
        if (W->ph)
            sb_printf(k, "enum { K = %d, S = %d, P = %d };\n\n", W->kh, W->sh, W->ph);
        else
            sb_printf(k, "enum { K = %d, S = %d };\n\n", W->kh, W->sh);
    } else {
        sb_printf(k, "enum { KH = %d, KW = %d, SH = %d, SW = %d, PH = %d, PW = %d };\n\n", W->kh, W->kw, W->sh, W->sw,
                  W->ph, W->pw);
    }
    sb_printf(k, "/* One thread per output element of the %s output. */\n", nchw ? "NCHW" : "NHWC");
    char params[200];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, %sint n, int c, int h, int w", ty,
             ty, S->op == MAX_IDX ? "long long *__restrict__ indices, " : "");
    put_head(k, entry, params);
    sb_append(k, "{\n");
    if (ceil_mode)
        sb_printf(k, "    const int oh = (h - %s + %s - 1) / %s + 1, ow = (w - %s + %s - 1) / %s + 1;\n", KH, SH, SH, KW,
                  SW, SW);
    else if (padded)
        sb_printf(k, "    const int oh = (h + 2 * %s - %s) / %s + 1, ow = (w + 2 * %s - %s) / %s + 1;\n", PH, KH, SH,
                  PW, KW, SW);
    else
        sb_printf(k, "    const int oh = (h - %s) / %s + 1, ow = (w - %s) / %s + 1;\n", KH, SH, KW, SW);
    sb_append(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= (long long)n * c * oh * ow)\n        return;\n");
    if (nchw)
        sb_printf(k, "    const int ox = (int)(i %% ow), oy = (int)(i / ow %% oh);\n"
                     "    const %s *src = in + i / ((long long)oh * ow) * h * w;\n", ty);
    else
        sb_append(k, "    const int ch = (int)(i % c), ox = (int)(i / c % ow), oy = (int)(i / ((long long)c * ow) % oh);\n"
                     "    const long long b = i / ((long long)c * ow * oh);\n");
    if (padded)
        sb_printf(k, "    const int y0 = oy * %s - %s, x0 = ox * %s - %s;\n", SH, PH, SW, PW);
    else
        sb_printf(k, "    const int y0 = oy * %s, x0 = ox * %s;\n", SH, SW);
    if (S->op == MAX || S->op == MAX_IDX || S->op == MAX_CEIL)
        sb_printf(k, "    %s best = %s;\n", ty, cuda_lowest(S->dt));
    else
        sb_printf(k, "    %s sum = 0;\n", S->dt == U8 ? "int" : ty);
    if (S->op == MAX_IDX)
        sb_append(k, "    long long arg = 0;\n");
    if (S->op == AVG_EXCL && padded)
        sb_append(k, "    int count = 0;\n");
    sb_printf(k, "    for (int ky = 0; ky < %s; ky++) {\n        const int y = y0 + ky;\n", KH);
    if (padded)
        sb_append(k, "        if (y < 0 || y >= h)\n            continue;\n");
    else if (ceil_mode)
        sb_append(k, "        if (y >= h)\n            break;\n");
    sb_printf(k, "        for (int kx = 0; kx < %s; kx++) {\n            const int x = x0 + kx;\n", KW);
    if (padded)
        sb_append(k, "            if (x < 0 || x >= w)\n                continue;\n");
    else if (ceil_mode)
        sb_append(k, "            if (x >= w)\n                break;\n");
    if (nchw)
        sb_printf(k, "            const %s v = src[y * w + x];\n", ty);
    else
        sb_printf(k, "            const %s v = in[((b * h + y) * w + x) * c + ch];\n", ty);
    switch (S->op) {
    case MAX:
    case MAX_CEIL:
        sb_append(k, "            if (v > best)\n                best = v;\n");
        break;
    case MAX_IDX:
        sb_append(k, "            if (v > best) {\n                best = v;\n"
                     "                arg = (long long)y * w + x;\n            }\n");
        break;
    case L2:
        sb_append(k, "            sum += v * v;\n");
        break;
    default:
        sb_append(k, "            sum += v;\n");
        if (S->op == AVG_EXCL && padded)
            sb_append(k, "            count++;\n");
    }
    sb_append(k, "        }\n    }\n");
    switch (S->op) {
    case MAX:
    case MAX_CEIL:
        sb_append(k, "    out[i] = best;\n");
        break;
    case MAX_IDX:
        sb_append(k, "    out[i] = best;\n    indices[i] = arg;\n");
        break;
    case L2:
        sb_printf(k, "    out[i] = %s(sum);\n", S->dt == F32 ? "sqrtf" : "sqrt");
        break;
    default: {
        char denom[32];
        if (S->op == AVG_EXCL && padded)
            snprintf(denom, sizeof denom, "count");
        else
            snprintf(denom, sizeof denom, square ? "(K * K)" : "(KH * KW)");
        if (S->dt == U8)
            sb_printf(k, "    out[i] = (unsigned char)((sum + %s / 2) / %s);\n", denom, denom);
        else
            sb_printf(k, "    out[i] = sum / %s;\n", denom);
    }
    }
    sb_append(k, "}\n");
    char grid[160];
    snprintf(grid, sizeof grid, "(n*c*(%s)*(%s)+255)/256", oh, ow);
    gen_launch(p, entry, grid, "256", NULL, S->op == MAX_IDX ? "in,out,indices,n,c,h,w" : "in,out,n,c,h,w");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-output-per-thread");
}

/* 1D pooling: one thread per output element, the window loop as in C. */
static void emit_cuda_pool1d(GenProgram *p, const char *entry, int op, int kk, int st, int pad, int dt,
                             const char *ol)
{
    const char *ty = CUDA_T[dt];
    StrBuf *k = gen_cuda_src(p);
    if (pad)
        sb_printf(k, "enum { K = %d, S = %d, P = %d };\n\n", kk, st, pad);
    else
        sb_printf(k, "enum { K = %d, S = %d };\n\n", kk, st);
    sb_append(k, "/* One thread per output element. */\n");
    char params[160];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n, int c, int l", ty, ty);
    put_head(k, entry, params);
    sb_append(k, "{\n");
    sb_printf(k, "    const int ol = (l%s - K) / S + 1;\n", pad ? " + 2 * P" : "");
    sb_printf(k, "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= (long long)n * c * ol)\n        return;\n"
                 "    const %s *src = in + i / ol * l;\n"
                 "    const int start = (int)(i %% ol) * S%s;\n", ty, pad ? " - P" : "");
    if (op == MAX)
        sb_printf(k, "    %s best = %s;\n", ty, cuda_lowest(dt));
    else
        sb_printf(k, "    %s sum = 0;\n", ty);
    if (op == AVG_EXCL && pad)
        sb_append(k, "    int count = 0;\n");
    sb_append(k, "    for (int j = start; j < start + K; j++) {\n");
    if (pad)
        sb_append(k, "        if (j < 0 || j >= l)\n            continue;\n");
    if (op == MAX)
        sb_append(k, "        if (src[j] > best)\n            best = src[j];\n");
    else if (op == L2)
        sb_append(k, "        sum += src[j] * src[j];\n");
    else
        sb_printf(k, "        sum += src[j];\n%s", op == AVG_EXCL && pad ? "        count++;\n" : "");
    sb_append(k, "    }\n");
    if (op == MAX)
        sb_append(k, "    out[i] = best;\n");
    else if (op == L2)
        sb_printf(k, "    out[i] = %s(sum);\n", dt == F32 ? "sqrtf" : "sqrt");
    else
        sb_printf(k, "    out[i] = sum / %s;\n", op == AVG_EXCL && pad ? "count" : "K");
    sb_append(k, "}\n");
    char grid[96];
    snprintf(grid, sizeof grid, "(n*c*(%s)+255)/256", ol);
    gen_launch(p, entry, grid, "256", NULL, "in,out,n,c,l");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-output-per-thread");
}

/* Global pooling.  NCHW: one block per (b, ch) plane, each thread folding a
 * strided part of the contiguous plane, then a shared-memory tree over the
 * block (sums in double, as in C; blockDim.x must be a power of two).
 * NHWC: one thread per (b, ch), walking the plane in C's order, so
 * neighbouring threads read neighbouring channels. */
static void emit_cuda_global(GenProgram *p, const char *entry, int kind, int nchw, int dt)
{
    const char *ty = CUDA_T[dt];
    StrBuf *k = gen_cuda_src(p);
    char params[160];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n, int c, int h, int w", ty,
             ty);
    if (!nchw) {
        sb_printf(k, "/* One thread per (b, ch): the %s over the h x w plane. */\n",
                  kind == 0 ? "mean (summed in double)" : "maximum");
        put_head(k, entry, params);
        sb_append(k, "{\n"
                     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i >= (long long)n * c)\n        return;\n"
                     "    const long long plane = (long long)h * w, b = i / c;\n"
                     "    const int ch = (int)(i % c);\n");
        if (kind == 0)
            sb_append(k, "    double sum = 0;\n");
        else
            sb_printf(k, "    %s best = %s;\n", ty, cuda_lowest(dt));
        sb_printf(k, "    for (long long j = 0; j < plane; j++) {\n"
                     "        const %s v = in[(b * plane + j) * c + ch];\n", ty);
        if (kind == 0)
            sb_printf(k, "        sum += v;\n    }\n    out[i] = (%s)(sum / plane);\n}\n", ty);
        else
            sb_append(k, "        if (v > best)\n            best = v;\n    }\n    out[i] = best;\n}\n");
        gen_launch(p, entry, "(n*c+255)/256", "256", NULL, "in,out,n,c,h,w");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-output-per-thread");
        return;
    }
    sb_printf(k, "/* One block per (b, ch) plane: %s, a shared-memory tree reduction. */\n",
              kind == 0 ? "the mean (summed in double)" : kind == 1 ? "the maximum" : "the mean (summed in double) and maximum");
    put_head(k, entry, params);
    sb_append(k, "{\n");
    if (kind == 1)
        sb_printf(k, "    extern __shared__ %s pmax[]; /* blockDim.x partial maxima */\n", ty);
    else
        sb_append(k, "    extern __shared__ double psum[]; /* blockDim.x partial sums */\n");
    if (kind == 2)
        sb_printf(k, "    %s *pmax = (%s *)(psum + blockDim.x); /* then blockDim.x partial maxima */\n", ty, ty);
    sb_printf(k, "    const long long plane = (long long)h * w, bc = blockIdx.x; /* b * c + ch */\n"
                 "    const %s *src = in + bc * plane;\n", ty);
    if (kind != 1)
        sb_append(k, "    double sum = 0;\n");
    if (kind != 0)
        sb_printf(k, "    %s best = %s;\n", ty, cuda_lowest(dt));
    sb_printf(k, "    for (long long j = threadIdx.x; j < plane; j += blockDim.x) {\n"
                 "        const %s v = src[j];\n", ty);
    if (kind != 1)
        sb_append(k, "        sum += v;\n");
    if (kind != 0)
        sb_append(k, "        if (v > best)\n            best = v;\n");
    sb_append(k, "    }\n");
    if (kind != 1)
        sb_append(k, "    psum[threadIdx.x] = sum;\n");
    if (kind != 0)
        sb_append(k, "    pmax[threadIdx.x] = best;\n");
    sb_append(k, "    __syncthreads();\n"
                 "    for (int s = blockDim.x / 2; s > 0; s /= 2) {\n"
                 "        if (threadIdx.x < s) {\n");
    if (kind != 1)
        sb_append(k, "            psum[threadIdx.x] += psum[threadIdx.x + s];\n");
    if (kind != 0)
        sb_append(k, "            if (pmax[threadIdx.x + s] > pmax[threadIdx.x])\n"
                     "                pmax[threadIdx.x] = pmax[threadIdx.x + s];\n");
    sb_append(k, "        }\n        __syncthreads();\n    }\n    if (threadIdx.x == 0) {\n");
    if (kind == 0)
        sb_printf(k, "        out[bc] = (%s)(psum[0] / plane);\n", ty);
    else if (kind == 1)
        sb_append(k, "        out[bc] = pmax[0];\n");
    else
        sb_printf(k, "        const long long b = bc / c, ch = bc %% c;\n"
                     "        out[b * 2 * c + ch] = (%s)(psum[0] / plane);\n"
                     "        out[b * 2 * c + c + ch] = pmax[0];\n", ty);
    sb_append(k, "    }\n}\n");
    const char *smem = kind == 0 ? "256*8" : kind == 1 ? (dt == F64 ? "256*8" : "256*4") : "256*(8+4)";
    gen_launch(p, entry, "n*c", "256", smem, "in,out,n,c,h,w");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "block-reduction-shared");
}

/* Adaptive pooling: one thread per output element, the bin loop as in C. */
static void emit_cuda_adaptive(GenProgram *p, const char *entry, int is_max)
{
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, "/* One thread per output element. */\n");
    put_head(k, entry, "const float *__restrict__ in, float *__restrict__ out, int n, int c, int h, int w, int oh, "
                       "int ow");
    sb_append(k, "{\n"
                 "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= (long long)n * c * oh * ow)\n        return;\n"
                 "    const int ox = (int)(i % ow), oy = (int)(i / ow % oh);\n"
                 "    const float *src = in + i / ((long long)oh * ow) * h * w;\n"
                 "    const int y0 = oy * h / oh, y1 = ((oy + 1) * h + oh - 1) / oh;\n"
                 "    const int x0 = ox * w / ow, x1 = ((ox + 1) * w + ow - 1) / ow;\n");
    if (is_max)
        sb_printf(k, "    float best = %s;\n", cuda_lowest(F32));
    else
        sb_append(k, "    float sum = 0;\n");
    sb_append(k, "    for (int y = y0; y < y1; y++)\n        for (int x = x0; x < x1; x++)\n");
    if (is_max)
        sb_append(k, "            if (src[y * w + x] > best)\n                best = src[y * w + x];\n"
                     "    out[i] = best;\n}\n");
    else
        sb_append(k, "            sum += src[y * w + x];\n    out[i] = sum / ((y1 - y0) * (x1 - x0));\n}\n");
    gen_launch(p, entry, "(n*c*oh*ow+255)/256", "256", NULL, "in,out,n,c,h,w,oh,ow");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-output-per-thread");
}

static int gen_pool2d(GenCtx *g, const Spec *S)
{
    const Window *W = &WINDOWS[S->win];
    int square = W->kh == W->kw && W->sh == W->sw && W->ph == W->pw;
    int nchw = S->layout == NCHW;
    const char *ty = CT[S->dt], *dt = DT[S->dt];
    char wtag[32], variant[96];
    if (square)
        snprintf(wtag, sizeof wtag, "k%ds%d%s", W->kh, W->sh, W->ph ? (W->ph == 1 ? "p1" : "p2") : "");
    else
        snprintf(wtag, sizeof wtag, "k%dx%ds%dx%dp%dx%d", W->kh, W->kw, W->sh, W->sw, W->ph, W->pw);
    static const char *const OPTAG[] = {"max", "avg", "avg", "l2", "max-idx", "max-ceil"};
    const char *padtag = "";
    if ((S->op == AVG_EXCL || S->op == AVG_INCL) && (W->ph || W->pw))
        padtag = S->op == AVG_EXCL ? "-excl-pad" : "-incl-pad";
    snprintf(variant, sizeof variant, "%s-%s%s-%s-%s", OPTAG[S->op], wtag, padtag, nchw ? "nchw" : "nhwc", dt);
    static const char *const ENTRY[] = {"max_pool2d", "avg_pool2d", "avg_pool2d", "l2_pool2d", "max_pool2d_with_indices",
                                        "max_pool2d"};
    GenProgram *p = gen_begin(g, variant, ENTRY[S->op]);
    static const char *const OPTEXT[] = {"max", "average (padding not counted)", "average (padding counted)",
                                         "L2 (root of sum of squares)", "max with argmax indices",
                                         "max (ceil mode)"};
    gen_describe(p, "2D %s pooling, %dx%d window, stride %dx%d, padding %dx%d, %s, %s", OPTEXT[S->op], W->kh, W->kw,
                 W->sh, W->sw, W->ph, W->pw, nchw ? "NCHW" : "NHWC", dt);
    int ceil_mode = S->op == MAX_CEIL;
    char oh[32], ow[32], shape[96];
    out_expr(oh, sizeof oh, "h", W->kh, W->sh, W->ph, ceil_mode);
    out_expr(ow, sizeof ow, "w", W->kw, W->sw, W->pw, ceil_mode);
    gen_arg(p, "in", dt, "in", nchw ? "n,c,h,w" : "n,h,w,c");
    if (nchw)
        snprintf(shape, sizeof shape, "n,c,%s,%s", oh, ow);
    else
        snprintf(shape, sizeof shape, "n,%s,%s,c", oh, ow);
    gen_arg(p, "out", dt, "out", shape);
    if (S->op == MAX_IDX) {
        snprintf(shape, sizeof shape, "n,c,%s,%s", oh, ow);
        gen_arg(p, "indices", "i64", "out", shape);
    }
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    char cfg[96];
    gen_config(p, "small", "n=2,c=8,h=32,w=40");
    int eh = W->kh - 2 * W->ph, ew = W->kw - 2 * W->pw;
    snprintf(cfg, sizeof cfg, "n=1,c=1,h=%d,w=%d", eh < 1 ? 1 : eh, ew < 1 ? 1 : ew);
    gen_config(p, "edge", cfg);
    gen_config(p, "edge-prime", "n=1,c=3,h=13,w=17");
    gen_config(p, "edge-odd", "n=3,c=5,h=7,w=9");
    gen_config(p, "large", S->dt == U8 ? "n=256,c=64,h=112,w=112" : S->dt == F64 ? "n=32,c=64,h=112,w=112"
                                                                             : "n=64,c=64,h=112,w=112");
    char flops[96], bytes[160];
    snprintf(flops, sizeof flops, "%d*n*c*(%s)*(%s)", W->kh * W->kw * (S->op == L2 ? 2 : 1), oh, ow);
    snprintf(bytes, sizeof bytes, "%d*n*c*h*w+%d*n*c*(%s)*(%s)", DSZ[S->dt], DSZ[S->dt] + (S->op == MAX_IDX ? 8 : 0),
             oh, ow);
    gen_cost(p, flops, bytes);

    StrBuf *s = gen_src(p);
    static const char *const MATH[] = {
        "the maximum over the window; padding never wins",
        "the mean over the window's pixels inside the image",
        "the window sum divided by the full window size (padding counts as 0)",
        "sqrt of the sum of squares over the window (padding counts as 0)",
        "the maximum over the window, and the index y * w + x of the first maximum\n * in window order within its (n, c) plane",
        "the maximum over the window; the output size rounds up, so the\n * last window may hang over the image edge"};
    sb_printf(s, "/* 2D pooling of an %s %s tensor: %dx%d window, stride %dx%d, padding %dx%d.\n"
                 " * Each output is %s.",
              nchw ? "NCHW" : "NHWC", dt, W->kh, W->kw, W->sh, W->sw, W->ph, W->pw, MATH[S->op]);
    if (S->dt == U8 && S->op != MAX)
        sb_append(s, "\n * The mean is rounded to nearest.");
    sb_append(s, " */\n");
    int fmax_needed = S->op == MAX || S->op == MAX_IDX || S->op == MAX_CEIL;
    if (fmax_needed && S->dt != U8)
        sb_append(s, "#include <float.h>\n");
    if (S->op == L2)
        sb_append(s, "#include <math.h>\n");
    if (nchw)
        sb_append(s, "#include <stddef.h>\n");
    if (S->dt == U8 || S->op == MAX_IDX)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    const char *KH = "KH", *KW = "KW", *SH = "SH", *SW = "SW", *PH = "PH", *PW = "PW";
    if (square) {
        KH = KW = "K";
        SH = SW = "S";
        PH = PW = "P";
        if (W->ph)
            sb_printf(s, "enum { K = %d, S = %d, P = %d };\n\n", W->kh, W->sh, W->ph);
        else
            sb_printf(s, "enum { K = %d, S = %d };\n\n", W->kh, W->sh);
    } else {
        sb_printf(s, "enum { KH = %d, KW = %d, SH = %d, SW = %d, PH = %d, PW = %d };\n\n", W->kh, W->kw, W->sh, W->sw,
                  W->ph, W->pw);
    }
    int padded = W->ph || W->pw;
    sb_printf(s, "void %s(const %s *in, %s *out, %sint n, int c, int h, int w)\n{\n", ENTRY[S->op], ty, ty,
              S->op == MAX_IDX ? "int64_t *indices, " : "");
    char pe_h[16], pe_w[16];
    snprintf(pe_h, sizeof pe_h, padded ? " + 2 * %s" : "", PH);
    snprintf(pe_w, sizeof pe_w, padded ? " + 2 * %s" : "", PW);
    if (ceil_mode)
        sb_printf(s, "    const int oh = (h - %s + %s - 1) / %s + 1, ow = (w - %s + %s - 1) / %s + 1;\n", KH, SH, SH, KW,
                  SW, SW);
    else
        sb_printf(s, "    const int oh = (h%s - %s) / %s + 1, ow = (w%s - %s) / %s + 1;\n", pe_h, KH, SH, pe_w, KW, SW);
    const char *I;
    if (nchw) {
        sb_printf(s, "    for (int plane = 0; plane < n * c; plane++) {\n"
                     "        const %s *src = in + (size_t)plane * h * w;\n"
                     "        %s *dst = out + (size_t)plane * oh * ow;\n", ty, ty);
        if (S->op == MAX_IDX)
            sb_append(s, "        int64_t *idx = indices + (size_t)plane * oh * ow;\n");
        sb_append(s, "        for (int oy = 0; oy < oh; oy++) {\n            for (int ox = 0; ox < ow; ox++) {\n");
        I = "                ";
    } else {
        sb_append(s, "    for (int b = 0; b < n; b++) {\n        for (int oy = 0; oy < oh; oy++) {\n"
                     "            for (int ox = 0; ox < ow; ox++) {\n"
                     "                for (int ch = 0; ch < c; ch++) {\n");
        I = "                    ";
    }
    if (padded)
        sb_printf(s, "%sint y0 = oy * %s - %s, x0 = ox * %s - %s;\n", I, SH, PH, SW, PW);
    else
        sb_printf(s, "%sint y0 = oy * %s, x0 = ox * %s;\n", I, SH, SW);
    const char *acc = S->dt == U8 ? (S->op == MAX ? "uint8_t" : "int") : ty;
    if (S->op == MAX || S->op == MAX_IDX || S->op == MAX_CEIL)
        sb_printf(s, "%s%s best = %s;\n", I, S->dt == U8 ? "uint8_t" : ty, min_value(S->dt));
    else
        sb_printf(s, "%s%s sum = 0;\n", I, acc);
    if (S->op == MAX_IDX)
        sb_printf(s, "%sint64_t arg = 0;\n", I);
    if (S->op == AVG_EXCL && padded)
        sb_printf(s, "%sint count = 0;\n", I);
    sb_printf(s, "%sfor (int ky = 0; ky < %s; ky++) {\n", I, KH);
    sb_printf(s, "%s    int y = y0 + ky;\n", I);
    if (padded)
        sb_printf(s, "%s    if (y < 0 || y >= h)\n%s        continue;\n", I, I);
    else if (ceil_mode)
        sb_printf(s, "%s    if (y >= h)\n%s        break;\n", I, I);
    sb_printf(s, "%s    for (int kx = 0; kx < %s; kx++) {\n", I, KW);
    sb_printf(s, "%s        int x = x0 + kx;\n", I);
    if (padded)
        sb_printf(s, "%s        if (x < 0 || x >= w)\n%s            continue;\n", I, I);
    else if (ceil_mode)
        sb_printf(s, "%s        if (x >= w)\n%s            break;\n", I, I);
    if (nchw)
        sb_printf(s, "%s        %s v = src[y * w + x];\n", I, ty);
    else
        sb_printf(s, "%s        %s v = in[((b * h + y) * w + x) * c + ch];\n", I, ty);
    const char *J = "        ";
    switch (S->op) {
    case MAX:
    case MAX_CEIL:
        sb_printf(s, "%s%sif (v > best)\n%s%s    best = v;\n", I, J, I, J);
        break;
    case MAX_IDX:
        sb_printf(s, "%s%sif (v > best) {\n%s%s    best = v;\n%s%s    arg = (int64_t)y * w + x;\n%s%s}\n", I, J, I, J,
                  I, J, I, J);
        break;
    case L2:
        sb_printf(s, "%s%ssum += v * v;\n", I, J);
        break;
    default:
        sb_printf(s, "%s%ssum += v;\n", I, J);
        if (S->op == AVG_EXCL && padded)
            sb_printf(s, "%s%scount++;\n", I, J);
    }
    sb_printf(s, "%s    }\n%s}\n", I, I);
    char o[64];
    snprintf(o, sizeof o, nchw ? "dst[oy * ow + ox]" : "out[((b * oh + oy) * ow + ox) * c + ch]");
    switch (S->op) {
    case MAX:
    case MAX_CEIL:
        sb_printf(s, "%s%s = best;\n", I, o);
        break;
    case MAX_IDX:
        sb_printf(s, "%s%s = best;\n%sidx[oy * ow + ox] = arg;\n", I, o, I);
        break;
    case L2:
        sb_printf(s, "%s%s = %s(sum);\n", I, o, S->dt == F32 ? "sqrtf" : "sqrt");
        break;
    default: {
        char denom[32];
        if (S->op == AVG_EXCL && padded)
            snprintf(denom, sizeof denom, "count");
        else
            snprintf(denom, sizeof denom, square ? "(K * K)" : "(KH * KW)");
        if (S->dt == U8)
            sb_printf(s, "%s%s = (uint8_t)((sum + %s / 2) / %s);\n", I, o, denom, denom);
        else
            sb_printf(s, "%s%s = sum / %s;\n", I, o, denom);
    }
    }
    if (nchw)
        sb_append(s, "            }\n        }\n    }\n}\n");
    else
        sb_append(s, "                }\n            }\n        }\n    }\n}\n");
    emit_cuda_pool2d(p, S, ENTRY[S->op], oh, ow);
    return gen_end(p);
}

/* 1D pooling over the last axis of an (n, c, l) tensor. */
static int gen_pool1d(GenCtx *g, int op, int k, int st, int pad, int dt)
{
    const char *ty = CT[dt];
    char variant[64], ol[32], shape[64];
    static const char *const OPN[] = {"max1d", "avg1d", "avg1d", "l2-1d"};
    snprintf(variant, sizeof variant, "%s-k%ds%d%s%s-%s", OPN[op], k, st, pad ? "p" : "",
             pad ? (pad == 1 ? "1" : "2") : "", DT[dt]);
    if (op == AVG_INCL)
        snprintf(variant + strlen(variant), sizeof variant - strlen(variant), "-incl-pad");
    GenProgram *p = gen_begin(g, variant, op == MAX ? "max_pool1d" : op == L2 ? "l2_pool1d" : "avg_pool1d");
    gen_describe(p, "1D %s pooling over the last axis of (n, c, l), kernel %d, stride %d, padding %d, %s",
                 op == MAX ? "max" : op == L2 ? "L2" : op == AVG_INCL ? "average (padding counted)" : "average",
                 k, st, pad, DT[dt]);
    out_expr(ol, sizeof ol, "l", k, st, pad, 0);
    gen_arg(p, "in", DT[dt], "in", "n,c,l");
    snprintf(shape, sizeof shape, "n,c,%s", ol);
    gen_arg(p, "out", DT[dt], "out", shape);
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "l", "i32", "param", NULL);
    char cfg[64];
    gen_config(p, "small", "n=2,c=8,l=1000");
    snprintf(cfg, sizeof cfg, "n=1,c=1,l=%d", k - 2 * pad < 1 ? 1 : k - 2 * pad);
    gen_config(p, "edge", cfg);
    gen_config(p, "edge-prime", "n=1,c=3,l=97");
    gen_config(p, "large", dt == F64 ? "n=32,c=64,l=16384" : "n=64,c=64,l=16384");
    char flops[64], bytes[96];
    snprintf(flops, sizeof flops, "%d*n*c*(%s)", k * (op == L2 ? 2 : 1), ol);
    snprintf(bytes, sizeof bytes, "%d*n*c*l+%d*n*c*(%s)", DSZ[dt], DSZ[dt], ol);
    gen_cost(p, flops, bytes);
    StrBuf *s = gen_src(p);
    static const char *const MATH[] = {"the maximum over the window (padding never wins)",
                                       "the mean of the window's elements inside the row",
                                       "the window sum divided by the kernel size (padding counts as 0)",
                                       "sqrt of the sum of squares over the window"};
    sb_printf(s, "/* 1D pooling along the last axis of an (n, c, l) %s tensor: kernel %d, stride %d,\n"
                 " * padding %d.  Each output is %s. */\n",
              DT[dt], k, st, pad, MATH[op]);
    if (op == MAX)
        sb_append(s, "#include <float.h>\n");
    if (op == L2)
        sb_append(s, "#include <math.h>\n");
    sb_append(s, "#include <stddef.h>\n\n");
    if (pad)
        sb_printf(s, "enum { K = %d, S = %d, P = %d };\n\n", k, st, pad);
    else
        sb_printf(s, "enum { K = %d, S = %d };\n\n", k, st);
    sb_printf(s, "void %s(const %s *in, %s *out, int n, int c, int l)\n{\n",
              op == MAX ? "max_pool1d" : op == L2 ? "l2_pool1d" : "avg_pool1d", ty, ty);
    sb_printf(s, "    const int ol = (l%s - K) / S + 1;\n", pad ? " + 2 * P" : "");
    sb_printf(s, "    for (int row = 0; row < n * c; row++) {\n"
                 "        const %s *src = in + (size_t)row * l;\n"
                 "        %s *dst = out + (size_t)row * ol;\n"
                 "        for (int o = 0; o < ol; o++) {\n", ty, ty);
    sb_printf(s, "            int start = o * S%s;\n", pad ? " - P" : "");
    if (op == MAX)
        sb_printf(s, "            %s best = %s;\n", ty, min_value(dt));
    else
        sb_printf(s, "            %s sum = 0;\n", ty);
    if (op == AVG_EXCL && pad)
        sb_append(s, "            int count = 0;\n");
    if (pad)
        sb_append(s, "            for (int i = start; i < start + K; i++) {\n"
                     "                if (i < 0 || i >= l)\n                    continue;\n");
    else
        sb_append(s, "            for (int i = start; i < start + K; i++) {\n");
    if (op == MAX)
        sb_append(s, "                if (src[i] > best)\n                    best = src[i];\n");
    else if (op == L2)
        sb_append(s, "                sum += src[i] * src[i];\n");
    else
        sb_printf(s, "                sum += src[i];\n%s", op == AVG_EXCL && pad ? "                count++;\n" : "");
    sb_append(s, "            }\n");
    if (op == MAX)
        sb_append(s, "            dst[o] = best;\n");
    else if (op == L2)
        sb_printf(s, "            dst[o] = %s(sum);\n", dt == F32 ? "sqrtf" : "sqrt");
    else
        sb_printf(s, "            dst[o] = sum / %s;\n", op == AVG_EXCL && pad ? "count" : "K");
    sb_append(s, "        }\n    }\n}\n");
    emit_cuda_pool1d(p, op == MAX ? "max_pool1d" : op == L2 ? "l2_pool1d" : "avg_pool1d", op, k, st, pad, dt, ol);
    return gen_end(p);
}

/* Global pooling to one value per (n, c); kind 0 avg, 1 max, 2 avg+max concatenated. */
static int gen_global(GenCtx *g, int kind, int layout, int dt)
{
    const char *ty = CT[dt];
    int nchw = layout == NCHW;
    char variant[64];
    static const char *const KN[] = {"global-avg", "global-max", "global-avg-max-concat"};
    snprintf(variant, sizeof variant, "%s-%s-%s", KN[kind], nchw ? "nchw" : "nhwc", DT[dt]);
    static const char *const EN[] = {"global_avg_pool", "global_max_pool", "concat_pool"};
    GenProgram *p = gen_begin(g, variant, EN[kind]);
    gen_describe(p, "global %s pooling of a %s %s tensor to (n, %s)",
                 kind == 0 ? "average" : kind == 1 ? "max" : "average and max (concatenated)",
                 nchw ? "NCHW" : "NHWC", DT[dt], kind == 2 ? "2c" : "c");
    gen_arg(p, "in", DT[dt], "in", nchw ? "n,c,h,w" : "n,h,w,c");
    gen_arg(p, "out", DT[dt], "out", kind == 2 ? "n,2*c" : "n,c");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    gen_config(p, "small", "n=2,c=8,h=32,w=40");
    gen_config(p, "edge", "n=1,c=1,h=1,w=1");
    gen_config(p, "edge-prime", "n=1,c=3,h=13,w=17");
    gen_config(p, "large", dt == F64 ? "n=32,c=256,h=56,w=56" : dt == U8 ? "n=128,c=256,h=56,w=56"
                                                                      : "n=64,c=256,h=56,w=56");
    char bytes[64];
    snprintf(bytes, sizeof bytes, "%d*n*c*h*w+%d*n*c", DSZ[dt], DSZ[dt] * (kind == 2 ? 2 : 1));
    gen_cost(p, kind == 2 ? "2*n*c*h*w" : "n*c*h*w", bytes);
    StrBuf *s = gen_src(p);
    if (kind == 0)
        sb_printf(s, "/* Global average pooling of an %s %s tensor: out(b, ch) is the mean over the\n"
                     " * h x w plane, accumulated in double. */\n", nchw ? "NCHW" : "NHWC", DT[dt]);
    else if (kind == 1)
        sb_printf(s, "/* Global max pooling of an %s %s tensor: out(b, ch) is the maximum over the\n"
                     " * h x w plane. */\n", nchw ? "NCHW" : "NHWC", DT[dt]);
    else
        sb_printf(s, "/* Concatenated global pooling of an NCHW %s tensor: out(b, ch) is the mean\n"
                     " * of the h x w plane (accumulated in double) and out(b, c + ch) its maximum. */\n", DT[dt]);
    if (kind >= 1 && dt != U8)
        sb_append(s, "#include <float.h>\n");
    sb_append(s, "#include <stddef.h>\n");
    if (dt == U8)
        sb_append(s, "#include <stdint.h>\n");
    sb_append(s, "\n");
    sb_printf(s, "void %s(const %s *in, %s *out, int n, int c, int h, int w)\n{\n", EN[kind], ty, ty);
    sb_append(s, "    const size_t plane = (size_t)h * w;\n");
    sb_append(s, "    for (int b = 0; b < n; b++) {\n        for (int ch = 0; ch < c; ch++) {\n");
    if (nchw)
        sb_printf(s, "            const %s *src = in + ((size_t)b * c + ch) * plane;\n", ty);
    if (kind != 1)
        sb_append(s, "            double sum = 0;\n");
    if (kind != 0)
        sb_printf(s, "            %s best = %s;\n", ty, min_value(dt));
    sb_append(s, "            for (size_t i = 0; i < plane; i++) {\n");
    if (nchw)
        sb_printf(s, "                %s v = src[i];\n", ty);
    else
        sb_printf(s, "                %s v = in[((size_t)b * plane + i) * c + ch];\n", ty);
    if (kind != 1)
        sb_append(s, "                sum += v;\n");
    if (kind != 0)
        sb_append(s, "                if (v > best)\n                    best = v;\n");
    sb_append(s, "            }\n");
    if (kind == 0)
        sb_printf(s, "            out[b * c + ch] = (%s)(sum / plane);\n", ty);
    else if (kind == 1)
        sb_append(s, "            out[b * c + ch] = best;\n");
    else
        sb_printf(s, "            out[b * 2 * c + ch] = (%s)(sum / plane);\n"
                     "            out[b * 2 * c + c + ch] = best;\n", ty);
    sb_append(s, "        }\n    }\n}\n");
    emit_cuda_global(p, EN[kind], kind, nchw, dt);
    return gen_end(p);
}

/* Adaptive pooling (PyTorch's bins): output (oy, ox) covers rows
 * [floor(oy h / oh), ceil((oy + 1) h / oh)) and likewise for columns. */
static int gen_adaptive(GenCtx *g, int is_max)
{
    GenProgram *p = gen_begin(g, is_max ? "adaptive-max-nchw-f32" : "adaptive-avg-nchw-f32",
                              is_max ? "adaptive_max_pool2d" : "adaptive_avg_pool2d");
    gen_describe(p, "adaptive 2D %s pooling of an NCHW f32 tensor to oh x ow", is_max ? "max" : "average");
    gen_arg(p, "in", "f32", "in", "n,c,h,w");
    gen_arg(p, "out", "f32", "out", "n,c,oh,ow");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    gen_arg(p, "oh", "i32", "param", NULL);
    gen_arg(p, "ow", "i32", "param", NULL);
    gen_config(p, "small", "n=2,c=8,h=32,w=40,oh=7,ow=7");
    gen_config(p, "edge", "n=1,c=1,h=1,w=1,oh=1,ow=1");
    gen_config(p, "edge-up", "n=1,c=2,h=3,w=5,oh=7,ow=7");
    gen_config(p, "edge-prime", "n=1,c=3,h=13,w=17,oh=5,ow=3");
    gen_config(p, "large", "n=64,c=256,h=56,w=56,oh=7,ow=7");
    gen_cost(p, "n*c*h*w", "4*n*c*h*w+4*n*c*oh*ow");
    StrBuf *s = gen_src(p);
    sb_printf(s, "/* Adaptive 2D %s pooling of an NCHW float tensor to an oh x ow output: output\n"
                 " * (oy, ox) covers rows [floor(oy h / oh), ceil((oy + 1) h / oh)) and the\n"
                 " * corresponding columns, and is their %s. */\n",
              is_max ? "max" : "average", is_max ? "maximum" : "mean");
    if (is_max)
        sb_append(s, "#include <float.h>\n");
    sb_append(s, "#include <stddef.h>\n\n");
    sb_printf(s, "void %s(const float *in, float *out, int n, int c, int h, int w, int oh, int ow)\n{\n",
              is_max ? "adaptive_max_pool2d" : "adaptive_avg_pool2d");
    sb_append(s, "    for (int plane = 0; plane < n * c; plane++) {\n"
                 "        const float *src = in + (size_t)plane * h * w;\n"
                 "        float *dst = out + (size_t)plane * oh * ow;\n"
                 "        for (int oy = 0; oy < oh; oy++) {\n"
                 "            int y0 = oy * h / oh, y1 = ((oy + 1) * h + oh - 1) / oh;\n"
                 "            for (int ox = 0; ox < ow; ox++) {\n"
                 "                int x0 = ox * w / ow, x1 = ((ox + 1) * w + ow - 1) / ow;\n");
    if (is_max)
        sb_append(s, "                float best = -FLT_MAX;\n");
    else
        sb_append(s, "                float sum = 0;\n");
    sb_append(s, "                for (int y = y0; y < y1; y++)\n                    for (int x = x0; x < x1; x++)\n");
    if (is_max)
        sb_append(s, "                        if (src[y * w + x] > best)\n"
                     "                            best = src[y * w + x];\n"
                     "                dst[oy * ow + ox] = best;\n");
    else
        sb_append(s, "                        sum += src[y * w + x];\n"
                     "                dst[oy * ow + ox] = sum / ((y1 - y0) * (x1 - x0));\n");
    sb_append(s, "            }\n        }\n    }\n}\n");
    emit_cuda_adaptive(p, is_max ? "adaptive_max_pool2d" : "adaptive_avg_pool2d", is_max);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int i = 0; i < N_SPECS2D; i++)
        if (gen_pool2d(g, &SPECS2D[i]) != 0)
            return -1;
    if (gen_pool1d(g, MAX, 3, 1, 1, F32) || gen_pool1d(g, MAX, 2, 2, 0, F64) || gen_pool1d(g, AVG_EXCL, 4, 4, 0, F32) ||
        gen_pool1d(g, AVG_EXCL, 3, 2, 1, F64) || gen_pool1d(g, AVG_INCL, 5, 1, 2, F32) || gen_pool1d(g, L2, 5, 2, 2, F32))
        return -1;
    if (gen_global(g, 0, NCHW, F32) || gen_global(g, 0, NCHW, F64) || gen_global(g, 0, NHWC, F32) ||
        gen_global(g, 0, NHWC, F64) || gen_global(g, 1, NCHW, F64) || gen_global(g, 1, NHWC, F32) ||
        gen_global(g, 2, NCHW, F32))
        return -1;
    if (gen_adaptive(g, 0) || gen_adaptive(g, 1))
        return -1;
    return 0;
}

const Family family_pooling = {"pooling", "ml", 54, generate};
