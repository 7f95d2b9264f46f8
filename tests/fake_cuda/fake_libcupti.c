/* fake_libcupti.c — a stand-in for libcupti.so.13's range profiler, so the
 * measured pass (cupti_profile.c), its protocol, storage and printing can
 * be tested end to end without a GPU.  Built by the tests with the real
 * CUPTI headers (so every parameter block has CUPTI's layout) and loaded
 * through $CUDAPERF_LIBCUPTI.  $FAKE_CUPTI_MODE: ok (every metric except
 * the barrier-stall ones is known; the plan needs 3 passes; values below),
 * denied (cuptiRangeProfilerEnable answers
 * CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, as a machine that restricts
 * counters to root does).
 *
 * It also keeps CUPTI's activity API for kernel records (the timing loop's
 * cross-check, cupti_kernels.c): the fake driver reports each launch
 * through fake_cupti_kernel(), and while CONCURRENT_KERNEL activity is
 * enabled every launch becomes a CUpti_ActivityKernel10 record handed to
 * the client's buffer callbacks on cuptiActivityFlushAll. */
#include <cupti_activity.h>
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

/* ---- activity records of kernels ---- */

#define MAX_RECORDS 4096
static CUpti_ActivityKernel10 records[MAX_RECORDS];
static int n_records, kernels_enabled;
static uint64_t clock_ns = 1000000;
static CUpti_BuffersCallbackRequestFunc on_request;
static CUpti_BuffersCallbackCompleteFunc on_complete;

/* Called by the fake driver for every launch: a record of `ns` nanoseconds
 * (the name must outlive the collection: the driver's names are literals). */
void fake_cupti_kernel(const char *name, uint64_t ns)
{
    if (!kernels_enabled || n_records == MAX_RECORDS)
        return;
    CUpti_ActivityKernel10 *k = &records[n_records++];
    memset(k, 0, sizeof *k);
    k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k->name = name;
    k->start = clock_ns;
    k->end = clock_ns + ns;
    clock_ns += ns + 100;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
    if (kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        return CUPTI_ERROR_NOT_SUPPORTED;
    kernels_enabled = 1;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind)
{
    (void)kind;
    kernels_enabled = 0;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                           CUpti_BuffersCallbackCompleteFunc complete)
{
    on_request = request;
    on_complete = complete;
    return CUPTI_SUCCESS;
}
/* The records go out in as many client buffers as they need. */
CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    int sent = 0;
    while (sent < n_records) {
        uint8_t *buf = NULL;
        size_t size = 0, max_records = 0;
        on_request(&buf, &size, &max_records);
        size_t fit = size / sizeof *records, n = (size_t)(n_records - sent);
        if (fit == 0)
            return CUPTI_ERROR_INVALID_PARAMETER;
        if (n > fit)
            n = fit;
        memcpy(buf, &records[sent], n * sizeof *records);
        on_complete(NULL, 0, buf, size, n * sizeof *records);
        sent += (int)n;
    }
    n_records = 0;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    uint8_t *next = *record ? (uint8_t *)*record + sizeof *records : buffer;
    if (next + sizeof *records > buffer + valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}
