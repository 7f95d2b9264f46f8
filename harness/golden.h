/* golden.h — which reference a C program's config is checked against.
 *
 * The C reference runs on the CPU wherever its cost model (meta.json's
 * "cost": flops and bytes per config) fits a budget, by default
 * GOLDEN_BUDGET_FLOPS / _BYTES: a few seconds of one core, where a 4096^3
 * GEMM in plain C takes minutes.  A config beyond the budget is checked
 * instead against golden outputs: those of the program's reference CUDA
 * implementation (its kernel of origin 'reference'), run in the
 * candidate's own worker on the very inputs the candidate gets, just
 * before it (eval.h: EvalOptions.golden).  That is allowed only once the
 * reference CUDA implementation has matched the C reference on every
 * config within the budget (golden_allowed), and every result checked
 * that way records reference_kind GOLDEN_REFERENCE_KIND.
 *
 * Torch programs are outside this: their reference runs on the GPU
 * directly, every config is within reach. */
#ifndef CUDAPERF_GOLDEN_H
#define CUDAPERF_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/problem.h"
#include "harness/catalog.h"

/* What the C reference may cost per config (a few seconds of one core). */
#define GOLDEN_BUDGET_FLOPS 4e9
#define GOLDEN_BUDGET_BYTES (2.0 * 1024 * 1024 * 1024)
/* With the CPU backend the candidate itself runs on the CPU, each CUDA
 * thread a fiber: roughly 100x the C reference's time, so configs beyond
 * this are not run by default whatever their reference (the small and
 * edge configs of every family fit). */
#define GOLDEN_CPU_BACKEND_FLOPS 5e7
#define GOLDEN_CPU_BACKEND_BYTES (256.0 * 1024 * 1024)

/* results.reference_kind of a result checked against golden outputs. */
#define GOLDEN_REFERENCE_KIND "cuda-reference"

typedef struct RefBudget {
    double flops, bytes;   /* a config costing more of either is beyond the budget */
} RefBudget;

/* GOLDEN_BUDGET_FLOPS / _BYTES. */
RefBudget golden_default_budget(void);
/* GOLDEN_CPU_BACKEND_FLOPS / _BYTES. */
RefBudget golden_cpu_backend_budget(void);

/* Parses "FLOPS,BYTES" (two positive numbers such as 4e9,2.1e9) into *b:
 * 0, or -1 with e. */
int golden_parse_budget(const char *text, RefBudget *b, Error *e);

/* 1 when the C reference of config c of p costs more than b allows (its
 * cost model's flops or bytes: cost.ref_flops / ref_bytes where meta.json
 * gives them, problem.h: problem_reference_cost), with *flops and *bytes
 * set (either may be NULL); 0 when it fits, and when the cost model cannot
 * be evaluated (nothing is known to be too dear).  Any language: callers
 * decide what a torch program's cost means. */
int golden_beyond(const Problem *p, const ProblemConfig *c, const RefBudget *b, double *flops, double *bytes);
/* The same for the kernel's own work (the problem's cost.flops / bytes):
 * what the CPU backend's fibers are checked against. */
int golden_kernel_beyond(const Problem *p, const ProblemConfig *c, const RefBudget *b, double *flops, double *bytes);

/* The id of the reference CUDA implementation of the catalog program named
 * `program` (its first kernel of origin 'reference') into *id, 0 when it
 * has none.  0, or -1 with e. */
int golden_reference_kernel(Catalog *c, const char *program, int64_t *id, Error *e);

/* Whether kernel `ref_kernel`, the reference CUDA implementation of C
 * program p, may give the golden outputs of config `target` (one beyond
 * budget b) on backend `backend` ("gpu" or "cpu"):
 *  - on every config of p within b, its latest verdict of that backend
 *    checked against the C reference (results.reference_kind 'cpu'; skipped
 *    and not_run are no verdicts) is a pass; configs with now[k] set (k
 *    over p->configs; now may be NULL) are left out, since the caller
 *    evaluates them in this very call and judges them itself (eval.h:
 *    golden_after_pass);
 *  - and its latest verdict on `target` itself, of any kind, is no failure
 *    (a reference that failed against its own second execution there, or
 *    crashed, gives no golden outputs).
 * The same backend only: a pass on the other one says nothing of how this
 * one executes the kernel (the CPU backend emulates warps, the GPU does not
 * guard against races the same way).  Returns 1 (allowed), 0 (refused,
 * why[0..len) says why, a clause that follows "the reference CUDA
 * implementation cannot give golden outputs: "), or -1 with e. */
int golden_allowed(Catalog *c, int64_t ref_kernel, const char *backend, const Problem *p, const RefBudget *b,
                   const unsigned char *now, const ProblemConfig *target, char *why, size_t len, Error *e);

/* The `skipped` reason of config c beyond budget b whose golden outputs
 * are refused for `refusal` (a golden_allowed why, or another clause), into
 * buf[0..len); returns buf. */
const char *golden_skip_reason(const Problem *p, const ProblemConfig *c, const RefBudget *b, const char *refusal,
                               char *buf, size_t len);

#endif
