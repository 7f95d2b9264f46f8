// Correct on a GPU, refused on the CPU: the lane id comes from inline PTX.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    (void)lane;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
