// y = a*x + y, staged through shared memory: each thread stores the x of
// its mirror element in the block, then reads back its own.  The
// __syncthreads() between the store and the load is missing (a planted
// shared-memory race between warps): `harness eval --racecheck` must fail it
// whether or not the GPU happens to compute the right numbers.  Not in
// expected.txt, whose cases must give the same verdict on every run.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    __shared__ float sh[256];
    int base = blockIdx.x * blockDim.x;
    int mirror = blockDim.x - 1 - threadIdx.x;
    sh[mirror] = base + mirror < n ? x[base + mirror] : 0.0f;
    int i = base + threadIdx.x;
    if (i < n)
        y[i] = a * sh[threadIdx.x] + y[i];
}
