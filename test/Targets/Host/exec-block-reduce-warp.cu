// The usual block reduction: a shuffle reduction per warp, one value per
// warp through shared memory, a barrier, then the first warp (a
// block-divergent but warp-uniform branch) reduces those with shuffles
// again; the result goes to global memory with an atomic. 256 blocks of
// 192 threads on four workers.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=256 --block=192 --workers=4 %t.bc \
// RUN:   --print=1,2 _Z3sumPKfPfPi buf:f32:49152:mod=7 buf:f32:1 buf:i32:256 | FileCheck %s
// CHECK: arg1: 147451
// CHECK-NEXT: arg2: 570 579 574 576 578 573 582 570

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void sum(const float *in, float *total, int *perBlock) {
  __shared__ float partial[32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  float v = in[blockIdx.x * blockDim.x + t];
  v = warpSum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    v = warpSum(v);
    if (lane == 0) {
      atomicAdd(total, v);
      perBlock[blockIdx.x] = (int)v;
    }
  }
}
