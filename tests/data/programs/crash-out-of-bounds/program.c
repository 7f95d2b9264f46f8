/* writes one element past the end */
void axpy(const float *x, float *y, float a, int n)
{
    for (int i = 0; i <= n + 4096; i++)
        y[i] = a * x[i % n] + 1.0f;
}
