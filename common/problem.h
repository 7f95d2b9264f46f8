/* problem.h — the one problem format: meta.json, loaded, validated and
 * written back canonically.
 *
 * A Problem is "named buffers in, named buffers out": a signature of
 * arguments (buffers with a dtype and a shape, integer params, scalars),
 * at least three input configurations (a "small" one, a "large" one and at
 * least one whose name starts with "edge"), a tolerance, a cost model and
 * provenance.  Every string in a Problem is owned by it (from malloc());
 * problem_free() releases everything.
 *
 * Errors name the file and field: "x/meta.json: args[2].dtype: unknown
 * dtype 'f17' (known: ...)". */
#ifndef CUDAPERF_PROBLEM_H
#define CUDAPERF_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "error.h"

#define PROBLEM_FORMAT_VERSION 1
/* The largest single buffer a configuration may declare: 16 GiB. */
#define PROBLEM_MAX_BUFFER_BYTES (16LL << 30)

typedef enum ArgRole { ROLE_IN, ROLE_OUT, ROLE_INOUT, ROLE_PARAM, ROLE_SCALAR } ArgRole;

typedef enum FillKind {
    FILL_UNIFORM,   /* reals uniform in [lo, hi) (integer dtypes: floor) */
    FILL_INT,       /* integers uniform in [lo_expr, hi_expr) */
    FILL_PARTITION, /* non-decreasing offsets from 0 to total_expr (CSR row pointers) */
    FILL_MODEL      /* values produced by the reference program, not drawn at random: a
                     * torch program's parameters and buffers ("w.<state_dict key>");
                     * only role "in" buffers of lang "torch" programs; JSON {"dist": "model"} */
} FillKind;

typedef struct FillSpec {
    FillKind kind;
    double lo, hi;   /* FILL_UNIFORM */
    char *lo_expr;   /* FILL_INT: expressions of the params */
    char *hi_expr;
    char *total_expr;/* FILL_PARTITION */
    int sorted;      /* sort ascending after drawing */
} FillSpec;

typedef struct ProblemArg {
    char *name;
    DType dtype;
    ArgRole role;
    char **shape;    /* buffers: ndim expressions; NULL otherwise */
    int ndim;
    double value;    /* scalars: default value */
    FillSpec fill;   /* in / inout buffers */
} ProblemArg;

typedef struct ProblemConfig {
    char *name;
    int64_t *params;     /* one value per Problem.params entry */
    char **ov_names;     /* scalar overrides */
    double *ov_values;
    int n_ov;
} ProblemConfig;

typedef struct Problem {
    char *name;          /* "c/stencil2d/jacobi5-f32-003" */
    char *lang;          /* "c" or "torch" */
    char *family;
    char *entry;         /* C function name / torch class name */
    char *description;   /* optional, may be NULL */
    char *category;      /* optional family group ("stencil", "linalg"), may be NULL */
    char **params;
    int n_params;
    ProblemArg *args;
    int n_args;
    ProblemConfig *configs;
    int n_configs;
    double atol, rtol;
    char *cost_flops;    /* expressions of the params: the problem's operations and its useful */
    char *cost_bytes;    /* bytes (each input read once, each output written once): the roofline's */
    char *cost_ref_flops;/* the C reference's own work on one CPU core, where the problem's cost */
    char *cost_ref_bytes;/* undercounts it (libm calls, passes over data, cache lines of random or
                            strided accesses); NULL: the same as cost_flops / cost_bytes */
    char *prov_generator;/* may be NULL */
    int64_t prov_seed;
    char *prov_license;
    char *prov_source;   /* may be NULL: where an imported program came from */
} Problem;

/* Parses meta.json text.  `filename` only labels error messages.
 * On success *out is a validated Problem the caller frees with problem_free. */
int problem_parse(const char *text, const char *filename, Problem **out, Error *e);

/* Reads and parses a meta.json file. */
int problem_load(const char *path, Problem **out, Error *e);

/* Re-checks every rule the parser enforces (generators build Problems in
 * memory and call this before writing them).  `label` prefixes messages. */
int problem_validate(const Problem *p, const char *label, Error *e);

/* Canonical JSON text (fixed key order, two-space indent); caller frees. */
char *problem_to_json(const Problem *p);

void problem_free(Problem *p);

/* Lookups; NULL / -1 when absent. */
const ProblemArg *problem_find_arg(const Problem *p, const char *name);
int problem_param_index(const Problem *p, const char *name);
const ProblemConfig *problem_find_config(const Problem *p, const char *name);

/* Evaluates the number of elements of buffer `a` under config `c`. */
int problem_buffer_count(const Problem *p, const ProblemArg *a, const ProblemConfig *c,
                         int64_t *count, Error *e);
/* Evaluates an expression of the params under config c. */
int problem_eval(const Problem *p, const ProblemConfig *c, const char *expr, int64_t *out,
                 Error *e);
/* The C reference's own work under config c: cost.ref_flops and cost.ref_bytes
 * where meta.json gives them, else the problem's flops and bytes (what the
 * CPU-reference budget of `harness run` is checked against). */
int problem_reference_cost(const Problem *p, const ProblemConfig *c, int64_t *flops, int64_t *bytes, Error *e);
/* The value of scalar `a` under config c (override or default). */
double problem_scalar_value(const ProblemArg *a, const ProblemConfig *c);

const char *arg_role_name(ArgRole r);
int arg_role_is_buffer(ArgRole r);
int arg_role_is_output(ArgRole r);  /* out or inout */
int arg_role_is_input(ArgRole r);   /* in or inout */

/* Checks that s is a valid identifier ([A-Za-z_][A-Za-z0-9_]*), with '.'
 * also allowed after the first character when allow_dot is set. */
int problem_is_identifier(const char *s, int allow_dot);

#endif
