// out = a^T through a 32x33 shared-memory tile (the extra column avoids bank
// conflicts): each block loads a tile with coalesced reads, waits at the
// barrier, then writes it transposed.  32x8 threads, 4 rows each.
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose(const float *__restrict__ a, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = a[(long)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
