/* search — searching sorted data: lower/upper bound of many queries in a
 * sorted array (also per row of a batch), occurrence and range counts,
 * membership flags and exact-match positions, nearest element, piecewise
 * linear table lookup, bucketing values against sorted bin edges (left- or
 * right-closed, clamped, u8 ids, histograms, weighted histograms, 2D
 * cells), merging two sorted arrays (two-finger, merge-path partitioned,
 * with payloads or source indices, descending, batched), merge co-ranks,
 * and per-row set intersection and union sizes.  Keys are f32, f64, i32,
 * i64, u32 or u16. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_ops.h"


enum { SEARCH, BATCH, COUNT, BINS, BINS8, BINS2, MERGE, MERGEB, SETS, TABLE };

/* A binary search over a sorted array of millions probes a line of its own
 * at each of its last ten or so steps (the first steps' lines stay cached):
 * 10 lines per query, two searches per counted range, where the problem's
 * bytes count each query once. */
static const char *reference_bytes(int kind)
{
    switch (kind) {
    case SEARCH:
    case TABLE:
        return "640*q";
    case COUNT:
        return "1280*q";
    default:
        return NULL; /* bins and merges: small tables or streaming */
    }
}

static void configs(GenProgram *p, int kind)
{
    static const char *const C[][4] = {
        [SEARCH] = {"n=10000,q=20000", "n=1,q=1", "n=37,q=101", "n=16777216,q=67108864"},
        [BATCH] = {"b=64,n=256,q=300", "b=1,n=1,q=1", "b=7,n=37,q=11", "b=65536,n=1024,q=1024"},
        [COUNT] = {"n=10000,q=20000", "n=1,q=1", "n=37,q=101", "n=16777216,q=67108864"},
        [BINS] = {"n=20000,nb=64", "n=1,nb=1", "n=1009,nb=13", "n=134217728,nb=1000"},
        [BINS8] = {"n=20000,nb=64", "n=1,nb=1", "n=1009,nb=13", "n=268435456,nb=250"},
        [BINS2] = {"n=20000,nbx=32,nby=24", "n=1,nbx=1,nby=1", "n=1009,nbx=7,nby=11", "n=67108864,nbx=512,nby=512"},
        [MERGE] = {"na=10000,nb=13000", "na=1,nb=1", "na=37,nb=101", "na=33554432,nb=33554432"},
        [MERGEB] = {"batch=64,na=200,nb=300", "batch=1,na=1,nb=1", "batch=7,na=37,nb=11", "batch=65536,na=512,nb=512"},
        [SETS] = {"batch=64,n=200", "batch=1,n=1", "batch=7,n=37", "batch=131072,n=512"},
        [TABLE] = {"n=4096,q=20000", "n=1,q=1", "n=37,q=101", "n=16777216,q=67108864"},
    };
    gen_config(p, "small", C[kind][0]);
    gen_config(p, "edge", C[kind][1]);
    gen_config(p, "edge-prime", C[kind][2]);
    gen_config(p, "large", C[kind][3]);
}

#define LOWER_BOUND                                                                                 \
    "/* The first index in a[0..n) whose element is not less than x (n if none). */\n"                \
    "static int lower_bound(const $T *a, int n, $T x)\n{\n    int lo = 0, hi = n;\n"                 \
    "    while (lo < hi) {\n        int mid = lo + (hi - lo) / 2;\n        if (a[mid] < x)\n"         \
    "            lo = mid + 1;\n        else\n            hi = mid;\n    }\n    return lo;\n}\n\n"
#define UPPER_BOUND                                                                                 \
    "/* The first index in a[0..n) whose element is greater than x (n if none). */\n"                 \
    "static int upper_bound(const $T *a, int n, $T x)\n{\n    int lo = 0, hi = n;\n"                 \
    "    while (lo < hi) {\n        int mid = lo + (hi - lo) / 2;\n        if (a[mid] <= x)\n"        \
    "            lo = mid + 1;\n        else\n            hi = mid;\n    }\n    return lo;\n}\n\n"
#define SORTED_REAL "a=uni:0:1000;a=sorted;queries=uni:-50:1050"
#define SORTED_INT "a=int:0:2*n;a=sorted;queries=int:0:2*n+2"
#define MERGE_LOOP(cmp)                                                                             \
    "    int i = 0, j = 0, k = 0;\n    while (i < na && j < nb)\n"                                   \
    "        out[k++] = " cmp " ? b[j++] : a[i++];\n"                                                 \
    "    while (i < na)\n        out[k++] = a[i++];\n    while (j < nb)\n        out[k++] = b[j++];\n"

/* Each entry also gets .tol64 = {0, 0} (the default f64 tolerance), which
 * keeps -Wextra content with the optional fields left out. */
#define OP(...) {__VA_ARGS__, .tol64 = {0, 0}}

/* The pairs: one thread per query (per value, per output row) running the
 * same binary search as the C code through __device__ lower_bound and
 * upper_bound.  Merges place each input element independently at its final
 * position, its co-rank i + #(b < a[i]) or j + #(a <= b[j]), which keeps
 * them stable; merge-path keeps the C code's chunks, one thread per chunk;
 * the per-row set sizes walk each row pair in one thread. */
#define CU_LOWER_BOUND \
    "/* The first index in a[0..n) whose element is not less than x (n if none). */\n" \
    "__device__ int lower_bound(const $T *a, int n, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = n;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (a[mid] < x)\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n"

#define CU_UPPER_BOUND \
    "/* The first index in a[0..n) whose element is greater than x (n if none). */\n" \
    "__device__ int upper_bound(const $T *a, int n, $T x)\n" \
    "{\n" \
    "    int lo = 0, hi = n;\n" \
    "    while (lo < hi) {\n" \
    "        const int mid = lo + (hi - lo) / 2;\n" \
    "        if (a[mid] <= x)\n" \
    "            lo = mid + 1;\n" \
    "        else\n" \
    "            hi = mid;\n" \
    "    }\n" \
    "    return lo;\n" \
    "}\n" \
    "\n"

static const Op OPS[] = {
    OP("lower-bound", "f32 f64 i32 i64 u32 u16", SEARCH, "search",
     "/* For each query, the index of the first element of the sorted array a\n"
     " * that is not less than it (n when every element is smaller). */\n",
     "const $T *a, const $T *queries, int *idx, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        $T x = queries[i];\n        int lo = 0, hi = n;\n"
     "        while (lo < hi) {\n            int mid = lo + (hi - lo) / 2;\n"
     "            if (a[mid] < x)\n                lo = mid + 1;\n            else\n                hi = mid;\n"
     "        }\n        idx[i] = lo;\n    }\n",
     "20*q", "$S*n+$S*q+4*q", "a=n;queries=q;idx=q", NULL,
     .cuda = CU_LOWER_BOUND
             "/* One thread per query: idx[i] = lower bound of queries[i] in a. */\n"
             "extern \"C\" __global__ void search(const $T *a, const $T *queries, int *idx, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < q)\n"
             "        idx[i] = lower_bound(a, n, queries[i]);\n"
             "}\n",
     .launch = {{"search", "(q+255)/256", "256", NULL, "a,queries,idx,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("upper-bound", "f32 f64 i32 i64 u32", SEARCH, "search",
     "/* For each query, the index of the first element of the sorted array a\n"
     " * that is greater than it (n when none is). */\n",
     "const $T *a, const $T *queries, int *idx, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        $T x = queries[i];\n        int lo = 0, hi = n;\n"
     "        while (lo < hi) {\n            int mid = lo + (hi - lo) / 2;\n"
     "            if (a[mid] <= x)\n                lo = mid + 1;\n            else\n                hi = mid;\n"
     "        }\n        idx[i] = lo;\n    }\n",
     "20*q", "$S*n+$S*q+4*q", "a=n;queries=q;idx=q", NULL,
     .cuda = CU_UPPER_BOUND
             "/* One thread per query: idx[i] = upper bound of queries[i] in a. */\n"
             "extern \"C\" __global__ void search(const $T *a, const $T *queries, int *idx, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < q)\n"
             "        idx[i] = upper_bound(a, n, queries[i]);\n"
             "}\n",
     .launch = {{"search", "(q+255)/256", "256", NULL, "a,queries,idx,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("batched-lower-bound", "f32 i32", BATCH, "search_rows",
     "#include <stddef.h>\n\n" LOWER_BOUND
     "/* Batched search: row r of queries is searched in row r of a (b sorted\n * rows of n). */\n",
     "const $T *a, const $T *queries, int *idx, int b, int n, int q",
     "    for (int r = 0; r < b; r++)\n        for (int i = 0; i < q; i++) {\n"
     "            size_t k = (size_t)r * q + i;\n"
     "            idx[k] = lower_bound(a + (size_t)r * n, n, queries[k]);\n        }\n",
     "10*b*q", "$S*b*n+($S+4)*b*q", "a=b,n;queries=b,q;idx=b,q", "a=sorted;queries=sorted",
     .cuda = CU_LOWER_BOUND
             "/* One thread per query k = r * q + i: searched in row r of a. */\n"
             "extern \"C\" __global__ void search_rows(const $T *a, const $T *queries, int *idx, int b, int n, int q)\n"
             "{\n"
             "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (k >= (long long)b * q)\n"
             "        return;\n"
             "    const long long r = k / q;\n"
             "    idx[k] = lower_bound(a + r * n, n, queries[k]);\n"
             "}\n",
     .launch = {{"search_rows", "(b*q+255)/256", "256", NULL, "a,queries,idx,b,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("batched-upper-bound", "f64", BATCH, "search_rows",
     "#include <stddef.h>\n\n" UPPER_BOUND
     "/* Batched search: row r of queries is searched in row r of a (b sorted\n * rows of n). */\n",
     "const $T *a, const $T *queries, int *idx, int b, int n, int q",
     "    for (int r = 0; r < b; r++)\n        for (int i = 0; i < q; i++) {\n"
     "            size_t k = (size_t)r * q + i;\n"
     "            idx[k] = upper_bound(a + (size_t)r * n, n, queries[k]);\n        }\n",
     "10*b*q", "$S*b*n+($S+4)*b*q", "a=b,n;queries=b,q;idx=b,q", "a=sorted;queries=sorted",
     .cuda = CU_UPPER_BOUND
             "/* One thread per query k = r * q + i: searched in row r of a. */\n"
             "extern \"C\" __global__ void search_rows(const $T *a, const $T *queries, int *idx, int b, int n, int q)\n"
             "{\n"
             "    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (k >= (long long)b * q)\n"
             "        return;\n"
             "    const long long r = k / q;\n"
             "    idx[k] = upper_bound(a + r * n, n, queries[k]);\n"
             "}\n",
     .launch = {{"search_rows", "(b*q+255)/256", "256", NULL, "a,queries,idx,b,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("count-occurrences", "i32 i64 u32", COUNT, "count_occurrences",
     LOWER_BOUND UPPER_BOUND "/* How many times each query occurs in the sorted array a. */\n",
     "const $T *a, const $T *queries, int *count, int n, int q",
     "    for (int i = 0; i < q; i++)\n"
     "        count[i] = upper_bound(a, n, queries[i]) - lower_bound(a, n, queries[i]);\n",
     "40*q", "$S*n+$S*q+4*q", "a=n;queries=q;count=q", "a=int:0:n/4+2;a=sorted;queries=int:0:n/4+2",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per query: upper bound minus lower bound. */\n"
             "extern \"C\" __global__ void count_occurrences(const $T *a, const $T *queries, int *count, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < q)\n"
             "        count[i] = upper_bound(a, n, queries[i]) - lower_bound(a, n, queries[i]);\n"
             "}\n",
     .launch = {{"count_occurrences", "(q+255)/256", "256", NULL, "a,queries,count,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("range-count", "f32 i32", COUNT, "range_count",
     LOWER_BOUND UPPER_BOUND
     "/* For each query i, how many elements of the sorted array a lie in the\n"
     " * closed interval [lo[i], lo[i] + width[i]]. */\n",
     "const $T *a, const $T *lo, const $T *width, int *count, int n, int q",
     "    for (int i = 0; i < q; i++)\n"
     "        count[i] = upper_bound(a, n, lo[i] + width[i]) - lower_bound(a, n, lo[i]);\n",
     "40*q", "$S*n+2*$S*q+4*q", "a=n;lo=q;width=q;count=q",
     "a=int:0:100000;a=sorted;lo=int:-100:100000;width=int:0:2000",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per query: the elements in [lo[i], lo[i] + width[i]]. */\n"
             "extern \"C\" __global__ void range_count(const $T *a, const $T *lo, const $T *width, int *count, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < q)\n"
             "        count[i] = upper_bound(a, n, lo[i] + width[i]) - lower_bound(a, n, lo[i]);\n"
             "}\n",
     .launch = {{"range_count", "(q+255)/256", "256", NULL, "a,lo,width,count,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("membership", "i32 i64 u32", SEARCH, "contains",
     "#include <stdint.h>\n\n" LOWER_BOUND
     "/* found[i] = 1 when queries[i] occurs in the sorted array a, else 0. */\n",
     "const $T *a, const $T *queries, uint8_t *found, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        int k = lower_bound(a, n, queries[i]);\n"
     "        found[i] = k < n && a[k] == queries[i];\n    }\n",
     "20*q", "$S*n+$S*q+q", "a=n;queries=q;found=q", SORTED_INT,
     .cuda = CU_LOWER_BOUND
             "/* One thread per query: 1 when the lower bound holds the query itself. */\n"
             "extern \"C\" __global__ void contains(const $T *a, const $T *queries, unsigned char *found, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const int k = lower_bound(a, n, queries[i]);\n"
             "    found[i] = k < n && a[k] == queries[i];\n"
             "}\n",
     .launch = {{"contains", "(q+255)/256", "256", NULL, "a,queries,found,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("find-first", "i32 f64", SEARCH, "find",
     LOWER_BOUND "/* The index of the first occurrence of each query in the sorted array a,\n"
     " * or -1 when it does not occur. */\n",
     "const $T *a, const $T *queries, int *pos, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        int k = lower_bound(a, n, queries[i]);\n"
     "        pos[i] = k < n && a[k] == queries[i] ? k : -1;\n    }\n",
     "20*q", "$S*n+$S*q+4*q", "a=n;queries=q;pos=q", SORTED_INT,
     .cuda = CU_LOWER_BOUND
             "/* One thread per query: the lower bound when it holds the query, else -1. */\n"
             "extern \"C\" __global__ void find(const $T *a, const $T *queries, int *pos, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const int k = lower_bound(a, n, queries[i]);\n"
             "    pos[i] = k < n && a[k] == queries[i] ? k : -1;\n"
             "}\n",
     .launch = {{"find", "(q+255)/256", "256", NULL, "a,queries,pos,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("find-last", "i32", SEARCH, "find",
     UPPER_BOUND "/* The index of the last occurrence of each query in the sorted array a,\n"
     " * or -1 when it does not occur. */\n",
     "const $T *a, const $T *queries, int *pos, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        int k = upper_bound(a, n, queries[i]) - 1;\n"
     "        pos[i] = k >= 0 && a[k] == queries[i] ? k : -1;\n    }\n",
     "20*q", "$S*n+$S*q+4*q", "a=n;queries=q;pos=q", SORTED_INT,
     .cuda = CU_UPPER_BOUND
             "/* One thread per query: the element before the upper bound when it is the\n"
             " * query, else -1. */\n"
             "extern \"C\" __global__ void find(const $T *a, const $T *queries, int *pos, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const int k = upper_bound(a, n, queries[i]) - 1;\n"
             "    pos[i] = k >= 0 && a[k] == queries[i] ? k : -1;\n"
             "}\n",
     .launch = {{"find", "(q+255)/256", "256", NULL, "a,queries,pos,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("nearest", "f32 f64", SEARCH, "nearest",
     "#include <math.h>\n\n" LOWER_BOUND
     "/* For each query, the index of the element of the sorted array a closest\n"
     " * to it; of two equally close elements the lower index wins. */\n",
     "const $T *a, const $T *queries, int *idx, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        $T x = queries[i];\n        int k = lower_bound(a, n, x);\n"
     "        if (k == n)\n            k = n - 1;\n"
     "        else if (k > 0 && fabs$F(x - a[k - 1]) <= fabs$F(a[k] - x))\n            k--;\n"
     "        idx[i] = k;\n    }\n",
     "24*q", "$S*n+$S*q+4*q", "a=n;queries=q;idx=q", SORTED_REAL,
     .cuda = CU_LOWER_BOUND
             "/* One thread per query: the lower bound or its left neighbour, whichever is\n"
             " * closer (the left one on a tie). */\n"
             "extern \"C\" __global__ void nearest(const $T *a, const $T *queries, int *idx, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const $T x = queries[i];\n"
             "    int k = lower_bound(a, n, x);\n"
             "    if (k == n)\n"
             "        k = n - 1;\n"
             "    else if (k > 0 && fabs$F(x - a[k - 1]) <= fabs$F(a[k] - x))\n"
             "        k--;\n"
             "    idx[i] = k;\n"
             "}\n",
     .launch = {{"nearest", "(q+255)/256", "256", NULL, "a,queries,idx,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("interp-clamp", "f32 f64", TABLE, "interp",
     UPPER_BOUND "/* Piecewise linear lookup in a table (xs sorted, ys): queries below xs[0]\n"
     " * or above xs[n-1] take the end values; a zero-width interval takes its\n * left value. */\n",
     "const $T *xs, const $T *ys, const $T *queries, $T *out, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        $T x = queries[i];\n"
     "        int k = upper_bound(xs, n, x); /* xs[k-1] <= x < xs[k] */\n"
     "        if (k == 0) {\n            out[i] = ys[0];\n        } else if (k == n) {\n"
     "            out[i] = ys[n - 1];\n        } else {\n            $T x0 = xs[k - 1], x1 = xs[k];\n"
     "            $T t = x1 > x0 ? (x - x0) / (x1 - x0) : 0;\n"
     "            out[i] = ys[k - 1] + t * (ys[k] - ys[k - 1]);\n        }\n    }\n",
     "26*q", "2*$S*n+2*$S*q", "xs=n;ys=n;queries=q;out=q", "xs=uni:0:100;xs=sorted;queries=uni:-5:105",
     .tol = {1e-4, 1e-4},
     .cuda = CU_UPPER_BOUND
             "/* One thread per query: linear interpolation in the interval found by\n"
             " * binary search, the end values outside the table. */\n"
             "extern \"C\" __global__ void interp(const $T *xs, const $T *ys, const $T *queries, $T *out, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const $T x = queries[i];\n"
             "    const int k = upper_bound(xs, n, x); /* xs[k-1] <= x < xs[k] */\n"
             "    if (k == 0) {\n"
             "        out[i] = ys[0];\n"
             "    } else if (k == n) {\n"
             "        out[i] = ys[n - 1];\n"
             "    } else {\n"
             "        const $T x0 = xs[k - 1], x1 = xs[k];\n"
             "        const $T t = x1 > x0 ? (x - x0) / (x1 - x0) : 0;\n"
             "        out[i] = ys[k - 1] + t * (ys[k] - ys[k - 1]);\n"
             "    }\n"
             "}\n",
     .launch = {{"interp", "(q+255)/256", "256", NULL, "xs,ys,queries,out,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("interp-extrapolate", "f32", TABLE, "interp",
     UPPER_BOUND "/* Piecewise linear interpolation in a table (xs sorted, ys) that\n"
     " * extrapolates the first and last segments beyond the ends; a table of\n"
     " * one point is constant and a zero-width segment takes its left value. */\n",
     "const $T *xs, const $T *ys, const $T *queries, $T *out, int n, int q",
     "    for (int i = 0; i < q; i++) {\n        $T x = queries[i];\n        if (n == 1) {\n"
     "            out[i] = ys[0];\n            continue;\n        }\n"
     "        int k = upper_bound(xs, n, x);\n        if (k == 0)\n            k = 1;\n"
     "        if (k == n)\n            k = n - 1;\n        $T x0 = xs[k - 1], x1 = xs[k];\n"
     "        $T t = x1 > x0 ? (x - x0) / (x1 - x0) : 0;\n"
     "        out[i] = ys[k - 1] + t * (ys[k] - ys[k - 1]);\n    }\n",
     "26*q", "2*$S*n+2*$S*q", "xs=n;ys=n;queries=q;out=q", "xs=uni:0:100;xs=sorted;queries=uni:-5:105",
     .tol = {1e-3, 1e-3},
     .cuda = CU_UPPER_BOUND
             "/* One thread per query: linear interpolation, the end segments extended. */\n"
             "extern \"C\" __global__ void interp(const $T *xs, const $T *ys, const $T *queries, $T *out, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= q)\n"
             "        return;\n"
             "    const $T x = queries[i];\n"
             "    if (n == 1) {\n"
             "        out[i] = ys[0];\n"
             "        return;\n"
             "    }\n"
             "    int k = upper_bound(xs, n, x);\n"
             "    if (k == 0)\n"
             "        k = 1;\n"
             "    if (k == n)\n"
             "        k = n - 1;\n"
             "    const $T x0 = xs[k - 1], x1 = xs[k];\n"
             "    const $T t = x1 > x0 ? (x - x0) / (x1 - x0) : 0;\n"
             "    out[i] = ys[k - 1] + t * (ys[k] - ys[k - 1]);\n"
             "}\n",
     .launch = {{"interp", "(q+255)/256", "256", NULL, "xs,ys,queries,out,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("bucket-left", "f32 f64 i32", BINS, "bucketize",
     UPPER_BOUND "/* The bin of each value against sorted bin edges: bin b holds\n"
     " * edges[b] <= x < edges[b+1]; values outside [edges[0], edges[nb]) get -1. */\n",
     "const $T *x, const $T *edges, int *bin, int n, int nb",
     "    for (int i = 0; i < n; i++) {\n        int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
     "        bin[i] = b >= 0 && b < nb ? b : -1;\n    }\n",
     "12*n", "$S*n+$S*(nb+1)+4*n", "x=n;edges=nb+1;bin=n", "edges=int:0:1000;edges=sorted;x=int:-20:1020",
     .cuda = CU_UPPER_BOUND
             "/* One thread per value: edges[b] <= x < edges[b+1], else -1. */\n"
             "extern \"C\" __global__ void bucketize(const $T *x, const $T *edges, int *bin, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
             "    bin[i] = b >= 0 && b < nb ? b : -1;\n"
             "}\n",
     .launch = {{"bucketize", "(n+255)/256", "256", NULL, "x,edges,bin,n,nb"}},
     .mapping = "one-value-per-thread"),
    OP("bucket-right", "f32", BINS, "bucketize",
     LOWER_BOUND "/* The bin of each value against sorted bin edges, bins closed on the\n"
     " * right: bin b holds edges[b] < x <= edges[b+1]; values outside get -1. */\n",
     "const $T *x, const $T *edges, int *bin, int n, int nb",
     "    for (int i = 0; i < n; i++) {\n        int b = lower_bound(edges, nb + 1, x[i]) - 1;\n"
     "        bin[i] = b >= 0 && b < nb ? b : -1;\n    }\n",
     "12*n", "$S*n+$S*(nb+1)+4*n", "x=n;edges=nb+1;bin=n", "edges=int:0:1000;edges=sorted;x=int:-20:1020",
     .cuda = CU_LOWER_BOUND
             "/* One thread per value: edges[b] < x <= edges[b+1], else -1. */\n"
             "extern \"C\" __global__ void bucketize(const $T *x, const $T *edges, int *bin, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = lower_bound(edges, nb + 1, x[i]) - 1;\n"
             "    bin[i] = b >= 0 && b < nb ? b : -1;\n"
             "}\n",
     .launch = {{"bucketize", "(n+255)/256", "256", NULL, "x,edges,bin,n,nb"}},
     .mapping = "one-value-per-thread"),
    OP("bucket-clamp", "f32", BINS, "bucketize",
     UPPER_BOUND "/* The bin of each value against sorted bin edges (edges[b] <= x <\n"
     " * edges[b+1]), values below the first edge or above the last clamped into\n"
     " * the first or last bin. */\n",
     "const $T *x, const $T *edges, int *bin, int n, int nb",
     "    for (int i = 0; i < n; i++) {\n        int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
     "        bin[i] = b < 0 ? 0 : (b >= nb ? nb - 1 : b);\n    }\n",
     "12*n", "$S*n+$S*(nb+1)+4*n", "x=n;edges=nb+1;bin=n", "edges=uni:0:1000;edges=sorted;x=uni:-20:1020",
     .cuda = CU_UPPER_BOUND
             "/* One thread per value: its bin, clamped into [0, nb). */\n"
             "extern \"C\" __global__ void bucketize(const $T *x, const $T *edges, int *bin, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
             "    bin[i] = b < 0 ? 0 : (b >= nb ? nb - 1 : b);\n"
             "}\n",
     .launch = {{"bucketize", "(n+255)/256", "256", NULL, "x,edges,bin,n,nb"}},
     .mapping = "one-value-per-thread"),
    OP("bucket-u8", "f32", BINS8, "bucketize",
     "#include <stdint.h>\n\n" UPPER_BOUND
     "/* Byte-sized bin ids (nb <= 255) of values against sorted edges, values\n"
     " * outside the edges clamped into the first or last bin. */\n",
     "const $T *x, const $T *edges, uint8_t *bin, int n, int nb",
     "    for (int i = 0; i < n; i++) {\n        int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
     "        bin[i] = (uint8_t)(b < 0 ? 0 : (b >= nb ? nb - 1 : b));\n    }\n",
     "12*n", "$S*n+$S*(nb+1)+n", "x=n;edges=nb+1;bin=n", "edges=uni:0:1000;edges=sorted;x=uni:-20:1020",
     .cuda = CU_UPPER_BOUND
             "/* One thread per value: its byte-sized bin, clamped into [0, nb). */\n"
             "extern \"C\" __global__ void bucketize(const $T *x, const $T *edges, unsigned char *bin, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
             "    bin[i] = (unsigned char)(b < 0 ? 0 : (b >= nb ? nb - 1 : b));\n"
             "}\n",
     .launch = {{"bucketize", "(n+255)/256", "256", NULL, "x,edges,bin,n,nb"}},
     .mapping = "one-value-per-thread"),
    OP("histogram", "f32 f64", BINS, "histogram",
     UPPER_BOUND "/* Histogram against sorted bin edges: counts[b] is the number of values\n"
     " * with edges[b] <= x < edges[b+1]; values outside are not counted. */\n",
     "const $T *x, const $T *edges, int *counts, int n, int nb",
     "    for (int b = 0; b < nb; b++)\n        counts[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n        int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
     "        if (b >= 0 && b < nb)\n            counts[b]++;\n    }\n",
     "12*n", "$S*n+$S*(nb+1)+4*nb", "x=n;edges=nb+1;counts=nb", "edges=uni:0:1000;edges=sorted;x=uni:-20:1020",
     .cuda = CU_UPPER_BOUND
             "/* counts[b] = 0: the output arrives poisoned. */\n"
             "extern \"C\" __global__ void zero_counts(int *counts, int nb)\n"
             "{\n"
             "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (b < nb)\n"
             "        counts[b] = 0;\n"
             "}\n"
             "\n"
             "/* One thread per value: its bin by binary search, counted atomically. */\n"
             "extern \"C\" __global__ void histogram(const $T *x, const $T *edges, int *counts, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
             "    if (b >= 0 && b < nb)\n"
             "        atomicAdd(&counts[b], 1);\n"
             "}\n",
     .launch = {{"zero_counts", "(nb+255)/256", "256", NULL, "counts,nb"},
                {"histogram", "(n+255)/256", "256", NULL, "x,edges,counts,n,nb"}},
     .mapping = "one-value-per-thread-global-atomics"),
    OP("histogram-weighted", "f32", BINS, "histogram",
     UPPER_BOUND "/* Weighted histogram against sorted bin edges, summed in double:\n"
     " * sums[b] adds w[i] for every value with edges[b] <= x[i] < edges[b+1]. */\n",
     "const $T *x, const $T *w, const $T *edges, double *sums, int n, int nb",
     "    for (int b = 0; b < nb; b++)\n        sums[b] = 0;\n"
     "    for (int i = 0; i < n; i++) {\n        int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
     "        if (b >= 0 && b < nb)\n            sums[b] += w[i];\n    }\n",
     "13*n", "2*$S*n+$S*(nb+1)+8*nb", "x=n;w=n;edges=nb+1;sums=nb",
     "edges=uni:0:1000;edges=sorted;x=uni:-20:1020;w=uni:0:1", .tol = {1e-7, 1e-7},
     .cuda = CU_UPPER_BOUND
             "/* sums[b] = 0: the output arrives poisoned. */\n"
             "extern \"C\" __global__ void zero_sums(double *sums, int nb)\n"
             "{\n"
             "    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (b < nb)\n"
             "        sums[b] = 0.0;\n"
             "}\n"
             "\n"
             "/* One thread per value: its bin by binary search; the weight is added in\n"
             " * double, atomically. */\n"
             "extern \"C\" __global__ void histogram(const $T *x, const $T *w, const $T *edges, double *sums, int n, int nb)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int b = upper_bound(edges, nb + 1, x[i]) - 1;\n"
             "    if (b >= 0 && b < nb)\n"
             "        atomicAdd(&sums[b], (double)w[i]);\n"
             "}\n",
     .launch = {{"zero_sums", "(nb+255)/256", "256", NULL, "sums,nb"},
                {"histogram", "(n+255)/256", "256", NULL, "x,w,edges,sums,n,nb"}},
     .mapping = "one-value-per-thread-global-atomics"),
    OP("bucket-2d", "f32", BINS2, "bucketize_2d",
     UPPER_BOUND "/* The grid cell of each point (x, y) against sorted edges in x (nbx\n"
     " * bins) and y (nby bins): cell = by * nbx + bx, or -1 outside the grid. */\n",
     "const $T *x, const $T *y, const $T *xedges, const $T *yedges, int *cell, int n, int nbx, int nby",
     "    for (int i = 0; i < n; i++) {\n        int bx = upper_bound(xedges, nbx + 1, x[i]) - 1;\n"
     "        int by = upper_bound(yedges, nby + 1, y[i]) - 1;\n"
     "        cell[i] = bx >= 0 && bx < nbx && by >= 0 && by < nby ? by * nbx + bx : -1;\n    }\n",
     "24*n", "2*$S*n+$S*(nbx+nby+2)+4*n", "x=n;y=n;xedges=nbx+1;yedges=nby+1;cell=n",
     "xedges=uni:0:1;xedges=sorted;yedges=uni:0:1;yedges=sorted;x=uni:-0.02:1.02;y=uni:-0.02:1.02",
     .cuda = CU_UPPER_BOUND
             "/* One thread per point: a binary search per axis. */\n"
             "extern \"C\" __global__ void bucketize_2d(const $T *x, const $T *y, const $T *xedges, const $T *yedges, int *cell, int n,\n"
             "                                        int nbx, int nby)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i >= n)\n"
             "        return;\n"
             "    const int bx = upper_bound(xedges, nbx + 1, x[i]) - 1;\n"
             "    const int by = upper_bound(yedges, nby + 1, y[i]) - 1;\n"
             "    cell[i] = bx >= 0 && bx < nbx && by >= 0 && by < nby ? by * nbx + bx : -1;\n"
             "}\n",
     .launch = {{"bucketize_2d", "(n+255)/256", "256", NULL, "x,y,xedges,yedges,cell,n,nbx,nby"}},
     .mapping = "one-value-per-thread"),
    OP("merge", "f32 f64 i32 i64", MERGE, "merge",
     "/* Merges the sorted arrays a (na) and b (nb) into out, stably: on equal\n * keys the element of a comes first. */\n",
     "const $T *a, const $T *b, $T *out, int na, int nb", MERGE_LOOP("b[j] < a[i]"),
     "na+nb", "2*$S*(na+nb)", "a=na;b=nb;out=na+nb", "a=sorted;b=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input element, written at its co-rank in the stable merge:\n"
             " * a[i] at i + #(b < a[i]), b[j] at j + #(a <= b[j]). */\n"
             "extern \"C\" __global__ void merge(const $T *a, const $T *b, $T *out, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (t < na)\n"
             "        out[t + lower_bound(b, nb, a[t])] = a[t];\n"
             "    else if (t < (long long)na + nb)\n"
             "        out[t - na + upper_bound(a, na, b[t - na])] = b[t - na];\n"
             "}\n",
     .launch = {{"merge", "(na+nb+255)/256", "256", NULL, "a,b,out,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("merge-desc", "f32", MERGE, "merge_desc",
     "/* Merges the ascending arrays a (na) and b (nb) into one descending array,\n"
     " * walking both from their ends; on equal keys b's element comes first. */\n",
     "const $T *a, const $T *b, $T *out, int na, int nb",
     "    int i = na - 1, j = nb - 1, k = 0;\n    while (i >= 0 && j >= 0)\n"
     "        out[k++] = a[i] > b[j] ? a[i--] : b[j--];\n"
     "    while (i >= 0)\n        out[k++] = a[i--];\n    while (j >= 0)\n        out[k++] = b[j--];\n",
     "na+nb", "2*$S*(na+nb)", "a=na;b=nb;out=na+nb", "a=sorted;b=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input element, written at its position in the descending\n"
             " * merge (b first on ties): a[i] follows the na-1-i larger-indexed elements\n"
             " * of a and the elements of b >= a[i]; b[j] follows the nb-1-j\n"
             " * larger-indexed elements of b and the elements of a > b[j]. */\n"
             "extern \"C\" __global__ void merge_desc(const $T *a, const $T *b, $T *out, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (t < na) {\n"
             "        out[(na - 1 - t) + (nb - lower_bound(b, nb, a[t]))] = a[t];\n"
             "    } else if (t < (long long)na + nb) {\n"
             "        const long long j = t - na;\n"
             "        out[(nb - 1 - j) + (na - upper_bound(a, na, b[j]))] = b[j];\n"
             "    }\n"
             "}\n",
     .launch = {{"merge_desc", "(na+nb+255)/256", "256", NULL, "a,b,out,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("merge-path", "f32 i32", MERGE, "merge",
     "#define CHUNK 256\n\n"
     "/* Merge path: the number i of elements of a among the first d outputs of\n"
     " * the stable merge of a and b, i.e. the smallest i with a[i] > b[d-i-1],\n"
     " * found by binary search along diagonal d. */\n"
     "static int split(const $T *a, int na, const $T *b, int nb, int d)\n{\n"
     "    int lo = d > nb ? d - nb : 0, hi = d < na ? d : na;\n    while (lo < hi) {\n"
     "        int i = lo + (hi - lo) / 2;\n"
     "        if (b[d - i - 1] < a[i])\n            hi = i;\n        else\n            lo = i + 1;\n"
     "    }\n    return lo;\n}\n\n"
     "/* Stable merge of the sorted arrays a and b (a first on ties), produced in\n"
     " * independent chunks of CHUNK outputs whose starting points come from\n"
     " * merge-path splits. */\n",
     "const $T *a, const $T *b, $T *out, int na, int nb",
     "    int n = na + nb;\n    for (int d0 = 0; d0 < n; d0 += CHUNK) {\n"
     "        int d1 = n - d0 < CHUNK ? n : d0 + CHUNK;\n"
     "        int i = split(a, na, b, nb, d0), j = d0 - i;\n"
     "        for (int k = d0; k < d1; k++) {\n"
     "            if (j >= nb || (i < na && !(b[j] < a[i])))\n                out[k] = a[i++];\n"
     "            else\n                out[k] = b[j++];\n        }\n    }\n",
     "na+nb", "2*$S*(na+nb)", "a=na;b=nb;out=na+nb", "a=sorted;b=sorted",
     .cuda = "#define CHUNK 256\n"
             "\n"
             "/* Merge path: the number i of elements of a among the first d outputs of\n"
             " * the stable merge of a and b, i.e. the smallest i with a[i] > b[d-i-1],\n"
             " * found by binary search along diagonal d. */\n"
             "__device__ int split(const $T *a, int na, const $T *b, int nb, int d)\n"
             "{\n"
             "    int lo = d > nb ? d - nb : 0, hi = d < na ? d : na;\n"
             "    while (lo < hi) {\n"
             "        const int i = lo + (hi - lo) / 2;\n"
             "        if (b[d - i - 1] < a[i])\n"
             "            hi = i;\n"
             "        else\n"
             "            lo = i + 1;\n"
             "    }\n"
             "    return lo;\n"
             "}\n"
             "\n"
             "/* One thread per chunk of CHUNK outputs: its merge-path split, then a\n"
             " * sequential merge of the chunk. */\n"
             "extern \"C\" __global__ void merge(const $T *a, const $T *b, $T *out, int na, int nb)\n"
             "{\n"
             "    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    const long long n = (long long)na + nb, d0 = c * CHUNK;\n"
             "    if (d0 >= n)\n"
             "        return;\n"
             "    const long long d1 = n - d0 < CHUNK ? n : d0 + CHUNK;\n"
             "    int i = split(a, na, b, nb, (int)d0), j = (int)d0 - i;\n"
             "    for (long long k = d0; k < d1; k++) {\n"
             "        if (j >= nb || (i < na && !(b[j] < a[i])))\n"
             "            out[k] = a[i++];\n"
             "        else\n"
             "            out[k] = b[j++];\n"
             "    }\n"
             "}\n",
     .launch = {{"merge", "((na+nb+255)/256+255)/256", "256", NULL, "a,b,out,na,nb"}},
     .mapping = "one-chunk-per-thread-merge-path"),
    OP("merge-pairs", "i32/f32", MERGE, "merge_pairs",
     "/* Stable merge of two sorted runs of (key, value) pairs: on equal keys the\n * pair from a comes first. */\n",
     "const $T *akeys, const $V *avals, const $T *bkeys, const $V *bvals, $T *keys, $V *vals, int na, int nb",
     "    int i = 0, j = 0;\n    for (int k = 0; k < na + nb; k++) {\n"
     "        if (j >= nb || (i < na && !(bkeys[j] < akeys[i]))) {\n"
     "            keys[k] = akeys[i];\n            vals[k] = avals[i++];\n        } else {\n"
     "            keys[k] = bkeys[j];\n            vals[k] = bvals[j++];\n        }\n    }\n",
     "na+nb", "2*($S+$W)*(na+nb)", "akeys=na;avals=na;bkeys=nb;bvals=nb;keys=na+nb;vals=na+nb",
     "akeys=int:0:na+nb;akeys=sorted;bkeys=int:0:na+nb;bkeys=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input pair, written at its co-rank in the stable merge of\n"
             " * the keys: a's pair i at i + #(bkeys < akeys[i]), b's pair j at\n"
             " * j + #(akeys <= bkeys[j]). */\n"
             "extern \"C\" __global__ void merge_pairs(const $T *akeys, const $V *avals, const $T *bkeys, const $V *bvals, $T *keys,\n"
             "                                       $V *vals, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (t < na) {\n"
             "        const long long k = t + lower_bound(bkeys, nb, akeys[t]);\n"
             "        keys[k] = akeys[t];\n"
             "        vals[k] = avals[t];\n"
             "    } else if (t < (long long)na + nb) {\n"
             "        const long long j = t - na, k = j + upper_bound(akeys, na, bkeys[j]);\n"
             "        keys[k] = bkeys[j];\n"
             "        vals[k] = bvals[j];\n"
             "    }\n"
             "}\n",
     .launch = {{"merge_pairs", "(na+nb+255)/256", "256", NULL, "akeys,avals,bkeys,bvals,keys,vals,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("merge-source", "f32", MERGE, "merge_source",
     "/* Where each output of the stable merge of the sorted arrays a and b comes\n"
     " * from: src[k] = i for a[i], na + j for b[j]. */\n",
     "const $T *a, const $T *b, int *src, int na, int nb",
     "    int i = 0, j = 0;\n    for (int k = 0; k < na + nb; k++)\n"
     "        src[k] = (j >= nb || (i < na && !(b[j] < a[i]))) ? i++ : na + j++;\n",
     "na+nb", "$S*(na+nb)+4*(na+nb)", "a=na;b=nb;src=na+nb", "a=sorted;b=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input element: its index (na + j for b[j]) written at its\n"
             " * co-rank in the stable merge. */\n"
             "extern \"C\" __global__ void merge_source(const $T *a, const $T *b, int *src, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (t < na)\n"
             "        src[t + lower_bound(b, nb, a[t])] = (int)t;\n"
             "    else if (t < (long long)na + nb)\n"
             "        src[t - na + upper_bound(a, na, b[t - na])] = (int)t;\n"
             "}\n",
     .launch = {{"merge_source", "(na+nb+255)/256", "256", NULL, "a,b,src,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("merge-rows", "f32", MERGEB, "merge_rows",
     "#include <stddef.h>\n\n/* Batched stable merge: row r of a (na sorted) and row r of b (nb sorted)\n"
     " * merge into row r of out (na + nb). */\n",
     "const $T *a, const $T *b, $T *out, int batch, int na, int nb",
     "    for (int r = 0; r < batch; r++) {\n        const $T *x = a + (size_t)r * na, *y = b + (size_t)r * nb;\n"
     "        $T *o = out + (size_t)r * (na + nb);\n        int i = 0, j = 0, k = 0;\n"
     "        while (i < na && j < nb)\n            o[k++] = y[j] < x[i] ? y[j++] : x[i++];\n"
     "        while (i < na)\n            o[k++] = x[i++];\n        while (j < nb)\n            o[k++] = y[j++];\n    }\n",
     "batch*(na+nb)", "2*$S*batch*(na+nb)", "a=batch,na;b=batch,nb;out=batch,na+nb", "a=sorted;b=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input element of row r (na of a, then nb of b), written at\n"
             " * its co-rank in the stable merge of the row. */\n"
             "extern \"C\" __global__ void merge_rows(const $T *a, const $T *b, $T *out, int batch, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    const long long w = (long long)na + nb;\n"
             "    if (t >= batch * w)\n"
             "        return;\n"
             "    const long long r = t / w, e = t % w;\n"
             "    const $T *x = a + r * na, *y = b + r * nb;\n"
             "    $T *o = out + r * w;\n"
             "    if (e < na)\n"
             "        o[e + lower_bound(y, nb, x[e])] = x[e];\n"
             "    else\n"
             "        o[e - na + upper_bound(x, na, y[e - na])] = y[e - na];\n"
             "}\n",
     .launch = {{"merge_rows", "(batch*(na+nb)+255)/256", "256", NULL, "a,b,out,batch,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("merge-corank", "i32", MERGE, "merge_positions",
     LOWER_BOUND UPPER_BOUND
     "/* Final positions in the stable merge of the sorted arrays a and b (a first\n"
     " * on ties): a[i] lands at i + #(b < a[i]), b[j] at j + #(a <= b[j]). */\n",
     "const $T *a, const $T *b, int *pos_a, int *pos_b, int na, int nb",
     "    for (int i = 0; i < na; i++)\n        pos_a[i] = i + lower_bound(b, nb, a[i]);\n"
     "    for (int j = 0; j < nb; j++)\n        pos_b[j] = j + upper_bound(a, na, b[j]);\n",
     "20*(na+nb)", "($S+4)*(na+nb)", "a=na;b=nb;pos_a=na;pos_b=nb",
     "a=int:0:na+nb;a=sorted;b=int:0:na+nb;b=sorted",
     .cuda = CU_LOWER_BOUND
             CU_UPPER_BOUND
             "/* One thread per input element: its final position in the stable merge. */\n"
             "extern \"C\" __global__ void merge_positions(const $T *a, const $T *b, int *pos_a, int *pos_b, int na, int nb)\n"
             "{\n"
             "    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (t < na)\n"
             "        pos_a[t] = (int)t + lower_bound(b, nb, a[t]);\n"
             "    else if (t < (long long)na + nb)\n"
             "        pos_b[t - na] = (int)(t - na) + upper_bound(a, na, b[t - na]);\n"
             "}\n",
     .launch = {{"merge_positions", "(na+nb+255)/256", "256", NULL, "a,b,pos_a,pos_b,na,nb"}},
     .mapping = "one-element-per-thread-corank"),
    OP("sorted-queries", "f32", SEARCH, "search_sorted_queries",
     "/* Lower bounds of queries that are themselves sorted: one forward walk\n"
     " * through a serves them all (idx[i] = first k with a[k] >= queries[i]). */\n",
     "const $T *a, const $T *queries, int *idx, int n, int q",
     "    int k = 0;\n    for (int i = 0; i < q; i++) {\n"
     "        while (k < n && a[k] < queries[i])\n            k++;\n        idx[i] = k;\n    }\n",
     "n+q", "$S*n+$S*q+4*q", "a=n;queries=q;idx=q", SORTED_REAL ";queries=sorted",
     .cuda = CU_LOWER_BOUND
             "/* One thread per query: the forward walk of the C code ends at the lower\n"
             " * bound, found here by binary search. */\n"
             "extern \"C\" __global__ void search_sorted_queries(const $T *a, const $T *queries, int *idx, int n, int q)\n"
             "{\n"
             "    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < q)\n"
             "        idx[i] = lower_bound(a, n, queries[i]);\n"
             "}\n",
     .launch = {{"search_sorted_queries", "(q+255)/256", "256", NULL, "a,queries,idx,n,q"}},
     .mapping = "one-query-per-thread"),
    OP("intersect-count", "i32", SETS, "intersect_rows",
     "#include <stddef.h>\n\n/* Per row, the size of the multiset intersection of the sorted rows a[r]\n"
     " * and b[r] (two-pointer walk). */\n",
     "const $T *a, const $T *b, int *count, int batch, int n",
     "    for (int r = 0; r < batch; r++) {\n        const $T *x = a + (size_t)r * n, *y = b + (size_t)r * n;\n"
     "        int i = 0, j = 0, c = 0;\n        while (i < n && j < n) {\n"
     "            if (x[i] < y[j])\n                i++;\n            else if (y[j] < x[i])\n                j++;\n"
     "            else {\n                c++;\n                i++;\n                j++;\n            }\n        }\n"
     "        count[r] = c;\n    }\n",
     "2*batch*n", "2*$S*batch*n+4*batch", "a=batch,n;b=batch,n;count=batch",
     "a=int:0:batch*n;a=sorted;b=int:0:batch*n;b=sorted",
     .cuda = "/* One thread per row: the two-pointer walk of the C code. */\n"
             "extern \"C\" __global__ void intersect_rows(const $T *a, const $T *b, int *count, int batch, int n)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= batch)\n"
             "        return;\n"
             "    const $T *x = a + r * n, *y = b + r * n;\n"
             "    int i = 0, j = 0, c = 0;\n"
             "    while (i < n && j < n) {\n"
             "        if (x[i] < y[j]) {\n"
             "            i++;\n"
             "        } else if (y[j] < x[i]) {\n"
             "            j++;\n"
             "        } else {\n"
             "            c++;\n"
             "            i++;\n"
             "            j++;\n"
             "        }\n"
             "    }\n"
             "    count[r] = c;\n"
             "}\n",
     .launch = {{"intersect_rows", "(batch+255)/256", "256", NULL, "a,b,count,batch,n"}},
     .mapping = "one-row-per-thread"),
    OP("union-count", "i32", SETS, "union_rows",
     "#include <stddef.h>\n\n/* Per row, the number of distinct values in the union of the sorted rows\n"
     " * a[r] and b[r] (each may hold repeats). */\n",
     "const $T *a, const $T *b, int *count, int batch, int n",
     "    for (int r = 0; r < batch; r++) {\n        const $T *x = a + (size_t)r * n, *y = b + (size_t)r * n;\n"
     "        int i = 0, j = 0, c = 0;\n        while (i < n || j < n) {\n"
     "            $T v = (j >= n || (i < n && x[i] <= y[j])) ? x[i] : y[j];\n            c++;\n"
     "            while (i < n && x[i] == v)\n                i++;\n"
     "            while (j < n && y[j] == v)\n                j++;\n        }\n        count[r] = c;\n    }\n",
     "2*batch*n", "2*$S*batch*n+4*batch", "a=batch,n;b=batch,n;count=batch",
     "a=int:0:batch*n/2+1;a=sorted;b=int:0:batch*n/2+1;b=sorted",
     .cuda = "/* One thread per row: walk both rows, counting each distinct value once. */\n"
             "extern \"C\" __global__ void union_rows(const $T *a, const $T *b, int *count, int batch, int n)\n"
             "{\n"
             "    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (r >= batch)\n"
             "        return;\n"
             "    const $T *x = a + r * n, *y = b + r * n;\n"
             "    int i = 0, j = 0, c = 0;\n"
             "    while (i < n || j < n) {\n"
             "        const $T v = (j >= n || (i < n && x[i] <= y[j])) ? x[i] : y[j];\n"
             "        c++;\n"
             "        while (i < n && x[i] == v)\n"
             "            i++;\n"
             "        while (j < n && y[j] == v)\n"
             "            j++;\n"
             "    }\n"
             "    count[r] = c;\n"
             "}\n",
     .launch = {{"union_rows", "(batch+255)/256", "256", NULL, "a,b,count,batch,n"}},
     .mapping = "one-row-per-thread"),
};
#define N_OPS ((int)(sizeof OPS / sizeof *OPS))

/* Applies "name=int:lo:hi;name=uni:lo:hi;name=part:total;name=sorted". */
static int generate(GenCtx *g)
{
    static const OpFamily family = {"searching sorted data", configs, reference_bytes};
    return ops_emit_all(g, &family, OPS, N_OPS);
}

const Family family_search = {"search", "sorting", 54, generate};
