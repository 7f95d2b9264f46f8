/* transpose — data movement by index permutation: out-of-place 2D
 * transposes over many element types, transposes with leading dimensions
 * (padded rows), batched transposes, 3D axis permutations, NCHW <-> NHWC,
 * in-place square transposes, rotations and the anti-transpose, and
 * transposes fused with element-wise work (scaling, conjugation of complex
 * data, adding a second matrix, symmetric/antisymmetric parts, type
 * conversion, bias + ReLU, column gathers, column sums, B = beta*B +
 * alpha*A^T).  Large configs move several hundred MB per buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_tile.h"

static const char *ctype(const char *dt)
{
    static const char *const map[][2] = {
        {"f32", "float"},    {"f64", "double"},   {"i32", "int32_t"}, {"u8", "uint8_t"},
        {"i64", "int64_t"},  {"i16", "int16_t"},  {"u16", "uint16_t"}, {"i8", "int8_t"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return "?";
}

static int esize(const char *dt)
{
    if (strcmp(dt, "f64") == 0 || strcmp(dt, "i64") == 0)
        return 8;
    if (strcmp(dt, "u8") == 0 || strcmp(dt, "i8") == 0)
        return 1;
    if (strcmp(dt, "i16") == 0 || strcmp(dt, "u16") == 0)
        return 2;
    return 4;
}

static int is_float(const char *dt)
{
    return dt[0] == 'f';
}

/* The include line a program over dt needs (the fixed-width integer types). */
static const char *inc(const char *dt)
{
    return is_float(dt) ? "" : "#include <stdint.h>\n\n";
}

/* Bytes of a copy of count elements, read once and written once. */
static void cost_move(GenProgram *p, const char *count, int bytes_per_elem)
{
    char b[128];
    snprintf(b, sizeof b, "%d*%s", 2 * bytes_per_elem, count);
    gen_cost(p, "0", b);
}

/* Large 2D shape (rows, cols) giving about 2^29 bytes per buffer. */
static void large2d(const char *dt, int *n, int *m)
{
    switch (esize(dt)) {
    case 1: *n = 16384, *m = 32768; break;
    case 2: *n = 16384, *m = 16384; break;
    case 4: *n = 8192, *m = 16384; break;
    default: *n = 8192, *m = 8192; break;
    }
}

static void configs2d(GenProgram *p, const char *dt)
{
    int n, m;
    char buf[64];
    large2d(dt, &n, &m);
    gen_config(p, "small", "n=200,m=300");
    gen_config(p, "edge", "n=1,m=7");
    gen_config(p, "edge-col", "n=61,m=1");
    gen_config(p, "edge-prime", "n=37,m=131");
    snprintf(buf, sizeof buf, "n=%d,m=%d", n, m);
    gen_config(p, "large", buf);
}

static void configs_square(GenProgram *p, const char *dt)
{
    gen_config(p, "small", "n=200");
    gen_config(p, "edge", "n=1");
    gen_config(p, "edge-prime", "n=131");
    gen_config(p, "large", esize(dt) == 8 ? "n=8192" : "n=12288");
}

/* ---- the pair ---- */

/* The CUDA spelling of dt (kernel.cu includes no <stdint.h>). */
static const char *cutype(const char *dt)
{
    static const char *const map[][2] = {
        {"f32", "float"},        {"f64", "double"}, {"i32", "int"},
        {"u8", "unsigned char"}, {"i64", "long long"}, {"i16", "short"},
        {"u16", "unsigned short"}, {"i8", "signed char"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return "?";
}

/* A transpose through shared memory: each 32x8 block moves one 32x32 tile,
 * reading the source tile's rows with threadIdx.x along the contiguous j
 * and writing the transposed tile with threadIdx.x along i, so both sides
 * are coalesced (the +1 column keeps the column reads free of bank
 * conflicts).  Source element (i, j) exists for i < rows, j < cols; `load`
 * is its value (of type tile_ty) and `store` the statement writing v to the
 * output's (j, i); `prologue`: lines before the tile (batch offsets). */
typedef struct Tiled {
    const char *name, *params, *tile_ty, *rows, *cols, *load, *store, *prologue;
} Tiled;

static const char *const TILE_ENUM = "enum { TILE = 32 };\n\n";

/* Appends `extern "C" __global__ void name(params)` and a newline, the
 * comma-separated parameters wrapped at 100 columns and aligned after the
 * parenthesis. */
static void put_kernel_head(StrBuf *k, const char *name, const char *params)
{
    int indent = (int)strlen(name) + 28, col = indent;
    sb_printf(k, "extern \"C\" __global__ void %s(", name);
    for (const char *q = params; *q;) {
        const char *e = strstr(q, ", ");
        int len = e ? (int)(e - q) : (int)strlen(q);
        if (q != params) {
            if (col + 2 + len + 1 > 100) {
                sb_printf(k, ",\n%*s", indent, "");
                col = indent;
            } else {
                sb_append(k, ", ");
                col += 2;
            }
        }
        sb_append_n(k, q, (size_t)len);
        col += len;
        q = e ? e + 2 : q + len;
    }
    sb_append(k, ")\n");
}

static void emit_tiled(StrBuf *k, const Tiled *t)
{
    sb_append(k, "/* One 32x32 tile per block through shared memory: coalesced reads and writes. */\n");
    put_kernel_head(k, t->name, t->params);
    sb_printf(k, "{\n    __shared__ %s tile[TILE][TILE + 1];\n%s", t->tile_ty, t->prologue ? t->prologue : "");
    sb_printf(k, "    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int i = i0 + r, j = j0 + threadIdx.x;\n"
                 "        if (i < %s && j < %s)\n"
                 "            tile[r][threadIdx.x] = %s;\n"
                 "    }\n"
                 "    __syncthreads();\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int i = i0 + threadIdx.x, j = j0 + r;\n"
                 "        if (i < %s && j < %s) {\n"
                 "            const %s v = tile[threadIdx.x][r];\n"
                 "            %s\n"
                 "        }\n"
                 "    }\n}\n",
              t->rows, t->cols, t->load, t->rows, t->cols, t->tile_ty, t->store);
}

/* Bytes of one tile element, from its CUDA spelling (8 where unknown: the
 * refusal below then errs on the safe side). */
static int tile_elem_bytes(const char *ty)
{
    static const struct {
        const char *ty;
        int bytes;
    } sizes[] = {{"float", 4}, {"double", 8}, {"int", 4}, {"unsigned char", 1}, {"signed char", 1},
                 {"short", 2}, {"unsigned short", 2}, {"long long", 8}, {"unsigned int", 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].ty, ty) == 0)
            return sizes[i].bytes;
    return 8;
}

/* The tiled transpose at another point of the knob space: a tile x tile
 * tile moved by a tile x rows block (tile / rows elements per thread).
 * The kernel text is the reference's with TILE set; the block shape is
 * the launch's.  Refused where the block or the tile does not fit. */
static void alt_tiled(GenProgram *p, const Tiled *t, const char *args, const char *batch, int tile, int rows)
{
    char name[32], grid[128], block[32], knob[32], ept[16];
    snprintf(name, sizeof name, "tile-%d-rows-%d", tile, rows);
    gen_alt_begin(p, name);
    int smem = tile * (tile + 1) * tile_elem_bytes(t->tile_ty);
    if (tile * rows > TILE_MAX_THREADS) {
        gen_refuse(p, "a %dx%d block is %d threads, over the limit of 1024", tile, rows, tile * rows);
    } else if (smem > TILE_MAX_STATIC_SMEM) {
        gen_refuse(p, "a %dx%d tile of %s with its padding column is %d bytes of static shared memory, over %d",
                   tile, tile, t->tile_ty, smem, TILE_MAX_STATIC_SMEM);
    } else {
        StrBuf *k = gen_cuda_src(p);
        sb_printf(k, "enum { TILE = %d };\n\n", tile);
        StrBuf body = STRBUF_INIT;
        emit_tiled(&body, t);
        char what[32];
        snprintf(what, sizeof what, "One %dx%d tile", tile, tile);
        char *sized = xreplace_all(sb_str(&body), "One 32x32 tile", what);
        sb_append(k, sized);
        free(sized);
        sb_release(&body);
        snprintf(grid, sizeof grid, "(%s+%d)/%d,(%s+%d)/%d%s%s", t->cols, tile - 1, tile, t->rows, tile - 1, tile,
                 batch ? "," : "", batch ? batch : "");
        snprintf(block, sizeof block, "%d,%d", tile, rows);
        gen_launch(p, t->name, grid, block, NULL, args);
        snprintf(knob, sizeof knob, "%dx%d", tile, rows);
        gen_knob(p, "block", knob);
        snprintf(knob, sizeof knob, "tiled-%dx%d-shared", tile, tile);
        gen_knob(p, "mapping", batch ? "tiled-shared, one matrix per blockIdx.z" : knob);
        snprintf(knob, sizeof knob, "%d", tile);
        gen_knob(p, "tile", knob);
        snprintf(ept, sizeof ept, "%d", tile / rows);
        gen_knob(p, "elements_per_thread", ept);
    }
    gen_alt_end(p);
}

/* The pair of a program whose whole work is one tiled transpose. */
static void pair_tiled(GenProgram *p, const Tiled *t, const char *args, const char *batch)
{
    char grid[96];
    sb_append(gen_cuda_src(p), TILE_ENUM);
    emit_tiled(gen_cuda_src(p), t);
    snprintf(grid, sizeof grid, "(%s+31)/32,(%s+31)/32%s%s", t->cols, t->rows, batch ? "," : "", batch ? batch : "");
    gen_launch(p, t->name, grid, "32,8", NULL, args);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", batch ? "tiled-32x32-shared, one matrix per blockIdx.z" : "tiled-32x32-shared");
    gen_knob(p, "tile", "32");
    gen_knob(p, "elements_per_thread", "4");
    /* the knob space: tile sizes, and elements per thread at a tile of 32;
     * 128 is refused for elements over 2 bytes (static shared memory) */
    static const int points[][2] = {{16, 16}, {16, 4}, {32, 32}, {32, 4}, {64, 8}, {64, 16}, {128, 8}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        alt_tiled(p, t, args, batch, points[i][0], points[i][1]);
}

/* The pair of an out-of-place 2D transpose-like program: in (n x m) to out
 * (m x n), out[dst] = in[i * m + j] for each element. */
static void pair_move2d(GenProgram *p, const char *name, const char *dt, const char *dst)
{
    const char *T = cutype(dt);
    char params[128], store[96];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n, int m", T, T);
    snprintf(store, sizeof store, "out[%s] = v;", dst);
    Tiled t = {name, params, T, "n", "m", "in[i * m + j]", store, NULL};
    pair_tiled(p, &t, "in,out,n,m", NULL);
}

/* One thread per element of a flat index space of `count` elements, x
 * along the source's contiguous axis: the index is decomposed into the
 * source coordinates (decl), and the element moved (move). */
static void pair_flat(GenProgram *p, const char *name, const char *params, const char *count, const char *decl,
                      const char *move, const char *args)
{
    StrBuf *k = gen_cuda_src(p);
    char grid[64], spaced[64];
    int o = 0;
    for (const char *c = count; *c && o < (int)sizeof spaced - 4; c++)
        o += snprintf(spaced + o, sizeof spaced - (size_t)o, *c == '*' ? " * " : "%c", *c);
    sb_append(k, "/* One thread per element, in the source's storage order (coalesced reads). */\n");
    put_kernel_head(k, name, params);
    sb_printf(k, "{\n"
                 "    const int e = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (e >= %s)\n        return;\n%s    %s\n}\n",
              spaced, decl, move);
    snprintf(grid, sizeof grid, "(%s+255)/256", count);
    gen_launch(p, name, grid, "256", NULL, args);
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-element-per-thread");
}

/* The pair of c[i][j] = expr(a[i * n + j], bt) over n x n matrices, bt
 * being b[j * n + i] (the transposed operand): each 32x8 block stages the
 * matching 32x32 tile of b in shared memory (read along its rows), so
 * both b and the output are accessed coalesced. */
static void pair_with_transposed(GenProgram *p, const char *name, const char *params, const char *ty,
                                 const char *b, const char *out, const char *expr, const char *args)
{
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, TILE_ENUM);
    sb_append(k, "/* One 32x32 output tile per block; the transposed operand goes through shared memory. */\n");
    put_kernel_head(k, name, params);
    sb_printf(k, "{\n"
                 "    __shared__ %s tile[TILE][TILE + 1];\n"
                 "    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int row = j0 + r, col = i0 + threadIdx.x;\n"
                 "        if (row < n && col < n)\n"
                 "            tile[r][threadIdx.x] = %s[row * n + col];\n"
                 "    }\n"
                 "    __syncthreads();\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int i = i0 + r, j = j0 + threadIdx.x;\n"
                 "        if (i < n && j < n) {\n"
                 "            const %s bt = tile[threadIdx.x][r]; /* %s[j * n + i] */\n"
                 "            %s[i * n + j] = %s;\n"
                 "        }\n"
                 "    }\n}\n",
              ty, b, ty, b, out, expr);
    gen_launch(p, name, "(n+31)/32,(n+31)/32", "32,8", NULL, args);
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "tiled-32x32-shared");
}

/* out (m x n) = in^T for in (n x m), both row-major. */
static int k_plain(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64];
    snprintf(v, sizeof v, "transpose2d-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose2d");
    gen_describe(p, "out = in^T for a row-major %s matrix", dt);
    gen_arg(p, "in", dt, "in", "n,m");
    gen_arg(p, "out", dt, "out", "m,n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, dt);
    cost_move(p, "n*m", esize(dt));
    gen_source(p,
               "%s"
               "/* out = in^T: in is n x m, out is m x n, both row-major. */\n"
               "void transpose2d(const %s *in, %s *out, int n, int m)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < m; j++)\n"
               "            out[j * n + i] = in[i * m + j];\n}\n",
               inc(dt), T, T);
    pair_move2d(p, "transpose2d", dt, "j * n + i");
    return gen_end(p);
}

/* Leading dimensions: rows of in are lda apart, rows of out ldb apart. */
static int k_ld(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64];
    snprintf(v, sizeof v, "transpose2d-ld-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose_ld");
    gen_describe(p, "b = a^T with leading dimensions lda >= m and ldb >= n (%s)", dt);
    gen_arg(p, "a", dt, "in", "n,lda");
    gen_arg(p, "b", dt, "inout", "m,ldb");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_arg(p, "lda", "i32", "param", NULL);
    gen_arg(p, "ldb", "i32", "param", NULL);
    gen_config(p, "small", "n=200,m=300,lda=320,ldb=208");
    gen_config(p, "edge", "n=1,m=7,lda=7,ldb=1");
    gen_config(p, "edge-prime", "n=37,m=131,lda=133,ldb=41");
    gen_config(p, "large", esize(dt) == 8 ? "n=8192,m=8192,lda=8200,ldb=8200"
                                          : "n=8192,m=16384,lda=16400,ldb=8200");
    char b[64];
    snprintf(b, sizeof b, "%d*n*m", 2 * esize(dt));
    gen_cost(p, "0", b);
    gen_source(p,
               "%s"
               "/* b = a^T for the n x m matrix a.  Both are row-major with padded rows:\n"
               " * a[i][j] is a[i * lda + j] (lda >= m), b[j][i] is b[j * ldb + i]\n"
               " * (ldb >= n).  The padding of b is left untouched. */\n"
               "void transpose_ld(const %s *a, %s *b, int n, int m, int lda, int ldb)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < m; j++)\n"
               "            b[j * ldb + i] = a[i * lda + j];\n}\n",
               inc(dt), T, T);
    char params[160];
    snprintf(params, sizeof params, "const %s *__restrict__ a, %s *__restrict__ b, int n, int m, int lda, int ldb",
             cutype(dt), cutype(dt));
    Tiled t = {"transpose_ld", params, cutype(dt), "n", "m", "a[i * lda + j]", "b[j * ldb + i] = v;", NULL};
    pair_tiled(p, &t, "a,b,n,m,lda,ldb", NULL);
    return gen_end(p);
}

static int k_batched(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64], buf[64];
    snprintf(v, sizeof v, "batched-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose_batched");
    gen_describe(p, "out[b] = in[b]^T for a batch of n x m %s matrices", dt);
    gen_arg(p, "in", dt, "in", "batch,n,m");
    gen_arg(p, "out", dt, "out", "batch,m,n");
    gen_arg(p, "batch", "i32", "param", NULL);
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_config(p, "small", "batch=4,n=64,m=96");
    gen_config(p, "edge", "batch=1,n=1,m=5");
    gen_config(p, "edge-prime", "batch=3,n=17,m=31");
    int nb = esize(dt) == 1 ? 256 : esize(dt) == 8 ? 32 : 64;
    snprintf(buf, sizeof buf, "batch=%d,n=1024,m=2048", nb);
    gen_config(p, "large", buf);
    cost_move(p, "batch*n*m", esize(dt));
    gen_source(p,
               "#include <stddef.h>\n%s"
               "/* out[b] = in[b]^T for each of the batch matrices: in is batch x n x m,\n"
               " * out is batch x m x n, all row-major and contiguous. */\n"
               "void transpose_batched(const %s *in, %s *out, int batch, int n, int m)\n{\n"
               "    size_t plane = (size_t)n * m;\n"
               "    for (int b = 0; b < batch; b++) {\n"
               "        const %s *src = in + b * plane;\n"
               "        %s *dst = out + b * plane;\n"
               "        for (int i = 0; i < n; i++)\n"
               "            for (int j = 0; j < m; j++)\n"
               "                dst[j * n + i] = src[i * m + j];\n"
               "    }\n}\n",
               inc(dt), T, T, T, T);
    const char *U = cutype(dt);
    char params[128], prologue[200];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int batch, int n, int m", U, U);
    snprintf(prologue, sizeof prologue,
             "    const long long plane = (long long)n * m;\n"
             "    const %s *src = in + blockIdx.z * plane;\n"
             "    %s *dst = out + blockIdx.z * plane;\n", U, U);
    Tiled t = {"transpose_batched", params, U, "n", "m", "src[i * m + j]", "dst[j * n + i] = v;", prologue};
    pair_tiled(p, &t, "in,out,batch,n,m", "batch");
    return gen_end(p);
}

/* 3D permutation: out axes are in axes perm[0], perm[1], perm[2]. */
static int k_perm3(GenCtx *g, const int perm[3], const char *dt)
{
    const char *T = ctype(dt);
    const char *dim[3] = {"a", "b", "c"};
    const char *idx[3] = {"i", "j", "k"};
    char v[64], shape[32], buf[96];
    snprintf(v, sizeof v, "permute3-%d%d%d-%s", perm[0], perm[1], perm[2], dt);
    GenProgram *p = gen_begin(g, v, "permute3");
    gen_describe(p, "out[%s][%s][%s] = in[i][j][k] (%s)", idx[perm[0]], idx[perm[1]], idx[perm[2]], dt);
    snprintf(shape, sizeof shape, "%s,%s,%s", dim[perm[0]], dim[perm[1]], dim[perm[2]]);
    gen_arg(p, "in", dt, "in", "a,b,c");
    gen_arg(p, "out", dt, "out", shape);
    gen_arg(p, "a", "i32", "param", NULL);
    gen_arg(p, "b", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_config(p, "small", "a=20,b=30,c=40");
    gen_config(p, "edge", "a=1,b=3,c=1");
    gen_config(p, "edge-prime", "a=7,b=11,c=13");
    gen_config(p, "large", esize(dt) == 8 ? "a=512,b=512,c=256"
                           : esize(dt) == 1 ? "a=1024,b=512,c=1024" : "a=512,b=512,c=512");
    cost_move(p, "a*b*c", esize(dt));
    /* Output index: ((x * d1) + y) * d2 + z with x,y,z the permuted loop indices. */
    snprintf(buf, sizeof buf, "(%s * %s + %s) * %s + %s", idx[perm[0]], dim[perm[1]], idx[perm[1]],
             dim[perm[2]], idx[perm[2]]);
    gen_source(p,
               "%s"
               "/* Axis permutation of an a x b x c array (row-major): the output has\n"
               " * shape %s x %s x %s and out[%s][%s][%s] = in[i][j][k]. */\n"
               "void permute3(const %s *in, %s *out, int a, int b, int c)\n{\n"
               "    for (int i = 0; i < a; i++)\n"
               "        for (int j = 0; j < b; j++)\n"
               "            for (int k = 0; k < c; k++)\n"
               "                out[%s] = in[(i * b + j) * c + k];\n}\n",
               inc(dt), dim[perm[0]], dim[perm[1]], dim[perm[2]], idx[perm[0]], idx[perm[1]], idx[perm[2]], T, T,
               buf);
    char params[128], move[160];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int a, int b, int c",
             cutype(dt), cutype(dt));
    snprintf(move, sizeof move, "out[%s] = in[e];", buf);
    pair_flat(p, "permute3", params, "a*b*c", "    const int i = e / (b * c), j = e / c % b, k = e % c;\n", move,
              "in,out,a,b,c");
    return gen_end(p);
}

static int k_layout4(GenCtx *g, int to_nhwc, const char *dt)
{
    const char *T = ctype(dt);
    char v[64];
    snprintf(v, sizeof v, "%s-%s", to_nhwc ? "nchw-to-nhwc" : "nhwc-to-nchw", dt);
    GenProgram *p = gen_begin(g, v, to_nhwc ? "nchw_to_nhwc" : "nhwc_to_nchw");
    gen_describe(p, "tensor layout conversion %s (%s)", to_nhwc ? "NCHW -> NHWC" : "NHWC -> NCHW", dt);
    gen_arg(p, "in", dt, "in", to_nhwc ? "n,c,h,w" : "n,h,w,c");
    gen_arg(p, "out", dt, "out", to_nhwc ? "n,h,w,c" : "n,c,h,w");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "c", "i32", "param", NULL);
    gen_arg(p, "h", "i32", "param", NULL);
    gen_arg(p, "w", "i32", "param", NULL);
    gen_config(p, "small", "n=2,c=3,h=64,w=80");
    gen_config(p, "edge", "n=1,c=1,h=1,w=3");
    gen_config(p, "edge-prime", "n=1,c=3,h=7,w=11");
    gen_config(p, "large", esize(dt) == 8 ? "n=16,c=64,h=256,w=256"
                           : esize(dt) == 1 ? "n=64,c=64,h=256,w=256" : "n=32,c=64,h=256,w=256");
    cost_move(p, "n*c*h*w", esize(dt));
    const char *src = to_nhwc ? "((b * c + ch) * h + y) * w + x" : "((b * h + y) * w + x) * c + ch";
    const char *dst = to_nhwc ? "((b * h + y) * w + x) * c + ch" : "((b * c + ch) * h + y) * w + x";
    gen_source(p,
               "%s"
               "/* Converts a batch of images from %s to %s layout: the same\n"
               " * n x c x h x w values, reordered. */\n"
               "void %s(const %s *in, %s *out, int n, int c, int h, int w)\n{\n"
               "    for (int b = 0; b < n; b++)\n"
               "        for (int ch = 0; ch < c; ch++)\n"
               "            for (int y = 0; y < h; y++)\n"
               "                for (int x = 0; x < w; x++)\n"
               "                    out[%s] = in[%s];\n}\n",
               inc(dt), to_nhwc ? "NCHW" : "NHWC", to_nhwc ? "NHWC" : "NCHW",
               to_nhwc ? "nchw_to_nhwc" : "nhwc_to_nchw", T, T, dst, src);
    char params[128], move[96];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n, int c, int h, int w",
             cutype(dt), cutype(dt));
    snprintf(move, sizeof move, "out[%s] = in[e];", dst);
    pair_flat(p, to_nhwc ? "nchw_to_nhwc" : "nhwc_to_nchw", params, "n*c*h*w",
              to_nhwc ? "    const int x = e % w, y = e / w % h, ch = e / (w * h) % c, b = e / (w * h * c);\n"
                      : "    const int ch = e % c, x = e / c % w, y = e / (c * w) % h, b = e / (c * w * h);\n",
              move, "in,out,n,c,h,w");
    return gen_end(p);
}

static int k_scale(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64];
    snprintf(v, sizeof v, "scaled-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose_scale");
    gen_describe(p, "out = alpha * in^T (%s)", dt);
    gen_arg(p, "in", dt, "in", "n,m");
    gen_arg(p, "out", dt, "out", "m,n");
    gen_scalar(p, "alpha", dt, gen_uniform(g, 0.5, 3.0));
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, dt);
    char b[64];
    snprintf(b, sizeof b, "%d*n*m", 2 * esize(dt));
    gen_cost(p, "n*m", b);
    gen_source(p,
               "/* out = alpha * in^T: in is n x m, out is m x n, row-major. */\n"
               "void transpose_scale(const %s *in, %s *out, %s alpha, int n, int m)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < m; j++)\n"
               "            out[j * n + i] = alpha * in[i * m + j];\n}\n",
               T, T, T);
    char params[128];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, %s alpha, int n, int m", T, T, T);
    Tiled t = {"transpose_scale", params, T, "n", "m", "alpha * in[i * m + j]", "out[j * n + i] = v;", NULL};
    pair_tiled(p, &t, "in,out,alpha,n,m", NULL);
    return gen_end(p);
}

static int k_conj(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64], buf[64];
    snprintf(v, sizeof v, "conj-transpose-%s", dt);
    GenProgram *p = gen_begin(g, v, "conj_transpose");
    gen_describe(p, "out = in^H for a complex (interleaved re, im) %s matrix", dt);
    gen_arg(p, "in", dt, "in", "n,m,2");
    gen_arg(p, "out", dt, "out", "m,n,2");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_config(p, "small", "n=200,m=300");
    gen_config(p, "edge", "n=1,m=7");
    gen_config(p, "edge-prime", "n=37,m=131");
    snprintf(buf, sizeof buf, "n=8192,m=%d", esize(dt) == 8 ? 4096 : 8192);
    gen_config(p, "large", buf);
    snprintf(buf, sizeof buf, "%d*n*m", 4 * esize(dt));
    gen_cost(p, "n*m", buf);
    gen_source(p,
               "/* Conjugate transpose of a complex n x m matrix stored as interleaved\n"
               " * (re, im) pairs, row-major: out[j][i] = conj(in[i][j]). */\n"
               "void conj_transpose(const %s *in, %s *out, int n, int m)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        for (int j = 0; j < m; j++) {\n"
               "            const %s *src = in + 2 * (i * m + j);\n"
               "            %s *dst = out + 2 * (j * n + i);\n"
               "            dst[0] = src[0];\n"
               "            dst[1] = -src[1];\n"
               "        }\n    }\n}\n",
               T, T, T, T);
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, TILE_ENUM);
    sb_append(k, "/* One 32x32 tile of complex elements per block, real and imaginary parts in\n"
                 " * two shared tiles: coalesced reads and writes. */\n");
    char params[96];
    snprintf(params, sizeof params, "const %s *__restrict__ in, %s *__restrict__ out, int n, int m", T, T);
    put_kernel_head(k, "conj_transpose", params);
    sb_printf(k, "{\n"
                 "    __shared__ %s re[TILE][TILE + 1], im[TILE][TILE + 1];\n"
                 "    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int i = i0 + r, j = j0 + threadIdx.x;\n"
                 "        if (i < n && j < m) {\n"
                 "            re[r][threadIdx.x] = in[2 * (i * m + j)];\n"
                 "            im[r][threadIdx.x] = in[2 * (i * m + j) + 1];\n"
                 "        }\n"
                 "    }\n"
                 "    __syncthreads();\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int i = i0 + threadIdx.x, j = j0 + r;\n"
                 "        if (i < n && j < m) {\n"
                 "            out[2 * (j * n + i)] = re[threadIdx.x][r];\n"
                 "            out[2 * (j * n + i) + 1] = -im[threadIdx.x][r];\n"
                 "        }\n"
                 "    }\n}\n", T);
    gen_launch(p, "conj_transpose", "(m+31)/32,(n+31)/32", "32,8", NULL, "in,out,n,m");
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "tiled-32x32-shared");
    return gen_end(p);
}

static int k_add(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64], b[64];
    snprintf(v, sizeof v, "add-transposed-%s", dt);
    GenProgram *p = gen_begin(g, v, "add_transposed");
    gen_describe(p, "c = a + b^T for square %s matrices", dt);
    gen_arg(p, "a", dt, "in", "n,n");
    gen_arg(p, "b", dt, "in", "n,n");
    gen_arg(p, "c", dt, "out", "n,n");
    gen_arg(p, "n", "i32", "param", NULL);
    if (!is_float(dt)) {
        gen_fill_int(p, "a", "-1000000", "1000000");
        gen_fill_int(p, "b", "-1000000", "1000000");
    }
    configs_square(p, dt);
    snprintf(b, sizeof b, "%d*n*n", 3 * esize(dt));
    gen_cost(p, "n*n", b);
    gen_source(p,
               "%s"
               "/* c = a + b^T for n x n row-major matrices. */\n"
               "void add_transposed(const %s *a, const %s *b, %s *c, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < n; j++)\n"
               "            c[i * n + j] = a[i * n + j] + b[j * n + i];\n}\n",
               inc(dt), T, T, T);
    const char *U = cutype(dt);
    char params[160];
    snprintf(params, sizeof params, "const %s *__restrict__ a, const %s *__restrict__ b, %s *__restrict__ c, int n",
             U, U, U);
    pair_with_transposed(p, "add_transposed", params, U, "b", "c", "a[i * n + j] + bt", "a,b,c,n");
    return gen_end(p);
}

static int k_sym(GenCtx *g, int anti, const char *dt)
{
    const char *T = ctype(dt);
    const char *half = strcmp(dt, "f32") == 0 ? "0.5f" : "0.5";
    char v[64], b[64];
    snprintf(v, sizeof v, "%s-part-%s", anti ? "antisymmetric" : "symmetric", dt);
    GenProgram *p = gen_begin(g, v, anti ? "antisymmetric_part" : "symmetric_part");
    gen_describe(p, "out = (a %c a^T) / 2 (%s)", anti ? '-' : '+', dt);
    gen_arg(p, "a", dt, "in", "n,n");
    gen_arg(p, "out", dt, "out", "n,n");
    gen_arg(p, "n", "i32", "param", NULL);
    if (anti) { /* n = 1 has an all-zero antisymmetric part */
        gen_config(p, "small", "n=200");
        gen_config(p, "edge", "n=2");
        gen_config(p, "edge-prime", "n=131");
        gen_config(p, "large", "n=12288");
    } else {
        configs_square(p, dt);
    }
    snprintf(b, sizeof b, "%d*n*n", 2 * esize(dt));
    gen_cost(p, "2*n*n", b);
    gen_source(p,
               "/* The %ssymmetric part of a square matrix: out = (a %c a^T) / 2,\n"
               " * n x n, row-major. */\n"
               "void %s(const %s *a, %s *out, int n)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < n; j++)\n"
               "            out[i * n + j] = %s * (a[i * n + j] %c a[j * n + i]);\n}\n",
               anti ? "anti" : "", anti ? '-' : '+', anti ? "antisymmetric_part" : "symmetric_part", T, T,
               half, anti ? '-' : '+');
    char params[128], expr[64];
    snprintf(params, sizeof params, "const %s *__restrict__ a, %s *__restrict__ out, int n", T, T);
    snprintf(expr, sizeof expr, "%s * (a[i * n + j] %c bt)", half, anti ? '-' : '+');
    pair_with_transposed(p, anti ? "antisymmetric_part" : "symmetric_part", params, T, "a", "out", expr, "a,out,n");
    return gen_end(p);
}

static int k_inplace(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    char v[64], b[64];
    snprintf(v, sizeof v, "inplace-square-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose_inplace");
    gen_describe(p, "a = a^T in place for a square %s matrix", dt);
    gen_arg(p, "a", dt, "inout", "n,n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_config(p, "small", "n=200");
    gen_config(p, "edge", "n=1");
    gen_config(p, "edge-two", "n=2");
    gen_config(p, "edge-prime", "n=131");
    gen_config(p, "large", esize(dt) == 8 ? "n=11264" : "n=16384");
    snprintf(b, sizeof b, "%d*n*n", 2 * esize(dt));
    gen_cost(p, "0", b);
    gen_source(p,
               "%s"
               "/* Transposes the n x n row-major matrix a in place by swapping each\n"
               " * element above the diagonal with its mirror below. */\n"
               "void transpose_inplace(%s *a, int n)\n{\n"
               "    for (int i = 0; i < n; i++) {\n"
               "        for (int j = i + 1; j < n; j++) {\n"
               "            %s t = a[i * n + j];\n"
               "            a[i * n + j] = a[j * n + i];\n"
               "            a[j * n + i] = t;\n"
               "        }\n    }\n}\n",
               inc(dt), T, T);
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, TILE_ENUM);
    sb_printf(k, "/* Tile (ti, tj) with ti <= tj swaps with its mirror (tj, ti): the block reads\n"
                 " * both 32x32 tiles into shared memory, then writes each, transposed, in the\n"
                 " * other's place (a diagonal tile is its own mirror).  Blocks below the\n"
                 " * diagonal have nothing to do. */\n"
                 "extern \"C\" __global__ void transpose_inplace(%s *a, int n)\n{\n"
                 "    __shared__ %s upper[TILE][TILE + 1], lower[TILE][TILE + 1];\n"
                 "    const int ti = blockIdx.y, tj = blockIdx.x;\n"
                 "    if (ti > tj)\n        return;\n"
                 "    const int i0 = ti * TILE, j0 = tj * TILE;\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int c = threadIdx.x;\n"
                 "        if (i0 + r < n && j0 + c < n)\n"
                 "            upper[r][c] = a[(i0 + r) * n + j0 + c];\n"
                 "        if (j0 + r < n && i0 + c < n)\n"
                 "            lower[r][c] = a[(j0 + r) * n + i0 + c];\n"
                 "    }\n"
                 "    __syncthreads();\n"
                 "    for (int r = threadIdx.y; r < TILE; r += blockDim.y) {\n"
                 "        const int c = threadIdx.x;\n"
                 "        if (j0 + r < n && i0 + c < n)\n"
                 "            a[(j0 + r) * n + i0 + c] = upper[c][r];\n"
                 "        if (i0 + r < n && j0 + c < n)\n"
                 "            a[(i0 + r) * n + j0 + c] = lower[c][r];\n"
                 "    }\n}\n", cutype(dt), cutype(dt));
    gen_launch(p, "transpose_inplace", "(n+31)/32,(n+31)/32", "32,8", NULL, "a,n");
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "tiled-32x32-shared, tile pairs swapped");
    return gen_end(p);
}

/* Transpose with a type conversion: u8 -> f32 / 255, i32 -> f64 * scale, f64 -> f32. */
static int k_convert(GenCtx *g, int which)
{
    static const char *const from[] = {"u8", "i32", "f64"};
    static const char *const to[] = {"f32", "f64", "f32"};
    char v[64], b[64];
    snprintf(v, sizeof v, "convert-%s-to-%s", from[which], to[which]);
    GenProgram *p = gen_begin(g, v, "transpose_convert");
    gen_arg(p, "in", from[which], "in", "n,m");
    gen_arg(p, "out", to[which], "out", "m,n");
    if (which == 1)
        gen_scalar(p, "scale", "f64", 1.0 / 1024);
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    if (which == 1)
        gen_fill_int(p, "in", "-100000", "100000");
    configs2d(p, from[which]);
    snprintf(b, sizeof b, "%d*n*m", esize(from[which]) + esize(to[which]));
    gen_cost(p, "n*m", b);
    if (which == 0) {
        gen_describe(p, "out = in^T / 255 (u8 image to f32 in [0,1], transposed)");
        gen_source(p, "#include <stdint.h>\n\n"
                      "/* Transposes an n x m 8-bit image into floats in [0, 1]:\n"
                      " * out[j][i] = in[i][j] / 255. */\n"
                      "void transpose_convert(const uint8_t *in, float *out, int n, int m)\n{\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        for (int j = 0; j < m; j++)\n"
                      "            out[j * n + i] = in[i * m + j] / 255.0f;\n}\n");
        Tiled t = {"transpose_convert", "const unsigned char *__restrict__ in, float *__restrict__ out, int n, int m",
                   "float", "n", "m", "in[i * m + j] / 255.0f", "out[j * n + i] = v;", NULL};
        pair_tiled(p, &t, "in,out,n,m", NULL);
    } else if (which == 1) {
        gen_describe(p, "out = scale * in^T, i32 -> f64");
        gen_source(p, "#include <stdint.h>\n\n"
                      "/* Fixed-point to floating point with a transpose:\n"
                      " * out[j][i] = scale * in[i][j]; in is n x m, out is m x n. */\n"
                      "void transpose_convert(const int32_t *in, double *out, double scale, int n, int m)\n{\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        for (int j = 0; j < m; j++)\n"
                      "            out[j * n + i] = scale * in[i * m + j];\n}\n");
        Tiled t = {"transpose_convert",
                   "const int *__restrict__ in, double *__restrict__ out, double scale, int n, int m", "double", "n",
                   "m", "scale * in[i * m + j]", "out[j * n + i] = v;", NULL};
        pair_tiled(p, &t, "in,out,scale,n,m", NULL);
    } else {
        gen_describe(p, "out = (float) in^T, f64 -> f32");
        gen_source(p, "/* Transposes an n x m double matrix into single precision. */\n"
                      "void transpose_convert(const double *in, float *out, int n, int m)\n{\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        for (int j = 0; j < m; j++)\n"
                      "            out[j * n + i] = (float)in[i * m + j];\n}\n");
        Tiled t = {"transpose_convert", "const double *__restrict__ in, float *__restrict__ out, int n, int m",
                   "float", "n", "m", "(float)in[i * m + j]", "out[j * n + i] = v;", NULL};
        pair_tiled(p, &t, "in,out,n,m", NULL);
    }
    return gen_end(p);
}

static int k_bias_relu(GenCtx *g, const char *dt)
{
    const char *T = ctype(dt);
    int f = strcmp(dt, "f32") == 0;
    char v[64], b[64];
    snprintf(v, sizeof v, "scale-bias-relu-%s", dt);
    GenProgram *p = gen_begin(g, v, "transpose_bias_relu");
    gen_describe(p, "out = relu(alpha * in^T + bias[row]) (%s)", dt);
    gen_arg(p, "in", dt, "in", "n,m");
    gen_arg(p, "bias", dt, "in", "m");
    gen_arg(p, "out", dt, "out", "m,n");
    gen_scalar(p, "alpha", dt, gen_uniform(g, 0.5, 2.0));
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, dt);
    snprintf(b, sizeof b, "%d*n*m+%d*m", 2 * esize(dt), esize(dt));
    gen_cost(p, "3*n*m", b);
    gen_source(p,
               "%s"
               "/* out[j][i] = max(alpha * in[i][j] + bias[j], 0): in is n x m, out is\n"
               " * m x n (the transpose), with one bias per output row. */\n"
               "void transpose_bias_relu(const %s *in, const %s *bias, %s *out, %s alpha, int n,\n"
               "                         int m)\n{\n"
               "    for (int j = 0; j < m; j++)\n"
               "        for (int i = 0; i < n; i++)\n"
               "            out[j * n + i] = %s(alpha * in[i * m + j] + bias[j], %s);\n}\n",
               "#include <math.h>\n\n", T, T, T, T, f ? "fmaxf" : "fmax", f ? "0.0f" : "0.0");
    char params[160], load[96];
    snprintf(params, sizeof params,
             "const %s *__restrict__ in, const %s *__restrict__ bias, %s *__restrict__ out, %s alpha, int n, int m", T,
             T, T, T);
    snprintf(load, sizeof load, "%s(alpha * in[i * m + j] + bias[j], %s)", f ? "fmaxf" : "fmax", f ? "0.0f" : "0.0");
    Tiled t = {"transpose_bias_relu", params, T, "n", "m", load, "out[j * n + i] = v;", NULL};
    pair_tiled(p, &t, "in,bias,out,alpha,n,m", NULL);
    return gen_end(p);
}

static int k_gather(GenCtx *g)
{
    GenProgram *p = gen_begin(g, "gather-columns-f32", "transpose_gather");
    gen_describe(p, "out[j][i] = in[i][cols[j]]: gather k columns, transposed");
    gen_arg(p, "in", "f32", "in", "n,m");
    gen_arg(p, "cols", "i32", "in", "k");
    gen_arg(p, "out", "f32", "out", "k,n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    gen_arg(p, "k", "i32", "param", NULL);
    gen_fill_int(p, "cols", "0", "m");
    gen_config(p, "small", "n=200,m=300,k=150");
    gen_config(p, "edge", "n=1,m=7,k=3");
    gen_config(p, "edge-prime", "n=37,m=131,k=61");
    gen_config(p, "large", "n=8192,m=16384,k=12288");
    gen_cost(p, "0", "8*n*k+4*k");
    gen_source(p, "/* Gathers the k columns cols[0..k) of the n x m matrix in and stores them\n"
                  " * as rows: out[j][i] = in[i][cols[j]], out is k x n.  cols[j] is in [0, m). */\n"
                  "void transpose_gather(const float *in, const int *cols, float *out, int n, int m, int k)\n{\n"
                  "    for (int j = 0; j < k; j++) {\n"
                  "        int c = cols[j];\n"
                  "        for (int i = 0; i < n; i++)\n"
                  "            out[j * n + i] = in[i * m + c];\n"
                  "    }\n}\n");
    Tiled t = {"transpose_gather",
               "const float *__restrict__ in, const int *__restrict__ cols, float *__restrict__ out, int n, int m, int k",
               "float", "n", "k", "in[i * m + cols[j]]", "out[j * n + i] = v;", NULL};
    pair_tiled(p, &t, "in,cols,out,n,m,k", NULL);
    return gen_end(p);
}

static int k_colsum(GenCtx *g)
{
    GenProgram *p = gen_begin(g, "transpose-rowsums-f32", "transpose_rowsums");
    gen_describe(p, "out = in^T and sums[j] = sum_i in[i][j] (the rows of out)");
    gen_arg(p, "in", "f32", "in", "n,m");
    gen_arg(p, "out", "f32", "out", "m,n");
    gen_arg(p, "sums", "f32", "out", "m");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, "f32");
    gen_tolerance(p, 2e-3, 1e-4);
    gen_cost(p, "n*m", "8*n*m+4*m");
    gen_source(p, "/* out = in^T (in is n x m, out is m x n) and, for each output row j,\n"
                  " * sums[j] = sum over i of in[i][j], accumulated in double. */\n"
                  "void transpose_rowsums(const float *in, float *out, float *sums, int n, int m)\n{\n"
                  "    for (int j = 0; j < m; j++) {\n"
                  "        double s = 0.0;\n"
                  "        for (int i = 0; i < n; i++) {\n"
                  "            float x = in[i * m + j];\n"
                  "            out[j * n + i] = x;\n"
                  "            s += x;\n"
                  "        }\n"
                  "        sums[j] = (float)s;\n"
                  "    }\n}\n");
    StrBuf *k = gen_cuda_src(p);
    sb_append(k, TILE_ENUM);
    Tiled t = {"transpose", "const float *__restrict__ in, float *__restrict__ out, int n, int m", "float", "n", "m",
               "in[i * m + j]", "out[j * n + i] = v;", NULL};
    emit_tiled(k, &t);
    sb_append(k, "\n/* sums[j] = sum over i of in[i][j], in double and in the program's order: one\n"
                 " * thread per column (neighbouring threads read neighbouring elements). */\n"
                 "extern \"C\" __global__ void column_sums(const float *__restrict__ in, float *__restrict__ sums,\n"
                 "                                       int n, int m)\n{\n"
                 "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (j >= m)\n        return;\n"
                 "    double s = 0.0;\n"
                 "    for (int i = 0; i < n; i++)\n        s += in[i * m + j];\n"
                 "    sums[j] = (float)s;\n}\n");
    gen_launch(p, "transpose", "(m+31)/32,(n+31)/32", "32,8", NULL, "in,out,n,m");
    gen_launch(p, "column_sums", "(m+255)/256", "256", NULL, "in,sums,n,m");
    gen_knob(p, "block", "32x8");
    gen_knob(p, "mapping", "tiled-32x32-shared transpose, then one-column-per-thread sums");
    return gen_end(p);
}

/* kind 0: rotate 90 clockwise, 1: rotate 270 clockwise, 2: anti-transpose. */
static int k_rotate(GenCtx *g, int kind, const char *dt)
{
    static const char *const tag[] = {"rot90", "rot270", "antitranspose"};
    static const char *const what[] = {
        "Rotates the n x m image in by 90 degrees clockwise: out is m x n and\n"
        " * out[j][n - 1 - i] = in[i][j].",
        "Rotates the n x m image in by 90 degrees counter-clockwise: out is m x n\n"
        " * and out[m - 1 - j][i] = in[i][j].",
        "Anti-transpose (reflection across the anti-diagonal) of the n x m matrix:\n"
        " * out is m x n and out[m - 1 - j][n - 1 - i] = in[i][j].",
    };
    static const char *const dst[] = {"j * n + (n - 1 - i)", "(m - 1 - j) * n + i",
                                      "(m - 1 - j) * n + (n - 1 - i)"};
    const char *T = ctype(dt);
    char v[64];
    snprintf(v, sizeof v, "%s-%s", tag[kind], dt);
    GenProgram *p = gen_begin(g, v, tag[kind]);
    gen_describe(p, "%s of a %s matrix", tag[kind], dt);
    gen_arg(p, "in", dt, "in", "n,m");
    gen_arg(p, "out", dt, "out", "m,n");
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, dt);
    cost_move(p, "n*m", esize(dt));
    gen_source(p,
               "%s"
               "/* %s */\n"
               "void %s(const %s *in, %s *out, int n, int m)\n{\n"
               "    for (int i = 0; i < n; i++)\n"
               "        for (int j = 0; j < m; j++)\n"
               "            out[%s] = in[i * m + j];\n}\n",
               inc(dt), what[kind], tag[kind], T, T, dst[kind]);
    pair_move2d(p, tag[kind], dt, dst[kind]);
    return gen_end(p);
}

static int k_geam(GenCtx *g)
{
    GenProgram *p = gen_begin(g, "geam-accumulate-f32", "transpose_accumulate");
    gen_describe(p, "b = beta * b + alpha * a^T");
    gen_arg(p, "a", "f32", "in", "n,m");
    gen_arg(p, "b", "f32", "inout", "m,n");
    gen_scalar(p, "alpha", "f32", gen_uniform(g, 0.5, 2.0));
    gen_scalar(p, "beta", "f32", gen_uniform(g, -1.0, -0.25));
    gen_arg(p, "n", "i32", "param", NULL);
    gen_arg(p, "m", "i32", "param", NULL);
    configs2d(p, "f32");
    gen_cost(p, "3*n*m", "12*n*m");
    gen_source(p, "/* b = beta * b + alpha * a^T, with a n x m and b m x n, row-major. */\n"
                  "void transpose_accumulate(const float *a, float *b, float alpha, float beta, int n, int m)\n{\n"
                  "    for (int j = 0; j < m; j++)\n"
                  "        for (int i = 0; i < n; i++)\n"
                  "            b[j * n + i] = beta * b[j * n + i] + alpha * a[i * m + j];\n}\n");
    Tiled t = {"transpose_accumulate",
               "const float *__restrict__ a, float *__restrict__ b, float alpha, float beta, int n, int m", "float", "n",
               "m", "a[i * m + j]", "b[j * n + i] = beta * b[j * n + i] + alpha * v;", NULL};
    pair_tiled(p, &t, "a,b,alpha,beta,n,m", NULL);
    return gen_end(p);
}

static int generate(GenCtx *g)
{
    static const char *const plain[] = {"f32", "f64", "i32", "u8", "i64", "i16", "u16"};
    static const char *const ld[] = {"f32", "f64", "i32"};
    static const char *const batched[] = {"f32", "f64", "u8", "i64"};
    static const int perms[5][3] = {{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const char *const perm_dt2[] = {"f64", "i32", "u8", "i64", "f64"};
    for (int i = 0; i < 7; i++)
        if (k_plain(g, plain[i]))
            return -1;
    for (int i = 0; i < 3; i++)
        if (k_ld(g, ld[i]))
            return -1;
    for (int i = 0; i < 4; i++)
        if (k_batched(g, batched[i]))
            return -1;
    for (int i = 0; i < 5; i++)
        if (k_perm3(g, perms[i], "f32") || k_perm3(g, perms[i], perm_dt2[i]))
            return -1;
    if (k_layout4(g, 1, "f32") || k_layout4(g, 1, "u8") || k_layout4(g, 0, "f32") || k_layout4(g, 0, "f64"))
        return -1;
    if (k_scale(g, "f32") || k_scale(g, "f64") || k_conj(g, "f32") || k_conj(g, "f64"))
        return -1;
    if (k_add(g, "f32") || k_add(g, "f64") || k_add(g, "i32"))
        return -1;
    if (k_sym(g, 0, "f32") || k_sym(g, 0, "f64") || k_sym(g, 1, "f32"))
        return -1;
    if (k_inplace(g, "f32") || k_inplace(g, "f64") || k_inplace(g, "i32"))
        return -1;
    for (int i = 0; i < 3; i++)
        if (k_convert(g, i))
            return -1;
    if (k_bias_relu(g, "f32") || k_bias_relu(g, "f64") || k_gather(g) || k_colsum(g))
        return -1;
    if (k_rotate(g, 0, "f32") || k_rotate(g, 0, "u8") || k_rotate(g, 1, "f32") || k_rotate(g, 2, "f32") ||
        k_rotate(g, 2, "f64"))
        return -1;
    if (k_geam(g))
        return -1;
    return 0;
}

const Family family_transpose = {"transpose", "linalg", 54, generate};
