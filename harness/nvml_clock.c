#include "nvml_clock.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "common/strbuf.h"

/* The few NVML declarations we need (the toolkit ships no nvml.h here). */
typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1 };

struct NvmlClock {
    void *lib;
    nvmlDevice_t dev;
    unsigned max_mhz;
    nvmlReturn_t (*get_clock)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*shutdown)(void);
};

NvmlClock *nvml_clock_open(const char *pci_bus_id, Error *e)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        ERR(e, "NVML unavailable (%s): SM clocks are not checked", dlerror());
        return NULL;
    }
    nvmlReturn_t (*init)(void) = (nvmlReturn_t(*)(void))dlsym(lib, "nvmlInit_v2");
    nvmlReturn_t (*by_bus)(const char *, nvmlDevice_t *) =
        (nvmlReturn_t(*)(const char *, nvmlDevice_t *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvmlReturn_t (*get_max)(nvmlDevice_t, int, unsigned *) =
        (nvmlReturn_t(*)(nvmlDevice_t, int, unsigned *))dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    NvmlClock *c = xcalloc(1, sizeof *c);
    c->lib = lib;
    c->get_clock = (nvmlReturn_t(*)(nvmlDevice_t, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    c->shutdown = (nvmlReturn_t(*)(void))dlsym(lib, "nvmlShutdown");
    int r;
    if (!init || !by_bus || !get_max || !c->get_clock || !c->shutdown) {
        ERR(e, "NVML lacks an entry point: SM clocks are not checked");
    } else if ((r = init()) != NVML_SUCCESS) {
        ERR(e, "nvmlInit failed (%d): SM clocks are not checked", r);
    } else if ((r = by_bus(pci_bus_id, &c->dev)) != NVML_SUCCESS || (r = get_max(c->dev, NVML_CLOCK_SM, &c->max_mhz)) != NVML_SUCCESS ||
               c->max_mhz == 0) {
        c->shutdown();
        ERR(e, "NVML cannot read the SM clock of %s (%d): SM clocks are not checked", pci_bus_id, r);
    } else {
        return c;
    }
    dlclose(lib);
    free(c);
    return NULL;
}

void nvml_clock_close(NvmlClock *c)
{
    if (!c)
        return;
    c->shutdown();
    dlclose(c->lib);
    free(c);
}

int nvml_clock_sm(NvmlClock *c, unsigned *mhz, Error *e)
{
    int r = c->get_clock(c->dev, NVML_CLOCK_SM, mhz);
    return r == NVML_SUCCESS ? 0 : ERR(e, "nvmlDeviceGetClockInfo failed (%d)", r);
}

unsigned nvml_clock_sm_max(const NvmlClock *c)
{
    return c->max_mhz;
}
