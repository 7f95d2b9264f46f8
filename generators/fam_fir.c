/* fir — finite impulse response filtering (no recursion): causal, valid,
 * full and centred convolutions with the taps as an input (zero, clamped,
 * reflected and periodic borders), filters with baked-in taps (windowed-sinc
 * low-pass of 7..63 taps, Savitzky-Golay, Gaussian, binomial, derivative,
 * half-band), decimating, interpolating and rational resampling FIRs,
 * moving averages and RMS over windows, multichannel, interleaved-stereo,
 * filter-bank, complex and batched FIRs, fixed-point Q15 filters, cascades,
 * dilated taps, linear-phase (symmetric) filters, comb filters and fused
 * post-processing (rectification, squaring, gain + clamp), over f32, f64,
 * i16, i32 and u8. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"

#define NBIG "$(67108864|33554432)"
#define TCFG "small:n=20000,t=31|edge:n=1,t=1|edge-long-taps:n=5,t=9|edge-prime:n=131,t=7|large:n=" NBIG ",t=64"
#define NCFG "small:n=20000|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=" NBIG
#define FTOL 1e-4, 1e-4, 0, 0

/* The pairs: one thread per output sample (64-bit sample indices: the
 * large signals reach 2^28 samples), each summing its taps in the C
 * program's order and precision; baked taps live in constant memory. */

/* Windowed-sinc low-pass taps (Hamming window), normalised to unit DC gain. */
static void lowpass_taps(double *h, int t, double fc)
{
    double sum = 0;
    for (int k = 0; k < t; k++) {
        double m = k - (t - 1) / 2.0;
        double s = m == 0 ? 2 * fc : sin(2 * M_PI * fc * m) / (M_PI * m);
        h[k] = s * (0.54 - 0.46 * cos(2 * M_PI * k / (t - 1)));
        sum += h[k];
    }
    for (int k = 0; k < t; k++) {
        h[k] /= sum;
        if (fabs(h[k]) < 1e-12)
            h[k] = 0; /* the window's zeros, not rounding noise */
    }
}

/* "<qual> T taps[N] = {...};" with $T and $f left for the spec expansion;
 * qual is "static const" in C, "__constant__" in CUDA. */
static void print_taps(StrBuf *s, const char *qual, const char *name, const double *h, int t)
{
    sb_printf(s, "%s $T %s[%d] = {", qual, name, t);
    for (int k = 0; k < t; k++) {
        char num[32];
        snprintf(num, sizeof num, "%.9g", h[k]);
        if (!strpbrk(num, ".e"))
            strcat(num, ".0"); /* a floating literal, so that the f suffix is valid */
        sb_printf(s, "%s%s$f%s", k % 5 ? " " : "\n    ", num, k + 1 < t ? "," : "");
    }
    sb_append(s, "\n};\n\n");
}

/* Causal or centred FIR with baked taps. */
static int emit_baked(GenCtx *g, const char *tag, const char *dtypes, const char *what, const double *h, int t,
                      int centred)
{
    static char name[48], desc[128], cost[32], src[4096];
    StrBuf s = STRBUF_INIT;
    snprintf(name, sizeof name, "%s", tag);
    snprintf(desc, sizeof desc, "%s, %d taps baked in, %s ($D)", what, t, centred ? "centred, zero border" : "causal");
    snprintf(cost, sizeof cost, "%d*n", 2 * t);
    sb_printf(&s, "/* %s: %d fixed taps. */\n", what, t);
    print_taps(&s, "static const", "taps", h, t);
    if (centred)
        sb_printf(&s,
                  "/* y[i] = sum_k taps[k] * x[i + k - %d]: the filter is centred on i and\n"
                  " * samples outside [0, n) count as zero. */\n"
                  "void fir(const $T *x, $T *y, int n)\n{\n"
                  "    for (int i = 0; i < n; i++) {\n"
                  "        $T acc = 0;\n"
                  "        for (int k = 0; k < %d; k++) {\n"
                  "            int j = i + k - %d;\n"
                  "            if (j >= 0 && j < n)\n"
                  "                acc += taps[k] * x[j];\n"
                  "        }\n"
                  "        y[i] = acc;\n"
                  "    }\n}\n",
                  t / 2, t, t / 2);
    else
        sb_printf(&s,
                  "/* Causal filter: y[i] = sum_k taps[k] * x[i - k], with x[j] = 0 for j < 0. */\n"
                  "void fir(const $T *x, $T *y, int n)\n{\n"
                  "    for (int i = 0; i < n; i++) {\n"
                  "        $T acc = 0;\n"
                  "        for (int k = 0; k < %d && k <= i; k++)\n"
                  "            acc += taps[k] * x[i - k];\n"
                  "        y[i] = acc;\n"
                  "    }\n}\n",
                  t);
    snprintf(src, sizeof src, "%s", sb_str(&s));
    sb_release(&s);
    /* the pair: the taps in constant memory, one thread per output sample */
    static char cuda[4096];
    sb_printf(&s, "/* %s: %d fixed taps. */\n", what, t);
    print_taps(&s, "__constant__", "taps", h, t);
    sb_printf(&s,
              "/* The %s filter: one thread per output sample. */\n"
              "extern \"C\" __global__ void fir(const $T *x, $T *y, int n)\n{\n"
              "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= n)\n        return;\n"
              "    $T acc = 0;\n",
              centred ? "centred" : "causal");
    if (centred)
        sb_printf(&s,
                  "    for (int k = 0; k < %d; k++) {\n"
                  "        const long long j = i + k - %d;\n"
                  "        if (j >= 0 && j < n)\n"
                  "            acc += taps[k] * x[j];\n"
                  "    }\n",
                  t, t / 2);
    else
        sb_printf(&s, "    for (int k = 0; k < %d && k <= i; k++)\n        acc += taps[k] * x[i - k];\n", t);
    sb_append(&s, "    y[i] = acc;\n}\n");
    snprintf(cuda, sizeof cuda, "%s", sb_str(&s));
    sb_release(&s);
    Spec sp = {dtypes, name, "fir", desc, "x:in:n;y:out:n;n:param", NULL, NCFG, cost, "$S*2*n", FTOL, src,
               cuda, "fir|(n+255)/256|256||x,y,n", NULL, "block=256;mapping=one-output-per-thread,taps-in-constant"};
    return spec_emit_all(g, &sp, 1);
}

static const Spec SPECS[] = {
    {"f32 f64", "causal", "fir", "causal FIR, taps as input ($D)", "x:in:n;h:in:t;y:out:n;n:param;t:param", NULL,
     TCFG, "2*n*t", "$S*(2*n+t)", FTOL,
     "/* Causal FIR filter: y[i] = sum_{k < t} h[k] * x[i - k], with x[j] = 0\n"
     " * before the start of the signal. */\n"
     "void fir(const $T *x, const $T *h, $T *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T acc = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Causal FIR: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir(const $T *x, const $T *h, $T *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    $T acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i32", "causal", "fir_i32", "causal FIR on int32 samples and taps", "x:in:n;h:in:t;y:out:n;n:param;t:param",
     "x:i:-30000:30000;h:i:-1000:1000", TCFG, "2*n*t", "4*(2*n+t)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Causal integer FIR: y[i] = sum_{k < t} h[k] * x[i - k] (x[j] = 0 for\n"
     " * j < 0).  |x| < 30000, |h| < 1000 and t <= 64 keep the sums in range. */\n"
     "void fir_i32(const int32_t *x, const int32_t *h, int32_t *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t acc = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Causal integer FIR: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_i32(const int *x, const int *h, int *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    int acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_i32|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i32", "causal-wide", "fir_i64", "causal FIR on int32 samples with int64 results",
     "x:in:n;h:in:t;y:out:n:i64;n:param;t:param", "x:i:-2000000000:2000000000;h:i:-65536:65536", TCFG, "2*n*t",
     "4*(n+t)+8*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Causal FIR over full-range 32-bit samples, accumulated exactly in 64 bits:\n"
     " * y[i] = sum_{k < t} h[k] * x[i - k]. */\n"
     "void fir_i64(const int32_t *x, const int32_t *h, int64_t *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int64_t acc = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += (int64_t)h[k] * x[i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Causal FIR with exact 64-bit sums: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_i64(const int *x, const int *h, long long *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    long long acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += (long long)h[k] * x[i - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_i64|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "valid-correlate", "correlate_valid", "valid-mode correlation y[i] = sum_k h[k]*x[i+k] ($D)",
     "x:in:n;h:in:t;y:out:n-t+1;n:param;t:param", NULL,
     "small:n=20000,t=31|edge:n=1,t=1|edge-equal:n=9,t=9|edge-prime:n=131,t=7|large:n=" NBIG ",t=64",
     "2*(n-t+1)*t", "$S*(2*n+t)", FTOL,
     "/* Sliding dot product (a matched filter) in 'valid' mode: only positions\n"
     " * where h fits entirely inside x, y[i] = sum_k h[k] * x[i + k] for\n"
     " * i = 0..n-t (requires t <= n). */\n"
     "void correlate_valid(const $T *x, const $T *h, $T *y, int n, int t)\n{\n"
     "    for (int i = 0; i + t <= n; i++) {\n"
     "        $T acc = 0;\n"
     "        for (int k = 0; k < t; k++)\n"
     "            acc += h[k] * x[i + k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Valid-mode correlation: one thread per output position. */\n"
     "extern \"C\" __global__ void correlate_valid(const $T *x, const $T *h, $T *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n - t + 1)\n"
     "        return;\n"
     "    $T acc = 0;\n"
     "    for (int k = 0; k < t; k++)\n"
     "        acc += h[k] * x[i + k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "correlate_valid|(max(n-t+1,1)+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "full-convolution", "convolve_full", "full convolution, length n+t-1 ($D)",
     "x:in:n;h:in:t;y:out:n+t-1;n:param;t:param", NULL, TCFG, "2*n*t", "$S*(2*n+2*t)", FTOL,
     "/* Full linear convolution y = h * x of length n + t - 1:\n"
     " * y[i] = sum_k h[k] * x[i - k] over the k with 0 <= i - k < n. */\n"
     "void convolve_full(const $T *x, const $T *h, $T *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n + t - 1; i++) {\n"
     "        int k0 = i - n + 1 > 0 ? i - n + 1 : 0;\n"
     "        int k1 = i < t - 1 ? i : t - 1;\n"
     "        $T acc = 0;\n"
     "        for (int k = k0; k <= k1; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Full convolution: one thread per output sample. */\n"
     "extern \"C\" __global__ void convolve_full(const $T *x, const $T *h, $T *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n + t - 1)\n"
     "        return;\n"
     "    const int k0 = i - n + 1 > 0 ? (int)(i - n + 1) : 0;\n"
     "    const int k1 = i < t - 1 ? (int)i : t - 1;\n"
     "    $T acc = 0;\n"
     "    for (int k = k0; k <= k1; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "convolve_full|(n+t-1+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "same-zero", "fir_same", "centred FIR, zero border, output length n ($D)",
     "x:in:n;h:in:t;y:out:n;n:param;t:param", NULL, TCFG, "2*n*t", "$S*(2*n+t)", FTOL,
     "/* Centred ('same') filtering: y[i] = sum_k h[k] * x[i + k - t/2], samples\n"
     " * outside the signal taken as zero. */\n"
     "void fir_same(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    int half = t / 2;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t; k++) {\n"
     "            int j = i + k - half;\n"
     "            if (j >= 0 && j < n)\n"
     "                acc += h[k] * x[j];\n"
     "        }\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Centred FIR, zero border: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_same(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int half = t / 2;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t; k++) {\n"
     "        const long long j = i + k - half;\n"
     "        if (j >= 0 && j < n)\n"
     "            acc += h[k] * x[j];\n"
     "    }\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_same|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "same-clamp", "fir_clamp", "centred FIR, clamped (edge-replicating) border ($D)",
     "x:in:n;h:in:t;y:out:n;n:param;t:param", NULL, TCFG, "2*n*t", "$S*(2*n+t)", FTOL,
     "static int clampi(int j, int n)\n{\n"
     "    return j < 0 ? 0 : (j >= n ? n - 1 : j);\n}\n\n"
     "/* Centred filtering with the edge samples repeated beyond the ends:\n"
     " * y[i] = sum_k h[k] * x[clamp(i + k - t/2)]. */\n"
     "void fir_clamp(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t; k++)\n"
     "            acc += h[k] * x[clampi(i + k - t / 2, n)];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "__device__ int clampi(int j, int n)\n"
     "{\n"
     "    return j < 0 ? 0 : (j >= n ? n - 1 : j);\n"
     "}\n"
     "\n"
     "/* Centred FIR, clamped border: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_clamp(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t; k++)\n"
     "        acc += h[k] * x[clampi((int)i + k - t / 2, n)];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_clamp|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "same-reflect", "fir_reflect", "centred FIR, mirrored border ($D)", "x:in:n;h:in:t;y:out:n;n:param;t:param",
     NULL, TCFG, "2*n*t", "$S*(2*n+t)", FTOL,
     "/* Index of sample j of the signal mirrored about its end samples\n"
     " * (... x2 x1 | x0 x1 x2 ... x[n-1] | x[n-2] ...), for any j. */\n"
     "static int reflect(int j, int n)\n{\n"
     "    if (n == 1)\n"
     "        return 0;\n"
     "    int period = 2 * (n - 1);\n"
     "    j %= period;\n"
     "    if (j < 0)\n"
     "        j += period;\n"
     "    return j < n ? j : period - j;\n}\n\n"
     "/* Centred filtering with a mirrored (reflect) border:\n"
     " * y[i] = sum_k h[k] * x[reflect(i + k - t/2)]. */\n"
     "void fir_reflect(const double *x, const double *h, double *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int k = 0; k < t; k++)\n"
     "            acc += h[k] * x[reflect(i + k - t / 2, n)];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Index of sample j of the signal mirrored about its end samples. */\n"
     "__device__ int reflect(int j, int n)\n"
     "{\n"
     "    if (n == 1)\n"
     "        return 0;\n"
     "    const int period = 2 * (n - 1);\n"
     "    j %= period;\n"
     "    if (j < 0)\n"
     "        j += period;\n"
     "    return j < n ? j : period - j;\n"
     "}\n"
     "\n"
     "/* Centred FIR, mirrored border: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_reflect(const double *x, const double *h, double *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int k = 0; k < t; k++)\n"
     "        acc += h[k] * x[reflect((int)i + k - t / 2, n)];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_reflect|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "circular", "fir_circular", "circular (periodic) convolution ($D)", "x:in:n;h:in:t;y:out:n;n:param;t:param",
     NULL, TCFG, "2*n*t", "$S*(2*n+t)", FTOL,
     "/* Circular convolution: the signal is periodic with period n, so\n"
     " * y[i] = sum_k h[k] * x[(i - k) mod n]. */\n"
     "void fir_circular(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t; k++) {\n"
     "            int j = (i - k) % n;\n"
     "            acc += h[k] * x[j < 0 ? j + n : j];\n"
     "        }\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Circular convolution: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_circular(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t; k++) {\n"
     "        const int j = ((int)i - k) % n;\n"
     "        acc += h[k] * x[j < 0 ? j + n : j];\n"
     "    }\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_circular|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "decimate2", "fir_decimate2", "decimate by 2 with an anti-aliasing FIR ($D)",
     "x:in:n;h:in:t;y:out:(n+1)/2;n:param;t:param", NULL, TCFG, "n*t", "$S*(n+t+n/2)", FTOL,
     "/* Decimation by 2: the causal FIR output is kept at even positions only,\n"
     " * y[i] = sum_k h[k] * x[2i - k] (x[j] = 0 for j < 0), i < ceil(n / 2). */\n"
     "void fir_decimate2(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; 2 * i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k <= 2 * i; k++)\n"
     "            acc += h[k] * x[2 * i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Decimation by 2: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_decimate2(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= (n + 1) / 2)\n"
     "        return;\n"
     "    const long long c = 2 * i;\n"
     "    float acc = 0;\n"
     "    for (int k = 0; k < t && k <= c; k++)\n"
     "        acc += h[k] * x[c - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_decimate2|((n+1)/2+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "decimate3", "fir_decimate3", "decimate by 3 with an anti-aliasing FIR ($D)",
     "x:in:n;h:in:t;y:out:(n+2)/3;n:param;t:param", NULL, TCFG, "2*n*t/3", "$S*(n+t+n/3)", FTOL,
     "/* Decimation by 3: y[i] = sum_k h[k] * x[3i - k] for i < ceil(n / 3),\n"
     " * samples before the start taken as zero. */\n"
     "void fir_decimate3(const double *x, const double *h, double *y, int n, int t)\n{\n"
     "    int m = (n + 2) / 3;\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        double acc = 0.0;\n"
     "        for (int k = 0; k < t && k <= 3 * i; k++)\n"
     "            acc += h[k] * x[3 * i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Decimation by 3: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_decimate3(const double *x, const double *h, double *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= (n + 2) / 3)\n"
     "        return;\n"
     "    const long long c = 3 * i;\n"
     "    double acc = 0;\n"
     "    for (int k = 0; k < t && k <= c; k++)\n"
     "        acc += h[k] * x[c - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_decimate3|((n+2)/3+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "decimate-factor", "fir_decimate", "decimate by a factor d given as a parameter ($D)",
     "x:in:n;h:in:t;y:out:(n+d-1)/d;n:param;t:param;d:param", NULL,
     "small:n=20000,t=31,d=4|edge:n=1,t=1,d=1|edge-long-taps:n=5,t=9,d=2|edge-prime:n=131,t=7,d=5|"
     "large:n=67108864,t=64,d=4",
     "2*n*t/d", "$S*(n+t+n/d)", FTOL,
     "/* Decimation by d: y[i] = sum_k h[k] * x[d i - k], i < ceil(n / d), with\n"
     " * x[j] = 0 for j < 0. */\n"
     "void fir_decimate(const float *x, const float *h, float *y, int n, int t, int d)\n{\n"
     "    int m = (n + d - 1) / d;\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        int c = d * i;\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k <= c; k++)\n"
     "            acc += h[k] * x[c - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Decimation by d: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_decimate(const float *x, const float *h, float *y, int n, int t, int d)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= (n + d - 1) / d)\n"
     "        return;\n"
     "    const long long c = (long long)d * i;\n"
     "    float acc = 0;\n"
     "    for (int k = 0; k < t && k <= c; k++)\n"
     "        acc += h[k] * x[c - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_decimate|((n+d-1)/d+255)/256|256||x,h,y,n,t,d", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i32", "decimate2", "fir_decimate2_i32", "decimate by 2, int32 samples and taps",
     "x:in:n;h:in:t;y:out:(n+1)/2;n:param;t:param", "x:i:-30000:30000;h:i:-1000:1000", TCFG, "n*t",
     "4*(n+t+n/2)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Integer decimation by 2: y[i] = sum_k h[k] * x[2i - k] (x[j] = 0 for\n"
     " * j < 0), exact in 32 bits for |x| < 30000, |h| < 1000, t <= 64. */\n"
     "void fir_decimate2_i32(const int32_t *x, const int32_t *h, int32_t *y, int n, int t)\n{\n"
     "    for (int i = 0; 2 * i < n; i++) {\n"
     "        int32_t acc = 0;\n"
     "        for (int k = 0; k < t && k <= 2 * i; k++)\n"
     "            acc += h[k] * x[2 * i - k];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Integer decimation by 2: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_decimate2_i32(const int *x, const int *h, int *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= (n + 1) / 2)\n"
     "        return;\n"
     "    const long long c = 2 * i;\n"
     "    int acc = 0;\n"
     "    for (int k = 0; k < t && k <= c; k++)\n"
     "        acc += h[k] * x[c - k];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_decimate2_i32|((n+1)/2+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "interpolate2", "fir_interpolate2", "interpolate by 2: zero-stuff then FIR ($D)",
     "x:in:n;h:in:t;y:out:2*n;n:param;t:param", NULL, TCFG, "2*n*t", "$S*(3*n+t)", FTOL,
     "/* Interpolation by 2: the signal upsampled with a zero after every sample,\n"
     " * u[2j] = x[j], u[2j + 1] = 0, is filtered causally: y[m] = sum_k h[k] *\n"
     " * u[m - k].  Only the taps that meet a nonzero u are visited. */\n"
     "void fir_interpolate2(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int m = 0; m < 2 * n; m++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = m % 2; k < t && k <= m; k += 2)\n"
     "            acc += h[k] * x[(m - k) / 2];\n"
     "        y[m] = acc;\n"
     "    }\n}\n",
     "/* Interpolation by 2: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_interpolate2(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long m = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= 2LL * n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = (int)(m % 2); k < t && k <= m; k += 2)\n"
     "        acc += h[k] * x[(m - k) / 2];\n"
     "    y[m] = acc;\n"
     "}\n",
     "fir_interpolate2|(2*n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "interpolate3", "fir_interpolate3", "interpolate by 3 with gain 3 ($D)",
     "x:in:n;h:in:t;y:out:3*n;n:param;t:param", NULL, "small:n=20000,t=31|edge:n=1,t=1|edge-long-taps:n=5,t=9|"
     "edge-prime:n=131,t=7|large:n=16777216,t=64", "2*n*t", "$S*(4*n+t)", FTOL,
     "/* Interpolation by 3: upsample with two zeros after every sample, filter\n"
     " * causally and scale by 3 to keep the signal level:\n"
     " * y[m] = 3 * sum over k = m mod 3, m mod 3 + 3, ... of h[k] * x[(m - k) / 3]. */\n"
     "void fir_interpolate3(const double *x, const double *h, double *y, int n, int t)\n{\n"
     "    for (int m = 0; m < 3 * n; m++) {\n"
     "        double acc = 0.0;\n"
     "        for (int k = m % 3; k < t && k <= m; k += 3)\n"
     "            acc += h[k] * x[(m - k) / 3];\n"
     "        y[m] = 3.0 * acc;\n"
     "    }\n}\n",
     "/* Interpolation by 3: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_interpolate3(const double *x, const double *h, double *y, int n, int t)\n"
     "{\n"
     "    const long long m = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= 3LL * n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int k = (int)(m % 3); k < t && k <= m; k += 3)\n"
     "        acc += h[k] * x[(m - k) / 3];\n"
     "    y[m] = 3.0 * acc;\n"
     "}\n",
     "fir_interpolate3|(3*n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "polyphase-interpolate", "fir_polyphase", "interpolate by L with a polyphase filter bank ($D)",
     "x:in:n;h:in:l,p;y:out:n*l;n:param;l:param;p:param", NULL,
     "small:n=20000,l=4,p=8|edge:n=1,l=1,p=1|edge-prime:n=131,l=3,p=5|large:n=16777216,l=4,p=16", "2*n*l*p",
     "$S*(n+l*p+n*l)", FTOL,
     "/* Polyphase interpolation by l: phase r of the filter bank (row r of h,\n"
     " * p taps) produces output sample i * l + r from the p most recent inputs:\n"
     " * y[i l + r] = sum_{k < p} h[r][k] * x[i - k], x[j] = 0 for j < 0. */\n"
     "void fir_polyphase(const float *x, const float *h, float *y, int n, int l, int p)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        for (int r = 0; r < l; r++) {\n"
     "            float acc = 0.0f;\n"
     "            for (int k = 0; k < p && k <= i; k++)\n"
     "                acc += h[r * p + k] * x[i - k];\n"
     "            y[i * l + r] = acc;\n"
     "        }\n    }\n}\n",
     "/* Polyphase interpolation by l: one thread per output sample o = i * l + r. */\n"
     "extern \"C\" __global__ void fir_polyphase(const float *x, const float *h, float *y, int n, int l, int p)\n"
     "{\n"
     "    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (o >= (long long)n * l)\n"
     "        return;\n"
     "    const long long i = o / l;\n"
     "    const int r = (int)(o % l);\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < p && k <= i; k++)\n"
     "        acc += h[r * p + k] * x[i - k];\n"
     "    y[o] = acc;\n"
     "}\n",
     "fir_polyphase|(n*l+255)/256|256||x,h,y,n,l,p", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "resample-3-2", "fir_resample32", "rational resampling by 3/2 ($D)",
     "x:in:n;h:in:t;y:out:(3*n+1)/2;n:param;t:param", NULL, TCFG, "n*t", "$S*(n+t+3*n/2)", FTOL,
     "/* Rational resampling by 3/2: upsample by 3 (u[3j] = x[j], zeros between),\n"
     " * filter with h, keep every second sample: y[i] = sum_k h[k] * u[2i - k]\n"
     " * for i < ceil(3n / 2). */\n"
     "void fir_resample32(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    int m = (3 * n + 1) / 2;\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        int c = 2 * i;\n"
     "        float acc = 0.0f;\n"
     "        for (int k = c % 3; k < t && k <= c; k += 3)\n"
     "            acc += h[k] * x[(c - k) / 3];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Rational resampling by 3/2: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_resample32(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= (3LL * n + 1) / 2)\n"
     "        return;\n"
     "    const long long c = 2 * i;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = (int)(c % 3); k < t && k <= c; k += 3)\n"
     "        acc += h[k] * x[(c - k) / 3];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_resample32|((3*n+1)/2+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "moving-average", "moving_average", "causal moving average over w samples ($D)",
     "x:in:n;y:out:n;n:param;w:param", NULL,
     "small:n=20000,w=16|edge:n=1,w=1|edge-long-window:n=5,w=9|edge-prime:n=131,w=7|large:n=67108864,w=32",
     "n*w", "$S*2*n", FTOL,
     "/* Causal moving average over the last w samples; at the start, where fewer\n"
     " * than w samples exist, the average is over those available. */\n"
     "void moving_average(const float *x, float *y, int n, int w)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k0 = i - w + 1 > 0 ? i - w + 1 : 0;\n"
     "        float s = 0.0f;\n"
     "        for (int k = k0; k <= i; k++)\n"
     "            s += x[k];\n"
     "        y[i] = s / (i - k0 + 1);\n"
     "    }\n}\n",
     "/* Causal moving average: one thread per output, over its own window. */\n"
     "extern \"C\" __global__ void moving_average(const float *x, float *y, int n, int w)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const long long k0 = i - w + 1 > 0 ? i - w + 1 : 0;\n"
     "    float s = 0.0f;\n"
     "    for (long long k = k0; k <= i; k++)\n"
     "        s += x[k];\n"
     "    y[i] = s / (int)(i - k0 + 1);\n"
     "}\n",
     "moving_average|(n+255)/256|256||x,y,n,w", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "moving-average-centred", "moving_average_centred", "centred moving average over 2r+1 samples ($D)",
     "x:in:n;y:out:n;n:param;r:param", NULL,
     "small:n=20000,r=8|edge:n=1,r=0|edge-wide:n=5,r=9|edge-prime:n=131,r=3|large:n=33554432,r=16", "n*(2*r+1)",
     "$S*2*n", 0, 0, 0, 0,
     "/* Centred moving average: y[i] is the mean of x[i - r .. i + r] clipped to\n"
     " * the signal (so windows near the ends are shorter). */\n"
     "void moving_average_centred(const double *x, double *y, int n, int r)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int lo = i - r > 0 ? i - r : 0;\n"
     "        int hi = i + r < n - 1 ? i + r : n - 1;\n"
     "        double s = 0.0;\n"
     "        for (int k = lo; k <= hi; k++)\n"
     "            s += x[k];\n"
     "        y[i] = s / (hi - lo + 1);\n"
     "    }\n}\n",
     "/* Centred moving average: one thread per output, over its own window. */\n"
     "extern \"C\" __global__ void moving_average_centred(const double *x, double *y, int n, int r)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const long long lo = i - r > 0 ? i - r : 0;\n"
     "    const long long hi = i + r < n - 1 ? i + r : n - 1;\n"
     "    double s = 0.0;\n"
     "    for (long long k = lo; k <= hi; k++)\n"
     "        s += x[k];\n"
     "    y[i] = s / (int)(hi - lo + 1);\n"
     "}\n",
     "moving_average_centred|(n+255)/256|256||x,y,n,r", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "running-sum-average", "running_mean", "moving average by a running sum ($D)",
     "x:in:n;y:out:n;n:param;w:param", NULL,
     "small:n=20000,w=100|edge:n=1,w=1|edge-long-window:n=5,w=9|edge-prime:n=131,w=7|large:n=33554432,w=1000",
     "3*n", "$S*2*n", 1e-9, 1e-7, 1e-9, 1e-7,
     "/* Causal moving average of width w computed with a running sum: add the\n"
     " * newest sample, drop the one leaving the window.  The first w - 1\n"
     " * outputs average the samples seen so far. */\n"
     "void running_mean(const double *x, double *y, int n, int w)\n{\n"
     "    double s = 0.0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        s += x[i];\n"
     "        if (i >= w)\n"
     "            s -= x[i - w];\n"
     "        y[i] = s / (i < w ? i + 1 : w);\n"
     "    }\n}\n",
     "/* Causal moving average: one thread per output sums its own window (the C\n"
     " * program's running sum is a sequential formulation of the same sums). */\n"
     "extern \"C\" __global__ void running_mean(const double *x, double *y, int n, int w)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const long long k0 = i - w + 1 > 0 ? i - w + 1 : 0;\n"
     "    double s = 0.0;\n"
     "    for (long long k = k0; k <= i; k++)\n"
     "        s += x[k];\n"
     "    y[i] = s / (i < w ? (int)i + 1 : w);\n"
     "}\n",
     "running_mean|(n+255)/256|256||x,y,n,w", NULL,
     "block=256;mapping=one-output-per-thread,window-sum-per-thread"},
    {"i32", "box5", "box5_i32", "integer 5-sample box average with clamped border",
     "x:in:n;y:out:n;n:param", "x:i:-1000000:1000000", NCFG, "5*n", "8*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "static int32_t at(const int32_t *x, int n, int j)\n{\n"
     "    return x[j < 0 ? 0 : (j >= n ? n - 1 : j)];\n}\n\n"
     "/* Integer 5-tap box filter: y[i] = (x[i-2] + ... + x[i+2]) / 5 (C division,\n"
     " * truncating toward zero), the end samples repeated past the borders. */\n"
     "void box5_i32(const int32_t *x, int32_t *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        y[i] = (at(x, n, i - 2) + at(x, n, i - 1) + x[i] + at(x, n, i + 1) + at(x, n, i + 2)) / 5;\n}\n",
     "__device__ int at(const int *x, int n, long long j)\n"
     "{\n"
     "    return x[j < 0 ? 0 : (j >= n ? n - 1 : j)];\n"
     "}\n"
     "\n"
     "/* Integer 5-tap box filter, clamped border: one thread per output sample. */\n"
     "extern \"C\" __global__ void box5_i32(const int *x, int *y, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    y[i] = (at(x, n, i - 2) + at(x, n, i - 1) + x[i] + at(x, n, i + 1) + at(x, n, i + 2)) / 5;\n"
     "}\n",
     "box5_i32|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"u8", "box3-rounded", "box3_u8", "rounded 3-sample average of 8-bit samples",
     "x:in:n;y:out:n;n:param", NULL, "small:n=20000|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=268435456",
     "3*n", "2*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Smooths a row of 8-bit pixels: y[i] = round((x[i-1] + x[i] + x[i+1]) / 3)\n"
     " * with the end pixels repeated past the borders. */\n"
     "void box3_u8(const uint8_t *x, uint8_t *y, int n)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int left = x[i > 0 ? i - 1 : 0];\n"
     "        int right = x[i < n - 1 ? i + 1 : n - 1];\n"
     "        y[i] = (uint8_t)((left + x[i] + right + 1) / 3);\n"
     "    }\n}\n",
     "/* Rounded 3-sample average of 8-bit samples: one thread per output. */\n"
     "extern \"C\" __global__ void box3_u8(const unsigned char *x, unsigned char *y, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int left = x[i > 0 ? i - 1 : 0];\n"
     "    const int right = x[i < n - 1 ? i + 1 : n - 1];\n"
     "    y[i] = (unsigned char)((left + x[i] + right + 1) / 3);\n"
     "}\n",
     "box3_u8|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i32", "binomial5", "binomial5", "binomial [1 4 6 4 1]/16 filter on nonnegative int32, rounded",
     "x:in:n;y:out:n;n:param", "x:i:0:1048576", NCFG, "9*n", "8*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Binomial smoothing with taps 1 4 6 4 1 and a rounded division by 16 (a\n"
     " * shift, the samples being nonnegative); zero outside the signal. */\n"
     "void binomial5(const int32_t *x, int32_t *y, int n)\n{\n"
     "    static const int32_t w[5] = {1, 4, 6, 4, 1};\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t acc = 8;\n"
     "        for (int k = -2; k <= 2; k++)\n"
     "            if (i + k >= 0 && i + k < n)\n"
     "                acc += w[k + 2] * x[i + k];\n"
     "        y[i] = acc >> 4;\n"
     "    }\n}\n",
     "__constant__ int binomial_taps[5] = {1, 4, 6, 4, 1};\n"
     "\n"
     "/* Binomial [1 4 6 4 1] / 16 smoothing, rounded: one thread per output. */\n"
     "extern \"C\" __global__ void binomial5(const int *x, int *y, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    int acc = 8;\n"
     "    for (int k = -2; k <= 2; k++)\n"
     "        if (i + k >= 0 && i + k < n)\n"
     "            acc += binomial_taps[k + 2] * x[i + k];\n"
     "    y[i] = acc >> 4;\n"
     "}\n",
     "binomial5|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "rms-window", "moving_rms", "moving RMS over w samples ($D)", "x:in:n;y:out:n;n:param;w:param", NULL,
     "small:n=20000,w=16|edge:n=1,w=1|edge-long-window:n=5,w=9|edge-prime:n=131,w=7|large:n=67108864,w=32",
     "2*n*w", "$S*2*n", FTOL,
     "#include <math.h>\n\n"
     "/* Moving root-mean-square level over the last w samples (fewer at the\n"
     " * start): y[i] = sqrt(mean of x[k]^2 for k in the window). */\n"
     "void moving_rms(const float *x, float *y, int n, int w)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k0 = i - w + 1 > 0 ? i - w + 1 : 0;\n"
     "        float s = 0.0f;\n"
     "        for (int k = k0; k <= i; k++)\n"
     "            s += x[k] * x[k];\n"
     "        y[i] = sqrtf(s / (i - k0 + 1));\n"
     "    }\n}\n",
     "/* Moving RMS: one thread per output, over its own window. */\n"
     "extern \"C\" __global__ void moving_rms(const float *x, float *y, int n, int w)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const long long k0 = i - w + 1 > 0 ? i - w + 1 : 0;\n"
     "    float s = 0.0f;\n"
     "    for (long long k = k0; k <= i; k++)\n"
     "        s += x[k] * x[k];\n"
     "    y[i] = sqrtf(s / (int)(i - k0 + 1));\n"
     "}\n",
     "moving_rms|(n+255)/256|256||x,y,n,w", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "multichannel", "fir_multichannel", "per-channel causal FIRs, channel-major signals ($D)",
     "x:in:c,n;h:in:c,t;y:out:c,n;c:param;n:param;t:param", NULL,
     "small:c=8,n=4000,t=31|edge:c=1,n=1,t=1|edge-prime:c=3,n=131,t=7|large:c=64,n=1048576,t=64", "2*c*n*t",
     "$S*(2*c*n+c*t)", FTOL,
     "#include <stddef.h>\n\n"
     "/* c independent channels, each with its own causal FIR: y[ch][i] =\n"
     " * sum_k h[ch][k] * x[ch][i - k]; signals are stored channel after channel. */\n"
     "void fir_multichannel(const float *x, const float *h, float *y, int c, int n, int t)\n{\n"
     "    for (int ch = 0; ch < c; ch++) {\n"
     "        const float *xc = x + (size_t)ch * n, *hc = h + (size_t)ch * t;\n"
     "        float *yc = y + (size_t)ch * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            float acc = 0.0f;\n"
     "            for (int k = 0; k < t && k <= i; k++)\n"
     "                acc += hc[k] * xc[i - k];\n"
     "            yc[i] = acc;\n"
     "        }\n    }\n}\n",
     "/* Per-channel causal FIRs: one thread per output sample of every channel. */\n"
     "extern \"C\" __global__ void fir_multichannel(const float *x, const float *h, float *y, int c, int n, int t)\n"
     "{\n"
     "    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (o >= (long long)c * n)\n"
     "        return;\n"
     "    const long long ch = o / n, i = o % n;\n"
     "    const float *xc = x + ch * n, *hc = h + ch * t;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += hc[k] * xc[i - k];\n"
     "    y[o] = acc;\n"
     "}\n",
     "fir_multichannel|(c*n+255)/256|256||x,h,y,c,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "stereo-interleaved", "fir_stereo", "one causal FIR on interleaved stereo frames ($D)",
     "x:in:n,2;h:in:t;y:out:n,2;n:param;t:param", NULL, TCFG, "4*n*t", "$S*(4*n+t)", FTOL,
     "/* Filters an interleaved stereo signal (frames of left, right) with one\n"
     " * causal FIR applied to both channels: y[i][c] = sum_k h[k] * x[i - k][c]. */\n"
     "void fir_stereo(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float left = 0.0f, right = 0.0f;\n"
     "        for (int k = 0; k < t && k <= i; k++) {\n"
     "            left += h[k] * x[2 * (i - k)];\n"
     "            right += h[k] * x[2 * (i - k) + 1];\n"
     "        }\n"
     "        y[2 * i] = left;\n"
     "        y[2 * i + 1] = right;\n"
     "    }\n}\n",
     "/* Causal FIR on interleaved stereo: one thread per frame. */\n"
     "extern \"C\" __global__ void fir_stereo(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float left = 0.0f, right = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++) {\n"
     "        left += h[k] * x[2 * (i - k)];\n"
     "        right += h[k] * x[2 * (i - k) + 1];\n"
     "    }\n"
     "    y[2 * i] = left;\n"
     "    y[2 * i + 1] = right;\n"
     "}\n",
     "fir_stereo|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "filter-bank", "fir_bank", "a bank of f causal FIRs on one signal ($D)",
     "x:in:n;h:in:f,t;y:out:f,n;f:param;n:param;t:param", NULL,
     "small:f=8,n=4000,t=31|edge:f=1,n=1,t=1|edge-prime:f=3,n=131,t=7|large:f=32,n=4194304,t=64", "2*f*n*t",
     "$S*(n+f*t+f*n)", FTOL,
     "#include <stddef.h>\n\n"
     "/* Filter bank: f causal FIRs (rows of h) applied to the same signal;\n"
     " * y[b][i] = sum_k h[b][k] * x[i - k]. */\n"
     "void fir_bank(const float *x, const float *h, float *y, int f, int n, int t)\n{\n"
     "    for (int b = 0; b < f; b++) {\n"
     "        const float *hb = h + (size_t)b * t;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            float acc = 0.0f;\n"
     "            for (int k = 0; k < t && k <= i; k++)\n"
     "                acc += hb[k] * x[i - k];\n"
     "            y[(size_t)b * n + i] = acc;\n"
     "        }\n    }\n}\n",
     "/* Filter bank: one thread per output sample of every filter. */\n"
     "extern \"C\" __global__ void fir_bank(const float *x, const float *h, float *y, int f, int n, int t)\n"
     "{\n"
     "    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (o >= (long long)f * n)\n"
     "        return;\n"
     "    const long long b = o / n, i = o % n;\n"
     "    const float *hb = h + b * t;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += hb[k] * x[i - k];\n"
     "    y[o] = acc;\n"
     "}\n",
     "fir_bank|(f*n+255)/256|256||x,h,y,f,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "complex", "fir_complex", "complex causal FIR, interleaved (re, im) ($D)",
     "x:in:n,2;h:in:t,2;y:out:n,2;n:param;t:param", NULL,
     "small:n=20000,t=31|edge:n=1,t=1|edge-long-taps:n=5,t=9|edge-prime:n=131,t=7|large:n=$(33554432|16777216),t=64",
     "8*n*t", "$S*2*(2*n+t)", FTOL,
     "/* Complex causal FIR: y[i] = sum_k h[k] * x[i - k] with complex taps and\n"
     " * samples stored as (re, im) pairs. */\n"
     "void fir_complex(const $T *x, const $T *h, $T *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T re = 0, im = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++) {\n"
     "            $T hr = h[2 * k], hi = h[2 * k + 1];\n"
     "            $T xr = x[2 * (i - k)], xi = x[2 * (i - k) + 1];\n"
     "            re += hr * xr - hi * xi;\n"
     "            im += hr * xi + hi * xr;\n"
     "        }\n"
     "        y[2 * i] = re;\n"
     "        y[2 * i + 1] = im;\n"
     "    }\n}\n",
     "/* Complex causal FIR: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_complex(const $T *x, const $T *h, $T *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    $T re = 0, im = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++) {\n"
     "        const $T hr = h[2 * k], hi = h[2 * k + 1];\n"
     "        const $T xr = x[2 * (i - k)], xi = x[2 * (i - k) + 1];\n"
     "        re += hr * xr - hi * xi;\n"
     "        im += hr * xi + hi * xr;\n"
     "    }\n"
     "    y[2 * i] = re;\n"
     "    y[2 * i + 1] = im;\n"
     "}\n",
     "fir_complex|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "real-taps-complex-signal", "fir_real_on_complex", "real causal FIR on a complex (I/Q) signal ($D)",
     "x:in:n,2;h:in:t;y:out:n,2;n:param;t:param", NULL, TCFG, "4*n*t", "$S*(4*n+t)", FTOL,
     "/* A real-valued causal FIR applied to a complex baseband (I/Q) signal,\n"
     " * stored as (re, im) pairs: both components are filtered with h. */\n"
     "void fir_real_on_complex(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float re = 0.0f, im = 0.0f;\n"
     "        for (int k = 0; k < t && k <= i; k++) {\n"
     "            re += h[k] * x[2 * (i - k)];\n"
     "            im += h[k] * x[2 * (i - k) + 1];\n"
     "        }\n"
     "        y[2 * i] = re;\n"
     "        y[2 * i + 1] = im;\n"
     "    }\n}\n",
     "/* Real causal FIR on a complex signal: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_real_on_complex(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float re = 0.0f, im = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++) {\n"
     "        re += h[k] * x[2 * (i - k)];\n"
     "        im += h[k] * x[2 * (i - k) + 1];\n"
     "    }\n"
     "    y[2 * i] = re;\n"
     "    y[2 * i + 1] = im;\n"
     "}\n",
     "fir_real_on_complex|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "batched", "fir_batched", "one causal FIR applied to a batch of signals ($D)",
     "x:in:batch,n;h:in:t;y:out:batch,n;batch:param;n:param;t:param", NULL,
     "small:batch=8,n=4000,t=31|edge:batch=1,n=1,t=1|edge-prime:batch=3,n=131,t=7|"
     "large:batch=64,n=$(1048576|524288),t=64",
     "2*batch*n*t", "$S*(2*batch*n+t)", FTOL,
     "#include <stddef.h>\n\n"
     "/* Filters each of the batch signals (rows of x, n samples) with the same\n"
     " * causal FIR h. */\n"
     "void fir_batched(const $T *x, const $T *h, $T *y, int batch, int n, int t)\n{\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const $T *xb = x + (size_t)b * n;\n"
     "        $T *yb = y + (size_t)b * n;\n"
     "        for (int i = 0; i < n; i++) {\n"
     "            $T acc = 0;\n"
     "            for (int k = 0; k < t && k <= i; k++)\n"
     "                acc += h[k] * xb[i - k];\n"
     "            yb[i] = acc;\n"
     "        }\n    }\n}\n",
     "/* One causal FIR on a batch of signals: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_batched(const $T *x, const $T *h, $T *y, int batch, int n, int t)\n"
     "{\n"
     "    const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (o >= (long long)batch * n)\n"
     "        return;\n"
     "    const long long b = o / n, i = o % n;\n"
     "    const $T *xb = x + b * n;\n"
     "    $T acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * xb[i - k];\n"
     "    y[o] = acc;\n"
     "}\n",
     "fir_batched|(batch*n+255)/256|256||x,h,y,batch,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "matched-energy", "matched_energy", "squared matched-filter output (energy detector) ($D)",
     "x:in:n;h:in:t;y:out:n-t+1;n:param;t:param", NULL,
     "small:n=20000,t=31|edge:n=1,t=1|edge-equal:n=9,t=9|edge-prime:n=131,t=7|large:n=67108864,t=64",
     "2*(n-t+1)*(t+1)", "$S*(2*n+t)", 1e-4, 1e-3, 0, 0,
     "/* Energy of a matched filter: the sliding correlation of x with the\n"
     " * template h, squared, at every position where h fits inside x. */\n"
     "void matched_energy(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i + t <= n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t; k++)\n"
     "            acc += h[k] * x[i + k];\n"
     "        y[i] = acc * acc;\n"
     "    }\n}\n",
     "/* Squared matched-filter output: one thread per position. */\n"
     "extern \"C\" __global__ void matched_energy(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n - t + 1)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t; k++)\n"
     "        acc += h[k] * x[i + k];\n"
     "    y[i] = acc * acc;\n"
     "}\n",
     "matched_energy|(max(n-t+1,1)+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i16", "q15-saturating", "fir_q15", "Q15 fixed-point FIR with rounding and saturation",
     "x:in:n;h:in:t;y:out:n;n:param;t:param", "x:i:-32768:32768;h:i:-4096:4096", TCFG, "2*n*t", "2*(2*n+t)", 0,
     0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Q15 fixed-point causal FIR: products of Q15 samples and taps are summed\n"
     " * exactly in 64 bits, rounded back to Q15 (add 2^14, arithmetic shift by\n"
     " * 15) and saturated to the int16 range. */\n"
     "void fir_q15(const int16_t *x, const int16_t *h, int16_t *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int64_t acc = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        int64_t v = (acc + (1 << 14)) >> 15;\n"
     "        y[i] = (int16_t)(v > INT16_MAX ? INT16_MAX : (v < INT16_MIN ? INT16_MIN : v));\n"
     "    }\n}\n",
     "/* Q15 causal FIR, rounded and saturated: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_q15(const short *x, const short *h, short *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    long long acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    const long long v = (acc + (1 << 14)) >> 15;\n"
     "    y[i] = (short)(v > 32767 ? 32767 : (v < -32768 ? -32768 : v));\n"
     "}\n",
     "fir_q15|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i16", "q15-wide", "fir_q15_wide", "Q15 FIR of int16 samples into int32 results",
     "x:in:n;h:in:t;y:out:n:i32;n:param;t:param", "x:i:-32768:32768;h:i:-32768:32768", TCFG, "2*n*t",
     "2*(n+t)+4*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Causal FIR on int16 samples with Q15 taps: the exact 64-bit sum is\n"
     " * rounded to the nearest multiple of 2^15 (arithmetic shift) and returned\n"
     " * as a 32-bit value, without saturation. */\n"
     "void fir_q15_wide(const int16_t *x, const int16_t *h, int32_t *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int64_t acc = 0;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        y[i] = (int32_t)((acc + (1 << 14)) >> 15);\n"
     "    }\n}\n",
     "/* Q15 causal FIR into int32: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_q15_wide(const short *x, const short *h, int *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    long long acc = 0;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    y[i] = (int)((acc + (1 << 14)) >> 15);\n"
     "}\n",
     "fir_q15_wide|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "cascade", "fir_cascade", "two causal FIRs in series through a temporary ($D)",
     "x:in:n;h1:in:t1;h2:in:t2;tmp:out:n;y:out:n;n:param;t1:param;t2:param", NULL,
     "small:n=20000,t1=15,t2=9|edge:n=1,t1=1,t2=1|edge-prime:n=131,t1=7,t2=5|large:n=67108864,t1=32,t2=16",
     "2*n*(t1+t2)", "$S*(3*n+t1+t2)", FTOL,
     "/* One causal FIR pass: out[i] = sum_k h[k] * in[i - k]. */\n"
     "static void pass(const float *in, const float *h, float *out, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * in[i - k];\n"
     "        out[i] = acc;\n"
     "    }\n}\n\n"
     "/* Two filters in series: tmp = h1 * x, then y = h2 * tmp. */\n"
     "void fir_cascade(const float *x, const float *h1, const float *h2, float *tmp, float *y, int n, int t1,\n"
     "                 int t2)\n{\n"
     "    pass(x, h1, tmp, n, t1);\n"
     "    pass(tmp, h2, y, n, t2);\n}\n",
     "/* One causal FIR pass, launched twice (tmp = h1 * x, then y = h2 * tmp):\n"
     " * one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_pass(const float *in, const float *h, float *out, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * in[i - k];\n"
     "    out[i] = acc;\n"
     "}\n",
     "fir_pass|(n+255)/256|256||x,h1,tmp,n,t1;fir_pass|(n+255)/256|256||tmp,h2,y,n,t2", NULL,
     "block=256;mapping=two-launches,one-output-per-thread"},
    {"f32", "dilated", "fir_dilated", "causal FIR with taps spaced d samples apart ($D)",
     "x:in:n;h:in:t;y:out:n;n:param;t:param;d:param", NULL,
     "small:n=20000,t=8,d=4|edge:n=1,t=1,d=1|edge-long:n=5,t=3,d=3|edge-prime:n=131,t=7,d=2|"
     "large:n=67108864,t=16,d=8",
     "2*n*t", "$S*(2*n+t)", FTOL,
     "/* Dilated (a trous) causal FIR: y[i] = sum_k h[k] * x[i - k d], samples\n"
     " * before the start being zero. */\n"
     "void fir_dilated(const float *x, const float *h, float *y, int n, int t, int d)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k * d <= i; k++)\n"
     "            acc += h[k] * x[i - k * d];\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Dilated causal FIR: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_dilated(const float *x, const float *h, float *y, int n, int t, int d)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && (long long)k * d <= i; k++)\n"
     "        acc += h[k] * x[i - (long long)k * d];\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_dilated|(n+255)/256|256||x,h,y,n,t,d", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "rectified", "fir_rectified", "|FIR output|: filter then full-wave rectify ($D)",
     "x:in:n;h:in:t;y:out:n;n:param;t:param", NULL, TCFG, "2*n*t+n", "$S*(2*n+t)", FTOL,
     "#include <math.h>\n\n"
     "/* Band-pass-and-rectify step of an envelope detector: the causal FIR\n"
     " * output, full-wave rectified, y[i] = |sum_k h[k] * x[i - k]|. */\n"
     "void fir_rectified(const float *x, const float *h, float *y, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        y[i] = fabsf(acc);\n"
     "    }\n}\n",
     "/* Rectified causal FIR: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_rectified(const float *x, const float *h, float *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    y[i] = fabsf(acc);\n"
     "}\n",
     "fir_rectified|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "gain-clip", "fir_gain_clip", "FIR, then gain and hard clipping to [-1, 1] ($D)",
     "x:in:n;h:in:t;y:out:n;gain:scalar:~0.5~2;n:param;t:param", NULL, TCFG, "2*n*t+3*n", "$S*(2*n+t)", FTOL,
     "/* Audio-style chain: causal FIR, gain, then hard clipping to [-1, 1]. */\n"
     "void fir_gain_clip(const float *x, const float *h, float *y, float gain, int n, int t)\n{\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float acc = 0.0f;\n"
     "        for (int k = 0; k < t && k <= i; k++)\n"
     "            acc += h[k] * x[i - k];\n"
     "        float v = gain * acc;\n"
     "        y[i] = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);\n"
     "    }\n}\n",
     "/* Causal FIR, gain and clipping: one thread per output sample. */\n"
     "extern \"C\" __global__ void fir_gain_clip(const float *x, const float *h, float *y, float gain, int n, "
     "int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    float acc = 0.0f;\n"
     "    for (int k = 0; k < t && k <= i; k++)\n"
     "        acc += h[k] * x[i - k];\n"
     "    const float v = gain * acc;\n"
     "    y[i] = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);\n"
     "}\n",
     "fir_gain_clip|(n+255)/256|256||x,h,y,gain,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "linear-phase", "fir_symmetric", "linear-phase FIR from half of its symmetric taps ($D)",
     "x:in:n;h:in:t;y:out:n;n:param;t:param", NULL,
     "small:n=20000,t=16|edge:n=1,t=1|edge-long-taps:n=5,t=9|edge-prime:n=131,t=7|large:n=" NBIG ",t=32",
     "3*n*t", "$S*(2*n+t)", FTOL,
     "/* Sample x[j], zero outside the signal. */\n"
     "static $T sample(const $T *x, int n, int j)\n{\n"
     "    return j >= 0 && j < n ? x[j] : 0;\n}\n\n"
     "/* Causal linear-phase FIR of odd length 2t - 1 whose taps are symmetric:\n"
     " * g[k] = g[2t - 2 - k] with the first half given as h (h[t - 1] is the\n"
     " * centre tap).  Pairs of samples sharing a tap are added first:\n"
     " * y[i] = sum_{k < t-1} h[k] (x[i - k] + x[i - (2t - 2 - k)]) + h[t-1] x[i - t + 1]. */\n"
     "void fir_symmetric(const $T *x, const $T *h, $T *y, int n, int t)\n{\n"
     "    int last = 2 * t - 2;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        $T acc = h[t - 1] * sample(x, n, i - (t - 1));\n"
     "        for (int k = 0; k < t - 1; k++)\n"
     "            acc += h[k] * (sample(x, n, i - k) + sample(x, n, i - (last - k)));\n"
     "        y[i] = acc;\n"
     "    }\n}\n",
     "/* Sample x[j], zero outside the signal. */\n"
     "__device__ $T sample(const $T *x, int n, long long j)\n"
     "{\n"
     "    return j >= 0 && j < n ? x[j] : 0;\n"
     "}\n"
     "\n"
     "/* Linear-phase FIR from half of its symmetric taps: one thread per output. */\n"
     "extern \"C\" __global__ void fir_symmetric(const $T *x, const $T *h, $T *y, int n, int t)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int last = 2 * t - 2;\n"
     "    $T acc = h[t - 1] * sample(x, n, i - (t - 1));\n"
     "    for (int k = 0; k < t - 1; k++)\n"
     "        acc += h[k] * (sample(x, n, i - k) + sample(x, n, i - (last - k)));\n"
     "    y[i] = acc;\n"
     "}\n",
     "fir_symmetric|(n+255)/256|256||x,h,y,n,t", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "comb", "comb_fir", "feed-forward comb y[i] = x[i] + g*x[i-d] ($D)",
     "x:in:n;y:out:n;g:scalar:~-0.9~-0.3;n:param;d:param", NULL,
     "small:n=20000,d=100|edge:n=1,d=1|edge-long-delay:n=5,d=9|edge-prime:n=131,d=7|large:n=33554432,d=4410",
     "2*n", "$S*2*n", 0, 0, 0, 0,
     "/* Feed-forward comb filter (a two-tap FIR with a long delay):\n"
     " * y[i] = x[i] + g * x[i - d], x[j] = 0 for j < 0. */\n"
     "void comb_fir(const double *x, double *y, double g, int n, int d)\n{\n"
     "    for (int i = 0; i < n; i++)\n"
     "        y[i] = i >= d ? x[i] + g * x[i - d] : x[i];\n}\n",
     "/* Feed-forward comb: one thread per output sample. */\n"
     "extern \"C\" __global__ void comb_fir(const double *x, double *y, double g, int n, int d)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    y[i] = i >= d ? x[i] + g * x[i - d] : x[i];\n"
     "}\n",
     "comb_fir|(n+255)/256|256||x,y,g,n,d", NULL,
     "block=256;mapping=one-output-per-thread"},
};

static int generate(GenCtx *g)
{
    double h[64];
    static const int lens[] = {7, 15, 31, 63};
    static const char *const lp_dt[] = {"f32", "f32", "f64", "f32"};
    static const double cut[] = {0.2, 0.1, 0.05, 0.15};
    for (int i = 0; i < 4; i++) {
        char tag[32], what[64];
        lowpass_taps(h, lens[i], cut[i]);
        snprintf(tag, sizeof tag, "lowpass%d", lens[i]);
        snprintf(what, sizeof what, "Windowed-sinc low-pass, cutoff %.2f of the sample rate", cut[i]);
        if (emit_baked(g, tag, lp_dt[i], what, h, lens[i], i % 2))
            return -1;
    }
    static const double sg5[] = {-3 / 35.0, 12 / 35.0, 17 / 35.0, 12 / 35.0, -3 / 35.0};
    static const double sg7[] = {-2 / 21.0, 3 / 21.0, 6 / 21.0, 7 / 21.0, 6 / 21.0, 3 / 21.0, -2 / 21.0};
    static const double d5[] = {-1 / 12.0, 8 / 12.0, 0, -8 / 12.0, 1 / 12.0};
    if (emit_baked(g, "savgol5", "f32", "Savitzky-Golay quadratic smoothing", sg5, 5, 1) ||
        emit_baked(g, "savgol7", "f64", "Savitzky-Golay quadratic smoothing", sg7, 7, 1) ||
        emit_baked(g, "derivative5", "f32", "Five-point central difference (first derivative)", d5, 5, 1))
        return -1;
    double gs[9], sum = 0;
    for (int k = 0; k < 9; k++)
        sum += gs[k] = exp(-0.5 * (k - 4) * (k - 4) / (1.5 * 1.5));
    for (int k = 0; k < 9; k++)
        gs[k] /= sum;
    if (emit_baked(g, "gaussian9", "f32", "Gaussian smoothing, sigma 1.5", gs, 9, 1))
        return -1;
    /* A half-band low-pass (every other tap zero except the centre), decimating by 2. */
    lowpass_taps(h, 11, 0.25);
    static char src[4096];
    StrBuf s = STRBUF_INIT;
    sb_append(&s, "/* Half-band low-pass taps (11, cutoff a quarter of the sample rate). */\n");
    print_taps(&s, "static const", "taps", h, 11);
    sb_append(&s, "/* Half-band decimator: low-pass filter (causal) and keep every second\n"
                  " * output, y[i] = sum_k taps[k] * x[2i - k], x[j] = 0 for j < 0. */\n"
                  "void halfband_decimate(const $T *x, $T *y, int n)\n{\n"
                  "    for (int i = 0; 2 * i < n; i++) {\n"
                  "        $T acc = 0;\n"
                  "        for (int k = 0; k < 11 && k <= 2 * i; k++)\n"
                  "            acc += taps[k] * x[2 * i - k];\n"
                  "        y[i] = acc;\n"
                  "    }\n}\n");
    snprintf(src, sizeof src, "%s", sb_str(&s));
    sb_release(&s);
    static char cuda[4096];
    sb_append(&s, "/* Half-band low-pass taps (11, cutoff a quarter of the sample rate). */\n");
    print_taps(&s, "__constant__", "taps", h, 11);
    sb_append(&s, "/* Half-band decimator: one thread per output sample. */\n"
                  "extern \"C\" __global__ void halfband_decimate(const $T *x, $T *y, int n)\n{\n"
                  "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (2 * i >= n)\n        return;\n"
                  "    $T acc = 0;\n"
                  "    for (int k = 0; k < 11 && k <= 2 * i; k++)\n"
                  "        acc += taps[k] * x[2 * i - k];\n"
                  "    y[i] = acc;\n}\n");
    snprintf(cuda, sizeof cuda, "%s", sb_str(&s));
    sb_release(&s);
    Spec hb = {"f32", "halfband-decimate", "halfband_decimate", "half-band low-pass and decimate by 2 ($D)",
               "x:in:n;y:out:(n+1)/2;n:param", NULL, NCFG, "11*n", "$S*(n+n/2)", FTOL, src, cuda,
               "halfband_decimate|((n+1)/2+255)/256|256||x,y,n", NULL,
               "block=256;mapping=one-output-per-thread,taps-in-constant"};
    if (spec_emit_all(g, &hb, 1))
        return -1;
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_fir = {"fir", "signal", 54, generate};
