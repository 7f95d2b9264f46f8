// Barriers: which ones some threads of a block may skip.
#define BLOCK 256

/* A correct tree reduction: the condition guards the work, not the barrier. */
extern "C" __global__ void reduce_ok(const float *x, float *out, int n)
{
    __shared__ float sh[BLOCK];
    const int tid = threadIdx.x, i = blockIdx.x * BLOCK + tid;
    sh[tid] = i < n ? x[i] : 0; // expect: load x coalesced
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sh[tid] += sh[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sh[0]; // expect: store out uniform
}
// expect-kernel reduce_ok: syncthreads=2 divergent=0 early_exit=0 static_smem=1024

extern "C" __global__ void in_branch(float *x)
{
    __shared__ float sh[BLOCK];
    sh[threadIdx.x] = x[threadIdx.x]; // expect: load x coalesced
    if (threadIdx.x < 128) {
        __syncthreads(); // expect: divergent-barrier
        x[threadIdx.x] = sh[threadIdx.x + 1]; // expect: store x coalesced
    }
}
// expect-kernel in_branch: syncthreads=1 divergent=1

/* The trip count depends on the thread: threads leave the loop early. */
extern "C" __global__ void in_loop(float *x, int n)
{
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        x[j] *= 2; // expect: update x coalesced
        __syncthreads(); // expect: divergent-barrier
    }
}

/* A warp-dependent condition (warp 0 only) and a data-dependent one. */
extern "C" __global__ void per_warp(const float *x, float *y)
{
    const int warp = threadIdx.x / 32;
    if (warp == 0)
        __syncthreads(); // expect: divergent-barrier
    if (x[threadIdx.x] > 0) { // expect: load x coalesced
        y[threadIdx.x] = 1; // expect: store y coalesced
        __syncthreads(); // expect: divergent-barrier
    }
    if (x[0] > 0) // expect: load x uniform
        __syncthreads(); /* a uniform condition: every thread agrees */
}

/* Threads past the end return before the barrier. */
extern "C" __global__ void early_exit(const float *x, float *y, int n)
{
    __shared__ float sh[BLOCK];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    sh[threadIdx.x] = x[i]; // expect: load x coalesced
    __syncthreads(); // expect: early-exit-barrier
    y[i] = sh[BLOCK - 1 - threadIdx.x]; // expect: store y coalesced
}
// expect-kernel early_exit: early_exit=1 divergent=0

/* The barrier is inside a __device__ function called under a thread-dependent condition. */
__device__ void sync_and_store(float *y, int i)
{
    __syncthreads(); // expect: divergent-barrier
    y[i] = 0; // expect: store y coalesced
}

extern "C" __global__ void through_call(float *y)
{
    if (threadIdx.x % 2 == 0)
        sync_and_store(y, threadIdx.x);
}
// expect-kernel through_call: divergent=1 syncthreads=1
