/* launch.h — the launch plan of a CUDA candidate (launch.json): scratch
 * buffers and a sequence of kernel launches whose grid, block and dynamic
 * shared memory are integer expressions of the problem's params.
 *
 *   { "scratch":  [ {"name": "tmp", "dtype": "f32", "count": "n*m"} ],
 *     "launches": [ {"kernel": "jacobi5", "grid": ["(m+31)/32", "(n+7)/8"],
 *                    "block": [32, 8], "smem": "0",
 *                    "args": ["in", "out", "n", "m"]} ] }
 *
 * A launch argument names a problem argument (buffer, param or scalar) or a
 * scratch buffer; any other string is an integer expression of the params,
 * passed as a 32-bit int.  Everything in a LaunchPlan is owned by it;
 * launch_free() releases it.  Errors name the file and the field. */
#ifndef CUDAPERF_LAUNCH_H
#define CUDAPERF_LAUNCH_H

#include <stdint.h>

#include "error.h"
#include "problem.h"

#define LAUNCH_FORMAT_VERSION 1
/* sm_90 limits a plan is checked against. */
#define LAUNCH_MAX_THREADS 1024
#define LAUNCH_MAX_SMEM (227 * 1024)

typedef struct LaunchScratch {
    char *name;
    DType dtype;
    char *count; /* expression */
} LaunchScratch;

typedef enum LaunchArgKind { LARG_PROBLEM, LARG_SCRATCH, LARG_EXPR } LaunchArgKind;

typedef struct LaunchArg {
    LaunchArgKind kind;
    int index;   /* problem arg or scratch index */
    char *text;  /* the name or the expression */
} LaunchArg;

typedef struct Launch {
    char *kernel;
    char *grid[3];   /* missing dimensions are "1" */
    char *block[3];
    char *smem;
    LaunchArg *args;
    int n_args;
} Launch;

typedef struct LaunchPlan {
    LaunchScratch *scratch;
    int n_scratch;
    Launch *launches;
    int n_launches;
} LaunchPlan;

/* Concrete geometry of one launch under one config. */
typedef struct LaunchGeometry {
    int64_t grid[3], block[3], smem;
} LaunchGeometry;

/* Parses launch.json text for problem p.  `filename` labels errors. */
int launch_parse(const char *text, const char *filename, const Problem *p, LaunchPlan **out, Error *e);
int launch_load(const char *path, const Problem *p, LaunchPlan **out, Error *e);
void launch_free(LaunchPlan *lp);

/* Evaluates launch k under config c and checks it against the sm_90 limits
 * (threads per block, block and grid dimensions, shared memory). */
int launch_geometry(const LaunchPlan *lp, int k, const Problem *p, const ProblemConfig *c, LaunchGeometry *g,
                    Error *e);

/* Elements of scratch buffer s under config c. */
int launch_scratch_count(const LaunchPlan *lp, int s, const Problem *p, const ProblemConfig *c, int64_t *n,
                         Error *e);

#endif
