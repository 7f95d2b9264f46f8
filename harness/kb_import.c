#include "kb_import.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/hash.h"
#include "common/problem.h"
#include "common/strbuf.h"
#include "harness/kb_infer.h"

#define DEFAULT_SMALL_BYTES (1LL << 20)
#define MAX_SOURCE_BYTES (1 << 20)
/* Constants up to this value are never halved for the small config: they
 * are kernel sizes, head counts, groups, where the value is the meaning. */
#define KEEP_BELOW 8
#define MAX_SMALL_STEPS 64

enum { CFG_SMALL, CFG_EDGE, CFG_LARGE, N_CFG };
static const char *const CFG_NAMES[N_CFG] = {"small", "edge", "large"};

void kb_description_release(KbDescription *d)
{
    for (int i = 0; i < d->n_weights; i++)
        free(d->weights[i].name);
    for (int i = 0; i < d->n_inputs; i++)
        free(d->inputs[i].name);
    for (int i = 0; i < d->n_outputs; i++)
        free(d->outputs[i].name);
    free(d->inputs);
    free(d->outputs);
    free(d->weights);
    memset(d, 0, sizeof *d);
}

/* ---- naming ---- */

static void sanitize(StrBuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        sb_putc(sb, isalnum(ch) || ch == '_' || ch == '-' || ch == '.' || ch == '+' ? (char)ch : '_');
    }
}

/* Folder name "levelN" just above the file, N into *level; 0 when not. */
static int file_level(const char *path, int *level)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    const char *dir = slash;
    while (dir > path && dir[-1] != '/')
        dir--;
    if (strncmp(dir, "level", 5) != 0 || !isdigit((unsigned char)dir[5]))
        return 0;
    char *end;
    long v = strtol(dir + 5, &end, 10);
    if (end != slash || v < 0 || v > 99)
        return 0;
    *level = (int)v;
    return 1;
}

char *kb_import_name(const char *path, const char *family)
{
    StrBuf sb = STRBUF_INIT;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".py") == 0)
        n -= 3;
    sb_printf(&sb, "torch/%s/", family ? family : "imported_kernelbench");
    int level;
    if (file_level(path, &level))
        sb_printf(&sb, "level%d-", level);
    sanitize(&sb, base, n);
    return sb_steal(&sb);
}

/* ---- descriptions ---- */

static int64_t tensor_bytes(const KbTensor *t)
{
    int64_t n = (int64_t)dtype_size(t->dtype);
    for (int d = 0; d < t->ndim; d++)
        if (__builtin_mul_overflow(n, t->dims[d], &n))
            return INT64_MAX;
    return n;
}

static int64_t description_bytes(const KbDescription *d)
{
    int64_t s = 0;
    const KbTensor *lists[3] = {d->inputs, d->outputs, d->weights};
    int counts[3] = {d->n_inputs, d->n_outputs, d->n_weights};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++)
            if (__builtin_add_overflow(s, tensor_bytes(&lists[l][i]), &s))
                return INT64_MAX;
    return s;
}

static int appears_as_dim(const KbDescription *d, int64_t v)
{
    const KbTensor *lists[3] = {d->inputs, d->outputs, d->weights};
    int counts[3] = {d->n_inputs, d->n_outputs, d->n_weights};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++)
            for (int k = 0; k < lists[l][i].ndim; k++)
                if (lists[l][i].dims[k] == v)
                    return 1;
    return 0;
}

typedef struct Ctx {
    const char *path;
    const char *source;
    const KbDescriber *d;
    int fatal;   /* the describer failed for a reason of its own (-2) */
} Ctx;

static int describe(Ctx *cx, const KbConstants *v, KbDescription *out, Error *e)
{
    memset(out, 0, sizeof *out);
    int r = cx->d->describe(cx->d->ctx, cx->path, cx->source, v, out, e);
    if (r != 0) {
        kb_description_release(out);
        if (r == -2)
            cx->fatal = 1;
        return r;
    }
    if (out->n_outputs < 1) {
        kb_description_release(out);
        return ERR(e, "forward() returned no tensor");
    }
    return 0;
}

/* Text of "NAME=v, ..." for messages. */
static char *constants_text(const KbConstants *k)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = 0; i < k->n; i++)
        sb_printf(&sb, "%s%s=%lld", i ? ", " : "", k->names[i], (long long)k->values[i]);
    if (!k->n)
        sb_append(&sb, "(no constants)");
    return sb_steal(&sb);
}

/* Small: halve the largest size constants (those above KEEP_BELOW) until
 * every buffer together fits the budget; a step the program refuses freezes
 * the constants it changed. */
static int derive_small(Ctx *cx, const KbConstants *large, const KbDescription *dlarge, const int *size_like,
                        int64_t budget, KbConstants *small, KbDescription *dsmall, Error *e)
{
    int frozen[KB_MAX_CONSTANTS] = {0};
    KbDescription cur = {0};
    int have_cur = 0;
    kb_constants_copy(small, large);
    int64_t bytes = description_bytes(dlarge);
    for (int step = 0; step < MAX_SMALL_STEPS && bytes > budget; step++) {
        int64_t mx = KEEP_BELOW;
        for (int i = 0; i < small->n; i++)
            if (size_like[i] && !frozen[i] && small->values[i] > mx)
                mx = small->values[i];
        if (mx <= KEEP_BELOW)
            break;
        KbConstants cand;
        kb_constants_copy(&cand, small);
        for (int i = 0; i < cand.n; i++)
            if (size_like[i] && !frozen[i] && cand.values[i] == mx)
                cand.values[i] = mx / 2;
        KbDescription dc;
        Error e2;
        if (describe(cx, &cand, &dc, &e2) != 0) {
            for (int i = 0; i < cand.n; i++)
                if (size_like[i] && !frozen[i] && small->values[i] == mx)
                    frozen[i] = 1;
            kb_constants_release(&cand);
            continue;
        }
        kb_constants_release(small);
        *small = cand;
        if (have_cur)
            kb_description_release(&cur);
        cur = dc;
        have_cur = 1;
        bytes = description_bytes(&cur);
    }
    if (!have_cur) {
        /* Nothing could shrink (or nothing needed to): small is large. */
        if (describe(cx, small, &cur, e) != 0)
            return error_prefix(e, "config small");
    }
    *dsmall = cur;
    return 0;
}

static const int PRIMES[] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73};

/* Edge candidates, derived from small; the first that runs is taken. */
static int derive_edge(Ctx *cx, const KbConstants *small, const int *size_like, KbConstants *edge,
                       KbDescription *dedge, Error *e)
{
    int rank[KB_MAX_CONSTANTS], nr = 0;
    for (int i = 0; i < small->n; i++)
        if (size_like[i])
            rank[nr++] = i;
    /* ascending small value, ties in file order (insertion sort: stable) */
    for (int a = 1; a < nr; a++)
        for (int b = a; b > 0 && small->values[rank[b - 1]] > small->values[rank[b]]; b--) {
            int t = rank[b];
            rank[b] = rank[b - 1];
            rank[b - 1] = t;
        }
    Error last = {{0}, 0, 0};
    for (int kind = 0; kind < 5; kind++) {
        KbConstants cand;
        kb_constants_copy(&cand, small);
        int np = 0;
        for (int r = 0; r < nr; r++) {
            int i = rank[r];
            int64_t v = small->values[i];
            switch (kind) {
            case 0: /* distinct primes by rank, each differing from small's value (so it varies) */
                while (np < 19 && PRIMES[np] == v)
                    np++;
                cand.values[i] = PRIMES[np < 20 ? np : 19];
                np++;
                break;
            case 1: /* primes, but small constants keep their meaning */
                if (v > KEEP_BELOW) {
                    while (np < 19 && PRIMES[np] == v)
                        np++;
                    cand.values[i] = PRIMES[np < 20 ? np++ : 19];
                }
                break;
            case 2: /* odd neighbours */
                cand.values[i] = v > 2 && v % 2 == 0 ? v - 1 : v;
                break;
            case 3: /* odd neighbours of the large ones only */
                cand.values[i] = v > KEEP_BELOW && v % 2 == 0 ? v - 1 : v;
                break;
            default: /* half of small */
                cand.values[i] = v > 1 ? v / 2 : v;
                break;
            }
        }
        if (describe(cx, &cand, dedge, &last) == 0) {
            *edge = cand;
            return 0;
        }
        kb_constants_release(&cand);
    }
    /* Last resort: the small values themselves, which are known to run. */
    kb_constants_copy(edge, small);
    if (describe(cx, edge, dedge, e) != 0) {
        kb_constants_release(edge);
        return error_prefix(e, "config edge");
    }
    (void)last;
    return 0;
}

/* ---- meta.json ---- */

static const char *torch_dtype_check(DType t)
{
    return t == DT_INVALID ? "unsupported dtype" : NULL;
}

/* forward()'s parameter names inside class Model, if simple. */
static int forward_names(const char *src, char names[][64], int max)
{
    const char *cls = strstr(src, "\nclass Model");
    if (!cls && strncmp(src, "class Model", 11) == 0)
        cls = src;
    if (!cls)
        return -1;
    const char *f = strstr(cls, "def forward(");
    if (!f)
        return -1;
    f += strlen("def forward(");
    int n = -1; /* self first */
    while (*f && *f != ')') {
        while (*f == ' ' || *f == '\n' || *f == '\t' || *f == ',')
            f++;
        const char *s = f;
        while (isalnum((unsigned char)*f) || *f == '_')
            f++;
        if (f == s)
            return -1; /* *args, defaults' expressions: give up */
        size_t len = (size_t)(f - s);
        while (*f == ' ')
            f++;
        if (*f == ':') { /* an annotation: skip to the next ',' or ')' at depth 0 */
            int depth = 0;
            while (*f && !(depth == 0 && (*f == ',' || *f == ')'))) {
                depth += *f == '[' || *f == '(';
                depth -= *f == ']' || *f == ')';
                f++;
            }
        }
        if (*f == '=')
            return -1;
        if (n >= 0) {
            if (n >= max || len >= 64)
                return -1;
            memcpy(names[n], s, len);
            names[n][len] = '\0';
        }
        n++;
        while (*f == ' ' || *f == '\n' || *f == '\t')
            f++;
        if (*f == ',')
            f++;
    }
    return n < 0 ? 0 : n;
}

static int describe_consistent(const KbDescription *a, const KbDescription *b, const char *cfg, Error *e)
{
    if (a->n_inputs != b->n_inputs || a->n_outputs != b->n_outputs || a->n_weights != b->n_weights)
        return ERR(e, "config %s: %d inputs, %d outputs, %d state_dict entries, but %d, %d, %d under the original "
                      "constants", cfg, b->n_inputs, b->n_outputs, b->n_weights, a->n_inputs, a->n_outputs,
                   a->n_weights);
    const KbTensor *la[3] = {a->inputs, a->outputs, a->weights}, *lb[3] = {b->inputs, b->outputs, b->weights};
    int counts[3] = {a->n_inputs, a->n_outputs, a->n_weights};
    static const char *const what[3] = {"input", "output", "state_dict entry"};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++) {
            const KbTensor *x = &la[l][i], *y = &lb[l][i];
            if (x->dtype != y->dtype || x->ndim != y->ndim ||
                (l == 2 && strcmp(x->name ? x->name : "", y->name ? y->name : "") != 0))
                return ERR(e, "config %s: %s %d differs in dtype, rank or name from the original constants'", cfg,
                           what[l], i);
        }
    return 0;
}

static char *dims_text(const KbDescription *const *ds, int l, int i, int k)
{
    StrBuf sb = STRBUF_INIT;
    for (int c = 0; c < N_CFG; c++) {
        const KbTensor *lists[3] = {ds[c]->inputs, ds[c]->outputs, ds[c]->weights};
        sb_printf(&sb, "%s%lld on %s", c ? ", " : "", (long long)lists[l][i].dims[k], CFG_NAMES[c]);
    }
    return sb_steal(&sb);
}

/* Adds one buffer argument with inferred shape to args; marks the constants
 * its shape uses in `used`.  sum_bytes/sum_elems collect cost terms. */
static int add_buffer(cJSON *args, const char *name, const char *role, const KbDescription *const *ds,
                      const KbConstants *cfg, int l, int i, int *used, StrBuf *bytes, StrBuf *elems, Error *e)
{
    const KbTensor *lists[3] = {ds[0]->inputs, ds[0]->outputs, ds[0]->weights};
    const KbTensor *t = &lists[l][i];
    if (t->dtype == DT_INVALID)
        return ERR(e, "%s '%s': %s", role, name, torch_dtype_check(t->dtype));
    if (t->ndim > KB_MAX_DIMS)
        return ERR(e, "%s '%s': more than %d dimensions", role, name, KB_MAX_DIMS);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddItemToArray(args, a);
    cJSON_AddStringToObject(a, "name", name);
    cJSON_AddStringToObject(a, "dtype", dtype_name(t->dtype));
    cJSON *shape = cJSON_AddArrayToObject(a, "shape");
    StrBuf count = STRBUF_INIT;
    for (int k = 0; k < t->ndim; k++) {
        int64_t dims[N_CFG];
        for (int c = 0; c < N_CFG; c++) {
            const KbTensor *lc[3] = {ds[c]->inputs, ds[c]->outputs, ds[c]->weights};
            dims[c] = lc[l][i].dims[k];
        }
        char *x = kb_infer_dim(cfg, N_CFG, dims);
        if (!x) {
            char *txt = dims_text(ds, l, i, k);
            ERR(e, "%s '%s': dimension %d (%s) is no expression of the module constants this importer knows", role,
                name, k, txt);
            free(txt);
            sb_release(&count);
            return -1;
        }
        for (int p = 0; p < cfg[0].n; p++)
            if (kb_infer_mentions(x, cfg[0].names[p]))
                used[p] = 1;
        /* a number stays a number in JSON; expressions are strings */
        char *end;
        long long lit = strtoll(x, &end, 10);
        if (*end == '\0')
            cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)lit));
        else
            cJSON_AddItemToArray(shape, cJSON_CreateString(x));
        sb_printf(&count, "%s(%s)", k ? "*" : "", x);
        free(x);
    }
    if (!t->ndim)
        sb_append(&count, "1");
    cJSON_AddStringToObject(a, "role", role);
    sb_printf(bytes, "%s%zu*%s", bytes->len ? "+" : "", dtype_size(t->dtype), sb_str(&count));
    if (elems && strcmp(role, "out") == 0)
        sb_printf(elems, "%s%s", elems->len ? "+" : "", sb_str(&count));
    if (l == 2) {
        cJSON *fill = cJSON_AddObjectToObject(a, "fill");
        cJSON_AddStringToObject(fill, "dist", "model");
    } else if (l == 0 && !dtype_is_float(t->dtype)) {
        /* Integer inputs: the range get_inputs() drew from, kept within
         * what every config showed, so indices stay valid everywhere. */
        int64_t lo = 0, hi = t->dtype == DT_BOOL ? 2 : 0;
        if (t->dtype != DT_BOOL) {
            int have = 1;
            for (int c = 0; c < N_CFG && have; c++) {
                const KbTensor *tc = &ds[c]->inputs[i];
                have = tc->has_range;
                if (have) {
                    lo = c ? (tc->lo > lo ? tc->lo : lo) : tc->lo;
                    hi = c ? (tc->hi + 1 < hi ? tc->hi + 1 : hi) : tc->hi + 1;
                }
            }
            if (!have || lo >= hi) {
                sb_release(&count);
                return ERR(e, "input '%s' (%s): the describe request gave no value range, so its fill is unknown",
                           name, dtype_name(t->dtype));
            }
        }
        cJSON *fill = cJSON_AddObjectToObject(a, "fill");
        cJSON_AddStringToObject(fill, "dist", "int");
        cJSON_AddNumberToObject(fill, "lo", (double)lo);
        cJSON_AddNumberToObject(fill, "hi", (double)hi);
    }
    sb_release(&count);
    return 0;
}

static int build_meta(const char *path, const char *source, const KbImportOptions *opt,
                      const KbConstants *cfg /* [N_CFG] */, const KbDescription *const *ds, const int *size_like,
                      char **meta_out, Error *e)
{
    int rc = 0;
    cJSON *root = cJSON_CreateObject();
    StrBuf bytes = STRBUF_INIT, elems = STRBUF_INIT;
    char *name = kb_import_name(path, opt->family);
    char *text = NULL;
    Problem *p = NULL;
    int used[KB_MAX_CONSTANTS] = {0};
    const KbDescription *d = ds[0];
    for (int c = 1; c < N_CFG; c++)
        TRY(describe_consistent(d, ds[c], CFG_NAMES[c], e));
    cJSON_AddStringToObject(root, "name", name);
    cJSON_AddStringToObject(root, "lang", "torch");
    cJSON_AddStringToObject(root, "family", opt->family ? opt->family : "imported_kernelbench");
    cJSON_AddStringToObject(root, "entry", "Model");
    int level;
    if (file_level(path, &level)) {
        char cat[32];
        snprintf(cat, sizeof cat, "torch-level%d", level);
        cJSON_AddStringToObject(root, "category", cat);
    }
    const char *base = strrchr(path, '/');
    char *desc = xasprintf("KernelBench-format program imported from %s", base ? base + 1 : path);
    cJSON_AddStringToObject(root, "description", desc);
    free(desc);
    cJSON *args = cJSON_AddArrayToObject(root, "args");
    char fnames[64][64];
    int nf = forward_names(source, fnames, 64);
    for (int i = 0; i < d->n_inputs; i++) {
        char nm[80];
        if (nf == d->n_inputs && problem_is_identifier(fnames[i], 0) && kb_constants_find(&cfg[0], fnames[i]) < 0 &&
            strcmp(fnames[i], "out") != 0 && strncmp(fnames[i], "out", 3) != 0)
            snprintf(nm, sizeof nm, "%s", fnames[i]);
        else
            snprintf(nm, sizeof nm, "in%d", i);
        TRY(add_buffer(args, nm, "in", ds, cfg, 0, i, used, &bytes, NULL, e));
    }
    for (int i = 0; i < d->n_outputs; i++) {
        char nm[32];
        if (d->n_outputs == 1)
            snprintf(nm, sizeof nm, "out");
        else
            snprintf(nm, sizeof nm, "out%d", i);
        TRY(add_buffer(args, nm, "out", ds, cfg, 1, i, used, &bytes, &elems, e));
    }
    for (int i = 0; i < d->n_weights; i++) {
        char *nm = xasprintf("w.%s", d->weights[i].name ? d->weights[i].name : "");
        int r = add_buffer(args, nm, "in", ds, cfg, 2, i, used, &bytes, NULL, e);
        free(nm);
        TRY(r);
    }
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    for (int k = 0; k < cfg[0].n; k++) {
        if (!size_like[k] && !used[k])
            continue;
        used[k] = 1;
        cJSON_AddItemToArray(params, cJSON_CreateString(cfg[0].names[k]));
        cJSON *a = cJSON_CreateObject();
        cJSON_AddStringToObject(a, "name", cfg[0].names[k]);
        cJSON_AddStringToObject(a, "dtype", "i64");
        cJSON_AddStringToObject(a, "role", "param");
        cJSON_AddItemToArray(args, a);
    }
    cJSON *configs = cJSON_AddArrayToObject(root, "configs");
    for (int c = 0; c < N_CFG; c++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", CFG_NAMES[c]);
        for (int k = 0; k < cfg[c].n; k++)
            if (used[k])
                cJSON_AddNumberToObject(o, cfg[c].names[k], (double)cfg[c].values[k]);
        cJSON_AddItemToArray(configs, o);
    }
    /* Tolerance: the loosest default among the outputs' dtypes. */
    double atol = 0, rtol = 0;
    for (int i = 0; i < d->n_outputs; i++) {
        double a, r;
        dtype_default_tolerance(d->outputs[i].dtype, &a, &r);
        atol = a > atol ? a : atol;
        rtol = r > rtol ? r : rtol;
    }
    cJSON *tol = cJSON_AddObjectToObject(root, "tolerance");
    cJSON_AddNumberToObject(tol, "atol", atol);
    cJSON_AddNumberToObject(tol, "rtol", rtol);
    /* Cost: nothing better is known of an arbitrary program than one
     * operation per output element and every buffer moved once. */
    cJSON *cost = cJSON_AddObjectToObject(root, "cost");
    cJSON_AddStringToObject(cost, "flops", sb_str(&elems));
    cJSON_AddStringToObject(cost, "bytes", sb_str(&bytes));
    cJSON *prov = cJSON_AddObjectToObject(root, "provenance");
    cJSON_AddStringToObject(prov, "generator", "import-kernelbench");
    cJSON_AddStringToObject(prov, "license", opt->license ? opt->license : "unknown");
    cJSON_AddStringToObject(prov, "source", path);
    text = cJSON_PrintUnformatted(root);
    /* The loader is the judge: parse and validate, then write canonically.
     * Every config's shapes are checked against the descriptions by
     * evaluating the expressions the way the harness will. */
    TRY(problem_parse(text, "meta.json", &p, e));
    for (int c = 0; c < N_CFG; c++) {
        const ProblemConfig *pc = problem_find_config(p, CFG_NAMES[c]);
        int ai = 0;
        const KbTensor *lists[3] = {ds[c]->inputs, ds[c]->outputs, ds[c]->weights};
        int counts[3] = {ds[c]->n_inputs, ds[c]->n_outputs, ds[c]->n_weights};
        for (int l = 0; l < 3; l++)
            for (int i = 0; i < counts[l]; i++, ai++) {
                const ProblemArg *a = &p->args[ai];
                for (int k = 0; k < a->ndim; k++) {
                    int64_t v;
                    TRY(problem_eval(p, pc, a->shape[k], &v, e));
                    if (v != lists[l][i].dims[k])
                        FAIL(e, "config %s: '%s' dimension %d: expression '%s' gives %lld, the program %lld",
                             CFG_NAMES[c], a->name, k, a->shape[k], (long long)v, (long long)lists[l][i].dims[k]);
                }
            }
    }
    *meta_out = problem_to_json(p);
done:
    problem_free(p);
    cJSON_free(text);
    cJSON_Delete(root);
    sb_release(&bytes);
    sb_release(&elems);
    free(name);
    return rc;
}

int kb_import_meta(const char *path, const char *source, const KbImportOptions *opt, const KbDescriber *d,
                   char **meta_out, Error *e)
{
    int rc = 0;
    Ctx cx = {path, source, d, 0};
    KbConstants cfg[N_CFG];
    KbDescription desc[N_CFG];
    int have[N_CFG] = {0};
    int size_like[KB_MAX_CONSTANTS] = {0};
    *meta_out = NULL;
    memset(cfg, 0, sizeof cfg);
    memset(desc, 0, sizeof desc);
    TRY(kb_source_check_entry_points(source, NULL, e));
    int pl = kb_source_find_print(source);
    if (pl)
        FAIL(e, "prints to stdout (line %d): a KernelBench-format program must be silent", pl);
    TRY(kb_source_constants(source, NULL, &cfg[CFG_LARGE], e));
    have[CFG_LARGE] = 1;
    int r = describe(&cx, &cfg[CFG_LARGE], &desc[CFG_LARGE], e);
    if (r != 0) {
        char *t = constants_text(&cfg[CFG_LARGE]);
        if (r == -1)
            error_prefix(e, "under the original constants (%s)", t);
        free(t);
        rc = r;
        goto done;
    }
    /* Size constants: those whose value is a dimension of some tensor. */
    for (int k = 0; k < cfg[CFG_LARGE].n; k++)
        size_like[k] = cfg[CFG_LARGE].values[k] > 1 && appears_as_dim(&desc[CFG_LARGE], cfg[CFG_LARGE].values[k]);
    int64_t budget = opt->small_bytes > 0 ? opt->small_bytes : DEFAULT_SMALL_BYTES;
    TRY(derive_small(&cx, &cfg[CFG_LARGE], &desc[CFG_LARGE], size_like, budget, &cfg[CFG_SMALL], &desc[CFG_SMALL], e));
    have[CFG_SMALL] = 1;
    TRY(derive_edge(&cx, &cfg[CFG_SMALL], size_like, &cfg[CFG_EDGE], &desc[CFG_EDGE], e));
    have[CFG_EDGE] = 1;
    const KbDescription *ds[N_CFG] = {&desc[0], &desc[1], &desc[2]};
    TRY(build_meta(path, source, opt, cfg, ds, size_like, meta_out, e));
done:
    if (rc && cx.fatal)
        rc = -2;
    for (int c = 0; c < N_CFG; c++) {
        if (have[c]) {
            kb_constants_release(&cfg[c]);
            kb_description_release(&desc[c]);
        }
    }
    return rc;
}

/* ---- files and the catalog ---- */

static char **g_files;
static int g_n_files;

static int collect_py(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 3 && strcmp(path + n - 3, ".py") == 0) {
        g_files = xrealloc(g_files, sizeof(char *) * (size_t)(g_n_files + 1));
        g_files[g_n_files++] = xstrdup(path);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void reject(KbImportSummary *sum, const char *file, const char *reason)
{
    sum->rejected++;
    fprintf(stderr, "harness: import: %s: %s\n", file, reason);
}

/* 1 when the catalog holds program `name` imported from exactly `source`. */
static int already_imported(Catalog *c, const char *name, const char *source, int *yes, Error *e)
{
    char hex[HASH_HEX_LEN + 1];
    hash_hex(source, strlen(source), hex);
    sqlite3_stmt *st = NULL;
    *yes = 0;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT 1 FROM programs WHERE name = ?1 AND source_hash = ?2 AND origin = 'imported'", -1,
                           &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "looking up an imported program");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, hex, -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *yes = 1;
    sqlite3_finalize(st);
    if (r != SQLITE_ROW && r != SQLITE_DONE)
        return catalog_sql_error(c, e, "looking up an imported program");
    return 0;
}

/* Ingest's verdicts, reported per file. */
typedef struct Staged {
    char *file;
    char *dir;
    char *name;
} Staged;

typedef struct VerdictCtx {
    Staged *staged;
    int n;
    KbImportSummary *sum;
} VerdictCtx;

static void on_verdict(void *ctx, const char *dir, const char *name, int verdict, const char *reason)
{
    VerdictCtx *v = ctx;
    (void)name;
    if (verdict == 0)
        return;
    char *why = xasprintf("%s%s", verdict == 1 ? "dropped as degenerate: " : "", reason);
    const char *file = dir;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->staged[i].dir, dir) == 0)
            file = v->staged[i].file;
    reject(v->sum, file, why);
    free(why);
}

static const char *staged_with_name(const Staged *s, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return s[i].file;
    return NULL;
}

int kb_import_paths(Catalog *c, char *const *paths, int n_paths, const KbImportOptions *opt, const KbDescriber *d,
                    const IngestOptions *iopt, KbImportSummary *sum, Error *e)
{
    int rc = 0, n_staged = 0, stage_made = 0;
    Staged *staged = NULL;
    memset(sum, 0, sizeof *sum);
    g_files = NULL;
    g_n_files = 0;
    for (int i = 0; i < n_paths; i++) {
        if (file_is_dir(paths[i])) {
            int before = g_n_files;
            if (nftw(paths[i], collect_py, 32, FTW_PHYS) != 0)
                FAIL(e, "import: cannot walk '%s': %s", paths[i], strerror(errno));
            qsort(g_files + before, (size_t)(g_n_files - before), sizeof *g_files, cmp_str);
            if (g_n_files == before) {
                sum->files++;
                reject(sum, paths[i], "no *.py file below this folder");
            }
        } else {
            g_files = xrealloc(g_files, sizeof(char *) * (size_t)(g_n_files + 1));
            g_files[g_n_files++] = xstrdup(paths[i]);
        }
    }
    sum->files += g_n_files;
    staged = xcalloc((size_t)g_n_files + 1, sizeof *staged);
    TRY(file_mkdirs(opt->stage_dir, e));
    stage_made = 1;
    double t0 = now_s(), last = t0;
    for (int i = 0; i < g_n_files; i++) {
        const char *f = g_files[i];
        Error fe = {{0}, 0, 0};
        char *source = NULL, *meta = NULL, *name = kb_import_name(f, opt->family);
        int known = 0, mr = 0;
        const char *dup = NULL;
        if (file_read_all(f, MAX_SOURCE_BYTES, &source, NULL, &fe) != 0) {
            reject(sum, f, fe.msg);
        } else if (memchr(source, '\0', strlen(source) + 1) != source + strlen(source)) {
            reject(sum, f, "not a text file");
        } else if (already_imported(c, name, source, &known, e) != 0) {
            free(source);
            free(name);
            rc = -1;
            goto done;
        } else if (known && !opt->force) {
            sum->skipped++;
        } else if ((dup = staged_with_name(staged, n_staged, name)) != NULL) {
            char *why = xasprintf("program name '%s' is also that of %s (rename one file)", name, dup);
            reject(sum, f, why);
            free(why);
        } else if ((mr = kb_import_meta(f, source, opt, d, &meta, &fe)) != 0) {
            if (mr == -2) { /* the runner itself failed: every other file would too */
                *e = fe;
                free(source);
                free(name);
                rc = -1;
                goto done;
            }
            reject(sum, f, fe.msg);
        } else {
            char *dir = xasprintf("%s/%04d", opt->stage_dir, i);
            char *mp = xasprintf("%s/meta.json", dir), *pp = xasprintf("%s/program.py", dir);
            int w = file_mkdirs(dir, &fe) == 0 && file_write_if_changed(mp, meta, strlen(meta), NULL, &fe) == 0 &&
                    file_write_if_changed(pp, source, strlen(source), NULL, &fe) == 0;
            if (w) {
                staged[n_staged].file = xstrdup(f);
                staged[n_staged].dir = dir;
                staged[n_staged++].name = xstrdup(name);
                dir = NULL;
            }
            free(dir);
            free(mp);
            free(pp);
            if (!w) {
                free(source);
                free(meta);
                free(name);
                *e = fe;
                rc = -1;
                goto done;
            }
        }
        free(source);
        free(meta);
        free(name);
        double t = now_s();
        if (!opt->quiet && (t - last >= 5 || (i + 1 == g_n_files && t - t0 >= 5))) {
            fprintf(stderr, "harness import: %d/%d files described, %.1f files/s\n", i + 1, g_n_files,
                    (i + 1) / (t - t0));
            last = t;
        }
    }
    if (n_staged > 0) {
        IngestOptions io = *iopt;
        VerdictCtx vc = {staged, n_staged, sum};
        IngestSummary is;
        io.origin = "imported";
        io.quiet = 1;
        char *root = (char *)opt->stage_dir;
        TRY(ingest_paths_reporting(c, &root, 1, &io, on_verdict, &vc, &is, e));
        sum->imported += is.added;
        sum->skipped += is.unchanged;
    }
done:
    if (stage_made) {
        Error ignore;
        file_remove_tree(opt->stage_dir, &ignore);
    }
    for (int i = 0; i < n_staged; i++) {
        free(staged[i].file);
        free(staged[i].dir);
        free(staged[i].name);
    }
    free(staged);
    for (int i = 0; i < g_n_files; i++)
        free(g_files[i]);
    free(g_files);
    g_files = NULL;
    g_n_files = 0;
    return rc;
}
