/* nvrtc.h — compile a candidate kernel.cu to a cubin with NVRTC.
 *
 * A candidate is untrusted source: `extern "C" __global__` functions and no
 * host code.  NVRTC follows `#include "/any/path"` to files on the host and
 * echoes them into its log (measured), so before anything is compiled every
 * #include must be an angle-bracket include of a CUDA header (found under
 * the CUDA include directory) or of a standard header name; quotes, absolute
 * paths, "..", computed includes, #include_next, #import and #embed are
 * refused.  Compilation then runs in a sandboxed child (a compiler crash or
 * a template bomb ends only that child).
 *
 * Cubins are cached in <cache_dir>/<key>.cubin where key = sha256(source,
 * options, NVRTC version, arch): identical requests never compile twice.
 *
 * A request may ask for ptxas's resource report (NVRTC_PTXAS_INFO: the
 * option --ptxas-options=-v, so part of the key): the log then holds
 * "Used N registers" and the stack/spill lines per kernel, which are parsed
 * into NvrtcResult.kernels and cached beside the cubin as <key>.log (a
 * cached cubin without its log is compiled again). */
#ifndef CUDAPERF_NVRTC_H
#define CUDAPERF_NVRTC_H

#include <stddef.h>

#include "common/error.h"
#include "common/hash.h"

/* The CUDA toolkit root used for include paths; $CUDAPERF_CUDA_HOME
 * overrides the default /usr/local/cuda. */
const char *nvrtc_cuda_home(void);

/* Refuses any #include / #include_next / #import / #embed that is not
 * `#include <relative/name>` of a CUDA or standard header, and any
 * __has_include with a quoted name.  Returns 0 or -1 with e naming the line
 * ("kernel.cu:3: #include "x.h": only <...> includes of CUDA headers are allowed"). */
int nvrtc_check_includes(const char *source, Error *e);

/* The same filter with another policy for the names themselves: allowed()
 * gets each well-formed `#include <name>` and returns 0, or -1 with e
 * naming the line (the CPU backend maps CUDA headers onto its prelude). */
typedef int (*NvrtcHeaderCheck)(const char *name, int line, Error *e);
int nvrtc_check_includes_with(const char *source, NvrtcHeaderCheck allowed, Error *e);

/* Checks that arch is "sm_" followed by 2-3 digits and an optional 'a' or
 * 'f' suffix ("sm_90", "sm_90a"), so it can never inject options. */
int nvrtc_check_arch(const char *arch, Error *e);

/* Request flags. */
#define NVRTC_PTXAS_INFO 1u /* ptxas -v: registers, stack, spills, shared memory per kernel */

/* The NVRTC options used for arch (NULL-terminated, static storage until
 * the next call; not thread-safe).  nvrtc_options_for adds those of flags. */
const char *const *nvrtc_options(const char *arch);
const char *const *nvrtc_options_for(const char *arch, unsigned flags);

/* The cache key of (source, options, NVRTC version, arch); flags 0 gives
 * the same key as nvrtc_cache_key, so plain requests keep their cache. */
int nvrtc_cache_key(const char *source, const char *arch, char hex[HASH_HEX_LEN + 1], Error *e);
int nvrtc_cache_key_for(const char *source, const char *arch, unsigned flags, char hex[HASH_HEX_LEN + 1], Error *e);

/* "13.0" — the NVRTC library's version, into buf. */
const char *nvrtc_version_string(char *buf, size_t len);

/* What ptxas reported for one entry function (kernel).  Numbers it did not
 * print are 0 (it omits "N bytes smem" when there is none). */
typedef struct NvrtcKernelInfo {
    char name[128];         /* the kernel's (extern "C": unmangled) name */
    int registers;          /* per thread */
    int barriers;           /* named barriers used (bar.sync ids) */
    long long stack_frame;  /* bytes of local memory per thread for its own frame */
    long long spill_stores; /* bytes per thread */
    long long spill_loads;
    long long static_smem;  /* bytes per block */
    long long cumulative_stack; /* frame plus callees' (non-inlined device functions) */
} NvrtcKernelInfo;

/* Parses ptxas -v lines of an NVRTC log ("Compiling entry function 'k'",
 * "Function properties for k", "N bytes stack frame, N bytes spill
 * stores, N bytes spill loads", "Used N registers, used N barriers, N bytes
 * smem").  Only entry functions are returned (non-inlined device functions
 * have no launch of their own).  *out from malloc() (NULL when none). */
void nvrtc_parse_ptxas_info(const char *log, NvrtcKernelInfo **out, int *n);

typedef struct NvrtcResult {
    void *cubin;        /* from malloc(); NULL when compilation failed */
    size_t cubin_len;
    char *log;          /* full NVRTC log (may be ""), from malloc(); never NULL after a compile */
    int compile_error;  /* 1: the candidate's fault (refused include, NVRTC error); 0: ours */
    int cached;         /* 1: read from the cache, NVRTC not run */
    double seconds;     /* wall time of the compile (0 when cached) */
    char key[HASH_HEX_LEN + 1];
    NvrtcKernelInfo *kernels; /* NVRTC_PTXAS_INFO: per entry function, from malloc(); else NULL */
    int n_kernels;
} NvrtcResult;

/* Compiles source for arch, through the cache in cache_dir (created when
 * missing).  Returns 0 with r->cubin set, or -1 with e: when
 * r->compile_error is set, e says "does not compile: <log head>" and r->log
 * holds the whole log.  Release r with nvrtc_result_release either way. */
int nvrtc_compile(const char *source, const char *arch, const char *cache_dir, NvrtcResult *r, Error *e);
/* The same with request flags (NVRTC_PTXAS_INFO: r->kernels filled). */
int nvrtc_compile_with(const char *source, const char *arch, const char *cache_dir, unsigned flags, NvrtcResult *r,
                       Error *e);
void nvrtc_result_release(NvrtcResult *r);

#endif
