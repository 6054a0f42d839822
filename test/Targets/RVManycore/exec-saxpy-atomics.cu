// A loop kernel on 8 cores: every block updates its slice of y and counts
// itself in a __device__ variable with an A-extension atomic; the counter
// shows that all 64 blocks ran exactly once across the core processes.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=8 hetgpu-ttsim-run %t.elf _Z5saxpyPfPKffi \
// RUN:   --grid 64 --block 32 buf:f32:2000:=1 buf:f32:2000:iota f32:2 i32:2000 \
// RUN:   --print 0 --global counter:i32:1 | FileCheck %s
// Static block split: the same result.
// RUN: env HETGPU_TTSIM_CORES=3 HETGPU_TTSIM_SCHED=static hetgpu-ttsim-run \
// RUN:   %t.elf _Z5saxpyPfPKffi --grid 64 --block 32 buf:f32:2000:=1 \
// RUN:   buf:f32:2000:iota f32:2 i32:2000 --print 0 --global counter:i32:1 \
// RUN:   | FileCheck %s
// CHECK: param 0: 1 3 5 7 9 {{.*}} 3995 3997 3999{{$}}
// CHECK: counter: 64{{$}}
// REQUIRES: qemu-riscv64

__device__ int counter;

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  if (threadIdx.x == 0)
    atomicAdd(&counter, 1);
}
