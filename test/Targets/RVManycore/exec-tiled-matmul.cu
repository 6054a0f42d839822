// A 2-D tiled matrix product: 16x16 blocks (threadIdx.y), two barriers per
// tile step, a per-thread accumulator array live across the barriers (a
// frame allocation), on 4 cores. Every thread checks its element against a
// naive dot product; mismatches and a checksum are counted atomically.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=4 hetgpu-ttsim-run %t.elf _Z6matmulPKiS0_PiS1_i \
// RUN:   --grid 3,3 --block 16,16 buf:i32:2304:iota buf:i32:2304:=3 \
// RUN:   buf:i32:2304 buf:i32:2 i32:48 --print 3 | FileCheck %s
// Mismatches 0; checksum = sum over C = 48 columns * 3 * sum(A) = 144 * (2303*2304/2).
// CHECK: param 3: 0 382040064{{$}}
// REQUIRES: qemu-riscv64

#define T 16

__global__ void matmul(const int *A, const int *B, int *C, int *stats, int n) {
  __shared__ int as[T][T], bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  int acc[2] = {0, 0}; // two partial sums, alternating per tile
  for (int t = 0; t < n / T; ++t) {
    as[ty][tx] = A[row * n + t * T + tx];
    bs[ty][tx] = B[(t * T + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc[t & 1] += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  int c = acc[0] + acc[1];
  C[row * n + col] = c;
  int ref = 0;
  for (int k = 0; k < n; ++k)
    ref += A[row * n + k] * B[k * n + col];
  if (ref != c)
    atomicAdd(&stats[0], 1);
  atomicAdd(&stats[1], c);
}
