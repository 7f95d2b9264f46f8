// Broken on purpose: the right answer, plus one element written just past the
// end of y.  That address is mapped (allocations are rounded up), so only the
// harness's guard zones can see it.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
    if (i == 0)
        y[n] = 0.0f;
}
