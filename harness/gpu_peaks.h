/* gpu_peaks.h — the H200 figures every roofline in the harness uses.
 *
 * One place for the peaks the static report (structure.c) and the measured
 * one (profile_metrics.c) compare against, so their roofline fractions
 * agree.  Bandwidth is the copy bandwidth measured on the H200 machine
 * (docs: ../shared/DESIGN.md, "Facts measured"), not the 4.8 TB/s of the
 * data sheet: no kernel moves data faster than a device-to-device copy,
 * so a streaming kernel at 1.0 is as fast as the memory allows.  FLOP
 * rates are the data sheet's without tensor cores. */
#ifndef CUDAPERF_GPU_PEAKS_H
#define CUDAPERF_GPU_PEAKS_H

#define H200_BANDWIDTH 4.3e12        /* bytes/s, measured device copy */
#define H200_PEAK_FLOPS_F32 67e12    /* FLOP/s, FP32 without tensor cores */
#define H200_PEAK_FLOPS_F64 34e12
#define H200_SM_COUNT 132

#endif
