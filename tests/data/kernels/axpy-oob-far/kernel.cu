// Broken on purpose: besides the right answer, thread 0 writes 4 TiB past the
// end of y, which is unmapped: an illegal address that kills the context.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
    if (i == 0)
        y[(size_t)n + ((size_t)1 << 40)] = 1.0f;
}
