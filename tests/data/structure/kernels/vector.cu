// Vector loads and stores: 16 bytes per lane, still unit stride in float4 units.
// bind copy4: grid=1024,1,1 block=256,1,1
extern "C" __global__ void copy4(const float *__restrict__ x, float *__restrict__ y, int n4)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4)
        return;
    const float4 v = reinterpret_cast<const float4 *>(x)[i]; // expect: load x coalesced
    reinterpret_cast<float4 *>(y)[i] = v; // expect: store y coalesced
}
// expect-kernel copy4: vector=2 coalescing=1

/* A C-style cast to float2 of an offset pointer: float2 units. */
// bind pairs: grid=1024,1,1 block=256,1,1
extern "C" __global__ void pairs(const float *x, float *y, int n2)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        y[i] = ((const float2 *)(x + 2 * i))[0].x; // expect: store y coalesced, load x coalesced
}
// expect-kernel pairs: vector=1
// expect-features: vector_casts=3
