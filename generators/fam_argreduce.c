/* argreduce — positions of extremes: argmax / argmin over a whole array,
 * per row and per column of an r x c matrix, always with the first
 * occurrence winning ties; argmax of |x| (BLAS iamax), top-1 value with its
 * index (greedy decoding), the element nearest to a target, argmax of
 * logits plus a bias vector, and argmax restricted by a mask (-1 when
 * nothing qualifies).  Programs vary by scope, criterion, dtype (f32, f64,
 * i32 drawn from a wide range so ties are rare), index dtype (i32, i64) and
 * layout (contiguous or strided arrays; row-major, padded or column-major
 * matrices).  Per-column searches over row-major data sweep the rows and keep
 * one running best per column. */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gen_tmpl.h"

typedef struct Spec {
    char scope;       /* 'a' whole array, 'r' per row, 'c' per column */
    const char *kind; /* argmax, argmin, absmax, top1, top1-min, nearest, bias, masked */
    const char *dt;
    char layout;      /* 'c' contiguous / row-major, 's' strided array, 'l' padded rows, 'm' column-major */
    int idx64;
} Spec;

static const Spec SPECS[] = {
    /* whole array */
    {'a', "argmax", "f32", 'c', 0}, {'a', "argmax", "f64", 'c', 0}, {'a', "argmax", "i32", 'c', 0},
    {'a', "argmin", "f32", 'c', 0}, {'a', "argmin", "f64", 's', 0}, {'a', "argmin", "i32", 'c', 1},
    {'a', "argmax", "f32", 's', 0}, {'a', "argmax", "i32", 's', 1}, {'a', "absmax", "f32", 'c', 0},
    {'a', "absmax", "f64", 's', 0}, {'a', "top1", "f32", 'c', 0}, {'a', "top1", "f64", 'c', 1},
    {'a', "top1", "i32", 'c', 0}, {'a', "top1-min", "f32", 'c', 0}, {'a', "nearest", "f32", 'c', 0},
    {'a', "nearest", "f64", 'c', 1}, {'a', "masked", "f32", 'c', 0}, {'a', "argmax", "f64", 's', 1},
    /* per row */
    {'r', "argmax", "f32", 'c', 0}, {'r', "argmax", "f64", 'c', 0}, {'r', "argmax", "i32", 'c', 0},
    {'r', "argmin", "f32", 'c', 0}, {'r', "argmin", "f64", 'm', 0}, {'r', "argmin", "i32", 'c', 1},
    {'r', "argmax", "f32", 'm', 0}, {'r', "argmax", "f32", 'l', 0}, {'r', "absmax", "f32", 'c', 0},
    {'r', "absmax", "f64", 'c', 1}, {'r', "top1", "f32", 'c', 0}, {'r', "top1", "f64", 'c', 0},
    {'r', "top1", "i32", 'm', 0}, {'r', "top1-min", "f64", 'c', 0}, {'r', "bias", "f32", 'c', 0},
    {'r', "bias", "f64", 'l', 1}, {'r', "nearest", "f32", 'c', 0}, {'r', "masked", "f32", 'c', 0},
    {'r', "argmax", "i32", 'l', 0}, {'r', "argmin", "f32", 'm', 0},
    /* per column */
    {'c', "argmax", "f32", 'c', 0}, {'c', "argmax", "f64", 'c', 0}, {'c', "argmax", "i32", 'c', 0},
    {'c', "argmin", "f32", 'c', 0}, {'c', "argmin", "f64", 'm', 0}, {'c', "argmin", "i32", 'c', 1},
    {'c', "argmax", "f32", 'm', 0}, {'c', "absmax", "f32", 'c', 0}, {'c', "absmax", "f64", 'm', 0},
    {'c', "top1", "f32", 'c', 0}, {'c', "top1", "f64", 'c', 0}, {'c', "top1-min", "i32", 'c', 0},
    {'c', "nearest", "f32", 'c', 0}, {'c', "bias", "f32", 'c', 0}, {'c', "argmax", "f32", 'l', 1},
    {'c', "masked", "f64", 'c', 0},
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

static const char *ctype(const char *dt)
{
    return is(dt, "f32") ? "float" : is(dt, "f64") ? "double" : "int32_t";
}

/* Whether a larger key wins. */
static int maximises(const Spec *sp)
{
    return !(is(sp->kind, "argmin") || is(sp->kind, "top1-min") || is(sp->kind, "nearest"));
}

/* The search key of element expression e ("x[i]", "row[j]"), with k the
 * index within the run (for per-column bias and per-row targets). */
static void key_of(char *buf, const Spec *sp, const char *e, const char *outer)
{
    const char *abs_fn = is(sp->dt, "f32") ? "fabsf" : "fabs";
    if (is(sp->kind, "absmax"))
        snprintf(buf, 96, "%s(%s)", abs_fn, e);
    else if (is(sp->kind, "nearest") && sp->scope == 'a')
        snprintf(buf, 96, "%s(%s - target)", abs_fn, e);
    else if (is(sp->kind, "nearest"))
        snprintf(buf, 96, "%s(%s - target[%s])", abs_fn, e, outer);
    else
        snprintf(buf, 96, "%s", e);
}

/* A search along one run: `n` elements, the first one elem0, element k at
 * elem (a printf format with one %s for the index variable `k`), storing into idx/val at `slot`.
 * `mask_at` is the mask element's format, NULL without a mask; `bias_at` the
 * bias term's format. */
static void emit_run(StrBuf *s, const Spec *sp, const char *ind, const char *k, const char *n, const char *elem0,
                     const char *elem, const char *mask_at, const char *bias_at, const char *outer, const char *slot)
{
    const char *T = ctype(sp->dt);
    char e0[96], ek[96], key0[96], keyk[96], m[96];
    if (bias_at) {
        char b0[64], bk[64], x0[64], xk[64];
        snprintf(x0, sizeof x0, "%s", elem0);
        snprintf(xk, sizeof xk, elem, k);
        snprintf(b0, sizeof b0, bias_at, "0");
        snprintf(bk, sizeof bk, bias_at, k);
        snprintf(e0, sizeof e0, "%s + %s", x0, b0);
        snprintf(ek, sizeof ek, "%s + %s", xk, bk);
    } else {
        snprintf(e0, sizeof e0, "%s", elem0);
        snprintf(ek, sizeof ek, elem, k);
    }
    key_of(key0, sp, e0, outer);
    key_of(keyk, sp, ek, outer);
    const char *I = sp->idx64 ? "int64_t" : "int";
    char cmp = maximises(sp) ? '>' : '<';
    if (mask_at) {
        snprintf(m, sizeof m, mask_at, k);
        sb_printf(s, "%s%s best = 0;\n%s%s best_k = -1;\n", ind, T, ind, I);
        sb_printf(s, "%sfor (int %s = 0; %s < %s; %s++) {\n", ind, k, k, n, k);
        sb_printf(s, "%s    if (!%s)\n%s        continue;\n", ind, m, ind);
        sb_printf(s, "%s    %s v = %s;\n", ind, T, keyk);
        sb_printf(s, "%s    if (best_k < 0 || v %c best) {\n", ind, cmp);
    } else {
        sb_printf(s, "%s%s best = %s;\n%s%s best_k = 0;\n", ind, T, key0, ind, I);
        sb_printf(s, "%sfor (int %s = 1; %s < %s; %s++) {\n", ind, k, k, n, k);
        sb_printf(s, "%s    %s v = %s;\n", ind, T, keyk);
        sb_printf(s, "%s    if (v %c best) {\n", ind, cmp);
    }
    sb_printf(s, "%s        best = v;\n%s        best_k = %s;\n%s    }\n%s}\n", ind, ind, k, ind, ind);
    sb_printf(s, "%sidx[%s] = best_k;\n", ind, slot);
    if (strncmp(sp->kind, "top1", 4) == 0)
        sb_printf(s, "%sval[%s] = best;\n", ind, slot);
}

/* Per column over row-major rows: one running best per column. */
static void emit_sweep(StrBuf *s, const Spec *sp)
{
    const char *T = ctype(sp->dt);
    int top1 = strncmp(sp->kind, "top1", 4) == 0;
    int masked = is(sp->kind, "masked");
    const char *best = top1 ? "val" : "best";
    const char *ld = sp->layout == 'l' ? "ld" : "c";
    char key[96], e[64];
    if (!top1)
        sb_printf(s, "    %s *best = malloc((size_t)c * sizeof *best);\n    if (!best)\n        return;\n", T);
    if (masked) {
        sb_append(s, "    for (int j = 0; j < c; j++) {\n        best[j] = 0;\n        idx[j] = -1;\n    }\n");
    } else {
        snprintf(e, sizeof e, is(sp->kind, "bias") ? "x[j] + bias[0]" : "x[j]");
        key_of(key, sp, e, "j");
        sb_printf(s, "    for (int j = 0; j < c; j++) {\n        %s[j] = %s;\n        idx[j] = 0;\n    }\n", best,
                  key);
    }
    sb_printf(s, "    for (int i = %d; i < r; i++) {\n", masked ? 0 : 1);
    sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, ld);
    if (masked)
        sb_printf(s, "        const unsigned char *mrow = mask + (size_t)i * c;\n");
    sb_append(s, "        for (int j = 0; j < c; j++) {\n");
    if (masked)
        sb_append(s, "            if (!mrow[j])\n                continue;\n");
    key_of(key, sp, is(sp->kind, "bias") ? "row[j] + bias[i]" : "row[j]", "j");
    sb_printf(s, "            %s v = %s;\n", T, key);
    if (masked)
        sb_printf(s, "            if (idx[j] < 0 || v %c %s[j]) {\n", maximises(sp) ? '>' : '<', best);
    else
        sb_printf(s, "            if (v %c %s[j]) {\n", maximises(sp) ? '>' : '<', best);
    sb_printf(s, "                %s[j] = v;\n                idx[j] = i;\n            }\n        }\n    }\n", best);
    if (!top1)
        sb_append(s, "    free(best);\n");
}

static const char *crit_math(const Spec *sp)
{
    const char *k = sp->kind;
    if (is(k, "argmax") || is(k, "top1")) return "the largest x";
    if (is(k, "argmin") || is(k, "top1-min")) return "the smallest x";
    if (is(k, "absmax")) return "the largest |x|";
    if (is(k, "nearest")) return "the smallest |x - target|";
    if (is(k, "bias")) return "the largest x + bias";
    return "the largest x where mask != 0 (-1 if there is none)";
}

static const char *entry_of(const Spec *sp)
{
    static char buf[64];
    const char *k = sp->kind;
    const char *pre = sp->scope == 'a' ? "" : sp->scope == 'r' ? "row_" : "col_";
    const char *name = is(k, "argmax") ? "argmax" : is(k, "argmin") ? "argmin" : is(k, "absmax") ? "argmax_abs"
                     : is(k, "top1") ? "top1_max" : is(k, "top1-min") ? "top1_min" : is(k, "nearest") ? "argnearest"
                     : is(k, "bias") ? "argmax_biased" : "masked_argmax";
    snprintf(buf, sizeof buf, "%s%s", pre, name);
    return buf;
}

static void emit_includes(StrBuf *dst, const char *body)
{
    if (strstr(body, "fabs"))
        sb_append(dst, "#include <math.h>\n");
    if (strstr(body, "size_t"))
        sb_append(dst, "#include <stddef.h>\n");
    if (strstr(body, "int64_t") || strstr(body, "int32_t"))
        sb_append(dst, "#include <stdint.h>\n");
    if (strstr(body, "malloc"))
        sb_append(dst, "#include <stdlib.h>\n");
    sb_append(dst, "\n");
}

/* ---- the pair ----
 * Every search merges (key, index) pairs: the better key wins, the smaller
 * index on ties (so the first occurrence wins, whatever the merge order),
 * and index -1 means "nothing yet" (what a masked search returns when
 * nothing qualifies).  Whole arrays: two launches, per-block results of
 * grid-stride slices (a shared-memory tree), then one block merges them.
 * Runs that are contiguous (rows of row-major data, columns of column-major
 * data): one block per run.  Strided runs: one thread per run, walking it
 * (neighbouring threads read neighbouring elements). */

static const char *cuda_type(const char *dt)
{
    return is(dt, "f32") ? "float" : is(dt, "f64") ? "double" : "int";
}

/* The key of element expression e: the inner index names the bias term,
 * the outer one the target. */
static void cuda_key(char *buf, size_t len, const Spec *sp, const char *e, const char *inner, const char *outer)
{
    const char *abs_fn = is(sp->dt, "f32") ? "fabsf" : "fabs";
    if (is(sp->kind, "absmax"))
        snprintf(buf, len, "%s(%s)", abs_fn, e);
    else if (is(sp->kind, "nearest") && sp->scope == 'a')
        snprintf(buf, len, "%s(%s - target)", abs_fn, e);
    else if (is(sp->kind, "nearest"))
        snprintf(buf, len, "%s(%s - target[%s])", abs_fn, e, outer);
    else if (is(sp->kind, "bias"))
        snprintf(buf, len, "%s + bias[%s]", e, inner);
    else
        snprintf(buf, len, "%s", e);
}

static void emit_block_reduce(StrBuf *k)
{
    sb_append(k, "/* Merges sh[0 .. blockDim.x) into sh[0]; blockDim.x is a power of two. */\n"
                 "__device__ void block_reduce(Acc *sh)\n{\n"
                 "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                 "        __syncthreads();\n"
                 "        if (threadIdx.x < s)\n"
                 "            sh[threadIdx.x] = acc_merge(sh[threadIdx.x], sh[threadIdx.x + s]);\n"
                 "    }\n"
                 "    __syncthreads();\n}\n\n");
}

static void emit_cuda(GenProgram *p, const Spec *sp, const char *entry)
{
    StrBuf *k = gen_cuda_src(p);
    const char *T = cuda_type(sp->dt), *I = sp->idx64 ? "long long" : "int";
    int top1 = strncmp(sp->kind, "top1", 4) == 0;
    int masked = is(sp->kind, "masked"), bias = is(sp->kind, "bias"), near = is(sp->kind, "nearest");
    char cmp = maximises(sp) ? '>' : '<';
    int tsz = is(sp->dt, "f64") ? 8 : 4, isz = sp->idx64 ? 8 : 4;
    int acc_bytes = tsz == 8 || isz == 8 ? 16 : 8;

    sb_printf(k, "/* For %s: the index of %s%s,\n * the first occurrence on ties. */\n",
              sp->scope == 'a' ? "an array" : sp->scope == 'r' ? "each row of a matrix" : "each column of a matrix",
              crit_math(sp), top1 ? ", and that value" : "");
    sb_printf(k, "struct Acc {\n    %s k; /* the key */\n    %s i; /* its index; -1: none yet */\n};\n\n", T, I);
    sb_printf(k, "/* The better of a and b. */\n"
                 "__device__ Acc acc_merge(Acc a, Acc b)\n{\n"
                 "    if (b.i < 0)\n        return a;\n"
                 "    if (a.i < 0 || b.k %c a.k || (b.k == a.k && b.i < a.i))\n        return b;\n"
                 "    return a;\n}\n\n", cmp);
    int contiguous = sp->scope == 'r' ? sp->layout != 'm' : sp->layout == 'm';
    if (sp->scope == 'a' || contiguous)
        emit_block_reduce(k);

    char key[160], smem[32];
    snprintf(smem, sizeof smem, "256*%d", acc_bytes);
    if (sp->scope == 'a') {
        int strided = sp->layout == 's';
        cuda_key(key, sizeof key, sp, strided ? "x[q * stride]" : "x[q]", NULL, NULL);
        char decl[400];
        int nd = snprintf(decl, sizeof decl, "extern \"C\" __global__ void %s_partial(const %s *__restrict__ x, ",
                          entry, T);
        if (masked)
            nd += snprintf(decl + nd, sizeof decl - nd, "const unsigned char *__restrict__ mask, ");
        if (near)
            nd += snprintf(decl + nd, sizeof decl - nd, "%s target, ", T);
        snprintf(decl + nd, sizeof decl - nd, "%s *__restrict__ part_key, %s *__restrict__ part_idx, int n%s)", T, I,
                 strided ? ", int stride" : "");
        tmpl_put_wrapped(k, decl);
        sb_append(k, "\n{\n");
        sb_append(k, "    extern __shared__ Acc sh[];\n    Acc a = {0, -1};\n"
                     "    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < n;\n"
                     "         q += (long long)gridDim.x * blockDim.x) {\n");
        if (masked)
            sb_append(k, "        if (!mask[q])\n            continue;\n");
        sb_printf(k, "        a = acc_merge(a, Acc{%s, (%s)q});\n    }\n", key, I);
        sb_append(k, "    sh[threadIdx.x] = a;\n    block_reduce(sh);\n"
                     "    if (threadIdx.x == 0) {\n        part_key[blockIdx.x] = sh[0].k;\n"
                     "        part_idx[blockIdx.x] = sh[0].i;\n    }\n}\n\n");
        snprintf(decl, sizeof decl, "extern \"C\" __global__ void %s_final(const %s *__restrict__ part_key, "
                 "const %s *__restrict__ part_idx, int nparts, %s *__restrict__ idx%s%s%s)",
                 entry, T, I, I, top1 ? ", " : "", top1 ? T : "", top1 ? " *__restrict__ val" : "");
        tmpl_put_wrapped(k, decl);
        sb_append(k, "\n{\n");
        sb_append(k, "    extern __shared__ Acc sh[];\n    Acc a = {0, -1};\n"
                     "    for (int b = threadIdx.x; b < nparts; b += blockDim.x)\n"
                     "        a = acc_merge(a, Acc{part_key[b], part_idx[b]});\n"
                     "    sh[threadIdx.x] = a;\n    block_reduce(sh);\n"
                     "    if (threadIdx.x == 0) {\n        idx[0] = sh[0].i;\n");
        if (top1)
            sb_append(k, "        val[0] = sh[0].k;\n");
        sb_append(k, "    }\n}\n");
        gen_scratch(p, "part_key", sp->dt, "1024");
        gen_scratch(p, "part_idx", sp->idx64 ? "i64" : "i32", "1024");
        char args[96], pname[64], fname[64];
        snprintf(args, sizeof args, "x,%s%spart_key,part_idx,n%s", masked ? "mask," : "", near ? "target," : "",
                 strided ? ",stride" : "");
        snprintf(pname, sizeof pname, "%s_partial", entry);
        snprintf(fname, sizeof fname, "%s_final", entry);
        gen_launch(p, pname, "min((n+255)/256,1024)", "256", smem, args);
        gen_launch(p, fname, "1", "256", smem, top1 ? "part_key,part_idx,min((n+255)/256,1024),idx,val"
                                                    : "part_key,part_idx,min((n+255)/256,1024),idx");
        gen_knob(p, "block", "256");
        gen_knob(p, "mapping", "grid-stride-block-reduction-shared");
        gen_knob(p, "max_blocks", "1024");
        gen_knob(p, "launches", "2");
        return;
    }

    /* Per row or per column: o indexes the runs, q the elements of a run. */
    int rows = sp->scope == 'r';
    const char *o = rows ? "i" : "j", *q = rows ? "j" : "i";
    const char *nruns = rows ? "r" : "c", *nelems = rows ? "c" : "r";
    const char *LD = sp->layout == 'l' ? "ld" : "c";
    char elem[64];
    if (contiguous)
        snprintf(elem, sizeof elem, "run[%s]", q);
    else if (sp->layout == 'm') /* rows of column-major data */
        snprintf(elem, sizeof elem, "x[(long long)j * r + i]");
    else
        snprintf(elem, sizeof elem, "x[(long long)i * %s + j]", LD);
    cuda_key(key, sizeof key, sp, elem, q, o);

    char params[320], args[128];
    int np = 0, na = 0;
    np += snprintf(params + np, sizeof params - np, "const %s *__restrict__ x, ", T);
    na += snprintf(args + na, sizeof args - na, "x,");
    if (masked) {
        np += snprintf(params + np, sizeof params - np, "const unsigned char *__restrict__ mask, ");
        na += snprintf(args + na, sizeof args - na, "mask,");
    }
    if (bias) {
        np += snprintf(params + np, sizeof params - np, "const %s *__restrict__ bias, ", T);
        na += snprintf(args + na, sizeof args - na, "bias,");
    }
    if (near) {
        np += snprintf(params + np, sizeof params - np, "const %s *__restrict__ target, ", T);
        na += snprintf(args + na, sizeof args - na, "target,");
    }
    np += snprintf(params + np, sizeof params - np, "%s *__restrict__ idx, ", I);
    na += snprintf(args + na, sizeof args - na, "idx,");
    if (top1) {
        np += snprintf(params + np, sizeof params - np, "%s *__restrict__ val, ", T);
        na += snprintf(args + na, sizeof args - na, "val,");
    }
    snprintf(params + np, sizeof params - np, "int r, int c%s", sp->layout == 'l' ? ", int ld" : "");
    snprintf(args + na, sizeof args - na, "r,c%s", sp->layout == 'l' ? ",ld" : "");
    char decl[400];
    snprintf(decl, sizeof decl, "extern \"C\" __global__ void %s(%s)", entry, params);
    tmpl_put_wrapped(k, decl);
    sb_append(k, "\n{\n");
    if (contiguous) {
        sb_printf(k, "    extern __shared__ Acc sh[];\n    const int %s = blockIdx.x;\n", o);
        if (rows)
            sb_printf(k, "    const %s *run = x + (long long)i * %s;\n", T, LD);
        else
            sb_printf(k, "    const %s *run = x + (long long)j * r;\n", T);
        sb_printf(k, "    Acc a = {0, -1};\n    for (int %s = threadIdx.x; %s < %s; %s += blockDim.x) {\n", q, q,
                  nelems, q);
    } else {
        sb_printf(k, "    const int %s = blockIdx.x * blockDim.x + threadIdx.x;\n    if (%s >= %s)\n        return;\n",
                  o, o, nruns);
        sb_printf(k, "    Acc a = {0, -1};\n    for (int %s = 0; %s < %s; %s++) {\n", q, q, nelems, q);
    }
    if (masked)
        sb_append(k, "        if (!mask[(long long)i * c + j])\n            continue;\n");
    sb_printf(k, "        a = acc_merge(a, Acc{%s, %s});\n    }\n", key, q);
    if (contiguous) {
        sb_printf(k, "    sh[threadIdx.x] = a;\n    block_reduce(sh);\n"
                     "    if (threadIdx.x == 0) {\n        idx[%s] = sh[0].i;\n", o);
        if (top1)
            sb_printf(k, "        val[%s] = sh[0].k;\n", o);
        sb_append(k, "    }\n}\n");
        gen_launch(p, entry, nruns, "256", smem, args);
        gen_knob(p, "mapping", rows ? "one-row-per-block-reduction-shared" : "one-column-per-block-reduction-shared");
    } else {
        sb_printf(k, "    idx[%s] = a.i;\n", o);
        if (top1)
            sb_printf(k, "    val[%s] = a.k;\n", o);
        sb_append(k, "}\n");
        char grid[32];
        snprintf(grid, sizeof grid, "(%s+255)/256", nruns);
        gen_launch(p, entry, grid, "256", NULL, args);
        gen_knob(p, "mapping", rows ? "one-row-per-thread" : "one-column-per-thread");
    }
    gen_knob(p, "block", "256");
}

static const char *const LARGE32[] = {"r=16384,c=8192", "r=2048,c=65536", "r=131072,c=1024", "r=2097152,c=64"};
static const char *const LARGE64[] = {"r=8192,c=8192", "r=1024,c=65536", "r=65536,c=1024", "r=1048576,c=64"};

static int generate(GenCtx *g)
{
    for (int q = 0; q < NSPECS; q++) {
        const Spec *sp = &SPECS[q];
        const char *T = ctype(sp->dt);
        const char *I = sp->idx64 ? "int64_t" : "int32_t";
        int top1 = strncmp(sp->kind, "top1", 4) == 0;
        int masked = is(sp->kind, "masked"), bias = is(sp->kind, "bias"), near = is(sp->kind, "nearest");
        int f64 = is(sp->dt, "f64");
        char variant[80];
        snprintf(variant, sizeof variant, "%s-%s-%s%s%s", sp->scope == 'a' ? "all" : sp->scope == 'r' ? "rows" : "cols",
                 sp->kind, sp->dt,
                 sp->layout == 's' ? "-strided" : sp->layout == 'l' ? "-ld" : sp->layout == 'm' ? "-colmajor" : "",
                 sp->idx64 ? "-idx64" : "");
        const char *entry = entry_of(sp);
        GenProgram *p = gen_begin(g, variant, entry);
        const char *count = sp->scope == 'a' ? "1" : sp->scope == 'r' ? "r" : "c";
        const char *xshape = sp->scope == 'a' ? (sp->layout == 's' ? "n*stride" : "n")
                           : sp->layout == 'm' ? "c,r" : sp->layout == 'l' ? "r,ld" : "r,c";
        gen_arg(p, "x", sp->dt, "in", xshape);
        if (masked)
            gen_arg(p, "mask", "u8", "in", sp->scope == 'a' ? "n" : "r,c");
        if (bias)
            gen_arg(p, "bias", sp->dt, "in", sp->scope == 'r' ? "c" : "r");
        if (near && sp->scope != 'a')
            gen_arg(p, "target", sp->dt, "in", count);
        gen_arg(p, "idx", sp->idx64 ? "i64" : "i32", "out", count);
        if (top1)
            gen_arg(p, "val", sp->dt, "out", count);
        if (near && sp->scope == 'a')
            gen_scalar(p, "target", sp->dt, (double)gen_randint(g, -50, 50) / 100.0);
        if (sp->scope == 'a') {
            gen_arg(p, "n", "i32", "param", NULL);
            if (sp->layout == 's')
                gen_arg(p, "stride", "i32", "param", NULL);
        } else {
            gen_arg(p, "r", "i32", "param", NULL);
            gen_arg(p, "c", "i32", "param", NULL);
            if (sp->layout == 'l')
                gen_arg(p, "ld", "i32", "param", NULL);
        }
        if (is(sp->dt, "i32"))
            gen_fill_int(p, "x", "-1000000000", "1000000000");
        else if (f64 && !near)
            gen_fill_uniform(p, "x", -100.0, 100.0);
        if (masked)
            gen_fill_int(p, "mask", "0", "2");
        if (bias)
            gen_fill_uniform(p, "bias", -0.5, 0.5);

        if (sp->scope == 'a') {
            if (sp->layout == 's') {
                gen_config(p, "small", "n=40000,stride=3");
                gen_config(p, "edge", "n=1,stride=2");
                gen_config(p, "edge-prime", "n=1021,stride=5");
                gen_config(p, "large", f64 ? "n=16777216,stride=4" : "n=33554432,stride=4");
            } else {
                gen_config(p, "small", "n=100000");
                gen_config(p, "edge", "n=1");
                gen_config(p, "edge-prime", "n=7919");
                gen_config(p, "large", f64 ? "n=67108864" : "n=134217728");
            }
        } else {
            const char *large = (f64 ? LARGE64 : LARGE32)[q % 4];
            char buf[64];
            if (sp->layout == 'l') {
                gen_config(p, "small", "r=256,c=300,ld=320");
                gen_config(p, "edge", "r=1,c=1,ld=2");
                gen_config(p, "edge-prime", "r=37,c=131,ld=137");
                /* pad each row by 8 elements */
                int cval = 0;
                sscanf(strstr(large, "c=") + 2, "%d", &cval);
                snprintf(buf, sizeof buf, "%.*sc=%d,ld=%d", (int)(strstr(large, "c=") - large), large, cval - 8,
                         cval);
                gen_config(p, "large", buf);
            } else {
                gen_config(p, "small", sp->scope == 'r' ? "r=256,c=300" : "r=300,c=256");
                gen_config(p, "edge", "r=1,c=1");
                gen_config(p, "edge-thin", sp->scope == 'r' ? "r=7,c=1" : "r=1,c=7");
                gen_config(p, "edge-prime", "r=37,c=131");
                gen_config(p, "large", large);
            }
        }
        int es = f64 ? 8 : 4, is_ = sp->idx64 ? 8 : 4;
        char flops[32], bytes[96];
        const char *N = sp->scope == 'a' ? "n" : "r*c";
        snprintf(flops, sizeof flops, "%s%s", bias || near ? "2*" : "", N);
        snprintf(bytes, sizeof bytes, "%d*%s+%d*%s", es + (masked ? 1 : 0), N, is_ + (top1 ? es : 0) +
                 (near && sp->scope != 'a' ? es : 0), count);
        if (bias)
            snprintf(bytes, sizeof bytes, "%d*r*c+%d*%s+%d*%s", es, es, sp->scope == 'r' ? "c" : "r", is_, count);
        gen_cost(p, flops, bytes);

        StrBuf body = STRBUF_INIT, *s = &body;
        const char *where = sp->scope == 'a' ? (sp->layout == 's' ? "the n elements x[k * stride]" : "the n elements x[k]")
                          : sp->scope == 'r' ? "each row i of the r x c matrix x" : "each column j of the r x c matrix x";
        const char *store = sp->layout == 'm' ? ", stored column-major (x[j * r + i])"
                          : sp->layout == 'l' ? ", stored row-major with leading dimension ld (x[i * ld + j])"
                          : sp->scope == 'a' ? "" : ", stored row-major (x[i * c + j])";
        sb_printf(s, "/* For %s%s:\n *   the index of %s%s, the first occurrence on ties. */\n", where, store,
                  crit_math(sp), top1 ? ", and that value" : "");
        sb_printf(s, "void %s(const %s *x, ", entry, T);
        if (masked)
            sb_append(s, "const unsigned char *mask, ");
        if (bias)
            sb_printf(s, "const %s *bias, ", T);
        if (near && sp->scope != 'a')
            sb_printf(s, "const %s *target, ", T);
        sb_printf(s, "%s *idx, ", I);
        if (top1)
            sb_printf(s, "%s *val, ", T);
        if (near && sp->scope == 'a')
            sb_printf(s, "%s target, ", T);
        if (sp->scope == 'a')
            sb_printf(s, "int n%s)\n{\n", sp->layout == 's' ? ", int stride" : "");
        else
            sb_printf(s, "int r, int c%s)\n{\n", sp->layout == 'l' ? ", int ld" : "");

        if (sp->scope == 'a') {
            emit_run(s, sp, "    ", "k", "n", "x[0]", sp->layout == 's' ? "x[%s * stride]" : "x[%s]",
                     masked ? "mask[%s]" : NULL, NULL, NULL, "0");
        } else if (sp->scope == 'r') {
            sb_append(s, "    for (int i = 0; i < r; i++) {\n");
            const char *elem = "row[%s]";
            if (sp->layout == 'm')
                elem = "x[(size_t)%s * r + i]";
            else
                sb_printf(s, "        const %s *row = x + (size_t)i * %s;\n", T, sp->layout == 'l' ? "ld" : "c");
            if (masked)
                sb_append(s, "        const unsigned char *mrow = mask + (size_t)i * c;\n");
            emit_run(s, sp, "        ", "j", "c", sp->layout == 'm' ? "x[i]" : "row[0]", elem, masked ? "mrow[%s]" : NULL, bias ? "bias[%s]" : NULL, "i",
                     "i");
            sb_append(s, "    }\n");
        } else if (sp->layout == 'm') {
            sb_append(s, "    for (int j = 0; j < c; j++) {\n");
            sb_printf(s, "        const %s *col = x + (size_t)j * r;\n", T);
            emit_run(s, sp, "        ", "i", "r", "col[0]", "col[%s]", masked ? "mask[(size_t)%s * c + j]" : NULL,
                     bias ? "bias[%s]" : NULL, "j", "j");
            sb_append(s, "    }\n");
        } else {
            emit_sweep(s, sp);
        }
        sb_append(s, "}\n");
        emit_includes(gen_src(p), sb_str(s));
        sb_append(gen_src(p), sb_str(s));
        sb_release(s);
        emit_cuda(p, sp, entry);
        if (gen_end(p) != 0)
            return -1;
    }
    return 0;
}

const Family family_argreduce = {"argreduce", "reduction", 54, generate};
