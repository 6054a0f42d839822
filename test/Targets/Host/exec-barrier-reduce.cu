// Block barriers in a loop with values live across them (tree reduction in
// static shared memory), then __syncthreads_count/_and/_or. Blocks run on
// two worker threads.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: hetgpu-host-run --grid=4 --block=256 --workers=2 --print=1,2 %t.so _Z6reducePKiPiS1_ \
// RUN:   buf:i32:1024:iota buf:i32:4 buf:i32:12 | FileCheck %s
// CHECK: arg1: 32640 98176 163712 229248
// CHECK: arg2: 86 1 1 85 1 1 85 1 1 86 1 1

__global__ void reduce(const int *in, int *out, int *flags) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  int c = __syncthreads_count(v % 3 == 0);
  int a = __syncthreads_and(t < 1000);
  int o = __syncthreads_or(t == 77);
  if (t == 0) {
    out[blockIdx.x] = s[0];
    flags[3 * blockIdx.x] = c;
    flags[3 * blockIdx.x + 1] = a;
    flags[3 * blockIdx.x + 2] = o;
  }
}
