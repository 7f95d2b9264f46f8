// y = a*x + y with x staged through shared memory, each element stored by
// the thread below the one that reads it (thread t stores x of element t+1;
// thread 0 stores its own).  The __syncthreads() between the stores and the
// loads is missing.  Run in thread order, every reader would find its lower
// neighbour's store already done and the race would never show; the CPU
// backend's scrambled order must catch it.
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    __shared__ float sh[257];
    int base = blockIdx.x * blockDim.x, t = threadIdx.x;
    if (t == 0)
        sh[0] = base < n ? x[base] : 0.0f;
    sh[t + 1] = base + t + 1 < n ? x[base + t + 1] : 0.0f;
    int i = base + t;
    if (i < n)
        y[i] = a * sh[t] + y[i];
}
