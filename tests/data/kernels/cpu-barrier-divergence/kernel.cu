// Broken on purpose: a barrier only half of each block reaches (undefined
// behaviour on a GPU; on the CPU backend a "barrier divergence" error).
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16)
        __syncthreads();
    if (i < n)
        y[i] = a * x[i] + y[i];
}
