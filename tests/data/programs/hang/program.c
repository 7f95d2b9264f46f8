/* never returns */
void axpy(const float *x, float *y, float a, int n)
{
    volatile int spin = 1;
    while (spin)
        y[0] = a * x[0] + (float)n;
}
