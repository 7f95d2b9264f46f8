/* dft — naive O(n^2) Fourier-type transforms: forward/inverse complex DFTs
 * (interleaved and planar), real-input half and full spectra and their
 * inverse, power, magnitude and log-power spectra, windowed periodograms
 * and STFT spectrograms, cross-spectra, band energies, single-frequency
 * evaluations (Goertzel recurrence, bin lists, zoom bands), unitary and
 * fftshifted DFTs, 2D DFTs, batched transforms, DCT-I/II/III/IV, DST-II,
 * MDCT, 8x8 block DCTs and the Hartley transform, over f32/f64 with u8,
 * i16 and i32 inputs.  Twiddle angles are reduced exactly ((k j) mod n)
 * and evaluated in double; sums accumulate in double.  Large configs are
 * single transforms of 32K..64K points or batches of 16K-point ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"

#define TP "static const double TWO_PI = 6.283185307179586;\n\n"
#define DCFG "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=65536"
#define BCFG "small:batch=4,n=128|edge:batch=1,n=1|edge-prime:batch=3,n=37|large:batch=16,n=16384"
#define TOLF 5e-2, 1e-3, 0, 0
#define TOLP 2e-1, 1e-3, 0, 0

/* The pairs: one thread per output bin (or sample, or coefficient), which
 * forms the same sum as the C program, with the same exactly reduced angles
 * and double-precision cos/sin.  What the C program computes once up front
 * (a window's energy, a signal's mean, a twiddle table) is a first launch
 * into scratch; the band energies reduce over bins with the block sum. */
#define BLOCK_SUM(A)                                                                                    \
    "/* Sum of v over the block, valid in thread 0 (blockDim.x a multiple of 32,\n"                     \
    " * at most 1024).  The first barrier lets a second call reuse part[]. */\n"                         \
    "__device__ " A " block_sum(" A " v)\n{\n"                                                              \
    "    __shared__ " A " part[32];\n"                                                                     \
    "    for (int o = 16; o > 0; o >>= 1)\n"                                                              \
    "        v += __shfl_down_sync(0xffffffffu, v, o);\n"                                                  \
    "    __syncthreads();\n"                                                                              \
    "    if (threadIdx.x % 32 == 0)\n"                                                                    \
    "        part[threadIdx.x / 32] = v;\n"                                                               \
    "    __syncthreads();\n"                                                                              \
    "    v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;\n"                                     \
    "    if (threadIdx.x < 32)\n"                                                                         \
    "        for (int o = 16; o > 0; o >>= 1)\n"                                                          \
    "            v += __shfl_down_sync(0xffffffffu, v, o);\n"                                              \
    "    return v;\n}\n\n"

static const Spec SPECS[] = {
    {"f32 f64", "complex-forward", "dft", "X = DFT(x), complex interleaved ($D)", "x:in:n,2;y:out:n,2;n:param", NULL,
     DCFG, "8*n*n", "$S*4*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Forward DFT of n complex samples stored as (re, im) pairs:\n"
     " * y[k] = sum_j x[j] * exp(-2 pi i j k / n).  The angle uses (j k) mod n,\n"
     " * which is exact, so accuracy does not degrade with n. */\n"
     "void dft(const $T *x, $T *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), s = sin(a);\n"
     "            re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "            im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Forward DFT: one thread per output bin. */\n"
     "extern \"C\" __global__ void dft(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), s = sin(a);\n"
     "        re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "        im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "dft|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "complex-inverse", "idft", "x = IDFT(X) with 1/n normalisation ($D)", "x:in:n,2;y:out:n,2;n:param",
     NULL, DCFG, "8*n*n", "$S*4*n", 1e-5, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Inverse DFT: y[j] = (1/n) sum_k x[k] * exp(+2 pi i j k / n), complex\n"
     " * values as (re, im) pairs. */\n"
     "void idft(const $T *x, $T *y, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int k = 0; k < n; k++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), s = sin(a);\n"
     "            re += x[2 * k] * c - x[2 * k + 1] * s;\n"
     "            im += x[2 * k] * s + x[2 * k + 1] * c;\n"
     "        }\n"
     "        y[2 * j] = re / n;\n"
     "        y[2 * j + 1] = im / n;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Inverse DFT: one thread per output sample. */\n"
     "extern \"C\" __global__ void idft(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), s = sin(a);\n"
     "        re += x[2 * k] * c - x[2 * k + 1] * s;\n"
     "        im += x[2 * k] * s + x[2 * k + 1] * c;\n"
     "    }\n"
     "    y[2 * j] = re / n;\n"
     "    y[2 * j + 1] = im / n;\n"
     "}\n",
     "idft|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "real-half-spectrum", "rdft", "half spectrum (n/2+1 bins) of a real signal ($D)",
     "x:in:n;y:out:n/2+1,2;n:param", NULL, DCFG, "2*n*n", "$S*(2*n+2)", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* DFT of a real signal: only the bins k = 0..n/2 are computed (the others\n"
     " * are their complex conjugates), y[k] = sum_j x[j] exp(-2 pi i j k / n)\n"
     " * stored as (re, im). */\n"
     "void rdft(const $T *x, $T *y, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[j] * cos(a);\n"
     "            im -= x[j] * sin(a);\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Half spectrum of a real signal: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void rdft(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[j] * cos(a);\n"
     "        im -= x[j] * sin(a);\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "rdft|(n/2+1+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "real-full-spectrum", "rdft_full", "all n bins of the DFT of a real signal ($D)",
     "x:in:n;y:out:n,2;n:param", NULL, DCFG, "4*n*n", "$S*3*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Full DFT of a real signal, every bin k = 0..n-1 (complex, as (re, im)):\n"
     " * y[k] = sum_j x[j] (cos(2 pi j k / n) - i sin(2 pi j k / n)). */\n"
     "void rdft_full(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[j] * cos(a);\n"
     "            im -= x[j] * sin(a);\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Full spectrum of a real signal: one thread per bin. */\n"
     "extern \"C\" __global__ void rdft_full(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[j] * cos(a);\n"
     "        im -= x[j] * sin(a);\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "rdft_full|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "real-inverse", "irdft", "real signal from its half spectrum (inverse real DFT) ($D)",
     "x:in:n/2+1,2;y:out:n;n:param", NULL, DCFG, "4*n*n", "$S*(n+2*n/2+2)", 1e-5, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Inverse of the real DFT: x holds bins 0..n/2 of a Hermitian spectrum (as\n"
     " * (re, im)), the rest being their conjugates.  The real signal is\n"
     " * y[j] = (1/n) [Re x0 + sum_{k=1..n/2} w_k Re(x_k exp(2 pi i j k / n))]\n"
     " * with w_k = 2, except w = 1 for the Nyquist bin of an even n.  The\n"
     " * imaginary parts of bin 0 (and of the Nyquist bin) are ignored. */\n"
     "void irdft(const $T *x, $T *y, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = x[0];\n"
     "        for (int k = 1; k <= n / 2; k++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double w = 2 * k == n ? 1.0 : 2.0;\n"
     "            acc += w * (x[2 * k] * cos(a) - x[2 * k + 1] * sin(a));\n"
     "        }\n"
     "        y[j] = acc / n;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Inverse real DFT: one thread per output sample. */\n"
     "extern \"C\" __global__ void irdft(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = x[0];\n"
     "    for (int k = 1; k <= n / 2; k++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double w = 2 * k == n ? 1.0 : 2.0;\n"
     "        acc += w * (x[2 * k] * cos(a) - x[2 * k + 1] * sin(a));\n"
     "    }\n"
     "    y[j] = acc / n;\n"
     "}\n",
     "irdft|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "power-spectrum", "power_spectrum", "|X_k|^2 for k = 0..n/2 of a real signal ($D)",
     "x:in:n;p:out:n/2+1;n:param", NULL, DCFG, "2*n*n", "$S*(n+n/2+1)", TOLP,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Power spectrum of a real signal: p[k] = |X_k|^2 for k = 0..n/2 with X the\n"
     " * DFT of x. */\n"
     "void power_spectrum(const $T *x, $T *p, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[j] * cos(a);\n"
     "            im -= x[j] * sin(a);\n"
     "        }\n"
     "        p[k] = re * re + im * im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Power spectrum: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void power_spectrum(const $T *x, $T *p, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[j] * cos(a);\n"
     "        im -= x[j] * sin(a);\n"
     "    }\n"
     "    p[k] = re * re + im * im;\n"
     "}\n",
     "power_spectrum|(n/2+1+255)/256|256||x,p,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "complex-power", "complex_power", "|X_k|^2 for all bins of a complex signal ($D)",
     "x:in:n,2;p:out:n;n:param", NULL, DCFG, "8*n*n", "$S*3*n", TOLP,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Power in every DFT bin of a complex signal ((re, im) pairs):\n"
     " * p[k] = |sum_j x[j] exp(-2 pi i j k / n)|^2. */\n"
     "void complex_power(const float *x, float *p, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), s = sin(a);\n"
     "            re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "            im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "        }\n"
     "        p[k] = re * re + im * im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Power in every DFT bin of a complex signal: one thread per bin. */\n"
     "extern \"C\" __global__ void complex_power(const float *x, float *p, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), s = sin(a);\n"
     "        re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "        im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "    }\n"
     "    p[k] = re * re + im * im;\n"
     "}\n",
     "complex_power|(n+255)/256|256||x,p,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "magnitude", "magnitude_spectrum", "|X_k| for all bins of a complex signal ($D)",
     "x:in:n,2;mag:out:n;n:param", NULL, DCFG, "8*n*n", "$S*3*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Magnitude spectrum of a complex signal ((re, im) pairs):\n"
     " * mag[k] = |X_k| with X the forward DFT. */\n"
     "void magnitude_spectrum(const float *x, float *mag, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "            im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "        }\n"
     "        mag[k] = sqrt(re * re + im * im);\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Magnitude spectrum of a complex signal: one thread per bin. */\n"
     "extern \"C\" __global__ void magnitude_spectrum(const float *x, float *mag, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "    }\n"
     "    mag[k] = sqrt(re * re + im * im);\n"
     "}\n",
     "magnitude_spectrum|(n+255)/256|256||x,mag,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "hann-periodogram", "periodogram", "Hann-windowed periodogram, normalised by the window energy ($D)",
     "x:in:n;p:out:n/2+1;n:param", NULL, "small:n=256|edge:n=2|edge-three:n=3|edge-prime:n=131|large:n=65536",
     "2*n*n", "$S*(n+n/2+1)", 1e-3, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Periodogram with a periodic Hann window w[j] = 0.5 - 0.5 cos(2 pi j / n):\n"
     " * p[k] = |sum_j w[j] x[j] exp(-2 pi i j k / n)|^2 / sum_j w[j]^2 for\n"
     " * k = 0..n/2. */\n"
     "void periodogram(const $T *x, $T *p, int n)\n{\n"
     "    double energy = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double w = 0.5 - 0.5 * cos(TWO_PI * j / n);\n"
     "        energy += w * w;\n"
     "    }\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double wx = (0.5 - 0.5 * cos(TWO_PI * j / n)) * x[j];\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += wx * cos(a);\n"
     "            im -= wx * sin(a);\n"
     "        }\n"
     "        p[k] = (re * re + im * im) / energy;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     BLOCK_SUM("double")
     "/* First launch: the energy of the Hann window, sum_j w[j]^2, by one block. */\n"
     "extern \"C\" __global__ void window_energy(double *energy, int n)\n"
     "{\n"
     "    double s = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x) {\n"
     "        const double w = 0.5 - 0.5 * cos(TWO_PI * j / n);\n"
     "        s += w * w;\n"
     "    }\n"
     "    s = block_sum(s);\n"
     "    if (threadIdx.x == 0)\n"
     "        energy[0] = s;\n"
     "}\n"
     "\n"
     "/* Second launch, the periodogram: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void periodogram(const $T *x, $T *p, int n, const double *energy)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double wx = (0.5 - 0.5 * cos(TWO_PI * j / n)) * x[j];\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += wx * cos(a);\n"
     "        im -= wx * sin(a);\n"
     "    }\n"
     "    p[k] = (re * re + im * im) / energy[0];\n"
     "}\n",
     "window_energy|1|256||energy,n;periodogram|(n/2+1+255)/256|256||x,p,n,energy", "energy:f64:1",
     "block=256;mapping=two-launches,block-sum+one-output-per-thread"},
    {"f64", "log-power-db", "log_power_db", "10*log10(|X_k|^2 + eps) of a real signal ($D)",
     "x:in:n;db:out:n/2+1;n:param", NULL, DCFG, "2*n*n+10*n", "$S*(n+n/2+1)", 0, 0, 1e-6, 1e-6,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Power spectrum in decibels: db[k] = 10 log10(|X_k|^2 + 1e-12) for\n"
     " * k = 0..n/2, X the DFT of the real signal x. */\n"
     "void log_power_db(const double *x, double *db, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[j] * cos(a);\n"
     "            im -= x[j] * sin(a);\n"
     "        }\n"
     "        db[k] = 10.0 * log10(re * re + im * im + 1e-12);\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Power spectrum in decibels: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void log_power_db(const double *x, double *db, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[j] * cos(a);\n"
     "        im -= x[j] * sin(a);\n"
     "    }\n"
     "    db[k] = 10.0 * log10(re * re + im * im + 1e-12);\n"
     "}\n",
     "log_power_db|(n/2+1+255)/256|256||x,db,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "bin-list-power", "bin_power", "power at a list of DFT bins (Goertzel-style detection) ($D)",
     "x:in:n;bins:in:nb:i32;p:out:nb;n:param;nb:param", "bins:i:0:n",
     "small:n=4096,nb=16|edge:n=1,nb=1|edge-prime:n=131,nb=5|large:n=1048576,nb=2048", "4*n*nb",
     "$S*(n+nb)+4*nb", TOLP,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Power of the real signal x at selected DFT bins (as a tone detector\n"
     " * would evaluate them): p[b] = |sum_j x[j] exp(-2 pi i j k / n)|^2 with\n"
     " * k = bins[b] in [0, n). */\n"
     "void bin_power(const $T *x, const int *bins, $T *p, int n, int nb)\n{\n"
     "    for (int b = 0; b < nb; b++) {\n"
     "        int64_t k = bins[b];\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)(j * k % n) / n;\n"
     "            re += x[j] * cos(a);\n"
     "            im -= x[j] * sin(a);\n"
     "        }\n"
     "        p[b] = re * re + im * im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Power at a list of bins: one thread per listed bin. */\n"
     "extern \"C\" __global__ void bin_power(const $T *x, const int *bins, $T *p, int n, int nb)\n"
     "{\n"
     "    const int b = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (b >= nb)\n"
     "        return;\n"
     "    const long long k = bins[b];\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)(j * k % n) / n;\n"
     "        re += x[j] * cos(a);\n"
     "        im -= x[j] * sin(a);\n"
     "    }\n"
     "    p[b] = re * re + im * im;\n"
     "}\n",
     "bin_power|(nb+255)/256|256||x,bins,p,n,nb", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "goertzel", "goertzel", "Goertzel recurrence: power at bin k of each signal of a batch ($D)",
     "x:in:batch,n;p:out:batch;batch:param;n:param;k:param", NULL,
     "small:batch=64,n=1024,k=37|edge:batch=1,n=1,k=0|edge-prime:batch=5,n=131,k=12|large:batch=65536,n=4096,k=301",
     "4*batch*n", "$S*(batch*n+batch)", 0, 0, 1e-9, 1e-6,
     "#include <math.h>\n#include <stddef.h>\n\n" TP
     "/* Goertzel algorithm: the power |X_k|^2 of DFT bin k of each of the batch\n"
     " * real signals (rows of x, n samples), through the second-order recurrence\n"
     " * s[j] = x[j] + 2 cos(w) s[j-1] - s[j-2], w = 2 pi k / n. */\n"
     "void goertzel(const double *x, double *p, int batch, int n, int k)\n{\n"
     "    double coeff = 2.0 * cos(TWO_PI * k / n);\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const double *xb = x + (size_t)b * n;\n"
     "        double s1 = 0.0, s2 = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double s = xb[j] + coeff * s1 - s2;\n"
     "            s2 = s1;\n"
     "            s1 = s;\n"
     "        }\n"
     "        p[b] = s1 * s1 + s2 * s2 - coeff * s1 * s2;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Goertzel recurrence: one thread per signal of the batch. */\n"
     "extern \"C\" __global__ void goertzel(const double *x, double *p, int batch, int n, int k)\n"
     "{\n"
     "    const int b = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (b >= batch)\n"
     "        return;\n"
     "    const double coeff = 2.0 * cos(TWO_PI * k / n);\n"
     "    const double *xb = x + (long long)b * n;\n"
     "    double s1 = 0.0, s2 = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double s = xb[j] + coeff * s1 - s2;\n"
     "        s2 = s1;\n"
     "        s1 = s;\n"
     "    }\n"
     "    p[b] = s1 * s1 + s2 * s2 - coeff * s1 * s2;\n"
     "}\n",
     "goertzel|(batch+255)/256|256||x,p,batch,n,k", NULL,
     "block=256;mapping=one-signal-per-thread,sequential-recurrence"},
    {"f32", "frequency-list", "dtft_at", "DTFT of a real signal at arbitrary frequencies (cycles/sample) ($D)",
     "x:in:n;freq:in:nf;y:out:nf,2;n:param;nf:param", "freq:u:0:0.5",
     "small:n=4096,nf=16|edge:n=1,nf=1|edge-prime:n=131,nf=5|large:n=1048576,nf=2048", "4*n*nf",
     "$S*(n+3*nf)", TOLF,
     "#include <math.h>\n\n" TP
     "/* Discrete-time Fourier transform of the real signal x at the frequencies\n"
     " * freq[m] (cycles per sample, not necessarily bin centres):\n"
     " * y[m] = sum_j x[j] exp(-2 pi i freq[m] j), as (re, im). */\n"
     "void dtft_at(const float *x, const float *freq, float *y, int n, int nf)\n{\n"
     "    for (int m = 0; m < nf; m++) {\n"
     "        double w = TWO_PI * freq[m];\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            re += x[j] * cos(w * j);\n"
     "            im -= x[j] * sin(w * j);\n"
     "        }\n"
     "        y[2 * m] = re;\n"
     "        y[2 * m + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* DTFT at arbitrary frequencies: one thread per frequency. */\n"
     "extern \"C\" __global__ void dtft_at(const float *x, const float *freq, float *y, int n, int nf)\n"
     "{\n"
     "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= nf)\n"
     "        return;\n"
     "    const double w = TWO_PI * freq[m];\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        re += x[j] * cos(w * j);\n"
     "        im -= x[j] * sin(w * j);\n"
     "    }\n"
     "    y[2 * m] = re;\n"
     "    y[2 * m + 1] = im;\n"
     "}\n",
     "dtft_at|(nf+255)/256|256||x,freq,y,n,nf", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "zoom-band", "zoom_dft", "complex spectrum on nf points of the band [f0, f1] ($D)",
     "x:in:n,2;y:out:nf,2;f0:scalar:0.1;f1:scalar:0.15;n:param;nf:param", NULL,
     "small:n=1024,nf=64|edge:n=1,nf=1|edge-prime:n=131,nf=7|large:n=262144,nf=16384", "8*n*nf", "$S*(2*n+2*nf)",
     TOLF,
     "#include <math.h>\n\n" TP
     "/* Zoom spectrum: the DTFT of the complex signal x ((re, im) pairs) at nf\n"
     " * equally spaced frequencies from f0 to f1 cycles per sample (just f0 when\n"
     " * nf = 1). */\n"
     "void zoom_dft(const float *x, float *y, float f0, float f1, int n, int nf)\n{\n"
     "    double step = nf > 1 ? ((double)f1 - f0) / (nf - 1) : 0.0;\n"
     "    for (int m = 0; m < nf; m++) {\n"
     "        double w = -TWO_PI * (f0 + step * m);\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double c = cos(w * j), s = sin(w * j);\n"
     "            re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "            im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "        }\n"
     "        y[2 * m] = re;\n"
     "        y[2 * m + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Zoom spectrum: one thread per frequency of the band. */\n"
     "extern \"C\" __global__ void zoom_dft(const float *x, float *y, float f0, float f1, int n, int nf)\n"
     "{\n"
     "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= nf)\n"
     "        return;\n"
     "    const double step = nf > 1 ? ((double)f1 - f0) / (nf - 1) : 0.0;\n"
     "    const double w = -TWO_PI * (f0 + step * m);\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double c = cos(w * j), s = sin(w * j);\n"
     "        re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "        im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "    }\n"
     "    y[2 * m] = re;\n"
     "    y[2 * m + 1] = im;\n"
     "}\n",
     "zoom_dft|(nf+255)/256|256||x,y,f0,f1,n,nf", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "dct2", "dct2", "DCT-II, unnormalised ($D)", "x:in:n;y:out:n;n:param", NULL,
     "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=32768", "2*n*n", "$S*2*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* DCT-II: y[k] = sum_j x[j] cos(pi (2j + 1) k / (2n)).  (2j + 1) k is\n"
     " * reduced mod 4n (the period of the cosine) before the angle is formed. */\n"
     "void dct2(const $T *x, $T *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += x[j] * cos(PI * (double)((int64_t)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* DCT-II: one thread per coefficient. */\n"
     "extern \"C\" __global__ void dct2(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += x[j] * cos(PI * (double)((long long)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "    y[k] = acc;\n"
     "}\n",
     "dct2|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "dct2-ortho", "dct2_ortho", "orthonormal DCT-II ($D)", "x:in:n;y:out:n;n:param", NULL,
     "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=32768", "2*n*n", "$S*2*n", 1e-4, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* Orthonormal DCT-II: y[k] = s_k sum_j x[j] cos(pi (2j + 1) k / (2n)) with\n"
     " * s_0 = sqrt(1/n) and s_k = sqrt(2/n) otherwise (so the transform matrix\n"
     " * is orthogonal). */\n"
     "void dct2_ortho(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += x[j] * cos(PI * (double)((int64_t)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "        y[k] = acc * sqrt((k == 0 ? 1.0 : 2.0) / n);\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* Orthonormal DCT-II: one thread per coefficient. */\n"
     "extern \"C\" __global__ void dct2_ortho(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += x[j] * cos(PI * (double)((long long)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "    y[k] = acc * sqrt((k == 0 ? 1.0 : 2.0) / n);\n"
     "}\n",
     "dct2_ortho|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "dct3", "dct3", "DCT-III, the inverse of DCT-II up to a factor 2/n ($D)",
     "x:in:n;y:out:n;n:param", NULL, "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=32768", "2*n*n",
     "$S*2*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* DCT-III: y[j] = x[0] / 2 + sum_{k>=1} x[k] cos(pi (2j + 1) k / (2n)).\n"
     " * Applied to the DCT-II of a signal it returns the signal times n/2. */\n"
     "void dct3(const $T *x, $T *y, int n)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        double acc = 0.5 * x[0];\n"
     "        for (int k = 1; k < n; k++)\n"
     "            acc += x[k] * cos(PI * (double)((int64_t)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "        y[j] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* DCT-III: one thread per output sample. */\n"
     "extern \"C\" __global__ void dct3(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (j >= n)\n"
     "        return;\n"
     "    double acc = 0.5 * x[0];\n"
     "    for (int k = 1; k < n; k++)\n"
     "        acc += x[k] * cos(PI * (double)((long long)(2 * j + 1) * k % (4 * n)) / (2 * n));\n"
     "    y[j] = acc;\n"
     "}\n",
     "dct3|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "dst2", "dst2", "DST-II ($D)", "x:in:n;y:out:n;n:param", NULL,
     "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=32768", "2*n*n", "$S*2*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* DST-II: y[k] = sum_j x[j] sin(pi (2j + 1) (k + 1) / (2n)), k = 0..n-1. */\n"
     "void dst2(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += x[j] * sin(PI * (double)((int64_t)(2 * j + 1) * (k + 1) % (4 * n)) / (2 * n));\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* DST-II: one thread per coefficient. */\n"
     "extern \"C\" __global__ void dst2(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += x[j] * sin(PI * (double)((long long)(2 * j + 1) * (k + 1) % (4 * n)) / (2 * n));\n"
     "    y[k] = acc;\n"
     "}\n",
     "dst2|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "dct1", "dct1", "DCT-I ($D)", "x:in:n;y:out:n;n:param", NULL,
     "small:n=256|edge:n=2|edge-three:n=3|edge-prime:n=131|large:n=32768", "2*n*n", "$S*2*n", 0, 0, 1e-9, 1e-7,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* DCT-I (n >= 2): y[k] = (x[0] + (-1)^k x[n-1]) / 2\n"
     " *                     + sum_{j=1}^{n-2} x[j] cos(pi j k / (n - 1)). */\n"
     "void dct1(const double *x, double *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.5 * (x[0] + (k % 2 ? -x[n - 1] : x[n - 1]));\n"
     "        for (int j = 1; j < n - 1; j++)\n"
     "            acc += x[j] * cos(PI * (double)((int64_t)j * k % (2 * (n - 1))) / (n - 1));\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* DCT-I: one thread per coefficient. */\n"
     "extern \"C\" __global__ void dct1(const double *x, double *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.5 * (x[0] + (k % 2 ? -x[n - 1] : x[n - 1]));\n"
     "    for (int j = 1; j < n - 1; j++)\n"
     "        acc += x[j] * cos(PI * (double)((long long)j * k % (2 * (n - 1))) / (n - 1));\n"
     "    y[k] = acc;\n"
     "}\n",
     "dct1|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "dct4", "dct4", "DCT-IV ($D)", "x:in:n;y:out:n;n:param", NULL,
     "small:n=256|edge:n=1|edge-two:n=2|edge-prime:n=131|large:n=32768", "2*n*n", "$S*2*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* DCT-IV: y[k] = sum_j x[j] cos(pi (2j + 1) (2k + 1) / (4n)); the product\n"
     " * (2j + 1)(2k + 1) is reduced mod 8n, the cosine's period. */\n"
     "void dct4(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++)\n"
     "            acc += x[j] * cos(PI * (double)((int64_t)(2 * j + 1) * (2 * k + 1) % (8 * n)) / (4 * n));\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* DCT-IV: one thread per coefficient. */\n"
     "extern \"C\" __global__ void dct4(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        acc += x[j] * cos(PI * (double)((long long)(2 * j + 1) * (2 * k + 1) % (8 * n)) / (4 * n));\n"
     "    y[k] = acc;\n"
     "}\n",
     "dct4|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "mdct", "mdct", "MDCT: 2n windowed samples to n coefficients ($D)", "x:in:2*n;y:out:n;n:param", NULL,
     "small:n=128|edge:n=1|edge-two:n=2|edge-prime:n=67|large:n=16384", "4*n*n", "$S*3*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* Modified DCT of one frame of 2n samples with a sine window:\n"
     " * y[k] = sum_{j<2n} w[j] x[j] cos(pi/n (j + 1/2 + n/2)(k + 1/2)),\n"
     " * w[j] = sin(pi (j + 1/2) / (2n)).  The angle is formed from the integer\n"
     " * (2j + 1 + n)(2k + 1) reduced mod 8n. */\n"
     "void mdct(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < 2 * n; j++) {\n"
     "            double w = sin(PI * (j + 0.5) / (2 * n));\n"
     "            int64_t m = (int64_t)(2 * j + 1 + n) * (2 * k + 1) % (8 * n);\n"
     "            acc += w * x[j] * cos(PI * (double)m / (4 * n));\n"
     "        }\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* MDCT: one thread per coefficient. */\n"
     "extern \"C\" __global__ void mdct(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < 2 * n; j++) {\n"
     "        const double w = sin(PI * (j + 0.5) / (2 * n));\n"
     "        const long long m = (long long)(2 * j + 1 + n) * (2 * k + 1) % (8 * n);\n"
     "        acc += w * x[j] * cos(PI * (double)m / (4 * n));\n"
     "    }\n"
     "    y[k] = acc;\n"
     "}\n",
     "mdct|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "block-dct8x8", "block_dct8", "orthonormal 8x8 DCT-II of every block of an image (JPEG-style) ($D)",
     "img:in:bh*8,bw*8;coef:out:bh*8,bw*8;bh:param;bw:param", "img:u:0:255",
     "small:bh=16,bw=16|edge:bh=1,bw=1|edge-prime:bh=3,bw=7|large:bh=1024,bw=2048", "2048*bh*bw",
     "$S*128*bh*bw", 1e-2, 1e-4, 0, 0,
     "#include <math.h>\n\n"
     "static const double PI = 3.141592653589793;\n\n"
     "/* JPEG-style transform: every 8 x 8 block of the (8 bh) x (8 bw) image\n"
     " * (row-major) is level-shifted by 128 and replaced by its orthonormal 2D\n"
     " * DCT-II, coef[u][v] = c(u) c(v) / 4 sum_{x,y} (img[x][y] - 128)\n"
     " * cos((2x + 1) u pi / 16) cos((2y + 1) v pi / 16), c(0) = 1/sqrt(2),\n"
     " * c(k) = 1 otherwise. */\n"
     "void block_dct8(const float *img, float *coef, int bh, int bw)\n{\n"
     "    double basis[8][8];\n"
     "    for (int u = 0; u < 8; u++)\n"
     "        for (int x = 0; x < 8; x++)\n"
     "            basis[u][x] = (u == 0 ? sqrt(0.5) : 1.0) * cos((2 * x + 1) * u * PI / 16);\n"
     "    int width = 8 * bw;\n"
     "    for (int by = 0; by < bh; by++) {\n"
     "        for (int bx = 0; bx < bw; bx++) {\n"
     "            const float *blk = img + (8 * by) * width + 8 * bx;\n"
     "            float *out = coef + (8 * by) * width + 8 * bx;\n"
     "            for (int u = 0; u < 8; u++) {\n"
     "                for (int v = 0; v < 8; v++) {\n"
     "                    double acc = 0.0;\n"
     "                    for (int x = 0; x < 8; x++)\n"
     "                        for (int y = 0; y < 8; y++)\n"
     "                            acc += basis[u][x] * basis[v][y] * (blk[x * width + y] - 128.0);\n"
     "                    out[u * width + v] = acc / 4;\n"
     "                }\n            }\n        }\n    }\n}\n",
     "#define PI 3.141592653589793\n"
     "\n"
     "/* 8 x 8 block DCT-II: one thread per coefficient (u, v) of every block,\n"
     " * over the block's 64 pixels. */\n"
     "extern \"C\" __global__ void block_dct8(const float *img, float *coef, int bh, int bw)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= 64LL * bh * bw)\n"
     "        return;\n"
     "    const int width = 8 * bw;\n"
     "    const int row = (int)(e / width), col = (int)(e % width);\n"
     "    const int u = row % 8, v = col % 8;\n"
     "    const float *blk = img + (long long)(row - u) * width + (col - v);\n"
     "    double bu[8], bv[8];\n"
     "    for (int x = 0; x < 8; x++) {\n"
     "        bu[x] = (u == 0 ? sqrt(0.5) : 1.0) * cos((2 * x + 1) * u * PI / 16);\n"
     "        bv[x] = (v == 0 ? sqrt(0.5) : 1.0) * cos((2 * x + 1) * v * PI / 16);\n"
     "    }\n"
     "    double acc = 0.0;\n"
     "    for (int x = 0; x < 8; x++)\n"
     "        for (int y = 0; y < 8; y++)\n"
     "            acc += bu[x] * bv[y] * (blk[x * width + y] - 128.0);\n"
     "    coef[e] = acc / 4;\n"
     "}\n",
     "block_dct8|(64*bh*bw+255)/256|256||img,coef,bh,bw", NULL,
     "block=256;mapping=one-coefficient-per-thread"},
    {"f32 f64", "dft2d", "dft2d", "2D DFT of a complex image: rows, then columns ($D)",
     "x:in:h,w,2;tmp:out:h,w,2;y:out:h,w,2;h:param;w:param", NULL,
     "small:h=32,w=48|edge:h=1,w=1|edge-prime:h=7,w=13|large:h=4096,w=4096", "8*h*w*(h+w)", "$S*6*h*w", TOLF,
     "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n" TP
     "/* 1D DFT of n complex values spaced stride apart (in (re, im) pairs). */\n"
     "static void dft_strided(const $T *x, $T *y, int n, int stride)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            const $T *v = x + 2 * (size_t)j * stride;\n"
     "            re += v[0] * cos(a) - v[1] * sin(a);\n"
     "            im += v[0] * sin(a) + v[1] * cos(a);\n"
     "        }\n"
     "        y[2 * (size_t)k * stride] = re;\n"
     "        y[2 * (size_t)k * stride + 1] = im;\n"
     "    }\n}\n\n"
     "/* 2D DFT of an h x w complex image (row-major (re, im) pairs), separably:\n"
     " * tmp = the DFT of every row, y = the DFT of every column of tmp. */\n"
     "void dft2d(const $T *x, $T *tmp, $T *y, int h, int w)\n{\n"
     "    for (int r = 0; r < h; r++)\n"
     "        dft_strided(x + 2 * (size_t)r * w, tmp + 2 * (size_t)r * w, w, 1);\n"
     "    for (int c = 0; c < w; c++)\n"
     "        dft_strided(tmp + 2 * c, y + 2 * c, h, w);\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* First launch, tmp = the DFT of every row: one thread per (row, bin). */\n"
     "extern \"C\" __global__ void dft_rows(const $T *x, $T *tmp, int h, int w)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)h * w)\n"
     "        return;\n"
     "    const int r = (int)(e / w), k = (int)(e % w);\n"
     "    const $T *row = x + 2 * (long long)r * w;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < w; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % w) / w;\n"
     "        re += row[2 * j] * cos(a) - row[2 * j + 1] * sin(a);\n"
     "        im += row[2 * j] * sin(a) + row[2 * j + 1] * cos(a);\n"
     "    }\n"
     "    tmp[2 * e] = re;\n"
     "    tmp[2 * e + 1] = im;\n"
     "}\n"
     "\n"
     "/* Second launch, y = the DFT of every column of tmp: one thread per\n"
     " * (bin, column), consecutive threads on consecutive columns. */\n"
     "extern \"C\" __global__ void dft_columns(const $T *tmp, $T *y, int h, int w)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)h * w)\n"
     "        return;\n"
     "    const int k = (int)(e / w), c = (int)(e % w);\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < h; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % h) / h;\n"
     "        const $T *v = tmp + 2 * ((long long)j * w + c);\n"
     "        re += v[0] * cos(a) - v[1] * sin(a);\n"
     "        im += v[0] * sin(a) + v[1] * cos(a);\n"
     "    }\n"
     "    y[2 * e] = re;\n"
     "    y[2 * e + 1] = im;\n"
     "}\n",
     "dft_rows|(h*w+255)/256|256||x,tmp,h,w;dft_columns|(h*w+255)/256|256||tmp,y,h,w", NULL,
     "block=256;mapping=two-launches,one-output-per-thread"},
    {"f32 f64", "batched-complex", "dft_batched", "forward DFT of each row of a batch ($D)",
     "x:in:batch,n,2;y:out:batch,n,2;batch:param;n:param", NULL, BCFG, "8*batch*n*n", "$S*4*batch*n", TOLF,
     "#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n\n" TP
     "/* Forward DFTs of batch complex signals of length n (rows of x, (re, im)\n"
     " * pairs).  The n twiddles exp(-2 pi i m / n) are tabulated once. */\n"
     "void dft_batched(const $T *x, $T *y, int batch, int n)\n{\n"
     "    double *tw = malloc(sizeof(double) * 2 * n);\n"
     "    if (!tw)\n"
     "        return;\n"
     "    for (int m = 0; m < n; m++) {\n"
     "        tw[2 * m] = cos(TWO_PI * m / n);\n"
     "        tw[2 * m + 1] = -sin(TWO_PI * m / n);\n"
     "    }\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const $T *xb = x + 2 * (size_t)b * n;\n"
     "        $T *yb = y + 2 * (size_t)b * n;\n"
     "        for (int k = 0; k < n; k++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            int m = 0; /* (j k) mod n, advanced by k each step */\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                re += xb[2 * j] * tw[2 * m] - xb[2 * j + 1] * tw[2 * m + 1];\n"
     "                im += xb[2 * j] * tw[2 * m + 1] + xb[2 * j + 1] * tw[2 * m];\n"
     "                m += k;\n"
     "                if (m >= n)\n"
     "                    m -= n;\n"
     "            }\n"
     "            yb[2 * k] = re;\n"
     "            yb[2 * k + 1] = im;\n"
     "        }\n    }\n"
     "    free(tw);\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* First launch: the n twiddles exp(-2 pi i m / n), one thread each. */\n"
     "extern \"C\" __global__ void twiddles(double *tw, int n)\n"
     "{\n"
     "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= n)\n"
     "        return;\n"
     "    tw[2 * m] = cos(TWO_PI * m / n);\n"
     "    tw[2 * m + 1] = -sin(TWO_PI * m / n);\n"
     "}\n"
     "\n"
     "/* Second launch, the DFTs: one thread per (signal, bin). */\n"
     "extern \"C\" __global__ void dft_batched(const $T *x, $T *y, int batch, int n, const double *tw)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * n)\n"
     "        return;\n"
     "    const int k = (int)(e % n);\n"
     "    const $T *xb = x + 2 * (e - k);\n"
     "    double re = 0.0, im = 0.0;\n"
     "    int m = 0; /* (j k) mod n, advanced by k each step */\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        re += xb[2 * j] * tw[2 * m] - xb[2 * j + 1] * tw[2 * m + 1];\n"
     "        im += xb[2 * j] * tw[2 * m + 1] + xb[2 * j + 1] * tw[2 * m];\n"
     "        m += k;\n"
     "        if (m >= n)\n"
     "            m -= n;\n"
     "    }\n"
     "    y[2 * e] = re;\n"
     "    y[2 * e + 1] = im;\n"
     "}\n",
     "twiddles|(n+255)/256|256||tw,n;dft_batched|(batch*n+255)/256|256||x,y,batch,n,tw", "tw:f64:2*n",
     "block=256;mapping=two-launches,twiddle-table+one-output-per-thread"},
    {"f32", "batched-power", "power_batched", "power spectra of a batch of real signals ($D)",
     "x:in:batch,n;p:out:batch,n/2+1;batch:param;n:param", NULL, BCFG, "2*batch*n*n", "$S*batch*(n+n/2+1)", TOLP,
     "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n" TP
     "/* Power spectrum |X_k|^2, k = 0..n/2, of each of the batch real signals\n"
     " * (rows of x). */\n"
     "void power_batched(const float *x, float *p, int batch, int n)\n{\n"
     "    int bins = n / 2 + 1;\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const float *xb = x + (size_t)b * n;\n"
     "        for (int k = 0; k < bins; k++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "                re += xb[j] * cos(a);\n"
     "                im -= xb[j] * sin(a);\n"
     "            }\n"
     "            p[(size_t)b * bins + k] = re * re + im * im;\n"
     "        }\n    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Power spectra of a batch: one thread per (signal, bin). */\n"
     "extern \"C\" __global__ void power_batched(const float *x, float *p, int batch, int n)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)batch * (n / 2 + 1))\n"
     "        return;\n"
     "    const int bins = n / 2 + 1;\n"
     "    const int k = (int)(e % bins);\n"
     "    const float *xb = x + e / bins * n;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += xb[j] * cos(a);\n"
     "        im -= xb[j] * sin(a);\n"
     "    }\n"
     "    p[e] = re * re + im * im;\n"
     "}\n",
     "power_batched|(batch*(n/2+1)+255)/256|256||x,p,batch,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "partial-bins", "dft_partial", "the first nk bins of a complex DFT ($D)",
     "x:in:n,2;y:out:nk,2;n:param;nk:param", NULL,
     "small:n=1024,nk=64|edge:n=1,nk=1|edge-prime:n=131,nk=7|large:n=1048576,nk=4096", "8*n*nk",
     "$S*2*(n+nk)", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Only the lowest nk frequency bins (nk <= n) of the DFT of the complex\n"
     " * signal x: y[k] = sum_j x[j] exp(-2 pi i j k / n), k < nk. */\n"
     "void dft_partial(const float *x, float *y, int n, int nk)\n{\n"
     "    for (int k = 0; k < nk; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "            im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* The first nk bins of a complex DFT: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_partial(const float *x, float *y, int n, int nk)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= nk)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "dft_partial|(nk+255)/256|256||x,y,n,nk", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "cross-spectrum", "cross_spectrum", "X_k * conj(Y_k) of two real signals ($D)",
     "x:in:n;y:in:n;s:out:n/2+1,2;n:param", NULL, DCFG, "4*n*n", "$S*(2*n+n+2)", 2e-1, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Cross-spectrum of two real signals: s[k] = X_k * conj(Y_k) for\n"
     " * k = 0..n/2, with X, Y their DFTs; stored as (re, im). */\n"
     "void cross_spectrum(const float *x, const float *y, float *s, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double xr = 0.0, xi = 0.0, yr = 0.0, yi = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), sn = sin(a);\n"
     "            xr += x[j] * c;\n"
     "            xi -= x[j] * sn;\n"
     "            yr += y[j] * c;\n"
     "            yi -= y[j] * sn;\n"
     "        }\n"
     "        s[2 * k] = xr * yr + xi * yi;\n"
     "        s[2 * k + 1] = xi * yr - xr * yi;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Cross-spectrum of two real signals: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void cross_spectrum(const float *x, const float *y, float *s, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double xr = 0.0, xi = 0.0, yr = 0.0, yi = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), sn = sin(a);\n"
     "        xr += x[j] * c;\n"
     "        xi -= x[j] * sn;\n"
     "        yr += y[j] * c;\n"
     "        yi -= y[j] * sn;\n"
     "    }\n"
     "    s[2 * k] = xr * yr + xi * yi;\n"
     "    s[2 * k + 1] = xi * yr - xr * yi;\n"
     "}\n",
     "cross_spectrum|(n/2+1+255)/256|256||x,y,s,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "hartley", "dht", "discrete Hartley transform ($D)", "x:in:n;y:out:n;n:param", NULL, DCFG, "3*n*n",
     "$S*2*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Discrete Hartley transform: y[k] = sum_j x[j] cas(2 pi j k / n) with\n"
     " * cas(t) = cos(t) + sin(t), a real-to-real relative of the DFT. */\n"
     "void dht(const $T *x, $T *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double acc = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            acc += x[j] * (cos(a) + sin(a));\n"
     "        }\n"
     "        y[k] = acc;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Discrete Hartley transform: one thread per output. */\n"
     "extern \"C\" __global__ void dht(const $T *x, $T *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double acc = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        acc += x[j] * (cos(a) + sin(a));\n"
     "    }\n"
     "    y[k] = acc;\n"
     "}\n",
     "dht|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "spectrogram", "spectrogram", "STFT power spectrogram, Hann window, hop between frames ($D)",
     "x:in:n;p:out:(n-win)/hop+1,win/2+1;n:param;win:param;hop:param", NULL,
     "small:n=4096,win=128,hop=64|edge:n=4,win=4,hop=1|edge-prime:n=131,win=16,hop=5|"
     "large:n=4194304,win=1024,hop=256",
     "2*((n-win)/hop+1)*win*win", "$S*(n+((n-win)/hop+1)*(win/2+1))", TOLP,
     "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n" TP
     "/* Short-time power spectrum: frame f covers x[f hop .. f hop + win - 1]\n"
     " * (n >= win), is multiplied by a periodic Hann window and transformed;\n"
     " * p[f][k] = |X_f,k|^2 for k = 0..win/2. */\n"
     "void spectrogram(const $T *x, $T *p, int n, int win, int hop)\n{\n"
     "    int frames = (n - win) / hop + 1, bins = win / 2 + 1;\n"
     "    for (int f = 0; f < frames; f++) {\n"
     "        const $T *frame = x + (size_t)f * hop;\n"
     "        for (int k = 0; k < bins; k++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            for (int j = 0; j < win; j++) {\n"
     "                double v = (0.5 - 0.5 * cos(TWO_PI * j / win)) * frame[j];\n"
     "                double a = TWO_PI * (double)((int64_t)j * k % win) / win;\n"
     "                re += v * cos(a);\n"
     "                im -= v * sin(a);\n"
     "            }\n"
     "            p[(size_t)f * bins + k] = re * re + im * im;\n"
     "        }\n    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* STFT power spectrogram: one thread per (frame, bin). */\n"
     "extern \"C\" __global__ void spectrogram(const $T *x, $T *p, int n, int win, int hop)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)((n - win) / hop + 1) * (win / 2 + 1))\n"
     "        return;\n"
     "    const int bins = win / 2 + 1;\n"
     "    const int f = (int)(e / bins), k = (int)(e % bins);\n"
     "    const $T *frame = x + (long long)f * hop;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < win; j++) {\n"
     "        const double v = (0.5 - 0.5 * cos(TWO_PI * j / win)) * frame[j];\n"
     "        const double a = TWO_PI * (double)((long long)j * k % win) / win;\n"
     "        re += v * cos(a);\n"
     "        im -= v * sin(a);\n"
     "    }\n"
     "    p[e] = re * re + im * im;\n"
     "}\n",
     "spectrogram|(((n-win)/hop+1)*(win/2+1)+255)/256|256||x,p,n,win,hop", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "hamming-windowed", "dft_hamming", "complex DFT of a Hamming-windowed complex signal ($D)",
     "x:in:n,2;y:out:n,2;n:param", NULL, DCFG, "10*n*n", "$S*4*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* DFT of the complex signal x ((re, im) pairs) after a periodic Hamming\n"
     " * window w[j] = 0.54 - 0.46 cos(2 pi j / n). */\n"
     "void dft_hamming(const float *x, float *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double w = 0.54 - 0.46 * cos(TWO_PI * j / n);\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += w * (x[2 * j] * cos(a) - x[2 * j + 1] * sin(a));\n"
     "            im += w * (x[2 * j] * sin(a) + x[2 * j + 1] * cos(a));\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* DFT of a Hamming-windowed complex signal: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_hamming(const float *x, float *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double w = 0.54 - 0.46 * cos(TWO_PI * j / n);\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += w * (x[2 * j] * cos(a) - x[2 * j + 1] * sin(a));\n"
     "        im += w * (x[2 * j] * sin(a) + x[2 * j + 1] * cos(a));\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "dft_hamming|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "blackman-magnitude", "blackman_magnitude", "|DFT| of a Blackman-windowed real signal ($D)",
     "x:in:n;mag:out:n/2+1;n:param", NULL, "small:n=256|edge:n=2|edge-three:n=3|edge-prime:n=131|large:n=65536",
     "4*n*n", "$S*(n+n/2+1)", 0, 0, 1e-9, 1e-7,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Magnitude spectrum (bins 0..n/2) of the real signal x after a periodic\n"
     " * Blackman window w[j] = 0.42 - 0.5 cos(2 pi j / n) + 0.08 cos(4 pi j / n). */\n"
     "void blackman_magnitude(const double *x, double *mag, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double t = TWO_PI * j / n;\n"
     "            double v = (0.42 - 0.5 * cos(t) + 0.08 * cos(2 * t)) * x[j];\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += v * cos(a);\n"
     "            im -= v * sin(a);\n"
     "        }\n"
     "        mag[k] = sqrt(re * re + im * im);\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Blackman-windowed magnitude spectrum: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void blackman_magnitude(const double *x, double *mag, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double t = TWO_PI * j / n;\n"
     "        const double v = (0.42 - 0.5 * cos(t) + 0.08 * cos(2 * t)) * x[j];\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += v * cos(a);\n"
     "        im -= v * sin(a);\n"
     "    }\n"
     "    mag[k] = sqrt(re * re + im * im);\n"
     "}\n",
     "blackman_magnitude|(n/2+1+255)/256|256||x,mag,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "unitary", "dft_unitary", "unitary DFT (1/sqrt(n) scaling) ($D)", "x:in:n,2;y:out:n,2;n:param", NULL,
     DCFG, "8*n*n", "$S*4*n", 0, 0, 1e-9, 1e-7,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Unitary DFT: y[k] = n^(-1/2) sum_j x[j] exp(-2 pi i j k / n), which\n"
     " * preserves the norm of the (re, im) interleaved signal. */\n"
     "void dft_unitary(const double *x, double *y, int n)\n{\n"
     "    double scale = 1.0 / sqrt((double)n);\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "            im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "        }\n"
     "        y[2 * k] = scale * re;\n"
     "        y[2 * k + 1] = scale * im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Unitary DFT: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_unitary(const double *x, double *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    const double scale = 1.0 / sqrt((double)n);\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "    }\n"
     "    y[2 * k] = scale * re;\n"
     "    y[2 * k + 1] = scale * im;\n"
     "}\n",
     "dft_unitary|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "shifted", "dft_shifted", "complex DFT with the zero frequency moved to the centre (fftshift) ($D)",
     "x:in:n,2;y:out:n,2;n:param", NULL, DCFG, "8*n*n", "$S*4*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Centred spectrum: output position m holds DFT bin k = m - n/2 (taken mod\n"
     " * n), so frequencies run from the most negative to the most positive, as\n"
     " * after fftshift. */\n"
     "void dft_shifted(const float *x, float *y, int n)\n{\n"
     "    for (int m = 0; m < n; m++) {\n"
     "        int k = (m + n - n / 2) % n;\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "            im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "        }\n"
     "        y[2 * m] = re;\n"
     "        y[2 * m + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* fftshifted DFT: one thread per output position m (bin m - n/2 mod n). */\n"
     "extern \"C\" __global__ void dft_shifted(const float *x, float *y, int n)\n"
     "{\n"
     "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= n)\n"
     "        return;\n"
     "    const int k = (m + n - n / 2) % n;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);\n"
     "        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);\n"
     "    }\n"
     "    y[2 * m] = re;\n"
     "    y[2 * m + 1] = im;\n"
     "}\n",
     "dft_shifted|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"u8", "u8-power", "power_u8", "power spectrum of an 8-bit signal (mean removed), f32 result",
     "x:in:n;p:out:n/2+1:f32;n:param", NULL, "small:n=256|edge:n=2|edge-three:n=3|edge-prime:n=131|large:n=65536",
     "2*n*n", "n+4*(n/2+1)", 1e3, 1e-3, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Power spectrum (bins 0..n/2) of an 8-bit signal after removing its mean,\n"
     " * so that bin 0 is zero up to rounding. */\n"
     "void power_u8(const uint8_t *x, float *p, int n)\n{\n"
     "    double mean = 0.0;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        mean += x[j];\n"
     "    mean /= n;\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += (x[j] - mean) * cos(a);\n"
     "            im -= (x[j] - mean) * sin(a);\n"
     "        }\n"
     "        p[k] = re * re + im * im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     BLOCK_SUM("double")
     "/* First launch: the mean of the samples, by one block (the sum of 8-bit\n"
     " * values is exact in double, so the order does not matter). */\n"
     "extern \"C\" __global__ void sample_mean(const unsigned char *x, double *mean, int n)\n"
     "{\n"
     "    double s = 0.0;\n"
     "    for (int j = threadIdx.x; j < n; j += blockDim.x)\n"
     "        s += x[j];\n"
     "    s = block_sum(s);\n"
     "    if (threadIdx.x == 0)\n"
     "        mean[0] = s / n;\n"
     "}\n"
     "\n"
     "/* Second launch, the power spectrum of the centred signal: one thread per\n"
     " * bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void power_u8(const unsigned char *x, float *p, int n, const double *mean)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    const double mu = mean[0];\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += (x[j] - mu) * cos(a);\n"
     "        im -= (x[j] - mu) * sin(a);\n"
     "    }\n"
     "    p[k] = re * re + im * im;\n"
     "}\n",
     "sample_mean|1|256||x,mean,n;power_u8|(n/2+1+255)/256|256||x,p,n,mean", "mean:f64:1",
     "block=256;mapping=two-launches,block-sum+one-output-per-thread"},
    {"i16", "i16-magnitude", "magnitude_i16", "magnitude spectrum of 16-bit audio samples, f64 result",
     "x:in:n;mag:out:n/2+1:f64;n:param", "x:i:-32768:32768", DCFG, "4*n*n", "2*n+8*(n/2+1)", 0, 0, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Magnitude spectrum (bins 0..n/2) of 16-bit audio, on the full-scale\n"
     " * range: samples are divided by 32768 first. */\n"
     "void magnitude_i16(const int16_t *x, double *mag, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double v = x[j] / 32768.0;\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            re += v * cos(a);\n"
     "            im -= v * sin(a);\n"
     "        }\n"
     "        mag[k] = sqrt(re * re + im * im);\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Magnitude spectrum of 16-bit audio: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void magnitude_i16(const short *x, double *mag, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double v = x[j] / 32768.0;\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        re += v * cos(a);\n"
     "        im -= v * sin(a);\n"
     "    }\n"
     "    mag[k] = sqrt(re * re + im * im);\n"
     "}\n",
     "magnitude_i16|(n/2+1+255)/256|256||x,mag,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"i32", "i32-complex", "dft_i32", "DFT of complex int32 samples, f64 result",
     "x:in:n,2;y:out:n,2:f64;n:param", "x:i:-1000000:1000000", DCFG, "8*n*n", "8*n+16*n", 1e-3, 1e-9, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Forward DFT of complex integer samples ((re, im) int32 pairs, e.g. from\n"
     " * an ADC) into double precision: y[k] = sum_j x[j] exp(-2 pi i j k / n). */\n"
     "void dft_i32(const int32_t *x, double *y, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), s = sin(a);\n"
     "            re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "            im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* DFT of complex int32 samples: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_i32(const int *x, double *y, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), s = sin(a);\n"
     "        re += x[2 * j] * c - x[2 * j + 1] * s;\n"
     "        im += x[2 * j] * s + x[2 * j + 1] * c;\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "dft_i32|(n+255)/256|256||x,y,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32", "planar-real", "rdft_planar", "half spectrum of a real signal into separate re and im arrays ($D)",
     "x:in:n;re:out:n/2+1;im:out:n/2+1;n:param", NULL,
     "small:n=256|edge:n=3|edge-four:n=4|edge-prime:n=131|large:n=65536", "2*n*n", "$S*(n+n+2)", TOLF,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Real-input DFT, bins 0..n/2, in planar layout: the real parts in re[],\n"
     " * the imaginary parts in im[]. */\n"
     "void rdft_planar(const float *x, float *re, float *im, int n)\n{\n"
     "    for (int k = 0; k <= n / 2; k++) {\n"
     "        double sr = 0.0, si = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            sr += x[j] * cos(a);\n"
     "            si -= x[j] * sin(a);\n"
     "        }\n"
     "        re[k] = sr;\n"
     "        im[k] = si;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Planar half spectrum of a real signal: one thread per bin k = 0..n/2. */\n"
     "extern \"C\" __global__ void rdft_planar(const float *x, float *re, float *im, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n / 2 + 1)\n"
     "        return;\n"
     "    double sr = 0.0, si = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        sr += x[j] * cos(a);\n"
     "        si -= x[j] * sin(a);\n"
     "    }\n"
     "    re[k] = sr;\n"
     "    im[k] = si;\n"
     "}\n",
     "rdft_planar|(n/2+1+255)/256|256||x,re,im,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f64", "planar-complex", "dft_planar", "complex DFT with planar (separate re, im) input and output ($D)",
     "xr:in:n;xi:in:n;yr:out:n;yi:out:n;n:param", NULL, DCFG, "8*n*n", "$S*4*n", 0, 0, 1e-9, 1e-7,
     "#include <math.h>\n#include <stdint.h>\n\n" TP
     "/* Forward DFT of a complex signal held in planar form (real parts xr[],\n"
     " * imaginary parts xi[]), written the same way to yr[], yi[]. */\n"
     "void dft_planar(const double *xr, const double *xi, double *yr, double *yi, int n)\n{\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double a = -TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "            double c = cos(a), s = sin(a);\n"
     "            re += xr[j] * c - xi[j] * s;\n"
     "            im += xr[j] * s + xi[j] * c;\n"
     "        }\n"
     "        yr[k] = re;\n"
     "        yi[k] = im;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* Planar complex DFT: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_planar(const double *xr, const double *xi, double *yr, double *yi, int n)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const double a = -TWO_PI * (double)((long long)j * k % n) / n;\n"
     "        const double c = cos(a), s = sin(a);\n"
     "        re += xr[j] * c - xi[j] * s;\n"
     "        im += xr[j] * s + xi[j] * c;\n"
     "    }\n"
     "    yr[k] = re;\n"
     "    yi[k] = im;\n"
     "}\n",
     "dft_planar|(n+255)/256|256||xr,xi,yr,yi,n", NULL,
     "block=256;mapping=one-output-per-thread"},
    {"f32 f64", "twiddle-table", "dft_table", "complex DFT with a precomputed twiddle table ($D)",
     "x:in:n,2;y:out:n,2;n:param", NULL, DCFG, "8*n*n", "$S*4*n", TOLF,
     "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\n" TP
     "/* Forward DFT (complex (re, im) pairs) with the n roots of unity\n"
     " * exp(-2 pi i m / n) computed once: bin k uses root (j k) mod n for\n"
     " * sample j. */\n"
     "void dft_table(const $T *x, $T *y, int n)\n{\n"
     "    double *wr = malloc(sizeof(double) * n), *wi = malloc(sizeof(double) * n);\n"
     "    if (!wr || !wi) {\n"
     "        free(wr);\n"
     "        free(wi);\n"
     "        return;\n"
     "    }\n"
     "    for (int m = 0; m < n; m++) {\n"
     "        wr[m] = cos(TWO_PI * m / n);\n"
     "        wi[m] = -sin(TWO_PI * m / n);\n"
     "    }\n"
     "    for (int k = 0; k < n; k++) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int m = (int)((int64_t)j * k % n);\n"
     "            re += x[2 * j] * wr[m] - x[2 * j + 1] * wi[m];\n"
     "            im += x[2 * j] * wi[m] + x[2 * j + 1] * wr[m];\n"
     "        }\n"
     "        y[2 * k] = re;\n"
     "        y[2 * k + 1] = im;\n"
     "    }\n"
     "    free(wr);\n"
     "    free(wi);\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     "/* First launch: the n roots of unity exp(-2 pi i m / n), one thread each. */\n"
     "extern \"C\" __global__ void twiddles(double *wr, double *wi, int n)\n"
     "{\n"
     "    const int m = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (m >= n)\n"
     "        return;\n"
     "    wr[m] = cos(TWO_PI * m / n);\n"
     "    wi[m] = -sin(TWO_PI * m / n);\n"
     "}\n"
     "\n"
     "/* Second launch, the DFT from the table: one thread per bin. */\n"
     "extern \"C\" __global__ void dft_table(const $T *x, $T *y, int n, const double *wr, const double *wi)\n"
     "{\n"
     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k >= n)\n"
     "        return;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        const int m = (int)((long long)j * k % n);\n"
     "        re += x[2 * j] * wr[m] - x[2 * j + 1] * wi[m];\n"
     "        im += x[2 * j] * wi[m] + x[2 * j + 1] * wr[m];\n"
     "    }\n"
     "    y[2 * k] = re;\n"
     "    y[2 * k + 1] = im;\n"
     "}\n",
     "twiddles|(n+255)/256|256||wr,wi,n;dft_table|(n+255)/256|256||x,y,n,wr,wi", "wr:f64:n;wi:f64:n",
     "block=256;mapping=two-launches,twiddle-table+one-output-per-thread"},
    {"f32", "band-energy", "band_energy", "energy in DFT bins [lo, hi] of each signal of a batch ($D)",
     "x:in:batch,n;e:out:batch;batch:param;n:param;lo:param;hi:param", NULL,
     "small:batch=16,n=512,lo=10,hi=40|edge:batch=1,n=1,lo=0,hi=0|edge-prime:batch=3,n=131,lo=3,hi=17|"
     "large:batch=256,n=8192,lo=100,hi=900",
     "4*batch*n*(hi-lo+1)", "$S*batch*(n+1)", 1e0, 1e-3, 0, 0,
     "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n" TP
     "/* Spectral band energy: for each of the batch real signals (rows of x),\n"
     " * e[b] = sum_{k=lo}^{hi} |X_k|^2 with 0 <= lo <= hi < n. */\n"
     "void band_energy(const float *x, float *e, int batch, int n, int lo, int hi)\n{\n"
     "    for (int b = 0; b < batch; b++) {\n"
     "        const float *xb = x + (size_t)b * n;\n"
     "        double total = 0.0;\n"
     "        for (int k = lo; k <= hi; k++) {\n"
     "            double re = 0.0, im = 0.0;\n"
     "            for (int j = 0; j < n; j++) {\n"
     "                double a = TWO_PI * (double)((int64_t)j * k % n) / n;\n"
     "                re += xb[j] * cos(a);\n"
     "                im -= xb[j] * sin(a);\n"
     "            }\n"
     "            total += re * re + im * im;\n"
     "        }\n"
     "        e[b] = total;\n"
     "    }\n}\n",
     "#define TWO_PI 6.283185307179586\n"
     "\n"
     BLOCK_SUM("double")
     "/* Spectral band energy: one block per signal, its threads sharing the bins\n"
     " * lo..hi; the bins' powers are summed with block_sum. */\n"
     "extern \"C\" __global__ void band_energy(const float *x, float *e, int batch, int n, int lo, int hi)\n"
     "{\n"
     "    const int b = blockIdx.x;\n"
     "    const float *xb = x + (long long)b * n;\n"
     "    double total = 0.0;\n"
     "    for (int k = lo + threadIdx.x; k <= hi; k += blockDim.x) {\n"
     "        double re = 0.0, im = 0.0;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            const double a = TWO_PI * (double)((long long)j * k % n) / n;\n"
     "            re += xb[j] * cos(a);\n"
     "            im -= xb[j] * sin(a);\n"
     "        }\n"
     "        total += re * re + im * im;\n"
     "    }\n"
     "    total = block_sum(total);\n"
     "    if (threadIdx.x == 0)\n"
     "        e[b] = total;\n"
     "}\n",
     "band_energy|batch|256||x,e,batch,n,lo,hi", NULL,
     "block=256;mapping=one-signal-per-block,bins-per-thread,block-sum"},
};

static int generate(GenCtx *g)
{
    return spec_emit_all(g, SPECS, (int)(sizeof SPECS / sizeof *SPECS));
}

const Family family_dft = {"dft", "signal", 54, generate};
