/* transpose — data movement by index permutation: out-of-place 2D
 * transposes over many element types, transposes with leading dimensions
 * (padded rows), batched transposes, 3D axis permutations, NCHW <-> NHWC,
 * in-place square transposes, rotations and the anti-transpose, and
 * transposes fused with element-wise work (scaling, conjugation of complex
 * data, adding a second matrix, symmetric/antisymmetric parts, type
 * conversion, bias + ReLU, column gathers, column sums, B = beta*B +
 * alpha*A^T).  Large configs move several hundred MB per buffer. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

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
    } else if (which == 1) {
        gen_describe(p, "out = scale * in^T, i32 -> f64");
        gen_source(p, "#include <stdint.h>\n\n"
                      "/* Fixed-point to floating point with a transpose:\n"
                      " * out[j][i] = scale * in[i][j]; in is n x m, out is m x n. */\n"
                      "void transpose_convert(const int32_t *in, double *out, double scale, int n, int m)\n{\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        for (int j = 0; j < m; j++)\n"
                      "            out[j * n + i] = scale * in[i * m + j];\n}\n");
    } else {
        gen_describe(p, "out = (float) in^T, f64 -> f32");
        gen_source(p, "/* Transposes an n x m double matrix into single precision. */\n"
                      "void transpose_convert(const double *in, float *out, int n, int m)\n{\n"
                      "    for (int i = 0; i < n; i++)\n"
                      "        for (int j = 0; j < m; j++)\n"
                      "            out[j * n + i] = (float)in[i * m + j];\n}\n");
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
