/* cudrv.h — the CUDA driver API, loaded at run time.
 *
 * The harness must build and run (CPU work, NVRTC) on machines with no GPU
 * and no driver, so libcuda.so.1 is opened with dlopen() when the GPU worker
 * starts, and the entry points it needs are resolved into one table of
 * function pointers.  Types come from <cuda.h> (header only).  Every call
 * goes through CU_CHECK, which records the call, the driver's error name
 * and string and our file:line. */
#ifndef CUDAPERF_CUDRV_H
#define CUDAPERF_CUDRV_H

#include <cuda.h>
#include <stddef.h>

#include "common/error.h"

typedef struct CuDriver {
    void *lib; /* dlopen handle */
    CUresult (*init)(unsigned int);
    CUresult (*driver_get_version)(int *);
    CUresult (*device_get_count)(int *);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_get_name)(char *, int, CUdevice);
    CUresult (*device_get_attribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*device_total_mem)(size_t *, CUdevice);
    CUresult (*primary_ctx_retain)(CUcontext *, CUdevice);
    CUresult (*ctx_set_current)(CUcontext);
    CUresult (*ctx_synchronize)(void);
    CUresult (*module_load_data)(CUmodule *, const void *);
    CUresult (*module_unload)(CUmodule);
    CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
    CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memcpy_htod)(CUdeviceptr, const void *, size_t);
    CUresult (*memcpy_dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*memset_d16)(CUdeviceptr, unsigned short, size_t);
    CUresult (*memset_d32)(CUdeviceptr, unsigned int, size_t);
    CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
    CUresult (*stream_create)(CUstream *, unsigned int);
    CUresult (*stream_destroy)(CUstream);
    CUresult (*event_create)(CUevent *, unsigned int);
    CUresult (*event_destroy)(CUevent);
    CUresult (*event_record)(CUevent, CUstream);
    CUresult (*event_query)(CUevent);
    CUresult (*event_synchronize)(CUevent);
    CUresult (*event_elapsed_time)(float *, CUevent, CUevent);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*get_error_name)(CUresult, const char **);
    /* optional (NULL when the driver lacks them): the timing protocol */
    CUresult (*mem_host_alloc)(void **, size_t, unsigned int);
    CUresult (*mem_host_get_device_pointer)(CUdeviceptr *, void *, unsigned int);
    CUresult (*mem_free_host)(void *);
    CUresult (*ctx_set_limit)(CUlimit, size_t);
    CUresult (*memset_d32_async)(CUdeviceptr, unsigned int, size_t, CUstream);
    CUresult (*memcpy_dtod_async)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*device_get_pci_bus_id)(char *, int, CUdevice);
    /* optional: the PROFILE request's occupancy check */
    CUresult (*occupancy_max_active_blocks)(int *, CUfunction, int, size_t);
} CuDriver;

/* Opens libcuda.so.1 (or $CUDAPERF_LIBCUDA) and resolves every entry point.
 * Returns -1 with e ("no CUDA driver: libcuda.so.1: cannot open shared
 * object file ...") when the library or a symbol is missing.  Does not call
 * cuInit. */
int cudrv_load(CuDriver *d, Error *e);
void cudrv_unload(CuDriver *d);

/* Formats a failed call into e: "<call>: CUDA_ERROR_X (<string>)". */
int cudrv_error(const CuDriver *d, CUresult r, const char *call, const char *file, int line, Error *e);

/* Checks a driver call; on failure fills e and jumps to done with rc = -1. */
#define CU_CHECK(d, e, call)                                                                                           \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        if (r_ != CUDA_SUCCESS) {                                                                                      \
            cudrv_error((d), r_, #call, __FILE__, __LINE__, (e));                                                      \
            rc = -1;                                                                                                   \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#endif
