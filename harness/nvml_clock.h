/* nvml_clock.h — the GPU's SM clock through NVML, loaded at run time.
 *
 * The timing loop reads the SM clock after every sample and discards
 * samples taken while the clock was throttled (power or thermal capping)
 * below a fraction of its maximum.  NVML ships with the driver
 * (libnvidia-ml.so.1); where it is missing the check is off and the run
 * says so, it never fails because of it. */
#ifndef CUDAPERF_NVML_CLOCK_H
#define CUDAPERF_NVML_CLOCK_H

#include "common/error.h"

typedef struct NvmlClock NvmlClock;

/* Opens NVML for the device with this PCI bus id ("0000:3B:00.0", from
 * cuDeviceGetPCIBusId).  Returns NULL with e when unavailable. */
NvmlClock *nvml_clock_open(const char *pci_bus_id, Error *e);
void nvml_clock_close(NvmlClock *c);
/* Current and maximum SM clock in MHz; -1 with e on failure. */
int nvml_clock_sm(NvmlClock *c, unsigned *mhz, Error *e);
unsigned nvml_clock_sm_max(const NvmlClock *c);

#endif
