/* ignores its input */
void fill(const float *x, float *y, float a, int n)
{
    (void)x;
    (void)a;
    for (int i = 0; i < n; i++)
        y[i] = 1.0f;
}
