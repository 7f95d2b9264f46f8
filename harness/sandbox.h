/* sandbox.h — run untrusted code in a disposable child process.
 *
 * Reference programs, contributed code and (later) translated kernels run
 * here: in a child with limits on CPU time, address space, file size and
 * captured output, a wall-clock deadline, no network (a new network
 * namespace where permitted, and a seccomp filter that refuses socket()
 * everywhere), a private temporary directory as its working directory and
 * no core dumps.  A crash, hang or limit breach ends only the child; the
 * caller gets a SandboxResult describing how it ended. */
#ifndef CUDAPERF_SANDBOX_H
#define CUDAPERF_SANDBOX_H

#include <stddef.h>

#include "common/error.h"

typedef struct SandboxLimits {
    double wall_seconds;   /* deadline, then SIGKILL to the child's group */
    double cpu_seconds;    /* RLIMIT_CPU */
    size_t memory_bytes;   /* address space the child may add (RLIMIT_AS) */
    size_t output_bytes;   /* captured stdout+stderr, and RLIMIT_FSIZE */
    int allow_unix_sockets; /* 1: socket(AF_UNIX, ...) is permitted (the CUDA driver fails to
                               initialise without it: error 304, measured on the H200); every
                               other socket family stays refused, and the network namespace
                               has no interfaces anyway */
} SandboxLimits;

/* Defaults for reference programs: 20 s wall, 20 s CPU, 4 GiB, 1 MiB. */
SandboxLimits sandbox_default_limits(void);

typedef struct SandboxResult {
    int exited;          /* 1: exited normally with exit_code */
    int exit_code;
    int signal;          /* terminating signal, 0 if none */
    int timed_out;       /* killed at the wall-clock deadline */
    int output_truncated;
    char *output;        /* stdout+stderr, NUL-terminated, from malloc(); caller frees via release */
    double wall_seconds;
} SandboxResult;

/* Calls fn(arg) in a sandboxed child; fn's return value is the child's exit
 * code.  Memory the caller mapped MAP_SHARED before the call is how results
 * come back.  Returns 0 when the child ran (however it ended) or -1 when it
 * could not be started. */
int sandbox_call(const SandboxLimits *lim, int (*fn)(void *arg), void *arg, SandboxResult *res, Error *e);

/* Executes argv[0] (searched in PATH) in a sandboxed child whose working
 * directory is `workdir` (NULL: a fresh private temporary directory). */
int sandbox_exec(const SandboxLimits *lim, char *const argv[], const char *workdir, SandboxResult *res,
                 Error *e);

/* A sandboxed child that outlives the call: a server such as the torch
 * runner, spoken to over its stdin and stdout.  Descriptors are the
 * parent's ends (close-on-exec); the child leads its own process group. */
typedef struct SandboxChild {
    int pid;
    int to_child;    /* its stdin */
    int from_child;  /* its stdout */
    int err;         /* its stderr */
} SandboxChild;

/* Starts argv[0] (searched in PATH) under lim in `workdir` (the caller's
 * private directory) with the same isolation as sandbox_exec.  Differences:
 * cpu_seconds 0 sets no CPU limit and memory_bytes 0 no address-space
 * limit (a server's CPU time grows with its requests, so its caller bounds
 * each request by a deadline; CUDA reserves far more address space than it
 * uses).  The caller must drain `err`. */
int sandbox_spawn(const SandboxLimits *lim, char *const argv[], const char *workdir, SandboxChild *child, Error *e);

/* SIGKILL to the child's group, reaps it (*status: its wait status, may be
 * NULL) and closes the descriptors; harmless on a child already ended. */
void sandbox_child_kill(SandboxChild *child, int *status);

/* "killed by signal 11 (Segmentation fault)", "timed out after 20.0 s",
 * "exit code 3"; a static buffer per call site is not needed: writes into buf. */
const char *sandbox_describe(const SandboxResult *res, char *buf, size_t len);

/* 1 when the child exited with code 0 within its limits. */
int sandbox_ok(const SandboxResult *res);

void sandbox_result_release(SandboxResult *res);

/* Moves the calling process (and so every later child) into a new, empty
 * network namespace where permitted; children then skip their own.  For
 * worker processes that sandbox many runs. */
void sandbox_isolate_network(void);

/* For a long-lived process that runs untrusted code itself (the CPU
 * worker): a new network namespace where permitted, the socket() filter,
 * no core dumps.  Irrevocable; resource limits stay the caller's to set. */
void sandbox_restrict_self(void);

#endif
