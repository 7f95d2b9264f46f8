/* y = a*x + y, but with n before a: meta.json lists a first */
void axpy(const float *x, float *y, int n, float a)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
