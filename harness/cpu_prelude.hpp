// cpu_prelude.hpp — what a CUDA kernel needs, for the host C++ compiler.
//
// Part of CudaPerf's CPU backend (harness/cpu_compile.c embeds this text and
// includes it before kernel.cu; harness/cpu_runtime.c runs the result).  The
// builtins read the running CUDA thread through __cp_self, a thread-local
// pointer the generated entry sets; every operation that may switch fibers
// (barriers, warp operations) restores it afterwards.  The layouts of
// __cp_thread and __cp_ops are an ABI shared with cpu_runtime.h.
#pragma GCC system_header
#ifndef CUDAPERF_CPU_PRELUDE
#define CUDAPERF_CPU_PRELUDE

#include <cstddef>
// C++17's <cmath> brings the special functions (std::beta, std::expint, ...:
// bits/specfun.h), whose inline wrappers have their templates instantiated
// at the end of every translation unit, precompiled header or not: 60 ms of
// a kernel's 230 ms compile (measured).  No kernel can call them (host
// functions to NVRTC), so that header counts as read; what it included
// besides (std::min, std::max, ...: bits/stl_algobase.h) stays.
#ifdef __GLIBCXX__
#define _GLIBCXX_BITS_SPECFUN_H 1
#include <bits/stl_algobase.h>
#endif
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <cfloat>
#include <cmath>
#include <math.h>
#include <ctime>
#include <utility>
#include <type_traits>
#include <limits>

#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 900
#define __NVCC__ 1
#define CUDAPERF_CPU_BACKEND 1

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
#define __inline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cudart_builtin__
#define CUDART_CB
// Per block: a block runs entirely on one OS thread and no other block runs
// there meanwhile, so thread-local storage is the block's shared memory.
#define __shared__ static thread_local

// ---- vector types ----
#define __CP_VEC(T, N, A1, A2, A4)                                                                                     \
    struct __attribute__((aligned(A1))) N##1 { T x; };                                                                 \
    struct __attribute__((aligned(A2))) N##2 { T x, y; };                                                              \
    struct N##3 { T x, y, z; };                                                                                        \
    struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                                                        \
    static inline N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }                                                 \
    static inline N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }                                  \
    static inline N##3 make_##N##3(T x, T y, T z) { N##3 r; r.x = x; r.y = y; r.z = z; return r; }                     \
    static inline N##4 make_##N##4(T x, T y, T z, T w) { N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
__CP_VEC(signed char, char, 1, 2, 4)
__CP_VEC(unsigned char, uchar, 1, 2, 4)
__CP_VEC(short, short, 2, 4, 8)
__CP_VEC(unsigned short, ushort, 2, 4, 8)
__CP_VEC(int, int, 4, 8, 16)
__CP_VEC(unsigned int, uint, 4, 8, 16)
__CP_VEC(long, long, 8, 16, 16)
__CP_VEC(unsigned long, ulong, 8, 16, 16)
__CP_VEC(long long, longlong, 8, 16, 16)
__CP_VEC(unsigned long long, ulonglong, 8, 16, 16)
__CP_VEC(float, float, 4, 8, 16)
__CP_VEC(double, double, 8, 16, 16)
#undef __CP_VEC

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;
#define cudaSuccess 0

// ---- the running thread (ABI: cpu_runtime.h CpuKThread / CpuOps) ----
struct __cp_thread;
struct __cp_ops {
    uint32_t abi;
    int (*barrier)(__cp_thread *t, int kind, int pred);
    uint64_t (*warp)(__cp_thread *t, int op, uint32_t mask, uint64_t value, int32_t arg, int32_t width);
    uint32_t (*activemask)(__cp_thread *t);
    void (*trap)(__cp_thread *t, const char *msg);
    // --racecheck: one load (write 0) or store (write 1) of size bytes at
    // addr; the runtime keeps those in shared memory (cpu_racecheck.h)
    void (*smem_access)(__cp_thread *t, const void *addr, uint32_t size, int write);
};
struct __cp_thread {
    const uint3 threadIdx;
    const uint3 blockIdx;
    const uint3 blockDim;
    const uint3 gridDim;
    void *dyn_smem;
    const __cp_ops *ops;
};
#define CUDAPERF_CPU_ABI 2
static thread_local __cp_thread *__cp_self;
// An address in this module's thread-local block on the calling OS thread:
// where static __shared__ arrays live (cpu_racecheck.h finds the block).
extern "C" __attribute__((visibility("default"))) void *cudaperf_cpu_tls_anchor(void) { return &__cp_self; }

#ifdef CUDAPERF_CPU_RACECHECK
// --racecheck: the kernel is compiled with -fsanitize=thread, which makes
// every load and store call __tsan_read<N> / __tsan_write<N> first (the
// compiler's thread-sanitizer ABI).  No sanitizer library is linked: these
// hooks are it, and pass each access to the runtime, which looks only at
// shared memory.  They are not instrumented themselves, so their own
// accesses, and the atomics below, are plain.
#define __CP_HOOK extern "C" __attribute__((no_sanitize_thread, visibility("hidden")))
__attribute__((no_sanitize_thread)) static inline void __cp_race_access(const void *p, unsigned long n, int write)
{
    __cp_thread *me = __cp_self;
    if (me && n)
        me->ops->smem_access(me, p, (uint32_t)(n > 0xffffffffu ? 0xffffffffu : n), write);
}
extern "C" __attribute__((visibility("default"))) int cudaperf_cpu_racecheck(void) { return 1; }
__CP_HOOK void __tsan_init(void) {}
__CP_HOOK void __tsan_func_entry(void *) {}
__CP_HOOK void __tsan_func_exit(void) {}
__CP_HOOK void __tsan_vptr_read(void *) {}
__CP_HOOK void __tsan_vptr_update(void *, void *) {}
__CP_HOOK void __tsan_read_range(void *p, unsigned long n) { __cp_race_access(p, n, 0); }
__CP_HOOK void __tsan_write_range(void *p, unsigned long n) { __cp_race_access(p, n, 1); }
#define __CP_RW_HOOKS(N)                                                                                               \
    __CP_HOOK void __tsan_read##N(void *p) { __cp_race_access(p, N, 0); }                                              \
    __CP_HOOK void __tsan_write##N(void *p) { __cp_race_access(p, N, 1); }                                             \
    __CP_HOOK void __tsan_unaligned_read##N(void *p) { __cp_race_access(p, N, 0); }                                    \
    __CP_HOOK void __tsan_unaligned_write##N(void *p) { __cp_race_access(p, N, 1); }                                   \
    __CP_HOOK void __tsan_volatile_read##N(void *p) { __cp_race_access(p, N, 0); }                                     \
    __CP_HOOK void __tsan_volatile_write##N(void *p) { __cp_race_access(p, N, 1); }
__CP_RW_HOOKS(1)
__CP_RW_HOOKS(2)
__CP_RW_HOOKS(4)
__CP_RW_HOOKS(8)
__CP_RW_HOOKS(16)
#undef __CP_RW_HOOKS
// Atomics are no hazards (racecheck's rule too): done, not reported.  The
// memory order is always the strongest (mo is not a constant here).
#define __CP_ATOMIC_HOOKS(N, T)                                                                                        \
    __CP_HOOK T __tsan_atomic##N##_load(const volatile T *a, int) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); }     \
    __CP_HOOK void __tsan_atomic##N##_store(volatile T *a, T v, int) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); }     \
    __CP_HOOK T __tsan_atomic##N##_exchange(volatile T *a, T v, int)                                                   \
    {                                                                                                                  \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                            \
    }                                                                                                                  \
    __CP_HOOK T __tsan_atomic##N##_fetch_add(volatile T *a, T v, int) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
    __CP_HOOK T __tsan_atomic##N##_fetch_sub(volatile T *a, T v, int) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
    __CP_HOOK T __tsan_atomic##N##_fetch_and(volatile T *a, T v, int) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
    __CP_HOOK T __tsan_atomic##N##_fetch_or(volatile T *a, T v, int) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }   \
    __CP_HOOK T __tsan_atomic##N##_fetch_xor(volatile T *a, T v, int) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
    __CP_HOOK T __tsan_atomic##N##_fetch_nand(volatile T *a, T v, int)                                                 \
    {                                                                                                                  \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                                            \
    }                                                                                                                  \
    __CP_HOOK int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int, int)                       \
    {                                                                                                                  \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                        \
    }                                                                                                                  \
    __CP_HOOK int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int, int)                         \
    {                                                                                                                  \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                         \
    }                                                                                                                  \
    __CP_HOOK T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int, int)                             \
    {                                                                                                                  \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                              \
        return c;                                                                                                      \
    }
__CP_ATOMIC_HOOKS(8, int8_t)
__CP_ATOMIC_HOOKS(16, int16_t)
__CP_ATOMIC_HOOKS(32, int32_t)
__CP_ATOMIC_HOOKS(64, int64_t)
#undef __CP_ATOMIC_HOOKS
__CP_HOOK void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__CP_HOOK void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
#undef __CP_HOOK
#endif

#define threadIdx (__cp_self->threadIdx)
#define blockIdx (__cp_self->blockIdx)
#define blockDim (__cp_self->blockDim)
#define gridDim (__cp_self->gridDim)
static constexpr int warpSize = 32;

static inline void *__cp_dyn_smem() { return __cp_self->dyn_smem; }

[[noreturn]] static inline void __cp_trap(const char *msg)
{
    __cp_self->ops->trap(__cp_self, msg);
    __builtin_unreachable();
}
static inline void __trap() { __cp_trap("__trap() called"); }
static inline void __brkpt() { __cp_trap("__brkpt() called"); }
static inline void __cp_assert_fail(const char *expr, const char *file, int line)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s:%d: assertion '%s' failed", file, line, expr);
    __cp_trap(msg);
}
#undef assert
#define assert(e) ((e) ? (void)0 : __cp_assert_fail(#e, __FILE__, __LINE__))

// ---- barriers and warp operations: each may switch fibers ----
static inline int __cp_barrier(int kind, int pred)
{
    __cp_thread *me = __cp_self;
    int r = me->ops->barrier(me, kind, pred);
    __cp_self = me;
    return r;
}
static inline void __syncthreads() { __cp_barrier(0, 0); }
static inline int __syncthreads_count(int pred) { return __cp_barrier(1, pred); }
static inline int __syncthreads_and(int pred) { return __cp_barrier(2, pred); }
static inline int __syncthreads_or(int pred) { return __cp_barrier(3, pred); }

static inline uint64_t __cp_warp(int op, unsigned mask, uint64_t v, int arg, int width)
{
    __cp_thread *me = __cp_self;
    uint64_t r = me->ops->warp(me, op, mask, v, arg, width);
    __cp_self = me;
    return r;
}
template <class T> static inline uint64_t __cp_bits(const T &v)
{
    static_assert(sizeof(T) <= 8, "warp operations move at most 8 bytes");
    uint64_t u = 0;
    memcpy(&u, &v, sizeof v);
    return u;
}
template <class T> static inline T __cp_from_bits(uint64_t u)
{
    T v;
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline void __syncwarp(unsigned mask = 0xffffffffu) { __cp_warp(0, mask, 0, 0, 32); }
template <class T> static inline T __shfl_sync(unsigned mask, T var, int src, int width = 32)
{
    return __cp_from_bits<T>(__cp_warp(1, mask, __cp_bits(var), src, width));
}
template <class T> static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    return __cp_from_bits<T>(__cp_warp(2, mask, __cp_bits(var), (int)delta, width));
}
template <class T> static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    return __cp_from_bits<T>(__cp_warp(3, mask, __cp_bits(var), (int)delta, width));
}
template <class T> static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32)
{
    return __cp_from_bits<T>(__cp_warp(4, mask, __cp_bits(var), lane_mask, width));
}
static inline unsigned __ballot_sync(unsigned mask, int pred) { return (unsigned)__cp_warp(5, mask, pred != 0, 0, 32); }
static inline int __any_sync(unsigned mask, int pred) { return (int)__cp_warp(6, mask, pred != 0, 0, 32); }
static inline int __all_sync(unsigned mask, int pred) { return (int)__cp_warp(7, mask, pred != 0, 0, 32); }
static inline int __uni_sync(unsigned mask, int pred)
{
    unsigned b = __ballot_sync(mask, pred);
    return b == 0 || b == (mask & __cp_self->ops->activemask(__cp_self));
}
template <class T> static inline unsigned __match_any_sync(unsigned mask, T value)
{
    return (unsigned)__cp_warp(8, mask, __cp_bits(value), 0, 32);
}
template <class T> static inline unsigned __match_all_sync(unsigned mask, T value, int *pred)
{
    unsigned r = (unsigned)__cp_warp(9, mask, __cp_bits(value), 0, 32);
    *pred = r != 0;
    return r;
}
static inline unsigned __reduce_add_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(10, mask, v, 0, 32); }
static inline int __reduce_add_sync(unsigned mask, int v) { return (int)(unsigned)__cp_warp(10, mask, (unsigned)v, 0, 32); }
static inline int __reduce_min_sync(unsigned mask, int v) { return (int)(unsigned)__cp_warp(11, mask, (unsigned)v, 0, 32); }
static inline int __reduce_max_sync(unsigned mask, int v) { return (int)(unsigned)__cp_warp(12, mask, (unsigned)v, 0, 32); }
static inline unsigned __reduce_min_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(13, mask, v, 0, 32); }
static inline unsigned __reduce_max_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(14, mask, v, 0, 32); }
static inline unsigned __reduce_and_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(15, mask, v, 0, 32); }
static inline unsigned __reduce_or_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(16, mask, v, 0, 32); }
static inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) { return (unsigned)__cp_warp(17, mask, v, 0, 32); }
static inline unsigned __activemask() { return __cp_self->ops->activemask(__cp_self); }

// ---- fences, clocks ----
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline long long clock64()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
static inline void __nanosleep(unsigned) {}

// ---- atomics: blocks run in parallel on several OS threads ----
#define __CP_MO __ATOMIC_SEQ_CST
// The body of an atomic operation without an instruction of its own: a
// compare-and-swap loop on the bits of *p (U: the unsigned integer of T's
// size), the new value being expr of the old one, o; returns o.  A macro, not
// a template taking a lambda: templates the prelude's own functions call are
// instantiated at the end of every translation unit, through the precompiled
// header too (20 ms of each compile, measured); so are conversions and bit
// casts below spelled out per type.
#define __CP_CAS_LOOP(T, U, p, expr)                                                                                   \
    static_assert(sizeof(T) == sizeof(U), "atomic size");                                                              \
    U *__u = reinterpret_cast<U *>(p);                                                                                 \
    U __old = __atomic_load_n(__u, __ATOMIC_RELAXED), __next;                                                          \
    T o, __n;                                                                                                          \
    do {                                                                                                               \
        memcpy(&o, &__old, sizeof o);                                                                                  \
        __n = (expr);                                                                                                  \
        memcpy(&__next, &__n, sizeof __n);                                                                             \
    } while (!__atomic_compare_exchange_n(__u, &__old, __next, true, __CP_MO, __ATOMIC_RELAXED));                      \
    return o
#define __CP_ATOMIC_INT(T, U)                                                                                          \
    static inline T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __CP_MO); }                                 \
    static inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __CP_MO); }                                 \
    static inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __CP_MO); }                               \
    static inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __CP_MO); }                                 \
    static inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __CP_MO); }                                   \
    static inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __CP_MO); }                                 \
    static inline T atomicMin(T *p, T v) { __CP_CAS_LOOP(T, U, p, v < o ? v : o); }                                   \
    static inline T atomicMax(T *p, T v) { __CP_CAS_LOOP(T, U, p, v > o ? v : o); }                                   \
    static inline T atomicCAS(T *p, T cmp, T v)                                                                        \
    {                                                                                                                  \
        __atomic_compare_exchange_n(p, &cmp, v, false, __CP_MO, __CP_MO);                                              \
        return cmp;                                                                                                    \
    }
__CP_ATOMIC_INT(int, uint32_t)
__CP_ATOMIC_INT(unsigned int, uint32_t)
__CP_ATOMIC_INT(unsigned long long, uint64_t)
#undef __CP_ATOMIC_INT
static inline long long atomicMin(long long *p, long long v) { __CP_CAS_LOOP(long long, uint64_t, p, v < o ? v : o); }
static inline long long atomicMax(long long *p, long long v) { __CP_CAS_LOOP(long long, uint64_t, p, v > o ? v : o); }
static inline unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(p, &cmp, v, false, __CP_MO, __CP_MO);
    return cmp;
}
static inline float atomicAdd(float *p, float v) { __CP_CAS_LOOP(float, uint32_t, p, o + v); }
static inline double atomicAdd(double *p, double v) { __CP_CAS_LOOP(double, uint64_t, p, o + v); }
static inline float atomicExch(float *p, float v) { __CP_CAS_LOOP(float, uint32_t, p, v); }
static inline unsigned atomicInc(unsigned *p, unsigned m) { __CP_CAS_LOOP(unsigned, uint32_t, p, o >= m ? 0u : o + 1); }
static inline unsigned atomicDec(unsigned *p, unsigned m) { __CP_CAS_LOOP(unsigned, uint32_t, p, (o == 0 || o > m) ? m : o - 1); }
#define __CP_SCOPED(name)                                                                                              \
    template <class... A> static inline auto name##_block(A... a) -> decltype(name(a...)) { return name(a...); }       \
    template <class... A> static inline auto name##_system(A... a) -> decltype(name(a...)) { return name(a...); }
__CP_SCOPED(atomicAdd) __CP_SCOPED(atomicSub) __CP_SCOPED(atomicExch) __CP_SCOPED(atomicMin)
__CP_SCOPED(atomicMax) __CP_SCOPED(atomicInc) __CP_SCOPED(atomicDec) __CP_SCOPED(atomicCAS)
__CP_SCOPED(atomicAnd) __CP_SCOPED(atomicOr) __CP_SCOPED(atomicXor)
#undef __CP_SCOPED

// ---- loads and stores with cache hints: plain accesses here ----
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *p; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

// ---- min / max: CUDA's overloads follow the usual arithmetic conversions ----
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>::type>
static inline typename std::common_type<A, B>::type min(A a, B b)
{
    typedef typename std::common_type<A, B>::type C;
    return (C)b < (C)a ? (C)b : (C)a;
}
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>::type>
static inline typename std::common_type<A, B>::type max(A a, B b)
{
    typedef typename std::common_type<A, B>::type C;
    return (C)a < (C)b ? (C)b : (C)a;
}

// ---- float intrinsics (exact versions: the fast GPU ones are within their documented error of these) ----
// (names later C libraries may declare are macros onto our own)
#define rsqrtf __cp_rsqrtf
#define rsqrt __cp_rsqrt
#define rcbrtf __cp_rcbrtf
#define rcbrt __cp_rcbrt
#define sinpif __cp_sinpif
#define cospif __cp_cospif
#define sinpi __cp_sinpi
#define cospi __cp_cospi
#define sincospif __cp_sincospif
#define normcdff __cp_normcdff
#define normcdf __cp_normcdf
#define erfinvf __cp_erfinvf
#define erfinv __cp_erfinv
#define erfcinvf __cp_erfcinvf
#define erfcinv __cp_erfcinv

static inline float __cp__expf(float x) { return expf(x); }
static inline float __cp__exp10f(float x) { return exp10f(x); }
static inline float __cp__logf(float x) { return logf(x); }
static inline float __cp__log2f(float x) { return log2f(x); }
static inline float __cp__log10f(float x) { return log10f(x); }
static inline float __cp__sinf(float x) { return sinf(x); }
static inline float __cp__cosf(float x) { return cosf(x); }
static inline float __cp__tanf(float x) { return tanf(x); }
static inline void __cp__sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static inline float __cp__powf(float x, float y) { return powf(x, y); }
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline float __cp_rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double __cp_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float __cp_rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double __cp_rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline double __drcp_rn(double x) { return 1.0 / x; }
static inline double __dsqrt_rn(double x) { return sqrt(x); }
#define __CP_RND(op, name, T)                                                                                          \
    static inline T name##_rn(T a, T b) { return a op b; }                                                             \
    static inline T name##_rz(T a, T b) { return a op b; }                                                             \
    static inline T name##_ru(T a, T b) { return a op b; }                                                             \
    static inline T name##_rd(T a, T b) { return a op b; }
__CP_RND(+, __fadd, float) __CP_RND(-, __fsub, float) __CP_RND(*, __fmul, float) __CP_RND(/, __fdiv, float)
__CP_RND(+, __dadd, double) __CP_RND(-, __dsub, double) __CP_RND(*, __dmul, double) __CP_RND(/, __ddiv, double)
#undef __CP_RND
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmaf_rz(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float __cp_sinpif(float x) { return sinf((float)M_PI * x); }
static inline float __cp_cospif(float x) { return cosf((float)M_PI * x); }
static inline double __cp_sinpi(double x) { return sin(M_PI * x); }
static inline double __cp_cospi(double x) { return cos(M_PI * x); }
static inline void __cp_sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static inline float __cp_normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
static inline double __cp_normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
static inline double __cp_erfinv(double y)
{
    if (y <= -1.0) return y == -1.0 ? -INFINITY : NAN;
    if (y >= 1.0) return y == 1.0 ? INFINITY : NAN;
    double w = -log((1.0 - y) * (1.0 + y)), x; // Giles' approximation, then Newton steps on erf
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08; x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w; x = 0.246640727 + x * w;
        x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3.0;
        x = -0.000200214257; x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w; x = 1.00167406 + x * w;
        x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 2; i++)
        x -= (erf(x) - y) / (2.0 / sqrt(M_PI) * exp(-x * x));
    return x;
}
static inline float __cp_erfinvf(float y) { return (float)erfinv(y); }
static inline double __cp_erfcinv(double y) { return erfinv(1.0 - y); }
static inline float __cp_erfcinvf(float y) { return (float)erfinv(1.0 - (double)y); }

// glibc declares these names itself
#define __expf __cp__expf
#define __exp10f __cp__exp10f
#define __logf __cp__logf
#define __log2f __cp__log2f
#define __log10f __cp__log10f
#define __sinf __cp__sinf
#define __cosf __cp__cosf
#define __tanf __cp__tanf
#define __sincosf __cp__sincosf
#define __powf __cp__powf

// ---- conversions: the GPU saturates out-of-range values and maps NaN to 0 ----
#define __CP_TO_INT(to, I, LO, HI)                                                                                     \
    static inline I __cp_to_##to(double r)                                                                             \
    {                                                                                                                  \
        if (r != r) return 0;                                                                                          \
        if (r <= (double)(LO)) return LO;                                                                              \
        if (r >= (double)(HI)) return HI;                                                                              \
        return (I)r;                                                                                                   \
    }
__CP_TO_INT(int, int, INT_MIN, INT_MAX) __CP_TO_INT(uint, unsigned, 0u, UINT_MAX)
__CP_TO_INT(ll, long long, LLONG_MIN, LLONG_MAX) __CP_TO_INT(ull, unsigned long long, 0ull, ULLONG_MAX)
#undef __CP_TO_INT
#define __CP_CVT(from, F, to, I)                                                                                       \
    static inline I __##from##2##to##_rn(F x) { return __cp_to_##to(nearbyint((double)x)); }                          \
    static inline I __##from##2##to##_rz(F x) { return __cp_to_##to(trunc((double)x)); }                              \
    static inline I __##from##2##to##_ru(F x) { return __cp_to_##to(ceil((double)x)); }                               \
    static inline I __##from##2##to##_rd(F x) { return __cp_to_##to(floor((double)x)); }
__CP_CVT(float, float, int, int) __CP_CVT(float, float, uint, unsigned)
__CP_CVT(float, float, ll, long long) __CP_CVT(float, float, ull, unsigned long long)
__CP_CVT(double, double, int, int) __CP_CVT(double, double, uint, unsigned)
__CP_CVT(double, double, ll, long long) __CP_CVT(double, double, ull, unsigned long long)
#undef __CP_CVT
#define __CP_TOF(from, I)                                                                                              \
    static inline float __##from##2float_rn(I x) { return (float)x; }                                                  \
    static inline float __##from##2float_rz(I x) { return (float)x; }                                                  \
    static inline float __##from##2float_ru(I x) { return (float)x; }                                                  \
    static inline float __##from##2float_rd(I x) { return (float)x; }                                                  \
    static inline double __##from##2double_rn(I x) { return (double)x; }
__CP_TOF(int, int) __CP_TOF(uint, unsigned) __CP_TOF(ll, long long) __CP_TOF(ull, unsigned long long)
#undef __CP_TOF
static inline float __double2float_rn(double x) { return (float)x; }
static inline float __double2float_rz(double x) { return (float)x; }
static inline float __double2float_ru(double x) { return (float)x; }
static inline float __double2float_rd(double x) { return (float)x; }
#define __CP_BITCAST(name, To, From)                                                                                   \
    static inline To name(From f)                                                                                      \
    {                                                                                                                  \
        static_assert(sizeof(To) == sizeof(From), "bit cast");                                                         \
        To t;                                                                                                          \
        memcpy(&t, &f, sizeof t);                                                                                      \
        return t;                                                                                                      \
    }
__CP_BITCAST(__int_as_float, float, int) __CP_BITCAST(__float_as_int, int, float)
__CP_BITCAST(__uint_as_float, float, unsigned) __CP_BITCAST(__float_as_uint, unsigned, float)
__CP_BITCAST(__longlong_as_double, double, long long) __CP_BITCAST(__double_as_longlong, long long, double)
#undef __CP_BITCAST
static inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
static inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}

// ---- integer intrinsics ----
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (s & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (s > 32 ? 32 : s)) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (s & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (s > 32 ? 32 : s));
}
static inline int __mul24(int x, int y) { return (int)((long long)((x << 8) >> 8) * ((y << 8) >> 8)); }
static inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
static inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
static inline unsigned __sad(int x, int y, unsigned z) { return (unsigned)(x > y ? x - y : y - x) + z; }
static inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
static inline unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }
static inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 4; i++)
        c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
    return c;
}
static inline unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    for (int i = 0; i < 4; i++)
        c += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
    return c;
}

// ---- half and bfloat16: storage types, arithmetic through float ----
static inline unsigned short __cp_f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a >= 0x7f800000u)
        return (unsigned short)(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (a >= 0x477ff000u) // 65520 and above round to infinity
        return (unsigned short)(sign | 0x7c00u);
    if (a < 0x38800000u) { // below 2^-14: a subnormal half (units of 2^-24) or zero
        if (a < 0x33000000u)
            return (unsigned short)sign;
        uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, shift = 126 - e;
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return (unsigned short)(sign | q);
    }
    uint32_t r = a - 0x38000000u, q = r >> 13, rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1)))
        q++;
    return (unsigned short)(sign | q);
}
static inline float __cp_h2f(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else {
            e = 113;
            while (!(m & 0x400u)) {
                m <<= 1;
                e--;
            }
            x = sign | (e << 23) | ((m & 0x3ffu) << 13);
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}
static inline unsigned short __cp_f2bf(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (unsigned short)((x >> 16) | 0x40u);
    return (unsigned short)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
static inline float __cp_bf2f(unsigned short b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

struct __half_raw { unsigned short x; };
struct __nv_bfloat16_raw { unsigned short x; };
#define __CP_HALF(H, S, TOF, FROMF)                                                                                       \
    struct __attribute__((aligned(2))) H {                                                                             \
        unsigned short __x;                                                                                            \
        H() = default;                                                                                                 \
        H(float f) : __x(FROMF(f)) {}                                                                                  \
        H(double f) : __x(FROMF((float)f)) {}                                                                          \
        H(int v) : __x(FROMF((float)v)) {}                                                                             \
        H(unsigned v) : __x(FROMF((float)v)) {}                                                                        \
        H(long long v) : __x(FROMF((float)v)) {}                                                                       \
        H(unsigned long long v) : __x(FROMF((float)v)) {}                                                              \
        H(short v) : __x(FROMF((float)v)) {}                                                                           \
        H(unsigned short v) : __x(FROMF((float)v)) {}                                                                  \
        H(H##_raw r) : __x(r.x) {}                                                                                     \
        operator float() const { return TOF(__x); }                                                                    \
        operator H##_raw() const { return H##_raw{__x}; }                                                              \
    };                                                                                                                 \
    static inline H operator+(H a, H b) { return H((float)a + (float)b); }                                             \
    static inline H operator-(H a, H b) { return H((float)a - (float)b); }                                             \
    static inline H operator*(H a, H b) { return H((float)a * (float)b); }                                             \
    static inline H operator/(H a, H b) { return H((float)a / (float)b); }                                             \
    static inline H operator-(H a) { H r = a; r.__x ^= 0x8000u; return r; }                                           \
    static inline H operator+(H a) { return a; }                                                                       \
    static inline H &operator+=(H &a, H b) { return a = a + b; }                                                      \
    static inline H &operator-=(H &a, H b) { return a = a - b; }                                                      \
    static inline H &operator*=(H &a, H b) { return a = a * b; }                                                      \
    static inline H &operator/=(H &a, H b) { return a = a / b; }                                                      \
    static inline bool operator==(H a, H b) { return (float)a == (float)b; }                                           \
    static inline bool operator!=(H a, H b) { return (float)a != (float)b; }                                           \
    static inline bool operator<(H a, H b) { return (float)a < (float)b; }                                             \
    static inline bool operator>(H a, H b) { return (float)a > (float)b; }                                             \
    static inline bool operator<=(H a, H b) { return (float)a <= (float)b; }                                           \
    static inline bool operator>=(H a, H b) { return (float)a >= (float)b; }                                           \
    static inline H __hadd(H a, H b) { return a + b; }                                                                 \
    static inline H __hsub(H a, H b) { return a - b; }                                                                 \
    static inline H __hmul(H a, H b) { return a * b; }                                                                 \
    static inline H __hdiv(H a, H b) { return a / b; }                                                                 \
    static inline H __hneg(H a) { return -a; }                                                                         \
    static inline H __habs(H a) { H r = a; r.__x &= 0x7fffu; return r; }                                              \
    static inline H __hfma(H a, H b, H c) { return H(fmaf((float)a, (float)b, (float)c)); }                            \
    static inline H __hmax(H a, H b) { return (float)a < (float)b ? b : a; }                                           \
    static inline H __hmin(H a, H b) { return (float)b < (float)a ? b : a; }                                           \
    static inline bool __heq(H a, H b) { return a == b; }                                                              \
    static inline bool __hne(H a, H b) { return a != b; }                                                              \
    static inline bool __hlt(H a, H b) { return a < b; }                                                               \
    static inline bool __hgt(H a, H b) { return a > b; }                                                               \
    static inline bool __hle(H a, H b) { return a <= b; }                                                              \
    static inline bool __hge(H a, H b) { return a >= b; }                                                              \
    static inline bool __hisnan(H a) { return (a.__x & 0x7fffu) > (FROMF(INFINITY) & 0x7fffu); }                      \
    static inline int __hisinf(H a) { return (a.__x & 0x7fffu) == FROMF(INFINITY) ? ((a.__x & 0x8000u) ? -1 : 1) : 0; } \
    static inline H hsqrt(H a) { return H(sqrtf((float)a)); }                                                          \
    static inline H hrsqrt(H a) { return H(1.0f / sqrtf((float)a)); }                                                  \
    static inline H hexp(H a) { return H(expf((float)a)); }                                                            \
    static inline H hlog(H a) { return H(logf((float)a)); }                                                            \
    static inline H hsin(H a) { return H(sinf((float)a)); }                                                            \
    static inline H hcos(H a) { return H(cosf((float)a)); }                                                            \
    static inline H htanh(H a) { return H(tanhf((float)a)); }                                                          \
    static inline H hfloor(H a) { return H(floorf((float)a)); }                                                        \
    static inline H hceil(H a) { return H(ceilf((float)a)); }                                                          \
    static inline H hrcp(H a) { return H(1.0f / (float)a); }                                                           \
    struct __attribute__((aligned(4))) H##2 {                                                                          \
        H x, y;                                                                                                        \
        H##2() = default;                                                                                              \
        H##2(H a, H b) : x(a), y(b) {}                                                                                 \
    };                                                                                                                 \
    static inline H##2 operator+(H##2 a, H##2 b) { return H##2(a.x + b.x, a.y + b.y); }                               \
    static inline H##2 operator-(H##2 a, H##2 b) { return H##2(a.x - b.x, a.y - b.y); }                               \
    static inline H##2 operator*(H##2 a, H##2 b) { return H##2(a.x * b.x, a.y * b.y); }                               \
    static inline H##2 operator/(H##2 a, H##2 b) { return H##2(a.x / b.x, a.y / b.y); }                               \
    static inline H##2 &operator+=(H##2 &a, H##2 b) { return a = a + b; }                                             \
    static inline H##2 &operator*=(H##2 &a, H##2 b) { return a = a * b; }                                             \
    static inline H##2 __hadd2(H##2 a, H##2 b) { return a + b; }                                                       \
    static inline H##2 __hsub2(H##2 a, H##2 b) { return a - b; }                                                       \
    static inline H##2 __hmul2(H##2 a, H##2 b) { return a * b; }                                                       \
    static inline H##2 __h2div(H##2 a, H##2 b) { return a / b; }                                                       \
    static inline H##2 __hfma2(H##2 a, H##2 b, H##2 c) { return H##2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); } \
    static inline H##2 __hneg2(H##2 a) { return H##2(-a.x, -a.y); }                                                   \
    static inline H##2 __habs2(H##2 a) { return H##2(__habs(a.x), __habs(a.y)); }                                      \
    static inline H##2 __hmax2(H##2 a, H##2 b) { return H##2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                   \
    static inline H##2 __hmin2(H##2 a, H##2 b) { return H##2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                   \
    static inline H##2 __halves2##S##2(H a, H b) { return H##2(a, b); }                                                \
    static inline H __low2##S(H##2 a) { return a.x; }                                                                  \
    static inline H __high2##S(H##2 a) { return a.y; }                                                                 \
    static inline float __low2float(H##2 a) { return (float)a.x; }                                                     \
    static inline float __high2float(H##2 a) { return (float)a.y; }                                                    \
    static inline H##2 __lowhigh2highlow(H##2 a) { return H##2(a.y, a.x); }                                            \
    static inline H atomicAdd(H *p, H v) { __CP_CAS_LOOP(H, uint16_t, p, o + v); }                                     \
    static inline H##2 atomicAdd(H##2 *p, H##2 v) { __CP_CAS_LOOP(H##2, uint32_t, p, o + v); }

__CP_HALF(__half, half, __cp_h2f, __cp_f2h)
__CP_HALF(__nv_bfloat16, bfloat16, __cp_bf2f, __cp_f2bf)
#undef __CP_HALF
#undef __CP_CAS_LOOP
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline __half __double2half(double f) { return __half((float)f); }
static inline float __half2float(__half h) { return (float)h; }
static inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
static inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
static inline float2 __half22float2(__half2 h) { return make_float2((float)h.x, (float)h.y); }
static inline __half2 __half2half2(__half h) { return __half2(h, h); }
static inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline short __half_as_short(__half h) { return (short)h.__x; }
static inline __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
static inline __half __short_as_half(short s) { return __half(__half_raw{(unsigned short)s}); }
static inline int __half2int_rn(__half h) { return __float2int_rn((float)h); }
static inline int __half2int_rz(__half h) { return __float2int_rz((float)h); }
static inline __half __int2half_rn(int i) { return __half((float)i); }
static inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
static inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
static inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__nv_bfloat16(f), __nv_bfloat16(f)); }
static inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b)); }
static inline float2 __bfloat1622float2(__nv_bfloat162 h) { return make_float2((float)h.x, (float)h.y); }
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16(__nv_bfloat16_raw{u}); }

// ---- what the generated entries use ----
template <class T> static inline T __cp_arg(void *p)
{
    static_assert(sizeof(T) <= 8, "kernel parameters of more than 8 bytes are not supported by the CPU backend");
    T v;
    memcpy((void *)&v, p, sizeof(T));
    return v;
}
template <class... A, size_t... I>
static inline void __cp_call(void (*f)(A...), void **args, std::index_sequence<I...>)
{
    f(__cp_arg<typename std::decay<A>::type>(args[I])...);
}
template <class... A> static inline void __cp_enter(void (*f)(A...), __cp_thread *self, void **args)
{
    __cp_self = self;
    __cp_call(f, args, std::index_sequence_for<A...>{});
}
template <class T> struct __cp_sig;
template <class... A> struct __cp_sig<void (*)(A...)> {
    // count, then (size, 1 for a pointer) per parameter
    static constexpr unsigned v[1 + 2 * sizeof...(A) + 1] = {
        (unsigned)sizeof...(A), (sizeof(A) + 0)..., (std::is_pointer<A>::value ? 1u : 0u)..., 0u};
};
template <class... A> constexpr unsigned __cp_sig<void (*)(A...)>::v[];

#endif
