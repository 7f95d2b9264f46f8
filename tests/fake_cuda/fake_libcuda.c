/* fake_libcuda.c — a stand-in for libcuda.so.1 so the GPU worker, its
 * protocol and `harness eval` can be tested end to end on machines with no
 * GPU (CI).  Device memory is host memory; the only "kernel" it can run is
 * axpy(const float *x, float *y, float a, int n), executed on the CPU.
 * $FAKE_CUDA_MODE picks a misbehaviour, mirroring the broken kernels of
 * tests/data/kernels: ok, skip_last, writes_input, oob_near (writes y[n]),
 * illegal (the launch fails like an illegal address), hang (never
 * finishes), nodevice (the driver sees no GPU).  With $FAKE_CUDA_HANG_BLOCK
 * = B, hang hangs only launches of B threads per block, so a reference
 * (another block size) runs before its hanging variant in one worker.
 *
 * Where $CUDAPERF_LIBCUPTI names the fake CUPTI (fake_libcupti.c) and the
 * process has loaded it, every launch is reported to it by name, so the
 * timing loop's CUPTI cross-check sees records as on a GPU.
 *
 * Built by the tests with `cc -shared -fPIC`; the worker loads it through
 * $CUDAPERF_LIBCUDA.  Only the entry points cudrv.c resolves exist. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum { OK = 0, NOT_INITIALIZED = 3, NO_DEVICE = 100, NOT_FOUND = 500, NOT_READY = 600, ILLEGAL_ADDRESS = 700 };

static const char *mode(void)
{
    const char *m = getenv("FAKE_CUDA_MODE");
    return m ? m : "ok";
}
static int is(const char *m) { return strcmp(mode(), m) == 0; }

static CUresult sticky = OK; /* like a dead context: every later call fails */

static int hangs_block(unsigned bx)
{
    const char *b = getenv("FAKE_CUDA_HANG_BLOCK");
    return !b || (unsigned)atoi(b) == bx;
}
static int pending_hang;

CUresult cuInit(unsigned f) { (void)f; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = is("nodevice") ? 0 : 1; return OK; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return i == 0 && !is("nodevice") ? OK : NO_DEVICE; }
CUresult cuDeviceGetName(char *s, int len, int d) { (void)d; strncpy(s, "Fake GPU", (size_t)len); return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d)
{
    (void)d;
    *v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 16 ? 132 : 0; /* cc 9.0, 132 SMs */
    return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int d) { (void)d; *b = (size_t)1 << 30; return OK; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)1; return OK; }
CUresult cuCtxSetCurrent(void *c) { (void)c; return OK; }
CUresult cuCtxSynchronize(void) { return sticky; }
static const char *const TIMING_KERNELS[3] = {"cudaperf_spin", "cudaperf_empty", "cudaperf_flush"};

/* Tells the fake CUPTI about a launch, where the process loaded it. */
static void report_launch(void *f)
{
    static void (*record)(const char *, uint64_t);
    if (!record) { /* CUPTI is loaded after the first launches */
        const char *path = getenv("CUDAPERF_LIBCUPTI");
        void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
        if (h)
            record = (void (*)(const char *, uint64_t))dlsym(h, "fake_cupti_kernel");
    }
    uintptr_t id = (uintptr_t)f;
    if (record)
        record(id >= 2 && id <= 4 ? TIMING_KERNELS[id - 2] : "axpy", 1000);
}

CUresult cuModuleLoadData(void **m, const void *img)
{
    /* the timing protocol's spinning kernel comes as PTX text */
    if (strstr((const char *)img, ".entry cudaperf_spin")) {
        *m = (void *)2;
        return OK;
    }
    /* a cubin is an ELF file: refuse anything else, as the driver does */
    if (memcmp(img, "\x7f" "ELF", 4) != 0)
        return 200; /* CUDA_ERROR_INVALID_IMAGE */
    *m = (void *)1;
    return OK;
}
CUresult cuModuleUnload(void *m) { (void)m; return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
    /* the spinning, empty and flush kernels: no-ops here, told apart only
     * for the CUPTI records */
    for (int i = 0; m == (void *)2 && i < 3; i++)
        if (strcmp(name, TIMING_KERNELS[i]) == 0) {
            *f = (void *)(uintptr_t)(2 + i);
            return OK;
        }
    if (strcmp(name, "axpy") != 0)
        return NOT_FOUND;
    *f = (void *)1;
    return OK;
}
CUresult cuFuncGetAttribute(int *v, int a, void *f) { (void)a, (void)f; *v = 0; return OK; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { (void)f, (void)a, (void)v; return OK; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    void *m = malloc(n ? n : 1);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? OK : 2;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { if (sticky) return sticky; memcpy((void *)(uintptr_t)d, s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { if (sticky) return sticky; memcpy(d, (void *)(uintptr_t)s, n); return OK; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return OK; }
CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((unsigned short *)(uintptr_t)d)[i] = v;
    return OK;
}
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((unsigned *)(uintptr_t)d)[i] = v;
    return OK;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *stream, void **params, void **extra)
{
    (void)gy, (void)gz, (void)by, (void)bz, (void)smem, (void)stream, (void)extra;
    if (sticky)
        return sticky;
    report_launch(f);
    if ((uintptr_t)f >= 2)
        return OK;
    float *x = (float *)(uintptr_t)*(CUdeviceptr *)params[0];
    float *y = (float *)(uintptr_t)*(CUdeviceptr *)params[1];
    float a = *(float *)params[2];
    int n = *(int *)params[3];
    if ((long)gx * bx < n)
        return OK; /* too few threads: some elements stay unwritten, as on a GPU */
    int upto = is("skip_last") ? n - 1 : n;
    for (int i = 0; i < upto; i++)
        y[i] = a * x[i] + y[i];
    if (is("writes_input"))
        for (int i = 0; i < n; i++)
            x[i] = 0;
    if (is("oob_near"))
        y[n] = 0; /* lands in the harness's guard zone */
    if (is("illegal"))
        sticky = ILLEGAL_ADDRESS;
    if (is("hang") && hangs_block(bx))
        pending_hang = 1;
    return OK;
}
CUresult cuStreamCreate(void **s, unsigned f) { (void)f; *s = (void *)1; return OK; }
CUresult cuStreamDestroy_v2(void *s) { (void)s; return OK; }
CUresult cuEventCreate(void **e, unsigned f) { (void)f; *e = (void *)1; return OK; }
CUresult cuEventDestroy_v2(void *e) { (void)e; return OK; }
CUresult cuEventRecord(void *e, void *s) { (void)e, (void)s; return sticky; }
CUresult cuEventQuery(void *e) { (void)e; return sticky ? sticky : pending_hang ? NOT_READY : OK; }
CUresult cuEventSynchronize(void *e) { (void)e; return sticky; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { (void)a, (void)b; *ms = 0.001f; return sticky; }
CUresult cuGetErrorName(CUresult r, const char **s)
{
    *s = r == ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" : r == NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_FAKE";
    return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s)
{
    *s = r == ILLEGAL_ADDRESS ? "an illegal memory access was encountered" : "fake error";
    return OK;
}

/* The timing protocol's entry points: host memory is device memory here. */
CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
    (void)flags;
    *p = calloc(1, n ? n : 1);
    return *p ? OK : 2;
}
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned flags)
{
    (void)flags;
    *d = (CUdeviceptr)(uintptr_t)p;
    return OK;
}
CUresult cuMemFreeHost(void *p) { free(p); return OK; }
CUresult cuCtxSetLimit(int limit, size_t v) { (void)limit, (void)v; return OK; }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void *s)
{
    (void)s;
    unsigned *p = (unsigned *)(uintptr_t)d;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return sticky;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s)
{
    (void)s;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return sticky;
}
CUresult cuDeviceGetPCIBusId(char *buf, int len, int dev)
{
    (void)dev;
    snprintf(buf, (size_t)len, "0000:00:00.0");
    return OK;
}
/* sm_90's arithmetic for a kernel of few registers and no shared memory:
 * the warp and block limits only. */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *f, int threads, size_t smem)
{
    (void)f, (void)smem;
    if (threads <= 0 || threads > 1024)
        return 1; /* CUDA_ERROR_INVALID_VALUE */
    int warps = (threads + 31) / 32, by_warps = 64 / warps;
    *blocks = by_warps < 32 ? by_warps : 32;
    return OK;
}
