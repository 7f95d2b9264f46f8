#include "ref_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/dtype.h"
#include "common/parallel.h"
#include "common/strbuf.h"

typedef struct Entry {
    char *config;        /* from malloc() */
    uint64_t seed;
    void **inputs;       /* per argument: a copy of the candidate's input, NULL for non-inputs; from malloc() */
    void **outputs;      /* per argument: a copy of the reference's output, NULL for non-outputs; from malloc() */
    int64_t *bytes;      /* per argument: buffer size; from malloc() */
    long long total;     /* what the entry counts against the cap */
    double run_seconds;
    const char *kind;    /* static storage, not ours */
} Entry;

struct RefCache {
    char *program;       /* whose entries these are; from malloc() */
    int n_args;          /* its argument count: every entry has that many slots */
    Entry *entries;      /* finished trials; the array from malloc() */
    int n, cap;
    Entry pending;       /* begun, not finished: config == NULL when none */
    long long bytes;     /* held, pending included */
    long long limit;
    long hits, stores;
};

static long long default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    long long quarter = pages > 0 && page > 0 ? (long long)pages * page / 4 : 0;
    if (quarter < REF_CACHE_MIN_BYTES)
        return REF_CACHE_MIN_BYTES;
    return quarter > REF_CACHE_MAX_BYTES ? REF_CACHE_MAX_BYTES : quarter;
}

RefCache *ref_cache_new(Error *e)
{
    long long limit = default_limit();
    const char *v = getenv(REF_CACHE_ENV);
    if (v && *v) {
        char *end;
        errno = 0;
        long long mib = strtoll(v, &end, 10);
        if (errno || *end || end == v || mib < 0 || mib > (1LL << 40)) {
            ERR(e, "%s='%s': expected a whole number of MiB (0 keeps no trials)", REF_CACHE_ENV, v);
            return NULL;
        }
        limit = mib << 20;
    }
    RefCache *c = xcalloc(1, sizeof(RefCache));
    c->limit = limit;
    return c;
}

long long ref_cache_cap(const RefCache *c)
{
    return c->limit;
}

void ref_cache_set_cap(RefCache *c, long long bytes)
{
    c->limit = bytes;
}

static void entry_release(RefCache *c, Entry *en)
{
    for (int a = 0; en->inputs && a < c->n_args; a++)
        free(en->inputs[a]);
    for (int a = 0; en->outputs && a < c->n_args; a++)
        free(en->outputs[a]);
    free(en->inputs);
    free(en->outputs);
    free(en->bytes);
    free(en->config);
    c->bytes -= en->total;
    memset(en, 0, sizeof *en);
}

static void clear(RefCache *c)
{
    for (int i = 0; i < c->n; i++)
        entry_release(c, &c->entries[i]);
    entry_release(c, &c->pending);
    c->n = 0;
}

void ref_cache_free(RefCache *c)
{
    if (!c)
        return;
    clear(c);
    free(c->entries);
    free(c->program);
    free(c);
}

static int64_t buffer_bytes(const Problem *p, const RefBuffers *b, int a)
{
    if (!arg_role_is_buffer(p->args[a].role) || !b->data[a])
        return 0;
    return b->count[a] * (int64_t)dtype_size(p->args[a].dtype);
}

/* The entry of (p, cf, seed) among the finished ones; switching programs
 * empties the cache first. */
static Entry *find(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed)
{
    if (!c->program || strcmp(c->program, p->name) != 0) {
        clear(c);
        free(c->program);
        c->program = xstrdup(p->name);
        c->n_args = p->n_args;
        return NULL;
    }
    for (int i = 0; i < c->n; i++)
        if (c->entries[i].seed == seed && strcmp(c->entries[i].config, cf->name) == 0)
            return &c->entries[i];
    return NULL;
}

int ref_cache_fetch(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, RefTrial *t)
{
    if (!c)
        return 0;
    Entry *en = find(c, p, cf, seed);
    if (!en)
        return 0;
    t->inputs = (const void *const *)en->inputs;
    t->outputs = (const void *const *)en->outputs;
    t->bytes = en->bytes;
    t->run_seconds = en->run_seconds;
    t->kind = en->kind;
    c->hits++;
    return 1;
}

RefCacheKeep ref_cache_begin(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed,
                             const RefBuffers *b)
{
    if (!c)
        return REF_CACHE_TOO_LARGE;
    if (find(c, p, cf, seed))
        return REF_CACHE_HELD;
    entry_release(c, &c->pending);
    long long total = 0;
    for (int a = 0; a < p->n_args; a++) {
        int64_t n = buffer_bytes(p, b, a);
        total += arg_role_is_input(p->args[a].role) ? n : 0;
        total += arg_role_is_output(p->args[a].role) ? n : 0;
    }
    if (total > c->limit)
        return REF_CACHE_TOO_LARGE;
    if (c->bytes + total > c->limit)
        return REF_CACHE_FULL;
    Entry *en = &c->pending;
    en->config = xstrdup(cf->name);
    en->seed = seed;
    en->total = total;
    en->inputs = xcalloc((size_t)p->n_args + 1, sizeof *en->inputs);
    en->outputs = xcalloc((size_t)p->n_args + 1, sizeof *en->outputs);
    en->bytes = xcalloc((size_t)p->n_args + 1, sizeof *en->bytes);
    for (int a = 0; a < p->n_args; a++) {
        int64_t n = buffer_bytes(p, b, a);
        en->bytes[a] = n;
        if (arg_role_is_buffer(p->args[a].role) && arg_role_is_input(p->args[a].role)) {
            en->inputs[a] = xmalloc((size_t)n + 1);
            parallel_copy(en->inputs[a], b->data[a], (size_t)n);
        }
    }
    c->bytes += total;
    return REF_CACHE_KEPT;
}

void ref_cache_finish(RefCache *c, const Problem *p, const ProblemConfig *cf, uint64_t seed, const RefBuffers *b,
                      const char *kind)
{
    Entry *en = c ? &c->pending : NULL;
    if (!en || !en->config || en->seed != seed || strcmp(en->config, cf->name) != 0 || !c->program ||
        strcmp(c->program, p->name) != 0)
        return;
    for (int a = 0; a < p->n_args; a++)
        if (arg_role_is_buffer(p->args[a].role) && arg_role_is_output(p->args[a].role)) {
            en->outputs[a] = xmalloc((size_t)en->bytes[a] + 1);
            parallel_copy(en->outputs[a], b->data[a], (size_t)en->bytes[a]);
        }
    en->run_seconds = b->run_seconds;
    en->kind = kind;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->entries = xrealloc(c->entries, (size_t)c->cap * sizeof *c->entries);
    }
    c->entries[c->n++] = *en;   /* the entry moves, with its bytes */
    memset(en, 0, sizeof *en);
    c->stores++;
}

void ref_cache_counts(const RefCache *c, long *hits, long *stores)
{
    *hits = c ? c->hits : 0;
    *stores = c ? c->stores : 0;
}

long long ref_cache_bytes(const RefCache *c)
{
    return c ? c->bytes : 0;
}
