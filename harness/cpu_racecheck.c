#include "cpu_racecheck.h"

#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

/* One access of a byte: the barrier interval it ran in (0: none yet) and
 * the thread. */
typedef struct Access {
    uint32_t interval, tid;
} Access;

/* What is kept of one byte: its last writer, and its last readers of two
 * different warps (reader is the latest; other_reader the latest before it
 * from another warp). */
typedef struct Shadow {
    Access writer, reader, other_reader;
} Shadow;

struct CpuRace {
    uint32_t interval;        /* the running barrier interval's number; it only grows */
    const char *dyn;
    size_t dyn_len;
    Shadow *dyn_shadow;       /* from calloc(), dyn_cap entries */
    size_t dyn_cap;
    void *(*tls_anchor)(void);
    int tls_known;            /* 1: found (tls may be NULL: none), 0: not looked for in this launch */
    const char *tls, *anchor;
    size_t tls_len;
    Shadow *tls_shadow;       /* from calloc(), tls_cap entries */
    size_t tls_cap;
};

CpuRace *cpu_race_new(void)
{
    CpuRace *r = xcalloc(1, sizeof *r);
    r->interval = 1; /* 0: a byte nobody accessed yet */
    return r;
}

void cpu_race_free(CpuRace *r)
{
    if (!r)
        return;
    free(r->dyn_shadow);
    free(r->tls_shadow);
    free(r);
}

/* Makes *shadow at least n entries long; a new one is all zero (never
 * accessed), which loses nothing: what the old one held is from intervals
 * that are over. */
static void ensure_shadow(Shadow **shadow, size_t *cap, size_t n)
{
    if (*cap >= n)
        return;
    free(*shadow);
    *shadow = xcalloc(n, sizeof **shadow);
    *cap = n;
}

void cpu_race_launch(CpuRace *r, const void *dyn, size_t dyn_len, void *(*tls_anchor)(void))
{
    r->dyn = dyn;
    r->dyn_len = dyn_len;
    ensure_shadow(&r->dyn_shadow, &r->dyn_cap, dyn_len);
    r->tls_anchor = tls_anchor;
    r->tls_known = 0;
    r->tls = NULL;
    r->tls_len = 0;
    cpu_race_interval(r);
}

void cpu_race_interval(CpuRace *r)
{
    r->interval++;
}

typedef struct TlsSearch {
    const char *anchor, *block;
    size_t len;
} TlsSearch;

/* dl_iterate_phdr's callback: the module whose thread-local block on this
 * thread holds the anchor. */
static int find_tls_block(struct dl_phdr_info *info, size_t size, void *arg)
{
    TlsSearch *q = arg;
    if (size < offsetof(struct dl_phdr_info, dlpi_tls_data) + sizeof info->dlpi_tls_data || !info->dlpi_tls_data)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_TLS)
            continue;
        const char *lo = info->dlpi_tls_data;
        if (q->anchor >= lo && q->anchor < lo + ph->p_memsz) {
            q->block = lo;
            q->len = ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

static void find_static_shared(CpuRace *r)
{
    r->tls_known = 1;
    if (!r->tls_anchor)
        return;
    TlsSearch q = {.anchor = r->tls_anchor()};
    if (!q.anchor || !dl_iterate_phdr(find_tls_block, &q))
        return;
    r->anchor = q.anchor;
    r->tls = q.block;
    r->tls_len = q.len;
    ensure_shadow(&r->tls_shadow, &r->tls_cap, q.len);
}

int cpu_race_access(CpuRace *r, const void *addr, uint32_t size, int write, uint32_t tid, CpuHazard *h)
{
    const char *a = addr;
    Shadow *shadow;
    int is_static = 0;
    uint64_t off;
    if (a >= r->dyn && a < r->dyn + r->dyn_len) {
        off = (uint64_t)(a - r->dyn);
        if (size > r->dyn_len - off)
            size = (uint32_t)(r->dyn_len - off);
        shadow = r->dyn_shadow;
    } else {
        if (!r->tls_known)
            find_static_shared(r);
        if (!r->tls || a < r->tls || a >= r->tls + r->tls_len)
            return 0;
        if (a + size > r->anchor && a < r->anchor + sizeof(void *))
            return 0; /* the prelude's thread pointer */
        off = (uint64_t)(a - r->tls);
        if (size > r->tls_len - off)
            size = (uint32_t)(r->tls_len - off);
        shadow = r->tls_shadow;
        is_static = 1;
    }
    uint32_t now = r->interval, warp = tid / 32;
    int found = 0;
    for (uint32_t i = 0; i < size; i++) {
        Shadow *s = &shadow[off + i];
        const Access *seen = NULL;
        CpuHazardKind kind = CPU_HAZARD_RAW;
        if (write) {
            if (s->reader.interval == now && s->reader.tid / 32 != warp)
                seen = &s->reader;
            else if (s->other_reader.interval == now && s->other_reader.tid / 32 != warp)
                seen = &s->other_reader;
            kind = CPU_HAZARD_WAR;
            s->writer = (Access){now, tid};
        } else {
            if (s->writer.interval == now && s->writer.tid / 32 != warp)
                seen = &s->writer;
            if (s->reader.interval == now && s->reader.tid / 32 != warp)
                s->other_reader = s->reader;
            s->reader = (Access){now, tid};
        }
        if (seen && !found) {
            found = 1;
            *h = (CpuHazard){.kind = kind, .is_static = is_static, .offset = off + i, .tid = tid, .other = seen->tid};
        }
    }
    return found;
}
