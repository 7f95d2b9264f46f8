/* histogram — counting into bins: integer data (direct, range-binned,
 * clamped, checked, compile-time and parameter bin counts from 9 to 2^20),
 * real data (histc-style equal bins with values outside ignored, clamped or
 * counted in underflow/overflow bins; arbitrary sorted edges found by binary
 * search, left- or right-closed; densities), weighted histograms (f32 with
 * double accumulation, f64, integer weights), 2D histograms, joint label
 * histograms and confusion matrices, per-row, per-column and per-tile
 * histograms, byte histograms of u8 images (pitched rows, regions, RGB and
 * RGBA channels, luma, nibbles, 3D colour cubes, cumulative histograms,
 * equalisation), u16 sample histograms, hash-bucket sizes, bit-count,
 * leading-digit and magnitude histograms, orientation histograms weighted by
 * gradient magnitude, and binned statistics (mean, max).
 *
 * Counts of real-valued data allow a relative 1e-3 (small counts stay exact):
 * a parallel version computing the bin with fast-math division or in a
 * different order may move a sample lying within an ulp of an edge. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_prog.h"

/* The pairs: the outputs arrive poisoned, so every plan first zeroes what it
 * counts into (a zeroing launch over the bins), then counts with one thread
 * per element and global atomics.  64-bit counts use the unsigned long long
 * atomicAdd (two's complement makes signed weights add correctly); f32 sums
 * the C code accumulates in double go to an f64 scratch buffer that a last
 * launch converts; normalisations finish in one block that reduces the
 * total in shared memory.  The zeroing and conversion kernels are shared. */
#define ZERO_I32 \
    "/* p[i] = 0 for i in [0, n): the outputs arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_i32(int *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0;\n" \
    "}\n" \
    "\n"

#define ZERO_I64 \
    "/* p[i] = 0 for i in [0, n): the outputs arrive poisoned. */\n" \
    "extern \"C\" __global__ void zero_i64(long long *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0;\n" \
    "}\n" \
    "\n"

#define ZERO_F64 \
    "/* p[i] = 0 for i in [0, n): scratch arrives poisoned. */\n" \
    "extern \"C\" __global__ void zero_f64(double *p, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        p[i] = 0.0;\n" \
    "}\n" \
    "\n"

#define F64_TO_F32 \
    "/* out[i] = (float)acc[i]: the double accumulators rounded once, as in C. */\n" \
    "extern \"C\" __global__ void f64_to_f32(const double *acc, float *out, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        out[i] = (float)acc[i];\n" \
    "}\n" \
    "\n"

static const Prog PROGS[] = {
    {"int-i32", "histogram",
     "counts[b] = #{i : x[i] == b} for integer data in [0, nbins)",
     "x:i32:in:n;counts:i32:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:0:nbins",
     "",
     {"n=100000,nbins=256", "n=1,nbins=1", "n=7919,nbins=37", "n=134217728,nbins=4096"},
     "n", "4*n+4*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = #{i : x[i] == b}; every x[i] lies in [0, nbins). */\n"
     "void histogram(const int32_t *x, int32_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[x[i]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: counts[x[i]] += 1 atomically. */\n"
     "extern \"C\" __global__ void histogram(const int *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[x[i]], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"bytes-u8", "byte_histogram",
     "256-bin histogram of n bytes",
     "data:u8:in:n;counts:i32:out:256;n:i32:param",
     "",
     "",
     {"n=100000", "n=1", "n=7919", "n=268435456"},
     "n", "n+1024", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[v] = number of bytes of data equal to v, for v = 0..255. */\n"
     "void byte_histogram(const uint8_t *data, int32_t *counts, int n)\n"
     "{\n"
     "    for (int v = 0; v < 256; v++)\n"
     "        counts[v] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[data[i]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per byte: counts[data[i]] += 1 atomically. */\n"
     "extern \"C\" __global__ void byte_histogram(const unsigned char *data, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[data[i]], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,256"},
      {"byte_histogram", "(n+255)/256", "256", NULL, "data,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"int-i32-checked-i64counts", "histogram_checked",
     "integer histogram with 64-bit counts; values outside [0, nbins) are skipped",
     "x:i32:in:n;counts:i64:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:-10:nbins+10",
     "",
     {"n=100000,nbins=1000", "n=1,nbins=2", "n=7919,nbins=101", "n=134217728,nbins=1000"},
     "2*n", "4*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = #{i : x[i] == b} for b in [0, nbins); values outside that range\n"
     " * are not counted. */\n"
     "void histogram_checked(const int32_t *x, int64_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t v = x[i];\n"
     "        if (v >= 0 && v < nbins)\n"
     "            counts[v]++;\n"
     "    }\n"
     "}\n",
     ZERO_I64
     "/* One thread per element; values outside [0, nbins) are skipped. */\n"
     "extern \"C\" __global__ void histogram_checked(const int *x, long long *counts, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int v = x[i];\n"
     "    if (v >= 0 && v < nbins)\n"
     "        atomicAdd((unsigned long long *)&counts[v], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_checked", "(n+255)/256", "256", NULL, "x,counts,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"int-range-ignore", "histogram_range",
     "nbins equal bins over the integer range [lo, hi); values outside are ignored",
     "x:i32:in:n;counts:i32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=int:-5000:5000",
     "lo:i32:-1000;hi:i32:3000",
     {"n=100000,nbins=100", "n=1,nbins=1", "n=7919,nbins=13", "n=134217728,nbins=2000"},
     "4*n", "4*n+4*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins equal-width bins over the integer range [lo, hi): x goes to bin\n"
     " * (x - lo) * nbins / (hi - lo) (integer division); values outside [lo, hi)\n"
     " * are ignored.  Requires lo < hi. */\n"
     "void histogram_range(const int32_t *x, int32_t *counts, int32_t lo, int32_t hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    int64_t span = (int64_t)hi - lo;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t v = x[i];\n"
     "        if (v < lo || v >= hi)\n"
     "            continue;\n"
     "        counts[((int64_t)v - lo) * nbins / span]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: bin (x - lo) * nbins / (hi - lo) in 64-bit\n"
     " * integers; values outside [lo, hi) are ignored. */\n"
     "extern \"C\" __global__ void histogram_range(const int *x, int *counts, int lo, int hi, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int v = x[i];\n"
     "    if (v < lo || v >= hi)\n"
     "        return;\n"
     "    const long long span = (long long)hi - lo;\n"
     "    atomicAdd(&counts[((long long)v - lo) * nbins / span], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_range", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"int-range-clamp", "histogram_range_clamped",
     "nbins equal bins over [lo, hi); values below lo count in the first bin, values at or above hi in the last",
     "x:i32:in:n;counts:i64:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=int:-1000000:1000000",
     "lo:i32:-800000;hi:i32:600000",
     {"n=100000,nbins=64", "n=1,nbins=1", "n=7919,nbins=7", "n=134217728,nbins=64"},
     "4*n", "4*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins equal-width bins over [lo, hi): x goes to bin (x - lo) * nbins /\n"
     " * (hi - lo); values below lo are counted in bin 0 and values at or above hi\n"
     " * in bin nbins - 1.  Requires lo < hi. */\n"
     "void histogram_range_clamped(const int32_t *x, int64_t *counts, int32_t lo, int32_t hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    int64_t span = (int64_t)hi - lo;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t v = x[i];\n"
     "        int64_t b;\n"
     "        if (v < lo)\n"
     "            b = 0;\n"
     "        else if (v >= hi)\n"
     "            b = nbins - 1;\n"
     "        else\n"
     "            b = ((int64_t)v - lo) * nbins / span;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I64
     "/* One thread per element: bin (x - lo) * nbins / (hi - lo), values below lo\n"
     " * in bin 0 and values at or above hi in the last bin. */\n"
     "extern \"C\" __global__ void histogram_range_clamped(const int *x, long long *counts, int lo, int hi, int n,\n"
     "                                                   int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int v = x[i];\n"
     "    long long b;\n"
     "    if (v < lo)\n"
     "        b = 0;\n"
     "    else if (v >= hi)\n"
     "        b = nbins - 1;\n"
     "    else\n"
     "        b = ((long long)v - lo) * nbins / ((long long)hi - lo);\n"
     "    atomicAdd((unsigned long long *)&counts[b], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_range_clamped", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f32-histc", "histc",
     "torch.histc-style histogram of f32 data: nbins equal bins over [lo, hi], values outside ignored",
     "x:f32:in:n;counts:i32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-1.2:1.2",
     "lo:f32:-1;hi:f32:1",
     {"n=100000,nbins=100", "n=1,nbins=1", "n=7919,nbins=17", "n=134217728,nbins=1000"},
     "4*n", "4*n+4*nbins", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins equal-width bins over [lo, hi]: x goes to bin\n"
     " * (int)((x - lo) * (nbins / (hi - lo))), computed in float, with x == hi in\n"
     " * the last bin; values outside [lo, hi] are ignored.  Requires lo < hi. */\n"
     "void histc(const float *x, int32_t *counts, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        if (v < lo || v > hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: bin (int)((x - lo) * (nbins / (hi - lo))) in float,\n"
     " * x == hi in the last bin, values outside [lo, hi] ignored. */\n"
     "extern \"C\" __global__ void histc(const float *x, int *counts, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    if (v < lo || v > hi)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    int b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&counts[b], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histc", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f64-histc", "histc",
     "histogram of f64 data: nbins equal bins over [lo, hi], values outside ignored",
     "x:f64:in:n;counts:i32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:0:12",
     "lo:f64:1;hi:f64:11",
     {"n=100000,nbins=50", "n=1,nbins=1", "n=7919,nbins=23", "n=67108864,nbins=65536"},
     "4*n", "8*n+4*nbins", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins equal-width bins over [lo, hi]: x goes to bin\n"
     " * (int)((x - lo) * (nbins / (hi - lo))), with x == hi in the last bin; values\n"
     " * outside [lo, hi] are ignored.  Requires lo < hi. */\n"
     "void histc(const double *x, int32_t *counts, double lo, double hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    const double scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double v = x[i];\n"
     "        if (v < lo || v > hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: bin (int)((x - lo) * (nbins / (hi - lo))), x == hi\n"
     " * in the last bin, values outside [lo, hi] ignored. */\n"
     "extern \"C\" __global__ void histc(const double *x, int *counts, double lo, double hi, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double v = x[i];\n"
     "    if (v < lo || v > hi)\n"
     "        return;\n"
     "    const double scale = nbins / (hi - lo);\n"
     "    int b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&counts[b], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histc", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f32-clamp", "histogram_clamped",
     "f32 histogram over [lo, hi) whose end bins also collect the values outside",
     "x:f32:in:n;counts:i32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-3:3",
     "lo:f32:-2;hi:f32:2",
     {"n=100000,nbins=32", "n=1,nbins=2", "n=7919,nbins=11", "n=134217728,nbins=256"},
     "4*n", "4*n+4*nbins", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins equal-width bins over [lo, hi); values below lo fall in bin 0 and\n"
     " * values at or above hi in bin nbins - 1.  The bin of x inside the range is\n"
     " * (int)((x - lo) * (nbins / (hi - lo))), computed in float. */\n"
     "void histogram_clamped(const float *x, int32_t *counts, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        int b;\n"
     "        if (v < lo)\n"
     "            b = 0;\n"
     "        else if (v >= hi)\n"
     "            b = nbins - 1;\n"
     "        else\n"
     "            b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: values below lo in bin 0, at or above hi in the\n"
     " * last bin, others in bin (int)((x - lo) * (nbins / (hi - lo))) (float). */\n"
     "extern \"C\" __global__ void histogram_clamped(const float *x, int *counts, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    int b;\n"
     "    if (v < lo)\n"
     "        b = 0;\n"
     "    else if (v >= hi)\n"
     "        b = nbins - 1;\n"
     "    else\n"
     "        b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&counts[b], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_clamped", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f64-underflow-overflow", "histogram_with_outliers",
     "f64 histogram over [lo, hi) with an underflow bin 0 and an overflow bin nbins+1",
     "x:f64:in:n;counts:i64:out:nbins+2;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-1.5:1.5",
     "lo:f64:-1;hi:f64:1",
     {"n=100000,nbins=40", "n=1,nbins=1", "n=7919,nbins=29", "n=67108864,nbins=200"},
     "4*n", "8*n+8*nbins", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts has nbins + 2 entries: counts[0] counts x < lo, counts[nbins + 1]\n"
     " * counts x >= hi, and counts[1 + b] the x in bin b of nbins equal-width bins\n"
     " * over [lo, hi), b = (int)((x - lo) * (nbins / (hi - lo))). */\n"
     "void histogram_with_outliers(const double *x, int64_t *counts, double lo, double hi, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)(nbins + 2) * sizeof *counts);\n"
     "    const double scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double v = x[i];\n"
     "        if (v < lo) {\n"
     "            counts[0]++;\n"
     "        } else if (v >= hi) {\n"
     "            counts[nbins + 1]++;\n"
     "        } else {\n"
     "            int b = (int)((v - lo) * scale);\n"
     "            counts[1 + (b < nbins ? b : nbins - 1)]++;\n"
     "        }\n"
     "    }\n"
     "}\n",
     ZERO_I64
     "/* One thread per element: counts[0] takes x < lo, counts[nbins + 1] takes\n"
     " * x >= hi, counts[1 + b] the rest. */\n"
     "extern \"C\" __global__ void histogram_with_outliers(const double *x, long long *counts, double lo, double hi, int n,\n"
     "                                                   int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double v = x[i];\n"
     "    int slot;\n"
     "    if (v < lo) {\n"
     "        slot = 0;\n"
     "    } else if (v >= hi) {\n"
     "        slot = nbins + 1;\n"
     "    } else {\n"
     "        const int b = (int)((v - lo) * (nbins / (hi - lo)));\n"
     "        slot = 1 + (b < nbins ? b : nbins - 1);\n"
     "    }\n"
     "    atomicAdd((unsigned long long *)&counts[slot], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nbins+2+255)/256", "256", NULL, "counts,nbins+2"},
      {"histogram_with_outliers", "(n+255)/256", "256", NULL, "x,counts,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f32-unit-64bins", "unit_histogram",
     "64 fixed bins over [0, 1) for f32 data",
     "x:f32:in:n;counts:i32:out:64;n:i32:param",
     "x=uniform:0:1",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "2*n", "4*n+256", 0.0, 0.001,
     "#include <stdint.h>\n"
     "\n"
     "#define NBINS 64\n"
     "\n"
     "/* 64 equal bins over [0, 1): x goes to bin (int)(x * 64); every x lies in\n"
     " * [0, 1], and x == 1 is put in the last bin. */\n"
     "void unit_histogram(const float *x, int32_t *counts, int n)\n"
     "{\n"
     "    for (int b = 0; b < NBINS; b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int b = (int)(x[i] * NBINS);\n"
     "        counts[b < NBINS ? b : NBINS - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "#define NBINS 64\n"
     "\n"
     "/* One thread per element: bin (int)(x * 64), x == 1 in the last bin. */\n"
     "extern \"C\" __global__ void unit_histogram(const float *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int b = (int)(x[i] * NBINS);\n"
     "    atomicAdd(&counts[b < NBINS ? b : NBINS - 1], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,64"},
      {"unit_histogram", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"weighted-f32", "weighted_histogram",
     "weighted f32 histogram: per-bin sums of weights over [lo, hi)",
     "x:f32:in:n;w:f32:in:n;hist:f32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-0.1:1.1;w=uniform:0:1",
     "lo:f32:0;hi:f32:1",
     {"n=100000,nbins=128", "n=1,nbins=1", "n=7919,nbins=19", "n=134217728,nbins=512"},
     "5*n", "8*n+4*nbins", 0.0001, 0.001,
     "#include <stdlib.h>\n"
     "\n"
     "/* hist[b] = sum of w[i] over the x[i] in bin b of nbins equal-width bins over\n"
     " * [lo, hi), b = (int)((x - lo) * (nbins / (hi - lo))) in float; x outside\n"
     " * [lo, hi) is ignored.  Sums are accumulated in double. */\n"
     "void weighted_histogram(const float *x, const float *w, float *hist, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    double *acc = calloc((size_t)nbins, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        if (v < lo || v >= hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        acc[b] += w[i];\n"
     "    }\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        hist[b] = (float)acc[b];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per element: acc[b] += w[i] in double (atomically) for x in\n"
     " * [lo, hi), b = (int)((x - lo) * (nbins / (hi - lo))) in float. */\n"
     "extern \"C\" __global__ void weighted_histogram(const float *x, const float *w, double *acc, float lo, float hi, int n,\n"
     "                                              int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    if (v < lo || v >= hi)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    int b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&acc[b], (double)w[i]);\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "acc,nbins"},
      {"weighted_histogram", "(n+255)/256", "256", NULL, "x,w,acc,lo,hi,n,nbins"},
      {"f64_to_f32", "(nbins+255)/256", "256", NULL, "acc,hist,nbins"}},
     "acc:f64:nbins", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"weighted-f64", "weighted_histogram",
     "weighted f64 histogram over [lo, hi]",
     "x:f64:in:n;w:f64:in:n;hist:f64:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-6:6;w=uniform:-1:2",
     "lo:f64:-5;hi:f64:5",
     {"n=100000,nbins=64", "n=1,nbins=1", "n=7919,nbins=31", "n=33554432,nbins=10000"},
     "5*n", "16*n+8*nbins", 1e-09, 1e-07,
     "#include <stddef.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* hist[b] = sum of w[i] over the x[i] in bin b of nbins equal-width bins over\n"
     " * [lo, hi], b = (int)((x - lo) * (nbins / (hi - lo))), x == hi in the last\n"
     " * bin; x outside [lo, hi] is ignored. */\n"
     "void weighted_histogram(const double *x, const double *w, double *hist, double lo, double hi, int n, int nbins)\n"
     "{\n"
     "    memset(hist, 0, (size_t)nbins * sizeof *hist);\n"
     "    const double scale = nbins / (hi - lo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double v = x[i];\n"
     "        if (v < lo || v > hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        hist[b] += w[i];\n"
     "    }\n"
     "}\n",
     ZERO_F64
     "/* One thread per element: hist[b] += w[i] atomically for x in [lo, hi], x == hi\n"
     " * in the last bin. */\n"
     "extern \"C\" __global__ void weighted_histogram(const double *x, const double *w, double *hist, double lo, double hi,\n"
     "                                              int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double v = x[i];\n"
     "    if (v < lo || v > hi)\n"
     "        return;\n"
     "    const double scale = nbins / (hi - lo);\n"
     "    int b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&hist[b], w[i]);\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "hist,nbins"},
      {"weighted_histogram", "(n+255)/256", "256", NULL, "x,w,hist,lo,hi,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"weighted-f32-density", "weighted_density",
     "weighted f32 histogram normalised to a probability density",
     "x:f32:in:n;w:f32:in:n;density:f32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-1:5;w=uniform:0.1:1",
     "lo:f32:0;hi:f32:4",
     {"n=100000,nbins=50", "n=1,nbins=1", "n=7919,nbins=13", "n=134217728,nbins=100"},
     "6*n", "8*n+4*nbins", 0.0001, 0.001,
     "#include <stdlib.h>\n"
     "\n"
     "/* A weighted histogram over [lo, hi) normalised to a density: with W the\n"
     " * total weight of the x inside the range and width = (hi - lo) / nbins,\n"
     " * density[b] = (sum of w[i] over the x[i] in bin b) / (W * width); all zero\n"
     " * when W is 0.  The bin of x is (int)((x - lo) * (nbins / (hi - lo))) in\n"
     " * float; sums are accumulated in double. */\n"
     "void weighted_density(const float *x, const float *w, float *density, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    double *acc = calloc((size_t)nbins, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    double total = 0.0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        if (v < lo || v >= hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        acc[b] += w[i];\n"
     "        total += w[i];\n"
     "    }\n"
     "    double width = ((double)hi - lo) / nbins;\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        density[b] = total > 0.0 ? (float)(acc[b] / (total * width)) : 0.0f;\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     "/* One thread per element: acc[b] += w[i] in double for x in [lo, hi). */\n"
     "extern \"C\" __global__ void weighted_bins(const float *x, const float *w, double *acc, float lo, float hi, int n,\n"
     "                                         int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    if (v < lo || v >= hi)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    int b = (int)((v - lo) * scale);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&acc[b], (double)w[i]);\n"
     "}\n"
     "\n"
     "/* One block: the total weight W = sum of acc (shared-memory tree reduction),\n"
     " * then density[b] = acc[b] / (W * width), all zero when W is 0. */\n"
     "extern \"C\" __global__ void weighted_density(const double *acc, float *density, float lo, float hi, int nbins)\n"
     "{\n"
     "    extern __shared__ double part[];\n"
     "    double s = 0.0;\n"
     "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
     "        s += acc[b];\n"
     "    part[threadIdx.x] = s;\n"
     "    __syncthreads();\n"
     "    for (int half = blockDim.x / 2; half > 0; half /= 2) {\n"
     "        if (threadIdx.x < half)\n"
     "            part[threadIdx.x] += part[threadIdx.x + half];\n"
     "        __syncthreads();\n"
     "    }\n"
     "    const double total = part[0];\n"
     "    const double width = ((double)hi - lo) / nbins;\n"
     "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
     "        density[b] = total > 0.0 ? (float)(acc[b] / (total * width)) : 0.0f;\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "acc,nbins"},
      {"weighted_bins", "(n+255)/256", "256", NULL, "x,w,acc,lo,hi,n,nbins"},
      {"weighted_density", "1", "256", "256*8", "acc,density,lo,hi,nbins"}},
     "acc:f64:nbins", "block=256;mapping=one-element-per-thread-global-atomics-f64+block-reduction-shared"},
    {"weighted-int-i32", "weighted_bincount",
     "integer values with integer weights: per-bin weight totals in 64 bits",
     "x:i32:in:n;w:i32:in:n;hist:i64:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:0:nbins;w=int:-50:1000",
     "",
     {"n=100000,nbins=300", "n=1,nbins=1", "n=7919,nbins=41", "n=134217728,nbins=100000"},
     "n", "8*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* hist[b] = sum of w[i] over the i with x[i] == b; x[i] lies in [0, nbins). */\n"
     "void weighted_bincount(const int32_t *x, const int32_t *w, int64_t *hist, int n, int nbins)\n"
     "{\n"
     "    memset(hist, 0, (size_t)nbins * sizeof *hist);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        hist[x[i]] += w[i];\n"
     "}\n",
     ZERO_I64
     "/* One thread per element: hist[x[i]] += w[i] in 64 bits (the unsigned atomic\n"
     " * adds a negative weight correctly in two's complement). */\n"
     "extern \"C\" __global__ void weighted_bincount(const int *x, const int *w, long long *hist, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&hist[x[i]], (unsigned long long)(long long)w[i]);\n"
     "}\n",
     {{"zero_i64", "(nbins+255)/256", "256", NULL, "hist,nbins"},
      {"weighted_bincount", "(n+255)/256", "256", NULL, "x,w,hist,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"2d-f32", "histogram2d",
     "2D histogram of f32 points in the unit square on an ny x nx grid",
     "x:f32:in:n;y:f32:in:n;counts:i32:out:ny,nx;n:i32:param;nx:i32:param;ny:i32:param",
     "x=uniform:-0.05:1.05;y=uniform:0:1",
     "",
     {"n=100000,nx=64,ny=48", "n=1,nx=1,ny=1", "n=7919,nx=13,ny=7", "n=67108864,nx=512,ny=512"},
     "6*n", "8*n+4*nx*ny", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[j][k] = number of points (x[i], y[i]) with (int)(y * ny) == j and\n"
     " * (int)(x * nx) == k, on [0, 1) x [0, 1); points outside are ignored. */\n"
     "void histogram2d(const float *x, const float *y, int32_t *counts, int n, int nx, int ny)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nx * ny * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (x[i] < 0.0f || x[i] >= 1.0f || y[i] < 0.0f || y[i] >= 1.0f)\n"
     "            continue;\n"
     "        int k = (int)(x[i] * nx), j = (int)(y[i] * ny);\n"
     "        if (k > nx - 1)\n"
     "            k = nx - 1;\n"
     "        if (j > ny - 1)\n"
     "            j = ny - 1;\n"
     "        counts[(size_t)j * nx + k]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per point: cell ((int)(y * ny), (int)(x * nx)) of the unit square;\n"
     " * points outside are ignored. */\n"
     "extern \"C\" __global__ void histogram2d(const float *x, const float *y, int *counts, int n, int nx, int ny)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float u = x[i], v = y[i];\n"
     "    if (u < 0.0f || u >= 1.0f || v < 0.0f || v >= 1.0f)\n"
     "        return;\n"
     "    int k = (int)(u * nx), j = (int)(v * ny);\n"
     "    if (k > nx - 1)\n"
     "        k = nx - 1;\n"
     "    if (j > ny - 1)\n"
     "        j = ny - 1;\n"
     "    atomicAdd(&counts[(long long)j * nx + k], 1);\n"
     "}\n",
     {{"zero_i32", "(nx*ny+255)/256", "256", NULL, "counts,nx*ny"},
      {"histogram2d", "(n+255)/256", "256", NULL, "x,y,counts,n,nx,ny"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"2d-f64-ranges", "histogram2d_ranges",
     "2D histogram of f64 points over [xlo, xhi) x [ylo, yhi)",
     "x:f64:in:n;y:f64:in:n;counts:i64:out:ny,nx;@xlo;@xhi;@ylo;@yhi;n:i32:param;nx:i32:param;ny:i32:param",
     "x=uniform:-2.5:2.5;y=uniform:-1:4",
     "xlo:f64:-2;xhi:f64:2;ylo:f64:0;yhi:f64:3",
     {"n=100000,nx=30,ny=40", "n=1,nx=2,ny=1", "n=7919,nx=5,ny=11", "n=33554432,nx=1024,ny=1024"},
     "8*n", "16*n+8*nx*ny", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[j][k] = number of points with x in column k and y in row j of an\n"
     " * ny x nx grid of equal cells over [xlo, xhi) x [ylo, yhi); the column is\n"
     " * (int)((x - xlo) * (nx / (xhi - xlo))) and the row likewise.  Points\n"
     " * outside the rectangle are ignored. */\n"
     "void histogram2d_ranges(const double *x, const double *y, int64_t *counts, double xlo, double xhi, double ylo,\n"
     "                        double yhi, int n, int nx, int ny)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nx * ny * sizeof *counts);\n"
     "    const double sx = nx / (xhi - xlo), sy = ny / (yhi - ylo);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double u = x[i], v = y[i];\n"
     "        if (u < xlo || u >= xhi || v < ylo || v >= yhi)\n"
     "            continue;\n"
     "        int k = (int)((u - xlo) * sx), j = (int)((v - ylo) * sy);\n"
     "        if (k > nx - 1)\n"
     "            k = nx - 1;\n"
     "        if (j > ny - 1)\n"
     "            j = ny - 1;\n"
     "        counts[(size_t)j * nx + k]++;\n"
     "    }\n"
     "}\n",
     ZERO_I64
     "/* One thread per point: the cell of an ny x nx grid over [xlo, xhi) x\n"
     " * [ylo, yhi); points outside are ignored. */\n"
     "extern \"C\" __global__ void histogram2d_ranges(const double *x, const double *y, long long *counts, double xlo,\n"
     "                                              double xhi, double ylo, double yhi, int n, int nx, int ny)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double u = x[i], v = y[i];\n"
     "    if (u < xlo || u >= xhi || v < ylo || v >= yhi)\n"
     "        return;\n"
     "    const double sx = nx / (xhi - xlo), sy = ny / (yhi - ylo);\n"
     "    int k = (int)((u - xlo) * sx), j = (int)((v - ylo) * sy);\n"
     "    if (k > nx - 1)\n"
     "        k = nx - 1;\n"
     "    if (j > ny - 1)\n"
     "        j = ny - 1;\n"
     "    atomicAdd((unsigned long long *)&counts[(long long)j * nx + k], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nx*ny+255)/256", "256", NULL, "counts,nx*ny"},
      {"histogram2d_ranges", "(n+255)/256", "256", NULL, "x,y,counts,xlo,xhi,ylo,yhi,n,nx,ny"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"joint-i32", "joint_histogram",
     "joint histogram of two integer label arrays",
     "a:i32:in:n;b:i32:in:n;counts:i32:out:na,nb;n:i32:param;na:i32:param;nb:i32:param",
     "a=int:0:na;b=int:0:nb",
     "",
     {"n=100000,na=16,nb=20", "n=1,na=1,nb=1", "n=7919,na=7,nb=3", "n=67108864,na=256,nb=256"},
     "2*n", "8*n+4*na*nb", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[p][q] = #{i : a[i] == p and b[i] == q}, a[i] in [0, na), b[i] in\n"
     " * [0, nb): the joint histogram (co-occurrence counts) of two labelings. */\n"
     "void joint_histogram(const int32_t *a, const int32_t *b, int32_t *counts, int n, int na, int nb)\n"
     "{\n"
     "    memset(counts, 0, (size_t)na * nb * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[(size_t)a[i] * nb + b[i]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per sample: counts[a[i]][b[i]] += 1 atomically. */\n"
     "extern \"C\" __global__ void joint_histogram(const int *a, const int *b, int *counts, int n, int nb)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[(long long)a[i] * nb + b[i]], 1);\n"
     "}\n",
     {{"zero_i32", "(na*nb+255)/256", "256", NULL, "counts,na*nb"},
      {"joint_histogram", "(n+255)/256", "256", NULL, "a,b,counts,n,nb"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"2d-weighted-f32", "weighted_histogram2d",
     "weighted 2D histogram of f32 points in the unit square",
     "x:f32:in:n;y:f32:in:n;w:f32:in:n;hist:f32:out:ny,nx;n:i32:param;nx:i32:param;ny:i32:param",
     "x=uniform:0:1;y=uniform:-0.1:1;w=uniform:0:2",
     "",
     {"n=100000,nx=32,ny=32", "n=1,nx=1,ny=1", "n=7919,nx=7,ny=17", "n=33554432,nx=256,ny=128"},
     "6*n", "12*n+4*nx*ny", 0.0001, 0.001,
     "#include <stdlib.h>\n"
     "\n"
     "/* hist[j][k] = sum of w[i] over the points (x[i], y[i]) in cell\n"
     " * ((int)(y * ny), (int)(x * nx)) of the unit square; points outside\n"
     " * [0, 1) x [0, 1) are ignored.  Sums are accumulated in double. */\n"
     "void weighted_histogram2d(const float *x, const float *y, const float *w, float *hist, int n, int nx, int ny)\n"
     "{\n"
     "    size_t cells = (size_t)nx * ny;\n"
     "    double *acc = calloc(cells, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (x[i] < 0.0f || x[i] >= 1.0f || y[i] < 0.0f || y[i] >= 1.0f)\n"
     "            continue;\n"
     "        int k = (int)(x[i] * nx), j = (int)(y[i] * ny);\n"
     "        if (k > nx - 1)\n"
     "            k = nx - 1;\n"
     "        if (j > ny - 1)\n"
     "            j = ny - 1;\n"
     "        acc[(size_t)j * nx + k] += w[i];\n"
     "    }\n"
     "    for (size_t c = 0; c < cells; c++)\n"
     "        hist[c] = (float)acc[c];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per point: acc[cell] += w[i] in double for points in the unit\n"
     " * square. */\n"
     "extern \"C\" __global__ void weighted_histogram2d(const float *x, const float *y, const float *w, double *acc, int n,\n"
     "                                                int nx, int ny)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float u = x[i], v = y[i];\n"
     "    if (u < 0.0f || u >= 1.0f || v < 0.0f || v >= 1.0f)\n"
     "        return;\n"
     "    int k = (int)(u * nx), j = (int)(v * ny);\n"
     "    if (k > nx - 1)\n"
     "        k = nx - 1;\n"
     "    if (j > ny - 1)\n"
     "        j = ny - 1;\n"
     "    atomicAdd(&acc[(long long)j * nx + k], (double)w[i]);\n"
     "}\n",
     {{"zero_f64", "(nx*ny+255)/256", "256", NULL, "acc,nx*ny"},
      {"weighted_histogram2d", "(n+255)/256", "256", NULL, "x,y,w,acc,n,nx,ny"},
      {"f64_to_f32", "(nx*ny+255)/256", "256", NULL, "acc,hist,nx*ny"}},
     "acc:f64:nx*ny", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"rows-i32", "row_histograms",
     "one histogram per row of an r x c integer matrix",
     "x:i32:in:r,c;counts:i32:out:r,nbins;r:i32:param;c:i32:param;nbins:i32:param",
     "x=int:0:nbins",
     "",
     {"r=256,c=300,nbins=16", "r=1,c=1,nbins=1", "r=37,c=131,nbins=5", "r=65536,c=2048,nbins=64"},
     "r*c", "4*r*c+4*r*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[i][b] = #{j : x[i][j] == b} for each row i of the r x c row-major\n"
     " * matrix x, whose values lie in [0, nbins). */\n"
     "void row_histograms(const int32_t *x, int32_t *counts, int r, int c, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)r * nbins * sizeof *counts);\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const int32_t *row = x + (size_t)i * c;\n"
     "        int32_t *hist = counts + (size_t)i * nbins;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            hist[row[j]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per matrix element: counts[row][x] += 1 atomically. */\n"
     "extern \"C\" __global__ void row_histograms(const int *x, int *counts, int r, int c, int nbins)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long row = e / c;\n"
     "    atomicAdd(&counts[row * nbins + x[e]], 1);\n"
     "}\n",
     {{"zero_i32", "(r*nbins+255)/256", "256", NULL, "counts,r*nbins"},
      {"row_histograms", "(r*c+255)/256", "256", NULL, "x,counts,r,c,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rows-u8", "row_byte_histograms",
     "a 256-bin histogram per row of a u8 matrix",
     "x:u8:in:r,c;counts:i32:out:r,256;r:i32:param;c:i32:param",
     "",
     "",
     {"r=256,c=300", "r=1,c=1", "r=37,c=131", "r=16384,c=16384"},
     "r*c", "r*c+1024*r", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* counts[i][v] = number of bytes equal to v in row i of the r x c u8 matrix x. */\n"
     "void row_byte_histograms(const uint8_t *x, int32_t *counts, int r, int c)\n"
     "{\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const uint8_t *row = x + (size_t)i * c;\n"
     "        int32_t *hist = counts + (size_t)i * 256;\n"
     "        for (int v = 0; v < 256; v++)\n"
     "            hist[v] = 0;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            hist[row[j]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per byte: counts[row][x] += 1 atomically. */\n"
     "extern \"C\" __global__ void row_byte_histograms(const unsigned char *x, int *counts, int r, int c)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long row = e / c;\n"
     "    atomicAdd(&counts[row * 256 + x[e]], 1);\n"
     "}\n",
     {{"zero_i32", "(r*256+255)/256", "256", NULL, "counts,r*256"},
      {"row_byte_histograms", "(r*c+255)/256", "256", NULL, "x,counts,r,c"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rows-f32-unit", "row_unit_histograms",
     "per-row histograms of f32 data in [0, 1) with nbins bins",
     "x:f32:in:r,c;counts:i32:out:r,nbins;r:i32:param;c:i32:param;nbins:i32:param",
     "x=uniform:0:1",
     "",
     {"r=256,c=300,nbins=20", "r=1,c=1,nbins=1", "r=37,c=131,nbins=9", "r=4096,c=32768,nbins=100"},
     "2*r*c", "4*r*c+4*r*nbins", 0.0, 0.001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* For each row i of the r x c row-major matrix x, with values in [0, 1]:\n"
     " * counts[i][b] = #{j : (int)(x[i][j] * nbins) == b}, x == 1 in the last bin. */\n"
     "void row_unit_histograms(const float *x, int32_t *counts, int r, int c, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)r * nbins * sizeof *counts);\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const float *row = x + (size_t)i * c;\n"
     "        int32_t *hist = counts + (size_t)i * nbins;\n"
     "        for (int j = 0; j < c; j++) {\n"
     "            int b = (int)(row[j] * nbins);\n"
     "            hist[b < nbins ? b : nbins - 1]++;\n"
     "        }\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: bin (int)(x * nbins) of its row, x == 1 in the last\n"
     " * bin. */\n"
     "extern \"C\" __global__ void row_unit_histograms(const float *x, int *counts, int r, int c, int nbins)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long row = e / c;\n"
     "    const int b = (int)(x[e] * nbins);\n"
     "    atomicAdd(&counts[row * nbins + (b < nbins ? b : nbins - 1)], 1);\n"
     "}\n",
     {{"zero_i32", "(r*nbins+255)/256", "256", NULL, "counts,r*nbins"},
      {"row_unit_histograms", "(r*c+255)/256", "256", NULL, "x,counts,r,c,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"cols-i32", "col_histograms",
     "one histogram per column of an r x c row-major integer matrix",
     "x:i32:in:r,c;counts:i32:out:c,nbins;r:i32:param;c:i32:param;nbins:i32:param",
     "x=int:0:nbins",
     "",
     {"r=300,c=256,nbins=10", "r=1,c=1,nbins=1", "r=131,c=37,nbins=6", "r=1048576,c=128,nbins=32"},
     "r*c", "4*r*c+4*c*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[j][b] = #{i : x[i][j] == b} for each column j of the r x c\n"
     " * row-major matrix x, whose values lie in [0, nbins). */\n"
     "void col_histograms(const int32_t *x, int32_t *counts, int r, int c, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)c * nbins * sizeof *counts);\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const int32_t *row = x + (size_t)i * c;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            counts[(size_t)j * nbins + row[j]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: counts[column][x] += 1 atomically. */\n"
     "extern \"C\" __global__ void col_histograms(const int *x, int *counts, int r, int c, int nbins)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long col = e % c;\n"
     "    atomicAdd(&counts[col * nbins + x[e]], 1);\n"
     "}\n",
     {{"zero_i32", "(c*nbins+255)/256", "256", NULL, "counts,c*nbins"},
      {"col_histograms", "(r*c+255)/256", "256", NULL, "x,counts,r,c,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"image-u8-pitch", "image_histogram",
     "256-bin histogram of an h x w u8 image stored with a row pitch",
     "img:u8:in:h,pitch;counts:i32:out:256;h:i32:param;w:i32:param;pitch:i32:param",
     "",
     "",
     {"h=240,w=320,pitch=384", "h=1,w=1,pitch=1", "h=37,w=131,pitch=160", "h=12288,w=16000,pitch=16384"},
     "h*w", "h*w+1024", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* counts[v] = number of pixels equal to v in the h x w image img, whose rows\n"
     " * start pitch bytes apart (pitch >= w; the padding is not counted). */\n"
     "void image_histogram(const uint8_t *img, int32_t *counts, int h, int w, int pitch)\n"
     "{\n"
     "    for (int v = 0; v < 256; v++)\n"
     "        counts[v] = 0;\n"
     "    for (int y = 0; y < h; y++) {\n"
     "        const uint8_t *row = img + (size_t)y * pitch;\n"
     "        for (int x = 0; x < w; x++)\n"
     "            counts[row[x]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel of the h x w image (the pitch padding is skipped). */\n"
     "extern \"C\" __global__ void image_histogram(const unsigned char *img, int *counts, int h, int w, int pitch)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)h * w)\n"
     "        return;\n"
     "    const long long y = e / w, x = e % w;\n"
     "    atomicAdd(&counts[img[y * pitch + x]], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,256"},
      {"image_histogram", "(h*w+255)/256", "256", NULL, "img,counts,h,w,pitch"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rgb-u8", "rgb_histograms",
     "per-channel 256-bin histograms of an interleaved RGB u8 image",
     "rgb:u8:in:npix,3;counts:i32:out:3,256;npix:i32:param",
     "",
     "",
     {"npix=76800", "npix=1", "npix=7919", "npix=67108864"},
     "3*npix", "3*npix+3072", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[ch][v] = number of pixels whose channel ch (0 = R, 1 = G, 2 = B) is\n"
     " * v, for npix interleaved RGB pixels. */\n"
     "void rgb_histograms(const uint8_t *rgb, int32_t *counts, int npix)\n"
     "{\n"
     "    memset(counts, 0, 3 * 256 * sizeof *counts);\n"
     "    for (int i = 0; i < npix; i++) {\n"
     "        const uint8_t *px = rgb + (size_t)3 * i;\n"
     "        counts[px[0]]++;\n"
     "        counts[256 + px[1]]++;\n"
     "        counts[512 + px[2]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: one atomic add into each channel's histogram. */\n"
     "extern \"C\" __global__ void rgb_histograms(const unsigned char *rgb, int *counts, int npix)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= npix)\n"
     "        return;\n"
     "    const unsigned char *px = rgb + 3 * i;\n"
     "    atomicAdd(&counts[px[0]], 1);\n"
     "    atomicAdd(&counts[256 + px[1]], 1);\n"
     "    atomicAdd(&counts[512 + px[2]], 1);\n"
     "}\n",
     {{"zero_i32", "3", "256", NULL, "counts,768"},
      {"rgb_histograms", "(npix+255)/256", "256", NULL, "rgb,counts,npix"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rgba-u8-alpha", "rgba_histograms",
     "per-channel RGB histograms of the visible (alpha != 0) pixels of an RGBA image",
     "rgba:u8:in:npix,4;counts:i32:out:3,256;npix:i32:param",
     "",
     "",
     {"npix=76800", "npix=1", "npix=7919", "npix=67108864"},
     "4*npix", "4*npix+3072", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[ch][v] = number of pixels with alpha != 0 whose channel ch\n"
     " * (0 = R, 1 = G, 2 = B) is v, for npix interleaved RGBA pixels. */\n"
     "void rgba_histograms(const uint8_t *rgba, int32_t *counts, int npix)\n"
     "{\n"
     "    memset(counts, 0, 3 * 256 * sizeof *counts);\n"
     "    for (int i = 0; i < npix; i++) {\n"
     "        const uint8_t *px = rgba + (size_t)4 * i;\n"
     "        if (px[3] == 0)\n"
     "            continue;\n"
     "        for (int ch = 0; ch < 3; ch++)\n"
     "            counts[ch * 256 + px[ch]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: visible pixels (alpha != 0) add to each RGB channel's\n"
     " * histogram. */\n"
     "extern \"C\" __global__ void rgba_histograms(const unsigned char *rgba, int *counts, int npix)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= npix)\n"
     "        return;\n"
     "    const unsigned char *px = rgba + 4 * i;\n"
     "    if (px[3] == 0)\n"
     "        return;\n"
     "    for (int ch = 0; ch < 3; ch++)\n"
     "        atomicAdd(&counts[ch * 256 + px[ch]], 1);\n"
     "}\n",
     {{"zero_i32", "3", "256", NULL, "counts,768"},
      {"rgba_histograms", "(npix+255)/256", "256", NULL, "rgba,counts,npix"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"luma-u8", "luma_histogram",
     "histogram of the integer luma of an interleaved RGB image",
     "rgb:u8:in:npix,3;counts:i32:out:256;npix:i32:param",
     "",
     "",
     {"npix=76800", "npix=1", "npix=7919", "npix=67108864"},
     "6*npix", "3*npix+1024", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* counts[y] = number of pixels whose luma (77 R + 150 G + 29 B) >> 8 is y,\n"
     " * for npix interleaved RGB pixels (the weights sum to 256, so y <= 255). */\n"
     "void luma_histogram(const uint8_t *rgb, int32_t *counts, int npix)\n"
     "{\n"
     "    for (int v = 0; v < 256; v++)\n"
     "        counts[v] = 0;\n"
     "    for (int i = 0; i < npix; i++) {\n"
     "        const uint8_t *px = rgb + (size_t)3 * i;\n"
     "        int y = (77 * px[0] + 150 * px[1] + 29 * px[2]) >> 8;\n"
     "        counts[y]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: luma (77 R + 150 G + 29 B) >> 8. */\n"
     "extern \"C\" __global__ void luma_histogram(const unsigned char *rgb, int *counts, int npix)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= npix)\n"
     "        return;\n"
     "    const unsigned char *px = rgb + 3 * i;\n"
     "    atomicAdd(&counts[(77 * px[0] + 150 * px[1] + 29 * px[2]) >> 8], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,256"},
      {"luma_histogram", "(npix+255)/256", "256", NULL, "rgb,counts,npix"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"nibble-u8", "nibble_histogram",
     "16-bin histogram of the high nibble of each byte",
     "data:u8:in:n;counts:i64:out:16;n:i32:param",
     "",
     "",
     {"n=100000", "n=1", "n=7919", "n=268435456"},
     "2*n", "n+128", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[k] = number of bytes whose high nibble (v >> 4) is k, k = 0..15. */\n"
     "void nibble_histogram(const uint8_t *data, int64_t *counts, int n)\n"
     "{\n"
     "    for (int k = 0; k < 16; k++)\n"
     "        counts[k] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[data[i] >> 4]++;\n"
     "}\n",
     ZERO_I64
     "/* One thread per byte: counts[v >> 4] += 1 in 64 bits. */\n"
     "extern \"C\" __global__ void nibble_histogram(const unsigned char *data, long long *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&counts[data[i] >> 4], 1ULL);\n"
     "}\n",
     {{"zero_i64", "1", "256", NULL, "counts,16"},
      {"nibble_histogram", "(n+255)/256", "256", NULL, "data,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"u8-cumulative", "cumulative_histogram",
     "256-bin byte histogram and its cumulative sum",
     "data:u8:in:n;counts:i32:out:256;cdf:i32:out:256;n:i32:param",
     "data=int:0:200",
     "",
     {"n=100000", "n=1", "n=7919", "n=268435456"},
     "n+256", "n+2048", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[v] = number of bytes equal to v; cdf[v] = counts[0] + ... + counts[v]. */\n"
     "void cumulative_histogram(const uint8_t *data, int32_t *counts, int32_t *cdf, int n)\n"
     "{\n"
     "    for (int v = 0; v < 256; v++)\n"
     "        counts[v] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[data[i]]++;\n"
     "    int32_t run = 0;\n"
     "    for (int v = 0; v < 256; v++) {\n"
     "        run += counts[v];\n"
     "        cdf[v] = run;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per byte: counts[data[i]] += 1 atomically. */\n"
     "extern \"C\" __global__ void byte_counts(const unsigned char *data, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[data[i]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per bin: cdf[v] = counts[0] + ... + counts[v]. */\n"
     "extern \"C\" __global__ void cumulate(const int *counts, int *cdf)\n"
     "{\n"
     "    for (int v = threadIdx.x; v < 256; v += blockDim.x) {\n"
     "        int run = 0;\n"
     "        for (int u = 0; u <= v; u++)\n"
     "            run += counts[u];\n"
     "        cdf[v] = run;\n"
     "    }\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,256"},
      {"byte_counts", "(n+255)/256", "256", NULL, "data,counts,n"},
      {"cumulate", "1", "256", NULL, "counts,cdf"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics+one-bin-per-thread-prefix"},
    {"u8-equalize", "equalize_histogram",
     "histogram equalisation of a u8 image: histogram, CDF, lookup table, remap",
     "img:u8:in:n;out:u8:out:n;lut:u8:out:256;n:i32:param",
     "img=int:40:180",
     "",
     {"n=76800", "n=1", "n=7919", "n=268435456"},
     "2*n+1024", "2*n+256", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* Histogram equalisation: with cdf the cumulative histogram of img and\n"
     " * cmin the cdf of the smallest value present,\n"
     " *   lut[v] = round((cdf[v] - cmin) * 255 / (n - cmin))   (0 below the smallest value;\n"
     " *            lut[v] = v when every pixel has the same value)\n"
     " * and out[i] = lut[img[i]]. */\n"
     "void equalize_histogram(const uint8_t *img, uint8_t *out, uint8_t *lut, int n)\n"
     "{\n"
     "    int64_t cdf[256] = {0};\n"
     "    for (int i = 0; i < n; i++)\n"
     "        cdf[img[i]]++;\n"
     "    for (int v = 1; v < 256; v++)\n"
     "        cdf[v] += cdf[v - 1];\n"
     "    int64_t cmin = 0;\n"
     "    for (int v = 0; v < 256 && cmin == 0; v++)\n"
     "        cmin = cdf[v];\n"
     "    int64_t range = n - cmin;\n"
     "    for (int v = 0; v < 256; v++) {\n"
     "        if (range == 0)\n"
     "            lut[v] = (uint8_t)v;\n"
     "        else if (cdf[v] < cmin)\n"
     "            lut[v] = 0;\n"
     "        else\n"
     "            lut[v] = (uint8_t)(((cdf[v] - cmin) * 255 + range / 2) / range);\n"
     "    }\n"
     "    for (int i = 0; i < n; i++)\n"
     "        out[i] = lut[img[i]];\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: hist[img[i]] += 1 atomically. */\n"
     "extern \"C\" __global__ void count_pixels(const unsigned char *img, int *hist, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&hist[img[i]], 1);\n"
     "}\n"
     "\n"
     "/* One thread per value v: cdf[v] by a serial prefix, cmin = the count of the\n"
     " * smallest value present, lut[v] = round((cdf[v] - cmin) * 255 / (n - cmin)). */\n"
     "extern \"C\" __global__ void build_lut(const int *hist, unsigned char *lut, int n)\n"
     "{\n"
     "    long long cmin = 0;\n"
     "    for (int u = 0; u < 256 && cmin == 0; u++)\n"
     "        cmin = hist[u];\n"
     "    const long long range = n - cmin;\n"
     "    for (int v = threadIdx.x; v < 256; v += blockDim.x) {\n"
     "        long long cdf = 0;\n"
     "        for (int u = 0; u <= v; u++)\n"
     "            cdf += hist[u];\n"
     "        if (range == 0)\n"
     "            lut[v] = (unsigned char)v;\n"
     "        else if (cdf < cmin)\n"
     "            lut[v] = 0;\n"
     "        else\n"
     "            lut[v] = (unsigned char)(((cdf - cmin) * 255 + range / 2) / range);\n"
     "    }\n"
     "}\n"
     "\n"
     "/* One thread per pixel: out[i] = lut[img[i]]. */\n"
     "extern \"C\" __global__ void equalize_histogram(const unsigned char *img, unsigned char *out,\n"
     "                                              const unsigned char *lut, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        out[i] = lut[img[i]];\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "hist,256"},
      {"count_pixels", "(n+255)/256", "256", NULL, "img,hist,n"},
      {"build_lut", "1", "256", NULL, "hist,lut,n"},
      {"equalize_histogram", "(n+255)/256", "256", NULL, "img,out,lut,n"}},
     "hist:i32:256", "block=256;mapping=one-element-per-thread-global-atomics+one-bin-per-thread-lut"},
    {"u8-tiles", "tile_histograms",
     "256-bin histograms of the tile x tile blocks of a u8 image",
     "img:u8:in:h,w;counts:i32:out:(h+tile-1)/tile,(w+tile-1)/tile,256;h:i32:param;w:i32:param;tile:i32:param",
     "",
     "",
     {"h=240,w=320,tile=64", "h=1,w=1,tile=8", "h=37,w=131,tile=16", "h=16384,w=16384,tile=128"},
     "h*w", "h*w+1024*((h+tile-1)/tile)*((w+tile-1)/tile)", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* The h x w image is cut into tile x tile blocks (the last row and column of\n"
     " * blocks may be smaller); counts[ty][tx][v] = number of pixels equal to v in\n"
     " * block (ty, tx), as in contrast-limited adaptive equalisation. */\n"
     "void tile_histograms(const uint8_t *img, int32_t *counts, int h, int w, int tile)\n"
     "{\n"
     "    int tiles_x = (w + tile - 1) / tile, tiles_y = (h + tile - 1) / tile;\n"
     "    memset(counts, 0, (size_t)tiles_x * tiles_y * 256 * sizeof *counts);\n"
     "    for (int y = 0; y < h; y++) {\n"
     "        const uint8_t *row = img + (size_t)y * w;\n"
     "        int32_t *band = counts + (size_t)(y / tile) * tiles_x * 256;\n"
     "        for (int x = 0; x < w; x++)\n"
     "            band[(x / tile) * 256 + row[x]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: counts[tile row][tile column][v] += 1 atomically. */\n"
     "extern \"C\" __global__ void tile_histograms(const unsigned char *img, int *counts, int h, int w, int tile)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)h * w)\n"
     "        return;\n"
     "    const int y = (int)(e / w), x = (int)(e % w);\n"
     "    const int tiles_x = (w + tile - 1) / tile;\n"
     "    atomicAdd(&counts[((long long)(y / tile) * tiles_x + x / tile) * 256 + img[e]], 1);\n"
     "}\n",
     {{"zero_i32", "(((h+tile-1)/tile)*((w+tile-1)/tile)*256+255)/256", "256", NULL, "counts,((h+tile-1)/tile)*((w+tile-1)/tile)*256"},
      {"tile_histograms", "(h*w+255)/256", "256", NULL, "img,counts,h,w,tile"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"u8-roi", "roi_histogram",
     "256-bin histogram of a rectangular region of a u8 image, clipped to the image",
     "img:u8:in:h,w;counts:i32:out:256;h:i32:param;w:i32:param;y0:i32:param;x0:i32:param;rh:i32:param;rw:i32:param",
     "",
     "",
     {"h=240,w=320,y0=40,x0=60,rh=120,rw=200", "h=1,w=1,y0=0,x0=0,rh=1,rw=1", "h=37,w=131,y0=5,x0=100,rh=50,rw=60", "h=16384,w=16384,y0=1000,x0=2000,rh=12000,rw=13000"},
     "rh*rw", "rh*rw+1024", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* counts[v] = number of pixels equal to v inside the rh x rw rectangle whose\n"
     " * top-left corner is (y0, x0), clipped to the h x w image. */\n"
     "void roi_histogram(const uint8_t *img, int32_t *counts, int h, int w, int y0, int x0, int rh, int rw)\n"
     "{\n"
     "    for (int v = 0; v < 256; v++)\n"
     "        counts[v] = 0;\n"
     "    int y1 = y0 + rh < h ? y0 + rh : h;\n"
     "    int x1 = x0 + rw < w ? x0 + rw : w;\n"
     "    for (int y = y0; y < y1; y++) {\n"
     "        const uint8_t *row = img + (size_t)y * w;\n"
     "        for (int x = x0; x < x1; x++)\n"
     "            counts[row[x]]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel of the rh x rw rectangle; those outside the image are\n"
     " * skipped. */\n"
     "extern \"C\" __global__ void roi_histogram(const unsigned char *img, int *counts, int h, int w, int y0, int x0, int rh,\n"
     "                                         int rw)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)rh * rw)\n"
     "        return;\n"
     "    const long long y = y0 + e / rw, x = x0 + e % rw;\n"
     "    if (y >= h || x >= w)\n"
     "        return;\n"
     "    atomicAdd(&counts[img[y * w + x]], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,256"},
      {"roi_histogram", "(rh*rw+255)/256", "256", NULL, "img,counts,h,w,y0,x0,rh,rw"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"u16-12bit", "histogram_12bit",
     "4096-bin histogram of 12-bit samples stored as u16",
     "data:u16:in:n;counts:i32:out:4096;n:i32:param",
     "data=int:0:65536",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "n", "2*n+16384", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "#define NBINS 4096\n"
     "\n"
     "/* counts[v] = number of samples equal to v, for 12-bit samples (the top\n"
     " * four bits of each u16 are ignored). */\n"
     "void histogram_12bit(const uint16_t *data, int32_t *counts, int n)\n"
     "{\n"
     "    for (int v = 0; v < NBINS; v++)\n"
     "        counts[v] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[data[i] & (NBINS - 1)]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per sample: the low 12 bits pick the bin. */\n"
     "extern \"C\" __global__ void histogram_12bit(const unsigned short *data, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[data[i] & 4095], 1);\n"
     "}\n",
     {{"zero_i32", "16", "256", NULL, "counts,4096"},
      {"histogram_12bit", "(n+255)/256", "256", NULL, "data,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"u16-shift", "histogram_u16_coarse",
     "1024-bin histogram of u16 samples (value >> 6)",
     "data:u16:in:n;counts:i64:out:1024;n:i32:param",
     "data=int:0:65536",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "n", "2*n+8192", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[b] = number of u16 samples v with v >> 6 == b: 1024 bins of 64\n"
     " * values each. */\n"
     "void histogram_u16_coarse(const uint16_t *data, int64_t *counts, int n)\n"
     "{\n"
     "    for (int b = 0; b < 1024; b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[data[i] >> 6]++;\n"
     "}\n",
     ZERO_I64
     "/* One thread per sample: counts[v >> 6] += 1 in 64 bits. */\n"
     "extern \"C\" __global__ void histogram_u16_coarse(const unsigned short *data, long long *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&counts[data[i] >> 6], 1ULL);\n"
     "}\n",
     {{"zero_i64", "4", "256", NULL, "counts,1024"},
      {"histogram_u16_coarse", "(n+255)/256", "256", NULL, "data,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"hash-i64-mod", "hash_bucket_counts",
     "bucket sizes of i64 keys hashed by a non-negative remainder",
     "keys:i64:in:n;counts:i32:out:nbuckets;n:i32:param;nbuckets:i32:param",
     "keys=int:-1000000000000:1000000000000",
     "",
     {"n=100000,nbuckets=1021", "n=1,nbuckets=1", "n=7919,nbuckets=97", "n=67108864,nbuckets=1048573"},
     "3*n", "8*n+4*nbuckets", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = number of keys k with ((k % nbuckets) + nbuckets) % nbuckets\n"
     " * == b: the bucket sizes of a hash table indexed by the non-negative\n"
     " * remainder. */\n"
     "void hash_bucket_counts(const int64_t *keys, int32_t *counts, int n, int nbuckets)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbuckets * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int64_t b = keys[i] % nbuckets;\n"
     "        if (b < 0)\n"
     "            b += nbuckets;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per key: bucket = the non-negative remainder modulo nbuckets. */\n"
     "extern \"C\" __global__ void hash_bucket_counts(const long long *keys, int *counts, int n, int nbuckets)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    long long b = keys[i] % nbuckets;\n"
     "    if (b < 0)\n"
     "        b += nbuckets;\n"
     "    atomicAdd(&counts[b], 1);\n"
     "}\n",
     {{"zero_i32", "(nbuckets+255)/256", "256", NULL, "counts,nbuckets"},
      {"hash_bucket_counts", "(n+255)/256", "256", NULL, "keys,counts,n,nbuckets"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"hash-u32-fibonacci", "fibonacci_hash_counts",
     "bucket sizes of u32 keys under multiplicative (Fibonacci) hashing into 4096 buckets",
     "keys:u32:in:n;counts:i32:out:4096;n:i32:param",
     "keys=int:0:4294967295",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "2*n", "4*n+16384", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "#define HASH_BITS 12\n"
     "\n"
     "/* counts[b] = number of keys k whose Fibonacci hash\n"
     " * (uint32_t)(k * 2654435769) >> (32 - 12) is b. */\n"
     "void fibonacci_hash_counts(const uint32_t *keys, int32_t *counts, int n)\n"
     "{\n"
     "    for (int b = 0; b < (1 << HASH_BITS); b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        uint32_t h = keys[i] * 2654435769u;\n"
     "        counts[h >> (32 - HASH_BITS)]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per key: the top 12 bits of k * 2654435769 (mod 2^32). */\n"
     "extern \"C\" __global__ void fibonacci_hash_counts(const unsigned int *keys, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const unsigned int h = keys[i] * 2654435769u;\n"
     "    atomicAdd(&counts[h >> 20], 1);\n"
     "}\n",
     {{"zero_i32", "16", "256", NULL, "counts,4096"},
      {"fibonacci_hash_counts", "(n+255)/256", "256", NULL, "keys,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"popcount-u32", "popcount_histogram",
     "histogram of the number of set bits of u32 words (33 bins)",
     "words:u32:in:n;counts:i64:out:33;n:i32:param",
     "words=int:0:4294967295",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "8*n", "4*n+264", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "static int popcount32(uint32_t v)\n"
     "{\n"
     "    int bits = 0;\n"
     "    while (v) {\n"
     "        v &= v - 1;\n"
     "        bits++;\n"
     "    }\n"
     "    return bits;\n"
     "}\n"
     "\n"
     "/* counts[k] = number of words with exactly k bits set, k = 0..32. */\n"
     "void popcount_histogram(const uint32_t *words, int64_t *counts, int n)\n"
     "{\n"
     "    for (int k = 0; k <= 32; k++)\n"
     "        counts[k] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        counts[popcount32(words[i])]++;\n"
     "}\n",
     ZERO_I64
     "/* One thread per word: counts[popcount] += 1 in 64 bits. */\n"
     "extern \"C\" __global__ void popcount_histogram(const unsigned int *words, long long *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&counts[__popc(words[i])], 1ULL);\n"
     "}\n",
     {{"zero_i64", "1", "256", NULL, "counts,33"},
      {"popcount_histogram", "(n+255)/256", "256", NULL, "words,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"leading-digit", "leading_digit_histogram",
     "Benford-style histogram of the leading decimal digits of positive integers",
     "x:i32:in:n;counts:i32:out:9;n:i32:param",
     "x=int:1:2000000000",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "5*n", "4*n+36", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[d - 1] = number of values whose leading decimal digit is d, d = 1..9;\n"
     " * every x[i] is positive. */\n"
     "void leading_digit_histogram(const int32_t *x, int32_t *counts, int n)\n"
     "{\n"
     "    for (int d = 0; d < 9; d++)\n"
     "        counts[d] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t v = x[i];\n"
     "        while (v >= 10)\n"
     "            v /= 10;\n"
     "        counts[v - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per value: divide by 10 down to the leading digit. */\n"
     "extern \"C\" __global__ void leading_digit_histogram(const int *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    int v = x[i];\n"
     "    while (v >= 10)\n"
     "        v /= 10;\n"
     "    atomicAdd(&counts[v - 1], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,9"},
      {"leading_digit_histogram", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"log2-i64", "magnitude_histogram",
     "histogram of floor(log2(x)) of positive 64-bit integers (63 bins)",
     "x:i64:in:n;counts:i32:out:63;n:i32:param",
     "x=int:1:17179869184",
     "",
     {"n=100000", "n=1", "n=7919", "n=67108864"},
     "8*n", "8*n+252", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "/* counts[k] = number of values with floor(log2(x)) == k, i.e. 2^k <= x <\n"
     " * 2^(k+1), for positive 64-bit x (k = 0..62). */\n"
     "void magnitude_histogram(const int64_t *x, int32_t *counts, int n)\n"
     "{\n"
     "    for (int k = 0; k < 63; k++)\n"
     "        counts[k] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        uint64_t v = (uint64_t)x[i];\n"
     "        int k = 0;\n"
     "        while (v >>= 1)\n"
     "            k++;\n"
     "        counts[k]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per value: floor(log2(x)) = 63 - (leading zeros) for x > 0. */\n"
     "extern \"C\" __global__ void magnitude_histogram(const long long *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd(&counts[63 - __clzll(x[i])], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,63"},
      {"magnitude_histogram", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"edges-f32", "histogram_edges",
     "f32 histogram with arbitrary sorted bin edges (binary search); values outside ignored",
     "x:f32:in:n;edges:f32:in:nbins+1;counts:i32:out:nbins;n:i32:param;nbins:i32:param",
     "x=uniform:-1.2:1.2;edges=uniform:-1:1;edges=sorted",
     "",
     {"n=100000,nbins=100", "n=1,nbins=1", "n=7919,nbins=23", "n=134217728,nbins=1000"},
     "20*n", "4*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins bins given by the ascending edges[0..nbins]: x falls in bin b when\n"
     " * edges[b] <= x < edges[b + 1], where b + 1 is the number of edges <= x (so\n"
     " * empty bins between equal edges are skipped); x < edges[0] or\n"
     " * x >= edges[nbins] is ignored. */\n"
     "void histogram_edges(const float *x, const float *edges, int32_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        /* lo = number of edges <= v, by binary search */\n"
     "        int lo = 0, hi = nbins + 1;\n"
     "        while (lo < hi) {\n"
     "            int mid = lo + (hi - lo) / 2;\n"
     "            if (edges[mid] <= v)\n"
     "                lo = mid + 1;\n"
     "            else\n"
     "                hi = mid;\n"
     "        }\n"
     "        if (lo >= 1 && lo <= nbins)\n"
     "            counts[lo - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: lo = number of edges <= x by binary search; x falls\n"
     " * in bin lo - 1 when 1 <= lo <= nbins. */\n"
     "extern \"C\" __global__ void histogram_edges(const float *x, const float *edges, int *counts, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    int lo = 0, hi = nbins + 1;\n"
     "    while (lo < hi) {\n"
     "        const int mid = lo + (hi - lo) / 2;\n"
     "        if (edges[mid] <= v)\n"
     "            lo = mid + 1;\n"
     "        else\n"
     "            hi = mid;\n"
     "    }\n"
     "    if (lo >= 1 && lo <= nbins)\n"
     "        atomicAdd(&counts[lo - 1], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_edges", "(n+255)/256", "256", NULL, "x,edges,counts,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-binary-search-global-atomics"},
    {"edges-f64-clamp", "histogram_edges_clamped",
     "f64 histogram with sorted bin edges; values outside go to the end bins",
     "x:f64:in:n;edges:f64:in:nbins+1;counts:i64:out:nbins;n:i32:param;nbins:i32:param",
     "x=uniform:-3:3;edges=uniform:-2:2;edges=sorted",
     "",
     {"n=100000,nbins=64", "n=1,nbins=1", "n=7919,nbins=5", "n=67108864,nbins=4096"},
     "20*n", "8*n+16*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* nbins bins given by the ascending edges[0..nbins]: with k the number of\n"
     " * edges <= x, x is counted in bin k - 1, clamped to [0, nbins - 1] (values\n"
     " * below the first edge go to bin 0, values from the last edge on to the last\n"
     " * bin). */\n"
     "void histogram_edges_clamped(const double *x, const double *edges, int64_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double v = x[i];\n"
     "        int lo = 0, hi = nbins + 1;\n"
     "        while (lo < hi) {\n"
     "            int mid = lo + (hi - lo) / 2;\n"
     "            if (edges[mid] <= v)\n"
     "                lo = mid + 1;\n"
     "            else\n"
     "                hi = mid;\n"
     "        }\n"
     "        int b = lo - 1;\n"
     "        if (b < 0)\n"
     "            b = 0;\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        counts[b]++;\n"
     "    }\n"
     "}\n",
     ZERO_I64
     "/* One thread per element: with k the number of edges <= x (binary search), x\n"
     " * goes to bin k - 1 clamped to [0, nbins - 1]. */\n"
     "extern \"C\" __global__ void histogram_edges_clamped(const double *x, const double *edges, long long *counts, int n,\n"
     "                                                   int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double v = x[i];\n"
     "    int lo = 0, hi = nbins + 1;\n"
     "    while (lo < hi) {\n"
     "        const int mid = lo + (hi - lo) / 2;\n"
     "        if (edges[mid] <= v)\n"
     "            lo = mid + 1;\n"
     "        else\n"
     "            hi = mid;\n"
     "    }\n"
     "    int b = lo - 1;\n"
     "    if (b < 0)\n"
     "        b = 0;\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd((unsigned long long *)&counts[b], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"histogram_edges_clamped", "(n+255)/256", "256", NULL, "x,edges,counts,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-binary-search-global-atomics"},
    {"digitize-i32", "digitize_right_closed",
     "integer histogram with sorted edges and right-closed bins (edges[b] < x <= edges[b+1])",
     "x:i32:in:n;edges:i32:in:nbins+1;counts:i32:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:-1100000:1100000;edges=int:-1000000:1000000;edges=sorted",
     "",
     {"n=100000,nbins=50", "n=1,nbins=1", "n=7919,nbins=7", "n=134217728,nbins=2000"},
     "20*n", "4*n+8*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* Right-closed bins from the ascending edges[0..nbins]: with k the number of\n"
     " * edges < x, x is counted in bin k - 1 when 1 <= k <= nbins, i.e. when\n"
     " * edges[k - 1] < x <= edges[k]; other values are ignored. */\n"
     "void digitize_right_closed(const int32_t *x, const int32_t *edges, int32_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int32_t v = x[i];\n"
     "        int lo = 0, hi = nbins + 1;\n"
     "        while (lo < hi) {\n"
     "            int mid = lo + (hi - lo) / 2;\n"
     "            if (edges[mid] < v)\n"
     "                lo = mid + 1;\n"
     "            else\n"
     "                hi = mid;\n"
     "        }\n"
     "        if (lo >= 1 && lo <= nbins)\n"
     "            counts[lo - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: k = number of edges < x (binary search); x falls in\n"
     " * the right-closed bin k - 1 when 1 <= k <= nbins. */\n"
     "extern \"C\" __global__ void digitize_right_closed(const int *x, const int *edges, int *counts, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int v = x[i];\n"
     "    int lo = 0, hi = nbins + 1;\n"
     "    while (lo < hi) {\n"
     "        const int mid = lo + (hi - lo) / 2;\n"
     "        if (edges[mid] < v)\n"
     "            lo = mid + 1;\n"
     "        else\n"
     "            hi = mid;\n"
     "    }\n"
     "    if (lo >= 1 && lo <= nbins)\n"
     "        atomicAdd(&counts[lo - 1], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"digitize_right_closed", "(n+255)/256", "256", NULL, "x,edges,counts,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-binary-search-global-atomics"},
    {"masked-i32", "masked_histogram",
     "integer histogram of the elements selected by a mask",
     "x:i32:in:n;mask:u8:in:n;counts:i32:out:nbins;n:i32:param;nbins:i32:param",
     "x=int:0:nbins;mask=int:0:2",
     "",
     {"n=100000,nbins=64", "n=1,nbins=1", "n=7919,nbins=11", "n=134217728,nbins=512"},
     "2*n", "5*n+4*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = #{i : mask[i] != 0 and x[i] == b}; x[i] lies in [0, nbins). */\n"
     "void masked_histogram(const int32_t *x, const uint8_t *mask, int32_t *counts, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (mask[i])\n"
     "            counts[x[i]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: selected elements add to their bin. */\n"
     "extern \"C\" __global__ void masked_histogram(const int *x, const unsigned char *mask, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n && mask[i])\n"
     "        atomicAdd(&counts[x[i]], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"masked_histogram", "(n+255)/256", "256", NULL, "x,mask,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"confusion-matrix", "confusion_matrix",
     "confusion matrix of predicted versus true class labels",
     "pred:i32:in:n;label:i32:in:n;cm:i64:out:k,k;n:i32:param;k:i32:param",
     "pred=int:0:k;label=int:0:k",
     "",
     {"n=100000,k=10", "n=1,k=1", "n=7919,k=7", "n=67108864,k=1000"},
     "2*n", "8*n+8*k*k", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* cm[t][p] = number of samples with true class t = label[i] and predicted\n"
     " * class p = pred[i], both in [0, k). */\n"
     "void confusion_matrix(const int32_t *pred, const int32_t *label, int64_t *cm, int n, int k)\n"
     "{\n"
     "    memset(cm, 0, (size_t)k * k * sizeof *cm);\n"
     "    for (int i = 0; i < n; i++)\n"
     "        cm[(size_t)label[i] * k + pred[i]]++;\n"
     "}\n",
     ZERO_I64
     "/* One thread per sample: cm[label][pred] += 1 in 64 bits. */\n"
     "extern \"C\" __global__ void confusion_matrix(const int *pred, const int *label, long long *cm, int n, int k)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomicAdd((unsigned long long *)&cm[(long long)label[i] * k + pred[i]], 1ULL);\n"
     "}\n",
     {{"zero_i64", "(k*k+255)/256", "256", NULL, "cm,k*k"},
      {"confusion_matrix", "(n+255)/256", "256", NULL, "pred,label,cm,n,k"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rows-weighted-f32", "row_weighted_histograms",
     "per-row weighted histograms: integer bins, f32 weights",
     "bins:i32:in:r,c;w:f32:in:r,c;hist:f32:out:r,nbins;r:i32:param;c:i32:param;nbins:i32:param",
     "bins=int:0:nbins;w=uniform:0:1",
     "",
     {"r=256,c=300,nbins=32", "r=1,c=1,nbins=1", "r=37,c=131,nbins=3", "r=32768,c=2048,nbins=256"},
     "r*c", "8*r*c+4*r*nbins", 0.0001, 0.001,
     "#include <stddef.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* hist[i][b] = sum of w[i][j] over the j with bins[i][j] == b, for each row\n"
     " * i of the r x c row-major matrices (bins in [0, nbins)).  Each row's sums\n"
     " * are accumulated in double. */\n"
     "void row_weighted_histograms(const int *bins, const float *w, float *hist, int r, int c, int nbins)\n"
     "{\n"
     "    double *acc = malloc((size_t)nbins * sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int i = 0; i < r; i++) {\n"
     "        const int *brow = bins + (size_t)i * c;\n"
     "        const float *wrow = w + (size_t)i * c;\n"
     "        for (int b = 0; b < nbins; b++)\n"
     "            acc[b] = 0.0;\n"
     "        for (int j = 0; j < c; j++)\n"
     "            acc[brow[j]] += wrow[j];\n"
     "        for (int b = 0; b < nbins; b++)\n"
     "            hist[(size_t)i * nbins + b] = (float)acc[b];\n"
     "    }\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per element: acc[row][bins] += w in double (atomically). */\n"
     "extern \"C\" __global__ void row_weighted_histograms(const int *bins, const float *w, double *acc, int r, int c,\n"
     "                                                   int nbins)\n"
     "{\n"
     "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (e >= (long long)r * c)\n"
     "        return;\n"
     "    const long long row = e / c;\n"
     "    atomicAdd(&acc[row * nbins + bins[e]], (double)w[e]);\n"
     "}\n",
     {{"zero_f64", "(r*nbins+255)/256", "256", NULL, "acc,r*nbins"},
      {"row_weighted_histograms", "(r*c+255)/256", "256", NULL, "bins,w,acc,r,c,nbins"},
      {"f64_to_f32", "(r*nbins+255)/256", "256", NULL, "acc,hist,r*nbins"}},
     "acc:f64:r*nbins", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"orientation-f32", "orientation_histogram",
     "gradient orientation histogram weighted by magnitude (HOG-style)",
     "gx:f32:in:n;gy:f32:in:n;hist:f32:out:nbins;n:i32:param;nbins:i32:param",
     "",
     "",
     {"n=100000,nbins=9", "n=1,nbins=1", "n=7919,nbins=18", "n=67108864,nbins=36"},
     "30*n", "8*n+4*nbins", 0.001, 0.001,
     "#include <math.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* Orientation histogram of gradients (gx, gy): the angle atan2(gy, gx) in\n"
     " * [-pi, pi] picks bin (int)((angle + pi) / (2 pi) * nbins) (the last bin also\n"
     " * takes angle == pi) and each gradient adds its magnitude sqrt(gx^2 + gy^2).\n"
     " * Sums are accumulated in double. */\n"
     "void orientation_histogram(const float *gx, const float *gy, float *hist, int n, int nbins)\n"
     "{\n"
     "    const double pi = 3.14159265358979323846;\n"
     "    double *acc = calloc((size_t)nbins, sizeof *acc);\n"
     "    if (!acc)\n"
     "        return;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        double angle = atan2(gy[i], gx[i]);\n"
     "        int b = (int)((angle + pi) / (2 * pi) * nbins);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        acc[b] += sqrt((double)gx[i] * gx[i] + (double)gy[i] * gy[i]);\n"
     "    }\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        hist[b] = (float)acc[b];\n"
     "    free(acc);\n"
     "}\n",
     ZERO_F64
     F64_TO_F32
     "/* One thread per gradient: the angle atan2(gy, gx) picks the bin, the\n"
     " * magnitude is added in double. */\n"
     "extern \"C\" __global__ void orientation_histogram(const float *gx, const float *gy, double *acc, int n, int nbins)\n"
     "{\n"
     "    const double pi = 3.14159265358979323846;\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double u = gx[i], v = gy[i];\n"
     "    const double angle = atan2(v, u);\n"
     "    int b = (int)((angle + pi) / (2 * pi) * nbins);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&acc[b], sqrt(u * u + v * v));\n"
     "}\n",
     {{"zero_f64", "(nbins+255)/256", "256", NULL, "acc,nbins"},
      {"orientation_histogram", "(n+255)/256", "256", NULL, "gx,gy,acc,n,nbins"},
      {"f64_to_f32", "(nbins+255)/256", "256", NULL, "acc,hist,nbins"}},
     "acc:f64:nbins", "block=256;mapping=one-element-per-thread-global-atomics-f64"},
    {"radial-f32", "radial_histogram",
     "histogram of the distances of 2D points from the origin",
     "x:f32:in:n;y:f32:in:n;counts:i32:out:nbins;@rmax;n:i32:param;nbins:i32:param",
     "",
     "rmax:f32:1",
     {"n=100000,nbins=50", "n=1,nbins=1", "n=7919,nbins=7", "n=67108864,nbins=1024"},
     "6*n", "8*n+4*nbins", 0.0, 0.001,
     "#include <math.h>\n"
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = number of points whose distance d = sqrt(x^2 + y^2) from the\n"
     " * origin (computed in float) satisfies (int)(d / rmax * nbins) == b; points\n"
     " * with d >= rmax are ignored. */\n"
     "void radial_histogram(const float *x, const float *y, int32_t *counts, float rmax, int n, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float d = sqrtf(x[i] * x[i] + y[i] * y[i]);\n"
     "        if (d >= rmax)\n"
     "            continue;\n"
     "        int b = (int)(d / rmax * nbins);\n"
     "        counts[b < nbins ? b : nbins - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per point: bin (int)(d / rmax * nbins) of its distance d from the\n"
     " * origin; points with d >= rmax are ignored.  The squares are rounded before\n"
     " * the add (no fused multiply-add), as in the C code. */\n"
     "extern \"C\" __global__ void radial_histogram(const float *x, const float *y, int *counts, float rmax, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float d = sqrtf(__fmul_rn(x[i], x[i]) + __fmul_rn(y[i], y[i]));\n"
     "    if (d >= rmax)\n"
     "        return;\n"
     "    const int b = (int)(d / rmax * nbins);\n"
     "    atomicAdd(&counts[b < nbins ? b : nbins - 1], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"radial_histogram", "(n+255)/256", "256", NULL, "x,y,counts,rmax,n,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"strided-i32", "strided_histogram",
     "histogram of every stride-th element of an integer array",
     "x:i32:in:n*stride;counts:i32:out:nbins;n:i32:param;stride:i32:param;nbins:i32:param",
     "x=int:0:nbins",
     "",
     {"n=40000,stride=3,nbins=128", "n=1,stride=2,nbins=1", "n=1021,stride=5,nbins=13", "n=33554432,stride=4,nbins=2048"},
     "n", "4*n+4*nbins", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[b] = #{k < n : x[k * stride] == b}; those elements lie in [0, nbins). */\n"
     "void strided_histogram(const int32_t *x, int32_t *counts, int n, int stride, int nbins)\n"
     "{\n"
     "    memset(counts, 0, (size_t)nbins * sizeof *counts);\n"
     "    for (int k = 0; k < n; k++)\n"
     "        counts[x[k * stride]]++;\n"
     "}\n",
     ZERO_I32
     "/* One thread per counted element x[k * stride]. */\n"
     "extern \"C\" __global__ void strided_histogram(const int *x, int *counts, int n, int stride)\n"
     "{\n"
     "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (k < n)\n"
     "        atomicAdd(&counts[x[k * stride]], 1);\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"strided_histogram", "(n+255)/256", "256", NULL, "x,counts,n,stride"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"mod-i32", "residue_histogram",
     "histogram of residues modulo m of signed integers",
     "x:i32:in:n;counts:i32:out:m;n:i32:param;m:i32:param",
     "x=int:-2000000000:2000000000",
     "",
     {"n=100000,m=60", "n=1,m=1", "n=7919,m=7", "n=134217728,m=360"},
     "2*n", "4*n+4*m", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <string.h>\n"
     "\n"
     "/* counts[k] = number of x[i] congruent to k modulo m, k in [0, m), for\n"
     " * signed x (the remainder is made non-negative). */\n"
     "void residue_histogram(const int32_t *x, int32_t *counts, int n, int m)\n"
     "{\n"
     "    memset(counts, 0, (size_t)m * sizeof *counts);\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        int k = x[i] % m;\n"
     "        if (k < 0)\n"
     "            k += m;\n"
     "        counts[k]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per value: the non-negative remainder modulo m. */\n"
     "extern \"C\" __global__ void residue_histogram(const int *x, int *counts, int n, int m)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    int k = x[i] % m;\n"
     "    if (k < 0)\n"
     "        k += m;\n"
     "    atomicAdd(&counts[k], 1);\n"
     "}\n",
     {{"zero_i32", "(m+255)/256", "256", NULL, "counts,m"},
      {"residue_histogram", "(n+255)/256", "256", NULL, "x,counts,n,m"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"rgb-3d-u8", "color_histogram",
     "3D colour histogram: RGB quantised to 8 levels per channel (512 bins)",
     "rgb:u8:in:npix,3;counts:i32:out:8,8,8;npix:i32:param",
     "",
     "",
     {"npix=76800", "npix=1", "npix=7919", "npix=67108864"},
     "5*npix", "3*npix+2048", -1, -1,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "\n"
     "/* counts[r][g][b] = number of pixels whose channels quantised to 3 bits\n"
     " * (R >> 5, G >> 5, B >> 5) are r, g, b, for npix interleaved RGB pixels. */\n"
     "void color_histogram(const uint8_t *rgb, int32_t *counts, int npix)\n"
     "{\n"
     "    for (int k = 0; k < 512; k++)\n"
     "        counts[k] = 0;\n"
     "    for (int i = 0; i < npix; i++) {\n"
     "        const uint8_t *px = rgb + (size_t)3 * i;\n"
     "        counts[(px[0] >> 5) * 64 + (px[1] >> 5) * 8 + (px[2] >> 5)]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "/* One thread per pixel: cell (R >> 5, G >> 5, B >> 5) of the 8 x 8 x 8 cube. */\n"
     "extern \"C\" __global__ void color_histogram(const unsigned char *rgb, int *counts, int npix)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= npix)\n"
     "        return;\n"
     "    const unsigned char *px = rgb + 3 * i;\n"
     "    atomicAdd(&counts[(px[0] >> 5) * 64 + (px[1] >> 5) * 8 + (px[2] >> 5)], 1);\n"
     "}\n",
     {{"zero_i32", "2", "256", NULL, "counts,512"},
      {"color_histogram", "(npix+255)/256", "256", NULL, "rgb,counts,npix"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"binned-mean-f32", "binned_mean",
     "binned statistic: count and mean of y per bin of x over [0, 1)",
     "x:f32:in:n;y:f32:in:n;counts:i32:out:nbins;mean:f32:out:nbins;n:i32:param;nbins:i32:param",
     "x=uniform:-0.1:1;y=uniform:0:10",
     "",
     {"n=100000,nbins=40", "n=1,nbins=1", "n=7919,nbins=11", "n=134217728,nbins=1000"},
     "4*n", "8*n+8*nbins", 0.001, 0.001,
     "#include <stdlib.h>\n"
     "\n"
     "/* Bin b of nbins equal bins over [0, 1) holds the i with (int)(x[i] * nbins)\n"
     " * == b (x outside [0, 1) is ignored); counts[b] is its size and mean[b] the\n"
     " * mean of y over it (0 for an empty bin).  Sums are accumulated in double. */\n"
     "void binned_mean(const float *x, const float *y, int *counts, float *mean, int n, int nbins)\n"
     "{\n"
     "    double *sum = calloc((size_t)nbins, sizeof *sum);\n"
     "    if (!sum)\n"
     "        return;\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (x[i] < 0.0f || x[i] >= 1.0f)\n"
     "            continue;\n"
     "        int b = (int)(x[i] * nbins);\n"
     "        if (b > nbins - 1)\n"
     "            b = nbins - 1;\n"
     "        counts[b]++;\n"
     "        sum[b] += y[i];\n"
     "    }\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        mean[b] = counts[b] > 0 ? (float)(sum[b] / counts[b]) : 0.0f;\n"
     "    free(sum);\n"
     "}\n",
     ZERO_I32
     ZERO_F64
     "/* One thread per sample: counts[b] += 1 and sum[b] += y (double) for x in\n"
     " * [0, 1), b = (int)(x * nbins). */\n"
     "extern \"C\" __global__ void bin_sums(const float *x, const float *y, int *counts, double *sum, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    if (v < 0.0f || v >= 1.0f)\n"
     "        return;\n"
     "    int b = (int)(v * nbins);\n"
     "    if (b > nbins - 1)\n"
     "        b = nbins - 1;\n"
     "    atomicAdd(&counts[b], 1);\n"
     "    atomicAdd(&sum[b], (double)y[i]);\n"
     "}\n"
     "\n"
     "/* One thread per bin: mean[b] = sum[b] / counts[b], 0 for an empty bin. */\n"
     "extern \"C\" __global__ void binned_mean(const int *counts, const double *sum, float *mean, int nbins)\n"
     "{\n"
     "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (b < nbins)\n"
     "        mean[b] = counts[b] > 0 ? (float)(sum[b] / counts[b]) : 0.0f;\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "counts,nbins"},
      {"zero_f64", "(nbins+255)/256", "256", NULL, "sum,nbins"},
      {"bin_sums", "(n+255)/256", "256", NULL, "x,y,counts,sum,n,nbins"},
      {"binned_mean", "(nbins+255)/256", "256", NULL, "counts,sum,mean,nbins"}},
     "sum:f64:nbins", "block=256;mapping=one-element-per-thread-global-atomics"},
    {"binned-max-f32", "binned_max",
     "binned statistic: the maximum value in each integer bin",
     "bins:i32:in:n;v:f32:in:n;out:f32:out:nbins;n:i32:param;nbins:i32:param",
     "bins=int:0:nbins;v=uniform:-100:100",
     "",
     {"n=100000,nbins=100", "n=1,nbins=1", "n=7919,nbins=13", "n=134217728,nbins=65536"},
     "n", "8*n+4*nbins", -1, -1,
     "#include <math.h>\n"
     "\n"
     "/* out[b] = max of v[i] over the i with bins[i] == b (bins in [0, nbins)),\n"
     " * or 0 for a bin nothing falls in. */\n"
     "void binned_max(const int *bins, const float *v, float *out, int n, int nbins)\n"
     "{\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        out[b] = -INFINITY;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (v[i] > out[bins[i]])\n"
     "            out[bins[i]] = v[i];\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        if (out[b] == -INFINITY)\n"
     "            out[b] = 0.0f;\n"
     "}\n",
     "#define NEG_INF_BITS 0xff800000u\n"
     "\n"
     "/* out[b] = -infinity: the identity of max. */\n"
     "extern \"C\" __global__ void init_max(float *out, int nbins)\n"
     "{\n"
     "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (b < nbins)\n"
     "        out[b] = __uint_as_float(NEG_INF_BITS);\n"
     "}\n"
     "\n"
     "/* Atomic float max through the integer orderings of IEEE bit patterns:\n"
     " * floats with the sign bit clear order like their bits as signed ints (and\n"
     " * beat every negative), negative floats in reverse of their bits as\n"
     " * unsigned ints (and lose to every non-negative). */\n"
     "__device__ void atomic_max_float(float *addr, float v)\n"
     "{\n"
     "    if (__float_as_int(v) >= 0)\n"
     "        atomicMax((int *)addr, __float_as_int(v));\n"
     "    else\n"
     "        atomicMin((unsigned int *)addr, __float_as_uint(v));\n"
     "}\n"
     "\n"
     "/* One thread per sample: out[bins[i]] = max(out[bins[i]], v[i]). */\n"
     "extern \"C\" __global__ void binned_max(const int *bins, const float *v, float *out, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n)\n"
     "        atomic_max_float(&out[bins[i]], v[i]);\n"
     "}\n"
     "\n"
     "/* One thread per bin: a bin nothing fell in becomes 0. */\n"
     "extern \"C\" __global__ void empty_to_zero(float *out, int nbins)\n"
     "{\n"
     "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (b < nbins && __float_as_uint(out[b]) == NEG_INF_BITS)\n"
     "        out[b] = 0.0f;\n"
     "}\n",
     {{"init_max", "(nbins+255)/256", "256", NULL, "out,nbins"},
      {"binned_max", "(n+255)/256", "256", NULL, "bins,v,out,n"},
      {"empty_to_zero", "(nbins+255)/256", "256", NULL, "out,nbins"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f32-density", "histogram_density",
     "f32 histogram over [lo, hi) normalised to a probability density",
     "x:f32:in:n;density:f32:out:nbins;@lo;@hi;n:i32:param;nbins:i32:param",
     "x=uniform:-4:4",
     "lo:f32:-3;hi:f32:3",
     {"n=100000,nbins=40", "n=1,nbins=1", "n=7919,nbins=7", "n=134217728,nbins=256"},
     "4*n", "4*n+4*nbins", 1e-05, 0.0001,
     "#include <stddef.h>\n"
     "#include <stdint.h>\n"
     "#include <stdlib.h>\n"
     "\n"
     "/* density[b] = count[b] / (m * width), where count[b] is the number of x in\n"
     " * bin b = (int)((x - lo) * (nbins / (hi - lo))) (float) of [lo, hi), m the\n"
     " * number of x inside [lo, hi) and width = (hi - lo) / nbins; all zero when\n"
     " * m is 0. */\n"
     "void histogram_density(const float *x, float *density, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    int64_t *count = calloc((size_t)nbins, sizeof *count);\n"
     "    if (!count)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    int64_t m = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        float v = x[i];\n"
     "        if (v < lo || v >= hi)\n"
     "            continue;\n"
     "        int b = (int)((v - lo) * scale);\n"
     "        count[b < nbins ? b : nbins - 1]++;\n"
     "        m++;\n"
     "    }\n"
     "    double width = ((double)hi - lo) / nbins;\n"
     "    for (int b = 0; b < nbins; b++)\n"
     "        density[b] = m > 0 ? (float)(count[b] / (m * width)) : 0.0f;\n"
     "    free(count);\n"
     "}\n",
     ZERO_I32
     "/* One thread per element: count[b] += 1 for x in [lo, hi),\n"
     " * b = (int)((x - lo) * (nbins / (hi - lo))) in float. */\n"
     "extern \"C\" __global__ void bin_counts(const float *x, int *count, float lo, float hi, int n, int nbins)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const float v = x[i];\n"
     "    if (v < lo || v >= hi)\n"
     "        return;\n"
     "    const float scale = nbins / (hi - lo);\n"
     "    const int b = (int)((v - lo) * scale);\n"
     "    atomicAdd(&count[b < nbins ? b : nbins - 1], 1);\n"
     "}\n"
     "\n"
     "/* One block: m = the number counted (shared-memory tree reduction), then\n"
     " * density[b] = count[b] / (m * width), all zero when m is 0. */\n"
     "extern \"C\" __global__ void histogram_density(const int *count, float *density, float lo, float hi, int nbins)\n"
     "{\n"
     "    extern __shared__ long long part[];\n"
     "    long long s = 0;\n"
     "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
     "        s += count[b];\n"
     "    part[threadIdx.x] = s;\n"
     "    __syncthreads();\n"
     "    for (int half = blockDim.x / 2; half > 0; half /= 2) {\n"
     "        if (threadIdx.x < half)\n"
     "            part[threadIdx.x] += part[threadIdx.x + half];\n"
     "        __syncthreads();\n"
     "    }\n"
     "    const long long m = part[0];\n"
     "    const double width = ((double)hi - lo) / nbins;\n"
     "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
     "        density[b] = m > 0 ? (float)(count[b] / (m * width)) : 0.0f;\n"
     "}\n",
     {{"zero_i32", "(nbins+255)/256", "256", NULL, "count,nbins"},
      {"bin_counts", "(n+255)/256", "256", NULL, "x,count,lo,hi,n,nbins"},
      {"histogram_density", "1", "256", "256*8", "count,density,lo,hi,nbins"}},
     "count:i32:nbins", "block=256;mapping=one-element-per-thread-global-atomics+block-reduction-shared"},
    {"int-const1024", "histogram_1024",
     "1024-bin integer histogram with a compile-time bin count; out-of-range values skipped",
     "x:i32:in:n;counts:i32:out:1024;n:i32:param",
     "x=int:-100:1100",
     "",
     {"n=100000", "n=1", "n=7919", "n=134217728"},
     "2*n", "4*n+4096", -1, -1,
     "#include <stdint.h>\n"
     "\n"
     "#define NBINS 1024\n"
     "\n"
     "/* counts[b] = #{i : x[i] == b} for b in [0, 1024); other values are skipped. */\n"
     "void histogram_1024(const int32_t *x, int32_t *counts, int n)\n"
     "{\n"
     "    for (int b = 0; b < NBINS; b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++)\n"
     "        if (x[i] >= 0 && x[i] < NBINS)\n"
     "            counts[x[i]]++;\n"
     "}\n",
     ZERO_I32
     "#define NBINS 1024\n"
     "\n"
     "/* One thread per element; values outside [0, 1024) are skipped. */\n"
     "extern \"C\" __global__ void histogram_1024(const int *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const int v = x[i];\n"
     "    if (v >= 0 && v < NBINS)\n"
     "        atomicAdd(&counts[v], 1);\n"
     "}\n",
     {{"zero_i32", "4", "256", NULL, "counts,1024"},
      {"histogram_1024", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
    {"real-f64-sym100", "symmetric_histogram",
     "100 fixed bins over [-1, 1) for f64 data",
     "x:f64:in:n;counts:i32:out:100;n:i32:param",
     "x=uniform:-1.1:1.1",
     "",
     {"n=100000", "n=1", "n=7919", "n=67108864"},
     "3*n", "8*n+400", 0.0, 0.001,
     "#include <stdint.h>\n"
     "\n"
     "#define NBINS 100\n"
     "\n"
     "/* 100 equal bins over [-1, 1): x goes to bin (int)((x + 1) * 50); values\n"
     " * outside [-1, 1) are ignored. */\n"
     "void symmetric_histogram(const double *x, int32_t *counts, int n)\n"
     "{\n"
     "    for (int b = 0; b < NBINS; b++)\n"
     "        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n"
     "        if (x[i] < -1.0 || x[i] >= 1.0)\n"
     "            continue;\n"
     "        int b = (int)((x[i] + 1.0) * (NBINS / 2));\n"
     "        counts[b < NBINS ? b : NBINS - 1]++;\n"
     "    }\n"
     "}\n",
     ZERO_I32
     "#define NBINS 100\n"
     "\n"
     "/* One thread per element: bin (int)((x + 1) * 50) for x in [-1, 1). */\n"
     "extern \"C\" __global__ void symmetric_histogram(const double *x, int *counts, int n)\n"
     "{\n"
     "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= n)\n"
     "        return;\n"
     "    const double v = x[i];\n"
     "    if (v < -1.0 || v >= 1.0)\n"
     "        return;\n"
     "    const int b = (int)((v + 1.0) * (NBINS / 2));\n"
     "    atomicAdd(&counts[b < NBINS ? b : NBINS - 1], 1);\n"
     "}\n",
     {{"zero_i32", "1", "256", NULL, "counts,100"},
      {"symmetric_histogram", "(n+255)/256", "256", NULL, "x,counts,n"}},
     NULL, "block=256;mapping=one-element-per-thread-global-atomics"},
};
#define NPROGS ((int)(sizeof PROGS / sizeof PROGS[0]))

static int generate(GenCtx *g)
{
    return prog_emit_all(g, PROGS, NPROGS);
}

const Family family_histogram = {"histogram", "atomics", 54, generate};
