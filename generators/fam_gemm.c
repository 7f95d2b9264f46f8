/* gemm — dense matrix products C = alpha*op(A)*op(B) + beta*C with op in
 * {N, T}, row- and column-major storage, padded leading dimensions, and
 * square and rectangular shapes (large configs around 4096^3 flops, also
 * tall, wide and deep ones); fused epilogues (bias per column or row with
 * ReLU, leaky ReLU, ReLU6, GELU, SiLU, ELU, sigmoid, tanh; residual add);
 * int8 x int8 -> i32 (with bias, u8 x i8, requantization to i8,
 * dequantization to f32) and i32 products; complex, symmetric (symm),
 * triangular (trmm), diagonally scaled, two-product, chained and
 * mixed-precision products.  Floating-point products accumulate in double.
 * Every program whose pair is the TILED kernel also gets alternatives from
 * the template's knob space (TILE_CHOICES: larger shared tiles, register
 * tiles), each refused with its reason where it breaks a limit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_spec.h"
#include "gen_tile.h"

#define SMALL_EDGE "small:m=96,n=80,k=64|edge:m=1,n=23,k=1|edge-k1:m=17,n=13,k=1|edge-prime:m=37,n=29,k=31"
#define GEMM_COST "2*m*n*k", "$S*(m*k+k*n+m*n)"
#define EDGE_NZ "small:m=96,n=80,k=64|edge:m=7,n=11,k=1|edge-col:m=23,n=1,k=2|edge-prime:m=37,n=29,k=31"
#define INT_CFG SMALL_EDGE "|large:m=4096,n=4096,k=4096"
/* A config for the products that accumulate into C (C += A*B): a thread
 * past the end of C there adds the zero its guarded loads summed and leaves
 * the guard as it found it, so a missing or loosened bound shows only as an
 * access past the guard zone.  Rows of C over 4 KiB + 256 bytes (the guard
 * and its alignment, worker_protocol.h's WP_GUARD_BYTES) with m not a
 * multiple of the tile put row m's far end there: the CPU backend faults on
 * it (complex-f32's, int32's and int8-tn-accumulate's bounds defects passed
 * every other config, census 2026-12-07). */
#define WIDE_EDGE "|edge-wide:m=3,n=1201,k=5"

/* The pairs: one thread per element of C in 16 x 16 tiles, the tiles of A
 * and B staged through shared memory, k in steps of TILE.  Each thread
 * sums its products in the C program's order (the padding past k adds
 * zeros), in double or the exact integer type, and STORE applies the
 * epilogue.  A_AT(i, p) and B_AT(p, j) are the expressions of op(A) and
 * op(B); TA and TB the element types kept in shared memory.  All arguments
 * are string literals, or "%s" to make a printf format of the template
 * for the variants built at run time. */
#define TILED(DOC, ENTRY, PARAMS, TA, TB, ACC, K, A_AT, B_AT, STORE)                                       \
    "/* " DOC ": one thread per element of C in\n"                                                      \
    " * 16 x 16 tiles, the tiles of A and B staged through shared memory. */\n"                         \
    "#define TILE 16\n"                                                                                 \
    "#define A_AT(i, p) (" A_AT ")\n"                                                                   \
    "#define B_AT(p, j) (" B_AT ")\n\n"                                                                \
    "extern \"C\" __global__ void " ENTRY "(" PARAMS ")\n{\n"                                            \
    "    __shared__ " TA " as[TILE][TILE];\n"                                                          \
    "    __shared__ " TB " bs[TILE][TILE];\n"                                                          \
    "    const int ty = threadIdx.y, tx = threadIdx.x;\n"                                               \
    "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;\n"                           \
    "    " ACC " acc = 0;\n"                                                                             \
    "    for (int p0 = 0; p0 < " K "; p0 += TILE) {\n"                                                   \
    "        as[ty][tx] = i < m && p0 + tx < " K " ? A_AT(i, p0 + tx) : 0;\n"                             \
    "        bs[ty][tx] = p0 + ty < " K " && j < n ? B_AT(p0 + ty, j) : 0;\n"                             \
    "        __syncthreads();\n"                                                                        \
    "        for (int p = 0; p < TILE; p++)\n"                                                          \
    "            acc += as[ty][p] * bs[p][tx];\n"                                                       \
    "        __syncthreads();\n"                                                                        \
    "    }\n"                                                                                           \
    "    if (i < m && j < n) {\n"                                                                       \
    "        " STORE ";\n"                                                                              \
    "    }\n}\n"
#define TILED_LAUNCH(ENTRY, ARGS) ENTRY "|(n+15)/16,(m+15)/16|16,16||" ARGS
#define TILED_KNOBS "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"
#define TILED_FMT TILED("%s", "%s", "%s", "%s", "%s", "%s", "%s", "%s", "%s", "%s")

/* The arguments of TILED for one program, kept so that the alternatives
 * can be built from the same parts ($-placeholders expanded per dtype as
 * the pair's are). */
typedef struct Tiled {
    const char *doc, *entry, *params, *ta, *tb, *acc, *k, *a_at, *b_at, *store;
} Tiled;

/* A program of the table: its spec and, when t.entry is set, the TILED
 * kernel of its pair, then followed in kernel.cu by sp.cuda (NULL:
 * nothing).  t.entry NULL: sp.cuda is the whole kernel and the program has
 * no alternatives. */
typedef struct GemmSpec {
    Spec sp;
    Tiled t;
} GemmSpec;

/* The alternatives, the tiled template's knob space: a tile x tile tile
 * of C per block, each thread computing a reg x reg sub-block of it, k in
 * steps of tile_k.  tile-64 (4096 threads per block) and regtile-8x8-k128
 * (two 128 x 128 tiles in shared memory: within the static limit for 8-bit
 * elements only) are there to be refused with their reasons, so real
 * generation exercises the refusal path, one or two per program. */
typedef struct TileChoice {
    const char *name;
    int tile, reg, tile_k;
} TileChoice;

static const TileChoice TILE_CHOICES[] = {
    {"tile-32", 32, 1, 32},
    {"regtile-2x2", 32, 2, 16},
    {"regtile-4x4", 64, 4, 16},
    {"tile-64", 64, 1, 64},
    {"regtile-8x8-k128", 128, 8, 128},
};

/* Bytes of an element of CUDA type `type` (as spelled after expansion), 0
 * for one this table does not know. */
static int cuda_type_bytes(const char *type)
{
    static const struct {
        const char *type;
        int bytes;
    } SIZES[] = {{"float", 4}, {"double", 8}, {"int", 4}, {"signed char", 1}, {"unsigned char", 1},
                 {"short", 2}, {"unsigned short", 2}, {"long long", 8}};
    for (size_t i = 0; i < sizeof SIZES / sizeof *SIZES; i++)
        if (strcmp(SIZES[i].type, type) == 0)
            return SIZES[i].bytes;
    return 0;
}

/* The kernel of choice c for t.  Each thread owns rows ty + r * TY and
 * columns tx + s * TX of the block's tile (strided, not a contiguous
 * sub-block): a warp's reads of the B tile and its stores of C stay
 * contiguous, and its reads of the A tile are broadcasts.  The tiles are
 * loaded by all threads together, zero past the edges of A and B; each
 * element of C sums its products in increasing p, as the pair does (the
 * padding adds zeros), in the same accumulator type, and STORE applies
 * the same epilogue.  The result is from malloc(). */
static char *tiled_alt_source(const Tiled *t, const TileChoice *c)
{
    StrBuf b = STRBUF_INIT;
    char *store = xreplace_all(t->store, "\n        ", "\n                ");
    const int threads = c->tile / c->reg;
    if (c->reg == 1)
        sb_printf(&b, "/* %s: one thread per element of C in %d x %d tiles, the tiles of\n"
                  " * A and B staged through shared memory, k in steps of TK. */\n", t->doc, c->tile, c->tile);
    else
        sb_printf(&b,
                  "/* %s: a %d x %d tile of C per block of %d x %d threads, each\n"
                  " * thread computing %d x %d elements of it (rows ty + r * TY, columns\n"
                  " * tx + s * TX: a warp's reads of the B tile and stores of C stay\n"
                  " * contiguous), the tiles of A and B staged through shared memory, k in\n"
                  " * steps of TK. */\n",
                  t->doc, c->tile, c->tile, threads, threads, c->reg, c->reg);
    sb_printf(&b,
              "#define TM %d\n#define TN %d\n#define TK %d\n#define RM %d\n#define RN %d\n"
              "#define TX (TN / RN)\n#define TY (TM / RM)\n"
              "#define A_AT(i, p) (%s)\n#define B_AT(p, j) (%s)\n\n",
              c->tile, c->tile, c->tile_k, c->reg, c->reg, t->a_at, t->b_at);
    sb_printf(&b,
              "extern \"C\" __global__ void %s(%s)\n{\n"
              "    __shared__ %s as[TM][TK];\n"
              "    __shared__ %s bs[TK][TN];\n"
              "    const int ty = threadIdx.y, tx = threadIdx.x, tid = ty * TX + tx;\n"
              "    const int i0 = blockIdx.y * TM, j0 = blockIdx.x * TN;\n"
              "    %s sum[RM][RN];\n"
              "#pragma unroll\n"
              "    for (int r = 0; r < RM; r++)\n"
              "#pragma unroll\n"
              "        for (int s = 0; s < RN; s++)\n"
              "            sum[r][s] = 0;\n",
              t->entry, t->params, t->ta, t->tb, t->acc);
    sb_printf(&b,
              "    for (int p0 = 0; p0 < %s; p0 += TK) {\n"
              "        for (int idx = tid; idx < TM * TK; idx += TX * TY) {\n"
              "            const int i = i0 + idx / TK, p = p0 + idx %% TK;\n"
              "            as[idx / TK][idx %% TK] = i < m && p < %s ? A_AT(i, p) : 0;\n"
              "        }\n"
              "        for (int idx = tid; idx < TK * TN; idx += TX * TY) {\n"
              "            const int p = p0 + idx / TN, j = j0 + idx %% TN;\n"
              "            bs[idx / TN][idx %% TN] = p < %s && j < n ? B_AT(p, j) : 0;\n"
              "        }\n"
              "        __syncthreads();\n"
              "        for (int p = 0; p < TK; p++) {\n"
              "            %s av[RM];\n"
              "            %s bv[RN];\n"
              "#pragma unroll\n"
              "            for (int r = 0; r < RM; r++)\n"
              "                av[r] = as[ty + r * TY][p];\n"
              "#pragma unroll\n"
              "            for (int s = 0; s < RN; s++)\n"
              "                bv[s] = bs[p][tx + s * TX];\n"
              "#pragma unroll\n"
              "            for (int r = 0; r < RM; r++)\n"
              "#pragma unroll\n"
              "                for (int s = 0; s < RN; s++)\n"
              "                    sum[r][s] += av[r] * bv[s];\n"
              "        }\n"
              "        __syncthreads();\n"
              "    }\n",
              t->k, t->k, t->k, t->ta, t->tb);
    sb_printf(&b,
              "#pragma unroll\n"
              "    for (int r = 0; r < RM; r++)\n"
              "#pragma unroll\n"
              "        for (int s = 0; s < RN; s++) {\n"
              "            const int i = i0 + ty + r * TY, j = j0 + tx + s * TX;\n"
              "            if (i < m && j < n) {\n"
              "                const %s acc = sum[r][s];\n"
              "                %s;\n"
              "            }\n"
              "        }\n}\n",
              t->acc, store);
    free(store);
    return sb_steal(&b);
}

/* The pair's launches with those of the tiled kernel given choice c's
 * grid and block (the others, row_max's, as they are).  A tiled launch not
 * in the pair's form is a misuse, recorded with gen_error. */
static void tiled_alt_launches(GenProgram *p, const Spec *sp, const Tiled *t, const TileChoice *c)
{
    char *plan = xstrdup(sp->launch), *save = NULL;
    for (char *l = strtok_r(plan, ";", &save); l; l = strtok_r(NULL, ";", &save)) {
        char *f[5] = {l, NULL, NULL, NULL, NULL};
        for (int i = 1; i < 5 && f[i - 1]; i++)
            if ((f[i] = strchr(f[i - 1], '|')) != NULL)
                *f[i]++ = '\0';
        if (!f[4]) {
            gen_error(p, "gemm: malformed launch '%s'", l);
            break;
        }
        const char *smem = f[3][0] ? f[3] : NULL;
        if (strcmp(f[0], t->entry) != 0) {
            gen_launch(p, f[0], f[1], f[2], smem, f[4]);
            continue;
        }
        char x[32], y[32], grid[96], block[32];
        int end = 0;
        if (sscanf(f[1], "(%31[^+]+15)/16,(%31[^+]+15)/16%n", x, y, &end) != 2 || f[1][end] != '\0' ||
            strcmp(f[2], "16,16") != 0) {
            gen_error(p, "gemm: launch of %s is not the tiled pair's ('%s', '%s')", f[0], f[1], f[2]);
            break;
        }
        snprintf(grid, sizeof grid, "(%s+%d)/%d,(%s+%d)/%d", x, c->tile - 1, c->tile, y, c->tile - 1, c->tile);
        snprintf(block, sizeof block, "%d,%d", c->tile / c->reg, c->tile / c->reg);
        gen_launch(p, f[0], grid, block, smem, f[4]);
    }
    free(plan);
}

/* The pair's "mapping" knob with the tiling of choice c in place of the
 * 16 x 16 one (from malloc()). */
static char *tiled_alt_mapping(const Spec *sp, const TileChoice *c)
{
    const char *m = sp->knobs ? strstr(sp->knobs, "mapping=") : NULL;
    char *ref = m ? xstrndup(m + 8, strcspn(m + 8, ";")) : xstrdup("tiled-16x16-shared,one-element-per-thread");
    char tiled[96];
    if (c->reg == 1)
        snprintf(tiled, sizeof tiled, "tiled-%dx%d-shared", c->tile, c->tile);
    else
        snprintf(tiled, sizeof tiled, "register-tiled-%dx%d-shared,%dx%d-per-thread-strided", c->tile, c->tile,
                 c->reg, c->reg);
    char *one = c->reg == 1 ? xstrdup(ref) : xreplace_all(ref, ",one-element-per-thread", "");
    char *out = xreplace_all(one, "tiled-16x16-shared", tiled);
    free(one);
    free(ref);
    return out;
}

/* What the alternatives of a TILED program are built from: its template
 * arguments and the kernels kernel.cu has after the tiled one (NULL:
 * none), which each alternative keeps. */
typedef struct TiledProgram {
    const Tiled *t;
    const char *rest;
} TiledProgram;

/* SpecAlternatives of a TILED program (ctx its TiledProgram): one
 * alternative per TILE_CHOICES entry, refused with tile_check's reason
 * where the shape does not fit. */
static void tiled_alternatives(GenProgram *p, const Spec *sp, const char *dt, const void *ctx)
{
    const TiledProgram *tp = ctx;
    const Tiled *raw = tp->t;
    char *ta = spec_cuda_text(raw->ta, dt), *tb = spec_cuda_text(raw->tb, dt);
    const int a_bytes = cuda_type_bytes(ta), b_bytes = cuda_type_bytes(tb);
    if (!a_bytes || !b_bytes)
        gen_error(p, "gemm: unknown size of the shared tile types '%s', '%s'", ta, tb);
    for (size_t i = 0; i < sizeof TILE_CHOICES / sizeof *TILE_CHOICES && a_bytes && b_bytes; i++) {
        const TileChoice *c = &TILE_CHOICES[i];
        gen_alt_begin(p, c->name);
        TileShape shape = {c->tile, c->tile, c->tile_k, c->reg, c->reg, a_bytes, b_bytes, 0};
        char why[256], knob[32];
        if (tile_check(&shape, why, sizeof why)) {
            gen_refuse(p, "%s", why);
            gen_alt_end(p);
            continue;
        }
        char *src = tiled_alt_source(raw, c), *cuda = spec_cuda_text(src, dt), *mapping = tiled_alt_mapping(sp, c);
        gen_cuda(p, "%s", cuda);
        if (tp->rest) {
            char *rest = spec_cuda_text(tp->rest, dt);
            gen_cuda(p, "%s", rest);
            free(rest);
        }
        tiled_alt_launches(p, sp, raw, c);
        snprintf(knob, sizeof knob, "%d", c->tile);
        gen_knob(p, "tile", knob);
        snprintf(knob, sizeof knob, "%dx%d", c->reg, c->reg);
        gen_knob(p, "register_tile", knob);
        snprintf(knob, sizeof knob, "%d", c->tile_k);
        gen_knob(p, "tile_k", knob);
        snprintf(knob, sizeof knob, "%dx%d", c->tile / c->reg, c->tile / c->reg);
        gen_knob(p, "block", knob);
        gen_knob(p, "mapping", mapping);
        free(mapping);
        free(cuda);
        free(src);
        gen_alt_end(p);
    }
    free(ta);
    free(tb);
}

/* Emits sp (every dtype) with the TILED kernel of t as its pair, followed
 * by sp->cuda when set, and t's alternatives. */
static int emit_tiled(GenCtx *g, const Spec *sp, const Tiled *t)
{
    StrBuf b = STRBUF_INIT;
    sb_printf(&b, TILED_FMT, t->doc, t->a_at, t->b_at, t->entry, t->params, t->ta, t->tb, t->acc, t->k, t->k, t->k,
              t->store);
    if (sp->cuda)
        sb_append(&b, sp->cuda);
    Spec with_pair = *sp;
    with_pair.cuda = sb_str(&b);
    const TiledProgram tp = {t, sp->cuda};
    int rc = spec_emit_alt(g, &with_pair, tiled_alternatives, &tp);
    sb_release(&b);
    return rc;
}

/* op(A) and op(B) in CUDA, by [colmajor][transposed], with 64-bit offsets. */
static const char *const CU_A[2][2] = {
    {"a[(long long)(i) * k + (p)]", "a[(long long)(p) * m + (i)]"},
    {"a[(long long)(p) * m + (i)]", "a[(long long)(i) * k + (p)]"},
};
static const char *const CU_B[2][2] = {
    {"b[(long long)(p) * n + (j)]", "b[(long long)(j) * k + (p)]"},
    {"b[(long long)(j) * k + (p)]", "b[(long long)(p) * n + (j)]"},
};

static const char *const LARGE[] = {
    "m=4096,n=4096,k=4096", "m=8192,n=2048,k=4096", "m=2048,n=8192,k=2048", "m=1024,n=1024,k=32768",
};

/* Row- or column-major C = alpha*op(A)*op(B) + beta*C. */
static int emit_ops(GenCtx *g, int colmajor, int ta, int tb, const char *dtypes, int shape)
{
    static char name[64], args[256], cfg[256], src[2048];
    const char *ia, *ib, *ic, *sa, *sb, *sc, *da, *db;
    if (!colmajor) {
        ia = ta ? "a[p * m + i]" : "a[i * k + p]", sa = ta ? "k,m" : "m,k";
        ib = tb ? "b[j * k + p]" : "b[p * n + j]", sb = tb ? "n,k" : "k,n";
        ic = "c[i * n + j]", sc = "m,n";
        da = ta ? "op(A) = A^T with A stored k x m" : "op(A) = A stored m x k";
        db = tb ? "op(B) = B^T with B stored n x k" : "op(B) = B stored k x n";
    } else {
        ia = ta ? "a[i * k + p]" : "a[p * m + i]", sa = ta ? "m,k" : "k,m";
        ib = tb ? "b[p * n + j]" : "b[j * k + p]", sb = tb ? "k,n" : "n,k";
        ic = "c[j * m + i]", sc = "n,m";
        da = ta ? "op(A) = A^T with A a k x m matrix (leading dimension k)"
                : "op(A) = A, an m x k matrix (leading dimension m)";
        db = tb ? "op(B) = B^T with B an n x k matrix (leading dimension n)"
                : "op(B) = B, a k x n matrix (leading dimension k)";
    }
    snprintf(name, sizeof name, "%s-%c%c", colmajor ? "colmajor" : "rowmajor", "nt"[ta], "nt"[tb]);
    snprintf(args, sizeof args,
             "a:in:%s;b:in:%s;c:inout:%s;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;k:param", sa, sb,
             sc);
    snprintf(cfg, sizeof cfg, SMALL_EDGE "|large:%s", LARGE[shape % 4]);
    snprintf(src, sizeof src,
             "/* C = alpha * op(A) * op(B) + beta * C, %s:\n"
             " * %s,\n * %s; C is m x n. */\n"
             "void gemm(const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n, int k)\n{\n"
             "    for (int i = 0; i < m; i++) {\n"
             "        for (int j = 0; j < n; j++) {\n"
             "            double acc = 0.0;\n"
             "            for (int p = 0; p < k; p++)\n"
             "                acc += %s * %s;\n"
             "            %s = alpha * acc + beta * %s;\n"
             "        }\n    }\n}\n",
             colmajor ? "column-major storage (element (i, j)\n * of a matrix with r rows at [j * r + i])" : "all matrices row-major", da, db, ia,
             ib, ic, ic);
    static char store[128];
    const char *cc = colmajor ? "c[(long long)j * m + i]" : "c[(long long)i * n + j]";
    snprintf(store, sizeof store, "%s = alpha * acc + beta * %s", cc, cc);
    const Tiled t = {"C = alpha * op(A) * op(B) + beta * C", "gemm",
                     "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n, int k", "$T", "$T", "double",
                     "k", CU_A[colmajor][ta], CU_B[colmajor][tb], store};
    Spec sp = {dtypes, name, "gemm", "C = alpha*op(A)*op(B) + beta*C ($D)", args, NULL, cfg, GEMM_COST,
               1e-2, 1e-3, 0, 0, src, NULL, TILED_LAUNCH("gemm", "a,b,c,alpha,beta,m,n,k"), NULL, TILED_KNOBS};
    char desc[96];
    snprintf(desc, sizeof desc, "C = alpha*%s*%s + beta*C, %s ($D)", ta ? "A^T" : "A", tb ? "B^T" : "B",
             colmajor ? "column-major" : "row-major");
    sp.desc = desc;
    return emit_tiled(g, &sp, &t);
}

typedef struct Epi {
    const char *dtypes, *tag, *desc, *expr, *math; /* math: the epilogue's formula for the comment */
    int bias_row;
} Epi;

static const Epi EPIS[] = {
    {"f32 f64", "bias-relu", "ReLU", "v > 0.0 ? v : 0.0", "max(v, 0)", 0},
    {"f32", "rowbias-relu", "ReLU, one bias per row", "v > 0.0 ? v : 0.0", "max(v, 0)", 1},
    {"f32", "bias-gelu-tanh", "GELU (tanh approximation)",
     "0.5 * v * (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)))",
     "v/2 * (1 + tanh(sqrt(2/pi) * (v + 0.044715 v^3)))", 0},
    {"f32", "bias-sigmoid", "sigmoid", "1.0 / (1.0 + exp(-v))", "1 / (1 + exp(-v))", 0},
    {"f32", "bias-leaky-relu", "leaky ReLU (slope 0.01)", "v > 0.0 ? v : 0.01 * v", "v > 0 ? v : 0.01 v", 0},
    {"f32", "bias-relu6", "ReLU6", "fmin(fmax(v, 0.0), 6.0)", "min(max(v, 0), 6)", 0},
    {"f32", "bias-silu", "SiLU", "v / (1.0 + exp(-v))", "v * sigmoid(v)", 0},
    {"f32", "bias-elu", "ELU", "v > 0.0 ? v : expm1(v)", "v > 0 ? v : exp(v) - 1", 0},
    {"f64", "bias-gelu-erf", "exact GELU", "0.5 * v * (1.0 + erf(v * 0.7071067811865476))",
     "v/2 * (1 + erf(v / sqrt(2)))", 0},
    {"f64", "rowbias-tanh", "tanh, one bias per row", "tanh(v)", "tanh(v)", 1},
};

static int emit_epi(GenCtx *g, const Epi *e, int shape)
{
    static char name[64], desc[128], cfg[256], src[2048], args[128];
    int needs_math = strstr(e->expr, "(") != NULL;
    snprintf(name, sizeof name, "matmul-%s", e->tag);
    snprintf(desc, sizeof desc, "C = %s(A*B + bias) ($D)", e->desc);
    snprintf(args, sizeof args, "a:in:m,k;b:in:k,n;bias:in:%s;c:out:m,n;m:param;n:param;k:param",
             e->bias_row ? "m" : "n");
    snprintf(cfg, sizeof cfg, EDGE_NZ "|large:%s", LARGE[shape % 4]);
    snprintf(src, sizeof src,
             "%s/* A dense layer: C = f(A * B + bias) with f the %s,\n"
             " *     f(v) = %s.\n"
             " * A is m x k, B is k x n, C is m x n, all row-major; bias has one entry\n"
             " * per %s of C. */\n"
             "void matmul_epilogue(const $T *a, const $T *b, const $T *bias, $T *c, int m, int n, int k)\n{\n"
             "    for (int i = 0; i < m; i++) {\n"
             "        for (int j = 0; j < n; j++) {\n"
             "            double v = bias[%s];\n"
             "            for (int p = 0; p < k; p++)\n"
             "                v += a[i * k + p] * b[p * n + j];\n"
             "            c[i * n + j] = %s;\n"
             "        }\n    }\n}\n",
             needs_math ? "#include <math.h>\n\n" : "", e->desc, e->math, e->bias_row ? "row" : "column",
             e->bias_row ? "i" : "j", e->expr);
    static char store[256];
    snprintf(store, sizeof store, "const double v = bias[%s] + acc;\n        c[(long long)i * n + j] = %s",
             e->bias_row ? "i" : "j", e->expr);
    const Tiled t = {"C = f(A * B + bias)", "matmul_epilogue",
                     "const $T *a, const $T *b, const $T *bias, $T *c, int m, int n, int k", "$T", "$T", "double",
                     "k", CU_A[0][0], CU_B[0][0], store};
    Spec sp = {e->dtypes, name, "matmul_epilogue", desc, args, NULL, cfg, "2*m*n*k+4*m*n",
               "$S*(m*k+k*n+m*n+n)", 1e-2, 1e-3, 0, 0, src, NULL,
               TILED_LAUNCH("matmul_epilogue", "a,b,bias,c,m,n,k"), NULL, TILED_KNOBS};
    return emit_tiled(g, &sp, &t);
}

static const GemmSpec SPECS[] = {
    {{"f32 f64", "matmul", "matmul", "C = A*B, rectangular ($D)", "a:in:m,k;b:in:k,n;c:out:m,n;m:param;n:param;k:param",
     NULL, SMALL_EDGE "|large:m=8192,n=1024,k=4096", GEMM_COST, 1e-2, 1e-3, 0, 0,
     "/* C = A * B with A m x k, B k x n and C m x n, all row-major. */\n"
     "void matmul(const $T *a, const $T *b, $T *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = A * B", "matmul", "const $T *a, const $T *b, $T *c, int m, int n, int k", "$T", "$T", "double", "k",
           "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] = acc"}},
    {{"f32", "matmul-colmajor-bias-relu", "matmul_bias_relu", "C = relu(A*B + bias), column-major ($D)",
     "a:in:k,m;b:in:n,k;bias:in:m;c:out:n,m;m:param;n:param;k:param", NULL,
     EDGE_NZ "|large:m=4096,n=4096,k=4096", "2*m*n*k+2*m*n", "$S*(m*k+k*n+m*n+m)", 1e-2, 1e-3, 0, 0,
     "/* C = max(A * B + bias, 0) in column-major storage: A is m x k (element\n"
     " * (i, p) at a[p * m + i]), B is k x n (b[j * k + p]), C is m x n\n"
     " * (c[j * m + i]); bias[i] is added to every entry of row i. */\n"
     "void matmul_bias_relu(const float *a, const float *b, const float *bias, float *c, int m, int n, int k)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            double v = bias[i];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                v += a[p * m + i] * b[j * k + p];\n"
     "            c[j * m + i] = v > 0.0 ? v : 0.0;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_bias_relu|(n+15)/16,(m+15)/16|16,16||a,b,bias,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = max(A * B + bias, 0), column-major", "matmul_bias_relu",
           "const float *a, const float *b, const float *bias, float *c, int m, int n, int k", "float", "float",
           "double", "k", "a[(long long)(p) * m + (i)]", "b[(long long)(j) * k + (p)]",
           "const double v = bias[i] + acc;\n        c[(long long)j * m + i] = v > 0.0 ? v : 0.0"}},
    {{"f32", "residual-add", "matmul_residual", "D = A*B + C ($D)",
     "a:in:m,k;b:in:k,n;c:in:m,n;d:out:m,n;m:param;n:param;k:param", NULL,
     SMALL_EDGE "|large:m=2048,n=8192,k=2048", "2*m*n*k+m*n", "$S*(m*k+k*n+2*m*n)", 1e-2, 1e-3, 0, 0,
     "/* D = A * B + C: a product with a residual connection.  A is m x k, B is\n"
     " * k x n, C and D are m x n, all row-major. */\n"
     "void matmul_residual(const float *a, const float *b, const float *c, float *d, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = c[i * n + j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            d[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_residual|(n+15)/16,(m+15)/16|16,16||a,b,c,d,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"D = A * B + C", "matmul_residual",
           "const float *a, const float *b, const float *c, float *d, int m, int n, int k", "float", "float",
           "double", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "d[(long long)i * n + j] = c[(long long)i * n + j] + acc"}},
    {{"i8", "int8-nn", "gemm_i8", "C = A*B, int8 inputs, int32 results",
     "a:in:m,k;b:in:k,n;c:out:m,n:i32;m:param;n:param;k:param", "a:i:-128:128;b:i:-128:128", INT_CFG,
     "2*m*n*k", "m*k+k*n+4*m*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C = A * B for signed 8-bit A (m x k) and B (k x n), row-major, with\n"
     " * exact 32-bit accumulation (|C| <= k * 2^14). */\n"
     "void gemm_i8(const int8_t *a, const int8_t *b, int32_t *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = A * B, int8 in, exact int32 sums", "gemm_i8",
           "const signed char *a, const signed char *b, int *c, int m, int n, int k", "signed char", "signed char",
           "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] = acc"}},
    {{"i8", "int8-nt", "gemm_i8_nt", "C = A*B^T, int8 inputs, int32 results",
     "a:in:m,k;b:in:n,k;c:out:m,n:i32;m:param;n:param;k:param", "a:i:-128:128;b:i:-128:128", INT_CFG,
     "2*m*n*k", "m*k+k*n+4*m*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C = A * B^T for signed 8-bit A (m x k) and B (n x k), row-major: every\n"
     " * C[i][j] is the dot product of row i of A and row j of B, exact in 32 bits. */\n"
     "void gemm_i8_nt(const int8_t *a, const int8_t *b, int32_t *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            const int8_t *x = a + i * k, *y = b + j * k;\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += x[p] * y[p];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8_nt|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = A * B^T, int8 in, exact int32 sums", "gemm_i8_nt",
           "const signed char *a, const signed char *b, int *c, int m, int n, int k", "signed char", "signed char",
           "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(j) * k + (p)]", "c[(long long)i * n + j] = acc"}},
    {{"i8", "int8-tn-accumulate", "gemm_i8_tn", "C += A^T*B, int8 inputs, int32 accumulator",
     "a:in:k,m;b:in:k,n;c:inout:m,n:i32;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128;c:i:-100000:100000", SMALL_EDGE WIDE_EDGE "|large:m=4096,n=4096,k=4096",
     "2*m*n*k", "m*k+k*n+8*m*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C += A^T * B with signed 8-bit A (stored k x m) and B (k x n) and a\n"
     " * 32-bit accumulator C (m x n), all row-major. */\n"
     "void gemm_i8_tn(const int8_t *a, const int8_t *b, int32_t *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = c[i * n + j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[p * m + i] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8_tn|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C += A^T * B, int8 in, int32 accumulator", "gemm_i8_tn",
           "const signed char *a, const signed char *b, int *c, int m, int n, int k", "signed char", "signed char",
           "int", "k", "a[(long long)(p) * m + (i)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] += acc"}},
    {{"i8", "int8-bias-relu", "gemm_i8_bias_relu", "C = max(A*B + bias, 0), int8 inputs, int32 bias and results",
     "a:in:m,k;b:in:k,n;bias:in:n:i32;c:out:m,n:i32;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128;bias:i:-50000:50000", INT_CFG, "2*m*n*k+2*m*n", "m*k+k*n+4*n+4*m*n", 0, 0, 0,
     0,
     "#include <stdint.h>\n\n"
     "/* A quantized dense layer: C = max(A * B + bias, 0) with int8 A (m x k)\n"
     " * and B (k x n), row-major, int32 bias per column and int32 results. */\n"
     "void gemm_i8_bias_relu(const int8_t *a, const int8_t *b, const int32_t *bias, int32_t *c, int m, int n,\n"
     "                       int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = bias[j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc > 0 ? acc : 0;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8_bias_relu|(n+15)/16,(m+15)/16|16,16||a,b,bias,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = max(A * B + bias, 0), int8 in, int32 out", "gemm_i8_bias_relu",
           "const signed char *a, const signed char *b, const int *bias, int *c, int m, int n, int k", "signed char",
           "signed char", "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "const int v = bias[j] + acc;\n        c[(long long)i * n + j] = v > 0 ? v : 0"}},
    {{"u8", "u8-by-i8", "gemm_u8i8", "C = A*B, unsigned 8-bit A, signed 8-bit B, int32 results",
     "a:in:m,k;b:in:k,n:i8;c:out:m,n:i32;m:param;n:param;k:param", "a:i:0:256;b:i:-128:128", INT_CFG,
     "2*m*n*k", "m*k+k*n+4*m*n", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C = A * B for unsigned 8-bit activations A (m x k) and signed 8-bit\n"
     " * weights B (k x n), row-major, accumulated exactly in 32 bits. */\n"
     "void gemm_u8i8(const uint8_t *a, const int8_t *b, int32_t *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_u8i8|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = A * B, uint8 A, int8 B, exact int32 sums", "gemm_u8i8",
           "const unsigned char *a, const signed char *b, int *c, int m, int n, int k", "unsigned char",
           "signed char", "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "c[(long long)i * n + j] = acc"}},
    {{"i8", "int8-requantize", "gemm_i8_requant", "C = saturate(round(scale * A*B)), int8 in and out",
     "a:in:m,k;b:in:k,n;c:out:m,n;scale:scalar:0.0001:f32;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128",
     "small:m=96,n=80,k=64,scale=0.0001|edge:m=1,n=1,k=1,scale=0.007|edge-k1:m=17,n=13,k=1,scale=0.007|"
     "edge-prime:m=37,n=29,k=31,scale=0.00013|large:m=4096,n=4096,k=4096,scale=0.0000115",
     "2*m*n*k+2*m*n", "m*k+k*n+m*n", 1, 0, 0, 0,
     "#include <math.h>\n#include <stdint.h>\n\n"
     "/* A fully quantized product: the exact int32 sum of A * B (int8 A m x k,\n"
     " * B k x n, row-major) is rescaled, rounded to nearest and saturated to\n"
     " * int8. */\n"
     "void gemm_i8_requant(const int8_t *a, const int8_t *b, int8_t *c, float scale, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            float v = roundf((float)acc * scale);\n"
     "            c[i * n + j] = (int8_t)(v > 127.0f ? 127.0f : (v < -128.0f ? -128.0f : v));\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8_requant|(n+15)/16,(m+15)/16|16,16||a,b,c,scale,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = saturate(round(scale * A * B)), int8 in and out", "gemm_i8_requant",
           "const signed char *a, const signed char *b, signed char *c, float scale, int m, int n, int k",
           "signed char", "signed char", "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "const float v = roundf((float)acc * scale);\n"
           "        c[(long long)i * n + j] = (signed char)(v > 127.0f ? 127.0f : (v < -128.0f ? -128.0f : v))"}},
    {{"i8", "int8-dequantize", "gemm_i8_dequant", "C = sa[i]*sb[j]*(A*B), int8 inputs, f32 results",
     "a:in:m,k;b:in:k,n;sa:in:m:f32;sb:in:n:f32;c:out:m,n:f32;m:param;n:param;k:param",
     "a:i:-128:128;b:i:-128:128;sa:u:0.001:0.01;sb:u:0.001:0.01", INT_CFG, "2*m*n*k+2*m*n",
     "m*k+k*n+4*(m+n)+4*m*n", 1e-5, 1e-5, 0, 0,
     "#include <stdint.h>\n\n"
     "/* Dequantizing int8 product: C[i][j] = sa[i] * sb[j] * sum_p A[i][p] * B[p][j]\n"
     " * with per-row scales sa of A and per-column scales sb of B; the integer\n"
     " * sum is exact. */\n"
     "void gemm_i8_dequant(const int8_t *a, const int8_t *b, const float *sa, const float *sb, float *c, int m,\n"
     "                     int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = 0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = (double)sa[i] * sb[j] * acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i8_dequant|(n+15)/16,(m+15)/16|16,16||a,b,sa,sb,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = sa[i] * sb[j] * (A * B), int8 in, float out", "gemm_i8_dequant",
           "const signed char *a, const signed char *b, const float *sa, const float *sb, float *c, int m, "
           "int n, int k",
           "signed char", "signed char", "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "c[(long long)i * n + j] = (double)sa[i] * sb[j] * acc"}},
    {{"i32", "int32", "gemm_i32", "C = A*B + C for int32 matrices",
     "a:in:m,k;b:in:k,n;c:inout:m,n;m:param;n:param;k:param", "a:i:-100:100;b:i:-100:100;c:i:-1000:1000",
     SMALL_EDGE WIDE_EDGE "|large:m=4096,n=2048,k=4096", "2*m*n*k", "4*(m*k+k*n+2*m*n)", 0, 0, 0, 0,
     "#include <stdint.h>\n\n"
     "/* C += A * B for 32-bit integer matrices (A m x k, B k x n, row-major);\n"
     " * entries are small enough that no sum overflows. */\n"
     "void gemm_i32(const int32_t *a, const int32_t *b, int32_t *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            int32_t acc = c[i * n + j];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_i32|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C += A * B, int32", "gemm_i32", "const int *a, const int *b, int *c, int m, int n, int k", "int", "int",
           "int", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] += acc"}},
    {{"f32 f64", "rowmajor-ld", "gemm_ld", "C = alpha*A*B + beta*C with leading dimensions ($D)",
     "a:in:m,lda;b:in:k,ldb;c:inout:m,ldc;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param;k:param;"
     "lda:param;ldb:param;ldc:param",
     NULL,
     "small:m=96,n=80,k=64,lda=72,ldb=88,ldc=96|edge:m=1,n=1,k=1,lda=1,ldb=1,ldc=1|"
     "edge-prime:m=37,n=29,k=31,lda=33,ldb=32,ldc=41|large:m=4000,n=4000,k=4000,lda=4096,ldb=4096,ldc=4096",
     "2*m*n*k", "$S*(m*k+k*n+2*m*n)", 1e-2, 1e-3, 0, 0,
     "/* C = alpha * A * B + beta * C for row-major matrices inside larger arrays:\n"
     " * A[i][p] is a[i * lda + p], B[p][j] is b[p * ldb + j], C[i][j] is\n"
     " * c[i * ldc + j] (A m x k, B k x n, C m x n).  Padding is left untouched. */\n"
     "void gemm_ld(const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n, int k, int lda, int ldb,\n"
     "             int ldc)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * lda + p] * b[p * ldb + j];\n"
     "            c[i * ldc + j] = alpha * acc + beta * c[i * ldc + j];\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_ld|(n+15)/16,(m+15)/16|16,16||a,b,c,alpha,beta,m,n,k,lda,ldb,ldc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = alpha * A * B + beta * C, leading dimensions", "gemm_ld",
           "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n, int k, int lda, int ldb, int ldc", "$T",
           "$T", "double", "k", "a[(long long)(i) * lda + (p)]", "b[(long long)(p) * ldb + (j)]",
           "c[(long long)i * ldc + j] = alpha * acc + beta * c[(long long)i * ldc + j]"}},
    {{"f32", "colmajor-ld-tn", "gemm_tn_ld", "C = A^T*B + C, column-major with leading dimensions ($D)",
     "a:in:m,lda;b:in:n,ldb;c:inout:n,ldc;m:param;n:param;k:param;lda:param;ldb:param;ldc:param", NULL,
     "small:m=96,n=80,k=64,lda=72,ldb=64,ldc=100|edge:m=1,n=1,k=1,lda=1,ldb=1,ldc=1|"
     "edge-prime:m=37,n=29,k=31,lda=31,ldb=40,ldc=37|"
     /* WIDE_EDGE column-major: a column of C (ldc) over the guard */
     "edge-wide:m=1201,n=3,k=5,lda=7,ldb=6,ldc=1203|large:m=4096,n=4096,k=4000,lda=4096,ldb=4096,ldc=4104",
     "2*m*n*k", "$S*(m*k+k*n+2*m*n)", 1e-2, 1e-3, 0, 0,
     "/* C += A^T * B in column-major storage with leading dimensions: A is a\n"
     " * k x m matrix with element (p, i) at a[i * lda + p] (lda >= k), B is k x n\n"
     " * with (p, j) at b[j * ldb + p], C is m x n with (i, j) at c[j * ldc + i]. */\n"
     "void gemm_tn_ld(const float *a, const float *b, float *c, int m, int n, int k, int lda, int ldb, int ldc)\n{\n"
     "    for (int j = 0; j < n; j++) {\n"
     "        for (int i = 0; i < m; i++) {\n"
     "            double acc = c[j * ldc + i];\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * lda + p] * b[j * ldb + p];\n"
     "            c[j * ldc + i] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "gemm_tn_ld|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k,lda,ldb,ldc", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C += A^T * B, column-major, leading dimensions", "gemm_tn_ld",
           "const float *a, const float *b, float *c, int m, int n, int k, int lda, int ldb, int ldc", "float",
           "float", "double", "k", "a[(long long)(i) * lda + (p)]", "b[(long long)(j) * ldb + (p)]",
           "c[(long long)j * ldc + i] = c[(long long)j * ldc + i] + acc"}},
    {{"f32 f64", "complex", "zgemm", "complex C = A*B + C, interleaved (re, im) ($D)",
     "a:in:m,k,2;b:in:k,n,2;c:inout:m,n,2;m:param;n:param;k:param", NULL,
     SMALL_EDGE WIDE_EDGE "|large:m=2048,n=2048,k=4096", "8*m*n*k", "$S*2*(m*k+k*n+2*m*n)", 1e-2, 1e-3, 0, 0,
     "/* Complex C = A * B + C with every number stored as (re, im); A is m x k,\n"
     " * B is k x n, C is m x n, row-major. */\n"
     "void zgemm(const $T *a, const $T *b, $T *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double re = c[2 * (i * n + j)], im = c[2 * (i * n + j) + 1];\n"
     "            for (int p = 0; p < k; p++) {\n"
     "                double ar = a[2 * (i * k + p)], ai = a[2 * (i * k + p) + 1];\n"
     "                double br = b[2 * (p * n + j)], bi = b[2 * (p * n + j) + 1];\n"
     "                re += ar * br - ai * bi;\n"
     "                im += ar * bi + ai * br;\n"
     "            }\n"
     "            c[2 * (i * n + j)] = re;\n"
     "            c[2 * (i * n + j) + 1] = im;\n"
     "        }\n    }\n}\n",
     "/* Complex C = A * B + C: one thread per element of C in 16 x 16 tiles,\n"
     " * the real and imaginary parts of the tiles of A and B staged through\n"
     " * shared memory. */\n"
     "#define TILE 16\n"
     "\n"
     "extern \"C\" __global__ void zgemm(const $T *a, const $T *b, $T *c, int m, int n, int k)\n"
     "{\n"
     "    __shared__ $T ar[TILE][TILE], ai[TILE][TILE], br[TILE][TILE], bi[TILE][TILE];\n"
     "    const int ty = threadIdx.y, tx = threadIdx.x;\n"
     "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;\n"
     "    double re = 0.0, im = 0.0;\n"
     "    for (int p0 = 0; p0 < k; p0 += TILE) {\n"
     "        const bool a_in = i < m && p0 + tx < k, b_in = p0 + ty < k && j < n;\n"
     "        const long long ao = 2 * ((long long)i * k + p0 + tx), bo = 2 * ((long long)(p0 + ty) * n + j);\n"
     "        ar[ty][tx] = a_in ? a[ao] : 0;\n"
     "        ai[ty][tx] = a_in ? a[ao + 1] : 0;\n"
     "        br[ty][tx] = b_in ? b[bo] : 0;\n"
     "        bi[ty][tx] = b_in ? b[bo + 1] : 0;\n"
     "        __syncthreads();\n"
     "        for (int p = 0; p < TILE; p++) {\n"
     "            re += (double)ar[ty][p] * br[p][tx] - (double)ai[ty][p] * bi[p][tx];\n"
     "            im += (double)ar[ty][p] * bi[p][tx] + (double)ai[ty][p] * br[p][tx];\n"
     "        }\n"
     "        __syncthreads();\n"
     "    }\n"
     "    if (i < m && j < n) {\n"
     "        const long long o = 2 * ((long long)i * n + j);\n"
     "        c[o] = c[o] + re;\n"
     "        c[o + 1] = c[o + 1] + im;\n"
     "    }\n"
     "}\n",
     "zgemm|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"}, {0}},
    {{"f32 f64", "symm-lower", "symm", "C = alpha*A*B + beta*C with A symmetric, lower triangle stored ($D)",
     "a:in:m,m;b:in:m,n;c:inout:m,n;alpha:scalar:~0.5~2;beta:scalar:~-1~1;m:param;n:param", NULL,
     "small:m=96,n=80|edge:m=1,n=1|edge-prime:m=37,n=29|large:m=4096,n=4096", "2*m*m*n",
     "$S*(m*(m+1)/2+2*m*n)", 1e-2, 1e-3, 0, 0,
     "/* C = alpha * A * B + beta * C where A is an m x m symmetric matrix of which\n"
     " * only the lower triangle (row-major) is read; B and C are m x n. */\n"
     "void symm(const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < m; p++) {\n"
     "                $T aip = p <= i ? a[i * m + p] : a[p * m + i];\n"
     "                acc += aip * b[p * n + j];\n"
     "            }\n"
     "            c[i * n + j] = alpha * acc + beta * c[i * n + j];\n"
     "        }\n    }\n}\n",
     NULL,
     "symm|(n+15)/16,(m+15)/16|16,16||a,b,c,alpha,beta,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = alpha * A * B + beta * C, A symmetric from its lower triangle", "symm",
           "const $T *a, const $T *b, $T *c, $T alpha, $T beta, int m, int n", "$T", "$T", "double", "m",
           "(p) <= (i) ? a[(long long)(i) * m + (p)] : a[(long long)(p) * m + (i)]", "b[(long long)(p) * n + (j)]",
           "c[(long long)i * n + j] = alpha * acc + beta * c[(long long)i * n + j]"}},
    {{"f32", "trmm-lower", "trmm", "C = alpha*L*B with L the lower triangle of A ($D)",
     "a:in:m,m;b:in:m,n;c:out:m,n;alpha:scalar:~0.5~2;m:param;n:param", NULL,
     "small:m=96,n=80|edge:m=1,n=1|edge-prime:m=37,n=29|large:m=4096,n=4096", "m*m*n", "$S*(m*(m+1)/2+2*m*n)",
     1e-2, 1e-3, 0, 0,
     "/* C = alpha * L * B where L is the lower triangle (diagonal included) of the\n"
     " * m x m row-major matrix a; B and C are m x n. */\n"
     "void trmm(const float *a, const float *b, float *c, float alpha, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p <= i; p++)\n"
     "                acc += a[i * m + p] * b[p * n + j];\n"
     "            c[i * n + j] = alpha * acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "trmm|(n+15)/16,(m+15)/16|16,16||a,b,c,alpha,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = alpha * L * B, L the lower triangle of A", "trmm",
           "const float *a, const float *b, float *c, float alpha, int m, int n", "float", "float", "double", "m",
           "(p) <= (i) ? a[(long long)(i) * m + (p)] : 0.0f", "b[(long long)(p) * n + (j)]",
           "c[(long long)i * n + j] = alpha * acc"}},
    {{"f32", "trmm-upper-right", "trmm_right", "C = B*U with U the upper triangle of A ($D)",
     "b:in:m,n;a:in:n,n;c:out:m,n;m:param;n:param", NULL,
     "small:m=96,n=80|edge:m=1,n=1|edge-prime:m=37,n=29|large:m=4096,n=4096", "m*n*n", "$S*(n*(n+1)/2+2*m*n)",
     1e-2, 1e-3, 0, 0,
     "/* C = B * U where U is the upper triangle (diagonal included) of the n x n\n"
     " * row-major matrix a; B and C are m x n, row-major. */\n"
     "void trmm_right(const float *b, const float *a, float *c, int m, int n)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p <= j; p++)\n"
     "                acc += b[i * n + p] * a[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "trmm_right|(n+15)/16,(m+15)/16|16,16||b,a,c,m,n", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = B * U, U the upper triangle of A", "trmm_right",
           "const float *b, const float *a, float *c, int m, int n", "float", "float", "double", "n",
           "b[(long long)(i) * n + (p)]", "(p) <= (j) ? a[(long long)(p) * n + (j)] : 0.0f",
           "c[(long long)i * n + j] = acc"}},
    {{"f32", "diag-scaled", "matmul_diag", "C = A*diag(d)*B ($D)",
     "a:in:m,k;d:in:k;b:in:k,n;c:out:m,n;m:param;n:param;k:param", NULL, SMALL_EDGE "|large:m=4096,n=4096,k=4096",
     "3*m*n*k", "$S*(m*k+k+k*n+m*n)", 1e-2, 1e-3, 0, 0,
     "/* C = A * diag(d) * B: a product with a diagonal matrix in the middle (A is\n"
     " * m x k, B is k x n, C is m x n, all row-major). */\n"
     "void matmul_diag(const float *a, const float *d, const float *b, float *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * d[p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_diag|(n+15)/16,(m+15)/16|16,16||a,d,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = A * diag(d) * B", "matmul_diag",
           "const float *a, const float *d, const float *b, float *c, int m, int n, int k", "float", "float",
           "double", "k", "a[(long long)(i) * k + (p)] * d[p]", "b[(long long)(p) * n + (j)]",
           "c[(long long)i * n + j] = acc"}},
    {{"f32", "two-products", "matmul2_sum", "C = A*B + D*E ($D)",
     "a:in:m,k;b:in:k,n;d:in:m,k;e:in:k,n;c:out:m,n;m:param;n:param;k:param", NULL,
     SMALL_EDGE "|large:m=4096,n=4096,k=2048", "4*m*n*k", "$S*(2*m*k+2*k*n+m*n)", 1e-2, 1e-3, 0, 0,
     "/* C = A * B + D * E: two products of the same shapes summed in one output\n"
     " * (A, D m x k; B, E k x n; C m x n; row-major). */\n"
     "void matmul2_sum(const float *a, const float *b, const float *d, const float *e, float *c, int m, int n,\n"
     "                 int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j] + d[i * k + p] * e[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     "/* C = A * B + D * E: one thread per element of C in 16 x 16 tiles, the\n"
     " * tiles of all four matrices staged through shared memory. */\n"
     "#define TILE 16\n"
     "\n"
     "extern \"C\" __global__ void matmul2_sum(const float *a, const float *b, const float *d,\n"
     "                                       const float *e, float *c, int m, int n, int k)\n"
     "{\n"
     "    __shared__ float as[TILE][TILE], bs[TILE][TILE], ds[TILE][TILE], es[TILE][TILE];\n"
     "    const int ty = threadIdx.y, tx = threadIdx.x;\n"
     "    const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;\n"
     "    double acc = 0.0;\n"
     "    for (int p0 = 0; p0 < k; p0 += TILE) {\n"
     "        const bool a_in = i < m && p0 + tx < k, b_in = p0 + ty < k && j < n;\n"
     "        const long long ao = (long long)i * k + p0 + tx, bo = (long long)(p0 + ty) * n + j;\n"
     "        as[ty][tx] = a_in ? a[ao] : 0.0f;\n"
     "        ds[ty][tx] = a_in ? d[ao] : 0.0f;\n"
     "        bs[ty][tx] = b_in ? b[bo] : 0.0f;\n"
     "        es[ty][tx] = b_in ? e[bo] : 0.0f;\n"
     "        __syncthreads();\n"
     "        for (int p = 0; p < TILE; p++)\n"
     "            acc += as[ty][p] * bs[p][tx] + ds[ty][p] * es[p][tx];\n"
     "        __syncthreads();\n"
     "    }\n"
     "    if (i < m && j < n)\n"
     "        c[(long long)i * n + j] = acc;\n"
     "}\n",
     "matmul2_sum|(n+15)/16,(m+15)/16|16,16||a,b,d,e,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"}, {0}},
    {{"f32 f64", "chain3", "matmul_chain", "E = (A*B)*C through a temporary ($D)",
     "a:in:m,k;b:in:k,n;c:in:n,q;tmp:out:m,n;e:out:m,q;m:param;n:param;k:param;q:param", NULL,
     "small:m=64,n=48,k=40,q=56|edge:m=1,n=1,k=1,q=1|edge-prime:m=37,n=29,k=31,q=23|"
     "large:m=4096,n=2048,k=4096,q=4096",
     "2*m*n*k+2*m*n*q", "$S*(m*k+k*n+n*q+m*n+m*q)", 5e-2, 1e-3, 0, 0,
     "/* E = (A * B) * C, evaluated left to right: tmp = A * B, then E = tmp * C.\n"
     " * A is m x k, B is k x n, C is n x q; all row-major. */\n"
     "void matmul_chain(const $T *a, const $T *b, const $T *c, $T *tmp, $T *e, int m, int n, int k, int q)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            tmp[i * n + j] = acc;\n"
     "        }\n    }\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < q; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < n; p++)\n"
     "                acc += tmp[i * n + p] * c[p * q + j];\n"
     "            e[i * q + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul|(n+15)/16,(m+15)/16|16,16||a,b,tmp,m,n,k;matmul|(q+15)/16,(m+15)/16|16,16||tmp,c,e,m,q,n", NULL,
     "block=16x16;mapping=two-launches,tiled-16x16-shared,one-element-per-thread"},
     {"C = A * B, launched twice: tmp = A * B, then E = tmp * C", "matmul",
           "const $T *a, const $T *b, $T *c, int m, int n, int k", "$T", "$T", "double", "k",
           "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] = acc"}},
    {{"f32", "mixed-f64-out", "matmul_mixed", "C (f64) = A*B for f32 A and B",
     "a:in:m,k;b:in:k,n;c:out:m,n:f64;m:param;n:param;k:param", NULL, SMALL_EDGE "|large:m=4096,n=4096,k=4096",
     "2*m*n*k", "4*(m*k+k*n)+8*m*n", 1e-8, 1e-7, 0, 0,
     "/* C = A * B with single-precision inputs and a double-precision result:\n"
     " * every product and sum is formed in double.  Row-major, A m x k, B k x n. */\n"
     "void matmul_mixed(const float *a, const float *b, double *c, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += (double)a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_mixed|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C (double) = A * B (float), tiles kept in double", "matmul_mixed",
           "const float *a, const float *b, double *c, int m, int n, int k", "double", "double", "double", "k",
           "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] = acc"}},
    {{"f32", "transposed-output", "matmul_ct", "C^T = A*B: the product written transposed ($D)",
     "a:in:m,k;b:in:k,n;ct:out:n,m;m:param;n:param;k:param", NULL, SMALL_EDGE "|large:m=8192,n=2048,k=4096",
     GEMM_COST, 1e-2, 1e-3, 0, 0,
     "/* Computes A * B (A m x k, B k x n, row-major) and stores it transposed:\n"
     " * ct is n x m with ct[j][i] = (A * B)[i][j]. */\n"
     "void matmul_ct(const float *a, const float *b, float *ct, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            ct[j * m + i] = acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_ct|(n+15)/16,(m+15)/16|16,16||a,b,ct,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C^T = A * B", "matmul_ct", "const float *a, const float *b, float *ct, int m, int n, int k", "float",
           "float", "double", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]",
           "ct[(long long)j * m + i] = acc"}},
    {{"f32", "rowmax", "matmul_rowmax", "C = A*B and rowmax[i] = max_j C[i][j] ($D)",
     "a:in:m,k;b:in:k,n;c:out:m,n;rowmax:out:m;m:param;n:param;k:param", NULL,
     SMALL_EDGE "|large:m=4096,n=4096,k=4096", "2*m*n*k+m*n", "$S*(m*k+k*n+m*n+m)", 1e-2, 1e-3, 0, 0,
     "#include <float.h>\n\n"
     "/* C = A * B (row-major, A m x k, B k x n) together with the maximum of each\n"
     " * row of C, as the first step of a row-wise softmax would need. */\n"
     "void matmul_rowmax(const float *a, const float *b, float *c, float *rowmax, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        float best = -FLT_MAX;\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[p * n + j];\n"
     "            c[i * n + j] = acc;\n"
     "            if (c[i * n + j] > best)\n"
     "                best = c[i * n + j];\n"
     "        }\n"
     "        rowmax[i] = best;\n"
     "    }\n}\n",
     "\n"
     "/* Second launch: the maximum of each row of C (as stored), one thread per\n"
     " * row; -3.402823466e+38f is -FLT_MAX. */\n"
     "extern \"C\" __global__ void row_max(const float *c, float *rowmax, int m, int n)\n"
     "{\n"
     "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i >= m)\n"
     "        return;\n"
     "    const float *row = c + (long long)i * n;\n"
     "    float best = -3.402823466e+38f;\n"
     "    for (int j = 0; j < n; j++)\n"
     "        if (row[j] > best)\n"
     "            best = row[j];\n"
     "    rowmax[i] = best;\n"
     "}\n",
     "matmul_rowmax|(n+15)/16,(m+15)/16|16,16||a,b,c,m,n,k;row_max|(m+255)/256|256||c,rowmax,m,n", NULL,
     "block=16x16;mapping=two-launches,tiled-16x16-shared+one-row-per-thread"},
     {"First launch, C = A * B", "matmul_rowmax",
           "const float *a, const float *b, float *c, int m, int n, int k", "float", "float", "double", "k",
           "a[(long long)(i) * k + (p)]", "b[(long long)(p) * n + (j)]", "c[(long long)i * n + j] = acc"}},
    {{"f64", "scaled-nt", "matmul_nt_scaled", "C = alpha*A*B^T ($D)",
     "a:in:m,k;b:in:n,k;c:out:m,n;alpha:scalar:~0.1~1;m:param;n:param;k:param", NULL,
     SMALL_EDGE "|large:m=4096,n=4096,k=1024", "2*m*n*k", "$S*(m*k+k*n+m*n)", 0, 0, 0, 0,
     "/* C = alpha * A * B^T: scaled dot products of every row of A (m x k) with\n"
     " * every row of B (n x k), row-major, as in attention scores. */\n"
     "void matmul_nt_scaled(const double *a, const double *b, double *c, double alpha, int m, int n, int k)\n{\n"
     "    for (int i = 0; i < m; i++) {\n"
     "        for (int j = 0; j < n; j++) {\n"
     "            double acc = 0.0;\n"
     "            for (int p = 0; p < k; p++)\n"
     "                acc += a[i * k + p] * b[j * k + p];\n"
     "            c[i * n + j] = alpha * acc;\n"
     "        }\n    }\n}\n",
     NULL,
     "matmul_nt_scaled|(n+15)/16,(m+15)/16|16,16||a,b,c,alpha,m,n,k", NULL,
     "block=16x16;mapping=tiled-16x16-shared,one-element-per-thread"},
     {"C = alpha * A * B^T", "matmul_nt_scaled",
           "const double *a, const double *b, double *c, double alpha, int m, int n, int k", "double", "double",
           "double", "k", "a[(long long)(i) * k + (p)]", "b[(long long)(j) * k + (p)]",
           "c[(long long)i * n + j] = alpha * acc"}},
};

static int generate(GenCtx *g)
{
    int shape = 0;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            if (emit_ops(g, 0, ta, tb, "f32 f64", shape++))
                return -1;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            if (emit_ops(g, 1, ta, tb, ta == tb ? "f32 f64" : "f32", shape++))
                return -1;
    for (size_t i = 0; i < sizeof EPIS / sizeof *EPIS; i++)
        if (emit_epi(g, &EPIS[i], (int)i))
            return -1;
    for (size_t i = 0; i < sizeof SPECS / sizeof *SPECS; i++) {
        const GemmSpec *gs = &SPECS[i];
        if (gs->t.entry ? emit_tiled(g, &gs->sp, &gs->t) : spec_emit_alt(g, &gs->sp, NULL, NULL))
            return -1;
    }
    return 0;
}

const Family family_gemm = {"gemm", "linalg", 54, generate};
