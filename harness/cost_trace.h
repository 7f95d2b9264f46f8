/* cost_trace.h — where an evaluation's wall time goes, for diagnosis:
 * with CUDAPERF_TRACE_COST=1 in the environment, cost_trace() prints one
 * line per measured phase to stderr ("cost: <process> <phase> <ms>"), from
 * the parent and from the GPU worker alike; otherwise it does nothing.
 * tests/bench/device_analysis.py `cost` sums the lines by phase. */
#ifndef CUDAPERF_COST_TRACE_H
#define CUDAPERF_COST_TRACE_H

#include <stdio.h>
#include <stdlib.h>

#include "harness/worker_protocol.h"

static inline int cost_trace_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("CUDAPERF_TRACE_COST");
        on = v && *v && *v != '0';
    }
    return on;
}

/* Prints the time since `since` (a wp_now() value) under `phase`; returns
 * wp_now(), so consecutive phases chain: t = cost_trace("x", "a", t). */
static inline double cost_trace(const char *process, const char *phase, double since)
{
    double now = wp_now();
    if (cost_trace_on())
        fprintf(stderr, "cost: %s %s %.3f\n", process, phase, (now - since) * 1e3);
    return now;
}

#endif
