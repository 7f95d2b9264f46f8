#include "cudrv.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Entry points by their exported (versioned) names; the first name found
 * wins, so an older driver without a _v2 symbol still loads. */
typedef struct Sym {
    size_t offset;
    const char *names[3];
    int optional; /* only the timing protocol needs it: NULL when missing */
} Sym;

#define SYM(field, ...) {offsetof(CuDriver, field), {__VA_ARGS__}, 0}
#define OPT_SYM(field, ...) {offsetof(CuDriver, field), {__VA_ARGS__}, 1}

static const Sym SYMS[] = {
    OPT_SYM(mem_host_alloc, "cuMemHostAlloc"),
    OPT_SYM(mem_host_get_device_pointer, "cuMemHostGetDevicePointer_v2"),
    OPT_SYM(mem_free_host, "cuMemFreeHost"),
    OPT_SYM(ctx_set_limit, "cuCtxSetLimit"),
    OPT_SYM(memset_d32_async, "cuMemsetD32Async"),
    OPT_SYM(memcpy_dtod_async, "cuMemcpyDtoDAsync_v2"),
    OPT_SYM(device_get_pci_bus_id, "cuDeviceGetPCIBusId"),
    OPT_SYM(occupancy_max_active_blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
    SYM(init, "cuInit"),
    SYM(driver_get_version, "cuDriverGetVersion"),
    SYM(device_get_count, "cuDeviceGetCount"),
    SYM(device_get, "cuDeviceGet"),
    SYM(device_get_name, "cuDeviceGetName"),
    SYM(device_get_attribute, "cuDeviceGetAttribute"),
    SYM(device_total_mem, "cuDeviceTotalMem_v2"),
    SYM(primary_ctx_retain, "cuDevicePrimaryCtxRetain"),
    SYM(ctx_set_current, "cuCtxSetCurrent"),
    SYM(ctx_synchronize, "cuCtxSynchronize"),
    SYM(module_load_data, "cuModuleLoadData"),
    SYM(module_unload, "cuModuleUnload"),
    SYM(module_get_function, "cuModuleGetFunction"),
    SYM(func_get_attribute, "cuFuncGetAttribute"),
    SYM(func_set_attribute, "cuFuncSetAttribute"),
    SYM(mem_alloc, "cuMemAlloc_v2"),
    SYM(mem_free, "cuMemFree_v2"),
    SYM(memcpy_htod, "cuMemcpyHtoD_v2"),
    SYM(memcpy_dtoh, "cuMemcpyDtoH_v2"),
    SYM(memset_d8, "cuMemsetD8_v2"),
    SYM(memset_d16, "cuMemsetD16_v2"),
    SYM(memset_d32, "cuMemsetD32_v2"),
    SYM(launch_kernel, "cuLaunchKernel"),
    SYM(stream_create, "cuStreamCreate"),
    SYM(stream_destroy, "cuStreamDestroy_v2"),
    SYM(event_create, "cuEventCreate"),
    SYM(event_destroy, "cuEventDestroy_v2"),
    SYM(event_record, "cuEventRecord"),
    SYM(event_query, "cuEventQuery"),
    SYM(event_synchronize, "cuEventSynchronize"),
    SYM(event_elapsed_time, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
    SYM(get_error_string, "cuGetErrorString"),
    SYM(get_error_name, "cuGetErrorName"),
};

int cudrv_load(CuDriver *d, Error *e)
{
    memset(d, 0, sizeof *d);
    const char *name = getenv("CUDAPERF_LIBCUDA");
    if (!name || !*name)
        name = "libcuda.so.1";
    d->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!d->lib)
        return ERR(e, "no CUDA driver: %s", dlerror());
    for (size_t i = 0; i < sizeof SYMS / sizeof *SYMS; i++) {
        void *f = NULL;
        for (int k = 0; k < 3 && SYMS[i].names[k] && !f; k++)
            f = dlsym(d->lib, SYMS[i].names[k]);
        if (!f && SYMS[i].optional)
            continue;
        if (!f) {
            ERR(e, "CUDA driver %s lacks %s (driver too old?)", name, SYMS[i].names[0]);
            cudrv_unload(d);
            return -1;
        }
        /* Object and function pointers have the same representation on
         * every platform dlsym exists on (POSIX requires it). */
        memcpy((char *)d + SYMS[i].offset, &f, sizeof f);
    }
    return 0;
}

void cudrv_unload(CuDriver *d)
{
    if (d->lib)
        dlclose(d->lib);
    memset(d, 0, sizeof *d);
}

int cudrv_error(const CuDriver *d, CUresult r, const char *call, const char *file, int line, Error *e)
{
    const char *name = NULL, *str = NULL;
    if (d->get_error_name)
        d->get_error_name(r, &name);
    if (d->get_error_string)
        d->get_error_string(r, &str);
    return error_set(e, file, line, "%s: %s (%s)", call, name ? name : "CUDA error", str ? str : "no description");
}
