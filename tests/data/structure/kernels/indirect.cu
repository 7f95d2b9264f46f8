// Indices loaded from memory: the gathered access cannot be judged statically.
// bind gather: grid=4096,1,1 block=256,1,1
extern "C" __global__ void gather(const float *x, const int *idx, float *y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[idx[i]]; // expect: store y coalesced, load idx coalesced, load x indirect
}
// expect-kernel gather: coalescing=1

/* An embedding: the row index is shared by runs of d lanes, the column is
 * the lane: coalesced runs. */
// bind embed: grid=4096,1,1 block=256,1,1
extern "C" __global__ void embed(const float *table, const int *ids, float *out, int n, int d)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)n * d)
        return;
    out[i] = table[(long long)ids[i / d] * d + i % d]; // expect: store out coalesced, load ids uniform, load table coalesced
}
