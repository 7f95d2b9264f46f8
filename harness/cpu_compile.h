/* cpu_compile.h — translate a candidate kernel.cu to C++ and build it for
 * the CPU backend.
 *
 * The candidate is compiled by the host C++ compiler ($CXX, default g++,
 * -std=c++17 -O2) against cpu_prelude.hpp, which is compiled into the
 * harness binary (and precompiled once per cache), then linked into a
 * shared object, without libstdc++ when the kernel needs nothing of it.
 * The translation is small and keeps line numbers: a
 * `#line 1 "kernel.cu"` directive, `extern __shared__ T s[];` rewritten to a
 * pointer to the block's dynamic shared memory, and after the candidate one
 * generated entry per `extern "C" __global__` kernel,
 * `cudaperf_cpu_launch_<name>(CpuKThread *, void **args)`, which unpacks
 * each argument from a pointer to its bytes with the kernel's own parameter
 * types (deduced by the compiler, not parsed), plus
 * `cudaperf_cpu_sig_<name>()`: the parameter count, sizes and which are
 * pointers, so the worker can check a launch plan against the kernel.
 *
 * What cannot run on the CPU is refused before compiling, naming the
 * construct and its line: inline PTX (asm), tensor-core operations
 * (nvcuda::wmma), cooperative groups and clusters, textures and surfaces,
 * device-side launches.  Includes follow the NVRTC filter's rules
 * (nvrtc.h); the CUDA headers the prelude covers resolve to empty files,
 * others are refused.  Compilation runs in the sandbox; shared objects are
 * cached in <cache_dir>/<key>.so with key = sha256(translated source,
 * prelude, compiler version, options). */
#ifndef CUDAPERF_CPU_COMPILE_H
#define CUDAPERF_CPU_COMPILE_H

#include <stddef.h>

#include "common/error.h"
#include "common/hash.h"

/* The prelude's text (generated from harness/cpu_prelude.hpp by the Makefile). */
extern const char cpu_prelude_hpp[];

/* Refuses the constructs the CPU backend cannot run and includes it does not
 * provide.  0, or -1 with e: "kernel.cu:7: inline PTX assembly (asm) cannot
 * run on the CPU backend ...". */
int cpu_check_supported(const char *source, Error *e);

/* The C++ translation unit for source (malloc'd into *out); *n_kernels
 * (optional) gets the number of extern "C" kernels found. */
int cpu_translate(const char *source, char **out, int *n_kernels, Error *e);

/* "g++ (Debian 12.2.0-14) 12.2.0": the first line of `$CXX --version`
 * (computed once per process). */
const char *cpu_compiler_version(void);

typedef struct CpuCompileResult {
    void *so;           /* the shared object's bytes, from malloc(); NULL when compilation failed */
    size_t so_len;
    char *log;          /* compiler log (may be ""), from malloc(); never NULL after a compile */
    int compile_error;  /* 1: the candidate's fault (refused construct, compiler error); 0: ours */
    int cached;
    double seconds;     /* wall time of the compile (0 when cached) */
    char key[HASH_HEX_LEN + 1];
} CpuCompileResult;

/* Checks, translates and compiles source through the cache in cache_dir
 * (created when missing); racecheck: with the compiler's thread-sanitizer
 * instrumentation, every load and store reported to the runtime
 * (cpu_racecheck.h; a separate cache entry).  Returns 0 with r->so set, or
 * -1 with e; when r->compile_error is set r->log holds the whole message or
 * compiler log.  Release r with cpu_compile_result_release either way. */
int cpu_compile(const char *source, const char *cache_dir, int racecheck, CpuCompileResult *r, Error *e);
void cpu_compile_result_release(CpuCompileResult *r);

#endif
