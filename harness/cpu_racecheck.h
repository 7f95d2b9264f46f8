/* cpu_racecheck.h — shared-memory hazards on the CPU backend, the way
 * compute-sanitizer's racecheck reports them on the GPU.
 *
 * A kernel that leaves out a __syncthreads() often still computes the right
 * numbers: thread 0 reads the block's sum from shared memory while the next
 * reduction already writes its partials there, and only thread 0's copy is
 * used.  The GPU's racecheck fails such a kernel (an error-level hazard);
 * the CPU backend's fibers, running each thread to its next barrier in
 * turn, produce correct output and passed it.  With --racecheck the
 * candidate is compiled with the compiler's thread-sanitizer
 * instrumentation (every load and store calls a hook, cpu_prelude.hpp) and
 * each access to the block's shared memory comes here.
 *
 * What counts, as racecheck's errors: a read of a byte that a thread of
 * another warp wrote in the same barrier interval (read-after-write), or a
 * write of a byte that a thread of another warp read in it
 * (write-after-read).  Hazards inside one warp are warnings to racecheck
 * (warp-synchronous code) and are not reported; nor are two writes (racecheck
 * tells same-value writes apart, which a hook called before the store
 * cannot); atomics are not hazards.  Per byte of shared memory the last
 * writer and the last readers of two warps are kept with the barrier
 * interval they ran in; intervals are numbered from one counter per slot,
 * so nothing needs clearing between blocks or launches.
 *
 * Shared memory is the block's dynamic window and the kernel module's
 * thread-local block (static __shared__ arrays are `static thread_local`),
 * found through dl_iterate_phdr from an address inside it; the prelude's
 * own thread-local (the running thread's pointer, at that address) is left
 * out.  One CpuRace per slot (OS thread); nothing here is thread-safe. */
#ifndef CUDAPERF_CPU_RACECHECK_H
#define CUDAPERF_CPU_RACECHECK_H

#include <stddef.h>
#include <stdint.h>

typedef struct CpuRace CpuRace;

typedef enum CpuHazardKind { CPU_HAZARD_RAW = 1, CPU_HAZARD_WAR } CpuHazardKind;

/* One hazard: thread `tid` (linear index in its block) accessed byte
 * `offset` of the dynamic (is_static 0) or static shared memory, which
 * thread `other` of another warp had written (RAW) or read (WAR) in the same
 * barrier interval. */
typedef struct CpuHazard {
    CpuHazardKind kind;
    int is_static;
    uint64_t offset;
    uint32_t tid, other;
} CpuHazard;

CpuRace *cpu_race_new(void);
void cpu_race_free(CpuRace *r);

/* A launch starts on this slot: its dynamic shared memory is
 * [dyn, dyn + dyn_len); tls_anchor (called on the slot's OS thread, at the
 * first access) gives an address in the kernel module's thread-local block
 * there: the prelude's thread pointer, which is itself left out. */
void cpu_race_launch(CpuRace *r, const void *dyn, size_t dyn_len, void *(*tls_anchor)(void));
/* A block starts, and a block barrier releases: a new barrier interval. */
void cpu_race_interval(CpuRace *r);
/* Thread tid's access of size bytes at addr (write: a store).  Returns 1
 * with *h set when it is a hazard (the first byte that is), else 0;
 * addresses outside shared memory return 0 at once. */
int cpu_race_access(CpuRace *r, const void *addr, uint32_t size, int write, uint32_t tid, CpuHazard *h);

#endif
