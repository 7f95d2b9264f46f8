// Broken on purpose: the right y, but x (an input) is overwritten afterwards.
extern "C" __global__ void axpy(float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
        x[i] = 0.0f;
    }
}
