/* cpu_runtime.h — run CUDA launches on the CPU, threads of a block as fibers.
 *
 * A launch runs block by block; blocks are spread over a few OS threads
 * (one "slot" each), and inside a block every CUDA thread is a fiber with
 * its own small stack (64 KiB, a PROT_NONE guard page below it, reused
 * across blocks).  Fibers run round-robin, each until it finishes or waits:
 * at a block barrier (__syncthreads and friends) until every thread of the
 * block has arrived, at a warp operation (shuffles, votes, __syncwarp) until
 * every lane named in its mask has arrived with the same operation and mask.
 * Code between two barriers therefore runs for every thread before any
 * thread passes the barrier, and a shuffle exchanges values only when all its
 * lanes are there.  When no fiber can run while some wait, the block is
 * deadlocked: the launch fails with "barrier divergence: __syncthreads
 * reached by 16 of 32 threads ..." (or the warp equivalent) instead of
 * hanging.  Kernels whose source uses no synchronisation at all run without
 * fibers, each thread called in turn on the slot's own stack.
 *
 * The compiled kernel (cpu_prelude.hpp) sees only CpuKThread and CpuOps,
 * whose layouts are an ABI shared with the prelude's C++ text: change both
 * together and bump CPU_ABI_VERSION. */
#ifndef CUDAPERF_CPU_RUNTIME_H
#define CUDAPERF_CPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define CPU_ABI_VERSION 2
#define CPU_FIBER_STACK_BYTES (64 * 1024)
/* The GPU's limits, checked the same way here. */
#define CPU_MAX_BLOCK_THREADS 1024
#define CPU_MAX_BLOCK_Z 64
#define CPU_MAX_SMEM_BYTES (227 * 1024)

typedef struct CpuOps CpuOps;

/* What a kernel thread sees of itself (the prelude's __cp_thread). */
typedef struct CpuKThread {
    uint32_t thread_idx[3], block_idx[3], block_dim[3], grid_dim[3];
    void *dyn_smem;          /* the block's dynamic shared memory */
    const CpuOps *ops;
} CpuKThread;

/* Barrier kinds (the value is the prelude's too). */
enum { CPU_BAR_SYNC = 0, CPU_BAR_COUNT, CPU_BAR_AND, CPU_BAR_OR };
/* Warp operations. */
enum {
    CPU_WARP_SYNC = 0, CPU_WARP_SHFL_IDX, CPU_WARP_SHFL_UP, CPU_WARP_SHFL_DOWN, CPU_WARP_SHFL_XOR,
    CPU_WARP_BALLOT, CPU_WARP_ANY, CPU_WARP_ALL, CPU_WARP_MATCH_ANY, CPU_WARP_MATCH_ALL,
    CPU_WARP_REDUCE_ADD, CPU_WARP_REDUCE_MIN, CPU_WARP_REDUCE_MAX, CPU_WARP_REDUCE_UMIN,
    CPU_WARP_REDUCE_UMAX, CPU_WARP_REDUCE_AND, CPU_WARP_REDUCE_OR, CPU_WARP_REDUCE_XOR,
    CPU_WARP_N_OPS
};

struct CpuOps {
    uint32_t abi;            /* CPU_ABI_VERSION */
    /* Block barrier; returns the count / and / or of pred over the block. */
    int (*barrier)(CpuKThread *t, int kind, int pred);
    /* Warp rendezvous: value is this lane's (up to 64 bits), arg the source
     * lane / delta / lane mask, width the shuffle segment.  Returns this
     * lane's result. */
    uint64_t (*warp)(CpuKThread *t, int op, uint32_t mask, uint64_t value, int32_t arg, int32_t width);
    /* Lanes of t's warp that exist and have not exited. */
    uint32_t (*activemask)(CpuKThread *t);
    /* Ends the launch with msg as its error (__trap, a failed assert, a bad
     * shuffle width).  Does not return. */
    void (*trap)(CpuKThread *t, const char *msg);
    /* A load or store of size bytes at addr by a kernel compiled for
     * --racecheck (every one of them: the runtime keeps those that fall in
     * shared memory, cpu_racecheck.h). */
    void (*smem_access)(CpuKThread *t, const void *addr, uint32_t size, int write);
};

/* The per-thread entry the translator generates for each kernel. */
typedef void (*CpuKernelFn)(CpuKThread *self, void **args);

typedef struct CpuLaunch {
    const char *name;        /* for messages */
    CpuKernelFn fn;
    void **args;             /* args[i] points at argument i's bytes */
    uint32_t grid[3], block[3], smem;
    int use_fibers;          /* 0: the source has no synchronisation at all */
    /* --racecheck (the kernel was compiled for it): shared-memory hazards are
     * counted (cpu_runtime_races); tls_anchor is the module's
     * cudaperf_cpu_tls_anchor.  0 / NULL otherwise. */
    int racecheck;
    void *(*tls_anchor)(void);
} CpuLaunch;

typedef struct CpuRuntime CpuRuntime;

/* A runtime of n_slots OS threads (at least 1).  Returns 0 or -1 with e. */
int cpu_runtime_new(int n_slots, CpuRuntime **out, Error *e);
/* Runs one launch to its end.  Returns 0; -1 with e when a block failed
 * (divergence, trap, bad geometry); 1 when the wall-clock deadline
 * (CLOCK_MONOTONIC seconds) passed: slots may still be running a block
 * that never ends, so the runtime (and the process) cannot be reused. */
int cpu_runtime_launch(CpuRuntime *rt, const CpuLaunch *L, double deadline, Error *e);
/* The shared-memory hazards of racecheck launches since the last call (and
 * resets the count): their number, and the first (of the earliest launch,
 * its lowest block) described in msg[0..len) ("" when none). */
uint64_t cpu_runtime_races(CpuRuntime *rt, char *msg, size_t len);
/* Safe only when no launch is in flight. */
void cpu_runtime_free(CpuRuntime *rt);

/* For a fatal-signal handler on the crashing OS thread: " in block (1,0,0),
 * thread (5,0,0) of kernel k" into buf (or "" outside kernel code), and
 * *stack_overflow set when addr lies in a fiber stack's guard page.  Uses
 * only thread-local state and snprintf. */
void cpu_runtime_describe_crash(const void *addr, char *buf, size_t len, int *stack_overflow);
/* Gives the calling OS thread an alternate signal stack (slots get one
 * themselves), so a handler can run after a fiber overflowed its stack. */
void cpu_runtime_alt_stack(void);

#endif
