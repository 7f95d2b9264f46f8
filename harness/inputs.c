#include "inputs.h"

#include <curand.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hash.h"
#include "common/strbuf.h"

/* Words are drawn in chunks to bound the temporary memory. */
#define CHUNK_WORDS (1 << 20)

typedef struct WordStream {
    curandGenerator_t gen;
    uint32_t *chunk;
    size_t pos, len, cap;
} WordStream;

/* expected_words sizes the first chunk, so small buffers draw few words. */
static int stream_open(WordStream *ws, uint64_t seed, const char *arg_name, int64_t expected_words, Error *e)
{
    /* Per-argument seed: stable when arguments are added or reordered. */
    char h[HASH_HEX_LEN + 1];
    HashCtx *hc = hash_new();
    hash_update(hc, &seed, sizeof seed);
    hash_update_str(hc, arg_name);
    hash_final(hc, h);
    uint64_t s = strtoull(h + 48, NULL, 16);
    memset(ws, 0, sizeof *ws);
    /* Creating a host generator costs about 10 ms; one per process is kept
     * and re-seeded (seed + offset 0 define the Philox sequence fully). */
    static curandGenerator_t shared;
    static pid_t owner;
    curandStatus_t st;
    if (!shared || owner != getpid()) {
        if ((st = curandCreateGeneratorHost(&shared, CURAND_RNG_PSEUDO_PHILOX4_32_10)) != CURAND_STATUS_SUCCESS) {
            shared = NULL;
            return ERR(e, "cuRAND: cannot create the host Philox generator (status %d)", (int)st);
        }
        owner = getpid();
    }
    ws->gen = shared;
    if ((st = curandSetPseudoRandomGeneratorSeed(ws->gen, s)) != CURAND_STATUS_SUCCESS ||
        (st = curandSetGeneratorOffset(ws->gen, 0)) != CURAND_STATUS_SUCCESS)
        return ERR(e, "cuRAND: cannot seed the generator (status %d)", (int)st);
    int64_t want = expected_words < 4 ? 4 : expected_words;
    ws->cap = want < CHUNK_WORDS ? (size_t)((want + 3) / 4 * 4) : CHUNK_WORDS;
    ws->chunk = xmalloc(ws->cap * sizeof(uint32_t));
    return 0;
}

static int stream_next(WordStream *ws, uint32_t *out, Error *e)
{
    if (ws->pos == ws->len) {
        curandStatus_t st = curandGenerate(ws->gen, ws->chunk, ws->cap);
        if (st != CURAND_STATUS_SUCCESS)
            return ERR(e, "cuRAND: generation failed (status %d)", (int)st);
        ws->pos = 0;
        ws->len = ws->cap;
    }
    *out = ws->chunk[ws->pos++];
    return 0;
}

static void stream_close(WordStream *ws)
{
    free(ws->chunk); /* the generator is shared, see stream_open */
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

static void put(DType t, void *buf, int64_t i, double v)
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

int inputs_fill(const Problem *p, const ProblemConfig *c, const ProblemArg *a, uint64_t seed, void *buf,
                int64_t count, Error *e)
{
    WordStream ws;
    if (stream_open(&ws, seed, a->name, count, e) != 0)
        return -1;
    int rc = 0;
    const FillSpec *f = &a->fill;
    if (f->kind == FILL_UNIFORM) {
        for (int64_t i = 0; i < count; i++) {
            uint32_t w;
            TRY(stream_next(&ws, &w, e));
            /* u in (0, 1): (w + 0.5) / 2^32, exact in double. */
            double u = ((double)w + 0.5) * (1.0 / 4294967296.0);
            double v = f->lo + (f->hi - f->lo) * u;
            put(a->dtype, buf, i, dtype_is_float(a->dtype) ? v : floor(v));
        }
    } else if (f->kind == FILL_INT) {
        int64_t lo, hi;
        TRY(problem_eval(p, c, f->lo_expr, &lo, e));
        TRY(problem_eval(p, c, f->hi_expr, &hi, e));
        if (lo >= hi)
            FAIL(e, "fill of '%s': empty range [%lld, %lld)", a->name, (long long)lo, (long long)hi);
        for (int64_t i = 0; i < count; i++) {
            int64_t v;
            TRY(draw_int(&ws, lo, hi, &v, e));
            put(a->dtype, buf, i, (double)v);
        }
    } else if (f->kind == FILL_PARTITION) {
        int64_t total;
        TRY(problem_eval(p, c, f->total_expr, &total, e));
        if (total < 0)
            FAIL(e, "fill of '%s': negative partition total %lld", a->name, (long long)total);
        int64_t *cuts = xmalloc(sizeof(int64_t) * (size_t)count);
        for (int64_t i = 0; i < count; i++) {
            if (draw_int(&ws, 0, total + 1, &cuts[i], e) != 0) {
                free(cuts);
                rc = -1;
                goto done;
            }
        }
        qsort(cuts, (size_t)count, sizeof *cuts, cmp_i64);
        cuts[0] = 0;
        cuts[count - 1] = total;
        for (int64_t i = 0; i < count; i++)
            put(a->dtype, buf, i, (double)cuts[i]);
        free(cuts);
    }
    if (f->sorted) {
        g_sort_type = a->dtype;
        qsort(buf, (size_t)count, dtype_size(a->dtype), cmp_elem);
    }
done:
    stream_close(&ws);
    return rc;
}

void inputs_poison(DType t, void *buf, int64_t count)
{
    if (dtype_is_float(t)) {
        for (int64_t i = 0; i < count; i++)
            put(t, buf, i, NAN);
    } else {
        memset(buf, 0xA5, (size_t)count * dtype_size(t));
    }
}
