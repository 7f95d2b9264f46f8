// Broken on purpose: a device-side assert that fails for high indices.
#include <cassert>

extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < 64);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
