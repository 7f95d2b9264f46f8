#include "kb_infer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

#define MAX_CFG 16

/* Division truncating toward zero, as common/expr does; k > 0. */
static int64_t tdiv(int64_t a, int64_t k)
{
    return a / k;
}

static int varies(const KbConstants *cfgs, int n_cfg, int c)
{
    for (int i = 1; i < n_cfg; i++)
        if (cfgs[i].values[c] != cfgs[0].values[c])
            return 1;
    return 0;
}

/* " + 3" / " - 3" / "" for an additive constant. */
static void add_term(StrBuf *sb, int64_t c)
{
    if (c > 0)
        sb_printf(sb, "+%lld", (long long)c);
    else if (c < 0)
        sb_printf(sb, "-%lld", (long long)-c);
}

/* Order in which constants are tried: varying ones first, then file order. */
static int order_constants(const KbConstants *cfgs, int n_cfg, int *order)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < cfgs[0].n; c++)
            if (varies(cfgs, n_cfg, c) == (pass == 0))
                order[n++] = c;
    return n;
}

static int all_equal(const int64_t *dims, int n_cfg)
{
    for (int i = 1; i < n_cfg; i++)
        if (dims[i] != dims[0])
            return 0;
    return 1;
}

static char *try_constant(const KbConstants *cfgs, int n_cfg, const int64_t *dims, const int *order, int n)
{
    for (int oi = 0; oi < n; oi++) {
        int c = order[oi], ok = 1;
        for (int i = 0; i < n_cfg && ok; i++)
            ok = cfgs[i].values[c] == dims[i];
        if (ok)
            return xstrdup(cfgs[0].names[c]);
    }
    return NULL;
}

/* Products of 2 or 3 varying constants, times k or divided by k. */
static char *try_products(const KbConstants *cfgs, int n_cfg, const int64_t *dims, const int *order, int nvary)
{
    for (int arity = 2; arity <= 3; arity++) {
        int idx[3];
        for (idx[0] = 0; idx[0] < nvary; idx[0]++)
            for (idx[1] = idx[0]; idx[1] < nvary; idx[1]++)
                for (idx[2] = arity == 3 ? idx[1] : 0; idx[2] < (arity == 3 ? nvary : 1); idx[2]++) {
                    for (int k = 1; k <= 8; k++)
                        for (int mul = 1; mul >= 0; mul--) {
                            if (k == 1 && !mul)
                                continue;
                            int ok = 1;
                            for (int i = 0; i < n_cfg && ok; i++) {
                                int64_t v = 1;
                                for (int a = 0; a < arity; a++) {
                                    int64_t x = cfgs[i].values[order[idx[a]]];
                                    if (__builtin_mul_overflow(v, x, &v))
                                        ok = 0;
                                }
                                if (ok)
                                    v = mul ? v * k : tdiv(v, k);
                                ok = ok && v == dims[i];
                            }
                            if (!ok)
                                continue;
                            StrBuf sb = STRBUF_INIT;
                            if (mul && k > 1)
                                sb_printf(&sb, "%d*", k);
                            for (int a = 0; a < arity; a++)
                                sb_printf(&sb, "%s%s", a ? "*" : "", cfgs[0].names[order[idx[a]]]);
                            if (!mul)
                                sb_printf(&sb, "/%d", k);
                            return sb_steal(&sb);
                        }
                }
    }
    return NULL;
}

/* (X+b)/k+c where X's values on the configs are x and name is X's text
 * (paren: X is a sum that needs parentheses); among the forms that fit,
 * the one with the smallest |b|+|c| (then smallest |c|, then k). */
static char *fit_affine(const int64_t *x, int n_cfg, const int64_t *dims, const char *name, int paren)
{
    int found = 0, bk = 0;
    int64_t bb_best = 0, bc = 0;
    for (int k = 1; k <= 8; k++)
        for (int64_t b = -16; b <= 16; b++) {
            if (k == 1 && b != 0)
                continue; /* with k = 1, b and c merge into c */
            int64_t c = dims[0] - tdiv(x[0] + b, k);
            if (c < -64 || c > 64)
                continue;
            int ok = 1;
            for (int i = 0; i < n_cfg && ok; i++)
                ok = x[i] + b >= 0 && tdiv(x[i] + b, k) + c == dims[i];
            if (!ok)
                continue;
            int64_t cost = llabs(b) + llabs(c), best = llabs(bb_best) + llabs(bc);
            if (!found || cost < best || (cost == best && llabs(c) < llabs(bc))) {
                found = 1;
                bk = k;
                bb_best = b;
                bc = c;
            }
        }
    if (found) {
        StrBuf sb = STRBUF_INIT;
        if (bk == 1) {
            sb_append(&sb, name);
        } else if (bb_best == 0 && !paren) {
            sb_printf(&sb, "%s/%d", name, bk);
        } else {
            sb_printf(&sb, "(%s", name);
            add_term(&sb, bb_best);
            sb_printf(&sb, ")/%d", bk);
        }
        add_term(&sb, bc);
        return sb_steal(&sb);
    }
    /* X*k+c */
    for (int k = 2; k <= 16; k++) {
        int64_t c = dims[0] - x[0] * k;
        if (c < -64 || c > 64)
            continue;
        int ok = 1;
        for (int i = 0; i < n_cfg && ok; i++)
            ok = x[i] * k + c == dims[i];
        if (ok) {
            StrBuf sb = STRBUF_INIT;
            sb_printf(&sb, paren ? "(%s)*%d" : "%s*%d", name, k);
            add_term(&sb, c);
            return sb_steal(&sb);
        }
    }
    return NULL;
}

static char *try_affine(const KbConstants *cfgs, int n_cfg, const int64_t *dims, const int *order, int nvary)
{
    int64_t x[MAX_CFG];
    for (int a = 0; a < nvary; a++) {
        for (int i = 0; i < n_cfg; i++)
            x[i] = cfgs[i].values[order[a]];
        char *r = fit_affine(x, n_cfg, dims, cfgs[0].names[order[a]], 0);
        if (r)
            return r;
    }
    for (int a = 0; a < nvary; a++)
        for (int b2 = 0; b2 < nvary; b2++) {
            if (a == b2)
                continue;
            for (int sign = 1; sign >= -1; sign -= 2) {
                if (sign > 0 && b2 < a)
                    continue; /* C1+C2 == C2+C1 */
                for (int i = 0; i < n_cfg; i++)
                    x[i] = cfgs[i].values[order[a]] + sign * cfgs[i].values[order[b2]];
                char *name = xasprintf("%s%c%s", cfgs[0].names[order[a]], sign > 0 ? '+' : '-',
                                       cfgs[0].names[order[b2]]);
                char *r = fit_affine(x, n_cfg, dims, name, 1);
                free(name);
                if (r)
                    return r;
            }
        }
    return NULL;
}

char *kb_infer_dim(const KbConstants *cfgs, int n_cfg, const int64_t *dims)
{
    int order[KB_MAX_CONSTANTS];
    if (n_cfg < 1 || n_cfg > MAX_CFG)
        return NULL;
    int n = order_constants(cfgs, n_cfg, order);
    int nvary = 0;
    while (nvary < n && varies(cfgs, n_cfg, order[nvary]))
        nvary++;
    if (all_equal(dims, n_cfg) && dims[0] <= 1)
        return xasprintf("%lld", (long long)dims[0]);
    char *r = try_constant(cfgs, n_cfg, dims, order, n);
    if (r)
        return r;
    if (all_equal(dims, n_cfg))
        return xasprintf("%lld", (long long)dims[0]);
    if ((r = try_products(cfgs, n_cfg, dims, order, nvary)) != NULL)
        return r;
    return try_affine(cfgs, n_cfg, dims, order, nvary);
}

int kb_infer_mentions(const char *expr, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = expr; (p = strstr(p, name)) != NULL; p += n) {
        int before = p > expr && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}
