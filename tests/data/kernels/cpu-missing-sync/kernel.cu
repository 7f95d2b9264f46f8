// Broken on purpose: the barrier between filling the shared array and
// reading it is missing.  On a GPU the result depends on timing; on the CPU
// backend thread 0 runs to its end before thread 1 stores anything, so the
// sum is wrong every time.
extern "C" __global__ void zero(float *out)
{
    out[0] = 0.0f;
}

extern "C" __global__ void block_sum(const float *x, float *out, int n)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    // __syncthreads();  <- missing
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int k = 0; k < 128; k++)
            total += s[k];
        atomicAdd(out, total);
    }
    __syncthreads(); // (keeps the kernel synchronising, as the fixed version does)
}
