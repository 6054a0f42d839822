// Threads of one block waiting at different barriers is an error of the
// program: the launch fails with a message instead of hanging.
// RUN: %hetir %s -o %t.bc
// RUN: not hetgpu-host-run --block=64 %t.bc _Z3badPi buf:i32:64 | FileCheck %s
// CHECK: hetgpu: kernel _Z3badPi: block (0,0,0): threads wait at different barriers (sync points {{[0-9]+}} and {{[0-9]+}}): __syncthreads() in divergent control flow
// CHECK: launch failed: trap

__global__ void bad(int *out) {
  int t = threadIdx.x;
  if (t < 16) {
    out[t] = 1;
    __syncthreads();
    out[t] += 2;
  } else {
    out[t] = __syncthreads_count(t);
  }
}
