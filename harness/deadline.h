/* deadline.h — how long one execution of a candidate's launch plan may take
 * before it counts as a hang, and the reference times that decide it.
 *
 * A fixed deadline is wrong both ways: 5 s lets every hanging candidate
 * cost 5 s per config (a run has thousands), and a large config of a slow
 * but correct program can need more.  So by default the deadline is
 * relative to the program's reference CUDA implementation on the same
 * config: DEADLINE_FACTOR times its time per execution plus
 * DEADLINE_SLACK_S (launch overhead, lazy module loading, a GPU shared with
 * a neighbour), capped at DEADLINE_MAX_S so that a pathological figure
 * cannot make a hang cost minutes.  Where no reference time is known the
 * old fixed DEADLINE_FALLBACK_S applies, and an explicit deadline
 * (`--timeout S`) wins over everything.
 *
 * The reference times live in a RefTimes table that an evaluation session
 * owns (eval.h): fed by what the session measures (the reference timed as
 * the baseline, or run as the candidate itself) and by the catalog's stored
 * results (results_reference_times in results.h).  A measurement of this
 * session beats a stored figure; a timed median beats a single correctness
 * run. */
#ifndef CUDAPERF_DEADLINE_H
#define CUDAPERF_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

#define DEADLINE_FACTOR 10.0
#define DEADLINE_SLACK_S 1.0
#define DEADLINE_MAX_S 60.0
#define DEADLINE_FALLBACK_S 5.0

/* Where a reference time came from, worst first: a better source replaces
 * a worse one, never the other way round. */
typedef enum RefTimeSource {
    REF_TIME_NONE,     /* nothing known */
    REF_TIME_CATALOG,  /* a stored passing result, on a GPU of the same name */
    REF_TIME_RUN,      /* the CUDA-event time of a correctness run in this session */
    REF_TIME_TIMED     /* the timing protocol's median in this session */
} RefTimeSource;

/* "stored result", "run in this session", "timed in this session". */
const char *ref_time_source_name(RefTimeSource s);

/* The reference CUDA implementation's time per execution of its plan, per
 * (program, config).  It holds one program at a time, like ref_cache.h:
 * a session evaluates a program's candidates one after another, and noting
 * a time for another program empties it, so a long run's table stays small. */
typedef struct RefTimes RefTimes;

RefTimes *ref_times_new(void);
void ref_times_free(RefTimes *t); /* NULL is fine */

/* Records ms (finite, >= 0; anything else is ignored) for (program, config)
 * unless a figure of a better source is held; one of the same source is
 * replaced (the latest wins). */
void ref_times_note(RefTimes *t, const char *program, const char *config, double ms, RefTimeSource src);

/* The best figure held for (program, config) in ms, with its source in
 * *src; NaN and REF_TIME_NONE when there is none. */
double ref_times_get(const RefTimes *t, const char *program, const char *config, RefTimeSource *src);

typedef enum DeadlineKind {
    DEADLINE_FIXED,     /* given explicitly (--timeout, or the CPU backend's) */
    DEADLINE_REFERENCE, /* DEADLINE_FACTOR x the reference's time + DEADLINE_SLACK_S */
    DEADLINE_FALLBACK   /* no reference time known: DEADLINE_FALLBACK_S */
} DeadlineKind;

typedef struct Deadline {
    double seconds;        /* per execution of the plan */
    DeadlineKind kind;
    double reference_ms;   /* DEADLINE_REFERENCE: the figure it came from; NaN otherwise */
    RefTimeSource source;  /* and where that came from */
    int capped;            /* the rule gave more than DEADLINE_MAX_S */
    /* DEADLINE_FALLBACK widened by deadline_widen_fallback: */
    double cpu_reference_ms; /* the C reference's one-core time it came from; NaN: none */
    int beyond_budget;       /* the config is beyond the C reference's budget (golden.h) */
} Deadline;

/* The rule: fixed_s when > 0; else, with a reference time (reference_ms
 * finite and >= 0, src not REF_TIME_NONE), DEADLINE_FACTOR x it +
 * DEADLINE_SLACK_S capped at DEADLINE_MAX_S; else DEADLINE_FALLBACK_S. */
Deadline deadline_rule(double fixed_s, double reference_ms, RefTimeSource src);

/* A fallback deadline (d.kind DEADLINE_FALLBACK; any other is returned as
 * it is) widened by what else is known of the config, since 5 s is too
 * little for the first execution of a slow reference on a large config
 * (device run 35: 37 references' large configs, pagerank's one-block
 * iterations, trisolve's sweeps, timed out so):
 * - beyond_budget (a config beyond the C reference's budget, golden.h):
 *   DEADLINE_MAX_S, the config is large by its cost model;
 * - else the C reference's one-core time cpu_reference_ms when finite and
 *   >= 0: DEADLINE_FACTOR x it + DEADLINE_SLACK_S, at least
 *   DEADLINE_FALLBACK_S, at most DEADLINE_MAX_S (a CUDA kernel 10x slower
 *   than plain C on one core has hung, or might as well have). */
Deadline deadline_widen_fallback(Deadline d, double cpu_reference_ms, int beyond_budget);

/* The deadline in whole milliseconds for the worker protocol (at least 1). */
uint32_t deadline_ms(const Deadline *d);

/* Which deadline applied, for messages: "1.000 s = 10x the reference's
 * 0.023 ms (timed in this session) + 1 s", "5.000 s, the default (no time of
 * the reference on this config is known)", "2.000 s, fixed".  Returns buf. */
const char *deadline_describe(const Deadline *d, char *buf, size_t len);

#endif
