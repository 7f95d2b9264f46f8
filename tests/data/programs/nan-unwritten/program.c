/* forgets the last element */
void axpy(const float *x, float *y, float a, int n)
{
    for (int i = 0; i + 1 < n; i++)
        y[i] = a * x[i] + y[i];
}
