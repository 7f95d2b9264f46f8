// Accesses through function-like macros and __device__ functions belong to
// the lines that use them; strides follow the arguments.
#define A_AT(i, p) (a[(long long)(i) * k + (p)])

__device__ float load(const float *p, long long i)
{
    return p[i]; // expect: load a coalesced, load b strided
}

// bind rows: grid=16,16,1 block=16,16,1 k=512
extern "C" __global__ void rows(const float *a, const float *b, float *c, int m, int k)
{
    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int p = 0; p < k; p++)
        s += A_AT(i, p) * A_AT(p, j); // expect: load a uniform, load a coalesced
    s += load(a, (long long)i * k + j) + load(b, (long long)j * k + i);
    c[(long long)i * m + j] = s; // expect: store c coalesced
}
