// Atomics on shared and global memory (integer add, max, float add) while
// blocks run on four worker threads at once.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=64 --block=128 --workers=4 %t.bc \
// RUN:   --print=1,2,3 _Z4histPKiPiS1_Pf buf:i32:8192:iota buf:i32:16 buf:i32:2 buf:f32:1 \
// RUN:   | FileCheck %s
// CHECK: arg1: 512 512 512 512 512 512 512 512 512 512 512 512 512 512 512 512
// CHECK-NEXT: arg2: 33550336 8191
// CHECK-NEXT: arg3: 4096

__global__ void hist(const int *in, int *bins, int *stats, float *fsum) {
  __shared__ int sb[16];
  int t = threadIdx.x;
  if (t < 16)
    sb[t] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  atomicAdd(&sb[v % 16], 1);
  atomicAdd(&stats[0], v);
  atomicMax(&stats[1], v);
  atomicAdd(fsum, 0.5f);
  __syncthreads();
  if (t < 16)
    atomicAdd(&bins[t], sb[t]);
}
