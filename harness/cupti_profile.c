#include "cupti_profile.h"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/strbuf.h"

/* The entry points, each field named after its CUPTI function without the
 * "cupti" prefix (CUPTI_CALL builds the name back for messages). */
#define CUPTI_FUNCS(X)                                                                                                 \
    X(GetResultString)                                                                                                 \
    X(ProfilerInitialize)                                                                                              \
    X(DeviceGetChipName)                                                                                               \
    X(ProfilerGetCounterAvailability)                                                                                  \
    X(ProfilerHostInitialize)                                                                                          \
    X(ProfilerHostGetMetricProperties)                                                                                 \
    X(ProfilerHostConfigAddMetrics)                                                                                    \
    X(ProfilerHostGetConfigImageSize)                                                                                  \
    X(ProfilerHostGetConfigImage)                                                                                      \
    X(ProfilerHostGetNumOfPasses)                                                                                      \
    X(ProfilerHostEvaluateToGpuValues)                                                                                 \
    X(RangeProfilerEnable)                                                                                             \
    X(RangeProfilerDisable)                                                                                            \
    X(RangeProfilerGetCounterDataSize)                                                                                 \
    X(RangeProfilerCounterDataImageInitialize)                                                                         \
    X(RangeProfilerSetConfig)                                                                                          \
    X(RangeProfilerStart)                                                                                              \
    X(RangeProfilerStop)                                                                                               \
    X(RangeProfilerPushRange)                                                                                          \
    X(RangeProfilerPopRange)                                                                                           \
    X(RangeProfilerDecodeData)                                                                                         \
    X(RangeProfilerGetCounterDataInfo)

/* typed from the headers' own declarations */
#define FIELD(name) __typeof__(cupti##name) *name;
static struct {
    void *lib;
    CUPTI_FUNCS(FIELD)
    ProfileStatus sticky;          /* PROFILE_DENIED / _UNAVAILABLE once seen: not tried again */
    char sticky_note[512];
    int host_ready;                /* host object, selection and config image exist */
    CUpti_Profiler_Host_Object *host;
    ProfileSelection sel;
    uint8_t *config;               /* from malloc() */
    size_t config_size, passes;
    char chip[64];
} g;
#undef FIELD

ProfileStatus cupti_profile_status_of(int code)
{
    switch (code) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return PROFILE_DENIED;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_API_NOT_IMPLEMENTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return PROFILE_UNAVAILABLE;
    default:
        return PROFILE_FAILED;
    }
}

/* Records a failed CUPTI call in r: the status its code means and a note
 * naming the call, the code and our file:line.  Denied and unavailable
 * stick for the rest of the process. */
static void cupti_failed(ProfileResult *r, CUptiResult code, const char *call, const char *file, int line)
{
    const char *s = NULL;
    if (g.GetResultString)
        g.GetResultString(code, &s);
    r->status = cupti_profile_status_of((int)code);
    if (r->status == PROFILE_DENIED)
        snprintf(r->note, sizeof r->note,
                 "GPU performance counters are not permitted for this user (%s: %s, %s:%d); run as root or load "
                 "the driver with NVreg_RestrictProfilingToAdminUsers=0",
                 call, s ? s : "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", file, line);
    else
        snprintf(r->note, sizeof r->note, "%s: %s (CUPTI error %d, %s:%d)", call, s ? s : "?", (int)code, file, line);
    if (r->status != PROFILE_FAILED) {
        g.sticky = r->status;
        snprintf(g.sticky_note, sizeof g.sticky_note, "%s", r->note);
    }
}

/* Calls cupti<fn>(params); on failure records it in r and jumps to done. */
#define CUPTI_CALL(fn, params)                                                                                         \
    do {                                                                                                               \
        CUptiResult r_ = g.fn(params);                                                                                 \
        if (r_ != CUPTI_SUCCESS) {                                                                                     \
            cupti_failed(r, r_, "cupti" #fn, __FILE__, __LINE__);                                                      \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

static void unavailable(ProfileResult *r, const char *fmt, const char *what)
{
    r->status = PROFILE_UNAVAILABLE;
    snprintf(r->note, sizeof r->note, fmt, what);
    g.sticky = PROFILE_UNAVAILABLE;
    snprintf(g.sticky_note, sizeof g.sticky_note, "%s", r->note);
}

/* dlopen()s CUPTI and resolves every entry point; r says why not. */
static int load(ProfileResult *r)
{
    if (g.lib)
        return 0;
    const char *env = getenv("CUDAPERF_LIBCUPTI");
    const char *names[] = {env, "libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so.13",
                           "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"};
    const char *why = "not found";
    /* a path given in the environment is the only one tried */
    size_t n_names = env && *env ? 1 : sizeof names / sizeof *names;
    for (size_t i = 0; i < n_names && !g.lib; i++) {
        if (!names[i] || !*names[i])
            continue;
        g.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!g.lib)
            why = dlerror();
    }
    if (!g.lib) {
        unavailable(r, "CUPTI unavailable (%s): no measured metrics", why);
        return -1;
    }
    void *f;
#define RESOLVE(name)                                                                                            \
    f = dlsym(g.lib, "cupti" #name);                                                                                   \
    if (!f) {                                                                                                          \
        unavailable(r, "CUPTI lacks %s (older than CUDA 12.6?): no measured metrics", "cupti" #name);                  \
        return -1;                                                                                                     \
    }                                                                                                                  \
    memcpy(&g.name, &f, sizeof f);
    CUPTI_FUNCS(RESOLVE)
#undef RESOLVE
    /* CUPTI opens libnvperf_host.so by its bare name; where CUPTI's own
     * directory is not on the loader's path, load it from there first
     * (global, so CUPTI's dlopen finds it by its soname). */
    Dl_info info;
    if (dladdr(f, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash) {
            char *path = xasprintf("%.*s/libnvperf_host.so", (int)(slash - info.dli_fname), info.dli_fname);
            dlopen(path, RTLD_NOW | RTLD_GLOBAL); /* may fail: the loader's search then decides */
            free(path);
        }
    }
    return 0;
}

static int metric_known(const char *name, void *arg)
{
    (void)arg;
    CUpti_Profiler_Host_GetMetricProperties_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
    p.pHostObject = g.host;
    p.pMetricName = name;
    return g.ProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

/* Once per process: CUPTI's profiler, the host object for this chip, the
 * metrics it knows, the config image and its pass count. */
static int host_setup(CUcontext ctx, int device, ProfileResult *r)
{
    int rc = -1;
    uint8_t *avail = NULL;
    const char **names = NULL;
    CUpti_Profiler_Initialize_Params ip;
    memset(&ip, 0, sizeof ip);
    ip.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    CUPTI_CALL(ProfilerInitialize, &ip);

    CUpti_Device_GetChipName_Params cn;
    memset(&cn, 0, sizeof cn);
    cn.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    cn.deviceIndex = (size_t)device;
    CUPTI_CALL(DeviceGetChipName, &cn);
    snprintf(g.chip, sizeof g.chip, "%s", cn.pChipName ? cn.pChipName : "?");

    CUpti_Profiler_GetCounterAvailability_Params ca;
    memset(&ca, 0, sizeof ca);
    ca.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    ca.ctx = ctx;
    CUPTI_CALL(ProfilerGetCounterAvailability, &ca);
    avail = xcalloc(ca.counterAvailabilityImageSize + 1, 1);
    ca.pCounterAvailabilityImage = avail;
    CUPTI_CALL(ProfilerGetCounterAvailability, &ca);

    CUpti_Profiler_Host_Initialize_Params hi;
    memset(&hi, 0, sizeof hi);
    hi.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = g.chip;
    hi.pCounterAvailabilityImage = avail;
    CUPTI_CALL(ProfilerHostInitialize, &hi);
    g.host = hi.pHostObject;

    profile_resolve(metric_known, NULL, &g.sel);
    if (g.sel.n == 0) {
        r->status = PROFILE_UNAVAILABLE;
        snprintf(r->note, sizeof r->note, "CUPTI on chip %s knows none of the metrics this harness uses", g.chip);
        g.sticky = PROFILE_UNAVAILABLE;
        snprintf(g.sticky_note, sizeof g.sticky_note, "%s", r->note);
        goto done;
    }
    names = xcalloc((size_t)g.sel.n, sizeof *names);
    for (int i = 0; i < g.sel.n; i++)
        names[i] = g.sel.names[i];
    CUpti_Profiler_Host_ConfigAddMetrics_Params am;
    memset(&am, 0, sizeof am);
    am.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    am.pHostObject = g.host;
    am.ppMetricNames = names;
    am.numMetrics = (size_t)g.sel.n;
    CUPTI_CALL(ProfilerHostConfigAddMetrics, &am);

    CUpti_Profiler_Host_GetConfigImageSize_Params cs;
    memset(&cs, 0, sizeof cs);
    cs.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    cs.pHostObject = g.host;
    CUPTI_CALL(ProfilerHostGetConfigImageSize, &cs);
    g.config_size = cs.configImageSize;
    g.config = xcalloc(g.config_size + 1, 1);
    CUpti_Profiler_Host_GetConfigImage_Params ci;
    memset(&ci, 0, sizeof ci);
    ci.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    ci.pHostObject = g.host;
    ci.configImageSize = g.config_size;
    ci.pConfigImage = g.config;
    CUPTI_CALL(ProfilerHostGetConfigImage, &ci);

    CUpti_Profiler_Host_GetNumOfPasses_Params np;
    memset(&np, 0, sizeof np);
    np.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    np.configImageSize = g.config_size;
    np.pConfigImage = g.config;
    CUPTI_CALL(ProfilerHostGetNumOfPasses, &np);
    g.passes = np.numOfPasses;
    g.host_ready = 1;
    rc = 0;
done:
    free(avail);
    free(names);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Notes the quantities no metric of this chip gives. */
static void note_missing(ProfileResult *r)
{
    StrBuf sb = STRBUF_INIT;
    for (int q = 0; q < PQ_COUNT; q++)
        if (g.sel.missing[q])
            sb_printf(&sb, "%s%s", sb.len ? ", " : "", profile_quantity_key((ProfileQuantity)q));
    if (sb.len)
        snprintf(r->note, sizeof r->note, "chip %s: no metric for %s", g.chip, sb_str(&sb));
    sb_release(&sb);
}

int cupti_profile_run(CUcontext ctx, int device, CuptiPassFn prepare, CuptiPassFn execute, void *arg,
                      int max_passes, ProfileResult *r, Error *e)
{
    int rc = 0, enabled = 0, started = 0, pushed = 0;
    uint8_t *data = NULL;
    double t0 = now_s();
    CUpti_RangeProfiler_Object *obj = NULL;
    r->n_metrics = 0;
    r->passes = 0;
    if (g.sticky != PROFILE_NOT_RUN) {
        r->status = g.sticky;
        snprintf(r->note, sizeof r->note, "%s", g.sticky_note);
        return 0;
    }
    if (load(r) != 0 || (!g.host_ready && host_setup(ctx, device, r) != 0))
        return 0;
    r->status = PROFILE_FAILED; /* until every pass is in */

    CUpti_RangeProfiler_Enable_Params en;
    memset(&en, 0, sizeof en);
    en.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    en.ctx = ctx;
    CUPTI_CALL(RangeProfilerEnable, &en);
    obj = en.pRangeProfilerObject;
    enabled = 1;

    const char *names[PROFILE_MAX_METRICS];
    for (int i = 0; i < g.sel.n; i++)
        names[i] = g.sel.names[i];
    CUpti_RangeProfiler_GetCounterDataSize_Params ds;
    memset(&ds, 0, sizeof ds);
    ds.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    ds.pRangeProfilerObject = obj;
    ds.pMetricNames = names;
    ds.numMetrics = (size_t)g.sel.n;
    ds.maxNumOfRanges = 1;
    ds.maxNumRangeTreeNodes = 1;
    CUPTI_CALL(RangeProfilerGetCounterDataSize, &ds);
    data = xcalloc(ds.counterDataSize + 1, 1);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di;
    memset(&di, 0, sizeof di);
    di.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    di.pRangeProfilerObject = obj;
    di.counterDataSize = ds.counterDataSize;
    di.pCounterData = data;
    CUPTI_CALL(RangeProfilerCounterDataImageInitialize, &di);

    CUpti_RangeProfiler_SetConfig_Params sc;
    memset(&sc, 0, sizeof sc);
    sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    sc.pRangeProfilerObject = obj;
    sc.configSize = g.config_size;
    sc.pConfig = g.config;
    sc.counterDataImageSize = ds.counterDataSize;
    sc.pCounterDataImage = data;
    sc.range = CUPTI_UserRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI_CALL(RangeProfilerSetConfig, &sc);

    int all = 0;
    while (!all) {
        if (r->passes >= max_passes) {
            snprintf(r->note, sizeof r->note, "the metrics needed more than %d passes (CUPTI planned %zu)",
                     max_passes, g.passes);
            goto done;
        }
        int pr = prepare(arg, e);
        if (pr != 0) {
            rc = pr;
            goto done;
        }
        CUpti_RangeProfiler_Start_Params st;
        memset(&st, 0, sizeof st);
        st.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
        st.pRangeProfilerObject = obj;
        CUPTI_CALL(RangeProfilerStart, &st);
        started = 1;
        CUpti_RangeProfiler_PushRange_Params pu;
        memset(&pu, 0, sizeof pu);
        pu.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
        pu.pRangeProfilerObject = obj;
        pu.pRangeName = "plan";
        CUPTI_CALL(RangeProfilerPushRange, &pu);
        pushed = 1;
        int xr = execute(arg, e);
        if (xr != 0) {
            rc = xr;
            goto done;
        }
        CUpti_RangeProfiler_PopRange_Params po;
        memset(&po, 0, sizeof po);
        po.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
        po.pRangeProfilerObject = obj;
        pushed = 0;
        CUPTI_CALL(RangeProfilerPopRange, &po);
        CUpti_RangeProfiler_Stop_Params sp;
        memset(&sp, 0, sizeof sp);
        sp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
        sp.pRangeProfilerObject = obj;
        started = 0;
        CUPTI_CALL(RangeProfilerStop, &sp);
        all = sp.isAllPassSubmitted;
        r->passes++;
    }
    CUpti_RangeProfiler_DecodeData_Params dd;
    memset(&dd, 0, sizeof dd);
    dd.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    dd.pRangeProfilerObject = obj;
    CUPTI_CALL(RangeProfilerDecodeData, &dd);
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi;
    memset(&gi, 0, sizeof gi);
    gi.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    gi.pCounterDataImage = data;
    gi.counterDataImageSize = ds.counterDataSize;
    CUPTI_CALL(RangeProfilerGetCounterDataInfo, &gi);
    if (gi.numTotalRanges < 1 || dd.numOfRangeDropped > 0) {
        snprintf(r->note, sizeof r->note, "the profiler kept %zu ranges (%zu dropped) instead of 1",
                 gi.numTotalRanges, dd.numOfRangeDropped);
        goto done;
    }
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev;
    memset(&ev, 0, sizeof ev);
    ev.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    ev.pHostObject = g.host;
    ev.pCounterDataImage = data;
    ev.counterDataImageSize = ds.counterDataSize;
    ev.rangeIndex = 0;
    ev.ppMetricNames = names;
    ev.numMetrics = (size_t)g.sel.n;
    ev.pMetricValues = r->values;
    CUPTI_CALL(ProfilerHostEvaluateToGpuValues, &ev);
    r->n_metrics = g.sel.n;
    for (int i = 0; i < g.sel.n; i++)
        snprintf(r->names[i], sizeof r->names[i], "%s", g.sel.names[i]);
    r->status = PROFILE_OK;
    r->note[0] = '\0';
    note_missing(r);
done:
    /* unwind what is open; errors here change nothing already recorded */
    if (pushed) {
        CUpti_RangeProfiler_PopRange_Params po;
        memset(&po, 0, sizeof po);
        po.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
        po.pRangeProfilerObject = obj;
        g.RangeProfilerPopRange(&po);
    }
    if (started) {
        CUpti_RangeProfiler_Stop_Params sp;
        memset(&sp, 0, sizeof sp);
        sp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
        sp.pRangeProfilerObject = obj;
        g.RangeProfilerStop(&sp);
    }
    if (enabled) {
        CUpti_RangeProfiler_Disable_Params dp;
        memset(&dp, 0, sizeof dp);
        dp.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
        dp.pRangeProfilerObject = obj;
        g.RangeProfilerDisable(&dp);
    }
    free(data);
    r->seconds = now_s() - t0;
    if (rc != 0)
        r->status = PROFILE_FAILED;
    return rc;
}
