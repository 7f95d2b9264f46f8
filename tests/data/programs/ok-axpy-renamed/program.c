// the same computation, other names: same normalised source
void saxpy(const float *in, float *acc, float alpha, int len)
{
    for (int k = 0; k < len; k++)
        acc[k] = alpha * in[k] + acc[k];
}
