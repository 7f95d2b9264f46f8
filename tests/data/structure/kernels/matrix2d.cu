// 2-D blocks: the x index must be the last (fastest) index term.
// bind transpose: grid=64,64,1 block=32,8,1
extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[(long long)col * rows + row] = in[(long long)row * cols + col]; // expect: load in coalesced, store out strided
}
// expect-kernel transpose: coalescing=0.5625

/* A block of 1 x 256 threads: threadIdx.y is the lane index. */
// bind column: grid=1,64,1 block=1,256,1
extern "C" __global__ void column(const float *in, float *out, int n)
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n)
        out[i] = in[i]; // expect: load in coalesced, store out coalesced
}
