/* sort — sorting written as a person would in C: insertion, odd-even
 * transposition, shell and selection sorts of many short rows (and of the
 * columns of a matrix), bottom-up merge sort of a whole array through a
 * scratch buffer, counting sorts of u8/u16/small-range keys, LSD radix sorts
 * of u32/i32/f32/i64 keys, stable sorts by key with a payload, stable
 * argsort, ranks (stable, dense, global), top-k, row medians, segmented
 * sorts, lexicographic records, sorting by magnitude and per-row unique.
 * Element types vary over f32, f64, i32, i64, i16, u8, u16, u32.  Every
 * output is fully determined: sorts carrying payloads are stable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_optext.h"

enum { ROWS, TOPK, ARRAY, BIG, KRANGE, SEG, COLS, RECS };

/* One launch of an op's plan: the arguments of gen_launch().  A launch of
 * "merge_pass" stands for MERGE_PASSES passes of a bottom-up merge sort,
 * widths 1, 2, 4, ..., its args three '|'-separated lists (the first pass,
 * the even passes, the odd passes) in which "@w" is the width. */
typedef struct OpLaunch {
    const char *kernel, *grid, *block, *smem, *args;
} OpLaunch;

typedef struct Op {
    const char *tag;
    const char *types;  /* space-separated instances: "f32" or "u8/i32" (key/payload) */
    int kind;           /* which configs */
    const char *entry;
    const char *pre;    /* includes, comment, helpers */
    const char *sig;
    const char *body;
    const char *flops, *bytes;  /* $S / $W: key / payload sizes */
    const char *shapes;
    const char *fills;  /* "name=int:lo:hi;name=part:total" */
    /* The pair: kernel.cu as a template ($T, $V and $F as in the C text,
     * with CUDA's type names), its launches in plan order (up to the first
     * without a kernel), scratch buffers ("name:dtype:count;...", $T and $V
     * standing for the key and payload dtypes) and the mapping knob. */
    const char *cuda;
    OpLaunch launch[4];
    const char *scratch;
    const char *mapping;
    /* The C reference's bytes where the problem's undercount them (gen.h:
     * gen_reference_cost; NULL: the same), $S / $W as above. */
    const char *ref_bytes;
} Op;

/* Merge passes of widths 2^0 .. 2^30 sort any int-sized array: the passes
 * whose width reaches n only copy.  An odd count ends in the first pass's
 * destination. */
#define MERGE_PASSES 31

#define ROW_INS_PRE(order) \
    "#include <stddef.h>\n\n/* Sorts each row of a rows x len matrix " order " by insertion sort\n" \
    " * (the rows are short). */\n"
#define ROWS_SHAPES "in=rows,len;out=rows,len"

/* The pairs.  Row, column, segment and top-k programs run the C code's own
 * sort in one thread per row (column, segment); ranks and medians count, one
 * thread per element or row.  Whole-array sorts, whatever the C algorithm
 * (merge, radix, stable counting with payloads), share one stable GPU sort:
 * MERGE_PASSES passes of a bottom-up merge sort, one thread per element
 * moving it to its co-rank in the merged run, ping-ponging between the
 * output and a scratch buffer; the order is the C code's (a `before`
 * function), so results match exactly.  Counting sorts of bare keys count
 * with atomics, scan the counts in one block and fill each output position
 * from its run by binary search. */
#define CU_MERGE_COUNT \
    "/* Of the sorted run[0..m), how many go before x (the first k with run[k]\n" \
    " * not before x). */\n" \
    "__device__ int count_before(const $T *run, int m, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = m;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (before(run[mid], x))\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n" \
    "/* Of the sorted run[0..m), how many do not go after x (the first k with x\n" \
    " * before run[k]). */\n" \
    "__device__ int count_not_after(const $T *run, int m, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = m;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (!before(x, run[mid]))\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n"

#define CU_MERGE_PASS_KEYS \
    "/* One pass of a bottom-up merge sort, one thread per element: the sorted\n" \
    " * runs [lo, lo + w) and [lo + w, lo + 2w) of src merge into dst.  Each\n" \
    " * element goes to its co-rank: a left element after the right elements\n" \
    " * that go before it, a right element after the left elements that do not\n" \
    " * go after it, so the merge is stable.  Passes with w >= n copy. */\n" \
    "extern \"C\" __global__ void merge_pass(const $T *src, $T *dst, int n, int w)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i >= n)\n" \
    "        return;\n" \
    "    const long long lo = i / (2LL * w) * (2LL * w);\n" \
    "    const long long mid = lo + w < n ? lo + w : n, hi = lo + 2LL * w < n ? lo + 2LL * w : n;\n" \
    "    const $T x = src[i];\n" \
    "    if (i < mid)\n" \
    "        dst[i + count_before(src + mid, (int)(hi - mid), x)] = x;\n" \
    "    else\n" \
    "        dst[i - (mid - lo) + count_not_after(src + lo, (int)(mid - lo), x)] = x;\n" \
    "}\n" \
    "\n"

#define CU_MERGE_PASS_PAIRS \
    "/* One pass of a bottom-up merge sort of (key, value) pairs by key, one\n" \
    " * thread per pair: the sorted runs [lo, lo + w) and [lo + w, lo + 2w) merge\n" \
    " * into kdst/vdst, each pair at its co-rank (a left pair after the right\n" \
    " * keys that go before its key, a right pair after the left keys that do\n" \
    " * not go after it: stable).  Passes with w >= n copy. */\n" \
    "extern \"C\" __global__ void merge_pass(const $T *ksrc, const $V *vsrc, $T *kdst, $V *vdst, int n, int w)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i >= n)\n" \
    "        return;\n" \
    "    const long long lo = i / (2LL * w) * (2LL * w);\n" \
    "    const long long mid = lo + w < n ? lo + w : n, hi = lo + 2LL * w < n ? lo + 2LL * w : n;\n" \
    "    const $T x = ksrc[i];\n" \
    "    long long pos;\n" \
    "    if (i < mid)\n" \
    "        pos = i + count_before(ksrc + mid, (int)(hi - mid), x);\n" \
    "    else\n" \
    "        pos = i - (mid - lo) + count_not_after(ksrc + lo, (int)(mid - lo), x);\n" \
    "    kdst[pos] = x;\n" \
    "    vdst[pos] = vsrc[i];\n" \
    "}\n" \
    "\n"

#define CU_MERGE_INDICES \
    "/* Of the run[0..m) of indices sorted by key, how many have a key that goes\n" \
    " * before x. */\n" \
    "__device__ int count_before(const $T *keys, const int *run, int m, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = m;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (keys[run[mid]] < x)\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n" \
    "/* Of the run[0..m) of indices sorted by key, how many have a key that does\n" \
    " * not go after x. */\n" \
    "__device__ int count_not_after(const $T *keys, const int *run, int m, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = m;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (!(x < keys[run[mid]]))\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n" \
    "/* order[i] = i: the indices before the first merge pass. */\n" \
    "extern \"C\" __global__ void iota(int *order, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        order[i] = (int)i;\n" \
    "}\n" \
    "\n" \
    "/* One pass of a bottom-up merge sort of indices by key, one thread per\n" \
    " * index: the runs [lo, lo + w) and [lo + w, lo + 2w) of src merge into dst,\n" \
    " * each index at its co-rank (stable: equal keys keep index order).  Passes\n" \
    " * with w >= n copy. */\n" \
    "extern \"C\" __global__ void merge_pass(const $T *keys, const int *src, int *dst, int n, int w)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i >= n)\n" \
    "        return;\n" \
    "    const long long lo = i / (2LL * w) * (2LL * w);\n" \
    "    const long long mid = lo + w < n ? lo + w : n, hi = lo + 2LL * w < n ? lo + 2LL * w : n;\n" \
    "    const int e = src[i];\n" \
    "    const $T x = keys[e];\n" \
    "    if (i < mid)\n" \
    "        dst[i + count_before(keys, src + mid, (int)(hi - mid), x)] = e;\n" \
    "    else\n" \
    "        dst[i - (mid - lo) + count_not_after(keys, src + lo, (int)(mid - lo), x)] = e;\n" \
    "}\n" \
    "\n"

#define CU_ASCENDING \
    "/* The order of the sort: ascending. */\n" \
    "__device__ bool before($T a, $T b)\n" \
    "{\n" \
    "    return a < b;\n" \
    "}\n" \
    "\n"

#define CU_DESCENDING \
    "/* The order of the sort: descending. */\n" \
    "__device__ bool before($T a, $T b)\n" \
    "{\n" \
    "    return a > b;\n" \
    "}\n" \
    "\n"

#define CU_COUNTING \
    "/* count[v] = 0 for v in [0, K): scratch arrives poisoned. */\n" \
    "extern \"C\" __global__ void zero_counts(int *count, int K)\n" \
    "{\n" \
    "    const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (v < K)\n" \
    "        count[v] = 0;\n" \
    "}\n" \
    "\n" \
    "/* One thread per key: count[in[i]] += 1 atomically. */\n" \
    "extern \"C\" __global__ void count_keys(const $T *in, int *count, int n)\n" \
    "{\n" \
    "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (i < n)\n" \
    "        atomicAdd(&count[in[i]], 1);\n" \
    "}\n" \
    "\n" \
    "/* One block: starts[v] = count[0] + ... + count[v - 1], in chunks of\n" \
    " * blockDim.x (a Hillis-Steele scan in shared memory plus the running total\n" \
    " * of the chunks before). */\n" \
    "extern \"C\" __global__ void exclusive_scan(const int *count, int *starts, int K)\n" \
    "{\n" \
    "    extern __shared__ int part[];\n" \
    "    int carry = 0;\n" \
    "    for (int base = 0; base < K; base += blockDim.x) {\n" \
    "        const int v = base + threadIdx.x;\n" \
    "        const int c = v < K ? count[v] : 0;\n" \
    "        part[threadIdx.x] = c;\n" \
    "        __syncthreads();\n" \
    "        for (int off = 1; off < blockDim.x; off *= 2) {\n" \
    "            const int add = threadIdx.x >= off ? part[threadIdx.x - off] : 0;\n" \
    "            __syncthreads();\n" \
    "            part[threadIdx.x] += add;\n" \
    "            __syncthreads();\n" \
    "        }\n" \
    "        if (v < K)\n" \
    "            starts[v] = carry + part[threadIdx.x] - c;\n" \
    "        carry += part[blockDim.x - 1];\n" \
    "        __syncthreads();\n" \
    "    }\n" \
    "}\n" \
    "\n" \
    "/* One thread per output position p: the value whose run [starts[v],\n" \
    " * starts[v + 1]) holds p, i.e. the last v with starts[v] <= p. */\n" \
    "extern \"C\" __global__ void fill_runs(const int *starts, $T *out, int n, int K)\n" \
    "{\n" \
    "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n" \
    "    if (p >= n)\n" \
    "        return;\n" \
    "    int lo = 0, hi = K;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (starts[mid] <= p)\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    out[p] = ($T)(lo - 1);\n" \
    "}\n" \
    "\n"

static const Op OPS[] = {
    {"insertion-rows-asc", "f32 i32 u8 i64", ROWS, "sort_rows", ROW_INS_PRE("ascending"),
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *src = in + (size_t)r * len;\n"
     "        $T *a = out + (size_t)r * len;\n        for (int i = 0; i < len; i++) {\n"
     "            $T v = src[i];\n            int j = i - 1;\n            while (j >= 0 && a[j] > v) {\n"
     "                a[j + 1] = a[j];\n                j--;\n            }\n            a[j + 1] = v;\n"
     "        }\n    }\n",
     "rows*len*len/2", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: the C code's insertion sort, building the sorted row\n"
             " * in out. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *src = in + r * len;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        const $T v = src[i];\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && a[j] > v) {\n"
             "            a[j + 1] = a[j];\n"
             "            j--;\n"
             "        }\n"
             "        a[j + 1] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"insertion-rows-desc", "f64 i16", ROWS, "sort_rows", ROW_INS_PRE("descending"),
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *src = in + (size_t)r * len;\n"
     "        $T *a = out + (size_t)r * len;\n        for (int i = 0; i < len; i++) {\n"
     "            $T v = src[i];\n            int j = i - 1;\n            while (j >= 0 && a[j] < v) {\n"
     "                a[j + 1] = a[j];\n                j--;\n            }\n            a[j + 1] = v;\n"
     "        }\n    }\n",
     "rows*len*len/2", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: the C code's descending insertion sort, building the\n"
             " * sorted row in out. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *src = in + r * len;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        const $T v = src[i];\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && a[j] < v) {\n"
             "            a[j + 1] = a[j];\n"
             "            j--;\n"
             "        }\n"
             "        a[j + 1] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"odd-even-rows-asc", "f32 u8 f64", ROWS, "sort_rows",
     "#include <stddef.h>\n\n/* Sorts each row of a rows x len matrix ascending by odd-even\n"
     " * transposition: len phases compare-exchanging the pairs (i, i+1) with i\n"
     " * even, then odd, alternately. */\n",
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        $T *a = out + (size_t)r * len;\n"
     "        for (int i = 0; i < len; i++)\n            a[i] = in[(size_t)r * len + i];\n"
     "        for (int phase = 0; phase < len; phase++) {\n"
     "            for (int i = phase % 2; i + 1 < len; i += 2) {\n"
     "                if (a[i] > a[i + 1]) {\n                    $T t = a[i];\n"
     "                    a[i] = a[i + 1];\n                    a[i + 1] = t;\n                }\n"
     "            }\n        }\n    }\n",
     "rows*len*len/2", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: copy the row, then len odd-even transposition phases. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++)\n"
             "        a[i] = in[r * len + i];\n"
             "    for (int phase = 0; phase < len; phase++) {\n"
             "        for (int i = phase % 2; i + 1 < len; i += 2) {\n"
             "            if (a[i] > a[i + 1]) {\n"
             "                const $T t = a[i];\n"
             "                a[i] = a[i + 1];\n"
             "                a[i + 1] = t;\n"
             "            }\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"odd-even-rows-desc", "i32", ROWS, "sort_rows",
     "#include <stddef.h>\n\n/* Sorts each row of a rows x len matrix descending by odd-even\n"
     " * transposition (len alternating phases of compare-exchange). */\n",
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        $T *a = out + (size_t)r * len;\n"
     "        for (int i = 0; i < len; i++)\n            a[i] = in[(size_t)r * len + i];\n"
     "        for (int phase = 0; phase < len; phase++) {\n"
     "            for (int i = phase % 2; i + 1 < len; i += 2) {\n"
     "                if (a[i] < a[i + 1]) {\n                    $T t = a[i];\n"
     "                    a[i] = a[i + 1];\n                    a[i + 1] = t;\n                }\n"
     "            }\n        }\n    }\n",
     "rows*len*len/2", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: copy the row, then len descending odd-even\n"
             " * transposition phases. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++)\n"
             "        a[i] = in[r * len + i];\n"
             "    for (int phase = 0; phase < len; phase++) {\n"
             "        for (int i = phase % 2; i + 1 < len; i += 2) {\n"
             "            if (a[i] < a[i + 1]) {\n"
             "                const $T t = a[i];\n"
             "                a[i] = a[i + 1];\n"
             "                a[i + 1] = t;\n"
             "            }\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"shell-rows", "f32", ROWS, "sort_rows",
     "#include <stddef.h>\n#include <string.h>\n\n"
     "/* Sorts each row of a rows x len matrix ascending by Shell sort with the\n"
     " * gap sequence len/2, len/4, ..., 1. */\n",
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        $T *a = out + (size_t)r * len;\n"
     "        memcpy(a, in + (size_t)r * len, (size_t)len * sizeof *a);\n"
     "        for (int gap = len / 2; gap > 0; gap /= 2) {\n"
     "            for (int i = gap; i < len; i++) {\n                $T v = a[i];\n                int j = i;\n"
     "                while (j >= gap && a[j - gap] > v) {\n                    a[j] = a[j - gap];\n"
     "                    j -= gap;\n                }\n                a[j] = v;\n            }\n        }\n    }\n",
     "rows*len*len/4", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: copy the row, then Shell sort with gaps len/2, len/4,\n"
             " * ..., 1. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++)\n"
             "        a[i] = in[r * len + i];\n"
             "    for (int gap = len / 2; gap > 0; gap /= 2) {\n"
             "        for (int i = gap; i < len; i++) {\n"
             "            const $T v = a[i];\n"
             "            int j = i;\n"
             "            while (j >= gap && a[j - gap] > v) {\n"
             "                a[j] = a[j - gap];\n"
             "                j -= gap;\n"
             "            }\n"
             "            a[j] = v;\n"
             "        }\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"selection-rows", "i32", ROWS, "sort_rows",
     "#include <stddef.h>\n#include <string.h>\n\n"
     "/* Sorts each row of a rows x len matrix ascending by selection sort:\n"
     " * position i receives the smallest of the elements i..len-1. */\n",
     "const $T *in, $T *out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        $T *a = out + (size_t)r * len;\n"
     "        memcpy(a, in + (size_t)r * len, (size_t)len * sizeof *a);\n"
     "        for (int i = 0; i + 1 < len; i++) {\n            int m = i;\n"
     "            for (int j = i + 1; j < len; j++)\n                if (a[j] < a[m])\n                    m = j;\n"
     "            $T t = a[i];\n            a[i] = a[m];\n            a[m] = t;\n        }\n    }\n",
     "rows*len*len/2", "2*$S*rows*len", ROWS_SHAPES, NULL,
     .cuda = "/* One thread per row: copy the row, then selection sort. */\n"
             "extern \"C\" __global__ void sort_rows(const $T *in, $T *out, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    $T *a = out + r * len;\n"
             "    for (int i = 0; i < len; i++)\n"
             "        a[i] = in[r * len + i];\n"
             "    for (int i = 0; i + 1 < len; i++) {\n"
             "        int m = i;\n"
             "        for (int j = i + 1; j < len; j++)\n"
             "            if (a[j] < a[m])\n"
             "                m = j;\n"
             "        const $T t = a[i];\n"
             "        a[i] = a[m];\n"
             "        a[m] = t;\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"columns", "f32", COLS, "sort_columns",
     "#include <stddef.h>\n\n/* Sorts each column of a row-major rows x cols matrix ascending (insertion\n"
     " * sort down the column, stride cols). */\n",
     "const $T *in, $T *out, int rows, int cols",
     "    for (int c = 0; c < cols; c++) {\n        for (int i = 0; i < rows; i++) {\n"
     "            $T v = in[(size_t)i * cols + c];\n            int j = i - 1;\n"
     "            while (j >= 0 && out[(size_t)j * cols + c] > v) {\n"
     "                out[(size_t)(j + 1) * cols + c] = out[(size_t)j * cols + c];\n                j--;\n"
     "            }\n            out[(size_t)(j + 1) * cols + c] = v;\n        }\n    }\n",
     "cols*rows*rows/2", "2*$S*rows*cols", "in=rows,cols;out=rows,cols", NULL,
     .cuda = "/* One thread per column: insertion sort down the column (stride cols);\n"
             " * neighbouring threads touch neighbouring elements. */\n"
             "extern \"C\" __global__ void sort_columns(const $T *in, $T *out, int rows, int cols)\n"
             "{\n"
             "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (c >= cols)\n"
             "        return;\n"
             "    for (int i = 0; i < rows; i++) {\n"
             "        const $T v = in[(long long)i * cols + c];\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && out[(long long)j * cols + c] > v) {\n"
             "            out[(long long)(j + 1) * cols + c] = out[(long long)j * cols + c];\n"
             "            j--;\n"
             "        }\n"
             "        out[(long long)(j + 1) * cols + c] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_columns", "(cols+255)/256", "256", NULL, "in,out,rows,cols"}},
     .mapping = "one-column-per-thread"},
    {"merge-asc", "f32 f64 i32 u32 i64", ARRAY, "merge_sort",
     "#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Sorts n keys ascending with a bottom-up merge sort: sorted runs of width\n"
     " * 1, 2, 4, ... are merged pairwise, alternating between out and a scratch\n * buffer. */\n"
     "static void merge(const $T *src, $T *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid, k = lo;\n    while (i < mid && j < hi)\n"
     "        dst[k++] = src[j] < src[i] ? src[j++] : src[i++];\n"
     "    while (i < mid)\n        dst[k++] = src[i++];\n    while (j < hi)\n        dst[k++] = src[j++];\n}\n\n",
     "const $T *in, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(src, dst, lo, mid, hi);\n        }\n"
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    if (src != out)\n        memcpy(out, src, (size_t)n * sizeof *out);\n    free(tmp);\n",
     "27*n", "2*$S*n", "in=n;out=n", NULL,
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"merge-desc", "f32", ARRAY, "merge_sort",
     "#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Sorts n keys descending with a bottom-up merge sort through a scratch\n * buffer. */\n"
     "static void merge(const $T *src, $T *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid, k = lo;\n    while (i < mid && j < hi)\n"
     "        dst[k++] = src[j] > src[i] ? src[j++] : src[i++];\n"
     "    while (i < mid)\n        dst[k++] = src[i++];\n    while (j < hi)\n        dst[k++] = src[j++];\n}\n\n",
     "const $T *in, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(src, dst, lo, mid, hi);\n        }\n"
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    if (src != out)\n        memcpy(out, src, (size_t)n * sizeof *out);\n    free(tmp);\n",
     "27*n", "2*$S*n", "in=n;out=n", NULL,
     .cuda = CU_DESCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"merge-by-key", "f32/i32 i32/f32 f64/i64", ARRAY, "sort_by_key",
     "#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Stable sort of (key, value) pairs by key, ascending: a bottom-up merge\n"
     " * sort that moves the values with their keys, so equal keys keep their\n"
     " * input order. */\n"
     "static void merge(const $T *ks, const $V *vs, $T *kd, $V *vd, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid;\n    for (int k = lo; k < hi; k++) {\n"
     "        if (j >= hi || (i < mid && !(ks[j] < ks[i]))) {\n"
     "            kd[k] = ks[i];\n            vd[k] = vs[i++];\n        } else {\n"
     "            kd[k] = ks[j];\n            vd[k] = vs[j++];\n        }\n    }\n}\n\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n",
     "    $T *ktmp = malloc((size_t)n * sizeof *ktmp);\n    $V *vtmp = malloc((size_t)n * sizeof *vtmp);\n"
     "    if (!ktmp || !vtmp) {\n        free(ktmp);\n        free(vtmp);\n        return;\n    }\n"
     "    memcpy(keys_out, keys, (size_t)n * sizeof *keys_out);\n"
     "    memcpy(vals_out, vals, (size_t)n * sizeof *vals_out);\n"
     "    $T *ks = keys_out, *kd = ktmp;\n    $V *vs = vals_out, *vd = vtmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(ks, vs, kd, vd, lo, mid, hi);\n        }\n"
     "        $T *kt = ks;\n        ks = kd;\n        kd = kt;\n"
     "        $V *vt = vs;\n        vs = vd;\n        vd = vt;\n    }\n"
     "    if (ks != keys_out) {\n        memcpy(keys_out, ks, (size_t)n * sizeof *keys_out);\n"
     "        memcpy(vals_out, vs, (size_t)n * sizeof *vals_out);\n    }\n"
     "    free(ktmp);\n    free(vtmp);\n",
     "27*n", "2*($S+$W)*n", "keys=n;vals=n;keys_out=n;vals_out=n", "keys=int:0:1000",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_PAIRS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,n,@w|ktmp,vtmp,keys_out,vals_out,n,@w|keys_out,vals_out,ktmp,vtmp,n,@w"}},
     .scratch = "ktmp:$T:n;vtmp:$V:n",
     .mapping = "merge-sort-corank-passes"},
    {"insertion-by-key-rows", "u8/f32", ROWS, "sort_rows_by_key",
     "#include <stddef.h>\n\n/* Stable insertion sort of each row of (key, value) pairs by key: equal\n"
     " * keys keep their order.  keys and vals are rows x len. */\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        size_t base = (size_t)r * len;\n"
     "        $T *k = keys_out + base;\n        $V *v = vals_out + base;\n"
     "        for (int i = 0; i < len; i++) {\n            $T key = keys[base + i];\n"
     "            $V val = vals[base + i];\n            int j = i - 1;\n"
     "            while (j >= 0 && k[j] > key) {\n                k[j + 1] = k[j];\n"
     "                v[j + 1] = v[j];\n                j--;\n            }\n"
     "            k[j + 1] = key;\n            v[j + 1] = val;\n        }\n    }\n",
     "rows*len*len/2", "2*($S+$W)*rows*len", "keys=rows,len;vals=rows,len;keys_out=rows,len;vals_out=rows,len",
     "keys=int:0:8",
     .cuda = "/* One thread per row: the C code's stable insertion sort of the row's\n"
             " * pairs, built in the outputs. */\n"
             "extern \"C\" __global__ void sort_rows_by_key(const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int rows,\n"
             "                                            int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const long long base = r * len;\n"
             "    $T *k = keys_out + base;\n"
             "    $V *v = vals_out + base;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        const $T key = keys[base + i];\n"
             "        const $V val = vals[base + i];\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && k[j] > key) {\n"
             "            k[j + 1] = k[j];\n"
             "            v[j + 1] = v[j];\n"
             "            j--;\n"
             "        }\n"
             "        k[j + 1] = key;\n"
             "        v[j + 1] = val;\n"
             "    }\n"
             "}\n",
     .launch = {{"sort_rows_by_key", "(rows+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"argsort", "f32 i32", ARRAY, "argsort",
     "#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Stable argsort: order[p] is the index of the element at position p when\n"
     " * keys are sorted ascending, equal keys in index order (a bottom-up merge\n"
     " * sort of indices). */\n"
     "static void merge(const $T *keys, const int *src, int *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid, k = lo;\n    while (i < mid && j < hi)\n"
     "        dst[k++] = keys[src[j]] < keys[src[i]] ? src[j++] : src[i++];\n"
     "    while (i < mid)\n        dst[k++] = src[i++];\n    while (j < hi)\n        dst[k++] = src[j++];\n}\n\n",
     "const $T *keys, int *order, int n",
     "    int *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    for (int i = 0; i < n; i++)\n        order[i] = i;\n    int *src = order, *dst = tmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(keys, src, dst, lo, mid, hi);\n        }\n"
     "        int *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    if (src != order)\n        memcpy(order, src, (size_t)n * sizeof *order);\n    free(tmp);\n",
     "27*n", "($S+4)*n", "keys=n;order=n", NULL,
     .cuda = CU_MERGE_INDICES,
     .launch = {{"iota", "(n+255)/256", "256", NULL, "tmp,n"},
                {"merge_pass", "(n+255)/256", "256", NULL, "keys,tmp,order,n,@w|keys,tmp,order,n,@w|keys,order,tmp,n,@w"}},
     .scratch = "tmp:i32:n",
     .mapping = "merge-sort-corank-passes",
     /* a merge pass compares keys[src[i]] at random once the runs are long:
      * two 64-byte lines per element per pass, 27 passes (the flops' count) */
     .ref_bytes = "128*27*n"},
    {"argsort-rows-asc", "f32", ROWS, "argsort_rows",
     "#include <stddef.h>\n\n/* Stable argsort of each row of a rows x len matrix: idx[r][p] is the\n"
     " * column of the p-th smallest element of row r (ties in column order). */\n",
     "const $T *keys, int *idx, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *k = keys + (size_t)r * len;\n"
     "        int *a = idx + (size_t)r * len;\n        for (int i = 0; i < len; i++) {\n"
     "            int j = i - 1;\n            while (j >= 0 && k[a[j]] > k[i]) {\n"
     "                a[j + 1] = a[j];\n                j--;\n            }\n            a[j + 1] = i;\n"
     "        }\n    }\n",
     "rows*len*len/2", "($S+4)*rows*len", "keys=rows,len;idx=rows,len", NULL,
     .cuda = "/* One thread per row: the C code's insertion sort of column indices by key. */\n"
             "extern \"C\" __global__ void argsort_rows(const $T *keys, int *idx, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *k = keys + r * len;\n"
             "    int *a = idx + r * len;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && k[a[j]] > k[i]) {\n"
             "            a[j + 1] = a[j];\n"
             "            j--;\n"
             "        }\n"
             "        a[j + 1] = i;\n"
             "    }\n"
             "}\n",
     .launch = {{"argsort_rows", "(rows+255)/256", "256", NULL, "keys,idx,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"argsort-rows-desc", "i32", ROWS, "argsort_rows",
     "#include <stddef.h>\n\n/* Stable descending argsort of each row of a rows x len matrix: idx[r][p]\n"
     " * is the column of the p-th largest element, equal keys in column order. */\n",
     "const $T *keys, int *idx, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *k = keys + (size_t)r * len;\n"
     "        int *a = idx + (size_t)r * len;\n        for (int i = 0; i < len; i++) {\n"
     "            int j = i - 1;\n            while (j >= 0 && k[a[j]] < k[i]) {\n"
     "                a[j + 1] = a[j];\n                j--;\n            }\n            a[j + 1] = i;\n"
     "        }\n    }\n",
     "rows*len*len/2", "($S+4)*rows*len", "keys=rows,len;idx=rows,len", "keys=int:0:16",
     .cuda = "/* One thread per row: the C code's descending insertion sort of column\n"
             " * indices by key. */\n"
             "extern \"C\" __global__ void argsort_rows(const $T *keys, int *idx, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *k = keys + r * len;\n"
             "    int *a = idx + r * len;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        int j = i - 1;\n"
             "        while (j >= 0 && k[a[j]] < k[i]) {\n"
             "            a[j + 1] = a[j];\n"
             "            j--;\n"
             "        }\n"
             "        a[j + 1] = i;\n"
             "    }\n"
             "}\n",
     .launch = {{"argsort_rows", "(rows+255)/256", "256", NULL, "keys,idx,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"counting-u8", "u8", BIG, "counting_sort",
     "#include <stddef.h>\n\n/* Counting sort of byte keys: count each value, then write the values out\n * in order. */\n",
     "const $T *in, $T *out, int n",
     "    size_t count[256] = {0};\n    for (int i = 0; i < n; i++)\n        count[in[i]]++;\n"
     "    size_t pos = 0;\n    for (int v = 0; v < 256; v++)\n"
     "        for (size_t c = 0; c < count[v]; c++)\n            out[pos++] = ($T)v;\n",
     "2*n", "2*n", "in=n;out=n", NULL,
     .cuda = CU_COUNTING,
     .launch = {{"zero_counts", "1", "256", NULL, "count,256"},
                {"count_keys", "(n+255)/256", "256", NULL, "in,count,n"},
                {"exclusive_scan", "1", "256", "256*4", "count,starts,256"},
                {"fill_runs", "(n+255)/256", "256", NULL, "starts,out,n,256"}},
     .scratch = "count:i32:256;starts:i32:256",
     .mapping = "global-atomics-count+block-scan+one-output-per-thread-fill"},
    {"counting-payload", "u8/i32", BIG, "counting_sort_pairs",
     "#include <stddef.h>\n\n/* Stable counting sort of (byte key, value) pairs: bucket starts are the\n"
     " * exclusive prefix sums of the key counts, and pairs are scattered in\n * input order. */\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n",
     "    size_t start[257] = {0};\n    for (int i = 0; i < n; i++)\n        start[keys[i] + 1]++;\n"
     "    for (int v = 0; v < 256; v++)\n        start[v + 1] += start[v];\n"
     "    for (int i = 0; i < n; i++) {\n        size_t d = start[keys[i]]++;\n"
     "        keys_out[d] = keys[i];\n        vals_out[d] = vals[i];\n    }\n",
     "3*n", "2*($S+$W)*n", "keys=n;vals=n;keys_out=n;vals_out=n", NULL,
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_PAIRS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,n,@w|ktmp,vtmp,keys_out,vals_out,n,@w|keys_out,vals_out,ktmp,vtmp,n,@w"}},
     .scratch = "ktmp:$T:n;vtmp:$V:n",
     .mapping = "merge-sort-corank-passes"},
    {"counting-payload-desc", "u8/f32", BIG, "counting_sort_pairs",
     "#include <stddef.h>\n\n/* Stable counting sort of (byte key, value) pairs into descending key\n"
     " * order: the bucket of key 255 comes first; equal keys keep input order. */\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n",
     "    size_t count[256] = {0}, start[256];\n    for (int i = 0; i < n; i++)\n        count[keys[i]]++;\n"
     "    size_t pos = 0;\n    for (int v = 255; v >= 0; v--) {\n        start[v] = pos;\n        pos += count[v];\n    }\n"
     "    for (int i = 0; i < n; i++) {\n        size_t d = start[keys[i]]++;\n"
     "        keys_out[d] = keys[i];\n        vals_out[d] = vals[i];\n    }\n",
     "3*n", "2*($S+$W)*n", "keys=n;vals=n;keys_out=n;vals_out=n", NULL,
     .cuda = CU_DESCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_PAIRS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,n,@w|ktmp,vtmp,keys_out,vals_out,n,@w|keys_out,vals_out,ktmp,vtmp,n,@w"}},
     .scratch = "ktmp:$T:n;vtmp:$V:n",
     .mapping = "merge-sort-corank-passes"},
    {"counting-offsets", "u8", BIG, "counting_sort",
     "#include <stddef.h>\n\n/* Counting sort of byte keys that also returns where each value's run\n"
     " * starts in the output (starts[v] = number of keys < v). */\n",
     "const $T *in, $T *out, int *starts, int n",
     "    int count[256] = {0};\n    for (int i = 0; i < n; i++)\n        count[in[i]]++;\n"
     "    int pos = 0;\n    for (int v = 0; v < 256; v++) {\n        starts[v] = pos;\n"
     "        for (int c = 0; c < count[v]; c++)\n            out[pos++] = ($T)v;\n    }\n",
     "2*n", "2*n+1024", "in=n;out=n;starts=256", NULL,
     .cuda = CU_COUNTING,
     .launch = {{"zero_counts", "1", "256", NULL, "count,256"},
                {"count_keys", "(n+255)/256", "256", NULL, "in,count,n"},
                {"exclusive_scan", "1", "256", "256*4", "count,starts,256"},
                {"fill_runs", "(n+255)/256", "256", NULL, "starts,out,n,256"}},
     .scratch = "count:i32:256",
     .mapping = "global-atomics-count+block-scan+one-output-per-thread-fill"},
    {"counting-u16-payload", "u16/f32", BIG, "counting_sort_pairs",
     "#include <stdlib.h>\n\n/* Stable counting sort of (16-bit key, value) pairs through 65536\n * buckets. */\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n",
     "    size_t *start = calloc(65537, sizeof *start);\n    if (!start)\n        return;\n"
     "    for (int i = 0; i < n; i++)\n        start[keys[i] + 1]++;\n"
     "    for (int v = 0; v < 65536; v++)\n        start[v + 1] += start[v];\n"
     "    for (int i = 0; i < n; i++) {\n        size_t d = start[keys[i]]++;\n"
     "        keys_out[d] = keys[i];\n        vals_out[d] = vals[i];\n    }\n    free(start);\n",
     "3*n", "2*($S+$W)*n", "keys=n;vals=n;keys_out=n;vals_out=n", "keys=int:0:65536",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_PAIRS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,n,@w|ktmp,vtmp,keys_out,vals_out,n,@w|keys_out,vals_out,ktmp,vtmp,n,@w"}},
     .scratch = "ktmp:$T:n;vtmp:$V:n",
     .mapping = "merge-sort-corank-passes"},
    {"counting-range", "i32", KRANGE, "counting_sort",
     "#include <stdlib.h>\n\n/* Counting sort of integer keys known to lie in [0, K). */\n",
     "const $T *in, $T *out, int n, int K",
     "    size_t *count = calloc((size_t)K, sizeof *count);\n    if (!count)\n        return;\n"
     "    for (int i = 0; i < n; i++)\n        count[in[i]]++;\n"
     "    size_t pos = 0;\n    for (int v = 0; v < K; v++)\n"
     "        for (size_t c = 0; c < count[v]; c++)\n            out[pos++] = v;\n    free(count);\n",
     "2*n+K", "2*$S*n", "in=n;out=n", "in=int:0:K",
     .cuda = CU_COUNTING,
     .launch = {{"zero_counts", "(K+255)/256", "256", NULL, "count,K"},
                {"count_keys", "(n+255)/256", "256", NULL, "in,count,n"},
                {"exclusive_scan", "1", "256", "256*4", "count,starts,K"},
                {"fill_runs", "(n+255)/256", "256", NULL, "starts,out,n,K"}},
     .scratch = "count:i32:K;starts:i32:K",
     .mapping = "global-atomics-count+block-scan+one-output-per-thread-fill"},
#define RADIX_PRE(what, extra)                                                                    \
    "#include <stddef.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n\n"      \
    "/* LSD radix sort of " what ":\n"                                                                \
    " * stable counting-sort passes over the digits from least to most\n"                          \
    " * significant, ping-ponging between out and a scratch buffer." extra " */\n"
#define RADIX_LOOP(bits, passes, digit, copy)                                                     \
    "    for (int shift = 0; shift < " passes "; shift += " bits ") {\n"                           \
    "        size_t start[BUCKETS + 1] = {0};\n"                                                     \
    "        for (int i = 0; i < n; i++)\n            start[" digit " + 1]++;\n"                    \
    "        for (int b = 0; b < BUCKETS; b++)\n            start[b + 1] += start[b];\n"            \
    "        for (int i = 0; i < n; i++) {\n            size_t d = start[" digit "]++;\n" copy       \
    "        }\n"
    {"radix-u32-8bit", "u32", BIG, "radix_sort", RADIX_PRE("32-bit unsigned keys with 8-bit digits", "")
     "#define BUCKETS 256\n\n",
     "const $T *in, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     RADIX_LOOP("8", "32", "((src[i] >> shift) & 0xFF)", "            dst[d] = src[i];\n")
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    free(tmp); /* an even number of passes leaves the result in out */\n",
     "12*n", "2*$S*n", "in=n;out=n", "in=int:0:4294967295",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"radix-u32-4bit", "u32", BIG, "radix_sort", RADIX_PRE("32-bit unsigned keys with 4-bit digits (eight passes)", "")
     "#define BUCKETS 16\n\n",
     "const $T *in, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     RADIX_LOOP("4", "32", "((src[i] >> shift) & 0xF)", "            dst[d] = src[i];\n")
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    free(tmp); /* an even number of passes leaves the result in out */\n",
     "24*n", "2*$S*n", "in=n;out=n", "in=int:0:4294967295",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"radix-pairs", "u32/u32 u32/f32", BIG, "radix_sort_pairs",
     RADIX_PRE("(32-bit key, value) pairs with 8-bit digits", "\n * Equal keys keep their input order.")
     "#define BUCKETS 256\n\n",
     "const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n",
     "    $T *ktmp = malloc((size_t)n * sizeof *ktmp);\n    $V *vtmp = malloc((size_t)n * sizeof *vtmp);\n"
     "    if (!ktmp || !vtmp) {\n        free(ktmp);\n        free(vtmp);\n        return;\n    }\n"
     "    memcpy(keys_out, keys, (size_t)n * sizeof *keys_out);\n"
     "    memcpy(vals_out, vals, (size_t)n * sizeof *vals_out);\n"
     "    $T *ks = keys_out, *kd = ktmp;\n    $V *vs = vals_out, *vd = vtmp;\n"
     "    for (int shift = 0; shift < 32; shift += 8) {\n"
     "        size_t start[BUCKETS + 1] = {0};\n"
     "        for (int i = 0; i < n; i++)\n            start[((ks[i] >> shift) & 0xFF) + 1]++;\n"
     "        for (int b = 0; b < BUCKETS; b++)\n            start[b + 1] += start[b];\n"
     "        for (int i = 0; i < n; i++) {\n            size_t d = start[(ks[i] >> shift) & 0xFF]++;\n"
     "            kd[d] = ks[i];\n            vd[d] = vs[i];\n        }\n"
     "        $T *kt = ks;\n        ks = kd;\n        kd = kt;\n"
     "        $V *vt = vs;\n        vs = vd;\n        vd = vt;\n    }\n"
     "    free(ktmp); /* an even number of passes leaves the result in the outputs */\n    free(vtmp);\n",
     "12*n", "2*($S+$W)*n", "keys=n;vals=n;keys_out=n;vals_out=n", "keys=int:0:65536",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_PAIRS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "keys,vals,keys_out,vals_out,n,@w|ktmp,vtmp,keys_out,vals_out,n,@w|keys_out,vals_out,ktmp,vtmp,n,@w"}},
     .scratch = "ktmp:$T:n;vtmp:$V:n",
     .mapping = "merge-sort-corank-passes"},
    {"radix-i32", "i32", BIG, "radix_sort", RADIX_PRE("signed 32-bit keys", "\n * Flipping the sign bit maps signed order onto unsigned order.")
     "#define BUCKETS 256\n\nstatic unsigned digit(int32_t key, int shift)\n{\n"
     "    return (((uint32_t)key ^ 0x80000000u) >> shift) & 0xFF;\n}\n\n",
     "const int32_t *in, int32_t *out, int n",
     "    int32_t *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    int32_t *src = out, *dst = tmp;\n"
     RADIX_LOOP("8", "32", "digit(src[i], shift)", "            dst[d] = src[i];\n")
     "        int32_t *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    free(tmp); /* an even number of passes leaves the result in out */\n",
     "12*n", "2*$S*n", "in=n;out=n", "in=int:-1000000000:1000000000",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"radix-f32", "f32", BIG, "radix_sort", RADIX_PRE("float keys", "\n * Each float's bits map to an unsigned key of the same order: negative\n"
                                                      " * values have all bits flipped, others only the sign bit.")
     "#define BUCKETS 256\n\nstatic uint32_t order_key(float x)\n{\n    uint32_t u;\n"
     "    memcpy(&u, &x, sizeof u);\n    return (u & 0x80000000u) ? ~u : u | 0x80000000u;\n}\n\n",
     "const float *in, float *out, int n",
     "    float *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    float *src = out, *dst = tmp;\n"
     RADIX_LOOP("8", "32", "((order_key(src[i]) >> shift) & 0xFF)", "            dst[d] = src[i];\n")
     "        float *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    free(tmp); /* an even number of passes leaves the result in out */\n",
     "16*n", "2*$S*n", "in=n;out=n", "in=uni:-1000:1000",
     .cuda = "/* The order of the radix sort: by the unsigned key of each float's bits\n"
             " * (negative values all bits flipped, others the sign bit set), so -0.0\n"
             " * comes before +0.0. */\n"
             "__device__ unsigned int order_key(float x)\n"
             "{\n"
             "    const unsigned int u = __float_as_uint(x);\n"
             "    return (u & 0x80000000u) ? ~u : u | 0x80000000u;\n"
             "}\n"
             "\n"
             "__device__ bool before(float a, float b)\n"
             "{\n"
             "    return order_key(a) < order_key(b);\n"
             "}\n"
             "\n"
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"radix-i64-16bit", "i64", BIG, "radix_sort", RADIX_PRE("signed 64-bit keys with 16-bit digits", "")
     "#define BUCKETS 65536\n\nstatic unsigned digit(int64_t key, int shift)\n{\n"
     "    return (unsigned)((((uint64_t)key ^ 0x8000000000000000u) >> shift) & 0xFFFF);\n}\n\n",
     "const int64_t *in, int64_t *out, int n",
     "    int64_t *tmp = malloc((size_t)n * sizeof *tmp);\n    size_t *start = malloc((BUCKETS + 1) * sizeof *start);\n"
     "    if (!tmp || !start) {\n        free(tmp);\n        free(start);\n        return;\n    }\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    int64_t *src = out, *dst = tmp;\n"
     "    for (int shift = 0; shift < 64; shift += 16) {\n"
     "        memset(start, 0, (BUCKETS + 1) * sizeof *start);\n"
     "        for (int i = 0; i < n; i++)\n            start[digit(src[i], shift) + 1]++;\n"
     "        for (int b = 0; b < BUCKETS; b++)\n            start[b + 1] += start[b];\n"
     "        for (int i = 0; i < n; i++)\n            dst[start[digit(src[i], shift)]++] = src[i];\n"
     "        int64_t *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    free(tmp); /* an even number of passes leaves the result in out */\n    free(start);\n",
     "12*n", "2*$S*n", "in=n;out=n", "in=int:-1000000000000000:1000000000000000",
     .cuda = CU_ASCENDING
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"rank-rows", "f32 i32", ROWS, "rank_rows",
     "#include <stddef.h>\n\n/* Stable rank of each element within its row: rank[r][i] is the number of\n"
     " * elements of row r that are smaller, or equal and to the left, i.e. the\n"
     " * position the element takes when the row is stably sorted. */\n",
     "const $T *keys, int *rank, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = keys + (size_t)r * len;\n"
     "        for (int i = 0; i < len; i++) {\n            int c = 0;\n"
     "            for (int j = 0; j < len; j++)\n"
     "                if (a[j] < a[i] || (a[j] == a[i] && j < i))\n                    c++;\n"
     "            rank[(size_t)r * len + i] = c;\n        }\n    }\n",
     "2*rows*len*len", "($S+4)*rows*len", "keys=rows,len;rank=rows,len", "keys=int:0:50",
     .cuda = "/* One thread per element: the elements of its row that are smaller, or\n"
             " * equal and to its left. */\n"
             "extern \"C\" __global__ void rank_rows(const $T *keys, int *rank, int rows, int len)\n"
             "{\n"
             "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (e >= (long long)rows * len)\n"
             "        return;\n"
             "    const long long r = e / len;\n"
             "    const int i = (int)(e % len);\n"
             "    const $T *a = keys + r * len;\n"
             "    int c = 0;\n"
             "    for (int j = 0; j < len; j++)\n"
             "        if (a[j] < a[i] || (a[j] == a[i] && j < i))\n"
             "            c++;\n"
             "    rank[e] = c;\n"
             "}\n",
     .launch = {{"rank_rows", "(rows*len+255)/256", "256", NULL, "keys,rank,rows,len"}},
     .mapping = "one-element-per-thread"},
    {"dense-rank-rows", "i32", ROWS, "dense_rank_rows",
     "#include <stddef.h>\n#include <stdlib.h>\n\n"
     "/* Dense rank within each row: the number of distinct values of the row\n"
     " * that are smaller than the element (equal values share a rank).  Each\n"
     " * row is sorted into a scratch row, deduplicated and searched. */\n",
     "const $T *keys, int *rank, int rows, int len",
     "    $T *u = malloc((size_t)len * sizeof *u);\n    if (!u)\n        return;\n"
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = keys + (size_t)r * len;\n"
     "        int m = 0; /* sorted distinct values so far */\n"
     "        for (int i = 0; i < len; i++) {\n            int j = m - 1;\n"
     "            while (j >= 0 && u[j] > a[i])\n                j--;\n"
     "            if (j >= 0 && u[j] == a[i])\n                continue;\n"
     "            for (int k = m; k > j + 1; k--)\n                u[k] = u[k - 1];\n"
     "            u[j + 1] = a[i];\n            m++;\n        }\n"
     "        for (int i = 0; i < len; i++) {\n            int lo = 0, hi = m;\n"
     "            while (lo < hi) {\n                int mid = lo + (hi - lo) / 2;\n"
     "                if (u[mid] < a[i])\n                    lo = mid + 1;\n                else\n                    hi = mid;\n"
     "            }\n            rank[(size_t)r * len + i] = lo;\n        }\n    }\n    free(u);\n",
     "rows*len*len", "($S+4)*rows*len", "keys=rows,len;rank=rows,len", "keys=int:0:20",
     .cuda = "/* One thread per element: first = 1 when no element to its left in the row\n"
             " * is equal (it stands for its value). */\n"
             "extern \"C\" __global__ void first_occurrences(const $T *keys, unsigned char *first, int rows, int len)\n"
             "{\n"
             "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (e >= (long long)rows * len)\n"
             "        return;\n"
             "    const long long r = e / len;\n"
             "    const int i = (int)(e % len);\n"
             "    const $T *a = keys + r * len;\n"
             "    int j = 0;\n"
             "    while (j < i && a[j] != a[i])\n"
             "        j++;\n"
             "    first[e] = j == i;\n"
             "}\n"
             "\n"
             "/* One thread per element: the number of distinct smaller values in its\n"
             " * row, counting each value at its first occurrence. */\n"
             "extern \"C\" __global__ void dense_rank_rows(const $T *keys, const unsigned char *first, int *rank, int rows, int len)\n"
             "{\n"
             "    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (e >= (long long)rows * len)\n"
             "        return;\n"
             "    const long long r = e / len;\n"
             "    const $T *a = keys + r * len;\n"
             "    const unsigned char *f = first + r * len;\n"
             "    const $T v = keys[e];\n"
             "    int c = 0;\n"
             "    for (int j = 0; j < len; j++)\n"
             "        if (f[j] && a[j] < v)\n"
             "            c++;\n"
             "    rank[e] = c;\n"
             "}\n",
     .launch = {{"first_occurrences", "(rows*len+255)/256", "256", NULL, "keys,first,rows,len"},
                {"dense_rank_rows", "(rows*len+255)/256", "256", NULL, "keys,first,rank,rows,len"}},
     .scratch = "first:u8:rows*len",
     .mapping = "one-element-per-thread"},
    {"rank-global", "i32", ARRAY, "rank",
     "#include <stdlib.h>\n\n/* Global stable rank: rank[i] is the position of element i in the stable\n"
     " * ascending order of keys.  A merge sort of indices gives the order, which\n * is then inverted. */\n"
     "static void merge(const $T *keys, const int *src, int *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid, k = lo;\n    while (i < mid && j < hi)\n"
     "        dst[k++] = keys[src[j]] < keys[src[i]] ? src[j++] : src[i++];\n"
     "    while (i < mid)\n        dst[k++] = src[i++];\n    while (j < hi)\n        dst[k++] = src[j++];\n}\n\n",
     "const $T *keys, int *rank, int n",
     "    int *a = malloc((size_t)n * sizeof *a);\n    int *b = malloc((size_t)n * sizeof *b);\n"
     "    if (!a || !b) {\n        free(a);\n        free(b);\n        return;\n    }\n"
     "    for (int i = 0; i < n; i++)\n        a[i] = i;\n    int *src = a, *dst = b;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(keys, src, dst, lo, mid, hi);\n        }\n"
     "        int *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    for (int p = 0; p < n; p++)\n        rank[src[p]] = p;\n    free(a);\n    free(b);\n",
     "27*n", "($S+4)*n", "keys=n;rank=n", "keys=int:0:10000",
     .cuda = CU_MERGE_INDICES
             "/* One thread per position p of the stable order: rank[order[p]] = p. */\n"
             "extern \"C\" __global__ void invert(const int *order, int *rank, int n)\n"
             "{\n"
             "    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (p < n)\n"
             "        rank[order[p]] = (int)p;\n"
             "}\n",
     .launch = {{"iota", "(n+255)/256", "256", NULL, "tmp,n"},
                {"merge_pass", "(n+255)/256", "256", NULL, "keys,tmp,order,n,@w|keys,tmp,order,n,@w|keys,order,tmp,n,@w"},
                {"invert", "(n+255)/256", "256", NULL, "order,rank,n"}},
     .scratch = "order:i32:n;tmp:i32:n",
     .mapping = "merge-sort-corank-passes+one-element-per-thread-invert",
     /* a merge pass compares keys[src[i]] at random once the runs are long:
      * two 64-byte lines per element per pass, 27 passes (the flops' count) */
     .ref_bytes = "128*27*n"},
    {"topk-smallest", "f32", TOPK, "topk_rows",
     "#include <stddef.h>\n\n/* The k smallest elements of each row of a rows x len matrix, in ascending\n"
     " * order (k <= len), kept in a sorted list while scanning the row. */\n",
     "const $T *in, $T *out, int rows, int len, int k",
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = in + (size_t)r * len;\n"
     "        $T *best = out + (size_t)r * k;\n        int m = 0;\n"
     "        for (int i = 0; i < len; i++) {\n            $T v = a[i];\n"
     "            if (m == k && !(v < best[k - 1]))\n                continue;\n"
     "            int j = m < k ? m++ : k - 1;\n"
     "            while (j > 0 && best[j - 1] > v) {\n                best[j] = best[j - 1];\n                j--;\n            }\n"
     "            best[j] = v;\n        }\n    }\n",
     "rows*len*k", "$S*rows*len+$S*rows*k", "in=rows,len;out=rows,k", NULL,
     .cuda = "/* One thread per row: the C code's sorted list of the k smallest, kept in\n"
             " * the output row while scanning. */\n"
             "extern \"C\" __global__ void topk_rows(const $T *in, $T *out, int rows, int len, int k)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *a = in + r * len;\n"
             "    $T *best = out + r * k;\n"
             "    int m = 0;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        const $T v = a[i];\n"
             "        if (m == k && !(v < best[k - 1]))\n"
             "            continue;\n"
             "        int j = m < k ? m++ : k - 1;\n"
             "        while (j > 0 && best[j - 1] > v) {\n"
             "            best[j] = best[j - 1];\n"
             "            j--;\n"
             "        }\n"
             "        best[j] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"topk_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len,k"}},
     .mapping = "one-row-per-thread"},
    {"topk-largest", "f64", TOPK, "topk_rows",
     "#include <stddef.h>\n\n/* The k largest elements of each row of a rows x len matrix, in descending\n"
     " * order (k <= len). */\n",
     "const $T *in, $T *out, int rows, int len, int k",
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = in + (size_t)r * len;\n"
     "        $T *best = out + (size_t)r * k;\n        int m = 0;\n"
     "        for (int i = 0; i < len; i++) {\n            $T v = a[i];\n"
     "            if (m == k && !(v > best[k - 1]))\n                continue;\n"
     "            int j = m < k ? m++ : k - 1;\n"
     "            while (j > 0 && best[j - 1] < v) {\n                best[j] = best[j - 1];\n                j--;\n            }\n"
     "            best[j] = v;\n        }\n    }\n",
     "rows*len*k", "$S*rows*len+$S*rows*k", "in=rows,len;out=rows,k", NULL,
     .cuda = "/* One thread per row: the C code's sorted list of the k largest, kept in\n"
             " * the output row while scanning. */\n"
             "extern \"C\" __global__ void topk_rows(const $T *in, $T *out, int rows, int len, int k)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *a = in + r * len;\n"
             "    $T *best = out + r * k;\n"
             "    int m = 0;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        const $T v = a[i];\n"
             "        if (m == k && !(v > best[k - 1]))\n"
             "            continue;\n"
             "        int j = m < k ? m++ : k - 1;\n"
             "        while (j > 0 && best[j - 1] < v) {\n"
             "            best[j] = best[j - 1];\n"
             "            j--;\n"
             "        }\n"
             "        best[j] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"topk_rows", "(rows+255)/256", "256", NULL, "in,out,rows,len,k"}},
     .mapping = "one-row-per-thread"},
    {"topk-indices", "f32", TOPK, "topk_rows",
     "#include <stddef.h>\n\n/* Indices of the k largest elements of each row (k <= len), largest first;\n"
     " * of equal values the one with the smaller index comes first. */\n",
     "const $T *in, int *idx, int rows, int len, int k",
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = in + (size_t)r * len;\n"
     "        int *best = idx + (size_t)r * k;\n        int m = 0;\n"
     "        for (int i = 0; i < len; i++) {\n"
     "            if (m == k && !(a[i] > a[best[k - 1]]))\n                continue;\n"
     "            int j = m < k ? m++ : k - 1;\n"
     "            while (j > 0 && a[best[j - 1]] < a[i]) {\n                best[j] = best[j - 1];\n                j--;\n            }\n"
     "            best[j] = i;\n        }\n    }\n",
     "rows*len*k", "$S*rows*len+4*rows*k", "in=rows,len;idx=rows,k", NULL,
     .cuda = "/* One thread per row: the C code's list of the indices of the k largest,\n"
             " * kept in the output row while scanning. */\n"
             "extern \"C\" __global__ void topk_rows(const $T *in, int *idx, int rows, int len, int k)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *a = in + r * len;\n"
             "    int *best = idx + r * k;\n"
             "    int m = 0;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        if (m == k && !(a[i] > a[best[k - 1]]))\n"
             "            continue;\n"
             "        int j = m < k ? m++ : k - 1;\n"
             "        while (j > 0 && a[best[j - 1]] < a[i]) {\n"
             "            best[j] = best[j - 1];\n"
             "            j--;\n"
             "        }\n"
             "        best[j] = i;\n"
             "    }\n"
             "}\n",
     .launch = {{"topk_rows", "(rows+255)/256", "256", NULL, "in,idx,rows,len,k"}},
     .mapping = "one-row-per-thread"},
    {"median-rows", "f32 f64", ROWS, "median_rows",
     "#include <stddef.h>\n#include <stdlib.h>\n\n"
     "/* Median of each row of a rows x len matrix: the middle element of the\n"
     " * sorted row, or the mean of the two middle ones when len is even. */\n",
     "const $T *in, $T *med, int rows, int len",
     "    $T *a = malloc((size_t)len * sizeof *a);\n    if (!a)\n        return;\n"
     "    for (int r = 0; r < rows; r++) {\n        const $T *src = in + (size_t)r * len;\n"
     "        for (int i = 0; i < len; i++) {\n            $T v = src[i];\n            int j = i - 1;\n"
     "            while (j >= 0 && a[j] > v) {\n                a[j + 1] = a[j];\n                j--;\n            }\n"
     "            a[j + 1] = v;\n        }\n"
     "        med[r] = len % 2 ? a[len / 2] : (a[len / 2 - 1] + a[len / 2]) / 2;\n    }\n    free(a);\n",
     "rows*len*len/2", "$S*rows*len+$S*rows", "in=rows,len;med=rows", NULL,
     .cuda = "/* The element of a[0..len) that a stable ascending sort puts at position p:\n"
             " * the one with p elements smaller, or equal and to its left. */\n"
             "__device__ $T kth(const $T *a, int len, int p)\n"
             "{\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        int rank = 0;\n"
             "        for (int j = 0; j < len; j++)\n"
             "            if (a[j] < a[i] || (a[j] == a[i] && j < i))\n"
             "                rank++;\n"
             "        if (rank == p)\n"
             "            return a[i];\n"
             "    }\n"
             "    return a[0]; /* not reached: every position has an element */\n"
             "}\n"
             "\n"
             "/* One thread per row: the middle element (the mean of the two middle ones\n"
             " * for even len) found by rank counting, without sorting a copy. */\n"
             "extern \"C\" __global__ void median_rows(const $T *in, $T *med, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *a = in + r * len;\n"
             "    med[r] = len % 2 ? kth(a, len, len / 2) : (kth(a, len, len / 2 - 1) + kth(a, len, len / 2)) / 2;\n"
             "}\n",
     .launch = {{"median_rows", "(rows+255)/256", "256", NULL, "in,med,rows,len"}},
     .mapping = "one-row-per-thread"},
    {"segmented", "f32", SEG, "segmented_sort",
     "/* Sorts each segment [seg_ptr[s], seg_ptr[s+1]) of keys ascending by\n * insertion sort. */\n",
     "const int *seg_ptr, const $T *keys, $T *out, int n, int nseg",
     "    (void)n; /* sizes keys and out: seg_ptr[nseg] == n */\n    for (int s = 0; s < nseg; s++) {\n        int lo = seg_ptr[s], hi = seg_ptr[s + 1];\n"
     "        for (int i = lo; i < hi; i++) {\n            $T v = keys[i];\n            int j = i - 1;\n"
     "            while (j >= lo && out[j] > v) {\n                out[j + 1] = out[j];\n                j--;\n            }\n"
     "            out[j + 1] = v;\n        }\n    }\n",
     "n*n/nseg", "4*(nseg+1)+2*$S*n", "seg_ptr=nseg+1;keys=n;out=n", "seg_ptr=part:n",
     .cuda = "/* One thread per segment: the C code's insertion sort of the segment,\n"
             " * built in out. */\n"
             "extern \"C\" __global__ void segmented_sort(const int *seg_ptr, const $T *keys, $T *out, int nseg)\n"
             "{\n"
             "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (s >= nseg)\n"
             "        return;\n"
             "    const int lo = seg_ptr[s], hi = seg_ptr[s + 1];\n"
             "    for (int i = lo; i < hi; i++) {\n"
             "        const $T v = keys[i];\n"
             "        int j = i - 1;\n"
             "        while (j >= lo && out[j] > v) {\n"
             "            out[j + 1] = out[j];\n"
             "            j--;\n"
             "        }\n"
             "        out[j + 1] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"segmented_sort", "(nseg+255)/256", "256", NULL, "seg_ptr,keys,out,nseg"}},
     .mapping = "one-segment-per-thread"},
    {"segmented-by-key", "i32/f32", SEG, "segmented_sort_by_key",
     "/* Stable sort by key of (key, value) pairs within each segment\n"
     " * [seg_ptr[s], seg_ptr[s+1]); equal keys keep their order. */\n",
     "const int *seg_ptr, const $T *keys, const $V *vals, $T *keys_out, $V *vals_out, int n, int nseg",
     "    (void)n; /* sizes the arrays: seg_ptr[nseg] == n */\n    for (int s = 0; s < nseg; s++) {\n        int lo = seg_ptr[s], hi = seg_ptr[s + 1];\n"
     "        for (int i = lo; i < hi; i++) {\n            $T k = keys[i];\n            $V v = vals[i];\n"
     "            int j = i - 1;\n            while (j >= lo && keys_out[j] > k) {\n"
     "                keys_out[j + 1] = keys_out[j];\n                vals_out[j + 1] = vals_out[j];\n"
     "                j--;\n            }\n            keys_out[j + 1] = k;\n            vals_out[j + 1] = v;\n"
     "        }\n    }\n",
     "n*n/nseg", "4*(nseg+1)+2*($S+$W)*n", "seg_ptr=nseg+1;keys=n;vals=n;keys_out=n;vals_out=n",
     "seg_ptr=part:n;keys=int:0:20",
     .cuda = "/* One thread per segment: the C code's stable insertion sort of the\n"
             " * segment's pairs, built in the outputs. */\n"
             "extern \"C\" __global__ void segmented_sort_by_key(const int *seg_ptr, const $T *keys, const $V *vals, $T *keys_out,\n"
             "                                                 $V *vals_out, int nseg)\n"
             "{\n"
             "    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (s >= nseg)\n"
             "        return;\n"
             "    const int lo = seg_ptr[s], hi = seg_ptr[s + 1];\n"
             "    for (int i = lo; i < hi; i++) {\n"
             "        const $T k = keys[i];\n"
             "        const $V v = vals[i];\n"
             "        int j = i - 1;\n"
             "        while (j >= lo && keys_out[j] > k) {\n"
             "            keys_out[j + 1] = keys_out[j];\n"
             "            vals_out[j + 1] = vals_out[j];\n"
             "            j--;\n"
             "        }\n"
             "        keys_out[j + 1] = k;\n"
             "        vals_out[j + 1] = v;\n"
             "    }\n"
             "}\n",
     .launch = {{"segmented_sort_by_key", "(nseg+255)/256", "256", NULL, "seg_ptr,keys,vals,keys_out,vals_out,nseg"}},
     .mapping = "one-segment-per-thread"},
    {"records-lex", "i32", RECS, "sort_records",
     "#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Sorts n records of two integers lexicographically (by the first field,\n"
     " * then the second) with a bottom-up merge sort through a scratch buffer. */\n"
     "static int before(const $T *a, const $T *b)\n{\n"
     "    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);\n}\n\n"
     "static void merge(const $T *src, $T *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid;\n    for (int k = lo; k < hi; k++) {\n"
     "        int from = (j >= hi || (i < mid && !before(src + 2 * j, src + 2 * i))) ? i++ : j++;\n"
     "        dst[2 * k] = src[2 * from];\n        dst[2 * k + 1] = src[2 * from + 1];\n    }\n}\n\n",
     "const $T *recs, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * 2 * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, recs, (size_t)n * 2 * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(src, dst, lo, mid, hi);\n        }\n"
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    if (src != out)\n        memcpy(out, src, (size_t)n * 2 * sizeof *out);\n    free(tmp);\n",
     "54*n", "4*$S*n", "recs=n,2;out=n,2", "recs=int:0:64",
     .cuda = "/* Record a goes before record b: by the first field, then the second. */\n"
             "__device__ bool before(const $T *a, const $T *b)\n"
             "{\n"
             "    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);\n"
             "}\n"
             "\n"
             "/* Of the sorted records run[0..m), how many go before record x. */\n"
             "__device__ int count_before(const $T *run, int m, const $T *x)\n"
             "{\n"
             "    int lo = 0, hi = m;\n"
             "    while (lo < hi) {\n"
             "        const int mid = lo + (hi - lo) / 2;\n"
             "        if (before(run + 2 * mid, x))\n"
             "            lo = mid + 1;\n"
             "        else\n"
             "            hi = mid;\n"
             "    }\n"
             "    return lo;\n"
             "}\n"
             "\n"
             "/* Of the sorted records run[0..m), how many do not go after record x. */\n"
             "__device__ int count_not_after(const $T *run, int m, const $T *x)\n"
             "{\n"
             "    int lo = 0, hi = m;\n"
             "    while (lo < hi) {\n"
             "        const int mid = lo + (hi - lo) / 2;\n"
             "        if (!before(x, run + 2 * mid))\n"
             "            lo = mid + 1;\n"
             "        else\n"
             "            hi = mid;\n"
             "    }\n"
             "    return lo;\n"
             "}\n"
             "\n"
             "/* One pass of a bottom-up merge sort of two-field records, one thread per\n"
             " * record: the runs [lo, lo + w) and [lo + w, lo + 2w) merge into dst, each\n"
             " * record at its co-rank (stable).  Passes with w >= n copy. */\n"
             "extern \"C\" __global__ void merge_pass(const $T *src, $T *dst, int n, int w)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const long long lo = i / (2LL * w) * (2LL * w);\n"
             "    const long long mid = lo + w < n ? lo + w : n, hi = lo + 2LL * w < n ? lo + 2LL * w : n;\n"
             "    const $T *x = src + 2 * i;\n"
             "    long long pos;\n"
             "    if (i < mid)\n"
             "        pos = i + count_before(src + 2 * mid, (int)(hi - mid), x);\n"
             "    else\n"
             "        pos = i - (mid - lo) + count_not_after(src + 2 * lo, (int)(mid - lo), x);\n"
             "    dst[2 * pos] = x[0];\n"
             "    dst[2 * pos + 1] = x[1];\n"
             "}\n",
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "recs,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:2*n",
     .mapping = "merge-sort-corank-passes"},
    {"by-magnitude", "f32", ARRAY, "sort_by_magnitude",
     "#include <math.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
     "/* Sorts values by absolute value, ascending; of two values with the same\n"
     " * magnitude the negative one comes first.  Bottom-up merge sort. */\n"
     "static int before($T a, $T b)\n{\n"
     "    return fabs$F(a) < fabs$F(b) || (fabs$F(a) == fabs$F(b) && a < b);\n}\n\n"
     "static void merge(const $T *src, $T *dst, int lo, int mid, int hi)\n{\n"
     "    int i = lo, j = mid, k = lo;\n    while (i < mid && j < hi)\n"
     "        dst[k++] = before(src[j], src[i]) ? src[j++] : src[i++];\n"
     "    while (i < mid)\n        dst[k++] = src[i++];\n    while (j < hi)\n        dst[k++] = src[j++];\n}\n\n",
     "const $T *in, $T *out, int n",
     "    $T *tmp = malloc((size_t)n * sizeof *tmp);\n    if (!tmp)\n        return;\n"
     "    memcpy(out, in, (size_t)n * sizeof *out);\n    $T *src = out, *dst = tmp;\n"
     "    for (int width = 1; width < n; width *= 2) {\n"
     "        for (int lo = 0; lo < n; lo += 2 * width) {\n"
     "            int mid = lo + width < n ? lo + width : n;\n"
     "            int hi = lo + 2 * width < n ? lo + 2 * width : n;\n"
     "            merge(src, dst, lo, mid, hi);\n        }\n"
     "        $T *t = src;\n        src = dst;\n        dst = t;\n    }\n"
     "    if (src != out)\n        memcpy(out, src, (size_t)n * sizeof *out);\n    free(tmp);\n",
     "40*n", "2*$S*n", "in=n;out=n", NULL,
     .cuda = "/* The order of the sort: by absolute value, the negative value first on a\n"
             " * tie. */\n"
             "__device__ bool before($T a, $T b)\n"
             "{\n"
             "    return fabs$F(a) < fabs$F(b) || (fabs$F(a) == fabs$F(b) && a < b);\n"
             "}\n"
             "\n"
             CU_MERGE_COUNT
             CU_MERGE_PASS_KEYS,
     .launch = {{"merge_pass", "(n+255)/256", "256", NULL, "in,out,n,@w|tmp,out,n,@w|out,tmp,n,@w"}},
     .scratch = "tmp:$T:n",
     .mapping = "merge-sort-corank-passes"},
    {"unique-rows", "i32", ROWS, "unique_rows",
     "#include <stddef.h>\n\n/* Sorted distinct values of each row: out[r] holds the count[r] distinct\n"
     " * values of row r ascending, followed by -1 padding. */\n",
     "const $T *in, $T *out, int *count, int rows, int len",
     "    for (int r = 0; r < rows; r++) {\n        const $T *a = in + (size_t)r * len;\n"
     "        $T *u = out + (size_t)r * len;\n        int m = 0;\n"
     "        for (int i = 0; i < len; i++) {\n            int j = m - 1;\n"
     "            while (j >= 0 && u[j] > a[i])\n                j--;\n"
     "            if (j >= 0 && u[j] == a[i])\n                continue;\n"
     "            for (int k = m; k > j + 1; k--)\n                u[k] = u[k - 1];\n"
     "            u[j + 1] = a[i];\n            m++;\n        }\n"
     "        count[r] = m;\n        for (int i = m; i < len; i++)\n            u[i] = -1;\n    }\n",
     "rows*len*len", "2*$S*rows*len+4*rows", "in=rows,len;out=rows,len;count=rows", "in=int:0:24",
     .cuda = "/* One thread per row: the C code's sorted insertion of distinct values into\n"
             " * the output row, then -1 padding. */\n"
             "extern \"C\" __global__ void unique_rows(const $T *in, $T *out, int *count, int rows, int len)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= rows)\n"
             "        return;\n"
             "    const $T *a = in + r * len;\n"
             "    $T *u = out + r * len;\n"
             "    int m = 0;\n"
             "    for (int i = 0; i < len; i++) {\n"
             "        int j = m - 1;\n"
             "        while (j >= 0 && u[j] > a[i])\n"
             "            j--;\n"
             "        if (j >= 0 && u[j] == a[i])\n"
             "            continue;\n"
             "        for (int k = m; k > j + 1; k--)\n"
             "            u[k] = u[k - 1];\n"
             "        u[j + 1] = a[i];\n"
             "        m++;\n"
             "    }\n"
             "    count[r] = m;\n"
             "    for (int i = m; i < len; i++)\n"
             "        u[i] = -1;\n"
             "}\n",
     .launch = {{"unique_rows", "(rows+255)/256", "256", NULL, "in,out,count,rows,len"}},
     .mapping = "one-row-per-thread"},
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [ROWS] = {"rows=2000,len=32", "rows=1,len=1", "rows=7,len=13", "rows=4194304,len=32"},
        [TOPK] = {"rows=2000,len=32,k=8", "rows=1,len=1,k=1", "rows=7,len=13,k=5", "rows=4194304,len=32,k=8"},
        [ARRAY] = {"n=20000", "n=1", "n=1009", "n=67108864"},
        [BIG] = {"n=50000", "n=1", "n=1009", "n=134217728"},
        [KRANGE] = {"n=50000,K=1000", "n=1,K=1", "n=1009,K=97", "n=134217728,K=65536"},
        [SEG] = {"n=20000,nseg=600", "n=1,nseg=1", "n=1009,nseg=31", "n=67108864,nseg=2097152"},
        [COLS] = {"rows=32,cols=2000", "rows=1,cols=1", "rows=13,cols=7", "rows=32,cols=4194304"},
        [RECS] = {"n=20000", "n=1", "n=1009", "n=33554432"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

/* The merge passes of a "merge_pass" launch (see OpLaunch). */
static void merge_passes(GenProgram *p, const OpLaunch *l)
{
    char pattern[3][256];
    const char *q = l->args;
    for (int k = 0; k < 3; k++) {
        const char *bar = strchr(q, '|');
        int len = bar ? (int)(bar - q) : (int)strlen(q);
        snprintf(pattern[k], sizeof pattern[k], "%.*s", len, q);
        q = bar ? bar + 1 : q + len;
    }
    for (int pass = 0; pass < MERGE_PASSES; pass++) {
        const char *pat = pattern[pass == 0 ? 0 : pass % 2 == 0 ? 1 : 2];
        StrBuf args = STRBUF_INIT;
        for (const char *c = pat; *c; c++) {
            if (!strncmp(c, "@w", 2)) {
                sb_printf(&args, "%ld", 1L << pass);
                c++;
            } else {
                sb_putc(&args, *c);
            }
        }
        gen_launch(p, l->kernel, l->grid, l->block, l->smem, args.data);
        sb_release(&args);
    }
}

/* The pair of one instance: the op's CUDA template with CUDA type names,
 * its scratch buffers, launches (256-thread blocks) and knobs. */
static void emit_cuda(GenProgram *p, const Op *op, const Sub *t, const Sub *dtypes)
{
    ops_put(gen_cuda_src(p), t, op->cuda);
    ops_scratch(p, dtypes, op->scratch);
    for (int k = 0; k < 4 && op->launch[k].kernel; k++) {
        const OpLaunch *l = &op->launch[k];
        if (!strcmp(l->kernel, "merge_pass"))
            merge_passes(p, l);
        else
            gen_launch(p, l->kernel, l->grid, l->block, l->smem, l->args);
    }
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", op->mapping);
}

static int emit(GenCtx *g, const Op *op, const char *inst)
{
    char kt[8] = "", vt[8] = "";
    const char *slash = strchr(inst, '/');
    snprintf(kt, sizeof kt, "%.*s", (int)(slash ? slash - inst : (long)strlen(inst)), inst);
    if (slash)
        snprintf(vt, sizeof vt, "%s", slash + 1);
    Sub t = {ops_ctype_of(kt), slash ? ops_ctype_of(vt) : "", !strcmp(kt, "f32") ? "f" : ""};
    char variant[96];
    snprintf(variant, sizeof variant, "%s-%s%s%s", op->tag, kt, slash ? "-" : "", vt);
    GenProgram *p = gen_begin(g, variant, op->entry);
    gen_describe(p, "sorting: %s of %s keys%s%s", op->tag, kt, slash ? " with a payload of " : "", vt);
    StrBuf sig = STRBUF_INIT;
    ops_put(&sig, &t, op->sig);
    ops_declare(p, sig.data, op->shapes, NULL, NULL);
    configs(p, op->kind);
    ops_fills(p, op->fills);
    Sub sizes = {ops_size_of(kt), slash ? ops_size_of(vt) : "0", ""};
    StrBuf bytes = STRBUF_INIT;
    for (const char *c = op->bytes; *c; c++) {
        if (c[0] == '$' && (c[1] == 'S' || c[1] == 'W')) {
            sb_append(&bytes, c[1] == 'S' ? sizes.T : sizes.V);
            c++;
        } else {
            sb_putc(&bytes, *c);
        }
    }
    gen_cost(p, op->flops, bytes.data);
    if (op->ref_bytes)
        gen_reference_cost(p, NULL, op->ref_bytes);
    StrBuf *s = gen_src(p);
    /* Integer types beyond int need stdint.h. */
    if (strstr(sig.data, "_t ") && !strstr(op->pre, "<stdint.h>"))
        sb_append(s, "#include <stdint.h>\n");
    ops_put(s, &t, op->pre);
    ops_signature(s, op->entry, sig.data);
    ops_put(s, &t, op->body);
    sb_append(s, "}\n");
    Sub tc = {ops_cuda_type_of(kt), slash ? ops_cuda_type_of(vt) : "", t.F}, dts = {kt, vt, ""};
    emit_cuda(p, op, &tc, &dts);
    sb_release(&sig);
    sb_release(&bytes);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    for (int k = 0; k < N_OPS; k++) {
        char types[64];
        snprintf(types, sizeof types, "%s", OPS[k].types);
        for (char *save = NULL, *it = strtok_r(types, " ", &save); it; it = strtok_r(NULL, " ", &save))
            if (emit(g, &OPS[k], it) != 0)
                return -1;
    }
    return 0;
}

const Family family_sort = {"sort", "sorting", 54, generate};
