// Broken for the CPU backend: 160 KB of locals per thread do not fit a
// fiber's 64 KiB stack (a GPU spills them to local memory).  Reported as a
// stack overflow naming the block and thread, not as silent corruption.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    volatile float big[40000];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    big[i % 40000] = 1.0f;
    __syncthreads();
    if (i < n)
        y[i] = a * x[i] + y[i] + big[i % 40000] * 0.0f;
}
