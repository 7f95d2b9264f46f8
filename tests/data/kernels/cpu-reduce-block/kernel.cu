// out[0] = sum(x) in two launches: each block reduces 256 elements with a
// shared-memory tree (a barrier per level) into partial[block], then one
// block reduces the partials the same way.
#include <cuda_runtime.h>

__device__ float block_sum(float v)
{
    __shared__ float s[256];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    return s[0];
}

extern "C" __global__ void partial_sums(const float *x, float *partial, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float total = block_sum(i < n ? x[i] : 0.0f);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = total;
}

extern "C" __global__ void final_sum(const float *partial, float *out, int n_partial)
{
    float v = 0.0f;
    for (int i = threadIdx.x; i < n_partial; i += blockDim.x)
        v += partial[i];
    float total = block_sum(v);
    if (threadIdx.x == 0)
        out[0] = total;
}
