// Threads that return before a barrier (the common `if (i >= n) return;`
// guard in a kernel that synchronises later) do not block the others, as on
// GPUs: exited threads count as arrived.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=2 --block=64 %t.bc --print=1 _Z5guardPiS_i buf:i32:128:iota buf:i32:128 i32=100 \
// RUN:   | FileCheck %s
// CHECK: arg1: 1 2 3 4 5
// CHECK-SAME: 99 100 0 0 0

__global__ void guard(int *in, int *out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n)
    return;
  s[t] = in[i];
  __syncthreads();
  int nb = (t + 1) % blockDim.x;
  int j = blockIdx.x * blockDim.x + nb;
  out[i] = j < n ? s[nb] : in[i] + 1;
}
