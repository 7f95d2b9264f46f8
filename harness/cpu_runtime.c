#include "cpu_runtime.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "harness/cpu_racecheck.h"

#define ALT_STACK_BYTES (64 * 1024)

typedef enum FiberState { FS_READY, FS_BARRIER, FS_WARP, FS_DONE } FiberState;

/* ---- switching between fibers ----
 * swapcontext saves and restores the signal mask, a system call on each of
 * the two switches per fiber and barrier: a small scan (256 blocks of 256
 * threads, 4 barriers in a loop) made 1.7 million rt_sigprocmask calls, 3.1 s
 * of system time out of 5.4 s (measured).  On x86-64 a switch is done here
 * without the kernel: it keeps what the calling convention says a call
 * preserves (rbx, rbp, r12-r15, the stack pointer, the SSE and x87 control
 * words) and nothing else, since every switch is an ordinary call.  Other
 * machines keep ucontext. */
#if defined(__x86_64__)
typedef struct FiberCtx {
    void *sp; /* the saved registers lie on the fiber's own stack, below sp */
} FiberCtx;

/* Saves the current context into *save and resumes the one whose stack
 * pointer is to (returning, in that context, from its own switch call). */
void cpu_fiber_switch_(void **save, void *to);
__asm__(".text\n"
        ".p2align 4\n"
        ".type cpu_fiber_switch_, @function\n"
        "cpu_fiber_switch_:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size cpu_fiber_switch_, .-cpu_fiber_switch_\n");

static void fiber_switch(FiberCtx *from, FiberCtx *to)
{
    cpu_fiber_switch_(&from->sp, to->sp);
}

/* A context that starts entry (which must never return) on the stack
 * [stack, stack + size): the frame cpu_fiber_switch_ pops, returning into
 * entry as if called (stack pointer 8 past a 16-byte boundary). */
static void fiber_make(FiberCtx *c, char *stack, size_t size, void (*entry)(void))
{
    uint64_t *top = (uint64_t *)(((uintptr_t)stack + size) & ~(uintptr_t)15);
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpucw));
    top[-1] = 0;                   /* entry's return address: none */
    top[-2] = (uint64_t)(uintptr_t)entry;
    for (int i = 3; i <= 8; i++)   /* rbp, rbx, r12-r15 */
        top[-i] = 0;
    top[-9] = (uint64_t)mxcsr | (uint64_t)fpucw << 32;
    c->sp = &top[-9];
}
#else
#include <ucontext.h>

typedef struct FiberCtx {
    ucontext_t uc;
} FiberCtx;

static void fiber_switch(FiberCtx *from, FiberCtx *to)
{
    swapcontext(&from->uc, &to->uc);
}

static void fiber_make(FiberCtx *c, char *stack, size_t size, void (*entry)(void))
{
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = NULL; /* entry never returns */
    makecontext(&c->uc, entry, 0);
}
#endif

typedef struct Slot Slot;

/* One CUDA thread of the running block. */
typedef struct Fiber {
    CpuKThread k;          /* first: the kernel's pointer to its thread is a pointer to the fiber */
    Slot *slot;
    FiberCtx ctx;
    FiberState state;
    int started;
    uint32_t warp, lane;
    int bar_kind, bar_pred, bar_result;
    int wop;
    uint32_t wmask;
    int32_t warg, wwidth;
    uint64_t wval, wres;
} Fiber;

/* One OS thread and what it reuses from block to block. */
struct Slot {
    CpuRuntime *rt;
    pthread_t th;
    int started;
    char *stacks;          /* n_stacks x (guard page + stack), from mmap() */
    size_t stacks_len, stride;
    uint32_t n_stacks;
    Fiber *fibers;         /* from malloc(), CPU_MAX_BLOCK_THREADS of them */
    /* Dynamic shared memory: one mapping, the GPU's most per block in
     * whole pages and then a PROT_NONE page at smem_end; a launch's smem
     * bytes end right there, so an access past them faults, as on the
     * GPU, where the block's shared window ends there too. */
    char *smem_map;        /* from mmap(), smem_map_len bytes; NULL until the first launch */
    size_t smem_map_len;
    char *smem_end;        /* the PROT_NONE page */
    char *smem;            /* this launch's dynamic shared memory: smem_bytes up to smem_end */
    uint32_t smem_bytes;   /* the launch's smem, rounded up to 16 */
    void *alt_stack;       /* from mmap() */
    FiberCtx sched;        /* the scheduler's context while a fiber runs */
    jmp_buf trap_jump;     /* a trap without fibers returns here */
    /* the block being run */
    const CpuLaunch *L;
    int fiber_mode;
    uint32_t n_threads, bar_arrived;
    uint64_t block;        /* its number in the grid, x fastest; bid: its coordinates */
    uint32_t bid[3];
    Fiber *cur;
    int failed;
    char err[768];
    /* --racecheck: the slot's shadow of shared memory (from cpu_race_new(),
     * NULL until a racecheck launch), its hazards since they were last
     * read, and the first of them: of the earliest launch (numbered by
     * CpuRuntime.launches), its lowest block */
    CpuRace *race;
    uint64_t launch, n_races, race_launch, race_block;
    char race_msg[512];
};

struct CpuRuntime {
    int n_slots;
    Slot *slots;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* the launch in flight */
    const CpuLaunch *L;
    uint64_t n_blocks;
    atomic_uint_fast64_t next_block;
    atomic_int stop;
    double deadline;
    int active;            /* slots still running (under mu) */
    int failed, timed_out; /* under mu */
    char err[1024];
    uint64_t launches;     /* launches started: orders the hazards of a RUN's plan */
};

static _Thread_local Slot *t_slot;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *barrier_name(int kind)
{
    switch (kind) {
    case CPU_BAR_COUNT: return "__syncthreads_count";
    case CPU_BAR_AND: return "__syncthreads_and";
    case CPU_BAR_OR: return "__syncthreads_or";
    default: return "__syncthreads";
    }
}

static const char *warp_name(int op)
{
    static const char *const names[CPU_WARP_N_OPS] = {
        "__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
        "__any_sync", "__all_sync", "__match_any_sync", "__match_all_sync", "__reduce_add_sync",
        "__reduce_min_sync", "__reduce_max_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
        "__reduce_or_sync", "__reduce_xor_sync"};
    return op >= 0 && op < CPU_WARP_N_OPS ? names[op] : "?";
}

/* ---- kernel-facing operations (CpuOps) ---- */

/* Ends the block with msg.  In a fiber: back to the scheduler for good; on
 * the slot's own stack: longjmp to the block loop. */
static _Noreturn void fail_thread(Fiber *f, const char *msg)
{
    Slot *s = f->slot;
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->err, sizeof s->err, "%s (block (%u,%u,%u), thread (%u,%u,%u))", msg, s->bid[0], s->bid[1],
                 s->bid[2], f->k.thread_idx[0], f->k.thread_idx[1], f->k.thread_idx[2]);
    }
    f->state = FS_DONE;
    if (s->fiber_mode) {
        fiber_switch(&f->ctx, &s->sched); /* never resumed: it is done */
        abort();
    }
    longjmp(s->trap_jump, 1);
}

static void op_trap(CpuKThread *k, const char *msg)
{
    fail_thread((Fiber *)k, msg && *msg ? msg : "__trap()");
}

static void not_in_fiber(Fiber *f, const char *what)
{
    char msg[160];
    snprintf(msg, sizeof msg, "internal: %s called in a kernel that was run without fibers", what);
    fail_thread(f, msg);
}

static int op_barrier(CpuKThread *k, int kind, int pred)
{
    Fiber *f = (Fiber *)k;
    Slot *s = f->slot;
    if (!s->fiber_mode)
        not_in_fiber(f, barrier_name(kind));
    f->bar_kind = kind;
    f->bar_pred = pred != 0;
    f->state = FS_BARRIER;
    if (++s->bar_arrived == s->n_threads) {
        uint32_t count = 0;
        for (uint32_t i = 0; i < s->n_threads; i++)
            count += (uint32_t)s->fibers[i].bar_pred;
        for (uint32_t i = 0; i < s->n_threads; i++) {
            Fiber *g = &s->fibers[i];
            g->bar_result = g->bar_kind == CPU_BAR_COUNT ? (int)count
                            : g->bar_kind == CPU_BAR_AND ? count == s->n_threads
                            : g->bar_kind == CPU_BAR_OR  ? count > 0
                                                         : 0;
            g->state = FS_READY;
        }
        s->bar_arrived = 0;
        if (s->L->racecheck)
            cpu_race_interval(s->race);
    } else {
        fiber_switch(&f->ctx, &s->sched);
    }
    return f->bar_result;
}

/* Thread i of the running block, as (x,y,z) into buf. */
static const char *thread_name(const Slot *s, uint32_t i, char *buf, size_t len)
{
    const uint32_t *t = s->fibers[i].k.thread_idx;
    snprintf(buf, len, "(%u,%u,%u)", t[0], t[1], t[2]);
    return buf;
}

static void op_smem_access(CpuKThread *k, const void *addr, uint32_t size, int write)
{
    Fiber *f = (Fiber *)k;
    Slot *s = f->slot;
    CpuHazard h;
    if (!s->L->racecheck || !cpu_race_access(s->race, addr, size, write, (uint32_t)(f - s->fibers), &h))
        return;
    /* deterministic whichever slot ran which block: a later launch never
     * replaces an earlier one's (launches only grow) */
    if (s->n_races++ == 0 || (s->launch == s->race_launch && s->block < s->race_block)) {
        char me[48], other[48];
        s->race_launch = s->launch;
        s->race_block = s->block;
        snprintf(s->race_msg, sizeof s->race_msg,
                 "%s: thread %s of block (%u,%u,%u) %s byte %llu of %s shared memory, which thread %s (another "
                 "warp) %s with no __syncthreads() between (kernel %s)",
                 h.kind == CPU_HAZARD_RAW ? "read-after-write hazard" : "write-after-read hazard",
                 thread_name(s, h.tid, me, sizeof me), s->bid[0], s->bid[1], s->bid[2],
                 h.kind == CPU_HAZARD_RAW ? "reads" : "writes", (unsigned long long)h.offset,
                 h.is_static ? "static" : "dynamic", thread_name(s, h.other, other, sizeof other),
                 h.kind == CPU_HAZARD_RAW ? "wrote" : "read", s->L->name);
    }
}

/* Lanes of warp w that exist in this block. */
static uint32_t warp_lanes(const Slot *s, uint32_t w)
{
    uint32_t n = s->n_threads - w * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

static uint32_t active_lanes(const Slot *s, uint32_t w)
{
    uint32_t m = 0, exist = warp_lanes(s, w);
    for (uint32_t l = 0; l < 32; l++)
        if ((exist >> l & 1) && s->fibers[w * 32 + l].state != FS_DONE)
            m |= 1u << l;
    return m;
}

static uint32_t op_activemask(CpuKThread *k)
{
    Fiber *f = (Fiber *)k;
    return active_lanes(f->slot, f->warp);
}

/* The source lane of lane l for a shuffle, or -1 when l keeps its own value. */
static int shfl_source(int op, int l, int32_t arg, int32_t width)
{
    int seg = l & ~(width - 1), pos = l & (width - 1);
    switch (op) {
    case CPU_WARP_SHFL_IDX: return seg + (arg & (width - 1));
    case CPU_WARP_SHFL_UP: return (arg < 0 || pos < arg) ? -1 : l - arg;
    case CPU_WARP_SHFL_DOWN: return (arg < 0 || pos + arg >= width) ? -1 : l + arg;
    default: {
        int src = l ^ (arg & 31);
        /* later segments are out of reach; earlier ones are readable (CUDA's rule) */
        return src >= seg + width ? -1 : src;
    }
    }
}

/* Every lane of eff has arrived: compute each one's result and wake it. */
static void warp_complete(Fiber *base, uint32_t eff, int op)
{
    uint32_t votes = 0;
    uint64_t acc = 0;
    int first = 1;
    for (int l = 0; l < 32; l++) {
        if (!(eff >> l & 1))
            continue;
        uint64_t v = base[l].wval;
        uint32_t u = (uint32_t)v;
        if (v)
            votes |= 1u << l;
        switch (op) {
        case CPU_WARP_REDUCE_ADD: acc = (uint32_t)(acc + u); break;
        case CPU_WARP_REDUCE_MIN: acc = first || (int32_t)u < (int32_t)acc ? u : acc; break;
        case CPU_WARP_REDUCE_MAX: acc = first || (int32_t)u > (int32_t)acc ? u : acc; break;
        case CPU_WARP_REDUCE_UMIN: acc = first || u < acc ? u : acc; break;
        case CPU_WARP_REDUCE_UMAX: acc = first || u > acc ? u : acc; break;
        case CPU_WARP_REDUCE_AND: acc = first ? u : (acc & u); break;
        case CPU_WARP_REDUCE_OR: acc |= u; break;
        case CPU_WARP_REDUCE_XOR: acc ^= u; break;
        default: break;
        }
        first = 0;
    }
    int all_equal = 1;
    for (int l = 0; l < 32; l++)
        if ((eff >> l & 1) && base[l].wval != base[__builtin_ctz(eff)].wval)
            all_equal = 0;
    for (int l = 0; l < 32; l++) {
        if (!(eff >> l & 1))
            continue;
        Fiber *f = &base[l];
        uint64_t r = 0;
        switch (op) {
        case CPU_WARP_SYNC: break;
        case CPU_WARP_SHFL_IDX: case CPU_WARP_SHFL_UP: case CPU_WARP_SHFL_DOWN: case CPU_WARP_SHFL_XOR: {
            int src = shfl_source(op, l, f->warg, f->wwidth);
            r = src >= 0 && src < 32 && (eff >> src & 1) ? base[src].wval : f->wval;
            break;
        }
        case CPU_WARP_BALLOT: r = votes; break;
        case CPU_WARP_ANY: r = votes != 0; break;
        case CPU_WARP_ALL: r = votes == eff; break;
        case CPU_WARP_MATCH_ANY:
            for (int m = 0; m < 32; m++)
                if ((eff >> m & 1) && base[m].wval == f->wval)
                    r |= 1u << m;
            break;
        case CPU_WARP_MATCH_ALL: r = all_equal ? eff : 0; break;
        default: r = acc; break;
        }
        f->wres = r;
        f->state = FS_READY;
    }
}

static uint64_t op_warp(CpuKThread *k, int op, uint32_t mask, uint64_t value, int32_t arg, int32_t width)
{
    Fiber *f = (Fiber *)k;
    Slot *s = f->slot;
    if (op < 0 || op >= CPU_WARP_N_OPS)
        fail_thread(f, "internal: unknown warp operation");
    if (op >= CPU_WARP_SHFL_IDX && op <= CPU_WARP_SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1)))) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: width %d is not a power of 2 in [1, 32]", warp_name(op), width);
        fail_thread(f, msg);
    }
    if (!s->fiber_mode)
        not_in_fiber(f, warp_name(op));
    f->wop = op;
    f->wmask = mask;
    f->wval = value;
    f->warg = arg;
    f->wwidth = width;
    f->state = FS_WARP;
    Fiber *base = &s->fibers[f->warp * 32];
    uint32_t eff = (mask | 1u << f->lane) & warp_lanes(s, f->warp);
    int all = 1;
    for (int l = 0; l < 32 && all; l++)
        if (eff >> l & 1)
            all = base[l].state == FS_WARP && base[l].wop == op && base[l].wmask == mask;
    if (all)
        warp_complete(base, eff, op);
    else
        fiber_switch(&f->ctx, &s->sched);
    return f->wres;
}

static const CpuOps OPS = {CPU_ABI_VERSION, op_barrier, op_warp, op_activemask, op_trap, op_smem_access};

/* ---- running one block ---- */

/* A fiber's entry: the CUDA thread, then back to the scheduler for good. */
static void fiber_main(void)
{
    Slot *s = t_slot;
    Fiber *f = s->cur;
    s->L->fn(&f->k, s->L->args);
    f->state = FS_DONE;
    fiber_switch(&f->ctx, &s->sched);
    abort(); /* a done fiber is never resumed */
}

static int ensure_stacks(Slot *s, uint32_t n, char *err, size_t errlen)
{
    if (s->n_stacks >= n)
        return 0;
    if (s->stacks)
        munmap(s->stacks, s->stacks_len);
    s->stacks = NULL;
    s->n_stacks = 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    s->stride = page + CPU_FIBER_STACK_BYTES;
    size_t len = s->stride * n;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %u fiber stacks: %s", n, strerror(errno));
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        mprotect((char *)m + (size_t)i * s->stride, page, PROT_NONE); /* stacks grow down into it */
    s->stacks = m;
    s->stacks_len = len;
    s->n_stacks = n;
    return 0;
}

/* The message of a block in which no fiber can run. */
static void describe_deadlock(Slot *s)
{
    uint32_t n_bar = 0, n_warp = 0, n_done = 0;
    Fiber *first_bar = NULL, *first_warp = NULL;
    for (uint32_t i = 0; i < s->n_threads; i++) {
        Fiber *f = &s->fibers[i];
        if (f->state == FS_BARRIER) {
            n_bar++;
            if (!first_bar)
                first_bar = f;
        } else if (f->state == FS_WARP) {
            n_warp++;
            if (!first_warp)
                first_warp = f;
        } else if (f->state == FS_DONE) {
            n_done++;
        }
    }
    s->failed = 1;
    if (first_bar) {
        int n = snprintf(s->err, sizeof s->err, "barrier divergence: %s reached by %u of %u threads of block (%u,%u,%u)",
                         barrier_name(first_bar->bar_kind), n_bar, s->n_threads, s->bid[0], s->bid[1], s->bid[2]);
        if (n_done && n > 0 && (size_t)n < sizeof s->err)
            n += snprintf(s->err + n, sizeof s->err - (size_t)n, "; %u exited without reaching it", n_done);
        if (n_warp && n > 0 && (size_t)n < sizeof s->err)
            snprintf(s->err + n, sizeof s->err - (size_t)n, "; %u wait at a warp operation (first: %s)", n_warp,
                     warp_name(first_warp->wop));
        return;
    }
    Fiber *f = first_warp;
    uint32_t arrived = 0, exited = 0;
    Fiber *base = &s->fibers[f->warp * 32];
    uint32_t eff = (f->wmask | 1u << f->lane) & warp_lanes(s, f->warp);
    for (int l = 0; l < 32; l++) {
        if (!(eff >> l & 1))
            continue;
        if (base[l].state == FS_WARP && base[l].wop == f->wop && base[l].wmask == f->wmask)
            arrived |= 1u << l;
        else if (base[l].state == FS_DONE)
            exited |= 1u << l;
    }
    int n_arrived = __builtin_popcount(arrived), n_exited = __builtin_popcount(exited);
    int n_elsewhere = __builtin_popcount(eff) - n_arrived - n_exited;
    int n = snprintf(s->err, sizeof s->err,
                     "warp divergence: %s(mask 0x%08x) in warp %u of block (%u,%u,%u) reached by %d of the %d lanes "
                     "of its mask (lanes 0x%08x)",
                     warp_name(f->wop), f->wmask, f->warp, s->bid[0], s->bid[1], s->bid[2], n_arrived,
                     __builtin_popcount(eff), arrived);
    if (n_exited && n > 0 && (size_t)n < sizeof s->err)
        n += snprintf(s->err + n, sizeof s->err - (size_t)n, "; %d exited without reaching it", n_exited);
    if (n_elsewhere && n > 0 && (size_t)n < sizeof s->err)
        snprintf(s->err + n, sizeof s->err - (size_t)n, "; %d wait at another barrier or warp operation", n_elsewhere);
}

static void init_threads(Slot *s, const CpuLaunch *L)
{
    uint32_t bx = L->block[0], by = L->block[1];
    for (uint32_t i = 0; i < s->n_threads; i++) {
        Fiber *f = &s->fibers[i];
        f->k.thread_idx[0] = i % bx;
        f->k.thread_idx[1] = i / bx % by;
        f->k.thread_idx[2] = i / (bx * by);
        memcpy(f->k.block_idx, s->bid, sizeof s->bid);
        memcpy(f->k.block_dim, L->block, sizeof L->block);
        memcpy(f->k.grid_dim, L->grid, sizeof L->grid);
        f->k.dyn_smem = s->smem;
        f->k.ops = &OPS;
        f->slot = s;
        f->state = FS_READY;
        f->started = 0;
        f->warp = i / 32;
        f->lane = i % 32;
        f->wop = -1;
    }
}

/* One thread called on the slot's own stack (no synchronisation in the
 * kernel); -1 when it trapped. */
static int run_direct(Slot *s, Fiber *f)
{
    s->cur = f;
    if (setjmp(s->trap_jump) != 0) {
        s->cur = NULL;
        return -1;
    }
    s->L->fn(&f->k, s->L->args);
    s->cur = NULL;
    return 0;
}

/* The order a scheduling pass runs a block's n threads in: thread
 * (j * stride) mod n j-th, a fixed scramble with a stride coprime with n
 * (1 where no listed prime is).  In thread order, a thread that reads a
 * lower neighbour's shared memory without a barrier always found it
 * already written, so races of that shape never showed (scans, triangular
 * solves: measured against the GPU under racecheck, device run 26); in a
 * scrambled order about half of any race's pairs run the reader first, in
 * either direction.  Deterministic, so verdicts repeat. */
static uint32_t scramble_stride(uint32_t n)
{
    static const uint32_t strides[] = {37, 41, 43, 47, 53, 59, 61, 67};
    for (size_t k = 0; k < sizeof strides / sizeof *strides; k++) {
        uint32_t a = strides[k] % n, b = n;
        while (a) { /* gcd(stride, n) */
            uint32_t r = b % a;
            b = a;
            a = r;
        }
        if (b == 1 && strides[k] % n > 1)
            return strides[k] % n;
    }
    return 1;
}

/* 0, or -1 with s->err. */
static int run_block(Slot *s, uint64_t b)
{
    const CpuLaunch *L = s->L;
    s->block = b;
    s->bid[0] = (uint32_t)(b % L->grid[0]);
    s->bid[1] = (uint32_t)(b / L->grid[0] % L->grid[1]);
    s->bid[2] = (uint32_t)(b / ((uint64_t)L->grid[0] * L->grid[1]));
    s->failed = 0;
    s->bar_arrived = 0;
    if (L->racecheck)
        cpu_race_interval(s->race);
    init_threads(s, L);
    uint64_t stride = scramble_stride(s->n_threads);
    if (!s->fiber_mode) {
        for (uint32_t j = 0; j < s->n_threads; j++)
            if (run_direct(s, &s->fibers[j * stride % s->n_threads]) != 0)
                return -1;
        return 0;
    }
    for (;;) {
        int ran = 0;
        uint32_t done = 0;
        for (uint32_t j = 0; j < s->n_threads; j++) {
            uint32_t i = (uint32_t)(j * stride % s->n_threads);
            Fiber *f = &s->fibers[i];
            if (f->state == FS_READY) {
                if (!f->started) {
                    /* the stack is above its guard page */
                    fiber_make(&f->ctx, s->stacks + (size_t)i * s->stride + (s->stride - CPU_FIBER_STACK_BYTES),
                               CPU_FIBER_STACK_BYTES, fiber_main);
                    f->started = 1;
                }
                s->cur = f;
                fiber_switch(&s->sched, &f->ctx);
                s->cur = NULL;
                ran = 1;
                if (s->failed)
                    return -1;
            }
            if (f->state == FS_DONE)
                done++;
        }
        if (done == s->n_threads)
            return 0;
        if (!ran) {
            describe_deadlock(s);
            return -1;
        }
    }
}

static void *slot_main(void *arg)
{
    Slot *s = arg;
    CpuRuntime *rt = s->rt;
    t_slot = s;
    stack_t ss = {.ss_sp = s->alt_stack, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    for (;;) {
        if (atomic_load(&rt->stop))
            break;
        if (now_s() > rt->deadline) {
            pthread_mutex_lock(&rt->mu);
            rt->timed_out = 1;
            pthread_mutex_unlock(&rt->mu);
            atomic_store(&rt->stop, 1);
            break;
        }
        uint64_t b = atomic_fetch_add(&rt->next_block, 1);
        if (b >= rt->n_blocks)
            break;
        if (run_block(s, b) != 0) {
            pthread_mutex_lock(&rt->mu);
            if (!rt->failed) {
                rt->failed = 1;
                snprintf(rt->err, sizeof rt->err, "%s", s->err);
            }
            pthread_mutex_unlock(&rt->mu);
            atomic_store(&rt->stop, 1);
            break;
        }
    }
    pthread_mutex_lock(&rt->mu);
    rt->active--;
    pthread_cond_broadcast(&rt->cv);
    pthread_mutex_unlock(&rt->mu);
    return NULL;
}

/* ---- the runtime ---- */

int cpu_runtime_new(int n_slots, CpuRuntime **out, Error *e)
{
    *out = NULL;
    if (n_slots < 1)
        n_slots = 1;
    CpuRuntime *rt = xcalloc(1, sizeof *rt);
    rt->n_slots = n_slots;
    rt->slots = xcalloc((size_t)n_slots, sizeof *rt->slots);
    pthread_mutex_init(&rt->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&rt->cv, &ca);
    pthread_condattr_destroy(&ca);
    for (int i = 0; i < n_slots; i++) {
        Slot *s = &rt->slots[i];
        s->rt = rt;
        s->fibers = xcalloc(CPU_MAX_BLOCK_THREADS, sizeof *s->fibers);
        s->alt_stack = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (s->alt_stack == MAP_FAILED) {
            s->alt_stack = NULL;
            cpu_runtime_free(rt);
            return ERR(e, "cannot map a signal stack: %s", strerror(errno));
        }
    }
    *out = rt;
    return 0;
}

/* Maps s's shared memory, its last page PROT_NONE (see Slot). */
static int map_shared_memory(Slot *s, char *err, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), usable = (CPU_MAX_SMEM_BYTES + page - 1) / page * page;
    void *m = mmap(NULL, usable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        snprintf(err, len, "cannot map shared memory: %s", strerror(errno));
        return -1;
    }
    if (mprotect((char *)m + usable, page, PROT_NONE) != 0) {
        snprintf(err, len, "cannot protect the page after shared memory: %s", strerror(errno));
        munmap(m, usable + page);
        return -1;
    }
    s->smem_map = m;
    s->smem_map_len = usable + page;
    s->smem_end = s->smem_map + usable;
    return 0;
}

void cpu_runtime_free(CpuRuntime *rt)
{
    if (!rt)
        return;
    for (int i = 0; i < rt->n_slots; i++) {
        Slot *s = &rt->slots[i];
        if (s->stacks)
            munmap(s->stacks, s->stacks_len);
        if (s->smem_map)
            munmap(s->smem_map, s->smem_map_len);
        if (s->alt_stack)
            munmap(s->alt_stack, ALT_STACK_BYTES);
        free(s->fibers);
        cpu_race_free(s->race);
    }
    pthread_mutex_destroy(&rt->mu);
    pthread_cond_destroy(&rt->cv);
    free(rt->slots);
    free(rt);
}

static int check_geometry(const CpuLaunch *L, Error *e)
{
    const uint32_t *g = L->grid, *b = L->block;
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2])
        return ERR(e, "grid (%u,%u,%u) / block (%u,%u,%u) has a zero dimension (CUDA_ERROR_INVALID_VALUE on a GPU)",
                   g[0], g[1], g[2], b[0], b[1], b[2]);
    if (threads > CPU_MAX_BLOCK_THREADS || b[0] > 1024 || b[1] > 1024 || b[2] > CPU_MAX_BLOCK_Z)
        return ERR(e,
                   "block (%u,%u,%u) exceeds the GPU's limits (at most %d threads, z at most %d; "
                   "CUDA_ERROR_INVALID_VALUE on a GPU)",
                   b[0], b[1], b[2], CPU_MAX_BLOCK_THREADS, CPU_MAX_BLOCK_Z);
    if (g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535)
        return ERR(e, "grid (%u,%u,%u) exceeds the GPU's limits (x < 2^31, y and z <= 65535)", g[0], g[1], g[2]);
    if (L->smem > CPU_MAX_SMEM_BYTES)
        return ERR(e, "%u bytes of dynamic shared memory exceed the GPU's %d per block", L->smem, CPU_MAX_SMEM_BYTES);
    return 0;
}

int cpu_runtime_launch(CpuRuntime *rt, const CpuLaunch *L, double deadline, Error *e)
{
    if (check_geometry(L, e) != 0)
        return -1;
    uint32_t n_threads = L->block[0] * L->block[1] * L->block[2];
    rt->n_blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    int n = rt->n_slots;
    if ((uint64_t)n > rt->n_blocks)
        n = (int)rt->n_blocks;
    char err[256];
    rt->launches++;
    for (int i = 0; i < n; i++) {
        Slot *s = &rt->slots[i];
        s->launch = rt->launches;
        if (L->use_fibers && ensure_stacks(s, n_threads, err, sizeof err) != 0)
            return ERR(e, "%s", err);
        if (!s->smem_map && map_shared_memory(s, err, sizeof err) != 0)
            return ERR(e, "%s", err);
        s->smem_bytes = (L->smem + 15u) & ~15u;
        s->smem = s->smem_end - s->smem_bytes;
        s->L = L;
        s->fiber_mode = L->use_fibers;
        s->n_threads = n_threads;
        if (L->racecheck) {
            if (!s->race)
                s->race = cpu_race_new();
            cpu_race_launch(s->race, s->smem, s->smem_bytes, L->tls_anchor);
        }
    }
    rt->L = L;
    rt->deadline = deadline;
    atomic_store(&rt->next_block, 0);
    atomic_store(&rt->stop, 0);
    rt->failed = rt->timed_out = 0;
    rt->err[0] = '\0';
    rt->active = 0;
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&rt->mu);
        rt->active++;
        pthread_mutex_unlock(&rt->mu);
        int r = pthread_create(&rt->slots[i].th, NULL, slot_main, &rt->slots[i]);
        if (r != 0) {
            pthread_mutex_lock(&rt->mu);
            rt->active--;
            pthread_mutex_unlock(&rt->mu);
            atomic_store(&rt->stop, 1);
            ERR(e, "cannot start a thread: %s", strerror(r));
            n = i;
            break;
        }
        rt->slots[i].started = 1;
    }
    pthread_mutex_lock(&rt->mu);
    int late = 0;
    while (rt->active > 0 && !late) {
        struct timespec ts;
        double left = deadline - now_s();
        if (left < 0)
            left = 0;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += (time_t)left;
        ts.tv_nsec += (long)((left - (double)(time_t)left) * 1e9);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        if (pthread_cond_timedwait(&rt->cv, &rt->mu, &ts) == ETIMEDOUT && rt->active > 0)
            late = 1;
    }
    int failed = rt->failed, timed_out = rt->timed_out || late;
    pthread_mutex_unlock(&rt->mu);
    if (late) {
        /* a slot may be inside a block that never ends: leave it, the
         * process is about to be replaced */
        atomic_store(&rt->stop, 1);
        return 1;
    }
    for (int i = 0; i < n; i++)
        if (rt->slots[i].started) {
            pthread_join(rt->slots[i].th, NULL);
            rt->slots[i].started = 0;
        }
    if (failed)
        return ERR(e, "%s", rt->err);
    if (timed_out)
        return 1;
    return n == 0 && rt->n_blocks ? -1 : 0;
}

uint64_t cpu_runtime_races(CpuRuntime *rt, char *msg, size_t len)
{
    uint64_t n = 0;
    const Slot *first = NULL;
    msg[0] = '\0';
    for (int i = 0; i < rt->n_slots; i++) {
        Slot *s = &rt->slots[i];
        if (s->n_races && (!first || s->race_launch < first->race_launch ||
                           (s->race_launch == first->race_launch && s->race_block < first->race_block))) {
            first = s;
            snprintf(msg, len, "%s", s->race_msg);
        }
        n += s->n_races;
        s->n_races = 0;
    }
    return n;
}

void cpu_runtime_describe_crash(const void *addr, char *buf, size_t len, int *stack_overflow)
{
    Slot *s = t_slot;
    *stack_overflow = 0;
    buf[0] = '\0';
    if (!s || !s->cur)
        return;
    const Fiber *f = s->cur;
    if (s->stacks && (const char *)addr >= s->stacks && (const char *)addr < s->stacks + s->stacks_len) {
        size_t page = s->stride - CPU_FIBER_STACK_BYTES;
        *stack_overflow = (size_t)((const char *)addr - s->stacks) % s->stride < page;
    }
    char smem[160] = "";
    const char *a = addr;
    if (s->smem_map && a >= s->smem_end && a < s->smem_map + s->smem_map_len)
        snprintf(smem, sizeof smem,
                 ": shared memory, byte %ld past the end of the block's %u bytes of dynamic shared memory",
                 (long)(a - s->smem_end), s->smem_bytes);
    snprintf(buf, len, "%s in block (%u,%u,%u), thread (%u,%u,%u) of kernel %s", smem, s->bid[0], s->bid[1],
             s->bid[2], f->k.thread_idx[0], f->k.thread_idx[1], f->k.thread_idx[2], s->L ? s->L->name : "?");
}

void cpu_runtime_alt_stack(void)
{
    void *m = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return;
    stack_t ss = {.ss_sp = m, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
    sigaltstack(&ss, NULL);
}
