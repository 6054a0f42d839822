// Tiled matrix multiply: two barriers per iteration of a loop over tiles,
// 2-D blocks and a 2-D grid, values (the accumulator, indices) live across
// both barriers.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: hetgpu-host-run --grid=3,2 --block=8,8 --workers=3 %t.so \
// RUN:   _Z6matmulPKfS0_Pfi buf:f32:1152:mod=5 buf:f32:1152:mod=3 buf:f32:384 i32=24 > %t.out
// RUN: python3 %S/Inputs/matmul_ref.py | diff - %t.out

#define TILE 8
__global__ void matmul(const float *A, const float *B, float *C, int K) {
  // A is 16 x K, B is K x 24, C is 16 x 24 (row-major).
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  int N = gridDim.x * TILE;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
