// Shared memory sizes, read-only loads, unrolling and warp primitives.
#define TILE 16
#define ITEMS 4

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

struct Pair {
    double a;
    int b;
};

// bind tiles: grid=64,64,1 block=16,16,1
extern "C" __global__ void tiles(const float *__restrict__ x, const double *__restrict__ w, float *y, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    __shared__ double acc[TILE * TILE];
    __shared__ Pair pairs[8];
    extern __shared__ float dyn[];
    const int col = blockIdx.x * TILE + threadIdx.x, row = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = __ldg(&x[row * n + col]); // expect: load x coalesced
    acc[threadIdx.y * TILE + threadIdx.x] = w[col]; // expect: load w coalesced
    __syncthreads();
    float s = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        s += tile[threadIdx.x][k] + dyn[k];
    s = warp_sum(s);
    if (__ballot_sync(0xffffffffu, s > 0) != 0u)
        y[row * n + col] = s + pairs[0].b; // expect: store y coalesced
}
// expect-kernel tiles: static_smem=3264 dynamic=1 ldg=1 const_restrict=2 warp_ops=2 syncthreads=1
// expect-features: pragma_unroll=1 shfl=1 votes=1 ldg=1 shared_decls=3 extern_shared_decls=1
