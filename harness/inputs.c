#include "inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/parallel.h"
#include "common/strbuf.h"

/* Philox4x32-10 (Salmon et al., SC'11) laid out exactly as cuRAND's host
 * generator (CURAND_RNG_PSEUDO_PHILOX4_32_10) lays it out: word w of the
 * stream for seed s is lane w%4 of the block with counter
 * {pos, pos>>32, sub, 0}, where b = w/4, sub = b % 65536, pos = b / 65536,
 * keyed by (s, s>>32).  tests/test_inputs.c checks bit-identity against
 * curandGenerate for several seeds and offsets.  Computing it ourselves
 * avoids cuRAND's ~20 ms cost for every re-seed, and frees the GPU worker
 * from libcurand. */
typedef struct WordStream {
    uint32_t key0, key1;
    uint64_t next;      /* index of the next word */
    uint64_t block_id;  /* block held in `block`, or UINT64_MAX */
    uint32_t block[4];
} WordStream;

static void philox4x32_10(uint32_t c[4], uint32_t k0, uint32_t k1)
{
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0;
        c[1] = n1;
        c[2] = n2;
        c[3] = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

uint32_t inputs_philox_word(uint64_t seed, uint64_t w)
{
    uint64_t b = w / 4, pos = b >> 16, sub = b & 0xffff;
    uint32_t c[4] = {(uint32_t)pos, (uint32_t)(pos >> 32), (uint32_t)sub, 0};
    philox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32));
    return c[w % 4];
}

static uint64_t arg_seed(uint64_t seed, const char *arg_name)
{
    /* Per-argument seed: stable when arguments are added or reordered. */
    char h[HASH_HEX_LEN + 1];
    HashCtx *hc = hash_new();
    hash_update(hc, &seed, sizeof seed);
    hash_update_str(hc, arg_name);
    hash_final(hc, h);
    return strtoull(h + 48, NULL, 16);
}

static int stream_open(WordStream *ws, uint64_t seed, const char *arg_name, Error *e)
{
    (void)e;
    uint64_t s = arg_seed(seed, arg_name);
    ws->key0 = (uint32_t)s;
    ws->key1 = (uint32_t)(s >> 32);
    ws->next = 0;
    ws->block_id = UINT64_MAX;
    return 0;
}

static int stream_next(WordStream *ws, uint32_t *out, Error *e)
{
    (void)e;
    uint64_t b = ws->next / 4;
    if (b != ws->block_id) {
        uint64_t pos = b >> 16, sub = b & 0xffff;
        ws->block[0] = (uint32_t)pos;
        ws->block[1] = (uint32_t)(pos >> 32);
        ws->block[2] = (uint32_t)sub;
        ws->block[3] = 0;
        philox4x32_10(ws->block, ws->key0, ws->key1);
        ws->block_id = b;
    }
    *out = ws->block[ws->next++ % 4];
    return 0;
}

static void stream_close(WordStream *ws)
{
    (void)ws;
}

uint64_t inputs_stream_seed(uint64_t seed, const char *arg_name)
{
    return arg_seed(seed, arg_name);
}

/* ---- half precision ---- */

uint16_t inputs_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - e;
        uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent, which is the correct rounding */
    return (uint16_t)half;
}

float inputs_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    if (exp == 0) {
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        x = sign | 0x7f800000u | (man << 13);
    else
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t inputs_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

float inputs_bf16_to_f32(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* ---- element access ---- */

void inputs_put(DType t, void *buf, int64_t i, double v)
{
    switch (t) {
    case DT_BOOL: ((uint8_t *)buf)[i] = v != 0; break;
    case DT_I8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case DT_U8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case DT_I16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case DT_U16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case DT_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case DT_U32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case DT_I64: ((int64_t *)buf)[i] = (int64_t)v; break;
    case DT_U64: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    case DT_F16: ((uint16_t *)buf)[i] = inputs_f32_to_f16((float)v); break;
    case DT_BF16: ((uint16_t *)buf)[i] = inputs_f32_to_bf16((float)v); break;
    case DT_F32: ((float *)buf)[i] = (float)v; break;
    case DT_F64: ((double *)buf)[i] = v; break;
    default: break;
    }
}

double inputs_get(DType t, const void *buf, int64_t i)
{
    switch (t) {
    case DT_BOOL: return ((const uint8_t *)buf)[i];
    case DT_I8: return ((const int8_t *)buf)[i];
    case DT_U8: return ((const uint8_t *)buf)[i];
    case DT_I16: return ((const int16_t *)buf)[i];
    case DT_U16: return ((const uint16_t *)buf)[i];
    case DT_I32: return ((const int32_t *)buf)[i];
    case DT_U32: return ((const uint32_t *)buf)[i];
    case DT_I64: return (double)((const int64_t *)buf)[i];
    case DT_U64: return (double)((const uint64_t *)buf)[i];
    case DT_F16: return inputs_f16_to_f32(((const uint16_t *)buf)[i]);
    case DT_BF16: return inputs_bf16_to_f32(((const uint16_t *)buf)[i]);
    case DT_F32: return ((const float *)buf)[i];
    case DT_F64: return ((const double *)buf)[i];
    default: return 0;
    }
}

/* ---- sorting (for "sorted" fills and partitions) ---- */

static DType g_sort_type;
static int cmp_elem(const void *a, const void *b)
{
    double x = inputs_get(g_sort_type, a, 0), y = inputs_get(g_sort_type, b, 0);
    return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Integers in [lo, hi): one word for ranges below 2^32, two above. */
static int draw_int(WordStream *ws, int64_t lo, int64_t hi, int64_t *out, Error *e)
{
    uint64_t range = (uint64_t)(hi - lo);
    uint32_t w1 = 0, w2 = 0;
    if (stream_next(ws, &w1, e) != 0)
        return -1;
    if (range <= 0xffffffffu) {
        *out = lo + (int64_t)(((uint64_t)w1 * range) >> 32);
        return 0;
    }
    if (stream_next(ws, &w2, e) != 0)
        return -1;
    *out = lo + (int64_t)((((uint64_t)w1 << 32) | w2) % range);
    return 0;
}

/* ---- uniform fills of large buffers, in parallel ----
 * Element i of a uniform fill depends only on word i of the stream, so
 * disjoint ranges can be filled by separate threads and the bytes are the
 * same whatever the split (the large configs' inputs are hundreds of MB:
 * one thread took 1.3 s for 64 Mi floats, measured). */

static void fill_uniform_range(const ProblemArg *a, uint64_t key, void *buf, int64_t begin, int64_t end)
{
    WordStream ws = {.key0 = (uint32_t)key, .key1 = (uint32_t)(key >> 32), .next = (uint64_t)begin,
                     .block_id = UINT64_MAX};
    const FillSpec *f = &a->fill;
    double scale = (f->hi - f->lo) * (1.0 / 4294967296.0);
    int is_float = dtype_is_float(a->dtype);
    int64_t i = begin;
    if (a->dtype == DT_F32) {
        /* whole Philox blocks of 4 words at a time: the hot path */
        float *out = buf;
        for (; i < end && i % 4; i++) {
            uint32_t w;
            stream_next(&ws, &w, NULL);
            out[i] = (float)(f->lo + scale * ((double)w + 0.5));
        }
        for (; i + 4 <= end; i += 4) {
            uint64_t blk = (uint64_t)i / 4, pos = blk >> 16;
            uint32_t c[4] = {(uint32_t)pos, (uint32_t)(pos >> 32), (uint32_t)(blk & 0xffff), 0};
            philox4x32_10(c, ws.key0, ws.key1);
            for (int k = 0; k < 4; k++)
                out[i + k] = (float)(f->lo + scale * ((double)c[k] + 0.5));
        }
        ws.next = (uint64_t)i;
    }
    for (; i < end; i++) {
        uint32_t w;
        stream_next(&ws, &w, NULL);
        /* u in (0, 1): (w + 0.5) / 2^32, exact in double. */
        double v = f->lo + scale * ((double)w + 0.5);
        inputs_put(a->dtype, buf, i, is_float ? v : floor(v));
    }
}

typedef struct UniformFill {
    const ProblemArg *a;
    uint64_t key;
    void *buf;
} UniformFill;

static void uniform_range(void *ctx, int k, int64_t begin, int64_t end)
{
    (void)k;
    const UniformFill *u = ctx;
    fill_uniform_range(u->a, u->key, u->buf, begin, end);
}

#define UNIFORM_PARALLEL_MIN (1 << 20) /* elements: below this one thread is faster */

static void fill_uniform(const ProblemArg *a, uint64_t key, void *buf, int64_t count)
{
    UniformFill u = {a, key, buf};
    parallel_ranges(count, parallel_threads(count, UNIFORM_PARALLEL_MIN, 32), uniform_range, &u);
}

/* ---- integer fills and partitions of large buffers, in parallel ----
 * draw_int takes one word per element for ranges below 2^32 and two above,
 * the same for every element of a fill, so element i starts at word
 * i * words and disjoint ranges can be drawn by separate threads with the
 * very values one thread drew (134M partition cuts took 44 s before:
 * one thread drawing, then qsort; 2026-12-07). */

typedef struct IntDraw {
    uint32_t key0, key1;
    int64_t lo, hi;
    DType dtype;   /* of buf; DT_U32 for partition cuts */
    void *buf;
} IntDraw;

static void int_draw_range(void *ctx, int k, int64_t begin, int64_t end)
{
    (void)k;
    const IntDraw *d = ctx;
    uint64_t words = (uint64_t)(d->hi - d->lo) <= 0xffffffffu ? 1 : 2;
    WordStream ws = {.key0 = d->key0, .key1 = d->key1, .next = (uint64_t)begin * words, .block_id = UINT64_MAX};
    for (int64_t i = begin; i < end; i++) {
        int64_t v = 0;
        draw_int(&ws, d->lo, d->hi, &v, NULL);
        if (d->dtype == DT_U32)
            ((uint32_t *)d->buf)[i] = (uint32_t)v;
        else
            inputs_put(d->dtype, d->buf, i, (double)v);
    }
}

#define INT_PARALLEL_MIN (1 << 20) /* elements: below this one thread is faster */

static void draw_ints(const WordStream *ws, int64_t lo, int64_t hi, DType dtype, void *buf, int64_t count)
{
    IntDraw d = {ws->key0, ws->key1, lo, hi, dtype, buf};
    parallel_ranges(count, parallel_threads(count, INT_PARALLEL_MIN, 32), int_draw_range, &d);
}

/* Element i of an array of 4- or 8-byte unsigned keys. */
static uint64_t key_at(const void *v, int64_t i, size_t width)
{
    return width == 4 ? ((const uint32_t *)v)[i] : ((const uint64_t *)v)[i];
}

static void key_put(void *v, int64_t i, size_t width, uint64_t k)
{
    if (width == 4)
        ((uint32_t *)v)[i] = (uint32_t)k;
    else
        ((uint64_t *)v)[i] = k;
}

/* Sorts the n unsigned keys of `width` bytes (4 or 8) in v ascending: LSD
 * radix sort, 11 bits a pass, as many passes as max_value needs, through
 * tmp (n keys).  The result is the one any sort gives; this one is linear
 * where qsort spent 30 s on 134M partition cuts. */
static void radix_sort(void *v, void *tmp, int64_t n, size_t width, uint64_t max_value)
{
    enum { BITS = 11, BUCKETS = 1 << BITS };
    void *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 8 * width && (max_value >> shift) != 0; shift += BITS) {
        int64_t start[BUCKETS] = {0};
        for (int64_t i = 0; i < n; i++)
            start[(key_at(src, i, width) >> shift) & (BUCKETS - 1)]++;
        int64_t sum = 0;
        for (int b = 0; b < BUCKETS; b++) {
            int64_t c = start[b];
            start[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) {
            uint64_t k = key_at(src, i, width);
            key_put(dst, start[(k >> shift) & (BUCKETS - 1)]++, width, k);
        }
        void *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, width * (size_t)n);
}

/* Order-preserving unsigned keys of 32- and 64-bit elements, in place, and
 * back: a signed integer's sign bit flipped; a float's bits flipped
 * whole where it is negative, else its sign bit (fills hold no NaN). */
static void to_keys(DType t, void *buf, int64_t n, int back)
{
    if (t == DT_I32 || t == DT_F32) {
        uint32_t *u = buf;
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = u[i];
            if (t == DT_I32)
                u[i] = x ^ 0x80000000u;
            else if (!back)
                u[i] = x & 0x80000000u ? ~x : x | 0x80000000u;
            else
                u[i] = x & 0x80000000u ? x & 0x7fffffffu : ~x;
        }
    } else if (t == DT_I64 || t == DT_F64) {
        uint64_t *u = buf;
        const uint64_t sign = 0x8000000000000000ull;
        for (int64_t i = 0; i < n; i++) {
            uint64_t x = u[i];
            if (t == DT_I64)
                u[i] = x ^ sign;
            else if (!back)
                u[i] = x & sign ? ~x : x | sign;
            else
                u[i] = x & sign ? x & ~sign : ~x;
        }
    }
}

/* A "sorted" fill: 32- and 64-bit elements by radix sort on their keys
 * (qsort through inputs_get took seconds a buffer on the large configs'
 * 16M to 64M sorted keys), others by qsort. */
static void sort_fill(DType t, void *buf, int64_t n)
{
    size_t size = dtype_size(t);
    int radix = t == DT_I32 || t == DT_U32 || t == DT_F32 || t == DT_I64 || t == DT_U64 || t == DT_F64;
    if (!radix || n < 2) {
        g_sort_type = t;
        qsort(buf, (size_t)n, size, cmp_elem);
        return;
    }
    void *tmp = xmalloc(size * (size_t)n);
    to_keys(t, buf, n, 0);
    radix_sort(buf, tmp, n, size, size == 4 ? 0xffffffffu : UINT64_MAX);
    to_keys(t, buf, n, 1);
    free(tmp);
}

/* The partition fill: count cuts drawn in [0, total], sorted, the first
 * set to 0 and the last to total (offsets of count - 1 segments). */
static void fill_partition(const WordStream *ws, int64_t total, const ProblemArg *a, void *buf, int64_t count)
{
    if (count <= 0)
        return;
    if (total < 0xffffffffLL) {
        uint32_t *cuts = xmalloc(sizeof(uint32_t) * (size_t)count * 2);
        draw_ints(ws, 0, total + 1, DT_U32, cuts, count);
        radix_sort(cuts, cuts + count, count, sizeof *cuts, (uint64_t)total);
        cuts[0] = 0;
        cuts[count - 1] = (uint32_t)total;
        for (int64_t i = 0; i < count; i++)
            inputs_put(a->dtype, buf, i, (double)cuts[i]);
        free(cuts);
        return;
    }
    int64_t *cuts = xmalloc(sizeof(int64_t) * (size_t)count);
    draw_ints(ws, 0, total + 1, DT_I64, cuts, count);
    qsort(cuts, (size_t)count, sizeof *cuts, cmp_i64);
    cuts[0] = 0;
    cuts[count - 1] = total;
    for (int64_t i = 0; i < count; i++)
        inputs_put(a->dtype, buf, i, (double)cuts[i]);
    free(cuts);
}

int inputs_fill(const Problem *p, const ProblemConfig *c, const ProblemArg *a, uint64_t seed, void *buf,
                int64_t count, Error *e)
{
    WordStream ws;
    if (stream_open(&ws, seed, a->name, e) != 0)
        return -1;
    int rc = 0;
    const FillSpec *f = &a->fill;
    if (f->kind == FILL_UNIFORM) {
        fill_uniform(a, (uint64_t)ws.key0 | (uint64_t)ws.key1 << 32, buf, count);
    } else if (f->kind == FILL_INT) {
        int64_t lo, hi;
        TRY(problem_eval(p, c, f->lo_expr, &lo, e));
        TRY(problem_eval(p, c, f->hi_expr, &hi, e));
        if (lo >= hi)
            FAIL(e, "fill of '%s': empty range [%lld, %lld)", a->name, (long long)lo, (long long)hi);
        draw_ints(&ws, lo, hi, a->dtype, buf, count);
    } else if (f->kind == FILL_PARTITION) {
        int64_t total;
        TRY(problem_eval(p, c, f->total_expr, &total, e));
        if (total < 0)
            FAIL(e, "fill of '%s': negative partition total %lld", a->name, (long long)total);
        fill_partition(&ws, total, a, buf, count);
    }
    if (f->sorted)
        sort_fill(a->dtype, buf, count);
done:
    stream_close(&ws);
    return rc;
}

/* Elements [begin, end) of buf. */
static void poison_range(DType t, void *buf, int64_t begin, int64_t end)
{
    size_t size = dtype_size(t);
    char *base = (char *)buf + (size_t)begin * size;
    size_t total = (size_t)(end - begin) * size;
    if (total == 0)
        return;
    if (!dtype_is_float(t)) {
        memset(base, 0xA5, total);
        return;
    }
    /* one element, then doubling copies of what is written */
    size_t done = size;
    inputs_put(t, base, 0, NAN);
    while (done < total) {
        size_t n = done < total - done ? done : total - done;
        memcpy(base + done, base, n);
        done += n;
    }
}

typedef struct PoisonFill {
    DType t;
    void *buf;
} PoisonFill;

static void poison_job(void *ctx, int k, int64_t begin, int64_t end)
{
    (void)k;
    const PoisonFill *f = ctx;
    poison_range(f->t, f->buf, begin, end);
}

/* A large output is mostly fresh memory, whose first touch (the kernel
 * zeroing each page) cost more than the writing: 2.3 s for 508 MiB on one
 * thread here (2026-12-04).  Several threads take the faults in parallel. */
#define POISON_PARALLEL_MIN_BYTES (64LL << 20)

void inputs_poison(DType t, void *buf, int64_t count)
{
    if (count <= 0)
        return;
    int64_t min_count = POISON_PARALLEL_MIN_BYTES / (int64_t)dtype_size(t);
    PoisonFill f = {t, buf};
    parallel_ranges(count, parallel_threads(count, min_count, 8), poison_job, &f);
}
