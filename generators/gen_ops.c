/* gen_ops.c — the op-table families' shared emitter (see gen_ops.h). */
#include "gen_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_text.h"

void ops_put(StrBuf *s, const Sub *t, const char *tmpl)
{
    for (const char *c = tmpl; *c; c++) {
        if (c[0] == '$' && (c[1] == 'T' || c[1] == 'V' || c[1] == 'F')) {
            sb_append(s, c[1] == 'T' ? t->T : c[1] == 'V' ? t->V : t->F);
            c++;
        } else {
            sb_putc(s, *c);
        }
    }
}

const char *ops_ctype_of(const char *dt)
{
    static const char *const map[][2] = {
        {"f32", "float"},     {"f64", "double"},    {"i32", "int"},        {"i64", "int64_t"},
        {"u8", "uint8_t"},    {"u16", "uint16_t"},  {"i16", "int16_t"},    {"u32", "uint32_t"},
        {"u64", "uint64_t"},  {"i8", "int8_t"},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (!strcmp(map[k][0], dt))
            return map[k][1];
    return "?";
}

/* CUDA's spelling of a dtype (kernel.cu has no stdint.h). */
const char *ops_cuda_type_of(const char *dt)
{
    static const char *const map[][2] = {
        {"f32", "float"},          {"f64", "double"},         {"i32", "int"},
        {"i64", "long long"},      {"u8", "unsigned char"},   {"u16", "unsigned short"},
        {"i16", "short"},          {"u32", "unsigned int"},   {"u64", "unsigned long long"},
        {"i8", "signed char"},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (!strcmp(map[k][0], dt))
            return map[k][1];
    return "?";
}

const char *ops_dtype_of(const char *ctype, size_t len)
{
    static const char *const map[][2] = {
        {"float", "f32"},     {"double", "f64"},    {"int", "i32"},        {"int32_t", "i32"},
        {"int64_t", "i64"},   {"uint8_t", "u8"},    {"uint16_t", "u16"},   {"int16_t", "i16"},
        {"uint32_t", "u32"},  {"uint64_t", "u64"},  {"int8_t", "i8"},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (strlen(map[k][0]) == len && !strncmp(map[k][0], ctype, len))
            return map[k][1];
    return "?";
}

/* Looks `name` up in a "name=value;name=value" list; copies the value. */
int ops_lookup(const char *list, const char *name, char *out, size_t outlen)
{
    size_t nl = strlen(name);
    for (const char *q = list; q && *q;) {
        const char *end = strchr(q, ';');
        if (!end)
            end = q + strlen(q);
        const char *eq = memchr(q, '=', (size_t)(end - q));
        if (eq && (size_t)(eq - q) == nl && !strncmp(q, name, nl)) {
            snprintf(out, outlen, "%.*s", (int)(end - eq - 1), eq + 1);
            return 1;
        }
        q = *end ? end + 1 : end;
    }
    return 0;
}

/* Declares the arguments of the C parameter list `sig` (types substituted)
 * in order: `const T *x` is an input and `T *x` an output (an in-out when
 * x is named in `inout`, a space-separated list), with its shape from
 * `shapes` ("x=n,m;y=n"); a plain `int`/`int64_t` is a param, unless
 * `scalars` ("name=value;...") gives it a value, as it does every other
 * plain value. */
void ops_declare(GenProgram *p, const char *sig, const char *shapes, const char *inout, const char *scalars)
{
    const char *q = sig;
    while (*q) {
        while (*q == ' ' || *q == ',' || *q == '\n')
            q++;
        if (!*q)
            break;
        int is_const = !strncmp(q, "const ", 6);
        if (is_const)
            q += 6;
        const char *ty = q;
        while (*q != ' ')
            q++;
        const char *dt = ops_dtype_of(ty, (size_t)(q - ty));
        q++;
        int ptr = *q == '*';
        if (ptr)
            q++;
        char name[64];
        size_t n = 0;
        while (*q && *q != ',' && n < sizeof name - 1)
            name[n++] = *q++;
        name[n] = '\0';
        char val[128];
        if (ptr) {
            const char *role = is_const ? "in" : "out";
            char pad[70];
            snprintf(pad, sizeof pad, " %s ", name);
            char list[256];
            snprintf(list, sizeof list, " %s ", inout ? inout : "");
            if (strstr(list, pad))
                role = "inout";
            if (!ops_lookup(shapes, name, val, sizeof val))
                snprintf(val, sizeof val, "?");
            gen_arg(p, name, dt, role, val);
        } else if (ops_lookup(scalars, name, val, sizeof val)) {
            gen_scalar(p, name, dt, strtod(val, NULL));
        } else {
            gen_arg(p, name, dt, "param", NULL);
        }
    }
}

void ops_fills(GenProgram *p, const char *spec)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec ? spec : "");
    for (char *save = NULL, *item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(item, '=');
        *eq = '\0';
        char *kind = eq + 1, *a = strchr(kind, ':'), *b = a ? strchr(a + 1, ':') : NULL;
        if (a)
            *a++ = '\0';
        if (b)
            *b++ = '\0';
        if (!strcmp(kind, "int"))
            gen_fill_int(p, item, a, b);
        else if (!strcmp(kind, "uni"))
            gen_fill_uniform(p, item, strtod(a, NULL), strtod(b, NULL));
        else if (!strcmp(kind, "part"))
            gen_fill_partition(p, item, a);
        else if (!strcmp(kind, "sorted"))
            gen_fill_sorted(p, item);
    }
}

void ops_scratch(GenProgram *p, const Sub *dtypes, const char *spec)
{
    StrBuf scratch = STRBUF_INIT;
    ops_put(&scratch, dtypes, spec ? spec : "");
    char *save = NULL;
    for (char *it = scratch.data ? strtok_r(scratch.data, ";", &save) : NULL; it; it = strtok_r(NULL, ";", &save)) {
        char *c1 = strchr(it, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c1 = *c2 = '\0';
        gen_scratch(p, it, c1 + 1, c2 + 1);
    }
    sb_release(&scratch);
}

/* "void name(params)\n{\n", the parameters wrapped at about 96 columns. */
void ops_signature(StrBuf *s, const char *entry, const char *sig)
{
    text_put_void_signature(s, entry, sig, 4);
    sb_append(s, "{\n");
}

const char *ops_size_of(const char *dt)
{
    return dt[1] == '8' ? "1" : strstr(dt, "16") ? "2" : strstr(dt, "64") ? "8" : "4";
}

/* The pair of one instance: the op's CUDA template with CUDA type names,
 * its scratch buffers, launches and knobs (block: the largest block). */
static void emit_cuda(GenProgram *p, const Op *op, const Sub *t, const Sub *dtypes)
{
    ops_put(gen_cuda_src(p), t, op->cuda);
    ops_scratch(p, dtypes, op->scratch);
    const char *block = "256";
    for (int k = 0; k < OPS_MAX_LAUNCHES && op->launch[k].kernel; k++) {
        const OpLaunch *l = &op->launch[k];
        gen_launch(p, l->kernel, l->grid, l->block, l->smem, l->args);
        if (atoi(l->block) > atoi(block))
            block = l->block;
    }
    gen_knob(p, "block", block);
    gen_knob(p, "mapping", op->mapping);
}

/* Appends expr to out with $S / $W replaced by the sizes of dtypes kt / vt
 * (vt NULL: $W is 0); nothing when expr is NULL. */
static void put_sizes(StrBuf *out, const char *expr, const char *kt, const char *vt)
{
    for (const char *c = expr; c && *c; c++) {
        if (c[0] == '$' && (c[1] == 'S' || c[1] == 'W')) {
            sb_append(out, c[1] == 'S' ? ops_size_of(kt) : (vt ? ops_size_of(vt) : "0"));
            c++;
        } else {
            sb_putc(out, *c);
        }
    }
}

/* Emits one instance ("f32" or "key/payload") of op. */
static int emit(GenCtx *g, const OpFamily *fam, const Op *op, const char *inst)
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
    gen_describe(p, "%s: %s, %s%s%s", fam->what, op->tag, kt, slash ? "/" : "", vt);
    StrBuf sig = STRBUF_INIT;
    ops_put(&sig, &t, op->sig);
    ops_declare(p, sig.data, op->shapes, op->inout, op->scalars);
    fam->configs(p, op->kind);
    ops_fills(p, op->fills);
    StrBuf bytes = STRBUF_INIT, ref_flops = STRBUF_INIT, ref_bytes = STRBUF_INIT;
    put_sizes(&bytes, op->bytes, kt, slash ? vt : NULL);
    gen_cost(p, op->flops, bytes.data);
    const char *ref_b = op->ref_bytes ? op->ref_bytes : fam->ref_bytes ? fam->ref_bytes(op->kind) : NULL;
    if (op->ref_flops || ref_b) {
        put_sizes(&ref_flops, op->ref_flops, kt, slash ? vt : NULL);
        put_sizes(&ref_bytes, ref_b, kt, slash ? vt : NULL);
        gen_reference_cost(p, op->ref_flops ? ref_flops.data : NULL, ref_b ? ref_bytes.data : NULL);
    }
    if (!strcmp(kt, "f64") && op->tol64[0] > 0)
        gen_tolerance(p, op->tol64[0], op->tol64[1]);
    else if (strcmp(kt, "f64") && op->tol[0] > 0)
        gen_tolerance(p, op->tol[0], op->tol[1]);
    StrBuf *s = gen_src(p);
    /* Fixed-width integer types need stdint.h. */
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
    sb_release(&ref_flops);
    sb_release(&ref_bytes);
    return gen_end(p);
}

int ops_emit_all(GenCtx *g, const OpFamily *fam, const Op *ops, int n)
{
    for (int k = 0; k < n; k++) {
        char types[64];
        snprintf(types, sizeof types, "%s", ops[k].types);
        for (char *save = NULL, *it = strtok_r(types, " ", &save); it; it = strtok_r(NULL, " ", &save))
            if (emit(g, fam, &ops[k], it) != 0)
                return -1;
    }
    return 0;
}
