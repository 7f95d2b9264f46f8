// One thread per element: unit stride in threadIdx.x.
// bind copy: grid=4096,1,1 block=256,1,1
extern "C" __global__ void copy(const float *__restrict__ x, float *__restrict__ y, int n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i]; // expect: load x coalesced, store y coalesced
}
// expect-kernel copy: const_restrict=1 coalescing=1 syncthreads=0

/* A grid-stride loop keeps the stride: i += blockDim.x * gridDim.x. */
// bind gridstride: grid=132,1,1 block=256,1,1
extern "C" __global__ void gridstride(const double *x, double *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] += x[i]; // expect: load x coalesced, update y coalesced
}
// expect-kernel gridstride: const_restrict=0 coalescing=1
