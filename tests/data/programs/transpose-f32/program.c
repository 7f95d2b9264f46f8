/* out[c][r] = a[r][c] */
void transpose(const float *a, float *out, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(long)c * rows + r] = a[(long)r * cols + c];
}
