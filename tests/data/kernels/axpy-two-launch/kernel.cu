// y = a*x + y in two launches through a scratch buffer: tmp = a*x, then y += tmp.
extern "C" __global__ void scale(const float *x, float *tmp, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tmp[i] = a * x[i];
}

extern "C" __global__ void accumulate(const float *tmp, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += tmp[i];
}
