#include "deadline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

const char *ref_time_source_name(RefTimeSource s)
{
    switch (s) {
    case REF_TIME_NONE: return "unknown";
    case REF_TIME_CATALOG: return "stored result";
    case REF_TIME_RUN: return "run in this session";
    case REF_TIME_TIMED: return "timed in this session";
    }
    return "?";
}

typedef struct Entry {
    char *config;        /* from malloc() */
    double ms;
    RefTimeSource src;
} Entry;

struct RefTimes {
    char *program;       /* whose times these are; from malloc() */
    Entry *entries;      /* from malloc() */
    int n, cap;
};

RefTimes *ref_times_new(void)
{
    return xcalloc(1, sizeof(RefTimes));
}

static void clear(RefTimes *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->entries[i].config);
    t->n = 0;
    free(t->program);
    t->program = NULL;
}

void ref_times_free(RefTimes *t)
{
    if (!t)
        return;
    clear(t);
    free(t->entries);
    free(t);
}

static Entry *find(const RefTimes *t, const char *program, const char *config)
{
    if (!t || !t->program || strcmp(t->program, program) != 0)
        return NULL;
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->entries[i].config, config) == 0)
            return &t->entries[i];
    return NULL;
}

void ref_times_note(RefTimes *t, const char *program, const char *config, double ms, RefTimeSource src)
{
    if (!t || src == REF_TIME_NONE || !isfinite(ms) || ms < 0)
        return;
    if (t->program && strcmp(t->program, program) != 0)
        clear(t);
    if (!t->program)
        t->program = xstrdup(program);
    Entry *x = find(t, program, config);
    if (!x) {
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 8;
            t->entries = xrealloc(t->entries, sizeof *t->entries * (size_t)t->cap);
        }
        x = &t->entries[t->n++];
        x->config = xstrdup(config);
        x->src = REF_TIME_NONE;
    }
    if (src < x->src)
        return;
    x->ms = ms;
    x->src = src;
}

double ref_times_get(const RefTimes *t, const char *program, const char *config, RefTimeSource *src)
{
    const Entry *x = find(t, program, config);
    *src = x ? x->src : REF_TIME_NONE;
    return x ? x->ms : NAN;
}

/* The rule's time for a reference that took reference_ms, before any cap. */
static double scaled_seconds(double reference_ms)
{
    return DEADLINE_FACTOR * reference_ms / 1000.0 + DEADLINE_SLACK_S;
}

Deadline deadline_rule(double fixed_s, double reference_ms, RefTimeSource src)
{
    Deadline d = {DEADLINE_FALLBACK_S, DEADLINE_FALLBACK, NAN, REF_TIME_NONE, 0, NAN, 0};
    if (fixed_s > 0) {
        d.seconds = fixed_s;
        d.kind = DEADLINE_FIXED;
        return d;
    }
    if (src == REF_TIME_NONE || !isfinite(reference_ms) || reference_ms < 0)
        return d;
    d.kind = DEADLINE_REFERENCE;
    d.reference_ms = reference_ms;
    d.source = src;
    d.seconds = scaled_seconds(reference_ms);
    if (d.seconds > DEADLINE_MAX_S) {
        d.seconds = DEADLINE_MAX_S;
        d.capped = 1;
    }
    return d;
}

Deadline deadline_widen_fallback(Deadline d, double cpu_reference_ms, int beyond_budget)
{
    if (d.kind != DEADLINE_FALLBACK)
        return d;
    if (beyond_budget) {
        d.seconds = DEADLINE_MAX_S;
        d.beyond_budget = 1;
    } else if (isfinite(cpu_reference_ms) && cpu_reference_ms >= 0) {
        double s = scaled_seconds(cpu_reference_ms);
        d.seconds = s < DEADLINE_FALLBACK_S ? DEADLINE_FALLBACK_S : s > DEADLINE_MAX_S ? DEADLINE_MAX_S : s;
        d.cpu_reference_ms = cpu_reference_ms;
    }
    return d;
}

uint32_t deadline_ms(const Deadline *d)
{
    double ms = d->seconds * 1000.0;
    if (!(ms >= 1))
        return 1;
    return ms >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

const char *deadline_describe(const Deadline *d, char *buf, size_t len)
{
    switch (d->kind) {
    case DEADLINE_FIXED:
        snprintf(buf, len, "%.3f s, fixed", d->seconds);
        break;
    case DEADLINE_FALLBACK:
        if (d->beyond_budget)
            snprintf(buf, len,
                     "%.3f s, the most (no time of the reference CUDA implementation on this config is known, "
                     "and the config is beyond the C reference's budget)",
                     d->seconds);
        else if (isfinite(d->cpu_reference_ms))
            snprintf(buf, len,
                     "%.3f s from the C reference's %.3g ms on one core (%gx + %g s, within %g to %g s; no time of "
                     "the reference CUDA implementation on this config is known)",
                     d->seconds, d->cpu_reference_ms, DEADLINE_FACTOR, DEADLINE_SLACK_S, DEADLINE_FALLBACK_S,
                     DEADLINE_MAX_S);
        else
            snprintf(buf, len, "%.3f s, the default (no time of the reference on this config is known)", d->seconds);
        break;
    case DEADLINE_REFERENCE: {
        char cap[48] = "";
        if (d->capped)
            snprintf(cap, sizeof cap, ", capped at %g s", DEADLINE_MAX_S);
        snprintf(buf, len, "%.3f s = %gx the reference's %.3g ms (%s) + %g s%s", d->seconds, DEADLINE_FACTOR,
                 d->reference_ms, ref_time_source_name(d->source), DEADLINE_SLACK_S, cap);
        break;
    }
    }
    return buf;
}
