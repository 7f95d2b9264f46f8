/* scan — prefix operations and what is built from them: inclusive and
 * exclusive prefix sums (f32 accumulating in double, f64, i32 widening to
 * i64, i64), offsets from counts, prefix max/min, prefix products of values
 * near 1, suffix (reverse) scans, scans of a strided array, per-row scans of
 * a matrix (sum, exclusive sum, max, reverse) and per-column scans, the
 * summed-area table of a u8 image, segmented scans driven by head flags or by
 * runs of equal sorted keys, stream compaction (values, indices, with the
 * scatter positions as an output, stable partition, keeping even integers),
 * unique and run-length encoding, log-cumsum-exp, running mean and the
 * first-order linear recurrence of an exponential moving average. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Spec {
    const char *kind;
    const char *dt;
} Spec;

static const Spec SPECS[] = {
    {"incl", "f32"}, {"incl", "f64"}, {"incl", "i32"}, {"incl", "i64"},
    {"excl", "f32"}, {"excl", "f64"}, {"excl", "i32"}, {"excl", "i64"},
    {"offsets", "i32"},
    {"cummax", "f32"}, {"cummax", "f64"}, {"cummax", "i32"}, {"cummax", "i64"},
    {"cummin", "f32"},
    {"cumprod", "f32"}, {"cumprod", "f64"},
    {"suffix-sum", "f32"}, {"suffix-sum", "f64"}, {"suffix-sum", "i32"}, {"suffix-max", "f32"},
    {"strided-incl", "f32"}, {"strided-incl", "i64"},
    {"row-incl", "f32"}, {"row-incl", "f64"}, {"row-incl", "i32"}, {"row-excl", "f32"}, {"row-excl", "i64"},
    {"row-cummax", "f32"}, {"row-cummax", "i32"}, {"row-suffix-sum", "f64"},
    {"col-incl", "f32"}, {"col-incl", "f64"}, {"col-cummax", "f32"},
    {"sat", "u8"},
    {"seg-incl", "f32"}, {"seg-incl", "f64"}, {"seg-incl", "i32"}, {"seg-excl", "i64"}, {"seg-max", "f32"},
    {"key-incl", "f32"}, {"key-incl", "i64"},
    {"select", "f32"}, {"select", "f64"}, {"select-even", "i32"}, {"select-idx", "f32"},
    {"partition", "f32"}, {"select-pos", "i32"},
    {"unique", "i32"}, {"rle", "i32"},
    {"logcumsumexp", "f32"}, {"logcumsumexp", "f64"},
    {"cummean", "f32"},
    {"ema", "f32"}, {"ema", "f64"},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }
static int starts(const char *a, const char *b) { return strncmp(a, b, strlen(b)) == 0; }

static const char *ctype(const char *dt)
{
    if (is(dt, "f32")) return "float";
    if (is(dt, "f64")) return "double";
    if (is(dt, "i32")) return "int32_t";
    if (is(dt, "u8")) return "uint8_t";
    return "int64_t";
}

static int size_of(const char *dt) { return is(dt, "u8") ? 1 : (is(dt, "f64") || is(dt, "i64")) ? 8 : 4; }

/* Sums widen: i32 inputs give i64 sums; everything else keeps its dtype. */
static const char *sum_dtype(const char *dt) { return is(dt, "i32") ? "i64" : dt; }

/* The running-sum type: double for f32, the output type otherwise. */
static const char *acc_type(const char *dt)
{
    return is(dt, "f32") ? "double" : ctype(sum_dtype(dt));
}

static const char *cast_of(const char *dt) { return is(dt, "f32") ? "(float)" : ""; }

/* Inputs of running sums: f32 in [0, 1) so the sums do not cancel, i32 in
 * [-1000, 1000), i64 in [-1e9, 1e9); f64 keeps the default [-1, 1). */
static void set_sum_fill(GenProgram *p, const char *dt)
{
    if (is(dt, "f32"))
        gen_fill_uniform(p, "x", 0.0, 1.0);
    else if (is(dt, "i32"))
        gen_fill_int(p, "x", "-1000", "1000");
    else if (is(dt, "i64"))
        gen_fill_int(p, "x", "-1000000000", "1000000000");
}

static int is_row(const Spec *sp) { return starts(sp->kind, "row-") || starts(sp->kind, "col-") || is(sp->kind, "sat"); }

static const char *const LARGE32[] = {"r=16384,c=8192", "r=2048,c=65536", "r=131072,c=1024", "r=2097152,c=64"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=1024,c=65536", "r=65536,c=1024", "r=1048576,c=64"};

static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "exp(") || strstr(body, "log(") || strstr(body, "fmax") || strstr(body, "log1p"))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "size_t"))
        sb_append(dst, "#include <stddef.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t") || strstr(body, "uint8_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (strstr(body, "malloc"))
        sb_append(dst, "#include <stdlib.h>\n");
    if (strstr(body, "memset"))
        sb_append(dst, "#include <string.h>\n");
    if (dst->len)
        sb_append(dst, "\n");
}

/* ---- the pair ----
 * Whole-array scans run reduce-then-scan, over tiles of ITEMS * blockDim.x
 * elements (each thread owns ITEMS consecutive ones): launch 1 reduces each
 * tile to one accumulator (an Acc struct; a Hillis-Steele scan in shared
 * memory combines the threads in order), launch 2 (one block) turns the
 * tile accumulators into exclusive prefixes, launch 3 rescans each tile
 * from its prefix and writes the outputs.  Every scan is one associative
 * merge: sums, max/min, products, (head flag, value) pairs for segmented
 * scans, log-add-exp, and the composition of affine maps for the EMA.
 * Stream compaction scans its keep flags the same way (launch 2 also
 * writes the count), then scatters; run-length encoding adds a fourth
 * launch for the lengths.  Row scans: one block per row, walking it in
 * blockDim.x chunks with a carry.  Column scans: one thread per column,
 * walking the rows.  The summed-area table: row scans, then column sums in
 * place. */

#define SCAN_ITEMS 4
#define SCAN_TILE "1024" /* SCAN_ITEMS * 256 */

typedef struct ScanDef {
    char acc[1200];     /* struct Acc, acc_identity(), acc_merge() */
    int acc_bytes;
    char load[400];     /* __device__ Acc load(..., long long i) */
    char kin[200];      /* the kernels' input parameters */
    char kin_args[64];  /* their launch args */
    char call[64];      /* load's arguments before i */
    char kout[200];     /* the outputs of the last launch */
    char kout_args[64];
    char store[600];    /* statements of the last launch for element i (e, exc, run) */
    int exc;            /* store uses exc */
    int count;          /* compaction: launch 2 writes the total to count_name[0] */
    const char *count_name;
    const char *math;
} ScanDef;

static const char *cuda_type(const char *dt)
{
    if (is(dt, "f32")) return "float";
    if (is(dt, "f64")) return "double";
    if (is(dt, "i32")) return "int";
    if (is(dt, "u8")) return "unsigned char";
    return "long long";
}

static const char *cuda_neg_inf(const char *dt)
{
    if (is(dt, "f32")) return "-__int_as_float(0x7f800000)";
    if (is(dt, "f64")) return "-__longlong_as_double(0x7ff0000000000000LL)";
    if (is(dt, "i32")) return "(-2147483647 - 1)";
    return "(-9223372036854775807LL - 1)";
}

static void acc_sum(ScanDef *d, const char *A)
{
    snprintf(d->acc, sizeof d->acc,
             "struct Acc {\n    %s s;\n};\n\n"
             "__device__ Acc acc_identity() { return Acc{0}; }\n"
             "/* a precedes b */\n"
             "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.s + b.s}; }\n", A);
    d->acc_bytes = is(A, "int") ? 4 : 8;
}

/* Fills d for a whole-array kind (or a row kind: the same accumulators over
 * one row, x being the row and n its length). */
static void scan_def(ScanDef *d, const Spec *sp, int row)
{
    const char *k = sp->kind, *dt = sp->dt;
    const char *T = cuda_type(dt);
    int f32 = is(dt, "f32");
    const char *cast = f32 ? "(float)" : "";
    memset(d, 0, sizeof *d);
    const char *kk = row && starts(k, "row-") ? k + 4 : k;
    snprintf(d->kin, sizeof d->kin, "const %s *__restrict__ x", T);
    snprintf(d->kin_args, sizeof d->kin_args, "x");
    snprintf(d->call, sizeof d->call, "x");
    snprintf(d->kout, sizeof d->kout, "%s *__restrict__ y", cuda_type(is(kk, "cummax") ? dt : sum_dtype(dt)));
    snprintf(d->kout_args, sizeof d->kout_args, "y");
    const char *A = is(dt, "f32") || is(dt, "f64") ? "double" : "long long";
    if (is(kk, "incl") || is(kk, "excl") || is(kk, "suffix-sum") || is(kk, "strided-incl") || is(kk, "cummean")) {
        acc_sum(d, A);
        int suf = is(kk, "suffix-sum"), str = is(kk, "strided-incl");
        if (suf)
            snprintf(d->load, sizeof d->load,
                     "/* element i of the reversed array */\n"
                     "__device__ Acc load(const %s *x, int n, long long i) { return Acc{(%s)x[n - 1 - i]}; }\n", T, A);
        else
            snprintf(d->load, sizeof d->load, "__device__ Acc load(const %s *x%s, long long i) { return Acc{(%s)x[i%s]}; }\n",
                     T, str ? ", int stride" : "", A, str ? " * stride" : "");
        if (suf)
            snprintf(d->call, sizeof d->call, "x, n");
        if (str) {
            snprintf(d->kin, sizeof d->kin, "const %s *__restrict__ x, int stride", T);
            snprintf(d->kin_args, sizeof d->kin_args, "x,stride");
            snprintf(d->call, sizeof d->call, "x, stride");
        }
        if (is(kk, "excl"))
            snprintf(d->store, sizeof d->store, "y[i] = %sexc.s;\n", cast), d->exc = 1;
        else if (suf)
            snprintf(d->store, sizeof d->store, "y[n - 1 - i] = %srun.s;\n", cast);
        else if (is(kk, "cummean"))
            snprintf(d->store, sizeof d->store, "y[i] = (float)(run.s / (i + 1));\n");
        else
            snprintf(d->store, sizeof d->store, "y[i] = %srun.s;\n", cast);
    } else if (is(kk, "offsets")) {
        acc_sum(d, "int");
        snprintf(d->load, sizeof d->load, "__device__ Acc load(const int *counts, long long i) { return Acc{counts[i]}; }\n");
        snprintf(d->kin, sizeof d->kin, "const int *__restrict__ counts");
        snprintf(d->kin_args, sizeof d->kin_args, "counts");
        snprintf(d->call, sizeof d->call, "counts");
        snprintf(d->kout, sizeof d->kout, "int *__restrict__ offsets");
        snprintf(d->kout_args, sizeof d->kout_args, "offsets");
        snprintf(d->store, sizeof d->store, "offsets[i + 1] = run.s;\nif (i == 0)\n    offsets[0] = 0;\n");
    } else if (is(kk, "cummax") || is(kk, "cummin") || is(kk, "suffix-max")) {
        int mx = !is(kk, "cummin"), suf = is(kk, "suffix-max");
        char id[64];
        if (mx)
            snprintf(id, sizeof id, "%s", cuda_neg_inf(dt));
        else if (is(dt, "f32") || is(dt, "f64")) /* +infinity */
            snprintf(id, sizeof id, "%s", cuda_neg_inf(dt) + 1);
        else
            snprintf(id, sizeof id, "%s", is(dt, "i32") ? "2147483647" : "9223372036854775807LL");
        snprintf(d->acc, sizeof d->acc,
                 "struct Acc {\n    %s m;\n};\n\n"
                 "__device__ Acc acc_identity() { return Acc{%s}; }\n"
                 "__device__ Acc acc_merge(Acc a, Acc b) { return b.m %c a.m ? b : a; }\n", T, id, mx ? '>' : '<');
        d->acc_bytes = is(T, "double") || is(T, "long long") ? 8 : 4;
        if (suf) {
            snprintf(d->load, sizeof d->load,
                     "/* element i of the reversed array */\n"
                     "__device__ Acc load(const %s *x, int n, long long i) { return Acc{x[n - 1 - i]}; }\n", T);
            snprintf(d->call, sizeof d->call, "x, n");
            snprintf(d->store, sizeof d->store, "y[n - 1 - i] = run.m;\n");
        } else {
            snprintf(d->load, sizeof d->load, "__device__ Acc load(const %s *x, long long i) { return Acc{x[i]}; }\n", T);
            snprintf(d->store, sizeof d->store, "y[i] = run.m;\n");
        }
    } else if (is(kk, "cumprod")) {
        snprintf(d->acc, sizeof d->acc,
                 "struct Acc {\n    double p;\n};\n\n"
                 "__device__ Acc acc_identity() { return Acc{1.0}; }\n"
                 "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.p * b.p}; }\n");
        d->acc_bytes = 8;
        snprintf(d->load, sizeof d->load, "__device__ Acc load(const %s *x, long long i) { return Acc{(double)x[i]}; }\n", T);
        snprintf(d->store, sizeof d->store, "y[i] = %srun.p;\n", cast);
    } else if (starts(kk, "seg-") || starts(kk, "key-")) {
        int key = starts(kk, "key-"), mx = is(kk, "seg-max"), excl = is(kk, "seg-excl");
        const char *V = mx ? T : A;
        snprintf(d->acc, sizeof d->acc,
                 "/* v: the sum (or maximum) since the last segment head; head: a head lies in the range */\n"
                 "struct Acc {\n    %s v;\n    int head;\n};\n\n"
                 "__device__ Acc acc_identity() { return Acc{%s, 0}; }\n"
                 "/* a precedes b: b's value restarts when b holds a head */\n"
                 "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                 "    if (b.head)\n        return b;\n"
                 "    return Acc{%s, a.head};\n}\n",
                 V, mx ? cuda_neg_inf(dt) : "0", mx ? "b.v > a.v ? b.v : a.v" : "a.v + b.v");
        d->acc_bytes = is(V, "float") ? 8 : 16;
        if (key)
            snprintf(d->load, sizeof d->load,
                     "__device__ Acc load(const %s *x, const int *keys, long long i)\n{\n"
                     "    return Acc{(%s)x[i], i == 0 || keys[i] != keys[i - 1]};\n}\n", T, V);
        else
            snprintf(d->load, sizeof d->load,
                     "__device__ Acc load(const %s *x, const unsigned char *flags, long long i)\n{\n"
                     "    return Acc{(%s)x[i], i == 0 || flags[i]};\n}\n", T, V);
        snprintf(d->kin, sizeof d->kin, "const %s *__restrict__ x, const %s *__restrict__ %s", T,
                 key ? "int" : "unsigned char", key ? "keys" : "flags");
        snprintf(d->kin_args, sizeof d->kin_args, "x,%s", key ? "keys" : "flags");
        snprintf(d->call, sizeof d->call, "x, %s", key ? "keys" : "flags");
        if (excl)
            snprintf(d->store, sizeof d->store, "y[i] = e.head ? 0 : exc.v;\n"), d->exc = 1;
        else
            snprintf(d->store, sizeof d->store, "y[i] = %srun.v;\n", mx ? "" : cast);
    } else if (starts(kk, "select") || is(kk, "partition") || is(kk, "unique") || is(kk, "rle")) {
        int even = is(kk, "select-even"), idx = is(kk, "select-idx"), part = is(kk, "partition");
        int pos = is(kk, "select-pos"), uniq = is(kk, "unique"), rle = is(kk, "rle");
        acc_sum(d, "int");
        d->exc = 1;
        d->count = 1;
        d->count_name = rle ? "nruns" : "count";
        if (uniq || rle) {
            snprintf(d->load, sizeof d->load,
                     "/* 1 where a run of equal values starts */\n"
                     "__device__ Acc load(const int *x, long long i) { return Acc{i == 0 || x[i] != x[i - 1]}; }\n");
        } else if (even) {
            snprintf(d->load, sizeof d->load,
                     "__device__ Acc load(const int *x, long long i) { return Acc{x[i] %% 2 == 0}; }\n");
        } else {
            snprintf(d->load, sizeof d->load,
                     "__device__ Acc load(const %s *x, %s thresh, long long i) { return Acc{x[i] > thresh}; }\n", T, T);
            snprintf(d->kin, sizeof d->kin, "const %s *__restrict__ x, %s thresh", T, T);
            snprintf(d->kin_args, sizeof d->kin_args, "x,thresh");
            snprintf(d->call, sizeof d->call, "x, thresh");
        }
        if (rle) {
            snprintf(d->kout, sizeof d->kout, "int *__restrict__ values, int *__restrict__ starts");
            snprintf(d->kout_args, sizeof d->kout_args, "values,starts");
            snprintf(d->store, sizeof d->store, "if (e.s) {\n    values[exc.s] = x[i];\n    starts[exc.s] = (int)i;\n}\n");
        } else if (idx) {
            snprintf(d->kout, sizeof d->kout, "int *__restrict__ idx, const int *__restrict__ count");
            snprintf(d->kout_args, sizeof d->kout_args, "idx,count");
            snprintf(d->store, sizeof d->store, "if (e.s)\n    idx[exc.s] = (int)i;\nif (i >= count[0])\n    idx[i] = -1;\n");
        } else {
            snprintf(d->kout, sizeof d->kout, "%s *__restrict__ out, %sconst int *__restrict__ count", T,
                     pos ? "int *__restrict__ pos, " : "");
            snprintf(d->kout_args, sizeof d->kout_args, "out,%scount", pos ? "pos," : "");
            if (part)
                snprintf(d->store, sizeof d->store,
                         "/* kept elements first, then the others after the count of kept ones */\n"
                         "if (e.s)\n    out[exc.s] = x[i];\nelse\n    out[count[0] + i - exc.s] = x[i];\n");
            else
                snprintf(d->store, sizeof d->store, "%sif (e.s)\n    out[exc.s] = x[i];\nif (i >= count[0])\n    out[i] = 0;\n",
                         pos ? "pos[i] = exc.s;\n" : "");
        }
    } else if (is(kk, "logcumsumexp")) {
        snprintf(d->acc, sizeof d->acc,
                 "/* log of a sum of exponentials; -infinity: the empty sum */\n"
                 "struct Acc {\n    double v;\n};\n\n"
                 "__device__ Acc acc_identity() { return Acc{-__longlong_as_double(0x7ff0000000000000LL)}; }\n"
                 "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                 "    if (a.v == acc_identity().v)\n        return b;\n"
                 "    if (b.v == acc_identity().v)\n        return a;\n"
                 "    const double m = fmax(a.v, b.v);\n"
                 "    return Acc{m + log(exp(a.v - m) + exp(b.v - m))};\n}\n");
        d->acc_bytes = 8;
        snprintf(d->load, sizeof d->load, "__device__ Acc load(const %s *x, long long i) { return Acc{(double)x[i]}; }\n", T);
        snprintf(d->store, sizeof d->store, "y[i] = %srun.v;\n", cast);
    } else { /* ema */
        snprintf(d->acc, sizeof d->acc,
                 "/* the affine map y -> a * y + b */\n"
                 "struct Acc {\n    double a, b;\n};\n\n"
                 "__device__ Acc acc_identity() { return Acc{1.0, 0.0}; }\n"
                 "/* a applied first, then b */\n"
                 "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.a * b.a, b.a * a.b + b.b}; }\n");
        d->acc_bytes = 16;
        snprintf(d->load, sizeof d->load,
                 "/* y[0] = x[0]: the constant map; then y -> decay * y + (1 - decay) * x[i] */\n"
                 "__device__ Acc load(const %s *x, %s decay, long long i)\n{\n"
                 "    if (i == 0)\n        return Acc{0.0, (double)x[0]};\n"
                 "    return Acc{(double)decay, (double)((1 - decay) * x[i])};\n}\n", T, T);
        snprintf(d->kin, sizeof d->kin, "const %s *__restrict__ x, %s decay", T, T);
        snprintf(d->kin_args, sizeof d->kin_args, "x,decay");
        snprintf(d->call, sizeof d->call, "x, decay");
        snprintf(d->store, sizeof d->store, "y[i] = %srun.b;\n", cast);
    }
}

static const char *const BLOCK_SCAN =
    "/* Inclusive scan of sh[0 .. blockDim.x) in place, in order (Hillis-Steele). */\n"
    "__device__ void block_scan(Acc *sh)\n{\n"
    "    for (int d = 1; d < blockDim.x; d <<= 1) {\n"
    "        __syncthreads();\n"
    "        const Acc prev = threadIdx.x >= d ? sh[threadIdx.x - d] : acc_identity();\n"
    "        __syncthreads();\n"
    "        if (threadIdx.x >= d)\n"
    "            sh[threadIdx.x] = acc_merge(prev, sh[threadIdx.x]);\n"
    "    }\n"
    "    __syncthreads();\n}\n\n";

/* Appends text with every line indented by ind. */
static void put_indented(StrBuf *k, const char *ind, const char *text)
{
    for (const char *c = text; *c;) {
        const char *e = strchr(c, '\n');
        size_t len = e ? (size_t)(e - c) : strlen(c);
        sb_append(k, ind);
        sb_append_n(k, c, len);
        sb_putc(k, '\n');
        c += len + (e ? 1 : 0);
    }
}

static void put_decl(StrBuf *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_decl(StrBuf *k, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    tmpl_put_wrapped(k, line);
    sb_append(k, "\n{\n");
}

/* The three (or four) launches of a whole-array scan. */
static void emit_array_scan(GenProgram *p, const Spec *sp, const char *entry, const ScanDef *d)
{
    StrBuf *k = gen_cuda_src(p);
    char args[160], name[96], bytes[64];
    sb_append(k, "/* Reduce-then-scan over tiles of ITEMS * blockDim.x elements: launch 1 reduces\n"
                 " * each tile to one Acc, launch 2 (one block) turns those into exclusive\n"
                 " * prefixes, launch 3 rescans each tile from its prefix and writes the outputs. */\n");
    if (d->count)
        sb_printf(k, "/* The scan runs over the keep flags: launch 2 also writes their total to %s[0],\n"
                     " * launch 3 scatters each kept element to its exclusive prefix.%s */\n", d->count_name,
                  is(sp->kind, "rle") ? "  Launch 4 turns\n * the run starts into lengths." : "");
    sb_printf(k, "#define ITEMS %d /* consecutive elements per thread; a tile is ITEMS * blockDim.x */\n\n",
              SCAN_ITEMS);
    sb_append(k, d->acc);
    sb_append(k, "\n");
    sb_append(k, d->load);
    sb_append(k, "\n");
    sb_append(k, BLOCK_SCAN);

    /* launch 1: one accumulator per tile */
    put_decl(k, "extern \"C\" __global__ void %s_reduce(%s, Acc *__restrict__ tile_acc, int n)", entry, d->kin);
    sb_printf(k, "    extern __shared__ Acc sh[];\n"
                 "    const long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;\n"
                 "    Acc a = acc_identity();\n"
                 "    for (int q = 0; q < ITEMS && first + q < n; q++)\n"
                 "        a = acc_merge(a, load(%s, first + q));\n"
                 "    sh[threadIdx.x] = a;\n"
                 "    block_scan(sh);\n"
                 "    if (threadIdx.x == blockDim.x - 1)\n"
                 "        tile_acc[blockIdx.x] = sh[threadIdx.x];\n}\n\n", d->call);
    /* launch 2: exclusive prefixes of the tile accumulators */
    put_decl(k, "extern \"C\" __global__ void %s_spine(Acc *__restrict__ tile_acc, int ntiles%s%s%s)", entry,
             d->count ? ", int *__restrict__ " : "", d->count ? d->count_name : "", "");
    sb_printf(k, "    extern __shared__ Acc sh[];\n"
                 "    /* each thread takes a run of consecutive tiles */\n"
                 "    const int per = (ntiles + blockDim.x - 1) / blockDim.x;\n"
                 "    const int lo = threadIdx.x * per, hi = lo + per < ntiles ? lo + per : ntiles;\n"
                 "    Acc a = acc_identity();\n"
                 "    for (int b = lo; b < hi; b++)\n"
                 "        a = acc_merge(a, tile_acc[b]);\n"
                 "    sh[threadIdx.x] = a;\n"
                 "    block_scan(sh);\n"
                 "    Acc run = threadIdx.x > 0 ? sh[threadIdx.x - 1] : acc_identity();\n"
                 "    for (int b = lo; b < hi; b++) {\n"
                 "        const Acc t = tile_acc[b];\n"
                 "        tile_acc[b] = run;\n"
                 "        run = acc_merge(run, t);\n"
                 "    }\n");
    if (d->count)
        sb_printf(k, "    if (threadIdx.x == blockDim.x - 1)\n        %s[0] = sh[threadIdx.x].s;\n", d->count_name);
    sb_append(k, "}\n\n");
    /* launch 3: rescan each tile from its prefix */
    put_decl(k, "extern \"C\" __global__ void %s_scan(%s, const Acc *__restrict__ tile_acc, %s, int n)", entry, d->kin,
             d->kout);
    sb_printf(k, "    extern __shared__ Acc sh[];\n"
                 "    const long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;\n"
                 "    Acc a = acc_identity();\n"
                 "    for (int q = 0; q < ITEMS && first + q < n; q++)\n"
                 "        a = acc_merge(a, load(%s, first + q));\n"
                 "    sh[threadIdx.x] = a;\n"
                 "    block_scan(sh);\n"
                 "    /* everything before this thread's first element */\n"
                 "    Acc run = tile_acc[blockIdx.x];\n"
                 "    if (threadIdx.x > 0)\n"
                 "        run = acc_merge(run, sh[threadIdx.x - 1]);\n"
                 "    for (int q = 0; q < ITEMS && first + q < n; q++) {\n"
                 "        const long long i = first + q;\n"
                 "        const Acc e = load(%s, i);\n", d->call, d->call);
    if (d->exc)
        sb_append(k, "        const Acc exc = run;\n");
    sb_append(k, "        run = acc_merge(run, e);\n");
    put_indented(k, "        ", d->store);
    sb_append(k, "    }\n}\n");

    int rle = is(sp->kind, "rle");
    if (rle)
        sb_append(k, "\n/* lengths from the run starts; entries from nruns on are 0 */\n"
                     "extern \"C\" __global__ void run_length_encode_lengths(int *__restrict__ values,\n"
                     "        int *__restrict__ lengths, const int *__restrict__ starts, const int *__restrict__ nruns,\n"
                     "        int n)\n{\n"
                     "    const int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (k >= n)\n        return;\n"
                     "    const int m = nruns[0];\n"
                     "    if (k < m) {\n"
                     "        lengths[k] = (k + 1 < m ? starts[k + 1] : n) - starts[k];\n"
                     "    } else {\n"
                     "        values[k] = 0;\n"
                     "        lengths[k] = 0;\n"
                     "    }\n}\n");

    /* the plan */
    snprintf(bytes, sizeof bytes, "((n+%s-1)/%s)*%d", SCAN_TILE, SCAN_TILE, d->acc_bytes);
    gen_scratch(p, "tile_acc", "u8", bytes);
    if (rle)
        gen_scratch(p, "starts", "i32", "n");
    char grid[48], smem[32], ntiles[48];
    snprintf(grid, sizeof grid, "(n+%s-1)/%s", SCAN_TILE, SCAN_TILE);
    snprintf(ntiles, sizeof ntiles, "(n+%s-1)/%s", SCAN_TILE, SCAN_TILE);
    snprintf(smem, sizeof smem, "256*%d", d->acc_bytes);
    snprintf(name, sizeof name, "%s_reduce", entry);
    snprintf(args, sizeof args, "%s,tile_acc,n", d->kin_args);
    gen_launch(p, name, grid, "256", smem, args);
    snprintf(name, sizeof name, "%s_spine", entry);
    snprintf(args, sizeof args, "tile_acc,%s%s%s", ntiles, d->count ? "," : "", d->count ? d->count_name : "");
    gen_launch(p, name, "1", "256", smem, args);
    snprintf(name, sizeof name, "%s_scan", entry);
    snprintf(args, sizeof args, "%s,tile_acc,%s,n", d->kin_args, d->kout_args);
    gen_launch(p, name, grid, "256", smem, args);
    if (rle)
        gen_launch(p, "run_length_encode_lengths", "(n+255)/256", "256", NULL, "values,lengths,starts,nruns,n");
    gen_knob(p, "block", "256");
    gen_knob(p, "items_per_thread", "4");
    gen_knob(p, "mapping", "reduce-then-scan-tiles");
    gen_knob(p, "launches", rle ? "4" : "3");
}

/* Row scans: one block per row, in blockDim.x chunks with a carry. */
static void emit_row_scan(GenProgram *p, const Spec *sp, const char *entry, const ScanDef *d)
{
    StrBuf *k = gen_cuda_src(p);
    int suf = strstr(sp->kind, "suffix") != NULL;
    const char *T = cuda_type(sp->dt);
    const char *Y = cuda_type(strstr(sp->kind, "cummax") ? sp->dt : sum_dtype(sp->dt));
    sb_append(k, d->acc);
    sb_append(k, "\n");
    sb_append(k, d->load);
    sb_append(k, "\n");
    sb_append(k, BLOCK_SCAN);
    put_decl(k, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int r, int c)", entry,
             T, Y);
    sb_printf(k, "    extern __shared__ Acc sh[];\n"
                 "    const %s *row = x + (long long)blockIdx.x * c;\n"
                 "    %s *out = y + (long long)blockIdx.x * c;\n"
                 "    Acc carry = acc_identity(); /* the merge of the chunks before */\n"
                 "    for (int base = 0; base < c; base += blockDim.x) {\n"
                 "        const int j = base + threadIdx.x;\n"
                 "        sh[threadIdx.x] = j < c ? load(row, %sj) : acc_identity();\n"
                 "        block_scan(sh);\n", T, Y, suf ? "c, " : "");
    if (d->exc)
        sb_append(k, "        const Acc exc = threadIdx.x > 0 ? acc_merge(carry, sh[threadIdx.x - 1]) : carry;\n");
    else
        sb_append(k, "        const Acc run = acc_merge(carry, sh[threadIdx.x]);\n");
    /* the store, over out[] at position j */
    char st[256];
    const char *src = d->store;
    size_t o = 0;
    for (const char *c = src; *c && o + 16 < sizeof st;) {
        if (strncmp(c, "y[n - 1 - i]", 12) == 0) {
            o += (size_t)snprintf(st + o, sizeof st - o, "out[c - 1 - j]");
            c += 12;
        } else if (strncmp(c, "y[i]", 4) == 0) {
            o += (size_t)snprintf(st + o, sizeof st - o, "out[j]");
            c += 4;
        } else {
            st[o++] = *c++;
        }
    }
    st[o] = '\0';
    sb_append(k, "        if (j < c)\n");
    put_indented(k, "            ", st);
    sb_append(k, "        carry = acc_merge(carry, sh[blockDim.x - 1]);\n"
                 "        __syncthreads(); /* sh is rewritten by the next chunk */\n"
                 "    }\n}\n");
    char smem[32];
    snprintf(smem, sizeof smem, "256*%d", d->acc_bytes);
    gen_launch(p, entry, "r", "256", smem, "x,y,r,c");
    gen_knob(p, "block", "256");
    gen_knob(p, "mapping", "one-row-per-block-chunked-scan");
}

/* doc: the C program's leading comment, copied to the top of kernel.cu. */
static void emit_cuda(GenProgram *p, const Spec *sp, const char *entry, const char *doc)
{
    StrBuf *k = gen_cuda_src(p);
    const char *kd = sp->kind;
    sb_append(k, doc);
    if (is(kd, "sat")) {
        sb_append(k, "/* Launch 1: each row's running sum (one block per row, chunked Hillis-Steele\n"
                     " * scans with a carry); launch 2: one thread per column adds the rows above. */\n");
        sb_append(k, "struct Acc {\n    long long s;\n};\n\n"
                     "__device__ Acc acc_identity() { return Acc{0}; }\n"
                     "__device__ Acc acc_merge(Acc a, Acc b) { return Acc{a.s + b.s}; }\n\n");
        sb_append(k, BLOCK_SCAN);
        sb_append(k, "extern \"C\" __global__ void summed_area_rows(const unsigned char *__restrict__ img,\n"
                     "        long long *__restrict__ sat, int r, int c)\n{\n"
                     "    extern __shared__ Acc sh[];\n"
                     "    const unsigned char *row = img + (long long)blockIdx.x * c;\n"
                     "    long long *out = sat + (long long)blockIdx.x * c;\n"
                     "    Acc carry = acc_identity();\n"
                     "    for (int base = 0; base < c; base += blockDim.x) {\n"
                     "        const int j = base + threadIdx.x;\n"
                     "        sh[threadIdx.x] = j < c ? Acc{row[j]} : acc_identity();\n"
                     "        block_scan(sh);\n"
                     "        if (j < c)\n            out[j] = carry.s + sh[threadIdx.x].s;\n"
                     "        carry = acc_merge(carry, sh[blockDim.x - 1]);\n"
                     "        __syncthreads();\n"
                     "    }\n}\n\n"
                     "extern \"C\" __global__ void summed_area_cols(long long *__restrict__ sat, int r, int c)\n{\n"
                     "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (j >= c)\n        return;\n"
                     "    for (int i = 1; i < r; i++)\n"
                     "        sat[(long long)i * c + j] += sat[(long long)(i - 1) * c + j];\n}\n");
        gen_launch(p, "summed_area_rows", "r", "256", "256*8", "img,sat,r,c");
        gen_launch(p, "summed_area_cols", "(c+255)/256", "256", NULL, "sat,r,c");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "row-scan-per-block-then-column-per-thread");
        gen_knob(p, "launches", "2");
        return;
    }
    if (starts(kd, "col-")) {
        const char *T = cuda_type(sp->dt);
        sb_append(k, "/* One thread per column, walking the rows (neighbouring threads take\n"
                     " * neighbouring columns). */\n");
        put_decl(k, "extern \"C\" __global__ void %s(const %s *__restrict__ x, %s *__restrict__ y, int r, int c)",
                 entry, T, T);
        sb_append(k, "    const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (j >= c)\n        return;\n");
        if (strstr(kd, "cummax"))
            sb_printf(k, "    %s m = x[j];\n    for (int i = 0; i < r; i++) {\n"
                         "        const long long q = (long long)i * c + j;\n"
                         "        if (x[q] > m)\n            m = x[q];\n        y[q] = m;\n    }\n}\n", T);
        else
            sb_printf(k, "    double acc = 0.0;\n    for (int i = 0; i < r; i++) {\n"
                         "        const long long q = (long long)i * c + j;\n"
                         "        acc += x[q];\n        y[q] = %sacc;\n    }\n}\n", is(sp->dt, "f32") ? "(float)" : "");
        gen_launch(p, entry, "(c+255)/256", "256", NULL, "x,y,r,c");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "one-column-per-thread");
        return;
    }
    ScanDef d;
    scan_def(&d, sp, starts(kd, "row-"));
    if (starts(kd, "row-")) {
        sb_append(k, "/* One block per row, scanned in blockDim.x chunks (Hillis-Steele in shared\n"
                     " * memory) with the running carry of the chunks before. */\n");
        emit_row_scan(p, sp, entry, &d);
    } else {
        emit_array_scan(p, sp, entry, &d);
    }
}

static int generate(GenCtx *g)
{
    for (int q = 0; q < NSPECS; q++) {
        const Spec *sp = &SPECS[q];
        const char *k = sp->kind, *dt = sp->dt;
        const char *T = ctype(dt);
        int f32 = is(dt, "f32"), f64 = is(dt, "f64"), fl = f32 || f64;
        int wide = f64 || is(dt, "i64");
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%s", k, dt);
        StrBuf body = STRBUF_INIT, *s = &body;
        const char *entry = "scan";
        GenProgram *p = NULL;
        char flops[48] = "n", bytes[96] = "";
        const char *yd = dt; /* output dtype */

#define BEGIN(name) (entry = (name), p = gen_begin(g, variant, entry))
        if (is(k, "incl") || is(k, "excl") || is(k, "suffix-sum") || is(k, "strided-incl")) {
            int excl = is(k, "excl"), suf = is(k, "suffix-sum"), str = is(k, "strided-incl");
            yd = sum_dtype(dt);
            BEGIN(excl ? "exclusive_scan" : suf ? "suffix_sum" : str ? "strided_inclusive_scan" : "inclusive_scan");
            gen_describe(p, "%s prefix sum (%s)", excl ? "exclusive" : suf ? "suffix (reverse)" : "inclusive", dt);
            gen_arg(p, "x", dt, "in", str ? "n*stride" : "n");
            gen_arg(p, "y", yd, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (str)
                gen_arg(p, "stride", "i32", "param", NULL);
            set_sum_fill(p, dt);
            if (excl)
                sb_append(s, "/* y[i] = x[0] + ... + x[i-1], so y[0] = 0. */\n");
            else if (suf)
                sb_append(s, "/* y[i] = x[i] + x[i+1] + ... + x[n-1]. */\n");
            else if (str)
                sb_append(s, "/* y[i] = x[0] + x[stride] + ... + x[i*stride]: the prefix sums of every\n"
                             " * stride-th element. */\n");
            else
                sb_append(s, "/* y[i] = x[0] + x[1] + ... + x[i]. */\n");
            if (f32)
                sb_append(s, "/* The running sum is kept in double. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, int n%s)\n{\n", entry, T, ctype(yd), str ? ", int stride" : "");
            sb_printf(s, "    %s s = 0;\n", acc_type(dt));
            if (excl)
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        y[i] = %ss;\n        s += x[i];\n    }\n",
                          cast_of(dt));
            else if (suf)
                sb_printf(s, "    for (int i = n - 1; i >= 0; i--) {\n        s += x[i];\n        y[i] = %ss;\n    }\n",
                          cast_of(dt));
            else
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        s += x[%s];\n        y[i] = %ss;\n    }\n",
                          str ? "i * stride" : "i", cast_of(dt));
            sb_append(s, "}\n");
        } else if (is(k, "offsets")) {
            BEGIN("counts_to_offsets");
            gen_describe(p, "offsets from counts: an exclusive prefix sum with the total appended");
            gen_arg(p, "counts", dt, "in", "n");
            gen_arg(p, "offsets", dt, "out", "n+1");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_int(p, "counts", "0", "8");
            sb_append(s, "/* offsets[i] = counts[0] + ... + counts[i-1], for i = 0..n: where each bucket\n"
                         " * starts in a packed array, with the total in offsets[n].  Counts are below 8,\n"
                         " * so the total fits an int for any n below 2^28. */\n");
            sb_printf(s, "void %s(const int32_t *counts, int32_t *offsets, int n)\n{\n", entry);
            sb_append(s, "    offsets[0] = 0;\n    for (int i = 0; i < n; i++)\n"
                         "        offsets[i + 1] = offsets[i] + counts[i];\n}\n");
            snprintf(bytes, sizeof bytes, "8*n+4");
        } else if (is(k, "cummax") || is(k, "cummin") || is(k, "suffix-max")) {
            int mx = !is(k, "cummin"), suf = is(k, "suffix-max");
            BEGIN(suf ? "suffix_max" : mx ? "cummax" : "cummin");
            gen_describe(p, "%s running %s (%s)", suf ? "reverse" : "prefix", mx ? "maximum" : "minimum", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (is(dt, "i32"))
                gen_fill_int(p, "x", "-1000000000", "1000000000");
            else if (is(dt, "i64"))
                gen_fill_int(p, "x", "-1000000000000", "1000000000000");
            if (suf) {
                sb_append(s, "/* y[i] = max(x[i], x[i+1], ..., x[n-1]). */\n");
                sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
                sb_printf(s, "    %s m = x[n - 1];\n    for (int i = n - 1; i >= 0; i--) {\n"
                             "        if (x[i] > m)\n            m = x[i];\n        y[i] = m;\n    }\n}\n", T);
            } else {
                sb_printf(s, "/* y[i] = %s(x[0], ..., x[i]). */\n", mx ? "max" : "min");
                sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
                sb_printf(s, "    %s m = x[0];\n    for (int i = 0; i < n; i++) {\n"
                             "        if (x[i] %c m)\n            m = x[i];\n        y[i] = m;\n    }\n}\n",
                          T, mx ? '>' : '<');
            }
        } else if (is(k, "cumprod")) {
            BEGIN("cumprod");
            gen_describe(p, "prefix product of values near 1 (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", 0.9999, 1.0001);
            sb_printf(s, "/* y[i] = x[0] * x[1] * ... * x[i]; the factors are close to 1.%s */\n",
                      f32 ? "\n * The running product is kept in double." : "");
            sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
            sb_printf(s, "    double p = 1.0;\n    for (int i = 0; i < n; i++) {\n        p *= x[i];\n"
                         "        y[i] = %sp;\n    }\n}\n", cast_of(dt));
        } else if (starts(k, "row-") || starts(k, "col-")) {
            int col = starts(k, "col-");
            int excl = is(k, "row-excl"), mx = strstr(k, "cummax") != NULL, suf = is(k, "row-suffix-sum");
            yd = mx ? dt : sum_dtype(dt);
            const char *Y = ctype(yd);
            char name[48];
            snprintf(name, sizeof name, "%s_%s", col ? "col" : "row",
                     mx ? "cummax" : excl ? "exclusive_cumsum" : suf ? "suffix_sum" : "cumsum");
            BEGIN(name);
            gen_describe(p, "%s %s along each %s of an r x c row-major matrix (%s)", excl ? "exclusive" : suf ? "reverse" : "inclusive",
                         mx ? "running maximum" : "prefix sum", col ? "column" : "row", dt);
            gen_arg(p, "x", dt, "in", "r,c");
            gen_arg(p, "y", yd, "out", "r,c");
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            if (mx && is(dt, "i32"))
                gen_fill_int(p, "x", "-1000000000", "1000000000");
            else if (!mx)
                set_sum_fill(p, dt);
            if (col) {
                sb_printf(s, "/* Down each column of the r x c row-major matrix x:\n *   y[i][j] = %s.\n",
                          mx ? "max(x[0][j], ..., x[i][j])" : "x[0][j] + ... + x[i][j]");
                sb_append(s, " * Sweeps the rows, carrying one running value per column. */\n");
                sb_printf(s, "void %s(const %s *x, %s *y, int r, int c)\n{\n", entry, T, Y);
                if (mx) {
                    sb_printf(s, "    for (int j = 0; j < c; j++)\n        y[j] = x[j];\n"
                                 "    for (int i = 1; i < r; i++) {\n"
                                 "        const %s *row = x + (size_t)i * c;\n"
                                 "        const %s *prev = y + (size_t)(i - 1) * c;\n"
                                 "        %s *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++)\n"
                                 "            out[j] = row[j] > prev[j] ? row[j] : prev[j];\n    }\n}\n", T, T, T);
                } else if (f32) {
                    sb_append(s, "    double *acc = malloc((size_t)c * sizeof *acc);\n    if (!acc)\n        return;\n"
                                 "    for (int j = 0; j < c; j++)\n        acc[j] = 0.0;\n"
                                 "    for (int i = 0; i < r; i++) {\n"
                                 "        const float *row = x + (size_t)i * c;\n"
                                 "        float *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++) {\n"
                                 "            acc[j] += row[j];\n            out[j] = (float)acc[j];\n        }\n"
                                 "    }\n    free(acc);\n}\n");
                } else {
                    sb_printf(s, "    for (int j = 0; j < c; j++)\n        y[j] = x[j];\n"
                                 "    for (int i = 1; i < r; i++) {\n"
                                 "        const %s *row = x + (size_t)i * c;\n"
                                 "        const %s *prev = y + (size_t)(i - 1) * c;\n"
                                 "        %s *out = y + (size_t)i * c;\n"
                                 "        for (int j = 0; j < c; j++)\n"
                                 "            out[j] = prev[j] + row[j];\n    }\n}\n", T, Y, Y);
                }
            } else {
                sb_printf(s, "/* Along each row of the r x c row-major matrix x:\n *   y[i][j] = %s. */\n",
                          mx ? "max(x[i][0], ..., x[i][j])" : excl ? "x[i][0] + ... + x[i][j-1] (0 for j = 0)"
                          : suf ? "x[i][j] + ... + x[i][c-1]" : "x[i][0] + ... + x[i][j]");
                sb_printf(s, "void %s(const %s *x, %s *y, int r, int c)\n{\n", entry, T, Y);
                sb_printf(s, "    for (int i = 0; i < r; i++) {\n        const %s *row = x + (size_t)i * c;\n"
                             "        %s *out = y + (size_t)i * c;\n", T, Y);
                if (mx)
                    sb_printf(s, "        %s m = row[0];\n        for (int j = 0; j < c; j++) {\n"
                                 "            if (row[j] > m)\n                m = row[j];\n"
                                 "            out[j] = m;\n        }\n", T);
                else if (excl)
                    sb_printf(s, "        %s s = 0;\n        for (int j = 0; j < c; j++) {\n"
                                 "            out[j] = %ss;\n            s += row[j];\n        }\n",
                              acc_type(dt), cast_of(dt));
                else if (suf)
                    sb_printf(s, "        %s s = 0;\n        for (int j = c - 1; j >= 0; j--) {\n"
                                 "            s += row[j];\n            out[j] = %ss;\n        }\n",
                              acc_type(dt), cast_of(dt));
                else
                    sb_printf(s, "        %s s = 0;\n        for (int j = 0; j < c; j++) {\n"
                                 "            s += row[j];\n            out[j] = %ss;\n        }\n",
                              acc_type(dt), cast_of(dt));
                sb_append(s, "    }\n}\n");
            }
            snprintf(flops, sizeof flops, "r*c");
            snprintf(bytes, sizeof bytes, "%d*r*c", size_of(dt) + size_of(yd));
        } else if (is(k, "sat")) {
            yd = "i64";
            BEGIN("summed_area_table");
            gen_describe(p, "summed-area table (integral image) of an r x c u8 image");
            gen_arg(p, "img", "u8", "in", "r,c");
            gen_arg(p, "sat", "i64", "out", "r,c");
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            sb_append(s, "/* sat[i][j] = sum of img[a][b] over a <= i, b <= j, for an r x c row-major\n"
                         " * u8 image: each row's running sum plus the table's row above. */\n");
            sb_printf(s, "void %s(const uint8_t *img, int64_t *sat, int r, int c)\n{\n", entry);
            sb_append(s, "    int64_t run = 0;\n    for (int j = 0; j < c; j++) {\n"
                         "        run += img[j];\n        sat[j] = run;\n    }\n"
                         "    for (int i = 1; i < r; i++) {\n"
                         "        const uint8_t *row = img + (size_t)i * c;\n"
                         "        const int64_t *above = sat + (size_t)(i - 1) * c;\n"
                         "        int64_t *out = sat + (size_t)i * c;\n"
                         "        run = 0;\n"
                         "        for (int j = 0; j < c; j++) {\n"
                         "            run += row[j];\n"
                         "            out[j] = above[j] + run;\n"
                         "        }\n    }\n}\n");
            snprintf(flops, sizeof flops, "2*r*c");
            snprintf(bytes, sizeof bytes, "9*r*c");
        } else if (starts(k, "seg-") || starts(k, "key-")) {
            int key = starts(k, "key-"), excl = is(k, "seg-excl"), mx = is(k, "seg-max");
            yd = mx ? dt : sum_dtype(dt);
            const char *Y = ctype(yd);
            BEGIN(key ? "scan_by_key" : mx ? "segmented_cummax" : excl ? "segmented_exclusive_scan"
                                                                   : "segmented_inclusive_scan");
            gen_describe(p, "segmented %s %s (%s), segments given by %s", excl ? "exclusive" : "inclusive",
                         mx ? "running maximum" : "prefix sum", dt, key ? "runs of equal sorted keys" : "head flags");
            gen_arg(p, "x", dt, "in", "n");
            if (key)
                gen_arg(p, "keys", "i32", "in", "n");
            else
                gen_arg(p, "flags", "u8", "in", "n");
            gen_arg(p, "y", yd, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            if (key) {
                gen_fill_int(p, "keys", "0", "n/16+1");
                gen_fill_sorted(p, "keys");
            } else {
                gen_fill_int(p, "flags", "0", "2");
            }
            if (!mx)
                set_sum_fill(p, dt);
            if (key)
                sb_append(s, "/* A segment is a run of equal keys (keys are sorted); within each segment\n"
                             " *   y[i] = x[start] + ... + x[i]. */\n");
            else
                sb_printf(s, "/* flags[i] != 0 starts a new segment at i (a segment also starts at 0);\n"
                             " * within each segment\n *   y[i] = %s. */\n",
                          mx ? "max(x[start], ..., x[i])" : excl ? "x[start] + ... + x[i-1] (0 at the start)"
                                                              : "x[start] + ... + x[i]");
            if (f32 && !mx)
                sb_append(s, "/* The running sum is kept in double. */\n");
            sb_printf(s, "void %s(const %s *x, const %s *%s, %s *y, int n)\n{\n", entry, T,
                      key ? "int32_t" : "uint8_t", key ? "keys" : "flags", Y);
            const char *head = key ? "i == 0 || keys[i] != keys[i - 1]" : "i == 0 || flags[i]";
            if (mx)
                sb_printf(s, "    %s m = x[0];\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s || x[i] > m)\n            m = x[i];\n"
                             "        y[i] = m;\n    }\n}\n", T, head);
            else if (excl)
                sb_printf(s, "    %s s = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s)\n            s = 0;\n"
                             "        y[i] = s;\n        s += x[i];\n    }\n}\n", acc_type(dt), head);
            else
                sb_printf(s, "    %s s = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (%s)\n            s = 0;\n"
                             "        s += x[i];\n        y[i] = %ss;\n    }\n}\n", acc_type(dt), head, cast_of(dt));
            snprintf(bytes, sizeof bytes, "%d*n", size_of(dt) + size_of(yd) + (key ? 4 : 1));
        } else if (starts(k, "select") || is(k, "partition")) {
            int even = is(k, "select-even"), idx = is(k, "select-idx"), part = is(k, "partition");
            int pos = is(k, "select-pos");
            BEGIN(even ? "select_even" : idx ? "select_indices" : part ? "partition_above"
                  : pos ? "compact_with_positions" : "select_above");
            gen_describe(p, "stream compaction (%s): %s", dt,
                         even ? "keep the even values" : idx ? "indices of the elements above a threshold"
                         : part ? "stable partition around a threshold"
                         : pos ? "keep the elements above a threshold, also returning each element's scatter position"
                               : "keep the elements above a threshold");
            gen_arg(p, "x", dt, "in", "n");
            if (idx)
                gen_arg(p, "idx", "i32", "out", "n");
            else
                gen_arg(p, "out", dt, "out", "n");
            if (pos)
                gen_arg(p, "pos", "i32", "out", "n");
            gen_arg(p, "count", "i32", "out", "1");
            double t = 0;
            if (!even) {
                t = fl ? gen_randint(g, -60, 60) / 100.0 : gen_randint(g, 200, 800);
                gen_scalar(p, "thresh", dt, t);
            }
            gen_arg(p, "n", "i32", "param", NULL);
            if (!fl)
                gen_fill_int(p, "x", "0", "1000");
            const char *keep = even ? "x[i] % 2 == 0" : "x[i] > thresh";
            if (even)
                sb_append(s, "/* Keeps the even values of x, in order: out[0..count) holds them and the rest\n"
                             " * of out is zeroed. */\n");
            else if (idx)
                sb_append(s, "/* The indices i with x[i] > thresh, ascending: idx[0..count) holds them and\n"
                             " * the rest of idx is -1. */\n");
            else if (part)
                sb_append(s, "/* Stable partition: the elements with x[i] > thresh first, then the others,\n"
                             " * each group in its original order; count is the size of the first group. */\n");
            else if (pos)
                sb_append(s, "/* Compaction through an exclusive scan of the predicate x[i] > thresh:\n"
                             " * pos[i] is the number of kept elements before i (where x[i] goes if kept),\n"
                             " * out[0..count) holds the kept elements in order and the rest of out is 0. */\n");
            else
                sb_append(s, "/* Keeps the elements with x[i] > thresh, in order: out[0..count) holds them\n"
                             " * and the rest of out is zeroed. */\n");
            sb_printf(s, "void %s(const %s *x, %s *%s, %sint32_t *count, ", entry, T, idx ? "int32_t" : T,
                      idx ? "idx" : "out", pos ? "int32_t *pos, " : "");
            if (!even)
                sb_printf(s, "%s thresh, ", T);
            sb_append(s, "int n)\n{\n    int m = 0;\n");
            if (part) {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            out[m++] = x[i];\n"
                             "    *count = m;\n"
                             "    for (int i = 0; i < n; i++)\n        if (!(%s))\n            out[m++] = x[i];\n}\n",
                          keep, keep);
            } else if (pos) {
                sb_printf(s, "    for (int i = 0; i < n; i++) {\n        pos[i] = m;\n"
                             "        if (%s)\n            out[m++] = x[i];\n    }\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        out[i] = 0;\n}\n", keep);
            } else if (idx) {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            idx[m++] = i;\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        idx[i] = -1;\n}\n", keep);
            } else {
                sb_printf(s, "    for (int i = 0; i < n; i++)\n        if (%s)\n            out[m++] = x[i];\n"
                             "    *count = m;\n    memset(out + m, 0, (size_t)(n - m) * sizeof *out);\n}\n", keep);
            }
            snprintf(bytes, sizeof bytes, "%d*n+4", 2 * size_of(dt) + (pos ? 4 : 0));
        } else if (is(k, "unique") || is(k, "rle")) {
            int rle = is(k, "rle");
            BEGIN(rle ? "run_length_encode" : "unique_sorted");
            gen_describe(p, rle ? "run-length encoding of an i32 array" : "unique values of a sorted i32 array");
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, rle ? "values" : "out", dt, "out", "n");
            if (rle)
                gen_arg(p, "lengths", "i32", "out", "n");
            gen_arg(p, rle ? "nruns" : "count", "i32", "out", "1");
            gen_arg(p, "n", "i32", "param", NULL);
            if (rle) {
                gen_fill_int(p, "x", "0", "3");
                sb_append(s, "/* Run-length encoding: the array is a sequence of *nruns maximal runs of\n"
                             " * equal values; run k has value values[k] and length lengths[k].  Entries\n"
                             " * from *nruns on are 0. */\n");
                sb_printf(s, "void %s(const int32_t *x, int32_t *values, int32_t *lengths, int32_t *nruns, int n)\n{\n",
                          entry);
                sb_append(s, "    int m = 0;\n    for (int i = 0; i < n; i++) {\n"
                             "        if (i == 0 || x[i] != x[i - 1]) {\n"
                             "            values[m] = x[i];\n            lengths[m] = 0;\n            m++;\n        }\n"
                             "        lengths[m - 1]++;\n    }\n    *nruns = m;\n"
                             "    for (int i = m; i < n; i++) {\n        values[i] = 0;\n        lengths[i] = 0;\n    }\n}\n");
                snprintf(bytes, sizeof bytes, "12*n+4");
            } else {
                gen_fill_int(p, "x", "0", "n/4+1");
                gen_fill_sorted(p, "x");
                sb_append(s, "/* The distinct values of the sorted array x, ascending: out[0..count) holds\n"
                             " * them (the first element of each run of equal values) and the rest of out\n"
                             " * is 0. */\n");
                sb_printf(s, "void %s(const int32_t *x, int32_t *out, int32_t *count, int n)\n{\n", entry);
                sb_append(s, "    int m = 0;\n    for (int i = 0; i < n; i++)\n"
                             "        if (i == 0 || x[i] != x[i - 1])\n            out[m++] = x[i];\n"
                             "    *count = m;\n    for (int i = m; i < n; i++)\n        out[i] = 0;\n}\n");
                snprintf(bytes, sizeof bytes, "8*n+4");
            }
        } else if (is(k, "logcumsumexp")) {
            BEGIN("logcumsumexp");
            gen_describe(p, "y[i] = log(exp(x[0]) + ... + exp(x[i])) (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", -5.0, 5.0);
            sb_append(s, "/* y[i] = log(exp(x[0]) + ... + exp(x[i])), updated stably as\n"
                         " * y[i] = m + log(exp(y[i-1] - m) + exp(x[i] - m)) with m the larger term. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, int n)\n{\n", entry, T, T);
            sb_printf(s, "    double acc = x[0];\n    y[0] = x[0];\n    for (int i = 1; i < n; i++) {\n"
                         "        double m = fmax(acc, x[i]);\n"
                         "        acc = m + log(exp(acc - m) + exp(x[i] - m));\n"
                         "        y[i] = %sacc;\n    }\n}\n", cast_of(dt));
            snprintf(flops, sizeof flops, "6*n");
        } else if (is(k, "cummean")) {
            BEGIN("running_mean");
            gen_describe(p, "running mean y[i] = (x[0] + ... + x[i]) / (i + 1) (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_arg(p, "n", "i32", "param", NULL);
            gen_fill_uniform(p, "x", 0.0, 1.0);
            sb_append(s, "/* y[i] = (x[0] + ... + x[i]) / (i + 1), the running sum kept in double. */\n");
            sb_printf(s, "void %s(const float *x, float *y, int n)\n{\n", entry);
            sb_append(s, "    double s = 0.0;\n    for (int i = 0; i < n; i++) {\n        s += x[i];\n"
                         "        y[i] = (float)(s / (i + 1));\n    }\n}\n");
            snprintf(flops, sizeof flops, "2*n");
        } else { /* ema */
            BEGIN("exponential_moving_average");
            gen_describe(p, "exponential moving average, a first-order linear recurrence (%s)", dt);
            gen_arg(p, "x", dt, "in", "n");
            gen_arg(p, "y", dt, "out", "n");
            gen_scalar(p, "decay", dt, f32 ? 0.9 : 0.99);
            gen_arg(p, "n", "i32", "param", NULL);
            sb_append(s, "/* y[0] = x[0], y[i] = decay * y[i-1] + (1 - decay) * x[i]: a scan over the\n"
                         " * affine maps y -> decay * y + (1 - decay) * x[i]. */\n");
            sb_printf(s, "void %s(const %s *x, %s *y, %s decay, int n)\n{\n", entry, T, T, T);
            sb_printf(s, "    %s acc = x[0];\n    y[0] = x[0];\n    for (int i = 1; i < n; i++) {\n"
                         "        acc = decay * acc + (1 - decay) * x[i];\n        y[i] = %sacc;\n    }\n}\n",
                      "double", cast_of(dt));
            snprintf(flops, sizeof flops, "3*n");
        }
#undef BEGIN

        /* Shapes and configs. */
        if (is_row(sp)) {
            gen_config(p, "small", "r=256,c=300");
            gen_config(p, "edge", "r=1,c=1");
            gen_config(p, "edge-thin", starts(k, "col-") ? "r=7,c=1" : "r=1,c=7");
            gen_config(p, "edge-prime", "r=37,c=131");
            const char *large = (wide ? LARGE64 : LARGE32)[q % 4];
            if (is(k, "sat"))
                large = "r=8192,c=16384";
            else if (starts(k, "col-") && q % 4 == 3)
                large = wide ? "r=8192,c=8192" : "r=16384,c=8192"; /* not 2^21 rows of a running column */
            gen_config(p, "large", large);
        } else if (is(k, "strided-incl")) {
            gen_config(p, "small", "n=40000,stride=3");
            gen_config(p, "edge", "n=1,stride=2");
            gen_config(p, "edge-prime", "n=1021,stride=5");
            gen_config(p, "large", wide ? "n=16777216,stride=4" : "n=33554432,stride=4");
        } else {
            gen_config(p, "small", "n=100000");
            gen_config(p, "edge", "n=1");
            gen_config(p, "edge-prime", "n=7919");
            gen_config(p, "large", wide || is(yd, "i64") ? "n=67108864" : "n=134217728");
        }
        /* Tolerances. */
        if (is(yd, "f32")) {
            if (is(k, "cumprod"))
                gen_tolerance(p, 1e-5, 1e-3);
            else if (is(k, "logcumsumexp"))
                gen_tolerance(p, 1e-4, 1e-4);
            else if (!strstr(k, "max") && !strstr(k, "min") && !starts(k, "select") && !is(k, "partition"))
                gen_tolerance(p, 1e-4, 1e-3);
        } else if (is(yd, "f64")) {
            if (is(k, "cumprod"))
                gen_tolerance(p, 1e-12, 1e-8);
            else if (!strstr(k, "max") && !strstr(k, "min") && !starts(k, "select") && !is(k, "partition"))
                gen_tolerance(p, 1e-9, 1e-9);
        }
        if (!bytes[0])
            snprintf(bytes, sizeof bytes, "%d*n", size_of(dt) + size_of(yd));
        gen_cost(p, flops, bytes);
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        {
            const char *body_text = sb_str(s), *fn = strstr(body_text, "\nvoid ");
            StrBuf doc = STRBUF_INIT;
            sb_append_n(&doc, body_text, fn ? (size_t)(fn - body_text) + 1 : 0);
            emit_cuda(p, sp, entry, sb_str(&doc));
            sb_release(&doc);
        }
        sb_release(s);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_scan = {"scan", "scan", 54, generate};
