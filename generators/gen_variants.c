/* gen_variants.c — mechanical rewrites of a reference pair into candidate
 * variants (see gen_variants.h for what each one means). */
#include "gen_variants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strbuf.h"
#include "gen_partial_sums.h"
#include "gen_sites.h"

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
    /* a rewrite that changed nothing new (two adjacent barriers, say) is
     * not another candidate */
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].source, source) == 0 && cJSON_Compare(l->v[i].launches, launches, 1)) {
            free(source);
            cJSON_Delete(launches);
            cJSON_Delete(knobs);
            return;
        }
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 1));
    l->v[l->n++] = (GenVariant){xstrdup(name), source, launches, knobs, NULL};
}

/* ---- block size ---- */

#define MAX_DIMS 3

/* The reference's block shape when every launch uses the same literal one
 * and no dynamic shared memory: its dimension count, 0 otherwise. */
static int uniform_block(const cJSON *launches, int dims[MAX_DIMS])
{
    int n = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, launches) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(l, "block");
        const char *smem = sites_str_item(l, "smem");
        int k = cJSON_GetArraySize(b);
        if (k < 1 || k > MAX_DIMS || (n && k != n) || (smem && strcmp(smem, "0") != 0))
            return 0;
        const cJSON *d;
        int i = 0;
        cJSON_ArrayForEach(d, b) {
            char *end;
            long v = cJSON_IsString(d) ? strtol(d->valuestring, &end, 10) : 0;
            if (v <= 0 || *end || (n && v != dims[i]))
                return 0;
            dims[i++] = (int)v;
        }
        n = k;
    }
    return n;
}

#define KERNEL_HEAD "__global__ void "

/* Whether kernel `name` of src indexes dimension d globally (blockIdx *
 * blockDim), so the threads of its grid cover its work only as a whole.
 * Its text runs from its "__global__ void name(" to the next kernel; the
 * whole source counts when it is not found. */
static int global_index_in(const char *src, const char *name, int d)
{
    char head[160];
    snprintf(head, sizeof head, KERNEL_HEAD "%s(", name ? name : "");
    const char *from = name ? strstr(src, head) : NULL;
    const char *to = from ? strstr(from + 1, KERNEL_HEAD) : NULL;
    if (!from)
        from = src;
    const char c = "xyz"[d];
    char forms[2][40];
    snprintf(forms[0], sizeof forms[0], "blockIdx.%c * blockDim.%c", c, c);
    snprintf(forms[1], sizeof forms[1], "blockDim.%c * blockIdx.%c", c, c);
    for (int f = 0; f < 2; f++) {
        const char *hit = strstr(from, forms[f]);
        if (hit && (!to || hit < to))
            return 1;
    }
    return 0;
}

/* Launches with block shape `to` instead of `from`, each grid dimension's
 * "+(from-1))/from" ceiling rewritten; NULL when anything else in the plan
 * depends on the old shape, or when a smaller block would leave work
 * uncovered: a grid dimension that is not such a ceiling but some other
 * count of blocks ("(rows+7)/8": eight warps of a 256-thread block, one row
 * each) of a kernel that indexes that dimension globally. */
static cJSON *relaunch(const char *src, const cJSON *launches, int n, const int from[], const int to[])
{
    cJSON *out = cJSON_Duplicate(launches, 1);
    cJSON *l;
    cJSON_ArrayForEach(l, out) {
        cJSON *g = cJSON_GetObjectItemCaseSensitive(l, "grid")->child;
        cJSON *b = cJSON_GetObjectItemCaseSensitive(l, "block")->child;
        for (int d = 0; d < n; d++, b = b->next) {
            char from_tok[16], to_tok[16], ceil_from[48], ceil_to[48];
            snprintf(from_tok, sizeof from_tok, "%d", from[d]);
            snprintf(to_tok, sizeof to_tok, "%d", to[d]);
            snprintf(ceil_from, sizeof ceil_from, "+%d)/%d", from[d] - 1, from[d]);
            snprintf(ceil_to, sizeof ceil_to, "+%d)/%d", to[d] - 1, to[d]);
            if (g) {
                char *rewritten = xreplace_all(g->valuestring, ceil_from, ceil_to);
                int stale = from[d] != to[d] && sites_has_token(rewritten, from_tok);
                int uncovered = to[d] < from[d] && strcmp(rewritten, g->valuestring) == 0 &&
                                global_index_in(src, sites_str_item(l, "kernel"), d);
                cJSON_SetValuestring(g, rewritten);
                free(rewritten);
                if (stale || uncovered)
                    goto refuse;
                g = g->next;
            }
            cJSON_SetValuestring(b, to_tok);
        }
        cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(l, "args"))
            for (int d = 0; d < n; d++) {
                char tok[16];
                snprintf(tok, sizeof tok, "%d", from[d]);
                if (sites_has_token(a->valuestring, tok))
                    goto refuse;
            }
    }
    return out;
refuse:
    cJSON_Delete(out);
    return NULL;
}

/* Block shapes tried: 1-D sizes, and 2-D shapes of 128 to 1024 threads. */
static const int SHAPES_1D[][1] = {{64}, {128}, {512}, {1024}};
static const int SHAPES_2D[][2] = {{32, 8}, {8, 32}, {32, 16}, {16, 16}, {32, 32}};

static void block_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    int from[MAX_DIMS];
    int n = uniform_block(launches, from);
    if (n < 1 || n > 2)
        return;
    /* a literal of a block dimension in the source (a shared array, a
     * loop bound) means the kernel assumes it */
    for (int d = 0; d < n; d++) {
        char tok[16];
        snprintf(tok, sizeof tok, "%d", from[d]);
        if (sites_has_token(src, tok))
            return;
    }
    int count = n == 1 ? 4 : 5;
    for (int i = 0; i < count; i++) {
        const int *to = n == 1 ? SHAPES_1D[i] : SHAPES_2D[i];
        if (to[0] == from[0] && (n == 1 || to[1] == from[1]))
            continue;
        cJSON *plan = relaunch(src, launches, n, from, to);
        if (!plan)
            continue;
        char name[32], value[24];
        if (n == 1) {
            snprintf(name, sizeof name, "block-%d", to[0]);
            snprintf(value, sizeof value, "%d", to[0]);
        } else {
            snprintf(name, sizeof name, "block-%dx%d", to[0], to[1]);
            snprintf(value, sizeof value, "%dx%d", to[0], to[1]);
        }
        add_variant(l, name, xstrdup(src), plan, knobs, NULL, "pass", "block", value);
    }
}

/* ---- access pattern and qualifiers ---- */

#define COALESCED_INDEX "blockIdx.x * blockDim.x + threadIdx.x"
#define TRANSPOSED_INDEX "threadIdx.x * gridDim.x + blockIdx.x"

#define NAME_LEN 64

/* The variable the coalesced index at `at` is assigned to ("... NAME =
 * [(cast)]blockIdx.x ..." on one line), copied into var (len bytes):
 * returns the name's first byte, or NULL when its line assigns none. */
static const char *index_variable(const char *src, const char *at, char *var, size_t len)
{
    const char *eq = at;
    while (eq > src && *eq != '=' && *eq != '\n')
        eq--;
    if (*eq != '=')
        return NULL;
    const char *start, *end = sites_name_before(src, eq, &start);
    if (start == end || (size_t)(end - start) >= len)
        return NULL;
    snprintf(var, len, "%.*s", (int)(end - start), start);
    return start;
}

/* One thread per element with i = blockIdx.x * blockDim.x + threadIdx.x and
 * no other use of the thread's position: mapping thread (b, t) to element
 * t * gridDim.x + b still covers every element once, but neighbouring
 * threads now touch addresses gridDim.x elements apart.  Planted only where
 * that changes the hot accesses (sites_thread_index_coalesces): elsewhere
 * the "uncoalesced" variant would be the reference's access pattern under
 * another name, and no measure could order the two. */
static void uncoalesced_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (count_of(src, COALESCED_INDEX) != 1 || count_of(src, "threadIdx") != 1 || count_of(src, "blockDim") != 1 ||
        strstr(src, "__shared__") || strstr(src, "__syncthreads") || strstr(src, "__shfl"))
        return;
    char var[NAME_LEN];
    const char *index = strstr(src, COALESCED_INDEX);
    if (!sites_runs(src, (size_t)(index - src), launches) || !index_variable(src, index, var, sizeof var))
        return;
    /* the kernel's body: helpers' loops run once per call, as the kernel's
     * statement that calls them does */
    const char *body = strchr(strstr(src, "__global__"), '{'), *body_end = body ? sites_after_match(body) : NULL;
    if (!body_end || !sites_thread_index_coalesces(body, body_end, var))
        return;
    add_variant(l, "uncoalesced", xreplace_all(src, COALESCED_INDEX, TRANSPOSED_INDEX), cJSON_Duplicate(launches, 1),
                knobs, "uncoalesced", "slower", "mapping", "transposed-uncoalesced");
}

static void restrict_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (!strstr(src, "__restrict__"))
        return;
    char *a = xreplace_all(src, " __restrict__", "");
    char *b = xreplace_all(a, "__restrict__ ", "");
    free(a);
    add_variant(l, "no-restrict", b, cJSON_Duplicate(launches, 1), knobs, NULL, "pass", "restrict", "no");
}

/* ---- grid-stride loop ---- */

/* One thread per element written as
 *
 *     [const] <type> i = [(long long)]blockIdx.x * blockDim.x + threadIdx.x;
 *     if (i >= n)
 *         return;
 *     <body without return or barriers>
 *     }
 *
 * becomes a grid-stride loop over a grid capped at 1056 blocks (132 SMs x 8
 * resident 256-thread blocks): each thread handles several elements. */
static void grid_stride_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (count_of(src, "__global__") != 1 || cJSON_GetArraySize(launches) != 1 || strstr(src, "__syncthreads") ||
        strstr(src, "__shared__") || strstr(src, "__shfl"))
        return;
    const cJSON *grid = cJSON_GetObjectItemCaseSensitive(launches->child, "grid");
    if (cJSON_GetArraySize(grid) != 1)
        return;
    const char *at = strstr(src, COALESCED_INDEX ";\n");
    if (!at)
        return;
    const char *line = at;
    while (line > src && line[-1] != '\n')
        line--;
    /* "    const long long i = (long long)" before the index expression */
    char var[NAME_LEN];
    const char *name = index_variable(src, at, var, sizeof var);
    if (!name)
        return;
    const char *indent_end = line;
    while (*indent_end == ' ')
        indent_end++;
    const char *next = strchr(at, '\n') + 1;
    /* the guard right after it */
    char guard_prefix[96];
    snprintf(guard_prefix, sizeof guard_prefix, "%.*sif (%s >= ", (int)(indent_end - line), line, var);
    if (strncmp(next, guard_prefix, strlen(guard_prefix)) != 0)
        return;
    const char *bound = next + strlen(guard_prefix), *bound_end = strstr(bound, ")\n");
    if (!bound_end || memchr(bound, '\n', (size_t)(bound_end - bound)))
        return;
    const char *ret = bound_end + 2;
    while (*ret == ' ')
        ret++;
    if (strncmp(ret, "return;\n", 8) != 0)
        return;
    const char *body = ret + 8;
    /* the body runs to the function's closing brace, the last line "}" */
    const char *close = strstr(body, "\n}");
    if (!close || strstr(close + 2, "}") || memmem(body, (size_t)(close - body), "return", 6))
        return;
    /* the loop counts in long long; a variable the reference declared
     * narrower keeps its type inside (an int i widened would change which
     * overload of max(i - k, 0) NVRTC picks, or find none) */
    const char *type_end = name;
    while (type_end > indent_end && type_end[-1] == ' ')
        type_end--;   /* the type: from the indent to the name */
    const char *type = indent_end;
    if (strncmp(type, "const ", 6) == 0)
        type += 6;
    int wide = (size_t)(type_end - type) == strlen("long long") && strncmp(type, "long long", 9) == 0;
    char counter[80];
    snprintf(counter, sizeof counter, wide ? "%s" : "%s_stride", var);
    StrBuf b = STRBUF_INIT;
    sb_printf(&b, "%.*s", (int)(line - src), src);
    sb_printf(&b, "%.*sfor (long long %s = (long long)%s; %s < %.*s;\n", (int)(indent_end - line), line, counter,
              COALESCED_INDEX, counter, (int)(bound_end - bound), bound);
    sb_printf(&b, "%.*s     %s += (long long)gridDim.x * blockDim.x) {\n", (int)(indent_end - line), line, counter);
    if (!wide)
        sb_printf(&b, "%.*s    %.*s %s = (%.*s)%s;\n", (int)(indent_end - line), line, (int)(type_end - indent_end),
                  indent_end, var, (int)(type_end - type), type, counter);
    for (const char *q = body; q <= close;) {
        const char *e = strchr(q, '\n');
        if (e - q > 0)
            sb_printf(&b, "    %.*s\n", (int)(e - q), q);
        else
            sb_append(&b, "\n");
        q = e + 1;
    }
    sb_printf(&b, "%.*s}%s", (int)(indent_end - line), line, close);
    cJSON *plan = cJSON_Duplicate(launches, 1);
    cJSON *g = cJSON_GetObjectItemCaseSensitive(plan->child, "grid")->child;
    char *capped = xasprintf("min(%s,1056)", g->valuestring);
    cJSON_SetValuestring(g, capped);
    free(capped);
    add_variant(l, "grid-stride", sb_steal(&b), plan, knobs, NULL, "pass", "mapping", "grid-stride");
}

/* ---- loop unrolling ---- */

/* The start of the line of the next `for (` at or after `from` that is a
 * statement of its own (only blanks before it on its line); NULL when none. */
static const char *next_own_for(const char *src, const char *from)
{
    for (const char *f = strstr(from, "for ("); f; f = strstr(f + 1, "for (")) {
        const char *line = f;
        while (line > src && line[-1] != '\n')
            line--;
        int own_statement = 1;
        for (const char *q = line; q < f; q++)
            own_statement &= *q == ' ';
        if (own_statement)
            return line;
    }
    return NULL;
}

/* Whether the line before `line` is a #pragma (after blanks). */
static int follows_pragma(const char *src, const char *line)
{
    if (line == src)
        return 0;
    const char *prev = line - 1;
    while (prev > src && prev[-1] != '\n')
        prev--;
    while (*prev == ' ')
        prev++;
    return strncmp(prev, "#pragma", 7) == 0;
}

/* The start of the line of the first own-statement `for (` that a launch
 * runs (sites_runs); NULL when none. */
static const char *first_running_for(const char *src, const cJSON *launches)
{
    const char *line = next_own_for(src, src);
    while (line && !sites_runs(src, (size_t)(line - src), launches))
        line = next_own_for(src, strstr(line, "for (") + 1);
    return line;
}

/* Whether a running own-statement for loop of src (next_own_for,
 * sites_runs) governs another for loop: a nest, such as a tiled product or
 * a loop over steps around one over bodies. */
static int has_loop_nest(const char *src, const cJSON *launches)
{
    for (const char *line = next_own_for(src, src); line; line = next_own_for(src, strstr(line, "for (") + 1)) {
        size_t at = (size_t)(line - src), end = sites_loop_end(src, at);
        const char *inner = strstr(strstr(line, "for (") + 1, "for (");
        if (end && inner && (size_t)(inner - src) < end && sites_runs(src, at, launches))
            return 1;
    }
    return 0;
}

/* "#pragma unroll N" before the first for loop that runs (if it has none):
 * 1 (never unrolled) and 8.  A loop in a helper no kernel calls would
 * change nothing that runs (torch references carried an unused block_max
 * first). */
static void unroll_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    const char *line = first_running_for(src, launches);
    if (!line || follows_pragma(src, line))
        return;
    const char *f = strstr(line, "for (");
    static const char *const factors[] = {"1", "8"};
    for (int i = 0; i < 2; i++) {
        char *pragma = xasprintf("%.*s#pragma unroll %s\n", (int)(f - line), line, factors[i]);
        char name[32];
        snprintf(name, sizeof name, "unroll-%s", factors[i]);
        add_variant(l, name, splice(src, (size_t)(line - src), 0, pragma), cJSON_Duplicate(launches, 1), knobs, NULL,
                    "pass", "unroll", factors[i]);
        free(pragma);
    }
}

/* ---- register pressure ---- */

/* The register cap of the spilling variant: ptxas raises any lower
 * __maxnreg__ to 24 on sm_90, so 24 is the tightest cap that means what it
 * says. */
#define SPILL_MAXNREG "24"
/* The unroll factor planted beside it: more iterations in flight, more
 * values live at once.  Measured over one loop-bearing reference per C
 * family (nvcc -Xptxas -v, sm_90): the cap alone spills 19 of 54, with
 * "#pragma unroll 16" on the first loop 21, with 32 23, with 64 24. */
#define SPILL_UNROLL "32"

/* The start of the line of the first own-statement `for (` at or after
 * from that a launch runs (sites_runs) and whose previous line is neither a
 * pragma nor a macro continuation; NULL when none. */
static const char *next_plain_for(const char *src, const char *from, const cJSON *launches)
{
    for (const char *line = next_own_for(src, from); line; line = next_own_for(src, strstr(line, "for (") + 1)) {
        int continued = line > src + 1 && line[-2] == '\\';
        if (!follows_pragma(src, line) && !continued && sites_runs(src, (size_t)(line - src), launches))
            return line;
    }
    return NULL;
}

static const char *first_plain_for(const char *src, const cJSON *launches)
{
    return next_plain_for(src, src, launches);
}

/* Whether src has a loop that a launch runs (sites_runs): a line that starts
 * (after blanks) with "for (", "while (" or "do". */
static int has_loop(const char *src, const cJSON *launches)
{
    for (const char *line = src; *line; ) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if ((strncmp(p, "for (", 5) == 0 || strncmp(p, "while (", 7) == 0 ||
             (strncmp(p, "do", 2) == 0 && !isalnum((unsigned char)p[2]) && p[2] != '_')) &&
            sites_runs(src, (size_t)(p - src), launches))
            return 1;
        const char *eol = strchr(line, '\n');
        if (!eol)
            break;
        line = eol + 1;
    }
    return 0;
}

/* src with "__maxnreg__(24) " before the name of every kernel declared as
 * "__global__ ... void NAME(" that carries no __launch_bounds__ (NVRTC
 * refuses the two together) nor a cap of its own (from malloc()); NULL when
 * no kernel was capped. */
static char *cap_kernels(const char *src)
{
    char *out = xstrdup(src);
    int capped = 0;
    size_t from = 0;
    for (const char *g; (g = strstr(out + from, "__global__")) != NULL;) {
        from = (size_t)(g - out) + 10;
        const char *open = strchr(g, '(');
        if (!open)
            break;
        /* the name just before "(", and "void" just before the name */
        const char *e = open;
        while (e > g && e[-1] == ' ')
            e--;
        const char *name = e;
        while (name > g && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
            name--;
        const char *v = name;
        while (v > g && v[-1] == ' ')
            v--;
        int declared = name < e && v - 5 >= g + 10 && strncmp(v - 4, "void", 4) == 0 && (v[-5] == ' ' || v[-5] == '>');
        for (const char *q = g; q < open; q++)
            declared &= !strchr(";{}\n", *q);
        /* "__global__ void __launch_bounds__(256) k(": the attribute's
         * own "(" came first; any bound or cap on the line leaves it be */
        const char *line = g, *eol = strchr(g, '\n');
        while (line > out && line[-1] != '\n')
            line--;
        char *decl = xasprintf("%.*s", (int)(eol ? eol - line : (long)strlen(line)), line);
        int bounded = strstr(decl, "__launch_bounds__") || strstr(decl, "__maxnreg__");
        free(decl);
        if (!declared || bounded)
            continue;
        char *capped_src = splice(out, (size_t)(name - out), 0, "__maxnreg__(" SPILL_MAXNREG ") ");
        from = (size_t)(name - out) + strlen("__maxnreg__(" SPILL_MAXNREG ") ");
        free(out);
        out = capped_src;
        capped++;
    }
    if (!capped) {
        free(out);
        return NULL;
    }
    return out;
}

/* The name of l's variant whose source and plan are these; NULL when none. */
static const char *variant_named_by(const VariantList *l, const char *source, const cJSON *launches)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].source, source) == 0 && cJSON_Compare(l->v[i].launches, launches, 1))
            return l->v[i].name;
    return NULL;
}

/* Sets knob `key` of l's last variant to value (replacing it) when that
 * variant is `name` (add_variant may have dropped it as a copy). */
static void set_last_knob(VariantList *l, const char *name, const char *key, const char *value)
{
    if (l->n == 0 || strcmp(l->v[l->n - 1].name, name) != 0 || !value)
        return;
    cJSON *k = l->v[l->n - 1].knobs;
    cJSON_DeleteItemFromObjectCaseSensitive(k, key);
    cJSON_AddStringToObject(k, key, value);
}

/* Adds `twin` (uncapped, from malloc(), taken; knob = value, and
 * "trip_count" when trip is not NULL) as a correct candidate, then
 * `capped`, the same with every kernel capped at 24 registers: expect and
 * defect (NULL for none) as given, the same knobs plus "maxnreg" and a
 * "parent" naming the twin (or the earlier variant that already held the
 * twin's source), so the pair differs by the cap alone. */
static void add_cap_pair(VariantList *l, const cJSON *launches, const cJSON *knobs, const char *twin,
                         char *uncapped, const char *capped, const char *defect, const char *expect,
                         const char *knob, const char *value, const char *trip)
{
    char *capped_src = cap_kernels(uncapped);
    char *copy = xstrdup(uncapped);
    add_variant(l, twin, uncapped, cJSON_Duplicate(launches, 1), knobs, NULL, "pass", knob, value);
    set_last_knob(l, twin, "trip_count", trip);
    const char *held = variant_named_by(l, copy, launches);
    char *parent = held ? xstrdup(held) : NULL;
    free(copy);
    if (capped_src) {
        add_variant(l, capped, capped_src, cJSON_Duplicate(launches, 1), knobs, defect, expect, "maxnreg",
                    SPILL_MAXNREG);
        set_last_knob(l, capped, knob, value);
        set_last_knob(l, capped, "parent", parent);
        set_last_knob(l, capped, "trip_count", trip);
    }
    free(parent);
}

/* Register pressure, where the reference has a loop that runs and no
 * kernel names its register budget with __launch_bounds__ (NVRTC refuses
 * it beside __maxnreg__); a loop in a helper no kernel calls counts for
 * nothing.  Each capped candidate names its uncapped twin as its parent, so
 * the pair differs by the cap alone and measures what the cap costs.
 *
 *   "unroll-32" and "maxnreg-24": the first loop that runs and has no
 *   pragma unrolled 32 times, and the same with every kernel capped at 24
 *   registers.  Correct; faster or slower as it happens: ptxas mostly
 *   keeps a 24-register budget by issuing fewer loads at once rather than
 *   by spilling, and where it spills a few bytes L1 serves them (device
 *   runs 35 to 39: 38 of 96 spill, 18 of those are measurably slower than
 *   their uncapped twin).
 *
 *   "partial-sums-P" and "register-spills": where a loop that runs is a
 *   simple sum (gen_partial_sums; the first such) and no loop nest runs
 *   beside it, that loop unrolled with P partial sums per accumulator, and
 *   the same capped at 24 registers:
 *   the partial sums must stay live across the loop, so the capped kernel
 *   loads and stores them in local memory on every iteration: the planted
 *   defect, "too much unrolling", expected measurably slower. */
static void register_pressure_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    if (!has_loop(src, launches))
        return;
    char *capped_ref = cap_kernels(src);
    if (!capped_ref)
        return;
    const char *line = first_plain_for(src, launches);
    if (!line) {
        add_variant(l, "maxnreg-" SPILL_MAXNREG, capped_ref, cJSON_Duplicate(launches, 1), knobs, NULL, "pass",
                    "maxnreg", SPILL_MAXNREG);
        return;
    }
    free(capped_ref);
    const char *f = line;
    while (*f == ' ')
        f++;
    char *pragma = xasprintf("%.*s#pragma unroll " SPILL_UNROLL "\n", (int)(f - line), line);
    add_cap_pair(l, launches, knobs, "unroll-" SPILL_UNROLL, splice(src, (size_t)(line - src), 0, pragma),
                 "maxnreg-" SPILL_MAXNREG, NULL, "pass", "unroll", SPILL_UNROLL, NULL);
    free(pragma);

    /* the first loop of the simple sum form, in a program with no loop
     * nest: a nest does more work per thread than a flat loop beside it (a
     * tiled product: device run 41 timed the defect planted in the column
     * means of pb_correlation and pb_covariance at 0% to 6% slower), and a
     * sum inside a nest may never run (nbody's leapfrog tail runs no step
     * on any config) */
    if (has_loop_nest(src, launches))
        return;
    int parts = 0;
    char *trip = NULL, *sums = NULL;
    for (const char *at = line; at && !sums; at = next_plain_for(src, strstr(at, "for (") + 1, launches))
        sums = partial_sums_rewrite(src, (size_t)(at - src), &parts, &trip);
    if (!sums)
        return;
    char count[16], name[32];
    snprintf(count, sizeof count, "%d", parts);
    snprintf(name, sizeof name, "partial-sums-%d", parts);
    add_cap_pair(l, launches, knobs, name, sums, "register-spills", "register-spills", "slower", "partial_sums",
                 count, trip);
    free(trip);
}

/* ---- shared-memory padding ---- */

/* A tile padded against bank conflicts ("[TILE + 1]") without its padding:
 * correct, but a column walk now hits one bank.  Looked for in the first
 * shared array that a launch runs (sites_runs). */
static void bank_conflict_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    const char *sh = strstr(src, "__shared__");
    while (sh && !sites_runs(src, (size_t)(sh - src), launches))
        sh = strstr(sh + 1, "__shared__");
    if (!sh)
        return;
    const char *eol = strchr(sh, '\n');
    static const char *const pads[] = {" + 1]", "+1]"};
    for (int i = 0; i < 2; i++) {
        const char *pad = strstr(sh, pads[i]);
        if (pad && (!eol || pad < eol)) {
            add_variant(l, "bank-conflicts", splice(src, (size_t)(pad - src), strlen(pads[i]), "]"),
                        cJSON_Duplicate(launches, 1), knobs, "bank-conflicts", "slower", "smem_padding", "none");
            return;
        }
    }
}

/* ---- planted defects ---- */

/* Whether the variable `name` (len bytes), declared right before decl, is
 * an operand of + - * / (a compound assignment, an increment) before its
 * block closes.  One that is only compared, selected and stored (a running
 * max, "m = v > m ? v : m"; a product assigned once and stored) is no
 * accumulation: in float it holds one rounding of a value, at most 2^-24
 * relative, that does not grow with the work (c/spmm_csr/row-maxabs-f64's
 * float max passed every config, large included, at 6e-8 against rtol
 * 1e-7, 2026-12-07). */
static int accumulates(const char *decl, const char *name, size_t len)
{
    int depth = 0;
    for (const char *p = decl; *p && depth >= 0; p++) {
        depth += (*p == '{') - (*p == '}');
        if (strncmp(p, name, len) != 0 || (p > decl && sites_is_name_char(p[-1])) || sites_is_name_char(p[len]))
            continue;
        const char *b = p, *a = p + len;
        while (b > decl && b[-1] == ' ')
            b--;
        while (*a == ' ')
            a++;
        if ((b > decl && strchr("+-*/", b[-1])) || (*a && strchr("+-*/", *a)))
            return 1;
    }
    return 0;
}

/* Every double accumulator started at zero ("double acc = 0.0;", on its own
 * line) made float, as one who wrote float throughout would: every partial
 * sum rounds to 24 bits, far outside an f64 tolerance.  All of them, not
 * the first: the first is often a partial that a logarithm or a square root
 * takes back under the tolerance (a log-sum-exp's sum of exponentials: ten
 * cross-entropy means passed every config, 2026-12-06), while the mean
 * over rows beside it shows.  Only those a launch runs (sites_runs): one in a
 * helper no kernel calls changes nothing; and only those that accumulate
 * (accumulates). */
static void precision_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    char *out = xstrdup(src);
    int made = 0;
    for (const char *d = strstr(out, "double "); d; d = strstr(d + 1, "double ")) {
        const char *line = d;
        while (line > out && line[-1] != '\n')
            line--;
        int own_statement = 1;
        for (const char *q = line; q < d; q++)
            own_statement &= *q == ' ';
        const char *name = d + 7, *e = name;
        while (isalnum((unsigned char)*e) || *e == '_')
            e++;
        if (!own_statement || e == name || !sites_runs(out, (size_t)(d - out), launches) ||
            !accumulates(e, name, (size_t)(e - name)))
            continue;
        static const char *const zeros[] = {" = 0.0;", " = 0;"};
        for (int i = 0; i < 2; i++)
            if (strncmp(e, zeros[i], strlen(zeros[i])) == 0) {
                size_t at = (size_t)(d - out);
                char *decl = xasprintf("float %.*s = 0.0f;", (int)(e - name), name);
                char *next = splice(out, at, (size_t)(e + strlen(zeros[i]) - d), decl);
                free(decl);
                free(out);
                out = next;
                d = out + at;
                made++;
                break;
            }
    }
    if (made)
        add_variant(l, "low-precision-accumulation", out, cJSON_Duplicate(launches, 1), knobs,
                    "low-precision-accumulation", "fail", NULL, NULL);
    else
        free(out);
}

/* src without guard g (from malloc()): a "return" guard's two lines go, a
 * guarded block keeps its braces. */
static char *missing_guard(const char *src, const Guard *g)
{
    char *missing;
    if (g->returns) {
        missing = splice(src, g->line_at, g->line_len + 1 + g->return_len, "");
    } else {
        const char *brace = strchr(src + g->cond_at + g->cond_len, '\n');
        int opens_block = brace[-1] == '{';
        char *indent = xasprintf("%.*s%s", (int)(strstr(src + g->line_at, "if (") - (src + g->line_at)),
                                 src + g->line_at, opens_block ? "{" : "");
        missing = opens_block ? splice(src, g->line_at, g->line_len, indent)
                              : splice(src, g->line_at, g->line_len + 1, "");
        free(indent);
    }
    return missing;
}

static void guard_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    Guard g;
    if (sites_find_guard(src, launches, 0, &g)) {
        /* missing bounds check: the guard is simply not there */
        char *missing = missing_guard(src, &g);
        add_variant(l, "missing-bounds-check", missing, cJSON_Duplicate(launches, 1), knobs,
                    "missing-bounds-check", "fail", NULL, NULL);
    }
    /* off by one: ">=" becomes ">" (or "<" becomes "<="), so the thread at
     * the bound runs too */
    if (sites_find_guard(src, launches, 1, &g))
        add_variant(l, "off-by-one", sites_off_by_one(src, &g), cJSON_Duplicate(launches, 1), knobs, "off-by-one",
                    "fail", NULL, NULL);
}

/* One variant per barrier statement (the first three that a launch runs):
 * each leaves out one __syncthreads, so a later read may see a value not
 * yet written.  A barrier in a helper no kernel calls can never race (56
 * torch references' missing-syncthreads went to an unused block_sum or
 * block_max). */
static void sync_variants(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    int made = 0;
    for (const char *s = strstr(src, "__syncthreads();"); s && made < 3; s = strstr(s + 1, "__syncthreads();")) {
        const char *line = s;
        while (line > src && line[-1] != '\n')
            line--;
        const char *eol = strchr(s, '\n');
        int own_statement = 1;
        for (const char *q = line; q < s; q++)
            own_statement &= isspace((unsigned char)*q) != 0;
        if (!own_statement || !eol || !sites_runs(src, (size_t)(s - src), launches))
            continue;
        char *out = splice(src, (size_t)(line - src), (size_t)(eol + 1 - line), "");
        char name[40];
        snprintf(name, sizeof name, made ? "missing-syncthreads-%d" : "missing-syncthreads", made + 1);
        add_variant(l, name, out, cJSON_Duplicate(launches, 1), knobs, "missing-syncthreads", "race", NULL, NULL);
        made++;
    }
}

/* The first "atomicAdd(&x[i], v);" statement that a launch runs (sites_runs)
 * becomes "x[i] += v;". */
static void atomic_variant(VariantList *l, const char *src, const cJSON *launches, const cJSON *knobs)
{
    for (const char *a = strstr(src, "atomicAdd("); a; a = strstr(a + 1, "atomicAdd(")) {
        const char *line = a;
        while (line > src && line[-1] != '\n')
            line--;
        int own_statement = 1;
        for (const char *q = line; q < a; q++)
            own_statement &= isspace((unsigned char)*q) != 0;
        if (!own_statement || !sites_runs(src, (size_t)(a - src), launches))
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

static void variants_free_one(GenVariant *v)
{
    free(v->name);
    free(v->source);
    cJSON_Delete(v->launches);
    cJSON_Delete(v->knobs);
    cJSON_Delete(v->scratch);
}

int variants_derive(const char *source, const cJSON *launches, const cJSON *knobs, GenVariant **out)
{
    VariantList l = {NULL, 0};
    block_variants(&l, source, launches, knobs);
    uncoalesced_variant(&l, source, launches, knobs);
    grid_stride_variant(&l, source, launches, knobs);
    restrict_variant(&l, source, launches, knobs);
    unroll_variants(&l, source, launches, knobs);
    register_pressure_variants(&l, source, launches, knobs);
    bank_conflict_variant(&l, source, launches, knobs);
    guard_variants(&l, source, launches, knobs);
    sync_variants(&l, source, launches, knobs);
    atomic_variant(&l, source, launches, knobs);
    precision_variant(&l, source, launches, knobs);
    /* a rewrite that left the reference as it was is no candidate */
    int kept = 0;
    for (int i = 0; i < l.n; i++) {
        if (strcmp(l.v[i].source, source) == 0 && cJSON_Compare(l.v[i].launches, launches, 1))
            variants_free_one(&l.v[i]);
        else
            l.v[kept++] = l.v[i];
    }
    *out = l.v;
    return kept;
}

void variants_free(GenVariant *v, int n)
{
    for (int i = 0; i < n; i++)
        variants_free_one(&v[i]);
    free(v);
}
