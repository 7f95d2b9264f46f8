/* torch_ref.h — PyTorch reference programs, run by harness/torch_runner.py.
 *
 * A TorchRunner is one long-lived Python child (importing torch costs about
 * a second, so it serves many requests), started under the same sandbox and
 * limits as C references (sandbox.h: private cwd, no network, no core dumps,
 * RLIMIT_AS/FSIZE, process group killed at a deadline).  It speaks the binary
 * protocol of docs/TORCH_RUNNER.md (version TORCH_PROTOCOL_VERSION) over two
 * pipes; what programs print goes to its stderr, of which the last lines are
 * kept for error messages.  A request that exceeds its deadline, or a runner
 * that dies, kills the runner; the next request starts a fresh one.
 *
 * Every failure returns -1 with an Error of one line that names the program
 * file ("tests/data/torch/bad/forward_raises.py: forward raised ValueError:
 * ... (line 5)").  *fault (where asked for) tells the program's fault (its
 * error reply, a deadline) from the harness's (no torch interpreter, a
 * protocol error): ingest stores the first as a rejection, never the second.
 *
 * The interpreter: $CUDAPERF_PYTHON if set; else `python3` on PATH when it
 * imports torch; else /usr/bin/python3 when it does.  The runner's source is
 * compiled into the binary ($CUDAPERF_TORCH_RUNNER names a file to run
 * instead, for development). */
#ifndef CUDAPERF_TORCH_REF_H
#define CUDAPERF_TORCH_REF_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "common/error.h"
#include "common/problem.h"
#include "common/strbuf.h"

#define TORCH_PROTOCOL_VERSION 1
#define TORCH_MAX_DIMS 8

typedef struct TorchRunner TorchRunner;

typedef struct TorchRunnerOptions {
    const char *python;     /* NULL: torch_ref_find_python() */
    double deadline_s;      /* per request (0: 60 s); `time` requests get 10x */
    size_t memory_bytes;    /* RLIMIT_AS on top of what is mapped (0: 8 GiB); not applied with cuda */
    int cuda;               /* the runner may use the GPU: no address-space limit (CUDA reserves
                               far more virtual memory than it uses) */
    int threads;            /* torch's intra-op threads (0: torch's default, one per core) */
} TorchRunnerOptions;

TorchRunnerOptions torch_runner_default_options(void);

/* Finds an interpreter that imports torch (rules above) into buf.  -1 with
 * "no Python interpreter with torch: ..." when there is none. */
int torch_ref_find_python(char *buf, size_t len, Error *e);

/* A runner handle; the process starts on the first request (or here when
 * `start` is set, to fail early).  Free with torch_runner_free. */
int torch_runner_new(const TorchRunnerOptions *o, int start, TorchRunner **out, Error *e);
void torch_runner_free(TorchRunner *r);

/* What the runner reported in its hello: "1.13.0a0", whether it sees a GPU. */
const char *torch_runner_torch_version(TorchRunner *r);
int torch_runner_has_cuda(TorchRunner *r);
/* Why the runner's torch sees no GPU, in torch's words ("" when it does). */
const char *torch_runner_cuda_note(TorchRunner *r);
/* Restarts so far (after a crash or a deadline). */
int torch_runner_restarts(const TorchRunner *r);

/* One tensor: name, dtype, shape; data (from malloc, owned by the struct
 * holding it) only where a request returns bytes. */
typedef struct TorchTensor {
    char *name;           /* "out", "out1", "w.linear.weight", "input0" */
    DType dtype;
    int ndim;
    int64_t shape[TORCH_MAX_DIMS];
    int64_t count;        /* elements */
    void *data;           /* count * dtype_size(dtype) bytes, or NULL */
    /* describe only, for get_inputs()/get_init_inputs() items that are not tensors */
    int is_value;         /* 1: a Python number, `value` holds it */
    double value;
} TorchTensor;

/* The program: a file path (labels errors; read by the runner when source
 * is NULL), its source text (NULL: the runner reads the path), the entry
 * class ("Model" when NULL), and integer values for module-level constants
 * (meta.json params). */
typedef struct TorchProgram {
    const char *path;
    const char *source;
    const char *entry;
    const char *const *param_names;
    const int64_t *param_values;
    int n_params;
} TorchProgram;

/* describe: get_init_inputs(), get_inputs() and one forward on the CPU
 * under `seed`, with the program's own constants unless overridden. */
typedef struct TorchDescription {
    int n_constants;
    char **const_names;       /* module-level integer constants, in definition order */
    int64_t *const_values;
    int n_inputs;             /* get_inputs() in order: tensors, or numbers (is_value) */
    TorchTensor *inputs;
    int n_init;               /* get_init_inputs(): numbers (is_value) or tensors; others have dtype invalid */
    TorchTensor *init;
    int n_outputs;            /* forward's outputs ("out" or "out0..N") */
    TorchTensor *outputs;
    int n_state;              /* state_dict entries as "w.<key>" */
    TorchTensor *state;
} TorchDescription;

int torch_ref_describe(TorchRunner *r, const TorchProgram *prog, uint64_t seed, TorchDescription *out, int *fault,
                       Error *e);
void torch_description_release(TorchDescription *d);

/* run: the model built under `seed` on the CPU, moved to `device` ("cpu" or
 * "cuda"), forward under no_grad on inputs[0..n_inputs) (tensors with data,
 * in forward's order).  `n_outputs` > 0: fewer or more outputs is an error.
 * On success *outs and *state hold the outputs and every state_dict entry
 * ("w.<key>"), with data. */
typedef struct TorchRunResult {
    int n_outputs;
    TorchTensor *outputs;
    int n_state;
    TorchTensor *state;
    double seconds;           /* the runner's own time for the request */
} TorchRunResult;

int torch_ref_run(TorchRunner *r, const TorchProgram *prog, uint64_t seed, const char *device,
                  const TorchTensor *inputs, int n_inputs, int n_outputs, TorchRunResult *out, int *fault, Error *e);
void torch_run_result_release(TorchRunResult *res);

/* time (GPU only): torch eager, and torch.compile where it works, under the
 * harness's timing protocol (non-default stream, L2 flushed by a memset of
 * >= 128 MiB outside the timed window, a spin kernel ahead of the start
 * event, warm-up of >= 3 runs and 10 ms, CUDA events, ABBA order, samples
 * until the median's 95% interval is within target_spread after at least
 * min_samples, or the budget). */
typedef struct TorchTimingParams {
    int flush_mib, min_samples, max_samples, warmup_runs;
    double target_spread, budget_s, min_time_s, warmup_ms;
    int compile;              /* also time torch.compile */
} TorchTimingParams;

TorchTimingParams torch_timing_default_params(void);

typedef struct TorchTiming {
    double median_ms, iqr_ms, min_ms, spread; /* NaN when not timed */
    int count;
} TorchTiming;

typedef struct TorchTimeResult {
    TorchTiming eager;
    TorchTiming compiled;     /* count 0 when compile_error is set */
    char compile_error[512];  /* why torch.compile was not timed ("" when it was) */
    double compile_max_abs_diff; /* compiled vs eager outputs */
    char device[128];
    char note[512];
} TorchTimeResult;

int torch_ref_time(TorchRunner *r, const TorchProgram *prog, uint64_t seed, const TorchTensor *inputs, int n_inputs,
                   const TorchTimingParams *tp, TorchTimeResult *out, int *fault, Error *e);

/* ---- problems of the catalog (lang "torch") ---- */

/* Runs problem p (source = program.py's text, label = its path for errors)
 * on config c with `seed`: the forward inputs are p's role-"in" buffers
 * whose fill is not "model", taken from bufs[i] (RefBuffers-style arrays,
 * one per argument, count[i] elements); the outputs are written into the
 * "out" buffers and the state_dict into the "w.<key>" buffers, each checked
 * against meta.json (count, dtype: a mismatch is an error naming both).
 * State entries meta.json does not list are ignored. */
int torch_ref_problem_run(TorchRunner *r, const Problem *p, const char *source, const char *label,
                          const ProblemConfig *c, uint64_t seed, const char *device, void *const *bufs,
                          const int64_t *count, int *fault, Error *e);

/* time for a problem (GPU only): torch eager (and torch.compile when
 * tp->compile) on the forward inputs held in bufs (meta.json order, as for
 * torch_ref_problem_run), the model built under `seed`. */
int torch_ref_problem_time(TorchRunner *r, const Problem *p, const char *source, const char *label,
                           const ProblemConfig *c, uint64_t seed, void *const *bufs, const int64_t *count,
                           const TorchTimingParams *tp, TorchTimeResult *out, int *fault, Error *e);

/* ---- the frame (docs/TORCH_RUNNER.md), exposed for tests ---- */

/* One decoded frame: the JSON header (malloc) and views of the buffers
 * into the bytes it was decoded from. */
typedef struct TorchFrame {
    char *header;
    int n;
    const void **bufs;
    uint64_t *lens;
} TorchFrame;

/* Appends a frame (magic, version, header, buffers) to out. */
void torch_frame_encode(StrBuf *out, const char *header, const void *const *bufs, const uint64_t *lens, int n);
/* 0 with *f and *used (bytes consumed) when data holds a whole frame, 1
 * when more bytes are needed, -1 with e when it is not a frame of ours. */
int torch_frame_decode(const void *data, size_t len, size_t *used, TorchFrame *f, Error *e);
void torch_frame_release(TorchFrame *f);

#endif
