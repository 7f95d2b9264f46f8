// The transposed mapping: neighbouring threads are gridDim.x elements apart.
// bind transposed: grid=4096,1,1 block=256,1,1
extern "C" __global__ void transposed(const float *x, float *y, int n)
{
    const long long i = (long long)threadIdx.x * gridDim.x + blockIdx.x;
    if (i < n)
        y[i] = x[i]; // expect: load x strided stride=4096, store y strided stride=4096
}
// expect-kernel transposed: coalescing=0.125

/* With a single block the same mapping is unit stride. */
// bind oneblock: grid=1,1,1 block=256,1,1 n=256
extern "C" __global__ void oneblock(const float *x, float *y, int n)
{
    const long long i = (long long)threadIdx.x * gridDim.x + blockIdx.x;
    if (i < n)
        y[i] = x[i]; // expect: load x coalesced, store y coalesced
}
// expect-kernel oneblock: coalescing=1
