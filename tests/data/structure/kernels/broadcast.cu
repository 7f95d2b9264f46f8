// Addresses the same for every lane of a warp (or for runs of lanes).
// bind bias: grid=1024,1,1 block=256,1,1
extern "C" __global__ void bias(const float *x, const float *b, const float *w, float *y, int n, int m)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = b[blockIdx.x] + w[i / 32]; // expect: load b uniform, load w uniform
    for (int k = 0; k < m; k++)
        acc += w[k]; // expect: load w uniform
    y[i] = acc * x[0]; // expect: store y coalesced, load x uniform
}
// expect-kernel bias: coalescing=1
