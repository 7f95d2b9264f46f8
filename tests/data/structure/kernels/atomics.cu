// Atomics: a shared-memory histogram merged into global memory.
#define NBINS 64
extern "C" __global__ void histogram(const int *v, int *counts, float *total, int n)
{
    __shared__ int local[NBINS];
    if (threadIdx.x < NBINS)
        local[threadIdx.x] = 0;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int x = v[i]; // expect: load v coalesced
        atomicAdd(&local[x & (NBINS - 1)], 1);
        atomicAdd(total, (float)x); // expect: atomic total uniform
    }
    __syncthreads();
    if (threadIdx.x < NBINS)
        atomicAdd(&counts[threadIdx.x], local[threadIdx.x]); // expect: atomic counts coalesced
}
// expect-kernel histogram: atomics_global=2 atomics_shared=1 syncthreads=2 divergent=0 static_smem=256
// expect-features: atomics=3
