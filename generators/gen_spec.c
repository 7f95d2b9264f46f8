/* gen_spec.c — see gen_spec.h. */
#include "gen_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ctype_of(const char *dt)
{
    static const char *const map[][2] = {
        {"f32", "float"}, {"f64", "double"}, {"i32", "int32_t"}, {"u8", "uint8_t"},
        {"i64", "int64_t"}, {"i16", "int16_t"}, {"u16", "uint16_t"}, {"i8", "int8_t"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return "?";
}

static int size_of(const char *dt)
{
    if (strcmp(dt, "f64") == 0 || strcmp(dt, "i64") == 0)
        return 8;
    if (strcmp(dt, "u8") == 0 || strcmp(dt, "i8") == 0)
        return 1;
    if (strcmp(dt, "i16") == 0 || strcmp(dt, "u16") == 0)
        return 2;
    return 4;
}

/* The CUDA spelling of dt: NVRTC has no <stdint.h>. */
static const char *cuda_type_of(const char *dt)
{
    static const char *const map[][2] = {
        {"i32", "int"}, {"u8", "unsigned char"}, {"i64", "long long"}, {"i16", "short"},
        {"u16", "unsigned short"}, {"i8", "signed char"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return ctype_of(dt);
}

/* Expands the $-placeholders of s for dtype dt, with $T spelled for CUDA
 * when cuda is set; the caller frees. */
static char *subst_for(const char *s, const char *dt, int cuda)
{
    StrBuf b = STRBUF_INIT;
    int f64 = strcmp(dt, "f64") == 0;
    for (const char *q = s; *q; q++) {
        if (*q != '$') {
            sb_putc(&b, *q);
            continue;
        }
        char c = *++q;
        if (c == 'T') {
            sb_append(&b, cuda ? cuda_type_of(dt) : ctype_of(dt));
        } else if (c == 'f') {
            sb_append(&b, strcmp(dt, "f32") == 0 ? "f" : "");
        } else if (c == 'S') {
            sb_printf(&b, "%d", size_of(dt));
        } else if (c == 'D') {
            sb_append(&b, dt);
        } else if (c == '(') {
            const char *bar = strchr(q, '|'), *end = bar ? strchr(bar, ')') : NULL;
            if (!end) {
                sb_putc(&b, '$');
                q--;
                continue;
            }
            if (f64)
                sb_append_n(&b, bar + 1, (size_t)(end - bar - 1));
            else
                sb_append_n(&b, q + 1, (size_t)(bar - q - 1));
            q = end;
        } else {
            sb_putc(&b, '$');
            q--;
        }
    }
    return sb_steal(&b);
}

static char *subst(const char *s, const char *dt)
{
    return subst_for(s, dt, 0);
}

/* Splits s at sep into at most max fields (in place). */
static int split(char *s, char sep, char **out, int max)
{
    int n = 0;
    while (n < max) {
        out[n++] = s;
        char *e = strchr(s, sep);
        if (!e)
            break;
        *e = '\0';
        s = e + 1;
    }
    return n;
}

/* Breaks a line longer than 100 columns (a long signature once $T is
 * expanded) once, at the last ", " that fits, aligning the rest after the
 * opening '('. */
static char *wrap_lines(const char *src)
{
    StrBuf b = STRBUF_INIT;
    const char *line = src;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *paren = memchr(line, '(', len);
        size_t cut = 0;
        if (paren && len > 100)
            for (size_t i = 0; i + 1 < len && i < 100; i++)
                if (line[i] == ',' && line[i + 1] == ' ')
                    cut = i + 1;
        if (cut) {
            sb_append_n(&b, line, cut);
            sb_printf(&b, "\n%*s", (int)(paren - line) + 1, "");
            sb_append_n(&b, line + cut + 1, len - cut - 1);
        } else {
            sb_append_n(&b, line, len);
        }
        if (end)
            sb_putc(&b, '\n');
        line = end ? end + 1 : line + len;
    }
    return sb_steal(&b);
}

/* Adds the pair of sp (kernel.cu, scratch, launches, knobs) to p.  Returns
 * 0, or -1 after naming a malformed scratch or launch entry on stderr (a bug
 * in the family's table). */
static int emit_pair(GenProgram *p, const Spec *sp, const char *dt)
{
    int rc = 0;
    char *cuda = spec_cuda_text(sp->cuda, dt);
    gen_cuda(p, "%s", cuda);
    free(cuda);

    char *items[16];
    if (sp->scratch) {
        char *scratch = subst(sp->scratch, dt);
        int n = split(scratch, ';', items, 16);
        for (int i = 0; i < n; i++) {
            char *f[3] = {0};
            if (split(items[i], ':', f, 3) == 3) {
                gen_scratch(p, f[0], f[1], f[2]);
            } else {
                fprintf(stderr, "gen_spec: %s: malformed scratch entry '%s'\n", sp->name, items[i]);
                rc = -1;
            }
        }
        free(scratch);
    }
    char *launch = subst(sp->launch ? sp->launch : "", dt);
    int n = split(launch, ';', items, 16);
    for (int i = 0; i < n; i++) {
        char *f[5] = {0};
        if (split(items[i], '|', f, 5) == 5) {
            gen_launch(p, f[0], f[1], f[2], f[3][0] ? f[3] : NULL, f[4]);
        } else {
            fprintf(stderr, "gen_spec: %s: malformed launch '%s'\n", sp->name, items[i]);
            rc = -1;
        }
    }
    free(launch);
    char *knobs = subst(sp->knobs ? sp->knobs : "", dt);
    n = split(knobs, ';', items, 16);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        if (eq) {
            *eq = '\0';
            gen_knob(p, items[i], eq + 1);
        }
    }
    free(knobs);
    return rc;
}

char *spec_cuda_text(const char *s, const char *dt)
{
    char *cuda = subst_for(s, dt, 1), *wrapped = wrap_lines(cuda);
    free(cuda);
    return wrapped;
}

static int emit(GenCtx *g, const Spec *sp, const char *dt, SpecAlternatives alts, const void *ctx,
                int ref_flops_factor)
{
    char *name = subst(sp->name, dt);
    char variant[96];
    snprintf(variant, sizeof variant, "%s-%s", name, dt);
    free(name);
    GenProgram *p = gen_begin(g, variant, sp->entry);
    char *desc = subst(sp->desc, dt);
    gen_describe(p, "%s", desc);
    free(desc);

    char *args = subst(sp->args, dt), *items[40];
    int n = split(args, ';', items, 40);
    for (int i = 0; i < n; i++) {
        char *f[4] = {0};
        int nf = split(items[i], ':', f, 4);
        const char *adt = nf > 3 ? f[3] : dt;
        if (strcmp(f[1], "param") == 0) {
            gen_arg(p, f[0], nf > 3 ? f[3] : "i32", "param", NULL);
        } else if (strcmp(f[1], "scalar") == 0) {
            double v;
            if (f[2][0] == '~') {
                char *hi = strchr(f[2] + 1, '~');
                v = gen_uniform(g, atof(f[2] + 1), atof(hi + 1));
                v = round(v * 1e4) / 1e4;
            } else {
                v = atof(f[2]);
            }
            gen_scalar(p, f[0], adt, v);
        } else {
            gen_arg(p, f[0], adt, f[1], f[2]);
        }
    }
    free(args);
    if (sp->fills) {
        char *fills = subst(sp->fills, dt);
        n = split(fills, ';', items, 40);
        for (int i = 0; i < n; i++) {
            char *f[4] = {0};
            split(items[i], ':', f, 4);
            if (f[1][0] == 'u')
                gen_fill_uniform(p, f[0], atof(f[2]), atof(f[3]));
            else if (f[1][0] == 'p')
                gen_fill_partition(p, f[0], f[2]);
            else
                gen_fill_int(p, f[0], f[2], f[3]);
        }
        free(fills);
    }
    char *cfgs = subst(sp->configs, dt);
    n = split(cfgs, '|', items, 40);
    for (int i = 0; i < n; i++) {
        char *colon = strchr(items[i], ':');
        *colon = '\0';
        gen_config(p, items[i], colon + 1);
    }
    free(cfgs);
    char *fl = subst(sp->flops, dt), *by = subst(sp->bytes, dt);
    gen_cost(p, fl, by);
    if (ref_flops_factor > 0) {
        char *ref = xasprintf("%d*(%s)", ref_flops_factor, fl);
        gen_reference_cost(p, ref, NULL);
        free(ref);
    }
    free(fl);
    free(by);
    if (strcmp(dt, "f64") == 0) {
        if (sp->atol64 > 0 || sp->rtol64 > 0)
            gen_tolerance(p, sp->atol64, sp->rtol64);
    } else if (sp->atol > 0 || sp->rtol > 0) {
        gen_tolerance(p, sp->atol, sp->rtol);
    }
    char *src = subst(sp->src, dt), *wrapped = wrap_lines(src);
    gen_source(p, "%s", wrapped);
    free(wrapped);
    free(src);
    int rc = sp->cuda ? emit_pair(p, sp, dt) : 0;
    if (alts && rc == 0)
        alts(p, sp, dt, ctx);
    return gen_end(p) != 0 || rc != 0 ? -1 : 0;
}

/* Emits sp once per dtype of its list. */
static int emit_dtypes(GenCtx *g, const Spec *sp, SpecAlternatives alts, const void *ctx, int ref_flops_factor)
{
    char dts[64], *dt[8];
    snprintf(dts, sizeof dts, "%s", sp->dtypes);
    int nd = split(dts, ' ', dt, 8);
    for (int k = 0; k < nd; k++)
        if (emit(g, sp, dt[k], alts, ctx, ref_flops_factor) != 0)
            return -1;
    return 0;
}

int spec_emit_alt(GenCtx *g, const Spec *sp, SpecAlternatives alts, const void *ctx)
{
    return emit_dtypes(g, sp, alts, ctx, 0);
}

int spec_emit_all_libm(GenCtx *g, const Spec *specs, int n, int ref_flops_factor)
{
    for (int i = 0; i < n; i++)
        if (emit_dtypes(g, &specs[i], NULL, NULL, ref_flops_factor) != 0)
            return -1;
    return 0;
}

int spec_emit_all(GenCtx *g, const Spec *specs, int n)
{
    return spec_emit_all_libm(g, specs, n, 0);
}
