// Broken on purpose: never finishes.  The loop reads through a volatile
// pointer so the compiler may not assume it terminates and delete it.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const volatile float *vx = x;
    while (vx[0] == vx[0]) // inputs are finite, so this is always true
        ;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
