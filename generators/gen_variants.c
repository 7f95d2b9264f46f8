/* gen_variants.c — mechanical rewrites of a reference pair into candidate
 * variants (see gen_variants.h for what each one means). */
#include "gen_variants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"

/* Block sizes tried by the block-size variants (the reference's own is
 * skipped). */
static const int BLOCK_SIZES[] = {64, 128, 512, 1024};

typedef struct VariantList {
    GenVariant *v;
    int n;
} VariantList;

/* ---- string helpers ---- */

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + strlen(needle), needle))
        n++;
    return n;
}

/* s with the bytes [at, at+len) replaced by repl (from malloc()). */
static char *splice(const char *s, size_t at, size_t len, const char *repl)
{
    return xasprintf("%.*s%s%s", (int)at, s, repl, s + at + len);
}

/* s with every occurrence of needle replaced (from malloc()). */
static char *replace_all(const char *s, const char *needle, const char *repl)
{
    StrBuf b = STRBUF_INIT;
    size_t nl = strlen(needle);
    for (const char *p = s, *q; *p; p = q + nl) {
        q = strstr(p, needle);
        if (!q) {
            sb_append(&b, p);
            break;
        }
        sb_printf(&b, "%.*s%s", (int)(q - p), p, repl);
        if (!q[nl])
            break;
    }
    return sb_steal(&b);
}

/* Whether `tok` occurs in s as a whole token (not inside a longer name or
 * number). */
static int has_token(const char *s, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = strstr(s, tok); p; p = strstr(p + 1, tok)) {
        int before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

static void add_variant(VariantList *l, const char *name, char *source, cJSON *launches, const cJSON *ref_knobs,
                        const char *defect, const char *expect, const char *knob, const char *value)
{
    cJSON *knobs = ref_knobs ? cJSON_Duplicate(ref_knobs, 1) : cJSON_CreateObject();
    if (knob) {
        cJSON_DeleteItemFromObjectCaseSensitive(knobs, knob);
        cJSON_AddStringToObject(knobs, knob, value);
    }
    cJSON_AddStringToObject(knobs, "derived", name);
    if (defect)
        cJSON_AddStringToObject(knobs, "defect", defect);
    cJSON_AddStringToObject(knobs, "expect", expect);
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 1));
    l->v[l->n++] = (GenVariant){xstrdup(name), source, launches, knobs};
}

static const char *str_item(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* ---- block size ---- */

/* The reference's one-dimensional block size when every launch uses the
 * same literal one and no dynamic shared memory; 0 otherwise. */
static int uniform_block(const cJSON *launches)
{
    int block = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, launches) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(l, "block");
        const char *smem = str_item(l, "smem");
        if (cJSON_GetArraySize(b) != 1 || !cJSON_IsString(b->child) || (smem && strcmp(smem, "0") != 0))
            return 0;
        char *end;
        long v = strtol(b->child->valuestring, &end, 10);
        if (*end || v <= 0 || (block && v != block))
            return 0;
        block = (int)v;
    }
    return block;
}

/* Launches with block size `to` instead of `from`, the grid's
 * "+(from-1))/from" ceilings rewritten; NULL when anything else in the
 * plan depends on `from`. */
static cJSON *relaunch(const cJSON *launches, int from, int to)
{
    char from_tok[16], ceil_from[48], ceil_to[48], to_tok[16];
    snprintf(from_tok, sizeof from_tok, "%d", from);
    snprintf(to_tok, sizeof to_tok, "%d", to);
    snprintf(ceil_from, sizeof ceil_from, "+%d)/%d", from - 1, from);
    snprintf(ceil_to, sizeof ceil_to, "+%d)/%d", to - 1, to);
    cJSON *out = cJSON_Duplicate(launches, 1);
    cJSON *l;
    cJSON_ArrayForEach(l, out) {
        cJSON *g;
        cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(l, "grid")) {
            char *rewritten = replace_all(g->valuestring, ceil_from, ceil_to);
            int stale = has_token(rewritten, from_tok);
            cJSON_SetValuestring(g, rewritten);
            free(rewritten);
            if (stale)
                goto refuse;
        }
        cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(l, "args"))
            if (has_token(a->valuestring, from_tok))
                goto refuse;
        cJSON *b = cJSON_GetObjectItemCaseSensitive(l, "block");
        cJSON_SetValuestring(b->child, to_tok);
    }
    return out;
refuse:
    cJSON_Delete(out);
    return NULL;
}

static void block_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    int from = uniform_block(launches);
    char tok[16];
    snprintf(tok, sizeof tok, "%d", from);
    /* a literal of the block size in the source (a shared array, a loop
     * bound) means the kernel assumes it */
    if (!from || has_token(src, tok))
        return;
    for (size_t i = 0; i < sizeof BLOCK_SIZES / sizeof BLOCK_SIZES[0]; i++) {
        int to = BLOCK_SIZES[i];
        if (to == from)
            continue;
        cJSON *plan = relaunch(launches, from, to);
        if (!plan)
            return;
        char name[32], value[16];
        snprintf(name, sizeof name, "block-%d", to);
        snprintf(value, sizeof value, "%d", to);
        add_variant(l, name, xstrdup(src), plan, knobs, NULL, "pass", "block", value);
    }
}

/* ---- access pattern and qualifiers ---- */

#define COALESCED_INDEX "blockIdx.x * blockDim.x + threadIdx.x"
#define TRANSPOSED_INDEX "threadIdx.x * gridDim.x + blockIdx.x"

/* One thread per element with i = blockIdx.x * blockDim.x + threadIdx.x and
 * no other use of the thread's position: mapping thread (b, t) to element
 * t * gridDim.x + b still covers every element once, but neighbouring
 * threads now touch addresses gridDim.x elements apart. */
static void uncoalesced_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (count_of(src, COALESCED_INDEX) != 1 || count_of(src, "threadIdx") != 1 || count_of(src, "blockDim") != 1 ||
        strstr(src, "__shared__") || strstr(src, "__syncthreads") || strstr(src, "__shfl"))
        return;
    add_variant(l, "uncoalesced", replace_all(src, COALESCED_INDEX, TRANSPOSED_INDEX), cJSON_Duplicate(launches, 1),
                knobs, "uncoalesced", "slower", "mapping", "transposed-uncoalesced");
}

static void restrict_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (!strstr(src, "__restrict__"))
        return;
    char *a = replace_all(src, " __restrict__", "");
    char *b = replace_all(a, "__restrict__ ", "");
    free(a);
    add_variant(l, "no-restrict", b, cJSON_Duplicate(launches, 1), knobs, NULL, "pass", "restrict", "no");
}

/* ---- planted defects ---- */

/* The first bounds guard: a line "if (COND)" whose COND is one comparison
 * of the form "A >= B" followed by a line "return;", or "A < B" guarding
 * what follows.  Sets the condition's span and the guard's kind. */
typedef struct Guard {
    size_t line_at, line_len;  /* the "if (...)" line, without its newline */
    size_t cond_at, cond_len;
    size_t op_at;              /* the comparison operator inside the condition */
    int returns;               /* ">= ... return;" form (else "<" form) */
    size_t return_len;         /* length of the following "   return;\n" line */
} Guard;

static int find_guard(const char *src, Guard *g)
{
    for (const char *p = strstr(src, "if ("); p; p = strstr(p + 1, "if (")) {
        const char *line = p;
        while (line > src && line[-1] != '\n')
            line--;
        for (const char *q = line; q < p; q++)
            if (!isspace((unsigned char)*q))
                goto next;
        const char *open = p + 3, *close = NULL;
        int depth = 0;
        for (const char *q = open; *q && *q != '\n'; q++) {
            if (*q == '(')
                depth++;
            else if (*q == ')' && --depth == 0) {
                close = q;
                break;
            }
        }
        if (!close)
            goto next;
        size_t cond_at = (size_t)(open + 1 - src), cond_len = (size_t)(close - open - 1);
        char *cond = xasprintf("%.*s", (int)cond_len, open + 1);
        int single = !strstr(cond, "&&") && !strstr(cond, "||");
        /* the operators' places in src (cond is a copy of src's bytes) */
        const char *ge = strstr(cond, " >= "), *lt = strstr(cond, " < ");
        ge = ge ? open + 1 + (ge - cond) : NULL;
        lt = lt ? open + 1 + (lt - cond) : NULL;
        const char *eol = strchr(close, '\n');
        const char *rest = close + 1;
        free(cond);
        if (!single || !eol)
            goto next;
        /* "if (i >= n)\n    return;" */
        if (ge && rest == eol) {
            const char *r = eol + 1;
            while (*r == ' ' || *r == '\t')
                r++;
            if (strncmp(r, "return;\n", 8) == 0) {
                *g = (Guard){(size_t)(line - src), (size_t)(eol - line), cond_at, cond_len,
                             (size_t)(ge - src) + 1, 1, (size_t)(r + 8 - (eol + 1))};
                return 1;
            }
        }
        /* "if (i < n)" guarding a statement or a block */
        if (lt && !ge && (rest == eol || (eol - rest == 2 && strncmp(rest, " {", 2) == 0))) {
            *g = (Guard){(size_t)(line - src), (size_t)(eol - line), cond_at, cond_len,
                         (size_t)(lt - src) + 1, 0, 0};
            return 1;
        }
    next:;
    }
    return 0;
}

static void guard_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    Guard g;
    if (!find_guard(src, &g))
        return;
    /* missing bounds check: the guard is simply not there */
    char *missing;
    if (g.returns) {
        missing = splice(src, g.line_at, g.line_len + 1 + g.return_len, "");
    } else {
        const char *brace = strchr(src + g.cond_at + g.cond_len, '\n');
        int opens_block = brace[-1] == '{';
        char *indent = xasprintf("%.*s%s", (int)(strstr(src + g.line_at, "if (") - (src + g.line_at)),
                                 src + g.line_at, opens_block ? "{" : "");
        missing = opens_block ? splice(src, g.line_at, g.line_len, indent)
                              : splice(src, g.line_at, g.line_len + 1, "");
        free(indent);
    }
    add_variant(l, "missing-bounds-check", missing, cJSON_Duplicate(launches, 1), knobs, "missing-bounds-check",
                "fail", NULL, NULL);
    /* off by one: ">=" becomes ">" (or "<" becomes "<="), so the thread at
     * the bound runs too */
    char *off = g.returns ? splice(src, g.op_at, 2, ">") : splice(src, g.op_at, 1, "<=");
    add_variant(l, "off-by-one", off, cJSON_Duplicate(launches, 1), knobs, "off-by-one", "fail", NULL, NULL);
}

static void sync_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    const char *s = strstr(src, "__syncthreads();");
    if (!s)
        return;
    const char *line = s;
    while (line > src && line[-1] != '\n')
        line--;
    const char *eol = strchr(s, '\n');
    for (const char *q = line; q < s; q++)
        if (!isspace((unsigned char)*q))
            return; /* not a statement of its own */
    char *out = splice(src, (size_t)(line - src), (size_t)(eol ? eol + 1 - line : (long)strlen(line)), "");
    add_variant(l, "missing-syncthreads", out, cJSON_Duplicate(launches, 1), knobs, "missing-syncthreads", "race",
                NULL, NULL);
}

/* "atomicAdd(&x[i], v);" as a statement becomes "x[i] += v;". */
static void atomic_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    for (const char *a = strstr(src, "atomicAdd("); a; a = strstr(a + 1, "atomicAdd(")) {
        const char *line = a;
        while (line > src && line[-1] != '\n')
            line--;
        int own_statement = 1;
        for (const char *q = line; q < a; q++)
            own_statement &= isspace((unsigned char)*q) != 0;
        if (!own_statement)
            continue;
        const char *p = a + strlen("atomicAdd("), *comma = NULL, *end = NULL;
        int depth = 1;
        for (const char *q = p; *q && *q != '\n'; q++) {
            if (*q == '(' || *q == '[')
                depth++;
            else if (*q == ')' || *q == ']') {
                if (--depth == 0) {
                    end = q;
                    break;
                }
            } else if (*q == ',' && depth == 1 && !comma) {
                comma = q;
            }
        }
        if (!comma || !end || strncmp(end, ");", 2) != 0)
            continue;
        char *target = *p == '&' ? xasprintf("%.*s", (int)(comma - p - 1), p + 1)
                                 : xasprintf("*(%.*s)", (int)(comma - p), p);
        const char *v = comma + 1;
        while (*v == ' ')
            v++;
        char *stmt = xasprintf("%s += %.*s;", target, (int)(end - v), v);
        char *out = splice(src, (size_t)(a - src), (size_t)(end + 2 - a), stmt);
        free(stmt);
        free(target);
        add_variant(l, "non-atomic-accumulation", out, cJSON_Duplicate(launches, 1), knobs,
                    "non-atomic-accumulation", "race", NULL, NULL);
        return;
    }
}

int variants_derive(const char *source, const cJSON *launches, const cJSON *knobs, GenVariant **out)
{
    VariantList l = {NULL, 0};
    block_variants(&l, source, launches, knobs);
    uncoalesced_variant(&l, source, launches, knobs);
    restrict_variant(&l, source, launches, knobs);
    guard_variants(&l, source, launches, knobs);
    sync_variant(&l, source, launches, knobs);
    atomic_variant(&l, source, launches, knobs);
    *out = l.v;
    return l.n;
}

void variants_free(GenVariant *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].source);
        cJSON_Delete(v[i].launches);
        cJSON_Delete(v[i].knobs);
    }
    free(v);
}
