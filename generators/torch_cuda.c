#include "torch_cuda.h"

#include <stdarg.h>
#include <string.h>

#include "../common/strbuf.h"

/* Loads widen to float and stores round from float (round-to-nearest-even,
 * as torch does), so kernel bodies are written once for every dtype. */
static const char PRELUDE[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "\n"
    "static __device__ __forceinline__ float tc_ld(const float *p, long long i) { return p[i]; }\n"
    "static __device__ __forceinline__ float tc_ld(const __half *p, long long i) { return __half2float(p[i]); }\n"
    "static __device__ __forceinline__ float tc_ld(const __nv_bfloat16 *p, long long i) { return __bfloat162float(p[i]); }\n"
    "static __device__ __forceinline__ void tc_st(float *p, long long i, float v) { p[i] = v; }\n"
    "static __device__ __forceinline__ void tc_st(__half *p, long long i, float v) { p[i] = __float2half_rn(v); }\n"
    "static __device__ __forceinline__ void tc_st(__nv_bfloat16 *p, long long i, float v) { p[i] = __float2bfloat16_rn(v); }\n"
    "\n";

const char *tc_type(const TorchProg *t)
{
    const char *dt = tp_dtype(t);
    if (strcmp(dt, "f16") == 0)
        return "__half";
    if (strcmp(dt, "bf16") == 0)
        return "__nv_bfloat16";
    return "float";
}

void tc_cuda(TorchProg *t, const char *fmt, ...)
{
    StrBuf *src = gen_cuda_src(tp_gen(t));
    if (src->len == 0)
        sb_append(src, PRELUDE);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(src, fmt, ap);
    va_end(ap);
}

const char *tc_scratch(TorchProg *t, const char *count)
{
    const char *name = tp_keep(t, xasprintf("t%d", tp_serial(t)));
    gen_scratch(tp_gen(t), name, tp_dtype(t), count);
    return name;
}

const char *tc_name(TorchProg *t, const char *stem)
{
    return tp_keep(t, xasprintf("%s_%d", stem, tp_serial(t)));
}
