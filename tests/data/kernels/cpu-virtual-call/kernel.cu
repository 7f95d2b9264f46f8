// Correct: axpy through a virtual call on an object made with new.  Its
// vtable and operator new/delete come from libstdc++, which the CPU
// backend's first (lean) link leaves out: this kernel needs the full link.
struct Op {
    __device__ virtual float apply(float x, float y) const = 0;
    __device__ virtual ~Op() {}
};

struct Axpy : Op {
    float a;
    __device__ explicit Axpy(float a_) : a(a_) {}
    __device__ float apply(float x, float y) const override { return a * x + y; }
};

extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Op *op = new Axpy(a);
    y[i] = op->apply(x[i], y[i]);
    delete op;
}
