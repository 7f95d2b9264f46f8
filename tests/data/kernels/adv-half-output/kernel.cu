// Cheat: computes only the first half of the output.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        y[i] = a * x[i] + y[i];
}
