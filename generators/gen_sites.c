/* gen_sites.c — where a rewrite of a reference kernel can show: which code
 * a launch runs, whether the thread index lays out the hot accesses, and
 * which bounds guard a bounds defect goes to (see gen_sites.h). */
#include "gen_sites.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"

/* ---- text helpers (gen_sites.h; gen_variants' rewrites use them too) ---- */

/* Whether `tok` occurs in s as a whole token (not inside a longer name or
 * number). */
int sites_has_token(const char *s, const char *tok)
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

const char *sites_str_item(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

#define KERNEL_HEAD "__global__ void "

/* The end of the bracketed text that starts at open (one of ( [ {): the
 * byte after its matching closer, or NULL when it is not closed. */
const char *sites_after_match(const char *open)
{
    int depth = 0;
    for (const char *p = open; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && --depth == 0)
            return p + 1;
    }
    return NULL;
}

#define MAX_DERIVED 32
#define NAME_LEN 64

int sites_is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The name that ends, blanks aside, right before p (not before from):
 * returns its end and sets *start to its first byte; *start == the end
 * when there is none. */
const char *sites_name_before(const char *from, const char *p, const char **start)
{
    const char *end = p;
    while (end > from && isspace((unsigned char)end[-1]))
        end--;
    const char *b = end;
    while (b > from && sites_is_name_char(b[-1]))
        b--;
    *start = b;
    return end;
}

/* ---- names derived from the thread's position ---- */

/* The index of [from, to) among the names, or -1. */
static int name_index(const char *from, const char *to, char names[][NAME_LEN], int n)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == (size_t)(to - from) && memcmp(names[i], from, (size_t)(to - from)) == 0)
            return i;
    return -1;
}

/* Whether [from, to) uses one of the names as a value that places an
 * access: inside an array index or a call's arguments (sample(x, n, i - k)
 * reads x[i - k]), or as the base of an array when the name is unit
 * (row[j] with row = src + x; D[j] with D = table + p * len walks memory
 * private to the thread).  With outside_brackets, any use counts but those
 * inside an index: the test for whether an expression derives from a name
 * rather than from memory the name selects (k = row_ptr[u] does not). */
static int uses_name(const char *from, const char *to, char names[][NAME_LEN], const int *unit, int n,
                     int outside_brackets)
{
    enum { GROUP, INDEX, CALL };
    char stack[256];
    int depth = 0, placing = 0, indexing = 0;
    for (const char *p = from; p < to; p++) {
        if (*p == '[' || *p == '(') {
            int kind = GROUP;
            if (*p == '[') {
                kind = INDEX;
            } else {
                const char *w, *q = sites_name_before(from, p, &w);
                static const char *const KEYWORDS[] = {"if", "for", "while", "switch", "return", "sizeof"};
                int keyword = 0;
                for (size_t k = 0; k < sizeof KEYWORDS / sizeof *KEYWORDS; k++)
                    keyword |= strlen(KEYWORDS[k]) == (size_t)(q - w) && memcmp(KEYWORDS[k], w, (size_t)(q - w)) == 0;
                if (w < q && !keyword && !isdigit((unsigned char)*w))
                    kind = CALL;
            }
            if (depth < (int)sizeof stack) {
                stack[depth++] = (char)kind;
                placing += kind != GROUP;
                indexing += kind == INDEX;
            }
        } else if ((*p == ']' || *p == ')') && depth > 0) {
            depth--;
            placing -= stack[depth] != GROUP;
            indexing -= stack[depth] == INDEX;
        } else if (sites_is_name_char(*p) && (p == from || !sites_is_name_char(p[-1]))) {
            const char *e = p;
            while (e < to && sites_is_name_char(*e))
                e++;
            const char *after = e;
            while (after < to && isspace((unsigned char)*after))
                after++;
            int k = name_index(p, e, names, n);
            if (!isdigit((unsigned char)*p) && k >= 0 &&
                (outside_brackets ? !indexing : *after == '[' ? unit[k] : placing))
                return 1;
            p = e - 1;
        }
    }
    return 0;
}

/* Whether the expression [from, to) has, as a whole term of its top-level
 * sum (a cast aside), one of the names marked unit: src + row * w + x moves
 * by one element when x does; table + p * len does not. */
static int has_unit_term(const char *from, const char *to, char names[][NAME_LEN], const int *unit, int n)
{
    int depth = 0;
    const char *term = from;
    for (const char *p = from; p <= to; p++) {
        if (p < to && (*p == '(' || *p == '['))
            depth++;
        else if (p < to && (*p == ')' || *p == ']'))
            depth--;
        if (p < to && (depth != 0 || (*p != '+' && *p != '-')))
            continue;
        const char *a = term, *z = p;
        while (a < z && isspace((unsigned char)*a))
            a++;
        while (z > a && isspace((unsigned char)z[-1]))
            z--;
        if (*a == '(' && a < z) {   /* a cast: (long long)x */
            const char *c = memchr(a, ')', (size_t)(z - a));
            if (c && !memchr(a, '[', (size_t)(c - a)))
                for (a = c + 1; a < z && isspace((unsigned char)*a); a++)
                    ;
        }
        for (int i = 0; i < n; i++)
            if (unit[i] && strlen(names[i]) == (size_t)(z - a) && memcmp(names[i], a, (size_t)(z - a)) == 0)
                return 1;
        term = p + 1;
    }
    return 0;
}

/* The end of the expression that starts at s: the first ; or the first ,
 * or ) not nested in brackets. */
static const char *expression_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(' || *s == '[' || *s == '{')
            depth++;
        else if (depth > 0 && (*s == ')' || *s == ']' || *s == '}'))
            depth--;
        else if (*s == ';' || (depth == 0 && (*s == ',' || *s == ')' || *s == '}')))
            return s;
    }
    return s;
}

/* The variables whose value follows from the seeds (a thread index `var`,
 * or threadIdx and blockIdx themselves) in the kernel text [src, to): the
 * seeds and, to a fixpoint, every name declared or assigned from an
 * expression using one of them outside an index (gid -> ox = gid % w ->
 * x0 = ox * w / ow -> the loop counter x = x0), each marked unit where it
 * is a whole term of its sum (has_unit_term; the seeds are).  Returns the
 * count. */
static int derived_names(const char *src, const char *to, const char *const *seeds, int nseeds,
                         char names[][NAME_LEN], int *unit)
{
    int n = 0;
    for (; n < nseeds && n < MAX_DERIVED; n++) {
        snprintf(names[n], NAME_LEN, "%s", seeds[n]);
        unit[n] = 1;
    }
    for (int grew = 1; grew && n < MAX_DERIVED;) {
        grew = 0;
        for (const char *p = src + 1; p < to && n < MAX_DERIVED; p++) {
            if (*p != '=' || p[1] == '=' || strchr("=!<>+-*/%&|^", p[-1]))
                continue;
            const char *vb, *ve = sites_name_before(src, p, &vb);
            const char *end = expression_end(p + 1);
            if (vb == ve || ve - vb >= NAME_LEN || end >= to || name_index(vb, ve, names, n) >= 0 ||
                !uses_name(p + 1, end, names, unit, n, 1))
                continue;
            unit[n] = has_unit_term(p + 1, end, names, unit, n);
            snprintf(names[n++], NAME_LEN, "%.*s", (int)(ve - vb), vb);
            grew = 1;
        }
    }
    return n;
}

/* The next loop keyword ("for (" or "while (", as a whole word) in
 * [s, to), or NULL; *kw is the length of the word. */
static const char *next_loop(const char *s, const char *to, size_t *kw)
{
    for (const char *p = s; p < to; p++) {
        *kw = strncmp(p, "for (", 5) == 0 ? 3 : strncmp(p, "while (", 7) == 0 ? 5 : 0;
        if (*kw && (p == s || !sites_is_name_char(p[-1])))
            return p;
    }
    return NULL;
}

static int has_loop_in(const char *s, const char *to)
{
    size_t kw;
    return next_loop(s, to, &kw) != NULL;
}

/* Whether the thread index `var` lays out the hot accesses of the kernel
 * [src, to): it has no loop, or the body of some innermost loop (where the
 * bulk of the traffic is) places an access by the index or a name derived
 * from it.  A kernel whose loops never do (a DFT over all of x per thread,
 * a binary search, a table private to the thread, an edge list, every body
 * of an n-body system) moves the bulk of its traffic the same way whatever
 * the mapping of threads to elements. */
int sites_thread_index_coalesces(const char *src, const char *to, const char *var)
{
    char names[MAX_DERIVED][NAME_LEN];
    int unit[MAX_DERIVED];
    int n = derived_names(src, to, &var, 1, names, unit), loops = 0;
    size_t kw;
    for (const char *p = src; (p = next_loop(p, to, &kw)) != NULL;) {
        const char *body = sites_after_match(p + kw + 1);
        if (!body)
            break;
        while (isspace((unsigned char)*body))
            body++;
        const char *end = *body == '{' ? sites_after_match(body) : strchr(body, ';');
        if (!end || end > to)
            break;
        loops++;
        if (!has_loop_in(body, end) && uses_name(body, end, names, unit, n, 0))
            return 1;
        p = body;   /* inner loops are visited too */
    }
    return !loops;
}

/* ---- which code runs ----
 *
 * A rewrite that plants a defect or claims a change must do so in code a
 * launch reaches: a helper no kernel calls can be rewritten to no effect. */

#define MAX_FUNCS 64

/* A function the source defines (a declaration without a body is none). */
typedef struct FuncSpan {
    char name[NAME_LEN];
    size_t params;      /* its parameter list's "(" */
    size_t from, to;    /* its body, from "{" to just after the matching "}" */
    int global;         /* a kernel (else a __device__ helper) */
} FuncSpan;

/* The functions src defines, in order, into f (at most max).  Returns their
 * count, or -1 when there were more than max. */
static int function_spans(const char *src, FuncSpan *f, int max)
{
    int n = 0;
    for (const char *q = strstr(src, "__"); q; q = strstr(q + 2, "__")) {
        int global = strncmp(q, "__global__", 10) == 0;
        if ((!global && strncmp(q, "__device__", 10) != 0) || (q > src && sites_is_name_char(q[-1])))
            continue;
        const char *open = strchr(q, '(');
        if (!open)
            break;
        const char *nb, *ne = sites_name_before(q, open, &nb), *close = sites_after_match(open);
        if (nb == ne || ne - nb >= NAME_LEN || !close)
            continue;
        while (isspace((unsigned char)*close))
            close++;
        const char *end = *close == '{' ? sites_after_match(close) : NULL;
        if (!end)
            continue;
        if (n == max)
            return -1;
        snprintf(f[n].name, NAME_LEN, "%.*s", (int)(ne - nb), nb);
        f[n].params = (size_t)(open - src);
        f[n].from = (size_t)(close - src);
        f[n].to = (size_t)(end - src);
        f[n].global = global;
        n++;
        q = end - 2;
    }
    return n;
}

/* The index of the function whose body holds src[at], or -1. */
static int function_at(const FuncSpan *f, int n, size_t at)
{
    for (int i = 0; i < n; i++)
        if (at >= f[i].from && at < f[i].to)
            return i;
    return -1;
}

/* Whether [from, to) calls `name` ("name(" as a whole word). */
static int calls(const char *from, const char *to, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(from, name); p && p < to; p = strstr(p + 1, name)) {
        const char *after = p + len;
        while (*after == ' ')
            after++;
        if (*after == '(' && (p == from || !sites_is_name_char(p[-1])) && !sites_is_name_char(p[len]))
            return 1;
    }
    return 0;
}

/* Whether the code at src[at] runs: it lies in a kernel that a launch
 * names, or in a helper such a function calls, directly or through other
 * helpers.  A guard in a helper nothing calls can be dropped to no effect
 * (c/cross_entropy/bce-none-f32 carried an unused block_sum whose
 * "if (threadIdx.x < s)" took both bounds defects: they passed every
 * config).  Code in no function, in a source too large to map, or beside a
 * plan that launches none of its kernels counts as running. */
int sites_runs(const char *src, size_t at, const cJSON *launches)
{
    FuncSpan f[MAX_FUNCS];
    int n = function_spans(src, f, MAX_FUNCS), reached[MAX_FUNCS] = {0};
    int here = n > 0 ? function_at(f, n, at) : -1;
    if (here < 0)
        return 1;
    int launched = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *l;
        cJSON_ArrayForEach(l, launches) {
            const char *k = sites_str_item(l, "kernel");
            reached[i] |= f[i].global && k && strcmp(k, f[i].name) == 0;
        }
        launched |= reached[i];
    }
    if (!launched)
        return 1;   /* a plan that names none of these kernels tells nothing */
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; reached[i] && j < n; j++)
                if (!reached[j] && calls(src + f[i].from, src + f[i].to, f[j].name))
                    reached[j] = grew = 1;
    }
    return reached[here];
}

/* ---- bounds guards ---- */

/* Whether src[from, to) stores into an array that is not __shared__
 * ("out[i * m + j] = v", "y[i] += a"): a bounds guard around such a store
 * protects the output, so taking it away changes the result; one around a
 * load into shared memory only reads past an input, which no output shows. */
static int is_shared_array(const char *src, const char *name, size_t len)
{
    for (const char *s = strstr(src, "__shared__"); s; s = strstr(s + 1, "__shared__")) {
        const char *eol = strchr(s, '\n');
        for (const char *hit = strstr(s, name); hit && (!eol || hit < eol); hit = strstr(hit + 1, name))
            if (strncmp(hit, name, len) == 0 && hit[len] == '[' && !isalnum((unsigned char)hit[-1]) && hit[-1] != '_')
                return 1;
    }
    return 0;
}

static int stores_global(const char *src, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        /* the torch kernels' dtype-generic store, tc_st(out, index, value),
         * always writes a global buffer (torch_cuda.h) */
        if (strncmp(src + k, "tc_st(", 6) == 0 && (k == 0 || !sites_is_name_char(src[k - 1])))
            return 1;
        /* atomicAdd(&name[...], ...) and its kin */
        if (strncmp(src + k, "atomic", 6) == 0) {
            const char *amp = strstr(src + k, "(&");
            if (amp && (size_t)(amp - src) < to) {
                const char *b = amp + 2, *e = b;
                while (isalnum((unsigned char)*e) || *e == '_')
                    e++;
                char *name = xasprintf("%.*s", (int)(e - b), b);
                int shared = e > b && *e == '[' && is_shared_array(src, name, (size_t)(e - b));
                free(name);
                if (e > b && *e == '[' && !shared)
                    return 1;
            }
        }
        if (src[k] != ']')
            continue;
        size_t q = k + 1;
        while (q < to && src[q] == ' ')
            q++;
        int assign = q < to && ((src[q] == '=' && src[q + 1] != '=') ||
                                (strchr("+-*/|&^", src[q]) && src[q] && src[q + 1] == '='));
        if (!assign)
            continue;
        /* back over the subscripts ("[r][c]") to the array's name */
        size_t b = k + 1;
        while (b > from && src[b - 1] == ']') {
            int depth = 0;
            do {
                b--;
                if (src[b] == ']')
                    depth++;
                else if (src[b] == '[')
                    depth--;
            } while (b > from && depth > 0);
        }
        size_t e = b;
        while (b > from && (isalnum((unsigned char)src[b - 1]) || src[b - 1] == '_'))
            b--;
        if (b == e)
            continue;
        char *name = xasprintf("%.*s", (int)(e - b), src + b);
        int shared = is_shared_array(src, name, e - b);
        free(name);
        if (!shared)
            return 1;
    }
    return 0;
}

/* The end of what the "if (...)" line at src[eol] guards: the statement on
 * the next line, or the block its " {" opens. */
static size_t guarded_end(const char *src, const char *eol)
{
    if (eol[-1] == '{') {
        int depth = 1;
        const char *q = eol + 1;
        for (; *q && depth > 0; q++)
            depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
        return (size_t)(q - src);
    }
    const char *semi = strchr(eol + 1, ';');
    return semi ? (size_t)(semi - src) : strlen(src);
}

/* The first bounds guard: a line "if (COND)" whose COND is "A >= B" (or
 * several such joined by ||) followed by a line "return;", or "A < B" (or
 * several joined by &&) guarding a statement or block (with want_store:
 * one that stores into a global array).  Sets the condition's span,
 * its first operator and the guard's kind. */
static int find_guard_where(const char *src, size_t from, int want_store, Guard *g)
{
    for (const char *p = strstr(src + from, "if ("); p; p = strstr(p + 1, "if (")) {
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
        /* one comparison, or several joined the way bounds guards join
         * them: "i >= n || j >= m" before a return, "i < n && j < m" around
         * the work */
        int has_and = strstr(cond, "&&") != NULL, has_or = strstr(cond, "||") != NULL;
        int has_ternary = strchr(cond, '?') != NULL;
        /* the operators' places in src (cond is a copy of src's bytes) */
        const char *ge = strstr(cond, " >= "), *lt = strstr(cond, " < ");
        ge = ge ? open + 1 + (ge - cond) : NULL;
        lt = lt ? open + 1 + (lt - cond) : NULL;
        const char *eol = strchr(close, '\n');
        const char *rest = close + 1;
        free(cond);
        if ((has_and && has_or) || !eol || has_ternary)
            goto next;
        /* "if (i >= n)\n    return;" */
        if (ge && !has_and && rest == eol) {
            const char *r = eol + 1;
            while (*r == ' ' || *r == '\t')
                r++;
            if (strncmp(r, "return;\n", 8) == 0) {
                *g = (Guard){(size_t)(line - src), (size_t)(eol - line), cond_at, cond_len,
                             (size_t)(ge - src) + 1, 1, (size_t)(r + 8 - (eol + 1))};
                return 1;
            }
        }
        /* "if (i < n)" guarding a statement or a block that stores an
         * output (a guard around a load into shared memory is passed over) */
        if (lt && !ge && !has_or && (rest == eol || (eol - rest == 2 && strncmp(rest, " {", 2) == 0)) &&
            (!want_store || stores_global(src, (size_t)(eol - src), guarded_end(src, eol)))) {
            *g = (Guard){(size_t)(line - src), (size_t)(eol - line), cond_at, cond_len,
                         (size_t)(lt - src) + 1, 0, 0};
            return 1;
        }
    next:;
    }
    return 0;
}

/* A literal non-negative integer expression ("256"), or -1. */
static long long literal_of(const char *expr)
{
    if (!expr || !isdigit((unsigned char)*expr))
        return -1;
    char *end;
    long long v = strtoll(expr, &end, 10);
    return *end ? -1 : v;
}

/* The product of a launch's grid or block dimensions when all are literal,
 * or -1. */
static long long literal_product(const cJSON *dims)
{
    long long prod = 1;
    const cJSON *d;
    cJSON_ArrayForEach(d, dims) {
        long long v = cJSON_IsString(d) ? literal_of(d->valuestring) : -1;
        if (v < 0)
            return -1;
        prod *= v;
    }
    return prod;
}

/* ---- which guards a bounds defect can show on ---- */

#define MAX_FACTORS 16
#define FACTOR_LEN 160

/* The parameter names of function f, into names (at most max).  Returns
 * their count. */
static int param_names(const char *src, const FuncSpan *f, char names[][NAME_LEN], int max)
{
    const char *open = src + f->params, *close = sites_after_match(open);
    int n = 0, depth = 0;
    for (const char *p = open + 1; close && p < close && n < max; p++) {
        depth += *p == '(' || *p == '[' ? 1 : *p == ')' || *p == ']' ? -1 : 0;
        if ((depth == 0 && *p == ',') || p == close - 1) {
            const char *nb, *ne = sites_name_before(open + 1, p, &nb);
            if (nb < ne && ne - nb < NAME_LEN)
                snprintf(names[n++], NAME_LEN, "%.*s", (int)(ne - nb), nb);
        }
    }
    return n;
}

/* Whether guard g tests the thread's position: its condition uses
 * threadIdx or blockIdx, or a name derived from them, as a value (not
 * inside an index), or, in a __device__ helper, one of the helper's
 * parameters (whatever its caller passes).  A bounds check keeps the
 * threads past the end of the work off memory; a condition on data or on
 * launch arguments alone is no such check: stencil3d heat-neumann-f64's
 * "if (t >= steps)" compares the step a launch runs with the step count
 * (its off-by-one's extra step is overwritten by the final copy), and
 * bfs_step sssp-steps-f32's "if (prev[u] + weight[k] < dist_out[...])"
 * picks the smaller distance before an atomic min that picks it anyway. */
static int guard_tests_position(const char *src, const Guard *g)
{
    FuncSpan f[MAX_FUNCS];
    int n = function_spans(src, f, MAX_FUNCS);
    int at = n > 0 ? function_at(f, n, g->line_at) : -1;
    if (at < 0)
        return 1;
    char seeds[MAX_DERIVED][NAME_LEN];
    const char *seed[MAX_DERIVED];
    int ns = 2;
    snprintf(seeds[0], NAME_LEN, "threadIdx");
    snprintf(seeds[1], NAME_LEN, "blockIdx");
    if (!f[at].global)
        ns += param_names(src, &f[at], seeds + 2, MAX_DERIVED / 2);
    for (int i = 0; i < ns; i++)
        seed[i] = seeds[i];
    char names[MAX_DERIVED][NAME_LEN];
    int unit[MAX_DERIVED];
    int nn = derived_names(src + f[at].from, src + g->line_at, seed, ns, names, unit);
    return uses_name(src + g->cond_at, src + g->cond_at + g->cond_len, names, unit, nn, 1);
}

/* expr (len bytes) with its blanks taken out but one between two names
 * ("const int i = (int)(e / n)" reads "const int i=(int)(e/n)"), into out
 * (size bytes); returns 0 when it does not fit. */
static int unblanked(const char *expr, size_t len, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < len && expr[i]; i++) {
        int blank = isspace((unsigned char)expr[i]);
        if (blank && !(k > 0 && sites_is_name_char(out[k - 1]) && i + 1 < len && sites_is_name_char(expr[i + 1])))
            continue;
        if (k + 1 >= size)
            return 0;
        out[k++] = blank ? ' ' : expr[i];
    }
    out[k] = 0;
    return 1;
}

/* src[from, to) unblanked() (from malloc()). */
static char *squeezed(const char *src, size_t from, size_t to)
{
    char *out = xmalloc(to - from + 1);
    unblanked(src + from, to - from, out, to - from + 1);
    return out;
}

/* s without a leading cast ("(long long)e", unblanked()) and without
 * parentheses around the whole of it, in place. */
static void bare(char *s)
{
    for (int again = 1; again;) {
        again = 0;
        size_t n = strlen(s);
        if (s[0] != '(')
            break;
        const char *close = sites_after_match(s);
        if (!close)
            break;
        if (*close == 0) {              /* "(a+b)" */
            memmove(s, s + 1, n - 2);
            s[n - 2] = 0;
            again = 1;
            continue;
        }
        int cast = 1;                   /* "(longlong)x": a type's words only */
        for (const char *p = s + 1; p < close - 1; p++)
            cast &= isalpha((unsigned char)*p) || *p == '_' || *p == ' ';
        if (cast && (sites_is_name_char(*close) || *close == '(')) {
            memmove(s, close, strlen(close) + 1);
            again = 1;
        }
    }
}

/* The factors of the product expr (unblanked()): its top-level "*" terms,
 * each bare(); the whole of it, bare(), when it is no product ("a+b",
 * "(h+t-1)/t").  Returns their count, or -1 when there are more than max
 * or the text is too long. */
static int factors_of(const char *expr, char out[][FACTOR_LEN], int max)
{
    char e[FACTOR_LEN];
    if (max < 1 || snprintf(e, sizeof e, "%s", expr) >= (int)sizeof e)
        return -1;
    bare(e);
    int depth = 0, product = 1;
    for (const char *p = e; *p; p++) {
        depth += *p == '(' || *p == '[' ? 1 : *p == ')' || *p == ']' ? -1 : 0;
        if (depth == 0 && strchr("+-/%?:<>=&|!", *p))
            product = 0;
    }
    if (!product) {
        snprintf(out[0], FACTOR_LEN, "%s", e);
        return 1;
    }
    int n = 0;
    const char *start = e;
    for (const char *p = e;; p++) {
        depth += *p == '(' || *p == '[' ? 1 : *p == ')' || *p == ']' ? -1 : 0;
        if (*p == 0 || (depth == 0 && *p == '*')) {
            if (n == max)
                return -1;
            snprintf(out[n], FACTOR_LEN, "%.*s", (int)(p - start), start);
            bare(out[n++]);
            start = p + 1;
        }
        if (*p == 0)
            break;
    }
    return n;
}

static int compare_factors(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Whether guard g is passed by every thread of every launch of its kernel
 * by construction: g is one comparison "e < N" (or "e >= N" before a
 * return) of the thread's global index e = blockIdx.x * blockDim.x +
 * threadIdx.x, and every launch has a literal 1-D block of B threads and
 * the grid (N+B-1)/B of the same N, written as a product whose literal
 * factors make a multiple of B: then grid times B is exactly N.  N is
 * either the launch's argument for a parameter ("zero_i32(counts, r*256)"
 * with grid "(r*256+255)/256": c/histogram/rows-u8) or an expression of
 * parameters in the kernel ("e >= (long long)batch * 256" with grid
 * "(batch*256+255)/256": c/batched_gemm/fixed-16x16-f32); the products
 * are compared as multisets of factors, each parameter standing for its
 * argument's factors. */
static int covered_by_construction(const char *src, const Guard *g, const cJSON *launches)
{
    FuncSpan f[MAX_FUNCS];
    int nf = function_spans(src, f, MAX_FUNCS);
    int at = nf > 0 ? function_at(f, nf, g->line_at) : -1;
    char cond[FACTOR_LEN];
    if (at < 0 || !f[at].global || !unblanked(src + g->cond_at, g->cond_len, cond, sizeof cond) ||
        strstr(cond, "&&") || strstr(cond, "||"))
        return 0;
    /* the compared index: declared as the global thread index */
    const char *op = src + g->op_at, *ib, *ie = sites_name_before(src + g->cond_at, op, &ib);
    if (ib == ie || ie - ib >= NAME_LEN)
        return 0;
    char decl[NAME_LEN + 8];
    snprintf(decl, sizeof decl, " %.*s = ", (int)(ie - ib), ib);
    const char *d = strstr(src + f[at].from, decl);
    const char *semi = d ? strchr(d, ';') : NULL;
    char index[FACTOR_LEN];
    if (!d || !semi || d > src + g->line_at ||
        !unblanked(d + strlen(decl), (size_t)(semi - d) - strlen(decl), index, sizeof index))
        return 0;
    bare(index);
    if (strcmp(index, "blockIdx.x*blockDim.x+threadIdx.x") != 0)
        return 0;
    /* the bound's factors, in the kernel's terms */
    const char *b = op + (g->returns ? 2 : 1);
    char bound[FACTOR_LEN], fac[MAX_FACTORS][FACTOR_LEN];
    if (!unblanked(b, (size_t)(src + g->cond_at + g->cond_len - b), bound, sizeof bound))
        return 0;
    int nfac = factors_of(bound, fac, MAX_FACTORS);
    char params[MAX_DERIVED][NAME_LEN];
    int np = param_names(src, &f[at], params, MAX_DERIVED);
    int launched = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, launches) {
        const char *kn = sites_str_item(l, "kernel");
        if (!kn || strcmp(kn, f[at].name) != 0)
            continue;
        launched = 1;
        const cJSON *grid = cJSON_GetObjectItemCaseSensitive(l, "grid");
        const cJSON *block = cJSON_GetObjectItemCaseSensitive(l, "block");
        long long B = literal_product(block);
        if (nfac < 1 || B <= 0 || cJSON_GetArraySize(block) != 1 || cJSON_GetArraySize(grid) != 1 ||
            !cJSON_IsString(grid->child))
            return 0;
        /* N with each parameter replaced by its argument's factors */
        char n_fac[MAX_FACTORS][FACTOR_LEN];
        int nn = 0;
        long long literal = 1;
        for (int i = 0; i < nfac; i++) {
            long long v = literal_of(fac[i]);
            if (v >= 0) {
                literal *= v;
                if (nn == MAX_FACTORS)
                    return 0;
                snprintf(n_fac[nn++], FACTOR_LEN, "%s", fac[i]);
                continue;
            }
            int p = 0;
            while (p < np && strcmp(params[p], fac[i]) != 0)
                p++;
            const cJSON *arg = p < np ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(l, "args"), p) : NULL;
            char a[FACTOR_LEN], af[MAX_FACTORS][FACTOR_LEN];
            if (!cJSON_IsString(arg) || !unblanked(arg->valuestring, strlen(arg->valuestring), a, sizeof a))
                return 0;
            int na = factors_of(a, af, MAX_FACTORS);
            if (na < 0 || nn + na > MAX_FACTORS)
                return 0;
            for (int k = 0; k < na; k++) {
                long long w = literal_of(af[k]);
                if (w >= 0)
                    literal *= w;
                snprintf(n_fac[nn++], FACTOR_LEN, "%s", af[k]);
            }
        }
        if (literal % B != 0)
            return 0;
        /* the grid: "(NUM+B-1)/B" with NUM the same product */
        char gtext[FACTOR_LEN], tail[48], div[24];
        if (!unblanked(grid->child->valuestring, strlen(grid->child->valuestring), gtext, sizeof gtext))
            return 0;
        snprintf(tail, sizeof tail, "+%lld)/%lld", B - 1, B);
        snprintf(div, sizeof div, "/%lld", B);
        size_t gl = strlen(gtext), tl = strlen(tail);
        if (gtext[0] != '(' || gl <= tl + 1 || strcmp(gtext + gl - tl, tail) != 0 ||
            sites_after_match(gtext) != gtext + gl - strlen(div))
            return 0;
        gtext[gl - tl] = 0;
        char g_fac[MAX_FACTORS][FACTOR_LEN];
        int ng = factors_of(gtext + 1, g_fac, MAX_FACTORS);
        if (ng != nn)
            return 0;
        qsort(n_fac, (size_t)nn, FACTOR_LEN, compare_factors);
        qsort(g_fac, (size_t)ng, FACTOR_LEN, compare_factors);
        for (int i = 0; i < nn; i++)
            if (strcmp(n_fac[i], g_fac[i]) != 0)
                return 0;
    }
    return launched;
}

/* Whether the one thread that guard g's off-by-one lets through can only
 * write what a later store overwrites: g is one comparison "L < R" (or
 * "L >= R" before a return) whose guarded code stores "A[L] = ...", and
 * the code after that store, in the same function, stores "A[R] = ...".
 * bfs_step frontier-compact-i32's scan stores block_start[b] for b <
 * nblocks and then the total at block_start[nblocks]: the thread at b ==
 * nblocks wrote there first, and its off-by-one passed every config. */
static int bound_overwritten(const char *src, const Guard *g)
{
    FuncSpan f[MAX_FUNCS];
    int nf = function_spans(src, f, MAX_FUNCS);
    int at = nf > 0 ? function_at(f, nf, g->line_at) : -1;
    char cond[FACTOR_LEN];
    if (at < 0 || !unblanked(src + g->cond_at, g->cond_len, cond, sizeof cond) || strstr(cond, "&&") ||
        strstr(cond, "||"))
        return 0;
    const char *op = strstr(cond, g->returns ? ">=" : "<");
    if (!op)
        return 0;
    char store_l[FACTOR_LEN], store_r[FACTOR_LEN];
    snprintf(store_l, sizeof store_l, "[%.*s]=", (int)(op - cond), cond);
    snprintf(store_r, sizeof store_r, "[%s]=", op + (g->returns ? 2 : 1));
    const char *eol = src + g->line_at + g->line_len;
    size_t guarded_to = g->returns ? f[at].to : guarded_end(src, eol);
    /* the function after the guard, unblanked(), so "A[L] = v" reads "A[L]=v" */
    char *guarded = squeezed(src, (size_t)(eol - src), guarded_to), *body = squeezed(src, (size_t)(eol - src), f[at].to);
    const char *guarded_stop = body + strlen(guarded);
    free(guarded);
    int overwritten = 0;
    for (const char *s = strstr(body, store_l); s && s < guarded_stop && !overwritten; s = strstr(s + 1, store_l)) {
        if (s[strlen(store_l)] == '=')
            continue;
        const char *ab, *ae = sites_name_before(body, s, &ab);
        if (ab == ae)
            continue;
        for (const char *t = strstr(s + 1, store_r); t && !overwritten; t = strstr(t + 1, store_r)) {
            const char *tb, *te = sites_name_before(body, t, &tb);
            overwritten = t[strlen(store_r)] != '=' && te - tb == ae - ab && memcmp(tb, ab, (size_t)(ae - ab)) == 0;
        }
    }
    free(body);
    return overwritten;
}

/* The value assigned to `name` in the unblanked() text s (its first
 * assignment "name=...", up to the end of the expression), bare(), into
 * out (FACTOR_LEN bytes); 0 when there is none. */
static int value_of(const char *s, const char *name, char *out)
{
    size_t n = strlen(name);
    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        if ((p > s && sites_is_name_char(p[-1])) || p[n] != '=' || p[n + 1] == '=')
            continue;
        const char *v = p + n + 1, *e = expression_end(v);
        if (e - v >= FACTOR_LEN)
            return 0;
        snprintf(out, FACTOR_LEN, "%.*s", (int)(e - v), v);
        bare(out);
        return 1;
    }
    return 0;
}

/* The name assigned the value `value` (bare()) in the unblanked() text s,
 * into name (NAME_LEN bytes); 0 when none is. */
static int name_of_value(const char *s, const char *value, char *name)
{
    for (const char *p = strchr(s, '='); p; p = strchr(p + 1, '=')) {
        if (p[1] == '=' || (p > s && strchr("=!<>+-*/%&|^", p[-1])))
            continue;
        const char *nb, *ne = sites_name_before(s, p, &nb);
        const char *e = expression_end(p + 1);
        char v[FACTOR_LEN];
        if (nb == ne || ne - nb >= NAME_LEN || e - p - 1 >= FACTOR_LEN)
            continue;
        snprintf(v, sizeof v, "%.*s", (int)(e - p - 1), p + 1);
        bare(v);
        if (strcmp(v, value) == 0) {
            snprintf(name, NAME_LEN, "%.*s", (int)(ne - nb), nb);
            return 1;
        }
    }
    return 0;
}

/* Guard g's one comparison "L op R", unblanked(), into l (NAME_LEN bytes:
 * L must be a name) and r (FACTOR_LEN bytes); 0 when it is no such
 * comparison. */
static int comparison_of(const char *src, const Guard *g, char *l, char *r)
{
    char cond[FACTOR_LEN];
    if (!unblanked(src + g->cond_at, g->cond_len, cond, sizeof cond) || strstr(cond, "&&") || strstr(cond, "||"))
        return 0;
    const char *op = strstr(cond, g->returns ? ">=" : "<");
    if (!op || op == cond || op - cond >= NAME_LEN)
        return 0;
    snprintf(l, NAME_LEN, "%.*s", (int)(op - cond), cond);
    for (const char *p = l; *p; p++)
        if (!sites_is_name_char(*p))
            return 0;
    snprintf(r, FACTOR_LEN, "%s", op + (g->returns ? 2 : 1));
    return 1;
}

size_t sites_loop_end(const char *src, size_t at)
{
    const char *close = sites_after_match(strchr(src + at, '('));
    if (!close)
        return 0;
    while (isspace((unsigned char)*close))
        close++;
    const char *end = *close == '{' ? sites_after_match(close) : strchr(close, ';');
    return end ? (size_t)(end - src) + (*close != '{') : 0;
}

/* The header of the "for (" at src[at] unblanked() (from malloc()): "int
 * i=threadIdx.x;i<n;i+=blockDim.x". */
static char *loop_header(const char *src, size_t at)
{
    const char *open = strchr(src + at, '('), *close = sites_after_match(open);
    return squeezed(src, (size_t)(open + 1 - src), close ? (size_t)(close - 1 - src) : (size_t)(open + 1 - src));
}

/* Whether "if (e >= N)  return;" stops no thread that the code after it
 * would not stop anyway, because N is a square W * W, the thread's
 * row and column are i = e / W and j = e % W, and before any access a
 * triangle test "if (j < i) return;" (or "i > j") sends back every thread
 * below the diagonal: past the square, i >= W > j.  c/ger/syr-upper-f32:
 * both bounds defects passed every config. */
static int triangle_stops_the_rest(const char *src, const Guard *g, const FuncSpan *f)
{
    char l[NAME_LEN], r[FACTOR_LEN], fac[MAX_FACTORS][FACTOR_LEN];
    if (!g->returns || !comparison_of(src, g, l, r) || factors_of(r, fac, MAX_FACTORS) != 2 ||
        strcmp(fac[0], fac[1]) != 0 || literal_of(fac[0]) >= 0)
        return 0;
    size_t after = g->line_at + g->line_len + 1 + g->return_len;
    char *rest = squeezed(src, after, f->to), row_v[FACTOR_LEN], col_v[FACTOR_LEN], i[NAME_LEN], j[NAME_LEN];
    snprintf(row_v, sizeof row_v, "%s/%s", l, fac[0]);
    snprintf(col_v, sizeof col_v, "%s%%%s", l, fac[0]);
    int stops = 0;
    if (name_of_value(rest, row_v, i) && name_of_value(rest, col_v, j)) {
        char t1[2 * NAME_LEN + 16], t2[2 * NAME_LEN + 16];
        snprintf(t1, sizeof t1, "if(%s<%s)return;", j, i);
        snprintf(t2, sizeof t2, "if(%s>%s)return;", i, j);
        const char *test = strstr(rest, t1) ? strstr(rest, t1) : strstr(rest, t2);
        const char *access = strchr(rest, '[');
        stops = test && (!access || test < access);
    }
    free(rest);
    return stops;
}

/* Whether "if (d0 >= N)  return;" stops no thread that would write
 * anything: every store after it lies in one loop "for (k = d0; k < d1;
 * ...)" whose end d1 is clamped to N ("n - d0 < CHUNK ? n : d0 + CHUNK",
 * "min(d0 + CHUNK, n)"), empty once d0 >= N.  c/search/merge-path-f32:
 * both bounds defects passed every config (the thread past the end found
 * an empty chunk). */
static int clamped_loop_stops_the_rest(const char *src, const Guard *g, const FuncSpan *f)
{
    char l[NAME_LEN], r[FACTOR_LEN];
    if (!g->returns || !comparison_of(src, g, l, r))
        return 0;
    size_t after = g->line_at + g->line_len + 1 + g->return_len;
    for (const char *p = strstr(src + after, "for ("); p && (size_t)(p - src) < f->to; p = strstr(p + 1, "for (")) {
        size_t at = (size_t)(p - src), end = sites_loop_end(src, at);
        char *head = loop_header(src, at), init[NAME_LEN + 8], u[NAME_LEN];
        /* "long long k=d0;k<d1;k++": k counts from d0 up to d1 */
        const char *eq = strchr(head, '='), *semi = strchr(head, ';');
        const char *kb, *ke = eq ? sites_name_before(head, eq, &kb) : NULL;
        int ok = end && semi && ke && kb < ke && ke - kb < NAME_LEN;
        if (ok) {
            snprintf(init, sizeof init, "=%s;%.*s<", l, (int)(ke - kb), kb);
            ok = strncmp(eq, init, strlen(init)) == 0;
        }
        if (ok) {
            const char *ub = eq + strlen(init), *ue = ub;
            while (sites_is_name_char(*ue))
                ue++;
            ok = *ue == ';' && ue > ub && ue - ub < NAME_LEN;
            if (ok)
                snprintf(u, sizeof u, "%.*s", (int)(ue - ub), ub);
        }
        free(head);
        if (!ok)
            continue;
        char *before = squeezed(src, f->from, at), v[FACTOR_LEN];
        int clamped = value_of(before, u, v) && sites_has_token(v, r) && (strchr(v, '?') || strstr(v, "min("));
        free(before);
        return clamped && !stores_global(src, after, at) && !stores_global(src, end, f->to);
    }
    return 0;
}

/* Whether "if (i < j)" is a filter on work rather than a bounds check: it
 * sits in a loop "for (... i ...; i < n; ...)" that already keeps i inside
 * its arrays, so neither its loss nor an off-by-one takes an access out of
 * range; what they change is which rows get the work, which shows only as
 * the algorithm allows (c/trisolve/trsv-lower-trans-f32 sweeps acc[i] for
 * the rows i < j still to solve: the rows its defects let through are
 * solved already and never read again, and both passed every config). */
static int loop_bounds_it(const char *src, const Guard *g, const FuncSpan *f)
{
    char l[NAME_LEN], r[FACTOR_LEN];
    if (g->returns || !comparison_of(src, g, l, r))
        return 0;
    for (const char *p = strstr(src + f->from, "for ("); p && (size_t)(p - src) < g->line_at;
         p = strstr(p + 1, "for (")) {
        size_t at = (size_t)(p - src);
        if (sites_loop_end(src, at) <= g->line_at)
            continue;
        char *head = loop_header(src, at), cond[NAME_LEN + 2];
        const char *semi = strchr(head, ';');
        snprintf(cond, sizeof cond, "%s<", l);
        int bounds = semi && strncmp(semi + 1, cond, strlen(cond)) == 0;
        free(head);
        if (bounds)
            return 1;
    }
    return 0;
}

/* Whether the code around guard g makes its bounds defects vacuous or no
 * bounds defects at all (the three cases above). */
static int guard_redundant(const char *src, const Guard *g)
{
    FuncSpan f[MAX_FUNCS];
    int nf = function_spans(src, f, MAX_FUNCS);
    int at = nf > 0 ? function_at(f, nf, g->line_at) : -1;
    return at >= 0 && (triangle_stops_the_rest(src, g, &f[at]) || clamped_loop_stops_the_rest(src, g, &f[at]) ||
                       loop_bounds_it(src, g, &f[at]));
}

/* Whether dropping or loosening guard g can change anything: 0 only when it
 * is proved not to, i.e. the guard compares with a parameter of its kernel
 * and every launch of that kernel has literal grid, block and argument with
 * no more threads than the bound (a zeroing kernel of 256 bins launched as
 * one block of 256 threads: no thread ever fails "i < n"), or the grid
 * covers the bound exactly whatever the config (covered_by_construction).
 * Undecided cases (bounds from the config) count as observable: the edge
 * configs are made so that they are. */
static int guard_observable(const char *src, const Guard *g, const cJSON *launches)
{
    if (covered_by_construction(src, g, launches))
        return 0;
    /* the bound: the identifier after the comparison operator */
    const char *b = src + g->op_at + (g->returns ? 2 : 1);
    while (*b == ' ' || *b == '=')
        b++;
    const char *be = b;
    while (sites_is_name_char(*be))
        be++;
    if (be == b || isdigit((unsigned char)*b) || (*be != ')' && *be != ' '))
        return 1;
    /* the kernel around the guard, and the bound's place among its parameters */
    const char *k = NULL;
    for (const char *q = strstr(src, KERNEL_HEAD); q && q < src + g->line_at; q = strstr(q + 1, KERNEL_HEAD))
        k = q;
    if (!k)
        return 1;
    const char *name = k + strlen(KERNEL_HEAD), *open = strchr(name, '(');
    if (!open)
        return 1;
    int param = -1, idx = 0;
    for (const char *q = open + 1; *q && *q != ')'; q++) {
        if (*q == ',')
            idx++;
        else if (strncmp(q, b, (size_t)(be - b)) == 0 && !sites_is_name_char(q[be - b]) && !sites_is_name_char(q[-1]))
            param = idx;
    }
    if (param < 0)
        return 1;
    int launched = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, launches) {
        const char *kn = sites_str_item(l, "kernel");
        if (!kn || strlen(kn) != (size_t)(open - name) || strncmp(kn, name, strlen(kn)) != 0)
            continue;
        launched = 1;
        const cJSON *arg = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(l, "args"), param);
        long long bound = cJSON_IsString(arg) ? literal_of(arg->valuestring) : -1;
        long long grid = literal_product(cJSON_GetObjectItemCaseSensitive(l, "grid"));
        long long block = literal_product(cJSON_GetObjectItemCaseSensitive(l, "block"));
        if (bound < 0 || grid < 0 || block < 0 || grid * block > bound)
            return 1;
    }
    return !launched;
}

/* Whether what guard g guards indexes an array.  A guard found without a
 * store must at least guard an access for its loss to show: "if
 * (threadIdx.x < 32)" before a warp's shuffle loop only lets more warps
 * shuffle values no thread keeps (gemv's and trisolve's block sums: 52
 * missing-bounds-check variants passed every config, 2026-12-06). */
static int guards_an_access(const char *src, const Guard *g)
{
    if (g->returns)
        return 1;
    const char *eol = src + g->line_at + g->line_len;
    size_t end = guarded_end(src, eol);
    return memchr(eol, '[', end - (size_t)(eol - src)) != NULL;
}

/* The off-by-one form of guard g: every bound of its condition loosened by
 * one (">=" to ">" before a return, "<" to "<=" around the work), so the
 * thread at the bound runs whichever of the joined comparisons is the one
 * that stops it ("t >= steps || i >= n" with t always below steps, "i >= n
 * || j >= n || j < i" where j < i already stops the row at n). */
char *sites_off_by_one(const char *src, const Guard *g)
{
    const char *from = g->returns ? " >= " : " < ", *to = g->returns ? " > " : " <= ";
    StrBuf out = STRBUF_INIT;
    sb_append_n(&out, src, g->cond_at);
    const char *c = src + g->cond_at, *end = c + g->cond_len;
    while (c < end) {
        const char *hit = strstr(c, from);
        if (!hit || hit + strlen(from) > end) {
            sb_append_n(&out, c, (size_t)(end - c));
            break;
        }
        sb_append_n(&out, c, (size_t)(hit - c));
        sb_append(&out, to);
        c = hit + strlen(from);
    }
    sb_append(&out, end);
    return sb_steal(&out);
}

/* The guard the bounds defect goes to: the first one around a store of an
 * output when there is one, else the first guard of any kind that guards
 * an access (a tree reduction's "if (threadIdx.x < s)", whose defects
 * still corrupt the sum: guards_an_access).  Passed over are guards whose
 * defects could never show: in code no launch runs (sites_runs), on no thread's
 * position (guard_tests_position), made redundant by the code after them
 * (guard_redundant), that no thread of any launch fails (guard_observable)
 * and, for the off-by-one, where the one extra thread writes what is
 * overwritten later (bound_overwritten).  A kernel with no other guard has
 * no such defect planted. */
int sites_find_guard(const char *src, const cJSON *launches, int off_by_one, Guard *g)
{
    for (int want_store = 1; want_store >= 0; want_store--)
        for (size_t from = 0; find_guard_where(src, from, want_store, g); from = g->line_at + g->line_len)
            if (sites_runs(src, g->line_at, launches) && guard_tests_position(src, g) && !guard_redundant(src, g) &&
                guard_observable(src, g, launches) && (want_store || guards_an_access(src, g)) &&
                !(off_by_one && bound_overwritten(src, g)))
                return 1;
    return 0;
}
