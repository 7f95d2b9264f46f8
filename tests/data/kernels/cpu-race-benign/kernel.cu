// Racy on purpose, with the right numbers: the sum of two quantities by
// one block-wide tree each in the same dynamic shared memory, and no
// barrier after reading the first one's total.  Thread 0 of warp 0 then
// stores its next value over s[0] while the other warps may still be about
// to read the first total: a write-after-read hazard (racecheck's error on
// a GPU).  Every thread's copy of the first total is used only by thread 0,
// so the output is right on the GPU and on the CPU backend's fibers alike;
// only --racecheck fails it.
#include <cuda_runtime.h>

__device__ float tree_sum(float v, float *s)
{
    s[threadIdx.x] = v;
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    __syncthreads();
    return s[0]; // <- a __syncthreads() after this read is missing
}

extern "C" __global__ void zero(float *out)
{
    out[0] = 0.0f;
}

extern "C" __global__ void block_sums(const float *x, float *out, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    float lo = tree_sum(v < 0.0f ? v : 0.0f, s);
    float hi = tree_sum(v < 0.0f ? 0.0f : v, s);
    if (threadIdx.x == 0)
        atomicAdd(out, lo + hi);
}
