/* out[0] = x[0] + ... + x[n-1], accumulated in double */
void sum(const float *x, float *out, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    out[0] = (float)s;
}
