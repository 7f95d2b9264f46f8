// out[0] = sum(x) with a block reduction in dynamic shared memory (size from
// the launch: blockDim.x floats), the block totals added with atomicAdd.
extern "C" __global__ void zero(float *out)
{
    out[0] = 0.0f;
}

extern "C" __global__ void block_sum(const float *x, float *out, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}
