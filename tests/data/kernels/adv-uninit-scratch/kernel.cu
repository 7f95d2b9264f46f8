// Bug: reads a scratch buffer nothing wrote (the harness poisons scratch with NaN).
extern "C" __global__ void axpy(const float *x, float *y, float a, int n, const float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i] + tmp[i];
}
