/* fake_libcupti.c — a stand-in for libcupti.so.13's range profiler, so the
 * measured pass (cupti_profile.c), its protocol, storage and printing can
 * be tested end to end without a GPU.  Built by the tests with the real
 * CUPTI headers (so every parameter block has CUPTI's layout) and loaded
 * through $CUDAPERF_LIBCUPTI.  $FAKE_CUPTI_MODE: ok (every metric except
 * the barrier-stall ones is known; the plan needs 3 passes; values below),
 * denied (cuptiRangeProfilerEnable answers
 * CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, as a machine that restricts
 * counters to root does). */
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <stdlib.h>
#include <string.h>

#define PASSES 3

static int is(const char *m)
{
    const char *v = getenv("FAKE_CUPTI_MODE");
    return strcmp(v ? v : "ok", m) == 0;
}

static int passes_done, pushed_in_pass;
static CUpti_Profiler_Host_Object *const HOST = (CUpti_Profiler_Host_Object *)0x10;
static CUpti_RangeProfiler_Object *const RANGE = (CUpti_RangeProfiler_Object *)0x20;

CUptiResult cuptiGetResultString(CUptiResult r, const char **s)
{
    *s = r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" : "CUPTI_ERROR_UNKNOWN";
    return CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params *p) { (void)p; return CUPTI_SUCCESS; }
CUptiResult cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p) { p->pChipName = "GH100"; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params *p)
{
    if (!p->pCounterAvailabilityImage)
        p->counterAvailabilityImageSize = 16;
    else
        memset(p->pCounterAvailabilityImage, 1, p->counterAvailabilityImageSize);
    return CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params *p) { p->pHostObject = HOST; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetMetricProperties(CUpti_Profiler_Host_GetMetricProperties_Params *p)
{
    return strstr(p->pMetricName, "barrier") ? CUPTI_ERROR_INVALID_METRIC_NAME : CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params *p)
{
    for (size_t i = 0; i < p->numMetrics; i++)
        if (strstr(p->ppMetricNames[i], "barrier"))
            return CUPTI_ERROR_INVALID_METRIC_NAME;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params *p) { p->configImageSize = 64; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params *p) { memset(p->pConfigImage, 7, p->configImageSize); return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params *p) { p->numOfPasses = PASSES; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params *p)
{
    if (is("denied"))
        return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    p->pRangeProfilerObject = RANGE;
    passes_done = 0;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params *p) { (void)p; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params *p) { p->counterDataSize = 128; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerCounterDataImageInitialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p) { (void)p; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params *p)
{
    return p->range == CUPTI_UserRange && p->replayMode == CUPTI_UserReplay ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}
CUptiResult cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params *p) { (void)p; pushed_in_pass = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerPushRange(CUpti_RangeProfiler_PushRange_Params *p) { (void)p; pushed_in_pass++; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerPopRange(CUpti_RangeProfiler_PopRange_Params *p) { (void)p; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params *p)
{
    if (pushed_in_pass != 1)
        return CUPTI_ERROR_INVALID_OPERATION; /* one range per pass, as configured */
    p->isAllPassSubmitted = ++passes_done >= PASSES;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params *p) { p->numOfRangeDropped = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params *p) { p->numTotalRanges = 1; return CUPTI_SUCCESS; }

/* Fixed values a test can recognise: 1000 bytes read, 500 written, 400
 * load sectors over 100 requests (perfectly coalesced floats), 800 store
 * sectors over 100 requests (half), 50% warps active, 1000 ns. */
CUptiResult cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p)
{
    static const struct { const char *name; double v; } V[] = {
        {"dram__bytes_read.sum", 1000}, {"dram__bytes_write.sum", 500},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400}, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 800}, {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 100},
        {"sm__warps_active.avg.pct_of_peak_sustained_active", 50}, {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 10},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 20}, {"gpu__time_duration.sum", 1000}};
    if (passes_done < PASSES)
        return CUPTI_ERROR_INVALID_OPERATION;
    for (size_t i = 0; i < p->numMetrics; i++) {
        p->pMetricValues[i] = -1;
        for (size_t k = 0; k < sizeof V / sizeof *V; k++)
            if (strcmp(p->ppMetricNames[i], V[k].name) == 0)
                p->pMetricValues[i] = V[k].v;
    }
    return CUPTI_SUCCESS;
}
