// curand_kernel.h: per-thread Philox generators in a kernel compile to
// integer arithmetic plus the math builtins of Box-Muller; no library calls.
// Sequence rules and known-answer vectors: device-semantics.cu.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not="@curand"
// RUN: %clangxx %cuda_host -fsyntax-only %s
#include <curand_kernel.h>

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}monte_carloPfPjy(
// CHECK: mul {{.*}}i64 {{.*}}, 3528531795
// CHECK: call {{.*}}float @__hetgpu_math_logf(
// CHECK: call {{.*}}float @__hetgpu_math_sinf(
// CHECK: ret void
__global__ void monte_carlo(float *out, unsigned *hits, unsigned long long seed) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState state;
  curand_init(seed, id, 0, &state);
  unsigned inside = 0;
  for (int i = 0; i < 64; ++i) {
    float x = curand_uniform(&state), y = curand_uniform(&state);
    inside += x * x + y * y <= 1.0f;
  }
  atomicAdd(hits, inside);
  out[id] = curand_normal(&state);
}
