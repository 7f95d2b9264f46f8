// Broken on purpose: a full-mask shuffle that lanes 16-31 never reach.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if (threadIdx.x % 32 < 16)
        v = __shfl_xor_sync(0xffffffffu, v, 1);
    if (i < n)
        y[i] = a * x[i] + y[i] + 0.0f * v;
}
