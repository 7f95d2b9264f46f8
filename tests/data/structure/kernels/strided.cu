// Strides from parameters: resolved with the launch's values.
// bind axpy: grid=4096,1,1 block=256,1,1 incx=2 incy=1
extern "C" __global__ void axpy(const float *x, float *y, float a, int n, int incx, int incy)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    y[i * incy] += a * x[i * incx]; // expect: load x strided stride=2, update y coalesced
}
// expect-kernel axpy: coalescing=0.75

/* Interleaved pixels: constant stride 3; one thread per row: stride ld. */
// bind pixels: grid=100,1,1 block=256,1,1 ld=1000
extern "C" __global__ void pixels(const float *rgb, float *gray, float *rows, int n, int ld)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    gray[i] = 0.3f * rgb[3 * i] + 0.6f * rgb[3 * i + 1] + 0.1f * rgb[3 * i + 2]; // expect: store gray coalesced, load rgb strided stride=3, load rgb strided stride=3, load rgb strided stride=3
    float s = 0;
    for (int j = 0; j < 8; j++)
        s += rows[i * ld + j]; // expect: load rows strided stride=1000
    rows[i * ld] = s; // expect: store rows strided stride=1000
}
