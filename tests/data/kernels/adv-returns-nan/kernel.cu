// Bug: returns NaN everywhere.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __int_as_float(0x7fc00000) * a + x[i];
}
