// Cheat: never writes y, hoping the output buffer still holds a right answer
// from an earlier run (stale memory).
extern "C" __global__ void axpy(const float *x, float *y, float a, int n)
{
    (void)x, (void)y, (void)a, (void)n;
}
