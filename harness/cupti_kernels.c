#include "cupti_kernels.h"

#include <cupti.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

#define BUFFER_BYTES (1 << 20)

static struct {
    void *lib;
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*disable)(CUpti_ActivityKind);
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
} g;

/* spans collected by the completion callback */
static KernelSpan *g_spans;
static int g_n, g_cap;

/* The timing loop's own kernels (gpu_timing.c's PTX module): the L2 flush
 * runs before every sample and the spinning gate ahead of it, so counting
 * them would make every collection disagree with the plan's launch count. */
static int timing_loop_kernel(const char *name)
{
    return name && (strcmp(name, "cudaperf_flush") == 0 || strcmp(name, "cudaperf_spin") == 0);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = BUFFER_BYTES;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    while (g.next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (timing_loop_kernel(k->name))
            continue;
        if (g_n == g_cap) {
            g_cap = g_cap ? 2 * g_cap : 256;
            g_spans = xrealloc(g_spans, sizeof *g_spans * (size_t)g_cap);
        }
        g_spans[g_n++] = (KernelSpan){k->start, k->end};
    }
    free(buffer);
}

int cupti_kernels_init(Error *e)
{
    if (g.lib)
        return 0;
    const char *env = getenv("CUDAPERF_LIBCUPTI");
    const char *names[] = {env, "libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so.13",
                           "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so",
                           NULL};
    const char *why = "not found";
    for (int i = 0; i < 5 && !g.lib; i++) {
        if (!names[i])
            continue;
        g.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!g.lib)
            why = dlerror();
    }
    if (!g.lib)
        return ERR(e, "CUPTI unavailable (%s): kernel times are not cross-checked", why);
    g.enable = (CUptiResult(*)(CUpti_ActivityKind))dlsym(g.lib, "cuptiActivityEnable");
    g.disable = (CUptiResult(*)(CUpti_ActivityKind))dlsym(g.lib, "cuptiActivityDisable");
    g.register_callbacks = (CUptiResult(*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc))dlsym(
        g.lib, "cuptiActivityRegisterCallbacks");
    g.flush_all = (CUptiResult(*)(uint32_t))dlsym(g.lib, "cuptiActivityFlushAll");
    g.next_record = (CUptiResult(*)(uint8_t *, size_t, CUpti_Activity **))dlsym(g.lib, "cuptiActivityGetNextRecord");
    if (!g.enable || !g.disable || !g.register_callbacks || !g.flush_all || !g.next_record) {
        dlclose(g.lib);
        memset(&g, 0, sizeof g);
        return ERR(e, "CUPTI lacks an activity entry point: kernel times are not cross-checked");
    }
    CUptiResult r = g.register_callbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        dlclose(g.lib);
        memset(&g, 0, sizeof g);
        return ERR(e, "cuptiActivityRegisterCallbacks failed (%d): kernel times are not cross-checked", (int)r);
    }
    return 0;
}

int cupti_kernels_start(Error *e)
{
    g_n = 0;
    CUptiResult r = g.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    return r == CUPTI_SUCCESS ? 0 : ERR(e, "cuptiActivityEnable failed (%d)", (int)r);
}

static int cmp_span(const void *a, const void *b)
{
    uint64_t x = ((const KernelSpan *)a)->start_ns, y = ((const KernelSpan *)b)->start_ns;
    return (x > y) - (x < y);
}

int cupti_kernels_stop(KernelSpan **spans, int *n, Error *e)
{
    g.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    CUptiResult r = g.flush_all(1);
    *n = 0;
    *spans = NULL;
    if (r != CUPTI_SUCCESS)
        return ERR(e, "cuptiActivityFlushAll failed (%d)", (int)r);
    qsort(g_spans, (size_t)g_n, sizeof *g_spans, cmp_span);
    *spans = xmalloc(sizeof **spans * (size_t)(g_n + 1));
    memcpy(*spans, g_spans, sizeof **spans * (size_t)g_n);
    *n = g_n;
    g_n = 0;
    return 0;
}
