// Broken on purpose: the last element is never updated (off-by-one bound).
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        y[i] = a * x[i] + y[i];
}
