#include "golden.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/results.h"

RefBudget golden_default_budget(void)
{
    return (RefBudget){GOLDEN_BUDGET_FLOPS, GOLDEN_BUDGET_BYTES};
}

RefBudget golden_cpu_backend_budget(void)
{
    return (RefBudget){GOLDEN_CPU_BACKEND_FLOPS, GOLDEN_CPU_BACKEND_BYTES};
}

int golden_parse_budget(const char *text, RefBudget *b, Error *e)
{
    char *end = NULL, *end2 = NULL;
    double flops = strtod(text, &end);
    if (end == text || *end != ',')
        return ERR(e, "a reference budget is FLOPS,BYTES (e.g. 4e9,2.1e9), not '%s'", text);
    double bytes = strtod(end + 1, &end2);
    if (end2 == end + 1 || *end2 || !(flops > 0) || !(bytes > 0) || !isfinite(flops) || !isfinite(bytes))
        return ERR(e, "a reference budget is two positive numbers FLOPS,BYTES (e.g. 4e9,2.1e9), not '%s'", text);
    b->flops = flops;
    b->bytes = bytes;
    return 0;
}

/* 1 when f or n is over b, with *flops and *bytes set where not NULL. */
static int over(int64_t f, int64_t n, const RefBudget *b, double *flops, double *bytes)
{
    if (flops)
        *flops = (double)f;
    if (bytes)
        *bytes = (double)n;
    return (double)f > b->flops || (double)n > b->bytes;
}

int golden_beyond(const Problem *p, const ProblemConfig *c, const RefBudget *b, double *flops, double *bytes)
{
    int64_t f = 0, n = 0;
    if (problem_reference_cost(p, c, &f, &n, NULL) != 0)
        return 0;
    return over(f, n, b, flops, bytes);
}

int golden_kernel_beyond(const Problem *p, const ProblemConfig *c, const RefBudget *b, double *flops, double *bytes)
{
    int64_t f = 0, n = 0;
    if (problem_eval(p, c, p->cost_flops, &f, NULL) != 0 || problem_eval(p, c, p->cost_bytes, &n, NULL) != 0)
        return 0;
    return over(f, n, b, flops, bytes);
}

int golden_reference_kernel(Catalog *c, const char *program, int64_t *id, Error *e)
{
    sqlite3_stmt *st = NULL;
    *id = 0;
    if (sqlite3_prepare_v2(catalog_db(c),
                           "SELECT k.id FROM kernels k JOIN programs p ON p.id = k.program_id"
                           " WHERE p.name = ? AND k.origin = 'reference' ORDER BY k.id LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_sql_error(c, e, "kernels");
    sqlite3_bind_text(st, 1, program, -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : catalog_sql_error(c, e, "kernels");
}

/* The reference's own verdict on config `target` (beyond the budget): no
 * verdict yet, or a pass, leaves it allowed. */
static int target_allowed(Catalog *c, int64_t ref_kernel, const char *backend, const ProblemConfig *target,
                          char *why, size_t len, Error *e)
{
    char status[64];
    int64_t run = 0;
    int found = results_latest_verdict(c, ref_kernel, target->name, backend, NULL, status, sizeof status, &run, e);
    if (found < 0)
        return -1;
    if (found && strcmp(status, "pass") != 0) {
        snprintf(why, len, "its latest result on config '%s' itself (run %lld, %s backend) is %s", target->name,
                 (long long)run, backend, status);
        return 0;
    }
    return 1;
}

int golden_allowed(Catalog *c, int64_t ref_kernel, const char *backend, const Problem *p, const RefBudget *b,
                   const unsigned char *now, const ProblemConfig *target, char *why, size_t len, Error *e)
{
    why[0] = '\0';
    if (ref_kernel <= 0) {
        snprintf(why, len, "the program has none");
        return 0;
    }
    for (int k = 0; k < p->n_configs; k++) {
        const ProblemConfig *f = &p->configs[k];
        if ((now && now[k]) || golden_beyond(p, f, b, NULL, NULL))
            continue;
        char status[64];
        int64_t run = 0;
        int found = results_latest_verdict(c, ref_kernel, f->name, backend, "cpu", status, sizeof status, &run, e);
        if (found < 0)
            return -1;
        if (!found) {
            snprintf(why, len,
                     "it has not yet passed every config within the budget on the %s backend (no result of it on "
                     "config '%s' checked against the C reference): run the reference first (--kernels reference "
                     "or all)",
                     backend, f->name);
            return 0;
        }
        if (strcmp(status, "pass") != 0) {
            snprintf(why, len,
                     "it has not passed every config within the budget (its latest result on config '%s', run %lld "
                     "on the %s backend, is %s)",
                     f->name, (long long)run, backend, status);
            return 0;
        }
    }
    return target_allowed(c, ref_kernel, backend, target, why, len, e);
}

const char *golden_skip_reason(const Problem *p, const ProblemConfig *c, const RefBudget *b, const char *refusal,
                               char *buf, size_t len)
{
    double flops = 0, bytes = 0;
    golden_beyond(p, c, b, &flops, &bytes);
    snprintf(buf, len,
             "config '%s' costs %.3g GFLOP / %.3g GB: beyond the C reference's budget (%.3g GFLOP / %.3g GB, "
             "--reference-budget), and the reference CUDA implementation cannot give golden outputs: %s; "
             "--configs %s runs the C reference on it anyway",
             c->name, flops / 1e9, bytes / 1e9, b->flops / 1e9, b->bytes / 1e9, refusal, c->name);
    return buf;
}
