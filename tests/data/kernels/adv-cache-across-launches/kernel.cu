// Cheat: does the work once, then remembers in a __device__ variable that it
// "already did" and returns early on every later launch.
__device__ int cudaperf_adv_done;

extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (cudaperf_adv_done > 0)
        return;
    if (i < n)
        y[i] = a * x[i] + y[i];
    if (i == 0)
        atomicAdd(&cudaperf_adv_done, 1);
}
