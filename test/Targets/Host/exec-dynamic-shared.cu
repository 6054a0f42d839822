// Dynamic shared memory (extern __shared__) next to static shared
// variables of different alignment; each block reverses its slice.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=2 --block=8 --dyn-shared=64 %t.bc \
// RUN:   _Z3revPKfPfPd buf:f32:16:iota buf:f32:16 buf:f64:2 | FileCheck %s
// CHECK: arg1: 7 6 5 4 3 2 1 0 15 14 13 12 11 10 9 8
// CHECK-NEXT: arg2: 3.5 11.5

extern __shared__ float dyn[];
__global__ void rev(const float *in, float *out, double *mean) {
  __shared__ char tag[3];
  __shared__ double acc;
  int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    acc = 0;
    tag[0] = 'x';
  }
  dyn[t] = in[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = dyn[n - 1 - t];
  if (t == 0) {
    for (int k = 0; k < n; ++k)
      acc += dyn[k];
    mean[blockIdx.x] = tag[0] == 'x' ? acc / n : -1;
  }
}
